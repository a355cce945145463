//! Per-vertex IQE commands that need more than "read N numbers": `vb` blend pairs and `vertexarray`
//! declarations.

/// Influences kept per vertex, as in IQM.
pub const MAX_INFLUENCES: usize = 4;

/// Keeps the largest weights of a `vb` line as it is read, without allocating for long lists.
#[derive(Debug, Default)]
pub struct BlendAccumulator {
    joints: [u32; MAX_INFLUENCES],
    weights: [f32; MAX_INFLUENCES],
    len: usize,
}

impl BlendAccumulator {
    /// Offers one pair. Weights ≤ 0 carry no influence and are skipped; on a tie the earlier pair stays.
    pub fn push(&mut self, joint: u32, weight: f32) {
        if weight <= 0.0 {
            return;
        }
        // Position of the first kept weight smaller than this one.
        let at = self.weights[..self.len].iter().position(|&w| w < weight).unwrap_or(self.len);
        if at >= MAX_INFLUENCES {
            return;
        }
        let end = self.len.min(MAX_INFLUENCES - 1);
        for i in (at..end).rev() {
            self.joints[i + 1] = self.joints[i];
            self.weights[i + 1] = self.weights[i];
        }
        self.joints[at] = joint;
        self.weights[at] = weight;
        self.len = (self.len + 1).min(MAX_INFLUENCES);
    }

    /// The kept influences, renormalised to sum to 1 (all zero when none were kept). Unused slots hold joint 0
    /// and weight 0.
    pub fn finish(&self) -> ([u32; MAX_INFLUENCES], [f32; MAX_INFLUENCES]) {
        let sum: f32 = self.weights[..self.len].iter().sum();
        let mut w = [0.0; MAX_INFLUENCES];
        let mut j = [0; MAX_INFLUENCES];
        if sum > 0.0 && sum.is_finite() {
            // Weights that already sum to 1 keep their bits, so IQM → IQE → scene is exact.
            let sum = if (sum - 1.0).abs() <= 1e-6 { 1.0 } else { sum };
            for i in 0..self.len {
                w[i] = self.weights[i] / sum;
                j[i] = self.joints[i];
            }
        }
        (j, w)
    }
}

/// What a `vertexarray` TYPE names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayType {
    Position,
    Texcoord,
    Normal,
    Tangent,
    BlendIndexes,
    BlendWeights,
    Color,
    Custom(u8),
}

impl ArrayType {
    /// Case-insensitive, as the reference converter matches it.
    pub fn parse(tok: &[u8]) -> Option<ArrayType> {
        let lower = tok.to_ascii_lowercase();
        Some(match lower.as_slice() {
            b"position" => ArrayType::Position,
            b"texcoord" => ArrayType::Texcoord,
            b"normal" => ArrayType::Normal,
            b"tangent" => ArrayType::Tangent,
            b"blendindexes" => ArrayType::BlendIndexes,
            b"blendweights" => ArrayType::BlendWeights,
            b"color" => ArrayType::Color,
            [b'c', b'u', b's', b't', b'o', b'm', d @ b'0'..=b'9'] => ArrayType::Custom(d - b'0'),
            _ => return None,
        })
    }

    pub fn name(self) -> String {
        match self {
            ArrayType::Position => "position".into(),
            ArrayType::Texcoord => "texcoord".into(),
            ArrayType::Normal => "normal".into(),
            ArrayType::Tangent => "tangent".into(),
            ArrayType::BlendIndexes => "blendindexes".into(),
            ArrayType::BlendWeights => "blendweights".into(),
            ArrayType::Color => "color".into(),
            ArrayType::Custom(n) => format!("custom{n}"),
        }
    }
}

/// The component formats IQM can store, by their IQE names.
pub const FORMATS: [&str; 9] = ["byte", "ubyte", "short", "ushort", "int", "uint", "half", "float", "double"];

/// The canonical (lower-case) format name, or `None` when unknown.
pub fn parse_format(tok: &[u8]) -> Option<&'static str> {
    let lower = tok.to_ascii_lowercase();
    FORMATS.iter().copied().find(|f| f.as_bytes() == lower.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_largest_four_and_renormalises() {
        let mut b = BlendAccumulator::default();
        for (j, w) in [(0, 0.1), (1, 0.3), (2, 0.05), (3, 0.2), (4, 0.25), (5, 0.1)] {
            b.push(j, w);
        }
        let (j, w) = b.finish();
        assert_eq!(j, [1, 4, 3, 0]);
        let total = 0.3 + 0.25 + 0.2 + 0.1;
        for (got, want) in w.iter().zip([0.3 / total, 0.25 / total, 0.2 / total, 0.1 / total]) {
            assert!((got - want).abs() < 1e-6, "{w:?}");
        }
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn ties_keep_the_earlier_pair_and_zero_weights_are_dropped() {
        let mut b = BlendAccumulator::default();
        for (j, w) in [(7, 0.0), (1, 0.5), (2, 0.5), (3, -1.0)] {
            b.push(j, w);
        }
        let (j, w) = b.finish();
        assert_eq!(j, [1, 2, 0, 0]);
        assert_eq!(w, [0.5, 0.5, 0.0, 0.0]);
        let (j, w) = BlendAccumulator::default().finish();
        assert_eq!((j, w), ([0; 4], [0.0; 4]));
    }

    #[test]
    fn array_names() {
        assert_eq!(ArrayType::parse(b"TexCoord"), Some(ArrayType::Texcoord));
        assert_eq!(ArrayType::parse(b"custom7"), Some(ArrayType::Custom(7)));
        assert_eq!(ArrayType::parse(b"custom10"), None);
        assert_eq!(ArrayType::parse(b"bogus"), None);
        assert_eq!(parse_format(b"UBYTE"), Some("ubyte"));
        assert_eq!(parse_format(b"quad"), None);
    }
}

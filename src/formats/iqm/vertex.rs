//! IQM vertex arrays: the nine component formats in sizes 1 to 4, decoded straight into the scene's streams.
//!
//! Each array is decoded once, from the file's bytes into its final `Vec`, with the per-format read chosen
//! outside the per-vertex loop so the loop is specialised for each format.

use glam::{Vec2, Vec3, Vec4};

/// Component formats 0..=8.
pub const FORMAT_NAMES: [&str; 9] = ["byte", "ubyte", "short", "ushort", "int", "uint", "half", "float", "double"];
pub const FORMAT_BYTES: [u64; 9] = [1, 1, 2, 2, 4, 4, 2, 4, 8];

pub const POSITION: u32 = 0;
pub const TEXCOORD: u32 = 1;
pub const NORMAL: u32 = 2;
pub const TANGENT: u32 = 3;
pub const BLENDINDEXES: u32 = 4;
pub const BLENDWEIGHTS: u32 = 5;
pub const COLOR: u32 = 6;
pub const CUSTOM: u32 = 16;

pub fn type_name(kind: u32) -> &'static str {
    match kind {
        POSITION => "position",
        TEXCOORD => "texcoord",
        NORMAL => "normal",
        TANGENT => "tangent",
        BLENDINDEXES => "blendindexes",
        BLENDWEIGHTS => "blendweights",
        COLOR => "color",
        7..=15 => "reserved",
        _ => "custom",
    }
}

/// One array's raw data, already bounds-checked.
#[derive(Clone, Copy)]
pub struct RawArray<'a> {
    pub format: u32,
    pub size: usize,
    pub data: &'a [u8],
}

macro_rules! le {
    ($t:ty, $b:expr) => {
        <$t>::from_le_bytes($b.try_into().unwrap_or_default())
    };
}

impl RawArray<'_> {
    /// Decodes into values of `N` components (missing components take `defaults`, extra ones are dropped).
    /// Integer formats are normalised (`unsigned c/(2^b-1)`, `signed (2c+1)/(2^b-1)`) when `normalized`.
    pub fn decode<T, const N: usize>(
        &self,
        defaults: [f32; N],
        normalized: bool,
        make: impl Fn([f32; N]) -> T,
    ) -> Vec<T> {
        fn norm(c: f32, max: f32, signed: bool, on: bool) -> f32 {
            match (on, signed) {
                (false, _) => c,
                (true, false) => c / max,
                (true, true) => (2.0 * c + 1.0) / max,
            }
        }
        let n = normalized;
        // The layouts exporters actually write get loops with no per-component slicing.
        if self.size == N {
            match self.format {
                7 => {
                    return self
                        .data
                        .chunks_exact(4 * N)
                        .map(|c| make(std::array::from_fn(|k| le!(f32, &c[4 * k..4 * k + 4]))))
                        .collect();
                }
                1 if n => {
                    return self
                        .data
                        .chunks_exact(N)
                        .map(|c| make(std::array::from_fn(|k| f32::from(c[k]) / 255.0)))
                        .collect();
                }
                1 => {
                    return self.data.chunks_exact(N).map(|c| make(std::array::from_fn(|k| f32::from(c[k])))).collect();
                }
                _ => {}
            }
        }
        match self.format {
            0 => self.run(1, defaults, &make, |b| norm(f32::from(b[0] as i8), 255.0, true, n)),
            1 => self.run(1, defaults, &make, |b| norm(f32::from(b[0]), 255.0, false, n)),
            2 => self.run(2, defaults, &make, |b| norm(f32::from(le!(i16, b)), 65535.0, true, n)),
            3 => self.run(2, defaults, &make, |b| norm(f32::from(le!(u16, b)), 65535.0, false, n)),
            4 => self.run(4, defaults, &make, |b| norm(le!(i32, b) as f32, 4294967295.0, true, n)),
            5 => self.run(4, defaults, &make, |b| norm(le!(u32, b) as f32, 4294967295.0, false, n)),
            6 => self.run(2, defaults, &make, |b| half::f16::from_bits(le!(u16, b)).to_f32()),
            7 => self.run(4, defaults, &make, |b| le!(f32, b)),
            _ => self.run(8, defaults, &make, |b| le!(f64, b) as f32),
        }
    }

    #[inline(always)]
    fn run<T, const N: usize>(
        &self,
        width: usize,
        defaults: [f32; N],
        make: &impl Fn([f32; N]) -> T,
        read: impl Fn(&[u8]) -> f32,
    ) -> Vec<T> {
        let used = self.size.min(N);
        let stride = self.size * width;
        self.data
            .chunks_exact(stride)
            .map(|chunk| {
                let mut v = defaults;
                for (k, c) in v.iter_mut().enumerate().take(used) {
                    *c = read(&chunk[k * width..k * width + width]);
                }
                make(v)
            })
            .collect()
    }

    pub fn positions(&self) -> Vec<Vec3> {
        self.decode([0.0; 3], true, Vec3::from_array)
    }

    pub fn vec2(&self) -> Vec<Vec2> {
        self.decode([0.0; 2], true, Vec2::from_array)
    }

    pub fn vec3(&self) -> Vec<Vec3> {
        self.decode([0.0; 3], true, Vec3::from_array)
    }

    pub fn vec4(&self, defaults: [f32; 4]) -> Vec<Vec4> {
        self.decode(defaults, true, Vec4::from_array)
    }

    /// Joint indices are plain integers, never normalised.
    pub fn indices(&self) -> Vec<[u32; 4]> {
        self.decode([0.0; 4], false, |v| v.map(|c| c as u32))
    }

    pub fn weights(&self) -> Vec<[f32; 4]> {
        self.decode([0.0; 4], true, |v| v)
    }

    pub fn custom(&self) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.data.len() / FORMAT_BYTES[self.format.min(8) as usize] as usize);
        let size = self.size;
        for v in self.decode([0.0; 4], true, |v| v) {
            out.extend_from_slice(&v[..size.min(4)]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation_matches_the_converter() {
        let a = RawArray { format: 1, size: 2, data: &[255, 0] };
        assert_eq!(a.vec2(), vec![Vec2::new(1.0, 0.0)]);
        let a = RawArray { format: 0, size: 1, data: &[0x80] };
        assert_eq!(a.decode([0.0; 1], true, |v| v[0]), vec![-1.0]);
        let a = RawArray { format: 3, size: 1, data: &[0xff, 0xff] };
        assert_eq!(a.decode([0.0; 1], true, |v| v[0]), vec![1.0]);
    }

    #[test]
    fn half_double_and_defaults() {
        let h = half::f16::from_f32(0.5).to_bits().to_le_bytes();
        let a = RawArray { format: 6, size: 1, data: &h };
        assert_eq!(a.vec4([0.0, 0.0, 0.0, 1.0]), vec![Vec4::new(0.5, 0.0, 0.0, 1.0)]);
        let d = 2.25f64.to_le_bytes();
        let a = RawArray { format: 8, size: 1, data: &d };
        assert_eq!(a.positions(), vec![Vec3::new(2.25, 0.0, 0.0)]);
    }

    #[test]
    fn indices_are_not_normalised() {
        let a = RawArray { format: 1, size: 4, data: &[3, 0, 255, 7] };
        assert_eq!(a.indices(), vec![[3, 0, 255, 7]]);
    }
}

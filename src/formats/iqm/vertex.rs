//! IQM vertex arrays: the nine component formats in sizes 1 to 4, decoded straight into the scene's streams.
//!
//! Each array is decoded once, from the file's bytes into its final `Vec`, with the per-format read chosen
//! outside the per-vertex loop so the loop is specialised for each format.

use glam::{Vec2, Vec3, Vec4};

use super::layout::{BYTE, DOUBLE, FLOAT, HALF, INT, MAX_FORMAT, SHORT, UBYTE, UINT, USHORT, format_size};

/// One array's raw data, already bounds-checked.
#[derive(Clone, Copy)]
pub struct RawArray<'a> {
    pub format: u32,
    pub size: usize,
    pub data: &'a [u8],
}

/// Bytes per component, as a constant so each format's loop is compiled for its width.
const fn width(format: u32) -> usize {
    match format_size(format) {
        Some(bytes) => bytes,
        None => 1,
    }
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
                FLOAT => {
                    return self
                        .data
                        .chunks_exact(4 * N)
                        .map(|c| make(std::array::from_fn(|k| le!(f32, &c[4 * k..4 * k + 4]))))
                        .collect();
                }
                UBYTE if n => {
                    return self
                        .data
                        .chunks_exact(N)
                        .map(|c| make(std::array::from_fn(|k| f32::from(c[k]) / 255.0)))
                        .collect();
                }
                UBYTE => {
                    return self.data.chunks_exact(N).map(|c| make(std::array::from_fn(|k| f32::from(c[k])))).collect();
                }
                _ => {}
            }
        }
        match self.format {
            BYTE => self.run(const { width(BYTE) }, defaults, &make, |b| norm(f32::from(b[0] as i8), 255.0, true, n)),
            UBYTE => self.run(const { width(UBYTE) }, defaults, &make, |b| norm(f32::from(b[0]), 255.0, false, n)),
            SHORT => {
                self.run(const { width(SHORT) }, defaults, &make, |b| norm(f32::from(le!(i16, b)), 65535.0, true, n))
            }
            USHORT => {
                self.run(const { width(USHORT) }, defaults, &make, |b| norm(f32::from(le!(u16, b)), 65535.0, false, n))
            }
            INT => self.run(const { width(INT) }, defaults, &make, |b| norm(le!(i32, b) as f32, 4294967295.0, true, n)),
            UINT => {
                self.run(const { width(UINT) }, defaults, &make, |b| norm(le!(u32, b) as f32, 4294967295.0, false, n))
            }
            HALF => self.run(const { width(HALF) }, defaults, &make, |b| half::f16::from_bits(le!(u16, b)).to_f32()),
            FLOAT => self.run(const { width(FLOAT) }, defaults, &make, |b| le!(f32, b)),
            _ => self.run(const { width(DOUBLE) }, defaults, &make, |b| le!(f64, b) as f32),
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
        let mut out = Vec::with_capacity(self.data.len() / width(self.format.min(MAX_FORMAT)));
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
        let a = RawArray { format: UBYTE, size: 2, data: &[255, 0] };
        assert_eq!(a.vec2(), vec![Vec2::new(1.0, 0.0)]);
        let a = RawArray { format: BYTE, size: 1, data: &[0x80] };
        assert_eq!(a.decode([0.0; 1], true, |v| v[0]), vec![-1.0]);
        let a = RawArray { format: USHORT, size: 1, data: &[0xff, 0xff] };
        assert_eq!(a.decode([0.0; 1], true, |v| v[0]), vec![1.0]);
    }

    #[test]
    fn half_double_and_defaults() {
        let h = half::f16::from_f32(0.5).to_bits().to_le_bytes();
        let a = RawArray { format: HALF, size: 1, data: &h };
        assert_eq!(a.vec4([0.0, 0.0, 0.0, 1.0]), vec![Vec4::new(0.5, 0.0, 0.0, 1.0)]);
        let d = 2.25f64.to_le_bytes();
        let a = RawArray { format: DOUBLE, size: 1, data: &d };
        assert_eq!(a.positions(), vec![Vec3::new(2.25, 0.0, 0.0)]);
    }

    #[test]
    fn indices_are_not_normalised() {
        let a = RawArray { format: UBYTE, size: 4, data: &[3, 0, 255, 7] };
        assert_eq!(a.indices(), vec![[3, 0, 255, 7]]);
    }
}

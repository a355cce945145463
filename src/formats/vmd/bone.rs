//! Bone keys: a 15-byte name, the frame, a translation and a quaternion (deltas on the bone's bind pose in
//! MMD's left-handed Y-up space), and the 64-byte interpolation block.
//!
//! The block is four 16-byte rows. MikuMikuDance's first row is X x1, Y x1, Z x1, R x1, X y1, …, R y2 (the
//! curves interleaved), and row r is that row shifted left by r bytes, so curve r's own four parameters sit at
//! bytes 0, 4, 8 and 12 of row r. MikuMikuDance 9.x stores a per-key physics switch in bytes 2 and 3 of the
//! first row, where a reader of the first row alone would find Z's and R's x1: each curve is therefore read
//! from its own row.

use super::name;
use crate::error::LoadError;
use crate::formats::binread::Cursor;
use crate::scene::{VMD_NAME_BYTES, VmdName};

/// Bytes per bone key.
pub const SIZE: u64 = 15 + 4 + 12 + 16 + 64;

/// An interpolation curve: x1, y1, x2, y2 (0–127), as [`crate::formats::mvd::easing`] takes it.
pub type Curve = [u8; 4];

/// MikuMikuDance's linear curve.
pub const LINEAR: Curve = [20, 20, 107, 107];

#[derive(Debug, Clone, PartialEq)]
pub struct BoneKey {
    pub offset: u64,
    pub name: VmdName,
    pub frame: u32,
    pub position: [f32; 3],
    /// x, y, z, w.
    pub rotation: [f32; 4],
    pub interpolation: [u8; 64],
}

impl BoneKey {
    /// The X, Y, Z and rotation curves, each from its own row of the block.
    pub fn curves(&self) -> [Curve; 4] {
        curves_of(&self.interpolation)
    }

    /// Bytes 2 and 3 of the block's first row: MikuMikuDance 9.x's physics switch where the curves agree
    /// with the other rows' copies (shown, not interpreted).
    pub fn first_row_extra(&self) -> [u8; 2] {
        [self.interpolation[2], self.interpolation[3]]
    }
}

/// The four curves of a block, curve r from row r.
pub fn curves_of(block: &[u8; 64]) -> [Curve; 4] {
    std::array::from_fn(|r| {
        let row = &block[16 * r..16 * r + 16];
        [row[0], row[4], row[8], row[12]]
    })
}

/// The block MikuMikuDance writes for four curves: the interleaved first row and its shifted copies, the
/// freed bytes filled with 1, 0, 0 as MikuMikuDance 7 does. `physics` overwrites bytes 2 and 3 of the first
/// row as MikuMikuDance 9.x does.
pub fn block_of(curves: [Curve; 4], physics: Option<[u8; 2]>) -> [u8; 64] {
    let mut first = [0u8; 16];
    for (c, curve) in curves.iter().enumerate() {
        for (p, v) in curve.iter().enumerate() {
            first[4 * p + c] = *v;
        }
    }
    let mut block = [0u8; 64];
    let fill = [1u8, 0, 0];
    for r in 0..4 {
        for i in 0..16 {
            block[16 * r + i] = if i + r < 16 { first[i + r] } else { fill[i + r - 16] };
        }
    }
    if let Some([a, b]) = physics {
        block[2] = a;
        block[3] = b;
    }
    block
}

/// MikuMikuDance's linear block.
pub fn linear_block() -> [u8; 64] {
    block_of([LINEAR; 4], None)
}

pub fn read(c: &mut Cursor) -> Result<BoneKey, LoadError> {
    let offset = c.pos();
    let name = name::decode(c.bytes(VMD_NAME_BYTES as u64, "bone key name (15 bytes)")?);
    let frame = c.u32("bone key frame")?;
    let position = c.f32s::<3>("bone key position")?;
    let rotation = c.f32s::<4>("bone key quaternion")?;
    let mut interpolation = [0u8; 64];
    interpolation.copy_from_slice(c.bytes(64, "bone key interpolation (64 bytes)")?);
    Ok(BoneKey { offset, name, frame, position, rotation, interpolation })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_curve_comes_from_its_own_row() {
        let curves = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]];
        let block = block_of(curves, None);
        assert_eq!(&block[..16], &[1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 16]);
        assert_eq!(&block[16..32], &[5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 16, 1]);
        assert_eq!(&block[61..], &[1, 0, 0]);
        assert_eq!(curves_of(&block), curves);
        // The physics switch in bytes 2 and 3 changes no curve.
        assert_eq!(curves_of(&block_of(curves, Some([0x63, 0x0F]))), curves);
    }
}

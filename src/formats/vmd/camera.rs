//! Camera keys: frame, distance, target, Euler angles (radians), a 24-byte interpolation block, the field of
//! view in whole degrees and a perspective byte.
//!
//! The block is six curves of four bytes, each x1, x2, y1, y2 (not the bone block's order): target X, Y, Z,
//! rotation, distance, field of view. The perspective byte is 0 for a perspective view ("perspective off" is
//! the stored flag).

use super::bone::Curve;
use crate::error::LoadError;
use crate::formats::binread::Cursor;

/// Bytes per camera key.
pub const SIZE: u64 = 4 + 4 + 12 + 12 + 24 + 4 + 1;

#[derive(Debug, Clone, PartialEq)]
pub struct CameraKey {
    pub offset: u64,
    pub frame: u32,
    /// Negative in front of the target (MikuMikuDance's default is −45).
    pub distance: f32,
    pub target: [f32; 3],
    /// Radians.
    pub angles: [f32; 3],
    pub interpolation: [u8; 24],
    /// Vertical field of view in degrees.
    pub fov: u32,
    /// 0 = perspective, anything else = orthographic.
    pub perspective_off: u8,
}

impl CameraKey {
    /// Target X, Y, Z, rotation, distance and field-of-view curves as (x1, y1, x2, y2).
    pub fn curves(&self) -> [Curve; 6] {
        curves_of(&self.interpolation)
    }
}

/// The six curves of a block, each reordered from x1, x2, y1, y2.
pub fn curves_of(block: &[u8; 24]) -> [Curve; 6] {
    std::array::from_fn(|i| {
        let b = &block[4 * i..4 * i + 4];
        [b[0], b[2], b[1], b[3]]
    })
}

/// The block for six (x1, y1, x2, y2) curves.
pub fn block_of(curves: [Curve; 6]) -> [u8; 24] {
    let mut block = [0u8; 24];
    for (i, c) in curves.iter().enumerate() {
        block[4 * i..4 * i + 4].copy_from_slice(&[c[0], c[2], c[1], c[3]]);
    }
    block
}

pub fn read(c: &mut Cursor) -> Result<CameraKey, LoadError> {
    let offset = c.pos();
    let frame = c.u32("camera key frame")?;
    let distance = c.f32("camera key distance")?;
    let target = c.f32s::<3>("camera key target")?;
    let angles = c.f32s::<3>("camera key rotation")?;
    let mut interpolation = [0u8; 24];
    interpolation.copy_from_slice(c.bytes(24, "camera key interpolation (24 bytes)")?);
    let fov = c.u32("camera key field of view")?;
    let perspective_off = c.u8("camera key perspective flag")?;
    Ok(CameraKey { offset, frame, distance, target, angles, interpolation, fov, perspective_off })
}

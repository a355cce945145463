//! Light keys (colour and direction) and self-shadow keys (mode and distance). rigscope lists them; it does
//! not light or shadow by them.

use crate::error::LoadError;
use crate::formats::binread::Cursor;
use crate::scene::{VmdLightKey, VmdShadowKey};

/// Bytes per light key.
pub const LIGHT_SIZE: u64 = 4 + 12 + 12;
/// Bytes per self-shadow key.
pub const SHADOW_SIZE: u64 = 4 + 1 + 4;

pub fn read_light(c: &mut Cursor) -> Result<VmdLightKey, LoadError> {
    let frame = c.u32("light key frame")?;
    let color = c.f32s::<3>("light key colour")?;
    let direction = c.f32s::<3>("light key direction")?;
    Ok(VmdLightKey { frame, color, direction })
}

pub fn read_shadow(c: &mut Cursor) -> Result<VmdShadowKey, LoadError> {
    let frame = c.u32("self-shadow key frame")?;
    let mode = c.u8("self-shadow key mode")?;
    let distance = c.f32("self-shadow key distance")?;
    Ok(VmdShadowKey { frame, mode, distance })
}

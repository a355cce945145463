//! Morph keys: a 15-byte name, the frame and the weight (linear between keys: VMD stores no curve for morphs).

use super::name;
use crate::error::LoadError;
use crate::formats::binread::Cursor;
use crate::scene::VmdName;

/// Bytes per morph key.
pub const SIZE: u64 = 15 + 4 + 4;

#[derive(Debug, Clone, PartialEq)]
pub struct MorphKey {
    pub offset: u64,
    pub name: VmdName,
    pub frame: u32,
    pub weight: f32,
}

pub fn read(c: &mut Cursor) -> Result<MorphKey, LoadError> {
    let offset = c.pos();
    let name = name::decode(c.bytes(crate::scene::VMD_NAME_BYTES as u64, "morph key name (15 bytes)")?);
    let frame = c.u32("morph key frame")?;
    let weight = c.f32("morph key weight")?;
    Ok(MorphKey { offset, name, frame, weight })
}

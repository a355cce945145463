//! The VMD byte layout into raw records: the header, then up to six counted sections in a fixed order (bone,
//! morph, camera, light, self-shadow, property keys). A file may end before any section's count (older
//! writers stop after the camera or light section); a file that ends inside a count or a section is an error
//! naming the offset and the field. Every count is checked against the bytes left before anything is
//! allocated.

use super::bone::{self, BoneKey};
use super::camera::{self, CameraKey};
use super::header::{self, Header};
use super::morph::{self, MorphKey};
use super::{light, property};
use crate::error::{LoadError, Location, Warning};
use crate::formats::binread::Cursor;
use crate::scene::{VmdCounts, VmdLightKey, VmdPropertyKey, VmdShadowKey};

pub struct RawVmd {
    pub header: Header,
    pub counts: VmdCounts,
    pub bones: Vec<BoneKey>,
    pub morphs: Vec<MorphKey>,
    pub cameras: Vec<CameraKey>,
    pub lights: Vec<VmdLightKey>,
    pub shadows: Vec<VmdShadowKey>,
    /// With the offset of each key.
    pub properties: Vec<(u64, VmdPropertyKey)>,
    pub trailing: u64,
    pub warnings: Vec<Warning>,
}

/// A u32 count of records of at least `min_size` bytes each, checked against the bytes left.
fn count(c: &mut Cursor, min_size: u64, what: &str) -> Result<usize, LoadError> {
    let at = c.pos();
    let n = u64::from(c.u32(&format!("{what} count"))?);
    let need = n.saturating_mul(min_size);
    if need > c.remaining() {
        return Err(LoadError::at(
            at,
            format!(
                "{what} count {n}: expected at most {} ({n} × {min_size} B need {need} B, {} B left)",
                c.remaining() / min_size.max(1),
                c.remaining()
            ),
        ));
    }
    usize::try_from(n).map_err(|_| LoadError::at(at, format!("{what} count {n}: too large")))
}

/// A section: `None` when the file ends where its count would start.
fn section<T>(
    c: &mut Cursor,
    min_size: u64,
    what: &str,
    mut read: impl FnMut(&mut Cursor) -> Result<T, LoadError>,
) -> Result<Option<Vec<T>>, LoadError> {
    if c.remaining() == 0 {
        return Ok(None);
    }
    let n = count(c, min_size, what)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(read(c)?);
    }
    Ok(Some(out))
}

pub fn parse(data: &[u8]) -> Result<RawVmd, LoadError> {
    let mut c = Cursor::new(data);
    let mut warnings = Vec::new();
    let header = header::read(&mut c, &mut warnings)?;
    let bones = section(&mut c, bone::SIZE, "bone key", bone::read)?;
    let morphs = section(&mut c, morph::SIZE, "morph key", morph::read)?;
    let cameras = section(&mut c, camera::SIZE, "camera key", camera::read)?;
    let lights = section(&mut c, light::LIGHT_SIZE, "light key", light::read_light)?;
    let shadows = section(&mut c, light::SHADOW_SIZE, "self-shadow key", light::read_shadow)?;
    let properties = section(&mut c, property::MIN_SIZE, "property key", property::read)?;
    let counts = VmdCounts {
        bones: bones.as_ref().map(Vec::len),
        morphs: morphs.as_ref().map(Vec::len),
        cameras: cameras.as_ref().map(Vec::len),
        lights: lights.as_ref().map(Vec::len),
        shadows: shadows.as_ref().map(Vec::len),
        properties: properties.as_ref().map(Vec::len),
    };
    let trailing = c.remaining();
    if trailing > 0 {
        warnings.push(Warning {
            rule: "vmd.trailing",
            location: Location::Offset(c.pos()),
            message: format!("{trailing} B after the property key section, which is the last one VMD has; ignored"),
        });
    }
    Ok(RawVmd {
        header,
        counts,
        bones: bones.unwrap_or_default(),
        morphs: morphs.unwrap_or_default(),
        cameras: cameras.unwrap_or_default(),
        lights: lights.unwrap_or_default(),
        shadows: shadows.unwrap_or_default(),
        properties: properties.unwrap_or_default(),
        trailing,
        warnings,
    })
}

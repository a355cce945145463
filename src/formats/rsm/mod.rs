//! RSM 1.1–1.6 and RSM2 2.2/2.3 (Ragnarok Online models).
//!
//! Follows the project's RSM note (`shared/notes/rsm.md`): layout B as real files use it, the classic (FJS)
//! layout only when it alone reads a file exactly, and every tolerance real files need. Each node becomes a
//! joint with its vertices rigidly bound, so node animation runs through the same keyed-track skinning path as
//! every other format. Vertices are stored in the bind (rest) pose in the file's own axes: RSM1 is Y-down and
//! centred (`UpAxis::NegY`), RSM2 is left-handed Y-up (`UpAxis::YLeftHanded`).

mod build;
mod layout;
mod parse;
// The test writer: tests, benchmarks and fuzz seeds build files with it; the app never writes this format.
#[cfg(any(test, feature = "testing"))]
pub mod write;

use crate::error::LoadError;
use crate::scene::{RsmLayout, Scene};

pub use layout::MAGIC;

/// True when the bytes start like an RSM or RSM2 file.
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads an RSM or RSM2 file. `name` is used in error messages.
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    read_inner(data).map_err(|e| e.in_file(name))
}

fn read_inner(data: &[u8]) -> Result<Scene, LoadError> {
    let raw = choose_layout(data)?;
    build::build(raw, data)
}

/// Note §1.5: layout B (for 1.5, the extra bytes at the end, then before the model-level block); a parse that
/// ends exactly at the end of the file wins. Failing that, FJS for versions up to 1.5 if it ends exactly; then
/// layout B with trailing bytes (a warning); else layout B's error.
fn choose_layout(data: &[u8]) -> Result<parse::RawModel, LoadError> {
    let (major, minor) = parse::version(data)?;
    let v = layout::code(major, minor);
    let len = data.len() as u64;
    let mut first_error = None;
    let mut with_trailing = None;
    for candidate in layout::b_layouts(v) {
        match parse::parse(data, candidate) {
            Ok(m) if m.end == len => return Ok(m),
            Ok(m) => {
                with_trailing.get_or_insert(m);
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    if layout::fjs_possible(v)
        && let Ok(m) = parse::parse(data, RsmLayout::Fjs)
        && m.end == len
    {
        return Ok(m);
    }
    match (with_trailing, first_error) {
        (Some(m), _) => Ok(m),
        (None, Some(e)) => Err(e),
        (None, None) => Err(LoadError::at(0, "no layout reads the file")),
    }
}

#[cfg(test)]
mod tests;

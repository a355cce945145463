//! PMD (MikuMikuDance's original model format): Shift-JIS names, two-bone vertices, materials with
//! `texture*sphere` names and toon indices, bones with their kinds, the IK list, skin (face) morphs relative to
//! the base skin, display lists, and the optional English, toon and physics extensions. Built into the scene by
//! the same rules as PMX; the model stays in the file's left-handed Y-up space.

mod build;
mod parse;
// The test writer: tests, benchmarks and fuzz seeds build files with it; the app never writes this format.
#[cfg(any(test, feature = "testing"))]
pub mod write;

use crate::error::LoadError;
use crate::scene::Scene;

pub use parse::{English, MAGIC, RawBone, RawIk, RawMaterial, RawModel, RawSkin, RawVertex};

/// True when the bytes start like a PMD file.
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads a PMD file. `name` is used in error messages.
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    parse::parse(data).and_then(build::build).map_err(|e| e.in_file(name))
}

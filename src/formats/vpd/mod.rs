//! VPD (MikuMikuDance "Vocaloid Pose Data file") poses: text, cp932 (UTF-8 with a byte-order mark
//! tolerated), a header, the model file name, a bone count, then `BoneN{name` blocks with a translation and a
//! quaternion line and, in newer files, `MorphN{name` blocks with a weight; `//` starts a comment.
//!
//! [`parse`] reads the lines; [`build`] makes an animation-only scene like a VMD's: a skeleton of bone names
//! and a one-frame clip of `DeltaOnBind` bone tracks and morph tracks. Errors name the line.

mod build;
mod parse;
// The test writer: tests, benchmarks and fuzz seeds build files with it; the app never writes this format.
#[cfg(any(test, feature = "testing"))]
pub mod write;

use crate::error::LoadError;
use crate::scene::Scene;

/// The header line.
pub const SIGNATURE: &[u8] = b"Vocaloid Pose Data file";
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// True when the bytes start with the header (after a UTF-8 byte-order mark, if any).
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.strip_prefix(BOM).unwrap_or(bytes).starts_with(SIGNATURE)
}

/// Reads a VPD file. `name` is used in error messages and names the clip when the file names no model.
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    parse::parse(data).and_then(|raw| build::build(raw, name)).map_err(|e| e.in_file(name))
}

#[cfg(test)]
mod tests;

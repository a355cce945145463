//! MVD (MikuMikuMoving "Motion Vector Data file") motion: bones, morphs and cameras.
//!
//! Follows the project's MVD note (`shared/notes/mvd.md`). No genuine MikuMikuMoving file is public, so the
//! reader is tested on files the test-support writer ([`write`]) produces. An MVD loads as an animation-only
//! scene: a skeleton of bone names, one clip per object, cameras in [`Scene::cameras`] and the file's facts in
//! [`Scene::mvd`].

mod build;
mod layout;
mod parse;
// The test writer: tests, benchmarks and fuzz seeds build files with it; the app never writes this format.
#[cfg(any(test, feature = "testing"))]
pub mod write;

use crate::error::LoadError;
use crate::scene::Scene;

pub use build::{FALLBACK_FPS, ReadOptions, easing};
pub use layout::{SIGNATURE, tag_kind};

/// True when the bytes start with the MVD signature ("Motion Vector Data file", NUL-padded).
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(SIGNATURE) && bytes.get(SIGNATURE.len()).is_none_or(|&b| b == 0)
}

/// Reads an MVD file with the default options (stage 0 only). `name` is used in error messages.
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    read_with(name, data, &ReadOptions::default())
}

/// Reads an MVD file; `options.additive_stages` adds stages other than 0 on top of the base stage.
pub fn read_with(name: &str, data: &[u8], options: &ReadOptions) -> Result<Scene, LoadError> {
    parse::parse(data).and_then(|raw| build::build(raw, options)).map_err(|e| e.in_file(name))
}

#[cfg(test)]
mod tests;

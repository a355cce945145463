//! VMD (MikuMikuDance "Vocaloid Motion Data") motion: bone, morph, camera, light, self-shadow and property
//! (visibility, IK switch) keys.
//!
//! One file per concept: [`header`] (signature and model name), [`name`] (15- and 20-byte cp932 names, cut
//! mid-character), [`bone`] (keys and the 64-byte interpolation block), [`morph`], [`camera`] (keys and the
//! 24-byte block), [`light`] (light and self-shadow keys), [`property`] (IK switches per chain), [`parse`]
//! (sections in order, any of them missing at the end) and [`build`] (the scene). A VMD loads as an
//! animation-only scene like an MVD: a skeleton of bone names, one clip at 30 fps, the camera in
//! [`Scene::cameras`] and the file's facts in [`Scene::vmd`].

pub mod bone;
pub mod build;
pub mod camera;
pub mod header;
pub mod light;
pub mod morph;
pub mod name;
mod parse;
pub mod property;
// The test writer: tests, benchmarks and fuzz seeds build files with it; the app never writes this format.
#[cfg(any(test, feature = "testing"))]
pub mod write;

use crate::error::LoadError;
use crate::scene::Scene;

pub use build::FPS;

/// True when the bytes start with "Vocaloid Motion Data" (every version's signature).
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(header::SIGNATURE_PREFIX)
}

/// Reads a VMD file. `name` is used in error messages and names the clip when the header has no model name.
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    parse::parse(data).and_then(|raw| build::build(raw, name)).map_err(|e| e.in_file(name))
}

#[cfg(test)]
mod tests;

//! PMX 2.0 and 2.1 (MikuMikuDance models as PMXEditor writes them).
//!
//! Both text encodings, additional UVs, index sizes 1/2/4, every weight kind (SDEF and QDEF as the vertex
//! streams' [`crate::scene::VertexBlend`]: spherical and dual-quaternion skinning), materials, bones with every flag, morphs of
//! every kind, display frames, rigid bodies and joints. A 2.1 file with soft bodies is refused (they are
//! neither simulated nor listed). The model stays in the file's left-handed Y-up space
//! ([`crate::scene::UpAxis::YLeftHanded`]).

mod bone;
mod build;
mod frame;
mod material;
mod morph;
mod physics;
mod reader;
mod vertex;
// The test writer: tests, benchmarks and fuzz seeds build files with it; the app never writes this format.
#[cfg(any(test, feature = "testing"))]
pub mod write;

use crate::error::LoadError;
use crate::scene::Scene;

pub use bone::{RawBone, RawIk};
pub use morph::{RawMorph, RawOffsets};
pub use reader::{Header, MAGIC};
pub use vertex::{RawVertex, Weights};

/// True when the bytes start like a PMX file.
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads a PMX file. `name` is used in error messages.
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    parse(data).and_then(build::build).map_err(|e| e.in_file(name))
}

fn parse(data: &[u8]) -> Result<build::RawModel, LoadError> {
    let (mut r, header) = reader::Reader::header(data)?;
    let vertices = vertex::vertices(&mut r, header.additional_uvs)?;
    let (faces_at, faces) = vertex::faces(&mut r)?;
    let textures = material::textures(&mut r)?;
    let materials = material::materials(&mut r, &textures)?;
    let bones = bone::bones(&mut r)?;
    let morphs = morph::morphs(&mut r, header.version)?;
    let mut dropped_frame_items = 0;
    let frames = frame::frames(&mut r, &mut dropped_frame_items)?;
    let rigid_bodies = physics::rigid_bodies(&mut r)?;
    let joints = physics::joints(&mut r)?;
    if header.version >= 2.1 {
        physics::soft_bodies(&mut r)?;
    }
    if r.c.remaining() > 0 {
        return Err(LoadError::at(
            r.pos(),
            format!("{} bytes after the last section: expected the end of the file", r.c.remaining()),
        ));
    }
    Ok(build::RawModel {
        header,
        vertices,
        faces_at,
        faces,
        textures,
        materials,
        bones,
        morphs,
        frames,
        dropped_frame_items,
        rigid_bodies,
        joints,
    })
}

//! PMX vertices (every weight kind, edge scale, additional UVs) and the face list.

use glam::{Vec2, Vec3, Vec4};

use super::reader::{Ix, Reader};
use crate::error::LoadError;

/// A vertex's weights as the file stores them; bone indices are file bone indices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Weights {
    Bdef1(Option<usize>),
    Bdef2([Option<usize>; 2], f32),
    Bdef4([Option<usize>; 4], [f32; 4]),
    /// Bones, weight of the first, C, R0, R1.
    Sdef([Option<usize>; 2], f32, [Vec3; 3]),
    Qdef([Option<usize>; 4], [f32; 4]),
}

impl Weights {
    /// Kind number: 0 BDEF1, 1 BDEF2, 2 BDEF4, 3 SDEF, 4 QDEF.
    pub fn kind(&self) -> usize {
        match self {
            Weights::Bdef1(_) => 0,
            Weights::Bdef2(..) => 1,
            Weights::Bdef4(..) => 2,
            Weights::Sdef(..) => 3,
            Weights::Qdef(..) => 4,
        }
    }

    /// Up to four bones and their weights, blended linearly (SDEF as BDEF2, QDEF as BDEF4).
    pub fn linear(&self) -> ([Option<usize>; 4], [f32; 4]) {
        match *self {
            Weights::Bdef1(b) => ([b, None, None, None], [1.0, 0.0, 0.0, 0.0]),
            Weights::Bdef2(b, w) | Weights::Sdef(b, w, _) => ([b[0], b[1], None, None], [w, 1.0 - w, 0.0, 0.0]),
            Weights::Bdef4(b, w) | Weights::Qdef(b, w) => (b, w),
        }
    }
}

#[derive(Debug, Clone)]
pub struct RawVertex {
    pub position: Vec3,
    pub normal: Vec3,
    pub uv: Vec2,
    pub additional: [Vec4; 4],
    pub weights: Weights,
    pub edge_scale: f32,
}

pub fn vertices(r: &mut Reader, additional_uvs: u8) -> Result<Vec<RawVertex>, LoadError> {
    let bone = r.index_size(Ix::Bone);
    let min = 32 + 16 * u64::from(additional_uvs) + 1 + bone + 4;
    let n = r.count(min, "vertex")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        // Fields are read with fixed labels and the vertex named only on error: formatting a label per field
        // cost more than the reading itself.
        out.push(vertex(r, additional_uvs).map_err(|mut e| {
            e.message = format!("vertex {i} {}", e.message);
            e
        })?);
    }
    Ok(out)
}

/// One vertex; errors name the field, [`vertices`] puts the vertex index in front.
fn vertex(r: &mut Reader, additional_uvs: u8) -> Result<RawVertex, LoadError> {
    let position = r.vec3("position")?;
    let normal = r.vec3("normal")?;
    let uv = r.vec2("uv")?;
    let mut additional = [Vec4::ZERO; 4];
    for (k, a) in additional.iter_mut().take(usize::from(additional_uvs)).enumerate() {
        *a = r.vec4(ADDITIONAL[k])?;
    }
    let at = r.pos();
    let kind = r.u8("weight kind")?;
    let bones = |r: &mut Reader, n: usize| -> Result<[Option<usize>; 4], LoadError> {
        let mut b = [None; 4];
        for slot in b.iter_mut().take(n) {
            *slot = r.index(Ix::Bone, "bone index")?;
        }
        Ok(b)
    };
    let weights = match kind {
        0 => Weights::Bdef1(bones(r, 1)?[0]),
        1 | 3 => {
            let b = bones(r, 2)?;
            let w = r.f32("weight")?;
            if kind == 1 {
                Weights::Bdef2([b[0], b[1]], w)
            } else {
                let c = r.vec3("SDEF C")?;
                let r0 = r.vec3("SDEF R0")?;
                let r1 = r.vec3("SDEF R1")?;
                Weights::Sdef([b[0], b[1]], w, [c, r0, r1])
            }
        }
        2 | 4 => {
            let b = bones(r, 4)?;
            let w = r.vec4("weights")?.to_array();
            if kind == 2 { Weights::Bdef4(b, w) } else { Weights::Qdef(b, w) }
        }
        k => {
            return Err(LoadError::at(at, format!("weight kind {k}: expected 0 (BDEF1) to 4 (QDEF)")));
        }
    };
    let edge_scale = r.f32("edge scale")?;
    Ok(RawVertex { position, normal, uv, additional, weights, edge_scale })
}

const ADDITIONAL: [&str; 4] = ["additional uv 1", "additional uv 2", "additional uv 3", "additional uv 4"];

/// The face list: vertex indices, three per triangle. Returns the offset of the list with it.
pub fn faces(r: &mut Reader) -> Result<(u64, Vec<u32>), LoadError> {
    let at = r.pos();
    let n = r.count(r.vertex_index_size(), "face index")?;
    if n % 3 != 0 {
        return Err(LoadError::at(at, format!("face index count {n}: expected a multiple of 3")));
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(r.vertex_index("face vertex index")?);
    }
    Ok((at, out))
}

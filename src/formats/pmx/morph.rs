//! PMX morphs of every kind (2.1 flip and impulse too). Indices stay file indices here; the build checks them.

use glam::{Quat, Vec3, Vec4};

use super::reader::{Ix, Reader};
use crate::error::LoadError;
use crate::scene::{MaterialOp, MorphPanel};

#[derive(Debug, Clone)]
pub enum RawOffsets {
    Vertex(Vec<(u32, Vec3)>),
    /// Channel 0 UV, 1–4 additional UVs.
    Uv(u8, Vec<(u32, Vec4)>),
    Bone(Vec<(Option<usize>, Vec3, Quat)>),
    /// Material (None = all), op, then diffuse, specular+power, ambient+0, edge colour, edge size (x), texture,
    /// sphere, toon.
    Material(Vec<(Option<usize>, MaterialOp, [Vec4; 8])>),
    Group(Vec<(Option<usize>, f32)>),
    Flip(Vec<(Option<usize>, f32)>),
    Impulse(Vec<(Option<usize>, bool, Vec3, Vec3)>),
}

#[derive(Debug, Clone)]
pub struct RawMorph {
    pub offset: u64,
    pub name: String,
    pub name_en: String,
    pub panel: MorphPanel,
    pub offsets: RawOffsets,
}

pub fn morphs(r: &mut Reader, version: f32) -> Result<Vec<RawMorph>, LoadError> {
    let n = r.count(8 + 1 + 1 + 4, "morph")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let offset = r.pos();
        let name = r.text(&format!("morph {i} name"))?;
        let name_en = r.text(&format!("morph {i} English name"))?;
        let at = r.pos();
        let p = r.u8(&format!("morph {i} panel"))?;
        let panel = MorphPanel::from_mmd(p)
            .ok_or_else(|| LoadError::at(at, format!("morph {i} panel {p}: expected 0 to 4")))?;
        let at = r.pos();
        let kind = r.u8(&format!("morph {i} kind"))?;
        if kind > 10 || (kind > 8 && version < 2.1) {
            let range = if version < 2.1 { "0 to 8 in PMX 2.0" } else { "0 to 10" };
            return Err(LoadError::at(at, format!("morph {i} kind {kind}: expected {range}")));
        }
        let (vx, bx, mx, mo, rx) = (
            r.vertex_index_size(),
            r.index_size(Ix::Bone),
            r.index_size(Ix::Material),
            r.index_size(Ix::Morph),
            r.index_size(Ix::Rigid),
        );
        let size = match kind {
            0 | 9 => mo + 4,
            1 => vx + 12,
            2 => bx + 28,
            3..=7 => vx + 16,
            8 => mx + 1 + 112,
            _ => rx + 1 + 24,
        };
        let m = r.count(size, &format!("morph {i} offset"))?;
        // The count was checked against the bytes left at this kind's fixed size, so reads below cannot run out;
        // one label per morph (not one formatted per field) keeps large morphs fast.
        let what = format!("morph {i} offset");
        let offsets = match kind {
            0 | 9 => {
                let mut v = Vec::with_capacity(m);
                for _ in 0..m {
                    v.push((r.index(Ix::Morph, &what)?, r.f32(&what)?));
                }
                if kind == 0 { RawOffsets::Group(v) } else { RawOffsets::Flip(v) }
            }
            1 => {
                let mut v = Vec::with_capacity(m);
                for _ in 0..m {
                    v.push((r.vertex_index(&what)?, r.vec3(&what)?));
                }
                RawOffsets::Vertex(v)
            }
            2 => {
                let mut v = Vec::with_capacity(m);
                for _ in 0..m {
                    let b = r.index(Ix::Bone, &what)?;
                    let t = r.vec3(&what)?;
                    let q = Quat::from_vec4(r.vec4(&what)?);
                    v.push((b, t, q));
                }
                RawOffsets::Bone(v)
            }
            3..=7 => {
                let mut v = Vec::with_capacity(m);
                for _ in 0..m {
                    v.push((r.vertex_index(&what)?, r.vec4(&what)?));
                }
                RawOffsets::Uv(kind - 3, v)
            }
            8 => {
                let mut v = Vec::with_capacity(m);
                for _ in 0..m {
                    let mat = r.index(Ix::Material, &what)?;
                    let at = r.pos();
                    let op = match r.u8(&what)? {
                        0 => MaterialOp::Multiply,
                        1 => MaterialOp::Add,
                        o => {
                            return Err(LoadError::at(
                                at,
                                format!("{what} operation {o}: expected 0 (multiply) or 1 (add)"),
                            ));
                        }
                    };
                    let diffuse = r.vec4(&what)?;
                    let specular = r.vec4(&what)?;
                    let ambient = r.vec3(&what)?.extend(0.0);
                    let edge = r.vec4(&what)?;
                    let edge_size = Vec4::new(r.f32(&what)?, 0.0, 0.0, 0.0);
                    let tex = r.vec4(&what)?;
                    let sphere = r.vec4(&what)?;
                    let toon = r.vec4(&what)?;
                    v.push((mat, op, [diffuse, specular, ambient, edge, edge_size, tex, sphere, toon]));
                }
                RawOffsets::Material(v)
            }
            _ => {
                let mut v = Vec::with_capacity(m);
                for _ in 0..m {
                    let b = r.index(Ix::Rigid, &what)?;
                    let local = r.u8(&what)? != 0;
                    let vel = r.vec3(&what)?;
                    let torque = r.vec3(&what)?;
                    v.push((b, local, vel, torque));
                }
                RawOffsets::Impulse(v)
            }
        };
        out.push(RawMorph { offset, name, name_en, panel, offsets });
    }
    Ok(out)
}

//! PMX textures and materials.

use super::reader::{Ix, Reader};
use crate::error::LoadError;
use crate::scene::{MmdMaterial, SphereMode, Toon};

/// The texture table, paths with `\` turned into `/`.
pub fn textures(r: &mut Reader) -> Result<Vec<String>, LoadError> {
    let n = r.count(4, "texture")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(r.text(&format!("texture {i} path"))?.replace('\\', "/"));
    }
    Ok(out)
}

/// A material with its face count in indices (not yet checked against the face list).
pub struct RawMaterial {
    pub offset: u64,
    pub material: MmdMaterial,
    pub indices: i32,
}

pub fn materials(r: &mut Reader, textures: &[String]) -> Result<Vec<RawMaterial>, LoadError> {
    let tex = r.index_size(Ix::Texture);
    let n = r.count(8 + 16 + 12 + 4 + 12 + 1 + 16 + 4 + 2 * tex + 1 + 1 + 1 + 4 + 4, "material")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let offset = r.pos();
        let name = r.text(&format!("material {i} name"))?;
        let name_en = r.text(&format!("material {i} English name"))?;
        let diffuse = r.vec4(&format!("material {i} diffuse"))?;
        let specular = r.vec3(&format!("material {i} specular"))?;
        let specular_power = r.f32(&format!("material {i} specular power"))?;
        let ambient = r.vec3(&format!("material {i} ambient"))?;
        let flags = r.u8(&format!("material {i} flags"))?;
        let edge_color = r.vec4(&format!("material {i} edge colour"))?;
        let edge_size = r.f32(&format!("material {i} edge size"))?;
        let texture_ref = |r: &mut Reader, what: &str| -> Result<Option<String>, LoadError> {
            let at = r.pos();
            match r.index(Ix::Texture, &format!("material {i} {what} index"))? {
                None => Ok(None),
                Some(t) => textures.get(t).cloned().map(Some).ok_or_else(|| {
                    LoadError::at(
                        at,
                        format!("material {i} {what} index {t}: expected below the texture count {}", textures.len()),
                    )
                }),
            }
        };
        let texture = texture_ref(r, "texture")?;
        let sphere = texture_ref(r, "sphere texture")?;
        let at = r.pos();
        let sphere_mode = match r.u8(&format!("material {i} sphere mode"))? {
            0 => SphereMode::None,
            1 => SphereMode::Multiply,
            2 => SphereMode::Add,
            3 => SphereMode::SubTexture,
            m => {
                return Err(LoadError::at(at, format!("material {i} sphere mode {m}: expected 0 to 3")));
            }
        };
        let at = r.pos();
        let toon = match r.u8(&format!("material {i} toon kind"))? {
            0 => texture_ref(r, "toon texture")?.map_or(Toon::None, Toon::Texture),
            1 => Toon::Shared(r.u8(&format!("material {i} shared toon"))?),
            k => {
                return Err(LoadError::at(
                    at,
                    format!("material {i} toon kind {k}: expected 0 (texture) or 1 (shared)"),
                ));
            }
        };
        let memo = r.text(&format!("material {i} memo"))?;
        let indices = r.i32(&format!("material {i} face index count"))?;
        let material = MmdMaterial {
            name,
            name_en,
            diffuse,
            specular,
            specular_power,
            ambient,
            flags,
            edge_color,
            edge_size,
            texture,
            sphere,
            sphere_mode,
            toon,
            memo,
            triangles: 0,
        };
        out.push(RawMaterial { offset, material, indices });
    }
    Ok(out)
}

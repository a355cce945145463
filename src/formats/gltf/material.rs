//! Materials and their base colour textures: files beside the model (relative URIs) or images the file carries
//! (buffer views, `data:` URIs), which become the scene's embedded images.

use glam::{Vec2, Vec3, Vec4};

use super::accessor::Buffers;
use super::container::{data_uri, relative_path};
use crate::error::{LoadError, Location, Warning};
use crate::scene::{AlphaMode, EmbeddedImage, Material, Surface, TextureMap, TextureSearch, TextureTransform};

/// The scene's materials (the file's, in its order) and the images they embed.
pub fn read(
    doc: &gltf::Document,
    buffers: &Buffers,
    w: &mut Vec<Warning>,
) -> Result<(Vec<Material>, Vec<EmbeddedImage>), LoadError> {
    let mut images: Vec<EmbeddedImage> = Vec::new();
    let mut image_names: Vec<Option<String>> = vec![None; doc.images().len()];
    let mut materials = Vec::new();
    for m in doc.materials() {
        let i = m.index().unwrap_or(materials.len());
        let mut out = Material::new(m.name().map_or_else(|| format!("material {i}"), str::to_string), None);
        let pbr = m.pbr_metallic_roughness();
        out.color = Some(Vec4::from_array(pbr.base_color_factor()));
        out.alpha = match m.alpha_mode() {
            gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
            gltf::material::AlphaMode::Mask => AlphaMode::Cutout,
            gltf::material::AlphaMode::Blend => AlphaMode::Blend,
        };
        out.lit = !m.unlit();
        out.alpha_cutoff = m.alpha_cutoff().filter(|c| c.is_finite()).unwrap_or(0.5);
        // Lit materials are drawn with glTF's BRDF; an unlit one is its colour (plus what it emits).
        out.surface = out.lit.then(|| Surface {
            metallic: finite_unit(pbr.metallic_factor(), 1.0),
            roughness: finite_unit(pbr.roughness_factor(), 1.0),
        });
        let strength = m.emissive_strength().filter(|s| s.is_finite() && *s >= 0.0).unwrap_or(1.0);
        let emissive = Vec3::from_array(m.emissive_factor()).map(|c| finite_unit(c, 0.0)) * strength;
        out.emissive = emissive;
        let mut found = Found { doc, buffers, images: &mut images, image_names: &mut image_names, material: i, w };
        if let Some(info) = pbr.base_color_texture()
            && let Some((name, search)) = found.texture(info.texture(), info.tex_coord(), "base colour")?
        {
            (out.texture, out.search) = (Some(name), search);
            out.uv_transform = info
                .texture_transform()
                .map(|t| TextureTransform {
                    offset: Vec2::from_array(t.offset()),
                    scale: Vec2::from_array(t.scale()),
                    rotation: t.rotation(),
                })
                .filter(|t| t.offset.is_finite() && t.scale.is_finite() && t.rotation.is_finite());
        }
        let map = |(name, search): (String, TextureSearch), factor: f32| TextureMap {
            texture: name,
            search,
            factor: if factor.is_finite() { factor } else { 1.0 },
        };
        if let Some(info) = pbr.metallic_roughness_texture() {
            let found = found.texture(info.texture(), info.tex_coord(), "metallic-roughness")?;
            out.maps.metallic_roughness = found.map(|f| map(f, 1.0));
        }
        if let Some(info) = m.normal_texture() {
            out.maps.normal = found.texture(info.texture(), info.tex_coord(), "normal")?.map(|f| map(f, info.scale()));
        }
        if let Some(info) = m.occlusion_texture() {
            let found = found.texture(info.texture(), info.tex_coord(), "occlusion")?;
            out.maps.occlusion = found.map(|f| map(f, finite_unit(info.strength(), 1.0)));
        }
        if let Some(info) = m.emissive_texture() {
            out.maps.emissive = found.texture(info.texture(), info.tex_coord(), "emissive")?.map(|f| map(f, 1.0));
        }
        // rigscope's exports keep a texture reference whose file wasn't found, so a round trip still names it.
        if out.texture.is_none()
            && let Some(name) =
                super::extras::rigscope_extras(m.extras()).and_then(|e| e["texture"].as_str().map(str::to_string))
        {
            out.texture = Some(name);
        }
        materials.push(out);
    }
    Ok((materials, images))
}

/// What one material's textures are looked up with: the file, its images as made so far, and the warnings.
struct Found<'a, 'd> {
    doc: &'d gltf::Document,
    buffers: &'d Buffers<'d>,
    images: &'a mut Vec<EmbeddedImage>,
    image_names: &'a mut [Option<String>],
    material: usize,
    w: &'a mut Vec<Warning>,
}

impl Found<'_, '_> {
    /// The reference and search of `texture`, the material's `what` texture read with TEXCOORD_`tex_coord`
    /// (drawn with TEXCOORD_0, with a warning otherwise); `None` for an image with no source.
    fn texture(
        &mut self,
        texture: gltf::Texture,
        tex_coord: u32,
        what: &str,
    ) -> Result<Option<(String, TextureSearch)>, LoadError> {
        let i = self.material;
        if tex_coord != 0 {
            let msg = format!("material {i}: {what} texture reads TEXCOORD_{tex_coord}, drawn with TEXCOORD_0");
            self.w.push(Warning { rule: "gltf.material.texcoord", location: Location::File, message: msg });
        }
        let image = texture.source().index();
        let name = image_texture(self.doc, self.buffers, image, self.images, self.image_names, i, self.w)?;
        let embedded = self.image_names.get(image).is_some_and(Option::is_some);
        Ok(name.map(|n| (n, if embedded { TextureSearch::Embedded } else { TextureSearch::BesideModel })))
    }
}

/// A factor in 0..=1 as glTF defines it; `fallback` for one that isn't a number.
fn finite_unit(v: f32, fallback: f32) -> f32 {
    if v.is_finite() { v.clamp(0.0, 1.0) } else { fallback }
}

/// Materials that differ only in glTF's double-sidedness (which rigscope keeps on the mesh) folded into one:
/// for each material, the index it is kept under, and the materials kept.
pub fn fold_sidedness(materials: Vec<Material>) -> (Vec<usize>, Vec<Material>) {
    let mut kept: Vec<Material> = Vec::new();
    let mut map = Vec::with_capacity(materials.len());
    for m in materials {
        match kept.iter().position(|k| *k == m) {
            Some(i) => map.push(i),
            None => {
                map.push(kept.len());
                kept.push(m);
            }
        }
    }
    (map, kept)
}

/// The texture reference of image `index`: a relative path beside the model, or the name of an embedded image
/// (added to `images` on first use). The image's JSON is read directly: the `gltf` crate's `Image::source`
/// unwraps fields a malformed file may lack.
fn image_texture(
    doc: &gltf::Document,
    buffers: &Buffers,
    index: usize,
    images: &mut Vec<EmbeddedImage>,
    image_names: &mut [Option<String>],
    material: usize,
    w: &mut Vec<Warning>,
) -> Result<Option<String>, LoadError> {
    let Some(json) = doc.as_json().images.get(index) else { return Ok(None) };
    if let Some(Some(name)) = image_names.get(index) {
        return Ok(Some(name.clone()));
    }
    let mime_type = json.mime_type.as_ref().map(|m| m.0.clone());
    let bytes = match (&json.buffer_view, json.uri.as_deref()) {
        (Some(view), _) => match doc.views().nth(view.value()) {
            Some(view) => buffers.view(&view)?.to_vec(),
            None => {
                return Err(LoadError::whole(format!("image {index}: buffer view {} does not exist", view.value())));
            }
        },
        (None, Some(uri)) => match data_uri(uri) {
            Some(decoded) => decoded.map_err(|e| LoadError::whole(format!("image {index}: {e}")))?,
            None => {
                let path = relative_path(uri);
                if path.is_none() {
                    let msg = format!("material {material}: texture \"{uri}\" is not a relative path, not looked for");
                    w.push(Warning { rule: "gltf.image.uri", location: Location::File, message: msg });
                }
                return Ok(path);
            }
        },
        (None, None) => {
            let msg = format!("material {material}: image {index} has neither a buffer view nor a URI");
            w.push(Warning { rule: "gltf.image.source", location: Location::File, message: msg });
            return Ok(None);
        }
    };
    let own = json.name.as_deref().filter(|n| !n.is_empty() && EmbeddedImage::find(images, n).is_none());
    let name = own.map_or_else(|| format!("image {index}"), str::to_string);
    images.push(EmbeddedImage { name: name.clone(), mime_type, bytes });
    if let Some(slot) = image_names.get_mut(index) {
        *slot = Some(name.clone());
    }
    Ok(Some(name))
}

/// glTF's default material, for primitives without one: a material with every property at its default (white,
/// opaque, lit, metallic 1 and roughness 1).
pub fn default_material() -> Material {
    let surface = Some(Surface { metallic: 1.0, roughness: 1.0 });
    Material { color: Some(Vec4::ONE), surface, ..Material::new("default", None) }
}

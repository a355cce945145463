//! Materials and their base colour textures: files beside the model (relative URIs) or images the file carries
//! (buffer views, `data:` URIs), which become the scene's embedded images.

use glam::Vec4;

use super::accessor::Buffers;
use super::container::{data_uri, relative_path};
use crate::error::{LoadError, Location, Warning};
use crate::scene::{AlphaMode, EmbeddedImage, Material, TextureSearch};

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
        if let Some(info) = pbr.base_color_texture() {
            if info.tex_coord() != 0 {
                let msg = format!(
                    "material {i}: base colour texture reads TEXCOORD_{}, drawn with TEXCOORD_0",
                    info.tex_coord()
                );
                w.push(Warning { rule: "gltf.material.texcoord", location: Location::File, message: msg });
            }
            let image = info.texture().source();
            match image.source() {
                gltf::image::Source::Uri { uri, .. } if data_uri(uri).is_none() => match relative_path(uri) {
                    Some(path) => out.texture = Some(path),
                    None => {
                        let msg = format!("material {i}: texture \"{uri}\" is not a relative path, not looked for");
                        w.push(Warning { rule: "gltf.image.uri", location: Location::File, message: msg });
                    }
                },
                source => {
                    let index = image.index();
                    if image_names[index].is_none() {
                        let bytes = match &source {
                            gltf::image::Source::View { view, .. } => buffers.view(view)?.to_vec(),
                            gltf::image::Source::Uri { uri, .. } => data_uri(uri)
                                .unwrap_or_else(|| Ok(Vec::new()))
                                .map_err(|e| LoadError::whole(format!("image {index}: {e}")))?,
                        };
                        let own = image.name().filter(|n| !n.is_empty() && EmbeddedImage::find(&images, n).is_none());
                        let name = own.map_or_else(|| format!("image {index}"), str::to_string);
                        let mime_type = match &source {
                            gltf::image::Source::View { mime_type, .. } => Some(mime_type.to_string()),
                            gltf::image::Source::Uri { mime_type, .. } => mime_type.map(str::to_string),
                        };
                        images.push(EmbeddedImage { name: name.clone(), mime_type, bytes });
                        image_names[index] = Some(name);
                    }
                    out.texture = image_names[index].clone();
                    out.search = TextureSearch::Embedded;
                }
            }
        }
        materials.push(out);
    }
    Ok((materials, images))
}

/// glTF's default material, for primitives without one: white, opaque, lit.
pub fn default_material() -> Material {
    Material { color: Some(Vec4::ONE), ..Material::new("default", None) }
}

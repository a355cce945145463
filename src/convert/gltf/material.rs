//! Materials and their textures as glTF materials, textures and images.
//!
//! glTF images are PNG or JPEG: a texture file that already is one (and had no colour key applied) is carried
//! byte for byte; anything else (BMP, TGA, a colour-keyed Ragnarok BMP whose magenta is now alpha) is the
//! decoded image the viewer draws, encoded as PNG. A glTF material is one scene material with one sidedness
//! (glTF puts double-sidedness on the material, rigscope on the mesh).

use std::collections::HashMap;
use std::path::Path;

use gltf::json;
use json::material::{AlphaCutoff, AlphaMode as GltfAlpha, PbrBaseColorFactor, PbrMetallicRoughness, StrengthFactor};
use json::validation::Checked;
use json::{Index, texture};

use super::buffer::Builder;
use crate::scene::{AlphaMode, Scene};
use crate::textures::{MaterialTexture, TextureSet};

/// An image file the .gltf form writes beside the document.
pub struct SideFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Where images go: into the binary buffer (.glb) or into files beside the document named after `stem`.
pub enum ImageHome<'a> {
    Buffer,
    Beside { stem: &'a str },
}

/// Builds glTF materials on demand, each scene material and sidedness once.
pub struct Materials<'a> {
    scene: &'a Scene,
    textures: &'a TextureSet,
    home: ImageHome<'a>,
    made: HashMap<(usize, bool), Index<json::Material>>,
    images: HashMap<usize, Index<texture::Texture>>,
    sampler: Option<Index<texture::Sampler>>,
    pub side_files: Vec<SideFile>,
    pub notes: Vec<String>,
    pub unlit: bool,
    /// Some material emits more than glTF's emissive factor holds (KHR_materials_emissive_strength).
    pub emissive_strength: bool,
    /// Some material's texture carries a transform (KHR_texture_transform).
    pub texture_transform: bool,
    /// Meshes with UV animation and the glTF material made for each.
    pub uv_animated: Vec<(usize, usize)>,
}

impl<'a> Materials<'a> {
    pub fn new(scene: &'a Scene, textures: &'a TextureSet, home: ImageHome<'a>) -> Materials<'a> {
        Materials {
            scene,
            textures,
            home,
            made: HashMap::new(),
            images: HashMap::new(),
            sampler: None,
            side_files: Vec::new(),
            notes: Vec::new(),
            unlit: false,
            emissive_strength: false,
            texture_transform: false,
            uv_animated: Vec::new(),
        }
    }

    /// The glTF material of scene mesh `mesh`. A textured mesh with UV animation gets one of its own, whose
    /// texture transform its animation moves ([`Materials::uv_animated`]).
    pub fn for_mesh(&mut self, b: &mut Builder, mesh: usize) -> Index<json::Material> {
        let m = &self.scene.meshes[mesh];
        let textured = matches!(self.textures.materials().get(m.material), Some(MaterialTexture::Image(_)));
        if let Some(anim) = m.uv_animation.as_ref().filter(|_| textured) {
            let i = self.material(b, m.material, m.two_sided, Some(super::uv::rest(anim)));
            self.uv_animated.push((mesh, i.value()));
            return i;
        }
        let key = (m.material, m.two_sided);
        if let Some(&i) = self.made.get(&key) {
            return i;
        }
        let i = self.material(b, m.material, m.two_sided, None);
        self.made.insert(key, i);
        i
    }

    /// Writes the scene's materials no mesh uses (one-sided), so the material list survives a round trip.
    pub fn unused(&mut self, b: &mut Builder) {
        for i in 0..self.scene.materials.len() {
            if !self.made.keys().any(|k| k.0 == i) {
                let m = self.material(b, i, false, None);
                self.made.insert((i, false), m);
            }
        }
    }

    fn material(
        &mut self,
        b: &mut Builder,
        index: usize,
        two_sided: bool,
        transform: Option<json::extensions::texture::TextureTransform>,
    ) -> Index<json::Material> {
        let Some(mat) = self.scene.materials.get(index) else {
            return b.root.push(json::Material { double_sided: two_sided, ..Default::default() });
        };
        let color = mat.color.unwrap_or(glam::Vec4::ONE).clamp(glam::Vec4::ZERO, glam::Vec4::ONE);
        // The material's own texture transform where no UV animation moves it.
        let transform = transform.or_else(|| {
            mat.uv_transform.map(|t| json::extensions::texture::TextureTransform {
                offset: json::extensions::texture::TextureTransformOffset(t.offset.to_array()),
                rotation: json::extensions::texture::TextureTransformRotation(t.rotation),
                scale: json::extensions::texture::TextureTransformScale(t.scale.to_array()),
                tex_coord: Some(0),
                extras: Default::default(),
            })
        });
        let texture = match self.textures.materials().get(index) {
            Some(&crate::textures::MaterialTexture::Image(image)) => {
                Some(self.texture(b, image, mat.texture.as_deref().unwrap_or(&mat.name)))
            }
            _ => None,
        };
        self.texture_transform |= texture.is_some() && transform.is_some();
        let alpha = match self.textures.alpha(index) {
            _ if color.w < 1.0 => GltfAlpha::Blend,
            AlphaMode::Opaque => GltfAlpha::Opaque,
            AlphaMode::Cutout => GltfAlpha::Mask,
            AlphaMode::Blend => GltfAlpha::Blend,
        };
        let mut extensions = json::extensions::material::Material::default();
        if !mat.lit {
            self.unlit = true;
            extensions.unlit = Some(json::extensions::material::Unlit {});
        }
        // glTF's emissive factor stops at 1: a brighter emission is the factor times a strength.
        let emissive = mat.emissive.max(glam::Vec3::ZERO);
        let strength = emissive.max_element();
        let emissive_factor = if strength > 1.0 {
            self.emissive_strength = true;
            extensions.emissive_strength = Some(json::extensions::material::EmissiveStrength {
                emissive_strength: json::extensions::material::EmissiveStrengthFactor(strength),
            });
            emissive / strength
        } else {
            emissive
        };
        let extensions = (extensions.unlit.is_some() || extensions.emissive_strength.is_some()).then_some(extensions);
        // Formats without a surface of their own are written as a rough dielectric.
        let surface = mat.surface.unwrap_or(crate::scene::Surface { metallic: 0.0, roughness: 1.0 });
        // A texture the material names but that wasn't found is kept by name, for a round trip.
        let reference = mat.texture.as_deref().filter(|_| texture.is_none());
        let extras = reference.and_then(|t| super::extras(&serde_json::json!({ "rigscope": { "texture": t } })));
        b.root.push(json::Material {
            extras,
            alpha_cutoff: (alpha == GltfAlpha::Mask).then_some(AlphaCutoff(mat.alpha_cutoff)),
            emissive_factor: json::material::EmissiveFactor(emissive_factor.to_array()),
            alpha_mode: Checked::Valid(alpha),
            double_sided: two_sided,
            name: Some(mat.name.clone()),
            pbr_metallic_roughness: PbrMetallicRoughness {
                base_color_factor: PbrBaseColorFactor(color.to_array()),
                base_color_texture: texture.map(|index| texture::Info {
                    index,
                    tex_coord: 0,
                    extensions: transform.map(|t| json::extensions::texture::Info { texture_transform: Some(t) }),
                    extras: Default::default(),
                }),
                metallic_factor: StrengthFactor(surface.metallic),
                roughness_factor: StrengthFactor(surface.roughness),
                ..Default::default()
            },
            extensions,
            ..Default::default()
        })
    }

    /// The glTF texture of the set's decoded image `image`, made once per image.
    /// The image is named as the first material that uses it refers to it, so a round trip keeps the reference.
    fn texture(&mut self, b: &mut Builder, image: usize, reference: &str) -> Index<texture::Texture> {
        if let Some(&t) = self.images.get(&image) {
            return t;
        }
        let decoded = &self.textures.images()[image];
        let (bytes, mime, ext) = image_bytes(&decoded.path, decoded.color_key, &decoded.image);
        let name = Some(reference.to_string());
        let source = match self.home {
            ImageHome::Buffer => {
                let view = b.bytes_view(&bytes);
                b.root.push(json::Image {
                    buffer_view: Some(view),
                    mime_type: Some(json::image::MimeType(mime.into())),
                    name,
                    uri: None,
                    extensions: None,
                    extras: Default::default(),
                })
            }
            ImageHome::Beside { stem } => {
                let file = format!("{stem}_{}.{ext}", self.side_files.len());
                self.side_files.push(SideFile { name: file.clone(), bytes });
                b.root.push(json::Image {
                    buffer_view: None,
                    mime_type: None,
                    name,
                    uri: Some(file),
                    extensions: None,
                    extras: Default::default(),
                })
            }
        };
        let sampler = *self.sampler.get_or_insert_with(|| b.root.push(texture::Sampler::default()));
        let t = b.root.push(texture::Texture {
            name: None,
            sampler: Some(sampler),
            source,
            extensions: None,
            extras: Default::default(),
        });
        self.images.insert(image, t);
        t
    }
}

/// The bytes of a texture as a glTF image: the file itself when it is a PNG or JPEG that was drawn as read,
/// else `decoded` as PNG. Returns the bytes, the MIME type and the file extension.
fn image_bytes(path: &Path, keyed: bool, decoded: &image::RgbaImage) -> (Vec<u8>, &'static str, &'static str) {
    if !keyed && let Ok(bytes) = crate::vfs::read(path) {
        match image::guess_format(&bytes) {
            Ok(image::ImageFormat::Png) => return (bytes, "image/png", "png"),
            Ok(image::ImageFormat::Jpeg) => return (bytes, "image/jpeg", "jpg"),
            _ => {}
        }
    }
    let mut png = Vec::new();
    let encoded = image::DynamicImage::ImageRgba8(decoded.clone())
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png);
    debug_assert!(encoded.is_ok(), "PNG encoding into memory does not fail");
    (png, "image/png", "png")
}

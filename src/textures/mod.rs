//! Material textures on the loader side, with no GPU: finding each material's texture file (`find.rs`: beside
//! the model, or under a `data/texture` tree for `TextureSearch::DataTexture`), decoding it and applying the
//! magenta colour key (`decode.rs`), and [`TextureSet`]: a scene's textures resolved and decoded, ready for
//! `render::GpuModel::upload_textures`, with the files to watch and the problems to report.
//!
//! `check` looks textures up here as the viewer does; the renderer only uploads what a [`TextureSet`] holds.

mod decode;
mod find;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use image::RgbaImage;

pub use decode::{
    AlphaContent, apply_color_key, builtin_toon_ramp, decode_material_texture, is_color_key, load_material_texture,
    load_texture, placeholder_image,
};
pub use find::{find_texture, resolve_data_texture, resolve_texture};

use crate::scene::{AlphaMode, EmbeddedImage, Scene, TextureSearch};

/// The index among a set's images of a texture that was found and decoded.
fn image_index(t: MaterialTexture) -> Option<usize> {
    match t {
        MaterialTexture::Image(i) => Some(i),
        _ => None,
    }
}

/// What [`TextureSet::load`] has looked up so far: each texture file and embedded image decoded once per colour
/// key.
struct Cache<'a> {
    dir: Option<&'a Path>,
    images: &'a [EmbeddedImage],
    files: BTreeMap<(PathBuf, bool), MaterialTexture>,
    embedded: BTreeMap<(String, bool), MaterialTexture>,
    /// The labels embedded images were given (found or not): not files to watch.
    embedded_labels: std::collections::BTreeSet<PathBuf>,
}

/// How an embedded image is named where a path would be (a decoded texture's label, a problem).
fn embedded_label(name: &str) -> String {
    format!("(embedded) {name}")
}

/// A material whose texture couldn't be used; it is drawn with [`placeholder_image`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureProblem {
    pub material: String,
    /// Where the texture was looked for: the name as given, beside the model (or the file that was found but
    /// couldn't be decoded).
    pub path: PathBuf,
    /// `not found`, or why the file couldn't be decoded.
    pub reason: String,
}

/// One decoded texture file, shared by every material that reads it with the same colour key.
#[derive(Debug, Clone)]
pub struct DecodedTexture {
    pub path: PathBuf,
    /// Whether the magenta key was applied (a BMP of a keyed material).
    pub color_key: bool,
    /// RGBA, rows top first, keyed when `color_key`.
    pub image: RgbaImage,
    /// What `image`'s alpha holds.
    pub alpha: AlphaContent,
}

/// What one material draws with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialTexture {
    /// The material names no texture: drawn in its colour with its own alpha mode (the placeholder, opaque, when
    /// it has no colour either); not a problem.
    Untextured,
    /// The decoded texture [`TextureSet::images`]`[i]`.
    Image(usize),
    /// Missing or unreadable, as [`TextureSet::problems`]`[i]` says (materials sharing an unreadable file share
    /// its problem): drawn with the placeholder.
    Problem(usize),
}

/// A scene's textures, resolved from the model's folder and decoded: one [`MaterialTexture`] per scene material,
/// each texture file decoded once per colour key. Built by [`TextureSet::load`] without a GPU (so it can be
/// built off the thread that uploads), uploaded by `render::GpuModel::upload_textures`.
#[derive(Debug, Clone, Default)]
pub struct TextureSet {
    materials: Vec<MaterialTexture>,
    /// Per material, how its texture's alpha is drawn.
    alpha: Vec<AlphaMode>,
    images: Vec<DecodedTexture>,
    /// Per material, its sphere map and toon ramp among `images`.
    spheres: Vec<Option<usize>>,
    toons: Vec<Option<usize>>,
    /// Per material, its surface maps among `images` (metallic-roughness, normal, occlusion, emissive).
    maps: Vec<[Option<usize>; 4]>,
    problems: Vec<TextureProblem>,
    files: Vec<PathBuf>,
}

impl TextureSet {
    /// Looks up and decodes the texture of each of `scene`'s materials from the model's folder `dir`, the way
    /// each material's `search` says (see [`find_texture`]); a material without a `texture` is untextured.
    /// Without `dir` every named texture is missing. A texture that is missing or can't be decoded is a
    /// [`TextureProblem`]; nothing here fails.
    pub fn load(scene: &Scene, dir: Option<&Path>) -> TextureSet {
        let mut set = TextureSet::default();
        let mut cache = Cache {
            dir,
            images: &scene.images,
            files: BTreeMap::new(),
            embedded: BTreeMap::new(),
            embedded_labels: Default::default(),
        };
        for m in &scene.materials {
            // A material names its texture (the Inter-Quake readers take the material's name for it); one that
            // names none is drawn in its colour, and nothing is looked for.
            let texture = match m.texture.as_deref() {
                None | Some("") => MaterialTexture::Untextured,
                Some(name) => set.resolve(&mut cache, name, m.search, m.color_key, &m.name, true),
            };
            set.alpha.push(match texture {
                MaterialTexture::Image(i) => set.images[i].alpha.effective_alpha(m.alpha),
                // Its colour's alpha (glTF's base colour factor) is all there is to cut out or blend: blending
                // only where the colour is translucent, as a texture lowers the mode to what it holds.
                MaterialTexture::Untextured => match m.alpha {
                    AlphaMode::Blend if m.color.is_none_or(|c| c.w >= 1.0) => AlphaMode::Opaque,
                    mode => mode,
                },
                // The placeholder is opaque.
                MaterialTexture::Problem(_) => AlphaMode::Opaque,
            });
            set.materials.push(texture);
            let sphere = m.sphere.as_ref().map(|s| {
                let label = format!("{} (sphere map)", m.name);
                set.resolve(&mut cache, &s.texture, m.search, false, &label, true)
            });
            set.spheres.push(sphere.and_then(image_index));
            let toon = m.toon.as_ref().and_then(|t| t.texture.as_deref().map(|name| (name, t.shared)));
            let toon = toon.map(|(name, shared)| {
                let label = format!("{} (toon)", m.name);
                set.resolve(&mut cache, name, m.search, false, &label, !shared)
            });
            set.toons.push(toon.and_then(image_index));
            let kinds = ["metallic-roughness map", "normal map", "occlusion map", "emissive map"];
            let maps = m.maps.all().map(|map| map.map(|t| t.texture.as_str()).zip(map.map(|t| t.search)));
            let mut found = [None; 4];
            for (k, map) in maps.into_iter().enumerate() {
                if let Some((name, search)) = map {
                    let label = format!("{} ({})", m.name, kinds[k]);
                    found[k] = image_index(set.resolve(&mut cache, name, search, false, &label, true));
                }
            }
            set.maps.push(found);
        }
        // Embedded images are part of the model file: only files on disk are listed to watch.
        set.files =
            cache.files.into_keys().map(|(p, _)| p).chain(set.problems.iter().map(|p| p.path.clone())).collect();
        set.files.retain(|p| !cache.embedded_labels.contains(p));
        set.files.sort();
        set.files.dedup();
        set
    }

    /// Finds and decodes texture `name` of material `label` (once per file or embedded image and key, through
    /// `cache`): a texture that is missing is a problem when `report_missing`, one that can't be decoded always
    /// is.
    fn resolve(
        &mut self,
        cache: &mut Cache,
        name: &str,
        search: TextureSearch,
        color_key: bool,
        label: &str,
        report_missing: bool,
    ) -> MaterialTexture {
        if search == TextureSearch::Embedded {
            return self.resolve_embedded(cache, name, color_key, label, report_missing);
        }
        if let Some(path) = cache.dir.and_then(|d| find_texture(d, name, search)) {
            return *cache.files.entry((path.clone(), color_key)).or_insert_with(|| {
                let decoded = load_material_texture(&path, color_key);
                self.add(path, color_key, decoded, label)
            });
        }
        if !report_missing {
            return MaterialTexture::Untextured;
        }
        let path = cache.dir.map_or_else(|| PathBuf::from(name), |d| d.join(name.replace('\\', "/")));
        self.problems.push(TextureProblem { material: label.to_string(), path, reason: "not found".into() });
        MaterialTexture::Problem(self.problems.len() - 1)
    }

    /// [`TextureSet::resolve`] for an image the model file carries ([`crate::scene::Scene::images`]).
    fn resolve_embedded(
        &mut self,
        cache: &mut Cache,
        name: &str,
        color_key: bool,
        label: &str,
        report_missing: bool,
    ) -> MaterialTexture {
        let path = PathBuf::from(embedded_label(name));
        cache.embedded_labels.insert(path.clone());
        let Some(image) = EmbeddedImage::find(cache.images, name) else {
            if !report_missing {
                return MaterialTexture::Untextured;
            }
            let reason = "not among the images the model file carries".to_string();
            self.problems.push(TextureProblem { material: label.to_string(), path, reason });
            return MaterialTexture::Problem(self.problems.len() - 1);
        };
        *cache.embedded.entry((name.to_string(), color_key)).or_insert_with(|| {
            let decoded = decode_material_texture(&image.bytes, color_key);
            self.add(path, color_key, decoded, label)
        })
    }

    /// Adds a decoded texture, or the problem that kept it from decoding.
    fn add(
        &mut self,
        path: PathBuf,
        color_key: bool,
        decoded: Result<RgbaImage, String>,
        label: &str,
    ) -> MaterialTexture {
        match decoded {
            Ok(image) => {
                let alpha = AlphaContent::of(&image);
                self.images.push(DecodedTexture { path, color_key, image, alpha });
                MaterialTexture::Image(self.images.len() - 1)
            }
            Err(reason) => {
                self.problems.push(TextureProblem { material: label.to_string(), path, reason });
                MaterialTexture::Problem(self.problems.len() - 1)
            }
        }
    }

    /// One entry per scene material, in the scene's order.
    pub fn materials(&self) -> &[MaterialTexture] {
        &self.materials
    }

    /// Material `material`'s sphere map among [`TextureSet::images`], if it has one that was found and decoded.
    pub fn sphere(&self, material: usize) -> Option<usize> {
        self.spheres.get(material).copied().flatten()
    }

    /// Material `material`'s toon ramp among [`TextureSet::images`], if it names one that was found and decoded
    /// (a material with a toon ramp but none here draws the built-in ramp).
    pub fn toon(&self, material: usize) -> Option<usize> {
        self.toons.get(material).copied().flatten()
    }

    /// Material `material`'s surface maps among [`TextureSet::images`] (metallic-roughness, normal, occlusion,
    /// emissive), each where it names one that was found and decoded.
    pub fn maps(&self, material: usize) -> [Option<usize>; 4] {
        self.maps.get(material).copied().unwrap_or_default()
    }

    /// The decoded texture material `material` draws with, if it has one.
    pub fn image(&self, material: usize) -> Option<&DecodedTexture> {
        match self.materials.get(material) {
            Some(MaterialTexture::Image(i)) => self.images.get(*i),
            _ => None,
        }
    }

    /// How material `material` draws its texture's alpha: the material's mode lowered to what the decoded
    /// texture holds ([`AlphaContent::effective_alpha`]); opaque with the placeholder or for a material the
    /// set doesn't have.
    pub fn alpha(&self, material: usize) -> AlphaMode {
        self.alpha.get(material).copied().unwrap_or(AlphaMode::Opaque)
    }

    /// Every decoded texture, each file once per colour key.
    pub fn images(&self) -> &[DecodedTexture] {
        &self.images
    }

    /// Materials whose texture is missing or unreadable; they are drawn with the placeholder.
    pub fn problems(&self) -> &[TextureProblem] {
        &self.problems
    }

    /// The texture files the materials read, and those they looked for and didn't find, sorted: a change to any
    /// of them (a re-exported texture, a missing one saved) calls for loading the set again.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The paths of the missing or unreadable textures, for a problems list.
    pub fn missing_paths(&self) -> Vec<&Path> {
        self.problems.iter().map(|p| p.path.as_path()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Format, Material, Metadata};

    fn material(name: &str, texture: Option<&str>, alpha: AlphaMode, color_key: bool) -> Material {
        Material { color_key, alpha, ..Material::new(name, texture.map(str::to_string)) }
    }

    #[test]
    fn a_set_decodes_each_file_once_per_key_and_lists_what_is_missing_or_unreadable() {
        let dir = std::env::temp_dir().join(format!("rigscope-texture-set-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // Opaque red with one magenta texel, and a half-transparent PNG.
        let keyed =
            RgbaImage::from_fn(2, 1, |x, _| image::Rgba(if x == 0 { [255, 0, 0, 255] } else { [255, 0, 255, 255] }));
        keyed.save(dir.join("keyed.bmp")).unwrap();
        RgbaImage::from_pixel(2, 2, image::Rgba([0, 0, 255, 128])).save(dir.join("glass.png")).unwrap();
        std::fs::write(dir.join("broken.png"), b"not an image").unwrap();

        let mut scene = Scene::empty(Metadata::new(Format::Rsm, ""));
        scene.materials = vec![
            material("a", Some("keyed.bmp"), AlphaMode::Blend, true),
            material("b", Some("KEYED"), AlphaMode::Blend, true),
            material("c", Some("keyed.bmp"), AlphaMode::Blend, false),
            material("glass", Some("glass"), AlphaMode::Blend, false),
            material("glass-cut", Some("glass.png"), AlphaMode::Cutout, false),
            material("gone", Some("gone.tga"), AlphaMode::Opaque, false),
            material("bad", Some("broken.png"), AlphaMode::Opaque, false),
            material("bad too", Some("broken.png"), AlphaMode::Opaque, false),
            material("", None, AlphaMode::Blend, false),
            // Named like a file beside the model, but naming no texture: nothing is looked for.
            material("keyed.bmp", None, AlphaMode::Blend, true),
        ];
        let set = TextureSet::load(&scene, Some(&dir));
        use MaterialTexture::{Image, Problem, Untextured};
        assert_eq!(
            set.materials(),
            &[
                Image(0),
                Image(0),
                Image(1),
                Image(2),
                Image(2),
                Problem(0),
                Problem(1),
                Problem(1),
                Untextured,
                Untextured
            ]
        );
        assert_eq!(set.images().len(), 3);
        // Keyed: the magenta texel is cut out and takes its neighbour's colour; unkeyed, it stays.
        assert_eq!(set.image(0).unwrap().image.as_raw(), &[255, 0, 0, 255, 255, 0, 0, 0]);
        assert_eq!(set.image(2).unwrap().image.get_pixel(1, 0).0, [255, 0, 255, 255]);
        let alpha: Vec<AlphaMode> = (0..11).map(|i| set.alpha(i)).collect();
        use AlphaMode::{Blend, Cutout, Opaque};
        assert_eq!(alpha, [Cutout, Cutout, Opaque, Blend, Cutout, Opaque, Opaque, Opaque, Opaque, Opaque, Opaque]);

        assert_eq!(set.problems().len(), 2);
        assert_eq!(
            set.problems()[0],
            TextureProblem { material: "gone".into(), path: dir.join("gone.tga"), reason: "not found".into() }
        );
        assert_eq!(
            (set.problems()[1].material.as_str(), set.problems()[1].path.as_path()),
            ("bad", &*dir.join("broken.png"))
        );
        assert_eq!(set.missing_paths(), [dir.join("gone.tga"), dir.join("broken.png")]);
        let mut files = ["broken.png", "glass.png", "gone.tga", "keyed.bmp"].map(|f| dir.join(f)).to_vec();
        files.sort();
        assert_eq!(set.files(), files);

        // Without a folder, every named texture is missing, named as given.
        let none = TextureSet::load(&scene, None);
        assert!(none.images().is_empty());
        assert_eq!(none.problems().len(), 8);
        assert_eq!(none.problems()[0].path, PathBuf::from("keyed.bmp"));
        assert_eq!(none.problems()[3].path, PathBuf::from("glass"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn embedded_images_decode_from_the_scene_and_are_not_files_to_watch() {
        let mut png = Vec::new();
        RgbaImage::from_pixel(2, 1, image::Rgba([10, 20, 30, 128]))
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let mut scene = Scene::empty(Metadata::new(Format::Gltf, "2.0"));
        scene.images = vec![
            crate::scene::EmbeddedImage { name: "skin".into(), mime_type: Some("image/png".into()), bytes: png },
            crate::scene::EmbeddedImage { name: "junk".into(), mime_type: None, bytes: b"not an image".to_vec() },
        ];
        let embedded = |name: &str, texture: &str| Material {
            search: TextureSearch::Embedded,
            ..material(name, Some(texture), AlphaMode::Blend, false)
        };
        scene.materials =
            vec![embedded("a", "skin"), embedded("b", "skin"), embedded("c", "junk"), embedded("d", "gone")];
        let set = TextureSet::load(&scene, None);
        use MaterialTexture::{Image, Problem};
        assert_eq!(set.materials(), &[Image(0), Image(0), Problem(0), Problem(1)]);
        assert_eq!(set.image(0).unwrap().image.as_raw(), &[10, 20, 30, 128, 10, 20, 30, 128]);
        assert_eq!(set.alpha(0), AlphaMode::Blend);
        assert_eq!(set.problems()[1].reason, "not among the images the model file carries");
        assert!(set.files().is_empty(), "{:?}", set.files());
        // A file on disk with the image's name is not what an embedded reference means.
        assert_eq!(crate::textures::find_texture(Path::new("."), "skin", TextureSearch::Embedded), None);
    }
}

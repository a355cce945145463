//! Material textures: found beside the model by name or under a game data tree (`Material::search`), decoded
//! with the image crate, colour-keyed when the material asks, uploaded with mipmaps.
//!
//! Images are uploaded as decoded (top row first) and sampled with the file's UVs unchanged: the Inter-Quake
//! formats and RSM put the UV origin at the top left, as wgpu does.

use std::path::{Component, Path, PathBuf};

use image::RgbaImage;

use crate::scene::TextureSearch;

/// A material whose texture couldn't be used; it is drawn with [`placeholder_image`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureProblem {
    pub material: String,
    /// Where the texture was looked for: the name as given, beside the model.
    pub path: PathBuf,
    /// `not found`, or why the file couldn't be decoded.
    pub reason: String,
}

/// Extensions tried after the name as given.
const EXTENSIONS: [&str; 4] = ["png", "tga", "jpg", "bmp"];

/// Finds the texture `name` refers to in `dir`: the name as given, then with .png, .tga, .jpg and .bmp
/// appended, each matched case-insensitively against the files that exist. Names that are absolute or climb
/// out of `dir` (`..`) are refused, since they come from an untrusted file.
pub fn resolve_texture(dir: &Path, name: &str) -> Option<PathBuf> {
    let name = name.replace('\\', "/");
    let rel = Path::new(&name);
    if name.is_empty() || rel.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return None;
    }
    let folder = dir.join(rel.parent().unwrap_or(Path::new("")));
    let file = rel.file_name()?.to_str()?;
    let entries: Vec<(String, PathBuf)> = std::fs::read_dir(&folder)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .filter_map(|e| Some((e.file_name().to_str()?.to_lowercase(), e.path())))
        .collect();
    let candidates = std::iter::once(file.to_string()).chain(EXTENSIONS.iter().map(|ext| format!("{file}.{ext}")));
    for candidate in candidates {
        let want = candidate.to_lowercase();
        // Exact spelling first, so a folder with both `Body.png` and `body.png` picks the one named.
        if let Some((_, p)) = entries.iter().find(|(_, p)| p.file_name().and_then(|f| f.to_str()) == Some(&candidate)) {
            return Some(p.clone());
        }
        let mut matches: Vec<&PathBuf> = entries.iter().filter(|(n, _)| *n == want).map(|(_, p)| p).collect();
        matches.sort();
        if let Some(p) = matches.first() {
            return Some((*p).clone());
        }
    }
    None
}

/// Finds the texture `name` refers to from the model's folder `dir`, the way `search` says.
pub fn find_texture(dir: &Path, name: &str, search: TextureSearch) -> Option<PathBuf> {
    match search {
        TextureSearch::BesideModel => resolve_texture(dir, name),
        TextureSearch::DataTexture => resolve_data_texture(dir, name),
    }
}

/// A game-data texture path (`model\missing.bmp`, relative to `data\texture\`): `\` becomes `/`, then
/// `A/data/texture/NAME` is tried for `dir` and each folder above it, then NAME and its bare file name beside the
/// model. Every path component matches case-insensitively (the game's archives ignore case), the exact spelling
/// first. Absolute names and names with `..` are refused.
pub fn resolve_data_texture(dir: &Path, name: &str) -> Option<PathBuf> {
    let rel = safe_relative(name)?;
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    for ancestor in absolute.ancestors() {
        if let Some(p) = find_ignoring_case(ancestor, &Path::new("data/texture").join(&rel)) {
            return Some(p);
        }
    }
    find_ignoring_case(dir, &rel).or_else(|| find_ignoring_case(dir, Path::new(rel.file_name()?)))
}

/// `name` with `\` as `/`, when it is a non-empty relative path that stays inside its folder.
fn safe_relative(name: &str) -> Option<PathBuf> {
    let name = name.replace('\\', "/");
    let rel = PathBuf::from(name.trim_start_matches("./"));
    let ok = rel.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    (ok && rel.file_name().is_some()).then_some(rel)
}

/// `base/rel`, each component of `rel` matched against what exists: the exact name, else the first (sorted)
/// that equals it ignoring case. The last component must be a file.
fn find_ignoring_case(base: &Path, rel: &Path) -> Option<PathBuf> {
    let parts: Vec<&std::ffi::OsStr> =
        rel.components().filter_map(|c| if let Component::Normal(n) = c { Some(n) } else { None }).collect();
    let mut here = base.to_path_buf();
    for (k, part) in parts.iter().enumerate() {
        let last = k + 1 == parts.len();
        let exact = here.join(part);
        let fits = |p: &Path| if last { p.is_file() } else { p.is_dir() };
        if fits(&exact) {
            here = exact;
            continue;
        }
        let want = part.to_str()?.to_lowercase();
        let mut found: Vec<PathBuf> = std::fs::read_dir(&here)
            .ok()?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_str().is_some_and(|n| n.to_lowercase() == want))
            .map(|e| e.path())
            .filter(|p| fits(p))
            .collect();
        found.sort();
        here = found.into_iter().next()?;
    }
    Some(here)
}

/// What a texture's alpha holds once decoded (and keyed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AlphaContent {
    /// Every texel opaque.
    Opaque,
    /// Only fully opaque and fully transparent texels: a cut-out.
    Binary,
    /// Some texels partly transparent.
    Partial,
}

impl AlphaContent {
    pub(crate) fn of(image: &RgbaImage) -> AlphaContent {
        let mut content = AlphaContent::Opaque;
        for p in image.pixels() {
            match p.0[3] {
                255 => {}
                0 => content = AlphaContent::Binary,
                _ => return AlphaContent::Partial,
            }
        }
        content
    }
}

/// Whether a texel is the Ragnarok colour key, magenta: r > 230, g < 20, b > 230.
pub fn is_color_key(p: [u8; 4]) -> bool {
    p[0] > 230 && p[1] < 20 && p[2] > 230
}

/// Makes the magenta texels (see [`is_color_key`]) transparent and gives each one the average colour of its
/// nearest unkeyed neighbours (grown outward ring by ring, wrapping at the edges as the sampler repeats), so
/// filtering and mipmaps blend the cut edge with the texture's own colours instead of fringing it pink.
/// Returns how many texels were keyed.
pub fn apply_color_key(image: &mut RgbaImage) -> usize {
    let (w, h) = image.dimensions();
    let mut keyed: Vec<bool> = image.pixels().map(|p| is_color_key(p.0)).collect();
    let count = keyed.iter().filter(|&&k| k).count();
    if count == 0 {
        return 0;
    }
    for (p, &k) in image.pixels_mut().zip(&keyed) {
        if k {
            p.0 = [0, 0, 0, 0];
        }
    }
    if count == keyed.len() {
        return count;
    }
    let index = |x: u32, y: u32| (y * w + x) as usize;
    loop {
        let mut filled = Vec::new();
        for y in 0..h {
            for x in 0..w {
                if !keyed[index(x, y)] {
                    continue;
                }
                let (mut sum, mut n) = ([0u32; 3], 0u32);
                for (dx, dy) in [(-1i32, -1i32), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                    let nx = (x as i32 + dx).rem_euclid(w as i32) as u32;
                    let ny = (y as i32 + dy).rem_euclid(h as i32) as u32;
                    if !keyed[index(nx, ny)] {
                        let c = image.get_pixel(nx, ny).0;
                        for k in 0..3 {
                            sum[k] += c[k] as u32;
                        }
                        n += 1;
                    }
                }
                if n > 0 {
                    filled.push((x, y, sum.map(|s| (s / n) as u8)));
                }
            }
        }
        if filled.is_empty() {
            break;
        }
        for (x, y, [r, g, b]) in filled {
            image.put_pixel(x, y, image::Rgba([r, g, b, 0]));
            keyed[index(x, y)] = false;
        }
    }
    count
}

/// Decodes a material's texture: as [`load_texture`], and for a BMP with `color_key` its alpha ignored and the
/// magenta key applied ([`apply_color_key`]).
pub(crate) fn load_material_texture(path: &Path, color_key: bool) -> Result<RgbaImage, String> {
    let reader = image::ImageReader::open(path).map_err(|e| e.to_string())?;
    let reader = reader.with_guessed_format().map_err(|e| e.to_string())?;
    let bmp = reader.format() == Some(image::ImageFormat::Bmp);
    let mut image = reader.decode().map_err(|e| e.to_string())?.to_rgba8();
    if bmp && color_key {
        // A BMP's fourth byte is padding in the game's files, not alpha.
        for p in image.pixels_mut() {
            p.0[3] = 255;
        }
        apply_color_key(&mut image);
    }
    Ok(image)
}

/// Decodes an image file to 8-bit RGBA, rows top first.
pub fn load_texture(path: &Path) -> Result<RgbaImage, String> {
    let reader = image::ImageReader::open(path).map_err(|e| e.to_string())?;
    let reader = reader.with_guessed_format().map_err(|e| e.to_string())?;
    Ok(reader.decode().map_err(|e| e.to_string())?.to_rgba8())
}

/// The neutral stand-in for a missing texture: a soft grey check, so the model stays readable and the
/// missing texture is still noticeable.
pub fn placeholder_image() -> RgbaImage {
    RgbaImage::from_fn(64, 64, |x, y| {
        let v = if (x / 8 + y / 8) % 2 == 0 { 200 } else { 168 };
        image::Rgba([v, v, v, 255])
    })
}

/// Uploads an sRGB image with a full mip chain (box-filtered on the CPU) and returns its view.
pub(crate) fn upload(device: &wgpu::Device, queue: &wgpu::Queue, image: &RgbaImage, label: &str) -> wgpu::TextureView {
    let (w, h) = (image.width().max(1), image.height().max(1));
    let levels = 32 - w.max(h).leading_zeros();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        mip_level_count: levels,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let mut level = image.clone();
    for mip in 0..levels {
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: mip,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            level.as_raw(),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * level.width()),
                rows_per_image: Some(level.height()),
            },
            wgpu::Extent3d { width: level.width(), height: level.height(), depth_or_array_layers: 1 },
        );
        if mip + 1 < levels {
            let (nw, nh) = ((level.width() / 2).max(1), (level.height() / 2).max(1));
            level = image::imageops::resize(&level, nw, nh, image::imageops::FilterType::Triangle);
        }
    }
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_by_name_then_extension_case_insensitively_and_stays_inside() {
        let dir = std::env::temp_dir().join(format!("rigscope-texture-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Body.TGA"), b"x").unwrap();
        std::fs::write(dir.join("skin.png"), b"x").unwrap();
        assert_eq!(resolve_texture(&dir, "body.tga"), Some(dir.join("Body.TGA")));
        assert_eq!(resolve_texture(&dir, "BODY"), Some(dir.join("Body.TGA")));
        assert_eq!(resolve_texture(&dir, "skin"), Some(dir.join("skin.png")));
        assert_eq!(resolve_texture(&dir, "head"), None);
        assert_eq!(resolve_texture(&dir, "../skin.png"), None);
        assert_eq!(resolve_texture(&dir, ""), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn data_textures_resolve_through_ancestors_ignoring_case_and_backslashes() {
        let root = std::env::temp_dir().join(format!("rigscope-data-texture-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let models = root.join("Data/Model/sub");
        let textures = root.join("Data/Texture/La_SciFi");
        std::fs::create_dir_all(&models).unwrap();
        std::fs::create_dir_all(&textures).unwrap();
        std::fs::write(textures.join("Error_01.BMP"), b"x").unwrap();
        std::fs::write(models.join("beside.bmp"), b"x").unwrap();
        std::fs::create_dir_all(models.join("tex")).unwrap();
        std::fs::write(models.join("tex/Inner.tga"), b"x").unwrap();
        let abs = |p: PathBuf| std::path::absolute(p).unwrap();

        // Three folders up, every component in another case, backslashes.
        let found = resolve_data_texture(&models, "la_scifi\\error_01.bmp").map(abs);
        assert_eq!(found, Some(abs(textures.join("Error_01.BMP"))));
        // Not under data/texture: the path beside the model, then its file name alone.
        assert_eq!(resolve_data_texture(&models, "TEX\\inner.TGA").map(abs), Some(abs(models.join("tex/Inner.tga"))));
        assert_eq!(
            resolve_data_texture(&models, "elsewhere\\Beside.bmp").map(abs),
            Some(abs(models.join("beside.bmp")))
        );
        assert_eq!(resolve_data_texture(&models, "la_scifi\\nothing.bmp"), None);
        assert_eq!(resolve_data_texture(&models, "..\\..\\Texture\\La_SciFi\\Error_01.BMP"), None);
        assert_eq!(resolve_data_texture(&models, "/etc/passwd"), None);
        assert_eq!(resolve_data_texture(&models, ""), None);
        // The Inter-Quake search is unchanged: beside the model only.
        assert_eq!(find_texture(&models, "la_scifi\\error_01.bmp", TextureSearch::BesideModel), None);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_magenta_key_clears_alpha_and_fills_from_neighbours() {
        // A 4×1 strip: red, magenta, near-magenta, blue. Wrapping, texel 1 sees red and near-magenta's
        // neighbours only after the first ring.
        let mut img =
            RgbaImage::from_raw(4, 1, vec![200, 0, 0, 255, 255, 0, 255, 255, 240, 10, 235, 255, 0, 0, 200, 255])
                .unwrap();
        assert_eq!(apply_color_key(&mut img), 2);
        assert_eq!(img.get_pixel(0, 0).0, [200, 0, 0, 255]);
        assert_eq!(img.get_pixel(3, 0).0, [0, 0, 200, 255]);
        // Texel 1 is next to red (0) and texel 2 (keyed); texel 2 is next to blue (3) and texel 1 (keyed).
        assert_eq!(img.get_pixel(1, 0).0, [200, 0, 0, 0]);
        assert_eq!(img.get_pixel(2, 0).0, [0, 0, 200, 0]);
        assert!(img.pixels().all(|p| !is_color_key(p.0)), "no magenta left to bleed");
        assert_eq!(AlphaContent::of(&img), AlphaContent::Binary);

        // A keyed texel with no unkeyed neighbour takes the colour grown from further away.
        let mut img = RgbaImage::from_fn(5, 1, |x, _| {
            if x == 0 { image::Rgba([10, 20, 30, 255]) } else { image::Rgba([255, 0, 255, 255]) }
        });
        assert_eq!(apply_color_key(&mut img), 4);
        assert!(img.pixels().skip(1).all(|p| p.0 == [10, 20, 30, 0]), "{:?}", img.as_raw());
        // Not magenta enough: kept.
        let mut img = RgbaImage::from_raw(1, 1, vec![230, 0, 255, 255]).unwrap();
        assert_eq!(apply_color_key(&mut img), 0);
        assert_eq!(AlphaContent::of(&img), AlphaContent::Opaque);
    }
}

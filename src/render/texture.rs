//! Material textures: found beside the model by name, decoded with the image crate, uploaded with mipmaps.
//!
//! Images are uploaded as decoded (top row first) and sampled with the file's UVs unchanged: the Inter-Quake
//! formats put the UV origin at the top left, as wgpu does.

use std::path::{Component, Path, PathBuf};

use image::RgbaImage;

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
}

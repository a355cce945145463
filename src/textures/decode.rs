//! Decoding texture files to RGBA, the magenta colour key with its neighbour fill, what the decoded alpha
//! holds, and the placeholder drawn for a missing texture.

use std::path::Path;

use image::RgbaImage;

use crate::scene::AlphaMode;

/// What a texture's alpha holds once decoded (and keyed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlphaContent {
    /// Every texel opaque.
    Opaque,
    /// Only fully opaque and fully transparent texels: a cut-out.
    Binary,
    /// Some texels partly transparent.
    Partial,
}

impl AlphaContent {
    /// What `image`'s alpha channel holds.
    pub fn of(image: &RgbaImage) -> AlphaContent {
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

    /// How a material whose alpha mode is `material` (the most its texture's alpha may do) draws a texture
    /// holding this: the least the texture needs. An opaque texture or material draws opaque, partial alpha
    /// blends only where the material allows blending, and anything else is an alpha-tested cut-out.
    pub fn effective_alpha(self, material: AlphaMode) -> AlphaMode {
        match (material, self) {
            (AlphaMode::Opaque, _) | (_, AlphaContent::Opaque) => AlphaMode::Opaque,
            (AlphaMode::Blend, AlphaContent::Partial) => AlphaMode::Blend,
            _ => AlphaMode::Cutout,
        }
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
pub fn load_material_texture(path: &Path, color_key: bool) -> Result<RgbaImage, String> {
    key_material_texture(reader_for(path)?, color_key)
}

/// A reader of image file `path` (read through [`crate::vfs`]), its format guessed from its bytes, else from
/// its extension (TGA has no signature).
fn reader_for(path: &Path) -> Result<image::ImageReader<std::io::Cursor<Vec<u8>>>, String> {
    let bytes = crate::vfs::read(path).map_err(|e| e.to_string())?;
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes));
    if let Ok(format) = image::ImageFormat::from_path(path) {
        reader.set_format(format);
    }
    reader.with_guessed_format().map_err(|e| e.to_string())
}

/// [`load_material_texture`] for an image held in memory (one a model file carries), its format guessed from
/// its bytes.
pub fn decode_material_texture(bytes: &[u8], color_key: bool) -> Result<RgbaImage, String> {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes));
    key_material_texture(reader.with_guessed_format().map_err(|e| e.to_string())?, color_key)
}

fn key_material_texture<R: std::io::BufRead + std::io::Seek>(
    reader: image::ImageReader<R>,
    color_key: bool,
) -> Result<RgbaImage, String> {
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
    Ok(reader_for(path)?.decode().map_err(|e| e.to_string())?.to_rgba8())
}

/// The neutral stand-in for a missing texture: a soft grey check, so the model stays readable and the
/// missing texture is still noticeable.
pub fn placeholder_image() -> RgbaImage {
    RgbaImage::from_fn(64, 64, |x, y| {
        let v = if (x / 8 + y / 8) % 2 == 0 { 200 } else { 168 };
        image::Rgba([v, v, v, 255])
    })
}

/// The toon ramp drawn for MikuMikuDance's shared toon01–toon10 when the model's folder lacks them (they ship
/// with MikuMikuDance, under its own terms, and are not redistributed here): 32 rows, white in the lit top half,
/// a soft step at the middle to a light warm grey in the shadowed bottom half, as MikuMikuDance's own neutral
/// ramps look. One ramp stands in for all ten.
pub fn builtin_toon_ramp() -> RgbaImage {
    RgbaImage::from_fn(4, 32, |_, y| {
        // Step centred at the middle row, four rows wide.
        let t = ((y as f32 + 0.5 - 16.0) / 4.0 + 0.5).clamp(0.0, 1.0);
        let shade = [214.0, 206.0, 204.0];
        let c = shade.map(|s: f32| (255.0 + (s - 255.0) * t).round() as u8);
        image::Rgba([c[0], c[1], c[2], 255])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_effective_alpha_is_the_least_the_texture_needs_within_the_material_mode() {
        use AlphaContent::{Binary, Opaque, Partial};
        for content in [Opaque, Binary, Partial] {
            assert_eq!(content.effective_alpha(AlphaMode::Opaque), AlphaMode::Opaque);
        }
        assert_eq!(Opaque.effective_alpha(AlphaMode::Blend), AlphaMode::Opaque);
        assert_eq!(Binary.effective_alpha(AlphaMode::Blend), AlphaMode::Cutout);
        assert_eq!(Partial.effective_alpha(AlphaMode::Blend), AlphaMode::Blend);
        assert_eq!(Partial.effective_alpha(AlphaMode::Cutout), AlphaMode::Cutout);
    }
}

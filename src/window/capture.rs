//! Screenshots: the frame drawn again into an offscreen texture of the window's size and format, read back
//! (with the renderer's readback helper) and saved as PNG.

use std::path::{Path, PathBuf};

use image::RgbaImage;

use super::gpu::{Gpu, PixelRect, UiFrame};
use crate::render::{GpuModel, Panes, ViewState, read_texels};

/// Draws the frame offscreen (the 3D view, and egui when `ui` is given) and returns it as sRGB RGBA, cropped
/// to `crop` when given. [`ViewState::prepare`] must have run for this frame and the egui buffers be current.
pub fn capture(
    gpu: &Gpu,
    clear: wgpu::Color,
    scene: Option<(&GpuModel, &ViewState, Panes)>,
    ui: Option<&UiFrame>,
    crop: Option<PixelRect>,
) -> Result<RgbaImage, String> {
    let texture = gpu.capture_texture();
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let device = gpu.renderer.device();
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("screenshot") });
    gpu.draw(&mut encoder, &view, clear, scene, ui);
    let size = gpu.size();
    let mut texels = read_texels(&gpu.renderer, encoder, &texture, size, 4).map_err(|e| e.to_string())?;
    if matches!(gpu.format(), wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb) {
        for px in texels.chunks_exact_mut(4) {
            px.swap(0, 2);
        }
    }
    let mut image =
        RgbaImage::from_raw(size.0, size.1, texels).ok_or_else(|| "the screenshot readback was short".to_string())?;
    // Surfaces may be presented with any alpha; a screenshot is opaque.
    for px in image.pixels_mut() {
        px.0[3] = 255;
    }
    match crop {
        Some(r) if r.width > 0 && r.height > 0 => {
            Ok(image::imageops::crop_imm(&image, r.x, r.y, r.width, r.height).to_image())
        }
        _ => Ok(image),
    }
}

/// `dir/name`, or `dir/stem-2.png` and onwards when that file exists, so a screenshot never overwrites one.
pub fn unused_path(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(name);
    if !first.exists() {
        return first;
    }
    let stem = name.strip_suffix(".png").unwrap_or(name);
    (2..10_000).map(|i| dir.join(format!("{stem}-{i}.png"))).find(|p| !p.exists()).unwrap_or(first)
}

/// Writes `text` (the clip's frame and time: `frame/last seconds`) into the bottom-left corner of a
/// screenshot, in the contact sheet's label font at twice its size.
pub fn stamp(image: &mut RgbaImage, text: &str) {
    const SCALE: u32 = 2;
    let y = image.height().saturating_sub(7 * SCALE + 6);
    crate::render::draw_label(image, 6, y, text, SCALE);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stamp_goes_in_the_bottom_left_corner_only() {
        let mut image = RgbaImage::from_pixel(200, 100, image::Rgba([10, 20, 30, 255]));
        stamp(&mut image, "12.00/47 0.500");
        let changed: Vec<(u32, u32)> =
            image.enumerate_pixels().filter(|(_, _, p)| p.0 != [10, 20, 30, 255]).map(|(x, y, _)| (x, y)).collect();
        assert!(changed.len() > 100, "the text is drawn");
        assert!(changed.iter().all(|&(x, y)| x < 120 && y >= 100 - 7 * 2 - 8), "{:?}", changed.first());
    }
}

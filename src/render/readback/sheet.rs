//! Contact sheets: evenly spaced frames of a clip in a grid of cells, each labelled with its frame number in a
//! tiny built-in bitmap font, drawn into the image after readback (no font files, no GPU text, deterministic).

use image::{Rgba, RgbaImage};

use super::render_offscreen;
use crate::anim::Pose;
use crate::render::Renderer;
use crate::render::camera::Camera;
use crate::render::frame::{FrameInput, FrameOverlays, Overlays, ViewState};
use crate::render::model::GpuModel;
use crate::render::{Background, RenderError};
use crate::scene::{Clip, Scene};

/// What a contact sheet of one clip shows: `render --sheet` and the window's contact sheet both draw one.
#[derive(Clone)]
pub struct SheetSpec<'a> {
    /// The clip, by index into `Scene::clips`.
    pub clip: usize,
    /// Cells across and down; the sheet shows `cols × rows` evenly spaced frames ([`sheet_frames`]).
    pub cols: u32,
    pub rows: u32,
    /// Each cell's size in pixels.
    pub cell: (u32, u32),
    /// One camera for every cell (framed on the whole clip, so the model moves inside a still frame).
    pub camera: &'a Camera,
    /// The overlays of every cell, with the ones in `per_frame` redone for each cell's frame.
    pub overlays: &'a Overlays,
    pub per_frame: FrameOverlays,
    /// Frame rate for clips whose file stores none.
    pub default_fps: f32,
    pub background: Background,
    /// The pose of the clip at a frame: the caller's, which poses through `physics::pose_frame` (the renderer
    /// knows nothing of physics).
    pub pose_at: &'a dyn Fn(f32) -> Pose,
}

/// Renders the frames of `spec` with any renderer (headless or the window's) and lays them out, labelled, as
/// [`compose_sheet`] does. An unknown clip index is an empty sheet of one blank cell.
pub fn render_sheet(
    renderer: &Renderer,
    model: &GpuModel,
    scene: &Scene,
    spec: &SheetSpec<'_>,
) -> Result<RgbaImage, RenderError> {
    let Some(clip) = scene.clips.get(spec.clip) else {
        return Ok(RgbaImage::new(spec.cell.0.max(1), spec.cell.1.max(1)));
    };
    let frames = sheet_frames(clip, (spec.cols.max(1) * spec.rows.max(1)) as usize);
    let mut view = ViewState::new(renderer);
    let mut cells = Vec::with_capacity(frames.len());
    for &f in &frames {
        let frame = f as f32;
        let pose = (spec.pose_at)(frame);
        let overlays = spec.per_frame.at(spec.overlays, scene, Some((spec.clip, frame)), &pose, spec.default_fps);
        let time = frame / clip.fps(spec.default_fps);
        let (light, self_shadow) = (scene.light_at(time, true), scene.self_shadow_at(time, true));
        let (camera, overlays) = (spec.camera, &overlays);
        let input = FrameInput { camera, pose: &pose, overlays, time, reference_pose: None, light, self_shadow };
        cells.push(render_offscreen(renderer, model, &mut view, &input, spec.cell, spec.background)?);
    }
    Ok(compose_sheet(&cells, &frames, spec.cols))
}

/// `count` evenly spaced whole frames of `clip`, first frame first. A clamped clip ends on its last frame; a
/// looping one stops a step short of wrapping to the first. Frames repeat when the clip has fewer than `count`.
pub fn sheet_frames(clip: &Clip, count: usize) -> Vec<u32> {
    let n = clip.frame_count.max(1) as u64;
    let count = count.max(1) as u64;
    (0..count)
        .map(|i| {
            if clip.looping {
                // Spread over n frames of playback: i·n/count, rounded to nearest.
                ((2 * i * n + count) / (2 * count)).min(n - 1) as u32
            } else if count == 1 {
                0
            } else {
                ((2 * i * (n - 1) + (count - 1)) / (2 * (count - 1))) as u32
            }
        })
        .collect()
}

/// Lays `cells` (all the same size) out row by row, `cols` wide, and labels each with its number from
/// `labels` in its top-left corner.
pub fn compose_sheet(cells: &[RgbaImage], labels: &[u32], cols: u32) -> RgbaImage {
    let (w, h) = cells.first().map_or((1, 1), |c| c.dimensions());
    let cols = cols.max(1);
    let rows = (cells.len() as u32).div_ceil(cols).max(1);
    let mut sheet = RgbaImage::new(w * cols, h * rows);
    let scale = (h / 80).clamp(2, 4);
    for (i, cell) in cells.iter().enumerate() {
        let (x, y) = ((i as u32 % cols) * w, (i as u32 / cols) * h);
        image::imageops::replace(&mut sheet, cell, x as i64, y as i64);
        if let Some(label) = labels.get(i) {
            draw_label(&mut sheet, x + 2 * scale, y + 2 * scale, &label.to_string(), scale);
        }
    }
    sheet
}

/// Digits 0–9, 3×5 pixels each, one row of three bits per byte (bit 2 is the left column).
const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b010, 0b010, 0b010],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];

/// The punctuation the labels use: `.`, `/` and `-`, like [`DIGITS`].
fn punctuation(ch: char) -> Option<[u8; 5]> {
    match ch {
        '.' => Some([0b000, 0b000, 0b000, 0b000, 0b010]),
        '/' => Some([0b001, 0b001, 0b010, 0b100, 0b100]),
        '-' => Some([0b000, 0b000, 0b111, 0b000, 0b000]),
        _ => None,
    }
}

/// Draws `text` (digits and `. / -`; other characters leave a gap) in white on a dark box at (`x`, `y`), each font pixel
/// `scale` image pixels square. Clipped at the image's edges.
pub fn draw_label(image: &mut RgbaImage, x: u32, y: u32, text: &str, scale: u32) {
    let s = scale.max(1);
    let chars = text.chars().count() as u32;
    let (box_w, box_h) = ((chars * 4 + 1) * s, 7 * s);
    let mut put = |px: u32, py: u32, c: Rgba<u8>| {
        if px < image.width() && py < image.height() {
            image.put_pixel(px, py, c);
        }
    };
    for by in 0..box_h {
        for bx in 0..box_w {
            put(x + bx, y + by, Rgba([16, 16, 20, 255]));
        }
    }
    for (k, ch) in text.chars().enumerate() {
        let Some(glyph) = ch.to_digit(10).map(|d| DIGITS[d as usize]).or_else(|| punctuation(ch)) else { continue };
        let gx = x + (1 + k as u32 * 4) * s;
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..3u32 {
                if bits & (0b100 >> col) != 0 {
                    for dy in 0..s {
                        for dx in 0..s {
                            put(gx + col * s + dx, y + (1 + row as u32) * s + dy, Rgba([255, 255, 255, 255]));
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::ClipData;

    fn clip(frames: u32, looping: bool) -> Clip {
        Clip::new("c", 24.0, looping, frames, ClipData::Keyed { tracks: vec![] })
    }

    #[test]
    fn frames_are_evenly_spaced() {
        assert_eq!(sheet_frames(&clip(61, false), 4), vec![0, 20, 40, 60]);
        assert_eq!(sheet_frames(&clip(100, true), 4), vec![0, 25, 50, 75]);
        assert_eq!(sheet_frames(&clip(1, true), 3), vec![0, 0, 0]);
    }

    #[test]
    fn labels_are_drawn_inside_the_image() {
        let mut img = RgbaImage::new(10, 10);
        draw_label(&mut img, 0, 0, "18", 1);
        // The top-left pixel of "1" (0b010: middle column) is background, its middle column is lit.
        assert_eq!(img.get_pixel(1, 1).0, [16, 16, 20, 255]);
        assert_eq!(img.get_pixel(2, 1).0, [255, 255, 255, 255]);
        draw_label(&mut img, 8, 8, "12345", 3);
    }
}

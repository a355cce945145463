//! The contact sheet from the window ([`Intent::ContactSheet`](crate::app::Intent::ContactSheet)): what
//! `render --sheet` makes, of the clip shown, from the window's orbit angles and with its overlays, drawn by
//! the window's own renderer offscreen ([`crate::render::render_sheet`]) and saved beside screenshots.

use std::path::{Path, PathBuf};

use super::{Viewer, WindowState, capture};
use crate::render::{Camera, SheetSpec, render_sheet};
use crate::scene::DEFAULT_FPS;
use crate::view::BACKGROUND;

/// Each cell's size in pixels.
pub const CELL: (u32, u32) = (320, 240);
/// The most cells across and down: 4×3, twelve frames.
pub const MAX_GRID: (u32, u32) = (4, 3);

/// Cells across and down for a clip of `frames` frames: 4×3, or fewer cells when the clip has fewer than
/// twelve frames, so no frame repeats (up to 4 across, as many rows as needed).
pub fn grid(frames: u32) -> (u32, u32) {
    let (cols, rows) = MAX_GRID;
    let count = frames.clamp(1, cols * rows);
    let cols = count.min(cols);
    (cols, count.div_ceil(cols))
}

/// The camera of pictures of the whole clip `clip` (a contact sheet, a recording) at `size`: framed on the
/// clip's bounds, so the model doesn't jump between frames, from the `orbit` camera's yaw and pitch.
pub(super) fn clip_camera(
    scene: &crate::scene::Scene,
    clip: usize,
    orbit: &Camera,
    size: (u32, u32),
) -> Result<Camera, String> {
    let aspect = size.0 as f32 / size.1 as f32;
    let (camera, _) = crate::render::clip_camera(scene, Some(clip), DEFAULT_FPS, &[], (orbit.yaw, orbit.pitch), aspect)
        .ok_or_else(|| "the model has no geometry to frame".to_string())?;
    Ok(camera)
}

/// `model-clip-sheet.png`, with the characters [`crate::view::screenshot_name`] keeps.
pub fn sheet_name(model: &str, clip: &str) -> String {
    let shot = crate::view::screenshot_name(model, Some((clip, 0.0)));
    format!("{}-sheet.png", shot.strip_suffix("-f000.png").unwrap_or(&shot))
}

impl Viewer {
    /// Renders and saves the contact sheet of the clip shown into the current folder (never overwriting), and
    /// says where in a notice; or says why there is nothing to save.
    pub(super) fn contact_sheet(&mut self, w: &WindowState) {
        let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        match self.save_contact_sheet(w, &dir) {
            Ok(Some(path)) => self.notify(format!("Saved {}", path.display())),
            Ok(None) => self.notify("Nothing to sheet: no animation is shown".to_string()),
            Err(e) => self.notify(format!("Contact sheet failed: {e}")),
        }
    }

    /// The sheet written into `dir`: its path, or `None` without a model on the GPU or a clip.
    fn save_contact_sheet(&self, w: &WindowState, dir: &Path) -> Result<Option<PathBuf>, String> {
        let (Some((_, model)), Some(scene), Some((clip, _))) =
            (&w.stage.model, self.app.scene(), self.app.current_clip_frame())
        else {
            return Ok(None);
        };
        let Some(c) = scene.clips.get(clip) else { return Ok(None) };
        let (cols, rows) = grid(c.frame_count);
        let overlays = self.app.overlays();
        let camera = clip_camera(scene, clip, &w.stage.camera.camera, CELL)?;
        // MMD physics as playback from the clip's start shows it, when the view simulates it.
        let physics = std::cell::RefCell::new(
            self.app.physics_settings().and_then(|s| crate::physics::Simulation::new(scene, s)),
        );
        let pose_at = |f: f32| {
            let input = crate::anim::PoseInput::at(Some(c), f, DEFAULT_FPS);
            crate::physics::frame_pose(scene, physics.borrow_mut().as_mut(), &input, crate::physics::Seek::FromStart)
        };
        let spec = SheetSpec {
            clip,
            cols,
            rows,
            cell: CELL,
            camera: &camera,
            overlays: &overlays,
            per_frame: self.app.frame_overlays(),
            default_fps: DEFAULT_FPS,
            background: BACKGROUND,
            pose_at: &pose_at,
        };
        let image = render_sheet(&w.gpu.renderer, model, scene, &spec).map_err(|e| e.to_string())?;
        let path = capture::unused_path(dir, &sheet_name(&self.model_name(), &c.name));
        crate::watch::save_png(&image, &path)?;
        Ok(Some(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_fits_short_clips_and_caps_at_four_by_three() {
        assert_eq!(grid(100), (4, 3));
        assert_eq!(grid(12), (4, 3));
        assert_eq!(grid(7), (4, 2));
        assert_eq!(grid(3), (3, 1));
        assert_eq!(grid(1), (1, 1));
        assert_eq!(grid(0), (1, 1));
    }

    #[test]
    fn sheet_names_follow_screenshot_names() {
        assert_eq!(sheet_name("mrfixit", "idle"), "mrfixit-idle-sheet.png");
        assert_eq!(sheet_name("../x", "a/b c"), "x-a_b_c-sheet.png");
    }
}

//! Moving the camera with the mouse: orbit (left drag), pan (middle drag, or shift + left drag), zoom (wheel),
//! read from the 3D view's own egui response, so a drag that starts on the sidebar never turns the model and
//! one that starts on the model keeps turning it over the sidebar.

use glam::Vec3;

use crate::render::Camera;
use crate::scene::{FrameBounds, Scene, UpAxis};

/// The camera angles a freshly framed model is seen from (the `render` command's defaults).
pub const DEFAULT_YAW_DEG: f32 = 20.0;
pub const DEFAULT_PITCH_DEG: f32 = 12.0;

/// Radians of orbit per point dragged.
const ORBIT_PER_POINT: f32 = 0.01;
/// Zoom: the distance shrinks by e^(this × points scrolled).
const ZOOM_PER_POINT: f32 = 0.002;
/// What the pointer asked of the camera this frame, in egui points.
#[derive(Debug, Default, Clone, Copy)]
pub struct Navigation {
    pub orbit: egui::Vec2,
    pub pan: egui::Vec2,
    /// Scroll, positive away from the user (zoom in).
    pub zoom: f32,
    /// Frame the selection, else the model as it stands (F, or the View menu): [`crate::app::App::frame_target`].
    pub frame: bool,
    /// A click (not a drag) in the view, where: picking.
    pub click: Option<egui::Pos2>,
    /// Where the pointer rests over the view (not while dragging): hover picking.
    pub hover: Option<egui::Pos2>,
}

/// Shows the central area as an empty panel that catches the pointer, and returns its rectangle (where the 3D
/// view is drawn) and what the pointer did there. Call after the sidebar and menu bar are laid out, with the
/// root `Ui` they were laid out in.
pub fn central_view(ui: &mut egui::Ui) -> (egui::Rect, Navigation) {
    egui::CentralPanel::no_frame()
        .show(ui, |ui| {
            let rect = ui.max_rect();
            let response = ui.interact(rect, ui.scope_id().with("rigscope 3d view"), egui::Sense::click_and_drag());
            let mut nav = Navigation::default();
            let shift = ui.input(|i| i.modifiers.shift);
            let delta = response.drag_delta();
            if response.dragged_by(egui::PointerButton::Middle)
                || (shift && response.dragged_by(egui::PointerButton::Primary))
            {
                nav.pan = delta;
            } else if response.dragged_by(egui::PointerButton::Primary) {
                nav.orbit = delta;
            }
            if response.contains_pointer() {
                nav.zoom = ui.input(|i| i.smooth_scroll_delta().y);
            }
            if response.clicked() {
                nav.click = response.interact_pointer_pos();
            }
            // Hover picking waits for the pointer to move: a window that opens under a resting pointer
            // (a screenshot run, a test under Xvfb) shows no tooltip over the model.
            let moved_id = ui.scope_id().with("rigscope pointer moved");
            let now = ui.input(|i| i.pointer.delta() != egui::Vec2::ZERO);
            let moved = ui.data_mut(|d| {
                let moved = d.get_temp_mut_or_default::<bool>(moved_id);
                *moved |= now;
                *moved
            });
            if !response.dragged() && moved {
                nav.hover = response.hover_pos();
            }
            (rect, nav)
        })
        .inner
}

/// The window's camera and the size of what it frames (for zoom limits and clip planes).
#[derive(Debug, Clone, Copy)]
pub struct ViewCamera {
    pub camera: Camera,
    radius: f32,
    /// The framed model's centre, world space (panning moves the target away from it).
    center: Vec3,
}

/// What framing looks at: the model's up axis and the bounds over its whole current clip. Those bounds skin
/// the mesh at up to 64 frames, so they are computed once per document and clip (until the document is rebuilt,
/// [`Framing::forget`]), not on every F press or reset.
#[derive(Debug, Default)]
pub struct Framing {
    key: Option<(u64, Option<usize>)>,
    target: Option<(UpAxis, FrameBounds)>,
}

impl Framing {
    /// The up axis and bounds to frame `scene` (of document `document`) at `clip`, whose posed bounds
    /// `clip_bounds` gives (the document's, which the ground shares); a unit box around the origin without a
    /// model.
    pub fn get(
        &mut self,
        document: u64,
        scene: Option<&Scene>,
        clip: Option<usize>,
        clip_bounds: impl FnOnce() -> Option<FrameBounds>,
    ) -> (UpAxis, FrameBounds) {
        if self.key != Some((document, clip)) {
            self.key = Some((document, clip));
            // Without geometry: the cameras' paths, else the skeleton over the clip (as `render` frames a rig or
            // an animation), in the scene's own up axis.
            let skeleton = |s: &Scene| {
                crate::render::skeleton_bounds(s, clip, crate::scene::DEFAULT_FPS, crate::render::FRAMING_SAMPLES)
            };
            self.target = scene.and_then(|s| {
                let bounds = clip_bounds().or_else(|| camera_bounds(s)).or_else(|| skeleton(s))?;
                Some((s.up, bounds))
            });
        }
        self.target
            .unwrap_or((UpAxis::Z, FrameBounds { min: Vec3::splat(-1.0), max: Vec3::ONE, xy_radius: 1.0, radius: 1.0 }))
    }

    /// Document `document` was rebuilt or closed: its bounds are computed again when next asked for.
    pub fn forget(&mut self, document: u64) {
        if self.key.is_some_and(|(d, _)| d == document) {
            self.key = None;
        }
    }
}

/// Without geometry (a motion opened alone), frame the animated cameras' paths and targets instead, in model
/// space as framing expects.
fn camera_bounds(scene: &Scene) -> Option<FrameBounds> {
    let to_model = scene.up.basis().inverse();
    let mut points = Vec::new();
    for c in &scene.cameras {
        points.extend(crate::render::camera_path(c, 64));
        points.extend(c.keys.iter().map(|k| k.target * Vec3::new(1.0, 1.0, -1.0)));
    }
    let points: Vec<Vec3> = points.iter().map(|&p| to_model.transform_point3(p)).collect();
    FrameBounds::of_points(&points)
}

impl ViewCamera {
    /// The camera that shows all of `bounds` from `yaw`/`pitch`.
    pub fn framed((up, bounds): (UpAxis, FrameBounds), yaw: f32, pitch: f32, aspect: f32) -> ViewCamera {
        let camera = Camera::framing(up, &bounds, yaw, pitch, aspect);
        ViewCamera { center: camera.target, camera, radius: (bounds.diagonal() * 0.5).max(1e-3) }
    }

    /// Framed from the default angles.
    pub fn reset(target: (UpAxis, FrameBounds), aspect: f32) -> ViewCamera {
        Self::framed(target, DEFAULT_YAW_DEG.to_radians(), DEFAULT_PITCH_DEG.to_radians(), aspect)
    }

    /// Applies a frame's orbit, pan and zoom; `view_height` is the 3D view's height in points.
    pub fn navigate(&mut self, nav: &Navigation, view_height: f32) {
        let c = &mut self.camera;
        if nav.orbit != egui::Vec2::ZERO {
            // Dragging right turns the model to the right: the camera moves the other way round it.
            c.yaw -= nav.orbit.x * ORBIT_PER_POINT;
            c.yaw = c.yaw.rem_euclid(std::f32::consts::TAU);
            let limit = 89f32.to_radians();
            c.pitch = (c.pitch + nav.orbit.y * ORBIT_PER_POINT).clamp(-limit, limit);
        }
        if nav.pan != egui::Vec2::ZERO && view_height > 0.0 {
            // The model follows the pointer: one point of drag is one point of the view at the target's depth.
            let per_point = 2.0 * c.distance * (c.fov_y * 0.5).tan() / view_height;
            let forward = -c.direction();
            let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
            let up = right.cross(forward);
            c.target += (-right * nav.pan.x + up * nav.pan.y) * per_point;
        }
        if nav.zoom != 0.0 && nav.zoom.is_finite() {
            let r = self.radius;
            c.distance = (c.distance * (-nav.zoom * ZOOM_PER_POINT).exp()).clamp(r * 0.05, r * 200.0);
        }
        // Keep the model between the clip planes wherever the camera went.
        let r = self.radius + (c.target - self.center).length();
        c.near = (c.distance - r * 1.5).max(c.distance * 0.01);
        c.far = c.distance + r * 8.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbit_keeps_pitch_short_of_the_pole_and_zoom_stays_positive() {
        let mut v = ViewCamera::reset(Framing::default().get(0, None, None, || None), 1.5);
        v.navigate(&Navigation { orbit: egui::vec2(0.0, 100_000.0), ..Default::default() }, 600.0);
        assert!(v.camera.pitch < 89.5f32.to_radians());
        for _ in 0..1000 {
            v.navigate(&Navigation { zoom: 1000.0, ..Default::default() }, 600.0);
        }
        assert!(v.camera.distance > 0.0 && v.camera.near > 0.0 && v.camera.far > v.camera.near);
    }

    #[test]
    fn panning_right_moves_the_target_left_of_the_view() {
        let mut v = ViewCamera::reset(Framing::default().get(0, None, None, || None), 1.0);
        let before = v.camera.target;
        v.navigate(&Navigation { pan: egui::vec2(10.0, 0.0), ..Default::default() }, 600.0);
        let right = (-v.camera.direction()).cross(Vec3::Y).normalize();
        assert!((v.camera.target - before).dot(right) < 0.0);
    }
}

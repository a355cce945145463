//! The 3D view of the shown document, shared by the desktop window (`src/window/`) and the web page
//! (`src/web/`): the document's model on the GPU, the reference model of Compare with…, the camera per document
//! (kept when the user switches tabs, framed when a model first shows) and the frame's input assembled from the
//! [`App`]. Each shell owns its surface, its input and its egui renderer; what the view shows is decided here
//! once, so the page and the window can't drift apart.
//!
//! `navigate.rs`: the central area as an egui panel that catches the pointer; orbit, pan, zoom and framing.

pub mod navigate;

use std::collections::{HashMap, HashSet};

use crate::app::{App, ViewChange};
use crate::render::{Camera, FrameInput, GpuModel, PixelRect, Renderer, ViewState};
use crate::textures::TextureSet;
pub use navigate::{Framing, Navigation, ViewCamera};

/// The background behind the model (the `render` command's default).
pub const BACKGROUND: crate::render::Background = crate::render::Background::Color([0x30, 0x34, 0x3c]);

/// A file name for a screenshot of `model` at `clip`/`frame`, e.g. `mrfixit-idle-f012.png`: only letters,
/// digits, `-`, `_` and `.` survive from names that come from files.
pub fn screenshot_name(model: &str, clip: Option<(&str, f32)>) -> String {
    let clean = |s: &str| -> String {
        let s: String =
            s.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
        let s = s.trim_matches(['.', '_']).to_string();
        if s.is_empty() { "model".to_string() } else { s }
    };
    match clip {
        Some((name, frame)) => {
            let frame = if frame.is_finite() { frame.max(0.0).floor() as u32 } else { 0 };
            format!("{}-{}-f{frame:03}.png", clean(model), clean(name))
        }
        None => format!("{}-bind.png", clean(model)),
    }
}

/// `rect` (points) in physical pixels, inside a target of `size` (the whole target for an empty rect).
pub fn pixel_rect(rect: egui::Rect, pixels_per_point: f32, (width, height): (u32, u32)) -> PixelRect {
    if !rect.is_positive() || !rect.is_finite() {
        return PixelRect { x: 0, y: 0, width, height };
    }
    let px = |v: f32, max: u32| ((v * pixels_per_point).round().max(0.0) as u32).min(max);
    let (x0, y0) = (px(rect.min.x, width), px(rect.min.y, height));
    let (x1, y1) = (px(rect.max.x, width), px(rect.max.y, height));
    PixelRect { x: x0, y: y0, width: x1.saturating_sub(x0), height: y1.saturating_sub(y0) }
}

/// What the 3D view shows and from where.
pub struct Stage {
    /// The shown document's model on the GPU, with the document's id.
    pub model: Option<(u64, GpuModel)>,
    /// The stamp of the reference model uploaded into the view (Compare with…).
    reference: Option<u64>,
    pub view: ViewState,
    /// The camera of document `document` (0: none open).
    pub camera: ViewCamera,
    document: Option<u64>,
    /// The cameras of documents in other tabs, by id.
    cameras: HashMap<u64, ViewCamera>,
    /// Documents the app asked to frame ([`ViewChange::Frame`]), framed when next shown.
    to_frame: HashSet<u64>,
    framing: Framing,
}

/// What [`Stage::sync`] changed that the shell may want to show (a window title, a watcher's files).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Synced {
    /// Another document's model went up to the GPU (or none is shown now).
    pub uploaded: bool,
    /// Another document is shown, or the shown one was framed anew: its name may have changed.
    pub retitled: bool,
}

impl Stage {
    /// An empty view whose camera looks at a unit box from the default angles.
    pub fn new(renderer: &Renderer, aspect: f32) -> Stage {
        let mut framing = Framing::default();
        let camera = ViewCamera::reset(framing.get(0, None, None, || None), aspect);
        Stage {
            model: None,
            reference: None,
            view: ViewState::new(renderer),
            camera,
            document: None,
            cameras: HashMap::new(),
            to_frame: HashSet::new(),
            framing,
        }
    }

    /// Brings the GPU model and the camera in line with the documents: what the app says changed, then the
    /// shown document's model uploaded and its camera (as it was left, or framed) in place. `aspect` is the
    /// view's width over height.
    pub fn sync(&mut self, app: &mut App, renderer: &Renderer, aspect: f32) -> Synced {
        let mut synced = Synced::default();
        for change in app.take_view_changes() {
            match change {
                ViewChange::Rebuilt { document, geometry } => {
                    self.framing.forget(document);
                    if geometry && self.model.as_ref().is_some_and(|(id, _)| *id == document) {
                        self.model = None;
                    }
                }
                ViewChange::Frame(document) => {
                    self.to_frame.insert(document);
                }
                ViewChange::Closed(document) => {
                    self.cameras.remove(&document);
                    self.to_frame.remove(&document);
                    self.framing.forget(document);
                    if self.model.as_ref().is_some_and(|(id, _)| *id == document) {
                        self.model = None;
                    }
                }
            }
        }
        let shown = app.document_id();
        if self.model.as_ref().map(|(id, _)| *id) != Some(shown) {
            self.upload_model(app, renderer);
            synced.uploaded = true;
            synced.retitled = true;
        }
        let clip = app.current_clip_frame().map(|(c, _)| c);
        let frame_now = self.to_frame.remove(&shown);
        if self.document != Some(shown) {
            // Another tab: its own camera as it was left, or framed when first shown.
            if let Some(old) = self.document.replace(shown) {
                self.cameras.insert(old, self.camera);
            }
            let kept = self.cameras.remove(&shown).filter(|_| !frame_now);
            self.camera = kept.unwrap_or_else(|| {
                let target = self.framing.get(shown, app.scene(), clip, || app.clip_bounds(clip));
                let c = &self.camera.camera;
                ViewCamera::framed(target, c.yaw, c.pitch, aspect)
            });
            synced.retitled = true;
        } else if frame_now {
            // A model opened in place of the demo, or new clips attached: framed from the current angles. A
            // reload keeps the camera where it is.
            let target = self.framing.get(shown, app.scene(), clip, || app.clip_bounds(clip));
            let c = &self.camera.camera;
            self.camera = ViewCamera::framed(target, c.yaw, c.pitch, aspect);
            synced.retitled = true;
        }
        synced
    }

    /// Uploads the shown document's model with the textures the document found (or drops the old one). The
    /// camera is left as it is: a reloaded model keeps it.
    fn upload_model(&mut self, app: &mut App, renderer: &Renderer) {
        app.load_textures();
        self.model = app.document().map(|d| {
            let model = match d.textures() {
                Some(textures) => GpuModel::upload_textures(renderer, d.scene(), textures),
                // Opened from memory with no folder: nothing to look in, every texture is the placeholder.
                None => GpuModel::upload_textures(renderer, d.scene(), &TextureSet::load(d.scene(), None)),
            };
            (d.id(), model)
        });
    }

    /// The up axis and bounds framing looks at for the shown document's current clip.
    pub fn target(&mut self, app: &App) -> (crate::scene::UpAxis, crate::scene::FrameBounds) {
        let clip = app.current_clip_frame().map(|(c, _)| c);
        self.framing.get(app.document_id(), app.scene(), clip, || app.clip_bounds(clip))
    }

    /// The user's camera moves this frame: the axis gizmo's angles (degrees), reset, frame (F) and navigation;
    /// `view_height` is the view's height in points.
    pub fn aim(
        &mut self,
        app: &App,
        snap: Option<(i16, i16)>,
        reset: bool,
        nav: &Navigation,
        aspect: f32,
        view_height: f32,
    ) {
        if let Some((yaw, pitch)) = snap {
            let target = self.target(app);
            let (yaw, pitch) = (f32::from(yaw).to_radians(), f32::from(pitch).to_radians());
            self.camera = ViewCamera::framed(target, yaw.rem_euclid(std::f32::consts::TAU), pitch, aspect);
        }
        if reset || nav.frame {
            // Reset frames the clip, as opening does; F frames the selection or the pose shown.
            let target = if reset { self.target(app) } else { app.frame_target().unwrap_or_else(|| self.target(app)) };
            let c = &self.camera.camera;
            self.camera = if reset {
                ViewCamera::reset(target, aspect)
            } else {
                ViewCamera::framed(target, c.yaw, c.pitch, aspect)
            };
        }
        self.camera.navigate(nav, view_height);
    }

    /// The model-to-clip matrix of the view for the app's labels and hover picking (none without a model).
    pub fn view_projection(&self, app: &App) -> Option<glam::Mat4> {
        let camera = &self.camera.camera;
        app.view_rect()
            .filter(|_| self.model.is_some())
            .map(|r| camera.view_proj(r.aspect_ratio()) * camera.model_matrix())
    }

    /// Prepares this frame's drawing at `size` pixels: the reference model uploaded once per reference, the
    /// camera (the followed animated camera in place of the orbit camera while following), the pose, overlays,
    /// light and self-shadow. Returns whether there is a model to paint.
    pub fn prepare(&mut self, app: &App, renderer: &Renderer, size: (u32, u32)) -> bool {
        let stamp = app.reference().map(|(stamp, ..)| stamp);
        if stamp != self.reference {
            // With its textures, for the view that shows it side by side (the ghost is a flat tint).
            let model = app
                .reference()
                .map(|(_, scene, dir)| GpuModel::upload_textures(renderer, scene, &TextureSet::load(scene, dir)));
            self.view.set_reference(renderer, model);
            self.reference = stamp;
        }
        let Some((_, model)) = &self.model else { return false };
        let overlays = app.overlays();
        // Following an animated camera replaces the orbit camera for this frame (navigation resumes from where
        // the orbit camera was when following stops).
        let followed = app.follow_camera().then(|| {
            let clip = app.current_clip_frame().map(|(c, _)| c);
            let (up, bounds) = self.framing.get(app.document_id(), app.scene(), clip, || app.clip_bounds(clip));
            let radius = bounds.diagonal() * 0.5 + bounds.min.abs().max(bounds.max.abs()).length();
            Camera::following(app.camera_track()?, app.clip_time(), up, radius)
        });
        let camera = followed.flatten().unwrap_or(self.camera.camera);
        let (camera, pose, time) = (&camera, app.pose(), app.surface_time());
        let reference = app.reference_pose();
        let (light, self_shadow) = (app.light(), app.self_shadow());
        let reference_pose = reference.as_deref();
        let input = FrameInput { camera, pose, overlays: &overlays, time, reference_pose, light, self_shadow };
        self.view.prepare(renderer, model, &input, size);
        true
    }

    /// The model and view state to paint, when there is a model.
    pub fn scene(&self) -> Option<(&GpuModel, &ViewState)> {
        self.model.as_ref().map(|(_, m)| (m, &self.view))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screenshot_names_are_safe_file_names() {
        assert_eq!(screenshot_name("mrfixit", Some(("idle", 12.7))), "mrfixit-idle-f012.png");
        assert_eq!(screenshot_name("../x", Some(("a/b c", 0.0))), "x-a_b_c-f000.png");
        assert_eq!(screenshot_name("", None), "model-bind.png");
    }

    #[test]
    fn the_view_rect_is_clamped_to_the_target_in_pixels() {
        let r =
            pixel_rect(egui::Rect::from_min_max(egui::pos2(200.0, 20.0), egui::pos2(700.0, 500.0)), 2.0, (1280, 800));
        assert_eq!(r, PixelRect { x: 400, y: 40, width: 880, height: 760 });
        assert_eq!(pixel_rect(egui::Rect::NOTHING, 1.0, (10, 20)), PixelRect { x: 0, y: 0, width: 10, height: 20 });
    }
}

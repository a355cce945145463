//! The application: the open documents (one per tab), the view switches, notices and settings, and the egui UI
//! that shows and changes them. No GPU here: the window (`src/window/`) owns the renderer, reads
//! [`App::scene`], [`App::pose`] and [`App::overlays`] each frame, learns what changed from
//! [`App::take_view_changes`], and performs the [`Intent`]s that [`App::ui`] returns.
//!
//! Each open model is a [`Document`] with everything that belongs to it (its files, the model, playback, pose,
//! selection, findings, reload state). Each Outliner and Inspector section is its own file with a `ui` function that borrows
//! the shown document and returns [`Action`]s; [`App`] applies them in one place, so the pose is recomputed only
//! when time, clip or model change.

mod actions;
mod apply;
mod document;
pub mod filter;
pub mod fonts;
mod notices;
mod open;
mod panels;
mod pick;
mod reload;
mod sections;
mod selection;
pub mod settings;
pub mod shortcuts;

use document::{model, player};
use panels::{gizmo, help, labels, menu, palette, panes, start, status, tabs, timeline};
pub use sections::bone_facts;
use sections::{bounds, files, physics, picked, toggles};

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use crate::anim::{Pose, onion_ghosts};
use crate::render::Overlays;
use crate::scene::{DEFAULT_FPS, Scene};

use notices::Notices;
use pick::HoverKey;

pub use actions::{Action, CurveTarget, Intent, ViewChange};
pub use document::Document;
pub use document::Source as ModelSource;
pub use gizmo::{gizmo_ends, snap};
pub use labels::project_to_view;
pub use model::{Attachment, Model};
pub use notices::{Notice, NoticeKind};
pub use panels::inspector::Tab as InspectorTab;
pub use panels::outliner::Tab as OutlinerTab;
pub use player::Player;
pub use settings::Settings;
pub use toggles::{Toggle, ViewToggles};

pub use crate::anim::{BOUNDS_TOLERANCE, MAX_ONION_FRAMES};
pub use open::open_order;

/// Eye positions sampled for the camera-path overlay.
const CAMERA_PATH_SAMPLES: usize = 256;

/// Something that went wrong: a file that couldn't be opened or attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    /// The file it concerns, as the user named it.
    pub file: Option<String>,
}

/// The window's parts that aren't a document's: overlays over the view and what the last frame left.
#[derive(Debug, Default)]
struct Chrome {
    /// The keyboard help overlay is shown.
    help: bool,
    /// The start screen may show (the window turns it on; opening a file or dismissing it turns it off).
    start: bool,
    /// The attachment whose name-matching report is open.
    report_open: Option<usize>,
    /// Text for the clipboard ([`Action::CopyPose`]), handed to egui by the next [`App::show`].
    pending_copy: Option<String>,
    /// Whether the bounds section was open when last drawn.
    bounds_open: bool,
    /// The model's 3D view, as of the last `ui` call: the part of the window the panels leave, or its left half
    /// with Compare side by side.
    view_rect: Option<egui::Rect>,
    /// With Compare side by side, the reference's view: the right half.
    reference_rect: Option<egui::Rect>,
    /// Model space to clip space for the 3D view's rect, set by the window each frame (joint-name labels).
    view_projection: Option<glam::Mat4>,
    /// Seconds MToon's scrolling textures have run with no clip shown (their own clock, as three-vrm's).
    scroll_clock: f32,
    /// The intents of the current frame's passes so far (see [`App::ui`]).
    frame_intents: Vec<Intent>,
    /// Why Japanese names draw as boxes (no CJK font was added), for the sections that show MMD names.
    cjk_font_missing: Option<String>,
    /// A recording under way (the window's, [`App::set_recording`]): its file name, frames done and in all.
    recording: Option<(String, usize, usize)>,
    /// The Outliner's filters and folded rows.
    outliner: panels::outliner::Outliner,
    /// The command palette (Ctrl+K).
    palette: palette::Palette,
    /// The timeline's zoom per clip, its frame unit and a drag under way.
    timeline: timeline::Timeline,
    /// What the last click in the view hit ([`App::pick_at`]), with the document it was picked in.
    picked: Option<(u64, crate::anim::Picked)>,
    /// Where the pointer rests over the view and what lies there ([`App::hover_at`]).
    hovered: Option<(egui::Pos2, crate::anim::Picked)>,
    /// What `hovered` was picked for: pointer, document, pose and view; a pick runs again only when one changes.
    hover_key: Option<HoverKey>,
    /// Over a large model: where the pointer came to rest, and since when ([`HOVER_REST`]).
    hover_wait: Option<(HoverKey, web_time::Instant)>,
}

/// What the viewer remembers besides the toggles (the playback speed is the idle player's).
#[derive(Debug)]
struct Prefs {
    /// Reload files when they change on disk.
    watch: bool,
    /// Start the clip shown playing when a file opens or attaches ([`Settings::play_on_open`]).
    play_on_open: bool,
    /// Recent files, most recent first, absolute; see [`settings::push_recent`].
    recent: Vec<PathBuf>,
    /// MMD physics: gravity, fixed step, warm-up.
    physics: crate::physics::PhysicsSettings,
}

/// Counters for observers (tests): each bumps when that kind of change happens to the shown model.
#[derive(Debug, Default, Clone, Copy)]
struct Revisions {
    /// Any change of the shown model or its attachments (clips included), or another model shown.
    model: u64,
    /// The shown model's GPU data changed (its file, another model shown).
    geometry: u64,
    /// A model was opened or a file attached: the camera frames it.
    framing: u64,
}

/// The viewer's whole state. See the module docs.
pub struct App {
    /// Open models in tab order.
    documents: Vec<Document>,
    /// The shown document's index (meaningless while none is open).
    active: usize,
    next_id: u64,
    /// The player new documents start from, and the one [`App::player`] shows while none is open: it carries
    /// the playback speed, a setting.
    idle: Player,
    toggles: ViewToggles,
    prefs: Prefs,
    notices: Notices,
    chrome: Chrome,
    /// What the window hasn't been told yet.
    changes: Vec<ViewChange>,
    revisions: Revisions,
}

impl Default for App {
    fn default() -> Self {
        App::new()
    }
}

/// The pose [`App::pose`] shows while no model is open.
static NO_POSE: LazyLock<Pose> = LazyLock::new(Pose::default);

impl App {
    /// An empty app; the window then opens files or the demo.
    pub fn new() -> App {
        App {
            documents: Vec::new(),
            active: 0,
            next_id: 1,
            idle: Player::default(),
            toggles: ViewToggles::default(),
            prefs: Prefs {
                watch: true,
                play_on_open: true,
                recent: Vec::new(),
                physics: crate::physics::PhysicsSettings::default(),
            },
            notices: Notices::default(),
            chrome: Chrome::default(),
            changes: Vec::new(),
            revisions: Revisions::default(),
        }
    }

    /// Shows these tabs of the Outliner and the Inspector from the next pass of `ctx` on (as clicking them does;
    /// benchmarks and tests start from a given layout).
    pub fn show_tabs(ctx: &egui::Context, outliner: OutlinerTab, inspector: InspectorTab) {
        panels::outliner::show_tab(ctx, outliner);
        panels::inspector::show_tab(ctx, inspector);
    }

    /// Shows the timeline's Curves tab (`true`) or its Keys tab, as a click on it would.
    pub fn show_timeline_tab(ctx: &egui::Context, curves: bool) {
        timeline::show_tab(ctx, curves);
    }

    /// The shown document's reference (Compare with…): a stamp unique to it and its scene, in the model's axes.
    pub fn reference(&self) -> Option<(u64, &Scene, Option<&Path>)> {
        let r = self.document()?.reference.as_deref()?;
        Some((r.stamp, &r.scene, r.texture_dir.as_deref()))
    }

    /// The reference posed as the model is shown ([`Document::reference_pose`]).
    pub fn reference_pose(&self) -> Option<std::cell::Ref<'_, crate::anim::Pose>> {
        self.document()?.reference_pose()
    }

    /// Puts the current pose as JSON, what `rigscope pose` prints for the model, clip and frame shown (the
    /// model's name as the file), on the clipboard at the next [`App::show`]. Nothing without a model.
    fn copy_pose(&mut self) {
        let Some(doc) = self.document() else { return };
        let options = crate::report::PoseOptions::default();
        match crate::report::pose_json(doc.scene(), &doc.model.name, doc.current_clip_frame(), &options) {
            Ok(json) => {
                let joints = doc.joint_count_for_pose();
                self.notices.push(Notice::info(format!("Pose copied ({joints} joints)")));
                self.chrome.pending_copy = Some(json);
            }
            Err(e) => self.notices.push(Notice::error(format!("cannot copy the pose: {e}"))),
        }
    }

    /// Text waiting to go to the clipboard at the next [`App::show`] (after [`Action::CopyPose`]).
    pub fn pending_copy(&self) -> Option<&str> {
        self.chrome.pending_copy.as_deref()
    }

    /// Takes the remembered toggles, playback speed, hot-reload switch and recent files.
    pub fn apply_settings(&mut self, settings: &Settings) {
        let follow = self.toggles.follow_camera;
        self.toggles = settings.toggles.clone();
        self.toggles.follow_camera = follow;
        self.toggles.clamp_counts();
        self.set_speed(settings::clamp_speed(settings.speed));
        self.prefs.watch = settings.watch;
        self.prefs.play_on_open = settings.play_on_open;
        self.prefs.physics = settings.physics.sanitized();
        self.prefs.recent.clear();
        for p in settings.recent.iter().rev() {
            settings::push_recent(&mut self.prefs.recent, p);
        }
    }

    /// The physics settings when the view simulates MMD physics (`None`: off).
    pub fn physics_settings(&self) -> Option<crate::physics::PhysicsSettings> {
        self.toggles.physics.then_some(self.prefs.physics)
    }

    /// What the app remembers, as settings (no window size or egui memory: the window adds those).
    pub fn settings(&self) -> Settings {
        let mut toggles = self.toggles.clone();
        toggles.follow_camera = false;
        Settings {
            toggles,
            speed: self.player().speed,
            watch: self.prefs.watch,
            play_on_open: self.prefs.play_on_open,
            recent: self.prefs.recent.clone(),
            physics: self.prefs.physics,
            ..Settings::default()
        }
    }

    /// The playback speed, for every open model and the ones opened later.
    fn set_speed(&mut self, speed: f32) {
        self.idle.speed = speed;
        for d in &mut self.documents {
            d.player.speed = speed;
        }
    }

    /// Shows a notice of the window's own (a settings file that couldn't be read, a screenshot saved).
    pub fn add_notice(&mut self, notice: Notice) {
        self.notices.push(notice);
    }

    /// Recent files, most recent first.
    pub fn recent_files(&self) -> &[PathBuf] {
        &self.prefs.recent
    }

    /// Hot reload is on.
    pub fn watch(&self) -> bool {
        self.prefs.watch
    }

    /// Adds a CJK font found on the machine to `ctx` ([`fonts::install_cjk_font`]), so MMD names draw; when
    /// none could be added, the Morphs tab says why.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn install_cjk_font(&mut self, ctx: &egui::Context) -> Option<PathBuf> {
        match fonts::install_cjk_font(ctx) {
            Ok(path) => {
                self.chrome.cjk_font_missing = None;
                Some(path)
            }
            Err(e) => {
                self.chrome.cjk_font_missing = Some(e);
                None
            }
        }
    }

    /// The web page's CJK font (fetched beside the page), added as [`App::install_cjk_font`] adds an installed
    /// one; `Err` (kept for the Morphs tab) when it isn't a font.
    pub fn install_cjk_font_bytes(&mut self, ctx: &egui::Context, bytes: Vec<u8>) {
        self.chrome.cjk_font_missing =
            fonts::add_font_bytes(ctx, bytes, "cjk fallback").err().map(|e| format!("the page's CJK font: {e}"));
    }

    /// The web page found no CJK font beside it: the Morphs tab says so.
    pub fn set_cjk_font_missing(&mut self, why: String) {
        self.chrome.cjk_font_missing = Some(why);
    }

    /// Lets the start screen show (the window does at start): it shows while no model is open or the model was
    /// opened from memory (the built-in demo), until a file is opened or it is dismissed.
    pub fn set_start_screen(&mut self, on: bool) {
        self.chrome.start = on;
    }

    /// The start screen is drawn.
    pub fn start_screen_shown(&self) -> bool {
        self.chrome.start && self.document().is_none_or(|d| d.dir().is_none())
    }

    /// The keyboard help overlay is drawn.
    pub fn help_shown(&self) -> bool {
        self.chrome.help
    }

    /// What `rigscope check` found in the shown model and its attachments.
    pub fn findings(&self) -> &[crate::check::Finding] {
        self.document().map_or(&[], |d| &d.findings)
    }

    /// Advances playback by `dt_seconds`; true while animating (the window keeps redrawing), false when paused
    /// or without a clip. Without a clip, a model whose textures scroll (MToon) advances their clock and animates.
    pub fn update(&mut self, dt_seconds: f32) -> bool {
        let Some(doc) = self.documents.get_mut(self.active) else { return false };
        let Some(clip) = doc.current_clip().map(model::ClipMeta::clone_meta) else {
            // No clip to play: scrolling textures (MToon's UV animation) run on their own clock.
            let scrolls = doc.scene().materials.iter().any(|m| m.toon_shading.is_some_and(|t| t.scrolls()));
            if scrolls && dt_seconds.is_finite() {
                self.chrome.scroll_clock += dt_seconds;
            }
            return scrolls;
        };
        if !doc.player.playing {
            return false;
        }
        doc.player.advance(&clip, dt_seconds);
        self.refresh();
        true
    }

    /// Draws the menu bar, notices, Outliner, Inspector, timeline and status line on the context's root
    /// [`egui::Ui`] and handles the keyboard shortcuts; returns what only the window can do. Call it inside
    /// `Context::run_pass` (or between `begin_pass` and `end_pass`), not inside `run_ui`, which already holds the
    /// root `Ui`: there use [`App::show`].
    ///
    /// egui may run a second pass in one frame (a discarded first pass), which gets no input; so this returns
    /// the intents of every pass of the current frame so far, and the last pass's answer is the frame's:
    /// `ctx.run_pass(input, |ctx| intents = app.ui(ctx))`.
    pub fn ui(&mut self, ctx: &egui::Context) -> Vec<Intent> {
        if ctx.current_pass_index() == 0 {
            self.chrome.frame_intents.clear();
        }
        let new = ctx.root_ui(|ui| self.show(ui));
        self.chrome.frame_intents.extend(new);
        self.chrome.frame_intents.clone()
    }

    /// As [`App::ui`], into a given `Ui` (the panels take its edges; the rest is the 3D view, see
    /// [`App::view_rect`]), returning only this pass's intents.
    pub fn show(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let has_clip = self.current_clip_frame().is_some();
        let mut actions = menu::shortcuts(ui.ctx(), has_clip, self.player().speed, self.chrome.help);
        self.apply_all(&mut actions);
        let follow = self.camera_track().map(|_| self.toggles.follow_camera);
        let menu_state = menu::MenuState { follow, toggles: &self.toggles, recent: &mut self.prefs.recent };
        actions.extend(menu::bar(ui, menu_state));
        self.apply_all(&mut actions);
        // Issue 8 §5: the start screen and the keyboard help, over the view.
        if self.start_screen_shown() {
            let demo = self.document().is_some();
            let places = (self.prefs.recent.as_slice(), self.chrome.view_rect);
            start::screen(ui.ctx(), places, demo, &mut self.chrome.start, &mut actions);
        }
        help::overlay(ui.ctx(), self.chrome.help, &mut actions);
        self.apply_all(&mut actions);
        let (names, active) = self.tabs();
        actions.extend(tabs::strip(ui, &names, active));
        self.apply_all(&mut actions);
        if let Some(left) = self.notices.expire(web_time::Instant::now()) {
            ui.ctx().request_repaint_after(left);
        }
        actions.extend(notices::banner(ui, &self.notices.list));
        notices::toasts(ui.ctx(), &self.notices.list);
        self.apply_all(&mut actions);
        let speed = self.player().speed;
        palette::show(ui.ctx(), &mut self.chrome.palette, speed, &mut actions);
        self.apply_all(&mut actions);
        // The edges first (status line, then timeline at the bottom; Outliner left; Inspector right), the 3D
        // view in what they leave.
        let status = status::Status {
            file: self.document().map(|d| d.model.name.as_str()),
            clip: self.document().and_then(|d| {
                let (c, frame) = d.current_clip_frame()?;
                let clip = d.scene().clips.get(c)?;
                Some((clip.name.as_str(), frame, clip.frame_span()))
            }),
            problems: self.problem_count(),
        };
        status::line(ui, status, &mut actions);
        self.apply_all(&mut actions);
        if self.toggles.timeline {
            let doc = self.documents.get(self.active);
            actions.extend(timeline::panel(ui, doc, &mut self.chrome.timeline, &self.toggles));
            self.apply_all(&mut actions);
        }
        if self.toggles.outliner {
            egui::Panel::left("rigscope outliner")
                .resizable(true)
                .default_size(300.0)
                .size_range(180.0..=800.0)
                .show(ui, |ui| self.outliner(ui, &mut actions));
            self.apply_all(&mut actions);
        }
        if self.toggles.inspector {
            egui::Panel::right("rigscope inspector")
                .resizable(true)
                .default_size(320.0)
                .size_range(200.0..=800.0)
                .show(ui, |ui| self.inspector(ui, &mut actions));
            self.apply_all(&mut actions);
        } else {
            self.chrome.bounds_open = false;
        }
        if let (Some(doc), Some(i)) = (self.document(), self.chrome.report_open) {
            files::report_window(ui.ctx(), &doc.model, i, &mut actions);
        }
        self.apply_all(&mut actions);
        let area = ui.available_rect_before_wrap();
        let (view, beside) = panes::split(area, self.side_by_side());
        (self.chrome.view_rect, self.chrome.reference_rect) = (Some(view), beside);
        if let (Some(doc), Some(beside)) = (self.document(), beside) {
            let theirs = doc.reference.as_deref().map_or("", |r| r.name.as_str());
            let ours =
                Path::new(&doc.model.name).file_name().map_or(doc.model.name.as_str(), |n| n.to_str().unwrap_or(""));
            panes::paint(ui, (view, beside), (ours, theirs));
        }
        self.refresh();
        if let Some(text) = self.chrome.pending_copy.take() {
            ui.ctx().copy_text(text);
        }
        if self.toggles.joint_names
            && let (Some(doc), Some(rect), Some(to_clip)) =
                (self.document(), self.chrome.view_rect, self.chrome.view_projection)
        {
            let names: Vec<&str> = doc.scene().skeleton.joints.iter().map(|j| j.name.as_str()).collect();
            labels::paint(ui, rect, to_clip, &names, &doc.pose().world, doc.selection.joint);
        }
        if let Some((name, done, total)) = &self.chrome.recording {
            egui::Window::new("Recording").collapsible(false).resizable(false).show(ui.ctx(), |ui| {
                ui.label(format!("Recording {name}: frame {done} of {total}"));
                ui.add(egui::ProgressBar::new(*done as f32 / (*total).max(1) as f32).show_percentage());
                if ui.button("Cancel").clicked() {
                    actions.push(Action::Window(Intent::CancelRecording));
                }
            });
        }
        if let (Some(doc), Some(rect)) = (self.document(), self.chrome.view_rect) {
            if let Some(to_clip) = self.chrome.view_projection {
                gizmo::paint(ui, rect, to_clip, doc.scene().up, &mut actions);
            }
            if let Some(text) = self.frame_text() {
                gizmo::paint_frame(ui, rect, &text);
            }
            if let Some((at, h)) = self.hovered() {
                picked::paint_hover(ui, rect, at, h);
            }
        }
        actions
            .into_iter()
            .filter_map(|a| match a {
                Action::Window(i) => Some(i),
                _ => None,
            })
            .collect()
    }

    /// Recomputes the shown document's pose (and its skinned bounds, when wanted) if time, clip or model changed.
    fn refresh(&mut self) {
        let want_bounds = self.chrome.bounds_open || self.toggles.computed_bounds;
        let bind_pose = self.toggles.bind_pose;
        let physics = self.toggles.physics.then_some(self.prefs.physics);
        let look_at = self.eye_in_model().filter(|_| self.toggles.eyes_follow_camera);
        if let Some(doc) = self.documents.get_mut(self.active) {
            doc.refresh(bind_pose, want_bounds, physics, look_at);
        }
    }

    /// Where the view's camera stands in the model's space (from the last [`App::set_view_projection`]);
    /// `None` before a view was drawn.
    fn eye_in_model(&self) -> Option<glam::Vec3> {
        let to_clip = self.chrome.view_projection?;
        // The eye is the point the projection sends to w = 0 on the view axis.
        let eye = to_clip.inverse() * glam::Vec4::new(0.0, 0.0, 1.0, 0.0);
        (eye.w.abs() > 1e-12).then(|| eye.truncate() / eye.w).filter(|p| p.is_finite())
    }

    /// The shown document.
    pub fn document(&self) -> Option<&Document> {
        self.documents.get(self.active)
    }

    /// The open documents in tab order.
    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// What changed since the last call, in order (the window calls this once a frame).
    pub fn take_view_changes(&mut self) -> Vec<ViewChange> {
        std::mem::take(&mut self.changes)
    }

    pub fn scene(&self) -> Option<&Scene> {
        self.document().map(Document::scene)
    }

    /// The open model with its name, folder and attachments.
    pub fn model(&self) -> Option<&Model> {
        self.document().map(Document::model)
    }

    /// The current pose (the bind pose without a clip).
    pub fn pose(&self) -> &Pose {
        self.document().map_or(&NO_POSE, Document::pose)
    }

    /// The shown document's posed bounds over clip `clip` (`None`: the bind pose), computed once per clip
    /// ([`Document::clip_bounds`]).
    pub fn clip_bounds(&self, clip: Option<usize>) -> Option<crate::scene::FrameBounds> {
        self.document()?.clip_bounds(clip)
    }

    /// The clip shown and the (fractional) frame within it.
    pub fn current_clip_frame(&self) -> Option<(usize, f32)> {
        self.document()?.current_clip_frame()
    }

    pub fn player(&self) -> &Player {
        self.document().map_or(&self.idle, Document::player)
    }

    /// Which of [`App::overlays`] belong to one frame and are on, for pictures of other frames (contact
    /// sheets, recordings).
    pub fn frame_overlays(&self) -> crate::render::FrameOverlays {
        let t = &self.toggles;
        crate::render::FrameOverlays {
            stored_bounds: t.stored_bounds,
            computed_bounds: t.computed_bounds,
            onion: t.onion.then_some(self.onion_spacing()),
            trails: self.document().filter(|_| t.trail).map(|d| (d.trail_joints(), t.trail_frames)),
        }
    }

    /// The onion skin's ghosts and their step, as the toggles set them.
    fn onion_spacing(&self) -> crate::anim::OnionSpacing {
        crate::anim::OnionSpacing { ghosts: self.toggles.onion_frames, step: self.toggles.onion_step }
    }

    /// What the renderer should draw besides the mesh, from the view toggles.
    pub fn overlays(&self) -> Overlays {
        let t = &self.toggles;
        let doc = self.document();
        let frame = doc.and_then(Document::current_clip_frame);
        let stored = doc.zip(frame).and_then(|(d, (c, f))| bounds::stored_at(d.scene(), c, f));
        let camera = self.camera_track().filter(|_| t.camera_path && !t.follow_camera);
        Overlays {
            mesh: t.mesh,
            cull_back_faces: t.cull_back_faces,
            grid: t.grid,
            marker: self.picked().map(|p| glam::Vec3::from_array(p.position)),
            ground: if t.grid_at_origin { None } else { doc.and_then(|d| d.ground(t.bind_pose)) },
            skeleton: t.skeleton,
            ik_chains: t.ik_chains,
            outline: t.outline,
            selected_joint: self.selected_joint(),
            selected_group: doc.and_then(|d| d.selection.group.as_ref()).map_or_else(Vec::new, |(_, g)| g.to_vec()),
            highlight_joint: if t.highlight_selected { self.selected_joint() } else { None },
            wireframe: t.wireframe,
            stored_bounds: if t.stored_bounds { stored } else { None },
            computed_bounds: if t.computed_bounds { doc.and_then(Document::computed_bounds) } else { None },
            hidden_meshes: doc.map_or_else(Vec::new, |d| d.hidden_meshes.clone()),
            boxes: match (doc, t.boxes) {
                (Some(d), true) => d.scene().marked_boxes(),
                _ => Vec::new(),
            },
            camera_path: camera.map_or_else(Vec::new, |c| crate::render::camera_path(c, CAMERA_PATH_SAMPLES)),
            camera_frustum: camera.map_or_else(Vec::new, |c| {
                let aspect = self.chrome.view_rect.map_or(16.0 / 9.0, |r| r.aspect_ratio());
                crate::render::camera_frustum(c, self.clip_time(), aspect)
            }),
            weights: t.weights,
            uv_checker: t.uv_checker,
            normals: t.normals,
            tangents: t.tangents,
            joint_axes: t.joint_axes,
            light: t.light_arrow,
            ground_shadow: t.ground_shadow,
            self_shadow: t.self_shadow,
            view_self_shadow: t.view_self_shadow,
            linear_skinning: t.linear_skinning,
            reference_bones: doc
                .and_then(|d| {
                    let r = d.reference.as_deref()?;
                    Some(r.bones(&*d.reference_pose()?))
                })
                .unwrap_or_default(),
            reference_beside: self.side_by_side(),
            reference_joint: doc.and_then(|d| d.reference.as_deref()?.counterpart(d.selection.joint?)),
            shapes: match doc {
                Some(d) if t.rigid_bodies => physics::shapes(d),
                _ => Vec::new(),
            },
            ghosts: match (doc, frame) {
                (Some(d), Some((c, f))) if t.onion => {
                    let scene = d.scene();
                    onion_ghosts(&scene.skeleton, &scene.clips[c], f, self.onion_spacing(), DEFAULT_FPS)
                }
                _ => Vec::new(),
            },
            trails: match (doc, frame) {
                (Some(d), Some((c, f))) if t.trail => d.trails(c, f, t.trail_frames),
                _ => Vec::new(),
            },
        }
    }

    /// The clip's frame and time as the view's corner shows them (`None` without a clip shown).
    pub fn frame_text(&self) -> Option<String> {
        let doc = self.document()?;
        let clip = doc.current_clip()?;
        let frame = doc.player().frame(clip);
        let last = clip.frame_count.saturating_sub(1);
        Some(format!("frame {frame:.2} / {last}  {:.3} s", frame / clip.fps(DEFAULT_FPS)))
    }

    /// What the window's recording has done: (file name, frames done, frames in all), `None` when none runs.
    pub fn set_recording(&mut self, progress: Option<(String, usize, usize)>) {
        self.chrome.recording = progress;
    }

    /// The animated camera that plays with the current clip (by clip name), else the first with keys.
    pub fn camera_track(&self) -> Option<&crate::scene::CameraTrack> {
        self.document()?.camera_track()
    }

    /// True while the view follows the animated camera ([`App::camera_track`] at [`App::clip_time`]).
    pub fn follow_camera(&self) -> bool {
        self.toggles.follow_camera && self.camera_track().is_some()
    }

    /// Whether attached delta motions are converted from MMD axes.
    pub fn mmd_axes(&self) -> bool {
        self.document().is_some_and(|d| d.mmd_axes)
    }

    /// What the curve view plots.
    pub fn curve(&self) -> Option<CurveTarget> {
        self.document()?.selection.curve
    }

    /// Seconds into the clip shown (0 without one), where animated UVs are evaluated.
    pub fn clip_time(&self) -> f32 {
        self.document().map_or(0.0, Document::clip_time)
    }

    /// The time the view's materials are drawn at: the clip's when one is shown, else the seconds the scrolling
    /// textures have run on their own ([`App::update`]).
    pub fn surface_time(&self) -> f32 {
        match self.current_clip_frame() {
            Some(_) => self.clip_time(),
            None => self.chrome.scroll_clock,
        }
    }

    /// The light the view draws the scene with now ([`crate::scene::Scene::light_at`], the motion's where
    /// "Light from motion" is on); `None`: the viewer's own light.
    pub fn light(&self) -> Option<crate::scene::Light> {
        self.scene()?.light_at(self.clip_time(), self.toggles.motion_light)
    }

    /// The self-shadow the view draws now ([`crate::scene::Scene::self_shadow_at`], the motion's self-shadow keys
    /// where "Light from motion" is on); `None`: none.
    pub fn self_shadow(&self) -> Option<crate::scene::SelfShadow> {
        self.scene()?.self_shadow_at(self.clip_time(), self.toggles.motion_light)
    }

    /// Whether "Light from motion" is on.
    pub fn motion_light(&self) -> bool {
        self.toggles.motion_light
    }

    /// The selected joint.
    pub fn selected_joint(&self) -> Option<usize> {
        self.document()?.selection.joint
    }

    /// What F frames: the selected joints (a body's bone included) with the vertices they carry, else the
    /// whole model as it stands in the pose shown (where the clip's framing covers everywhere it goes).
    pub fn frame_target(&self) -> Option<(crate::scene::UpAxis, crate::scene::FrameBounds)> {
        let d = self.document()?;
        let (scene, pose) = (d.scene(), d.pose());
        let joints: Vec<usize> = d.selection.joints().collect();
        let selected = crate::render::joints_bounds(scene, pose, &joints);
        Some((scene.up, selected.or_else(|| crate::render::pose_bounds(scene, pose))?))
    }

    /// Bumps whenever the shown model or its attachments change (clips included), or another model is shown.
    pub fn model_generation(&self) -> u64 {
        self.revisions.model
    }

    /// Bumps when the shown model's GPU data changes (its own file, another model shown); attaching clips
    /// leaves the vertex buffers and textures as they are.
    pub fn geometry_generation(&self) -> u64 {
        self.revisions.geometry
    }

    /// Bumps when a model is opened or a file attached (the window frames its camera then), not when a file
    /// reloads or a tab is shown again.
    pub fn framing_generation(&self) -> u64 {
        self.revisions.framing
    }

    /// The folder of the model file, where textures are looked for.
    pub fn model_dir(&self) -> Option<&Path> {
        self.document()?.dir()
    }

    /// Looks for the shown model's textures and decodes them, unless already done: the window calls this
    /// before it uploads the model ([`Document::textures`]), and the Scene tab then lists what was missing.
    pub fn load_textures(&mut self) {
        if let Some(d) = self.documents.get_mut(self.active)
            && d.textures().is_none()
        {
            d.load_textures();
        }
    }

    /// The shown model's texture files (found, and looked for but missing): the window watches them too while
    /// hot reload is on.
    pub fn texture_files(&self) -> Vec<PathBuf> {
        match self.document() {
            Some(d) if self.prefs.watch => d.texture_files().to_vec(),
            _ => Vec::new(),
        }
    }

    /// Overrides the shown model's list of missing textures (tests; a model opened from memory has no folder
    /// for the app to look in).
    pub fn set_missing_textures(&mut self, paths: Vec<String>) {
        if let Some(doc) = self.documents.get_mut(self.active) {
            doc.missing_textures = Some(paths);
        }
    }

    pub fn problems(&self) -> &[Problem] {
        &self.notices.problems
    }

    /// Notices shown in the window, oldest first (short-lived ones included).
    pub fn notices(&self) -> &[Notice] {
        &self.notices.list
    }

    /// The part of the window the panels left for the 3D view at the last `ui` call (egui points).
    pub fn view_rect(&self) -> Option<egui::Rect> {
        self.chrome.view_rect
    }

    /// With Compare side by side, the reference's 3D view (the right half; [`App::view_rect`] is the left).
    pub fn reference_rect(&self) -> Option<egui::Rect> {
        self.chrome.reference_rect
    }

    /// Whether the shown document's reference has a view of its own beside the model's.
    fn side_by_side(&self) -> bool {
        self.toggles.compare_side_by_side && self.document().is_some_and(|d| d.reference.is_some())
    }
}

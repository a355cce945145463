//! The application: the loaded model, playback, the pose, the sidebar's toggles and the notices, and the egui
//! UI that shows and changes them. No GPU here: the window (`src/window/`) owns the renderer, reads
//! [`App::scene`], [`App::pose`] and [`App::overlays`] each frame, re-uploads when [`App::geometry_generation`]
//! changes, and performs the [`Intent`]s that [`App::ui`] returns.
//!
//! State lives in plain structs ([`Player`], [`ViewToggles`], the model and its caches). Each sidebar section
//! is its own file with a `ui` function that reads that state and returns [`Action`]s; [`App`] applies them in
//! one place, so the pose is recomputed only when time, clip or model change.

mod actions;
mod animations;
mod bounds;
mod document;
mod file_info;
mod files;
mod help;
mod joints;
mod labels;
mod menu;
mod meshes;
mod model;
mod mvd;
mod nodes;
mod notices;
mod player;
pub mod settings;
pub mod shortcuts;
mod start;
mod tabs;
mod timeline;
mod toggles;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::anim::{Pose, onion_ghosts};
use crate::render::Overlays;
use crate::scene::{DEFAULT_FPS, FrameBounds, Scene};

use document::{Parked, Source, ViewMemory};
use model::ClipMeta;

pub use actions::Action;
pub use document::Source as ModelSource;
pub use labels::project_to_view;
pub use model::{Attachment, Model};
pub use notices::{Notice, NoticeKind};
pub use player::Player;
pub use settings::Settings;
pub use toggles::{Toggle, ViewToggles};

pub use crate::anim::{BOUNDS_TOLERANCE, MAX_ONION_FRAMES};

/// Eye positions sampled for the camera-path overlay.
const CAMERA_PATH_SAMPLES: usize = 256;

/// Something only the window can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Show a file dialog and open what is picked ([`App::open_path`]).
    OpenDialog,
    /// Point the camera at the whole model.
    FrameModel,
    /// Back to the default camera.
    ResetView,
    /// Save the view as a PNG.
    Screenshot,
    /// Save a contact sheet of the current animation (what `render --sheet` makes) as a PNG.
    ContactSheet,
    Quit,
}

/// The track the curve view plots: a joint's keyed track in the current clip, or an animated camera.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveTarget {
    /// By joint index in the model's skeleton.
    Joint(usize),
    /// By index into `Scene::cameras`.
    Camera(usize),
}

/// The window runs `check` on every file it opens; the stored-bounds part skins every frame, so it runs only
/// while vertices × frames stay under this (every corpus file does; the Bounds section covers the rest).
const WINDOW_CHECK_BUDGET: u64 = 20_000_000;

/// Something that went wrong: a file that couldn't be opened or attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    /// The file it concerns, as the user named it.
    pub file: Option<String>,
}

/// What the pose was computed for; the pose is recomputed only when this changes.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PoseKey {
    generation: u64,
    clip: Option<usize>,
    frame: u32,
    looping: bool,
    /// The bind pose is shown instead of the clip's (`ViewToggles::bind_pose`).
    bind_pose: bool,
}

/// The viewer's whole state. See the module docs.
pub struct App {
    model: Option<Model>,
    /// Bumps on any change of the model or its attachments.
    generation: u64,
    /// Bumps only when the model is replaced: what the GPU holds depends on nothing else.
    geometry: u64,
    player: Player,
    pose: Pose,
    pose_key: Option<PoseKey>,
    toggles: ViewToggles,
    selected_joint: Option<usize>,
    hidden_meshes: Vec<bool>,
    /// `None` until the window has uploaded the model and looked for its textures.
    missing_textures: Option<Vec<String>>,
    problems: Vec<Problem>,
    /// What `rigscope check` says about the open model and its attachments, shown in the Problems panel.
    findings: Vec<crate::check::Finding>,
    notices: Vec<Notice>,
    /// Bounds of the skinned mesh for `computed_key`'s pose; filled only while the bounds section is open or
    /// the computed-bounds overlay is on.
    computed: Option<FrameBounds>,
    computed_key: Option<PoseKey>,
    /// Whether the bounds section was open when last drawn.
    bounds_open: bool,
    /// The part of the window the panels leave for the 3D view, as of the last `ui` call.
    view_rect: Option<egui::Rect>,
    /// The intents of the current frame's passes so far (see [`App::ui`]).
    frame_intents: Vec<Intent>,
    /// Attached clips' delta tracks are converted from MMD axes ([`crate::anim::mmd_to_model`]).
    mmd_axes: bool,
    /// What the curve view plots.
    curve: Option<CurveTarget>,
    /// The keyboard help overlay is shown.
    help: bool,
    /// The files the shown model was built from: the model, then its attachments.
    sources: Vec<Source>,
    /// Identifies the shown model (tab) for the window, which keeps a camera per model; 0 with none.
    document: u64,
    next_document: u64,
    /// Open models in tab order; the shown one's slot is `None` (its state lives in the fields above).
    tabs: Vec<Option<Box<Parked>>>,
    /// The shown model's tab.
    active: usize,
    /// Bumps when a model is opened or a file attached: the window frames its camera then (not on reloads,
    /// detaching or switching tabs, which keep the view where it was).
    framing: u64,
    /// Reload files when they change on disk.
    watch: bool,
    /// Reloads of the shown model so far, and the file that changed last.
    reloads: u64,
    last_reload: Option<String>,
    /// Failed reloads' notices, by file, taken down when that file reloads.
    reload_errors: Vec<(String, String)>,
    /// The attachment whose name-matching report is open.
    report_open: Option<usize>,
    /// Text for the clipboard ([`Action::CopyPose`]), handed to egui by the next [`App::show`].
    pending_copy: Option<String>,
    /// Recent files (issue 8 §5), most recent first, absolute; see [`settings::push_recent`].
    recent: Vec<PathBuf>,
    /// The start screen may show (the window turns it on; opening a file or dismissing it turns it off).
    start: bool,
    /// Model space to clip space for the 3D view's rect, set by the window each frame (joint-name labels).
    view_projection: Option<glam::Mat4>,
}

impl Default for App {
    fn default() -> Self {
        App::new()
    }
}

impl App {
    /// An empty app; the window then opens files or the demo.
    pub fn new() -> App {
        App {
            model: None,
            generation: 0,
            geometry: 0,
            player: Player::default(),
            pose: Pose::default(),
            pose_key: None,
            toggles: ViewToggles::default(),
            selected_joint: None,
            hidden_meshes: Vec::new(),
            missing_textures: None,
            problems: Vec::new(),
            findings: Vec::new(),
            notices: Vec::new(),
            computed: None,
            computed_key: None,
            bounds_open: false,
            view_rect: None,
            frame_intents: Vec::new(),
            mmd_axes: false,
            curve: None,
            help: false,
            sources: Vec::new(),
            document: 0,
            next_document: 1,
            tabs: Vec::new(),
            active: 0,
            framing: 0,
            watch: true,
            reloads: 0,
            last_reload: None,
            reload_errors: Vec::new(),
            report_open: None,
            pending_copy: None,
            recent: Vec::new(),
            start: false,
            view_projection: None,
        }
    }

    /// Reads and opens a file: a model opens in a tab of its own (replacing a model opened from memory, such as
    /// the demo; a file already open is shown and re-read), an animation-only file attaches to the shown model.
    /// Any failure becomes a notice and a problem; the current model stays.
    pub fn open_path(&mut self, path: &Path) {
        let name = path.display().to_string();
        match std::fs::read(path) {
            Ok(bytes) => {
                let generation = self.generation;
                self.open(&name, &bytes, Some(path.to_path_buf()));
                self.remember_opened(path, generation); // recent files, when the file loaded
            }
            Err(e) => self.report(format!("{name}: cannot read: {e}"), Some(name)),
        }
    }

    /// Opens a file from memory (tests, the demo); as [`App::open_path`], with no folder for textures and
    /// nothing to reload.
    pub fn open_bytes(&mut self, name: &str, bytes: &[u8]) {
        self.open(name, bytes, None);
    }

    fn open(&mut self, name: &str, bytes: &[u8], path: Option<PathBuf>) {
        let scene = match crate::load_bytes(name, bytes) {
            Ok(s) => s,
            Err(e) => return self.report(e.to_string(), Some(name.to_string())),
        };
        let source = Source { name: name.to_string(), path, bytes: Arc::from(bytes) };
        if self.model.is_some() && scene.is_animation_only() {
            let first_new = self.model.as_ref().map_or(0, |m| m.scene.clips.len());
            let mut sources = self.sources.clone();
            sources.push(source);
            let preloaded = Some((sources.len() - 1, scene));
            match document::build(&sources, self.mmd_axes, preloaded) {
                Ok(built) => {
                    if let Some(report) = built.model.attachments.last().map(|a| &a.report) {
                        self.notices.push(Notice::info(format!(
                            "{name}: attached {} animation(s); {} joint(s) matched{}, {} unmatched",
                            report.clips.len(),
                            report.matched.len(),
                            if report.by_index { " by index" } else { "" },
                            report.unmatched_joints.len()
                        )));
                    }
                    let memory = self.view_memory();
                    self.install(built, sources, memory, false);
                    self.player.select(
                        Some(first_new).filter(|&c| self.model.as_ref().is_some_and(|m| c < m.scene.clips.len())),
                    );
                    self.framing += 1;
                }
                Err(e) => self.report(e.message, Some(name.to_string())),
            }
            return self.refresh();
        }
        // A file already open as a model: show its tab and take the bytes just read.
        let key = source.path.as_deref().map(crate::watch::watch_key);
        if let Some(key) = &key
            && let Some(tab) = self.tab_of(key)
        {
            self.select_model(tab);
            let mut sources = self.sources.clone();
            sources[0] = source;
            let memory = self.view_memory();
            match document::build(&sources, self.mmd_axes, Some((0, scene))) {
                Ok(built) => self.install(built, sources, memory, true),
                Err(e) => self.report(e.message, Some(name.to_string())),
            }
            return self.refresh();
        }
        match document::build(std::slice::from_ref(&source), false, Some((0, scene))) {
            Ok(built) => {
                // A model from a file gets a tab of its own; one from memory (the demo) gives its tab up.
                if self.sources.first().is_some_and(|s| s.path.is_some()) {
                    self.park();
                    self.active = self.tabs.len();
                    self.tabs.push(None);
                } else if self.tabs.is_empty() {
                    self.tabs.push(None);
                    self.active = 0;
                }
                self.document = self.next_document;
                self.next_document += 1;
                self.mmd_axes = false;
                let clip = (!built.model.scene.clips.is_empty()).then_some(0);
                self.install(built, vec![source], ViewMemory::default(), true);
                self.player.select(clip);
                self.selected_joint = None;
                self.curve = None;
                self.toggles.follow_camera = false;
                self.reloads = 0;
                self.last_reload = None;
                self.framing += 1;
            }
            Err(e) => self.report(e.message, Some(name.to_string())),
        }
        self.refresh();
    }

    /// What a rebuild of the shown model keeps.
    fn view_memory(&self) -> ViewMemory {
        match &self.model {
            Some(m) => ViewMemory::take(m, &self.player, self.selected_joint, &self.hidden_meshes, self.curve),
            None => ViewMemory::default(),
        }
    }

    /// Shows a freshly built model in place of the shown one, restoring `memory` (clip by name, frame, playing,
    /// joint, hidden meshes, curve). `new_geometry`: the model's own file changed, so the GPU data is stale.
    fn install(&mut self, built: document::Built, sources: Vec<Source>, memory: ViewMemory, new_geometry: bool) {
        let scene = &built.model.scene;
        let clip = memory.clip_in(scene);
        self.selected_joint = memory.joint_in(scene);
        self.hidden_meshes = memory.hidden_in(scene);
        self.curve = memory.curve_in(scene);
        self.player.select(clip);
        if let Some(c) = clip.and_then(|c| scene.clips.get(c)) {
            let c = c.clone_meta();
            self.player.set_frame(&c, memory.frame);
        }
        self.player.playing = memory.playing && clip.is_some();
        self.findings = built.findings;
        self.model = Some(built.model);
        self.sources = sources;
        if self.report_open.is_some_and(|i| i + 1 >= self.sources.len()) {
            self.report_open = None;
        }
        self.generation += 1;
        if new_geometry {
            self.geometry += 1;
            self.missing_textures = None;
        }
        if self.camera_track().is_none() {
            self.toggles.follow_camera = false;
        }
    }

    /// Puts the current pose as JSON, what `rigscope pose` prints for the model, clip and frame shown (the
    /// model's name as the file), on the clipboard at the next [`App::show`]. Nothing without a model.
    fn copy_pose(&mut self) {
        let Some(model) = &self.model else { return };
        let options = crate::report::PoseOptions::default();
        match crate::report::pose_json(&model.scene, &model.name, self.current_clip_frame(), &options) {
            Ok(json) => {
                let joints = model.scene.rsm.as_ref().map_or(model.scene.skeleton.len(), |r| r.nodes.len());
                self.notices.push(Notice::info(format!("Pose copied ({joints} joints)")));
                self.pending_copy = Some(json);
            }
            Err(e) => self.notices.push(Notice::error(format!("cannot copy the pose: {e}"))),
        }
    }

    /// Text waiting to go to the clipboard at the next [`App::show`] (after [`Action::CopyPose`]).
    pub fn pending_copy(&self) -> Option<&str> {
        self.pending_copy.as_deref()
    }

    /// After opening `path`: when the open model changed since `generation` (it loaded), the file goes first in
    /// the recent files and the start screen goes away.
    fn remember_opened(&mut self, path: &Path, generation: u64) {
        if self.generation != generation {
            settings::push_recent(&mut self.recent, path);
            self.start = false;
        }
    }

    /// Takes the remembered toggles, playback speed, hot-reload switch and recent files.
    pub fn apply_settings(&mut self, settings: &Settings) {
        let follow = self.toggles.follow_camera;
        self.toggles = settings.toggles.clone();
        self.toggles.follow_camera = follow;
        self.toggles.onion_frames = self.toggles.onion_frames.clamp(1, MAX_ONION_FRAMES);
        self.player.speed = settings::clamp_speed(settings.speed);
        self.watch = settings.watch;
        self.recent.clear();
        for p in settings.recent.iter().rev() {
            settings::push_recent(&mut self.recent, p);
        }
    }

    /// What the app remembers, as settings (no window size or egui memory: the window adds those).
    pub fn settings(&self) -> Settings {
        let mut toggles = self.toggles.clone();
        toggles.follow_camera = false;
        Settings {
            toggles,
            speed: self.player.speed,
            watch: self.watch,
            recent: self.recent.clone(),
            ..Settings::default()
        }
    }

    /// Shows a notice of the window's own (a settings file that couldn't be read).
    pub fn add_notice(&mut self, notice: Notice) {
        self.notices.push(notice);
    }

    /// Recent files, most recent first.
    pub fn recent_files(&self) -> &[PathBuf] {
        &self.recent
    }

    /// Hot reload is on.
    pub fn watch(&self) -> bool {
        self.watch
    }

    /// Lets the start screen show (the window does at start): it shows while no model is open or the model was
    /// opened from memory (the built-in demo), until a file is opened or it is dismissed.
    pub fn set_start_screen(&mut self, on: bool) {
        self.start = on;
    }

    /// The start screen is drawn.
    pub fn start_screen_shown(&self) -> bool {
        self.start && self.model.as_ref().is_none_or(|m| m.dir.is_none())
    }

    /// The keyboard help overlay is drawn.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// Jumps to what finding `i` points at: its animation and frame (paused there), and its joint.
    fn go_to_finding(&mut self, i: usize) {
        let Some(place) = self.findings.get(i).map(|f| f.place.clone()) else { return };
        let clips = self.model.as_ref().map_or(0, |m| m.scene.clips.len());
        if let Some(c) = place.clip.filter(|&c| c < clips) {
            self.player.select(Some(c));
            self.player.playing = false;
            if let Some(clip) = self.current_clip().map(model::ClipMeta::clone_meta) {
                self.player.set_frame(&clip, place.frame.unwrap_or(0) as f32);
            }
        }
        let joints = self.model.as_ref().map_or(0, |m| m.scene.skeleton.len());
        if let Some(j) = place.joint.filter(|&j| j < joints) {
            self.selected_joint = Some(j);
        }
    }

    /// What `rigscope check` found in the open model and its attachments.
    pub fn findings(&self) -> &[crate::check::Finding] {
        &self.findings
    }

    /// Records a failure as a problem and shows it as a notice.
    fn report(&mut self, message: String, file: Option<String>) {
        self.notices.push(Notice::error(message.clone()));
        self.problems.push(Problem { message, file });
    }

    /// Advances playback by `dt_seconds`; true while animating (the window keeps redrawing), false when paused
    /// or without a clip.
    pub fn update(&mut self, dt_seconds: f32) -> bool {
        let Some(clip) = self.current_clip() else { return false };
        if !self.player.playing {
            return false;
        }
        let clip = clip.clone_meta();
        self.player.advance(&clip, dt_seconds);
        self.refresh();
        true
    }

    /// Draws the menu bar, notices, sidebar and timeline on the context's root [`egui::Ui`] and handles the
    /// keyboard shortcuts; returns what only the window can do. Call it inside `Context::run_pass` (or between
    /// `begin_pass` and `end_pass`), not inside `run_ui`, which already holds the root `Ui`: there use
    /// [`App::show`].
    ///
    /// egui may run a second pass in one frame (a discarded first pass), which gets no input; so this returns
    /// the intents of every pass of the current frame so far, and the last pass's answer is the frame's:
    /// `ctx.run_pass(input, |ctx| intents = app.ui(ctx))`.
    pub fn ui(&mut self, ctx: &egui::Context) -> Vec<Intent> {
        if ctx.current_pass_index() == 0 {
            self.frame_intents.clear();
        }
        let new = ctx.root_ui(|ui| self.show(ui));
        self.frame_intents.extend(new);
        self.frame_intents.clone()
    }

    /// As [`App::ui`], into a given `Ui` (the panels take its edges; the rest is the 3D view, see
    /// [`App::view_rect`]), returning only this pass's intents.
    pub fn show(&mut self, ui: &mut egui::Ui) -> Vec<Intent> {
        let has_clip = self.current_clip().is_some();
        let mut actions = menu::shortcuts(ui.ctx(), has_clip, self.player.speed, self.help);
        self.apply_all(&mut actions);
        let follow = self.camera_track().map(|_| self.toggles.follow_camera);
        let menu_state = menu::MenuState { follow, toggles: &self.toggles, recent: &mut self.recent };
        actions.extend(menu::bar(ui, menu_state));
        self.apply_all(&mut actions);
        // Issue 8 §5: the start screen and the keyboard help, over the view.
        if self.start_screen_shown() {
            let demo = self.model.is_some();
            start::screen(ui.ctx(), &self.recent, demo, &mut self.start, &mut actions);
        }
        help::overlay(ui.ctx(), self.help, &mut actions);
        self.apply_all(&mut actions);
        let (names, active) = self.tabs();
        actions.extend(tabs::strip(ui, &names, active));
        self.apply_all(&mut actions);
        actions.extend(notices::banner(ui, &self.notices));
        self.apply_all(&mut actions);
        let frame = self.current_clip_frame();
        actions.extend(timeline::panel(ui, self.model.as_ref().map(|m| &m.scene), &self.player, frame));
        self.apply_all(&mut actions);
        egui::Panel::left("rigscope sidebar").default_size(320.0).show(ui, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| self.sidebar(ui, &mut actions));
        });
        self.apply_all(&mut actions);
        if let (Some(model), Some(i)) = (&self.model, self.report_open) {
            files::report_window(ui.ctx(), model, i, &mut actions);
        }
        self.apply_all(&mut actions);
        self.view_rect = Some(ui.available_rect_before_wrap());
        self.refresh();
        if let Some(text) = self.pending_copy.take() {
            ui.ctx().copy_text(text);
        }
        if self.toggles.joint_names
            && let (Some(m), Some(rect), Some(to_clip)) = (&self.model, self.view_rect, self.view_projection)
        {
            let names: Vec<&str> = m.scene.skeleton.joints.iter().map(|j| j.name.as_str()).collect();
            labels::paint(ui, rect, to_clip, &names, &self.pose.world, self.selected_joint);
        }
        actions
            .into_iter()
            .filter_map(|a| match a {
                Action::Window(i) => Some(i),
                _ => None,
            })
            .collect()
    }

    /// The sidebar sections, top to bottom. Actions are applied after each section so later ones see them.
    fn sidebar(&mut self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let time = self.current_clip().map(|c| self.player.frame(c) / c.fps(DEFAULT_FPS));
        if let Some(model) = &mut self.model {
            files::section(ui, model, &self.sources, self.watch, (self.reloads, self.last_reload.as_deref()), actions);
            file_info::section(ui, model);
            meshes::section(ui, &model.scene, &self.hidden_meshes, self.missing_textures.as_deref(), actions);
            animations::section(ui, model, &self.player, self.mmd_axes, actions);
            let clip = self.player.clip.and_then(|c| model.scene.clips.get(c));
            mvd::section(ui, model, clip, time, self.curve, actions);
        } else {
            ui.label("No model: File > Open (Ctrl+O), or drop a file on the window.");
        }
        self.apply_all(actions);
        if let Some(model) = &self.model {
            nodes::section(ui, &model.scene, self.selected_joint, self.missing_textures.as_deref(), actions);
            joints::section(ui, &model.scene, &self.pose, self.selected_joint, actions);
        }
        self.apply_all(actions);
        let frame = self.current_clip_frame();
        if let Some(model) = &mut self.model {
            // The computed box is filled by `refresh`, which sees whether this section was open.
            let open = bounds::section(ui, model, frame, self.computed, actions);
            if open != self.bounds_open {
                self.bounds_open = open;
                ui.ctx().request_repaint();
            }
        }
        self.apply_all(actions);
        let has_camera = self.camera_track().is_some();
        self.toggles.ui(ui, has_camera, actions);
        self.apply_all(actions);
        notices::problems_section(ui, &self.problems, &self.findings, actions);
    }

    /// Recomputes the pose (and the computed bounds, when wanted) if time, clip or model changed.
    fn refresh(&mut self) {
        let key = self.pose_key_now();
        if self.pose_key != Some(key) {
            self.pose_key = Some(key);
            match (&self.model, self.player.clip) {
                (Some(m), Some(c)) if c < m.scene.clips.len() && !self.toggles.bind_pose => {
                    let clip = &m.scene.clips[c];
                    let frame = self.player.frame(clip);
                    self.pose.update(&m.scene.skeleton, clip, frame, DEFAULT_FPS);
                }
                (Some(m), _) => self.pose = Pose::bind(&m.scene.skeleton),
                (None, _) => self.pose = Pose::default(),
            }
        }
        let want = self.bounds_open || self.toggles.computed_bounds;
        if want && self.computed_key != Some(key) {
            self.computed_key = Some(key);
            self.computed =
                self.model.as_ref().and_then(|m| crate::anim::skinned_bounds(&m.scene.vertices, &self.pose.palette));
        }
    }

    fn pose_key_now(&self) -> PoseKey {
        let clip = self.current_clip();
        PoseKey {
            generation: self.generation,
            clip: clip.map(|_| self.player.clip.unwrap_or(0)),
            frame: clip.map_or(0, |c| self.player.frame(c).to_bits()),
            looping: clip.is_some_and(|c| c.looping),
            bind_pose: self.toggles.bind_pose,
        }
    }

    fn current_clip(&self) -> Option<&crate::scene::Clip> {
        self.model.as_ref()?.scene.clips.get(self.player.clip?)
    }

    pub fn scene(&self) -> Option<&Scene> {
        self.model.as_ref().map(|m| &m.scene)
    }

    /// The open model with its name, folder and attachments.
    pub fn model(&self) -> Option<&Model> {
        self.model.as_ref()
    }

    /// The current pose (the bind pose without a clip).
    pub fn pose(&self) -> &Pose {
        &self.pose
    }

    /// The clip shown and the (fractional) frame within it.
    pub fn current_clip_frame(&self) -> Option<(usize, f32)> {
        let clip = self.current_clip()?;
        Some((self.player.clip?, self.player.frame(clip)))
    }

    pub fn player(&self) -> &Player {
        &self.player
    }

    /// What the renderer should draw besides the mesh, from the sidebar's toggles.
    pub fn overlays(&self) -> Overlays {
        let t = &self.toggles;
        let stored = self
            .model
            .as_ref()
            .zip(self.current_clip_frame())
            .and_then(|(m, (c, f))| bounds::stored_at(&m.scene, c, f));
        Overlays {
            mesh: t.mesh,
            cull_back_faces: t.cull_back_faces,
            grid: t.grid,
            skeleton: t.skeleton,
            selected_joint: self.selected_joint,
            highlight_joint: if t.highlight_selected { self.selected_joint } else { None },
            wireframe: t.wireframe,
            stored_bounds: if t.stored_bounds { stored } else { None },
            computed_bounds: if t.computed_bounds { self.computed } else { None },
            hidden_meshes: self.hidden_meshes.clone(),
            boxes: match (&self.model, t.boxes) {
                (Some(m), true) => m.scene.marked_boxes(),
                _ => Vec::new(),
            },
            camera_path: match self.camera_track() {
                Some(c) if t.camera_path && !t.follow_camera => crate::render::camera_path(c, CAMERA_PATH_SAMPLES),
                _ => Vec::new(),
            },
            camera_frustum: match self.camera_track() {
                Some(c) if t.camera_path && !t.follow_camera => {
                    let aspect = self.view_rect.map_or(16.0 / 9.0, |r| r.aspect_ratio());
                    crate::render::camera_frustum(c, self.clip_time(), aspect)
                }
                _ => Vec::new(),
            },
            weights: t.weights,
            uv_checker: t.uv_checker,
            normals: t.normals,
            tangents: t.tangents,
            joint_axes: t.joint_axes,
            ghosts: match (&self.model, self.current_clip_frame()) {
                (Some(m), Some((c, f))) if t.onion => {
                    onion_ghosts(&m.scene.skeleton, &m.scene.clips[c], f, t.onion_frames, DEFAULT_FPS)
                }
                _ => Vec::new(),
            },
        }
    }

    /// The window sets, each frame before the UI runs, the matrix taking model space to clip space in the 3D
    /// view's rect ([`App::view_rect`]), or `None` without a view; joint-name labels are placed with it.
    pub fn set_view_projection(&mut self, model_to_clip: Option<glam::Mat4>) {
        self.view_projection = model_to_clip;
    }

    /// The animated camera that plays with the current clip (by clip name), else the first with keys.
    pub fn camera_track(&self) -> Option<&crate::scene::CameraTrack> {
        let scene = &self.model.as_ref()?.scene;
        let name = self.current_clip().map(|c| c.name.as_str());
        let keyed = scene.cameras.iter().filter(|c| !c.keys.is_empty());
        keyed.clone().find(|c| name.is_some() && c.clip.as_deref() == name).or(keyed.clone().next())
    }

    /// True while the view follows the animated camera ([`App::camera_track`] at [`App::clip_time`]).
    pub fn follow_camera(&self) -> bool {
        self.toggles.follow_camera && self.camera_track().is_some()
    }

    /// Whether attached delta motions are converted from MMD axes.
    pub fn mmd_axes(&self) -> bool {
        self.mmd_axes
    }

    /// What the curve view plots.
    pub fn curve(&self) -> Option<CurveTarget> {
        self.curve
    }

    /// Converts the attached clips' delta tracks to the model's axes (on) or back (off).
    fn set_mmd_axes(&mut self, on: bool) {
        if on == self.mmd_axes {
            return;
        }
        let Some(model) = &mut self.model else { return };
        self.mmd_axes = on;
        let m = crate::anim::mmd_to_model(model.scene.up);
        let m = if on { m } else { m.inverse() };
        for c in model.scene.clips.iter_mut().filter(|c| c.source.is_some()) {
            crate::anim::convert_deltas(c, m);
        }
        // The pose (not the framing or the GPU data) depends on the clips' values.
        self.pose_key = None;
        self.computed_key = None;
    }

    /// Seconds into the clip shown (0 without one), where animated UVs are evaluated.
    pub fn clip_time(&self) -> f32 {
        self.current_clip().map_or(0.0, |c| self.player.frame(c) / c.fps(DEFAULT_FPS))
    }

    /// The joint selected in the sidebar.
    pub fn selected_joint(&self) -> Option<usize> {
        self.selected_joint
    }

    /// Bumps whenever the model or its attachments change (clips included): the window re-frames its camera.
    pub fn model_generation(&self) -> u64 {
        self.generation
    }

    /// Bumps only when the model is replaced: the window re-uploads its GPU data. Attaching clips leaves the
    /// vertex buffers and textures as they are.
    pub fn geometry_generation(&self) -> u64 {
        self.geometry
    }

    /// The folder of the model file, where textures are looked for.
    pub fn model_dir(&self) -> Option<&Path> {
        self.model.as_ref()?.dir.as_deref()
    }

    /// The window reports `GpuModel::missing_texture_paths` after each upload.
    pub fn set_missing_textures(&mut self, paths: Vec<String>) {
        self.missing_textures = Some(paths);
    }

    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Notices shown in the window, oldest first.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    /// The part of the window the panels left for the 3D view at the last `ui` call (egui points).
    pub fn view_rect(&self) -> Option<egui::Rect> {
        self.view_rect
    }
}

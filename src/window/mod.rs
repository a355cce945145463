//! The window: winit's event loop, egui (through egui-winit and egui-wgpu) for the sidebar, and the shared 3D
//! renderer for the view beside it.
//!
//! [`App`] owns the state and the sidebar; this module owns everything that touches the window or the GPU:
//! - `gpu.rs`: adapter, device, sRGB surface, the 3D [`crate::render::Renderer`] and egui's renderer; a frame
//!   is the 3D view cleared and drawn inside the viewport the panels leave, then egui loaded on top;
//! - `navigate.rs`: the central area as an egui panel that catches the pointer; orbit, pan, zoom and framing;
//! - `dialog.rs`: the Open… dialog on a thread of its own;
//! - `capture.rs`: screenshots (the frame drawn again offscreen and read back).
//!
//! The window draws only when something happens: an input event, a dialog's answer, egui asking for a repaint,
//! or playback (while [`App::update`] says it is animating). An idle window waits in `ControlFlow::Wait`.

mod capture;
mod dialog;
mod export;
mod gpu;
mod harness;
mod persist;
mod recording;
mod sheet;
mod timing;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{Window, WindowId};

use crate::app::{App, Intent, Notice};
use crate::render::Panes;
use crate::view::{BACKGROUND, Navigation, Stage, navigate};
use gpu::{Gpu, PixelRect, UiFrame};

/// What the window opens with, from the command line.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Files to open in order: the first model replaces, animation-only files attach. None: the demo model.
    pub files: Vec<PathBuf>,
    /// A file to compare the model with (`--compare`), as File > Compare with… does.
    pub compare: Option<PathBuf>,
    /// Exit cleanly after this many presented frames (tests).
    pub exit_after_frames: Option<u64>,
    /// Count `exit_after_frames` from the first hot reload, and don't exit before one (tests).
    pub exit_after_reload: bool,
    /// Save the last frame (window size, sidebar included) as PNG here, then exit (tests). The frame is the
    /// `exit_after_frames`-th, or the [`DEFAULT_SCREENSHOT_FRAME`]th.
    pub screenshot: Option<PathBuf>,
    /// Advance the clock by exactly this many seconds each frame instead of the time that passed (tests).
    pub frame_step: Option<f32>,
    /// Benchmarks: report timings (see `timing.rs`) measured from this instant, taken at the start of `main`.
    pub report_timing: Option<Instant>,
    /// Benchmarks: the window's inner size in physical pixels (default: 1200x760 logical).
    pub window_size: Option<(u32, u32)>,
    /// Save a contact sheet (as the Contact sheet command does) once the first frame is presented (tests).
    pub contact_sheet: bool,
    /// Test hook: "Record clip" as GIF after the first presented frame.
    pub record_clip: bool,
    /// Test hook: "Export glTF" to this file after the first presented frame (no dialog); the window doesn't
    /// exit before the export is done.
    pub export_gltf: Option<PathBuf>,
}

/// The frame `--screenshot` saves when `--exit-after-frames` doesn't say: late enough for egui's layout to
/// have settled.
pub const DEFAULT_SCREENSHOT_FRAME: u64 = 5;

/// How long a short-lived notice of the window's own (screenshot saved, dialog failed) stays up.
const NOTICE_TIME: Duration = Duration::from_secs(4);

/// Events sent to the event loop from other threads.
#[derive(Debug)]
pub enum UserEvent {
    /// The Open… dialog closed with these files (none when cancelled).
    DialogClosed(Vec<PathBuf>),
    /// Watched files changed on disk (debounced by [`crate::watch::FileWatcher`]).
    FilesChanged(Vec<PathBuf>),
    /// The Export glTF dialog closed with this file (none when cancelled).
    ExportTo(Option<PathBuf>),
    /// A glTF export finished: what to tell the user.
    Exported(Result<String, String>),
    /// The Compare with… dialog closed with this file (none when cancelled).
    CompareWith(Option<PathBuf>),
    /// A screen reader (an AT-SPI client on Linux) asked for the window's tree or for an action on a widget.
    AccessKit(egui_winit::accesskit_winit::Event),
}

impl From<egui_winit::accesskit_winit::Event> for UserEvent {
    fn from(event: egui_winit::accesskit_winit::Event) -> UserEvent {
        UserEvent::AccessKit(event)
    }
}

/// Opens the window and runs until it is closed. Fails when no window or GPU adapter can be had, or when a
/// `--screenshot` can't be written.
pub fn run(options: Options) -> Result<(), String> {
    let event_loop = EventLoop::<UserEvent>::with_user_event()
        .build()
        .map_err(|e| format!("cannot open a window ({e}); is there a display (DISPLAY or WAYLAND_DISPLAY)?"))?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let mut viewer = Viewer::new(options, event_loop.create_proxy());
    event_loop.run_app(&mut viewer).map_err(|e| format!("the window's event loop failed: {e}"))?;
    if let Some(report) = viewer.harness.timing_report() {
        eprintln!("{report}");
    }
    viewer.failure.map_or(Ok(()), Err)
}

struct Viewer {
    app: App,
    options: Options,
    proxy: EventLoopProxy<UserEvent>,
    egui: egui::Context,
    /// The window and its GPU state, from the first `resumed` on.
    window: Option<WindowState>,
    last_frame: Instant,
    /// When egui wants the next repaint (tooltips, animations of its own, a notice that goes).
    repaint_at: Option<Instant>,
    dialog_open: bool,
    screenshot_requested: bool,
    failure: Option<String>,
    /// The hidden test and benchmark hooks.
    harness: harness::Harness,
    /// Hot reload: watches `App::watched_files` and `App::texture_files`, which are re-read when they change.
    watcher: Option<crate::watch::FileWatcher>,
    watched: Vec<PathBuf>,
    /// The settings file (`persist.rs`).
    persist: persist::Persist,
    /// "Record clip" under way (`recording.rs`).
    recording: Option<recording::Job>,
}

struct WindowState {
    window: Arc<Window>,
    /// Kept alive with the surface made from it.
    _instance: wgpu::Instance,
    gpu: Gpu,
    input: egui_winit::State,
    /// The 3D view: the shown document's model on the GPU, the reference, the cameras.
    stage: Stage,
}

/// What one frame's UI pass produced.
struct UiPass {
    ui: UiFrame,
    delta: egui::TexturesDelta,
    /// The 3D view's rect (points) and what the pointer did in it.
    central: egui::Rect,
    nav: Navigation,
    intents: Vec<Intent>,
    /// The axis gizmo was clicked: look from these angles (degrees).
    snap: Option<(i16, i16)>,
    pixels_per_point: f32,
    /// When egui wants the next frame.
    repaint_delay: Duration,
}

impl Viewer {
    fn new(options: Options, proxy: EventLoopProxy<UserEvent>) -> Viewer {
        // Settings first (toggles, speed, recent files, egui's memory), then the files.
        let (mut app, egui) = (App::new(), egui::Context::default());
        let (persist, problem) = persist::Persist::load(&mut app, &egui, options.window_size.is_none());
        if let Some(problem) = problem {
            app.add_notice(Notice::error(problem));
        }
        app.install_cjk_font(&egui);
        app.set_start_screen(true);
        let mut viewer = Viewer {
            app,
            harness: harness::Harness::new(&options),
            options,
            proxy,
            egui,
            window: None,
            last_frame: Instant::now(),
            repaint_at: None,
            dialog_open: false,
            screenshot_requested: false,
            failure: None,
            watcher: None,
            watched: Vec::new(),
            persist,
            recording: None,
        };
        let proxy = viewer.proxy.clone();
        match crate::watch::FileWatcher::new(move |paths| {
            let _ = proxy.send_event(UserEvent::FilesChanged(paths));
        }) {
            Ok(w) => viewer.watcher = Some(w),
            Err(e) => viewer.notify(format!("hot reload is unavailable: {e}")),
        }
        let files = viewer.options.files.clone();
        if files.is_empty() {
            viewer.app.open_demo();
        }
        for file in &files {
            viewer.open_path(file);
        }
        if let Some(other) = viewer.options.compare.clone() {
            viewer.app.compare_with_path(&other);
        }
        viewer.sync_watcher();
        // Files named on the command line open moving, whatever "Play on open" says.
        viewer.app.play();
        viewer
    }

    /// Opens a file through the app (errors show in its sidebar).
    fn open_path(&mut self, path: &Path) {
        self.app.open_path(path);
        if let Some(w) = &self.window {
            w.window.set_title(&self.title());
            w.window.request_redraw();
        }
    }

    /// The open model's file name without its extension (attachments don't change it); empty with no model.
    fn model_name(&self) -> String {
        self.app
            .model()
            .and_then(|m| Path::new(&m.name).file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_default()
    }

    fn title(&self) -> String {
        match self.model_name() {
            name if name.is_empty() => "rigscope".into(),
            name => format!("rigscope — {name}"),
        }
    }

    /// A short-lived notice of the window's own (screenshot saved, dialog failed, files reloaded).
    fn notify(&mut self, text: String) {
        self.app.add_notice(Notice::transient(text, NOTICE_TIME));
        if let Some(w) = &self.window {
            w.window.request_redraw();
        }
    }

    fn open_window(&self, event_loop: &ActiveEventLoop) -> Result<WindowState, String> {
        // Hidden until AccessKit's adapter is in place: it must exist before the window is first shown.
        let attributes = Window::default_attributes().with_title(self.title()).with_visible(false);
        let remembered = self.persist.window_geometry();
        let attributes = match (self.options.window_size, remembered.and_then(|g| g.usable())) {
            (Some((width, height)), _) => attributes.with_inner_size(winit::dpi::PhysicalSize::new(width, height)),
            (None, Some((width, height))) => attributes
                .with_inner_size(winit::dpi::LogicalSize::new(width, height))
                .with_maximized(remembered.is_some_and(|g| g.maximized)),
            (None, None) => attributes.with_inner_size(winit::dpi::LogicalSize::new(1200.0, 760.0)),
        };
        let window = Arc::new(event_loop.create_window(attributes).map_err(|e| format!("cannot open a window: {e}"))?);
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        )));
        let gpu = Gpu::new(&instance, window.clone())?;
        let mut input = egui_winit::State::new(
            self.egui.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(gpu.max_texture_side()),
        );
        // Screen readers see every panel, tab, button, slider, row and field by name and value (AT-SPI on
        // Linux, UI Automation on Windows, NSAccessibility on macOS); egui builds the tree only once one asks.
        input.init_accesskit(event_loop, &window, self.proxy.clone());
        window.set_visible(true);
        let size = window.inner_size();
        let stage = Stage::new(&gpu.renderer, size.width.max(1) as f32 / size.height.max(1) as f32);
        Ok(WindowState { window, _instance: instance, gpu, input, stage })
    }

    /// Runs one frame: playback, the UI, the app's intents, the shown document on the GPU and its camera, then
    /// draws, presents and decides when to draw next.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let Some(mut w) = self.window.take() else { return };
        self.frame(event_loop, &mut w);
        self.window = Some(w);
    }

    fn frame(&mut self, event_loop: &ActiveEventLoop, w: &mut WindowState) {
        let now = Instant::now();
        let dt = self
            .harness
            .frame_step()
            .unwrap_or_else(|| now.saturating_duration_since(self.last_frame).as_secs_f32().min(0.25));
        self.last_frame = now;
        let animating = self.app.update(dt);
        self.sync_watcher();
        let mut pass = self.run_ui(w);
        if self.harness.take_contact_sheet() {
            pass.intents.push(Intent::ContactSheet);
        }
        if self.harness.take_record_clip() {
            pass.intents.push(Intent::RecordClip(crate::render::record::AnimatedFormat::Gif));
        }
        if let Some(path) = self.harness.take_export_gltf() {
            self.start_export(&path);
        }
        // Intents change what the next frame shows (a notice, a new model): draw it.
        let again = !pass.intents.is_empty();
        let reset = self.perform(event_loop, w, &mut pass);
        let panes = self.panes(&pass, w.gpu.size());
        self.sync_document(w, panes.model);
        self.aim(w, &pass, panes.model, reset);
        let recording = self.step_recording(w);
        let Some(done) = self.draw(event_loop, w, &mut pass, panes, now) else { return };
        if let Some(e) = self.persist.tick(&self.app, &self.egui, &w.window) {
            self.notify(e);
        }
        // When to draw next.
        self.repaint_at = None;
        if done {
            return;
        }
        // A hover pick waiting for the pointer to rest over a large model is due soon: look again then.
        let delay = pass.repaint_delay.min(self.app.hover_pending().unwrap_or(Duration::MAX));
        if animating || again || recording || self.harness.keeps_drawing() || delay.is_zero() {
            w.window.request_redraw();
        } else if let Some(at) = Instant::now().checked_add(delay) {
            self.repaint_at = Some(at);
        }
    }

    /// The UI: the app's panels first, then the 3D view takes what they leave.
    fn run_ui(&mut self, w: &mut WindowState) -> UiPass {
        let raw = w.input.take_egui_input(&w.window);
        let mut intents = Vec::new();
        let mut central = egui::Rect::NOTHING;
        let mut nav = Navigation::default();
        self.app.set_view_projection(w.stage.view_projection(&self.app));
        let app = &mut self.app;
        let mut full = self.egui.run_pass(raw, |ctx| {
            intents = app.ui(ctx);
            // Keys (F frames, Ctrl+O opens, …) are the app's shortcut table's: they arrive as intents.
            (central, nav) = ctx.root_ui(navigate::central_view);
        });
        if let Some(at) = nav.click {
            self.app.pick_at(at);
        }
        self.app.hover_at(nav.hover);
        w.input.handle_platform_output(&w.window, full.platform_output);
        let delta = std::mem::take(&mut full.textures_delta);
        let ppp = full.pixels_per_point;
        let size = w.gpu.size();
        let repaint_delay =
            full.viewport_output.get(&egui::ViewportId::ROOT).map_or(Duration::MAX, |v| v.repaint_delay);
        UiPass {
            ui: UiFrame {
                jobs: self.egui.tessellate(full.shapes, ppp),
                screen: egui_wgpu::ScreenDescriptor { size_in_pixels: [size.0, size.1], pixels_per_point: ppp },
            },
            delta,
            central,
            nav,
            intents,
            snap: None,
            pixels_per_point: ppp,
            repaint_delay,
        }
    }

    /// Performs the app's intents; returns whether the view is reset.
    fn perform(&mut self, event_loop: &ActiveEventLoop, w: &WindowState, pass: &mut UiPass) -> bool {
        let mut reset = false;
        for intent in std::mem::take(&mut pass.intents) {
            match intent {
                Intent::OpenDialog => self.open_dialog(),
                Intent::FrameModel => pass.nav.frame = true,
                Intent::ResetView => reset = true,
                Intent::SnapView { yaw, pitch } => pass.snap = Some((yaw, pitch)),
                Intent::Screenshot => self.screenshot_requested = true,
                Intent::ContactSheet => self.contact_sheet(w),
                Intent::RecordClip(format) => self.start_recording(w, format),
                Intent::CancelRecording => self.cancel_recording(),
                Intent::ExportGltf => self.export_dialog(),
                Intent::CompareDialog => self.compare_dialog(),
                Intent::Quit => event_loop.exit(),
            }
        }
        reset
    }

    /// Where the 3D views go in the window, in pixels: the central area the panels leave, or with Compare side
    /// by side the app's two halves of it.
    fn panes(&self, pass: &UiPass, size: (u32, u32)) -> Panes {
        let px = |r: egui::Rect| crate::view::pixel_rect(r, pass.pixels_per_point, size);
        match (self.app.view_rect(), self.app.reference_rect()) {
            (Some(model), Some(reference)) => Panes { model: px(model), reference: Some(px(reference)) },
            _ => Panes { model: px(pass.central), reference: None },
        }
    }

    /// Brings the 3D view in line with the documents ([`Stage::sync`]); a newly shown model gets the window's
    /// title and its files watched.
    fn sync_document(&mut self, w: &mut WindowState, rect: PixelRect) {
        let aspect = rect.width.max(1) as f32 / rect.height.max(1) as f32;
        let synced = w.stage.sync(&mut self.app, &w.gpu.renderer, aspect);
        if synced.uploaded {
            self.sync_watcher();
        }
        if synced.retitled {
            w.window.set_title(&self.title());
        }
    }

    /// The user's camera moves: reset, frame (F) and navigation.
    fn aim(&mut self, w: &mut WindowState, pass: &UiPass, rect: PixelRect, reset: bool) {
        let aspect = rect.width.max(1) as f32 / rect.height.max(1) as f32;
        w.stage.aim(&self.app, pass.snap, reset, &pass.nav, aspect, pass.central.height());
    }

    /// Draws the 3D view and egui over it and presents; a screenshot asked for is taken from the same frame.
    /// Returns whether the test hooks end the window now, or `None` when no surface texture could be had.
    fn draw(
        &mut self,
        event_loop: &ActiveEventLoop,
        w: &mut WindowState,
        pass: &mut UiPass,
        panes: Panes,
        started: Instant,
    ) -> Option<bool> {
        let mut encoder =
            w.gpu.renderer.device().create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        w.gpu.prepare_ui(&mut encoder, &pass.ui, &mut pass.delta);
        // --report-timing's app work: this frame so far, and from after acquire to before submit.
        let mut app_work = started.elapsed();
        let Some(frame) = w.gpu.acquire() else {
            // No surface texture this time (occluded, timed out): keep egui's uploads and try again.
            w.gpu.renderer.queue().submit([encoder.finish()]);
            w.gpu.finish_ui(&mut pass.delta);
            self.repaint_at = Some(Instant::now() + Duration::from_millis(100));
            return None;
        };
        let after_acquire = Instant::now();
        w.stage.prepare(&self.app, &w.gpu.renderer, (panes.model.width, panes.model.height));
        let scene = w.stage.scene().map(|(m, v)| (m, v, panes));
        let target = frame.texture.create_view(&wgpu::TextureViewDescriptor::default());
        let clear = BACKGROUND.clear_color();
        w.gpu.draw(&mut encoder, &target, clear, scene, Some(&pass.ui));
        let encoded = encoder.finish();
        app_work += after_acquire.elapsed();
        w.gpu.renderer.queue().submit([encoded]);
        if std::mem::take(&mut self.screenshot_requested) {
            self.save_screenshot(w, panes);
        }
        w.window.pre_present_notify();
        w.gpu.renderer.queue().present(frame);
        let a = &w.gpu.adapter;
        let drawn_by = || format!("{} ({:?}, {:?}), {:?}", a.name, a.backend, a.device_type, w.gpu.format());
        let after = self.harness.presented(app_work, drawn_by);
        if let Some(path) = after.screenshot {
            // The test flags: save the last frame as the window shows it, then leave.
            let scene = w.stage.scene().map(|(m, v)| (m, v, panes));
            let saved = capture::capture(&w.gpu, clear, scene, Some(&pass.ui), None)
                .and_then(|i| crate::watch::save_png(&i, &path));
            if let Err(e) = saved {
                self.failure = Some(format!("--screenshot: {e}"));
            }
        }
        if after.exit {
            event_loop.exit();
        }
        w.gpu.finish_ui(&mut pass.delta);
        Some(after.exit)
    }

    /// F12: the 3D view as shown, saved as `<model>-<clip>-fNNN.png` in the current folder.
    fn save_screenshot(&mut self, w: &WindowState, panes: Panes) {
        let scene = w.stage.scene().map(|(m, v)| (m, v, panes));
        let stamp = self.app.settings().toggles.frame_in_screenshots;
        // Frame / last frame, then seconds, in the label font (digits and punctuation).
        let text = self.app.current_clip_frame().and_then(|(c, f)| {
            let clip = self.app.scene()?.clips.get(c)?;
            let last = clip.frame_count.saturating_sub(1);
            Some(format!("{f:.2}/{last} {:.3}", f / clip.fps(crate::scene::DEFAULT_FPS)))
        });
        let result = capture::capture(&w.gpu, BACKGROUND.clear_color(), scene, None, Some(panes.bounds())).and_then(
            |mut image| {
                if let (true, Some(text)) = (stamp, &text) {
                    capture::stamp(&mut image, text);
                }
                let clip = self.app.current_clip_frame().and_then(|(c, f)| {
                    self.app.scene().and_then(|s| s.clips.get(c)).map(|clip| (clip.name.clone(), f))
                });
                let name =
                    crate::view::screenshot_name(&self.model_name(), clip.as_ref().map(|(n, f)| (n.as_str(), *f)));
                let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
                let path = capture::unused_path(&dir, &name);
                crate::watch::save_png(&image, &path).map(|()| path)
            },
        );
        match result {
            Ok(path) => self.notify(format!("Saved {}", path.display())),
            Err(e) => self.notify(format!("Screenshot failed: {e}")),
        }
    }

    /// Keeps the watcher on the app's files and the shown model's textures (they change when files open,
    /// attach, detach or close, and when another model is shown).
    fn sync_watcher(&mut self) {
        let mut files = self.app.watched_files();
        files.extend(self.app.texture_files());
        // Memory folders (the demo's texture) never change.
        files.retain(|p| crate::vfs::on_disk(p));
        files.sort();
        files.dedup();
        if files == self.watched {
            return;
        }
        self.watched = files;
        if let Some(watcher) = &mut self.watcher
            && let Err(e) = watcher.set_files(&self.watched)
        {
            self.notify(e);
        }
    }

    /// Compare with…: a dialog for the file to compare the shown model with.
    fn compare_dialog(&mut self) {
        if self.dialog_open || self.app.scene().is_none() {
            return;
        }
        let start = self.app.model_dir().map(Path::to_path_buf);
        match dialog::spawn_compare_dialog(self.proxy.clone(), start) {
            Ok(()) => self.dialog_open = true,
            Err(e) => self.notify(format!("cannot show the Compare dialog: {e}")),
        }
    }

    fn open_dialog(&mut self) {
        if self.dialog_open {
            return;
        }
        let start = self.app.model_dir().map(Path::to_path_buf);
        match dialog::spawn_open_dialog(self.proxy.clone(), start) {
            Ok(()) => self.dialog_open = true,
            Err(e) => self.notify(format!("cannot show the Open dialog: {e}")),
        }
    }

    /// What a screen reader asks: the tree (egui starts building it every frame), an action on a widget (a
    /// click, a value, focus: handed to egui as input), or nothing more (egui stops building it).
    fn accesskit_event(&mut self, event: egui_winit::accesskit_winit::WindowEvent) {
        use egui_winit::accesskit_winit::WindowEvent as A;
        let Some(w) = self.window.as_mut() else { return };
        match event {
            A::InitialTreeRequested => self.egui.enable_accesskit(),
            A::ActionRequested(request) => w.input.on_accesskit_action_request(request),
            A::AccessibilityDeactivated => self.egui.disable_accesskit(),
        }
        w.window.request_redraw();
    }

    /// Watched files changed on disk: the app rebuilds what it must (a model, an attachment, textures) and
    /// says so through its view changes.
    fn files_changed(&mut self, paths: &[PathBuf]) {
        let reloaded = self.app.files_changed(paths);
        if !reloaded.is_empty() {
            let names: Vec<String> = reloaded
                .iter()
                .map(|n| Path::new(n).file_name().map_or(n.clone(), |f| f.to_string_lossy().into_owned()))
                .collect();
            self.notify(format!("Reloaded {}", names.join(", ")));
            self.harness.reloaded(&reloaded);
        }
        if let Some(w) = &self.window {
            w.window.request_redraw();
        }
    }
}

impl ApplicationHandler<UserEvent> for Viewer {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        match self.open_window(event_loop) {
            Ok(w) => {
                w.window.request_redraw();
                self.last_frame = Instant::now();
                self.window = Some(w);
            }
            Err(e) => {
                self.failure = Some(e);
                event_loop.exit();
            }
        }
    }

    fn user_event(&mut self, _event_loop: &ActiveEventLoop, event: UserEvent) {
        match event {
            UserEvent::DialogClosed(files) => {
                self.dialog_open = false;
                for file in &files {
                    self.open_path(file);
                }
                if let Some(w) = &self.window {
                    w.window.request_redraw();
                }
            }
            UserEvent::FilesChanged(paths) => self.files_changed(&paths),
            UserEvent::ExportTo(path) => {
                self.dialog_open = false;
                if let Some(path) = path {
                    self.start_export(&path);
                }
            }
            UserEvent::Exported(result) => self.export_done(result),
            UserEvent::AccessKit(event) => self.accesskit_event(event.window_event),
            UserEvent::CompareWith(path) => {
                self.dialog_open = false;
                if let Some(path) = path {
                    self.app.compare_with_path(&path);
                }
                if let Some(w) = &self.window {
                    w.window.request_redraw();
                }
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(w) = self.window.as_mut() else { return };
        let response = w.input.on_window_event(&w.window, &event);
        // egui-winit asks to repaint after every RedrawRequested too; following that would never stop drawing.
        // The frame itself decides when to draw next.
        if response.repaint && !matches!(event, WindowEvent::RedrawRequested) {
            w.window.request_redraw();
        }
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                w.gpu.resize(size.width, size.height);
                w.window.request_redraw();
            }
            WindowEvent::DroppedFile(path) => self.open_path(&path),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        // A recording cut short by quitting leaves no half-written file.
        self.cancel_recording();
        let window = self.window.as_ref().map(|w| w.window.as_ref());
        if let Some(e) = self.persist.exit(&self.app, &self.egui, window) {
            eprintln!("rigscope: {e}");
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        match self.repaint_at {
            Some(at) if at <= Instant::now() => {
                self.repaint_at = None;
                if let Some(w) = &self.window {
                    w.window.request_redraw();
                }
                event_loop.set_control_flow(ControlFlow::Wait);
            }
            Some(at) => event_loop.set_control_flow(ControlFlow::WaitUntil(at)),
            None => event_loop.set_control_flow(ControlFlow::Wait),
        }
    }
}

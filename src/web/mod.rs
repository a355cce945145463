//! The web page (wasm32 only): the same [`App`] (sidebar, timeline, picking, notices) and the same 3D view
//! ([`Stage`], the shared renderer) as the desktop window, hosted by eframe's browser runner instead of winit.
//!
//! - eframe owns the canvas, DOM input, requestAnimationFrame, the egui painter and the browser's local storage;
//!   the GPU is WebGPU where the browser offers it, WebGL2 otherwise (chosen at run time by egui-wgpu).
//! - The 3D view is drawn into an offscreen texture the size of the central area, shown as an egui image under
//!   everything egui draws, as the window draws its 3D view under egui.
//! - `files.rs`: bytes in without paths (drops, the Open… picker, `?open=URL`), read asynchronously and mounted
//!   as a memory folder ([`crate::vfs`]) that the loaders read as they read a folder on disk; downloads out.
//! - `given.rs`: what the browser hands over beyond eframe's dropped files: dropped folders walked, File System
//!   Access handles (drops and the picker, Chromium) and their polling for hot reload.
//! - [`WebHandle`] is what `index.html` starts; its `status()` is the page tests' view of the app.
//!
//! Nothing here blocks, spawns a thread, reads `std::fs` or calls `std::time::Instant`: the browser allows none
//! of them (`clippy.toml`'s wasm32 rules keep it so).

mod files;
mod given;

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_time::Instant;

use crate::app::{App, Intent, Notice, Settings};
use crate::render::{ENCODED_FORMAT, EncodeSrgb, Offscreen, Panes, Renderer};
use crate::view::{BACKGROUND, Navigation, Stage, navigate};

/// The key the settings are kept under in the browser's local storage.
const SETTINGS_KEY: &str = "rigscope settings";
/// The colour format of the 3D view's texture: sRGB, so the colours are the desktop's whatever the canvas is.
const VIEW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
/// How long a notice of the page's own stays up.
const NOTICE_TIME: std::time::Duration = std::time::Duration::from_secs(4);

/// What the page's tests (and a curious user's console) can read of the running app: `status()` as JSON.
#[derive(Debug, Default, Clone, serde::Serialize)]
struct Status {
    /// "BrowserWebGpu" or "Gl", and the adapter's name.
    backend: String,
    adapter: String,
    /// Why the 3D view can't be drawn, when it can't.
    gpu_error: Option<String>,
    /// The shown model's name, the open documents, the clip and frame shown, whether it plays.
    model: String,
    documents: usize,
    clip: Option<usize>,
    frame: Option<f32>,
    playing: bool,
    /// Joints and vertices of the shown model.
    joints: usize,
    vertices: usize,
    /// Textures the shown model found and missed.
    textures: usize,
    missing_textures: usize,
    /// Something is picked (the Picked section has content).
    picked: bool,
    /// The notices and problems shown, newest last.
    notices: Vec<String>,
    /// Frames drawn with a model in the view, and milliseconds from the page's start to the first.
    frames_drawn: u64,
    first_frame_ms: Option<f64>,
    /// Milliseconds spent in the app's frame function since the start (the app, egui's layout, the 3D view's
    /// commands; not egui's painting): the page's frame-time benchmark reads it twice.
    work_ms: f64,
    /// File batches still being read.
    loading: usize,
    /// The 3D view's rectangle in CSS pixels: x, y, width, height.
    view: [f32; 4],
}

/// The page's handle on the app, made and started by `index.html`.
#[wasm_bindgen]
pub struct WebHandle {
    runner: eframe::WebRunner,
    status: Rc<RefCell<Status>>,
}

#[wasm_bindgen]
impl WebHandle {
    #[wasm_bindgen(constructor)]
    #[expect(clippy::new_without_default, reason = "wasm_bindgen constructors are called from JavaScript")]
    pub fn new() -> WebHandle {
        let _ = eframe::WebLogger::init(log::LevelFilter::Warn);
        WebHandle { runner: eframe::WebRunner::new(), status: Rc::default() }
    }

    /// Starts the app in `canvas`: GPU set up, then the demo model or the `?open=` files.
    pub async fn start(&self, canvas: web_sys::HtmlCanvasElement) -> Result<(), JsValue> {
        let status = self.status.clone();
        let options = eframe::WebOptions { wgpu_options: wgpu_options(), ..Default::default() };
        let creator = Box::new(move |cc: &eframe::CreationContext<'_>| {
            Ok(Box::new(WebApp::new(cc, status)) as Box<dyn eframe::App>)
        });
        self.runner.start(canvas.clone(), options, creator).await?;
        if let Some(mut web) = self.runner.app_mut::<WebApp>()
            && let Err(e) = web.files.listen_for_drops(&canvas)
        {
            // eframe's own listener still takes dropped files, without folders or handles.
            let text = format!("Folders can't be dropped here: {e:?}");
            web.app.add_notice(Notice::transient(text, NOTICE_TIME));
        }
        Ok(())
    }

    /// The app's state as JSON (see `Status`).
    pub fn status(&self) -> String {
        serde_json::to_string(&*self.status.borrow()).unwrap_or_default()
    }

    /// Stops playback and shows `frame` of the current clip (the page tests' still frames).
    pub fn pause_at(&self, frame: f32) {
        if let Some(mut web) = self.runner.app_mut::<WebApp>() {
            if web.app.player().playing {
                web.app.apply(crate::app::Action::TogglePlay);
            }
            web.app.apply(crate::app::Action::SetFrame(frame));
            web.files.repaint();
        }
    }

    /// Starts playback again.
    pub fn play(&self) {
        if let Some(mut web) = self.runner.app_mut::<WebApp>() {
            web.app.play();
            web.files.repaint();
        }
    }

    /// Whether the app has panicked (it stops then), and the panic's message.
    pub fn has_panicked(&self) -> bool {
        self.runner.has_panicked()
    }

    pub fn panic_message(&self) -> Option<String> {
        self.runner.panic_summary().map(|s| s.message())
    }
}

/// WebGPU first, WebGL2 when the browser has no WebGPU adapter; the device gets all the adapter's limits (egui's
/// default asks WebGL for 16 KiB uniform buffers where the browser has 64).
fn wgpu_options() -> egui_wgpu::WgpuConfiguration {
    let mut options = egui_wgpu::WgpuConfiguration::default();
    if let egui_wgpu::WgpuSetup::CreateNew(create) = &mut options.wgpu_setup {
        create.device_descriptor = std::sync::Arc::new(|adapter| wgpu::DeviceDescriptor {
            label: Some("rigscope page"),
            required_features: wgpu::Features::empty(),
            required_limits: adapter.limits(),
            ..Default::default()
        });
    }
    options
}

/// The GPU side of the page: the shared renderer and the 3D view, and the view's texture shown by egui.
struct Gpu {
    renderer: Renderer,
    stage: Stage,
    encode: EncodeSrgb,
    /// The view's textures, recreated when the view's size changes.
    target: Option<ViewTarget>,
    egui: std::sync::Arc<egui::mutex::RwLock<egui_wgpu::Renderer>>,
}

/// The 3D view's frame (drawn in sRGB) and the texture egui shows, holding the same picture as sRGB bytes read
/// as they are (egui blends in gamma space; [`EncodeSrgb`]).
struct ViewTarget {
    frame: Offscreen,
    shown: wgpu::Texture,
    shown_view: wgpu::TextureView,
    /// [`EncodeSrgb`]'s bind group reading `frame`.
    encode_group: wgpu::BindGroup,
    id: egui::TextureId,
}

struct WebApp {
    app: App,
    /// `None` when the adapter can't run the renderer (`Status::gpu_error` says why).
    gpu: Option<Gpu>,
    last_frame: Instant,
    files: files::Inbox,
    status: Rc<RefCell<Status>>,
    /// The settings as last saved, so unchanged ones aren't written again.
    saved: Option<String>,
}

impl WebApp {
    fn new(cc: &eframe::CreationContext<'_>, status: Rc<RefCell<Status>>) -> WebApp {
        let mut app = App::new();
        if let Some(text) = cc.storage.and_then(|s| s.get_string(SETTINGS_KEY)) {
            match Settings::from_json(&text) {
                Ok(settings) => app.apply_settings(&settings),
                Err(e) => {
                    app.add_notice(Notice::error(format!("the saved settings are unreadable ({e}); defaults used")))
                }
            }
        }
        // The start screen lists recent files and a folder to open, which a page has neither of; the demo shows.
        app.set_start_screen(false);
        let mut gpu = None;
        let mut st = Status::default();
        match cc.wgpu_render_state.as_ref() {
            Some(rs) => {
                let info = rs.adapter.get_info();
                st.backend = format!("{:?}", info.backend);
                st.adapter = info.name.clone();
                match crate::render::check_adapter(&rs.adapter) {
                    Ok(()) => {
                        let samples = crate::render::choose_sample_count(&rs.adapter, VIEW_FORMAT);
                        let renderer = Renderer::new(rs.device.clone(), rs.queue.clone(), VIEW_FORMAT, samples);
                        let stage = Stage::new(&renderer, 1.5);
                        let encode = EncodeSrgb::new(&renderer);
                        gpu = Some(Gpu { renderer, stage, encode, target: None, egui: rs.renderer.clone() });
                    }
                    Err(e) => st.gpu_error = Some(e),
                }
            }
            None => st.gpu_error = Some("the browser gave no WebGPU or WebGL2 device".to_string()),
        }
        if let Some(e) = &st.gpu_error {
            app.add_notice(Notice::error(format!("The 3D view can't be drawn here: {e}")));
        }
        *status.borrow_mut() = st;
        let files = files::Inbox::new(cc.egui_ctx.clone());
        let urls = files::open_urls();
        if urls.is_empty() {
            app.open_demo();
        } else {
            files.fetch(urls);
        }
        files.fetch_cjk_font();
        // A viewer opens moving, as the window does.
        app.play();
        WebApp { app, gpu, last_frame: Instant::now(), files, status, saved: None }
    }

    /// Performs the app's intents; returns whether the view is reset, and the gizmo's angles when clicked.
    fn perform(&mut self, intents: Vec<Intent>, nav: &mut Navigation) -> (bool, Option<(i16, i16)>) {
        let (mut reset, mut snap) = (false, None);
        for intent in intents {
            match intent {
                Intent::OpenDialog => self.files.pick(files::Purpose::Open),
                Intent::CompareDialog => self.files.pick(files::Purpose::Compare),
                Intent::FrameModel => nav.frame = true,
                Intent::ResetView => reset = true,
                Intent::SnapView { yaw, pitch } => snap = Some((yaw, pitch)),
                Intent::ExportGltf => self.export_gltf(),
                Intent::Screenshot => self.screenshot(),
                Intent::ContactSheet | Intent::RecordClip(_) | Intent::CancelRecording => {
                    let text = "Contact sheets and recordings are desktop-only for now: \
                                `rigscope render --sheet` or `--gif` makes them";
                    self.app.add_notice(Notice::transient(text.to_string(), NOTICE_TIME));
                }
                // A page isn't quit; the browser's tab is closed.
                Intent::Quit => {}
            }
        }
        (reset, snap)
    }

    /// Export glTF…: the shown model and its motions as a .glb, downloaded.
    fn export_gltf(&mut self) {
        let Some(scene) = self.app.scene().filter(|s| !s.is_animation_only()).cloned() else {
            return self.app.add_notice(Notice::transient("Nothing to export: open a model first".into(), NOTICE_TIME));
        };
        let name = self.model_name();
        let dir = self.app.model_dir().map(std::path::Path::to_path_buf);
        let exported = crate::convert::encode_gltf(
            scene,
            dir.as_deref(),
            crate::convert::Container::Glb,
            crate::convert::GltfExport::default(),
        );
        let text = match exported {
            Ok((file, notes)) => {
                let mut bytes = file.head;
                bytes.extend_from_slice(&file.body);
                let size = bytes.len();
                match files::download(&format!("{name}.glb"), &bytes, "model/gltf-binary") {
                    Ok(()) => format!("Downloaded {name}.glb, {:.1} MB ({} note(s))", size as f64 / 1e6, notes.len()),
                    Err(e) => format!("Export failed: {e}"),
                }
            }
            Err(e) => format!("Export failed: {e}"),
        };
        self.app.add_notice(Notice::transient(text, NOTICE_TIME));
    }

    /// F12: the 3D view as shown, downloaded as a PNG (read back asynchronously).
    fn screenshot(&mut self) {
        let Some(gpu) = &self.gpu else { return };
        let Some(target) = &gpu.target else { return };
        let clip = self.clip_and_frame();
        let name = crate::view::screenshot_name(&self.model_name(), clip.as_ref().map(|(n, f)| (n.as_str(), *f)));
        files::download_texture(&gpu.renderer, &target.shown, target.frame.size, name);
    }

    fn clip_and_frame(&self) -> Option<(String, f32)> {
        let (c, f) = self.app.current_clip_frame()?;
        Some((self.app.scene()?.clips.get(c)?.name.clone(), f))
    }

    fn model_name(&self) -> String {
        self.app
            .model()
            .and_then(|m| std::path::Path::new(&m.name).file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "model".to_string())
    }

    /// Draws the 3D view for this frame into the view's texture (made or resized to `size` pixels; with Compare
    /// side by side, both views inside their `panes` of it) and returns the texture to show, or `None` without a
    /// model.
    fn draw_view(&mut self, size: (u32, u32), panes: Option<Panes>) -> Option<egui::TextureId> {
        let gpu = self.gpu.as_mut()?;
        let view_size = panes.map_or(size, |p| (p.model.width, p.model.height));
        if !gpu.stage.prepare(&self.app, &gpu.renderer, view_size) {
            return None;
        }
        let (model, view) = gpu.stage.scene()?;
        if gpu.target.as_ref().is_none_or(|t| t.frame.size != size) {
            let id = gpu.target.take().map(|t| t.id);
            gpu.target = Some(ViewTarget::new(&gpu.renderer, &gpu.encode, &gpu.egui, size, id));
        }
        let target = gpu.target.as_ref()?;
        let device = gpu.renderer.device();
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("page 3D view") });
        let clear = BACKGROUND.clear_color();
        gpu.renderer.paint_frame(&mut encoder, &target.frame.targets(), clear, model, view, panes);
        gpu.encode.record(&mut encoder, &target.encode_group, &target.shown_view);
        gpu.renderer.queue().submit([encoder.finish()]);
        Some(target.id)
    }

    fn update_status(&self) {
        let mut st = self.status.borrow_mut();
        let doc = self.app.document();
        st.model = self.app.model().map(|m| m.name.clone()).unwrap_or_default();
        st.documents = self.app.documents().len();
        (st.clip, st.frame) = self.app.current_clip_frame().map_or((None, None), |(c, f)| (Some(c), Some(f)));
        st.playing = self.app.player().playing;
        st.joints = self.app.scene().map_or(0, |s| s.skeleton.len());
        st.vertices = self.app.scene().map_or(0, |s| s.vertices.len());
        let textures = doc.and_then(|d| d.textures());
        st.textures = textures.map_or(0, |t| t.images().len());
        st.missing_textures = textures.map_or(0, |t| t.problems().len());
        st.picked = self.app.picked().is_some();
        st.notices = self.app.notices().iter().map(|n| n.message.clone()).collect();
        st.notices.extend(self.app.problems().iter().map(|p| p.message.clone()));
        st.loading = self.files.pending();
        st.view = self.app.view_rect().map_or([0.0; 4], |r| [r.min.x, r.min.y, r.width(), r.height()]);
    }

    /// Saves the settings to local storage when they changed.
    fn save_settings(&mut self, storage: &mut dyn eframe::Storage) {
        let text = self.app.settings().to_json();
        if self.saved.as_deref() != Some(text.as_str()) {
            storage.set_string(SETTINGS_KEY, text.clone());
            self.saved = Some(text);
        }
    }
}

impl ViewTarget {
    /// Textures of `size` for the view, shown under egui texture `id` when there was one (resized), else under a
    /// new one.
    fn new(
        renderer: &Renderer,
        encode: &EncodeSrgb,
        egui: &egui::mutex::RwLock<egui_wgpu::Renderer>,
        size: (u32, u32),
        id: Option<egui::TextureId>,
    ) -> ViewTarget {
        let frame = Offscreen::new(renderer, size, wgpu::TextureUsages::TEXTURE_BINDING);
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC;
        let shown = crate::render::texture_2d(renderer.device(), "page view", size, ENCODED_FORMAT, 1, usage);
        let shown_view = shown.create_view(&wgpu::TextureViewDescriptor::default());
        let device = renderer.device();
        let mut egui = egui.write();
        let id = match id {
            Some(id) => {
                egui.update_egui_texture_from_wgpu_texture(device, &shown_view, wgpu::FilterMode::Nearest, id);
                id
            }
            None => egui.register_native_texture(device, &shown_view, wgpu::FilterMode::Nearest),
        };
        let encode_group = encode.bind(renderer, &frame.resolve);
        ViewTarget { frame, shown, shown_view, encode_group, id }
    }
}

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let started = files::page_time_ms();
        self.frame(ui);
        self.status.borrow_mut().work_ms += files::page_time_ms() - started;
    }

    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.save_settings(storage);
    }

    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        let c = BACKGROUND.clear_color();
        [c.r as f32, c.g as f32, c.b as f32, 1.0]
    }
}

impl WebApp {
    /// One frame: the app advanced, files taken in, the UI laid out, the 3D view drawn.
    fn frame(&mut self, ui: &mut egui::Ui) {
        let now = Instant::now();
        let dt = now.saturating_duration_since(self.last_frame).as_secs_f32().min(0.25);
        self.last_frame = now;
        let animating = self.app.update(dt);
        self.files.take_into(&mut self.app, ui.ctx());
        self.files.reload_changed(&mut self.app);
        self.files.read_drops(ui.ctx().input(|i| i.raw.dropped_files.clone()));
        // The 3D view goes under everything egui draws: its place is taken now, filled once the panels are laid out.
        let under = ui.painter().add(egui::Shape::Noop);
        if let Some(gpu) = &self.gpu {
            self.app.set_view_projection(gpu.stage.view_projection(&self.app));
        }
        let intents = self.app.show(ui);
        let (central, mut nav) = navigate::central_view(ui);
        if let Some(at) = nav.click {
            self.app.pick_at(at);
        }
        self.app.hover_at(nav.hover);
        let (reset, snap) = self.perform(intents, &mut nav);
        let ppp = ui.ctx().pixels_per_point();
        let size = ((central.width() * ppp).round().max(1.0) as u32, (central.height() * ppp).round().max(1.0) as u32);
        // Compare side by side: the app's two halves of the central area, in the view texture's pixels.
        let panes = self.app.view_rect().zip(self.app.reference_rect()).map(|(model, reference)| {
            let px = |r: egui::Rect| crate::view::pixel_rect(r.translate(-central.min.to_vec2()), ppp, size);
            Panes { model: px(model), reference: Some(px(reference)) }
        });
        let view = panes.map_or(size, |p| (p.model.width.max(1), p.model.height.max(1)));
        let aspect = view.0 as f32 / view.1 as f32;
        if let Some(gpu) = &mut self.gpu {
            gpu.stage.sync(&mut self.app, &gpu.renderer, aspect);
            gpu.stage.aim(&self.app, snap, reset, &nav, aspect, central.height());
        }
        if let Some(id) = self.draw_view(size, panes) {
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            ui.painter().set(under, egui::Shape::image(id, central, uv, egui::Color32::WHITE));
            let mut st = self.status.borrow_mut();
            st.frames_drawn += 1;
            if st.first_frame_ms.is_none() {
                st.first_frame_ms = Some(files::page_time_ms());
            }
        }
        self.update_status();
        if animating || self.files.pending() > 0 {
            ui.ctx().request_repaint();
        } else if let Some(wait) = self.app.hover_pending() {
            ui.ctx().request_repaint_after(wait);
        }
    }
}

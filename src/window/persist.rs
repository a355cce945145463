//! The settings file in the window: loaded before anything is opened, applied to the app, egui's memory and the
//! window's size; saved when what is remembered changes (looked at about once a second) and when the window
//! closes. Nothing is written until something differs from the file as loaded (egui's own first-frame
//! memory aside), so a corrupt file stays as it is (and its notice says so) until something changes.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use winit::window::Window;

use crate::app::settings::{Loaded, WindowGeometry, memory_to_json, restore_memory};
use crate::app::{App, Settings};

/// How often the window looks for changes to save.
const CHECK_EVERY: Duration = Duration::from_secs(1);

pub struct Persist {
    /// `None` when no config folder can be found (nothing is saved then).
    path: Option<PathBuf>,
    /// The size the window should open at, and then its last size.
    geometry: Option<WindowGeometry>,
    /// The window's own size is recorded (not when `--window-size` set it).
    record_size: bool,
    /// The app's part of the settings as loaded, before any file was opened.
    loaded: Settings,
    /// The file's text as last written, or as loaded with the first frame's egui memory and window size (egui
    /// fills its memory in the first frame; that is no change of the user's); `None` before the first frame.
    baseline: Option<String>,
    next_check: Instant,
}

impl Persist {
    /// Reads the settings file (`Settings::default_path`) and applies it to `app` and `egui`. Returns the
    /// problem with the file, if any, for a notice.
    pub fn load(app: &mut App, egui: &egui::Context, record_size: bool) -> (Persist, Option<String>) {
        let path = Settings::default_path();
        let Loaded { settings, problem } =
            path.as_deref().map_or_else(|| Loaded { settings: Settings::default(), problem: None }, Settings::load);
        app.apply_settings(&settings);
        if let Some(memory) = &settings.egui_memory {
            egui.memory_mut(|m| restore_memory(m, memory));
        }
        let loaded = app.settings();
        let geometry = settings.window;
        let persist = Persist { path, geometry, record_size, loaded, baseline: None, next_check: Instant::now() };
        (persist, problem)
    }

    /// The remembered window size (logical) and whether it was maximized, when usable.
    pub fn window_geometry(&self) -> Option<WindowGeometry> {
        self.geometry.filter(|g| g.usable().is_some())
    }

    /// Notes the window's current size: the logical inner size while not maximized, the flag always.
    fn observe(&mut self, window: &Window) {
        if !self.record_size {
            return;
        }
        let maximized = window.is_maximized();
        let mut g = self.geometry.unwrap_or_default();
        if !maximized {
            let size = window.inner_size().to_logical::<f32>(window.scale_factor());
            (g.width, g.height) = (size.width, size.height);
        }
        g.maximized = maximized;
        self.geometry = Some(g);
    }

    fn snapshot(&self, app: &App, egui: &egui::Context) -> Settings {
        Settings { window: self.geometry, egui_memory: Some(egui.memory(memory_to_json)), ..app.settings() }
    }

    /// After each frame, at most once a second: saves when the settings differ from the baseline (the first
    /// frame sets it; files opened from the command line are then already a change). Returns a failure to save, for a notice (tried again only after the next change).
    pub fn tick(&mut self, app: &App, egui: &egui::Context, window: &Window) -> Option<String> {
        let now = Instant::now();
        if self.baseline.is_some() && now < self.next_check {
            return None;
        }
        self.next_check = now + CHECK_EVERY;
        self.observe(window);
        let settings = self.snapshot(app, egui);
        if self.baseline.is_none() {
            let loaded =
                Settings { window: settings.window, egui_memory: settings.egui_memory.clone(), ..self.loaded.clone() };
            self.baseline = Some(loaded.to_json());
        }
        self.save_if_changed(&settings)
    }

    /// When the window closes: saves what changed (nothing when no frame was drawn).
    pub fn exit(&mut self, app: &App, egui: &egui::Context, window: Option<&Window>) -> Option<String> {
        if let Some(w) = window {
            self.observe(w);
        }
        let settings = self.snapshot(app, egui);
        self.save_if_changed(&settings)
    }

    fn save_if_changed(&mut self, settings: &Settings) -> Option<String> {
        let text = settings.to_json();
        if self.baseline.as_ref().is_none_or(|b| *b == text) {
            return None;
        }
        let path = self.path.clone()?;
        self.baseline = Some(text);
        settings.save(&path).err().map(|e| format!("settings not saved to {}: {e}", path.display()))
    }
}

//! What the viewer remembers between runs: window size, egui's memory (panel widths, open sections), the view
//! toggles, playback speed, hot reload and the recent files. Kept as JSON in `settings.json` in the platform's
//! config folder (or the folder `RIGSCOPE_CONFIG_DIR` names). Every field has a default, so a file written by
//! an older or newer rigscope still loads; a file that can't be read at all gives the defaults and a notice.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ViewToggles;

/// The file name inside the config folder.
pub const SETTINGS_FILE: &str = "settings.json";
/// Overrides the config folder (tests, portable use).
pub const CONFIG_DIR_VAR: &str = "RIGSCOPE_CONFIG_DIR";
/// How many recent files are kept.
pub const MAX_RECENT: usize = 10;
/// Playback speed limits (the `[` and `]` keys halve and double within them).
pub const MIN_SPEED: f32 = 1.0 / 16.0;
pub const MAX_SPEED: f32 = 16.0;

/// The window's last size, in logical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowGeometry {
    pub width: f32,
    pub height: f32,
    pub maximized: bool,
}

impl Default for WindowGeometry {
    fn default() -> Self {
        WindowGeometry { width: 1200.0, height: 760.0, maximized: false }
    }
}

impl WindowGeometry {
    /// A size a window can take (finite, at least 200×150, at most 16384 a side); `None` otherwise.
    pub fn usable(&self) -> Option<(f32, f32)> {
        let ok = |v: f32, min: f32| v.is_finite() && (min..=16384.0).contains(&v);
        (ok(self.width, 200.0) && ok(self.height, 150.0)).then_some((self.width, self.height))
    }
}

/// Everything remembered. [`super::App::settings`] fills the app's part; the window adds `window` and `memory`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// `None` until a window has been closed once.
    pub window: Option<WindowGeometry>,
    /// egui's `Memory` (panel widths, open sections) as JSON, kept as a value so that a memory this egui can't
    /// read costs only the layout, not the rest of the settings.
    pub egui_memory: Option<serde_json::Value>,
    pub toggles: ViewToggles,
    /// Playback speed, 1 = the clip's own rate.
    pub speed: f32,
    /// Hot reload on.
    pub watch: bool,
    /// A model with clips, or a motion, opened or dropped starts playing from frame 0 (a reload keeps the play
    /// state). On by default.
    pub play_on_open: bool,
    /// Most recent first, absolute paths, at most [`MAX_RECENT`].
    pub recent: Vec<PathBuf>,
    /// Gravity, fixed step and warm-up of MMD physics.
    pub physics: crate::physics::PhysicsSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            window: None,
            egui_memory: None,
            toggles: ViewToggles::default(),
            speed: 1.0,
            watch: true,
            play_on_open: true,
            recent: Vec::new(),
            physics: crate::physics::PhysicsSettings::default(),
        }
    }
}

/// The result of [`Settings::load`].
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub settings: Settings,
    /// Set when the file exists but couldn't be read or parsed: names the file and the error.
    pub problem: Option<String>,
}

impl Settings {
    /// The settings file: `$RIGSCOPE_CONFIG_DIR/settings.json` when that is set (and not empty), otherwise in the
    /// platform's config folder (`~/.config/rigscope` on Linux). `None` when there is no home folder to find.
    /// (The desktop's: the web page keeps its settings in the browser's local storage, `src/web/`.)
    #[cfg(not(target_arch = "wasm32"))]
    pub fn default_path() -> Option<PathBuf> {
        match std::env::var_os(CONFIG_DIR_VAR) {
            Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir).join(SETTINGS_FILE)),
            _ => directories::ProjectDirs::from("", "", "rigscope").map(|d| d.config_dir().join(SETTINGS_FILE)),
        }
    }

    /// Reads `path`. A missing file gives the defaults silently; an unreadable or corrupt one gives the defaults
    /// and a problem naming the file and the error. Never panics.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn load(path: &Path) -> Loaded {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Loaded { settings: Settings::default(), problem: None };
            }
            Err(e) => return Loaded::broken(path, &e.to_string()),
        };
        match Settings::from_json(&text) {
            Ok(settings) => Loaded { settings, problem: None },
            Err(e) => Loaded::broken(path, &e),
        }
    }

    /// Settings from their JSON text (the file's, or the web page's local storage), brought inside what the
    /// viewer accepts.
    pub fn from_json(text: &str) -> Result<Settings, String> {
        serde_json::from_str::<Settings>(text).map(Settings::sanitized).map_err(|e| e.to_string())
    }

    /// Writes `path` atomically: a temporary file beside it, then a rename over it (the folder is created).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let name = path.file_name().map_or_else(|| SETTINGS_FILE.into(), |n| n.to_string_lossy().into_owned());
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let text = self.to_json();
        let written = std::fs::write(&tmp, text.as_bytes()).and_then(|()| std::fs::rename(&tmp, path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    /// The file's text (pretty JSON); also what the window compares to tell whether anything changed.
    pub fn to_json(&self) -> String {
        // Serializing plain data with string keys can't fail; an egui memory that somehow did would be dropped.
        serde_json::to_string_pretty(self).unwrap_or_else(|_| {
            let without = Settings { egui_memory: None, ..self.clone() };
            serde_json::to_string_pretty(&without).unwrap_or_default()
        })
    }

    /// Values from a file brought inside what the viewer accepts.
    fn sanitized(mut self) -> Settings {
        self.speed = clamp_speed(self.speed);
        self.toggles.follow_camera = false;
        self.toggles.clamp_counts();
        self.physics = self.physics.sanitized();
        let recent = std::mem::take(&mut self.recent);
        for p in recent.into_iter().rev() {
            push_recent(&mut self.recent, &p);
        }
        self
    }
}

impl Loaded {
    #[cfg(not(target_arch = "wasm32"))]
    fn broken(path: &Path, error: &str) -> Loaded {
        Loaded {
            settings: Settings::default(),
            problem: Some(format!("settings {}: {error}; using the defaults", path.display())),
        }
    }
}

/// The parts of egui's memory worth keeping as JSON: `data` (panel widths, open sections and other persisted
/// widget state) and `options` (zoom, theme). The rest (window positions, layer order) is keyed by structs,
/// which JSON can't key a map by, and is rebuilt in a frame anyway. A part that doesn't serialize is left out.
pub fn memory_to_json(memory: &egui::Memory) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    if let Ok(v) = serde_json::to_value(&memory.data) {
        map.insert("data".into(), v);
    }
    if let Ok(v) = serde_json::to_value(&memory.options) {
        map.insert("options".into(), v);
    }
    serde_json::Value::Object(map)
}

/// Puts what [`memory_to_json`] kept back into `memory`; a part this egui can't read is skipped.
pub fn restore_memory(memory: &mut egui::Memory, value: &serde_json::Value) {
    if let Some(data) = value.get("data").and_then(|v| serde_json::from_value(v.clone()).ok()) {
        memory.data = data;
    }
    if let Some(options) = value.get("options").and_then(|v| serde_json::from_value(v.clone()).ok()) {
        memory.options = options;
    }
}

/// A speed within [`MIN_SPEED`]..=[`MAX_SPEED`] (1 for anything not a positive finite number).
pub fn clamp_speed(speed: f32) -> f32 {
    if speed.is_finite() && speed > 0.0 { speed.clamp(MIN_SPEED, MAX_SPEED) } else { 1.0 }
}

/// The absolute form of `path` (symbolic links resolved when it exists), the key recent files are told apart by.
pub fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.to_path_buf())
}

/// Puts `path` (made absolute) first in `recent`, removing an older entry for the same file, keeping at most
/// [`MAX_RECENT`].
pub fn push_recent(recent: &mut Vec<PathBuf>, path: &Path) {
    let path = absolute(path);
    recent.retain(|p| *p != path);
    recent.insert(0, path);
    recent.truncate(MAX_RECENT);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rigscope-settings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn round_trips_and_saves_atomically() {
        let dir = temp_dir("round");
        let path = dir.join("sub").join(SETTINGS_FILE);
        assert_eq!(Settings::load(&path), Loaded { settings: Settings::default(), problem: None });
        let mut s = Settings {
            window: Some(WindowGeometry { width: 900.0, height: 600.0, maximized: true }),
            speed: 0.25,
            watch: false,
            play_on_open: false,
            recent: vec![dir.join("a.iqm"), dir.join("b.iqe")],
            ..Settings::default()
        };
        s.toggles.wireframe = true;
        s.toggles.onion_frames = 5;
        s.save(&path).unwrap();
        let names: Vec<_> =
            std::fs::read_dir(path.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from(SETTINGS_FILE)], "no temporary file is left behind");
        assert_eq!(Settings::load(&path), Loaded { settings: s, problem: None });
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unknown_and_missing_fields_load_and_values_are_sanitized() {
        let json = r#"{"speed": 1000, "future_field": [1, 2], "toggles": {"grid": false, "follow_camera": true,
                       "onion_frames": 0}, "recent": ["/x/a.iqm", "/x/b.iqm", "/x/a.iqm"]}"#;
        let s: Settings = serde_json::from_str::<Settings>(json).unwrap().sanitized();
        assert_eq!(s.speed, MAX_SPEED);
        assert!(!s.toggles.grid && s.toggles.mesh, "a missing toggle keeps its default");
        assert!(!s.toggles.follow_camera, "following a camera is not remembered");
        assert_eq!(s.toggles.onion_frames, 1);
        assert!(s.watch, "watching defaults to on");
        assert!(s.play_on_open, "a file from before the setting plays on open");
        assert_eq!(s.recent, vec![PathBuf::from("/x/a.iqm"), PathBuf::from("/x/b.iqm")]);
    }

    #[test]
    fn a_corrupt_file_gives_defaults_and_names_itself_and_is_left_alone() {
        let dir = temp_dir("corrupt");
        let path = dir.join(SETTINGS_FILE);
        std::fs::write(&path, "{\"speed\": 2,").unwrap();
        let loaded = Settings::load(&path);
        assert_eq!(loaded.settings, Settings::default());
        let problem = loaded.problem.expect("a problem");
        assert!(problem.contains(&path.display().to_string()) && problem.contains("EOF"), "{problem}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"speed\": 2,");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn recent_files_are_absolute_deduplicated_and_capped() {
        let mut recent = Vec::new();
        for i in 0..12 {
            push_recent(&mut recent, Path::new(&format!("/r/{i}.iqm")));
        }
        push_recent(&mut recent, Path::new("/r/5.iqm"));
        assert_eq!(recent.len(), MAX_RECENT);
        assert_eq!(recent[0], PathBuf::from("/r/5.iqm"));
        assert_eq!(recent[1], PathBuf::from("/r/11.iqm"));
        assert_eq!(recent.iter().filter(|p| **p == Path::new("/r/5.iqm")).count(), 1);
        assert!(!recent.contains(&PathBuf::from("/r/1.iqm")), "the oldest fall off");
        push_recent(&mut recent, Path::new("relative.iqm"));
        assert!(recent[0].is_absolute());
    }

    #[test]
    fn egui_memory_survives_json() {
        let ctx = egui::Context::default();
        for _ in 0..2 {
            let mut full = ctx.run_ui(egui::RawInput::default(), |ui| {
                egui::Panel::left("side").default_size(250.0).show(ui, |ui| {
                    egui::CollapsingHeader::new("section").default_open(false).show(ui, |ui| ui.label("x"));
                });
            });
            full.textures_delta.clear();
        }
        let value = ctx.memory(memory_to_json);
        assert!(value.get("data").is_some() && value.get("options").is_some(), "{value}");
        let text = serde_json::to_string(&value).unwrap();
        let mut fresh = egui::Memory::default();
        restore_memory(&mut fresh, &serde_json::from_str(&text).unwrap());
        // egui counts the times an element was read back ("generation"); the contents are what must survive.
        fn without_generations(v: &serde_json::Value) -> serde_json::Value {
            match v {
                serde_json::Value::Object(m) => m
                    .iter()
                    .filter(|(k, _)| *k != "generation")
                    .map(|(k, v)| (k.clone(), without_generations(v)))
                    .collect(),
                serde_json::Value::Array(a) => a.iter().map(without_generations).collect(),
                v => v.clone(),
            }
        }
        assert_eq!(without_generations(&memory_to_json(&fresh)), without_generations(&value));
        // The panel's width is in the data: a memory without it differs.
        assert_ne!(memory_to_json(&egui::Memory::default()), value);
    }
}

//! File > Export glTF…: the model shown, with its attached motions, written as `rigscope convert OUT.glb` writes
//! it (`convert::write_gltf`: the same bake, axes, textures and atomic writes). The save dialog and the export
//! each run on a thread of their own, so the window keeps drawing; the outcome arrives as a user event and is
//! shown as a notice.

use std::path::Path;

use super::{UserEvent, Viewer, dialog};
use crate::convert::{GltfExport, write_gltf};

impl Viewer {
    /// Shows the save dialog for the model shown (nothing without one).
    pub(super) fn export_dialog(&mut self) {
        if self.dialog_open {
            return;
        }
        if self.app.scene().is_none_or(|s| s.is_animation_only()) {
            self.notify("Nothing to export: open a model first".to_string());
            return;
        }
        let start = self.app.model_dir().map(Path::to_path_buf);
        let name = format!("{}.glb", self.model_name());
        match dialog::spawn_export_dialog(self.proxy.clone(), start, name) {
            Ok(()) => self.dialog_open = true,
            Err(e) => self.notify(format!("cannot show the Export dialog: {e}")),
        }
    }

    /// Exports the model shown to `path` on a thread of its own.
    pub(super) fn start_export(&mut self, path: &Path) {
        let Some(scene) = self.app.scene().filter(|s| !s.is_animation_only()).cloned() else {
            self.notify("Nothing to export: open a model first".to_string());
            return;
        };
        let dir = self.app.model_dir().map(Path::to_path_buf);
        let (path, proxy) = (path.to_path_buf(), self.proxy.clone());
        let shown = path.file_name().map_or(path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let work = move || {
            let result = write_gltf(scene, dir.as_deref(), &path, GltfExport::default())
                .map(|w| exported_text(&shown, &path, w.bytes, &w.notes))
                .map_err(|e| format!("Export failed: {e}"));
            let _ = proxy.send_event(UserEvent::Exported(result));
        };
        match std::thread::Builder::new().name("rigscope glTF export".into()).spawn(work) {
            Ok(_) => {
                self.harness.export_started();
                self.notify(format!("Exporting {}…", self.model_name()));
            }
            Err(e) => self.notify(format!("Export failed: cannot start a thread: {e}")),
        }
    }

    /// An export finished: say how it went.
    pub(super) fn export_done(&mut self, result: Result<String, String>) {
        self.harness.export_finished(&result);
        self.notify(result.unwrap_or_else(|e| e));
    }
}

/// The notice for a finished export: where it went, its size, and how many notes `convert` would print.
fn exported_text(shown: &str, path: &Path, bytes: usize, notes: &[String]) -> String {
    let folder = path.parent().map_or(String::new(), |p| format!(" in {}", p.display()));
    let notes = match notes.len() {
        0 => String::new(),
        n => format!(" ({n} note(s): `rigscope convert` prints them)"),
    };
    format!("Exported {shown}{folder}, {:.1} MB{notes}", bytes as f64 / 1e6)
}

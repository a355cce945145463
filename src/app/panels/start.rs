//! The start screen: over the view while the window shows the built-in demo (or nothing), the recent files to
//! open again, "Open…" and a way to dismiss it. Opening any file makes it go away.

use std::path::{Path, PathBuf};

use crate::app::actions::{Action, Intent};

/// The start screen's title (tests find it by this).
pub const TITLE: &str = "Start";

/// A recent file's button text: its name, and "(missing)" when it no longer exists.
pub fn entry_text(path: &Path) -> (String, bool) {
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    if path.exists() { (name, true) } else { (format!("{name} (missing)"), false) }
}

/// Draws the start screen; `visible` goes false when dismissed. `demo`: the demo is shown (else no model).
/// `view`: where the 3D view was last frame, whose top right corner it sits in.
pub fn screen(
    ctx: &egui::Context,
    (recent, view): (&[PathBuf], Option<egui::Rect>),
    demo: bool,
    visible: &mut bool,
    out: &mut Vec<Action>,
) {
    // Top right of the view (left of the Inspector): beside the model rather than on it.
    let offset = match view {
        Some(v) => egui::vec2(v.max.x - ctx.content_rect().max.x - 16.0, v.min.y + 8.0),
        None => egui::vec2(-16.0, 40.0),
    };
    egui::Window::new(TITLE).collapsible(false).resizable(false).anchor(egui::Align2::RIGHT_TOP, offset).show(
        ctx,
        |ui| {
            ui.set_min_width(320.0);
            ui.label(if demo {
                "This is the built-in demo, Pip. Open a model, or one you opened before:"
            } else {
                "No model is open. Open one, or one you opened before:"
            });
            ui.add_space(4.0);
            if recent.is_empty() {
                ui.weak("No recent files yet.");
            }
            for path in recent {
                let (text, exists) = entry_text(path);
                ui.horizontal(|ui| {
                    let button = ui.add_enabled(exists, egui::Button::new(text));
                    if button.on_hover_text(path.display().to_string()).clicked() {
                        out.push(Action::OpenRecent(path.clone()));
                    }
                    if let Some(dir) = path.parent() {
                        ui.weak(dir.display().to_string());
                    }
                });
            }
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button("Open…").clicked() {
                    out.push(Action::Window(Intent::OpenDialog));
                }
                if ui.button("Dismiss").clicked() {
                    *visible = false;
                }
            });
            ui.weak("F1 lists the keyboard shortcuts.");
        },
    );
}

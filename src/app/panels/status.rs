//! The status line along the window's bottom edge: the file shown, its clip, the frame, and the problem count
//! (a button that opens the Inspector's Problems tab).

use crate::app::actions::Action;
use crate::app::panels::inspector;

/// What the line says; `None` fields are left out.
pub struct Status<'a> {
    pub file: Option<&'a str>,
    /// The clip's name, its frame and its last frame.
    pub clip: Option<(&'a str, f32, f32)>,
    pub problems: usize,
}

pub fn line(ui: &mut egui::Ui, status: Status<'_>, out: &mut Vec<Action>) {
    egui::Panel::bottom("rigscope status").exact_size(22.0).show(ui, |ui| {
        ui.horizontal_centered(|ui| {
            match status.file {
                Some(f) => {
                    let name = std::path::Path::new(f).file_name().map_or(f.into(), |n| n.to_string_lossy());
                    ui.label(name).on_hover_text(f);
                }
                None => {
                    ui.weak("no model");
                }
            }
            if let Some((clip, frame, last)) = status.clip {
                ui.separator();
                ui.label(format!("clip {clip}"));
                ui.separator();
                ui.monospace(format!("frame {frame:.0} / {last:.0}"));
            }
            ui.separator();
            let text = match status.problems {
                0 => "no problems".to_string(),
                1 => "1 problem".to_string(),
                n => format!("{n} problems"),
            };
            if ui.add(egui::Button::new(text).frame(false)).on_hover_text("Show the Problems tab").clicked() {
                inspector::show_tab(ui.ctx(), inspector::Tab::Problems);
                out.push(Action::ShowPanel(crate::app::Toggle::Inspector));
            }
        });
    });
}

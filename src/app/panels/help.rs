//! The keyboard help overlay (F1 or `?`, Help > Keyboard shortcuts): every row of the shortcut table, grouped.

use crate::app::actions::Action;
use crate::app::shortcuts::{Group, table};

/// The overlay's title (tests find it by this).
pub const TITLE: &str = "Keyboard shortcuts";

/// Draws the overlay while `open`; its close button (or Escape, F1, `?`) asks to hide it.
pub fn overlay(ctx: &egui::Context, open: bool, out: &mut Vec<Action>) {
    if !open {
        return;
    }
    let mut still_open = true;
    egui::Window::new(TITLE)
        .open(&mut still_open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(ctx.content_rect().height() * 0.8).show(ui, |ui| {
                for group in Group::ALL {
                    ui.strong(group.title());
                    egui::Grid::new(("rigscope help", group.title())).num_columns(2).striped(true).show(ui, |ui| {
                        for s in table().iter().filter(|s| s.group == group) {
                            ui.monospace(s.text(ctx));
                            ui.label(s.description);
                            ui.end_row();
                        }
                    });
                    ui.add_space(6.0);
                }
                ui.weak("Escape or F1 closes this list. Keys are ignored while a text field has the keyboard.");
            });
        });
    if !still_open {
        out.push(Action::ToggleHelp);
    }
}

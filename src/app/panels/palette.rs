//! The command palette (Ctrl+K): every command by name with its key, found by typing part of its name; ↑ and
//! ↓ choose, Enter or a click runs it, Escape closes. The commands are the shortcut table's
//! (`shortcuts::table`), so it lists what F1 lists.

use crate::app::actions::Action;
use crate::app::filter::{Query, lower};
use crate::app::shortcuts::{Shortcut, table};

/// The window's title (tests find it by this).
pub const TITLE: &str = "Commands";

/// The palette's state: open or not, the text typed, the row chosen.
#[derive(Debug, Default)]
pub struct Palette {
    pub open: bool,
    pub text: String,
    pub chosen: usize,
}

impl Palette {
    pub fn toggle(&mut self) {
        self.open = !self.open;
        self.text.clear();
        self.chosen = 0;
    }
}

/// The commands whose name holds every word typed, in table order.
pub fn matching(text: &str) -> Vec<&'static Shortcut> {
    let query = Query::new(text);
    table()
        .iter()
        .enumerate()
        .filter(|(i, c)| query.matches(&[lower(c.description).as_str()], *i))
        .map(|(_, c)| c)
        .collect()
}

/// Draws the palette while open; the command run (with the playback `speed` for the speed keys) goes to `out`.
pub fn show(ctx: &egui::Context, palette: &mut Palette, speed: f32, out: &mut Vec<Action>) {
    if !palette.open {
        return;
    }
    let found = matching(&palette.text);
    let (up, down, enter, escape) = ctx.input_mut(|i| {
        (
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Escape),
        )
    });
    if down {
        palette.chosen = (palette.chosen + 1).min(found.len().saturating_sub(1));
    }
    if up {
        palette.chosen = palette.chosen.saturating_sub(1);
    }
    palette.chosen = palette.chosen.min(found.len().saturating_sub(1));
    let mut run: Option<&Shortcut> = enter.then(|| found.get(palette.chosen).copied()).flatten();
    let mut still_open = !escape;
    egui::Window::new(TITLE)
        .open(&mut still_open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
        .show(ctx, |ui| {
            let field = egui::TextEdit::singleline(&mut palette.text).hint_text("Type a command").desired_width(360.0);
            let r = ui.add(field);
            ui.ctx().accesskit_node_builder(r.id, |n| n.set_label("Command"));
            r.request_focus();
            if r.changed() {
                palette.chosen = 0;
            }
            egui::ScrollArea::vertical().max_height(ctx.content_rect().height() * 0.6).show(ui, |ui| {
                egui::Grid::new("rigscope palette").num_columns(2).show(ui, |ui| {
                    for (i, c) in found.iter().enumerate() {
                        let row = ui.selectable_label(i == palette.chosen, c.description);
                        if i == palette.chosen && (up || down) {
                            row.scroll_to_me(None);
                        }
                        if row.clicked() {
                            run = Some(c);
                        }
                        ui.weak(ctx.format_shortcut(&c.keys));
                        ui.end_row();
                    }
                });
                if found.is_empty() {
                    ui.weak("No command has those words.");
                }
            });
        });
    if let Some(c) = run {
        out.push(c.does.action(speed));
        still_open = false;
    }
    if !still_open {
        palette.toggle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_find_commands_by_name() {
        let names: Vec<&str> = matching("key next").iter().map(|c| c.description).collect();
        assert_eq!(names, ["Next key (of the selected joint)"]);
        assert!(matching("").len() == table().len());
        assert!(matching("export").iter().any(|c| c.description == "Export glTF…"));
        assert!(matching("zzzz").is_empty());
    }
}

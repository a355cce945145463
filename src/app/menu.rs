//! The top menu bar and the keyboard shortcuts.

use egui::{Key, KeyboardShortcut, Modifiers};

use super::{Action, Intent};

const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);

/// Space plays or pauses, Left/Right step a frame, Home/End jump to the ends, Ctrl+O opens, F frames the
/// model. Keys are consumed before any widget sees them (a focused button would take Space as a click), and
/// ignored while a text field has the keyboard.
pub fn shortcuts(ctx: &egui::Context, has_clip: bool) -> Vec<Action> {
    let mut out = Vec::new();
    if ctx.text_edit_focused() {
        return out;
    }
    ctx.input_mut(|i| {
        if i.consume_shortcut(&OPEN) {
            out.push(Action::Window(Intent::OpenDialog));
        }
        if i.consume_key(Modifiers::NONE, Key::F) {
            out.push(Action::Window(Intent::FrameModel));
        }
        if !has_clip {
            return;
        }
        let keys = [
            (Key::Space, Action::TogglePlay),
            (Key::ArrowLeft, Action::Step(-1)),
            (Key::ArrowRight, Action::Step(1)),
            (Key::Home, Action::JumpStart),
            (Key::End, Action::JumpEnd),
        ];
        for (key, action) in keys {
            // One action per press, key repeats included (holding an arrow scrubs).
            let n = i.count_and_consume_key(Modifiers::NONE, key);
            out.extend(std::iter::repeat_n(action, n));
        }
    });
    out
}

/// File and View menus. `follow`: `Some(on)` when an animated camera exists.
pub fn bar(ui: &mut egui::Ui, follow: Option<bool>) -> Vec<Action> {
    let mut out = Vec::new();
    let open_text = ui.ctx().format_shortcut(&OPEN);
    egui::Panel::top("rigscope menu").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.add(egui::Button::new("Open…").shortcut_text(open_text)).clicked() {
                    out.push(Action::Window(Intent::OpenDialog));
                }
                if ui.button("Quit").clicked() {
                    out.push(Action::Window(Intent::Quit));
                }
            });
            ui.menu_button("View", |ui| {
                if ui.add(egui::Button::new("Frame model").shortcut_text("F")).clicked() {
                    out.push(Action::Window(Intent::FrameModel));
                }
                if ui.button("Reset view").clicked() {
                    out.push(Action::Window(Intent::ResetView));
                }
                if ui.button("Screenshot").clicked() {
                    out.push(Action::Window(Intent::Screenshot));
                }
                if let Some(mut on) = follow
                    && ui.checkbox(&mut on, "Follow MVD camera").changed()
                {
                    out.push(Action::SetFollowCamera(on));
                }
            });
        });
    });
    out
}

//! The top menu bar and the keyboard shortcuts (the keys themselves are the table in `shortcuts.rs`; the menus
//! show the same key texts).

use std::path::PathBuf;

use crate::app::actions::{Action, Intent};
use crate::app::sections::toggles::{Toggle, ViewToggles};
use crate::app::shortcuts::{self, text_for};

/// The keys of [`shortcuts::table`] pressed this pass, as actions. Keys are consumed before any widget sees them
/// (a focused button would take Space as a click), and ignored while a text field has the keyboard; holding an
/// arrow counts its repeats (scrubbing). Playback keys act only with a clip (`has_clip`); `speed` is the current
/// playback speed (`[` and `]` halve and double it); with the help overlay open Escape closes it.
pub fn shortcuts(ctx: &egui::Context, has_clip: bool, speed: f32, help_open: bool) -> Vec<Action> {
    if ctx.text_edit_focused() {
        return Vec::new();
    }
    ctx.input_mut(|i| shortcuts::actions(i, has_clip, speed, help_open))
}

/// What the menus show besides their commands.
pub struct MenuState<'a> {
    /// `Some(on)` when an animated camera exists.
    pub follow: Option<bool>,
    pub toggles: &'a ViewToggles,
    /// Recent files, most recent first; "Clear recent files" empties it.
    pub recent: &'a mut Vec<PathBuf>,
}

/// The view switches the View menu lists, with their labels.
const VIEW_TOGGLES: [(Toggle, &str); 18] = [
    (Toggle::Outliner, "Outliner"),
    (Toggle::Inspector, "Inspector"),
    (Toggle::Timeline, "Timeline"),
    (Toggle::Grid, "Grid"),
    (Toggle::Skeleton, "Skeleton"),
    (Toggle::IkChains, "IK chains"),
    (Toggle::Outline, "Outlines (MMD edges)"),
    (Toggle::Wireframe, "Wireframe"),
    (Toggle::JointNames, "Joint names"),
    (Toggle::JointAxes, "Joint axes"),
    (Toggle::Weights, "Weight view"),
    (Toggle::Normals, "Normals"),
    (Toggle::Tangents, "Tangents"),
    (Toggle::UvChecker, "UV checker"),
    (Toggle::BindPose, "Bind pose"),
    (Toggle::Onion, "Onion skin"),
    (Toggle::Trail, "Motion trails of the selected joints"),
    (Toggle::CompareSideBySide, "Compare side by side"),
];

/// A menu command with its shortcut text from the table.
fn command(ui: &mut egui::Ui, label: &str, action: Action, out: &mut Vec<Action>) {
    let text = text_for(ui.ctx(), &action);
    if ui.add(egui::Button::new(label).shortcut_text(text)).clicked() {
        out.push(action);
    }
}

/// File, View and Help menus.
pub fn bar(ui: &mut egui::Ui, state: MenuState<'_>) -> Vec<Action> {
    let mut out = Vec::new();
    let MenuState { follow, toggles, recent } = state;
    egui::Panel::top("rigscope menu").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                command(ui, "Open…", Action::Window(Intent::OpenDialog), &mut out);
                ui.menu_button("Recent files", |ui| {
                    if recent.is_empty() {
                        ui.weak("none");
                    }
                    for path in recent.iter() {
                        let (text, exists) = crate::app::panels::start::entry_text(path);
                        let button = ui.add_enabled(exists, egui::Button::new(text));
                        if button.on_hover_text(path.display().to_string()).clicked() {
                            out.push(Action::OpenRecent(path.clone()));
                        }
                    }
                    ui.separator();
                    if ui.add_enabled(!recent.is_empty(), egui::Button::new("Clear recent files")).clicked() {
                        recent.clear();
                    }
                });
                ui.separator();
                command(ui, "Screenshot", Action::Window(Intent::Screenshot), &mut out);
                command(ui, "Contact sheet", Action::Window(Intent::ContactSheet), &mut out);
                ui.menu_button("Record clip", |ui| {
                    use crate::render::record::AnimatedFormat;
                    command(ui, "As GIF…", Action::Window(Intent::RecordClip(AnimatedFormat::Gif)), &mut out);
                    command(ui, "As animated PNG…", Action::Window(Intent::RecordClip(AnimatedFormat::Apng)), &mut out);
                });
                command(ui, "Export glTF…", Action::Window(Intent::ExportGltf), &mut out);
                command(ui, "Compare with…", Action::Window(Intent::CompareDialog), &mut out);
                command(ui, "Copy pose as JSON", Action::CopyPose, &mut out);
                ui.separator();
                command(ui, "Close model", Action::CloseModel(usize::MAX), &mut out);
                command(ui, "Quit", Action::Window(Intent::Quit), &mut out);
            });
            ui.menu_button("View", |ui| {
                command(ui, "Frame selection", Action::Window(Intent::FrameModel), &mut out);
                command(ui, "Reset view", Action::Window(Intent::ResetView), &mut out);
                if let Some(mut on) = follow
                    && ui.checkbox(&mut on, "Follow MVD camera").changed()
                {
                    out.push(Action::SetFollowCamera(on));
                }
                ui.separator();
                let mut current = toggles.clone();
                for (toggle, label) in VIEW_TOGGLES {
                    let on = *current.get_mut(toggle);
                    let text = text_for(ui.ctx(), &Action::Toggle(toggle));
                    if ui.add(egui::Button::selectable(on, label).shortcut_text(text)).clicked() {
                        out.push(Action::Toggle(toggle));
                    }
                }
            });
            ui.menu_button("Help", |ui| {
                command(ui, crate::app::panels::help::TITLE, Action::ToggleHelp, &mut out);
                command(ui, "Command palette", Action::TogglePalette, &mut out);
            });
        });
    });
    out
}

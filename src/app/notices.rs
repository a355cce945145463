//! Notices (a dismissable banner over the view) and the sidebar's Problems list.

use super::{Action, Problem};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    Info,
    Error,
}

/// A message shown in the window until dismissed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub message: String,
}

impl Notice {
    pub fn info(message: String) -> Notice {
        Notice { kind: NoticeKind::Info, message }
    }

    pub fn error(message: String) -> Notice {
        Notice { kind: NoticeKind::Error, message }
    }
}

/// The notices, newest last, each with a Dismiss button, in a strip under the menu bar.
pub fn banner(ui: &mut egui::Ui, notices: &[Notice]) -> Vec<Action> {
    let mut out = Vec::new();
    if notices.is_empty() {
        return out;
    }
    egui::Panel::top("rigscope notices").show(ui, |ui| {
        for (i, n) in notices.iter().enumerate() {
            ui.horizontal(|ui| {
                if ui.small_button("Dismiss").clicked() {
                    out.push(Action::DismissNotice(i));
                }
                let (tag, color) = match n.kind {
                    NoticeKind::Error => ("Error:", ui.visuals().error_fg_color),
                    NoticeKind::Info => ("Note:", ui.visuals().text_color()),
                };
                ui.colored_label(color, tag);
                ui.label(&n.message);
            });
        }
    });
    out
}

/// Everything that failed since the last Clear.
pub fn problems_section(ui: &mut egui::Ui, problems: &[Problem], out: &mut Vec<Action>) {
    let title = format!("Problems ({})", problems.len());
    egui::CollapsingHeader::new(title).id_salt("problems").default_open(true).show(ui, |ui| {
        if problems.is_empty() {
            ui.weak("none");
            return;
        }
        for p in problems {
            ui.label(&p.message);
        }
        if ui.button("Clear problems").clicked() {
            out.push(Action::ClearProblems);
        }
    });
}

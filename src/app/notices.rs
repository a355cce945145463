//! Notices (a dismissable banner over the view) and the sidebar's Problems list.

use super::{Action, Problem};
use crate::check::{Finding, Severity};

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

/// Everything that failed since the last Clear, then what `check` finds in the open files, grouped by severity.
/// A finding that points at a frame or a joint is a button that shows it.
pub fn problems_section(ui: &mut egui::Ui, problems: &[Problem], findings: &[Finding], out: &mut Vec<Action>) {
    let title = format!("Problems ({})", problems.len() + findings.len());
    egui::CollapsingHeader::new(title).id_salt("problems").default_open(true).show(ui, |ui| {
        if problems.is_empty() && findings.is_empty() {
            ui.weak("none");
            return;
        }
        for p in problems {
            ui.label(&p.message);
        }
        if !problems.is_empty() && ui.button("Clear problems").clicked() {
            out.push(Action::ClearProblems);
        }
        for (severity, label) in [(Severity::Error, "Error findings"), (Severity::Warning, "Warning findings")] {
            let group: Vec<(usize, &Finding)> =
                findings.iter().enumerate().filter(|(_, f)| f.severity == severity).collect();
            if group.is_empty() {
                continue;
            }
            egui::CollapsingHeader::new(format!("{label} ({})", group.len())).id_salt(label).default_open(true).show(
                ui,
                |ui| {
                    for (i, f) in group {
                        let place = f.place.describe();
                        let text = if place.is_empty() {
                            format!("[{}] {}", f.rule, f.message)
                        } else {
                            format!("[{}] {place}: {}", f.rule, f.message)
                        };
                        if f.place.clip.is_some() || f.place.joint.is_some() {
                            if ui.link(text).on_hover_text("Show it").clicked() {
                                out.push(Action::GoToFinding(i));
                            }
                        } else {
                            ui.label(text);
                        }
                    }
                },
            );
        }
    });
}

//! Notices and problems, one system for the whole window: lasting notices (a dismissable banner over the view),
//! short-lived ones that go by themselves (a toast in the view's corner: "Saved …", "Reloaded …"), failed
//! reloads (one notice per file, taken down when the file loads again), and the Inspector's Problems tab.

use std::time::Duration;

use web_time::Instant;

use super::{Action, Problem};
use crate::check::{Finding, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    Info,
    Error,
}

/// A message shown in the window: until dismissed, or until `expires` for a short-lived one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub message: String,
    /// A short-lived notice goes by itself at this instant (and shows as a toast, not in the banner).
    pub expires: Option<Instant>,
}

impl Notice {
    pub fn info(message: String) -> Notice {
        Notice { kind: NoticeKind::Info, message, expires: None }
    }

    pub fn error(message: String) -> Notice {
        Notice { kind: NoticeKind::Error, message, expires: None }
    }

    /// An information that shows for `time`, then goes.
    pub fn transient(message: String, time: Duration) -> Notice {
        Notice { kind: NoticeKind::Info, message, expires: Instant::now().checked_add(time) }
    }
}

/// The notices, the problems and the failed reloads' notices by file.
#[derive(Debug, Default)]
pub(super) struct Notices {
    /// Oldest first; lasting and short-lived ones together (indices are what [`Action::DismissNotice`] takes).
    pub list: Vec<Notice>,
    /// Files that couldn't be opened or attached, since the last Clear.
    pub problems: Vec<Problem>,
    /// Failed reloads' notice texts, by file, taken down when that file reloads.
    reload_errors: Vec<(String, String)>,
}

impl Notices {
    pub fn push(&mut self, notice: Notice) {
        self.list.push(notice);
    }

    /// Records a failure as a problem and shows it as a notice.
    pub fn report(&mut self, message: String, file: Option<String>) {
        self.list.push(Notice::error(message.clone()));
        self.problems.push(Problem { message, file });
    }

    pub fn dismiss(&mut self, i: usize) {
        if i < self.list.len() {
            self.list.remove(i);
        }
    }

    /// A failed reload: a notice (replacing the file's previous one) and a problem.
    pub fn reload_failed(&mut self, file: &str, message: String) {
        self.clear_reload_errors(&[file.to_string()]);
        self.reload_errors.push((file.to_string(), message.clone()));
        self.report(message, Some(file.to_string()));
    }

    /// Takes down the failed-reload notices of `files`.
    pub fn clear_reload_errors(&mut self, files: &[String]) {
        let fixed: Vec<&String> =
            self.reload_errors.iter().filter(|(f, _)| files.contains(f)).map(|(_, m)| m).collect();
        self.list.retain(|n| !fixed.contains(&&n.message));
        self.reload_errors.retain(|(f, _)| !files.contains(f));
    }

    /// Drops the short-lived notices whose time is up; returns how long until the next one goes.
    pub fn expire(&mut self, now: Instant) -> Option<Duration> {
        self.list.retain(|n| n.expires.is_none_or(|t| t > now));
        self.list.iter().filter_map(|n| n.expires).min().map(|t| t.saturating_duration_since(now))
    }
}

/// The lasting notices, newest last, each with a Dismiss button, in a strip under the menu bar.
pub fn banner(ui: &mut egui::Ui, notices: &[Notice]) -> Vec<Action> {
    let mut out = Vec::new();
    if notices.iter().all(|n| n.expires.is_some()) {
        return out;
    }
    egui::Panel::top("rigscope notices").show(ui, |ui| {
        for (i, n) in notices.iter().enumerate().filter(|(_, n)| n.expires.is_none()) {
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

/// The short-lived notices, newest at the bottom, in the bottom right corner of the window.
pub fn toasts(ctx: &egui::Context, notices: &[Notice]) {
    let texts: Vec<&str> = notices.iter().filter(|n| n.expires.is_some()).map(|n| n.message.as_str()).collect();
    if texts.is_empty() {
        return;
    }
    egui::Area::new(egui::Id::unique("rigscope toasts"))
        .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-12.0, -12.0))
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                for text in texts {
                    ui.label(text);
                }
            });
        });
}

/// The Inspector's Problems tab: everything that failed since the last Clear, then what `check` finds in the
/// open files, grouped by severity. A finding that points at a frame, a joint, a mesh, a vertex or a rigid body is
/// a link that selects it and moves the playhead to its frame.
pub fn problems_list(ui: &mut egui::Ui, problems: &[Problem], findings: &[Finding], out: &mut Vec<Action>) {
    if problems.is_empty() && findings.is_empty() {
        ui.weak("No problems.");
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
                    let p = &f.place;
                    if p.clip.is_some()
                        || p.joint.is_some()
                        || p.mesh.is_some()
                        || p.vertex.is_some()
                        || p.body.is_some()
                    {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lived_notices_go_by_themselves_and_say_when_the_next_goes() {
        let mut n = Notices::default();
        n.push(Notice::error("stays".into()));
        n.push(Notice::transient("soon".into(), Duration::from_secs(4)));
        let now = Instant::now();
        let left = n.expire(now).unwrap();
        assert!(left <= Duration::from_secs(4) && left > Duration::from_secs(3), "{left:?}");
        assert_eq!(n.list.len(), 2);
        assert_eq!(n.expire(now + Duration::from_secs(5)), None);
        assert_eq!(n.list.iter().map(|n| n.message.as_str()).collect::<Vec<_>>(), ["stays"]);
    }

    #[test]
    fn a_failed_reload_replaces_its_files_notice_and_goes_when_the_file_loads() {
        let mut n = Notices::default();
        n.reload_failed("a.iqe", "a: first".into());
        n.reload_failed("a.iqe", "a: second".into());
        n.reload_failed("b.iqe", "b: broken".into());
        let texts = |n: &Notices| n.list.iter().map(|n| n.message.clone()).collect::<Vec<_>>();
        assert_eq!(texts(&n), ["a: second", "b: broken"]);
        assert_eq!(n.problems.len(), 3, "every failure is a problem");
        n.clear_reload_errors(&["a.iqe".to_string()]);
        assert_eq!(texts(&n), ["b: broken"]);
    }
}

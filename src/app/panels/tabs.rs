//! Several open models: the tab strip, and showing, cycling and closing documents.

use crate::app::App;
use crate::app::actions::{Action, ViewChange};

impl App {
    /// The open models' names in tab order, and which one is shown.
    pub fn tabs(&self) -> (Vec<String>, usize) {
        (self.documents.iter().map(|d| d.model.name.clone()).collect(), self.active)
    }

    /// Identifies the shown model for the window (which keys its GPU model and camera on it); 0 when none is
    /// open.
    pub fn document_id(&self) -> u64 {
        self.document().map_or(0, |d| d.id())
    }

    /// Shows open model `i`; a model whose files changed while it was hidden is re-read now.
    pub(in crate::app) fn select_model(&mut self, i: usize) {
        if i == self.active || i >= self.documents.len() {
            return;
        }
        self.show_document(i);
    }

    /// Makes document `i` the shown one (no checks).
    fn show_document(&mut self, i: usize) {
        self.active = i;
        self.chrome.report_open = None;
        self.toggles.follow_camera = false;
        self.revisions.model += 1;
        self.revisions.geometry += 1;
        let doc = &mut self.documents[i];
        if std::mem::take(&mut doc.stale) {
            // Its textures may have changed too: looked for again when drawn.
            doc.forget_textures();
            let keys: Vec<_> =
                doc.sources.iter().filter_map(|s| s.path.as_deref()).map(crate::watch::watch_key).collect();
            self.reload_shown(&keys);
        }
    }

    /// The next (`step` 1) or previous (−1) tab, wrapping.
    pub(in crate::app) fn cycle_model(&mut self, step: isize) {
        let n = self.documents.len();
        if n > 1 {
            let next = (self.active as isize + step).rem_euclid(n as isize) as usize;
            self.select_model(next);
        }
    }

    /// Closes tab `i` (`usize::MAX`: the shown one); the next tab (or the previous, at the end) is shown.
    pub(in crate::app) fn close_model(&mut self, i: usize) {
        let i = if i == usize::MAX { self.active } else { i };
        if i >= self.documents.len() {
            return;
        }
        let closed = self.documents.remove(i);
        self.changes.push(ViewChange::Closed(closed.id()));
        if i != self.active {
            if i < self.active {
                self.active -= 1;
            }
            return;
        }
        if self.documents.is_empty() {
            self.active = 0;
            self.chrome.report_open = None;
            self.toggles.follow_camera = false;
            self.revisions.model += 1;
            self.revisions.geometry += 1;
        } else {
            self.show_document(i.min(self.documents.len() - 1));
        }
    }
}

/// The tab strip, shown while more than one model is open: click a tab to show it, × to close it.
pub fn strip(ui: &mut egui::Ui, names: &[String], active: usize) -> Vec<Action> {
    let mut out = Vec::new();
    if names.len() < 2 {
        return out;
    }
    egui::Panel::top("rigscope tabs").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            for (i, name) in names.iter().enumerate() {
                let short =
                    std::path::Path::new(name).file_name().map_or(name.clone(), |f| f.to_string_lossy().into_owned());
                let tab = ui.selectable_label(i == active, short).on_hover_text(format!("{name}\nPage Up / Page Down"));
                if tab.clicked() {
                    out.push(Action::SelectModel(i));
                }
                if ui.small_button("×").on_hover_text(format!("Close {name}")).clicked() {
                    out.push(Action::CloseModel(i));
                }
                ui.separator();
            }
        });
    });
    out
}

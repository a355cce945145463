//! Several open models: the tab strip, and parking the shown model's state while another tab is shown.

use super::document::Parked;
use super::{Action, App};

impl App {
    /// The open models' names in tab order, and which one is shown.
    pub fn tabs(&self) -> (Vec<String>, usize) {
        let names = self
            .tabs
            .iter()
            .enumerate()
            .map(|(i, t)| match t {
                Some(p) => p.model.name.clone(),
                None if i == self.active => self.model.as_ref().map_or_else(String::new, |m| m.name.clone()),
                None => String::new(),
            })
            .collect();
        (names, self.active)
    }

    /// Identifies the shown model for the window (a camera per model); 0 when none is open.
    pub fn document_id(&self) -> u64 {
        if self.model.is_some() { self.document } else { 0 }
    }

    /// Bumps when a model is opened or a file attached (the window frames its camera then), not when a file
    /// reloads or a tab is shown again.
    pub fn framing_generation(&self) -> u64 {
        self.framing
    }

    /// The tab whose model was read from `key` (a [`crate::watch::watch_key`]).
    pub(super) fn tab_of(&self, key: &std::path::Path) -> Option<usize> {
        (0..self.tabs.len()).find(|&i| {
            let sources = match &self.tabs[i] {
                Some(p) => &p.sources,
                None if i == self.active => &self.sources,
                None => return false,
            };
            sources.first().is_some_and(|s| s.is_at(key))
        })
    }

    /// Moves the shown model's state into its tab slot (nothing is shown until [`App::unpark`]).
    pub(super) fn park(&mut self) {
        let Some(model) = self.model.take() else { return };
        let parked = Parked {
            id: self.document,
            model,
            sources: std::mem::take(&mut self.sources),
            player: std::mem::take(&mut self.player),
            selected_joint: self.selected_joint.take(),
            hidden_meshes: std::mem::take(&mut self.hidden_meshes),
            findings: std::mem::take(&mut self.findings),
            curve: self.curve.take(),
            mmd_axes: std::mem::take(&mut self.mmd_axes),
            follow_camera: std::mem::take(&mut self.toggles.follow_camera),
            reloads: std::mem::take(&mut self.reloads),
            last_reload: self.last_reload.take(),
            stale: false,
        };
        if let Some(slot) = self.tabs.get_mut(self.active) {
            *slot = Some(Box::new(parked));
        }
        self.report_open = None;
    }

    /// Shows tab `i`'s parked model (the shown one must have been parked first); a model whose files changed
    /// while it was parked is re-read now.
    fn unpark(&mut self, i: usize) {
        let Some(p) = self.tabs.get_mut(i).and_then(Option::take) else { return };
        let p = *p;
        self.active = i;
        self.document = p.id;
        self.model = Some(p.model);
        self.sources = p.sources;
        self.player = p.player;
        self.selected_joint = p.selected_joint;
        self.hidden_meshes = p.hidden_meshes;
        // The window's GPU copy is of another model now: uploaded again, textures looked for again.
        self.missing_textures = None;
        self.findings = p.findings;
        self.curve = p.curve;
        self.mmd_axes = p.mmd_axes;
        self.toggles.follow_camera = p.follow_camera;
        self.reloads = p.reloads;
        self.last_reload = p.last_reload;
        self.generation += 1;
        self.geometry += 1;
        if p.stale {
            let keys: Vec<_> =
                self.sources.iter().filter_map(|s| s.path.as_deref()).map(crate::watch::watch_key).collect();
            self.reload_shown(&keys);
        }
    }

    /// Shows open model `i`.
    pub(super) fn select_model(&mut self, i: usize) {
        if i == self.active || i >= self.tabs.len() {
            return;
        }
        self.park();
        self.unpark(i);
    }

    /// The next (`step` 1) or previous (−1) tab, wrapping.
    pub(super) fn cycle_model(&mut self, step: isize) {
        let n = self.tabs.len();
        if n > 1 {
            let next = (self.active as isize + step).rem_euclid(n as isize) as usize;
            self.select_model(next);
        }
    }

    /// Closes tab `i` (`usize::MAX`: the shown one); the next tab (or the previous, at the end) is shown.
    pub(super) fn close_model(&mut self, i: usize) {
        let i = if i == usize::MAX { self.active } else { i };
        if i >= self.tabs.len() {
            return;
        }
        if i != self.active {
            self.tabs.remove(i);
            if i < self.active {
                self.active -= 1;
            }
            return;
        }
        self.tabs.remove(i);
        self.model = None;
        self.sources.clear();
        self.findings.clear();
        self.report_open = None;
        self.player = Default::default();
        self.selected_joint = None;
        self.hidden_meshes.clear();
        self.missing_textures = None;
        self.curve = None;
        self.mmd_axes = false;
        self.toggles.follow_camera = false;
        self.generation += 1;
        self.geometry += 1;
        if self.tabs.is_empty() {
            self.active = 0;
        } else {
            self.unpark(i.min(self.tabs.len() - 1));
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

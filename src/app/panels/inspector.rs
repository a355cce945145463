//! The Inspector, on the right, in tabs: Selection (what is selected, `sections/selected.rs`), Display
//! (overlays, debug views, physics settings), Info (the file's facts and bounds) and Problems (with its count on
//! the tab). The tab shown is kept in egui's memory, so it is remembered with the panel's width.

use crate::app::App;
use crate::app::actions::Action;
use crate::app::panels::outliner::{remember_tab, remembered_tab, tab_strip};
use crate::app::sections::{bounds, file_info, physics, selected};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum Tab {
    #[default]
    Selection,
    Display,
    Info,
    Problems,
}

impl Tab {
    pub const ALL: [Tab; 4] = [Tab::Selection, Tab::Display, Tab::Info, Tab::Problems];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Selection => "Selection",
            Tab::Display => "Display",
            Tab::Info => "Info",
            Tab::Problems => "Problems",
        }
    }
}

const TAB_KEY: &str = "rigscope inspector tab";

/// The Inspector's tab shown.
pub fn shown_tab(ctx: &egui::Context) -> Tab {
    remembered_tab(ctx, TAB_KEY)
}

pub fn show_tab(ctx: &egui::Context, tab: Tab) {
    remember_tab(ctx, TAB_KEY, tab);
}

impl App {
    /// How many problems the Problems tab lists: files that failed, then `check`'s findings.
    pub fn problem_count(&self) -> usize {
        self.notices.problems.len() + self.findings().len()
    }

    /// The Inspector panel's contents: the tab strip, then the tab.
    pub(in crate::app) fn inspector(&mut self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let mut tab = shown_tab(ui.ctx());
        let before = tab;
        let count = self.problem_count();
        let tabs: Vec<(Tab, String)> = Tab::ALL
            .iter()
            .map(|&t| (t, if t == Tab::Problems { format!("Problems ({count})") } else { t.title().to_string() }))
            .collect();
        tab_strip(ui, &mut tab, &tabs);
        if tab != before {
            show_tab(ui.ctx(), tab);
        }
        ui.separator();
        egui::ScrollArea::vertical().id_salt(("inspector", tab)).auto_shrink([false, false]).show(ui, |ui| match tab {
            Tab::Selection => match self.document() {
                Some(doc) => selected::tab(ui, doc, self.picked(), actions),
                None => {
                    ui.weak("No model.");
                }
            },
            Tab::Display => {
                let has_camera = self.camera_track().is_some();
                let has_light = self.scene().is_some_and(|s| s.lights.iter().any(|t| !t.keys.is_empty()));
                let lit = self.light().is_some();
                if let Some(doc) = self.document() {
                    physics::section(ui, doc, &self.toggles, self.prefs.physics, actions);
                }
                let blended = self.scene().is_some_and(|s| s.vertices.blend.is_some());
                let looks = self.scene().and_then(|s| s.vrm.as_ref()).is_some_and(|v| v.look_at.is_some());
                self.toggles.ui(ui, (has_camera, has_light, lit, blended, looks), actions);
            }
            Tab::Info => {
                if let Some(doc) = self.documents.get_mut(self.active) {
                    file_info::section(ui, &mut doc.model);
                    // The computed box is filled by `refresh`, which sees whether this section was open.
                    let open = bounds::section(ui, doc, actions);
                    if open != self.chrome.bounds_open {
                        self.chrome.bounds_open = open;
                        ui.ctx().request_repaint();
                    }
                } else {
                    ui.weak("No model.");
                }
            }
            Tab::Problems => {
                crate::app::notices::problems_list(ui, &self.notices.problems, self.findings(), actions);
            }
        });
        // The bounds are computed only while their section shows.
        if tab != Tab::Info && self.chrome.bounds_open {
            self.chrome.bounds_open = false;
        }
    }
}

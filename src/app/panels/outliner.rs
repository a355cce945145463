//! The Outliner, on the left: what the model is made of, in tabs (Scene, Skeleton, Morphs, Physics), each
//! with a filter. Its state (the tab shown is remembered in egui's memory; the filters and folded rows for the
//! session) is its own; what it lists is drawn by the tab's section (`sections/`).

use std::collections::{HashMap, HashSet};

use crate::app::App;
use crate::app::actions::Action;
use crate::app::filter::{Chip, Filter};
use crate::app::sections::{animations, bodies, compare, files, meshes, morphs, mvd, nodes, skeleton};

/// The Outliner's tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum Tab {
    #[default]
    Scene,
    Skeleton,
    Morphs,
    Physics,
}

impl Tab {
    pub const ALL: [Tab; 4] = [Tab::Scene, Tab::Skeleton, Tab::Morphs, Tab::Physics];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Scene => "Scene",
            Tab::Skeleton => "Skeleton",
            Tab::Morphs => "Morphs",
            Tab::Physics => "Physics",
        }
    }
}

/// The Outliner's session state: each tab's filter, the rows folded in each document's trees, and a request to
/// put the keyboard in the shown tab's filter (Ctrl+F).
#[derive(Debug, Default)]
pub struct Outliner {
    pub filters: HashMap<Tab, Filter>,
    /// (document, tab, item) of folded tree rows.
    pub folded: HashSet<(u64, Tab, usize)>,
    pub focus_filter: bool,
}

/// The tab a panel shows, kept in egui's memory under `key` (persisted with the rest of it in the settings
/// file); the Outliner and the Inspector each keep theirs so.
pub fn remembered_tab<T>(ctx: &egui::Context, key: &'static str) -> T
where
    T: Copy + Default + serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
{
    ctx.data_mut(|d| *d.get_persisted_mut_or_default::<T>(egui::Id::unique(key)))
}

pub fn remember_tab<T>(ctx: &egui::Context, key: &'static str, tab: T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static + Clone,
{
    ctx.data_mut(|d| d.insert_persisted(egui::Id::unique(key), tab));
}

const TAB_KEY: &str = "rigscope outliner tab";

/// The Outliner's tab shown.
pub fn shown_tab(ctx: &egui::Context) -> Tab {
    remembered_tab(ctx, TAB_KEY)
}

pub fn show_tab(ctx: &egui::Context, tab: Tab) {
    remember_tab(ctx, TAB_KEY, tab);
}

/// A row of tabs: selectable labels that a screen reader reads as tabs (role Tab, selected or not).
pub fn tab_strip<T: Copy + PartialEq>(ui: &mut egui::Ui, current: &mut T, tabs: &[(T, String)]) {
    ui.horizontal_wrapped(|ui| {
        for (tab, title) in tabs {
            let on = *current == *tab;
            let r = ui.selectable_label(on, title.as_str());
            ui.ctx().accesskit_node_builder(r.id, |n| {
                n.set_role(egui::accesskit::Role::Tab);
                n.set_selected(on);
            });
            if r.clicked() {
                *current = *tab;
            }
        }
    });
}

/// A fold arrow (egui's own triangle, as a collapsing header draws it), named for screen readers; whether it
/// was clicked.
pub fn fold_arrow(ui: &mut egui::Ui, open: bool, name: &str) -> bool {
    // Square, as a collapsing header's: the triangle is drawn to the rect's size.
    let size = egui::Vec2::splat(ui.spacing().icon_width);
    let (_, response) = ui.allocate_exact_size(size, egui::Sense::click());
    let label = format!("{} {name}", if open { "Fold" } else { "Unfold" });
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
    egui::collapsing_header::paint_default_icon(ui, if open { 1.0 } else { 0.0 }, &response);
    response.clicked()
}

/// A list's scroll area, scrolled once to put `selected`'s row in the middle when the selection changed since
/// it last did (what it scrolled to is kept in egui's memory under `key`): a pick in the view, a finding or
/// another tab selects, and the list follows. `row`: where `selected` is in the list, if it is.
pub fn follow_selection(
    ui: &egui::Ui,
    key: impl std::hash::Hash + std::fmt::Debug,
    selected: Option<usize>,
    row: impl FnOnce(usize) -> Option<usize>,
    rows: usize,
) -> egui::ScrollArea {
    // Deep trees and long names scroll sideways rather than widen the panel.
    let area = egui::ScrollArea::both().id_salt(("outliner rows", &key)).auto_shrink([false, false]);
    let id = egui::Id::unique(("rigscope outliner scrolled to", key));
    let Some(s) = selected.filter(|&s| ui.data(|d| d.get_temp::<usize>(id)) != Some(s)) else { return area };
    ui.data_mut(|d| d.insert_temp(id, s));
    match row(s) {
        Some(r) => {
            let step = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
            area.vertical_scroll_offset(centre_row(r, rows, step, ui.available_height()))
        }
        None => area,
    }
}

/// The scroll offset that puts row `row` of rows `step` apart in the middle of a list `height` high, within
/// the list's `rows` (a list scrolled past its end would spring back over several frames).
fn centre_row(row: usize, rows: usize, step: f32, height: f32) -> f32 {
    let max = (rows as f32 * step - height).max(0.0);
    (row as f32 * step - height / 2.0).clamp(0.0, max)
}

/// A tab's filter field and its quick filters. The field takes the keyboard when `focus` (Ctrl+F); Escape in it
/// clears it.
pub fn filter_bar(ui: &mut egui::Ui, filter: &mut Filter, chips: &[Chip], focus: bool, hint: &str) {
    // The clear button at the right, the field in the rest: never wider than the panel.
    ui.horizontal(|ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| filter_field(ui, filter, focus, hint));
    });
    if chips.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for &chip in chips {
            if ui.selectable_label(filter.has(chip), chip.label()).on_hover_text(chip.hint()).clicked() {
                filter.flip(chip);
            }
        }
    });
}

/// The field and its clear button, laid out right to left.
fn filter_field(ui: &mut egui::Ui, filter: &mut Filter, focus: bool, hint: &str) {
    let clear = ui.add_enabled(!filter.text.is_empty(), egui::Button::new("×").small()).on_hover_text("Clear");
    ui.ctx().accesskit_node_builder(clear.id, |n| n.set_label("Clear filter"));
    if clear.clicked() {
        filter.text.clear();
    }
    let field = egui::TextEdit::singleline(&mut filter.text).hint_text(hint).desired_width(f32::INFINITY);
    let r = ui.add(field);
    ui.ctx().accesskit_node_builder(r.id, |n| n.set_label("Filter"));
    if focus {
        r.request_focus();
    }
    // The field gives up the keyboard on Escape as it reads it.
    if (r.has_focus() || r.lost_focus()) && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        filter.text.clear();
    }
}

impl App {
    /// The Outliner panel's contents: the tab strip, then the tab.
    pub(in crate::app) fn outliner(&mut self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let mut tab = shown_tab(ui.ctx());
        let before = tab;
        let tabs: Vec<(Tab, String)> = Tab::ALL.iter().map(|&t| (t, t.title().to_string())).collect();
        tab_strip(ui, &mut tab, &tabs);
        if tab != before {
            show_tab(ui.ctx(), tab);
        }
        ui.separator();
        let focus = std::mem::take(&mut self.chrome.outliner.focus_filter);
        let watch = (self.prefs.watch, self.prefs.play_on_open);
        let cjk_missing = self.chrome.cjk_font_missing.clone();
        let side_by_side = self.toggles.compare_side_by_side;
        let Some(doc) = self.documents.get(self.active) else {
            ui.label("No model: File > Open (Ctrl+O), or drop a file on the window.");
            return;
        };
        let state = &mut self.chrome.outliner;
        let filter = state.filters.entry(tab).or_default();
        match tab {
            Tab::Scene => {
                egui::ScrollArea::vertical().id_salt("scene tab").auto_shrink([false, false]).show(ui, |ui| {
                    filter_bar(ui, filter, &[], focus, "Filter meshes, materials, clips");
                    files::section(ui, doc, watch, actions);
                    compare::section(ui, doc, side_by_side, actions);
                    meshes::section(ui, doc, filter, actions);
                    animations::section(ui, doc, filter, actions);
                    mvd::section(ui, doc, actions);
                    nodes::section(ui, doc, actions);
                });
            }
            Tab::Skeleton => {
                let folded = &mut state.folded;
                skeleton::tab(ui, doc, filter, focus, folded, actions);
            }
            Tab::Morphs => {
                let folded = &mut state.folded;
                morphs::tab(ui, doc, filter, focus, folded, cjk_missing.as_deref(), actions);
            }
            Tab::Physics => bodies::tab(ui, doc, filter, focus, actions),
        }
    }
}

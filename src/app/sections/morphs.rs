//! The Outliner's Morphs tab: morphs, filtered by name (Japanese or English) or index, grouped by the model's
//! panels (eyebrow, eye, mouth, other, then system, folded): a slider each, and › to select one. Moving a
//! slider holds the morph at that weight in place of what the animation gives it; while it isn't held, the
//! slider shows the animation's weight as it plays. Group and flip morphs drive their members on top of this.

use std::collections::HashSet;

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::filter::{Chip, Filter};
use crate::app::panels::outliner::{Tab, filter_bar, fold_arrow, follow_selection};
use crate::scene::MorphPanel;

const PANELS: [(MorphPanel, &str); 5] = [
    (MorphPanel::Eyebrow, "Eyebrow"),
    (MorphPanel::Eye, "Eye"),
    (MorphPanel::Mouth, "Mouth"),
    (MorphPanel::Other, "Other"),
    (MorphPanel::System, "System"),
];

/// A row of the Morphs tab: a panel's heading, or a morph.
enum Row {
    Panel(MorphPanel, &'static str, usize),
    Morph(usize),
}

/// The Outliner's Morphs tab. `cjk_missing`: why Japanese names draw as boxes, when they do.
pub fn tab(
    ui: &mut egui::Ui,
    doc: &Document,
    filter: &mut Filter,
    focus: bool,
    folded: &mut HashSet<(u64, Tab, usize)>,
    cjk_missing: Option<&str>,
    out: &mut Vec<Action>,
) {
    let morphs = &doc.scene().morphs;
    if morphs.is_empty() {
        ui.weak("No morphs.");
        return;
    }
    if let Some(why) = cjk_missing {
        ui.weak(format!("{why}: install one (fonts-noto-cjk, fonts-ipafont) or set RIGSCOPE_CJK_FONT."));
    }
    let held = (0..morphs.len()).filter(|&i| doc.morph_weight(i).1).count();
    ui.horizontal(|ui| {
        ui.label(format!("{held} held by a slider"));
        if ui.add_enabled(held > 0, egui::Button::new("Reset all")).clicked() {
            out.push(Action::ResetMorphs);
        }
    });
    filter_bar(ui, filter, &Chip::MORPH, focus, "Filter morphs: name, English name, #index");
    let query = filter.query();
    let keyed = doc.current_clip_frame().map(|(c, _)| doc.clip_keys(c));
    let names = &doc.outline_facts().morph_lower;
    let hit = |i: usize| {
        query.matches(&[names[i][0].as_str(), names[i][1].as_str()], i)
            && (!filter.has(Chip::Keyed) || keyed.as_ref().is_some_and(|k| k.morphs.get(i).copied().unwrap_or(false)))
    };
    let filtering = filter.is_active();
    let id = doc.id();
    let mut rows = Vec::new();
    let mut matched = 0;
    for (k, (panel, title)) in PANELS.into_iter().enumerate() {
        let list: Vec<usize> =
            (0..morphs.len()).filter(|&i| morphs[i].panel == panel && (!filtering || hit(i))).collect();
        if list.is_empty() {
            continue;
        }
        matched += list.len();
        rows.push(Row::Panel(panel, title, list.len()));
        // The system panel (morphs MikuMikuDance hides) starts folded; while filtering every panel is open.
        let key = (id, Tab::Morphs, k);
        let open = filtering || (folded.contains(&key) == (panel == MorphPanel::System));
        if open {
            rows.extend(list.into_iter().map(Row::Morph));
        }
    }
    if filtering {
        ui.weak(format!("{matched} of {} morphs match", morphs.len()));
    }
    let row_height = ui.spacing().interact_size.y;
    let at = |m: usize| rows.iter().position(|r| matches!(*r, Row::Morph(x) if x == m));
    let area = follow_selection(ui, ("morphs", id), doc.selection.morph, at, rows.len());
    area.show_rows(ui, row_height, rows.len(), |ui, range| {
        for r in &rows[range] {
            match *r {
                Row::Panel(panel, title, n) => {
                    let k = PANELS.iter().position(|(p, _)| *p == panel).unwrap_or(0);
                    let key = (id, Tab::Morphs, k);
                    let open = filtering || (folded.contains(&key) == (panel == MorphPanel::System));
                    ui.horizontal(|ui| {
                        if fold_arrow(ui, open, title) && !filtering && !folded.remove(&key) {
                            folded.insert(key);
                        }
                        ui.strong(format!("{title} ({n})"));
                    });
                }
                Row::Morph(i) => {
                    ui.push_id(i, |ui| row(ui, doc, i, out));
                }
            }
        }
    });
}

/// One morph: its slider (0 to 1, typed values may go past), its kind, and a button that lets the animation
/// drive it again.
fn row(ui: &mut egui::Ui, doc: &Document, i: usize, out: &mut Vec<Action>) {
    let m = &doc.scene().morphs[i];
    let (mut weight, held) = doc.morph_weight(i);
    // The English name leads when there is one (Japanese names draw as boxes where no CJK font is installed).
    let label = if m.name_en.is_empty() { m.name.clone() } else { format!("{} ({})", m.name_en, m.name) };
    ui.horizontal(|ui| {
        let on = doc.selection.morph == Some(i);
        let select = ui.selectable_label(on, "›").on_hover_text("Select it: its facts in the Inspector");
        ui.ctx().accesskit_node_builder(select.id, |n| n.set_label(format!("Select {label}")));
        if select.clicked() {
            out.push(Action::SelectMorph(if on { None } else { Some(i) }));
        }
        let slider = egui::Slider::new(&mut weight, 0.0..=1.0).clamping(egui::SliderClamping::Edits).text(label);
        let response = ui.add(slider).on_hover_text(format!("{} morph, {} offsets", m.kind.label(), m.kind.len()));
        if response.changed() {
            out.push(Action::SetMorphWeight(i, Some(weight)));
        }
        if held && ui.small_button("×").on_hover_text("Let the animation drive it").clicked() {
            out.push(Action::SetMorphWeight(i, None));
        }
    });
}

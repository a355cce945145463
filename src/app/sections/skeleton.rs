//! The Outliner's Skeleton tab: the joint tree, filtered by name (Japanese or English) or index and by quick
//! filters, with IK goals, targets and links, appended joints and bodies marked on their rows; above it the IK
//! chains' switches and the display frames. Only the rows in view are drawn; what grows with the skeleton each
//! frame is the flat list of rows, a pass over the joints (`benches/ui.rs` measures 5 000).

use std::collections::HashSet;

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::document::outline::OutlineFacts;
use crate::app::filter::{Chip, Filter, TreeRow, tree_rows};
use crate::app::panels::outliner::{Tab, filter_bar, fold_arrow, follow_selection};
use crate::app::sections::{display_frames, ik};

pub fn tab(
    ui: &mut egui::Ui,
    doc: &Document,
    filter: &mut Filter,
    focus: bool,
    folded: &mut HashSet<(u64, Tab, usize)>,
    out: &mut Vec<Action>,
) {
    let sk = &doc.scene().skeleton;
    if sk.is_empty() {
        ui.weak("No skeleton.");
        return;
    }
    ik::section(ui, doc, out);
    display_frames::section(ui, doc, out);
    filter_bar(ui, filter, &Chip::JOINT, focus, "Filter joints: name, English name, #index");
    let facts = doc.outline_facts();
    let hits = hits(doc, &facts, filter);
    let id = doc.id();
    let rows = tree_rows(&facts.order, &facts.parents, hits.as_deref(), |j| folded.contains(&(id, Tab::Skeleton, j)));
    if let Some(h) = &hits {
        let n = h.iter().filter(|&&x| x).count();
        ui.weak(format!("{n} of {} joints match", sk.len()));
    } else {
        ui.weak(format!("{} joints", sk.len()));
    }
    let filtering = hits.is_some();
    let selected = &doc.selection;
    let row_height = ui.spacing().interact_size.y;
    let area =
        follow_selection(ui, ("skeleton", id), selected.joint, |j| rows.iter().position(|r| r.item == j), rows.len());
    area.show_rows(ui, row_height, rows.len(), |ui, range| {
        for r in &rows[range] {
            // Ids by joint, not by place in the list: a click lands on the row it was aimed at even when the
            // list moved under it.
            ui.push_id(r.item, |ui| row(ui, doc, &facts, r, filtering, folded, out));
        }
    });
}

/// Per joint, whether the filter keeps it; `None` when no filter is on.
fn hits(doc: &Document, facts: &OutlineFacts, filter: &Filter) -> Option<Vec<bool>> {
    if !filter.is_active() {
        return None;
    }
    let query = filter.query();
    let keyed = doc.current_clip_frame().map(|(c, _)| doc.clip_keys(c));
    let mut problem = vec![false; facts.parents.len()];
    for f in &doc.findings {
        if let Some(p) = f.place.joint.and_then(|j| problem.get_mut(j)) {
            *p = true;
        }
    }
    let n = facts.parents.len();
    Some(
        (0..n)
            .map(|j| {
                let [a, b] = &facts.lower[j];
                query.matches(&[a.as_str(), b.as_str()], j)
                    && filter.chips.iter().all(|c| match c {
                        Chip::Keyed => keyed.as_ref().is_some_and(|k| k.joints.get(j).copied().unwrap_or(false)),
                        Chip::Ik => facts.ik(j),
                        Chip::Physics => facts.physics[j],
                        Chip::Weighted => facts.weighted[j],
                        Chip::Problem => problem[j],
                    })
            })
            .collect(),
    )
}

/// One joint: a fold arrow when it has children (and no filter is on), its name (bold when the filter hit it,
/// dimmed when it shows only as a hit's ancestor), and its marks.
fn row(
    ui: &mut egui::Ui,
    doc: &Document,
    facts: &OutlineFacts,
    r: &TreeRow,
    filtering: bool,
    folded: &mut HashSet<(u64, Tab, usize)>,
    out: &mut Vec<Action>,
) {
    let sk = &doc.scene().skeleton;
    let j = r.item;
    let key = (doc.id(), Tab::Skeleton, j);
    ui.horizontal(|ui| {
        ui.add_space(12.0 * r.depth.min(40) as f32);
        if r.has_children && !filtering {
            let open = !folded.contains(&key);
            if fold_arrow(ui, open, &sk.display_name(j)) && !folded.remove(&key) {
                folded.insert(key);
            }
        } else {
            ui.add_space(ui.spacing().icon_width);
        }
        let en = &facts.name_en[j];
        let mut text = format!("{} #{j}", sk.display_name(j));
        if !en.is_empty() {
            text.push_str(&format!(" ({en})"));
        }
        let rich = egui::RichText::new(text);
        let rich = match (filtering, r.hit) {
            (true, true) => rich.strong(),
            (true, false) => rich.weak(),
            _ => rich,
        };
        let on = doc.selection.has_joint(j);
        let response = ui.selectable_label(on, rich).on_hover_ui(|ui| hover(ui, doc, facts, j));
        // Ctrl+click (⌘ on a Mac) adds the joint to the selection or takes it out, as in Blender and Unity.
        if response.clicked() && ui.input(|i| i.modifiers.command) {
            out.push(Action::ToggleJoint(j));
        } else if response.clicked() {
            out.push(Action::SelectJoint(if doc.selection.joint == Some(j) { None } else { Some(j) }));
        }
        let marks = marks(facts, j);
        if !marks.is_empty() {
            ui.weak(marks);
        }
    });
}

/// "IK", "IK target", "IK link", "append", "2 bodies" as they apply.
fn marks(facts: &OutlineFacts, j: usize) -> String {
    let mut m = Vec::new();
    if facts.ik_goal[j] {
        m.push("IK".to_string());
    }
    if facts.ik_target[j] {
        m.push("IK target".to_string());
    }
    if facts.ik_link[j] {
        m.push("IK link".to_string());
    }
    if facts.appended[j] {
        m.push("append".to_string());
    }
    match facts.bodies[j].len() {
        0 => {}
        1 => m.push("1 body".to_string()),
        n => m.push(format!("{n} bodies")),
    }
    m.join(" · ")
}

fn hover(ui: &mut egui::Ui, doc: &Document, facts: &OutlineFacts, j: usize) {
    let sk = &doc.scene().skeleton;
    let parent = facts.parents[j].filter(|&p| p < j).map_or("root".to_string(), |p| sk.display_name(p));
    ui.label(format!("parent: {parent}"));
    if facts.weighted[j] {
        ui.label("weighs vertices");
    }
    for line in crate::app::bone_facts::facts(doc.scene(), j) {
        ui.label(line);
    }
}

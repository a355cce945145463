//! The Outliner's Physics tab (MMD models with rigid bodies): each bone that carries bodies, in tree order,
//! with its bodies under it and, under each body, the physics joints that hang from it (as Unreal's physics
//! asset tree lists them). Filtered by bone, body or joint name (Japanese or English) or body index; the
//! Physics quick filter keeps the bodies physics moves. Clicking a body selects it (highlighted by the "Show
//! rigid bodies" overlay) and its bone; clicking a bone selects the bone.

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::filter::{Chip, Filter};
use crate::app::panels::outliner::{filter_bar, follow_selection};
use crate::scene::RigidBody;

/// A row of the tab.
enum Row {
    /// A joint of the skeleton with bodies on it (`None`: the bodies on no bone).
    Bone(Option<usize>),
    Body(usize),
    /// A physics joint, under its first body.
    Link(usize),
}

pub fn tab(ui: &mut egui::Ui, doc: &Document, filter: &mut Filter, focus: bool, out: &mut Vec<Action>) {
    let scene = doc.scene();
    let Some(mmd) = scene.mmd.as_deref().filter(|m| !m.rigid_bodies.is_empty()) else {
        ui.weak("No rigid bodies.");
        return;
    };
    ui.label(format!("{} rigid bodies, {} joints", mmd.rigid_bodies.len(), mmd.joints.len()));
    filter_bar(ui, filter, &Chip::BODY, focus, "Filter bodies, joints, bones: name or #index");
    let facts = doc.outline_facts();
    let query = filter.query();
    let sk = &scene.skeleton;
    // A body matches by its names, its links' names (taken once per model) or its bone's.
    let body_hit = |b: usize, bone: Option<usize>| {
        let mut names: Vec<&str> = facts.body_lower[b].iter().map(String::as_str).collect();
        names.extend(bone.iter().flat_map(|&j| facts.lower[j].iter().map(String::as_str)));
        query.matches(&names, b) && (!filter.has(Chip::Physics) || mmd.rigid_bodies[b].mode != 0)
    };
    let filtering = filter.is_active();
    // Bodies by the joint of their bone, in the tree's order; bodies on no bone last.
    let mut rows = Vec::new();
    let mut shown = 0;
    let mut place = |rows: &mut Vec<Row>, bone: Option<usize>, bodies: &[usize]| {
        let kept: Vec<usize> = bodies.iter().copied().filter(|&b| !filtering || body_hit(b, bone)).collect();
        if kept.is_empty() {
            return;
        }
        shown += kept.len();
        rows.push(Row::Bone(bone));
        for b in kept {
            rows.push(Row::Body(b));
            rows.extend(facts.links[b].iter().copied().map(Row::Link));
        }
    };
    for &(j, _) in &facts.order {
        place(&mut rows, Some(j), &facts.bodies[j]);
    }
    place(&mut rows, None, &facts.loose_bodies);
    if filtering {
        ui.weak(format!("{shown} of {} bodies match", mmd.rigid_bodies.len()));
    }
    let sim = doc.physics();
    let row_height = ui.spacing().interact_size.y;
    let row = |b: usize| rows.iter().position(|r| matches!(*r, Row::Body(x) if x == b));
    let area = follow_selection(ui, ("bodies", doc.id()), doc.selection.body, row, rows.len());
    area.show_rows(ui, row_height, rows.len(), |ui, range| {
        for r in &rows[range] {
            // Ids by row, not by place in the list (see the Skeleton tab).
            ui.push_id(row_key(r), |ui| match *r {
                Row::Bone(Some(j)) => {
                    let on = doc.selection.joint == Some(j) && doc.selection.body.is_none();
                    let en = &facts.name_en[j];
                    let text = if en.is_empty() {
                        format!("{} #{j}", sk.display_name(j))
                    } else {
                        format!("{} #{j} ({en})", sk.display_name(j))
                    };
                    if ui.selectable_label(on, egui::RichText::new(text).strong()).clicked() {
                        out.push(Action::SelectJoint(if on { None } else { Some(j) }));
                    }
                }
                Row::Bone(None) => {
                    ui.strong("on no bone");
                }
                Row::Body(b) => {
                    let r = &mmd.rigid_bodies[b];
                    let rig = sim.and_then(|s| s.rig().bodies.get(b));
                    let mode = rig.map_or_else(|| mode_label(r.mode).to_string(), |x| x.mode.label().to_string());
                    let demoted = if rig.is_some_and(|x| x.mode != x.file_mode) {
                        " (file: physics + bone position)"
                    } else {
                        ""
                    };
                    let off = sim.filter(|_| doc.physics_shown()).map_or("", |s| {
                        match (s.switched_off().get(b).copied().unwrap_or(false), s.steered().get(b).copied()) {
                            (false, _) => "",
                            (true, Some(true)) => " — switched off by the motion here (steered to its bone)",
                            (true, _) => " — switched off by the motion here",
                        }
                    });
                    let on = doc.selection.body == Some(b);
                    ui.horizontal(|ui| {
                        ui.add_space(16.0);
                        let text = format!("{}: {mode}{demoted}{off}", r.name);
                        if ui.selectable_label(on, text).on_hover_text(body_hover(r)).clicked() {
                            out.push(Action::SelectBody(if on { None } else { Some(b) }));
                        }
                    });
                }
                Row::Link(k) => {
                    let j = &mmd.joints[k];
                    let other = j.bodies[1].and_then(|b| mmd.rigid_bodies.get(b)).map_or("none", |b| b.name.as_str());
                    ui.horizontal(|ui| {
                        ui.add_space(32.0);
                        ui.weak(format!("joint {} → {other}", j.name));
                    });
                }
            });
        }
    });
}

fn row_key(r: &Row) -> (u8, usize) {
    match *r {
        Row::Bone(j) => (0, j.unwrap_or(usize::MAX)),
        Row::Body(b) => (1, b),
        Row::Link(k) => (2, k),
    }
}

fn mode_label(mode: u8) -> &'static str {
    match mode {
        0 => "follows bone",
        1 => "physics",
        _ => "physics + bone position",
    }
}

fn body_hover(r: &RigidBody) -> String {
    let shape = match r.shape {
        0 => "sphere",
        1 => "box",
        _ => "capsule",
    };
    format!(
        "{} ({})\n{shape}, mass {:.3}, group {}\ndamping {:.2} / {:.2}, restitution {:.2}, friction {:.2}",
        r.name, r.name_en, r.mass, r.group, r.linear_damping, r.angular_damping, r.restitution, r.friction
    )
}

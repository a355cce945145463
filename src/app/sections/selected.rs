//! The Inspector's Selection tab: everything about what is selected (a joint and its transforms at the current
//! frame with what constrains it, a display frame's bones, a rigid body, a morph, a mesh) and what the last
//! click in the view hit. Back and Forward walk the selections made; Pin keeps the tab on one while others are
//! picked.

use glam::{EulerRot, Mat4};

use crate::anim::Picked;
use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::selection::Selection;

pub fn tab(ui: &mut egui::Ui, doc: &Document, picked: Option<&Picked>, out: &mut Vec<Action>) {
    let history = &doc.history;
    ui.horizontal(|ui| {
        for (text, step) in [("Back", -1), ("Forward", 1)] {
            let shortcut = crate::app::shortcuts::text_for(ui.ctx(), &Action::SelectionStep(step));
            let r = ui.add_enabled(history.can_go(step), egui::Button::new(text));
            if r.on_hover_text(format!("The selection before ({shortcut})")).clicked() {
                out.push(Action::SelectionStep(step));
            }
        }
        let mut pinned = history.pinned.is_some();
        if ui
            .checkbox(&mut pinned, "Pin")
            .on_hover_text("Keep this tab on what is selected now while you pick other things")
            .changed()
        {
            out.push(Action::PinSelection(pinned));
        }
    });
    let shown = history.pinned.as_ref().unwrap_or(&doc.selection);
    if history.pinned.is_some() {
        ui.weak("Pinned: the selection may have moved on.");
    }
    ui.separator();
    if shown.is_empty() && picked.is_none() {
        ui.weak("Nothing selected: click the model, a row of the Outliner, or a problem.");
    }
    item(ui, doc, shown, out);
    crate::app::sections::picked::section(ui, doc.scene(), picked, out);
}

/// The facts of each part of `s` that is set.
fn item(ui: &mut egui::Ui, doc: &Document, s: &Selection, out: &mut Vec<Action>) {
    let scene = doc.scene();
    if let Some((frame, joints)) = &s.group {
        match frame.and_then(|k| scene.mmd.as_ref()?.display_frames.get(k)) {
            Some(f) => ui.strong(format!("Display frame {}: {} bones", f.name, joints.len())),
            None => ui.strong(format!("{} joints selected", joints.len())),
        };
        for &j in joints.iter() {
            if ui.link(scene.skeleton.display_name(j)).clicked() {
                out.push(Action::SelectJoint(Some(j)));
            }
        }
        ui.separator();
    }
    if let Some(j) = s.joint.filter(|&j| j < scene.skeleton.len()) {
        joint(ui, doc, j);
    }
    if let Some(b) = s.body {
        body(ui, doc, b);
    }
    if let Some(m) = s.morph.and_then(|m| scene.morphs.get(m).map(|x| (m, x))) {
        let (weight, held) = doc.morph_weight(m.0);
        ui.strong(format!("Morph {} #{}", m.1.name, m.0));
        egui::Grid::new("morph facts").num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.monospace(v);
                ui.end_row();
            };
            if !m.1.name_en.is_empty() {
                row("English name", m.1.name_en.clone());
            }
            row("Panel", format!("{:?}", m.1.panel));
            row("Kind", format!("{} morph, {} offsets", m.1.kind.label(), m.1.kind.len()));
            row("Weight", format!("{weight:.3}{}", if held { " (held by its slider)" } else { "" }));
        });
    }
    if let Some(i) = s.mesh.filter(|&i| i < scene.meshes.len()) {
        let m = &scene.meshes[i];
        ui.strong(format!("Mesh {} #{i}", m.name));
        let material = scene.materials.get(m.material).map_or("?", |x| x.name.as_str());
        ui.label(format!("{} triangles from triangle {}, material \"{material}\"", m.num_triangles, m.first_triangle));
        let hidden = doc.hidden_meshes.get(i).copied().unwrap_or(false);
        let mut shown = !hidden;
        if ui.checkbox(&mut shown, "Shown").changed() {
            out.push(Action::SetMeshHidden(i, !shown));
        }
    }
}

/// A joint: its name, local transform (translation, quaternion, Euler angles, scale) and model-space matrix at
/// the current frame, and what constrains it (`bone_facts`).
fn joint(ui: &mut egui::Ui, doc: &Document, i: usize) {
    let (scene, pose) = (doc.scene(), doc.pose());
    let sk = &scene.skeleton;
    let parent = sk.joints[i].parent.map_or("root".to_string(), |p| format!("parent {} #{p}", sk.display_name(p)));
    ui.strong(format!("Joint {} #{i}", sk.display_name(i)));
    let en = &doc.outline_facts().name_en[i];
    if !en.is_empty() {
        ui.label(format!("English name: {en}"));
    }
    ui.label(parent);
    let Some(local) = pose.locals.get(i) else { return };
    let (x, y, z) = local.rotation.to_euler(EulerRot::XYZ);
    let (t, r, s) = (local.translation, local.rotation, local.scale);
    egui::Grid::new("joint local").num_columns(2).show(ui, |ui| {
        ui.label("Local T");
        ui.monospace(format!("{:.4} {:.4} {:.4}", t.x, t.y, t.z));
        ui.end_row();
        ui.label("Local R (xyzw)");
        ui.monospace(format!("{:.4} {:.4} {:.4} {:.4}", r.x, r.y, r.z, r.w));
        ui.end_row();
        ui.label("Local R (Euler XYZ°)");
        ui.monospace(format!("{:.2} {:.2} {:.2}", x.to_degrees(), y.to_degrees(), z.to_degrees()));
        ui.end_row();
        ui.label("Local S");
        ui.monospace(format!("{:.4} {:.4} {:.4}", s.x, s.y, s.z));
        ui.end_row();
    });
    if let Some(world) = pose.world.get(i) {
        ui.label("Model-space (world) matrix:");
        ui.monospace(matrix_rows(world));
    }
    crate::app::sections::bone_facts::show(ui, scene, i, doc.contributions(i));
}

/// A rigid body: what the file says of it and how it moves.
fn body(ui: &mut egui::Ui, doc: &Document, b: usize) {
    let Some(r) = doc.scene().mmd.as_ref().and_then(|m| m.rigid_bodies.get(b)) else { return };
    ui.strong(format!("Rigid body {} #{b}", r.name));
    let mode = doc.physics().and_then(|s| s.rig().bodies.get(b)).map(|x| x.mode.label());
    egui::Grid::new("body facts").num_columns(2).show(ui, |ui| {
        let mut row = |k: &str, v: String| {
            ui.label(k);
            ui.monospace(v);
            ui.end_row();
        };
        if !r.name_en.is_empty() {
            row("English name", r.name_en.clone());
        }
        if let Some(mode) = mode {
            row("Mode", mode.to_string());
        }
        let shape = ["sphere", "box", "capsule"].get(r.shape as usize).copied().unwrap_or("capsule");
        row("Shape", format!("{shape} {:.3} {:.3} {:.3}", r.size.x, r.size.y, r.size.z));
        row("Mass", format!("{:.3}", r.mass));
        row("Damping", format!("{:.3} linear, {:.3} angular", r.linear_damping, r.angular_damping));
        row("Restitution", format!("{:.3}", r.restitution));
        row("Friction", format!("{:.3}", r.friction));
        row("Group", format!("{} (collides with mask {:#06x})", r.group, r.collision_mask));
    });
}

/// A 4×4 matrix as four rows of text (the maths layout, although glam stores columns).
fn matrix_rows(m: &Mat4) -> String {
    (0..4)
        .map(|r| {
            let row = m.row(r);
            format!("{:9.4} {:9.4} {:9.4} {:9.4}", row.x, row.y, row.z, row.w)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

//! The joint tree (name, index, parent) and the selected joint's transforms at the current frame, with what
//! constrains it (`bone_facts`).

use glam::{EulerRot, Mat4};

use crate::app::actions::Action;
use crate::app::document::Document;

pub fn section(ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
    let (scene, pose, selected) = (doc.scene(), doc.pose(), doc.selection.joint);
    let sk = &scene.skeleton;
    egui::CollapsingHeader::new(format!("Joints ({})", sk.len())).id_salt("joints").show(ui, |ui| {
        if sk.is_empty() {
            ui.weak("no skeleton");
            return;
        }
        // Parents precede children, so depths come in one pass.
        let mut depth = vec![0usize; sk.len()];
        egui::ScrollArea::vertical().id_salt("joint tree").max_height(260.0).show(ui, |ui| {
            for (i, j) in sk.joints.iter().enumerate() {
                depth[i] = j.parent.filter(|&p| p < i).map_or(0, |p| depth[p] + 1);
                ui.horizontal(|ui| {
                    ui.add_space(12.0 * depth[i].min(32) as f32);
                    let parent = j.parent.map_or("root".to_string(), |p| format!("parent #{p}"));
                    let text = format!("{} #{i} ({parent})", sk.display_name(i));
                    let row = ui.selectable_label(selected == Some(i), text);
                    // A joint selected elsewhere (a pick in the view, a display frame) is scrolled into view once.
                    if selected == Some(i) {
                        let id = egui::Id::unique("rigscope joint tree scrolled to");
                        if ui.data(|d| d.get_temp::<usize>(id)) != Some(i) {
                            row.scroll_to_me(Some(egui::Align::Center));
                            ui.data_mut(|d| d.insert_temp(id, i));
                        }
                    }
                    if row.clicked() {
                        out.push(Action::SelectJoint(if selected == Some(i) { None } else { Some(i) }));
                    }
                });
            }
        });
        let Some(i) = selected.filter(|&i| i < sk.len()) else { return };
        ui.separator();
        ui.label(format!("Selected: {} #{i}", sk.display_name(i)));
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

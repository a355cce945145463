//! The file section: what the file is, its counts, and every warning, including the stored-bounds check.

use crate::app::document::model::Model;

pub fn section(ui: &mut egui::Ui, model: &mut Model) {
    egui::CollapsingHeader::new("File info").default_open(true).show(ui, |ui| {
        let s = &model.scene;
        egui::Grid::new("file facts").num_columns(2).show(ui, |ui| {
            // A path can be long: cut to the panel's width (the whole of it on hover) rather than widen it.
            ui.label("Name");
            ui.add(egui::Label::new(&model.name).truncate());
            ui.end_row();
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.label(v);
                ui.end_row();
            };
            let format = s.meta.format.name();
            // IQE has no version field.
            row(
                "Format",
                if s.meta.version.is_empty() {
                    format.to_string()
                } else {
                    format!("{format} version {}", s.meta.version)
                },
            );
            row("Up axis", s.up.label().into());
            if let Some(r) = &s.rsm {
                row("Layout", r.layout.describe().into());
            }
            row("Meshes", s.meshes.len().to_string());
            row("Vertices", s.vertices.len().to_string());
            row("Triangles", s.triangles.len().to_string());
            row("Materials", s.materials.len().to_string());
            row("Joints", s.skeleton.len().to_string());
            row("Animations", s.clips.len().to_string());
            if let Some(v) = s.vrm.as_deref() {
                let version = if v.major == 0 { "0.x" } else { "1.0" };
                let counts = format!("{} humanoid bones, {} expressions", v.humanoid.len(), v.expressions.len());
                row("VRM", format!("{version} ({counts})"));
                let missing = v.missing_required();
                if !missing.is_empty() {
                    row("Missing bones", missing.join(", "));
                }
                if let Some(l) = &v.look_at {
                    row("Look at", l.describe());
                }
                if !v.first_person.is_empty() {
                    let list: Vec<String> = v.first_person.iter().map(|f| format!("{} ({})", f.name, f.kind)).collect();
                    row("First person", list.join(", "));
                }
            }
        });
        if let Some(v) = s.vrm.as_deref().filter(|v| !v.meta.is_empty()) {
            egui::CollapsingHeader::new("VRM meta and licence").default_open(true).show(ui, |ui| {
                egui::Grid::new("vrm meta").num_columns(2).show(ui, |ui| {
                    for (k, value) in &v.meta {
                        ui.label(k);
                        ui.add(egui::Label::new(value).truncate());
                        ui.end_row();
                    }
                });
            });
        }
        if let Some(c) = &s.meta.comment {
            ui.label(format!("Comment: {c}"));
        }
        for a in &model.attachments {
            let r = &a.report;
            ui.separator();
            ui.label(format!("Attached {}", r.source));
            // Matching by index requires the same parents, so "reparented" only means something by name.
            let reparented = if r.by_index { String::new() } else { format!(", {} reparented", r.reparented.len()) };
            ui.label(format!(
                "{} matched {}, {} unmatched (bind pose), {} unused track(s){reparented}",
                r.matched.len(),
                r.how(),
                r.unmatched_joints.len(),
                r.unused_tracks.len(),
            ));
            if !r.unmatched_joints.is_empty() {
                ui.weak(format!("unmatched: {}", r.unmatched_joints.join(", ")));
            }
            for w in &a.warnings {
                ui.label(format!("{}: {w}", r.source));
            }
        }
        let own: Vec<String> = model.scene.meta.warnings.iter().map(ToString::to_string).collect();
        let bounds: Vec<String> = model.bounds_warnings().iter().map(ToString::to_string).collect();
        ui.separator();
        ui.label(format!("Warnings ({})", own.len() + bounds.len()));
        for w in own.iter().chain(&bounds) {
            ui.colored_label(ui.visuals().warn_fg_color, w);
        }
    });
}

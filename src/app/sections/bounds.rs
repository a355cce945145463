//! Per-frame bounds: the file's stored box for this frame beside the one computed by skinning, and the frames
//! where they disagree (click one to go there).

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::scene::{FrameBounds, Scene};

/// How one row of the comparison shows a box.
type Cell = fn(&FrameBounds) -> String;

/// The stored bounds of the frame at or before `frame` of clip `clip`.
pub fn stored_at(scene: &Scene, clip: usize, frame: f32) -> Option<FrameBounds> {
    scene.clips.get(clip)?.stored_bounds_at(frame)
}

/// Returns whether the section is open, so the app computes the skinned box only then (or for its overlay).
pub fn section(ui: &mut egui::Ui, doc: &mut Document, out: &mut Vec<Action>) -> bool {
    let (frame, computed) = (doc.current_clip_frame(), doc.computed_bounds());
    let model = &mut doc.model;
    let r = egui::CollapsingHeader::new("Bounds").id_salt("bounds").show(ui, |ui| {
        let stored = frame.and_then(|(c, f)| stored_at(&model.scene, c, f));
        egui::Grid::new("bounds grid").num_columns(3).show(ui, |ui| {
            ui.label("");
            ui.label("stored");
            ui.label("computed");
            ui.end_row();
            let rows: [(&str, Cell); 4] = [
                ("min", |b| format!("{:.3} {:.3} {:.3}", b.min.x, b.min.y, b.min.z)),
                ("max", |b| format!("{:.3} {:.3} {:.3}", b.max.x, b.max.y, b.max.z)),
                ("xy radius", |b| format!("{:.3}", b.xy_radius)),
                ("radius", |b| format!("{:.3}", b.radius)),
            ];
            for (name, show) in rows {
                ui.label(name);
                ui.monospace(stored.as_ref().map_or("-".into(), show));
                ui.monospace(computed.as_ref().map_or("-".into(), show));
                ui.end_row();
            }
        });
        let Some((clip, _)) = frame else { return };
        if model.scene.clips.get(clip).is_none_or(|c| c.bounds.is_none()) {
            ui.weak("This animation stores no per-frame bounds.");
            return;
        }
        let misses: Vec<_> = model.misses().iter().filter(|m| m.clip == clip).cloned().collect();
        if misses.is_empty() {
            ui.label("Stored bounds contain the skinned mesh on every frame.");
            return;
        }
        ui.label(format!("Frames whose stored bounds miss the mesh ({}):", misses.len()));
        egui::ScrollArea::vertical().id_salt("bounds misses").max_height(160.0).show(ui, |ui| {
            for m in misses {
                if ui.button(format!("frame {} (by {:.4})", m.frame, m.by)).clicked() {
                    out.push(Action::SetFrame(m.frame as f32));
                }
            }
        });
    });
    r.body_returned.is_some()
}

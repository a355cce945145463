//! Compare with…: a second file of the same asset (an older export, the version before a reload) held beside
//! the shown document as its reference. The Compare section lists what `rigscope diff REFERENCE MODEL` says
//! (computed by the same `report::diff`, in the model's axes), the joints that deviate most at the frame shown,
//! and the view draws the reference at that frame: as a translucent ghost over the model (a second model in the
//! view, `render::ViewState::set_reference`) with its skeleton (`Overlays::reference_bones`), or side by side, in
//! the right half of the view under the same camera (`App::view_panes`, `ViewState::paint_reference`).

use crate::app::actions::Action;
use crate::app::document::Document;

/// Joints listed per part of the section.
const LISTED: usize = 12;

/// The Compare section: shown while the document has a reference; `side_by_side`: the reference has a view of
/// its own ([`crate::app::sections::toggles::ViewToggles::compare_side_by_side`]).
pub fn section(ui: &mut egui::Ui, doc: &Document, side_by_side: bool, out: &mut Vec<Action>) {
    let Some(r) = doc.reference.as_deref() else { return };
    egui::CollapsingHeader::new("Compare").id_salt("compare").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(format!("Reference: {}", r.name));
            if ui.small_button("Clear").on_hover_text("Stop comparing").clicked() {
                out.push(Action::ClearReference);
            }
        });
        let mut beside = side_by_side;
        let tip = "Ctrl+Shift+D: the reference in a view of its own beside the model's, seen by the same camera";
        if ui.checkbox(&mut beside, "Side by side").on_hover_text(tip).changed() {
            out.push(Action::Toggle(crate::app::sections::toggles::Toggle::CompareSideBySide));
        }
        if beside {
            ui.weak("drawn in the right half of the view, with its skeleton when the model's shows");
        } else {
            ui.weak("drawn as a translucent orange ghost, with its skeleton");
        }
        for note in &r.diff.notes {
            ui.weak(note);
        }
        if r.diff.equal() {
            ui.label("equal within the tolerance (rigscope diff)");
        }
        for line in r.diff.changes.iter().take(LISTED) {
            ui.label(line);
        }
        let clip = doc.current_clip().map(|c| c.name.clone());
        let frame = doc.current_clip_frame().map_or(0.0, |(_, f)| f);
        let Some(theirs) = doc.reference_pose() else { return };
        let near = r.deviations(doc.scene(), doc.pose(), &theirs);
        ui.separator();
        ui.label(format!("At frame {frame:.0}: joints farthest from the reference"));
        egui::Grid::new("compare at frame").num_columns(2).show(ui, |ui| {
            for (name, d) in near.iter().take(LISTED) {
                ui.label(name);
                ui.monospace(format!("{d:.4}"));
                ui.end_row();
            }
        });
        let over: Vec<_> = r.diff.joints.iter().filter(|j| Some(&j.clip) == clip.as_ref()).take(LISTED).collect();
        if !over.is_empty() {
            ui.separator();
            ui.label("Over the clip (largest move, at frame)");
            egui::Grid::new("compare over clip").num_columns(3).show(ui, |ui| {
                for j in over {
                    ui.label(&j.joint);
                    ui.monospace(format!("{:.4}", j.position));
                    ui.monospace(format!("f{}", j.position_frame));
                    ui.end_row();
                }
            });
        }
        for s in &r.diff.skinning {
            ui.label(format!(
                "clip \"{}\": skinned vertex {} moved up to {:.4} (frame {})",
                s.clip, s.vertex, s.distance, s.frame
            ));
        }
    });
}

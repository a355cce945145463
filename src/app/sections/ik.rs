//! IK chains: each chain's IK bone, effector and links, whether it is solved at this frame (the motion's IK
//! switches, VMD property keys or MVD model properties), and a switch that holds it on or off in place of the
//! motion, to see what the motion alone does to a leg.

use crate::anim::IkFinish;
use crate::app::actions::Action;
use crate::app::document::Document;

pub fn section(ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
    let scene = doc.scene();
    let chains = &scene.constraints.ik;
    if chains.is_empty() {
        return;
    }
    let name = |j: usize| scene.skeleton.display_name(j);
    egui::CollapsingHeader::new(format!("IK chains ({})", chains.len())).id_salt("ik chains").show(ui, |ui| {
        let mut planted = doc.ik_finish() == IkFinish::PlantFeet;
        let hover = "Off: legs stop where MikuMikuDance's IK leaves them (a nearly straight leg can stop a few \
                     millimetres short). On: a leg that reaches its IK bone stands exactly on it.";
        if ui.checkbox(&mut planted, "Plant feet").on_hover_text(hover).changed() {
            out.push(Action::SetIkFinish(IkFinish::planted(planted)));
        }
        for (c, chain) in chains.iter().enumerate() {
            let (mut on, held) = doc.ik_enabled(c);
            ui.horizontal(|ui| {
                let text = format!("{} → {} ({} links)", name(chain.joint), name(chain.target), chain.links.len());
                let hover = if held { "Held by this switch" } else { "As the motion's IK switches say at this frame" };
                if ui.checkbox(&mut on, text).on_hover_text(hover).changed() {
                    out.push(Action::SetIkEnabled(c, Some(on)));
                }
                if held && ui.small_button("×").on_hover_text("Let the motion switch it").clicked() {
                    out.push(Action::SetIkEnabled(c, None));
                }
            });
        }
    });
}

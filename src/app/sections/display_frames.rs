//! An MMD model's display frames: the bone and morph groups its author made for MikuMikuDance's panels (root,
//! expressions, then named groups such as arms and legs). Clicking a bone selects its joint; morphs show their
//! weight. A frame's button selects all its bones. The rigid bodies are listed in the Physics tab.

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::scene::DisplayItem;

pub fn section(ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
    let scene = doc.scene();
    let Some(mmd) = &scene.mmd else { return };
    if mmd.display_frames.is_empty() && mmd.rigid_bodies.is_empty() {
        return;
    }
    let title = format!("Display frames ({})", mmd.display_frames.len());
    egui::CollapsingHeader::new(title).id_salt("display frames").show(ui, |ui| {
        for (k, frame) in mmd.display_frames.iter().enumerate() {
            let name = if frame.name_en.is_empty() || frame.name_en == frame.name {
                frame.name.clone()
            } else {
                format!("{} ({})", frame.name_en, frame.name)
            };
            egui::CollapsingHeader::new(format!("{name} ({})", frame.items.len())).id_salt(("display frame", k)).show(
                ui,
                |ui| {
                    let bones = frame.items.iter().filter(|i| matches!(i, DisplayItem::Bone(_))).count();
                    if bones > 0 && ui.button(format!("Select its {bones} bones")).clicked() {
                        out.push(Action::SelectGroup(k));
                    }
                    for item in &frame.items {
                        match *item {
                            DisplayItem::Bone(b) => {
                                let Some(bone) = mmd.bones.get(b) else { continue };
                                let selected = doc.selection.joint == Some(bone.joint);
                                if ui.selectable_label(selected, format!("bone {}", bone.name)).clicked() {
                                    out.push(Action::SelectJoint(if selected { None } else { Some(bone.joint) }));
                                }
                            }
                            DisplayItem::Morph(m) => {
                                let Some(morph) = scene.morphs.get(m) else { continue };
                                ui.label(format!("morph {} = {:.3}", morph.name, doc.morph_weight(m).0));
                            }
                        }
                    }
                },
            );
        }
        if !mmd.rigid_bodies.is_empty() {
            ui.separator();
            ui.label(format!(
                "{} rigid bodies and {} joints (listed in the Physics tab)",
                mmd.rigid_bodies.len(),
                mmd.joints.len()
            ));
        }
    });
}

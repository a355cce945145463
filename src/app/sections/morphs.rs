//! Morphs, grouped by the model's panels (eyebrow, eye, mouth, other, then system): a slider each. Moving one
//! holds the morph at that weight in place of what the animation gives it; while it isn't held, the slider
//! shows the animation's weight as it plays. Group and flip morphs drive their members on top of this.

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::scene::MorphPanel;

const PANELS: [(MorphPanel, &str); 5] = [
    (MorphPanel::Eyebrow, "Eyebrow"),
    (MorphPanel::Eye, "Eye"),
    (MorphPanel::Mouth, "Mouth"),
    (MorphPanel::Other, "Other"),
    (MorphPanel::System, "System"),
];

/// `cjk_missing`: why Japanese names draw as boxes, when they do.
pub fn section(ui: &mut egui::Ui, doc: &Document, cjk_missing: Option<&str>, out: &mut Vec<Action>) {
    let morphs = &doc.scene().morphs;
    if morphs.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(format!("Morphs ({})", morphs.len())).id_salt("morphs").show(ui, |ui| {
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
        for (panel, title) in PANELS {
            let list: Vec<usize> = (0..morphs.len()).filter(|&i| morphs[i].panel == panel).collect();
            if list.is_empty() {
                continue;
            }
            egui::CollapsingHeader::new(format!("{title} ({})", list.len()))
                .id_salt(("morph panel", title))
                .default_open(panel != MorphPanel::System)
                .show(ui, |ui| {
                    for i in list {
                        row(ui, doc, i, out);
                    }
                });
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

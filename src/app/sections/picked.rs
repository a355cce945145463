//! The Picked section: what the last click in the view hit (`App::pick_at`, through `anim::pick`): mesh,
//! material, triangle, the nearest vertex with its index in the file, position, normal, UV, colour and blend
//! joints by name; a button selects the joint that weighs most on it.

use crate::anim::Picked;
use crate::app::actions::Action;
use crate::scene::Scene;

pub fn section(ui: &mut egui::Ui, scene: &Scene, picked: Option<&Picked>, out: &mut Vec<Action>) {
    egui::CollapsingHeader::new("Picked").id_salt("picked").default_open(true).show(ui, |ui| {
        let Some(p) = picked else {
            ui.weak("click the model in the view to see what lies there");
            return;
        };
        let f3 = |v: [f32; 3]| format!("{:.4} {:.4} {:.4}", v[0], v[1], v[2]);
        egui::Grid::new("picked facts").num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.monospace(v);
                ui.end_row();
            };
            row("Mesh", p.mesh.clone().unwrap_or_else(|| "—".into()));
            row("Material", p.material.clone().unwrap_or_else(|| "—".into()));
            row("Triangle", p.triangle.to_string());
            let vertex = if p.file_vertex == p.vertex {
                p.vertex.to_string()
            } else {
                format!("{} (file vertex {})", p.vertex, p.file_vertex)
            };
            row("Vertex", vertex);
            row("Position", f3(p.position));
            row("Normal", p.normal.map_or_else(|| "—".into(), f3));
            row("UV", p.uv.map_or_else(|| "—".into(), |t| format!("{:.4} {:.4}", t[0], t[1])));
            row(
                "Colour",
                p.color.map_or_else(|| "—".into(), |c| format!("{:.3} {:.3} {:.3} {:.3}", c[0], c[1], c[2], c[3])),
            );
        });
        if p.joints.is_empty() {
            ui.weak("no blend joints");
        }
        for (name, weight) in &p.joints {
            ui.label(format!("{name}: {:.1}%", weight * 100.0));
        }
        if let Some((name, _)) = p.joints.first()
            && let Some(j) = (0..scene.skeleton.len()).find(|&j| scene.skeleton.display_name(j) == *name)
            && ui.button(format!("Select {name}")).clicked()
        {
            out.push(Action::SelectJoint(Some(j)));
        }
    });
}

/// The hover text beside the pointer: the vertex under it and its blend joints.
pub(crate) fn paint_hover(ui: &egui::Ui, rect: egui::Rect, at: egui::Pos2, p: &Picked) {
    let joints: Vec<String> = p.joints.iter().map(|(n, w)| format!("{n} {:.0}%", w * 100.0)).collect();
    let text =
        format!("{}\n{}", hover_title(p), if joints.is_empty() { "no joints".into() } else { joints.join(", ") });
    let painter = ui.painter_at(rect);
    let galley = painter.layout_no_wrap(text, egui::FontId::proportional(12.0), egui::Color32::from_gray(240));
    let place = at + egui::vec2(14.0, 14.0);
    let bg = egui::Rect::from_min_size(place - egui::vec2(4.0, 3.0), galley.size() + egui::vec2(8.0, 6.0));
    painter.rect_filled(bg, 3.0, egui::Color32::from_black_alpha(190));
    painter.galley(place, galley, egui::Color32::from_gray(240));
}

/// "vertex 128 (file 120) · mesh body".
pub fn hover_title(p: &Picked) -> String {
    let file = if p.file_vertex == p.vertex { String::new() } else { format!(" (file {})", p.file_vertex) };
    let mesh = p.mesh.as_deref().map(|m| format!(" · mesh {m}")).unwrap_or_default();
    format!("vertex {}{file}{mesh}", p.vertex)
}

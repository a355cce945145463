//! The Scene tab's meshes (each can be hidden or selected) and materials with their textures, found or
//! missing, as the tab's filter keeps them.

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::filter::{Filter, lower};

pub fn section(ui: &mut egui::Ui, doc: &Document, filter: &Filter, out: &mut Vec<Action>) {
    let query = filter.query();
    let (scene, hidden) = (doc.scene(), &doc.hidden_meshes);
    // `None` until the textures were looked for.
    let missing = doc.missing_textures.as_deref();
    egui::CollapsingHeader::new(format!("Meshes ({})", scene.meshes.len()))
        .id_salt("meshes")
        .open(filter.is_active().then_some(true))
        .show(ui, |ui| {
            for (i, m) in scene.meshes.iter().enumerate() {
                let mut shown = !hidden.get(i).copied().unwrap_or(false);
                let material = scene.materials.get(m.material).map_or("?", |mat| mat.name.as_str());
                if !query.matches(&[lower(&m.name).as_str(), lower(material).as_str()], i) {
                    continue;
                }
                let text = format!("{} ({} triangles, material \"{material}\")", m.name, m.num_triangles);
                ui.horizontal(|ui| {
                    if ui.checkbox(&mut shown, text).changed() {
                        out.push(Action::SetMeshHidden(i, !shown));
                    }
                    let on = doc.selection.mesh == Some(i);
                    let select = ui.selectable_label(on, "›").on_hover_text("Select it: its facts in the Inspector");
                    ui.ctx().accesskit_node_builder(select.id, |n| n.set_label(format!("Select mesh {}", m.name)));
                    if select.clicked() {
                        out.push(Action::SelectMesh(if on { None } else { Some(i) }));
                    }
                });
            }
            ui.separator();
            ui.label(format!("Materials ({})", scene.materials.len()));
            for (k, m) in scene.materials.iter().enumerate() {
                if !query.matches(&[lower(&m.name).as_str()], k) {
                    continue;
                }
                let Some(texture) = m.texture.as_deref().filter(|t| !t.is_empty()) else {
                    ui.label(format!("{}: no texture (its colour)", m.name));
                    continue;
                };
                let lost = missing.is_some_and(|m| m.iter().any(|p| is_texture_path(p, texture)));
                let state = match missing {
                    None => "not looked for yet",
                    Some(_) if lost => "missing",
                    Some(_) => "found",
                };
                let line = format!("{}: texture \"{texture}\" {state}", m.name);
                if lost {
                    ui.colored_label(ui.visuals().warn_fg_color, line);
                } else {
                    ui.label(line);
                }
            }
            if let Some(missing) = missing.filter(|m| !m.is_empty()) {
                ui.label("Missing textures (drawn with a checker):");
                for p in missing {
                    ui.weak(p);
                }
            }
        });
}

/// Whether the path the renderer looked for came from this texture reference (it is the reference joined to
/// the model's folder, or the file it resolved to).
pub(in crate::app) fn is_texture_path(path: &str, texture: &str) -> bool {
    let path = path.replace('\\', "/").to_lowercase();
    let texture = texture.replace('\\', "/").to_lowercase();
    !texture.is_empty() && (path == texture || path.ends_with(&format!("/{texture}")))
}

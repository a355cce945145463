//! The node tree of a file made of rigid nodes (RSM/RSM2, from `Scene::rsm`): each node's name, parent, vertex
//! and face counts, textures and keys. Clicking a node selects its joint, which the skeleton overlay and the
//! mesh tint highlight. Then the file's volume boxes and UV animations. Absent for other formats.

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::sections::meshes::is_texture_path;

pub fn section(ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
    let (scene, selected_joint) = (doc.scene(), doc.selection.joint);
    // `None` until the textures were looked for.
    let missing = doc.missing_textures.as_deref();
    let Some(info) = scene.rsm.as_deref() else { return };
    egui::CollapsingHeader::new(format!("Nodes ({})", info.nodes.len())).id_salt("nodes").default_open(true).show(
        ui,
        |ui| {
            let mut depth = vec![0usize; info.nodes.len()];
            // The skeleton lists parents first; node_of_joint maps it back to file order.
            let order: Vec<usize> = if info.node_of_joint.len() == info.nodes.len() {
                info.node_of_joint.clone()
            } else {
                (0..info.nodes.len()).collect()
            };
            egui::ScrollArea::vertical().id_salt("node tree").max_height(260.0).show(ui, |ui| {
                for &i in &order {
                    let Some(node) = info.nodes.get(i) else { continue };
                    depth[i] = node.parent.and_then(|p| depth.get(p).copied()).map_or(0, |d| d + 1);
                    let keys = node.rotation_keys + node.position_keys + node.scale_keys;
                    let parent = match node.parent.and_then(|p| info.nodes.get(p)) {
                        Some(p) => format!("parent \"{}\"", p.name),
                        None => "root".to_string(),
                    };
                    let animated = if keys > 0 { ", animated" } else { "" };
                    let text =
                        format!("{} ({parent}, {} vertices, {} faces{animated})", node.name, node.vertices, node.faces);
                    let selected = selected_joint == Some(node.joint);
                    ui.horizontal(|ui| {
                        ui.add_space(12.0 * depth[i].min(32) as f32);
                        if ui.selectable_label(selected, text).clicked() {
                            out.push(Action::SelectJoint(if selected { None } else { Some(node.joint) }));
                        }
                    });
                }
            });
            if let Some(node) = info.nodes.iter().find(|n| Some(n.joint) == selected_joint) {
                ui.separator();
                ui.label(format!("Selected node: {} (joint #{})", node.name, node.joint));
                egui::Grid::new("node details").num_columns(2).show(ui, |ui| {
                    ui.label("Keys");
                    ui.label(format!(
                        "{} rotation, {} position, {} scale",
                        node.rotation_keys, node.position_keys, node.scale_keys
                    ));
                    ui.end_row();
                    ui.label("Two-sided faces");
                    ui.label(format!("{} of {}", node.two_sided_faces, node.faces));
                    ui.end_row();
                    ui.label("Meshes");
                    let names: Vec<&str> =
                        node.meshes.iter().filter_map(|&m| scene.meshes.get(m)).map(|m| m.name.as_str()).collect();
                    ui.label(names.join(", "));
                    ui.end_row();
                });
                for (slot, t) in node.textures.iter().enumerate() {
                    let state = match missing {
                        None => "",
                        Some(m) if m.iter().any(|p| is_texture_path(p, t)) => " (missing)",
                        Some(_) => " (found)",
                    };
                    let uv = info.uv_animations.iter().filter(|a| {
                        info.nodes.get(a.node).is_some_and(|n| n.joint == node.joint) && a.texture_slot == slot as i32
                    });
                    let uv = uv.count();
                    let uv = if uv > 0 { format!(", {uv} UV channel(s)") } else { String::new() };
                    let line = format!("texture {slot}: \"{t}\"{state}{uv}");
                    if state == " (missing)" {
                        ui.colored_label(ui.visuals().warn_fg_color, line);
                    } else {
                        ui.label(line);
                    }
                }
            }
            ui.separator();
            ui.label(format!("Volume boxes ({}), shown by the overlay toggle", info.volume_boxes.len()));
            for (i, b) in info.volume_boxes.iter().enumerate() {
                ui.monospace(format!(
                    "#{i}: size {:.2} {:.2} {:.2}, at {:.2} {:.2} {:.2}, rotation {:.2} {:.2} {:.2}, flag {}",
                    b.size.x,
                    b.size.y,
                    b.size.z,
                    b.position.x,
                    b.position.y,
                    b.position.z,
                    b.rotation.x,
                    b.rotation.y,
                    b.rotation.z,
                    b.flag
                ));
            }
            if !info.uv_animations.is_empty() {
                ui.label(format!("UV animations ({})", info.uv_animations.len()));
                for a in &info.uv_animations {
                    let node = info.nodes.get(a.node).map_or("?", |n| n.name.as_str());
                    let kind = match a.kind {
                        0 => "translate U",
                        1 => "translate V",
                        2 => "scale U",
                        3 => "scale V",
                        4 => "rotate",
                        _ => "unknown",
                    };
                    ui.weak(format!("{node} texture {}: {kind}, {} key(s)", a.texture_slot, a.keys.len()));
                }
            }
        },
    );
}

//! The Scene tab's clip list (click one to play it; the Scene tab's filter keeps the clips it matches) and the
//! MMD axis conversion of attached motions. The transport is on the timeline.

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::document::model::Model;
use crate::app::filter::{Filter, lower};
use crate::scene::{ClipData, DEFAULT_FPS, TrackMode};

pub fn section(ui: &mut egui::Ui, doc: &Document, filter: &Filter, out: &mut Vec<Action>) {
    let query = filter.query();
    let (model, player, mmd_axes) = (&doc.model, &doc.player, doc.mmd_axes);
    let clips = &model.scene.clips;
    egui::CollapsingHeader::new(format!("Animations ({})", clips.len())).id_salt("animations").default_open(true).show(
        ui,
        |ui| {
            if clips.is_empty() {
                ui.weak("none: the bind pose is shown");
            }
            for (i, c) in clips.iter().enumerate() {
                if !query.matches(&[lower(&c.name).as_str()], i) {
                    continue;
                }
                let fps = if c.has_stored_fps() {
                    format!("{} fps", c.fps(DEFAULT_FPS))
                } else {
                    format!("{DEFAULT_FPS} fps (default; the file stores 0)")
                };
                let looping = if model.file_looping.get(i).copied().unwrap_or(c.looping) { "loops" } else { "once" };
                let from = c.source.as_deref().map(|s| format!(", from {s}")).unwrap_or_default();
                let selected = player.clip == Some(i);
                let text = format!("{i}: {}", c.name);
                if ui.selectable_label(selected, text).clicked() {
                    out.push(Action::SelectClip(i));
                }
                ui.weak(format!("    {} frames, {fps}, {looping}{from}", c.frame_count));
            }
        },
    );
    attachments(ui, model, mmd_axes, out);
}

/// The MMD axis conversion of attached delta motions (the attached files themselves are listed in the Files
/// section).
fn attachments(ui: &mut egui::Ui, model: &Model, mmd_axes: bool, out: &mut Vec<Action>) {
    let deltas = model.scene.clips.iter().filter(|c| c.source.is_some()).any(|c| match &c.data {
        ClipData::Keyed { tracks } => tracks.iter().any(|t| t.mode == TrackMode::DeltaOnBind),
        ClipData::Sampled { .. } => false,
    });
    if deltas {
        let mut on = mmd_axes;
        let hint = "Mirror Z of translation deltas and turn rotations (x, y, z, w) into (−x, −y, z, w), then into \
                    the model's up axis (docs/window.md: MikuMikuDance models)";
        if ui.checkbox(&mut on, "MMD axis conversion").on_hover_text(hint).changed() {
            out.push(Action::SetMmdAxes(on));
        }
    }
}

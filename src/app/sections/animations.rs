//! The animation list (click one to play it) and the playback controls.

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::document::model::Model;
use crate::scene::{ClipData, DEFAULT_FPS, TrackMode};

pub fn section(ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
    let (model, player, mmd_axes) = (&doc.model, &doc.player, doc.mmd_axes);
    let clips = &model.scene.clips;
    egui::CollapsingHeader::new(format!("Animations ({})", clips.len())).id_salt("animations").default_open(true).show(
        ui,
        |ui| {
            if clips.is_empty() {
                ui.weak("none: the bind pose is shown");
            }
            for (i, c) in clips.iter().enumerate() {
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
    let Some(clip) = player.clip.and_then(|i| clips.get(i)) else { return };
    egui::CollapsingHeader::new("Playback").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            if ui.button("Start").on_hover_text("Home").clicked() {
                out.push(Action::JumpStart);
            }
            if ui.button("Step back").on_hover_text("Left arrow").clicked() {
                out.push(Action::Step(-1));
            }
            if ui.button(if player.playing { "Pause" } else { "Play" }).on_hover_text("Space").clicked() {
                out.push(Action::TogglePlay);
            }
            if ui.button("Step forward").on_hover_text("Right arrow").clicked() {
                out.push(Action::Step(1));
            }
            if ui.button("End").on_hover_text("End").clicked() {
                out.push(Action::JumpEnd);
            }
        });
        let mut speed = player.speed;
        let r = ui.add(egui::Slider::new(&mut speed, 0.1..=4.0).logarithmic(true).text("Speed"));
        if r.changed() {
            out.push(Action::SetSpeed(speed));
        }
        let mut looping = clip.looping;
        let file = if model.file_looping.get(player.clip.unwrap_or(0)).copied().unwrap_or(clip.looping) {
            "the file says loop"
        } else {
            "the file says play once"
        };
        if ui.checkbox(&mut looping, "Loop").on_hover_text(file).changed() {
            out.push(Action::SetLoop(looping));
        }
    });
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

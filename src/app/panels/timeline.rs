//! The timeline: a scrub bar along the bottom of the window, with the frame number and time, and for a keyed
//! clip a strip of its key frames and one of the selected joint's own keys (click or drag either to scrub too).

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::scene::DEFAULT_FPS;

/// Dragging the bar sets the frame every frame of the drag, so the pose follows live.
pub fn panel(ui: &mut egui::Ui, doc: Option<&Document>) -> Vec<Action> {
    let mut out = Vec::new();
    let Some((doc, (c, frame))) = doc.and_then(|d| Some((d, d.current_clip_frame()?))) else { return out };
    let Some(clip) = doc.scene().clips.get(c) else { return out };
    let player = doc.player();
    egui::Panel::bottom("rigscope timeline").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(if player.playing { "playing" } else { "paused" });
            if doc.pose().hidden {
                ui.colored_label(ui.visuals().warn_fg_color, "model hidden by the motion")
                    .on_hover_text("A visibility key of the motion hides the model here; the skeleton still shows.");
            }
            let fps = clip.fps(DEFAULT_FPS);
            // The frame the slider and the time end at: a motion's last frame, or a looping clip's wrap.
            ui.monospace(format!(
                "frame {frame:7.2} / {}   time {:6.3} s / {:.3} s",
                clip.frame_span(),
                frame / fps,
                clip.duration(DEFAULT_FPS)
            ));
            let mut f = frame;
            ui.spacing_mut().slider_width = (ui.available_width() - 120.0).max(100.0);
            let r = ui.add(egui::Slider::new(&mut f, 0.0..=clip.frame_span()).text("Frame"));
            if r.changed() {
                out.push(Action::SetFrame(f));
            }
        });
        let keys = doc.key_frames(c, None);
        if !keys.is_empty() {
            ui.horizontal(|ui| {
                ui.label(format!("{} key frames", keys.len()));
                if let Some(f) = key_strip(ui, &keys, frame, clip.frame_span()) {
                    out.push(Action::SetFrame(f));
                }
            });
            // The selected joint's own keys, to find where its motion changes.
            if let Some(j) = doc.selection.joint.filter(|&j| j < doc.scene().skeleton.len()) {
                let own = doc.key_frames(c, Some(j));
                ui.horizontal(|ui| {
                    ui.label(format!("{}: {} keys", doc.scene().skeleton.display_name(j), own.len()));
                    if let Some(f) = key_strip(ui, &own, frame, clip.frame_span()) {
                        out.push(Action::SetFrame(f));
                    }
                });
            }
        }
    });
    out
}

/// Ticks at the key frames along a strip as wide as the room left, the current frame as a bar; returns the frame
/// under the pointer while it is pressed on the strip.
fn key_strip(ui: &mut egui::Ui, keys: &[f32], frame: f32, span: f32) -> Option<f32> {
    let width = (ui.available_width() - 8.0).max(100.0);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 14.0), egui::Sense::click_and_drag());
    let span = span.max(1e-6);
    let x = |f: f32| rect.left() + rect.width() * (f / span).clamp(0.0, 1.0);
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 2.0, visuals.extreme_bg_color);
    // One tick per pixel column however many keys fall in it (keys are sorted).
    let mut last = f32::NAN;
    for &k in keys {
        let column = x(k).round();
        if column == last {
            continue;
        }
        last = column;
        painter.line_segment(
            [egui::pos2(column, rect.top() + 2.0), egui::pos2(column, rect.bottom() - 2.0)],
            egui::Stroke::new(1.0, visuals.warn_fg_color),
        );
    }
    painter.line_segment(
        [egui::pos2(x(frame), rect.top()), egui::pos2(x(frame), rect.bottom())],
        egui::Stroke::new(2.0, visuals.selection.bg_fill),
    );
    let pressed = response.clicked() || response.dragged();
    let pos = response.interact_pointer_pos().filter(|_| pressed)?;
    Some(((pos.x - rect.left()) / rect.width()).clamp(0.0, 1.0) * span)
}

//! The timeline: a scrub bar along the bottom of the window, with the frame number and time.

use super::{Action, Player};
use crate::scene::{DEFAULT_FPS, Scene};

/// Dragging the bar sets the frame every frame of the drag, so the pose follows live.
pub fn panel(ui: &mut egui::Ui, scene: Option<&Scene>, player: &Player, frame: Option<(usize, f32)>) -> Vec<Action> {
    let mut out = Vec::new();
    let Some((clip, frame)) = scene.zip(frame).and_then(|(s, (c, f))| Some((s.clips.get(c)?, f))) else {
        return out;
    };
    egui::Panel::bottom("rigscope timeline").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(if player.playing { "playing" } else { "paused" });
            let fps = clip.fps(DEFAULT_FPS);
            ui.monospace(format!(
                "frame {frame:7.2} / {}   time {:6.3} s / {:.3} s",
                clip.frame_count,
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
    });
    out
}

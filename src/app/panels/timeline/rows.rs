//! The timeline's rows, drawn on strips that share one [`TimeView`]: a ruler, the clip's keys, one row per
//! selected or pinned joint, morph or camera (a diamond at each key in its channel's colour, a bar over each run
//! of equal keys), the motion's IK and physics switches (spans where they are off), the stored bounds' height
//! (a sparkline, with the frames where they miss the mesh marked) and the clip's findings.

use egui::{Color32, Pos2, Rect, Sense, Stroke, pos2, vec2};

use super::view::TimeView;
use crate::app::document::dopesheet::{Channel, RowKeys};

/// A row's height, and the width of the names left of the strips.
pub const ROW_HEIGHT: f32 = 16.0;
pub const LABEL_WIDTH: f32 = 150.0;

/// Each channel's colour: translation orange, rotation green, scale blue, morphs violet, cameras yellow, as
/// Blender's and Unity's curve editors tell channels apart by hue.
pub fn channel_color(c: Channel) -> Color32 {
    match c {
        Channel::Translation => Color32::from_rgb(235, 150, 60),
        Channel::Rotation => Color32::from_rgb(90, 200, 110),
        Channel::Scale => Color32::from_rgb(90, 150, 240),
        Channel::Morph => Color32::from_rgb(190, 120, 235),
        Channel::Camera => Color32::from_rgb(230, 210, 80),
    }
}

/// A strip along the view, as wide as the room left.
pub struct Strip {
    pub rect: Rect,
    pub view: TimeView,
}

impl Strip {
    /// Allocates a strip (on its background) in a row `height` high, sensing clicks and drags.
    pub fn new(ui: &mut egui::Ui, view: TimeView, height: f32) -> (Strip, egui::Response) {
        let width = (ui.available_width() - 4.0).max(60.0);
        let (rect, response) = ui.allocate_exact_size(vec2(width, height), Sense::click_and_drag());
        ui.painter_at(rect).rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
        (Strip { rect, view }, response)
    }

    pub fn x(&self, f: f32) -> f32 {
        self.view.x(self.rect.left(), self.rect.width(), f)
    }

    pub fn frame_at(&self, x: f32) -> f32 {
        self.view.frame_at(self.rect.left(), self.rect.width(), x)
    }

    /// The loop range shaded, and the current frame as a bar.
    pub fn overlay(&self, ui: &egui::Ui, frame: f32, range: Option<(f32, f32)>) {
        let painter = ui.painter_at(self.rect);
        if let Some((a, b)) = range {
            let r = Rect::from_x_y_ranges(self.x(a)..=self.x(b), self.rect.y_range());
            painter.rect_filled(r, 0.0, ui.visuals().selection.bg_fill.gamma_multiply(0.25));
        }
        let x = self.x(frame);
        let stroke = Stroke::new(2.0, ui.visuals().selection.bg_fill);
        painter.line_segment([pos2(x, self.rect.top()), pos2(x, self.rect.bottom())], stroke);
    }

    /// Screen columns of `frames` (sorted) in view, one per pixel column however many frames share it.
    fn columns<'a>(&'a self, frames: &'a [f32]) -> impl Iterator<Item = f32> + 'a {
        let (lo, hi) = (self.view.start - 1.0, self.view.end + 1.0);
        let first = frames.partition_point(|&f| f < lo);
        let mut last = f32::NAN;
        frames[first..].iter().take_while(move |&&f| f <= hi).filter_map(move |&f| {
            let c = self.x(f).round();
            (c != last).then(|| {
                last = c;
                c
            })
        })
    }
}

/// The ruler: frame numbers at ticks spaced for reading.
pub fn ruler(ui: &egui::Ui, strip: &Strip) {
    let painter = ui.painter_at(strip.rect);
    let step = strip.view.tick_step(strip.rect.width(), 56.0);
    let color = ui.visuals().weak_text_color();
    let mut f = (strip.view.start / step).ceil() * step;
    while f <= strip.view.end {
        let x = strip.x(f);
        painter
            .line_segment([pos2(x, strip.rect.bottom() - 5.0), pos2(x, strip.rect.bottom())], Stroke::new(1.0, color));
        let text = if step < 1.0 { format!("{f:.1}") } else { format!("{f:.0}") };
        painter.text(
            pos2(x + 2.0, strip.rect.top()),
            egui::Align2::LEFT_TOP,
            text,
            egui::FontId::monospace(10.0),
            color,
        );
        f += step;
    }
}

/// Ticks at `frames` (the clip's keys), full height.
pub fn ticks(ui: &egui::Ui, strip: &Strip, frames: &[f32]) {
    let painter = ui.painter_at(strip.rect);
    let (top, bottom) = (strip.rect.top() + 2.0, strip.rect.bottom() - 2.0);
    let stroke = Stroke::new(1.0, ui.visuals().warn_fg_color);
    for c in strip.columns(frames) {
        painter.line_segment([pos2(c, top), pos2(c, bottom)], stroke);
    }
}

/// An item's channels, each in a lane of its own: a bar over each held run, a diamond at each key.
pub fn channels(ui: &egui::Ui, strip: &Strip, row: &RowKeys) {
    let painter = ui.painter_at(strip.rect);
    let lanes = row.len().max(1) as f32;
    let lane = strip.rect.height() / lanes;
    for (i, (channel, keys)) in row.iter().enumerate() {
        let color = channel_color(*channel);
        let y = strip.rect.top() + lane * (i as f32 + 0.5);
        for &(a, b) in &keys.held {
            let (xa, xb) = (strip.x(a), strip.x(b));
            if xb < strip.rect.left() || xa > strip.rect.right() {
                continue;
            }
            let bar = Rect::from_x_y_ranges(xa..=xb.max(xa + 1.0), (y - 1.5)..=(y + 1.5));
            painter.rect_filled(bar, 0.0, color.gamma_multiply(0.6));
        }
        let r = (lane * 0.5).clamp(2.0, 4.0);
        for c in strip.columns(&keys.keys) {
            diamond(&painter, pos2(c, y), r, color);
        }
    }
}

fn diamond(painter: &egui::Painter, at: Pos2, r: f32, color: Color32) {
    let points = vec![pos2(at.x, at.y - r), pos2(at.x + r, at.y), pos2(at.x, at.y + r), pos2(at.x - r, at.y)];
    painter.add(egui::Shape::convex_polygon(points, color, Stroke::NONE));
}

/// Spans (frames) filled, for the frames an IK chain or a body's physics is switched off.
pub fn spans(ui: &egui::Ui, strip: &Strip, spans: &[(f32, f32)]) {
    let painter = ui.painter_at(strip.rect);
    let color = ui.visuals().warn_fg_color.gamma_multiply(0.7);
    for &(a, b) in spans {
        let r = Rect::from_x_y_ranges(strip.x(a)..=strip.x(b).max(strip.x(a) + 1.0), strip.rect.shrink(3.0).y_range());
        painter.rect_filled(r, 1.0, color);
    }
}

/// `heights` (one per frame from 0) as a line scaled to the strip, its lowest at the bottom; the frames in
/// `marked` as red dots on it.
pub fn sparkline(ui: &egui::Ui, strip: &Strip, heights: &[f32], marked: &[f32]) {
    let painter = ui.painter_at(strip.rect);
    let (lo, hi) = heights.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &h| (a.min(h), b.max(h)));
    if !lo.is_finite() {
        return;
    }
    let r = strip.rect.shrink(2.0);
    let y = |h: f32| if hi - lo > 1e-9 { r.bottom() - (h - lo) / (hi - lo) * r.height() } else { r.center().y };
    // One point per pixel column in view at most.
    let (first, last) = (strip.view.start.floor().max(0.0) as usize, strip.view.end.ceil() as usize);
    let every = ((last - first) as f32 / strip.rect.width().max(1.0)).ceil().max(1.0) as usize;
    let points: Vec<Pos2> = (first..=last.min(heights.len().saturating_sub(1)))
        .step_by(every)
        .map(|f| pos2(strip.x(f as f32), y(heights[f])))
        .collect();
    painter.add(egui::Shape::line(points, Stroke::new(1.0, ui.visuals().text_color())));
    for &f in marked {
        if let Some(&h) = heights.get(f.round().max(0.0) as usize) {
            painter.circle_filled(pos2(strip.x(f), y(h)), 3.0, ui.visuals().error_fg_color);
        }
    }
}

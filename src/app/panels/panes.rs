//! The 3D view's panes: the whole area the panels leave, or with Compare side by side two halves, the model on
//! the left and the reference on the right, seen by the same camera, each titled with its file's name.

/// The reference's title, in the orange its ghost and skeleton are drawn in.
const REFERENCE_TITLE: egui::Color32 = egui::Color32::from_rgb(255, 160, 60);

/// Points between the two panes (a divider line runs down its middle).
const GAP: f32 = 2.0;

/// The model's pane and, side by side, the reference's, in `area`: two halves of equal size (so one
/// projection serves both), split at a whole point.
pub fn split(area: egui::Rect, side_by_side: bool) -> (egui::Rect, Option<egui::Rect>) {
    if !side_by_side || area.width() < 4.0 * GAP {
        return (area, None);
    }
    let half = ((area.width() - GAP) * 0.5).floor();
    let left = egui::Rect::from_min_size(area.min, egui::vec2(half, area.height()));
    let right = egui::Rect::from_min_size(egui::pos2(area.max.x - half, area.min.y), egui::vec2(half, area.height()));
    (left, Some(right))
}

/// The divider between the panes and each pane's title (the model's file, the reference's), over the view.
pub fn paint(ui: &egui::Ui, (model, reference): (egui::Rect, egui::Rect), (ours, theirs): (&str, &str)) {
    let painter = ui.painter();
    let visuals = ui.visuals();
    let x = 0.5 * (model.max.x + reference.min.x);
    painter.vline(x, model.y_range(), egui::Stroke::new(GAP, visuals.widgets.noninteractive.bg_stroke.color));
    let font = egui::TextStyle::Body.resolve(ui.style());
    for (rect, text, colour) in [(model, ours, visuals.strong_text_color()), (reference, theirs, REFERENCE_TITLE)] {
        let at = rect.center_top() + egui::vec2(0.0, 6.0);
        let galley = painter.layout_no_wrap(text.to_string(), font.clone(), colour);
        let back = egui::Rect::from_center_size(at + egui::vec2(0.0, galley.size().y * 0.5), galley.size())
            .expand2(egui::vec2(6.0, 2.0));
        painter.rect_filled(back, 3.0, visuals.extreme_bg_color.gamma_multiply(0.8));
        painter.galley(back.min + egui::vec2(6.0, 2.0), galley, colour);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_by_side_splits_into_equal_halves_with_a_gap() {
        let area = egui::Rect::from_min_size(egui::pos2(300.0, 40.0), egui::vec2(901.0, 600.0));
        assert_eq!(split(area, false), (area, None));
        let (left, right) = split(area, true);
        let right = right.unwrap();
        assert_eq!(left.size(), right.size());
        assert_eq!((left.min, right.max), (area.min, area.max));
        assert!(right.min.x - left.max.x >= GAP && left.width() == left.width().floor());
    }
}

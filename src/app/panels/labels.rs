//! Joint names as labels in the 3D view, placed with the view's projection that the window hands the app
//! ([`crate::app::App::set_view_projection`]).

use egui::{Color32, Pos2, Rect, RichText, Vec2};
use glam::{Mat4, Vec3};

/// Where the model-space point `p` lands in `rect` (egui points), given `model_to_clip` for that rect; `None`
/// behind the camera or outside the rect.
pub fn project_to_view(model_to_clip: Mat4, rect: Rect, p: Vec3) -> Option<Pos2> {
    let clip = model_to_clip * p.extend(1.0);
    if clip.w.is_nan() || clip.w <= 1e-6 {
        return None;
    }
    let ndc = clip.truncate() / clip.w;
    if !ndc.is_finite() || ndc.z < 0.0 || ndc.z > 1.0 {
        return None;
    }
    let pos =
        Pos2::new(rect.min.x + (ndc.x + 1.0) * 0.5 * rect.width(), rect.min.y + (1.0 - ndc.y) * 0.5 * rect.height());
    rect.contains(pos).then_some(pos)
}

/// Labels every joint in `world` (model-space transforms) with its name at its position in `rect`: light text
/// on a dark backing, the selected joint's dark on cyan and drawn last, so on top. Joints behind the camera or
/// outside the view get none.
pub(crate) fn paint(
    ui: &mut egui::Ui,
    rect: Rect,
    model_to_clip: Mat4,
    names: &[&str],
    world: &[Mat4],
    selected: Option<usize>,
) {
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect).id_salt("rigscope joint labels"));
    child.set_clip_rect(rect.intersect(ui.clip_rect()));
    let order = (0..names.len().min(world.len())).filter(|&j| Some(j) != selected).chain(selected);
    for j in order {
        let Some(at) = project_to_view(model_to_clip, rect, world[j].w_axis.truncate()) else { continue };
        let text = RichText::new(names[j]).size(12.0);
        let text = if Some(j) == selected {
            text.color(Color32::BLACK).background_color(Color32::from_rgb(0, 220, 255)).strong()
        } else {
            text.color(Color32::from_gray(235)).background_color(Color32::from_black_alpha(170))
        };
        // Just above and right of the joint, so the joint itself stays visible.
        let place = Rect::from_min_size(at + Vec2::new(4.0, -18.0), Vec2::new(240.0, 16.0));
        let label = egui::Label::new(text).selectable(false).wrap_mode(egui::TextWrapMode::Extend);
        let layout = egui::Layout::left_to_right(egui::Align::Center);
        child.scope_builder(egui::UiBuilder::new().max_rect(place).layout(layout), |ui| ui.add(label));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projection_maps_clip_space_into_the_rect_and_drops_points_behind() {
        let rect = Rect::from_min_size(Pos2::new(100.0, 50.0), Vec2::new(400.0, 200.0));
        // Identity: model space is clip space.
        let centre = project_to_view(Mat4::IDENTITY, rect, Vec3::new(0.0, 0.0, 0.5)).unwrap();
        assert_eq!(centre, Pos2::new(300.0, 150.0));
        let top_left = project_to_view(Mat4::IDENTITY, rect, Vec3::new(-1.0, 1.0, 0.5)).unwrap();
        assert_eq!(top_left, Pos2::new(100.0, 50.0));
        assert!(project_to_view(Mat4::IDENTITY, rect, Vec3::new(2.0, 0.0, 0.5)).is_none());
        // A perspective camera at the origin looking down −Z: a point behind it has none.
        let proj = glam::camera::rh::proj::directx::perspective(1.0, 2.0, 0.1, 100.0);
        assert!(project_to_view(proj, rect, Vec3::new(0.0, 0.0, -5.0)).is_some());
        assert!(project_to_view(proj, rect, Vec3::new(0.0, 0.0, 5.0)).is_none());
        // Right of centre in view space is right of centre on screen.
        let right = project_to_view(proj, rect, Vec3::new(0.5, 0.0, -5.0)).unwrap();
        assert!(right.x > 300.0 && (right.y - 150.0).abs() < 1e-3, "{right:?}");
    }
}

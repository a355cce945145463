//! The view's corner furniture, painted by egui over the 3D view: an axis gizmo (the file's X, Y and Z in red,
//! green and blue, as the camera sees them; clicking an axis looks along it: front, side or top) and the
//! clip's frame number and time.

use egui::{Color32, Pos2, Rect, Stroke, Vec2};
use glam::{Mat4, Vec3, Vec4};

use crate::app::actions::{Action, Intent};
use crate::scene::UpAxis;

/// The gizmo's radius in points.
const RADIUS: f32 = 34.0;

/// The screen direction (egui: y down) of each model axis as the camera sees it around the middle of the view,
/// unit length or shorter (an axis pointing at the camera is short).
fn screen_axes(model_to_clip: Mat4) -> Option<[Vec2; 3]> {
    let inverse = model_to_clip.inverse();
    let unproject = |z: f32| {
        let p = inverse * Vec4::new(0.0, 0.0, z, 1.0);
        (p.w.abs() > 1e-12).then(|| p.truncate() / p.w)
    };
    let (near, mid) = (unproject(0.0)?, unproject(0.5)?);
    let centre = mid;
    let step = (mid - near).length().max(1e-6) * 0.02;
    let project = |p: Vec3| {
        let c = model_to_clip * p.extend(1.0);
        (c.w > 1e-12).then(|| Vec2::new(c.x / c.w, -c.y / c.w))
    };
    let o = project(centre)?;
    let mut out = [Vec2::ZERO; 3];
    let mut longest = 0.0f32;
    for (k, axis) in Vec3::AXES.iter().enumerate() {
        let d = project(centre + *axis * step)? - o;
        out[k] = d;
        longest = longest.max(d.length());
    }
    (longest > 0.0).then(|| out.map(|d| d / longest))
}

/// Where clicking model axis `axis` (0 X, 1 Y, 2 Z; `positive`: its positive end) puts the camera, as (yaw,
/// pitch) in degrees: looking from that end toward the model. The model's basis decides which world direction
/// that is: up gives the top view, the model's front the front view, X a side view.
pub fn snap(up: UpAxis, axis: usize, positive: bool) -> (i16, i16) {
    let sign = if positive { 1.0 } else { -1.0 };
    let world = up.basis().transform_vector3(Vec3::AXES[axis] * sign);
    if world.y > 0.5 {
        (0, 89)
    } else if world.y < -0.5 {
        (0, -89)
    } else if world.x > 0.5 {
        (90, 0)
    } else if world.x < -0.5 {
        (-90, 0)
    } else if world.z > 0.5 {
        (0, 0)
    } else {
        (180, 0)
    }
}

fn gizmo_centre(rect: Rect) -> Pos2 {
    Pos2::new(rect.right() - RADIUS - 14.0, rect.bottom() - RADIUS - 14.0)
}

/// The gizmo's axis ends in the view `rect` for the camera `model_to_clip`: (axis 0 X, 1 Y, 2 Z; positive end;
/// where it is drawn). Clicking within 10 points of an end looks along that axis.
pub fn gizmo_ends(rect: Rect, model_to_clip: Mat4) -> Option<Vec<(usize, bool, Pos2)>> {
    let axes = screen_axes(model_to_clip)?;
    let centre = gizmo_centre(rect);
    let mut ends = Vec::with_capacity(6);
    for (k, d) in axes.iter().enumerate() {
        for positive in [false, true] {
            let s = if positive { 1.0 } else { -1.0 };
            ends.push((k, positive, centre + egui::vec2(d.x, d.y) * RADIUS * s));
        }
    }
    Some(ends)
}

/// Paints the gizmo in the bottom-right corner of `rect`; a click on an axis end asks the window to look along
/// it.
pub(crate) fn paint(ui: &mut egui::Ui, rect: Rect, model_to_clip: Mat4, up: UpAxis, out: &mut Vec<Action>) {
    let Some(ends) = gizmo_ends(rect, model_to_clip) else { return };
    let centre = gizmo_centre(rect);
    let area = Rect::from_center_size(centre, Vec2::splat(2.0 * RADIUS + 20.0));
    let response = ui.interact(area, ui.scope_id().with("rigscope axis gizmo"), egui::Sense::click());
    let painter = ui.painter_at(area);
    painter.circle_filled(centre, RADIUS + 8.0, Color32::from_black_alpha(90));
    let colours = [Color32::from_rgb(230, 60, 60), Color32::from_rgb(80, 200, 80), Color32::from_rgb(80, 130, 255)];
    let names = ["X", "Y", "Z"];
    // Negative ends (faint) first, then the labelled positive ones over them.
    for &(k, positive, end) in ends.iter().filter(|e| !e.1).chain(ends.iter().filter(|e| e.1)) {
        let colour = if positive { colours[k] } else { colours[k].gamma_multiply(0.45) };
        painter.line_segment([centre, end], Stroke::new(if positive { 2.5 } else { 1.5 }, colour));
        painter.circle_filled(end, if positive { 8.0 } else { 4.0 }, colour);
        if positive {
            painter.text(end, egui::Align2::CENTER_CENTER, names[k], egui::FontId::proportional(11.0), Color32::BLACK);
        }
    }
    if response.clicked()
        && let Some(pointer) = response.interact_pointer_pos()
        && let Some(&(k, positive, _)) = ends
            .iter()
            .filter(|e| e.2.distance(pointer) < 10.0)
            .min_by(|a, b| a.2.distance(pointer).total_cmp(&b.2.distance(pointer)))
    {
        let (yaw, pitch) = snap(up, k, positive);
        out.push(Action::Window(Intent::SnapView { yaw, pitch }));
    }
}

/// The clip's frame and time in the bottom-left corner of `rect`.
pub(crate) fn paint_frame(ui: &egui::Ui, rect: Rect, text: &str) {
    let painter = ui.painter_at(rect);
    let at = Pos2::new(rect.left() + 10.0, rect.bottom() - 10.0);
    let font = egui::FontId::monospace(13.0);
    let galley = painter.layout_no_wrap(text.to_string(), font, Color32::from_gray(235));
    let bg = Rect::from_min_size(at - Vec2::new(4.0, galley.size().y + 3.0), galley.size() + Vec2::new(8.0, 6.0));
    painter.rect_filled(bg, 3.0, Color32::from_black_alpha(140));
    painter.galley(at - Vec2::new(0.0, galley.size().y), galley, Color32::from_gray(235));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_snap_to_front_side_and_top_for_every_basis() {
        // Z-up (IQM): +Z is up, −Y is the front, +X the model's left side as seen.
        assert_eq!(snap(UpAxis::Z, 2, true), (0, 89));
        assert_eq!(snap(UpAxis::Z, 1, false), (0, 0));
        assert_eq!(snap(UpAxis::Z, 1, true), (180, 0));
        assert_eq!(snap(UpAxis::Z, 0, true), (90, 0));
        // Y-up: +Y up, +Z front. Left-handed Y-up (MMD): −Z is the front.
        assert_eq!(snap(UpAxis::Y, 1, true), (0, 89));
        assert_eq!(snap(UpAxis::Y, 2, true), (0, 0));
        assert_eq!(snap(UpAxis::YLeftHanded, 2, false), (0, 0));
        // Y-down (RSM1): −Y is up.
        assert_eq!(snap(UpAxis::NegY, 1, false), (0, 89));
    }

    #[test]
    fn a_camera_looking_down_minus_z_sees_x_right_and_y_up() {
        let view = glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, Vec3::Y);
        let proj = glam::camera::rh::proj::directx::perspective(0.8, 1.0, 0.1, 100.0);
        let [x, y, z] = screen_axes(proj * view).unwrap();
        assert!(x.x > 0.9 && x.y.abs() < 1e-3, "{x}");
        assert!(y.y < -0.9 && y.x.abs() < 1e-3, "{y}: up on screen is −y in egui");
        assert!(z.length() < 0.2, "{z}: Z points at the camera");
    }
}

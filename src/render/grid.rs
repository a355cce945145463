//! The ground grid: lines on the model's ground plane, spaced by a power of ten that suits the model's size,
//! with the X axis and the forward axis coloured. The plane sits at the file's origin (z = 0 for Z-up models,
//! y = 0 for the Y-up and Y-down ones) or, given a ground height, under the model's lowest point; then the
//! origin is marked with small axes of its own, so a model whose origin sits at its hips still shows where
//! that is.

use glam::Vec3;

use super::lines::{LineVertex, colors, line};
use crate::scene::{FrameBounds, UpAxis};

/// Where the ground goes for a model whose bounds over the shown clip are `bounds` (model space): the
/// model-space coordinate along its up axis of its lowest point as shown (Y-down models: the largest y).
pub fn ground_height(up: UpAxis, bounds: &FrameBounds) -> f32 {
    match up {
        UpAxis::Z => bounds.min.z,
        UpAxis::Y | UpAxis::YLeftHanded | UpAxis::YBack => bounds.min.y,
        UpAxis::NegY => bounds.max.y,
    }
}

/// Appends the grid for a model with these bind-pose bounds (model space), at `ground` along the up axis
/// (model space; `None`: through the origin).
pub(crate) fn grid(out: &mut Vec<LineVertex>, up: UpAxis, bounds: Option<&FrameBounds>, ground: Option<f32>) {
    let h = ground.filter(|g| g.is_finite()).unwrap_or(0.0);
    // Ground-plane coordinates (a, b) and a height → model space.
    let at = |a: f32, b: f32, h: f32| match up {
        UpAxis::Z => Vec3::new(a, b, h),
        UpAxis::Y | UpAxis::NegY | UpAxis::YLeftHanded | UpAxis::YBack => Vec3::new(a, h, b),
    };
    let point = |a: f32, b: f32| at(a, b, h);
    let (center, size) = match bounds {
        Some(b) => {
            let c = (b.min + b.max) * 0.5;
            let d = b.max - b.min;
            let (ca, cb, da, db) = match up {
                UpAxis::Z => (c.x, c.y, d.x, d.y),
                UpAxis::Y | UpAxis::NegY | UpAxis::YLeftHanded | UpAxis::YBack => (c.x, c.z, d.x, d.z),
            };
            ((ca, cb), da.max(db).max(d.max_element() * 0.5).max(1e-3))
        }
        None => ((0.0, 0.0), 1.0),
    };
    // About ten cells across twice the model's footprint.
    let half = size * 1.2;
    let spacing = 10f32.powf((half / 5.0).log10().floor());
    let cells = ((half / spacing).ceil() as i32).clamp(1, 60);
    let snap = |v: f32| (v / spacing).round() * spacing;
    let (ca, cb) = (snap(center.0), snap(center.1));
    let extent = cells as f32 * spacing;
    for i in -cells..=cells {
        let o = i as f32 * spacing;
        let major = |v: f32| ((v / spacing).round() as i64).rem_euclid(10) == 0;
        let (a, b) = (ca + o, cb + o);
        let color_a = if a.abs() < spacing * 0.5 {
            colors::AXIS_FORWARD
        } else if major(a) {
            colors::GRID_MAJOR
        } else {
            colors::GRID
        };
        let color_b = if b.abs() < spacing * 0.5 {
            colors::AXIS_X
        } else if major(b) {
            colors::GRID_MAJOR
        } else {
            colors::GRID
        };
        line(out, point(a, cb - extent), point(a, cb + extent), color_a);
        line(out, point(ca - extent, b), point(ca + extent, b), color_b);
    }
    // The file's origin, when the grid has moved off it: its three axes, a cell long.
    if h != 0.0 {
        let l = spacing;
        line(out, Vec3::ZERO, Vec3::X * l, colors::JOINT_X);
        line(out, Vec3::ZERO, Vec3::Y * l, colors::JOINT_Y);
        line(out, Vec3::ZERO, Vec3::Z * l, colors::JOINT_Z);
    }
}

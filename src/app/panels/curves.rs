//! The timeline's Curves tab: the selected joint's local channels over the whole clip, one value per frame as
//! played (eased between an MMD motion's keys): translation x y z, rotation as a quaternion x y z w and as
//! Euler angles unwrapped (a turn past ±180° goes on to 190° instead of jumping to −170°, so a wrap in the data
//! shows as the jump it is), and scale x y z; the joint's keys as diamonds, the playhead as a line, and the
//! clip's findings at this joint (pops, flips, seams) as red lines. Normalize maps each curve to −1…1, as
//! Blender's Graph Editor does, so small channels show beside large ones. A click or drag on the plot scrubs.
//! Which channel groups show and Normalize are the tab's own state, kept in egui's memory.

use egui_plot::{Legend, Line, MarkerShape, Plot, PlotPoints, Points, VLine};

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::scene::Transform;

/// The plot's height: fixed, since the bottom panel sizes itself to its content (a height taken from the room
/// left would grow the panel every frame).
const PLOT_HEIGHT: f32 = 200.0;

/// What the tab shows; kept in egui's memory (persisted with the window's state).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
struct Shown {
    translation: bool,
    quaternion: bool,
    euler: bool,
    scale: bool,
    normalize: bool,
}

impl Default for Shown {
    fn default() -> Self {
        Shown { translation: true, quaternion: false, euler: true, scale: false, normalize: false }
    }
}

/// One curve: its name and its value at every frame.
struct Curve {
    name: &'static str,
    values: Vec<f64>,
}

/// The curves of `frames` (a joint's local transform at each whole frame) that `shown` asks for.
fn curves(frames: &[Transform], shown: Shown) -> Vec<Curve> {
    let mut out = Vec::new();
    let mut push = |name, f: &dyn Fn(&Transform) -> f32| {
        out.push(Curve { name, values: frames.iter().map(|t| f64::from(f(t))).collect() });
    };
    if shown.translation {
        push("translation x", &|t| t.translation.x);
        push("translation y", &|t| t.translation.y);
        push("translation z", &|t| t.translation.z);
    }
    if shown.quaternion {
        push("rotation qx", &|t| t.rotation.x);
        push("rotation qy", &|t| t.rotation.y);
        push("rotation qz", &|t| t.rotation.z);
        push("rotation qw", &|t| t.rotation.w);
    }
    if shown.scale {
        push("scale x", &|t| t.scale.x);
        push("scale y", &|t| t.scale.y);
        push("scale z", &|t| t.scale.z);
    }
    if shown.euler {
        let euler: Vec<[f64; 3]> = unwrapped_euler(frames);
        for (i, name) in ["rotation x (°)", "rotation y (°)", "rotation z (°)"].into_iter().enumerate() {
            out.push(Curve { name, values: euler.iter().map(|e| e[i]).collect() });
        }
    }
    if shown.normalize {
        for c in &mut out {
            normalize(&mut c.values);
        }
    }
    out
}

/// Each frame's rotation as XYZ Euler angles in degrees, each angle moved by whole turns to lie within 180° of
/// the frame before's.
pub fn unwrapped_euler(frames: &[Transform]) -> Vec<[f64; 3]> {
    let mut out: Vec<[f64; 3]> = Vec::with_capacity(frames.len());
    for t in frames {
        let (x, y, z) = t.rotation.to_euler(glam::EulerRot::XYZ);
        let mut e = [x, y, z].map(|a| f64::from(a).to_degrees());
        if let Some(prev) = out.last() {
            for (a, p) in e.iter_mut().zip(prev) {
                *a += 360.0 * ((p - *a) / 360.0).round();
            }
        }
        out.push(e);
    }
    out
}

/// `values` mapped linearly onto −1…1 (a flat curve onto 0).
fn normalize(values: &mut [f64]) {
    let (lo, hi) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    let span = hi - lo;
    for v in values {
        *v = if span > 1e-12 { 2.0 * (*v - lo) / span - 1.0 } else { 0.0 };
    }
}

/// The tab, for joint `joint` of clip `clip` at `frame`.
pub fn tab(ui: &mut egui::Ui, doc: &Document, clip: usize, joint: usize, frame: f32) -> Vec<Action> {
    let mut out = Vec::new();
    let id = egui::Id::unique("rigscope curves shown");
    let mut shown: Shown = ui.data_mut(|d| *d.get_persisted_mut_or_default::<Shown>(id));
    ui.horizontal(|ui| {
        ui.label(format!("Curves: joint \"{}\"", doc.scene().skeleton.display_name(joint)));
        ui.checkbox(&mut shown.translation, "Translation");
        ui.checkbox(&mut shown.quaternion, "Quaternion");
        ui.checkbox(&mut shown.euler, "Euler");
        ui.checkbox(&mut shown.scale, "Scale");
        ui.checkbox(&mut shown.normalize, "Normalize")
            .on_hover_text("Each curve mapped onto −1…1, so small channels show beside large ones");
    });
    ui.data_mut(|d| d.insert_persisted(id, shown));
    let frames = doc.joint_curve(clip, joint);
    let curves = curves(&frames, shown);
    let keys = doc.key_frames(clip, Some(joint));
    let findings: Vec<(f64, String)> = doc
        .findings
        .iter()
        .filter(|f| f.place.clip == Some(clip) && f.place.joint == Some(joint))
        .filter_map(|f| Some((f64::from(f.place.frame?), format!("{} at frame {}", f.rule, f.place.frame?))))
        .collect();
    let at = |values: &[f64], k: f32| values.get(k.round().max(0.0) as usize).copied();
    let plot = Plot::new("rigscope curves")
        .height(PLOT_HEIGHT)
        .legend(Legend::default())
        .x_axis_label("frame")
        .allow_scroll(false)
        .allow_drag(false)
        .allow_boxed_zoom(false)
        .show(ui, |p| {
            for c in &curves {
                let line: Vec<[f64; 2]> = c.values.iter().enumerate().map(|(f, v)| [f as f64, *v]).collect();
                p.line(Line::new(c.name, PlotPoints::from(line)));
                let diamonds: Vec<[f64; 2]> =
                    keys.iter().filter_map(|&k| Some([f64::from(k), at(&c.values, k)?])).collect();
                if !diamonds.is_empty() {
                    p.points(Points::new(c.name, PlotPoints::from(diamonds)).shape(MarkerShape::Diamond).radius(3.0));
                }
            }
            for (f, name) in &findings {
                p.vline(VLine::new(name.as_str(), *f).color(egui::Color32::from_rgb(230, 60, 60)).width(2.0));
            }
            p.vline(VLine::new("now", f64::from(frame)));
        });
    // Clicking or dragging on the plot scrubs, as the timeline's bar does.
    let r = &plot.response;
    if (r.clicked() || r.dragged())
        && let Some(pos) = r.interact_pointer_pos()
    {
        let f = plot.transform.value_from_position(pos).x as f32;
        let last = frames.len().saturating_sub(1) as f32;
        out.push(Action::SetFrame(f.clamp(0.0, last)));
    }
    if frames.is_empty() {
        ui.weak("This clip doesn't reach the joint.");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn euler_angles_unwrap_across_a_half_turn() {
        // About Z from 170° to 190° in 5° steps: the stored angle wraps to −175°, the curve goes on to 190°.
        let frames: Vec<Transform> = (0..5)
            .map(|i| Transform {
                rotation: Quat::from_rotation_z((170.0 + 5.0 * i as f32).to_radians()),
                ..Transform::IDENTITY
            })
            .collect();
        let z: Vec<f64> = unwrapped_euler(&frames).iter().map(|e| e[2]).collect();
        for (i, z) in z.iter().enumerate() {
            assert!((z - (170.0 + 5.0 * i as f64)).abs() < 1e-3, "{z} at {i}");
        }
    }

    #[test]
    fn normalize_maps_onto_minus_one_to_one() {
        let mut v = vec![2.0, 4.0, 3.0];
        normalize(&mut v);
        assert_eq!(v, [-1.0, 1.0, 0.0]);
        let mut flat = vec![5.0; 3];
        normalize(&mut flat);
        assert_eq!(flat, [0.0; 3]);
    }
}

//! The timeline's Curves tab: the selected joints' (a display frame's, the pinned selection's) local channels
//! over the whole clip, one value per frame as played (eased between an MMD motion's keys): translation x y z,
//! rotation as a quaternion x y z w and as Euler angles unwrapped (a turn past ±180° goes on to 190° instead of
//! jumping to −170°, so a wrap in the data shows as the jump it is), and scale x y z; the selected morph's
//! weight; the Compare reference's same channels as dashed ghosts; the keys as diamonds at their keyed values,
//! the playhead as a line, and the clip's findings at these joints (pops, flips, seams) as red lines. Long clips
//! are drawn at two points per pixel column, each column's lowest and highest, so a one-frame pop still shows. Normalize maps each curve to −1…1, as
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

/// What the tab plots: the joints' channels (each curve named after its joint when there are several), the
/// morph's weight, and the Compare reference's same channels as ghosts.
pub struct Plotted<'a> {
    pub joints: &'a [usize],
    pub morph: Option<usize>,
}

/// A plotted line: its name, its value per frame, the key frames its diamonds mark, and whether it is a ghost
/// (the Compare reference's).
type PlotLine = (String, Vec<f64>, std::rc::Rc<[f32]>, bool);

/// The tab, for clip `clip` at `frame`.
pub fn tab(ui: &mut egui::Ui, doc: &Document, clip: usize, plotted: Plotted<'_>, frame: f32) -> Vec<Action> {
    let mut out = Vec::new();
    let id = egui::Id::unique("rigscope curves shown");
    let mut shown: Shown = ui.data_mut(|d| *d.get_persisted_mut_or_default::<Shown>(id));
    let scene = doc.scene();
    let names: Vec<String> = plotted.joints.iter().map(|&j| scene.skeleton.display_name(j).to_string()).collect();
    ui.horizontal(|ui| {
        let mut what = names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
        if let Some(m) = plotted.morph.and_then(|m| scene.morphs.get(m)) {
            what = if what.is_empty() { format!("morph {}", m.name) } else { format!("{what}, morph {}", m.name) };
        }
        ui.label(format!("Curves: {what}"));
        ui.checkbox(&mut shown.translation, "Translation");
        ui.checkbox(&mut shown.quaternion, "Quaternion");
        ui.checkbox(&mut shown.euler, "Euler");
        ui.checkbox(&mut shown.scale, "Scale");
        ui.checkbox(&mut shown.normalize, "Normalize")
            .on_hover_text("Each curve mapped onto −1…1, so small channels show beside large ones");
    });
    ui.data_mut(|d| d.insert_persisted(id, shown));
    let mut lines: Vec<PlotLine> = Vec::new();
    let several = plotted.joints.len() > 1;
    let mut last = 0usize;
    for (&j, name) in plotted.joints.iter().zip(&names) {
        let frames = doc.joint_curve(clip, j);
        last = last.max(frames.len().saturating_sub(1));
        let keys = doc.key_frames(clip, Some(j));
        for c in curves(&frames, shown) {
            let label = if several { format!("{name} {}", c.name) } else { c.name.to_string() };
            lines.push((label, c.values, keys.clone(), false));
        }
        if let Some(theirs) = doc.reference_curve(clip, j) {
            for c in curves(&theirs, shown) {
                let label =
                    if several { format!("{name} {} (reference)", c.name) } else { format!("{} (reference)", c.name) };
                lines.push((label, c.values, std::rc::Rc::from([]), true));
            }
        }
    }
    if let Some((name, weights, keys)) = plotted.morph.and_then(|m| doc.morph_curve(clip, m)) {
        let mut values: Vec<f64> = weights.iter().map(|&w| f64::from(w)).collect();
        if shown.normalize {
            normalize(&mut values);
        }
        last = last.max(values.len().saturating_sub(1));
        lines.push((format!("morph {name}"), values, keys, false));
    }
    let findings: Vec<(f64, String)> = doc
        .findings
        .iter()
        .filter(|f| f.place.clip == Some(clip) && f.place.joint.is_some_and(|j| plotted.joints.contains(&j)))
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
            let width = p.transform().frame().width().max(1.0);
            for (name, values, keys, ghost) in &lines {
                let line = Line::new(name.as_str(), PlotPoints::from(decimated(values, width)));
                let line = if *ghost { line.style(egui_plot::LineStyle::dashed_dense()).width(1.0) } else { line };
                p.line(line);
                let diamonds: Vec<[f64; 2]> =
                    keys.iter().filter_map(|&k| Some([f64::from(k), at(values, k)?])).collect();
                if !diamonds.is_empty() {
                    p.points(
                        Points::new(name.as_str(), PlotPoints::from(diamonds)).shape(MarkerShape::Diamond).radius(3.0),
                    );
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
        out.push(Action::SetFrame(f.clamp(0.0, last as f32)));
    }
    if lines.is_empty() {
        ui.weak("This clip doesn't reach what is selected.");
    }
    out
}

/// `values` (one per frame) as plot points, at most about two per pixel column of a plot `width` wide: each
/// run of frames sharing a column keeps its lowest and highest value, in order, so a one-frame pop still shows
/// at its full height when a 2 800-frame clip is plotted 800 pixels wide.
fn decimated(values: &[f64], width: f32) -> Vec<[f64; 2]> {
    let per_column = (values.len() as f32 / width.max(1.0)).floor().max(1.0) as usize;
    if per_column < 3 {
        return values.iter().enumerate().map(|(f, v)| [f as f64, *v]).collect();
    }
    let mut out = Vec::with_capacity(2 * values.len() / per_column + 2);
    for (c, chunk) in values.chunks(per_column).enumerate() {
        let first = c * per_column;
        let (mut lo, mut hi) = (0, 0);
        for (i, v) in chunk.iter().enumerate() {
            if *v < chunk[lo] {
                lo = i;
            }
            if *v > chunk[hi] {
                hi = i;
            }
        }
        let (a, b) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        out.push([(first + a) as f64, chunk[a]]);
        if b != a {
            out.push([(first + b) as f64, chunk[b]]);
        }
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

    #[test]
    fn decimation_keeps_a_one_frame_pop_and_every_frame_when_there_is_room() {
        let mut values = vec![0.0; 2800];
        values[1234] = 40.0;
        values[2000] = -3.0;
        let points = decimated(&values, 800.0);
        assert!(points.len() <= 2 * 800 + 2, "{}", points.len());
        assert!(points.contains(&[1234.0, 40.0]) && points.contains(&[2000.0, -3.0]));
        assert!(points.windows(2).all(|w| w[0][0] < w[1][0]), "in frame order");
        assert_eq!(decimated(&values[..100], 800.0).len(), 100);
    }
}

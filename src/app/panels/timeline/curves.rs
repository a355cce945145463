//! The timeline's Curves tab: the selected joints' (a display frame's, the pinned selection's) local channels
//! over the whole clip, one value per frame as played (eased between an MMD motion's keys): translation x y z,
//! rotation as a quaternion x y z w and as Euler angles unwrapped (a turn past ±180° goes on to 190° instead of
//! jumping to −170°, so a wrap in the data shows as the jump it is), and scale x y z; the selected morph's
//! weight; the Compare reference's same channels as dashed ghosts; the keys as diamonds at their keyed values,
//! the playhead as a line, and the clip's findings at these joints (pops, flips, seams) as red lines. Each line
//! is simplified to half a pixel once per selection and kept (`simplified`), so a one-frame pop still shows. Normalize maps each curve to −1…1, as
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

/// A line as the plot draws it: its name, its points (simplified), a diamond at each key, and whether it is a
/// ghost (the Compare reference's, dashed).
struct DrawnLine {
    name: String,
    points: Vec<[f64; 2]>,
    diamonds: Vec<[f64; 2]>,
    ghost: bool,
}

/// The tab's lines, and the last frame they reach.
struct Drawn {
    lines: Vec<DrawnLine>,
    last: usize,
}

/// What [`Drawn`] was made for: the document as it is, the clip, what is plotted and how.
#[derive(Debug, Clone, PartialEq)]
struct DrawnKey {
    doc: u64,
    revision: u64,
    clip: usize,
    joints: Vec<usize>,
    morph: Option<usize>,
    shown: Shown,
    reference: Option<u64>,
}

/// The lines of `plotted` in clip `clip` (joints named `names`), each simplified for the plot's height.
fn drawn(doc: &Document, clip: usize, plotted: &Plotted<'_>, names: &[String], shown: Shown) -> Drawn {
    let mut lines = Vec::new();
    let several = plotted.joints.len() > 1;
    let mut last = 0usize;
    let mut push = |name: String, values: Vec<f64>, keys: &[f32], ghost: bool| {
        let at = |k: f32| values.get(k.round().max(0.0) as usize).copied();
        let diamonds = keys.iter().filter_map(|&k| Some([f64::from(k), at(k)?])).collect();
        lines.push(DrawnLine { name, points: simplified(&values, PLOT_HEIGHT), diamonds, ghost });
    };
    for (&j, name) in plotted.joints.iter().zip(names) {
        let frames = doc.joint_curve(clip, j);
        last = last.max(frames.len().saturating_sub(1));
        let keys = doc.key_frames(clip, Some(j));
        for c in curves(&frames, shown) {
            let label = if several { format!("{name} {}", c.name) } else { c.name.to_string() };
            push(label, c.values, &keys, false);
        }
        if let Some(theirs) = doc.reference_curve(clip, j) {
            for c in curves(&theirs, shown) {
                let label =
                    if several { format!("{name} {} (reference)", c.name) } else { format!("{} (reference)", c.name) };
                push(label, c.values, &[], true);
            }
        }
    }
    if let Some((name, weights, keys)) = plotted.morph.and_then(|m| doc.morph_curve(clip, m)) {
        let mut values: Vec<f64> = weights.iter().map(|&w| f64::from(w)).collect();
        if shown.normalize {
            normalize(&mut values);
        }
        last = last.max(values.len().saturating_sub(1));
        push(format!("morph {name}"), values, &keys, false);
    }
    Drawn { lines, last }
}

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
    // The lines, simplified for the plot's height, made once per selection and switches (not per frame).
    let key = DrawnKey {
        doc: doc.id(),
        revision: doc.revision(),
        clip,
        joints: plotted.joints.to_vec(),
        morph: plotted.morph,
        shown,
        reference: doc.reference.as_deref().map(|r| r.stamp),
    };
    let cache = egui::Id::unique("rigscope curves drawn");
    let cached = ui.data(|d| d.get_temp::<std::sync::Arc<(DrawnKey, Drawn)>>(cache)).filter(|c| c.0 == key);
    let drawn = cached.unwrap_or_else(|| {
        let made = std::sync::Arc::new((key, drawn(doc, clip, &plotted, &names, shown)));
        ui.data_mut(|d| d.insert_temp(cache, made.clone()));
        made
    });
    let (lines, last) = (&drawn.1.lines, drawn.1.last);
    let findings: Vec<(f64, String)> = doc
        .findings
        .iter()
        .filter(|f| f.place.clip == Some(clip) && f.place.joint.is_some_and(|j| plotted.joints.contains(&j)))
        .filter_map(|f| Some((f64::from(f.place.frame?), format!("{} at frame {}", f.rule, f.place.frame?))))
        .collect();
    let plot = Plot::new("rigscope curves")
        .height(PLOT_HEIGHT)
        .legend(Legend::default())
        .x_axis_label("frame")
        .allow_scroll(false)
        .allow_drag(false)
        .allow_boxed_zoom(false)
        .show(ui, |p| {
            for l in lines {
                let line = Line::new(l.name.as_str(), PlotPoints::from(l.points.clone()));
                let line = if l.ghost { line.style(egui_plot::LineStyle::dashed_dense()).width(1.0) } else { line };
                p.line(line);
                if !l.diamonds.is_empty() {
                    let points = PlotPoints::from(l.diamonds.clone());
                    p.points(Points::new(l.name.as_str(), points).shape(MarkerShape::Diamond).radius(3.0));
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

/// `values` (one per frame) as plot points for a plot `height` pixels high: the fewest points whose straight
/// segments stay within half a pixel (vertically) of every value, the line's own range taken as the plot's
/// height (the plot's is at least as large, so the error on screen is at most that). Douglas–Peucker on the
/// vertical distance: a one-frame pop, far off any segment that skips it, is always kept, while a smooth
/// 2 800-frame curve needs a few hundred points instead of 2 800, which is what the plot spends its time on.
fn simplified(values: &[f64], height: f32) -> Vec<[f64; 2]> {
    let point = |i: usize| [i as f64, values[i]];
    if values.len() < 3 {
        return (0..values.len()).map(point).collect();
    }
    let (lo, hi) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    let tolerance = if hi - lo > 0.0 { 0.5 * (hi - lo) / f64::from(height.max(1.0)) } else { 0.0 };
    let mut keep = vec![false; values.len()];
    let last = values.len() - 1;
    (keep[0], keep[last]) = (true, true);
    let mut spans = vec![(0, last)];
    while let Some((a, b)) = spans.pop() {
        let (va, vb) = (values[a], values[b]);
        let off = |i: usize| (values[i] - (va + (vb - va) * (i - a) as f64 / (b - a) as f64)).abs();
        let worst = (a + 1..b).map(|i| (i, off(i))).max_by(|x, y| x.1.total_cmp(&y.1));
        if let Some((i, d)) = worst
            && (d > tolerance || !d.is_finite())
        {
            keep[i] = true;
            spans.extend([(a, i), (i, b)]);
        }
    }
    (0..values.len()).filter(|&i| keep[i]).map(point).collect()
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
    fn simplifying_keeps_a_one_frame_pop_and_every_value_within_half_a_pixel() {
        // A slow swing over 2 800 frames, with a one-frame pop at 1234.
        let mut values: Vec<f64> = (0..2800).map(|f| 30.0 * (f as f64 / 300.0).sin()).collect();
        values[1234] += 40.0;
        let points = simplified(&values, 200.0);
        assert!(points.len() < 500, "{} points", points.len());
        assert!(points.windows(2).all(|w| w[0][0] < w[1][0]), "in frame order");
        assert!(points.contains(&[1234.0, values[1234]]), "the pop's frame is kept");
        // Every value lies within half a pixel of the drawn line.
        let (lo, hi) = values.iter().fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
        let pixel = (hi - lo) / 200.0;
        for w in points.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (first, end) = (a[0] as usize, b[0] as usize);
            for (f, v) in values.iter().enumerate().take(end + 1).skip(first) {
                let on = a[1] + (b[1] - a[1]) * (f as f64 - a[0]) / (b[0] - a[0]);
                assert!((v - on).abs() <= 0.5 * pixel + 1e-9, "frame {f}");
            }
        }
        let flat = simplified(&[2.0; 100], 200.0);
        assert_eq!(flat, [[0.0, 2.0], [99.0, 2.0]]);
        assert_eq!(simplified(&[1.0, 2.0], 200.0).len(), 2);
    }
}

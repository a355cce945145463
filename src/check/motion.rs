//! The motion bugs exporters make, found in each clip's local channels frame by frame (their per-frame steps
//! from `frames.rs`, which shares a keyed clip's straight segments out rather than posing them): a joint that
//! pops for a frame or a few and comes back (`anim.pop`), a turn so near half a turn between two keys that
//! players disagree on which way round it goes (`anim.rotation.flip`), stored rotations in opposite hemispheres
//! where the format's players blend the stored components (`anim.rotation.hemisphere`), a looping clip whose
//! last frame doesn't run on into its first (`anim.loop.seam`), and a clip in which nothing moves
//! (`anim.clip.still`).
//!
//! **Why these statistics.** A pop is told from fast motion by its shape, not its size: the joint jumps away in
//! one frame step, sits, and jumps back in one step, so the pose after the pop is near the pose before it, and
//! both jumps are many times the joint's own typical step around that frame. The typical step is the *median*
//! of the steps in a few frames either side, the pop's own steps left out: one spike can't raise a median, so
//! the threshold stays where the surrounding motion is, while an arm swinging fast has large steps everywhere
//! around and its median grows with it. A smooth out-and-back (a punch, a nod, a finger's ease in and out, an
//! authored flick keyed two frames apart) moves in several comparable steps, so the calm test rules it out even
//! when it is short: the steps inside the displaced frames, and the ones just before the jump away and just
//! after the jump back, must each be a quarter of the jump or less. Joints are judged on their local channels
//! (rotation, translation, scale) separately, each in its own unit, so a pop of a finger's rotation isn't
//! drowned by the root's translation; a rotation pop must then also show in model space, leaving the path
//! between the poses around it, so a child that only undoes its parent's pop is not named.
//!
//! What the rules find on real exports, judged one by one, and what they cost: BENCHMARKS.md, "Motion
//! detectors".

use glam::Quat;

use super::frames::Frames;
use super::{Finding, Place, Severity};
use crate::scene::{Clip, ClipData, DEFAULT_FPS, FrameBounds, Scene, Transform};

/// Steps taken either side of a candidate pop for its joint's typical step.
const WINDOW: usize = 6;
/// A pop's jumps are at least this many times the typical step around them, and at least this many times
/// every step between them and just before and after them (where it sits, and the motion it leaves and lands
/// in).
const POP_FACTOR: f32 = 4.0;
/// A pop returns within this many frames.
const POP_WIDTH: usize = 3;
/// After a pop the joint is back within this fraction of the jump.
const RETURN_FRACTION: f32 = 0.5;
/// Smallest step a pop, flip or seam can be, per channel: rotation in degrees, translation as a fraction of the
/// model's size, scale as a ratio. Below these a step is at the level of quantisation noise (IQM stores 16-bit
/// channels) and invisible on screen.
const ROTATION_FLOOR: f32 = 2.0;
const TRANSLATION_FLOOR: f32 = 0.002;
const SCALE_FLOOR: f32 = 0.02;
/// Two keys (or frames) further apart than this, in degrees, are a near half turn: the short way and the long
/// way round differ by under 20°, so the keys no longer say which one the animator meant, and players part
/// ways (shortest-path slerp takes one, a component blend of the stored signs may take the other, a matrix
/// blend collapses the limb between them).
pub const FLIP_DEGREES: f32 = 170.0;
/// |q₁·q₂| at [`FLIP_DEGREES`] apart (cos of half the turn), so most pairs are judged without an `acos`.
const FLIP_COS: f32 = 0.087_155_74;
/// Findings of one rule in one clip beyond this are summed up in one more.
const MAX_PER_RULE: usize = 50;

fn finding(file: &str, rule: &str, place: Place, message: String) -> Finding {
    Finding { file: file.to_string(), rule: rule.to_string(), severity: Severity::Warning, place, message }
}

/// A local channel of a joint, each measured in its own unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Channel {
    Rotation,
    Translation,
    Scale,
}

impl Channel {
    pub(super) const ALL: [Channel; 3] = [Channel::Rotation, Channel::Translation, Channel::Scale];

    /// How far apart `a` and `b` are in this channel: degrees (the shortest turn), model units, or the largest
    /// ratio difference of an axis.
    pub(super) fn distance(self, a: &Transform, b: &Transform) -> f32 {
        match self {
            Channel::Rotation => unit_turn_degrees(a.rotation, b.rotation),
            Channel::Translation => a.translation.distance(b.translation),
            Channel::Scale => (a.scale - b.scale).abs().max_element(),
        }
    }

    fn describe(self, size: Option<f32>, v: f32) -> String {
        match (self, size) {
            (Channel::Rotation, _) => format!("{v:.1}°"),
            (Channel::Translation, Some(size)) => {
                format!("{v:.4} units ({:.2} % of the model's size)", 100.0 * v / size)
            }
            (Channel::Translation, None) => format!("{v:.4} units"),
            (Channel::Scale, _) => format!("{v:.3} in scale"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Channel::Rotation => "turns",
            Channel::Translation => "moves",
            Channel::Scale => "scales",
        }
    }
}

/// The shortest turn from `a` to `b`, in degrees (0 to 180).
pub fn turn_degrees(a: Quat, b: Quat) -> f32 {
    unit_turn_degrees(a.normalize(), b.normalize())
}

/// [`turn_degrees`] of two rotations already of unit length (every sampled or loaded one is).
fn unit_turn_degrees(a: Quat, b: Quat) -> f32 {
    2.0 * a.dot(b).abs().min(1.0).acos().to_degrees()
}

/// What a format's players do with two stored rotations in opposite hemispheres (`q` and a `-q'` near `q'`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RotationBlend {
    /// They take the shorter way whatever the signs (glTF LINEAR's slerp, MikuMikuDance's and MikuMikuMoving's
    /// D3DX slerp, babylon-mmd, three.js), or blend whole matrices between sampled frames (the IQM demo): the
    /// sign alone changes nothing.
    Shortest,
    /// Some of its players blend the stored components as they are and turn the long way round: RSM's korangar
    /// (nlerp) and BrowEdit3 (a component mix), while roBrowser and rigscope slerp the short way (notes/rsm.md).
    Components,
}

/// [`RotationBlend`] of a scene's format. glTF's CUBICSPLINE, the one glTF case that blends components, is the
/// reader's own finding (`gltf.animation.hemisphere`): the scene no longer knows which samplers were cubic.
pub fn rotation_blend(format: crate::scene::Format) -> RotationBlend {
    match format {
        crate::scene::Format::Rsm | crate::scene::Format::Rsm2 => RotationBlend::Components,
        _ => RotationBlend::Shortest,
    }
}

/// Whether `rule` is one of this module's.
pub fn is_motion_rule(rule: &str) -> bool {
    rule.starts_with("anim.")
}

/// Every clip's motion findings. `scene`'s geometry (or, without any, its skeleton) gives the size translation
/// steps are measured against.
pub fn check(file: &str, scene: &Scene) -> Vec<Finding> {
    check_clips(file, scene, 0..scene.clips.len())
}

/// The motion findings of `scene`'s clips in `clips` only: a motion attached to a model is checked on the
/// model's joints, so its findings name them (and the hemisphere rule follows the model's format, whose player
/// plays it).
pub fn check_clips(file: &str, scene: &Scene, clips: std::ops::Range<usize>) -> Vec<Finding> {
    let size = model_size(scene);
    let blend = rotation_blend(scene.meta.format);
    let mut out = Vec::new();
    for (ci, clip) in scene.clips.iter().enumerate().skip(clips.start).take(clips.len()) {
        let mut found = ClipFindings::default();
        if let Some(frames) = Frames::sample(scene, clip) {
            let steps = frames.steps();
            found.pops = pops(scene, ci, &frames, &steps, size);
            found.seam = loop_seam(scene, ci, clip, &frames, &steps, size);
            // A motion that only moves a camera or a light has a clip that holds its bones still on purpose.
            if scene.cameras.is_empty() && scene.lights.is_empty() {
                found.still = still(ci, clip, &frames);
            }
        }
        (found.flips, found.hemispheres) = flips(scene, ci, clip, blend, size);
        out.extend(found.into_findings(file));
    }
    out
}

/// Where a finding is, and what it says, before its rule and file are added.
type Found = (Place, String);

/// One clip's findings by rule, before each rule's list is capped.
#[derive(Default)]
struct ClipFindings {
    pops: Vec<(Place, String)>,
    flips: Vec<Found>,
    hemispheres: Vec<Found>,
    seam: Option<(Place, String)>,
    still: Option<(Place, String)>,
}

impl ClipFindings {
    fn into_findings(self, file: &str) -> Vec<Finding> {
        let mut out = Vec::new();
        capped(&mut out, file, "anim.pop", self.pops);
        capped(&mut out, file, "anim.rotation.flip", self.flips);
        capped(&mut out, file, "anim.rotation.hemisphere", self.hemispheres);
        out.extend(self.seam.map(|(p, m)| finding(file, "anim.loop.seam", p, m)));
        out.extend(self.still.map(|(p, m)| finding(file, "anim.clip.still", p, m)));
        out
    }
}

/// `found` as findings of `rule`, the first [`MAX_PER_RULE`] each on its own and the rest counted in one more.
fn capped(out: &mut Vec<Finding>, file: &str, rule: &str, found: Vec<(Place, String)>) {
    let total = found.len();
    let mut found = found.into_iter();
    out.extend(found.by_ref().take(MAX_PER_RULE).map(|(p, m)| finding(file, rule, p, m)));
    if let Some((place, _)) = found.next() {
        let message = format!("{} more like the above in this animation ({total} in all)", total - MAX_PER_RULE);
        out.push(finding(file, rule, Place { clip: place.clip, ..Default::default() }, message));
    }
}

/// The model's size: its bind-pose geometry's diagonal, else its joints' spread; `None` for a motion alone
/// (a VMD's bones have no rest positions), where translations are judged in the file's units.
fn model_size(scene: &Scene) -> Option<f32> {
    let geometry = FrameBounds::of_points(&scene.vertices.positions).map(|b| b.diagonal());
    let joints = || {
        let world = crate::anim::Pose::bind(&scene.skeleton);
        let points: Vec<_> = world.world.iter().map(|m| m.w_axis.truncate()).collect();
        FrameBounds::of_points(&points).map(|b| b.diagonal())
    };
    geometry.filter(|d| d.is_finite() && *d > 0.0).or_else(|| joints().filter(|d| d.is_finite() && *d > 0.0))
}

fn floor(channel: Channel, size: Option<f32>) -> f32 {
    match channel {
        Channel::Rotation => ROTATION_FLOOR,
        // A motion alone: a model's size of 1 unit, far below any character's, so the floor is only noise's.
        Channel::Translation => TRANSLATION_FLOOR * size.unwrap_or(1.0),
        Channel::Scale => SCALE_FLOOR,
    }
}

/// The median of `values` (0 for none).
fn median(values: &mut [f32]) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let mid = values.len() / 2;
    *values.select_nth_unstable_by(mid, f32::total_cmp).1
}

/// A pop found at sample `at`, `width` samples long, with its jump and the typical step around it.
#[derive(Debug, Clone, Copy)]
struct Pop {
    at: usize,
    width: usize,
    jump: f32,
    typical: f32,
}

/// Pops in one joint's channel, given its steps (`steps[i]` from sample `i` to `i + 1`) and `distance` between
/// two samples.
fn channel_pops(steps: &[f32], floor: f32, distance: impl Fn(usize, usize) -> f32) -> Vec<Pop> {
    let n = steps.len() + 1;
    let mut out = Vec::new();
    let mut window = Vec::with_capacity(2 * WINDOW + 2);
    let mut f = 1;
    while f + 1 < n {
        let jump_in = steps[f - 1];
        // Every jump below is at most `jump_in`, so a step before it over a quarter of it rules out any pop
        // here: the test that dismisses nearly every frame of smooth motion, made before the others.
        let before = f.checked_sub(2).map_or(0.0, |i| steps[i]);
        if jump_in <= floor || before * POP_FACTOR > jump_in {
            f += 1;
            continue;
        }
        let found = (1..=POP_WIDTH).take_while(|k| f + k < n).find_map(|k| {
            let jump = jump_in.min(steps[f + k - 1]);
            let inside = steps[f..f + k - 1].iter().copied().fold(0.0f32, f32::max);
            // The steps just before the jump away and just after the jump back: a pop leaves from and lands in
            // the surrounding motion, where the apex of a quick out-and-back (two keys a few frames apart, an
            // authored flick) is reached in steps as large as the ones that leave it.
            let after = steps.get(f + k).copied().unwrap_or(0.0);
            let calm = |v: f32| v * POP_FACTOR <= jump;
            if jump <= floor
                || !calm(inside)
                || !calm(before)
                || !calm(after)
                || distance(f - 1, f + k) > RETURN_FRACTION * jump
            {
                return None;
            }
            window.clear();
            window.extend_from_slice(&steps[(f - 1).saturating_sub(WINDOW)..f - 1]);
            window.extend_from_slice(&steps[f + k..(f + k + WINDOW).min(steps.len())]);
            if window.len() < 3 {
                return None;
            }
            let typical = median(&mut window);
            (jump > POP_FACTOR * typical).then_some(Pop { at: f, width: k, jump, typical })
        });
        match found {
            Some(pop) => {
                out.push(pop);
                f += pop.width + 1;
            }
            None => f += 1,
        }
    }
    out
}

fn pops(scene: &Scene, clip: usize, frames: &Frames, all: &[[Vec<f32>; 3]], size: Option<f32>) -> Vec<(Place, String)> {
    let mut found: Vec<(usize, usize, Channel, Pop)> = Vec::new();
    // A joint that never moves steps 0 throughout: nothing to look for.
    for (joint, of_joint) in all.iter().enumerate().filter(|(j, _)| frames.moving[*j]) {
        for (channel, steps) in Channel::ALL.into_iter().zip(of_joint) {
            let distance = |a: usize, b: usize| channel.distance(&frames.at(a, joint), &frames.at(b, joint));
            let pops = channel_pops(steps, floor(channel, size), distance).into_iter();
            // A turn that only undoes its parent's (the hips pop, the spine turns back) is no pop on screen:
            // the joint's model-space rotation at the pop must leave the path between the poses before and
            // after it by half the local jump at least. (A model-space step test would miss a pop on a child of
            // a fast swing, whose every step is large.)
            let world = |i: usize| frames.world_rotation(i, joint);
            let shows = |p: &Pop| {
                let (before, after) = (world(p.at - 1), world(p.at + p.width));
                let on_path = before.slerp(after, 1.0 / (p.width + 1) as f32);
                channel != Channel::Rotation || turn_degrees(world(p.at), on_path) >= RETURN_FRACTION * p.jump
            };
            found.extend(pops.filter(shows).map(|p| (p.at, joint, channel, p)));
        }
    }
    // In clip order, then by joint; one finding per joint and frame (the first channel that popped there).
    found.sort_by_key(|&(at, joint, channel, _)| (at, joint, channel as u8));
    found.dedup_by_key(|&mut (at, joint, _, _)| (at, joint));
    found
        .into_iter()
        .map(|(_, joint, channel, pop)| {
            let frame = frames.frame(pop.at);
            let frames_long = frames.frame(pop.width);
            let message = format!(
                "joint \"{}\" pops at frame {frame} for {frames_long} frame{}: {} {} and back, {} its typical \
                 step of {} around it",
                scene.skeleton.display_name(joint),
                if frames_long == 1 { "" } else { "s" },
                channel.name(),
                channel.describe(size, pop.jump),
                times(pop.jump, pop.typical),
                channel.describe(size, pop.typical),
            );
            (Place { joint: Some(joint), clip: Some(clip), frame: Some(frame), ..Default::default() }, message)
        })
        .collect()
}

/// "12× " a typical step, or "far above" one of (near) nothing.
fn times(v: f32, typical: f32) -> String {
    let ratio = v / typical;
    if ratio.is_finite() && ratio < 1000.0 { format!("{ratio:.0}×") } else { "far above".to_string() }
}

/// Rotations two keys apart (the flips, then the hemispheres): a near half turn between consecutive keys (any format), and opposite hemispheres
/// where the format's players blend components. A sampled clip's keys are its frames.
fn flips(scene: &Scene, ci: usize, clip: &Clip, blend: RotationBlend, size: Option<f32>) -> (Vec<Found>, Vec<Found>) {
    let fps = clip.fps(DEFAULT_FPS);
    let (mut flips, mut hemispheres) = (Vec::new(), Vec::new());
    // Pairs of consecutive keys `(index, t0, a, t1, b)`; `cut(index)`: the joint jumps to another place there.
    type Pairs<'a> = &'a mut dyn Iterator<Item = (usize, f32, Quat, f32, Quat)>;
    let mut look = |joint: usize, pairs: Pairs, cut: &dyn Fn(usize) -> bool| {
        for (i, t0, a, t1, b) in pairs {
            // The cheap tests first: nearly every pair is neither, and names and messages are made for findings.
            let flip = a.dot(b).abs() <= FLIP_COS;
            let hemisphere = !flip && blend == RotationBlend::Components && a.dot(b) < 0.0;
            if !(flip || hemisphere) || cut(i) {
                continue;
            }
            let turn = turn_degrees(a, b);
            let frame = (t0 * fps).round().max(0.0) as u32;
            let next = (t1 * fps).round().max(0.0) as u32;
            let place = Place { joint: Some(joint), clip: Some(ci), frame: Some(frame), ..Default::default() };
            let name = scene.skeleton.display_name(joint);
            if flip {
                let message = format!(
                    "joint \"{name}\" turns {turn:.1}° between frames {frame} and {next}: so near half a turn that \
                     players disagree on which way round it goes (key it more often)"
                );
                flips.push((place, message));
            } else {
                let message = format!(
                    "joint \"{name}\": the rotations keyed at frames {frame} and {next} are stored in opposite \
                     hemispheres, so players that blend the stored components turn {:.1}° the long way round \
                     where the short way is {turn:.1}° (negate the second key)",
                    360.0 - turn
                );
                hemispheres.push((place, message));
            }
        }
    };
    match &clip.data {
        ClipData::Keyed { tracks } => {
            for track in tracks {
                let keys = &track.rotation;
                let mut pairs =
                    keys.windows(2).enumerate().map(|(i, k)| (i, k[0].time, k[0].value, k[1].time, k[1].value));
                look(track.joint, &mut pairs, &|_| false);
            }
        }
        ClipData::Sampled { joints, frames } if *joints > 0 => {
            let n = frames.len() / joints;
            for joint in 0..*joints {
                let at = |f: usize| frames[f * joints + joint].rotation;
                let time = |f: usize| f as f32 / fps;
                // A joint that also jumps to another place at that frame is cut there (a muzzle flash's helper,
                // a magazine swapped): which way it turned is never seen.
                let moved = |f: usize| {
                    frames[f * joints + joint].translation.distance(frames[(f + 1) * joints + joint].translation)
                };
                let cut = |f: usize| {
                    let mut around: Vec<f32> = (f.saturating_sub(WINDOW)..(f + WINDOW + 1).min(n - 1))
                        .filter(|&i| i != f)
                        .map(moved)
                        .collect();
                    moved(f) > floor(Channel::Translation, size) && moved(f) > POP_FACTOR * median(&mut around)
                };
                let mut pairs = (0..n.saturating_sub(1)).map(|f| (f, time(f), at(f), time(f + 1), at(f + 1)));
                look(joint, &mut pairs, &cut);
            }
        }
        ClipData::Sampled { .. } => {}
    }
    (flips, hemispheres)
}

/// A looping clip whose wrap from its last frame to its first is a jump: the worst joint, and how many jump.
fn loop_seam(
    scene: &Scene,
    clip_index: usize,
    clip: &Clip,
    frames: &Frames,
    all: &[[Vec<f32>; 3]],
    size: Option<f32>,
) -> Option<(Place, String)> {
    if !clip.looping || frames.count < 2 * WINDOW || frames.step != 1 {
        return None;
    }
    let last = frames.count - 1;
    // (ratio to typical, joint, channel, seam step, typical step)
    let mut worst: Option<(f32, usize, Channel, f32, f32)> = None;
    let mut jumping = 0;
    // A joint that never moves can't jump at the seam.
    for (joint, of_joint) in all.iter().enumerate().filter(|(j, _)| frames.moving[*j]) {
        let mut joint_jumps = false;
        // A channel without steps never moves.
        for (channel, steps) in Channel::ALL.into_iter().zip(of_joint).filter(|(_, s)| !s.is_empty()) {
            let seam = channel.distance(&frames.at(last, joint), &frames.at(0, joint));
            if seam <= floor(channel, size) {
                continue;
            }
            let mut ends: Vec<f32> = steps[..WINDOW].iter().chain(&steps[steps.len() - WINDOW..]).copied().collect();
            let typical = median(&mut ends);
            if seam > POP_FACTOR * typical {
                joint_jumps = true;
                let ratio = seam / typical.max(f32::MIN_POSITIVE);
                if worst.is_none_or(|w| ratio > w.0) {
                    worst = Some((ratio, joint, channel, seam, typical));
                }
            }
        }
        jumping += usize::from(joint_jumps);
    }
    let (_, joint, channel, seam, typical) = worst?;
    let message = format!(
        "the animation loops, but from its last frame ({last}) back to its first joint \"{}\" {} {} where its \
         typical step there is {} ({jumping} joint{} jump at the seam)",
        scene.skeleton.display_name(joint),
        channel.name(),
        channel.describe(size, seam),
        channel.describe(size, typical),
        if jumping == 1 { "" } else { "s" },
    );
    let place = Place { joint: Some(joint), clip: Some(clip_index), frame: Some(last as u32), ..Default::default() };
    Some((place, message))
}

/// A clip of two frames or more in which no joint moves and no morph changes.
fn still(clip_index: usize, clip: &Clip, frames: &Frames) -> Option<(Place, String)> {
    let joints_still = frames.still();
    let morphs_still = clip.morphs.iter().all(|m| m.keys.windows(2).all(|k| k[0].value == k[1].value));
    if !(joints_still && morphs_still) {
        return None;
    }
    let message = format!(
        "nothing moves in this animation: its {} frames all hold the same pose{}",
        clip.frame_count,
        if matches!(clip.data, ClipData::Keyed { .. }) { " (every key is the same)" } else { "" }
    );
    Some((Place { clip: Some(clip_index), ..Default::default() }, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps of a sampled value sequence, and its distance.
    fn pops_of(values: &[f32], floor: f32) -> Vec<(usize, usize)> {
        let steps: Vec<f32> = values.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        channel_pops(&steps, floor, |a, b| (values[a] - values[b]).abs()).iter().map(|p| (p.at, p.width)).collect()
    }

    #[test]
    fn a_one_frame_spike_on_slow_motion_is_a_pop() {
        let mut v: Vec<f32> = (0..40).map(|i| i as f32 * 0.5).collect();
        v[20] += 30.0;
        assert_eq!(pops_of(&v, 2.0), vec![(20, 1)]);
    }

    #[test]
    fn a_three_frame_hold_away_and_back_is_one_pop() {
        let mut v = vec![0.0f32; 40];
        v[10..13].iter_mut().for_each(|x| *x = 25.0);
        assert_eq!(pops_of(&v, 2.0), vec![(10, 3)]);
    }

    #[test]
    fn fast_smooth_motion_and_a_smooth_jab_are_not_pops() {
        // A fast swing: 20° steps everywhere, reversing sharply.
        let swing: Vec<f32> = (0..60).map(|i| ((i % 10) as f32 - 5.0).abs() * 20.0).collect();
        assert!(pops_of(&swing, 2.0).is_empty());
        // A jab out and back over four frames from stillness: it moves through, it doesn't sit.
        let mut jab = vec![0.0f32; 40];
        jab[11] = 30.0;
        jab[12] = 60.0;
        jab[13] = 30.0;
        assert!(pops_of(&jab, 2.0).is_empty());
        // A jump that stays: a cut, not a pop.
        let cut: Vec<f32> = (0..40).map(|i| if i < 20 { 0.0 } else { 90.0 }).collect();
        assert!(pops_of(&cut, 2.0).is_empty());
    }

    #[test]
    fn quantisation_noise_is_below_the_floor() {
        let v: Vec<f32> = (0..40).map(|i| if i % 7 == 3 { 0.01 } else { 0.0 }).collect();
        assert!(pops_of(&v, 2.0).is_empty());
    }

    #[test]
    fn turns_are_the_short_way_in_degrees() {
        let a = Quat::from_rotation_y(0.0);
        let b = Quat::from_rotation_y(175f32.to_radians());
        assert!((turn_degrees(a, b) - 175.0).abs() < 1e-3);
        assert!((turn_degrees(a, -b) - 175.0).abs() < 1e-3);
        let c = Quat::from_rotation_y(200f32.to_radians());
        assert!((turn_degrees(a, c) - 160.0).abs() < 1e-3);
    }
}

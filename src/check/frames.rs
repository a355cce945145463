//! A clip's local channels at whole frames, as the motion detectors (`motion.rs`) read them: every joint's step
//! in each channel from one frame to the next, and any joint's local transform at any frame.
//!
//! A sampled clip's frames are read as stored. A keyed clip is not posed at every frame: between two keys a
//! channel moves along one path (the shortest slerp's arc, a lerp's line per axis), so the step between two
//! frames of a segment is the keys' distance times the change of the segment's weight between them: the
//! frames' share of its time where it is straight (99.4 % of a MikuMikuDance dance's curves), of its eased
//! weight where a Bézier curve eases it. Only a stepped segment's frames and an interval straddling a key are
//! posed, their joint alone, and a channel whose keys all hold one value has no steps at all; a transform at one
//! frame (where a pop is judged) is sampled when asked. On the corpus dance that replaces posing 53 moving bones
//! at each of 2 810 frames (BENCHMARKS.md, "Motion detectors").

use std::borrow::Cow;

use glam::Vec3;

use super::motion::Channel;
use crate::scene::{Clip, ClipData, DEFAULT_FPS, Easing, Interpolation, Key, Scene, Track, TrackMode, Transform};

/// Frames × joints sampled per clip at most (a 2 800-frame dance on a 283-bone character is 0.8 M); beyond it
/// the clip is sampled every few frames (its findings still name clip frames; a pop shorter than the step can
/// be missed).
const SAMPLE_BUDGET: usize = 4_000_000;

/// A clip's local transforms at samples `0..count`, sample `i` being clip frame `i * step`.
pub(super) struct Frames<'a> {
    pub joints: usize,
    pub count: usize,
    pub step: u32,
    /// Per joint, whether it may move: `false` for a joint whose keyed tracks all hold one value (its steps are
    /// all 0).
    pub moving: Vec<bool>,
    store: Store<'a>,
    scene: &'a Scene,
    clip: &'a Clip,
}

enum Store<'a> {
    /// `local[sample * joints + joint]`: a sampled clip's frames.
    Dense(Cow<'a, [Transform]>),
    /// A keyed clip's tracks, posed joint by joint when asked: `of_joint[j]` lists joint `j`'s (indices into
    /// `tracks`, in order).
    Keyed { tracks: &'a [Track], of_joint: Vec<Vec<usize>> },
}

impl<'a> Frames<'a> {
    /// Every frame a player shows of `clip` once (a looping clip's wrap back to frame 0 is not repeated);
    /// `None` for a clip with fewer than two frames or a skeleton without joints.
    pub fn sample(scene: &'a Scene, clip: &'a Clip) -> Option<Frames<'a>> {
        let joints = scene.skeleton.len();
        let frames = clip.frame_count as usize;
        if joints == 0 || frames < 2 {
            return None;
        }
        let step = frames.saturating_mul(joints).div_ceil(SAMPLE_BUDGET).max(1);
        let count = frames.div_ceil(step);
        let mut moving = vec![true; joints];
        let store = match &clip.data {
            // A sampled clip's frames as stored: nothing to sample or copy.
            ClipData::Sampled { joints: n, frames: stored } if *n == joints && step == 1 => {
                Store::Dense(Cow::Borrowed(stored.get(..count * joints)?))
            }
            ClipData::Sampled { .. } => {
                // Frames in order: each track's keys are searched from where the frame before found them.
                let mut local = vec![Transform::IDENTITY; count * joints];
                let mut hints = Vec::new();
                for (i, out) in local.chunks_exact_mut(joints).enumerate() {
                    let frame = (i * step) as f32;
                    crate::anim::sample_clip_hinted(&scene.skeleton, clip, frame, DEFAULT_FPS, out, Some(&mut hints));
                }
                Store::Dense(Cow::Owned(local))
            }
            ClipData::Keyed { tracks } => {
                // A motion keys every bone, most of them once or with one value throughout: those never move.
                moving = vec![false; joints];
                let mut of_joint = vec![Vec::new(); joints];
                for (i, t) in tracks.iter().enumerate().filter(|(_, t)| t.joint < joints) {
                    of_joint[t.joint].push(i);
                    moving[t.joint] |= !t.holds_still();
                }
                Store::Keyed { tracks, of_joint }
            }
        };
        Some(Frames { joints, count, step: step as u32, moving, store, scene, clip })
    }

    /// Joint `joint`'s local transform at sample `i`.
    pub fn at(&self, i: usize, joint: usize) -> Transform {
        match &self.store {
            Store::Dense(local) => local[i * self.joints + joint],
            // As `anim::sample_joint` poses it: the joint's tracks in order on its bind transform.
            Store::Keyed { tracks, of_joint } => {
                let time = self.time(i);
                let bind = self.scene.skeleton.joints[joint].bind;
                of_joint[joint].iter().fold(bind, |o, &t| crate::anim::sample_track(&tracks[t], time, o))
            }
        }
    }

    /// Joint `joint`'s model-space rotation at sample `i`: its local rotations up the parent chain. Asked only at
    /// a pop found in the local channel, so it is composed then rather than kept for every frame.
    pub fn world_rotation(&self, i: usize, joint: usize) -> glam::Quat {
        let mut q = self.at(i, joint).rotation;
        let mut parent = self.scene.skeleton.joints.get(joint).and_then(|j| j.parent);
        while let Some(p) = parent {
            q = self.at(i, p).rotation * q;
            parent = self.scene.skeleton.joints.get(p).and_then(|j| j.parent);
        }
        q.normalize()
    }

    /// The clip frame of sample `i`.
    pub fn frame(&self, i: usize) -> u32 {
        i as u32 * self.step
    }

    /// Whether no joint moves: every sample holds the first's pose.
    pub fn still(&self) -> bool {
        match &self.store {
            Store::Dense(local) => {
                let first = &local[..self.joints];
                local.chunks_exact(self.joints).all(|f| f == first)
            }
            Store::Keyed { .. } => !self.moving.contains(&true),
        }
    }

    /// Every joint's steps in every channel: `steps[joint][channel][i]` from sample `i` to `i + 1`; none (an empty
    /// list) for a channel of a keyed clip that never moves, and for every channel of a joint that doesn't move
    /// (`moving`): their steps are all 0.
    pub fn steps(&self) -> Vec<[Vec<f32>; 3]> {
        let n = self.count - 1;
        match &self.store {
            Store::Dense(local) => dense_steps(local, self.joints, n),
            Store::Keyed { tracks, of_joint } => {
                let mut out: Vec<[Vec<f32>; 3]> = (0..self.joints).map(|_| Default::default()).collect();
                let times: Vec<f32> = (0..self.count).map(|i| self.time(i)).collect();
                for (joint, steps) in out.iter_mut().enumerate().filter(|(j, _)| self.moving[*j]) {
                    match of_joint[joint].as_slice() {
                        [t] => self.track_steps(joint, &tracks[*t], &times, steps),
                        // Several tracks on one joint (a file that splits its channels): posed at every frame.
                        _ => {
                            *steps = std::array::from_fn(|_| vec![0.0; n]);
                            self.posed_steps(joint, steps, 0..n);
                        }
                    }
                }
                out
            }
        }
    }

    /// The time in seconds of sample `i`, as the player computes it.
    fn time(&self, i: usize) -> f32 {
        self.frame(i) as f32 / self.clip.fps(DEFAULT_FPS)
    }

    /// Steps of `joint` over `intervals` (in increasing order), from its transforms posed at each end, in the
    /// channels that have steps (a channel's empty list is left so). Intervals come in runs (every frame, or a
    /// curved segment's): each interval after the first of a run starts where the one before ended, whose pose
    /// is kept.
    fn posed_steps(&self, joint: usize, steps: &mut [Vec<f32>; 3], intervals: impl Iterator<Item = usize>) {
        let mut before: Option<(usize, Transform)> = None;
        for i in intervals {
            let a = match before {
                Some((at, pose)) if at == i => pose,
                _ => self.at(i, joint),
            };
            let b = self.at(i + 1, joint);
            for (c, channel) in Channel::ALL.into_iter().enumerate() {
                if let Some(step) = steps[c].get_mut(i) {
                    *step = channel.distance(&a, &b);
                }
            }
            before = Some((i + 1, b));
        }
    }

    /// Steps of `joint`, moved by `track` alone: per channel that moves, from each pair of keys (the segment's
    /// distance shared out by the frames' share of its time, or of its eased weight on a curved segment), posed
    /// only where a stepped segment jumps or an interval straddles a key.
    fn track_steps(&self, joint: usize, track: &Track, times: &[f32], steps: &mut [Vec<f32>; 3]) {
        let n = self.count - 1;
        let bind_scale = match track.mode {
            TrackMode::DeltaOnBind => self.scene.skeleton.joints[joint].bind.scale,
            TrackMode::Replace => Vec3::ONE,
        };
        let ease = track.ease.as_ref();
        // A segment's ease: straight for a linear track, posed for a stepped one (it jumps at its end), and for a
        // Bézier track its curves (a missing one is linear; all three axes share a rotation's or scale's curve).
        let segment = |curves: Option<[Easing; 3]>| match (track.interpolation, curves) {
            (Interpolation::Step, _) => Ease::Posed,
            (Interpolation::Bezier, Some(c)) if !c.iter().all(Easing::is_linear) => Ease::Curved(c),
            _ => Ease::Straight,
        };
        let one = |curves: Option<&Vec<Easing>>, i: usize| curves.and_then(|c| c.get(i)).map(|&c| [c; 3]);
        // Between two keys a rotation moves along one arc (the shortest slerp), a translation or scale along one
        // line per axis: the distance between two points of it is the keys' distance times the weights' change.
        let rotation = Segments {
            keys: &track.rotation,
            ease: |i| segment(one(ease.map(|e| &e.rotation), i)),
            delta: |a, b, w: Vec3| super::motion::turn_degrees(a, b) * w.x.abs(),
        };
        let translation = Segments {
            keys: &track.translation,
            ease: |i| segment(ease.and_then(|e| e.translation.get(i).copied())),
            delta: |a: Vec3, b: Vec3, w: Vec3| ((b - a) * w).length(),
        };
        let scale = Segments {
            keys: &track.scale,
            ease: |i| segment(one(ease.map(|e| &e.scale), i)),
            delta: |a: Vec3, b: Vec3, w: Vec3| ((a - b) * bind_scale).abs().max_element() * w.x.abs(),
        };
        // Each channel that moves in one pass over the samples (rotation, translation, scale: `Channel::ALL`'s
        // order), marking the intervals that must be posed.
        let mut posed = vec![false; n];
        rotation.fill(times, &mut steps[0], &mut posed);
        translation.fill(times, &mut steps[1], &mut posed);
        scale.fill(times, &mut steps[2], &mut posed);
        self.posed_steps(joint, steps, (0..n).filter(|&i| posed[i]));
    }
}

/// How a channel moves between two keys.
#[derive(Debug, Clone, Copy)]
enum Ease {
    /// In proportion to time.
    Straight,
    /// By each axis's eased weight.
    Curved([Easing; 3]),
    /// Only posing tells (a stepped segment holds, then jumps at its end).
    Posed,
}

/// One channel's keys, how each segment between them eases (`ease(i)` from key `i` to `i + 1`), and `delta(a, b,
/// w)`: how far apart the points at weights `w` and `w + Δ` of the segment from `a` to `b` are, per axis of
/// `Δ = w` (the whole distance for weights of one).
struct Segments<'k, T, E, D> {
    keys: &'k [Key<T>],
    ease: E,
    delta: D,
}

impl<'k, T: Copy + PartialEq, E: Fn(usize) -> Ease, D: Fn(T, T, Vec3) -> f32> Segments<'k, T, E, D> {
    /// `steps[i]`, the step from `times[i]` to `times[i + 1]`, where it lies in one segment that is straight or
    /// curved; elsewhere `posed[i]` is set, for the interval to be posed. A channel that holds one value
    /// throughout (a channel of one key or none, or of equal keys) leaves `steps` empty: its steps are all 0.
    fn fill(&self, times: &[f32], steps: &mut Vec<f32>, posed: &mut [bool]) {
        let (keys, n) = (self.keys, posed.len());
        let Some(first) = keys.first() else { return };
        if keys.iter().all(|k| k.value == first.value) {
            return;
        }
        *steps = vec![0.0; n];
        let mut i = (0..n).find(|&i| times[i + 1] > first.time).unwrap_or(n);
        // Segment by segment: the intervals starting in [k0, k1) lie in it unless they straddle a key.
        for (j, pair) in keys.windows(2).enumerate() {
            let (k0, k1) = (&pair[0], &pair[1]);
            let span = k1.time - k0.time;
            // Two equal keys hold the channel whatever the ease between them.
            let held = k0.value == k1.value;
            let ease = if held { Ease::Straight } else { (self.ease)(j) };
            let whole = if held { 0.0 } else { (self.delta)(k0.value, k1.value, Vec3::ONE) };
            // The weights at the start of interval `i` are those at the end of the one before.
            let mut weights: Option<(usize, Vec3)> = None;
            while i < n && times[i] < k1.time {
                let inside = span > 0.0 && times[i] >= k0.time && times[i + 1] <= k1.time;
                match ease {
                    _ if !inside => posed[i] = true,
                    _ if held => {}
                    Ease::Straight => steps[i] = whole * (times[i + 1] - times[i]) / span,
                    Ease::Curved(curves) => {
                        // One solve where the axes share a curve (a rotation's or a scale's always do).
                        let shared = curves[1] == curves[0] && curves[2] == curves[0];
                        let at = |t: f32| {
                            let u = (t - k0.time) / span;
                            let w = curves[0].weight(u);
                            if shared { Vec3::splat(w) } else { Vec3::new(w, curves[1].weight(u), curves[2].weight(u)) }
                        };
                        let w0 = weights.filter(|(at, _)| *at == i).map_or_else(|| at(times[i]), |(_, w)| w);
                        let w1 = at(times[i + 1]);
                        steps[i] = (self.delta)(k0.value, k1.value, w1 - w0);
                        weights = Some((i + 1, w1));
                    }
                    Ease::Posed => posed[i] = true,
                }
                i += 1;
            }
        }
    }
}

/// Every joint's steps of densely stored samples, in one pass over the samples in their order (frame after
/// frame), since reading one joint down all frames misses the cache at every frame of a large skeleton.
fn dense_steps(local: &[Transform], joints: usize, n: usize) -> Vec<[Vec<f32>; 3]> {
    let mut out: Vec<[Vec<f32>; 3]> = (0..joints).map(|_| std::array::from_fn(|_| Vec::with_capacity(n))).collect();
    for i in 0..n {
        let (a, b) = (&local[i * joints..(i + 1) * joints], &local[(i + 1) * joints..(i + 2) * joints]);
        for ((a, b), steps) in a.iter().zip(b).zip(&mut out) {
            for (c, channel) in Channel::ALL.into_iter().enumerate() {
                steps[c].push(channel.distance(a, b));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::vmd::write::{BoneKey, VmdDocument};

    /// A motion of two bones: one keyed with straight curves, held segments and a curved segment (eased X and
    /// rotation), one keyed once (still).
    fn motion() -> Scene {
        let mut d = VmdDocument::new("m");
        let turn = |deg: f32| {
            let q = glam::Quat::from_rotation_y(deg.to_radians());
            [q.x, q.y, q.z, q.w]
        };
        let eased = [[100, 0, 27, 127], [20, 20, 107, 107], [20, 20, 107, 107], [90, 10, 40, 120]];
        d.bones.push(BoneKey::new("a", 0, [0.0; 3], turn(0.0)));
        d.bones.push(BoneKey::new("a", 7, [1.0, 0.0, 0.0], turn(30.0)));
        d.bones.push(BoneKey::new("a", 12, [1.0, 0.0, 0.0], turn(30.0)).with_curves(eased));
        d.bones.push(BoneKey::new("a", 20, [3.0, 0.5, 0.0], turn(-40.0)).with_curves(eased));
        d.bones.push(BoneKey::new("a", 21, [3.0, 0.5, 0.0], turn(-38.0)));
        d.bones.push(BoneKey::new("b", 0, [0.0, 1.0, 0.0], turn(10.0)));
        crate::formats::vmd::read("m.vmd", &d.to_bytes()).unwrap()
    }

    /// Steps found per pair of keys equal the steps of the joint posed at every frame, in every channel: on
    /// straight segments (the segment's distance shared out), held ones, the curved one (posed) and after the
    /// last key (held).
    #[test]
    fn keyed_steps_equal_posing_every_frame() {
        let scene = motion();
        let clip = &scene.clips[0];
        let frames = Frames::sample(&scene, clip).unwrap();
        assert!(matches!(frames.store, Store::Keyed { .. }));
        let steps = frames.steps();
        let joint = scene.skeleton.find("a").unwrap();
        let still = scene.skeleton.find("b").unwrap();
        assert!(frames.moving[joint] && !frames.moving[still] && steps[still][0].is_empty());
        let mut posed = [vec![0.0; frames.count - 1], vec![0.0; frames.count - 1], vec![0.0; frames.count - 1]];
        frames.posed_steps(joint, &mut posed, 0..frames.count - 1);
        for (c, channel) in Channel::ALL.into_iter().enumerate() {
            for (i, (a, b)) in steps[joint][c].iter().zip(&posed[c]).enumerate() {
                // Rounding of a slerp against the angle shared out: well under the 2° and 0.2 % floors.
                assert!((a - b).abs() <= 1e-3 * b.abs().max(1.0), "{channel:?} step {i}: {a} shared, {b} posed");
            }
        }
        assert!(posed[0][14] > 0.0 && posed[1][14] > 0.0, "the curved segment moves");
        assert!(steps[joint][0][8..12].iter().all(|&s| s == 0.0), "the held segment holds");
    }
}

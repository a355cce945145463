//! Animation clips: either a sampled pose per frame (IQM, IQE) or keyframed tracks (RSM, MVD).

use glam::{Quat, Vec3};

use super::Transform;

/// The box and radii of one frame's geometry, about the model origin.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FrameBounds {
    pub min: Vec3,
    pub max: Vec3,
    /// Largest distance from the Z axis (`√(x²+y²)`), as IQM stores it.
    pub xy_radius: f32,
    /// Largest distance from the origin.
    pub radius: f32,
}

/// [`FrameBounds::of_points`] one point at a time, for callers that make the points as they go. Points added
/// in the same order give the same bounds, to the bit (ties between `0.0` and `-0.0` keep the later one).
#[derive(Debug, Clone, Copy, Default)]
pub struct BoundsAccumulator {
    /// `None` until the first point.
    min_max: Option<(Vec3, Vec3)>,
    xy2: f32,
    r2: f32,
}

impl BoundsAccumulator {
    #[inline]
    pub fn add(&mut self, p: Vec3) {
        let (min, max) = self.min_max.get_or_insert((p, p));
        *min = min.min(p);
        *max = max.max(p);
        self.xy2 = self.xy2.max(p.x * p.x + p.y * p.y);
        self.r2 = self.r2.max(p.length_squared());
    }

    /// The bounds of the points added; `None` when there were none.
    pub fn finish(&self) -> Option<FrameBounds> {
        let (min, max) = self.min_max?;
        Some(FrameBounds { min, max, xy_radius: self.xy2.sqrt(), radius: self.r2.sqrt() })
    }
}

impl FrameBounds {
    /// The bounds of a set of points; `None` when there are none.
    pub fn of_points(points: &[Vec3]) -> Option<FrameBounds> {
        let mut b = BoundsAccumulator::default();
        for p in points {
            b.add(*p);
        }
        b.finish()
    }

    /// The smallest bounds containing both.
    pub fn union(&self, other: &FrameBounds) -> FrameBounds {
        FrameBounds {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
            xy_radius: self.xy_radius.max(other.xy_radius),
            radius: self.radius.max(other.radius),
        }
    }

    /// Largest difference between the two boxes' corners and radii.
    pub fn max_difference(&self, other: &FrameBounds) -> f32 {
        let d = (self.min - other.min).abs().max((self.max - other.max).abs()).max_element();
        d.max((self.xy_radius - other.xy_radius).abs()).max((self.radius - other.radius).abs())
    }

    /// Corner `i` of the box (bit 0 picks max x, bit 1 max y, bit 2 max z), so corners `i` and `i ^ bit` share
    /// an edge.
    pub fn corner(&self, i: u32) -> Vec3 {
        Vec3::new(
            if i & 1 == 0 { self.min.x } else { self.max.x },
            if i & 2 == 0 { self.min.y } else { self.max.y },
            if i & 4 == 0 { self.min.z } else { self.max.z },
        )
    }

    pub fn diagonal(&self) -> f32 {
        (self.max - self.min).length()
    }
}

/// How a keyframed track moves between keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    /// Lerp for vectors, shortest-path slerp for rotations.
    Linear,
    /// Hold each key until the next.
    Step,
    /// Lerp and slerp with the weight eased by each segment's cubic Bézier curve ([`Track::ease`]); a segment
    /// without a curve is linear.
    Bezier,
}

/// A cubic-Bézier easing curve from (0,0) to (1,1) with control points (x1,y1) and (x2,y2), each in [0,1]:
/// for a fraction `u` of a segment, solve `x(s) = u` for the curve parameter `s`, and the weight is `y(s)`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Easing {
    pub x1: f32,
    pub y1: f32,
    pub x2: f32,
    pub y2: f32,
}

impl Easing {
    /// The straight line: the weight is the fraction.
    pub const LINEAR: Easing = Easing { x1: 0.25, y1: 0.25, x2: 0.75, y2: 0.75 };

    /// Control points clamped to [0,1] (NaN becomes 0), so `x(s)` is monotonic and the solve converges.
    pub fn new(x1: f32, y1: f32, x2: f32, y2: f32) -> Easing {
        let c = |v: f32| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        Easing { x1: c(x1), y1: c(y1), x2: c(x2), y2: c(y2) }
    }

    /// True when the curve is the straight line `y = x` (both control points on the diagonal).
    pub fn is_linear(&self) -> bool {
        self.x1 == self.y1 && self.x2 == self.y2
    }

    /// The eased weight for a fraction `u` of the segment (clamped to [0,1]).
    pub fn weight(&self, u: f32) -> f32 {
        let u = if u.is_nan() { 0.0 } else { u.clamp(0.0, 1.0) };
        if self.is_linear() || u == 0.0 || u == 1.0 {
            return u;
        }
        // B(s) = 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³, monotonic in s for control points in [0,1]. Solve B(s) = u in
        // f64 by Newton steps kept inside a bracket that shrinks every step (a bisection where Newton would leave
        // it or stall): a handful of steps where plain bisection took 60, with the same root.
        let bez = |p1: f64, p2: f64, s: f64| {
            let r = 1.0 - s;
            3.0 * r * r * s * p1 + 3.0 * r * s * s * p2 + s * s * s
        };
        let slope = |p1: f64, p2: f64, s: f64| {
            let r = 1.0 - s;
            3.0 * r * r * p1 + 6.0 * r * s * (p2 - p1) + 3.0 * s * s * (1.0 - p2)
        };
        let (x1, x2) = (f64::from(self.x1.clamp(0.0, 1.0)), f64::from(self.x2.clamp(0.0, 1.0)));
        let target = f64::from(u);
        let (mut lo, mut hi, mut s) = (0.0f64, 1.0f64, target);
        // Stop on the step, not on B(s) − u: where the curve flattens (a control point at an end) a tiny
        // residual still leaves s far off, and the y curve may be steep there.
        for _ in 0..60 {
            let f = bez(x1, x2, s) - target;
            if f == 0.0 {
                break;
            }
            if f < 0.0 {
                lo = s;
            } else {
                hi = s;
            }
            let d = slope(x1, x2, s);
            let newton = s - f / d;
            let next = if d > 1e-12 && newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
            let step = (next - s).abs();
            s = next;
            if step < 1e-15 || hi - lo < 1e-15 {
                break;
            }
        }
        bez(f64::from(self.y1), f64::from(self.y2), s) as f32
    }
}

impl Default for Easing {
    fn default() -> Self {
        Easing::LINEAR
    }
}

/// The easing curves of a [`Track`] with [`Interpolation::Bezier`]. Entry `i` eases the segment from key `i`
/// to key `i + 1` of the matching channel; a missing entry is linear.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrackEase {
    /// Per translation key: separate X, Y and Z curves.
    pub translation: Vec<[Easing; 3]>,
    /// Per rotation key: the slerp weight's curve.
    pub rotation: Vec<Easing>,
    /// Per scale key: one curve for all three axes.
    pub scale: Vec<Easing>,
}

/// How a keyframed track's values combine with the joint's bind pose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackMode {
    /// Keys are the joint's local transform (RSM rotation keys replace the node's rotation).
    Replace,
    /// Keys are deltas on the bind pose: translation added, rotation multiplied after the bind rotation (MMD).
    DeltaOnBind,
}

/// A value at a time in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key<T> {
    pub time: f32,
    pub value: T,
}

/// Keyframed channels for one joint. An empty channel leaves that part of the transform at its bind value.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    pub joint: usize,
    pub mode: TrackMode,
    pub interpolation: Interpolation,
    pub translation: Vec<Key<Vec3>>,
    pub rotation: Vec<Key<Quat>>,
    pub scale: Vec<Key<Vec3>>,
    /// Segment curves for [`Interpolation::Bezier`]; `None` otherwise.
    pub ease: Option<Box<TrackEase>>,
}

impl Track {
    /// Whether every key of each channel holds exactly the same value: the track poses its joint the same at
    /// every time (a motion keying every bone once at frame 0 has only such tracks, but for the few it moves).
    pub fn holds_still(&self) -> bool {
        fn one_value<T: PartialEq>(keys: &[Key<T>]) -> bool {
            keys.windows(2).all(|w| w[0].value == w[1].value)
        }
        one_value(&self.translation) && one_value(&self.rotation) && one_value(&self.scale)
    }
}

/// Keyframed weights of one morph (blend shape), by name: a clip lists them even where no mesh has the morph.
#[derive(Debug, Clone, PartialEq)]
pub struct MorphTrack {
    pub name: String,
    pub keys: Vec<Key<f32>>,
    /// Entry `i` eases the segment from key `i` to key `i + 1`; missing entries are linear.
    pub ease: Vec<Easing>,
}

/// An IK chain switched on and off over time, named by its IK bone (VMD property keys, MVD model properties):
/// each key holds from its time until the next; before the first the chain is on (MikuMikuDance's default).
#[derive(Debug, Clone, PartialEq)]
pub struct IkSwitchTrack {
    pub name: String,
    pub keys: Vec<Key<bool>>,
}

impl IkSwitchTrack {
    /// Whether the chain is on at `time` seconds.
    pub fn enabled_at(&self, time: f32) -> bool {
        let n = self.keys.partition_point(|k| k.time <= time);
        n == 0 || self.keys[n - 1].value
    }
}

/// The animation data of a clip.
#[derive(Debug, Clone, PartialEq)]
pub enum ClipData {
    /// A local transform for every joint at every frame, frame-major: `frames[frame * joints + joint]`.
    Sampled { joints: usize, frames: Vec<Transform> },
    /// Keyframed tracks; joints without a track keep their bind pose.
    Keyed { tracks: Vec<Track> },
}

/// A named animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    pub name: String,
    /// Frames per second as stored; 0 or non-finite means the file didn't say (see [`Clip::fps`]).
    pub frame_rate: f32,
    pub looping: bool,
    /// Number of frames (sampled clips) or the frame length at `frame_rate` (keyed clips).
    pub frame_count: u32,
    /// Index of the clip's first frame in the file's frame list, for reporting.
    pub first_frame: u32,
    pub data: ClipData,
    /// Per-frame bounds as stored in the file, one per frame of this clip.
    pub bounds: Option<Vec<FrameBounds>>,
    /// The attached file this clip came from, when it isn't the model's own.
    pub source: Option<String>,
    /// Morph weight tracks (MVD, VMD); empty for formats without morph animation.
    pub morphs: Vec<MorphTrack>,
    /// IK chains the motion switches off and on (VMD); empty: every chain stays on.
    pub ik_switches: Vec<IkSwitchTrack>,
    /// Bones whose rigid bodies the motion switches out of physics and back, by bone name (MikuMikuDance 9.x
    /// VMD bone keys, MVD model properties for the whole model under the name [`WHOLE_MODEL`]); each key holds
    /// until the next; empty: physics everywhere.
    pub physics_switches: Vec<IkSwitchTrack>,
    /// The model shown or hidden over time (VMD property keys, MVD model properties): each key holds from its
    /// time until the next; before the first, and without keys, the model is shown.
    pub visibility: Vec<Key<bool>>,
    /// The motion's gravity for physics (MVD Project keys), units/s² in the file's own space, sorted by time;
    /// each key holds from its time until the next (the first before it). Empty: the physics settings' gravity.
    pub gravity: Vec<Key<Vec3>>,
}

/// The name a [`Clip::physics_switches`] track has when it switches the whole model (MVD's `physics` property).
pub const WHOLE_MODEL: &str = "";

/// Frame rate used for clips whose file stores none (IQM framerate 0 is common in Red Eclipse files).
pub const DEFAULT_FPS: f32 = 24.0;

impl Clip {
    /// A clip of the file's own, starting at its first frame, with no stored bounds.
    pub fn new(name: impl Into<String>, frame_rate: f32, looping: bool, frame_count: u32, data: ClipData) -> Clip {
        Clip {
            name: name.into(),
            frame_rate,
            looping,
            frame_count,
            first_frame: 0,
            data,
            bounds: None,
            source: None,
            morphs: Vec::new(),
            ik_switches: Vec::new(),
            physics_switches: Vec::new(),
            visibility: Vec::new(),
            gravity: Vec::new(),
        }
    }

    /// The motion's gravity at `time` seconds ([`Clip::gravity`]); `None` when the clip keys none.
    pub fn gravity_at(&self, time: f32) -> Option<Vec3> {
        let n = self.gravity.partition_point(|k| k.time <= time);
        self.gravity.get(n.saturating_sub(1)).map(|k| k.value)
    }

    /// Whether the motion shows the model at `time` seconds ([`Clip::visibility`]).
    pub fn visible_at(&self, time: f32) -> bool {
        let n = self.visibility.partition_point(|k| k.time <= time);
        n == 0 || self.visibility[n - 1].value
    }

    /// The stored bounds of the frame at or before `frame` (clip frames), clamped to the clip.
    pub fn stored_bounds_at(&self, frame: f32) -> Option<FrameBounds> {
        let bounds = self.bounds.as_ref()?;
        let i = if frame.is_finite() { frame.max(0.0).floor() as usize } else { 0 };
        bounds.get(i.min(bounds.len().checked_sub(1)?)).copied()
    }

    /// The frame rate to play at: the stored one, or `default` when the file stores 0 or garbage.
    pub fn fps(&self, default: f32) -> f32 {
        if self.frame_rate.is_finite() && self.frame_rate > 0.0 { self.frame_rate } else { default }
    }

    pub fn has_stored_fps(&self) -> bool {
        self.frame_rate.is_finite() && self.frame_rate > 0.0
    }

    /// The last frame position that can be shown: a looping clip runs on from its last frame back to the
    /// first, so it has a full frame more than a clamped one.
    pub fn frame_span(&self) -> f32 {
        let n = self.frame_count as f32;
        if self.looping { n } else { (n - 1.0).max(0.0) }
    }

    /// Playback length in seconds.
    pub fn duration(&self, default_fps: f32) -> f32 {
        self.frame_span() / self.fps(default_fps)
    }

    /// The distinct frames (at [`Clip::fps`] with `default_fps`) at which a keyed clip has keys, sorted; empty
    /// for a sampled clip, where every frame is a key.
    pub fn key_frames(&self, default_fps: f32) -> Vec<f32> {
        self.key_frames_where(default_fps, |_| true)
    }

    /// [`Clip::key_frames`] of joint `joint`'s tracks only.
    pub fn joint_key_frames(&self, joint: usize, default_fps: f32) -> Vec<f32> {
        self.key_frames_where(default_fps, |t| t.joint == joint)
    }

    fn key_frames_where(&self, default_fps: f32, keep: impl Fn(&Track) -> bool) -> Vec<f32> {
        let ClipData::Keyed { tracks } = &self.data else { return Vec::new() };
        let fps = self.fps(default_fps);
        let mut frames: Vec<f32> = tracks
            .iter()
            .filter(|t| keep(t))
            .flat_map(|t| {
                let r = t.rotation.iter().map(|k| k.time);
                r.chain(t.translation.iter().map(|k| k.time)).chain(t.scale.iter().map(|k| k.time))
            })
            .map(|t| t * fps)
            .filter(|f| f.is_finite())
            .collect();
        frames.sort_by(f32::total_cmp);
        frames.dedup_by(|a, b| (*a - *b).abs() < 1e-3);
        frames
    }

    /// The frame shown at `seconds`: wrapped for a looping clip, clamped otherwise.
    pub fn frame_at_time(&self, seconds: f32, default_fps: f32) -> f32 {
        let f = seconds * self.fps(default_fps);
        let span = self.frame_span();
        if !f.is_finite() || span <= 0.0 {
            0.0
        } else if self.looping {
            f.rem_euclid(span)
        } else {
            f.clamp(0.0, span)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The eased weight by plain bisection (60 halvings in f64), as the reference, and the x curve's slope at
    /// the root it found (where the slope vanishes, B(s) − u stays under f64's resolution over a span of s and
    /// bisection itself stops short, so the comparison skips those points).
    fn bisected(e: &Easing, u: f32) -> (f32, f64) {
        let bez = |p1: f64, p2: f64, s: f64| {
            let r = 1.0 - s;
            3.0 * r * r * s * p1 + 3.0 * r * s * s * p2 + s * s * s
        };
        let (x1, x2) = (f64::from(e.x1.clamp(0.0, 1.0)), f64::from(e.x2.clamp(0.0, 1.0)));
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if bez(x1, x2, mid) < f64::from(u) { lo = mid } else { hi = mid }
        }
        let s = 0.5 * (lo + hi);
        let r = 1.0 - s;
        let slope = 3.0 * r * r * x1 + 6.0 * r * s * (x2 - x1) + 3.0 * s * s * (1.0 - x2);
        (bez(f64::from(e.y1), f64::from(e.y2), s) as f32, slope)
    }

    /// The safeguarded Newton solve gives bisection's weight to f32 precision on every curve MikuMikuDance can
    /// store (control points in 1/127 steps; here every 7th, with the flat and steep extremes) and every
    /// fraction in 1/64 steps; where the curve is flat at the root it gives the exact answer bisection misses.
    #[test]
    fn eased_weights_equal_bisection() {
        let steps: Vec<f32> = (0..=127).step_by(7).chain([1, 126, 127]).map(|k| k as f32 / 127.0).collect();
        let (mut worst, mut compared) = (0.0f32, 0);
        for &x1 in &steps {
            for &x2 in &steps {
                for &(y1, y2) in &[(0.0, 1.0), (1.0, 0.0), (0.3, 0.9), (x2, x1)] {
                    let e = Easing { x1, y1, x2, y2 };
                    for k in 0..=64 {
                        let u = k as f32 / 64.0;
                        let (reference, slope) = bisected(&e, u);
                        if slope > 1e-2 {
                            worst = worst.max((e.weight(u) - reference).abs());
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 50_000, "{compared} points compared");
        assert!(worst <= 2.0 * f32::EPSILON, "worst difference {worst}");
        // Symmetric S curve, flat in x at its middle: exactly half way.
        let s = Easing { x1: 1.0, y1: 0.0, x2: 0.0, y2: 1.0 };
        assert_eq!(s.weight(0.5), 0.5);
    }

    fn clip(looping: bool, n: u32, fps: f32) -> Clip {
        Clip::new("c", fps, looping, n, ClipData::Keyed { tracks: vec![] })
    }

    #[test]
    fn looping_wraps_and_clamped_clamps() {
        let l = clip(true, 10, 10.0);
        assert!((l.frame_at_time(1.05, 24.0) - 0.5).abs() < 1e-4);
        assert!((l.frame_at_time(-0.05, 24.0) - 9.5).abs() < 1e-4);
        let c = clip(false, 10, 10.0);
        assert_eq!(c.frame_at_time(5.0, 24.0), 9.0);
        assert_eq!(c.frame_at_time(-1.0, 24.0), 0.0);
    }

    #[test]
    fn zero_framerate_uses_default() {
        let c = clip(false, 3, 0.0);
        assert_eq!(c.fps(24.0), 24.0);
        assert!(!c.has_stored_fps());
        assert!((c.duration(24.0) - 2.0 / 24.0).abs() < 1e-6);
    }

    #[test]
    fn bounds_of_points() {
        let b = FrameBounds::of_points(&[Vec3::new(3.0, 4.0, 0.0), Vec3::new(0.0, 0.0, -12.0)]).unwrap();
        assert_eq!(b.min, Vec3::new(0.0, 0.0, -12.0));
        assert_eq!(b.xy_radius, 5.0);
        assert_eq!(b.radius, 12.0);
        assert!(FrameBounds::of_points(&[]).is_none());
    }
}

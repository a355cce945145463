//! Clip sampling: a clip at a (fractional) frame gives a local transform per joint.

use glam::{Quat, Vec3};

use crate::scene::{Clip, ClipData, Easing, Interpolation, Key, Skeleton, Track, TrackMode, Transform};

/// Writes the local transform of every skeleton joint at `frame` (clip frames from 0, fractional allowed)
/// into `out`, which must have one entry per joint. Joints the clip doesn't animate keep their bind pose.
///
/// Between two frames each joint is interpolated on its own (TRS, shortest-path slerp). Past the last frame
/// a looping clip blends back to its first frame; a non-looping one holds the last.
pub fn sample_clip(skeleton: &Skeleton, clip: &Clip, frame: f32, default_fps: f32, out: &mut [Transform]) {
    sample_clip_hinted(skeleton, clip, frame, default_fps, out, None);
}

/// [`sample_clip`], finding each keyed track's keys around `frame` from `hints` when given: per track, per
/// channel (translation, rotation, scale), the segment the last call found, where a player moving forward
/// finds the next in a step or two instead of a binary search over the whole key list. The hints only speed the
/// search: on keys sorted by time the segment, and so the result, is the one a binary search finds, whatever
/// they hold (another clip's, another frame's).
pub(crate) fn sample_clip_hinted(
    skeleton: &Skeleton,
    clip: &Clip,
    frame: f32,
    default_fps: f32,
    out: &mut [Transform],
    hints: Option<&mut Vec<[u32; 3]>>,
) {
    for (o, j) in out.iter_mut().zip(&skeleton.joints) {
        *o = j.bind;
    }
    match &clip.data {
        ClipData::Sampled { joints, frames } => {
            let Some((i0, i1, t)) = sampled_frames(clip, *joints, frames.len(), frame) else { return };
            let a = &frames[i0 * joints..(i0 + 1) * joints];
            let b = &frames[i1 * joints..(i1 + 1) * joints];
            for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
                *o = if t == 0.0 { *a } else { a.interpolate(b, t) };
            }
        }
        ClipData::Keyed { tracks } => {
            let time = frame / clip.fps(default_fps);
            match hints {
                Some(hints) => fold_tracks(tracks.iter(), time, out, hints),
                None => {
                    for track in tracks {
                        if let Some(o) = out.get_mut(track.joint) {
                            *o = sample_track(track, time, *o);
                        }
                    }
                }
            }
        }
    }
}

/// Each of `tracks` at `time` seconds, in order, on its joint of `out`, each searching its keys from its hint in
/// `hints` (one per track in that order; missing ones start at the first key).
fn fold_tracks<'t>(
    tracks: impl Iterator<Item = &'t Track>,
    time: f32,
    out: &mut [Transform],
    hints: &mut Vec<[u32; 3]>,
) {
    for (i, track) in tracks.enumerate() {
        if hints.len() <= i {
            hints.push([0; 3]);
        }
        if let Some(o) = out.get_mut(track.joint) {
            *o = track_at(track, time, *o, Some(&mut hints[i]));
        }
    }
}

/// The stored frames a sampled clip blends at `frame` and the weight of the second: `(i0, i1, t)`; a looping
/// clip's last frame runs on into its first, a clamped one holds it. `None` without frames.
fn sampled_frames(clip: &Clip, joints: usize, stored: usize, frame: f32) -> Option<(usize, usize, f32)> {
    let n = stored.checked_div(joints).filter(|&n| n > 0)?;
    let f = if frame.is_finite() { frame.max(0.0) } else { 0.0 };
    let i0 = (f.floor() as usize).min(n - 1);
    let t = if i0 == n - 1 && !clip.looping { 0.0 } else { f - i0 as f32 };
    let i1 = if i0 + 1 < n {
        i0 + 1
    } else if clip.looping {
        0
    } else {
        i0
    };
    Some((i0, i1, t))
}

/// Joint `joint`'s local transform in `clip` at `frame` (clip frames, fractional), as [`sample_clip`] gives it
/// for that joint alone: a sampled clip's frames blended (a looping clip's last frame runs on into its first),
/// a keyed clip's tracks of that joint applied in order on `bind`, `bind` where the clip doesn't move it.
pub fn sample_joint(clip: &Clip, joint: usize, frame: f32, default_fps: f32, bind: Transform) -> Transform {
    match &clip.data {
        ClipData::Sampled { joints, frames } => {
            let Some((i0, i1, t)) = sampled_frames(clip, *joints, frames.len(), frame).filter(|_| joint < *joints)
            else {
                return bind;
            };
            let (a, b) = (&frames[i0 * joints + joint], &frames[i1 * joints + joint]);
            if t == 0.0 { *a } else { a.interpolate(b, t) }
        }
        ClipData::Keyed { tracks } => {
            let time = frame / clip.fps(default_fps);
            tracks.iter().filter(|t| t.joint == joint).fold(bind, |o, track| sample_track(track, time, o))
        }
    }
}

/// One track at `time` seconds on `bind` (deltas on the identity show the track's own values).
pub fn sample_track(track: &Track, time: f32, bind: Transform) -> Transform {
    track_at(track, time, bind, None)
}

/// [`sample_track`], searching each channel's keys from its hint when given (see [`sample_clip_hinted`]).
fn track_at(track: &Track, time: f32, bind: Transform, hint: Option<&mut [u32; 3]>) -> Transform {
    let [mut ht, mut hr, mut hs] = hint.as_deref().copied().map_or([None; 3], |h| h.map(Some));
    let lerp = |a: Vec3, b: Vec3, t: f32| a.lerp(b, t);
    let slerp = |a: Quat, b: Quat, t: f32| {
        let b = if a.dot(b) < 0.0 { -b } else { b };
        a.slerp(b, t).normalize()
    };
    let (t, r, s) = match (track.interpolation, &track.ease) {
        (Interpolation::Bezier, Some(ease)) => {
            let curve = |v: &[Easing], i: usize| v.get(i).copied().unwrap_or(Easing::LINEAR);
            let t = keys_at(&track.translation, time, ht.as_mut(), |a, b, i, u| {
                let c = ease.translation.get(i).copied().unwrap_or([Easing::LINEAR; 3]);
                a + (b - a) * Vec3::new(c[0].weight(u), c[1].weight(u), c[2].weight(u))
            });
            let r = keys_at(&track.rotation, time, hr.as_mut(), |a, b, i, u| {
                slerp(a, b, curve(&ease.rotation, i).weight(u))
            });
            let s = keys_at(&track.scale, time, hs.as_mut(), |a, b, i, u| lerp(a, b, curve(&ease.scale, i).weight(u)));
            (t, r, s)
        }
        _ => {
            let step = track.interpolation == Interpolation::Step;
            let t = keys_at(&track.translation, time, ht.as_mut(), |a, b, _, u| if step { a } else { lerp(a, b, u) });
            let r = keys_at(&track.rotation, time, hr.as_mut(), |a, b, _, u| if step { a } else { slerp(a, b, u) });
            let s = keys_at(&track.scale, time, hs.as_mut(), |a, b, _, u| if step { a } else { lerp(a, b, u) });
            (t, r, s)
        }
    };
    if let Some(h) = hint {
        *h = [ht, hr, hs].map(|x| x.unwrap_or(0));
    }
    match track.mode {
        TrackMode::Replace => Transform {
            translation: t.unwrap_or(bind.translation),
            rotation: r.unwrap_or(bind.rotation),
            scale: s.unwrap_or(bind.scale),
        },
        TrackMode::DeltaOnBind => Transform {
            translation: bind.translation + t.unwrap_or(Vec3::ZERO),
            rotation: (bind.rotation * r.unwrap_or(Quat::IDENTITY)).normalize(),
            scale: bind.scale * s.unwrap_or(Vec3::ONE),
        },
    }
}

/// Like [`sample_keys`], but `mix(a, b, i, u)` also gets the index `i` of the segment's first key, so it can
/// ease the fraction `u` with that segment's curve.
pub fn sample_keys_eased<T: Copy>(keys: &[Key<T>], time: f32, mix: impl Fn(T, T, usize, f32) -> T) -> Option<T> {
    keys_at(keys, time, None, mix)
}

/// [`sample_keys_eased`], looking for the keys around `time` from `hint` when given, and leaving there the
/// index of the first key after `time`.
fn keys_at<T: Copy>(
    keys: &[Key<T>],
    time: f32,
    hint: Option<&mut u32>,
    mix: impl Fn(T, T, usize, f32) -> T,
) -> Option<T> {
    let first = keys.first()?;
    if keys.len() == 1 || time.is_nan() || time <= first.time {
        return Some(first.value);
    }
    let next = match hint {
        Some(h) => {
            let next = next_key_from(keys, time, *h as usize);
            *h = u32::try_from(next).unwrap_or(0);
            next
        }
        None => keys.partition_point(|k| k.time <= time),
    };
    if next >= keys.len() {
        return keys.last().map(|k| k.value);
    }
    let (a, b) = (keys[next - 1], keys[next]);
    let span = b.time - a.time;
    if span <= 0.0 {
        return Some(a.value);
    }
    Some(mix(a.value, b.value, next - 1, (time - a.time) / span))
}

/// The index of the first key after `time`, `keys.partition_point(|k| k.time <= time)`, searched from `hint`:
/// when the key before `hint` lies after `time`, among the keys before it; otherwise forward from it over
/// spans of 1, 2, 4, ... keys until one ends past `time`, then within that span. On keys sorted by time (as
/// partition_point requires) that is the same index in a few steps when `hint` is near it.
fn next_key_from<T>(keys: &[Key<T>], time: f32, hint: usize) -> usize {
    let before = |k: &Key<T>| k.time <= time;
    let hint = hint.min(keys.len());
    if hint > 0 && !before(&keys[hint - 1]) {
        return keys[..hint].partition_point(before);
    }
    // Every key before `lo` lies at or before `time`.
    let (mut lo, mut span) = (hint, 1);
    while lo + span <= keys.len() && before(&keys[lo + span - 1]) {
        lo += span;
        span *= 2;
    }
    lo + keys[lo..(lo + span).min(keys.len())].partition_point(before)
}

/// The value of a key list at `time`: holds the first and last keys outside their range, and interpolates
/// (or steps) between the two keys around `time`. `None` for an empty list.
pub fn sample_keys<T: Copy>(keys: &[Key<T>], time: f32, step: bool, mix: impl Fn(T, T, f32) -> T) -> Option<T> {
    sample_keys_eased(keys, time, |a, b, _, u| if step { a } else { mix(a, b, u) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Joint, TrackMode};

    fn skeleton(n: usize) -> Skeleton {
        let joints = (0..n)
            .map(|i| Joint {
                name: format!("j{i}"),
                parent: i.checked_sub(1),
                bind: Transform { translation: Vec3::X, ..Transform::IDENTITY },
            })
            .collect();
        Skeleton::new(joints, true).unwrap()
    }

    fn sampled(looping: bool) -> Clip {
        let at = |x: f32| Transform { translation: Vec3::new(x, 0.0, 0.0), ..Transform::IDENTITY };
        Clip {
            name: "c".into(),
            frame_rate: 10.0,
            looping,
            frame_count: 3,
            first_frame: 0,
            data: ClipData::Sampled { joints: 1, frames: vec![at(0.0), at(1.0), at(4.0)] },
            bounds: None,
            source: None,
            morphs: Vec::new(),
            ik_switches: Vec::new(),
            physics_switches: Vec::new(),
            visibility: Vec::new(),
            gravity: Vec::new(),
        }
    }

    #[test]
    fn sampled_interpolates_wraps_and_clamps() {
        let s = skeleton(1);
        let mut out = [Transform::IDENTITY];
        sample_clip(&s, &sampled(false), 1.5, 24.0, &mut out);
        assert_eq!(out[0].translation.x, 2.5);
        sample_clip(&s, &sampled(false), 7.0, 24.0, &mut out);
        assert_eq!(out[0].translation.x, 4.0);
        sample_clip(&s, &sampled(true), 2.5, 24.0, &mut out);
        assert_eq!(out[0].translation.x, 2.0, "looping blends last → first");
    }

    #[test]
    fn keyed_holds_outside_range_and_applies_delta_mode() {
        let s = skeleton(2);
        let track = |mode| Track {
            joint: 1,
            mode,
            interpolation: Interpolation::Linear,
            translation: vec![Key { time: 1.0, value: Vec3::Y }, Key { time: 2.0, value: Vec3::Z }],
            rotation: vec![],
            scale: vec![],
            ease: None,
        };
        let mut clip = sampled(false);
        clip.data = ClipData::Keyed { tracks: vec![track(TrackMode::Replace)] };
        let mut out = [Transform::IDENTITY; 2];
        sample_clip(&s, &clip, 0.0, 24.0, &mut out);
        assert_eq!(out[1].translation, Vec3::Y);
        assert_eq!(out[0].translation, Vec3::X, "untracked joint keeps bind");
        sample_clip(&s, &clip, 15.0, 24.0, &mut out); // 1.5 s at 10 fps
        assert!(out[1].translation.abs_diff_eq(Vec3::new(0.0, 0.5, 0.5), 1e-6));
        clip.data = ClipData::Keyed { tracks: vec![track(TrackMode::DeltaOnBind)] };
        sample_clip(&s, &clip, 30.0, 24.0, &mut out);
        assert_eq!(out[1].translation, Vec3::new(1.0, 0.0, 1.0));
    }

    #[test]
    fn bezier_eases_each_segment_with_its_first_keys_curve() {
        use crate::scene::{Easing, TrackEase};
        let s = skeleton(1);
        // x1 + x2 = 1 puts u = ½ at s = ½, where y = ⅜(y1 + y2) + ⅛: (0,0,1,0) gives 0.125.
        let ease_in = Easing::new(0.0, 0.0, 1.0, 0.0);
        let track = Track {
            joint: 0,
            mode: TrackMode::Replace,
            interpolation: Interpolation::Bezier,
            translation: vec![Key { time: 0.0, value: Vec3::ZERO }, Key { time: 1.0, value: Vec3::splat(8.0) }],
            rotation: vec![
                Key { time: 0.0, value: Quat::IDENTITY },
                Key { time: 1.0, value: Quat::from_rotation_z(std::f32::consts::FRAC_PI_2) },
            ],
            scale: vec![],
            ease: Some(Box::new(TrackEase {
                translation: vec![[Easing::LINEAR, ease_in, Easing::LINEAR]],
                rotation: vec![ease_in],
                scale: vec![],
            })),
        };
        let mut clip = sampled(false);
        clip.data = ClipData::Keyed { tracks: vec![track] };
        let mut out = [Transform::IDENTITY];
        sample_clip(&s, &clip, 5.0, 24.0, &mut out); // 0.5 s at 10 fps
        assert!(out[0].translation.abs_diff_eq(Vec3::new(4.0, 1.0, 4.0), 1e-5), "{:?}", out[0].translation);
        // 90° · 0.125 = 11.25° about Z.
        assert!(out[0].rotation.abs_diff_eq(Quat::from_rotation_z(11.25f32.to_radians()), 1e-5));
    }

    /// The hinted search finds the index a binary search finds, from any hint, for times before, between, on
    /// and after keys (repeated times included), walking forward, backward and jumping.
    #[test]
    fn the_hinted_key_search_finds_what_a_binary_search_finds() {
        let times = [0.0, 0.5, 0.5, 1.0, 2.0, 2.0, 2.0, 3.5, 4.0, 7.0, 7.5, 9.0];
        let keys: Vec<Key<f32>> = times.iter().map(|&time| Key { time, value: time }).collect();
        let mut hint = 0u32;
        for k in 0..400 {
            // Forward in small steps, then jumps back and forth across the whole range.
            let time = if k < 200 { k as f32 * 0.05 - 0.3 } else { ((k * 37) % 101) as f32 * 0.1 - 0.2 };
            for start in [0, 1, 3, 5, 6, 11, 12, 40] {
                let want = keys.partition_point(|key| key.time <= time);
                assert_eq!(next_key_from(&keys, time, start), want, "time {time} from {start}");
            }
            let mix = |a: f32, b: f32, _, u: f32| a + (b - a) * u;
            assert_eq!(keys_at(&keys, time, Some(&mut hint), mix), sample_keys_eased(&keys, time, mix), "time {time}");
        }
    }

    #[test]
    fn step_holds_earlier_key() {
        let keys = [Key { time: 0.0, value: 1.0f32 }, Key { time: 1.0, value: 3.0 }];
        assert_eq!(sample_keys(&keys, 0.9, true, |a, b, t| a + (b - a) * t), Some(1.0));
        assert_eq!(sample_keys(&keys, 0.5, false, |a, b, t| a + (b - a) * t), Some(2.0));
        assert_eq!(sample_keys::<f32>(&[], 0.5, false, |a, _, _| a), None);
    }
}

//! Clip sampling: a clip at a (fractional) frame gives a local transform per joint.

use glam::{Quat, Vec3};

use crate::scene::{Clip, ClipData, Easing, Interpolation, Key, Skeleton, Track, TrackMode, Transform};

/// Writes the local transform of every skeleton joint at `frame` (clip frames from 0, fractional allowed)
/// into `out`, which must have one entry per joint. Joints the clip doesn't animate keep their bind pose.
///
/// Between two frames each joint is interpolated on its own (TRS, shortest-path slerp). Past the last frame
/// a looping clip blends back to its first frame; a non-looping one holds the last.
pub fn sample_clip(skeleton: &Skeleton, clip: &Clip, frame: f32, default_fps: f32, out: &mut [Transform]) {
    for (o, j) in out.iter_mut().zip(&skeleton.joints) {
        *o = j.bind;
    }
    match &clip.data {
        ClipData::Sampled { joints, frames } => {
            let n = if *joints == 0 { 0 } else { frames.len() / joints };
            if n == 0 {
                return;
            }
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
            let a = &frames[i0 * joints..(i0 + 1) * joints];
            let b = &frames[i1 * joints..(i1 + 1) * joints];
            for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
                *o = if t == 0.0 { *a } else { a.interpolate(b, t) };
            }
        }
        ClipData::Keyed { tracks } => {
            let time = frame / clip.fps(default_fps);
            for track in tracks {
                if let Some(o) = out.get_mut(track.joint) {
                    *o = sample_track(track, time, *o);
                }
            }
        }
    }
}

/// One track at `time` seconds on `bind` (deltas on the identity show the track's own values).
pub fn sample_track(track: &Track, time: f32, bind: Transform) -> Transform {
    let lerp = |a: Vec3, b: Vec3, t: f32| a.lerp(b, t);
    let slerp = |a: Quat, b: Quat, t: f32| {
        let b = if a.dot(b) < 0.0 { -b } else { b };
        a.slerp(b, t).normalize()
    };
    let (t, r, s) = match (track.interpolation, &track.ease) {
        (Interpolation::Bezier, Some(ease)) => {
            let curve = |v: &[Easing], i: usize| v.get(i).copied().unwrap_or(Easing::LINEAR);
            let t = sample_keys_eased(&track.translation, time, |a, b, i, u| {
                let c = ease.translation.get(i).copied().unwrap_or([Easing::LINEAR; 3]);
                a + (b - a) * Vec3::new(c[0].weight(u), c[1].weight(u), c[2].weight(u))
            });
            let r =
                sample_keys_eased(&track.rotation, time, |a, b, i, u| slerp(a, b, curve(&ease.rotation, i).weight(u)));
            let s = sample_keys_eased(&track.scale, time, |a, b, i, u| lerp(a, b, curve(&ease.scale, i).weight(u)));
            (t, r, s)
        }
        _ => {
            let step = track.interpolation == Interpolation::Step;
            let t = sample_keys(&track.translation, time, step, lerp);
            let r = sample_keys(&track.rotation, time, step, slerp);
            let s = sample_keys(&track.scale, time, step, lerp);
            (t, r, s)
        }
    };
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
    let first = keys.first()?;
    if keys.len() == 1 || time.is_nan() || time <= first.time {
        return Some(first.value);
    }
    let next = keys.partition_point(|k| k.time <= time);
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

    #[test]
    fn step_holds_earlier_key() {
        let keys = [Key { time: 0.0, value: 1.0f32 }, Key { time: 1.0, value: 3.0 }];
        assert_eq!(sample_keys(&keys, 0.9, true, |a, b, t| a + (b - a) * t), Some(1.0));
        assert_eq!(sample_keys(&keys, 0.5, false, |a, b, t| a + (b - a) * t), Some(2.0));
        assert_eq!(sample_keys::<f32>(&[], 0.5, false, |a, _, _| a), None);
    }
}

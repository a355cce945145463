//! Motion trails (Blender's motion paths): where a joint goes over the frames around the current one, in model
//! space, with its key frames marked on the way. The window draws one for each selected joint; like the onion
//! skin, a trail follows the clip's own keys (forward kinematics), not what IK or physics add on top.

use glam::{Mat4, Vec3};

use super::sample_joint;
use crate::scene::{Clip, Skeleton};

/// The most frames each side of the current one a trail covers.
pub const MAX_TRAIL_FRAMES: u32 = 240;

/// A joint's path: its positions at the frames around the current one, in order, and its positions at the key
/// frames among them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trail {
    pub path: Vec<Vec3>,
    pub keys: Vec<Vec3>,
}

/// Joint `joint`'s model-space position in `clip` at `frame`: its local transforms up the parent chain, each as
/// [`sample_joint`] gives it.
fn joint_position(skeleton: &Skeleton, clip: &Clip, joint: usize, frame: f32, default_fps: f32) -> Vec3 {
    let mut m = Mat4::IDENTITY;
    let mut at = Some(joint).filter(|&j| j < skeleton.len());
    // Parents come first in the skeleton, so the chain ends; the guard stops a malformed one all the same.
    let mut steps = 0;
    while let Some(j) = at {
        let local = sample_joint(clip, j, frame, default_fps, skeleton.joints[j].bind);
        m = local.to_mat4() * m;
        at = skeleton.joints[j].parent.filter(|&p| p < j);
        steps += 1;
        if steps > skeleton.len() {
            break;
        }
    }
    m.w_axis.truncate()
}

/// The trail of joint `joint` over the `n` frames before and after `frame` (whole frames from it, so the path
/// passes through the current position): wrapped on a looping clip, stopped at the ends of a clamped one.
/// `keys` are the joint's key frames (sorted); those within the span are marked.
pub fn motion_trail(
    skeleton: &Skeleton,
    clip: &Clip,
    joint: usize,
    frame: f32,
    n: u32,
    keys: &[f32],
    default_fps: f32,
) -> Trail {
    let span = clip.frame_span();
    if span <= 0.0 || !frame.is_finite() || joint >= skeleton.len() {
        return Trail::default();
    }
    let n = n.min(MAX_TRAIL_FRAMES) as i32;
    let at = |f: f32| joint_position(skeleton, clip, joint, f, default_fps);
    let place = |f: f32| {
        if clip.looping { Some(f.rem_euclid(span)) } else { (0.0..=span).contains(&f).then_some(f) }
    };
    let path = (-n..=n).filter_map(|k| place(frame + k as f32)).map(at).collect();
    let near = |k: f32| {
        let d = k - frame;
        let d = if clip.looping { d - span * (d / span).round() } else { d };
        d.abs() <= n as f32
    };
    let keys = keys.iter().copied().filter(|&k| near(k)).map(at).collect();
    Trail { path, keys }
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;
    use crate::scene::{ClipData, Interpolation, Joint, Key, Track, TrackMode, Transform};

    /// A root moving along X one unit a second (10 frames), and a child one unit up from it, turned about Z by
    /// the root's rotation.
    fn scene() -> (Skeleton, Clip) {
        let skeleton = Skeleton {
            joints: vec![
                Joint { name: "root".into(), parent: None, bind: Transform::IDENTITY },
                Joint {
                    name: "tip".into(),
                    parent: Some(0),
                    bind: Transform { translation: Vec3::Y, ..Transform::IDENTITY },
                },
            ],
            ..Skeleton::default()
        };
        let track = Track {
            joint: 0,
            mode: TrackMode::Replace,
            interpolation: Interpolation::Linear,
            translation: vec![Key { time: 0.0, value: Vec3::ZERO }, Key { time: 2.0, value: Vec3::new(2.0, 0.0, 0.0) }],
            rotation: vec![Key { time: 0.0, value: Quat::IDENTITY }, Key { time: 2.0, value: Quat::IDENTITY }],
            scale: Vec::new(),
            ease: None,
        };
        (skeleton, Clip::new("c", 10.0, false, 21, ClipData::Keyed { tracks: vec![track] }))
    }

    #[test]
    fn a_trail_follows_the_joint_through_its_parents_and_marks_its_keys() {
        let (skeleton, clip) = scene();
        // The tip at frame 5 is half a unit along X, one up.
        assert!(joint_position(&skeleton, &clip, 1, 5.0, 30.0).abs_diff_eq(Vec3::new(0.5, 1.0, 0.0), 1e-5));
        let t = motion_trail(&skeleton, &clip, 1, 5.0, 3, &[0.0, 20.0], 30.0);
        assert_eq!(t.path.len(), 7);
        for (i, p) in t.path.iter().enumerate() {
            let x = (2.0 + i as f32) / 10.0;
            assert!(p.abs_diff_eq(Vec3::new(x, 1.0, 0.0), 1e-5), "{p} at {i}");
        }
        assert!(t.keys.is_empty(), "no key within 3 frames of 5");
        // Near the start of the clamped clip the trail stops at frame 0, where a key is.
        let t = motion_trail(&skeleton, &clip, 1, 1.0, 3, &[0.0, 20.0], 30.0);
        assert_eq!(t.path.len(), 5, "frames 0 to 4");
        assert_eq!(t.keys, [Vec3::new(0.0, 1.0, 0.0)]);
        assert!(motion_trail(&skeleton, &clip, 9, 1.0, 3, &[], 30.0).path.is_empty(), "no such joint");
    }

    #[test]
    fn a_looping_trail_wraps() {
        let (skeleton, mut clip) = scene();
        clip.looping = true;
        let t = motion_trail(&skeleton, &clip, 0, 1.0, 2, &[0.0, 20.0], 30.0);
        // A looping clip of 21 frames plays 21 frames: frame −1 is its last, 20, then 0, 1, 2, 3.
        assert_eq!(t.path.len(), 5);
        assert!(t.path[0].abs_diff_eq(Vec3::new(2.0, 0.0, 0.0), 1e-5), "{}", t.path[0]);
        assert_eq!(t.keys.len(), 2, "frame 0, and frame 20 a frame before it across the wrap");
    }
}

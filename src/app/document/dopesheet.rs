//! What the timeline's key rows draw, derived once per clip and item (not per frame): for a joint, a morph or a
//! camera, the frames of its keys by channel, and the runs where a channel holds one value (a bar between two
//! equal keys, or over the frames of a sampled clip that don't change): the "keys that hold where they should
//! move" an exporter leaves. Also the spans where a motion switches an IK chain or a body's physics off.

use glam::{Quat, Vec3};

use crate::scene::{CameraTrack, Clip, ClipData, IkSwitchTrack, Key, Transform};

/// Values this close are the same (a quaternion's dot product this close to 1 the same turn); the outliner's
/// "Keyed" filter counts keys the same way.
const EPS: f32 = 1e-6;

/// What a key sets; each has its own colour on the rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    Translation,
    Rotation,
    Scale,
    Morph,
    Camera,
}

impl Channel {
    pub fn name(self) -> &'static str {
        match self {
            Channel::Translation => "translation",
            Channel::Rotation => "rotation",
            Channel::Scale => "scale",
            Channel::Morph => "morph weight",
            Channel::Camera => "camera",
        }
    }
}

/// What a key row is of: a joint, a morph or a camera, by index into the scene's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowItem {
    Joint(usize),
    Morph(usize),
    Camera(usize),
}

/// One channel of a row: its keys and held runs, in clip frames, sorted.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChannelKeys {
    pub keys: Vec<f32>,
    /// `(first, last)` frames of each run where the value stays the same, runs merged where they touch.
    pub held: Vec<(f32, f32)>,
}

/// A row: its channels, each with keys or runs (channels with neither are left out).
pub type RowKeys = Vec<(Channel, ChannelKeys)>;

/// Keys and held runs of `keys` at `fps`, two keys being equal by `same`.
fn keyed<T>(keys: &[Key<T>], fps: f32, same: impl Fn(&T, &T) -> bool) -> ChannelKeys {
    let frames: Vec<f32> = keys.iter().map(|k| k.time * fps).collect();
    let mut held: Vec<(f32, f32)> = Vec::new();
    for (w, f) in keys.windows(2).zip(frames.windows(2)) {
        if same(&w[0].value, &w[1].value) {
            push_run(&mut held, f[0], f[1]);
        }
    }
    ChannelKeys { keys: frames.into_iter().filter(|f| f.is_finite()).collect(), held }
}

/// Appends the run `a..b`, merged into the last when they touch.
fn push_run(held: &mut Vec<(f32, f32)>, a: f32, b: f32) {
    if !(a.is_finite() && b.is_finite() && b > a) {
        return;
    }
    match held.last_mut() {
        Some(last) if (last.1 - a).abs() < 1e-3 => last.1 = b,
        _ => held.push((a, b)),
    }
}

/// Held runs of a value sampled at every frame (`values[f]`): frames `f..g` with one value, `g > f`.
fn sampled<T>(values: impl Iterator<Item = T>, same: impl Fn(&T, &T) -> bool) -> ChannelKeys {
    let mut held = Vec::new();
    let mut previous: Option<T> = None;
    for (f, v) in values.enumerate() {
        if let Some(p) = &previous
            && same(p, &v)
        {
            push_run(&mut held, f as f32 - 1.0, f as f32);
        }
        previous = Some(v);
    }
    ChannelKeys { keys: Vec::new(), held }
}

pub(super) fn same_vec(a: &Vec3, b: &Vec3) -> bool {
    a.abs_diff_eq(*b, EPS)
}

/// The same turn, whichever hemisphere each is stored in.
pub(super) fn same_turn(a: &Quat, b: &Quat) -> bool {
    a.dot(*b).abs() >= 1.0 - EPS
}

pub(super) fn same_weight(a: &f32, b: &f32) -> bool {
    (a - b).abs() <= EPS
}

/// Joint `joint`'s row in `clip` (frames at `fps`): translation, rotation and scale keys of a keyed clip, or the
/// held runs of a sampled one (every frame is a key there, so none is drawn).
pub fn joint_row(clip: &Clip, joint: usize, fps: f32) -> RowKeys {
    let mut out: RowKeys = Vec::new();
    let mut push = |channel, keys: ChannelKeys| {
        if !keys.keys.is_empty() || !keys.held.is_empty() {
            out.push((channel, keys));
        }
    };
    match &clip.data {
        ClipData::Keyed { tracks } => {
            for t in tracks.iter().filter(|t| t.joint == joint) {
                push(Channel::Translation, keyed(&t.translation, fps, same_vec));
                push(Channel::Rotation, keyed(&t.rotation, fps, same_turn));
                push(Channel::Scale, keyed(&t.scale, fps, same_vec));
            }
        }
        ClipData::Sampled { joints, frames } if joint < *joints => {
            let at = || frames.iter().skip(joint).step_by(*joints);
            push(Channel::Translation, sampled(at().map(|t: &Transform| t.translation), same_vec));
            push(Channel::Rotation, sampled(at().map(|t| t.rotation), same_turn));
            push(Channel::Scale, sampled(at().map(|t| t.scale), same_vec));
        }
        ClipData::Sampled { .. } => {}
    }
    out
}

/// The row of the morph named `name` in `clip` (MMD motions key morphs by name).
pub fn morph_row(clip: &Clip, name: &str, fps: f32) -> RowKeys {
    clip.morphs
        .iter()
        .filter(|t| t.name == name)
        .map(|t| (Channel::Morph, keyed(&t.keys, fps, same_weight)))
        .filter(|(_, k)| !k.keys.is_empty())
        .collect()
}

/// A camera's row: its keys, held where target, distance, angles and field of view all stay.
pub fn camera_row(camera: &CameraTrack, fps: f32) -> RowKeys {
    let keys: Vec<Key<[f32; 8]>> = camera
        .keys
        .iter()
        .map(|k| {
            let (t, a) = (k.target, k.angles);
            Key { time: k.time, value: [t.x, t.y, t.z, k.distance, a.x, a.y, a.z, k.fov_y] }
        })
        .collect();
    let row = keyed(&keys, fps, |a, b| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= EPS));
    if row.keys.is_empty() { Vec::new() } else { vec![(Channel::Camera, row)] }
}

/// The spans (first and last frame) where `track` holds its chain or body switched off, up to `span` (the
/// clip's last frame): each key holds until the next, and before the first the switch is on.
pub fn off_spans(track: &IkSwitchTrack, fps: f32, span: f32) -> Vec<(f32, f32)> {
    let mut out: Vec<(f32, f32)> = Vec::new();
    let mut off_since: Option<f32> = None;
    for k in &track.keys {
        let f = k.time * fps;
        match (k.value, off_since) {
            (false, None) => off_since = Some(f),
            (true, Some(a)) => {
                push_run(&mut out, a, f);
                off_since = None;
            }
            _ => {}
        }
    }
    if let Some(a) = off_since {
        push_run(&mut out, a, span.max(a + 1.0));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Interpolation, Track, TrackMode};

    fn key<T>(time: f32, value: T) -> Key<T> {
        Key { time, value }
    }

    #[test]
    fn a_keyed_joint_has_keys_by_channel_and_bars_where_keys_repeat() {
        let turned = Quat::from_rotation_y(1.0);
        let track = Track {
            joint: 2,
            mode: TrackMode::Replace,
            interpolation: Interpolation::Linear,
            translation: vec![key(0.0, Vec3::ZERO), key(1.0, Vec3::ZERO), key(2.0, Vec3::ZERO), key(3.0, Vec3::X)],
            // Frames 5, 10 and 30 hold one turn, the middle one stored with opposite signs: still held.
            rotation: vec![key(0.0, Quat::IDENTITY), key(0.5, turned), key(1.0, -turned), key(3.0, turned)],
            scale: Vec::new(),
            ease: None,
        };
        let clip = Clip::new("c", 10.0, false, 31, ClipData::Keyed { tracks: vec![track] });
        let row = joint_row(&clip, 2, 10.0);
        assert_eq!(row.len(), 2, "no scale keys, no scale channel: {row:?}");
        assert_eq!(row[0].0, Channel::Translation);
        assert_eq!(row[0].1.keys, [0.0, 10.0, 20.0, 30.0]);
        assert_eq!(row[0].1.held, [(0.0, 20.0)], "two touching runs merge");
        assert_eq!(row[1].0, Channel::Rotation);
        assert_eq!(row[1].1.keys, [0.0, 5.0, 10.0, 30.0]);
        assert_eq!(row[1].1.held, [(5.0, 30.0)]);
        assert!(joint_row(&clip, 0, 10.0).is_empty(), "an unkeyed joint has no row");
    }

    #[test]
    fn a_sampled_joint_shows_where_it_holds_and_no_keys() {
        // Two joints, five frames; joint 1 moves on frames 0→1 and 3→4 only.
        let at = |x: f32| Transform { translation: Vec3::new(x, 0.0, 0.0), ..Transform::IDENTITY };
        let mut frames = Vec::new();
        for x in [0.0, 1.0, 1.0, 1.0, 2.0] {
            frames.extend([Transform::IDENTITY, at(x)]);
        }
        let clip = Clip::new("s", 10.0, false, 5, ClipData::Sampled { joints: 2, frames });
        let row = joint_row(&clip, 1, 10.0);
        let translation = &row.iter().find(|(c, _)| *c == Channel::Translation).unwrap().1;
        assert!(translation.keys.is_empty());
        assert_eq!(translation.held, [(1.0, 3.0)]);
        let rotation = &row.iter().find(|(c, _)| *c == Channel::Rotation).unwrap().1;
        assert_eq!(rotation.held, [(0.0, 4.0)], "never turns: held all along");
        assert!(joint_row(&clip, 5, 10.0).is_empty(), "no such joint");
    }

    #[test]
    fn switches_are_off_from_an_off_key_to_the_next_on_key_or_the_end() {
        let track = IkSwitchTrack {
            name: "左足ＩＫ".into(),
            keys: vec![key(0.0, true), key(1.0, false), key(2.0, false), key(3.0, true), key(5.0, false)],
        };
        assert_eq!(off_spans(&track, 30.0, 200.0), [(30.0, 90.0), (150.0, 200.0)]);
        let on = IkSwitchTrack { name: "x".into(), keys: vec![key(0.0, true)] };
        assert!(off_spans(&on, 30.0, 200.0).is_empty());
    }
}

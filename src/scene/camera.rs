//! Animated cameras (MVD): an orbit camera keyed by target, distance, Euler angles and field of view, with
//! property keys (projection, visibility) that hold until the next.
//!
//! Values stay in the file's own space. For MVD that is MMD's left-handed, Y-up world, with MikuMikuMoving's
//! angle convention (MVD note §6): `C = Ry(−ay)·Rx(−ax)·Rz(az)`, `eye = target + C·(0,0,distance)`,
//! `forward = C·(0,0,−1)`, `up = C·(0,1,0)`. The default key (target (0,10,0), distance 50, angles (0,π,0))
//! puts the eye at (0,10,−50) looking toward +Z.

use glam::{Mat3, Vec3};

use super::Easing;

/// One camera key. `ease` holds the curves of the segment from this key to the next: move (target x, y and
/// z alike), rotation, distance and field of view.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct CameraKey {
    /// Seconds.
    pub time: f32,
    /// The look-at point.
    pub target: Vec3,
    /// Distance from the target to the eye along the camera's local Z (see the module docs).
    pub distance: f32,
    /// Euler angles (x, y, z) in radians; lerped, never slerped.
    pub angles: Vec3,
    /// Vertical field of view in radians.
    pub fov_y: f32,
    /// Move, rotation, distance and field-of-view curves of the segment that starts at this key.
    pub ease: [Easing; 4],
    /// Separate target X, Y and Z curves of that segment (VMD cameras), used instead of the move curve.
    pub target_ease: Option<[Easing; 3]>,
}

/// Camera properties at a time; each holds until the next key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct CameraPropertyKey {
    /// Seconds.
    pub time: f32,
    pub enabled: bool,
    pub perspective: bool,
    pub alpha: f32,
    pub effect_enabled: bool,
    /// (rate, coefficient) when dynamic FOV is on.
    pub dynamic_fov: Option<(f32, f32)>,
    /// Related model and bone ids (−1 = none).
    pub related: (i32, i32),
}

/// A keyed camera: one object's base stage.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CameraTrack {
    /// The camera's name (MVD: NameList name of the section key).
    pub name: String,
    /// The name of the clip this camera plays with (MVD: its object), if any.
    pub clip: Option<String>,
    /// Keys sorted by time.
    pub keys: Vec<CameraKey>,
    /// Property keys sorted by time (stepped).
    pub properties: Vec<CameraPropertyKey>,
    /// Camera-cut threshold in seconds: a segment no longer than this holds its earlier key until the later
    /// key's time (MVD: one tick, 1 / keyFps).
    pub cut_span: f32,
}

/// Where a camera is at one instant, in the track's space.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct CameraView {
    pub target: Vec3,
    pub eye: Vec3,
    pub up: Vec3,
    /// Vertical field of view in radians.
    pub fov_y: f32,
    pub perspective: bool,
}

impl CameraView {
    /// This view (left-handed, Y up: [`CameraTrack`]'s space) in the renderer's right-handed Y-up world, which
    /// is also glTF's: eye, target and up mirrored in Z, S = diag(1, 1, −1). The field of view and projection
    /// are kept. The MMD camera looks at a Y-up world, and so does the world space every model stands in after
    /// its `UpAxis::basis`: a Z-up model attached to an MVD is seen the way it is drawn, not in its file axes.
    pub fn in_world(&self) -> CameraView {
        let s = Vec3::new(1.0, 1.0, -1.0);
        CameraView { target: self.target * s, eye: self.eye * s, up: self.up * s, ..*self }
    }
}

impl CameraKey {
    /// The view this key alone gives.
    pub fn view(&self, perspective: bool) -> CameraView {
        let a = self.angles;
        let c = Mat3::from_rotation_y(-a.y) * Mat3::from_rotation_x(-a.x) * Mat3::from_rotation_z(a.z);
        CameraView {
            target: self.target,
            eye: self.target + c * Vec3::new(0.0, 0.0, self.distance),
            up: c * Vec3::Y,
            fov_y: self.fov_y,
            perspective,
        }
    }
}

impl CameraTrack {
    /// The camera at `seconds`: ends held outside the key range; between keys each channel eased by the
    /// segment's curves; a cut (segment ≤ `cut_span`) holds its first key. `None` without keys.
    pub fn view_at(&self, seconds: f32) -> Option<CameraView> {
        let perspective = self.property_at(seconds).is_none_or(|p| p.perspective);
        let key = self.key_at(seconds)?;
        Some(key.view(perspective))
    }

    /// The interpolated key at `seconds` (its `ease` is meaningless).
    pub fn key_at(&self, seconds: f32) -> Option<CameraKey> {
        let keys = &self.keys;
        let first = keys.first()?;
        if keys.len() == 1 || seconds.is_nan() || seconds <= first.time {
            return Some(*first);
        }
        let next = keys.partition_point(|k| k.time <= seconds);
        if next >= keys.len() {
            return keys.last().copied();
        }
        let (a, b) = (&keys[next - 1], &keys[next]);
        let span = b.time - a.time;
        // A cut: keys one tick apart (or closer) hold the earlier key until the later one's time. The small
        // tolerance absorbs the rounding of tick / keyFps in f32.
        if span <= self.cut_span * (1.0 + 1e-4) || span <= 0.0 {
            return Some(*a);
        }
        let u = (seconds - a.time) / span;
        let [mv, rot, dist, fov] = a.ease.map(|e| e.weight(u));
        let lerp = |x: f32, y: f32, w: f32| x + (y - x) * w;
        let move_w = a.target_ease.map_or(Vec3::splat(mv), |e| Vec3::from_array(e.map(|e| e.weight(u))));
        Some(CameraKey {
            time: seconds,
            target: a.target + (b.target - a.target) * move_w,
            distance: lerp(a.distance, b.distance, dist),
            angles: a.angles.lerp(b.angles, rot),
            fov_y: lerp(a.fov_y, b.fov_y, fov),
            ease: a.ease,
            target_ease: a.target_ease,
        })
    }

    /// The property key in force at `seconds` (the first before the first key).
    pub fn property_at(&self, seconds: f32) -> Option<&CameraPropertyKey> {
        let next = self.properties.partition_point(|k| k.time <= seconds);
        self.properties.get(next.saturating_sub(1))
    }

    /// The last key time, in seconds (0 without keys).
    pub fn end_time(&self) -> f32 {
        self.keys.last().map_or(0.0, |k| k.time).max(self.properties.last().map_or(0.0, |k| k.time))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::PI;

    fn key(time: f32, target: Vec3, distance: f32, angles: Vec3) -> CameraKey {
        CameraKey { time, target, distance, angles, fov_y: 0.5, ease: [Easing::LINEAR; 4], target_ease: None }
    }

    #[test]
    fn default_camera_looks_toward_plus_z_from_minus_50() {
        let v = key(0.0, Vec3::new(0.0, 10.0, 0.0), 50.0, Vec3::new(0.0, PI, 0.0)).view(true);
        assert!(v.eye.abs_diff_eq(Vec3::new(0.0, 10.0, -50.0), 1e-4), "{:?}", v.eye);
        assert!(v.up.abs_diff_eq(Vec3::Y, 1e-6));
    }

    #[test]
    fn cut_holds_the_earlier_key_between_ticks() {
        let t = CameraTrack {
            name: "c".into(),
            clip: None,
            keys: vec![key(0.0, Vec3::ZERO, 10.0, Vec3::ZERO), key(1.0 / 30.0, Vec3::X, 20.0, Vec3::ZERO)],
            properties: vec![],
            cut_span: 1.0 / 30.0,
        };
        assert_eq!(t.key_at(0.02).unwrap().target, Vec3::ZERO);
        assert_eq!(t.key_at(1.0 / 30.0).unwrap().target, Vec3::X);
    }
}

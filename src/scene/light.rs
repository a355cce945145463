//! The motion's directional light and self-shadow (MikuMikuDance's light: VMD light and self-shadow keys, MVD
//! Light and Project sections), format-neutral.
//!
//! Values stay in the file's own space, as cameras do: for MikuMikuDance that is its left-handed, Y-up world,
//! where the default light travels along (−0.5, −1.0, 0.5) (down, to the left and toward the back of a model
//! facing the viewer) with colour 154/255 grey. Between keys MikuMikuDance moves the light linearly (colour and
//! direction alike, no curves); self-shadow keys hold until the next.

use glam::Vec3;

/// MikuMikuDance's default light: its colour (each channel 154/255) and the direction it travels.
pub const MMD_DEFAULT_LIGHT: Light = Light { color: Vec3::splat(154.0 / 255.0), direction: Vec3::new(-0.5, -1.0, 0.5) };

/// A directional light at one instant.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Light {
    /// The colour as the file gives it (sRGB-encoded, 0..1 per channel).
    pub color: Vec3,
    /// The direction the light travels (not normalised: as keyed).
    pub direction: Vec3,
}

/// One light key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct LightKey {
    /// Seconds.
    pub time: f32,
    pub light: Light,
    /// Whether the light is on from this key (MVD's `enabled`; VMD keys are always on). Stepped.
    pub enabled: bool,
}

/// One self-shadow key: MikuMikuDance's mode (0 off, 1 mode 1, 2 mode 2; an MVD Project key's model gives 0 for
/// none and 1 for its depth shadow) and shadow distance as stored (VMD: the value of the slider's
/// 10000 − 100 000 × stored scale; MVD: MikuMikuMoving's self-shadow distance). Stepped.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ShadowKey {
    /// Seconds.
    pub time: f32,
    pub mode: u8,
    pub distance: f32,
}

/// A motion's light and self-shadow keys, each sorted by time.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct LightTrack {
    /// Where the keys come from ("VMD light", an MVD object's name), for the window and `info`.
    pub name: String,
    pub keys: Vec<LightKey>,
    pub shadows: Vec<ShadowKey>,
}

impl LightTrack {
    /// The light at `time` (seconds): linear between keys, held before the first and after the last; `None`
    /// with no keys or while the latest key at or before `time` switches it off.
    pub fn light_at(&self, time: f32) -> Option<Light> {
        let next = self.keys.partition_point(|k| k.time <= time);
        let (before, after) = (next.checked_sub(1).map(|i| &self.keys[i]), self.keys.get(next));
        match (before, after) {
            (None, None) => None,
            (None, Some(k)) => k.enabled.then_some(k.light),
            (Some(k), None) => k.enabled.then_some(k.light),
            (Some(a), Some(b)) => {
                if !a.enabled {
                    return None;
                }
                let span = b.time - a.time;
                let t = if span > 0.0 { ((time - a.time) / span).clamp(0.0, 1.0) } else { 0.0 };
                Some(Light {
                    color: a.light.color.lerp(b.light.color, t),
                    direction: a.light.direction.lerp(b.light.direction, t),
                })
            }
        }
    }

    /// The self-shadow key in force at `time`: the latest at or before it (the first before any).
    pub fn shadow_at(&self, time: f32) -> Option<ShadowKey> {
        let next = self.shadows.partition_point(|k| k.time <= time);
        self.shadows.get(next.saturating_sub(1)).copied()
    }
}

impl super::Scene {
    /// The directional light the scene is drawn with at `time` (seconds): its motion's light when
    /// `from_motion` and a light track lights that instant (the first such track), else MikuMikuDance's default
    /// light for MikuMikuDance models, else `None` (the viewer's own light).
    pub fn light_at(&self, time: f32, from_motion: bool) -> Option<Light> {
        let keyed = from_motion.then(|| self.lights.iter().find(|t| !t.keys.is_empty())).flatten();
        match keyed {
            Some(track) => track.light_at(time),
            None => self.mmd.is_some().then_some(MMD_DEFAULT_LIGHT),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(time: f32, color: f32, x: f32, enabled: bool) -> LightKey {
        LightKey { time, light: Light { color: Vec3::splat(color), direction: Vec3::new(x, -1.0, 0.0) }, enabled }
    }

    #[test]
    fn light_moves_linearly_between_keys_and_holds_outside_them() {
        let t = LightTrack { keys: vec![key(1.0, 0.2, -1.0, true), key(3.0, 0.6, 1.0, true)], ..LightTrack::default() };
        assert_eq!(t.light_at(0.0).unwrap().color, Vec3::splat(0.2));
        let mid = t.light_at(2.0).unwrap();
        assert!((mid.color - Vec3::splat(0.4)).abs().max_element() < 1e-6);
        assert!((mid.direction - Vec3::new(0.0, -1.0, 0.0)).abs().max_element() < 1e-6);
        assert_eq!(t.light_at(9.0).unwrap().color, Vec3::splat(0.6));
        assert_eq!(LightTrack::default().light_at(0.0), None);
    }

    #[test]
    fn a_key_that_switches_the_light_off_holds_until_the_next() {
        let t = LightTrack {
            keys: vec![key(0.0, 0.5, 0.0, true), key(1.0, 0.5, 0.0, false), key(2.0, 0.9, 0.0, true)],
            ..LightTrack::default()
        };
        assert!(t.light_at(0.5).is_some());
        assert_eq!(t.light_at(1.5), None);
        assert_eq!(t.light_at(2.5).unwrap().color, Vec3::splat(0.9));
    }

    #[test]
    fn self_shadow_keys_step() {
        let s = |time, mode| ShadowKey { time, mode, distance: 0.0 };
        let t = LightTrack { shadows: vec![s(0.0, 1), s(2.0, 0)], ..LightTrack::default() };
        assert_eq!(t.shadow_at(1.0).unwrap().mode, 1);
        assert_eq!(t.shadow_at(2.0).unwrap().mode, 0);
        assert_eq!(LightTrack::default().shadow_at(1.0), None);
    }
}

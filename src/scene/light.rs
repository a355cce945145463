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

/// MikuMikuDance's self-shadow at its defaults: mode 1, shadow distance 8875 on its slider (stored 0.01125).
pub const MMD_DEFAULT_SELF_SHADOW: SelfShadow = SelfShadow { mode: 1, scale: 0.01125 };

/// MikuMikuDance's self-shadow at one instant: a shadow map from the scene's light. Mode 0 (off) is `None`
/// wherever a `SelfShadow` is optional.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SelfShadow {
    /// 1 or 2: MikuMikuDance's two light projections (both start at the camera and widen away from it; mode 2
    /// scales the view by 3 instead of 2 and reaches without end, its detail crowded near the camera).
    pub mode: u8,
    /// The shadow distance as a VMD stores it: `(10000 − slider) / 100000`, so the slider's 0–10000 are 0.1–0.
    /// MikuMikuDance's light projection scales the light's view by 2 × this (mode 1) or 3 × (mode 2) and its
    /// depth by 0.15 × this: a larger slider value covers more of the scene, more coarsely.
    pub scale: f32,
}

impl SelfShadow {
    /// The self-shadow a key asks for: `None` for mode 0. A VMD stores the scale itself; an MVD's distance is
    /// MikuMikuMoving's, whose unit no format note gives: a value above 1 is read as MikuMikuDance's slider
    /// (0–10000), anything else as a stored scale.
    pub fn of_key(key: &ShadowKey) -> Option<SelfShadow> {
        let scale = if key.distance > 1.0 { (10000.0 - key.distance) / 100_000.0 } else { key.distance };
        (key.mode != 0).then(|| SelfShadow { mode: key.mode.min(2), scale })
    }

    /// The scale clamped to what the slider can give, and never 0 (which would cover an infinite plane).
    fn clamped_scale(&self) -> f32 {
        if self.scale.is_finite() { self.scale.clamp(1e-3, 0.1) } else { MMD_DEFAULT_SELF_SHADOW.scale }
    }

    /// Half the side of the square the shadow map covers, in the model's units: MikuMikuDance's light
    /// projection scales the light's view by 2 × scale in mode 1 and 3 × scale in mode 2, so its map spans
    /// ±1 / (2 × scale) or ±1 / (3 × scale) across the light where it starts, at the camera (44 units at the
    /// default, about two of its characters' heights).
    pub fn half_extent(&self) -> f32 {
        let per_unit = if self.mode == 2 { 3.0 } else { 2.0 };
        1.0 / (per_unit * self.clamped_scale())
    }

    /// Half the depth range of the map along the light, model units: MikuMikuDance's projection maps depth by
    /// 0.15 × scale (592 units either side at the default).
    pub fn half_depth(&self) -> f32 {
        1.0 / (0.15 * self.clamped_scale())
    }

    /// How fast shadow sets in with the depth by which a receiver lies behind the nearest caster, per model
    /// unit. MikuMikuDance's shader takes `1 − saturate(Δ × k − 0.3)` of the light with Δ in its depth units
    /// (0.15 × scale per model unit), k = 1500 in mode 1 and 8000 × the map's v coordinate in mode 2 (1 at the
    /// camera, 0 at the far end of its camera-warped map); an orthographic map has no such v, so mode 2 takes
    /// the middle (0.5). Shadow starts 0.3 / rate behind the caster (0.12 units at the default) and is full at
    /// 1.3 / rate: MikuMikuDance's own depth bias.
    pub fn rate(&self) -> f32 {
        let k = if self.mode == 2 { 8000.0 * 0.5 } else { 1500.0 };
        k * 0.15 * self.clamped_scale()
    }
}

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

impl super::Scene {
    /// The self-shadow the scene is drawn with at `time` (seconds): with `from_motion`, the self-shadow key in
    /// force in the first light track that has such keys (mode 0 turns it off); else, for MikuMikuDance models,
    /// MikuMikuDance's default ([`MMD_DEFAULT_SELF_SHADOW`]); else `None` (other formats opt in from the view).
    pub fn self_shadow_at(&self, time: f32, from_motion: bool) -> Option<SelfShadow> {
        let keyed = from_motion.then(|| self.lights.iter().find(|t| !t.shadows.is_empty())).flatten();
        match keyed.and_then(|t| t.shadow_at(time)) {
            Some(key) => SelfShadow::of_key(&key),
            None => self.mmd.is_some().then_some(MMD_DEFAULT_SELF_SHADOW),
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

    #[test]
    fn a_shadow_key_gives_mikumikudances_coverage_and_mode_0_none() {
        let key = |mode, distance| ShadowKey { time: 0.0, mode, distance };
        assert_eq!(SelfShadow::of_key(&key(0, 0.01)), None);
        // The slider's 8875 is stored as 0.01125: mode 1 spans ±1 / 0.0225 = 44.4 units.
        let s = SelfShadow::of_key(&key(1, 0.01125)).unwrap();
        assert!((s.half_extent() - 44.444).abs() < 1e-2, "{}", s.half_extent());
        assert!((s.half_depth() - 592.59).abs() < 1e-1, "{}", s.half_depth());
        // MikuMikuDance's shadow starts 0.3 / 1500 of its depth units behind a caster: 0.1185 units here.
        assert!((0.3 / s.rate() - 0.1185).abs() < 1e-3);
        // Mode 2 scales the view by 3 instead of 2.
        let two = SelfShadow::of_key(&key(2, 0.01125)).unwrap();
        assert!((two.half_extent() - 29.63).abs() < 1e-2);
        // An MVD distance above 1 is the slider's value.
        assert_eq!(SelfShadow::of_key(&key(1, 8875.0)).unwrap().scale, 0.01125);
        // A stored 0 (the slider at 10000) is clamped rather than covering an infinite plane.
        assert!(SelfShadow::of_key(&key(1, 0.0)).unwrap().half_extent().is_finite());
    }
}

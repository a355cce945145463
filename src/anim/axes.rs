//! Re-expressing a clip's keyed deltas in other axes: the "MMD axis conversion" of attached motions.
//!
//! MMD motions (MVD) store bone deltas in MMD's left-handed, Y-up world axes. `pose` and the window apply
//! them as they are (local translation = bind + delta, local rotation = bind · delta), which matches MMD
//! exactly on MMD skeletons. On a model in other axes (a right-handed Y-up or Z-up model), the same numbers
//! turn the wrong way; [`mmd_to_model`] gives the change of axes, and [`convert_deltas`] applies it to the
//! [`TrackMode::DeltaOnBind`] tracks of a clip.

use glam::{Mat3, Quat, Vec3};

use crate::scene::{Clip, ClipData, TrackMode, UpAxis};

/// MMD axes → a model's axes: mirror Z (left-handed → right-handed, S = diag(1, 1, −1)), which lands in the
/// renderer's Y-up world, then world → model, the inverse of the model's [`crate::scene::UpAxis::basis`]. For a
/// Y-up model this is S; for a Z-up model (IQM, IQE) (x, y, z) ↦ (x, z, y).
pub fn mmd_to_model(up: UpAxis) -> Mat3 {
    let world_from_model = Mat3::from_mat4(up.basis());
    world_from_model.inverse() * Mat3::from_diagonal(Vec3::new(1.0, 1.0, -1.0))
}

/// Re-expresses every delta-on-bind track of `clip` in the axes `m` maps to (an orthogonal matrix, mirroring
/// or not): translation deltas t ↦ m·t; a rotation by θ about axis a becomes the rotation m·R·m⁻¹, that is
/// by θ·det(m) about m·a, so a quaternion (v, w) ↦ (det(m)·m·v, w) (for S: (x, y, z, w) ↦ (−x, −y, z, w)).
/// Per-axis translation curves follow their axes where `m` permutes them. Replace-mode tracks, scale keys
/// and sampled clips are left alone. Applying `m` then `m⁻¹` restores the clip (up to rounding).
pub fn convert_deltas(clip: &mut Clip, m: Mat3) {
    let det = m.determinant().signum();
    // Where m permutes axes (up to sign), output axis i takes input axis perm[i]'s curve.
    let perm: Option<[usize; 3]> = (0..3)
        .map(|i| (0..3).find(|&j| (m.row(i)[j].abs() - 1.0).abs() < 1e-4))
        .collect::<Option<Vec<usize>>>()
        .map(|v| [v[0], v[1], v[2]]);
    let ClipData::Keyed { tracks } = &mut clip.data else { return };
    for t in tracks.iter_mut().filter(|t| t.mode == TrackMode::DeltaOnBind) {
        for k in &mut t.translation {
            k.value = m * k.value;
        }
        for k in &mut t.rotation {
            let q = k.value;
            let v = m * Vec3::new(q.x, q.y, q.z) * det;
            k.value = Quat::from_xyzw(v.x, v.y, v.z, q.w);
        }
        if let (Some(ease), Some(p)) = (t.ease.as_deref_mut(), perm) {
            for e in &mut ease.translation {
                *e = [e[p[0]], e[p[1]], e[p[2]]];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Easing, Interpolation, Key, Track, TrackEase};

    fn clip(t: Vec3, q: Quat) -> Clip {
        let track = Track {
            joint: 0,
            mode: TrackMode::DeltaOnBind,
            interpolation: Interpolation::Bezier,
            translation: vec![Key { time: 0.0, value: t }],
            rotation: vec![Key { time: 0.0, value: q }],
            scale: vec![],
            ease: Some(Box::new(TrackEase {
                translation: vec![[Easing::new(0.1, 0.0, 0.9, 1.0), Easing::LINEAR, Easing::new(0.5, 0.0, 0.5, 1.0)]],
                rotation: vec![Easing::LINEAR],
                scale: vec![],
            })),
        };
        Clip::new("c", 30.0, false, 1, ClipData::Keyed { tracks: vec![track] })
    }

    fn first(c: &Clip) -> &Track {
        match &c.data {
            ClipData::Keyed { tracks } => &tracks[0],
            _ => unreachable!(),
        }
    }

    /// Hand-worked. MMD delta: translation (1, 2, 3), rotation 90° about Y, q = (0, sin 45°, 0, cos 45°).
    /// Y-up model: mirror Z → translation (1, 2, −3), q = (−0, −0.7071, 0, 0.7071) (−90° about Y: MMD's
    /// rotation takes +Z to +X; mirrored, it takes −Z to +X). Z-up model: then world → model, rotation of +90°
    /// about X, (x, y, z) ↦ (x, −z, y): translation (1, 3, 2), rotation axis world Y = model Z, so
    /// q = (0, 0, −0.7071, 0.7071), and the X/Y/Z curves become X/Z/Y.
    #[test]
    fn mmd_deltas_convert_to_y_up_and_z_up_models() {
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let q = Quat::from_xyzw(0.0, s, 0.0, s);
        let mut y = clip(Vec3::new(1.0, 2.0, 3.0), q);
        convert_deltas(&mut y, mmd_to_model(UpAxis::Y));
        assert!(first(&y).translation[0].value.abs_diff_eq(Vec3::new(1.0, 2.0, -3.0), 1e-6));
        assert!(first(&y).rotation[0].value.abs_diff_eq(Quat::from_xyzw(0.0, -s, 0.0, s), 1e-6));

        let mut z = clip(Vec3::new(1.0, 2.0, 3.0), q);
        convert_deltas(&mut z, mmd_to_model(UpAxis::Z));
        let t = first(&z);
        assert!(t.translation[0].value.abs_diff_eq(Vec3::new(1.0, 3.0, 2.0), 1e-5), "{}", t.translation[0].value);
        assert!(t.rotation[0].value.abs_diff_eq(Quat::from_xyzw(0.0, 0.0, -s, s), 1e-5), "{}", t.rotation[0].value);
        let e = &t.ease.as_ref().unwrap().translation[0];
        assert_eq!(e[1], Easing::new(0.5, 0.0, 0.5, 1.0));
        assert_eq!(e[2], Easing::LINEAR);
        // The converted rotation is m·R·m⁻¹: it turns m·v as R turned v.
        let m = mmd_to_model(UpAxis::Z);
        let v = Vec3::new(0.3, -0.2, 0.9);
        assert!((t.rotation[0].value * (m * v)).abs_diff_eq(m * (q * v), 1e-5));

        // And back.
        convert_deltas(&mut z, m.inverse());
        assert!(first(&z).translation[0].value.abs_diff_eq(Vec3::new(1.0, 2.0, 3.0), 1e-5));
        assert!(first(&z).rotation[0].value.abs_diff_eq(q, 1e-5));
        assert_eq!(first(&z).ease, first(&clip(Vec3::ZERO, q)).ease);
    }
}

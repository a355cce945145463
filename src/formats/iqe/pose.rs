//! The three IQE pose forms (`pq`, `pm`, `pa`) as joint-local transforms.
//!
//! Every form ends with `w ≤ 0`, the sign the Inter-Quake writers use, so a pose read here compares equal to
//! the same pose after an IQM round trip. The sign only matters for interpolation; sampling takes the short
//! path anyway.

use glam::{EulerRot, Mat3, Quat, Vec3};

use crate::scene::Transform;

/// A value from the parsed numbers, or `default` when the line stopped early.
fn at(v: &[f32], i: usize, default: f32) -> f32 {
    v.get(i).copied().unwrap_or(default)
}

fn vec3(v: &[f32], i: usize, default: f32) -> Vec3 {
    Vec3::new(at(v, i, default), at(v, i + 1, default), at(v, i + 2, default))
}

/// Normalised with `w ≤ 0`; `None` when the quaternion has no usable length.
fn canonical(q: Quat) -> Option<Quat> {
    let len = q.length();
    if !(len.is_finite() && len > 1e-6) {
        return None;
    }
    // Already unit (as every writer leaves it): keep the bits, so IQM → IQE → scene is exact.
    let q = if (len - 1.0).abs() <= 1e-6 { q } else { q / len };
    Some(if q.w > 0.0 { -q } else { q })
}

/// The outcome of reading a pose: the transform, and false when its rotation had to be replaced by identity.
pub type Posed = (Transform, bool);

fn finish(translation: Vec3, rotation: Option<Quat>, scale: Vec3) -> Posed {
    let ok = rotation.is_some();
    (Transform { translation, rotation: rotation.unwrap_or(-Quat::IDENTITY), scale }, ok)
}

/// `pq Tx Ty Tz Qx Qy Qz [Qw] [Sx Sy Sz]`. Without `Qw` the rotation is a unit quaternion with `w` rebuilt
/// as `-√(1-x²-y²-z²)`; with it, the four values are normalised (exporters print 9 digits, so stored
/// quaternions are a little off unit length).
pub fn pq(v: &[f32]) -> Posed {
    let xyz = vec3(v, 3, 0.0);
    let q = if v.len() >= 7 {
        Quat::from_xyzw(xyz.x, xyz.y, xyz.z, v[6])
    } else {
        Quat::from_xyzw(xyz.x, xyz.y, xyz.z, -(1.0 - xyz.length_squared()).max(0.0).sqrt())
    };
    finish(vec3(v, 0, 0.0), canonical(q), vec3(v, 7, 1.0))
}

/// `pm Tx Ty Tz Ax Ay Az Bx By Bz Cx Cy Cz [Sx Sy Sz]`: the rows of `R·S` (column vectors). The scale is each
/// column's length, all negated when the matrix mirrors (det < 0) so the remaining rotation is proper; it
/// multiplies the optional explicit scale.
pub fn pm(v: &[f32]) -> Posed {
    let (a, b, c) = (vec3(v, 3, 0.0), vec3(v, 6, 0.0), vec3(v, 9, 0.0));
    let m = Mat3::from_cols(Vec3::new(a.x, b.x, c.x), Vec3::new(a.y, b.y, c.y), Vec3::new(a.z, b.z, c.z));
    let mut scale = Vec3::new(m.x_axis.length(), m.y_axis.length(), m.z_axis.length());
    if m.determinant() < 0.0 {
        scale = -scale;
    }
    let div = |col: Vec3, s: f32| if s != 0.0 { col / s } else { col };
    let r = Mat3::from_cols(div(m.x_axis, scale.x), div(m.y_axis, scale.y), div(m.z_axis, scale.z));
    let rotation = if r.is_finite() && scale.cmpne(Vec3::ZERO).all() { canonical(Quat::from_mat3(&r)) } else { None };
    finish(vec3(v, 0, 0.0), rotation, scale * vec3(v, 12, 1.0))
}

/// `pa Tx Ty Tz Rx Ry Rz [Sx Sy Sz]`: Euler angles in radians, X applied first, i.e. `q = qz·qy·qx`.
pub fn pa(v: &[f32]) -> Posed {
    let r = vec3(v, 3, 0.0);
    let q = Quat::from_euler(EulerRot::ZYX, r.z, r.y, r.x);
    finish(vec3(v, 0, 0.0), canonical(q), vec3(v, 6, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Quat, b: Quat) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn pq_rebuilds_negative_w() {
        let (t, ok) = pq(&[1.0, 2.0, 3.0, 0.0, 0.0, 0.6]);
        assert!(ok);
        assert_eq!(t.translation, Vec3::new(1.0, 2.0, 3.0));
        assert!(close(t.rotation, Quat::from_xyzw(0.0, 0.0, 0.6, -0.8)), "{:?}", t.rotation);
        assert_eq!(t.scale, Vec3::ONE);
    }

    #[test]
    fn pq_with_w_is_normalised_and_flipped() {
        let (t, _) = pq(&[0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 4.0]);
        assert!(close(t.rotation, Quat::from_xyzw(0.0, 0.0, -0.6, -0.8)), "{:?}", t.rotation);
        let (t, _) = pq(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.1, 0.2, 0.3]);
        assert!(close(t.rotation, -Quat::IDENTITY));
        assert_eq!(t.scale, Vec3::new(0.1, 0.2, 0.3));
        // Partial scale: missing components default to 1.
        let (t, _) = pq(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 2.0]);
        assert_eq!(t.scale, Vec3::new(2.0, 1.0, 1.0));
    }

    #[test]
    fn pq_zero_quaternion_is_flagged() {
        let (t, ok) = pq(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert!(!ok);
        assert!(close(t.rotation, -Quat::IDENTITY));
        // Empty pose: identity at the origin.
        let (t, ok) = pq(&[]);
        assert!(ok && close(t.rotation, -Quat::IDENTITY) && t.translation == Vec3::ZERO);
    }

    #[test]
    fn pm_extracts_scale_and_rotation() {
        // R = 90° about Z, S = diag(2, 3, 4): rows of R·S.
        let (t, ok) = pm(&[5.0, 6.0, 7.0, 0.0, -3.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 4.0]);
        assert!(ok);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!(close(t.rotation, Quat::from_xyzw(0.0, 0.0, -h, -h)), "{:?}", t.rotation);
        assert!(t.scale.abs_diff_eq(Vec3::new(2.0, 3.0, 4.0), 1e-6));
        assert_eq!(t.translation, Vec3::new(5.0, 6.0, 7.0));
        // Explicit scale multiplies the extracted one.
        let (t, _) = pm(&[0.0, 0.0, 0.0, 0.0, -3.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 4.0, 10.0, 1.0, 0.5]);
        assert!(t.scale.abs_diff_eq(Vec3::new(20.0, 3.0, 2.0), 1e-6));
    }

    #[test]
    fn pm_mirror_negates_scale() {
        // diag(-1, 1, 1): det < 0, scale (-1,-1,-1), rotation 180° about X.
        let (t, ok) = pm(&[0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        assert!(ok);
        assert_eq!(t.scale, Vec3::splat(-1.0));
        assert!(t.rotation.w <= 0.0);
        assert!(t.rotation.x.abs() > 0.99999, "{:?}", t.rotation);
        let m = Mat3::from_quat(t.rotation) * Mat3::from_diagonal(t.scale);
        assert!(m.abs_diff_eq(Mat3::from_diagonal(Vec3::new(-1.0, 1.0, 1.0)), 1e-6));
    }

    #[test]
    fn pm_zero_matrix_is_flagged() {
        assert!(!pm(&[0.0; 12]).1);
    }

    #[test]
    fn pa_is_x_then_y_then_z() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let (t, _) = pa(&[0.0, 0.0, 0.0, std::f32::consts::FRAC_PI_2, 0.0, 0.0]);
        assert!(close(t.rotation, Quat::from_xyzw(-h, 0.0, 0.0, -h)), "{:?}", t.rotation);
        // The converter's closed form for q = qz·qy·qx.
        let (rx, ry, rz) = (0.3f32, -0.7f32, 1.1f32);
        let (cx, sx, cy, sy, cz, sz) = (
            (rx / 2.0).cos(),
            (rx / 2.0).sin(),
            (ry / 2.0).cos(),
            (ry / 2.0).sin(),
            (rz / 2.0).cos(),
            (rz / 2.0).sin(),
        );
        let mut q = Quat::from_xyzw(
            sx * cy * cz - cx * sy * sz,
            cx * sy * cz + sx * cy * sz,
            cx * cy * sz - sx * sy * cz,
            cx * cy * cz + sx * sy * sz,
        );
        if q.w > 0.0 {
            q = -q;
        }
        let (t, _) = pa(&[1.0, 2.0, 3.0, rx, ry, rz, 2.0, 2.0, 2.0]);
        assert!(close(t.rotation, q), "{:?} vs {q:?}", t.rotation);
        assert_eq!(t.scale, Vec3::splat(2.0));
        // X is applied first: the X axis rotated by X alone stays put, then Y and Z move it.
        let p = t.rotation * Vec3::X;
        let expect = Quat::from_rotation_z(rz) * (Quat::from_rotation_y(ry) * (Quat::from_rotation_x(rx) * Vec3::X));
        assert!(p.abs_diff_eq(expect, 1e-5));
    }
}

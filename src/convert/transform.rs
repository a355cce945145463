//! `--scale` and `--rotate`: moving a whole model, skeleton and animation included, about its origin.
//!
//! The transform G = R·s (uniform scale s, rotation R) is folded into the data rather than added as a new
//! root, so engines that ignore joint scale (DarkPlaces) still see the right result: every joint translation
//! (bind pose and every frame) is scaled by s, and root joints are also rotated by R. For a joint chain this
//! gives `G·W = W'·s`, where W' is the new chain, so the skinning matrices become `G·K·G⁻¹` and a vertex moved
//! by G (`p' = G·p`) lands where G would have put the original skinned vertex.

use glam::{EulerRot, Mat3, Quat, Vec3};

use crate::scene::{ClipData, FrontFace, Joint, MorphKind, Scene, Skeleton, Track, TrackMode, Transform, UpAxis};

/// The rotation `--rotate X,Y,Z` (degrees) asks for: X first, then Y, then Z (`q = qz·qy·qx`), as the
/// reference converter and IQE `pa` do.
pub fn rotation_from_degrees(degrees: Vec3) -> Quat {
    let r = degrees * (std::f32::consts::PI / 180.0);
    Quat::from_euler(EulerRot::ZYX, r.z, r.y, r.x)
}

/// Applies `p' = rotation · (scale · p)` to the whole scene. `scale` must be positive and finite.
pub fn transform_scene(scene: &mut Scene, scale: f32, rotation: Quat) {
    if scale == 1.0 && rotation == Quat::IDENTITY {
        return;
    }
    let v = &mut scene.vertices;
    for p in &mut v.positions {
        *p = rotation * (*p * scale);
    }
    for n in v.normals.iter_mut().flatten() {
        *n = rotation * *n;
    }
    for t in v.tangents.iter_mut().flatten() {
        *t = (rotation * t.truncate()).extend(t.w);
    }

    let roots: Vec<bool> = scene.skeleton.joints.iter().map(|j| j.parent.is_none()).collect();
    let move_local = |t: &mut Transform, root: bool| {
        t.translation *= scale;
        if root {
            t.translation = rotation * t.translation;
            t.rotation = (rotation * t.rotation).normalize();
        }
    };
    let joints: Vec<Joint> = scene
        .skeleton
        .joints
        .iter()
        .zip(&roots)
        .map(|(j, &root)| {
            let mut j = j.clone();
            move_local(&mut j.bind, root);
            j
        })
        .collect();
    let has_bind_pose = scene.skeleton.has_bind_pose;
    // Parents still precede children: only transforms changed.
    scene.skeleton = Skeleton::new(joints, has_bind_pose).unwrap_or_default();

    for clip in &mut scene.clips {
        // Stored boxes are axis-aligned in the old frame; the converter recomputes them from skinning.
        clip.bounds = None;
        match &mut clip.data {
            ClipData::Sampled { joints, frames } => {
                let n = (*joints).max(1);
                for (i, t) in frames.iter_mut().enumerate() {
                    move_local(t, roots.get(i % n).copied().unwrap_or(false));
                }
            }
            ClipData::Keyed { tracks } => {
                for track in tracks {
                    let root = roots.get(track.joint).copied().unwrap_or(false);
                    move_track(track, scale, rotation, root);
                }
            }
        }
    }
}

/// A keyed track: translation keys scale (and rotate at a root); a root's rotation keys turn with it, except
/// deltas on the bind pose, whose rotation multiplies after the (already turned) bind rotation.
fn move_track(track: &mut Track, scale: f32, rotation: Quat, root: bool) {
    for k in &mut track.translation {
        k.value *= scale;
        if root {
            k.value = rotation * k.value;
        }
    }
    if root && track.mode == TrackMode::Replace {
        for k in &mut track.rotation {
            k.value = (rotation * k.value).normalize();
        }
    }
}

/// Stands `scene` upright in the Inter-Quake axes (Z up, front toward −Y, right-handed): [`to_up`] with
/// [`UpAxis::Z`].
pub fn to_z_up(scene: &mut Scene) -> bool {
    to_up(scene, UpAxis::Z)
}

/// Carries `scene` into the axes of `target` from its own `up`: the change of basis `M` that keeps what the
/// viewer shows (`target.basis() · M = up.basis()`) carries positions, normals, tangents, every joint's bind
/// pose, every clip's keys and the morphs' offsets across. A left-handed source (MMD, RSM2) makes `M` a mirror,
/// so the front-face winding is reversed with it and the model is not shown mirrored. Returns whether anything
/// changed (`false` when the scene is already in `target`'s axes). The Inter-Quake encoders want
/// [`UpAxis::Z`], glTF wants [`UpAxis::Y`].
pub fn to_up(scene: &mut Scene, target: UpAxis) -> bool {
    if scene.up == target {
        return false;
    }
    let m = Mat3::from_mat4(target.basis()).transpose() * Mat3::from_mat4(scene.up.basis());
    let det = m.determinant().signum();
    let abs = m.abs();
    // A rotation R becomes M·R·Mᵀ: the quaternion's axis turns with M (and reverses under a mirror), its angle
    // stays. Computed on the components so consecutive keys keep their signs (no flips between slerped keys).
    let rotate = |q: Quat| {
        let v = m * Vec3::new(q.x, q.y, q.z) * det;
        Quat::from_xyzw(v.x, v.y, v.z, q.w)
    };
    let move_transform = |t: &mut Transform| {
        t.translation = m * t.translation;
        t.rotation = rotate(t.rotation);
        t.scale = abs * t.scale;
    };
    let v = &mut scene.vertices;
    v.positions.iter_mut().for_each(|p| *p = m * *p);
    v.normals.iter_mut().flatten().for_each(|n| *n = m * *n);
    v.tangents.iter_mut().flatten().for_each(|t| *t = (m * t.truncate()).extend(t.w * det));

    let mut joints = scene.skeleton.joints.clone();
    joints.iter_mut().for_each(|j| move_transform(&mut j.bind));
    scene.skeleton = Skeleton::new(joints, scene.skeleton.has_bind_pose).unwrap_or_default();
    for clip in &mut scene.clips {
        clip.bounds = None;
        match &mut clip.data {
            ClipData::Sampled { frames, .. } => frames.iter_mut().for_each(move_transform),
            ClipData::Keyed { tracks } => {
                for track in tracks {
                    track.translation.iter_mut().for_each(|k| k.value = m * k.value);
                    track.rotation.iter_mut().for_each(|k| k.value = rotate(k.value));
                    track.scale.iter_mut().for_each(|k| k.value = abs * k.value);
                }
            }
        }
    }
    for morph in &mut scene.morphs {
        match &mut morph.kind {
            MorphKind::Vertex(offsets) => offsets.iter_mut().for_each(|o| o.delta = m * o.delta),
            MorphKind::Bone(offsets) => offsets.iter_mut().for_each(|o| {
                o.translation = m * o.translation;
                o.rotation = rotate(o.rotation);
            }),
            _ => {}
        }
    }
    if det < 0.0 {
        scene.front_face = match scene.front_face {
            FrontFace::Ccw => FrontFace::Cw,
            FrontFace::Cw => FrontFace::Ccw,
        };
    }
    scene.up = target;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Pose, skin_positions};
    use crate::synth::SynthSpec;

    #[test]
    fn degrees_apply_x_then_y_then_z() {
        let q = rotation_from_degrees(Vec3::new(90.0, 0.0, 90.0));
        // X turns +Y to +Z; Z then leaves +Z alone.
        assert!((q * Vec3::Y).abs_diff_eq(Vec3::Z, 1e-6));
        // X leaves +X alone; Z turns it to +Y.
        assert!((q * Vec3::X).abs_diff_eq(Vec3::Y, 1e-6));
    }

    #[test]
    fn transformed_model_skins_to_the_transformed_pose() {
        let bytes = crate::synth::iqm_bytes(SynthSpec { joints: 6, vertices: 300, frames: 5 });
        let scene = crate::formats::load_bytes("s.iqm", &bytes).unwrap();
        let (s, r) = (2.5, rotation_from_degrees(Vec3::new(30.0, -45.0, 120.0)));
        let mut moved = scene.clone();
        transform_scene(&mut moved, s, r);
        for frame in [0.0, 1.0, 3.5] {
            let a = Pose::sample(&scene.skeleton, &scene.clips[0], frame, 24.0);
            let b = Pose::sample(&moved.skeleton, &moved.clips[0], frame, 24.0);
            let pa = skin_positions(&scene.vertices, &a.palette);
            let pb = skin_positions(&moved.vertices, &b.palette);
            for (x, y) in pa.iter().zip(&pb) {
                let want = r * (*x * s);
                assert!(want.abs_diff_eq(*y, 1e-3 * (1.0 + want.length())), "frame {frame}: {want} vs {y}");
            }
        }
    }
}

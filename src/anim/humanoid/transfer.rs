//! A humanoid clip carried from one rig to another in world space, frame by frame.
//!
//! Both rigs are read in the viewer's space (each scene's `up` basis: Y up, front toward +Z, right-handed), so a
//! left-handed MMD model, a VRM 0.x avatar facing −Z and a VRM 1.0 one meet facing the same way. At each frame
//! of the source clip (posed with its constraints: IK, appends):
//!
//! - Each humanoid bone of the source turns in world space from its rest by `S = Wₜ · W₀⁻¹`.
//! - The target's bone of the same name takes the world rotation `S · C · V₀` (`V₀` its own rest world
//!   rotation), then its local rotation from the parent the target has posed so far. `C` is the rest correction:
//!   the turn that brings the target's rest bone direction (towards its humanoid child) onto the source's, on
//!   top of its parent's correction (`C = arc(C_parent · d_target, d_source) · C_parent`). An arm the target
//!   holds level (a VRM T-pose) and the source holds sloping (MMD's A-pose) is corrected by the slope between
//!   them, and everything it carries with it, without a hard-coded angle. A bone without a child to aim at (the
//!   head, the last finger joints, the toes) keeps its parent's correction; the hips keep none.
//! - The hips are placed so that the point between the target's upper legs moves as the source's does, scaled
//!   by the ratio of the two points' rest heights (each rig's "hip height").
//! - Joints that aren't humanoid bones (hair, skirts, twist bones) keep their rest pose relative to their
//!   parents, so they follow, unless a clip on the target's own skeleton (the motion by joint name) keys them.
//!
//! The result is a sampled clip with one frame per source frame, which switches the target's own IK chains off
//! (an MMD target's IK would pull the baked legs back to its IK bones).

use glam::{Mat3, Mat4, Quat, Vec3};

use crate::anim::{Pose, PoseInput};
use crate::scene::{Clip, ClipData, Scene, VRM_BONE_PARENTS, humanoid_parent};

/// A scene read as a humanoid: its humanoid bones as `(VRM 1.0 name, joint)`.
pub struct Rig<'a> {
    pub scene: &'a Scene,
    pub bones: Vec<(&'static str, usize)>,
}

impl Rig<'_> {
    /// The joint of humanoid bone `name`.
    pub fn bone(&self, name: &str) -> Option<usize> {
        self.bones.iter().find(|(b, _)| *b == name).map(|&(_, j)| j)
    }

    /// The viewer's basis of this rig's scene (rotation or mirror).
    fn basis(&self) -> Mat3 {
        Mat3::from_mat4(self.scene.up.basis())
    }

    /// The point between the upper legs at rest, in the viewer's space: where the hips' motion is measured.
    fn legs_midpoint(&self, world: &[Mat4]) -> Option<Vec3> {
        let (l, r) = (self.bone("leftUpperLeg")?, self.bone("rightUpperLeg")?);
        Some(self.basis() * (world[l].w_axis.truncate() + world[r].w_axis.truncate()) * 0.5)
    }
}

/// The humanoid bones whose position gives `bone` its direction, by preference.
fn aim_of(bone: &str) -> &'static [&'static str] {
    let side = |name: &str| if name.starts_with("left") { 0 } else { 1 };
    let pick = |bone: &str, left: &'static [&'static str], right: &'static [&'static str]| {
        if side(bone) == 0 { left } else { right }
    };
    match bone {
        "spine" => &["chest", "upperChest", "neck"],
        "chest" => &["upperChest", "neck"],
        "upperChest" => &["neck"],
        "neck" => &["head"],
        "leftShoulder" | "rightShoulder" => pick(bone, &["leftUpperArm"], &["rightUpperArm"]),
        "leftUpperArm" | "rightUpperArm" => pick(bone, &["leftLowerArm"], &["rightLowerArm"]),
        "leftLowerArm" | "rightLowerArm" => pick(bone, &["leftHand"], &["rightHand"]),
        "leftHand" | "rightHand" => pick(bone, &["leftMiddleProximal"], &["rightMiddleProximal"]),
        "leftUpperLeg" | "rightUpperLeg" => pick(bone, &["leftLowerLeg"], &["rightLowerLeg"]),
        "leftLowerLeg" | "rightLowerLeg" => pick(bone, &["leftFoot"], &["rightFoot"]),
        "leftFoot" | "rightFoot" => pick(bone, &["leftToes"], &["rightToes"]),
        _ => finger_aim(bone),
    }
}

/// A finger bone's next joint (proximal → intermediate → distal; the thumb's metacarpal → proximal → distal).
fn finger_aim(bone: &str) -> &'static [&'static str] {
    VRM_BONE_PARENTS
        .iter()
        .find(|(_, parent)| *parent == Some(bone))
        .filter(|_| ["Thumb", "Index", "Middle", "Ring", "Little"].iter().any(|f| bone.contains(f)))
        .map_or(&[], |(child, _)| std::slice::from_ref(child))
}

/// One humanoid bone carried over, in the viewer's space.
struct Pair {
    src: usize,
    dst: usize,
    /// The source bone's rest world rotation, inverted.
    src_rest_inverse: Quat,
    /// `C · V₀`: the correction and the target bone's rest world rotation.
    corrected_rest: Quat,
}

/// A rotation matrix `r` in a scene's space seen in the viewer's (`b · r · bᵀ`; `b` may be a mirror).
pub(crate) fn seen(b: Mat3, r: Quat) -> Quat {
    Quat::from_mat3(&(b * Mat3::from_quat(r) * b.transpose())).normalize()
}

/// The world rotation of a model-space matrix.
pub(crate) fn rotation(m: &Mat4) -> Quat {
    m.to_scale_rotation_translation().1.normalize()
}

/// The bones both rigs have, with their rest corrections, parents before children.
fn pairs(source: &Rig, target: &Rig, src_rest: &[Mat4], dst_rest: &[Mat4]) -> Vec<Pair> {
    let (bs, bt) = (source.basis(), target.basis());
    let mut corrections: Vec<(&str, Quat)> = Vec::new();
    let mut out = Vec::new();
    for (name, _) in VRM_BONE_PARENTS {
        let (Some(src), Some(dst)) = (source.bone(name), target.bone(name)) else { continue };
        // The correction of the nearest humanoid ancestor both rigs have (each came before its children).
        let correction_of = |p: &str| corrections.iter().find(|(n, _)| *n == p).map(|&(_, c)| c);
        let inherited =
            humanoid_parent(name, |p| correction_of(p).is_some()).and_then(correction_of).unwrap_or(Quat::IDENTITY);
        let aim = aim_of(name).iter().find_map(|c| Some((source.bone(c)?, target.bone(c)?)));
        let correction = match aim {
            Some((cs, ct)) if name != "hips" => {
                let at = |w: &[Mat4], j: usize| w[j].w_axis.truncate();
                let ds = (bs * (at(src_rest, cs) - at(src_rest, src))).normalize_or_zero();
                let dt = inherited * (bt * (at(dst_rest, ct) - at(dst_rest, dst))).normalize_or_zero();
                if ds == Vec3::ZERO || dt == Vec3::ZERO {
                    inherited
                } else {
                    Quat::from_rotation_arc(dt.normalize(), ds) * inherited
                }
            }
            _ => inherited,
        };
        corrections.push((name, correction));
        out.push(Pair {
            src,
            dst,
            src_rest_inverse: seen(bs, rotation(&src_rest[src])).inverse(),
            corrected_rest: correction * seen(bt, rotation(&dst_rest[dst])),
        });
    }
    out
}

/// `clip` of `source` (its clip, attached with its constraints) baked onto `target` as a sampled clip named and
/// timed as `clip`: one frame per source frame, every target joint's local transform.
///
/// `named`, when given, is a clip on the target's own skeleton (the motion attached by joint name): the joints
/// it keys that aren't humanoid bones (an MMD-named model's hair, twist and centre bones) take its keys, within
/// the same pass, so the humanoid bones below them still land where the source's do.
pub fn transfer_clip(source: &Rig, clip: &Clip, target: &Rig, named: Option<&Clip>) -> Clip {
    let (src_scene, dst_scene) = (source.scene, target.scene);
    let (src_rest, dst_rest) = (&src_scene.skeleton.bind_world, &dst_scene.skeleton.bind_world);
    let pairs = pairs(source, target, src_rest, dst_rest);
    let (bs, bt) = (source.basis(), target.basis());
    let hips = target.bone("hips").filter(|_| source.bone("hips").is_some());
    let anchors = source.legs_midpoint(src_rest).zip(target.legs_midpoint(dst_rest));
    // Each rig's hip height: its legs' top above its floor (y = 0 in both).
    let ratio = anchors.map_or(1.0, |(s, t)| if s.y.abs() > 1e-6 { t.y / s.y } else { 1.0 });
    let hips_rest = hips.map(|h| bt * dst_rest[h].w_axis.truncate());
    // Bones the humanoid hangs from the hips that the skeleton hangs elsewhere (an MMD model's 上半身 hangs from
    // グルーブ beside 下半身): placed by the hips' frame, as the humanoid has them.
    let hips_hung: Vec<usize> = hips.map_or_else(Vec::new, |h| {
        let below_hips = |mut j: usize| loop {
            match dst_scene.skeleton.joints[j].parent {
                Some(p) if p == h => break true,
                Some(p) => j = p,
                None => break false,
            }
        };
        VRM_BONE_PARENTS
            .iter()
            .filter(|(_, parent)| *parent == Some("hips"))
            .filter_map(|(name, _)| target.bone(name).filter(|_| source.bone(name).is_some()))
            .filter(|&j| !below_hips(j))
            .collect()
    });

    let fps = clip.fps(crate::scene::DEFAULT_FPS);
    let frames = clip.frame_count.max(1);
    let binds = dst_scene.skeleton.bind_locals();
    let joints = binds.len();
    let mut out = Vec::with_capacity(frames as usize * joints);
    let mut pose = Pose::default();
    let mut targets = vec![None; joints];
    let mut world = vec![Mat4::IDENTITY; joints];
    let keyed: Vec<bool> = match named.map(|c| &c.data) {
        Some(ClipData::Keyed { tracks }) => {
            (0..joints).map(|j| tracks.iter().any(|t| t.joint == j) && !pairs.iter().any(|p| p.dst == j)).collect()
        }
        _ => vec![false; joints],
    };
    let any_keyed = keyed.contains(&true);
    let mut named_locals = binds.clone();
    for f in 0..frames {
        pose.update_input(src_scene, &PoseInput::at(Some(clip), f as f32, fps));
        targets.fill(None);
        for p in &pairs {
            let turn = seen(bs, rotation(&pose.world[p.src])) * p.src_rest_inverse;
            // Back from the viewer's space into the target's.
            targets[p.dst] = Some(seen(bt.transpose(), turn * p.corrected_rest));
        }
        // The hips: the target's legs midpoint follows the source's, scaled.
        let hips_at = hips.zip(anchors).zip(hips_rest).and_then(|((h, (a_src, a_dst)), h_rest)| {
            let now = source.legs_midpoint(&pose.world)?;
            let turn = seen(bt, targets[h]?) * seen(bt, rotation(&dst_rest[h])).inverse();
            let place = a_dst + (now - a_src) * ratio - turn * (a_dst - h_rest);
            Some(bt.transpose() * place)
        });
        // The hips' world matrix, for the bones that hang from the hips in the humanoid but not in the skeleton.
        let hips_world = hips.zip(hips_at).and_then(|(h, at)| {
            let (scale, _, _) = dst_rest[h].to_scale_rotation_translation();
            Some(Mat4::from_scale_rotation_translation(scale, targets[h]?, at) * dst_rest[h].inverse())
        });
        if let Some(named) = named.filter(|_| any_keyed) {
            crate::anim::sample_clip(&dst_scene.skeleton, named, f as f32, fps, &mut named_locals);
        }
        for (j, joint) in dst_scene.skeleton.joints.iter().enumerate() {
            let parent = joint.parent.map_or(Mat4::IDENTITY, |p| world[p]);
            let mut local = if keyed[j] { named_locals[j] } else { binds[j] };
            if let Some(q) = targets[j] {
                local.rotation = (rotation(&parent).inverse() * q).normalize();
            }
            let placed = if Some(j) == hips {
                hips_at
            } else if hips_hung.contains(&j) {
                hips_world.map(|m| m.transform_point3(dst_rest[j].w_axis.truncate()))
            } else {
                None
            };
            if let Some(at) = placed {
                local.translation = parent.inverse().transform_point3(at);
            }
            world[j] = parent * local.to_mat4();
            out.push(local);
        }
    }
    let mut baked = Clip::new(clip.name.clone(), fps, clip.looping, frames, ClipData::Sampled { joints, frames: out });
    baked.source = clip.source.clone();
    // The target's own IK (an MMD model's legs) would pull the baked limbs back to its IK bones at rest: off.
    baked.ik_switches = dst_scene
        .constraints
        .ik
        .iter()
        .map(|c| crate::scene::IkSwitchTrack {
            name: dst_scene.skeleton.joints[c.joint].name.clone(),
            keys: vec![crate::scene::Key { time: 0.0, value: false }],
        })
        .collect();
    baked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::humanoid::proxy::tests::t_pose;
    use crate::scene::{Key, Track, TrackMode};

    /// A clip that lifts the left arm and moves the hips up and forward.
    fn wave(scene: &Scene, bones: &[(&str, usize)]) -> Clip {
        let joint = |name: &str| bones.iter().find(|(b, _)| *b == name).unwrap().1;
        let turn = Quat::from_rotation_z(1.0);
        let hips = scene.skeleton.joints[joint("hips")].bind.translation;
        let track = |j: usize, rotation: Vec<Key<Quat>>, translation: Vec<Key<Vec3>>| Track {
            joint: j,
            translation,
            rotation,
            scale: Vec::new(),
            interpolation: crate::scene::Interpolation::Linear,
            mode: TrackMode::Replace,
            ease: None,
        };
        let tracks = vec![
            track(
                joint("leftUpperArm"),
                vec![Key { time: 0.0, value: Quat::IDENTITY }, Key { time: 1.0, value: turn }],
                vec![],
            ),
            track(
                joint("hips"),
                vec![],
                vec![Key { time: 0.0, value: hips }, Key { time: 1.0, value: hips + Vec3::new(0.0, 0.1, 0.2) }],
            ),
        ];
        Clip::new("wave", 30.0, false, 31, ClipData::Keyed { tracks })
    }

    /// The world places of a pose of `scene` under `clip` at `frame`.
    fn places(scene: &Scene, clip: &Clip, frame: f32) -> Vec<Vec3> {
        let mut pose = Pose::default();
        pose.update_input(scene, &PoseInput::at(Some(clip), frame, 30.0));
        pose.world.iter().map(|m| m.w_axis.truncate()).collect()
    }

    #[test]
    fn a_clip_carried_onto_its_own_rig_poses_it_as_it_was() {
        let (scene, bones) = t_pose();
        let clip = wave(&scene, &bones);
        let rig = Rig { scene: &scene, bones: bones.clone() };
        let baked = transfer_clip(&rig, &clip, &rig, None);
        assert!(matches!(baked.data, ClipData::Sampled { .. }) && baked.frame_count == 31);
        for frame in [0.0, 10.0, 30.0] {
            for (a, b) in places(&scene, &clip, frame).iter().zip(places(&scene, &baked, frame)) {
                assert!(a.distance(b) < 1e-5, "frame {frame}: {a} against {b}");
            }
        }
    }

    #[test]
    fn a_clip_carried_onto_a_taller_mirrored_rig_scales_the_hips_and_turns_the_same_way() {
        let (scene, bones) = t_pose();
        let clip = wave(&scene, &bones);
        // The same humanoid twice as big, in a left-handed space (Z turned back, as MMD's).
        let mut big = scene.clone();
        big.up = crate::scene::UpAxis::YLeftHanded;
        for j in &mut big.skeleton.joints {
            j.bind.translation *= Vec3::new(2.0, 2.0, -2.0);
        }
        big.skeleton = crate::scene::Skeleton::new(big.skeleton.joints.clone(), true).unwrap();
        let baked = transfer_clip(
            &Rig { scene: &scene, bones: bones.clone() },
            &clip,
            &Rig { scene: &big, bones: bones.clone() },
            None,
        );
        let mirror = Vec3::new(2.0, 2.0, -2.0);
        for frame in [0.0, 15.0, 30.0] {
            for (a, b) in places(&scene, &clip, frame).iter().zip(places(&big, &baked, frame)) {
                assert!((*a * mirror).distance(b) < 1e-4, "frame {frame}: {} against {b}", *a * mirror);
            }
        }
    }
}

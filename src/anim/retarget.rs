//! VRMA motions (`VRMC_vrm_animation`) onto VRM avatars, carried over as three-vrm 3.5.5's
//! `createVRMAnimationClip` and its normalized humanoid rig carry them (the spec's `how_to_transform_human_pose.md`
//! describes the same transfer):
//!
//! - A source rotation key `q` of humanoid bone `b` becomes its normalized rotation `n = Wp · q · Wb⁻¹`: `Wb` the
//!   bone's rest world rotation in the motion, `Wp` its nearest humanoid ancestor's (for the hips, the rest world
//!   rotation of the hips node's parent).
//! - On a VRM 0.x avatar, which faces −Z, `n` is turned half a turn about Y (its x and z negated).
//! - The avatar's joint of the same bone takes `Pw⁻¹ · n · Pw · R`: `Pw` its parent's rest world rotation, `R` its
//!   own rest rotation.
//! - The hips' translation keys are placed by the hips' parent at rest, scaled by the avatar's rest hips height
//!   over the motion's (0.x: x and z negated), and brought into the avatar's hips parent at rest.
//! - An expression node's translation x is that expression's weight, 0 to 1.
//!
//! Each key is transformed alone: multiplying by a fixed rotation on either side commutes with slerp, so the clip
//! plays between keys as three-vrm plays it.
//!
//! The look-at node's rotation is read as three-vrm's `VRMLookAtQuaternionProxy` reads it (yaw and pitch of its
//! YXZ Euler angles) and applied as the avatar's look-at applies it, at every frame of the clip (its range maps
//! clamp, so keys can't be carried alone): the eye bones turned by the mapped angles (a VRM 0.x avatar's face
//! front is −Z), or the lookUp, lookDown, lookLeft and lookRight expressions weighted.

use glam::{Mat4, Quat, Vec3};

use super::attach::{AttachError, AttachReport};
use crate::scene::{Clip, ClipData, Key, MorphTrack, Scene, Track, TrackMode, VrmInfo, humanoid_parent};

/// One humanoid bone carried from the motion's joint `src` to the avatar's joint `dst`.
struct Bone {
    src: usize,
    dst: usize,
    /// `Wp` and `Wb⁻¹` (motion), `Pw⁻¹`, `Pw` and `R` (avatar).
    wp: Quat,
    wb_inverse: Quat,
    pw_inverse: Quat,
    pw: Quat,
    rest: Quat,
}

/// The hips' translation: the motion's hips joint and its parent at rest, the height ratio, the avatar's hips
/// parent at rest (inverted).
struct Hips {
    src: usize,
    from: Mat4,
    scale: f32,
    into: Mat4,
}

/// Adds `motion`'s clips (a VRMA: `motion.vrm_animation`) to `model`, a VRM avatar, bone by bone through the
/// humanoid.
pub fn attach_vrma(model: &mut Scene, motion: &Scene, source: &str) -> Result<AttachReport, AttachError> {
    let (Some(vrma), Some(avatar)) = (motion.vrm_animation.as_deref(), model.vrm.as_deref()) else {
        return Err(AttachError::NotHumanoid(source.to_string()));
    };
    if motion.clips.is_empty() {
        return Err(AttachError::NoClips(source.to_string()));
    }
    let (src_world, dst_world) = (&motion.skeleton.bind_world, &model.skeleton.bind_world);
    use super::humanoid::transfer::rotation;
    let src_parent = |j: usize| motion.skeleton.joints[j].parent.map_or(Mat4::IDENTITY, |p| src_world[p]);
    let dst_parent = |j: usize| model.skeleton.joints[j].parent.map_or(Mat4::IDENTITY, |p| dst_world[p]);
    let mut bones = Vec::new();
    let mut report = AttachReport { source: source.to_string(), through_humanoid: true, ..Default::default() };
    for (name, src) in vrma.humanoid.iter().filter(|(_, j)| *j < motion.skeleton.len()) {
        let Some(dst) = avatar.bone(name).filter(|&j| j < model.skeleton.len()) else {
            report.unused_tracks.push(name.clone());
            continue;
        };
        // The nearest humanoid ancestor the motion has, else (the hips) the node's own parent.
        let up = humanoid_parent(name, |p| vrma.bone(p).is_some());
        let wp = up.and_then(|p| vrma.bone(p)).map_or_else(|| rotation(&src_parent(*src)), |p| rotation(&src_world[p]));
        let pw = rotation(&dst_parent(dst));
        let rest = model.skeleton.joints[dst].bind.rotation;
        bones.push(Bone {
            src: *src,
            dst,
            wp,
            wb_inverse: rotation(&src_world[*src]).inverse(),
            pw_inverse: pw.inverse(),
            pw,
            rest,
        });
        report.matched.push((model.skeleton.display_name(dst), name.clone()));
    }
    report.unmatched_joints =
        avatar.humanoid.iter().filter(|b| vrma.bone(&b.name).is_none()).map(|b| b.name.clone()).collect();
    // The heights are the hips' at rest in each file's own space (three-vrm: the VRMA's rest hips and the
    // avatar's normalized rest hips).
    let hips = vrma.bone("hips").zip(avatar.bone("hips")).map(|(src, dst)| {
        let (from_y, to_y) = (src_world[src].w_axis.y, dst_world[dst].w_axis.y);
        let scale = if from_y.abs() > 1e-3 { to_y / from_y } else { 1.0 };
        Hips { src, from: src_parent(src), scale, into: dst_parent(dst).inverse() }
    });
    let turned = avatar.major == 0;
    let face = |q: Quat| if turned { Quat::from_xyzw(-q.x, q.y, -q.z, q.w) } else { q };
    let place = |v: Vec3| if turned { Vec3::new(-v.x, v.y, -v.z) } else { v };
    for clip in &motion.clips {
        let ClipData::Keyed { tracks } = &clip.data else { continue };
        let mut out: Vec<Track> = Vec::new();
        let mut morphs = Vec::new();
        for t in tracks {
            if let Some(b) = bones.iter().find(|b| b.src == t.joint) {
                let rotation = t
                    .rotation
                    .iter()
                    .map(|k| Key {
                        time: k.time,
                        value: (b.pw_inverse * face(b.wp * k.value * b.wb_inverse) * b.pw * b.rest).normalize(),
                    })
                    .collect();
                let translation = match hips.as_ref().filter(|h| h.src == t.joint) {
                    Some(h) => t
                        .translation
                        .iter()
                        .map(|k| Key {
                            time: k.time,
                            value: h.into.transform_point3(place(h.from.transform_point3(k.value) * h.scale)),
                        })
                        .collect(),
                    None => Vec::new(),
                };
                out.push(Track {
                    joint: b.dst,
                    translation,
                    rotation,
                    scale: Vec::new(),
                    interpolation: t.interpolation,
                    mode: TrackMode::Replace,
                    ease: None,
                });
            } else if let Some((name, _)) = vrma.expressions.iter().find(|(_, j)| *j == t.joint) {
                let keys =
                    t.translation.iter().map(|k| Key { time: k.time, value: k.value.x.clamp(0.0, 1.0) }).collect();
                morphs.push(MorphTrack { name: name.clone(), keys, ease: Vec::new() });
            }
        }
        if let Some(t) = vrma.look_at.and_then(|n| tracks.iter().find(|t| t.joint == n && !t.rotation.is_empty())) {
            look_at(model, avatar, t, clip, (&mut out, &mut morphs));
        }
        report.clips.push(clip.name.clone());
        let mut c = Clip::new(
            clip.name.clone(),
            clip.frame_rate,
            clip.looping,
            clip.frame_count,
            ClipData::Keyed { tracks: out },
        );
        c.first_frame = clip.first_frame;
        c.source = Some(source.to_string());
        c.morphs = morphs;
        model.clips.push(c);
    }
    Ok(report)
}

/// The look-at of `track` (the VRMA's look-at node) over `clip`'s frames, applied as `avatar`'s look-at applies it:
/// eye rotation tracks added to `tracks` (bone look-at) or look expression weights to `morphs` (expression
/// look-at).
fn look_at(
    model: &Scene,
    avatar: &VrmInfo,
    track: &Track,
    clip: &Clip,
    (tracks, morphs): (&mut Vec<Track>, &mut Vec<MorphTrack>),
) {
    let Some(look) = avatar.look_at.as_ref() else { return };
    let fps = clip.fps(crate::scene::DEFAULT_FPS);
    let frames: Vec<(f32, f32, f32)> = (0..clip.frame_count.max(1))
        .map(|f| {
            let time = f as f32 / fps;
            let q = crate::anim::sample_track(track, time, crate::scene::Transform::IDENTITY).rotation;
            let (yaw, pitch, _) = q.to_euler(glam::EulerRot::YXZ);
            (time, yaw.to_degrees(), pitch.to_degrees())
        })
        .collect();
    if look.kind == "expression" {
        let mut weights: [Vec<Key<f32>>; 4] = Default::default();
        for &(time, yaw, pitch) in &frames {
            let values = super::look::expression_weights(look, yaw, pitch);
            for (w, value) in weights.iter_mut().zip(values) {
                w.push(Key { time, value });
            }
        }
        for (name, keys) in super::look::LOOK_EXPRESSIONS.into_iter().zip(weights) {
            morphs.push(MorphTrack { name: name.to_string(), keys, ease: Vec::new() });
        }
        return;
    }
    for (eye, left) in [("leftEye", true), ("rightEye", false)] {
        let Some(j) = avatar.bone(eye).filter(|&j| j < model.skeleton.len()) else { continue };
        let rotation = frames
            .iter()
            .map(|&(time, yaw, pitch)| Key {
                time,
                value: super::look::eye_rotation(model, avatar, j, left, yaw, pitch),
            })
            .collect();
        tracks.retain(|t| t.joint != j);
        tracks.push(Track {
            joint: j,
            translation: Vec::new(),
            rotation,
            scale: Vec::new(),
            interpolation: crate::scene::Interpolation::Linear,
            mode: TrackMode::Replace,
            ease: None,
        });
    }
}

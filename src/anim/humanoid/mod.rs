//! MikuMikuDance motions on any humanoid (issue 38 step 4), and humanoid clips from one rig onto another.
//!
//! A VMD, MVD or VPD names MMD bones and needs MMD's IK legs to land its feet. On a model that isn't an MMD
//! model but has a humanoid (a VRM, or a glTF whose bones keep MMD names, as one written from a PMX does), the
//! motion is played on a proxy MMD skeleton placed on the humanoid's bones ([`proxy`]), with IK and appends, and
//! each frame is carried onto the model's humanoid bones in world space ([`transfer`]). Morph keys find the
//! model's morph of the same name, or else the VRM expression the MMD morph stands for ([`names`]).
//!
//! The motion is baked: the attached clip is sampled, one frame per motion frame, so playing it, exporting it or
//! checking it needs nothing of the proxy.

pub mod names;
pub mod proxy;
pub mod transfer;

use super::attach::{AttachError, AttachReport};
use crate::scene::{MorphTrack, REQUIRED_HUMAN_BONES, Scene, VRM_BONE_PARENTS};
pub use transfer::{Rig, transfer_clip};

/// A scene's humanoid bones as `(VRM 1.0 name, joint)`: its VRM humanoid, or else the bones that carry the MMD
/// names of [`names::MMD_BONES`].
pub fn humanoid_bones(scene: &Scene) -> Vec<(&'static str, usize)> {
    match scene.vrm.as_deref() {
        Some(vrm) => VRM_BONE_PARENTS
            .iter()
            .filter_map(|(name, _)| Some((*name, vrm.bone(name).filter(|&j| j < scene.skeleton.len())?)))
            .collect(),
        None => mmd_bones(scene),
    }
}

/// The bones of `scene` that carry MMD names, as humanoid bones.
pub fn mmd_bones(scene: &Scene) -> Vec<(&'static str, usize)> {
    names::MMD_BONES
        .iter()
        .filter_map(|(bone, candidates)| Some((*bone, candidates.iter().find_map(|n| scene.skeleton.find(n))?)))
        .collect()
}

/// True when `bones` has every bone VRM requires of a humanoid.
pub fn is_humanoid(bones: &[(&str, usize)]) -> bool {
    REQUIRED_HUMAN_BONES.iter().all(|r| bones.iter().any(|(b, _)| b == r))
}

/// True when `motion` is a MikuMikuDance motion or pose with bone keys and `model` plays it through its
/// humanoid: a model that isn't an MMD model (which plays it by name, with its own IK) but has a humanoid.
pub fn plays_through_humanoid(model: &Scene, motion: &Scene) -> bool {
    let mmd_motion = motion.vmd.is_some() || motion.mvd.is_some() || motion.vpd.is_some();
    mmd_motion && !motion.skeleton.is_empty() && model.mmd.is_none() && is_humanoid(&humanoid_bones(model))
}

/// Adds `motion`'s clips (a VMD, MVD or VPD) to `model`, a humanoid, through the proxy MMD skeleton.
pub fn attach_mmd_motion(model: &mut Scene, motion: &Scene, source: &str) -> Result<AttachReport, AttachError> {
    let bones = humanoid_bones(model);
    if !is_humanoid(&bones) {
        return Err(AttachError::NotHumanoid(source.to_string()));
    }
    let target = Rig { scene: model, bones };
    let mut proxy = proxy::build(&target, model.vrm.is_some());
    let played = super::attach::attach_by_name(&mut proxy, motion, source)?;
    // The same motion by joint name on the model's own skeleton, for the joints the proxy hasn't (hair, twist
    // and centre bones of a model that keeps MMD names); none on a model whose names the motion doesn't use.
    let mut by_name = Scene { skeleton: model.skeleton.clone(), ..Scene::empty(model.meta.clone()) };
    let named = super::attach::attach_by_name(&mut by_name, motion, source).ok();
    let proxy_rig = Rig { bones: mmd_bones(&proxy), scene: &proxy };
    let mut report = AttachReport {
        source: source.to_string(),
        unused_tracks: played.unused_tracks,
        through_humanoid: true,
        ..Default::default()
    };
    let clips = bake(&proxy_rig, &target, named.as_ref().map(|_| by_name.clips.as_slice()), &mut report);
    if let Some(named) = &named {
        // The joints the motion drives by name besides the humanoid's.
        let humanoid: Vec<String> = report.matched.iter().map(|(m, _)| m.clone()).collect();
        report.matched.extend(named.matched.iter().filter(|(m, _)| !humanoid.contains(m)).cloned());
    }
    model.clips.extend(clips);
    report.cameras = played.cameras;
    model.cameras.extend(proxy.cameras);
    report.lights = played.lights;
    model.lights.extend(proxy.lights);
    Ok(report)
}

/// A motion's morph tracks on `model` ([`morph_track`]), the first of several that play one morph kept (ウィンク
/// and ウィンク２ both play blinkLeft).
fn morph_tracks(model: &Scene, tracks: &[MorphTrack]) -> Vec<MorphTrack> {
    let mut out: Vec<MorphTrack> = Vec::with_capacity(tracks.len());
    for m in tracks.iter().filter_map(|t| morph_track(model, t)) {
        if !out.iter().any(|o| o.name == m.name) {
            out.push(m);
        }
    }
    out
}

/// A motion's morph track on `model`: by its own name when the model has that morph, else renamed to the VRM
/// expression the MMD morph stands for when the model has that; `None` otherwise.
fn morph_track(model: &Scene, track: &MorphTrack) -> Option<MorphTrack> {
    let has = |name: &str| model.morphs.iter().any(|m| m.name == name);
    if has(&track.name) {
        return Some(track.clone());
    }
    let expression = names::vrm_expression(&track.name).filter(|e| has(e))?;
    Some(MorphTrack { name: expression.to_string(), ..track.clone() })
}

/// True when `motion`'s clips go onto `model` through both humanoids rather than by joint name: both are
/// humanoids and fewer than half of the model's humanoid bones find a joint of their name in the motion (a VRM
/// or glTF clip onto an avatar whose bones are named otherwise).
pub fn retargets(model: &Scene, motion: &Scene) -> bool {
    let (bones, from) = (humanoid_bones(model), humanoid_bones(motion));
    let named = bones.iter().filter(|(_, j)| motion.skeleton.find(&model.skeleton.joints[*j].name).is_some()).count();
    !motion.clips.is_empty() && is_humanoid(&bones) && is_humanoid(&from) && named * 2 < bones.len()
}

/// Adds `motion`'s clips (any scene whose bones are a humanoid: a glTF, a VRM, an MMD model) to `model` through
/// both humanoids, baked frame by frame.
pub fn retarget(model: &mut Scene, motion: &Scene, source: &str) -> Result<AttachReport, AttachError> {
    let (bones, from) = (humanoid_bones(model), humanoid_bones(motion));
    if !is_humanoid(&bones) || !is_humanoid(&from) {
        return Err(AttachError::NotHumanoid(source.to_string()));
    }
    if motion.clips.is_empty() {
        return Err(AttachError::NoClips(source.to_string()));
    }
    let target = Rig { scene: model, bones };
    let motion_rig = Rig { scene: motion, bones: from };
    let mut report = AttachReport { source: source.to_string(), through_humanoid: true, ..Default::default() };
    let clips = bake(&motion_rig, &target, None, &mut report);
    model.clips.extend(clips);
    Ok(report)
}

/// Every clip of `motion`'s scene carried onto `target` ([`transfer_clip`], with `named[i]` the same clip by joint
/// name on the target's skeleton when given) with its morph tracks, named in `report` with the bones matched.
fn bake(
    motion: &Rig,
    target: &Rig,
    named: Option<&[crate::scene::Clip]>,
    report: &mut AttachReport,
) -> Vec<crate::scene::Clip> {
    match_bones(target, motion, report);
    let mut clips = Vec::with_capacity(motion.scene.clips.len());
    for (i, clip) in motion.scene.clips.iter().enumerate() {
        let mut baked = transfer_clip(motion, clip, target, named.and_then(|n| n.get(i)));
        baked.morphs = morph_tracks(target.scene, &clip.morphs);
        baked.source = Some(report.source.clone());
        report.clips.push(baked.name.clone());
        clips.push(baked);
    }
    clips
}

/// The report's matched and unmatched joints: the target's humanoid bones the motion has, and those it lacks.
fn match_bones(target: &Rig, motion: &Rig, report: &mut AttachReport) {
    for (bone, joint) in &target.bones {
        let name = target.scene.skeleton.display_name(*joint);
        match motion.bone(bone) {
            Some(m) => report.matched.push((name, motion.scene.skeleton.display_name(m))),
            None => report.unmatched_joints.push(name),
        }
    }
}

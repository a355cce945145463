//! Attaching an animation file (joints or poses, no meshes) to a loaded model.
//!
//! Tracks are matched to the model's joints by name. A file without names (IQM animation-only files) is
//! matched by index, but only when the two skeletons have the same joint count and the same parents, since
//! anything else would silently scramble the pose. The attached clips are remapped into the model's joint
//! order, with unmatched joints held at their bind pose, so the rest of the program sees ordinary clips.

use crate::scene::{Clip, ClipData, Scene, Transform};

/// How an attached file's tracks met the model's joints.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct AttachReport {
    pub source: String,
    /// True when joints were matched by index because the file has no joint names.
    pub by_index: bool,
    /// True when the motion went through the humanoid (a VRMA, an MMD motion on a humanoid, a humanoid clip from
    /// another rig): `matched` pairs humanoid bones, and the clips are the motion carried over.
    pub through_humanoid: bool,
    /// `(model joint, file joint)` pairs, by name.
    pub matched: Vec<(String, String)>,
    /// Model joints the file doesn't animate: they keep their bind pose.
    pub unmatched_joints: Vec<String>,
    /// File joints with no model joint of that name: their tracks are unused.
    pub unused_tracks: Vec<String>,
    /// Matched joints whose parent differs between the model and the file.
    pub reparented: Vec<String>,
    /// `(model joint or morph, file name)` pairs matched because the file's name fills its fixed-width field
    /// (VMD: 15 bytes) and only this model name starts with it.
    pub prefix_matched: Vec<(String, String)>,
    /// File names cut at their field's width that start several model names, with those names: left unmatched.
    pub ambiguous: Vec<(String, Vec<String>)>,
    /// Names of the clips added to the model.
    pub clips: Vec<String>,
    /// Names of the animated cameras added to the model (`Scene::cameras`).
    pub cameras: Vec<String>,
    /// Names of the light tracks added to the model (`Scene::lights`).
    pub lights: Vec<String>,
}

impl AttachReport {
    /// How the joints were matched, for the window: "by index", "through the humanoid" or "by name".
    pub fn how(&self) -> &'static str {
        if self.by_index {
            "by index"
        } else if self.through_humanoid {
            "through the humanoid"
        } else {
            "by name"
        }
    }
}

/// Why a file can't be attached.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AttachError {
    #[error("{0}: the model has no skeleton to animate")]
    NoSkeleton(String),
    #[error("{0}: the file has no animations")]
    NoClips(String),
    #[error(
        "{file}: {poses} unnamed poses, the model has {joints} joints; unnamed poses attach by index only to a skeleton with the same joints and parents"
    )]
    IndexMismatch { file: String, poses: usize, joints: usize },
    #[error("{0}: no joint name matches the model's")]
    NoMatch(String),
    #[error("{0}: a VRMA motion attaches to a VRM avatar, through its humanoid; the model has none")]
    NotHumanoid(String),
}

/// Adds `anim`'s clips to `model`, matched by joint name (or by index for unnamed files).
pub fn attach(model: &mut Scene, anim: &Scene, source: &str) -> Result<AttachReport, AttachError> {
    // A VRMA motion goes through the humanoid, not by joint name.
    if anim.vrm_animation.is_some() {
        return super::retarget::attach_vrma(model, anim, source);
    }
    // A MikuMikuDance motion on a humanoid that isn't an MMD model plays on a proxy MMD skeleton with IK.
    if super::humanoid::plays_through_humanoid(model, anim) {
        return super::humanoid::attach_mmd_motion(model, anim, source);
    }
    // A humanoid clip onto a humanoid whose bones are named otherwise goes through the two humanoids.
    if super::humanoid::retargets(model, anim) {
        return super::humanoid::retarget(model, anim, source);
    }
    attach_by_name(model, anim, source)
}

/// [`attach`] by joint name (or index), whatever the two files are.
pub(crate) fn attach_by_name(model: &mut Scene, anim: &Scene, source: &str) -> Result<AttachReport, AttachError> {
    let (ms, fs) = (&model.skeleton, &anim.skeleton);
    // A file with cameras or light keys attaches them even where no joint matches (a camera or light motion).
    let has_cameras = !anim.cameras.is_empty() || !anim.lights.is_empty();
    if ms.is_empty() && !has_cameras {
        return Err(AttachError::NoSkeleton(source.to_string()));
    }
    if anim.clips.is_empty() {
        return Err(AttachError::NoClips(source.to_string()));
    }
    let mut report = AttachReport { source: source.to_string(), ..Default::default() };
    // map[model joint] = file joint
    // A motion without bones (morph, visibility, IK-switch or gravity keys only) matches nothing and needs no index
    // match.
    let map: Vec<Option<usize>> = if fs.is_named() || fs.is_empty() {
        ms.joints.iter().map(|j| fs.find(&j.name)).collect()
    } else {
        let same = fs.len() == ms.len() && fs.joints.iter().zip(&ms.joints).all(|(a, b)| a.parent == b.parent);
        if !same {
            return Err(AttachError::IndexMismatch { file: source.to_string(), poses: fs.len(), joints: ms.len() });
        }
        report.by_index = true;
        (0..ms.len()).map(Some).collect()
    };
    let mut map = map;
    let (cut_bones, cut_morphs) = cut_names(anim);
    if !report.by_index {
        prefix_match_joints(&cut_bones, fs, ms, &mut map, &mut report);
    }
    let keys_without_bones = fs.is_empty()
        && anim.clips.iter().any(|c| {
            !c.morphs.is_empty() || !c.ik_switches.is_empty() || !c.visibility.is_empty() || !c.gravity.is_empty()
        });
    if map.iter().all(Option::is_none) && !has_cameras && !keys_without_bones {
        return Err(AttachError::NoMatch(source.to_string()));
    }
    let file_has_hierarchy = fs.joints.iter().any(|j| j.parent.is_some());
    let parent_name = |s: &crate::scene::Skeleton, i: usize| s.joints[i].parent.map(|p| s.display_name(p));
    for (mi, fi) in map.iter().enumerate() {
        match fi {
            Some(fi) => {
                report.matched.push((ms.display_name(mi), fs.display_name(*fi)));
                // By index, parents were required to agree; by name, compare the parents' names. A file with no
                // hierarchy at all (MVD: bone names only) says nothing about parents.
                if !report.by_index && file_has_hierarchy && parent_name(ms, mi) != parent_name(fs, *fi) {
                    report.reparented.push(ms.display_name(mi));
                }
            }
            None => report.unmatched_joints.push(ms.display_name(mi)),
        }
    }
    for fi in 0..fs.len() {
        if !map.contains(&Some(fi)) {
            report.unused_tracks.push(fs.display_name(fi));
        }
    }
    let bind = ms.bind_locals();
    let model_morphs: &[crate::scene::Morph] = &model.morphs;
    let mut added = Vec::with_capacity(anim.clips.len());
    for clip in &anim.clips {
        let data = match &clip.data {
            ClipData::Sampled { joints, frames } => {
                let n = if *joints == 0 { 0 } else { frames.len() / joints };
                let mut out = Vec::with_capacity(n * bind.len());
                for f in 0..n {
                    let src = &frames[f * joints..(f + 1) * joints];
                    out.extend(map.iter().zip(&bind).map(|(m, b): (&Option<usize>, &Transform)| {
                        m.and_then(|fi| src.get(fi)).copied().unwrap_or(*b)
                    }));
                }
                ClipData::Sampled { joints: bind.len(), frames: out }
            }
            ClipData::Keyed { tracks } => ClipData::Keyed {
                tracks: tracks
                    .iter()
                    .filter_map(|t| {
                        let mi = map.iter().position(|m| *m == Some(t.joint))?;
                        Some(crate::scene::Track { joint: mi, ..t.clone() })
                    })
                    .collect(),
            },
        };
        report.clips.push(clip.name.clone());
        added.push(Clip {
            name: clip.name.clone(),
            frame_rate: clip.frame_rate,
            looping: clip.looping,
            frame_count: clip.frame_count,
            first_frame: clip.first_frame,
            data,
            // Stored bounds describe the file's own mesh, which isn't the model's.
            bounds: None,
            source: Some(source.to_string()),
            morphs: clip.morphs.iter().map(|t| rename_cut_morph(t, &cut_morphs, model_morphs, &mut report)).collect(),
            ik_switches: clip.ik_switches.clone(),
            physics_switches: clip.physics_switches.clone(),
            visibility: clip.visibility.clone(),
            gravity: clip.gravity.clone(),
        });
    }
    model.clips.extend(added);
    report.cameras = anim.cameras.iter().map(|c| c.name.clone()).collect();
    model.cameras.extend(anim.cameras.iter().cloned());
    report.lights = anim.lights.iter().map(|l| l.name.clone()).collect();
    model.lights.extend(anim.lights.iter().cloned());
    Ok(report)
}
/// The names a VMD motion cut at its 15-byte field (bones and morphs): the field is full, so the real name may
/// go on. Empty for other formats.
fn cut_names(anim: &Scene) -> (Vec<&str>, Vec<&str>) {
    let Some(v) = &anim.vmd else { return (Vec::new(), Vec::new()) };
    let full = |t: &&crate::scene::VmdTrackInfo| t.name.raw.len() >= crate::scene::VMD_NAME_BYTES;
    (
        v.bones.iter().filter(full).map(|t| t.name.text.as_str()).collect(),
        v.morphs.iter().filter(full).map(|t| t.name.text.as_str()).collect(),
    )
}

/// The model names that a cut file name is the start of (the name itself excluded: that matched exactly).
fn extending<'a>(cut: &str, names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    names.filter(|n| n.len() > cut.len() && n.starts_with(cut)).collect()
}

/// Matches the file's unmatched, cut joint names to the one unmatched model joint each starts, reporting
/// the matches and the ambiguous names.
fn prefix_match_joints(
    cut: &[&str],
    fs: &crate::scene::Skeleton,
    ms: &crate::scene::Skeleton,
    map: &mut [Option<usize>],
    report: &mut AttachReport,
) {
    for &name in cut {
        let Some(fi) = fs.find(name) else { continue };
        if map.contains(&Some(fi)) {
            continue;
        }
        let free = ms.joints.iter().enumerate().filter(|(mi, _)| map[*mi].is_none()).map(|(_, j)| j.name.as_str());
        match extending(name, free)[..] {
            [one] => {
                let mi = ms.find(one).unwrap_or(usize::MAX);
                if let Some(slot) = map.get_mut(mi) {
                    *slot = Some(fi);
                    report.prefix_matched.push((one.to_string(), name.to_string()));
                }
            }
            [] => {}
            ref many => report.ambiguous.push((name.to_string(), many.iter().map(|s| s.to_string()).collect())),
        }
    }
}

/// A morph track whose cut name starts exactly one of the model's morph names, renamed to it (morph weights
/// are matched by name when played); other tracks as they are.
fn rename_cut_morph(
    track: &crate::scene::MorphTrack,
    cut: &[&str],
    morphs: &[crate::scene::Morph],
    report: &mut AttachReport,
) -> crate::scene::MorphTrack {
    let exact = morphs.iter().any(|m| m.name == track.name);
    if exact || !cut.contains(&track.name.as_str()) {
        return track.clone();
    }
    match extending(&track.name, morphs.iter().map(|m| m.name.as_str()))[..] {
        [one] => {
            report.prefix_matched.push((one.to_string(), track.name.clone()));
            crate::scene::MorphTrack { name: one.to_string(), ..track.clone() }
        }
        [] => track.clone(),
        ref many => {
            report.ambiguous.push((track.name.clone(), many.iter().map(|s| s.to_string()).collect()));
            track.clone()
        }
    }
}

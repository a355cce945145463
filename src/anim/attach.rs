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
    /// `(model joint, file joint)` pairs, by name.
    pub matched: Vec<(String, String)>,
    /// Model joints the file doesn't animate: they keep their bind pose.
    pub unmatched_joints: Vec<String>,
    /// File joints with no model joint of that name: their tracks are unused.
    pub unused_tracks: Vec<String>,
    /// Matched joints whose parent differs between the model and the file.
    pub reparented: Vec<String>,
    /// Names of the clips added to the model.
    pub clips: Vec<String>,
    /// Names of the animated cameras added to the model (`Scene::cameras`).
    pub cameras: Vec<String>,
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
}

/// Adds `anim`'s clips to `model`, matched by joint name (or by index for unnamed files).
pub fn attach(model: &mut Scene, anim: &Scene, source: &str) -> Result<AttachReport, AttachError> {
    let (ms, fs) = (&model.skeleton, &anim.skeleton);
    // A file with cameras attaches them even where no joint matches (a camera-only motion).
    let has_cameras = !anim.cameras.is_empty();
    if ms.is_empty() && !has_cameras {
        return Err(AttachError::NoSkeleton(source.to_string()));
    }
    if anim.clips.is_empty() {
        return Err(AttachError::NoClips(source.to_string()));
    }
    let mut report = AttachReport { source: source.to_string(), ..Default::default() };
    // map[model joint] = file joint
    let map: Vec<Option<usize>> = if fs.is_named() {
        ms.joints.iter().map(|j| fs.find(&j.name)).collect()
    } else {
        let same = fs.len() == ms.len() && fs.joints.iter().zip(&ms.joints).all(|(a, b)| a.parent == b.parent);
        if !same {
            return Err(AttachError::IndexMismatch { file: source.to_string(), poses: fs.len(), joints: ms.len() });
        }
        report.by_index = true;
        (0..ms.len()).map(Some).collect()
    };
    if map.iter().all(Option::is_none) && !has_cameras {
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
            morphs: clip.morphs.clone(),
            ik_switches: clip.ik_switches.clone(),
        });
    }
    model.clips.extend(added);
    report.cameras = anim.cameras.iter().map(|c| c.name.clone()).collect();
    model.cameras.extend(anim.cameras.iter().cloned());
    Ok(report)
}

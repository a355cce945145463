//! Making a scene fit the Inter-Quake formats before it is encoded: motion that MMD evaluates with constraints
//! (IK, append transforms) and bone morphs is baked into sampled frames, since the formats carry no constraints,
//! and the model is stood upright in their axes ([`super::to_z_up`]).

use crate::anim::Pose;
use crate::scene::{ClipData, DEFAULT_FPS, MorphKind, Scene};

/// Bakes and turns `scene` for an Inter-Quake encoder; returns notes on what changed, for the user.
pub fn for_inter_quake(scene: &mut Scene) -> Vec<String> {
    let mut notes = Vec::new();
    let baked = bake_constraints(scene);
    if baked > 0 {
        notes.push(format!(
            "baked {baked} animation(s) frame by frame with the model's IK chains, append transforms and bone \
             morphs applied, as the viewer plays them"
        ));
    }
    let from = scene.up.label();
    if super::to_z_up(scene) {
        notes.push(format!("turned from {from} up to the Inter-Quake axes (Z up, front toward -Y)"));
    }
    notes
}

/// Replaces each keyed clip of a scene with constraints or bone morphs by its frames as [`Pose::update_scene`]
/// evaluates them (every frame of the clip's length at its own rate, IK switched as the motion says), so a
/// format without constraints plays what the viewer shows. Returns the number of clips baked.
pub fn bake_constraints(scene: &mut Scene) -> usize {
    let has_bone_morphs = scene.morphs.iter().any(|m| matches!(m.kind, MorphKind::Bone(_)));
    if scene.constraints.ik.is_empty() && scene.constraints.append.is_empty() && !has_bone_morphs {
        return 0;
    }
    let joints = scene.skeleton.len();
    let mut baked = Vec::with_capacity(scene.clips.len());
    for clip in &scene.clips {
        if !matches!(clip.data, ClipData::Keyed { .. }) {
            baked.push(None);
            continue;
        }
        let mut pose = Pose::default();
        let count = clip.frame_count.max(1);
        let mut frames = Vec::with_capacity(count as usize * joints);
        for f in 0..count {
            pose.update_scene(scene, Some(clip), f as f32, DEFAULT_FPS, &[]);
            frames.extend_from_slice(&pose.locals);
        }
        baked.push(Some(ClipData::Sampled { joints, frames }));
    }
    let mut count = 0;
    for (clip, data) in scene.clips.iter_mut().zip(baked) {
        if let Some(data) = data {
            clip.frame_count = clip.frame_count.max(1);
            clip.data = data;
            clip.bounds = None;
            count += 1;
        }
    }
    count
}

//! VRMA motions written (`VRMC_vrm_animation` 1.0): a humanoid model's clip as the spec's normalized humanoid
//! carries it, so any VRM avatar plays it (three-vrm, UniVRM, rigscope).
//!
//! - One node per humanoid bone the model has, in the humanoid's hierarchy (each hangs from its nearest humanoid
//!   ancestor the model has), resting in the model's pose with no rotation: its translation is the bone's rest
//!   place from its parent's, in the viewer's space (Y up, front toward +Z: VRM 1.0's, whatever the model's own).
//! - Each frame, a bone's rotation is its world turn from rest (in the viewer's space) relative to its humanoid
//!   parent's: `n = Dₚ⁻¹ · D`, which a normalized rig turns back into `D` down the chain. The hips also carry
//!   their place.
//! - Each VRM expression the clip moves gets a node whose translation x is its weight (0 to 1), frame by frame.
//!
//! The clip is sampled at its own frame rate (one key per frame): IK, appends and the proxy a MikuMikuDance
//! motion played through are all in the world turns already.

use glam::{Mat3, Mat4, Quat, Vec3};
use serde_json::{Value, json};

use super::ConvertError;
use crate::anim::humanoid::{self, transfer};
use crate::anim::{Pose, PoseInput};
use crate::scene::{
    Clip, ClipData, Format, Joint, Metadata, Scene, Skeleton, Transform, UpAxis, VRM_BONE_PARENTS, humanoid_parent,
};

/// The world rotation of a model-space matrix seen in the viewer's space (`b` the scene's basis).
fn seen(b: Mat3, m: &Mat4) -> Quat {
    transfer::seen(b, transfer::rotation(m))
}

/// The expressions clip `clip` of `model` moves (a VRM avatar's; none for other humanoids), with
/// their morph indices and whether each is a preset.
fn moved_expressions(model: &Scene, clip: &Clip) -> Vec<(String, usize, bool)> {
    let keyed = |name: &str| clip.morphs.iter().any(|t| t.name == name && t.keys.iter().any(|k| k.value != 0.0));
    match model.vrm.as_deref() {
        Some(vrm) => {
            vrm.expressions.iter().filter(|e| keyed(&e.name)).map(|e| (e.name.clone(), e.morph, e.preset)).collect()
        }
        None => Vec::new(),
    }
}

/// A VRMA's content before it is written: the normalized humanoid's nodes with one sampled clip, and the
/// expressions it carries.
pub struct VrmaScene {
    pub scene: Scene,
    /// (expression name, model morph, preset), each with a node named `Expression_NAME` after the bones.
    pub expressions: Vec<(String, usize, bool)>,
}

/// `model`'s clip `clip` as a VRMA's scene: the normalized humanoid's nodes and one sampled clip.
pub fn vrma_scene(model: &Scene, clip: &Clip) -> Result<VrmaScene, ConvertError> {
    let bones = humanoid::humanoid_bones(model);
    if !humanoid::is_humanoid(&bones) {
        return Err(ConvertError(
            "a VRMA is written from a humanoid: the model has no VRM humanoid or MMD bone names".into(),
        ));
    }
    let basis = Mat3::from_mat4(model.up.basis());
    let rest = &model.skeleton.bind_world;
    let at = |world: &[Mat4], j: usize| basis * world[j].w_axis.truncate();
    // The humanoid bones in the humanoid's order (parents first), each with its nearest humanoid ancestor.
    let order: Vec<(&'static str, usize, Option<&'static str>)> = VRM_BONE_PARENTS
        .iter()
        .filter_map(|(name, _)| bones.iter().find(|(b, _)| b == name).map(|&(b, j)| (b, j)))
        .map(|(name, j)| (name, j, humanoid_parent(name, |p| bones.iter().any(|(b, _)| *b == p))))
        .collect();
    let node_of = |name: &str| order.iter().position(|(b, _, _)| *b == name);
    let mut joints: Vec<Joint> = order
        .iter()
        .map(|&(name, j, parent)| {
            let from =
                parent.and_then(|p| bones.iter().find(|(b, _)| *b == p)).map_or(Vec3::ZERO, |&(_, pj)| at(rest, pj));
            Joint {
                name: name.to_string(),
                parent: parent.and_then(&node_of),
                bind: Transform { translation: at(rest, j) - from, ..Transform::IDENTITY },
            }
        })
        .collect();
    let expressions = moved_expressions(model, clip);
    for (name, _, _) in &expressions {
        joints.push(Joint { name: format!("Expression_{name}"), parent: None, bind: Transform::IDENTITY });
    }
    let skeleton = Skeleton::new(joints, true).map_err(|j| ConvertError(format!("humanoid node {j} out of order")))?;

    let fps = clip.fps(crate::scene::DEFAULT_FPS);
    let frames = clip.frame_count.max(1);
    let binds = skeleton.bind_locals();
    let rest_turns: Vec<Quat> = order.iter().map(|&(_, j, _)| seen(basis, &rest[j])).collect();
    let mut out = Vec::with_capacity(frames as usize * binds.len());
    let mut pose = Pose::default();
    for f in 0..frames {
        let weights = pose.update_input(model, &PoseInput::at(Some(clip), f as f32, fps));
        let turns: Vec<Quat> =
            order.iter().zip(&rest_turns).map(|(&(_, j, _), r)| seen(basis, &pose.world[j]) * r.inverse()).collect();
        for (k, &(name, j, parent)) in order.iter().enumerate() {
            let parent_turn = parent.and_then(&node_of).map_or(Quat::IDENTITY, |p| turns[p]);
            let mut local = binds[k];
            local.rotation = (parent_turn.inverse() * turns[k]).normalize();
            if name == "hips" {
                local.translation = at(&pose.world, j);
            }
            out.push(local);
        }
        for (_, morph, _) in &expressions {
            let w = weights.get(*morph).or(pose.morphs.get(*morph)).copied().unwrap_or(0.0);
            out.push(Transform { translation: Vec3::new(w.clamp(0.0, 1.0), 0.0, 0.0), ..Transform::IDENTITY });
        }
    }
    let mut scene = Scene::empty(Metadata::new(Format::Gltf, "2.0"));
    scene.up = UpAxis::Y;
    scene.skeleton = skeleton;
    let joints = binds.len();
    scene.clips.push(Clip::new(
        clip.name.clone(),
        fps,
        clip.looping,
        frames,
        ClipData::Sampled { joints, frames: out },
    ));
    Ok(VrmaScene { scene, expressions })
}

/// `model`'s clip `clip` written as a VRMA (a .glb with `VRMC_vrm_animation`).
pub fn to_vrma(model: &Scene, clip: &Clip) -> Result<Vec<u8>, ConvertError> {
    let VrmaScene { scene, expressions } = vrma_scene(model, clip)?;
    let file = super::to_gltf(&scene, &crate::textures::TextureSet::default(), super::Container::Glb)?;
    let glb = [file.head, file.body].concat();
    crate::formats::gltf::edit_glb_json(&glb, |root| {
        let node =
            |name: &str| root["nodes"].as_array().and_then(|n| n.iter().position(|n| n["name"].as_str() == Some(name)));
        let mut bones = serde_json::Map::new();
        for (name, _) in VRM_BONE_PARENTS {
            if let Some(i) = node(name) {
                bones.insert(name.to_string(), json!({ "node": i }));
            }
        }
        let (mut preset, mut custom) = (serde_json::Map::new(), serde_json::Map::new());
        for (name, _, is_preset) in &expressions {
            if let Some(i) = node(&format!("Expression_{name}")) {
                let group = if *is_preset { &mut preset } else { &mut custom };
                group.insert(name.clone(), json!({ "node": i }));
            }
        }
        let extension = json!({
            "specVersion": "1.0",
            "humanoid": { "humanBones": bones },
            "expressions": { "preset": preset, "custom": custom },
        });
        root["extensions"] = json!({ "VRMC_vrm_animation": extension });
        let used = root["extensionsUsed"].as_array().cloned().unwrap_or_default();
        let mut used: Vec<Value> = used.into_iter().filter(|v| v != "VRMC_vrm_animation").collect();
        used.push(json!("VRMC_vrm_animation"));
        root["extensionsUsed"] = Value::Array(used);
    })
    .ok_or_else(|| ConvertError("the written glTF could not be read back to add VRMC_vrm_animation".into()))
}

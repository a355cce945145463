//! Making a scene fit the Inter-Quake formats before it is encoded: motion that MMD evaluates with constraints
//! (IK, append transforms) and bone morphs is baked into sampled frames, since the formats carry no constraints,
//! and the model is stood upright in their axes ([`super::to_z_up`]).

use crate::anim::{Pose, PoseInput};
use crate::scene::{
    Clip, ClipData, DEFAULT_FPS, Interpolation, Key, MorphKind, MorphTrack, Scene, TrackMode, Transform, UpAxis,
};

/// Bakes and turns `scene` for an Inter-Quake encoder; returns notes on what changed, for the user.
pub fn for_inter_quake(scene: &mut Scene) -> Vec<String> {
    let mut notes: Vec<String> = blended_linearly(scene, "the Inter-Quake formats").into_iter().collect();
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

/// Drops the scene's spherical and dual-quaternion blending (the Inter-Quake formats and glTF skin linearly):
/// their vertices keep their bones and weights. The note says how many, for the user.
fn blended_linearly(scene: &mut Scene, format: &str) -> Option<String> {
    let (spherical, dual) = scene.vertices.blend.take()?.counts();
    (spherical + dual > 0).then(|| {
        format!(
            "{spherical} SDEF (spherical) and {dual} QDEF (dual-quaternion) vertices written with their bones and \
             weights: {format} blend them linearly"
        )
    })
}

/// Replaces each keyed clip of a scene with constraints or bone morphs by its frames as [`Pose::update_scene`]
/// evaluates them (every frame of the clip's length at its own rate, IK switched as the motion says), so a
/// format without constraints plays what the viewer shows. Returns the number of clips baked.
pub fn bake_constraints(scene: &mut Scene) -> usize {
    if !evaluated(scene) {
        return 0;
    }
    let baked: Vec<Option<Vec<Transform>>> = scene
        .clips
        .iter()
        .map(|clip| {
            let keyed = matches!(clip.data, ClipData::Keyed { .. });
            keyed.then(|| evaluate(scene, clip, clip.frame_count.max(1), 1.0, None, false).0)
        })
        .collect();
    let joints = scene.skeleton.len();
    let mut count = 0;
    for (clip, frames) in scene.clips.iter_mut().zip(baked) {
        if let Some(frames) = frames {
            clip.frame_count = clip.frame_count.max(1);
            clip.data = ClipData::Sampled { joints, frames };
            clip.bounds = None;
            count += 1;
        }
    }
    count
}

/// Whether a scene's motion means more than its keys: constraints (IK, appends) or bone morphs act on it.
fn evaluated(scene: &Scene) -> bool {
    !scene.constraints.ik.is_empty()
        || !scene.constraints.append.is_empty()
        || scene.morphs.iter().any(|m| matches!(m.kind, MorphKind::Bone(_)))
}

/// `clip` as [`Pose::update_scene`] plays it at `count` frames `step` clip frames apart: every joint's local
/// transform per frame and, when `rate` (frames per second of the result) is given, every morph's effective
/// weight keyed at each frame's time.
fn evaluate(
    scene: &Scene,
    clip: &Clip,
    count: u32,
    step: f32,
    rate: Option<f32>,
    physics: bool,
) -> (Vec<Transform>, Vec<Vec<Key<f32>>>) {
    // Physics is simulated frame after frame from a reset at the clip's start, as playback shows it.
    let mut sim = physics.then(|| crate::physics::Simulation::new(scene, Default::default())).flatten();
    let mut frames = Vec::with_capacity(count as usize * scene.skeleton.len());
    let weights_wanted = if rate.is_some() { scene.morphs.len() } else { 0 };
    let mut weights: Vec<Vec<Key<f32>>> = vec![Vec::new(); weights_wanted];
    let mut pose = Pose::default();
    for f in 0..count {
        let input = PoseInput::at(Some(clip), f as f32 * step, DEFAULT_FPS);
        crate::physics::pose_frame(scene, sim.as_mut(), &input, crate::physics::Seek::FromStart, &mut pose);
        frames.extend_from_slice(&pose.locals);
        if let Some(rate) = rate {
            let time = f as f32 / rate;
            for (keys, &w) in weights.iter_mut().zip(&pose.morphs) {
                keys.push(Key { time, value: w });
            }
        }
    }
    (frames, weights)
}

/// Makes `scene` fit a glTF encoder: clips glTF can't carry key for key are baked into frames as the viewer
/// plays them (see [`needs_baking`]), at the clip's own rate or `bake_fps`, with the morphs' effective weights
/// keyed per frame; then the scene is turned into glTF's axes (Y up, front toward +Z, right-handed). Returns
/// notes on what changed.
pub fn for_gltf(scene: &mut Scene, bake_fps: Option<f32>, physics: bool) -> Vec<String> {
    let physics = physics && crate::physics::Rig::of_scene(scene).is_some();
    let mut notes: Vec<String> = blended_linearly(scene, "glTF").into_iter().collect();
    let bounds = scene.clips.iter().filter(|c| c.bounds.is_some()).count();
    if bounds > 0 {
        notes.push(format!("dropped the stored per-frame bounds of {bounds} animation(s): glTF has none"));
    }
    let mut baked = Vec::new();
    for (i, clip) in scene.clips.iter().enumerate() {
        if physics || needs_baking(scene, clip) {
            baked.push((i, bake_clip(scene, clip, bake_fps, physics)));
        }
    }
    if !baked.is_empty() {
        let rate = bake_fps.map_or("its own rate".to_string(), |f| format!("{f} fps"));
        notes.push(format!(
            "baked {} animation(s) frame by frame at {rate}, with IK chains, append transforms{} and morphs applied \
             as the viewer plays them",
            baked.len(),
            if physics { ", rigid-body physics" } else { "" }
        ));
    }
    for (i, clip) in baked {
        scene.clips[i] = clip;
    }
    let from = scene.up.label();
    if super::to_up(scene, UpAxis::Y) {
        notes.push(format!("turned from {from} up to glTF's axes (Y up, front toward +Z)"));
    }
    notes
}

/// Whether glTF can't carry `clip` as it is: its motion needs the scene's constraints or bone morphs, it has
/// morph tracks (written as the weights they end up with, groups passed on to their members), or its keys
/// are deltas on the bind pose or eased by curves (MMD). Sampled clips of a scene without any of these, and
/// keyed clips that replace the pose with linear or stepped keys (RSM nodes), are written as they are.
pub fn needs_baking(scene: &Scene, clip: &Clip) -> bool {
    if evaluated(scene) || !clip.morphs.is_empty() {
        return true;
    }
    match &clip.data {
        ClipData::Sampled { .. } => false,
        ClipData::Keyed { tracks } => tracks.iter().any(|t| {
            t.mode != TrackMode::Replace || !matches!(t.interpolation, Interpolation::Linear | Interpolation::Step)
        }),
    }
}

/// `clip` evaluated with [`Pose::update_scene`] at every frame of its span at `fps` (default: its own rate),
/// as a sampled clip whose morph tracks key each vertex morph's effective weight at every frame (morphs that
/// stay at 0 are left out).
fn bake_clip(scene: &Scene, clip: &Clip, fps: Option<f32>, physics: bool) -> Clip {
    let own = clip.fps(DEFAULT_FPS);
    let rate = fps.filter(|f| f.is_finite() && *f > 0.0).unwrap_or(own);
    let span = clip.frame_span() / own * rate;
    // Whole frames over the span: a looping clip stops short of its end (frame 0 again), as stored clips do.
    let count = if clip.looping { span.round().max(1.0) as u32 } else { span.round() as u32 + 1 };
    let joints = scene.skeleton.len();
    let (frames, weights) = evaluate(scene, clip, count, own / rate, Some(rate), physics);
    let morphs = scene
        .morphs
        .iter()
        .zip(weights)
        .filter(|(m, keys)| matches!(m.kind, MorphKind::Vertex(_)) && keys.iter().any(|k| k.value != 0.0))
        .map(|(m, keys)| MorphTrack { name: m.name.clone(), keys, ease: Vec::new() })
        .collect();
    let mut out = Clip::new(clip.name.clone(), rate, clip.looping, count, ClipData::Sampled { joints, frames });
    out.first_frame = clip.first_frame;
    out.source = clip.source.clone();
    out.morphs = morphs;
    out.visibility = clip.visibility.clone();
    out
}

//! The skeleton as glTF nodes and a skin, and clips as glTF animations.
//!
//! Joint `i` is node `i`, so animation channels and skin joints name joints by their scene index. The inverse
//! bind matrices are the skeleton's own (`Skeleton::inverse_bind`, the inverse of the bind pose's world
//! transforms), so glTF's `world · inverse bind` is rigscope's skinning palette exactly.

use glam::{Quat, Vec3};
use gltf::json;
use json::animation::{Channel, Interpolation, Property, Sampler, Target};
use json::validation::Checked;
use json::{Index, Node};

use super::buffer::{Builder, bounds};
use crate::scene::{Clip, ClipData, DEFAULT_FPS, Interpolation as KeyInterpolation, Key, Scene, Transform};

/// A node with a local transform and a name.
pub fn node(name: &str, t: Transform) -> Node {
    let q = t.rotation.normalize();
    let q = if q.is_finite() { q } else { Quat::IDENTITY };
    Node {
        name: Some(name.to_string()),
        translation: (t.translation != Vec3::ZERO).then(|| t.translation.to_array()),
        rotation: (q != Quat::IDENTITY).then(|| json::scene::UnitQuaternion(q.to_array())),
        scale: (t.scale != Vec3::ONE).then(|| t.scale.to_array()),
        ..Default::default()
    }
}

/// One node per joint (node `i` is joint `i`), children linked; returns the root joints.
pub fn joint_nodes(b: &mut Builder, scene: &Scene) -> Vec<Index<Node>> {
    let joints = &scene.skeleton.joints;
    let mut children: Vec<Vec<Index<Node>>> = vec![Vec::new(); joints.len()];
    let mut roots = Vec::new();
    for (i, j) in joints.iter().enumerate() {
        match j.parent {
            Some(p) if p < i => children[p].push(Index::new(i as u32)),
            _ => roots.push(Index::new(i as u32)),
        }
    }
    for (j, kids) in joints.iter().zip(children) {
        // An unnamed joint (IQM animation-only files) stays unnamed.
        let mut n = node(&j.name, j.bind);
        if j.name.is_empty() {
            n.name = None;
        }
        n.children = (!kids.is_empty()).then_some(kids);
        b.root.push(n);
    }
    roots
}

/// The skin over every joint (and `extra`, an unmoving root node for vertices without weights), with the
/// skeleton's inverse bind matrices; `extras` carries what glTF has no place for (IK chains, appends).
pub fn skin(b: &mut Builder, scene: &Scene, extra: Option<Index<Node>>, extras: json::Extras) -> Index<json::Skin> {
    // An affine matrix's last row is exactly (0, 0, 0, 1), as glTF checks, not what float noise left there.
    let affine = |m: &glam::Mat4| {
        let mut a = m.to_cols_array();
        (a[3], a[7], a[11], a[15]) = (0.0, 0.0, 0.0, 1.0);
        a
    };
    let mut matrices: Vec<[f32; 16]> = scene.skeleton.inverse_bind.iter().map(affine).collect();
    let mut joints: Vec<Index<Node>> = (0..scene.skeleton.len() as u32).map(Index::new).collect();
    if let Some(extra) = extra {
        joints.push(extra);
        matrices.push(glam::Mat4::IDENTITY.to_cols_array());
    }
    let ibm = b.array(&matrices, None, None);
    b.root.push(json::Skin {
        extensions: None,
        extras,
        inverse_bind_matrices: Some(ibm),
        joints,
        name: Some("skeleton".into()),
        skeleton: None,
    })
}

/// One animation channel's keys before they are written.
struct Series {
    joint: usize,
    property: Property,
    step: bool,
    times: Vec<f32>,
    values: Vec<[f32; 4]>,
}

/// The keys of `clip` per joint and property: every frame of a sampled clip (and frame 0 again at the end of
/// a looping one), or each keyed track's own keys, held to the clip's end. A channel that never leaves the
/// joint's bind value is left out: glTF then keeps the node's rest transform, the same thing.
fn series(scene: &Scene, clip: &Clip) -> Vec<Series> {
    let fps = clip.fps(DEFAULT_FPS);
    let binds: Vec<Transform> = scene.skeleton.joints.iter().map(|j| j.bind).collect();
    let mut out = Vec::new();
    match &clip.data {
        ClipData::Sampled { joints, frames } => {
            let n = (*joints).max(1);
            let count = frames.len() / n;
            let mut order: Vec<usize> = (0..count).collect();
            if clip.looping && count > 0 {
                order.push(0);
            }
            let times: Vec<f32> = (0..order.len()).map(|f| f as f32 / fps).collect();
            for (j, bind) in binds.iter().enumerate().take(n) {
                let at = |f: usize| frames.get(f * n + j).copied().unwrap_or(*bind);
                let keys: Vec<Transform> = order.iter().map(|&f| at(f)).collect();
                push_channels(&mut out, j, false, &times, &keys, *bind);
            }
        }
        ClipData::Keyed { tracks } => {
            let end = clip.duration(DEFAULT_FPS);
            for t in tracks {
                let Some(bind) = binds.get(t.joint).copied() else { continue };
                let step = t.interpolation == KeyInterpolation::Step;
                let held = |keys: &[Key<[f32; 4]>]| -> (Vec<f32>, Vec<[f32; 4]>) {
                    // Times strictly increasing, as glTF requires (a key at or before the one kept is dropped).
                    let (mut times, mut values) = (Vec::<f32>::new(), Vec::new());
                    for k in keys {
                        let time = k.time.max(0.0);
                        if times.last().is_none_or(|&last| time > last) {
                            times.push(time);
                            values.push(k.value);
                        }
                    }
                    if let (Some(&last_t), Some(&last_v)) = (times.last(), values.last())
                        && end > last_t
                    {
                        times.push(end);
                        values.push(last_v);
                    }
                    (times, values)
                };
                let v3 = |v: Vec3| [v.x, v.y, v.z, 0.0];
                let tr: Vec<Key<[f32; 4]>> =
                    t.translation.iter().map(|k| Key { time: k.time, value: v3(k.value) }).collect();
                let ro: Vec<Key<[f32; 4]>> =
                    t.rotation.iter().map(|k| Key { time: k.time, value: k.value.to_array() }).collect();
                let sc: Vec<Key<[f32; 4]>> = t.scale.iter().map(|k| Key { time: k.time, value: v3(k.value) }).collect();
                for (keys, property, rest) in [
                    (tr, Property::Translation, v3(bind.translation)),
                    (ro, Property::Rotation, bind.rotation.to_array()),
                    (sc, Property::Scale, v3(bind.scale)),
                ] {
                    let (times, mut values) = held(&keys);
                    if values.is_empty() || values.iter().all(|v| same(v, &rest)) {
                        continue;
                    }
                    if property == Property::Rotation {
                        continuous(&mut values);
                    }
                    out.push(Series { joint: t.joint, property, step, times, values });
                }
            }
        }
    }
    out
}

/// Whether two key values are the same within float noise.
fn same(a: &[f32; 4], b: &[f32; 4]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-6 * (1.0 + x.abs().max(y.abs())))
}

/// Unit quaternions, each in the hemisphere of the one before, so a viewer's slerp takes the short way.
fn continuous(values: &mut [[f32; 4]]) {
    let mut prev: Option<Quat> = None;
    for v in values {
        let mut q = Quat::from_array(*v).normalize();
        if !q.is_finite() {
            q = Quat::IDENTITY;
        }
        if prev.is_some_and(|p| p.dot(q) < 0.0) {
            q = -q;
        }
        *v = q.to_array();
        prev = Some(q);
    }
}

/// Adds joint `j`'s translation, rotation and scale series from sampled `keys`, each unless it stays at rest.
fn push_channels(out: &mut Vec<Series>, j: usize, step: bool, times: &[f32], keys: &[Transform], rest: Transform) {
    let v3 = |v: Vec3| [v.x, v.y, v.z, 0.0];
    let t: Vec<[f32; 4]> = keys.iter().map(|k| v3(k.translation)).collect();
    let mut r: Vec<[f32; 4]> = keys.iter().map(|k| k.rotation.to_array()).collect();
    let s: Vec<[f32; 4]> = keys.iter().map(|k| v3(k.scale)).collect();
    continuous(&mut r);
    let rest_r = rest.rotation.normalize();
    for (values, property, rest) in [
        (t, Property::Translation, v3(rest.translation)),
        (r, Property::Rotation, rest_r.to_array()),
        (s, Property::Scale, v3(rest.scale)),
    ] {
        let at_rest = |v: &[f32; 4]| {
            same(v, &rest) || (property == Property::Rotation && same(&(-Quat::from_array(*v)).to_array(), &rest))
        };
        if values.iter().all(at_rest) {
            continue;
        }
        out.push(Series { joint: j, property, step, times: times.to_vec(), values });
    }
}

/// The weights of `targets` (scene morph indices) at each key of the clip's morph tracks, as glTF's weights
/// output (`targets.len()` values per key), with the keys' times; `None` when no track names a target.
fn weights(scene: &Scene, clip: &Clip, targets: &[usize]) -> Option<(Vec<f32>, Vec<f32>)> {
    let tracks: Vec<Option<&crate::scene::MorphTrack>> =
        targets.iter().map(|&m| clip.morphs.iter().find(|t| t.name == scene.morphs[m].name)).collect();
    let first = tracks.iter().flatten().next()?;
    let times: Vec<f32> = first.keys.iter().map(|k| k.time).collect();
    let mut values = Vec::with_capacity(times.len() * targets.len());
    for (i, &time) in times.iter().enumerate() {
        for t in &tracks {
            let w = t.and_then(|t| t.keys.get(i).filter(|k| k.time == time).map(|k| k.value));
            let w =
                w.or_else(|| t.and_then(|t| crate::anim::sample_keys(&t.keys, time, false, |a, b, u| a + (b - a) * u)));
            values.push(w.unwrap_or(0.0).clamp(0.0, 1.0));
        }
    }
    Some((times, values))
}

/// Writes `clip` as a glTF animation: joint channels on nodes `0..joints`, morph weights on `mesh_nodes`, and
/// the paths of `cameras` (camera tracks of this clip, with their nodes).
pub fn animation(
    b: &mut Builder,
    scene: &Scene,
    clip: &Clip,
    targets: &[usize],
    mesh_nodes: &[Index<Node>],
    cameras: &[(&crate::scene::CameraTrack, Index<Node>)],
) -> Option<json::Animation> {
    let mut samplers: Vec<Sampler> = Vec::new();
    let mut channels: Vec<Channel> = Vec::new();
    let mut inputs: Vec<(Vec<f32>, Index<json::Accessor>)> = Vec::new();
    let mut input = |b: &mut Builder, times: &[f32]| {
        if let Some((_, i)) = inputs.iter().find(|(t, _)| t == times) {
            return *i;
        }
        let i = b.array(times, None, bounds(times.iter().map(|t| [*t])));
        inputs.push((times.to_vec(), i));
        i
    };
    for s in series(scene, clip) {
        if s.times.is_empty() {
            continue;
        }
        let input = input(b, &s.times);
        let output = if s.property == Property::Rotation {
            b.array(&s.values, None, None)
        } else {
            let v: Vec<[f32; 3]> = s.values.iter().map(|v| [v[0], v[1], v[2]]).collect();
            b.array(&v, None, None)
        };
        let sampler = sampler(&mut samplers, input, output, s.step);
        channels.push(channel(sampler, Index::new(s.joint as u32), s.property));
    }
    if let Some((times, values)) = weights(scene, clip, targets) {
        let input = input(b, &times);
        let output = b.array(&values, None, None);
        for &node in mesh_nodes {
            let sampler = sampler(&mut samplers, input, output, false);
            channels.push(channel(sampler, node, Property::MorphTargetWeights));
        }
    }
    for (track, node) in cameras {
        super::camera::channels(b, track, *node, &mut samplers, &mut channels);
    }
    // A clip that never leaves the bind pose is still a clip: one channel holds the first root where it rests.
    if channels.is_empty()
        && let Some(root) = scene.skeleton.joints.first()
    {
        let end = clip.duration(DEFAULT_FPS);
        let times: Vec<f32> = if end > 0.0 { vec![0.0, end] } else { vec![0.0] };
        let values = vec![root.bind.translation.to_array(); times.len()];
        let input = input(b, &times);
        let output = b.array(&values, None, None);
        let s = sampler(&mut samplers, input, output, false);
        channels.push(channel(s, Index::new(0), Property::Translation));
    }
    if channels.is_empty() {
        return None;
    }
    let extras = serde_json::json!({
        "rigscope": { "frameRate": clip.fps(DEFAULT_FPS), "frameCount": clip.frame_count, "looping": clip.looping }
    });
    Some(json::Animation {
        extensions: None,
        extras: super::extras(&extras),
        channels,
        name: Some(clip.name.clone()),
        samplers,
    })
}

pub(super) fn channel(sampler: Index<Sampler>, node: Index<Node>, property: Property) -> Channel {
    Channel {
        sampler,
        target: Target { extensions: None, extras: Default::default(), node, path: Checked::Valid(property) },
        extensions: None,
        extras: Default::default(),
    }
}

/// Adds a sampler reading `input` times and `output` values; returns its index.
pub(super) fn sampler(
    samplers: &mut Vec<Sampler>,
    input: Index<json::Accessor>,
    output: Index<json::Accessor>,
    step: bool,
) -> Index<Sampler> {
    samplers.push(Sampler {
        extensions: None,
        extras: Default::default(),
        input,
        interpolation: Checked::Valid(if step { Interpolation::Step } else { Interpolation::Linear }),
        output,
    });
    Index::new(samplers.len() as u32 - 1)
}

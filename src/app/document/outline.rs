//! What the outliner lists and filters on, derived once per model (not per frame): each joint's names
//! (lowercased for the filter), its place in the tree, and what moves or weighs it; the rigid bodies' and the
//! morphs' names; and, per clip, which joints and morphs it moves.

use super::dopesheet::{same_turn, same_vec, same_weight};
use crate::app::filter::{lower, tree_order};
use crate::scene::{ClipData, Key, Scene, Transform};

/// Whether `keys` hold more than one value (`same` compares two).
fn varies<T>(keys: &[Key<T>], same: impl Fn(&T, &T) -> bool) -> bool {
    keys.split_first().is_some_and(|(first, rest)| rest.iter().any(|k| !same(&first.value, &k.value)))
}

fn same(a: &Transform, b: &Transform) -> bool {
    same_vec(&a.translation, &b.translation) && same_turn(&a.rotation, &b.rotation) && same_vec(&a.scale, &b.scale)
}

/// Per joint of the skeleton by joint index (the bodies' and morphs' fields: by body and morph index).
#[derive(Debug, Default)]
pub struct OutlineFacts {
    /// The English name an MMD bone has besides its own, or a VRM humanoid bone's name (`leftUpperArm`); empty
    /// when none, or the same. Shown beside the joint's name and matched by the filter.
    pub name_en: Vec<String>,
    /// The display name and the English one, lowercased.
    pub lower: Vec<[String; 2]>,
    pub parents: Vec<Option<usize>>,
    /// Tree order with depths ([`tree_order`]).
    pub order: Vec<(usize, usize)>,
    /// The goal (the IK bone) of a chain.
    pub ik_goal: Vec<bool>,
    /// The effector a chain pulls to its goal.
    pub ik_target: Vec<bool>,
    /// A link a chain turns.
    pub ik_link: Vec<bool>,
    /// Takes a share of another joint's rotation or translation (MMD append, "付与").
    pub appended: Vec<bool>,
    /// Rigid bodies on the joint, by index into the model's bodies.
    pub bodies: Vec<Vec<usize>>,
    /// A body on it that physics moves (not only follows the bone).
    pub physics: Vec<bool>,
    /// Some vertex weighs it.
    pub weighted: Vec<bool>,
    /// Per rigid body: the physics joints whose first body it is (listed under it).
    pub links: Vec<Vec<usize>>,
    /// Per rigid body: its names and its links' names (Japanese and English), lowercased for the filter.
    pub body_lower: Vec<Vec<String>>,
    /// Rigid bodies on no joint of the skeleton.
    pub loose_bodies: Vec<usize>,
    /// Per morph: its name and English name, lowercased.
    pub morph_lower: Vec<[String; 2]>,
}

impl OutlineFacts {
    pub fn of(scene: &Scene) -> OutlineFacts {
        let sk = &scene.skeleton;
        let n = sk.len();
        let mut name_en = vec![String::new(); n];
        let mut bodies = vec![Vec::new(); n];
        let mut physics = vec![false; n];
        let (mut links, mut body_lower, mut loose_bodies) = (Vec::new(), Vec::new(), Vec::new());
        if let Some(mmd) = &scene.mmd {
            links = vec![Vec::new(); mmd.rigid_bodies.len()];
            for (k, joint) in mmd.joints.iter().enumerate() {
                if let Some(l) = joint.bodies[0].and_then(|b| links.get_mut(b)) {
                    l.push(k);
                }
            }
            body_lower = mmd
                .rigid_bodies
                .iter()
                .zip(&links)
                .map(|(r, l)| {
                    let own = [&r.name, &r.name_en].into_iter();
                    let hanging = l.iter().flat_map(|&k| [&mmd.joints[k].name, &mmd.joints[k].name_en]);
                    own.chain(hanging).map(|n| lower(n)).collect()
                })
                .collect();
            for b in &mmd.bones {
                if b.joint < n && !b.name_en.is_empty() && b.name_en != b.name {
                    name_en[b.joint] = b.name_en.clone();
                }
            }
            for (i, body) in mmd.rigid_bodies.iter().enumerate() {
                let Some(j) = body.bone.and_then(|b| mmd.bones.get(b)).map(|b| b.joint).filter(|&j| j < n) else {
                    loose_bodies.push(i);
                    continue;
                };
                bodies[j].push(i);
                // Mode 0 follows the bone; 1 and 2 are moved by physics.
                physics[j] |= body.mode != 0;
            }
        }
        if let Some(vrm) = scene.vrm.as_deref() {
            for b in &vrm.humanoid {
                if let Some(j) = b.joint.filter(|&j| j < n && sk.joints[j].name != b.name) {
                    name_en[j] = b.name.clone();
                }
            }
        }
        let joint_lower = (0..n).map(|i| [lower(&sk.display_name(i)), lower(&name_en[i])]).collect();
        let parents: Vec<Option<usize>> = sk.joints.iter().map(|j| j.parent).collect();
        let order = tree_order(&parents);
        let (mut ik_goal, mut ik_target, mut ik_link) = (vec![false; n], vec![false; n], vec![false; n]);
        for c in &scene.constraints.ik {
            if let Some(g) = ik_goal.get_mut(c.joint) {
                *g = true;
            }
            if let Some(t) = ik_target.get_mut(c.target) {
                *t = true;
            }
            for l in &c.links {
                if let Some(k) = ik_link.get_mut(l.joint) {
                    *k = true;
                }
            }
        }
        let mut appended = vec![false; n];
        for a in &scene.constraints.append {
            if let Some(x) = appended.get_mut(a.joint) {
                *x = true;
            }
        }
        let mut weighted = vec![false; n];
        if let (Some(joints), Some(weights)) = (&scene.vertices.joints, &scene.vertices.weights) {
            for (js, ws) in joints.iter().zip(weights) {
                for (&j, &w) in js.iter().zip(ws) {
                    if w > 0.0
                        && let Some(x) = weighted.get_mut(j as usize)
                    {
                        *x = true;
                    }
                }
            }
        }
        OutlineFacts {
            name_en,
            lower: joint_lower,
            parents,
            order,
            ik_goal,
            ik_target,
            ik_link,
            appended,
            bodies,
            physics,
            weighted,
            links,
            body_lower,
            loose_bodies,
            morph_lower: scene.morphs.iter().map(|m| [lower(&m.name), lower(&m.name_en)]).collect(),
        }
    }

    /// Moved by IK, or one of a chain's ends (the IK quick filter).
    pub fn ik(&self, j: usize) -> bool {
        self.ik_goal[j] || self.ik_target[j] || self.ik_link[j]
    }
}

/// Per clip: the joints and morphs it moves, by index into the scene's: keys that hold one value all along (a
/// motion that keys every bone once at frame 0) don't count, as a sampled clip's joint that never changes
/// doesn't.
#[derive(Debug, Default)]
pub struct ClipKeys {
    pub joints: Vec<bool>,
    pub morphs: Vec<bool>,
}

impl ClipKeys {
    pub fn of(scene: &Scene, clip: usize) -> ClipKeys {
        let n = scene.skeleton.len();
        let mut joints = vec![false; n];
        let mut morphs = vec![false; scene.morphs.len()];
        let Some(c) = scene.clips.get(clip) else { return ClipKeys { joints, morphs } };
        match &c.data {
            ClipData::Sampled { joints: count, frames } if *count > 0 => {
                let first = &frames[..(*count).min(frames.len())];
                for f in frames.chunks_exact(*count).skip(1) {
                    for (j, (a, b)) in first.iter().zip(f).enumerate() {
                        if j < n && !joints[j] && !same(a, b) {
                            joints[j] = true;
                        }
                    }
                }
            }
            ClipData::Sampled { .. } => {}
            ClipData::Keyed { tracks } => {
                for t in tracks {
                    let moves = varies(&t.translation, same_vec)
                        || varies(&t.rotation, same_turn)
                        || varies(&t.scale, same_vec);
                    if moves && let Some(k) = joints.get_mut(t.joint) {
                        *k = true;
                    }
                }
            }
        }
        for t in c.morphs.iter().filter(|t| varies(&t.keys, same_weight)) {
            for (i, m) in scene.morphs.iter().enumerate() {
                if m.name == t.name {
                    morphs[i] = true;
                }
            }
        }
        ClipKeys { joints, morphs }
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::scene::{Clip, Interpolation, Track, TrackMode};

    fn track(joint: usize, rotation: [Quat; 2]) -> Track {
        Track {
            joint,
            mode: TrackMode::Replace,
            interpolation: Interpolation::Linear,
            translation: vec![Key { time: 0.0, value: Vec3::ZERO }],
            rotation: vec![Key { time: 0.0, value: rotation[0] }, Key { time: 1.0, value: rotation[1] }],
            scale: Vec::new(),
            ease: None,
        }
    }

    #[test]
    fn a_clip_keys_only_the_joints_whose_keys_change() {
        let bytes = crate::synth::document(crate::synth::SynthSpec { vertices: 60, joints: 4, frames: 3 }).to_bytes();
        let mut scene = crate::load_bytes("synth.iqm", &bytes).unwrap();
        let turned = Quat::from_rotation_y(0.5);
        // Joint 0 keyed twice with one value (a motion keying every bone at frame 0 and again later), joint 1
        // turning, joint 2 keyed with its sign flipped only (the same turn), joint 3 not keyed; a track for a
        // joint the model lacks is ignored.
        let tracks = vec![
            track(0, [Quat::IDENTITY, Quat::IDENTITY]),
            track(1, [Quat::IDENTITY, turned]),
            track(2, [turned, -turned]),
            track(9, [Quat::IDENTITY, turned]),
        ];
        scene.clips = vec![Clip::new("keyed", 30.0, false, 30, ClipData::Keyed { tracks })];
        assert_eq!(ClipKeys::of(&scene, 0).joints, [false, true, false, false]);
        assert!(ClipKeys::of(&scene, 7).joints.iter().all(|k| !k), "no such clip: nothing moves");
    }
}

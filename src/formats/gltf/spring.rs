//! Spring bones as VRM files declare them, read as three-vrm 3.5.5 reads them (`VRMSpringBoneLoaderPlugin`):
//!
//! - VRM 1.0's `VRMC_springBone` (`specification/VRMC_springBone-1.0`): colliders on nodes, collider groups,
//!   and springs whose consecutive joints make each pair a spring joint (the pair's first turns, the second is
//!   its tail; the last joint is a tail only), each pair with the settings of its first. Colliders may carry
//!   `VRMC_springBone_extended_collider` (inside spheres and capsules, planes), which replaces their shape.
//! - VRM 0.x's `secondaryAnimation`: bone groups whose `bones` are chain roots, every node under a root a spring
//!   joint with its first child as its tail (a leaf: a virtual tail 7 cm along its offset), and collider
//!   groups of spheres on one node each, whose offsets' z is negated ("z is opposite in VRM0.0", three-vrm).
//!
//! Everything malformed is a warning, never an error: the glTF underneath still opens. The nodes named here
//! become joints ([`nodes`]) whether or not they move a vertex.

use glam::Vec3;
use serde_json::Value;

use crate::error::Warning;
use crate::scene::{Collider, ColliderGroup, ColliderShape, SpringChain, SpringJoint, Springs};

/// Every node the springs name: the joints, tails, centres and the colliders' nodes (VRM 0.x: every node under a
/// chain's root).
pub fn nodes(root: &Value) -> Vec<usize> {
    let mut out = Vec::new();
    let node = |v: &Value| v.get("node").and_then(as_index);
    if let Some(s) = root.pointer("/extensions/VRMC_springBone") {
        out.extend(array(s, "colliders").filter_map(node));
        for spring in array(s, "springs") {
            out.extend(array(spring, "joints").filter_map(node));
            out.extend(spring.get("center").and_then(as_index));
        }
    }
    if let Some(s) = root.pointer("/extensions/VRM/secondaryAnimation") {
        out.extend(array(s, "colliderGroups").filter_map(node));
        for group in array(s, "boneGroups") {
            for r in array(group, "bones").filter_map(as_index) {
                out.extend(subtree(root, r).into_iter().map(|(n, _)| n));
            }
            out.extend(group.get("center").and_then(as_index));
        }
    }
    out
}

/// The springs of a glTF whose JSON is `root`, by the scene's joints (`joint_of_node`); `None` without any.
pub fn read(root: &Value, joint_of_node: &[Option<usize>], w: &mut Vec<Warning>) -> Option<Springs> {
    let mut reader = Reader { joint_of_node, w, missing: Vec::new() };
    let springs =
        match (root.pointer("/extensions/VRMC_springBone"), root.pointer("/extensions/VRM/secondaryAnimation")) {
            (Some(s), _) if s.is_object() => reader.v1(s),
            (_, Some(s)) if s.is_object() => reader.v0(root, s),
            _ => return None,
        };
    if !reader.missing.is_empty() {
        reader.missing.dedup();
        let message =
            format!("spring bones name nodes that are not in the file, skipped: {}", reader.missing.join(", "));
        super::warn(reader.w, "vrm.spring.node", message);
    }
    Some(springs).filter(|s| !s.is_empty())
}

struct Reader<'a> {
    joint_of_node: &'a [Option<usize>],
    w: &'a mut Vec<Warning>,
    /// What named a node that isn't there.
    missing: Vec<String>,
}

impl Reader<'_> {
    /// The scene joint of `node` as `what` names it (noted when there is none).
    fn joint(&mut self, node: Option<usize>, what: impl FnOnce() -> String) -> Option<usize> {
        let joint = node.and_then(|n| self.joint_of_node.get(n).copied().flatten());
        if joint.is_none() {
            self.missing.push(what());
        }
        joint
    }

    fn v1(&mut self, s: &Value) -> Springs {
        let mut out = Springs::default();
        // Collider indices as the file numbers them, to the ones kept.
        let mut kept: Vec<Option<usize>> = Vec::new();
        for (i, c) in array(s, "colliders").enumerate() {
            let joint = self.joint(c.get("node").and_then(as_index), || format!("collider {i}"));
            let extended = c.pointer("/extensions/VRMC_springBone_extended_collider/shape");
            let shape = extended.and_then(shape).or_else(|| c.get("shape").and_then(shape));
            let collider = joint.zip(shape).map(|(joint, shape)| Collider { joint, shape });
            kept.push(collider.map(|c| {
                out.colliders.push(c);
                out.colliders.len() - 1
            }));
        }
        for (i, g) in array(s, "colliderGroups").enumerate() {
            let colliders = array(g, "colliders").filter_map(as_index).filter_map(|c| kept.get(c).copied().flatten());
            let name = g.get("name").and_then(Value::as_str).map_or_else(|| format!("group {i}"), str::to_string);
            out.groups.push(ColliderGroup { name, colliders: colliders.collect() });
        }
        for (i, spring) in array(s, "springs").enumerate() {
            let name = spring.get("name").and_then(Value::as_str).map_or_else(|| format!("spring {i}"), str::to_string);
            let listed: Vec<&Value> = array(spring, "joints").collect();
            let mut joints = Vec::new();
            for (k, pair) in listed.windows(2).enumerate() {
                let head = self.joint(pair[0].get("node").and_then(as_index), || format!("{name}, joint {k}"));
                let tail = self.joint(pair[1].get("node").and_then(as_index), || format!("{name}, joint {}", k + 1));
                if let (Some(head), Some(tail)) = (head, tail) {
                    joints.push(settings(SpringJoint::new(head, Some(tail)), pair[0], "stiffness"));
                }
            }
            let groups = array(spring, "colliderGroups").filter_map(as_index).filter(|&g| g < out.groups.len());
            let center = spring.get("center").and_then(as_index);
            let center = center.and_then(|c| self.joint(Some(c), || format!("{name}, centre")));
            out.chains.push(SpringChain { name, joints, groups: groups.collect(), center });
        }
        out
    }

    fn v0(&mut self, root: &Value, s: &Value) -> Springs {
        let mut out = Springs::default();
        for (i, g) in array(s, "colliderGroups").enumerate() {
            let Some(joint) = self.joint(g.get("node").and_then(as_index), || format!("collider group {i}")) else {
                out.groups.push(ColliderGroup { name: format!("group {i}"), colliders: Vec::new() });
                continue;
            };
            let first = out.colliders.len();
            for c in array(g, "colliders") {
                let v = |k: &str| c.pointer(&format!("/offset/{k}")).and_then(Value::as_f64).unwrap_or(0.0) as f32;
                let radius = c.get("radius").and_then(Value::as_f64).unwrap_or(0.0) as f32;
                let offset = Vec3::new(v("x"), v("y"), -v("z"));
                out.colliders.push(Collider { joint, shape: ColliderShape::Sphere { offset, radius, inside: false } });
            }
            out.groups
                .push(ColliderGroup { name: format!("group {i}"), colliders: (first..out.colliders.len()).collect() });
        }
        for (i, g) in array(s, "boneGroups").enumerate() {
            let name = g.get("comment").and_then(Value::as_str).filter(|c| !c.is_empty());
            let name = name.map_or_else(|| format!("bone group {i}"), str::to_string);
            let mut gravity_dir = Vec3::NEG_Y;
            if let Some(d) = g.get("gravityDir") {
                let v = |k: &str| d.get(k).and_then(Value::as_f64).unwrap_or(0.0) as f32;
                gravity_dir = Vec3::new(v("x"), v("y"), v("z"));
            }
            let center = g.get("center").and_then(as_index).filter(|&c| c != usize::MAX);
            let center = center.and_then(|c| self.joint(Some(c), || format!("{name}, centre")));
            let groups: Vec<usize> =
                array(g, "colliderGroups").filter_map(as_index).filter(|&c| c < out.groups.len()).collect();
            let mut joints = Vec::new();
            for r in array(g, "bones").filter_map(as_index) {
                for (node, child) in subtree(root, r) {
                    let Some(joint) = self.joint(Some(node), || format!("{name}, node {node}")) else { continue };
                    let tail = child.and_then(|c| self.joint(Some(c), || format!("{name}, node {c}")));
                    let mut j = settings(SpringJoint::new(joint, tail), g, "stiffiness");
                    j.gravity_dir = gravity_dir;
                    joints.push(j);
                }
            }
            out.chains.push(SpringChain { name, joints, groups, center });
        }
        out
    }
}

/// `j` with the settings `v` gives (what it leaves out keeps `j`'s), the stiffness under the key `stiffness`
/// (VRM 0.x spells it "stiffiness").
fn settings(mut j: SpringJoint, v: &Value, stiffness: &str) -> SpringJoint {
    let number = |k: &str| v.get(k).and_then(Value::as_f64).map(|x| x as f32).filter(|x| x.is_finite());
    j.hit_radius = number("hitRadius").unwrap_or(j.hit_radius).max(0.0);
    j.stiffness = number(stiffness).unwrap_or(j.stiffness);
    j.gravity_power = number("gravityPower").unwrap_or(j.gravity_power);
    j.drag = number("dragForce").unwrap_or(j.drag).clamp(0.0, 1.0);
    if let Some(d) = v.get("gravityDir").and_then(vec3) {
        j.gravity_dir = d;
    }
    j
}

/// A collider shape (`sphere`, `capsule` or, extended, `plane`).
fn shape(v: &Value) -> Option<ColliderShape> {
    let number = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64).map_or(0.0, |x| x as f32);
    let offset = |v: &Value| v.get("offset").and_then(vec3).unwrap_or(Vec3::ZERO);
    let inside = |v: &Value| v.get("inside").and_then(Value::as_bool).unwrap_or(false);
    if let Some(s) = v.get("sphere") {
        return Some(ColliderShape::Sphere { offset: offset(s), radius: number(s, "radius"), inside: inside(s) });
    }
    if let Some(c) = v.get("capsule") {
        let tail = c.get("tail").and_then(vec3).unwrap_or(Vec3::ZERO);
        return Some(ColliderShape::Capsule {
            offset: offset(c),
            tail,
            radius: number(c, "radius"),
            inside: inside(c),
        });
    }
    let p = v.get("plane")?;
    Some(ColliderShape::Plane { offset: offset(p), normal: p.get("normal").and_then(vec3).unwrap_or(Vec3::Z) })
}

/// The nodes under `root` (itself first, depth first, children in order) with each one's first child.
fn subtree(json: &Value, root: usize) -> Vec<(usize, Option<usize>)> {
    let nodes = json.get("nodes").and_then(Value::as_array);
    let children = |n: usize| -> Vec<usize> {
        nodes
            .and_then(|all| all.get(n))
            .map_or_else(Vec::new, |node| array(node, "children").filter_map(as_index).collect())
    };
    let count = nodes.map_or(0, Vec::len);
    let mut out = Vec::new();
    let mut stack = vec![root];
    // A node listed twice (a malformed graph) is visited once.
    let mut seen = vec![false; count];
    while let Some(n) = stack.pop() {
        if n >= count || std::mem::replace(&mut seen[n], true) {
            continue;
        }
        let kids = children(n);
        out.push((n, kids.first().copied()));
        stack.extend(kids.into_iter().rev());
    }
    out
}

fn array<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn as_index(v: &Value) -> Option<usize> {
    v.as_u64().and_then(|n| usize::try_from(n).ok())
}

fn vec3(v: &Value) -> Option<Vec3> {
    let a = v.as_array().filter(|a| a.len() == 3)?;
    let f = |i: usize| a[i].as_f64().map(|x| x as f32).filter(|x| x.is_finite());
    Some(Vec3::new(f(0)?, f(1)?, f(2)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vrm1_chain_pairs_its_joints_and_extended_shapes_win() {
        let root: Value = serde_json::json!({
            "nodes": [{}, {}, {}, {}],
            "extensions": {"VRMC_springBone": {
                "colliders": [
                    {"node": 3, "shape": {"sphere": {"radius": 0.5}},
                     "extensions": {"VRMC_springBone_extended_collider": {"shape": {"plane": {"offset": [0, 1, 0], "normal": [0, 1, 0]}}}}},
                    {"node": 9, "shape": {"sphere": {"radius": 0.5}}}
                ],
                "colliderGroups": [{"colliders": [0, 1]}],
                "springs": [{"joints": [{"node": 0, "stiffness": 2.0, "dragForce": 0.1}, {"node": 1}, {"node": 2}], "colliderGroups": [0]}]
            }}
        });
        let joint_of_node = [Some(0), Some(1), Some(2), Some(3)];
        let mut w = Vec::new();
        let s = read(&root, &joint_of_node, &mut w).unwrap();
        assert_eq!(s.colliders.len(), 1, "the collider on a missing node is skipped");
        assert!(matches!(s.colliders[0].shape, ColliderShape::Plane { normal, .. } if normal == Vec3::Y));
        assert_eq!(s.groups[0].colliders, vec![0]);
        let c = &s.chains[0];
        assert_eq!(c.joints.len(), 2, "three joints, two springs");
        assert_eq!(
            (c.joints[0].joint, c.joints[0].tail, c.joints[0].stiffness, c.joints[0].drag),
            (0, Some(1), 2.0, 0.1)
        );
        assert_eq!((c.joints[1].stiffness, c.joints[1].drag), (1.0, 0.4), "three-vrm's defaults");
        assert!(w.iter().any(|w| w.rule == "vrm.spring.node" && w.message.contains("collider 1")), "{w:?}");
        assert_eq!(nodes(&root), vec![3, 9, 0, 1, 2]);
    }

    #[test]
    fn a_vrm0_group_makes_every_node_under_its_roots_a_joint() {
        let root: Value = serde_json::json!({
            "nodes": [{"children": [1]}, {"children": [2, 3]}, {}, {}],
            "extensions": {"VRM": {"secondaryAnimation": {
                "colliderGroups": [{"node": 0, "colliders": [{"offset": {"x": 1, "y": 2, "z": 3}, "radius": 0.1}]}],
                "boneGroups": [{"bones": [1], "stiffiness": 0.5, "gravityPower": 0.2, "gravityDir": {"x": 0, "y": 0, "z": 1}, "colliderGroups": [0]}]
            }}}
        });
        let joint_of_node = [Some(0), Some(1), Some(2), Some(3)];
        let s = read(&root, &joint_of_node, &mut Vec::new()).unwrap();
        let chain: Vec<(usize, Option<usize>)> = s.chains[0].joints.iter().map(|j| (j.joint, j.tail)).collect();
        assert_eq!(chain, vec![(1, Some(2)), (2, None), (3, None)]);
        assert_eq!(s.chains[0].joints[0].stiffness, 0.5);
        assert_eq!(s.chains[0].joints[0].gravity_dir, Vec3::Z);
        assert!(
            matches!(s.colliders[0].shape, ColliderShape::Sphere { offset, .. } if offset == Vec3::new(1.0, 2.0, -3.0))
        );
        assert_eq!(nodes(&root), vec![0, 1, 2, 3]);
    }
}

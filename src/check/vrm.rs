//! Checks on a VRM avatar's humanoid and meta: a required humanoid bone the file doesn't map (retargeting and
//! VRMA motions have nothing to drive), a humanoid bone with a non-positive scale (VRM 1.0 requires positive
//! scale), a bone listed twice, and licence fields absent (VRM 1.0's meta requires `name`, `authors` and
//! `licenseUrl`; VRM 0.x's meta names its licence in `licenseName`), and a VRM 0.x node with a rotation at rest
//! (the 0.x specification's T-pose has none). Spring bones: a joint in two chains
//! (`VRMC_springBone` forbids it; the chains would fight over it), and a collider a chain names that none of its
//! joints can reach from where the rest pose puts them, whichever way they swing (a group listed on the wrong
//! chain, or a collider offset in the wrong units). First person: a mesh annotated `both` or `firstPersonOnly`
//! whose vertices move with the head (a first-person camera sits inside the head: the wearer sees the inside of
//! their own face; `auto` cuts those triangles away, `thirdPersonOnly` hides the mesh).

use super::{Finding, Place, Severity};
use crate::scene::Scene;

fn finding(file: &str, rule: &str, severity: Severity, joint: Option<usize>, message: String) -> Finding {
    let place = Place { joint, ..Default::default() };
    Finding { file: file.to_string(), rule: rule.to_string(), severity, place, message }
}

pub fn check(file: &str, scene: &Scene) -> Vec<Finding> {
    let mut out = springs(file, scene);
    let Some(vrm) = scene.vrm.as_deref() else { return out };
    out.extend(first_person(file, scene, vrm));
    let missing = vrm.missing_required();
    if !missing.is_empty() {
        let message = format!(
            "required humanoid bone(s) not mapped to a joint: {}; retargeted motions can't drive them",
            missing.join(", ")
        );
        out.push(finding(file, "vrm.humanoid.missing", Severity::Error, None, message));
    }
    for (i, b) in vrm.humanoid.iter().enumerate() {
        if vrm.humanoid[..i].iter().any(|a| a.name == b.name) {
            let message = format!("humanoid bone {} is listed twice; the first is used", b.name);
            out.push(finding(file, "vrm.humanoid.duplicate", Severity::Warning, b.joint, message));
        }
        let Some(j) = b.joint.filter(|&j| j < scene.skeleton.len()) else { continue };
        let scale = scene.skeleton.joints[j].bind.scale;
        if scale.min_element() <= 0.0 || !scale.is_finite() {
            let message = format!(
                "humanoid bone {} (joint \"{}\") has scale {:?}; VRM asks for positive scale on every bone",
                b.name,
                scene.skeleton.joints[j].name,
                scale.to_array()
            );
            out.push(finding(file, "vrm.humanoid.scale", Severity::Warning, Some(j), message));
        }
    }
    if vrm.major == 0 {
        out.extend(v0_rotations(file, scene));
    }
    let required: &[&str] =
        if vrm.major == 0 { &["title", "author", "licenseName"] } else { &["name", "authors", "licenseUrl"] };
    let absent: Vec<&str> = required.iter().copied().filter(|k| vrm.meta_value(k).is_none()).collect();
    if !absent.is_empty() {
        let message = format!(
            "meta field(s) {} absent: who made the avatar and under which licence it may be used can't be shown",
            absent.join(", ")
        );
        out.push(finding(file, "vrm.meta.missing", Severity::Warning, None, message));
    }
    out
}

/// Meshes a first-person camera shows (`both`, `firstPersonOnly`) though some of their vertices move with the
/// head or a joint under it.
fn first_person(file: &str, scene: &Scene, vrm: &crate::scene::VrmInfo) -> Vec<Finding> {
    let Some(head) = vrm.bone("head").filter(|&h| h < scene.skeleton.len()) else { return Vec::new() };
    let under_head: Vec<bool> = (0..scene.skeleton.len())
        .map(|j| std::iter::successors(Some(j), |&k| scene.skeleton.joints[k].parent).any(|k| k == head))
        .collect();
    let (Some(joints), Some(weights)) = (&scene.vertices.joints, &scene.vertices.weights) else { return Vec::new() };
    let mut out = Vec::new();
    for f in vrm.first_person.iter().filter(|f| f.kind == "both" || f.kind == "firstPersonOnly") {
        let headed: usize = f
            .meshes
            .iter()
            .filter_map(|&m| scene.meshes.get(m))
            .map(|m| {
                let range = m.first_vertex as usize..(m.first_vertex + m.num_vertices) as usize;
                let on_head = |(j, w): (&[u32; 4], &[f32; 4])| {
                    j.iter().zip(w).any(|(&j, &w)| w > 0.0 && under_head.get(j as usize).copied().unwrap_or(false))
                };
                let (j, w) = (joints.get(range.clone()).unwrap_or(&[]), weights.get(range).unwrap_or(&[]));
                j.iter().zip(w).filter(|&v| on_head(v)).count()
            })
            .sum();
        if headed > 0 {
            let message = format!(
                "mesh \"{}\" is shown to a first-person camera ({}) but {headed} of its vertices move with the head; \
                 the wearer sees the inside of their own head (mark it auto or thirdPersonOnly)",
                f.name, f.kind
            );
            out.push(finding(file, "vrm.first_person.head", Severity::Warning, Some(head), message));
        }
    }
    out
}

/// VRM 0.x's rule that the model's nodes carry no rotation at rest (the 0.x specification's T-pose is the
/// nodes' translations alone; UniVRM's exporter bakes rotations away, and 0.x players, spring bones and
/// retargeting assume it): one finding naming the joints that do, the first of them its place.
fn v0_rotations(file: &str, scene: &Scene) -> Option<Finding> {
    // Below this a rotation is float noise from an exporter's matrix decomposition.
    const NOISE: f32 = 1e-4;
    let turned: Vec<usize> = (0..scene.skeleton.len())
        .filter(|&j| {
            let q = scene.skeleton.joints[j].bind.rotation;
            2.0 * q.xyz().length().atan2(q.w.abs()) > NOISE
        })
        .collect();
    let first = *turned.first()?;
    let mut names: Vec<String> =
        turned.iter().take(5).map(|&j| format!("\"{}\"", scene.skeleton.display_name(j))).collect();
    if turned.len() > 5 {
        names.push(format!("and {} more", turned.len() - 5));
    }
    let message = format!(
        "{} joint(s) carry a rotation at rest ({}); VRM 0.x asks for none (a T-pose of translations alone), which \
         0.x players, spring bones and retargeting assume",
        turned.len(),
        names.join(", ")
    );
    Some(finding(file, "vrm.v0.rotation", Severity::Warning, Some(first), message))
}

/// The spring rules: joints in two chains, and colliders out of their chains' reach at rest.
fn springs(file: &str, scene: &Scene) -> Vec<Finding> {
    use crate::scene::ColliderShape;
    let Some(springs) = scene.springs.as_deref() else { return Vec::new() };
    let mut out = Vec::new();
    let name = |j: usize| scene.skeleton.display_name(j);
    let mut seen: Vec<(usize, &str)> = Vec::new();
    for chain in &springs.chains {
        for j in &chain.joints {
            match seen.iter().find(|(s, _)| *s == j.joint) {
                Some((_, first)) => {
                    let message = format!(
                        "joint \"{}\" is in spring chains \"{first}\" and \"{}\"; only the first turns it",
                        name(j.joint),
                        chain.name
                    );
                    out.push(finding(file, "vrm.spring.duplicate", Severity::Warning, Some(j.joint), message));
                }
                None => seen.push((j.joint, chain.name.as_str())),
            }
        }
    }
    let rest = &scene.skeleton.bind_world;
    let at = |j: usize| rest.get(j).map(|m| m.w_axis.truncate());
    for chain in &springs.chains {
        // Each joint's head, and how far its tail can swing from it (the bone's length and the tail's radius).
        let reach: Vec<(glam::Vec3, f32)> = chain
            .joints
            .iter()
            .filter_map(|j| {
                let head = at(j.joint)?;
                let tail = j.tail.and_then(at).unwrap_or(head);
                Some((head, head.distance(tail).max(crate::scene::LEAF_TAIL) + j.hit_radius))
            })
            .collect();
        let colliders = chain.groups.iter().filter_map(|&g| springs.groups.get(g)).flat_map(|g| &g.colliders);
        for &c in colliders {
            let Some(collider) = springs.colliders.get(c) else { continue };
            let Some(m) = rest.get(collider.joint) else { continue };
            // How far a head is from the collider's surface, as the step measures it (inside shapes always hold
            // their joints).
            let gap = |p: glam::Vec3| match collider.shape {
                ColliderShape::Sphere { inside: true, .. } | ColliderShape::Capsule { inside: true, .. } => 0.0,
                shape => crate::physics::spring::collide(shape, m, p, 0.0).0,
            };
            if !reach.is_empty() && reach.iter().all(|&(head, r)| gap(head) > r) {
                let root = chain.joints.first().map(|j| j.joint);
                let message = format!(
                    "spring chain \"{}\" names collider {c} (on joint \"{}\"), which none of its joints can reach \
                     from the rest pose however they swing",
                    chain.name,
                    name(collider.joint)
                );
                out.push(finding(file, "vrm.spring.collider.unreachable", Severity::Warning, root, message));
            }
        }
    }
    out
}

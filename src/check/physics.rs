//! Checks on a PMX/PMD model's rigid bodies and joints: what the simulation can't use or would blow up on. A
//! body on a missing bone, a joint on a missing body or linking a body to itself, shapes with no size, simulated
//! bodies with no positive mass, jointed bodies that overlap and collide with each other at rest (they push
//! apart from the first step), and bodies that jump more than their own size in the first step after a reset at
//! the bind pose.

use glam::Vec3;

use super::{Finding, Place, Severity};
use crate::physics::{PhysicsSettings, Rig, Shape, Simulation};
use crate::scene::Scene;

/// A finding on rigid body `body` (its index in the file; the Problems list selects it) or on the rig as a whole,
/// placed at the bone `joint` it rides on.
fn finding(file: &str, rule: &str, (joint, body): (Option<usize>, Option<usize>), message: String) -> Finding {
    let place = Place { joint, body, ..Default::default() };
    Finding { file: file.to_string(), rule: rule.to_string(), severity: Severity::Warning, place, message }
}

pub fn check(file: &str, scene: &Scene) -> Vec<Finding> {
    let Some(mmd) = scene.mmd.as_deref() else { return Vec::new() };
    let mut out = Vec::new();
    let n = mmd.rigid_bodies.len();
    for (i, r) in mmd.rigid_bodies.iter().enumerate() {
        let joint = r.bone.and_then(|b| mmd.bones.get(b)).map(|b| b.joint);
        if let Some(b) = r.bone.filter(|&b| b >= mmd.bones.len()) {
            out.push(finding(
                file,
                "mmd.body.bone_missing",
                (None, Some(i)),
                format!(
                    "rigid body {i} \"{}\" is on bone {b}, which doesn't exist; it stays where the file puts it",
                    r.name
                ),
            ));
        }
        if Shape::from_file(r.shape, r.size).is_none_or(|s| s.is_empty()) || !r.size.is_finite() {
            out.push(finding(
                file,
                "mmd.body.zero_size",
                (joint, Some(i)),
                format!(
                    "rigid body {i} \"{}\" has no size (shape {}, size {:?}); it can't touch anything",
                    r.name,
                    r.shape,
                    r.size.to_array()
                ),
            ));
        }
        if r.mode != 0 && !(r.mass > 0.0 && r.mass.is_finite()) {
            out.push(finding(
                file,
                "mmd.body.mass",
                (joint, Some(i)),
                format!(
                    "rigid body {i} \"{}\" is simulated but its mass is {}; it follows its bone instead",
                    r.name, r.mass
                ),
            ));
        }
    }
    for (k, j) in mmd.joints.iter().enumerate() {
        match j.bodies {
            [Some(a), Some(b)] if a < n && b < n && a == b => out.push(finding(
                file,
                "mmd.joint.self",
                (None, Some(a)),
                format!("joint {k} \"{}\" links rigid body {a} to itself; it is ignored", j.name),
            )),
            [Some(a), Some(b)] if a < n && b < n => {}
            bodies => out.push(finding(
                file,
                "mmd.joint.body_missing",
                (None, None),
                format!(
                    "joint {k} \"{}\" links rigid bodies {:?}, of {n}; it is ignored",
                    j.name,
                    bodies.map(|b| b.map_or(-1, |b| b as i64))
                ),
            )),
        }
    }
    let Some(rig) = Rig::of_scene(scene) else { return out };
    for joint in &rig.joints {
        let [a, b] = joint.bodies;
        let (ba, bb) = (&rig.bodies[a], &rig.bodies[b]);
        let collide = (ba.group & bb.mask) != 0 && (bb.group & ba.mask) != 0;
        if collide
            && (ba.simulated() || bb.simulated())
            && let Some(depth) = overlap(ba, bb)
        {
            out.push(finding(file, "mmd.joint.bodies_collide", (ba.joint, Some(a)), format!("jointed rigid bodies \"{}\" and \"{}\" overlap by {depth:.3} at rest and collide with each other (each one's mask takes the other's group); they push apart from the first step", ba.name, bb.name)));
        }
    }
    first_step_jumps(file, scene, &rig, &mut out);
    out
}

/// A shape as a segment with a radius (boxes as the sphere inside them, so an overlap found is real).
fn capsule_of(b: &crate::physics::Body) -> (Vec3, Vec3, f32) {
    let (_, rotation, centre) = b.rest.to_scale_rotation_translation();
    match b.shape {
        Shape::Sphere { radius } => (centre, centre, radius),
        Shape::Box { half } => (centre, centre, half.min_element()),
        Shape::Capsule { radius, half_height } => {
            let axis = rotation * Vec3::Y * half_height;
            (centre - axis, centre + axis, radius)
        }
    }
}

/// How deep two bodies overlap at rest, when they do by more than a tenth of the smaller one's radius.
fn overlap(a: &crate::physics::Body, b: &crate::physics::Body) -> Option<f32> {
    let (a0, a1, ra) = capsule_of(a);
    let (b0, b1, rb) = capsule_of(b);
    let depth = ra + rb - segment_distance(a0, a1, b0, b1);
    (depth > 0.1 * ra.min(rb) && ra > 0.0 && rb > 0.0).then_some(depth)
}

/// The distance between segments p0–p1 and q0–q1.
fn segment_distance(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3) -> f32 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t) = if a <= 1e-12 && e <= 1e-12 {
        (0.0, 0.0)
    } else if a <= 1e-12 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= 1e-12 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > 1e-12 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    ((p0 + d1 * s) - (q0 + d2 * t)).length()
}

/// Bodies that move more than their own size in the first 1/60 s step after a reset at the bind pose: a rig that
/// explodes as soon as it is simulated.
fn first_step_jumps(file: &str, scene: &Scene, rig: &Rig, out: &mut Vec<Finding>) {
    let settings = PhysicsSettings { warmup_steps: 0, ..PhysicsSettings::default() };
    let Some(mut sim) = Simulation::new(scene, settings) else { return };
    let input = crate::anim::PoseInput::at(None, 0.0, crate::scene::DEFAULT_FPS);
    crate::physics::frame_pose(scene, Some(&mut sim), &input, crate::physics::Seek::Held);
    let before = sim.places();
    sim.step_once();
    let after = sim.places();
    let jumped: Vec<(usize, f32)> = rig
        .bodies
        .iter()
        .enumerate()
        .filter(|(_, b)| b.simulated())
        .map(|(i, b)| (i, (after[i].position - before[i].position).length() / b.shape.extent().max(1e-3)))
        .filter(|&(_, ratio)| ratio > 1.0 || ratio.is_nan())
        .collect();
    if let Some(&(worst, ratio)) = jumped.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
        let b = &rig.bodies[worst];
        out.push(finding(file, "mmd.physics.first_step_jump", (b.joint, Some(worst)), format!("{} rigid bodies move more than their own size in the first step after a reset at the bind pose (worst: \"{}\", {ratio:.1} times its size): the rig explodes when simulated", jumped.len(), b.name)));
    }
}

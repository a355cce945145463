//! VRM spring bones through time, stepped as three-vrm 3.5.5 steps them (`VRMSpringBoneJoint.update`, the
//! reference `tests/vrm_reference.rs` compares with; `../shared/notes/vrm.md` §2 has the formulas and where the
//! spec, three-vrm and UniVRM part ways):
//!
//! - A joint's tail moves by Verlet inertia kept in its chain's centre space (`(cur − prev)·(1 − drag)`), plus
//!   its rest direction times the stiffness and the gravity times its power, each times the step, in model
//!   space (three-vrm 3.5.5 and the spec; 3.1 took them in centre space).
//! - The tail is then put back at the bone's length from the joint's head, pushed out of each collider of the
//!   chain's groups (back to the length after each), and the joint turned from its rest rotation to point at it.
//! - The bone's length is measured each step from the head now to where the tail was at the end of the step
//!   before, as three-vrm measures it from world matrices it refreshes once a frame (a root that moves makes
//!   the length wrong by its move; the spec keeps the rest length, UniVRM the scaled rest length). A VRM 0.x
//!   leaf's virtual tail is 7 cm along its own offset, in its current frame.
//! - Joints go parents first (the skeleton's order), so a chain's joint sees its parent already turned; the
//!   colliders' places are those of this step, springs included. Collider radii are not scaled by the joint's
//!   scale (three-vrm), and a capsule pushes the tail from the point of its axis nearest to the tail (the spec
//!   and three-vrm; UniVRM takes the nearest to the head).
//!
//! Steps scale displacements, not accelerations, so what a spring does depends on the step: callers use a
//! fixed one (`PhysicsSettings::step`).

use glam::{Mat3, Mat4, Quat, Vec3};

use crate::anim::Pose;
use crate::scene::{ColliderShape, LEAF_TAIL, Scene, SpringJoint};

/// A scene's spring joints and their state: where each tail is and was.
#[derive(Debug, Clone)]
pub struct SpringSim {
    joints: Vec<Active>,
    /// Per skeleton joint, its children: a turned joint's descendants move with it.
    children: Vec<Vec<usize>>,
}

/// One spring joint: what the file and the rest pose give, and its state.
#[derive(Debug, Clone)]
struct Active {
    def: SpringJoint,
    parent: Option<usize>,
    center: Option<usize>,
    /// The colliders of its chain's groups, by index into `Springs::colliders`.
    colliders: Vec<usize>,
    /// The joint's rest transform relative to its parent, and its rest rotation.
    rest_local: Mat4,
    rest_rotation: Quat,
    /// The tail in the joint's rest frame, and its direction.
    child_local: Vec3,
    axis: Vec3,
    /// The tail now and one step ago, in the centre's space.
    cur: Vec3,
    prev: Vec3,
    /// Where the tail was at the end of the last step, model space (the bone's length is measured to it).
    child_end: Vec3,
}

impl SpringSim {
    /// The springs of `scene` at rest; `None` without any.
    pub fn new(scene: &Scene) -> Option<SpringSim> {
        let springs = scene.springs.as_deref().filter(|s| !s.is_empty())?;
        let skeleton = &scene.skeleton;
        let mut joints: Vec<Active> = Vec::new();
        for chain in &springs.chains {
            let colliders: Vec<usize> = chain
                .groups
                .iter()
                .filter_map(|&g| springs.groups.get(g))
                .flat_map(|g| g.colliders.iter().copied())
                .filter(|&c| springs.colliders.get(c).is_some_and(|c| c.joint < skeleton.len()))
                .collect();
            for def in chain.joints.iter().filter(|j| j.joint < skeleton.len()) {
                // A joint in two chains is turned by the first (the spec forbids it; `check` names it).
                if joints.iter().any(|a| a.def.joint == def.joint) {
                    continue;
                }
                let bind = skeleton.joints[def.joint].bind;
                let child_local = match def.tail.and_then(|t| skeleton.joints.get(t)) {
                    Some(tail) => tail.bind.translation,
                    None => bind.translation.normalize_or_zero() * LEAF_TAIL,
                };
                joints.push(Active {
                    def: *def,
                    parent: skeleton.joints[def.joint].parent,
                    center: chain.center.filter(|&c| c < skeleton.len()),
                    colliders: colliders.clone(),
                    rest_local: bind.to_mat4(),
                    rest_rotation: bind.rotation,
                    child_local,
                    axis: child_local.normalize_or_zero(),
                    cur: Vec3::ZERO,
                    prev: Vec3::ZERO,
                    child_end: Vec3::ZERO,
                });
            }
        }
        if joints.is_empty() {
            return None;
        }
        // Parents first: the skeleton stores parents before their children.
        joints.sort_by_key(|a| a.def.joint);
        let mut children = vec![Vec::new(); skeleton.len()];
        for (i, j) in skeleton.joints.iter().enumerate() {
            if let Some(p) = j.parent.filter(|&p| p < i) {
                children[p].push(i);
            }
        }
        Some(SpringSim { joints, children })
    }

    /// Puts every tail where the rest direction points from `pose` (three-vrm's `reset`): at rest, no velocity.
    pub fn reset(&mut self, pose: &Pose) {
        for a in &mut self.joints {
            let parent = a.parent.and_then(|p| pose.world.get(p).copied()).unwrap_or(Mat4::IDENTITY);
            let translation = pose.locals.get(a.def.joint).map_or(Vec3::ZERO, |l| l.translation);
            let local = Mat4::from_scale_rotation_translation(
                pose.locals.get(a.def.joint).map_or(Vec3::ONE, |l| l.scale),
                a.rest_rotation,
                translation,
            );
            let tail = (parent * local).transform_point3(a.child_local);
            let to_center = a.center.and_then(|c| pose.world.get(c)).map_or(Mat4::IDENTITY, Mat4::inverse);
            a.cur = to_center.transform_point3(tail);
            a.prev = a.cur;
            a.child_end = tail;
        }
    }

    /// One step of `dt` seconds on `pose` (posed by the motion, constraints applied): each spring joint turned
    /// toward its tail, and every joint's world matrix brought in line (not the skinning matrices: the steps'
    /// pose is a scratch one, and [`SpringSim::apply`] builds them for the pose shown). `scene` must be the one
    /// the simulation was made for.
    pub fn step(&mut self, scene: &Scene, pose: &mut Pose, dt: f32) {
        let Some(springs) = scene.springs.as_deref() else { return };
        let n = scene.skeleton.len().min(pose.locals.len()).min(pose.world.len()).min(pose.palette.len());
        if dt <= 0.0 || n == 0 {
            return;
        }
        let mut stack = Vec::new();
        for a in self.joints.iter_mut().filter(|a| a.def.joint < n) {
            let j = a.def.joint;
            let parent = a.parent.map_or(Mat4::IDENTITY, |p| pose.world[p]);
            let head = (parent * pose.locals[j].to_mat4()).w_axis.truncate();
            let child = match a.def.tail {
                Some(_) => a.child_end,
                None => (parent * pose.locals[j].to_mat4()).transform_point3(a.child_local),
            };
            let length = head.distance(child);
            let axis = parent.transform_vector3(a.rest_local.transform_vector3(a.axis)).normalize_or_zero();
            let from_center = a.center.map_or(Mat4::IDENTITY, |c| pose.world[c]);
            let d = &a.def;
            let inertia = from_center.transform_point3(a.cur + (a.cur - a.prev) * (1.0 - d.drag));
            let mut next = inertia + axis * (d.stiffness * dt) + d.gravity_dir * (d.gravity_power * dt);
            next = head + (next - head).normalize_or_zero() * length;
            for c in a.colliders.iter().filter_map(|&c| springs.colliders.get(c)) {
                let Some(world) = pose.world.get(c.joint) else { continue };
                let (distance, push) = collide(c.shape, world, next, d.hit_radius);
                if distance < 0.0 {
                    next += push * -distance;
                    let off = next - head;
                    next = head + off * (length / off.length());
                }
            }
            a.prev = a.cur;
            a.cur = from_center.inverse().transform_point3(next);
            point(a, parent, next, scene, pose, &self.children, &mut stack);
        }
        // The tails' places as the step leaves them: the next step measures the bones' lengths to them.
        for a in self.joints.iter_mut().filter(|a| a.def.joint < n) {
            a.child_end = match a.def.tail.filter(|&t| t < n) {
                Some(t) => pose.world[t].w_axis.truncate(),
                None => pose.world[a.def.joint].transform_point3(a.child_local),
            };
        }
    }

    /// `count` steps of `dt` seconds from `pose`, on a copy of it (the pose shown is [`SpringSim::apply`]'s).
    pub fn steps(&mut self, scene: &Scene, pose: &Pose, count: u32, dt: f32) {
        if count == 0 {
            return;
        }
        let mut moving = pose.clone();
        for _ in 0..count {
            self.step(scene, &mut moving, dt);
        }
    }

    /// Turns each spring joint of `pose` toward its tail as the last step left it, without stepping: the pose
    /// shown between steps (the simulation's clock steps on the frames' pose, then shows this).
    pub fn apply(&self, scene: &Scene, pose: &mut Pose) {
        let n = scene.skeleton.len().min(pose.locals.len()).min(pose.world.len()).min(pose.palette.len());
        let mut stack = Vec::new();
        for a in self.joints.iter().filter(|a| a.def.joint < n) {
            let parent = a.parent.map_or(Mat4::IDENTITY, |p| pose.world[p]);
            let from_center = a.center.map_or(Mat4::IDENTITY, |c| pose.world[c]);
            point(a, parent, from_center.transform_point3(a.cur), scene, pose, &self.children, &mut stack);
        }
        palette(scene, pose, n);
    }

    /// Each spring joint with its tail now (model space) and the tail's hit radius, for the overlay.
    pub fn tails(&self, pose: &Pose) -> Vec<(usize, Vec3, f32)> {
        self.joints
            .iter()
            .map(|a| {
                let from_center = a.center.and_then(|c| pose.world.get(c)).copied().unwrap_or(Mat4::IDENTITY);
                (a.def.joint, from_center.transform_point3(a.cur), a.def.hit_radius)
            })
            .collect()
    }
}

/// Turns `a`'s joint (under `parent`) from its rest rotation to point at `tail` (model space), and brings its
/// descendants' world matrices along.
fn point(
    a: &Active,
    parent: Mat4,
    tail: Vec3,
    scene: &Scene,
    pose: &mut Pose,
    children: &[Vec<usize>],
    stack: &mut Vec<usize>,
) {
    let j = a.def.joint;
    let n = pose.world.len().min(children.len());
    let toward = (parent * a.rest_local).inverse().transform_point3(tail).normalize_or_zero();
    let turn = if toward == Vec3::ZERO || a.axis == Vec3::ZERO {
        Quat::IDENTITY
    } else {
        Quat::from_rotation_arc(a.axis, toward)
    };
    pose.locals[j].rotation = a.rest_rotation * turn;
    pose.world[j] = parent * pose.locals[j].to_mat4();
    // Its descendants move with it (later joints and the colliders read them).
    stack.clear();
    stack.extend(children[j].iter().copied().filter(|&k| k < n));
    while let Some(k) = stack.pop() {
        let p = scene.skeleton.joints[k].parent.map_or(Mat4::IDENTITY, |p| pose.world[p]);
        pose.world[k] = p * pose.locals[k].to_mat4();
        stack.extend(children[k].iter().copied().filter(|&c| c < n));
    }
}

/// The skinning matrices of the first `n` joints from their world matrices.
fn palette(scene: &Scene, pose: &mut Pose, n: usize) {
    for j in 0..n.min(pose.palette.len()) {
        pose.palette[j] = pose.world[j] * scene.skeleton.inverse_bind[j];
    }
}

/// How far `point`, a ball of `radius`, is from leaving `shape` on the joint placed at `world`, and which way
/// pushes it out (three-vrm's `calculateCollision`; the direction matters only for a negative distance).
pub(crate) fn collide(shape: ColliderShape, world: &Mat4, point: Vec3, radius: f32) -> (f32, Vec3) {
    let ball = |to: Vec3, r: f32, inside: bool| {
        let length = to.length();
        let distance = if inside { r - radius - length } else { length - radius - r };
        let dir = if distance < 0.0 { to / length } else { to };
        (distance, if inside && distance < 0.0 { -dir } else { dir })
    };
    match shape {
        ColliderShape::Sphere { offset, radius: r, inside } => ball(point - world.transform_point3(offset), r, inside),
        ColliderShape::Capsule { offset, tail, radius: r, inside } => {
            let head = world.transform_point3(offset);
            let axis = world.transform_vector3(tail - offset);
            let mut to = point - head;
            let dot = axis.dot(to);
            let length_sq = axis.length_squared();
            if dot > 0.0 {
                to -= if length_sq <= dot { axis } else { axis * (dot / length_sq) };
            }
            ball(to, r, inside)
        }
        ColliderShape::Plane { offset, normal } => {
            let to = point - world.transform_point3(offset);
            let n = (Mat3::from_mat4(*world).inverse().transpose() * normal).normalize_or_zero();
            (to.dot(n) - radius, n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain whose rest direction is straight down holds still without gravity, and under gravity sideways
    /// swings while every spring keeps its length to its tail.
    #[test]
    fn chains_hold_at_rest_and_keep_their_lengths_when_pulled() {
        let mut rig = crate::physics::fixtures::spring_rig(3, 4, 0);
        let rest = Pose::bind(&rig.skeleton);
        let mut sim = SpringSim::new(&rig).unwrap();
        sim.reset(&rest);
        let mut pose = rest.clone();
        for _ in 0..60 {
            sim.step(&rig, &mut pose, 1.0 / 60.0);
        }
        // The fixture's gravity (0.5, down) pulls along the rest direction: nothing turns.
        for (a, b) in pose.world.iter().zip(&rest.world) {
            assert!(a.w_axis.truncate().distance(b.w_axis.truncate()) < 1e-5);
        }
        for chain in &mut rig.springs.as_mut().unwrap().chains {
            for j in &mut chain.joints {
                j.gravity_dir = Vec3::X;
                j.gravity_power = 3.0;
            }
        }
        let mut sim = SpringSim::new(&rig).unwrap();
        sim.reset(&rest);
        // Each spring's length: its joint to its tail, as the simulation holds the tail.
        let lengths = |sim: &SpringSim, pose: &Pose| -> Vec<f32> {
            sim.tails(pose).iter().map(|&(j, tail, _)| tail.distance(pose.world[j].w_axis.truncate())).collect()
        };
        let rest_lengths = lengths(&sim, &rest);
        let mut pose = rest.clone();
        for _ in 0..60 {
            sim.step(&rig, &mut pose, 1.0 / 60.0);
        }
        let tip = rig.skeleton.find("hair 0.4").unwrap();
        let moved = pose.world[tip].w_axis.x - rest.world[tip].w_axis.x;
        assert!(moved > 0.05, "the tip swings toward +X: {moved}");
        assert!(!rest_lengths.is_empty());
        for (length, rest_length) in lengths(&sim, &pose).iter().zip(&rest_lengths) {
            assert!((length - rest_length).abs() < 1e-5, "{length} against {rest_length}");
        }
    }

    #[test]
    fn shapes_push_out_as_three_vrm_does() {
        let at = Mat4::from_translation(Vec3::new(1.0, 0.0, 0.0));
        let sphere = ColliderShape::Sphere { offset: Vec3::ZERO, radius: 0.5, inside: false };
        let (d, dir) = collide(sphere, &at, Vec3::new(1.5, 0.0, 0.0), 0.25);
        assert!((d + 0.25).abs() < 1e-6 && dir == Vec3::X);
        let inside = ColliderShape::Sphere { offset: Vec3::ZERO, radius: 1.0, inside: true };
        let (d, dir) = collide(inside, &at, Vec3::new(1.9, 0.0, 0.0), 0.25);
        assert!((d + 0.15).abs() < 1e-6 && dir == Vec3::NEG_X, "{d} {dir}");
        // A capsule along +Y from 0 to 2: a point beside its middle is pushed sideways, one past its end from the end.
        let capsule =
            ColliderShape::Capsule { offset: Vec3::ZERO, tail: Vec3::new(0.0, 2.0, 0.0), radius: 0.5, inside: false };
        let (d, dir) = collide(capsule, &at, Vec3::new(1.2, 1.0, 0.0), 0.0);
        assert!((d + 0.3).abs() < 1e-6 && (dir - Vec3::X).length() < 1e-6);
        let (d, _) = collide(capsule, &at, Vec3::new(1.0, 2.4, 0.0), 0.0);
        assert!((d + 0.1).abs() < 1e-6);
        let plane = ColliderShape::Plane { offset: Vec3::ZERO, normal: Vec3::Y };
        let (d, dir) = collide(plane, &at, Vec3::new(3.0, -0.2, 0.0), 0.1);
        assert!((d + 0.3).abs() < 1e-6 && dir == Vec3::Y);
    }
}

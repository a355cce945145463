//! A model's rigid bodies and joints as the simulation uses them, taken once from `Scene::mmd`: shapes, rest
//! transforms in model space (PMD bodies sit relative to their bone, or to bone 0 when they have none; PMX ones
//! in model space; rotations are
//! Euler angles applied Y, then X, then Z, as MikuMikuDance's runtimes read them), each body's offset from its
//! bone, the mode after MikuMikuDance's mode-2 demotion rule, and each joint's frames in its two bodies.
//! Records the simulation can't use (a joint on a missing body, or linking a body to itself) are skipped here
//! and reported by `check`.

use glam::{EulerRot, Mat4, Quat, Vec3};

use crate::scene::{Format, Scene};

/// A body's collision shape (MikuMikuDance units).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    Sphere {
        radius: f32,
    },
    /// Half extents along the body's axes.
    Box {
        half: Vec3,
    },
    /// Along the body's Y axis: `half_height` is half the distance between the two hemispheres' centres.
    Capsule {
        radius: f32,
        half_height: f32,
    },
}

impl Shape {
    /// From a PMX/PMD shape code and size; `None` for an unknown code.
    pub fn from_file(code: u8, size: Vec3) -> Option<Shape> {
        match code {
            0 => Some(Shape::Sphere { radius: size.x }),
            1 => Some(Shape::Box { half: size }),
            2 => Some(Shape::Capsule { radius: size.x, half_height: size.y / 2.0 }),
            _ => None,
        }
    }

    /// Whether the shape encloses no volume (MikuMikuDance's runtimes then give it no contact response).
    pub fn is_empty(&self) -> bool {
        match *self {
            Shape::Sphere { radius } | Shape::Capsule { radius, .. } => radius.is_nan() || radius <= 0.0,
            Shape::Box { half } => !(half.x > 0.0 && half.y > 0.0 && half.z > 0.0),
        }
    }

    /// The largest extent from the centre, for "moved more than its own size" tests.
    pub fn extent(&self) -> f32 {
        match *self {
            Shape::Sphere { radius } => radius,
            Shape::Box { half } => half.length(),
            Shape::Capsule { radius, half_height } => radius + half_height,
        }
    }
}

/// How a body and its bone move each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Mode 0: the body follows its bone (kinematic).
    Follow,
    /// Mode 1: the body is simulated and its bone takes the body's transform.
    Dynamic,
    /// Mode 2: simulated; the bone takes the body's rotation and keeps its own animated position.
    DynamicRotation,
}

impl Mode {
    pub fn from_file(mode: u8) -> Mode {
        match mode {
            0 => Mode::Follow,
            2 => Mode::DynamicRotation,
            _ => Mode::Dynamic,
        }
    }

    pub fn is_simulated(self) -> bool {
        self != Mode::Follow
    }

    pub fn label(self) -> &'static str {
        match self {
            Mode::Follow => "follows bone",
            Mode::Dynamic => "physics",
            Mode::DynamicRotation => "physics + bone position",
        }
    }
}

/// One rigid body, ready to simulate.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    pub name: String,
    /// The scene joint of its bone.
    pub joint: Option<usize>,
    pub shape: Shape,
    /// Rest transform in model space (rotation and translation).
    pub rest: Mat4,
    /// `inverse(bone's bind world) · rest`: the body's place relative to its bone.
    pub offset: Mat4,
    /// The mode after the mode-2 demotion rule.
    pub mode: Mode,
    /// The mode the file gives.
    pub file_mode: Mode,
    pub mass: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub restitution: f32,
    pub friction: f32,
    /// Bullet filter group, `1 << group`.
    pub group: u16,
    /// Groups this body collides with (a set bit collides).
    pub mask: u16,
}

impl Body {
    /// Where its bone puts it in `pose` (its rest place when it has no bone).
    pub fn place_in(&self, pose: &crate::anim::Pose) -> super::Place {
        match self.joint.and_then(|j| pose.world.get(j)) {
            Some(world) => super::Place::of(*world * self.offset),
            None => super::Place::of(self.rest),
        }
    }

    /// Simulated bodies with no positive mass can't move: they follow their bone instead.
    pub fn simulated(&self) -> bool {
        self.mode.is_simulated() && self.mass > 0.0 && self.mass.is_finite()
    }
}

/// A 6DOF spring joint between two bodies.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub name: String,
    pub bodies: [usize; 2],
    /// The joint's frame in model space at rest.
    pub frame: Mat4,
    /// The joint's frame relative to each body's rest transform.
    pub frame_in: [Mat4; 2],
    pub linear_min: Vec3,
    pub linear_max: Vec3,
    pub angular_min: Vec3,
    pub angular_max: Vec3,
    pub linear_spring: Vec3,
    pub angular_spring: Vec3,
}

/// The bodies and joints of a model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rig {
    pub bodies: Vec<Body>,
    pub joints: Vec<Joint>,
    /// Per scene joint: a simulated body drives it.
    pub driven: Vec<bool>,
    /// Per IK chain: every link is driven by a simulated body, so the chain is not solved while physics runs.
    pub skipped_ik: Vec<bool>,
}

/// A rotation from Euler angles in MikuMikuDance's order (Y, then X, then Z).
pub fn euler_yxz(r: Vec3) -> Quat {
    Quat::from_euler(EulerRot::YXZ, r.y, r.x, r.z)
}

impl Rig {
    /// The rig of a PMX or PMD scene; `None` when it has no rigid bodies.
    pub fn of_scene(scene: &Scene) -> Option<Rig> {
        let mmd = scene.mmd.as_ref()?;
        if mmd.rigid_bodies.is_empty() {
            return None;
        }
        let skeleton = &scene.skeleton;
        let relative_to_bone = scene.meta.format == Format::Pmd;
        let joint_of_bone = |b: Option<usize>| b.and_then(|b| mmd.bones.get(b)).map(|b| b.joint);
        let mut bodies: Vec<Body> = mmd
            .rigid_bodies
            .iter()
            .map(|r| {
                let joint = joint_of_bone(r.bone).filter(|&j| j < skeleton.len());
                // A value that isn't a number (a damaged file) can't be simulated: it takes a harmless one.
                let r = &finite_body(r);
                // PMD positions are relative to the body's bone; a body on no bone sits relative to bone 0 (as
                // babylon-mmd places it; it moves no bone).
                let mut position = r.position;
                if relative_to_bone && let Some(bone) = mmd.bones.get(r.bone.unwrap_or(0)) {
                    position += bone.position;
                }
                let rest = Mat4::from_rotation_translation(euler_yxz(r.rotation), position);
                let bind = joint.map_or(Mat4::IDENTITY, |j| skeleton.bind_world[j]);
                let mode = Mode::from_file(r.mode);
                Body {
                    name: r.name.clone(),
                    joint,
                    shape: Shape::from_file(r.shape, r.size).unwrap_or(Shape::Sphere { radius: r.size.x }),
                    rest,
                    offset: bind.inverse() * rest,
                    mode,
                    file_mode: mode,
                    mass: r.mass,
                    linear_damping: r.linear_damping.clamp(0.0, 1.0),
                    angular_damping: r.angular_damping.clamp(0.0, 1.0),
                    restitution: r.restitution,
                    friction: r.friction,
                    group: 1u16 << r.group.min(15),
                    mask: r.collision_mask,
                }
            })
            .collect();
        let mut joints = Vec::new();
        for j in mmd.joints.iter().filter(|j| j.kind == 0) {
            let [Some(a), Some(b)] = j.bodies else { continue };
            if a == b || a >= bodies.len() || b >= bodies.len() {
                continue;
            }
            if j.vectors().iter().any(|v| !v.is_finite()) {
                continue;
            }
            let frame = Mat4::from_rotation_translation(euler_yxz(j.rotation), j.position);
            joints.push(Joint {
                name: j.name.clone(),
                bodies: [a, b],
                frame,
                frame_in: [bodies[a].rest.inverse() * frame, bodies[b].rest.inverse() * frame],
                linear_min: j.translation_min,
                linear_max: j.translation_max,
                angular_min: j.rotation_min,
                angular_max: j.rotation_max,
                linear_spring: j.spring_translation,
                angular_spring: j.spring_rotation,
            });
        }
        demote_mode_2(&mut bodies, &joints, skeleton);
        let mut driven = vec![false; skeleton.len()];
        for b in bodies.iter().filter(|b| b.simulated()) {
            if let Some(j) = b.joint {
                driven[j] = true;
            }
        }
        let skipped_ik = scene
            .constraints
            .ik
            .iter()
            .map(|c| !c.links.is_empty() && c.links.iter().all(|l| driven.get(l.joint).copied().unwrap_or(false)))
            .collect();
        Some(Rig { bodies, joints, driven, skipped_ik })
    }

    /// Where each body's bone puts it in `pose`: bone world · offset (its rest place when it has no bone).
    pub fn places_in(&self, pose: &crate::anim::Pose) -> Vec<super::Place> {
        self.bodies.iter().map(|b| b.place_in(pose)).collect()
    }
}

/// `r` with every value that isn't a number made a harmless one: positions, angles and sizes 0, mass 0 (the body
/// then follows its bone), damping, friction and restitution 0.
fn finite_body(r: &crate::scene::RigidBody) -> crate::scene::RigidBody {
    let v = |x: Vec3| if x.is_finite() { x } else { Vec3::ZERO };
    let f = |x: f32| if x.is_finite() { x } else { 0.0 };
    crate::scene::RigidBody {
        size: v(r.size),
        position: v(r.position),
        rotation: v(r.rotation),
        mass: f(r.mass),
        linear_damping: f(r.linear_damping),
        angular_damping: f(r.angular_damping),
        restitution: f(r.restitution),
        friction: f(r.friction),
        ..r.clone()
    }
}

/// MikuMikuDance's mode-2 rule (as babylon-mmd applies it, after katwat's notes): a mode-2 body jointed to
/// another simulated body whose bone is its bone's parent becomes mode 1, so a chain of "physics + bone
/// position" bodies does not pin every link to its animated place.
fn demote_mode_2(bodies: &mut [Body], joints: &[Joint], skeleton: &crate::scene::Skeleton) {
    let parent = |j: Option<usize>| j.and_then(|j| skeleton.joints.get(j)).and_then(|j| j.parent);
    for joint in joints {
        let [a, b] = joint.bodies;
        for (x, y) in [(a, b), (b, a)] {
            let (bx, by) = (&bodies[x], &bodies[y]);
            if bx.mode.is_simulated()
                && by.mode == Mode::DynamicRotation
                && by.joint.is_some()
                && parent(by.joint) == bx.joint
                && bx.joint.is_some()
            {
                bodies[y].mode = Mode::Dynamic;
            }
        }
    }
}

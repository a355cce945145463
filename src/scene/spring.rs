//! Spring bones: chains of joints that swing behind the motion, pulled back toward their rest direction and
//! pushed out of colliders (VRM 1.0's `VRMC_springBone` with `VRMC_springBone_extended_collider`, VRM 0.x's
//! `secondaryAnimation`). Read by `formats/gltf/spring.rs`, simulated by `physics/spring.rs`.

use glam::Vec3;

/// A model's spring chains and the colliders they meet, by joint index.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Springs {
    pub colliders: Vec<Collider>,
    pub groups: Vec<ColliderGroup>,
    pub chains: Vec<SpringChain>,
}

/// A shape attached to a joint, in the joint's space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Collider {
    pub joint: usize,
    pub shape: ColliderShape,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColliderShape {
    /// A ball at `offset`; `inside`: the joints are kept inside it instead of out.
    Sphere { offset: Vec3, radius: f32, inside: bool },
    /// A ball swept from `offset` to `tail`.
    Capsule { offset: Vec3, tail: Vec3, radius: f32, inside: bool },
    /// The half-space behind the plane through `offset` facing `normal`.
    Plane { offset: Vec3, normal: Vec3 },
}

/// Colliders a chain names together.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ColliderGroup {
    pub name: String,
    pub colliders: Vec<usize>,
}

/// One chain: its joints from the root down, the collider groups they meet, and the joint whose space their
/// inertia is kept in (`None`: the model's).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpringChain {
    pub name: String,
    pub joints: Vec<SpringJoint>,
    pub groups: Vec<usize>,
    pub center: Option<usize>,
}

/// A joint the spring turns, toward its tail.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpringJoint {
    pub joint: usize,
    /// The joint whose position is the tail (the next joint of the chain, a VRM 0.x joint's first child);
    /// `None` for a VRM 0.x leaf, whose tail is 7 cm along its own offset from its parent.
    pub tail: Option<usize>,
    /// The radius of the tail against colliders.
    pub hit_radius: f32,
    /// How strongly the joint returns to its rest direction (per second, as a displacement).
    pub stiffness: f32,
    pub gravity_power: f32,
    /// Model space, unit length.
    pub gravity_dir: Vec3,
    /// The fraction of the tail's velocity lost each step, 0 to 1.
    pub drag: f32,
}

impl SpringJoint {
    /// A joint with three-vrm's values for what the file leaves out (hit radius 0, stiffness 1, no gravity,
    /// gravity down, drag 0.4; VRMC_springBone's schema says 0.5 for the drag, three-vrm and UniVRM's importer
    /// take 0.4).
    pub fn new(joint: usize, tail: Option<usize>) -> SpringJoint {
        SpringJoint {
            joint,
            tail,
            hit_radius: 0.0,
            stiffness: 1.0,
            gravity_power: 0.0,
            gravity_dir: Vec3::NEG_Y,
            drag: 0.4,
        }
    }
}

/// How far a VRM 0.x leaf's virtual tail lies from it, in model units (three-vrm's and UniVRM's 7 cm).
pub const LEAF_TAIL: f32 = 0.07;

impl Springs {
    /// Every joint the springs turn, in chain order.
    pub fn joints(&self) -> impl Iterator<Item = &SpringJoint> {
        self.chains.iter().flat_map(|c| &c.joints)
    }

    pub fn is_empty(&self) -> bool {
        self.chains.iter().all(|c| c.joints.is_empty())
    }
}

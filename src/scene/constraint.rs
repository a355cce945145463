//! Skeleton constraints: IK chains solved by cyclic coordinate descent, append (grant) relations that copy a
//! share of another joint's rotation or translation, and per-joint evaluation order. Format-neutral; joint
//! indices are those of the parents-first [`super::Skeleton`].

use glam::Vec3;

/// Per-axis angle limits of one IK link, in radians, in the joint's parent space.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AngleLimits {
    pub min: Vec3,
    pub max: Vec3,
}

/// MikuMikuDance's knees: an IK link named ひざ turns about X only, within these limits (radians), whatever the
/// file says (PMD stores no limits; the proxy skeleton of `anim::humanoid` uses them too).
pub const MMD_KNEE: AngleLimits =
    AngleLimits { min: Vec3::new(-std::f32::consts::PI, 0.0, 0.0), max: Vec3::new(-0.008_726_646, 0.0, 0.0) };

/// One joint the IK solver may turn.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct IkLink {
    pub joint: usize,
    pub limits: Option<AngleLimits>,
}

/// An IK chain: turn `links` so that `target` reaches the position of `joint` (the IK bone).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IkChain {
    /// The IK bone: where the chain should reach.
    pub joint: usize,
    /// The end effector that is pulled to the IK bone.
    pub target: usize,
    /// Solver iterations.
    pub loop_count: u32,
    /// Largest turn of one link per iteration, radians.
    pub limit_angle: f32,
    /// From the effector's parent towards the root, as the file lists them.
    pub links: Vec<IkLink>,
}

/// `joint` takes `ratio` of `source`'s rotation and/or translation on top of its own.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Append {
    pub joint: usize,
    pub source: usize,
    pub ratio: f32,
    pub rotation: bool,
    pub translation: bool,
    /// PMX local append: take the source's own motion even when the source is itself appended (an ordinary
    /// append from an appended bone takes that bone's append share instead).
    pub local: bool,
}

/// `joint` turns about its own `axis` (joint space, unit) by `weight` of the twist `source` has about that axis
/// from its rest (VRM's roll constraint: what a forearm's twist bone takes of the hand's turn).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Roll {
    pub joint: usize,
    pub source: usize,
    pub axis: glam::Vec3,
    pub weight: f32,
}

/// `joint` turns from its rest so that its `axis` (joint space, unit) points at `source`'s position, by `weight`
/// (VRM's aim constraint: an eye or a turret following a target).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Aim {
    pub joint: usize,
    pub source: usize,
    pub axis: glam::Vec3,
    pub weight: f32,
}

/// How and when one joint is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct JointDeform {
    /// Deform layer: lower layers are evaluated first.
    pub layer: i32,
    /// Evaluated after physics (last).
    pub after_physics: bool,
    /// The file's position of the joint, the tie-break within a layer.
    pub order: u32,
    /// Rotation only about this axis (model space), when set.
    pub fixed_axis: Option<Vec3>,
    /// The joint's local X and Z axes (model space), when the file gives them.
    pub local_axes: Option<[Vec3; 2]>,
}

/// The constraints of a skeleton; empty for formats without them.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Constraints {
    pub ik: Vec<IkChain>,
    pub append: Vec<Append>,
    /// VRM roll constraints (twist bones), applied after the appends and IK.
    pub roll: Vec<Roll>,
    /// VRM aim constraints, applied after the rolls.
    pub aim: Vec<Aim>,
    /// One entry per joint when the format orders its evaluation; empty otherwise (plain parents-first).
    pub deform: Vec<JointDeform>,
}

impl Constraints {
    pub fn is_empty(&self) -> bool {
        self.ik.is_empty()
            && self.append.is_empty()
            && self.roll.is_empty()
            && self.aim.is_empty()
            && self.deform.is_empty()
    }

    /// Joints in evaluation order: those before physics, then those after, each by layer and file order. Plain
    /// parents-first order when no deform order is given.
    pub fn transform_order(&self, joints: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..joints).collect();
        if self.deform.len() == joints {
            order.sort_by_key(|&j| {
                let d = &self.deform[j];
                (d.after_physics, d.layer, d.order)
            });
        }
        order
    }
}

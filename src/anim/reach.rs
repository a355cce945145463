//! How far each IK chain's effector ends from its IK bone in a solved pose, against how near the chain could
//! bring it: the reach its links' lengths and angle limits allow. A foot that stops short of a target its leg
//! can reach is the solver's fault; one whose target is out of reach is the motion's.
//!
//! The reach is computed for the chains MikuMikuDance models use for legs and toes: a top link that turns
//! freely (so the effector can point anywhere at a given distance from it) above links that turn about one
//! axis or not at all (knees). The distance from the top link to the effector then ranges over an interval,
//! found by sweeping each hinge over its limits; the nearest the effector can come to the IK bone is the
//! distance from the IK bone's distance to that interval. Other chains get no reach (`least: None`).

use glam::{Mat4, Quat};

use super::Pose;
use crate::scene::{Constraints, Skeleton};

/// Where one IK chain's effector ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkMiss {
    /// The chain's index in [`Constraints::ik`].
    pub chain: usize,
    /// Distance from the effector to the IK bone (model units).
    pub miss: f32,
    /// The least miss the chain's links allow: 0 when the IK bone is within reach. `None` when the chain's reach
    /// is not computed (a limited top link, a free link below it, more than two hinges).
    pub least: Option<f32>,
}

impl IkMiss {
    /// How much further the effector is than the chain had to leave it (`miss` when the reach is unknown).
    pub fn excess(&self) -> f32 {
        (self.miss - self.least.unwrap_or(0.0)).max(0.0)
    }
}

/// Samples per hinge when sweeping one hinge, and when sweeping two.
const SWEEP_ONE: usize = 2048;
const SWEEP_TWO: usize = 128;

/// The miss of every IK chain of `constraints` in `pose` (world matrices current, as after
/// [`super::apply_constraints`]). Chains naming joints past the skeleton are left out.
pub fn ik_misses(skeleton: &Skeleton, constraints: &Constraints, pose: &Pose) -> Vec<IkMiss> {
    let n = skeleton.len().min(pose.world.len()).min(pose.locals.len());
    let at = |j: usize| pose.world[j].w_axis.truncate();
    constraints
        .ik
        .iter()
        .enumerate()
        .filter(|(_, c)| c.joint < n && c.target < n && c.links.iter().all(|l| l.joint < n))
        .map(|(i, c)| {
            let miss = at(c.target).distance(at(c.joint));
            let least = reach(skeleton, c, pose).map(|(near, far)| {
                let d = at(c.joint).distance(at(c.links.last().map_or(c.target, |l| l.joint)));
                (near - d).max(d - far).max(0.0)
            });
            IkMiss { chain: i, miss, least }
        })
        .collect()
}

/// The nearest and furthest the effector can be from the chain's top link, its non-link joints as `pose` has
/// them; `None` for chains this does not cover (see the module's note).
fn reach(skeleton: &Skeleton, chain: &crate::scene::IkChain, pose: &Pose) -> Option<(f32, f32)> {
    let top = chain.links.last()?;
    if top.limits.is_some() {
        return None;
    }
    // The joints from the top link down to the effector, parents first.
    let mut path = vec![chain.target];
    while *path.last()? != top.joint {
        path.push(skeleton.joints.get(*path.last()?)?.parent?);
    }
    path.reverse();
    // Each joint below the top: its hinge (axis and range) when it is a link, else its pose as it is.
    let mut hinges = Vec::new();
    let mut steps: Vec<Result<usize, Mat4>> = Vec::new();
    for &j in &path[1..] {
        match chain.links.iter().find(|l| l.joint == j) {
            Some(link) => {
                let (axis, min, max) = super::constraint::Limited::new(link.limits.as_ref()?).axis()?;
                steps.push(Ok(hinges.len()));
                hinges.push((axis, min, max, pose.locals[j].translation, pose.locals[j].scale));
            }
            None => steps.push(Err(pose.locals[j].to_mat4())),
        }
    }
    let sweep = match hinges.len() {
        0 => 1,
        1 => SWEEP_ONE,
        2 => SWEEP_TWO,
        _ => return None,
    };
    let (mut near, mut far) = (f32::INFINITY, 0.0f32);
    let mut angles = vec![0.0f32; hinges.len()];
    for index in 0..sweep.pow(hinges.len() as u32) {
        let mut rest = index;
        for (a, &(_, min, max, ..)) in angles.iter_mut().zip(&hinges) {
            *a = min + (max - min) * (rest % sweep) as f32 / (sweep - 1).max(1) as f32;
            rest /= sweep;
        }
        let mut m = Mat4::IDENTITY;
        for step in &steps {
            m *= match step {
                Ok(h) => {
                    let (axis, _, _, translation, scale) = hinges[*h];
                    Mat4::from_scale_rotation_translation(scale, Quat::from_axis_angle(axis, angles[*h]), translation)
                }
                Err(local) => *local,
            };
        }
        let d = m.w_axis.truncate().length();
        near = near.min(d);
        far = far.max(d);
    }
    Some((near, far))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{AngleLimits, IkChain, IkLink};
    use glam::Vec3;

    /// The constraint tests' leg (hip, knee, ankle 1 apart; IK bone 3) with its IK bone at `goal`.
    fn leg(goal: Vec3) -> (Skeleton, Constraints, Pose) {
        let skeleton = crate::anim::constraint::tests::leg();
        // The knee bends back 90° at most and never quite straight.
        let knee =
            AngleLimits { min: Vec3::new(-std::f32::consts::FRAC_PI_2, 0.0, 0.0), max: Vec3::new(-0.1, 0.0, 0.0) };
        let constraints = Constraints {
            ik: vec![IkChain {
                joint: 3,
                target: 2,
                loop_count: 40,
                limit_angle: 2.0,
                links: vec![IkLink { joint: 1, limits: Some(knee) }, IkLink { joint: 0, limits: None }],
            }],
            ..Constraints::default()
        };
        let mut pose = Pose::bind(&skeleton);
        pose.locals[3].translation = goal;
        pose.evaluate(&skeleton);
        (skeleton, constraints, pose)
    }

    /// The leg reaches from √2 (knee at 90°) to 2·cos(0.05) (knee at its straightest) from the hip.
    #[test]
    fn the_reach_of_a_hinged_leg_runs_from_its_most_bent_to_its_straightest() {
        let hip = Vec3::new(0.0, 2.0, 0.0);
        let far = 2.0 * 0.05f32.cos();
        for (d, least) in [(1.0, 2f32.sqrt() - 1.0), (1.7, 0.0), (far, 0.0), (2.5, 2.5 - far)] {
            let (s, c, pose) = leg(hip + Vec3::new(0.0, -0.6, 0.8).normalize() * d);
            let m = ik_misses(&s, &c, &pose);
            assert_eq!(m.len(), 1);
            let got = m[0].least.unwrap();
            assert!((got - least).abs() < 1e-4, "goal {d} from the hip: least miss {got}, want {least}");
            assert!(
                (m[0].miss - pose.world[2].w_axis.truncate().distance(pose.world[3].w_axis.truncate())).abs() < 1e-6
            );
        }
    }

    /// A limited top link or a free knee: no reach computed.
    #[test]
    fn chains_outside_the_covered_shapes_have_no_reach() {
        let (s, mut c, pose) = leg(Vec3::ZERO);
        c.ik[0].links[0].limits = None;
        assert_eq!(ik_misses(&s, &c, &pose)[0].least, None);
        let (s, mut c, pose) = leg(Vec3::ZERO);
        c.ik[0].links[1].limits = c.ik[0].links[0].limits;
        assert_eq!(ik_misses(&s, &c, &pose)[0].least, None);
    }
}

//! MikuMikuDance's bone constraints on a sampled pose, as MikuMikuDance applies them: bone by bone in the
//! model's deform order (`Constraints::transform_order`), an appended bone takes a share of its source's
//! rotation and/or translation, and reaching an IK bone solves its chain by cyclic coordinate descent (CCD):
//! each link, from the effector's parent up, turns so the effector points at the IK bone, at most the chain's
//! limit angle per step, within the link's angle limits, for the chain's loop count.
//!
//! An appended bone takes its source's own motion (key rotation with any IK turn, key translation), or, for an
//! ordinary append from a bone that is itself appended, that bone's append offset: the way the established
//! MikuMikuDance runtimes (Saba, babylon-mmd) read MikuMikuDance. "Local" append always takes the motion.
//! Which IK chains are solved is the caller's (`apply_constraints_switched`: the motion's IK switches).
//!
//! Not applied: fixed axes and local axes (they constrain the user's handles, not playback), physics.

use glam::{EulerRot, Quat, Vec3};

use super::Pose;
use crate::scene::{AngleLimits, Constraints, IkChain, Skeleton};

/// Below this angle (radians) a CCD step turns nothing.
const MIN_STEP: f32 = 1e-5;

/// Applies `constraints` to `pose` (whose `locals` hold the sampled motion) and re-evaluates it. A chain or
/// relation naming a joint past the skeleton is skipped.
pub fn apply_constraints(skeleton: &Skeleton, constraints: &Constraints, pose: &mut Pose) {
    apply_constraints_switched(skeleton, constraints, pose, |_| true);
}

/// [`apply_constraints`], solving only the IK chains `enabled(chain)` says are on (a motion's IK switches).
pub fn apply_constraints_switched(
    skeleton: &Skeleton,
    constraints: &Constraints,
    pose: &mut Pose,
    enabled: impl Fn(usize) -> bool,
) {
    apply_constraints_phase(skeleton, constraints, pose, enabled, None);
}

/// [`apply_constraints_switched`] for the joints of one side of physics only: `Some(false)` the joints evaluated
/// before physics, `Some(true)` those flagged "after physics", `None` all of them. Physics runs between the two
/// (`crate::physics::Simulation`).
pub fn apply_constraints_phase(
    skeleton: &Skeleton,
    constraints: &Constraints,
    pose: &mut Pose,
    enabled: impl Fn(usize) -> bool,
    after_physics: Option<bool>,
) {
    let n = skeleton.len();
    if (constraints.ik.is_empty() && constraints.append.is_empty()) || pose.locals.len() != n {
        return;
    }
    // Which joints have an append or an IK chain (few do; the lists are scanned only for those).
    let mut has_append = vec![false; n];
    for a in constraints.append.iter().filter(|a| a.joint < n && a.source < n) {
        has_append[a.joint] = true;
    }
    let chain_ok = |c: &IkChain| c.joint < n && c.target < n && c.links.iter().all(|l| l.joint < n);
    let mut has_ik = vec![false; n];
    for c in constraints.ik.iter().filter(|c| chain_ok(c)) {
        has_ik[c.joint] = true;
    }
    pose.evaluate(skeleton);
    // What each appended bone took (its append offset), and what the motion gave every bone before any
    // constraint, to tell a source's own motion from what IK and appends added to it.
    let mut offsets = vec![(Quat::IDENTITY, Vec3::ZERO); n];
    let animated: Vec<Quat> = pose.locals.iter().map(|l| l.rotation).collect();
    // Appends change locals only; the world matrices from the first changed joint on are recomputed when an IK
    // chain is about to read them, and at the end.
    let mut stale: Option<usize> = None;
    for j in constraints.transform_order(n) {
        if let Some(after) = after_physics
            && constraints.deform.get(j).is_some_and(|d| d.after_physics) != after
        {
            continue;
        }
        for a in constraints.append.iter().filter(|a| has_append[j] && a.joint == j && a.source < n) {
            let (rotation, translation) = append_source(skeleton, pose, a, &offsets, &animated, has_append[a.source]);
            let local = &mut pose.locals[j];
            let offset = &mut offsets[j];
            if a.rotation {
                let turn = Quat::IDENTITY.slerp(rotation, a.ratio);
                local.rotation = (local.rotation * turn).normalize();
                offset.0 = (offset.0 * turn).normalize();
            }
            if a.translation {
                local.translation += translation * a.ratio;
                offset.1 += translation * a.ratio;
            }
        }
        if has_append[j] {
            stale = Some(stale.map_or(j, |s| s.min(j)));
        }
        if !has_ik[j] {
            continue;
        }
        for (c, chain) in constraints.ik.iter().enumerate().filter(|(_, c)| c.joint == j && chain_ok(c)) {
            if !enabled(c) {
                continue;
            }
            if let Some(s) = stale.take() {
                pose.evaluate_from(skeleton, s);
            }
            solve(skeleton, chain, pose);
        }
    }
    if let Some(s) = stale {
        pose.evaluate_from(skeleton, s);
    }
}

/// What an appended bone takes from its source, before the ratio, as MikuMikuDance's runtimes take it: the
/// source's own motion (its key and bone-morph rotation with what IK turned it by, and its key translation
/// from the bind pose), except that an ordinary (not local) append from a bone that is itself appended takes
/// that bone's append offset instead (with its IK turn), so chained appends pass shares along rather than
/// motion. `offsets[s]` is bone `s`'s append offset, `animated[s]` its rotation before any constraint.
fn append_source(
    skeleton: &Skeleton,
    pose: &Pose,
    a: &crate::scene::Append,
    offsets: &[(Quat, Vec3)],
    animated: &[Quat],
    source_appends: bool,
) -> (Quat, Vec3) {
    let s = a.source;
    let bind = skeleton.joints[s].bind;
    let (offset_rotation, offset_translation) = offsets[s];
    let unbound = bind.rotation.inverse();
    // The source's rotation without its own append: its motion, turned by IK when it is a link.
    let own = (unbound * pose.locals[s].rotation * offset_rotation.inverse()).normalize();
    let motion = (unbound * animated[s]).normalize();
    let ik = own * motion.inverse();
    if a.local || !source_appends {
        (own, pose.locals[s].translation - offset_translation - bind.translation)
    } else {
        ((ik * offset_rotation).normalize(), offset_translation)
    }
}

/// One IK chain by CCD on `pose`, whose world matrices are current; leaves them current.
fn solve(skeleton: &Skeleton, chain: &IkChain, pose: &mut Pose) {
    let position = |pose: &Pose, j: usize| pose.world[j].w_axis.truncate();
    // The joints from the top link down to the effector: all a step moves that the next step reads. A step
    // updates only those below its link; the rest of the skeleton is re-evaluated once at the end.
    let path = chain_path(skeleton, chain);
    let mut best_miss = f32::INFINITY;
    let mut best: Vec<Quat> = chain.links.iter().map(|l| pose.locals[l.joint].rotation).collect();
    let mut hinge = vec![0.0f32; chain.links.len()];
    for iteration in 0..chain.loop_count.min(1000) {
        let mut turned = false;
        for (l, link) in chain.links.iter().enumerate() {
            let goal = position(pose, chain.joint);
            let effector = position(pose, chain.target);
            let origin = position(pose, link.joint);
            // The link's world rotation (its axes normalised: cheaper than a full decomposition).
            let m = glam::Mat3::from_mat4(pose.world[link.joint]);
            let axes = glam::Mat3::from_cols(m.x_axis.normalize(), m.y_axis.normalize(), m.z_axis.normalize());
            let inverse = axes.transpose();
            let (Some(to_effector), Some(to_goal)) =
                ((inverse * (effector - origin)).try_normalize(), (inverse * (goal - origin)).try_normalize())
            else {
                continue;
            };
            let step = |angle: f32| {
                if chain.limit_angle > 0.0 { angle.clamp(-chain.limit_angle, chain.limit_angle) } else { angle }
            };
            let local = &mut pose.locals[link.joint];
            let rotation = match link.limits.and_then(|l| single_axis(&l)) {
                // A hinge (a knee), as MikuMikuDance's runtimes turn it: the whole angle between the two
                // directions (limited per step), about the axis, in whichever sense brings the effector closer,
                // added to the hinge's angle so far in this solve (which starts from 0: the key is replaced).
                Some((axis, min, max)) => {
                    let angle = step(to_effector.dot(to_goal).clamp(-1.0, 1.0).acos());
                    if !angle.is_finite() || angle < MIN_STEP {
                        continue;
                    }
                    let closer = |a: f32| (Quat::from_axis_angle(axis, a) * to_effector).dot(to_goal);
                    let mut turned_to = hinge[l] + if closer(angle) > closer(-angle) { angle } else { -angle };
                    // MikuMikuDance's first step picks the bend the limits allow: a knee bends backwards.
                    if iteration == 0 && !(min..=max).contains(&turned_to) {
                        let middle = (min + max) / 2.0;
                        if (min..=max).contains(&-turned_to) || (middle - turned_to).abs() > (middle + turned_to).abs()
                        {
                            turned_to = -turned_to;
                        }
                    }
                    hinge[l] = turned_to.clamp(min, max);
                    Quat::from_axis_angle(axis, hinge[l])
                }
                _ => {
                    let angle = step(to_effector.dot(to_goal).clamp(-1.0, 1.0).acos());
                    if angle < MIN_STEP {
                        continue;
                    }
                    let Some(axis) = to_effector.cross(to_goal).try_normalize() else { continue };
                    let mut rotation = (local.rotation * Quat::from_axis_angle(axis, angle)).normalize();
                    if let Some(limits) = link.limits {
                        let e = euler(rotation).clamp(limits.min.min(limits.max), limits.max.max(limits.min));
                        rotation = Quat::from_euler(EulerRot::XYZ, e.x, e.y, e.z);
                    }
                    rotation
                }
            };
            if rotation.is_finite() {
                local.rotation = rotation;
                turned = true;
            }
            match path.as_ref().and_then(|p| Some((p, p.iter().position(|&j| j == link.joint)?))) {
                Some((p, k)) => {
                    for &j in &p[k..] {
                        let local = pose.locals[j].to_mat4();
                        pose.world[j] = skeleton.joints[j].parent.map_or(local, |q| pose.world[q] * local);
                    }
                }
                None => pose.evaluate_from(skeleton, link.joint),
            }
        }
        // The best pose so far is kept; an iteration that brings the effector no closer is undone and ends the
        // solve (as MikuMikuDance's runtimes do), as does reaching the goal.
        let miss = position(pose, chain.target).distance(position(pose, chain.joint));
        if miss < best_miss {
            best_miss = miss;
            for (saved, link) in best.iter_mut().zip(&chain.links) {
                *saved = pose.locals[link.joint].rotation;
            }
        } else {
            for (saved, link) in best.iter().zip(&chain.links) {
                pose.locals[link.joint].rotation = *saved;
            }
            break;
        }
        if !turned || miss < 1e-5 {
            break;
        }
    }
    if let Some(top) = path.as_ref().and_then(|p| p.first()) {
        pose.evaluate_from(skeleton, *top);
    }
}

/// The chain's joints from its top link down to its effector, parents first, when every link lies on the
/// effector's parent line (as in any chain MikuMikuDance accepts); `None` otherwise.
fn chain_path(skeleton: &Skeleton, chain: &IkChain) -> Option<Vec<usize>> {
    let mut path = vec![chain.target];
    let mut j = chain.target;
    let mut left: Vec<usize> = chain.links.iter().map(|l| l.joint).collect();
    left.retain(|&l| l != j);
    while !left.is_empty() {
        j = skeleton.joints.get(j)?.parent?;
        path.push(j);
        left.retain(|&l| l != j);
    }
    path.reverse();
    Some(path)
}

/// A rotation's XYZ Euler angles.
fn euler(q: Quat) -> Vec3 {
    let (x, y, z) = q.to_euler(EulerRot::XYZ);
    Vec3::new(x, y, z)
}

/// When the limits let a link turn about one axis only (X, Y or Z): that axis and its range.
fn single_axis(l: &AngleLimits) -> Option<(Vec3, f32, f32)> {
    let (min, max) = (l.min.min(l.max), l.max.max(l.min));
    let free: Vec<usize> = (0..3).filter(|&k| min[k] != 0.0 || max[k] != 0.0).collect();
    match free[..] {
        [k] => Some((Vec3::AXES[k], min[k], max[k])),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Append, IkLink, Joint, Transform};

    /// hip (0) → knee (1) → ankle (2), each 1 below its parent, and an IK bone (3) under the root.
    fn leg() -> Skeleton {
        let at = |y: f32| Transform { translation: Vec3::new(0.0, y, 0.0), ..Transform::IDENTITY };
        let joints = vec![
            Joint { name: "hip".into(), parent: None, bind: at(2.0) },
            Joint { name: "knee".into(), parent: Some(0), bind: at(-1.0) },
            Joint { name: "ankle".into(), parent: Some(1), bind: at(-1.0) },
            Joint { name: "leg IK".into(), parent: None, bind: at(0.0) },
        ];
        Skeleton::new(joints, true).unwrap()
    }

    fn chain(limits: Option<AngleLimits>) -> Constraints {
        Constraints {
            ik: vec![IkChain {
                joint: 3,
                target: 2,
                loop_count: 40,
                limit_angle: 2.0,
                links: vec![IkLink { joint: 1, limits }, IkLink { joint: 0, limits: None }],
            }],
            ..Constraints::default()
        }
    }

    #[test]
    fn the_effector_reaches_an_ik_target_within_reach() {
        let s = leg();
        let mut pose = Pose::bind(&s);
        // Raise the foot: the IK bone moves up and forward.
        pose.locals[3].translation = Vec3::new(0.0, 0.8, 0.6);
        apply_constraints(&s, &chain(None), &mut pose);
        let ankle = pose.world[2].w_axis.truncate();
        assert!(ankle.distance(Vec3::new(0.0, 0.8, 0.6)) < 1e-3, "ankle at {ankle}");
    }

    #[test]
    fn a_knee_limited_to_x_bends_about_x_only_and_the_foot_still_reaches() {
        let s = leg();
        let mut pose = Pose::bind(&s);
        pose.locals[3].translation = Vec3::new(0.0, 0.6, 0.3);
        let knee = AngleLimits { min: Vec3::new(-std::f32::consts::PI, 0.0, 0.0), max: Vec3::new(-0.0087, 0.0, 0.0) };
        apply_constraints(&s, &chain(Some(knee)), &mut pose);
        let (x, y, z) = pose.locals[1].rotation.to_euler(EulerRot::XYZ);
        assert!(x < -0.0087 + 1e-4 && y.abs() < 1e-4 && z.abs() < 1e-4, "knee ({x}, {y}, {z})");
        let ankle = pose.world[2].w_axis.truncate();
        assert!(ankle.distance(Vec3::new(0.0, 0.6, 0.3)) < 0.05, "ankle at {ankle}");
    }

    /// A goal out of reach (2.5 from the hip, the leg is 2 long): the solve ends with the leg
    /// stretched toward the goal, the knee at its straightest limit, never worse than its best iteration. The
    /// knee's own key (bent 1 rad) is replaced, not added to: the hinge angle starts from 0 in every solve.
    #[test]
    fn an_unreachable_goal_leaves_the_leg_stretched_toward_it() {
        let s = leg();
        let mut pose = Pose::bind(&s);
        pose.locals[1].rotation = Quat::from_rotation_x(-1.0);
        let goal = Vec3::new(0.0, 2.0, 0.0) + Vec3::new(0.0, -2.0, 1.5);
        pose.locals[3].translation = goal;
        let knee = AngleLimits { min: Vec3::new(-std::f32::consts::PI, 0.0, 0.0), max: Vec3::new(-0.0087, 0.0, 0.0) };
        apply_constraints(&s, &chain(Some(knee)), &mut pose);
        let hip = pose.world[0].w_axis.truncate();
        let ankle = pose.world[2].w_axis.truncate();
        let (x, _, _) = pose.locals[1].rotation.to_euler(EulerRot::XYZ);
        assert!((x + 0.0087).abs() < 1e-3, "the knee at its straightest: {x}");
        let along = (ankle - hip).normalize().dot((goal - hip).normalize());
        assert!(along > 0.999, "the leg points at the goal ({along})");
        assert!((ankle.distance(goal) - 0.5).abs() < 1e-2, "as close as a 2-long leg gets: {}", ankle.distance(goal));
    }

    #[test]
    fn an_appended_bone_takes_its_share_of_the_source_rotation_and_translation() {
        let s = leg();
        let mut pose = Pose::bind(&s);
        pose.locals[0].rotation = Quat::from_rotation_z(1.0);
        pose.locals[0].translation += Vec3::new(2.0, 0.0, 0.0);
        pose.locals[3].rotation = Quat::from_rotation_x(0.2);
        let c = Constraints {
            append: vec![Append { joint: 3, source: 0, ratio: 0.5, rotation: true, translation: true, local: false }],
            ..Constraints::default()
        };
        apply_constraints(&s, &c, &mut pose);
        let expected = Quat::from_rotation_x(0.2) * Quat::from_rotation_z(0.5);
        assert!(pose.locals[3].rotation.angle_between(expected) < 1e-5, "{:?}", pose.locals[3].rotation);
        assert!(pose.locals[3].translation.distance(Vec3::new(1.0, 0.0, 0.0)) < 1e-6);
        assert!(pose.world[3].w_axis.truncate().distance(Vec3::new(1.0, 0.0, 0.0)) < 1e-6, "world re-evaluated");
    }

    /// Hand-worked chained appends: bone 1 is keyed (0.4 about Z) and appends half of bone 0's key (1.0 about Z,
    /// translated 2 along X); bone 2 appends all of bone 1 as an ordinary append, bone 3 as a local one. The
    /// ordinary append passes bone 1's share along (0.5 rad, 1 along X), the local one bone 1's own key (0.4 rad,
    /// no translation).
    #[test]
    fn chained_appends_pass_the_share_on_and_local_appends_take_the_motion() {
        let joint = |name: &str, parent| Joint { name: name.into(), parent, bind: Transform::IDENTITY };
        let s =
            Skeleton::new(vec![joint("a", None), joint("b", None), joint("c", None), joint("d", None)], true).unwrap();
        let mut pose = Pose::bind(&s);
        pose.locals[0].rotation = Quat::from_rotation_z(1.0);
        pose.locals[0].translation = Vec3::new(2.0, 0.0, 0.0);
        pose.locals[1].rotation = Quat::from_rotation_z(0.4);
        let append =
            |joint, source, ratio, local| Append { joint, source, ratio, rotation: true, translation: true, local };
        let c = Constraints {
            append: vec![append(1, 0, 0.5, false), append(2, 1, 1.0, false), append(3, 1, 1.0, true)],
            ..Constraints::default()
        };
        apply_constraints(&s, &c, &mut pose);
        let angle = |j: usize| pose.locals[j].rotation.to_axis_angle();
        let close = |j: usize, want: f32| {
            let (axis, a) = angle(j);
            assert!((a * axis.z - want).abs() < 1e-5, "bone {j}: {a} about {axis}, want {want} about Z");
        };
        close(1, 0.9); // its key and half of bone 0
        close(2, 0.5); // bone 1's share only
        close(3, 0.4); // bone 1's key only
        assert!(pose.locals[1].translation.distance(Vec3::new(1.0, 0.0, 0.0)) < 1e-6);
        assert!(pose.locals[2].translation.distance(Vec3::new(1.0, 0.0, 0.0)) < 1e-6);
        assert!(pose.locals[3].translation.length() < 1e-6);
    }
}

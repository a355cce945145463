//! MikuMikuDance's bone constraints on a sampled pose, as MikuMikuDance applies them: bone by bone in the
//! model's deform order (`Constraints::transform_order`), an appended bone takes a share of its source's
//! rotation and/or translation, and reaching an IK bone solves its chain by cyclic coordinate descent (CCD) as
//! the established runtimes (saba, babylon-mmd) do: each link, from the effector's parent up, turns toward the
//! IK bone by at most the chain's limit angle (times its place in the chain), the turns adding up on top of
//! the animated rotation; a limited link's whole rotation is clamped per Euler angle in the order its limits
//! suit, and in the first half of the loop count a one-axis link (a knee) turns about its axis only, with an
//! angle past a limit mirrored back into the range (so a knee folds back, the way it bends). The solve stops
//! where MikuMikuDance's stops: after the chain's loop count, or with the effector on its IK bone; a nearly
//! straight leg may stop a few millimetres short, its knee where the motion's author saw it. On request
//! ([`IkFinish::PlantFeet`]) a leg (a free link over a knee) left off a target within reach is instead finished
//! in closed form, so the feet stand exactly on their IK bones (`solve`).
//!
//! An appended bone takes its source's own motion (key rotation with any IK turn, key translation), or, for an
//! ordinary append from a bone that is itself appended, that bone's append offset: the way the established
//! MikuMikuDance runtimes (Saba, babylon-mmd) read MikuMikuDance. "Local" append always takes the motion.
//! Which IK chains are solved is the caller's (`apply_constraints_switched`: the motion's IK switches).
//!
//! Not applied: fixed axes and local axes (they constrain the user's handles, not playback), physics.

use glam::{EulerRot, Mat4, Quat, Vec3};

use super::Pose;
use crate::scene::{AngleLimits, Constraints, IkChain, Skeleton};

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
    if pose.locals.len() == skeleton.len() {
        pose.evaluate(skeleton);
    }
    apply_to_evaluated(skeleton, constraints, pose, (enabled, IkFinish::Ccd), after_physics);
}

/// Where an IK solve leaves a leg that its iterations leave short of its IK bone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum IkFinish {
    /// Where MikuMikuDance's CCD leaves it (its loop count, per-iteration limit and knee limits): the pose the
    /// motion's author saw, with a foot that can stop short of a target within reach.
    #[default]
    Ccd,
    /// On the IK bone whenever the leg reaches it: the knee bent in closed form to the angle whose reach equals
    /// the target's distance (a debugging aid: feet that slide then show the motion, not the solver).
    PlantFeet,
}

impl IkFinish {
    /// `PlantFeet` when `planted` (the window's "Plant feet", `--plant-feet`), else `Ccd`.
    pub fn planted(planted: bool) -> IkFinish {
        if planted { IkFinish::PlantFeet } else { IkFinish::Ccd }
    }
}

/// [`apply_constraints_phase`] on a pose whose world matrices are already those of its locals (what
/// `Pose::update_scene_phase` has just computed), saving a pass over the whole skeleton.
pub(crate) fn apply_to_evaluated(
    skeleton: &Skeleton,
    constraints: &Constraints,
    pose: &mut Pose,
    (enabled, finish): (impl Fn(usize) -> bool, IkFinish),
    after_physics: Option<bool>,
) {
    let n = skeleton.len();
    if (constraints.ik.is_empty() && constraints.append.is_empty() && constraints.roll.is_empty())
        || pose.locals.len() != n
        || pose.world.len() != n
        || pose.palette.len() != n
    {
        return;
    }
    // The buffers are the pose's, reused from frame to frame (taken out while the pose is borrowed).
    let mut scratch = std::mem::take(&mut pose.scratch);
    let Scratch { has_append, has_ik, offsets, animated, changed, chain: chain_scratch } = &mut scratch;
    // Which joints have an append or an IK chain (few do; the lists are scanned only for those).
    has_append.clear();
    has_append.resize(n, false);
    for a in constraints.append.iter().filter(|a| a.joint < n && a.source < n) {
        has_append[a.joint] = true;
    }
    let chain_ok = |c: &IkChain| c.joint < n && c.target < n && c.links.iter().all(|l| l.joint < n);
    has_ik.clear();
    has_ik.resize(n, false);
    for c in constraints.ik.iter().filter(|c| chain_ok(c)) {
        has_ik[c.joint] = true;
    }
    // What each appended bone took (its append offset), and what the motion gave every bone before any
    // constraint, to tell a source's own motion from what IK and appends added to it.
    offsets.clear();
    offsets.resize(n, (Quat::IDENTITY, Vec3::ZERO));
    animated.clear();
    animated.extend(pose.locals.iter().map(|l| l.rotation));
    // Appends change locals only; the world matrices from the first changed joint on are recomputed when an IK
    // chain is about to read them, and at the end. `changed` is all false between uses.
    let mut stale: Option<usize> = None;
    changed.clear();
    changed.resize(n, false);
    for j in constraints.transform_order(n) {
        if let Some(after) = after_physics
            && constraints.deform.get(j).is_some_and(|d| d.after_physics) != after
        {
            continue;
        }
        for a in constraints.append.iter().filter(|a| has_append[j] && a.joint == j && a.source < n) {
            let (rotation, translation) = append_source(skeleton, pose, a, offsets, animated, has_append[a.source]);
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
            changed[j] = true;
        }
        if !has_ik[j] {
            continue;
        }
        for (c, chain) in constraints.ik.iter().enumerate().filter(|(_, c)| c.joint == j && chain_ok(c)) {
            if !enabled(c) {
                continue;
            }
            if let Some(s) = stale.take() {
                pose.evaluate_changed(skeleton, changed, s);
            }
            solve(skeleton, chain, pose, (chain_scratch, changed), finish);
        }
    }
    if let Some(s) = stale {
        pose.evaluate_changed(skeleton, changed, s);
    }
    pose.scratch = scratch;
    if after_physics != Some(true) && !constraints.roll.is_empty() {
        apply_rolls(skeleton, &constraints.roll, pose);
    }
    if after_physics != Some(true) && !constraints.aim.is_empty() {
        apply_aims(skeleton, &constraints.aim, pose);
    }
}

/// VRM's aim constraints (`VRMC_node_constraint` 1.0, as three-vrm 3.5.5's `VRMAimConstraint` updates one): the
/// aim axis on the destination's rest rotation under its parent's turn now (`a₀ = P · rest · axis`) is turned
/// onto the direction from the destination to the source (`a₁`), that turn taken into the parent's frame
/// (`target = P⁻¹ · fromTo(a₀, a₁) · P · rest`), and the destination slerped from its rest toward it by the
/// weight. Each one is evaluated before the next, which may read it.
fn apply_aims(skeleton: &Skeleton, aims: &[crate::scene::Aim], pose: &mut Pose) {
    let n = skeleton.len().min(pose.world.len());
    for a in aims.iter().filter(|a| a.joint < n && a.source < n && a.joint != a.source) {
        let rest = skeleton.joints[a.joint].bind.rotation;
        let parent = skeleton.joints[a.joint].parent.filter(|&p| p < n).map_or(Quat::IDENTITY, |p| {
            let (_, r, _) = pose.world[p].to_scale_rotation_translation();
            r.normalize()
        });
        let Some(axis) = a.axis.try_normalize() else { continue };
        let from = parent * rest * axis;
        let to = pose.world[a.source].w_axis.truncate() - pose.world[a.joint].w_axis.truncate();
        let Some(to) = to.try_normalize() else { continue };
        let target = (parent.inverse() * Quat::from_rotation_arc(from, to) * parent * rest).normalize();
        pose.locals[a.joint].rotation = rest.slerp(target, a.weight.clamp(0.0, 1.0)).normalize();
        // Only the aimed joint turned: its subtree is all that moves.
        pose.evaluate_subtree(skeleton, a.joint);
    }
}

/// VRM's roll constraints (`VRMC_node_constraint` 1.0): the source's turn from its rest, brought into the
/// destination's rest frame (`d = dstRest⁻¹ · srcRest · (srcRest⁻¹ · src) · srcRest⁻¹ · dstRest`), stripped
/// of its swing off the roll axis (`fromTo(axis, d · axis)⁻¹ · d`, the twist), put on the destination's rest and
/// slerped from that rest by the weight. Evaluates the pose again when any destination turned.
fn apply_rolls(skeleton: &Skeleton, rolls: &[crate::scene::Roll], pose: &mut Pose) {
    let n = skeleton.len();
    let mut turned = false;
    for r in rolls.iter().filter(|r| r.joint < n && r.source < n && r.joint != r.source) {
        let (src_rest, dst_rest) = (skeleton.joints[r.source].bind.rotation, skeleton.joints[r.joint].bind.rotation);
        let delta = (src_rest.inverse() * pose.locals[r.source].rotation).normalize();
        let in_dst = (dst_rest.inverse() * src_rest * delta * src_rest.inverse() * dst_rest).normalize();
        let Some(axis) = r.axis.try_normalize() else { continue };
        let swing = Quat::from_rotation_arc(axis, (in_dst * axis).normalize());
        let target = (dst_rest * swing.inverse() * in_dst).normalize();
        pose.locals[r.joint].rotation = dst_rest.slerp(target, r.weight.clamp(0.0, 1.0)).normalize();
        turned = true;
    }
    if turned {
        pose.evaluate(skeleton);
    }
}

/// Buffers `apply_to_evaluated` and `solve` reuse from frame to frame (kept in the [`Pose`]), so that applying
/// the constraints allocates nothing once a pose has been through a frame.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    has_append: Vec<bool>,
    has_ik: Vec<bool>,
    offsets: Vec<(Quat, Vec3)>,
    animated: Vec<Quat>,
    /// One mark per joint for `Pose::evaluate_changed`, all false between uses.
    changed: Vec<bool>,
    chain: ChainScratch,
}

/// One chain's solve state: its path (top link to effector), each path joint's local matrix, and per link its
/// limits, animated rotation and accumulated turn.
#[derive(Debug, Clone, Default)]
pub(crate) struct ChainScratch {
    path: Vec<usize>,
    left: Vec<usize>,
    local: Vec<Mat4>,
    limits: Vec<Option<Limited>>,
    animated: Vec<Quat>,
    turns: Vec<Quat>,
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

/// Stop solving when the effector is this close to its IK bone (squared distance, model units), as
/// MikuMikuDance's runtimes do.
const CLOSE_ENOUGH2: f32 = 1e-8;

/// The most iterations one chain runs, whatever its file asks for.
const MAX_LOOPS: u32 = 256;

/// With [`IkFinish::PlantFeet`], a leg's CCD iterations have stalled when one leaves the foot further than this
/// share of its miss before. At 0.99 a leg of the corpus dance ran 24.5 iterations a frame on average (a nearly
/// straight knee brings the foot a few hundredths nearer per iteration for many of them); at 0.95, 8.8, and the
/// closed-form finish still puts the foot on its IK bone. Against running all 40 iterations before finishing,
/// knee positions move at most 0.0021 units over the dance (0.0016 at 0.99; 99th percentile 3.4e-4 against
/// 2.5e-4).
const LEG_STALL: f32 = 0.95;

/// Past this pitch (radians) an Euler decomposition holds the middle angle, away from gimbal lock.
const EULER_LIMIT: f32 = 88.0 * std::f32::consts::PI / 180.0;

/// How one limited link turns: about one axis of its parent's frame (a knee), not at all, or freely within
/// its per-axis limits.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Hinge {
    Free,
    Fixed,
    Axis(usize),
}

/// The order in which a limited link's rotation is split into Euler angles for clamping: the one whose middle
/// angle the limits keep furthest from ±90°.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Order {
    Yxz,
    Zyx,
    Xzy,
}

/// A link's limits sorted (min ≤ max per axis), with how it turns and the Euler order its limits are applied in.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limited {
    min: Vec3,
    max: Vec3,
    hinge: Hinge,
    order: Order,
}

impl Limited {
    pub(super) fn new(l: &AngleLimits) -> Limited {
        let (min, max) = (l.min.min(l.max), l.max.max(l.min));
        let half = std::f32::consts::FRAC_PI_2;
        let order = if -half < min.x && max.x < half {
            Order::Yxz
        } else if -half < min.y && max.y < half {
            Order::Zyx
        } else {
            Order::Xzy
        };
        let still = |k: usize| min[k] == 0.0 && max[k] == 0.0;
        let hinge = match (still(0), still(1), still(2)) {
            (true, true, true) => Hinge::Fixed,
            (false, true, true) => Hinge::Axis(0),
            (true, false, true) => Hinge::Axis(1),
            (true, true, false) => Hinge::Axis(2),
            _ => Hinge::Free,
        };
        Limited { min, max, hinge, order }
    }

    /// A link that turns about one axis of its parent's frame, or not at all: that axis and its range (X and
    /// [0, 0] for a fixed link); `None` for a link free on several axes.
    pub(super) fn axis(&self) -> Option<(Vec3, f32, f32)> {
        match self.hinge {
            Hinge::Axis(k) => Some((Vec3::AXES[k], self.min[k], self.max[k])),
            Hinge::Fixed => Some((Vec3::X, 0.0, 0.0)),
            Hinge::Free => None,
        }
    }

    /// `q` with each Euler angle (in the link's order) within its limits. While `reflect` (the first half of
    /// a solve), an angle past a limit is mirrored back about it when the mirror image lies within the range,
    /// which lets a knee that CCD bent forward fold back the way it bends.
    fn clamp(&self, q: Quat, reflect: bool) -> Quat {
        let m = glam::Mat3::from_quat(q);
        // m.col(c)[r] is row r, column c of the rotation matrix.
        let at = |r: usize, c: usize| m.col(c)[r];
        let middle = |s: f32| s.clamp(-1.0, 1.0).asin().clamp(-EULER_LIMIT, EULER_LIMIT);
        let limit = |a: f32, k: usize| limit_angle(a, self.min[k], self.max[k], reflect);
        match self.order {
            Order::Yxz => {
                let x = middle(-at(1, 2));
                let (y, z) = (at(0, 2).atan2(at(2, 2)), at(1, 0).atan2(at(1, 1)));
                Quat::from_euler(EulerRot::YXZ, limit(y, 1), limit(x, 0), limit(z, 2))
            }
            Order::Zyx => {
                let y = middle(-at(2, 0));
                let (x, z) = (at(2, 1).atan2(at(2, 2)), at(1, 0).atan2(at(0, 0)));
                Quat::from_euler(EulerRot::ZYX, limit(z, 2), limit(y, 1), limit(x, 0))
            }
            Order::Xzy => {
                let z = middle(-at(0, 1));
                let (x, y) = (at(2, 1).atan2(at(1, 1)), at(0, 2).atan2(at(0, 0)));
                Quat::from_euler(EulerRot::XZY, limit(x, 0), limit(z, 2), limit(y, 1))
            }
        }
    }
}

/// `angle` within [min, max]; past a limit, mirrored about it when `reflect` and the mirror lies in the range.
fn limit_angle(angle: f32, min: f32, max: f32, reflect: bool) -> f32 {
    if angle < min {
        let mirrored = 2.0 * min - angle;
        if reflect && mirrored <= max { mirrored } else { min }
    } else if angle > max {
        let mirrored = 2.0 * max - angle;
        if reflect && mirrored >= min { mirrored } else { max }
    } else {
        angle
    }
}

/// One IK chain on `pose`, whose world matrices are current; leaves them current.
///
/// Cyclic coordinate descent as MikuMikuDance's runtimes run it: every iteration turns each link in turn, from
/// the effector's parent up, by the angle between "link → effector" and "link → IK bone" (at most the chain's
/// limit angle times the link's place in the chain), about their common normal taken into the link's parent
/// frame. The turns add up over the solve on top of the animated rotation. A limited link's whole rotation is
/// split into Euler angles and clamped per axis; in the first half of the iterations a one-axis link (a knee)
/// turns about that axis only, in the sense of the normal, and an angle past a limit is mirrored back into the
/// range. The solve ends after the chain's loop count or once the effector is on the IK bone.
///
/// CCD converges slowly on a leg whose knee starts nearly straight (each step bends the knee by the small angle
/// the target subtends from it), so after the loop count MikuMikuDance (and babylon-mmd, three.js) leave such a
/// foot short of its IK bone, by 0.2–0.5 % of the body's height on the corpus dance. That is the default
/// ([`IkFinish::Ccd`]). With [`IkFinish::PlantFeet`] a leg (a free top link over one hinge) whose iterations
/// stall off its target is finished in closed form ([`finish_leg`]): the knee bent to the angle whose reach
/// equals the target's distance, the top link turned the shortest way to point at it, the pose the iterations
/// were converging to.
///
/// `scratch` holds the solve's buffers; `changed` is one mark per joint, all false, and left so.
fn solve(
    skeleton: &Skeleton,
    chain: &IkChain,
    pose: &mut Pose,
    (scratch, changed): (&mut ChainScratch, &mut [bool]),
    finish: IkFinish,
) {
    let goal = position(pose, chain.joint);
    if position(pose, chain.target).distance_squared(goal) < CLOSE_ENOUGH2 {
        return;
    }
    let ChainScratch { path, left, local, limits, animated, turns } = scratch;
    // The joints from the top link down to the effector: all a turn moves that the next turn reads. A turn
    // updates only those below its link (from their local matrices, kept here and renewed as a link turns);
    // the rest of the skeleton is re-evaluated once at the end.
    let path = chain_path(skeleton, chain, path, left).then_some(&path[..]);
    local.clear();
    local.extend(path.unwrap_or(&[]).iter().map(|&j| pose.locals[j].to_mat4()));
    // What the solve reads of the effector is its position, unless it is a link itself (a malformed chain):
    // then its axes are kept current too.
    let effector_axes = chain.links.iter().any(|l| l.joint == chain.target);
    limits.clear();
    limits.extend(chain.links.iter().map(|l| l.limits.as_ref().map(Limited::new)));
    animated.clear();
    animated.extend(chain.links.iter().map(|l| pose.locals[l.joint].rotation));
    turns.clear();
    turns.resize(chain.links.len(), Quat::IDENTITY);
    // The top link's parent frame: no turn of the chain moves it.
    let top_parent = path.and_then(|p| p.first()).map(|&top| (top, parent_rotation(skeleton, pose, top)));
    // A leg: a free top link over a knee, on the effector's parent line, which `finish_leg` can finish.
    let leg = match (path, &chain.links[..], &limits[..]) {
        _ if finish == IkFinish::Ccd => None,
        (Some(p), [knee, top], [Some(hinge), None]) if p.first() == Some(&top.joint) => match hinge.hinge {
            Hinge::Axis(k) => Some((p, (knee.joint, Vec3::AXES[k], hinge.min[k], hinge.max[k]))),
            _ => None,
        },
        _ => None,
    };
    let loops = chain.loop_count.min(MAX_LOOPS);
    let mut miss = position(pose, chain.target).distance(goal);
    for iteration in 0..loops {
        let first_half = iteration < loops / 2;
        for (l, link) in chain.links.iter().enumerate() {
            if limits[l].is_some_and(|x| x.hinge == Hinge::Fixed) {
                continue;
            }
            let parent = top_parent.filter(|&(top, _)| top == link.joint).map(|(_, m)| m);
            let Some(axis_angle) = ccd_turn(skeleton, chain, l, limits[l], first_half, parent, pose) else { continue };
            let mut turn = (Quat::from_axis_angle(axis_angle.0, axis_angle.1) * turns[l]).normalize();
            if let Some(limited) = limits[l] {
                let whole = limited.clamp(turn * animated[l], first_half);
                turn = (whole * animated[l].inverse()).normalize();
            }
            if !turn.is_finite() {
                continue;
            }
            turns[l] = turn;
            pose.locals[link.joint].rotation = (turn * animated[l]).normalize();
            update_below(skeleton, path, local, effector_axes, link.joint, pose);
        }
        let was = miss;
        miss = position(pose, chain.target).distance(goal);
        // A leg whose iterations have stalled (each bringing the foot less than a twentieth nearer) is finished
        // in closed form at once rather than after the rest of its loop count.
        if miss * miss < CLOSE_ENOUGH2 || (leg.is_some() && miss > was * LEG_STALL) {
            break;
        }
    }
    if let Some((p, knee)) = leg
        && miss * miss >= CLOSE_ENOUGH2
    {
        finish_leg(skeleton, chain, p, (local, effector_axes), knee, pose);
    }
    if let Some(&top) = path.and_then(|p| p.first()) {
        changed[top] = true;
        pose.evaluate_changed(skeleton, changed, top);
    }
}

/// A joint's model-space position.
fn position(pose: &Pose, j: usize) -> Vec3 {
    pose.world[j].w_axis.truncate()
}

/// The rotation one CCD step gives link `l` (axis in its parent's frame, angle), or `None` when the effector
/// already lies on the line from the link to the IK bone. `parent`: the link's parent frame when known.
fn ccd_turn(
    skeleton: &Skeleton,
    chain: &IkChain,
    l: usize,
    limited: Option<Limited>,
    first_half: bool,
    parent: Option<glam::Mat3>,
    pose: &Pose,
) -> Option<(Vec3, f32)> {
    let joint = chain.links[l].joint;
    let origin = position(pose, joint);
    let to_effector = (origin - position(pose, chain.target)).try_normalize()?;
    let to_goal = (origin - position(pose, chain.joint)).try_normalize()?;
    let normal = to_effector.cross(to_goal);
    if normal.length_squared() < CLOSE_ENOUGH2 {
        return None;
    }
    let parent = parent.unwrap_or_else(|| parent_rotation(skeleton, pose, joint));
    let axis = match limited.map(|x| x.hinge) {
        Some(Hinge::Axis(k)) if first_half => Vec3::AXES[k] * if normal.dot(parent.col(k)) >= 0.0 { 1.0 } else { -1.0 },
        _ => (parent.transpose() * normal).try_normalize()?,
    };
    // The angle between the two directions from its sine and cosine: `acos` of a cosine near 1 in single
    // precision resolves no turn finer than 3.5e-4 rad, where a stalled leg's CCD steps are smaller, so the solve
    // would go where rounding takes it (the runtimes compute this in double precision).
    let mut angle = normal.length().atan2(to_effector.dot(to_goal));
    if chain.limit_angle > 0.0 {
        angle = angle.min(chain.limit_angle * (l + 1) as f32);
    }
    Some((axis, angle))
}

/// The rotation of a joint's parent frame in model space (a scaled parent's axes normalised).
fn parent_rotation(skeleton: &Skeleton, pose: &Pose, joint: usize) -> glam::Mat3 {
    skeleton.joints[joint].parent.map_or(glam::Mat3::IDENTITY, |p| {
        let m = glam::Mat3::from_mat4(pose.world[p]);
        glam::Mat3::from_cols(m.x_axis.normalize(), m.y_axis.normalize(), m.z_axis.normalize())
    })
}

/// Re-evaluates the world matrices from `joint`, whose local transform has just changed, down the chain's path
/// to its effector (all that a turn of `joint` moves that the solve reads), or from `joint` on when the chain
/// has no path. `local` holds the path joints' local matrices; `joint`'s is renewed. Of the effector (the path's
/// last joint), below `joint`, only the position is renewed unless `effector_axes`: the column a full product
/// gives, the rest is left for the evaluation that ends the solve.
fn update_below(
    skeleton: &Skeleton,
    path: Option<&[usize]>,
    local: &mut [Mat4],
    effector_axes: bool,
    joint: usize,
    pose: &mut Pose,
) {
    match path.and_then(|p| Some((p, p.iter().position(|&j| j == joint)?))) {
        Some((p, k)) => {
            local[k] = pose.locals[joint].to_mat4();
            let last = p.len() - 1;
            for (i, (&j, &m)) in p.iter().zip(local.iter()).enumerate().skip(k) {
                match skeleton.joints[j].parent {
                    Some(q) if i == last && i > k && !effector_axes => {
                        pose.world[j].w_axis = pose.world[q] * m.w_axis;
                    }
                    Some(q) => pose.world[j] = pose.world[q] * m,
                    None => pose.world[j] = m,
                }
            }
        }
        None => pose.evaluate_from(skeleton, joint),
    }
}

/// Finishes a leg in closed form: `path` runs from the free top link to the effector (`mats`: their local
/// matrices, and whether the effector's axes are kept, as `update_below` takes them), `knee` is (joint, hinge
/// axis in its parent's frame, lowest and highest angle). The knee's whole rotation becomes the hinge angle
/// within its limits whose top-to-effector distance equals the top-to-target distance (the solution nearest the
/// knee's angle now), or, when none does, the one that comes nearest; then the top link turns by the shortest
/// arc that points the effector at the target. Rigid (similarity) transforms below the top are assumed, as
/// MikuMikuDance's bones are: the squared distance is then a sinusoid of the hinge angle.
fn finish_leg(
    skeleton: &Skeleton,
    chain: &IkChain,
    path: &[usize],
    (mats, effector_axes): (&mut [Mat4], bool),
    (knee, axis, min, max): (usize, Vec3, f32, f32),
    pose: &mut Pose,
) {
    let top = path[0];
    let (root, goal) = (position(pose, top), position(pose, chain.joint));
    let want = (goal - root).length_squared();
    let now = {
        let (a, angle) = pose.locals[knee].rotation.to_axis_angle();
        if a.dot(axis) < 0.0 { -angle } else { angle }
    };
    let Some(parent) = skeleton.joints[knee].parent else { return };
    // The effector in the knee's own frame, and the knee's local transform for a hinge angle.
    let effector = pose.world[knee].inverse().transform_point3(position(pose, chain.target));
    let local = pose.locals[knee];
    let reach2 = |angle: f32| {
        let m =
            Mat4::from_scale_rotation_translation(local.scale, Quat::from_axis_angle(axis, angle), local.translation);
        (pose.world[parent] * m).transform_point3(effector).distance_squared(root)
    };
    // reach²(θ) = a + b·cos θ + c·sin θ = a + r·cos(θ − φ).
    let (at0, at_half, at_pi) = (reach2(0.0), reach2(std::f32::consts::FRAC_PI_2), reach2(std::f32::consts::PI));
    let (a, b, c) = ((at0 + at_pi) / 2.0, (at0 - at_pi) / 2.0, at_half - (at0 + at_pi) / 2.0);
    let (r, phi) = (b.hypot(c), c.atan2(b));
    let tau = std::f32::consts::TAU;
    // Every angle in [min, max] congruent to one of `angles`.
    let in_range = |angles: &[f32]| -> Vec<f32> {
        let mut out = Vec::new();
        for &t in angles {
            for k in -2..=2 {
                let x = t + k as f32 * tau;
                if (min..=max).contains(&x) {
                    out.push(x);
                }
            }
        }
        out
    };
    let exact = if r > 1e-12 && ((want - a) / r).abs() <= 1.0 {
        let d = ((want - a) / r).acos();
        in_range(&[phi + d, phi - d])
    } else {
        Vec::new()
    };
    let angle = if exact.is_empty() {
        // Out of reach: the end or turning point of the sinusoid that comes nearest.
        let mut candidates = in_range(&[phi, phi + std::f32::consts::PI]);
        candidates.extend([min, max]);
        candidates.into_iter().min_by(|x, y| (reach2(*x) - want).abs().total_cmp(&(reach2(*y) - want).abs()))
    } else {
        exact.into_iter().min_by(|x, y| (x - now).abs().total_cmp(&(y - now).abs()))
    };
    let Some(angle) = angle else { return };
    pose.locals[knee].rotation = Quat::from_axis_angle(axis, angle);
    update_below(skeleton, Some(path), mats, effector_axes, knee, pose);
    // Point the effector at the target: the shortest arc, in model space, carried into the top's parent frame.
    let (Some(from), Some(to)) = ((position(pose, chain.target) - root).try_normalize(), (goal - root).try_normalize())
    else {
        return;
    };
    // (glam's `from_rotation_arc` returns no turn below about 1e-3 rad: 0.01 units of miss at a leg's length.)
    let cross = from.cross(to);
    let Some(axis) = cross.try_normalize() else { return };
    let arc = Quat::from_axis_angle(axis, cross.length().atan2(from.dot(to)));
    let parent = Quat::from_mat3(&parent_rotation(skeleton, pose, top));
    let turn = parent.inverse() * arc * parent;
    pose.locals[top].rotation = (turn * pose.locals[top].rotation).normalize();
    update_below(skeleton, Some(path), mats, effector_axes, top, pose);
}

/// Writes into `path` the chain's joints from its top link down to its effector, parents first, and returns
/// true, when every link lies on the effector's parent line (as in any chain MikuMikuDance accepts); false
/// otherwise. `left` is a buffer.
fn chain_path(skeleton: &Skeleton, chain: &IkChain, path: &mut Vec<usize>, left: &mut Vec<usize>) -> bool {
    path.clear();
    path.push(chain.target);
    let mut j = chain.target;
    left.clear();
    left.extend(chain.links.iter().map(|l| l.joint));
    left.retain(|&l| l != j);
    while !left.is_empty() {
        let Some(parent) = skeleton.joints.get(j).and_then(|joint| joint.parent) else { return false };
        j = parent;
        path.push(j);
        left.retain(|&l| l != j);
    }
    path.reverse();
    true
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::scene::{Append, IkLink, Joint, Transform};

    /// hip (0) → knee (1) → ankle (2), each 1 below its parent, and an IK bone (3) under the root.
    pub(crate) fn leg() -> Skeleton {
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

    /// A leg whose knee starts all but straight (its key: 0.02 rad) and an IK bone well within reach: CCD
    /// alone bends such a knee by a sliver per iteration. MikuMikuDance's solve (the default) stops after the
    /// loop count with the ankle short of the IK bone; with feet planted the solve puts the ankle on it however
    /// few the iterations, the knee bent back about X only, within its limits.
    #[test]
    fn a_nearly_straight_leg_stops_short_unless_planted() {
        let s = leg();
        for (goal, loops) in
            [(Vec3::new(0.0, 0.6, 0.1), 2), (Vec3::new(0.3, 0.3, -0.2), 2), (Vec3::new(0.0, 0.5, 0.4), 40)]
        {
            let knee =
                AngleLimits { min: Vec3::new(-std::f32::consts::PI, 0.0, 0.0), max: Vec3::new(-0.0087, 0.0, 0.0) };
            let mut c = chain(Some(knee));
            c.ik[0].loop_count = loops;
            let solved = |finish: IkFinish| {
                let mut pose = Pose::bind(&s);
                pose.locals[1].rotation = Quat::from_rotation_x(-0.02);
                pose.locals[3].translation = goal;
                pose.evaluate(&s);
                apply_to_evaluated(&s, &c, &mut pose, (|_| true, finish), None);
                pose
            };
            let pose = solved(IkFinish::PlantFeet);
            let ankle = pose.world[2].w_axis.truncate();
            assert!(ankle.distance(goal) < 1e-5, "goal {goal}, {loops} loops: ankle at {ankle}");
            let (x, y, z) = pose.locals[1].rotation.to_euler(EulerRot::XYZ);
            assert!(
                (-std::f32::consts::PI..=-0.0087).contains(&x) && y.abs() < 1e-5 && z.abs() < 1e-5,
                "knee ({x}, {y}, {z})"
            );
            if loops == 2 {
                let short = solved(IkFinish::Ccd).world[2].w_axis.truncate().distance(goal);
                assert!(short > 1e-3, "goal {goal}: two CCD iterations leave the ankle short ({short})");
            }
        }
    }

    /// A limited link's rotation is clamped per axis in the Euler order its limits suit (YXZ when X stays
    /// within ±90°), and while reflecting, an angle past a limit is mirrored back into the range.
    #[test]
    fn limits_clamp_each_euler_angle_and_mirror_while_reflecting() {
        let wide = AngleLimits { min: Vec3::new(-0.1, -1.0, -1.0), max: Vec3::new(0.1, 1.0, 1.0) };
        let limited = Limited::new(&wide);
        assert_eq!(limited.order, Order::Yxz);
        let q = Quat::from_euler(EulerRot::YXZ, 0.3, 0.2, -0.4);
        let (y, x, z) = limited.clamp(q, false).to_euler(EulerRot::YXZ);
        assert!((y - 0.3).abs() < 1e-5 && (x - 0.1).abs() < 1e-5 && (z + 0.4).abs() < 1e-5, "({y}, {x}, {z})");
        let knee = Limited::new(&AngleLimits { min: Vec3::new(-3.0, 0.0, 0.0), max: Vec3::new(-0.01, 0.0, 0.0) });
        assert_eq!((knee.hinge, knee.order), (Hinge::Axis(0), Order::Zyx));
        let forward = Quat::from_rotation_x(0.2);
        let x = |q: Quat| q.to_euler(EulerRot::XYZ).0;
        assert!(
            (x(knee.clamp(forward, true)) + 0.22).abs() < 1e-5,
            "mirrored about -0.01: {}",
            x(knee.clamp(forward, true))
        );
        assert!((x(knee.clamp(forward, false)) + 0.01).abs() < 1e-5, "clamped: {}", x(knee.clamp(forward, false)));
        assert_eq!(limit_angle(-5.0, -3.0, -0.01, true), -1.0, "mirrored about the lower limit");
        assert_eq!(limit_angle(-10.0, -3.0, -0.01, true), -3.0, "a mirror past the other limit clamps");
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

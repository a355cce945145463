//! The rig in a Bullet world (the pure-Rust `bullet-physics` port), set up as MikuMikuDance's runtimes set up
//! Bullet: additional damping on, no sleeping, friction and restitution combined as products, Bullet's filter
//! (group against mask both ways), no contact response for bodies with no collision mask or no volume,
//! collisions between jointed bodies left on, stop ERP 0.475 on every joint axis, and Bullet's 6DOF spring:
//! a motor re-aimed before every internal step (`btGeneric6DofSpringConstraint::internalUpdateSprings`).
//! Kinematic bodies are placed where their bone puts them and given the velocity that moved them there, as
//! Bullet's kinematic motion states are. Nothing here knows about bones or time: `physics::Simulation` does.

use bullet_physics::dynamics::constraint::JointFrame;
use bullet_physics::dynamics::{BodyHandle, Constraint, PhysicsWorld, RigidBody};
use bullet_physics::math::{Matrix3, Quaternion, Vector3};
use bullet_physics::shapes::CollisionShape;
use glam::{Mat3, Mat4, Quat, Vec3};

use super::rig::{Body, Rig, Shape};

/// Bullet's stop ERP as babylon-mmd sets it on all six axes of every MMD joint.
pub const STOP_ERP: f32 = 0.475;

fn v(x: Vec3) -> Vector3 {
    Vector3::new(x.x, x.y, x.z)
}
fn g(x: Vector3) -> Vec3 {
    Vec3::new(x.x, x.y, x.z)
}
fn q(x: Quat) -> Quaternion {
    Quaternion::from_xyzw(x.x, x.y, x.z, x.w)
}
fn gq(x: Quaternion) -> Quat {
    Quat::from_xyzw(x.x, x.y, x.z, x.w)
}
fn m3(x: Mat3) -> Matrix3 {
    Matrix3::from_cols(v(x.x_axis), v(x.y_axis), v(x.z_axis))
}

/// A body's place: position and rotation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    pub position: Vec3,
    pub rotation: Quat,
}

impl Place {
    pub fn of(m: Mat4) -> Place {
        let (_, rotation, position) = m.to_scale_rotation_translation();
        Place { position, rotation: rotation.normalize() }
    }
    pub fn to_mat4(self) -> Mat4 {
        Mat4::from_rotation_translation(self.rotation, self.position)
    }
}

/// One body's full dynamic state, for snapshots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyState {
    pub place: Place,
    pub linear_velocity: Vec3,
    pub angular_velocity: Vec3,
}

struct Spring {
    constraint: usize,
    bodies: [usize; 2],
    frame_in: [(Vec3, Mat3); 2],
    /// Stiffness per axis (linear X, Y, Z, angular X, Y, Z) and whether that axis's spring is on.
    stiffness: [f32; 6],
    enabled: [bool; 6],
}

/// The Bullet world of one model.
pub struct Engine {
    world: PhysicsWorld,
    handles: Vec<BodyHandle>,
    springs: Vec<Spring>,
    /// Per body: kinematic now, and where it was last placed (the start of its next move).
    kinematic: Vec<bool>,
    last: Vec<Place>,
    /// Per body: where a kinematic body goes in the next step.
    target: Vec<Place>,
    gravity: Vec3,
    /// The last step's length, for [`Engine::shown`].
    last_step: f32,
}

fn shape(s: &Shape) -> CollisionShape {
    let tiny = 1e-4;
    match *s {
        Shape::Sphere { radius } => CollisionShape::sphere(radius.max(tiny)),
        Shape::Box { half } => CollisionShape::box_shape(v(half.max(Vec3::splat(tiny)))),
        Shape::Capsule { radius, half_height } => CollisionShape::capsule(radius.max(tiny), half_height.max(0.0)),
    }
}

/// The shape whose inertia Bullet gives a body of shape `s`. Bullet's capsule (`btCapsuleShape::
/// calculateLocalInertia`) takes the inertia of the box around it, half extents (r, r + half height, r); the
/// port computes a true capsule's, which is up to 10 % less about its long axes for MikuMikuDance's hair and
/// skirt capsules and so swings them faster. Spheres and boxes agree.
fn inertia_shape(s: &Shape) -> CollisionShape {
    match *s {
        Shape::Capsule { radius, half_height } => {
            let r = radius.max(1e-4);
            CollisionShape::box_shape(v(Vec3::new(r, r + half_height.max(0.0), r)))
        }
        _ => shape(s),
    }
}

fn make_body(b: &Body, kinematic: bool) -> RigidBody {
    let place = Place::of(b.rest);
    let body = if kinematic {
        RigidBody::new_kinematic(shape(&b.shape), v(place.position))
    } else {
        let mut body = RigidBody::new_dynamic(inertia_shape(&b.shape), v(place.position), b.mass);
        body.shape = shape(&b.shape);
        body
    };
    let mut body = body
        .orientation(q(place.rotation))
        .friction(b.friction)
        .restitution(b.restitution)
        .collision_filter(b.group, b.mask)
        .no_contact_response(b.mask == 0 || b.shape.is_empty())
        .additional_damping(true)
        .disable_deactivation();
    body.set_damping(b.linear_damping, b.angular_damping);
    body
}

impl Engine {
    /// The rig at rest, with `gravity` (units/s²). Bodies that aren't simulated are kinematic.
    pub fn new(rig: &Rig, gravity: Vec3) -> Engine {
        let kinematic = rig.bodies.iter().map(|b| !b.simulated()).collect();
        Engine::with_kinematic(rig, gravity, kinematic)
    }

    /// The rig at rest with `kinematic[i]` saying which bodies follow targets instead of being simulated (a body
    /// with no mass is kinematic whatever it says). A kinematic body has no mass for the solver, as Bullet's.
    pub fn with_kinematic(rig: &Rig, gravity: Vec3, kinematic: Vec<bool>) -> Engine {
        let mut world = PhysicsWorld::new();
        world.set_gravity(v(gravity));
        let kinematic: Vec<bool> =
            rig.bodies.iter().zip(kinematic).map(|(b, k)| k || !(b.mass > 0.0 && b.mass.is_finite())).collect();
        let handles: Vec<BodyHandle> =
            rig.bodies.iter().zip(&kinematic).map(|(b, &k)| world.add_body(make_body(b, k))).collect();
        let mut springs = Vec::new();
        for j in &rig.joints {
            let frame = |m: Mat4| {
                let (_, r, t) = m.to_scale_rotation_translation();
                (t, Mat3::from_quat(r.normalize()))
            };
            let (fa, fb) = (frame(j.frame_in[0]), frame(j.frame_in[1]));
            let mut c = Constraint::generic_6dof(
                handles[j.bodies[0]],
                handles[j.bodies[1]],
                JointFrame::new(v(fa.0), m3(fa.1)),
                JointFrame::new(v(fb.0), m3(fb.1)),
            );
            c.set_disable_collisions(false);
            let d = c.generic_6dof_mut();
            d.set_linear_limits(v(j.linear_min), v(j.linear_max));
            d.set_angular_limits(v(j.angular_min), v(j.angular_max));
            d.linear.stop_erp = Vector3::splat(STOP_ERP);
            for a in &mut d.angular {
                a.stop_erp = STOP_ERP;
            }
            let stiffness = [
                j.linear_spring.x,
                j.linear_spring.y,
                j.linear_spring.z,
                j.angular_spring.x,
                j.angular_spring.y,
                j.angular_spring.z,
            ];
            // babylon-mmd turns a linear spring on only when it is stiff, and every angular one.
            let enabled = std::array::from_fn(|i| i >= 3 || stiffness[i] != 0.0);
            for (i, _) in enabled.iter().enumerate().filter(|(_, e)| **e) {
                d.enable_motor(i, 0.0, 0.0);
            }
            let constraint = world.add_constraint(c);
            springs.push(Spring { constraint, bodies: j.bodies, frame_in: [fa, fb], stiffness, enabled });
        }
        let rest: Vec<Place> = rig.bodies.iter().map(|b| Place::of(b.rest)).collect();
        Engine { world, handles, springs, kinematic, last: rest.clone(), target: rest, last_step: 0.0, gravity }
    }

    pub fn len(&self) -> usize {
        self.handles.len()
    }

    /// The gravity the bodies fall with now (units/s²).
    pub fn gravity(&self) -> Vec3 {
        self.gravity
    }

    /// A new gravity for every body from the next step on (the motion's gravity keys); the bodies keep their
    /// places and velocities.
    pub fn set_gravity(&mut self, gravity: Vec3) {
        if gravity != self.gravity && gravity.is_finite() {
            self.gravity = gravity;
            self.world.set_gravity(v(gravity));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.handles.is_empty()
    }

    pub fn is_kinematic(&self, i: usize) -> bool {
        self.kinematic[i]
    }

    /// Makes the bodies `kinematic` says kinematic (they go where [`Engine::set_target`] says) and the others
    /// simulated. Bullet gives a kinematic body no mass, so the world is rebuilt with every body where it is: a
    /// body let go starts at rest (as babylon-mmd lets go of the bodies it held), the others keep their velocities.
    pub fn set_kinematic(&mut self, rig: &Rig, kinematic: &[bool]) {
        let wanted: Vec<bool> =
            (0..self.len()).map(|i| kinematic.get(i).copied().unwrap_or(self.kinematic[i])).collect();
        let mut next = Engine::with_kinematic(rig, self.gravity, wanted);
        if next.kinematic == self.kinematic {
            return;
        }
        for i in 0..self.len() {
            let mut state = self.state(i);
            if self.kinematic[i] && !next.kinematic[i] {
                state.linear_velocity = Vec3::ZERO;
                state.angular_velocity = Vec3::ZERO;
            }
            next.set_state(i, state);
            next.target[i] = self.target[i];
        }
        next.last_step = self.last_step;
        *self = next;
    }

    /// Where kinematic body `i` goes in the next step.
    pub fn set_target(&mut self, i: usize, place: Place) {
        self.target[i] = place;
    }

    /// Puts body `i` at `place` at once with the given velocities (a reset, or a snapshot restored).
    pub fn set_state(&mut self, i: usize, state: BodyState) {
        let finite = state.place.position.is_finite()
            && state.place.rotation.is_finite()
            && state.linear_velocity.is_finite()
            && state.angular_velocity.is_finite();
        if !finite {
            return;
        }
        let body = self.world.body_mut(self.handles[i]);
        body.position = v(state.place.position);
        body.orientation = q(state.place.rotation);
        body.linear_velocity = v(state.linear_velocity);
        body.angular_velocity = v(state.angular_velocity);
        self.last[i] = state.place;
        self.target[i] = state.place;
    }

    /// Sets simulated body `i`'s velocities (a switched-off body steered toward its bone); kinematic bodies keep
    /// the velocity of their move.
    pub fn set_velocities(&mut self, i: usize, linear: Vec3, angular: Vec3) {
        if self.kinematic[i] || !linear.is_finite() || !angular.is_finite() {
            return;
        }
        let body = self.world.body_mut(self.handles[i]);
        body.linear_velocity = v(linear);
        body.angular_velocity = v(angular);
    }

    /// The last step's length (0 before any), which [`Engine::shown`] goes back by; kept in snapshots.
    pub fn last_step(&self) -> f32 {
        self.last_step
    }

    pub fn set_last_step(&mut self, step: f32) {
        self.last_step = step;
    }

    pub fn state(&self, i: usize) -> BodyState {
        let body = self.world.body(self.handles[i]);
        BodyState {
            place: self.place(i),
            linear_velocity: g(body.linear_velocity),
            angular_velocity: g(body.angular_velocity),
        }
    }

    /// Body `i`'s place: where a kinematic body was put, where the solver left a simulated one.
    pub fn place(&self, i: usize) -> Place {
        if self.kinematic[i] {
            return self.last[i];
        }
        let body = self.world.body(self.handles[i]);
        Place { position: g(body.position), rotation: gq(body.orientation).normalize() }
    }

    /// Body `i` as Bullet's motion state shows it (what babylon-mmd reads into bones and draws): a simulated body
    /// one step behind its simulated place, taken back along its velocity (Bullet 3's latency interpolation with
    /// the step's remainder at 0); a kinematic body where it was put.
    pub fn shown(&self, i: usize) -> Place {
        let place = self.place(i);
        if self.kinematic[i] || self.last_step <= 0.0 {
            return place;
        }
        let body = self.world.body(self.handles[i]);
        let t = -self.last_step;
        let omega = g(body.angular_velocity);
        // Bullet's integrateTransform, with its limit on the angle turned per step.
        let limit = std::f32::consts::FRAC_PI_4;
        let omega = if omega.length() * self.last_step > limit {
            omega * (limit / (omega.length() * self.last_step))
        } else {
            omega
        };
        Place {
            position: place.position + g(body.linear_velocity) * t,
            rotation: (Quat::from_scaled_axis(omega * t) * place.rotation).normalize(),
        }
    }

    /// `count` internal steps of `dt` seconds, as one `stepSimulation` call of Bullet's: kinematic bodies jump
    /// to their targets at the start and keep, through every step, the velocity that moves them there over the
    /// whole call (Bullet's `saveKinematicState`); springs are re-aimed before each step.
    pub fn steps(&mut self, count: u32, dt: f32) {
        if dt.is_nan() || dt <= 0.0 || count == 0 {
            return;
        }
        let span = dt * count as f32;
        let mut moves = Vec::with_capacity(self.handles.len());
        for i in 0..self.handles.len() {
            if !self.kinematic[i] {
                continue;
            }
            let from = self.last[i];
            // A pose that isn't a number (a damaged file's bone) leaves the body where it was.
            let to = if self.target[i].position.is_finite() && self.target[i].rotation.is_finite() {
                self.target[i]
            } else {
                from
            };
            let linear = (to.position - from.position) / span;
            let turn = (to.rotation * from.rotation.inverse()).normalize();
            let turn = if turn.w < 0.0 { -turn } else { turn };
            let (axis, angle) = turn.to_axis_angle();
            let angular = if angle.is_finite() && angle > 0.0 { axis * (angle / span) } else { Vec3::ZERO };
            moves.push((i, to, linear, angular));
            self.last[i] = to;
        }
        for _ in 0..count {
            // The port moves a kinematic body along its velocity in each step; Bullet keeps it where its motion
            // state put it, so it goes back to its target before every step.
            for &(i, to, linear, angular) in &moves {
                let body = self.world.body_mut(self.handles[i]);
                body.position = v(to.position);
                body.orientation = q(to.rotation);
                body.linear_velocity = v(linear);
                body.angular_velocity = v(angular);
            }
            self.update_springs(dt);
            self.world.step_simulation(dt);
            self.last_step = dt;
        }
    }

    /// Bullet's `internalUpdateSprings`: each spring axis becomes a motor whose target velocity is
    /// `fps · damping / iterations · force` and whose largest impulse per step is `|force| / fps`, with force `k · x`
    /// (linear) or `−k · angle` (angular) at the joint's current displacement.
    fn update_springs(&mut self, dt: f32) {
        let fps = 1.0 / dt;
        let iterations = self.world.solver_info().num_iterations.max(1) as f32;
        for s in &self.springs {
            let frame = |k: usize| {
                let b = self.world.body(self.handles[s.bodies[k]]);
                let (origin, basis) = s.frame_in[k];
                let rotation = gq(b.orientation);
                (g(b.position) + rotation * origin, Mat3::from_quat(rotation) * basis)
            };
            let (pa, ba) = frame(0);
            let (pb, bb) = frame(1);
            let linear = ba.transpose() * (pb - pa);
            let angles = bullet_euler_xyz(ba.transpose() * bb);
            let d = self.world.constraint_mut(s.constraint).generic_6dof_mut();
            for i in 0..6 {
                if !s.enabled[i] {
                    continue;
                }
                let force = if i < 3 { linear[i] * s.stiffness[i] } else { -angles[i - 3] * s.stiffness[i] };
                let force = if force.is_finite() { force } else { 0.0 };
                let velocity = fps / iterations * force;
                // Bullet 3 (and this port) bound a motor row's impulse by `max force / fps`, so the largest force
                // is |force| itself; Bullet 2.75 stored |force| / fps and bounded by it: the same impulse.
                d.enable_motor(i, velocity, force.abs());
            }
        }
    }
}

/// Bullet's `matrixToEulerXYZ` as its 6DOF constraint reads a relative rotation (element `[r][c]` is row r,
/// column c).
pub fn bullet_euler_xyz(m: Mat3) -> Vec3 {
    let at = |r: usize, c: usize| m.col(c)[r];
    let r20 = at(2, 0);
    if r20 < 1.0 {
        if r20 > -1.0 {
            Vec3::new((-at(2, 1)).atan2(at(2, 2)), r20.asin(), (-at(1, 0)).atan2(at(0, 0)))
        } else {
            Vec3::new(-at(0, 1).atan2(at(1, 1)), -std::f32::consts::FRAC_PI_2, 0.0)
        }
    } else {
        Vec3::new(at(0, 1).atan2(at(1, 1)), std::f32::consts::FRAC_PI_2, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A capsule gets Bullet's inertia (`btCapsuleShape::calculateLocalInertia`: the box of half extents r,
    /// r + half height, r, `m/12 · (ly² + lz²)` and so on), not a true capsule's; spheres and boxes their own.
    #[test]
    fn capsules_get_bullets_box_inertia() {
        let (r, hh, m) = (0.25f32, 1.75f32, 2.0f32);
        let i = inertia_shape(&Shape::Capsule { radius: r, half_height: hh }).local_inertia(m);
        let (lx, ly) = (2.0 * r, 2.0 * (r + hh));
        let want =
            Vec3::new(m / 12.0 * (ly * ly + lx * lx), m / 12.0 * (lx * lx + lx * lx), m / 12.0 * (lx * lx + ly * ly));
        assert!((g(i) - want).length() < 1e-5 * want.length(), "{:?} against {want}", g(i));
        let true_capsule = shape(&Shape::Capsule { radius: r, half_height: hh }).local_inertia(m);
        assert!(want.x > 1.05 * true_capsule.x, "the port's own is smaller: {}", true_capsule.x);
        let sphere = inertia_shape(&Shape::Sphere { radius: r }).local_inertia(m);
        assert!((sphere.x - 0.4 * m * r * r).abs() < 1e-6);
    }
}

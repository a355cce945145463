//! One model's simulation through time, in MikuMikuDance's order. Each frame: the motion's pose of the bones
//! evaluated before physics (appends and IK, with IK chains that physics drives left out), follow bodies placed
//! where their bones are, fixed steps of the simulation, simulated bodies written back to their bones (mode 2
//! keeps the bone's animated position), then the bones flagged "after physics". The clock: playback simulates
//! forward at the fixed step; a jump of more than two seconds, a jump to frame 0 (a loop restart too) and the
//! first frame reset (bodies placed at the pose reached, then the pose held for a warm-up); going back a little
//! restores the latest snapshot at or before the frame (one is kept per second of simulated clip) and simulates
//! forward from it. Reaching a frame the same way gives the same pose, bit for bit: nothing here reads a clock.
//! Gravity is the motion's at each frame (`Clip::gravity`, MVD Project keys) unless the settings say to ignore
//! it; the settings' gravity otherwise.

use glam::{Mat4, Vec3};

use super::engine::{BodyState, Engine, Place};
use super::rig::Rig;
use super::spring::SpringSim;
use crate::anim::{Pose, PoseInput};
use crate::scene::Scene;

/// A jump longer than this (seconds of clip) resets instead of simulating the whole way.
pub const RESET_JUMP: f64 = 2.0;

/// How the simulation runs; the window's settings and the command line's flags.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct PhysicsSettings {
    /// Units per second², MikuMikuDance's (0, −98, 0) by default: used where the motion keys no gravity, or
    /// always when `motion_gravity` is off.
    pub gravity: Vec3,
    /// Whether the motion's gravity keys ([`crate::scene::Clip::gravity`]) win over `gravity` where the clip has
    /// them. On by default; a gravity the user sets (`pose --gravity`, the window's Gravity field) turns it off.
    pub motion_gravity: bool,
    /// The fixed step, seconds (1/60).
    pub step: f32,
    /// Steps the pose is held for after a reset, so that hair placed in a pose far from the bind pose settles
    /// before the motion runs.
    pub warmup_steps: u32,
}

impl Default for PhysicsSettings {
    fn default() -> Self {
        PhysicsSettings {
            gravity: Vec3::new(0.0, -98.0, 0.0),
            motion_gravity: true,
            step: 1.0 / 60.0,
            warmup_steps: 60,
        }
    }
}

impl PhysicsSettings {
    /// The longest warm-up the settings take (ten seconds of steps at 1/60).
    pub const MAX_WARMUP: u32 = 600;

    /// Settings a simulation can run: a finite gravity, a step from 1/1000 s to 1/10 s, a bounded warm-up;
    /// anything else takes the default's value.
    pub fn sanitized(self) -> PhysicsSettings {
        let d = PhysicsSettings::default();
        PhysicsSettings {
            gravity: if self.gravity.is_finite() { self.gravity } else { d.gravity },
            motion_gravity: self.motion_gravity,
            step: if (0.001..=0.1).contains(&self.step) { self.step } else { d.step },
            warmup_steps: self.warmup_steps.min(Self::MAX_WARMUP),
        }
    }
}

/// Why the last pose reset the simulation, if it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reached {
    /// Placed at the pose and warmed up.
    Reset,
    /// Restored from a snapshot, then simulated forward.
    Restored,
    /// Simulated forward from the previous frame.
    Stepped,
}

#[derive(Debug, Clone)]
struct Snapshot {
    time: f64,
    accumulator: f32,
    last_step: f32,
    bodies: Vec<BodyState>,
    switched_off: Vec<bool>,
    springs: Option<SpringSim>,
}

/// A model's rigid bodies through time.
pub struct Simulation {
    rig: Rig,
    engine: Engine,
    settings: PhysicsSettings,
    /// Clip time of the state held, seconds; `None` before the first frame.
    time: Option<f64>,
    accumulator: f32,
    snapshots: Vec<Snapshot>,
    next_snapshot: f64,
    reached: Reached,
    steps: u64,
    /// Per body: switched out of physics by the motion now.
    switched_off: Vec<bool>,
    /// Per body: switched off but steered toward its bone by velocity, because a simulated body above it still
    /// moves it ([`steered`]).
    steered: Vec<bool>,
    /// Per body: the first body on its bone's parent bone (`None` for a body without a bone, on a root bone or
    /// under a bone without bodies), as babylon-mmd walks up to decide how a switched-off body follows.
    parent_body: Vec<Option<usize>>,
    /// VRM spring bones, stepped at the same fixed step and by the same clock, after the bodies' bones.
    springs: Option<SpringSim>,
}

impl Simulation {
    /// The simulation of a scene with rigid bodies or spring bones; `None` when it has neither.
    pub fn new(scene: &Scene, settings: PhysicsSettings) -> Option<Simulation> {
        let springs = SpringSim::new(scene);
        let rig = match Rig::of_scene(scene) {
            Some(rig) => rig,
            None if springs.is_some() => Rig::default(),
            None => return None,
        };
        let engine = Engine::new(&rig, settings.gravity);
        let switched_off = vec![false; rig.bodies.len()];
        let parent_body = parent_bodies(scene, &rig);
        Some(Simulation {
            parent_body,
            steered: switched_off.clone(),
            switched_off,
            rig,
            engine,
            settings,
            time: None,
            accumulator: 0.0,
            snapshots: Vec::new(),
            next_snapshot: 0.0,
            reached: Reached::Reset,
            steps: 0,
            springs,
        })
    }

    pub fn rig(&self) -> &Rig {
        &self.rig
    }

    pub fn settings(&self) -> PhysicsSettings {
        self.settings
    }

    /// New settings; the next pose resets.
    pub fn set_settings(&mut self, settings: PhysicsSettings) {
        self.settings = settings;
        self.invalidate();
    }

    /// Forget the state: the next pose resets (the window's Reset, a model or clip change).
    pub fn invalidate(&mut self) {
        self.time = None;
        self.snapshots.clear();
    }

    /// How the last pose was reached.
    pub fn reached(&self) -> Reached {
        self.reached
    }

    /// Internal steps run since this simulation was made (a measure for tests and benchmarks).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Each body's place as shown now (model space; [`Engine::shown`]).
    pub fn places(&self) -> Vec<Place> {
        (0..self.engine.len()).map(|i| self.engine.shown(i)).collect()
    }

    /// Each body's place and velocities now.
    pub fn states(&self) -> Vec<BodyState> {
        (0..self.engine.len()).map(|i| self.engine.state(i)).collect()
    }

    /// The pose of `input` with physics: the frame reached from the state held by the clock's rules.
    pub fn pose(&mut self, scene: &Scene, input: &PoseInput) -> Pose {
        // The motion's switches at this frame, read once: they pick the IK chains evaluated before physics and,
        // after the steps toward this frame, which bodies follow their bones.
        let off = self.off_at(scene, input);
        let mut pose = before_physics(scene, &self.rig, input, off.contains(&true));
        let t = input.time();
        match self.time {
            Some(last) if t >= last && t - last <= RESET_JUMP && !(t == 0.0 && last != 0.0) => {
                self.simulate(scene, input, last, t, &pose, off);
                self.reached = Reached::Stepped;
            }
            Some(last) if t < last && last - t <= RESET_JUMP && t > 0.0 => {
                match self.snapshots.iter().rposition(|s| s.time <= t) {
                    Some(k) => {
                        self.restore(k);
                        let from = self.snapshots[k].time;
                        self.simulate(scene, input, from, t, &pose, off);
                        self.reached = Reached::Restored;
                    }
                    None => {
                        self.reset(scene, &pose, t, 1.0 / input.fps(), self.gravity_at(input));
                        self.set_off(off);
                    }
                }
            }
            _ => {
                self.reset(scene, &pose, t, 1.0 / input.fps(), self.gravity_at(input));
                self.set_off(off);
            }
        }
        self.finish(scene, input, &mut pose);
        pose
    }

    /// The pose of `input` as playback from the clip's start shows it: from the state held when it is at or
    /// before `input`'s time, else from a reset at frame 0, simulated forward in hops of at most a second (so
    /// nothing on the way resets). `render`, recordings and contact sheets use this.
    pub fn play_to(&mut self, scene: &Scene, input: &PoseInput) -> Pose {
        let t = input.time();
        let fps = input.fps();
        if !self.time.is_some_and(|last| last <= t) {
            self.pose(scene, &input.with_frame(0.0));
        }
        while let Some(last) = self.time.filter(|&last| t - last > 1.0) {
            let next = ((last + 1.0) * fps).floor().max(last * fps + 1.0);
            self.pose(scene, &input.with_frame(next as f32));
        }
        self.pose(scene, input)
    }

    /// One fixed step with the followers where they are (`check`'s first-step test).
    pub fn step_once(&mut self) {
        self.engine.steps(1, self.settings.step);
        self.steps += 1;
    }

    /// The gravity the bodies fall with now (units/s²): the motion's at the frame shown, or the settings'.
    pub fn gravity(&self) -> Vec3 {
        self.engine.gravity()
    }

    /// The gravity at `input`'s time: the clip's key in force when the settings follow the motion, else the
    /// settings' gravity.
    fn gravity_at(&self, input: &PoseInput) -> Vec3 {
        let keyed = input.clip.filter(|_| self.settings.motion_gravity).and_then(|c| c.gravity_at(input.time() as f32));
        keyed.filter(|g| g.is_finite()).unwrap_or(self.settings.gravity)
    }

    /// Places every body at `pose` with no velocity, holds the pose for the warm-up under `gravity`, and keeps a
    /// snapshot.
    fn reset(&mut self, scene: &Scene, pose: &Pose, t: f64, frame_seconds: f64, gravity: Vec3) {
        // As babylon-mmd starts: every body with a bone goes to where the pose puts it, the simulated ones held
        // there (kinematic) through one motion frame's steps, in which only bodies without a bone move; then
        // they are let go at rest.
        self.switched_off.iter_mut().for_each(|o| *o = false);
        self.steered.iter_mut().for_each(|o| *o = false);
        let held: Vec<bool> = self.rig.bodies.iter().map(|b| b.joint.is_some() || !b.simulated()).collect();
        self.engine = Engine::with_kinematic(&self.rig, gravity, held);
        self.place_followers(pose);
        let step = self.settings.step.max(1e-4);
        let frame_steps = ((frame_seconds as f32 / step).round() as u32).clamp(1, 16);
        self.engine.steps(frame_steps, step);
        self.steps += u64::from(frame_steps);
        let free: Vec<bool> = self.rig.bodies.iter().map(|b| !b.simulated()).collect();
        self.engine.set_kinematic(&self.rig, &free);
        // Then the warm-up: the pose held while the bodies settle, and the springs from their rest directions.
        self.place_followers(pose);
        self.engine.steps(self.settings.warmup_steps, step);
        self.steps += u64::from(self.settings.warmup_steps);
        if let Some(springs) = &mut self.springs {
            springs.reset(pose);
            springs.steps(scene, pose, self.settings.warmup_steps, step);
        }
        self.time = Some(t);
        self.accumulator = 0.0;
        self.snapshots.clear();
        self.next_snapshot = t;
        self.snapshot_if_due(t);
        self.reached = Reached::Reset;
    }

    /// Restores snapshot `k` into a fresh world (no contact history, so the result depends on the snapshot
    /// alone) and drops the later ones.
    fn restore(&mut self, k: usize) {
        self.snapshots.truncate(k + 1);
        let s = self.snapshots[k].clone();
        self.switched_off.clone_from(&s.switched_off);
        self.steered = steered(&self.rig, &self.parent_body, &self.switched_off);
        self.engine = Engine::with_kinematic(&self.rig, self.settings.gravity, self.kinematic_wanted());
        for (i, state) in s.bodies.iter().enumerate() {
            self.engine.set_state(i, *state);
        }
        self.engine.set_last_step(s.last_step);
        self.springs = s.springs;
        self.time = Some(s.time);
        self.accumulator = s.accumulator;
        self.next_snapshot = s.time.floor() + 1.0;
    }

    fn snapshot_if_due(&mut self, t: f64) {
        if t + 1e-9 < self.next_snapshot {
            return;
        }
        self.snapshots.push(Snapshot {
            time: t,
            accumulator: self.accumulator,
            last_step: self.engine.last_step(),
            bodies: self.states(),
            switched_off: self.switched_off.clone(),
            springs: self.springs.clone(),
        });
        self.next_snapshot = t.floor() + 1.0;
    }

    /// Simulates from clip time `from` to `to`, through each whole clip frame between them (with its own pose),
    /// then to `to` with `pose`.
    fn simulate(&mut self, scene: &Scene, input: &PoseInput, from: f64, to: f64, pose: &Pose, off: Vec<bool>) {
        let fps = input.fps();
        let mut t = from;
        let mut k = (from * fps + 1e-6).floor() + 1.0;
        while k / fps < to - 1e-9 {
            let at = input.with_frame(k as f32);
            self.set_off(self.off_at(scene, &at));
            let frame_pose = before_physics(scene, &self.rig, &at, self.switched_off.contains(&true));
            self.engine.set_gravity(self.gravity_at(&at));
            self.advance(scene, &frame_pose, (k / fps - t) as f32);
            t = k / fps;
            self.time = Some(t);
            self.snapshot_if_due(t);
            k += 1.0;
        }
        self.set_off(off);
        self.engine.set_gravity(self.gravity_at(input));
        self.advance(scene, pose, (to - t) as f32);
        self.time = Some(to);
        self.snapshot_if_due(to);
    }

    /// Per body: switched off by the motion at `input`'s time (all of them when the motion switches the whole
    /// model off).
    fn off_at(&self, scene: &Scene, input: &PoseInput) -> Vec<bool> {
        let Some(clip) = input.clip.filter(|c| !c.physics_switches.is_empty()) else {
            return vec![false; self.rig.bodies.len()];
        };
        let time = input.time() as f32;
        let on = |name: &str| clip.physics_switches.iter().find(|t| t.name == name).is_none_or(|t| t.enabled_at(time));
        let whole = on(crate::scene::WHOLE_MODEL);
        self.rig
            .bodies
            .iter()
            .map(|body| {
                let name = body.joint.and_then(|j| scene.skeleton.joints.get(j)).map(|j| j.name.as_str());
                !whole || name.is_some_and(|n| !on(n))
            })
            .collect()
    }

    /// Switches bodies out of physics and back as `off` (the motion's switches at a frame, [`Simulation::off_at`])
    /// says. While any body is switched off every IK chain is solved, physics or not, as babylon-mmd does (a
    /// switched-off hair chain follows its animated, IK-solved bones). A switched-off body follows
    /// its bone: kinematic, unless a simulated body above it still moves it, when it stays simulated and is
    /// steered toward its bone by velocity ([`STEER_RATE`]) instead of being teleported against its joint. One
    /// switched back on goes on from where it is (at rest if it was kinematic).
    fn set_off(&mut self, off: Vec<bool>) {
        if off != self.switched_off {
            self.switched_off = off;
            self.steered = steered(&self.rig, &self.parent_body, &self.switched_off);
            let kinematic = self.kinematic_wanted();
            self.engine.set_kinematic(&self.rig, &kinematic);
        }
    }

    /// Per body: kinematic in the engine now (not simulated, or switched off and not steered).
    fn kinematic_wanted(&self) -> Vec<bool> {
        (0..self.rig.bodies.len())
            .map(|i| !self.rig.bodies[i].simulated() || (self.switched_off[i] && !self.steered[i]))
            .collect()
    }

    /// Per body: the motion has it switched out of physics at the frame shown.
    pub fn switched_off(&self) -> &[bool] {
        &self.switched_off
    }

    /// Per body: switched off and steered toward its bone by velocity (a simulated body above it still moves).
    pub fn steered(&self) -> &[bool] {
        &self.steered
    }

    /// Advances `dt` seconds toward `pose` in whole fixed steps (the remainder waits for the next frame).
    fn advance(&mut self, scene: &Scene, pose: &Pose, dt: f32) {
        self.place_followers(pose);
        self.steer(pose);
        self.accumulator += dt.max(0.0);
        let step = self.settings.step.max(1e-4);
        // At most a second of steps per call: a long stall must not freeze the window.
        // Whole steps due, at most a second of them: a long stall must not freeze the window.
        let budget = (1.0 / step).ceil() as u32;
        let due = ((self.accumulator / step) * (1.0 + 1e-4)).floor() as u32;
        let count = due.min(budget);
        self.engine.steps(count, step);
        self.steps += u64::from(count);
        if let Some(springs) = self.springs.as_mut() {
            springs.steps(scene, pose, count, step);
        }
        self.accumulator = (self.accumulator - count as f32 * step).max(0.0);
        let budget = budget - count;
        if budget == 0 {
            self.accumulator = 0.0;
        }
    }

    /// Gives each steered body the velocities that would take it from where it is shown (its motion state, which
    /// is what babylon-mmd reads) to where its bone puts it in 1/[`STEER_RATE`] s: babylon-mmd's "target
    /// transform" for a switched-off body under a simulated one. The turn is the true rotation between the two
    /// (babylon-mmd subtracts Euler angles, which agrees for a turn about one axis and is wrong for others).
    fn steer(&mut self, pose: &Pose) {
        for (i, body) in self.rig.bodies.iter().enumerate() {
            if !self.steered[i] || self.engine.is_kinematic(i) {
                continue;
            }
            let target = body.place_in(pose);
            let now = self.engine.shown(i);
            let linear = (target.position - now.position) * STEER_RATE;
            let turn = (target.rotation * now.rotation.inverse()).normalize();
            let turn = if turn.w < 0.0 { -turn } else { turn };
            let angular = turn.to_scaled_axis() * STEER_RATE;
            if linear.is_finite() && angular.is_finite() {
                self.engine.set_velocities(i, linear, angular);
            }
        }
    }

    /// Kinematic bodies' targets from the pose's bones.
    fn place_followers(&mut self, pose: &Pose) {
        for (i, body) in self.rig.bodies.iter().enumerate() {
            if self.engine.is_kinematic(i) {
                self.engine.set_target(i, body.place_in(pose));
            }
        }
    }

    /// Writes the simulated bodies into their bones and evaluates the bones after physics.
    fn finish(&self, scene: &Scene, input: &PoseInput, pose: &mut Pose) {
        let skeleton = &scene.skeleton;
        let n = skeleton.len().min(pose.locals.len());
        let mut driven: Vec<Option<Mat4>> = vec![None; n];
        for (i, body) in self.rig.bodies.iter().enumerate() {
            let Some(j) = body.joint.filter(|&j| j < n) else { continue };
            if self.engine.is_kinematic(i) {
                continue;
            }
            let mut world = self.engine.shown(i).to_mat4() * body.offset.inverse();
            if body.mode == super::Mode::DynamicRotation {
                world.w_axis = pose.world[j].w_axis;
            }
            if world.is_finite() {
                driven[j] = Some(world);
            }
        }
        for (j, joint) in skeleton.joints.iter().enumerate().take(n) {
            let parent = joint.parent.filter(|&p| p < j).map_or(Mat4::IDENTITY, |p| pose.world[p]);
            match driven[j] {
                Some(world) => {
                    let (scale, rotation, translation) = (parent.inverse() * world).to_scale_rotation_translation();
                    pose.locals[j] = crate::scene::Transform { translation, rotation: rotation.normalize(), scale };
                    pose.world[j] = world;
                }
                None => pose.world[j] = parent * pose.locals[j].to_mat4(),
            }
            pose.palette[j] = pose.world[j] * skeleton.inverse_bind[j];
        }
        let skipped: &[bool] = if self.switched_off.contains(&true) { &[] } else { &self.rig.skipped_ik };
        pose.update_scene_phase(scene, input, Some(true), skipped);
        // Springs last (VRM's order: humanoid, look-at, expressions, constraints, springs).
        if let Some(springs) = &self.springs {
            springs.apply(scene, pose);
        }
    }

    /// The spring bones' tails now, model space, with their joints and hit radii (none without springs).
    pub fn spring_tails(&self, pose: &Pose) -> Vec<(usize, Vec3, f32)> {
        self.springs.as_ref().map_or_else(Vec::new, |s| s.tails(pose))
    }
}

/// How fast a steered body closes the distance to its bone, per second: babylon-mmd's factor, which closes it in
/// one 30-fps frame if nothing else pulls.
pub const STEER_RATE: f32 = 30.0;

/// Per body: switched off and steered by velocity rather than made kinematic. Walking up from the body through
/// the first body of each parent bone: the first body still simulated (not switched off) above it means steered;
/// a bone without a body, a root, or a body that follows its bone (mode 0) first means kinematic. A switched-off
/// body above it decides nothing: the walk goes on through it (babylon-mmd's rule).
fn steered(rig: &Rig, parent_body: &[Option<usize>], off: &[bool]) -> Vec<bool> {
    (0..rig.bodies.len())
        .map(|i| {
            if !off[i] || !rig.bodies[i].simulated() {
                return false;
            }
            let mut at = i;
            // A body chain has at most one body per bone; a longer walk is a cycle in a damaged skeleton.
            for _ in 0..rig.bodies.len() {
                let Some(p) = parent_body[at] else { return false };
                if !rig.bodies[p].simulated() {
                    return false;
                }
                if !off[p] {
                    return true;
                }
                at = p;
            }
            false
        })
        .collect()
}

/// Per body: the first body (in file order) on its bone's parent bone.
fn parent_bodies(scene: &Scene, rig: &Rig) -> Vec<Option<usize>> {
    let joints = &scene.skeleton.joints;
    let mut first = vec![None; joints.len()];
    for (i, b) in rig.bodies.iter().enumerate() {
        if let Some(slot) = b.joint.and_then(|j| first.get_mut(j)) {
            slot.get_or_insert(i);
        }
    }
    rig.bodies
        .iter()
        .map(|b| {
            let parent = b.joint.and_then(|j| joints.get(j)).and_then(|j| j.parent)?;
            first.get(parent).copied().flatten()
        })
        .collect()
}

/// The pose of the bones evaluated before physics, with the IK chains physics drives left out unless `all_ik`
/// (the motion has switched some body off).
fn before_physics(scene: &Scene, rig: &Rig, input: &PoseInput, all_ik: bool) -> Pose {
    let mut pose = Pose::default();
    let skipped: &[bool] = if all_ik { &[] } else { &rig.skipped_ik };
    pose.update_scene_phase(scene, input, Some(false), skipped);
    pose
}

#[cfg(test)]
mod tests {
    use super::*;

    /// babylon-mmd's walk on the three-link chain (base: follows its bone; link1..3 simulated, each on the
    /// previous): a switched-off link is steered when the first body above it that is not switched off is
    /// simulated, and kinematic when it follows its bone.
    #[test]
    fn switched_off_bodies_are_steered_only_under_a_simulated_body() {
        let scene = crate::formats::load_bytes("chain3.pmx", &super::super::fixtures::chain3().to_bytes()).unwrap();
        let rig = Rig::of_scene(&scene).unwrap();
        let parents = parent_bodies(&scene, &rig);
        assert_eq!(parents, [None, Some(0), Some(1), Some(2)]);
        let cases: [([bool; 4], [bool; 4]); 5] = [
            ([false, false, true, false], [false, false, true, false]),
            // Under a switched-off link the walk goes on up: to link1, simulated.
            ([false, false, true, true], [false, false, true, true]),
            // Link1 hangs from the base, which follows its bone: kinematic, and so is link2 below it.
            ([false, true, true, false], [false, false, false, false]),
            ([true, true, true, true], [false; 4]),
            ([false; 4], [false; 4]),
        ];
        for (off, want) in cases {
            assert_eq!(steered(&rig, &parents, &off), want, "switched off: {off:?}");
        }
    }
}

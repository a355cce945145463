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
use crate::anim::Pose;
use crate::scene::{Clip, Scene};

/// A jump longer than this (seconds of clip) resets instead of simulating the whole way.
pub const RESET_JUMP: f64 = 2.0;

/// How the simulation runs; the window's settings and the command line's flags.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct PhysicsSettings {
    /// Units per second², MikuMikuDance's (0, −98, 0) by default: used where the motion keys no gravity, or
    /// always when `motion_gravity` is off.
    pub gravity: Vec3,
    /// Whether the motion's gravity keys ([`Clip::gravity`]) win over `gravity` where the clip has them. On by
    /// default; a gravity the user sets (`pose --gravity`, the window's Gravity field) turns it off.
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

/// What a pose is evaluated for: a clip (or the bind pose) at a frame, with the window's overrides.
#[derive(Debug, Clone, Copy)]
pub struct FrameInput<'a> {
    pub clip: Option<&'a Clip>,
    pub frame: f32,
    pub default_fps: f32,
    pub overrides: &'a [Option<f32>],
    pub ik: &'a [Option<bool>],
}

impl<'a> FrameInput<'a> {
    pub fn at(clip: Option<&'a Clip>, frame: f32, default_fps: f32) -> FrameInput<'a> {
        FrameInput { clip, frame, default_fps, overrides: &[], ik: &[] }
    }

    fn fps(&self) -> f64 {
        self.clip.map_or(self.default_fps, |c| c.fps(self.default_fps)).max(1e-3) as f64
    }

    fn time(&self) -> f64 {
        self.frame as f64 / self.fps()
    }

    fn with_frame(&self, frame: f32) -> FrameInput<'a> {
        FrameInput { frame, ..*self }
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
    kinematic: Vec<bool>,
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
}

impl Simulation {
    /// The simulation of a scene with rigid bodies; `None` when it has none.
    pub fn new(scene: &Scene, settings: PhysicsSettings) -> Option<Simulation> {
        let rig = Rig::of_scene(scene)?;
        let engine = Engine::new(&rig, settings.gravity);
        let switched_off = vec![false; rig.bodies.len()];
        Some(Simulation {
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
    pub fn pose(&mut self, scene: &Scene, input: &FrameInput) -> Pose {
        let mut pose = before_physics(scene, &self.rig, input);
        let t = input.time();
        match self.time {
            Some(last) if t >= last && t - last <= RESET_JUMP && !(t == 0.0 && last != 0.0) => {
                self.simulate(scene, input, last, t, &pose);
                self.reached = Reached::Stepped;
            }
            Some(last) if t < last && last - t <= RESET_JUMP && t > 0.0 => {
                match self.snapshots.iter().rposition(|s| s.time <= t) {
                    Some(k) => {
                        self.restore(k);
                        let from = self.snapshots[k].time;
                        self.simulate(scene, input, from, t, &pose);
                        self.reached = Reached::Restored;
                    }
                    None => {
                        self.reset(&pose, t, 1.0 / input.fps(), self.gravity_at(input));
                        self.apply_switches(scene, input);
                    }
                }
            }
            _ => {
                self.reset(&pose, t, 1.0 / input.fps(), self.gravity_at(input));
                self.apply_switches(scene, input);
            }
        }
        self.finish(scene, input, &mut pose);
        pose
    }

    /// The pose of `input` as playback from the clip's start shows it: from the state held when it is at or
    /// before `input`'s time, else from a reset at frame 0, simulated forward in hops of at most a second (so
    /// nothing on the way resets). `render`, recordings and contact sheets use this.
    pub fn play_to(&mut self, scene: &Scene, input: &FrameInput) -> Pose {
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
    fn gravity_at(&self, input: &FrameInput) -> Vec3 {
        let keyed = input.clip.filter(|_| self.settings.motion_gravity).and_then(|c| c.gravity_at(input.time() as f32));
        keyed.filter(|g| g.is_finite()).unwrap_or(self.settings.gravity)
    }

    /// Places every body at `pose` with no velocity, holds the pose for the warm-up under `gravity`, and keeps a
    /// snapshot.
    fn reset(&mut self, pose: &Pose, t: f64, frame_seconds: f64, gravity: Vec3) {
        // As babylon-mmd starts: every body with a bone goes to where the pose puts it, the simulated ones held
        // there (kinematic) through one motion frame's steps, in which only bodies without a bone move; then
        // they are let go at rest.
        self.switched_off.iter_mut().for_each(|o| *o = false);
        let held: Vec<bool> = self.rig.bodies.iter().map(|b| b.joint.is_some() || !b.simulated()).collect();
        self.engine = Engine::with_kinematic(&self.rig, gravity, held);
        self.place_followers(pose);
        let step = self.settings.step.max(1e-4);
        let frame_steps = ((frame_seconds as f32 / step).round() as u32).clamp(1, 16);
        self.engine.steps(frame_steps, step);
        self.steps += u64::from(frame_steps);
        let free: Vec<bool> = self.rig.bodies.iter().map(|b| !b.simulated()).collect();
        self.engine.set_kinematic(&self.rig, &free);
        // Then the warm-up: the pose held while the bodies settle.
        self.place_followers(pose);
        self.engine.steps(self.settings.warmup_steps, step);
        self.steps += u64::from(self.settings.warmup_steps);
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
        self.engine = Engine::with_kinematic(&self.rig, self.settings.gravity, s.kinematic.clone());
        for (i, (state, &kinematic)) in s.bodies.iter().zip(&s.kinematic).enumerate() {
            self.engine.set_state(i, *state);
            self.switched_off[i] = kinematic && self.rig.bodies[i].simulated();
        }
        self.engine.set_last_step(s.last_step);
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
            kinematic: (0..self.engine.len()).map(|i| self.engine.is_kinematic(i)).collect(),
        });
        self.next_snapshot = t.floor() + 1.0;
    }

    /// Simulates from clip time `from` to `to`, through each whole clip frame between them (with its own pose),
    /// then to `to` with `pose`.
    fn simulate(&mut self, scene: &Scene, input: &FrameInput, from: f64, to: f64, pose: &Pose) {
        let fps = input.fps();
        let mut t = from;
        let mut k = (from * fps + 1e-6).floor() + 1.0;
        while k / fps < to - 1e-9 {
            let at = input.with_frame(k as f32);
            let frame_pose = before_physics(scene, &self.rig, &at);
            self.apply_switches(scene, &at);
            self.engine.set_gravity(self.gravity_at(&at));
            self.advance(&frame_pose, (k / fps - t) as f32);
            t = k / fps;
            self.time = Some(t);
            self.snapshot_if_due(t);
            k += 1.0;
        }
        self.apply_switches(scene, input);
        self.engine.set_gravity(self.gravity_at(input));
        self.advance(pose, (to - t) as f32);
        self.time = Some(to);
        self.snapshot_if_due(to);
    }

    /// Switches bodies out of physics and back as the motion says at `input`'s time: a switched-off body
    /// follows its bone (kinematic); one switched back on goes on from where it is, at rest.
    fn apply_switches(&mut self, scene: &Scene, input: &FrameInput) {
        let Some(clip) = input.clip.filter(|c| !c.physics_switches.is_empty()) else {
            if self.switched_off.iter().any(|&o| o) {
                self.switched_off.iter_mut().for_each(|o| *o = false);
                self.sync_kinematic();
            }
            return;
        };
        let time = input.time() as f32;
        let on = |name: &str| clip.physics_switches.iter().find(|t| t.name == name).is_none_or(|t| t.enabled_at(time));
        let whole = on(crate::scene::WHOLE_MODEL);
        let mut changed = false;
        for (i, body) in self.rig.bodies.iter().enumerate() {
            let name = body.joint.and_then(|j| scene.skeleton.joints.get(j)).map(|j| j.name.as_str());
            let off = !whole || name.is_some_and(|n| !on(n));
            if self.switched_off[i] != off {
                self.switched_off[i] = off;
                changed = true;
            }
        }
        if changed {
            self.sync_kinematic();
        }
    }

    fn sync_kinematic(&mut self) {
        let kinematic: Vec<bool> =
            self.rig.bodies.iter().zip(&self.switched_off).map(|(b, &off)| !b.simulated() || off).collect();
        self.engine.set_kinematic(&self.rig, &kinematic);
    }

    /// Per body: the motion has it switched out of physics at the frame shown.
    pub fn switched_off(&self) -> &[bool] {
        &self.switched_off
    }

    /// Advances `dt` seconds toward `pose` in whole fixed steps (the remainder waits for the next frame).
    fn advance(&mut self, pose: &Pose, dt: f32) {
        self.place_followers(pose);
        self.accumulator += dt.max(0.0);
        let step = self.settings.step.max(1e-4);
        // At most a second of steps per call: a long stall must not freeze the window.
        // Whole steps due, at most a second of them: a long stall must not freeze the window.
        let budget = (1.0 / step).ceil() as u32;
        let due = ((self.accumulator / step) * (1.0 + 1e-4)).floor() as u32;
        let count = due.min(budget);
        self.engine.steps(count, step);
        self.steps += u64::from(count);
        self.accumulator = (self.accumulator - count as f32 * step).max(0.0);
        let budget = budget - count;
        if budget == 0 {
            self.accumulator = 0.0;
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
    fn finish(&self, scene: &Scene, input: &FrameInput, pose: &mut Pose) {
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
        phase(pose, scene, &self.rig, input, true);
    }
}

/// The pose of the bones evaluated before physics, with the IK chains physics drives left out.
fn before_physics(scene: &Scene, rig: &Rig, input: &FrameInput) -> Pose {
    let mut pose = Pose::default();
    phase(&mut pose, scene, rig, input, false);
    pose
}

/// The bones of one side of physics (`after`: the "after physics" ones) for `input`.
fn phase(pose: &mut Pose, scene: &Scene, rig: &Rig, input: &FrameInput, after: bool) {
    let (clip, frame, fps) = (input.clip, input.frame, input.default_fps);
    pose.update_scene_phase(scene, clip, frame, fps, input.overrides, input.ik, Some(after), &rig.skipped_ik);
}

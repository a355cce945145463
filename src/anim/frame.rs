//! What a pose is evaluated for: a clip (or the bind pose) at a frame, with the window's morph and IK
//! overrides. Every way of posing a frame takes one of these: [`super::Pose::update_input`] for the motion
//! alone, and `physics::pose_frame` (the one entry point) with or without a simulation.

use crate::scene::Clip;

/// A frame to pose: `clip` at `frame` (clip frames, fractional; `None`: the bind pose), `overrides[i]` in place
/// of morph `i`'s weight when set, `ik[c]` switching IK chain `c` on or off in place of the motion's switches.
#[derive(Debug, Clone, Copy)]
pub struct PoseInput<'a> {
    pub clip: Option<&'a Clip>,
    pub frame: f32,
    /// Frame rate for clips whose file stores none (and for the bind pose's frames, which physics steps through).
    pub default_fps: f32,
    pub overrides: &'a [Option<f32>],
    pub ik: &'a [Option<bool>],
    /// Where IK leaves a leg short of its target: MikuMikuDance's CCD (the default) or planted on it.
    pub finish: super::IkFinish,
    /// A point (model space) a VRM avatar's look-at turns toward, in place of the motion's look-at (the window's
    /// "eyes follow the camera"); `None`: the motion's.
    pub look_at: Option<glam::Vec3>,
}

impl<'a> PoseInput<'a> {
    /// `clip` at `frame` with no overrides.
    pub fn at(clip: Option<&'a Clip>, frame: f32, default_fps: f32) -> PoseInput<'a> {
        PoseInput { clip, frame, default_fps, overrides: &[], ik: &[], finish: super::IkFinish::Ccd, look_at: None }
    }

    /// The same frame with these morph overrides.
    pub fn with_overrides(self, overrides: &'a [Option<f32>]) -> PoseInput<'a> {
        PoseInput { overrides, ..self }
    }

    /// The same frame with these IK chain overrides.
    pub fn with_ik(self, ik: &'a [Option<bool>]) -> PoseInput<'a> {
        PoseInput { ik, ..self }
    }

    /// The same frame with legs finished as `finish` says.
    pub fn with_finish(self, finish: super::IkFinish) -> PoseInput<'a> {
        PoseInput { finish, ..self }
    }

    /// The same frame with the avatar looking toward `target` (model space; `None`: as the motion looks).
    pub fn with_look_at(self, look_at: Option<glam::Vec3>) -> PoseInput<'a> {
        PoseInput { look_at, ..self }
    }

    /// Another frame of the same clip with the same overrides.
    pub fn with_frame(self, frame: f32) -> PoseInput<'a> {
        PoseInput { frame, ..self }
    }

    /// Frames per second of the clip posed (the default without one), never below 1/1000.
    pub fn fps(&self) -> f64 {
        self.clip.map_or(self.default_fps, |c| c.fps(self.default_fps)).max(1e-3) as f64
    }

    /// Seconds into the clip.
    pub fn time(&self) -> f64 {
        self.frame as f64 / self.fps()
    }
}

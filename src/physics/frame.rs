//! The one way to pose a frame: the motion alone, or with a [`Simulation`] by the clock's rules. The window's
//! documents, `pose`, `render`, `thumbnail`, contact sheets, recordings and `convert`'s bakes all pose through
//! [`pose_frame`], so a feature that changes what a frame is (another kind of simulation, retargeting) changes
//! it here once.

use super::Simulation;
use crate::anim::{Pose, PoseInput};
use crate::scene::Scene;

/// How a simulation reaches the frame asked for; the motion alone ignores it (its pose depends on the frame
/// only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seek {
    /// From the state held, by the clock's rules ([`Simulation::pose`]): forward steps, a snapshot restored
    /// going back a little, a reset after a long jump or at frame 0. The window's playback and scrubbing, and
    /// `pose --physics` frame by frame.
    Held,
    /// As playback from the clip's start shows it ([`Simulation::play_to`]): simulated forward from the state
    /// held when it is not past the frame, else from a reset at frame 0, in hops of at most a second so nothing
    /// resets on the way. `render`, recordings, contact sheets, thumbnails and glTF bakes.
    FromStart,
}

/// Poses `input` into `pose`: with `sim` when given (the model's rigid bodies simulated), else the motion alone
/// ([`Pose::update_input`]). Returns what the clip alone gives each morph (before overrides and groups; the
/// Morphs section shows it beside the effective weight in `pose.morphs`).
pub fn pose_frame(
    scene: &Scene,
    sim: Option<&mut Simulation>,
    input: &PoseInput,
    seek: Seek,
    pose: &mut Pose,
) -> Vec<f32> {
    match sim {
        Some(sim) => {
            *pose = simulated(scene, sim, input, seek);
            crate::anim::clip_morph_weights(&scene.morphs, input.clip, input.frame, input.default_fps)
        }
        None => pose.update_input(scene, input),
    }
}

/// [`pose_frame`] into a new pose, for callers that don't show the clip's own morph weights (which a simulated
/// frame would sample a second time).
pub fn frame_pose(scene: &Scene, sim: Option<&mut Simulation>, input: &PoseInput, seek: Seek) -> Pose {
    match sim {
        Some(sim) => simulated(scene, sim, input, seek),
        None => {
            let mut pose = Pose::default();
            pose.update_input(scene, input);
            pose
        }
    }
}

/// The frame reached by `sim` as `seek` says.
fn simulated(scene: &Scene, sim: &mut Simulation, input: &PoseInput, seek: Seek) -> Pose {
    match seek {
        Seek::Held => sim.pose(scene, input),
        Seek::FromStart => sim.play_to(scene, input),
    }
}

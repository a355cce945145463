//! MikuMikuDance physics: rigid bodies and spring joints simulated as MikuMikuDance's runtimes simulate them;
//! and VRM's spring bones ([`spring`]), stepped as three-vrm steps them.
//!
//! - [`rig`]: the model's bodies and joints from `Scene::mmd` (shapes, rest transforms, offsets, modes).
//! - [`engine`]: those in a Bullet world, with the settings MikuMikuDance's look depends on.
//! - [`pose_frame`]: the one way every caller poses a frame, with or without a simulation.
//! - [`sim`]: one frame in MikuMikuDance's order (bones before physics, follow bodies placed, steps, bones
//!   written back, bones after physics), the clock (fixed steps, resets, warm-up, snapshots for scrubbing back)
//!   and the motion's switches.

pub mod engine;
#[cfg(any(test, feature = "testing"))]
pub mod fixtures;
mod frame;
pub mod rig;
pub mod sim;
pub mod spring;

pub use engine::{BodyState, Engine, Place};
pub use frame::{Seek, frame_pose, pose_frame};
pub use rig::{Body, Joint, Mode, Rig, Shape};
pub use sim::{PhysicsSettings, Reached, Simulation};
pub use spring::SpringSim;

//! Text and JSON descriptions of a scene shared by the command line and the window: what `rigscope pose`
//! prints is what the window's "Copy pose as JSON" copies; what `rigscope diff` finds between two exports. Reads only the scene and `anim`, never the GPU,
//! the app or the command line.

pub mod diff;
mod pose;
pub mod vertex_match;

pub use pose::{BodyOut, PoseOptions, pose_json, pose_json_with};

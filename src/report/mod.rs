//! Text and JSON descriptions of a scene shared by the command line and the window: what `rigscope pose`
//! prints is what the window's "Copy pose as JSON" copies. Reads only the scene and `anim`, never the GPU,
//! the app or the command line.

mod pose;

pub use pose::{PoseOptions, pose_json};

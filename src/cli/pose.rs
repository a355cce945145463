//! `rigscope pose`: the posed skeleton at one instant, as JSON, in the file's own model space.

use std::path::PathBuf;

use clap::Args;
use glam::Vec3;
use serde::Serialize;

use super::{CliError, load_with_attachments};
use crate::anim::{Pose, skin_positions};
use crate::scene::{DEFAULT_FPS, FrameBounds, Scene};

#[derive(Args, Debug)]
pub struct PoseArgs {
    /// The model (or animation) file.
    pub file: PathBuf,
    /// Animation files to attach; their clips are matched to the model's joints by name.
    #[arg(long = "attach", value_name = "FILE")]
    pub attach: Vec<PathBuf>,
    /// Animation by name, or by index when no animation has that name. Default: the first.
    #[arg(long, value_name = "NAME|INDEX")]
    pub anim: Option<String>,
    /// Frame within the animation, from 0; may be fractional.
    #[arg(long, conflicts_with = "time", allow_negative_numbers = true)]
    pub frame: Option<f32>,
    /// Time in seconds from the animation's start; wraps for looping clips, clamps otherwise.
    #[arg(long, allow_negative_numbers = true)]
    pub time: Option<f32>,
    /// Include skinned vertex positions, one per vertex the file declares, in the file's order.
    #[arg(long)]
    pub vertices: bool,
    /// Frame rate for animations whose file stores none (IQM framerate 0).
    #[arg(long, default_value_t = DEFAULT_FPS, value_name = "FPS")]
    pub default_fps: f32,
}

#[derive(Serialize)]
struct Output<'a> {
    file: String,
    anim: Option<&'a str>,
    frame: f32,
    time: f32,
    joints: Vec<JointOut>,
    bounds: Option<BoundsOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vertices: Option<Vec<[f32; 3]>>,
    /// An animated camera's view (MVD), in the file's space as stored (MMD: left-handed, Y-up).
    #[serde(skip_serializing_if = "Option::is_none")]
    camera: Option<CameraOut>,
}

#[derive(Serialize)]
struct CameraOut {
    name: String,
    target: [f32; 3],
    eye: [f32; 3],
    up: [f32; 3],
    fov_y: f32,
    perspective: bool,
}

/// The camera that plays with the chosen clip (else the first camera) at `time` seconds.
fn camera_out(scene: &Scene, anim: Option<&str>, time: f32) -> Option<CameraOut> {
    let cam = scene.cameras.iter().find(|c| c.clip.as_deref() == anim && anim.is_some()).or(scene.cameras.first())?;
    let v = cam.view_at(time)?;
    Some(CameraOut {
        name: cam.name.clone(),
        target: v.target.to_array(),
        eye: v.eye.to_array(),
        up: v.up.to_array(),
        fov_y: v.fov_y,
        perspective: v.perspective,
    })
}

#[derive(Serialize)]
struct JointOut {
    name: String,
    parent: i64,
    world: [f32; 16],
}

#[derive(Serialize)]
struct BoundsOut {
    min: [f32; 3],
    max: [f32; 3],
}

/// Picks the clip and frame the arguments ask for; errors are requests the file can't satisfy.
pub fn select(
    scene: &Scene,
    anim: Option<&str>,
    frame: Option<f32>,
    time: Option<f32>,
    default_fps: f32,
) -> Result<Option<(usize, f32)>, CliError> {
    if !(default_fps.is_finite() && default_fps > 0.0) {
        return Err(CliError::usage(format!("--default-fps {default_fps}: expected a positive number")));
    }
    let index = match anim {
        Some(sel) => Some(scene.find_clip(sel).ok_or_else(|| {
            let names: Vec<String> =
                scene.clips.iter().enumerate().map(|(i, c)| format!("{i}: \"{}\"", c.name)).collect();
            let have = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            CliError::usage(format!("unknown animation \"{sel}\"; the file has: {have}"))
        })?),
        None if scene.clips.is_empty() => None,
        None => Some(0),
    };
    let Some(index) = index else {
        if frame.is_some_and(|f| f != 0.0) || time.is_some_and(|t| t != 0.0) {
            return Err(CliError::usage("the file has no animation: only the bind pose (frame 0) exists"));
        }
        return Ok(None);
    };
    let clip = &scene.clips[index];
    let f = match (frame, time) {
        (Some(f), _) => {
            let span = clip.frame_span();
            let last = if clip.looping { format!("below {span}") } else { format!("up to {span}") };
            // Frame 0 always exists; past it, a looping clip runs up to (not onto) its wrap point.
            let in_range = if clip.looping { f < span } else { f <= span };
            if !(f == 0.0 || (f > 0.0 && in_range)) {
                return Err(CliError::usage(format!(
                    "frame {f} is out of range: \"{}\" has {} frames (0 {last})",
                    clip.name, clip.frame_count
                )));
            }
            f
        }
        (None, Some(t)) if !t.is_finite() => return Err(CliError::usage(format!("time {t} is not a number"))),
        (None, Some(t)) => clip.frame_at_time(t, default_fps),
        (None, None) => 0.0,
    };
    Ok(Some((index, f)))
}

/// The joints as the file lists them: RSM nodes in file order with file-index parents (the skeleton itself is
/// parents-first); every other format in skeleton order.
fn joints_out(scene: &Scene, pose: &Pose) -> Vec<JointOut> {
    let world = |j: usize| pose.world.get(j).copied().unwrap_or_default().to_cols_array();
    if let Some(rsm) = &scene.rsm {
        return rsm
            .nodes
            .iter()
            .map(|n| JointOut {
                name: n.name.clone(),
                parent: n.parent.map_or(-1, |p| p as i64),
                world: world(n.joint),
            })
            .collect();
    }
    scene
        .skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| JointOut { name: j.name.clone(), parent: j.parent.map_or(-1, |p| p as i64), world: world(i) })
        .collect()
}

pub fn run(args: &PoseArgs) -> Result<(), CliError> {
    let (scene, _reports) = load_with_attachments(&args.file, &args.attach)?;
    let sel = select(&scene, args.anim.as_deref(), args.frame, args.time, args.default_fps)?;
    let options = PoseOptions { vertices: args.vertices, default_fps: args.default_fps };
    let s = pose_json(&scene, &args.file.display().to_string(), sel, &options).map_err(CliError::load)?;
    println!("{s}");
    Ok(())
}

/// The options of `rigscope pose` that shape its JSON besides the file, clip and frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoseOptions {
    /// Include the skinned vertex positions (`--vertices`).
    pub vertices: bool,
    /// Frame rate for clips whose file stores none (`--default-fps`).
    pub default_fps: f32,
}

impl Default for PoseOptions {
    /// `rigscope pose`'s defaults: no vertices, [`DEFAULT_FPS`].
    fn default() -> Self {
        PoseOptions { vertices: false, default_fps: DEFAULT_FPS }
    }
}

/// The JSON `rigscope pose` prints (without the newline) for `scene`, named `file`, at clip `clip_frame`'s
/// (fractional) frame, or in the bind pose with `None`. The frame isn't range-checked here: [`select`] does
/// that for the command line; the window passes the frame it shows.
pub fn pose_json(
    scene: &Scene,
    file: &str,
    clip_frame: Option<(usize, f32)>,
    options: &PoseOptions,
) -> Result<String, serde_json::Error> {
    let fps = options.default_fps;
    let (pose, anim, frame, time) = match clip_frame.and_then(|(i, f)| Some((scene.clips.get(i)?, f))) {
        Some((clip, f)) => {
            let pose = Pose::sample(&scene.skeleton, clip, f, fps);
            (pose, Some(clip.name.as_str()), f, f / clip.fps(fps))
        }
        None => (Pose::bind(&scene.skeleton), None, 0.0, 0.0),
    };
    let skinned: Vec<Vec3> = skin_positions(&scene.vertices, &pose.palette);
    let out = Output {
        file: file.to_string(),
        anim,
        frame,
        time,
        joints: joints_out(scene, &pose),
        bounds: FrameBounds::of_points(&skinned).map(|b| BoundsOut { min: b.min.to_array(), max: b.max.to_array() }),
        vertices: options
            .vertices
            .then(|| scene.vertices.per_file_vertex(&skinned).iter().map(|v| v.to_array()).collect()),
        camera: camera_out(scene, anim, time),
    };
    serde_json::to_string(&out)
}

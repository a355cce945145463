//! `rigscope pose`: the posed skeleton at one instant, as JSON, in the file's own model space.

use std::path::PathBuf;

use clap::Args;

use super::{CliError, load_with_attachments};
use crate::report::{PoseOptions, pose_json};
use crate::scene::{DEFAULT_FPS, Scene};

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
    /// Frame within the animation, from 0; may be fractional. Past the last frame a looping clip wraps and another
    /// holds its last frame.
    #[arg(long, conflicts_with = "time", allow_negative_numbers = true)]
    pub frame: Option<f32>,
    /// Time in seconds from the animation's start; wraps for looping clips, clamps otherwise.
    #[arg(long, allow_negative_numbers = true)]
    pub time: Option<f32>,
    /// Include skinned vertex positions, one per vertex the file declares, in the file's order.
    #[arg(long)]
    pub vertices: bool,
    /// What lies under pixel X,Y of `render`'s picture with the same --size, --yaw, --pitch and animation: mesh,
    /// material, triangle, the nearest vertex (its file index, position, normal, UV, colour, blend joints).
    #[arg(long, value_name = "X,Y")]
    pub pick: Option<String>,
    /// With --pick: the picture size, as `render --size`.
    #[arg(long, default_value = "640x480", value_name = "WxH", requires = "pick")]
    pub size: String,
    /// With --pick: the camera turn, as `render --yaw`.
    #[arg(long, default_value_t = 20.0, allow_negative_numbers = true, value_name = "DEG", requires = "pick")]
    pub yaw: f32,
    /// With --pick: the camera elevation, as `render --pitch`.
    #[arg(long, default_value_t = 12.0, allow_negative_numbers = true, value_name = "DEG", requires = "pick")]
    pub pitch: f32,
    /// Frame rate for animations whose file stores none (IQM framerate 0).
    #[arg(long, default_value_t = DEFAULT_FPS, value_name = "FPS")]
    pub default_fps: f32,
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
        None => scene.default_clip(),
    };
    let Some(index) = index else {
        if frame.is_some_and(|f| f != 0.0) || time.is_some_and(|t| t != 0.0) {
            return Err(CliError::usage("the file has no animation: only the bind pose (frame 0) exists"));
        }
        return Ok(None);
    };
    let clip = &scene.clips[index];
    let f = match (frame, time) {
        // Past the last frame a frame behaves as a time does: a looping clip wraps, another holds its last frame
        // (MikuMikuDance holds a motion's last key).
        (Some(f), _) if !(f.is_finite() && f >= 0.0) => {
            return Err(CliError::usage(format!(
                "frame {f}: expected a number from 0 (\"{}\" starts at frame 0)",
                clip.name
            )));
        }
        (Some(f), _) => clip.frame_at_time(f / clip.fps(default_fps), default_fps),
        (None, Some(t)) if !t.is_finite() => return Err(CliError::usage(format!("time {t} is not a number"))),
        (None, Some(t)) => clip.frame_at_time(t, default_fps),
        (None, None) => 0.0,
    };
    Ok(Some((index, f)))
}

pub fn run(args: &PoseArgs) -> Result<(), CliError> {
    let (scene, _reports) = load_with_attachments(&args.file, &args.attach)?;
    let sel = select(&scene, args.anim.as_deref(), args.frame, args.time, args.default_fps)?;
    let pick = match &args.pick {
        Some(p) => Some(pick_ray(&scene, sel, args, p)?),
        None => None,
    };
    let options = PoseOptions { vertices: args.vertices, default_fps: args.default_fps, pick };
    let s = pose_json(&scene, &args.file.display().to_string(), sel, &options).map_err(CliError::load)?;
    super::print(&format!("{s}\n"))
}

/// The model-space ray through the centre of pixel `at` ("X,Y") of `render`'s picture of this selection, with
/// render's camera: framed on the animation's bounds from --yaw and --pitch at --size.
fn pick_ray(
    scene: &Scene,
    sel: Option<(usize, f32)>,
    args: &PoseArgs,
    at: &str,
) -> Result<(glam::Vec3, glam::Vec3), CliError> {
    let (w, h) = super::render::parse_pair(&args.size, "--size", 1, 8192)?;
    let (x, y) = at
        .split_once(',')
        .and_then(|(x, y)| Some((x.trim().parse::<u32>().ok()?, y.trim().parse::<u32>().ok()?)))
        .filter(|&(x, y)| x < w && y < h)
        .ok_or_else(|| CliError::usage(format!("--pick {at}: expected X,Y inside the {w}x{h} picture")))?;
    let aspect = w as f32 / h as f32;
    let angles = (args.yaw.to_radians(), args.pitch.to_radians());
    let (camera, _) = crate::render::clip_camera(scene, sel.map(|(c, _)| c), args.default_fps, &[], angles, aspect)
        .ok_or_else(|| CliError::usage("--pick: the file has no geometry"))?;
    let ndc = glam::Vec2::new((x as f32 + 0.5) / w as f32 * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / h as f32 * 2.0);
    crate::render::ray_through(camera.view_proj(aspect) * camera.model_matrix(), ndc)
        .ok_or_else(|| CliError::usage("--pick: a degenerate camera"))
}

//! `rigscope pose`: the posed skeleton at one instant, as JSON, in the file's own model space.

use std::path::PathBuf;

use clap::Args;

use super::{CliError, load_with_attachments};
use crate::anim::PoseInput;
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
    /// With --pick: what the camera frames, as `render --framing` (default: the pose picked).
    #[arg(long, value_enum, value_name = "pose|clip", requires = "pick")]
    pub framing: Option<super::render::Framing>,
    /// Frame rate for animations whose file stores none (IQM framerate 0).
    #[arg(long, default_value_t = DEFAULT_FPS, value_name = "FPS")]
    pub default_fps: f32,
    /// Print one pose per whole frame from A to B (inclusive) as JSON Lines.
    #[arg(long, value_name = "A..B", conflicts_with_all = ["frame", "time", "pick"])]
    pub frames: Option<String>,
    /// Finish legs that IK leaves short of their targets in closed form, so feet stand exactly on their IK
    /// bones (MikuMikuDance's CCD, the default, can leave a nearly straight leg a few millimetres short).
    #[arg(long)]
    pub plant_feet: bool,
    /// Skin every vertex by linear blending, PMX's SDEF (spherical) and QDEF (dual-quaternion) vertices too:
    /// what an engine without them would show.
    #[arg(long)]
    pub linear_skinning: bool,
    /// Simulate the model's rigid bodies (PMX, PMD) and spring bones (VRM) as the window does: from a reset at
    /// the first frame asked for (or at --frame), then forward at the fixed step.
    #[arg(long)]
    pub physics: bool,
    /// With --physics: add each rigid body's model-space position and rotation, with its name, bone and mode,
    /// and each spring joint's (mode `spring`).
    #[arg(long, requires = "physics")]
    pub bodies: bool,
    /// With --physics: steps the pose is held for after the reset.
    #[arg(long, value_name = "N", requires = "physics")]
    pub warmup: Option<u32>,
    /// With --physics: the fixed step, seconds (default 1/60).
    #[arg(long, value_name = "S", requires = "physics")]
    pub step: Option<f32>,
    /// With --physics: gravity, units/s², as X,Y,Z or the Y component alone (default 0,-98,0, or the motion's
    /// gravity keys where an MVD keys them); set, it wins over the motion's keys.
    #[arg(long, value_name = "G", requires = "physics", allow_hyphen_values = true)]
    pub gravity: Option<String>,
}

/// `--frames A..B`: whole frames, A ≤ B.
pub fn parse_frames(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || CliError::usage(format!("--frames {text}: expected A..B, two whole frames from 0 with A <= B"));
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b) = (a.trim().parse::<u32>().map_err(|_| bad())?, b.trim().parse::<u32>().map_err(|_| bad())?);
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// The physics settings the flags ask for, on top of the defaults.
pub fn physics_settings(
    warmup: Option<u32>,
    step: Option<f32>,
    gravity: Option<&str>,
) -> Result<crate::physics::PhysicsSettings, CliError> {
    let mut settings = crate::physics::PhysicsSettings::default();
    if let Some(w) = warmup {
        settings.warmup_steps = w;
    }
    if let Some(s) = step {
        if !(s.is_finite() && s > 0.0 && s <= 1.0) {
            return Err(CliError::usage(format!("--step {s}: expected seconds between 0 and 1")));
        }
        settings.step = s;
    }
    if let Some(g) = gravity {
        let parts: Vec<Option<f32>> =
            g.split(',').map(|p| p.trim().parse::<f32>().ok().filter(|v| v.is_finite())).collect();
        settings.gravity = match parts.as_slice() {
            [Some(y)] => glam::Vec3::new(0.0, *y, 0.0),
            [Some(x), Some(y), Some(z)] => glam::Vec3::new(*x, *y, *z),
            _ => return Err(CliError::usage(format!("--gravity {g}: expected X,Y,Z or one number (the Y component)"))),
        };
        // A gravity asked for wins over the motion's.
        settings.motion_gravity = false;
    }
    Ok(settings)
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
    let (mut scene, _reports) = load_with_attachments(&args.file, &args.attach)?;
    if args.linear_skinning {
        scene.vertices.blend = None;
    }
    if args.frames.is_some() || args.physics {
        return run_frames(args, &scene);
    }
    let sel = select(&scene, args.anim.as_deref(), args.frame, args.time, args.default_fps)?;
    let pick = match &args.pick {
        Some(p) => Some(pick_ray(&scene, sel, args, p)?),
        None => None,
    };
    let options = PoseOptions {
        vertices: args.vertices,
        default_fps: args.default_fps,
        pick,
        finish: crate::anim::IkFinish::planted(args.plant_feet),
    };
    let s = pose_json(&scene, &args.file.display().to_string(), sel, &options).map_err(CliError::load)?;
    super::print(&format!("{s}\n"))
}

/// `--frames` and `--physics`: a pose per frame (JSON Lines), simulated from a reset at the first.
fn run_frames(args: &PoseArgs, scene: &Scene) -> Result<(), CliError> {
    let frames = match &args.frames {
        Some(f) => Some(parse_frames(f)?),
        None => None,
    };
    let first = select(scene, args.anim.as_deref(), None, None, args.default_fps)?;
    let clip = first.map(|(c, _)| c);
    let (a, b) = match frames {
        Some(range) => range,
        None => {
            let sel = select(scene, args.anim.as_deref(), args.frame, args.time, args.default_fps)?;
            let f = sel.map_or(0.0, |(_, f)| f);
            (f as u32, f as u32)
        }
    };
    // Without an animation, physics still runs: the bind pose held, frames at MikuMikuDance's 30 per second.
    if clip.is_none() && b > 0 && !args.physics {
        return Err(CliError::usage("the file has no animation: only the bind pose (frame 0) exists"));
    }
    let settings = physics_settings(args.warmup, args.step, args.gravity.as_deref())?;
    let mut sim = if args.physics { crate::physics::Simulation::new(scene, settings) } else { None };
    if args.physics && sim.is_none() {
        return Err(CliError::usage("--physics: the model has no rigid bodies or spring bones"));
    }
    let options = PoseOptions {
        vertices: args.vertices,
        default_fps: args.default_fps,
        pick: None,
        finish: crate::anim::IkFinish::planted(args.plant_feet),
    };
    let file = args.file.display().to_string();
    let mut out = String::new();
    for f in a..=b {
        let frame = f as f32;
        let clip_ref = clip.and_then(|c| scene.clips.get(c));
        // Without a clip, physics frames are MikuMikuDance's (1/30 s).
        let fps = if clip_ref.is_none() && sim.is_some() { crate::formats::vmd::FPS } else { args.default_fps };
        let input = PoseInput::at(clip_ref, frame, fps).with_finish(options.finish);
        // Without a clip or physics, the report shows the skeleton's bind pose itself.
        let pose = (clip_ref.is_some() || sim.is_some())
            .then(|| crate::physics::frame_pose(scene, sim.as_mut(), &input, crate::physics::Seek::Held));
        let bodies = sim.as_ref().filter(|_| args.bodies).map(|sim| bodies_out(scene, sim, pose.as_ref()));
        let line = crate::report::pose_json_with(scene, &file, clip.map(|c| (c, frame)), &options, pose, bodies)
            .map_err(CliError::load)?;
        out.push_str(&line);
        out.push('\n');
        if out.len() > 1 << 20 {
            super::print(&out)?;
            out.clear();
        }
    }
    super::print(&out)
}

/// Each rigid body's place now, then each spring joint's (VRM): its joint's model-space position and rotation in
/// `pose`, with mode `spring`.
pub fn bodies_out(
    scene: &Scene,
    sim: &crate::physics::Simulation,
    pose: Option<&crate::anim::Pose>,
) -> Vec<crate::report::BodyOut> {
    let places = sim.places();
    let name = |j: usize| scene.skeleton.joints.get(j).map(|j| j.name.clone());
    let mut out: Vec<crate::report::BodyOut> = sim
        .rig()
        .bodies
        .iter()
        .zip(places)
        .map(|(b, p)| crate::report::BodyOut {
            name: b.name.clone(),
            bone: b.joint.and_then(name),
            mode: b.mode.label(),
            position: p.position.to_array(),
            rotation: p.rotation.to_array(),
        })
        .collect();
    let springs = scene.springs.as_deref().map(|s| s.joints().map(|j| j.joint).collect::<Vec<_>>());
    for j in springs.into_iter().flatten() {
        let Some(world) = pose.and_then(|p| p.world.get(j)) else { continue };
        let (_, rotation, position) = world.to_scale_rotation_translation();
        out.push(crate::report::BodyOut {
            name: name(j).unwrap_or_default(),
            bone: name(j),
            mode: "spring",
            position: position.to_array(),
            rotation: rotation.normalize().to_array(),
        });
    }
    out
}

/// The model-space ray through the centre of pixel `at` ("X,Y") of `render`'s picture of this selection, with
/// render's camera: framed as --framing says (the pose picked, or the animation's bounds) from --yaw and --pitch
/// at --size. The pose is picked without physics, so an MMD model's picture to pick in is
/// `render --no-physics`.
fn pick_ray(
    scene: &Scene,
    sel: Option<(usize, f32)>,
    args: &PoseArgs,
    at: &str,
) -> Result<(glam::Vec3, glam::Vec3), CliError> {
    let (w, h) = super::parse_pair(&args.size, "--size", 1, 8192)?;
    let (x, y) = at
        .split_once(',')
        .and_then(|(x, y)| Some((x.trim().parse::<u32>().ok()?, y.trim().parse::<u32>().ok()?)))
        .filter(|&(x, y)| x < w && y < h)
        .ok_or_else(|| CliError::usage(format!("--pick {at}: expected X,Y inside the {w}x{h} picture")))?;
    let aspect = w as f32 / h as f32;
    let angles = (args.yaw.to_radians(), args.pitch.to_radians());
    let no_geometry = || CliError::usage("--pick: the file has no geometry");
    let camera = if args.framing.unwrap_or_default() == super::render::Framing::Pose {
        let (clip, f) = sel.map_or((None, 0.0), |(c, f)| (scene.clips.get(c), f));
        let finish = crate::anim::IkFinish::planted(args.plant_feet);
        let input = crate::anim::PoseInput::at(clip, f, args.default_fps).with_finish(finish);
        let pose = crate::physics::frame_pose(scene, None, &input, crate::physics::Seek::Held);
        let bounds = crate::render::pose_bounds(scene, &pose).filter(|_| !scene.triangles.is_empty());
        crate::render::Camera::framing(scene.up, &bounds.ok_or_else(no_geometry)?, angles.0, angles.1, aspect)
    } else {
        crate::render::clip_camera(scene, sel.map(|(c, _)| c), args.default_fps, &[], angles, aspect)
            .ok_or_else(no_geometry)?
            .0
    };
    let ndc = glam::Vec2::new((x as f32 + 0.5) / w as f32 * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / h as f32 * 2.0);
    crate::render::ray_through(camera.view_proj(aspect) * camera.model_matrix(), ndc)
        .ok_or_else(|| CliError::usage("--pick: a degenerate camera"))
}

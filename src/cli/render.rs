//! `rigscope render`: a PNG of the model at one instant, or a contact sheet of a clip, without a window.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use glam::Vec3;

use super::pose::select;
use super::{CliError, load_with_attachments, parse_pair};
use crate::anim::{MAX_ONION_FRAMES, MAX_ONION_STEP, MAX_TRAIL_FRAMES, PoseInput};
use crate::render::record::{self, AnimatedFormat, Recorder};
use crate::render::{
    Background, Camera, FrameInput, FrameOverlays, GpuModel, Headless, Overlays, SheetSpec, ViewState, clip_camera,
    render_sheet,
};
use crate::scene::{DEFAULT_FPS, FrameBounds};
use crate::textures::TextureSet;

/// What a still's camera frames (`--framing`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Framing {
    /// The pose drawn: a character that travels stays in the picture.
    #[default]
    Pose,
    /// The whole clip, as sheets and recordings frame it.
    Clip,
}

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The model file.
    pub file: PathBuf,
    /// Animation files to attach; their clips are matched to the model's joints by name.
    #[arg(long = "attach", value_name = "FILE")]
    pub attach: Vec<PathBuf>,
    /// Animation by name, or by index when no animation has that name. Default: the first.
    #[arg(long, value_name = "NAME|INDEX")]
    pub anim: Option<String>,
    /// Frame within the animation, from 0; may be fractional. Past the last frame a looping clip wraps and another
    /// holds its last frame.
    #[arg(long, conflicts_with_all = ["time", "sheet"], allow_negative_numbers = true)]
    pub frame: Option<f32>,
    /// Time in seconds from the animation's start; wraps for looping clips, clamps otherwise.
    #[arg(long, conflicts_with = "sheet", allow_negative_numbers = true)]
    pub time: Option<f32>,
    /// What the camera frames: `pose`, the model as it stands at the frame drawn (a still's default), or
    /// `clip`, everywhere the animation takes it, so stills of different frames share one camera (contact
    /// sheets and recordings always frame the clip).
    #[arg(long, value_enum, value_name = "pose|clip", conflicts_with_all = ["sheet", "gif", "apng"])]
    pub framing: Option<Framing>,
    /// Picture size in pixels (each cell's size with --sheet).
    #[arg(long, default_value = "640x480", value_name = "WxH")]
    pub size: String,
    /// Camera turn about the model's up axis in degrees; positive moves toward the model's left.
    #[arg(long, default_value_t = 20.0, allow_negative_numbers = true, value_name = "DEG")]
    pub yaw: f32,
    /// Camera elevation in degrees; positive looks down.
    #[arg(long, default_value_t = 12.0, allow_negative_numbers = true, value_name = "DEG")]
    pub pitch: f32,
    /// Background: #rrggbb, black, white, grey, or transparent.
    #[arg(long, default_value = "#30343c", value_name = "COLOR|transparent")]
    pub background: String,
    /// A contact sheet of evenly spaced frames of the animation, COLS wide and ROWS high, each cell labelled
    /// with its frame number.
    #[arg(long, value_name = "COLSxROWS")]
    pub sheet: Option<String>,
    /// The PNG to write (not needed with --gif or --apng).
    #[arg(short = 'o', long = "output", value_name = "OUT.png", required_unless_present_any = ["gif", "apng"])]
    pub output: Option<PathBuf>,
    /// Record the animation (or --from/--to of it) as an animated GIF at its frame rate (or --fps).
    #[arg(long, value_name = "OUT.gif", conflicts_with_all = ["frame", "time", "sheet", "bind_pose", "apng", "output"])]
    pub gif: Option<PathBuf>,
    /// Record the animation as an animated PNG (APNG, lossless), like --gif.
    #[arg(long, value_name = "OUT.png", conflicts_with_all = ["frame", "time", "sheet", "bind_pose", "output"])]
    pub apng: Option<PathBuf>,
    /// With --gif/--apng: the first frame recorded (the animation's frames, from 0). Default: 0.
    #[arg(long, value_name = "FRAME")]
    pub from: Option<f32>,
    /// With --gif/--apng: the last frame recorded. Default: the animation's last.
    #[arg(long, value_name = "FRAME")]
    pub to: Option<f32>,
    /// With --gif/--apng: pictures per second. Default: the animation's frame rate.
    #[arg(long, value_name = "FPS")]
    pub fps: Option<f32>,
    /// Draw the ground grid, under the model's lowest point over the animation (its origin marked with small axes).
    #[arg(long)]
    pub grid: bool,
    /// With --grid: put the grid through the file's origin instead.
    #[arg(long, requires = "grid")]
    pub grid_at_origin: bool,
    /// Leave out the outlines of materials that have one (MMD edges).
    #[arg(long)]
    pub no_outline: bool,
    /// Draw the IK chains: each goal (IK bone) and the line from its effector in red, the links in violet.
    #[arg(long)]
    pub ik: bool,
    /// Draw the skeleton: bones from each joint to its parent.
    #[arg(long)]
    pub skeleton: bool,
    /// Highlight this joint (name, or index) in the skeleton.
    #[arg(long, value_name = "NAME|INDEX")]
    pub joint: Option<String>,
    /// Tint the vertices weighted to --joint, by their weight.
    #[arg(long, requires = "joint")]
    pub tint: bool,
    /// Draw this frame's bounds: stored in the file (green) and computed by skinning (pink).
    #[arg(long)]
    pub bounds: bool,
    /// Draw the boxes the file declares besides its geometry (RSM volume boxes), in orange.
    #[arg(long)]
    pub boxes: bool,
    /// Draw the light's direction (MikuMikuDance models: the motion's light or the default) as a yellow arrow.
    #[arg(long)]
    pub light_arrow: bool,
    /// Leave out MikuMikuDance's ground shadow (drawn by default for MikuMikuDance models).
    #[arg(long)]
    pub no_ground_shadow: bool,
    /// Leave out MikuMikuDance's self-shadow (a shadow map from the light, drawn by default for MikuMikuDance
    /// models, as the motion's self-shadow keys say: mode 0 turns it off).
    #[arg(long, conflicts_with = "self_shadow")]
    pub no_self_shadow: bool,
    /// Draw a self-shadow on a model without a light of its own (not MikuMikuDance), cast from the viewer's key
    /// light (from the camera and above it) by every material onto every material.
    #[arg(long)]
    pub self_shadow: bool,
    /// Draw every triangle edge.
    #[arg(long)]
    pub wireframe: bool,
    /// Draw back faces too.
    #[arg(long)]
    pub no_cull: bool,
    /// Don't simulate an MMD model's rigid bodies (hair, skirts): draw the motion's pose alone. By default a
    /// model with bodies is simulated as playback from the clip's start shows it.
    #[arg(long)]
    pub no_physics: bool,
    /// Finish legs that IK leaves short of their targets in closed form, so feet stand exactly on their IK
    /// bones (as `pose --plant-feet`).
    #[arg(long)]
    pub plant_feet: bool,
    /// Skin every vertex by linear blending, PMX's SDEF (spherical) and QDEF (dual-quaternion) vertices too:
    /// what an engine without them would show.
    #[arg(long)]
    pub linear_skinning: bool,
    /// Light a MikuMikuDance model with MikuMikuDance's default light and self-shadow even where an attached
    /// motion keys them (by default the motion's light keys colour and turn it, its self-shadow keys set the
    /// self-shadow's mode and distance).
    #[arg(long)]
    pub default_light: bool,
    /// Leave the mesh out (overlays only).
    #[arg(long)]
    pub no_mesh: bool,
    /// Where the picture is taken from: `orbit` (framed by --yaw and --pitch) or `mvd` (alias `motion`), the
    /// file's (or an attached MVD or VMD motion's) animated camera at the chosen time, converted from MMD's
    /// left-handed Y-up space.
    #[arg(long, value_enum, default_value_t = CameraChoice::Orbit)]
    pub camera: CameraChoice,
    /// Weight view: paint the mesh by --joint's influence, a heat map from dark blue (0) through cyan, green
    /// and yellow to red (1), in place of texture and lighting.
    #[arg(long, requires = "joint")]
    pub weights: bool,
    /// Draw each vertex's skinned normal as a short line (magenta); one pointing against its triangles' front
    /// side (flipped) is longer, yellow and drawn over the mesh.
    #[arg(long)]
    pub normals: bool,
    /// Draw each vertex's skinned tangent as a short line (light blue), when the model has tangents.
    #[arg(long)]
    pub tangents: bool,
    /// A UV checker texture (red grows along u, green along v) in place of the materials' textures.
    #[arg(long)]
    pub uv_checker: bool,
    /// Draw the bind pose instead of the animation's.
    #[arg(long, conflicts_with = "sheet")]
    pub bind_pose: bool,
    /// Set a morph's weight (by its name, as `info` lists it), in place of what the animation gives it; may be
    /// given more than once: `--morph あ=1 --morph まばたき=0.5`.
    #[arg(long = "morph", value_name = "NAME=WEIGHT", conflicts_with = "sheet")]
    pub morphs: Vec<String>,
    /// Onion skin: ghosts of the N frames before (reddish) and after (greenish) the one drawn.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=MAX_ONION_FRAMES as i64))]
    pub onion: Option<u32>,
    /// Frames between onion-skin ghosts (with --onion): 5 shows every fifth frame, to see a slow arc.
    #[arg(long, value_name = "K", default_value_t = 1, requires = "onion",
          value_parser = clap::value_parser!(u32).range(1..=MAX_ONION_STEP as i64))]
    pub onion_step: u32,
    /// Draw --joint's motion trail: its path over the N frames before and after the one drawn, its keys marked.
    #[arg(long, value_name = "N", requires = "joint",
          value_parser = clap::value_parser!(u32).range(1..=MAX_TRAIL_FRAMES as i64))]
    pub trail: Option<u32>,
    /// Draw --joint's axes: X red, Y green, Z blue.
    #[arg(long, requires = "joint")]
    pub axes: bool,
    /// Frame rate for animations whose file stores none (IQM framerate 0).
    #[arg(long, default_value_t = DEFAULT_FPS, value_name = "FPS")]
    pub default_fps: f32,
    /// Keep running: render again whenever the model or an --attach file changes on disk (one line per render
    /// on stderr; a file that fails to load is reported and the last picture kept). Stop with Ctrl+C.
    #[arg(long)]
    pub watch: bool,
}

/// The `--camera` choices.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CameraChoice {
    Orbit,
    /// The motion's animated camera (MVD or VMD); `motion` is the same choice.
    #[value(alias = "motion")]
    Mvd,
}

/// The arguments that don't depend on the file, checked once.
struct Parsed {
    size: (u32, u32),
    sheet: Option<(u32, u32)>,
    background: Background,
}

pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    let size = parse_pair(&args.size, "--size", 1, 8192)?;
    let sheet = args.sheet.as_deref().map(|s| parse_pair(s, "--sheet", 1, 32)).transpose()?;
    let background = parse_background(&args.background)?;
    if !(args.yaw.is_finite() && args.pitch.is_finite()) {
        return Err(CliError::usage("--yaw and --pitch must be numbers"));
    }
    let parsed = Parsed { size, sheet, background };
    if args.watch {
        return watch(args, &parsed);
    }
    let mut headless = None;
    render_file(args, &parsed, &mut headless)
}

/// `--watch`: renders, then renders again after each change to the model or an attached file (a burst of
/// writes, debounced by [`crate::watch::FileWatcher`], gives one render). Failures are reported and waited out;
/// only a missing GPU adapter or an unwatchable folder ends it.
fn watch(args: &RenderArgs, parsed: &Parsed) -> Result<(), CliError> {
    let mut headless = Some(Headless::new().map_err(CliError::load)?);
    let (tx, rx) = std::sync::mpsc::channel::<Vec<PathBuf>>();
    let mut watcher = crate::watch::FileWatcher::new(move |paths| {
        let _ = tx.send(paths);
    })
    .map_err(CliError::load)?;
    let mut files = vec![args.file.clone()];
    files.extend(args.attach.iter().cloned());
    watcher.set_files(&files).map_err(CliError::load)?;
    let mut changed = vec![args.file.clone()];
    loop {
        let started = Instant::now();
        let names: Vec<String> = changed.iter().map(|p| p.display().to_string()).collect();
        match render_file(args, parsed, &mut headless) {
            Ok(()) => eprintln!(
                "rendered {} ({}, {} ms)",
                target(args).display(),
                names.join(", "),
                started.elapsed().as_millis()
            ),
            Err(e) => eprintln!("rigscope: {} (watching for changes; {} kept)", e.message, target(args).display()),
        }
        // The next change (the watcher reports a burst once), with any that queued up while rendering.
        let Ok(first) = rx.recv() else { return Ok(()) };
        changed = first;
        for p in rx.try_iter().flatten() {
            if !changed.contains(&p) {
                changed.push(p);
            }
        }
    }
}

/// The joint `--joint` names, by name or else by index.
fn joint_named(scene: &crate::scene::Scene, sel: Option<&str>) -> Result<Option<usize>, CliError> {
    let Some(sel) = sel else { return Ok(None) };
    let joints = &scene.skeleton.joints;
    let found =
        joints.iter().position(|j| j.name == sel).or_else(|| sel.parse::<usize>().ok().filter(|&i| i < joints.len()));
    found.map(Some).ok_or_else(|| CliError::usage(format!("unknown joint \"{sel}\"")))
}

/// The model on the GPU with the textures found beside the file (a warning for each one missing).
fn upload(renderer: &crate::render::Renderer, scene: &crate::scene::Scene, args: &RenderArgs) -> GpuModel {
    let textures = TextureSet::load(scene, args.file.parent());
    for p in textures.problems() {
        eprintln!(
            "rigscope: warning: material \"{}\": texture {} {}; drawn with the placeholder",
            p.material,
            p.path.display(),
            p.reason
        );
    }
    GpuModel::upload_textures(renderer, scene, &textures)
}

/// The animated camera that plays with the chosen clip (else the first), when `--camera mvd` asks for one.
fn animated_camera(
    scene: &crate::scene::Scene,
    choice: CameraChoice,
    selection: Option<(usize, f32)>,
) -> Result<Option<&crate::scene::CameraTrack>, CliError> {
    Ok(match choice {
        CameraChoice::Orbit => None,
        CameraChoice::Mvd => {
            let name = selection.map(|(c, _)| scene.clips[c].name.as_str());
            let track = scene.cameras.iter().find(|c| name.is_some() && c.clip.as_deref() == name);
            Some(
                track.or(scene.cameras.first()).filter(|t| !t.keys.is_empty()).ok_or_else(|| {
                    CliError::usage("--camera mvd: no animated camera in the file or its attachments")
                })?,
            )
        }
    })
}

/// The overlays every picture of this render draws (those redone per frame are added by `FrameOverlays`).
fn base_overlays(
    args: &RenderArgs,
    scene: &crate::scene::Scene,
    bounds: &FrameBounds,
    selected_joint: Option<usize>,
    bones_only: bool,
) -> Overlays {
    Overlays {
        mesh: !args.no_mesh,
        cull_back_faces: !args.no_cull,
        grid: args.grid,
        marker: None,
        ground: (!args.grid_at_origin).then(|| crate::render::ground_height(scene.up, bounds)),
        skeleton: args.skeleton || bones_only,
        ik_chains: args.ik,
        outline: !args.no_outline,
        selected_joint,
        selected_group: Vec::new(),
        highlight_joint: selected_joint.filter(|_| args.tint),
        wireframe: args.wireframe,
        stored_bounds: None,
        computed_bounds: None,
        hidden_meshes: Vec::new(),
        boxes: if args.boxes { scene.marked_boxes() } else { Vec::new() },
        light: args.light_arrow,
        ground_shadow: !args.no_ground_shadow,
        self_shadow: !args.no_self_shadow,
        view_self_shadow: args.self_shadow,
        linear_skinning: args.linear_skinning,
        camera_path: Vec::new(),
        camera_frustum: Vec::new(),
        reference_bones: Vec::new(),
        reference_beside: false,
        reference_joint: None,
        weights: args.weights,
        uv_checker: args.uv_checker,
        normals: args.normals,
        tangents: args.tangents,
        joint_axes: args.axes,
        ghosts: Vec::new(),
        trails: Vec::new(),
        shapes: Vec::new(),
    }
}

/// Loads the file (and attachments) and writes the picture. The adapter is opened on first use, after the
/// file has loaded, and kept in `headless` for later renders.
fn render_file(args: &RenderArgs, parsed: &Parsed, headless: &mut Option<Headless>) -> Result<(), CliError> {
    let Parsed { size, sheet, background } = *parsed;
    let (mut scene, _reports) = load_with_attachments(&args.file, &args.attach)?;
    if args.linear_skinning {
        scene.vertices.blend = None;
    }
    let selection = select(&scene, args.anim.as_deref(), args.frame, args.time, args.default_fps)?;
    if sheet.is_some() && selection.is_none() {
        return Err(CliError::usage("--sheet needs an animation, and the file has none"));
    }
    let selected_joint = joint_named(&scene, args.joint.as_deref())?;

    if headless.is_none() {
        *headless = Some(Headless::new().map_err(CliError::load)?);
    }
    let Some(headless) = headless.as_ref() else { return Err(CliError::load("no renderer")) };
    let renderer = headless.renderer();
    let model = upload(renderer, &scene, args);
    let overrides = morph_overrides(&scene, &args.morphs)?;
    let angles = (args.yaw.to_radians(), args.pitch.to_radians());
    let aspect = size.0 as f32 / size.1 as f32;
    // A file without vertices is framed on its skeleton over the clip (an animation, a rig), or, with no joints
    // either (a camera alone), on a unit box at the origin.
    let clip_index = selection.map(|(c, _)| c);
    let (orbit, bounds) =
        clip_camera(&scene, clip_index, args.default_fps, &overrides, angles, aspect).unwrap_or_else(|| {
            let unit = FrameBounds { min: Vec3::splat(-1.0), max: Vec3::ONE, xy_radius: 1.0, radius: 1.0 };
            let b =
                crate::render::skeleton_bounds(&scene, clip_index, args.default_fps, crate::render::FRAMING_SAMPLES)
                    .unwrap_or(unit);
            (Camera::framing(scene.up, &b, angles.0, angles.1, aspect), b)
        });
    // Bones are all a file without triangles has to show.
    let bones_only = scene.triangles.is_empty() && !scene.skeleton.is_empty();
    // The animated camera that plays with the chosen clip (else the first), checked before any rendering.
    let track = animated_camera(&scene, args.camera, selection)?;
    let radius = bounds.diagonal() * 0.5 + bounds.min.abs().max(bounds.max.abs()).length();
    if track.is_some() && sheet.is_some() {
        return Err(CliError::usage("--camera mvd takes one picture; leave out --sheet"));
    }
    let base = base_overlays(args, &scene, &bounds, selected_joint, bones_only);

    // MMD models with rigid bodies are simulated as playback from the clip's start shows them.
    let physics = std::cell::RefCell::new(if args.no_physics {
        None
    } else {
        crate::physics::Simulation::new(&scene, crate::physics::PhysicsSettings::default())
    });
    let pose_of = |clip: Option<&crate::scene::Clip>, f: f32| {
        let finish = crate::anim::IkFinish::planted(args.plant_feet);
        let input = PoseInput::at(clip, f, args.default_fps).with_overrides(&overrides).with_finish(finish);
        crate::physics::frame_pose(&scene, physics.borrow_mut().as_mut(), &input, crate::physics::Seek::FromStart)
    };
    let per_frame = FrameOverlays {
        stored_bounds: args.bounds,
        computed_bounds: args.bounds,
        onion: args.onion.map(|ghosts| crate::anim::OnionSpacing { ghosts, step: args.onion_step }),
        trails: args.trail.zip(selected_joint).map(|(n, j)| (vec![j], n)),
    };
    // A still frames the pose it draws (`--framing`); recordings keep the clip's camera.
    let on_pose = args.framing.unwrap_or_default() == Framing::Pose && sheet.is_none() && recording(args).is_none();
    // One picture of the clip at a frame (`None`: the bind pose), as the single-frame render and every frame of a
    // recording draw it.
    let draw_at = |clip_frame: Option<(usize, f32)>, view: &mut ViewState| -> Result<image::RgbaImage, CliError> {
        let (clip, f) = match clip_frame {
            Some((c, f)) => (scene.clips.get(c), f),
            None => (None, 0.0),
        };
        let pose = pose_of(clip, f);
        let overlays = per_frame.at(&base, &scene, clip_frame, &pose, args.default_fps);
        let time = clip_frame.map_or(0.0, |(c, f)| f / scene.clips[c].fps(args.default_fps));
        let still = on_pose.then(|| crate::render::pose_bounds(&scene, &pose)).flatten();
        let still = still.map(|b| Camera::framing(scene.up, &b, angles.0, angles.1, aspect));
        let camera = track.and_then(|t| Camera::following(t, time, scene.up, radius)).or(still).unwrap_or(orbit);
        let (light, self_shadow) =
            (scene.light_at(time, !args.default_light), scene.self_shadow_at(time, !args.default_light));
        let (camera, overlays) = (&camera, &overlays);
        let input = FrameInput { camera, pose: &pose, overlays, time, reference_pose: None, light, self_shadow };
        headless.render(&model, view, &input, size, background).map_err(CliError::load)
    };
    if let Some((format, path)) = recording(args) {
        let Some((clip, _)) = selection else {
            return Err(CliError::usage("--gif and --apng record an animation, and the file has none"));
        };
        return record(&scene.clips[clip], clip, args, path, format, size, &draw_at, &mut ViewState::new(renderer));
    }

    let image = match (sheet, selection) {
        (Some((cols, rows)), Some((clip, _))) => {
            let spec = SheetSpec {
                clip,
                cols,
                rows,
                cell: size,
                camera: &orbit,
                overlays: &base,
                per_frame,
                default_fps: args.default_fps,
                background,
                pose_at: &|f| pose_of(scene.clips.get(clip), f),
            };
            render_sheet(renderer, &model, &scene, &spec).map_err(CliError::load)?
        }
        _ => {
            let clip_frame = selection.filter(|_| !args.bind_pose);
            let mut view = ViewState::new(renderer);
            draw_at(clip_frame, &mut view)?
        }
    };
    let output = target(args);
    crate::watch::save_png(&image, output).map_err(CliError::load)
}

/// The file a render writes: the picture, or the recording.
fn target(args: &RenderArgs) -> &std::path::Path {
    args.output.as_deref().or(args.gif.as_deref()).or(args.apng.as_deref()).unwrap_or(std::path::Path::new("out.png"))
}

/// Draws one picture of the clip at a frame (`None`: the bind pose) into a view.
type DrawAt<'a> = dyn Fn(Option<(usize, f32)>, &mut ViewState) -> Result<image::RgbaImage, CliError> + 'a;

/// `--gif` or `--apng`, with its file.
fn recording(args: &RenderArgs) -> Option<(AnimatedFormat, &std::path::Path)> {
    match (&args.gif, &args.apng) {
        (Some(p), _) => Some((AnimatedFormat::Gif, p)),
        (None, Some(p)) => Some((AnimatedFormat::Apng, p)),
        (None, None) => None,
    }
}

/// Records `clip` (scene clip `index`) as `format` into `path`, one picture per instant of
/// [`record::frames`], each drawn by `draw_at`; written beside `path` and renamed over it when complete.
#[allow(clippy::too_many_arguments)]
fn record(
    clip: &crate::scene::Clip,
    index: usize,
    args: &RenderArgs,
    path: &std::path::Path,
    format: AnimatedFormat,
    size: (u32, u32),
    draw_at: &DrawAt<'_>,
    view: &mut ViewState,
) -> Result<(), CliError> {
    let frames = record::frames(clip, args.default_fps, args.from, args.to, args.fps).map_err(CliError::usage)?;
    let fps = args.fps.unwrap_or(clip.fps(args.default_fps));
    let tmp = crate::watch::partial_path(path);
    let cannot = |e: String| CliError::load(format!("{}: cannot write: {e}", path.display()));
    let file = std::fs::File::create(&tmp).map_err(|e| cannot(e.to_string()))?;
    let result = (|| {
        let mut recorder =
            Recorder::new(format, std::io::BufWriter::new(file), size, frames.len(), fps).map_err(cannot)?;
        for &f in &frames {
            recorder.push(&draw_at(Some((index, f)), view)?).map_err(cannot)?;
        }
        recorder.finish().map_err(cannot)?;
        std::fs::rename(&tmp, path).map_err(|e| cannot(e.to_string()))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// `--morph NAME=WEIGHT` options as a weight per scene morph (`None`: what the animation gives).
fn morph_overrides(scene: &crate::scene::Scene, given: &[String]) -> Result<Vec<Option<f32>>, CliError> {
    let mut out = vec![None; scene.morphs.len()];
    for g in given {
        let (name, weight) =
            g.rsplit_once('=').ok_or_else(|| CliError::usage(format!("--morph {g}: expected NAME=WEIGHT")))?;
        let weight: f32 = weight
            .trim()
            .parse()
            .ok()
            .filter(|w: &f32| w.is_finite())
            .ok_or_else(|| CliError::usage(format!("--morph {g}: the weight is not a number")))?;
        let Some(i) = scene.morphs.iter().position(|m| m.name == name || m.name_en == name) else {
            let names: Vec<&str> = scene.morphs.iter().take(20).map(|m| m.name.as_str()).collect();
            return Err(CliError::usage(if names.is_empty() {
                format!("--morph {name}: the model has no morphs")
            } else {
                format!("--morph {name}: the model has no morph of that name (it has {})", names.join(", "))
            }));
        };
        out[i] = Some(weight);
    }
    Ok(out)
}

fn parse_background(s: &str) -> Result<Background, CliError> {
    let lower = s.trim().to_ascii_lowercase();
    let named = match lower.as_str() {
        "transparent" | "none" => return Ok(Background::Transparent),
        "black" => Some([0, 0, 0]),
        "white" => Some([255, 255, 255]),
        "grey" | "gray" => Some([128, 128, 128]),
        _ => None,
    };
    if let Some(c) = named {
        return Ok(Background::Color(c));
    }
    let hex = lower.strip_prefix('#').unwrap_or(&lower);
    let byte = |i: usize| hex.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok());
    match (hex.len(), byte(0), byte(2), byte(4)) {
        (6, Some(r), Some(g), Some(b)) => Ok(Background::Color([r, g, b])),
        _ => Err(CliError::usage(format!("--background {s}: expected #rrggbb, a colour name or transparent"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes_and_colours() {
        assert_eq!(parse_pair("640x480", "--size", 1, 8192).unwrap(), (640, 480));
        assert!(parse_pair("0x480", "--size", 1, 8192).is_err());
        assert!(parse_pair("640", "--size", 1, 8192).is_err());
        assert_eq!(parse_background("#ff8000").unwrap(), Background::Color([255, 128, 0]));
        assert_eq!(parse_background("Transparent").unwrap(), Background::Transparent);
        assert!(parse_background("#ff80").is_err());
    }
}

//! `rigscope thumbnail FILE OUT.png --size N`: a small framed picture of a model for file managers (the
//! freedesktop thumbnailer in `assets/rigscope.thumbnailer` calls it) and asset lists: the model in its bind
//! pose (or, for a file without one, the first frame of its first animation), seen from the front and a little
//! above, on a transparent background, its longer side fitted to N pixels. A file with bones but no triangles
//! (an animation, a rig) shows its skeleton at the middle of its first clip.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::anim::PoseInput;
use crate::physics::{Seek, frame_pose};
use crate::render::{Background, Camera, FrameInput, GpuModel, Headless, Overlays, ViewState};
use crate::textures::TextureSet;

#[derive(Args, Debug)]
pub struct ThumbnailArgs {
    /// The model file.
    pub file: PathBuf,
    /// The PNG to write.
    pub output: PathBuf,
    /// The picture's width and height in pixels.
    #[arg(long, short = 's', default_value_t = 256, value_parser = clap::value_parser!(u32).range(8..=2048))]
    pub size: u32,
    /// Don't let an MMD model's rigid bodies settle (hair and skirts drawn as the bind pose places them).
    #[arg(long)]
    pub no_physics: bool,
}

pub fn run(args: &ThumbnailArgs) -> Result<(), CliError> {
    let scene = crate::load_path(&args.file).map_err(CliError::load)?;
    let fps = crate::scene::DEFAULT_FPS;
    let bones_only = scene.triangles.is_empty() && !scene.skeleton.is_empty();
    if scene.triangles.is_empty() && !bones_only {
        return Err(CliError::load(format!(
            "{}: nothing to draw (no triangles and no joints: a camera-only file)",
            args.file.display()
        )));
    }
    let pose = if bones_only {
        // An animation or a rig: its bones, posed at the middle of its first clip, framed as a model would be.
        let clip = scene.clips.first();
        let middle = clip.map_or(0.0, |c| (c.frame_count.saturating_sub(1) / 2) as f32);
        frame_pose(&scene, None, &PoseInput::at(clip, middle, fps), Seek::Held)
    } else {
        // The bind pose where the file has one; else the first frame of its first clip (what such files show).
        let clip = (!scene.skeleton.has_bind_pose).then(|| scene.clips.first()).flatten();
        // An MMD model's hair and skirts hang as physics settles them in that pose.
        let mut sim = crate::physics::Simulation::new(&scene, Default::default()).filter(|_| !args.no_physics);
        frame_pose(&scene, sim.as_mut(), &PoseInput::at(clip, 0.0, fps), Seek::Held)
    };
    // Framed on the pose drawn, as `render` frames a still.
    let bounds = crate::render::pose_bounds(&scene, &pose)
        .ok_or_else(|| CliError::load(format!("{}: nothing to draw", args.file.display())))?;
    let camera = Camera::framing(scene.up, &bounds, 15f32.to_radians(), 10f32.to_radians(), 1.0);
    let headless = Headless::new().map_err(CliError::load)?;
    let textures = TextureSet::load(&scene, args.file.parent());
    let model = GpuModel::upload_textures(headless.renderer(), &scene, &textures);
    // Bones alone are drawn after the read-back, wider than the view's one-pixel lines (`draw_bones`).
    let overlays = Overlays { grid: false, ground_shadow: true, self_shadow: true, ..Overlays::default() };
    let (light, self_shadow) = (scene.light_at(0.0, true), scene.self_shadow_at(0.0, true));
    let (camera, overlays) = (&camera, &overlays);
    let input = FrameInput { camera, pose: &pose, overlays, time: 0.0, reference_pose: None, light, self_shadow };
    let mut view = ViewState::new(headless.renderer());
    let size = (args.size, args.size);
    let mut image =
        headless.render(&model, &mut view, &input, size, Background::Transparent).map_err(CliError::load)?;
    if bones_only {
        // At least 2 px at thumbnail sizes, wider in larger pictures, so a folder of animations reads at a glance.
        let width = (args.size as f32 / 80.0).max(2.0);
        let parents: Vec<Option<usize>> = scene.skeleton.joints.iter().map(|j| j.parent).collect();
        let model_to_clip = camera.view_proj(1.0) * camera.model_matrix();
        crate::render::draw_bones(&mut image, &pose.world, &parents, model_to_clip, width);
    }
    crate::watch::save_png(&image, &args.output).map_err(CliError::load)
}

//! `rigscope convert IN… OUT`: IQE → IQM, IQM → IQE, glTF, VRMA (and any input rigscope reads), by the
//! output's extension.

use std::path::PathBuf;

use clap::Args;
use glam::{Quat, Vec3};

use super::CliError;
use crate::anim::attach;
use crate::convert::{
    ClipOverrides, GltfExport, Target, encode, for_inter_quake, rotation_from_degrees, to_vrma, transform_scene,
    write_gltf,
};

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The inputs, then the output. The first input is the model; later ones are animation files attached by
    /// joint name, or through the humanoid (a VRMA, or an MMD motion on a VRM). The output's extension (.iqm,
    /// .iqe, .glb, .gltf or .vrma) picks the format. Models are turned into the output's axes (Z up for IQM and
    /// IQE, Y up for glTF), and motion driven by IK or append transforms (MMD) is baked frame by frame. A .vrma
    /// holds the last motion, carried through the model's humanoid.
    #[arg(value_name = "FILE", num_args = 2.., required = true)]
    pub files: Vec<PathBuf>,
    /// Scale the model, skeleton and animation uniformly about the origin.
    #[arg(long, default_value_t = 1.0, value_name = "F")]
    pub scale: f32,
    /// Rotate about the origin by Euler angles in degrees, X first, then Y, then Z, in the output's axes.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_xyz, allow_hyphen_values = true)]
    pub rotate: Option<Vec3>,
    /// Name of the animation, for inputs that hold a single one.
    #[arg(long)]
    pub name: Option<String>,
    /// Frame rate of the animation, for inputs that hold a single one.
    #[arg(long, value_name = "FPS")]
    pub fps: Option<f32>,
    /// Mark the animation as looping, for inputs that hold a single one.
    #[arg(long = "loop")]
    pub looping: bool,
    /// glTF output: the rate at which motion glTF can't carry key for key (MMD's curves, IK) is baked into
    /// linear keys; default the motion's own rate.
    #[arg(long, value_name = "FPS")]
    pub bake_fps: Option<f32>,
    /// glTF output: don't simulate an MMD model's rigid bodies into the baked animation (by default hair and
    /// skirts swing as playback from the clip's start shows them).
    #[arg(long)]
    pub no_physics: bool,
}

/// `X,Y,Z` as three numbers.
fn parse_xyz(s: &str) -> Result<Vec3, String> {
    let parts: Vec<f32> =
        s.split(',').map(|p| p.trim().parse::<f32>()).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    match parts[..] {
        [x, y, z] if parts.iter().all(|v| v.is_finite()) => Ok(Vec3::new(x, y, z)),
        _ => Err(format!("expected three numbers X,Y,Z, got {s:?}")),
    }
}

pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    let Some((output, inputs)) = args.files.split_last() else {
        return Err(CliError::usage("convert needs an input and an output file"));
    };
    let target = Target::from_path(output).ok_or_else(|| {
        CliError::usage(format!("{}: the output must end in .iqm, .iqe, .glb, .gltf or .vrma", output.display()))
    })?;
    if inputs.iter().any(|i| i == output) {
        return Err(CliError::usage(format!("{}: the output would overwrite an input", output.display())));
    }
    if !(args.scale.is_finite() && args.scale > 0.0) {
        return Err(CliError::usage(format!("--scale {}: expected a positive number", args.scale)));
    }
    if let Some(fps) = args.fps.filter(|f| !(f.is_finite() && *f > 0.0)) {
        return Err(CliError::usage(format!("--fps {fps}: expected a positive number")));
    }
    if let Some(fps) = args.bake_fps {
        if !(fps.is_finite() && fps > 0.0) {
            return Err(CliError::usage(format!("--bake-fps {fps}: expected a positive number")));
        }
        if !target.is_gltf() {
            return Err(CliError::usage("--bake-fps applies to glTF output (.glb, .gltf)"));
        }
    }
    let overrides = ClipOverrides { name: args.name.clone(), fps: args.fps, looping: args.looping };

    let mut scenes = Vec::with_capacity(inputs.len());
    for path in inputs {
        scenes.push(crate::load_path(path).map_err(CliError::load)?);
    }
    if !overrides.is_empty() {
        let single = scenes.iter().filter(|s| s.clips.len() == 1).count();
        if single == 0 {
            return Err(CliError::usage(
                "--name, --fps and --loop apply to an input with a single animation, and no input has exactly one",
            ));
        }
        if single > 1 && overrides.name.is_some() {
            return Err(CliError::usage(format!(
                "--name would give {single} animations the same name: convert or attach them one at a time"
            )));
        }
        for s in &mut scenes {
            overrides.apply(s);
        }
    }
    let mut scenes = scenes.into_iter();
    let mut scene = scenes.next().ok_or_else(|| CliError::usage("convert needs an input file"))?;
    for (anim, path) in scenes.zip(&inputs[1..]) {
        let report = attach(&mut scene, &anim, &path.display().to_string()).map_err(CliError::load)?;
        if !report.unused_tracks.is_empty() {
            eprintln!(
                "rigscope: {}: {} joints not in the model were left out: {}",
                path.display(),
                report.unused_tracks.len(),
                report.unused_tracks.join(", ")
            );
        }
    }
    let rotation = args.rotate.map_or(Quat::IDENTITY, rotation_from_degrees);
    let (joints, meshes) = (scene.skeleton.len(), scene.meshes.len());
    let (clips, frames) = (scene.clips.len(), scene.clips.iter().map(|c| c.frame_count).sum::<u32>());
    let (bytes, notes) = if target == Target::Vrma {
        // The motion attached last (or the model's own, alone): a VRMA holds one.
        let clip = scene.clips.last().ok_or_else(|| CliError::usage("a VRMA holds a motion: the inputs have none"))?;
        let bytes = to_vrma(&scene, clip).map_err(|e| CliError::load(format!("{}: {e}", output.display())))?;
        crate::watch::write_atomically(output, &[&bytes])
            .map_err(|e| CliError::load(format!("{}: cannot write: {e}", output.display())))?;
        return super::print(&format!(
            "wrote {}: {} bytes; the motion \"{}\" through the humanoid, {} frames\n",
            output.display(),
            bytes.len(),
            clip.name,
            clip.frame_count
        ));
    } else if target.is_gltf() {
        let options = GltfExport { bake_fps: args.bake_fps, scale: args.scale, rotation, physics: !args.no_physics };
        let written = write_gltf(scene, inputs[0].parent(), output, options).map_err(|e| CliError::load(e.0))?;
        (written.bytes, written.notes)
    } else {
        // Baked and stood upright before --rotate and --scale, which then act in the axes the output is written in.
        let mut notes = for_inter_quake(&mut scene);
        transform_scene(&mut scene, args.scale, rotation);
        let (bytes, more) = encode(&scene, target).map_err(|e| CliError::load(format!("{}: {e}", output.display())))?;
        notes.extend(more);
        crate::watch::write_atomically(output, &[&bytes])
            .map_err(|e| CliError::load(format!("{}: cannot write: {e}", output.display())))?;
        (bytes.len(), notes)
    };
    for n in &notes {
        eprintln!("rigscope: note: {n}");
    }
    super::print(&format!(
        "wrote {}: {bytes} bytes; {meshes} meshes, {joints} joints, {clips} animations ({frames} frames)\n",
        output.display()
    ))
}

//! Writing scenes back out as files: `rigscope convert`.
//!
//! Conversion goes through the scene model like everything else: any input rigscope reads (IQE, IQM, RSM …) is
//! loaded, animation files are attached by joint name, the options are applied to the scene, and an encoder
//! writes the output format. The encoders only read the scene, so a new input format converts for free.

mod bake;
mod gltf;
mod iqe_out;
mod iqm_out;
mod transform;
mod vrma;

use std::path::Path;

use iqm_out::{ArraySpec, array_specs, written_frames};

pub use bake::{bake_constraints, for_gltf, for_inter_quake, needs_baking};
pub use gltf::{Container, GltfFile, SideFile, to_gltf};
pub use iqe_out::to_iqe;
pub use iqm_out::{IqmFile, to_iqm};
pub use transform::{rotation_from_degrees, to_up, to_z_up, transform_scene};
pub use vrma::{VrmaScene, to_vrma, vrma_scene};

use crate::scene::Scene;

/// How `convert` and the window's Export glTF write a glTF file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GltfExport {
    /// The rate motion glTF can't carry key for key is baked at (`None`: the motion's own).
    pub bake_fps: Option<f32>,
    /// `--scale` and `--rotate`, applied in glTF's axes after the change to them.
    pub scale: f32,
    pub rotation: glam::Quat,
    /// Bake an MMD model's rigid bodies (hair, skirts) into the joint animation, simulated as playback from the
    /// clip's start shows them.
    pub physics: bool,
}

impl Default for GltfExport {
    fn default() -> Self {
        GltfExport { bake_fps: None, scale: 1.0, rotation: glam::Quat::IDENTITY, physics: true }
    }
}

/// What writing a glTF file did: the bytes written (the document and the files beside it) and notes for the
/// user on what changed or was left out.
#[derive(Debug, Clone, PartialEq)]
pub struct GltfWritten {
    pub bytes: usize,
    pub notes: Vec<String>,
}

/// Writes `scene` (a model with its motions attached) as glTF at `out`: .glb, or .gltf with its buffer and
/// images beside it. The scene is baked and turned into glTF's axes ([`for_gltf`]), its textures are looked
/// for from `model_dir` as the viewer does, and every file is written beside its target and renamed over it
/// (a .gltf's side files first), so a viewer watching the output never reads half a file.
pub fn write_gltf(
    scene: Scene,
    model_dir: Option<&Path>,
    out: &Path,
    options: GltfExport,
) -> Result<GltfWritten, ConvertError> {
    let container_kind = Target::from_path(out).filter(|t| t.is_gltf());
    let Some(kind) = container_kind else {
        return Err(ConvertError(format!("{}: a glTF file ends in .glb or .gltf", out.display())));
    };
    let stem = out.file_stem().map_or("model".into(), |s| s.to_string_lossy().into_owned());
    let container = if kind == Target::Glb { Container::Glb } else { Container::Gltf { stem: &stem } };
    let (file, notes) = encode_gltf(scene, model_dir, container, options)?;
    let cannot = |path: &Path, e: std::io::Error| ConvertError(format!("{}: cannot write: {e}", path.display()));
    let dir = out.parent().unwrap_or(Path::new(""));
    for side in &file.side_files {
        let path = dir.join(&side.name);
        crate::watch::write_atomically(&path, &[&side.bytes]).map_err(|e| cannot(&path, e))?;
    }
    crate::watch::write_atomically(out, &[&file.head, &file.body]).map_err(|e| cannot(out, e))?;
    let bytes = file.len() + file.side_files.iter().map(|f| f.bytes.len()).sum::<usize>();
    Ok(GltfWritten { bytes, notes })
}

/// Encodes `scene` as [`write_gltf`] does, without writing anything: the file (a .glb's bytes are
/// `head` then `body`) and the notes for the user. The web page downloads the bytes.
pub fn encode_gltf(
    mut scene: Scene,
    model_dir: Option<&Path>,
    container: Container<'_>,
    options: GltfExport,
) -> Result<(gltf::GltfFile, Vec<String>), ConvertError> {
    let mut notes = for_gltf(&mut scene, options.bake_fps, options.physics);
    transform_scene(&mut scene, options.scale, options.rotation);
    let textures = crate::textures::TextureSet::load(&scene, model_dir);
    let file = to_gltf(&scene, &textures, container)?;
    notes.extend(file.notes.iter().cloned());
    notes.extend(
        textures
            .problems()
            .iter()
            .map(|p| format!("{}: texture {} {}: written untextured", p.material, p.path.display(), p.reason)),
    );
    Ok((file, notes))
}

/// A scene that can't be written in the asked-for format.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ConvertError(pub String);

/// The output format, chosen by the output file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Iqm,
    Iqe,
    /// glTF 2.0 binary (.glb).
    Glb,
    /// glTF 2.0 JSON (.gltf) with its buffer and images beside it.
    Gltf,
    /// A VRMA motion (.vrma: a .glb with `VRMC_vrm_animation`), written from a humanoid's clip by [`to_vrma`].
    Vrma,
}

impl Target {
    pub fn from_path(path: &Path) -> Option<Target> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "iqm" => Some(Target::Iqm),
            "iqe" => Some(Target::Iqe),
            "glb" => Some(Target::Glb),
            "gltf" => Some(Target::Gltf),
            "vrma" => Some(Target::Vrma),
            _ => None,
        }
    }
}

/// `--name`, `--fps` and `--loop`: settings for an input that holds a single animation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClipOverrides {
    pub name: Option<String>,
    pub fps: Option<f32>,
    pub looping: bool,
}

impl ClipOverrides {
    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.fps.is_none() && !self.looping
    }

    /// Applies the settings to `scene`'s clip when it has exactly one; returns whether it did.
    pub fn apply(&self, scene: &mut Scene) -> bool {
        let [clip] = scene.clips.as_mut_slice() else {
            return false;
        };
        if let Some(name) = &self.name {
            clip.name = name.clone();
        }
        if let Some(fps) = self.fps {
            clip.frame_rate = fps;
        }
        if self.looping {
            clip.looping = true;
        }
        true
    }
}

/// `q` as stored: unit length and `w ≤ 0` (the Inter-Quake convention). A quaternion that is already unit keeps
/// its bits, so converting a converted file changes nothing.
pub(crate) fn stored_rotation(q: glam::Quat) -> glam::Quat {
    let len = q.length();
    let q = if (len - 1.0).abs() <= 1e-6 || !(len.is_finite() && len > 0.0) { q } else { q / len };
    if q.w > 0.0 { -q } else { q }
}

impl Target {
    /// Whether the target is a glTF form (encoded by [`to_gltf`], prepared by [`for_gltf`]).
    pub fn is_gltf(self) -> bool {
        matches!(self, Target::Glb | Target::Gltf)
    }
}

/// Encodes `scene` in an Inter-Quake `target`'s format; returns the bytes and notes on what the encoder
/// changed. glTF targets go through [`to_gltf`], which also needs the scene's textures.
pub fn encode(scene: &Scene, target: Target) -> Result<(Vec<u8>, Vec<String>), ConvertError> {
    let (bytes, mut notes) = match target {
        Target::Iqm => to_iqm(scene).map(|f| (f.bytes, f.notes))?,
        Target::Iqe => {
            let (text, notes) = to_iqe(scene);
            (text.into_bytes(), notes)
        }
        Target::Vrma => {
            return Err(ConvertError("a VRMA is written from a humanoid's clip: use convert::to_vrma".into()));
        }
        Target::Glb | Target::Gltf => {
            return Err(ConvertError("glTF is encoded with the scene's textures: use convert::to_gltf".into()));
        }
    };
    notes.extend(dropped_notes(scene));
    Ok((bytes, notes))
}

/// What the Inter-Quake formats cannot carry: morphs, material colours and shading, skeleton constraints
/// (PMX/PMD).
fn dropped_notes(scene: &Scene) -> Vec<String> {
    let mut notes = Vec::new();
    if !scene.morphs.is_empty() {
        notes.push(format!("dropped {} morph(s): IQM and IQE carry no morph targets", scene.morphs.len()));
    }
    let coloured = scene.materials.iter().filter(|m| m.color.is_some_and(|c| c != glam::Vec4::ONE)).count();
    let shaded = scene.materials.iter().filter(|m| m.sphere.is_some() || m.toon.is_some()).count();
    if coloured + shaded > 0 {
        notes.push(format!(
            "dropped the colours of {coloured} material(s) and the sphere maps or toon ramps of {shaded}: IQM and \
             IQE materials are texture names only"
        ));
    }
    let c = &scene.constraints;
    if !c.ik.is_empty() || !c.append.is_empty() {
        notes.push(format!(
            "dropped {} IK chain(s) and {} append relation(s): IQM and IQE carry no constraints (animations are \
             baked with them first)",
            c.ik.len(),
            c.append.len()
        ));
    }
    notes
}

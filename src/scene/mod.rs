//! The format-neutral scene model.
//!
//! Every format (IQM, IQE, RSM, MVD, PMX, PMD, glTF) loads into a [`Scene`]; the renderer, the UI and the command line read
//! nothing else. The model keeps the file's own coordinate space (IQM stays Z-up) and says which way is up and
//! which winding faces front, so presentation can adapt without the data being rewritten.

pub mod adjacency;
mod camera;
mod clip;
pub mod color;
mod constraint;
mod geometry;
mod image;
mod light;
mod mmd;
mod morph;
mod mvd;
mod rsm;
mod skeleton;
mod spring;
mod vmd;
mod vrm;

pub(crate) use adjacency::group_by_key;
pub use adjacency::{triangle_adjacency, unique_edges};
pub use camera::{CameraKey, CameraPropertyKey, CameraTrack, CameraView};
pub use clip::{
    BoundsAccumulator, Clip, ClipData, DEFAULT_FPS, Easing, FrameBounds, IkSwitchTrack, Interpolation, Key, MorphTrack,
    Track, TrackEase, TrackMode, WHOLE_MODEL,
};
pub use constraint::{Aim, AngleLimits, Append, Constraints, IkChain, IkLink, JointDeform, MMD_KNEE, Roll};
pub use geometry::{
    AlphaMode, BlendMethod, CustomStream, Material, Mesh, Outline, SphereBlend, SphereMap, SphericalBlend, Surface,
    SurfaceMaps, TextureMap, TextureSearch, TextureTransform, ToonRamp, ToonShading, UV_IDENTITY, UvAnimation,
    UvChannel, UvChannelKind, VertexBlend, VertexStreams, uv_rows,
};
pub use image::EmbeddedImage;
pub use light::{Light, LightKey, LightTrack, MMD_DEFAULT_LIGHT, MMD_DEFAULT_SELF_SHADOW, SelfShadow, ShadowKey};
pub use mmd::{
    BoneTail, DisplayFrame, DisplayItem, MmdBone, MmdEncoding, MmdInfo, MmdMaterial, PhysicsJoint, RigidBody,
    SphereMode, Toon, WeightKindCounts, bone_flags, material_flags,
};
pub use morph::{
    BoneOffset, ColorOffset, ColorTarget, ImpulseOffset, MMD_LIGHT, MaterialOffset, MaterialOp, Morph, MorphKind,
    MorphPanel, MorphWeight, TextureTransformOffset, UvOffset, VertexOffset,
};
pub use mvd::{
    MMM_GRAVITY_SCALE, MvdAccessoryKey, MvdEffect, MvdEffectKey, MvdEffectParameter, MvdEffectValue, MvdEncoding,
    MvdInfo, MvdLightKey, MvdMotionBlend, MvdMotionClip, MvdObject, MvdProjectKey, MvdSection, MvdStage, MvdTrackInfo,
};
pub use rsm::{RsmInfo, RsmLayout, RsmNode, RsmUvAnimation, RsmVolumeBox};
pub use skeleton::{Joint, Skeleton, Transform};
pub use spring::{Collider, ColliderGroup, ColliderShape, LEAF_TAIL, SpringChain, SpringJoint, Springs};
pub use vmd::{
    VMD_NAME_BYTES, VmdCounts, VmdIkSwitch, VmdInfo, VmdLightKey, VmdName, VmdPropertyKey, VmdShadowKey, VmdTrackInfo,
    VpdInfo,
};
pub use vrm::{
    Expression, FirstPerson, HumanBone, LookAt, Override, REQUIRED_HUMAN_BONES, RangeMap, VRM_BONE_PARENTS,
    VrmAnimation, VrmInfo, humanoid_parent,
};

use crate::error::Warning;

/// Which file format a scene came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Iqm,
    Iqe,
    Rsm,
    Rsm2,
    Mvd,
    Vmd,
    Vpd,
    Pmx,
    Pmd,
    Gltf,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Iqm => "IQM",
            Format::Iqe => "IQE",
            Format::Rsm => "RSM",
            Format::Rsm2 => "RSM2",
            Format::Mvd => "MVD",
            Format::Vmd => "VMD",
            Format::Vpd => "VPD",
            Format::Pmx => "PMX",
            Format::Pmd => "PMD",
            Format::Gltf => "glTF",
        }
    }
}

/// The model's up axis in its own space, and so how presentation brings it upright ([`UpAxis::basis`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum UpAxis {
    Y,
    Z,
    /// Up is −Y (RSM1): shown turned 180° about X, a rotation.
    NegY,
    /// Y up in a left-handed frame (RSM2): shown with Z mirrored, which reverses the winding on screen.
    YLeftHanded,
    /// Y up with the front toward −Z (VRM 0.x): shown turned 180° about Y, a rotation, so it faces the camera as
    /// a VRM 1.0 model does.
    YBack,
}

impl UpAxis {
    /// Model space → the renderer's world space (Y up, the model's front toward +Z). Z-up models turn -90°
    /// about X: +Z becomes +Y and -Y (their front) becomes +Z. Y-down models (RSM1) turn 180° about X,
    /// diag(1, −1, −1). Left-handed Y-up models (RSM2) mirror Z, diag(1, 1, −1): the only basis with a negative
    /// determinant, so the renderer swaps the front-face winding for it (see [`UpAxis::mirrors`]). It lives
    /// with the scene because animation (MMD axis conversion) needs it as much as drawing does.
    pub fn basis(self) -> glam::Mat4 {
        use glam::{Mat4, Vec4};
        match self {
            UpAxis::Y => Mat4::IDENTITY,
            UpAxis::Z => Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            UpAxis::NegY => Mat4::from_diagonal(Vec4::new(1.0, -1.0, -1.0, 1.0)),
            UpAxis::YLeftHanded => Mat4::from_diagonal(Vec4::new(1.0, 1.0, -1.0, 1.0)),
            UpAxis::YBack => Mat4::from_diagonal(Vec4::new(-1.0, 1.0, -1.0, 1.0)),
        }
    }

    /// True when [`UpAxis::basis`] mirrors: a winding that is front in model space is back on screen.
    pub fn mirrors(self) -> bool {
        self.basis().determinant() < 0.0
    }

    /// How `info` and the sidebar name it.
    pub fn label(self) -> &'static str {
        match self {
            UpAxis::Y => "Y",
            UpAxis::Z => "Z",
            UpAxis::NegY => "-Y",
            UpAxis::YLeftHanded => "left-handed Y",
            UpAxis::YBack => "Y (front -Z)",
        }
    }

    /// How `info`'s first line says it: "Z-up", "left-handed Y-up", "Y-up, front -Z".
    pub fn described(self) -> String {
        match self {
            UpAxis::YBack => "Y-up, front -Z".to_string(),
            other => format!("{}-up", other.label()),
        }
    }
}

/// Which winding is the front face, seen from outside with a right-handed camera.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FrontFace {
    Ccw,
    /// The Inter-Quake formats: exporters reverse the winding ("Quake winding").
    Cw,
}

/// A source vertex array as the file declared it, for `info` and the sidebar.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SourceArray {
    /// `position`, `texcoord`, …, or the custom array's name.
    pub kind: String,
    /// `ubyte`, `half`, `float`, …
    pub format: String,
    pub size: u32,
    /// True when the array was ignored (reserved type, duplicate).
    pub ignored: bool,
}

/// A named block of extra data the file carries (IQM extensions).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Extension {
    pub name: String,
    pub bytes: u64,
}

/// What the file says about itself, and what was wrong with it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Metadata {
    pub format: Format,
    pub version: String,
    pub comment: Option<String>,
    pub extensions: Vec<Extension>,
    pub source_arrays: Vec<SourceArray>,
    pub warnings: Vec<Warning>,
}

impl Metadata {
    /// "IQM version 2", or just "IQE" for a format without versions.
    pub fn format_label(&self) -> String {
        let name = self.format.name();
        if self.version.is_empty() { name.to_string() } else { format!("{name} version {}", self.version) }
    }

    pub fn new(format: Format, version: impl Into<String>) -> Self {
        Metadata {
            format,
            version: version.into(),
            comment: None,
            extensions: Vec::new(),
            source_arrays: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// A loaded model or motion: geometry, skeleton and clips in the file's own space.
#[derive(Debug, Clone)]
pub struct Scene {
    pub meta: Metadata,
    pub vertices: VertexStreams,
    /// Triangles as global vertex indices, in the file's winding.
    pub triangles: Vec<[u32; 3]>,
    /// Neighbour triangle across edge `(v[e], v[(e+1)%3])`, as stored in the file (`u32::MAX` = none).
    pub adjacency: Option<Vec<[u32; 3]>>,
    pub meshes: Vec<Mesh>,
    pub materials: Vec<Material>,
    pub skeleton: Skeleton,
    pub clips: Vec<Clip>,
    pub up: UpAxis,
    pub front_face: FrontFace,
    /// RSM/RSM2 facts for `info` and the sidebar; `None` for other formats.
    pub rsm: Option<Box<RsmInfo>>,
    /// Animated cameras (MVD), each sampled by time in seconds; empty for formats without cameras.
    pub cameras: Vec<CameraTrack>,
    /// The motion's light and self-shadow keys (VMD, MVD), sampled by time in seconds; empty when no motion
    /// keys the light (the renderer then uses its own, or MikuMikuDance's default for MMD models).
    pub lights: Vec<LightTrack>,
    /// MVD facts for `info` and the sidebar; `None` for other formats.
    pub mvd: Option<Box<MvdInfo>>,
    /// VMD facts for `info` and the sidebar; `None` for other formats.
    pub vmd: Option<Box<VmdInfo>>,
    /// VPD facts for `info`; `None` for other formats.
    pub vpd: Option<Box<VpdInfo>>,
    /// Morph targets (PMX/PMD); empty for formats without them.
    pub morphs: Vec<Morph>,
    /// IK chains, append relations and evaluation order (PMX/PMD); empty for other formats.
    pub constraints: Constraints,
    /// PMX/PMD facts for `info` and the sidebar; `None` for other formats.
    pub mmd: Option<Box<MmdInfo>>,
    /// VRM avatar facts (humanoid, meta, expressions); `None` for files that aren't VRM.
    pub vrm: Option<Box<VrmInfo>>,
    /// Spring bones and their colliders (VRM); `None` without any.
    pub springs: Option<Box<Springs>>,
    /// A VRMA motion's humanoid and expression nodes; `None` for any other file.
    pub vrm_animation: Option<Box<VrmAnimation>>,
    /// Images stored in the model file (glTF), which materials with [`TextureSearch::Embedded`] name.
    pub images: Vec<EmbeddedImage>,
}

impl Scene {
    pub fn empty(meta: Metadata) -> Self {
        Scene {
            meta,
            vertices: VertexStreams::default(),
            triangles: Vec::new(),
            adjacency: None,
            meshes: Vec::new(),
            materials: Vec::new(),
            skeleton: Skeleton::default(),
            clips: Vec::new(),
            up: UpAxis::Z,
            front_face: FrontFace::Ccw,
            rsm: None,
            cameras: Vec::new(),
            lights: Vec::new(),
            mvd: None,
            vmd: None,
            vpd: None,
            morphs: Vec::new(),
            constraints: Constraints::default(),
            mmd: None,
            vrm: None,
            springs: None,
            vrm_animation: None,
            images: Vec::new(),
        }
    }

    /// A file with clips but nothing to draw: it is meant to be attached to a model.
    pub fn is_animation_only(&self) -> bool {
        self.meshes.is_empty() && self.vertices.is_empty() && !self.clips.is_empty()
    }

    /// Boxes the file declares besides its geometry (RSM volume boxes), as transforms of the cube [−1, 1]³ in
    /// model space, for an overlay. Empty for most formats.
    pub fn marked_boxes(&self) -> Vec<glam::Mat4> {
        self.rsm.as_ref().map_or_else(Vec::new, |r| r.volume_boxes.iter().map(|b| b.transform(r.centring)).collect())
    }

    /// Finds a clip by exact name, or by index when `selector` is a number that names no clip.
    pub fn find_clip(&self, selector: &str) -> Option<usize> {
        self.clips
            .iter()
            .position(|c| c.name == selector)
            .or_else(|| selector.parse::<usize>().ok().filter(|&i| i < self.clips.len()))
    }

    /// The clip shown when none is asked for: for an MMD model, the first clip named after the model (its
    /// Japanese or English name: an MVD makes one clip per model object, named after the model it was made
    /// for, and a VMD's clip carries the model name it was recorded on), else the first clip; `None` without
    /// clips.
    pub fn default_clip(&self) -> Option<usize> {
        if self.clips.is_empty() {
            return None;
        }
        let named = self.mmd.as_ref().and_then(|m| {
            let names = [m.name.trim(), m.name_en.trim()];
            self.clips.iter().position(|c| !c.name.trim().is_empty() && names.contains(&c.name.trim()))
        });
        Some(named.unwrap_or(0))
    }
}

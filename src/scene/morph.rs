//! Morph targets (MMD "morphs", PMD "skins"): named changes to vertices, UVs, bones and materials that a
//! weight in 0..1 blends in. Format-neutral: indices point into the scene (vertices as stored, joints of the
//! parents-first skeleton, scene materials, other morphs), never into a file's own tables.

use glam::{Quat, Vec3, Vec4};

/// Which panel of the morph list a morph belongs to (MMD's grouping of face controls).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MorphPanel {
    /// Hidden from the panels (PMX panel 0, PMD's base skin).
    System,
    Eyebrow,
    Eye,
    Mouth,
    Other,
}

impl MorphPanel {
    /// MMD's panel number: 0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other; `None` for other numbers.
    pub fn from_mmd(n: u8) -> Option<MorphPanel> {
        Some(match n {
            0 => MorphPanel::System,
            1 => MorphPanel::Eyebrow,
            2 => MorphPanel::Eye,
            3 => MorphPanel::Mouth,
            4 => MorphPanel::Other,
            _ => return None,
        })
    }
}

/// A vertex moved by `delta` (model space) at weight 1.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct VertexOffset {
    pub vertex: u32,
    pub delta: Vec3,
}

/// A UV (channel 0) or additional UV (channels 1–4) changed by `delta` at weight 1; channel 0 uses `x, y`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct UvOffset {
    pub vertex: u32,
    pub delta: Vec4,
}

/// A joint moved and turned (relative to its pose) at weight 1.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BoneOffset {
    pub joint: usize,
    pub translation: Vec3,
    pub rotation: Quat,
}

/// How a material morph combines with the material.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MaterialOp {
    /// Each value multiplied by `1 + (v − 1) · weight`.
    Multiply,
    /// Each value plus `v · weight`.
    Add,
}

/// MikuMikuDance's default light colour (154/255 grey): a material's colour is `ambient + diffuse × light`, and
/// material morphs change diffuse and ambient through the same sum.
pub const MMD_LIGHT: f32 = 154.0 / 255.0;

/// A change to one material (or all of them) at weight 1.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MaterialOffset {
    /// A scene material, or `None` for every material.
    pub material: Option<usize>,
    pub op: MaterialOp,
    pub diffuse: Vec4,
    pub specular: Vec3,
    pub specular_power: f32,
    pub ambient: Vec3,
    pub edge_color: Vec4,
    pub edge_size: f32,
    pub texture_tint: Vec4,
    pub sphere_tint: Vec4,
    pub toon_tint: Vec4,
}

/// Another morph driven with a weight (group and flip morphs).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MorphWeight {
    pub morph: usize,
    pub weight: f32,
}

/// A push given to a rigid body (PMX 2.1 impulse morphs; listed, not yet applied by the simulation).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ImpulseOffset {
    /// Index into the file's rigid bodies.
    pub rigid_body: usize,
    pub local: bool,
    pub velocity: Vec3,
    pub torque: Vec3,
}

/// What a morph changes.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "offsets")]
pub enum MorphKind {
    Vertex(Vec<VertexOffset>),
    /// Channel 0 is the texture coordinate, 1–4 the additional UVs.
    Uv {
        channel: u8,
        offsets: Vec<UvOffset>,
    },
    Bone(Vec<BoneOffset>),
    Material(Vec<MaterialOffset>),
    /// Other morphs, each with its weight scaled by this one's.
    Group(Vec<MorphWeight>),
    /// One of the listed morphs, chosen by the weight (PMX 2.1).
    Flip(Vec<MorphWeight>),
    Impulse(Vec<ImpulseOffset>),
    /// What materials' colour texture transforms gain at full weight (VRM's texture transform binds).
    TextureTransform(Vec<TextureTransformOffset>),
    /// What materials' colours gain at full weight, in linear space (VRM's material colour binds).
    Color(Vec<ColorOffset>),
}

/// Which of a material's colours a [`ColorOffset`] moves (VRM's `materialColorBinds` types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorTarget {
    // The order indexes `anim::color_shifts`' table.
    /// The base colour and its alpha ([`crate::scene::Material::color`]).
    Base,
    /// The light given off ([`crate::scene::Material::emissive`]).
    Emissive,
    /// The outline's colour ([`crate::scene::Outline::color`]).
    Outline,
    /// MToon's shade colour ([`crate::scene::ToonShading::shade`]).
    Shade,
    /// MToon's rim colour ([`crate::scene::ToonShading::rim`]).
    Rim,
}

impl ColorTarget {
    /// The bind type VRM 1.0 names `name`, or VRM 0.x's material property `name` (`_Color`, `_EmissionColor`,
    /// `_ShadeColor`, `_RimColor`, `_OutlineColor`), as three-vrm 3.5.5 maps them; `None` for the matcap colour
    /// (matcaps aren't drawn) and unknown names.
    pub fn from_name(name: &str) -> Option<ColorTarget> {
        Some(match name {
            "color" | "_Color" => ColorTarget::Base,
            "emissionColor" | "_EmissionColor" => ColorTarget::Emissive,
            "outlineColor" | "_OutlineColor" => ColorTarget::Outline,
            "shadeColor" | "_ShadeColor" => ColorTarget::Shade,
            "rimColor" | "_RimColor" => ColorTarget::Rim,
            _ => return None,
        })
    }
}

/// A material colour's change at full weight (VRM's `materialColorBinds`: the bind's target less the material's
/// own value, linear RGB, and alpha for the base colour; emissive already times the material's emissive
/// strength). Several expressions' offsets add up, as three-vrm 3.5.5 adds them.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ColorOffset {
    /// A scene material.
    pub material: usize,
    pub target: ColorTarget,
    pub delta: Vec4,
}

/// A material's colour texture transform's change at full weight: its offset and scale move by these (VRM's
/// `textureTransformBinds`: the bind's values less the material's own).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TextureTransformOffset {
    /// A scene material.
    pub material: usize,
    pub offset: glam::Vec2,
    pub scale: glam::Vec2,
}

impl MorphKind {
    /// How `info` and the sidebar name the kind.
    pub fn label(&self) -> &'static str {
        match self {
            MorphKind::Vertex(_) => "vertex",
            MorphKind::Uv { channel: 0, .. } => "uv",
            MorphKind::Uv { .. } => "additional uv",
            MorphKind::Bone(_) => "bone",
            MorphKind::Material(_) => "material",
            MorphKind::Group(_) => "group",
            MorphKind::Flip(_) => "flip",
            MorphKind::Impulse(_) => "impulse",
            MorphKind::TextureTransform(_) => "texture transform",
            MorphKind::Color(_) => "material colour",
        }
    }

    /// Number of offsets (entries) the morph has.
    pub fn len(&self) -> usize {
        match self {
            MorphKind::Vertex(v) => v.len(),
            MorphKind::Uv { offsets, .. } => offsets.len(),
            MorphKind::Bone(v) => v.len(),
            MorphKind::Material(v) => v.len(),
            MorphKind::Group(v) | MorphKind::Flip(v) => v.len(),
            MorphKind::Impulse(v) => v.len(),
            MorphKind::TextureTransform(v) => v.len(),
            MorphKind::Color(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A named morph.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Morph {
    pub name: String,
    /// The English (universal) name; empty when the file has none.
    pub name_en: String,
    pub panel: MorphPanel,
    pub kind: MorphKind,
}

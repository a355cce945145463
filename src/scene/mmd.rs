//! Facts about a PMX or PMD file that the command line and the sidebar show but the format-neutral model has
//! no place for: names and comments in both languages, encoding, index sizes, material flags with sphere and
//! toon textures and edges, bones with their flags in the file's order, display frames, rigid bodies and
//! joints (simulated by `crate::physics`). Geometry, skeleton, morphs and constraints live in the scene proper.

use glam::{Vec3, Vec4};

/// How the file's text is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MmdEncoding {
    Utf16Le,
    Utf8,
    /// PMD: Shift-JIS (code page 932).
    ShiftJis,
}

/// A material's sphere map mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SphereMode {
    None,
    Multiply,
    Add,
    /// Sampled with the first additional UV (PMX).
    SubTexture,
}

/// A material's toon ramp.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Toon {
    None,
    /// MMD's shared toon01.bmp…toon10.bmp: index 0–9.
    Shared(u8),
    /// The model's own texture.
    Texture(String),
}

/// PMX material flag bits (PMD sets two-sided from alpha and edge from its edge flag).
pub mod material_flags {
    pub const TWO_SIDED: u8 = 0x01;
    pub const GROUND_SHADOW: u8 = 0x02;
    pub const CAST_SELF_SHADOW: u8 = 0x04;
    pub const RECEIVE_SELF_SHADOW: u8 = 0x08;
    pub const EDGE: u8 = 0x10;
    pub const VERTEX_COLOR: u8 = 0x20;
    pub const POINTS: u8 = 0x40;
    pub const LINES: u8 = 0x80;
}

/// One material as the file declares it; the scene material of the same index draws it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MmdMaterial {
    pub name: String,
    pub name_en: String,
    pub diffuse: Vec4,
    pub specular: Vec3,
    pub specular_power: f32,
    pub ambient: Vec3,
    /// [`material_flags`] bits.
    pub flags: u8,
    pub edge_color: Vec4,
    pub edge_size: f32,
    /// Paths as written, `\` turned into `/`.
    pub texture: Option<String>,
    pub sphere: Option<String>,
    pub sphere_mode: SphereMode,
    pub toon: Toon,
    pub memo: String,
    /// Triangles drawn with this material.
    pub triangles: u32,
}

/// Where a bone's tail (the end of its display line) is.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoneTail {
    Offset(Vec3),
    /// A file bone index, or `None`.
    Bone(Option<usize>),
}

/// PMX bone flag bits.
pub mod bone_flags {
    pub const TAIL_IS_BONE: u16 = 0x0001;
    pub const ROTATABLE: u16 = 0x0002;
    pub const TRANSLATABLE: u16 = 0x0004;
    pub const VISIBLE: u16 = 0x0008;
    pub const OPERABLE: u16 = 0x0010;
    pub const IK: u16 = 0x0020;
    pub const LOCAL_APPEND: u16 = 0x0080;
    pub const APPEND_ROTATION: u16 = 0x0100;
    pub const APPEND_TRANSLATION: u16 = 0x0200;
    pub const FIXED_AXIS: u16 = 0x0400;
    pub const LOCAL_AXES: u16 = 0x0800;
    pub const AFTER_PHYSICS: u16 = 0x1000;
    pub const EXTERNAL_PARENT: u16 = 0x2000;
}

/// One bone in the file's order.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MmdBone {
    pub name: String,
    pub name_en: String,
    /// The scene joint made from this bone.
    pub joint: usize,
    /// The parent as a file bone index.
    pub parent: Option<usize>,
    /// Absolute position (model space).
    pub position: Vec3,
    pub layer: i32,
    /// [`bone_flags`] bits (PMD bones get the bits their kind implies).
    pub flags: u16,
    pub tail: BoneTail,
    /// PMD bone kind (0 rotate … 9 follow rotation); `None` for PMX.
    pub pmd_kind: Option<u8>,
    /// Index into the scene's IK chains when this is an IK bone.
    pub ik: Option<usize>,
    /// Append source (file bone index) and ratio.
    pub append: Option<(usize, f32)>,
    pub external_key: Option<i32>,
}

/// A display frame entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DisplayItem {
    /// File bone index.
    Bone(usize),
    /// Morph index.
    Morph(usize),
}

/// A display frame (the bone and morph groups MMD's panels show).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DisplayFrame {
    pub name: String,
    pub name_en: String,
    /// The root and expression frames MMD creates itself.
    pub special: bool,
    pub items: Vec<DisplayItem>,
}

/// A rigid body (simulated by `crate::physics`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RigidBody {
    pub name: String,
    pub name_en: String,
    /// File bone index it follows, if any.
    pub bone: Option<usize>,
    /// Collision group, 0–15.
    pub group: u8,
    /// The groups this body collides with: a set bit collides (the file's "non-collision group" field, which
    /// every MikuMikuDance runtime passes to Bullet as its collide-with mask).
    pub collision_mask: u16,
    /// 0 sphere, 1 box, 2 capsule.
    pub shape: u8,
    pub size: Vec3,
    pub position: Vec3,
    pub rotation: Vec3,
    pub mass: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub restitution: f32,
    pub friction: f32,
    /// 0 follows the bone, 1 physics, 2 physics with the bone's position.
    pub mode: u8,
}

/// A physics joint between two rigid bodies (spring 6DOF joints are simulated by `crate::physics`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PhysicsJoint {
    pub name: String,
    pub name_en: String,
    /// 0 spring 6DOF; PMX 2.1 adds 1 6DOF, 2 point-to-point, 3 cone twist, 4 slider, 5 hinge.
    pub kind: u8,
    pub bodies: [Option<usize>; 2],
    pub position: Vec3,
    pub rotation: Vec3,
    pub translation_min: Vec3,
    pub translation_max: Vec3,
    pub rotation_min: Vec3,
    pub rotation_max: Vec3,
    pub spring_translation: Vec3,
    pub spring_rotation: Vec3,
}

impl PhysicsJoint {
    /// The eight vectors in the order PMX and PMD files store them (position to rotation spring).
    pub fn vectors(&self) -> [Vec3; 8] {
        [
            self.position,
            self.rotation,
            self.translation_min,
            self.translation_max,
            self.rotation_min,
            self.rotation_max,
            self.spring_translation,
            self.spring_rotation,
        ]
    }
}

/// Vertices per weight kind: BDEF1, BDEF2, BDEF4, SDEF, QDEF.
pub type WeightKindCounts = [usize; 5];

/// MMD-specific facts carried by [`super::Scene::mmd`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MmdInfo {
    pub encoding: MmdEncoding,
    pub name: String,
    pub name_en: String,
    pub comment: String,
    pub comment_en: String,
    /// Additional UV channels per vertex (PMX, 0–4); they are the scene's custom streams `uv1`…`uv4`.
    pub additional_uvs: u8,
    /// Index sizes in bytes: vertex, texture, material, bone, morph, rigid body (PMD: fixed sizes).
    pub index_sizes: [u8; 6],
    /// SDEF and QDEF vertices are in the scene's vertex streams as [`super::VertexBlend`].
    pub weight_kinds: WeightKindCounts,
    /// Per vertex: edge scale (PMX) or 0/1 from PMD's edge flag (1 draws the edge).
    pub edge_scale: Vec<f32>,
    /// The texture table (PMX) or the textures the materials name (PMD).
    pub textures: Vec<String>,
    pub materials: Vec<MmdMaterial>,
    pub bones: Vec<MmdBone>,
    /// Scene joint → file bone index (the skeleton is parents-first; the file need not be).
    pub bone_of_joint: Vec<usize>,
    pub display_frames: Vec<DisplayFrame>,
    /// PMD's toon texture list (toon01.bmp… when absent); empty for PMX.
    pub toon_textures: Vec<String>,
    pub rigid_bodies: Vec<RigidBody>,
    pub joints: Vec<PhysicsJoint>,
    /// PMD: the file carries the English extension.
    pub has_english: bool,
}

//! Facts about an MVD (MikuMikuMoving motion) file that the format-neutral model has no place for, for `info`
//! and the sidebar: objects, their key rates, every section with its minor type and counts, stages (layers),
//! motion clips and blends, and the keys of the Light, Project, AccessoryProperty and EffectProperty sections as
//! stored (times in the object's ticks). Bone and morph motion live in the scene's clips, cameras in
//! `Scene::cameras`, light and self-shadow keys in `Scene::lights`, gravity keys in `Clip::gravity`.

/// The string encoding the header declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MvdEncoding {
    Utf16Le,
    Utf8,
}

impl MvdEncoding {
    pub fn name(self) -> &'static str {
        match self {
            MvdEncoding::Utf16Le => "UTF-16LE",
            MvdEncoding::Utf8 => "UTF-8",
        }
    }
}

/// One section as the file frames it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdSection {
    pub offset: u64,
    pub tag: u8,
    /// `bone`, `camera`, …, or `unknown`.
    pub kind: &'static str,
    pub minor: u8,
    /// The header key (a NameList key for bone, morph and camera sections).
    pub key: i32,
    /// The key's NameList name, where the key names something.
    pub name: Option<String>,
    pub item_size: i32,
    pub count: i32,
    pub ext_size: i32,
    /// True when the items were read; false when the section was skipped.
    pub read: bool,
}

/// One stage (layer) of a bone or camera.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdStage {
    pub id: i32,
    /// The stage's NameList name (key `owner * -1000 - id`), if listed.
    pub name: Option<String>,
    pub keys: usize,
}

/// A bone, morph or camera track: its name, NameList key and stages.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdTrackInfo {
    pub name: String,
    pub key: i32,
    /// Stage 0 is the base layer; bone and camera tracks only (morphs have none: one stage 0).
    pub stages: Vec<MvdStage>,
    /// The ext's parent clip id (bone minor ≥ 2, morph minor ≥ 1).
    pub parent_clip: Option<i32>,
    /// The ext's stage count, as declared.
    pub stage_count: Option<i32>,
}

/// A MotionClip (tag 40) item.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdMotionClip {
    pub parent_clip: Option<i32>,
    pub track_index: i32,
    pub frame_start: f32,
    pub frame_length: f32,
    pub repeat_count: i32,
    pub weight: f32,
    pub scale: f32,
    pub time_warp_spline_type: i32,
    pub time_warp_points: Vec<[f32; 2]>,
}

/// A MotionBlend (tag 48) item.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdMotionBlend {
    pub parent_clip: Option<i32>,
    pub clip_a: i32,
    pub clip_b: i32,
    pub spline_type: i32,
    pub blend_points: Vec<[f32; 2]>,
}

/// A Light (tag 112) key: `i64 t; f32 position[3]; u8 color[3]; u8 enabled` (24 bytes).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MvdLightKey {
    /// The item's byte offset.
    pub offset: u64,
    /// Ticks.
    pub time: i64,
    /// The direction the light travels, as keyed (MikuMikuMoving calls it the position).
    pub position: [f32; 3],
    pub color: [u8; 3],
    pub enabled: bool,
}

/// A Project (tag 128) key: gravity (minor ≥ 1) and self-shadow.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MvdProjectKey {
    /// The item's byte offset.
    pub offset: u64,
    /// Ticks.
    pub time: i64,
    /// Gravity's acceleration as stored (minor ≥ 1; Keystone's default 0.98).
    pub gravity: Option<f32>,
    /// Gravity's direction as stored (minor ≥ 1; default (0, −1, 0)).
    pub gravity_vector: Option<[f32; 3]>,
    /// 0 none, 1 depth shadow.
    pub shadow_model: i32,
    pub shadow_distance: f32,
    /// Absent from a minor-0 item of 16 bytes.
    pub shadow_depth: Option<f32>,
}

/// An AccessoryProperty (tag 80) key, and the first 28 bytes of an EffectProperty key: `i64 t; u8 visible,
/// shadow, addBlend, reserved; f32 scale, alpha; i32 relatedModel, relatedBone`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MvdAccessoryKey {
    /// The item's byte offset.
    pub offset: u64,
    /// Ticks.
    pub time: i64,
    pub visible: bool,
    pub shadow: bool,
    pub add_blend: bool,
    pub scale: f32,
    /// Opacity, 0–1.
    pub alpha: f32,
    /// The model and bone the object follows (−1: none).
    pub related_model: i32,
    pub related_bone: i32,
}

/// One value of an effect parameter.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum MvdEffectValue {
    Bool(bool),
    Int(i32),
    /// One to four floats.
    Floats(Vec<f32>),
}

/// An EffectProperty parameter from the section's ext: `{i32 nameKey; i32 type}`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdEffectParameter {
    /// NameList key of the parameter's name.
    pub key: i32,
    /// The NameList name (`#key` when unlisted).
    pub name: String,
    /// 1 bool, 2 int, 3 string, 4–7 one to four floats (0 and 3 have no known size: not read).
    pub kind: i32,
}

/// An EffectProperty key: the accessory-like head and one value per parameter read.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdEffectKey {
    #[serde(flatten)]
    pub head: MvdAccessoryKey,
    /// Values in parameter order, up to the first parameter of no known size.
    pub values: Vec<MvdEffectValue>,
}

/// One EffectProperty (tag 88) section: its parameters and keys. The effect is the object the section is in.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdEffect {
    pub offset: u64,
    pub parameters: Vec<MvdEffectParameter>,
    pub keys: Vec<MvdEffectKey>,
}

/// One object of the file (a model's motion, a camera, an accessory, …).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdObject {
    pub offset: u64,
    pub name: String,
    pub english_name: String,
    /// Ticks per second as stored.
    pub key_fps: f32,
    /// The clip made from this object.
    pub clip: Option<usize>,
    pub sections: Vec<MvdSection>,
    /// NameList entries in file order.
    pub names: Vec<(i32, String)>,
    pub bones: Vec<MvdTrackInfo>,
    pub morphs: Vec<MvdTrackInfo>,
    pub cameras: Vec<MvdTrackInfo>,
    pub camera_property_keys: usize,
    pub model_property_keys: usize,
    /// ModelProperty IK bones of all its sections, once each, by NameList name (or `#key` when unlisted).
    pub ik_bones: Vec<String>,
    pub motion_clips: Vec<MvdMotionClip>,
    pub motion_blends: Vec<MvdMotionBlend>,
    /// Light keys of all its Light sections, sorted by time.
    pub lights: Vec<MvdLightKey>,
    /// Project keys (gravity, self-shadow), sorted by time.
    pub project: Vec<MvdProjectKey>,
    /// AccessoryProperty keys, sorted by time (the accessory itself, an .x file, is not loaded).
    pub accessory: Vec<MvdAccessoryKey>,
    /// EffectProperty sections.
    pub effects: Vec<MvdEffect>,
    /// Frames of Filter sections, counted, not read.
    pub other_keys: usize,
}

/// MVD-specific facts carried by [`super::Scene::mvd`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdInfo {
    pub version: f32,
    pub encoding: MvdEncoding,
    pub objects: Vec<MvdObject>,
    /// True when the loader added stages other than 0 on top of the base stage.
    pub additive_stages: bool,
}

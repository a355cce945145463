//! Facts about an MVD (MikuMikuMoving motion) file that the format-neutral model has no place for, for `info`
//! and the sidebar: objects, their key rates, every section with its minor type and counts, stages (layers),
//! motion clips and blends. Bone and morph motion live in the scene's clips, cameras in `Scene::cameras`.

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
    /// Frames of skipped sections (accessory, effect, light, project, filter) read for the count only.
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

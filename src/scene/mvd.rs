//! Facts about an MVD (MikuMikuMoving motion) file that the format-neutral model has no place for, for `info`
//! and the sidebar: objects, their key rates, every section with its minor type and counts, stages (layers),
//! motion clips and blends, and the keys of the Light, Project, AccessoryProperty and EffectProperty sections as
//! stored (times in the object's ticks). Bone and morph motion live in the scene's clips, cameras in
//! `Scene::cameras`, light and self-shadow keys in `Scene::lights`, gravity keys in `Clip::gravity`.

use glam::Vec3;

/// Units/s² per unit of a Project key's stored gravity acceleration. Keystone's reader defaults the stored value
/// to 0.98 (and the vector to (0, −1, 0)), which must be MikuMikuDance's default 9.8 × 10 = 98 units/s², so
/// the stored value is taken as 1/100 of it. An inference from that default: no MikuMikuMoving file at hand
/// confirms it.
pub const MMM_GRAVITY_SCALE: f32 = 100.0;

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

impl MvdProjectKey {
    /// The gravity the key gives, units/s²: the stored acceleration × [`MMM_GRAVITY_SCALE`] along the
    /// normalised vector; `None` at minor 0 (no gravity) or when that is not a number or has no direction.
    pub fn acceleration(&self) -> Option<Vec3> {
        let (g, v) = (self.gravity?, Vec3::from_array(self.gravity_vector?));
        let g = v.try_normalize()? * g * MMM_GRAVITY_SCALE;
        g.is_finite().then_some(g)
    }

    /// `tick T: gravity …, self-shadow …` for `info` and the sidebar.
    pub fn describe(&self) -> String {
        let gravity = match (self.gravity, self.gravity_vector, self.acceleration()) {
            (Some(g), Some(v), Some(a)) => {
                format!("gravity {g} along {} = {} units/s²", triple(v), triple(a.to_array()))
            }
            (Some(g), Some(v), None) => format!("gravity {g} along {} (unusable)", triple(v)),
            _ => "no gravity (minor 0)".to_string(),
        };
        let model = match self.shadow_model {
            0 => "none".to_string(),
            1 => "depth shadow".to_string(),
            m => format!("model {m}"),
        };
        let depth = self.shadow_depth.map_or(String::new(), |d| format!(", depth {d}"));
        format!("tick {}: {gravity}; self-shadow {model}, distance {}{depth}", self.time, self.shadow_distance)
    }
}

impl MvdLightKey {
    /// `tick T: direction (x, y, z), colour (r, g, b), on` for `info` and the sidebar.
    pub fn describe(&self) -> String {
        let [r, g, b] = self.color;
        let on = if self.enabled { "on" } else { "off" };
        format!("tick {}: direction {}, colour ({r}, {g}, {b}), {on}", self.time, triple(self.position))
    }
}

/// `(x, y, z)` with each number as short as it prints.
fn triple(v: [f32; 3]) -> String {
    format!("({}, {}, {})", v[0], v[1], v[2])
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

impl MvdAccessoryKey {
    /// `tick T: shown, shadow, add-blend, scale 1, opacity 0.5, follows model 0 bone 2`.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("tick {}: {}", self.time, if self.visible { "shown" } else { "hidden" })];
        if self.shadow {
            parts.push("shadow".into());
        }
        if self.add_blend {
            parts.push("add-blend".into());
        }
        parts.push(format!("scale {}, opacity {}", self.scale, self.alpha));
        if self.related_model >= 0 || self.related_bone >= 0 {
            parts.push(format!("follows model {} bone {}", self.related_model, self.related_bone));
        }
        parts.join(", ")
    }
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

impl std::fmt::Display for MvdEffectValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MvdEffectValue::Bool(b) => write!(f, "{b}"),
            MvdEffectValue::Int(i) => write!(f, "{i}"),
            MvdEffectValue::Floats(v) if v.len() == 1 => write!(f, "{}", v[0]),
            MvdEffectValue::Floats(v) => {
                let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                write!(f, "({})", s.join(", "))
            }
        }
    }
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

impl MvdEffectParameter {
    /// The value type's name: bool, int, string, float, float2, float3, float4, or `type N`.
    pub fn kind_name(&self) -> String {
        match self.kind {
            0 => "none".into(),
            1 => "bool".into(),
            2 => "int".into(),
            3 => "string".into(),
            4 => "float".into(),
            k @ 5..=7 => format!("float{}", k - 3),
            k => format!("type {k}"),
        }
    }
}

/// An EffectProperty key: the accessory-like head and one value per parameter read.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MvdEffectKey {
    #[serde(flatten)]
    pub head: MvdAccessoryKey,
    /// Values in parameter order, up to the first parameter of no known size.
    pub values: Vec<MvdEffectValue>,
}

impl MvdEffect {
    /// `name (type), …` of the parameters.
    pub fn describe_parameters(&self) -> String {
        let p: Vec<String> = self.parameters.iter().map(|p| format!("{} ({})", p.name, p.kind_name())).collect();
        if p.is_empty() { "no parameters".into() } else { p.join(", ") }
    }

    /// One key: the accessory-like head, then `name = value` per parameter read.
    pub fn describe_key(&self, k: &MvdEffectKey) -> String {
        let values = self.parameters.iter().zip(&k.values).map(|(p, v)| format!("{} = {v}", p.name));
        std::iter::once(k.head.describe()).chain(values).collect::<Vec<_>>().join(", ")
    }
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

//! The MVD byte layout (MVD note §1–§3), spelled once for the parser and the test writer: signature, version,
//! encodings, section tags, header sizes, the EOF marker, and which fields each minor type holds.

/// The signature's text; the [`SIGNATURE_LEN`]-byte field is NUL-padded.
pub const SIGNATURE: &[u8] = b"Motion Vector Data file";

/// The signature field's size.
pub const SIGNATURE_LEN: usize = 30;

/// The one version there is.
pub const VERSION: f32 = 1.0;

/// Versions read (as 1.0): at least 1, below 2.
pub const VERSIONS: std::ops::Range<f32> = 1.0..2.0;

/// The header's encoding byte.
pub const ENCODING_UTF16LE: u8 = 0;
pub const ENCODING_UTF8: u8 = 1;

pub const TAG_NAME_LIST: u8 = 0;
pub const TAG_BONE: u8 = 16;
pub const TAG_MORPH: u8 = 32;
pub const TAG_MOTION_CLIP: u8 = 40;
pub const TAG_MOTION_BLEND: u8 = 48;
pub const TAG_MODEL_PROPERTY: u8 = 64;
pub const TAG_ACCESSORY_PROPERTY: u8 = 80;
pub const TAG_EFFECT_PROPERTY: u8 = 88;
pub const TAG_CAMERA: u8 = 96;
pub const TAG_CAMERA_PROPERTY: u8 = 104;
pub const TAG_LIGHT: u8 = 112;
pub const TAG_PROJECT: u8 = 128;
pub const TAG_FILTER: u8 = 136;
pub const TAG_EOF: u8 = 255;

/// An object ends with the EOF tag and a minor byte.
#[cfg_attr(not(any(test, feature = "testing")), expect(dead_code, reason = "only the test writer uses it"))]
pub const EOF_MARKER: [u8; 2] = [TAG_EOF, 0];

/// How `info` names a tag.
pub fn tag_kind(tag: u8) -> &'static str {
    match tag {
        TAG_NAME_LIST => "name_list",
        TAG_BONE => "bone",
        TAG_MORPH => "morph",
        TAG_MOTION_CLIP => "motion_clip",
        TAG_MOTION_BLEND => "motion_blend",
        TAG_MODEL_PROPERTY => "model_property",
        TAG_ACCESSORY_PROPERTY => "accessory_property",
        TAG_EFFECT_PROPERTY => "effect_property",
        TAG_CAMERA => "camera",
        TAG_CAMERA_PROPERTY => "camera_property",
        TAG_LIGHT => "light",
        TAG_PROJECT => "project",
        TAG_FILTER => "filter",
        TAG_EOF => "eof",
        _ => "unknown",
    }
}

pub fn known_tag(tag: u8) -> bool {
    tag_kind(tag) != "unknown"
}

/// The section header's i32 fields after tag and minor, in order.
pub const SECTION_FIELDS: [&str; 4] = ["key", "itemSize", "count", "extSize"];

/// The newest bone, camera-property and model-property minor read as such (newer ones read as this).
pub const NEWEST_MINOR: u8 = 2;

/// Bone frames: stage, time, position, rotation, four curves (56 B); minor ≥ 1 adds a spline flag (written
/// padded to 60 B).
pub const BONE_ITEM: u64 = 56;

pub fn bone_has_spline(minor: u8) -> bool {
    minor >= 1
}

/// The bytes a bone frame must hold.
pub fn bone_item_min(minor: u8) -> u64 {
    if bone_has_spline(minor) { BONE_ITEM + 1 } else { BONE_ITEM }
}

/// The bone ext holds the parent clip after the stage count from minor 2.
#[cfg_attr(not(any(test, feature = "testing")), expect(dead_code, reason = "only the test writer uses it"))]
pub fn bone_ext_has_parent_clip(minor: u8) -> bool {
    minor >= 2
}

/// Morph frames: time, weight, curve.
pub const MORPH_ITEM: u64 = 16;

/// The morph ext holds the parent clip from minor 1.
#[cfg_attr(not(any(test, feature = "testing")), expect(dead_code, reason = "only the test writer uses it"))]
pub fn morph_ext_has_parent_clip(minor: u8) -> bool {
    minor >= 1
}

/// Camera frames by minor: 0 adds a perspective flag, 1 enabled/perspective/alpha/effect, 3 a spline flag and
/// padding; minors past 3 are unknown.
pub fn camera_item(minor: u8) -> Option<u64> {
    match minor {
        0 => Some(61),
        1 => Some(67),
        2 => Some(60),
        3 => Some(64),
        _ => None,
    }
}

/// CameraProperty frames by minor: 0 has time, flags and alpha; 1 adds dynamic fov; 2 the related model/bone.
pub fn camera_property_item(minor: u8) -> u64 {
    match minor {
        0 => 16,
        1 => 24,
        _ => 32,
    }
}

pub fn camera_property_has_dynamic_fov(minor: u8) -> bool {
    minor >= 1
}

pub fn camera_property_has_related(minor: u8) -> bool {
    minor >= 2
}

/// ModelProperty minor ≥ 1: physics still mode (and padding).
pub fn model_property_has_still_mode(minor: u8) -> bool {
    minor >= 1
}

/// ModelProperty minor ≥ 2: scale.
pub fn model_property_has_scale(minor: u8) -> bool {
    minor >= 2
}

/// ModelProperty minor ≥ 3: model relations (count in the ext, triples in each frame).
pub fn model_property_has_relations(minor: u8) -> bool {
    minor >= 3
}

/// One ModelProperty relation: external parent key, related model, related bone.
pub const MODEL_RELATION: u64 = 12;

/// The ModelProperty item size the fields take (note §3.6), for `ik` IK bones and `relations` relations.
pub fn model_property_item(minor: u8, ik: u64, relations: u64) -> u64 {
    12 + if model_property_has_still_mode(minor) { 4 } else { 0 }
        + 8
        + if model_property_has_scale(minor) { 4 } else { 0 }
        + ik
        + if model_property_has_relations(minor) { relations.saturating_mul(MODEL_RELATION) } else { 0 }
}

/// MikuMikuMoving writes ModelProperty's itemSize this much short at minor ≥ 1.
pub const MMM_ITEM_SHORTFALL: u64 = 4;

/// A NameList item is at least a key and a string length.
pub const NAME_LIST_ITEM_MIN: u64 = 8;

/// MotionClip items: seven fields before the time-warp point count.
pub const MOTION_CLIP_HEAD: u64 = 28;

/// A MotionClip item is at least its head and the time-warp point count.
pub const MOTION_CLIP_ITEM_MIN: u64 = MOTION_CLIP_HEAD + 4;

/// Time-warp and blend points: two floats.
pub const POINT: u64 = 8;

/// MotionBlend items: clip A, clip B, spline type, point count, then the points.
pub const MOTION_BLEND_HEAD: u64 = 16;

/// Light frames: time, position, colour bytes, enabled (Keystone's C# reader; its format text still says `f32`
/// colours, which its commit 7d170d5 corrected). One layout is known: minor 0.
pub const LIGHT_ITEM: u64 = 24;

/// The newest Light, AccessoryProperty and EffectProperty minor known (newer ones read as it).
pub const NEWEST_PROPERTY_MINOR: u8 = 0;

/// AccessoryProperty frames: time; visible, shadow, add-blend, reserved; scale, alpha; related model and bone.
pub const ACCESSORY_ITEM: u64 = 28;

/// EffectProperty frames start like accessory frames; the parameter values follow.
pub const EFFECT_ITEM_HEAD: u64 = ACCESSORY_ITEM;

/// One ext parameter of an EffectProperty section: name key, value type.
pub const EFFECT_PARAMETER: u64 = 8;

/// EffectProperty value types (Keystone `MvdEffectParameterType`).
pub const EFFECT_BOOL: i32 = 1;
pub const EFFECT_INT: i32 = 2;
pub const EFFECT_STRING: i32 = 3;
pub const EFFECT_FLOAT: i32 = 4;
pub const EFFECT_FLOAT4: i32 = 7;

/// The bytes one value of `kind` takes in a frame; `None` for types of no known size (0 none, 3 string, others).
pub fn effect_value_size(kind: i32) -> Option<u64> {
    match kind {
        EFFECT_BOOL => Some(1),
        EFFECT_INT => Some(4),
        EFFECT_FLOAT..=EFFECT_FLOAT4 => Some(4 * (kind - EFFECT_FLOAT + 1) as u64),
        _ => None,
    }
}

/// The newest Project minor known.
pub const NEWEST_PROJECT_MINOR: u8 = 1;

/// Project minor ≥ 1 holds gravity (acceleration and vector) after the time.
pub fn project_has_gravity(minor: u8) -> bool {
    minor >= 1
}

/// Project frames: time, (gravity, gravity vector), shadow model, distance, depth: 20 bytes at minor 0, 36 from
/// minor 1.
pub fn project_item(minor: u8) -> u64 {
    if project_has_gravity(minor) { 36 } else { 20 }
}

/// The least a minor-0 Project frame holds: Keystone reads the shadow depth only when 4 more bytes remain.
pub const PROJECT_ITEM_MIN_V0: u64 = 16;

/// Filter frames before their tone-curve points.
#[cfg_attr(not(any(test, feature = "testing")), expect(dead_code, reason = "only the test writer uses it"))]
pub const FILTER_ITEM_HEAD: u64 = 48;

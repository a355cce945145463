//! Facts about a VMD (MikuMikuDance motion) or VPD (pose) file that the format-neutral model has no place for,
//! for `info` and the sidebar: the signature, the model name, per-section counts, names as raw bytes, light,
//! self-shadow and property (visibility, IK switch) keys. Bone and morph motion live in the scene's clips,
//! the camera in `Scene::cameras`.

use serde::Serialize;

/// The width of a VMD bone or morph name field, in bytes: a name that fills it may have been cut.
pub const VMD_NAME_BYTES: usize = 15;

/// A fixed-width Shift-JIS (cp932) name as the file stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VmdName {
    /// The decoded name (what joints and morphs are matched by). A character cut by the field's width is
    /// left out; undecodable bytes become U+FFFD.
    pub text: String,
    /// The bytes before the first NUL (the rest of the field is padding, often 0xFD in MikuMikuDance's files),
    /// so a name cut at the field's width can later be matched by prefix against a model's full names.
    pub raw: Vec<u8>,
    /// True when the field is full and its last byte starts a two-byte character whose second byte was cut:
    /// the name is a prefix of the bone's real name.
    pub cut: bool,
}

/// One bone or morph name with how many keys it has.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VmdTrackInfo {
    pub name: VmdName,
    /// Keys after duplicates on one frame were dropped.
    pub keys: usize,
}

/// A light key (colour and direction, no curves).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct VmdLightKey {
    pub frame: u32,
    pub color: [f32; 3],
    pub direction: [f32; 3],
}

/// A self-shadow key: mode (0 off, 1 mode 1, 2 mode 2) and shadow distance as stored.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct VmdShadowKey {
    pub frame: u32,
    pub mode: u8,
    pub distance: f32,
}

/// An IK chain switched on or off by a property key, named by its IK bone (20-byte field).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VmdIkSwitch {
    pub bone: VmdName,
    pub enabled: bool,
}

/// A property key: model visibility and the IK chains' switches from this frame on (stepped).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VmdPropertyKey {
    pub frame: u32,
    pub visible: bool,
    pub ik: Vec<VmdIkSwitch>,
}

/// Keys per section as the file declares them; `None` for a section the file ends before (allowed: older
/// writers stop after the camera or light section).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct VmdCounts {
    pub bones: Option<usize>,
    pub morphs: Option<usize>,
    pub cameras: Option<usize>,
    pub lights: Option<usize>,
    pub shadows: Option<usize>,
    pub properties: Option<usize>,
}

/// VMD-specific facts carried by [`super::Scene::vmd`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VmdInfo {
    /// The signature text before its first NUL ("Vocaloid Motion Data 0002", "Vocaloid Motion Data file").
    pub signature: String,
    /// 2 for the 20-byte model name, 1 for the old 10-byte one.
    pub version: u8,
    /// The model the motion was made for ("カメラ・照明" for camera and light motions).
    pub model_name: VmdName,
    pub counts: VmdCounts,
    /// Animated bones in order of first appearance.
    pub bones: Vec<VmdTrackInfo>,
    pub morphs: Vec<VmdTrackInfo>,
    pub camera_keys: usize,
    pub lights: Vec<VmdLightKey>,
    pub shadows: Vec<VmdShadowKey>,
    pub properties: Vec<VmdPropertyKey>,
    /// The IK bones property keys switch, once each, in order of first appearance.
    pub ik_chains: Vec<String>,
    /// Bytes after the last section (none in a well-formed file).
    pub trailing_bytes: u64,
}

impl VmdInfo {
    /// Whether the chain of IK bone `bone` is on at `frame`: the latest property key at or before it that
    /// names the chain decides (true when none does, MikuMikuDance's default).
    pub fn ik_enabled(&self, bone: &str, frame: f32) -> bool {
        self.properties
            .iter()
            .filter(|p| p.frame as f32 <= frame)
            .filter_map(|p| p.ik.iter().find(|s| s.bone.text == bone).map(|s| (p.frame, s.enabled)))
            .max_by_key(|(f, _)| *f)
            .is_none_or(|(_, on)| on)
    }
}

/// VPD-specific facts carried by [`super::Scene::vpd`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VpdInfo {
    /// The model file the pose was saved from (the `.osm` line).
    pub model_file: String,
    /// The bone count the header declares.
    pub declared_bones: usize,
    /// Bone and morph names in file order.
    pub bones: Vec<String>,
    pub morphs: Vec<String>,
    /// True when the file started with a UTF-8 byte-order mark and was read as UTF-8 (else cp932).
    pub utf8: bool,
}

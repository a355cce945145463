//! VRM avatar facts that the format-neutral scene doesn't hold: which joints are the humanoid's bones, the meta
//! and licence fields, and what each expression does besides moving morphs. Read from VRM 0.x
//! (`extensions.VRM`) and VRM 1.0 (`extensions.VRMC_vrm`) alike, in VRM 1.0's names, by `formats::gltf::vrm`.
//! The expressions themselves are scene morphs (groups of the glTF morph targets they bind), so the Morphs tab
//! and `--morph` drive them as they drive MMD morphs.

use serde::Serialize;

/// The humanoid bones VRM 1.0 requires (`humanoid.md`).
pub const REQUIRED_HUMAN_BONES: [&str; 15] = [
    "hips",
    "spine",
    "head",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
];

/// Each humanoid bone with the humanoid bone it hangs from (three-vrm's `VRMHumanBoneParentMap`): what a
/// retargeted rotation is relative to where the file lacks a bone in between.
pub const VRM_BONE_PARENTS: [(&str, Option<&str>); 55] = [
    ("hips", None),
    ("spine", Some("hips")),
    ("chest", Some("spine")),
    ("upperChest", Some("chest")),
    ("neck", Some("upperChest")),
    ("head", Some("neck")),
    ("leftEye", Some("head")),
    ("rightEye", Some("head")),
    ("jaw", Some("head")),
    ("leftUpperLeg", Some("hips")),
    ("leftLowerLeg", Some("leftUpperLeg")),
    ("leftFoot", Some("leftLowerLeg")),
    ("leftToes", Some("leftFoot")),
    ("rightUpperLeg", Some("hips")),
    ("rightLowerLeg", Some("rightUpperLeg")),
    ("rightFoot", Some("rightLowerLeg")),
    ("rightToes", Some("rightFoot")),
    ("leftShoulder", Some("upperChest")),
    ("leftUpperArm", Some("leftShoulder")),
    ("leftLowerArm", Some("leftUpperArm")),
    ("leftHand", Some("leftLowerArm")),
    ("rightShoulder", Some("upperChest")),
    ("rightUpperArm", Some("rightShoulder")),
    ("rightLowerArm", Some("rightUpperArm")),
    ("rightHand", Some("rightLowerArm")),
    ("leftThumbMetacarpal", Some("leftHand")),
    ("leftThumbProximal", Some("leftThumbMetacarpal")),
    ("leftThumbDistal", Some("leftThumbProximal")),
    ("leftIndexProximal", Some("leftHand")),
    ("leftIndexIntermediate", Some("leftIndexProximal")),
    ("leftIndexDistal", Some("leftIndexIntermediate")),
    ("leftMiddleProximal", Some("leftHand")),
    ("leftMiddleIntermediate", Some("leftMiddleProximal")),
    ("leftMiddleDistal", Some("leftMiddleIntermediate")),
    ("leftRingProximal", Some("leftHand")),
    ("leftRingIntermediate", Some("leftRingProximal")),
    ("leftRingDistal", Some("leftRingIntermediate")),
    ("leftLittleProximal", Some("leftHand")),
    ("leftLittleIntermediate", Some("leftLittleProximal")),
    ("leftLittleDistal", Some("leftLittleIntermediate")),
    ("rightThumbMetacarpal", Some("rightHand")),
    ("rightThumbProximal", Some("rightThumbMetacarpal")),
    ("rightThumbDistal", Some("rightThumbProximal")),
    ("rightIndexProximal", Some("rightHand")),
    ("rightIndexIntermediate", Some("rightIndexProximal")),
    ("rightIndexDistal", Some("rightIndexIntermediate")),
    ("rightMiddleProximal", Some("rightHand")),
    ("rightMiddleIntermediate", Some("rightMiddleProximal")),
    ("rightMiddleDistal", Some("rightMiddleIntermediate")),
    ("rightRingProximal", Some("rightHand")),
    ("rightRingIntermediate", Some("rightRingProximal")),
    ("rightRingDistal", Some("rightRingIntermediate")),
    ("rightLittleProximal", Some("rightHand")),
    ("rightLittleIntermediate", Some("rightLittleProximal")),
    ("rightLittleDistal", Some("rightLittleIntermediate")),
];

/// The nearest humanoid ancestor of bone `name` (by [`VRM_BONE_PARENTS`]) that `has` accepts: where a rig
/// lacks a bone in between (no upperChest), the bone above it. `None` for the hips, or when none is had.
pub fn humanoid_parent(name: &str, has: impl Fn(&str) -> bool) -> Option<&'static str> {
    let parent = |b: &str| VRM_BONE_PARENTS.iter().find(|(n, _)| *n == b).and_then(|(_, p)| *p);
    let mut up = parent(name);
    while let Some(p) = up.filter(|p| !has(p)) {
        up = parent(p);
    }
    up
}

/// A VRMA motion's facts (`VRMC_vrm_animation`): which joint is each humanoid bone, which joint carries each
/// expression's weight (its translation x), and the look-at's joint.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct VrmAnimation {
    pub spec_version: String,
    /// (VRM 1.0 bone name, joint).
    pub humanoid: Vec<(String, usize)>,
    /// (expression name, joint).
    pub expressions: Vec<(String, usize)>,
    pub look_at: Option<usize>,
}

impl VrmAnimation {
    /// The joint of humanoid bone `name`.
    pub fn bone(&self, name: &str) -> Option<usize> {
        self.humanoid.iter().find(|(n, _)| n == name).map(|&(_, j)| j)
    }
}

/// A VRM file's avatar facts.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct VrmInfo {
    /// 0 for VRM 0.x, 1 for VRM 1.0.
    pub major: u8,
    /// The file's own version string (VRM 1.0's `specVersion`, VRM 0.x's `specVersion` or `exporterVersion`).
    pub spec_version: String,
    /// The meta fields sorted by name, as (name, value) with lists joined by ", ": the avatar's name, version,
    /// authors, and the licence and its permissions (empty values left out).
    pub meta: Vec<(String, String)>,
    /// The humanoid bones, in the file's order.
    pub humanoid: Vec<HumanBone>,
    /// The expressions (VRM 0.x blend shape groups), each a scene morph.
    pub expressions: Vec<Expression>,
    /// How the eyes follow a target (VRM 1.0 `lookAt`, VRM 0.x `firstPerson.lookAt*`).
    pub look_at: Option<LookAt>,
    /// Which meshes a first-person camera shows (VRM 1.0 `firstPerson.meshAnnotations`, VRM 0.x's with their
    /// `firstPersonFlag`).
    pub first_person: Vec<FirstPerson>,
}

/// One first-person mesh annotation: the node (VRM 1.0) or mesh (VRM 0.x) it names, its kind (`auto`, `both`,
/// `thirdPersonOnly`, `firstPersonOnly`; 0.x's flags given 1.0's spelling) and the scene meshes it covers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FirstPerson {
    pub name: String,
    pub kind: String,
    /// Indices into [`super::Scene::meshes`].
    pub meshes: Vec<usize>,
}

/// How an avatar's eyes follow a target: by turning the eye bones (`bone`) or by weighting the lookUp, lookDown,
/// lookLeft and lookRight expressions (`expression`), from a point offset from the head.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LookAt {
    /// `bone` or `expression` (VRM 0.x's `Bone` and `BlendShape`).
    pub kind: String,
    /// From the head bone (VRM 0.x: the first-person bone), in its space.
    pub offset: [f32; 3],
    /// Horizontal inner, horizontal outer, vertical down, vertical up: how far the target may turn the eyes
    /// (degrees in) and how far that turns them (degrees for bones, a weight for expressions).
    pub ranges: [RangeMap; 4],
}

/// One of [`LookAt::ranges`]: an input angle's maximum, in degrees, and what it maps to.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct RangeMap {
    pub input_max: f32,
    pub output_scale: f32,
}

/// One humanoid bone: its VRM 1.0 name (VRM 0.x's thumbs renamed as VRM 1.0 names them), the glTF node and
/// the scene joint that node became (`None` when the node moves no vertex and no animation keys it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HumanBone {
    pub name: String,
    pub node: usize,
    pub joint: Option<usize>,
}

/// How an expression treats the blink, lookAt or mouth expressions while it is on (VRM 1.0's `override*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Override {
    #[default]
    None,
    /// The overridden expressions are off while this one's weight is above 0.
    Block,
    /// The overridden expressions are scaled by one minus this one's weight.
    Blend,
}

/// One expression: its name (a VRM 1.0 preset's name, VRM 0.x presets renamed to them, or the custom name),
/// whether it is a preset, the scene morph that carries its morph binds, and what else it binds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Expression {
    pub name: String,
    pub preset: bool,
    /// Index into [`super::Scene::morphs`].
    pub morph: usize,
    /// Weights above 0.5 count as 1, the rest as 0.
    pub is_binary: bool,
    /// How it overrides the blink, lookAt and mouth expressions.
    pub overrides: [Override; 3],
    /// Morph target binds, material colour binds and texture transform binds as the file lists them (binds to a
    /// missing node, mesh or target are dropped, with a warning).
    pub morph_binds: usize,
    pub material_binds: usize,
    pub texture_binds: usize,
}

impl LookAt {
    /// Its kind, head offset and range maps in words, as `info` and the Info tab show them.
    pub fn describe(&self) -> String {
        let unit = if self.kind == "expression" { "" } else { "°" };
        let names = ["horizontal inner", "horizontal outer", "vertical down", "vertical up"];
        let ranges: Vec<String> = names
            .iter()
            .zip(&self.ranges)
            .map(|(n, r)| format!("{n} {}° → {}{unit}", r.input_max, r.output_scale))
            .collect();
        let [x, y, z] = self.offset;
        format!("{}, from the head + ({x}, {y}, {z}); {}", self.kind, ranges.join(", "))
    }
}

impl VrmInfo {
    /// The joint of humanoid bone `name`, if the file maps it to one.
    pub fn bone(&self, name: &str) -> Option<usize> {
        self.humanoid.iter().find(|b| b.name == name).and_then(|b| b.joint)
    }

    /// The humanoid name of joint `joint`, if it is one of the humanoid's bones.
    pub fn bone_of_joint(&self, joint: usize) -> Option<&str> {
        self.humanoid.iter().find(|b| b.joint == Some(joint)).map(|b| b.name.as_str())
    }

    /// The required humanoid bones the file doesn't map (or maps to a node that isn't a joint).
    pub fn missing_required(&self) -> Vec<&'static str> {
        REQUIRED_HUMAN_BONES.into_iter().filter(|name| self.bone(name).is_none()).collect()
    }

    /// A meta field's value.
    pub fn meta_value(&self, name: &str) -> Option<&str> {
        self.meta.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bones_are_found_by_name_and_joint_and_missing_ones_listed() {
        let bone = |name: &str, node, joint| HumanBone { name: name.into(), node, joint };
        let info = VrmInfo {
            humanoid: vec![bone("hips", 0, Some(0)), bone("spine", 1, Some(1)), bone("head", 2, None)],
            ..VrmInfo::default()
        };
        assert_eq!((info.bone("spine"), info.bone("head"), info.bone("neck")), (Some(1), None, None));
        assert_eq!(info.bone_of_joint(1), Some("spine"));
        let missing = info.missing_required();
        assert!(missing.contains(&"head") && !missing.contains(&"hips"), "{missing:?}");
        assert_eq!(missing.len(), 13);
    }
}

//! The one table of MikuMikuDance names for humanoid bones and VRM expressions (README's "MikuMikuDance on a
//! humanoid" lists it): how a PMX/PMD model, or a glTF whose bones keep MMD names, is read as a humanoid, and how
//! a VMD's morph keys find a VRM avatar's expressions.
//!
//! Bone names follow babylon-mmd's `MmdHumanoidMapper` (VRM 1.0's thumb names: metacarpal, proximal, distal are
//! 親指０, １, ２). Where a semi-standard model has a deforming D-bone beside the leg bone IK turns (足D, ひざD,
//! 足首D, 足先EX), the D-bone comes first: it is the one the mesh follows. upperChest has no bone in the standard
//! model; 上半身3, which some models add, is taken when present. The morph names are the community's usual map
//! (the VRM note, §3.3).

/// Each VRM 1.0 humanoid bone with the MMD bone names that play it, best first (the side's 左/右 included).
pub const MMD_BONES: [(&str, &[&str]); 54] = [
    ("hips", &["下半身"]),
    ("spine", &["上半身"]),
    ("chest", &["上半身2"]),
    ("upperChest", &["上半身3"]),
    ("neck", &["首"]),
    ("head", &["頭"]),
    ("leftEye", &["左目"]),
    ("rightEye", &["右目"]),
    ("leftUpperLeg", &["左足D", "左足"]),
    ("leftLowerLeg", &["左ひざD", "左ひざ"]),
    ("leftFoot", &["左足首D", "左足首"]),
    ("leftToes", &["左足先EX", "左つま先"]),
    ("rightUpperLeg", &["右足D", "右足"]),
    ("rightLowerLeg", &["右ひざD", "右ひざ"]),
    ("rightFoot", &["右足首D", "右足首"]),
    ("rightToes", &["右足先EX", "右つま先"]),
    ("leftShoulder", &["左肩"]),
    ("leftUpperArm", &["左腕"]),
    ("leftLowerArm", &["左ひじ"]),
    ("leftHand", &["左手首"]),
    ("rightShoulder", &["右肩"]),
    ("rightUpperArm", &["右腕"]),
    ("rightLowerArm", &["右ひじ"]),
    ("rightHand", &["右手首"]),
    ("leftThumbMetacarpal", &["左親指０"]),
    ("leftThumbProximal", &["左親指１"]),
    ("leftThumbDistal", &["左親指２"]),
    ("leftIndexProximal", &["左人指１"]),
    ("leftIndexIntermediate", &["左人指２"]),
    ("leftIndexDistal", &["左人指３"]),
    ("leftMiddleProximal", &["左中指１"]),
    ("leftMiddleIntermediate", &["左中指２"]),
    ("leftMiddleDistal", &["左中指３"]),
    ("leftRingProximal", &["左薬指１"]),
    ("leftRingIntermediate", &["左薬指２"]),
    ("leftRingDistal", &["左薬指３"]),
    ("leftLittleProximal", &["左小指１"]),
    ("leftLittleIntermediate", &["左小指２"]),
    ("leftLittleDistal", &["左小指３"]),
    ("rightThumbMetacarpal", &["右親指０"]),
    ("rightThumbProximal", &["右親指１"]),
    ("rightThumbDistal", &["右親指２"]),
    ("rightIndexProximal", &["右人指１"]),
    ("rightIndexIntermediate", &["右人指２"]),
    ("rightIndexDistal", &["右人指３"]),
    ("rightMiddleProximal", &["右中指１"]),
    ("rightMiddleIntermediate", &["右中指２"]),
    ("rightMiddleDistal", &["右中指３"]),
    ("rightRingProximal", &["右薬指１"]),
    ("rightRingIntermediate", &["右薬指２"]),
    ("rightRingDistal", &["右薬指３"]),
    ("rightLittleProximal", &["右小指１"]),
    ("rightLittleIntermediate", &["右小指２"]),
    ("rightLittleDistal", &["右小指３"]),
];

/// MikuMikuDance morph names and the VRM 1.0 expression each plays on an avatar without a morph of that name.
pub const MMD_MORPHS: [(&str, &str); 15] = [
    ("あ", "aa"),
    ("い", "ih"),
    ("う", "ou"),
    ("え", "ee"),
    ("お", "oh"),
    ("まばたき", "blink"),
    ("ウィンク", "blinkLeft"),
    ("ウィンク２", "blinkLeft"),
    ("ウィンク右", "blinkRight"),
    ("ｳｨﾝｸ２右", "blinkRight"),
    ("笑い", "happy"),
    ("怒り", "angry"),
    ("困る", "sad"),
    ("びっくり", "surprised"),
    ("なごみ", "relaxed"),
];

/// The VRM expression MMD morph `name` plays, when the table has it.
pub fn vrm_expression(name: &str) -> Option<&'static str> {
    MMD_MORPHS.iter().find(|(m, _)| *m == name).map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::VRM_BONE_PARENTS;

    #[test]
    fn every_humanoid_bone_but_the_jaw_has_mmd_names_once() {
        for (bone, _) in VRM_BONE_PARENTS {
            let n = MMD_BONES.iter().filter(|(b, _)| *b == bone).count();
            assert_eq!(n, usize::from(bone != "jaw"), "{bone}");
        }
        let names = |bone: &str| MMD_BONES.iter().find(|(b, _)| *b == bone).map(|(_, n)| *n);
        assert_eq!(names("leftUpperLeg"), Some(&["左足D", "左足"][..]));
        assert_eq!(names("jaw"), None);
    }

    #[test]
    fn morphs_name_vrm_presets() {
        assert_eq!(vrm_expression("あ"), Some("aa"));
        assert_eq!(vrm_expression("まばたき"), Some("blink"));
        assert_eq!(vrm_expression("unknown"), None);
    }
}

//! The proxy MikuMikuDance skeleton a VMD plays on before it is carried onto a humanoid (babylon-mmd's
//! `HumanoidMmd` does the same): the standard model's bones, with its IK legs, placed where the humanoid's bones
//! are.
//!
//! - Bones: 全ての親, センター, グルーブ, 上半身, 上半身2, 首, 頭, 両目 and the eyes (which take 両目's turn), 下半身,
//!   and per side 肩, 腕, 腕捩, ひじ, 手捩, 手首, the fingers, 足, ひざ, 足首, つま先, 足IK親, 足ＩＫ and つま先ＩＫ.
//!   A bone the humanoid lacks (chest, neck, shoulders, eyes, fingers, toes) is left out and its children hang
//!   from the bone above, except the toes, which the toe IK needs: they are put where the standard model has them
//!   relative to its ankle.
//! - Places: each bone at its humanoid bone's rest position, in MMD's left-handed space and units. センター and
//!   グルーブ sit at the mean of the upper legs and knees (as babylon-mmd places them), 上半身 and 下半身 both at
//!   the spine's root (where MMD's waist turns), the twist bones half way along their limb.
//! - Units: a VRM is in metres and MMD's unit is 8 cm ("1ミクセル8cm"), so a humanoid whose head stands lower than 3
//!   units is scaled by 12.5; a taller one (a glTF written from an MMD model) is taken to be in MMD units.
//! - Arms: a VRM rests in a T-pose (its spec requires it), while MMD motions are made on models whose arms slope
//!   down. The proxy's arms are lowered to the slope of MikuMikuDance's own standard model (あにまさ式ミク v2, the
//!   model MikuMikuDance ships and dances are made on), so that a dance's arm keys raise its arms as far as they
//!   raise the standard model's. Any other humanoid keeps its own arms: a model with MMD names was made for MMD
//!   motions.
//! - IK: the standard model's leg and toe chains (loop counts, angle limits, knees turning about X only).

use glam::{Mat3, Quat, Vec3};

use super::transfer::Rig;
use crate::scene::{Append, Constraints, Format, IkChain, IkLink, Joint, Metadata, Scene, Skeleton, Transform, UpAxis};

/// The standard model's upper arm slope below the horizontal, radians: あにまさ式ミク v2's 左腕 → 左ひじ
/// (2.700, −1.541, −0.036), 29.72°.
pub const STANDARD_ARM_SLOPE: f32 = 0.518_638;
/// The standard model's toe (つま先) from its ankle (足首), in ankle heights: (down, forward). あにまさ式ミク v2's
/// ankle stands 1.34 up and its toe 2.46 ahead of it, on the floor.
pub const STANDARD_TOE: (f32, f32) = (1.0, 1.838);
/// The standard model's leg IK (足ＩＫ): loop count and largest turn per iteration (radians).
pub const STANDARD_LEG_IK: (u32, f32) = (40, 2.0);
/// The standard model's toe IK (つま先ＩＫ): loop count and largest turn per iteration (radians).
pub const STANDARD_TOE_IK: (u32, f32) = (3, 4.0);
/// MMD units per metre (one unit is 8 cm).
pub const MMD_UNITS_PER_METRE: f32 = 12.5;

/// Where a named bone stands in the proxy (MMD space and units), if the model has it.
type Places<'a> = &'a dyn Fn(&str) -> Option<Vec3>;

/// The proxy's bones as they are gathered: name, parent name, place (MMD space).
struct Bones(Vec<(String, Option<String>, Vec3)>);

impl Bones {
    fn add(&mut self, name: &str, parent: Option<&str>, at: Vec3) {
        self.0.push((name.to_string(), parent.map(str::to_string), at));
    }
}

/// The proxy skeleton for `target` (a humanoid with at least VRM's required bones), lowering its arms to the
/// standard model's slope when `t_pose`.
pub fn build(target: &Rig, t_pose: bool) -> Scene {
    let scene = target.scene;
    let rest = &scene.skeleton.bind_world;
    // The target's bones in MMD space: the viewer's space with Z turned back, in MMD units.
    let viewer = Mat3::from_mat4(scene.up.basis());
    let mmd = Mat3::from_mat4(UpAxis::YLeftHanded.basis());
    let place = |j: usize| mmd * (viewer * rest[j].w_axis.truncate());
    let head = target.bone("head").map_or(Vec3::Y, place);
    let units = if head.y > 3.0 { 1.0 } else { MMD_UNITS_PER_METRE };
    let p = |bone: &str| target.bone(bone).map(|j| place(j) * units);
    let need = |bone: &str| p(bone).unwrap_or(Vec3::ZERO);
    // A bone the model has under its MMD name (a glTF written from an MMD model) stands where the model has it.
    let named = |name: &str| scene.skeleton.find(name).map(|j| place(j) * units);

    let mut b = Bones(Vec::new());
    let legs = ["leftUpperLeg", "rightUpperLeg", "leftLowerLeg", "rightLowerLeg"].map(need);
    let centre = named("センター").unwrap_or(legs.iter().sum::<Vec3>() / 4.0);
    b.add("全ての親", None, Vec3::ZERO);
    b.add("センター", Some("全ての親"), centre);
    b.add("グルーブ", Some("センター"), named("グルーブ").unwrap_or(centre));
    let waist = need("spine");
    b.add("上半身", Some("グルーブ"), waist);
    let mut top = "上半身";
    if let Some(at) = p("chest") {
        b.add("上半身2", Some(top), at);
        top = "上半身2";
    }
    let mut head_parent = top;
    if let Some(at) = p("neck") {
        b.add("首", Some(top), at);
        head_parent = "首";
    }
    b.add("頭", Some(head_parent), need("head"));
    if let (Some(l), Some(r)) = (p("leftEye"), p("rightEye")) {
        b.add("両目", Some("頭"), named("両目").unwrap_or((l + r) * 0.5));
        b.add("左目", Some("頭"), l);
        b.add("右目", Some("頭"), r);
    }
    b.add("下半身", Some("グルーブ"), named("下半身").unwrap_or(waist));
    for (side, name) in [("left", "左"), ("right", "右")] {
        arm(&mut b, (side, name), top, (&p, &named), t_pose);
        leg(&mut b, (side, name), (&p, &named));
    }
    scene_of(b)
}

/// One side's arm: shoulder, upper arm, twist, elbow, wrist twist, wrist, fingers; lowered to the standard
/// slope about the shoulder joint when `t_pose`.
fn arm(b: &mut Bones, (side, name): (&str, &str), top: &str, (p, named): (Places, Places), t_pose: bool) {
    let bone = |suffix: &str| format!("{side}{suffix}");
    let mmd = |suffix: &str| format!("{name}{suffix}");
    let mut parent = top.to_string();
    if let Some(at) = p(&bone("Shoulder")) {
        b.add(&mmd("肩"), Some(&parent), at);
        parent = mmd("肩");
    }
    let (upper, lower, hand) = (
        p(&bone("UpperArm")).unwrap_or_default(),
        p(&bone("LowerArm")).unwrap_or_default(),
        p(&bone("Hand")).unwrap_or_default(),
    );
    let lowered = b.0.len();
    b.add(&mmd("腕"), Some(&parent), upper);
    b.add(&mmd("腕捩"), Some(&mmd("腕")), named(&mmd("腕捩")).unwrap_or((upper + lower) * 0.5));
    b.add(&mmd("ひじ"), Some(&mmd("腕捩")), lower);
    b.add(&mmd("手捩"), Some(&mmd("ひじ")), named(&mmd("手捩")).unwrap_or((lower + hand) * 0.5));
    b.add(&mmd("手首"), Some(&mmd("手捩")), hand);
    for (finger, mmd_finger, joints) in [
        ("Thumb", "親指", ["Metacarpal", "Proximal", "Distal"]),
        ("Index", "人指", ["Proximal", "Intermediate", "Distal"]),
        ("Middle", "中指", ["Proximal", "Intermediate", "Distal"]),
        ("Ring", "薬指", ["Proximal", "Intermediate", "Distal"]),
        ("Little", "小指", ["Proximal", "Intermediate", "Distal"]),
    ] {
        let mut up = mmd("手首");
        let digits = if finger == "Thumb" { ["０", "１", "２"] } else { ["１", "２", "３"] };
        for (joint, digit) in joints.iter().zip(digits) {
            let Some(at) = p(&bone(&format!("{finger}{joint}"))) else { continue };
            let here = format!("{name}{mmd_finger}{digit}");
            b.add(&here, Some(&up), at);
            up = here;
        }
    }
    if t_pose {
        let dir = (lower - upper).normalize_or_zero();
        let slope = (-dir.y).clamp(-1.0, 1.0).asin();
        let axis = dir.cross(Vec3::Y).normalize_or_zero();
        // Turning `dir` about `dir × Y` by a positive angle raises it; lower it by the slope it lacks.
        let turn = Quat::from_axis_angle(axis, slope - STANDARD_ARM_SLOPE);
        for bone in &mut b.0[lowered..] {
            bone.2 = upper + turn * (bone.2 - upper);
        }
    }
}

/// One side's leg: upper leg, knee, ankle, toe, and the IK bones at the ankle and the toe.
fn leg(b: &mut Bones, (side, name): (&str, &str), (p, named): (Places, Places)) {
    let bone = |suffix: &str| p(&format!("{side}{suffix}")).unwrap_or_default();
    let mmd = |suffix: &str| format!("{name}{suffix}");
    let foot = bone("Foot");
    // MMD faces −Z: the toe is ahead of the ankle towards −Z.
    let (down, forward) = STANDARD_TOE;
    let toe = named(&mmd("つま先"))
        .or_else(|| p(&format!("{side}Toes")))
        .unwrap_or(foot + Vec3::new(0.0, -down, -forward) * foot.y.abs());
    b.add(&mmd("足"), Some("下半身"), bone("UpperLeg"));
    b.add(&mmd("ひざ"), Some(&mmd("足")), bone("LowerLeg"));
    b.add(&mmd("足首"), Some(&mmd("ひざ")), foot);
    b.add(&mmd("つま先"), Some(&mmd("足首")), toe);
    b.add(&mmd("足IK親"), Some("全ての親"), named(&mmd("足IK親")).unwrap_or(Vec3::new(foot.x, 0.0, foot.z)));
    b.add(&mmd("足ＩＫ"), Some(&mmd("足IK親")), named(&mmd("足ＩＫ")).unwrap_or(foot));
    b.add(&mmd("つま先ＩＫ"), Some(&mmd("足ＩＫ")), named(&mmd("つま先ＩＫ")).unwrap_or(toe));
}

/// The proxy scene: the skeleton in file order (parents first), its IK chains and the eyes' appends.
fn scene_of(b: Bones) -> Scene {
    let index = |name: &str| b.0.iter().position(|(n, _, _)| n == name);
    let joints: Vec<Joint> =
        b.0.iter()
            .map(|(name, parent, at)| {
                let parent = parent.as_deref().and_then(index);
                let from = parent.map_or(Vec3::ZERO, |p| b.0[p].2);
                Joint {
                    name: name.clone(),
                    parent,
                    bind: Transform { translation: *at - from, rotation: Quat::IDENTITY, scale: Vec3::ONE },
                }
            })
            .collect();
    let mut constraints = Constraints::default();
    for name in ["左", "右"] {
        let j = |suffix: &str| index(&format!("{name}{suffix}")).unwrap_or(0);
        constraints.ik.push(IkChain {
            joint: j("足ＩＫ"),
            target: j("足首"),
            loop_count: STANDARD_LEG_IK.0,
            limit_angle: STANDARD_LEG_IK.1,
            links: vec![
                IkLink { joint: j("ひざ"), limits: Some(crate::scene::MMD_KNEE) },
                IkLink { joint: j("足"), limits: None },
            ],
        });
        constraints.ik.push(IkChain {
            joint: j("つま先ＩＫ"),
            target: j("つま先"),
            loop_count: STANDARD_TOE_IK.0,
            limit_angle: STANDARD_TOE_IK.1,
            links: vec![IkLink { joint: j("足首"), limits: None }],
        });
        if let (Some(eye), Some(both)) = (index(&format!("{name}目")), index("両目")) {
            constraints.append.push(Append {
                joint: eye,
                source: both,
                ratio: 1.0,
                rotation: true,
                translation: false,
                local: false,
            });
        }
    }
    let mut scene = Scene::empty(Metadata::new(Format::Pmx, "proxy"));
    scene.up = UpAxis::YLeftHanded;
    scene.skeleton = Skeleton::new(joints, true).unwrap_or_default();
    scene.constraints = constraints;
    scene
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::scene::{Joint, Scene};

    /// A humanoid in metres, Y up, facing +Z, arms level (a VRM T-pose): the required bones only.
    pub(crate) fn t_pose() -> (Scene, Vec<(&'static str, usize)>) {
        let bones: [(&str, Option<usize>, Vec3); 15] = [
            ("hips", None, Vec3::new(0.0, 0.9, 0.0)),
            ("spine", Some(0), Vec3::new(0.0, 1.0, 0.0)),
            ("head", Some(1), Vec3::new(0.0, 1.5, 0.0)),
            ("leftUpperLeg", Some(0), Vec3::new(0.1, 0.85, 0.0)),
            ("leftLowerLeg", Some(3), Vec3::new(0.1, 0.45, 0.0)),
            ("leftFoot", Some(4), Vec3::new(0.1, 0.08, 0.0)),
            ("rightUpperLeg", Some(0), Vec3::new(-0.1, 0.85, 0.0)),
            ("rightLowerLeg", Some(6), Vec3::new(-0.1, 0.45, 0.0)),
            ("rightFoot", Some(7), Vec3::new(-0.1, 0.08, 0.0)),
            ("leftUpperArm", Some(1), Vec3::new(0.2, 1.35, 0.0)),
            ("leftLowerArm", Some(9), Vec3::new(0.45, 1.35, 0.0)),
            ("leftHand", Some(10), Vec3::new(0.7, 1.35, 0.0)),
            ("rightUpperArm", Some(1), Vec3::new(-0.2, 1.35, 0.0)),
            ("rightLowerArm", Some(12), Vec3::new(-0.45, 1.35, 0.0)),
            ("rightHand", Some(13), Vec3::new(-0.7, 1.35, 0.0)),
        ];
        let joints = bones
            .iter()
            .map(|&(name, parent, at)| Joint {
                name: name.to_string(),
                parent,
                bind: Transform { translation: at - parent.map_or(Vec3::ZERO, |p| bones[p].2), ..Transform::IDENTITY },
            })
            .collect();
        let mut scene = Scene::empty(Metadata::new(Format::Gltf, "2.0"));
        scene.up = UpAxis::Y;
        scene.skeleton = Skeleton::new(joints, true).unwrap();
        (scene, bones.iter().enumerate().map(|(j, b)| (b.0, j)).collect())
    }

    #[test]
    fn a_t_pose_proxy_stands_in_mmd_units_with_the_standard_arms_and_legs_on_ik() {
        let (scene, bones) = t_pose();
        let proxy = build(&Rig { scene: &scene, bones }, true);
        let world = &proxy.skeleton.bind_world;
        let at = |name: &str| world[proxy.skeleton.find(name).unwrap()].w_axis.truncate();
        // Metres to MMD units; MMD's space turns Z back (the model faces −Z there).
        assert!((at("頭").y - 1.5 * MMD_UNITS_PER_METRE).abs() < 1e-4);
        assert!((at("左足首") - Vec3::new(0.1, 0.08, 0.0) * MMD_UNITS_PER_METRE).length() < 1e-4);
        assert!(at("左つま先").z < at("左足首").z, "the toe is ahead of the ankle, towards −Z");
        for side in ["左", "右"] {
            let arm = at(&format!("{side}ひじ")) - at(&format!("{side}腕"));
            let slope = (-arm.y / arm.length()).asin();
            assert!((slope - STANDARD_ARM_SLOPE).abs() < 1e-5, "{side}: {slope}");
            let hand = at(&format!("{side}手首")) - at(&format!("{side}ひじ"));
            assert!(hand.normalize().dot(arm.normalize()) > 0.99999, "the forearm turns with the arm");
        }
        assert_eq!(proxy.constraints.ik.len(), 4);
        let knee = &proxy.constraints.ik[0].links[0];
        assert_eq!(
            (proxy.skeleton.joints[knee.joint].name.as_str(), knee.limits),
            ("左ひざ", Some(crate::scene::MMD_KNEE))
        );
    }
}

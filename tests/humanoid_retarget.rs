//! MikuMikuDance motions on humanoids (issue 38 step 4): a VMD played on a proxy MMD skeleton with its IK and
//! carried onto a humanoid's bones in world space, and a humanoid clip carried from one rig onto another.
//!
//! The figures: the corpus dance (`wavefile_v2.vmd`) on あにまさ式ミク v2 (`miku_v2.pmd`, MikuMikuDance's own
//! model, played by name with its own IK) against the same dance on the glTF rigscope writes of that model
//! (played through the proxy, since a glTF has no IK), and against the dance baked into a glTF and carried back
//! onto the PMD through the humanoid: feet within 1 % of the height of each other (issue 38's figure). On the
//! corpus VRM avatars: feet above the floor and knees and elbows that bend only the way a body bends.

mod common;

use glam::{Mat3, Vec3};
use rigscope::anim::{Pose, PoseInput, attach, humanoid};
use rigscope::convert::{Container, GltfExport, encode_gltf};
use rigscope::scene::{ClipData, Scene};

const MIKU: &str = "mmd/threejs/miku/miku_v2.pmd";
const DANCE: &str = "mmd/threejs/vmds/wavefile_v2.vmd";
/// Frames compared: every STRIDE-th of the dance.
const STRIDE: usize = 7;

fn load(rel: &str) -> Scene {
    rigscope::load_path(&common::corpus(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `scene` written as a .glb by rigscope's exporter and read back.
fn through_gltf(scene: Scene) -> Scene {
    let (file, _) = encode_gltf(scene, None, Container::Glb, GltfExport::default()).expect("the glTF encodes");
    let bytes = [file.head.as_slice(), file.body.as_slice()].concat();
    rigscope::load_bytes("export.glb", &bytes).expect("the glTF export reads")
}

/// The world places, in the viewer's space, of joints `names` at `frame` of `scene`'s last clip.
fn places(scene: &Scene, names: &[&str], frame: f32) -> Vec<Vec3> {
    let mut pose = Pose::default();
    pose.update_input(scene, &PoseInput::at(scene.clips.last(), frame, 30.0));
    let basis = Mat3::from_mat4(scene.up.basis());
    names
        .iter()
        .map(|n| {
            let j = scene.skeleton.find(n).unwrap_or_else(|| panic!("no joint {n}"));
            basis * pose.world[j].w_axis.truncate()
        })
        .collect()
}

/// The model's height at rest (the highest vertex over the lowest), in the viewer's space.
fn height(scene: &Scene) -> f32 {
    let basis = Mat3::from_mat4(scene.up.basis());
    let ys = scene.vertices.positions.iter().map(|p| (basis * *p).y);
    let (lo, hi) = ys.fold((f32::MAX, f32::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
    hi - lo
}

const FEET: [&str; 4] = ["左足首", "右足首", "左つま先", "右つま先"];

/// The worst distance, over the dance, between the feet of `ours` and of `reference`, as a share of `height`.
fn worst_feet(ours: &Scene, reference: &Scene, height: f32) -> f32 {
    let frames = reference.clips.last().unwrap().frame_count as usize;
    let mut worst = 0.0f32;
    for frame in (0..frames).step_by(STRIDE) {
        let (a, b) = (places(ours, &FEET, frame as f32), places(reference, &FEET, frame as f32));
        for (p, q) in a.iter().zip(&b) {
            worst = worst.max(p.distance(*q) / height);
        }
    }
    worst
}

#[test]
fn a_vmd_plays_on_a_gltf_written_from_its_model_through_the_proxy_with_the_models_feet() {
    let motion = load(DANCE);
    let mut pmd = load(MIKU);
    let mut gltf = through_gltf(pmd.clone());
    assert!(gltf.mmd.is_none() && humanoid::is_humanoid(&humanoid::humanoid_bones(&gltf)), "an MMD-named humanoid");
    attach(&mut pmd, &motion, "wavefile").unwrap();
    let report = attach(&mut gltf, &motion, "wavefile").unwrap();
    assert!(report.matched.len() >= 15, "{report:?}");
    let clip = gltf.clips.last().unwrap();
    assert!(matches!(clip.data, ClipData::Sampled { .. }), "played through the proxy, baked");
    assert_eq!(clip.frame_count, pmd.clips.last().unwrap().frame_count);
    let h = height(&pmd);
    let worst = worst_feet(&gltf, &pmd, h);
    eprintln!("wavefile on the glTF of miku_v2: feet within {worst:.2e} of the height of the PMD's");
    assert!(worst < 0.01, "feet {worst} of the height apart");
}

#[test]
fn a_dance_baked_into_a_gltf_goes_back_onto_its_model_through_the_humanoid() {
    let motion = load(DANCE);
    let mut pmd = load(MIKU);
    attach(&mut pmd, &motion, "wavefile").unwrap();
    let baked = through_gltf(pmd.clone());
    let mut back = load(MIKU);
    let report = humanoid::retarget(&mut back, &baked, "export.glb").unwrap();
    assert!(report.matched.len() >= 15, "{report:?}");
    let h = height(&pmd);
    let worst = worst_feet(&back, &pmd, h);
    eprintln!("wavefile baked to glTF and back onto miku_v2: feet within {worst:.2e} of the height");
    assert!(worst < 0.01, "feet {worst} of the height apart");
}

/// Humanoid bones of `scene` by VRM name, as world places in the viewer's space at `frame` of its last clip.
fn humanoid_places(scene: &Scene, frame: f32) -> Vec<(&'static str, Vec3)> {
    let mut pose = Pose::default();
    pose.update_input(scene, &PoseInput::at(scene.clips.last(), frame, 30.0));
    let basis = Mat3::from_mat4(scene.up.basis());
    humanoid::humanoid_bones(scene).into_iter().map(|(b, j)| (b, basis * pose.world[j].w_axis.truncate())).collect()
}

/// The lowest a foot (ankle or toe joint) goes over `scene`'s last clip, over its hip height (the upper legs'
/// rest height): `bones` names the ankles and toes.
fn lowest_foot(scene: &Scene, bones: &[usize], hips: f32) -> f32 {
    let frames = scene.clips.last().unwrap().frame_count as usize;
    let basis = Mat3::from_mat4(scene.up.basis());
    let mut pose = Pose::default();
    let mut lowest = f32::MAX;
    for frame in 0..frames {
        pose.update_input(scene, &PoseInput::at(scene.clips.last(), frame as f32, 30.0));
        lowest = bones.iter().fold(lowest, |l, &j| l.min((basis * pose.world[j].w_axis.truncate()).y));
    }
    lowest / hips
}

/// The joints of humanoid bones `names` of `scene` (those it has).
fn bones_of(scene: &Scene, names: &[&str]) -> Vec<usize> {
    let bones = humanoid::humanoid_bones(scene);
    names.iter().filter_map(|n| bones.iter().find(|(b, _)| b == n).map(|(_, j)| *j)).collect()
}

/// The rest height of humanoid bone `name` of `scene`, in the viewer's space.
fn rest_height(scene: &Scene, name: &str) -> f32 {
    let j = bones_of(scene, &[name])[0];
    let world = Pose::bind(&scene.skeleton).world;
    (Mat3::from_mat4(scene.up.basis()) * world[j].w_axis.truncate()).y
}

/// The arm bones compared with the standard model's: (bone, the bone it points at).
const ARM_BONES: [(&str, &str); 4] = [
    ("leftUpperArm", "leftLowerArm"),
    ("leftLowerArm", "leftHand"),
    ("rightUpperArm", "rightLowerArm"),
    ("rightLowerArm", "rightHand"),
];

const FOOT_BONES: [&str; 4] = ["leftFoot", "rightFoot", "leftToes", "rightToes"];

/// The corpus dance on the VRM avatars (one 0.x, facing −Z; one 1.0): the feet go no lower, for their legs'
/// length, than the dance takes the standard model's (its toes dip 6.6 % of its hip height below the floor),
/// give or take 1 % of the avatar's height; knees bend forward only, neither knees nor elbows fold
/// past 170°, and the dance moves the hands.
#[test]
fn the_corpus_dance_plays_on_vrm_avatars_with_feet_on_the_floor_and_joints_that_bend_as_bodies_do() {
    let motion = load(DANCE);
    let mut miku = load(MIKU);
    attach(&mut miku, &motion, "wavefile").unwrap();
    let standard = lowest_foot(&miku, &bones_of(&miku, &FOOT_BONES), rest_height(&miku, "leftUpperLeg"));
    for file in ["vrm/EmissionMigration_v0.107.0.vrm", "vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm"] {
        let mut avatar = load(file);
        let report = attach(&mut avatar, &motion, "wavefile").unwrap();
        assert!(report.matched.len() >= 20, "{file}: {report:?}");
        // The dance's mouth and blink keys play the avatar's expressions, where it has them.
        let played: Vec<&str> = avatar.clips.last().unwrap().morphs.iter().map(|t| t.name.as_str()).collect();
        let has = |name: &str| avatar.morphs.iter().any(|m| m.name == name);
        for (mmd, vrm) in [("あ", "aa"), ("い", "ih"), ("まばたき", "blink")] {
            assert_eq!(played.contains(&vrm), has(vrm), "{file}: {mmd} → {vrm} in {played:?}");
        }
        if file.contains("EmissionMigration") {
            // あ's weights, key for key: the most the dance opens the standard model's mouth and the avatar's.
            let most = |scene: &Scene, name: &str| {
                let m = scene.morphs.iter().position(|m| m.name == name).unwrap();
                let clip = scene.clips.last().unwrap();
                (0..clip.frame_count)
                    .map(|f| rigscope::anim::clip_morph_weights(&scene.morphs, Some(clip), f as f32, 30.0)[m])
                    .fold(0.0f32, f32::max)
            };
            let (ours, theirs) = (most(&avatar, "aa"), most(&miku, "あ"));
            assert!(ours > 0.1 && ours == theirs, "{file}: あ opens aa to {ours}, the standard model's to {theirs}");
        }
        let (h, hips) = (rest_height(&avatar, "head"), rest_height(&avatar, "leftUpperLeg"));
        let lowest = lowest_foot(&avatar, &bones_of(&avatar, &FOOT_BONES), hips);
        let frames = avatar.clips.last().unwrap().frame_count as usize;
        let rest = humanoid_places(&avatar, 0.0);
        let (mut knee_back, mut folded, mut moved) = (0.0f32, 0.0f32, 0.0f32);
        // Each arm bone's angle from the standard model's same bone, over the dance: (least, most).
        let mut apart = [(f32::MAX, 0.0f32); 4];
        for frame in (0..frames).step_by(STRIDE) {
            let at = humanoid_places(&avatar, frame as f32);
            let p = |name: &str| at.iter().find(|(b, _)| *b == name).map(|(_, p)| *p).unwrap();
            let theirs = humanoid_places(&miku, frame as f32);
            let q = |name: &str| theirs.iter().find(|(b, _)| *b == name).map(|(_, p)| *p).unwrap();
            for (k, (from, to)) in ARM_BONES.iter().enumerate() {
                let angle = (p(to) - p(from)).angle_between(q(to) - q(from));
                apart[k] = (apart[k].0.min(angle), apart[k].1.max(angle));
            }
            let across = (p("leftUpperLeg") - p("rightUpperLeg")).normalize();
            for side in ["left", "right"] {
                let bone = |part: &str| p(&format!("{side}{part}"));
                let (thigh, shin) = (bone("LowerLeg") - bone("UpperLeg"), bone("Foot") - bone("LowerLeg"));
                // The knee bends forward: the shin swings back behind the thigh, about the body's left-right axis.
                knee_back = knee_back.max(-thigh.normalize().cross(shin.normalize()).dot(across));
                folded = folded.max(thigh.angle_between(shin).to_degrees());
                let (upper, lower) = (bone("LowerArm") - bone("UpperArm"), bone("Hand") - bone("LowerArm"));
                folded = folded.max(upper.angle_between(lower).to_degrees());
                let hand = rest.iter().find(|(b, _)| *b == format!("{side}Hand")).unwrap().1;
                moved = moved.max(bone("Hand").distance(hand) / h);
            }
        }
        eprintln!(
            "{file}: lowest foot {lowest:.3} of the hip height (standard {standard:.3}), knee back {knee_back:.3}, \
             folded {folded:.0}°, hands moved {moved:.2} of the height"
        );
        // Both arms turn in world space as the standard model's do: each bone stays as far from the standard
        // model's as it is at rest (their rest directions differ by the avatar's build), to 1e-4 rad.
        for ((from, to), (least, most)) in ARM_BONES.iter().zip(apart) {
            eprintln!("{file}: {from} → {to} from the standard model's: {least:.4} to {most:.4} rad");
            assert!(most - least < 1e-4, "{file}: {from} turns {least} to {most} rad from the standard");
        }
        assert!(lowest > standard - 0.01 * h / hips, "{file}: a foot {lowest} of the hip height below the floor");
        assert!(knee_back < 0.05, "{file}: a knee bends backwards ({knee_back})");
        assert!(folded < 170.0, "{file}: a joint folds {folded}°");
        assert!(moved > 0.1, "{file}: the hands move only {moved} of the height");
    }
}

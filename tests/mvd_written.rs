//! MVD files written with the test-support writer, read back: bone and camera curves against values worked out
//! by hand, stages, the camera cut, attaching a motion to an IQM model by joint name, the `pose` and `info`
//! commands on them, and every prefix of every written file.

use std::f32::consts::{FRAC_1_SQRT_2, PI};
use std::path::PathBuf;
use std::process::Command;

use glam::{Mat4, Quat, Vec3};
use rigscope::anim::{Pose, attach};
use rigscope::formats::iqm::write::{IqmDocument, Joint as IqmJoint};
use rigscope::formats::mvd::write::{
    BoneFrame, CameraFrame, LINEAR, MvdDocument, Object, Section, property_document, sample_document,
};
use rigscope::formats::mvd::{self, ReadOptions};
use rigscope::scene::{MvdEncoding, Scene};

/// MMD curve bytes (x1, y1, x2, y2). With x1 + x2 = 127 the curve passes u = ½ at s = ½, where
/// y(½) = ⅜(y1 + y2)/127 + ⅛: ease-in (0,0,127,0) gives 0.125, ease-out (0,127,127,127) gives 0.875.
const EASE_IN: [u8; 4] = [0, 0, 127, 0];
const EASE_OUT: [u8; 4] = [0, 127, 127, 127];
const ID: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
/// 90° about Y, x y z w.
const Q90Y: [f32; 4] = [0.0, FRAC_1_SQRT_2, 0.0, FRAC_1_SQRT_2];

fn load(d: &MvdDocument) -> Scene {
    rigscope::load_bytes("w.mvd", &d.to_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn near(a: Vec3, b: [f32; 3]) -> bool {
    a.abs_diff_eq(Vec3::from(b), 1e-4)
}

/// One object "dance" at 30 keyFps with bone "head" keyed at ticks 0 and 30, (0,0,0) → (10,20,30) and
/// identity → 90° about Y. The tick-30 key carries X linear, Y ease-in, Z ease-out, rotation ease-in; the
/// tick-0 key carries curves that must not matter (the later key governs a segment).
fn curves_doc() -> MvdDocument {
    let mut d = MvdDocument::new(MvdEncoding::Utf16Le);
    let mut o = Object::new("dance", 30.0);
    o.sections.push(Section::NameList(vec![(3, "head".into()), (4, "body".into()), (-3001, "head layer".into())]));
    let first = BoneFrame { curves: [EASE_OUT, EASE_OUT, EASE_IN, EASE_OUT], ..BoneFrame::new(0, [0.0; 3], ID) };
    let second =
        BoneFrame { curves: [LINEAR, EASE_IN, EASE_OUT, EASE_IN], ..BoneFrame::new(30, [10.0, 20.0, 30.0], Q90Y) };
    // Stage 1 moves +1 on X over ticks 0-30 (linear); it plays only with additive stages.
    let layer = |t, x| BoneFrame { stage: 1, ..BoneFrame::new(t, [x, 0.0, 0.0], ID) };
    o.sections.push(Section::Bone {
        minor: 2,
        key: 3,
        stage_count: 2,
        parent_clip: -1,
        item_size: None,
        frames: vec![second, layer(30, 1.0), first, layer(0, 0.0)],
    });
    d.objects.push(o);
    d
}

fn head_local(s: &Scene, frame: f32) -> rigscope::scene::Transform {
    let pose = Pose::sample(&s.skeleton, &s.clips[0], frame, 30.0);
    pose.locals[s.skeleton.find("head").unwrap()]
}

#[test]
fn bone_curves_match_hand_values() {
    let s = load(&curves_doc());
    assert_eq!(s.clips[0].name, "dance");
    // Tick 15 of 0-30 is u = ½: X linear 10·½ = 5; Y ease-in 20·0.125 = 2.5; Z ease-out 30·0.875 = 26.25.
    let l = head_local(&s, 15.0);
    assert!(near(l.translation, [5.0, 2.5, 26.25]), "{:?}", l.translation);
    // Rotation: slerp(identity, 90° about Y, 0.125) = 11.25° about Y.
    assert!(l.rotation.abs_diff_eq(Quat::from_rotation_y(11.25f32.to_radians()), 1e-5), "{:?}", l.rotation);
    // Tick 7.5 (u = ¼): x(s) = 3s² − 2s³ = ¼ at s = 0.326352; ease-in y = s³ = 0.034758, ease-out
    // y = 1 − (1 − s)³ = 0.694297. X 2.5, Y 20·0.034758 = 0.69516, Z 30·0.694297 = 20.8289.
    let l = head_local(&s, 7.5);
    assert!(near(l.translation, [2.5, 0.69516, 20.8289]), "{:?}", l.translation);
    // Outside the keys the ends hold; the stored time is seconds = tick / keyFps.
    assert!(near(head_local(&s, 30.0).translation, [10.0, 20.0, 30.0]));
    assert_eq!(s.clips[0].frame_count, 31);
}

#[test]
fn stages_above_zero_are_listed_and_added_on_request() {
    let bytes = curves_doc().to_bytes();
    let base = mvd::read("w.mvd", &bytes).unwrap();
    let info = base.mvd.as_ref().unwrap();
    let stages: Vec<(i32, Option<&str>, usize)> =
        info.objects[0].bones[0].stages.iter().map(|s| (s.id, s.name.as_deref(), s.keys)).collect();
    assert_eq!(stages, [(0, None, 2), (1, Some("head layer"), 2)]);
    let add = mvd::read_with("w.mvd", &bytes, &ReadOptions { additive_stages: true }).unwrap();
    assert!(add.mvd.as_ref().unwrap().additive_stages);
    // Stage 1 adds ½ on X at tick 15: 5 + 0.5.
    assert!(near(head_local(&add, 15.0).translation, [5.5, 2.5, 26.25]));
    assert!(near(head_local(&base, 15.0).translation, [5.0, 2.5, 26.25]));
}

/// A camera object "カメラ00" at 30 keyFps: ticks 0 → 30 move the target (0,0,0) → (30,60,90) with an
/// ease-in move curve, the distance 10 → 20 linearly, the angles (0,0,0) → (0,π,0) with an ease-out
/// rotation curve and the fov 20° → 40° linearly; tick 31 cuts to target (100,0,0).
fn camera_doc() -> MvdDocument {
    let mut d = MvdDocument::new(MvdEncoding::Utf8);
    let mut o = Object::new("カメラ00", 30.0);
    o.sections.push(Section::NameList(vec![(0, "カメラ".into())]));
    let a = CameraFrame::new(0, [0.0; 3], 10.0, [0.0; 3], 20f32.to_radians());
    let b = CameraFrame {
        curves: [EASE_IN, EASE_OUT, LINEAR, LINEAR],
        ..CameraFrame::new(30, [30.0, 60.0, 90.0], 20.0, [0.0, PI, 0.0], 40f32.to_radians())
    };
    let c = CameraFrame::new(31, [100.0, 0.0, 0.0], 20.0, [0.0, PI, 0.0], 40f32.to_radians());
    o.sections.push(Section::Camera { minor: 3, key: 0, stage_count: 1, item_size: None, frames: vec![a, b, c] });
    d.objects.push(o);
    d
}

#[test]
fn camera_curves_and_cut_match_hand_values() {
    let s = load(&camera_doc());
    let cam = &s.cameras[0];
    assert_eq!(cam.name, "カメラ");
    // Tick 15 (u = ½): one move curve (ease-in, 0.125) for x, y and z: (3.75, 7.5, 11.25); distance linear
    // 15; yaw ease-out 0.875·π; fov linear 30°.
    let k = cam.key_at(0.5).unwrap();
    assert!(near(k.target, [3.75, 7.5, 11.25]), "{:?}", k.target);
    assert!((k.distance - 15.0).abs() < 1e-4);
    assert!((k.angles.y - 0.875 * PI).abs() < 1e-5);
    assert!((k.fov_y - 30f32.to_radians()).abs() < 1e-6);
    // Eye = target + Ry(−ay)·(0,0,d): Ry(−0.875π)·(0,0,15) = (15·sin(−0.875π), 0, 15·cos(−0.875π))
    // = (−5.7403, 0, −13.8582).
    let v = cam.view_at(0.5).unwrap();
    assert!(near(v.eye - v.target, [-5.7403, 0.0, -13.8582]), "{:?}", v.eye - v.target);
    // The cut: ticks 30 and 31 are one tick apart, so tick 30.5 (1.0167 s) still shows tick 30's key; tick 31
    // shows the new shot.
    assert!(near(cam.key_at(30.5 / 30.0).unwrap().target, [30.0, 60.0, 90.0]));
    assert!(near(cam.key_at(31.0 / 30.0).unwrap().target, [100.0, 0.0, 0.0]));
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rigscope-mvd-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rigscope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope")).args(args).output().unwrap()
}

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn vec3(v: &serde_json::Value) -> Vec3 {
    let a: Vec<f32> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
    Vec3::new(a[0], a[1], a[2])
}

#[test]
fn pose_reports_the_camera_in_mmd_coordinates() {
    let dir = temp_dir("camera");
    let file = dir.join("cam.mvd");
    std::fs::write(&file, sample_document(MvdEncoding::Utf16Le).to_bytes()).unwrap();
    let f = file.to_str().unwrap();
    // Object 1 "カメラ00" (60 keyFps): the default camera (target (0,10,0), radius 50, angles (0,π,0)) at
    // tick 0 has its eye at (0,10,−50), looking toward +Z, up +Y, fov 30°.
    let v = json(&rigscope(&["pose", f, "--anim", "カメラ00", "--frame", "0"]));
    let cam = &v["camera"];
    assert!(near(vec3(&cam["target"]), [0.0, 10.0, 0.0]));
    assert!(near(vec3(&cam["eye"]), [0.0, 10.0, -50.0]), "{cam}");
    assert!(near(vec3(&cam["up"]), [0.0, 1.0, 0.0]));
    assert!((cam["fov_y"].as_f64().unwrap() as f32 - 30f32.to_radians()).abs() < 1e-6);
    assert_eq!(cam["perspective"], true);
    // --frame counts ticks: tick 30 of 0-60 (linear) moves the target halfway to (0,10,10); --time 0.5 s at
    // 60 keyFps is the same tick.
    let v = json(&rigscope(&["pose", f, "--anim", "カメラ00", "--frame", "30"]));
    assert!(near(vec3(&v["camera"]["target"]), [0.0, 10.0, 5.0]));
    assert_eq!(v["time"], 0.5);
    let v = json(&rigscope(&["pose", f, "--anim", "カメラ00", "--time", "0.5"]));
    assert_eq!(v["frame"], 30.0);
    // Past the cut (tick 61) the property key turns the projection orthographic.
    let v = json(&rigscope(&["pose", f, "--anim", "カメラ00", "--frame", "61"]));
    assert!(near(vec3(&v["camera"]["target"]), [5.0, 0.0, 0.0]));
    assert_eq!(v["camera"]["perspective"], false);
    // A file without cameras has no "camera" key.
    std::fs::write(&file, curves_doc().to_bytes()).unwrap();
    let v = json(&rigscope(&["pose", f, "--frame", "15"]));
    assert!(v.get("camera").is_none());
    assert_eq!(v["anim"], "dance");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A two-joint IQM: "body" at (0,1,0) turned 90° about Z, "head" its child at (0,2,0); plus "arm" the motion
/// doesn't animate.
fn model() -> IqmDocument {
    let rz90 = Quat::from_rotation_z(PI / 2.0);
    IqmDocument {
        joints: vec![
            IqmJoint {
                name: "body".into(),
                translate: [0.0, 1.0, 0.0],
                rotate: rz90.to_array(),
                ..IqmJoint::default()
            },
            IqmJoint { name: "head".into(), parent: 0, translate: [0.0, 2.0, 0.0], ..IqmJoint::default() },
            IqmJoint { name: "arm".into(), parent: 0, translate: [1.0, 0.0, 0.0], ..IqmJoint::default() },
        ],
        ..Default::default()
    }
}

/// Motion "walk" at 30 keyFps, linear: "body" moves (0,0,0) → (0,0,2); "head" moves (0,0,0) → (1,0,0) and
/// turns identity → 90° about X; "右足ＩＫ" has no joint in the model.
fn walk() -> MvdDocument {
    let mut d = MvdDocument::new(MvdEncoding::Utf16Le);
    let mut o = Object::new("walk", 30.0);
    o.sections.push(Section::NameList(vec![(0, "body".into()), (1, "head".into()), (2, "右足ＩＫ".into())]));
    let rx90 = Quat::from_rotation_x(PI / 2.0).to_array();
    let bone = |key, frames| Section::Bone { minor: 1, key, stage_count: 1, parent_clip: -1, item_size: None, frames };
    o.sections.push(bone(0, vec![BoneFrame::new(0, [0.0; 3], ID), BoneFrame::new(30, [0.0, 0.0, 2.0], ID)]));
    o.sections.push(bone(1, vec![BoneFrame::new(0, [0.0; 3], ID), BoneFrame::new(30, [1.0, 0.0, 0.0], rx90)]));
    o.sections.push(bone(2, vec![BoneFrame::new(0, [0.0; 3], ID)]));
    d.objects.push(o);
    d
}

/// At tick 15 (u = ½), values are deltas on the model's bind pose:
/// body: T = (0,1,0) + (0,0,1) = (0,1,1), R = Rz(90°)·identity;
/// head: T = (0,2,0) + (0.5,0,0) = (0.5,2,0), R = identity·Rx(45°);
/// head world = body · head: position (0,1,1) + Rz(90°)·(0.5,2,0) = (0,1,1) + (−2,0.5,0) = (−2,1.5,1),
/// rotation Rz(90°)·Rx(45°).
fn expected_head_world() -> Mat4 {
    Mat4::from_rotation_translation(
        Quat::from_rotation_z(PI / 2.0) * Quat::from_rotation_x(PI / 4.0),
        Vec3::new(-2.0, 1.5, 1.0),
    )
}

#[test]
fn a_motion_attaches_to_a_model_by_joint_name() {
    let mut m = rigscope::load_bytes("m.iqm", &model().to_bytes()).unwrap();
    let anim = load(&walk());
    let report = attach(&mut m, &anim, "walk.mvd").unwrap();
    assert!(!report.by_index);
    assert_eq!(report.unmatched_joints, ["arm"]);
    assert_eq!(report.unused_tracks, ["右足ＩＫ"]);
    assert!(report.reparented.is_empty(), "an MVD has no hierarchy to disagree with: {:?}", report.reparented);
    let ci = m.find_clip("walk").unwrap();
    let pose = Pose::sample(&m.skeleton, &m.clips[ci], 15.0, 30.0);
    let head = m.skeleton.find("head").unwrap();
    assert!(pose.world[head].abs_diff_eq(expected_head_world(), 1e-5), "{:?}", pose.world[head]);
    // The untracked joint keeps its bind pose under the moved body: (0,1,1) + Rz(90°)·(1,0,0) = (0,2,1).
    let arm = m.skeleton.find("arm").unwrap();
    assert!(near(pose.world[arm].w_axis.truncate(), [0.0, 2.0, 1.0]));

    // The same through `pose --attach`.
    let dir = temp_dir("attach");
    let (mf, af) = (dir.join("m.iqm"), dir.join("walk.mvd"));
    std::fs::write(&mf, model().to_bytes()).unwrap();
    std::fs::write(&af, walk().to_bytes()).unwrap();
    let v = json(&rigscope(&[
        "pose",
        mf.to_str().unwrap(),
        "--attach",
        af.to_str().unwrap(),
        "--anim",
        "walk",
        "--frame",
        "15",
    ]));
    let _ = std::fs::remove_dir_all(&dir);
    let joints = v["joints"].as_array().unwrap();
    let j = joints.iter().find(|j| j["name"] == "head").unwrap();
    let w: Vec<f32> = j["world"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
    assert!(Mat4::from_cols_slice(&w).abs_diff_eq(expected_head_world(), 1e-5), "{w:?}");
    assert_eq!(v["time"], 0.5);
}

#[test]
fn info_describes_objects_sections_and_tracks() {
    let dir = temp_dir("info");
    let file = dir.join("all.mvd");
    std::fs::write(&file, sample_document(MvdEncoding::Utf8).to_bytes()).unwrap();
    let out = rigscope(&["info", file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for want in [
        ": MVD version 1 (left-handed Y-up)",
        "mvd: UTF-8 strings, 5 objects",
        "object 0 \"ミク motion\" / \"Miku motion\" @35: keyFps 30",
        "bone \"センター\" (tag 16 minor 0, 4×56 B)",
        "unknown (tag 200 minor 1, 2×5 B, skipped)",
        "bones: \"センター\" (stage 0: 2, stage 1 \"レイヤー1\": 2)",
        "cameras: \"カメラ\" (stage 0: 3, stage 1 \"カメラ layer\": 1)",
        "camera \"カメラ\" (clip \"カメラ00\"): 3 key(s), 2 property key(s)",
        "IK bones: 右足ＩＫ, 左足ＩＫ",
        "light (tag 112 minor 0, 2×24 B)",
        "light keys: 2",
        "tick 20: direction (1, -1, 0), colour (255, 0, 51), off",
        "project keys: 2",
        "tick 0: gravity 0.98 along (0, -1, 0) = (0, -98, 0) units/s²; self-shadow depth shadow, distance 8875, depth 1",
        "tick 15: gravity 1.96 along (1, 0, 0) = (196, 0, 0) units/s²; self-shadow none, distance 1, depth 1",
        "accessory keys: 2 (the accessory itself, an .x file, is not loaded)",
        "tick 0: hidden, add-blend, scale 1, opacity 0.25",
        "tick 10: shown, shadow, scale 2, opacity 1, follows model 0 bone 2",
        "effect keys: 1 (parameters: param (float), 色 (float3), on (bool), 回数 (int);",
        "tick 0: shown, scale 1, opacity 0.5, param = 0.5, 色 = (1, 0.5, 0.25), on = true, 回数 = -3",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    let v = json(&rigscope(&["info", file.to_str().unwrap(), "--json"]));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(v["format"], "MVD");
    assert_eq!(v["mvd"]["encoding"], "utf8");
    assert_eq!(v["mvd"]["objects"][1]["key_fps"], 60.0);
    let o = &v["mvd"]["objects"][0];
    assert_eq!(o["lights"][1]["color"], serde_json::json!([255, 0, 51]));
    assert_eq!(o["project"][1]["gravity_vector"], serde_json::json!([1.0, 0.0, 0.0]));
    assert_eq!(o["accessory"][0]["alpha"], 0.25);
    assert_eq!(o["effects"][0]["parameters"][1]["name"], "色");
    assert_eq!(o["effects"][0]["keys"][0]["values"][1], serde_json::json!([1.0, 0.5, 0.25]));
    assert_eq!(v["cameras"].as_array().unwrap().len(), 4);
}

#[test]
fn every_prefix_of_every_written_file_loads_or_fails_clearly() {
    let docs = [
        sample_document(MvdEncoding::Utf16Le),
        sample_document(MvdEncoding::Utf8),
        curves_doc(),
        camera_doc(),
        walk(),
        property_document(MvdEncoding::Utf16Le),
        property_document(MvdEncoding::Utf8),
    ];
    for (i, d) in docs.iter().enumerate() {
        let data = d.to_bytes();
        rigscope::load_bytes("w.mvd", &data).unwrap_or_else(|e| panic!("doc {i}: {e}"));
        for k in 0..data.len() {
            match rigscope::load_bytes("w.mvd", &data[..k]) {
                Err(e) => assert!(!e.message.is_empty(), "doc {i} [..{k}]"),
                // A cut exactly after an object's EOF marker is a complete file of fewer objects.
                Ok(s) => {
                    let objects = s.mvd.unwrap().objects.len();
                    assert!(objects < d.objects.len() || k + 1 >= data.len(), "doc {i} [..{k}]");
                }
            }
        }
    }
}

#[test]
fn corrupted_bytes_never_panic() {
    // Set every byte of a written file in turn to a few values: any result but a panic is fine.
    for data in [sample_document(MvdEncoding::Utf16Le).to_bytes(), property_document(MvdEncoding::Utf8).to_bytes()] {
        for i in 0..data.len() {
            for v in [0u8, 0x7F, 0xFF] {
                let mut d = data.clone();
                d[i] = v;
                let _ = rigscope::load_bytes("w.mvd", &d);
            }
        }
    }
}

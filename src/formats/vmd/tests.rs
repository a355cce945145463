//! Files from the test-support writer, read back: every section, both header versions, files that stop after
//! any section, every prefix, curves and the camera against values worked out by hand.

use std::f32::consts::{FRAC_1_SQRT_2, PI};

use glam::{Mat3, Quat, Vec3};

use super::write::{BoneKey, CameraKey, LINEAR, MorphKey, VmdDocument, sample_document};
use super::*;
use crate::anim::Pose;
use crate::error::Location;
use crate::scene::ClipData;

/// MMD curve bytes (x1, y1, x2, y2). With x1 + x2 = 127 the curve passes u = ½ at s = ½, where
/// y(½) = ⅜(y1 + y2)/127 + ⅛: ease-in (0,0,127,0) gives 0.125, ease-out (0,127,127,127) gives 0.875.
const EASE_IN: [u8; 4] = [0, 0, 127, 0];
const EASE_OUT: [u8; 4] = [0, 127, 127, 127];
const ID: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
const Q90Y: [f32; 4] = [0.0, FRAC_1_SQRT_2, 0.0, FRAC_1_SQRT_2];

fn load(d: &VmdDocument) -> Scene {
    read("t.vmd", &d.to_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn rules(s: &Scene) -> Vec<&'static str> {
    s.meta.warnings.iter().map(|w| w.rule).collect()
}

#[test]
fn sample_document_reads_every_section() {
    let s = load(&sample_document());
    assert_eq!(s.meta.format, crate::scene::Format::Vmd);
    assert_eq!(s.meta.version, "2");
    let v = s.vmd.as_ref().unwrap();
    assert_eq!(v.signature, "Vocaloid Motion Data 0002");
    assert_eq!(v.model_name.text, "初音ミク");
    assert_eq!(v.counts.bones, Some(3));
    assert_eq!(v.counts.morphs, Some(2));
    assert_eq!(v.counts.cameras, Some(2));
    assert_eq!((v.counts.lights, v.counts.shadows, v.counts.properties), (Some(1), Some(1), Some(2)));
    assert_eq!(v.bones.len(), 2);
    assert_eq!((v.bones[0].name.text.as_str(), v.bones[0].keys), ("センター", 2));
    // The cut name: its last whole character kept, the cut lead byte in the raw bytes only.
    assert!(v.bones[1].name.cut);
    assert_eq!(v.bones[1].name.text, "abcd左手人差指");
    assert_eq!(v.bones[1].name.raw.len(), 15);
    assert!(rules(&s).contains(&"vmd.name.cut"));
    assert_eq!(v.lights[0].direction, [-0.5, -1.0, 0.5]);
    assert_eq!((v.shadows[0].mode, v.shadows[0].distance), (1, 0.0085));
    assert_eq!(v.ik_chains, ["左足ＩＫ", "右足ＩＫ"]);
    assert!(v.ik_enabled("左足ＩＫ", 19.0) && !v.ik_enabled("左足ＩＫ", 20.0) && v.ik_enabled("右足ＩＫ", 25.0));
    assert!(v.ik_enabled("首ＩＫ", 25.0), "a chain no key names is on");
    assert_eq!(s.skeleton.joints.iter().map(|j| j.name.as_str()).collect::<Vec<_>>(), ["センター", "abcd左手人差指"]);
    let clip = &s.clips[0];
    assert_eq!((clip.name.as_str(), clip.frame_rate, clip.frame_count), ("初音ミク", 30.0, 61));
    assert_eq!(clip.morphs[0].name, "まばたき");
    // The same switches as clip tracks, in seconds (the pose path reads these).
    let left = clip.ik_switches.iter().find(|t| t.name == "左足ＩＫ").unwrap();
    assert!(left.enabled_at(19.0 / 30.0) && !left.enabled_at(20.0 / 30.0));
    assert_eq!(clip.ik_switches.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["左足ＩＫ", "右足ＩＫ"]);
    assert_eq!(clip.morphs[0].keys.len(), 2);
    assert_eq!(s.cameras.len(), 1);
    assert_eq!(s.cameras[0].clip.as_deref(), Some("初音ミク"));
    assert!(s.cameras[0].properties[0].perspective && !s.cameras[0].properties[1].perspective);
    assert!(s.is_animation_only());
}

#[test]
fn version_1_has_a_ten_byte_model_name() {
    let mut d = VmdDocument::v1("motion");
    d.bones.push(BoneKey::new("頭", 5, [0.0; 3], ID));
    let s = load(&d);
    let v = s.vmd.as_ref().unwrap();
    assert_eq!((v.version, v.model_name.text.as_str()), (1, "motion"));
    assert_eq!(s.meta.version, "1");
    assert_eq!(v.bones[0].name.text, "頭");
    // Read with version 2's 20-byte name, the same bytes would misplace the bone count.
    let mut bytes = d.to_bytes();
    bytes[..30].copy_from_slice(&VmdDocument::new("").to_bytes()[..30]);
    assert!(read("t.vmd", &bytes).is_err());
}

#[test]
fn a_file_may_stop_after_any_section() {
    for n in 0..=6 {
        let mut d = sample_document();
        d.sections = n;
        let s = load(&d);
        let c = s.vmd.as_ref().unwrap().counts;
        let present =
            [c.bones, c.morphs, c.cameras, c.lights, c.shadows, c.properties].iter().filter(|x| x.is_some()).count();
        assert_eq!(present, n);
        assert!(s.meta.warnings.iter().all(|w| w.rule != "vmd.trailing"));
    }
}

#[test]
fn every_prefix_is_an_error_or_a_shorter_file() {
    let bytes = sample_document().to_bytes();
    let mut ok = 0;
    for cut in 0..bytes.len() {
        match read("t.vmd", &bytes[..cut]) {
            Ok(s) => {
                ok += 1;
                // A prefix that loads ends exactly where a section does: no key was half read.
                let c = s.vmd.as_ref().unwrap().counts;
                assert!(c.properties.is_none(), "prefix {cut} read every section");
            }
            Err(e) => {
                assert!(e.to_string().starts_with("t.vmd @"), "{e}");
                assert!(!e.message.is_empty());
            }
        }
    }
    // The header alone, and after each of the first five sections.
    assert_eq!(ok, 6);
}

#[test]
fn written_records_read_back_exactly() {
    let d = sample_document();
    let raw = parse::parse(&d.to_bytes()).unwrap();
    assert_eq!(raw.bones.len(), d.bones.len());
    for (r, w) in raw.bones.iter().zip(&d.bones) {
        assert_eq!(r.name.raw, w.name);
        assert_eq!((r.frame, r.position, r.rotation), (w.frame, w.position, w.rotation));
        assert_eq!(r.interpolation, w.interpolation);
    }
    for (r, w) in raw.morphs.iter().zip(&d.morphs) {
        assert_eq!((r.name.raw.as_slice(), r.frame, r.weight), (w.name.as_slice(), w.frame, w.weight));
    }
    for (r, w) in raw.cameras.iter().zip(&d.cameras) {
        assert_eq!((r.frame, r.distance, r.target, r.angles), (w.frame, w.distance, w.target, w.angles));
        assert_eq!((r.curves(), r.fov, r.perspective_off), (w.curves, w.fov, w.perspective_off));
    }
    let lights: Vec<_> = raw.lights.iter().map(|l| (l.frame, l.color, l.direction)).collect();
    assert_eq!(lights, d.lights);
    let shadows: Vec<_> = raw.shadows.iter().map(|s| (s.frame, s.mode, s.distance)).collect();
    assert_eq!(shadows, d.shadows);
    for ((_, r), w) in raw.properties.iter().zip(&d.properties) {
        assert_eq!((r.frame, r.visible), (w.frame, w.visible));
        let ik: Vec<(Vec<u8>, bool)> = r.ik.iter().map(|s| (s.bone.raw.clone(), s.enabled)).collect();
        assert_eq!(ik, w.ik);
    }
}

fn curves_doc(physics: Option<[u8; 2]>) -> VmdDocument {
    let mut d = VmdDocument::new("dance");
    // The first key's curves must not matter: the later key owns a segment.
    d.bones.push(BoneKey::new("head", 0, [0.0; 3], ID).with_curves([EASE_OUT, EASE_OUT, EASE_IN, EASE_OUT]));
    let mut second =
        BoneKey::new("head", 30, [10.0, 20.0, 30.0], Q90Y).with_curves([LINEAR, EASE_IN, EASE_OUT, EASE_IN]);
    if let Some([a, b]) = physics {
        second.interpolation[2] = a;
        second.interpolation[3] = b;
    }
    d.bones.push(second);
    d
}

fn head_local(s: &Scene, frame: f32) -> crate::scene::Transform {
    Pose::sample(&s.skeleton, &s.clips[0], frame, 30.0).locals[s.skeleton.find("head").unwrap()]
}

#[test]
fn bone_curves_match_hand_values_with_or_without_the_physics_bytes() {
    for physics in [None, Some([0x63, 0x0F]), Some([0, 0])] {
        let s = load(&curves_doc(physics));
        // Frame 15 of 0-30 is u = ½: X linear 10·½ = 5; Y ease-in 20·0.125 = 2.5; Z ease-out 30·0.875 = 26.25.
        let l = head_local(&s, 15.0);
        assert!(l.translation.abs_diff_eq(Vec3::new(5.0, 2.5, 26.25), 1e-4), "{physics:?}: {:?}", l.translation);
        // slerp(identity, 90° about Y, 0.125) = 11.25° about Y.
        assert!(l.rotation.abs_diff_eq(Quat::from_rotation_y(11.25f32.to_radians()), 1e-5), "{:?}", l.rotation);
        // Frame 7.5 (u = ¼): x(s) = 3s² − 2s³ = ¼ at s = 0.326352; ease-in y = s³ = 0.034758, ease-out
        // y = 1 − (1 − s)³ = 0.694297.
        let l = head_local(&s, 7.5);
        assert!(l.translation.abs_diff_eq(Vec3::new(2.5, 0.69516, 20.8289), 1e-4), "{:?}", l.translation);
        // Past the last key it holds.
        assert!(head_local(&s, 90.0).translation.abs_diff_eq(Vec3::new(10.0, 20.0, 30.0), 1e-6));
    }
}

/// The MVD note's §6 VMD camera: `C = Ry(−ry)·Rx(−rx)·Rz(−rz)`, eye = target + C·(0, 0, distance).
fn vmd_eye(k: &CameraKey) -> (Vec3, Vec3) {
    let [rx, ry, rz] = k.angles;
    let c = Mat3::from_rotation_y(-ry) * Mat3::from_rotation_x(-rx) * Mat3::from_rotation_z(-rz);
    (Vec3::from(k.target) + c * Vec3::new(0.0, 0.0, k.distance), c * Vec3::Y)
}

#[test]
fn camera_at_key_frames_equals_the_keys() {
    let mut d = VmdDocument::new("カメラ・照明");
    d.cameras.push(CameraKey::new(0, -45.0, [0.0, 10.0, 0.0], [0.0; 3], 30));
    d.cameras.push(CameraKey::new(40, -20.0, [1.0, 12.0, -3.0], [0.3, -0.7, 0.1], 45));
    d.cameras
        .push(CameraKey { perspective_off: 1, ..CameraKey::new(41, -25.0, [2.0, 11.0, 4.0], [-0.2, 2.5, 0.0], 20) });
    let s = load(&d);
    let cam = &s.cameras[0];
    // MikuMikuDance's default camera: eye (0, 10, −45), looking toward +Z.
    let v = cam.view_at(0.0).unwrap();
    assert!(v.eye.abs_diff_eq(Vec3::new(0.0, 10.0, -45.0), 1e-4), "{:?}", v.eye);
    for k in &d.cameras {
        let v = cam.view_at(k.frame as f32 / 30.0).unwrap();
        let (eye, up) = vmd_eye(k);
        assert!(v.eye.abs_diff_eq(eye, 1e-3), "frame {}: {:?} vs {eye:?}", k.frame, v.eye);
        assert!(v.up.abs_diff_eq(up, 1e-5), "frame {}: {:?} vs {up:?}", k.frame, v.up);
        assert_eq!(v.target, Vec3::from(k.target));
        assert!((v.fov_y - (k.fov as f32).to_radians()).abs() < 1e-6);
        assert_eq!(v.perspective, k.perspective_off == 0);
    }
    // Frames 40 and 41 are a cut: between them the view holds frame 40's.
    let between = cam.view_at(40.5 / 30.0).unwrap();
    assert!(between.eye.abs_diff_eq(vmd_eye(&d.cameras[1]).0, 1e-3));
}

#[test]
fn camera_target_axes_ease_by_their_own_curves() {
    let mut d = VmdDocument::new("カメラ・照明");
    d.cameras.push(CameraKey::new(0, -10.0, [0.0; 3], [0.0; 3], 30));
    let mut k = CameraKey::new(30, -10.0, [10.0, 20.0, 30.0], [0.0, 0.0, 0.0], 30);
    k.curves = [LINEAR, EASE_IN, EASE_OUT, LINEAR, LINEAR, LINEAR];
    d.cameras.push(k);
    let s = load(&d);
    let t = s.cameras[0].key_at(0.5).unwrap().target;
    assert!(t.abs_diff_eq(Vec3::new(5.0, 2.5, 26.25), 1e-4), "{t:?}");
    // Angles convert by (−rx, ry + π, rz) and distance by its sign.
    let key = s.cameras[0].keys[0];
    assert_eq!((key.distance, key.angles), (10.0, Vec3::new(-0.0, PI, 0.0)));
}

#[test]
fn reader_warnings_have_stable_rules() {
    let mut d = VmdDocument::new("m");
    d.signature = b"Vocaloid Motion Data".to_vec();
    d.bones.push(BoneKey::new("a", 10, [0.0; 3], ID));
    d.bones.push(BoneKey::new("a", 5, [0.0; 3], [0.0, 0.0, 0.0, 2.0]));
    d.bones.push(BoneKey::new("a", 10, [1.0; 3], ID));
    d.morphs.push(MorphKey { name: vec![b'x', 0x85, 0x20], frame: 0, weight: 1.0 });
    d.trailing = vec![1, 2, 3];
    let s = load(&d);
    let r = rules(&s);
    for rule in [
        "vmd.signature",
        "vmd.key.order",
        "vmd.key.duplicate",
        "vmd.bone.quaternion",
        "vmd.name.encoding",
        "vmd.trailing",
    ] {
        assert!(r.contains(&rule), "{rule} missing from {r:?}");
    }
    // Sorted, and the later key on frame 10 won; the unnormalised quaternion was normalised.
    let ClipData::Keyed { tracks } = &s.clips[0].data else { panic!() };
    assert_eq!(tracks[0].translation.iter().map(|k| k.time * 30.0).collect::<Vec<_>>(), [5.0, 10.0]);
    assert_eq!(tracks[0].translation[1].value, Vec3::ONE);
    assert!((tracks[0].rotation[0].value.length() - 1.0).abs() < 1e-6);
    let trailing = s.meta.warnings.iter().find(|w| w.rule == "vmd.trailing").unwrap();
    assert_eq!(trailing.location, Location::Offset(d.to_bytes().len() as u64 - 3));
}

#[test]
fn a_count_the_file_cannot_hold_names_its_offset() {
    let mut bytes = VmdDocument::new("m").to_bytes();
    bytes[50..54].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = read("big.vmd", &bytes).unwrap_err().to_string();
    assert!(e.contains("big.vmd @50: bone key count 4294967295: expected at most 0"), "{e}");
    let e = read("x.vmd", b"Vocaloid Motion").unwrap_err().to_string();
    assert!(e.contains("x.vmd @0"), "{e}");
    assert!(read("x.vmd", b"Not a motion file at all, but thirty bytes long..").is_err());
}

#[test]
fn a_missing_model_name_names_the_clip_after_the_file() {
    let mut d = VmdDocument::new("");
    d.morphs.push(MorphKey::new("あ", 3, 0.5));
    let s = read("dir/smile.vmd", &d.to_bytes()).unwrap();
    assert_eq!(s.clips[0].name, "smile");
    assert_eq!(s.clips[0].frame_count, 4);
}

#[test]
fn only_the_9x_off_pair_switches_a_bone_out_of_physics() {
    // 63 0F on the second key: off from frame 30; the first key (curve bytes there, as pre-9.x files) is on.
    let s = load(&curves_doc(Some([0x63, 0x0F])));
    let tracks = &s.clips[0].physics_switches;
    assert_eq!(tracks.len(), 1);
    assert_eq!(tracks[0].name, "head");
    assert!(tracks[0].enabled_at(0.5) && !tracks[0].enabled_at(1.0) && !tracks[0].enabled_at(5.0));
    // 00 00 (on) and any other pair leave physics on everywhere: no track.
    for pair in [None, Some([0, 0]), Some([20, 20])] {
        assert!(load(&curves_doc(pair)).clips[0].physics_switches.is_empty(), "{pair:?}");
    }
}

//! Files from the test-support writer, read back section by section.

use super::write::{BoneFrame, LINEAR, MvdDocument, Object, Section, sample_document};
use super::*;
use crate::scene::{ClipData, Easing, MvdEncoding};

fn load(d: &MvdDocument) -> Scene {
    read("t.mvd", &d.to_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn err(bytes: &[u8]) -> String {
    read("t.mvd", bytes).expect_err("expected the file to be refused").to_string()
}

fn rules(s: &Scene) -> Vec<&'static str> {
    s.meta.warnings.iter().map(|w| w.rule).collect()
}

fn one_bone(sections: Vec<Section>) -> MvdDocument {
    let mut d = MvdDocument::new(MvdEncoding::Utf8);
    let mut o = Object::new("m", 30.0);
    o.sections.push(Section::NameList(vec![(0, "b".into())]));
    o.sections.extend(sections);
    d.objects.push(o);
    d
}

fn bone(minor: u8, frames: Vec<BoneFrame>) -> Section {
    Section::Bone { minor, key: 0, stage_count: 1, parent_clip: -1, item_size: None, frames }
}

#[test]
fn sample_document_reads_in_both_encodings() {
    for enc in [MvdEncoding::Utf16Le, MvdEncoding::Utf8] {
        let s = load(&sample_document(enc));
        let m = s.mvd.as_ref().unwrap();
        assert_eq!(m.encoding, enc);
        assert_eq!(m.objects.len(), 5);
        let o = &m.objects[0];
        assert_eq!(o.name, "ミク motion");
        assert_eq!(o.english_name, "Miku motion");
        assert_eq!(o.key_fps, 30.0);
        let kinds: Vec<(&str, u8, bool)> = o.sections.iter().map(|s| (s.kind, s.minor, s.read)).collect();
        assert_eq!(
            kinds,
            [
                ("name_list", 0, true),
                ("bone", 0, true),
                ("bone", 1, true),
                ("bone", 2, true),
                ("morph", 0, true),
                ("morph", 1, true),
                ("model_property", 0, true),
                ("model_property", 1, true),
                ("model_property", 2, true),
                ("model_property", 3, true),
                ("motion_clip", 0, true),
                ("motion_blend", 0, true),
                ("accessory_property", 0, false),
                ("effect_property", 0, false),
                ("light", 0, false),
                ("project", 1, false),
                ("filter", 0, false),
                ("unknown", 1, false),
            ]
        );
        assert_eq!(o.sections[1].name.as_deref(), Some("センター"));
        let bones: Vec<&str> = o.bones.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(bones, ["センター", "右足ＩＫ", "頭"]);
        assert_eq!(o.bones[0].stages[1].name.as_deref(), Some("レイヤー1"));
        assert_eq!(o.bones[2].stages.iter().map(|s| (s.id, s.keys)).collect::<Vec<_>>(), [(0, 2), (2, 1)]);
        assert_eq!(o.bones[2].stages[1].name.as_deref(), Some("layer 2"));
        assert_eq!(o.bones[2].parent_clip, Some(7));
        assert_eq!(o.morphs.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["まばたき", "あ"]);
        assert_eq!(o.model_property_keys, 4);
        assert_eq!(o.ik_bones[..2], ["右足ＩＫ".to_string(), "左足ＩＫ".to_string()]);
        // The ModelProperty switches as the clip's IK switch tracks: the right leg on, the left off.
        let clip = s.clips.iter().find(|c| c.name == o.name).expect("the object's clip");
        let sw: Vec<(&str, bool)> = clip.ik_switches.iter().map(|t| (t.name.as_str(), t.enabled_at(0.0))).collect();
        assert_eq!(sw, [("右足ＩＫ", true), ("左足ＩＫ", false)]);
        assert_eq!(o.motion_clips.len(), 2);
        assert_eq!(o.motion_clips[1].time_warp_points, vec![[0.0, 0.0], [1.0, 1.0]]);
        assert_eq!(o.motion_blends[0].blend_points, vec![[0.5, 0.5]]);
        assert_eq!(o.other_keys, 2 + 1 + 1 + 1 + 2);
        // The invented tag and the deliberately unsorted IK keys warn; the MMM ModelProperty size is expected,
        // not a defect of this file.
        assert_eq!(rules(&s), ["mvd.section.unknown", "mvd.key.order"], "{:?}", s.meta.warnings);

        // One clip per object, named after it, at its keyFps; the skeleton lists the bone names.
        let names: Vec<&str> = s.clips.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["ミク motion", "カメラ00", "cam0", "cam1", "cam2"]);
        assert_eq!(s.clips[1].frame_rate, 60.0);
        assert_eq!(s.clips[0].frame_count, 31);
        assert_eq!(
            s.skeleton.joints.iter().map(|j| j.name.as_str()).collect::<Vec<_>>(),
            ["センター", "右足ＩＫ", "頭"]
        );
        assert!(!s.skeleton.has_bind_pose);
        assert!(s.is_animation_only());
        let ClipData::Keyed { tracks } = &s.clips[0].data else { panic!() };
        assert_eq!(tracks.len(), 3, "stage 0 only by default");
        assert_eq!(tracks[1].translation.iter().map(|k| k.time).collect::<Vec<_>>(), [0.0, 10.0 / 30.0], "sorted");
        assert_eq!(s.clips[0].morphs.len(), 2);

        // Cameras: the minor-3 one with its cut, and three more at minor 0-2 with lifted properties.
        assert_eq!(s.cameras.len(), 4);
        let c = &s.cameras[0];
        assert_eq!((c.name.as_str(), c.clip.as_deref()), ("カメラ", Some("カメラ00")));
        assert_eq!(c.keys.len(), 3, "stage 1 is listed, not played");
        assert_eq!(m.objects[1].cameras[0].stages[1].name.as_deref(), Some("カメラ layer"));
        assert_eq!(c.properties.len(), 2);
        assert!(!c.view_at(2.0).unwrap().perspective);
        let c0 = &s.cameras[1];
        assert_eq!(c0.properties.iter().map(|p| p.perspective).collect::<Vec<_>>(), [true, false]);
        assert_eq!(s.cameras[2].properties.len(), 3, "minor 1 inline properties plus a CameraProperty key");
        assert_eq!(s.cameras[3].properties.len(), 1);
    }
}

#[test]
fn odd_length_utf16_is_refused() {
    let d = MvdDocument::new(MvdEncoding::Utf16Le);
    let mut b = d.to_bytes();
    b.extend(3i32.to_le_bytes());
    b.extend([0x41, 0, 0x42]);
    let e = err(&b);
    assert!(e.contains("@35") && e.contains("object name: 3 bytes of UTF-16LE: expected an even length"), "{e}");
}

#[test]
fn bad_utf16_and_utf8_decode_lossily_with_a_warning() {
    for (enc, bad) in [(MvdEncoding::Utf16Le, vec![0x00, 0xD8]), (MvdEncoding::Utf8, vec![0xFF])] {
        let mut d = one_bone(vec![]);
        d.encoding_byte = if enc == MvdEncoding::Utf8 { 1 } else { 0 };
        let mut b = d.to_bytes();
        // Replace the object name "m" with the bad bytes.
        let name_len = if enc == MvdEncoding::Utf8 { 1 } else { 2 };
        let mut patched = b[..35].to_vec();
        patched.extend((bad.len() as i32).to_le_bytes());
        patched.extend(&bad);
        patched.extend(&b[39 + name_len..]);
        b = patched;
        let s = read("t.mvd", &b).unwrap();
        assert!(s.clips[0].name.contains('\u{FFFD}'));
        assert!(rules(&s)[0].starts_with("mvd.string"), "{:?}", rules(&s));
    }
}

#[test]
fn version_and_encoding_policy() {
    let mut d = one_bone(vec![]);
    d.version = 1.5;
    d.encoding_byte = 7;
    let s = load(&d);
    assert_eq!(rules(&s), ["mvd.version", "mvd.encoding"]);
    d.version = 2.0;
    assert!(err(&d.to_bytes()).contains("version 2: expected 1.0"));
    assert!(err(b"Motion Vector Data fil").contains("signature"));
    assert!(!sniff(b"Motion Vector Data files"));
}

#[test]
fn bone_item_sizes_stride_and_minimums() {
    let f = vec![
        BoneFrame::new(0, [1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 1.0]),
        BoneFrame::new(5, [0.0; 3], [0.0, 0.0, 0.0, 1.0]),
    ];
    for (minor, size) in [(0, None), (0, Some(70)), (1, None), (2, Some(100))] {
        let mut sec = bone(minor, f.clone());
        if let Section::Bone { item_size, .. } = &mut sec {
            *item_size = size;
        }
        let s = load(&one_bone(vec![sec]));
        let ClipData::Keyed { tracks } = &s.clips[0].data else { panic!() };
        assert_eq!(tracks[0].translation[0].value, glam::Vec3::new(1.0, 2.0, 3.0), "minor {minor} size {size:?}");
        assert_eq!(tracks[0].translation[1].time, 5.0 / 30.0);
    }
    let mut sec = bone(1, f);
    if let Section::Bone { item_size, .. } = &mut sec {
        *item_size = Some(56);
    }
    let e = err(&one_bone(vec![sec]).to_bytes());
    assert!(e.contains("bone section (tag 16, minor 1, key 0)") && e.contains("expected at least 57 B"), "{e}");
}

#[test]
fn duplicate_negative_and_unsorted_times() {
    let id = [0.0, 0.0, 0.0, 1.0];
    let s = load(&one_bone(vec![bone(
        2,
        vec![BoneFrame::new(10, [1.0; 3], id), BoneFrame::new(-5, [2.0; 3], id), BoneFrame::new(10, [3.0; 3], id)],
    )]));
    assert_eq!(rules(&s), ["mvd.key.order", "mvd.key.duplicate"]);
    let ClipData::Keyed { tracks } = &s.clips[0].data else { panic!() };
    let keys: Vec<(f32, f32)> = tracks[0].translation.iter().map(|k| (k.time * 30.0, k.value.x)).collect();
    assert_eq!(keys, [(-5.0, 2.0), (10.0, 3.0)], "negative kept, sorted, later duplicate wins");
}

#[test]
fn model_property_sizes() {
    let mp = |minor, mmm_bug| Section::ModelProperty {
        minor,
        ik_bones: vec![0],
        relations: 2,
        mmm_bug,
        frames: vec![write::ModelPropertyFrame {
            time: 3,
            visible: true,
            edge_width: 1.0,
            scale: 2.0,
            ik_enabled: vec![false],
            relations: vec![],
        }],
    };
    for minor in 0..4 {
        for bug in [false, true] {
            if minor == 0 && bug {
                continue;
            }
            let s = load(&one_bone(vec![mp(minor, bug)]));
            assert_eq!(s.mvd.as_ref().unwrap().objects[0].model_property_keys, 1, "minor {minor} bug {bug}");
            assert!(rules(&s).is_empty(), "{:?}", s.meta.warnings);
        }
    }
}

#[test]
fn unknown_tags_are_skipped_only_onto_a_known_tag() {
    let raw = |tag| Section::Raw { tag, minor: 0, key: 0, item_size: 3, count: 2, ext: vec![1; 5], items: vec![0; 6] };
    let s = load(&one_bone(vec![raw(200), bone(0, vec![])]));
    assert_eq!(rules(&s), ["mvd.section.unknown"]);
    let e = err(&one_bone(vec![raw(200), raw(201)]).to_bytes());
    assert!(e.contains("after skipping unknown section tag 200") && e.contains("found 201"), "{e}");
}

#[test]
fn counts_that_the_data_cannot_hold_are_errors_naming_the_section() {
    for (count, item_size) in [(i32::MAX, 56), (3, 56), (-1, 56), (1, -4), (i32::MAX, i32::MAX)] {
        let sec = Section::Raw { tag: 16, minor: 0, key: 0, item_size, count, ext: vec![], items: vec![0; 56] };
        let e = err(&one_bone(vec![sec]).to_bytes());
        assert!(e.contains("bone section (tag 16, minor 0, key 0)") && e.contains("object \"m\""), "{e}");
    }
    let sec = Section::Raw { tag: 0, minor: 0, key: 0, item_size: 0, count: 1_000_000, ext: vec![], items: vec![] };
    let e = err(&one_bone(vec![sec]).to_bytes());
    assert!(e.contains("name_list section") && e.contains("1000000 items of 8 B"), "{e}");
    // MotionClip: the wrong itemSize is ignored, the counts are not.
    let sec = Section::MotionClip { item_size: -77, parent_clip: 0, time_warp: vec![vec![[0.0; 2]; 3]] };
    assert_eq!(load(&one_bone(vec![sec])).mvd.unwrap().objects[0].motion_clips[0].time_warp_points.len(), 3);
}

#[test]
fn missing_eof_and_trailing_bytes() {
    let mut d = one_bone(vec![bone(0, vec![])]);
    d.objects[0].eof = false;
    let b = d.to_bytes();
    let e = err(&b);
    assert!(e.contains(&format!("@{}", b.len())) && e.contains("before the object's EOF marker"), "{e}");
    let mut d = one_bone(vec![]);
    d.trailing = vec![0];
    assert_eq!(rules(&load(&d)), ["mvd.trailing"]);
    d.trailing = vec![0, 0];
    assert!(err(&d.to_bytes()).contains("object name"));
}

#[test]
fn bad_key_fps_falls_back() {
    let mut d = one_bone(vec![bone(0, vec![BoneFrame::new(60, [0.0; 3], [0.0, 0.0, 0.0, 1.0])])]);
    d.objects[0].key_fps = 0.0;
    let s = load(&d);
    assert_eq!(rules(&s), ["mvd.key_fps"]);
    assert_eq!(s.clips[0].frame_rate, FALLBACK_FPS);
}

#[test]
fn mmd_curve_bytes_become_easings() {
    assert!(easing(LINEAR).is_linear());
    assert_eq!(easing([0, 127, 255, 127]), Easing { x1: 0.0, y1: 1.0, x2: 1.0, y2: 1.0 }, "bytes clamp to 127");
    // x1 + x2 = 1 puts u = 0.5 at s = 0.5 (x(½) = ⅜(x1 + x2) + ⅛), so y(½) = ⅜(y1 + y2) + ⅛:
    // ease-in (0,0,127,0): 0.125; ease-out (0,127,127,127): 0.875.
    assert!((easing([0, 0, 127, 0]).weight(0.5) - 0.125).abs() < 1e-6);
    assert!((easing([0, 127, 127, 127]).weight(0.5) - 0.875).abs() < 1e-6);
    // With x1 = 0, x2 = 1, x(s) = 3s² − 2s³ (smoothstep); x(s) = ¼ at s = ½ − sin(asin(½)/3) = 0.326352.
    // Ease-in y(s) = s³ = 0.034758; ease-out y(s) = 1 − (1 − s)³ = 0.694297.
    assert!((easing([0, 0, 127, 0]).weight(0.25) - 0.034758).abs() < 1e-5);
    assert!((easing([0, 127, 127, 127]).weight(0.25) - 0.694297).abs() < 1e-5);
}

#[test]
fn padded_camera_items_stride_by_item_size() {
    use super::write::CameraFrame;
    let frames = vec![
        CameraFrame::new(0, [1.0, 2.0, 3.0], 50.0, [0.0; 3], 0.5),
        CameraFrame { curves: [[0, 0, 127, 0]; 4], ..CameraFrame::new(10, [0.0; 3], 40.0, [0.0; 3], 0.5) },
    ];
    for (minor, size) in [(0, 70), (1, 80), (2, 64), (3, 100)] {
        let mut d = MvdDocument::new(MvdEncoding::Utf8);
        let mut o = Object::new("c", 30.0);
        o.sections.push(Section::Camera {
            minor,
            key: 0,
            stage_count: 1,
            item_size: Some(size),
            frames: frames.clone(),
        });
        d.objects.push(o);
        let s = load(&d);
        let k = &s.cameras[0].keys;
        assert_eq!(k[1].distance, 40.0, "minor {minor}");
        assert_eq!(k[0].ease[0], easing([0, 0, 127, 0]), "the later key's curve eases the segment, minor {minor}");
        assert_eq!(s.cameras[0].name, "#0");
        assert_eq!(rules(&s), ["mvd.name.missing"]);
    }
}

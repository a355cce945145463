//! Files from the test-support writer, read back section by section.

use glam::Vec3;

use super::layout::{EFFECT_BOOL, EFFECT_FLOAT, EFFECT_INT, EFFECT_STRING};
use super::write::{
    AccessoryFrame, BoneFrame, EffectFrame, LINEAR, LightFrame, MvdDocument, Object, ProjectFrame, Section,
    property_document, sample_document,
};
use super::*;
use crate::scene::{ClipData, Easing, MvdEffectValue, MvdEncoding};

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
                ("accessory_property", 0, true),
                ("effect_property", 0, true),
                ("light", 0, true),
                ("project", 1, true),
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
        assert_eq!(o.other_keys, 2, "the filter's keys");
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

#[test]
fn light_project_accessory_and_effect_keys_read_back_in_both_encodings() {
    for enc in [MvdEncoding::Utf16Le, MvdEncoding::Utf8] {
        let s = load(&sample_document(enc));
        let o = &s.mvd.as_ref().unwrap().objects[0];
        let lights: Vec<_> = o.lights.iter().map(|k| (k.time, k.position, k.color, k.enabled)).collect();
        assert_eq!(lights, [(0, [-0.5, -1.0, 0.5], [154; 3], true), (20, [1.0, -1.0, 0.0], [255, 0, 51], false)]);
        let project: Vec<_> = o
            .project
            .iter()
            .map(|k| (k.time, k.gravity, k.gravity_vector, k.shadow_model, k.shadow_distance, k.shadow_depth))
            .collect();
        assert_eq!(
            project,
            [
                (0, Some(0.98), Some([0.0, -1.0, 0.0]), 1, 8875.0, Some(1.0)),
                (15, Some(1.96), Some([1.0, 0.0, 0.0]), 0, 1.0, Some(1.0)),
            ]
        );
        // Accessory keys, written out of order, come sorted.
        let acc: Vec<_> = o
            .accessory
            .iter()
            .map(|k| (k.time, k.visible, k.shadow, k.add_blend, k.scale, k.alpha, k.related_model, k.related_bone))
            .collect();
        assert_eq!(
            acc,
            [(0, false, false, true, 1.0, 0.25, -1, -1), (10, true, true, false, 2.0, 1.0, 0, 2)],
            "{enc:?}"
        );
        assert_eq!(o.effects.len(), 1);
        let e = &o.effects[0];
        let params: Vec<_> = e.parameters.iter().map(|p| (p.key, p.name.as_str(), p.kind)).collect();
        assert_eq!(
            params,
            [
                (100, "param", EFFECT_FLOAT),
                (101, "色", EFFECT_FLOAT + 2),
                (102, "on", EFFECT_BOOL),
                (103, "回数", EFFECT_INT)
            ]
        );
        assert_eq!((e.keys.len(), e.keys[0].head.alpha), (1, 0.5));
        assert_eq!(
            e.keys[0].values,
            [
                MvdEffectValue::Floats(vec![0.5]),
                MvdEffectValue::Floats(vec![1.0, 0.5, 0.25]),
                MvdEffectValue::Bool(true),
                MvdEffectValue::Int(-3),
            ]
        );

        // The format-neutral light track: colour bytes / 255, direction as keyed, the off switch, the
        // self-shadow keys from the project keys.
        assert_eq!(s.lights.len(), 1);
        let l = &s.lights[0];
        assert_eq!(l.name, "ミク motion");
        assert_eq!(l.keys[1].time, 20.0 / 30.0);
        assert_eq!(l.keys[1].light.color, Vec3::new(1.0, 0.0, 0.2));
        assert_eq!(l.keys[1].light.direction, Vec3::new(1.0, -1.0, 0.0));
        assert!(l.light_at(0.1).is_some() && l.light_at(1.0).is_none(), "switched off at tick 20");
        let shadows: Vec<_> = l.shadows.iter().map(|k| (k.time, k.mode, k.distance)).collect();
        assert_eq!(shadows, [(0.0, 1, 8875.0), (0.5, 0, 1.0)]);

        // Gravity: 0.98 down is MikuMikuDance's 98 units/s²; from tick 15, 1.96 along +X. Every clip carries it.
        for c in &s.clips {
            assert_eq!(c.gravity_at(0.4), Some(Vec3::new(0.0, -98.0, 0.0)), "clip {}", c.name);
            assert_eq!(c.gravity_at(0.5), Some(Vec3::new(196.0, 0.0, 0.0)));
        }
    }
}

/// An object "p" holding `sections`, UTF-8.
fn props(sections: Vec<Section>) -> MvdDocument {
    let mut d = MvdDocument::new(MvdEncoding::Utf8);
    let mut o = Object::new("p", 30.0);
    o.sections.push(Section::NameList(vec![(1, "x".into()), (2, "y".into())]));
    o.sections.extend(sections);
    d.objects.push(o);
    d
}

/// One key of each new section kind with the given item size (`None`: the layout's).
fn property_sections(size: impl Fn(i32) -> Option<i32>, project_minor: u8) -> Vec<Section> {
    let project_natural = if project_minor >= 1 { 36 } else { 20 };
    vec![
        Section::Light {
            minor: 0,
            item_size: size(24),
            frames: vec![LightFrame::new(3, [0.0, -1.0, 0.0], [10, 20, 30])],
        },
        Section::Accessory {
            minor: 0,
            item_size: size(28),
            frames: vec![AccessoryFrame { alpha: 0.5, ..AccessoryFrame::new(3) }],
        },
        Section::Effect {
            minor: 0,
            item_size: size(28 + 4 + 1),
            parameters: vec![(1, EFFECT_INT), (2, EFFECT_BOOL)],
            frames: vec![EffectFrame {
                head: AccessoryFrame::new(3),
                values: vec![MvdEffectValue::Int(7), MvdEffectValue::Bool(true)],
            }],
        },
        Section::Project {
            minor: project_minor,
            item_size: size(project_natural),
            frames: vec![ProjectFrame { shadow_distance: 5.0, ..ProjectFrame::new(3) }],
        },
    ]
}

#[test]
fn oversized_property_items_are_read_with_a_warning() {
    for minor in [0, 1] {
        let s = load(&props(property_sections(|n| Some(n + 8), minor)));
        assert_eq!(rules(&s), ["mvd.section.size"; 4], "{:?}", s.meta.warnings);
        assert!(s.meta.warnings[0].message.contains("itemSize 32 B: the layout takes 24 B"), "{:?}", s.meta.warnings);
        let o = &s.mvd.as_ref().unwrap().objects[0];
        assert_eq!(o.lights[0].color, [10, 20, 30]);
        assert_eq!(o.accessory[0].alpha, 0.5);
        assert_eq!(o.effects[0].keys[0].values, [MvdEffectValue::Int(7), MvdEffectValue::Bool(true)]);
        assert_eq!((o.project[0].shadow_distance, o.project[0].shadow_depth), (5.0, Some(1.0)));
        assert_eq!(o.project[0].gravity.is_some(), minor == 1);
        // The layout's own sizes read without a word; a minor-0 project key without its depth too.
        let exact = load(&props(property_sections(|_| None, minor)));
        assert!(rules(&exact).is_empty(), "{:?}", exact.meta.warnings);
    }
    let short =
        load(&props(vec![Section::Project { minor: 0, item_size: Some(16), frames: vec![ProjectFrame::new(0)] }]));
    assert!(rules(&short).is_empty());
    assert_eq!(short.mvd.as_ref().unwrap().objects[0].project[0].shadow_depth, None);
}

#[test]
fn undersized_property_items_are_errors_naming_the_offset_and_section() {
    let cases = [
        (0, "light section (tag 112, minor 0, key 0)", 24),
        (1, "accessory_property section (tag 80, minor 0, key 0)", 28),
        (2, "effect_property section (tag 88, minor 0, key 0)", 33),
        (3, "project section (tag 128, minor 1, key 0)", 36),
    ];
    for (i, what, need) in cases {
        let mut sections = property_sections(|_| None, 1);
        let at = props(sections[..i].to_vec()).to_bytes().len() - 2;
        let mut bad = property_sections(|n| Some(n - 1), 1);
        sections[i] = bad.swap_remove(i);
        let e = err(&props(sections).to_bytes());
        assert!(e.contains(&format!("{what} @{at}")) && e.contains(&format!("expected at least {need} B")), "{e}");
    }
    let e =
        err(&props(vec![Section::Project { minor: 0, item_size: Some(15), frames: vec![ProjectFrame::new(0)] }])
            .to_bytes());
    assert!(e.contains("project section (tag 128, minor 0") && e.contains("expected at least 16 B"), "{e}");
}

#[test]
fn newer_minors_and_unsized_effect_parameters_warn() {
    let mut sections = property_sections(|_| None, 2);
    if let Section::Light { minor, .. } = &mut sections[0] {
        *minor = 1;
    }
    let s = load(&props(sections));
    assert_eq!(rules(&s), ["mvd.minor", "mvd.minor"], "{:?}", s.meta.warnings);
    assert_eq!(s.mvd.as_ref().unwrap().objects[0].lights[0].color, [10, 20, 30], "minor 1 read as 0");

    // A string parameter has no known size: the values before it are read, it and the later ones are not, and
    // the larger itemSize is no surprise.
    let effect = Section::Effect {
        minor: 0,
        item_size: Some(28 + 4 + 16),
        parameters: vec![(1, EFFECT_FLOAT), (2, EFFECT_STRING), (1, EFFECT_INT)],
        frames: vec![EffectFrame { head: AccessoryFrame::new(0), values: vec![MvdEffectValue::Floats(vec![2.5])] }],
    };
    let s = load(&props(vec![effect]));
    assert_eq!(rules(&s), ["mvd.effect.parameter"]);
    assert!(s.meta.warnings[0].message.contains("parameter 1 (name key 2) has type 3 (string)"));
    assert_eq!(s.mvd.as_ref().unwrap().objects[0].effects[0].keys[0].values, [MvdEffectValue::Floats(vec![2.5])]);

    // A parameter count the ext can't hold is an error.
    let raw = Section::Raw { tag: 88, minor: 0, key: 0, item_size: 28, count: 0, ext: vec![9, 0, 0, 0], items: vec![] };
    let e = err(&props(vec![raw]).to_bytes());
    assert!(e.contains("effect_property section (tag 88") && e.contains("parameterCount 9: expected 0 to 0"), "{e}");
}

#[test]
fn gravity_needs_a_direction_and_minor_1() {
    let key = |t, g, v| ProjectFrame { gravity: g, gravity_vector: v, ..ProjectFrame::new(t) };
    let frames = vec![key(0, 0.98, [0.0, -2.0, 0.0]), key(30, 0.98, [0.0; 3]), key(60, f32::NAN, [0.0, -1.0, 0.0])];
    let s = load(&props(vec![Section::Project { minor: 1, item_size: None, frames: frames.clone() }]));
    let g: Vec<_> = s.clips[0].gravity.iter().map(|k| (k.time, k.value)).collect();
    assert_eq!(
        g,
        [(0.0, Vec3::new(0.0, -98.0, 0.0))],
        "the vector normalised; keys with no direction or no number left out"
    );
    let s = load(&props(vec![Section::Project { minor: 0, item_size: None, frames }]));
    assert!(s.clips[0].gravity.is_empty(), "minor 0 has no gravity");
    assert_eq!(s.lights[0].shadows.len(), 3, "but self-shadow keys");
}

#[test]
fn padded_short_and_newer_property_sections_read_back_in_both_encodings() {
    for enc in [MvdEncoding::Utf16Le, MvdEncoding::Utf8] {
        let s = load(&property_document(enc));
        let r = rules(&s);
        assert_eq!(
            r,
            ["mvd.minor", "mvd.section.size", "mvd.section.size", "mvd.section.size", "mvd.effect.parameter"],
            "{:?}",
            s.meta.warnings
        );
        let o = &s.mvd.as_ref().unwrap().objects[0];
        assert_eq!(o.name, "小物");
        assert_eq!(o.lights.iter().map(|k| k.color).collect::<Vec<_>>(), [[255; 3], [0; 3]]);
        let depth: Vec<_> = o.project.iter().map(|k| (k.time, k.gravity.is_some(), k.shadow_depth)).collect();
        assert_eq!(depth, [(0, false, None), (0, true, Some(1.0)), (45, true, Some(1.0))]);
        assert_eq!(o.accessory.iter().map(|k| k.visible).collect::<Vec<_>>(), [true, false]);
        let e = &o.effects[0];
        assert_eq!(e.parameters.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["強さ", "テクスチャ"]);
        assert_eq!(e.keys[0].values, [MvdEffectValue::Floats(vec![0.25, 0.75])]);
        let g: Vec<_> = s.clips[0].gravity.iter().map(|k| (k.time, k.value)).collect();
        assert_eq!(g, [(0.0, Vec3::new(0.0, -98.0, 0.0)), (1.5, Vec3::new(0.0, 98.0, 0.0))]);
        assert_eq!(s.clips[0].frame_count, 61, "the accessory's last key");
    }
}

//! Poses from the test-support writer, read back; errors name the line.

use glam::{Quat, Vec3};

use super::write::{VpdDocument, sample_document};
use super::*;
use crate::anim::Pose;
use crate::error::Location;
use crate::scene::ClipData;

fn load(d: &VpdDocument) -> Scene {
    read("p.vpd", &d.to_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn sample_pose_reads_back_in_both_encodings() {
    for utf8 in [false, true] {
        let d = VpdDocument { utf8, ..sample_document() };
        let s = load(&d);
        assert_eq!(s.meta.format, crate::scene::Format::Vpd);
        let info = s.vpd.as_ref().unwrap();
        assert_eq!((info.model_file.as_str(), info.declared_bones, info.utf8), ("miku.osm", 3, utf8));
        assert_eq!(info.bones, ["センター", "右腕", "左ひじ"]);
        assert_eq!(info.morphs, ["まばたき", "あ"]);
        let clip = &s.clips[0];
        assert_eq!((clip.name.as_str(), clip.frame_count), ("miku", 1));
        let ClipData::Keyed { tracks } = &clip.data else { panic!() };
        for (t, (_, p, q)) in tracks.iter().zip(&d.bones) {
            assert_eq!(t.translation[0].value, Vec3::from(*p));
            assert!(t.rotation[0].value.abs_diff_eq(Quat::from_array(*q).normalize(), 1e-6));
        }
        assert_eq!(clip.morphs[1].keys[0].value, 0.25);
        // The third quaternion has length 1/√2: normalised with a warning naming its block's line.
        let w = s.meta.warnings.iter().find(|w| w.rule == "vpd.bone.quaternion").expect("warned");
        assert_eq!(w.location, Location::Line(16));
        // Posed on a skeleton of those names at any frame, the pose holds.
        let pose = Pose::sample(&s.skeleton, clip, 0.0, 30.0);
        assert_eq!(pose.locals[0].translation, Vec3::new(0.0, 1.5, -0.25));
    }
}

#[test]
fn errors_name_the_line() {
    let cases: [(&str, u64, &str); 6] = [
        ("Vocaloid Pose Data fil\r\n", 1, "expected the header"),
        ("Vocaloid Pose Data file\n\nm.osm\n", 3, "model file name ending in ';'"),
        ("Vocaloid Pose Data file\nm.osm;\nx;\n", 3, "bone count"),
        ("Vocaloid Pose Data file\nm.osm;\n1;\nBone0{a\n0,0;\n", 5, "translation x,y,z (3 numbers"),
        ("Vocaloid Pose Data file\nm.osm;\n1;\nBone0{a\n0,0,0;\n0,0,0,one;\n}\n", 6, "\"one\" is not a number"),
        ("Vocaloid Pose Data file\nm.osm;\n1;\nBone0{a\n0,0,0;\n0,0,0,1;\n", 6, "the file ends here: expected '}'"),
    ];
    for (text, line, what) in cases {
        let e = read("e.vpd", text.as_bytes()).unwrap_err();
        assert_eq!(e.location, Location::Line(line), "{e}");
        assert!(e.to_string().starts_with(&format!("e.vpd:{line}: ")) && e.message.contains(what), "{e}");
    }
    let e = read("e.vpd", b"Vocaloid Pose Data file\nm.osm;\n0;\nFace0{a\n").unwrap_err();
    assert!(e.message.contains("expected a block \"BoneN{name\""), "{e}");
}

#[test]
fn counts_duplicates_and_comments() {
    let mut d = sample_document();
    d.declared_bones = Some(7);
    d.bones.push(("センター".into(), [9.0, 9.0, 9.0], [0.0, 0.0, 0.0, 1.0]));
    let s = load(&d);
    let rules: Vec<_> = s.meta.warnings.iter().map(|w| w.rule).collect();
    assert!(rules.contains(&"vpd.bone.count") && rules.contains(&"vpd.bone.duplicate"), "{rules:?}");
    let ClipData::Keyed { tracks } = &s.clips[0].data else { panic!() };
    assert_eq!(tracks.len(), 3);
    assert_eq!(tracks[0].translation[0].value, Vec3::splat(9.0));
    // A file with nothing after the bone count is an empty pose named after the pose file.
    let s = read("dir/empty.vpd", b"Vocaloid Pose Data file\r\n;\r\n0; // none\r\n").unwrap();
    assert_eq!(s.clips[0].name, "empty");
}

#[test]
fn every_prefix_loads_or_names_a_line() {
    let bytes = sample_document().to_bytes();
    for cut in 0..bytes.len() {
        if let Err(e) = read("p.vpd", &bytes[..cut]) {
            assert!(matches!(e.location, Location::Line(_)), "{e}");
        }
    }
}

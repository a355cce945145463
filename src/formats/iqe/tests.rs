//! Parser-level tests on small inline files.

use glam::{Vec3, Vec4};

use super::{read, sniff};
use crate::error::{LoadError, Location};
use crate::scene::{ClipData, Scene};

fn load(text: &str) -> Scene {
    read("a.iqe", text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn fail(text: &str) -> LoadError {
    read("a.iqe", text.as_bytes()).expect_err("should fail")
}

fn rules(s: &Scene) -> Vec<&'static str> {
    s.meta.warnings.iter().map(|w| w.rule).collect()
}

const QUAD: &str = "vp 0 0 0\nvp 1 0 0\nvp 1 1 0\nvp 0 1 0\n";

#[test]
fn header_rules() {
    assert!(sniff(b"# Inter-Quake Export\n"));
    assert!(sniff(b"\n  \r\n  # Inter-Quake Export  \r\n"));
    assert!(sniff(b"\xEF\xBB\xBF# Inter-Quake Export"));
    assert!(!sniff(b"# Inter-Quake Model\n"));
    assert!(!sniff(b"vp 0 0 0\n# Inter-Quake Export\n"));
    let e = fail("vp 0 0 0\n");
    assert_eq!(e.location, Location::Line(1));
    assert!(e.message.contains("# Inter-Quake Export"), "{}", e.message);
    let e = crate::formats::load_bytes("x.iqe", b"hello").unwrap_err();
    assert_eq!(e.to_string(), "x.iqe:1: not an IQE file: the first line must be \"# Inter-Quake Export\"");
    // By content, whatever the name.
    assert!(crate::formats::load_bytes("x.bin", b"# Inter-Quake Export\n").is_ok());
}

#[test]
fn crlf_comments_and_non_utf8() {
    let s = load(
        "# Inter-Quake Export\r\n# a comment\r\nmesh \"m\u{e9}\"\r\nvp 0 0 0\r\nvp 1 0 0 # trailing\r\nvp 0 1 0\r\nfa 0 1 2\r\n",
    );
    assert_eq!(s.triangles.len(), 1);
    let bytes = b"# Inter-Quake Export\nmesh \"\xff\xfe\"\nmaterial \xff\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\n";
    let s = read("a.iqe", bytes).unwrap();
    assert_eq!(s.meshes.len(), 1);
    assert!(s.meshes[0].name.contains('\u{FFFD}'));
}

#[test]
fn long_lines() {
    let mut text = String::from("# Inter-Quake Export\n");
    text.push_str(QUAD);
    text.push_str("fa 0 1 2");
    for _ in 0..2000 {
        text.push_str(" 3");
    }
    text.push('\n');
    let s = load(&text);
    assert_eq!(s.triangles.len(), 2001, "one triangle per index after the second");
}

#[test]
fn vertex_attribute_defaults() {
    let s = load(
        "# Inter-Quake Export\nvp 1\nvt\nvn 0 0 1\nvc 0.5\nv3 7\nvp\nvt 1 2\nvn 0 0 1\nvc 1 1 1 0.5\nv3 1 2 3 4\nvp\nvt\nvn 0 0 1\nvc\nv3\n",
    );
    let v = &s.vertices;
    assert_eq!(v.positions[0], Vec3::X);
    assert_eq!(v.texcoords.as_ref().unwrap()[1].to_array(), [1.0, 2.0]);
    let c = v.colors.as_ref().unwrap();
    assert_eq!(c[0], Vec4::new(0.5, 0.0, 0.0, 1.0));
    assert_eq!(c[1], Vec4::new(1.0, 1.0, 1.0, 0.5));
    assert_eq!(v.custom.len(), 1);
    assert_eq!(v.custom[0].name, "custom3");
    assert_eq!(v.custom[0].components, 4);
    assert_eq!(&v.custom[0].data[..8], &[7.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn vx_sign_form_and_bitangent_form() {
    let s = load(
        "# Inter-Quake Export\nvp 0 0 0\nvn 0 0 1\nvx 1 0 0 -1\nvp 1 0 0\nvn 0 0 1\nvx 1 0 0\nvp 0 1 0\nvn 0 0 1\nvx 1 0 0 0 1 0\nvp 1 1 0\nvn 0 0 1\nvx 1 0 0 0 -1 0\nfa 0 1 2\nfa 1 3 2\n",
    );
    let t = s.vertices.tangents.as_ref().unwrap();
    assert_eq!(t[0], Vec4::new(1.0, 0.0, 0.0, -1.0));
    assert_eq!(t[1].w, 1.0, "XYZ only: right-handed");
    // cross(n, t) = Z × X = Y: bitangent +Y is w = +1, -Y is w = -1.
    assert_eq!(t[2], Vec4::new(1.0, 0.0, 0.0, 1.0));
    assert_eq!(t[3], Vec4::new(1.0, 0.0, 0.0, -1.0));
}

#[test]
fn vb_keeps_largest_four_renormalised() {
    let s = load(
        "# Inter-Quake Export\njoint a\njoint b 0\njoint c 1\njoint d 2\njoint e 3\nvp 0 0 0\nvb 0 0.1 1 0.3 2 0.05 3 0.2 4 0.25\nvp\nvb\nvp\nvb 2 1\n",
    );
    let j = s.vertices.joints.as_ref().unwrap();
    let w = s.vertices.weights.as_ref().unwrap();
    assert_eq!(j[0], [1, 4, 3, 0]);
    assert!((w[0].iter().sum::<f32>() - 1.0).abs() < 1e-6);
    assert!((w[0][0] - 0.3 / 0.85).abs() < 1e-6);
    assert_eq!(w[1], [0.0; 4]);
    assert_eq!((j[2], w[2]), ([2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]));
    assert!(rules(&s).contains(&"iqe.vb.empty"), "{:?}", rules(&s));
}

#[test]
fn vb_joint_out_of_range_is_an_error() {
    let e = fail("# Inter-Quake Export\njoint a\nvp\nvb 0 1\nvp\nvb 3 1\n");
    assert_eq!(e.location, Location::Line(6));
    assert!(e.message.contains("joint 3, only 1 joints"), "{}", e.message);
}

#[test]
fn vertexarray_declarations() {
    let s = load(
        "# Inter-Quake Export\nvertexarray Position float 3\nvertexarray custom2 ushort 2 \"wind\"\nvertexarray texcoord quad 2\nvertexarray bogus float 2\nvertexarray normal float 9\nvertexarray custom2 float 4\nvp\nv2 0.5 0.25 9 9\n",
    );
    let a = &s.meta.source_arrays;
    assert_eq!(a.len(), 6);
    assert_eq!((a[0].kind.as_str(), a[0].format.as_str(), a[0].size, a[0].ignored), ("position", "float", 3, false));
    assert_eq!((a[1].kind.as_str(), a[1].format.as_str(), a[1].size), ("wind", "ushort", 2));
    assert!(a[2].ignored && a[3].ignored && a[4].ignored && a[5].ignored);
    let r = rules(&s);
    assert_eq!(r.iter().filter(|r| **r == "iqe.vertexarray.unknown").count(), 3, "{r:?}");
    assert!(r.contains(&"iqe.vertexarray.duplicate"));
    let c = &s.vertices.custom[0];
    assert_eq!((c.name.as_str(), c.components, c.data.as_slice()), ("wind", 2, &[0.5, 0.25][..]));
}

#[test]
fn fa_fm_negative_and_fans() {
    // Two meshes of 4 vertices; fm is relative to the mesh's first vertex, negatives count back from the last vp.
    let s = load(&format!(
        "# Inter-Quake Export\nmesh a\n{QUAD}fm 0 1 2 3\nmesh b\n{QUAD}fm 0 1 2\nfa 4 6 7\nfa -4 -2 -1\nfm -1 -2 -3\n"
    ));
    assert_eq!(s.meshes.len(), 2);
    assert_eq!(s.triangles[..2], [[0, 1, 2], [0, 2, 3]], "fan from the first index, winding kept");
    assert_eq!(s.triangles[2..], [[4, 5, 6], [4, 6, 7], [4, 6, 7], [7, 6, 5]]);
}

#[test]
fn short_face_is_skipped_with_warning() {
    let s = load(&format!("# Inter-Quake Export\n{QUAD}fa 0 1\nfa 0 1 2\n"));
    assert_eq!(s.triangles.len(), 1);
    assert_eq!(s.meta.warnings[0].rule, "iqe.face.short");
    assert_eq!(s.meta.warnings[0].location, Location::Line(6));
}

#[test]
fn face_index_out_of_range_names_the_line() {
    let e = fail(&format!("# Inter-Quake Export\n{QUAD}fa 0 1 2\nfa 0 1 140\n"));
    assert_eq!(e.to_string(), "a.iqe:7: face index 140, only 4 vertices");
    let e = fail(&format!("# Inter-Quake Export\n{QUAD}fa 0 1 -5\n"));
    assert_eq!(e.location, Location::Line(6));
    let e = fail(&format!("# Inter-Quake Export\n{QUAD}fa 0 1 4000000000\n"));
    assert_eq!(e.location, Location::Line(6));
    let e = fail(&format!("# Inter-Quake Export\n{QUAD}fa 0 1 x\n"));
    assert!(e.message.contains("integer face index"), "{}", e.message);
}

#[test]
fn faces_may_come_before_their_vertices() {
    let s = load(&format!("# Inter-Quake Export\nfa 0 1 2\n{QUAD}"));
    assert_eq!(s.triangles, [[0, 1, 2]]);
}

#[test]
fn array_length_mismatch_names_the_vertex() {
    let e = fail("# Inter-Quake Export\nvp\nvn 0 0 1\nvp\nvp\nvn 0 0 1\n");
    assert_eq!(e.to_string(), "a.iqe:5: 2 vn for 3 vp: this vp (vertex 2) has no vn");
    let e = fail("# Inter-Quake Export\nvp\nvt\nvt\n");
    assert_eq!(e.location, Location::Line(4));
    assert!(e.message.starts_with("2 vt for 1 vp"));
}

#[test]
fn garbage_numbers_are_errors_with_lines() {
    let e = fail("# Inter-Quake Export\nvp 1 two 3\n");
    assert_eq!(e.to_string(), "a.iqe:2: vp: expected a number, found \"two\"");
    let e = fail("# Inter-Quake Export\nvp 1 nan 3\n");
    assert!(e.message.contains("finite"));
    let e = fail("# Inter-Quake Export\nvp 1 1e99 3\n");
    assert!(e.message.contains("finite"));
}

#[test]
fn unknown_commands_warn() {
    let s = load("# Inter-Quake Export\nbogus 1 2\nvp\n");
    assert_eq!(s.meta.warnings[0].rule, "iqe.command.unknown");
    assert_eq!(s.meta.warnings[0].location, Location::Line(2));
    // A flood is summarised.
    let text = format!("# Inter-Quake Export\n{}", "zz\n".repeat(100));
    let s = load(&text);
    assert_eq!(s.meta.warnings.len(), 21);
    assert!(s.meta.warnings[20].message.contains("80 more"));
}

#[test]
fn comment_takes_the_rest_verbatim() {
    let s = load("# Inter-Quake Export\nvp\ncomment\nfree text\nvp 1 2 3\n# not a comment line\n");
    assert_eq!(s.meta.comment.as_deref(), Some("free text\nvp 1 2 3\n# not a comment line\n"));
    assert_eq!(s.vertices.len(), 1, "nothing after comment is parsed");
}

#[test]
fn joints_poses_and_parents() {
    let s = load("# Inter-Quake Export\njoint root\njoint \"arm bone\" 0\npq 1 2 3 0 0 0 1\npa 0 0 1 0 0 0\n");
    assert_eq!(s.skeleton.joints[1].name, "arm bone");
    assert_eq!(s.skeleton.joints[1].parent, Some(0));
    assert!(s.skeleton.has_bind_pose);
    assert!(s.skeleton.bind_world[1].w_axis.truncate().abs_diff_eq(Vec3::new(1.0, 2.0, 4.0), 1e-6));
    let e = fail("# Inter-Quake Export\njoint a\njoint b 1\n");
    assert_eq!(e.location, Location::Line(3));
    assert!(e.message.contains("parent 1 does not precede it"), "{}", e.message);
    let s = load("# Inter-Quake Export\njoint a\njoint b 0\npq 0 0 0 0 0 0\n");
    assert!(rules(&s).contains(&"iqe.pose.missing"));
    assert_eq!(s.skeleton.joints[1].bind, crate::scene::Transform::IDENTITY);
}

#[test]
fn animations_frames_and_defaults() {
    let s = load(
        "# Inter-Quake Export\njoint a\njoint b 0\npq 0 0 0 0 0 0\npq 0 0 1 0 0 0\n\
         animation\nframerate -5\npq 1 0 0 0 0 0\npq 1 0 1 0 0 0\nframe\nframe 7\npq 2 0 0 0 0 0\nframe\n\
         animation \"walk\"\nloop\nframerate 24\nframe\npq 3 0 0 0 0 0\npq 3 0 0 0 0 0\npq 9 9 9 0 0 0\n\
         animation\nframe\n\
         animation\npq 4 0 0 0 0 0\npq 4 0 0 0 0 0\n",
    );
    let c: Vec<_> = s.clips.iter().map(|c| (c.name.as_str(), c.frame_count, c.first_frame, c.looping)).collect();
    assert_eq!(c, [("anim1", 2, 0, false), ("walk", 1, 2, true), ("anim4", 1, 3, false)]);
    assert_eq!(s.clips[0].frame_rate, 0.0);
    assert_eq!(s.clips[1].frame_rate, 24.0);
    let ClipData::Sampled { joints, frames } = &s.clips[0].data else { panic!() };
    assert_eq!(*joints, 2);
    // Frame 1 is short: joint b comes from the base pose.
    assert_eq!(frames[2].translation, Vec3::new(2.0, 0.0, 0.0));
    assert_eq!(frames[3].translation, Vec3::new(0.0, 0.0, 1.0));
    let r = rules(&s);
    for rule in ["iqe.frame.short", "iqe.frame.long", "iqe.animation.empty", "iqe.framerate.zero"] {
        assert!(r.contains(&rule), "{rule} missing from {r:?}");
    }
}

#[test]
fn animation_only_file_has_named_joints() {
    let s = load("# Inter-Quake Export\njoint a\njoint b 0\nanimation run\nframe\npq 0 0 0 0 0 0\npq 0 0 1 0 0 0\n");
    assert!(s.is_animation_only());
    assert!(s.skeleton.is_named());
}

#[test]
fn poses_without_joints_make_unnamed_roots() {
    let s = load("# Inter-Quake Export\nanimation\npq 0 0 0 0 0 0\npq 0 0 1 0 0 0\nframe\npq 0 0 0 0 0 0\n");
    assert_eq!(s.skeleton.len(), 2);
    assert!(!s.skeleton.has_bind_pose && !s.skeleton.is_named());
    assert!(rules(&s).contains(&"iqe.poses.unnamed"));
}

#[test]
fn huge_animation_from_tiny_file_is_refused() {
    let mut text = String::from("# Inter-Quake Export\n");
    for i in 0..3000 {
        text.push_str(&format!("joint j{i}\n"));
    }
    text.push_str("animation\n");
    text.push_str(&"frame\npq\n".repeat(20000));
    let e = fail(&text);
    assert!(e.message.contains("refusing"), "{}", e.message);
    assert!(matches!(e.location, Location::Line(_)));
}

#[test]
fn materials_follow_the_iqm_convention() {
    let s = load(&format!(
        "# Inter-Quake Export\nmesh a\nmaterial skin.png\n{QUAD}fm 0 1 2\nmesh b\nmaterial \"\"\nfa 0 1 2\n"
    ));
    assert_eq!(s.materials.len(), 2);
    assert_eq!(s.materials[0].texture.as_deref(), Some("skin.png"));
    assert_eq!(s.materials[1].texture, None);
    assert_eq!(s.meshes[1].material, 1);
}

//! Unit tests for the RSM reader: versions, layouts and every tolerance of the note's §2.

use glam::Vec3;

use super::write::{Face, Node, RsmDocument};
use crate::scene::{Format, RsmLayout, Scene, UpAxis};

/// A one-node, one-triangle file of any version.
fn triangle(major: u8, minor: u8) -> RsmDocument {
    let mut d = RsmDocument::new(major, minor);
    d.textures = vec![b"tex\\a.bmp".to_vec()];
    d.main_node = b"n".to_vec();
    d.roots = vec![b"n".to_vec()];
    let mut n = Node::new("n", "");
    n.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
    n.tex_vertices = vec![(0, [0.0, 0.0]), (0, [1.0, 0.0]), (0, [0.0, 1.0])];
    n.faces = vec![Face::new([0, 1, 2], [0, 1, 2])];
    if major == 2 && minor >= 3 {
        n.texture_names = vec![b"tex\\a.bmp".to_vec()];
    }
    d.nodes = vec![n];
    d
}

fn load(d: &RsmDocument) -> Scene {
    crate::load_bytes("t.rsm", &d.to_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn rules(s: &Scene) -> Vec<&'static str> {
    s.meta.warnings.iter().map(|w| w.rule).collect()
}

#[test]
fn every_version_reads_back() {
    for (major, minor) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3)] {
        let s = load(&triangle(major, minor));
        assert_eq!(s.meta.version, format!("{major}.{minor}"));
        assert_eq!(s.meta.format, if major == 1 { Format::Rsm } else { Format::Rsm2 });
        assert_eq!(s.up, if major == 1 { UpAxis::NegY } else { UpAxis::YLeftHanded });
        assert_eq!((s.triangles.len(), s.skeleton.len(), s.meshes.len()), (1, 1, 1), "{major}.{minor}");
        assert!(rules(&s).is_empty(), "{major}.{minor}: {:?}", s.meta.warnings);
        let rsm = s.rsm.as_ref().unwrap();
        assert_eq!(rsm.layout, RsmLayout::B);
        assert_eq!(s.materials[s.meshes[0].material].texture.as_deref(), Some("tex\\a.bmp"));
        assert_eq!(s.vertices.file_vertex_count(), 3);
        assert!(s.clips.is_empty());
    }
}

#[test]
fn rsm1_face_normals_point_out_of_the_ccw_side() {
    // (v1−v0)×(v2−v0) = X × Z = −Y in file space.
    let s = load(&triangle(1, 4));
    for n in s.vertices.normals.as_ref().unwrap() {
        assert!(n.abs_diff_eq(-Vec3::Y, 1e-6), "{n}");
    }
}

#[test]
fn layout_1_5_extra_bytes_in_either_place() {
    let mut d = triangle(1, 5);
    assert_eq!(load(&d).rsm.unwrap().layout, RsmLayout::B);
    d.layout = RsmLayout::BExtraBeforeBlock;
    d.model_keys = vec![(0, [1.0, 2.0, 3.0], 4.0)];
    d.extra_1_5 = [0, 0, 0, 0];
    let s = load(&d);
    assert_eq!(s.rsm.as_ref().unwrap().layout, RsmLayout::BExtraBeforeBlock);
    assert!(rules(&s).contains(&"rsm.model_keys"));
}

#[test]
fn a_file_only_fjs_reads_is_read_with_fjs() {
    let mut d = triangle(1, 5);
    d.layout = RsmLayout::Fjs;
    d.nodes[0].pos_keys = vec![(0, [1.0, 2.0, 3.0])];
    let bytes = d.to_bytes();
    assert!(super::parse::parse(&bytes, RsmLayout::B).is_err());
    let s = crate::load_bytes("f.rsm", &bytes).unwrap();
    assert_eq!(s.rsm.as_ref().unwrap().layout, RsmLayout::Fjs);
    assert!(rules(&s).contains(&"rsm.layout.fjs"));
    assert_eq!(s.rsm.as_ref().unwrap().nodes[0].position_keys, 1);
    // Below 1.5 both layouts agree while the model-level block is empty: layout B is reported.
    let mut d = triangle(1, 4);
    d.layout = RsmLayout::Fjs;
    assert_eq!(load(&d).rsm.unwrap().layout, RsmLayout::B);
    // …and FJS 16-byte model-level keys read only with FJS.
    d.model_keys = vec![(0, [0.0; 3], 0.0)];
    assert_eq!(load(&d).rsm.unwrap().layout, RsmLayout::Fjs);
}

#[test]
fn names_cut_at_nul_and_decode_cp949() {
    let mut d = triangle(1, 4);
    d.main_node = b"n\0s_j_07.bmp".to_vec();
    d.textures = vec![b"a.bmp\0garbage".to_vec()];
    // "아인브로크" in CP949.
    let korean: &[u8] = &[0xBE, 0xC6, 0xC0, 0xCE, 0xBA, 0xEA, 0xB7, 0xCE, 0xC5, 0xA9];
    d.nodes[0].name = [b"n\0junk" as &[u8]].concat();
    d.nodes[0].parent = [korean, b"\0x"].concat();
    let s = load(&d);
    assert_eq!(s.materials[0].name, "a.bmp");
    assert_eq!(s.skeleton.joints[0].name, "n");
    assert_eq!(s.rsm.as_ref().unwrap().nodes[0].parent_name, "아인브로크");
    assert!(rules(&s).contains(&"rsm.node.parent_unknown"));
    assert!(!rules(&s).contains(&"rsm.main_node"));
}

#[test]
fn face_padding_and_texture_vertex_colour_are_ignored() {
    let mut d = triangle(1, 4);
    d.nodes[0].faces[0].pad = 0xBEEF;
    d.nodes[0].faces[0].two_sided = 1;
    d.nodes[0].tex_vertices[1].0 = 0x12345678;
    let s = load(&d);
    assert!(s.vertices.colors.is_none(), "colour ignored: drawn white");
    assert!(rules(&s).is_empty());
    assert_eq!(s.rsm.as_ref().unwrap().two_sided, vec![true]);
}

#[test]
fn materials_two_sided_meshes_and_uv_animation_for_the_renderer() {
    use crate::scene::{AlphaMode, TextureSearch, UvChannelKind};
    // One-sided and two-sided faces of one slot become two meshes, the two-sided one marked.
    let mut d = triangle(2, 3);
    let n = &mut d.nodes[0];
    n.faces.push(Face::new([0, 2, 1], [0, 2, 1]));
    n.faces[1].two_sided = 1;
    n.uv_animations = vec![(0, vec![(0, vec![(0, 0.0), (30, 1.0)]), (4, vec![(15, 0.5)])])];
    d.fps = 30.0;
    d.anim_len = 60;
    let s = load(&d);
    assert_eq!(s.meshes.len(), 2);
    assert_eq!((s.meshes[0].two_sided, s.meshes[1].two_sided), (false, true));
    assert_eq!(s.meshes[1].name, "n (two-sided)");
    let m = &s.materials[s.meshes[0].material];
    assert_eq!((m.search, m.color_key, m.alpha, m.lit), (TextureSearch::DataTexture, true, AlphaMode::Blend, true));
    // Slot 0's channels on both of its meshes, key frames in seconds at 30 fps.
    for mesh in &s.meshes {
        let uv = mesh.uv_animation.as_ref().expect("animated UVs");
        assert_eq!(uv.channels.len(), 2);
        assert_eq!(uv.channels[0].kind, UvChannelKind::TranslateU);
        assert_eq!(uv.channels[0].keys, vec![(0.0, 0.0), (1.0, 1.0)]);
        assert_eq!(uv.channels[1].kind, UvChannelKind::Rotate);
    }
    // UV animation alone gives the clip its time.
    assert_eq!(s.clips.len(), 1);
    assert!((s.clips[0].duration(24.0) - 2.0).abs() < 1e-4);

    // shadeType 0 draws unlit.
    let mut d = triangle(1, 4);
    d.shade_type = 0;
    let s = load(&d);
    assert!(!s.materials[0].lit);
}

#[test]
fn trailing_bytes_warn() {
    let mut d = triangle(1, 4);
    d.trailing = vec![0x0A];
    let s = load(&d);
    assert_eq!(rules(&s), ["rsm.trailing"]);
}

#[test]
fn main_node_matching_none_uses_node_0_and_self_parent_is_root() {
    let mut d = triangle(1, 4);
    d.main_node = b"nobody".to_vec();
    d.nodes[0].parent = b"n".to_vec();
    let s = load(&d);
    assert_eq!(rules(&s), ["rsm.main_node"]);
    assert_eq!(s.skeleton.joints[0].parent, None);
}

#[test]
fn duplicate_names_keep_nodes_and_parents_take_the_first_other() {
    let mut d = triangle(1, 4);
    let mut a = d.nodes[0].clone();
    a.parent = b"n".to_vec();
    d.nodes.push(a.clone());
    a.name = b"c".to_vec();
    d.nodes.push(a);
    let s = load(&d);
    let rsm = s.rsm.as_ref().unwrap();
    assert_eq!(rsm.nodes.len(), 3);
    assert_eq!(rsm.nodes[0].parent, None);
    assert_eq!(rsm.nodes[1].parent, None, "parent equal to its own name: a root");
    assert_eq!(rsm.nodes[2].parent, Some(0), "the first node with the name");
    assert!(rules(&s).contains(&"rsm.node.duplicate_name"));
}

#[test]
fn parent_cycles_are_broken() {
    let mut d = triangle(1, 4);
    d.nodes[0].name = b"a".to_vec();
    d.nodes[0].parent = b"b".to_vec();
    let mut b = d.nodes[0].clone();
    b.name = b"b".to_vec();
    b.parent = b"a".to_vec();
    d.nodes.push(b);
    d.main_node = b"a".to_vec();
    let s = load(&d);
    assert!(rules(&s).contains(&"rsm.node.parent_cycle"));
    assert_eq!(s.skeleton.joints.iter().filter(|j| j.parent.is_none()).count(), 1);
}

#[test]
fn static_model_with_anim_len_has_no_clip_and_negative_key_frames_load() {
    let mut d = triangle(1, 4);
    d.anim_len = 32000;
    assert!(load(&d).clips.is_empty());
    d.nodes[0].rot_keys = vec![(-160, [0.0, 0.0, 0.0, 1.0]), (1000, [0.0, 0.0, 0.0, 1.0])];
    let s = load(&d);
    assert_eq!(s.clips.len(), 1);
    assert_eq!((s.clips[0].frame_rate, s.clips[0].frame_count), (1000.0, 32000));
    let crate::scene::ClipData::Keyed { tracks } = &s.clips[0].data else { panic!() };
    assert_eq!(tracks[0].rotation[0].time, -0.16);
}

#[test]
fn rsm2_2_3_may_end_before_the_volume_box_count() {
    let mut d = triangle(2, 3);
    d.volume_box_count = false;
    let s = load(&d);
    assert!(rules(&s).is_empty(), "{:?}", s.meta.warnings);
    assert!(s.rsm.unwrap().volume_boxes.is_empty());
    let bytes = triangle(2, 2).to_bytes();
    let e = crate::load_bytes("t.rsm2", &bytes[..bytes.len() - 4]).unwrap_err();
    assert!(e.to_string().contains("volume box count"), "{e}");
}

#[test]
fn errors_name_offset_field_and_expectation() {
    let mut bytes = triangle(1, 4).to_bytes();
    // The texture count at 31 (6 + 4 + 4 + 1 + 16): a huge count can't allocate.
    bytes[31..35].copy_from_slice(&i32::MAX.to_le_bytes());
    let e = crate::load_bytes("t.rsm", &bytes).unwrap_err();
    assert_eq!(e.location, crate::error::Location::Offset(31));
    assert!(e.message.contains("texture count 2147483647: expected at most"), "{e}");
    bytes[31..35].copy_from_slice(&(-1i32).to_le_bytes());
    let e = crate::load_bytes("t.rsm", &bytes).unwrap_err();
    assert!(e.message.contains("expected 0 or more"), "{e}");
    let e = crate::load_bytes("t.rsm", b"GRSM\x01\x09").unwrap_err();
    assert!(e.message.contains("version 1.9: expected"), "{e}");
    let e = crate::load_bytes("t.rsm", b"XXXX\x01\x04").unwrap_err();
    assert!(e.message.contains("expected \"GRSM\""), "{e}");
}

#[test]
fn bad_indices_warn_and_never_panic() {
    let mut d = triangle(1, 4);
    d.nodes[0].faces.push(Face { texture: 9, ..Face::new([0, 1, 2], [0, 1, 7]) });
    d.nodes[0].faces.push(Face::new([0, 1, 70], [0, 1, 2]));
    d.nodes[0].texture_indices = vec![0, 5];
    let s = load(&d);
    let r = rules(&s);
    for rule in ["rsm.face.vertex_index", "rsm.face.texcoord_index", "rsm.face.texture_slot", "rsm.node.texture_index"]
    {
        assert!(r.contains(&rule), "{rule}: {r:?}");
    }
    assert_eq!(s.triangles.len(), 2);
}

#[test]
fn smooth_normals_sum_per_group_and_vertex_index() {
    // Two faces sharing an edge, folded 90°: same group → averaged normals on the shared vertices.
    let mut d = triangle(1, 4);
    let n = &mut d.nodes[0];
    n.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]];
    n.faces = vec![Face::new([0, 1, 2], [0, 1, 2]), Face::new([0, 3, 1], [0, 1, 2])];
    let s = load(&d);
    let normals = s.vertices.normals.as_ref().unwrap();
    let src = s.vertices.source.as_ref().unwrap();
    let shared = (0..normals.len()).find(|&i| src[i] == 0).unwrap();
    let expect = (-Vec3::Y + -Vec3::Z).normalize();
    assert!(normals[shared].abs_diff_eq(expect, 1e-5), "{}", normals[shared]);
    // Different groups: flat.
    d.nodes[0].faces[1].groups = vec![2];
    let s = load(&d);
    let normals = s.vertices.normals.as_ref().unwrap();
    assert!(normals.iter().all(|n| n.abs_diff_eq(-Vec3::Y, 1e-5) || n.abs_diff_eq(-Vec3::Z, 1e-5)));
}

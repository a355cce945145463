//! Files written with the record-level RSM writer, read back: values, rest pose, centring and poses at given
//! times, worked by hand; the `pose` command on them; and every prefix of every written file.

use std::process::Command;

use glam::{Mat4, Vec3};
use rigscope::anim::{Pose, skin_positions};
use rigscope::formats::rsm::write::{Face, Node, RsmDocument};
use rigscope::scene::{RsmLayout, Scene};

const S45: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// RSM 1.5, layout B: node 0 "child" (listed before its parent) under node 1 "root". The root turns about Y
/// from 0° (0 ms) to 90° (1000 ms); the child has the 3ds Max pivot matrix (x,y,z) → (x,−z,y) and an offset.
fn animated_1_5() -> RsmDocument {
    let mut d = RsmDocument::new(1, 5);
    d.anim_len = 2000;
    d.textures = vec![b"a.bmp".to_vec()];
    d.main_node = b"root".to_vec();
    let mut child = Node::new("child", "root");
    child.m3 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0];
    child.offset = [0.0, 0.5, 0.0];
    child.pos = [2.0, 0.0, 0.0];
    child.vertices = vec![[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]];
    child.tex_vertices = vec![(0, [0.0, 0.0]), (0, [1.0, 0.0]), (0, [0.0, 1.0])];
    child.faces = vec![Face::new([0, 1, 2], [0, 1, 2])];
    let mut root = Node::new("root", "");
    root.vertices = vec![[-1.0, 0.0, -1.0], [1.0, 0.0, -1.0], [0.0, -2.0, 1.0]];
    root.tex_vertices = child.tex_vertices.clone();
    root.faces = vec![Face::new([0, 1, 2], [0, 1, 2])];
    root.rot_keys = vec![(0, [0.0, 0.0, 0.0, 1.0]), (1000, [0.0, S45, 0.0, S45])];
    d.nodes = vec![child, root];
    d
}

/// RSM2 2.3 at 10 fps, 20 frames: root "r" moves (0→10 on X), grows (1→3) and turns about Z (0→90°) over
/// frames 0–10 and scrolls its texture's U; child "c" sits at (0,1,0).
fn animated_2_3() -> RsmDocument {
    let mut d = RsmDocument::new(2, 3);
    d.anim_len = 20;
    d.fps = 10.0;
    d.shade_type = 0;
    d.roots = vec![b"r".to_vec()];
    let mut r = Node::new("r", "");
    r.texture_names = vec![b"a.tga".to_vec()];
    r.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    r.tex_vertices = vec![(0, [0.0, 0.0]), (0, [1.0, 0.0]), (0, [0.0, 1.0])];
    r.faces = vec![Face { groups: vec![1, 2], ..Face::new([0, 1, 2], [0, 1, 2]) }];
    r.pos_keys = vec![(0, [0.0; 3]), (10, [10.0, 0.0, 0.0])];
    r.scale_keys = vec![(0, [1.0; 3], 0.0), (10, [3.0; 3], 0.0)];
    r.rot_keys = vec![(0, [0.0, 0.0, 0.0, 1.0]), (10, [0.0, 0.0, S45, S45])];
    r.uv_animations = vec![(0, vec![(0, vec![(0, 0.0), (10, 1.0)])])];
    let mut c = Node::new("c", "r");
    c.texture_names = vec![b"a.tga".to_vec()];
    c.pos = [0.0, 1.0, 0.0];
    c.vertices = vec![[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
    c.tex_vertices = r.tex_vertices.clone();
    c.faces = vec![Face::new([0, 1, 2], [0, 1, 2])];
    d.nodes = vec![r, c];
    d
}

fn load(d: &RsmDocument, name: &str) -> Scene {
    rigscope::load_bytes(name, &d.to_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// The pose at `seconds`, and the skinned file vertices in file order.
fn at(s: &Scene, seconds: f32) -> (Pose, Vec<Vec3>) {
    let clip = &s.clips[0];
    let pose = Pose::sample(&s.skeleton, clip, clip.frame_at_time(seconds, 24.0), 24.0);
    let skinned = skin_positions(&s.vertices, &pose.palette);
    let v = s.vertices.per_file_vertex(&skinned);
    (pose, v)
}

fn near(a: Vec3, b: [f32; 3]) -> bool {
    a.abs_diff_eq(Vec3::from(b), 1e-4)
}

fn node_world(s: &Scene, pose: &Pose, node: usize) -> Mat4 {
    pose.world[s.rsm.as_ref().unwrap().nodes[node].joint]
}

#[test]
fn animated_1_5_reads_back_with_hand_worked_poses() {
    let s = load(&animated_1_5(), "a.rsm");
    let rsm = s.rsm.as_ref().unwrap();
    assert_eq!(rsm.layout, RsmLayout::B);
    assert!(s.meta.warnings.is_empty(), "{:?}", s.meta.warnings);
    // Parents-first skeleton: the root (file node 1) is joint 0.
    assert_eq!(rsm.node_of_joint, [1, 0]);
    assert_eq!((rsm.nodes[0].parent, rsm.nodes[1].parent), (Some(1), None));
    assert_eq!(s.skeleton.joints[1].parent, Some(0));
    // Rest box (−1,−2,−1)…(3,0.5,1): C = T(−1, −0.5, 0).
    assert!(near(rsm.centring, [-1.0, -0.5, 0.0]), "{}", rsm.centring);
    let bind = s.vertices.per_file_vertex(&s.vertices.positions);
    let expect_bind =
        [[1.0, 0.0, 0.0], [1.0, -1.0, 0.0], [2.0, 0.0, 0.0], [-2.0, -0.5, -1.0], [0.0, -0.5, -1.0], [-1.0, -2.5, 1.0]];
    for (g, e) in bind.iter().zip(expect_bind) {
        assert!(near(*g, e), "bind {g} expected {e:?}");
    }
    // Timeline: ms at 1000 "frames" per second, looping over animLen.
    let clip = &s.clips[0];
    assert_eq!((clip.frame_rate, clip.frame_count, clip.looping), (1000.0, 2000, true));

    // 0.5 s: root at 45° about Y. Child origin C + R45·(2,0,0).
    let (pose, v) = at(&s, 0.5);
    let child = node_world(&s, &pose, 0).w_axis.truncate();
    assert!(near(child, [-1.0 + 2.0 * S45, -0.5, -2.0 * S45]), "{child}");
    assert!(near(v[0], [-1.0 + 2.0 * S45, 0.0, -2.0 * S45]), "{}", v[0]);
    assert!(near(v[5], [-1.0 + S45, -2.5, S45]), "{}", v[5]);
    // 1.5 s: past the last key, held at 90°: R90·(x,y,z) = (z, y, −x).
    let (pose, v) = at(&s, 1.5);
    assert!(near(node_world(&s, &pose, 0).w_axis.truncate(), [-1.0, -0.5, -2.0]));
    assert!(near(v[5], [0.0, -2.5, 0.0]), "{}", v[5]);
    // 2.5 s wraps to 0.5 s.
    let (_, v2) = at(&s, 2.5);
    let (_, v1) = at(&s, 0.5);
    assert!(v1.iter().zip(&v2).all(|(a, b)| a.abs_diff_eq(*b, 1e-4)));
}

#[test]
fn animated_2_3_reads_back_with_hand_worked_poses() {
    let s = load(&animated_2_3(), "a.rsm2");
    let rsm = s.rsm.as_ref().unwrap();
    assert!(s.meta.warnings.is_empty(), "{:?}", s.meta.warnings);
    assert_eq!((rsm.fps, rsm.anim_len, rsm.shade_type), (Some(10.0), 20, 0));
    assert_eq!(rsm.centring, Vec3::ZERO, "RSM2 is not centred");
    assert_eq!(rsm.uv_animations.len(), 1);
    let uv = &rsm.uv_animations[0];
    assert_eq!((uv.node, uv.texture_slot, uv.kind, uv.keys.clone()), (0, 0, 0, vec![(0, 0.0), (10, 1.0)]));
    assert_eq!(s.materials.len(), 1, "both nodes share a.tga");
    let clip = &s.clips[0];
    assert_eq!((clip.frame_rate, clip.frame_count), (10.0, 20));
    let bind = s.vertices.per_file_vertex(&s.vertices.positions);
    assert!(near(bind[3], [1.0, 1.0, 0.0]) && near(bind[5], [0.0, 1.0, 1.0]));

    // Frame 5: root T(5,0,0)·R45z·S(2); child origin (5,0,0) + R45·(0,2,0).
    let (pose, v) = at(&s, 0.5);
    assert!(near(node_world(&s, &pose, 1).w_axis.truncate(), [5.0 - 2.0 * S45, 2.0 * S45, 0.0]));
    assert!(near(v[3], [5.0, 4.0 * S45, 0.0]), "{}", v[3]);
    assert!(near(v[1], [5.0 + 2.0 * S45, 2.0 * S45, 0.0]), "{}", v[1]);
    // Frame 10 and past it (held): root T(10,0,0)·R90z·S(3); child origin (10,0,0) + R90·(0,3,0) = (7,0,0).
    for t in [1.0, 1.5] {
        let (pose, _) = at(&s, t);
        assert!(near(node_world(&s, &pose, 1).w_axis.truncate(), [7.0, 0.0, 0.0]), "{t}");
    }
}

#[test]
fn rsm_1_6_scale_keys_and_2_2_roots() {
    let mut d = RsmDocument::new(1, 6);
    d.anim_len = 1000;
    d.main_node = b"n".to_vec();
    d.textures = vec![b"t.bmp".to_vec()];
    let mut n = Node::new("n", "");
    n.vertices = vec![[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
    n.tex_vertices = vec![(0, [0.0, 0.0])];
    n.faces = vec![Face::new([0, 1, 2], [0, 0, 0])];
    n.scale_keys = vec![(0, [1.0; 3], 0.0), (1000, [2.0; 3], 0.0)];
    d.nodes = vec![n];
    let s = load(&d, "s.rsm");
    let (pose, _) = at(&s, 0.5);
    let scale = pose.world[0].to_scale_rotation_translation().0;
    assert!(near(scale, [1.5; 3]), "{scale}");

    let mut d = RsmDocument::new(2, 2);
    d.textures = vec![b"t.bmp".to_vec()];
    d.roots = vec![b"a".to_vec(), b"b".to_vec()];
    let mut a = Node::new("a", "");
    a.vertices = vec![[0.0; 3]];
    let mut b = a.clone();
    b.name = b"b".to_vec();
    b.pos = [5.0, 0.0, 0.0];
    d.nodes = vec![a, b];
    let s = load(&d, "r.rsm2");
    assert_eq!(s.skeleton.joints.iter().filter(|j| j.parent.is_none()).count(), 2);
    assert!(near(s.vertices.positions[1], [5.0, 0.0, 0.0]));
}

#[test]
fn pose_lists_nodes_in_file_order_in_native_coordinates() {
    let dir = std::env::temp_dir().join(format!("rigscope-rsm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("anim.rsm");
    std::fs::write(&file, animated_1_5().to_bytes()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["pose", file.to_str().unwrap(), "--time", "0.5", "--vertices"])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let joints = v["joints"].as_array().unwrap();
    assert_eq!(joints[0]["name"], "child");
    assert_eq!(joints[0]["parent"], 1);
    assert_eq!(joints[1]["parent"], -1);
    assert_eq!(v["frame"], 500.0);
    let w: Vec<f32> = joints[0]["world"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
    assert!(near(Vec3::new(w[12], w[13], w[14]), [-1.0 + 2.0 * S45, -0.5, -2.0 * S45]));
    let verts = v["vertices"].as_array().unwrap();
    assert_eq!(verts.len(), 6);
    let v0: Vec<f32> = verts[0].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
    assert!(near(Vec3::new(v0[0], v0[1], v0[2]), [-1.0 + 2.0 * S45, 0.0, -2.0 * S45]));
}

#[test]
fn every_prefix_of_every_written_file_loads_or_fails_clearly() {
    let mut docs = vec![animated_1_5(), animated_2_3()];
    for (major, minor) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 6), (2, 2)] {
        let mut d = animated_1_5();
        if major == 2 {
            d = animated_2_3();
        }
        d.major = major;
        d.minor = minor;
        docs.push(d);
    }
    let mut fjs = animated_1_5();
    fjs.layout = RsmLayout::Fjs;
    fjs.nodes[1].pos_keys = vec![(0, [0.0; 3])];
    docs.push(fjs);
    for (i, d) in docs.iter().enumerate() {
        let data = d.to_bytes();
        rigscope::load_bytes("w.rsm", &data).unwrap_or_else(|e| panic!("doc {i}: {e}"));
        for k in 0..data.len() {
            if let Err(e) = rigscope::load_bytes("w.rsm", &data[..k]) {
                assert!(!e.message.is_empty(), "doc {i} [..{k}]");
            }
        }
    }
}

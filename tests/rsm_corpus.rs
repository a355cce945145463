//! Every corpus RSM/RSM2 loads with the facts of the RSM note §7, and no prefix of any of them panics.

mod common;

use common::{corpus, corpus_files, read};
use glam::Vec3;
use rigscope::scene::{FrameBounds, RsmLayout};

#[test]
fn every_corpus_file_loads() {
    for p in corpus_files("rsm", &["rsm", "rsm2"]) {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let s = rigscope::load_path(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rsm = s.rsm.as_ref().unwrap_or_else(|| panic!("{name}: no RSM facts"));
        let expect_layout = if name == "raglite_v0105.rsm" { RsmLayout::BExtraBeforeBlock } else { RsmLayout::B };
        assert_eq!(rsm.layout, expect_layout, "{name}");
        let trailing: Vec<_> = s.meta.warnings.iter().filter(|w| w.rule == "rsm.trailing").collect();
        assert_eq!(trailing.len(), usize::from(name == "missing.rsm"), "{name}: {:?}", s.meta.warnings);
        assert!(!s.skeleton.is_empty(), "{name}");
        assert_eq!(s.vertices.file_vertex_count(), rsm.nodes.iter().map(|n| n.vertices).sum::<usize>(), "{name}");
    }
    let missing = rigscope::load_path(&corpus("rsm/missing.rsm")).unwrap();
    let w = &missing.meta.warnings[0];
    assert_eq!(w.location, rigscope::Location::Offset(1207));
    assert!(w.message.contains("1 trailing byte"), "{}", w.message);
}

#[test]
fn node_and_face_counts_from_the_note() {
    for (name, nodes, verts, faces) in [
        ("multi_node_a.rsm", 3, 475, 631),
        ("multi_node_b.rsm", 4, 233, 336),
        ("multi_node_c.rsm", 3, 226, 214),
        ("coin_j_01.rsm", 1, 5, 4),
        ("missing.rsm", 1, 12, 14),
        ("box_error_01.rsm", 1, 8, 12),
    ] {
        let s = rigscope::load_path(&corpus(&format!("rsm/{name}"))).unwrap();
        let rsm = s.rsm.as_ref().unwrap();
        assert_eq!(rsm.nodes.len(), nodes, "{name}");
        assert_eq!(rsm.nodes.iter().map(|n| n.vertices).sum::<usize>(), verts, "{name}");
        assert_eq!(rsm.nodes.iter().map(|n| n.faces).sum::<usize>(), faces, "{name}");
        assert_eq!(s.triangles.len(), faces, "{name}: every real face is drawn");
        assert!(s.clips.is_empty(), "{name}: static");
    }
    let coin = rigscope::load_path(&corpus("rsm/coin_j_01.rsm")).unwrap();
    assert_eq!(coin.rsm.unwrap().roots, ["coin_j_01"], "main node cut at its NUL");
}

/// Note §7: the ROB/KOR rest-pose box (file space) and the centring C, ±0.01.
#[test]
fn centring_matches_the_note() {
    type Row = (&'static str, [f32; 3], [f32; 3], [f32; 3]);
    let table: [Row; 6] = [
        ("multi_node_a", [-11.63, -22.75, -5.01], [8.88, 0.94, 4.20], [1.38, -0.94, 0.41]),
        ("multi_node_b", [-52.25, -21.43, -3.27], [-36.80, 0.94, 2.94], [44.52, -0.94, 0.16]),
        ("multi_node_c", [-184.74, -17.42, -6.27], [-169.64, 1.06, 8.01], [177.19, -1.06, -0.87]),
        ("coin_j_01", [-12.52, -11.69, 67.29], [28.18, -6.46, 107.99], [-7.83, 6.46, -87.64]),
        ("missing", [-9.93, -8.31, -14.80], [2.78, -0.08, -6.40], [3.58, 0.08, 10.60]),
        ("box_error_01", [-5.0, 95.0, -5.0], [5.0, 105.0, 5.0], [0.0, -105.0, 0.0]),
    ];
    for (name, min, max, c) in table {
        let s = rigscope::load_path(&corpus(&format!("rsm/{name}.rsm"))).unwrap();
        let got = s.rsm.as_ref().unwrap().centring;
        let (min, max, c) = (Vec3::from(min), Vec3::from(max), Vec3::from(c));
        assert!(got.abs_diff_eq(c, 0.01), "{name}: C = {got}, expected {c}");
        let b = FrameBounds::of_points(&s.vertices.positions).unwrap();
        assert!(b.min.abs_diff_eq(min + c, 0.011), "{name}: min {} expected {}", b.min, min + c);
        assert!(b.max.abs_diff_eq(max + c, 0.011), "{name}: max {} expected {}", b.max, max + c);
        assert!(b.max.y.abs() < 1e-3, "{name}: the base (max y, Y-down) sits on y = 0");
    }
}

#[test]
fn synthetic_fixtures_survive_their_traps() {
    let s = rigscope::load_path(&corpus("rsm/raglite_v0202.rsm2")).unwrap();
    let rsm = s.rsm.as_ref().unwrap();
    assert_eq!((rsm.fps, rsm.alpha, rsm.roots.len()), (Some(37.0), Some(252), 2));
    assert_eq!(s.clips[0].frame_rate, 37.0);
    let s = rigscope::load_path(&corpus("rsm/raglite_v0203.rsm2")).unwrap();
    let rsm = s.rsm.as_ref().unwrap();
    assert_eq!(rsm.uv_animations.iter().map(|u| u.kind).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    assert!(rsm.volume_boxes.is_empty());
    for v in ["raglite_v0104.rsm", "raglite_v0105.rsm"] {
        let s = rigscope::load_path(&corpus(&format!("rsm/{v}"))).unwrap();
        let rsm = s.rsm.as_ref().unwrap();
        assert_eq!((rsm.model_keys, rsm.volume_boxes.len()), (2, 2), "{v}");
        let rules: Vec<_> = s.meta.warnings.iter().map(|w| w.rule).collect();
        assert!(rules.contains(&"rsm.keys.unsorted") && rules.contains(&"rsm.keys.quaternion"), "{v}: {rules:?}");
    }
}

#[test]
fn every_prefix_of_every_corpus_file_loads_or_fails_clearly() {
    for p in corpus_files("rsm", &["rsm", "rsm2"]) {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let data = read(&p);
        for k in 0..data.len() {
            match rigscope::load_bytes(&name, &data[..k]) {
                Ok(_) => {}
                Err(e) => assert!(!e.message.is_empty() && e.to_string().contains(&name), "{name}[..{k}]: {e}"),
            }
        }
    }
}

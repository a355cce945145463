//! Regression tests for the reference converter's defects (notes §6) and the face rules, each on a small
//! inline IQE: rigscope follows the spec where `iqm.cpp` does not.

use glam::Vec3;
use rigscope::Location;
use rigscope::Scene;

fn load(text: &str) -> Scene {
    rigscope::load_bytes("a.iqe", text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// Two triangles sharing the edge (0,0,0)-(1,0,0), the second folded `fold` degrees out of the first's plane,
/// so their face normals are `fold` degrees apart.
fn hinge(fold: f32, smoothing: &str) -> String {
    let (s, c) = fold.to_radians().sin_cos();
    format!("# Inter-Quake Export\n{smoothing}\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvp 0 {} {s}\nfa 0 2 1\nfa 0 1 3\n", -c)
}

/// Whether the two triangles got one normal at the shared corner at the origin.
fn smooth_at_origin(s: &Scene) -> bool {
    let n = s.vertices.normals.as_ref().unwrap();
    n[s.triangles[0][0] as usize].abs_diff_eq(n[s.triangles[1][0] as usize], 1e-6)
}

#[test]
fn smoothangle_over_90_is_a_real_angle() {
    // The converter stores abs(cos A): 120° behaves as 60°, so a 100° fold would be faceted.
    let s = load(&hinge(100.0, "smoothangle 120"));
    assert!(smooth_at_origin(&s));
    assert_eq!(s.vertices.len(), 4, "nothing split");
    assert!(s.vertices.source.is_none());
    let s = load(&hinge(100.0, "smoothangle 90"));
    assert!(!smooth_at_origin(&s));
    assert_eq!(s.vertices.len(), 6, "the two shared vertices split");
    assert_eq!(s.vertices.source.as_deref(), Some(&[0, 0, 1, 1, 2, 3][..]));
    assert_eq!(s.vertices.file_vertex_count(), 4);
}

#[test]
fn smoothangle_180_smooths_everything() {
    // The converter's abs(cos 180°) = 1 facets everything.
    for fold in [10.0, 90.0, 170.0] {
        let s = load(&hinge(fold, "smoothangle 180"));
        assert!(smooth_at_origin(&s), "fold {fold}");
        let n = s.vertices.normals.as_ref().unwrap()[0];
        // The area-weighted average of the two unit-area face normals bisects them.
        let (sn, cs) = fold.to_radians().sin_cos();
        let expect = (Vec3::Z + Vec3::new(0.0, sn, cs)).normalize();
        assert!(n.abs_diff_eq(expect, 1e-5), "fold {fold}: {n} vs {expect}");
    }
    let s = load(&hinge(30.0, "smoothangle 0"));
    assert!(!smooth_at_origin(&s), "0 is faceted");
}

#[test]
fn vs_is_honoured() {
    // Corner 0 of each triangle is a different vp at the same position. The converter compares vs by corner
    // number (0..2), so it would weld them whatever vs says.
    let text = |a: i32, b: i32| {
        format!(
            "# Inter-Quake Export\nvp 0 0 0\nvs {a}\nvp 1 0 0\nvs 1\nvp 0 1 0\nvs 2\nvp 0 -1 1\nvs 3\nvp 0 0 0\nvs {b}\n\
             fa 0 2 1\nfa 4 1 3\n"
        )
    };
    let same = load(&text(0, 0));
    let n = same.vertices.normals.as_ref().unwrap();
    assert!(n[0].abs_diff_eq(n[4], 1e-6));
    let diff = load(&text(0, 7));
    let n = diff.vertices.normals.as_ref().unwrap();
    assert!(!n[0].abs_diff_eq(n[4], 1e-3), "{} {}", n[0], n[4]);
    assert!(n[0].abs_diff_eq(Vec3::Z, 1e-6), "vertex 0 keeps its own face's normal");
}

#[test]
fn smoothgroup_and_smoothuv() {
    let s = load(&hinge(30.0, "smoothgroup 1"));
    assert!(smooth_at_origin(&s));
    let text = hinge(30.0, "").replace("fa 0 1 3", "smoothgroup 2\nfa 0 1 3");
    assert!(!smooth_at_origin(&load(&text)), "different groups");
    // smoothuv: vp 0 has one UV, so both corners agree; a second vp at the origin with another UV does not.
    let text = "# Inter-Quake Export\nsmoothuv 1\nvp 0 0 0\nvt 0 0\nvp 1 0 0\nvt 1 0\nvp 0 1 0\nvt 0 1\n\
                vp 0 -1 1\nvt 0 1\nvp 0 0 0\nvt 0.5 0\nfa 0 2 1\nfa 4 1 3\n";
    let s = load(text);
    let n = s.vertices.normals.as_ref().unwrap();
    assert!(!n[0].abs_diff_eq(n[4], 1e-3));
    let s = load(&text.replace("vt 0.5 0", "vt 0 0"));
    let n = s.vertices.normals.as_ref().unwrap();
    assert!(n[0].abs_diff_eq(n[4], 1e-6));
}

#[test]
fn fs_edge_flags() {
    // The shared edge is 0→1 in the first face (its edge from corner index 2 to 0 in `fa 0 2 1` order is
    // 1→0) and 0→1 in the second; flags 0 everywhere facet, a flag on the shared edge of either face smooths.
    let faceted =
        hinge(30.0, "").replace("fa 0 2 1\n", "fa 0 2 1\nfs 0 0 0\n").replace("fa 0 1 3\n", "fa 0 1 3\nfs 0 0 0\n");
    assert!(!smooth_at_origin(&load(&faceted)));
    let smooth = faceted.replacen("fs 0 0 0\n", "fs 0 0 1\n", 1);
    assert!(smooth_at_origin(&load(&smooth)));
}

#[test]
fn repeated_mesh_material_pair_keeps_all_triangles() {
    let s = load(
        "# Inter-Quake Export\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvp 1 1 0\n\
         mesh A\nmaterial m1\nfa 0 1 2\nmesh B\nmaterial m2\nfa 1 3 2\nmesh A\nmaterial m1\nfa 2 1 0\nfa 3 2 1\n",
    );
    assert_eq!(s.triangles.len(), 4);
    let m: Vec<_> = s.meshes.iter().map(|m| (m.name.as_str(), m.first_triangle, m.num_triangles, m.material)).collect();
    assert_eq!(m, [("A", 0, 3, 0), ("B", 3, 1, 1)]);
    assert_eq!(s.triangles[..3], [[0, 1, 2], [2, 1, 0], [3, 2, 1]]);
    assert_eq!(s.materials.len(), 2);
    // Same name, other material: a separate mesh.
    let s = load("# Inter-Quake Export\nvp\nvp\nvp\nmesh A\nmaterial m1\nfa 0 1 2\nmaterial m2\nfa 0 1 2\n");
    assert_eq!(s.meshes.len(), 2);
}

#[test]
fn unknown_vertexarray_format_warns() {
    let s = load("# Inter-Quake Export\nvertexarray position quad 3\nvertexarray position float 3\nvp\nvp\nvp\n");
    let w = &s.meta.warnings[0];
    assert_eq!((w.rule, w.location), ("iqe.vertexarray.unknown", Location::Line(2)));
    assert!(w.message.contains("quad"), "{}", w.message);
    assert!(s.meta.source_arrays[0].ignored && !s.meta.source_arrays[1].ignored);
}

#[test]
fn face_index_out_of_range_is_an_error_naming_the_line() {
    let mut text = String::from("# Inter-Quake Export\n");
    for i in 0..135 {
        text.push_str(&format!("vp {i} 0 0\n"));
    }
    text.push_str("fa 0 1 2\nfa 2 1 140\n");
    let e = rigscope::load_bytes("a.iqe", text.as_bytes()).unwrap_err();
    assert_eq!(e.to_string(), "a.iqe:138: face index 140, only 135 vertices");
}

#[test]
fn no_faces_means_vertex_triples_per_mesh() {
    let s = load(
        "# Inter-Quake Export\nmesh a\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvp 1 1 0\nvp 2 1 0\nvp 1 2 0\n\
         mesh b\nmaterial x\nvp 5 0 0\nvp 6 0 0\nvp 5 1 0\nvp 9 9 9\n",
    );
    assert_eq!(s.triangles, [[0, 1, 2], [3, 4, 5], [6, 7, 8]]);
    let m: Vec<_> = s.meshes.iter().map(|m| (m.name.as_str(), m.num_triangles)).collect();
    assert_eq!(m, [("a", 2), ("b", 1)]);
    assert!(s.meta.warnings.iter().any(|w| w.rule == "iqe.mesh.leftover"));
    assert!(s.vertices.normals.is_some(), "normals generated for the triples");
}

#[test]
fn negative_indices_fm_and_fans() {
    let s = load(
        "# Inter-Quake Export\nmesh a\nvp 0 0 0\nvp 1 0 0\nvp 1 1 0\nmesh b\nvp 0 0 1\nvp 1 0 1\nvp 1 1 1\nvp 0 1 1\n\
         fm 0 1 2 3\nfa 0 1 2\nfa -1 -2 -3\nfm -4 1 -1\n",
    );
    // fm is relative to mesh b's first vertex (3), fa to the file; negatives count back from the last vp (6).
    // Mesh a has no faces, so it makes no mesh: every face belongs to b.
    assert_eq!(s.triangles, [[3, 4, 5], [3, 5, 6], [0, 1, 2], [6, 5, 4], [3, 4, 6]]);
    let m: Vec<_> = s.meshes.iter().map(|m| (m.name.as_str(), m.num_triangles)).collect();
    assert_eq!(m, [("b", 5)]);
}

#[test]
fn comment_is_verbatim() {
    let s = load("# Inter-Quake Export\nvp\ncomment\n  exported by hand\r\nfa 0 0 0\n");
    assert_eq!(s.meta.comment.as_deref(), Some("  exported by hand\r\nfa 0 0 0\n"));
}

#[test]
fn split_vertices_keep_their_file_vertex() {
    // A cube corner: three faces at right angles, faceted at 45°: vp 0 splits in three.
    let s = load(
        "# Inter-Quake Export\nsmoothangle 45\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvp 0 0 1\nvp 7 7 7\n\
         fa 0 2 1\nfa 0 1 3\nfa 0 3 2\n",
    );
    let src = s.vertices.source.as_ref().unwrap();
    assert_eq!(src.iter().filter(|&&v| v == 0).count(), 3);
    assert_eq!(s.vertices.file_vertex_count(), 5, "the unused vp 4 is still listed");
    assert_eq!(*src.last().unwrap(), 4);
    for (i, &v) in src.iter().enumerate() {
        let orig = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z, Vec3::splat(7.0)][v as usize];
        assert_eq!(s.vertices.positions[i], orig);
    }
    // Tangents are generated only with UVs.
    assert!(s.vertices.tangents.is_none());
}

//! The corpus IQEs load with the counts the notes give, and agree with the reference converter's IQM output
//! (`derived/*.iqmtool.iqm`, read with the IQM reader) in skeleton, clips and skinned geometry at every frame.

mod common;

use common::{corpus, read};
use glam::Vec3;
use rigscope::Scene;
use rigscope::anim::{Pose, skin_positions};
use rigscope::scene::{DEFAULT_FPS, Format, FrameBounds, FrontFace, UpAxis};

fn load(rel: &str) -> Scene {
    let p = corpus(rel);
    rigscope::load_bytes(&p.display().to_string(), &read(&p)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn rocket_counts() {
    let s = load("iqm/unv_rocket.iqe");
    assert_eq!(s.meta.format, Format::Iqe);
    assert_eq!((s.up, s.front_face), (UpAxis::Z, FrontFace::Cw));
    assert_eq!(s.vertices.file_vertex_count(), 135);
    assert_eq!(s.vertices.len(), 135, "normals are given: no splitting");
    assert!(s.vertices.source.is_none());
    assert_eq!((s.meshes.len(), s.triangles.len(), s.skeleton.len()), (1, 156, 2));
    assert!(s.clips.is_empty());
    assert!(s.vertices.is_skinned() && s.vertices.tangents.is_some() && s.vertices.texcoords.is_some());
    assert_eq!(s.materials[0].name, "models/missiles/rocket/rocket");
    assert_eq!(s.materials[0].texture.as_deref(), Some("models/missiles/rocket/rocket"));
    let kinds: Vec<_> = s.meta.source_arrays.iter().map(|a| (a.kind.as_str(), a.format.as_str(), a.size)).collect();
    assert_eq!(
        kinds,
        [
            ("position", "float", 3),
            ("texcoord", "float", 2),
            ("normal", "float", 3),
            ("tangent", "float", 4),
            ("blendindexes", "ubyte", 4),
            ("blendweights", "ubyte", 4)
        ]
    );
    assert!(s.meta.warnings.is_empty(), "{:?}", s.meta.warnings);
}

#[test]
fn medistat_counts() {
    let s = load("iqm/unv_medistat.iqe");
    assert_eq!(s.meshes.len(), 14);
    assert_eq!(s.vertices.file_vertex_count(), 1342);
    assert_eq!(s.triangles.len(), 1378);
    assert_eq!(s.skeleton.len(), 31);
    assert!(s.skeleton.is_named() && s.skeleton.has_bind_pose);
    assert_eq!(s.clips.len(), 10);
    assert_eq!(s.clips.iter().map(|c| c.frame_count).sum::<u32>(), 350);
    assert!(s.clips.iter().all(|c| c.frame_rate == 30.0));
    assert_eq!(s.clips.iter().filter(|c| c.looping).count(), 2);
    let last = s.clips.last().unwrap();
    assert_eq!(last.first_frame + last.frame_count, 350);
    assert!(s.meta.warnings.is_empty(), "{:?}", s.meta.warnings);
}

/// Matches each IQE vertex to an unused converter vertex with the same bind position, UV, normal and
/// influences. The converter reorders vertices, so the match is found, not assumed; it is one-to-one, and
/// vertices that agree in everything (a mesh's copy of another's) are interchangeable.
fn correspondence(iqe: &Scene, iqm: &Scene) -> Vec<usize> {
    let key = |s: &Scene, i: usize| {
        let v = &s.vertices;
        let uv = v.texcoords.as_ref().map_or(Vec3::ZERO, |t| t[i].extend(0.0));
        let n = v.normals.as_ref().map_or(Vec3::ZERO, |n| n[i]);
        let mut infl = [0.0f32; 64];
        if let (Some(j), Some(w)) = (&v.joints, &v.weights) {
            for k in 0..4 {
                infl[j[i][k] as usize % 64] += w[i][k];
            }
        }
        (v.positions[i], uv, n, infl)
    };
    let mut used = vec![false; iqm.vertices.len()];
    (0..iqe.vertices.len())
        .map(|i| {
            let (p, uv, n, infl) = key(iqe, i);
            let d = |j| {
                let (q, w, m, jn) = key(iqm, j);
                let dw: f32 = infl.iter().zip(&jn).map(|(a, b)| (a - b).abs()).sum();
                (p - q).length() + (uv - w).length() + (n - m).length() + dw
            };
            let best = (0..iqm.vertices.len()).filter(|&j| !used[j]).min_by(|&a, &b| d(a).total_cmp(&d(b))).unwrap();
            assert!(d(best) < 0.05, "IQE vertex {i} has no converter twin (nearest {best}, distance {})", d(best));
            used[best] = true;
            best
        })
        .collect()
}

/// Largest distance between matched skinned vertices, and the largest distance from any IQE vertex to the
/// nearest converter vertex (the set comparison, which needs no matching).
fn compare(a: &[Vec3], b: &[Vec3], map: &[usize]) -> (f32, f32) {
    let matched = a.iter().zip(map).map(|(p, &j)| (*p - b[j]).length()).fold(0.0, f32::max);
    let set = a
        .iter()
        .map(|p| b.iter().map(|q| (*p - *q).length_squared()).fold(f32::INFINITY, f32::min).sqrt())
        .fold(0.0, f32::max);
    (matched, set)
}

fn equivalent(iqe_rel: &str, iqm_rel: &str) -> f32 {
    let iqe = load(iqe_rel);
    let iqm = load(iqm_rel);
    // Skeleton.
    let names = |s: &Scene| s.skeleton.joints.iter().map(|j| (j.name.clone(), j.parent)).collect::<Vec<_>>();
    assert_eq!(names(&iqe), names(&iqm));
    for (a, b) in iqe.skeleton.bind_world.iter().zip(&iqm.skeleton.bind_world) {
        assert!(a.abs_diff_eq(*b, 1e-4), "{a} vs {b}");
    }
    // Clips.
    let clips = |s: &Scene| {
        s.clips.iter().map(|c| (c.name.clone(), c.frame_count, c.looping, c.first_frame)).collect::<Vec<_>>()
    };
    assert_eq!(clips(&iqe), clips(&iqm));
    for (a, b) in iqe.clips.iter().zip(&iqm.clips) {
        assert_eq!(a.frame_rate, b.frame_rate);
    }
    // Geometry.
    assert_eq!(iqe.vertices.len(), iqm.vertices.len());
    assert_eq!(iqe.triangles.len(), iqm.triangles.len());
    let bind = FrameBounds::of_points(&iqe.vertices.positions).unwrap();
    let size = bind.diagonal();
    let map = correspondence(&iqe, &iqm);
    let mut worst = compare(&iqe.vertices.positions, &iqm.vertices.positions, &map);
    let check = |what: &str, (matched, set): (f32, f32)| {
        assert!(
            matched <= 1e-3 * size && set <= 1e-3 * size,
            "{iqe_rel} {what}: error {matched} (set {set}), size {size}"
        );
    };
    check("bind", worst);
    let pose = Pose::bind(&iqe.skeleton);
    let pose_m = Pose::bind(&iqm.skeleton);
    let e =
        compare(&skin_positions(&iqe.vertices, &pose.palette), &skin_positions(&iqm.vertices, &pose_m.palette), &map);
    check("bind skinned", e);
    worst = (worst.0.max(e.0), worst.1.max(e.1));
    let (mut pa, mut pb) = (Pose::default(), Pose::default());
    let mut frames = 0;
    for (ca, cb) in iqe.clips.iter().zip(&iqm.clips) {
        for k in 0..ca.frame_count {
            pa.update(&iqe.skeleton, ca, k as f32, DEFAULT_FPS);
            pb.update(&iqm.skeleton, cb, k as f32, DEFAULT_FPS);
            let e =
                compare(&skin_positions(&iqe.vertices, &pa.palette), &skin_positions(&iqm.vertices, &pb.palette), &map);
            check(&format!("\"{}\" frame {k}", ca.name), e);
            worst = (worst.0.max(e.0), worst.1.max(e.1));
            frames += 1;
        }
    }
    eprintln!(
        "{iqe_rel}: {frames} frames, size {size:.4}, max matched error {:.3e} ({:.2e} of size), max set error {:.3e}",
        worst.0,
        worst.0 / size,
        worst.1
    );
    worst.0 / size
}

#[test]
fn rocket_matches_the_reference_converter() {
    equivalent("iqm/unv_rocket.iqe", "iqm/derived/unv_rocket.iqmtool.iqm");
}

#[test]
fn medistat_matches_the_reference_converter_at_every_frame() {
    equivalent("iqm/unv_medistat.iqe", "iqm/derived/unv_medistat.iqmtool.iqm");
}

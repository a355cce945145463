//! `rigscope convert`: IQM re-encoding, IQE ↔ IQM, equivalence with the reference converter's output, and
//! the command line's options. Equivalence is judged on what a user sees: joints, clips, and skinned
//! positions at every frame (vertices are matched by position, since converters reorder and merge them).

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{corpus, read};
use glam::Vec3;
use rigscope::Scene;
use rigscope::anim::{Pose, sample_clip, skin_positions, stored_bounds_misses};
use rigscope::convert::{Target, encode, to_iqe, to_iqm};
use rigscope::scene::{DEFAULT_FPS, Transform};

const IQMS: [&str; 5] = [
    "iqm/lsalzman_mrfixit.iqm",
    "iqm/raylib_guy.iqm",
    "iqm/raylib_guyanim.iqm",
    "iqm/redeclipse_rifle.iqm",
    "iqm/redeclipse_player_dead.iqm",
];

fn load(rel: &str) -> Scene {
    let p = corpus(rel);
    rigscope::load_bytes(&p.display().to_string(), &read(&p)).unwrap_or_else(|e| panic!("{e}"))
}

fn reload(name: &str, bytes: &[u8]) -> Scene {
    rigscope::load_bytes(name, bytes).unwrap_or_else(|e| panic!("converted file does not load: {e}"))
}

/// Skinned positions at every frame of every clip, or the bind pose when there are none.
fn skinned_frames(s: &Scene) -> Vec<Vec<Vec3>> {
    if s.clips.is_empty() {
        return vec![skin_positions(&s.vertices, &Pose::bind(&s.skeleton).palette)];
    }
    let mut out = Vec::new();
    for clip in &s.clips {
        for f in 0..clip.frame_count {
            let pose = Pose::sample(&s.skeleton, clip, f as f32, DEFAULT_FPS);
            out.push(skin_positions(&s.vertices, &pose.palette));
        }
    }
    out
}

fn bits(p: Vec3) -> [u32; 3] {
    let b = |v: f32| if v == 0.0 { 0 } else { v.to_bits() };
    [b(p.x), b(p.y), b(p.z)]
}

/// Size of the model at rest, to make tolerances relative.
fn size(s: &Scene) -> f32 {
    rigscope::scene::FrameBounds::of_points(&s.vertices.positions).map_or(1.0, |b| b.diagonal().max(1e-6))
}

/// Asserts `b` shows what `a` shows: same joint names and parents, same clips, the same triangles (by corner
/// position and winding), and skinned positions within `tol` × model size at every frame. Returns the largest
/// error relative to the model size.
fn assert_equivalent(a: &Scene, b: &Scene, tol: f32, what: &str) -> f32 {
    let names = |s: &Scene| s.skeleton.joints.iter().map(|j| (j.name.clone(), j.parent)).collect::<Vec<_>>();
    assert_eq!(names(a), names(b), "{what}: joints differ");
    let clips = |s: &Scene| {
        s.clips.iter().map(|c| (c.name.clone(), c.frame_count, c.looping, c.fps(DEFAULT_FPS))).collect::<Vec<_>>()
    };
    assert_eq!(clips(a), clips(b), "{what}: animations differ");

    // Vertices of b at each bind position: the candidates for a's vertex there.
    let mut at: HashMap<[u32; 3], Vec<usize>> = HashMap::new();
    for (i, p) in b.vertices.positions.iter().enumerate() {
        at.entry(bits(*p)).or_default().push(i);
    }
    let candidates: Vec<&Vec<usize>> = a
        .vertices
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| at.get(&bits(*p)).unwrap_or_else(|| panic!("{what}: vertex {i} at {p} has no counterpart")))
        .collect();

    // Triangles as position-id triples, rotated to start at the smallest id (winding kept).
    let mut ids: HashMap<[u32; 3], u32> = HashMap::new();
    let mut tri_set = |s: &Scene| {
        let mut v: Vec<[u32; 3]> = s
            .triangles
            .iter()
            .map(|t| {
                t.map(|i| {
                    let n = ids.len() as u32;
                    *ids.entry(bits(s.vertices.positions[i as usize])).or_insert(n)
                })
            })
            .filter(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
            .map(|t| {
                let r = (0..3).min_by_key(|&k| t[k]).unwrap();
                [t[r], t[(r + 1) % 3], t[(r + 2) % 3]]
            })
            .collect();
        v.sort_unstable();
        v
    };
    let (ta, tb) = (tri_set(a), tri_set(b));
    assert_eq!(ta.len(), tb.len(), "{what}: triangle counts differ");
    assert!(ta == tb, "{what}: triangles differ");

    let (fa, fb) = (skinned_frames(a), skinned_frames(b));
    assert_eq!(fa.len(), fb.len(), "{what}: frame counts differ");
    let scale = size(a);
    let mut worst = 0.0f32;
    for (f, (pa, pb)) in fa.iter().zip(&fb).enumerate() {
        for (i, p) in pa.iter().enumerate() {
            let err = candidates[i].iter().map(|&j| (pb[j] - *p).length()).fold(f32::INFINITY, f32::min) / scale;
            assert!(err <= tol, "{what}: frame {f} vertex {i}: off by {err} of the model size");
            worst = worst.max(err);
        }
    }
    worst
}

/// Adjacency by brute force: for every edge, every other triangle with the same edge (vertices compared by
/// position and influences), linked only when exactly two triangles share it.
fn brute_force_adjacency(s: &Scene) -> Vec<[u32; 3]> {
    let v = &s.vertices;
    let same = |x: u32, y: u32| {
        let (x, y) = (x as usize, y as usize);
        bits(v.positions[x]) == bits(v.positions[y])
            && v.joints.as_ref().is_none_or(|j| j[x] == j[y])
            && v.weights.as_ref().is_none_or(|w| w[x] == w[y])
    };
    let t = &s.triangles;
    let mut adj = vec![[u32::MAX; 3]; t.len()];
    for (i, ti) in t.iter().enumerate() {
        for e in 0..3 {
            let (a, b) = (ti[e], ti[(e + 1) % 3]);
            if same(a, b) {
                continue;
            }
            let mut users = Vec::new();
            for (j, tj) in t.iter().enumerate() {
                for k in 0..3 {
                    let (c, d) = (tj[k], tj[(k + 1) % 3]);
                    if (same(a, c) && same(b, d)) || (same(a, d) && same(b, c)) {
                        users.push(j);
                    }
                }
            }
            if users.len() == 2 {
                adj[i][e] = users.into_iter().find(|&j| j != i).map_or(u32::MAX, |j| j as u32);
            }
        }
    }
    adj
}

#[test]
fn iqm_reencoded_shows_the_same_model() {
    for rel in IQMS {
        let orig = load(rel);
        let out = to_iqm(&orig).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let re = reload(rel, &out.bytes);
        // The converter fixes what it can (alignment, weight sums, ranges); what the data itself is stays.
        let new: Vec<_> =
            re.meta.warnings.iter().filter(|w| !orig.meta.warnings.iter().any(|o| o.rule == w.rule)).collect();
        assert!(new.is_empty(), "{rel}: converted file has new warnings: {new:?}");
        let worst = assert_equivalent(&orig, &re, 2e-4, rel);
        eprintln!("{rel}: largest skinned difference {worst:.2e} of the model size");
        if re.vertices.is_skinned() && !re.clips.is_empty() {
            assert!(re.clips.iter().all(|c| c.bounds.is_some()), "{rel}: bounds missing");
            assert!(stored_bounds_misses(&re, 1e-4).is_empty(), "{rel}: computed bounds miss the mesh");
        }
        assert!(re.vertices.len() <= orig.vertices.len(), "{rel}: vertices were added");
    }
}

#[test]
fn adjacency_matches_a_brute_force_edge_match() {
    for rel in ["iqm/raylib_guy.iqm", "iqm/lsalzman_mrfixit.iqm"] {
        let re = reload(rel, &to_iqm(&load(rel)).unwrap().bytes);
        let stored = re.adjacency.clone().expect("adjacency written");
        assert_eq!(stored, brute_force_adjacency(&re), "{rel}");
        assert!(stored.iter().flatten().any(|&n| n != u32::MAX), "{rel}: nothing linked");
    }
}

#[test]
fn weights_are_bytes_summing_to_255() {
    let re = reload("guy", &to_iqm(&load("iqm/raylib_guy.iqm")).unwrap().bytes);
    for (i, w) in re.vertices.weights.as_ref().unwrap().iter().enumerate() {
        let bytes: Vec<f32> = w.iter().map(|x| (x * 255.0).round()).collect();
        assert_eq!(bytes.iter().sum::<f32>(), 255.0, "vertex {i}: {w:?}");
        assert!(w.windows(2).all(|p| p[0] >= p[1]), "vertex {i}: weights not largest first: {w:?}");
    }
}

#[test]
fn encode_picks_the_format_by_target() {
    let s = load("iqm/raylib_guy.iqm");
    let (iqm, _) = encode(&s, Target::Iqm).unwrap();
    assert!(iqm.starts_with(b"INTERQUAKEMODEL\0"));
    let (iqe, _) = encode(&s, Target::Iqe).unwrap();
    assert!(iqe.starts_with(b"# Inter-Quake Export\n"));
    assert_eq!(Target::from_path(Path::new("a/b.IQE")), Some(Target::Iqe));
    assert_eq!(Target::from_path(Path::new("a/b.obj")), None);
    let (text, _) = to_iqe(&s);
    assert!(text.contains("\nanimation \"jump\"\nframerate 24\nframe\n"), "animation block");
}

// ---- the command line ----

fn rigscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope")).args(args).output().expect("run rigscope")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("convert-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn cli_scales_and_rotates_the_whole_model() {
    let d = temp_dir("transform");
    let guy = corpus("iqm/raylib_guy.iqm");
    let out = d.join("big.iqm");
    let r = rigscope(&["convert", s(&guy), s(&out), "--scale", "2", "--rotate", "0,0,90"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let (a, b) = (load("iqm/raylib_guy.iqm"), reload("big.iqm", &read(&out)));
    let q = glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let (fa, fb) = (skinned_frames(&a), skinned_frames(&b));
    // Vertex order changes (cache order), so compare the frame's bounds, which a rotation by 90° about Z maps
    // exactly onto each other's axes.
    for (pa, pb) in fa.iter().zip(&fb) {
        let ba = rigscope::scene::FrameBounds::of_points(&pa.iter().map(|p| q * (*p * 2.0)).collect::<Vec<_>>());
        let bb = rigscope::scene::FrameBounds::of_points(pb);
        let d = ba.unwrap().max_difference(&bb.unwrap());
        assert!(d < 2e-3 * size(&a) * 2.0, "bounds differ by {d}");
    }
}

#[test]
fn cli_sets_name_fps_and_loop_of_a_single_animation() {
    let d = temp_dir("clip");
    // guyanim has two clips: the options must refuse rather than guess.
    let anim = corpus("iqm/raylib_guyanim.iqm");
    let r = rigscope(&["convert", s(&anim), s(&d.join("x.iqm")), "--name", "walk"]);
    assert_eq!(r.status.code(), Some(2), "{}", String::from_utf8_lossy(&r.stderr));
    let dead = corpus("iqm/redeclipse_player_dead.iqm");
    let out = d.join("dead.iqm");
    let r = rigscope(&["convert", s(&dead), s(&out), "--name", "fall", "--fps", "12.5", "--loop"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let c = &reload("dead.iqm", &read(&out)).clips[0];
    assert_eq!((c.name.as_str(), c.frame_rate, c.looping), ("fall", 12.5, true));
}

#[test]
fn cli_attaches_animation_files_and_rejects_bad_requests() {
    let d = temp_dir("attach");
    let (guy, anim) = (corpus("iqm/raylib_guy.iqm"), corpus("iqm/raylib_guyanim.iqm"));
    let out = d.join("both.iqm");
    let r = rigscope(&["convert", s(&guy), s(&anim), s(&out)]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let both = reload("both.iqm", &read(&out));
    assert_eq!(both.clips.len(), 4, "the model's two clips and the attached two");

    assert_eq!(rigscope(&["convert", s(&guy), s(&d.join("x.obj"))]).status.code(), Some(2));
    assert_eq!(rigscope(&["convert", s(&guy), s(&guy)]).status.code(), Some(2));
    assert_eq!(rigscope(&["convert", s(&guy), s(&d.join("y.iqm")), "--scale", "0"]).status.code(), Some(2));
    let missing = d.join("missing.iqe");
    assert_eq!(rigscope(&["convert", s(&missing), s(&d.join("z.iqm"))]).status.code(), Some(1));
    assert!(!d.join("z.iqm").exists() && !d.join("y.iqm").exists());
}

// ---- IQE ----

const IQES: [(&str, &str); 2] = [
    ("iqm/unv_rocket.iqe", "iqm/derived/unv_rocket.iqmtool.iqm"),
    ("iqm/unv_medistat.iqe", "iqm/derived/unv_medistat.iqmtool.iqm"),
];

#[test]
fn iqe_converts_like_the_reference_converter() {
    for (iqe, reference) in IQES {
        let ours = reload(iqe, &to_iqm(&load(iqe)).unwrap().bytes);
        let theirs = load(reference);
        // Every vertex the reference wrote is in ours and vice versa, skinned alike at every frame.
        let worst = assert_equivalent(&theirs, &ours, 1e-4, iqe);
        assert_equivalent(&ours, &theirs, 1e-4, iqe);
        eprintln!("{iqe}: largest skinned difference from the reference {worst:.2e} of the model size");
        assert_eq!(ours.vertices.len(), theirs.vertices.len(), "{iqe}: both merge the same duplicates");
        assert_eq!(ours.meshes.len(), theirs.meshes.len());
        assert_eq!(ours.meta.comment, theirs.meta.comment);
        // Our adjacency is the brute-force one; the reference's is known wrong (notes, section 6).
        let truth = brute_force_adjacency(&ours);
        assert_eq!(ours.adjacency.as_ref(), Some(&truth), "{iqe}: adjacency");
        let (edges, stored) = (brute_force_adjacency(&theirs), theirs.adjacency.clone().unwrap());
        let pairs = || edges.iter().flatten().zip(stored.iter().flatten());
        let links = edges.iter().flatten().filter(|&&n| n != u32::MAX).count();
        let wrong = pairs().filter(|(e, s)| **s != u32::MAX && e != s).count();
        let missing = pairs().filter(|(e, s)| **s == u32::MAX && **e != u32::MAX).count();
        eprintln!("{iqe}: of {links} edge links the reference stores {wrong} wrong and misses {missing}");
        assert!(wrong + missing > 0, "{iqe}: the reference's adjacency was expected to be wrong");
        // Bounds: stored per frame and containing the skinned mesh.
        if !ours.clips.is_empty() {
            assert!(stored_bounds_misses(&ours, 1e-5).is_empty(), "{iqe}: bounds");
        }
    }
}

#[test]
fn iqe_and_its_conversion_pose_alike_through_the_command_line() {
    let d = temp_dir("pose");
    let out = d.join("medistat.iqm");
    let iqe = corpus("iqm/unv_medistat.iqe");
    assert!(rigscope(&["convert", s(&iqe), s(&out)]).status.success());
    let reference = corpus("iqm/derived/unv_medistat.iqmtool.iqm");
    for (anim, frame) in [("idle", "30"), ("attack", "10"), ("destroyed", "30")] {
        let pose = |f: &Path| -> serde_json::Value {
            let r = rigscope(&["pose", s(f), "--anim", anim, "--frame", frame]);
            assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
            serde_json::from_slice(&r.stdout).unwrap()
        };
        let (a, b, c) = (pose(&out), pose(&reference), pose(&iqe));
        for other in [&b, &c] {
            let (ja, jb) = (a["joints"].as_array().unwrap(), other["joints"].as_array().unwrap());
            assert_eq!(ja.len(), jb.len());
            for (x, y) in ja.iter().zip(jb) {
                assert_eq!(x["name"], y["name"]);
                assert_eq!(x["parent"], y["parent"]);
                let (wx, wy) = (x["world"].as_array().unwrap(), y["world"].as_array().unwrap());
                for (p, q) in wx.iter().zip(wy) {
                    let (p, q) = (p.as_f64().unwrap(), q.as_f64().unwrap());
                    assert!((p - q).abs() < 1e-2 * (1.0 + p.abs()), "{anim} {frame} {}: {p} vs {q}", x["name"]);
                }
            }
        }
    }
}

/// Positions, streams, triangles, meshes, joints and every frame, compared exactly.
fn assert_same_scene(a: &Scene, b: &Scene, what: &str) {
    let (va, vb) = (&a.vertices, &b.vertices);
    assert_eq!(va.positions, vb.positions, "{what}: positions");
    assert_eq!(va.texcoords, vb.texcoords, "{what}: texcoords");
    assert_eq!(va.normals, vb.normals, "{what}: normals");
    assert_eq!(va.tangents, vb.tangents, "{what}: tangents");
    assert_eq!(va.colors, vb.colors, "{what}: colours");
    assert_eq!(a.triangles, b.triangles, "{what}: triangles");
    let meshes = |s: &Scene| {
        s.meshes
            .iter()
            .map(|m| (m.name.clone(), s.materials.get(m.material).map(|x| x.name.clone()), m.num_triangles))
            .collect::<Vec<_>>()
    };
    assert_eq!(meshes(a), meshes(b), "{what}: meshes");
    // Influences: the same joints with the same weights, slot order aside.
    if let (Some(ja), Some(wa), Some(jb), Some(wb)) = (&va.joints, &va.weights, &vb.joints, &vb.weights) {
        for i in 0..va.len() {
            let set = |j: &[u32; 4], w: &[f32; 4]| {
                let mut v: Vec<(u32, u32)> =
                    j.iter().zip(w).filter(|(_, w)| **w > 0.0).map(|(j, w)| (*j, w.to_bits())).collect();
                v.sort_unstable();
                v
            };
            assert_eq!(set(&ja[i], &wa[i]), set(&jb[i], &wb[i]), "{what}: vertex {i} influences");
        }
    } else {
        assert_eq!(va.is_skinned(), vb.is_skinned(), "{what}: skinning");
    }
    assert_eq!(a.skeleton.joints.len(), b.skeleton.joints.len(), "{what}: joints");
    for (x, y) in a.skeleton.joints.iter().zip(&b.skeleton.joints) {
        assert_eq!((&x.name, x.parent), (&y.name, y.parent), "{what}: joint");
        if a.skeleton.has_bind_pose {
            assert_eq!(x.bind.translation, y.bind.translation, "{what}: joint {}", x.name);
            assert!(x.bind.rotation.dot(y.bind.rotation).abs() > 1.0 - 1e-6, "{what}: joint {}", x.name);
            assert_eq!(x.bind.scale, y.bind.scale, "{what}: joint {}", x.name);
        }
    }
    assert_eq!(a.clips.len(), b.clips.len(), "{what}: clips");
    for (ca, cb) in a.clips.iter().zip(&b.clips) {
        assert_eq!((&ca.name, ca.frame_count, ca.looping), (&cb.name, cb.frame_count, cb.looping), "{what}");
        assert_eq!(ca.has_stored_fps(), cb.has_stored_fps(), "{what}: {}", ca.name);
        // Compared as sampled, since a reader may store constant frames once.
        let n = a.skeleton.len();
        let (mut la, mut lb) = (vec![Transform::IDENTITY; n], vec![Transform::IDENTITY; n]);
        for f in 0..ca.frame_count {
            sample_clip(&a.skeleton, ca, f as f32, DEFAULT_FPS, &mut la);
            sample_clip(&b.skeleton, cb, f as f32, DEFAULT_FPS, &mut lb);
            if let Some(j) = (0..n).find(|&j| la[j] != lb[j]) {
                panic!("{what}: clip {} frame {f} joint {j}: {:?} vs {:?}", ca.name, la[j], lb[j]);
            }
        }
    }
    assert_eq!(a.meta.comment, b.meta.comment, "{what}: comment");
}

#[test]
fn iqm_to_iqe_reads_back_the_same_scene() {
    for rel in IQMS {
        let orig = load(rel);
        let (text, _) = to_iqe(&orig);
        let back = reload("back.iqe", text.as_bytes());
        assert_same_scene(&orig, &back, rel);
        // Writing the read-back scene again gives the same text: diffs between exports show only real changes.
        assert_eq!(to_iqe(&back).0, text, "{rel}: IQE text is stable");
    }
}

#[test]
fn iqm_to_iqe_to_iqm_round_trips() {
    for rel in IQMS {
        let orig = load(rel);
        let (text, _) = to_iqe(&orig);
        let again = reload("again.iqm", &to_iqm(&reload("back.iqe", text.as_bytes())).unwrap().bytes);
        assert_equivalent(&orig, &again, 2e-4, rel);
        let direct = reload("direct.iqm", &to_iqm(&orig).unwrap().bytes);
        assert_same_scene(&direct, &again, rel);
    }
}

#[test]
fn half_arrays_refuse_values_they_cannot_hold() {
    let iqe =
        "# Inter-Quake Export\nvertexarray position half 3\nmesh m\nvp 0 0 0\nvp 100000 0 0\nvp 0 1 0\nfm 0 1 2\n";
    let err = to_iqm(&reload("h.iqe", iqe.as_bytes())).unwrap_err();
    assert!(err.0.contains("100000") && err.0.contains("half"), "{err}");
    let fits = iqe.replace("100000", "1000");
    let back = reload("h.iqm", &to_iqm(&reload("h.iqe", fits.as_bytes())).unwrap().bytes);
    assert_eq!(back.vertices.positions[1].x.max(back.vertices.positions[0].x), 1000.0);
    assert_eq!(back.meta.source_arrays[0].format, "half");
}

#[test]
fn animation_files_attach_by_joint_name_whatever_their_joint_order() {
    let d = temp_dir("order");
    let model = load("iqm/unv_medistat.iqe");
    // An animation-only copy whose joints are listed breadth-first instead of the model's order.
    let n = model.skeleton.len();
    let mut order: Vec<usize> =
        model.skeleton.joints.iter().enumerate().filter(|(_, j)| j.parent.is_none()).map(|(i, _)| i).collect();
    let mut k = 0;
    while k < order.len() {
        let p = order[k];
        order.extend((0..n).rev().filter(|&c| model.skeleton.joints[c].parent == Some(p)));
        k += 1;
    }
    assert_eq!(order.len(), n);
    assert_ne!(order, (0..n).collect::<Vec<_>>(), "the permutation must change the order");
    let new_index = |old: usize| order.iter().position(|&o| o == old).unwrap();
    let joints: Vec<_> = order
        .iter()
        .map(|&o| {
            let mut j = model.skeleton.joints[o].clone();
            j.parent = j.parent.map(new_index);
            j
        })
        .collect();
    let mut anim = Scene::empty(model.meta.clone());
    anim.skeleton = rigscope::scene::Skeleton::new(joints, true).unwrap();
    let mut locals = vec![Transform::IDENTITY; n];
    for clip in &model.clips {
        let mut frames = Vec::new();
        for f in 0..clip.frame_count {
            sample_clip(&model.skeleton, clip, f as f32, DEFAULT_FPS, &mut locals);
            frames.extend(order.iter().map(|&o| locals[o]));
        }
        let data = rigscope::scene::ClipData::Sampled { joints: n, frames };
        anim.clips.push(rigscope::scene::Clip::new(
            clip.name.clone(),
            clip.frame_rate,
            clip.looping,
            clip.frame_count,
            data,
        ));
    }
    let anim_path = d.join("anims.iqe");
    std::fs::write(&anim_path, to_iqe(&anim).0).unwrap();

    let out = d.join("both.iqm");
    let mesh = corpus("iqm/unv_medistat.iqe");
    let r = rigscope(&["convert", s(&mesh), s(&anim_path), s(&out)]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let both = reload("both.iqm", &read(&out));
    assert_eq!(both.clips.len(), 20);
    // Each attached clip poses the model as the model's own clip of that name does.
    for (own, attached) in both.clips[..10].iter().zip(&both.clips[10..]) {
        assert_eq!(own.name, attached.name);
        for f in 0..own.frame_count {
            let a = Pose::sample(&both.skeleton, own, f as f32, DEFAULT_FPS);
            let b = Pose::sample(&both.skeleton, attached, f as f32, DEFAULT_FPS);
            for (x, y) in a.world.iter().zip(&b.world) {
                assert!(x.abs_diff_eq(*y, 1e-3), "{} frame {f}", own.name);
            }
        }
    }
}

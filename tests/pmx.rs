//! Every corpus PMX loads (but the malformed one, with a clear error), its facts hold together, and no prefix
//! of any of them panics.

mod common;

use common::{corpus, corpus_files, read};
use rigscope::scene::{Format, MorphKind, SphereBlend, SphereMap, ToonRamp, UpAxis};

#[test]
fn every_corpus_pmx_loads_but_the_malformed_one() {
    for p in corpus_files("mmd", &["pmx"]) {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let r = rigscope::load_path(&p);
        if name == "joint_orient_test.pmx" {
            let e = r.err().unwrap_or_else(|| panic!("{name}: loads, but its vertex bone indices are 2 bytes wide"));
            assert!(e.file.ends_with(&name), "{e}");
            assert!(matches!(e.location, rigscope::Location::Offset(_)), "{e}");
            eprintln!("{e}");
            continue;
        }
        let s = r.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.meta.format, Format::Pmx, "{name}");
        assert_eq!(s.up, UpAxis::YLeftHanded, "{name}");
        let mmd = s.mmd.as_ref().unwrap_or_else(|| panic!("{name}: no MMD facts"));
        eprintln!(
            "{name}: v{} {:?} {} verts {} tris {} bones {} morphs {} mats {} ik, append {:?} warnings {:?}",
            s.meta.version,
            mmd.encoding,
            s.vertices.len(),
            s.triangles.len(),
            mmd.bones.len(),
            s.morphs.len(),
            mmd.materials.len(),
            s.constraints.ik.len(),
            s.constraints.append,
            s.meta.warnings
        );
        assert_eq!(s.skeleton.len(), mmd.bones.len(), "{name}");
        assert_eq!(s.constraints.deform.len(), s.skeleton.len(), "{name}");
        // The file order maps onto the joints and back.
        for (file, b) in mmd.bones.iter().enumerate() {
            assert_eq!(mmd.bone_of_joint[b.joint], file, "{name}");
            assert_eq!(s.skeleton.joints[b.joint].name, b.name, "{name}");
            // Bind world translation is the bone's absolute position.
            let t = s.skeleton.bind_world[b.joint].w_axis.truncate();
            assert!(t.abs_diff_eq(b.position, 1e-4), "{name}: bone {file} at {t} not {}", b.position);
        }
        assert_eq!(s.meshes.len(), mmd.materials.len(), "{name}");
        let drawn: u32 = s.meshes.iter().map(|m| m.num_triangles).sum();
        assert_eq!(drawn as usize, s.triangles.len(), "{name}");
        let weights = s.vertices.weights.as_ref().unwrap();
        assert_eq!(mmd.weight_kinds.iter().sum::<usize>(), s.vertices.len(), "{name}");
        for w in weights {
            assert!(w.iter().all(|x| x.is_finite()), "{name}");
        }
        for m in &s.morphs {
            if let MorphKind::Vertex(v) = &m.kind {
                assert!(v.iter().all(|o| (o.vertex as usize) < s.vertices.len()), "{name}");
            }
        }
    }
}

#[test]
fn append_fixture_has_append_relations() {
    let s = rigscope::load_path(&corpus("mmd/yohawing/test_append_bone.pmx")).unwrap();
    assert!(!s.constraints.append.is_empty(), "{:?}", s.mmd.as_ref().unwrap().bones);
    for a in &s.constraints.append {
        assert_ne!(a.joint, a.source);
        assert!(a.rotation || a.translation);
    }
    let s = rigscope::load_path(&corpus("mmd/yohawing/test_fix_axis.pmx")).unwrap();
    assert!(s.constraints.deform.iter().any(|d| d.fixed_axis.is_some()));
}

#[test]
fn truncated_pmx_never_panics() {
    for p in corpus_files("mmd", &["pmx"]) {
        let data = read(&p);
        let name = p.display().to_string();
        for len in 0..data.len() {
            let r = rigscope::formats::load_bytes(&name, &data[..len]);
            let e = r.err().unwrap_or_else(|| panic!("{name}: a {len}-byte prefix loads"));
            assert!(!e.message.is_empty());
        }
    }
}

#[test]
fn written_pmx_reads_back_exactly_in_both_encodings_and_every_index_size() {
    use glam::{Vec3, Vec4};
    use rigscope::formats::pmx::write::sample_document;
    use rigscope::scene::{BoneTail, MaterialOp, MmdEncoding, SphereMode, Toon, bone_flags as f};
    for enc in [MmdEncoding::Utf16Le, MmdEncoding::Utf8] {
        for size in [1u8, 2, 4] {
            let doc = sample_document(enc, size);
            let bytes = doc.to_bytes();
            let what = format!("{enc:?} size {size}");
            let s = rigscope::load_bytes("sample.pmx", &bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
            let mmd = s.mmd.as_ref().unwrap();
            assert!(s.meta.warnings.is_empty(), "{what}: {:?}", s.meta.warnings);
            assert_eq!((s.meta.version.as_str(), mmd.encoding, mmd.index_sizes), ("2.1", enc, [size; 6]), "{what}");
            assert_eq!((mmd.name.as_str(), mmd.name_en.as_str()), ("モデル", "model"), "{what}");
            assert_eq!((mmd.comment.as_str(), mmd.comment_en.as_str()), ("コメント", "comment"), "{what}");
            // Vertices and weights.
            assert_eq!(s.triangles, [[0, 1, 2], [2, 1, 3], [1, 4, 3]], "{what}");
            assert_eq!(mmd.weight_kinds, [1, 1, 1, 1, 1], "{what}");
            use rigscope::scene::BlendMethod::{DualQuaternion, Linear, Spherical};
            let blend = s.vertices.blend.as_ref().expect("SDEF and QDEF vertices blend otherwise");
            assert_eq!(blend.methods, [Linear, Linear, Linear, Spherical(0), DualQuaternion], "{what}");
            let sdef = blend.spherical[0];
            assert_eq!((sdef.c, sdef.r0, sdef.r1), (Vec3::Y, Vec3::X, Vec3::Z), "{what}");
            let j = |name: &str| s.skeleton.find(name).unwrap() as u32;
            let (joints, weights) = (s.vertices.joints.as_ref().unwrap(), s.vertices.weights.as_ref().unwrap());
            assert_eq!((joints[1][..2].to_vec(), weights[1]), (vec![j("child"), j("root")], [0.25, 0.75, 0.0, 0.0]));
            assert_eq!(weights[2], [0.5, 0.25, 0.25, 0.0]);
            assert_eq!((joints[4][..2].to_vec(), weights[4]), (vec![j("append"), j("axes")], [0.75, 0.25, 0.0, 0.0]));
            assert_eq!(s.vertices.custom[0].name, "uv1");
            assert_eq!(&s.vertices.custom[0].data[..4], &[0.0, 0.0, 1.0, 2.0]);
            assert_eq!(mmd.edge_scale, [1.0; 5]);
            // Bones: file order kept in the facts, parents-first in the skeleton.
            let names: Vec<&str> = mmd.bones.iter().map(|b| b.name.as_str()).collect();
            assert_eq!(names, ["child", "root", "append", "axes", "ik"], "{what}");
            assert_eq!(s.skeleton.joints[0].name, "root");
            for (b, raw) in mmd.bones.iter().zip(&doc.bones) {
                assert_eq!((b.flags, b.parent, b.layer, &b.name_en), (raw.flags, raw.parent, raw.layer, &raw.name_en));
                assert_eq!(b.tail, raw.tail);
            }
            assert_eq!(mmd.bones[0].tail, BoneTail::Bone(None));
            assert_eq!(mmd.bones[3].external_key, Some(7));
            assert_eq!(mmd.bones[2].append, Some((0, 0.5)));
            let a = s.constraints.append[0];
            assert_eq!((a.joint, a.source, a.ratio), (j("append") as usize, j("child") as usize, 0.5));
            assert!(a.rotation && a.translation && a.local);
            let d = &s.constraints.deform[j("axes") as usize];
            assert_eq!((d.fixed_axis, d.local_axes, d.after_physics), (Some(Vec3::X), Some([Vec3::X, Vec3::Z]), true));
            assert_eq!(s.constraints.deform[j("append") as usize].layer, 1);
            let ik = &s.constraints.ik[0];
            assert_eq!(
                (ik.joint, ik.target, ik.loop_count, ik.limit_angle),
                (j("ik") as usize, j("axes") as usize, 40, 0.5)
            );
            assert_eq!(ik.links.len(), 2);
            assert_eq!(ik.links[0].limits.unwrap().max, Vec3::new(-0.01, 0.0, 0.0));
            assert!(ik.links[1].limits.is_none());
            assert_eq!(mmd.bones[4].ik, Some(0));
            assert!(mmd.bones[4].flags & f::IK != 0);
            // Morphs of every kind.
            let kinds: Vec<&str> = s.morphs.iter().map(|m| m.kind.label()).collect();
            assert_eq!(kinds, ["vertex", "uv", "additional uv", "bone", "material", "group", "flip", "impulse"]);
            let MorphKind::Material(m) = &s.morphs[4].kind else { unreachable!() };
            assert_eq!(
                (m[0].material, m[0].op, m[1].material, m[1].op),
                (None, MaterialOp::Multiply, Some(0), MaterialOp::Add)
            );
            assert_eq!(m[0].edge_size, 1.0);
            let MorphKind::Bone(b) = &s.morphs[3].kind else { unreachable!() };
            assert_eq!(b[0].joint, j("append") as usize);
            let MorphKind::Group(g) = &s.morphs[5].kind else { unreachable!() };
            assert_eq!((g[0].morph, g[0].weight, g[1].morph), (0, 0.5, 1));
            let MorphKind::Uv { channel, offsets } = &s.morphs[2].kind else { unreachable!() };
            assert_eq!((*channel, offsets[0].vertex, offsets[0].delta), (1, 3, Vec4::ONE));
            // Materials, frames and physics as written.
            assert_eq!(mmd.materials.len(), 2);
            for (m, w) in mmd.materials.iter().zip(&doc.materials) {
                let mut expect = w.material.clone();
                expect.triangles = (w.indices / 3) as u32;
                assert_eq!(m, &expect, "{what}");
            }
            assert_eq!(
                (mmd.materials[0].sphere_mode, &mmd.materials[1].toon),
                (SphereMode::Add, &Toon::Texture("toon.bmp".into()))
            );
            assert!(s.meshes[0].two_sided && !s.meshes[1].two_sided);
            assert_eq!(s.materials[0].texture.as_deref(), Some("tex/body.png"));
            // Drawn with their sphere maps and toon ramps: shared toon 3 is MikuMikuDance's toon04.bmp.
            let sphere = SphereMap { texture: "sub/sphere.spa".into(), blend: SphereBlend::Add };
            assert_eq!(s.materials[0].sphere.as_ref(), Some(&sphere));
            assert_eq!(
                s.materials[0].toon,
                Some(ToonRamp { texture: Some("toon04.bmp".into()), shared: true, highlight: true })
            );
            assert_eq!(
                s.materials[1].toon,
                Some(ToonRamp { texture: Some("toon.bmp".into()), shared: false, highlight: true })
            );
            assert_eq!(mmd.display_frames, doc.frames);
            assert_eq!(mmd.rigid_bodies, doc.rigid_bodies);
            assert_eq!(mmd.joints, doc.joints);
        }
    }
}

#[test]
fn soft_bodies_and_bad_headers_are_refused_clearly() {
    use rigscope::formats::pmx::write::sample_document;
    use rigscope::scene::MmdEncoding;
    let mut doc = sample_document(MmdEncoding::Utf8, 2);
    doc.soft_bodies = Some(1);
    let e = rigscope::load_bytes("soft.pmx", &doc.to_bytes()).unwrap_err();
    assert!(e.message.contains("soft bod"), "{e}");
    doc.soft_bodies = None;
    assert!(rigscope::load_bytes("nosoft.pmx", &doc.to_bytes()).is_ok(), "a 2.1 file may end before the soft bodies");
    let mut bytes = doc.to_bytes();
    bytes[9 + 2] = 3; // vertex index size
    let e = rigscope::load_bytes("size.pmx", &bytes).unwrap_err();
    assert!(e.message.contains("vertex index size 3"), "{e}");
    doc.header.version = 2.0;
    let e = rigscope::load_bytes("v20.pmx", &doc.to_bytes()).unwrap_err();
    assert!(e.message.contains("expected 0 to 8 in PMX 2.0"), "{e}");
}

#[test]
fn check_names_the_rig_and_morph_problems() {
    use rigscope::formats::pmx::write::sample_document;
    use rigscope::formats::pmx::{RawOffsets, Weights};
    use rigscope::scene::MmdEncoding;
    let rules = |bytes: &[u8]| -> Vec<String> {
        rigscope::check::check_bytes("x.pmx", bytes).into_iter().map(|f| f.rule).collect()
    };
    let doc = sample_document(MmdEncoding::Utf8, 2);
    let clean = rules(&doc.to_bytes());
    // The sample has nothing wrong with its rig (its SDEF vertex is skinned spherically: nothing to report).
    assert!(!clean.iter().any(|r| r.contains("sdef")), "{clean:?}");
    for r in ["mmd.weights.sum", "mmd.ik.chain", "mmd.append.cycle", "mmd.morph.group_self", "mmd.bone.duplicate_name"]
    {
        assert!(!clean.contains(&r.to_string()), "{r} in {clean:?}");
    }
    let mut bad = doc.clone();
    bad.vertices[2].weights = Weights::Bdef4([Some(0), Some(1), None, None], [0.5, 0.25, 0.0, 0.0]);
    // "root" is not an ancestor of "child"'s link order reversed: link 0 must be above the target.
    bad.bones[4].ik.as_mut().unwrap().links.reverse();
    // append ← child and child ← append.
    bad.bones[0].flags |= rigscope::scene::bone_flags::APPEND_ROTATION;
    bad.bones[0].append = Some((Some(2), 1.0));
    bad.morphs[5].offsets = RawOffsets::Group(vec![(Some(5), 1.0)]);
    bad.bones[3].name = "root".into();
    bad.morphs[1].name = "vertex".into();
    let found = rules(&bad.to_bytes());
    for r in [
        "mmd.weights.sum",
        "mmd.ik.chain",
        "mmd.append.cycle",
        "mmd.morph.group_self",
        "mmd.bone.duplicate_name",
        "mmd.morph.duplicate_name",
    ] {
        assert!(found.contains(&r.to_string()), "{r} not in {found:?}");
    }
}

#[test]
fn pose_lists_bones_in_file_order_with_file_parents_and_native_positions() {
    use rigscope::formats::pmx::write::sample_document;
    use rigscope::scene::MmdEncoding;
    let doc = sample_document(MmdEncoding::Utf16Le, 4);
    let s = rigscope::load_bytes("sample.pmx", &doc.to_bytes()).unwrap();
    let json = rigscope::report::pose_json(&s, "sample.pmx", None, &Default::default()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let joints = v["joints"].as_array().unwrap();
    let names: Vec<&str> = joints.iter().map(|j| j["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["child", "root", "append", "axes", "ik"]);
    let parents: Vec<i64> = joints.iter().map(|j| j["parent"].as_i64().unwrap()).collect();
    assert_eq!(parents, [1, -1, 1, 0, 1]);
    // World translations are the bones' positions as stored (left-handed Y-up, not converted).
    for (j, b) in joints.iter().zip(&doc.bones) {
        let w = j["world"].as_array().unwrap();
        let t = [12, 13, 14].map(|k| w[k].as_f64().unwrap() as f32);
        assert_eq!(t, b.position.to_array(), "{}", b.name);
    }
}

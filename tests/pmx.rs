//! Every corpus PMX loads (but the malformed one, with a clear error), its facts hold together, and no prefix
//! of any of them panics.

mod common;

use common::{corpus, corpus_files, read};
use rigscope::scene::{Format, MorphKind, UpAxis};

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

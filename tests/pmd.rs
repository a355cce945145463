//! The corpus PMD (miku_v2.pmd from three.js's examples) loads with its counts and known names, and no prefix
//! of it panics.

mod common;

use common::{corpus, read};
use rigscope::scene::{Format, MmdEncoding, MorphKind, MorphPanel, UpAxis};

const MIKU: &str = "mmd/threejs/miku/miku_v2.pmd";

#[test]
fn miku_loads_with_its_counts_and_names() {
    let s = rigscope::load_path(&corpus(MIKU)).unwrap();
    let mmd = s.mmd.as_ref().unwrap();
    eprintln!(
        "{} verts {} tris {} mats {} bones {} ik {} morphs {} frames {} rigid {} joints, append {:?} english {} toons {:?} textures {:?} warnings {:?}",
        s.vertices.len(),
        s.triangles.len(),
        s.materials.len(),
        s.skeleton.len(),
        s.constraints.ik.len(),
        s.morphs.len(),
        mmd.display_frames.len(),
        mmd.rigid_bodies.len(),
        mmd.joints.len(),
        s.constraints.append,
        mmd.has_english,
        mmd.toon_textures,
        mmd.textures,
        s.meta.warnings
    );
    eprintln!("name {:?} {:?}", mmd.name, mmd.name_en);
    eprintln!("bones {:?}", mmd.bones.iter().map(|b| &b.name).collect::<Vec<_>>());
    eprintln!("morphs {:?}", s.morphs.iter().map(|m| (&m.name, &m.name_en, m.panel, m.kind.len())).collect::<Vec<_>>());
    assert_eq!(s.meta.format, Format::Pmd);
    assert_eq!(
        (s.vertices.len(), s.triangles.len(), s.materials.len(), s.skeleton.len(), s.constraints.ik.len()),
        (12354, 22961, 17, 140, 7)
    );
    assert_eq!((s.morphs.len(), mmd.rigid_bodies.len(), mmd.joints.len()), (30, 45, 27));
    assert_eq!((mmd.name.as_str(), mmd.name_en.as_str()), ("初音ミク", "Miku Hatsune"));
    assert!(mmd.has_english);
    assert_eq!(mmd.textures, ["eyeM2.bmp"]);
    let blink = s.morphs.iter().find(|m| m.name == "まばたき").unwrap();
    assert_eq!((blink.name_en.as_str(), blink.panel, blink.kind.len()), ("blink", MorphPanel::Eye, 380));
    // The eyes take 両目's rotation; the arm twist helpers follow 腕捩 by a quarter, a half and three quarters.
    let j = |n: &str| s.skeleton.find(n).unwrap();
    let has = |joint: usize, source: usize, ratio: f32| {
        s.constraints.append.iter().any(|a| a.joint == joint && a.source == source && a.ratio == ratio && a.rotation)
    };
    assert!(has(j("左目"), j("両目"), 1.0) && has(j("右目"), j("両目"), 1.0));
    for (k, ratio) in [(1, 0.25), (2, 0.5), (3, 0.75)] {
        assert!(has(j(&format!("左腕捩{k}")), j("左腕捩"), ratio), "左腕捩{k}: {:?}", s.constraints.append);
    }
    assert_eq!(mmd.encoding, MmdEncoding::ShiftJis);
    assert_eq!(s.up, UpAxis::YLeftHanded);
    assert!(s.meta.warnings.is_empty(), "{:?}", s.meta.warnings);
    for name in ["センター", "上半身", "左足ＩＫ", "右足ＩＫ", "頭"] {
        assert!(s.skeleton.find(name).is_some(), "no bone {name}");
    }
    for m in &s.morphs {
        assert_ne!(m.panel, MorphPanel::System, "{}", m.name);
        let MorphKind::Vertex(v) = &m.kind else { panic!("{}: not a vertex morph", m.name) };
        assert!(v.iter().all(|o| (o.vertex as usize) < s.vertices.len()));
    }
    assert!(s.morphs.iter().any(|m| m.name == "まばたき"), "no blink morph");
    assert!(s.morphs.iter().any(|m| m.name == "あ"), "no あ morph");
    // Both leg IK chains end at the ankles, with the knee limited.
    for side in ["左", "右"] {
        let ik = s.skeleton.find(&format!("{side}足ＩＫ")).unwrap();
        let chain = s.constraints.ik.iter().find(|c| c.joint == ik).unwrap();
        assert_eq!(s.skeleton.joints[chain.target].name, format!("{side}足首"));
        let knee = s.skeleton.find(&format!("{side}ひざ")).unwrap();
        assert!(chain.links.iter().any(|l| l.joint == knee && l.limits.is_some()));
    }
    let drawn: u32 = s.meshes.iter().map(|m| m.num_triangles).sum();
    assert_eq!(drawn as usize, s.triangles.len());
    for (file, b) in mmd.bones.iter().enumerate() {
        assert_eq!(mmd.bone_of_joint[b.joint], file);
        assert!(s.skeleton.bind_world[b.joint].w_axis.truncate().abs_diff_eq(b.position, 1e-4));
    }
}

#[test]
fn truncated_pmd_never_panics() {
    let data = read(&corpus(MIKU));
    // Every prefix up to 64 KiB, then a stride through the rest.
    let lens = (0..data.len().min(65536)).chain((65536..data.len()).step_by(997));
    for len in lens {
        if let Ok(s) = rigscope::formats::load_bytes("miku.pmd", &data[..len]) {
            // A prefix can only load where an optional extension begins.
            assert!(s.mmd.is_some(), "{len}");
        }
    }
}

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

#[test]
fn written_pmd_reads_back_exactly() {
    use glam::Vec3;
    use rigscope::formats::pmd::write::sample_document;
    use rigscope::scene::{DisplayItem, SphereMode, Toon, bone_flags as f};
    let doc = sample_document();
    let s = rigscope::load_bytes("sample.pmd", &doc.to_bytes()).unwrap();
    let mmd = s.mmd.as_ref().unwrap();
    assert!(s.meta.warnings.is_empty(), "{:?}", s.meta.warnings);
    assert_eq!((mmd.name.as_str(), mmd.name_en.as_str(), mmd.comment.as_str()), ("テスト", "test", "コメント"));
    let j = |n: &str| s.skeleton.find(n).unwrap();
    assert_eq!(s.skeleton.joints[0].name, "センター", "parents first");
    let names: Vec<&str> = mmd.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["左ひざ", "センター", "左足首", "左足ＩＫ", "左目", "両目", "捩1"]);
    assert_eq!(mmd.bones[0].name_en, "knee");
    // Weights: percent of the first bone.
    let (joints, weights) = (s.vertices.joints.as_ref().unwrap(), s.vertices.weights.as_ref().unwrap());
    assert_eq!((joints[1][0], joints[1][1]), (j("センター") as u32, j("左足首") as u32));
    assert!((weights[1][0] - 0.4).abs() < 1e-6 && (weights[1][1] - 0.6).abs() < 1e-6);
    assert_eq!(mmd.edge_scale, [1.0, 1.0, 0.0]);
    // Materials: the texture*sphere split, .spa adds, translucent ones two-sided, the toon list.
    let m = &mmd.materials;
    assert_eq!(
        (m[0].texture.as_deref(), m[0].sphere.as_deref(), m[0].sphere_mode),
        (Some("tex.bmp"), Some("sphere.sph"), SphereMode::Multiply)
    );
    assert_eq!(
        (m[1].texture.as_deref(), m[1].sphere.as_deref(), m[1].sphere_mode),
        (None, Some("add.spa"), SphereMode::Add)
    );
    assert_eq!(m[0].toon, Toon::Texture("toon03.bmp".into()));
    assert!(!s.meshes[0].two_sided && s.meshes[1].two_sided);
    assert_eq!(s.materials[0].texture.as_deref(), Some("tex.bmp"));
    // IK with the knee limited, rotation-influenced and rotation-follow bones as append.
    let ik = &s.constraints.ik[0];
    assert_eq!((ik.joint, ik.target, ik.loop_count, ik.limit_angle), (j("左足ＩＫ"), j("左足首"), 40, 2.0));
    assert_eq!(ik.links[0].joint, j("左ひざ"));
    assert_eq!(ik.links[0].limits.unwrap().min, Vec3::new(-std::f32::consts::PI, 0.0, 0.0));
    assert!(mmd.bones[3].flags & f::IK != 0 && mmd.bones[3].ik == Some(0));
    let has = |joint: usize, source: usize, ratio: f32| {
        s.constraints.append.iter().any(|a| (a.joint, a.source, a.ratio) == (joint, source, ratio))
    };
    assert!(has(j("左目"), j("両目"), 1.0), "{:?}", s.constraints.append);
    assert!(has(j("捩1"), j("左ひざ"), 0.25), "{:?}", s.constraints.append);
    // Skins: the base resolves the indices; the English names skip it.
    assert_eq!(s.morphs.len(), 2);
    let MorphKind::Vertex(a) = &s.morphs[0].kind else { unreachable!() };
    assert_eq!((a[0].vertex, a[0].delta, a[1].vertex), (1, Vec3::Y, 2));
    assert_eq!((s.morphs[0].panel, s.morphs[0].name_en.as_str()), (MorphPanel::Mouth, "a"));
    assert_eq!((s.morphs[1].panel, s.morphs[1].name_en.as_str()), (MorphPanel::Eye, "blink"));
    // Display lists, toon list and physics.
    assert_eq!(mmd.display_frames[0].items, [DisplayItem::Morph(0), DisplayItem::Morph(1)]);
    assert_eq!((mmd.display_frames[1].name.as_str(), mmd.display_frames[1].name_en.as_str()), ("足", "legs"));
    assert_eq!(mmd.display_frames[1].items, [DisplayItem::Bone(3), DisplayItem::Bone(0)]);
    assert_eq!(mmd.toon_textures, doc.model.toons.clone().unwrap());
    assert_eq!(mmd.rigid_bodies, doc.model.rigid_bodies);
    assert_eq!(mmd.joints, doc.model.joints);
    // Without the optional sections the file still reads.
    let mut bare = sample_document();
    bare.physics = false;
    bare.model.toons = None;
    bare.model.english = None;
    let s = rigscope::load_bytes("bare.pmd", &bare.to_bytes()).unwrap();
    assert!(!s.mmd.as_ref().unwrap().has_english);
    assert_eq!(s.mmd.as_ref().unwrap().toon_textures[0], "toon01.bmp");
}

/// `convert` of the PMD with its dance: the IQM stands upright in Z-up axes and plays what the viewer shows, IK
/// and append transforms baked in. Every joint's world position in the written file, at frames across the
/// dance, is the source's (IK applied) carried into Z-up axes: (x, y, z) → (x, z, y), within the quantisation
/// of IQM's 16-bit animation channels.
#[test]
fn converted_dance_stands_upright_and_keeps_its_ik() {
    use rigscope::anim::Pose;
    use rigscope::convert::{Target, encode, for_inter_quake};
    use rigscope::scene::DEFAULT_FPS;
    let mut scene = rigscope::load_path(&corpus(MIKU)).unwrap();
    let motion = rigscope::load_path(&corpus("mmd/threejs/vmds/wavefile_v2.vmd")).unwrap();
    rigscope::anim::attach(&mut scene, &motion, "wavefile_v2.vmd").unwrap();
    let source = scene.clone();
    let notes = for_inter_quake(&mut scene);
    assert!(notes.iter().any(|n| n.contains("baked")) && notes.iter().any(|n| n.contains("Z up")), "{notes:?}");
    let (bytes, _) = encode(&scene, Target::Iqm).unwrap();
    let written = rigscope::load_bytes("miku.iqm", &bytes).unwrap();
    assert_eq!(written.up, UpAxis::Z);
    let names: Vec<&str> = source.skeleton.joints.iter().map(|j| j.name.as_str()).collect();
    let clip = &source.clips[0];
    let mut worst = 0.0f32;
    for frame in [0u32, 450, 900, 1843, 2500] {
        let want = Pose::of_scene(&source, Some(clip), frame as f32, DEFAULT_FPS, &[]);
        let got = Pose::sample(&written.skeleton, &written.clips[0], frame as f32, DEFAULT_FPS);
        for (i, name) in names.iter().enumerate() {
            let j = written.skeleton.joints.iter().position(|w| w.name == *name).unwrap();
            let p = want.world[i].w_axis;
            let q = got.world[j].w_axis;
            worst = worst.max(glam::Vec3::new(p.x, p.z, p.y).distance(q.truncate()));
        }
    }
    // Miku is about 20 units tall; 16-bit channels over a joint's range leave well under a hundredth.
    assert!(worst < 0.02, "worst joint off by {worst}");
    // Upright: the head is above the feet along +Z.
    let bind = Pose::bind(&written.skeleton);
    let z = |name: &str| {
        let j = written.skeleton.joints.iter().position(|w| w.name == name).unwrap();
        bind.world[j].w_axis.z
    };
    assert!(z("頭") > z("左足首") + 10.0, "head {} vs ankle {}", z("頭"), z("左足首"));
}

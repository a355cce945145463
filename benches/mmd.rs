//! MMD models: loading a PMX of 30 000 vertices and 200 bones (`load_pmx_30k`, baseline: copying its bytes),
//! and the CPU time per frame of morph playback (`morph_frame`): what the viewer computes each frame for the
//! GPU (clip tracks sampled, sliders applied, groups passed on) with the same 30 morphs over 1 000 and over
//! 1 000 000 morphed vertices; baseline: applying the same morphs to the vertices on the CPU, which grows with
//! them, and one frame of the real dance on its character with IK (`pose_frame_miku_dance`); the real dance
//! baked onto a VRM avatar through the proxy MMD skeleton (`vmd_on_vrm`). `cargo bench --bench mmd`.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Vec2, Vec3, Vec4};
use rigscope::anim::{apply_morphs, morph_weights};
use rigscope::formats::pmx::write::sample_document;
use rigscope::formats::pmx::{RawBone, RawMorph, RawOffsets, RawVertex, Weights};
use rigscope::scene::{
    BoneTail, Clip, ClipData, Easing, Key, MmdEncoding, Morph, MorphKind, MorphPanel, MorphTrack, MorphWeight,
    VertexOffset, bone_flags as f,
};

/// A PMX 2.1 file of `vertices` BDEF4 vertices over `bones` chained bones, two triangles per vertex pair, and 30
/// vertex morphs of 500 offsets each.
fn pmx_bytes(vertices: usize, bones: usize) -> Vec<u8> {
    let mut doc = sample_document(MmdEncoding::Utf16Le, 4);
    doc.vertices = (0..vertices)
        .map(|i| {
            let b = |k: usize| Some((i / 7 + k * 13) % bones);
            RawVertex {
                position: Vec3::new((i % 200) as f32, (i / 200) as f32, 0.0),
                normal: Vec3::Z,
                uv: Vec2::new(i as f32 / vertices as f32, 0.5),
                additional: [Vec4::ZERO; 4],
                weights: Weights::Bdef4([b(0), b(1), b(2), b(3)], [0.4, 0.3, 0.2, 0.1]),
                edge_scale: 1.0,
            }
        })
        .collect();
    doc.faces = (0..vertices as u32 - 2).flat_map(|i| [i, i + 1, i + 2]).collect();
    doc.materials.truncate(1);
    doc.materials[0].indices = doc.faces.len() as i32;
    doc.bones = (0..bones)
        .map(|i| RawBone {
            offset: 0,
            name: format!("bone{i}"),
            name_en: String::new(),
            position: Vec3::new(0.0, i as f32, 0.0),
            parent: i.checked_sub(1),
            layer: 0,
            flags: f::ROTATABLE | f::VISIBLE | f::OPERABLE | f::TAIL_IS_BONE,
            tail: BoneTail::Bone(None),
            append: None,
            fixed_axis: None,
            local_axes: None,
            external_key: None,
            ik: None,
        })
        .collect();
    doc.morphs = (0..30)
        .map(|m| RawMorph {
            offset: 0,
            name: format!("morph{m}"),
            name_en: String::new(),
            panel: MorphPanel::Mouth,
            offsets: RawOffsets::Vertex((0..500).map(|k| (((m * 500 + k) % vertices) as u32, Vec3::Y)).collect()),
        })
        .collect();
    doc.frames.clear();
    doc.rigid_bodies.clear();
    doc.joints.clear();
    doc.to_bytes()
}

fn load(c: &mut Criterion) {
    let bytes = pmx_bytes(30_000, 200);
    let scene = rigscope::load_bytes("bench.pmx", &bytes).unwrap();
    assert_eq!((scene.vertices.len(), scene.skeleton.len(), scene.morphs.len()), (30_000, 200, 30));
    let mut g = c.benchmark_group("load_pmx_30k");
    g.throughput(criterion::Throughput::Bytes(bytes.len() as u64));
    g.bench_function("load", |b| b.iter(|| rigscope::load_bytes("bench.pmx", std::hint::black_box(&bytes)).unwrap()));
    g.bench_function("baseline_copy", |b| b.iter(|| std::hint::black_box(&bytes).to_vec()));
    g.finish();
}

/// 30 vertex morphs over `vertices` vertices in all, a group of three of them, and a clip keying every morph.
fn morphs(vertices: usize) -> (Vec<Morph>, Clip) {
    let per = vertices / 30;
    let mut morphs: Vec<Morph> = (0..30)
        .map(|m| Morph {
            name: format!("morph{m}"),
            name_en: String::new(),
            panel: MorphPanel::Mouth,
            kind: MorphKind::Vertex(
                (0..per).map(|k| VertexOffset { vertex: (m * per + k) as u32, delta: Vec3::Y }).collect(),
            ),
        })
        .collect();
    morphs.push(Morph {
        name: "group".into(),
        name_en: String::new(),
        panel: MorphPanel::Other,
        kind: MorphKind::Group((0..3).map(|m| MorphWeight { morph: m, weight: 0.5 }).collect()),
    });
    let mut clip = Clip::new("dance", 30.0, true, 3000, ClipData::Keyed { tracks: Vec::new() });
    clip.morphs = morphs
        .iter()
        .map(|m| MorphTrack {
            name: m.name.clone(),
            keys: (0..100).map(|k| Key { time: k as f32, value: (k % 2) as f32 }).collect(),
            ease: vec![Easing::LINEAR; 99],
        })
        .collect();
    (morphs, clip)
}

fn morph_frame(c: &mut Criterion) {
    let mut g = c.benchmark_group("morph_frame");
    for vertices in [1_000, 1_000_000] {
        let (morphs, clip) = morphs(vertices);
        let overrides = vec![None; morphs.len()];
        let mut frame = 0.0f32;
        g.bench_function(format!("weights_for_gpu_{vertices}"), |b| {
            b.iter(|| {
                frame = (frame + 0.37) % 2900.0;
                morph_weights(&morphs, Some(&clip), std::hint::black_box(frame), 30.0, &overrides)
            })
        });
        let weights = morph_weights(&morphs, Some(&clip), 15.5, 30.0, &overrides);
        let mut positions = vec![Vec3::ZERO; vertices];
        g.bench_function(format!("baseline_cpu_apply_{vertices}"), |b| {
            b.iter(|| apply_morphs(&morphs, std::hint::black_box(&weights), &mut positions, None))
        });
    }
    g.finish();
}

/// One frame of the three.js dance on its PMD character (140 bones, 7 IK chains, 8 append bones, 30 morphs),
/// as the viewer evaluates it (`Pose::update_scene`: sampling, morph weights, bone morphs, append, CCD IK);
/// baseline: sampling and chaining the same clip without morphs or constraints (what an IQM clip costs).
fn pose_frame(c: &mut Criterion) {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/mmd/threejs");
    let mut miku = rigscope::load_path(std::path::Path::new(&format!("{corpus}/miku/miku_v2.pmd"))).unwrap();
    let dance = rigscope::load_path(std::path::Path::new(&format!("{corpus}/vmds/wavefile_v2.vmd"))).unwrap();
    rigscope::anim::attach(&mut miku, &dance, "wavefile_v2.vmd").unwrap();
    let clip = miku.clips[0].clone();
    let mut pose = rigscope::anim::Pose::default();
    let mut frame = 0.0f32;
    let mut g = c.benchmark_group("pose_frame_miku_dance");
    g.bench_function("update_scene_with_ik", |b| {
        b.iter(|| {
            frame = (frame + 7.3) % 2800.0;
            pose.update_scene(&miku, Some(&clip), std::hint::black_box(frame), 30.0, &[]);
        })
    });
    // The reference case: the two leg chains only (the toe and hair chains switched off).
    let legs: Vec<Option<bool>> = miku
        .constraints
        .ik
        .iter()
        .map(|c| {
            let name = &miku.skeleton.joints[c.joint].name;
            (name != "左足ＩＫ" && name != "右足ＩＫ").then_some(false)
        })
        .collect();
    g.bench_function("update_scene_two_leg_chains", |b| {
        b.iter(|| {
            frame = (frame + 7.3) % 2800.0;
            pose.update_scene_with(&miku, Some(&clip), std::hint::black_box(frame), 30.0, &[], &legs);
        })
    });
    g.bench_function("baseline_sample_only", |b| {
        b.iter(|| {
            frame = (frame + 7.3) % 2800.0;
            pose.update(&miku.skeleton, &clip, std::hint::black_box(frame), 30.0);
        })
    });
    g.finish();

    // Issue 25's case: a 200-bone model with its IK chains, appends and 50 morph weights. The character
    // widened to that size: 60 more bones (animated, as a real model's fingers, skirt and accessories are) and
    // 20 more morphs (keyed by the clip), every IK chain and append of the original kept.
    let (wide, wide_clip) = widened(&miku, &clip, 200, 50);
    let mut g = c.benchmark_group("pose_frame_200_bones_50_morphs");
    g.bench_function("update_scene_with_ik", |b| {
        b.iter(|| {
            frame = (frame + 7.3) % 2800.0;
            pose.update_scene(&wide, Some(&wide_clip), std::hint::black_box(frame), 30.0, &[]);
        })
    });
    g.bench_function("update_scene_two_leg_chains", |b| {
        b.iter(|| {
            frame = (frame + 7.3) % 2800.0;
            pose.update_scene_with(&wide, Some(&wide_clip), std::hint::black_box(frame), 30.0, &[], &legs);
        })
    });
    g.bench_function("baseline_sample_only", |b| {
        b.iter(|| {
            frame = (frame + 7.3) % 2800.0;
            pose.update(&wide.skeleton, &wide_clip, std::hint::black_box(frame), 30.0);
        })
    });
    g.finish();
}

/// The whole dance (2 810 frames) attached to the corpus's VRM 0.x avatar through the proxy MMD skeleton and
/// baked onto its humanoid (`anim::attach`: proxy built, VMD matched, every frame posed with IK and carried over);
/// baseline: the same dance attached to its own PMD character by name (no frame posed).
fn humanoid_bake(c: &mut Criterion) {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
    let load = |rel: &str| rigscope::load_path(std::path::Path::new(&format!("{corpus}/{rel}"))).unwrap();
    let avatar = load("vrm/EmissionMigration_v0.107.0.vrm");
    let miku = load("mmd/threejs/miku/miku_v2.pmd");
    let dance = load("mmd/threejs/vmds/wavefile_v2.vmd");
    let mut g = c.benchmark_group("vmd_on_vrm");
    g.sample_size(10);
    g.bench_function("attach_through_proxy", |b| {
        b.iter(|| rigscope::anim::attach(&mut avatar.clone(), std::hint::black_box(&dance), "wavefile").unwrap())
    });
    g.bench_function("baseline_attach_by_name_to_pmd", |b| {
        b.iter(|| rigscope::anim::attach(&mut miku.clone(), std::hint::black_box(&dance), "wavefile").unwrap())
    });
    g.finish();
}

/// `scene` and its `clip` grown to `bones` bones and `morphs` morphs: each added bone hangs from an existing one
/// (round robin over the skeleton) and plays a copy of an existing bone's track; each added morph copies an
/// existing morph and its weight track under a new name.
fn widened(scene: &rigscope::scene::Scene, clip: &Clip, bones: usize, morphs: usize) -> (rigscope::scene::Scene, Clip) {
    let mut scene = scene.clone();
    let mut clip = clip.clone();
    let ClipData::Keyed { tracks } = &mut clip.data else { panic!("a keyed dance") };
    let first = scene.skeleton.len();
    let mut joints = scene.skeleton.joints.clone();
    for k in 0..bones.saturating_sub(first) {
        let parent = k * 7 % first;
        joints.push(rigscope::scene::Joint {
            name: format!("extra{k}"),
            parent: Some(parent),
            bind: rigscope::scene::Transform { translation: Vec3::new(0.0, 0.3, 0.1), ..Default::default() },
        });
        let source = tracks[k % tracks.len()].clone();
        tracks.push(rigscope::scene::Track { joint: first + k, ..source });
    }
    scene.skeleton = rigscope::scene::Skeleton::new(joints, true).unwrap();
    let have = scene.morphs.len();
    let keyed = clip.morphs.len();
    for k in 0..morphs.saturating_sub(have) {
        let mut m = scene.morphs[k % have].clone();
        m.name = format!("extra_morph{k}");
        scene.morphs.push(m);
        let mut t = clip.morphs[k % keyed].clone();
        t.name = format!("extra_morph{k}");
        clip.morphs.push(t);
    }
    assert_eq!((scene.skeleton.len(), scene.morphs.len()), (bones, morphs));
    (scene, clip)
}

criterion_group!(benches, load, morph_frame, pose_frame, humanoid_bake);
criterion_main!(benches);

//! GPU skinning matches CPU skinning (`rigscope::anim::skin_positions`, `skin_normals`).
//!
//! `render::capture_skinning` runs the mesh shader's own skinning function over the uploaded vertex buffers and
//! the palette storage buffer and reads back every vertex's skinned position, normal and tangent. Needs a GPU
//! adapter (lavapipe on CI); without one these fail rather than skip.

mod common;

use common::corpus;
use glam::{Mat3, Mat4, Vec3};
use rigscope::Scene;
use rigscope::anim::{Pose, skin_normals, skin_positions};
use rigscope::render::{GpuModel, Headless, capture_skinning};
use rigscope::scene::DEFAULT_FPS;
use rigscope::synth::{SynthSpec, document};

fn headless() -> Headless {
    Headless::new().unwrap_or_else(|e| panic!("{e}"))
}

/// The CPU's blended 3×3 for a vertex, as src/anim/skin.rs blends it (None: unskinned).
fn blend3(scene: &Scene, i: usize, palette: &[Mat4]) -> Option<Mat3> {
    let (js, ws) = (scene.vertices.joints.as_ref()?, scene.vertices.weights.as_ref()?);
    let mut m = Mat4::ZERO;
    let mut total = 0.0;
    for (&j, &w) in js[i].iter().zip(&ws[i]) {
        if w != 0.0 {
            m += *palette.get(j as usize)? * w;
            total += w;
        }
    }
    (total != 0.0).then(|| Mat3::from_mat4(m))
}

/// Skins `scene` under `pose` both ways and compares every vertex.
fn compare(headless: &Headless, scene: &Scene, pose: &Pose, what: &str) {
    let model = GpuModel::upload(headless.renderer(), scene, None);
    let gpu = capture_skinning(headless.renderer(), &model, pose).unwrap();
    let cpu = skin_positions(&scene.vertices, &pose.palette);
    assert_eq!(gpu.positions.len(), cpu.len(), "{what}");
    let size = rigscope::scene::FrameBounds::of_points(&cpu).unwrap().diagonal();
    let tolerance = size * 1e-5 + 1e-6;
    let worst = gpu.positions.iter().zip(&cpu).map(|(g, c)| (*g - *c).length()).fold(0.0, f32::max);
    assert!(worst <= tolerance, "{what}: positions differ by up to {worst} (model size {size})");

    if let Some(normals) = skin_normals(&scene.vertices, &pose.palette) {
        for (i, (g, c)) in gpu.normals.iter().zip(&normals).enumerate() {
            let ok = if *c == Vec3::ZERO { g.length() < 1e-3 } else { g.dot(*c) > 0.9999 };
            assert!(ok, "{what}: normal {i}: GPU {g}, CPU {c}");
        }
    }
    if let Some(tangents) = &scene.vertices.tangents {
        for (i, (g, t)) in gpu.tangents.iter().zip(tangents).enumerate() {
            let m = blend3(scene, i, &pose.palette).unwrap_or(Mat3::IDENTITY);
            let c = (m * t.truncate()).normalize_or_zero();
            let ok = if c == Vec3::ZERO { g.truncate().length() < 1e-3 } else { g.truncate().dot(c) > 0.9999 };
            assert!(ok && g.w == t.w, "{what}: tangent {i}: GPU {g}, CPU {c} w {}", t.w);
        }
    }
}

fn load(rel: &str) -> Scene {
    rigscope::load_path(&corpus(rel)).unwrap()
}

#[test]
fn gpu_skinning_matches_cpu_on_real_models() {
    let h = headless();
    for (scene, clip, frame, what) in [
        (load("iqm/lsalzman_mrfixit.iqm"), 0, 50.0, "mrfixit frame 50"),
        (load("iqm/raylib_guy.iqm"), 1, 30.5, "guy dance frame 30.5"),
    ] {
        let pose = Pose::sample(&scene.skeleton, &scene.clips[clip], frame, DEFAULT_FPS);
        compare(&h, &scene, &pose, what);
        compare(&h, &scene, &Pose::bind(&scene.skeleton), &format!("{what} (bind pose)"));
    }
}

#[test]
fn gpu_skinning_matches_cpu_on_the_demo_model() {
    let h = headless();
    let scene = rigscope::load_path(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo.iqm")).unwrap();
    for (c, clip) in scene.clips.iter().enumerate() {
        let frame = clip.frame_span() * 0.37;
        let pose = Pose::sample(&scene.skeleton, clip, frame, DEFAULT_FPS);
        compare(&h, &scene, &pose, &format!("demo clip {c} frame {frame}"));
    }
}

#[test]
fn no_joint_cap() {
    // 300 joints: more than any uniform-array palette would hold.
    let bytes = document(SynthSpec { vertices: 3000, joints: 300, frames: 4 }).to_bytes();
    let scene = rigscope::load_bytes("synth.iqm", &bytes).unwrap();
    assert_eq!(scene.skeleton.len(), 300);
    let pose = Pose::sample(&scene.skeleton, &scene.clips[0], 2.5, DEFAULT_FPS);
    compare(&headless(), &scene, &pose, "synthetic 300 joints");
}

#[test]
fn missing_textures_get_the_placeholder_and_are_listed() {
    let h = headless();
    let path = corpus("iqm/lsalzman_mrfixit.iqm");
    let scene = rigscope::load_path(&path).unwrap();
    let model = GpuModel::upload(h.renderer(), &scene, path.parent());
    let mut missing: Vec<String> =
        model.missing_texture_paths().iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    missing.sort();
    assert_eq!(missing, ["Body.tga", "Head.tga"]);

    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo.iqm");
    let scene = rigscope::load_path(&demo).unwrap();
    let model = GpuModel::upload(h.renderer(), &scene, demo.parent());
    assert!(model.texture_problems().is_empty(), "{:?}", model.texture_problems());
}

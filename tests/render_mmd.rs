//! MMD models on the GPU, on the real PMD character: vertex morphs drawn by the vertex shader
//! match the CPU's (`anim::apply_morphs`, then skinning), a mouth and a blink change the face and nothing else,
//! material and bone morphs change the picture, MMD materials draw in their diffuse colours, and the IK
//! overlay draws the chains. Needs a GPU adapter (lavapipe on CI); without one these
//! fail rather than skip.

use std::path::PathBuf;

use glam::Vec3;
use image::RgbaImage;
use rigscope::Scene;
use rigscope::anim::{Pose, apply_morphs, effective_morph_weights, skin_positions};
use rigscope::render::{Background, Camera, FrameInput, GpuModel, Headless, Overlays, ViewState, capture_skinning};

fn miku() -> Scene {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/mmd/threejs/miku/miku_v2.pmd"));
    assert!(p.is_file(), "corpus file missing: {}", p.display());
    rigscope::load_path(&p).unwrap()
}

fn headless() -> Headless {
    Headless::new().unwrap_or_else(|e| panic!("{e}"))
}

/// Effective weights with the named morphs at `w`.
fn weights(scene: &Scene, names: &[&str], w: f32) -> Vec<f32> {
    let own: Vec<f32> = scene.morphs.iter().map(|m| if names.contains(&m.name.as_str()) { w } else { 0.0 }).collect();
    assert_eq!(own.iter().filter(|&&x| x != 0.0).count(), names.len(), "every morph named exists");
    effective_morph_weights(&scene.morphs, &own)
}

#[test]
fn gpu_vertex_morphs_match_the_cpu() {
    let scene = miku();
    let headless = headless();
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let mut pose = Pose::bind(&scene.skeleton);
    pose.morphs = weights(&scene, &["あ", "まばたき", "笑い"], 0.75);
    let gpu = capture_skinning(headless.renderer(), &model, &pose).unwrap();
    let mut streams = scene.vertices.clone();
    apply_morphs(&scene.morphs, &pose.morphs, &mut streams.positions, None);
    let cpu = skin_positions(&streams, &pose.palette);
    let moved = scene.vertices.positions.iter().zip(&cpu).filter(|(a, b)| a.distance(**b) > 1e-3).count();
    assert!(moved > 300, "the morphs move vertices ({moved})");
    for (i, (g, c)) in gpu.positions.iter().zip(&cpu).enumerate() {
        assert!(g.distance(*c) < 1e-4, "vertex {i}: GPU {g} vs CPU {c}");
    }
    // Back to 0: the same buffer, the bind positions again.
    pose.morphs.iter_mut().for_each(|w| *w = 0.0);
    let gpu = capture_skinning(headless.renderer(), &model, &pose).unwrap();
    for (i, (g, p)) in gpu.positions.iter().zip(&scene.vertices.positions).enumerate() {
        assert!(g.distance(*p) < 1e-4, "vertex {i}: GPU {g} vs bind {p}");
    }
}

fn camera(scene: &Scene, size: (u32, u32)) -> Camera {
    let bounds = rigscope::scene::FrameBounds::of_points(&scene.vertices.positions).unwrap();
    Camera::framing(scene.up, &bounds, 0.0, 0.0, size.0 as f32 / size.1 as f32)
}

fn draw(headless: &Headless, scene: &Scene, model: &GpuModel, pose: &Pose, size: (u32, u32)) -> RgbaImage {
    let camera = camera(scene, size);
    let overlays = Overlays::default();
    let input = FrameInput { camera: &camera, pose, overlays: &overlays, time: 0.0 };
    let mut view = ViewState::new(headless.renderer());
    headless.render(model, &mut view, &input, size, Background::Color([0, 0, 0])).unwrap()
}

#[test]
fn a_mouth_and_a_blink_change_the_face_and_nothing_else() {
    let scene = miku();
    let headless = headless();
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let size = (300, 600);
    let mut pose = Pose::bind(&scene.skeleton);
    let rest = draw(&headless, &scene, &model, &pose, size);
    pose.morphs = weights(&scene, &["あ", "まばたき"], 1.0);
    let face = draw(&headless, &scene, &model, &pose, size);
    let changed: Vec<(u32, u32)> = rest
        .enumerate_pixels()
        .filter(|(x, y, p)| face.get_pixel(*x, *y).0.iter().zip(p.0).any(|(a, b)| a.abs_diff(b) > 24))
        .map(|(x, y, _)| (x, y))
        .collect();
    assert!(changed.len() > 40, "the face changed ({} pixels)", changed.len());
    // Every changed row lies within 6% of the picture, around where the head joint is drawn.
    let rows: Vec<u32> = changed.iter().map(|&(_, y)| y).collect();
    let (top, bottom) = (*rows.iter().min().unwrap() as f32, *rows.iter().max().unwrap() as f32);
    assert!((bottom - top) / (size.1 as f32) < 0.06, "the change is confined to the face: rows {top}..{bottom}");
    let head = scene.skeleton.joints.iter().position(|j| j.name == "頭").expect("the model has a head bone");
    let camera = camera(&scene, size);
    let p = pose.world[head].transform_point3(Vec3::ZERO);
    let clip = camera.view_proj(size.0 as f32 / size.1 as f32) * camera.model_matrix() * p.extend(1.0);
    let head_row = (1.0 - clip.y / clip.w) / 2.0 * size.1 as f32;
    // The eyes and mouth are a little above the head bone (MMD puts it at the neck's top).
    let middle = (top + bottom) / 2.0;
    assert!(
        middle < head_row && head_row - middle < 0.05 * size.1 as f32,
        "face rows {top}..{bottom}, head at {head_row}"
    );
}

#[test]
fn mmd_materials_draw_in_their_diffuse_colours() {
    let scene = miku();
    let headless = headless();
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let pose = Pose::bind(&scene.skeleton);
    let img = draw(&headless, &scene, &model, &pose, (300, 600));
    // Miku's hair is teal: green and blue well above red. A grey model has none of it.
    let teal =
        img.pixels().filter(|p| p.0[1] > p.0[0].saturating_add(40) && p.0[2] > p.0[0].saturating_add(40)).count();
    let drawn = img.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
    assert!(drawn > 10_000, "the character is drawn ({drawn} pixels)");
    assert!(teal * 5 > drawn, "a fifth or more of the character is teal ({teal} of {drawn})");
}

/// A material morph that multiplies a material's alpha by 0 hides it (MMD models hide accessories so), and a
/// bone morph moves what its joint carries: both through the same pose the window draws.
#[test]
fn material_and_bone_morphs_change_the_picture() {
    use glam::{Quat, Vec4};
    use rigscope::scene::{BoneOffset, MaterialOffset, MaterialOp, Morph, MorphKind, MorphPanel};
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/mmd/yohawing/test_1bone_cube.pmx"));
    let mut scene = rigscope::load_path(&p).unwrap();
    assert_eq!(scene.materials.len(), 1);
    let hide = MaterialOffset {
        material: Some(0),
        op: MaterialOp::Multiply,
        diffuse: Vec4::new(1.0, 1.0, 1.0, 0.0),
        specular: Vec3::ONE,
        specular_power: 1.0,
        ambient: Vec3::ONE,
        edge_color: Vec4::ONE,
        edge_size: 1.0,
        texture_tint: Vec4::ONE,
        sphere_tint: Vec4::ONE,
        toon_tint: Vec4::ONE,
    };
    // A quarter of the cube's height.
    let bounds = rigscope::scene::FrameBounds::of_points(&scene.vertices.positions).unwrap();
    let lift = (bounds.max.y - bounds.min.y) / 4.0;
    let morph = |name: &str, kind| Morph { name: name.into(), name_en: String::new(), panel: MorphPanel::Other, kind };
    scene.morphs = vec![
        morph("hide", MorphKind::Material(vec![hide])),
        morph(
            "lift",
            MorphKind::Bone(vec![BoneOffset {
                joint: 0,
                translation: Vec3::new(0.0, lift, 0.0),
                rotation: Quat::IDENTITY,
            }]),
        ),
    ];
    let headless = headless();
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let size = (160, 160);
    let at = |weights: [Option<f32>; 2]| {
        let pose = Pose::of_scene(&scene, None, 0.0, 30.0, &weights);
        draw(&headless, &scene, &model, &pose, size)
    };
    let drawn = |img: &RgbaImage| img.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
    let (plain, hidden, lifted, back) =
        (at([None, None]), at([Some(1.0), None]), at([None, Some(1.0)]), at([None, None]));
    assert!(drawn(&plain) > 2000, "the cube is drawn ({} pixels)", drawn(&plain));
    assert_eq!(drawn(&hidden), 0, "its only material is hidden");
    assert_eq!(plain, back, "weights back at 0 draw the cube as before");
    let top =
        |img: &RgbaImage| img.enumerate_pixels().find(|(_, _, p)| p.0[..3] != [0, 0, 0]).map(|(_, y, _)| y).unwrap();
    assert!(
        top(&lifted) + 5 < top(&plain),
        "the bone morph lifts the cube: top row {} vs {}",
        top(&lifted),
        top(&plain)
    );
}

/// The IK overlay draws Miku's seven chains (legs, toes, hair) over the view: with the mesh off, lines appear
/// where there were none, red at the goals.
#[test]
fn the_ik_overlay_draws_the_chains() {
    let scene = miku();
    let headless = headless();
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let size = (300, 600);
    let camera = camera(&scene, size);
    let pose = Pose::bind(&scene.skeleton);
    let render = |ik_chains: bool| {
        let overlays = Overlays { mesh: false, grid: false, ik_chains, ..Overlays::default() };
        let input = FrameInput { camera: &camera, pose: &pose, overlays: &overlays, time: 0.0 };
        let mut view = ViewState::new(headless.renderer());
        headless.render(&model, &mut view, &input, size, Background::Color([0, 0, 0])).unwrap()
    };
    let (off, on) = (render(false), render(true));
    let lit = |img: &RgbaImage| img.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
    let red = on.pixels().filter(|p| p.0[0] > 180 && p.0[1] < 140 && p.0[2] < 140).count();
    assert_eq!(lit(&off), 0, "nothing is drawn without the mesh and overlays");
    assert!(lit(&on) > 300 && red > 50, "chains drawn ({} pixels, {red} red)", lit(&on));
}

/// MMD edges: with outlines on, dark lines appear along Miku's silhouettes (her materials' edge colour is
/// black); off, the picture is the plain one. The PMD's edge flag and size make the scene's outlines.
#[test]
fn outlines_draw_dark_edges_along_the_silhouette() {
    let scene = miku();
    assert!(scene.materials.iter().filter(|m| m.outline.is_some()).count() >= 5, "most materials have edges");
    let headless = headless();
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let size = (300, 600);
    let camera = camera(&scene, size);
    let pose = Pose::bind(&scene.skeleton);
    let render = |outline: bool| {
        let overlays = Overlays { grid: false, outline, ..Overlays::default() };
        let input = FrameInput { camera: &camera, pose: &pose, overlays: &overlays, time: 0.0 };
        let mut view = ViewState::new(headless.renderer());
        headless.render(&model, &mut view, &input, size, Background::Color([255, 255, 255])).unwrap()
    };
    let (plain, edged) = (render(false), render(true));
    let dark = |img: &RgbaImage| img.pixels().filter(|p| p.0[..3].iter().all(|&c| c < 40)).count();
    let grown = edged
        .pixels()
        .zip(plain.pixels())
        .filter(|(e, p)| p.0[..3] == [255, 255, 255] && e.0[..3] != [255, 255, 255])
        .count();
    assert!(dark(&edged) > dark(&plain) + 300, "edges add dark pixels ({} vs {})", dark(&edged), dark(&plain));
    assert!(grown > 300, "the outline grows the silhouette over the background ({grown} pixels)");
}

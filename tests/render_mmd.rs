//! MMD models on the GPU, on the real PMD character: vertex morphs drawn by the vertex shader
//! match the CPU's (`anim::apply_morphs`, then skinning), a mouth and a blink change the face and nothing else,
//! material and bone morphs change the picture, MMD materials draw in their diffuse colours, and the IK
//! overlay draws the chains. Needs a GPU adapter (lavapipe on CI); without one these
//! fail rather than skip.

mod common;

use std::path::PathBuf;

use common::Scratch;

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

/// What a still picture of the bind pose or a pose is drawn from: `camera`, `pose`, `overlays`, the light and the
/// self-shadow, at time 0 with no reference.
fn still<'a>(
    camera: &'a Camera,
    pose: &'a Pose,
    overlays: &'a Overlays,
    light: Option<rigscope::scene::Light>,
    self_shadow: Option<rigscope::scene::SelfShadow>,
) -> FrameInput<'a> {
    FrameInput { camera, pose, overlays, time: 0.0, reference_pose: None, light, self_shadow }
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
    draw_over(headless, (scene, model, pose), &Overlays::default(), size, [0, 0, 0])
}

/// `draw` with these overlays over this background colour, lit as the scene is.
fn draw_over(
    headless: &Headless,
    (scene, model, pose): (&Scene, &GpuModel, &Pose),
    overlays: &Overlays,
    size: (u32, u32),
    background: [u8; 3],
) -> RgbaImage {
    let camera = camera(scene, size);
    let light = scene.light_at(0.0, true);
    let self_shadow = scene.self_shadow_at(0.0, true);
    let input = FrameInput { camera: &camera, pose, overlays, time: 0.0, reference_pose: None, light, self_shadow };
    let mut view = ViewState::new(headless.renderer());
    headless.render(model, &mut view, &input, size, Background::Color(background)).unwrap()
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
    let pose = Pose::bind(&scene.skeleton);
    let render = |ik_chains: bool| {
        draw_over(
            &headless,
            (&scene, &model, &pose),
            &Overlays { mesh: false, grid: false, ik_chains, ..Overlays::default() },
            size,
            [0, 0, 0],
        )
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
    let pose = Pose::bind(&scene.skeleton);
    let render = |outline: bool| {
        draw_over(
            &headless,
            (&scene, &model, &pose),
            &Overlays { grid: false, outline, ..Overlays::default() },
            size,
            [255, 255, 255],
        )
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

/// A white unit ball facing the camera, Y up, with one material that a test gives a sphere map or a toon ramp.
fn ball() -> Scene {
    use glam::{Vec2, Vec4};
    use rigscope::scene::{Format, Material, Mesh, Metadata, UpAxis};
    let (rings, segments) = (24u32, 48u32);
    let mut positions = Vec::new();
    let mut texcoords = Vec::new();
    for r in 0..=rings {
        let theta = std::f32::consts::PI * r as f32 / rings as f32;
        for s in 0..=segments {
            let phi = std::f32::consts::TAU * s as f32 / segments as f32;
            positions.push(Vec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin()));
            texcoords.push(Vec2::new(s as f32 / segments as f32, r as f32 / rings as f32));
        }
    }
    let mut triangles = Vec::new();
    let at = |r: u32, s: u32| r * (segments + 1) + s;
    for r in 0..rings {
        for s in 0..segments {
            for mut t in [[at(r, s), at(r + 1, s), at(r + 1, s + 1)], [at(r, s), at(r + 1, s + 1), at(r, s + 1)]] {
                let [a, b, c] = t.map(|i| positions[i as usize]);
                // Counter-clockwise seen from outside.
                if (b - a).cross(c - a).dot(a + b + c) < 0.0 {
                    t.swap(1, 2);
                }
                triangles.push(t);
            }
        }
    }
    let mut scene = Scene::empty(Metadata::new(Format::Pmx, "ball.pmx"));
    scene.up = UpAxis::Y;
    scene.vertices.normals = Some(positions.clone());
    scene.vertices.positions = positions;
    scene.vertices.texcoords = Some(texcoords);
    scene.meshes = vec![Mesh {
        name: "ball".into(),
        material: 0,
        first_triangle: 0,
        num_triangles: triangles.len() as u32,
        first_vertex: 0,
        num_vertices: scene.vertices.positions.len() as u32,
        two_sided: false,
        uv_animation: None,
    }];
    scene.triangles = triangles;
    scene.materials = vec![Material { color: Some(Vec4::ONE), ..Material::new("white", Some(String::new())) }];
    scene
}

/// Draws `scene` with its textures from `dir`, front view, 128 × 128.
fn draw_textured(headless: &Headless, scene: &Scene, dir: &std::path::Path) -> RgbaImage {
    let textures = rigscope::textures::TextureSet::load(scene, Some(dir));
    assert!(textures.problems().is_empty(), "{:?}", textures.problems());
    let model = GpuModel::upload_textures(headless.renderer(), scene, &textures);
    draw(headless, scene, &model, &Pose::bind(&scene.skeleton), (128, 128))
}

fn texture_dir(name: &str) -> Scratch {
    Scratch::new(&format!("mmd-shading-{name}"))
}

/// The mean colour of the pixels in a square of side 9 around (x, y).
fn mean(img: &RgbaImage, x: u32, y: u32) -> [f32; 3] {
    let mut sum = [0.0f32; 3];
    for dy in 0..9 {
        for dx in 0..9 {
            let p = img.get_pixel(x + dx - 4, y + dy - 4).0;
            (0..3).for_each(|c| sum[c] += p[c] as f32 / 81.0);
        }
    }
    sum
}

fn pixel(img: &RgbaImage, x: u32, y: u32) -> [f32; 3] {
    let p = img.get_pixel(x, y).0;
    [p[0], p[1], p[2]].map(f32::from)
}

/// The first and last rows with anything drawn on the black background.
fn rows_drawn(img: &RgbaImage) -> (u32, u32) {
    let rows: Vec<u32> = img.enumerate_pixels().filter(|(_, _, p)| p.0[..3] != [0, 0, 0]).map(|(_, y, _)| y).collect();
    (*rows.iter().min().unwrap(), *rows.iter().max().unwrap())
}

/// The ball with a toon ramp white in its top half and blue in its bottom half, written to a fresh folder (returned).
fn ramp_ball(name: &str) -> (Scene, Scratch) {
    let dir = texture_dir(name);
    image::RgbaImage::from_fn(4, 32, |_, y| image::Rgba(if y < 16 { [255; 4] } else { [0, 0, 255, 255] }))
        .save(dir.join("ramp.png"))
        .unwrap();
    let mut scene = ball();
    scene.materials[0].toon =
        Some(rigscope::scene::ToonRamp { texture: Some("ramp.png".into()), shared: false, highlight: true });
    (scene, dir)
}

/// Sphere maps are read at the normal as the camera sees it: a map black on its left half and white on its right
/// multiplies the ball's left side to black and leaves its right side lit; a green map added turns the ball green
/// where it was grey without touching red.
#[test]
fn sphere_maps_multiply_and_add_by_the_view_normal() {
    use rigscope::scene::{SphereBlend, SphereMap};
    let headless = headless();
    let dir = texture_dir("sphere");
    image::RgbaImage::from_fn(64, 64, |x, _| image::Rgba(if x < 32 { [0, 0, 0, 255] } else { [255; 4] }))
        .save(dir.join("halves.png"))
        .unwrap();
    // `.spa` is a BMP by another name; the image crate writes by extension, so write a BMP and rename it.
    image::RgbaImage::from_pixel(8, 8, image::Rgba([0, 160, 0, 255])).save(dir.join("green.bmp")).unwrap();
    std::fs::rename(dir.join("green.bmp"), dir.join("green.spa")).unwrap();

    let mut scene = ball();
    let plain = draw_textured(&headless, &scene, &dir);
    scene.materials[0].sphere = Some(SphereMap { texture: "halves.png".into(), blend: SphereBlend::Multiply });
    let halves = draw_textured(&headless, &scene, &dir);
    scene.materials[0].sphere = Some(SphereMap { texture: "green.spa".into(), blend: SphereBlend::Add });
    let green = draw_textured(&headless, &scene, &dir);

    let (left, right, centre) = ((40, 64), (88, 64), (64, 64));
    let lum = |c: [f32; 3]| c.iter().sum::<f32>() / 3.0;
    assert!(lum(mean(&plain, left.0, left.1)) > 120.0, "the plain ball is lit on the left: {:?}", mean(&plain, 40, 64));
    assert!(lum(mean(&halves, left.0, left.1)) < 10.0, "left half multiplied by black: {:?}", mean(&halves, 40, 64));
    let (r_plain, r_halves) = (mean(&plain, right.0, right.1), mean(&halves, right.0, right.1));
    assert!((lum(r_plain) - lum(r_halves)).abs() < 3.0, "right half multiplied by white: {r_plain:?} vs {r_halves:?}");
    let (c_plain, c_green) = (mean(&plain, centre.0, centre.1), mean(&green, centre.0, centre.1));
    assert!(c_green[1] > c_plain[1] + 20.0 || c_green[1] > 250.0, "green added: {c_plain:?} → {c_green:?}");
    assert!((c_green[0] - c_plain[0]).abs() < 3.0, "red untouched: {c_plain:?} → {c_green:?}");
}

/// A toon ramp replaces the smooth falloff: with a ramp white at the top and blue at the bottom, the middle of
/// the ball (lit) stays white and its rim (in shadow) turns blue. A shared toon missing from the folder draws the
/// built-in ramp and is not reported missing.
#[test]
fn toon_ramps_shade_the_rim_with_their_bottom_rows() {
    use rigscope::scene::ToonRamp;
    let headless = headless();
    let (mut scene, dir) = ramp_ball("toon");
    let toon = draw_textured(&headless, &scene, &dir);
    let (top, bottom) = rows_drawn(&toon);
    let (centre, rim) = (mean(&toon, 64, (top + bottom) / 2), pixel(&toon, 64, bottom - 2));
    assert!(centre.iter().all(|&c| c > 240.0), "the lit middle stays white: {centre:?}");
    assert!(rim[2] > 200.0 && rim[0] < 40.0 && rim[1] < 40.0, "the rim below is blue: {rim:?}");

    scene.materials[0].toon = Some(ToonRamp { texture: Some("toon03.bmp".into()), shared: true, highlight: true });
    let builtin = draw_textured(&headless, &scene, &dir);
    let (centre, rim) = (mean(&builtin, 64, (top + bottom) / 2), pixel(&builtin, 64, bottom - 2));
    assert!(centre.iter().all(|&c| c > 240.0), "the built-in ramp is white where lit: {centre:?}");
    assert!(rim.iter().all(|&c| c > 150.0 && c < 235.0), "and light grey in shadow: {rim:?}");
}

/// Visibility keys: a VMD whose property keys hide the model from frame 10 to 20 poses it hidden there (and
/// `pose` says so), and the renderer then draws no mesh; an MVD's model-property keys do the same.
#[test]
fn visibility_keys_hide_the_model_between_them() {
    use rigscope::formats::mvd::write::{ModelPropertyFrame, MvdDocument, Object, Section};
    use rigscope::formats::vmd::write::{PropertyKey, VmdDocument};
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/mmd/yohawing/test_1bone_cube.pmx"));
    let mut scene = rigscope::load_path(&p).unwrap();
    let mut vmd = VmdDocument::new("cube");
    for (frame, visible) in [(0, true), (10, false), (20, true)] {
        vmd.properties.push(PropertyKey { frame, visible, ik: Vec::new() });
    }
    let motion = rigscope::load_bytes("hide.vmd", &vmd.to_bytes()).unwrap();
    rigscope::anim::attach(&mut scene, &motion, "hide.vmd").unwrap();
    let clip = scene.clips[0].clone();
    let hidden = |f: f32| Pose::of_scene(&scene, Some(&clip), f, 30.0, &[]).hidden;
    assert_eq!(
        [hidden(5.0), hidden(10.0), hidden(15.0), hidden(20.0), hidden(25.0)],
        [false, true, true, false, false]
    );
    let json = rigscope::report::pose_json(&scene, "cube", Some((0, 15.0)), &Default::default()).unwrap();
    assert!(json.contains("\"hidden\":true"), "{json}");

    let headless = headless();
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let drawn = |f: f32| {
        let pose = Pose::of_scene(&scene, Some(&clip), f, 30.0, &[]);
        draw(&headless, &scene, &model, &pose, (96, 96)).pixels().filter(|p| p.0[..3] != [0, 0, 0]).count()
    };
    assert!(drawn(5.0) > 500, "shown before the key ({})", drawn(5.0));
    assert_eq!(drawn(15.0), 0, "hidden between the keys");

    // The same from an MVD's model properties (its own keyFps, 30 here).
    let mut o = Object::new("cube", 30.0);
    let frame = |time, visible| ModelPropertyFrame {
        time,
        visible,
        edge_width: 1.0,
        scale: 1.0,
        ik_enabled: Vec::new(),
        relations: Vec::new(),
    };
    o.sections.push(Section::ModelProperty {
        minor: 0,
        ik_bones: Vec::new(),
        relations: 0,
        mmm_bug: false,
        frames: vec![frame(0, true), frame(10, false), frame(20, true)],
    });
    let mut doc = MvdDocument::new(rigscope::scene::MvdEncoding::Utf8);
    doc.objects.push(o);
    let mvd = rigscope::load_bytes("hide.mvd", &doc.to_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let c = &mvd.clips[0];
    assert_eq!([c.visible_at(0.2), c.visible_at(0.5), c.visible_at(0.7)], [true, false, true]);
}

/// The mean colour of everything drawn on the black background.
fn mean_drawn(img: &RgbaImage) -> [f32; 3] {
    let drawn: Vec<[u8; 4]> = img.pixels().map(|p| p.0).filter(|p| p[..3] != [0, 0, 0]).collect();
    let n = drawn.len().max(1) as f32;
    [0, 1, 2].map(|c| drawn.iter().map(|p| f32::from(p[c])).sum::<f32>() / n)
}

/// The character drawn in the bind pose under `light`.
fn drawn_under(headless: &Headless, scene: &Scene, light: Option<rigscope::scene::Light>) -> RgbaImage {
    let model = GpuModel::upload(headless.renderer(), scene, None);
    let pose = Pose::bind(&scene.skeleton);
    let camera = camera(scene, (160, 240));
    let overlays = Overlays::default();
    let input = still(&camera, &pose, &overlays, light, None);
    let mut view = ViewState::new(headless.renderer());
    headless.render(&model, &mut view, &input, (160, 240), Background::Color([0, 0, 0])).unwrap()
}

/// Red over green, and green and blue fallen, between the character under the default light and under `red`.
fn assert_turned_red(before: [f32; 3], after: [f32; 3]) {
    let ratio = |c: [f32; 3]| c[0] / c[1].max(1.0);
    assert!(
        ratio(after) > 1.5 * ratio(before),
        "red over green: {before:?} under the default light, {after:?} under red"
    );
    assert!(after[1] < 0.8 * before[1] && after[2] < 0.8 * before[2], "green and blue fall: {before:?} → {after:?}");
}

/// A light-only VMD (written by rigscope's VMD writer) attaches to the character, and its key drives the light
/// the way MikuMikuDance lights materials, `ambient + diffuse × light colour`: a red light keeps red and takes
/// green and blue down to the ambient share, where the default 154/255 grey light keeps the colours balanced.
#[test]
fn a_red_light_key_turns_the_character_red() {
    use rigscope::formats::vmd::write::VmdDocument;
    let mut scene = miku();
    let default = scene.light_at(0.0, true).expect("MikuMikuDance's default light for an MMD model");
    assert_eq!(default, rigscope::scene::MMD_DEFAULT_LIGHT);
    let mut vmd = VmdDocument::new("カメラ・照明");
    vmd.lights = vec![(0, [1.0, 0.0, 0.0], [-0.5, -1.0, 0.5])];
    let light_only = rigscope::load_bytes("red.vmd", &vmd.to_bytes()).unwrap();
    rigscope::anim::attach(&mut scene, &light_only, "red.vmd").expect("a light-only motion attaches");
    let red = scene.light_at(0.0, true).unwrap();
    assert_eq!(red.color, Vec3::X);
    let headless = headless();
    let before = mean_drawn(&drawn_under(&headless, &scene, Some(default)));
    assert_turned_red(before, mean_drawn(&drawn_under(&headless, &scene, Some(red))));
}

/// The same through MikuMikuMoving: an MVD written by rigscope's MVD writer with only a Light section (a red key
/// at tick 0, then a green one at tick 30 that switches the light off) attaches to the character; at 0 s it
/// turns the picture red as the VMD key does, halfway it is between the two colours, and from 1 s (30 ticks at
/// 30 keyFps) the motion's light is off, so the viewer's own light draws.
#[test]
fn an_mvd_light_key_turns_the_character_red_until_it_switches_the_light_off() {
    use rigscope::formats::mvd::write::{LightFrame, MvdDocument, Object, Section};
    let mut scene = miku();
    let mut d = MvdDocument::new(rigscope::scene::MvdEncoding::Utf16Le);
    let mut o = Object::new("照明", 30.0);
    let off = LightFrame { enabled: false, ..LightFrame::new(30, [0.5, -1.0, -0.5], [0, 255, 0]) };
    let frames = vec![LightFrame::new(0, [-0.5, -1.0, 0.5], [255, 0, 0]), off];
    o.sections.push(Section::Light { minor: 0, item_size: None, frames });
    d.objects.push(o);
    let light_only = rigscope::load_bytes("red.mvd", &d.to_bytes()).unwrap();
    rigscope::anim::attach(&mut scene, &light_only, "red.mvd").expect("a light-only MVD attaches");
    let red = scene.light_at(0.0, true).unwrap();
    assert_eq!((red.color, red.direction), (Vec3::X, Vec3::new(-0.5, -1.0, 0.5)));
    let half = scene.light_at(0.5, true).unwrap();
    assert!((half.color - Vec3::new(0.5, 0.5, 0.0)).length() < 1e-6, "halfway: {half:?}");
    assert_eq!(scene.light_at(1.0, true), None, "switched off by the key at 30 ticks");
    assert_eq!(scene.light_at(1.0, false), Some(rigscope::scene::MMD_DEFAULT_LIGHT), "not from the motion");
    let headless = headless();
    let default = mean_drawn(&drawn_under(&headless, &scene, Some(rigscope::scene::MMD_DEFAULT_LIGHT)));
    assert_turned_red(default, mean_drawn(&drawn_under(&headless, &scene, Some(red))));
    let off = drawn_under(&headless, &scene, scene.light_at(1.0, true));
    let red_again = mean_drawn(&off);
    assert!(red_again[0] / red_again[1].max(1.0) < 1.3, "the switched-off light no longer reddens: {red_again:?}");
}

/// The light's direction shades toon materials as MikuMikuDance does (the ramp read at 0.5 − 0.5·N·L): a ball
/// with a ramp white at the top and blue at the bottom, lit by a light travelling +X, is white on its −X side
/// and blue on its +X side, and the other way round for a light travelling −X.
#[test]
fn the_light_direction_picks_the_lit_side_of_a_toon_ramp() {
    use rigscope::scene::Light;
    let headless = headless();
    let (scene, dir) = ramp_ball("light");
    let textures = rigscope::textures::TextureSet::load(&scene, Some(&*dir));
    let model = GpuModel::upload_textures(headless.renderer(), &scene, &textures);
    let (pose, camera, overlays) = (Pose::bind(&scene.skeleton), camera(&scene, (128, 128)), Overlays::default());
    let shot = |x: f32| {
        let light = Some(Light { color: Vec3::ONE, direction: Vec3::new(x, 0.0, 0.0) });
        let input = still(&camera, &pose, &overlays, light, None);
        let mut view = ViewState::new(headless.renderer());
        headless.render(&model, &mut view, &input, (128, 128), Background::Color([0, 0, 0])).unwrap()
    };
    let (rightward, leftward) = (shot(1.0), shot(-1.0));
    let (left, right) = (|img: &RgbaImage| mean(img, 44, 64), |img: &RgbaImage| mean(img, 84, 64));
    let white = |c: [f32; 3]| c.iter().all(|&v| v > 200.0);
    let blue = |c: [f32; 3]| c[2] > 200.0 && c[0] < 40.0 && c[1] < 40.0;
    assert!(white(left(&rightward)) && blue(right(&rightward)), "{:?} {:?}", left(&rightward), right(&rightward));
    assert!(blue(left(&leftward)) && white(right(&leftward)), "{:?} {:?}", left(&leftward), right(&leftward));
}

/// MikuMikuDance's ground shadow: the character flattened on the floor along the light, in the light's flat
/// colour (nanoem's reading of MikuMikuDance: a brighter light, a paler shadow), on the side away from the light. Seen from the front and above, a light travelling down and toward +X (model space)
/// darkens floor pixels whose centroid lies toward where the model's +X projects, a light toward −X the other
/// way, and with the shadow switched off the floor stays as it was.
#[test]
fn the_ground_shadow_falls_on_the_side_away_from_the_light() {
    use rigscope::scene::Light;
    let scene = miku();
    assert!(scene.materials.iter().any(|m| m.ground_shadow), "the character's edged materials cast one");
    let headless = headless();
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let pose = Pose::bind(&scene.skeleton);
    let size = (240u32, 240u32);
    let mut bounds = rigscope::scene::FrameBounds::of_points(&scene.vertices.positions).unwrap();
    // Frame the floor around the feet too.
    bounds.min -= Vec3::new(8.0, 0.0, 8.0);
    bounds.max += Vec3::new(8.0, 0.0, 8.0);
    let camera = Camera::framing(scene.up, &bounds, 0.0, 0.7, 1.0);
    let shot = |x: f32, shadow: bool| {
        let overlays = Overlays { ground_shadow: shadow, ..Overlays::default() };
        let light = Some(Light { color: Vec3::splat(0.6), direction: Vec3::new(x, -1.0, 0.0) });
        let input = still(&camera, &pose, &overlays, light, None);
        let mut view = ViewState::new(headless.renderer());
        headless.render(&model, &mut view, &input, size, Background::Color([200, 200, 200])).unwrap()
    };
    // Where the shadow darkened the light grey floor: the mean x of those pixels, and how many.
    let darkened = |with: &RgbaImage, without: &RgbaImage| {
        let xs: Vec<f32> = with
            .enumerate_pixels()
            .filter(|(x, y, p)| {
                let q = without.get_pixel(*x, *y).0;
                q[..3] == [200, 200, 200] && p.0[0] < 180
            })
            .map(|(x, _, _)| x as f32)
            .collect();
        (xs.iter().sum::<f32>() / xs.len().max(1) as f32, xs.len())
    };
    let plain = shot(0.4, false);
    let with = shot(0.4, true);
    let (toward_plus, n_plus) = darkened(&with, &plain);
    // MikuMikuDance's shadow is one flat colour, the light's (sRGB 0.6 here: 153), drawn once: every shadowed
    // floor pixel but the antialiased rim holds exactly it, with no seams where the flattened triangles overlap.
    let shadowed: Vec<[u8; 4]> = with
        .enumerate_pixels()
        .filter(|(x, y, p)| plain.get_pixel(*x, *y).0[..3] == [200, 200, 200] && p.0[..3] != [200, 200, 200])
        .map(|(_, _, p)| p.0)
        .collect();
    let flat = shadowed.iter().filter(|p| p[..3].iter().all(|&c| c.abs_diff(153) <= 1)).count();
    assert!(flat * 100 >= shadowed.len() * 90, "{flat} of {} shadowed pixels in the light's colour", shadowed.len());
    let (toward_minus, n_minus) = darkened(&shot(-0.4, true), &shot(-0.4, false));
    assert!(n_plus > 200 && n_minus > 200, "the shadow darkens the floor ({n_plus}, {n_minus} pixels)");
    assert_eq!(darkened(&shot(0.4, false), &plain).1, 0, "no shadow when switched off");
    // Where model +X lands on screen, relative to the model's origin.
    let project = |p: Vec3| {
        let clip = camera.view_proj(1.0) * camera.model_matrix() * p.extend(1.0);
        (clip.x / clip.w * 0.5 + 0.5) * size.0 as f32
    };
    let plus_side = (project(Vec3::new(5.0, 0.0, 0.0)) - project(Vec3::ZERO)).signum();
    assert!(
        (toward_plus - toward_minus) * plus_side > 20.0,
        "the shadow lies away from the light: centroid {toward_plus} for a light toward +X, {toward_minus} toward -X"
    );
}

/// A stage for self-shadow: a 20 × 20 floor at y = 0 (mesh 0, material 0) and a 4 × 4 square at y = 5 over its
/// middle (mesh 1, material 1), both facing up and toon-shaded through a ramp white in its top half and blue
/// in its bottom half (so a shadowed receiver turns blue), written to a fresh folder (returned).
fn stage(name: &str) -> (Scene, Scratch) {
    use glam::Vec4;
    use rigscope::scene::{Format, Material, Mesh, Metadata, ToonRamp, UpAxis};
    let dir = texture_dir(name);
    image::RgbaImage::from_fn(4, 32, |_, y| image::Rgba(if y < 16 { [255; 4] } else { [0, 0, 255, 255] }))
        .save(dir.join("ramp.png"))
        .unwrap();
    let square = |half: f32, y: f32| {
        [(-half, -half), (half, -half), (half, half), (-half, half)].map(|(x, z)| Vec3::new(x, y, z))
    };
    let mut scene = Scene::empty(Metadata::new(Format::Pmx, "stage.pmx"));
    scene.up = UpAxis::Y;
    scene.vertices.positions = [square(10.0, 0.0), square(2.0, 5.0)].concat();
    scene.vertices.normals = Some(vec![Vec3::Y; 8]);
    // Counter-clockwise seen from above.
    scene.triangles = vec![[0, 2, 1], [0, 3, 2], [4, 6, 5], [4, 7, 6]];
    let mesh = |i: u32| Mesh {
        name: format!("mesh {i}"),
        material: i as usize,
        first_triangle: 2 * i,
        num_triangles: 2,
        first_vertex: 4 * i,
        num_vertices: 4,
        two_sided: true,
        uv_animation: None,
    };
    scene.meshes = vec![mesh(0), mesh(1)];
    let toon = Some(ToonRamp { texture: Some("ramp.png".into()), shared: false, highlight: true });
    let material = |name: &str| Material {
        color: Some(Vec4::ONE),
        toon: toon.clone(),
        ..Material::new(name, Some(String::new()))
    };
    scene.materials = vec![material("floor"), material("caster")];
    (scene, dir)
}

/// Where a model-space point of `scene` lands in a `size` picture taken by `camera`.
fn pixel_of(camera: &Camera, size: (u32, u32), p: Vec3) -> (u32, u32) {
    let clip = camera.view_proj(size.0 as f32 / size.1 as f32) * camera.model_matrix() * p.extend(1.0);
    let (x, y) = (clip.x / clip.w, clip.y / clip.w);
    (((x + 1.0) / 2.0 * size.0 as f32) as u32, ((1.0 - y) / 2.0 * size.1 as f32) as u32)
}

/// MikuMikuDance's self-shadow: a caster between the light and the floor darkens the floor to the toon ramp's
/// shadow colour where the light says the shadow falls (the caster's square carried along the light to the
/// floor) and nowhere else; the floor's receive flag off, or the self-shadow switched off, leaves it lit.
#[test]
fn a_caster_shades_the_floor_where_the_light_carries_it_and_only_a_receiver() {
    use rigscope::scene::{Light, MMD_DEFAULT_SELF_SHADOW};
    let headless = headless();
    let (mut scene, dir) = stage("self-shadow");
    let size = (200u32, 200u32);
    let bounds = rigscope::scene::FrameBounds::of_points(&scene.vertices.positions).unwrap();
    let camera = Camera::framing(scene.up, &bounds, 0.0, 0.9, 1.0);
    // Travelling down and toward +X at 45°: the square 5 above the floor shades x 3..7, z −2..2.
    let light = Some(Light { color: Vec3::ONE, direction: Vec3::new(1.0, -1.0, 0.0) });
    let shot = |scene: &Scene, on: bool| {
        let textures = rigscope::textures::TextureSet::load(scene, Some(&*dir));
        let model = GpuModel::upload_textures(headless.renderer(), scene, &textures);
        let overlays = Overlays { self_shadow: on, ..Overlays::default() };
        let pose = Pose::bind(&scene.skeleton);
        let self_shadow = Some(MMD_DEFAULT_SELF_SHADOW);
        let input = still(&camera, &pose, &overlays, light, self_shadow);
        let mut view = ViewState::new(headless.renderer());
        headless.render(&model, &mut view, &input, size, Background::Color([0, 0, 0])).unwrap()
    };
    let at = |img: &RgbaImage, x: f32, z: f32| {
        let (px, py) = pixel_of(&camera, size, Vec3::new(x, 0.0, z));
        mean(img, px, py)
    };
    let blue = |c: [f32; 3]| c[2] > 200.0 && c[0] < 60.0 && c[1] < 60.0;
    let white = |c: [f32; 3]| c.iter().all(|&v| v > 200.0);
    let shadowed = shot(&scene, true);
    assert!(blue(at(&shadowed, 5.0, 0.0)), "in the shadow: {:?}", at(&shadowed, 5.0, 0.0));
    // Half a unit inside the shadow's corners (single pixels: a unit is about six), and half a unit outside
    // each of its edges.
    let one = |img: &RgbaImage, x: f32, z: f32| {
        let (px, py) = pixel_of(&camera, size, Vec3::new(x, 0.0, z));
        pixel(img, px, py)
    };
    for (x, z) in [(3.5, 1.5), (6.5, 1.5), (3.5, -1.5), (6.5, -1.5)] {
        assert!(blue(one(&shadowed, x, z)), "shadowed at ({x}, {z}): {:?}", one(&shadowed, x, z));
    }
    for (x, z) in [(2.5, 0.0), (7.5, 0.0), (5.0, 2.5), (5.0, -2.5), (-5.0, 0.0), (8.8, 6.0), (-2.5, -6.0)] {
        assert!(white(one(&shadowed, x, z)), "lit at ({x}, {z}): {:?}", one(&shadowed, x, z));
    }
    // The caster's own top faces the light: lit.
    let (cx, cy) = pixel_of(&camera, size, Vec3::new(0.0, 5.0, 0.0));
    assert!(white(mean(&shadowed, cx, cy)));
    assert!(white(at(&shot(&scene, false), 5.0, 0.0)), "the self-shadow switched off");
    scene.materials[0].receives_shadow = false;
    assert!(white(at(&shot(&scene, true), 5.0, 0.0)), "a floor that doesn't receive");
    scene.materials[0].receives_shadow = true;
    scene.materials[1].casts_shadow = false;
    assert!(white(at(&shot(&scene, true), 5.0, 0.0)), "a square that doesn't cast");
}

/// A VMD self-shadow key drives the self-shadow: mode 0 turns it off (the picture is the one without
/// self-shadow), mode 1 draws it (the picture differs, and only by darkening).
#[test]
fn a_vmd_self_shadow_key_of_mode_0_turns_the_self_shadow_off() {
    use rigscope::formats::vmd::write::VmdDocument;
    let headless = headless();
    let mut scene = miku();
    assert_eq!(scene.self_shadow_at(0.0, true), Some(rigscope::scene::MMD_DEFAULT_SELF_SHADOW));
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let pose = Pose::bind(&scene.skeleton);
    let size = (160, 320);
    let shot = |scene: &Scene, on: bool| {
        let overlays = Overlays { self_shadow: on, ..Overlays::default() };
        draw_over(&headless, (scene, &model, &pose), &overlays, size, [0, 0, 0])
    };
    let plain = shot(&scene, false);
    let with = shot(&scene, true);
    let sum = |p: &image::Rgba<u8>| p.0[..3].iter().map(|&c| u32::from(c)).sum::<u32>();
    let darker = plain.pixels().zip(with.pixels()).filter(|(a, b)| sum(b) + 30 < sum(a)).count();
    let lighter = plain.pixels().zip(with.pixels()).filter(|(a, b)| sum(b) > sum(a) + 30).count();
    assert!(darker > 200, "the default self-shadow darkens the character somewhere ({darker} pixels)");
    assert!(lighter * 50 < darker, "and hardly lightens anything ({lighter} pixels)");
    let mut vmd = VmdDocument::new("カメラ・照明");
    vmd.shadows = vec![(0, 0, 0.01)];
    let off = rigscope::load_bytes("off.vmd", &vmd.to_bytes()).unwrap();
    rigscope::anim::attach(&mut scene, &off, "off.vmd").expect("a self-shadow-only motion attaches");
    assert_eq!(scene.self_shadow_at(0.0, true), None, "mode 0");
    assert_eq!(scene.self_shadow_at(0.0, false), Some(rigscope::scene::MMD_DEFAULT_SELF_SHADOW));
    assert_eq!(shot(&scene, true), plain, "mode 0 draws what no self-shadow draws");
}

/// No acne: a lone ball casts nothing onto itself, so with the self-shadow on, every pixel where it faces a
/// slanting light by more than N·L = 0.4 (past MikuMikuDance's toon band, which ends at 1/3) stays the ramp's
/// lit white (254 or more), at MikuMikuDance's default distance, where a map texel is 0.043 of the ball's
/// radius of 1. Compared without any bias, the map tints these pixels to 250–254.
#[test]
fn a_lone_ball_does_not_shade_itself() {
    use rigscope::scene::{Light, MMD_DEFAULT_SELF_SHADOW};
    let headless = headless();
    let (scene, dir) = ramp_ball("acne");
    let textures = rigscope::textures::TextureSet::load(&scene, Some(&*dir));
    let model = GpuModel::upload_textures(headless.renderer(), &scene, &textures);
    let size = (160u32, 160u32);
    let (pose, camera) = (Pose::bind(&scene.skeleton), camera(&scene, size));
    let overlays = Overlays { self_shadow: true, ..Overlays::default() };
    // From the upper left and in front of the ball, 50° off the view.
    let travel = Vec3::new(0.6, -0.5, -0.62).normalize();
    let light = Some(Light { color: Vec3::ONE, direction: travel });
    let self_shadow = Some(MMD_DEFAULT_SELF_SHADOW);
    let input = still(&camera, &pose, &overlays, light, self_shadow);
    let mut view = ViewState::new(headless.renderer());
    let img = headless.render(&model, &mut view, &input, size, Background::Color([0, 0, 0])).unwrap();
    let to_clip = camera.view_proj(1.0) * camera.model_matrix();
    let (mut facing, mut dark) = (0, Vec::new());
    for (x, y, p) in img.enumerate_pixels() {
        let ndc = glam::Vec2::new((x as f32 + 0.5) / 80.0 - 1.0, 1.0 - (y as f32 + 0.5) / 80.0);
        let (origin, d) = rigscope::render::ray_through(to_clip, ndc).unwrap();
        // The unit ball at the origin: the nearer root of |o + t·d|² = 1.
        let (b, c) = (origin.dot(d), origin.length_squared() - 1.0);
        let Some(t) = (b * b - c >= 0.0).then(|| -b - (b * b - c).sqrt()) else { continue };
        let normal = (origin + d * t).normalize();
        if normal.dot(-travel) > 0.4 {
            facing += 1;
            if p.0[..3].iter().any(|&v| v < 254) {
                dark.push((x, y, p.0));
            }
        }
    }
    assert!(facing > 3000, "the lit side is in the picture ({facing} pixels)");
    // The ball's polygons stray from the sphere by a pixel at most.
    assert!(
        dark.len() * 200 < facing,
        "{} of {facing} lit pixels darkened: {:?}",
        dark.len(),
        &dark[..dark.len().min(8)]
    );
}

/// No acne on a flat receiver at a slant, the worst case for a filtered map: the stage's floor alone (its
/// square casting nothing), lit at 63° from its normal (N·L = 0.45, past MikuMikuDance's toon band), stays the
/// ramp's lit white (254 or more) wherever it is drawn. Compared without any bias, the map tints it to 245–247.
#[test]
fn a_slanted_floor_does_not_shade_itself() {
    use rigscope::scene::{Light, MMD_DEFAULT_SELF_SHADOW};
    let headless = headless();
    let (mut scene, dir) = stage("slant");
    scene.materials[1].casts_shadow = false;
    let textures = rigscope::textures::TextureSet::load(&scene, Some(&*dir));
    let model = GpuModel::upload_textures(headless.renderer(), &scene, &textures);
    let size = (200u32, 200u32);
    let bounds = rigscope::scene::FrameBounds::of_points(&scene.vertices.positions).unwrap();
    let camera = Camera::framing(scene.up, &bounds, 0.0, 0.9, 1.0);
    let pose = Pose::bind(&scene.skeleton);
    let overlays = Overlays { self_shadow: true, ..Overlays::default() };
    let light = Some(Light { color: Vec3::ONE, direction: Vec3::new(0.891, -0.454, 0.0) });
    let self_shadow = Some(MMD_DEFAULT_SELF_SHADOW);
    let input = still(&camera, &pose, &overlays, light, self_shadow);
    let mut view = ViewState::new(headless.renderer());
    let img = headless.render(&model, &mut view, &input, size, Background::Color([0, 0, 0])).unwrap();
    let mut floor = 0;
    let mut dark = Vec::new();
    for x in -9..=9 {
        for z in -9..=9 {
            let (px, py) = pixel_of(&camera, size, Vec3::new(x as f32, 0.0, z as f32));
            floor += 1;
            if pixel(&img, px, py).iter().any(|&v| v < 254.0) {
                dark.push((x, z, pixel(&img, px, py)));
            }
        }
    }
    assert!(dark.is_empty(), "{} of {floor} floor points darkened: {:?}", dark.len(), &dark[..dark.len().min(8)]);
}

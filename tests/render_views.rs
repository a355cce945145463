//! The debug views through the real `rigscope render` command on lavapipe: the weight view, normal and tangent
//! lines, the UV checker, the bind pose, the onion skin and the selected joint's axes, with goldens for three
//! of them (compared as tests/render_golden.rs does; `RIGSCOPE_BLESS=1` rewrites them).
//!
//! These need a GPU adapter; without one they fail rather than skip (set WGPU_BACKEND=vulkan with lavapipe).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::golden::check_golden;
use glam::{Mat4, Vec3};
use image::RgbaImage;
use rigscope::anim::{Pose, skin_positions};
use rigscope::render::{Camera, animation_bounds, pose_bounds};
use rigscope::scene::{DEFAULT_FPS, Scene};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn demo() -> PathBuf {
    manifest().join("assets/demo.iqm")
}

/// Runs `rigscope render FILE ARGS` into target/render-views/NAME.png and returns the picture.
fn render(name: &str, file: &Path, args: &[&str]) -> RgbaImage {
    let file = file.to_str().expect("test paths are UTF-8");
    let args: Vec<&str> = std::iter::once(file).chain(args.iter().copied()).collect();
    common::render_png("render-views", name, &args).0
}

/// Writes `text` as target/render-views/NAME.iqe.
fn write_iqe(name: &str, text: &str) -> PathBuf {
    let dir = manifest().join("target/render-views");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.iqe"));
    std::fs::write(&p, text).unwrap();
    p
}

/// What `render` does to place the model in a still of `clip` at `frame` (at yaw 20, pitch 12, framed on the
/// pose drawn): model space to clip space.
fn model_to_clip(scene: &Scene, clip: Option<usize>, frame: f32, size: (u32, u32)) -> Mat4 {
    let pose = Pose::of_scene(scene, clip.map(|c| &scene.clips[c]), frame, DEFAULT_FPS, &[]);
    let bounds = pose_bounds(scene, &pose).unwrap();
    let aspect = size.0 as f32 / size.1 as f32;
    let camera = Camera::framing(scene.up, &bounds, 20f32.to_radians(), 12f32.to_radians(), aspect);
    camera.view_proj(aspect) * camera.model_matrix()
}

/// The pixel a model-space point lands on.
fn project(m: Mat4, size: (u32, u32), p: Vec3) -> (f32, f32) {
    let c = m * p.extend(1.0);
    let ndc = c.truncate() / c.w;
    ((ndc.x + 1.0) * 0.5 * size.0 as f32, (1.0 - ndc.y) * 0.5 * size.1 as f32)
}

/// The pixel box (min x, min y, max x, max y) of every triangle with a vertex `joint` weighs on, skinned by
/// `palette`: where the weight view may paint anything but 0.
fn influence_box(scene: &Scene, joint: u32, palette: &[Mat4], m: Mat4, size: (u32, u32)) -> [f32; 4] {
    let skinned = skin_positions(&scene.vertices, palette);
    let (js, ws) = (scene.vertices.joints.as_ref().unwrap(), scene.vertices.weights.as_ref().unwrap());
    let weighs = |v: u32| (0..4).any(|k| js[v as usize][k] == joint && ws[v as usize][k] > 0.0);
    let mut b = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for t in scene.triangles.iter().filter(|t| t.iter().any(|&v| weighs(v))) {
        for &v in t {
            let (x, y) = project(m, size, skinned[v as usize]);
            b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        }
    }
    assert!(b[0] <= b[2], "joint {joint} weighs on no vertex");
    b
}

/// A weight-view pixel showing more than weight 0: red or green well above the dark blue of 0 (and the
/// default background, #30343c).
fn hot(p: &image::Rgba<u8>) -> bool {
    p.0[0].max(p.0[1]) > 90
}

fn hot_pixels(img: &RgbaImage) -> Vec<(u32, u32)> {
    img.enumerate_pixels().filter(|(_, _, p)| hot(p)).map(|(x, y, _)| (x, y)).collect()
}

fn differing_pixels(a: &RgbaImage, b: &RgbaImage) -> usize {
    a.pixels().zip(b.pixels()).filter(|(p, q)| (0..3).any(|k| p.0[k].abs_diff(q.0[k]) > 24)).count()
}

fn load(path: &Path) -> Scene {
    rigscope::load_path(path).unwrap()
}

#[test]
fn the_weight_view_is_hot_only_where_the_joint_has_influence() {
    let scene = load(&demo());
    let size = (640, 480);
    let m = model_to_clip(&scene, Some(0), 0.0, size);
    let palette = Pose::sample(&scene.skeleton, &scene.clips[0], 0.0, DEFAULT_FPS).palette;
    let mut boxes = Vec::new();
    for name in ["elbow_l", "thigh_r"] {
        let img = render(&format!("weights_{name}"), &demo(), &["--weights", "--joint", name]);
        let joint = scene.skeleton.joints.iter().position(|j| j.name == name).unwrap() as u32;
        let b = influence_box(&scene, joint, &palette, m, size);
        let hot = hot_pixels(&img);
        assert!(hot.len() > 300, "{name}: only {} hot pixels", hot.len());
        let outside: Vec<_> = hot
            .iter()
            .filter(|&&(x, y)| {
                let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
                x < b[0] - 2.0 || x > b[2] + 2.0 || y < b[1] - 2.0 || y > b[3] + 2.0
            })
            .collect();
        assert!(outside.is_empty(), "{name}: {} hot pixels outside {b:?}, e.g. {:?}", outside.len(), &outside[..1]);
        boxes.push(b);
    }
    // The two joints' regions don't overlap: the picture follows the joint.
    let [a, b] = [boxes[0], boxes[1]];
    assert!(a[2] < b[0] || b[2] < a[0] || a[3] < b[1] || b[3] < a[1], "{a:?} {b:?}");
    // The heat map replaces texture and lighting everywhere, cold where the joint has no say.
    let plain = render("weights_plain", &demo(), &["--joint", "elbow_l"]);
    let weights = render("weights_elbow_again", &demo(), &["--weights", "--joint", "elbow_l"]);
    assert!(differing_pixels(&plain, &weights) > 10_000);
    // The flag needs a joint.
    let out = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["render", "--weights", "-o", "/dev/null"])
        .arg(demo())
        .output()
        .unwrap();
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--joint"));
}

/// A 2 × 2 metre panel of 4 × 4 quads standing on the ground (Z up, facing −Y, normals along −Y), every vertex on joint `root`;
/// the top-right corner also weighs `leak` on `far`, a joint ten metres away. Two clips: `still` (two equal
/// frames) and `moving` (root slides along X).
fn panel(leak: f32) -> String {
    panel_with(leak, false)
}

/// As [`panel`]; `flip` turns the middle vertex's normal around, into the panel's back.
fn panel_with(leak: f32, flip: bool) -> String {
    let mut s =
        String::from("# Inter-Quake Export\njoint root\npq 0 0 0 0 0 0 1\njoint far\npq 10 0 0 0 0 0 1\nmesh panel\n");
    for row in 0..5 {
        for col in 0..5 {
            let (x, z) = (col as f32 * 0.5 - 1.0, row as f32 * 0.5);
            let ny = if flip && row == 2 && col == 2 { 1 } else { -1 };
            s.push_str(&format!("vp {x} 0 {z}\nvn 0 {ny} 0\nvt {} {}\n", col as f32 / 4.0, row as f32 / 4.0));
            if row == 4 && col == 4 && leak > 0.0 {
                s.push_str(&format!("vb 0 {} 1 {leak}\n", 1.0 - leak));
            } else {
                s.push_str("vb 0 1\n");
            }
        }
    }
    for row in 0..4 {
        for col in 0..4 {
            let v = row * 5 + col;
            // Clockwise seen from −Y, IQE's front faces: the normals (0, −1, 0) agree with the winding.
            s.push_str(&format!("fm {} {} {}\nfm {} {} {}\n", v, v + 6, v + 1, v, v + 5, v + 6));
        }
    }
    s.push_str("animation still\nframerate 10\nloop\nframe\npq 0 0 0 0 0 0 1\npq 10 0 0 0 0 0 1\n");
    s.push_str("frame\npq 0 0 0 0 0 0 1\npq 10 0 0 0 0 0 1\n");
    s.push_str("animation moving\nframerate 10\nloop\n");
    for f in 0..6 {
        s.push_str(&format!("frame\npq {} 0 0 0 0 0 1\npq 10 0 0 0 0 0 1\n", f as f32 * 0.3));
    }
    s
}

#[test]
fn a_five_percent_leak_shows_where_the_vertex_is() {
    let size = (640, 480);
    let clean = write_iqe("panel_clean", &panel(0.0));
    let leaky = write_iqe("panel_leak", &panel(0.05));
    let args = ["--weights", "--joint", "far", "--no-cull", "--anim", "still"];
    assert!(hot_pixels(&render("panel_clean", &clean, &args)).is_empty(), "no weight on far: all cold");
    let img = render("panel_leak", &leaky, &args);
    let hot = hot_pixels(&img);
    assert!(hot.len() > 50, "the leak shows: {} hot pixels", hot.len());
    let scene = load(&leaky);
    let m = model_to_clip(&scene, Some(0), 0.0, size);
    let b = influence_box(&scene, 1, &Pose::bind(&scene.skeleton).palette, m, size);
    assert!(hot.iter().all(|&(x, y)| {
        let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
        x >= b[0] - 2.0 && x <= b[2] + 2.0 && y >= b[1] - 2.0 && y <= b[3] + 2.0
    }));
    // Only the quad at the leaking corner (a sixteenth of the panel, about 100 pixels across) warms up.
    let corner = project(m, size, Vec3::new(1.0, 0.0, 2.0));
    let far = hot.iter().filter(|&&(x, y)| (x as f32 - corner.0).hypot(y as f32 - corner.1) > 140.0).count();
    assert_eq!(far, 0, "hot pixels away from the corner {corner:?}");
}

/// Pixels of the normal lines' magenta (the mesh is left out).
fn magenta(img: &RgbaImage) -> usize {
    img.pixels().filter(|p| p.0[0] > 200 && p.0[2] > 200 && p.0[1] < 160).count()
}

#[test]
fn normal_lines_appear_and_follow_the_pose() {
    let off = render("no_normals", &demo(), &["--no-mesh", "--anim", "wave", "--frame", "0"]);
    assert_eq!(magenta(&off), 0);
    let a = render("normals_wave_0", &demo(), &["--normals", "--no-mesh", "--anim", "wave", "--frame", "0"]);
    let b = render("normals_wave_12", &demo(), &["--normals", "--no-mesh", "--anim", "wave", "--frame", "12"]);
    assert!(magenta(&a) > 2000, "{} magenta pixels", magenta(&a));
    // Waving moves the arm's normals; the rest of Pip hardly moves.
    let d = differing_pixels(&a, &b);
    assert!(d > 300, "only {d} pixels moved between frames 0 and 12");
    let t = render("tangents_wave_0", &demo(), &["--tangents", "--no-mesh", "--anim", "wave", "--frame", "0"]);
    let blue = t.pixels().filter(|p| p.0[2] > 200 && p.0[1] > 150 && p.0[0] < 120).count();
    assert!(blue > 2000 && magenta(&t) == 0, "{blue} tangent pixels");
}

/// Pixels of the flipped-normal yellow.
fn yellow(img: &RgbaImage) -> usize {
    img.pixels().filter(|p| p.0[0] > 220 && p.0[1] > 210 && p.0[2] < 80).count()
}

#[test]
fn a_flipped_normal_is_drawn_over_the_mesh_in_yellow_pointing_back() {
    let clean = write_iqe("panel_normals", &panel_with(0.0, false));
    let flipped = write_iqe("panel_flipped", &panel_with(0.0, true));
    let args = ["--normals", "--no-cull", "--anim", "still", "--yaw", "60"];
    let a = render("panel_normals", &clean, &args);
    assert_eq!(yellow(&a), 0);
    assert!(magenta(&a) > 50, "the normals show: {}", magenta(&a));
    let b = render("panel_flipped", &flipped, &args);
    assert!(yellow(&b) > 10, "the flipped normal shows: {} pixels", yellow(&b));
    // It leaves the middle vertex toward +Y, the panel's back.
    let scene = load(&flipped);
    let m = model_to_clip(&scene, Some(0), 0.0, (640, 480));
    let (mid, back) =
        (project(m, (640, 480), Vec3::new(0.0, 0.0, 1.0)), project(m, (640, 480), Vec3::new(0.0, 0.1, 1.0)));
    let (dx, dy) = (back.0 - mid.0, back.1 - mid.1);
    let pixels: Vec<(f32, f32)> = b
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[0] > 220 && p.0[1] > 210 && p.0[2] < 80)
        .map(|(x, y, _)| (x as f32 + 0.5 - mid.0, y as f32 + 0.5 - mid.1))
        .collect();
    assert!(pixels.iter().all(|(x, y)| x * dx + y * dy > -2.0), "yellow pixels behind the vertex: {pixels:?}");
}

#[test]
fn the_uv_checker_replaces_the_texture_and_shows_the_u_direction() {
    let plain = render("textured", &demo(), &[]);
    let checker = render("checker", &demo(), &["--uv-checker"]);
    assert!(differing_pixels(&plain, &checker) > 10_000);
    // On the panel u grows with model X: red grows toward the panel's right edge, on screen too.
    let panel = write_iqe("panel_uv", &panel(0.0));
    let img = render("panel_uv", &panel, &["--uv-checker", "--no-cull", "--anim", "still"]);
    let scene = load(&panel);
    let m = model_to_clip(&scene, Some(0), 0.0, (640, 480));
    // Red over blue (the checker's blue is constant; dark cells and light scale both alike).
    let ratio = |p: Vec3| {
        let (x, y) = project(m, (640, 480), p);
        let px = img.get_pixel(x as u32, y as u32).0;
        px[0] as f32 / px[2].max(1) as f32
    };
    let (left, right) = (ratio(Vec3::new(-0.85, 0.0, 1.1)), ratio(Vec3::new(0.85, 0.0, 1.1)));
    assert!(right > left * 1.3, "red/blue {left} on the left, {right} on the right");
}

#[test]
fn the_bind_pose_ignores_the_frame_and_differs_from_the_animation() {
    let a = render("bind_10", &demo(), &["--bind-pose", "--anim", "wave", "--frame", "10"]);
    let b = render("bind_20", &demo(), &["--bind-pose", "--anim", "wave", "--frame", "20"]);
    assert_eq!(a, b, "the bind pose doesn't depend on the frame");
    let posed = render("posed_10", &demo(), &["--anim", "wave", "--frame", "10"]);
    assert!(differing_pixels(&a, &posed) > 500);
}

#[test]
fn onion_ghosts_add_pixels_only_when_the_clip_moves() {
    let none = render("onion_0", &demo(), &["--anim", "walk", "--frame", "5"]);
    let three = render("onion_3", &demo(), &["--onion", "3", "--anim", "walk", "--frame", "5"]);
    assert!(differing_pixels(&none, &three) > 500, "{}", differing_pixels(&none, &three));
    let panel = write_iqe("panel_onion", &panel(0.0));
    let still0 = render("still_0", &panel, &["--no-cull", "--anim", "still", "--frame", "0"]);
    let still2 = render("still_2", &panel, &["--no-cull", "--anim", "still", "--frame", "0", "--onion", "2"]);
    assert_eq!(differing_pixels(&still0, &still2), 0, "a clip without motion has nothing to show");
    let moving0 = render("moving_0", &panel, &["--no-cull", "--anim", "moving", "--frame", "2"]);
    let moving2 = render("moving_2", &panel, &["--no-cull", "--anim", "moving", "--frame", "2", "--onion", "2"]);
    assert!(differing_pixels(&moving0, &moving2) > 500);
}

#[test]
fn a_motion_trail_follows_the_joint_through_the_frames_around() {
    let size = (640, 480);
    let scene = load(&demo());
    let args = ["--joint", "foot_l", "--anim", "walk", "--frame", "10"];
    let without = render("trail_0", &demo(), &args);
    let with = render("trail_14", &demo(), &[&args[..], &["--trail", "14"]].concat());
    // Where the trail must lie: the foot's path over frames −4..24 of the looping 30-frame walk, projected.
    let walk = scene.clips.iter().position(|c| c.name == "walk").unwrap();
    let j = scene.skeleton.joints.iter().position(|j| j.name == "foot_l").unwrap();
    let keys = scene.clips[walk].joint_key_frames(j, DEFAULT_FPS);
    assert!(keys.is_empty(), "an IQM clip is sampled: no key is marked");
    let trail = rigscope::anim::motion_trail(&scene.skeleton, &scene.clips[walk], j, 10.0, 14, &keys, DEFAULT_FPS);
    assert_eq!(trail.path.len(), 29);
    let m = model_to_clip(&scene, Some(walk), 10.0, size);
    let path: Vec<(f32, f32)> = trail.path.iter().map(|&p| project(m, size, p)).collect();
    let near = |x: f32, y: f32| {
        path.windows(2).any(|w| {
            let (a, b) = (glam::Vec2::new(w[0].0, w[0].1), glam::Vec2::new(w[1].0, w[1].1));
            let p = glam::Vec2::new(x, y);
            let t = ((p - a).dot(b - a) / (b - a).length_squared().max(1e-6)).clamp(0.0, 1.0);
            p.distance(a + (b - a) * t) < 4.0
        })
    };
    let changed: Vec<(u32, u32)> = with
        .enumerate_pixels()
        .zip(without.pixels())
        .filter(|((_, _, p), q)| (0..3).any(|k| p.0[k].abs_diff(q.0[k]) > 24))
        .map(|((x, y, _), _)| (x, y))
        .collect();
    let on_path = changed.iter().filter(|&&(x, y)| near(x as f32, y as f32)).count();
    // A line a pixel wide covers about a pixel per pixel of its length.
    let length: f32 = path.windows(2).map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1)).sum();
    assert!(length > 60.0, "the foot travels {length} px");
    let shown = on_path as f32 / length;
    assert!(shown > 0.6, "{on_path} changed pixels on the path, {length:.0} px long, {} changed in all", changed.len());
    assert_eq!(on_path, changed.len(), "the trail draws nothing off the joint's path");
}

#[test]
fn joint_axes_draw_red_green_and_blue_at_the_joint() {
    let size = (640, 480);
    let scene = load(&demo());
    let img = render("axes_elbow", &demo(), &["--axes", "--joint", "elbow_l", "--anim", "idle", "--frame", "0"]);
    let without = render("no_axes_elbow", &demo(), &["--joint", "elbow_l", "--anim", "idle", "--frame", "0"]);
    let pose = Pose::sample(&scene.skeleton, &scene.clips[0], 0.0, DEFAULT_FPS);
    let j = scene.skeleton.joints.iter().position(|j| j.name == "elbow_l").unwrap();
    let at = project(model_to_clip(&scene, Some(0), 0.0, size), size, pose.world[j].w_axis.truncate());
    let count = |img: &RgbaImage, k: usize| {
        img.enumerate_pixels()
            .filter(|(_, _, p)| p.0[k] > 200 && (0..3).filter(|&o| o != k).all(|o| p.0[o] < 60))
            .filter(|(x, y, _)| (*x as f32 - at.0).hypot(*y as f32 - at.1) < 40.0)
            .count()
    };
    for k in 0..3 {
        assert!(count(&img, k) >= 8, "channel {k}: {} pixels near {at:?}", count(&img, k));
        assert_eq!(count(&without, k), 0, "channel {k} without --axes");
    }
}

#[test]
fn goldens_of_the_weight_normal_and_checker_views() {
    check_golden("demo_weights", &render("g_weights", &demo(), &["--weights", "--joint", "elbow_l", "--axes"]));
    check_golden(
        "demo_normals",
        &render("g_normals", &demo(), &["--normals", "--tangents", "--anim", "wave", "--frame", "10"]),
    );
    check_golden("demo_uv_checker", &render("g_checker", &demo(), &["--uv-checker"]));
}

/// The window keeps one `ViewState` across frames and skins the normal lines again only when the pose (or the
/// model, or the switches) changed: a new pose must still move them, and the same pose again must give the
/// same picture.
#[test]
fn normal_lines_follow_the_pose_in_a_view_kept_across_frames() {
    use rigscope::render::{Background, GpuModel, Headless, Overlays, ViewState};
    let scene = rigscope::load_path(&demo()).unwrap();
    let headless = Headless::new().unwrap_or_else(|e| panic!("{e}"));
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let mut view = ViewState::new(headless.renderer());
    let clip = &scene.clips[1];
    let bounds = animation_bounds(&scene, Some(1), DEFAULT_FPS, &[], 16).unwrap();
    let camera = Camera::framing(scene.up, &bounds, 0.3, 0.2, 4.0 / 3.0);
    let overlays = Overlays { mesh: false, normals: true, ..Overlays::default() };
    let mut draw = |frame: f32| {
        let pose = Pose::sample(&scene.skeleton, clip, frame, DEFAULT_FPS);
        let input = rigscope::render::FrameInput::still(&camera, &pose, &overlays);
        headless.render(&model, &mut view, &input, (320, 240), Background::Color([0, 0, 0])).unwrap()
    };
    // A quarter of the way in: the wave's arm is at one end of its swing (at half way it is back where it began).
    let (a, b, a_again) = (draw(0.0), draw(clip.frame_count as f32 / 4.0), draw(0.0));
    let lit = |img: &RgbaImage| img.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
    assert!(lit(&a) > 500, "normal lines are drawn ({} pixels)", lit(&a));
    let moved = a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count();
    assert!(moved > 200, "the lines follow the new pose ({moved} pixels changed)");
    assert_eq!(a, a_again, "the same pose draws the same lines");
}

/// A model whose origin sits at its middle (as a Quake-style model's sits at its hips): `--grid` lays the ground
/// under its lowest point instead of slicing it at the origin; `--grid-at-origin` puts it back. Seen edge-on
/// from the side (pitch 0), the grid at the origin is a line across the middle of the picture, beside the box.
#[test]
fn the_grid_lies_under_a_model_whose_origin_is_at_its_middle() {
    let mut text = String::from("# Inter-Quake Export\nmesh box\n");
    for z in [-2, 2] {
        for y in [-0.5, 0.5] {
            for x in [-0.5, 0.5] {
                text += &format!("vp {x} {y} {z}\n");
            }
        }
    }
    for [a, b, c] in [
        [0, 1, 3],
        [0, 3, 2],
        [4, 6, 7],
        [4, 7, 5],
        [0, 4, 5],
        [0, 5, 1],
        [2, 3, 7],
        [2, 7, 6],
        [0, 2, 6],
        [0, 6, 4],
        [1, 5, 7],
        [1, 7, 3],
    ] {
        text += &format!("fm {a} {b} {c}\n");
    }
    let file = write_iqe("hips", &text);
    let side = ["--grid", "--pitch", "0", "--yaw", "0", "--size", "300x300"];
    let ground = render("hips-ground", &file, &side);
    let origin = render("hips-origin", &file, &[&side[..], &["--grid-at-origin"]].concat());
    let background = *ground.get_pixel(0, 0);
    // Lit pixels in rows y0..y1 left of the box (which stands in the middle third).
    let lit = |img: &RgbaImage, y0: u32, y1: u32| {
        (y0..y1).flat_map(|y| (0..80).map(move |x| (x, y))).filter(|&(x, y)| *img.get_pixel(x, y) != background).count()
    };
    assert!(lit(&origin, 140, 160) > 30, "at the origin the grid crosses the middle");
    assert_eq!(lit(&ground, 100, 200), 0, "with the ground below, nothing crosses the middle");
    assert!(lit(&ground, 200, 300) > 30, "the ground is drawn below");
}

/// `pose --pick X,Y` names what `render` draws at that pixel: on the demo's body the hit lies on the pixel's ray
/// (it projects back onto the pixel), the named vertex is a corner of the named triangle with its blend joints
/// from the file, and the picture shows the model there; a background pixel picks nothing.
#[test]
fn pose_pick_names_what_render_draws_at_the_pixel() {
    let picture = render("pick-demo", &demo(), &["--frame", "10"]);
    let background = *picture.get_pixel(0, 0);
    let scene = rigscope::load_path(&demo()).unwrap();
    let pick = |x: u32, y: u32| -> serde_json::Value {
        let o = Command::new(env!("CARGO_BIN_EXE_rigscope"))
            .args(["pose", demo().to_str().unwrap(), "--frame", "10", "--pick", &format!("{x},{y}")])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["pick"].clone()
    };
    let m = model_to_clip(&scene, Some(0), 10.0, (640, 480));
    let mut hits = 0;
    for (x, y) in [(320, 200), (330, 300), (300, 120)] {
        let p = pick(x, y);
        if *picture.get_pixel(x, y) == background {
            assert!(p.is_null(), "({x}, {y}) is background: {p}");
            continue;
        }
        hits += 1;
        let v = |k: &str| {
            Vec3::from_slice(&p[k].as_array().unwrap().iter().map(|f| f.as_f64().unwrap() as f32).collect::<Vec<_>>())
        };
        let (px, py) = project(m, (640, 480), v("hit"));
        assert!(
            (px - x as f32 - 0.5).abs() < 0.6 && (py - y as f32 - 0.5).abs() < 0.6,
            "({x}, {y}): hit lands on {px}, {py}"
        );
        let triangle = scene.triangles[p["triangle"].as_u64().unwrap() as usize];
        let vertex = p["vertex"].as_u64().unwrap() as u32;
        assert!(triangle.contains(&vertex), "the vertex is a corner of the triangle");
        let (js, ws) = (scene.vertices.joints.as_ref().unwrap(), scene.vertices.weights.as_ref().unwrap());
        let first = &p["joints"][0];
        let k = (0..4).max_by(|&a, &b| ws[vertex as usize][a].total_cmp(&ws[vertex as usize][b])).unwrap();
        assert_eq!(first[0].as_str().unwrap(), scene.skeleton.display_name(js[vertex as usize][k] as usize));
        assert!((first[1].as_f64().unwrap() as f32 - ws[vertex as usize][k]).abs() < 1e-6);
    }
    assert!(hits >= 2, "the test pixels are on the model");
    assert!(pick(5, 5).is_null(), "a corner pixel is background");
    assert_eq!(*picture.get_pixel(5, 5), background);
}

/// Compare with…: the view draws a second model, the reference, as a translucent orange ghost posed by its own
/// pose; without a reference pose the picture is the model alone.
#[test]
fn a_reference_model_is_drawn_as_an_orange_ghost() {
    use rigscope::render::{Background, GpuModel, Headless, Overlays, ViewState};
    let scene = rigscope::load_path(&demo()).unwrap();
    let mut bigger = scene.clone();
    rigscope::convert::transform_scene(&mut bigger, 1.5, glam::Quat::IDENTITY);
    let headless = Headless::new().unwrap_or_else(|e| panic!("{e}"));
    let model = GpuModel::upload(headless.renderer(), &scene, None);
    let mut view = ViewState::new(headless.renderer());
    view.set_reference(headless.renderer(), Some(GpuModel::upload(headless.renderer(), &bigger, None)));
    let bounds = animation_bounds(&bigger, None, DEFAULT_FPS, &[], 1).unwrap();
    let camera = Camera::framing(scene.up, &bounds, 0.3, 0.2, 4.0 / 3.0);
    let overlays = Overlays { grid: false, ..Overlays::default() };
    let (pose, theirs) = (Pose::bind(&scene.skeleton), Pose::bind(&bigger.skeleton));
    let mut draw = |reference: Option<&Pose>| {
        let input = rigscope::render::FrameInput {
            reference_pose: reference,
            ..rigscope::render::FrameInput::still(&camera, &pose, &overlays)
        };
        headless.render(&model, &mut view, &input, (320, 240), Background::Color([0, 0, 0])).unwrap()
    };
    let (alone, with) = (draw(None), draw(Some(&theirs)));
    let ghost: Vec<_> = alone.pixels().zip(with.pixels()).filter(|(a, b)| a != b).map(|(_, b)| b.0).collect();
    assert!(ghost.len() > 1000, "the ghost covers what the bigger reference adds ({} pixels)", ghost.len());
    let orange = ghost.iter().filter(|p| p[0] as i32 > p[2] as i32 + 30 && p[0] > 40).count();
    assert!(orange * 10 > ghost.len() * 8, "the ghost is orange: {orange} of {} pixels", ghost.len());
    assert_eq!(draw(None), alone, "without a reference pose the ghost is not drawn");
}

/// Compare side by side: the model in the left pane, the reference (1.5 times bigger) in the right one, both
/// seen by one camera with the same projection; no orange ghost in either. Each half equals the model alone (or
/// the reference alone) drawn at the pane's size, so nothing of one pane leaks into the other.
#[test]
fn side_by_side_draws_the_model_and_the_reference_in_panes_of_their_own() {
    use rigscope::render::{Background, GpuModel, Headless, Overlays, Panes, PixelRect, ViewState};
    let scene = rigscope::load_path(&demo()).unwrap();
    let mut bigger = scene.clone();
    rigscope::convert::transform_scene(&mut bigger, 1.5, glam::Quat::IDENTITY);
    let headless = Headless::new().unwrap_or_else(|e| panic!("{e}"));
    let r = headless.renderer();
    let model = GpuModel::upload(r, &scene, None);
    let bounds = animation_bounds(&bigger, None, DEFAULT_FPS, &[], 1).unwrap();
    let camera = Camera::framing(scene.up, &bounds, 0.3, 0.2, 160.0 / 240.0);
    let (pose, theirs) = (Pose::bind(&scene.skeleton), Pose::bind(&bigger.skeleton));
    let black = Background::Color([0, 0, 0]);
    let beside = Overlays { grid: false, reference_beside: true, ..Overlays::default() };
    let input = rigscope::render::FrameInput {
        reference_pose: Some(&theirs),
        ..rigscope::render::FrameInput::still(&camera, &pose, &beside)
    };
    let mut view = ViewState::new(r);
    view.set_reference(r, Some(GpuModel::upload(r, &bigger, None)));
    let left = PixelRect { x: 0, y: 0, width: 160, height: 240 };
    let right = PixelRect { x: 164, y: 0, width: 160, height: 240 };
    let panes = Panes { model: left, reference: Some(right) };
    let both = rigscope::render::render_panes_offscreen(r, &model, &mut view, &input, ((324, 240), Some(panes)), black)
        .unwrap();
    // Each alone at the pane's size: the model, and the reference drawn as the model.
    let overlays = Overlays { grid: false, ..Overlays::default() };
    let alone = |m: &GpuModel, p: &Pose| {
        let mut view = ViewState::new(r);
        let input = rigscope::render::FrameInput::still(&camera, p, &overlays);
        headless.render(m, &mut view, &input, (160, 240), black).unwrap()
    };
    let ours = alone(&model, &pose);
    let reference = alone(&GpuModel::upload(r, &bigger, None), &theirs);
    let half = |x0: u32| image::imageops::crop_imm(&both, x0, 0, 160, 240).to_image();
    let (l, rr) = (half(0), half(164));
    let lit = |img: &image::RgbaImage| img.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
    assert!(lit(&ours) > 1000 && lit(&reference) > lit(&ours), "{} and {} pixels", lit(&ours), lit(&reference));
    assert_eq!(differing_pixels(&l, &ours), 0, "the left pane is the model alone");
    assert_eq!(differing_pixels(&rr, &reference), 0, "the right pane is the reference alone");
    let gap = image::imageops::crop_imm(&both, 160, 0, 4, 240).to_image();
    assert_eq!(lit(&gap), 0, "nothing is drawn between the panes");
}

/// A still frames the pose it draws (`render --frame`, issue 37 step 6): a panel that travels 20 units along X
/// over its clip stands in the middle of its picture at the last frame, and fills more of it than a picture
/// framed on the whole clip (`--framing clip`), where it stands off to the side its travel ends on.
#[test]
fn a_still_frames_the_pose_and_framing_clip_frames_the_whole_travel() {
    let mut text = panel(0.0);
    text.push_str("animation travel\nframerate 10\n");
    for f in 0..6 {
        text.push_str(&format!("frame\npq {} 0 0 0 0 0 1\npq 10 0 0 0 0 0 1\n", f as f32 * 4.0));
    }
    let file = write_iqe("panel_travel", &text);
    let args = ["--anim", "travel", "--frame", "5", "--no-cull", "--size", "320x240"];
    let background = |img: &RgbaImage| *img.get_pixel(0, 0);
    // The panel's pixels (nothing else is drawn without --grid): how many, and their mean column.
    let panel_pixels = |img: &RgbaImage| {
        let bg = background(img);
        let xs: Vec<f32> = img.enumerate_pixels().filter(|(_, _, p)| **p != bg).map(|(x, _, _)| x as f32).collect();
        (xs.len(), xs.iter().sum::<f32>() / xs.len().max(1) as f32)
    };
    let (on_pose, pose_x) = panel_pixels(&render("travel_pose", &file, &args));
    let (on_clip, clip_x) = panel_pixels(&render("travel_clip", &file, &[&args[..], &["--framing", "clip"]].concat()));
    assert!(on_pose > 0 && on_clip > 0, "the panel is drawn in both");
    assert!((pose_x - 160.0).abs() < 16.0, "framed on the pose, the panel is in the middle: column {pose_x}");
    assert!((clip_x - 160.0).abs() > 48.0, "framed on the clip, it stands to one side: column {clip_x}");
    assert!(on_pose > 4 * on_clip, "framed on the pose it fills more: {on_pose} against {on_clip} pixels");
}

/// MToon through the toon path (VRM 1.0's `VRMC_materials_mtoon`): the corpus sample's ScrollX panel given a blue
/// shade colour and drawn once lit (shading shift 0: the panel faces the light) and once shifted into its shade
/// (shift −1). In shade, red falls to the shade's quarter and blue keeps its value.
#[test]
fn an_mtoon_material_draws_its_shade_colour_where_its_shading_shift_puts_it_in_shade() {
    let dir = common::Scratch::new("mtoon-shade");
    let sample = common::read(&common::corpus("vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm"));
    let shaded = |shift: f64| {
        let bytes = common::edited_glb(&sample, |j| {
            let m = j["materials"].as_array_mut().unwrap().iter_mut().find(|m| m["name"] == "ScrollX").unwrap();
            let ext = &mut m["extensions"]["VRMC_materials_mtoon"];
            ext["shadeColorFactor"] = serde_json::json!([0.25, 0.25, 1.0]);
            ext["shadingShiftFactor"] = serde_json::json!(shift);
            ext["shadingToonyFactor"] = serde_json::json!(0.95);
        });
        let path = dir.join(format!("shift{shift}.vrm"));
        std::fs::write(&path, bytes).unwrap();
        render(&format!("mtoon_shift_{shift}"), &path, &[])
    };
    let (lit, shade) = (shaded(0.0), shaded(-1.0));
    let (mut changed, mut red, mut blue) = (0usize, 0.0f32, 0.0f32);
    for (a, b) in lit.pixels().zip(shade.pixels()) {
        if a == b || a.0[0] < 128 {
            continue;
        }
        changed += 1;
        red += linear(b.0[0]) / linear(a.0[0]);
        blue += linear(b.0[2]) / linear(a.0[2]);
    }
    assert!(changed > 500, "only {changed} pixels changed");
    let (red, blue) = (red / changed as f32, blue / changed as f32);
    eprintln!("{changed} bright pixels went into shade: red × {red:.3}, blue × {blue:.3}");
    assert!((0.24..0.26).contains(&red), "red × {red}");
    assert!(blue > 0.9, "blue × {blue}");
}

/// A byte of an sRGB picture in linear light.
fn linear(c: u8) -> f32 {
    rigscope::scene::color::srgb_to_linear(f32::from(c) / 255.0)
}

/// The corpus's MToon UV animation sample (panels ScrollX, ScrollY and ScrollRot, scrolling at 1 a second and
/// turning at 1 rad a second) drawn through the library at `time` seconds, straight on, with its textures; its
/// scene edited by `edit` first. Written to target/render-views/NAME.png.
fn mtoon_sample_at(name: &str, time: f32, edit: impl FnOnce(&mut Scene)) -> RgbaImage {
    use rigscope::render::{Background, FrameInput, GpuModel, Headless, Overlays, ViewState};
    let path = common::corpus("vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm");
    let mut scene = rigscope::load_path(&path).unwrap();
    edit(&mut scene);
    let headless = Headless::new().unwrap_or_else(|e| panic!("{e}"));
    let textures = rigscope::textures::TextureSet::load(&scene, path.parent());
    let model = GpuModel::upload_textures(headless.renderer(), &scene, &textures);
    let mut pose = Pose::bind(&scene.skeleton);
    // Every morph the edit added is on.
    pose.morphs = vec![1.0; scene.morphs.len()];
    let bounds = pose_bounds(&scene, &pose).unwrap();
    let camera = Camera::framing(scene.up, &bounds, 0.0, 0.0, 4.0 / 3.0);
    let overlays = Overlays { grid: false, ..Overlays::default() };
    let input = FrameInput { time, ..FrameInput::still(&camera, &pose, &overlays) };
    let mut view = ViewState::new(headless.renderer());
    let image = headless.render(&model, &mut view, &input, (320, 240), Background::Color([0, 0, 0])).unwrap();
    let dir = manifest().join("target/render-views");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join(format!("{name}.png"))).unwrap();
    image
}

/// The pixel boxes (min x, min y, max x, max y) of the bright regions of `image`, top to bottom: each run of
/// rows with a bright pixel, and the columns its bright pixels span.
fn bright_boxes(image: &RgbaImage) -> Vec<(u32, u32, u32, u32)> {
    let bright = |x: u32, y: u32| image.get_pixel(x, y).0[..3].iter().any(|&c| c > 100);
    let mut boxes: Vec<(u32, u32, u32, u32)> = Vec::new();
    let mut open = false;
    for y in 0..image.height() {
        let xs: Vec<u32> = (0..image.width()).filter(|&x| bright(x, y)).collect();
        match (xs.first(), xs.last(), open) {
            (Some(&a), Some(&b), true) => {
                let last = boxes.last_mut().unwrap();
                *last = (last.0.min(a), last.1, last.2.max(b), y);
            }
            (Some(&a), Some(&b), false) => boxes.push((a, y, b, y)),
            _ => {}
        }
        open = !xs.is_empty();
    }
    boxes
}

/// The circular shift (dx, dy) inside box `b` (shrunk by 3 pixels) that best carries `a`'s pixels onto `then`'s:
/// `then(x, y) ≈ a(x + dx, y + dy)`.
fn shift_within(a: &RgbaImage, then: &RgbaImage, b: (u32, u32, u32, u32)) -> (i32, i32) {
    let (x0, y0, x1, y1) = (b.0 + 3, b.1 + 3, b.2 - 3, b.3 - 3);
    let (w, h) = ((x1 - x0) as i32, (y1 - y0) as i32);
    let grey = |img: &RgbaImage, x: i32, y: i32| {
        let p = img.get_pixel(x0 + x.rem_euclid(w) as u32, y0 + y.rem_euclid(h) as u32).0;
        p[0] as i32 + p[1] as i32 + p[2] as i32
    };
    let mut best = (i64::MAX, (0, 0));
    for dy in -h / 2..=h / 2 {
        for dx in -w / 2..=w / 2 {
            let mut cost = 0i64;
            for y in 0..h {
                for x in 0..w {
                    cost += (grey(then, x, y) - grey(a, x + dx, y + dy)).abs() as i64;
                }
            }
            best = best.min((cost, (dx, dy)));
        }
    }
    best.1
}

/// MToon's UV scrolling (three-vrm's sample, VRMC_materials_mtoon_UV_Animation_Test): at 0.25 s the ScrollX
/// panel's texture has moved a quarter of the panel along u (its arrow points the way it moves: left), the
/// ScrollY panel's a quarter along v (up), each within 2 pixels; at 1 s both are back where they started (a whole
/// turn of the texture), and the ScrollRot panel has turned.
#[test]
fn mtoon_textures_scroll_and_turn_as_three_vrm_moves_them() {
    let start = mtoon_sample_at("mtoon_uv_0", 0.0, |_| {});
    let quarter = mtoon_sample_at("mtoon_uv_0.25", 0.25, |_| {});
    let whole = mtoon_sample_at("mtoon_uv_1", 1.0, |_| {});
    let boxes = bright_boxes(&start);
    assert_eq!(boxes.len(), 3, "three panels: {boxes:?}");
    let [turning, scroll_y, scroll_x] = [boxes[0], boxes[1], boxes[2]];
    // Content moving left (or up) shows at x what stood at x + dx (y + dy).
    for (what, b, expected) in [("ScrollX", scroll_x, (1, 0)), ("ScrollY", scroll_y, (0, 1))] {
        let side = (b.2 - b.0 + 1) as f32;
        let (dx, dy) = shift_within(&start, &quarter, b);
        eprintln!("{what}: moved ({dx}, {dy}) pixels in 0.25 s, the panel {side} pixels across");
        let want = (expected.0 as f32 * side / 4.0, expected.1 as f32 * side / 4.0);
        assert!(
            (dx as f32 - want.0).abs() <= 2.0 && (dy as f32 - want.1).abs() <= 2.0,
            "{what}: ({dx}, {dy}), {want:?}"
        );
        assert_eq!(shift_within(&start, &whole, b), (0, 0), "{what}: back after a whole turn");
    }
    // A texture transform bind (VRM expressions) on a scrolling panel moves its texture on top of the scroll:
    // ScrollX bound a quarter along u at 0 s draws as it scrolls by 0.25 s.
    let bound = mtoon_sample_at("mtoon_uv_bound", 0.0, |scene| {
        let material = scene.materials.iter().position(|m| m.name == "ScrollX").unwrap();
        let offset = rigscope::scene::TextureTransformOffset {
            material,
            offset: glam::Vec2::new(0.25, 0.0),
            scale: glam::Vec2::ZERO,
        };
        scene.morphs.push(rigscope::scene::Morph {
            name: "bound".into(),
            name_en: String::new(),
            panel: rigscope::scene::MorphPanel::System,
            kind: rigscope::scene::MorphKind::TextureTransform(vec![offset]),
        });
    });
    assert_eq!(shift_within(&quarter, &bound, scroll_x), (0, 0), "the bind moves the scrolling texture");
    let crop = |img: &RgbaImage, b: (u32, u32, u32, u32)| {
        image::imageops::crop_imm(img, b.0, b.1, b.2 - b.0, b.3 - b.1).to_image()
    };
    let changed = crop(&start, turning).pixels().zip(crop(&whole, turning).pixels()).filter(|(a, b)| a != b).count();
    assert!(changed > 200, "the ScrollRot panel turned: {changed} pixels changed");
}

/// MToon's rim light: the ScrollX panel given a red rim lifted by 1 (so it lights the whole panel facing the eye)
/// gains that red (0.3, linear) on its black arrow and keeps its green and blue.
#[test]
fn an_mtoon_rim_light_adds_its_colour() {
    let plain = mtoon_sample_at("mtoon_rim_off", 0.0, |_| {});
    let rimmed = mtoon_sample_at("mtoon_rim_on", 0.0, |scene| {
        let m = scene.materials.iter_mut().find(|m| m.name == "ScrollX").unwrap();
        let t = m.toon_shading.as_mut().expect("MToon");
        (t.rim, t.rim_lift, t.rim_power) = (Vec3::new(0.3, 0.0, 0.0), 1.0, 5.0);
    });
    let scroll_x = bright_boxes(&plain)[2];
    let (mut dark, mut red) = (0, 0.0f32);
    for y in scroll_x.1..=scroll_x.3 {
        for x in scroll_x.0..=scroll_x.2 {
            let (a, b) = (plain.get_pixel(x, y).0, rimmed.get_pixel(x, y).0);
            if a[..3].iter().all(|&c| c < 8) {
                dark += 1;
                red += linear(b[0]) - linear(a[0]);
                assert!(b[1] <= a[1] + 1 && b[2] <= a[2] + 1, "green and blue kept: {a:?} → {b:?}");
            }
        }
    }
    let red = red / dark as f32;
    eprintln!("{dark} dark pixels gained red {red:.3}");
    assert!(dark > 300 && (red - 0.3).abs() < 0.01, "{dark} pixels, red + {red}");
    for other in &bright_boxes(&plain)[..2] {
        let crop = |img: &RgbaImage| {
            image::imageops::crop_imm(img, other.0, other.1, other.2 - other.0, other.3 - other.1).to_image()
        };
        assert_eq!(crop(&plain), crop(&rimmed), "the other panels have no rim: {other:?}");
    }
}

/// VRM material colour binds drawn: the MToon sample given a `happy` expression that binds the ScrollX panel's
/// base colour to red, rendered with `--morph happy=W`: its white turns red at 1 and halfway (in linear light, as
/// three-vrm lerps it) at 0.5; the other panels keep their colours.
#[test]
fn material_colour_binds_colour_what_they_bind() {
    let dir = common::Scratch::new("vrm-colour-render");
    let sample = common::read(&common::corpus("vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm"));
    let bytes = common::edited_glb(&sample, |j| {
        j["extensions"]["VRMC_vrm"]["expressions"] = serde_json::json!({"preset": {"happy": {"materialColorBinds": [
            {"material": 0, "type": "color", "targetValue": [1.0, 0.0, 0.0, 1.0]}
        ]}}});
    });
    let path = dir.join("bound.vrm");
    std::fs::write(&path, bytes).unwrap();
    let plain = render("colour_bind_0", &path, &[]);
    let full = render("colour_bind_1", &path, &["--morph", "happy=1"]);
    let half = render("colour_bind_half", &path, &["--morph", "happy=0.5"]);
    let (mut white, mut kept) = (0, 0);
    // The box of the white pixels that turned red: the bound panel.
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for (((x, y, a), b), c) in plain.enumerate_pixels().zip(full.pixels()).zip(half.pixels()) {
        let (a, b, c) = (a.0, b.0, c.0);
        if a[..3].iter().all(|&v| v > 250) && b[..3] != a[..3] {
            white += 1;
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            assert!(b[0] > 250 && b[1] < 5 && b[2] < 5, "red at weight 1: {b:?}");
            // Linear light: (1, 0.5, 0.5) of the plain white, within a byte's rounding.
            let ratio = |i: usize| linear(c[i]) / linear(a[i]);
            let near = |r: f32, want: f32| (r - want).abs() < 0.015;
            assert!(near(ratio(0), 1.0) && near(ratio(1), 0.5) && near(ratio(2), 0.5), "halfway at 0.5: {a:?} → {c:?}");
        } else if a == b {
            kept += 1;
        }
    }
    eprintln!("{white} white pixels turned red; {kept} kept");
    assert!(white > 1000, "only {white} white pixels changed");
    // Nothing changed outside the bound panel: the other panels keep their colours.
    let outside = plain
        .enumerate_pixels()
        .zip(full.pixels())
        .filter(|((x, y, a), b)| a != b && !((x0..=x1).contains(x) && (y0..=y1).contains(y)))
        .count();
    assert_eq!(outside, 0, "pixels changed outside the bound panel ({x0}, {y0})–({x1}, {y1})");
}

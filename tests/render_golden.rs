//! Headless `rigscope render` against golden images in tests/golden/.
//!
//! Pictures are compared with a tolerance (drivers may differ in the last bit of a rasterised edge): at most
//! 0.25% of pixels may differ by more than 32 in any channel, and the mean difference must stay under 1.0 per
//! channel. A failure writes the actual picture and a diff under target/golden-failures/. To accept new
//! pictures after a deliberate change, run with `RIGSCOPE_BLESS=1` and look at what changed before committing.
//!
//! These need a GPU adapter; on a machine without one (CI has only lavapipe, the CPU Vulkan driver) they fail
//! rather than skip: install mesa-vulkan-drivers and set WGPU_BACKEND=vulkan.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::corpus;
use common::golden::{Difference, check_golden};
use image::{Rgba, RgbaImage};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `rigscope render` with `args` into target/render-tests/NAME.png and returns the picture.
fn render(name: &str, args: &[&str]) -> RgbaImage {
    render_with_stderr(name, args).0
}

/// As [`render`], with what the command wrote on stderr.
fn render_with_stderr(name: &str, args: &[&str]) -> (RgbaImage, String) {
    common::render_png("render-tests", name, args)
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn demo_model_textured_with_grid() {
    let demo = path(&manifest().join("assets/demo.iqm"));
    let img = render("demo", &[&demo, "--frame", "6", "--size", "320x320", "--grid"]);
    check_golden("demo", &img);
}

#[test]
fn mrfixit_frame_50_with_skeleton_and_placeholder_textures() {
    let mrfixit = path(&corpus("iqm/lsalzman_mrfixit.iqm"));
    let img = render(
        "mrfixit_50",
        &[&mrfixit, "--frame", "50", "--size", "320x320", "--yaw", "60", "--skeleton", "--joint", "Head"],
    );
    check_golden("mrfixit_50", &img);
}

#[test]
fn guy_dancing_with_bounds_wireframe_and_transparent_background() {
    let guy = path(&corpus("iqm/raylib_guy.iqm"));
    let img = render(
        "guy_dance_30",
        &[
            &guy,
            "--anim",
            "dance",
            "--frame",
            "30",
            "--size",
            "320x240",
            "--bounds",
            "--wireframe",
            "--grid",
            "--background",
            "transparent",
        ],
    );
    assert_eq!(img.get_pixel(0, 0).0[3], 0, "the background is transparent");
    check_golden("guy_dance_30", &img);
}

#[test]
fn demo_contact_sheet() {
    let demo = path(&manifest().join("assets/demo.iqm"));
    let img = render("demo_sheet", &[&demo, "--sheet", "4x2", "--size", "160x160"]);
    assert_eq!(img.dimensions(), (640, 320));
    check_golden("demo_sheet", &img);
}

#[test]
fn framing_is_stable_across_an_animation() {
    // With --framing clip, stills of one clip share one camera, framed on the whole clip: with only the grid
    // drawn (it depends on the camera alone), two distant frames give the same picture. By default each still
    // frames its own pose, and the grid moves with the camera.
    let guy = path(&corpus("iqm/raylib_guy.iqm"));
    let render_frame = |f: &str, framing: &str| {
        render(
            &format!("guy_grid_{f}_{framing}"),
            &[&guy, "--anim", "dance", "--frame", f, "--size", "160x120", "--grid", "--no-mesh", "--framing", framing],
        )
    };
    let (a, b) = (render_frame("0", "clip"), render_frame("45", "clip"));
    assert!(a.pixels().any(|p| p.0[..3] != [0x30, 0x34, 0x3c]), "the grid is drawn");
    assert!(a == b, "the camera moved between frames");
    assert!(render_frame("0", "pose") != render_frame("45", "pose"), "each pose framed on its own");
}

#[test]
fn bad_render_requests_exit_2() {
    let demo = path(&manifest().join("assets/demo.iqm"));
    let out = std::env::temp_dir().join("rigscope-never-written.png");
    for args in [
        vec!["--size", "0x10"],
        vec!["--sheet", "3"],
        vec!["--background", "#12"],
        vec!["--anim", "nope"],
        vec!["--joint", "nope"],
    ] {
        let result = Command::new(env!("CARGO_BIN_EXE_rigscope"))
            .args(["render", &demo, "-o", &path(&out)])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(result.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&result.stderr));
    }
}

#[test]
fn an_iqe_renders_like_the_reference_converters_iqm_of_it() {
    let iqe = path(&corpus("iqm/unv_medistat.iqe"));
    let iqm = path(&corpus("iqm/derived/unv_medistat.iqmtool.iqm"));
    let args = |file: &str| -> Vec<String> {
        [file, "--anim", "attack", "--frame", "12", "--size", "256x256", "--grid", "--yaw", "30"]
            .map(String::from)
            .to_vec()
    };
    let a = render("medistat_iqe", &args(&iqe).iter().map(String::as_str).collect::<Vec<_>>());
    let b = render("medistat_iqm", &args(&iqm).iter().map(String::as_str).collect::<Vec<_>>());
    let background = a.get_pixel(0, 0).0;
    let drawn = a.pixels().filter(|p| p.0 != background).count();
    assert!(drawn > 256 * 256 / 10, "the IQE model covers only {drawn} pixels");
    let diff = Difference::of(&b, &a);
    let bad = diff.bad_pixels as f64 / (256.0 * 256.0);
    assert!(bad < 0.0025 && diff.mean < 1.0, "IQE and IQM pictures differ: {bad:.4} of pixels, mean {}", diff.mean);
}

/// The default `render` background, #30343c.
const BACKGROUND: [u8; 3] = [0x30, 0x34, 0x3c];

fn magenta_ish(p: &Rgba<u8>) -> bool {
    p.0[0] > 200 && p.0[1] < 60 && p.0[2] > 200
}

fn background_pixels(img: &RgbaImage) -> usize {
    img.pixels().filter(|p| p.0[..3] == BACKGROUND).count()
}

#[test]
fn rsm_multi_node_model_stands_on_the_grid_with_its_missing_texture_reported() {
    let model = path(&corpus("rsm/multi_node_a.rsm"));
    let (img, stderr) = render_with_stderr("rsm_multi_node_a", &[&model, "--size", "320x320", "--grid"]);
    // Its wood texture is not in the corpus: drawn with the checker and named on stderr.
    assert!(stderr.contains("ecl_wood01.bmp") && stderr.contains("not found"), "{stderr}");
    check_golden("rsm_multi_node_a", &img);
}

#[test]
fn rsm_textured_box_has_no_magenta() {
    let model = corpus("rsm/box_error_01.rsm");
    let texture = corpus("rsm/data/texture/la_scifi/error_01.bmp");
    let (img, stderr) = render_with_stderr("rsm_box_error_01", &[&path(&model), "--size", "320x320", "--grid"]);
    assert!(!stderr.contains("not found"), "the texture is found under data/texture: {stderr}");
    assert!(!img.pixels().any(magenta_ish), "a magenta-keyed texel was drawn");
    // The texture itself may hold no keyed texel (this one holds none); when it does, the cut-out must show
    // the background through the box (see the generated texture below for that case).
    let keyed =
        image::open(&texture).unwrap().to_rgba8().pixels().filter(|p| rigscope::render::is_color_key(p.0)).count();
    if keyed > 0 {
        assert!(background_pixels(&img) > 0);
    }
    check_golden("rsm_box_error_01", &img);
}

/// A 24-bit BMP, `w`×`h`, texel (x, y) (top row 0) coloured `rgb(x, y)`.
fn bmp(w: u32, h: u32, rgb: impl Fn(u32, u32) -> [u8; 3]) -> Vec<u8> {
    let row = (w * 3).div_ceil(4) * 4;
    let size = 54 + row * h;
    let mut b = Vec::with_capacity(size as usize);
    b.extend(b"BM");
    b.extend(size.to_le_bytes());
    b.extend([0u8; 4]);
    b.extend(54u32.to_le_bytes());
    b.extend(40u32.to_le_bytes());
    b.extend((w as i32).to_le_bytes());
    b.extend((h as i32).to_le_bytes());
    b.extend(1u16.to_le_bytes());
    b.extend(24u16.to_le_bytes());
    b.extend([0u8; 24]);
    for y in (0..h).rev() {
        for x in 0..w {
            let [r, g, bl] = rgb(x, y);
            b.extend([bl, g, r]);
        }
        b.extend(std::iter::repeat_n(0u8, (row - w * 3) as usize));
    }
    b
}

/// Grey with a magenta band across rows `band`.
fn banded_bmp(w: u32, h: u32, band: std::ops::Range<u32>) -> Vec<u8> {
    bmp(w, h, |_, y| if band.contains(&y) { [255, 0, 255] } else { [130, 140, 150] })
}

#[test]
fn rsm_magenta_key_cuts_through_the_box() {
    // The corpus box with its texture replaced by one with a magenta band, in a data tree made for the test:
    // the band must vanish, showing the background through the box (its far faces are culled back faces).
    let root = manifest().join(format!("target/render-tests/keyed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let models = root.join("data/model");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::create_dir_all(root.join("data/texture/La_SciFi")).unwrap();
    let model = models.join("box.rsm");
    std::fs::copy(corpus("rsm/box_error_01.rsm"), &model).unwrap();
    let texture = root.join("data/texture/La_SciFi/ERROR_01.bmp");
    std::fs::write(&texture, banded_bmp(64, 64, 0..0)).unwrap();
    let plain = render("rsm_box_plain", &[&path(&model), "--size", "200x200"]);
    std::fs::write(&texture, banded_bmp(64, 64, 20..44)).unwrap();
    let (keyed, stderr) = render_with_stderr("rsm_box_keyed", &[&path(&model), "--size", "200x200"]);
    std::fs::remove_dir_all(&root).unwrap();
    assert!(!stderr.contains("not found"), "{stderr}");
    assert!(!plain.pixels().any(magenta_ish) && !keyed.pixels().any(magenta_ish), "magenta drawn");
    let (before, after) = (background_pixels(&plain), background_pixels(&keyed));
    assert!(after > before + 2000, "the band shows no background: {before} background pixels, then {after}");
}

#[test]
fn rsm_missing_model_renders_textured() {
    // Checked by eye when blessed: the black box with the cyan "!" of model\missing.bmp (a 32-bit BMP).
    let model = path(&corpus("rsm/missing.rsm"));
    let (img, stderr) = render_with_stderr("rsm_missing", &[&model, "--size", "320x320", "--grid", "--yaw", "35"]);
    assert!(!stderr.contains("not found"), "{stderr}");
    check_golden("rsm_missing", &img);
}

#[test]
fn rsm2_uv_animation_moves_the_texture_with_time() {
    use rigscope::formats::rsm::write::{Face, Node, RsmDocument};
    // A static, unlit, two-sided 2.3 quad whose texture (left half red, right half blue) scrolls U by a half
    // over one second: at 0.5 s the red and blue halves have moved a quarter of the quad.
    let root = manifest().join(format!("target/render-tests/uv-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("stripe.bmp"), bmp(64, 64, |x, _| if x < 32 { [220, 30, 30] } else { [30, 30, 220] }))
        .unwrap();
    let mut d = RsmDocument::new(2, 3);
    d.fps = 30.0;
    d.anim_len = 60;
    d.shade_type = 0;
    d.roots = vec![b"q".to_vec()];
    let mut n = Node::new("q", "");
    n.texture_names = vec![b"stripe.bmp".to_vec()];
    n.vertices = vec![[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 2.0, 0.0], [-1.0, 2.0, 0.0]];
    n.tex_vertices = vec![(0, [0.0, 1.0]), (0, [1.0, 1.0]), (0, [1.0, 0.0]), (0, [0.0, 0.0])];
    n.faces = vec![Face::new([0, 1, 2], [0, 1, 2]), Face::new([0, 2, 3], [0, 2, 3])];
    for f in &mut n.faces {
        f.two_sided = 1;
    }
    n.uv_animations = vec![(0, vec![(0, vec![(0, 0.0), (30, 0.5)])])];
    d.nodes = vec![n];
    let model = root.join("quad.rsm2");
    std::fs::write(&model, d.to_bytes()).unwrap();
    let args = |t: &'static str| {
        [
            path(&model),
            "--size".into(),
            "160x160".into(),
            "--yaw".into(),
            "0".into(),
            "--pitch".into(),
            "0".into(),
            "--time".into(),
            t.into(),
        ]
    };
    let at = |t: &'static str| {
        let a = args(t);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        render_with_stderr(&format!("rsm_uv_{t}"), &a)
    };
    let ((start, e0), (half, e1)) = (at("0"), at("0.5"));
    std::fs::remove_dir_all(&root).unwrap();
    assert!(!e0.contains("not found") && !e1.contains("not found"), "{e0}{e1}");
    let red = |img: &RgbaImage| img.pixels().filter(|p| p.0[0] > 150 && p.0[2] < 80).count();
    let blue = |img: &RgbaImage| img.pixels().filter(|p| p.0[2] > 150 && p.0[0] < 80).count();
    // Same geometry, same colours in total; the boundary moved.
    let moved = start.pixels().zip(half.pixels()).filter(|(a, b)| a.0 != b.0).count();
    assert!(red(&start) > 1000 && blue(&start) > 1000, "textured: {} red, {} blue", red(&start), blue(&start));
    assert!(moved > 1000, "only {moved} pixels changed between 0 s and 0.5 s");
    let total = |img: &RgbaImage| red(img) + blue(img);
    assert!(total(&start).abs_diff(total(&half)) < total(&start) / 20, "the quad itself stays");
}

/// An uncompressed 32-bit TGA, `w`×`h`, top row first, every texel `rgba`.
fn tga(w: u16, h: u16, rgba: [u8; 4]) -> Vec<u8> {
    let mut b = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    b.extend(w.to_le_bytes());
    b.extend(h.to_le_bytes());
    b.extend([32u8, 0x28]);
    for _ in 0..u32::from(w) * u32::from(h) {
        b.extend([rgba[2], rgba[1], rgba[0], rgba[3]]);
    }
    b
}

#[test]
fn rsm_tga_alpha_blends_over_what_is_behind() {
    use rigscope::formats::rsm::write::{Face, Node, RsmDocument};
    // Two unlit quads of one 2.3 node: an opaque red BMP behind, a half-transparent blue TGA in front, shifted
    // right so part of it covers only the background. Listed translucent first, so drawing in file order would
    // hide the red behind it: the blended pass must come after the opaque one.
    let root = manifest().join(format!("target/render-tests/blend-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("red.bmp"), bmp(8, 8, |_, _| [220, 20, 20])).unwrap();
    std::fs::write(root.join("glass.tga"), tga(8, 8, [20, 20, 220, 128])).unwrap();
    let mut d = RsmDocument::new(2, 3);
    d.shade_type = 0;
    d.roots = vec![b"q".to_vec()];
    let mut n = Node::new("q", "");
    n.texture_names = vec![b"red.bmp".to_vec(), b"glass.tga".to_vec()];
    // Front is toward −Z in the file (RSM2 is shown with Z mirrored).
    n.vertices = vec![
        [-1.0, 0.0, 0.5],
        [1.0, 0.0, 0.5],
        [1.0, 2.0, 0.5],
        [-1.0, 2.0, 0.5],
        [0.0, 0.5, -0.5],
        [2.0, 0.5, -0.5],
        [2.0, 1.5, -0.5],
        [0.0, 1.5, -0.5],
    ];
    n.tex_vertices = vec![(0, [0.0, 0.0]), (0, [1.0, 0.0]), (0, [1.0, 1.0]), (0, [0.0, 1.0])];
    let face = |v: [u16; 3], t: [u16; 3], slot: u16| {
        let mut f = Face::new(v, t);
        f.texture = slot;
        f.two_sided = 1;
        f
    };
    n.faces = vec![
        face([4, 5, 6], [0, 1, 2], 1),
        face([4, 6, 7], [0, 2, 3], 1),
        face([0, 1, 2], [0, 1, 2], 0),
        face([0, 2, 3], [0, 2, 3], 0),
    ];
    d.nodes = vec![n];
    let model = root.join("glass.rsm2");
    std::fs::write(&model, d.to_bytes()).unwrap();
    let (img, stderr) =
        render_with_stderr("rsm_blend", &[&path(&model), "--size", "200x200", "--yaw", "0", "--pitch", "0"]);
    std::fs::remove_dir_all(&root).unwrap();
    assert!(!stderr.contains("not found"), "{stderr}");
    // Blue glass over red: purple. Over the background: a blue tint of it. Neither pure red nor pure blue.
    let purple = img.pixels().filter(|p| p.0[0] > 80 && p.0[2] > 80 && p.0[1] < 60).count();
    let tinted = img.pixels().filter(|p| p.0[2] > 90 && p.0[0] < 50 && p.0[0] > 20).count();
    let red = img.pixels().filter(|p| p.0[0] > 180 && p.0[2] < 40).count();
    assert!(purple > 500, "{purple} purple pixels: the glass does not blend over the red quad");
    assert!(tinted > 300, "{tinted} tinted pixels: the glass does not blend over the background");
    assert!(red > 500, "{red} red pixels: the opaque quad is hidden");
}

#[test]
fn every_corpus_rsm_renders() {
    for file in common::corpus_files("rsm", &["rsm", "rsm2"]) {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let img = render(&format!("corpus_{name}"), &[&path(&file), "--size", "96x96", "--no-cull"]);
        let background = img.get_pixel(0, 0).0;
        let drawn = img.pixels().filter(|p| p.0 != background).count();
        // The synthetic RagLite fixtures may have nothing drawable (every face has a bad index or no area).
        let scene = rigscope::load_path(&file).unwrap();
        let area = |t: &[u32; 3]| {
            let p = t.map(|i| scene.vertices.positions[i as usize]);
            (p[1] - p[0]).cross(p[2] - p[0]).length()
        };
        if scene.triangles.iter().any(|t| area(t) > 1e-6) {
            assert!(drawn > 20, "{name}: only {drawn} pixels differ from the background");
        }
    }
}

/// An MVD for raylib_guy written at test time: object "guy pose" (30 keys/s) turns arm_L 80° about X, leg_L
/// 45° about X and head 30° about Z over one second, and has a track "センター" that matches no joint;
/// object "camera" (30 keys/s) orbits a target 4 units up from the front-left to the front-right, 16 units
/// away, looking slightly down, its field of view widening from 35° to 45°.
fn guy_mvd() -> PathBuf {
    use rigscope::formats::mvd::write::{BoneFrame, CameraFrame, MvdDocument, Object, Section};
    let q = |axis: glam::Vec3, deg: f32| glam::Quat::from_axis_angle(axis, deg.to_radians()).to_array();
    let id = [0.0, 0.0, 0.0, 1.0];
    let mut d = MvdDocument::new(rigscope::scene::MvdEncoding::Utf8);
    let mut m = Object::new("guy pose", 30.0);
    m.sections.push(Section::NameList(vec![
        (0, "arm_L".into()),
        (1, "leg_L".into()),
        (2, "head".into()),
        (3, "センター".into()),
    ]));
    let bone = |key: i32, end: [f32; 4]| Section::Bone {
        minor: 2,
        key,
        stage_count: 1,
        parent_clip: -1,
        item_size: None,
        frames: vec![BoneFrame::new(0, [0.0; 3], id), BoneFrame::new(30, [0.0; 3], end)],
    };
    m.sections.push(bone(0, q(glam::Vec3::X, 80.0)));
    m.sections.push(bone(1, q(glam::Vec3::X, 45.0)));
    m.sections.push(bone(2, q(glam::Vec3::Z, 30.0)));
    m.sections.push(bone(3, id));
    d.objects.push(m);
    let mut c = Object::new("camera", 30.0);
    c.sections.push(Section::NameList(vec![(0, "カメラ".into())]));
    let pi = std::f32::consts::PI;
    let frames = vec![
        CameraFrame::new(0, [0.0, 4.0, 0.0], 16.0, [0.25, pi - 0.6, 0.0], 35f32.to_radians()),
        CameraFrame::new(30, [0.0, 4.0, 0.0], 16.0, [0.25, pi + 0.6, 0.0], 45f32.to_radians()),
    ];
    c.sections.push(Section::Camera { minor: 3, key: 0, stage_count: 1, item_size: None, frames });
    d.objects.push(c);
    let dir = manifest().join("target/render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("guy_motion.mvd");
    std::fs::write(&file, d.to_bytes()).unwrap();
    file
}

#[test]
fn guy_posed_by_an_attached_mvd() {
    let guy = path(&corpus("iqm/raylib_guy.iqm"));
    let mvd = path(&guy_mvd());
    let img = render(
        "guy_mvd_pose",
        &[&guy, "--attach", &mvd, "--anim", "guy pose", "--time", "1", "--size", "320x320", "--grid", "--skeleton"],
    );
    check_golden("guy_mvd_pose", &img);
    // The bind pose differs: the motion moved the limbs.
    let bind = render("guy_mvd_pose_t0", &[&guy, "--attach", &mvd, "--anim", "guy pose", "--size", "320x320"]);
    let posed =
        render("guy_mvd_pose_t1", &[&guy, "--attach", &mvd, "--anim", "guy pose", "--time", "1", "--size", "320x320"]);
    assert!(bind != posed, "the attached motion changes the picture");
}

#[test]
fn guy_seen_from_an_mvd_camera() {
    let guy = path(&corpus("iqm/raylib_guy.iqm"));
    let mvd = path(&guy_mvd());
    let img = render(
        "guy_mvd_camera",
        &[
            &guy, "--attach", &mvd, "--anim", "camera", "--time", "0.5", "--size", "320x240", "--grid", "--camera",
            "mvd",
        ],
    );
    check_golden("guy_mvd_camera", &img);
    // The camera moves with time.
    let later = render(
        "guy_mvd_camera_1s",
        &[&guy, "--attach", &mvd, "--anim", "camera", "--time", "1", "--size", "320x240", "--grid", "--camera", "mvd"],
    );
    assert!(img != later, "the animated camera moved");
    // The motion alone renders from its camera too (no geometry: the grid only).
    let alone =
        render("mvd_camera_alone", &[&mvd, "--anim", "camera", "--size", "160x120", "--grid", "--camera", "mvd"]);
    assert!(alone.pixels().any(|p| p.0[..3] != [0x30, 0x34, 0x3c]), "the grid is drawn");
}

#[test]
fn camera_mvd_without_a_camera_exits_2() {
    let guy = path(&corpus("iqm/raylib_guy.iqm"));
    let out = std::env::temp_dir().join("rigscope-never-written.png");
    let result = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["render", &guy, "-o", &path(&out), "--camera", "mvd"])
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2), "{}", String::from_utf8_lossy(&result.stderr));
    assert!(String::from_utf8_lossy(&result.stderr).contains("no animated camera"));
}

/// How many pixels of `after` are darker, and how many lighter, than in `before` by more than 30 (of 765).
fn darker_and_lighter(before: &RgbaImage, after: &RgbaImage) -> (usize, usize) {
    let sum = |p: &Rgba<u8>| p.0[..3].iter().map(|&c| u32::from(c)).sum::<u32>();
    let darker = before.pixels().zip(after.pixels()).filter(|(a, b)| sum(b) + 30 < sum(a)).count();
    let lighter = before.pixels().zip(after.pixels()).filter(|(a, b)| sum(b) > sum(a) + 30).count();
    (darker, lighter)
}

/// The corpus character as MikuMikuDance's default self-shadow shades her (the ground shadow left out), in her
/// bind pose, which the camera frames closest: hair on the face, the head on the neck, the arms on the shirt.
/// The self-shadow only darkens: against the same picture without it, hundreds of pixels are darker and next to
/// none lighter.
#[test]
fn mmd_self_shadow() {
    let miku = path(&corpus("mmd/threejs/miku/miku_v2.pmd"));
    // Physics off: the picture tests the shadow, not where 60 warm-up steps leave the hair.
    let args = [miku.as_str(), "--bind-pose", "--size", "240x400", "--no-ground-shadow", "--no-physics"];
    let img = render("mmd_self_shadow", &args);
    let plain = render("mmd_self_shadow_off", &[args.as_slice(), &["--no-self-shadow"]].concat());
    let (darker, lighter) = darker_and_lighter(&plain, &img);
    assert!(darker > 500 && lighter * 50 < darker, "{darker} pixels darker, {lighter} lighter");
    check_golden("mmd_self_shadow", &img);
}

/// The corpus character dancing at frame 300 with the ground shadow alone (the self-shadow left out, physics
/// off so the picture doesn't depend on 300 frames of simulation), on the grid, seen from higher up so the
/// floor shows.
#[test]
fn mmd_ground_shadow() {
    let miku = path(&corpus("mmd/threejs/miku/miku_v2.pmd"));
    let vmd = path(&corpus("mmd/threejs/vmds/wavefile_v2.vmd"));
    let args = [
        miku.as_str(),
        "--attach",
        vmd.as_str(),
        "--frame",
        "300",
        "--size",
        "320x240",
        "--no-physics",
        "--no-self-shadow",
    ];
    let img = render("mmd_ground_shadow", &[args.as_slice(), &["--grid", "--pitch", "35"]].concat());
    check_golden("mmd_ground_shadow", &img);
}

/// Other formats opt in: `--self-shadow` on Pip (no light of its own) shades her from the viewer's key light,
/// above the camera (the head on the neck, the arms on the body), and only darkens.
#[test]
fn self_shadow_from_the_views_light_on_request() {
    let demo = path(&manifest().join("assets/demo.iqm"));
    let args = [demo.as_str(), "--size", "320x320"];
    let plain = render("demo_self_shadow_off", &args);
    let shaded = render("demo_self_shadow", &[args.as_slice(), &["--self-shadow"]].concat());
    let (darker, lighter) = darker_and_lighter(&plain, &shaded);
    assert!(darker > 300 && lighter * 50 < darker, "{darker} pixels darker, {lighter} lighter");
}

//! The window's contact sheet (the Contact sheet command, driven by the hidden `--contact-sheet` test hook):
//! written into the current folder as `model-clip-sheet.png`, never over an existing file, 4×3 cells of
//! 320×240 each showing the model.
//!
//! Needs a display and a GPU adapter, like tests/window_xvfb.rs (CI: Xvfb and lavapipe); none is a failure.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::corpus;
use image::RgbaImage;

/// The window's background, #30343c.
const BACKGROUND: [u8; 3] = [0x30, 0x34, 0x3c];

fn require_display() {
    let has = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
    assert!(
        has("DISPLAY") || has("WAYLAND_DISPLAY"),
        "the window tests need a display: run them under Xvfb with WGPU_BACKEND=vulkan, as .ci/run does"
    );
}

/// Runs the window on `model` in `dir` until the sheet is saved and a few frames later.
fn run_window_for_a_sheet(dir: &Path, model: &Path) {
    let result = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .current_dir(dir)
        .arg(model)
        .args(["--contact-sheet", "--exit-after-frames", "4"])
        // Never the user's settings: an empty config folder of the run's own.
        .env("RIGSCOPE_CONFIG_DIR", dir.with_extension("config"))
        .output()
        .expect("run rigscope");
    assert!(
        result.status.success(),
        "rigscope --contact-sheet exited with {:?}: {}",
        result.status.code(),
        String::from_utf8_lossy(&result.stderr)
    );
}

fn open(path: &Path) -> RgbaImage {
    image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).to_rgba8()
}

#[test]
fn the_window_saves_a_contact_sheet_of_the_clip_shown() {
    require_display();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/window-tests/sheet");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let model = corpus("iqm/lsalzman_mrfixit.iqm");

    run_window_for_a_sheet(&dir, &model);
    let sheet = dir.join("lsalzman_mrfixit-idle-sheet.png");
    assert!(sheet.is_file(), "{} was not written", sheet.display());
    let img = open(&sheet);
    assert_eq!(img.dimensions(), (4 * 320, 3 * 240), "4×3 cells of 320×240");
    for row in 0..3 {
        for col in 0..4 {
            // The model stands in the middle of each cell; its corners are background.
            let (x0, y0) = (col * 320, row * 240);
            let mut model_px = 0;
            for y in y0 + 40..y0 + 200 {
                for x in x0 + 120..x0 + 200 {
                    let p = img.get_pixel(x, y).0;
                    model_px += usize::from(p.iter().zip(BACKGROUND).any(|(&a, b)| a.abs_diff(b) > 40));
                }
            }
            assert!(model_px > 1000, "cell ({col}, {row}) shows no model ({model_px} pixels)");
            // The frame number's label: white digits on a dark box in the top-left corner.
            let label = (y0..y0 + 30).flat_map(|y| (x0..x0 + 40).map(move |x| (x, y)));
            assert!(
                label.into_iter().any(|(x, y)| img.get_pixel(x, y).0[..3] == [255, 255, 255]),
                "cell ({col}, {row}) has no label"
            );
        }
    }
    // The cells show different frames of the idle animation.
    let cell = |col: u32| image::imageops::crop_imm(&img, col * 320, 240, 320, 240).to_image().into_raw();
    assert_ne!(cell(0), cell(2), "the cells show one pose");

    // The same picture as `render --sheet 4x3 --size 320x240` from the window's default angles, with the
    // window's default overlays (the grid), up to rasterisation differences between the two targets.
    let cli = dir.join("cli.png");
    let out = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .arg("render")
        .arg(&model)
        .args(["--sheet", "4x3", "--size", "320x240", "--grid", "-o"])
        .arg(&cli)
        .output()
        .expect("run rigscope render");
    assert!(out.status.success(), "render --sheet: {}", String::from_utf8_lossy(&out.stderr));
    let cli = open(&cli);
    assert_eq!(cli.dimensions(), img.dimensions());
    let (mut off, mut total) = (0usize, 0u64);
    for (a, b) in img.pixels().zip(cli.pixels()) {
        let d = (0..3).map(|k| a.0[k].abs_diff(b.0[k])).max().unwrap_or(0);
        off += usize::from(d > 32);
        total += u64::from(d);
    }
    let n = (img.width() * img.height()) as f64;
    let mean = total as f64 / n;
    assert!(
        off as f64 <= 0.0025 * n && mean <= 1.0,
        "the window's sheet differs from render --sheet: {off} pixels off, mean {mean:.2}"
    );

    // A second sheet never overwrites the first.
    run_window_for_a_sheet(&dir, &model);
    assert!(
        dir.join("lsalzman_mrfixit-idle-sheet-2.png").is_file(),
        "the second sheet was not written beside the first"
    );
    assert_eq!(open(&sheet), img);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn without_an_animation_the_window_saves_no_sheet() {
    require_display();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/window-tests/no-sheet");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    run_window_for_a_sheet(&dir, &corpus("iqm/redeclipse_rifle.iqm"));
    let written: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(written.is_empty(), "a model without animation gave files: {written:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The window's Record clip command (driven by the hidden `--record-clip` hook): the clip shown, recorded as a
/// GIF into the current folder as `model-clip.gif`, one frame per clip frame, a few per window frame while
/// the window keeps drawing; the unfinished `.partial` file is gone at the end.
#[test]
fn the_window_records_the_clip_shown_as_a_gif() {
    require_display();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/window-tests/record");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let model = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo.iqm"));
    let result = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .current_dir(&dir)
        .arg(&model)
        // The demo's first clip has 48 frames, two recorded per window frame: done well before frame 60.
        .args(["--record-clip", "--exit-after-frames", "60"])
        .env("RIGSCOPE_CONFIG_DIR", dir.with_extension("config"))
        .output()
        .expect("run rigscope");
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let gif = dir.join("demo-idle.gif");
    assert!(gif.is_file(), "{} was not written: {}", gif.display(), String::from_utf8_lossy(&result.stderr));
    assert!(!dir.join("demo-idle.gif.partial").exists());
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(&gif).unwrap()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (640, 480));
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 48, "one picture per frame of the 48-frame clip");
}

/// The window's Export glTF command (driven by the hidden `--export-gltf` hook, which skips the dialog): the
/// model shown with its attached motion is written as `convert` writes it, on a thread of its own, and the
/// window says so; the hook keeps the window open until the export is done.
#[test]
fn the_window_exports_the_model_shown_with_its_motion_as_gltf() {
    require_display();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/window-tests/export");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("miku.glb");
    let result = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .arg(corpus("mmd/threejs/miku/miku_v2.pmd"))
        .arg(corpus("mmd/threejs/vmds/wavefile_v2.vmd"))
        .arg("--export-gltf")
        .arg(&out)
        .args(["--exit-after-frames", "2"])
        .env("RIGSCOPE_CONFIG_DIR", dir.join("config"))
        .output()
        .expect("run rigscope");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    assert!(stderr.contains("rigscope: Exported miku.glb"), "{stderr}");
    assert!(!dir.join("miku.glb.partial").exists());
    let g = gltf::Gltf::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(g.skins().count(), 1);
    let names: Vec<_> = g.animations().map(|a| a.name().unwrap_or_default().to_string()).collect();
    assert_eq!(names.len(), 1, "the dance: {names:?}");
    assert!(g.meshes().next().unwrap().primitives().next().unwrap().morph_targets().count() > 10, "Miku's morphs");
}

//! The real window: `rigscope [FILE]...` opens a window, draws the model between the Outliner and the
//! Inspector, and with its test hooks saves the presented frame (`--screenshot`) and exits after a number of
//! frames (`--exit-after-frames`).
//!
//! These need a display and a GPU adapter. CI runs them under Xvfb with lavapipe (`.ci/run` starts Xvfb and sets
//! DISPLAY, WGPU_BACKEND=vulkan and a private XDG_RUNTIME_DIR); without a display they fail, never skip.

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
        "the window tests need a display: run them under Xvfb (e.g. `Xvfb :99 -screen 0 1280x800x24 &` and \
         DISPLAY=:99) with WGPU_BACKEND=vulkan, as .ci/run does"
    );
}

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/window-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An empty config folder for one run (`RIGSCOPE_CONFIG_DIR`): the tests never read or write the user's settings.
fn fresh_config(name: &str) -> PathBuf {
    let dir = out_dir().join("config").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the window on `files` for `frames` frames and returns its screenshot.
fn window_shot(name: &str, files: &[&Path], frames: u32) -> RgbaImage {
    window_shot_with(name, files, frames, &fresh_config(name))
}

/// As [`window_shot`], with the settings in `config`.
fn window_shot_with(name: &str, files: &[&Path], frames: u32, config: &Path) -> RgbaImage {
    require_display();
    let shot = out_dir().join(format!("{name}.png"));
    let _ = std::fs::remove_file(&shot);
    let result = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(files)
        .arg("--screenshot")
        .arg(&shot)
        .arg("--exit-after-frames")
        .arg(frames.to_string())
        // The clock advances 1/60 s a frame whatever the machine's speed, so frame N shows the same pose on
        // every run (a busy machine once drew frame 90 a whole idle cycle on, back near frame 5's pose).
        .args(["--frame-step", "0.016666668"])
        .env("RIGSCOPE_CONFIG_DIR", config)
        .output()
        .expect("run rigscope");
    assert!(
        result.status.success(),
        "rigscope {files:?} --screenshot exited with {:?}: {}",
        result.status.code(),
        String::from_utf8_lossy(&result.stderr)
    );
    assert!(shot.is_file(), "{} was not written", shot.display());
    image::open(&shot).unwrap_or_else(|e| panic!("{}: {e}", shot.display())).to_rgba8()
}

/// Pixels of a part of the picture (the view lies between the panels, above the timeline: [`in_view`]), as
/// fractions of the picture.
fn region(img: &RgbaImage, x: (f32, f32), y: (f32, f32)) -> Vec<[u8; 3]> {
    let (w, h) = (img.width() as f32, img.height() as f32);
    let mut out = Vec::new();
    for py in (y.0 * h) as u32..(y.1 * h) as u32 {
        for px in (x.0 * w) as u32..(x.1 * w) as u32 {
            let p = img.get_pixel(px, py).0;
            out.push([p[0], p[1], p[2]]);
        }
    }
    out
}

/// Where the 3D view lies across the picture, as fractions of its width: from the first to the last column that
/// shows the view's background, over rows through its height (the panels on either side are other colours; a
/// window over the view, as the start screen, hides only part of some rows).
fn view_span(img: &RgbaImage) -> (f32, f32) {
    let is_background = |p: &image::Rgba<u8>| p.0.iter().zip(BACKGROUND).all(|(&a, b)| a.abs_diff(b) <= 3);
    let (mut first, mut last) = (img.width(), 0);
    for k in 1..10 {
        let y = img.height() * k / 10;
        let row = (0..img.width()).filter(|&x| is_background(img.get_pixel(x, y)));
        for x in row {
            first = first.min(x);
            last = last.max(x);
        }
    }
    assert!(first < last, "no view background in the picture");
    (first as f32 / img.width() as f32, (last + 1) as f32 / img.width() as f32)
}

/// `x`, fractions of the 3D view's width, as fractions of the picture's.
fn in_view(img: &RgbaImage, x: (f32, f32)) -> (f32, f32) {
    let (a, b) = view_span(img);
    (a + (b - a) * x.0, a + (b - a) * x.1)
}

fn differs_from_background(p: &[u8; 3]) -> bool {
    p.iter().zip(BACKGROUND).any(|(&a, b)| a.abs_diff(b) > 40)
}

/// The model stands in the middle of the view: a vertical band through the view's centre is mostly model (the
/// grid alone covers a few percent of it).
fn assert_model_visible(img: &RgbaImage, what: &str) {
    let band = region(img, in_view(img, (0.45, 0.55)), (0.15, 0.85));
    let covered = band.iter().filter(|p| differs_from_background(p)).count() as f32 / band.len() as f32;
    assert!(covered > 0.25, "{what}: only {:.1}% of the view's centre differs from the background", covered * 100.0);
}

#[test]
fn window_shows_a_corpus_model() {
    let model = corpus("iqm/lsalzman_mrfixit.iqm");
    let img = window_shot("mrfixit", &[&model], 30);
    assert!(img.width() >= 400 && img.height() >= 300, "window size {}x{}", img.width(), img.height());
    assert_model_visible(&img, "mrfixit");
    // The Outliner is on the left and the Inspector on the right: the view leaves room for both.
    let (left, right) = view_span(&img);
    let width = img.width() as f32;
    assert!(left * width >= 180.0 && (1.0 - right) * width >= 200.0, "the view spans {left}..{right} of the window");
}

#[test]
fn window_shows_an_iqe_model() {
    let model = corpus("iqm/unv_medistat.iqe");
    let img = window_shot("medistat-iqe", &[&model], 30);
    assert_model_visible(&img, "medistat.iqe");
}

#[test]
fn window_opens_the_textured_demo_and_plays_it() {
    let early = window_shot("demo-early", &[], 5);
    assert_model_visible(&early, "demo");
    // Pip's texture is mostly orange; the placeholder checker is grey.
    let orange = |p: &&[u8; 3]| p[0] > 170 && (50..170).contains(&p[1]) && p[2] < 90;
    let view = region(&early, in_view(&early, (0.05, 0.95)), (0.05, 0.95));
    let count = view.iter().filter(orange).count();
    assert!(count > 2000, "the demo's texture isn't drawn ({count} orange pixels)");

    // Playback: later frames show another pose. At 1/60 s a frame (`--frame-step`), frame 90 is 1.5 s into the
    // 2 s idle: the hips swayed to the other side.
    let late = window_shot("demo-late", &[], 90);
    let span = in_view(&early, (0.05, 0.95));
    let (a, b) = (region(&early, span, (0.05, 0.90)), region(&late, span, (0.05, 0.90)));
    let changed = a.iter().zip(&b).filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 24)).count();
    assert!(changed > 2000, "the demo doesn't move between frame 5 and frame 90 ({changed} pixels changed)");
}

/// An upright square in the model's XZ plane (IQE is Z-up), both windings so culling can't hide it; `right`
/// says whether its right half is there.
fn square_iqe(right: bool) -> String {
    let x1 = if right { 1.0 } else { 0.0 };
    format!(
        "# Inter-Quake Export\nmesh square\nmaterial flat\nvp -1 0 0\nvp {x1} 0 0\nvp {x1} 0 2\nvp -1 0 2\n\
         fm 0 1 2\nfm 0 2 3\nfm 2 1 0\nfm 3 2 0\n"
    )
}

/// Share of a vertical band of the view (fractions of the picture's width) covered by something other than the
/// background.
fn covered(img: &RgbaImage, x: (f32, f32)) -> f32 {
    let band = region(img, x, (0.40, 0.60));
    band.iter().filter(|p| differs_from_background(p)).count() as f32 / band.len() as f32
}

/// Opens `model` in the window with the reload test hooks, calls `rewrite` once the window is up, and returns
/// the frame the window saves five frames after it reloaded (what it printed on stderr on failure). Bounded:
/// a window that never reloads is killed after a minute.
fn shot_after_reload(name: &str, model: &Path, rewrite: impl FnOnce()) -> RgbaImage {
    use std::io::{BufRead, BufReader};
    require_display();
    let shot = out_dir().join(format!("{name}.png"));
    let _ = std::fs::remove_file(&shot);
    let mut child = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .arg(model)
        .args(["--exit-after-reload", "--exit-after-frames", "5", "--screenshot"])
        .arg(&shot)
        .env("RIGSCOPE_CONFIG_DIR", fresh_config(name))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run rigscope");
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut seen = Vec::new();
    let mut wait_for = |what: &str| {
        let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while let Some(left) = end.checked_duration_since(std::time::Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(line) if line.contains(what) => return true,
                Ok(line) => seen.push(line),
                Err(_) => break,
            }
        }
        false
    };
    let started = wait_for("window drawn by");
    rewrite();
    let reloaded = started && wait_for("reloaded");
    if !reloaded {
        let _ = child.kill();
    }
    let status = child.wait().unwrap();
    assert!(reloaded, "the window never reloaded; it said {seen:?}");
    assert!(status.success(), "exit {status:?}: {seen:?}");
    image::open(&shot).unwrap_or_else(|e| panic!("{}: {e}", shot.display())).to_rgba8()
}

#[test]
fn a_file_rewritten_on_disk_reloads_in_the_window_with_the_same_camera() {
    let dir = out_dir().join("reload");
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("square.iqe");
    std::fs::write(&model, square_iqe(true)).unwrap();
    let before = window_shot("reload-before", &[&model], 5);
    // Bands either side of the view's centre, inside the square's halves.
    let (left, right) = (in_view(&before, (0.32, 0.43)), in_view(&before, (0.59, 0.70)));
    assert!(covered(&before, left) > 0.9 && covered(&before, right) > 0.9, "the whole square is drawn at first");

    // The exporter writes the model again, without its right half.
    let after = shot_after_reload("reload-after", &model, || std::fs::write(&model, square_iqe(false)).unwrap());

    // Same camera: the left half stays where it was, the right half is gone. (Framed afresh, the half square
    // would move to the middle of the view.)
    assert!(covered(&after, left) > 0.9, "the left half stays where it was: {}", covered(&after, left));
    assert!(covered(&after, right) < 0.1, "the right half is gone: {}", covered(&after, right));
    let fresh = window_shot("reload-fresh", &[&model], 5);
    let view = in_view(&after, (0.0, 1.0));
    let (a, b) = (region(&after, view, (0.1, 0.9)), region(&fresh, view, (0.1, 0.9)));
    let moved = a.iter().zip(&b).filter(|(p, q)| differs_from_background(p) != differs_from_background(q)).count();
    assert!(moved > a.len() / 20, "a fresh window frames the half square differently ({moved} pixels)");
}

#[test]
fn window_opens_at_the_remembered_size_and_remembers_the_file_it_opened() {
    let config = fresh_config("remembered-size");
    let settings = config.join("settings.json");
    let text = r#"{"window": {"width": 640, "height": 480, "maximized": false}, "speed": 2.0, "future": 1}"#;
    std::fs::write(&settings, text).unwrap();
    let model = corpus("iqm/lsalzman_mrfixit.iqm");
    let img = window_shot_with("remembered-size", &[&model], 10, &config);
    // Xvfb runs at scale 1: logical pixels are pixels.
    assert_eq!((img.width(), img.height()), (640, 480));
    // Written on exit: the opened file is the most recent, the rest kept.
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let recent = saved["recent"].as_array().expect("recent files");
    assert_eq!(recent.first().and_then(|p| p.as_str()), Some(std::fs::canonicalize(&model).unwrap().to_str().unwrap()));
    assert_eq!(saved["speed"], 2.0);
    assert_eq!(saved["window"]["width"], 640.0);
    assert_eq!(saved["window"]["height"], 480.0);
    assert!(saved["egui_memory"]["data"].is_array(), "egui's memory is kept: {}", saved["egui_memory"]);
}

/// The window's reload test, for a texture: the model's texture rewritten on disk is drawn in its new colour.
#[test]
fn a_texture_rewritten_on_disk_is_drawn_again() {
    let dir = out_dir().join("reload-texture");
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("panel.iqe");
    let texture = dir.join("paint.png");
    std::fs::write(
        &model,
        "# Inter-Quake Export\nmesh panel\nmaterial paint.png\n\
         vp -1 0 0\nvt 0 1\nvp 1 0 0\nvt 1 1\nvp 1 0 2\nvt 1 0\nvp -1 0 2\nvt 0 0\n\
         fm 0 1 2\nfm 0 2 3\nfm 2 1 0\nfm 3 2 0\n",
    )
    .unwrap();
    let paint = |rgb: [u8; 3]| image::RgbaImage::from_pixel(8, 8, image::Rgba([rgb[0], rgb[1], rgb[2], 255]));
    paint([200, 20, 20]).save(&texture).unwrap();
    // The texture is painted again, green now (written beside it and renamed over it, as image editors do).
    let img = shot_after_reload("reload-texture", &model, || {
        let tmp = dir.join("paint.tmp.png");
        paint([20, 200, 20]).save(&tmp).unwrap();
        std::fs::rename(&tmp, &texture).unwrap();
    });
    let band = region(&img, in_view(&img, (0.40, 0.60)), (0.40, 0.60));
    let green = band.iter().filter(|p| p[1] > 120 && p[0] < 90).count();
    let red = band.iter().filter(|p| p[0] > 120 && p[1] < 90).count();
    assert!(green > band.len() / 2 && red == 0, "{green} green and {red} red of {} pixels", band.len());
}

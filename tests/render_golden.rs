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
use image::{Rgba, RgbaImage};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `rigscope render` with `args` into target/render-tests/NAME.png and returns the picture.
fn render(name: &str, args: &[&str]) -> RgbaImage {
    let dir = manifest().join("target/render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&out);
    let result = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .arg("render")
        .args(args)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run rigscope");
    assert!(
        result.status.success(),
        "rigscope render {args:?} failed with {:?}: {}",
        result.status.code(),
        String::from_utf8_lossy(&result.stderr)
    );
    image::open(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display())).to_rgba8()
}

/// Compares `actual` with tests/golden/NAME.png (or writes it, with RIGSCOPE_BLESS=1).
fn check_golden(name: &str, actual: &RgbaImage) {
    let golden = manifest().join("tests/golden").join(format!("{name}.png"));
    if std::env::var_os("RIGSCOPE_BLESS").is_some_and(|v| v != "0") {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        actual.save(&golden).unwrap();
        eprintln!("blessed {}", golden.display());
        return;
    }
    let failures = manifest().join("target/golden-failures");
    let keep = |what: &str, img: &RgbaImage| -> PathBuf {
        std::fs::create_dir_all(&failures).unwrap();
        let p = failures.join(format!("{name}.{what}.png"));
        img.save(&p).unwrap();
        p
    };
    let expected = match image::open(&golden) {
        Ok(img) => img.to_rgba8(),
        Err(e) => {
            let p = keep("actual", actual);
            panic!(
                "golden {} unreadable ({e}); the actual picture is {}. Run with RIGSCOPE_BLESS=1 to create it.",
                golden.display(),
                p.display()
            );
        }
    };
    if expected.dimensions() != actual.dimensions() {
        let p = keep("actual", actual);
        panic!(
            "{name}: size {:?}, golden has {:?}; actual picture: {}",
            actual.dimensions(),
            expected.dimensions(),
            p.display()
        );
    }
    let diff = Difference::of(&expected, actual);
    let total = (actual.width() * actual.height()) as f64;
    let bad_fraction = diff.bad_pixels as f64 / total;
    if bad_fraction > 0.0025 || diff.mean > 1.0 {
        let a = keep("actual", actual);
        let d = keep("diff", &diff.image);
        panic!(
            "{name} differs from {}: {} pixels ({:.3}%) off by more than {BAD}, mean difference {:.3} per channel; \
             actual {}, diff {}. If the change is intended, rerun with RIGSCOPE_BLESS=1.",
            golden.display(),
            diff.bad_pixels,
            bad_fraction * 100.0,
            diff.mean,
            a.display(),
            d.display()
        );
    }
}

/// A per-channel difference larger than this makes a pixel count as different.
const BAD: u8 = 32;

struct Difference {
    bad_pixels: u64,
    /// Mean absolute difference per channel, 0..255.
    mean: f64,
    /// The expected picture dimmed to grey, with differing pixels in red (brighter = larger).
    image: RgbaImage,
}

impl Difference {
    fn of(expected: &RgbaImage, actual: &RgbaImage) -> Difference {
        let mut image = RgbaImage::new(expected.width(), expected.height());
        let (mut bad, mut sum) = (0u64, 0u64);
        for ((e, a), d) in expected.pixels().zip(actual.pixels()).zip(image.pixels_mut()) {
            let worst = (0..4).map(|k| e.0[k].abs_diff(a.0[k])).max().unwrap();
            sum += (0..4).map(|k| e.0[k].abs_diff(a.0[k]) as u64).sum::<u64>();
            let grey = ((e.0[0] as u32 + e.0[1] as u32 + e.0[2] as u32) / 12) as u8;
            *d = if worst > BAD {
                bad += 1;
                Rgba([255, 0, 0, 255])
            } else if worst > 0 {
                Rgba([(128 + worst as u32 * 4).min(255) as u8, grey, grey, 255])
            } else {
                Rgba([grey, grey, grey, 255])
            };
        }
        let n = (expected.width() * expected.height()) as f64 * 4.0;
        Difference { bad_pixels: bad, mean: sum as f64 / n, image }
    }
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
    // Frames of one clip share one camera, framed on the whole clip: with only the grid drawn (it depends on
    // the camera alone), two distant frames give the same picture.
    let guy = path(&corpus("iqm/raylib_guy.iqm"));
    let render_frame = |f: &str| {
        render(
            &format!("guy_grid_{f}"),
            &[&guy, "--anim", "dance", "--frame", f, "--size", "160x120", "--grid", "--no-mesh"],
        )
    };
    let (a, b) = (render_frame("0"), render_frame("45"));
    assert!(a.pixels().any(|p| p.0[..3] != [0x30, 0x34, 0x3c]), "the grid is drawn");
    assert!(a == b, "the camera moved between frames");
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

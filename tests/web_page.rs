//! The web page in a real browser: `web/build.sh` builds the site (once per run, into target/web with a cargo
//! target folder of its own, since the running `cargo test` holds the main one), then `tests/web/page.mjs` drives
//! it in Debian's Chromium through playwright-core (pinned in tests/web/package-lock.json, installed here with
//! `npm ci` on first use; no browser download), once with WebGPU and once with WebGL2. The script only drives
//! the page and records what the app's `status()` said and what the page looked like; the checks are here.
//!
//! Needs (`.ci/run` installs them): Chromium (`apt-get install chromium`), Node and npm, the wasm32 standard
//! library (rustup's target, or Debian's `rustc-web` and `rust-web-src`), and the wasm-bindgen CLI of
//! Cargo.lock's version. Missing any of them fails the test, as a missing GPU adapter fails the render tests.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use common::golden::{Difference, check_golden};
use image::RgbaImage;
use serde_json::Value;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The built site, built once for all tests of this run.
fn site() -> &'static Path {
    static SITE: OnceLock<PathBuf> = OnceLock::new();
    SITE.get_or_init(|| {
        let out = Command::new("bash")
            .arg(manifest().join("web/build.sh"))
            .env("CARGO_TARGET_DIR", manifest().join("target/web-build"))
            // What the page does is under test, not its size: the quicker build (Cargo.toml, profile.web-test).
            .env("RIGSCOPE_WEB_PROFILE", "web-test")
            // ... and linted as web/check.sh lints it, in the same compile (web/toolchain.sh, web_lint): a
            // browser-only lint fails here, and CI needs no check build of its own for the page.
            .env("RIGSCOPE_WEB_LINT", "1")
            .output()
            .expect("running web/build.sh");
        assert!(
            out.status.success(),
            "web/build.sh failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        manifest().join("target/web")
    })
}

/// tests/web's node_modules, installed from its lock file on first use.
fn node_modules() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let dir = manifest().join("tests/web");
        if dir.join("node_modules/playwright-core/package.json").is_file() {
            return;
        }
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .output()
            .expect("npm (apt-get install nodejs npm)");
        assert!(out.status.success(), "npm ci in tests/web failed: {}", String::from_utf8_lossy(&out.stderr));
    });
}

/// Runs page.mjs with `backend` and returns its result.json and output folder. One browser at a time: two
/// software-rendered pages on two cores only slow each other down.
fn run_page(backend: &str) -> (Value, PathBuf) {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let site = site();
    node_modules();
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = manifest().join("target/web-tests").join(backend);
    let _ = std::fs::remove_dir_all(&out);
    let fixtures = fixtures();
    let run = Command::new("node")
        .arg(manifest().join("tests/web/page.mjs"))
        .args(["--site", &site.display().to_string()])
        .args(["--corpus", &common::corpus_dir().display().to_string()])
        .args(["--fixtures", &fixtures.display().to_string()])
        .args(["--out", &out.display().to_string(), "--backend", backend])
        .output()
        .expect("node (apt-get install nodejs)");
    let text = std::fs::read_to_string(out.join("result.json")).unwrap_or_else(|e| {
        panic!(
            "page.mjs wrote no result ({e}):\n{}\n{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        )
    });
    let result: Value = serde_json::from_str(&text).expect("result.json is JSON");
    assert!(
        run.status.success() && result.get("error").is_none_or(Value::is_null),
        "the page under {backend} failed: {}\n(pictures in {})",
        result["error"],
        out.display()
    );
    (result, out)
}

/// The ?open= step's site folder: the corpus's mrfixit with textures of the names it asks for beside it (the
/// corpus has none), a different colour each, so the page must fetch them from beside the model.
fn fixtures() -> PathBuf {
    let dir = manifest().join("target/web-tests/fixtures");
    let model = dir.join("mrfixit");
    std::fs::create_dir_all(&model).unwrap();
    write_copy("iqm/lsalzman_mrfixit.iqm", &model.join("lsalzman_mrfixit.iqm"));
    for (name, colour) in [("Body.tga", [200u8, 120, 40, 255]), ("Head.tga", [60, 140, 220, 255])] {
        let img = RgbaImage::from_fn(64, 64, |x, y| {
            if (x / 8 + y / 8) % 2 == 0 { image::Rgba(colour) } else { image::Rgba([240, 240, 240, 255]) }
        });
        img.save(model.join(name)).unwrap();
    }
    // The character, its texture and its dance in one archive, in folders as models are shared.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (inside, corpus) in [
        ("ミク/miku_v2.pmd", "mmd/threejs/miku/miku_v2.pmd"),
        ("ミク/EYEM2.BMP", "mmd/threejs/miku/eyeM2.bmp"),
        ("motion/wavefile_v2.vmd", "mmd/threejs/vmds/wavefile_v2.vmd"),
    ] {
        zip.start_file(inside, deflated).unwrap();
        std::io::Write::write_all(&mut zip, &std::fs::read(common::corpus(corpus)).unwrap()).unwrap();
    }
    std::fs::write(dir.join("miku.zip"), zip.finish().unwrap().into_inner()).unwrap();
    // The same as a folder on the disk, dropped as a whole.
    for (inside, corpus) in [
        ("dance/miku/miku_v2.pmd", "mmd/threejs/miku/miku_v2.pmd"),
        ("dance/miku/eyeM2.bmp", "mmd/threejs/miku/eyeM2.bmp"),
        ("dance/motion/wavefile_v2.vmd", "mmd/threejs/vmds/wavefile_v2.vmd"),
    ] {
        write_copy(corpus, &dir.join(inside));
    }
    // A model the page rewrites on the disk once dropped (with the replacement's bytes) to see it reloaded.
    write_copy("iqm/unv_rocket.iqe", &dir.join("reload/model.iqe"));
    write_copy("iqm/unv_medistat.iqe", &dir.join("reload/replacement.iqe"));
    dir
}

/// Writes the bytes of corpus file `corpus` to `to`, a new file the test may overwrite (a copy would keep the
/// corpus's read-only mode).
fn write_copy(corpus: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(to);
    std::fs::write(to, std::fs::read(common::corpus(corpus)).unwrap()).unwrap();
}

/// The vertex count of a corpus file as the desktop loads it.
fn vertices_of(corpus: &str) -> Value {
    let scene = rigscope::formats::load_path(&common::corpus(corpus)).expect("a corpus IQE loads");
    Value::from(scene.vertices.len())
}

fn picture(dir: &Path, name: &str) -> RgbaImage {
    image::open(dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display())).to_rgba8()
}

/// The 3D view's rectangle (CSS pixels, which are the screenshot's at the tests' device scale of 1) as
/// `status()` gave it.
fn view_rect(status: &Value) -> (u32, u32, u32, u32) {
    let v: Vec<f64> = status["view"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    (v[0].ceil() as u32, v[1].ceil() as u32, v[2].floor() as u32 - 1, v[3].floor() as u32 - 1)
}

fn crop(img: &RgbaImage, (x, y, w, h): (u32, u32, u32, u32)) -> RgbaImage {
    image::imageops::crop_imm(img, x, y, w, h).to_image()
}

/// The share of the view's pixels that aren't the background.
fn covered(view: &RgbaImage) -> f64 {
    let bg = view.get_pixel(2, 2).0;
    let off = view.pixels().filter(|p| (0..3).any(|k| p.0[k].abs_diff(bg[k]) > 24)).count();
    off as f64 / f64::from(view.width() * view.height())
}

fn notices(status: &Value) -> Vec<String> {
    status["notices"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect()
}

/// Everything the issue asks of the page, under one GPU path.
fn check_page(backend: &str, adapter_backend: &str) {
    let (result, out) = run_page(backend);
    let steps = &result["steps"];
    assert_eq!(result["console_errors"], serde_json::json!([]), "the console showed errors");

    // The demo, textured, on the GPU path asked for.
    let demo = &steps["demo_still"];
    assert_eq!(demo["backend"], adapter_backend, "{demo}");
    assert!(demo["gpu_error"].is_null(), "{demo}");
    assert_eq!((demo["textures"].as_u64(), demo["missing_textures"].as_u64()), (Some(1), Some(0)), "{demo}");
    // The whole page against one golden for both paths: the same picture is the point.
    check_golden("web_demo", &picture(&out, "demo.png"));

    // A click on the model picks.
    assert_eq!(steps["picked"]["picked"], true);

    // A malformed file: its error shown, the demo still there.
    let malformed = &steps["malformed"];
    assert_eq!(malformed["model"], "demo.iqm", "{malformed}");
    assert!(notices(malformed).iter().any(|n| n.starts_with("broken.pmx") && n.contains("expected")), "{malformed}");

    // The PMD dropped with its texture and the dance plays the dance by itself (nothing called play): playing at
    // both statuses, a second of frames apart, and the two pictures differ.
    let (a, b) = (&steps["drop_playing"], &steps["drop_played"]);
    assert!(a["playing"] == true && b["playing"] == true, "a drop with a motion plays it: {a} {b}");
    let (fa, fb) = (a["frame"].as_f64().unwrap_or(0.0), b["frame"].as_f64().unwrap_or(0.0));
    assert!(fb > fa + 5.0, "a second of the dance played: frame {fa} then {fb}");
    assert_eq!(result["drop_pictures_differ"], true, "two pictures a second apart differ");

    // Textured, and dancing (two frames differ where the model is, and only a small part of the view stays the
    // same).
    let dance = &steps["dance_a"];
    assert_eq!(dance["model"], "miku_v2.pmd", "{dance}");
    assert_eq!((dance["textures"].as_u64(), dance["missing_textures"].as_u64()), (Some(1), Some(0)), "{dance}");
    assert!(notices(dance).iter().any(|n| n.starts_with("wavefile_v2.vmd: attached")), "{dance}");
    let rect = view_rect(dance);
    let (a, b) = (crop(&picture(&out, "dance-a.png"), rect), crop(&picture(&out, "dance-b.png"), rect));
    let moved = Difference::of(&a, &b).bad_pixels as f64 / f64::from(a.width() * a.height());
    assert!(covered(&a) > 0.01 && covered(&b) > 0.01, "the character is drawn: {} {}", covered(&a), covered(&b));
    assert!(moved > 0.005, "frames 120 and 400 differ in {:.2}% of the view", moved * 100.0);

    // The same as one .zip, its texture named in other case in a folder beside the model.
    let zipped = &steps["zip"];
    assert_eq!((zipped["textures"].as_u64(), zipped["missing_textures"].as_u64()), (Some(1), Some(0)), "{zipped}");
    assert!(notices(zipped).iter().any(|n| n.starts_with("motion/wavefile_v2.vmd: attached")), "{zipped}");

    // A folder dropped from the disk: walked, the model opened with its texture, the dance from the folder
    // beside it attached.
    let folder = &steps["folder"];
    assert_eq!((folder["textures"].as_u64(), folder["missing_textures"].as_u64()), (Some(1), Some(0)), "{folder}");
    assert!(notices(folder).iter().any(|n| n.starts_with("dance/motion/wavefile_v2.vmd: attached")), "{folder}");

    // A file dropped from the disk and written again there is reloaded (polled through its handle).
    let (before, after) = (&steps["reload_before"], &steps["reload_after"]);
    assert_eq!(before["vertices"], vertices_of("iqm/unv_rocket.iqe"), "{before}");
    assert_eq!(after["vertices"], vertices_of("iqm/unv_medistat.iqe"), "{after}");
    assert_eq!(after["documents"], before["documents"], "reloaded in place, not opened again: {after}");

    // An IQM opened through ?open=.
    let opened = &steps["open_url_still"];
    assert_eq!(opened["model"], "lsalzman_mrfixit.iqm", "{opened}");
    assert_eq!((opened["textures"].as_u64(), opened["missing_textures"].as_u64()), (Some(2), Some(0)), "{opened}");
    let iqm = crop(&picture(&out, "iqm.png"), view_rect(opened));
    assert!(covered(&iqm) > 0.03, "the IQM covers {:.2}% of the view", covered(&iqm) * 100.0);

    // An RSM opened through ?open=, its texture found in the data tree beside it.
    let rsm = &steps["open_rsm"];
    assert_eq!((rsm["textures"].as_u64(), rsm["missing_textures"].as_u64()), (Some(1), Some(0)), "{rsm}");

    // A VRM avatar and a VRMA motion dropped together: the motion attached through the humanoid, the avatar's
    // embedded textures found, and drawn.
    let vrm = &steps["vrm_still"];
    assert_eq!(vrm["model"], "avatar.vrm", "{vrm}");
    assert!(vrm["textures"].as_u64() >= Some(3) && vrm["missing_textures"] == 0, "{vrm}");
    assert!(
        notices(vrm).iter().any(|n| n.starts_with("test.vrma: attached") && n.contains("through the humanoid")),
        "{vrm}"
    );
    let avatar = crop(&picture(&out, "vrm.png"), view_rect(vrm));
    assert!(covered(&avatar) > 0.01, "the avatar covers {:.2}% of the view", covered(&avatar) * 100.0);

    eprintln!(
        "{backend}: navigation to the demo's first frame {} ms; the dance played at {} frames/s",
        result["navigation_to_first_frame_ms"], result["dance_frames_per_second"]
    );
}

/// The page's CJK font, cut to the characters model names use (web/build.sh), draws every character of the
/// corpus's MMD names (bones, morphs, materials, in both languages) that the whole font draws.
#[test]
fn the_page_font_draws_every_corpus_name_the_whole_font_draws() {
    let cut = std::fs::read(site().join("fonts/cjk-fallback.ttf")).expect("web/build.sh writes the page's CJK font");
    let whole = std::fs::read("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
        .expect("Droid Sans Fallback (apt-get install fonts-droid-fallback)");
    let mut chars = std::collections::BTreeSet::new();
    for file in common::corpus_files("mmd", &["pmx", "pmd"]) {
        let Ok(scene) = rigscope::formats::load_path(&file) else { continue };
        let names = scene.skeleton.joints.iter().map(|j| &j.name);
        let names = names.chain(scene.morphs.iter().flat_map(|m| [&m.name, &m.name_en]));
        chars.extend(names.chain(scene.materials.iter().map(|m| &m.name)).flat_map(|n| n.chars()));
    }
    let drawn_by = |font: Vec<u8>| -> std::collections::BTreeSet<char> {
        let ctx = egui::Context::default();
        let mut fonts = egui::FontDefinitions::empty();
        fonts.font_data.insert("cjk".into(), std::sync::Arc::new(egui::FontData::from_owned(font)));
        fonts.families.insert(egui::FontFamily::Proportional, vec!["cjk".into()]);
        ctx.set_fonts(fonts);
        // A frame loads the fonts; its font atlas upload has no GPU to go to.
        ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear();
        let id = egui::FontId::proportional(14.0);
        ctx.fonts_mut(|f| chars.iter().copied().filter(|&c| !c.is_ascii() && f.has_glyph(&id, c)).collect())
    };
    let (by_whole, by_cut) = (drawn_by(whole), drawn_by(cut));
    // The names read, and the whole font draws them: kanji and kana of the character's bone and morph names.
    assert!("左足首まばたき".chars().all(|c| by_whole.contains(&c)), "{} characters: {by_whole:?}", by_whole.len());
    let lost: String = by_whole.difference(&by_cut).collect();
    assert!(lost.is_empty(), "the cut font lacks {} character(s) the whole font draws: {lost}", lost.chars().count());
}

#[test]
fn the_page_under_webgpu() {
    check_page("webgpu", "BrowserWebGpu");
}

#[test]
fn the_page_under_webgl2() {
    check_page("webgl", "Gl");
}

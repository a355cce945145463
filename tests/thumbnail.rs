//! `rigscope thumbnail`: a square picture of the model on a transparent background, for the freedesktop
//! thumbnailer in assets/ (whose MIME types the shipped shared-mime-info file declares); files with nothing to
//! draw are refused. Needs a GPU adapter (lavapipe on CI).

use std::process::Command;

mod common;
use common::corpus;

fn thumbnail(file: &str, out: &std::path::Path, size: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["thumbnail", file, out.to_str().unwrap(), "--size", size])
        .output()
        .unwrap()
}

#[test]
fn a_thumbnail_is_the_model_framed_on_transparency() {
    let dir = common::Scratch::new("thumbnail");
    for (file, name) in [
        (concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo.iqm").to_string(), "demo"),
        (corpus("mmd/threejs/miku/miku_v2.pmd").display().to_string(), "miku"),
    ] {
        let out = dir.join(format!("{name}.png"));
        let o = thumbnail(&file, &out, "96");
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let img = image::open(&out).unwrap().to_rgba8();
        assert_eq!(img.dimensions(), (96, 96), "{name}");
        for (x, y) in [(0, 0), (95, 0), (0, 95), (95, 95)] {
            assert_eq!(img.get_pixel(x, y).0[3], 0, "{name}: corner ({x}, {y}) is transparent");
        }
        let opaque = img.pixels().filter(|p| p.0[3] == 255).count();
        assert!(opaque > 96 * 96 / 20, "{name}: the model fills the picture ({opaque} opaque pixels)");
        // Framed: something is drawn in the middle column's upper and lower thirds.
        let column = |y0: u32, y1: u32| (y0..y1).any(|y| (40..56).any(|x| img.get_pixel(x, y).0[3] > 0));
        assert!(column(10, 40) && column(56, 86), "{name}: the model spans the picture's height");
    }
    // A camera-only motion has nothing to draw.
    let out = dir.join("camera.png");
    let o = thumbnail(&corpus("mmd/threejs/vmds/wavefile_camera.vmd").display().to_string(), &out, "64");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing to draw"));
    assert!(!out.exists());
}

/// Files with bones but no triangles (a rig, an animation) show their skeleton, posed at the middle of the
/// first clip and framed, in thumbnails and renders, instead of nothing.
#[test]
fn bones_without_a_mesh_draw_their_skeleton() {
    let dir = common::Scratch::new("thumbnail-bones");
    for (name, rel) in [("rig", "mmd/yohawing/test_basic_bone.pmx"), ("anim", "iqm/raylib_guyanim.iqm")] {
        let out = dir.join(format!("{name}.png"));
        let o = thumbnail(&corpus(rel).display().to_string(), &out, "96");
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let img = image::open(&out).unwrap().to_rgba8();
        let drawn = img.pixels().filter(|p| p.0[3] > 0).count();
        assert!(drawn > 40, "{name}: {drawn} pixels of bones");
        // Framed: the bones reach into both the upper and the lower half.
        let rows: Vec<u32> = (0..96).filter(|&y| (0..96).any(|x| img.get_pixel(x, y).0[3] > 0)).collect();
        assert!(rows.first().is_some_and(|&y| y < 40) && rows.last().is_some_and(|&y| y > 56), "{name}: rows {rows:?}");
    }
    // At a file manager's size the bones are at least 2 px wide (issue 39): a 2×2 block fits inside most of a
    // bone, which no one-pixel line allows (its blocks survive only where two lines cross).
    let out = dir.join("anim256.png");
    let o = thumbnail(&corpus("iqm/raylib_guyanim.iqm").display().to_string(), &out, "256");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&out).unwrap().to_rgba8();
    let solid = |x: u32, y: u32| img.get_pixel(x, y).0[3] == 255;
    let solid_pixels = img.enumerate_pixels().filter(|(x, y, _)| solid(*x, *y)).count();
    let blocks = (0..255u32)
        .flat_map(|y| (0..255u32).map(move |x| (x, y)))
        .filter(|&(x, y)| solid(x, y) && solid(x + 1, y) && solid(x, y + 1) && solid(x + 1, y + 1))
        .count();
    assert!(solid_pixels > 300, "{solid_pixels} solid pixels of bones");
    assert!(blocks * 4 > solid_pixels, "bones 2 px wide: {blocks} solid 2×2 blocks in {solid_pixels} solid pixels");
    // `render` of an animation file: its skeleton on the background, not an empty picture.
    let out = dir.join("render.png");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["render", &corpus("iqm/raylib_guyanim.iqm").display().to_string(), "--size", "160x120", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&out).unwrap().to_rgba8();
    let background = *img.get_pixel(0, 0);
    let drawn = img.pixels().filter(|p| **p != background).count();
    assert!(drawn > 40, "{drawn} pixels differ from the background");
}

#[test]
fn the_thumbnailer_entry_calls_the_command_for_the_declared_types() {
    let root = env!("CARGO_MANIFEST_DIR");
    let entry = std::fs::read_to_string(format!("{root}/assets/rigscope.thumbnailer")).unwrap();
    let mime = std::fs::read_to_string(format!("{root}/assets/rigscope-mime.xml")).unwrap();
    assert!(entry.starts_with("[Thumbnailer Entry]\n"));
    assert!(entry.contains("\nExec=rigscope thumbnail %i %o --size %s\n"));
    let types = entry.lines().find_map(|l| l.strip_prefix("MimeType=")).unwrap();
    let types: Vec<&str> = types.split(';').filter(|t| !t.is_empty()).collect();
    assert_eq!(types.len(), 5);
    for t in types {
        assert!(mime.contains(&format!("<mime-type type=\"{t}\">")), "{t} is declared in rigscope-mime.xml");
    }
}

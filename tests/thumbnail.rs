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
    let dir = std::env::temp_dir().join(format!("rigscope-thumbnail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    // A skeleton-only PMX has nothing to draw.
    let out = dir.join("bones.png");
    let o = thumbnail(&corpus("mmd/yohawing/test_basic_bone.pmx").display().to_string(), &out, "64");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing to draw"));
    assert!(!out.exists());
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

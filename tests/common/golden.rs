//! Golden pictures in tests/golden/, compared with a tolerance (drivers may differ in the last bit of a
//! rasterised edge): at most 0.25% of pixels may differ by more than 32 in any channel, and the mean difference
//! must stay under 1.0 per channel. A failure writes the actual picture and a diff under
//! target/golden-failures/. `RIGSCOPE_BLESS=1` writes the actual pictures as the new goldens.

use std::path::PathBuf;

use image::{Rgba, RgbaImage};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compares `actual` with tests/golden/NAME.png (or writes it, with RIGSCOPE_BLESS=1).
pub fn check_golden(name: &str, actual: &RgbaImage) {
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

pub struct Difference {
    pub bad_pixels: u64,
    /// Mean absolute difference per channel, 0..255.
    pub mean: f64,
    /// The expected picture dimmed to grey, with differing pixels in red (brighter = larger).
    pub image: RgbaImage,
}

impl Difference {
    pub fn of(expected: &RgbaImage, actual: &RgbaImage) -> Difference {
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

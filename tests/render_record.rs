//! `render --gif` and `--apng`: a clip recorded as an animated picture has one frame per instant asked for, the
//! delays of its frame rate, and frames equal to `render --frame` pictures of the same instants (exactly for
//! the lossless APNG, within the palette's error for GIF). Needs a GPU adapter (lavapipe on CI).

mod common;

use std::path::Path;
use std::process::Command;

fn demo() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo.iqm").to_string()
}

fn rigscope(args: &[&str]) -> std::process::Output {
    let o = Command::new(env!("CARGO_BIN_EXE_rigscope")).args(args).output().unwrap();
    assert!(o.status.success(), "rigscope {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// `render --frame F --framing clip` of the demo's "wave" clip at 96 × 72 (the camera a recording keeps), written
/// in `dir`.
fn still(dir: &Path, frame: f32) -> image::RgbaImage {
    let path = dir.join(format!("still-{frame}.png"));
    let f = frame.to_string();
    // Framed on the clip, as a recording is (a still frames its own pose by default).
    let out = path.to_str().unwrap();
    rigscope(&["render", &demo(), "--anim", "wave", "--frame", &f, "--framing", "clip", "--size", "96x72", "-o", out]);
    image::open(&path).unwrap().to_rgba8()
}

fn record(flag: &str, path: &Path, extra: &[&str]) {
    let demo = demo();
    let mut args = vec!["render", &demo, "--anim", "wave", "--size", "96x72", flag, path.to_str().unwrap()];
    args.extend_from_slice(extra);
    rigscope(&args);
}

#[test]
fn an_apng_holds_every_frame_asked_for_exactly_as_render_draws_it() {
    let dir = common::Scratch::new("record-apng");
    let path = dir.join("wave.png");
    // Frames 4, 8, 12, 16 of the 24 fps clip at 6 pictures per second.
    record("--apng", &path, &["--from", "4", "--to", "16", "--fps", "6"]);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let control = reader.info().animation_control.expect("an animated PNG");
    assert_eq!((control.num_frames, control.num_plays), (4, 0), "four frames, looping");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    for (k, frame) in [4.0, 8.0, 12.0, 16.0].into_iter().enumerate() {
        let info = reader.next_frame(&mut buf).unwrap();
        let fc = reader.info().frame_control.expect("a frame control per frame");
        assert_eq!((fc.delay_num, fc.delay_den), (1, 6), "frame {k}: a sixth of a second");
        let got = image::RgbaImage::from_raw(info.width, info.height, buf[..info.buffer_size()].to_vec()).unwrap();
        assert!(got == still(&dir, frame), "picture {k} is render --frame {frame}");
    }
}

#[test]
fn a_gif_holds_the_clip_at_its_rate_with_delays_that_keep_time() {
    let dir = common::Scratch::new("record-gif");
    let path = dir.join("wave.gif");
    record("--gif", &path, &[]);
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(&path).unwrap()).unwrap();
    let (mut delays, mut first) = (Vec::new(), None);
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(u32::from(frame.delay));
        if first.is_none() {
            first = Some(image::RgbaImage::from_raw(96, 72, frame.buffer.to_vec()).unwrap());
        }
    }
    // The wave clip: 36 frames at 24 fps, recorded whole at its own rate.
    assert_eq!(delays.len(), 36);
    assert!(delays.iter().all(|&d| d == 4 || d == 5), "{delays:?}");
    assert_eq!(delays.iter().sum::<u32>(), 150, "36 frames at 24 fps take 1.5 s");
    // The palette costs a little colour; the picture is frame 0's.
    let (gif, png) = (first.unwrap(), still(&dir, 0.0));
    let diff: f64 = gif.as_raw().iter().zip(png.as_raw()).map(|(a, b)| f64::from(a.abs_diff(*b))).sum::<f64>()
        / gif.as_raw().len() as f64;
    assert!(diff < 3.0, "mean difference {diff} per channel from render --frame 0");
}

#[test]
fn bad_recording_requests_are_usage_errors() {
    let dir = common::Scratch::new("record-bad");
    let path = dir.join("bad.gif");
    for extra in [&["--from", "10", "--to", "5"][..], &["--fps", "0"], &["--frame", "3"]] {
        let mut args = vec!["render".to_string(), demo(), "--gif".into(), path.display().to_string()];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = Command::new(env!("CARGO_BIN_EXE_rigscope")).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(!path.exists(), "nothing written");
}

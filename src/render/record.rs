//! Recording a clip as an animated picture (`render --gif`, `--apng`): which instants of the clip a recording
//! shows, and streaming GIF and APNG encoders that take the rendered frames one at a time, so a long clip never
//! sits in memory whole. Pure Rust: the gif crate (NeuQuant palettes per frame) and the png crate's APNG.

use std::io::Write;

use image::RgbaImage;

use crate::scene::Clip;

/// The clip frames (fractional, the clip's own) a recording of `clip` from frame `from` to frame `to` (both
/// included; default: the whole clip) shows at `fps` pictures per second (default: the clip's rate): one picture
/// every 1/fps seconds of clip time, starting at `from`.
pub fn frames(
    clip: &Clip,
    default_fps: f32,
    from: Option<f32>,
    to: Option<f32>,
    fps: Option<f32>,
) -> Result<Vec<f32>, String> {
    let clip_fps = clip.fps(default_fps);
    let fps = fps.unwrap_or(clip_fps);
    if !(fps.is_finite() && fps > 0.0 && fps <= 100.0) {
        return Err(format!("--fps {fps}: expected a rate above 0 and at most 100 pictures per second"));
    }
    // The last stored frame (a looping clip's frame_count would be its first again).
    let last = (clip.frame_count as f32 - 1.0).max(0.0);
    let (from, to) = (from.unwrap_or(0.0), to.unwrap_or(last));
    if !(from.is_finite() && to.is_finite() && from >= 0.0 && from <= to) {
        return Err(format!("--from {from} --to {to}: expected 0 ≤ from ≤ to"));
    }
    // Pictures at from + k·(clip_fps / fps) clip frames, up to `to` (within rounding).
    let step = clip_fps / fps;
    let count = ((to - from) / step + 1e-3).floor() as usize + 1;
    const MAX_PICTURES: usize = 10_000;
    if count > MAX_PICTURES {
        return Err(format!("{count} pictures: at most {MAX_PICTURES}; lower --fps or shorten --from/--to"));
    }
    Ok((0..count).map(|k| from + k as f32 * step).collect())
}

/// An animated picture being written, one frame at a time.
pub enum Recorder<W: Write> {
    Gif { encoder: gif::Encoder<W>, fps: f32, written: usize },
    Apng { writer: png::Writer<W> },
}

/// The two animated formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnimatedFormat {
    Gif,
    Apng,
}

impl<W: Write> Recorder<W> {
    /// Starts a `format` picture of `count` frames of `size` at `fps` into `out`, looping forever.
    pub fn new(format: AnimatedFormat, out: W, size: (u32, u32), count: usize, fps: f32) -> Result<Self, String> {
        match format {
            AnimatedFormat::Gif => {
                let (w, h) = (u16::try_from(size.0), u16::try_from(size.1));
                let (Ok(w), Ok(h)) = (w, h) else { return Err("a GIF is at most 65535 pixels wide and high".into()) };
                let mut encoder = gif::Encoder::new(out, w, h, &[]).map_err(|e| e.to_string())?;
                encoder.set_repeat(gif::Repeat::Infinite).map_err(|e| e.to_string())?;
                Ok(Recorder::Gif { encoder, fps, written: 0 })
            }
            AnimatedFormat::Apng => {
                let mut encoder = png::Encoder::new(out, size.0, size.1);
                encoder.set_color(png::ColorType::Rgba);
                encoder.set_depth(png::BitDepth::Eight);
                let frames = u32::try_from(count).map_err(|_| "too many frames".to_string())?;
                encoder.set_animated(frames, 0).map_err(|e| e.to_string())?;
                let (num, den) = apng_delay(fps);
                encoder.set_frame_delay(num, den).map_err(|e| e.to_string())?;
                Ok(Recorder::Apng { writer: encoder.write_header().map_err(|e| e.to_string())? })
            }
        }
    }

    /// Appends one frame (sRGB RGBA, rows top first, the recorder's size).
    pub fn push(&mut self, frame: &RgbaImage) -> Result<(), String> {
        match self {
            Recorder::Gif { encoder, fps, written } => {
                let (w, h) = (frame.width() as u16, frame.height() as u16);
                let mut pixels = frame.as_raw().clone();
                // Speed 10: NeuQuant's usual trade; transparent texels (alpha 0) become the transparent index.
                let mut f = gif::Frame::from_rgba_speed(w, h, &mut pixels, 10);
                f.delay = gif_delay(*written, *fps);
                f.dispose = gif::DisposalMethod::Background;
                encoder.write_frame(&f).map_err(|e| e.to_string())?;
                *written += 1;
                Ok(())
            }
            Recorder::Apng { writer } => writer.write_image_data(frame.as_raw()).map_err(|e| e.to_string()),
        }
    }

    /// Finishes the file.
    pub fn finish(self) -> Result<(), String> {
        match self {
            Recorder::Gif { encoder, .. } => encoder.into_inner().map(drop).map_err(|e| e.to_string()),
            Recorder::Apng { writer } => writer.finish().map_err(|e| e.to_string()),
        }
    }
}

/// GIF frame `k`'s delay in hundredths of a second at `fps`: the rounding error is carried from frame to frame,
/// so the frames land on their times (30 fps: 3, 4, 3, 3, 4, 3 …, 100 hundredths every 30 frames).
pub fn gif_delay(k: usize, fps: f32) -> u16 {
    let at = |k: usize| (k as f64 * 100.0 / f64::from(fps)).round();
    (at(k + 1) - at(k)).clamp(1.0, f64::from(u16::MAX)) as u16
}

/// An APNG frame delay as a fraction of a second: exact for whole rates, to a thousandth otherwise.
pub fn apng_delay(fps: f32) -> (u16, u16) {
    if fps.fract() == 0.0 && fps >= 1.0 && fps <= f32::from(u16::MAX) {
        (1, fps as u16)
    } else {
        (1000, (fps * 1000.0).round().clamp(1.0, f32::from(u16::MAX)) as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{ClipData, Transform};

    fn clip(frames: u32, fps: f32) -> Clip {
        Clip::new("c", fps, false, frames, ClipData::Sampled { joints: 1, frames: vec![Transform::IDENTITY; 10] })
    }

    #[test]
    fn a_recording_steps_through_the_clip_at_the_asked_rate() {
        let c = clip(10, 30.0);
        assert_eq!(frames(&c, 24.0, None, None, None).unwrap(), (0..10).map(|f| f as f32).collect::<Vec<_>>());
        assert_eq!(frames(&c, 24.0, Some(2.0), Some(6.0), Some(15.0)).unwrap(), [2.0, 4.0, 6.0]);
        assert_eq!(frames(&c, 24.0, Some(3.0), Some(3.0), None).unwrap(), [3.0]);
        assert!(frames(&c, 24.0, Some(5.0), Some(4.0), None).is_err());
        assert!(frames(&c, 24.0, None, None, Some(0.0)).is_err());
    }

    #[test]
    fn gif_delays_keep_time_and_apng_delays_are_exact() {
        let delays: Vec<u16> = (0..30).map(|k| gif_delay(k, 30.0)).collect();
        assert_eq!(delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 100, "30 frames at 30 fps last a second");
        assert!(delays.iter().all(|&d| d == 3 || d == 4));
        assert_eq!(gif_delay(0, 25.0), 4);
        assert_eq!(apng_delay(30.0), (1, 30));
        assert_eq!(apng_delay(29.97), (1000, 29970));
    }
}

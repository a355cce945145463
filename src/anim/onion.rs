//! Onion skin: the poses of the frames around the current one, as ghosts for the renderer. The window (through
//! the app) and `render --onion` sample them here, so both show the same frames.

use glam::Mat4;

use super::Pose;
use crate::scene::{Clip, Skeleton};

/// The most frames each side of the current one that the onion skin shows.
pub const MAX_ONION_FRAMES: u32 = 10;

/// The most frames between two ghosts.
pub const MAX_ONION_STEP: u32 = 30;

/// Which frames the onion skin shows: `ghosts` each side of the current one, `step` frames apart (1: the
/// frames next to it; 5: every fifth, to see a slow motion's arc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnionSpacing {
    pub ghosts: u32,
    pub step: u32,
}

/// One onion-skin ghost: a pose's skinning palette and the colour it is drawn in (linear RGBA, alpha < 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Ghost {
    pub palette: Vec<Mat4>,
    pub color: [f32; 4],
}

/// Ghosts `spacing` asks for before and after `frame` of `clip`, nearest first on each side: earlier frames
/// reddish, later ones greenish, each fainter the farther it is. Frames wrap on a looping clip and stop at
/// its ends otherwise (a frame past the end is left out, not drawn again at the end); the ghosts each side are
/// capped at [`MAX_ONION_FRAMES`], the step at [`MAX_ONION_STEP`]. `default_fps` is [`Clip::fps`]'s.
pub fn onion_ghosts(
    skeleton: &Skeleton,
    clip: &Clip,
    frame: f32,
    spacing: OnionSpacing,
    default_fps: f32,
) -> Vec<Ghost> {
    let n = spacing.ghosts;
    ghost_frames(clip, frame, n, spacing.step)
        .into_iter()
        .map(|(f, k)| {
            let fade = 1.0 - (k.unsigned_abs() as f32 - 1.0) / n.max(1) as f32;
            let alpha = 0.15 + 0.3 * fade;
            let color = if k < 0 { [1.0, 0.25, 0.2, alpha] } else { [0.25, 1.0, 0.35, alpha] };
            Ghost { palette: Pose::sample(skeleton, clip, f, default_fps).palette, color }
        })
        .collect()
}

/// The frames the ghosts show, each with its index k (−n..=n, never 0; the ghost is `k × step` frames from
/// `frame`): wrapped into the playback span of a looping clip, left out past either end of a clamped one.
fn ghost_frames(clip: &Clip, frame: f32, n: u32, step: u32) -> Vec<(f32, i32)> {
    let span = clip.frame_span();
    if span <= 0.0 || !frame.is_finite() {
        return Vec::new();
    }
    let n = n.min(MAX_ONION_FRAMES) as i32;
    let step = step.clamp(1, MAX_ONION_STEP) as f32;
    let mut out = Vec::new();
    for k in (1..=n).flat_map(|k| [-k, k]) {
        let f = frame + k as f32 * step;
        if clip.looping {
            let f = f.rem_euclid(span);
            // A ghost that lands back on the current frame (a clip shorter than 2n) adds nothing.
            if (f - frame).abs() > 1e-4 {
                out.push((f, k));
            }
        } else if (0.0..=span).contains(&f) {
            out.push((f, k));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::ClipData;

    fn clip(looping: bool, frames: u32) -> Clip {
        Clip::new("c", 10.0, looping, frames, ClipData::Keyed { tracks: vec![] })
    }

    #[test]
    fn frames_wrap_on_looping_clips_and_stop_at_the_ends_of_clamped_ones() {
        assert_eq!(ghost_frames(&clip(true, 10), 0.5, 2, 1), vec![(9.5, -1), (1.5, 1), (8.5, -2), (2.5, 2)]);
        assert_eq!(ghost_frames(&clip(false, 10), 0.5, 2, 1), vec![(1.5, 1), (2.5, 2)]);
        assert_eq!(ghost_frames(&clip(false, 10), 8.0, 2, 1), vec![(7.0, -1), (9.0, 1), (6.0, -2)]);
        // Three frames looping: ±3 come back to the current frame.
        assert_eq!(ghost_frames(&clip(true, 3), 1.0, 3, 1).len(), 4);
        assert!(ghost_frames(&clip(false, 1), 0.0, 3, 1).is_empty());
        // Every fifth frame, two each side, stopping at the start of a clamped clip.
        assert_eq!(ghost_frames(&clip(false, 30), 7.0, 2, 5), vec![(2.0, -1), (12.0, 1), (17.0, 2)]);
    }

    #[test]
    fn earlier_ghosts_are_red_later_green_and_farther_ones_fainter() {
        let skeleton = Skeleton::default();
        let g = onion_ghosts(&skeleton, &clip(true, 20), 10.0, OnionSpacing { ghosts: 3, step: 1 }, 30.0);
        assert_eq!(g.len(), 6);
        let (before, after) = (&g[0].color, &g[1].color);
        assert!(before[0] > before[1] && after[1] > after[0], "{before:?} {after:?}");
        assert!(g[0].color[3] > g[2].color[3] && g[2].color[3] > g[4].color[3]);
        assert!(g.iter().all(|g| g.color[3] > 0.0 && g.color[3] < 1.0));
    }
}

//! Playback state: which clip, where in it, how fast, and whether it runs. Pure logic, no UI: the timeline,
//! the playback buttons, the keyboard shortcuts and [`crate::app::App::update`] all move it through these methods.

use crate::scene::{Clip, DEFAULT_FPS};

/// Where playback is. Time is kept inside the clip's playback length: wrapped for a looping clip, clamped
/// otherwise (the rules of [`Clip::frame_at_time`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// The clip being shown; `None` shows the bind pose.
    pub clip: Option<usize>,
    /// Seconds from the clip's start.
    pub time: f32,
    pub playing: bool,
    /// Playback speed, 1 = the clip's own frame rate.
    pub speed: f32,
    /// Plays from the end toward the start (Shift+Space).
    pub backwards: bool,
    /// The loop range (first and last frame, first < last), set on the timeline's ruler: playback stays inside
    /// it, wrapping at either end, whether or not the clip loops. `None`: the whole clip, as it says.
    pub range: Option<(f32, f32)>,
}

impl Default for Player {
    fn default() -> Self {
        Player { clip: None, time: 0.0, playing: false, speed: 1.0, backwards: false, range: None }
    }
}

/// How close to a whole frame counts as on it, so stepping from 2.9999 goes to 4, not 3.
const FRAME_SNAP: f32 = 1e-3;

impl Player {
    /// Shows `clip` from its start, paused (a loop range belongs to the clip it was set on, so it goes).
    pub fn select(&mut self, clip: Option<usize>) {
        self.clip = clip;
        self.time = 0.0;
        self.playing = false;
        self.backwards = false;
        self.range = None;
    }

    /// Sets the loop range to frames `a`..`b` (either order), within the clip; one shorter than a frame, or
    /// `None`, clears it. Playing outside the new range goes on from its start.
    pub fn set_range(&mut self, clip: &Clip, range: Option<(f32, f32)>) {
        let span = clip.frame_span();
        self.range = range
            .filter(|(a, b)| a.is_finite() && b.is_finite())
            .map(|(a, b)| (a.min(b).clamp(0.0, span), a.max(b).clamp(0.0, span)))
            .filter(|(a, b)| b - a >= 1.0);
        if self.playing {
            self.enter_range(clip);
        }
    }

    /// Outside the loop range, to its start (its end when playing backwards).
    fn enter_range(&mut self, clip: &Clip) {
        let Some((a, b)) = self.range else { return };
        let f = self.frame(clip);
        if f < a - FRAME_SNAP || f > b + FRAME_SNAP {
            self.set_frame(clip, if self.backwards { b } else { a });
        }
    }

    /// The (fractional) frame shown, within the clip.
    pub fn frame(&self, clip: &Clip) -> f32 {
        clip.frame_at_time(self.time, DEFAULT_FPS)
    }

    /// Moves to `frame` (wrapped or clamped).
    pub fn set_frame(&mut self, clip: &Clip, frame: f32) {
        self.time = if frame.is_finite() { frame / clip.fps(DEFAULT_FPS) } else { 0.0 };
        self.normalize(clip);
    }

    /// Brings `time` back inside the clip's playback length.
    pub fn normalize(&mut self, clip: &Clip) {
        self.time = clip.frame_at_time(self.time, DEFAULT_FPS) / clip.fps(DEFAULT_FPS);
    }

    /// One whole frame forward (`delta > 0`) or back, from the frame shown; pauses.
    pub fn step(&mut self, clip: &Clip, delta: i32) {
        let f = self.frame(clip);
        let f = if (f - f.round()).abs() < FRAME_SNAP { f.round() } else { f };
        let target = if delta > 0 { f.floor() + delta as f32 } else { f.ceil() + delta as f32 };
        self.playing = false;
        self.set_frame(clip, target);
    }

    /// To the first of `keys` (sorted clip frames) after the frame shown (`delta > 0`), or the last before it;
    /// pauses, and stays where it is when there is none that way. Keys within [`FRAME_SNAP`] of the frame
    /// count as it, as [`Player::step`] counts whole frames.
    pub fn step_to_key(&mut self, clip: &Clip, keys: &[f32], delta: i32) {
        let f = self.frame(clip);
        let target = if delta > 0 {
            keys.iter().copied().find(|&k| k > f + FRAME_SNAP)
        } else {
            keys.iter().rev().copied().find(|&k| k < f - FRAME_SNAP)
        };
        self.playing = false;
        if let Some(t) = target {
            self.set_frame(clip, t);
        }
    }

    pub fn jump_start(&mut self, clip: &Clip) {
        self.playing = false;
        self.set_frame(clip, 0.0);
    }

    /// The last stored frame (a looping clip's playback runs on to blend back into the first, but that isn't a
    /// frame of its own).
    pub fn jump_end(&mut self, clip: &Clip) {
        self.playing = false;
        self.set_frame(clip, (clip.frame_count as f32 - 1.0).max(0.0));
    }

    /// Starts playing forwards (`backwards` false) or backwards, or pauses when it already plays that way. A
    /// clamped clip at the end it would run into starts again from the other.
    pub fn toggle(&mut self, clip: &Clip, backwards: bool) {
        if self.playing && self.backwards == backwards {
            self.playing = false;
            return;
        }
        let f = self.frame(clip);
        if !clip.looping {
            if !backwards && f >= clip.frame_span() {
                self.set_frame(clip, 0.0);
            } else if backwards && f <= 0.0 {
                self.set_frame(clip, clip.frame_span());
            }
        }
        self.backwards = backwards;
        self.playing = true;
        self.enter_range(clip);
    }

    /// Advances by `dt` seconds of wall time when playing. A clamped clip stops at its end (or start, played
    /// backwards). Returns true when the frame moved.
    pub fn advance(&mut self, clip: &Clip, dt: f32) -> bool {
        if !self.playing || !dt.is_finite() {
            return false;
        }
        let fps = clip.fps(DEFAULT_FPS);
        let span = clip.frame_span();
        let before = self.time;
        let next = self.time + dt * if self.backwards { -self.speed } else { self.speed };
        if let Some((a, b)) = self.range {
            // Inside the range, wrapping at either end (a range is at least a frame long).
            let f = next * fps;
            let f = if (a..=b).contains(&f) { f } else { a + (f - a).rem_euclid(b - a) };
            self.set_frame(clip, f);
            return self.time != before;
        }
        if !clip.looping && (next * fps >= span || next < 0.0) {
            self.playing = false;
        }
        self.time = next;
        self.normalize(clip);
        self.time != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::ClipData;

    fn clip(looping: bool, frames: u32, fps: f32) -> Clip {
        Clip::new("c", fps, looping, frames, ClipData::Keyed { tracks: vec![] })
    }

    #[test]
    fn steps_wrap_on_looping_clips_and_clamp_otherwise() {
        let l = clip(true, 10, 10.0);
        let mut p = Player { clip: Some(0), ..Player::default() };
        p.step(&l, -1);
        assert!((p.frame(&l) - 9.0).abs() < 1e-4);
        p.step(&l, 1);
        assert!(p.frame(&l).abs() < 1e-4, "{}", p.frame(&l));
        let c = clip(false, 10, 10.0);
        p.select(Some(0));
        p.step(&c, -1);
        assert_eq!(p.frame(&c), 0.0);
        p.jump_end(&c);
        p.step(&c, 1);
        assert!((p.frame(&c) - 9.0).abs() < 1e-4);
        p.set_frame(&c, 2.5);
        p.step(&c, 1);
        assert!((p.frame(&c) - 3.0).abs() < 1e-4);
    }

    #[test]
    fn playing_advances_wraps_and_stops_at_a_clamped_end() {
        let l = clip(true, 10, 10.0);
        let mut p = Player { clip: Some(0), ..Player::default() };
        assert!(!p.advance(&l, 0.5), "paused: nothing moves");
        p.playing = true;
        assert!(p.advance(&l, 0.5));
        assert!((p.frame(&l) - 5.0).abs() < 1e-4);
        p.advance(&l, 0.7);
        assert!((p.frame(&l) - 2.0).abs() < 1e-3, "{}", p.frame(&l));
        let c = clip(false, 10, 0.0); // default 24 fps
        p.select(Some(0));
        p.playing = true;
        p.speed = 2.0;
        p.advance(&c, 0.1);
        assert!((p.frame(&c) - 4.8).abs() < 1e-3);
        p.advance(&c, 10.0);
        assert_eq!(p.frame(&c), 9.0);
        assert!(!p.playing);
    }

    #[test]
    fn a_loop_range_wraps_playback_either_way_and_goes_with_the_clip() {
        // A clamped clip of 100 frames at 10 fps, looping frames 20..30.
        let c = clip(false, 101, 10.0);
        let mut p = Player { clip: Some(0), ..Player::default() };
        p.set_range(&c, Some((30.0, 20.0)));
        assert_eq!(p.range, Some((20.0, 30.0)), "either order");
        p.toggle(&c, false);
        assert_eq!(p.frame(&c), 20.0, "playing from outside the range starts at its start");
        p.advance(&c, 0.95);
        assert!((p.frame(&c) - 29.5).abs() < 1e-3, "{}", p.frame(&c));
        p.advance(&c, 0.1);
        assert!((p.frame(&c) - 20.5).abs() < 1e-3, "wraps at the end: {}", p.frame(&c));
        // Many wraps in one long step, then backwards through the start.
        p.advance(&c, 2.3);
        assert!((p.frame(&c) - 23.5).abs() < 1e-3, "{}", p.frame(&c));
        assert!(p.playing, "a range never stops playback");
        p.toggle(&c, true);
        p.advance(&c, 0.5);
        assert!((p.frame(&c) - 28.5).abs() < 1e-3, "wraps at the start going back: {}", p.frame(&c));
        // Scrubbing is free outside the range; a range shorter than a frame clears it.
        p.set_frame(&c, 70.0);
        assert_eq!(p.frame(&c), 70.0);
        p.set_range(&c, Some((5.0, 5.5)));
        assert_eq!(p.range, None);
        // Ranges are clamped to the clip and go when another clip is shown.
        p.set_range(&c, Some((-10.0, 500.0)));
        assert_eq!(p.range, Some((0.0, 100.0)));
        p.select(Some(1));
        assert_eq!(p.range, None);
    }

    #[test]
    fn backwards_runs_to_the_start_and_wraps_a_loop() {
        let c = clip(false, 11, 10.0);
        let mut p = Player { clip: Some(0), ..Player::default() };
        // At the start of a clamped clip, playing backwards starts from its end.
        p.toggle(&c, true);
        assert!(p.playing && p.backwards);
        assert_eq!(p.frame(&c), c.frame_span());
        assert!(p.advance(&c, 0.25));
        assert!((p.frame(&c) - 7.5).abs() < 1e-4, "{}", p.frame(&c));
        p.advance(&c, 5.0);
        assert_eq!(p.frame(&c), 0.0);
        assert!(!p.playing, "stops at the start");
        // The same key again pauses; the other plays forwards.
        p.toggle(&c, true);
        p.toggle(&c, true);
        assert!(!p.playing);
        p.toggle(&c, false);
        assert!(p.playing && !p.backwards);
        let l = clip(true, 10, 10.0);
        let mut p = Player { clip: Some(0), ..Player::default() };
        p.toggle(&l, true);
        p.advance(&l, 0.25);
        assert!((p.frame(&l) - 7.5).abs() < 1e-4, "a loop wraps backwards: {}", p.frame(&l));
    }
}

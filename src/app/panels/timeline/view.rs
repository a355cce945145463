//! The part of the clip the timeline's rows show, and how the pointer moves it: Ctrl+wheel zooms about the
//! pointer, a middle-button drag pans, a double-click fits the whole clip. Pure arithmetic on frames and
//! screen x, so it is tested without a window.

/// Frames `start..end` of a clip spread across a strip.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeView {
    pub start: f32,
    pub end: f32,
}

/// The fewest frames a view spans when zoomed in all the way (a frame then is a tenth of the strip).
pub const MIN_FRAMES: f32 = 10.0;

impl TimeView {
    /// The whole clip: frames 0 to `span` (at least one frame).
    pub fn fit(span: f32) -> TimeView {
        TimeView { start: 0.0, end: span.max(1.0) }
    }

    pub fn len(&self) -> f32 {
        self.end - self.start
    }

    /// Whether it shows the whole clip of `span` frames.
    pub fn is_fit(&self, span: f32) -> bool {
        *self == TimeView::fit(span)
    }

    /// The x of frame `f` on a strip from `left`, `width` wide (outside the strip when `f` is out of view).
    pub fn x(&self, left: f32, width: f32, f: f32) -> f32 {
        left + width * (f - self.start) / self.len()
    }

    /// The frame at screen x `x` on that strip, within the view.
    pub fn frame_at(&self, left: f32, width: f32, x: f32) -> f32 {
        let f = self.start + (x - left) / width.max(1.0) * self.len();
        f.clamp(self.start, self.end)
    }

    /// Zooms by `factor` (above 1 zooms in) keeping frame `about` where it is, within a clip of `span` frames.
    pub fn zoom(&mut self, about: f32, factor: f32, span: f32) {
        if !(factor.is_finite() && factor > 0.0 && about.is_finite()) {
            return;
        }
        let full = span.max(1.0);
        let len = (self.len() / factor).clamp(MIN_FRAMES.min(full), full);
        let share = ((about - self.start) / self.len()).clamp(0.0, 1.0);
        self.start = about - share * len;
        self.end = self.start + len;
        self.keep_within(full);
    }

    /// Moves the view `frames` later (negative: earlier), within a clip of `span` frames.
    pub fn pan(&mut self, frames: f32, span: f32) {
        if frames.is_finite() {
            self.start += frames;
            self.end += frames;
            self.keep_within(span.max(1.0));
        }
    }

    /// Slides the view back inside frames 0..`full`, keeping its length (at most `full`).
    fn keep_within(&mut self, full: f32) {
        let len = self.len().min(full);
        self.start = self.start.clamp(0.0, full - len);
        self.end = self.start + len;
    }

    /// Frames between labelled ticks on a ruler `width` pixels wide, so labels stay `gap` pixels apart or more:
    /// 1, 2, 5, 10, 20, 50… frames.
    pub fn tick_step(&self, width: f32, gap: f32) -> f32 {
        let per_pixel = self.len() / width.max(1.0);
        let mut step = 1.0;
        for k in 0..12 {
            for m in [1.0, 2.0, 5.0] {
                step = m * 10f32.powi(k);
                if step / per_pixel >= gap {
                    return step;
                }
            }
        }
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_and_x_map_both_ways() {
        let v = TimeView { start: 100.0, end: 300.0 };
        assert_eq!(v.x(10.0, 400.0, 100.0), 10.0);
        assert_eq!(v.x(10.0, 400.0, 200.0), 210.0);
        assert_eq!(v.frame_at(10.0, 400.0, 210.0), 200.0);
        assert_eq!(v.frame_at(10.0, 400.0, 0.0), 100.0, "clamped to the view");
        assert!(TimeView::fit(2809.0).is_fit(2809.0));
    }

    #[test]
    fn zoom_keeps_the_frame_under_the_pointer_and_stays_in_the_clip() {
        let mut v = TimeView::fit(1000.0);
        v.zoom(250.0, 2.0, 1000.0);
        assert_eq!(v, TimeView { start: 125.0, end: 625.0 }, "frame 250 stays a quarter of the way in");
        // All the way in: MIN_FRAMES frames; all the way out: the whole clip, never past its ends.
        for _ in 0..40 {
            v.zoom(130.0, 2.0, 1000.0);
        }
        assert!((v.len() - MIN_FRAMES).abs() < 1e-3, "{v:?}");
        assert!(v.start <= 130.0 && v.end >= 130.0);
        for _ in 0..40 {
            v.zoom(999.0, 0.5, 1000.0);
        }
        assert_eq!(v, TimeView::fit(1000.0));
        // A clip shorter than MIN_FRAMES can't zoom in at all.
        let mut short = TimeView::fit(4.0);
        short.zoom(2.0, 3.0, 4.0);
        assert_eq!(short, TimeView::fit(4.0));
    }

    #[test]
    fn pan_slides_within_the_clip() {
        let mut v = TimeView { start: 100.0, end: 200.0 };
        v.pan(-150.0, 1000.0);
        assert_eq!(v, TimeView { start: 0.0, end: 100.0 });
        v.pan(5000.0, 1000.0);
        assert_eq!(v, TimeView { start: 900.0, end: 1000.0 });
        v.pan(f32::NAN, 1000.0);
        assert_eq!(v, TimeView { start: 900.0, end: 1000.0 });
    }

    #[test]
    fn ticks_stay_apart() {
        let v = TimeView::fit(2809.0);
        assert_eq!(v.tick_step(1000.0, 50.0), 200.0);
        assert_eq!(TimeView { start: 0.0, end: 20.0 }.tick_step(1000.0, 40.0), 1.0);
    }
}

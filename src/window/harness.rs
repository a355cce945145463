//! The window's hidden test and benchmark hooks (`--exit-after-frames`, `--exit-after-reload`, `--screenshot`,
//! `--frame-step`, `--contact-sheet`, `--report-timing`), kept apart from the frame so the frame reads as a frame.
//!
//! Tests wait on what the window says, never on time: it prints `rigscope: window drawn by …` once the first
//! frame has been presented (not when the window opens: a test that changes a file after that line knows the
//! camera was already framed on the file as it was), and `rigscope: reloaded …` on each hot reload.

use std::path::PathBuf;
use std::time::Duration;

use super::timing::Timing;
use super::{DEFAULT_SCREENSHOT_FRAME, Options};

pub struct Harness {
    exit_after_frames: Option<u64>,
    exit_after_reload: bool,
    frame_step: Option<f32>,
    screenshot: Option<PathBuf>,
    contact_sheet: bool,
    record_clip: bool,
    export_gltf: Option<PathBuf>,
    /// glTF exports under way: the window doesn't exit on a frame count before they are done.
    exports: usize,
    timing: Option<Timing>,
    /// Frames presented (since the first reload, with `exit_after_reload`).
    presented: u64,
    /// A hot reload has happened (`exit_after_reload`).
    reloaded: bool,
}

/// What to do once a frame was presented.
pub struct AfterPresent {
    /// Save the frame (window and sidebar) here, then exit.
    pub screenshot: Option<PathBuf>,
    /// Leave the event loop.
    pub exit: bool,
}

impl Harness {
    pub fn new(options: &Options) -> Harness {
        Harness {
            exit_after_frames: options.exit_after_frames,
            exit_after_reload: options.exit_after_reload,
            frame_step: options.frame_step.filter(|s| s.is_finite() && *s >= 0.0),
            screenshot: options.screenshot.clone(),
            contact_sheet: options.contact_sheet,
            record_clip: options.record_clip,
            export_gltf: options.export_gltf.clone(),
            exports: 0,
            timing: options.report_timing.map(|t| Timing::new(t, options.exit_after_frames)),
            presented: 0,
            reloaded: false,
        }
    }

    /// A test hook is on: the window says on stderr what drew and what reloaded.
    pub fn speaks(&self) -> bool {
        self.exit_after_frames.is_some() || self.screenshot.is_some()
    }

    /// `--frame-step`: the seconds every frame advances the clock by, when a test fixes them.
    pub fn frame_step(&self) -> Option<f32> {
        self.frame_step
    }

    /// The frame after which the window saves its screenshot and exits, if a hook says so.
    fn last_frame(&self) -> Option<u64> {
        self.exit_after_frames.or(self.screenshot.as_ref().map(|_| DEFAULT_SCREENSHOT_FRAME))
    }

    /// A hook will end the window after some frames: keep drawing until then.
    pub fn keeps_drawing(&self) -> bool {
        self.last_frame().is_some()
    }

    /// `--contact-sheet`: true once, on the first frame after one was presented.
    pub fn take_contact_sheet(&mut self) -> bool {
        if self.contact_sheet && self.presented > 0 {
            self.contact_sheet = false;
            return true;
        }
        false
    }

    /// `--record-clip`: true once, on the first frame after one was presented.
    pub fn take_record_clip(&mut self) -> bool {
        if self.record_clip && self.presented > 0 {
            self.record_clip = false;
            return true;
        }
        false
    }

    /// `--export-gltf`: the file, once, on the first frame after one was presented.
    pub fn take_export_gltf(&mut self) -> Option<PathBuf> {
        if self.presented > 0 { self.export_gltf.take() } else { None }
    }

    /// A glTF export started.
    pub fn export_started(&mut self) {
        self.exports += 1;
    }

    /// A glTF export finished (said on stderr when a hook is on).
    pub fn export_finished(&mut self, result: &Result<String, String>) {
        self.exports = self.exports.saturating_sub(1);
        if self.speaks() {
            match result {
                Ok(text) => eprintln!("rigscope: {text}"),
                Err(e) => eprintln!("rigscope: {e}"),
            }
        }
    }

    /// Files were reloaded (names as opened).
    pub fn reloaded(&mut self, names: &[String]) {
        if self.speaks() {
            eprintln!("rigscope: reloaded {}", names.join(", "));
        }
        if self.exit_after_reload && !self.reloaded {
            self.reloaded = true;
            self.presented = 0;
        }
    }

    /// A frame was presented (`app_work`: its main-thread work, for `--report-timing`; `drawn_by`: the adapter,
    /// said once after the first frame).
    pub fn presented(&mut self, app_work: Duration, drawn_by: impl FnOnce() -> String) -> AfterPresent {
        if let Some(t) = &mut self.timing {
            t.presented(app_work);
        }
        if self.presented == 0 && !self.reloaded && self.speaks() {
            eprintln!("rigscope: window drawn by {}", drawn_by());
        }
        self.presented += 1;
        let waiting = (self.exit_after_reload && !self.reloaded) || self.exports > 0 || self.export_gltf.is_some();
        let exit = !waiting && self.last_frame().is_some_and(|n| self.presented >= n);
        AfterPresent { screenshot: self.screenshot.clone().filter(|_| exit), exit }
    }

    /// The `--report-timing` line, when asked for.
    pub fn timing_report(&self) -> Option<String> {
        self.timing.as_ref().map(Timing::report)
    }
}

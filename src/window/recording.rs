//! "Record clip" from the window ([`Intent::RecordClip`](crate::app::Intent::RecordClip)): the clip shown,
//! recorded as `render --gif`/`--apng` records it (the same instants and encoders, `render::record`), from the
//! window's orbit angles and with its overlays, drawn offscreen by the window's renderer a few frames per
//! window frame so the window stays responsive, its progress shown and cancellable. Saved beside screenshots.

use std::io::BufWriter;
use std::path::{Path, PathBuf};

use super::{Viewer, WindowState, capture};
use crate::anim::PoseInput;
use crate::render::record::{self, AnimatedFormat, Recorder};
use crate::render::{Camera, FrameInput, FrameOverlays, Overlays, ViewState, render_offscreen};
use crate::scene::DEFAULT_FPS;
use crate::view::BACKGROUND;

/// The recording's picture size in pixels (as `render`'s default).
pub const SIZE: (u32, u32) = (640, 480);
/// Frames drawn and encoded per window frame.
const PER_FRAME: usize = 2;

/// A recording under way.
pub(super) struct Job {
    physics: Option<crate::physics::Simulation>,
    /// "Light from motion" when the recording started.
    motion_light: bool,
    document: u64,
    clip: usize,
    frames: Vec<f32>,
    next: usize,
    camera: Camera,
    /// The window's overlays when the recording started, with the per-frame ones redone for each frame.
    overlays: Overlays,
    per_frame: FrameOverlays,
    view: ViewState,
    recorder: Option<Recorder<BufWriter<std::fs::File>>>,
    tmp: PathBuf,
    path: PathBuf,
}

/// `model-clip.gif` or `model-clip.apng.png`, with the characters [`crate::view::screenshot_name`] keeps.
pub fn recording_name(model: &str, clip: &str, format: AnimatedFormat) -> String {
    let shot = crate::view::screenshot_name(model, Some((clip, 0.0)));
    let stem = shot.strip_suffix("-f000.png").unwrap_or(&shot);
    match format {
        AnimatedFormat::Gif => format!("{stem}.gif"),
        AnimatedFormat::Apng => format!("{stem}.apng.png"),
    }
}

impl Viewer {
    /// Starts recording the clip shown into the current folder (never overwriting), or says why not.
    pub(super) fn start_recording(&mut self, w: &WindowState, format: AnimatedFormat) {
        if self.recording.is_some() {
            self.notify("A recording is already under way".to_string());
            return;
        }
        let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        match self.new_job(w, format, &dir) {
            Ok(Some(job)) => {
                self.app.set_recording(Some((file_name(&job.path), 0, job.frames.len())));
                self.recording = Some(job);
            }
            Ok(None) => self.notify("Nothing to record: no animation is shown".to_string()),
            Err(e) => self.notify(format!("Recording failed: {e}")),
        }
    }

    fn new_job(&self, w: &WindowState, format: AnimatedFormat, dir: &Path) -> Result<Option<Job>, String> {
        let (Some(scene), Some((clip, _))) = (self.app.scene(), self.app.current_clip_frame()) else {
            return Ok(None);
        };
        let Some(c) = scene.clips.get(clip) else { return Ok(None) };
        let frames = record::frames(c, DEFAULT_FPS, None, None, None)?;
        let camera = super::sheet::clip_camera(scene, clip, &w.stage.camera.camera, SIZE)?;
        let (overlays, per_frame) = (self.app.overlays(), self.app.frame_overlays());
        let path = capture::unused_path(dir, &recording_name(&self.model_name(), &c.name, format));
        let tmp = crate::watch::partial_path(&path);
        let file = std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        let recorder = Recorder::new(format, BufWriter::new(file), SIZE, frames.len(), c.fps(DEFAULT_FPS));
        let recorder = recorder.inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })?;
        Ok(Some(Job {
            document: self.app.document_id(),
            clip,
            frames,
            next: 0,
            camera,
            overlays,
            per_frame,
            view: ViewState::new(&w.gpu.renderer),
            // MMD physics as playback from the clip's start shows it, when the view simulates it.
            physics: self.app.physics_settings().and_then(|s| crate::physics::Simulation::new(scene, s)),
            motion_light: self.app.motion_light(),
            recorder: Some(recorder),
            tmp,
            path,
        }))
    }

    /// Draws and encodes the next few frames of the recording under way; returns whether one still runs.
    pub(super) fn step_recording(&mut self, w: &WindowState) -> bool {
        let Some(mut job) = self.recording.take() else { return false };
        let outcome = self.advance(w, &mut job);
        match outcome {
            Ok(false) => {
                self.app.set_recording(Some((file_name(&job.path), job.next, job.frames.len())));
                self.recording = Some(job);
                true
            }
            Ok(true) => {
                self.app.set_recording(None);
                self.notify(format!("Saved {}", job.path.display()));
                false
            }
            Err(e) => {
                self.app.set_recording(None);
                let _ = std::fs::remove_file(&job.tmp);
                self.notify(format!("Recording failed: {e}"));
                false
            }
        }
    }

    /// Up to [`PER_FRAME`] more frames; `Ok(true)` when the file is complete.
    fn advance(&self, w: &WindowState, job: &mut Job) -> Result<bool, String> {
        let scene = self.app.scene().filter(|_| self.app.document_id() == job.document);
        let (Some(scene), Some((_, model))) = (scene, &w.stage.model) else {
            return Err("the model shown changed".to_string());
        };
        let clip = scene.clips.get(job.clip).ok_or("the clip is gone")?;
        let recorder = job.recorder.as_mut().ok_or("the recording is closed")?;
        for _ in 0..PER_FRAME {
            let Some(&f) = job.frames.get(job.next) else { break };
            let input = PoseInput::at(Some(clip), f, DEFAULT_FPS);
            let pose = crate::physics::frame_pose(scene, job.physics.as_mut(), &input, crate::physics::Seek::FromStart);
            let time = f / clip.fps(DEFAULT_FPS);
            let overlays = job.per_frame.at(&job.overlays, scene, Some((job.clip, f)), &pose, DEFAULT_FPS);
            let light = scene.light_at(time, job.motion_light);
            let self_shadow = scene.self_shadow_at(time, job.motion_light);
            let (camera, overlays) = (&job.camera, &overlays);
            let input = FrameInput { camera, pose: &pose, overlays, time, reference_pose: None, light, self_shadow };
            let image = render_offscreen(&w.gpu.renderer, model, &mut job.view, &input, SIZE, BACKGROUND)
                .map_err(|e| e.to_string())?;
            recorder.push(&image)?;
            job.next += 1;
        }
        if job.next < job.frames.len() {
            return Ok(false);
        }
        job.recorder.take().ok_or("the recording is closed")?.finish()?;
        std::fs::rename(&job.tmp, &job.path).map_err(|e| format!("{}: {e}", job.path.display()))?;
        Ok(true)
    }

    /// Stops the recording under way and removes its unfinished file.
    pub(super) fn cancel_recording(&mut self) {
        if let Some(job) = self.recording.take() {
            drop(job.recorder);
            let _ = std::fs::remove_file(&job.tmp);
            self.app.set_recording(None);
            self.notify(format!("Recording of {} cancelled", file_name(&job.path)));
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recording_names_follow_screenshot_names() {
        assert_eq!(recording_name("mrfixit", "idle", AnimatedFormat::Gif), "mrfixit-idle.gif");
        assert_eq!(recording_name("../x", "a/b c", AnimatedFormat::Apng), "x-a_b_c.apng.png");
    }
}

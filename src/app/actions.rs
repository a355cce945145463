//! The actions the sidebar, the menu and the shortcuts ask for, and the one place that applies them.

use super::model::ClipMeta;
use super::{App, Intent};

/// What a sidebar section, the menu or a shortcut asks the app to do. Applied by [`App`] in one place.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Window(Intent),
    /// Shows a clip from its start, playing.
    SelectClip(usize),
    TogglePlay,
    SetFrame(f32),
    /// Whole frames forward (positive) or back.
    Step(i32),
    JumpStart,
    JumpEnd,
    SetSpeed(f32),
    /// Plays the current clip looping or not, whatever the file says.
    SetLoop(bool),
    SelectJoint(Option<usize>),
    SetMeshHidden(usize, bool),
    DismissNotice(usize),
    ClearProblems,
    /// Drive the view from the animated camera (`Scene::cameras`) at the clip's time.
    SetFollowCamera(bool),
    /// Convert attached delta motions from MMD's left-handed Y-up axes to the model's ([`crate::anim::mmd_to_model`]).
    SetMmdAxes(bool),
    /// The track whose channels the curve view plots.
    SelectCurve(Option<super::CurveTarget>),
    /// Shows what a finding of the Problems panel points at: its animation and frame, its joint.
    GoToFinding(usize),
    /// Flips a view switch.
    Toggle(super::Toggle),
    /// Frames each side that the onion skin shows (1 to [`super::MAX_ONION_FRAMES`]).
    SetOnionFrames(u32),
    /// Makes open model (tab) `i` the one shown.
    SelectModel(usize),
    /// The next open model (Page Down), wrapping.
    NextModel,
    /// The previous open model (Page Up), wrapping.
    PrevModel,
    /// Closes open model (tab) `i`; `usize::MAX` means the model shown (Ctrl+W and File > Close model send that).
    CloseModel(usize),
    /// Removes attached file `i` from the model shown (its clips go, the model is rebuilt from the rest).
    Detach(usize),
    /// Opens (or, with `None`, closes) the name-matching report of attached file `i`.
    ShowAttachReport(Option<usize>),
    /// Hot reload on or off.
    SetWatch(bool),
    /// Copies the current pose as JSON (what `rigscope pose` prints) to the clipboard.
    CopyPose,
    /// Opens a file (from the recent-files list).
    OpenRecent(std::path::PathBuf),
    /// Shows or hides the keyboard help overlay.
    ToggleHelp,
}

impl App {
    /// Applies and drains every action but the window's intents, which stay in `actions`.
    pub(super) fn apply_all(&mut self, actions: &mut Vec<Action>) {
        let mut keep = Vec::new();
        for a in actions.drain(..) {
            match a {
                Action::Window(_) => keep.push(a),
                a => self.apply(a),
            }
        }
        *actions = keep;
        self.refresh();
    }

    /// Applies one action (also callable by the window, e.g. for its own key bindings).
    pub fn apply(&mut self, action: Action) {
        let clip = self.current_clip().map(ClipMeta::clone_meta);
        match action {
            Action::Window(_) => {}
            Action::SelectClip(i) => {
                if self.model.as_ref().is_some_and(|m| i < m.scene.clips.len()) {
                    self.player.select(Some(i));
                    self.player.playing = true;
                }
            }
            Action::TogglePlay => {
                if let Some(c) = &clip {
                    // Play from the start again when a clamped clip sits at its end.
                    if !self.player.playing && !c.looping && self.player.frame(c) >= c.frame_span() {
                        self.player.set_frame(c, 0.0);
                    }
                    self.player.playing = !self.player.playing;
                }
            }
            Action::SetFrame(f) => {
                if let Some(c) = &clip {
                    self.player.set_frame(c, f);
                }
            }
            Action::Step(d) => {
                if let Some(c) = &clip {
                    self.player.step(c, d);
                }
            }
            Action::JumpStart => {
                if let Some(c) = &clip {
                    self.player.jump_start(c);
                }
            }
            Action::JumpEnd => {
                if let Some(c) = &clip {
                    self.player.jump_end(c);
                }
            }
            Action::SetSpeed(s) => {
                if s.is_finite() && s > 0.0 {
                    self.player.speed = s;
                }
            }
            Action::SetLoop(looping) => {
                if let (Some(i), Some(model)) = (self.player.clip, &mut self.model)
                    && let Some(c) = model.scene.clips.get_mut(i)
                {
                    c.looping = looping;
                    let c = c.clone_meta();
                    self.player.normalize(&c);
                }
            }
            Action::SelectJoint(j) => {
                self.selected_joint = j.filter(|&j| self.model.as_ref().is_some_and(|m| j < m.scene.skeleton.len()));
            }
            Action::SetMeshHidden(i, hidden) => {
                if let Some(h) = self.hidden_meshes.get_mut(i) {
                    *h = hidden;
                }
            }
            Action::DismissNotice(i) => {
                if i < self.notices.len() {
                    self.notices.remove(i);
                }
            }
            Action::ClearProblems => self.problems.clear(),
            Action::SetFollowCamera(on) => self.toggles.follow_camera = on && self.camera_track().is_some(),
            Action::SetMmdAxes(on) => self.set_mmd_axes(on),
            Action::SelectCurve(c) => self.curve = c,
            Action::GoToFinding(i) => self.go_to_finding(i),
            Action::Toggle(t) => self.toggles.flip(t),
            Action::SetOnionFrames(n) => self.toggles.onion_frames = n.clamp(1, super::MAX_ONION_FRAMES),
            Action::SelectModel(i) => self.select_model(i),
            Action::NextModel => self.cycle_model(1),
            Action::PrevModel => self.cycle_model(-1),
            Action::CloseModel(i) => self.close_model(i),
            Action::Detach(i) => self.detach(i),
            Action::ShowAttachReport(i) => {
                self.report_open = i.filter(|&i| i + 1 < self.sources.len());
            }
            Action::SetWatch(on) => self.watch = on,
            Action::CopyPose => self.copy_pose(),
            Action::OpenRecent(path) => self.open_path(&path),
            Action::ToggleHelp => self.help = !self.help,
        }
        self.refresh();
    }
}

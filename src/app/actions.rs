//! The actions the sidebar, the menu and the shortcuts ask for, and the one place that applies them.

use super::model::ClipMeta;
use super::{App, Document, Intent};

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
    /// Holds morph `i` at a weight in place of the animation's (`None`: the animation drives it again).
    SetMorphWeight(usize, Option<f32>),
    /// Lets the animation drive every morph again.
    ResetMorphs,
    /// Switches IK chain `c` on or off in place of the motion's IK switches (`None`: the motion decides).
    SetIkEnabled(usize, Option<bool>),
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
    /// Stops comparing the shown document with its reference.
    ClearReference,
    /// Whether a reload of the model makes the version before it the reference.
    SetKeepPrevious(bool),
    /// Physics starts over from the pose shown.
    ResetPhysics,
    /// New gravity, fixed step or warm-up (remembered; the simulation resets).
    SetPhysicsSettings(crate::physics::PhysicsSettings),
    /// Selects a rigid body of the shown model (highlighted in the view), or none.
    SelectBody(Option<usize>),
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
        match action {
            Action::Window(_) => {}
            Action::SetSpeed(s) => {
                if s.is_finite() && s > 0.0 {
                    self.set_speed(s);
                }
            }
            Action::DismissNotice(i) => self.notices.dismiss(i),
            Action::ClearProblems => self.notices.problems.clear(),
            Action::SetFollowCamera(on) => self.toggles.follow_camera = on && self.camera_track().is_some(),
            Action::Toggle(t) => self.toggles.flip(t),
            Action::SetOnionFrames(n) => self.toggles.onion_frames = n.clamp(1, super::MAX_ONION_FRAMES),
            Action::SelectModel(i) => self.select_model(i),
            Action::NextModel => self.cycle_model(1),
            Action::PrevModel => self.cycle_model(-1),
            Action::CloseModel(i) => self.close_model(i),
            Action::Detach(i) => self.detach(i),
            Action::ShowAttachReport(i) => {
                self.chrome.report_open = i.filter(|&i| i + 1 < self.sources().len());
            }
            Action::SetWatch(on) => self.prefs.watch = on,
            Action::SetPhysicsSettings(settings) => self.prefs.physics = settings.sanitized(),
            Action::CopyPose => self.copy_pose(),
            Action::OpenRecent(path) => self.open_path(&path),
            Action::ToggleHelp => self.chrome.help = !self.chrome.help,
            a => {
                if let Some(doc) = self.documents.get_mut(self.active) {
                    apply_to_document(doc, a);
                }
            }
        }
        self.refresh();
    }
}

/// Applies an action that concerns the shown document alone: playback, selection, hidden meshes, the curve
/// view, the MMD axis switch, going to a finding.
fn apply_to_document(doc: &mut Document, action: Action) {
    match action {
        Action::ClearReference => return doc.reference = None,
        Action::SetKeepPrevious(on) => return doc.keep_previous = on,
        _ => {}
    }
    let clip = doc.current_clip().map(ClipMeta::clone_meta);
    let player = &mut doc.player;
    match action {
        Action::SelectClip(i) if i < doc.model.scene.clips.len() => {
            player.select(Some(i));
            player.playing = true;
        }
        Action::TogglePlay => {
            if let Some(c) = &clip {
                // Play from the start again when a clamped clip sits at its end.
                if !player.playing && !c.looping && player.frame(c) >= c.frame_span() {
                    player.set_frame(c, 0.0);
                }
                player.playing = !player.playing;
            }
        }
        Action::SetFrame(f) => {
            if let Some(c) = &clip {
                player.set_frame(c, f);
            }
        }
        Action::Step(d) => {
            if let Some(c) = &clip {
                player.step(c, d);
            }
        }
        Action::JumpStart => {
            if let Some(c) = &clip {
                player.jump_start(c);
            }
        }
        Action::JumpEnd => {
            if let Some(c) = &clip {
                player.jump_end(c);
            }
        }
        Action::SetLoop(looping) => {
            if let Some(c) = player.clip.and_then(|i| doc.model.scene.clips.get_mut(i)) {
                c.looping = looping;
                let c = c.clone_meta();
                doc.player.normalize(&c);
            }
        }
        Action::SelectJoint(j) => {
            doc.selected_joint = j.filter(|&j| j < doc.model.scene.skeleton.len());
        }
        Action::SetMeshHidden(i, hidden) => {
            if let Some(h) = doc.hidden_meshes.get_mut(i) {
                *h = hidden;
            }
        }
        Action::SetMorphWeight(i, w) => doc.set_morph_override(i, w),
        Action::ResetMorphs => doc.clear_morph_overrides(),
        Action::SetIkEnabled(c, on) => doc.set_ik_override(c, on),
        Action::ResetPhysics => doc.reset_physics(),
        Action::SelectBody(b) => {
            let bodies = doc.model.scene.mmd.as_ref().map_or(0, |m| m.rigid_bodies.len());
            doc.selected_body = b.filter(|&b| b < bodies);
        }
        Action::SetMmdAxes(on) => doc.set_mmd_axes(on),
        Action::SelectCurve(c) => doc.curve = c,
        Action::GoToFinding(i) => {
            if let Some(place) = doc.findings.get(i).map(|f| f.place.clone()) {
                doc.go_to(&place);
            }
        }
        _ => {}
    }
}

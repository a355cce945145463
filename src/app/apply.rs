//! The one place that applies [`Action`]s: to the app, or to the shown document alone.

use super::App;
use super::actions::Action;
use super::document::Document;
use super::document::model::ClipMeta;
use super::selection::Selection;

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
            Action::SetOnionStep(k) => self.toggles.onion_step = k.clamp(1, crate::anim::MAX_ONION_STEP),
            Action::SetTrailFrames(n) => self.toggles.trail_frames = n.clamp(1, crate::anim::MAX_TRAIL_FRAMES),
            Action::SelectModel(i) => self.select_model(i),
            Action::NextModel => self.cycle_model(1),
            Action::PrevModel => self.cycle_model(-1),
            Action::CloseModel(i) => self.close_model(i),
            Action::Detach(i) => self.detach(i),
            Action::ShowAttachReport(i) => {
                self.chrome.report_open = i.filter(|&i| i + 1 < self.sources().len());
            }
            Action::SetWatch(on) => self.prefs.watch = on,
            Action::SetPlayOnOpen(on) => self.prefs.play_on_open = on,
            Action::SetPhysicsSettings(settings) => self.prefs.physics = settings.sanitized(),
            Action::CopyPose => self.copy_pose(),
            Action::OpenRecent(path) => self.open_path(&path),
            Action::ToggleHelp => self.chrome.help = !self.chrome.help,
            Action::TogglePalette => self.chrome.palette.toggle(),
            Action::ArmLoopRange => self.chrome.timeline.arm_range = !self.chrome.timeline.arm_range,
            Action::ShowPanel(t) => *self.toggles.get_mut(t) = true,
            Action::FocusFilter => {
                self.toggles.outliner = true;
                self.chrome.outliner.focus_filter = true;
            }
            Action::GoToFinding(i) => {
                let Some(doc) = self.documents.get_mut(self.active) else { return };
                let vertex = doc.findings.get(i).and_then(|f| f.place.vertex);
                apply_to_document(doc, action);
                self.refresh();
                // A vertex is shown as a click on it would show it, in the pose the finding's frame gives.
                if let Some(v) = vertex
                    && let Some(doc) = self.document()
                    && let Some(p) = crate::anim::pick_vertex(doc.scene(), doc.pose(), v)
                {
                    self.chrome.picked = Some((doc.id(), p));
                }
            }
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
    // Walking the history moves through it; every other change of the selection is remembered in it.
    match action {
        Action::SelectionStep(step) => {
            if let Some(s) = doc.history.go(&doc.selection.clone(), step) {
                doc.selection = s;
            }
        }
        Action::PinSelection(on) => doc.history.pinned = on.then(|| doc.selection.clone()),
        action => {
            let before = doc.selection.clone();
            apply_to_document_inner(doc, action);
            doc.history.record(&before, &doc.selection);
        }
    }
}

fn apply_to_document_inner(doc: &mut Document, action: Action) {
    match action {
        Action::ClearReference => return doc.reference = None,
        Action::SetKeepPrevious(on) => return doc.keep_previous = on,
        Action::StepKey(d) => return step_key(doc, d),
        _ => {}
    }
    let clip = doc.current_clip().map(ClipMeta::clone_meta);
    let player = &mut doc.player;
    match action {
        Action::SelectClip(i) if i < doc.model.scene.clips.len() => {
            player.select(Some(i));
            player.playing = true;
        }
        Action::TogglePlay | Action::TogglePlayBackwards => {
            if let Some(c) = &clip {
                player.toggle(c, action == Action::TogglePlayBackwards);
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
        Action::SetLoopRange(range) => {
            if let Some(c) = &clip {
                player.set_range(c, range);
            }
        }
        Action::Pause => player.playing = false,
        Action::SetLoop(looping) => {
            if let Some(c) = player.clip.and_then(|i| doc.model.scene.clips.get_mut(i)) {
                c.looping = looping;
                let c = c.clone_meta();
                doc.player.normalize(&c);
            }
        }
        Action::SelectJoint(j) => {
            let joint = j.filter(|&j| j < doc.model.scene.skeleton.len());
            doc.selection = Selection { joint, curve: doc.selection.curve, ..Selection::default() };
        }
        Action::ToggleJoint(j) if j < doc.model.scene.skeleton.len() => {
            let mut joints: Vec<usize> = doc.selection.joints().collect();
            let joint = match joints.iter().position(|&x| x == j) {
                Some(i) => {
                    joints.remove(i);
                    joints.last().copied()
                }
                None => {
                    joints.push(j);
                    Some(j)
                }
            };
            let group = (joints.len() > 1).then(|| (None, std::rc::Rc::from(joints)));
            doc.selection = Selection { joint, group, curve: doc.selection.curve, ..Selection::default() };
        }
        Action::SelectMorph(m) => {
            let morph = m.filter(|&m| m < doc.model.scene.morphs.len());
            doc.selection = Selection { morph, curve: doc.selection.curve, ..Selection::default() };
        }
        Action::SelectMesh(m) => {
            let mesh = m.filter(|&m| m < doc.model.scene.meshes.len());
            doc.selection = Selection { mesh, curve: doc.selection.curve, ..Selection::default() };
        }
        Action::SelectGroup(k) => {
            let scene = &doc.model.scene;
            let Some(mmd) = scene.mmd.as_ref() else { return };
            let Some(frame) = mmd.display_frames.get(k) else { return };
            let joints: Vec<usize> = frame
                .items
                .iter()
                .filter_map(|i| match *i {
                    crate::scene::DisplayItem::Bone(b) => mmd.bones.get(b).map(|b| b.joint),
                    crate::scene::DisplayItem::Morph(_) => None,
                })
                .filter(|&j| j < scene.skeleton.len())
                .collect();
            if let Some(&first) = joints.first() {
                let group = Some((Some(k), std::rc::Rc::from(joints)));
                doc.selection =
                    Selection { joint: Some(first), group, curve: doc.selection.curve, ..Selection::default() };
            }
        }
        Action::SetMeshHidden(i, hidden) => {
            if let Some(h) = doc.hidden_meshes.get_mut(i) {
                *h = hidden;
            }
        }
        Action::SetMorphWeight(i, w) => doc.set_morph_override(i, w),
        Action::ResetMorphs => doc.clear_morph_overrides(),
        Action::SetIkEnabled(c, on) => doc.set_ik_override(c, on),
        Action::SetIkFinish(finish) => doc.set_ik_finish(finish),
        Action::ResetPhysics => doc.reset_physics(),
        Action::SelectBody(b) => {
            // The body's bone is selected with it (its keys on the timeline, its facts in the Inspector).
            let found = b.and_then(|b| Some((b, doc.body_bone(b)?)));
            let (body, joint) = (found.map(|(b, _)| b), found.and_then(|(_, j)| j));
            doc.selection = Selection { joint, body, curve: doc.selection.curve, ..Selection::default() };
        }
        Action::SetMmdAxes(on) => doc.set_mmd_axes(on),
        Action::SelectCurve(c) => doc.selection.curve = c,
        Action::GoToFinding(i) => {
            if let Some(place) = doc.findings.get(i).map(|f| f.place.clone()) {
                doc.go_to(&place);
            }
        }
        _ => {}
    }
}

/// [`Action::StepKey`]: to the selected joint's next or previous key (the clip's when it has none of its own),
/// paused; where there is no key that way, paused where it is.
fn step_key(doc: &mut Document, d: i32) {
    let (Some((c, _)), Some(clip)) = (doc.current_clip_frame(), doc.current_clip().map(ClipMeta::clone_meta)) else {
        return;
    };
    let own = doc.selection.joint.map(|j| doc.key_frames(c, Some(j))).filter(|k| !k.is_empty());
    let keys = own.unwrap_or_else(|| doc.key_frames(c, None));
    if keys.is_empty() {
        // A sampled clip: every frame is a key.
        doc.player.step(&clip, d.signum());
    } else {
        doc.player.step_to_key(&clip, &keys, d);
    }
}

//! The messages of the app: the actions the panels, the menu and the shortcuts ask for (applied in one place,
//! `apply.rs`), what only the window can do ([`Intent`]), and what it is told changed ([`ViewChange`]). Plain
//! data that every section imports and nothing here imports back.

/// What a panels section, the menu or a shortcut asks the app to do. Applied by [`App`] in one place.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Window(Intent),
    /// Shows a clip from its start, playing.
    SelectClip(usize),
    TogglePlay,
    /// Plays backwards, or pauses when it already plays backwards.
    TogglePlayBackwards,
    SetFrame(f32),
    /// Whole frames forward (positive) or back.
    Step(i32),
    /// To the next (positive) or previous key of the selected joint, or of the whole clip when no joint is
    /// selected or the joint has no keys of its own; a sampled clip's keys are its frames. Pauses.
    StepKey(i32),
    JumpStart,
    JumpEnd,
    SetSpeed(f32),
    /// Plays the current clip looping or not, whatever the file says.
    SetLoop(bool),
    /// Loops playback within frames `a..b` of the current clip (either order), or over the whole clip again
    /// (`None`, Alt+P).
    SetLoopRange(Option<(f32, f32)>),
    /// The next drag on the timeline's ruler sets the loop range (P); pressed again, it doesn't.
    ArmLoopRange,
    /// Stops playback where it is (a drag on the timeline pauses, and plays again on release).
    Pause,
    SelectJoint(Option<usize>),
    /// Adds a joint to the selection, or takes it out when it is in (Ctrl+click): several joints selected show
    /// together on the timeline and the curves.
    ToggleJoint(usize),
    SetMeshHidden(usize, bool),
    /// Holds morph `i` at a weight in place of the animation's (`None`: the animation drives it again).
    SetMorphWeight(usize, Option<f32>),
    /// Lets the animation drive every morph again.
    ResetMorphs,
    /// Switches IK chain `c` on or off in place of the motion's IK switches (`None`: the motion decides).
    SetIkEnabled(usize, Option<bool>),
    /// Where IK leaves a leg short of its target: MikuMikuDance's CCD, or planted on it.
    SetIkFinish(crate::anim::IkFinish),
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
    /// Frames between two onion-skin ghosts.
    SetOnionStep(u32),
    /// Frames each side of the current one the motion trails cover.
    SetTrailFrames(u32),
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
    /// Whether an open or a drop starts the clip shown playing ([`crate::app::Settings::play_on_open`]).
    SetPlayOnOpen(bool),
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
    /// Selects a rigid body of the shown model (highlighted in the view) and its bone, or none.
    SelectBody(Option<usize>),
    /// Selects a morph (its facts in the Inspector), or none.
    SelectMorph(Option<usize>),
    /// Selects a mesh (its facts in the Inspector), or none.
    SelectMesh(Option<usize>),
    /// Selects every bone of MMD display frame `k` (the first is the joint shown).
    SelectGroup(usize),
    /// The selection before (negative) or after (positive) in the history.
    SelectionStep(i32),
    /// Keeps the Inspector's Selection tab on what is selected now (`true`), or lets it follow again.
    PinSelection(bool),
    /// Shows a panel (Outliner, Inspector or timeline) that was hidden.
    ShowPanel(super::Toggle),
    /// Puts the keyboard in the Outliner tab's filter (Ctrl+F).
    FocusFilter,
    /// Shows or hides the command palette (Ctrl+K).
    TogglePalette,
}

/// Something only the window can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Show a file dialog and open what is picked ([`App::open_path`]).
    OpenDialog,
    /// Point the camera at the selection, else at the whole model as it stands ([`super::App::frame_target`]).
    FrameModel,
    /// Back to the default camera.
    ResetView,
    /// Look at the model from these angles in degrees (the axis gizmo: front, side, top), framed.
    SnapView {
        yaw: i16,
        pitch: i16,
    },
    /// Save the view as a PNG.
    Screenshot,
    /// Save a contact sheet of the current animation (what `render --sheet` makes) as a PNG.
    ContactSheet,
    /// Record the animation shown as an animated picture (what `render --gif`/`--apng` makes), a few frames per
    /// window frame, with a progress bar.
    RecordClip(crate::render::record::AnimatedFormat),
    /// Stop the recording under way; nothing is written.
    CancelRecording,
    /// Ask where, then write the model shown with its attached motions as glTF (what `convert OUT.glb` does).
    ExportGltf,
    /// Ask for a file to compare the model shown with ([`App::compare_with_path`]).
    CompareDialog,
    Quit,
}

/// What changed in the documents since the window last asked ([`App::take_view_changes`]), in order. Which
/// document is shown is [`App::document_id`]; the window keys its GPU model and camera on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewChange {
    /// The document's model was rebuilt (a reload, an attached or detached file): what the window derived from
    /// it (framing bounds) is stale. `geometry`: its own file changed, so its GPU data must be uploaded again;
    /// otherwise only clips changed and the GPU data stays.
    Rebuilt { document: u64, geometry: bool },
    /// Frame the document's camera on its model (it was opened, or a file was attached to it). A reload never
    /// asks for this: the camera stays where the user left it.
    Frame(u64),
    /// The document was closed: its GPU model and camera can go.
    Closed(u64),
}

/// The track the curve view plots: a joint's keyed track in the current clip, or an animated camera.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveTarget {
    /// By joint index in the model's skeleton.
    Joint(usize),
    /// By index into `Scene::cameras`.
    Camera(usize),
}

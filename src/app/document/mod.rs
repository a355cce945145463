//! An open model as a document: the files it was built from (so it can be rebuilt when one changes on disk or
//! an attachment is detached), the model built from them, and everything the viewer keeps per model: playback,
//! the pose and its cache, selection, hidden meshes, the curve view, the MMD axis switch, reload state and the
//! findings. The app holds a list of documents (one per tab); sections borrow the shown one.

pub(super) mod dopesheet;
mod memo;
pub(super) mod model;
pub(super) mod outline;
pub(super) mod player;
mod pose_key;
mod reference;

pub use pose_key::PoseKey;
pub use reference::Reference;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::actions::CurveTarget;
use super::selection::{History, Selection};
use crate::anim::BOUNDS_TOLERANCE;
use crate::anim::{Pose, attach};
use crate::check::{Finding, Place};
use crate::scene::{CameraTrack, Clip, DEFAULT_FPS, FrameBounds, Scene};
use crate::textures::TextureSet;
use memo::Memos;
use model::{Attachment, ClipMeta, Model};
use player::Player;

/// The most joints that get a motion trail at once (a display frame may select dozens).
pub const TRAILS: usize = 8;

/// Joint `joint` of `clip`'s local transform at every whole frame from 0 to `span`, as played
/// ([`crate::anim::sample_joint`]).
fn sample_frames(
    clip: &Clip,
    joint: usize,
    span: f32,
    bind: crate::scene::Transform,
) -> std::rc::Rc<[crate::scene::Transform]> {
    let frames = span.floor().max(0.0) as usize + 1;
    (0..frames).map(|f| crate::anim::sample_joint(clip, joint, f as f32, DEFAULT_FPS, bind)).collect()
}

/// A file a model was built from: the model first, then each attached file in the order attached.
#[derive(Debug, Clone)]
pub struct Source {
    /// The file's name as the user gave it.
    pub name: String,
    /// Where it was read from; `None` for files opened from memory (the demo, tests), which are never reloaded.
    pub path: Option<PathBuf>,
    /// The bytes the current model was built from (the last good version).
    pub bytes: Arc<[u8]>,
}

impl Source {
    /// The folder textures are looked for in.
    pub fn dir(&self) -> Option<PathBuf> {
        self.path.as_ref().and_then(|p| p.parent()).map(Path::to_path_buf)
    }

    /// True when this source was read from `key` (a [`crate::watch::watch_key`]).
    pub fn is_at(&self, key: &Path) -> bool {
        self.path.as_deref().is_some_and(|p| crate::watch::watch_key(p) == key)
    }
}

/// A model and its findings, built from sources.
pub(super) struct Built {
    pub model: Model,
    pub findings: Vec<Finding>,
}

/// Why sources didn't build: which one failed, and the reader's or attacher's message.
#[derive(Debug, Clone)]
pub(super) struct BuildError {
    pub source: usize,
    pub message: String,
}

/// Loads `sources[0]` as the model and attaches the rest in order; with `mmd_axes`, attached delta tracks are
/// converted as the MMD axis switch does. Runs `check` on every file, skinning every frame for the
/// stored-bounds part only while vertices × frames stay within [`WINDOW_CHECK_BUDGET`].
/// `preloaded`: a source already parsed by the caller (by index), not parsed again.
pub(super) fn build(
    sources: &[Source],
    mmd_axes: bool,
    mut preloaded: Option<(usize, Scene)>,
) -> Result<Built, BuildError> {
    let fail = |source: usize, message: String| BuildError { source, message };
    let mut load = |i: usize, s: &Source| match preloaded.take_if(|(j, _)| *j == i) {
        Some((_, scene)) => Ok(scene),
        None => {
            crate::formats::load_bytes_in(&s.name, &s.bytes, s.dir().as_deref()).map_err(|e| fail(i, e.to_string()))
        }
    };
    let first = sources.first().ok_or_else(|| fail(0, "nothing to open".into()))?;
    let mut scene = load(0, first)?;
    // The model's own findings, before anything is attached: the stored-bounds misses skin every frame, so
    // they are computed here only when affordable (the Bounds section covers the rest later).
    let misses = affordable(&scene).then(|| crate::anim::stored_bounds_misses(&scene, BOUNDS_TOLERANCE));
    let mut findings =
        crate::check::check_loaded(&first.name, &first.bytes, &scene, misses.as_deref(), first.dir().as_deref());
    let mut file_looping: Vec<bool> = scene.clips.iter().map(|c| c.looping).collect();
    let mut attachments = Vec::new();
    for (i, s) in sources.iter().enumerate().skip(1) {
        let anim = load(i, s)?;
        if !anim.is_animation_only() {
            return Err(fail(i, format!("{}: has geometry of its own, so it opens as a model", s.name)));
        }
        let first_new = scene.clips.len();
        let report = attach(&mut scene, &anim, &s.name).map_err(|e| fail(i, e.to_string()))?;
        if mmd_axes {
            let m = crate::anim::mmd_to_model(scene.up);
            scene.clips[first_new..].iter_mut().for_each(|c| crate::anim::convert_deltas(c, m));
        }
        file_looping.extend(anim.clips.iter().map(|c| c.looping));
        // An attached file is animation only: nothing of its own to skin. Its motion is checked on the model's
        // joints, so the findings name the joints the window selects.
        findings.extend(crate::check::check_loaded_but_motion(&s.name, &s.bytes, &anim, None, s.dir().as_deref()));
        findings.extend(crate::check::motion::check_clips(&s.name, &scene, first_new..scene.clips.len()));
        let format = anim.meta.format.name().to_string();
        attachments.push(Attachment { report, format, warnings: anim.meta.warnings, mvd: anim.mvd });
    }
    let covers_every_clip = attachments.is_empty();
    let mut model = Model::new(scene, first.name.clone(), first.dir());
    model.file_looping = file_looping;
    model.attachments = attachments;
    model.misses = if covers_every_clip { misses } else { None };
    Ok(Built { model, findings })
}

/// Values held per name (`old_names[i]` held `old[i]`) carried over to `new_names`; names not held get `None`.
fn by_name<T: Copy>(old_names: &[String], old: &[Option<T>], new_names: &[String]) -> Vec<Option<T>> {
    new_names.iter().map(|n| old_names.iter().zip(old).find(|(o, _)| *o == n).and_then(|(_, v)| *v)).collect()
}

/// The window runs `check` on every file it opens; the stored-bounds part skins every frame, so it runs only
/// while vertices × frames stay under this (every corpus file does; the Bounds section covers the rest).
const WINDOW_CHECK_BUDGET: u64 = 20_000_000;

/// The stored-bounds misses skin every frame: affordable for the window when vertices × frames stay small.
fn affordable(scene: &Scene) -> bool {
    let frames: u64 = scene.clips.iter().map(|c| u64::from(c.frame_count)).sum();
    (scene.vertices.len() as u64).saturating_mul(frames) <= WINDOW_CHECK_BUDGET
}

/// The pose shown and the skinned bounds of it, each with what it was computed for.
#[derive(Debug, Default)]
struct PoseCache {
    pose: Pose,
    /// What the clip gives each morph at the pose's frame, before the sliders' overrides and groups.
    clip_morphs: Vec<f32>,
    key: Option<PoseKey>,
    /// Bounds of the skinned mesh for `computed_key`'s pose; filled only when asked for (the Bounds section is
    /// open or the computed-bounds overlay is on).
    computed: Option<FrameBounds>,
    computed_key: Option<PoseKey>,
}

/// One open model with everything the viewer keeps for it. See the module docs.
pub struct Document {
    /// Identifies the document for the window, which keys its GPU model and camera on it; never 0.
    id: u64,
    /// The files the model was built from: the model, then its attachments.
    pub(super) sources: Vec<Source>,
    pub(super) model: Model,
    /// What `rigscope check` says about the model and its attachments (the Problems panel).
    pub(super) findings: Vec<Finding>,
    pub(super) player: Player,
    pose: PoseCache,
    /// What the panels derive from the model and remember until it changes: bounds, contributions, key frames.
    memo: Memos,
    /// Bumps whenever the model is rebuilt or its clips' values change: the pose is stale.
    revision: u64,
    /// The selected joint, body and curve.
    pub(super) selection: Selection,
    /// The selections before this one, and the pinned one.
    pub(super) history: History,
    pub(super) hidden_meshes: Vec<bool>,
    /// Per scene morph: the weight a Morphs slider holds in place of the clip's (`None`: the clip's).
    morph_overrides: Vec<Option<f32>>,
    /// Per IK chain: switched on or off by the IK section in place of the motion's switches (`None`: the motion's).
    ik_overrides: Vec<Option<bool>>,
    /// Where IK leaves a leg short of its target (the IK section's "Plant feet").
    ik_finish: crate::anim::IkFinish,
    /// Bumps whenever a morph or IK override changes: the pose is stale.
    morph_edits: u64,
    /// Attached clips' delta tracks are converted from MMD axes ([`crate::anim::mmd_to_model`]).
    pub(super) mmd_axes: bool,
    /// Where its textures are looked for: the model's folder, or one given with the bytes (the demo's).
    texture_dir: Option<PathBuf>,
    /// The materials' textures, found and decoded (what the window uploads); `None` without a texture folder.
    textures: Option<TextureSet>,
    /// Textures the materials name that weren't found; `None` until they were looked for.
    pub(super) missing_textures: Option<Vec<String>>,
    /// Reloads so far, and the file that changed last.
    pub(super) reloads: u64,
    pub(super) last_reload: Option<String>,
    /// One of its files changed on disk while another document was shown: rebuilt when shown.
    pub(super) stale: bool,
    /// Compare with…: the file it is compared with, drawn as a ghost (`None`: no comparison).
    pub(super) reference: Option<Box<Reference>>,
    /// On a reload of the model's own file, the version before becomes the reference.
    pub(super) keep_previous: bool,
    /// MMD physics of the model, made when first wanted (`None`: not wanted yet, or no rigid bodies), with the
    /// revision it was made for.
    physics: Option<crate::physics::Simulation>,
    physics_revision: Option<u64>,
    /// Bumps on a physics reset or new physics settings: the pose is stale.
    physics_edits: u64,
}

impl Document {
    /// A new document showing `built` from its default clip (`Scene::default_clip`, paused), at `speed`.
    /// `texture_dir`: where textures are looked for when the model has no folder of its own (the demo's).
    pub(super) fn new(
        id: u64,
        built: Built,
        sources: Vec<Source>,
        speed: f32,
        texture_dir: Option<PathBuf>,
    ) -> Document {
        let clip = built.model.scene.default_clip();
        let hidden_meshes = vec![false; built.model.scene.meshes.len()];
        let mut player = Player { speed, ..Player::default() };
        player.select(clip);
        let texture_dir = built.model.dir.clone().or(texture_dir);
        Document {
            id,
            sources,
            model: built.model,
            findings: built.findings,
            player,
            pose: PoseCache::default(),
            memo: Memos::default(),
            revision: 0,
            selection: Selection::default(),
            history: History::default(),
            hidden_meshes,
            morph_overrides: Vec::new(),
            ik_overrides: Vec::new(),
            ik_finish: crate::anim::IkFinish::Ccd,
            morph_edits: 0,
            mmd_axes: false,
            texture_dir,
            textures: None,
            missing_textures: None,
            reloads: 0,
            last_reload: None,
            stale: false,
            reference: None,
            keep_previous: false,
            physics: None,
            physics_revision: None,
            physics_edits: 0,
        }
    }

    /// Looks for the materials' textures and decodes them. Done when the model is about to be drawn
    /// ([`super::App::load_textures`]), so a document nobody draws decodes no image; again when a texture file
    /// changes.
    pub(super) fn load_textures(&mut self) {
        let Some(dir) = &self.texture_dir else { return };
        let set = TextureSet::load(&self.model.scene, Some(dir));
        self.missing_textures = Some(set.missing_paths().iter().map(|p| p.display().to_string()).collect());
        self.textures = Some(set);
    }

    /// Drops the loaded textures: they are looked for again when next drawn.
    pub(super) fn forget_textures(&mut self) {
        self.textures = None;
        self.missing_textures = None;
    }

    /// The textures to upload with the model: found and decoded, or `None` until loaded or when there is no
    /// folder to look in.
    pub fn textures(&self) -> Option<&TextureSet> {
        self.textures.as_ref()
    }

    /// The texture files the materials read or looked for (watched for hot reload).
    pub fn texture_files(&self) -> &[PathBuf] {
        self.textures.as_ref().map_or(&[], TextureSet::files)
    }

    /// Shows a freshly built model in place of this one, restoring `memory` (clip by name, frame, playing,
    /// joint, hidden meshes, curve). `new_geometry`: the model's own file changed, so textures are looked for
    /// again.
    pub(super) fn install(&mut self, built: Built, sources: Vec<Source>, memory: ViewMemory, new_geometry: bool) {
        let scene = &built.model.scene;
        let clip = memory.clip_in(scene);
        // The joint and curve are kept by name; what else was selected, and the history, held indices into
        // the model before.
        self.selection =
            Selection { joint: memory.joint_in(scene), curve: memory.curve_in(scene), ..Selection::default() };
        self.history = History::default();
        self.hidden_meshes = memory.hidden_in(scene);
        // Overrides are kept by name: a morph's, an IK chain's bone.
        let old = &self.model.scene;
        let morph_names = |s: &crate::scene::Scene| s.morphs.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
        let chain_names = |s: &crate::scene::Scene| {
            s.constraints.ik.iter().map(|c| s.skeleton.display_name(c.joint)).collect::<Vec<_>>()
        };
        self.morph_overrides = by_name(&morph_names(old), &self.morph_overrides, &morph_names(scene));
        self.ik_overrides = by_name(&chain_names(old), &self.ik_overrides, &chain_names(scene));
        self.morph_edits += 1;
        self.player.select(clip);
        if let Some(c) = clip.and_then(|c| scene.clips.get(c)) {
            let c = c.clone_meta();
            self.player.set_frame(&c, memory.frame);
        }
        self.player.playing = memory.playing && clip.is_some();
        self.findings = built.findings;
        self.model = built.model;
        self.sources = sources;
        self.revision += 1;
        if new_geometry {
            // Looked for again when next drawn.
            self.missing_textures = None;
            self.textures = None;
        }
    }

    /// What a rebuild keeps of the view.
    pub(super) fn view_memory(&self) -> ViewMemory {
        ViewMemory::take(&self.model, &self.player, self.selection.joint, &self.hidden_meshes, self.selection.curve)
    }

    /// Changes whenever the model does (a rebuild, a changed override): what is derived from it is stale.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// The open model with its name, folder and attachments.
    pub fn model(&self) -> &Model {
        &self.model
    }

    pub fn scene(&self) -> &Scene {
        &self.model.scene
    }

    /// The files the model was built from: the model, then its attachments.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    pub fn player(&self) -> &Player {
        &self.player
    }

    /// The current pose (the bind pose without a clip), as of the last [`Document::refresh`].
    pub fn pose(&self) -> &Pose {
        &self.pose.pose
    }

    /// The skinned bounds of the current pose, when they were asked for.
    pub fn computed_bounds(&self) -> Option<FrameBounds> {
        self.pose.computed
    }

    /// The model's folder (textures are looked for there); `None` when opened from memory.
    pub fn dir(&self) -> Option<&Path> {
        self.model.dir.as_deref()
    }

    pub(super) fn current_clip(&self) -> Option<&Clip> {
        self.model.scene.clips.get(self.player.clip?)
    }

    /// What the pose shown was computed for (changes whenever it does), for caches of things derived from it.
    pub(super) fn pose_stamp(&self) -> Option<PoseKey> {
        self.pose.key
    }

    /// Where the model's textures are looked for.
    pub(super) fn texture_dir(&self) -> Option<&Path> {
        self.texture_dir.as_deref()
    }

    /// The name of the model's own file ("" for none).
    pub(super) fn model_name(&self) -> &str {
        self.sources.first().map_or("", |s| s.name.as_str())
    }

    /// The reference posed as this document shows its model ([`Reference::posed`]); `None` without one.
    pub fn reference_pose(&self) -> Option<std::cell::Ref<'_, Pose>> {
        let r = self.reference.as_deref()?;
        let frame = self.current_clip_frame().map(|(_, f)| f);
        Some(r.posed(self.pose_stamp(), self.current_clip().map(|c| c.name.as_str()), frame))
    }

    /// Where the ground grid goes: under the lowest point the model reaches in the shown clip (`bind_pose`: the
    /// bind pose's), along its up axis in model space.
    pub fn ground(&self, bind_pose: bool) -> Option<f32> {
        let bounds = self.clip_bounds(self.player.clip.filter(|_| !bind_pose))?;
        Some(crate::render::ground_height(self.model.scene.up, &bounds))
    }

    /// The bounds of the model posed over clip `clip` (`None`: the bind pose), as the view is framed on them
    /// and the ground put under them ([`crate::render::animation_bounds`], `FRAMING_SAMPLES` frames). They
    /// skin the mesh at every sampled frame, so they are computed once per clip until the document changes.
    pub fn clip_bounds(&self, clip: Option<usize>) -> Option<FrameBounds> {
        let key = (self.revision, clip);
        if let Some((k, b)) = self.memo.clip_bounds.get()
            && k == key
        {
            return b;
        }
        let scene = &self.model.scene;
        let b = crate::render::animation_bounds(scene, clip, DEFAULT_FPS, &[], crate::render::FRAMING_SAMPLES);
        self.memo.clip_bounds.set(Some((key, b)));
        b
    }

    /// The key frames of clip `clip` ([`crate::scene::Clip::key_frames`]), or of joint `joint`'s tracks in it,
    /// remembered until the clip changes or its values do, so the timeline doesn't collect and sort every key
    /// each frame.
    pub fn key_frames(&self, clip: usize, joint: Option<usize>) -> std::rc::Rc<[f32]> {
        let Some(c) = self.scene().clips.get(clip) else { return std::rc::Rc::from([]) };
        self.memo.key_frames.get_or(self.revision, (clip, joint), || match joint {
            Some(j) => c.joint_key_frames(j, DEFAULT_FPS).into(),
            None => c.key_frames(DEFAULT_FPS).into(),
        })
    }

    /// The selected rigid body (the Physics tab's), if any.
    pub fn selected_body(&self) -> Option<usize> {
        self.selection.body
    }

    /// The outliner's facts about the joints (names, tree, IK, bodies, weights), taken once per model.
    pub fn outline_facts(&self) -> std::rc::Rc<outline::OutlineFacts> {
        self.memo.outline_facts.get_or(self.revision, (), || std::rc::Rc::new(outline::OutlineFacts::of(self.scene())))
    }

    /// The key row of `item` in clip `clip` (keys by channel, held runs), taken once per clip and item.
    pub fn row_keys(&self, clip: usize, item: dopesheet::RowItem) -> std::rc::Rc<dopesheet::RowKeys> {
        let scene = self.scene();
        self.memo.rows.get_or(self.revision, (clip, item), || {
            let Some(c) = scene.clips.get(clip) else { return Default::default() };
            let fps = c.fps(DEFAULT_FPS);
            std::rc::Rc::new(match item {
                dopesheet::RowItem::Joint(j) => dopesheet::joint_row(c, j, fps),
                dopesheet::RowItem::Morph(m) => {
                    scene.morphs.get(m).map(|m| dopesheet::morph_row(c, &m.name, fps)).unwrap_or_default()
                }
                dopesheet::RowItem::Camera(k) => {
                    scene.cameras.get(k).map(|k| dopesheet::camera_row(k, fps)).unwrap_or_default()
                }
            })
        })
    }

    /// Which joints and morphs clip `clip` keys, taken once per clip.
    pub fn clip_keys(&self, clip: usize) -> std::rc::Rc<outline::ClipKeys> {
        self.memo.clip_keys.get_or(self.revision, clip, || std::rc::Rc::new(outline::ClipKeys::of(self.scene(), clip)))
    }

    /// Joint `joint`'s local transform at every whole frame of clip `clip`, from 0 to the last frame the clip
    /// shows, as played ([`crate::anim::sample_joint`]); remembered until the clip or its values change, so the
    /// Curves tab doesn't sample a 2 800-frame dance each frame.
    pub fn joint_curve(&self, clip: usize, joint: usize) -> std::rc::Rc<[crate::scene::Transform]> {
        let scene = self.scene();
        let (Some(c), Some(j)) = (scene.clips.get(clip), scene.skeleton.joints.get(joint)) else {
            return std::rc::Rc::from([]);
        };
        self.memo.curves.get_or(self.revision, (clip, joint), || sample_frames(c, joint, c.frame_span(), j.bind))
    }

    /// The Compare reference's counterpart of joint `joint` (by name) in its clip of the same name as clip
    /// `clip`, at the same frames as [`Document::joint_curve`]: the Curves tab's ghost curves. `None` without a
    /// reference, a counterpart or such a clip.
    pub fn reference_curve(&self, clip: usize, joint: usize) -> Option<std::rc::Rc<[crate::scene::Transform]>> {
        let r = self.reference.as_deref()?;
        let ours = self.scene().clips.get(clip)?;
        self.memo.reference_curves.get_or(self.revision, (clip, joint, r.stamp), || {
            let k = r.counterpart(joint)?;
            let theirs = r.scene.clips.iter().find(|c| c.name == ours.name)?;
            let bind = r.scene.skeleton.joints.get(k)?.bind;
            Some(sample_frames(theirs, k, ours.frame_span(), bind))
        })
    }

    /// The motion trails of the selected joints (the trails of [`crate::anim::motion_trail`] over `n` frames
    /// each side of `frame` in clip `clip`, their keys marked), at most [`TRAILS`] of them.
    pub fn trails(&self, clip: usize, frame: f32, n: u32) -> Vec<crate::anim::Trail> {
        let scene = self.scene();
        let Some(c) = scene.clips.get(clip) else { return Vec::new() };
        self.trail_joints()
            .into_iter()
            .map(|j| {
                crate::anim::motion_trail(&scene.skeleton, c, j, frame, n, &self.key_frames(clip, Some(j)), DEFAULT_FPS)
            })
            .collect()
    }

    /// The joints that get a motion trail: the selected ones (a group's all), at most [`TRAILS`].
    pub fn trail_joints(&self) -> Vec<usize> {
        self.selection.joints().take(TRAILS).collect()
    }

    /// Morph `morph`'s name, its weight at every whole frame of clip `clip` (eased between an MMD motion's keys)
    /// and its key frames; `None` when the clip has no track for it.
    pub fn morph_curve(&self, clip: usize, morph: usize) -> Option<memo::MorphCurve> {
        let scene = self.scene();
        let (c, m) = (scene.clips.get(clip)?, scene.morphs.get(morph)?);
        self.memo.morph_curves.get_or(self.revision, (clip, morph), || {
            let track = c.morphs.iter().find(|t| t.name == m.name)?;
            let fps = c.fps(DEFAULT_FPS);
            let frames = c.frame_span().floor() as usize + 1;
            let weights =
                (0..frames).map(|f| crate::anim::sample_morph_track(track, f as f32 / fps).unwrap_or(0.0)).collect();
            let keys = track.keys.iter().map(|k| k.time * fps).filter(|f| f.is_finite()).collect();
            Some((m.name.as_str().into(), weights, keys))
        })
    }

    pub fn current_clip_frame(&self) -> Option<(usize, f32)> {
        let clip = self.current_clip()?;
        Some((self.player.clip?, self.player.frame(clip)))
    }

    /// Seconds into the clip shown (0 without one).
    pub fn clip_time(&self) -> f32 {
        self.current_clip().map_or(0.0, |c| self.player.frame(c) / c.fps(DEFAULT_FPS))
    }

    /// The animated camera that plays with the current clip (by clip name), else the first with keys.
    pub fn camera_track(&self) -> Option<&CameraTrack> {
        let scene = &self.model.scene;
        let name = self.current_clip().map(|c| c.name.as_str());
        let keyed = scene.cameras.iter().filter(|c| !c.keys.is_empty());
        keyed.clone().find(|c| name.is_some() && c.clip.as_deref() == name).or(keyed.clone().next())
    }

    /// The joints the pose lists: RSM nodes count as joints in file order.
    pub(super) fn joint_count_for_pose(&self) -> usize {
        self.model.scene.rsm.as_ref().map_or(self.model.scene.skeleton.len(), |r| r.nodes.len())
    }

    /// Recomputes the pose if time, clip or model changed (`bind_pose`: show the bind pose instead), and the
    /// skinned bounds when `want_bounds`.
    /// `physics`: simulate the rigid bodies with these settings (`None`: the motion's pose alone); `look_at`: a
    /// point (model space) a VRM avatar looks toward in place of the motion's look-at.
    pub(super) fn refresh(
        &mut self,
        bind_pose: bool,
        want_bounds: bool,
        physics: Option<crate::physics::PhysicsSettings>,
        look_at: Option<glam::Vec3>,
    ) {
        let physics = physics.filter(|_| !bind_pose && self.has_rigid_bodies());
        if let Some(settings) = physics {
            self.prepare_physics(settings);
        }
        // Only an avatar with a look-at turns toward it (for another model a moving camera changes no pose).
        let looks = self.model.scene.vrm.as_ref().is_some_and(|v| v.look_at.is_some());
        let look_at = look_at.filter(|_| !bind_pose && looks);
        let key = PoseKey {
            look_at: look_at.map(|p| p.to_array().map(f32::to_bits)),
            ..self.pose_key(bind_pose, physics.is_some())
        };
        let scene = &self.model.scene;
        if self.pose.key != Some(key) {
            self.pose.key = Some(key);
            let shown = self.player.clip.and_then(|c| scene.clips.get(c)).filter(|_| !bind_pose);
            let frame = shown.map_or(0.0, |clip| self.player.frame(clip));
            let input = crate::anim::PoseInput::at(shown, frame, DEFAULT_FPS)
                .with_overrides(&self.morph_overrides)
                .with_ik(&self.ik_overrides)
                .with_finish(self.ik_finish)
                .with_look_at(look_at);
            let sim = self.physics.as_mut().filter(|_| physics.is_some());
            self.pose.clip_morphs =
                crate::physics::pose_frame(scene, sim, &input, crate::physics::Seek::Held, &mut self.pose.pose);
        }
        if want_bounds && self.pose.computed_key != Some(key) {
            self.pose.computed_key = Some(key);
            let vertices = crate::anim::morphed_vertices(scene, &self.pose.pose.morphs);
            self.pose.computed = crate::anim::skinned_bounds(&vertices, &self.pose.pose.palette);
        }
    }

    /// The model has something to simulate: rigid bodies (PMX, PMD) or spring bones (VRM).
    pub fn has_rigid_bodies(&self) -> bool {
        let scene = &self.model.scene;
        scene.mmd.as_ref().is_some_and(|m| !m.rigid_bodies.is_empty())
            || scene.springs.as_ref().is_some_and(|s| !s.is_empty())
    }

    /// Makes the simulation for the model shown (again after a rebuild) and gives it `settings`.
    fn prepare_physics(&mut self, settings: crate::physics::PhysicsSettings) {
        if self.physics_revision != Some(self.revision) {
            self.physics_revision = Some(self.revision);
            self.physics = crate::physics::Simulation::new(&self.model.scene, settings);
            self.physics_edits += 1;
            self.selection.body =
                self.selection.body.filter(|&b| self.physics.as_ref().is_some_and(|s| b < s.rig().bodies.len()));
        } else if let Some(sim) = self.physics.as_mut().filter(|s| s.settings() != settings) {
            sim.set_settings(settings);
            self.physics_edits += 1;
        }
    }

    /// The simulation, once physics has run for this model (its bodies' places are the last pose's).
    pub fn physics(&self) -> Option<&crate::physics::Simulation> {
        self.physics.as_ref().filter(|_| self.physics_revision == Some(self.revision))
    }

    /// Physics starts over from the pose shown (placed, then warmed up).
    pub(super) fn reset_physics(&mut self) {
        if let Some(sim) = self.physics.as_mut() {
            sim.invalidate();
            self.physics_edits += 1;
        }
    }

    /// The pose shown was computed with physics.
    pub fn physics_shown(&self) -> bool {
        self.pose.key.is_some_and(|k| k.physics)
    }

    fn pose_key(&self, bind_pose: bool, physics: bool) -> PoseKey {
        let clip = self.current_clip();
        PoseKey {
            revision: self.revision,
            clip: clip.map(|_| self.player.clip.unwrap_or(0)),
            frame: clip.map_or(0, |c| self.player.frame(c).to_bits()),
            looping: clip.is_some_and(|c| c.looping),
            bind_pose,
            morph_edits: self.morph_edits,
            physics,
            physics_edits: self.physics_edits,
            look_at: None,
        }
    }

    /// Morph `i`'s weight: the slider's when one is held, else what the clip gives it now (as of the last
    /// [`Document::refresh`]), and whether a slider holds it.
    pub fn morph_weight(&self, i: usize) -> (f32, bool) {
        match self.morph_overrides.get(i).copied().flatten() {
            Some(w) => (w, true),
            None => (self.pose.clip_morphs.get(i).copied().unwrap_or(0.0), false),
        }
    }

    /// Holds morph `i` at `weight` in place of the clip's weight (`None`: let the clip drive it again).
    pub(super) fn set_morph_override(&mut self, i: usize, weight: Option<f32>) {
        if i >= self.model.scene.morphs.len() {
            return;
        }
        self.morph_overrides.resize(self.model.scene.morphs.len(), None);
        let weight = weight.filter(|w| w.is_finite());
        if self.morph_overrides[i] != weight {
            self.morph_overrides[i] = weight;
            self.morph_edits += 1;
        }
    }

    /// What makes joint `j`'s local transform at the shown frame, for a joint an append or IK chain moves: the
    /// motion's key (with bone morphs), then with the appends applied (IK off), then as shown (IK as switched).
    /// `None` for a joint no constraint moves, or without a pose.
    pub fn contributions(&self, j: usize) -> Option<[crate::scene::Transform; 3]> {
        let scene = &self.model.scene;
        let c = &scene.constraints;
        let constrained =
            c.append.iter().any(|a| a.joint == j) || c.ik.iter().any(|ch| ch.links.iter().any(|l| l.joint == j));
        let shown = *self.pose.pose.locals.get(j)?;
        if !constrained {
            return None;
        }
        // Two extra poses: computed once per pose shown and joint, not every frame the panel is drawn.
        let key = (self.pose.key, j);
        if let Some((k, steps)) = self.memo.contributions.get()
            && k == key
        {
            return Some(steps);
        }
        let clip = self.pose.key.as_ref().filter(|k| !k.bind_pose).and_then(|_| self.current_clip());
        let frame = clip.map_or(0.0, |clip| self.player.frame(clip));
        let mut pose = Pose::default();
        let ik_off = vec![Some(false); c.ik.len()];
        pose.update_scene_with(scene, clip, frame, DEFAULT_FPS, &self.morph_overrides, &ik_off);
        let appended = *pose.locals.get(j)?;
        let mut keyed = match clip {
            Some(clip) => Pose::sample(&scene.skeleton, clip, frame, DEFAULT_FPS),
            None => Pose::bind(&scene.skeleton),
        };
        crate::anim::apply_bone_morphs(&scene.morphs, &pose.morphs, &mut keyed.locals);
        let steps = [*keyed.locals.get(j)?, appended, shown];
        self.memo.contributions.set(Some((key, steps)));
        Some(steps)
    }

    /// IK chain `c`: whether it is solved now, and whether the IK section holds it so (else the motion's
    /// switches decide, as of the last [`Document::refresh`]).
    pub fn ik_enabled(&self, c: usize) -> (bool, bool) {
        if let Some(on) = self.ik_overrides.get(c).copied().flatten() {
            return (on, true);
        }
        let scene = &self.model.scene;
        let name =
            scene.constraints.ik.get(c).and_then(|ch| scene.skeleton.joints.get(ch.joint)).map(|j| j.name.as_str());
        let clip = self.current_clip();
        let time = clip.map_or(0.0, |clip| self.player.frame(clip) / clip.fps(DEFAULT_FPS));
        (crate::anim::ik_switched_on(clip.map_or(&[], |c| &c.ik_switches), name, time), false)
    }

    /// Switches IK chain `c` on or off in place of the motion (`None`: the motion's switches decide again).
    pub(super) fn set_ik_override(&mut self, c: usize, on: Option<bool>) {
        let n = self.model.scene.constraints.ik.len();
        if c >= n {
            return;
        }
        self.ik_overrides.resize(n, None);
        if self.ik_overrides[c] != on {
            self.ik_overrides[c] = on;
            self.morph_edits += 1;
        }
    }

    /// Where IK leaves a leg short of its target now.
    pub fn ik_finish(&self) -> crate::anim::IkFinish {
        self.ik_finish
    }

    /// Plants feet on their IK bones, or leaves them where MikuMikuDance's CCD does.
    pub(super) fn set_ik_finish(&mut self, finish: crate::anim::IkFinish) {
        if self.ik_finish != finish {
            self.ik_finish = finish;
            self.morph_edits += 1;
        }
    }

    /// Lets the clip drive every morph again.
    pub(super) fn clear_morph_overrides(&mut self) {
        if self.morph_overrides.iter().any(Option::is_some) {
            self.morph_overrides.iter_mut().for_each(|o| *o = None);
            self.morph_edits += 1;
        }
    }

    /// Converts the attached clips' delta tracks to the model's axes (on) or back (off).
    pub(super) fn set_mmd_axes(&mut self, on: bool) {
        if on == self.mmd_axes {
            return;
        }
        self.mmd_axes = on;
        let m = crate::anim::mmd_to_model(self.model.scene.up);
        let m = if on { m } else { m.inverse() };
        for c in self.model.scene.clips.iter_mut().filter(|c| c.source.is_some()) {
            crate::anim::convert_deltas(c, m);
        }
        // The pose (not the framing or the GPU data) depends on the clips' values.
        self.revision += 1;
    }

    /// Shows what `place` points at: its animation and frame (paused there), and its joint or mesh.
    pub(super) fn go_to(&mut self, place: &Place) {
        let clips = self.model.scene.clips.len();
        if let Some(c) = place.clip.filter(|&c| c < clips) {
            self.player.select(Some(c));
            self.player.playing = false;
            if let Some(clip) = self.current_clip().map(ClipMeta::clone_meta) {
                self.player.set_frame(&clip, place.frame.unwrap_or(0) as f32);
            }
        }
        let body = place.body.and_then(|b| self.body_bone(b).map(|joint| (b, joint)));
        let joint = place.joint.or(body.and_then(|(_, j)| j)).filter(|&j| j < self.model.scene.skeleton.len());
        let mesh = place.mesh.filter(|&m| m < self.model.scene.meshes.len());
        let body = body.map(|(b, _)| b);
        if joint.is_some() || mesh.is_some() || body.is_some() {
            self.selection = Selection { joint, mesh, body, curve: self.selection.curve, ..Selection::default() };
        }
    }

    /// For rigid body `b` of the file (`None` when it has none such): the joint of its bone, where it has one.
    pub(super) fn body_bone(&self, b: usize) -> Option<Option<usize>> {
        let mmd = self.model.scene.mmd.as_deref()?;
        let body = mmd.rigid_bodies.get(b)?;
        let joint = body.bone.and_then(|bone| mmd.bones.get(bone)).map(|bone| bone.joint);
        Some(joint.filter(|&j| j < self.model.scene.skeleton.len()))
    }

    /// True when the model was read from `key` (a [`crate::watch::watch_key`]).
    pub(super) fn is_model_at(&self, key: &Path) -> bool {
        self.sources.first().is_some_and(|s| s.is_at(key))
    }

    /// True when any of its files was read from one of `keys`.
    pub(super) fn reads_any(&self, keys: &[PathBuf]) -> bool {
        self.sources.iter().any(|s| keys.iter().any(|k| s.is_at(k)))
    }

    /// True when any of its texture files lives at one of `keys`.
    pub(super) fn reads_texture(&self, keys: &[PathBuf]) -> bool {
        self.texture_files().iter().any(|t| keys.contains(&crate::watch::watch_key(t)))
    }

    /// Opened from a file (not from memory, as the demo is).
    pub(super) fn is_from_file(&self) -> bool {
        self.sources.first().is_some_and(|s| s.path.is_some())
    }
}

/// What a rebuild keeps of the view, by name where indices may shift.
#[derive(Debug, Clone, Default)]
pub(super) struct ViewMemory {
    pub clip: Option<(String, usize)>,
    pub frame: f32,
    pub playing: bool,
    pub joint: Option<String>,
    pub hidden: Vec<String>,
    pub curve: Option<CurveTarget>,
    pub curve_joint: Option<String>,
}

impl ViewMemory {
    pub fn take(
        model: &Model,
        player: &Player,
        joint: Option<usize>,
        hidden: &[bool],
        curve: Option<CurveTarget>,
    ) -> Self {
        let scene = &model.scene;
        let clip = player.clip.and_then(|i| Some((scene.clips.get(i)?.name.clone(), i)));
        let frame = player.clip.and_then(|i| scene.clips.get(i)).map_or(0.0, |c| player.frame(c));
        let joint_name = |j: usize| scene.skeleton.joints.get(j).map(|j| j.name.clone());
        ViewMemory {
            clip,
            frame,
            playing: player.playing,
            joint: joint.and_then(joint_name),
            hidden: scene.meshes.iter().zip(hidden).filter(|(_, h)| **h).map(|(m, _)| m.name.clone()).collect(),
            curve,
            curve_joint: match curve {
                Some(CurveTarget::Joint(j)) => joint_name(j),
                _ => None,
            },
        }
    }

    /// The clip to show in `scene`: the one of the same name, else the same index, else the first.
    pub fn clip_in(&self, scene: &Scene) -> Option<usize> {
        let (name, index) = match &self.clip {
            Some(c) => c,
            None => return scene.default_clip(),
        };
        let by_name = scene.clips.iter().position(|c| &c.name == name);
        by_name.or((*index < scene.clips.len()).then_some(*index)).or_else(|| scene.default_clip())
    }

    pub fn joint_in(&self, scene: &Scene) -> Option<usize> {
        let name = self.joint.as_ref()?;
        scene.skeleton.joints.iter().position(|j| &j.name == name)
    }

    pub fn hidden_in(&self, scene: &Scene) -> Vec<bool> {
        scene.meshes.iter().map(|m| self.hidden.contains(&m.name)).collect()
    }

    pub fn curve_in(&self, scene: &Scene) -> Option<CurveTarget> {
        match self.curve? {
            CurveTarget::Joint(_) => {
                let name = self.curve_joint.as_ref()?;
                scene.skeleton.joints.iter().position(|j| &j.name == name).map(CurveTarget::Joint)
            }
            CurveTarget::Camera(i) => (i < scene.cameras.len()).then_some(CurveTarget::Camera(i)),
        }
    }
}

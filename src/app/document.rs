//! Open models as documents: the files each was built from (so it can be rebuilt when one changes on disk or
//! an attachment is detached), the state of a model that sits in a background tab, and what survives a
//! rebuild (the animation, the frame, the selected joint, hidden meshes).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::model::{Attachment, Model};
use super::{App, BOUNDS_TOLERANCE, CurveTarget, Notice, Player, WINDOW_CHECK_BUDGET};
use crate::anim::attach;
use crate::check::Finding;
use crate::scene::Scene;

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
/// converted as [`super::App`] does when the switch is on. Runs `check` on every file, skinning every frame
/// for the stored-bounds part only while vertices × frames stay within [`WINDOW_CHECK_BUDGET`].
/// `preloaded`: a source already parsed by the caller (by index), not parsed again.
pub(super) fn build(
    sources: &[Source],
    mmd_axes: bool,
    mut preloaded: Option<(usize, Scene)>,
) -> Result<Built, BuildError> {
    let fail = |source: usize, message: String| BuildError { source, message };
    let mut load = |i: usize, s: &Source| match preloaded.take_if(|(j, _)| *j == i) {
        Some((_, scene)) => Ok(scene),
        None => crate::load_bytes(&s.name, &s.bytes).map_err(|e| fail(i, e.to_string())),
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
        // An attached file is animation only: nothing of its own to skin.
        findings.extend(crate::check::check_loaded(&s.name, &s.bytes, &anim, None, s.dir().as_deref()));
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

/// The stored-bounds misses skin every frame: affordable for the window when vertices × frames stay small.
fn affordable(scene: &Scene) -> bool {
    let frames: u64 = scene.clips.iter().map(|c| u64::from(c.frame_count)).sum();
    (scene.vertices.len() as u64).saturating_mul(frames) <= WINDOW_CHECK_BUDGET
}

/// A model in a background tab: everything the app keeps per model, parked until its tab is shown again.
pub(super) struct Parked {
    pub id: u64,
    pub model: Model,
    pub sources: Vec<Source>,
    pub player: Player,
    pub selected_joint: Option<usize>,
    pub hidden_meshes: Vec<bool>,
    pub findings: Vec<Finding>,
    pub curve: Option<CurveTarget>,
    pub mmd_axes: bool,
    pub follow_camera: bool,
    pub reloads: u64,
    pub last_reload: Option<String>,
    /// One of its files changed on disk while it was parked: rebuilt when shown.
    pub stale: bool,
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
            None => return (!scene.clips.is_empty()).then_some(0),
        };
        let by_name = scene.clips.iter().position(|c| &c.name == name);
        by_name.or((*index < scene.clips.len()).then_some(*index)).or((!scene.clips.is_empty()).then_some(0))
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

impl App {
    /// The files to watch for hot reload: every open model's files and attachments (none while hot reload is
    /// off). Files opened from memory have no path and are not watched.
    pub fn watched_files(&self) -> Vec<PathBuf> {
        if !self.watch {
            return Vec::new();
        }
        let parked = self.tabs.iter().flatten().flat_map(|p| p.sources.iter());
        let mut out: Vec<PathBuf> = self.sources.iter().chain(parked).filter_map(|s| s.path.clone()).collect();
        out.sort();
        out.dedup();
        out
    }

    /// Files changed on disk (from the watcher): the shown model is rebuilt from its files, keeping its
    /// animation, frame, joint and hidden meshes (the window keeps the camera); models in other tabs are
    /// rebuilt when shown. A file that fails to load leaves the last good version shown, with the error as a
    /// notice that goes once the file loads again. Returns the names of the files reloaded now.
    pub fn files_changed(&mut self, paths: &[PathBuf]) -> Vec<String> {
        if !self.watch {
            return Vec::new();
        }
        let keys: Vec<PathBuf> = paths.iter().map(|p| crate::watch::watch_key(p)).collect();
        for p in self.tabs.iter_mut().flatten() {
            if p.sources.iter().any(|s| keys.iter().any(|k| s.is_at(k))) {
                p.stale = true;
            }
        }
        let reloaded = self.reload_shown(&keys);
        self.refresh();
        reloaded
    }

    /// Re-reads the shown model's files that live at `keys` and rebuilds it when any changed.
    pub(super) fn reload_shown(&mut self, keys: &[PathBuf]) -> Vec<String> {
        let mut sources = self.sources.clone();
        let mut changed = Vec::new();
        let mut unchanged = Vec::new();
        for (i, s) in sources.iter_mut().enumerate() {
            let Some(path) = s.path.clone().filter(|p| keys.contains(&crate::watch::watch_key(p))) else { continue };
            match std::fs::read(&path) {
                Ok(bytes) if *bytes != *s.bytes => {
                    s.bytes = Arc::from(bytes);
                    changed.push(i);
                }
                // Back to the version shown (a failed save undone): its failure no longer applies.
                Ok(_) => unchanged.push(s.name.clone()),
                // Gone for now (an exporter deleting before writing): the next write reloads it.
                Err(e) => {
                    let message = format!("{}: cannot reload: {e}; showing the last good version", s.name);
                    self.reload_failed(&s.name, message);
                }
            }
        }
        self.clear_reload_errors(&unchanged);
        if changed.is_empty() {
            return Vec::new();
        }
        let names: Vec<String> = changed.iter().map(|&i| sources[i].name.clone()).collect();
        match build(&sources, self.mmd_axes, None) {
            Ok(built) => {
                let memory = self.view_memory();
                self.install(built, sources, memory, changed.contains(&0));
                self.reloads += 1;
                self.last_reload = names.last().cloned();
                // The files load again: their failure notices go.
                self.clear_reload_errors(&names);
                names
            }
            Err(e) => {
                let name = sources.get(e.source).map_or_else(String::new, |s| s.name.clone());
                self.reload_failed(&name, format!("reload failed, showing the last good version: {}", e.message));
                Vec::new()
            }
        }
    }

    /// Takes down the failed-reload notices of `files`.
    fn clear_reload_errors(&mut self, files: &[String]) {
        let fixed: Vec<String> =
            self.reload_errors.iter().filter(|(f, _)| files.contains(f)).map(|(_, m)| m.clone()).collect();
        self.notices.retain(|n| !fixed.contains(&n.message));
        self.reload_errors.retain(|(f, _)| !files.contains(f));
    }

    /// A failed reload: a notice (replacing the file's previous one) and a problem.
    fn reload_failed(&mut self, file: &str, message: String) {
        let old: Vec<String> = self.reload_errors.iter().filter(|(f, _)| f == file).map(|(_, m)| m.clone()).collect();
        self.notices.retain(|n| !old.contains(&n.message));
        self.reload_errors.retain(|(f, _)| f != file);
        self.reload_errors.push((file.to_string(), message.clone()));
        self.notices.push(Notice::error(message.clone()));
        self.problems.push(super::Problem { message, file: Some(file.to_string()) });
    }

    /// Removes attached file `i`: the model is rebuilt from the rest (its clips go; the view stays).
    pub(super) fn detach(&mut self, i: usize) {
        if i + 1 >= self.sources.len() {
            return;
        }
        let mut sources = self.sources.clone();
        let gone = sources.remove(i + 1);
        match build(&sources, self.mmd_axes, None) {
            Ok(built) => {
                let memory = self.view_memory();
                self.install(built, sources, memory, false);
                self.notices.push(Notice::info(format!("{}: detached", gone.name)));
            }
            Err(e) => self.report(e.message, Some(gone.name)),
        }
    }

    /// The files the shown model was built from: the model, then its attachments.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// How often the shown model was reloaded, and the file that changed last.
    pub fn reloads(&self) -> (u64, Option<&str>) {
        (self.reloads, self.last_reload.as_deref())
    }
}

//! The open model: its scene, where it came from, what was attached to it, and the bounds checks computed
//! once from it.

use std::path::PathBuf;

use crate::anim::BOUNDS_TOLERANCE;
use crate::anim::{AttachReport, BoundsMiss};
use crate::error::Warning;
use crate::scene::{Clip, ClipData, Scene};

/// An animation file attached to the model.
#[derive(Debug, Clone)]
pub struct Attachment {
    pub report: AttachReport,
    /// The attached file's format ("IQM", "IQE", "MVD").
    pub format: String,
    /// The attached file's own warnings.
    pub warnings: Vec<Warning>,
    /// The attached file's MVD facts, when it is an MVD (the MVD section lists them).
    pub mvd: Option<Box<crate::scene::MvdInfo>>,
}

/// The open model and what is derived from it once.
#[derive(Debug, Clone)]
pub struct Model {
    pub scene: Scene,
    /// The file's name as given.
    pub name: String,
    /// The folder it was read from (textures are looked for there); `None` when opened from memory.
    pub dir: Option<PathBuf>,
    /// Each clip's loop flag as the file stores it (playback may override the scene's).
    pub file_looping: Vec<bool>,
    pub attachments: Vec<Attachment>,
    /// `stored_bounds_warnings`, computed the first time the file section shows.
    pub(in crate::app) bounds_warnings: Option<Vec<Warning>>,
    /// `stored_bounds_misses` over every clip: computed at open when affordable (for the Problems panel too),
    /// otherwise the first time the bounds section shows.
    pub(in crate::app) misses: Option<Vec<BoundsMiss>>,
}

impl Model {
    pub(in crate::app) fn new(scene: Scene, name: String, dir: Option<PathBuf>) -> Model {
        let file_looping = scene.clips.iter().map(|c| c.looping).collect();
        Model { scene, name, dir, file_looping, attachments: Vec::new(), bounds_warnings: None, misses: None }
    }

    /// Warnings from comparing stored per-frame bounds with the skinned mesh, made from [`Model::misses`] so
    /// every frame is skinned once for both.
    pub fn bounds_warnings(&mut self) -> &[Warning] {
        if self.bounds_warnings.is_none() {
            self.misses();
            let misses = self.misses.as_deref().unwrap_or_default();
            let warnings = crate::anim::bounds_miss_warnings(&self.scene, misses);
            self.bounds_warnings = Some(warnings);
        }
        self.bounds_warnings.as_deref().unwrap_or_default()
    }

    /// Frames whose stored bounds miss the skinned mesh (skins every frame once).
    pub fn misses(&mut self) -> &[BoundsMiss] {
        self.misses.get_or_insert_with(|| crate::anim::stored_bounds_misses(&self.scene, BOUNDS_TOLERANCE))
    }
}

/// A clip's playback description without its frames, so playback maths can run while the scene is borrowed
/// mutably (cloning a sampled clip's frames every frame would be wasteful).
pub(in crate::app) trait ClipMeta {
    fn clone_meta(&self) -> Clip;
}

impl ClipMeta for Clip {
    fn clone_meta(&self) -> Clip {
        Clip {
            name: String::new(),
            frame_rate: self.frame_rate,
            looping: self.looping,
            frame_count: self.frame_count,
            first_frame: self.first_frame,
            data: ClipData::Keyed { tracks: Vec::new() },
            bounds: None,
            source: None,
            morphs: Vec::new(),
            ik_switches: Vec::new(),
            physics_switches: Vec::new(),
            visibility: Vec::new(),
            gravity: Vec::new(),
        }
    }
}

//! What the panels derive from a document's model and remember until it changes, so a section drawn every frame
//! doesn't redo work that skins or sorts the whole clip: the clip's framing bounds (the Bounds section, framing),
//! one joint's contributions (the Picked section), the outliner's facts, and the timeline's key frames, rows and
//! curves. Each entry carries the key it was computed for (the document's revision, the clip, the joint, the
//! pose) and is recomputed when that changes; `PerRevision` keeps many such entries for one revision.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use super::PoseKey;
use crate::scene::{FrameBounds, Transform};

/// The pose shown and the joint, and what the key, the appends and IK made of the joint's local transform.
pub(super) type ContributionsMemo = ((Option<PoseKey>, usize), [Transform; 3]);

/// What a clip's bounds were computed for: the document's revision and the clip (`None`: the bind pose).
pub(super) type BoundsKey = (u64, Option<usize>);

/// Values taken per key (a clip and a joint, say) for one revision of the document: a new revision empties it,
/// and so does filling it past [`PerRevision::MAX`] (what the timeline and the curves show changes with the
/// selection, so old entries would only pile up).
#[derive(Debug)]
pub(super) struct PerRevision<K, V>(RefCell<(u64, HashMap<K, V>)>);

impl<K, V> Default for PerRevision<K, V> {
    fn default() -> Self {
        PerRevision(RefCell::new((0, HashMap::new())))
    }
}

impl<K: std::hash::Hash + Eq, V: Clone> PerRevision<K, V> {
    const MAX: usize = 256;

    /// The value for `key` at `revision`, made by `make` when not remembered (`make` must not use this memo).
    pub fn get_or(&self, revision: u64, key: K, make: impl FnOnce() -> V) -> V {
        let mut memo = self.0.borrow_mut();
        if memo.0 != revision || memo.1.len() >= Self::MAX {
            *memo = (revision, HashMap::new());
        }
        memo.1.entry(key).or_insert_with(make).clone()
    }
}

#[derive(Debug, Default)]
pub(super) struct Memos {
    /// `Document::clip_bounds` of the last clip asked for, with the revision and clip it was computed for.
    pub clip_bounds: Cell<Option<(BoundsKey, Option<FrameBounds>)>>,
    /// `Document::contributions` of one joint, with the pose and joint it was computed for.
    pub contributions: Cell<Option<ContributionsMemo>>,
    /// The timeline's key frames, computed once per clip and joint (`None`: all of the clip's), since a dance
    /// has tens of thousands of keys.
    pub key_frames: PerRevision<(usize, Option<usize>), Rc<[f32]>>,
    /// The Curves tab's joints at every frame of a clip, by clip and joint.
    pub curves: PerRevision<(usize, usize), Rc<[Transform]>>,
    /// The Compare reference's counterparts of those joints, by clip, (the model's) joint and reference.
    pub reference_curves: PerRevision<ReferenceCurveKey, Option<Rc<[Transform]>>>,
    /// A morph's weight at every frame of a clip and its key frames, by clip and morph.
    pub morph_curves: PerRevision<(usize, usize), Option<MorphCurve>>,
    /// The outliner's facts about the joints, once per revision.
    pub outline_facts: PerRevision<(), Rc<super::outline::OutlineFacts>>,
    /// Which joints and morphs a clip keys, by clip.
    pub clip_keys: PerRevision<usize, Rc<super::outline::ClipKeys>>,
    /// The timeline's key rows, by clip and item.
    pub rows: PerRevision<(usize, super::dopesheet::RowItem), Rc<super::dopesheet::RowKeys>>,
}

/// A reference curve's clip, the model's joint, and the reference's stamp.
pub(super) type ReferenceCurveKey = (usize, usize, u64);

/// A morph's name, its weight at every frame of a clip, and its key frames.
pub type MorphCurve = (Rc<str>, Rc<[f32]>, Rc<[f32]>);

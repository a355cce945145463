//! What the panels derive from a document's model and remember until it changes, so a section drawn every frame
//! doesn't redo work that skins or sorts the whole clip: the clip's framing bounds (the Bounds section, framing),
//! one joint's contributions (the Picked section), and the timeline's key frames and curves. Each entry carries the key it
//! was computed for (the document's revision, the clip, the joint, the pose) and is recomputed when that changes.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::PoseKey;
use crate::scene::{FrameBounds, Transform};

/// The pose shown and the joint, and what the key, the appends and IK made of the joint's local transform.
pub(super) type ContributionsMemo = ((Option<PoseKey>, usize), [Transform; 3]);

/// What a clip's bounds were computed for: the document's revision and the clip (`None`: the bind pose).
pub(super) type BoundsKey = (u64, Option<usize>);

/// (revision, clip, joint) and the frames.
pub(super) type MemoEntry = ((u64, usize, Option<usize>), Rc<[f32]>);

/// (revision, clip, joint) and the joint's local transform at every frame.
pub(super) type CurveEntry = ((u64, usize, usize), Rc<[Transform]>);

/// (revision, clip) and what the clip moves.
pub(super) type ClipKeysEntry = ((u64, usize), Rc<super::outline::ClipKeys>);

/// Sorted key frames of one clip, all tracks and one joint's, with the document's revision they were taken at.
#[derive(Debug, Default)]
pub(super) struct KeyFrameMemo {
    pub all: Option<MemoEntry>,
    pub joint: Option<MemoEntry>,
}

#[derive(Debug, Default)]
pub(super) struct Memos {
    /// `Document::clip_bounds` of the last clip asked for, with the revision and clip it was computed for.
    pub clip_bounds: Cell<Option<(BoundsKey, Option<FrameBounds>)>>,
    /// `Document::contributions` of one joint, with the pose and joint it was computed for.
    pub contributions: Cell<Option<ContributionsMemo>>,
    /// The timeline's key frames, computed once per clip and joint (a dance has tens of thousands of keys).
    pub key_frames: RefCell<KeyFrameMemo>,
    /// The Curves tab's joint at every frame of a clip, with the (revision, clip, joint) it was sampled for.
    pub curve: RefCell<Option<CurveEntry>>,
    /// The outliner's facts about the joints, with the revision they were taken at.
    pub outline_facts: RefCell<Option<(u64, Rc<super::outline::OutlineFacts>)>>,
    /// Which joints and morphs one clip keys, with the (revision, clip) they were taken for.
    pub clip_keys: RefCell<Option<ClipKeysEntry>>,
}

//! What a document's pose was computed for: the document recomputes its pose only when this changes, and its
//! reference, hover and bounds memos are keyed on it. Its own file so that the document and its reference
//! (`reference.rs`) both import it and neither imports the other.

/// What the pose was computed for; the pose is recomputed only when this changes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoseKey {
    /// `Document::revision`: the model was rebuilt or its clips' values changed.
    pub(super) revision: u64,
    pub(super) clip: Option<usize>,
    pub(super) frame: u32,
    pub(super) looping: bool,
    /// The bind pose is shown instead of the clip's (`ViewToggles::bind_pose`).
    pub(super) bind_pose: bool,
    /// `Document::morph_edits`: a morph slider moved.
    pub(super) morph_edits: u64,
    /// MMD physics simulated, and `Document::physics_edits` (a reset, new settings).
    pub(super) physics: bool,
    pub(super) physics_edits: u64,
    /// The point a VRM avatar looks toward (model space, its bits), when its eyes follow the camera.
    pub(super) look_at: Option<[u32; 3]>,
}

impl PoseKey {
    /// The bind pose is shown instead of the clip's.
    pub fn bind_pose(&self) -> bool {
        self.bind_pose
    }
}

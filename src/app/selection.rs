//! The one selection of a document: what the viewport, the sections, the timeline and the Problems list point
//! at. Each panel reads it and changes it only through an [`Action`](super::actions::Action), so every panel
//! follows a pick made in any other. Kept per document (each tab remembers its own) and by name across a
//! rebuild ([`super::document::Document`]'s view memory).

use super::actions::CurveTarget;

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Selection {
    /// The selected joint: highlighted in the view, its facts in the Picked section, its keys on the timeline.
    pub joint: Option<usize>,
    /// The selected rigid body (the Physics section's), highlighted in the view.
    pub body: Option<usize>,
    /// What the curve view plots.
    pub curve: Option<CurveTarget>,
}

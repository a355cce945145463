//! The one selection of a document: what the viewport, the outliner, the timeline and the Problems list point
//! at. Each panel reads it and changes it only through an [`Action`](super::actions::Action), so every panel
//! follows a pick made in any other. Kept per document (each tab remembers its own) and by name across a
//! rebuild ([`super::document::Document`]'s view memory), with the selections before it (Back, Forward) and a
//! pin that keeps the Inspector on one of them.

use std::rc::Rc;

use super::actions::CurveTarget;

/// How many selections Back can walk through.
pub const HISTORY: usize = 50;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// The selected joint: highlighted in the view, its facts in the Inspector, its keys on the timeline.
    pub joint: Option<usize>,
    /// Joints selected with it: a display frame's bones (the frame's index, and the first is `joint`), or joints
    /// picked one by one with Ctrl+click (no frame; `joint` is the last one picked).
    pub group: Option<(Option<usize>, Rc<[usize]>)>,
    /// The selected rigid body (the Physics tab's), highlighted in the view; its bone is `joint`.
    pub body: Option<usize>,
    /// The selected morph.
    pub morph: Option<usize>,
    /// The selected mesh.
    pub mesh: Option<usize>,
    /// What the curve view plots.
    pub curve: Option<CurveTarget>,
}

impl Selection {
    /// Whether joint `j` is selected, alone or in a group.
    pub fn has_joint(&self, j: usize) -> bool {
        self.joint == Some(j) || self.group.as_ref().is_some_and(|(_, g)| g.contains(&j))
    }

    /// The selected joints in the order picked: a group's (which holds the leading joint), else the joint alone.
    pub fn joints(&self) -> impl Iterator<Item = usize> + '_ {
        let group = self.group.as_ref().map(|(_, g)| g.iter().copied());
        let alone = self.group.is_none().then_some(self.joint).flatten();
        group.into_iter().flatten().chain(alone)
    }

    /// Nothing is selected (the curve view's target aside).
    pub fn is_empty(&self) -> bool {
        self.joint.is_none() && self.body.is_none() && self.morph.is_none() && self.mesh.is_none()
    }

    /// What is selected, without the curve view's target (which follows the joint on its own).
    fn item(&self) -> Selection {
        Selection { curve: None, ..self.clone() }
    }
}

/// The selections made before the current one and those walked back from, and the pinned one.
#[derive(Debug, Clone, Default)]
pub struct History {
    back: Vec<Selection>,
    forward: Vec<Selection>,
    /// The Inspector shows this instead of the selection while set.
    pub pinned: Option<Selection>,
}

impl History {
    /// Remembers `before` when a new selection `after` replaces it (nothing when only the curve changed).
    pub fn record(&mut self, before: &Selection, after: &Selection) {
        if before.item() == after.item() {
            return;
        }
        self.forward.clear();
        // Nothing selected isn't a place to go back to.
        if before.is_empty() {
            return;
        }
        self.back.push(before.item());
        if self.back.len() > HISTORY {
            self.back.remove(0);
        }
    }

    pub fn can_go(&self, step: i32) -> bool {
        if step < 0 { !self.back.is_empty() } else { !self.forward.is_empty() }
    }

    /// The selection one step back (negative) or forward from `current`, which is remembered the other way.
    pub fn go(&mut self, current: &Selection, step: i32) -> Option<Selection> {
        let (from, to) =
            if step < 0 { (&mut self.back, &mut self.forward) } else { (&mut self.forward, &mut self.back) };
        let next = from.pop()?;
        to.push(current.item());
        Some(Selection { curve: current.curve, ..next })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joint(j: usize) -> Selection {
        Selection { joint: Some(j), ..Selection::default() }
    }

    #[test]
    fn back_and_forward_walk_the_selections_made() {
        let mut h = History::default();
        let mut now = Selection::default();
        for s in [joint(1), joint(2), joint(3)] {
            h.record(&now, &s);
            now = s;
        }
        assert!(h.can_go(-1) && !h.can_go(1));
        now = h.go(&now, -1).unwrap();
        assert_eq!(now.joint, Some(2));
        now = h.go(&now, -1).unwrap();
        assert_eq!(now.joint, Some(1));
        assert!(h.go(&now, -1).is_none(), "the empty selection before the first isn't a step");
        now = h.go(&now, 1).unwrap();
        assert_eq!(now.joint, Some(2));
        // A new selection drops the way forward.
        h.record(&now, &joint(7));
        assert!(!h.can_go(1));
    }

    #[test]
    fn groups_hold_their_joints() {
        let s = Selection { joint: Some(4), group: Some((Some(0), Rc::from([4, 5, 9]))), ..Selection::default() };
        assert!(s.has_joint(9) && s.has_joint(4) && !s.has_joint(6));
    }
}

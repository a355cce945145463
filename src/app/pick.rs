//! Hover and picking in the 3D view: a click picks the triangle under the pointer (or selects the joint of a
//! drawn bone near it), and resting over the model shows what lies under the pointer. The ray comes from the
//! view's projection, which the window or the page sets each frame.

use super::*;

/// A hover pick's inputs: pointer, document id, the pose's stamp, the view's projection.
pub(super) type HoverKey = (egui::Pos2, u64, Option<document::PoseKey>, Option<glam::Mat4>);

/// Models with more vertices than this pick on hover only once the pointer has rested for [`HOVER_REST`]: a
/// pick skins every vertex (18 ms on a million), too much for every pointer move.
const HOVER_MAX_VERTICES: usize = 300_000;
/// How long the pointer rests over a large model before hover picks.
const HOVER_REST: std::time::Duration = std::time::Duration::from_millis(200);

/// How near (points) a click must come to a drawn bone to select its joint.
const BONE_PICK_POINTS: f32 = 5.0;

/// The distance from `p` to the segment from `a` to `b`.
fn distance_to_segment(p: egui::Pos2, a: egui::Pos2, b: egui::Pos2) -> f32 {
    let ab = b - a;
    let t = if ab.length_sq() > 0.0 { ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0) } else { 0.0 };
    p.distance(a + ab * t)
}

impl App {
    /// Picks what lies under `at` (egui points in the view) on the shown document's posed mesh, with the view's
    /// projection as of this frame; a click on the background clears the pick.
    pub fn pick_at(&mut self, at: egui::Pos2) {
        // Side by side, the reference's half shows but doesn't pick.
        if !self.chrome.view_rect.is_some_and(|r| r.contains(at)) {
            return;
        }
        // With the skeleton drawn, a click within a few points of a bone selects its joint first.
        if let Some(j) = self.bone_near(at) {
            self.apply(Action::SelectJoint(Some(j)));
            return;
        }
        let picked = (|| {
            let doc = self.document()?;
            let (near, direction) = self.view_ray(at)?;
            Some((doc.id(), crate::anim::pick(doc.scene(), doc.pose(), near, direction)?))
        })();
        self.chrome.picked = picked;
    }

    /// Hover picking: what lies under the pointer resting at `at` over the view (`None`: not over it), shown
    /// next to the pointer on the next pass. Over models of more than [`HOVER_MAX_VERTICES`] the pick waits until
    /// the pointer has rested [`HOVER_REST`] in one place ([`App::hover_pending`] says when to look again).
    pub fn hover_at(&mut self, at: Option<egui::Pos2>) {
        let at = at.filter(|p| self.chrome.view_rect.is_some_and(|r| r.contains(*p)));
        let key = at.zip(self.document()).map(|(at, d)| (at, d.id(), d.pose_stamp(), self.chrome.view_projection));
        if key.is_some() && key == self.chrome.hover_key {
            return;
        }
        let large = self.document().is_some_and(|d| d.scene().vertices.len() > HOVER_MAX_VERTICES);
        if let Some(k) = key.filter(|_| large) {
            match self.chrome.hover_wait {
                Some((waiting, since)) if waiting == k && since.elapsed() >= HOVER_REST => {}
                Some((waiting, _)) if waiting == k => return,
                _ => {
                    self.chrome.hover_wait = Some((k, web_time::Instant::now()));
                    self.chrome.hovered = None;
                    return;
                }
            }
        }
        self.chrome.hover_wait = None;
        self.chrome.hover_key = key;
        self.chrome.hovered = (|| {
            let at = at?;
            let doc = self.document()?;
            let (near, direction) = self.view_ray(at)?;
            Some((at, crate::anim::pick(doc.scene(), doc.pose(), near, direction)?))
        })();
    }

    /// How long until a waiting hover pick over a large model is due (the window draws again then); `None` when
    /// none waits.
    pub fn hover_pending(&self) -> Option<std::time::Duration> {
        self.chrome.hover_wait.map(|(_, since)| HOVER_REST.saturating_sub(since.elapsed()))
    }

    /// The model-space ray through `at` (egui points) with the view's projection as of this frame.
    fn view_ray(&self, at: egui::Pos2) -> Option<(glam::Vec3, glam::Vec3)> {
        let (rect, to_clip) = (self.chrome.view_rect?, self.chrome.view_projection?);
        let ndc = glam::Vec2::new(
            (at.x - rect.min.x) / rect.width() * 2.0 - 1.0,
            1.0 - (at.y - rect.min.y) / rect.height() * 2.0,
        );
        crate::render::ray_through(to_clip, ndc)
    }

    /// What lies under the resting pointer, with where it rests.
    pub fn hovered(&self) -> Option<(egui::Pos2, &crate::anim::Picked)> {
        self.chrome.hovered.as_ref().map(|(p, h)| (*p, h))
    }

    /// The joint whose bone (the line from its parent to it, as the skeleton overlay draws it) passes within
    /// [`BONE_PICK_POINTS`] of `at`, the nearest; only while the skeleton is drawn.
    fn bone_near(&self, at: egui::Pos2) -> Option<usize> {
        if !self.toggles.skeleton {
            return None;
        }
        let (doc, rect, to_clip) = (self.document()?, self.chrome.view_rect?, self.chrome.view_projection?);
        let world = &doc.pose().world;
        let point = |j: usize| project_to_view(to_clip, rect, world.get(j)?.w_axis.truncate());
        let mut best: Option<(f32, usize)> = None;
        for (j, joint) in doc.scene().skeleton.joints.iter().enumerate() {
            let Some(b) = point(j) else { continue };
            let a = joint.parent.and_then(point).unwrap_or(b);
            let d = distance_to_segment(at, a, b);
            if d <= BONE_PICK_POINTS && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, j));
            }
        }
        best.map(|(_, j)| j)
    }

    /// What the last click in the view hit, when it was in the document shown.
    pub fn picked(&self) -> Option<&crate::anim::Picked> {
        let (id, p) = self.chrome.picked.as_ref()?;
        (self.document().map(Document::id) == Some(*id)).then_some(p)
    }

    /// The window sets, each frame before the UI runs, the matrix taking model space to clip space in the 3D
    /// view's rect ([`App::view_rect`]), or `None` without a view; joint-name labels are placed with it.
    pub fn set_view_projection(&mut self, model_to_clip: Option<glam::Mat4>) {
        let moved = self.chrome.view_projection != model_to_clip;
        self.chrome.view_projection = model_to_clip;
        // Eyes that follow the camera follow it in this frame's pose.
        if moved && self.toggles.eyes_follow_camera {
            self.refresh();
        }
    }
}

//! Compare with…: a second file of the same asset (an older export, the version before a reload) held beside
//! the shown document as its reference. The Compare section lists what `rigscope diff REFERENCE MODEL` says
//! (computed by the same `report::diff`, in the model's axes), the joints that deviate most at the frame shown,
//! and the view draws the reference at that frame as a translucent ghost (a second model in the view,
//! `render::ViewState::set_reference`) with its skeleton (`Overlays::reference_bones`).

use glam::Vec3;

use std::cell::{Ref, RefCell};

use super::document::PoseKey;
use super::{Action, Document};
use crate::anim::Pose;
use crate::report::diff::{Diff, DiffOptions, counterpart, diff};
use crate::scene::{DEFAULT_FPS, Scene};

/// Joints listed per part of the section.
const LISTED: usize = 12;

/// The reference of a document: its name, its scene in the model's axes, and the diff against the model.
pub struct Reference {
    pub name: String,
    pub scene: Scene,
    pub diff: Diff,
    /// Unique to this reference, so the window knows when to upload another ghost model.
    pub stamp: u64,
    /// The reference's pose for the document's pose it was computed for: the ghost, its bones and the
    /// deviations all read it, and it is posed again only when the document's pose changes.
    posed: RefCell<Option<(Option<PoseKey>, Pose)>>,
    /// Per joint of the document's model: its counterpart in the reference, matched once (as `diff` matches).
    counterparts: Vec<Option<usize>>,
}

static STAMPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Reference {
    /// `scene` (named `name`) as the reference of `doc`'s model: turned into the model's axes, compared once.
    pub fn for_document(name: String, scene: Scene, doc: &Document) -> Reference {
        let stamp = STAMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Reference::with_stamp(name, scene, doc, stamp)
    }

    /// The same reference against `doc`'s model as it is now (after a reload): compared again, and keeping its
    /// stamp when its scene is unchanged, so the window keeps the ghost it uploaded.
    pub fn against(self, doc: &Document) -> Reference {
        let stamp = if self.scene.up == doc.scene().up {
            self.stamp
        } else {
            STAMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        };
        Reference::with_stamp(self.name, self.scene, doc, stamp)
    }

    fn with_stamp(name: String, mut scene: Scene, doc: &Document, stamp: u64) -> Reference {
        let model = doc.scene();
        let model_name = doc.sources.first().map_or("", |s| s.name.as_str());
        crate::convert::to_up(&mut scene, model.up);
        let d = diff(&scene, &name, model, model_name, &DiffOptions::default());
        let counterparts =
            (0..model.skeleton.len()).map(|i| counterpart(&model.skeleton, &scene.skeleton, i)).collect();
        Reference { name, scene, diff: d, stamp, posed: RefCell::new(None), counterparts }
    }

    /// The reference posed as `doc` shows its model: its bind pose when the document shows the bind pose, else
    /// the frame shown of its clip of the shown clip's name (its bind pose when it has none by that name). Posed
    /// once per document pose and lent out, not copied: the ghost, its bones and the section all read it.
    pub fn posed(&self, doc: &Document) -> Ref<'_, Pose> {
        let key = doc.pose_stamp();
        let fresh = self.posed.borrow().as_ref().is_some_and(|(k, _)| *k == key);
        if !fresh {
            let clip = doc.current_clip().map(|c| c.name.as_str());
            let c = clip.and_then(|name| self.scene.clips.iter().find(|c| c.name == name));
            let pose = match (c, doc.current_clip_frame()) {
                (Some(c), Some((_, frame))) if !key.is_some_and(|k| k.bind_pose()) => {
                    let input = crate::anim::PoseInput::at(Some(c), frame, DEFAULT_FPS);
                    crate::physics::frame_pose(&self.scene, None, &input, crate::physics::Seek::Held)
                }
                _ => Pose::bind(&self.scene.skeleton),
            };
            *self.posed.borrow_mut() = Some((key, pose));
        }
        Ref::map(self.posed.borrow(), |p| &p.as_ref().expect("posed above").1)
    }

    /// The reference's bones (parent to child) in `pose`, in the model's space.
    pub fn bones(&self, pose: &Pose) -> Vec<[Vec3; 2]> {
        let at = |i: usize| pose.world.get(i).map(|m| m.w_axis.truncate());
        self.scene.skeleton.joints.iter().enumerate().filter_map(|(i, j)| Some([at(j.parent?)?, at(i)?])).collect()
    }

    /// Joints of `model` posed as `pose` by how far they are from their counterparts (as `diff` matches them)
    /// in the reference posed as `theirs`, farthest first.
    pub fn deviations(&self, model: &Scene, pose: &Pose, theirs: &Pose) -> Vec<(String, f32)> {
        let mut out: Vec<(String, f32)> = (0..model.skeleton.len())
            .filter_map(|i| {
                let k = (*self.counterparts.get(i)?)?;
                let (a, b) = (pose.world.get(i)?, theirs.world.get(k)?);
                Some((model.skeleton.display_name(i), a.w_axis.truncate().distance(b.w_axis.truncate())))
            })
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
}

/// The Compare section: shown while the document has a reference.
pub fn section(ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
    let Some(r) = doc.reference.as_deref() else { return };
    egui::CollapsingHeader::new("Compare").id_salt("compare").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(format!("Reference: {}", r.name));
            if ui.small_button("Clear").on_hover_text("Stop comparing").clicked() {
                out.push(Action::ClearReference);
            }
        });
        ui.weak("drawn as a translucent orange ghost, with its skeleton");
        for note in &r.diff.notes {
            ui.weak(note);
        }
        if r.diff.equal() {
            ui.label("equal within the tolerance (rigscope diff)");
        }
        for line in r.diff.changes.iter().take(LISTED) {
            ui.label(line);
        }
        let clip = doc.current_clip().map(|c| c.name.clone());
        let frame = doc.current_clip_frame().map_or(0.0, |(_, f)| f);
        let near = r.deviations(doc.scene(), doc.pose(), &r.posed(doc));
        ui.separator();
        ui.label(format!("At frame {frame:.0}: joints farthest from the reference"));
        egui::Grid::new("compare at frame").num_columns(2).show(ui, |ui| {
            for (name, d) in near.iter().take(LISTED) {
                ui.label(name);
                ui.monospace(format!("{d:.4}"));
                ui.end_row();
            }
        });
        let over: Vec<_> = r.diff.joints.iter().filter(|j| Some(&j.clip) == clip.as_ref()).take(LISTED).collect();
        if !over.is_empty() {
            ui.separator();
            ui.label("Over the clip (largest move, at frame)");
            egui::Grid::new("compare over clip").num_columns(3).show(ui, |ui| {
                for j in over {
                    ui.label(&j.joint);
                    ui.monospace(format!("{:.4}", j.position));
                    ui.monospace(format!("f{}", j.position_frame));
                    ui.end_row();
                }
            });
        }
        for s in &r.diff.skinning {
            ui.label(format!(
                "clip \"{}\": skinned vertex {} moved up to {:.4} (frame {})",
                s.clip, s.vertex, s.distance, s.frame
            ));
        }
    });
}

//! The reference of a document (Compare with…): a second file of the same asset turned into the model's axes,
//! the diff against the model, and its pose at the frame the document shows. It knows the document only through
//! what it is given (the model, its pose key, the clip and frame), so the document can own it without the two
//! importing each other; the Compare section is `sections/compare.rs`.

use std::cell::{Ref, RefCell};
use std::path::PathBuf;

use glam::Vec3;

use super::pose_key::PoseKey;
use crate::anim::Pose;
use crate::report::diff::{Diff, DiffOptions, diff};
use crate::scene::{DEFAULT_FPS, Scene};

/// The reference of a document: its name, its scene in the model's axes, and the diff against the model.
pub struct Reference {
    pub name: String,
    pub scene: Scene,
    pub diff: Diff,
    /// Unique to this reference, so the window knows when to upload another ghost model.
    pub stamp: u64,
    /// Where its textures are looked for (its file's folder), for the view that draws it side by side; `None`:
    /// its embedded images only.
    pub texture_dir: Option<PathBuf>,
    /// The reference's pose for the document's pose it was computed for: the ghost, its bones and the
    /// deviations all read it, and it is posed again only when the document's pose changes.
    posed: RefCell<Option<(Option<PoseKey>, Pose)>>,
    /// Per joint of the document's model: its counterpart in the reference, matched once (as `diff` matches).
    counterparts: Vec<Option<usize>>,
}

static STAMPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Reference {
    /// `scene` (named `name`) as the reference of `model` (named `model_name`): turned into the model's axes,
    /// compared once.
    pub fn new(name: String, scene: Scene, model: &Scene, model_name: &str) -> Reference {
        let stamp = STAMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Reference::with_stamp(name, scene, model, model_name, stamp)
    }

    /// The same reference against the model as it is now (after a reload): compared again, and keeping its
    /// stamp when its scene is unchanged, so the window keeps the ghost it uploaded.
    /// This reference with its textures looked for in `dir`.
    pub fn with_texture_dir(self, dir: Option<PathBuf>) -> Reference {
        Reference { texture_dir: dir, ..self }
    }

    pub fn against(self, model: &Scene, model_name: &str) -> Reference {
        let stamp = if self.scene.up == model.up {
            self.stamp
        } else {
            STAMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        };
        let dir = self.texture_dir;
        Reference::with_stamp(self.name, self.scene, model, model_name, stamp).with_texture_dir(dir)
    }

    fn with_stamp(name: String, mut scene: Scene, model: &Scene, model_name: &str, stamp: u64) -> Reference {
        crate::convert::to_up(&mut scene, model.up);
        let d = diff(&scene, &name, model, model_name, &DiffOptions::default());
        let counterparts = (0..model.skeleton.len()).map(|i| scene.skeleton.counterpart(&model.skeleton, i)).collect();
        Reference { name, scene, diff: d, stamp, texture_dir: None, posed: RefCell::new(None), counterparts }
    }

    /// The reference posed as the document shows its model (its pose `key`, the shown clip's name and frame):
    /// its bind pose when the document shows the bind pose, else that frame of its clip of that name (its bind
    /// pose when it has none by that name). Posed once per document pose and lent out, not copied: the ghost,
    /// its bones and the section all read it.
    pub fn posed(&self, key: Option<PoseKey>, clip: Option<&str>, frame: Option<f32>) -> Ref<'_, Pose> {
        let fresh = self.posed.borrow().as_ref().is_some_and(|(k, _)| *k == key);
        if !fresh {
            let c = clip.and_then(|name| self.scene.clips.iter().find(|c| c.name == name));
            let pose = match (c, frame) {
                (Some(c), Some(frame)) if !key.is_some_and(|k| k.bind_pose()) => {
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
    /// The reference's joint of the same name as the model's joint `joint`.
    pub fn counterpart(&self, joint: usize) -> Option<usize> {
        *self.counterparts.get(joint)?
    }

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

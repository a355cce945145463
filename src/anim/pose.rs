//! A skeleton's pose at one instant: local transforms, model-space transforms and the skinning palette.

use glam::Mat4;

use super::sample::sample_clip_hinted;
use crate::scene::{Clip, Scene, Skeleton, Transform};

/// A posed skeleton. Buffers are reused between frames, so evaluating a pose allocates nothing.
#[derive(Debug, Clone, Default)]
pub struct Pose {
    /// Each joint's transform relative to its parent.
    pub locals: Vec<Transform>,
    /// Each joint's model-space transform: parent's world · local T·R·S.
    pub world: Vec<Mat4>,
    /// Skinning matrices: world · inverse bind. A bind-pose vertex times this lands where the joint moved it.
    pub palette: Vec<Mat4>,
    /// The effective weight of each of the scene's morphs ([`super::effective_morph_weights`]); empty or short
    /// means 0 for the rest. The renderer applies vertex and UV morphs from these.
    pub morphs: Vec<f32>,
    /// The motion hides the model at this instant (a VMD or MVD visibility key): the renderer draws the
    /// skeleton and overlays, not the mesh.
    pub hidden: bool,
    /// Buffers the constraints reuse from frame to frame.
    pub(crate) scratch: super::constraint::Scratch,
    /// Per keyed track of the last clip sampled, where each channel's keys were found (`sample_clip_hinted`).
    pub(crate) key_hints: Vec<[u32; 3]>,
}

impl Pose {
    /// The bind pose of a skeleton.
    pub fn bind(skeleton: &Skeleton) -> Pose {
        let mut pose = Pose::default();
        pose.set_locals_from(skeleton, |locals| locals.copy_from_slice(&skeleton.bind_locals()));
        pose
    }

    /// The pose of `clip` at `frame` (clip frames, fractional).
    pub fn sample(skeleton: &Skeleton, clip: &Clip, frame: f32, default_fps: f32) -> Pose {
        let mut pose = Pose::default();
        pose.update(skeleton, clip, frame, default_fps);
        pose
    }

    /// The whole pose of a scene as the viewer draws it: `clip` at `frame` (`None`: the bind pose), the morph
    /// weights (the clip's morph tracks, `overrides[i]` in place of morph `i`'s when set, groups passed on),
    /// bone morphs on the locals, then the skeleton's constraints (append transforms, IK).
    pub fn update_scene(
        &mut self,
        scene: &Scene,
        clip: Option<&Clip>,
        frame: f32,
        default_fps: f32,
        overrides: &[Option<f32>],
    ) {
        self.update_scene_with(scene, clip, frame, default_fps, overrides, &[]);
    }

    /// [`Pose::update_scene`], with `ik[c]`, when set, switching IK chain `c` on or off in place of what the
    /// motion's IK switches say. Returns what the clip alone gives each morph (before overrides and groups), for
    /// a caller that shows it.
    pub fn update_scene_with(
        &mut self,
        scene: &Scene,
        clip: Option<&Clip>,
        frame: f32,
        default_fps: f32,
        overrides: &[Option<f32>],
        ik: &[Option<bool>],
    ) -> Vec<f32> {
        let input = super::PoseInput::at(clip, frame, default_fps).with_overrides(overrides).with_ik(ik);
        self.update_scene_phase(scene, &input, None, &[])
    }

    /// The pose of `input` from the motion alone (no physics; `physics::pose_frame` is the entry point that
    /// adds it): [`Pose::update_scene_with`] with the input's fields. Returns what the clip alone gives each morph.
    pub fn update_input(&mut self, scene: &Scene, input: &super::PoseInput) -> Vec<f32> {
        self.update_scene_phase(scene, input, None, &[])
    }

    /// [`Pose::update_input`] for one side of physics: `after_physics` `Some(false)` applies the constraints of
    /// the joints evaluated before physics only, `Some(true)` those after it only (the locals then already hold
    /// the motion and what physics wrote), `None` all. `skipped_ik[c]` set leaves IK chain `c` unsolved (physics
    /// drives every link of it).
    pub fn update_scene_phase(
        &mut self,
        scene: &Scene,
        input: &super::PoseInput,
        after_physics: Option<bool>,
        skipped_ik: &[bool],
    ) -> Vec<f32> {
        let skeleton = &scene.skeleton;
        let (clip, frame, default_fps) = (input.clip, input.frame, input.default_fps);
        if after_physics == Some(true) {
            self.apply_constraints(scene, input, Some(true), skipped_ik);
            return Vec::new();
        }
        match clip {
            Some(clip) => self.update(skeleton, clip, frame, default_fps),
            None => self.set_locals_from(skeleton, |locals| locals.copy_from_slice(&skeleton.bind_locals())),
        }
        let clip_weights = super::clip_morph_weights(&scene.morphs, clip, frame, default_fps);
        // VRM's order: the humanoid (the motion), then the look-at, then the expressions. A look-at toward a point
        // turns the eyes, or weighs the look expressions in place of the clip's (what the clip gives stays as it
        // gives it: the Morphs section shows it).
        let mut looks = Vec::new();
        match input.look_at.and_then(|target| super::look::follow(scene, &self.world, &mut self.locals, target)) {
            Some(super::look::Looked::Eyes) => self.evaluate(skeleton),
            Some(super::look::Looked::Expressions(set)) => looks = set,
            None => {}
        }
        self.morphs = if scene.morphs.is_empty() {
            Vec::new()
        } else {
            match scene.vrm.as_deref() {
                // VRM's binary and override rules act on the expressions' weights before groups pass them on.
                Some(vrm) => {
                    let mut looked = std::borrow::Cow::Borrowed(&clip_weights);
                    for &(morph, w) in &looks {
                        if let Some(slot) = looked.to_mut().get_mut(morph) {
                            *slot = w;
                        }
                    }
                    let mut w = super::morph::with_overrides(&looked, input.overrides);
                    super::vrm_expression_weights(vrm, &mut w);
                    super::effective_morph_weights(&scene.morphs, &w)
                }
                None => super::overridden_weights(&scene.morphs, &clip_weights, input.overrides),
            }
        };
        if super::apply_bone_morphs(&scene.morphs, &self.morphs, &mut self.locals) {
            self.evaluate(skeleton);
        }
        let time = clip.map_or(0.0, |c| frame / c.fps(default_fps));
        self.hidden = clip.is_some_and(|c| !c.visible_at(time));
        self.apply_constraints(scene, input, after_physics, skipped_ik);
        clip_weights
    }

    /// The constraints of one phase, with the motion's IK switches (by the IK bone's name; chains it doesn't
    /// name stay on), `ik`'s overrides and the chains physics drives left out.
    fn apply_constraints(
        &mut self,
        scene: &Scene,
        input: &super::PoseInput,
        after_physics: Option<bool>,
        skipped_ik: &[bool],
    ) {
        let skeleton = &scene.skeleton;
        let (clip, ik) = (input.clip, input.ik);
        let time = clip.map_or(0.0, |c| input.frame / c.fps(input.default_fps));
        let switches = clip.map_or(&[][..], |c| &c.ik_switches[..]);
        let enabled = |chain: usize| {
            if skipped_ik.get(chain).copied().unwrap_or(false) {
                return false;
            }
            if let Some(on) = ik.get(chain).copied().flatten() {
                return on;
            }
            let name =
                scene.constraints.ik.get(chain).and_then(|c| skeleton.joints.get(c.joint)).map(|j| j.name.as_str());
            ik_switched_on(switches, name, time)
        };
        // Every caller has just evaluated the pose (after sampling or bone morphs; after physics, the simulation
        // re-evaluates what it wrote).
        let solve = (enabled, input.finish);
        super::constraint::apply_to_evaluated(skeleton, &scene.constraints, self, solve, after_physics);
    }

    /// [`Pose::update_scene`] into a new pose.
    pub fn of_scene(
        scene: &Scene,
        clip: Option<&Clip>,
        frame: f32,
        default_fps: f32,
        overrides: &[Option<f32>],
    ) -> Pose {
        let mut pose = Pose::default();
        pose.update_scene(scene, clip, frame, default_fps, overrides);
        pose
    }

    /// Re-evaluates this pose in place for `clip` at `frame`.
    pub fn update(&mut self, skeleton: &Skeleton, clip: &Clip, frame: f32, default_fps: f32) {
        let mut hints = std::mem::take(&mut self.key_hints);
        self.set_locals_from(skeleton, |locals| {
            sample_clip_hinted(skeleton, clip, frame, default_fps, locals, Some(&mut hints))
        });
        self.key_hints = hints;
    }

    fn set_locals_from(&mut self, skeleton: &Skeleton, fill: impl FnOnce(&mut [Transform])) {
        let n = skeleton.len();
        self.locals.resize(n, Transform::IDENTITY);
        fill(&mut self.locals);
        self.evaluate(skeleton);
    }

    /// Recomputes `world` and `palette` from `locals` in one parents-first pass.
    pub fn evaluate(&mut self, skeleton: &Skeleton) {
        self.world.resize(skeleton.len(), Mat4::IDENTITY);
        self.palette.resize(skeleton.len(), Mat4::IDENTITY);
        self.evaluate_from(skeleton, 0);
    }

    /// Recomputes `world` and `palette` of joint `first` and every joint after it (parents come first, so
    /// that covers `first`'s descendants); the ones before must be current.
    pub fn evaluate_from(&mut self, skeleton: &Skeleton, first: usize) {
        let n = skeleton.len().min(self.locals.len()).min(self.world.len()).min(self.palette.len());
        for (i, joint) in skeleton.joints.iter().enumerate().take(n).skip(first) {
            let local = self.locals[i].to_mat4();
            // Parents precede children (a Skeleton invariant), so the parent's world is already final.
            self.world[i] = match joint.parent {
                Some(p) if p < i => self.world[p] * local,
                _ => local,
            };
            self.palette[i] = self.world[i] * skeleton.inverse_bind[i];
        }
    }

    /// Recomputes `world` and `palette` of the joints `changed` marks and of their descendants, looking from
    /// joint `first` on (no mark lies before it), and clears the marks. The other joints must be current: a
    /// joint's world depends on its ancestors' locals only, so an IK chain or an append that turned a few
    /// joints costs their subtrees, not every joint after them in the skeleton's order.
    pub fn evaluate_changed(&mut self, skeleton: &Skeleton, changed: &mut [bool], first: usize) {
        let n = skeleton.len().min(self.locals.len()).min(self.world.len()).min(self.palette.len()).min(changed.len());
        for i in first.min(n)..n {
            let parent = skeleton.joints[i].parent.filter(|&p| p < i);
            if !changed[i] && !parent.is_some_and(|p| changed[p]) {
                continue;
            }
            changed[i] = true;
            let local = self.locals[i].to_mat4();
            self.world[i] = parent.map_or(local, |p| self.world[p] * local);
            self.palette[i] = self.world[i] * skeleton.inverse_bind[i];
        }
        changed[first.min(n)..n].iter_mut().for_each(|c| *c = false);
    }

    /// [`Pose::evaluate_changed`] for the subtree of `root` alone.
    pub fn evaluate_subtree(&mut self, skeleton: &Skeleton, root: usize) {
        let mut changed = vec![false; skeleton.len()];
        if let Some(c) = changed.get_mut(root) {
            *c = true;
            self.evaluate_changed(skeleton, &mut changed, root);
        }
    }
}

/// Whether the chain of IK bone `name` is on at `time` by `switches` (on when none names it).
pub fn ik_switched_on(switches: &[crate::scene::IkSwitchTrack], name: Option<&str>, time: f32) -> bool {
    switches.iter().find(|s| Some(s.name.as_str()) == name).is_none_or(|s| s.enabled_at(time))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Joint;
    use glam::{Quat, Vec3};

    /// Turning a few joints and re-evaluating their subtrees gives, bit for bit, what evaluating the whole
    /// skeleton gives: joints outside the subtrees keep matrices computed from the same parents and locals.
    #[test]
    fn evaluating_the_changed_subtrees_equals_evaluating_everything() {
        // Two branches off a root, interleaved in index order: 0 root; odd joints chain off 1, even off 2.
        let joints: Vec<Joint> = (0..40)
            .map(|i| Joint {
                name: format!("j{i}"),
                parent: match i {
                    0 => None,
                    1 | 2 => Some(0),
                    _ => Some(i - 2),
                },
                bind: Transform { translation: Vec3::new(0.1 * i as f32, 1.0, 0.0), ..Transform::IDENTITY },
            })
            .collect();
        let skeleton = Skeleton::new(joints, true).unwrap();
        let mut pose = Pose::bind(&skeleton);
        let mut full = pose.clone();
        let mut changed = vec![false; skeleton.len()];
        for j in [7, 12, 13] {
            let turn = Quat::from_rotation_z(0.3 + j as f32 * 0.01);
            pose.locals[j].rotation = turn;
            full.locals[j].rotation = turn;
            changed[j] = true;
        }
        pose.evaluate_changed(&skeleton, &mut changed, 7);
        full.evaluate(&skeleton);
        assert_eq!(pose.world, full.world);
        assert_eq!(pose.palette, full.palette);
        assert!(changed.iter().all(|c| !c), "the marks are cleared");
        // The branch of joint 2 (even joints) below 12 moved; the odd branch below 7 moved too; 4 did not.
        assert_ne!(pose.world[14], Pose::bind(&skeleton).world[14]);
        assert_eq!(pose.world[4], Pose::bind(&skeleton).world[4]);
        let before = pose.clone();
        pose.locals[3].rotation = Quat::from_rotation_x(0.5);
        full.locals[3].rotation = Quat::from_rotation_x(0.5);
        pose.evaluate_subtree(&skeleton, 3);
        full.evaluate(&skeleton);
        assert_eq!(pose.world, full.world);
        assert_eq!(pose.world[2], before.world[2], "outside joint 3's subtree nothing moved");
    }

    #[test]
    fn bind_pose_palette_is_identity() {
        let joints = vec![
            Joint {
                name: "a".into(),
                parent: None,
                bind: Transform {
                    translation: Vec3::new(1.0, 2.0, 3.0),
                    rotation: Quat::from_rotation_x(0.7),
                    scale: Vec3::splat(2.0),
                },
            },
            Joint {
                name: "b".into(),
                parent: Some(0),
                bind: Transform { translation: Vec3::Z, rotation: Quat::from_rotation_y(-1.2), scale: Vec3::ONE },
            },
        ];
        let s = Skeleton::new(joints, true).unwrap();
        let p = Pose::bind(&s);
        for m in &p.palette {
            assert!(m.abs_diff_eq(Mat4::IDENTITY, 1e-5), "{m:?}");
        }
        assert!(
            p.world[1]
                .w_axis
                .truncate()
                .abs_diff_eq(Vec3::new(1.0, 2.0, 3.0) + Quat::from_rotation_x(0.7) * Vec3::Z * 2.0, 1e-5)
        );
    }
}

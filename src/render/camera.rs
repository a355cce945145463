//! The orbit camera and deterministic framing.
//!
//! Drawing happens in a "world" space that is Y up with the model's front toward +Z. A model is brought there
//! by [`up_basis`]: Z-up models (the Inter-Quake formats, which face -Y) stand upright and face the camera.
//! Every basis but the left-handed one is a rotation, so the file's winding still says which faces are front;
//! for the mirroring one the mesh pipeline swaps the winding.

use std::f32::consts::FRAC_PI_2;

use glam::{Mat4, Vec3};

use crate::anim::{Pose, skinned_bounds};
use crate::scene::{FrameBounds, Scene, UpAxis};

/// Model space → world space (Y up). Z-up models turn -90° about X: +Z becomes +Y and -Y (their front)
/// becomes +Z. Y-down models (RSM1) turn 180° about X, diag(1, −1, −1). Left-handed Y-up models (RSM2) mirror
/// Z, diag(1, 1, −1): the only basis with a negative determinant, so the renderer swaps the front-face winding
/// for it (see [`mirrors`]).
pub fn up_basis(up: UpAxis) -> Mat4 {
    match up {
        UpAxis::Y => Mat4::IDENTITY,
        UpAxis::Z => Mat4::from_rotation_x(-FRAC_PI_2),
        UpAxis::NegY => Mat4::from_diagonal(glam::Vec4::new(1.0, -1.0, -1.0, 1.0)),
        UpAxis::YLeftHanded => Mat4::from_diagonal(glam::Vec4::new(1.0, 1.0, -1.0, 1.0)),
    }
}

/// True when [`up_basis`] mirrors: a winding that is front in model space is back on screen.
pub fn mirrors(up: UpAxis) -> bool {
    up_basis(up).determinant() < 0.0
}

/// An orbit camera around `target`. Angles are radians; yaw 0 and pitch 0 look at the model's front.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// The model's up axis; it decides the model-to-world rotation.
    pub up: UpAxis,
    /// The point orbited, in world space.
    pub target: Vec3,
    pub distance: f32,
    /// Turn about the up axis; positive moves the camera toward the model's left (counter-clockwise seen
    /// from above).
    pub yaw: f32,
    /// Elevation; positive looks down on the model. Kept inside ±89°.
    pub pitch: f32,
    /// Vertical field of view.
    pub fov_y: f32,
    pub near: f32,
    pub far: f32,
}

/// Largest |pitch|, short of looking straight down the up axis.
const MAX_PITCH: f32 = 89.0 * std::f32::consts::PI / 180.0;

impl Camera {
    /// The camera that shows all of `bounds` (model space) in a viewport of `aspect` (width / height), from
    /// the given angles. The same inputs always give the same camera.
    pub fn framing(up: UpAxis, bounds: &FrameBounds, yaw: f32, pitch: f32, aspect: f32) -> Camera {
        let basis = up_basis(up);
        let (min, max) = (basis.transform_point3(bounds.min), basis.transform_point3(bounds.max));
        let (lo, hi) = (min.min(max), min.max(max));
        let target = (lo + hi) * 0.5;
        let radius = ((hi - lo).length() * 0.5).max(1e-3);
        let fov_y = 35f32.to_radians();
        let aspect = if aspect.is_finite() && aspect > 0.0 { aspect } else { 1.0 };
        let fov_x = 2.0 * ((fov_y * 0.5).tan() * aspect).atan();
        let fit = fov_y.min(fov_x);
        let distance = radius / (fit * 0.5).sin() * 1.02;
        Camera {
            up,
            target,
            distance,
            yaw,
            pitch: pitch.clamp(-MAX_PITCH, MAX_PITCH),
            fov_y,
            near: (distance - radius * 1.5).max(distance * 0.01),
            far: distance + radius * 8.0,
        }
    }

    /// Model space → world space.
    pub fn model_matrix(&self) -> Mat4 {
        up_basis(self.up)
    }

    /// Direction from the target to the camera, world space.
    pub fn direction(&self) -> Vec3 {
        let pitch = self.pitch.clamp(-MAX_PITCH, MAX_PITCH);
        Vec3::new(self.yaw.sin() * pitch.cos(), pitch.sin(), self.yaw.cos() * pitch.cos())
    }

    /// Camera position, world space.
    pub fn eye(&self) -> Vec3 {
        self.target + self.direction() * self.distance
    }

    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye(), self.target, Vec3::Y)
    }

    /// Right-handed perspective with depth 0..1 and Y up, as wgpu expects (glam's "directx" convention).
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let aspect = if aspect.is_finite() && aspect > 0.0 { aspect } else { 1.0 };
        glam::camera::rh::proj::directx::perspective(
            self.fov_y,
            aspect,
            self.near.max(1e-6),
            self.far.max(self.near * 2.0),
        )
    }

    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }
}

/// The bounds of the skinned mesh over a whole clip (or the bind pose when `clip` is `None`), so a camera
/// framed on it doesn't jump between frames. Long clips are sampled: at most `samples` evenly spaced whole
/// frames, the first and last included. `None` for a model without vertices.
pub fn animation_bounds(scene: &Scene, clip: Option<usize>, default_fps: f32, samples: usize) -> Option<FrameBounds> {
    let Some(clip) = clip.and_then(|i| scene.clips.get(i)) else {
        return skinned_bounds(&scene.vertices, &Pose::bind(&scene.skeleton).palette);
    };
    let last = clip.frame_count.saturating_sub(1);
    let n = (last as usize + 1).min(samples.max(2));
    let mut pose = Pose::default();
    let mut all: Option<FrameBounds> = None;
    for i in 0..n {
        let frame = if n == 1 { 0 } else { ((i as u64 * last as u64) / (n as u64 - 1)) as u32 };
        pose.update(&scene.skeleton, clip, frame as f32, default_fps);
        if let Some(b) = skinned_bounds(&scene.vertices, &pose.palette) {
            all = Some(all.map_or(b, |a| a.union(&b)));
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_up_models_stand_and_face_the_camera() {
        let b = up_basis(UpAxis::Z);
        assert!(b.transform_vector3(Vec3::Z).abs_diff_eq(Vec3::Y, 1e-6));
        assert!(b.transform_vector3(-Vec3::Y).abs_diff_eq(Vec3::Z, 1e-6));
        assert!((b.determinant() - 1.0).abs() < 1e-6, "a rotation keeps the winding");
    }

    #[test]
    fn rsm_bases_stand_upright() {
        let b = up_basis(UpAxis::NegY);
        assert!(b.transform_vector3(-Vec3::Y).abs_diff_eq(Vec3::Y, 1e-6));
        assert!(!mirrors(UpAxis::NegY) && !mirrors(UpAxis::Z) && !mirrors(UpAxis::Y));
        let m = up_basis(UpAxis::YLeftHanded);
        assert!(m.transform_vector3(Vec3::Y).abs_diff_eq(Vec3::Y, 1e-6));
        assert!(mirrors(UpAxis::YLeftHanded));
    }

    #[test]
    fn framing_contains_the_box() {
        let bounds =
            FrameBounds { min: Vec3::new(-1.0, -0.5, 0.0), max: Vec3::new(1.0, 0.5, 4.0), xy_radius: 0.0, radius: 0.0 };
        for aspect in [0.5, 1.0, 2.0] {
            let cam = Camera::framing(UpAxis::Z, &bounds, 0.3, 0.2, aspect);
            let m = cam.view_proj(aspect) * cam.model_matrix();
            for i in 0..8 {
                let p = Vec3::new(
                    if i & 1 == 0 { bounds.min.x } else { bounds.max.x },
                    if i & 2 == 0 { bounds.min.y } else { bounds.max.y },
                    if i & 4 == 0 { bounds.min.z } else { bounds.max.z },
                );
                let c = m.project_point3(p);
                assert!(c.x.abs() <= 1.0 && c.y.abs() <= 1.0 && (0.0..=1.0).contains(&c.z), "{aspect} {p} → {c}");
            }
        }
    }
}

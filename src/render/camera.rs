//! The orbit camera and deterministic framing.
//!
//! Drawing happens in a "world" space that is Y up with the model's front toward +Z. A model is brought there
//! by [`UpAxis::basis`]: Z-up models (the Inter-Quake formats, which face -Y) stand upright and face the camera.
//! Every basis but the left-handed one is a rotation, so the file's winding still says which faces are front;
//! for the mirroring one the mesh pipeline swaps the winding.

use glam::{Mat4, Vec3};

use crate::anim::{Pose, morphed_vertices, skinned_bounds};
use crate::scene::{CameraTrack, CameraView, FrameBounds, Scene, UpAxis};

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
    /// A view that replaces the orbit (an animated camera followed): eye, target and up in world space, and
    /// the projection. `None`: the orbit above.
    pub fixed: Option<FixedView>,
}

/// A camera placed by eye, target and up (world space), perspective or orthographic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FixedView {
    pub eye: Vec3,
    pub target: Vec3,
    pub up: Vec3,
    /// `Some(half height)` of an orthographic view at any depth; `None`: perspective with `Camera::fov_y`.
    pub ortho_half_height: Option<f32>,
}

/// An MMD camera view in the renderer's right-handed Y-up world: [`CameraView::in_world`].
pub fn mmd_view_to_world(v: &CameraView) -> CameraView {
    v.in_world()
}

/// Eye positions of `track` over its key range (world space, see [`mmd_view_to_world`]), `samples` evenly
/// spaced times, the ends included: the camera's path as a polyline. Empty without keys.
pub fn camera_path(track: &CameraTrack, samples: usize) -> Vec<Vec3> {
    let (Some(first), Some(last)) = (track.keys.first(), track.keys.last()) else { return Vec::new() };
    let n = samples.max(2);
    (0..n)
        .filter_map(|i| {
            let t = first.time + (last.time - first.time) * i as f32 / (n - 1) as f32;
            Some(mmd_view_to_world(&track.view_at(t)?).eye)
        })
        .collect()
}

/// The frustum of `track` at `seconds` as line segments (world space): the four edges from the eye to the
/// corners of the picture at the target's depth, that picture's outline, and a tick above it for "up". An
/// orthographic camera draws a box instead of a pyramid. Empty without keys.
pub fn camera_frustum(track: &CameraTrack, seconds: f32, aspect: f32) -> Vec<[Vec3; 2]> {
    let Some(v) = track.view_at(seconds).map(|v| mmd_view_to_world(&v)) else { return Vec::new() };
    let forward = (v.target - v.eye).normalize_or(Vec3::NEG_Z);
    let depth = (v.target - v.eye).length().max(1e-3);
    let right = forward.cross(v.up).normalize_or(Vec3::X);
    let up = right.cross(forward);
    let h = depth * (v.fov_y.clamp(1e-3, 3.1) * 0.5).tan();
    let w = h * if aspect.is_finite() && aspect > 0.0 { aspect } else { 1.0 };
    let corner = |sx: f32, sy: f32| v.target + right * (w * sx) + up * (h * sy);
    let c = [corner(-1.0, -1.0), corner(1.0, -1.0), corner(1.0, 1.0), corner(-1.0, 1.0)];
    let mut out = Vec::with_capacity(12);
    for i in 0..4 {
        let near = if v.perspective { v.eye } else { v.eye + (c[i] - v.target) };
        out.push([near, c[i]]);
        out.push([c[i], c[(i + 1) % 4]]);
    }
    out.push([corner(-0.3, 1.0), corner(0.0, 1.4)]);
    out.push([corner(0.0, 1.4), corner(0.3, 1.0)]);
    out
}

/// Largest |pitch|, short of looking straight down the up axis.
const MAX_PITCH: f32 = 89.0 * std::f32::consts::PI / 180.0;

impl Camera {
    /// The camera that shows all of `bounds` (model space) in a viewport of `aspect` (width / height), from
    /// the given angles. The same inputs always give the same camera.
    pub fn framing(up: UpAxis, bounds: &FrameBounds, yaw: f32, pitch: f32, aspect: f32) -> Camera {
        let basis = up.basis();
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
            fixed: None,
        }
    }

    /// The camera of `track` at `seconds`, converted to world space by [`mmd_view_to_world`], for a model of
    /// axis `up`. Orthographic views (`perspective` false) show the height the perspective view would show at
    /// the target's distance. The clip planes enclose `scene_radius` around the world origin and the target.
    /// `None` when the track has no keys.
    pub fn following(track: &CameraTrack, seconds: f32, up: UpAxis, scene_radius: f32) -> Option<Camera> {
        let v = mmd_view_to_world(&track.view_at(seconds)?);
        let distance = (v.eye - v.target).length();
        let fov_y = if v.fov_y.is_finite() && v.fov_y > 1e-4 { v.fov_y.min(3.1) } else { 30f32.to_radians() };
        let reach = distance + v.target.length() + scene_radius.max(1e-3) + v.eye.length();
        let ortho = (!v.perspective).then(|| (distance * (fov_y * 0.5).tan()).max(1e-4));
        Some(Camera {
            up,
            target: v.target,
            distance,
            yaw: 0.0,
            pitch: 0.0,
            fov_y,
            // The path may pass close to the model, but a near plane much closer than the scene's size costs the
            // depth buffer its precision: at 1e-5 of the reach, layers 0.05 units apart (hair over hair, a
            // decal on a shirt) fought at the corpus dance's camera distance. Far/near stays 2000, and the
            // near plane at a thousandth of the scene's reach (0.15 units for the dance) clips nothing a
            // motion's camera frames.
            near: if ortho.is_some() { -reach } else { (reach * 1e-3).max(1e-3) },
            far: reach * 2.0,
            fixed: Some(FixedView { eye: v.eye, target: v.target, up: v.up, ortho_half_height: ortho }),
        })
    }

    /// Model space → world space.
    pub fn model_matrix(&self) -> Mat4 {
        self.up.basis()
    }

    /// Direction from the target to the camera, world space.
    pub fn direction(&self) -> Vec3 {
        let pitch = self.pitch.clamp(-MAX_PITCH, MAX_PITCH);
        Vec3::new(self.yaw.sin() * pitch.cos(), pitch.sin(), self.yaw.cos() * pitch.cos())
    }

    /// Camera position, world space.
    pub fn eye(&self) -> Vec3 {
        match &self.fixed {
            Some(f) => f.eye,
            None => self.target + self.direction() * self.distance,
        }
    }

    pub fn view(&self) -> Mat4 {
        match &self.fixed {
            Some(f) => {
                let up = if f.up.cross(f.target - f.eye).length_squared() > 1e-12 { f.up } else { Vec3::Y };
                glam::camera::rh::view::look_at_mat4(f.eye, f.target, up)
            }
            None => glam::camera::rh::view::look_at_mat4(self.eye(), self.target, Vec3::Y),
        }
    }

    /// Right-handed perspective with depth 0..1 and Y up, as wgpu expects (glam's "directx" convention).
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let aspect = if aspect.is_finite() && aspect > 0.0 { aspect } else { 1.0 };
        if let Some(h) = self.fixed.and_then(|f| f.ortho_half_height) {
            let w = h * aspect;
            return glam::camera::rh::proj::directx::orthographic(-w, w, -h, h, self.near, self.far);
        }
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

/// The model-space ray (origin on the near plane, unit direction) through the point `ndc` (x right, y up, −1..1)
/// of a view whose model-to-clip matrix is `model_to_clip` (depth 0..1); `None` for a degenerate matrix.
pub fn ray_through(model_to_clip: Mat4, ndc: glam::Vec2) -> Option<(Vec3, Vec3)> {
    let inverse = model_to_clip.inverse();
    let (near, far) = (inverse.project_point3(ndc.extend(0.0)), inverse.project_point3(ndc.extend(1.0)));
    Some((near, (far - near).try_normalize()?))
}

/// Clip frames sampled to frame a camera on a whole clip (`render`, `pose --pick`, the window's framing,
/// contact sheets and recordings).
pub const FRAMING_SAMPLES: usize = 64;

/// The camera of a still or a picture of a whole clip: framed on [`animation_bounds`] of `clip` (the bind pose
/// for `None`), so the model doesn't jump between frames, from `yaw` and `pitch` (radians) for a picture of
/// `aspect`, with the morph weights `overrides` sets; with the bounds it framed. `None` for a model without
/// vertices. `render` draws with it and
/// `pose --pick` casts its rays through it.
pub fn clip_camera(
    scene: &Scene,
    clip: Option<usize>,
    default_fps: f32,
    overrides: &[Option<f32>],
    (yaw, pitch): (f32, f32),
    aspect: f32,
) -> Option<(Camera, FrameBounds)> {
    let bounds = animation_bounds(scene, clip, default_fps, overrides, FRAMING_SAMPLES)?;
    Some((Camera::framing(scene.up, &bounds, yaw, pitch, aspect), bounds))
}

/// The bounds of the skeleton's joints posed over a whole clip (or the bind pose when `clip` is `None`), sampled
/// as [`animation_bounds`] samples: what frames a file with bones but no mesh (an animation, a rig). A box of
/// at least a unit around a single joint; `None` without joints.
pub fn skeleton_bounds(scene: &Scene, clip: Option<usize>, default_fps: f32, samples: usize) -> Option<FrameBounds> {
    if scene.skeleton.is_empty() {
        return None;
    }
    let clip = clip.and_then(|i| scene.clips.get(i));
    let last = clip.map_or(0, |c| c.frame_count.saturating_sub(1));
    let n = (last as usize + 1).min(samples.max(2));
    let mut points = Vec::new();
    let mut pose = Pose::default();
    for i in 0..n {
        let frame = if n == 1 { 0 } else { ((i as u64 * last as u64) / (n as u64 - 1)) as u32 };
        pose.update_scene(scene, clip, frame as f32, default_fps, &[]);
        points.extend(pose.world.iter().map(|m| m.w_axis.truncate()).filter(|p| p.is_finite()));
    }
    grown_to(FrameBounds::of_points(&points)?, 1.0)
}

/// A box grown evenly on every side by half of what its diagonal lacks of `least`: a lone joint, or joints that
/// all meet, still frame.
fn grown_to(b: FrameBounds, least: f32) -> Option<FrameBounds> {
    let pad = (least - b.diagonal()).max(0.0) * 0.5;
    Some(if pad > 0.0 { FrameBounds::of_points(&[b.min - Vec3::splat(pad), b.max + Vec3::splat(pad)])? } else { b })
}

/// The bounds of `pose` as it is drawn: the mesh morphed and skinned by it (physics, IK and SDEF included, as
/// the pose has them), or for a file without vertices its joints (a box of at least a unit, as
/// [`skeleton_bounds`]); `None` with neither. What a still frames (`render --frame`, `thumbnail`, the window's
/// F): the character where it stands at that instant, where [`clip_camera`] frames everywhere it goes.
pub fn pose_bounds(scene: &Scene, pose: &Pose) -> Option<FrameBounds> {
    if let Some(b) = skinned_bounds(&morphed_vertices(scene, &pose.morphs), &pose.palette) {
        return Some(b);
    }
    let joints: Vec<Vec3> = pose.world.iter().map(|m| m.w_axis.truncate()).filter(|p| p.is_finite()).collect();
    grown_to(FrameBounds::of_points(&joints)?, 1.0)
}

/// The bounds of joints `joints` in `pose`: the joints themselves and the vertices that weigh most on one of
/// them, grown evenly to at least a fifth of the whole pose's size so that a joint that carries nothing (an IK
/// target, a tip) frames with what is around it. What the window's F frames when joints are selected; `None`
/// when none of them is in the pose.
pub fn joints_bounds(scene: &Scene, pose: &Pose, joints: &[usize]) -> Option<FrameBounds> {
    let chosen = |j: u32| joints.contains(&(j as usize));
    let mut points: Vec<Vec3> = joints.iter().filter_map(|&j| pose.world.get(j)).map(|m| m.w_axis.truncate()).collect();
    if points.is_empty() {
        return None;
    }
    let vertices = morphed_vertices(scene, &pose.morphs);
    let skinned = crate::anim::skin_positions(&vertices, &pose.palette);
    if let (Some(js), Some(ws)) = (&vertices.joints, &vertices.weights) {
        for ((j, w), p) in js.iter().zip(ws).zip(&skinned) {
            let heaviest = (0..4).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap_or(0);
            if w[heaviest] > 0.0 && chosen(j[heaviest]) {
                points.push(*p);
            }
        }
    }
    points.retain(|p| p.is_finite());
    // The whole pose's size, from the vertices just skinned (or the joints, for a file without vertices).
    let all = FrameBounds::of_points(&skinned).or_else(|| pose_bounds(scene, pose));
    let least = all.map_or(1.0, |all| all.diagonal()) * 0.2;
    grown_to(FrameBounds::of_points(&points)?, least)
}

/// The bounds of the mesh as the viewer draws it (constraints and morphs applied, skinned) over a whole clip
/// (or the bind pose when `clip` is `None`), with the morph weights `overrides` sets (as
/// [`Pose::update_scene`]), so a camera framed on it doesn't jump between frames. Long clips
/// are sampled: at most `samples` evenly spaced whole frames, the first and last included. `None` for a model
/// without vertices.
pub fn animation_bounds(
    scene: &Scene,
    clip: Option<usize>,
    default_fps: f32,
    overrides: &[Option<f32>],
    samples: usize,
) -> Option<FrameBounds> {
    // Posed as the viewer draws it: constraints (IK, appends), bone morphs and vertex morphs included.
    let bounds_of = |pose: &Pose| skinned_bounds(&morphed_vertices(scene, &pose.morphs), &pose.palette);
    let Some(clip) = clip.and_then(|i| scene.clips.get(i)) else {
        return bounds_of(&Pose::of_scene(scene, None, 0.0, default_fps, overrides));
    };
    let last = clip.frame_count.saturating_sub(1);
    let n = (last as usize + 1).min(samples.max(2));
    let mut pose = Pose::default();
    let mut all: Option<FrameBounds> = None;
    for i in 0..n {
        let frame = if n == 1 { 0 } else { ((i as u64 * last as u64) / (n as u64 - 1)) as u32 };
        pose.update_scene(scene, Some(clip), frame as f32, default_fps, overrides);
        if let Some(b) = bounds_of(&pose) {
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
        let b = UpAxis::Z.basis();
        assert!(b.transform_vector3(Vec3::Z).abs_diff_eq(Vec3::Y, 1e-6));
        assert!(b.transform_vector3(-Vec3::Y).abs_diff_eq(Vec3::Z, 1e-6));
        assert!((b.determinant() - 1.0).abs() < 1e-6, "a rotation keeps the winding");
    }

    #[test]
    fn rsm_bases_stand_upright() {
        let b = UpAxis::NegY.basis();
        assert!(b.transform_vector3(-Vec3::Y).abs_diff_eq(Vec3::Y, 1e-6));
        assert!(!UpAxis::NegY.mirrors() && !UpAxis::Z.mirrors() && !UpAxis::Y.mirrors());
        let m = UpAxis::YLeftHanded.basis();
        assert!(m.transform_vector3(Vec3::Y).abs_diff_eq(Vec3::Y, 1e-6));
        assert!(UpAxis::YLeftHanded.mirrors());
    }

    /// A followed MMD camera keeps the depth buffer fine enough at its target to tell apart layers a model
    /// stacks 0.01 units apart (hair over hair, a decal on a shirt; the corpus character's are about that): one
    /// step of the 32-bit float depth there, d² · 2⁻²⁴ / near, is under 1e-3 units for MikuMikuDance's default
    /// camera 45 units from a dance whose bounds reach 47 units from the origin. At 1e-5 of the reach for the
    /// near plane it was 0.05 units, and the corpus dance's hair and shirt showed the layers fighting.
    #[test]
    fn a_followed_camera_keeps_depth_precision_at_its_target() {
        use crate::scene::{CameraKey, Easing};
        let key = CameraKey {
            time: 0.0,
            target: Vec3::new(0.0, 10.0, 0.0),
            distance: -45.0,
            angles: Vec3::ZERO,
            fov_y: 30f32.to_radians(),
            ease: [Easing::LINEAR; 4],
            target_ease: None,
        };
        let track = CameraTrack { name: "c".into(), clip: None, keys: vec![key], properties: vec![], cut_span: 0.1 };
        let cam = Camera::following(&track, 0.0, UpAxis::Y, 47.0).unwrap();
        let d = cam.distance;
        let step = d * d * 2f32.powi(-24) / cam.near;
        assert!(step < 1e-3, "depth step {step} at {d} units (near {}, far {})", cam.near, cam.far);
        assert!(cam.near < 0.5, "the near plane ({}) clips a camera brought close", cam.near);
    }

    /// Hand-worked: MVD key target (1, 10, 2), distance 50, angles (π/6, π, 0). In MMD space (MVD note §6)
    /// C = Ry(−π)·Rx(−π/6); Rx(−π/6)·(0,0,50) = (0, 25, 50·cos 30°) = (0, 25, 43.30), Ry(−π) negates x and z:
    /// (0, 25, −43.30), so the eye is (1, 35, −41.30); up = C·Y: Rx(−π/6)·Y = (0, 0.866, −0.5), then (0, 0.866,
    /// 0.5). Mirroring Z gives the world eye (1, 35, 41.30), target (1, 10, −2) and up (0, 0.866, −0.5): above
    /// and in front, looking down toward −Z.
    #[test]
    fn mmd_camera_is_mirrored_into_the_right_handed_world() {
        use crate::scene::{CameraKey, Easing};
        use std::f32::consts::PI;
        let key = CameraKey {
            time: 0.0,
            target: Vec3::new(1.0, 10.0, 2.0),
            distance: 50.0,
            angles: Vec3::new(PI / 6.0, PI, 0.0),
            fov_y: 30f32.to_radians(),
            ease: [Easing::LINEAR; 4],
            target_ease: None,
        };
        let mmd = key.view(true);
        let c30 = 50.0 * (PI / 6.0).cos();
        assert!(mmd.eye.abs_diff_eq(Vec3::new(1.0, 35.0, 2.0 - c30), 1e-3), "{}", mmd.eye);
        let w = mmd_view_to_world(&mmd);
        assert!(w.eye.abs_diff_eq(Vec3::new(1.0, 35.0, c30 - 2.0), 1e-3), "{}", w.eye);
        assert!(w.target.abs_diff_eq(Vec3::new(1.0, 10.0, -2.0), 1e-5));
        // Up is perpendicular to the view and tilted toward the far side (−Z), as pitching down does.
        assert!(w.up.dot(w.target - w.eye).abs() < 1e-3 && w.up.y > 0.8 && w.up.z < -0.4, "{}", w.up);

        let track = CameraTrack { name: "c".into(), clip: None, keys: vec![key], properties: vec![], cut_span: 0.1 };
        let cam = Camera::following(&track, 0.0, UpAxis::Y, 10.0).unwrap();
        let vp = cam.view_proj(1.0);
        // The target is at the centre; world +X is to the right and +Y up on screen (a right-handed view).
        assert!(vp.project_point3(w.target).truncate().abs_diff_eq(glam::Vec2::ZERO, 1e-4));
        assert!(vp.project_point3(w.target + Vec3::X).x > 0.01);
        assert!(vp.project_point3(w.target + Vec3::Y).y > 0.01);
        let z = vp.project_point3(w.target).z;
        assert!((0.0..=1.0).contains(&z), "{z}");
        // The default MMD camera (eye (0, 10, −50)) sits at (0, 10, 50) in the world, looking toward −Z.
        let default = CameraKey { target: Vec3::new(0.0, 10.0, 0.0), angles: Vec3::new(0.0, PI, 0.0), ..key };
        let d = mmd_view_to_world(&default.view(true));
        assert!(d.eye.abs_diff_eq(Vec3::new(0.0, 10.0, 50.0), 1e-3) && d.up.abs_diff_eq(Vec3::Y, 1e-5));
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

    /// Framing covers what the viewer draws: a vertex morph the clip turns on moves a vertex out of the rest
    /// shape, and the bounds reach it.
    #[test]
    fn animation_bounds_include_the_clips_morphs() {
        use crate::scene::{
            Clip, ClipData, Format, Key, Metadata, Morph, MorphKind, MorphPanel, MorphTrack, VertexOffset,
        };
        let mut scene = Scene::empty(Metadata::new(Format::Pmx, "2.0"));
        scene.vertices.positions = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
        let offsets = vec![VertexOffset { vertex: 0, delta: Vec3::new(-10.0, 0.0, 0.0) }];
        scene.morphs = vec![Morph {
            name: "reach".into(),
            name_en: String::new(),
            panel: MorphPanel::Other,
            kind: MorphKind::Vertex(offsets),
        }];
        let mut clip = Clip::new("wave", 30.0, false, 31, ClipData::Keyed { tracks: Vec::new() });
        let keys = vec![Key { time: 0.0, value: 0.0 }, Key { time: 1.0, value: 1.0 }];
        clip.morphs = vec![MorphTrack { name: "reach".into(), keys, ease: Vec::new() }];
        scene.clips = vec![clip];
        let still = animation_bounds(&scene, None, 30.0, &[], 64).unwrap();
        assert_eq!(still.min.x, 0.0);
        let moving = animation_bounds(&scene, Some(0), 30.0, &[], 64).unwrap();
        assert!((moving.min.x + 10.0).abs() < 1e-5, "{:?}", moving.min);
        // A weight set by hand (`render --morph`) counts in the still pose too.
        let set = animation_bounds(&scene, None, 30.0, &[Some(0.5)], 64).unwrap();
        assert!((set.min.x + 5.0).abs() < 1e-5, "{:?}", set.min);
    }
}

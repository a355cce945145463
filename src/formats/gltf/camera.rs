//! glTF cameras into the scene's animated cameras (`CameraTrack`), the form MMD camera motions load into, so an
//! exported MMD camera reads back as one.
//!
//! A glTF camera looks down its node's −Z with +Y up. Each key (the union of the node's translation and
//! rotation key times in an animation) becomes a `CameraKey` in MMD's left-handed space: the view is mirrored
//! back (`CameraView::in_world` is its own inverse), the target put a fixed distance ahead of the eye, and the
//! orientation turned into MMD's Euler angles (`C = Ry(−ay)·Rx(−ax)·Rz(az)`). Animated parents of a camera node
//! are taken at rest.

use glam::{EulerRot, Mat3, Mat4, Quat, Vec3};
use gltf::animation::Property;

use super::accessor::Buffers;
use super::nodes::Graph;
use super::sampler::{self, sample};
use super::warn;
use crate::error::{LoadError, Warning};
use crate::scene::{CameraKey, CameraTrack, CameraView, Easing};

/// How far ahead of the eye the target is put (glTF cameras have no target).
const TARGET_DISTANCE: f32 = 10.0;

/// One camera track per camera node and animation that moves it (a still camera: one key at its rest pose).
pub fn read(
    doc: &gltf::Document,
    graph: &Graph,
    buffers: &Buffers,
    w: &mut Vec<Warning>,
) -> Result<Vec<CameraTrack>, LoadError> {
    let mut tracks = Vec::new();
    let mut cubic = false;
    for node in doc.nodes().filter(|n| n.camera().is_some() && graph.in_scene[n.index()]) {
        let i = node.index();
        let fov = node
            .camera()
            .and_then(|c| match c.projection() {
                gltf::camera::Projection::Perspective(p) => Some(p.yfov()),
                gltf::camera::Projection::Orthographic(_) => None,
            })
            .unwrap_or(30f32.to_radians());
        let parent = graph.parent[i].map_or(Mat4::IDENTITY, |p| graph.world[p]);
        let rest = (graph.local[i].translation, graph.local[i].rotation);
        let name = graph.names[i].clone();
        let mut moved = false;
        for anim in doc.animations() {
            // Keys of each channel, and whether they step.
            let (mut translation, mut rotation) = ((Vec::new(), false), (Vec::new(), false));
            for ch in anim.channels().filter(|c| c.target().node().index() == i) {
                let label = format!("animation {} channel {} (camera \"{name}\")", anim.index(), ch.index());
                let property = ch.target().property();
                let dims: &[usize] = match property {
                    Property::Translation => &[3],
                    Property::Rotation => &[4],
                    _ => continue,
                };
                let keys = match sampler::read(&ch.sampler(), buffers, &label, dims)? {
                    Ok(keys) => keys,
                    Err(skipped) => {
                        warn(w, skipped.rule, skipped.message);
                        continue;
                    }
                };
                cubic |= keys.cubic();
                if property == Property::Translation {
                    translation = (keys.pairs().map(|(t, v)| (t, Vec3::from_slice(v))).collect(), keys.step());
                } else {
                    rotation = (keys.pairs().map(|(t, v)| (t, Quat::from_slice(v))).collect(), keys.step());
                }
            }
            let (translation, translation_steps) = translation;
            let (rotation, rotation_steps) = rotation;
            if translation.is_empty() && rotation.is_empty() {
                continue;
            }
            moved = true;
            let translation_times: Vec<f32> = translation.iter().map(|k| k.0).collect();
            let rotation_times: Vec<f32> = rotation.iter().map(|k| k.0).collect();
            let times = sampler::key_times([
                (&translation_times[..], translation_steps),
                (&rotation_times[..], rotation_steps),
            ]);
            let keys = times
                .iter()
                .map(|&t| {
                    let eye = sample(&translation, translation_steps, t, rest.0, |a, b, u| a.lerp(b, u));
                    let q = sample(&rotation, rotation_steps, t, rest.1, |a, b, u| a.slerp(b, u));
                    key(t, parent, eye, q, fov)
                })
                .collect();
            let clip = Some(anim.name().map_or_else(|| format!("animation {}", anim.index()), str::to_string));
            tracks.push(CameraTrack { name: name.clone(), clip, keys, properties: Vec::new(), cut_span: 0.0 });
        }
        if !moved {
            let keys = vec![key(0.0, parent, rest.0, rest.1, fov)];
            tracks.push(CameraTrack { name, clip: None, keys, properties: Vec::new(), cut_span: 0.0 });
        }
    }
    if cubic {
        let message = "CUBICSPLINE camera keys are played linearly through their values (tangents dropped)".into();
        warn(w, "gltf.animation.cubicspline", message);
    }
    Ok(tracks)
}

/// The MMD camera key of a glTF camera at `eye` turned by `q` (under `parent`) at time `t`.
fn key(t: f32, parent: Mat4, eye: Vec3, q: Quat, fov_y: f32) -> CameraKey {
    let q = if q.is_finite() && q.length_squared() > 0.0 { q.normalize() } else { Quat::IDENTITY };
    let world = parent * Mat4::from_rotation_translation(q, eye);
    let forward = world.transform_vector3(-Vec3::Z).normalize_or(-Vec3::Z);
    let up = world.transform_vector3(Vec3::Y).normalize_or(Vec3::Y);
    let eye = world.transform_point3(Vec3::ZERO);
    let view = CameraView { target: eye + forward * TARGET_DISTANCE, eye, up, fov_y, perspective: true }.in_world();
    // C·(0,0,1)·distance = eye − target with distance = −TARGET_DISTANCE: C's Z column is the forward direction.
    let z = (view.target - view.eye).normalize_or(Vec3::Z);
    let x = view.up.cross(z).normalize_or(Vec3::X);
    let c = Mat3::from_cols(x, z.cross(x), z);
    let (y, xa, za) = c.to_euler(EulerRot::YXZ);
    CameraKey {
        time: t,
        target: view.target,
        distance: -TARGET_DISTANCE,
        angles: Vec3::new(-xa, -y, za),
        fov_y,
        ease: [Easing::LINEAR; 4],
        target_ease: None,
    }
}

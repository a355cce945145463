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
use crate::error::LoadError;
use crate::scene::{CameraKey, CameraTrack, CameraView, Easing};

/// How far ahead of the eye the target is put (glTF cameras have no target).
const TARGET_DISTANCE: f32 = 10.0;

/// One camera track per camera node and animation that moves it (a still camera: one key at its rest pose).
pub fn read(doc: &gltf::Document, graph: &Graph, buffers: &Buffers) -> Result<Vec<CameraTrack>, LoadError> {
    let mut tracks = Vec::new();
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
            let (mut translation, mut rotation) = (Vec::new(), Vec::new());
            for ch in anim.channels().filter(|c| c.target().node().index() == i) {
                let (_, times) = buffers.floats(&ch.sampler().input(), "camera key times", &[1])?;
                match ch.target().property() {
                    Property::Translation => {
                        let (_, v) = buffers.floats(&ch.sampler().output(), "camera translation", &[3])?;
                        translation = times.into_iter().zip(v.chunks_exact(3).map(Vec3::from_slice)).collect();
                    }
                    Property::Rotation => {
                        let (_, v) = buffers.floats(&ch.sampler().output(), "camera rotation", &[4])?;
                        rotation = times.into_iter().zip(v.chunks_exact(4).map(Quat::from_slice)).collect();
                    }
                    _ => {}
                }
            }
            if translation.is_empty() && rotation.is_empty() {
                continue;
            }
            moved = true;
            let mut times: Vec<f32> = translation.iter().map(|k| k.0).chain(rotation.iter().map(|k| k.0)).collect();
            times.sort_by(f32::total_cmp);
            times.dedup();
            let keys = times
                .iter()
                .map(|&t| {
                    let eye = sample(&translation, t, rest.0, |a, b, u| a.lerp(b, u));
                    let q = sample(&rotation, t, rest.1, |a, b, u| a.slerp(b, u));
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
    Ok(tracks)
}

/// Linear between keys, held outside them; `rest` without keys.
fn sample<T: Copy>(keys: &[(f32, T)], t: f32, rest: T, mix: impl Fn(T, T, f32) -> T) -> T {
    let Some(first) = keys.first() else { return rest };
    let i = keys.partition_point(|k| k.0 <= t);
    if i == 0 {
        return first.1;
    }
    let a = keys[i - 1];
    match keys.get(i) {
        Some(b) if b.0 > a.0 => mix(a.1, b.1, ((t - a.0) / (b.0 - a.0)).clamp(0.0, 1.0)),
        _ => a.1,
    }
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

//! MMD camera tracks (VMD, MVD) as glTF cameras on animated nodes.
//!
//! A glTF camera looks down its node's −Z with +Y up, so each sampled view becomes the node's translation (the
//! eye) and rotation. Views are taken in the renderer's world space (`render::mmd_view_to_world`), which is
//! glTF's (Y up, right-handed), where every model stands after its change of axes ([`CameraView::in_world`]).
//! The track is sampled at every frame of MikuMikuDance's rate: exact at each frame, linear in between (a cut blends over one frame).

use glam::{Mat3, Quat, Vec3};
use gltf::json;
use json::animation::Property;
use json::validation::Checked;
use json::{Index, Node};

use super::buffer::{Builder, bounds};
use crate::scene::{CameraTrack, CameraView};

/// Key rate of the sampled camera: MikuMikuDance's 30 frames per second.
const CAMERA_FPS: f32 = 30.0;

/// The node pose of a camera seeing `v` (world space): at the eye, −Z toward the target, +Y toward `up`.
fn pose(v: &CameraView) -> (Vec3, Quat) {
    let back = (v.eye - v.target).normalize_or(Vec3::Z);
    let right = v.up.cross(back).normalize_or(Vec3::X);
    let up = back.cross(right);
    (v.eye, Quat::from_mat3(&Mat3::from_cols(right, up, back)).normalize())
}

/// Writes a camera and its node for `track`, posed at its first key; `None` without keys.
pub fn camera_node(b: &mut Builder, track: &CameraTrack) -> Option<Index<Node>> {
    let first = track.view_at(track.keys.first()?.time)?.in_world();
    let yfov = if first.fov_y.is_finite() && first.fov_y > 1e-3 { first.fov_y.min(3.1) } else { 30f32.to_radians() };
    let camera = b.root.push(json::Camera {
        name: Some(track.name.clone()),
        orthographic: None,
        perspective: Some(json::camera::Perspective {
            aspect_ratio: None,
            yfov,
            zfar: None,
            znear: 0.1,
            extensions: None,
            extras: Default::default(),
        }),
        type_: Checked::Valid(json::camera::Type::Perspective),
        extensions: None,
        extras: Default::default(),
    });
    let (t, r) = pose(&first);
    let mut node =
        super::rig::node(&track.name, crate::scene::Transform { translation: t, rotation: r, scale: Vec3::ONE });
    node.camera = Some(camera);
    Some(b.root.push(node))
}

/// The sampled path of `track` as translation and rotation series: (times, eyes, rotations).
pub fn samples(track: &CameraTrack) -> (Vec<f32>, Vec<[f32; 3]>, Vec<[f32; 4]>) {
    let rate = CAMERA_FPS;
    let end = track.end_time().max(0.0);
    let count = (end * rate).round() as usize + 1;
    let (mut times, mut eyes, mut rotations) = (Vec::new(), Vec::new(), Vec::<[f32; 4]>::new());
    for i in 0..count {
        let time = i as f32 / rate;
        let Some(v) = track.view_at(time) else { continue };
        let (eye, mut q) = pose(&v.in_world());
        if rotations.last().is_some_and(|p| Quat::from_array(*p).dot(q) < 0.0) {
            q = -q;
        }
        times.push(time);
        eyes.push(eye.to_array());
        rotations.push(q.to_array());
    }
    (times, eyes, rotations)
}

/// Adds the channels of `track`'s sampled path on `node` to an animation's samplers and channels.
pub fn channels(
    b: &mut Builder,
    track: &CameraTrack,
    node: Index<Node>,
    samplers: &mut Vec<json::animation::Sampler>,
    channels: &mut Vec<json::animation::Channel>,
) {
    let (times, eyes, rotations) = samples(track);
    if times.is_empty() {
        return;
    }
    let input = b.array(&times, None, bounds(times.iter().map(|t| [*t])));
    let eyes = b.array(&eyes, None, None);
    let rotations = b.array(&rotations, None, None);
    for (output, property) in [(eyes, Property::Translation), (rotations, Property::Rotation)] {
        let sampler = super::rig::sampler(samplers, input, output, false);
        channels.push(super::rig::channel(sampler, node, property));
    }
}

/// Whether the field of view changes over `track` (glTF can't animate it without KHR_animation_pointer).
pub fn fov_changes(track: &CameraTrack) -> bool {
    track.keys.windows(2).any(|w| (w[0].fov_y - w[1].fov_y).abs() > 1e-4)
}

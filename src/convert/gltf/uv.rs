//! RSM 2.3 UV animation as glTF's `KHR_texture_transform`, animated through `KHR_animation_pointer`.
//!
//! rigscope moves a mesh's UVs by `T(½)·S(s)·R(r)·T(t − ½)` (`UvAnimation::matrix`: scale and rotation about the
//! texture's centre, after the translation); the extension by `T(offset)·R(rotation)·S(scale)`. With uniform
//! scale, or no rotation, `S·R = R·S`, so `rotation = r`, `scale = s` and `offset = ½ + S·R·(t − ½)` say the
//! same exactly; a non-uniform scale with a rotation is written the same way, which only approximates it (a
//! note says so). A mesh with UV animation gets a material of its own, whose texture transform the pointer
//! channels move. gltf-json has no `pointer` path, so those channels are added to the JSON after it is made.

use glam::{Affine2, Vec2};
use gltf::json;

use super::buffer::{Builder, bounds};
use crate::scene::UvAnimation;

/// The extension's offset, rotation and scale for `anim` at `time`; `exact` is false when they only
/// approximate it.
pub fn transform(anim: &UvAnimation, time: f32) -> ([f32; 2], f32, [f32; 2], bool) {
    let (t, s, r) = anim.components(time);
    let linear = Affine2::from_scale(s) * Affine2::from_angle(r);
    let offset = Vec2::splat(0.5) + linear.transform_vector2(t - Vec2::splat(0.5));
    let exact = (s.x - s.y).abs() <= 1e-6 * s.x.abs().max(1.0) || r.rem_euclid(std::f32::consts::PI) == 0.0;
    (offset.to_array(), r, s.to_array(), exact)
}

/// The texture transform of `anim` at its first key, for the material's own (rest) value.
pub fn rest(anim: &UvAnimation) -> json::extensions::texture::TextureTransform {
    let (offset, rotation, scale, _) = transform(anim, 0.0);
    json::extensions::texture::TextureTransform {
        offset: json::extensions::texture::TextureTransformOffset(offset),
        rotation: json::extensions::texture::TextureTransformRotation(rotation),
        scale: json::extensions::texture::TextureTransformScale(scale),
        // Spelled out: gltf-json writes an unset texCoord as null, which the schema refuses.
        tex_coord: Some(0),
        extras: Default::default(),
    }
}

/// A channel gltf-json can't spell: its sampler in animation `animation`, and the JSON pointer it animates.
pub struct PointerChannel {
    pub animation: usize,
    pub sampler: u32,
    pub pointer: String,
}

/// Samplers for `anim` on material `material`'s base colour texture transform, at each of its keys and
/// `end`, added to `animation`; returns the channels to add, and whether every key was exact.
pub fn channels(
    b: &mut Builder,
    anim: &UvAnimation,
    material: usize,
    animation: usize,
    end: f32,
) -> (Vec<PointerChannel>, bool) {
    let mut times: Vec<f32> = anim.channels.iter().flat_map(|c| c.keys.iter().map(|k| k.0.max(0.0))).collect();
    times.push(0.0);
    times.push(end.max(0.0));
    times.sort_by(f32::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    let samples: Vec<_> = times.iter().map(|&t| transform(anim, t)).collect();
    let exact = samples.iter().all(|s| s.3);
    let input = b.array(&times, None, bounds(times.iter().map(|t| [*t])));
    let offsets: Vec<[f32; 2]> = samples.iter().map(|s| s.0).collect();
    let rotations: Vec<f32> = samples.iter().map(|s| s.1).collect();
    let scales: Vec<[f32; 2]> = samples.iter().map(|s| s.2).collect();
    let outputs = [
        ("offset", b.array(&offsets, None, None)),
        ("rotation", b.array(&rotations, None, None)),
        ("scale", b.array(&scales, None, None)),
    ];
    let base = format!("/materials/{material}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform");
    let mut out = Vec::new();
    for (field, output) in outputs {
        let samplers = &mut b.root.animations[animation].samplers;
        let sampler = super::rig::sampler(samplers, input, output, false);
        out.push(PointerChannel { animation, sampler: sampler.value() as u32, pointer: format!("{base}/{field}") });
    }
    (out, exact)
}

/// Adds `channels` to the serialised document `root` (a `pointer` path with its `KHR_animation_pointer`).
pub fn add_pointer_channels(root: &mut serde_json::Value, channels: &[PointerChannel]) {
    for c in channels {
        let channel = serde_json::json!({
            "sampler": c.sampler,
            "target": { "path": "pointer", "extensions": { "KHR_animation_pointer": { "pointer": c.pointer } } }
        });
        if let Some(list) = root["animations"][c.animation]["channels"].as_array_mut() {
            list.push(channel);
        }
    }
}

//! `KHR_animation_pointer` channels: taken out of the JSON before the `gltf` crate reads it (their targets have
//! no node, which it requires), and those that move a material's base colour `KHR_texture_transform` (offset,
//! rotation, scale) read back as the scene's UV animation of the meshes drawn with that material, the inverse
//! of what the exporter writes (`convert::gltf::uv`). Other pointer channels are dropped with a warning.

use glam::{Affine2, Vec2};

use super::accessor::Buffers;
use super::sampler::{self, sample};
use super::warn;
use crate::error::{LoadError, Warning};
use crate::scene::{Mesh, UvAnimation, UvChannel, UvChannelKind};

/// One channel taken out: its animation, its sampler there, and the pointer it animates.
pub struct PointerChannel {
    animation: usize,
    sampler: usize,
    pointer: String,
}

/// Whether the JSON names `KHR_animation_pointer` at all (most files don't: they are read in one pass).
pub fn mentions_pointers(json: &[u8]) -> bool {
    json.windows(b"KHR_animation_pointer".len()).any(|w| w == b"KHR_animation_pointer")
}

/// Takes the channels whose target has no node out of the parsed JSON `value` and returns them.
pub fn take_pointer_channels(value: &mut serde_json::Value) -> Vec<PointerChannel> {
    let mut taken = Vec::new();
    if let Some(animations) = value.get_mut("animations").and_then(|a| a.as_array_mut()) {
        for (a, anim) in animations.iter_mut().enumerate() {
            let Some(channels) = anim.get_mut("channels").and_then(|c| c.as_array_mut()) else { continue };
            channels.retain(|c| {
                if c["target"].get("node").is_some() {
                    return true;
                }
                let pointer = c["target"]["extensions"]["KHR_animation_pointer"]["pointer"].as_str();
                if let (Some(pointer), Some(sampler)) = (pointer, c["sampler"].as_u64()) {
                    taken.push(PointerChannel { animation: a, sampler: sampler as usize, pointer: pointer.into() });
                }
                false
            });
        }
    }
    taken
}

/// Reads the texture-transform pointers of `channels` into the UV animation of every mesh whose (glTF)
/// material they address.
pub fn uv_animations(
    doc: &gltf::Document,
    buffers: &Buffers,
    channels: &[PointerChannel],
    meshes: &mut [Mesh],
    w: &mut Vec<Warning>,
) -> Result<(), LoadError> {
    // Per material: (offset, rotation, scale) keys.
    let mut by_material: std::collections::BTreeMap<usize, [FieldKeys; 3]> = Default::default();
    let (mut other, mut cubic) = (0usize, false);
    for c in channels {
        let field = texture_transform_field(&c.pointer);
        let Some((material, field)) = field else {
            other += 1;
            continue;
        };
        let Some(sampler) = doc.animations().nth(c.animation).and_then(|a| a.samplers().nth(c.sampler)) else {
            other += 1;
            continue;
        };
        let label = format!("animation {} sampler {} ({})", c.animation, c.sampler, c.pointer);
        let keys = match sampler::read(&sampler, buffers, &label, &[1, 2])? {
            Ok(keys) => keys,
            Err(skipped) => {
                warn(w, skipped.rule, skipped.message);
                continue;
            }
        };
        cubic |= keys.cubic();
        let values = keys.pairs().map(|(t, v)| (t, v.to_vec())).collect();
        by_material.entry(material).or_default()[field] = FieldKeys { values, step: keys.step() };
    }
    if other > 0 {
        let message = format!("{other} KHR_animation_pointer channel(s) other than texture transforms are not played");
        warn(w, "gltf.animation.pointer", message);
    }
    if cubic {
        let message = "CUBICSPLINE texture-transform keys are played linearly through their values".into();
        warn(w, "gltf.animation.cubicspline", message);
    }
    for (material, [offset, rotation, scale]) in by_material {
        let anim = uv_animation(&offset, &rotation, &scale);
        for m in meshes.iter_mut().filter(|m| m.material == material) {
            m.uv_animation = Some(anim.clone());
        }
    }
    Ok(())
}

/// `/materials/M/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/FIELD`: the material
/// and the field (0 offset, 1 rotation, 2 scale).
fn texture_transform_field(pointer: &str) -> Option<(usize, usize)> {
    let rest = pointer.strip_prefix("/materials/")?;
    let (material, rest) = rest.split_once('/')?;
    let field = rest.strip_prefix("pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/")?;
    let field = ["offset", "rotation", "scale"].iter().position(|f| *f == field)?;
    Some((material.parse().ok()?, field))
}

/// One texture-transform field's keys (each a value of one or two components) and whether they step.
#[derive(Default)]
struct FieldKeys {
    values: Vec<(f32, Vec<f32>)>,
    step: bool,
}

/// The UV animation whose matrix is `T(offset)·R(rotation)·S(scale)` at every key time: rigscope's
/// `T(½)·S·R·T(t − ½)` with `t = ½ + (S·R)⁻¹·(offset − ½)` (exact when the scale is uniform).
fn uv_animation(offset: &FieldKeys, rotation: &FieldKeys, scale: &FieldKeys) -> UvAnimation {
    let field_times: Vec<(Vec<f32>, bool)> =
        [offset, rotation, scale].iter().map(|f| (f.values.iter().map(|k| k.0).collect(), f.step)).collect();
    let times = sampler::key_times(field_times.iter().map(|(t, step)| (&t[..], *step)));
    // Component `i` of a field's keys (`default` where a key lacks it), and its value at `t`.
    let component = |field: &FieldKeys, i: usize, default: f32| {
        let keys: Vec<(f32, f32)> =
            field.values.iter().map(|k| (k.0, k.1.get(i).copied().unwrap_or(default))).collect();
        (keys, field.step, default)
    };
    let at = |(keys, step, default): &(Vec<(f32, f32)>, bool, f32), t: f32| {
        sample(keys, *step, t, *default, |a, b, u| a + (b - a) * u)
    };
    let (offset_u, offset_v) = (component(offset, 0, 0.0), component(offset, 1, 0.0));
    let angle = component(rotation, 0, 0.0);
    let (scale_u, scale_v) = (component(scale, 0, 1.0), component(scale, 1, 1.0));
    let kinds = [
        UvChannelKind::TranslateU,
        UvChannelKind::TranslateV,
        UvChannelKind::ScaleU,
        UvChannelKind::ScaleV,
        UvChannelKind::Rotate,
    ];
    let mut channels: Vec<UvChannel> = kinds.iter().map(|&kind| UvChannel { kind, keys: Vec::new() }).collect();
    for &t in &times {
        let o = Vec2::new(at(&offset_u, t), at(&offset_v, t));
        let r = at(&angle, t);
        let s = Vec2::new(at(&scale_u, t), at(&scale_v, t));
        let linear = Affine2::from_scale(s) * Affine2::from_angle(r);
        let inverse = linear.inverse();
        let back = inverse.transform_vector2(o - Vec2::splat(0.5));
        let translate = Vec2::splat(0.5) + if back.is_finite() { back } else { o - Vec2::splat(0.5) };
        for (c, v) in channels.iter_mut().zip([translate.x, translate.y, s.x, s.y, r]) {
            c.keys.push((t, v));
        }
    }
    UvAnimation { channels }
}

//! `KHR_animation_pointer` channels: taken out of the JSON before the `gltf` crate reads it (their targets have
//! no node, which it requires), and those that move a material's base colour `KHR_texture_transform` (offset,
//! rotation, scale) read back as the scene's UV animation of the meshes drawn with that material, the inverse
//! of what the exporter writes (`convert::gltf::uv`). Other pointer channels are dropped with a warning.

use glam::{Affine2, Vec2};

use super::accessor::Buffers;
use crate::error::{LoadError, Location, Warning};
use crate::scene::{Mesh, UvAnimation, UvChannel, UvChannelKind};

/// One channel taken out: its animation, its sampler there, and the pointer it animates.
pub struct PointerChannel {
    animation: usize,
    sampler: usize,
    pointer: String,
}

/// The JSON without channels whose target has no node (`None` when it has none, or isn't JSON the gltf crate
/// would read anyway), and those channels.
pub fn take_pointer_channels(json: &[u8]) -> (Option<Vec<u8>>, Vec<PointerChannel>) {
    if !json.windows(b"KHR_animation_pointer".len()).any(|w| w == b"KHR_animation_pointer") {
        return (None, Vec::new());
    }
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(json) else { return (None, Vec::new()) };
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
    (serde_json::to_vec(&value).ok(), taken)
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
    type Keys = Vec<(f32, Vec<f32>)>;
    let mut by_material: std::collections::BTreeMap<usize, [Keys; 3]> = Default::default();
    let mut other = 0usize;
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
        let (_, times) = buffers.floats(&sampler.input(), "pointer key times", &[1])?;
        let (dims, values) = buffers.floats(&sampler.output(), "pointer values", &[1, 2])?;
        let keys: Keys = times
            .iter()
            .enumerate()
            .filter_map(|(k, &t)| Some((t, values.get(k * dims..(k + 1) * dims)?.to_vec())))
            .collect();
        by_material.entry(material).or_default()[field] = keys;
    }
    if other > 0 {
        let message = format!("{other} KHR_animation_pointer channel(s) other than texture transforms are not played");
        w.push(Warning { rule: "gltf.animation.pointer", location: Location::File, message });
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

/// The UV animation whose matrix is `T(offset)·R(rotation)·S(scale)` at every key time: rigscope's
/// `T(½)·S·R·T(t − ½)` with `t = ½ + (S·R)⁻¹·(offset − ½)` (exact when the scale is uniform).
fn uv_animation(offset: &[(f32, Vec<f32>)], rotation: &[(f32, Vec<f32>)], scale: &[(f32, Vec<f32>)]) -> UvAnimation {
    let mut times: Vec<f32> = offset.iter().chain(rotation).chain(scale).map(|k| k.0).collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    let at = |keys: &[(f32, Vec<f32>)], t: f32, i: usize, default: f32| {
        let n = keys.partition_point(|k| k.0 <= t);
        let pick = |k: &(f32, Vec<f32>)| k.1.get(i).copied().unwrap_or(default);
        match (n.checked_sub(1).and_then(|p| keys.get(p)), keys.get(n)) {
            (Some(a), Some(b)) if b.0 > a.0 => pick(a) + (pick(b) - pick(a)) * (t - a.0) / (b.0 - a.0),
            (Some(a), _) => pick(a),
            (None, Some(b)) => pick(b),
            (None, None) => default,
        }
    };
    let kinds = [
        UvChannelKind::TranslateU,
        UvChannelKind::TranslateV,
        UvChannelKind::ScaleU,
        UvChannelKind::ScaleV,
        UvChannelKind::Rotate,
    ];
    let mut channels: Vec<UvChannel> = kinds.iter().map(|&kind| UvChannel { kind, keys: Vec::new() }).collect();
    for &t in &times {
        let o = Vec2::new(at(offset, t, 0, 0.0), at(offset, t, 1, 0.0));
        let r = at(rotation, t, 0, 0.0);
        let s = Vec2::new(at(scale, t, 0, 1.0), at(scale, t, 1, 1.0));
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

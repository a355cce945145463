//! Animations into keyed clips: translation, rotation and scale channels as `Replace` tracks on the joints the
//! rig made of their nodes, morph weight channels as morph tracks by morph name.

use std::collections::BTreeMap;

use glam::{Quat, Vec3};
use gltf::animation::Property;

use super::accessor::Buffers;
use super::mesh::Geometry;
use super::nodes::Rig;
use super::sampler;
use super::warn;
use crate::error::{LoadError, Warning};
use crate::scene::{Clip, ClipData, Interpolation, Key, MorphTrack, Track, TrackMode};

/// Frame rate of a clip whose keys are not evenly spaced.
const FALLBACK_FPS: f32 = 30.0;

pub fn read(
    doc: &gltf::Document,
    rig: &Rig,
    geometry: &Geometry,
    buffers: &Buffers,
    w: &mut Vec<Warning>,
) -> Result<Vec<Clip>, LoadError> {
    doc.animations().map(|a| read_animation(&a, rig, geometry, buffers, w)).collect()
}

fn read_animation(
    anim: &gltf::Animation,
    rig: &Rig,
    geometry: &Geometry,
    buffers: &Buffers,
    w: &mut Vec<Warning>,
) -> Result<Clip, LoadError> {
    let name = anim.name().map_or_else(|| format!("animation {}", anim.index()), str::to_string);
    let mut tracks: BTreeMap<(usize, u8), Track> = BTreeMap::new();
    let mut morphs: Vec<MorphTrack> = Vec::new();
    let mut times_all: Vec<f32> = Vec::new();
    let mut cubic = false;
    for channel in anim.channels() {
        let label = format!("animation {} channel {}", anim.index(), channel.index());
        let node = channel.target().node().index();
        let property = channel.target().property();
        let dims: &[usize] = if property == Property::Rotation {
            &[4]
        } else if property == Property::MorphTargetWeights {
            &[1]
        } else {
            &[3]
        };
        // Channels of other nodes (cameras: `camera::read` plays and reports them) only lengthen the clip.
        let plays = if property == Property::MorphTargetWeights {
            geometry.node_morphs.contains_key(&node)
        } else {
            rig.joint_of_node.get(node).copied().flatten().is_some()
        };
        let keys = match sampler::read(&channel.sampler(), buffers, &label, dims)? {
            Ok(keys) => keys,
            Err(skipped) => {
                if plays {
                    warn(w, skipped.rule, skipped.message);
                }
                continue;
            }
        };
        let (times, width) = (&keys.times, keys.width);
        let value = |k: usize, e: usize| keys.value(k, e);
        times_all.extend(times);
        cubic |= plays && keys.cubic();
        if property == Property::MorphTargetWeights {
            let Some(list) = geometry.node_morphs.get(&node) else {
                warn(
                    w,
                    "gltf.animation.weights",
                    format!("{label}: node {node} has no morph targets, channel skipped"),
                );
                continue;
            };
            // Morph tracks play linearly: a STEP channel is keyed again just before each jump, holding.
            let step_times = keys.step().then(|| sampler::key_times([(&times[..], true)]));
            for (t, &m) in list.iter().enumerate().take(width) {
                let key = |(k, &time): (usize, &f32)| Key { time, value: value(k, t)[0] };
                let keys = match &step_times {
                    None => times.iter().enumerate().map(key).collect(),
                    Some(step_times) => {
                        let held: Vec<(f32, f32)> =
                            times.iter().enumerate().map(|(k, &time)| (time, value(k, t)[0])).collect();
                        step_times
                            .iter()
                            .map(|&time| Key { time, value: sampler::sample(&held, true, time, 0.0, |a, _, _| a) })
                            .collect()
                    }
                };
                morphs.push(MorphTrack { name: geometry.morphs[m].name.clone(), keys, ease: Vec::new() });
            }
            continue;
        }
        let Some(joint) = rig.joint_of_node.get(node).copied().flatten() else { continue };
        let interp_cubic = keys.cubic();
        let interp = if keys.step() { Interpolation::Step } else { Interpolation::Linear };
        let track = tracks.entry((joint, interp as u8)).or_insert_with(|| Track {
            joint,
            mode: TrackMode::Replace,
            interpolation: interp,
            translation: Vec::new(),
            rotation: Vec::new(),
            scale: Vec::new(),
            ease: None,
        });
        let keys = times.iter().enumerate();
        match property {
            Property::Translation => {
                track.translation = keys.map(|(k, &time)| Key { time, value: Vec3::from_slice(value(k, 0)) }).collect()
            }
            Property::Scale => {
                track.scale = keys.map(|(k, &time)| Key { time, value: Vec3::from_slice(value(k, 0)) }).collect()
            }
            Property::Rotation => {
                track.rotation = keys
                    .map(|(k, &time)| {
                        let q = Quat::from_slice(value(k, 0));
                        let q = if q.is_finite() && q.length_squared() > 0.0 { q.normalize() } else { Quat::IDENTITY };
                        Key { time, value: q }
                    })
                    .collect();
                if interp_cubic {
                    hemisphere_warning(w, &label, node, &track.rotation);
                }
            }
            Property::MorphTargetWeights => {}
        }
    }
    if cubic {
        let m = format!(
            "animation \"{name}\": CUBICSPLINE keys are played linearly through their values (tangents dropped)"
        );
        warn(w, "gltf.animation.cubicspline", m);
    }
    let (fps, frame_count) = frame_rate(&mut times_all);
    // rigscope's own exports say the clip's rate, length and looping (a looping clip's last key is frame 0 again).
    let own = super::extras::rigscope_extras(anim.extras());
    let fps = own.as_ref().and_then(|e| e["frameRate"].as_f64()).map_or(fps, |f| f as f32);
    let frame_count = own.as_ref().and_then(|e| e["frameCount"].as_u64()).map_or(frame_count, |n| n as u32);
    let looping = own.as_ref().and_then(|e| e["looping"].as_bool()).unwrap_or(false);
    let mut clip =
        Clip::new(name, fps, looping, frame_count, ClipData::Keyed { tracks: tracks.into_values().collect() });
    clip.morphs = morphs;
    Ok(clip)
}

/// A CUBICSPLINE rotation's consecutive values in opposite hemispheres. The spec's Hermite blend works on the
/// stored components and only normalises the result (Appendix C; LINEAR's slerp alone takes the shorter way),
/// so three.js's and Babylon's cubic players turn the long way round, through a near-zero quaternion where a
/// value is the negation of the next. rigscope plays the values linearly and takes the short way.
fn hemisphere_warning(w: &mut Vec<Warning>, label: &str, node: usize, keys: &[Key<Quat>]) {
    let opposite: Vec<usize> = (1..keys.len()).filter(|&k| keys[k - 1].value.dot(keys[k].value) < 0.0).collect();
    let Some(&first) = opposite.first() else { return };
    let (t0, t1) = (keys[first - 1].time, keys[first].time);
    let message = format!(
        "{label}: node {node}'s CUBICSPLINE rotation has {} pair(s) of consecutive values in opposite hemispheres \
         (first between {t0:.3} s and {t1:.3} s), which cubic players blend the long way round (negate the later \
         value and its tangents)",
        opposite.len()
    );
    warn(w, "gltf.animation.hemisphere", message);
}

/// The clip's frame rate (the spacing of its keys when they are all whole multiples of one, else 30) and the
/// frame count that covers its last key.
fn frame_rate(times: &mut [f32]) -> (f32, u32) {
    times.sort_by(f32::total_cmp);
    let end = times.last().copied().unwrap_or(0.0).max(0.0);
    let step = times.windows(2).map(|p| p[1] - p[0]).filter(|&d| d > 1e-5).fold(f32::INFINITY, f32::min);
    let mut fps = FALLBACK_FPS;
    if step.is_finite() {
        let candidate = 1.0 / step;
        let rounded = candidate.round();
        let candidate = if (candidate - rounded).abs() < 1e-2 * candidate.max(1.0) { rounded } else { candidate };
        let whole = times.iter().all(|t| (t * candidate - (t * candidate).round()).abs() < 1e-2);
        let on_frames = |rate: f32| times.iter().all(|t| (t * rate - (t * rate).round()).abs() < 1e-2);
        if whole && (1.0..=1000.0).contains(&candidate) {
            // Sparse keys (a key a second) keep a usual rate they fall on, for a timeline that scrubs smoothly.
            fps = [30.0, 24.0].into_iter().find(|&r| candidate < 24.0 && on_frames(r)).unwrap_or(candidate);
        }
    }
    let frames = (end * fps - 1e-3).ceil().clamp(0.0, 1e7) as u32 + 1;
    (fps, frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_rate_is_the_key_spacing_when_every_key_is_on_a_frame() {
        assert_eq!(frame_rate(&mut [0.0, 1.0 / 24.0, 0.5, 1.0]), (24.0, 25));
        assert_eq!(frame_rate(&mut [0.0, 0.5, 1.0, 0.25]), (24.0, 25));
        assert_eq!(frame_rate(&mut [0.0, 1.0 / 7.0]), (7.0, 2));
        assert_eq!(frame_rate(&mut [0.0, 0.3, 0.71]), (30.0, 23));
        assert_eq!(frame_rate(&mut []), (30.0, 1));
        assert_eq!(frame_rate(&mut [0.0, 1.0]), (30.0, 31));
    }
}

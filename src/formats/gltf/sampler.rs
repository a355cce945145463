//! One animation sampler's keys, read the same way for joint channels, morph weights, cameras and pointer
//! channels: times that must be finite and increasing, and per key the value a player passes through. A
//! CUBICSPLINE key stores (in-tangent, value, out-tangent); its value is the middle element, and its tangents are
//! not played (the caller says so in a warning). A STEP sampler holds each value until the next key.

use gltf::animation::Interpolation;

use super::accessor::Buffers;
use crate::error::LoadError;

/// A sampler's keys, with the values it passes through.
pub struct Keys {
    pub times: Vec<f32>,
    values: Vec<f32>,
    /// Components per element (3 for a translation, 4 for a rotation, 1 for a weight).
    dims: usize,
    /// Elements per key: the morph target count for weights, else 1.
    pub width: usize,
    /// Element groups per key: 3 for CUBICSPLINE, else 1.
    stride: usize,
    pub interpolation: Interpolation,
}

impl Keys {
    /// Element `e` of key `k` (`k` below the key count, `e` below `width`): `dims` components.
    pub fn value(&self, k: usize, e: usize) -> &[f32] {
        let at = ((k * self.stride + self.stride / 2) * self.width + e) * self.dims;
        &self.values[at..at + self.dims]
    }

    /// Every key of element 0 with its time.
    pub fn pairs(&self) -> impl Iterator<Item = (f32, &[f32])> + '_ {
        self.times.iter().enumerate().map(|(k, &t)| (t, self.value(k, 0)))
    }

    pub fn step(&self) -> bool {
        self.interpolation == Interpolation::Step
    }

    pub fn cubic(&self) -> bool {
        self.interpolation == Interpolation::CubicSpline
    }
}

/// Why a sampler can't be played: a warning's rule and message (the rest of the file still loads).
pub struct Skipped {
    pub rule: &'static str,
    pub message: String,
}

/// The keys of `sampler`, whose output elements have one of `dims` components. A malformed accessor is an error
/// (`LoadError`); times or output counts that make no animation skip the sampler (`Skipped`).
pub fn read(
    sampler: &gltf::animation::Sampler,
    buffers: &Buffers,
    label: &str,
    dims: &[usize],
) -> Result<Result<Keys, Skipped>, LoadError> {
    let (_, times) = buffers.floats(&sampler.input(), &format!("{label} input"), &[1])?;
    if times.iter().any(|t| !t.is_finite()) || times.windows(2).any(|p| p[1] < p[0]) {
        let message = format!("{label}: key times not finite and increasing, channel skipped");
        return Ok(Err(Skipped { rule: "gltf.animation.times", message }));
    }
    let (d, values) = buffers.floats(&sampler.output(), &format!("{label} output"), dims)?;
    let interpolation = sampler.interpolation();
    let stride = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
    let elements = values.len() / d;
    let per_key = elements / times.len().max(1);
    let width = per_key / stride;
    if times.is_empty() || width == 0 || per_key % stride != 0 || elements != per_key * times.len() {
        let message = format!("{label}: {elements} output values for {} keys, channel skipped", times.len());
        return Ok(Err(Skipped { rule: "gltf.animation.output", message }));
    }
    Ok(Ok(Keys { times, values, dims: d, width, stride, interpolation }))
}

/// The value at `t` of keys `(time, value)` sorted by time: held before the first and after the last, between
/// two keys mixed by `mix` (or held, for `step`); `rest` when there are none.
pub fn sample<T: Copy>(keys: &[(f32, T)], step: bool, t: f32, rest: T, mix: impl Fn(T, T, f32) -> T) -> T {
    let Some(first) = keys.first() else { return rest };
    let i = keys.partition_point(|k| k.0 <= t);
    if i == 0 {
        return first.1;
    }
    let a = keys[i - 1];
    match keys.get(i) {
        Some(b) if b.0 > a.0 && !step => mix(a.1, b.1, ((t - a.0) / (b.0 - a.0)).clamp(0.0, 1.0)),
        _ => a.1,
    }
}

/// The times at which channels sampled together need a key, sorted: every key time, and for a channel that
/// steps, a time just before each of its later keys too (holding the earlier value there makes a linear
/// player jump where the channel jumps).
pub fn key_times<'a>(channels: impl IntoIterator<Item = (&'a [f32], bool)>) -> Vec<f32> {
    let mut times = Vec::new();
    for (keys, step) in channels {
        times.extend_from_slice(keys);
        if step {
            for pair in keys.windows(2).filter(|p| p[1] > p[0]) {
                // At least one representable step before the key, even where STEP_LEAD rounds away (late keys).
                let lead = (pair[1] - ((pair[1] - pair[0]) * 0.5).min(STEP_LEAD)).min(pair[1].next_down());
                if lead > pair[0] {
                    times.push(lead);
                }
            }
        }
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// How long before a stepping key the held value is keyed, in seconds (at most half the gap).
const STEP_LEAD: f32 = 1e-4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stepping_channel_is_keyed_just_before_each_jump_even_late_in_a_long_clip() {
        let times = key_times([(&[0.0, 1.0, 5000.0][..], true), (&[0.5][..], false)]);
        assert_eq!(times.len(), 6, "{times:?}");
        assert!(times[2] > 0.9998 && times[2] < 1.0, "{times:?}");
        assert!(times[4] < 5000.0 && times[4] > 4999.99, "{times:?}");
        // Keys one step apart jump at once: nothing fits between them.
        let tight = key_times([(&[1.0, 1.0f32.next_up()][..], true)]);
        assert_eq!(tight.len(), 2);
    }
}

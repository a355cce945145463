//! Quantisation the way the reference converter does it: animation channels into `u16` frames, blend
//! weights into bytes.

use super::Pose;
use crate::formats::iqm::layout::POSE_CHANNELS;

/// One pose's quantisation: the header of its pose record without the parent, which the caller knows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PoseChannels {
    pub mask: u32,
    pub offset: [f32; POSE_CHANNELS],
    pub scale: [f32; POSE_CHANNELS],
}

impl PoseChannels {
    pub fn to_pose(&self, parent: i32) -> Pose {
        Pose { parent, channel_mask: self.mask, channel_offset: self.offset, channel_scale: self.scale }
    }
}

/// Quantises animation the way the reference converter does, so converted files match its output bit for bit.
///
/// `samples` is frame-major (`samples[frame * num_poses + pose]`, channels Tx Ty Tz Qx Qy Qz Qw Sx Sy Sz); a
/// trailing partial frame is ignored. A channel whose range over all frames is at least 1e-10 is masked with
/// `offset = min` and `scale = range/65535`; any other is constant (`offset = min`, `scale = 0`, unmasked) and
/// costs no frame data. Returns the per-pose channels, `num_framechannels`, and the frame data.
pub fn quantize_channels(samples: &[[f32; POSE_CHANNELS]], num_poses: usize) -> (Vec<PoseChannels>, u32, Vec<u16>) {
    if num_poses == 0 {
        return (Vec::new(), 0, Vec::new());
    }
    let frames: Vec<&[[f32; POSE_CHANNELS]]> = samples.chunks_exact(num_poses).collect();
    let mut poses = vec![PoseChannels::default(); num_poses];
    let mut channels = 0u32;
    for (p, pose) in poses.iter_mut().enumerate() {
        for k in 0..POSE_CHANNELS {
            let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
            for frame in &frames {
                lo = lo.min(frame[p][k]);
                hi = hi.max(frame[p][k]);
            }
            // No frames, or only NaN (which min/max skip): a constant channel with something to show.
            if lo > hi {
                lo = frames.first().map_or(0.0, |frame| frame[p][k]);
                hi = lo;
            }
            let range = hi - lo;
            pose.offset[k] = lo;
            if range >= 1e-10 {
                pose.mask |= 1 << k;
                pose.scale[k] = range / 65535.0;
                channels += 1;
            }
        }
    }
    let mut data = Vec::with_capacity(frames.len() * channels as usize);
    for frame in &frames {
        for (pose, values) in poses.iter().zip(frame.iter()) {
            for k in (0..POSE_CHANNELS).filter(|k| pose.mask & (1 << k) != 0) {
                // f32 arithmetic and flooring mirror the converter's `ushort(0.5f + (v - base) / scale)`.
                let q = (0.5 + (values[k] - pose.offset[k]) / pose.scale[k]).floor();
                data.push(q.clamp(0.0, 65535.0) as u16);
            }
        }
    }
    (poses, channels, data)
}

/// Turns (already top-4) blend weights into bytes that sum to exactly 255, because readers divide by 255 and a
/// sum off by one scales the skinned vertex. Negative and non-finite weights count as 0; all-zero input gives
/// all-zero output (the bind pose). The rounding error goes to the largest slot, where it matters least.
pub fn quantize_weights(weights: [f32; 4]) -> [u8; 4] {
    let w = weights.map(|w| if w.is_finite() && w > 0.0 { f64::from(w) } else { 0.0 });
    let sum: f64 = w.iter().sum();
    if sum <= 0.0 {
        return [0; 4];
    }
    let mut q = w.map(|w| (w / sum * 255.0).round().clamp(0.0, 255.0) as i32);
    let mut largest = 0;
    for i in 1..4 {
        if q[i] > q[largest] {
            largest = i;
        }
    }
    q[largest] = (q[largest] + 255 - q.iter().sum::<i32>()).clamp(0, 255);
    q.map(|c| c as u8)
}

//! Stored per-frame bounds against the skinned mesh (IQM checklist item 22).
//!
//! This skins every frame of every clip that stores bounds, so it is not part of loading (a large file would
//! pay for it on every open); `info`, and later `check` and the UI, run it on demand.

use super::{Pose, skinned_bounds};
use crate::error::{Location, Warning};
use crate::scene::{DEFAULT_FPS, FrameBounds, Scene};

/// One frame whose stored bounds fail to contain the skinned mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundsMiss {
    pub clip: usize,
    /// Frame within the clip.
    pub frame: u32,
    /// How far the skinned mesh pokes out of the stored box, in model units.
    pub by: f32,
    pub stored: FrameBounds,
    pub skinned: FrameBounds,
}

/// How far `inner` reaches outside `outer` (0 when contained).
fn overshoot(outer: &FrameBounds, inner: &FrameBounds) -> f32 {
    (outer.min - inner.min).max(inner.max - outer.max).max_element().max(0.0)
}

/// Stored bounds that miss the skinned mesh by more than this fraction of the model's size are reported, by
/// `info` and the window alike.
pub const BOUNDS_TOLERANCE: f32 = 1e-3;

/// Every frame whose stored bounds miss the skinned mesh by more than `relative` of the model's size, in
/// clip and frame order. Frames are skinned in parallel on every core (rayon; inside `check --jobs` the files'
/// own parallelism shares the same threads).
pub fn stored_bounds_misses(scene: &Scene, relative: f32) -> Vec<BoundsMiss> {
    use rayon::prelude::*;
    if scene.vertices.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (ci, clip) in scene.clips.iter().enumerate() {
        let Some(stored) = &clip.bounds else { continue };
        let Some(first) = stored.first() else { continue };
        let size = stored.iter().fold(*first, |a, b| a.union(b)).diagonal();
        let misses: Vec<BoundsMiss> = stored
            .par_iter()
            .enumerate()
            .map_init(Pose::default, |pose, (k, b)| {
                pose.update(&scene.skeleton, clip, k as f32, DEFAULT_FPS);
                let skinned = skinned_bounds(&scene.vertices, &pose.palette)?;
                let by = overshoot(b, &skinned);
                (by > relative * size).then_some(BoundsMiss { clip: ci, frame: k as u32, by, stored: *b, skinned })
            })
            .flatten()
            .collect();
        out.extend(misses);
    }
    out
}

/// The misses as warnings: one per clip, naming the worst frame and how many frames miss.
pub fn stored_bounds_warnings(scene: &Scene, relative: f32) -> Vec<Warning> {
    bounds_miss_warnings(scene, &stored_bounds_misses(scene, relative))
}

/// Misses already found by [`stored_bounds_misses`], as warnings, so a caller that keeps the misses doesn't
/// skin every frame a second time for the warnings.
pub fn bounds_miss_warnings(scene: &Scene, misses: &[BoundsMiss]) -> Vec<Warning> {
    let mut out = Vec::new();
    for (ci, clip) in scene.clips.iter().enumerate() {
        let mine: Vec<&BoundsMiss> = misses.iter().filter(|m| m.clip == ci).collect();
        let Some(worst) = mine.iter().max_by(|a, b| a.by.total_cmp(&b.by)) else { continue };
        out.push(Warning {
            rule: "bounds.stored",
            location: Location::File,
            message: format!(
                "anim \"{}\": stored bounds miss the skinned mesh in {} of {} frames (worst: frame {} by {:.4})",
                clip.name,
                mine.len(),
                clip.frame_count,
                worst.frame,
                worst.by
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{SynthSpec, document};

    #[test]
    fn a_shrunken_stored_box_is_reported_at_its_frame() {
        let mut doc = document(SynthSpec { vertices: 600, joints: 12, frames: 6 });
        let scene = crate::load_bytes("a.iqm", &doc.to_bytes()).unwrap();
        let mut pose = Pose::default();
        let mut bounds = Vec::new();
        for f in 0..6 {
            pose.update(&scene.skeleton, &scene.clips[0], f as f32, DEFAULT_FPS);
            let b = skinned_bounds(&scene.vertices, &pose.palette).unwrap();
            bounds.push(crate::formats::iqm::write::Bounds {
                min: b.min.to_array(),
                max: b.max.to_array(),
                xy_radius: b.xy_radius,
                radius: b.radius,
            });
        }
        bounds[4].max[2] -= 1.0;
        doc.bounds = Some(bounds);
        let scene = crate::load_bytes("a.iqm", &doc.to_bytes()).unwrap();
        let misses = stored_bounds_misses(&scene, 1e-3);
        assert_eq!(misses.len(), 1);
        assert_eq!(misses[0].frame, 4);
        assert!((misses[0].by - 1.0).abs() < 1e-4);
        let w = stored_bounds_warnings(&scene, 1e-3);
        assert!(w[0].message.contains("1 of 6 frames (worst: frame 4 by 1.0000)"), "{}", w[0].message);
    }
}

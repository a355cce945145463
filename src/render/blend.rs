//! How each vertex blends its joints on the GPU (a mesh's [`VertexBlend`]: PMX's SDEF and QDEF), uploaded once.
//! The vertex shader (shaders/skin.wgsl, `vertex_transform`) reads its vertex's word and blends linearly,
//! spherically or by dual quaternions, as `src/anim/skin.rs` does on the CPU.
//!
//! One texture of 32-bit words (group 3, binding 1, R32Uint, `data_texture.rs`): the number of vertices listed
//! `n`, then one word per vertex: [`LINEAR`], [`DUAL_QUATERNION`], or [`SPHERICAL`] plus the word offset of its
//! nine-word record (the centre and the two corrected midpoints, [`crate::anim::spherical_points`], as f32
//! bits). A mesh that blends every vertex linearly uploads the one word `0`.

use super::Renderer;
use super::data_texture::DataTexture;
use crate::scene::{BlendMethod, VertexStreams};

pub(crate) const LINEAR: u32 = 0;
pub(crate) const DUAL_QUATERNION: u32 = 1;
pub(crate) const SPHERICAL: u32 = 2;
const RECORD_WORDS: usize = 9;

/// The words for `vertices`' blend methods (the first joint's weight decides a spherical vertex's midpoints).
fn layout(vertices: &VertexStreams) -> Vec<u32> {
    let Some(blend) = vertices.blend.as_ref().filter(|b| b.methods.iter().any(|m| *m != BlendMethod::Linear)) else {
        return vec![0];
    };
    let n = blend.methods.len().min(vertices.len());
    let records = 1 + n;
    let mut words = Vec::with_capacity(records + RECORD_WORDS * blend.spherical.len());
    words.push(n as u32);
    words.resize(records, LINEAR);
    for i in 0..n {
        words[1 + i] = match blend.of(i) {
            (BlendMethod::DualQuaternion, _) => DUAL_QUATERNION,
            (BlendMethod::Spherical(_), Some(s)) => {
                let w0 = vertices.weights.as_ref().and_then(|w| w.get(i)).map_or(1.0, |w| w[0]);
                let at = words.len() as u32;
                for p in crate::anim::spherical_points(s, w0) {
                    words.extend(p.to_array().map(|x| if x.is_finite() { x.to_bits() } else { 0 }));
                }
                SPHERICAL + at
            }
            _ => LINEAR,
        };
    }
    words
}

/// A mesh's blend methods on the GPU.
pub(crate) struct GpuBlend {
    pub(crate) words: DataTexture,
}

impl GpuBlend {
    pub(crate) fn upload(renderer: &Renderer, vertices: &VertexStreams) -> GpuBlend {
        let words = layout(vertices);
        let texture = DataTexture::new(renderer, "vertex blend", wgpu::TextureFormat::R32Uint, words.len());
        texture.write(renderer, 0, super::bytes(&words));
        GpuBlend { words: texture }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{SphericalBlend, VertexBlend};
    use glam::Vec3;

    #[test]
    fn methods_are_listed_per_vertex_with_their_records() {
        let s = SphericalBlend { c: Vec3::new(1.0, 2.0, 3.0), r0: Vec3::ZERO, r1: Vec3::ZERO };
        let vertices = VertexStreams {
            positions: vec![Vec3::ZERO; 3],
            weights: Some(vec![[1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [0.25, 0.75, 0.0, 0.0]]),
            blend: Some(VertexBlend {
                methods: vec![BlendMethod::Linear, BlendMethod::DualQuaternion, BlendMethod::Spherical(0)],
                spherical: vec![s],
            }),
            ..Default::default()
        };
        let words = layout(&vertices);
        assert_eq!(&words[..4], &[3, LINEAR, DUAL_QUATERNION, SPHERICAL + 4]);
        let f = f32::to_bits;
        // With R0 = R1 = 0 both midpoints are the centre.
        assert_eq!(&words[4..], &[1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0].map(f));
        // All linear: one word.
        let linear = VertexStreams { positions: vec![Vec3::ZERO; 3], ..Default::default() };
        assert_eq!(layout(&linear), [0]);
    }
}

//! Vertex and UV morphs on the GPU: every offset of every vertex and texture-coordinate morph, listed per vertex,
//! uploaded once; per frame only one weight per morph is written, so the CPU cost of morph playback does not
//! grow with the vertex count. The vertex shader (shaders/skin.wgsl, `morph`) adds each of its vertex's offsets
//! times its morph's weight before skinning.
//!
//! One texture of 32-bit words (group 3, R32Uint, `data_texture.rs`): a header `[vertices, slots, ranges, entries]` (word offsets),
//! then one weight per slot (f32), then `(first, count)` per vertex, then six words per offset:
//! `dx, dy, dz, du, dv` (f32) and the slot.

use super::data_texture::DataTexture;
use super::{Renderer, bytes};
use crate::scene::{Morph, MorphKind};

const HEADER_WORDS: usize = 4;
const ENTRY_WORDS: usize = 6;

/// A scene's morph offsets on the GPU and the bind group that reads them.
pub(crate) struct GpuMorphs {
    words: DataTexture,
    /// The blend methods the bind group also reads (kept with it).
    _blend: super::blend::GpuBlend,
    pub(crate) group: wgpu::BindGroup,
    /// The slot of each scene morph that moves vertices or texture coordinates.
    slot_of_morph: Vec<Option<u32>>,
    slots: usize,
    /// The weights last written, so an unchanged frame writes nothing.
    written: std::cell::RefCell<Vec<f32>>,
}

/// The words of the morph buffer for `morphs` over `vertices` vertices, and each morph's slot.
fn layout(morphs: &[Morph], vertices: usize) -> (Vec<u32>, Vec<Option<u32>>) {
    let mut slot_of_morph = vec![None; morphs.len()];
    let mut per_vertex: Vec<Vec<[u32; ENTRY_WORDS]>> = Vec::new();
    let mut slots = 0u32;
    for (i, m) in morphs.iter().enumerate() {
        let entries: Vec<(u32, [f32; 5])> = match &m.kind {
            MorphKind::Vertex(v) => v.iter().map(|o| (o.vertex, [o.delta.x, o.delta.y, o.delta.z, 0.0, 0.0])).collect(),
            MorphKind::Uv { channel: 0, offsets } => {
                offsets.iter().map(|o| (o.vertex, [0.0, 0.0, 0.0, o.delta.x, o.delta.y])).collect()
            }
            _ => continue,
        };
        let slot = slots;
        slots += 1;
        slot_of_morph[i] = Some(slot);
        for (v, d) in entries.into_iter().filter(|(v, _)| (*v as usize) < vertices) {
            if per_vertex.len() <= v as usize {
                per_vertex.resize_with(v as usize + 1, Vec::new);
            }
            let d = d.map(|x| if x.is_finite() { x.to_bits() } else { 0 });
            per_vertex[v as usize].push([d[0], d[1], d[2], d[3], d[4], slot]);
        }
    }
    let n = per_vertex.len();
    let ranges = HEADER_WORDS + slots as usize;
    let entries = ranges + 2 * n;
    let total: usize = per_vertex.iter().map(Vec::len).sum();
    let mut words = Vec::with_capacity(entries + ENTRY_WORDS * total);
    words.extend([n as u32, slots, ranges as u32, entries as u32]);
    words.resize(entries, 0);
    let mut first = 0u32;
    for (v, list) in per_vertex.iter().enumerate() {
        words[ranges + 2 * v] = first;
        words[ranges + 2 * v + 1] = list.len() as u32;
        first += list.len() as u32;
    }
    for list in &per_vertex {
        for e in list {
            words.extend_from_slice(e);
        }
    }
    (words, slot_of_morph)
}

impl GpuMorphs {
    /// Uploads `morphs` over `vertices` vertices; the bind group (group 3) also binds the model's blend methods.
    pub(crate) fn upload(
        renderer: &Renderer,
        morphs: &[Morph],
        vertices: usize,
        blend: super::blend::GpuBlend,
    ) -> GpuMorphs {
        let (words, slot_of_morph) = layout(morphs, vertices);
        let slots = words[1] as usize;
        let texture = DataTexture::new(renderer, "morphs", wgpu::TextureFormat::R32Uint, words.len());
        texture.write(renderer, 0, bytes(&words));
        let group = renderer.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("morphs"),
            layout: &renderer.layouts.morphs,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&texture.view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&blend.words.view) },
            ],
        });
        let written = std::cell::RefCell::new(vec![0.0; slots]);
        GpuMorphs { words: texture, _blend: blend, group, slot_of_morph, slots, written }
    }

    /// Writes the weights of the vertex and UV morphs from `weights` (effective, one per scene morph; missing
    /// ones are 0). Writes nothing when they are what the buffer holds.
    pub(crate) fn write(&self, renderer: &Renderer, weights: &[f32]) {
        if self.slots == 0 {
            return;
        }
        let mut w = vec![0.0f32; self.slots];
        for (m, slot) in self.slot_of_morph.iter().enumerate() {
            if let Some(s) = slot {
                let x = weights.get(m).copied().unwrap_or(0.0);
                w[*s as usize] = if x.is_finite() { x } else { 0.0 };
            }
        }
        let mut written = self.written.borrow_mut();
        if *written != w {
            self.words.write(renderer, HEADER_WORDS, bytes(&w));
            *written = w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{MorphPanel, UvOffset, VertexOffset};
    use glam::{Vec3, Vec4};

    #[test]
    fn offsets_are_listed_per_vertex_with_their_slot() {
        let m = |kind| Morph { name: String::new(), name_en: String::new(), panel: MorphPanel::Other, kind };
        let morphs = vec![
            m(MorphKind::Vertex(vec![
                VertexOffset { vertex: 1, delta: Vec3::X },
                VertexOffset { vertex: 9, delta: Vec3::Y },
            ])),
            m(MorphKind::Group(Vec::new())),
            m(MorphKind::Uv {
                channel: 0,
                offsets: vec![UvOffset { vertex: 1, delta: Vec4::new(0.5, 0.25, 0.0, 0.0) }],
            }),
        ];
        let (words, slots) = layout(&morphs, 3);
        assert_eq!(slots, vec![Some(0), None, Some(1)]);
        // Two vertices listed (0 and 1; vertex 9 is past the 3 vertices), two slots.
        assert_eq!(&words[..4], &[2, 2, 6, 10]);
        assert_eq!(&words[6..10], &[0, 0, 0, 2], "vertex 0 has none, vertex 1 two");
        let f = f32::to_bits;
        assert_eq!(&words[10..16], &[f(1.0), 0, 0, 0, 0, 0]);
        assert_eq!(&words[16..22], &[0, 0, 0, f(0.5), f(0.25), 1]);
        assert_eq!(words.len(), 22);
    }
}

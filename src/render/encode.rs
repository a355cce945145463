//! A frame drawn in an sRGB texture copied into a plain RGBA8 texture with the sRGB curve applied by a shader
//! (`shaders/encode_srgb.wgsl`): for consumers that read the bytes as they are, such as egui, which blends in
//! gamma space and would show an sRGB texture's decoded (linear) values too dark. WebGL2 can't view an sRGB
//! texture as a plain one, so a pass is the way that works on every backend.

use super::Renderer;

/// The format [`EncodeSrgb`] writes.
pub const ENCODED_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

pub struct EncodeSrgb {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

impl EncodeSrgb {
    pub fn new(renderer: &Renderer) -> EncodeSrgb {
        let device = renderer.device();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("rigscope encode sRGB"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("rigscope encode sRGB"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/encode_srgb.wgsl").into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("rigscope encode sRGB"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("rigscope encode sRGB"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_full"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_encode"),
                compilation_options: Default::default(),
                targets: &[Some(ENCODED_FORMAT.into())],
            }),
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        EncodeSrgb { pipeline, layout }
    }

    /// The bind group that reads `source` (an sRGB texture's view): made once per source, used every frame.
    pub fn bind(&self, renderer: &Renderer, source: &wgpu::TextureView) -> wgpu::BindGroup {
        renderer.device().create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("rigscope encode sRGB"),
            layout: &self.layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(source) }],
        })
    }

    /// Records the copy of the source `group` reads ([`EncodeSrgb::bind`]) into `target` (an [`ENCODED_FORMAT`]
    /// view of the same size).
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, group: &wgpu::BindGroup, target: &wgpu::TextureView) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("rigscope encode sRGB"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoded bytes are the sRGB texture's own bytes (what an sRGB surface would show), to the rounding
    /// of one 8-bit step, over every byte value.
    #[test]
    fn encoding_gives_back_the_srgb_bytes() {
        let headless = crate::render::Headless::new().expect("a GPU adapter (lavapipe in CI)");
        let r = headless.renderer();
        let (w, h) = (256u32, 2u32);
        let make = |format, usage| crate::render::texture_2d(r.device(), "encode test", (w, h), format, 1, usage);
        let source = make(
            wgpu::TextureFormat::Rgba8UnormSrgb,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        let target = make(ENCODED_FORMAT, wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC);
        // Row 0: every value in red, green falling, blue fixed; row 1: the same with alpha falling.
        let texels: Vec<u8> = (0..h)
            .flat_map(|y| {
                (0..w).flat_map(move |x| [x as u8, 255 - x as u8, 48, if y == 0 { 255 } else { 255 - x as u8 }])
            })
            .collect();
        r.queue().write_texture(
            source.as_image_copy(),
            &texels,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(w * 4), rows_per_image: Some(h) },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
        let encode = EncodeSrgb::new(r);
        let mut encoder = r.device().create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let view = |t: &wgpu::Texture| t.create_view(&wgpu::TextureViewDescriptor::default());
        let group = encode.bind(r, &view(&source));
        encode.record(&mut encoder, &group, &view(&target));
        let out = crate::render::read_texels(r, encoder, &target, (w, h), 4).unwrap();
        let worst = texels.iter().zip(&out).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
        assert!(worst <= 1, "an encoded byte is {worst} steps off");
    }
}

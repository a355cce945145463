//! Wireframe: every triangle edge once, as a line list built at load time and drawn through the same skinning
//! vertex shader as the mesh. Portable everywhere, unlike `PolygonMode::Line`, which needs a device feature.

use super::model::GpuModel;
use super::{Layouts, mesh};

pub(crate) struct WirePipeline {
    pipeline: wgpu::RenderPipeline,
}

impl WirePipeline {
    pub fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        shader: &wgpu::ShaderModule,
        format: wgpu::TextureFormat,
        samples: u32,
    ) -> Self {
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("rigscope wireframe"),
            bind_group_layouts: &[Some(&layouts.view), Some(&layouts.palette), None, Some(&layouts.morphs)],
            immediate_size: 0,
        });
        let buffers = mesh::vertex_layouts().map(Some);
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("rigscope wireframe"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: shader,
                entry_point: Some("vs_wire"),
                compilation_options: Default::default(),
                buffers: &buffers,
            },
            primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::LineList, ..Default::default() },
            depth_stencil: super::depth_test(false, wgpu::CompareFunction::LessEqual),
            multisample: wgpu::MultisampleState { count: samples, ..Default::default() },
            fragment: Some(wgpu::FragmentState {
                module: shader,
                entry_point: Some("fs_wire"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })],
            }),
            multiview_mask: None,
            cache: None,
        });
        WirePipeline { pipeline }
    }

    /// Draws the model's edges. Groups 0 (view) and 1 (palette) must already be set.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, model: &GpuModel) {
        if model.edge_index_count == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        mesh::bind_streams(pass, model);
        pass.set_index_buffer(model.edges.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..model.edge_index_count, 0, 0..1);
    }
}

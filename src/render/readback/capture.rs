//! A debug path for testing GPU skinning against the CPU: the same skinning function the mesh's vertex shader
//! uses (shaders/skin.wgsl), over the same vertex buffers and palette buffer, writes each vertex's skinned
//! position, normal and tangent into float render targets (vertex i lands on one pixel as a point), which are
//! read back. It needs no compute and no writable storage in the vertex stage.

use glam::{Vec3, Vec4};

use super::read_texels;
use crate::anim::Pose;
use crate::render::RenderError;
use crate::render::camera::Camera;
use crate::render::frame::{ViewState, write_uniforms};
use crate::render::model::GpuModel;
use crate::render::{Renderer, mesh};

/// Skinned vertices as the GPU computed them, in the file's vertex order and model space.
#[derive(Debug, Clone, Default)]
pub struct SkinCapture {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    /// xyz skinned and renormalised; w the handedness, unchanged.
    pub tangents: Vec<Vec4>,
}

/// Pixels per row of the capture grid.
const WIDTH: u32 = 1024;
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// Skins `model` under `pose` on the GPU and reads the result back.
pub fn capture_skinning(renderer: &Renderer, model: &GpuModel, pose: &Pose) -> Result<SkinCapture, RenderError> {
    let n = model.vertex_count;
    if n == 0 {
        return Ok(SkinCapture::default());
    }
    let device = &renderer.device;
    let (w, h) = (WIDTH.min(n), n.div_ceil(WIDTH));
    let max = device.limits().max_texture_dimension_2d;
    if h > max {
        return Err(RenderError::Readback(format!("{n} vertices are too many to capture")));
    }
    let view = ViewState::new(renderer);
    // The capture ignores the camera; the uniforms carry the grid size.
    let camera = Camera::framing(model.up, &model.bind_bounds().unwrap_or(UNIT), 0.0, 0.0, 1.0);
    write_uniforms(
        renderer,
        &view.uniforms,
        &camera,
        1.0,
        [[0.0; 4], [0.0, w as f32, h as f32, 0.0], [0.0; 4]],
        [0.0; 8],
        &[0.0; 20],
    );
    model.write_palette(renderer, &pose.palette);
    model.morphs.write(renderer, &pose.morphs);

    let shader = &renderer.mesh.shader;
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("rigscope skin capture"),
        bind_group_layouts: &[
            Some(&renderer.layouts.view),
            Some(&renderer.layouts.palette),
            None,
            Some(&renderer.layouts.morphs),
        ],
        immediate_size: 0,
    });
    let buffers = mesh::vertex_layouts().map(Some);
    let target = Some(wgpu::ColorTargetState { format: FORMAT, blend: None, write_mask: wgpu::ColorWrites::ALL });
    let pipeline = |entry: &str, targets: &[Option<wgpu::ColorTargetState>]| {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("rigscope skin capture"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: shader,
                entry_point: Some("vs_capture"),
                compilation_options: Default::default(),
                buffers: &buffers,
            },
            primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::PointList, ..Default::default() },
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: shader,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    };
    // Two passes: three float4 targets would pass the 32 bytes per sample every device allows.
    let position_normal = pipeline("fs_capture_position_normal", &[target.clone(), target.clone()]);
    let tangent = pipeline("fs_capture_tangent", &[target]);

    let texture = |label| {
        device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })
    };
    let textures = [texture("capture positions"), texture("capture normals"), texture("capture tangents")];
    let views: Vec<wgpu::TextureView> =
        textures.iter().map(|t| t.create_view(&wgpu::TextureViewDescriptor::default())).collect();
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("capture") });
    for (pipe, targets) in [(&position_normal, &views[0..2]), (&tangent, &views[2..3])] {
        let attachments: Vec<Option<wgpu::RenderPassColorAttachment>> = targets
            .iter()
            .map(|v| {
                Some(wgpu::RenderPassColorAttachment {
                    view: v,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })
            })
            .collect();
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("capture"),
            color_attachments: &attachments,
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(pipe);
        pass.set_bind_group(0, &view.group, &[]);
        pass.set_bind_group(1, &model.palette_group, &[]);
        pass.set_bind_group(3, &model.morphs.group, &[]);
        mesh::bind_streams(&mut pass, model);
        pass.draw(0..n, 0..1);
    }
    renderer.queue.submit([encoder.finish()]);

    let read = |i: usize| -> Result<Vec<Vec4>, RenderError> {
        let enc = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("capture read") });
        let texels = read_texels(renderer, enc, &textures[i], (w, h), 16)?;
        let floats: Vec<f32> = texels.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        Ok(floats.chunks_exact(4).take(n as usize).map(Vec4::from_slice).collect())
    };
    let positions = read(0)?.iter().map(|v| v.truncate()).collect();
    let normals = read(1)?.iter().map(|v| v.truncate()).collect();
    let tangents = read(2)?;
    Ok(SkinCapture { positions, normals, tangents })
}

const UNIT: crate::scene::FrameBounds =
    crate::scene::FrameBounds { min: Vec3::NEG_ONE, max: Vec3::ONE, xy_radius: 1.0, radius: 1.0 };

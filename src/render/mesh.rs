//! Skinned, textured, lit meshes. The vertex shader (shaders/skin.wgsl, shaders/mesh.wgsl) blends four joints
//! per vertex from the palette (a data texture), for positions, normals and tangents alike.

use glam::{Mat4, Vec3};

use super::model::GpuModel;
use super::{Layouts, shaders};
use crate::scene::{AlphaMode, FrontFace};

/// The vertex streams as separate buffers, shader locations 0 to 6 (see `GpuModel::streams`).
pub(crate) fn vertex_layouts() -> [wgpu::VertexBufferLayout<'static>; 8] {
    const fn stream(attributes: &'static [wgpu::VertexAttribute], stride: u64) -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout { array_stride: stride, step_mode: wgpu::VertexStepMode::Vertex, attributes }
    }
    [
        stream(&wgpu::vertex_attr_array![0 => Float32x3], 12),
        stream(&wgpu::vertex_attr_array![1 => Float32x3], 12),
        stream(&wgpu::vertex_attr_array![2 => Float32x4], 16),
        stream(&wgpu::vertex_attr_array![3 => Float32x2], 8),
        stream(&wgpu::vertex_attr_array![4 => Float32x4], 16),
        stream(&wgpu::vertex_attr_array![5 => Uint32x4], 16),
        stream(&wgpu::vertex_attr_array![6 => Float32x4], 16),
        stream(&wgpu::vertex_attr_array![7 => Float32], 4),
    ]
}

/// Binds a model's vertex streams to slots 0 to 7.
pub(crate) fn bind_streams(pass: &mut wgpu::RenderPass<'_>, model: &GpuModel) {
    for (slot, buffer) in model.streams.iter().enumerate() {
        pass.set_vertex_buffer(slot as u32, buffer.slice(..));
    }
}

/// One pipeline per front-face winding, culling choice and blending, each built the first time it is drawn
/// with: a scene uses one winding, and on a CPU adapter (lavapipe) every pipeline costs milliseconds of shader
/// compilation that a one-shot `render` would otherwise pay eight times.
pub(crate) struct MeshPipelines {
    pub shader: wgpu::ShaderModule,
    device: wgpu::Device,
    layout: wgpu::PipelineLayout,
    format: wgpu::TextureFormat,
    samples: u32,
    /// Indexed by `[front face is clockwise][cull back faces][Kind]`.
    pipelines: [[[std::sync::OnceLock<wgpu::RenderPipeline>; 5]; 2]; 2],
    /// The self-shadow map's pipeline (depth only; group 0 the view uniforms alone) and its layout.
    shadow_layout: wgpu::PipelineLayout,
    shadow: std::sync::OnceLock<wgpu::RenderPipeline>,
}

impl MeshPipelines {
    pub fn new(device: &wgpu::Device, layouts: &Layouts, format: wgpu::TextureFormat, samples: u32) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("rigscope mesh shader"),
            source: wgpu::ShaderSource::Wgsl(shaders::MESH.into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("rigscope mesh"),
            bind_group_layouts: &[
                Some(&layouts.view),
                Some(&layouts.palette),
                Some(&layouts.material),
                Some(&layouts.morphs),
            ],
            immediate_size: 0,
        });
        let shadow_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("rigscope self-shadow"),
            bind_group_layouts: &[
                Some(&layouts.view_uniforms),
                Some(&layouts.palette),
                Some(&layouts.material),
                Some(&layouts.morphs),
            ],
            immediate_size: 0,
        });
        MeshPipelines {
            shader,
            device: device.clone(),
            layout,
            format,
            samples,
            pipelines: Default::default(),
            shadow_layout,
            shadow: std::sync::OnceLock::new(),
        }
    }

    /// The self-shadow map's pipeline: `vs_shadow` (the skinning `vs_mesh` does) into the map's packed depths
    /// over a single-sample depth buffer, both faces (MikuMikuDance's models are open surfaces: a culled back face would let light through).
    fn shadow_pipeline(&self) -> &wgpu::RenderPipeline {
        self.shadow.get_or_init(|| {
            let buffers = vertex_layouts().map(Some);
            self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("rigscope self-shadow"),
                layout: Some(&self.shadow_layout),
                vertex: wgpu::VertexState {
                    module: &self.shader,
                    entry_point: Some("vs_shadow"),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleList,
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil: super::depth_test(true, wgpu::CompareFunction::Less),
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &self.shader,
                    entry_point: Some("fs_shadow"),
                    compilation_options: Default::default(),
                    targets: &[Some(super::shadow::MAP_FORMAT.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        })
    }

    /// Draws the casting draws of `model` but those `hidden` marks into a self-shadow map pass. Groups 0 (the
    /// view uniforms alone), 1 (palette) and 3 (morphs) must already be set.
    pub fn draw_shadow(&self, pass: &mut wgpu::RenderPass<'_>, model: &GpuModel, hidden: &[bool]) {
        if model.draws.is_empty() {
            return;
        }
        bind_streams(pass, model);
        pass.set_index_buffer(model.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.set_pipeline(self.shadow_pipeline());
        let shown = |d: &&super::model::Draw| !d.mesh.is_some_and(|m| hidden.get(m).copied().unwrap_or(false));
        for draw in model.draws.iter().filter(|d| d.casts_shadow).filter(shown) {
            pass.set_bind_group(2, &draw.group, &[]);
            pass.draw_indexed(draw.indices.clone(), 0, 0..1);
        }
    }

    /// Blended and ghost pipelines test depth but do not write it, and blend over what is drawn (straight
    /// alpha).
    fn pipeline(&self, cw: bool, cull: bool, kind: Kind) -> &wgpu::RenderPipeline {
        self.pipelines[cw as usize][cull as usize][kind as usize].get_or_init(|| {
            let blend = matches!(kind, Kind::Blend | Kind::Ghost);
            let front_face = if cw { wgpu::FrontFace::Cw } else { wgpu::FrontFace::Ccw };
            let (vs, fs) = match kind {
                Kind::Ghost => ("vs_ghost", "fs_ghost"),
                Kind::Edge => ("vs_edge", "fs_edge"),
                Kind::GroundShadow => ("vs_ground_shadow", "fs_ground_shadow"),
                _ => ("vs_mesh", "fs_mesh"),
            };
            // Outlines are the back faces, pushed out: the front ones are culled.
            let cull_mode = match kind {
                Kind::Edge => Some(wgpu::Face::Front),
                // The flattened model shows both its faces on the floor.
                Kind::GroundShadow => None,
                _ => cull.then_some(wgpu::Face::Back),
            };
            // A ground shadow is opaque and writes depth like any opaque draw (shaders/mesh.wgsl).
            let writes_depth = !blend;
            let buffers = vertex_layouts().map(Some);
            self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("rigscope mesh"),
                layout: Some(&self.layout),
                vertex: wgpu::VertexState {
                    module: &self.shader,
                    entry_point: Some(vs),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleList,
                    front_face,
                    cull_mode,
                    ..Default::default()
                },
                depth_stencil: super::depth_test(writes_depth, wgpu::CompareFunction::Less),
                multisample: wgpu::MultisampleState { count: self.samples, ..Default::default() },
                fragment: Some(wgpu::FragmentState {
                    module: &self.shader,
                    entry_point: Some(fs),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: self.format,
                        blend: blend.then_some(wgpu::BlendState {
                            color: wgpu::BlendComponent {
                                src_factor: wgpu::BlendFactor::SrcAlpha,
                                dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                                operation: wgpu::BlendOperation::Add,
                            },
                            alpha: wgpu::BlendComponent {
                                src_factor: wgpu::BlendFactor::One,
                                dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                                operation: wgpu::BlendOperation::Add,
                            },
                        }),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        })
    }

    /// Draws every mesh of `model` but those `hidden` marks (by scene mesh index), its front faces wound as the
    /// scene says: opaque and cut-out draws first, then (with `outline`) the outlines of the draws whose
    /// material has one, then the blended draws in `blend_order` (indices into the model's draws, back to front;
    /// see [`blend_order`]). Two-sided draws are never culled. With `ground_shadow`, the draws whose material
    /// casts one are drawn flattened on the floor along the view's light after the opaque ones. Groups 0 (view),
    /// 1 (palette) and 3 (morphs) must already be set.
    pub fn draw(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        model: &GpuModel,
        cull_back_faces: bool,
        hidden: &[bool],
        blend_order: &[usize],
        (outline, ground_shadow): (bool, bool),
    ) {
        if model.draws.is_empty() {
            return;
        }
        // A mirroring up basis (RSM2) turns the model's front winding around on screen.
        let cw = (model.front_face == FrontFace::Cw) != model.up.mirrors();
        bind_streams(pass, model);
        pass.set_index_buffer(model.indices.slice(..), wgpu::IndexFormat::Uint32);
        let shown = |d: &super::model::Draw| !d.mesh.is_some_and(|m| hidden.get(m).copied().unwrap_or(false));
        let opaque = model.draws.iter().filter(|d| d.alpha != AlphaMode::Blend);
        let blended = blend_order.iter().filter_map(|&i| model.draws.get(i)).filter(|d| d.alpha == AlphaMode::Blend);
        let edges = model.draws.iter().filter(|d| outline && d.outline.is_some());
        let shadows = model.draws.iter().filter(|d| ground_shadow && d.ground_shadow);
        let passes = opaque
            .map(|d| (d, Kind::Opaque))
            .chain(shadows.map(|d| (d, Kind::GroundShadow)))
            .chain(edges.map(|d| (d, Kind::Edge)))
            .chain(blended.map(|d| (d, Kind::Blend)));
        for (draw, kind) in passes.filter(|(d, _)| shown(d)) {
            let cull = cull_back_faces && !draw.two_sided;
            pass.set_pipeline(self.pipeline(cw, cull, kind));
            pass.set_bind_group(2, &draw.group, &[]);
            pass.draw_indexed(draw.indices.clone(), 0, 0..1);
        }
    }

    /// Draws every shown mesh of `model` once per palette group in `ghosts` (group 1), translucent in the tint
    /// each palette carries, depth-tested against what is drawn but not writing depth: ghosts show only where
    /// they leave the real mesh. Group 0 must already be set; group 1 is left at the last ghost's.
    pub fn draw_ghosts(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        model: &GpuModel,
        cull_back_faces: bool,
        hidden: &[bool],
        ghosts: &[&wgpu::BindGroup],
    ) {
        if model.draws.is_empty() || ghosts.is_empty() {
            return;
        }
        let cw = (model.front_face == FrontFace::Cw) != model.up.mirrors();
        bind_streams(pass, model);
        pass.set_index_buffer(model.indices.slice(..), wgpu::IndexFormat::Uint32);
        for group in ghosts {
            pass.set_bind_group(1, *group, &[]);
            for draw in model.draws.iter().filter(|d| !d.mesh.is_some_and(|m| hidden.get(m).copied().unwrap_or(false)))
            {
                let cull = cull_back_faces && !draw.two_sided;
                pass.set_pipeline(self.pipeline(cw, cull, Kind::Ghost));
                pass.set_bind_group(2, &draw.group, &[]);
                pass.draw_indexed(draw.indices.clone(), 0, 0..1);
            }
        }
    }
}

/// What a mesh pipeline draws: opaque (and cut-out) draws, blended draws, onion-skin ghosts, or outlines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Opaque = 0,
    Blend = 1,
    Ghost = 2,
    Edge = 3,
    GroundShadow = 4,
}

/// The blended draws of `model`, farthest first from `eye` (world space), each placed by its centre carried by
/// its joint's palette matrix and the model matrix.
pub(crate) fn blend_order(model: &GpuModel, palette: &[Mat4], model_matrix: Mat4, eye: Vec3) -> Vec<usize> {
    let mut order: Vec<(usize, f32)> = model
        .draws
        .iter()
        .enumerate()
        .filter(|(_, d)| d.alpha == AlphaMode::Blend)
        .map(|(i, d)| {
            let skin = palette.get(d.joint).copied().unwrap_or(Mat4::IDENTITY);
            let at = (model_matrix * skin).transform_point3(d.center);
            (i, at.distance_squared(eye))
        })
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    order.into_iter().map(|(i, _)| i).collect()
}

//! The renderer: GPU-skinned, textured meshes with overlays, for the window and for headless `render`.
//!
//! It reads only [`crate::scene::Scene`] and [`crate::anim::Pose`], never a file format. The device, queue,
//! target format and sample count are injected, so the window can drive the same renderer with its own surface
//! and the headless path with an offscreen texture. One file per kind of drawing:
//!
//! - `model.rs`: [`GpuModel`], a scene's vertex streams, indices, edges, materials and palette on the GPU;
//! - `mesh.rs`: the skinned-mesh pipelines (skinning happens in the vertex shader from the palette in a data
//!   texture, `data_texture.rs`, so there is no joint cap and WebGL2 runs it too); `wireframe.rs`: the same vertices drawn as a line list of edges;
//! - `lines.rs`: coloured model-space lines (skeleton, bounds boxes) and their pipelines; `grid.rs` the ground grid;
//! - `camera.rs`: the orbit [`Camera`] and deterministic framing; `texture.rs`: uploading decoded textures (finding
//!   and decoding them is [`crate::textures`]);
//! - `frame.rs`: [`ViewState`], [`FrameInput`] and [`Overlays`]: one frame assembled from the above;
//! - `shadow.rs`: the self-shadow map (MikuMikuDance's self-shadow), drawn from the light before each frame;
//! - `headless.rs`: adapter selection, offscreen targets and readback; `sheet.rs`: contact sheets and labels;
//!   `record.rs`: animated GIF and APNG recordings of a clip (which instants, and the streaming encoders);
//! - `capture.rs`: a debug path that reads back the vertex shader's skinned vertices, to test it against the CPU.
//!
//! Use: `Renderer::new(device, queue, format, samples)`, `GpuModel::upload(&renderer, &scene, dir)` (or
//! `GpuModel::upload_textures` with a `textures::TextureSet` loaded beforehand), then per
//! frame `ViewState::prepare(...)` (uploads the palette and overlay lines) and `ViewState::paint(...)` into a
//! render pass, or `Renderer::render(...)`, which does both with a cleared pass of its own.

mod blend;
mod camera;
mod data_texture;
mod encode;
mod frame;
mod grid;
mod headless;
mod lines;
mod mesh;
mod model;
mod morph;
pub mod record;
// Reading frames back waits for the GPU, which a browser can't: skinning captures, contact sheets and the
// headless renderer are the desktop's (the command line and the window), all in `readback/`.
#[cfg(not(target_arch = "wasm32"))]
mod readback;
mod shadow;
mod texture;
mod wireframe;

/// The onion-skin ghost [`Overlays::ghosts`] draws; plain data, sampled by [`crate::anim::onion_ghosts`].
pub use crate::anim::Ghost;
/// Texture lookup and decoding live in [`crate::textures`]; these are re-exported for the renderer's users.
pub use crate::textures::{TextureProblem, is_color_key};
pub use camera::{
    Camera, FRAMING_SAMPLES, FixedView, animation_bounds, camera_frustum, camera_path, clip_camera, joints_bounds,
    mmd_view_to_world, pose_bounds, ray_through, skeleton_bounds,
};
pub use encode::{ENCODED_FORMAT, EncodeSrgb};
pub use frame::{
    FrameInput, FrameOverlays, Overlays, Panes, PixelRect, Targets, ViewState, WireKind, WireShape, frame_bounds,
};
pub use grid::ground_height;
pub use headless::{Background, Offscreen, RenderError, choose_sample_count};
pub use model::GpuModel;
#[cfg(not(target_arch = "wasm32"))]
pub use readback::{
    Headless, SheetSpec, SkinCapture, capture_skinning, compose_sheet, draw_bones, draw_label, read_texels,
    render_offscreen, render_panes_offscreen, render_sheet, sheet_frames,
};

/// A single-level 2D texture of `size` (at least 1×1): the one shape of texture the renderer makes for frames,
/// maps and data.
pub(crate) fn texture_2d(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
    samples: u32,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: width.max(1), height: height.max(1), depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// Depth buffer format of every pipeline.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The depth state of every pipeline here: the shared depth buffer, tested with `compare`, written or not.
pub(crate) fn depth_test(write: bool, compare: wgpu::CompareFunction) -> Option<wgpu::DepthStencilState> {
    Some(wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(write),
        depth_compare: Some(compare),
        stencil: Default::default(),
        bias: Default::default(),
    })
}

/// Pipelines and shared GPU objects for one target format and sample count. Models ([`GpuModel`]) and views
/// ([`ViewState`]) are created against a renderer and drawn by it.
pub struct Renderer {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    color_format: wgpu::TextureFormat,
    sample_count: u32,
    pub(crate) layouts: Layouts,
    pub(crate) mesh: mesh::MeshPipelines,
    pub(crate) wire: wireframe::WirePipeline,
    pub(crate) lines: lines::LinePipelines,
    pub(crate) sampler: wgpu::Sampler,
}

/// Bind group layouts: 0 the view uniforms and the view's self-shadow map, 1 the skinning palette, 2 a draw's
/// texture, sampler and parameters (UV transform, lighting, alpha), 3 the model's vertex data (morph offsets
/// and weights, blend methods). The self-shadow pass, which writes the map,
/// binds `view_uniforms` (the uniforms alone) as its group 0.
pub(crate) struct Layouts {
    pub view: wgpu::BindGroupLayout,
    pub view_uniforms: wgpu::BindGroupLayout,
    pub palette: wgpu::BindGroupLayout,
    pub material: wgpu::BindGroupLayout,
    pub morphs: wgpu::BindGroupLayout,
}

impl Renderer {
    /// Builds the pipelines for targets of `color_format` with `sample_count` samples (1 or what
    /// [`choose_sample_count`] picks) and a [`DEPTH_FORMAT`] depth buffer of the same sample count. The device
    /// needs no storage buffers (the palette and morphs are data textures, `data_texture.rs`), so WebGL2 runs it.
    pub fn new(device: wgpu::Device, queue: wgpu::Queue, color_format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let layouts = Layouts::new(&device);
        let mesh = mesh::MeshPipelines::new(&device, &layouts, color_format, sample_count);
        let wire = wireframe::WirePipeline::new(&device, &layouts, &mesh.shader, color_format, sample_count);
        let lines = lines::LinePipelines::new(&device, &layouts, color_format, sample_count);
        // UVs leave [0, 1] in real files: repeat.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("rigscope material sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            address_mode_w: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        Renderer { device, queue, color_format, sample_count, layouts, mesh, wire, lines, sampler }
    }

    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    pub fn color_format(&self) -> wgpu::TextureFormat {
        self.color_format
    }

    pub fn sample_count(&self) -> u32 {
        self.sample_count
    }
}

/// Why an adapter can't run this renderer, or `Ok`: the vertex stage reads the palette, the morphs and the blend
/// methods from three textures and a material's fragment stage samples four (and the self-shadow map), which every WebGPU, Vulkan,
/// Metal, DX12 and WebGL2 adapter allows (WebGL2 guarantees 16 per stage).
pub fn check_adapter(adapter: &wgpu::Adapter) -> Result<(), String> {
    let limits = adapter.limits();
    if limits.max_sampled_textures_per_shader_stage >= 6 && limits.max_bind_groups >= 4 {
        Ok(())
    } else {
        let info = adapter.get_info();
        Err(format!(
            "the adapter {} ({:?}) allows {} textures per shader stage and {} bind groups; the renderer needs 6 and 4",
            info.name, info.backend, limits.max_sampled_textures_per_shader_stage, limits.max_bind_groups
        ))
    }
}

/// A filterable 2D texture the fragment stage reads.
fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

/// A uniform buffer both shader stages read (the view uniforms, a draw's material uniforms).
fn uniform_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Layouts {
    fn new(device: &wgpu::Device) -> Self {
        let view = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("rigscope view"),
            entries: &[
                uniform_entry(0),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    // The self-shadow map's depths packed in RGBA8 (`shadow.rs`), read with textureLoad.
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
            ],
        });
        let view_uniforms = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("rigscope view uniforms"),
            entries: &[uniform_entry(0)],
        });
        // The palette (RGBA32Float) and the morphs (R32Uint) are data textures (`data_texture.rs`).
        let data = |label, sample_type| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries: &[data_texture::layout_entry(sample_type)],
            })
        };
        let palette = data("rigscope palette", wgpu::TextureSampleType::Float { filterable: false });
        // Group 3, the vertex data of a model: its morphs (binding 0) and its vertices' blend methods (1).
        let morphs = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("rigscope vertex data"),
            entries: &[
                data_texture::layout_entry(wgpu::TextureSampleType::Uint),
                wgpu::BindGroupLayoutEntry { binding: 1, ..data_texture::layout_entry(wgpu::TextureSampleType::Uint) },
            ],
        });
        let material = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("rigscope material"),
            entries: &[
                texture_entry(0),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                uniform_entry(2),
                // The sphere map and the toon ramp (white when the material has none).
                texture_entry(3),
                texture_entry(4),
                // glTF's metallic-roughness, normal, occlusion and emissive maps (neutral when it has none).
                texture_entry(5),
                texture_entry(6),
                texture_entry(7),
                texture_entry(8),
            ],
        });
        Layouts { view, view_uniforms, palette, material, morphs }
    }
}

/// WGSL sources: each pipeline's file with the shared view uniforms (and skinning) in front.
pub(crate) mod shaders {
    pub const MESH: &str = concat!(
        include_str!("../../shaders/view.wgsl"),
        include_str!("../../shaders/skin.wgsl"),
        include_str!("../../shaders/mesh.wgsl")
    );
    pub const LINES: &str = concat!(include_str!("../../shaders/view.wgsl"), include_str!("../../shaders/lines.wgsl"));
}

/// Bytes of a slice of plain numbers, for buffer uploads.
pub(crate) fn bytes<T: bytemuck::Pod>(data: &[T]) -> &[u8] {
    bytemuck::cast_slice(data)
}

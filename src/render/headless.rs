//! Rendering without a window: pick an adapter (honouring `WGPU_BACKEND`, accepting CPU adapters such as
//! lavapipe), draw into an offscreen texture and read the pixels back.

#[cfg(not(target_arch = "wasm32"))]
use image::RgbaImage;

use super::frame::Targets;
#[cfg(not(target_arch = "wasm32"))]
use super::frame::{FrameInput, ViewState};
#[cfg(not(target_arch = "wasm32"))]
use super::model::GpuModel;
use super::{DEPTH_FORMAT, Renderer};

/// Why there is no picture.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(
        "no GPU adapter{detail}. A software Vulkan driver works: install the Mesa packages mesa-vulkan-drivers \
         and libvulkan1 (lavapipe), then set WGPU_BACKEND=vulkan (WGPU_BACKEND picks wgpu's backends: vulkan, \
         gl, metal, dx12)"
    )]
    NoAdapter { detail: String },
    #[error("the GPU adapter {adapter} can't be used: {message}")]
    Device { adapter: String, message: String },
    #[error("{0}")]
    Readback(String),
}

/// The colour behind the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Background {
    /// sRGB colour, 0..255 per channel, opaque.
    Color([u8; 3]),
    /// Alpha 0 where nothing is drawn.
    Transparent,
}

impl Background {
    /// The clear value for an sRGB target (linear values).
    pub fn clear_color(self) -> wgpu::Color {
        let lin = |c: u8| f64::from(crate::scene::color::srgb_to_linear(f32::from(c) / 255.0));
        match self {
            Background::Color([r, g, b]) => wgpu::Color { r: lin(r), g: lin(g), b: lin(b), a: 1.0 },
            Background::Transparent => wgpu::Color::TRANSPARENT,
        }
    }
}

/// 4× MSAA where a GPU supports it for both `format` and the depth format, else 1.
///
/// A CPU adapter (lavapipe, llvmpipe) offers MSAA too, but emulates it with four times the fragment work: on
/// the project's 2-core machine that was ~48 ms of a ~60 ms headless render. CPU adapters therefore get 1
/// unless `RIGSCOPE_MSAA=4` (or `1` to turn it off on a GPU) asks otherwise.
pub fn choose_sample_count(adapter: &wgpu::Adapter, format: wgpu::TextureFormat) -> u32 {
    let ok = |f| adapter.get_texture_format_features(f).flags.sample_count_supported(4);
    let supported = ok(format) && ok(DEPTH_FORMAT);
    let wanted = match std::env::var("RIGSCOPE_MSAA").ok().and_then(|v| v.trim().parse::<u32>().ok()) {
        Some(n) => n >= 4,
        None => adapter.get_info().device_type != wgpu::DeviceType::Cpu,
    };
    if supported && wanted { 4 } else { 1 }
}

/// The output format of headless pictures: 8-bit sRGB RGBA, as PNG stores it.
#[cfg(not(target_arch = "wasm32"))]
pub const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

#[cfg(not(target_arch = "wasm32"))]
/// A renderer on an adapter of its own, drawing into offscreen textures.
pub struct Headless {
    renderer: Renderer,
}

#[cfg(not(target_arch = "wasm32"))]
impl Headless {
    /// Opens an adapter: the backends `WGPU_BACKEND` names (all by default), any adapter type, CPU included.
    pub fn new() -> Result<Headless, RenderError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::from_env().unwrap_or(wgpu::PowerPreference::HighPerformance),
            force_fallback_adapter: false,
            compatible_surface: None,
            apply_limit_buckets: false,
        };
        let adapter = match pollster::block_on(instance.request_adapter(&options)) {
            Ok(a) => a,
            Err(e) => {
                // request_adapter may skip a CPU adapter that enumerate still offers.
                let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
                let mut all = pollster::block_on(instance.enumerate_adapters(backends));
                if all.is_empty() {
                    let env = std::env::var("WGPU_BACKEND").map_or_else(|_| "unset".to_string(), |v| format!("{v:?}"));
                    return Err(RenderError::NoAdapter { detail: format!(" ({e}; WGPU_BACKEND is {env})") });
                }
                all.remove(0)
            }
        };
        let info = adapter.get_info();
        super::check_adapter(&adapter)
            .map_err(|message| RenderError::Device { adapter: info.name.clone(), message })?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("rigscope headless"),
            required_features: wgpu::Features::empty(),
            // Whatever the adapter offers: the renderer needs little beyond WebGPU's defaults, and lavapipe or a
            // downlevel adapter may offer less than those.
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| RenderError::Device { adapter: info.name.clone(), message: e.to_string() })?;
        let samples = choose_sample_count(&adapter, HEADLESS_FORMAT);
        Ok(Headless { renderer: Renderer::new(device, queue, HEADLESS_FORMAT, samples) })
    }

    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    /// Draws one frame at `size` and reads it back as sRGB RGBA, rows top first.
    pub fn render(
        &self,
        model: &GpuModel,
        view: &mut ViewState,
        input: &FrameInput<'_>,
        size: (u32, u32),
        background: Background,
    ) -> Result<RgbaImage, RenderError> {
        render_offscreen(&self.renderer, model, view, input, size, background)
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Draws one frame at `size` into an offscreen texture of `r`'s format and sample count and reads it back as
/// RGBA, rows top first: any renderer, the headless one or the window's (whose BGRA surface format is swizzled
/// back to RGBA here). One submission; `view` is prepared for this frame.
pub fn render_offscreen(
    r: &Renderer,
    model: &GpuModel,
    view: &mut ViewState,
    input: &FrameInput<'_>,
    size: (u32, u32),
    background: Background,
) -> Result<RgbaImage, RenderError> {
    let target = Offscreen::new(r, size, wgpu::TextureUsages::COPY_SRC);
    let mut encoder = r.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("offscreen") });
    r.render(&mut encoder, &target.targets(), background.clear_color(), model, view, input);
    let mut image = read_texture(r, encoder, &target.resolve_texture, size)?;
    if matches!(r.color_format(), wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb) {
        for px in image.pixels_mut() {
            px.0.swap(0, 2);
        }
    }
    Ok(image)
}

/// The textures of one offscreen frame: the colour texture (`resolve`, single-sampled), the multisampled one
/// drawn into when the renderer has more than one sample, and the depth buffer.
pub struct Offscreen {
    pub msaa: Option<wgpu::TextureView>,
    pub resolve_texture: wgpu::Texture,
    pub resolve: wgpu::TextureView,
    pub depth: wgpu::TextureView,
    /// Width and height in pixels.
    pub size: (u32, u32),
}

impl Offscreen {
    /// Textures of `size` for `r`'s format and sample count; `usage` is what the colour texture is for besides
    /// being drawn into (read back, shown as an egui image).
    pub fn new(r: &Renderer, (w, h): (u32, u32), usage: wgpu::TextureUsages) -> Offscreen {
        let make = |label, format, samples, usage| super::texture_2d(&r.device, label, (w, h), format, samples, usage);
        let view = |t: &wgpu::Texture| t.create_view(&wgpu::TextureViewDescriptor::default());
        let samples = r.sample_count();
        let resolve_texture =
            make("headless colour", r.color_format(), 1, wgpu::TextureUsages::RENDER_ATTACHMENT | usage);
        let msaa = (samples > 1)
            .then(|| view(&make("headless msaa", r.color_format(), samples, wgpu::TextureUsages::RENDER_ATTACHMENT)));
        let depth = view(&make("headless depth", DEPTH_FORMAT, samples, wgpu::TextureUsages::RENDER_ATTACHMENT));
        Offscreen { msaa, resolve: view(&resolve_texture), resolve_texture, depth, size: (w, h) }
    }

    /// The targets to draw into.
    pub fn targets(&self) -> Targets<'_> {
        Targets {
            color: self.msaa.as_ref().unwrap_or(&self.resolve),
            resolve: self.msaa.as_ref().map(|_| &self.resolve),
            depth: &self.depth,
            size: self.size,
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Copies a 4-byte-per-texel texture into a buffer, submits `encoder`, waits and returns the texels, rows top
/// first without padding.
pub(crate) fn read_texels(
    r: &Renderer,
    mut encoder: wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    (w, h): (u32, u32),
    bytes_per_texel: u32,
) -> Result<Vec<u8>, RenderError> {
    let row = w * bytes_per_texel;
    let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = r.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: padded as u64 * h as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(h) },
        },
        wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
    );
    r.queue.submit([encoder.finish()]);
    let (tx, rx) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let _ = tx.send(result);
    });
    r.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| RenderError::Readback(e.to_string()))?;
    rx.recv().map_err(|e| RenderError::Readback(e.to_string()))?.map_err(|e| RenderError::Readback(e.to_string()))?;
    let mapped = buffer.get_mapped_range(..).map_err(|e| RenderError::Readback(e.to_string()))?;
    let mut out = Vec::with_capacity((row * h) as usize);
    for y in 0..h as usize {
        let start = y * padded as usize;
        out.extend_from_slice(&mapped[start..start + row as usize]);
    }
    drop(mapped);
    buffer.unmap();
    Ok(out)
}

#[cfg(not(target_arch = "wasm32"))]
fn read_texture(
    r: &Renderer,
    encoder: wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    size: (u32, u32),
) -> Result<RgbaImage, RenderError> {
    let texels = read_texels(r, encoder, texture, size, 4)?;
    RgbaImage::from_raw(size.0, size.1, texels).ok_or_else(|| RenderError::Readback("short readback".into()))
}

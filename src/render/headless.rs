//! What rendering offscreen needs on the desktop and in the browser alike: the error, the background, the
//! sample count, and the offscreen targets. Opening an adapter of its own and reading pixels back (which waits
//! for the GPU, as a browser can't) are the desktop's, in `readback/`.

use super::frame::Targets;
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

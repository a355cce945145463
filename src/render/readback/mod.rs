//! The desktop's rendering without a window, and everything that reads frames back (which waits for the GPU,
//! as a browser can't): the headless renderer on an adapter of its own (honouring `WGPU_BACKEND`, accepting
//! CPU adapters such as lavapipe), offscreen pictures, skinning captures and contact sheets. The browser build
//! leaves this module out, in `render/mod.rs`, and nowhere else.

mod bones;
mod capture;
mod sheet;

use image::RgbaImage;

pub use bones::draw_bones;
pub use capture::{SkinCapture, capture_skinning};
pub use sheet::{SheetSpec, compose_sheet, draw_label, render_sheet, sheet_frames};

use super::frame::{FrameInput, Panes, ViewState};
use super::model::GpuModel;
use super::{Background, Offscreen, RenderError, Renderer, choose_sample_count};

/// The output format of headless pictures: 8-bit sRGB RGBA, as PNG stores it.
pub const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// A renderer on an adapter of its own, drawing into offscreen textures.
pub struct Headless {
    renderer: Renderer,
}

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
    render_panes_offscreen(r, model, view, input, (size, None), background)
}

/// [`render_offscreen`] with the views inside `panes` of the picture (Compare side by side), the view prepared
/// for the model's pane; with `None`, over the whole picture.
pub fn render_panes_offscreen(
    r: &Renderer,
    model: &GpuModel,
    view: &mut ViewState,
    input: &FrameInput<'_>,
    (size, panes): ((u32, u32), Option<Panes>),
    background: Background,
) -> Result<RgbaImage, RenderError> {
    let target = Offscreen::new(r, size, wgpu::TextureUsages::COPY_SRC);
    let mut encoder = r.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("offscreen") });
    view.prepare(r, model, input, panes.map_or(size, |p| (p.model.width, p.model.height)));
    r.paint_frame(&mut encoder, &target.targets(), background.clear_color(), model, view, panes);
    let mut image = read_texture(r, encoder, &target.resolve_texture, size)?;
    if matches!(r.color_format(), wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb) {
        for px in image.pixels_mut() {
            px.0.swap(0, 2);
        }
    }
    Ok(image)
}

/// Copies a 4-byte-per-texel texture into a buffer, submits `encoder`, waits and returns the texels, rows top
/// first without padding.
pub fn read_texels(
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

fn read_texture(
    r: &Renderer,
    encoder: wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    size: (u32, u32),
) -> Result<RgbaImage, RenderError> {
    let texels = read_texels(r, encoder, texture, size, 4)?;
    RgbaImage::from_raw(size.0, size.1, texels).ok_or_else(|| RenderError::Readback("short readback".into()))
}

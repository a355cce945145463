//! The window's GPU side: adapter and device for the window's surface, the shared 3D [`Renderer`] and egui's
//! renderer, and the frame's MSAA and depth textures. One frame is the 3D view (cleared, drawn inside the
//! viewport the panels leave) and then egui on top (loaded, not cleared), recorded into one encoder.

use std::sync::Arc;

use winit::window::Window;

pub use crate::render::PixelRect;
use crate::render::{DEPTH_FORMAT, GpuModel, Panes, Renderer, ViewState, check_adapter, choose_sample_count};

/// The egui part of a frame: tessellated shapes and their screen.
pub struct UiFrame {
    pub jobs: Vec<egui::ClippedPrimitive>,
    pub screen: egui_wgpu::ScreenDescriptor,
}

pub struct Gpu {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    pub renderer: Renderer,
    pub egui: egui_wgpu::Renderer,
    attachments: Attachments,
    pub adapter: wgpu::AdapterInfo,
}

/// MSAA colour (when the sample count is above 1) and depth, at the surface's size.
struct Attachments {
    msaa: Option<wgpu::TextureView>,
    depth: wgpu::TextureView,
}

impl Gpu {
    /// Opens an adapter that can present to `window` (the backends `WGPU_BACKEND` names, CPU adapters such as
    /// lavapipe included) and configures an sRGB surface.
    pub fn new(instance: &wgpu::Instance, window: Arc<Window>) -> Result<Gpu, String> {
        let size = window.inner_size();
        let surface = instance.create_surface(window).map_err(|e| format!("cannot create a window surface: {e}"))?;
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::from_env().unwrap_or(wgpu::PowerPreference::HighPerformance),
            force_fallback_adapter: false,
            compatible_surface: Some(&surface),
            apply_limit_buckets: false,
        };
        let adapter = match pollster::block_on(instance.request_adapter(&options)) {
            Ok(a) => a,
            Err(e) => {
                // request_adapter may skip a CPU adapter that enumerate still offers (as in headless.rs).
                let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
                pollster::block_on(instance.enumerate_adapters(backends))
                    .into_iter()
                    .find(|a| a.is_surface_supported(&surface))
                    .ok_or_else(|| {
                        let env =
                            std::env::var("WGPU_BACKEND").map_or_else(|_| "unset".to_string(), |v| format!("{v:?}"));
                        format!(
                            "no GPU adapter can draw into the window ({e}; WGPU_BACKEND is {env}). A software Vulkan \
                             driver works: install mesa-vulkan-drivers and libvulkan1 and set WGPU_BACKEND=vulkan"
                        )
                    })?
            }
        };
        let info = adapter.get_info();
        check_adapter(&adapter)?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("rigscope window"),
            required_features: wgpu::Features::empty(),
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| format!("the GPU adapter {} can't be used: {e}", info.name))?;

        let caps = surface.get_capabilities(&adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| f.is_srgb())
            .or_else(|| caps.formats.first().copied())
            .ok_or_else(|| format!("the adapter {} offers no format for the window", info.name))?;
        let mut config = surface
            .get_default_config(&adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| format!("the adapter {} can't present to the window", info.name))?;
        config.format = format;
        config.present_mode = wgpu::PresentMode::AutoVsync;
        surface.configure(&device, &config);

        let samples = choose_sample_count(&adapter, format);
        let renderer = Renderer::new(device, queue, format, samples);
        let egui = egui_wgpu::Renderer::new(renderer.device(), format, egui_wgpu::RendererOptions::default());
        let attachments = Attachments::new(&renderer, (config.width, config.height));
        Ok(Gpu { surface, config, renderer, egui, attachments, adapter: info })
    }

    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    pub fn max_texture_side(&self) -> usize {
        self.renderer.device().limits().max_texture_dimension_2d as usize
    }

    /// Follows the window's new size (ignoring a minimised window's zero size).
    pub fn resize(&mut self, width: u32, height: u32) {
        if width == 0 || height == 0 || (width, height) == self.size() {
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(self.renderer.device(), &self.config);
        self.attachments = Attachments::new(&self.renderer, (width, height));
    }

    /// The next surface texture, reconfiguring once when the surface is outdated or lost; `None` to skip a frame.
    pub fn acquire(&mut self) -> Option<wgpu::SurfaceTexture> {
        for _ in 0..2 {
            match self.surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(t) => return Some(t),
                wgpu::CurrentSurfaceTexture::Suboptimal(t) => {
                    // Draw this one; configure afresh for the next.
                    self.surface.configure(self.renderer.device(), &self.config);
                    return Some(t);
                }
                wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                    self.surface.configure(self.renderer.device(), &self.config);
                }
                _ => return None,
            }
        }
        None
    }

    /// Uploads egui's new textures and this frame's vertex buffers; call once per frame before [`Gpu::draw`].
    /// The delta's new textures are drained (egui panics on a delta dropped unapplied).
    pub fn prepare_ui(&mut self, encoder: &mut wgpu::CommandEncoder, ui: &UiFrame, delta: &mut egui::TexturesDelta) {
        let (device, queue) = (self.renderer.device(), self.renderer.queue());
        for (id, images) in delta.set.drain() {
            for image in &images {
                self.egui.update_texture(device, queue, id, image);
            }
        }
        let extra = self.egui.update_buffers(device, queue, encoder, &ui.jobs, &ui.screen);
        if !extra.is_empty() {
            queue.submit(extra);
        }
    }

    /// Records one frame into `target` (a view of a texture of the surface's size and format): the 3D views
    /// inside their panes when there is a model, then egui when `ui` is given. [`ViewState::prepare`] must have
    /// run for this frame.
    pub fn draw(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        clear: wgpu::Color,
        scene: Option<(&GpuModel, &ViewState, Panes)>,
        ui: Option<&UiFrame>,
    ) {
        {
            let msaa = self.attachments.msaa.as_ref();
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("rigscope window 3D"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: msaa.unwrap_or(target),
                    depth_slice: None,
                    resolve_target: msaa.map(|_| target),
                    ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.attachments.depth,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            if let Some((model, view, panes)) = scene {
                view.paint_panes(&self.renderer, model, &mut pass, panes);
            }
        }
        if let Some(ui) = ui {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("rigscope window egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            self.egui.render(&mut pass.forget_lifetime(), &ui.jobs, &ui.screen);
        }
    }

    /// Frees the egui textures this frame's delta released; call after the frame is submitted.
    pub fn finish_ui(&mut self, delta: &mut egui::TexturesDelta) {
        for id in delta.free.drain() {
            self.egui.free_texture(&id);
        }
    }

    /// A texture of the surface's size and format that can be drawn into and copied out, for screenshots.
    pub fn capture_texture(&self) -> wgpu::Texture {
        let (width, height) = self.size();
        self.renderer.device().create_texture(&wgpu::TextureDescriptor {
            label: Some("rigscope window capture"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: self.config.format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })
    }

    /// The surface's colour format (the renderer's target format).
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }
}

impl Attachments {
    fn new(r: &Renderer, (width, height): (u32, u32)) -> Attachments {
        let make = |label, format, usage| {
            r.device()
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d { width: width.max(1), height: height.max(1), depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: r.sample_count(),
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor::default())
        };
        let msaa = (r.sample_count() > 1)
            .then(|| make("rigscope window msaa", r.color_format(), wgpu::TextureUsages::RENDER_ATTACHMENT));
        let depth = make("rigscope window depth", DEPTH_FORMAT, wgpu::TextureUsages::RENDER_ATTACHMENT);
        Attachments { msaa, depth }
    }
}

//! Per-vertex-shader data (the skinning palette, the morph offsets and weights) held in textures rather than
//! storage buffers: WebGL2, the web page's fallback, has no storage buffers at all, and textures read with
//! `textureLoad` work on every backend, so the renderer keeps one code path. A texture is a row-major run of
//! texels, at most [`MAX_WIDTH`] wide: texel `i` lies at `(i % width, i / width)` (shaders/skin.wgsl's
//! `palette_texel` and `morph_word`).

use super::Renderer;

/// Rows are at most this many texels wide: what every WebGL2 device allows (its minimum MAX_TEXTURE_SIZE).
pub(crate) const MAX_WIDTH: usize = 2048;

/// A 2D texture used as an array of texels.
pub(crate) struct DataTexture {
    texture: wgpu::Texture,
    pub(crate) view: wgpu::TextureView,
    width: usize,
    /// Texels it holds (width × height: the rows are padded).
    capacity: usize,
    /// Bytes per texel.
    texel: usize,
}

impl DataTexture {
    /// A texture of at least `texels` texels of `format` (RGBA32Float or R32Uint), zeroed. Beyond the device's
    /// largest texture the rest is cut off (the shaders check every read against the texture's size).
    pub(crate) fn new(renderer: &Renderer, label: &str, format: wgpu::TextureFormat, texels: usize) -> DataTexture {
        let texels = texels.max(1);
        let width = texels.min(MAX_WIDTH);
        let max_rows = renderer.device.limits().max_texture_dimension_2d as usize;
        let height = texels.div_ceil(width).clamp(1, max_rows.max(1));
        let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let texture = super::texture_2d(&renderer.device, label, (width as u32, height as u32), format, 1, usage);
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let texel = format.block_copy_size(None).unwrap_or(4) as usize;
        DataTexture { texture, view, width, capacity: width * height, texel }
    }

    /// Texels it can hold.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Writes `data` (whole texels) from texel `first` on, in up to three copies (the rest of the first row,
    /// whole rows, the start of the last); what lies past the texture is dropped. Takes effect at the next
    /// submission, as `write_buffer` does.
    pub(crate) fn write(&self, renderer: &Renderer, first: usize, data: &[u8]) {
        let texels = (data.len() / self.texel).min(self.capacity.saturating_sub(first));
        let (mut at, mut done) = (first, 0usize);
        while done < texels {
            let (x, y) = (at % self.width, at / self.width);
            // A partial row, or as many whole rows as remain.
            let (w, h) = if x != 0 || texels - done < self.width {
                ((self.width - x).min(texels - done), 1)
            } else {
                (self.width, (texels - done) / self.width)
            };
            let bytes = &data[done * self.texel..(done + w * h) * self.texel];
            renderer.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &self.texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d { x: x as u32, y: y as u32, z: 0 },
                    aspect: wgpu::TextureAspect::All,
                },
                bytes,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some((w * self.texel) as u32),
                    rows_per_image: Some(h as u32),
                },
                wgpu::Extent3d { width: w as u32, height: h as u32, depth_or_array_layers: 1 },
            );
            done += w * h;
            at += w * h;
        }
    }
}

/// A vertex-stage texture binding read with `textureLoad`.
pub(crate) fn layout_entry(sample_type: wgpu::TextureSampleType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::VERTEX,
        ty: wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

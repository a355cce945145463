//! Material textures on the GPU: an RGBA image (decoded by [`crate::textures`]) uploaded with mipmaps.
//!
//! Images are uploaded as decoded (top row first) and sampled with the file's UVs unchanged: the Inter-Quake
//! formats and RSM put the UV origin at the top left, as wgpu does.

use image::RgbaImage;

/// Uploads an sRGB image with a full mip chain (box-filtered on the CPU) and returns its view.
pub(crate) fn upload(device: &wgpu::Device, queue: &wgpu::Queue, image: &RgbaImage, label: &str) -> wgpu::TextureView {
    upload_as(device, queue, image, label, wgpu::TextureFormat::Rgba8UnormSrgb)
}

/// As [`upload`], for an image of data rather than colours (normals, roughness and metalness, occlusion): read
/// as stored, without sRGB decoding.
pub(crate) fn upload_linear(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    image: &RgbaImage,
    label: &str,
) -> wgpu::TextureView {
    upload_as(device, queue, image, label, wgpu::TextureFormat::Rgba8Unorm)
}

fn upload_as(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    image: &RgbaImage,
    label: &str,
    format: wgpu::TextureFormat,
) -> wgpu::TextureView {
    let (w, h) = (image.width().max(1), image.height().max(1));
    let levels = 32 - w.max(h).leading_zeros();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        mip_level_count: levels,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let mut level = image.clone();
    for mip in 0..levels {
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: mip,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            level.as_raw(),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * level.width()),
                rows_per_image: Some(level.height()),
            },
            wgpu::Extent3d { width: level.width(), height: level.height(), depth_or_array_layers: 1 },
        );
        if mip + 1 < levels {
            let (nw, nh) = ((level.width() / 2).max(1), (level.height() / 2).max(1));
            level = image::imageops::resize(&level, nw, nh, image::imageops::FilterType::Triangle);
        }
    }
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

//! A scene on the GPU: one buffer per vertex stream, triangle and edge indices, material bind groups and the
//! skinning palette. Everything per vertex is uploaded once; per frame only the palette changes.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use super::texture::{self, TextureProblem};
use super::{Renderer, bytes, wireframe};
use crate::scene::{FrameBounds, FrontFace, Scene, UpAxis};

/// One draw: a range of the index buffer with one material.
#[derive(Debug, Clone)]
pub(crate) struct Draw {
    pub indices: Range<u32>,
    /// Index into `GpuModel::materials`.
    pub material: usize,
    /// The scene mesh this draws (`None` for a model without meshes), so meshes can be hidden.
    pub mesh: Option<usize>,
}

/// A scene uploaded for drawing. Created with [`GpuModel::upload`] against one [`Renderer`].
pub struct GpuModel {
    /// Position, normal, tangent, texcoord, colour, joints, weights: shader locations 0 to 6.
    pub(crate) streams: Vec<wgpu::Buffer>,
    pub(crate) vertex_count: u32,
    pub(crate) indices: wgpu::Buffer,
    pub(crate) draws: Vec<Draw>,
    pub(crate) edges: wgpu::Buffer,
    pub(crate) edge_index_count: u32,
    pub(crate) materials: Vec<wgpu::BindGroup>,
    palette: wgpu::Buffer,
    palette_len: usize,
    pub(crate) palette_group: wgpu::BindGroup,
    pub(crate) parents: Vec<Option<usize>>,
    pub(crate) up: UpAxis,
    pub(crate) front_face: FrontFace,
    bind_bounds: Option<FrameBounds>,
    problems: Vec<TextureProblem>,
}

impl GpuModel {
    /// Uploads `scene`. Textures are looked for in `model_dir` by material name (see
    /// [`super::resolve_texture`]); each one missing or unreadable gets the placeholder and is listed in
    /// [`GpuModel::texture_problems`]. Missing streams get neutral defaults (normals are computed from the
    /// triangles, with the scene's front-face winding).
    pub fn upload(renderer: &Renderer, scene: &Scene, model_dir: Option<&Path>) -> GpuModel {
        let device = &renderer.device;
        let v = &scene.vertices;
        let n = v.len();
        let normals = v.normals.clone().unwrap_or_else(|| computed_normals(scene));
        let tangents = v.tangents.clone().unwrap_or_else(|| vec![glam::Vec4::new(1.0, 0.0, 0.0, 1.0); n]);
        let texcoords = v.texcoords.clone().unwrap_or_else(|| vec![glam::Vec2::ZERO; n]);
        let colors = v.colors.clone().unwrap_or_else(|| vec![glam::Vec4::ONE; n]);
        let (joints, weights) = match (&v.joints, &v.weights) {
            (Some(j), Some(w)) => (j.clone(), w.clone()),
            _ => (vec![[0u32; 4]; n], vec![[0f32; 4]; n]),
        };
        let vertex_buffer = |label: &str, data: &[u8]| {
            // wgpu refuses zero-sized vertex buffers; an empty model draws nothing anyway.
            let padded;
            let data = if data.is_empty() {
                padded = [0u8; 16];
                &padded[..]
            } else {
                data
            };
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: data,
                usage: wgpu::BufferUsages::VERTEX,
            })
        };
        let streams = vec![
            vertex_buffer("positions", bytes(&flat3(&v.positions))),
            vertex_buffer("normals", bytes(&flat3(&normals))),
            vertex_buffer("tangents", bytes(&tangents.iter().flat_map(|t| t.to_array()).collect::<Vec<f32>>())),
            vertex_buffer("texcoords", bytes(&texcoords.iter().flat_map(|t| t.to_array()).collect::<Vec<f32>>())),
            vertex_buffer("colors", bytes(&colors.iter().flat_map(|c| c.to_array()).collect::<Vec<f32>>())),
            vertex_buffer("joints", bytes(&joints.iter().flatten().copied().collect::<Vec<u32>>())),
            vertex_buffer("weights", bytes(&weights.iter().flatten().copied().collect::<Vec<f32>>())),
        ];

        let index_data: Vec<u32> = scene.triangles.iter().flatten().copied().collect();
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("triangles"),
            contents: bytes(if index_data.is_empty() { &[0u32; 4][..] } else { &index_data }),
            usage: wgpu::BufferUsages::INDEX,
        });
        let edge_data = wireframe::edges(&scene.triangles);
        let edges = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("edges"),
            contents: bytes(if edge_data.is_empty() { &[0u32; 4][..] } else { &edge_data }),
            usage: wgpu::BufferUsages::INDEX,
        });

        let (materials, problems) = upload_materials(renderer, scene, model_dir);
        let placeholder = materials.len() - 1;
        let triangle_count = scene.triangles.len() as u32;
        let mut draws: Vec<Draw> = scene
            .meshes
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let first = m.first_triangle.min(triangle_count);
                let end = m.first_triangle.saturating_add(m.num_triangles).min(triangle_count);
                let material = if m.material < scene.materials.len() { m.material } else { placeholder };
                (end > first).then_some(Draw { indices: first * 3..end * 3, material, mesh: Some(i) })
            })
            .collect();
        if scene.meshes.is_empty() && triangle_count > 0 {
            draws.push(Draw { indices: 0..triangle_count * 3, material: placeholder, mesh: None });
        }
        if n == 0 {
            draws.clear();
        }

        let palette_len = scene.skeleton.len().max(1);
        let palette = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("palette"),
            size: 16 + 64 * palette_len as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let palette_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("palette"),
            layout: &renderer.layouts.palette,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: palette.as_entire_binding() }],
        });
        let model = GpuModel {
            streams,
            vertex_count: n as u32,
            indices,
            draws,
            edge_index_count: if n == 0 { 0 } else { edge_data.len() as u32 },
            edges,
            materials,
            palette,
            palette_len,
            palette_group,
            parents: scene.skeleton.joints.iter().map(|j| j.parent).collect(),
            up: scene.up,
            front_face: scene.front_face,
            bind_bounds: FrameBounds::of_points(&v.positions),
            problems,
        };
        model.write_palette(renderer, &[]);
        model
    }

    /// Materials whose texture is missing or unreadable; they are drawn with the placeholder.
    pub fn texture_problems(&self) -> &[TextureProblem] {
        &self.problems
    }

    /// The paths of the missing or unreadable textures, for a problems list.
    pub fn missing_texture_paths(&self) -> Vec<&Path> {
        self.problems.iter().map(|p| p.path.as_path()).collect()
    }

    /// The bounds of the unposed vertices, model space (sizes the grid).
    pub fn bind_bounds(&self) -> Option<FrameBounds> {
        self.bind_bounds
    }

    /// Uploads a pose's skinning palette (`Pose::palette`). Joints the palette lacks get the identity; extra
    /// matrices are ignored. Takes effect at the next queue submission.
    pub fn write_palette(&self, renderer: &Renderer, palette: &[Mat4]) {
        let count = palette.len().min(self.palette_len);
        let mut data: Vec<f32> = Vec::with_capacity(4 + 16 * self.palette_len);
        data.extend([f32::from_bits(self.parents.len().min(self.palette_len) as u32), 0.0, 0.0, 0.0]);
        for m in palette.iter().take(count) {
            data.extend(m.to_cols_array());
        }
        for _ in count..self.palette_len {
            data.extend(Mat4::IDENTITY.to_cols_array());
        }
        renderer.queue.write_buffer(&self.palette, 0, bytes(&data));
    }
}

fn flat3(v: &[Vec3]) -> Vec<f32> {
    v.iter().flat_map(|p| p.to_array()).collect()
}

/// Area-weighted vertex normals, pointing out of the front faces.
fn computed_normals(scene: &Scene) -> Vec<Vec3> {
    let p = &scene.vertices.positions;
    let mut out = vec![Vec3::ZERO; p.len()];
    for t in &scene.triangles {
        let [a, b, c] = t.map(|i| i as usize);
        if a >= p.len() || b >= p.len() || c >= p.len() {
            continue;
        }
        let ccw = (p[b] - p[a]).cross(p[c] - p[a]);
        let n = if scene.front_face == FrontFace::Cw { -ccw } else { ccw };
        for i in [a, b, c] {
            out[i] += n;
        }
    }
    out.iter().map(|n| n.normalize_or(Vec3::Z)).collect()
}

/// One bind group per scene material, then the placeholder's. Textures are shared by resolved path.
fn upload_materials(
    renderer: &Renderer,
    scene: &Scene,
    model_dir: Option<&Path>,
) -> (Vec<wgpu::BindGroup>, Vec<TextureProblem>) {
    let (device, queue) = (&renderer.device, &renderer.queue);
    let placeholder = texture::upload(device, queue, &texture::placeholder_image(), "placeholder texture");
    let mut loaded: BTreeMap<PathBuf, Option<wgpu::TextureView>> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut views: Vec<Option<wgpu::TextureView>> = Vec::new();
    for m in &scene.materials {
        let name = m.texture.as_deref().unwrap_or(&m.name);
        if name.is_empty() {
            views.push(None);
            continue;
        }
        let given = model_dir.map_or_else(|| PathBuf::from(name), |d| d.join(name));
        let Some(path) = model_dir.and_then(|d| texture::resolve_texture(d, name)) else {
            problems.push(TextureProblem { material: m.name.clone(), path: given, reason: "not found".into() });
            views.push(None);
            continue;
        };
        let view = loaded.entry(path.clone()).or_insert_with(|| match texture::load_texture(&path) {
            Ok(img) => Some(texture::upload(device, queue, &img, &path.display().to_string())),
            Err(e) => {
                problems.push(TextureProblem { material: m.name.clone(), path: path.clone(), reason: e });
                None
            }
        });
        views.push(view.clone());
    }
    let group = |view: &wgpu::TextureView| {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("material"),
            layout: &renderer.layouts.material,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&renderer.sampler) },
            ],
        })
    };
    let mut groups: Vec<wgpu::BindGroup> = views.iter().map(|v| group(v.as_ref().unwrap_or(&placeholder))).collect();
    groups.push(group(&placeholder));
    (groups, problems)
}

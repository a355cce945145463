//! A scene on the GPU: one buffer per vertex stream, triangle and edge indices, a bind group per draw (its
//! material's texture and the draw's parameters) and the skinning palette. Everything per vertex is uploaded
//! once; per frame only the palette changes, and the UV transforms of meshes with a UV animation.

use std::ops::Range;
use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3, Vec4};
use wgpu::util::DeviceExt;

use super::data_texture::DataTexture;
use super::texture;
use super::{Renderer, bytes};
use crate::scene::{
    AlphaMode, FrameBounds, FrontFace, Scene, SphereBlend, UV_IDENTITY, UpAxis, UvAnimation, VertexStreams,
};
use crate::textures::{MaterialTexture, TextureProblem, TextureSet, placeholder_image};

/// One draw: a range of the index buffer with one material and its own parameters.
#[derive(Debug)]
pub(crate) struct Draw {
    pub indices: Range<u32>,
    /// The scene mesh this draws (`None` for a model without meshes), so meshes can be hidden.
    pub mesh: Option<usize>,
    /// Group 2: the material's texture and sampler, and `params`.
    pub group: wgpu::BindGroup,
    params: wgpu::Buffer,
    /// How the texture's alpha is drawn: the material's mode, lowered to what the texture holds.
    pub alpha: AlphaMode,
    /// Drawn without culling.
    pub two_sided: bool,
    lit: bool,
    /// 0 no sphere map, 1 multiplied, 2 added; 1 toon-shaded, 2 toon-shaded without a highlight
    /// (shaders/mesh.wgsl `DrawParams.shade`).
    shade: [f32; 2],
    /// The colours its material gives it (linear): colour, emission, outline, MToon's shade and rim.
    own: DrawColors,
    /// glTF's metallic-roughness surface, `None` for the viewer's own shading.
    surface: Option<crate::scene::Surface>,
    /// With a cut-out alpha: the least alpha drawn.
    alpha_cutoff: f32,
    /// The occlusion map's strength (0: none), the normal map's scale (0: none).
    occlusion: f32,
    normal_scale: f32,
    /// The material's outline (drawn when the view draws outlines).
    pub outline: Option<crate::scene::Outline>,
    /// The material casts a ground shadow (drawn when the view has a light and draws ground shadows).
    pub ground_shadow: bool,
    /// The material is drawn into the self-shadow map ([`crate::scene::Material::casts_shadow`]).
    pub casts_shadow: bool,
    /// The material reads the self-shadow map ([`crate::scene::Material::receives_shadow`]).
    receives_shadow: bool,
    /// The scene material drawn (`None`: the placeholder), whose colour material morphs change.
    material: Option<usize>,
    /// MToon's shade colour, rim light and UV scrolling ([`crate::scene::ToonShading`]).
    toon_shading: Option<crate::scene::ToonShading>,
    /// The colours the parameters were last written with (material morphs and colour binds change them).
    written_colors: std::cell::Cell<DrawColors>,
    uv_animation: Option<UvAnimation>,
    /// The material's own texture transform (glTF's `KHR_texture_transform`), when it has one.
    uv_base: Option<crate::scene::TextureTransform>,
    /// The UV transform the parameters were last written with.
    written_uv: std::cell::Cell<[[f32; 3]; 2]>,
    /// The bind-pose centre of the draw's vertices and the joint of its first vertex: blended draws are sorted
    /// back to front by where that joint carries the centre.
    pub center: Vec3,
    pub joint: usize,
}

/// The `DrawParams` uniform block of shaders/mesh.wgsl, in floats.
const DRAW_PARAM_FLOATS: usize = 44;

/// A draw's colours that change from frame to frame (material morphs, VRM's material colour binds), linear.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct DrawColors {
    /// RGBA, multiplied with the texture.
    pub base: Vec4,
    pub emissive: Vec3,
    /// The outline's RGBA.
    pub outline: Vec4,
    /// MToon's shade and rim colours (zero without MToon).
    pub shade: Vec3,
    pub rim: Vec3,
}

impl Draw {
    /// The UV transform at `time` with the texture transform morphs `binds` at the effective `weights`: the
    /// mesh's UV animation where it has one, else the material's own transform moved by the morphs (VRM:
    /// `base + Σ (bind − base) · weight`).
    fn uv_at(
        &self,
        time: f32,
        binds: &[(usize, crate::scene::TextureTransformOffset)],
        weights: &[f32],
    ) -> [[f32; 3]; 2] {
        if let Some(a) = &self.uv_animation {
            return a.matrix(time);
        }
        let identity =
            crate::scene::TextureTransform { offset: glam::Vec2::ZERO, scale: glam::Vec2::ONE, rotation: 0.0 };
        let mut t = self.uv_base.unwrap_or(identity);
        let mut moved = false;
        for (morph, b) in binds.iter().filter(|(_, b)| Some(b.material) == self.material) {
            let w = weights.get(*morph).copied().unwrap_or(0.0);
            if w != 0.0 && w.is_finite() {
                t.offset += b.offset * w;
                t.scale += b.scale * w;
                moved = true;
            }
        }
        match self.toon_shading.filter(|s| s.scrolls()) {
            // MToon's scrolling turns and moves the coordinates before the texture's own (bound) transform.
            Some(s) => crate::scene::uv_rows(t.affine() * s.uv_transform(time)),
            None if moved || self.uv_base.is_some() => t.matrix(),
            None => UV_IDENTITY,
        }
    }

    fn params(&self, uv: [[f32; 3]; 2], colors: &DrawColors) -> [f32; DRAW_PARAM_FLOATS] {
        let cutoff = match self.alpha {
            AlphaMode::Opaque => 0.0,
            AlphaMode::Cutout => self.alpha_cutoff,
            AlphaMode::Blend => 1.0 / 255.0,
        };
        let blend = if self.alpha == AlphaMode::Blend { 1.0 } else { 0.0 };
        let lit = if self.lit { 1.0 } else { 0.0 };
        let size = self.outline.map_or(0.0, |o| o.size);
        let (c, e, emissive) = (colors.base, colors.outline, colors.emissive);
        // The rim's shape (the shader reads it only for MToon).
        let [rim_power, rim_lift, rim_lighting] =
            self.toon_shading.map_or([1.0, 0.0, 0.0], |t| [t.rim_power, t.rim_lift, t.rim_lighting]);
        let mtoon = match self.toon_shading {
            None => 0.0,
            Some(t) if t.shade_textured => 2.0,
            Some(_) => 1.0,
        };
        [
            uv[0][0],
            uv[0][1],
            uv[0][2],
            0.0,
            uv[1][0],
            uv[1][1],
            uv[1][2],
            0.0,
            lit,
            cutoff,
            blend,
            size,
            c.x,
            c.y,
            c.z,
            c.w,
            e.x,
            e.y,
            e.z,
            e.w,
            self.shade[0],
            self.shade[1],
            if self.receives_shadow { 1.0 } else { 0.0 },
            0.0,
            self.surface.map_or(0.0, |s| s.metallic),
            self.surface.map_or(1.0, |s| s.roughness),
            if self.surface.is_some() { 1.0 } else { 0.0 },
            self.occlusion,
            emissive.x,
            emissive.y,
            emissive.z,
            self.normal_scale,
            colors.shade.x,
            colors.shade.y,
            colors.shade.z,
            mtoon,
            colors.rim.x,
            colors.rim.y,
            colors.rim.z,
            rim_power,
            rim_lift,
            rim_lighting,
            0.0,
            0.0,
        ]
    }
}

/// A scene uploaded for drawing. Created with [`GpuModel::upload`] or [`GpuModel::upload_textures`] against one
/// [`Renderer`].
pub struct GpuModel {
    /// Position, normal, tangent, texcoord, colour, joints, weights, outline scale: shader locations 0 to 7.
    pub(crate) streams: Vec<wgpu::Buffer>,
    #[cfg_attr(target_arch = "wasm32", expect(dead_code, reason = "read by the skinning capture, desktop-only"))]
    pub(crate) vertex_count: u32,
    pub(crate) indices: wgpu::Buffer,
    pub(crate) draws: Vec<Draw>,
    pub(crate) edges: wgpu::Buffer,
    pub(crate) edge_index_count: u32,
    palette: DataTexture,
    palette_len: usize,
    pub(crate) palette_group: wgpu::BindGroup,
    /// The vertex and UV morphs (group 3), weighted per frame from `Pose::morphs`.
    pub(crate) morphs: super::morph::GpuMorphs,
    /// The material morphs, and each scene material's own colour they apply to.
    material_morphs: Vec<(usize, Vec<crate::scene::MaterialOffset>)>,
    /// The texture transform morphs (VRM's texture transform binds): each offset with its morph.
    uv_morphs: Vec<(usize, crate::scene::TextureTransformOffset)>,
    /// The colour offsets (VRM's material colour binds), each with its morph.
    color_morphs: Vec<(usize, crate::scene::ColorOffset)>,
    base_colors: Vec<Vec4>,
    /// MikuMikuDance materials' diffuse and ambient ([`crate::anim::light_parts`]), relit by a light colour.
    light_parts: Vec<Option<(Vec4, glam::Vec3)>>,
    pub(crate) parents: Vec<Option<usize>>,
    /// The skeleton's IK chains, for the IK overlay.
    pub(crate) ik_chains: Vec<crate::scene::IkChain>,
    pub(crate) up: UpAxis,
    pub(crate) front_face: FrontFace,
    bind_bounds: Option<FrameBounds>,
    problems: Vec<TextureProblem>,
    /// Every texture file the materials use or looked for (found, unreadable or missing), for hot reload.
    texture_files: Vec<PathBuf>,
    /// The streams the normal and tangent lines are skinned from on the CPU (normals filled in when the scene
    /// has none, as uploaded; tangents only when the scene has them).
    pub(crate) cpu: VertexStreams,
    /// Per vertex: the file's normal points against its triangles' front side (see [`flipped_normals`]).
    pub(crate) flipped: Vec<bool>,
    /// Unique per upload, so per-view caches can tell one model from another.
    pub(crate) id: u64,
}

impl GpuModel {
    /// Uploads `scene` with its textures loaded from `model_dir` ([`TextureSet::load`], then
    /// [`GpuModel::upload_textures`]).
    pub fn upload(renderer: &Renderer, scene: &Scene, model_dir: Option<&Path>) -> GpuModel {
        GpuModel::upload_textures(renderer, scene, &TextureSet::load(scene, model_dir))
    }

    /// Uploads `scene` with the textures of `textures` (loaded for this scene): materials whose texture is
    /// missing or unreadable get the placeholder and stay listed in [`GpuModel::texture_problems`]. Missing
    /// streams get neutral defaults (normals are computed from the triangles, with the scene's front-face
    /// winding).
    pub fn upload_textures(renderer: &Renderer, scene: &Scene, textures: &TextureSet) -> GpuModel {
        let device = &renderer.device;
        let v = &scene.vertices;
        let n = v.len();
        let faces = face_normal_sums(scene);
        let flipped = flipped_normals(v.normals.as_deref().unwrap_or(&[]), &faces);
        let normals = v.normals.clone().unwrap_or_else(|| faces.iter().map(|n| n.normalize_or(Vec3::Z)).collect());
        let streams = upload_streams(device, v, &normals);

        let index_data: Vec<u32> = scene.triangles.iter().flatten().copied().collect();
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("triangles"),
            contents: bytes(if index_data.is_empty() { &[0u32; 4][..] } else { &index_data }),
            usage: wgpu::BufferUsages::INDEX,
        });
        let edge_data = crate::scene::unique_edges(&scene.triangles);
        let edges = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("edges"),
            contents: bytes(if edge_data.is_empty() { &[0u32; 4][..] } else { &edge_data }),
            usage: wgpu::BufferUsages::INDEX,
        });

        let materials = upload_materials(renderer, scene, textures);
        let draws = upload_draws(renderer, scene, &materials);

        let blend = super::blend::GpuBlend::upload(renderer, v);
        let palette_len = scene.skeleton.len().max(1);
        let (palette, palette_group) = palette_buffer(renderer, palette_len, "palette");
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let model = GpuModel {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            streams,
            vertex_count: n as u32,
            indices,
            draws,
            edge_index_count: if n == 0 { 0 } else { edge_data.len() as u32 },
            edges,
            palette,
            palette_len,
            palette_group,
            morphs: super::morph::GpuMorphs::upload(renderer, &scene.morphs, n, blend),
            material_morphs: crate::anim::material_morphs(&scene.morphs),
            uv_morphs: crate::anim::texture_transform_morphs(&scene.morphs),
            color_morphs: crate::anim::color_morphs(&scene.morphs),
            base_colors: scene.materials.iter().map(|m| m.color.unwrap_or(Vec4::ONE)).collect(),
            light_parts: crate::anim::light_parts(scene),
            parents: scene.skeleton.joints.iter().map(|j| j.parent).collect(),
            ik_chains: scene.constraints.ik.clone(),
            up: scene.up,
            front_face: scene.front_face,
            bind_bounds: FrameBounds::of_points(&v.positions),
            problems: textures.problems().to_vec(),
            texture_files: textures.files().to_vec(),
            cpu: VertexStreams {
                positions: v.positions.clone(),
                normals: Some(normals),
                tangents: v.tangents.clone(),
                joints: v.joints.clone(),
                weights: v.weights.clone(),
                blend: v.blend.clone(),
                ..Default::default()
            },
            flipped,
        };
        model.write_palette(renderer, &[]);
        model
    }

    /// Materials whose texture is missing or unreadable; they are drawn with the placeholder.
    pub fn texture_problems(&self) -> &[TextureProblem] {
        &self.problems
    }

    /// The texture files the model's materials read, and those they looked for and didn't find: a change to
    /// any of them (a re-exported texture, a missing one saved) calls for a new upload.
    pub fn texture_files(&self) -> &[PathBuf] {
        &self.texture_files
    }

    /// The paths of the missing or unreadable textures, for a problems list.
    pub fn missing_texture_paths(&self) -> Vec<&Path> {
        self.problems.iter().map(|p| p.path.as_path()).collect()
    }

    /// Writes the UV transforms of the animated draws for `time`, seconds into the clip, and the colours of the
    /// draws whose material the material morphs and colour binds at `morph_weights` (effective, per scene morph)
    /// or a light colour other than MikuMikuDance's default (`light`, sRGB-encoded) change.
    pub(crate) fn write_draw_params(
        &self,
        renderer: &Renderer,
        time: f32,
        morph_weights: &[f32],
        light: Option<glam::Vec3>,
    ) {
        let default = glam::Vec3::splat(crate::scene::MMD_LIGHT);
        let relit = light
            .filter(|&c| c != default && self.light_parts.iter().any(Option::is_some))
            .map(|c| crate::anim::lit_colors(&self.light_parts, &self.base_colors, c));
        let base = relit.as_deref().unwrap_or(&self.base_colors);
        let colors = crate::anim::material_colors(&self.material_morphs, morph_weights, base, light.unwrap_or(default));
        let shifts = crate::anim::color_shifts(&self.color_morphs, morph_weights, self.base_colors.len());
        for d in &self.draws {
            let mut c = d.own;
            if let (Some(colors), Some(m)) = (colors.as_ref().or(relit.as_ref()), d.material) {
                c.base = colors.get(m).copied().unwrap_or(c.base);
            }
            if let Some(s) = d.material.and_then(|m| shifts.as_ref()?.get(m)) {
                use crate::scene::ColorTarget as T;
                c.base += s[T::Base as usize];
                c.emissive += s[T::Emissive as usize].truncate();
                c.outline += s[T::Outline as usize];
                c.shade += s[T::Shade as usize].truncate();
                c.rim += s[T::Rim as usize].truncate();
            }
            let uv = d.uv_at(time, &self.uv_morphs, morph_weights);
            if uv != d.written_uv.get() || c != d.written_colors.get() {
                d.written_colors.set(c);
                d.written_uv.set(uv);
                renderer.queue.write_buffer(&d.params, 0, bytes(&d.params(uv, &c)));
            }
        }
    }

    /// The bounds of the unposed vertices, model space (sizes the grid).
    pub fn bind_bounds(&self) -> Option<FrameBounds> {
        self.bind_bounds
    }

    /// Uploads a pose's skinning palette (`Pose::palette`). Joints the palette lacks get the identity; extra
    /// matrices are ignored. Takes effect at the next queue submission.
    pub fn write_palette(&self, renderer: &Renderer, palette: &[Mat4]) {
        self.write_palette_into(renderer, &self.palette, palette, [0.0; 4]);
    }

    /// Joints in this model's palette buffers (at least one).
    pub(crate) fn palette_len(&self) -> usize {
        self.palette_len
    }

    /// Writes `palette` with the ghost colour `tint` into `buffer`, one made by [`palette_buffer`] for
    /// [`GpuModel::palette_len`] joints.
    pub(crate) fn write_palette_into(
        &self,
        renderer: &Renderer,
        texture: &DataTexture,
        palette: &[Mat4],
        tint: [f32; 4],
    ) {
        let count = palette.len().min(self.palette_len);
        let mut data: Vec<f32> = Vec::with_capacity(8 + 16 * self.palette_len);
        // The joint count as a float (exact to 2^24), read back with u32() in the shader.
        data.extend([self.parents.len().min(self.palette_len) as f32, 0.0, 0.0, 0.0]);
        data.extend(tint);
        for m in palette.iter().take(count) {
            data.extend(m.to_cols_array());
        }
        for _ in count..self.palette_len {
            data.extend(Mat4::IDENTITY.to_cols_array());
        }
        texture.write(renderer, 0, bytes(&data));
    }
}

/// A palette texture for `joints` joints (shaders/skin.wgsl's palette: a texel holding the count, one the
/// tint, then four per matrix, its columns) and its group-1 bind group.
pub(crate) fn palette_buffer(renderer: &Renderer, joints: usize, label: &str) -> (DataTexture, wgpu::BindGroup) {
    let texture = DataTexture::new(renderer, label, wgpu::TextureFormat::Rgba32Float, palette_texels(joints));
    let group = renderer.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &renderer.layouts.palette,
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&texture.view) }],
    });
    (texture, group)
}

/// The texels of a palette for `joints` joints.
pub(crate) fn palette_texels(joints: usize) -> usize {
    2 + 4 * joints
}

/// One vertex buffer per stream the shaders read, with defaults for the streams the scene lacks (tangent +X,
/// texture coordinates 0, colour white, no joints, outline 1).
fn upload_streams(device: &wgpu::Device, v: &VertexStreams, normals: &[Vec3]) -> Vec<wgpu::Buffer> {
    let n = v.len();
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
    vec![
        vertex_buffer("positions", bytes(&flat3(&v.positions))),
        vertex_buffer("normals", bytes(&flat3(normals))),
        vertex_buffer("tangents", bytes(&tangents.iter().flat_map(|t| t.to_array()).collect::<Vec<f32>>())),
        vertex_buffer("texcoords", bytes(&texcoords.iter().flat_map(|t| t.to_array()).collect::<Vec<f32>>())),
        vertex_buffer("colors", bytes(&colors.iter().flat_map(|c| c.to_array()).collect::<Vec<f32>>())),
        vertex_buffer("joints", bytes(&joints.iter().flatten().copied().collect::<Vec<u32>>())),
        vertex_buffer("weights", bytes(&weights.iter().flatten().copied().collect::<Vec<f32>>())),
        vertex_buffer("outline", bytes(&v.outline.clone().filter(|o| o.len() == n).unwrap_or_else(|| vec![1.0; n]))),
    ]
}

/// A draw per mesh (or one for all triangles when the scene has none), each with its material's bind group and
/// parameters written; meshes on a missing material take the placeholder.
fn upload_draws(renderer: &Renderer, scene: &Scene, materials: &[GpuMaterial]) -> Vec<Draw> {
    let device = &renderer.device;
    let n = scene.vertices.len();
    let placeholder = materials.len() - 1;
    let triangle_count = scene.triangles.len() as u32;
    let draw = |indices: Range<u32>, material: usize, mesh: Option<usize>| -> Draw {
        let m = &materials[material];
        let (center, joint) = draw_center(scene, indices.clone());
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("draw parameters"),
            size: DRAW_PARAM_FLOATS as u64 * 4,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("draw"),
            layout: &renderer.layouts.material,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&m.view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&renderer.sampler) },
                wgpu::BindGroupEntry { binding: 2, resource: params.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::TextureView(&m.sphere) },
                wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::TextureView(&m.toon) },
                wgpu::BindGroupEntry { binding: 5, resource: wgpu::BindingResource::TextureView(&m.maps[0]) },
                wgpu::BindGroupEntry { binding: 6, resource: wgpu::BindingResource::TextureView(&m.maps[1]) },
                wgpu::BindGroupEntry { binding: 7, resource: wgpu::BindingResource::TextureView(&m.maps[2]) },
                wgpu::BindGroupEntry { binding: 8, resource: wgpu::BindingResource::TextureView(&m.maps[3]) },
            ],
        });
        let scene_mesh = mesh.and_then(|i| scene.meshes.get(i));
        let toon_shading = scene.materials.get(material).and_then(|m| m.toon_shading);
        let d = Draw {
            indices,
            mesh,
            group,
            params,
            alpha: m.alpha,
            two_sided: scene_mesh.is_some_and(|s| s.two_sided),
            lit: m.lit,
            shade: m.shade,
            own: DrawColors {
                base: m.color,
                emissive: scene.materials.get(material).map_or(Vec3::ZERO, |m| m.emissive),
                outline: scene.materials.get(material).and_then(|m| m.outline).map_or(Vec4::ZERO, |o| o.color),
                shade: toon_shading.map_or(Vec3::ZERO, |t| t.shade),
                rim: toon_shading.map_or(Vec3::ZERO, |t| t.rim),
            },
            surface: scene.materials.get(material).and_then(|m| m.surface),
            alpha_cutoff: scene.materials.get(material).map_or(0.5, |m| m.alpha_cutoff),
            // A map the material names but that wasn't found draws as if it had none.
            occlusion: m.occlusion,
            normal_scale: m.normal_scale,
            outline: scene.materials.get(material).and_then(|m| m.outline),
            ground_shadow: scene.materials.get(material).is_some_and(|m| m.ground_shadow),
            casts_shadow: scene.materials.get(material).is_none_or(|m| m.casts_shadow),
            receives_shadow: scene.materials.get(material).is_none_or(|m| m.receives_shadow),
            material: (material < scene.materials.len()).then_some(material),
            toon_shading,
            written_colors: std::cell::Cell::default(),
            uv_animation: scene_mesh.and_then(|s| s.uv_animation.clone()),
            uv_base: scene.materials.get(material).and_then(|m| m.uv_transform),
            written_uv: std::cell::Cell::new(UV_IDENTITY),
            center,
            joint,
        };
        let (uv, colors) = (d.uv_at(0.0, &[], &[]), d.own);
        d.written_uv.set(uv);
        d.written_colors.set(colors);
        renderer.queue.write_buffer(&d.params, 0, bytes(&d.params(uv, &colors)));
        d
    };
    let mut draws: Vec<Draw> = scene
        .meshes
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let first = m.first_triangle.min(triangle_count);
            let end = m.first_triangle.saturating_add(m.num_triangles).min(triangle_count);
            let material = if m.material < scene.materials.len() { m.material } else { placeholder };
            (end > first && n > 0).then(|| draw(first * 3..end * 3, material, Some(i)))
        })
        .collect();
    if scene.meshes.is_empty() && triangle_count > 0 && n > 0 {
        draws.push(draw(0..triangle_count * 3, placeholder, None));
    }
    draws
}

fn flat3(v: &[Vec3]) -> Vec<f32> {
    v.iter().flat_map(|p| p.to_array()).collect()
}

/// Area-weighted vertex normals, pointing out of the front faces, unnormalised (zero for a vertex in no
/// triangle).
fn face_normal_sums(scene: &Scene) -> Vec<Vec3> {
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
    out
}

/// Which of the file's `normals` point away from the front side of their triangles (`faces`, from
/// [`face_normal_sums`]): a flipped normal, which lights the surface as if from behind. Vertices used by no
/// triangle, or whose triangles cancel out, are never flagged.
fn flipped_normals(normals: &[Vec3], faces: &[Vec3]) -> Vec<bool> {
    normals.iter().zip(faces).map(|(n, f)| n.dot(*f) < -1e-3 * n.length() * f.length()).collect()
}

/// The centre of the vertices a draw uses and the joint that carries its first vertex most.
fn draw_center(scene: &Scene, indices: Range<u32>) -> (Vec3, usize) {
    let p = &scene.vertices.positions;
    let tris = &scene.triangles[(indices.start / 3) as usize..(indices.end / 3) as usize];
    let mut sum = Vec3::ZERO;
    let mut count = 0.0;
    for &i in tris.iter().flatten() {
        if let Some(v) = p.get(i as usize) {
            sum += *v;
            count += 1.0;
        }
    }
    let first = tris.first().map_or(0, |t| t[0] as usize);
    let joint = match (&scene.vertices.joints, &scene.vertices.weights) {
        (Some(j), Some(w)) if first < j.len() && first < w.len() => {
            let best = (0..4).max_by(|&a, &b| w[first][a].total_cmp(&w[first][b])).unwrap_or(0);
            if w[first][best] > 0.0 { j[first][best] as usize } else { usize::MAX }
        }
        _ => usize::MAX,
    };
    (if count > 0.0 { sum / count } else { Vec3::ZERO }, joint)
}

/// A material ready to draw: its texture (or the placeholder), sphere map and toon ramp (white when it has
/// none), and how it is drawn.
struct GpuMaterial {
    view: wgpu::TextureView,
    sphere: wgpu::TextureView,
    toon: wgpu::TextureView,
    /// Metallic-roughness, normal, occlusion and emissive maps (each neutral when the material has none).
    maps: [wgpu::TextureView; 4],
    /// The occlusion map's strength and the normal map's scale, 0 where the map wasn't found.
    occlusion: f32,
    normal_scale: f32,
    /// As [`Draw::shade`].
    shade: [f32; 2],
    alpha: AlphaMode,
    lit: bool,
    color: Vec4,
}

/// One entry per scene material, then the placeholder's. Each decoded texture is uploaded once, however many
/// materials share it.
fn upload_materials(renderer: &Renderer, scene: &Scene, textures: &TextureSet) -> Vec<GpuMaterial> {
    let (device, queue) = (&renderer.device, &renderer.queue);
    let placeholder = texture::upload(device, queue, &placeholder_image(), "placeholder texture");
    let white = image::RgbaImage::from_pixel(1, 1, image::Rgba([255; 4]));
    let white = texture::upload(device, queue, &white, "white texture");
    let builtin_toon = texture::upload(device, queue, &crate::textures::builtin_toon_ramp(), "built-in toon ramp");
    // What a surface map is without one: factors unchanged (white), a normal along the surface's own.
    let flat = image::RgbaImage::from_pixel(1, 1, image::Rgba([128, 128, 255, 255]));
    let flat = texture::upload_linear(device, queue, &flat, "flat normal map");
    let white_data = image::RgbaImage::from_pixel(1, 1, image::Rgba([255; 4]));
    let white_data = texture::upload_linear(device, queue, &white_data, "white data texture");
    let neutral = [white_data.clone(), flat, white_data, white.clone()];
    // Colour maps (emissive) are sRGB, the others data: each image uploaded once per way it is read.
    let mut data_views: std::collections::HashMap<usize, wgpu::TextureView> = std::collections::HashMap::new();
    let views: Vec<wgpu::TextureView> = textures
        .images()
        .iter()
        .map(|t| texture::upload(device, queue, &t.image, &t.path.display().to_string()))
        .collect();
    let view_of = |k: Option<usize>| k.and_then(|k| views.get(k).cloned());
    let mut out: Vec<GpuMaterial> = scene
        .materials
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let color = m.color.unwrap_or(Vec4::ONE);
            // A translucent colour blends whatever the texture holds.
            let blend_color =
                |alpha| if color.w < 1.0 && m.alpha == AlphaMode::Blend { AlphaMode::Blend } else { alpha };
            let sphere = view_of(textures.sphere(i)).filter(|_| m.sphere.is_some());
            let sphere_mode = match (&sphere, &m.sphere) {
                (Some(_), Some(s)) if s.blend == SphereBlend::Add => 2.0,
                (Some(_), Some(_)) => 1.0,
                _ => 0.0,
            };
            let toon = m.toon.as_ref().map(|_| view_of(textures.toon(i)).unwrap_or_else(|| builtin_toon.clone()));
            let found = textures.maps(i);
            let maps: [wgpu::TextureView; 4] = std::array::from_fn(|k| match found[k] {
                Some(image) if k == 3 => view_of(Some(image)).unwrap_or_else(|| neutral[k].clone()),
                Some(image) => match textures.images().get(image) {
                    Some(t) => data_views
                        .entry(image)
                        .or_insert_with(|| {
                            let label = format!("{} (data)", t.path.display());
                            texture::upload_linear(device, queue, &t.image, &label)
                        })
                        .clone(),
                    None => neutral[k].clone(),
                },
                None => neutral[k].clone(),
            });
            // 1 toon-shaded with MikuMikuDance's highlight, 2 without (MToon has none).
            let toon_mode = match &m.toon {
                Some(t) if t.highlight => 1.0,
                Some(_) => 2.0,
                None => 0.0,
            };
            let shade = [sphere_mode, toon_mode];
            let (view, alpha) = match textures.materials().get(i) {
                Some(MaterialTexture::Image(k)) if *k < views.len() => (views[*k].clone(), textures.alpha(i)),
                // An untextured material with a colour of its own draws in that colour.
                Some(MaterialTexture::Untextured) if m.color.is_some() => (white.clone(), textures.alpha(i)),
                _ => (placeholder.clone(), AlphaMode::Opaque),
            };
            GpuMaterial {
                view,
                sphere: sphere.unwrap_or_else(|| white.clone()),
                toon: toon.unwrap_or_else(|| white.clone()),
                maps,
                occlusion: found[2].and(m.maps.occlusion.as_ref()).map_or(0.0, |t| t.factor),
                normal_scale: found[1].and(m.maps.normal.as_ref()).map_or(0.0, |t| t.factor),
                shade,
                alpha: blend_color(alpha),
                lit: m.lit,
                color,
            }
        })
        .collect();
    out.push(GpuMaterial {
        view: placeholder,
        sphere: white.clone(),
        toon: white,
        maps: neutral,
        occlusion: 0.0,
        normal_scale: 0.0,
        shade: [0.0; 2],
        alpha: AlphaMode::Opaque,
        lit: true,
        color: Vec4::ONE,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_normal_against_its_faces_winding_is_flagged() {
        // One triangle in the XY plane, counter-clockwise seen from +Z.
        let mut scene = Scene::empty(crate::scene::Metadata::new(crate::scene::Format::Iqe, ""));
        scene.vertices.positions = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::ONE];
        scene.triangles = vec![[0, 1, 2]];
        scene.front_face = FrontFace::Ccw;
        let faces = face_normal_sums(&scene);
        assert_eq!(&faces, &[Vec3::Z, Vec3::Z, Vec3::Z, Vec3::ZERO]);
        let normals = [Vec3::Z, -Vec3::Z, Vec3::new(1.0, 0.0, 0.2), -Vec3::Z];
        // Vertex 3 belongs to no triangle: never flagged.
        assert_eq!(flipped_normals(&normals, &faces), vec![false, true, false, false]);
        // Clockwise front faces turn the same triangle around.
        scene.front_face = FrontFace::Cw;
        let faces = face_normal_sums(&scene);
        assert_eq!(flipped_normals(&normals, &faces), vec![true, false, true, false]);
    }
}

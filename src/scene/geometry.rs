//! Vertex streams, meshes and materials.

use glam::{Vec2, Vec3, Vec4};

/// A named per-vertex stream the format leaves to the user (IQM custom arrays, IQE `v0`…`v9`).
#[derive(Debug, Clone, PartialEq)]
pub struct CustomStream {
    pub name: String,
    /// Components per vertex, 1 to 4.
    pub components: u32,
    /// `components` values per vertex, decoded to f32 (normalised where the format says so).
    pub data: Vec<f32>,
}

/// Per-vertex data as parallel streams. Every present stream has one entry per position.
///
/// Streams are separate arrays rather than an interleaved vertex struct: formats provide different subsets,
/// the GPU uploads each as its own buffer, and CPU skinning touches only positions and influences.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VertexStreams {
    pub positions: Vec<Vec3>,
    pub normals: Option<Vec<Vec3>>,
    /// xyz tangent and w the bitangent sign (handedness): `bitangent = cross(normal, tangent) * w`.
    pub tangents: Option<Vec<Vec4>>,
    /// UV with origin top-left, as the Inter-Quake formats and wgpu both expect.
    pub texcoords: Option<Vec<Vec2>>,
    /// Linear RGBA in 0..1.
    pub colors: Option<Vec<Vec4>>,
    /// Up to four joint indices per vertex; unused slots have weight 0.
    pub joints: Option<Vec<[u32; 4]>>,
    /// Weights for `joints`, as fractions (IQM bytes / 255). They sum to 1 in a clean file.
    pub weights: Option<Vec<[f32; 4]>>,
    pub custom: Vec<CustomStream>,
    /// How much of its material's outline each vertex draws (0 none, 1 the material's size; MMD edge scale).
    /// `None`: every vertex draws it whole.
    pub outline: Option<Vec<f32>>,
    /// For each vertex, the index of the file vertex it was made from, when the loader split file vertices
    /// (corners of one IQE `vp` with different generated normals, RSM faces with their own normals). `None`
    /// means the vertices are the file's, in its order. Every file vertex appears at least once.
    pub source: Option<Vec<u32>>,
    /// How vertices blend their joints where that is not linear blend skinning (PMX's SDEF and QDEF). `None`:
    /// every vertex blends linearly.
    pub blend: Option<VertexBlend>,
}

/// How each vertex blends its joints, for meshes where some don't blend linearly.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VertexBlend {
    /// One per vertex (a missing one is linear).
    pub methods: Vec<BlendMethod>,
    /// The spherical vertices' parameters, indexed by [`BlendMethod::Spherical`].
    pub spherical: Vec<SphericalBlend>,
}

impl VertexBlend {
    /// Vertex `i`'s method and, for a spherical one, its parameters.
    pub fn of(&self, i: usize) -> (BlendMethod, Option<&SphericalBlend>) {
        let method = self.methods.get(i).copied().unwrap_or(BlendMethod::Linear);
        let spherical = match method {
            BlendMethod::Spherical(k) => self.spherical.get(k as usize),
            _ => None,
        };
        (method, spherical)
    }

    /// Vertices blended spherically and by dual quaternions.
    pub fn counts(&self) -> (usize, usize) {
        let spherical = self.methods.iter().filter(|m| matches!(m, BlendMethod::Spherical(_))).count();
        let dual = self.methods.iter().filter(|m| **m == BlendMethod::DualQuaternion).count();
        (spherical, dual)
    }
}

/// How one vertex blends its joints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BlendMethod {
    /// The weighted sum of its joints' skinning matrices (linear blend skinning).
    #[default]
    Linear,
    /// Spherical deformation between its first two joints (PMX SDEF): the two joints' rotations slerped by the
    /// second's weight, turning the vertex about a centre; its parameters are `spherical[k]`.
    Spherical(u32),
    /// The weighted sum of its joints' transforms as unit dual quaternions (PMX QDEF): rigid, so a twist
    /// keeps its volume.
    DualQuaternion,
}

/// A spherically blended vertex's parameters as the file gives them, in bind-pose model space: the centre of
/// rotation `c` and the two joints' reference points `r0`, `r1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphericalBlend {
    pub c: glam::Vec3,
    pub r0: glam::Vec3,
    pub r1: glam::Vec3,
}

impl VertexStreams {
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Number of vertices the file itself declared (before any splitting).
    pub fn file_vertex_count(&self) -> usize {
        match &self.source {
            Some(src) => src.iter().map(|&s| s as usize + 1).max().unwrap_or(0),
            None => self.len(),
        }
    }

    /// The file's index of vertex `i` (the vertex it was made from, when the loader split vertices).
    pub fn file_vertex(&self, i: usize) -> usize {
        self.source.as_ref().and_then(|s| s.get(i)).map_or(i, |&s| s as usize)
    }

    /// One value per file vertex, in the file's order, taken from the first vertex made from it.
    pub fn per_file_vertex<T: Copy + Default>(&self, values: &[T]) -> Vec<T> {
        match &self.source {
            None => values.to_vec(),
            Some(src) => {
                let mut out = vec![T::default(); self.file_vertex_count()];
                let mut seen = vec![false; out.len()];
                for (&s, &v) in src.iter().zip(values) {
                    let s = s as usize;
                    if !seen[s] {
                        seen[s] = true;
                        out[s] = v;
                    }
                }
                out
            }
        }
    }

    /// True when vertices carry joint influences.
    pub fn is_skinned(&self) -> bool {
        self.joints.is_some() && self.weights.is_some()
    }
}

/// A draw range with one material.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    pub name: String,
    /// Index into [`crate::scene::Scene::materials`].
    pub material: usize,
    pub first_triangle: u32,
    pub num_triangles: u32,
    /// The vertex range the file declares for this mesh (informational; triangles index globally).
    pub first_vertex: u32,
    pub num_vertices: u32,
    /// The faces are meant to be seen from both sides: never culled, lit on the side the camera sees.
    pub two_sided: bool,
    /// Texture coordinates animated over the clip's time (RSM 2.3); `None` leaves them as stored.
    pub uv_animation: Option<UvAnimation>,
}

/// How a material's texture alpha is used, at most: the renderer uses the least the texture needs (a texture
/// with no transparent texel draws opaque, one with only fully transparent texels is cut out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AlphaMode {
    /// Alpha is ignored (the Inter-Quake formats).
    #[default]
    Opaque,
    /// Texels under half alpha are discarded, the rest drawn opaque.
    Cutout,
    /// Partial alpha blends over what is behind, drawn after the opaque meshes and back to front.
    Blend,
}

/// Where a material's texture reference is looked for, relative to the model's folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextureSearch {
    /// The reference as a file name beside the model, then with .png, .tga, .jpg and .bmp appended (IQM, IQE).
    #[default]
    BesideModel,
    /// A path under a game data tree: `A/data/texture/NAME` for the model's folder and each folder above it,
    /// then NAME and its file name beside the model; `\` separates folders and case is ignored (Ragnarok).
    DataTexture,
    /// An image the model file carries: the reference is the name of one of the scene's
    /// [`crate::scene::Scene::images`] (glTF buffer views and data URIs).
    Embedded,
}

/// A material: a name, the texture it refers to and how that texture is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    pub name: String,
    /// The texture reference as written in the file (IQM: the material name is the texture name).
    pub texture: Option<String>,
    pub search: TextureSearch,
    /// BMP textures: magenta texels (r > 230, g < 20, b > 230) are transparent, the Ragnarok colour key.
    pub color_key: bool,
    pub alpha: AlphaMode,
    /// Lit by the viewer's light; `false` draws the texture colour as it is.
    pub lit: bool,
    /// The material's own colour (linear RGBA), multiplied with its texture; an untextured material with a
    /// colour draws in that colour. `None`: white, and an untextured material draws the placeholder.
    pub color: Option<glam::Vec4>,
    /// An outline drawn around the material's silhouette (MMD's edge): `None` draws none.
    pub outline: Option<Outline>,
    /// A sphere map (MMD's `.sph`/`.spa`, a matcap): a texture read at the view-space normal and multiplied
    /// with or added to the colour.
    pub sphere: Option<SphereMap>,
    /// A toon ramp (MMD's toon textures): the light is read from a vertical gradient instead of falling off
    /// smoothly. `None`: the viewer's usual shading.
    pub toon: Option<ToonRamp>,
    /// Cast on the floor along the scene's light, flattened and translucent (MikuMikuDance's ground shadow).
    pub ground_shadow: bool,
    /// Drawn into the self-shadow map: the material shades others (MikuMikuDance: PMX flag 0x04; a PMD material
    /// whose diffuse alpha isn't 0.98). True for formats without the flag, which draw self-shadow only on request.
    pub casts_shadow: bool,
    /// Darkened where the self-shadow map says another surface is nearer the light (MikuMikuDance: PMX flag
    /// 0x08; the PMD rule above). True for formats without the flag.
    pub receives_shadow: bool,
    /// glTF's metallic-roughness surface, drawn with its BRDF under the viewer's light; `None` for formats without
    /// one, which the viewer's own shading draws.
    pub surface: Option<Surface>,
    /// Light the material gives off itself, linear RGB (glTF's emissive factor times
    /// `KHR_materials_emissive_strength`), added after lighting; zero for most.
    pub emissive: glam::Vec3,
    /// With [`AlphaMode::Cutout`]: texels with less alpha than this are discarded (glTF's `alphaCutoff`; 0.5 for
    /// the formats that have no such field).
    pub alpha_cutoff: f32,
    /// glTF's other textures: metallic-roughness, normal, occlusion and emissive maps.
    pub maps: SurfaceMaps,
    /// The colour texture's transform (glTF's `KHR_texture_transform`: an atlas cell), `None` for none.
    pub uv_transform: Option<TextureTransform>,
    /// MToon's shading beyond its toon ramp (VRM's toon material): with it the ramp holds the lit share and the
    /// shade colour, rim light and UV scrolling come from here.
    pub toon_shading: Option<ToonShading>,
}

/// MToon's shading (three-vrm 3.5.5's MToon shader): the colour is `mix(shade, lit, s)` with `s` the lit share
/// the material's toon ramp holds at the light, plus a rim `rim · saturate(1 − N·V + lift)^power`, scaled by
/// `mix(1, light, rim_lighting)`; the texture coordinates turn by `spin` radians a second about the texture's
/// centre (from u toward −v, as three-vrm's column-major `mat2(cos, −sin, sin, cos)` turns them), then move by
/// `scroll` a second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToonShading {
    /// The unlit side's colour, linear RGB.
    pub shade: glam::Vec3,
    /// The shade colour is multiplied by the colour texture (MToon's shade texture, drawn as the colour texture
    /// that exporters write into it).
    pub shade_textured: bool,
    /// The rim light's colour, linear RGB (black: none).
    pub rim: glam::Vec3,
    pub rim_power: f32,
    pub rim_lift: f32,
    /// 0: the rim ignores the light, 1: scaled by it.
    pub rim_lighting: f32,
    /// UV scrolling: texture coordinates a second (u, v).
    pub scroll: Vec2,
    /// UV rotation: radians a second about (0.5, 0.5).
    pub spin: f32,
}

impl ToonShading {
    /// The texture coordinate transform after `seconds` of scrolling: `uv' = R(−spin·t)·(uv − ½) + ½ +
    /// scroll·t`, as three-vrm's MToon moves them (before the colour texture's own transform).
    pub fn uv_transform(&self, seconds: f32) -> glam::Affine2 {
        glam::Affine2::from_translation(Vec2::splat(0.5) + self.scroll * seconds)
            * glam::Affine2::from_angle(-self.spin * seconds)
            * glam::Affine2::from_translation(-Vec2::splat(0.5))
    }

    /// Whether the texture coordinates move with time.
    pub fn scrolls(&self) -> bool {
        self.scroll != Vec2::ZERO || self.spin != 0.0
    }
}

/// A texture coordinate transform as `KHR_texture_transform` defines it: `uv' = offset + R(rotation) · (scale ⊙
/// uv)`, the rotation counter-clockwise in radians.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextureTransform {
    pub offset: Vec2,
    pub scale: Vec2,
    pub rotation: f32,
}

impl TextureTransform {
    /// The rows of its 2×3 matrix, as [`UvAnimation::matrix`] gives them.
    pub fn matrix(&self) -> [[f32; 3]; 2] {
        uv_rows(self.affine())
    }

    /// The transform itself.
    pub fn affine(&self) -> glam::Affine2 {
        let (s, c) = self.rotation.sin_cos();
        glam::Affine2::from_cols(Vec2::new(c, s) * self.scale.x, Vec2::new(-s, c) * self.scale.y, self.offset)
    }
}

/// A texture a material reads besides its colour texture, found as [`Material::texture`] is.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureMap {
    pub texture: String,
    pub search: TextureSearch,
    /// The normal map's scale, the occlusion map's strength; 1 for the others.
    pub factor: f32,
}

/// glTF's surface textures, each optional: what they hold is multiplied with the material's factors.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SurfaceMaps {
    /// Roughness in green, metalness in blue (linear).
    pub metallic_roughness: Option<TextureMap>,
    /// A tangent-space normal (linear), its X and Y scaled by the map's factor.
    pub normal: Option<TextureMap>,
    /// Ambient occlusion in red (linear), applied with the map's strength.
    pub occlusion: Option<TextureMap>,
    /// The emitted colour (sRGB), times the emissive colour.
    pub emissive: Option<TextureMap>,
}

impl SurfaceMaps {
    /// The maps in the renderer's order: metallic-roughness, normal, occlusion, emissive.
    pub fn all(&self) -> [Option<&TextureMap>; 4] {
        [self.metallic_roughness.as_ref(), self.normal.as_ref(), self.occlusion.as_ref(), self.emissive.as_ref()]
    }
}

/// A physically based surface, as glTF's metallic-roughness model describes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Surface {
    /// 0 a dielectric (its colour diffuse, a 4 % reflection), 1 a metal (its colour reflected).
    pub metallic: f32,
    /// Perceptual roughness, 0 a mirror to 1 fully rough.
    pub roughness: f32,
}

/// A sphere map: `texture` (found like the material's own) sampled at the surface normal as the camera sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct SphereMap {
    pub texture: String,
    pub blend: SphereBlend,
}

/// How a sphere map's colour combines with the material's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SphereBlend {
    Multiply,
    Add,
}

/// A toon ramp: a vertical gradient, lit at the top and in shadow at the bottom, that the light level picks a
/// row of.
#[derive(Debug, Clone, PartialEq)]
pub struct ToonRamp {
    /// The ramp's texture, found like the material's own; `None` draws the built-in ramp.
    pub texture: Option<String>,
    /// A shared ramp that ships with the authoring tool, not with models (MikuMikuDance's toon01–toon10): when
    /// its texture isn't beside the model the built-in ramp draws it, and nothing is reported missing.
    pub shared: bool,
    /// MikuMikuDance's small highlight on top (MMD materials); MToon draws none.
    pub highlight: bool,
}

/// A toon outline: the back faces pushed out along their normals, in one colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outline {
    /// Linear RGBA.
    pub color: glam::Vec4,
    /// Thickness in MMD's units (1 is MikuMikuDance's usual edge; the renderer scales it with distance so it
    /// stays about as wide on screen).
    pub size: f32,
}

impl Material {
    /// An opaque, lit material found beside the model by name (the Inter-Quake convention).
    pub fn new(name: impl Into<String>, texture: Option<String>) -> Material {
        Material {
            name: name.into(),
            texture,
            search: TextureSearch::BesideModel,
            color_key: false,
            alpha: AlphaMode::Opaque,
            lit: true,
            color: None,
            outline: None,
            sphere: None,
            toon: None,
            ground_shadow: false,
            casts_shadow: true,
            receives_shadow: true,
            surface: None,
            emissive: glam::Vec3::ZERO,
            alpha_cutoff: 0.5,
            maps: SurfaceMaps::default(),
            uv_transform: None,
            toon_shading: None,
        }
    }
}

/// What one UV channel animates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UvChannelKind {
    TranslateU,
    TranslateV,
    ScaleU,
    ScaleV,
    /// Radians, about the texture's centre.
    Rotate,
}

/// One animated UV channel: values at times (seconds into the clip), linear between keys, held outside them.
#[derive(Debug, Clone, PartialEq)]
pub struct UvChannel {
    pub kind: UvChannelKind,
    /// Sorted by time.
    pub keys: Vec<(f32, f32)>,
}

impl UvChannel {
    /// The value at `time`, or `None` without keys.
    pub fn sample(&self, time: f32) -> Option<f32> {
        let (first, last) = (self.keys.first()?, self.keys.last()?);
        if time <= first.0 {
            return Some(first.1);
        }
        if time >= last.0 {
            return Some(last.1);
        }
        let i = self.keys.partition_point(|k| k.0 <= time);
        let (a, b) = (self.keys[i - 1], self.keys[i]);
        let span = b.0 - a.0;
        let f = if span > 0.0 { (time - a.0) / span } else { 1.0 };
        Some(a.1 + (b.1 - a.1) * f)
    }
}

/// Keyed UV channels of one mesh. Missing channels stay neutral (no translation, scale 1, no rotation).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UvAnimation {
    pub channels: Vec<UvChannel>,
}

impl UvAnimation {
    /// The UV transform at `time` as the rows of a 2×3 matrix: `uv' = [r0 · (u, v, 1), r1 · (u, v, 1)]`.
    /// It scales and rotates about the texture's centre (0.5, 0.5) after translating: T(½)·S·R·T(t)·T(−½).
    pub fn matrix(&self, time: f32) -> [[f32; 3]; 2] {
        let (t, s, r) = self.components(time);
        uv_rows(
            glam::Affine2::from_translation(Vec2::splat(0.5))
                * glam::Affine2::from_scale(s)
                * glam::Affine2::from_angle(r)
                * glam::Affine2::from_translation(t - Vec2::splat(0.5)),
        )
    }
}

/// A texture coordinate transform as the rows of a 2×3 matrix ([`UvAnimation::matrix`]'s layout).
pub fn uv_rows(m: glam::Affine2) -> [[f32; 3]; 2] {
    let (a, b, c) = (m.matrix2.x_axis, m.matrix2.y_axis, m.translation);
    [[a.x, b.x, c.x], [a.y, b.y, c.y]]
}

impl UvAnimation {
    /// Translation, scale and rotation (radians) at `time`, missing channels neutral: what
    /// [`UvAnimation::matrix`] composes.
    pub fn components(&self, time: f32) -> (Vec2, Vec2, f32) {
        let get = |kind: UvChannelKind, default: f32| {
            self.channels.iter().filter(|c| c.kind == kind).find_map(|c| c.sample(time)).unwrap_or(default)
        };
        let t = Vec2::new(get(UvChannelKind::TranslateU, 0.0), get(UvChannelKind::TranslateV, 0.0));
        let s = Vec2::new(get(UvChannelKind::ScaleU, 1.0), get(UvChannelKind::ScaleV, 1.0));
        (t, s, get(UvChannelKind::Rotate, 0.0))
    }
}

/// The identity UV transform in [`UvAnimation::matrix`]'s layout.
pub const UV_IDENTITY: [[f32; 3]; 2] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uv_channels_interpolate_and_compose_about_the_centre() {
        let anim = UvAnimation {
            channels: vec![UvChannel { kind: UvChannelKind::TranslateU, keys: vec![(0.0, 0.0), (2.0, 1.0)] }],
        };
        let m = anim.matrix(1.0);
        assert!((m[0][2] - 0.5).abs() < 1e-6 && m[0][0] == 1.0 && m[1][2].abs() < 1e-6, "{m:?}");
        assert_eq!(anim.matrix(-1.0), UV_IDENTITY, "held before the first key");
        let rot = UvAnimation {
            channels: vec![UvChannel { kind: UvChannelKind::Rotate, keys: vec![(0.0, std::f32::consts::PI)] }],
        };
        let m = rot.matrix(0.0);
        // A half turn about the centre maps (0, 0) to (1, 1).
        let (u, v) = (m[0][2], m[1][2]);
        assert!((u - 1.0).abs() < 1e-5 && (v - 1.0).abs() < 1e-5, "{m:?}");
        assert_eq!(UvAnimation::default().matrix(3.0), UV_IDENTITY);
    }
}

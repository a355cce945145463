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
}

impl VertexStreams {
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
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
}

/// A material: a name and the texture it refers to.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    pub name: String,
    /// The texture reference as written in the file (IQM: the material name is the texture name).
    pub texture: Option<String>,
}

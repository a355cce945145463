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
    /// For each vertex, the index of the file vertex it was made from, when the loader split file vertices
    /// (corners of one IQE `vp` with different generated normals, RSM faces with their own normals). `None`
    /// means the vertices are the file's, in its order. Every file vertex appears at least once.
    pub source: Option<Vec<u32>>,
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
}

/// A material: a name and the texture it refers to.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    pub name: String,
    /// The texture reference as written in the file (IQM: the material name is the texture name).
    pub texture: Option<String>,
}

//! Mesh primitives into the scene's vertex streams, triangles, meshes and vertex morphs.
//!
//! Each primitive of each mesh a node of the default scene instances becomes one scene mesh; primitives of one
//! node that read the same accessors share one copy of the vertices (rigscope's own exports: an MMD model's
//! materials over one vertex list), each other primitive gets vertices of its own. Static meshes have their node's
//! rest world transform baked in; a static mesh under a skeleton joint is bound to that joint with weight 1 so
//! it follows animation as in glTF. Skinned meshes ignore their node's transform, as the spec says.

use std::collections::HashMap;

use glam::{Mat3, Mat4, Vec2, Vec3, Vec4};
use gltf::mesh::{Mode, Semantic};

use super::accessor::Buffers;
use super::nodes::{Graph, Rig};
use super::warn;
use crate::error::{LoadError, Warning};
use crate::scene::{Mesh, Morph, MorphKind, MorphPanel, VertexOffset, VertexStreams};

/// What the meshes load into.
#[derive(Default)]
pub struct Geometry {
    pub vertices: VertexStreams,
    pub triangles: Vec<[u32; 3]>,
    pub meshes: Vec<Mesh>,
    pub morphs: Vec<Morph>,
    /// For each node with morph targets, the scene morph of each target index.
    pub node_morphs: HashMap<usize, Vec<usize>>,
    /// For each node that draws a mesh, the scene meshes its primitives became.
    pub node_meshes: HashMap<usize, Vec<usize>>,
    /// True when some primitive used the glTF default material (it is added after the file's materials).
    pub default_material_used: bool,
    normals: Vec<Vec3>,
    tangents: Vec<Vec4>,
    texcoords: Vec<Vec2>,
    colors: Vec<Vec4>,
    joints: Vec<[u32; 4]>,
    weights: Vec<[f32; 4]>,
    has: [bool; 6],
}

/// How a primitive's vertices are placed.
#[derive(Clone, Copy)]
enum Placement {
    /// Baked by a fixed matrix, optionally bound whole to one joint.
    Static { matrix: Mat4, joint: Option<u32> },
    /// Skinned by skin `skin`.
    Skinned { skin: usize },
}

/// The attributes of one primitive, read and checked.
struct Attributes {
    positions: Vec<Vec3>,
    normals: Option<Vec<Vec3>>,
    tangents: Option<Vec<Vec4>>,
    texcoords: Option<Vec<Vec2>>,
    colors: Option<Vec<Vec4>>,
    joints: Option<Vec<[u32; 4]>>,
    weights: Option<Vec<[f32; 4]>>,
}

pub fn read(
    doc: &gltf::Document,
    graph: &Graph,
    rig: &Rig,
    buffers: &Buffers,
    material_count: usize,
    w: &mut Vec<Warning>,
) -> Result<Geometry, LoadError> {
    let mut g = Geometry::default();
    let nodes: Vec<gltf::Node> = doc.nodes().collect();
    for &ni in graph.order.iter().filter(|&&i| graph.in_scene[i]) {
        let node = &nodes[ni];
        let Some(mesh) = node.mesh() else { continue };
        let target_names = target_names(&mesh);
        // Primitives of one mesh that read the same accessors (rigscope's exports: an MMD model's materials over
        // one vertex list) share their vertices, read once.
        let mut shared: HashMap<Vec<usize>, (u32, u32, Placement)> = HashMap::new();
        for prim in mesh.primitives() {
            let label = format!("mesh {} \"{}\" primitive {}", mesh.index(), mesh.name().unwrap_or(""), prim.index());
            if prim.mode() != Mode::Triangles {
                warn(
                    w,
                    "gltf.primitive.mode",
                    format!("{label}: mode {:?} skipped (only triangles are read)", prim.mode()),
                );
                continue;
            }
            let key = accessor_key(&prim);
            let first_triangle = g.triangles.len() as u32;
            // The vertices read for an earlier primitive, placed as they were then.
            let (first_vertex, num_vertices, placement) = if let Some(&(first, count, placement)) = shared.get(&key) {
                (first, count, placement)
            } else {
                let Some(attrs) = read_attributes(&prim, buffers, &label, w)? else { continue };
                let skinned = attrs.joints.is_some() && attrs.weights.is_some();
                let placement = placement(node, ni, skinned, graph, rig);
                let first_vertex = g.vertices.positions.len() as u32;
                let corrections = g.add_vertices(attrs, &placement, rig, &label, w);
                let num_vertices = g.vertices.positions.len() as u32 - first_vertex;
                g.add_morphs(&prim, buffers, ni, &mesh, &target_names, first_vertex, &corrections, &label)?;
                shared.insert(key, (first_vertex, num_vertices, placement));
                (first_vertex, num_vertices, placement)
            };
            g.add_triangles(&prim, buffers, first_vertex, num_vertices, &placement, &label, w)?;
            let material = match prim.material().index() {
                Some(m) => m,
                None => {
                    g.default_material_used = true;
                    material_count
                }
            };
            // rigscope's exports name each primitive's mesh; other files get the mesh's name (and the
            // primitive's number when there are several).
            let own =
                super::extras::rigscope_extras(prim.extras()).and_then(|e| e["mesh"].as_str().map(str::to_string));
            let name = own.unwrap_or_else(|| {
                mesh.name().map_or_else(|| format!("mesh {}", mesh.index()), str::to_string)
                    + &if mesh.primitives().len() > 1 { format!(".{}", prim.index()) } else { String::new() }
            });
            g.node_meshes.entry(ni).or_default().push(g.meshes.len());
            g.meshes.push(Mesh {
                name,
                material,
                first_triangle,
                num_triangles: g.triangles.len() as u32 - first_triangle,
                first_vertex,
                num_vertices,
                two_sided: prim.material().double_sided(),
                uv_animation: None,
            });
        }
    }
    g.finish();
    Ok(g)
}

/// How node `ni`'s primitive is placed: skinned when the node has a skin and the primitive has influences,
/// else baked by the node's rest transform and bound to its nearest joint.
fn placement(node: &gltf::Node, ni: usize, skinned: bool, graph: &Graph, rig: &Rig) -> Placement {
    match node.skin() {
        Some(skin) if skinned => Placement::Skinned { skin: skin.index() },
        _ => {
            let joint = graph.ancestors(ni).find_map(|a| rig.joint_of_node[a]).map(|j| j as u32);
            Placement::Static { matrix: graph.world[ni], joint }
        }
    }
}

/// The accessors a primitive's vertices come from (attributes and morph targets), to find primitives that share
/// them.
fn accessor_key(prim: &gltf::Primitive) -> Vec<usize> {
    let mut key: Vec<usize> = prim.attributes().flat_map(|(s, a)| [semantic_id(&s), a.index()]).collect();
    for t in prim.morph_targets() {
        key.push(usize::MAX);
        key.extend(t.positions().map(|a| a.index()));
    }
    key
}

/// A number per attribute semantic, for [`accessor_key`].
fn semantic_id(s: &Semantic) -> usize {
    match s {
        Semantic::Positions => 0,
        Semantic::Normals => 1,
        Semantic::Tangents => 2,
        Semantic::Colors(n) => 16 + *n as usize,
        Semantic::TexCoords(n) => 1024 + *n as usize,
        Semantic::Joints(n) => 2048 + *n as usize,
        Semantic::Weights(n) => 3072 + *n as usize,
        _ => 4096,
    }
}

/// `extras.targetNames` of a mesh, when it has them.
fn target_names(mesh: &gltf::Mesh) -> Vec<String> {
    let Some(raw) = mesh.extras().as_ref() else { return Vec::new() };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(raw.get()) else { return Vec::new() };
    let names = value.get("targetNames").and_then(|v| v.as_array());
    names.map_or_else(Vec::new, |a| a.iter().map(|n| n.as_str().unwrap_or("").to_string()).collect())
}

fn vec3s(f: &[f32]) -> Vec<Vec3> {
    f.chunks_exact(3).map(Vec3::from_slice).collect()
}

fn read_attributes(
    prim: &gltf::Primitive,
    buffers: &Buffers,
    label: &str,
    w: &mut Vec<Warning>,
) -> Result<Option<Attributes>, LoadError> {
    let Some(pos) = prim.get(&Semantic::Positions) else {
        warn(w, "gltf.primitive.positions", format!("{label}: no POSITION attribute, skipped"));
        return Ok(None);
    };
    let positions = vec3s(&buffers.floats(&pos, "POSITION", &[3])?.1);
    let n = positions.len();
    let mut keep = |name: &str, len: usize| {
        let ok = len == n;
        if !ok {
            warn(w, "gltf.attribute.count", format!("{label}: {name} has {len} elements for {n} vertices, ignored"));
        }
        ok
    };
    let mut attrs = Attributes {
        positions,
        normals: None,
        tangents: None,
        texcoords: None,
        colors: None,
        joints: None,
        weights: None,
    };
    if let Some(a) = prim.get(&Semantic::Normals) {
        attrs.normals = Some(vec3s(&buffers.floats(&a, "NORMAL", &[3])?.1)).filter(|v| keep("NORMAL", v.len()));
    }
    if let Some(a) = prim.get(&Semantic::Tangents) {
        let t: Vec<Vec4> = buffers.floats(&a, "TANGENT", &[4])?.1.chunks_exact(4).map(Vec4::from_slice).collect();
        attrs.tangents = Some(t).filter(|v| keep("TANGENT", v.len()));
    }
    if let Some(a) = prim.get(&Semantic::TexCoords(0)) {
        let t: Vec<Vec2> = buffers.floats(&a, "TEXCOORD_0", &[2])?.1.chunks_exact(2).map(Vec2::from_slice).collect();
        attrs.texcoords = Some(t).filter(|v| keep("TEXCOORD_0", v.len()));
    }
    if let Some(a) = prim.get(&Semantic::Colors(0)) {
        let (dims, f) = buffers.floats(&a, "COLOR_0", &[3, 4])?;
        let c: Vec<Vec4> = f
            .chunks_exact(dims)
            .map(|c| if dims == 3 { Vec3::from_slice(c).extend(1.0) } else { Vec4::from_slice(c) })
            .collect();
        attrs.colors = Some(c).filter(|v| keep("COLOR_0", v.len()));
    }
    if let (Some(j), Some(wt)) = (prim.get(&Semantic::Joints(0)), prim.get(&Semantic::Weights(0))) {
        let j: Vec<[u32; 4]> =
            buffers.uints(&j, "JOINTS_0", 4)?.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        let wt: Vec<[f32; 4]> =
            buffers.floats(&wt, "WEIGHTS_0", &[4])?.1.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        if keep("JOINTS_0", j.len()) && keep("WEIGHTS_0", wt.len()) {
            attrs.joints = Some(j);
            attrs.weights = Some(wt);
        }
    }
    Ok(Some(attrs))
}

impl Geometry {
    /// Appends a primitive's vertices, placed; returns the matrix each vertex was moved by (for its morphs).
    fn add_vertices(
        &mut self,
        a: Attributes,
        placement: &Placement,
        rig: &Rig,
        label: &str,
        w: &mut Vec<Warning>,
    ) -> Vec<Option<Mat4>> {
        let n = a.positions.len();
        let mut moved: Vec<Option<Mat4>> = vec![None; n];
        let (mut joints, mut weights) = (vec![[0u32; 4]; n], vec![[0f32; 4]; n]);
        match placement {
            Placement::Static { matrix, joint } => {
                moved.fill(Some(*matrix).filter(|m| *m != Mat4::IDENTITY));
                if let Some(j) = joint {
                    joints.fill([*j, 0, 0, 0]);
                    weights.fill([1.0, 0.0, 0.0, 0.0]);
                }
            }
            Placement::Skinned { skin } => {
                let (js, ws) = (a.joints.as_deref().unwrap_or(&[]), a.weights.as_deref().unwrap_or(&[]));
                let map = rig.skins.get(*skin).map_or(&[][..], |s| s.joints.as_slice());
                let unweighted = rig.skins.get(*skin).map_or(&[][..], |s| s.unweighted.as_slice());
                let mut bad = 0usize;
                for (v, (j, wt)) in js.iter().zip(ws).enumerate() {
                    moved[v] = rig.skin_correction(*skin, *j, *wt);
                    for k in 0..4 {
                        match map.get(j[k] as usize) {
                            Some(&s) => (joints[v][k], weights[v][k]) = (s as u32, wt[k]),
                            None if wt[k] != 0.0 && !unweighted.contains(&(j[k] as usize)) => bad += 1,
                            None => {}
                        }
                    }
                }
                if bad > 0 {
                    let m = format!("{label}: {bad} influences name joints the skin doesn't have; they are dropped");
                    warn(w, "gltf.skin.joint_index", m);
                }
            }
        }
        for (v, m) in moved.iter().enumerate() {
            let p = a.positions[v];
            self.vertices.positions.push(m.map_or(p, |m| m.transform_point3(p)));
        }
        let linear = |m: &Option<Mat4>| m.map(Mat3::from_mat4);
        if let Some(normals) = &a.normals {
            self.has[0] = true;
            self.normals.resize(self.vertices.positions.len() - n, Vec3::Y);
            for (nv, m) in normals.iter().zip(&moved) {
                let out = linear(m).map_or(*nv, |l| (l.inverse().transpose() * *nv).normalize_or_zero());
                self.normals.push(out);
            }
        }
        if let Some(tangents) = &a.tangents {
            self.has[1] = true;
            self.tangents.resize(self.vertices.positions.len() - n, Vec4::new(1.0, 0.0, 0.0, 1.0));
            for (t, m) in tangents.iter().zip(&moved) {
                let out = linear(m).map_or(*t, |l| {
                    let sign = if l.determinant() < 0.0 { -t.w } else { t.w };
                    (l * t.truncate()).normalize_or_zero().extend(sign)
                });
                self.tangents.push(out);
            }
        }
        let base = self.vertices.positions.len() - n;
        if let Some(t) = a.texcoords {
            self.has[2] = true;
            self.texcoords.resize(base, Vec2::ZERO);
            self.texcoords.extend(t);
        }
        if let Some(c) = a.colors {
            self.has[3] = true;
            self.colors.resize(base, Vec4::ONE);
            self.colors.extend(c);
        }
        if weights.iter().any(|w| w.iter().any(|&x| x != 0.0)) {
            self.has[4] = true;
            self.joints.resize(base, [0; 4]);
            self.weights.resize(base, [0.0; 4]);
            self.joints.extend(joints);
            self.weights.extend(weights);
        }
        moved
    }

    /// Appends a primitive's triangles over its `n` vertices from `first_vertex`.
    #[allow(clippy::too_many_arguments)]
    fn add_triangles(
        &mut self,
        prim: &gltf::Primitive,
        buffers: &Buffers,
        first_vertex: u32,
        n: u32,
        placement: &Placement,
        label: &str,
        w: &mut Vec<Warning>,
    ) -> Result<(), LoadError> {
        let indices = match prim.indices() {
            Some(acc) => buffers.uints(&acc, "indices", 1)?,
            None => (0..n).collect(),
        };
        if let Some(bad) = indices.iter().find(|&&i| i >= n) {
            return Err(LoadError::whole(format!("{label}: index {bad} is past its {n} vertices")));
        }
        if indices.len() % 3 != 0 {
            warn(w, "gltf.primitive.indices", format!("{label}: {} indices, not a multiple of 3", indices.len()));
        }
        // A mirroring node transform turns the winding inside out; glTF says to flip it back.
        let flip = matches!(placement, Placement::Static { matrix, .. } if matrix.determinant() < 0.0);
        self.triangles.extend(indices.chunks_exact(3).map(|t| {
            let t = [t[0] + first_vertex, t[1] + first_vertex, t[2] + first_vertex];
            if flip { [t[0], t[2], t[1]] } else { t }
        }));
        Ok(())
    }

    /// The primitive's POSITION targets as vertex morphs of node `node`, one per target index, shared by the
    /// node's primitives.
    #[allow(clippy::too_many_arguments)]
    fn add_morphs(
        &mut self,
        prim: &gltf::Primitive,
        buffers: &Buffers,
        node: usize,
        mesh: &gltf::Mesh,
        names: &[String],
        first_vertex: u32,
        moved: &[Option<Mat4>],
        label: &str,
    ) -> Result<(), LoadError> {
        for (t, target) in prim.morph_targets().enumerate() {
            let morph = self.node_morph(node, mesh, names, t);
            let Some(acc) = target.positions() else { continue };
            let deltas = vec3s(&buffers.floats(&acc, &format!("{label} target {t} POSITION"), &[3])?.1);
            let MorphKind::Vertex(offsets) = &mut self.morphs[morph].kind else { continue };
            for (v, (d, m)) in deltas.iter().zip(moved).enumerate() {
                let delta = m.map_or(*d, |m| m.transform_vector3(*d));
                if delta != Vec3::ZERO {
                    offsets.push(VertexOffset { vertex: first_vertex + v as u32, delta });
                }
            }
        }
        Ok(())
    }

    /// The scene morph of node `node`'s target `t`, made on first use with a name no other node's morph has.
    fn node_morph(&mut self, node: usize, mesh: &gltf::Mesh, names: &[String], t: usize) -> usize {
        let list = self.node_morphs.entry(node).or_default();
        if let Some(&m) = list.get(t) {
            return m;
        }
        let mut made = Vec::new();
        for k in list.len()..=t {
            let own = names.get(k).filter(|n| !n.is_empty()).cloned().unwrap_or_else(|| format!("target {k}"));
            let taken = |name: &str| self.morphs.iter().any(|m| m.name == name);
            let mut name = own.clone();
            if taken(&name) {
                name =
                    format!("{}/{own}", mesh.name().map_or_else(|| format!("mesh {}", mesh.index()), str::to_string));
            }
            let mut suffix = 2;
            while taken(&name) {
                name = format!("{own} #{suffix}");
                suffix += 1;
            }
            self.morphs.push(Morph {
                name,
                name_en: String::new(),
                panel: MorphPanel::Other,
                kind: MorphKind::Vertex(Vec::new()),
            });
            made.push(self.morphs.len() - 1);
        }
        let list = self.node_morphs.entry(node).or_default();
        list.extend(made);
        list[t]
    }

    /// Pads the streams some primitives lacked and moves them into the scene's streams.
    fn finish(&mut self) {
        let n = self.vertices.positions.len();
        let v = &mut self.vertices;
        if self.has[0] {
            self.normals.resize(n, Vec3::Y);
            v.normals = Some(std::mem::take(&mut self.normals));
        }
        if self.has[1] {
            self.tangents.resize(n, Vec4::new(1.0, 0.0, 0.0, 1.0));
            v.tangents = Some(std::mem::take(&mut self.tangents));
        }
        if self.has[2] {
            self.texcoords.resize(n, Vec2::ZERO);
            v.texcoords = Some(std::mem::take(&mut self.texcoords));
        }
        if self.has[3] {
            self.colors.resize(n, Vec4::ONE);
            v.colors = Some(std::mem::take(&mut self.colors));
        }
        if self.has[4] {
            self.joints.resize(n, [0; 4]);
            self.weights.resize(n, [0.0; 4]);
            v.joints = Some(std::mem::take(&mut self.joints));
            v.weights = Some(std::mem::take(&mut self.weights));
        }
    }
}

//! Vertex streams, meshes and morph targets as glTF wants them.
//!
//! The scene's vertices are one set of streams that every mesh's triangles index. glTF meshes are grouped so
//! that a group owns a contiguous vertex range no other group touches: the Inter-Quake formats give each mesh
//! its own range, so each becomes a glTF mesh of its own (named as in the file, a Blender object each); MMD
//! models index one shared vertex list from every material, so they become one glTF mesh with a primitive per
//! material. A group's attribute accessors are windows on views that hold the whole streams once.

use glam::{Vec3, Vec4};
use gltf::json;
use json::buffer::Target;
use json::mesh::{Mode, MorphTarget, Primitive, Semantic};
use json::validation::Checked;
use json::{Accessor, Index};

use super::buffer::{Builder, bounds};
use crate::scene::{FrontFace, MorphKind, Scene};

/// One glTF mesh: the scene meshes it draws and the vertex range they index.
pub struct Group {
    pub meshes: Vec<usize>,
    pub first: u32,
    pub end: u32,
}

/// Scene meshes grouped by the vertex ranges their triangles use, overlapping ranges merged; meshes with no
/// triangles are left out.
pub fn groups(scene: &Scene) -> Vec<Group> {
    let mut ranges: Vec<(u32, u32, usize)> = Vec::new();
    for (i, m) in scene.meshes.iter().enumerate() {
        let start = m.first_triangle as usize;
        let tris = scene.triangles.get(start..start.saturating_add(m.num_triangles as usize)).unwrap_or(&[]);
        let lo = tris.iter().flatten().copied().min();
        let hi = tris.iter().flatten().copied().max();
        if let (Some(lo), Some(hi)) = (lo, hi) {
            ranges.push((lo, hi + 1, i));
        }
    }
    ranges.sort_by_key(|r| (r.0, r.2));
    let mut out: Vec<Group> = Vec::new();
    for (lo, hi, i) in ranges {
        match out.last_mut() {
            Some(g) if lo < g.end => {
                g.end = g.end.max(hi);
                g.meshes.push(i);
            }
            _ => out.push(Group { meshes: vec![i], first: lo, end: hi }),
        }
    }
    for g in &mut out {
        g.meshes.sort_unstable();
    }
    out
}

/// Views over the whole vertex streams, cleaned up for glTF's rules, and what had to be fixed.
pub struct Streams {
    positions: Index<json::buffer::View>,
    normals: Option<Index<json::buffer::View>>,
    tangents: Option<Index<json::buffer::View>>,
    texcoords: Option<Index<json::buffer::View>>,
    colors: Option<Index<json::buffer::View>>,
    /// Joint indices as bytes or shorts, and weights; present only when the model is skinned.
    joints: Option<(Index<json::buffer::View>, bool)>,
    weights: Option<Index<json::buffer::View>>,
    position_data: Vec<[f32; 3]>,
    /// Vertices bound to the extra unmoving joint (they had no usable weight): the skin then needs that joint.
    pub unweighted: usize,
    pub notes: Vec<String>,
}

/// A unit vector near `v`, or `fallback` where `v` has no direction.
fn unit_or(v: Vec3, fallback: Vec3) -> (Vec3, bool) {
    let n = v.normalize_or_zero();
    if n == Vec3::ZERO { (fallback, true) } else { (n, false) }
}

/// Writes the vertex streams once. `extra_joint` is the skin joint index of the extra root joint that vertices
/// without weights are bound to (they stay where they are, as rigscope draws them); [`Streams::unweighted`]
/// says whether any are.
pub fn streams(b: &mut Builder, scene: &Scene, joint_count: usize, extra_joint: u32) -> Streams {
    let v = &scene.vertices;
    let mut notes = Vec::new();
    let mut bad = 0usize;
    let position_data: Vec<[f32; 3]> = v
        .positions
        .iter()
        .map(|p| {
            if p.is_finite() {
                p.to_array()
            } else {
                bad += 1;
                [0.0; 3]
            }
        })
        .collect();
    if bad > 0 {
        notes.push(format!("{bad} vertex position(s) were not finite numbers: written as the origin"));
    }
    let positions = b.view(&position_data, Some(Target::ArrayBuffer));

    let mut fixed = 0usize;
    let normals = v.normals.as_ref().map(|ns| {
        let data: Vec<[f32; 3]> = ns
            .iter()
            .map(|n| {
                let (u, f) = unit_or(*n, Vec3::Y);
                fixed += usize::from(f);
                u.to_array()
            })
            .collect();
        b.view(&data, Some(Target::ArrayBuffer))
    });
    if fixed > 0 {
        notes.push(format!("{fixed} normal(s) had no direction: written as +Y (glTF needs unit normals)"));
    }
    let mut fixed = 0usize;
    let tangents = v.tangents.as_ref().filter(|_| v.normals.is_some()).map(|ts| {
        let normals = v.normals.as_deref().unwrap_or(&[]);
        let data: Vec<[f32; 4]> = ts
            .iter()
            .zip(normals)
            .map(|(t, n)| {
                let fallback = n.any_orthonormal_vector();
                let (u, f) = unit_or(t.truncate(), fallback);
                fixed += usize::from(f);
                [u.x, u.y, u.z, if t.w < 0.0 { -1.0 } else { 1.0 }]
            })
            .collect();
        b.view(&data, Some(Target::ArrayBuffer))
    });
    if fixed > 0 {
        notes.push(format!("{fixed} tangent(s) had no direction: written perpendicular to the normal"));
    }
    let texcoords = v.texcoords.as_ref().map(|uv| {
        let data: Vec<[f32; 2]> = uv.iter().map(|t| t.to_array()).collect();
        b.view(&data, Some(Target::ArrayBuffer))
    });
    let colors = v.colors.as_ref().map(|cs| {
        let data: Vec<[f32; 4]> = cs.iter().map(|c| c.clamp(Vec4::ZERO, Vec4::ONE).to_array()).collect();
        b.view(&data, Some(Target::ArrayBuffer))
    });
    let mut unweighted = 0;
    let (joints, weights) = if v.is_skinned() && joint_count > 0 {
        let (j, w, n) = influences(scene, joint_count, extra_joint);
        unweighted = n.unweighted;
        if n.unweighted > 0 {
            notes.push(format!(
                "{} vertex(es) have no joint weights: bound to an extra unmoving joint so they stay in place",
                n.unweighted
            ));
        }
        if n.renormalised > 0 {
            notes.push(format!(
                "{} vertex(es) had weights that don't sum to 1 (largest miss {:.4}): normalised, as glTF requires",
                n.renormalised, n.largest_miss
            ));
        }
        let small = extra_joint < 256;
        let joints = if small {
            let data: Vec<[u8; 4]> = j.iter().map(|j| j.map(|x| x as u8)).collect();
            b.view(&data, Some(Target::ArrayBuffer))
        } else {
            let data: Vec<[u16; 4]> = j.iter().map(|j| j.map(|x| x as u16)).collect();
            b.view(&data, Some(Target::ArrayBuffer))
        };
        (Some((joints, small)), Some(b.view(&w, Some(Target::ArrayBuffer))))
    } else {
        (None, None)
    };
    Streams { positions, normals, tangents, texcoords, colors, joints, weights, position_data, unweighted, notes }
}

#[derive(Default)]
struct InfluenceFixes {
    unweighted: usize,
    renormalised: usize,
    largest_miss: f32,
}

/// Each vertex's joints and weights as glTF requires them: a joint at most once, unused slots joint 0 with
/// weight 0, weights summing to 1; a vertex with no weight (or only joints the skeleton lacks) bound to
/// `extra_joint`.
fn influences(scene: &Scene, joint_count: usize, extra_joint: u32) -> (Vec<[u32; 4]>, Vec<[f32; 4]>, InfluenceFixes) {
    let v = &scene.vertices;
    let (js, ws) = (v.joints.as_deref().unwrap_or(&[]), v.weights.as_deref().unwrap_or(&[]));
    let mut fixes = InfluenceFixes::default();
    let mut out_j = Vec::with_capacity(js.len());
    let mut out_w = Vec::with_capacity(js.len());
    for (j, w) in js.iter().zip(ws) {
        let mut slots: Vec<(u32, f32)> = Vec::with_capacity(4);
        for (&joint, &weight) in j.iter().zip(w) {
            if !(weight.is_finite() && weight > 0.0) || joint as usize >= joint_count {
                continue;
            }
            match slots.iter_mut().find(|s| s.0 == joint) {
                Some(s) => s.1 += weight,
                None => slots.push((joint, weight)),
            }
        }
        let total: f32 = slots.iter().map(|s| s.1).sum();
        if slots.is_empty() || total <= 0.0 {
            fixes.unweighted += 1;
            slots = vec![(extra_joint, 1.0)];
        } else if (total - 1.0).abs() > 1e-6 {
            fixes.renormalised += usize::from((total - 1.0).abs() > 2e-3);
            fixes.largest_miss = fixes.largest_miss.max((total - 1.0).abs());
            slots.iter_mut().for_each(|s| s.1 /= total);
        }
        let (mut jj, mut ww) = ([0u32; 4], [0f32; 4]);
        for (k, (joint, weight)) in slots.into_iter().enumerate() {
            jj[k] = joint;
            ww[k] = weight;
        }
        out_j.push(jj);
        out_w.push(ww);
    }
    (out_j, out_w, fixes)
}

impl Streams {
    /// The attributes of a group: windows on the whole streams over its vertex range.
    fn attributes(&self, b: &mut Builder, g: &Group) -> std::collections::BTreeMap<Checked<Semantic>, Index<Accessor>> {
        let (first, count) = (g.first as usize, (g.end - g.first) as usize);
        let mut out = std::collections::BTreeMap::new();
        let range = &self.position_data[first..first + count];
        let pos = b.accessor::<[f32; 3]>(self.positions, first, count, bounds(range.iter().copied()));
        out.insert(Checked::Valid(Semantic::Positions), pos);
        if let Some(view) = self.normals {
            out.insert(Checked::Valid(Semantic::Normals), b.accessor::<[f32; 3]>(view, first, count, None));
        }
        if let Some(view) = self.tangents {
            out.insert(Checked::Valid(Semantic::Tangents), b.accessor::<[f32; 4]>(view, first, count, None));
        }
        if let Some(view) = self.texcoords {
            out.insert(Checked::Valid(Semantic::TexCoords(0)), b.accessor::<[f32; 2]>(view, first, count, None));
        }
        if let Some(view) = self.colors {
            out.insert(Checked::Valid(Semantic::Colors(0)), b.accessor::<[f32; 4]>(view, first, count, None));
        }
        if let (Some((view, small)), Some(weights)) = (self.joints, self.weights) {
            let joints = if small {
                b.accessor::<[u8; 4]>(view, first, count, None)
            } else {
                b.accessor::<[u16; 4]>(view, first, count, None)
            };
            out.insert(Checked::Valid(Semantic::Joints(0)), joints);
            out.insert(Checked::Valid(Semantic::Weights(0)), b.accessor::<[f32; 4]>(weights, first, count, None));
        }
        out
    }
}

/// The scene's vertex morphs, in order: these are the glTF morph targets, and their names.
pub fn vertex_morphs(scene: &Scene) -> Vec<usize> {
    scene.morphs.iter().enumerate().filter(|(_, m)| matches!(m.kind, MorphKind::Vertex(_))).map(|(i, _)| i).collect()
}

/// The morph targets of a group: one sparse POSITION accessor per vertex morph, holding the offsets that fall
/// in the group's range (summed where a morph lists a vertex twice).
fn targets(b: &mut Builder, scene: &Scene, morphs: &[usize], g: &Group) -> Vec<MorphTarget> {
    morphs
        .iter()
        .map(|&m| {
            let offsets = match &scene.morphs[m].kind {
                MorphKind::Vertex(offsets) => &offsets[..],
                _ => &[],
            };
            let mut deltas: std::collections::BTreeMap<u32, Vec3> = std::collections::BTreeMap::new();
            for o in offsets.iter().filter(|o| (g.first..g.end).contains(&o.vertex) && o.delta.is_finite()) {
                *deltas.entry(o.vertex - g.first).or_insert(Vec3::ZERO) += o.delta;
            }
            deltas.retain(|_, d| *d != Vec3::ZERO);
            let indices: Vec<u32> = deltas.keys().copied().collect();
            let values: Vec<[f32; 3]> = deltas.values().map(|d| d.to_array()).collect();
            let positions = b.sparse_vec3((g.end - g.first) as usize, &indices, &values);
            MorphTarget { positions: Some(positions), normals: None, tangents: None }
        })
        .collect()
}

/// The glTF mesh of group `g`: a primitive per scene mesh with its material (`material(mesh)`), triangles
/// rebased to the group's range and wound counter-clockwise.
pub fn mesh(
    b: &mut Builder,
    scene: &Scene,
    streams: &Streams,
    g: &Group,
    morphs: &[usize],
    material: &mut dyn FnMut(&mut Builder, usize) -> Index<json::Material>,
) -> json::Mesh {
    let attributes = streams.attributes(b, g);
    let targets = (!morphs.is_empty()).then(|| targets(b, scene, morphs, g));
    let reverse = scene.front_face == FrontFace::Cw;
    let count = g.end - g.first;
    let primitives = g
        .meshes
        .iter()
        .map(|&i| {
            let m = &scene.meshes[i];
            let start = m.first_triangle as usize;
            let tris = scene.triangles.get(start..start + m.num_triangles as usize).unwrap_or(&[]);
            let corners = tris.iter().flat_map(|t| {
                let t = if reverse { [t[0], t[2], t[1]] } else { *t };
                t.map(|v| v - g.first)
            });
            let indices = if count <= u32::from(u16::MAX) {
                b.array(&corners.map(|v| v as u16).collect::<Vec<_>>(), Some(Target::ElementArrayBuffer), None)
            } else {
                b.array(&corners.collect::<Vec<_>>(), Some(Target::ElementArrayBuffer), None)
            };
            // The scene mesh's own name, for a round trip (a glTF primitive has no name of its own).
            let extras = serde_json::json!({ "rigscope": { "mesh": m.name } });
            Primitive {
                attributes: attributes.clone(),
                extensions: None,
                extras: super::extras(&extras),
                indices: Some(indices),
                material: Some(material(b, i)),
                mode: Checked::Valid(Mode::Triangles),
                targets: targets.clone(),
            }
        })
        .collect();
    let name = match g.meshes[..] {
        [only] => scene.meshes[only].name.clone(),
        _ => "model".to_string(),
    };
    // targetNames is the common convention for morph target names (Blender, three.js read it); firstVertex
    // says which of the source's vertices the mesh's vertex 0 is, so a round trip can number them as the source.
    let mut extras = serde_json::json!({ "rigscope": { "firstVertex": g.first } });
    if !morphs.is_empty() {
        let names: Vec<&str> = morphs.iter().map(|&m| scene.morphs[m].name.as_str()).collect();
        extras["targetNames"] = serde_json::json!(names);
    }
    json::Mesh {
        extensions: None,
        extras: super::extras(&extras),
        name: Some(name),
        primitives,
        weights: (!morphs.is_empty()).then(|| vec![0.0; morphs.len()]),
    }
}

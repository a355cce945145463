//! Scene → IQM version 2, as a converter should write it.
//!
//! Per mesh: vertices are encoded in their output formats first and deduplicated on the encoded bytes (two
//! corners that would be written identically are one vertex), triangles that collapse are dropped, then
//! meshopt reorders triangles for the post-transform cache and numbers vertices by first use. Weights are
//! quantised to bytes summing to exactly 255, animation channels to ushort with per-channel offset, scale and
//! mask. Per-frame bounds and adjacency are computed last, from the file as written and read back, so they
//! describe exactly what a reader will see.

use std::hash::BuildHasher;

use hashbrown::hash_table::{Entry, HashTable};
use rayon::prelude::*;

use super::ConvertError;
use crate::anim::{BoundsSkinner, Pose, sample_clip};
use crate::formats::iqm::FORMAT_NAMES;
use crate::formats::iqm::write::{
    Anim, Bounds, IQM_BLENDINDEXES, IQM_BLENDWEIGHTS, IQM_COLOR, IQM_CUSTOM, IQM_FLOAT, IQM_HALF, IQM_LOOP, IQM_NORMAL,
    IQM_POSITION, IQM_TANGENT, IQM_TEXCOORD, IQM_UBYTE, IQM_USHORT, IqmDocument, Joint, Mesh, VertexArray,
    encode_components_into, format_size, quantize_channels, quantize_weights,
};
use crate::scene::{ClipData, DEFAULT_FPS, FrontFace, Scene, Transform, triangle_adjacency};

/// An encoded file and what the encoder did that a user should know.
#[derive(Debug, Clone)]
pub struct IqmFile {
    pub bytes: Vec<u8>,
    pub notes: Vec<String>,
}

/// One output vertex array.
#[derive(Debug, Clone)]
pub(super) struct ArraySpec {
    pub kind: u32,
    pub format: u32,
    pub size: u32,
    /// Index into the scene's custom streams, for custom arrays.
    pub custom: Option<usize>,
}

impl ArraySpec {
    fn bytes(&self) -> usize {
        format_size(self.format).unwrap_or(4) * self.size as usize
    }
}

/// The format and size the source file declared for an array, when it declared a usable one.
fn declared(scene: &Scene, names: &[&str]) -> Option<(u32, u32)> {
    let a =
        scene.meta.source_arrays.iter().find(|a| !a.ignored && names.iter().any(|n| a.kind.eq_ignore_ascii_case(n)))?;
    let format = FORMAT_NAMES.iter().position(|f| a.format.eq_ignore_ascii_case(f))? as u32;
    (1..=4).contains(&a.size).then_some((format, a.size))
}

/// The arrays to write, in type order: declared formats win, otherwise the converter's defaults.
pub(super) fn array_specs(scene: &Scene, notes: &mut Vec<String>) -> Vec<ArraySpec> {
    let v = &scene.vertices;
    let mut specs = Vec::new();
    let mut push = |kind: u32, name: &str, present: bool, default: (u32, u32)| {
        if present {
            let (format, size) = declared(scene, &[name]).unwrap_or(default);
            specs.push(ArraySpec { kind, format, size, custom: None });
        }
    };
    push(IQM_POSITION, "position", true, (IQM_FLOAT, 3));
    push(IQM_TEXCOORD, "texcoord", v.texcoords.is_some(), (IQM_FLOAT, 2));
    push(IQM_NORMAL, "normal", v.normals.is_some(), (IQM_FLOAT, 3));
    push(IQM_TANGENT, "tangent", v.tangents.is_some(), (IQM_FLOAT, 4));
    let skinned = v.is_skinned() && !scene.skeleton.is_empty();
    push(IQM_BLENDINDEXES, "blendindexes", skinned, (IQM_UBYTE, 4));
    push(IQM_BLENDWEIGHTS, "blendweights", skinned, (IQM_UBYTE, 4));
    push(IQM_COLOR, "color", v.colors.is_some(), (IQM_UBYTE, 4));
    for (i, c) in v.custom.iter().enumerate() {
        let names = [c.name.as_str(), &format!("custom{i}")];
        let (format, size) = declared(scene, &names).unwrap_or((IQM_FLOAT, c.components.clamp(1, 4)));
        specs.push(ArraySpec { kind: IQM_CUSTOM, format, size, custom: Some(i) });
    }
    // Indices must reach every joint: a byte holds 256.
    let joints = scene.skeleton.len();
    for s in specs.iter_mut().filter(|s| s.kind == IQM_BLENDINDEXES) {
        let max = match s.format {
            0 => 128,
            1 => 256,
            2 => 32768,
            3 => 65536,
            _ => usize::MAX,
        };
        if joints > max {
            notes.push(format!(
                "{joints} joints do not fit {} blend indexes: written as ushort",
                FORMAT_NAMES[s.format as usize]
            ));
            s.format = IQM_USHORT;
        }
    }
    specs
}

/// A vertex's influences, largest weight first; empty slots hold joint 0 and weight 0.
fn sorted_influences(joints: [u32; 4], weights: [f32; 4]) -> ([u32; 4], [f32; 4]) {
    let mut slots: [(u32, f32); 4] = std::array::from_fn(|i| {
        let w = weights[i];
        if w.is_finite() && w > 0.0 { (joints[i], w) } else { (0, 0.0) }
    });
    slots.sort_by(|a, b| b.1.total_cmp(&a.1));
    (slots.map(|s| s.0), slots.map(|s| s.1))
}

/// Encodes vertex `i` as the concatenation of every array's components. A value a `half` array can't hold is
/// an error: the reference converter writes it as infinity, which readers then refuse.
fn encode_vertex(scene: &Scene, specs: &[ArraySpec], i: usize, out: &mut Vec<u8>) -> Result<(), ConvertError> {
    let v = &scene.vertices;
    let influences = match (&v.joints, &v.weights) {
        (Some(j), Some(w)) => sorted_influences(j[i], w[i]),
        _ => ([0; 4], [0.0; 4]),
    };
    for s in specs {
        let n = s.size as usize;
        let mut values = [0.0f32; 4];
        let mut normalized = true;
        match s.kind {
            IQM_POSITION => values = v.positions[i].extend(1.0).to_array(),
            IQM_TEXCOORD => values[..2].copy_from_slice(&v.texcoords.as_ref().map_or([0.0; 2], |t| t[i].to_array())),
            IQM_NORMAL => values[..3].copy_from_slice(&v.normals.as_ref().map_or([0.0; 3], |t| t[i].to_array())),
            IQM_TANGENT => values = v.tangents.as_ref().map_or([0.0, 0.0, 0.0, 1.0], |t| t[i].to_array()),
            IQM_BLENDINDEXES => {
                values = influences.0.map(|j| j as f32);
                normalized = false;
            }
            IQM_BLENDWEIGHTS if s.format == IQM_UBYTE => {
                let bytes = quantize_weights(influences.1);
                out.extend_from_slice(&bytes[..n]);
                continue;
            }
            IQM_BLENDWEIGHTS => {
                let sum: f32 = influences.1.iter().sum();
                values = influences.1.map(|w| if sum > 0.0 { w / sum } else { 0.0 });
            }
            IQM_COLOR => values = v.colors.as_ref().map_or([1.0; 4], |c| c[i].to_array()),
            _ => {
                if let Some(c) = s.custom.and_then(|c| v.custom.get(c)) {
                    let k = c.components as usize;
                    let src = c.data.get(i * k..(i + 1) * k).unwrap_or(&[]);
                    values[..src.len().min(4)].copy_from_slice(&src[..src.len().min(4)]);
                }
                normalized = true;
            }
        }
        if s.format == IQM_HALF
            && let Some(bad) = values[..n].iter().find(|v| v.is_nan() || v.abs() > f32::from(half::f16::MAX))
        {
            return Err(ConvertError(format!(
                "vertex {i}: {bad} does not fit the half-precision {} array (largest 65504); declare it float",
                super::iqe_out::array_type_name(s, 0)
            )));
        }
        encode_components_into(s.format, &values[..n], normalized, out);
    }
    Ok(())
}

/// Models with fewer vertices encode on one thread: starting the pool costs more than it saves.
const PARALLEL_VERTICES: usize = 50_000;
/// Vertices per block of parallel encoding.
const BLOCK_VERTICES: usize = 8192;

/// One output mesh: its scene vertices in output order and its triangles in output numbering.
struct MeshOut {
    name: String,
    material: String,
    vertices: Vec<u32>,
    triangles: Vec<[u32; 3]>,
}

/// Every vertex encoded as it will be written (all arrays concatenated, `stride` bytes each), with a hash of
/// each record so that deduplication hashes a vertex once rather than at every corner.
struct Records {
    bytes: Vec<u8>,
    stride: usize,
    hashes: Vec<u64>,
}

impl Records {
    fn get(&self, v: u32) -> &[u8] {
        &self.bytes[v as usize * self.stride..(v as usize + 1) * self.stride]
    }

    /// Whether two vertices would be written identically.
    fn same(&self, a: u32, b: u32) -> bool {
        a == b || (self.hashes[a as usize] == self.hashes[b as usize] && self.get(a) == self.get(b))
    }
}

/// Deduplicates, drops collapsed triangles, and orders one mesh for the vertex cache. Returns the mesh's
/// vertices, its triangles and how many triangles collapsed.
fn build_mesh(records: &Records, triangles: &[[u32; 3]], flip: bool) -> (Vec<u32>, Vec<[u32; 3]>, usize) {
    let mut dropped = 0;
    // (scene vertex, local id) of each distinct record; the table compares through the records.
    let mut local: HashTable<(u32, u32)> = HashTable::new();
    let mut sources: Vec<u32> = Vec::new();
    let mut indices: Vec<u32> = Vec::with_capacity(triangles.len() * 3);
    for tri in triangles {
        let tri = if flip { [tri[0], tri[2], tri[1]] } else { *tri };
        if records.same(tri[0], tri[1]) || records.same(tri[1], tri[2]) || records.same(tri[0], tri[2]) {
            dropped += 1;
            continue;
        }
        for v in tri {
            let hash = records.hashes[v as usize];
            let entry = local.entry(hash, |&(s, _)| records.same(s, v), |&(s, _)| records.hashes[s as usize]);
            let id = match entry {
                Entry::Occupied(e) => e.get().1,
                Entry::Vacant(e) => {
                    let id = sources.len() as u32;
                    e.insert((v, id));
                    sources.push(v);
                    id
                }
            };
            indices.push(id);
        }
    }
    let count = sources.len();
    let (indices, remap) = cache_order(indices, count);
    let mut ordered = vec![0u32; count];
    for (old, &new) in remap.iter().enumerate() {
        if let Some(slot) = ordered.get_mut(new as usize) {
            *slot = sources[old];
        }
    }
    let tris =
        indices.chunks_exact(3).map(|t| [remap[t[0] as usize], remap[t[1] as usize], remap[t[2] as usize]]).collect();
    (ordered, tris, dropped)
}

/// Stored quaternion convention: normalised, `w ≤ 0`.
fn stored_quat(q: glam::Quat) -> [f32; 4] {
    super::stored_rotation(q).to_array()
}

fn channels(t: &Transform) -> [f32; 10] {
    let q = stored_quat(t.rotation);
    let (tr, s) = (t.translation, t.scale);
    [tr.x, tr.y, tr.z, q[0], q[1], q[2], q[3], s.x, s.y, s.z]
}

/// Number of frames a clip is written with: its own for sampled clips, its frame length for keyed ones.
pub(super) fn written_frames(clip: &crate::scene::Clip) -> usize {
    match &clip.data {
        ClipData::Sampled { .. } => clip.frame_count as usize,
        ClipData::Keyed { .. } => clip.frame_count.max(1) as usize,
    }
}

/// Encodes a scene as IQM version 2.
pub fn to_iqm(scene: &Scene) -> Result<IqmFile, ConvertError> {
    let mut notes = Vec::new();
    let v = &scene.vertices;
    if let Some(i) = v.positions.iter().position(|p| !p.is_finite()) {
        return Err(ConvertError(format!("vertex {i} position is not finite; IQM readers reject it")));
    }
    let specs = array_specs(scene, &mut notes);
    let parallel = v.len() >= PARALLEL_VERTICES;
    let records = encode_records(scene, &specs, parallel)?;
    let meshes = build_meshes(scene, &records, parallel, &mut notes);
    let mut doc = IqmDocument { comment: scene.meta.comment.clone(), ..Default::default() };
    write_geometry(&mut doc, scene, &meshes, &records, &specs, &mut notes);
    write_skeleton(&mut doc, scene);
    read_back(&mut doc)?;
    Ok(IqmFile { bytes: doc.to_bytes(), notes })
}

/// Every vertex encoded to its output bytes once (blocks of vertices on every core for a large model), with a
/// hash per record for deduplication.
fn encode_records(scene: &Scene, specs: &[ArraySpec], parallel: bool) -> Result<Records, ConvertError> {
    let v = &scene.vertices;
    let stride: usize = specs.iter().map(ArraySpec::bytes).sum();
    let mut records = vec![0u8; v.len() * stride];
    // Each block of vertices encodes on its own; small models stay on this thread (no pool to start).
    let encode_block = |(b, block): (usize, &mut [u8])| -> Result<(), ConvertError> {
        let mut buf = Vec::with_capacity(block.len());
        let first = b * BLOCK_VERTICES;
        for i in first..first + block.len() / stride.max(1) {
            encode_vertex(scene, specs, i, &mut buf)?;
        }
        block.copy_from_slice(&buf);
        Ok(())
    };
    if stride > 0 {
        let size = BLOCK_VERTICES * stride;
        if parallel {
            // Every block runs; the first failure in vertex order is the one reported, run after run.
            let results: Vec<_> = records.par_chunks_mut(size).enumerate().map(encode_block).collect();
            results.into_iter().collect::<Result<(), _>>()?;
        } else {
            records.chunks_mut(size).enumerate().try_for_each(encode_block)?;
        }
    }
    let state = foldhash::fast::FixedState::default();
    let hash = |r: &[u8]| state.hash_one(r);
    let hashes = match stride {
        0 => vec![0; v.len()],
        _ if parallel => records.par_chunks(stride).map(hash).collect(),
        _ => records.chunks(stride).map(hash).collect(),
    };
    Ok(Records { bytes: records, stride, hashes })
}

/// The scene's meshes (or one for all triangles when it has none), each deduplicated and ordered, side by side
/// on the cores for a large model.
fn build_meshes(scene: &Scene, records: &Records, parallel: bool, notes: &mut Vec<String>) -> Vec<MeshOut> {
    let v = &scene.vertices;
    let flip = scene.front_face == FrontFace::Ccw;
    let mut dropped = 0;
    let mut meshes = Vec::new();
    let all = [crate::scene::Mesh {
        name: String::new(),
        material: usize::MAX,
        first_triangle: 0,
        num_triangles: scene.triangles.len() as u32,
        first_vertex: 0,
        num_vertices: v.len() as u32,
        two_sided: false,
        uv_animation: None,
    }];
    let scene_meshes =
        if scene.meshes.is_empty() && !scene.triangles.is_empty() { &all[..] } else { &scene.meshes[..] };
    let build = |m: &crate::scene::Mesh| {
        let start = m.first_triangle as usize;
        let tris = scene.triangles.get(start..start.saturating_add(m.num_triangles as usize)).unwrap_or(&[]);
        build_mesh(records, tris, flip)
    };
    // Meshes are independent: many of them share the cores (one big mesh is one task either way).
    let built: Vec<_> = if parallel && scene_meshes.len() > 1 {
        scene_meshes.par_iter().map(build).collect()
    } else {
        scene_meshes.iter().map(build).collect()
    };
    for (m, (vertices, triangles, collapsed)) in scene_meshes.iter().zip(built) {
        dropped += collapsed;
        let material = scene.materials.get(m.material).map(|m| m.name.clone()).unwrap_or_default();
        meshes.push(MeshOut { name: m.name.clone(), material, vertices, triangles });
    }
    if dropped > 0 {
        notes.push(format!("dropped {dropped} triangles whose corners are the same vertex"));
    }
    meshes
}

/// The mesh table, the triangles and the vertex arrays of the vertices the meshes kept.
fn write_geometry(
    doc: &mut IqmDocument,
    scene: &Scene,
    meshes: &[MeshOut],
    records: &Records,
    specs: &[ArraySpec],
    notes: &mut Vec<String>,
) {
    let v = &scene.vertices;
    let stride = records.stride;
    let mut out_vertices: Vec<u32> = Vec::new();
    for m in meshes {
        let first_vertex = out_vertices.len() as u32;
        doc.meshes.push(Mesh {
            name: m.name.clone(),
            material: m.material.clone(),
            first_vertex,
            num_vertexes: m.vertices.len() as u32,
            first_triangle: doc.triangles.len() as u32,
            num_triangles: m.triangles.len() as u32,
        });
        doc.triangles.extend(m.triangles.iter().map(|t| t.map(|i| i + first_vertex)));
        out_vertices.extend_from_slice(&m.vertices);
    }
    let merged = v.len().saturating_sub(out_vertices.len());
    if merged > 0 && !out_vertices.is_empty() {
        notes.push(format!(
            "{} vertices written for {} in the input (duplicates merged, unused dropped)",
            out_vertices.len(),
            v.len()
        ));
    }
    doc.num_vertexes = out_vertices.len() as u32;
    if !out_vertices.is_empty() {
        let mut offset = 0;
        for s in specs {
            let n = s.bytes();
            let mut data = Vec::with_capacity(out_vertices.len() * n);
            for &src in &out_vertices {
                let at = src as usize * stride + offset;
                data.extend_from_slice(&records.bytes[at..at + n]);
            }
            offset += n;
            doc.vertex_arrays.push(match s.custom {
                Some(c) => VertexArray::custom(v.custom[c].name.clone(), s.format, s.size, data),
                None => VertexArray::new(s.kind, s.format, s.size, data),
            });
        }
    }
}

/// Joints when there is a bind pose (or names) to write; anims and quantised poses whenever there are frames.
fn write_skeleton(doc: &mut IqmDocument, scene: &Scene) {
    let skel = &scene.skeleton;
    let parent = |i: usize| skel.joints[i].parent.map_or(-1, |p| p as i32);
    // Names are worth keeping even without a bind pose: animation files attach by name (the reference
    // converter drops them, lsalzman/iqm#63); the bind pose is then the first frame, as readers assume.
    if skel.has_bind_pose || skel.is_named() {
        doc.joints = skel
            .joints
            .iter()
            .enumerate()
            .map(|(i, j)| Joint {
                name: j.name.clone(),
                parent: parent(i),
                translate: j.bind.translation.to_array(),
                rotate: stored_quat(j.bind.rotation),
                scale: j.bind.scale.to_array(),
            })
            .collect();
    }
    let clips: Vec<_> = scene.clips.iter().filter(|c| written_frames(c) > 0).collect();
    if skel.is_empty() || clips.is_empty() {
        return;
    }
    let mut samples = Vec::new();
    let mut locals = vec![Transform::IDENTITY; skel.len()];
    for clip in &clips {
        let frames = written_frames(clip);
        doc.anims.push(Anim {
            name: clip.name.clone(),
            first_frame: doc.num_frames,
            num_frames: frames as u32,
            framerate: if clip.frame_rate.is_finite() && clip.frame_rate > 0.0 { clip.frame_rate } else { 0.0 },
            flags: if clip.looping { IQM_LOOP } else { 0 },
        });
        for f in 0..frames {
            sample_clip(skel, clip, f as f32, DEFAULT_FPS, &mut locals);
            samples.extend(locals.iter().map(channels));
        }
        doc.num_frames += frames as u32;
    }
    let (channels, num_channels, data) = quantize_channels(&samples, skel.len());
    doc.poses = channels.iter().enumerate().map(|(i, c)| c.to_pose(parent(i))).collect();
    doc.num_framechannels = num_channels;
    doc.frames = data;
}

/// Adjacency and per-frame bounds, computed on the file read back, so they describe what a reader decodes.
fn read_back(doc: &mut IqmDocument) -> Result<(), ConvertError> {
    let first = doc.to_bytes();
    let written = crate::formats::iqm::read("converted.iqm", &first)
        .map_err(|e| ConvertError(format!("internal error: the converted file does not read back: {e}")))?;
    let wv = &written.vertices;
    let wants_bounds = wv.is_skinned() && !doc.joints.is_empty() && doc.num_frames > 0;
    // Adjacency and the per-frame bounds are independent: compute them side by side (the bounds themselves
    // split over the frames), since skinning every frame dominates a large conversion.
    // (rayon's join: on the desktop two cores, in the browser one after the other.)
    let (adjacency, bounds) = rayon::join(
        || {
            (!written.triangles.is_empty()).then(|| {
                triangle_adjacency(&wv.positions, wv.joints.as_deref(), wv.weights.as_deref(), &written.triangles)
            })
        },
        || wants_bounds.then(|| frame_bounds(&written)),
    );
    doc.adjacency = adjacency;
    doc.bounds = bounds;
    Ok(())
}

/// Frames whose palettes are skinned over the vertices in one pass ([`BoundsSkinner::bounds`]).
const FRAMES_PER_PASS: usize = 64;

/// The skinned bounds of every frame of every clip, in file frame order, split over the available cores.
fn frame_bounds(scene: &Scene) -> Vec<Bounds> {
    let frames: Vec<(usize, u32)> =
        scene.clips.iter().enumerate().flat_map(|(c, clip)| (0..clip.frame_count).map(move |f| (c, f))).collect();
    let threads = rayon::current_num_threads().clamp(1, 8);
    let chunk = frames.len().div_ceil(threads).max(1);
    // The vertices' influences are sorted out once for every frame and core.
    let skinner = BoundsSkinner::new(&scene.vertices, scene.skeleton.len());
    let bounds_of = |part: &[(usize, u32)]| -> Vec<Bounds> {
        let mut pose = Pose::default();
        let mut out = Vec::with_capacity(part.len());
        // Frames go over the vertices together, a group at a time (their palettes kept meanwhile).
        for group in part.chunks(FRAMES_PER_PASS) {
            let palettes: Vec<Vec<glam::Mat4>> = group
                .iter()
                .map(|&(c, f)| {
                    pose.update(&scene.skeleton, &scene.clips[c], f as f32, DEFAULT_FPS);
                    pose.palette.clone()
                })
                .collect();
            let palettes: Vec<&[glam::Mat4]> = palettes.iter().map(Vec::as_slice).collect();
            out.extend(skinner.bounds(&palettes).into_iter().map(|b| {
                b.map_or_else(Bounds::default, |b| Bounds {
                    min: b.min.to_array(),
                    max: b.max.to_array(),
                    xy_radius: b.xy_radius,
                    radius: b.radius,
                })
            }));
        }
        out
    };
    // One pose per chunk, reused over its frames; the chunks' bounds come back in frame order.
    frames.par_chunks(chunk).map(bounds_of).collect::<Vec<_>>().concat()
}

/// Triangles reordered for the post-transform vertex cache, and each local vertex's new number (by first use).
/// Every local vertex is used by a kept triangle, so the fetch remap covers them all.
#[cfg(not(target_arch = "wasm32"))]
fn cache_order(indices: Vec<u32>, count: usize) -> (Vec<u32>, Vec<u32>) {
    let indices = meshopt::optimize_vertex_cache(&indices, count);
    let remap = meshopt::optimize_vertex_fetch_remap(&indices, count);
    (indices, remap)
}

/// The web page has no C++ toolchain behind meshopt: triangles keep their order, and the local vertices are
/// already numbered by first use.
#[cfg(target_arch = "wasm32")]
fn cache_order(indices: Vec<u32>, count: usize) -> (Vec<u32>, Vec<u32>) {
    (indices, (0..count as u32).collect())
}

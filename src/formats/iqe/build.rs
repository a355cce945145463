//! From what the lines said to a [`Scene`]: end-of-file checks, mesh grouping, generated normals and
//! tangents, skeleton and clips.

use std::collections::{HashMap, HashSet};

use glam::{Vec3, Vec4};

use super::smooth::{self, SmoothState};
use super::{Attr, Parser, err};
use crate::error::{LoadError, Location};
use crate::scene::{
    Clip, ClipData, CustomStream, Format, FrontFace, Joint, Material, Mesh, Metadata, Scene, Skeleton, Transform,
    UpAxis, VertexStreams,
};

/// Decoded animation frames may outgrow the text (a short frame is filled up to the joint count); past this
/// multiple of the file size plus a megabyte, the file is refused rather than allocating without bound.
const MAX_DECODE_RATIO: u64 = 32;

/// `values` reordered by `source`, or as they are when vertices weren't split.
fn remap<T: Copy>(values: Vec<T>, source: Option<&[u32]>) -> Vec<T> {
    match source {
        None => values,
        Some(src) => src.iter().map(|&s| values[s as usize]).collect(),
    }
}

pub fn build(mut p: Parser, file_len: usize) -> Result<Scene, LoadError> {
    let n = p.positions.len();
    check_lengths(&p, n)?;
    if !p.any_faces {
        faceless_triangles(&mut p, n);
    }
    let Grouped { mut triangles, mut meshes, materials, tri_state, edge_flags } = group_meshes(&mut p);
    let (normals, source) = normals(&mut p, n, &mut triangles, &tri_state, &edge_flags);
    drop(tri_state);
    drop(edge_flags);
    let src = source.as_deref();
    vertex_ranges(&mut meshes, &triangles);
    let positions = remap(std::mem::take(&mut p.positions), src);
    let texcoords = (!p.texcoords.is_empty()).then(|| remap(std::mem::take(&mut p.texcoords), src));
    let tangents = tangents(&mut p, n, src, &positions, normals.as_deref(), texcoords.as_deref(), &triangles);
    let (skeleton, clips) = animation(&mut p, file_len)?;
    let (joints, weights) = influences(&mut p, &skeleton, src)?;
    let colors = (!p.colors.is_empty()).then(|| remap(std::mem::take(&mut p.colors), src));
    let custom = custom_streams(&mut p, src);
    let vertices = VertexStreams {
        positions,
        normals,
        tangents,
        texcoords,
        colors,
        joints,
        weights,
        custom,
        outline: None,
        source,
        blend: None,
    };

    let mut meta = Metadata::new(Format::Iqe, "");
    meta.comment = p.comment.take();
    meta.source_arrays = std::mem::take(&mut p.source_arrays);
    meta.warnings = std::mem::take(&mut p.w).finish();
    // Every field this format sets; the rest (cameras, format facts of other formats) stay empty.
    Ok(Scene {
        vertices,
        triangles,
        meshes,
        materials,
        skeleton,
        clips,
        up: UpAxis::Z,
        front_face: FrontFace::Cw,
        ..Scene::empty(meta)
    })
}

/// Every present array has one entry per vp, and face indices that pointed past the vertices read so far
/// exist by the end.
fn check_lengths(p: &Parser, n: usize) -> Result<(), LoadError> {
    let lens: Vec<(Attr, usize)> = p
        .attr_lines
        .iter()
        .map(|&(a, _)| {
            let len = match a {
                Attr::Vt => p.texcoords.len(),
                Attr::Vn => p.normals.len(),
                Attr::Vx => p.tangents.len(),
                Attr::Vb => p.blend_joints.len(),
                Attr::Vc => p.colors.len(),
                Attr::Vs => p.smooth_index.len(),
                Attr::Custom(k) => p.custom[k as usize].len(),
            };
            (a, len)
        })
        .collect();
    for (&(attr, len), &(_, last_line)) in lens.iter().zip(&p.attr_lines) {
        if len != n {
            let label = attr.label();
            return Err(match p.vp_lines.get(len) {
                Some(&line) if len < n => {
                    err(line, format!("{len} {label} for {n} vp: this vp (vertex {len}) has no {label}"))
                }
                _ => err(last_line, format!("{len} {label} for {n} vp: this {label} has no vp")),
            });
        }
    }

    // Face indices that pointed past the vertices read so far must exist by the end.
    if let Some(&(line, index)) = p.forward.iter().find(|&&(_, i)| i >= n as u64) {
        return Err(err(line, format!("face index {index}, only {n} vertices")));
    }

    Ok(())
}

/// Files without faces: each mesh's vertices, three at a time.
fn faceless_triangles(p: &mut Parser, n: usize) {
    let segments = std::mem::take(&mut p.segments);
    for (i, seg) in segments.iter().enumerate() {
        let end = segments.get(i + 1).map_or(n as u32, |s| s.first_vp);
        p.mesh_name.clone_from(&seg.mesh);
        p.material_name.clone_from(&seg.material);
        p.key_dirty = true;
        p.state = seg.state;
        let count = end.saturating_sub(seg.first_vp);
        for k in 0..count / 3 {
            let a = seg.first_vp + 3 * k;
            p.push_triangle([a, a + 1, a + 2]);
        }
        if count % 3 != 0 {
            let line = p.vp_lines.get(seg.first_vp as usize).copied().unwrap_or(1);
            p.w.line("iqe.mesh.leftover", line, || {
                format!(
                    "mesh \"{}\" has {count} vertices and no faces: the last {} make no triangle",
                    seg.mesh,
                    count % 3
                )
            });
        }
    }
}

/// The triangles regrouped into meshes, with each triangle's smoothing state and `fs` edge flags in the same
/// order, and the materials the meshes name.
struct Grouped {
    triangles: Vec<[u32; 3]>,
    meshes: Vec<Mesh>,
    materials: Vec<Material>,
    tri_state: Vec<u32>,
    edge_flags: Vec<u8>,
}

/// Meshes: one per (name, material) pair in first-appearance order, triangles contiguous. A pair that comes back
/// later keeps all its triangles (the converter drops them).
fn group_meshes(p: &mut Parser) -> Grouped {
    let num_groups = p.groups.len();
    let mut group_counts = vec![0u32; num_groups];
    for &g in &p.tri_group {
        group_counts[g as usize] += 1;
    }
    let mut group_start = vec![0u32; num_groups];
    let mut acc = 0u32;
    for (s, c) in group_start.iter_mut().zip(&group_counts) {
        *s = acc;
        acc += c;
    }
    let total = p.tris.len();
    let mut triangles = vec![[0u32; 3]; total];
    let mut tri_state = vec![0u32; total];
    let mut edge_flags = if p.fs_used { vec![7u8; total] } else { Vec::new() };
    let mut fill = group_start.clone();
    for i in 0..total {
        let g = p.tri_group[i] as usize;
        let at = fill[g] as usize;
        fill[g] += 1;
        triangles[at] = p.tris[i];
        tri_state[at] = p.tri_state[i];
        if p.fs_used {
            edge_flags[at] = p.fs_flags.get(i).copied().unwrap_or(7);
        }
    }
    drop(std::mem::take(&mut p.tris));

    let mut materials: Vec<Material> = Vec::new();
    let mut material_index: HashMap<&str, usize> = HashMap::new();
    let mut meshes = Vec::with_capacity(num_groups);
    for (g, (name, material)) in p.groups.iter().enumerate() {
        // Hashed: a file may have as many mesh groups as lines.
        let next = materials.len();
        let mat = *material_index.entry(material.as_str()).or_insert(next);
        if mat == next {
            // IQM convention: the material name is the texture name.
            let texture = (!material.is_empty()).then(|| material.clone());
            materials.push(Material::new(material.clone(), texture));
        }
        meshes.push(Mesh {
            name: name.clone(),
            material: mat,
            first_triangle: group_start[g],
            num_triangles: group_counts[g],
            first_vertex: 0,
            num_vertices: 0,
            two_sided: false,
            uv_animation: None,
        });
    }
    Grouped { triangles, meshes, materials, tri_state, edge_flags }
}

/// Normals: as given, or generated (which may split vertices: then the second value maps each vertex to its
/// `vp`).
fn normals(
    p: &mut Parser,
    n: usize,
    triangles: &mut Vec<[u32; 3]>,
    tri_state: &[u32],
    edge_flags: &[u8],
) -> (Option<Vec<Vec3>>, Option<Vec<u32>>) {
    let mut source: Option<Vec<u32>> = None;
    let normals = if !p.normals.is_empty() {
        Some(std::mem::take(&mut p.normals))
    } else if !triangles.is_empty() {
        let states = if p.states.is_empty() { vec![SmoothState::DEFAULT] } else { p.states.clone() };
        let out = smooth::generate_normals(&smooth::Input {
            positions: &p.positions,
            texcoords: (!p.texcoords.is_empty()).then_some(&p.texcoords[..]),
            smooth_index: (!p.smooth_index.is_empty()).then_some(&p.smooth_index[..]),
            triangles,
            states: &states,
            tri_state,
            edge_flags: p.fs_used.then_some(edge_flags),
        });
        if out.zero_normals > 0 {
            p.w.push("iqe.normal.zero", Location::File, || {
                format!("{} generated normals summed to zero (degenerate faces); +Z used", out.zero_normals)
            });
        }
        if out.crowded > 0 {
            p.w.push("iqe.smooth.crowded", Location::File, || {
                format!(
                    "{} triangle corners share crowded positions; smoothing compared them with cluster representatives only",
                    out.crowded
                )
            });
        }
        *triangles = out.triangles;
        if out.source.len() != n {
            source = Some(out.source);
        }
        Some(out.normals)
    } else {
        None
    };
    (normals, source)
}

/// Each mesh's vertex range, from the triangles it uses.
fn vertex_ranges(meshes: &mut [Mesh], triangles: &[[u32; 3]]) {
    for m in meshes.iter_mut() {
        let range = m.first_triangle as usize..(m.first_triangle + m.num_triangles) as usize;
        let used = triangles.get(range).unwrap_or(&[]).iter().flatten();
        let (lo, hi) = used.fold((u32::MAX, 0u32), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        if lo <= hi {
            m.first_vertex = lo;
            m.num_vertices = hi - lo + 1;
        }
    }
}

/// Tangents: from vx (sign worked out now for the bitangent form), or generated from UVs.
fn tangents(
    p: &mut Parser,
    n: usize,
    src: Option<&[u32]>,
    positions: &[Vec3],
    normals: Option<&[Vec3]>,
    texcoords: Option<&[glam::Vec2]>,
    triangles: &[[u32; 3]],
) -> Option<Vec<Vec4>> {
    if !p.tangents.is_empty() {
        let mut bit: Vec<Option<Vec3>> = Vec::new();
        if !p.bitangents.is_empty() {
            bit = vec![None; n];
            for &(i, b) in &p.bitangents {
                bit[i as usize] = Some(b);
            }
        }
        let vx = std::mem::take(&mut p.tangents);
        let out: Vec<Vec4> = (0..positions.len())
            .map(|i| {
                let s = src.map_or(i, |s| s[i] as usize);
                let t = vx[s];
                match bit.get(s).copied().flatten() {
                    Some(b) => {
                        let nrm = normals.as_ref().map_or(Vec3::ZERO, |ns| ns[i]);
                        t.truncate().extend(smooth::handedness(nrm, t.truncate(), b))
                    }
                    None => t,
                }
            })
            .collect();
        Some(out)
    } else if let (Some(ns), Some(uv)) = (&normals, &texcoords)
        && !triangles.is_empty()
    {
        Some(smooth::generate_tangents(positions, ns, uv, triangles))
    } else {
        None
    }
}

/// Influences (`vb`), remapped to split vertices; checked against the skeleton.
type Influences = (Option<Vec<[u32; 4]>>, Option<Vec<[f32; 4]>>);

fn influences(p: &mut Parser, skeleton: &Skeleton, src: Option<&[u32]>) -> Result<Influences, LoadError> {
    // Influences.
    let (mut joints, mut weights) = (None, None);
    if !p.blend_joints.is_empty() {
        if skeleton.is_empty() {
            p.w.push("iqe.vb.no_joints", Location::File, || {
                "vb influences but no joints or poses; the mesh is drawn unskinned".into()
            });
        } else {
            if let Some((j, line)) = p.max_blend_joint
                && j as usize >= skeleton.len()
            {
                return Err(err(line, format!("vb: joint {j}, only {} joints", skeleton.len())));
            }
            joints = Some(remap(std::mem::take(&mut p.blend_joints), src));
            weights = Some(remap(std::mem::take(&mut p.blend_weights), src));
        }
        if p.empty_blends.0 > 0 {
            let (count, line) = p.empty_blends;
            p.w.line("iqe.vb.empty", line, || {
                format!("{count} vb lines have no positive weight (first here); those vertices stay in the bind pose")
            });
        }
    }
    Ok((joints, weights))
}

/// `v0`..`v9` custom streams with their names and sizes.
fn custom_streams(p: &mut Parser, src: Option<&[u32]>) -> Vec<CustomStream> {
    let mut custom = Vec::new();
    for k in 0..10 {
        if p.custom[k].is_empty() {
            continue;
        }
        let components = p.custom_sizes[k].unwrap_or(4);
        let name = p.custom_names[k].clone().unwrap_or_else(|| format!("custom{k}"));
        let values = remap(std::mem::take(&mut p.custom[k]), src);
        let data = values.iter().flat_map(|v| v[..components as usize].iter().copied()).collect();
        custom.push(CustomStream { name, components, data });
    }
    custom
}

/// Joints with their base poses, and one sampled clip per animation with frames.
fn animation(p: &mut Parser, file_len: usize) -> Result<(Skeleton, Vec<Clip>), LoadError> {
    // Frame ranges in `anim_poses`; empty frames are dropped.
    let mut frame_ranges: Vec<FrameRange> = Vec::new();
    for (i, f) in p.frames.iter().enumerate() {
        let end = p.frames.get(i + 1).map_or(p.anim_poses.len(), |g| g.start);
        if end > f.start {
            frame_ranges.push((f.anim, f.start, end, f.line));
        }
    }

    let (skeleton, joint_count) = skeleton(p, &frame_ranges)?;
    // Bound the decoded size before allocating it.
    let decoded = (frame_ranges.len() as u64)
        .saturating_mul(joint_count as u64)
        .saturating_mul(std::mem::size_of::<Transform>() as u64);
    if decoded > MAX_DECODE_RATIO.saturating_mul(file_len as u64).saturating_add(1 << 20) {
        let line = p.anims.first().map_or(1, |a| a.line);
        return Err(err(
            line,
            format!(
                "{} frames × {joint_count} joints would decode to {decoded} bytes from a {file_len}-byte file; refusing",
                frame_ranges.len()
            ),
        ));
    }

    let clips = clips(p, &frame_ranges, joint_count, &skeleton.bind_locals());
    Ok((skeleton, clips))
}

/// A frame's poses in `anim_poses`: (animation, start, end, line).
type FrameRange = (usize, usize, usize, u64);

/// The skeleton: named joints with their base poses (or the first frame standing in), or unnamed root joints
/// for files with poses but no joint commands; and how many joints a frame has.
fn skeleton(p: &mut Parser, frame_ranges: &[FrameRange]) -> Result<(Skeleton, usize), LoadError> {
    let named = !p.joints.is_empty();
    let joint_count = if named {
        p.joints.len()
    } else if !p.base_poses.is_empty() {
        p.base_poses.len()
    } else {
        frame_ranges.first().map_or(0, |&(_, s, e, _)| e - s)
    };

    let mut joints: Vec<Joint> = Vec::with_capacity(joint_count);
    let mut has_bind_pose = true;
    if named {
        // An animation file names its joints but may have no base pose at all: its first frame stands in, as
        // for IQM animation-only files, and the skeleton says it has no bind pose.
        let from_frames = p.base_poses.is_empty() && !frame_ranges.is_empty();
        has_bind_pose = !from_frames;
        let missing = p.joints.len().saturating_sub(p.base_poses.len());
        for (i, (name, parent, _)) in p.joints.iter().enumerate() {
            let bind = if from_frames {
                frame_ranges.first().and_then(|&(_, s, _, _)| p.anim_poses.get(s + i)).copied()
            } else {
                p.base_poses.get(i).map(|b| b.0)
            };
            joints.push(Joint { name: name.clone(), parent: *parent, bind: bind.unwrap_or(Transform::IDENTITY) });
        }
        if from_frames && !p.positions.is_empty() {
            let line = p.joints.first().map_or(1, |j| j.2);
            p.w.line("iqe.pose.missing", line, || {
                "the model has no base poses: the first frame stands in for the bind pose".to_string()
            });
        } else if missing > 0 && !from_frames {
            let line = p.joints.get(p.base_poses.len()).map_or(1, |j| j.2);
            let total = p.joints.len();
            p.w.line("iqe.pose.missing", line, || {
                format!("{missing} of {total} joints have no base pose (first: this joint); identity used")
            });
        }
        if p.base_poses.len() > p.joints.len() {
            let line = p.base_poses[p.joints.len()].1;
            let (extra, total) = (p.base_poses.len() - p.joints.len(), p.joints.len());
            p.w.line("iqe.pose.extra", line, || {
                format!("{extra} base poses beyond the {total} joints (first here); ignored")
            });
        }
    } else if joint_count > 0 {
        let from_frames = p.base_poses.is_empty();
        has_bind_pose = !from_frames;
        for i in 0..joint_count {
            let bind = if from_frames {
                frame_ranges.first().and_then(|&(_, s, _, _)| p.anim_poses.get(s + i)).copied()
            } else {
                p.base_poses.get(i).map(|b| b.0)
            };
            joints.push(Joint { name: String::new(), parent: None, bind: bind.unwrap_or(Transform::IDENTITY) });
        }
        p.w.push("iqe.poses.unnamed", Location::File, || {
            format!(
                "poses but no joint commands: {joint_count} unnamed root joints{}",
                if from_frames { "; the first frame stands in for the bind pose" } else { "" }
            )
        });
    }
    let skeleton = Skeleton::new(joints, has_bind_pose).map_err(|i| {
        let line = p.joints.get(i).map_or(1, |j| j.2);
        err(line, format!("joint {i}: parent does not precede it"))
    })?;

    Ok((skeleton, joint_count))
}

/// One sampled clip per animation with frames: short frames filled from the bind pose, long ones cut.
fn clips(p: &mut Parser, frame_ranges: &[FrameRange], joint_count: usize, bind: &[Transform]) -> Vec<Clip> {
    let mut clips = Vec::new();
    let mut taken: HashSet<String> = p.anims.iter().filter_map(|a| a.name.clone()).collect();
    let mut first_frame = 0u32;
    let mut fr = frame_ranges.iter().peekable();
    for (ai, anim) in p.anims.iter().enumerate() {
        let name = match &anim.name {
            Some(n) => n.clone(),
            None => {
                let mut candidate = format!("anim{}", ai + 1);
                let mut k = 2;
                while taken.contains(&candidate) {
                    candidate = format!("anim{}_{k}", ai + 1);
                    k += 1;
                }
                taken.insert(candidate.clone());
                candidate
            }
        };
        let mut frames: Vec<Transform> = Vec::new();
        let mut count = 0u32;
        let (mut short, mut long) = ((0usize, 0u64), (0usize, 0u64));
        while let Some(&&(a, s, e, line)) = fr.peek() {
            if a != ai {
                break;
            }
            fr.next();
            let poses = &p.anim_poses[s..e];
            if poses.len() < joint_count {
                if short.0 == 0 {
                    short.1 = line;
                }
                short.0 += 1;
            } else if poses.len() > joint_count {
                if long.0 == 0 {
                    long.1 = line;
                }
                long.0 += 1;
            }
            frames.extend(poses.iter().take(joint_count));
            frames.extend(bind.iter().skip(poses.len()).take(joint_count.saturating_sub(poses.len())));
            count += 1;
        }
        if short.0 > 0 {
            p.w.line("iqe.frame.short", short.1, || {
                format!(
                    "animation \"{name}\": {} frames have fewer than {joint_count} poses (first here); filled from the base pose",
                    short.0
                )
            });
        }
        if long.0 > 0 {
            p.w.line("iqe.frame.long", long.1, || {
                format!(
                    "animation \"{name}\": {} frames have more than {joint_count} poses (first here); extra poses ignored",
                    long.0
                )
            });
        }
        if count == 0 {
            p.w.line("iqe.animation.empty", anim.line, || format!("animation \"{name}\" has no poses; dropped"));
            continue;
        }
        let rate = anim.frame_rate.unwrap_or(0.0);
        if rate <= 0.0 {
            p.w.line("iqe.framerate.zero", anim.line, || {
                format!("animation \"{name}\": framerate {rate}, playing at the default rate")
            });
        }
        let mut clip = Clip::new(name, rate, anim.looping, count, ClipData::Sampled { joints: joint_count, frames });
        clip.first_frame = first_frame;
        first_frame = first_frame.saturating_add(count);
        clips.push(clip);
    }
    clips
}

//! Scene → IQE text that reads back into the same scene, so two exports can be diffed line by line.
//!
//! Numbers are written with Rust's shortest round-trip formatting, so every f32 reads back bit for bit.
//! Vertex arrays are declared with `vertexarray` in the formats the source file used, so IQM → IQE → IQM
//! keeps them. Each mesh's vertices follow its `mesh` line and its faces use `fm` (mesh-relative) indices.

use std::fmt::Write;

use super::{ArraySpec, array_specs, written_frames};
use crate::anim::sample_clip;
use crate::scene::{DEFAULT_FPS, FrontFace, Scene, Transform};

/// A number as IQE writes it: the shortest text that reads back to the same f32, in exponent form when
/// plain digits would run long (tiny quaternion components, huge values).
struct Num(f32);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let a = self.0.abs();
        if a == 0.0 || (1e-4..1e9).contains(&a) || !a.is_finite() {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:e}", self.0)
        }
    }
}

/// IQE allows ten custom arrays, `custom0` … `custom9`.
const MAX_CUSTOM: usize = 10;

/// A name as IQE writes it: quoted, with no way to escape a quote (so one becomes `'`).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "'"))
}

/// The IQE `vertexarray` type of an array (`custom{slot}` for custom arrays).
pub(super) fn array_type_name(spec: &ArraySpec, custom_slot: usize) -> String {
    match spec.custom {
        Some(_) => format!("custom{custom_slot}"),
        None => crate::formats::iqm::array_type_name(spec.kind).to_string(),
    }
}

/// `pq` with all ten numbers, or seven when the scale is exactly 1.
fn pose_line(out: &mut String, t: &Transform) {
    let (p, q, s) = (t.translation, super::stored_rotation(t.rotation), t.scale);
    let _ =
        write!(out, "pq {} {} {} {} {} {} {}", Num(p.x), Num(p.y), Num(p.z), Num(q.x), Num(q.y), Num(q.z), Num(q.w));
    if s != glam::Vec3::ONE {
        let _ = write!(out, " {} {} {}", Num(s.x), Num(s.y), Num(s.z));
    }
    out.push('\n');
}

/// Which vertices each mesh writes: its declared range when its triangles stay inside it and the ranges
/// don't overlap (what exporters write, and what keeps the vertex order), else the vertices it uses.
fn mesh_vertex_sets(scene: &Scene) -> Vec<Vec<u32>> {
    let mut previous_end = 0u64;
    let mut sets = Vec::with_capacity(scene.meshes.len());
    for m in &scene.meshes {
        let (lo, hi) = (u64::from(m.first_vertex), u64::from(m.first_vertex) + u64::from(m.num_vertices));
        let tris = mesh_triangles(scene, m);
        let inside = hi <= scene.vertices.len() as u64
            && lo >= previous_end
            && tris.iter().flatten().all(|&v| (lo..hi).contains(&u64::from(v)));
        if inside {
            sets.push((m.first_vertex..m.first_vertex + m.num_vertices).collect());
            previous_end = hi;
        } else {
            let mut used: Vec<u32> = tris.iter().flatten().copied().collect();
            used.sort_unstable();
            used.dedup();
            sets.push(used);
            previous_end = u64::MAX;
        }
    }
    sets
}

fn mesh_triangles<'a>(scene: &'a Scene, m: &crate::scene::Mesh) -> &'a [[u32; 3]] {
    let start = m.first_triangle as usize;
    scene.triangles.get(start..start.saturating_add(m.num_triangles as usize)).unwrap_or(&[])
}

/// Writes one vertex's attribute lines.
fn vertex_lines(out: &mut String, scene: &Scene, i: usize, customs: &[(usize, usize)]) {
    let v = &scene.vertices;
    let p = v.positions[i];
    let _ = writeln!(out, "vp {} {} {}", Num(p.x), Num(p.y), Num(p.z));
    if let Some(t) = &v.texcoords {
        let _ = writeln!(out, "vt {} {}", Num(t[i].x), Num(t[i].y));
    }
    if let Some(n) = &v.normals {
        let _ = writeln!(out, "vn {} {} {}", Num(n[i].x), Num(n[i].y), Num(n[i].z));
    }
    if let Some(t) = &v.tangents {
        let _ = writeln!(out, "vx {} {} {} {}", Num(t[i].x), Num(t[i].y), Num(t[i].z), Num(t[i].w));
    }
    if let (Some(j), Some(w)) = (&v.joints, &v.weights) {
        out.push_str("vb");
        // Largest first, as readers keep them, so the text survives a read and a write unchanged.
        let mut pairs: Vec<(u32, f32)> = j[i].iter().copied().zip(w[i]).filter(|(_, w)| *w > 0.0).collect();
        pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (j, w) in pairs {
            let _ = write!(out, " {j} {}", Num(w));
        }
        out.push('\n');
    }
    if let Some(c) = &v.colors {
        let _ = writeln!(out, "vc {} {} {} {}", Num(c[i].x), Num(c[i].y), Num(c[i].z), Num(c[i].w));
    }
    for &(slot, stream) in customs {
        let c = &v.custom[stream];
        let k = c.components as usize;
        let _ = write!(out, "v{slot}");
        for x in c.data.get(i * k..(i + 1) * k).unwrap_or(&[]) {
            let _ = write!(out, " {}", Num(*x));
        }
        out.push('\n');
    }
}

/// Encodes a scene as IQE text. Returns the text and what could not be represented.
pub fn to_iqe(scene: &Scene) -> (String, Vec<String>) {
    let mut notes = Vec::new();
    let mut out = String::from("# Inter-Quake Export\n");
    let skel = &scene.skeleton;
    if !skel.is_empty() {
        out.push('\n');
        for j in &skel.joints {
            let _ = writeln!(out, "joint {} {}", quoted(&j.name), j.parent.map_or(-1, |p| p as i64));
        }
        if skel.has_bind_pose {
            for j in &skel.joints {
                pose_line(&mut out, &j.bind);
            }
        } else {
            notes.push("the file has no bind pose: joints are written without base poses".into());
        }
    }

    let mut spec_notes = Vec::new();
    let specs = array_specs(scene, &mut spec_notes);
    let mut customs = Vec::new();
    if !scene.meshes.is_empty() {
        out.push('\n');
        for s in &specs {
            let slot = customs.len();
            if let Some(c) = s.custom {
                if slot >= MAX_CUSTOM {
                    notes.push(format!(
                        "custom array \"{}\" dropped: IQE has ten custom slots",
                        scene.vertices.custom[c].name
                    ));
                    continue;
                }
                customs.push((slot, c));
            }
            let fmt = crate::formats::iqm::FORMAT_NAMES.get(s.format as usize).copied().unwrap_or("float");
            let _ = write!(out, "vertexarray {} {fmt} {}", array_type_name(s, slot), s.size);
            if let Some(c) = s.custom {
                let _ = write!(out, " {}", quoted(&scene.vertices.custom[c].name));
            }
            out.push('\n');
        }
    }

    let flip = scene.front_face == FrontFace::Ccw;
    for (m, set) in scene.meshes.iter().zip(mesh_vertex_sets(scene)) {
        let material = scene.materials.get(m.material).map_or("", |mat| mat.name.as_str());
        let _ = writeln!(out, "\nmesh {}\nmaterial {}", quoted(&m.name), quoted(material));
        let first = set.first().copied().unwrap_or(0);
        let contiguous = set.last().is_none_or(|&l| (l - first) as usize + 1 == set.len());
        for &v in &set {
            vertex_lines(&mut out, scene, v as usize, &customs);
        }
        let local =
            |v: u32| -> u32 { if contiguous { v - first } else { set.binary_search(&v).map_or(0, |i| i as u32) } };
        for t in mesh_triangles(scene, m) {
            let [a, b, c] = t.map(local);
            let (b, c) = if flip { (c, b) } else { (b, c) };
            let _ = writeln!(out, "fm {a} {b} {c}");
        }
    }

    let mut locals = vec![Transform::IDENTITY; skel.len()];
    for clip in &scene.clips {
        let _ = writeln!(out, "\nanimation {}", quoted(&clip.name));
        if clip.frame_rate.is_finite() && clip.frame_rate > 0.0 {
            let _ = writeln!(out, "framerate {}", Num(clip.frame_rate));
        }
        if clip.looping {
            out.push_str("loop\n");
        }
        for f in 0..written_frames(clip) {
            out.push_str("frame\n");
            sample_clip(skel, clip, f as f32, DEFAULT_FPS, &mut locals);
            for t in &locals {
                pose_line(&mut out, t);
            }
        }
    }

    if let Some(c) = &scene.meta.comment {
        out.push_str("\ncomment\n");
        out.push_str(c);
    }
    notes.extend(spec_notes);
    (out, notes)
}

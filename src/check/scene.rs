//! Checks on a loaded scene, whatever its format: geometry that draws nothing, stored adjacency and stored
//! bounds that disagree with the mesh.

use std::path::Path;

use super::{Finding, Place, Severity};
use crate::anim::BoundsMiss;
use crate::scene::{FrameBounds, Scene, triangle_adjacency};

fn finding(file: &str, rule: &str, place: Place, message: String) -> Finding {
    Finding { file: file.to_string(), rule: rule.to_string(), severity: Severity::Warning, place, message }
}

/// The mesh a triangle belongs to.
fn mesh_of(scene: &Scene, triangle: usize) -> Option<usize> {
    scene.meshes.iter().position(|m| {
        let start = m.first_triangle as usize;
        (start..start + m.num_triangles as usize).contains(&triangle)
    })
}

/// The scene's findings, with `misses` (stored bounds against the skinned mesh, computed by the caller) as
/// findings. `dir` is the folder textures are looked up from (none: textures are not checked).
pub fn check(file: &str, scene: &Scene, misses: &[BoundsMiss], dir: Option<&Path>) -> Vec<Finding> {
    let mut out = Vec::new();

    // Textures the materials name that can't be found where the viewer looks for them.
    if let Some(dir) = dir {
        for (mi, m) in scene.materials.iter().enumerate() {
            let Some(name) = m.texture.as_deref().filter(|n| !n.is_empty()) else { continue };
            let found = match m.search {
                crate::scene::TextureSearch::Embedded => {
                    crate::scene::EmbeddedImage::find(&scene.images, name).is_some()
                }
                search => crate::textures::find_texture(dir, name, search).is_some(),
            };
            if !found {
                let mesh = scene.meshes.iter().position(|x| x.material == mi);
                out.push(finding(
                    file,
                    "texture.missing",
                    Place { mesh, ..Default::default() },
                    format!("material \"{}\": texture \"{name}\" not found (looked from {})", m.name, dir.display()),
                ));
            }
        }
    }

    // Camera cuts: keys one tick apart, where the view jumps instead of moving.
    for (ci, cam) in scene.cameras.iter().enumerate() {
        let cuts: Vec<f32> = cam
            .keys
            .windows(2)
            .filter(|k| k[1].time - k[0].time <= cam.cut_span * (1.0 + 1e-4))
            .map(|k| k[1].time)
            .collect();
        if let Some(first) = cuts.first() {
            out.push(finding(
                file,
                if scene.meta.format == crate::scene::Format::Vmd { "vmd.camera.cut" } else { "mvd.camera.cut" },
                Place { clip: None, ..Default::default() },
                format!(
                    "camera {ci} \"{}\": {} cut(s), keys one tick apart where the view jumps (first at {first:.3} s)",
                    cam.name,
                    cuts.len()
                ),
            ));
        }
    }
    let v = &scene.vertices;
    let size = FrameBounds::of_points(&v.positions).map_or(1.0, |b| b.diagonal().max(f32::MIN_POSITIVE));

    // Degenerate triangles: a repeated corner, or no area (to the model's precision).
    let area_floor = (size * 1e-7).powi(2);
    let degenerate: Vec<usize> = scene
        .triangles
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            let p = t.map(|i| v.positions.get(i as usize).copied().unwrap_or_default());
            t[0] == t[1] || t[1] == t[2] || t[0] == t[2] || (p[1] - p[0]).cross(p[2] - p[0]).length() <= area_floor
        })
        .map(|(i, _)| i)
        .collect();
    if let Some(&first) = degenerate.first() {
        out.push(finding(
            file,
            "mesh.triangle.degenerate",
            Place { triangle: Some(first), mesh: mesh_of(scene, first), ..Default::default() },
            format!(
                "{} triangle(s) have a repeated corner or no area (first: triangle {first}); they draw nothing and \
                 break adjacency",
                degenerate.len()
            ),
        ));
    }

    // Unused vertices.
    if !scene.triangles.is_empty() {
        let mut used = vec![false; v.len()];
        for i in scene.triangles.iter().flatten() {
            if let Some(u) = used.get_mut(*i as usize) {
                *u = true;
            }
        }
        let unused: Vec<usize> = used.iter().enumerate().filter(|(_, u)| !**u).map(|(i, _)| i).collect();
        if let Some(&first) = unused.first() {
            out.push(finding(
                file,
                "mesh.vertex.unused",
                Place { vertex: Some(first), ..Default::default() },
                format!("{} vertices are used by no triangle (first: vertex {first})", unused.len()),
            ));
        }
    }

    // Stored adjacency against the triangles' edges.
    if let Some(stored) = &scene.adjacency {
        let edges = triangle_adjacency(&v.positions, v.joints.as_deref(), v.weights.as_deref(), &scene.triangles);
        let differ: Vec<usize> =
            stored.iter().zip(&edges).enumerate().filter(|(_, (a, b))| a != b).map(|(i, _)| i).collect();
        if let Some(&first) = differ.first() {
            out.push(finding(
                file,
                "iqm.adjacency.mismatch",
                Place { triangle: Some(first), mesh: mesh_of(scene, first), ..Default::default() },
                format!(
                    "stored adjacency disagrees with the triangles' shared edges on {} of {} triangles (first: \
                     triangle {first}: stored {:?}, edges give {:?})",
                    differ.len(),
                    stored.len(),
                    stored[first],
                    edges[first]
                ),
            ));
        }
    }

    // Stored per-frame bounds against the skinned mesh.
    for miss in misses {
        let clip = &scene.clips[miss.clip];
        out.push(finding(
            file,
            "iqm.bounds.miss",
            Place { clip: Some(miss.clip), frame: Some(miss.frame), ..Default::default() },
            format!(
                "animation \"{}\" frame {}: the stored bounds miss the skinned mesh by {:.4} ({:.2}% of the model \
                 size); culling with them clips the model",
                clip.name,
                miss.frame,
                miss.by,
                100.0 * miss.by / size
            ),
        ));
    }
    out
}

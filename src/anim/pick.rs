//! Picking: what lies under a ray through the posed model, on the mesh as drawn (vertex morphs applied, then
//! skinned), found on the CPU. The facts an artist asks of a leaking vertex: mesh, material, triangle, the
//! nearest corner with its index in the file, position, normal, UV, colour and blend joints by name.
//!
//! A CPU ray cast rather than a GPU id pass: it needs no render target or readback, it answers for the pose and
//! not for a frame drawn earlier, and it works where there is no window (`pose --pick`). It costs one skinning
//! of the vertices and one pass over the triangles per pick, not per frame.

use glam::{Vec2, Vec3, Vec4};

use super::{Pose, morphed_vertices, skin_normal, skin_positions};
use crate::scene::Scene;

/// What a pick found.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Picked {
    /// Scene triangle index.
    pub triangle: usize,
    pub mesh: Option<String>,
    pub material: Option<String>,
    /// The corner nearest the hit: the scene's vertex index and the file's (formats that split vertices map
    /// back to the vertex the file declares).
    pub vertex: usize,
    pub file_vertex: usize,
    /// Model space, posed.
    pub position: [f32; 3],
    pub normal: Option<[f32; 3]>,
    pub uv: Option<[f32; 2]>,
    pub color: Option<[f32; 4]>,
    /// Blend joints by name with their weights, largest first.
    pub joints: Vec<(String, f32)>,
    /// The hit point, model space, and its distance along the ray (in units of the ray's direction).
    pub hit: [f32; 3],
    pub distance: f32,
}

/// The first triangle of `scene` posed by `pose` that the ray from `origin` along `direction` (model space)
/// meets, either face; `None` when it meets none.
pub fn pick(scene: &Scene, pose: &Pose, origin: Vec3, direction: Vec3) -> Option<Picked> {
    let vertices = morphed_vertices(scene, &pose.morphs);
    let positions = skin_positions(&vertices, &pose.palette);
    let mut best: Option<(f32, usize)> = None;
    for (t, tri) in scene.triangles.iter().enumerate() {
        let [a, b, c] = tri.map(|i| positions.get(i as usize).copied());
        let (Some(a), Some(b), Some(c)) = (a, b, c) else { continue };
        if let Some(d) = ray_triangle(origin, direction, a, b, c)
            && best.is_none_or(|(bd, _)| d < bd)
        {
            best = Some((d, t));
        }
    }
    let (distance, triangle) = best?;
    let hit = origin + direction * distance;
    let vertex = scene.triangles[triangle]
        .iter()
        .map(|&i| i as usize)
        .min_by(|&i, &j| positions[i].distance(hit).total_cmp(&positions[j].distance(hit)))?;
    Some(describe(scene, pose, (&vertices, &positions), triangle, vertex, (hit, distance)))
}

/// What lies at vertex `vertex` of `scene` posed by `pose` (a finding's vertex, shown as a pick would show
/// it), on the first triangle that uses it; the hit is the vertex itself. `None` for a vertex out of range.
pub fn pick_vertex(scene: &Scene, pose: &Pose, vertex: usize) -> Option<Picked> {
    let vertices = morphed_vertices(scene, &pose.morphs);
    let positions = skin_positions(&vertices, &pose.palette);
    let at = *positions.get(vertex)?;
    let triangle = scene.triangles.iter().position(|t| t.contains(&(vertex as u32))).unwrap_or(0);
    Some(describe(scene, pose, (&vertices, &positions), triangle, vertex, (at, 0.0)))
}

/// The facts of `vertex` on `triangle`: its mesh and material, attributes and blend joints.
fn describe(
    scene: &Scene,
    pose: &Pose,
    (vertices, positions): (&crate::scene::VertexStreams, &[Vec3]),
    triangle: usize,
    vertex: usize,
    (hit, distance): (Vec3, f32),
) -> Picked {
    let mesh = scene.meshes.iter().find(|m| {
        let t = triangle as u32;
        t >= m.first_triangle && t - m.first_triangle < m.num_triangles
    });
    let joints = match (&vertices.joints, &vertices.weights) {
        (Some(j), Some(w)) => {
            let mut list: Vec<(String, f32)> = (0..4)
                .filter(|&k| w[vertex][k] > 0.0)
                .map(|k| (scene.skeleton.display_name(j[vertex][k] as usize), w[vertex][k]))
                .collect();
            list.sort_by(|a, b| b.1.total_cmp(&a.1));
            list
        }
        _ => Vec::new(),
    };
    // The one vertex's normal, not the whole mesh's.
    let normal = skin_normal(vertices, &pose.palette, vertex);
    Picked {
        triangle,
        mesh: mesh.map(|m| m.name.clone()),
        material: mesh.and_then(|m| scene.materials.get(m.material)).map(|m| m.name.clone()),
        vertex,
        file_vertex: scene.vertices.file_vertex(vertex),
        position: positions[vertex].to_array(),
        normal: normal.map(|n| n.to_array()),
        uv: vertices.texcoords.as_ref().and_then(|t| t.get(vertex)).map(|v: &Vec2| v.to_array()),
        color: vertices.colors.as_ref().and_then(|c| c.get(vertex)).map(|v: &Vec4| v.to_array()),
        joints,
        hit: hit.to_array(),
        distance,
    }
}

/// Möller–Trumbore: the distance along `direction` at which the ray meets triangle (a, b, c), from either side.
fn ray_triangle(origin: Vec3, direction: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Option<f32> {
    let (e1, e2) = (b - a, c - a);
    let p = direction.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = origin - a;
    let u = s.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = direction.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t > 0.0 && t.is_finite()).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ray_meets_the_nearest_triangle_from_either_side() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Y);
        assert_eq!(ray_triangle(Vec3::new(0.2, 0.2, 5.0), -Vec3::Z, a, b, c), Some(5.0));
        assert_eq!(ray_triangle(Vec3::new(0.2, 0.2, -2.0), Vec3::Z, a, b, c), Some(2.0), "back face");
        assert_eq!(ray_triangle(Vec3::new(0.8, 0.8, 5.0), -Vec3::Z, a, b, c), None, "outside");
        assert_eq!(ray_triangle(Vec3::new(0.2, 0.2, 5.0), Vec3::Z, a, b, c), None, "behind the origin");
    }
}

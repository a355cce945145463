//! Triangle adjacency: for each edge of each triangle, the one other triangle that shares it.
//!
//! Vertices are welded by position and skinning data before edges are compared, because exporters split
//! vertices along UV seams and hard edges while the surface stays connected (the reference converter does the
//! same, but its comparison is no strict weak order, so its output is wrong on real files). An edge links two
//! triangles only when exactly two triangles use it; edges of three or more (non-manifold) stay open.

use std::collections::HashMap;

use glam::Vec3;

/// No neighbour across this edge.
pub const NONE: u32 = u32::MAX;

/// What must match for two vertices to be the same point of the surface.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct WeldKey {
    position: [u32; 3],
    joints: [u32; 4],
    weights: [u32; 4],
}

/// Canonical vertex ids: equal ids for vertices at the same position with the same influences.
fn weld(positions: &[Vec3], joints: Option<&[[u32; 4]]>, weights: Option<&[[f32; 4]]>) -> Vec<u32> {
    let mut ids: HashMap<WeldKey, u32, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(positions.len(), Default::default());
    positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // +0.0 and -0.0 are the same point.
            let bits = |v: f32| if v == 0.0 { 0 } else { v.to_bits() };
            let key = WeldKey {
                position: [bits(p.x), bits(p.y), bits(p.z)],
                joints: joints.and_then(|j| j.get(i)).copied().unwrap_or_default(),
                weights: weights.and_then(|w| w.get(i)).map(|w| w.map(bits)).unwrap_or_default(),
            };
            let next = ids.len() as u32;
            *ids.entry(key).or_insert(next)
        })
        .collect()
}

/// Adjacency for `triangles` (indices into `positions`, all in range): entry `[t][e]` is the triangle across
/// edge `(v[e], v[(e+1)%3])`, or [`NONE`].
pub fn triangle_adjacency(
    positions: &[Vec3],
    joints: Option<&[[u32; 4]]>,
    weights: Option<&[[f32; 4]]>,
    triangles: &[[u32; 3]],
) -> Vec<[u32; 3]> {
    let ids = weld(positions, joints, weights);
    let id = |v: u32| ids.get(v as usize).copied().unwrap_or(NONE);
    // Every edge as (undirected key, triangle, edge), sorted so the uses of one edge sit together: a sort
    // beats a hash map of a million edges several times over.
    let mut edges: Vec<(u64, u32, u8)> = Vec::with_capacity(triangles.len() * 3);
    for (t, tri) in triangles.iter().enumerate() {
        for e in 0..3 {
            let (a, b) = (id(tri[e]), id(tri[(e + 1) % 3]));
            if a != b {
                edges.push(((u64::from(a.min(b)) << 32) | u64::from(a.max(b)), t as u32, e as u8));
            }
        }
    }
    edges.sort_unstable();
    let mut adjacency = vec![[NONE; 3]; triangles.len()];
    for run in edges.chunk_by(|x, y| x.0 == y.0) {
        // Exactly two uses link; one is a border, three or more a non-manifold edge left open.
        if let [(_, t0, e0), (_, t1, e1)] = *run
            && t0 != t1
        {
            adjacency[t0 as usize][e0 as usize] = t1;
            adjacency[t1 as usize][e1 as usize] = t0;
        }
    }
    adjacency
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quad_split_along_a_seam_is_still_connected() {
        // Two triangles of a quad; the shared edge's vertices are duplicated (as along a UV seam).
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)];
        let tris = [[0, 1, 2], [4, 3, 5]];
        let adj = triangle_adjacency(&p, None, None, &tris);
        assert_eq!(adj, vec![[NONE, 1, NONE], [0, NONE, NONE]]);
    }

    #[test]
    fn different_influences_do_not_weld_and_non_manifold_edges_stay_open() {
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::X, Vec3::Y, Vec3::ONE];
        let j = [[0; 4], [0; 4], [0; 4], [1, 0, 0, 0], [0; 4], [0; 4]];
        let w = [[1.0, 0.0, 0.0, 0.0]; 6];
        assert_eq!(triangle_adjacency(&p, Some(&j), Some(&w), &[[0, 1, 2], [4, 3, 5]]), vec![[NONE; 3]; 2]);
        // Three triangles on one edge: no link.
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::NEG_Y, Vec3::Z];
        let adj = triangle_adjacency(&p, None, None, &[[0, 1, 2], [1, 0, 3], [0, 1, 4]]);
        assert_eq!(adj, vec![[NONE; 3]; 3]);
    }
}

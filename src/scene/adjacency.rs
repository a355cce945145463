//! Triangle adjacency: for each edge of each triangle, the one other triangle that shares it.
//!
//! Vertices are welded by position and skinning data before edges are compared, because exporters split
//! vertices along UV seams and hard edges while the surface stays connected (the reference converter does the
//! same, but its comparison is no strict weak order, so its output is wrong on real files). An edge links two
//! triangles only when exactly two triangles use it; edges of three or more (non-manifold) stay open.

use std::hash::BuildHasher;

use hashbrown::hash_table::{Entry, HashTable};

use glam::Vec3;

/// No neighbour across this edge.
pub const NONE: u32 = u32::MAX;

/// Canonical vertex ids and how many there are: equal ids for vertices at the same position with the same
/// influences. The table holds only each first vertex's index and compares through it: copying the keys
/// (44 bytes each) into the table made it the largest allocation of a conversion.
fn weld(positions: &[Vec3], joints: Option<&[[u32; 4]]>, weights: Option<&[[f32; 4]]>) -> (Vec<u32>, usize) {
    // +0.0 and -0.0 are the same point.
    let bits = |v: f32| if v == 0.0 { 0 } else { v.to_bits() };
    let key = |i: usize| {
        let p = positions[i];
        (
            [bits(p.x), bits(p.y), bits(p.z)],
            joints.and_then(|j| j.get(i)).copied().unwrap_or_default(),
            weights.and_then(|w| w.get(i)).map(|w| w.map(bits)).unwrap_or_default(),
        )
    };
    let state = foldhash::fast::FixedState::default();
    let hash = |i: usize| state.hash_one(key(i));
    // (vertex index, welded id) of each distinct key.
    let mut table: HashTable<(u32, u32)> = HashTable::with_capacity(positions.len());
    let mut count = 0u32;
    let welded = (0..positions.len())
        .map(|i| {
            let k = key(i);
            let entry = table.entry(state.hash_one(k), |&(j, _)| key(j as usize) == k, |&(j, _)| hash(j as usize));
            match entry {
                Entry::Occupied(e) => e.get().1,
                Entry::Vacant(e) => {
                    e.insert((i as u32, count));
                    count += 1;
                    count - 1
                }
            }
        })
        .collect();
    (welded, count as usize)
}

/// The unique edges of `triangles` as pairs of vertex indices (lower index first), sorted: what the wireframe
/// overlay draws.
pub fn unique_edges(triangles: &[[u32; 3]]) -> Vec<u32> {
    let mut e: Vec<(u32, u32)> = triangles
        .iter()
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    e.sort_unstable();
    e.dedup();
    e.into_iter().flat_map(|(a, b)| [a, b]).collect()
}

/// Adjacency for `triangles` (indices into `positions`, all in range): entry `[t][e]` is the triangle across
/// edge `(v[e], v[(e+1)%3])`, or [`NONE`].
///
/// Each edge is filed under its smaller welded vertex ([`group_by_key`]), so the uses of one edge meet in that
/// vertex's short list. This replaced a comparison sort of every edge, which was the slowest step of
/// converting a large model (BENCHMARKS.md).
pub fn triangle_adjacency(
    positions: &[Vec3],
    joints: Option<&[[u32; 4]]>,
    weights: Option<&[[f32; 4]]>,
    triangles: &[[u32; 3]],
) -> Vec<[u32; 3]> {
    let (ids, count) = weld(positions, joints, weights);
    let id = |v: u32| ids.get(v as usize).copied().unwrap_or(NONE);
    // Edge `i` is edge `i % 3` of triangle `i / 3`; its welded ends, smaller first, unless it collapsed.
    let ends = |i: u32| {
        let tri = &triangles[i as usize / 3];
        let k = i as usize % 3;
        let (a, b) = (id(tri[k]), id(tri[(k + 1) % 3]));
        (a != b && a != NONE && b != NONE).then(|| (a.min(b), a.max(b)))
    };
    // Collapsed edges go to one more list, past the vertices, which is never read.
    let (offsets, edges) = group_by_key(triangles.len() * 3, count + 1, |i| ends(i).map_or(count as u32, |e| e.0));
    let mut adjacency = vec![[NONE; 3]; triangles.len()];
    let mut link = |i: u32, j: u32| {
        let (ti, tj) = (i / 3, j / 3);
        // Exactly two uses link, and only two different triangles.
        if ti != tj {
            adjacency[ti as usize][i as usize % 3] = tj;
            adjacency[tj as usize][j as usize % 3] = ti;
        }
    };
    // One vertex's edges as (other end, edge), sorted so that the uses of each edge sit together; one use is a
    // border, three or more a non-manifold edge left open. The other ends are looked up once per edge.
    let mut sorted: Vec<(u32, u32)> = Vec::new();
    for list in offsets.windows(2).take(count) {
        let list = &edges[list[0]..list[1]];
        if list.len() < 2 {
            continue;
        }
        sorted.clear();
        sorted.extend(list.iter().map(|&i| (ends(i).map_or(NONE, |e| e.1), i)));
        sorted.sort_unstable();
        for run in sorted.chunk_by(|x, y| x.0 == y.0) {
            if let [(_, i), (_, j)] = *run {
                link(i, j);
            }
        }
    }
    adjacency
}

/// The items `0..n` grouped by `key` (each below `keys`), by counting (two passes, no comparisons): the
/// offsets of each key's items (`keys + 1` of them) and the items, ascending within each key. Items are
/// `u32`: `n` counts triangle corners, which a model's own counts bound.
pub(crate) fn group_by_key(n: usize, keys: usize, key: impl Fn(u32) -> u32) -> (Vec<usize>, Vec<u32>) {
    let mut offsets = vec![0usize; keys + 1];
    for i in 0..n as u32 {
        offsets[key(i) as usize + 1] += 1;
    }
    for k in 1..offsets.len() {
        offsets[k] += offsets[k - 1];
    }
    let mut cursor = offsets.clone();
    let mut items = vec![0u32; n];
    for i in 0..n as u32 {
        let at = &mut cursor[key(i) as usize];
        items[*at] = i;
        *at += 1;
    }
    (offsets, items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_edges_appear_once() {
        assert_eq!(unique_edges(&[[0, 1, 2], [2, 1, 3]]), vec![0, 1, 0, 2, 1, 2, 1, 3, 2, 3]);
    }

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

    /// Every edge compared with every other: the definition, for meshes small enough.
    fn brute_force(p: &[Vec3], tris: &[[u32; 3]]) -> Vec<[u32; 3]> {
        let key = |v: u32| p[v as usize].to_array().map(|c| if c == 0.0 { 0 } else { c.to_bits() });
        let edge = |t: usize, e: usize| {
            let (a, b) = (key(tris[t][e]), key(tris[t][(e + 1) % 3]));
            (a != b).then(|| if a < b { (a, b) } else { (b, a) })
        };
        let mut adj = vec![[NONE; 3]; tris.len()];
        for (t, row) in adj.iter_mut().enumerate() {
            for (e, slot) in row.iter_mut().enumerate() {
                let Some(k) = edge(t, e) else { continue };
                let uses: Vec<(usize, usize)> = (0..tris.len())
                    .flat_map(|u| (0..3).map(move |f| (u, f)))
                    .filter(|&(u, f)| edge(u, f) == Some(k))
                    .collect();
                if let [(t0, _), (t1, _)] = uses[..]
                    && t0 != t1
                {
                    *slot = if t0 == t { t1 as u32 } else { t0 as u32 };
                }
            }
        }
        adj
    }

    #[test]
    fn fans_seams_and_random_soups_match_the_definition() {
        // A closed fan of 40 triangles around one centre (a long list at one vertex), its rim split along a seam.
        let mut p = vec![Vec3::ZERO];
        for i in 0..40 {
            let a = i as f32 / 40.0 * std::f32::consts::TAU;
            p.push(Vec3::new(a.cos(), a.sin(), 0.0));
        }
        p.push(p[1]);
        let fan: Vec<[u32; 3]> = (0..40).map(|i| [0, i + 1, if i == 39 { 41 } else { i + 2 }]).collect();
        let adj = triangle_adjacency(&p, None, None, &fan);
        assert_eq!(adj, brute_force(&p, &fan));
        assert!(adj.iter().all(|t| t[0] != NONE && t[2] != NONE && t[1] == NONE), "{adj:?}");
        // Soups on a small lattice: shared, border, doubled and non-manifold edges, collapsed triangles.
        let mut seed = 7u32;
        let mut next = |n: u32| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) % n
        };
        for _ in 0..50 {
            let p: Vec<Vec3> = (0..30).map(|_| Vec3::new(next(3) as f32, next(3) as f32, 0.0)).collect();
            let tris: Vec<[u32; 3]> = (0..40).map(|_| [next(30), next(30), next(30)]).collect();
            assert_eq!(triangle_adjacency(&p, None, None, &tris), brute_force(&p, &tris));
        }
    }
}

//! Normal and tangent generation for IQE files that carry none.
//!
//! Corners of all triangles (across meshes, as the spec says) are grouped by exact position; within a
//! position, two corners share a normal when they pass every applicable smoothing test. Shared corners are
//! welded with union-find, so smoothing is transitive as in the reference converter. Corners of one `vp` that
//! end up with different normals split that vertex: the output maps each new vertex back to its `vp`.
//!
//! Work is hashed and sorted, never all-pairs over the file: corners are compared pairwise only within one
//! position and one (smoothing group, `vs`) key, and a crowd of corners at one point is compared against a
//! bounded number of cluster representatives instead.

use std::collections::HashMap;

use glam::{Vec2, Vec3, Vec4};

use crate::scene::group_by_key;

/// Pairwise comparison is used up to this many corners at one position and key; past it, each corner is
/// compared with at most this many cluster representatives.
const PAIRWISE_LIMIT: usize = 256;

/// The smoothing parameters in force for a triangle (`smoothgroup`, `smoothangle`, `smoothuv`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SmoothState {
    pub group: i64,
    /// Smoothing angle in degrees, clamped to 0..=180.
    pub angle: f32,
    pub uv: bool,
}

impl SmoothState {
    pub const DEFAULT: SmoothState = SmoothState { group: -1, angle: 180.0, uv: false };

    /// The least cosine between face normals that still smooths; `None` for 180° (always smooth). This is the
    /// plain cosine: the reference converter's `abs(cos)` made angles over 90° act as 180° − A.
    fn min_cos(&self) -> Option<f32> {
        (self.angle < 180.0).then(|| self.angle.to_radians().cos())
    }
}

pub struct Input<'a> {
    /// `vp` positions, one per file vertex.
    pub positions: &'a [Vec3],
    pub texcoords: Option<&'a [Vec2]>,
    /// `vs` per file vertex.
    pub smooth_index: Option<&'a [i64]>,
    /// Triangles as `vp` indices, all in range.
    pub triangles: &'a [[u32; 3]],
    pub states: &'a [SmoothState],
    /// Index into `states` per triangle.
    pub tri_state: &'a [u32],
    /// `fs` flags per triangle (bit k: the edge from corner k to corner k+1 smooths), when the file uses `fs`.
    pub edge_flags: Option<&'a [u8]>,
}

pub struct Output {
    /// One normal per output vertex.
    pub normals: Vec<Vec3>,
    /// The `vp` each output vertex came from; every `vp` appears at least once, in order.
    pub source: Vec<u32>,
    /// The input triangles with output vertex indices.
    pub triangles: Vec<[u32; 3]>,
    /// Vertices whose face normals summed to zero (degenerate or cancelling faces); they got +Z.
    pub zero_normals: usize,
    /// Corners at crowded positions that were compared with representatives only.
    pub crowded: usize,
}

/// Union-find over local corner indices, with path halving.
struct UnionFind(Vec<u32>);

impl UnionFind {
    fn reset(&mut self, n: usize) {
        self.0.clear();
        self.0.extend(0..n as u32);
    }
    fn find(&mut self, mut i: u32) -> u32 {
        while self.0[i as usize] != i {
            let p = self.0[i as usize];
            self.0[i as usize] = self.0[p as usize];
            i = p;
        }
        i
    }
    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            // The smaller root wins, so a cluster's root is its first corner.
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            self.0[hi as usize] = lo;
        }
    }
}

/// Exact position key: -0.0 and 0.0 are the same point.
fn pos_key(p: Vec3) -> [u32; 3] {
    [(p.x + 0.0).to_bits(), (p.y + 0.0).to_bits(), (p.z + 0.0).to_bits()]
}

pub fn generate_normals(inp: &Input) -> Output {
    let tris = inp.triangles;
    let pos = |v: u32| inp.positions[v as usize];
    // Area-weighted face normals in Quake winding: (v2 - v0) × (v1 - v0).
    let area: Vec<Vec3> = tris.iter().map(|t| (pos(t[2]) - pos(t[0])).cross(pos(t[1]) - pos(t[0]))).collect();
    let unit: Vec<Vec3> = area.iter().map(|a| a.normalize_or_zero()).collect();

    // Position class of every vp.
    let mut classes: HashMap<[u32; 3], u32> = HashMap::with_capacity(inp.positions.len());
    let class_of: Vec<u32> = inp
        .positions
        .iter()
        .map(|&p| {
            let next = classes.len() as u32;
            *classes.entry(pos_key(p)).or_insert(next)
        })
        .collect();
    let class_count = classes.len();
    drop(classes);

    let corner_vp = |c: u32| tris[c as usize / 3][c as usize % 3];
    let state =
        |c: u32| inp.states.get(inp.tri_state[c as usize / 3] as usize).copied().unwrap_or(SmoothState::DEFAULT);
    let vs = |c: u32| inp.smooth_index.map_or(0, |s| s[corner_vp(c) as usize]);
    let n_corners = tris.len() * 3;

    // Corners grouped by position class, ascending within each (a counting sort, where sorting every corner
    // was a third of converting a large IQE without normals).
    let (class_offsets, by_class) = group_by_key(n_corners, class_count, |c| class_of[corner_vp(c) as usize]);

    let any_uv = inp.texcoords.is_some() && inp.states.iter().any(|s| s.uv);
    let any_angle = inp.states.iter().any(|s| s.min_cos().is_some());
    let compatible = |a: u32, b: u32| -> bool {
        let (sa, sb) = (state(a), state(b));
        let (ta, tb) = (a as usize / 3, b as usize / 3);
        if let (Some(_), _) | (_, Some(_)) = (sa.min_cos(), sb.min_cos()) {
            let need = sa.min_cos().unwrap_or(-1.0).max(sb.min_cos().unwrap_or(-1.0));
            if unit[ta].dot(unit[tb]) < need {
                return false;
            }
        }
        if (sa.uv || sb.uv)
            && let Some(uv) = inp.texcoords
            && uv[corner_vp(a) as usize] != uv[corner_vp(b) as usize]
        {
            return false;
        }
        if let Some(flags) = inp.edge_flags {
            // The corners must share an edge (same position at the edge's other end) flagged in either face.
            let edges = |c: u32| {
                let (t, k) = (c as usize / 3, c as usize % 3);
                let f = flags.get(t).copied().unwrap_or(7);
                let next = class_of[tris[t][(k + 1) % 3] as usize];
                let prev = class_of[tris[t][(k + 2) % 3] as usize];
                [(next, f >> k & 1 != 0), (prev, f >> ((k + 2) % 3) & 1 != 0)]
            };
            let (ea, eb) = (edges(a), edges(b));
            let shared = ea.iter().any(|&(pa, fa)| eb.iter().any(|&(pb, fb)| pa == pb && (fa || fb)));
            if !shared {
                return false;
            }
        }
        true
    };
    let always = !any_uv && !any_angle && inp.edge_flags.is_none();

    // Weld: cluster id per corner.
    let mut cluster = vec![0u32; n_corners];
    let mut uf = UnionFind(Vec::new());
    let mut next_cluster = 0u32;
    let mut crowded = 0usize;
    let mut reps: Vec<u32> = Vec::new();
    let mut local_ids: Vec<u32> = Vec::new();
    // Each run of corners at one position with one (group key, vs) is a welding set, its corners ascending.
    let mut keyed: Vec<(i64, i64, u32)> = Vec::new();
    for class in class_offsets.windows(2) {
        let corners = &by_class[class[0]..class[1]];
        keyed.clear();
        keyed.extend(corners.iter().map(|&c| (state(c).group, vs(c), c)));
        if keyed.windows(2).any(|w| (w[0].0, w[0].1) != (w[1].0, w[1].1)) {
            keyed.sort_unstable();
        }
        for run in keyed.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let k = run.len();
            uf.reset(k);
            if always {
                for i in 1..k {
                    uf.union(0, i as u32);
                }
            } else if k <= PAIRWISE_LIMIT {
                for i in 0..k {
                    for j in i + 1..k {
                        if compatible(run[i].2, run[j].2) {
                            uf.union(i as u32, j as u32);
                        }
                    }
                }
            } else {
                crowded += k;
                reps.clear();
                for i in 0..k {
                    match reps.iter().find(|&&r| compatible(run[r as usize].2, run[i].2)) {
                        Some(&r) => uf.union(r, i as u32),
                        None if reps.len() < PAIRWISE_LIMIT => reps.push(i as u32),
                        None => {}
                    }
                }
            }
            // Local roots to global cluster ids.
            local_ids.clear();
            local_ids.resize(k, u32::MAX);
            for i in 0..k {
                let r = uf.find(i as u32) as usize;
                if local_ids[r] == u32::MAX {
                    local_ids[r] = next_cluster;
                    next_cluster += 1;
                }
                cluster[run[i].2 as usize] = local_ids[r];
            }
        }
    }
    drop(by_class);

    let (normals, source, triangles, zero_normals) = corner_vertices(inp, &area, &cluster, next_cluster);
    Output { normals, source, triangles, zero_normals, crowded }
}

/// Vertices for the welded corners: each cluster's normal is the normalised sum of its faces' area vectors;
/// per vp in order, one vertex per distinct cluster in order of the cluster's first corner (an unused vp still
/// gets one vertex, so every file vertex can be listed). Returns normals, each vertex's vp, the triangles over
/// the new vertices, and how many normals summed to zero.
fn corner_vertices(
    inp: &Input,
    area: &[Vec3],
    cluster: &[u32],
    next_cluster: u32,
) -> (Vec<Vec3>, Vec<u32>, Vec<[u32; 3]>, usize) {
    let tris = inp.triangles;
    let n_corners = tris.len() * 3;
    let corner_vp = |c: u32| tris[c as usize / 3][c as usize % 3];
    let mut sums = vec![Vec3::ZERO; next_cluster as usize];
    let mut first_corner = vec![u32::MAX; next_cluster as usize];
    for c in 0..n_corners {
        let id = cluster[c] as usize;
        sums[id] += area[c / 3];
        first_corner[id] = first_corner[id].min(c as u32);
    }

    // Per vp in order: its corners' clusters in order of their first corner, one vertex each.
    let (vp_offsets, by_vp) = group_by_key(n_corners, inp.positions.len(), corner_vp);
    let mut normals = Vec::with_capacity(inp.positions.len());
    let mut source = Vec::with_capacity(inp.positions.len());
    let mut zero_normals = 0;
    let mut corner_vertex = vec![0u32; n_corners];
    let mut firsts: Vec<u32> = Vec::new();
    for (vp, range) in vp_offsets.windows(2).enumerate() {
        let corners = &by_vp[range[0]..range[1]];
        let first_of = |c: u32| first_corner[cluster[c as usize] as usize];
        firsts.clear();
        firsts.extend(corners.iter().map(|&c| first_of(c)));
        firsts.sort_unstable();
        firsts.dedup();
        let base = normals.len() as u32;
        for &f in &firsts {
            let n = sums[cluster[f as usize] as usize].normalize_or_zero();
            if n == Vec3::ZERO {
                zero_normals += 1;
            }
            normals.push(if n == Vec3::ZERO { Vec3::Z } else { n });
            source.push(vp as u32);
        }
        if firsts.is_empty() {
            normals.push(Vec3::Z);
            source.push(vp as u32);
        }
        for &c in corners {
            // Every corner's first corner is in `firsts`.
            corner_vertex[c as usize] = base + firsts.binary_search(&first_of(c)).unwrap_or(0) as u32;
        }
    }
    let triangles = corner_vertex.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
    (normals, source, triangles, zero_normals)
}

/// Tangents from UV gradients: per triangle, summed per vertex, orthogonalised to the normal; `w` is the
/// bitangent's handedness. Vertices without a usable gradient get any tangent perpendicular to the normal.
pub fn generate_tangents(positions: &[Vec3], normals: &[Vec3], uvs: &[Vec2], tris: &[[u32; 3]]) -> Vec<Vec4> {
    let n = positions.len();
    let mut tan = vec![Vec3::ZERO; n];
    let mut bit = vec![Vec3::ZERO; n];
    for t in tris {
        let [i0, i1, i2] = t.map(|i| i as usize);
        let (Some(&p0), Some(&p1), Some(&p2)) = (positions.get(i0), positions.get(i1), positions.get(i2)) else {
            continue;
        };
        let (Some(&w0), Some(&w1), Some(&w2)) = (uvs.get(i0), uvs.get(i1), uvs.get(i2)) else { continue };
        let (e1, e2) = (p1 - p0, p2 - p0);
        let (d1, d2) = (w1 - w0, w2 - w0);
        let r = d1.x * d2.y - d2.x * d1.y;
        if !(r.is_finite() && r.abs() > f32::MIN_POSITIVE) {
            continue;
        }
        let sdir = (e1 * d2.y - e2 * d1.y) / r;
        let tdir = (e2 * d1.x - e1 * d2.x) / r;
        if !(sdir.is_finite() && tdir.is_finite()) {
            continue;
        }
        for i in [i0, i1, i2] {
            tan[i] += sdir;
            bit[i] += tdir;
        }
    }
    (0..n)
        .map(|i| {
            let nrm = normals.get(i).copied().unwrap_or(Vec3::Z);
            let t = (tan[i] - nrm * nrm.dot(tan[i])).normalize_or_zero();
            if t == Vec3::ZERO {
                return nrm.normalize_or(Vec3::Z).any_orthonormal_vector().extend(1.0);
            }
            t.extend(handedness(nrm, t, bit[i]))
        })
        .collect()
}

/// `sign(dot(cross(n, t), b))`, with 0 counted as +1 so the bitangent never vanishes.
pub fn handedness(n: Vec3, t: Vec3, b: Vec3) -> f32 {
    if n.cross(t).dot(b) < 0.0 { -1.0 } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two triangles folded along the shared edge (0,0,0)-(1,0,0) by `fold` degrees from flat.
    fn hinge(fold: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let (s, c) = fold.to_radians().sin_cos();
        let positions = vec![Vec3::ZERO, Vec3::X, Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, -c, s)];
        (positions, vec![[0, 2, 1], [0, 1, 3]])
    }

    fn run(positions: &[Vec3], tris: &[[u32; 3]], state: SmoothState, vs: Option<&[i64]>) -> Output {
        let states = [state];
        let tri_state = vec![0u32; tris.len()];
        generate_normals(&Input {
            positions,
            texcoords: None,
            smooth_index: vs,
            triangles: tris,
            states: &states,
            tri_state: &tri_state,
            edge_flags: None,
        })
    }

    #[test]
    fn default_smooths_everything_across_a_fold() {
        let (p, t) = hinge(120.0);
        let out = run(&p, &t, SmoothState::DEFAULT, None);
        assert_eq!(out.normals.len(), 4, "no splits");
        assert_eq!(out.triangles, t);
    }

    #[test]
    fn angle_threshold_is_the_real_angle() {
        // Fold by 100°: the face normals are 100° apart.
        let (p, t) = hinge(100.0);
        let at = |a: f32| run(&p, &t, SmoothState { angle: a, ..SmoothState::DEFAULT }, None).normals.len();
        assert_eq!(at(120.0), 4, "100° ≤ 120°: smooth (the converter's abs(cos) would facet)");
        assert_eq!(at(90.0), 6, "100° > 90°: faceted, shared vertices 0 and 1 split");
        assert_eq!(at(180.0), 4);
        assert_eq!(at(0.0), 6);
    }

    #[test]
    fn faceted_normals_are_face_normals_in_quake_winding() {
        let (p, t) = hinge(0.0);
        let out = run(&p, &t, SmoothState::DEFAULT, None);
        // Flat in the XY plane with (0,2,1) winding: (v2-v0)×(v1-v0) = X × Y = +Z.
        for n in &out.normals {
            assert!(n.abs_diff_eq(Vec3::Z, 1e-6), "{n}");
        }
    }

    #[test]
    fn smooth_index_separates_corners() {
        let (p, _) = hinge(30.0);
        // vp 0 and 1 each appear in both triangles with the same vs, so no split; but two vps at one position
        // with different vs do not weld.
        let mut p2 = p.clone();
        p2.push(Vec3::ZERO);
        let t2 = vec![[0, 2, 1], [4, 1, 3]];
        let same = run(&p2, &t2, SmoothState::DEFAULT, Some(&[0, 1, 2, 3, 0]));
        let diff = run(&p2, &t2, SmoothState::DEFAULT, Some(&[0, 1, 2, 3, 9]));
        assert!(same.normals[0].abs_diff_eq(same.normals[4], 1e-6));
        assert!(!diff.normals[0].abs_diff_eq(diff.normals[4], 1e-3));
    }

    #[test]
    fn area_weighting() {
        // A big triangle facing +Z and a small one facing +X share vertex 0.
        let p = vec![Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::new(0.0, 10.0, 0.0), Vec3::Y, Vec3::Z];
        let t = vec![[0, 2, 1], [0, 4, 3]];
        let out = run(&p, &t, SmoothState::DEFAULT, None);
        let n0 = out.normals[0];
        assert!(n0.z > 0.99 && n0.x > 0.0, "{n0}");
    }

    #[test]
    fn crowded_position_is_bounded_and_clustered() {
        // 2000 faceted fan triangles around one point in one plane: identical normals, all weld.
        let mut p = vec![Vec3::ZERO];
        let mut t = Vec::new();
        for i in 0..2000u32 {
            let a = i as f32 * 0.001;
            p.push(Vec3::new(a.cos(), a.sin(), 0.0));
            p.push(Vec3::new((a + 0.0005).cos(), (a + 0.0005).sin(), 0.0));
            t.push([0, 2 * i + 2, 2 * i + 1]);
        }
        let out = run(&p, &t, SmoothState { angle: 10.0, ..SmoothState::DEFAULT }, None);
        assert!(out.crowded > 0);
        assert_eq!(out.normals.len(), p.len());
    }

    #[test]
    fn tangents_follow_u() {
        let p = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
        let n = vec![Vec3::Z; 3];
        let uv = vec![Vec2::ZERO, Vec2::X, Vec2::Y];
        let t = generate_tangents(&p, &n, &uv, &[[0, 1, 2]]);
        assert!(t[0].truncate().abs_diff_eq(Vec3::X, 1e-6));
        assert_eq!(t[0].w, 1.0);
        let uv = vec![Vec2::ZERO, Vec2::X, -Vec2::Y];
        assert_eq!(generate_tangents(&p, &n, &uv, &[[0, 1, 2]])[0].w, -1.0);
    }
}

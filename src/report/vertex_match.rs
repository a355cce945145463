//! Pairs the vertices of two exports of one asset by what they hold instead of by index. A converter orders
//! vertices its own way and welds equal ones (lsalzman/iqm's `iqm` does, and so does rigscope's own IQM
//! writer), so an IQM made from an IQE agrees with it vertex for vertex but not index for index; `diff` pairs
//! them here and then compares the skinned vertices of the pairs.
//!
//! Vertices pair within a mesh: the meshes of one name together (a converter may merge the meshes of one name
//! and material, as `iqm` does), and the vertices no triangle uses apart. Two vertices are counterparts when
//! their positions lie within the tolerance and, where both files have them, their UVs and normals lie within
//! it too and each joint's weight differs by at most [`WEIGHT_TOLERANCE`]. Welded duplicates all take the one
//! vertex they became, and a vertex the other file keeps twice finds either copy, so only a vertex with no
//! counterpart at all is a difference.
//!
//! Candidates come from each side sorted on its quantised position: cells of 16 tolerances, so the box of one
//! tolerance around a vertex spans one cell along most axes and never more than two, and cells that are
//! neighbours along X are neighbours in the sort, so a vertex reads at most four runs of the other side. Taken
//! in the order of their cells, the vertices find those runs with cursors that only move forward: two sorts
//! and a walk, under the 50 ms goal for two meshes of 100 000 vertices on two cores (BENCHMARKS.md), where
//! comparing every pair would be 10¹⁰ comparisons.

use glam::{Vec2, Vec3};
use serde::Serialize;

use crate::scene::Scene;

/// No counterpart.
pub const NONE: u32 = u32::MAX;

/// How far one joint's weight may move between counterparts: IQM stores weights as bytes, rounded to the
/// nearest 1/255, and the reference converter then moves one of them by a further 1/255 so that the bytes sum
/// to 255. A real reweighting changes the skinned vertices, which `diff` compares on the pairs anyway.
pub const WEIGHT_TOLERANCE: f32 = 1.5 / 255.0;

/// Finding the nearest vertex for each vertex without a counterpart compares it with every candidate in its
/// mesh; past this many comparisons in all (two unrelated meshes of 4 500 vertices, some 20 ms) the nearest is
/// not looked for and the report gives the count alone.
const NEAREST_BUDGET: u64 = 20_000_000;

/// Which vertex of the other file each vertex corresponds to.
#[derive(Debug, Clone, Default)]
pub struct VertexMatch {
    /// For each vertex of OLD, its counterpart in NEW, or [`NONE`].
    pub old_to_new: Vec<u32>,
    /// For each vertex of NEW, its counterpart in OLD, or [`NONE`].
    pub new_to_old: Vec<u32>,
    /// Of the vertices left without a counterpart, the one farthest from the nearest vertex of the other file
    /// in its mesh (one a triangle uses, when there is one); `None` when every vertex has a counterpart.
    pub worst: Option<Unmatched>,
    /// How many of OLD's and of NEW's vertices without a counterpart no triangle uses: a writer may drop
    /// those (glTF has no place for them), a difference nobody sees.
    pub loose_unmatched: [usize; 2],
}

/// A vertex without a counterpart, and the vertex of the other file nearest to it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Unmatched {
    /// `"old"` or `"new"`: the file the vertex is in.
    pub file: &'static str,
    pub vertex: usize,
    /// The mesh it was looked for in; `None` for a vertex no triangle uses (looked for among all vertices).
    pub mesh: Option<String>,
    /// The nearest vertex of the other file in that mesh (those also without a counterpart first, so a moved
    /// vertex finds where it went), and how far; `None` when the mesh has none or is past the search budget.
    pub nearest: Option<usize>,
    pub distance: Option<f32>,
    /// What else differs from that vertex beyond the tolerance: `"uv"`, `"normal"`, `"weights"`.
    pub differs: Vec<&'static str>,
}

impl VertexMatch {
    pub fn unmatched_old(&self) -> usize {
        self.old_to_new.iter().filter(|&&m| m == NONE).count()
    }

    pub fn unmatched_new(&self) -> usize {
        self.new_to_old.iter().filter(|&&m| m == NONE).count()
    }

    /// Every vertex has a counterpart: the files differ in vertex order and welding only.
    pub fn complete(&self) -> bool {
        self.worst.is_none()
    }

    /// Vertices of OLD that share their counterpart with another vertex of OLD (welded in NEW).
    pub fn welded_old(&self) -> usize {
        welded(&self.old_to_new, self.new_to_old.len())
    }

    /// Vertices of NEW that share their counterpart with another vertex of NEW (welded in OLD).
    pub fn welded_new(&self) -> usize {
        welded(&self.new_to_old, self.old_to_new.len())
    }

    /// (OLD, NEW) pairs to compare: every vertex of OLD with its counterpart, then the vertices of NEW that no
    /// vertex of OLD took (the other copies of a vertex OLD welded), with theirs. Every vertex of either file
    /// that has a counterpart is in at least one pair.
    pub fn pairs(&self) -> Vec<(u32, u32)> {
        let mut taken = vec![false; self.new_to_old.len()];
        let mut out = Vec::with_capacity(self.old_to_new.len());
        for (i, &m) in self.old_to_new.iter().enumerate() {
            if m != NONE {
                taken[m as usize] = true;
                out.push((i as u32, m));
            }
        }
        for (j, &m) in self.new_to_old.iter().enumerate() {
            if m != NONE && !taken[j] {
                out.push((m, j as u32));
            }
        }
        out
    }
}

/// How many entries of `map` point at a target an earlier entry already took.
fn welded(map: &[u32], targets: usize) -> usize {
    let mut seen = vec![false; targets];
    let mut n = 0;
    for &m in map.iter().filter(|&&m| m != NONE) {
        n += usize::from(std::mem::replace(&mut seen[m as usize], true));
    }
    n
}

/// Up to four (joint, weight) influences sorted by joint, duplicates summed, zero weights left out; the rest
/// padded with (`u32::MAX`, 0). Joints are NEW's indices (OLD's mapped by name), so the two files compare.
type Influences = [(u32, f32); 4];

/// One vertex as the comparison reads it, in one cache line: pairing reads a vertex's fields together, and
/// from the scene's separate streams each field was a cache miss of its own.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Vertex {
    pos: Vec3,
    /// Zero in both files unless both have the stream: a stream only one file has neither pairs vertices nor
    /// keeps them apart.
    uv: Vec2,
    normal: Vec3,
    influences: Influences,
}

/// Pairs the vertices of `old` and `new`; positions, UVs and normals within `tolerance` are equal.
pub fn match_vertices(old: &Scene, new: &Scene, tolerance: f32) -> VertexMatch {
    let [a, b] = Source::both(old, new);
    let groups = groups(old, new);
    let grid = Grid::new(&a, &b, tolerance);
    let mut m = VertexMatch {
        old_to_new: vec![NONE; a.len()],
        new_to_old: vec![NONE; b.len()],
        worst: None,
        loose_unmatched: [0; 2],
    };
    // Vertices no triangle uses belong to no mesh, so they look among all the other file's.
    let all: [Vec<u32>; 2] = if groups.iter().any(|g| g.anywhere) {
        [(0..a.len() as u32).collect(), (0..b.len() as u32).collect()]
    } else {
        Default::default()
    };
    for g in &groups {
        let [va, vb] = &g.vertices;
        let [pa, pb] = g.pools(&all);
        // Sorting and copying are most of the work, and the two sides' are independent.
        let (sorted, queries) = rayon::join(|| grid.sorted(&b, pb), || grid.sorted(&a, va));
        let mut taken = sorted.taken(&m.new_to_old);
        let mut cursors = [0; 9];
        for (&(_, i), v) in queries.entries.iter().zip(&queries.vertices) {
            if let Some(k) = grid.find(v, &sorted, &taken, tolerance, Some(&mut cursors)) {
                let j = sorted.entries[k].1;
                taken[k] = true;
                m.old_to_new[i as usize] = j;
                if m.new_to_old[j as usize] == NONE {
                    m.new_to_old[j as usize] = i;
                }
            }
        }
        // NEW's vertices that no vertex of OLD took: the second copy of a vertex OLD welded, or one with none.
        let rest: Vec<u32> = vb.iter().copied().filter(|&j| m.new_to_old[j as usize] == NONE).collect();
        if !rest.is_empty() {
            let sorted = grid.sorted(&a, pa);
            let taken = sorted.taken(&m.old_to_new);
            for j in rest {
                let k = grid.find(&b.vertex(j), &sorted, &taken, tolerance, None);
                m.new_to_old[j as usize] = k.map_or(NONE, |k| sorted.entries[k].1);
            }
        }
    }
    for g in groups.iter().filter(|g| g.anywhere) {
        let lost = |vs: &[u32], map: &[u32]| vs.iter().filter(|&&v| map[v as usize] == NONE).count();
        m.loose_unmatched = [lost(&g.vertices[0], &m.old_to_new), lost(&g.vertices[1], &m.new_to_old)];
    }
    m.worst = worst(&m, &groups, &all, &a, &b, tolerance);
    m
}

/// One file's vertex streams, read as [`Vertex`]es with the streams both files have. Vertices are made where
/// they are read, in the order the search reads them: copying each file in index order first cost page faults
/// that took a sixth of the time.
struct Source<'a> {
    v: &'a crate::scene::VertexStreams,
    uv: bool,
    normal: bool,
    /// The joint numbering influences are compared in (NEW's), when both files are skinned.
    joints: Option<Vec<u32>>,
}

impl Source<'_> {
    fn both<'a>(old: &'a Scene, new: &'a Scene) -> [Source<'a>; 2] {
        let (va, vb) = (&old.vertices, &new.vertices);
        let uv = va.texcoords.is_some() && vb.texcoords.is_some();
        let normal = va.normals.is_some() && vb.normals.is_some();
        let skinned = va.is_skinned() && vb.is_skinned();
        // OLD's joints in NEW's numbering.
        let map = (0..old.skeleton.len() as u32)
            .map(|i| new.skeleton.counterpart(&old.skeleton, i as usize).map_or(absent(i), |k| k as u32))
            .collect();
        let identity = (0..new.skeleton.len() as u32).collect();
        [
            Source { v: va, uv, normal, joints: skinned.then_some(map) },
            Source { v: vb, uv, normal, joints: skinned.then_some(identity) },
        ]
    }

    fn len(&self) -> usize {
        self.v.len()
    }

    fn pos(&self, i: u32) -> Vec3 {
        self.v.positions[i as usize]
    }

    fn vertex(&self, i: u32) -> Vertex {
        fn at<T: Copy>(s: &Option<Vec<T>>, on: bool, i: usize) -> Option<T> {
            s.as_ref().filter(|_| on).and_then(|s| s.get(i).copied())
        }
        let (v, i) = (self.v, i as usize);
        let skinned = self.joints.is_some();
        Vertex {
            pos: v.positions[i],
            uv: at(&v.texcoords, self.uv, i).unwrap_or_default(),
            normal: at(&v.normals, self.normal, i).unwrap_or_default(),
            influences: match (at(&v.joints, skinned, i), at(&v.weights, skinned, i), &self.joints) {
                (Some(j), Some(w), Some(map)) => {
                    influences(j, w, |j| map.get(j as usize).copied().unwrap_or(absent(j)))
                }
                _ => [(u32::MAX, 0.0); 4],
            },
        }
    }
}

/// The number given to joint `j` of one file when the other has no such joint: one no joint has (skeletons
/// are far smaller than 2³¹), and not the padding's `u32::MAX`.
fn absent(j: u32) -> u32 {
    (u32::MAX - 1).saturating_sub(j)
}

fn influences(joints: [u32; 4], weights: [f32; 4], joint: impl Fn(u32) -> u32) -> Influences {
    let mut out = [(u32::MAX, 0.0f32); 4];
    let mut n = 0;
    for (j, w) in joints.into_iter().zip(weights).filter(|(_, w)| *w != 0.0) {
        let j = joint(j);
        match out[..n].iter_mut().find(|e| e.0 == j) {
            Some(e) => e.1 += w,
            None => {
                out[n] = (j, w);
                n += 1;
            }
        }
    }
    out[..n].sort_unstable_by_key(|e| e.0);
    out
}

/// The largest difference of one joint's weight between two vertices (a joint one lacks weighs 0 there).
fn weight_gap(a: &Influences, b: &Influences) -> f32 {
    let (mut i, mut j, mut gap) = (0, 0, 0.0f32);
    while i < 4 || j < 4 {
        let (ja, jb) = (a.get(i).map_or(u32::MAX, |e| e.0), b.get(j).map_or(u32::MAX, |e| e.0));
        let (wa, wb) = (a.get(i).map_or(0.0, |e| e.1), b.get(j).map_or(0.0, |e| e.1));
        if ja == jb {
            gap = gap.max((wa - wb).abs());
            (i, j) = (i + 1, j + 1);
        } else if ja < jb {
            gap = gap.max(wa.abs());
            i += 1;
        } else {
            gap = gap.max(wb.abs());
            j += 1;
        }
    }
    gap
}

/// Which of UV, normal and weights agree between two vertices (a stream the files don't both have is zero in
/// both, so it agrees). NaN agrees with nothing.
fn agree(a: &Vertex, b: &Vertex, tolerance: f32) -> [bool; 3] {
    [
        a.uv.distance(b.uv) <= tolerance,
        a.normal.distance(b.normal) <= tolerance,
        weight_gap(&a.influences, &b.influences) <= WEIGHT_TOLERANCE.max(tolerance),
    ]
}

/// What differs between two vertices beyond the tolerance, besides position.
fn differs(a: &Vertex, b: &Vertex, tolerance: f32) -> Vec<&'static str> {
    let ok = agree(a, b, tolerance);
    ["uv", "normal", "weights"].into_iter().zip(ok).filter(|(_, ok)| !ok).map(|(what, _)| what).collect()
}

/// Vertices that pair only with each other: those the triangles of the meshes of one name use in each file.
struct Group {
    /// The meshes' name; `None` for the last group, of vertices no triangle uses.
    mesh: Option<String>,
    /// OLD's vertices, NEW's vertices.
    vertices: [Vec<u32>; 2],
    /// The vertices look for counterparts among all of the other file's (those no triangle uses).
    anywhere: bool,
}

impl Group {
    /// Where OLD's and NEW's counterparts are looked for.
    fn pools<'a>(&'a self, all: &'a [Vec<u32>; 2]) -> [&'a [u32]; 2] {
        if self.anywhere { [&all[0], &all[1]] } else { [&self.vertices[0], &self.vertices[1]] }
    }
}

/// One group per mesh name (OLD's order, then names only NEW has), then the vertices no triangle uses.
fn groups(old: &Scene, new: &Scene) -> Vec<Group> {
    let mut names: Vec<&str> = Vec::new();
    for m in old.meshes.iter().chain(&new.meshes) {
        if !names.contains(&m.name.as_str()) {
            names.push(&m.name);
        }
    }
    let mut out: Vec<Group> = names
        .iter()
        .map(|n| Some(n.to_string()))
        .chain([None])
        .map(|mesh| Group { anywhere: mesh.is_none(), mesh, vertices: [Vec::new(), Vec::new()] })
        .collect();
    for (side, scene) in [old, new].into_iter().enumerate() {
        // The group each vertex was last listed in: the meshes of a group are read one after another, so a
        // vertex two of them share is listed once.
        let mut stamp = vec![usize::MAX; scene.vertices.len()];
        for (g, name) in names.iter().enumerate() {
            for m in scene.meshes.iter().filter(|m| m.name == *name) {
                let start = m.first_triangle as usize;
                let tris = scene.triangles.get(start..start.saturating_add(m.num_triangles as usize)).unwrap_or(&[]);
                for &v in tris.iter().flatten() {
                    if let Some(s) = stamp.get_mut(v as usize)
                        && *s != g
                    {
                        *s = g;
                        out[g].vertices[side].push(v);
                    }
                }
            }
        }
        let loose = &mut out[names.len()].vertices[side];
        loose.extend((0..scene.vertices.len() as u32).filter(|&v| stamp[v as usize] == usize::MAX));
    }
    out.retain(|g| !g.vertices.iter().all(Vec::is_empty));
    out
}

/// A grid cell's edge in tolerances: wide enough that a vertex's box of one tolerance stays inside its own cell
/// along an axis seven times in eight, narrow enough that a cell holds few vertices that aren't at one point.
const CELL: f32 = 16.0;

/// One side's vertices in the order of their cells' keys, each with its key and index, and a copy of its data:
/// a run of cells is then read from memory in order (reading the vertices where they lie, a cache miss each,
/// was most of the search's time).
struct Sorted {
    entries: Vec<(u64, u32)>,
    vertices: Vec<Vertex>,
}

impl Sorted {
    /// Which of the vertices, in this order, `counterparts` gives a counterpart already.
    fn taken(&self, counterparts: &[u32]) -> Vec<bool> {
        self.entries.iter().map(|&(_, v)| counterparts[v as usize] != NONE).collect()
    }
}

/// Positions quantised to cells of at least [`CELL`] tolerances.
struct Grid {
    /// 1 / the cell's edge.
    inverse: f32,
}

/// Cell coordinates are clamped to ±2²⁰ (21 bits each in a key); the cell is at least 2⁻¹⁹ of the largest
/// coordinate, so only infinities are clamped.
const COORD_LIMIT: i32 = 1 << 20;

impl Grid {
    fn new(a: &Source, b: &Source, tolerance: f32) -> Grid {
        let positions = a.v.positions.iter().chain(&b.v.positions);
        let extent = positions.map(|p| p.abs().max_element()).filter(|x| x.is_finite()).fold(0.0f32, f32::max);
        // A floor well above the smallest normal f32 keeps 1 / cell finite when the tolerance and every
        // coordinate are 0.
        let cell = (CELL * tolerance).max(extent / (1 << 19) as f32).max(1e-30);
        Grid { inverse: 1.0 / cell }
    }

    /// The cell coordinate of `x`. A rounded product by a constant is as monotonic as `x`, which is all the
    /// search needs.
    fn coord(&self, x: f32) -> i32 {
        let q = x * self.inverse;
        // `as` saturates and makes NaN 0 (a NaN position then fails every distance test); stepping down for
        // negative fractions floors without a call into libm (`floorf` took a sixteenth of the time).
        let t = q as i32;
        let floor = if (t as f32) > q { t.saturating_sub(1) } else { t };
        floor.clamp(-COORD_LIMIT, COORD_LIMIT - 1)
    }

    /// X in the low bits, so cells side by side along X are neighbours in the sorted order.
    fn key(c: [i32; 3]) -> u64 {
        let u = |v: i32| (v + COORD_LIMIT) as u64;
        (u(c[2]) << 42) | (u(c[1]) << 21) | u(c[0])
    }

    /// `vertices` of `side` in the order of their cells' keys.
    fn sorted(&self, side: &Source, vertices: &[u32]) -> Sorted {
        let mut entries: Vec<(u64, u32)> = vertices
            .iter()
            .map(|&v| {
                let p = side.pos(v);
                (Grid::key([self.coord(p.x), self.coord(p.y), self.coord(p.z)]), v)
            })
            .collect();
        entries.sort_unstable();
        let vertices = entries.iter().map(|&(_, v)| side.vertex(v)).collect();
        Sorted { entries, vertices }
    }

    /// The counterpart of vertex `v` among `sorted` (vertices of the other file), as its place there: the
    /// nearest by position of those that match; among equally near ones, one no vertex has taken yet (`taken`,
    /// in `sorted`'s order), so that a vertex both files keep twice pairs copy with copy instead of counting as
    /// welded; then the lowest index.
    ///
    /// Each row of cells (one Y and Z, X from the vertex's box) is a run of `sorted`, found by a binary search,
    /// or with `walk` by a cursor per neighbouring row that only moves forward: when vertices are asked in the
    /// order of their own cells' keys, a row's start only grows, so `sorted` is walked once per row offset
    /// (a binary search per row made the whole pairing about 1.6× slower on 100 000 vertices).
    fn find(
        &self,
        v: &Vertex,
        sorted: &Sorted,
        taken: &[bool],
        tolerance: f32,
        mut walk: Option<&mut [usize; 9]>,
    ) -> Option<usize> {
        let p = v.pos;
        let keys = &sorted.entries;
        // A hair wider than the tolerance, so that rounding in `p ± tolerance` cannot miss a cell; still under
        // a cell, since a cell is at least 2⁻¹⁹ of the largest coordinate.
        let reach = tolerance * 1.001 + f32::EPSILON * p.abs().max_element();
        let (lo, hi) = (p - reach, p + reach);
        let own = [self.coord(p.x), self.coord(p.y), self.coord(p.z)];
        let mut best: Option<(f32, bool, u32, usize)> = None;
        for z in self.coord(lo.z)..=self.coord(hi.z) {
            for y in self.coord(lo.y)..=self.coord(hi.y) {
                let (from, to) = (Grid::key([self.coord(lo.x), y, z]), Grid::key([self.coord(hi.x), y, z]));
                let (dy, dz) = (y - own[1] + 1, z - own[2] + 1);
                let start = match walk.as_deref_mut() {
                    Some(cursors) if (0..3).contains(&dy) && (0..3).contains(&dz) => {
                        // The row's first cell this vertex could reach, from its own cell: as monotonic as it.
                        let floor = Grid::key([(own[0] - 1).max(-COORD_LIMIT), y, z]);
                        let at = &mut cursors[(dz * 3 + dy) as usize];
                        while keys.get(*at).is_some_and(|e| e.0 < floor) {
                            *at += 1;
                        }
                        *at
                    }
                    _ => keys.partition_point(|e| e.0 < from),
                };
                let run = (start..keys.len()).map(|k| (keys[k].0, k));
                for (_, k) in run.skip_while(|e| e.0 < from).take_while(|e| e.0 <= to) {
                    let w = &sorted.vertices[k];
                    let d = p.distance(w.pos);
                    let here = (d, taken[k], keys[k].1, k);
                    if d <= tolerance && best.is_none_or(|b| here < b) && agree(v, w, tolerance) == [true; 3] {
                        best = Some(here);
                    }
                }
            }
        }
        best.map(|(.., k)| k)
    }
}

/// The vertex without a counterpart that lies farthest from the nearest vertex of the other file in its group.
fn worst(
    m: &VertexMatch,
    groups: &[Group],
    all: &[Vec<u32>; 2],
    a: &Source,
    b: &Source,
    tolerance: f32,
) -> Option<Unmatched> {
    let mut worst: Option<Unmatched> = None;
    let mut budget = NEAREST_BUDGET;
    for g in groups {
        let [va, vb] = &g.vertices;
        let [pa, pb] = g.pools(all);
        for (file, this, mine, theirs, map, other_map, other) in
            [("old", a, va, pb, &m.old_to_new, &m.new_to_old, b), ("new", b, vb, pa, &m.new_to_old, &m.old_to_new, a)]
        {
            let lost: Vec<u32> = mine.iter().copied().filter(|&v| map[v as usize] == NONE).collect();
            if lost.is_empty() {
                continue;
            }
            // Those of the other file also without a counterpart first: a moved vertex finds where it went.
            let theirs_lost: Vec<u32> = theirs.iter().copied().filter(|&v| other_map[v as usize] == NONE).collect();
            let candidates = if theirs_lost.is_empty() { theirs } else { &theirs_lost[..] };
            let cost = lost.len() as u64 * candidates.len() as u64;
            let affordable = cost <= budget;
            budget = budget.saturating_sub(cost);
            for &v in &lost {
                let p = this.pos(v);
                let nearest = affordable
                    .then(|| {
                        candidates
                            .iter()
                            .map(|&w| (p.distance(other.pos(w)), w))
                            .filter(|(d, _)| !d.is_nan())
                            .min_by(|x, y| x.0.total_cmp(&y.0))
                    })
                    .flatten();
                // A vertex a triangle uses before one none does, then the farthest.
                let rank = |u: &Unmatched| (u.mesh.is_some(), u.distance.unwrap_or(-1.0));
                let here = Unmatched {
                    file,
                    vertex: v as usize,
                    mesh: g.mesh.clone(),
                    nearest: nearest.map(|n| n.1 as usize),
                    distance: nearest.map(|n| n.0),
                    differs: nearest
                        .map_or_else(Vec::new, |(_, w)| differs(&this.vertex(v), &other.vertex(w), tolerance)),
                };
                if worst.as_ref().is_none_or(|w| rank(&here) > rank(w)) {
                    worst = Some(here);
                }
            }
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{SynthSpec, iqm_bytes, shuffled};

    const TOL: f32 = 1e-4;

    /// 10 rows of 256 vertices, weighted between 4 joints by row.
    fn grid() -> Scene {
        crate::load_bytes("g.iqm", &iqm_bytes(SynthSpec { vertices: 2560, joints: 4, frames: 1 })).unwrap()
    }

    fn uv(s: &Scene, v: u32) -> Vec2 {
        s.vertices.texcoords.as_ref().unwrap()[v as usize]
    }

    #[test]
    fn a_shuffled_copy_pairs_every_vertex_with_its_original() {
        let a = grid();
        let b = shuffled(&a, 3, 4);
        let m = match_vertices(&a, &b, TOL);
        assert!(m.complete(), "{:?}", m.worst);
        // NEW keeps every fourth vertex twice; OLD has one of each.
        assert_eq!((m.welded_old(), m.welded_new()), (0, 640));
        let pairs = m.pairs();
        assert_eq!(pairs.len(), b.vertices.len(), "every vertex of NEW in a pair");
        for (i, j) in pairs {
            assert_eq!(a.vertices.positions[i as usize], b.vertices.positions[j as usize]);
            assert_eq!(uv(&a, i), uv(&b, j));
        }
        // The other way round, the copies are OLD's and pair with one vertex of NEW each.
        let back = match_vertices(&b, &a, TOL);
        assert!(back.complete());
        assert_eq!((back.welded_old(), back.welded_new()), (640, 0));
    }

    #[test]
    fn vertices_at_one_point_pair_by_uv() {
        let mut a = grid();
        // A seam: vertex 1 moved onto vertex 0, keeping its own UV.
        a.vertices.positions[1] = a.vertices.positions[0];
        let b = shuffled(&a, 5, 0);
        let m = match_vertices(&a, &b, TOL);
        assert!(m.complete(), "{:?}", m.worst);
        for i in [0, 1] {
            assert_eq!(uv(&a, i), uv(&b, m.old_to_new[i as usize]), "vertex {i}");
        }
        assert_ne!(m.old_to_new[0], m.old_to_new[1]);
    }

    #[test]
    fn weights_pair_within_a_byte_step_and_not_beyond() {
        let a = grid();
        let mut b = shuffled(&a, 9, 0);
        let v = (0..b.vertices.len()).find(|&v| b.vertices.weights.as_ref().unwrap()[v][1] > 0.1).unwrap();
        let w = &mut b.vertices.weights.as_mut().unwrap()[v];
        (w[0], w[1]) = (w[0] + 1.0 / 255.0, w[1] - 1.0 / 255.0);
        assert!(match_vertices(&a, &b, TOL).complete(), "one byte step is IQM's rounding");
        let w = &mut b.vertices.weights.as_mut().unwrap()[v];
        (w[0], w[1]) = (w[0] + 0.1, w[1] - 0.1);
        let m = match_vertices(&a, &b, TOL);
        assert_eq!((m.unmatched_old(), m.unmatched_new()), (1, 1));
        let worst = m.worst.unwrap();
        assert_eq!((worst.distance, worst.differs), (Some(0.0), vec!["weights"]));
    }

    #[test]
    fn a_moved_vertex_is_unmatched_and_found_where_it_went() {
        let a = grid();
        let mut b = shuffled(&a, 11, 0);
        b.vertices.positions[100].y += 0.5;
        let m = match_vertices(&a, &b, TOL);
        assert_eq!((m.unmatched_old(), m.unmatched_new()), (1, 1));
        let worst = m.worst.unwrap();
        let moved = if worst.file == "old" { worst.nearest } else { Some(worst.vertex) };
        assert_eq!(moved, Some(100));
        assert!((worst.distance.unwrap() - 0.5).abs() < 1e-5, "{worst:?}");
        assert_eq!(worst.mesh.as_deref(), Some("grid"));
    }

    #[test]
    fn counterparts_on_either_side_of_a_cell_edge_pair() {
        let mut a = grid();
        let mut b = a.clone();
        let edge = (5.0 / (CELL * TOL)).round() * (CELL * TOL);
        let (below, above) = (edge - 0.25 * TOL, edge + 0.25 * TOL);
        // Across X, Y, Z and all three (0.87 tolerances apart), each both ways: the counterpart one cell down
        // or up.
        let mut cases = Vec::new();
        for (k, axes) in
            [[true, false, false], [false, true, false], [false, false, true], [true; 3]].iter().enumerate()
        {
            for (n, (x, y)) in [(below, above), (above, below)].into_iter().enumerate() {
                let v = 100 + 300 * k + n;
                for (axis, &on) in axes.iter().enumerate() {
                    if on {
                        a.vertices.positions[v][axis] = x;
                        b.vertices.positions[v][axis] = y;
                    }
                }
                cases.push(v);
            }
        }
        let m = match_vertices(&a, &b, TOL);
        for v in cases {
            assert_eq!(m.old_to_new[v], v as u32, "vertex {v}: {:?}", m.worst);
        }
        assert!(m.complete());
    }

    #[test]
    fn a_nan_position_pairs_with_nothing() {
        let mut a = grid();
        a.vertices.positions[3].x = f32::NAN;
        let b = a.clone();
        let m = match_vertices(&a, &b, TOL);
        assert_eq!((m.old_to_new[3], m.new_to_old[3]), (NONE, NONE));
        assert_eq!(m.unmatched_old() + m.unmatched_new(), 2);
    }

    #[test]
    fn weight_gap_counts_a_joint_one_side_lacks_as_weight_zero() {
        let pad = (u32::MAX, 0.0);
        let a = [(1, 0.5), (3, 0.5), pad, pad];
        let b = [(1, 0.5), (2, 0.25), (3, 0.25), pad];
        assert_eq!(weight_gap(&a, &b), 0.25);
        assert_eq!(weight_gap(&a, &a), 0.0);
        assert_eq!(weight_gap(&[(7, 1.0), pad, pad, pad], &[(8, 1.0), pad, pad, pad]), 1.0);
    }
}

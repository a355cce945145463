//! Skinning on the CPU, for `pose --vertices`, computed bounds, picking and checks: linear blend skinning, and
//! the spherical (PMX SDEF) and dual-quaternion (PMX QDEF) blends a mesh's [`VertexBlend`] asks for. The
//! renderer does the same on the GPU (shaders/skin.wgsl); this is the reference it is tested against.
//!
//! Every method gives each vertex one affine transform, so normals and tangents follow positions the same way
//! whatever the method: the spherical and dual-quaternion transforms are rigid.

use glam::{Mat3, Mat4, Quat, Vec3, Vec4};

use crate::scene::{BlendMethod, FrameBounds, SphericalBlend, VertexBlend, VertexStreams};

/// The blended skinning matrix of one vertex, or `None` for an unskinned vertex (no influences or zero
/// weight sum: it stays in the bind pose).
fn blend(joints: &[u32; 4], weights: &[f32; 4], palette: &[Mat4]) -> Option<Mat4> {
    let mut m = Mat4::ZERO;
    let mut total = 0.0;
    // Sum all four slots: unused slots have weight 0, and a zero weight may precede a used slot.
    for (&j, &w) in joints.iter().zip(weights) {
        if w != 0.0 {
            let k = palette.get(j as usize)?;
            m += *k * w;
            total += w;
        }
    }
    (total != 0.0).then_some(m)
}

/// Vertex `i`'s skinning transform under `palette`, by its blend method; `None` leaves it in the bind pose.
fn vertex_transform(
    joints: &[u32; 4],
    weights: &[f32; 4],
    palette: &[Mat4],
    blend_of: Option<&VertexBlend>,
    i: usize,
) -> Option<Mat4> {
    match blend_of.map(|b| b.of(i)) {
        Some((BlendMethod::Spherical(_), Some(s))) => {
            spherical(joints, weights[0], s, palette).or_else(|| blend(joints, weights, palette))
        }
        Some((BlendMethod::DualQuaternion, _)) => dual_quaternion(joints, weights, palette),
        _ => blend(joints, weights, palette),
    }
}

/// The points a spherical vertex's joints carry, from its parameters and the first joint's weight `w0`: the
/// centre `c` and the midpoints of `c` with R0 and R1 corrected so that their weighted mean is `c`, as
/// MikuMikuDance's runtimes compute them (babylon-mmd's loader, saba). The GPU gets these three points.
pub fn spherical_points(s: &SphericalBlend, w0: f32) -> [Vec3; 3] {
    let w1 = 1.0 - w0;
    let mean = s.r0 * w0 + s.r1 * w1;
    let (r0, r1) = (s.c + s.r0 - mean, s.c + s.r1 - mean);
    [s.c, (s.c + r0) * 0.5, (s.c + r1) * 0.5]
}

/// Spherical deformation (PMX SDEF) between joints 0 and 1 with weight `w0` on the first: the joints' rotations
/// slerped by the second's weight turn the vertex about the centre, which goes where the two joints carry
/// their corrected midpoints, weighted. `None` (blend linearly) when a joint is outside the palette, or when
/// the first midpoint's x is exactly 0: babylon-mmd reads that as a vertex without SDEF parameters (an SDEF
/// vertex written with all three points zero has it).
fn spherical(joints: &[u32; 4], w0: f32, s: &SphericalBlend, palette: &[Mat4]) -> Option<Mat4> {
    let (m0, m1) = (palette.get(joints[0] as usize)?, palette.get(joints[1] as usize)?);
    let [c, p0, p1] = spherical_points(s, w0);
    if p0.x == 0.0 {
        return None;
    }
    let w1 = 1.0 - w0;
    let rotation = Mat3::from_quat(slerp_short(rotation_of(m0), rotation_of(m1), w1));
    let moved = m0.transform_point3(p0) * w0 + m1.transform_point3(p1) * w1;
    Some(Mat4::from_mat3_translation(rotation, moved - rotation * c))
}

/// The rotation of a skinning matrix (MikuMikuDance's bones have no scale), normalised.
fn rotation_of(m: &Mat4) -> Quat {
    Quat::from_mat3(&Mat3::from_mat4(*m)).normalize()
}

/// Spherical interpolation from `a` to `b` by `t` along the shorter arc; nearly equal rotations interpolate
/// linearly and renormalise (the shaders do the same, with the same threshold).
fn slerp_short(a: Quat, b: Quat, t: f32) -> Quat {
    let mut cos = a.dot(b);
    let b = if cos < 0.0 {
        cos = -cos;
        -b
    } else {
        b
    };
    if cos > 0.999_999 {
        return (a * (1.0 - t) + b * t).normalize();
    }
    let theta = cos.acos();
    let sin = theta.sin();
    a * (((1.0 - t) * theta).sin() / sin) + b * ((t * theta).sin() / sin)
}

/// Dual-quaternion skinning (PMX QDEF) over the four joints: each joint's rigid transform as a unit dual
/// quaternion, signs turned to agree with the first, summed by weight and normalised. `None` when no joint
/// with weight is in the palette.
fn dual_quaternion(joints: &[u32; 4], weights: &[f32; 4], palette: &[Mat4]) -> Option<Mat4> {
    let (mut real, mut dual) = (Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Quat::from_xyzw(0.0, 0.0, 0.0, 0.0));
    let mut first: Option<Quat> = None;
    for (&j, &w) in joints.iter().zip(weights) {
        if w == 0.0 {
            continue;
        }
        let m = palette.get(j as usize)?;
        let q = rotation_of(m);
        let t = m.w_axis.truncate();
        let q = match first {
            Some(f) if f.dot(q) < 0.0 => -q,
            Some(_) => q,
            None => {
                first = Some(q);
                q
            }
        };
        // The translation part: t·q/2, with t as a pure quaternion.
        let d = Quat::from_xyzw(t.x, t.y, t.z, 0.0) * q * 0.5;
        real += q * w;
        dual += d * w;
    }
    let len = real.length();
    if first.is_none() || len == 0.0 || !len.is_finite() {
        return None;
    }
    let (real, dual) = (real * (1.0 / len), dual * (1.0 / len));
    // Translation: 2·dual·conj(real), its vector part.
    let t = dual * real.conjugate() * 2.0;
    Some(Mat4::from_mat3_translation(Mat3::from_quat(real), Vec3::new(t.x, t.y, t.z)))
}

/// Vertex `i`'s skinning transform (`None`: bind pose, or no such vertex).
fn transform_of(vertices: &VertexStreams, palette: &[Mat4], i: usize) -> Option<Mat4> {
    let (js, ws) = vertices.joints.as_ref().zip(vertices.weights.as_ref())?;
    vertex_transform(js.get(i)?, ws.get(i)?, palette, vertices.blend.as_ref(), i)
}

/// Each vertex's skinning transform (`None`: bind pose), in order.
fn transforms<'a>(vertices: &'a VertexStreams, palette: &'a [Mat4]) -> impl Iterator<Item = Option<Mat4>> + 'a {
    (0..vertices.len()).map(move |i| transform_of(vertices, palette, i))
}

/// Skinned positions in the file's vertex order. Weights are used as stored (IQM bytes / 255), as engines do.
pub fn skin_positions(vertices: &VertexStreams, palette: &[Mat4]) -> Vec<Vec3> {
    vertices
        .positions
        .iter()
        .zip(transforms(vertices, palette))
        .map(|(p, m)| m.map_or(*p, |m| m.transform_point3(*p)))
        .collect()
}

/// Skinned normals: the inverse-transpose of each vertex's 3×3, renormalised.
pub fn skin_normals(vertices: &VertexStreams, palette: &[Mat4]) -> Option<Vec<Vec3>> {
    let normals = vertices.normals.as_ref()?;
    Some((0..normals.len()).filter_map(|i| skin_normal(vertices, palette, i)).collect())
}

/// Vertex `i`'s skinned normal, as [`skin_normals`] computes it; `None` without normals or past the end.
pub fn skin_normal(vertices: &VertexStreams, palette: &[Mat4], i: usize) -> Option<Vec3> {
    let n = *vertices.normals.as_ref()?.get(i)?;
    Some(match transform_of(vertices, palette, i) {
        Some(m) => (Mat3::from_mat4(m).inverse().transpose() * n).normalize_or_zero(),
        None => n,
    })
}

/// Skinned tangents: each vertex's 3×3 applied to the tangent's direction, renormalised; the handedness
/// (`w`) is kept. `None` when the vertices have no tangents.
pub fn skin_tangents(vertices: &VertexStreams, palette: &[Mat4]) -> Option<Vec<Vec4>> {
    let tangents = vertices.tangents.as_ref()?;
    Some(
        tangents
            .iter()
            .zip(transforms(vertices, palette))
            .map(|(t, m)| match m {
                Some(m) => (Mat3::from_mat4(m) * t.truncate()).normalize_or_zero().extend(t.w),
                None => *t,
            })
            .collect(),
    )
}

/// The bounds of the skinned mesh under `palette`; `None` when there are no vertices.
pub fn skinned_bounds(vertices: &VertexStreams, palette: &[Mat4]) -> Option<FrameBounds> {
    FrameBounds::of_points(&skin_positions(vertices, palette))
}

/// A set of influences as [`blend`] uses them: the nonzero weights in slot order, their joints checked.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Influences {
    count: u32,
    joints: [u32; 4],
    /// Weight bits, so that sets compare and hash exactly.
    weights: [u32; 4],
}

impl Influences {
    /// [`blend`]'s matrix for these influences (the same sum in the same order, so the same bits).
    #[inline]
    fn blend(&self, palette: &[Mat4]) -> Mat4 {
        let mut m = Mat4::ZERO;
        for s in 0..(self.count as usize).min(4) {
            m += palette[self.joints[s] as usize] * f32::from_bits(self.weights[s]);
        }
        m
    }
}

/// A vertex that stays in the bind pose has no set.
const UNSKINNED: u32 = u32::MAX;

/// The model as [`BoundsSkinner`] goes over it.
enum BoundsInput {
    /// Few influence sets, shared by many vertices: the sets, and the vertices that can decide the bounds
    /// with the index of their set ([`UNSKINNED`] for none).
    Shared { sets: Vec<Influences>, points: Vec<(Vec3, u32)> },
    /// Each vertex with its own influences (a count of 0 for none).
    Own(Vec<(Vec3, Influences)>),
}

/// Vertices whose influence sets are counted to choose between the two forms of [`BoundsInput`].
const SAMPLE: usize = 8192;

/// Vertices skinned per block when each vertex blends its own matrices: every frame's palette goes over one
/// block before the next, which stays in the core's cache meanwhile.
const BLOCK: usize = 2048;

/// [`skinned_bounds`] under each palette, the same bounds to the bit, for many frames at once
/// ([`BoundsSkinner`] for a model whose frames are split among callers).
pub fn skinned_bounds_many(vertices: &VertexStreams, palettes: &[&[Mat4]]) -> Vec<Option<FrameBounds>> {
    let joints = palettes.first().map_or(0, |p| p.len());
    BoundsSkinner::new(vertices, joints).bounds(palettes)
}

/// A model prepared for the skinned bounds of many frames under palettes of one length:
/// [`BoundsSkinner::bounds`] gives [`skinned_bounds`]'s answer to the bit.
///
/// Each vertex's influences are sorted out once rather than every frame (zero weights dropped, joints
/// checked, zero sums found), and no skinned positions are stored. Vertices that repeat another's position
/// and influences (UV and normal seams) are skinned once: the last of them is kept, which keeps the result
/// the same even for ties between `0.0` and `-0.0` (the later point wins a tie, see [`crate::scene::BoundsAccumulator`]).
/// When few distinct influence sets are shared by many vertices (weights stored as bytes make them repeat),
/// each set's matrix is blended once per frame; otherwise the vertices go through the cache in blocks, once
/// for all frames. A frame whose skinned points include a NaN, where order would matter, is redone by
/// [`skinned_bounds`].
pub struct BoundsSkinner<'a> {
    vertices: &'a VertexStreams,
    joints: usize,
    input: BoundsInput,
}

impl<'a> BoundsSkinner<'a> {
    pub fn new(vertices: &'a VertexStreams, joints: usize) -> Self {
        BoundsSkinner { vertices, joints, input: bounds_input(vertices, joints) }
    }

    /// The bounds under each palette.
    pub fn bounds(&self, palettes: &[&[Mat4]]) -> Vec<Option<FrameBounds>> {
        // Spherical and dual-quaternion vertices have no shared matrix to blend once: each frame on its own.
        if palettes.iter().any(|p| p.len() != self.joints) || self.vertices.blend.is_some() {
            return palettes.iter().map(|p| skinned_bounds(self.vertices, p)).collect();
        }
        let mut acc = vec![FrameAccumulator::new(); palettes.len()];
        match &self.input {
            BoundsInput::Shared { sets, points } => {
                let mut blended = Vec::with_capacity(sets.len());
                for (palette, acc) in palettes.iter().zip(acc.iter_mut()) {
                    blended.clear();
                    blended.extend(sets.iter().map(|s| s.blend(palette)));
                    for &(p, set) in points {
                        acc.add(match blended.get(set as usize) {
                            Some(m) => transform_point(m, p),
                            None => p.extend(0.0),
                        });
                    }
                }
            }
            BoundsInput::Own(points) => {
                for block in points.chunks(BLOCK) {
                    for (palette, acc) in palettes.iter().zip(acc.iter_mut()) {
                        for (p, set) in block {
                            acc.add(if set.count == 0 {
                                p.extend(0.0)
                            } else {
                                transform_point(&set.blend(palette), *p)
                            });
                        }
                    }
                }
            }
        }
        acc.iter()
            .zip(palettes)
            .map(|(acc, palette)| match acc.count {
                0 => None,
                _ => acc.finish().or_else(|| skinned_bounds(self.vertices, palette)),
            })
            .collect()
    }
}

/// `Mat4::transform_point3`'s arithmetic, in its order, leaving the point in its register (`w` is not
/// meaningful).
#[inline]
fn transform_point(m: &Mat4, p: Vec3) -> Vec4 {
    let mut res = m.x_axis * p.x;
    res = m.y_axis * p.y + res;
    res = m.z_axis * p.z + res;
    m.w_axis + res
}

/// [`crate::scene::BoundsAccumulator`] for points in SIMD registers, the same bounds to the bit for points without a NaN:
/// the box starts empty (infinite) rather than at the first point, which the first point's `min`/`max` then
/// gives anyway, and the radii use plain comparisons, which agree with `f32::max` on numbers. A sum of the
/// points tells whether a NaN came by (an overflow to opposite infinities also shows up there), and then
/// [`FrameAccumulator::finish`] gives `None` for the caller to redo the frame the slow way.
#[derive(Clone, Copy)]
struct FrameAccumulator {
    min: Vec4,
    max: Vec4,
    xy2: f32,
    r2: f32,
    sum: Vec4,
    count: usize,
}

impl FrameAccumulator {
    fn new() -> Self {
        FrameAccumulator { min: Vec4::INFINITY, max: Vec4::NEG_INFINITY, xy2: 0.0, r2: 0.0, sum: Vec4::ZERO, count: 0 }
    }

    #[inline]
    fn add(&mut self, p: Vec4) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
        let xy = p.x * p.x + p.y * p.y;
        let r = xy + p.z * p.z;
        self.xy2 = if xy > self.xy2 { xy } else { self.xy2 };
        self.r2 = if r > self.r2 { r } else { self.r2 };
        self.sum += p;
        self.count += 1;
    }

    fn finish(&self) -> Option<FrameBounds> {
        if self.sum.truncate().is_nan() {
            return None;
        }
        Some(FrameBounds {
            min: self.min.truncate(),
            max: self.max.truncate(),
            xy_radius: self.xy2.sqrt(),
            radius: self.r2.sqrt(),
        })
    }
}

/// The model prepared for palettes of `joints` matrices: shared influence sets when a sample of the vertices
/// shows at least two vertices per set, each vertex's own otherwise (hashing every vertex would then cost
/// more than it saves).
fn bounds_input(vertices: &VertexStreams, joints: usize) -> BoundsInput {
    let sets: Vec<Option<Influences>> = match (&vertices.joints, &vertices.weights) {
        (Some(js), Some(ws)) if joints > 0 => {
            js.iter().zip(ws).take(vertices.positions.len()).map(|(j, w)| influences(j, w, joints)).collect()
        }
        // `skin_positions` leaves every vertex where it is.
        _ => vec![None; vertices.positions.len()],
    };
    let state = foldhash::fast::FixedState::default;
    let sample = &sets[..sets.len().min(SAMPLE)];
    let distinct = sample.iter().collect::<std::collections::HashSet<_, foldhash::fast::FixedState>>().len();
    if distinct * 2 > sample.len() {
        let none = Influences { count: 0, joints: [0; 4], weights: [0; 4] };
        return BoundsInput::Own(vertices.positions.iter().zip(&sets).map(|(p, s)| (*p, s.unwrap_or(none))).collect());
    }
    let mut shared = Vec::new();
    let mut index: std::collections::HashMap<Influences, u32, _> = std::collections::HashMap::with_hasher(state());
    let ids: Vec<u32> = sets
        .iter()
        .map(|s| {
            s.map_or(UNSKINNED, |s| {
                *index.entry(s).or_insert_with(|| {
                    shared.push(s);
                    shared.len() as u32 - 1
                })
            })
        })
        .collect();
    // The last of each repeated (position, set), in order.
    let mut seen = std::collections::HashSet::with_capacity_and_hasher(ids.len(), state());
    let mut points: Vec<(Vec3, u32)> = vertices
        .positions
        .iter()
        .zip(&ids)
        .rev()
        .filter(|(p, set)| seen.insert((p.to_array().map(f32::to_bits), **set)))
        .map(|(p, set)| (*p, *set))
        .collect();
    points.reverse();
    BoundsInput::Shared { sets: shared, points }
}

/// A vertex's influences as [`blend`] adds them, or `None` when it leaves the vertex in the bind pose (a
/// joint past the palette, or weights that sum to zero).
fn influences(j: &[u32; 4], w: &[f32; 4], joints: usize) -> Option<Influences> {
    let mut set = Influences { count: 0, joints: [0; 4], weights: [0; 4] };
    let mut total = 0.0;
    for (&j, &w) in j.iter().zip(w) {
        if w != 0.0 {
            if j as usize >= joints {
                return None;
            }
            set.joints[set.count as usize] = j;
            set.weights[set.count as usize] = w.to_bits();
            set.count += 1;
            total += w;
        }
    }
    (total != 0.0).then_some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blends_sum_all_slots_and_leave_unweighted_vertices() {
        let v = VertexStreams {
            positions: vec![Vec3::ZERO, Vec3::ONE],
            joints: Some(vec![[0, 1, 0, 0], [0, 0, 0, 0]]),
            weights: Some(vec![[0.0, 1.0, 0.0, 0.0], [0.0; 4]]),
            ..Default::default()
        };
        let palette = [Mat4::IDENTITY, Mat4::from_translation(Vec3::X)];
        assert_eq!(skin_positions(&v, &palette), vec![Vec3::X, Vec3::ONE]);
    }

    /// The many-frame bounds against `skinned_bounds` frame by frame, bit for bit: zero weights before used
    /// slots, a joint past the palette, weights that cancel, no weights, seam duplicates (some at ±0 so that
    /// the order of ties shows), over both of its paths (shared influence sets, and a vertex's own).
    #[test]
    fn bounds_of_many_frames_are_those_of_each_frame_to_the_bit() {
        let mut seed = 0x2545_f491_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let mut unit = move || (next() % 20_001) as f32 / 10_000.0 - 1.0;
        let palettes: Vec<Vec<Mat4>> = (0..7)
            .map(|f| {
                (0..5)
                    .map(|j| {
                        let a = (f * 5 + j) as f32 * 0.37;
                        Mat4::from_scale_rotation_translation(
                            Vec3::splat(1.0 + 0.1 * j as f32),
                            glam::Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), a),
                            Vec3::new(a.sin(), 0.0, -a.cos()),
                        )
                    })
                    .collect()
            })
            .collect();
        let refs: Vec<&[Mat4]> = palettes.iter().map(Vec::as_slice).collect();
        for shared in [true, false] {
            let mut v = VertexStreams::default();
            let (mut joints, mut weights) = (Vec::new(), Vec::new());
            for i in 0..300u32 {
                let p = if i % 7 == 0 { Vec3::new(0.0, -0.0, 0.0) } else { Vec3::new(unit(), unit(), unit()) };
                let (j, w) = match i % 6 {
                    0 => ([1, 2, 0, 0], [0.0, 1.0, 0.0, 0.0]),
                    1 => ([9, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]),
                    2 => ([1, 2, 3, 0], [0.5, -0.5, 0.0, 0.0]),
                    3 => ([0; 4], [0.0; 4]),
                    _ if shared => ([3, 4, 0, 0], [0.25, 0.75, 0.0, 0.0]),
                    _ => ([i % 5, (i + 1) % 5, 4, 0], [unit().abs(), 0.0, unit().abs(), 0.0]),
                };
                // Seam duplicates where sets are shared; mostly distinct sets (each vertex its own) otherwise.
                let (j, w) = if shared || i % 6 < 2 {
                    (j, w)
                } else {
                    ([i % 5, 4, 0, 0], [unit().abs(), unit().abs(), 0.0, 0.0])
                };
                for _ in 0..if shared { 1 + i % 3 } else { 1 } {
                    v.positions.push(p);
                    joints.push(j);
                    weights.push(w);
                }
            }
            v.joints = Some(joints);
            v.weights = Some(weights);
            // Both forms of the prepared input are covered.
            assert_eq!(matches!(bounds_input(&v, 5), BoundsInput::Shared { .. }), shared);
            let many = skinned_bounds_many(&v, &refs);
            for (palette, b) in palettes.iter().zip(&many) {
                let one = skinned_bounds(&v, palette).unwrap();
                let b = b.unwrap();
                let bits = |b: &FrameBounds| {
                    [b.min.to_array(), b.max.to_array(), [b.xy_radius, b.radius, 0.0]].map(|a| a.map(f32::to_bits))
                };
                assert_eq!(bits(&b), bits(&one), "shared {shared}");
            }
            // Without weights, or with an empty palette, every vertex stays where it is.
            let bind = FrameBounds::of_points(&v.positions);
            assert_eq!(skinned_bounds_many(&v, &[&[]]), vec![bind]);
            v.weights = None;
            assert_eq!(skinned_bounds_many(&v, &refs[..1]), vec![bind]);
        }
    }

    #[test]
    fn normals_and_tangents_follow_the_joint_and_a_flipped_normal_stays_flipped() {
        let quarter = Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let v = VertexStreams {
            positions: vec![Vec3::ZERO, Vec3::ZERO, Vec3::ZERO],
            normals: Some(vec![Vec3::X, -Vec3::X, Vec3::Z]),
            tangents: Some(vec![Vec4::new(0.0, 1.0, 0.0, -1.0), Vec4::new(0.0, 1.0, 0.0, 1.0), Vec4::X.with_w(1.0)]),
            // The third vertex has no weight: it keeps its bind-pose directions.
            joints: Some(vec![[1, 0, 0, 0], [1, 0, 0, 0], [0; 4]]),
            weights: Some(vec![[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0; 4]]),
            ..Default::default()
        };
        // A scaled joint: normals must still come out unit length.
        let palette = [Mat4::IDENTITY, quarter * Mat4::from_scale(Vec3::new(2.0, 1.0, 1.0))];
        let n = skin_normals(&v, &palette).unwrap();
        assert!(n[0].abs_diff_eq(Vec3::Y, 1e-5), "{:?}", n[0]);
        // The flipped normal points the other way after skinning too.
        assert!(n[1].abs_diff_eq(-Vec3::Y, 1e-5), "{:?}", n[1]);
        assert_eq!(n[2], Vec3::Z);
        let t = skin_tangents(&v, &palette).unwrap();
        assert!(t[0].abs_diff_eq(Vec4::new(-1.0, 0.0, 0.0, -1.0), 1e-5), "{:?}", t[0]);
        assert!(t[1].abs_diff_eq(Vec4::new(-1.0, 0.0, 0.0, 1.0), 1e-5), "{:?}", t[1]);
        assert_eq!(t[2], Vec4::new(1.0, 0.0, 0.0, 1.0));
        let none = VertexStreams { positions: vec![Vec3::ZERO], ..Default::default() };
        assert!(skin_tangents(&none, &palette).is_none());
    }
}

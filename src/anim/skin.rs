//! Linear blend skinning on the CPU, for `pose --vertices`, computed bounds and checks. The renderer does the
//! same on the GPU; this is the reference it is tested against.

use glam::{Mat3, Mat4, Vec3, Vec4};

use crate::scene::{BoundsAccumulator, FrameBounds, VertexStreams};

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

/// Skinned positions in the file's vertex order. Weights are used as stored (IQM bytes / 255), as engines do.
pub fn skin_positions(vertices: &VertexStreams, palette: &[Mat4]) -> Vec<Vec3> {
    match (&vertices.joints, &vertices.weights) {
        (Some(js), Some(ws)) if !palette.is_empty() => vertices
            .positions
            .iter()
            .zip(js.iter().zip(ws))
            .map(|(p, (j, w))| blend(j, w, palette).map_or(*p, |m| m.transform_point3(*p)))
            .collect(),
        _ => vertices.positions.clone(),
    }
}

/// Skinned normals: the inverse-transpose of each vertex's blended 3×3, renormalised.
pub fn skin_normals(vertices: &VertexStreams, palette: &[Mat4]) -> Option<Vec<Vec3>> {
    let normals = vertices.normals.as_ref()?;
    Some((0..normals.len()).filter_map(|i| skin_normal(vertices, palette, i)).collect())
}

/// Vertex `i`'s skinned normal, as [`skin_normals`] computes it; `None` without normals or past the end.
pub fn skin_normal(vertices: &VertexStreams, palette: &[Mat4], i: usize) -> Option<Vec3> {
    let n = *vertices.normals.as_ref()?.get(i)?;
    let influence =
        vertices.joints.as_ref().zip(vertices.weights.as_ref()).and_then(|(js, ws)| Some((js.get(i)?, ws.get(i)?)));
    Some(match influence.and_then(|(j, w)| blend(j, w, palette)) {
        Some(m) => (Mat3::from_mat4(m).inverse().transpose() * n).normalize_or_zero(),
        None => n,
    })
}

/// Skinned tangents: each vertex's blended 3×3 applied to the tangent's direction, renormalised; the
/// handedness (`w`) is kept. `None` when the vertices have no tangents.
pub fn skin_tangents(vertices: &VertexStreams, palette: &[Mat4]) -> Option<Vec<Vec4>> {
    let tangents = vertices.tangents.as_ref()?;
    let (Some(js), Some(ws)) = (&vertices.joints, &vertices.weights) else { return Some(tangents.clone()) };
    Some(
        tangents
            .iter()
            .zip(js.iter().zip(ws))
            .map(|(t, (j, w))| match blend(j, w, palette) {
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

/// One vertex as [`skinned_bounds_many`] skins it: its nonzero influences first, in slot order.
#[derive(Clone, Copy)]
struct Influenced {
    position: Vec3,
    /// How many influences [`blend`] would add; 0 for a vertex that stays in the bind pose.
    count: u32,
    joints: [u32; 4],
    weights: [f32; 4],
}

/// Vertices skinned per block, every frame's palette over one block before the next: a block of this many
/// stays in the core's cache while the frames go over it, where whole-model passes stream it from memory.
const BLOCK: usize = 2048;

/// [`skinned_bounds`] under each palette, the same bounds to the bit, for many frames at once: each vertex's
/// influences are sorted out once (zero weights dropped, joints checked, zero weight sums found) rather than
/// every frame, no skinned positions are stored, and the vertices go through the cache once for all frames.
pub fn skinned_bounds_many(vertices: &VertexStreams, palettes: &[&[Mat4]]) -> Vec<Option<FrameBounds>> {
    let joints = palettes.first().map_or(0, |p| p.len());
    if palettes.iter().any(|p| p.len() != joints) {
        return palettes.iter().map(|p| skinned_bounds(vertices, p)).collect();
    }
    let prepared = prepare_influences(vertices, joints);
    let mut acc = vec![BoundsAccumulator::default(); palettes.len()];
    for block in prepared.chunks(BLOCK) {
        for (palette, acc) in palettes.iter().zip(acc.iter_mut()) {
            for v in block {
                acc.add(skin_influenced(v, palette));
            }
        }
    }
    acc.iter().map(BoundsAccumulator::finish).collect()
}

/// Each vertex's influences as [`blend`] would use them with a palette of `joints` matrices.
fn prepare_influences(vertices: &VertexStreams, joints: usize) -> Vec<Influenced> {
    let unskinned = |&position: &Vec3| Influenced { position, count: 0, joints: [0; 4], weights: [0.0; 4] };
    let (Some(js), Some(ws)) = (&vertices.joints, &vertices.weights) else {
        return vertices.positions.iter().map(unskinned).collect();
    };
    if joints == 0 {
        return vertices.positions.iter().map(unskinned).collect();
    }
    vertices
        .positions
        .iter()
        .zip(js.iter().zip(ws))
        .map(|(p, (j, w))| {
            let mut v = unskinned(p);
            let mut total = 0.0;
            for (&j, &w) in j.iter().zip(w) {
                if w != 0.0 {
                    if j as usize >= joints {
                        // `blend` gives up on the whole vertex.
                        return unskinned(p);
                    }
                    v.joints[v.count as usize] = j;
                    v.weights[v.count as usize] = w;
                    v.count += 1;
                    total += w;
                }
            }
            if total == 0.0 { unskinned(p) } else { v }
        })
        .collect()
}

/// The vertex skinned by `palette`: [`blend`]'s sum in its order, then the same transform.
#[inline]
fn skin_influenced(v: &Influenced, palette: &[Mat4]) -> Vec3 {
    let n = v.count as usize;
    if n == 0 {
        return v.position;
    }
    let mut m = Mat4::ZERO;
    for s in 0..n.min(4) {
        m += palette[v.joints[s] as usize] * v.weights[s];
    }
    m.transform_point3(v.position)
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

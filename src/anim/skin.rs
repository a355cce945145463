//! Linear blend skinning on the CPU, for `pose --vertices`, computed bounds and checks. The renderer does the
//! same on the GPU; this is the reference it is tested against.

use glam::{Mat3, Mat4, Vec3};

use crate::scene::{FrameBounds, VertexStreams};

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
    let (Some(js), Some(ws)) = (&vertices.joints, &vertices.weights) else { return Some(normals.clone()) };
    Some(
        normals
            .iter()
            .zip(js.iter().zip(ws))
            .map(|(n, (j, w))| match blend(j, w, palette) {
                Some(m) => (Mat3::from_mat4(m).inverse().transpose() * *n).normalize_or_zero(),
                None => *n,
            })
            .collect(),
    )
}

/// The bounds of the skinned mesh under `palette`; `None` when there are no vertices.
pub fn skinned_bounds(vertices: &VertexStreams, palette: &[Mat4]) -> Option<FrameBounds> {
    FrameBounds::of_points(&skin_positions(vertices, palette))
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
}

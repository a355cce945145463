//! Synthetic skinned models of any size, written as IQM through the project's own writer.
//!
//! Benchmarks need inputs of controlled size (a ~100 MB IQM for load throughput, a million skinned vertices
//! for the renderer), and tests need animated files whose every value is known. Nothing here comes from a
//! third party.

#[cfg(any(test, feature = "testing"))]
pub mod arm;
#[cfg(any(test, feature = "testing"))]
pub mod exports;

use glam::{Quat, Vec3};

use crate::formats::iqm::write::{
    Anim, IQM_BLENDINDEXES, IQM_BLENDWEIGHTS, IQM_FLOAT, IQM_LOOP, IQM_NORMAL, IQM_POSITION, IQM_TANGENT, IQM_TEXCOORD,
    IQM_UBYTE, IqmDocument, Joint, Mesh, VertexArray, quantize_channels,
};

/// Size and shape of a synthetic model.
#[derive(Debug, Clone, Copy)]
pub struct SynthSpec {
    /// Vertices, laid out as a grid of quads (rounded to whole rows).
    pub vertices: usize,
    /// Joints in tentacles of ten: each tenth joint hangs off the root, the others off the joint before.
    pub joints: usize,
    /// Frames of one looping animation.
    pub frames: usize,
}

/// Grid dimensions: columns fixed, rows to reach the vertex count.
const COLUMNS: usize = 256;

/// Local bind transform of joint `i`: one unit up its parent.
fn joint_parent(i: usize) -> i32 {
    match i {
        0 => -1,
        i if i % 10 == 1 => 0,
        i => i as i32 - 1,
    }
}

/// The joint's rotation at a frame: a sway whose phase runs along the tentacle.
fn sway(i: usize, frame: usize, frames: usize) -> Quat {
    let phase = frame as f32 / frames.max(1) as f32 * std::f32::consts::TAU + i as f32 * 0.3;
    Quat::from_rotation_x(0.25 * phase.sin()) * Quat::from_rotation_y(0.1 * phase.cos())
}

/// Builds the record-level document of a synthetic model.
pub fn document(spec: SynthSpec) -> IqmDocument {
    let joints = spec.joints.max(1);
    let rows = spec.vertices.div_ceil(COLUMNS).max(2);
    let n = rows * COLUMNS;
    let (mut pos, mut nrm, mut uv, mut tan) =
        (Vec::with_capacity(n * 3), Vec::with_capacity(n * 3), Vec::with_capacity(n * 2), Vec::with_capacity(n * 4));
    let (mut idx, mut wgt) = (Vec::with_capacity(n * 4), Vec::with_capacity(n * 4));
    for r in 0..rows {
        for c in 0..COLUMNS {
            let (u, v) = (c as f32 / (COLUMNS - 1) as f32, r as f32 / (rows - 1) as f32);
            pos.extend_from_slice(&[u * 10.0, 0.0, v * 10.0]);
            nrm.extend_from_slice(&[0.0, -1.0, 0.0]);
            uv.extend_from_slice(&[u, 1.0 - v]);
            tan.extend_from_slice(&[1.0, 0.0, 0.0, 1.0]);
            // Two influences: the joint for this stretch of the grid and the next one, blended by height.
            let along = v * (joints - 1) as f32;
            let j0 = along.floor() as usize;
            let j1 = (j0 + 1).min(joints - 1);
            let t = along - j0 as f32;
            let w1 = (t * 255.0).round();
            idx.extend_from_slice(&[j0 as f32, j1 as f32, 0.0, 0.0]);
            wgt.extend_from_slice(&[(255.0 - w1) / 255.0, w1 / 255.0, 0.0, 0.0]);
        }
    }
    let mut triangles = Vec::with_capacity((rows - 1) * (COLUMNS - 1) * 2);
    for r in 0..rows - 1 {
        for c in 0..COLUMNS - 1 {
            let a = (r * COLUMNS + c) as u32;
            let (b, d, e) = (a + 1, a + COLUMNS as u32, a + COLUMNS as u32 + 1);
            // Clockwise front faces, as the Inter-Quake formats use.
            triangles.push([a, d, b]);
            triangles.push([b, d, e]);
        }
    }
    let bind: Vec<Joint> = (0..joints)
        .map(|i| Joint {
            name: format!("joint{i:03}"),
            parent: joint_parent(i),
            translate: if i == 0 { [0.0; 3] } else { [0.0, 0.0, 1.0] },
            ..Joint::default()
        })
        .collect();
    let mut samples = Vec::with_capacity(spec.frames * joints);
    for f in 0..spec.frames {
        for (i, j) in bind.iter().enumerate() {
            let q = sway(i, f, spec.frames);
            let t = Vec3::from_array(j.translate);
            samples.push([t.x, t.y, t.z, q.x, q.y, q.z, q.w, 1.0, 1.0, 1.0]);
        }
    }
    let (channels, num_framechannels, frames) = quantize_channels(&samples, joints);
    let poses =
        if spec.frames > 0 { channels.iter().zip(&bind).map(|(c, j)| c.to_pose(j.parent)).collect() } else { vec![] };
    IqmDocument {
        num_vertexes: n as u32,
        vertex_arrays: vec![
            VertexArray::from_f32(IQM_POSITION, IQM_FLOAT, 3, &pos, false),
            VertexArray::from_f32(IQM_TEXCOORD, IQM_FLOAT, 2, &uv, false),
            VertexArray::from_f32(IQM_NORMAL, IQM_FLOAT, 3, &nrm, false),
            VertexArray::from_f32(IQM_TANGENT, IQM_FLOAT, 4, &tan, false),
            VertexArray::from_f32(IQM_BLENDINDEXES, IQM_UBYTE, 4, &idx, false),
            VertexArray::from_f32(IQM_BLENDWEIGHTS, IQM_UBYTE, 4, &wgt, true),
        ],
        meshes: vec![Mesh {
            name: "grid".into(),
            material: "grid".into(),
            first_vertex: 0,
            num_vertexes: n as u32,
            first_triangle: 0,
            num_triangles: triangles.len() as u32,
        }],
        triangles,
        joints: bind,
        poses,
        anims: if spec.frames > 0 {
            vec![Anim {
                name: "sway".into(),
                first_frame: 0,
                num_frames: spec.frames as u32,
                framerate: 30.0,
                flags: IQM_LOOP,
            }]
        } else {
            vec![]
        },
        num_frames: spec.frames as u32,
        num_framechannels,
        frames,
        ..IqmDocument::default()
    }
}

/// A synthetic model as IQM bytes.
pub fn iqm_bytes(spec: SynthSpec) -> Vec<u8> {
    document(spec).to_bytes()
}

/// A copy of `scene` as another exporter could have written it: each mesh's vertices in another order (a
/// seeded shuffle, so it reproduces) and every `copy_every`-th of them stored twice, the mesh's triangles
/// using the two copies in turn (`copy_every` 0: no copies). A converter that welds equal vertices (rigscope's
/// IQM writer, the reference `iqm`) makes one vertex of the two again. For tests and benchmarks of `diff`
/// pairing vertices by content.
///
/// The meshes must own consecutive vertex ranges that don't overlap (what Inter-Quake files have), and the
/// scene must have no morph targets (they index vertices).
pub fn shuffled(scene: &crate::scene::Scene, seed: u64, copy_every: usize) -> crate::scene::Scene {
    assert!(scene.morphs.is_empty(), "shuffled: morph targets index vertices and are not remapped");
    let n = scene.vertices.len();
    let mut rng = seed.max(1);
    let mut next = || {
        // xorshift64
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = scene.clone();
    // `order[k]`: the vertex of `scene` that vertex `k` of the copy is.
    let mut order: Vec<u32> = Vec::with_capacity(n + n / copy_every.max(1));
    let mut covered = 0usize;
    for m in &mut out.meshes {
        let (first, end) = (m.first_vertex as usize, m.first_vertex as usize + m.num_vertices as usize);
        assert!(first >= covered && end <= n, "shuffled: mesh \"{}\" has no vertex range of its own", m.name);
        order.extend(covered as u32..first as u32);
        let mut part: Vec<u32> = (first as u32..end as u32).collect();
        if copy_every > 0 {
            part.extend((first as u32..end as u32).step_by(copy_every));
        }
        for k in (1..part.len()).rev() {
            part.swap(k, (next() % (k as u64 + 1)) as usize);
        }
        (m.first_vertex, m.num_vertices) = (order.len() as u32, part.len() as u32);
        order.extend(part);
        covered = end;
    }
    order.extend(covered as u32..n as u32);
    // Each vertex's copies; triangle corners take them in turn.
    let mut copies = vec![[u32::MAX; 2]; n];
    for (k, &v) in order.iter().enumerate() {
        let c = &mut copies[v as usize];
        c[usize::from(c[0] != u32::MAX)] = k as u32;
    }
    let mut turn = vec![false; n];
    for v in out.triangles.iter_mut().flatten() {
        let (c, t) = (copies[*v as usize], &mut turn[*v as usize]);
        *v = if *t && c[1] != u32::MAX { c[1] } else { c[0] };
        *t = !*t;
    }
    fn gather<T: Copy>(values: &mut Option<Vec<T>>, order: &[u32]) {
        if let Some(v) = values {
            *v = order.iter().map(|&i| v[i as usize]).collect();
        }
    }
    let v = &mut out.vertices;
    v.positions = order.iter().map(|&i| scene.vertices.positions[i as usize]).collect();
    gather(&mut v.normals, &order);
    gather(&mut v.tangents, &order);
    gather(&mut v.texcoords, &order);
    gather(&mut v.colors, &order);
    gather(&mut v.joints, &order);
    gather(&mut v.weights, &order);
    gather(&mut v.outline, &order);
    for c in &mut v.custom {
        let k = c.components as usize;
        c.data = order.iter().flat_map(|&i| c.data[i as usize * k..(i as usize + 1) * k].to_vec()).collect();
    }
    // The copy is a file of its own, in its own order.
    v.source = None;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_model_loads_and_animates() {
        let bytes = iqm_bytes(SynthSpec { vertices: 2000, joints: 25, frames: 12 });
        let s = crate::load_bytes("synth.iqm", &bytes).unwrap();
        assert_eq!(s.vertices.len(), 2048);
        assert_eq!(s.skeleton.len(), 25);
        assert_eq!(s.clips[0].frame_count, 12);
        assert!(s.meta.warnings.is_empty(), "{:?}", s.meta.warnings);
        let pose = crate::anim::Pose::sample(&s.skeleton, &s.clips[0], 3.0, 24.0);
        let bind = crate::anim::Pose::bind(&s.skeleton);
        assert!(!pose.world[5].abs_diff_eq(bind.world[5], 1e-3), "the animation moves joints");
    }

    #[test]
    fn a_shuffled_copy_holds_the_same_vertices_in_another_order_with_copies() {
        let s = crate::load_bytes("s.iqm", &iqm_bytes(SynthSpec { vertices: 512, joints: 4, frames: 1 })).unwrap();
        let t = shuffled(&s, 7, 4);
        assert_eq!(t.vertices.len(), 512 + 128);
        assert_eq!((t.meshes[0].first_vertex, t.meshes[0].num_vertices), (0, 640));
        assert_ne!(t.vertices.positions[..512], s.vertices.positions[..], "reordered");
        // Every triangle has the same corners as before, through whichever copy.
        for (a, b) in s.triangles.iter().zip(&t.triangles) {
            for k in 0..3 {
                let (i, j) = (a[k] as usize, b[k] as usize);
                assert_eq!(s.vertices.positions[i], t.vertices.positions[j]);
                assert_eq!(s.vertices.weights.as_ref().unwrap()[i], t.vertices.weights.as_ref().unwrap()[j]);
            }
        }
        // Both copies of a copied vertex are used, where it has two corners or more (a grid corner has one).
        let mut used = vec![false; t.vertices.len()];
        t.triangles.iter().flatten().for_each(|&v| used[v as usize] = true);
        let mut corners = vec![0; s.vertices.len()];
        s.triangles.iter().flatten().for_each(|&v| corners[v as usize] += 1);
        let unused: Vec<usize> = (0..t.vertices.len()).filter(|&v| !used[v]).collect();
        assert_eq!(unused.len(), (0..512).step_by(4).filter(|&v| corners[v] < 2).count(), "{unused:?}");
    }
}

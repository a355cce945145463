//! A bending arm as PMX: a tube along +X from the shoulder (x 0) past the elbow (x 1) to the wrist (x 2), its
//! vertices around the elbow weighted to both bones as BDEF2, SDEF or QDEF, and a VMD that bends or twists the
//! elbow. Test and documentation input for the spherical and dual-quaternion blends (`tests/skin_blend.rs`,
//! `examples/make_arm.rs`): no MikuMikuDance character with SDEF or QDEF vertices is in the corpus.

use glam::{Quat, Vec2, Vec3, Vec4};

use crate::formats::pmx::write::{Material, PmxDocument};
use crate::formats::pmx::{Header, RawBone, RawVertex, Weights};
use crate::formats::vmd::write::{BoneKey, VmdDocument};
use crate::scene::{BoneTail, MmdEncoding, MmdMaterial, SphereMode, Toon, bone_flags as f};

/// How the elbow's vertices blend the two bones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmBlend {
    Linear,
    Spherical,
    DualQuaternion,
}

/// The tube's radius.
pub const ARM_RADIUS: f32 = 0.2;
/// Rings along the tube (every 0.1 from x 0 to x 2) and vertices around each.
pub const RINGS: usize = 21;
pub const AROUND: usize = 24;
/// The stretch either side of the elbow whose vertices both bones move: x 0.6 to 1.4.
pub const BLEND_FROM: f32 = 0.6;
pub const BLEND_TO: f32 = 1.4;
/// The bones, in file order.
pub const BONES: [&str; 3] = ["arm", "elbow", "wrist"];

/// Vertex `ring`·[`AROUND`] + `k`'s weight on the arm (the rest on the elbow).
pub fn arm_weight(x: f32) -> f32 {
    ((BLEND_TO - x) / (BLEND_TO - BLEND_FROM)).clamp(0.0, 1.0)
}

/// The SDEF parameters the elbow's vertices get: the centre at the elbow, R0 and R1 where the blended stretch
/// starts and ends on the bones' line.
pub const SDEF_C: Vec3 = Vec3::new(1.0, 0.0, 0.0);
pub const SDEF_R0: Vec3 = Vec3::new(BLEND_FROM, 0.0, 0.0);
pub const SDEF_R1: Vec3 = Vec3::new(BLEND_TO, 0.0, 0.0);

/// The arm as a PMX document.
pub fn arm_document(blend: ArmBlend) -> PmxDocument {
    let mut vertices = Vec::with_capacity(RINGS * AROUND);
    for ring in 0..RINGS {
        let x = ring as f32 * 0.1;
        let w0 = arm_weight(x);
        let weights = if w0 == 1.0 {
            Weights::Bdef1(Some(0))
        } else if w0 == 0.0 {
            Weights::Bdef1(Some(1))
        } else {
            match blend {
                ArmBlend::Linear => Weights::Bdef2([Some(0), Some(1)], w0),
                ArmBlend::Spherical => Weights::Sdef([Some(0), Some(1)], w0, [SDEF_C, SDEF_R0, SDEF_R1]),
                ArmBlend::DualQuaternion => Weights::Qdef([Some(0), Some(1), None, None], [w0, 1.0 - w0, 0.0, 0.0]),
            }
        };
        for k in 0..AROUND {
            let a = std::f32::consts::TAU * k as f32 / AROUND as f32;
            let normal = Vec3::new(0.0, a.cos(), a.sin());
            vertices.push(RawVertex {
                position: Vec3::new(x, 0.0, 0.0) + normal * ARM_RADIUS,
                normal,
                uv: Vec2::new(x / 2.0, k as f32 / AROUND as f32),
                additional: [Vec4::ZERO; 4],
                weights,
                edge_scale: 1.0,
            });
        }
    }
    let mut faces = Vec::with_capacity((RINGS - 1) * AROUND * 6);
    for ring in 0..RINGS - 1 {
        for k in 0..AROUND {
            let v = |r: usize, k: usize| (r * AROUND + k % AROUND) as u32;
            let (a, b, c, d) = (v(ring, k), v(ring, k + 1), v(ring + 1, k), v(ring + 1, k + 1));
            faces.extend([a, c, b, b, c, d]);
        }
    }
    let bone = |i: usize, parent: Option<usize>| RawBone {
        offset: 0,
        name: BONES[i].into(),
        name_en: BONES[i].into(),
        position: Vec3::new(i as f32, 0.0, 0.0),
        parent,
        layer: 0,
        flags: f::ROTATABLE | f::VISIBLE | f::OPERABLE | f::TAIL_IS_BONE,
        tail: BoneTail::Bone((i + 1 < BONES.len()).then_some(i + 1)),
        append: None,
        fixed_axis: None,
        local_axes: None,
        external_key: None,
        ik: None,
    };
    let material = MmdMaterial {
        name: "skin".into(),
        name_en: "skin".into(),
        diffuse: Vec4::new(0.85, 0.6, 0.45, 1.0),
        specular: Vec3::splat(0.2),
        specular_power: 10.0,
        ambient: Vec3::splat(0.4),
        // Both faces drawn: the tube is seen from outside whatever the winding.
        flags: 0x01,
        edge_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
        edge_size: 0.0,
        texture: None,
        sphere: None,
        sphere_mode: SphereMode::None,
        toon: Toon::Shared(0),
        memo: String::new(),
        triangles: 0,
    };
    PmxDocument {
        header: Header {
            version: if blend == ArmBlend::DualQuaternion { 2.1 } else { 2.0 },
            encoding: MmdEncoding::Utf8,
            additional_uvs: 0,
            sizes: [2, 1, 1, 1, 1, 1],
            name: "arm".into(),
            name_en: "arm".into(),
            comment: String::new(),
            comment_en: String::new(),
        },
        vertices,
        materials: vec![Material { material, indices: faces.len() as i32 }],
        faces,
        textures: Vec::new(),
        bones: vec![bone(0, None), bone(1, Some(0)), bone(2, Some(1))],
        morphs: Vec::new(),
        frames: Vec::new(),
        rigid_bodies: Vec::new(),
        joints: Vec::new(),
        soft_bodies: None,
    }
}

/// A one-key motion turning the elbow by `rotation` (bone-local, MikuMikuDance's left-handed frame).
pub fn elbow_motion(rotation: Quat) -> Vec<u8> {
    let mut vmd = VmdDocument::new("arm");
    vmd.bones.push(BoneKey::new(BONES[1], 0, [0.0; 3], rotation.to_array()));
    vmd.to_bytes()
}

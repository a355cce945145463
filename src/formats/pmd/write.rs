//! A record-level PMD writer (test support).
//!
//! [`PmdDocument`] is the reader's own [`RawModel`] (offsets ignored) and whether to write the physics section;
//! [`PmdDocument::to_bytes`] writes exactly that, names in Shift-JIS cut or padded to their fixed widths, the
//! optional sections (English, toon list, physics) as given. It validates nothing and never panics.

use glam::{Vec2, Vec3, Vec4};

use super::{English, RawBone, RawIk, RawMaterial, RawModel, RawSkin, RawVertex};
use crate::formats::binwrite::ByteWriter;
use crate::scene::RigidBody;

pub struct PmdDocument {
    pub model: RawModel,
    /// Write the rigid-body and joint section (after the toon list, which is then written too).
    pub physics: bool,
}

fn name(b: &mut ByteWriter, s: &str, width: usize) {
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(s);
    b.fixed(&bytes, width);
}

fn v3(b: &mut ByteWriter, v: Vec3) {
    b.f32s(&v.to_array());
}

impl PmdDocument {
    pub fn to_bytes(&self) -> Vec<u8> {
        let m = &self.model;
        let mut b = ByteWriter::new();
        b.bytes(b"Pmd").f32(m.version);
        name(&mut b, &m.name, 20);
        name(&mut b, &m.comment, 256);
        b.count_u32(m.vertices.len());
        for v in &m.vertices {
            v3(&mut b, v.position);
            v3(&mut b, v.normal);
            b.f32s(&v.uv.to_array()).u16(v.bones[0]).u16(v.bones[1]).u8(v.weight).u8(v.no_edge);
        }
        b.count_u32(m.faces.len());
        m.faces.iter().for_each(|&f| {
            b.u16(f);
        });
        b.count_u32(m.materials.len());
        for mat in &m.materials {
            b.f32s(&mat.diffuse.to_array()).f32(mat.specular_power);
            v3(&mut b, mat.specular);
            v3(&mut b, mat.ambient);
            b.u8(mat.toon).u8(mat.edge).u32(mat.indices);
            name(&mut b, &mat.texture, 20);
        }
        b.u16(m.bones.len() as u16);
        for bone in &m.bones {
            name(&mut b, &bone.name, 20);
            b.u16(bone.parent).u16(bone.tail).u8(bone.kind).u16(bone.ik);
            v3(&mut b, bone.position);
        }
        b.u16(m.iks.len() as u16);
        for ik in &m.iks {
            b.u16(ik.bone).u16(ik.target).u8(ik.links.len() as u8).u16(ik.iterations).f32(ik.limit);
            ik.links.iter().for_each(|&l| {
                b.u16(l);
            });
        }
        b.u16(m.skins.len() as u16);
        for skin in &m.skins {
            name(&mut b, &skin.name, 20);
            b.count_u32(skin.entries.len()).u8(skin.kind);
            for &(v, d) in &skin.entries {
                b.u32(v);
                v3(&mut b, d);
            }
        }
        b.u8(m.skin_list.len() as u8);
        m.skin_list.iter().for_each(|&s| {
            b.u16(s);
        });
        b.u8(m.frame_names.len() as u8);
        m.frame_names.iter().for_each(|n| name(&mut b, n, 50));
        b.count_u32(m.frame_bones.len());
        m.frame_bones.iter().for_each(|&(bone, frame)| {
            b.u16(bone).u8(frame);
        });
        let toons = m.toons.is_some() || self.physics;
        if m.english.is_some() || toons {
            b.u8(u8::from(m.english.is_some()));
        }
        if let Some(e) = &m.english {
            name(&mut b, &e.name, 20);
            name(&mut b, &e.comment, 256);
            e.bones.iter().for_each(|n| name(&mut b, n, 20));
            e.skins.iter().for_each(|n| name(&mut b, n, 20));
            e.frames.iter().for_each(|n| name(&mut b, n, 50));
        }
        if toons {
            let list = m.toons.clone().unwrap_or_default();
            for i in 0..10 {
                name(&mut b, list.get(i).map_or("", String::as_str), 100);
            }
        }
        if self.physics {
            b.count_u32(m.rigid_bodies.len());
            for r in &m.rigid_bodies {
                name(&mut b, &r.name, 20);
                b.u16(r.bone.map_or(0xFFFF, |x| x as u16)).u8(r.group).u16(r.collision_mask).u8(r.shape);
                for v in [r.size, r.position, r.rotation] {
                    v3(&mut b, v);
                }
                b.f32s(&[r.mass, r.linear_damping, r.angular_damping, r.restitution, r.friction]).u8(r.mode);
            }
            b.count_u32(m.joints.len());
            for j in &m.joints {
                name(&mut b, &j.name, 20);
                b.u32(j.bodies[0].map_or(u32::MAX, |x| x as u32)).u32(j.bodies[1].map_or(u32::MAX, |x| x as u32));
                for v in j.vectors() {
                    v3(&mut b, v);
                }
            }
        }
        b.into_bytes()
    }
}

/// A small document with every bone kind the reader interprets, an IK chain with a knee, a base skin and two
/// skins, display lists and every optional section.
pub fn sample_document() -> PmdDocument {
    let vertex = |x: f32, bones: [u16; 2], weight: u8| RawVertex {
        position: Vec3::new(x, x, 0.0),
        normal: Vec3::Z,
        uv: Vec2::new(x, 0.0),
        bones,
        weight,
        no_edge: u8::from(x > 1.0),
    };
    let bone = |n: &str, parent: u16, tail: u16, kind: u8, ik: u16, y: f32| RawBone {
        offset: 0,
        name: n.into(),
        parent,
        tail,
        kind,
        ik,
        position: Vec3::new(0.0, y, 0.0),
    };
    let material = |texture: &str, indices: u32, alpha: f32| RawMaterial {
        offset: 0,
        diffuse: Vec4::new(1.0, 1.0, 1.0, alpha),
        specular_power: 5.0,
        specular: Vec3::ONE,
        ambient: Vec3::splat(0.5),
        toon: 2,
        edge: 1,
        indices,
        texture: texture.into(),
    };
    let body = RigidBody {
        name: "剛体".into(),
        name_en: String::new(),
        bone: Some(1),
        group: 1,
        collision_mask: 0xFFFF,
        shape: 1,
        size: Vec3::ONE,
        position: Vec3::ZERO,
        rotation: Vec3::ZERO,
        mass: 1.0,
        linear_damping: 0.5,
        angular_damping: 0.5,
        restitution: 0.0,
        friction: 0.5,
        mode: 0,
    };
    PmdDocument {
        physics: true,
        model: RawModel {
            version: 1.0,
            name: "テスト".into(),
            comment: "コメント".into(),
            vertices: vec![vertex(0.0, [0, 1], 100), vertex(1.0, [1, 2], 40), vertex(2.0, [2, 3], 0)],
            faces_at: 0,
            faces: vec![0, 1, 2, 2, 1, 0],
            materials: vec![material("tex.bmp*sphere.sph", 3, 1.0), material("add.spa", 3, 0.5)],
            bones: vec![
                // The child first: the reader must reorder.
                bone("左ひざ", 1, 2, 0, 0, 1.0),
                bone("センター", 0xFFFF, 0, 1, 0, 2.0),
                bone("左足首", 0, 0xFFFF, 6, 0, 0.0),
                bone("左足ＩＫ", 1, 0xFFFF, 2, 0, 0.0),
                bone("左目", 1, 0xFFFF, 5, 5, 3.0),
                bone("両目", 1, 0xFFFF, 0, 0, 3.0),
                bone("捩1", 1, 0, 9, 25, 1.5),
            ],
            iks: vec![RawIk { offset: 0, bone: 3, target: 2, iterations: 40, limit: 0.5, links: vec![0] }],
            skins: vec![
                RawSkin { offset: 0, name: "base".into(), kind: 0, entries: vec![(1, Vec3::ONE), (2, Vec3::ONE)] },
                RawSkin { offset: 0, name: "あ".into(), kind: 3, entries: vec![(0, Vec3::Y), (1, Vec3::X)] },
                RawSkin { offset: 0, name: "まばたき".into(), kind: 2, entries: vec![(1, Vec3::Z)] },
            ],
            skin_list: vec![1, 2],
            frame_names: vec!["足\n".into()],
            frame_bones: vec![(3, 1), (0, 1)],
            english: Some(English {
                name: "test".into(),
                comment: "comment".into(),
                bones: ["knee", "center", "ankle", "leg IK", "eye", "eyes", "twist"].map(String::from).to_vec(),
                skins: vec!["a".into(), "blink".into()],
                frames: vec!["legs\n".into()],
            }),
            toons: Some((1..=10).map(|i| format!("toon{i:02}.bmp")).collect()),
            rigid_bodies: vec![body.clone(), RigidBody { name: "二".into(), bone: None, ..body }],
            joints: vec![crate::formats::pmx::write::sample_joint("ジョイント", "")],
        },
    }
}

//! A record-level PMX writer (test support).
//!
//! Tests need files no editor wrote: both encodings, every index size, every weight kind, bone flag and morph
//! kind, soft-body sections. [`PmxDocument`] describes a file field by field and [`PmxDocument::to_bytes`]
//! writes exactly that: it validates nothing (counts are the lengths of the lists given; an index too large for
//! its size is truncated to it) and never panics.

use glam::{Quat, Vec2, Vec3, Vec4};

use super::reader::Header;
use super::{RawBone, RawIk, RawMorph, RawOffsets, RawVertex, Weights};
use crate::formats::binwrite::ByteWriter;
use crate::scene::{
    AngleLimits, BoneTail, DisplayFrame, DisplayItem, MaterialOp, MmdEncoding, MmdMaterial, MorphPanel, PhysicsJoint,
    RigidBody, SphereMode, Toon, bone_flags as f,
};

/// A material and the number of face indices it draws.
#[derive(Debug, Clone)]
pub struct Material {
    /// Texture, sphere and toon paths are written as indices into [`PmxDocument::textures`] (−1 when absent
    /// from it).
    pub material: MmdMaterial,
    pub indices: i32,
}

#[derive(Debug, Clone)]
pub struct PmxDocument {
    /// The header as the reader returns it (the writer uses its index sizes and encoding for everything after).
    pub header: Header,
    pub vertices: Vec<RawVertex>,
    pub faces: Vec<u32>,
    pub textures: Vec<String>,
    pub materials: Vec<Material>,
    pub bones: Vec<RawBone>,
    pub morphs: Vec<RawMorph>,
    pub frames: Vec<DisplayFrame>,
    pub rigid_bodies: Vec<RigidBody>,
    pub joints: Vec<PhysicsJoint>,
    /// 2.1: a soft-body count to write (nothing is written for `None`).
    pub soft_bodies: Option<i32>,
}

impl PmxDocument {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = W { b: ByteWriter::new(), d: self };
        w.write();
        w.b.into_bytes()
    }
}

struct W<'a> {
    b: ByteWriter,
    d: &'a PmxDocument,
}

impl W<'_> {
    fn text(&mut self, s: &str) {
        let bytes: Vec<u8> = match self.d.header.encoding {
            MmdEncoding::Utf8 => s.as_bytes().to_vec(),
            _ => s.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        };
        self.b.count_i32(bytes.len()).bytes(&bytes);
    }

    fn index(&mut self, table: usize, v: Option<usize>) {
        let v = v.map_or(-1i64, |v| v as i64);
        match self.d.header.sizes[table] {
            1 => self.b.i8(v as i8),
            2 => self.b.i16(v as i16),
            _ => self.b.i32(v as i32),
        };
    }

    fn vertex_index(&mut self, v: u32) {
        match self.d.header.sizes[0] {
            1 => self.b.u8(v as u8),
            2 => self.b.u16(v as u16),
            _ => self.b.u32(v),
        };
    }

    fn v2(&mut self, v: Vec2) {
        self.b.f32s(&v.to_array());
    }
    fn v3(&mut self, v: Vec3) {
        self.b.f32s(&v.to_array());
    }
    fn v4(&mut self, v: Vec4) {
        self.b.f32s(&v.to_array());
    }

    fn texture(&mut self, t: Option<&String>) {
        let i = t.and_then(|t| self.d.textures.iter().position(|x| x == t));
        self.index(1, i);
    }

    fn write(&mut self) {
        let d = self.d;
        let h = &d.header;
        self.b.bytes(b"PMX ").f32(h.version).u8(8);
        let enc = if h.encoding == MmdEncoding::Utf8 { 1 } else { 0 };
        self.b.u8(enc).u8(h.additional_uvs).bytes(&h.sizes);
        for s in [&h.name, &h.name_en, &h.comment, &h.comment_en] {
            self.text(s);
        }
        self.b.count_i32(d.vertices.len());
        d.vertices.iter().for_each(|v| self.vertex(v));
        self.b.count_i32(d.faces.len());
        d.faces.iter().for_each(|&v| self.vertex_index(v));
        self.b.count_i32(d.textures.len());
        d.textures.iter().for_each(|t| self.text(t));
        self.b.count_i32(d.materials.len());
        d.materials.iter().for_each(|m| self.material(m));
        self.b.count_i32(d.bones.len());
        for bone in &d.bones {
            self.bone(bone);
        }
        self.b.count_i32(d.morphs.len());
        for m in &d.morphs {
            self.morph(m);
        }
        self.b.count_i32(d.frames.len());
        d.frames.iter().for_each(|fr| self.frame(fr));
        self.b.count_i32(d.rigid_bodies.len());
        d.rigid_bodies.iter().for_each(|r| self.rigid_body(r));
        self.b.count_i32(d.joints.len());
        d.joints.iter().for_each(|j| self.joint(j));
        if let Some(n) = d.soft_bodies {
            self.b.i32(n);
        }
    }

    fn vertex(&mut self, v: &RawVertex) {
        self.v3(v.position);
        self.v3(v.normal);
        self.v2(v.uv);
        for a in v.additional.iter().take(usize::from(self.d.header.additional_uvs)) {
            self.v4(*a);
        }
        match v.weights {
            Weights::Bdef1(b) => {
                self.b.u8(0);
                self.index(3, b);
            }
            Weights::Bdef2(b, w) | Weights::Sdef(b, w, _) => {
                self.b.u8(if matches!(v.weights, Weights::Bdef2(..)) { 1 } else { 3 });
                self.index(3, b[0]);
                self.index(3, b[1]);
                self.b.f32(w);
                if let Weights::Sdef(_, _, s) = v.weights {
                    s.iter().for_each(|x| self.v3(*x));
                }
            }
            Weights::Bdef4(b, w) | Weights::Qdef(b, w) => {
                self.b.u8(if matches!(v.weights, Weights::Bdef4(..)) { 2 } else { 4 });
                b.iter().for_each(|x| self.index(3, *x));
                self.b.f32s(&w);
            }
        }
        self.b.f32(v.edge_scale);
    }

    fn material(&mut self, m: &Material) {
        let mm = &m.material;
        self.text(&mm.name);
        self.text(&mm.name_en);
        self.v4(mm.diffuse);
        self.v3(mm.specular);
        self.b.f32(mm.specular_power);
        self.v3(mm.ambient);
        self.b.u8(mm.flags);
        self.v4(mm.edge_color);
        self.b.f32(mm.edge_size);
        self.texture(mm.texture.as_ref());
        self.texture(mm.sphere.as_ref());
        let mode = match mm.sphere_mode {
            SphereMode::None => 0,
            SphereMode::Multiply => 1,
            SphereMode::Add => 2,
            SphereMode::SubTexture => 3,
        };
        self.b.u8(mode);
        match &mm.toon {
            Toon::Shared(n) => {
                self.b.u8(1).u8(*n);
            }
            Toon::Texture(t) => {
                self.b.u8(0);
                self.texture(Some(t));
            }
            Toon::None => {
                self.b.u8(0);
                self.index(1, None);
            }
        }
        self.text(&mm.memo);
        self.b.i32(m.indices);
    }

    fn frame(&mut self, fr: &DisplayFrame) {
        self.text(&fr.name);
        self.text(&fr.name_en);
        self.b.u8(u8::from(fr.special)).count_i32(fr.items.len());
        for it in &fr.items {
            match *it {
                DisplayItem::Bone(b) => {
                    self.b.u8(0);
                    self.index(3, Some(b));
                }
                DisplayItem::Morph(m) => {
                    self.b.u8(1);
                    self.index(4, Some(m));
                }
            }
        }
    }

    fn rigid_body(&mut self, r: &RigidBody) {
        self.text(&r.name);
        self.text(&r.name_en);
        self.index(3, r.bone);
        self.b.u8(r.group).u16(r.collision_mask).u8(r.shape);
        for v in [r.size, r.position, r.rotation] {
            self.v3(v);
        }
        self.b.f32s(&[r.mass, r.linear_damping, r.angular_damping, r.restitution, r.friction]).u8(r.mode);
    }

    fn joint(&mut self, j: &PhysicsJoint) {
        self.text(&j.name);
        self.text(&j.name_en);
        self.b.u8(j.kind);
        self.index(5, j.bodies[0]);
        self.index(5, j.bodies[1]);
        for v in j.vectors() {
            self.v3(v);
        }
    }

    fn bone(&mut self, b: &RawBone) {
        self.text(&b.name);
        self.text(&b.name_en);
        self.v3(b.position);
        self.index(3, b.parent);
        self.b.i32(b.layer).u16(b.flags);
        match b.tail {
            BoneTail::Bone(t) => self.index(3, t),
            BoneTail::Offset(o) => self.v3(o),
        }
        if b.flags & (f::APPEND_ROTATION | f::APPEND_TRANSLATION) != 0 {
            let (s, r) = b.append.unwrap_or((None, 0.0));
            self.index(3, s);
            self.b.f32(r);
        }
        if b.flags & f::FIXED_AXIS != 0 {
            self.v3(b.fixed_axis.unwrap_or_default());
        }
        if b.flags & f::LOCAL_AXES != 0 {
            let [x, z] = b.local_axes.unwrap_or_default();
            self.v3(x);
            self.v3(z);
        }
        if b.flags & f::EXTERNAL_PARENT != 0 {
            self.b.i32(b.external_key.unwrap_or(0));
        }
        if b.flags & f::IK != 0 {
            let empty = RawIk { target: None, loop_count: 0, limit_angle: 0.0, links: Vec::new() };
            let ik = b.ik.as_ref().unwrap_or(&empty);
            self.index(3, ik.target);
            self.b.i32(ik.loop_count).f32(ik.limit_angle).count_i32(ik.links.len());
            for (l, limits) in &ik.links {
                self.index(3, *l);
                match limits {
                    Some(AngleLimits { min, max }) => {
                        self.b.u8(1);
                        self.v3(*min);
                        self.v3(*max);
                    }
                    None => {
                        self.b.u8(0);
                    }
                }
            }
        }
    }

    fn morph(&mut self, m: &RawMorph) {
        self.text(&m.name);
        self.text(&m.name_en);
        let panel = match m.panel {
            MorphPanel::System => 0,
            MorphPanel::Eyebrow => 1,
            MorphPanel::Eye => 2,
            MorphPanel::Mouth => 3,
            MorphPanel::Other => 4,
        };
        let kind = match &m.offsets {
            RawOffsets::Group(_) => 0,
            RawOffsets::Vertex(_) => 1,
            RawOffsets::Bone(_) => 2,
            RawOffsets::Uv(c, _) => 3 + c,
            RawOffsets::Material(_) => 8,
            RawOffsets::Flip(_) => 9,
            RawOffsets::Impulse(_) => 10,
        };
        self.b.u8(panel).u8(kind);
        match &m.offsets {
            RawOffsets::Group(v) | RawOffsets::Flip(v) => {
                self.b.count_i32(v.len());
                for &(i, w) in v {
                    self.index(4, i);
                    self.b.f32(w);
                }
            }
            RawOffsets::Vertex(v) => {
                self.b.count_i32(v.len());
                for &(i, d) in v {
                    self.vertex_index(i);
                    self.v3(d);
                }
            }
            RawOffsets::Uv(_, v) => {
                self.b.count_i32(v.len());
                for &(i, d) in v {
                    self.vertex_index(i);
                    self.v4(d);
                }
            }
            RawOffsets::Bone(v) => {
                self.b.count_i32(v.len());
                for &(b, t, q) in v {
                    self.index(3, b);
                    self.v3(t);
                    self.v4(Vec4::from(q));
                }
            }
            RawOffsets::Material(v) => {
                self.b.count_i32(v.len());
                for (i, op, c) in v {
                    self.index(2, *i);
                    self.b.u8(if *op == MaterialOp::Multiply { 0 } else { 1 });
                    self.v4(c[0]);
                    self.v4(c[1]);
                    self.v3(c[2].truncate());
                    self.v4(c[3]);
                    self.b.f32(c[4].x);
                    self.v4(c[5]);
                    self.v4(c[6]);
                    self.v4(c[7]);
                }
            }
            RawOffsets::Impulse(v) => {
                self.b.count_i32(v.len());
                for &(i, local, vel, torque) in v {
                    self.index(5, i);
                    self.b.u8(u8::from(local));
                    self.v3(vel);
                    self.v3(torque);
                }
            }
        }
    }
}

/// A small document with every weight kind, bone flag and morph kind, in `encoding` with every index of
/// `size` bytes (1, 2 or 4), as PMX 2.1.
pub fn sample_document(encoding: MmdEncoding, size: u8) -> PmxDocument {
    let (rigid_bodies, joints) = sample_physics();
    PmxDocument {
        header: Header {
            version: 2.1,
            encoding,
            additional_uvs: 1,
            sizes: [size; 6],
            name: "モデル".into(),
            name_en: "model".into(),
            comment: "コメント".into(),
            comment_en: "comment".into(),
        },
        vertices: sample_vertices(),
        faces: vec![0, 1, 2, 2, 1, 3, 1, 4, 3],
        textures: vec!["tex/body.png".into(), "sub/sphere.spa".into(), "toon.bmp".into()],
        materials: sample_materials(),
        bones: sample_bones(),
        morphs: sample_morphs(),
        frames: vec![
            DisplayFrame {
                name: "Root".into(),
                name_en: "Root".into(),
                special: true,
                items: vec![DisplayItem::Bone(1)],
            },
            DisplayFrame {
                name: "表情".into(),
                name_en: "Exp".into(),
                special: true,
                items: vec![DisplayItem::Morph(0), DisplayItem::Morph(5)],
            },
        ],
        rigid_bodies,
        joints,
        soft_bodies: Some(0),
    }
}

/// One vertex of each weight kind.
fn sample_vertices() -> Vec<RawVertex> {
    let v = |x: f32, y: f32, weights: Weights| RawVertex {
        position: Vec3::new(x, y, 0.0),
        normal: Vec3::Z,
        uv: Vec2::new(x, y),
        additional: [Vec4::new(x, y, 1.0, 2.0), Vec4::ZERO, Vec4::ZERO, Vec4::ZERO],
        weights,
        edge_scale: 1.0,
    };
    vec![
        v(0.0, 0.0, Weights::Bdef1(Some(0))),
        v(1.0, 0.0, Weights::Bdef2([Some(0), Some(1)], 0.25)),
        v(0.0, 1.0, Weights::Bdef4([Some(0), Some(1), Some(2), None], [0.5, 0.25, 0.25, 0.0])),
        v(1.0, 1.0, Weights::Sdef([Some(1), Some(2)], 0.5, [Vec3::Y, Vec3::X, Vec3::Z])),
        v(2.0, 1.0, Weights::Qdef([Some(2), Some(3), None, None], [0.75, 0.25, 0.0, 0.0])),
    ]
}

/// Bones with every flag, the root listed after its child.
fn sample_bones() -> Vec<RawBone> {
    let bone = |name: &str, parent: Option<usize>, y: f32, flags: u16| RawBone {
        offset: 0,
        name: name.into(),
        name_en: format!("{name}_en"),
        position: Vec3::new(0.0, y, 0.0),
        parent,
        layer: 0,
        flags,
        tail: if flags & f::TAIL_IS_BONE != 0 { BoneTail::Bone(None) } else { BoneTail::Offset(Vec3::Y) },
        append: None,
        fixed_axis: None,
        local_axes: None,
        external_key: None,
        ik: None,
    };
    let mut bones = vec![
        // The root is listed after its child: the reader must reorder.
        bone("child", Some(1), 2.0, f::ROTATABLE | f::VISIBLE | f::OPERABLE | f::TAIL_IS_BONE),
        bone("root", None, 0.0, f::ROTATABLE | f::TRANSLATABLE | f::VISIBLE | f::OPERABLE),
        bone("append", Some(1), 1.0, f::ROTATABLE | f::APPEND_ROTATION | f::APPEND_TRANSLATION | f::LOCAL_APPEND),
        bone("axes", Some(0), 3.0, f::FIXED_AXIS | f::LOCAL_AXES | f::EXTERNAL_PARENT | f::AFTER_PHYSICS),
        bone("ik", Some(1), 0.5, f::IK | f::TRANSLATABLE),
    ];
    bones[2].append = Some((Some(0), 0.5));
    bones[2].layer = 1;
    bones[3].fixed_axis = Some(Vec3::X);
    bones[3].local_axes = Some([Vec3::X, Vec3::Z]);
    bones[3].external_key = Some(7);
    bones[4].ik = Some(RawIk {
        target: Some(3),
        loop_count: 40,
        limit_angle: 0.5,
        links: vec![
            (Some(0), Some(AngleLimits { min: Vec3::new(-3.0, 0.0, 0.0), max: Vec3::new(-0.01, 0.0, 0.0) })),
            (Some(1), None),
        ],
    });
    bones
}

/// One morph of each kind.
fn sample_morphs() -> Vec<RawMorph> {
    let morph =
        |name: &str, panel, offsets| RawMorph { offset: 0, name: name.into(), name_en: String::new(), panel, offsets };
    let tint = [Vec4::ONE; 8];
    vec![
        morph("vertex", MorphPanel::Mouth, RawOffsets::Vertex(vec![(1, Vec3::X), (4, Vec3::Y)])),
        morph("uv", MorphPanel::Eye, RawOffsets::Uv(0, vec![(2, Vec4::new(0.5, 0.5, 0.0, 0.0))])),
        morph("uv1", MorphPanel::Eye, RawOffsets::Uv(1, vec![(3, Vec4::ONE)])),
        morph("bone", MorphPanel::Eyebrow, RawOffsets::Bone(vec![(Some(2), Vec3::Y, Quat::from_rotation_x(0.5))])),
        morph(
            "material",
            MorphPanel::Other,
            RawOffsets::Material(vec![(None, MaterialOp::Multiply, tint), (Some(0), MaterialOp::Add, tint)]),
        ),
        morph("group", MorphPanel::Other, RawOffsets::Group(vec![(Some(0), 0.5), (Some(1), 1.0)])),
        morph("flip", MorphPanel::Other, RawOffsets::Flip(vec![(Some(0), 1.0)])),
        morph("impulse", MorphPanel::System, RawOffsets::Impulse(vec![(Some(0), true, Vec3::X, Vec3::Y)])),
    ]
}

/// A textured material with every flag and shared toon, and an untextured one with its own toon.
fn sample_materials() -> Vec<Material> {
    let material = |name: &str, texture: Option<&str>, toon: Toon, flags: u8, indices: i32| Material {
        material: MmdMaterial {
            name: name.into(),
            name_en: format!("{name}_en"),
            diffuse: Vec4::new(1.0, 0.5, 0.25, 0.75),
            specular: Vec3::ONE,
            specular_power: 5.0,
            ambient: Vec3::splat(0.5),
            flags,
            edge_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
            edge_size: 1.0,
            texture: texture.map(str::to_string),
            sphere: Some("sub/sphere.spa".into()),
            sphere_mode: SphereMode::Add,
            toon,
            memo: "memo".into(),
            triangles: 0,
        },
        indices,
    };
    vec![
        material("a", Some("tex/body.png"), Toon::Shared(3), 0x1F, 6),
        material("b", None, Toon::Texture("toon.bmp".into()), 0, 3),
    ]
}

/// Two rigid bodies (one on no bone) and a joint between them.
fn sample_physics() -> (Vec<RigidBody>, Vec<PhysicsJoint>) {
    let body = RigidBody {
        name: "body".into(),
        name_en: "body_en".into(),
        bone: Some(0),
        group: 2,
        collision_mask: 0xFFFE,
        shape: 2,
        size: Vec3::ONE,
        position: Vec3::Y,
        rotation: Vec3::ZERO,
        mass: 1.0,
        linear_damping: 0.5,
        angular_damping: 0.5,
        restitution: 0.0,
        friction: 0.5,
        mode: 1,
    };
    let bodies = vec![body.clone(), RigidBody { name: "second".into(), bone: None, ..body }];
    let joints = vec![sample_joint("joint", "joint_en")];
    (bodies, joints)
}

/// A joint between rigid bodies 0 and 1 with rotation limits of ±1 (shared by the PMD sample).
pub fn sample_joint(name: &str, name_en: &str) -> PhysicsJoint {
    PhysicsJoint {
        name: name.into(),
        name_en: name_en.into(),
        kind: 0,
        bodies: [Some(0), Some(1)],
        position: Vec3::Y,
        rotation: Vec3::ZERO,
        translation_min: Vec3::ZERO,
        translation_max: Vec3::ZERO,
        rotation_min: Vec3::splat(-1.0),
        rotation_max: Vec3::splat(1.0),
        spring_translation: Vec3::ZERO,
        spring_rotation: Vec3::ZERO,
    }
}

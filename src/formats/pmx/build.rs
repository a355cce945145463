//! A read PMX file into the scene: bones reordered parents-first, the bind pose from absolute bone positions,
//! one mesh per material, morphs and constraints with their indices checked and turned into scene indices.

use glam::Vec2;

use super::bone::RawBone;
use super::morph::{RawMorph, RawOffsets};
use super::reader::Header;
use super::vertex::RawVertex;
use crate::error::LoadError;
use crate::formats::mmd_common::{self, Body, BoneIn, Rig, Rules, Warnings};
use crate::scene::{
    Append, BlendMethod, BoneOffset, Constraints, CustomStream, DisplayFrame, Format, IkChain, IkLink, ImpulseOffset,
    JointDeform, MaterialOffset, Metadata, MmdBone, MmdInfo, Morph, MorphKind, MorphWeight, PhysicsJoint, RigidBody,
    Scene, SphericalBlend, UvOffset, VertexBlend, VertexOffset, VertexStreams, bone_flags as bf,
};

const RULES: Rules = Rules {
    bone_parent: "pmx.bone.parent",
    bone_cycle: "pmx.bone.cycle",
    vertex_bone: "pmx.vertex.bone",
    face_vertex: "pmx.face.vertex",
    face_unassigned: "pmx.face.unassigned",
};

pub struct RawModel {
    pub header: Header,
    pub vertices: Vec<RawVertex>,
    pub faces_at: u64,
    pub faces: Vec<u32>,
    pub textures: Vec<String>,
    pub materials: Vec<super::material::RawMaterial>,
    pub bones: Vec<RawBone>,
    pub morphs: Vec<RawMorph>,
    pub frames: Vec<DisplayFrame>,
    pub dropped_frame_items: usize,
    pub rigid_bodies: Vec<RigidBody>,
    pub joints: Vec<PhysicsJoint>,
}

pub fn build(raw: RawModel) -> Result<Scene, LoadError> {
    let mut w = Warnings::default();
    let nv = raw.vertices.len();
    let ins = raw
        .bones
        .iter()
        .map(|b| BoneIn { name: &b.name, position: b.position, parent: b.parent, offset: b.offset })
        .collect();
    let rig = mmd_common::rig(ins, &RULES, &mut w);
    let (mut vertices, vertex_facts) = vertices(&raw, &rig.joint_of, &mut w);
    let triangles = mmd_common::triangles(&raw.faces, nv, raw.faces_at, &RULES, &mut w)?;
    let counts: Vec<(u64, i64)> = raw.materials.iter().map(|m| (m.offset, i64::from(m.indices))).collect();
    let mut mmd_materials: Vec<_> = raw.materials.into_iter().map(|m| m.material).collect();
    let (meshes, materials) =
        mmd_common::meshes(&mut mmd_materials, &counts, triangles.len(), nv, raw.faces_at, &RULES, &mut w)?;
    let (mut constraints, bones) = bones(&raw.bones, &rig, &mut w);
    constraints.deform = deform_order(&raw.bones, &rig.bone_of_joint);
    let tables =
        Tables { vertices: nv, bones: &rig.joint_of, materials: materials.len(), rigid: raw.rigid_bodies.len() };
    let morphs = morphs(raw.morphs, &tables, &mut w);
    if raw.dropped_frame_items > 0 {
        w.file(
            "pmx.frame.none",
            format!("{} display frame entries name no bone or morph; dropped", raw.dropped_frame_items),
        );
    }
    if raw.bones.is_empty() {
        vertices.joints = None;
        vertices.weights = None;
    }

    let h = raw.header;
    let version = if h.version == 2.0 { "2.0" } else { "2.1" };
    let mut meta = Metadata::new(Format::Pmx, version);
    meta.comment = (!h.comment.is_empty()).then(|| h.comment.clone());
    meta.warnings = w.0;
    let info = MmdInfo {
        encoding: h.encoding,
        name: h.name,
        name_en: h.name_en,
        comment: h.comment,
        comment_en: h.comment_en,
        additional_uvs: h.additional_uvs,
        index_sizes: h.sizes,
        weight_kinds: vertex_facts.kinds,
        edge_scale: vertex_facts.edge_scale,
        textures: raw.textures,
        materials: mmd_materials,
        bones,
        bone_of_joint: rig.bone_of_joint,
        display_frames: raw.frames,
        toon_textures: Vec::new(),
        rigid_bodies: raw.rigid_bodies,
        joints: raw.joints,
        has_english: true,
    };
    let body = Body { vertices, triangles, meshes, materials, skeleton: rig.skeleton, morphs, constraints };
    Ok(mmd_common::scene(meta, body, info))
}

/// What the vertices say that the streams don't carry: weight kinds counted, edge scales.
struct VertexFacts {
    kinds: [usize; 5],
    edge_scale: Vec<f32>,
}

/// The vertex streams (additional UVs as custom streams `uv1`…`uv4`; SDEF and QDEF vertices as the streams'
/// [`VertexBlend`], their joints and weights as BDEF2's and BDEF4's).
fn vertices(raw: &RawModel, joint_of: &[usize], w: &mut Warnings) -> (VertexStreams, VertexFacts) {
    let nv = raw.vertices.len();
    let mut extra: Vec<Vec<f32>> = vec![Vec::with_capacity(nv * 4); usize::from(raw.header.additional_uvs)];
    let mut facts = VertexFacts { kinds: [0; 5], edge_scale: Vec::with_capacity(nv) };
    for v in &raw.vertices {
        for (k, e) in extra.iter_mut().enumerate() {
            e.extend_from_slice(&v.additional[k].to_array());
        }
        facts.kinds[v.weights.kind()] += 1;
        facts.edge_scale.push(v.edge_scale);
    }
    let (joints, weights) =
        mmd_common::skin_weights(raw.vertices.iter().map(|v| v.weights.linear()), joint_of, &RULES, w);
    let streams = VertexStreams {
        positions: raw.vertices.iter().map(|v| v.position).collect(),
        normals: Some(raw.vertices.iter().map(|v| v.normal).collect()),
        texcoords: Some(raw.vertices.iter().map(|v| v.uv).collect::<Vec<Vec2>>()),
        joints: Some(joints),
        weights: Some(weights),
        outline: Some(raw.vertices.iter().map(|v| if v.edge_scale.is_finite() { v.edge_scale } else { 0.0 }).collect()),
        custom: extra
            .into_iter()
            .enumerate()
            .map(|(k, data)| CustomStream { name: format!("uv{}", k + 1), components: 4, data })
            .collect(),
        blend: (facts.kinds[3] + facts.kinds[4] > 0).then(|| blend(&raw.vertices, joint_of)),
        ..Default::default()
    };
    (streams, facts)
}

/// SDEF vertices blend spherically and QDEF vertices by dual quaternions when their bones are bones; a vertex
/// naming a bone past the bone count blends linearly what remains, as the other kinds do.
fn blend(vertices: &[super::RawVertex], joint_of: &[usize]) -> VertexBlend {
    use super::vertex::Weights;
    let bone = |b: &Option<usize>| b.is_some_and(|b| b < joint_of.len());
    let mut out = VertexBlend { methods: Vec::with_capacity(vertices.len()), spherical: Vec::new() };
    for v in vertices {
        let method = match v.weights {
            Weights::Sdef(b, _, [c, r0, r1]) if b.iter().all(bone) => {
                out.spherical.push(SphericalBlend { c, r0, r1 });
                BlendMethod::Spherical(out.spherical.len() as u32 - 1)
            }
            Weights::Qdef(b, _) if b.iter().any(bone) => BlendMethod::DualQuaternion,
            _ => BlendMethod::Linear,
        };
        out.methods.push(method);
    }
    out
}

/// IK chains and append relations with their indices checked, and each bone's facts in file order.
fn bones(raw: &[RawBone], rig: &Rig, w: &mut Warnings) -> (Constraints, Vec<MmdBone>) {
    let nb = raw.len();
    let bone_ok = |b: Option<usize>| b.filter(|&b| b < nb);
    let joint_of = &rig.joint_of;
    let mut constraints = Constraints::default();
    let mut mmd_bones = Vec::with_capacity(nb);
    for (i, b) in raw.iter().enumerate() {
        let mut ik_index = None;
        if let Some(ik) = &b.ik {
            match bone_ok(ik.target) {
                None => w.at(
                    "pmx.ik.target",
                    b.offset,
                    format!("bone {i} \"{}\": IK target {:?} is not a bone; chain dropped", b.name, ik.target),
                ),
                Some(t) => {
                    let mut links = Vec::with_capacity(ik.links.len());
                    for (k, (l, limits)) in ik.links.iter().enumerate() {
                        match bone_ok(*l) {
                            Some(l) => links.push(IkLink { joint: joint_of[l], limits: *limits }),
                            None => w.at(
                                "pmx.ik.link",
                                b.offset,
                                format!("bone {i} \"{}\": IK link {k} ({l:?}) is not a bone; dropped", b.name),
                            ),
                        }
                    }
                    ik_index = Some(constraints.ik.len());
                    constraints.ik.push(IkChain {
                        joint: joint_of[i],
                        target: joint_of[t],
                        loop_count: ik.loop_count.max(0) as u32,
                        limit_angle: ik.limit_angle,
                        links,
                    });
                }
            }
        }
        let mut append = None;
        if let Some((source, ratio)) = b.append {
            match bone_ok(source).filter(|&s| s != i) {
                Some(s) => {
                    append = Some((s, ratio));
                    constraints.append.push(Append {
                        joint: joint_of[i],
                        source: joint_of[s],
                        ratio,
                        rotation: b.flags & bf::APPEND_ROTATION != 0,
                        translation: b.flags & bf::APPEND_TRANSLATION != 0,
                        local: b.flags & bf::LOCAL_APPEND != 0,
                    });
                }
                None => w.at(
                    "pmx.append.source",
                    b.offset,
                    format!("bone {i} \"{}\": append parent {source:?} is not another bone; ignored", b.name),
                ),
            }
        }
        mmd_bones.push(MmdBone {
            name: b.name.clone(),
            name_en: b.name_en.clone(),
            joint: joint_of[i],
            parent: rig.parents[i],
            position: b.position,
            layer: b.layer,
            flags: b.flags,
            tail: b.tail,
            pmd_kind: None,
            ik: ik_index,
            append,
            external_key: b.external_key,
        });
    }
    (constraints, mmd_bones)
}

/// Each scene joint's deform layer, physics stage, file order, fixed axis and local axes.
fn deform_order(raw: &[RawBone], bone_of_joint: &[usize]) -> Vec<JointDeform> {
    bone_of_joint
        .iter()
        .map(|&i| {
            let b = &raw[i];
            JointDeform {
                layer: b.layer,
                after_physics: b.flags & bf::AFTER_PHYSICS != 0,
                order: i as u32,
                fixed_axis: b.fixed_axis,
                local_axes: b.local_axes,
            }
        })
        .collect()
}

/// The table sizes morph offsets index into, and the scene joint of each file bone.
struct Tables<'a> {
    vertices: usize,
    bones: &'a [usize],
    materials: usize,
    rigid: usize,
}

/// Morphs with their offsets' indices checked (an offset past its table is dropped, one warning per morph).
fn morphs(raw: Vec<RawMorph>, t: &Tables, w: &mut Warnings) -> Vec<Morph> {
    let nmorph = raw.len();
    let mut morphs = Vec::with_capacity(nmorph);
    for (i, m) in raw.into_iter().enumerate() {
        let mut dropped = 0usize;
        let mut keep = |ok: bool| {
            if !ok {
                dropped += 1;
            }
            ok
        };
        let kind = morph_kind(m.offsets, t, nmorph, &mut keep);
        if dropped > 0 {
            w.at(
                "pmx.morph.index",
                m.offset,
                format!("morph {i} \"{}\": {dropped} offsets index past their table; dropped", m.name),
            );
        }
        morphs.push(Morph { name: m.name, name_en: m.name_en, panel: m.panel, kind });
    }
    morphs
}

/// One morph's offsets in scene terms; `keep` is told of every offset whether its index is in range.
fn morph_kind(offsets: RawOffsets, t: &Tables, nmorph: usize, keep: &mut impl FnMut(bool) -> bool) -> MorphKind {
    let nv = t.vertices;
    match offsets {
        RawOffsets::Vertex(v) => MorphKind::Vertex(
            v.into_iter()
                .filter(|o| keep((o.0 as usize) < nv))
                .map(|(vertex, delta)| VertexOffset { vertex, delta })
                .collect(),
        ),
        RawOffsets::Uv(channel, v) => MorphKind::Uv {
            channel,
            offsets: v
                .into_iter()
                .filter(|o| keep((o.0 as usize) < nv))
                .map(|(vertex, delta)| UvOffset { vertex, delta })
                .collect(),
        },
        RawOffsets::Bone(v) => MorphKind::Bone(
            v.into_iter()
                .filter_map(|(b, translation, rotation)| {
                    let joint = b.and_then(|b| t.bones.get(b)).copied();
                    keep(joint.is_some());
                    Some(BoneOffset { joint: joint?, translation, rotation })
                })
                .collect(),
        ),
        RawOffsets::Material(v) => MorphKind::Material(
            v.into_iter()
                .filter(|o| keep(o.0.is_none_or(|m| m < t.materials)))
                .map(|(material, op, c)| MaterialOffset {
                    material,
                    op,
                    diffuse: c[0],
                    specular: c[1].truncate(),
                    specular_power: c[1].w,
                    ambient: c[2].truncate(),
                    edge_color: c[3],
                    edge_size: c[4].x,
                    texture_tint: c[5],
                    sphere_tint: c[6],
                    toon_tint: c[7],
                })
                .collect(),
        ),
        RawOffsets::Group(v) => MorphKind::Group(morph_weights(v, nmorph, keep)),
        RawOffsets::Flip(v) => MorphKind::Flip(morph_weights(v, nmorph, keep)),
        RawOffsets::Impulse(v) => MorphKind::Impulse(
            v.into_iter()
                .filter_map(|(b, local, velocity, torque)| {
                    let b = b.filter(|&b| b < t.rigid);
                    keep(b.is_some());
                    Some(ImpulseOffset { rigid_body: b?, local, velocity, torque })
                })
                .collect(),
        ),
    }
}

/// Group and flip entries with their morph index checked.
fn morph_weights(v: Vec<(Option<usize>, f32)>, n: usize, keep: &mut impl FnMut(bool) -> bool) -> Vec<MorphWeight> {
    v.into_iter()
        .filter_map(|(m, weight)| {
            let m = m.filter(|&m| m < n);
            keep(m.is_some());
            Some(MorphWeight { morph: m?, weight })
        })
        .collect()
}

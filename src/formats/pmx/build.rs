//! A read PMX file into the scene: bones reordered parents-first, the bind pose from absolute bone positions,
//! one mesh per material, morphs and constraints with their indices checked and turned into scene indices.

use glam::Vec2;

use super::bone::RawBone;
use super::morph::{RawMorph, RawOffsets};
use super::reader::Header;
use super::vertex::RawVertex;
use crate::error::LoadError;
use crate::formats::mmd_common::{self, BoneIn, Warnings};
use crate::scene::{
    Append, BoneOffset, Constraints, CustomStream, DisplayFrame, Format, FrontFace, IkChain, IkLink, ImpulseOffset,
    JointDeform, MaterialOffset, Mesh, Metadata, MmdBone, MmdInfo, MmdMaterial, Morph, MorphKind, MorphWeight,
    PhysicsJoint, RigidBody, Scene, SdefVertex, UpAxis, UvOffset, VertexOffset, bone_flags as bf, material_flags,
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
    let nb = raw.bones.len();
    let nv = raw.vertices.len();
    let bone_ok = |b: Option<usize>| b.filter(|&b| b < nb);

    // Skeleton.
    let ins: Vec<BoneIn> = raw
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let parent = match b.parent {
                Some(p) if p >= nb || p == i => {
                    w.at(
                        "pmx.bone.parent",
                        b.offset,
                        format!("bone {i} \"{}\": parent index {p} is not another bone; made a root", b.name),
                    );
                    None
                }
                p => p,
            };
            BoneIn { name: &b.name, position: b.position, parent, offset: b.offset }
        })
        .collect();
    let (skeleton, joint_of, bone_of_joint) = mmd_common::skeleton(&ins, "pmx.bone.cycle", &mut w);
    let parents: Vec<Option<usize>> = ins.iter().map(|b| b.parent).collect();
    drop(ins);

    // Vertices.
    let mut positions = Vec::with_capacity(nv);
    let mut normals = Vec::with_capacity(nv);
    let mut texcoords: Vec<Vec2> = Vec::with_capacity(nv);
    let mut joints = Vec::with_capacity(nv);
    let mut weights = Vec::with_capacity(nv);
    let mut extra: Vec<Vec<f32>> = vec![Vec::with_capacity(nv * 4); usize::from(raw.header.additional_uvs)];
    let mut kinds = [0usize; 5];
    let mut sdef = Vec::new();
    let mut edge_scale = Vec::with_capacity(nv);
    let mut bad_bone = 0usize;
    for (i, v) in raw.vertices.iter().enumerate() {
        positions.push(v.position);
        normals.push(v.normal);
        texcoords.push(v.uv);
        for (k, e) in extra.iter_mut().enumerate() {
            e.extend_from_slice(&v.additional[k].to_array());
        }
        kinds[v.weights.kind()] += 1;
        if let super::vertex::Weights::Sdef(_, _, [c, r0, r1]) = v.weights {
            sdef.push(SdefVertex { vertex: i as u32, c, r0, r1 });
        }
        edge_scale.push(v.edge_scale);
        let (b, wt) = v.weights.linear();
        let mut j = [0u32; 4];
        let mut ws = [0f32; 4];
        for k in 0..4 {
            match bone_ok(b[k]) {
                Some(b) => {
                    j[k] = joint_of[b] as u32;
                    ws[k] = wt[k];
                }
                None if wt[k] != 0.0 && b[k].is_some() => bad_bone += 1,
                None => {}
            }
        }
        joints.push(j);
        weights.push(ws);
    }
    if bad_bone > 0 {
        w.file("pmx.vertex.bone", format!("{bad_bone} vertex weights name a bone index past the bone count; dropped"));
    }

    // Faces.
    let mut triangles: Vec<[u32; 3]> = Vec::with_capacity(raw.faces.len() / 3);
    let mut bad_faces = 0usize;
    for t in raw.faces.chunks_exact(3) {
        if t.iter().any(|&v| v as usize >= nv) {
            bad_faces += 1;
            triangles.push([0; 3]);
        } else {
            triangles.push([t[0], t[1], t[2]]);
        }
    }
    if bad_faces > 0 {
        if nv == 0 {
            return Err(LoadError::at(raw.faces_at, "faces index vertices, but the file has none"));
        }
        w.at(
            "pmx.face.vertex",
            raw.faces_at,
            format!("{bad_faces} triangles index a vertex past the vertex count {nv}; not drawn"),
        );
    }

    // Materials and meshes.
    let mut meshes = Vec::with_capacity(raw.materials.len());
    let mut materials = Vec::with_capacity(raw.materials.len());
    let mut mmd_materials: Vec<MmdMaterial> = Vec::with_capacity(raw.materials.len());
    let mut first = 0u64;
    let total = triangles.len() as u64;
    for (i, m) in raw.materials.into_iter().enumerate() {
        let at = m.offset;
        if m.indices < 0 || m.indices % 3 != 0 {
            return Err(LoadError::at(
                at,
                format!("material {i} face index count {}: expected a non-negative multiple of 3", m.indices),
            ));
        }
        let tris = m.indices as u64 / 3;
        if first + tris > total {
            return Err(LoadError::at(
                at,
                format!(
                    "material {i} face index count {}: the materials before it leave only {} of the {} indices",
                    m.indices,
                    (total - first) * 3,
                    total * 3
                ),
            ));
        }
        let mut mm = m.material;
        mm.triangles = tris as u32;
        meshes.push(Mesh {
            name: mm.name.clone(),
            material: i,
            first_triangle: first as u32,
            num_triangles: tris as u32,
            first_vertex: 0,
            num_vertices: nv as u32,
            two_sided: mm.flags & material_flags::TWO_SIDED != 0,
            uv_animation: None,
        });
        materials.push(mmd_common::material(&mm.name, mm.texture.as_deref()));
        mmd_materials.push(mm);
        first += tris;
    }
    if first < total {
        w.at(
            "pmx.face.unassigned",
            raw.faces_at,
            format!("{} triangles belong to no material; not drawn", total - first),
        );
    }
    let nm = materials.len();

    // Constraints and bone facts.
    let mut constraints = Constraints::default();
    let mut mmd_bones = Vec::with_capacity(nb);
    for (i, b) in raw.bones.iter().enumerate() {
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
            parent: parents[i],
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
    constraints.deform = bone_of_joint
        .iter()
        .map(|&i| {
            let b = &raw.bones[i];
            JointDeform {
                layer: b.layer,
                after_physics: b.flags & bf::AFTER_PHYSICS != 0,
                order: i as u32,
                fixed_axis: b.fixed_axis,
                local_axes: b.local_axes,
            }
        })
        .collect();

    // Morphs.
    let nmorph = raw.morphs.len();
    let nrigid = raw.rigid_bodies.len();
    let mut morphs = Vec::with_capacity(nmorph);
    for (i, m) in raw.morphs.into_iter().enumerate() {
        let mut dropped = 0usize;
        let mut keep = |ok: bool| {
            if !ok {
                dropped += 1;
            }
            ok
        };
        let kind = match m.offsets {
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
                        let b = bone_ok(b);
                        keep(b.is_some());
                        Some(BoneOffset { joint: joint_of[b?], translation, rotation })
                    })
                    .collect(),
            ),
            RawOffsets::Material(v) => MorphKind::Material(
                v.into_iter()
                    .filter(|o| keep(o.0.is_none_or(|m| m < nm)))
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
            RawOffsets::Group(v) => MorphKind::Group(morph_weights(v, nmorph, &mut keep)),
            RawOffsets::Flip(v) => MorphKind::Flip(morph_weights(v, nmorph, &mut keep)),
            RawOffsets::Impulse(v) => MorphKind::Impulse(
                v.into_iter()
                    .filter_map(|(b, local, velocity, torque)| {
                        let b = b.filter(|&b| b < nrigid);
                        keep(b.is_some());
                        Some(ImpulseOffset { rigid_body: b?, local, velocity, torque })
                    })
                    .collect(),
            ),
        };
        if dropped > 0 {
            w.at(
                "pmx.morph.index",
                m.offset,
                format!("morph {i} \"{}\": {dropped} offsets index past their table; dropped", m.name),
            );
        }
        morphs.push(Morph { name: m.name, name_en: m.name_en, panel: m.panel, kind });
    }
    if raw.dropped_frame_items > 0 {
        w.file(
            "pmx.frame.none",
            format!("{} display frame entries name no bone or morph; dropped", raw.dropped_frame_items),
        );
    }

    let mut streams = crate::scene::VertexStreams {
        positions,
        normals: Some(normals),
        texcoords: Some(texcoords),
        custom: extra
            .into_iter()
            .enumerate()
            .map(|(k, data)| CustomStream { name: format!("uv{}", k + 1), components: 4, data })
            .collect(),
        ..Default::default()
    };
    if nb > 0 {
        streams.joints = Some(joints);
        streams.weights = Some(weights);
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
        weight_kinds: kinds,
        sdef,
        edge_scale,
        textures: raw.textures,
        materials: mmd_materials,
        bones: mmd_bones,
        bone_of_joint,
        display_frames: raw.frames,
        toon_textures: Vec::new(),
        rigid_bodies: raw.rigid_bodies,
        joints: raw.joints,
        has_english: true,
    };
    Ok(Scene {
        vertices: streams,
        triangles,
        meshes,
        materials,
        skeleton,
        up: UpAxis::YLeftHanded,
        front_face: FrontFace::Ccw,
        morphs,
        constraints,
        mmd: Some(Box::new(info)),
        ..Scene::empty(meta)
    })
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

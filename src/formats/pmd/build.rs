//! A read PMD file into the scene, by the rules the PMX loader follows: bones parents-first with the file order
//! kept, bind pose from absolute positions, one mesh per material, skins (after the base) as vertex morphs with
//! the base-relative indices resolved, the IK list and "rotation influenced" bones as constraints.

use glam::{Vec3, Vec4};

use super::parse::RawModel;
use crate::error::LoadError;
use crate::formats::mmd_common::{self, BoneIn, Warnings};
use crate::scene::{
    AngleLimits, Append, BoneTail, Constraints, DisplayFrame, DisplayItem, Format, FrontFace, IkChain, IkLink,
    JointDeform, Mesh, Metadata, MmdBone, MmdEncoding, MmdInfo, MmdMaterial, Morph, MorphKind, MorphPanel, Scene,
    SphereMode, Toon, UpAxis, VertexOffset, VertexStreams, bone_flags as bf, material_flags as mf,
};

/// MikuMikuDance's knee links ("ひざ" in the name) turn about X only, within these limits (radians).
const KNEE: AngleLimits =
    AngleLimits { min: Vec3::new(-std::f32::consts::PI, 0.0, 0.0), max: Vec3::new(-0.008_726_646, 0.0, 0.0) };

/// PMD's IK limit is stored in units of 4 radians (PMX converters multiply by 4).
const IK_LIMIT_UNIT: f32 = 4.0;

/// Flag bits each PMD bone kind implies.
fn kind_flags(kind: u8) -> u16 {
    let base = bf::TAIL_IS_BONE | bf::ROTATABLE;
    let shown = bf::VISIBLE | bf::OPERABLE;
    base | match kind {
        0 | 4 => shown,
        1 | 2 => shown | bf::TRANSLATABLE,
        5 => bf::APPEND_ROTATION,
        8 => shown | bf::FIXED_AXIS,
        9 => bf::VISIBLE | bf::APPEND_ROTATION,
        _ => 0,
    }
}

pub fn build(raw: RawModel) -> Result<Scene, LoadError> {
    let mut w = Warnings::default();
    let nb = raw.bones.len();
    let nv = raw.vertices.len();
    let bone = |b: u16| (usize::from(b) < nb).then_some(usize::from(b));

    let ins: Vec<BoneIn> = raw
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let parent = match b.parent {
                0xFFFF => None,
                p if usize::from(p) >= nb || usize::from(p) == i => {
                    w.at(
                        "pmd.bone.parent",
                        b.offset,
                        format!("bone {i} \"{}\": parent index {p} is not another bone; made a root", b.name),
                    );
                    None
                }
                p => Some(usize::from(p)),
            };
            BoneIn { name: &b.name, position: b.position, parent, offset: b.offset }
        })
        .collect();
    let (skeleton, joint_of, bone_of_joint) = mmd_common::skeleton(&ins, "pmd.bone.cycle", &mut w);
    let parents: Vec<Option<usize>> = ins.iter().map(|b| b.parent).collect();
    drop(ins);

    // Vertices: two bones and the first one's weight in percent.
    let mut joints = Vec::with_capacity(nv);
    let mut weights = Vec::with_capacity(nv);
    let mut bad_bone = 0usize;
    for v in &raw.vertices {
        let w0 = f32::from(v.weight.min(100)) / 100.0;
        let mut j = [0u32; 4];
        let mut ws = [w0, 1.0 - w0, 0.0, 0.0];
        for k in 0..2 {
            match bone(v.bones[k]) {
                Some(b) => j[k] = joint_of[b] as u32,
                None => {
                    if ws[k] != 0.0 {
                        bad_bone += 1;
                    }
                    ws[k] = 0.0;
                }
            }
        }
        joints.push(j);
        weights.push(ws);
    }
    if bad_bone > 0 {
        w.file("pmd.vertex.bone", format!("{bad_bone} vertex weights name a bone index past the bone count; dropped"));
    }
    let weight_over = raw.vertices.iter().filter(|v| v.weight > 100).count();
    if weight_over > 0 {
        w.file("pmd.vertex.weight", format!("{weight_over} vertices give a weight above 100; taken as 100"));
    }

    // Faces.
    let mut triangles = Vec::with_capacity(raw.faces.len() / 3);
    let mut bad_faces = 0usize;
    for t in raw.faces.chunks_exact(3) {
        if t.iter().any(|&v| usize::from(v) >= nv) {
            bad_faces += 1;
            triangles.push([0; 3]);
        } else {
            triangles.push([u32::from(t[0]), u32::from(t[1]), u32::from(t[2])]);
        }
    }
    if bad_faces > 0 {
        if nv == 0 {
            return Err(LoadError::at(raw.faces_at, "faces index vertices, but the file has none"));
        }
        w.at(
            "pmd.face.vertex",
            raw.faces_at,
            format!("{bad_faces} triangles index a vertex past the vertex count {nv}; not drawn"),
        );
    }

    // Materials: "texture*sphere" names, .sph multiplies and .spa adds.
    let toon_names: Vec<String> = match &raw.toons {
        Some(t) => t.clone(),
        None => (1..=10).map(|i| format!("toon{i:02}.bmp")).collect(),
    };
    let total = triangles.len() as u64;
    let mut first = 0u64;
    let mut meshes = Vec::new();
    let mut materials = Vec::new();
    let mut mmd_materials = Vec::new();
    let mut textures: Vec<String> = Vec::new();
    for (i, m) in raw.materials.iter().enumerate() {
        if m.indices % 3 != 0 {
            return Err(LoadError::at(
                m.offset,
                format!("material {i} face index count {}: expected a multiple of 3", m.indices),
            ));
        }
        let tris = u64::from(m.indices / 3);
        if first + tris > total {
            return Err(LoadError::at(
                m.offset,
                format!(
                    "material {i} face index count {}: the materials before it leave only {} of the {} indices",
                    m.indices,
                    (total - first) * 3,
                    total * 3
                ),
            ));
        }
        let mut texture = None;
        let mut sphere = None;
        for part in m.texture.split('*').map(|p| p.replace('\\', "/")).filter(|p| !p.is_empty()) {
            let lower = part.to_ascii_lowercase();
            if lower.ends_with(".sph") || lower.ends_with(".spa") {
                sphere = Some(part);
            } else {
                texture = Some(part);
            }
        }
        let sphere_mode = match &sphere {
            Some(s) if s.to_ascii_lowercase().ends_with(".spa") => SphereMode::Add,
            Some(_) => SphereMode::Multiply,
            None => SphereMode::None,
        };
        for t in texture.iter().chain(&sphere) {
            if !textures.contains(t) {
                textures.push(t.clone());
            }
        }
        let toon = match m.toon {
            t if usize::from(t) < 10 => match &raw.toons {
                Some(list) => Toon::Texture(list[usize::from(t)].clone()),
                None => Toon::Shared(t),
            },
            _ => Toon::None,
        };
        let mut flags = if m.edge != 0 { mf::EDGE } else { 0 };
        // MikuMikuDance draws translucent PMD materials from both sides.
        if m.diffuse.w < 1.0 {
            flags |= mf::TWO_SIDED;
        }
        let name = format!("material {i}");
        meshes.push(Mesh {
            name: name.clone(),
            material: i,
            first_triangle: first as u32,
            num_triangles: tris as u32,
            first_vertex: 0,
            num_vertices: nv as u32,
            two_sided: flags & mf::TWO_SIDED != 0,
            uv_animation: None,
        });
        materials.push(mmd_common::material(&name, texture.as_deref()));
        mmd_materials.push(MmdMaterial {
            name,
            name_en: String::new(),
            diffuse: m.diffuse,
            specular: m.specular,
            specular_power: m.specular_power,
            ambient: m.ambient,
            flags,
            edge_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
            edge_size: if m.edge != 0 { 1.0 } else { 0.0 },
            texture,
            sphere,
            sphere_mode,
            toon,
            memo: String::new(),
            triangles: tris as u32,
        });
        first += tris;
    }
    if first < total {
        w.at(
            "pmd.face.unassigned",
            raw.faces_at,
            format!("{} triangles belong to no material; not drawn", total - first),
        );
    }

    // IK chains.
    let mut constraints = Constraints::default();
    let mut ik_of_bone = vec![None; nb];
    for (i, ik) in raw.iks.iter().enumerate() {
        let (Some(b), Some(t)) = (bone(ik.bone), bone(ik.target)) else {
            w.at(
                "pmd.ik.bone",
                ik.offset,
                format!("IK {i}: bone {} or target {} is not a bone; chain dropped", ik.bone, ik.target),
            );
            continue;
        };
        let mut links = Vec::with_capacity(ik.links.len());
        for &l in &ik.links {
            match bone(l) {
                Some(l) => {
                    let knee = raw.bones[l].name.contains("ひざ");
                    links.push(IkLink { joint: joint_of[l], limits: knee.then_some(KNEE) });
                }
                None => w.at("pmd.ik.link", ik.offset, format!("IK {i}: link {l} is not a bone; dropped")),
            }
        }
        ik_of_bone[b] = Some(constraints.ik.len());
        constraints.ik.push(IkChain {
            joint: joint_of[b],
            target: joint_of[t],
            loop_count: u32::from(ik.iterations),
            limit_angle: ik.limit * IK_LIMIT_UNIT,
            links,
        });
    }

    // Bones, append relations and deform order.
    let english = raw.english.as_ref();
    let mut mmd_bones = Vec::with_capacity(nb);
    for (i, b) in raw.bones.iter().enumerate() {
        let mut flags = kind_flags(b.kind);
        if ik_of_bone[i].is_some() {
            flags |= bf::IK | bf::TRANSLATABLE;
        }
        let mut append = None;
        match b.kind {
            // Rotation influenced: takes the rotation of the bone in its IK field.
            5 => match bone(b.ik).filter(|&s| s != i) {
                Some(s) => append = Some((s, 1.0)),
                None => w.at(
                    "pmd.append.source",
                    b.offset,
                    format!("bone {i} \"{}\": rotation source {} is not another bone; ignored", b.name, b.ik),
                ),
            },
            // Rotation follow: takes the rotation of its tail bone, by the IK field in percent.
            9 => match bone(b.tail).filter(|&t| t != i) {
                Some(t) => append = Some((t, f32::from(b.ik) / 100.0)),
                None => w.at(
                    "pmd.append.source",
                    b.offset,
                    format!("bone {i} \"{}\": follows no other bone (tail {}); ignored", b.name, b.tail),
                ),
            },
            _ => {}
        }
        if let Some((s, ratio)) = append {
            constraints.append.push(Append {
                joint: joint_of[i],
                source: joint_of[s],
                ratio,
                rotation: true,
                translation: false,
                local: false,
            });
        }
        mmd_bones.push(MmdBone {
            name: b.name.clone(),
            name_en: english.and_then(|e| e.bones.get(i).cloned()).unwrap_or_default(),
            joint: joint_of[i],
            parent: parents[i],
            position: b.position,
            layer: 0,
            flags,
            tail: BoneTail::Bone(bone(b.tail)),
            pmd_kind: Some(b.kind),
            ik: ik_of_bone[i],
            append,
            external_key: None,
        });
    }
    constraints.deform = bone_of_joint
        .iter()
        .map(|&i| {
            let b = &raw.bones[i];
            let fixed_axis = (b.kind == 8)
                .then(|| bone(b.tail).map(|t| raw.bones[t].position - b.position))
                .flatten()
                .and_then(|a| a.try_normalize());
            JointDeform { layer: 0, after_physics: false, order: i as u32, fixed_axis, local_axes: None }
        })
        .collect();

    // Skins: the base lists absolute vertices; the others index into the base's list.
    let base = raw.skins.iter().position(|s| s.kind == 0);
    let mut morphs = Vec::new();
    let mut morph_of_skin = vec![None; raw.skins.len()];
    for (i, skin) in raw.skins.iter().enumerate() {
        if Some(i) == base {
            let bad = skin.entries.iter().filter(|e| e.0 as usize >= nv).count();
            if bad > 0 {
                w.at(
                    "pmd.skin.index",
                    skin.offset,
                    format!("base skin: {bad} vertices past the vertex count; dropped"),
                );
            }
            continue;
        }
        let Some(b) = base.map(|b| &raw.skins[b]) else {
            w.at(
                "pmd.skin.base",
                skin.offset,
                format!("skin {i} \"{}\": no base skin to index into; dropped", skin.name),
            );
            continue;
        };
        let mut dropped = 0usize;
        let offsets: Vec<VertexOffset> = skin
            .entries
            .iter()
            .filter_map(|&(k, delta)| {
                let v = b.entries.get(k as usize).map(|e| e.0).filter(|&v| (v as usize) < nv);
                if v.is_none() {
                    dropped += 1;
                }
                Some(VertexOffset { vertex: v?, delta })
            })
            .collect();
        if dropped > 0 {
            w.at(
                "pmd.skin.index",
                skin.offset,
                format!(
                    "skin {i} \"{}\": {dropped} entries index past the base skin or the vertices; dropped",
                    skin.name
                ),
            );
        }
        let panel = match skin.kind {
            1 => MorphPanel::Eyebrow,
            2 => MorphPanel::Eye,
            3 => MorphPanel::Mouth,
            _ => MorphPanel::Other,
        };
        // The English names skip the base skin.
        let en_index = if base.is_some_and(|b| b < i) { i - 1 } else { i };
        morph_of_skin[i] = Some(morphs.len());
        morphs.push(Morph {
            name: skin.name.clone(),
            name_en: english.and_then(|e| e.skins.get(en_index).cloned()).unwrap_or_default(),
            panel,
            kind: MorphKind::Vertex(offsets),
        });
    }

    // Display frames: the expression list, then the named bone frames.
    let mut frames = vec![DisplayFrame {
        name: "表情".to_string(),
        name_en: "Exp".to_string(),
        special: true,
        items: raw
            .skin_list
            .iter()
            .filter_map(|&s| morph_of_skin.get(usize::from(s)).copied().flatten().map(DisplayItem::Morph))
            .collect(),
    }];
    for (k, name) in raw.frame_names.iter().enumerate() {
        frames.push(DisplayFrame {
            name: name.trim_end_matches(['\n', '\r']).to_string(),
            name_en: english
                .and_then(|e| e.frames.get(k))
                .map(|s| s.trim_end_matches(['\n', '\r']).to_string())
                .unwrap_or_default(),
            special: false,
            items: raw
                .frame_bones
                .iter()
                .filter(|(_, f)| usize::from(*f) == k + 1)
                .filter_map(|&(b, _)| bone(b).map(DisplayItem::Bone))
                .collect(),
        });
    }

    let mut rigid_bodies = raw.rigid_bodies;
    for r in &mut rigid_bodies {
        r.bone = r.bone.filter(|&b| b < nb);
    }
    let streams = VertexStreams {
        positions: raw.vertices.iter().map(|v| v.position).collect(),
        normals: Some(raw.vertices.iter().map(|v| v.normal).collect()),
        texcoords: Some(raw.vertices.iter().map(|v| v.uv).collect()),
        joints: (nb > 0).then_some(joints),
        weights: (nb > 0).then_some(weights),
        ..Default::default()
    };
    let mut meta = Metadata::new(Format::Pmd, format!("{}", raw.version));
    meta.comment = (!raw.comment.is_empty()).then(|| raw.comment.clone());
    meta.warnings = w.0;
    let info = MmdInfo {
        encoding: MmdEncoding::ShiftJis,
        name: raw.name,
        name_en: english.map(|e| e.name.clone()).unwrap_or_default(),
        comment: raw.comment,
        comment_en: english.map(|e| e.comment.clone()).unwrap_or_default(),
        additional_uvs: 0,
        index_sizes: [2, 1, 4, 2, 2, 4],
        weight_kinds: [0, nv, 0, 0, 0],
        sdef: Vec::new(),
        edge_scale: raw.vertices.iter().map(|v| if v.no_edge == 0 { 1.0 } else { 0.0 }).collect(),
        textures,
        materials: mmd_materials,
        bones: mmd_bones,
        bone_of_joint,
        display_frames: frames,
        toon_textures: toon_names,
        rigid_bodies,
        joints: raw.joints,
        has_english: english.is_some(),
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

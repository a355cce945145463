//! A read PMD file into the scene, by the rules the PMX loader follows: bones parents-first with the file order
//! kept, bind pose from absolute positions, one mesh per material, skins (after the base) as vertex morphs with
//! the base-relative indices resolved, the IK list and "rotation influenced" bones as constraints.

use glam::Vec4;

use super::parse::{English, RawBone, RawIk, RawMaterial, RawModel, RawSkin};
use crate::error::LoadError;
use crate::formats::mmd_common::{self, Body, BoneIn, Rules, Warnings};
use crate::scene::{
    AngleLimits, Append, BoneTail, Constraints, DisplayFrame, DisplayItem, Format, IkChain, IkLink, JointDeform,
    Metadata, MmdBone, MmdEncoding, MmdInfo, MmdMaterial, Morph, MorphKind, MorphPanel, Scene, SphereMode, Toon,
    VertexOffset, VertexStreams, bone_flags as bf, material_flags as mf,
};

const RULES: Rules = Rules {
    bone_parent: "pmd.bone.parent",
    bone_cycle: "pmd.bone.cycle",
    vertex_bone: "pmd.vertex.bone",
    face_vertex: "pmd.face.vertex",
    face_unassigned: "pmd.face.unassigned",
};

/// MikuMikuDance's knee links ("ひざ" in the name) turn about X only, within [`crate::scene::MMD_KNEE`].
const KNEE: AngleLimits = crate::scene::MMD_KNEE;

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

/// A bone index, if it names a bone of a table of `n`.
fn index(b: u16, n: usize) -> Option<usize> {
    (usize::from(b) < n).then_some(usize::from(b))
}

pub fn build(raw: RawModel) -> Result<Scene, LoadError> {
    let mut w = Warnings::default();
    let nb = raw.bones.len();
    let nv = raw.vertices.len();
    let ins = raw
        .bones
        .iter()
        .map(|b| BoneIn {
            name: &b.name,
            position: b.position,
            parent: (b.parent != 0xFFFF).then_some(usize::from(b.parent)),
            offset: b.offset,
        })
        .collect();
    let rig = mmd_common::rig(ins, &RULES, &mut w);

    // Vertices: two bones and the first one's weight in percent.
    let skin = raw.vertices.iter().map(|v| {
        let w0 = f32::from(v.weight.min(100)) / 100.0;
        let b = v.bones.map(|b| Some(usize::from(b)));
        ([b[0], b[1], None, None], [w0, 1.0 - w0, 0.0, 0.0])
    });
    let (joints, weights) = mmd_common::skin_weights(skin, &rig.joint_of, &RULES, &mut w);
    let weight_over = raw.vertices.iter().filter(|v| v.weight > 100).count();
    if weight_over > 0 {
        w.file("pmd.vertex.weight", format!("{weight_over} vertices give a weight above 100; taken as 100"));
    }
    let triangles = mmd_common::triangles(&raw.faces, nv, raw.faces_at, &RULES, &mut w)?;

    let (mut mmd_materials, textures) = materials(&raw.materials, raw.toons.as_deref());
    let counts: Vec<(u64, i64)> = raw.materials.iter().map(|m| (m.offset, i64::from(m.indices))).collect();
    let (meshes, materials) =
        mmd_common::meshes(&mut mmd_materials, &counts, triangles.len(), nv, raw.faces_at, &RULES, &mut w)?;

    let english = raw.english.as_ref();
    let mut constraints = Constraints::default();
    let ik_of_bone = ik_chains(&raw.iks, &raw.bones, &rig.joint_of, &mut constraints, &mut w);
    let bones = bones(&raw.bones, english, &rig, &ik_of_bone, &mut constraints, &mut w);
    constraints.deform = deform_order(&raw.bones, &rig.bone_of_joint);
    let (morphs, morph_of_skin) = skins(&raw.skins, nv, english, &mut w);
    let display_frames = display_frames(&raw, &morph_of_skin);

    let mut rigid_bodies = raw.rigid_bodies;
    for r in &mut rigid_bodies {
        r.bone = r.bone.filter(|&b| b < nb);
    }
    let vertices = VertexStreams {
        positions: raw.vertices.iter().map(|v| v.position).collect(),
        normals: Some(raw.vertices.iter().map(|v| v.normal).collect()),
        texcoords: Some(raw.vertices.iter().map(|v| v.uv).collect()),
        joints: (nb > 0).then_some(joints),
        weights: (nb > 0).then_some(weights),
        outline: Some(raw.vertices.iter().map(|v| if v.no_edge == 0 { 1.0 } else { 0.0 }).collect()),
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
        edge_scale: raw.vertices.iter().map(|v| if v.no_edge == 0 { 1.0 } else { 0.0 }).collect(),
        textures,
        materials: mmd_materials,
        bones,
        bone_of_joint: rig.bone_of_joint,
        display_frames,
        toon_textures: match raw.toons {
            Some(t) => t,
            None => (1..=10).map(|i| format!("toon{i:02}.bmp")).collect(),
        },
        rigid_bodies,
        joints: raw.joints,
        has_english: english.is_some(),
    };
    let body = Body { vertices, triangles, meshes, materials, skeleton: rig.skeleton, morphs, constraints };
    Ok(mmd_common::scene(meta, body, info))
}

/// The materials (triangle counts set later) and the texture list: "texture*sphere" names split, `.sph`
/// multiplies and `.spa` adds; the toon index names the file's own toon list when it has one.
fn materials(raw: &[RawMaterial], toons: Option<&[String]>) -> (Vec<MmdMaterial>, Vec<String>) {
    let mut textures: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(raw.len());
    for (i, m) in raw.iter().enumerate() {
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
            t if usize::from(t) < 10 => match toons {
                Some(list) => Toon::Texture(list[usize::from(t)].clone()),
                None => Toon::Shared(t),
            },
            _ => Toon::None,
        };
        // A PMD material's edge flag also casts its ground shadow, and a diffuse alpha other than 0.98 casts and
        // receives self-shadow: MikuMikuDance's rules for PMD, as PMX converters spell them out.
        let mut flags = if m.edge != 0 { mf::EDGE | mf::GROUND_SHADOW } else { 0 };
        if m.diffuse.w != 0.98 {
            flags |= mf::CAST_SELF_SHADOW | mf::RECEIVE_SELF_SHADOW;
        }
        // MikuMikuDance draws translucent PMD materials from both sides.
        if m.diffuse.w < 1.0 {
            flags |= mf::TWO_SIDED;
        }
        out.push(MmdMaterial {
            name: format!("material {i}"),
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
            triangles: 0,
        });
    }
    (out, textures)
}

/// The IK list as chains (knee links limited as MikuMikuDance limits them); the chain of each bone.
fn ik_chains(
    iks: &[RawIk],
    bones: &[RawBone],
    joint_of: &[usize],
    constraints: &mut Constraints,
    w: &mut Warnings,
) -> Vec<Option<usize>> {
    let nb = bones.len();
    let mut ik_of_bone = vec![None; nb];
    for (i, ik) in iks.iter().enumerate() {
        let (Some(b), Some(t)) = (index(ik.bone, nb), index(ik.target, nb)) else {
            w.at(
                "pmd.ik.bone",
                ik.offset,
                format!("IK {i}: bone {} or target {} is not a bone; chain dropped", ik.bone, ik.target),
            );
            continue;
        };
        let mut links = Vec::with_capacity(ik.links.len());
        for &l in &ik.links {
            match index(l, nb) {
                Some(l) => {
                    let knee = bones[l].name.contains("ひざ");
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
    ik_of_bone
}

/// Each bone's facts in file order, and the append relations its kind implies.
fn bones(
    raw: &[RawBone],
    english: Option<&English>,
    rig: &mmd_common::Rig,
    ik_of_bone: &[Option<usize>],
    constraints: &mut Constraints,
    w: &mut Warnings,
) -> Vec<MmdBone> {
    let nb = raw.len();
    let joint_of = &rig.joint_of;
    let mut out = Vec::with_capacity(nb);
    for (i, b) in raw.iter().enumerate() {
        let mut flags = kind_flags(b.kind);
        if ik_of_bone[i].is_some() {
            flags |= bf::IK | bf::TRANSLATABLE;
        }
        let append = append_source(i, b, nb, w);
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
        out.push(MmdBone {
            name: b.name.clone(),
            name_en: english.and_then(|e| e.bones.get(i).cloned()).unwrap_or_default(),
            joint: joint_of[i],
            parent: rig.parents[i],
            position: b.position,
            layer: 0,
            flags,
            tail: BoneTail::Bone(index(b.tail, nb)),
            pmd_kind: Some(b.kind),
            ik: ik_of_bone[i],
            append,
            external_key: None,
        });
    }
    out
}

/// The bone a PMD bone takes its rotation from, and by how much: kind 5 ("rotation influenced") names it in
/// its IK field, kind 9 ("rotation follow") is its tail with the IK field as a percentage.
fn append_source(i: usize, b: &RawBone, nb: usize, w: &mut Warnings) -> Option<(usize, f32)> {
    let (source, ratio, missing) = match b.kind {
        5 => (b.ik, 1.0, format!("rotation source {} is not another bone", b.ik)),
        9 => (b.tail, f32::from(b.ik) / 100.0, format!("follows no other bone (tail {})", b.tail)),
        _ => return None,
    };
    let s = index(source, nb).filter(|&s| s != i);
    if s.is_none() {
        w.at("pmd.append.source", b.offset, format!("bone {i} \"{}\": {missing}; ignored", b.name));
    }
    Some((s?, ratio))
}

/// Each scene joint's file order, and the fixed axis of kind-8 bones (towards their tail).
fn deform_order(raw: &[RawBone], bone_of_joint: &[usize]) -> Vec<JointDeform> {
    bone_of_joint
        .iter()
        .map(|&i| {
            let b = &raw[i];
            let fixed_axis = (b.kind == 8)
                .then(|| index(b.tail, raw.len()).map(|t| raw[t].position - b.position))
                .flatten()
                .and_then(|a| a.try_normalize());
            JointDeform { layer: 0, after_physics: false, order: i as u32, fixed_axis, local_axes: None }
        })
        .collect()
}

/// Skins after the base as vertex morphs: the base lists absolute vertices, the others index into the base's
/// list. Also the morph of each skin (none for the base and dropped skins).
fn skins(raw: &[RawSkin], nv: usize, english: Option<&English>, w: &mut Warnings) -> (Vec<Morph>, Vec<Option<usize>>) {
    let base = raw.iter().position(|s| s.kind == 0);
    let mut morphs = Vec::new();
    let mut morph_of_skin = vec![None; raw.len()];
    for (i, skin) in raw.iter().enumerate() {
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
        let Some(b) = base.map(|b| &raw[b]) else {
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
    (morphs, morph_of_skin)
}

/// Display frames: the expression list, then the named bone frames.
fn display_frames(raw: &RawModel, morph_of_skin: &[Option<usize>]) -> Vec<DisplayFrame> {
    let english = raw.english.as_ref();
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
                .filter_map(|&(b, _)| index(b, raw.bones.len()).map(DisplayItem::Bone))
                .collect(),
        });
    }
    frames
}

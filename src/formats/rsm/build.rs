//! Raw RSM records into a scene: the node tree as a parents-first skeleton, rest pose and centring, rigidly
//! bound geometry with per-face normals, materials, and node animation as keyed tracks.

use std::collections::HashMap;

use glam::{Mat3, Mat4, Quat, Vec2, Vec3};

use super::layout;
use super::parse::{RawModel, RawNode};
use crate::error::{LoadError, Location, Warning};
use crate::scene::{
    AlphaMode, Clip, ClipData, Format, FrontFace, Interpolation, Joint, Key, Material, Mesh, Metadata, RsmInfo,
    RsmLayout, RsmNode, RsmUvAnimation, Scene, Skeleton, TextureSearch, Track, TrackMode, Transform, UpAxis,
    UvAnimation, UvChannel, UvChannelKind, VertexStreams,
};

/// RSM2 frame rate when the stored one is unusable.
const FALLBACK_FPS: f32 = 30.0;

struct Warnings(Vec<Warning>);

impl Warnings {
    fn at(&mut self, rule: &'static str, offset: u64, message: String) {
        self.0.push(Warning { rule, location: Location::Offset(offset), message });
    }

    fn file(&mut self, rule: &'static str, message: String) {
        self.0.push(Warning { rule, location: Location::File, message });
    }
}

/// One node's animation, sorted by frame, in file frames (RSM1 ms, RSM2 frames).
#[derive(Default)]
struct NodeKeys {
    rotation: Vec<(i32, Quat)>,
    position: Vec<(i32, Vec3)>,
    scale: Vec<(i32, Vec3)>,
}

impl NodeKeys {
    fn is_empty(&self) -> bool {
        self.rotation.is_empty() && self.position.is_empty() && self.scale.is_empty()
    }

    fn last_frame(&self) -> Option<i32> {
        let r = self.rotation.last().map(|k| k.0);
        let p = self.position.last().map(|k| k.0);
        let s = self.scale.last().map(|k| k.0);
        [r, p, s].into_iter().flatten().max()
    }
}

pub fn build(raw: RawModel, data: &[u8]) -> Result<Scene, LoadError> {
    let rsm2 = layout::is_rsm2(raw.version());
    let mut w = Warnings(Vec::new());
    file_warnings(&raw, data, &mut w);
    let fps = frame_rate(&raw, &mut w);
    let h = hierarchy(&raw, rsm2, &mut w);
    let keys: Vec<NodeKeys> = raw.nodes.iter().enumerate().map(|(i, node)| node_keys(i, node, &mut w)).collect();
    let RestPose { mut rest, static_scale } = rest_pose(&raw, rsm2, &h.parent, &keys, &mut w);
    let mut skeleton = h.skeleton(&raw, &rest)?;
    let center_offset = if rsm2 { Vec3::ZERO } else { centre(&raw, &h, &mut rest, &mut skeleton)? };
    let mut materials = Materials::new(&raw);
    let g = geometry(&raw, fps, &h, &skeleton, &keys, &mut materials, &mut w)?;
    let clips = clips(&raw, fps, &h, &keys, &static_scale, center_offset, &mut w);
    let uv_animations = uv_animations(&raw, &mut w);

    let version = format!("{}.{}", raw.major, raw.minor);
    let mut meta = Metadata::new(if rsm2 { Format::Rsm2 } else { Format::Rsm }, version);
    meta.warnings = w.0;
    let info = RsmInfo {
        layout: raw.layout,
        centring: center_offset,
        anim_len: raw.anim_len,
        shade_type: raw.shade_type,
        alpha: raw.alpha,
        fps: raw.fps,
        roots: raw.roots.iter().map(|r| r.text.clone()).collect(),
        textures: raw.textures.iter().map(|t| t.text.clone()).collect(),
        nodes: g.info_nodes,
        two_sided: g.two_sided,
        model_keys: raw.model_keys,
        volume_boxes: raw.volume_boxes,
        uv_animations,
        node_of_joint: h.order,
    };
    // Every field this format sets; the rest (cameras, format facts of other formats) stay empty.
    Ok(Scene {
        vertices: g.streams,
        triangles: g.triangles,
        meshes: g.meshes,
        materials: materials.list,
        skeleton,
        clips,
        up: if rsm2 { UpAxis::YLeftHanded } else { UpAxis::NegY },
        front_face: FrontFace::Ccw,
        rsm: Some(Box::new(info)),
        ..Scene::empty(meta)
    })
}

/// Warnings about the file as a whole: alternative magic, trailing bytes, the FJS layout, ignored model-level
/// keys and the shade type.
fn file_warnings(raw: &RawModel, data: &[u8], w: &mut Warnings) {
    if data.get(..4) == Some(layout::MAGIC_ALT) {
        w.at("rsm.magic", 0, "magic \"GRSX\" read as \"GRSM\"".into());
    }
    let len = data.len() as u64;
    if raw.end < len {
        w.at("rsm.trailing", raw.end, format!("{} trailing byte(s) after the last record ignored", len - raw.end));
    }
    if raw.layout == RsmLayout::Fjs {
        w.file(
            "rsm.layout.fjs",
            "layout B does not read this file exactly; read with the classic (FJS) layout, which does".into(),
        );
    }
    if raw.model_keys > 0 {
        w.file("rsm.model_keys", format!("{} model-level key(s) ignored (no viewer uses them)", raw.model_keys));
    }
    match raw.shade_type {
        0..=2 => {}
        3 => w.file("rsm.shade_type", "shadeType 3 (black): drawn unlit".into()),
        s => w.file("rsm.shade_type", format!("shadeType {s}: expected 0 to 3; flat normals used")),
    }
}

/// Key frames per second: RSM2's stored fps (or the fallback), RSM1's milliseconds.
fn frame_rate(raw: &RawModel, w: &mut Warnings) -> f32 {
    match raw.fps {
        Some(f) if f.is_finite() && f > 0.0 => f,
        Some(f) => {
            w.file("rsm2.fps", format!("fps {f}: expected a positive number; {FALLBACK_FPS} used"));
            FALLBACK_FPS
        }
        None => 1000.0,
    }
}

/// The node tree: each node's parent, the parents-first joint order and each node's joint.
struct Hierarchy {
    parent: Vec<Option<usize>>,
    /// Node index of each joint.
    order: Vec<usize>,
    joint_of: Vec<usize>,
}

impl Hierarchy {
    fn skeleton(&self, raw: &RawModel, rest: &[Transform]) -> Result<Skeleton, LoadError> {
        let joints = self
            .order
            .iter()
            .map(|&i| Joint {
                name: raw.nodes[i].name.text.clone(),
                parent: self.parent[i].map(|p| self.joint_of[p]),
                bind: rest[i],
            })
            .collect();
        Skeleton::new(joints, true).map_err(|j| LoadError::whole(format!("internal: joint {j} before its parent")))
    }
}

/// Parents by name, cycles cut, roots ordered (RSM1's main node first), joints in depth-first order.
fn hierarchy(raw: &RawModel, rsm2: bool, w: &mut Warnings) -> Hierarchy {
    let n = raw.nodes.len();
    let mut parent = parents(raw, rsm2, w);
    break_cycles(&mut parent, &raw.nodes, w);

    // Roots: RSM1's main node first (node 0 when its name matches none), then every other root in file order.
    let mut first_root = None;
    if !rsm2 {
        let main = raw.roots.first();
        let found = main.and_then(|m| raw.nodes.iter().position(|node| node.name.raw == m.raw));
        if found.is_none() && n > 0 {
            let name = main.map_or(String::new(), |m| m.text.clone());
            w.file("rsm.main_node", format!("main node \"{name}\" names no node; node 0 used"));
        }
        first_root = found.or((n > 0).then_some(0)).map(|mut r| {
            while let Some(p) = parent[r] {
                r = p;
            }
            r
        });
        let roots = parent.iter().filter(|p| p.is_none()).count();
        if roots > 1 {
            w.file("rsm.node.roots", format!("{roots} root nodes; the game draws only the main node's tree"));
        }
    } else {
        for r in &raw.roots {
            if !raw.nodes.iter().any(|node| node.name.raw == r.raw) {
                w.file("rsm2.root_unknown", format!("root \"{}\" names no node", r.text));
            }
        }
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = *p {
            children[p].push(i);
        }
    }
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let roots = first_root.into_iter().chain((0..n).filter(|&i| parent[i].is_none() && Some(i) != first_root));
    for r in roots {
        let mut stack = vec![r];
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(children[i].iter().rev());
        }
    }
    let mut joint_of = vec![0usize; n];
    for (j, &i) in order.iter().enumerate() {
        joint_of[i] = j;
    }
    Hierarchy { parent, order, joint_of }
}

/// Parents by name: the first *other* node with that name; empty or own name is a root.
fn parents(raw: &RawModel, rsm2: bool, w: &mut Warnings) -> Vec<Option<usize>> {
    let mut parent: Vec<Option<usize>> = vec![None; raw.nodes.len()];
    let mut by_name: HashMap<&[u8], Vec<usize>> = HashMap::new();
    for (i, node) in raw.nodes.iter().enumerate() {
        by_name.entry(&node.name.raw[..]).or_default().push(i);
    }
    // Fixed-size names with garbage after their NUL: cut at the NUL, as the game does, and said.
    let garbage: Vec<&str> = raw
        .textures
        .iter()
        .chain(&raw.roots)
        .chain(raw.nodes.iter().flat_map(|n| [&n.name, &n.parent]))
        .filter(|name| name.garbage)
        .map(|name| name.text.as_str())
        .collect();
    if let Some(first) = garbage.first() {
        w.file(
            "rsm.name.garbage",
            format!("{} name field(s) hold bytes after their NUL (first: \"{first}\"); cut at the NUL", garbage.len()),
        );
    }
    for (i, node) in raw.nodes.iter().enumerate() {
        if by_name.get(&node.name.raw[..]).is_some_and(|v| v.len() > 1 && v[0] != i) {
            w.at(
                "rsm.node.duplicate_name",
                node.offset,
                format!("node {i} \"{}\" repeats an earlier node's name; children attach to the first", node.name.text),
            );
        }
        if node.parent.raw.is_empty() || node.parent.raw == node.name.raw {
            continue;
        }
        match by_name.get(&node.parent.raw[..]).and_then(|v| v.iter().find(|&&j| j != i)) {
            Some(&j) => parent[i] = Some(j),
            None => w.at(
                "rsm.node.parent_unknown",
                node.offset + if rsm2 { 4 } else { layout::NAME_LEN as u64 },
                format!("node {i} \"{}\": parent \"{}\" names no node; made a root", node.name.text, node.parent.text),
            ),
        }
    }
    parent
}

/// Rest-pose locals (file space, before centring) and the static scale keyed scale multiplies.
struct RestPose {
    rest: Vec<Transform>,
    static_scale: Vec<Vec3>,
}

fn rest_pose(raw: &RawModel, rsm2: bool, parent: &[Option<usize>], keys: &[NodeKeys], w: &mut Warnings) -> RestPose {
    let n = raw.nodes.len();
    let mut rest: Vec<Transform> = Vec::with_capacity(n);
    let mut static_scale: Vec<Vec3> = vec![Vec3::ONE; n];
    for (i, node) in raw.nodes.iter().enumerate() {
        let k = &keys[i];
        let t = if rsm2 {
            let m3 = Mat3::from_cols_array(&node.m3);
            let (local, ploc) = match parent[i] {
                Some(p) => {
                    let pm = Mat3::from_cols_array(&raw.nodes[p].m3);
                    let inv = if pm.determinant().abs() > f32::MIN_POSITIVE { pm.inverse() } else { Mat3::IDENTITY };
                    (inv * m3, inv * (node.pos - raw.nodes[p].pos))
                }
                None => (m3, node.pos),
            };
            let (s, r, _) = Mat4::from_mat3(local).to_scale_rotation_translation();
            let back = Mat3::from_quat(r) * Mat3::from_diagonal(s);
            if !(back - local).to_cols_array().iter().all(|d| d.abs() <= 1e-3 * (1.0 + s.abs().max_element())) {
                w.at(
                    "rsm2.matrix.shear",
                    node.offset,
                    format!("node {i} \"{}\": matrix is not a rotation and scale; shear dropped", node.name.text),
                );
            }
            static_scale[i] = if k.rotation.is_empty() { s } else { Vec3::ONE };
            Transform {
                translation: k.position.first().map_or(ploc, |p| p.1),
                rotation: k.rotation.first().map_or(r, |q| q.1),
                scale: static_scale[i] * k.scale.first().map_or(Vec3::ONE, |s| s.1),
            }
        } else {
            let axis = node.rot_axis;
            let static_rot = if axis.is_finite() && axis.length() > 1e-6 && node.rot_angle.is_finite() {
                Quat::from_axis_angle(axis.normalize(), node.rot_angle)
            } else {
                Quat::IDENTITY
            };
            static_scale[i] = node.scale;
            Transform {
                translation: k.position.first().map_or(node.pos, |p| p.1),
                rotation: k.rotation.first().map_or(static_rot, |q| q.1),
                scale: k.scale.first().map_or(node.scale, |s| s.1),
            }
        };
        rest.push(t);
    }
    RestPose { rest, static_scale }
}

/// The node's pivot: RSM1's offset and matrix, applied to its vertices before the node transform.
fn pivot(rsm2: bool, node: &RawNode) -> Mat4 {
    if rsm2 {
        Mat4::IDENTITY
    } else {
        Mat4::from_translation(node.offset_v) * Mat4::from_mat3(Mat3::from_cols_array(&node.m3))
    }
}

/// RSM1 centring: C = T(−center.x, −max.y, −center.z) of the rest-pose box, folded into the roots (and the
/// skeleton rebuilt); the offset applied.
fn centre(raw: &RawModel, h: &Hierarchy, rest: &mut [Transform], skeleton: &mut Skeleton) -> Result<Vec3, LoadError> {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for (i, node) in raw.nodes.iter().enumerate() {
        let m = skeleton.bind_world[h.joint_of[i]] * pivot(false, node);
        for v in &node.vertices {
            let p = m.transform_point3(*v);
            lo = lo.min(p);
            hi = hi.max(p);
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return Ok(Vec3::ZERO);
    }
    let c = (lo + hi) * 0.5;
    let center_offset = Vec3::new(-c.x, -hi.y, -c.z);
    for (t, p) in rest.iter_mut().zip(&h.parent) {
        if p.is_none() {
            t.translation += center_offset;
        }
    }
    *skeleton = h.skeleton(raw, rest)?;
    Ok(center_offset)
}

/// Materials: textures under a game data tree, magenta-keyed BMPs, TGA alpha blended; shadeType 0 and 3
/// unlit. The global texture list first, then 2.3's node texture names by first use, then one untextured.
struct Materials {
    list: Vec<Material>,
    lit: bool,
    global: Vec<usize>,
    by_texture_name: HashMap<Vec<u8>, usize>,
    no_texture: Option<usize>,
}

impl Materials {
    fn new(raw: &RawModel) -> Materials {
        let mut m = Materials {
            list: Vec::new(),
            lit: !matches!(raw.shade_type, 0 | 3),
            global: Vec::new(),
            by_texture_name: HashMap::new(),
            no_texture: None,
        };
        for t in &raw.textures {
            m.global.push(m.list.len());
            m.push(&t.text);
        }
        m
    }

    fn push(&mut self, name: &str) -> usize {
        self.list.push(Material {
            name: name.to_string(),
            texture: (!name.is_empty()).then(|| name.to_string()),
            search: TextureSearch::DataTexture,
            color_key: true,
            alpha: AlphaMode::Blend,
            lit: self.lit,
            color: None,
            outline: None,
            sphere: None,
            toon: None,
            ground_shadow: false,
            casts_shadow: true,
            receives_shadow: true,
            ..Material::new(name, None)
        });
        self.list.len() - 1
    }

    /// The node's texture slots → materials (`None`: an index past the global list).
    fn node_slots(&mut self, raw: &RawModel, node: &RawNode) -> Vec<Option<usize>> {
        if layout::node_texture_names(raw.version()) {
            node.texture_names
                .iter()
                .map(|t| match self.by_texture_name.get(&t.raw) {
                    Some(&m) => Some(m),
                    None => {
                        let m = self.push(&t.text);
                        self.by_texture_name.insert(t.raw.clone(), m);
                        Some(m)
                    }
                })
                .collect()
        } else {
            node.texture_indices
                .iter()
                .map(|&t| usize::try_from(t).ok().and_then(|t| self.global.get(t).copied()))
                .collect()
        }
    }

    /// The material of faces whose slot names no texture, made on first use.
    fn untextured(&mut self) -> usize {
        match self.no_texture {
            Some(m) => m,
            None => {
                let m = self.push("");
                self.no_texture = Some(m);
                m
            }
        }
    }
}

/// Every node's geometry, in file order.
struct Geometry {
    streams: VertexStreams,
    triangles: Vec<[u32; 3]>,
    two_sided: Vec<bool>,
    meshes: Vec<Mesh>,
    info_nodes: Vec<RsmNode>,
    /// Index of the current node's first vertex in the file's vertex numbering.
    file_base: u32,
}

/// A validated face: corners in front (CCW) winding, its face normal and smoothing groups.
struct Face {
    v: [usize; 3],
    t: [Option<usize>; 3],
    slot: u16,
    two_sided: bool,
    normal: Vec3,
    groups: Vec<i32>,
}

/// Triangles of one texture slot and sidedness.
type Bucket = (u16, bool, Vec<[u32; 3]>);

#[allow(clippy::too_many_arguments)]
fn geometry(
    raw: &RawModel,
    fps: f32,
    h: &Hierarchy,
    skeleton: &Skeleton,
    keys: &[NodeKeys],
    materials: &mut Materials,
    w: &mut Warnings,
) -> Result<Geometry, LoadError> {
    let mut g = Geometry {
        streams: VertexStreams {
            normals: Some(Vec::new()),
            texcoords: Some(Vec::new()),
            joints: Some(Vec::new()),
            weights: Some(Vec::new()),
            source: Some(Vec::new()),
            ..Default::default()
        },
        triangles: Vec::new(),
        two_sided: Vec::new(),
        meshes: Vec::new(),
        info_nodes: Vec::with_capacity(raw.nodes.len()),
        file_base: 0,
    };
    let rsm2 = layout::is_rsm2(raw.version());
    for (i, node) in raw.nodes.iter().enumerate() {
        let joint = h.joint_of[i];
        let m = skeleton.bind_world[joint] * pivot(rsm2, node);
        let positions: Vec<Vec3> = node.vertices.iter().map(|v| m.transform_point3(*v)).collect();
        if let Some(k) = positions.iter().position(|p| !p.is_finite()) {
            return Err(LoadError::at(
                node.offset,
                format!(
                    "node {i} \"{}\" vertex {k}: position not finite after the node transform (expected finite \
                     matrix, position, rotation and scale)",
                    node.name.text
                ),
            ));
        }
        let reversed = Mat3::from_mat4(m).determinant() < 0.0;
        let slots = materials.node_slots(raw, node);
        if slots.iter().any(Option::is_none) {
            w.at(
                "rsm.node.texture_index",
                node.offset,
                format!("node {i} \"{}\": texture index past the texture list; drawn untextured", node.name.text),
            );
        }
        let faces = node_faces(i, node, &positions, reversed, &slots, w);
        let base = g.streams.positions.len();
        let buckets = g.node_vertices(node, joint, &positions, &faces, raw.shade_type);
        let num_vertices = (g.streams.positions.len() - base) as u32;
        let name = &node.name.text;
        let mut node_meshes = Vec::new();
        let mixed = |slot: u16| buckets.iter().filter(|b| b.0 == slot).count() > 1;
        let names: Vec<String> = buckets
            .iter()
            .map(|&(slot, two, _)| {
                let base = if slot == 0 && slots.len() <= 1 { name.clone() } else { format!("{name}#{slot}") };
                if two && mixed(slot) { format!("{base} (two-sided)") } else { base }
            })
            .collect();
        for ((slot, two, tris), mesh_name) in buckets.into_iter().zip(names) {
            let material = match slots.get(usize::from(slot)).copied().flatten() {
                Some(m) => m,
                None => materials.untextured(),
            };
            node_meshes.push(g.meshes.len());
            let uv_animation = uv_animation(node, slot, if rsm2 { fps } else { 1000.0 });
            g.meshes.push(Mesh {
                name: mesh_name,
                material,
                first_triangle: g.triangles.len() as u32,
                num_triangles: tris.len() as u32,
                first_vertex: base as u32,
                num_vertices,
                two_sided: two,
                uv_animation,
            });
            for t in tris {
                g.triangles.push(t);
                g.two_sided.push(two);
            }
        }
        let k = &keys[i];
        g.info_nodes.push(RsmNode {
            name: name.clone(),
            parent_name: node.parent.text.clone(),
            parent: h.parent[i],
            joint,
            textures: slots
                .iter()
                .enumerate()
                .map(|(s, m)| match m {
                    Some(m) => materials.list[*m].name.clone(),
                    None => format!("(bad index {})", node.texture_indices.get(s).copied().unwrap_or(-1)),
                })
                .collect(),
            vertices: node.vertices.len(),
            faces: node.faces.len(),
            two_sided_faces: node.faces.iter().filter(|f| f.two_sided).count(),
            rotation_keys: k.rotation.len(),
            position_keys: k.position.len(),
            scale_keys: k.scale.len(),
            meshes: node_meshes,
        });
        g.file_base = g.file_base.saturating_add(node.vertices.len() as u32);
    }
    Ok(g)
}

/// A node's faces with their corners checked (faces using a vertex past the list are skipped), wound front
/// (CCW) and given face normals; bad texture vertices and slots are said once per node.
fn node_faces(
    i: usize,
    node: &RawNode,
    positions: &[Vec3],
    reversed: bool,
    slots: &[Option<usize>],
    w: &mut Warnings,
) -> Vec<Face> {
    let (mut bad_vertex, mut bad_tex, mut bad_slot) = (None, None, None);
    let mut faces: Vec<Face> = Vec::with_capacity(node.faces.len());
    for (f, face) in node.faces.iter().enumerate() {
        let mut v = face.vertices.map(usize::from);
        let mut t = face.tex_vertices.map(usize::from).map(|t| (t < node.tex_coords.len()).then_some(t));
        if v.iter().any(|&x| x >= positions.len()) {
            bad_vertex.get_or_insert((f, face.offset));
            continue;
        }
        if t.iter().any(Option::is_none) {
            bad_tex.get_or_insert((f, face.offset));
        }
        if slots.get(usize::from(face.texture)).is_none() {
            bad_slot.get_or_insert((f, face.offset));
        }
        if reversed {
            v.swap(1, 2);
            t.swap(1, 2);
        }
        let normal = (positions[v[1]] - positions[v[0]]).cross(positions[v[2]] - positions[v[0]]).normalize_or_zero();
        let mut groups = face.groups.clone();
        groups.sort_unstable();
        groups.dedup();
        faces.push(Face { v, t, slot: face.texture, two_sided: face.two_sided, normal, groups });
    }
    let name = &node.name.text;
    if let Some((f, at)) = bad_vertex {
        let count = node.faces.len() - faces.len();
        w.at(
            "rsm.face.vertex_index",
            at,
            format!("node {i} \"{name}\": {count} face(s) from face {f} use a vertex past the node's list; skipped"),
        );
    }
    if let Some((f, at)) = bad_tex {
        w.at(
            "rsm.face.texcoord_index",
            at,
            format!("node {i} \"{name}\" face {f}: texture vertex past the node's list; UV (0, 0) used"),
        );
    }
    if let Some((f, at)) = bad_slot {
        w.at(
            "rsm.face.texture_slot",
            at,
            format!("node {i} \"{name}\" face {f}: texture slot past the node's list; drawn untextured"),
        );
    }
    faces
}

impl Geometry {
    /// One vertex, rigidly bound to `joint`; returns its index.
    fn push_vertex(&mut self, position: Vec3, joint: usize, file_vertex: usize, uv: Vec2, normal: Vec3) -> u32 {
        let streams = &mut self.streams;
        let index = streams.positions.len() as u32;
        streams.positions.push(position);
        if let Some(x) = streams.normals.as_mut() {
            x.push(normal);
        }
        if let Some(x) = streams.texcoords.as_mut() {
            x.push(uv);
        }
        if let Some(x) = streams.joints.as_mut() {
            x.push([joint as u32, 0, 0, 0]);
        }
        if let Some(x) = streams.weights.as_mut() {
            x.push([1.0, 0.0, 0.0, 0.0]);
        }
        if let Some(x) = streams.source.as_mut() {
            x.push(self.file_base + file_vertex as u32);
        }
        index
    }

    /// A node's split vertices, one per (file vertex, texture vertex, normal), and its triangles grouped by
    /// texture slot and sidedness in order of first use. Every file vertex appears at least once, for
    /// `pose --vertices`.
    fn node_vertices(
        &mut self,
        node: &RawNode,
        joint: usize,
        positions: &[Vec3],
        faces: &[Face],
        shade: i32,
    ) -> Vec<Bucket> {
        let corner_normal = smooth_normals(faces, shade);
        let mut split: HashMap<(usize, usize, [u32; 3]), u32> = HashMap::new();
        let mut used = vec![false; positions.len()];
        let mut buckets: Vec<Bucket> = Vec::new();
        for f in faces {
            let mut tri = [0u32; 3];
            for (c, out) in tri.iter_mut().enumerate() {
                let v = f.v[c];
                used[v] = true;
                let normal = corner_normal(f, v);
                let tv = f.t[c].unwrap_or(usize::MAX);
                let uv = f.t[c].and_then(|t| node.tex_coords.get(t)).copied().unwrap_or(Vec2::ZERO);
                let uv = if uv.is_finite() { uv } else { Vec2::ZERO };
                let key = (v, tv, normal.to_array().map(f32::to_bits));
                *out = match split.get(&key) {
                    Some(&x) => x,
                    None => {
                        let x = self.push_vertex(positions[v], joint, v, uv, normal);
                        split.insert(key, x);
                        x
                    }
                };
            }
            match buckets.iter_mut().find(|b| b.0 == f.slot && b.1 == f.two_sided) {
                Some(b) => b.2.push(tri),
                None => buckets.push((f.slot, f.two_sided, vec![tri])),
            }
        }
        for (v, u) in used.iter().enumerate() {
            if !u {
                self.push_vertex(positions[v], joint, v, Vec2::ZERO, Vec3::ZERO);
            }
        }
        buckets
    }
}

/// Each corner's normal: with shadeType 2, smooth normals per (group, vertex index) summed over every group
/// of a face; otherwise (or where they cancel) the face normal.
fn smooth_normals(faces: &[Face], shade: i32) -> impl Fn(&Face, usize) -> Vec3 {
    let mut sums: HashMap<(i32, usize), Vec3> = HashMap::new();
    if shade == 2 {
        for f in faces {
            if f.normal == Vec3::ZERO {
                continue;
            }
            for &g in &f.groups {
                for &v in &f.v {
                    *sums.entry((g, v)).or_insert(Vec3::ZERO) += f.normal;
                }
            }
        }
    }
    move |f: &Face, v: usize| -> Vec3 {
        if shade != 2 {
            return f.normal;
        }
        let s: Vec3 = f.groups.iter().filter_map(|&g| sums.get(&(g, v))).sum();
        if s.length_squared() > 1e-12 { s.normalize() } else { f.normal }
    }
}

/// Node animation: keyed tracks replacing the keyed channels of each node's local transform, one looping clip.
fn clips(
    raw: &RawModel,
    fps: f32,
    h: &Hierarchy,
    keys: &[NodeKeys],
    static_scale: &[Vec3],
    center_offset: Vec3,
    w: &mut Warnings,
) -> Vec<Clip> {
    let rsm2 = layout::is_rsm2(raw.version());
    let mut clips = Vec::new();
    let rate = if rsm2 { fps } else { 1000.0 };
    let animated: Vec<usize> = (0..raw.nodes.len()).filter(|&i| !keys[i].is_empty()).collect();
    // UV animation alone (2.3) also needs a clip, for its time.
    let uv_last = raw.nodes.iter().flat_map(|node| node.uv_anims.iter().flat_map(|c| c.2.iter().map(|k| k.0))).max();
    if animated.is_empty() && uv_last.is_none() {
        return clips;
    }
    let last = animated.iter().filter_map(|&i| keys[i].last_frame()).chain(uv_last).max().unwrap_or(0);
    let length = if raw.anim_len > 0 { raw.anim_len } else { last };
    if raw.anim_len <= 0 {
        w.file(
            "rsm.anim_len",
            format!("animLen {}: the last key's frame ({last}) is used as the loop length", raw.anim_len),
        );
    }
    if length > 0 {
        let time = |f: i32| f as f32 / rate;
        let tracks = animated
            .iter()
            .map(|&i| {
                let k = &keys[i];
                let shift = if h.parent[i].is_none() { center_offset } else { Vec3::ZERO };
                Track {
                    joint: h.joint_of[i],
                    mode: TrackMode::Replace,
                    interpolation: Interpolation::Linear,
                    translation: k.position.iter().map(|&(f, p)| Key { time: time(f), value: p + shift }).collect(),
                    rotation: k.rotation.iter().map(|&(f, q)| Key { time: time(f), value: q }).collect(),
                    scale: k
                        .scale
                        .iter()
                        .map(|&(f, s)| Key { time: time(f), value: static_scale_for(rsm2, static_scale[i]) * s })
                        .collect(),
                    ease: None,
                }
            })
            .collect();
        clips.push(Clip::new("animation", rate, true, length as u32, ClipData::Keyed { tracks }));
    }
    clips
}

/// 2.3 UV animations as stored (keys sorted by frame), with a warning for slots or kinds out of range.
fn uv_animations(raw: &RawModel, w: &mut Warnings) -> Vec<RsmUvAnimation> {
    let mut uv_animations = Vec::new();
    for (i, node) in raw.nodes.iter().enumerate() {
        let slots = node.texture_names.len();
        for (slot, kind, k) in &node.uv_anims {
            if usize::try_from(*slot).map_or(true, |s| s >= slots) || !(0..=4).contains(kind) {
                w.at(
                    "rsm2.uv_animation",
                    node.offset,
                    format!("node {i} \"{}\": UV animation slot {slot} kind {kind}: expected a slot below {slots} and kind 0 to 4", node.name.text),
                );
            }
            let mut keys = k.clone();
            keys.sort_by_key(|k| k.0);
            uv_animations.push(RsmUvAnimation { node: i, texture_slot: *slot, kind: *kind, keys });
        }
    }
    uv_animations
}

/// A node texture slot's UV channels (RSM 2.3) with key frames turned into seconds; `None` without any.
fn uv_animation(node: &RawNode, slot: u16, rate: f32) -> Option<UvAnimation> {
    let channels: Vec<UvChannel> = node
        .uv_anims
        .iter()
        .filter(|(s, _, keys)| *s == i32::from(slot) && !keys.is_empty())
        .filter_map(|(_, kind, keys)| {
            let kind = match kind {
                0 => UvChannelKind::TranslateU,
                1 => UvChannelKind::TranslateV,
                2 => UvChannelKind::ScaleU,
                3 => UvChannelKind::ScaleV,
                4 => UvChannelKind::Rotate,
                _ => return None,
            };
            let mut keys: Vec<(f32, f32)> =
                keys.iter().filter(|k| k.1.is_finite()).map(|&(f, v)| (f as f32 / rate, v)).collect();
            keys.sort_by(|a, b| a.0.total_cmp(&b.0));
            (!keys.is_empty()).then_some(UvChannel { kind, keys })
        })
        .collect();
    (!channels.is_empty()).then_some(UvAnimation { channels })
}

/// RSM2 scale keys multiply the static matrix's scale when no rotation key replaces it; RSM1's replace it.
fn static_scale_for(rsm2: bool, s: Vec3) -> Vec3 {
    if rsm2 { s } else { Vec3::ONE }
}

/// Cuts the parent link where following parents comes back to a node already on the path.
fn break_cycles(parent: &mut [Option<usize>], nodes: &[RawNode], w: &mut Warnings) {
    let n = parent.len();
    let mut state = vec![0u8; n]; // 0 unvisited, 1 on the current path, 2 done
    for start in 0..n {
        let mut path = Vec::new();
        let mut cur = start;
        while state[cur] == 0 {
            state[cur] = 1;
            path.push(cur);
            match parent[cur] {
                None => break,
                Some(p) if state[p] == 1 => {
                    w.at(
                        "rsm.node.parent_cycle",
                        nodes[cur].offset,
                        format!("node {cur} \"{}\": parents form a cycle; made a root", nodes[cur].name.text),
                    );
                    parent[cur] = None;
                    break;
                }
                Some(p) => cur = p,
            }
        }
        for p in path {
            state[p] = 2;
        }
    }
}

/// A node's keys, stably sorted by frame; quaternions normalised (zero or non-finite → identity).
fn node_keys(i: usize, node: &RawNode, w: &mut Warnings) -> NodeKeys {
    let name = &node.name.text;
    fn sorted<T>(keys: &[(i32, T)]) -> bool {
        keys.windows(2).all(|p| p[0].0 <= p[1].0)
    }
    let mut k =
        NodeKeys { rotation: node.rot_keys.clone(), position: node.pos_keys.clone(), scale: node.scale_keys.clone() };
    let unsorted = !sorted(&k.rotation) || !sorted(&k.position) || !sorted(&k.scale);
    if unsorted {
        w.at("rsm.keys.unsorted", node.offset, format!("node {i} \"{name}\": keys out of frame order; sorted"));
    }
    let negative = k
        .rotation
        .iter()
        .map(|k| k.0)
        .chain(k.position.iter().map(|k| k.0))
        .chain(k.scale.iter().map(|k| k.0))
        .filter(|&f| f < 0)
        .count();
    if negative > 0 {
        w.at(
            "rsm.keys.negative",
            node.offset,
            format!("node {i} \"{name}\": {negative} key(s) before frame 0 (a pre-roll); held before the clip starts"),
        );
    }
    k.rotation.sort_by_key(|k| k.0);
    k.position.sort_by_key(|k| k.0);
    k.scale.sort_by_key(|k| k.0);
    let mut renormalised = false;
    for (_, q) in &mut k.rotation {
        let len = q.length();
        if !len.is_finite() || len < 1e-6 {
            *q = Quat::IDENTITY;
            renormalised = true;
        } else {
            if (len - 1.0).abs() > 1e-3 {
                renormalised = true;
            }
            *q = q.normalize();
        }
    }
    if renormalised {
        w.at(
            "rsm.keys.quaternion",
            node.offset,
            format!(
                "node {i} \"{name}\": rotation keys that are not unit quaternions normalised (zero becomes identity)"
            ),
        );
    }
    for (_, v) in &mut k.position {
        if !v.is_finite() {
            *v = Vec3::ZERO;
        }
    }
    for (_, v) in &mut k.scale {
        if !v.is_finite() {
            *v = Vec3::ONE;
        }
    }
    k
}

//! glTF 2.0 out: `rigscope convert IN… OUT.glb|OUT.gltf`.
//!
//! The encoder reads a scene already made to fit ([`super::for_gltf`]: motion glTF can't carry key for key
//! baked into frames, axes turned to glTF's Y up): it writes the skeleton as nodes and a skin
//! (`rig.rs`), the vertex streams once with a glTF mesh per independent vertex range and morph targets as
//! sparse accessors (`geometry.rs`), materials with their images (`material.rs`), and each clip as an
//! animation. The JSON is gltf-json's typed model, so field names and enums are the specification's.

mod buffer;
mod camera;
mod geometry;
mod material;
mod rig;
mod uv;

use gltf::json;
use json::Index;
use json::validation::USize64;

pub use material::SideFile;

use super::ConvertError;
use crate::scene::{MorphKind, Scene};
use crate::textures::TextureSet;

/// The two forms of a glTF file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container<'a> {
    /// One .glb: JSON and binary chunks, images inside.
    Glb,
    /// A .gltf JSON document with `STEM.bin` and the images as files beside it.
    Gltf { stem: &'a str },
}

/// An encoded glTF file: the .glb or .gltf bytes (`head` then `body`: a .glb's binary chunk is written from
/// where it was built, never copied), the files to write beside a .gltf, and notes for the user.
pub struct GltfFile {
    pub head: Vec<u8>,
    pub body: Vec<u8>,
    pub side_files: Vec<SideFile>,
    pub notes: Vec<String>,
}

impl GltfFile {
    /// The file's length in bytes.
    pub fn len(&self) -> usize {
        self.head.len() + self.body.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// About how many bytes the binary buffer of `scene` takes, so it is allocated once.
fn buffer_estimate(scene: &Scene) -> usize {
    let v = &scene.vertices;
    let per_vertex = 12
        + v.normals.as_ref().map_or(0, |_| 12)
        + v.tangents.as_ref().map_or(0, |_| 16)
        + v.texcoords.as_ref().map_or(0, |_| 8)
        + v.colors.as_ref().map_or(0, |_| 16)
        + v.joints.as_ref().map_or(0, |_| 8 + 16);
    let frames: usize = scene.clips.iter().map(|c| c.frame_count as usize + 1).sum();
    v.len() * per_vertex + scene.triangles.len() * 12 + frames * scene.skeleton.len() * 40 + 4096
}

/// Encodes `scene` (prepared by [`super::for_gltf`]) with the textures `textures` found for it.
pub fn to_gltf(scene: &Scene, textures: &TextureSet, container: Container) -> Result<GltfFile, ConvertError> {
    let vertices = scene.vertices.len();
    if let Some(t) = scene.triangles.iter().find(|t| t.iter().any(|&v| v as usize >= vertices)) {
        return Err(ConvertError(format!("a triangle {t:?} names a vertex past the last ({vertices})")));
    }
    let mut b = buffer::Builder::new(buffer_estimate(scene));
    let roots = rig::joint_nodes(&mut b, scene);
    let joints = scene.skeleton.len();
    let skinned = scene.vertices.is_skinned() && joints > 0;
    // Joint indices are skin indices: the extra joint, when needed, comes after the skeleton's.
    let streams = (!scene.vertices.is_empty()).then(|| geometry::streams(&mut b, scene, joints, joints as u32));
    let extra = streams.as_ref().is_some_and(|s| s.unweighted > 0).then(|| {
        // Marked, so rigscope reading the file back leaves these vertices unweighted, as they were.
        let mut node = rig::node("rigscope unweighted", crate::scene::Transform::IDENTITY);
        node.extras = extras(&serde_json::json!({ "rigscope": { "unweighted": true } }));
        b.root.push(node)
    });
    // A skeleton is written as a skin even with no mesh to deform (an animation-only file): the skin says which
    // nodes are its joints, still and moving alike.
    let skin = (joints > 0).then(|| rig::skin(&mut b, scene, extra, constraint_extras(scene)));

    let home = match container {
        Container::Glb => material::ImageHome::Buffer,
        Container::Gltf { stem } => material::ImageHome::Beside { stem },
    };
    let mut materials = material::Materials::new(scene, textures, home);
    let targets = geometry::vertex_morphs(scene);
    let mut mesh_nodes = Vec::new();
    let groups =
        streams.as_ref().map_or_else(Vec::new, |s| geometry::groups(scene).into_iter().map(|g| (s, g)).collect());
    let written: usize = groups.iter().map(|(_, g)| (g.end - g.first) as usize).sum();
    let loose = scene.vertices.len() - written;
    for (streams, group) in groups {
        let mesh = geometry::mesh(&mut b, scene, streams, &group, &targets, &mut |b, i| materials.for_mesh(b, i));
        let name = mesh.name.clone();
        let mesh = b.root.push(mesh);
        let skin = skin.filter(|_| skinned);
        mesh_nodes.push(b.root.push(json::Node { mesh: Some(mesh), skin, name, ..Default::default() }));
    }
    materials.unused(&mut b);
    let cameras: Vec<(&crate::scene::CameraTrack, Index<json::Node>)> =
        scene.cameras.iter().filter_map(|t| Some((t, camera::camera_node(&mut b, t)?))).collect();
    for clip in &scene.clips {
        let own: Vec<_> =
            cameras.iter().copied().filter(|(t, _)| t.clip.as_deref() == Some(clip.name.as_str())).collect();
        if let Some(a) = rig::animation(&mut b, scene, clip, &targets, &mesh_nodes, &own) {
            b.root.push(a);
        }
    }
    // UV animation plays with the first clip (RSM has one): pointer channels into its animation.
    let mut pointers = Vec::new();
    if !materials.uv_animated.is_empty() {
        let end = scene.clips.first().map_or(0.0, |c| c.duration(crate::scene::DEFAULT_FPS));
        let first = scene.clips.first().map_or("UV animation".to_string(), |c| c.name.clone());
        let animation = match b.root.animations.iter().position(|a| a.name.as_deref() == Some(first.as_str())) {
            Some(a) => a,
            None => {
                let a = json::Animation {
                    extensions: None,
                    extras: None,
                    channels: Vec::new(),
                    name: Some(first),
                    samplers: Vec::new(),
                };
                b.root.push(a);
                b.root.animations.len() - 1
            }
        };
        let mut exact = true;
        for &(mesh, material) in &materials.uv_animated {
            let Some(anim) = &scene.meshes[mesh].uv_animation else { continue };
            let (mut channels, ok) = uv::channels(&mut b, anim, material, animation, end);
            pointers.append(&mut channels);
            exact &= ok;
        }
        b.root.extensions_used.extend(["KHR_texture_transform".to_string(), "KHR_animation_pointer".to_string()]);
        if !exact {
            materials.notes.push(
                "a UV animation scales unevenly while it rotates: glTF's texture transform scales before it rotates, \
                 so it is approximated"
                    .into(),
            );
        }
    }
    // Camera tracks of no clip here get an animation of their own.
    for &(track, node) in &cameras {
        if !scene.clips.iter().any(|c| track.clip.as_deref() == Some(c.name.as_str())) {
            let (mut samplers, mut channels) = (Vec::new(), Vec::new());
            camera::channels(&mut b, track, node, &mut samplers, &mut channels);
            if !channels.is_empty() {
                let name = Some(format!("camera {}", track.name));
                b.root.push(json::Animation { extensions: None, extras: None, channels, name, samplers });
            }
        }
    }
    // A skin's joints need one common root: several root joints (and the unmoving extra) go under one node.
    let mut joint_roots: Vec<Index<json::Node>> = roots.into_iter().chain(extra).collect();
    if joint_roots.len() > 1 {
        let mut armature = rig::node("skeleton", crate::scene::Transform::IDENTITY);
        armature.children = Some(joint_roots);
        joint_roots = vec![b.root.push(armature)];
    }
    let nodes: Vec<Index<json::Node>> =
        joint_roots.into_iter().chain(mesh_nodes).chain(cameras.iter().map(|c| c.1)).collect();
    let scene_index = b.root.push(json::Scene {
        extensions: None,
        extras: Default::default(),
        name: Some(scene.meta.format.name().to_string()),
        nodes,
    });
    b.root.scene = Some(scene_index);
    if materials.unlit {
        b.root.extensions_used.push("KHR_materials_unlit".into());
    }
    if materials.texture_transform && !b.root.extensions_used.iter().any(|e| e == "KHR_texture_transform") {
        b.root.extensions_used.push("KHR_texture_transform".into());
    }
    if materials.emissive_strength {
        b.root.extensions_used.push("KHR_materials_emissive_strength".into());
    }
    let mut notes = streams.map_or_else(Vec::new, |s| s.notes);
    notes.append(&mut materials.notes);
    if loose > 0 {
        notes.push(format!("left out {loose} vertex(es) outside every mesh's triangles: glTF meshes are triangles"));
    }
    notes.extend(dropped_notes(scene));
    let side_files = std::mem::take(&mut materials.side_files);
    let untextured = scene
        .meshes
        .iter()
        .enumerate()
        .filter(|(i, m)| m.uv_animation.is_some() && !materials.uv_animated.iter().any(|u| u.0 == *i));
    if untextured.count() > 0 {
        notes.push("dropped the UV animation of meshes whose texture wasn't found".into());
    }
    drop(materials);
    finish(b, container, side_files, notes, &pointers)
}

/// Adds the buffer and serialises the document in its container.
fn finish(
    mut b: buffer::Builder,
    container: Container,
    mut side_files: Vec<SideFile>,
    notes: Vec<String>,
    pointers: &[uv::PointerChannel],
) -> Result<GltfFile, ConvertError> {
    while !b.bin.len().is_multiple_of(4) {
        b.bin.push(0);
    }
    let uri = match container {
        Container::Glb => None,
        Container::Gltf { stem } => Some(format!("{stem}.bin")),
    };
    if !b.bin.is_empty() {
        b.root.push(json::Buffer {
            byte_length: USize64::from(b.bin.len()),
            name: None,
            uri: uri.clone(),
            extensions: None,
            extras: Default::default(),
        });
    }
    let (head, body) = match container {
        Container::Glb => {
            let text = serialize(&b.root, pointers, false)?;
            if text.len() as u64 + b.bin.len() as u64 + 64 > u64::from(u32::MAX) {
                return Err(ConvertError("the model is over 4 GiB, the most a .glb holds: write .gltf".into()));
            }
            let (head, pad) = buffer::glb_head(&text, &b.bin);
            b.bin.resize(b.bin.len() + pad, 0);
            (head, b.bin)
        }
        Container::Gltf { .. } => {
            if let Some(name) = uri.filter(|_| !b.bin.is_empty()) {
                side_files.insert(0, SideFile { name, bytes: std::mem::take(&mut b.bin) });
            }
            let text = serialize(&b.root, pointers, true)?;
            (text, Vec::new())
        }
    };
    Ok(GltfFile { head, body, side_files, notes })
}

/// The document's JSON, with the animation channels gltf-json can't spell added (`pointers`).
fn serialize(root: &json::Root, pointers: &[uv::PointerChannel], pretty: bool) -> Result<Vec<u8>, ConvertError> {
    let fail = |e: serde_json::Error| ConvertError(format!("glTF JSON: {e}"));
    let mut value = serde_json::to_value(root).map_err(fail)?;
    uv::add_pointer_channels(&mut value, pointers);
    if pretty { serde_json::to_vec_pretty(&value) } else { serde_json::to_vec(&value) }.map_err(fail)
}

/// What glTF has no place for but a user of the file may want: the IK chains and append relations, by joint
/// name, in the skin's `extras`.
fn constraint_extras(scene: &Scene) -> json::Extras {
    let c = &scene.constraints;
    if c.ik.is_empty() && c.append.is_empty() {
        return None;
    }
    let name = |j: usize| scene.skeleton.joints.get(j).map_or(String::new(), |j| j.name.clone());
    let ik: Vec<serde_json::Value> =
        c.ik.iter()
            .map(|k| {
                serde_json::json!({
                    "bone": name(k.joint), "target": name(k.target), "loopCount": k.loop_count,
                    "limitAngle": k.limit_angle,
                    "links": k.links.iter().map(|l| name(l.joint)).collect::<Vec<_>>(),
                })
            })
            .collect();
    let append: Vec<serde_json::Value> = c
        .append
        .iter()
        .map(|a| {
            serde_json::json!({
                "bone": name(a.joint), "source": name(a.source), "ratio": a.ratio,
                "rotation": a.rotation, "translation": a.translation, "local": a.local,
            })
        })
        .collect();
    extras(&serde_json::json!({ "rigscope": { "ik": ik, "append": append } }))
}

/// What the glTF file leaves out, for the user.
fn dropped_notes(scene: &Scene) -> Vec<String> {
    let mut notes = Vec::new();
    let other_morphs = scene.morphs.iter().filter(|m| !matches!(m.kind, MorphKind::Vertex(_))).count();
    if other_morphs > 0 {
        notes.push(format!(
            "{other_morphs} morph(s) other than vertex morphs (UV, bone, material, group, flip, impulse) have no glTF \
             morph target: their effect on the animations is baked in, the morphs themselves are dropped"
        ));
    }
    let c = &scene.constraints;
    if !c.ik.is_empty() || !c.append.is_empty() {
        notes.push(format!(
            "{} IK chain(s) and {} append relation(s) are listed in the skin's extras, not evaluated by glTF \
             viewers: the animations are baked with them",
            c.ik.len(),
            c.append.len()
        ));
    }
    let shaded =
        scene.materials.iter().filter(|m| m.sphere.is_some() || m.toon.is_some() || m.outline.is_some()).count();
    if shaded > 0 {
        notes.push(format!("dropped the sphere maps, toon ramps and outlines of {shaded} material(s): glTF has none"));
    }
    let fov = scene.cameras.iter().filter(|t| camera::fov_changes(t)).count();
    if fov > 0 {
        notes.push(format!(
            "{fov} camera track(s) change their field of view: glTF animates only the camera's node, so the \
             first key's field of view is written"
        ));
    }
    if scene.adjacency.is_some() {
        notes.push("dropped the stored triangle adjacency: glTF has none".into());
    }
    let hidden = scene.clips.iter().filter(|c| !c.visibility.is_empty()).count();
    if hidden > 0 {
        notes.push(format!("dropped the visibility keys of {hidden} animation(s)"));
    }
    notes
}

/// `value` as a glTF object's `extras` (rigscope's own facts go under its `rigscope` key).
fn extras(value: &serde_json::Value) -> json::Extras {
    serde_json::value::to_raw_value(value).ok()
}

//! glTF 2.0, binary (.glb) and JSON (.gltf).
//!
//! The `gltf` crate parses and validates the JSON (`gltf::Gltf::from_slice`, errors with line and column);
//! everything that touches bytes is done here with checked bounds: the GLB container (`container.rs`), buffers
//! (the binary chunk, `data:` URIs, and files beside a .gltf when loaded by path), accessors with strides and
//! sparse values (`accessor.rs`). The scene keeps glTF's space: Y up, right-handed, front toward +Z, CCW front
//! faces. `nodes.rs` says which nodes become joints and how inverse bind matrices are honoured; `mesh.rs` how
//! primitives are placed; `anim.rs` how animations become keyed clips; `material.rs` how textures are found;
//! `vrm.rs` what VRM 0.x and 1.0 add (humanoid, meta, expressions, node constraints).

mod accessor;
mod anim;
mod camera;
mod container;
mod extras;
mod material;
mod mesh;
mod mtoon;
mod nodes;
mod pointer;
mod sampler;
mod spring;
#[cfg(test)]
mod tests;
mod vrm;
// The test writer: tests, benchmarks and fuzz seeds build files with it; the app never writes this format.
#[cfg(any(test, feature = "testing"))]
pub mod write;

use std::path::Path;

use crate::error::{LoadError, Location, Warning};
use crate::scene::{Format, FrontFace, Metadata, Scene, UpAxis};

pub use container::{GLB_MAGIC, edit_glb_json};

/// True when the bytes start like a binary glTF (GLB).
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(GLB_MAGIC)
}

/// True when the bytes start like JSON text (an object), as a .gltf does.
pub fn looks_like_json(bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Reads a .glb or .gltf from bytes. A buffer in an external file can't be reached this way: the error names
/// its URI (see [`read_in`]).
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    read_in(name, data, None)
}

/// Reads a .glb or .gltf whose external buffers (relative URIs) are read from `dir`, the model's folder.
pub fn read_in(name: &str, data: &[u8], dir: Option<&Path>) -> Result<Scene, LoadError> {
    read_inner(data, dir).map_err(|e| e.in_file(name))
}

/// A `gltf` crate error as a load error: JSON errors keep their line and column.
fn json_error(e: gltf::Error, glb: bool) -> LoadError {
    match e {
        gltf::Error::Deserialize(e) => {
            let message = format!("invalid glTF JSON at column {}: {e}", e.column());
            if glb {
                LoadError::at(20, format!("JSON chunk line {}: {message}", e.line()))
            } else {
                LoadError { file: String::new(), location: Location::Line(e.line() as u64), message }
            }
        }
        gltf::Error::Validation(errors) => {
            let list: Vec<String> = errors.iter().take(5).map(|(path, err)| format!("{path}: {err}")).collect();
            let more = if errors.len() > 5 { format!(" (and {} more)", errors.len() - 5) } else { String::new() };
            LoadError::whole(format!("invalid glTF: {}{more}", list.join("; ")))
        }
        e => LoadError::whole(format!("invalid glTF: {e}")),
    }
}

/// The `gltf` crate's validation (indices in range, required fields), less the POSITION bounds (`min`, `max`)
/// that exporters often leave out and nothing here reads, and less the buffer view the crate asks of an
/// accessor without sparse values: the spec makes such an accessor all zeros (`accessor.rs` fills them,
/// bounded by the input's size), and rigscope's exporter writes a morph that moves nothing that way.
fn validate(doc: &gltf::Document) -> Result<(), LoadError> {
    use gltf::json::validation::Validate;
    let root = doc.as_json();
    // The crate's primitive check indexes the accessors with POSITION's index before that index is checked.
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let position = prim.attributes.get(&gltf::json::validation::Checked::Valid(gltf::Semantic::Positions));
            if let Some(i) = position.filter(|i| i.value() >= root.accessors.len()) {
                let msg = format!(
                    "invalid glTF: meshes[{m}].primitives[{p}]: POSITION accessor {} does not exist",
                    i.value()
                );
                return Err(LoadError::whole(msg));
            }
        }
    }
    checked_enums(root)?;
    let mut errors = Vec::new();
    root.validate(root, gltf::json::Path::new, &mut |path, error| {
        let path = path();
        let p = path.as_str();
        let optional =
            p.ends_with(".min") || p.ends_with(".max") || (p.starts_with("accessors[") && p.ends_with("].bufferView"));
        if !(optional && matches!(error, gltf::json::validation::Error::Missing)) {
            errors.push((path, error));
        }
    });
    if errors.is_empty() { Ok(()) } else { Err(json_error(gltf::Error::Validation(errors), false)) }
}

/// The enumerations and indices the `gltf` crate's accessors unwrap and its validation doesn't always reach
/// (animation targets are not validated at all), refused here when the file has them wrong.
fn checked_enums(root: &gltf::json::Root) -> Result<(), LoadError> {
    use gltf::json::validation::Checked;
    let bad = |what: String| Err(LoadError::whole(format!("invalid glTF: {what}: invalid value")));
    for (i, a) in root.accessors.iter().enumerate() {
        if matches!(a.component_type, Checked::Invalid) || matches!(a.type_, Checked::Invalid) {
            return bad(format!("accessors[{i}] componentType or type"));
        }
        if a.sparse.as_ref().is_some_and(|s| matches!(s.indices.component_type, Checked::Invalid)) {
            return bad(format!("accessors[{i}].sparse.indices.componentType"));
        }
    }
    for (i, a) in root.animations.iter().enumerate() {
        if let Some(c) = a.channels.iter().position(|c| matches!(c.target.path, Checked::Invalid)) {
            return bad(format!("animations[{i}].channels[{c}].target.path"));
        }
        if let Some(c) = a.channels.iter().position(|c| c.target.node.value() >= root.nodes.len()) {
            return bad(format!("animations[{i}].channels[{c}].target.node"));
        }
        if let Some(s) = a.samplers.iter().position(|s| matches!(s.interpolation, Checked::Invalid)) {
            return bad(format!("animations[{i}].samplers[{s}].interpolation"));
        }
    }
    for (i, m) in root.meshes.iter().enumerate() {
        if let Some(p) = m.primitives.iter().position(|p| matches!(p.mode, Checked::Invalid)) {
            return bad(format!("meshes[{i}].primitives[{p}].mode"));
        }
    }
    if let Some(i) = root.materials.iter().position(|m| matches!(m.alpha_mode, Checked::Invalid)) {
        return bad(format!("materials[{i}].alphaMode"));
    }
    Ok(())
}

fn read_inner(data: &[u8], dir: Option<&Path>) -> Result<Scene, LoadError> {
    let c = container::split(data)?;
    // Channels animating through KHR_animation_pointer have no target node, which the gltf crate can't read:
    // they are taken out first (texture transforms become UV animation, the rest is said).
    // The JSON is parsed once either way, and syntax errors point into the file's own text.
    let (document, pointers) = if pointer::mentions_pointers(c.json) {
        let mut value: serde_json::Value =
            serde_json::from_slice(c.json).map_err(|e| json_error(gltf::Error::Deserialize(e), c.glb))?;
        let pointers = pointer::take_pointer_channels(&mut value);
        // From the parsed value there is no text position to give: the error names the field instead.
        let root: gltf::json::Root =
            serde_json::from_value(value).map_err(|e| LoadError::whole(format!("invalid glTF JSON: {e}")))?;
        (gltf::Document::from_json_without_validation(root), pointers)
    } else {
        let gltf = gltf::Gltf::from_slice_without_validation(c.json).map_err(|e| json_error(e, c.glb))?;
        (gltf.document, Vec::new())
    };
    let doc = &document;
    validate(doc)?;
    let mut meta = Metadata::new(Format::Gltf, doc.as_json().asset.version.clone());
    meta.comment = doc.as_json().asset.generator.clone();
    meta.extensions =
        doc.extensions_used().map(|name| crate::scene::Extension { name: name.to_string(), bytes: 0 }).collect();
    let data_buffers = container::resolve_buffers(doc, c.bin, dir)?;
    let total: usize = data_buffers.iter().map(|b| b.len()).sum::<usize>() + data.len();
    let buffers = accessor::Buffers { data: data_buffers, zero_budget: total };
    let w = &mut meta.warnings;
    let graph = nodes::Graph::new(doc, w);
    // A VRM's humanoid bones are joints even where they move nothing (they are the avatar's skeleton), and so
    // are the nodes node constraints drive and read, and the spring bones' joints and colliders.
    let vrm_json = vrm::json(c.json, doc);
    let forced: Vec<usize> =
        vrm_json.as_ref().map(|root| [vrm::joint_nodes(root), spring::nodes(root)].concat()).unwrap_or_default();
    let rig = nodes::Rig::new(doc, &graph, &buffers, &forced, w)?;
    let (mut materials, mut images) = material::read(doc, &buffers, w)?;
    let mut geometry = mesh::read(doc, &graph, &rig, &buffers, materials.len(), w)?;
    // Meshes still name glTF's materials here, which the pointers address.
    pointer::uv_animations(doc, &buffers, &pointers, &mut geometry.meshes, w)?;
    // An animated texture transform is the mesh's UV animation; the material's own is its rest, not kept twice.
    for m in geometry.meshes.iter().filter(|m| m.uv_animation.is_some()) {
        if let Some(mat) = materials.get_mut(m.material) {
            mat.uv_transform = None;
        }
    }
    let (kept, mut materials) = material::fold_sidedness(materials);
    for m in &mut geometry.meshes {
        m.material = kept.get(m.material).copied().unwrap_or(materials.len());
    }
    if geometry.default_material_used {
        materials.push(material::default_material());
    }
    if let Some(root) = vrm_json.as_ref() {
        mtoon::apply(&mtoon::read(root), &kept, &mut materials, &mut images);
    }
    let clips = anim::read(doc, &rig, &geometry, &buffers, w)?;
    let cameras = camera::read(doc, &graph, &buffers, w)?;
    // VRM's expressions come after the morph targets, whose indices the clips use.
    let targets = vrm::Targets {
        joint_of_node: &rig.joint_of_node,
        node_morphs: &geometry.node_morphs,
        node_meshes: &geometry.node_meshes,
        material_of: &kept,
        materials: &materials,
    };
    let constraints = vrm_json.as_ref().map(|root| vrm::constraints(root, &rig.joint_of_node, w)).unwrap_or_default();
    let springs = vrm_json.as_ref().and_then(|root| spring::read(root, &rig.joint_of_node, w)).map(Box::new);
    let vrm_animation = vrm_json.as_ref().and_then(|root| vrm::animation(root, &rig.joint_of_node)).map(Box::new);
    let vrm = vrm_json.and_then(|root| vrm::read(&root, doc, &targets, geometry.morphs.len(), w));
    let mut morphs = geometry.morphs;
    let up = vrm.as_ref().map_or(UpAxis::Y, |v| v.up);
    let vrm = vrm.map(|v| {
        morphs.extend(v.morphs);
        Box::new(v.info)
    });
    Ok(Scene {
        vertices: geometry.vertices,
        triangles: geometry.triangles,
        meshes: geometry.meshes,
        materials,
        skeleton: rig.skeleton,
        clips,
        up,
        front_face: FrontFace::Ccw,
        morphs,
        images,
        cameras,
        vrm,
        springs,
        vrm_animation,
        constraints,
        ..Scene::empty(meta)
    })
}

/// A warning about the file as a whole (glTF's JSON has no line numbers worth giving).
fn warn(w: &mut Vec<Warning>, rule: &'static str, message: String) {
    w.push(Warning { rule, location: Location::File, message });
}

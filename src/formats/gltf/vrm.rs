//! VRM avatars: glTF with VRM 0.x's `extensions.VRM` or VRM 1.0's `extensions.VRMC_vrm` (specifications in
//! vrm-c/vrm-specification, `specification/0.0/` and `specification/VRMC_vrm-1.0/`). Read here: the humanoid
//! map, the meta and licence fields, and the expressions (VRM 0.x blend shape groups), each of which becomes a
//! group morph over the glTF morph targets it binds. Both versions are read into VRM 1.0's names; a VRM 0.x
//! model, which faces −Z, is shown turned to face the camera as a 1.0 model does ([`UpAxis::YBack`]).
//!
//! The extension is read from the JSON text with serde_json (the `gltf` crate keeps no unknown root
//! extension). Whatever is malformed in it is a warning, never an error: the glTF underneath still opens.

use std::collections::HashMap;

use serde_json::Value;

use crate::error::Warning;
use crate::scene::{
    Aim, Append, ColorOffset, ColorTarget, Constraints, Expression, FirstPerson, HumanBone, LookAt, Material, Morph,
    MorphKind, MorphPanel, MorphWeight, Override, RangeMap, Roll, TextureTransformOffset, UpAxis, VrmAnimation,
    VrmInfo,
};

/// What a VRM extension adds to the scene: its facts, the expression morphs (appended to the scene's morphs,
/// numbered from `first_morph`), and how the model faces.
pub struct Vrm {
    pub info: VrmInfo,
    pub morphs: Vec<Morph>,
    pub up: UpAxis,
}

/// The JSON of a glTF that declares `VRMC_vrm`, `VRM`, `VRMC_node_constraint`, `VRMC_springBone`,
/// `VRMC_vrm_animation` or `VRMC_materials_mtoon` (`None` for any other glTF, which is parsed once only).
pub fn json(json: &[u8], doc: &gltf::Document) -> Option<Value> {
    let used = |name: &str| doc.extensions_used().any(|e| e == name);
    let vrm =
        ["VRMC_vrm", "VRM", "VRMC_node_constraint", "VRMC_springBone", "VRMC_vrm_animation", "VRMC_materials_mtoon"];
    if !vrm.into_iter().any(used) {
        return None;
    }
    serde_json::from_slice(json).ok()
}

/// The nodes that must be joints whether or not they move a vertex: the humanoid's bones (the avatar's
/// skeleton) and the nodes node constraints drive or read.
pub fn joint_nodes(root: &Value) -> Vec<usize> {
    let index = |b: &Value| b.get("node").and_then(Value::as_u64).map(|n| n as usize);
    let v1 = root.pointer("/extensions/VRMC_vrm/humanoid/humanBones").and_then(Value::as_object);
    let v0 = root.pointer("/extensions/VRM/humanoid/humanBones").and_then(Value::as_array);
    let humanoid = v1.into_iter().flat_map(|m| m.values()).chain(v0.into_iter().flatten()).filter_map(index);
    let constrained = node_constraints(root).into_iter().flat_map(|c| [c.node, c.source]);
    // A VRMA motion's humanoid, expression and look-at nodes.
    let vrma = root.pointer("/extensions/VRMC_vrm_animation").map(vrma_entries).unwrap_or_default();
    let animated = vrma.into_iter().map(|(_, _, entry)| entry).filter_map(index);
    humanoid.chain(constrained).chain(animated).collect()
}

/// What a VRMA's entry that names a node is for.
#[derive(Clone, Copy, PartialEq)]
enum VrmaPart {
    Bone,
    Expression,
    LookAt,
}

/// The entries of a VRMA extension `a` that name a node: each humanoid bone and each expression (preset, then
/// custom) with its name, and the look-at (named "").
fn vrma_entries(a: &Value) -> Vec<(VrmaPart, &str, &Value)> {
    let mut out: Vec<(VrmaPart, &str, &Value)> = Vec::new();
    for (name, b) in a.pointer("/humanoid/humanBones").and_then(Value::as_object).into_iter().flatten() {
        out.push((VrmaPart::Bone, name, b));
    }
    for group in ["preset", "custom"] {
        for (name, e) in a.pointer(&format!("/expressions/{group}")).and_then(Value::as_object).into_iter().flatten() {
            out.push((VrmaPart::Expression, name, e));
        }
    }
    out.extend(a.get("lookAt").map(|l| (VrmaPart::LookAt, "", l)));
    out
}

/// A VRMA motion's humanoid bones, expressions and look-at by the scene's joints (`joint_of_node`); `None` for
/// a glTF without `VRMC_vrm_animation`.
pub fn animation(root: &Value, joint_of_node: &[Option<usize>]) -> Option<VrmAnimation> {
    let a = root.pointer("/extensions/VRMC_vrm_animation").filter(|a| a.is_object())?;
    let joint = |v: &Value| {
        v.get("node").and_then(Value::as_u64).and_then(|n| joint_of_node.get(n as usize).copied().flatten())
    };
    let mut out = VrmAnimation {
        spec_version: a.get("specVersion").and_then(Value::as_str).unwrap_or("1.0").to_string(),
        ..VrmAnimation::default()
    };
    for (part, name, entry) in vrma_entries(a) {
        let Some(j) = joint(entry) else { continue };
        match part {
            VrmaPart::Bone => out.humanoid.push((name.to_string(), j)),
            VrmaPart::Expression => out.expressions.push((name.to_string(), j)),
            VrmaPart::LookAt => out.look_at = Some(j),
        }
    }
    Some(out)
}

/// One `VRMC_node_constraint` as the file gives it: the node it drives, its kind (`roll`, `aim`, `rotation`),
/// its source node and weight.
struct NodeConstraint {
    node: usize,
    kind: String,
    source: usize,
    weight: f32,
    /// A roll constraint's `rollAxis` (X, Y or Z), as a unit vector.
    roll_axis: Option<glam::Vec3>,
    /// An aim constraint's `aimAxis` (PositiveX … NegativeZ), as a unit vector.
    aim_axis: Option<glam::Vec3>,
}

fn node_constraints(root: &Value) -> Vec<NodeConstraint> {
    let nodes = root.get("nodes").and_then(Value::as_array);
    let mut out = Vec::new();
    for (node, n) in nodes.into_iter().flatten().enumerate() {
        let Some(c) = n.pointer("/extensions/VRMC_node_constraint/constraint").and_then(Value::as_object) else {
            continue;
        };
        for (kind, v) in c {
            let Some(source) = v.get("source").and_then(Value::as_u64).map(|s| s as usize) else { continue };
            let weight = v.get("weight").and_then(Value::as_f64).unwrap_or(1.0).clamp(0.0, 1.0) as f32;
            let roll_axis = match v.get("rollAxis").and_then(Value::as_str) {
                Some("X") => Some(glam::Vec3::X),
                Some("Y") => Some(glam::Vec3::Y),
                Some("Z") => Some(glam::Vec3::Z),
                _ => None,
            };
            let aim_axis = match v.get("aimAxis").and_then(Value::as_str) {
                Some("PositiveX") => Some(glam::Vec3::X),
                Some("NegativeX") => Some(glam::Vec3::NEG_X),
                Some("PositiveY") => Some(glam::Vec3::Y),
                Some("NegativeY") => Some(glam::Vec3::NEG_Y),
                Some("PositiveZ") => Some(glam::Vec3::Z),
                Some("NegativeZ") => Some(glam::Vec3::NEG_Z),
                _ => None,
            };
            out.push(NodeConstraint { node, kind: kind.clone(), source, weight, roll_axis, aim_axis });
        }
    }
    out
}

/// The file's node constraints as scene constraints. A rotation constraint is an append of the source's
/// rotation from its rest, slerped by the weight (`target = destRest · slerp(I, srcRest⁻¹ · src, weight)`,
/// exactly what an append gives a destination its motion leaves at rest); a roll constraint is a [`Roll`], an aim
/// constraint an [`Aim`].
pub fn constraints(root: &Value, joint_of_node: &[Option<usize>], w: &mut Vec<Warning>) -> Constraints {
    let joint = |n: usize| joint_of_node.get(n).copied().flatten();
    let mut out = Constraints::default();
    let mut skipped: Vec<String> = Vec::new();
    for c in node_constraints(root) {
        match (c.kind.as_str(), joint(c.node), joint(c.source), c.roll_axis, c.aim_axis) {
            ("roll", Some(j), Some(s), Some(axis), _) if j != s => {
                out.roll.push(Roll { joint: j, source: s, axis, weight: c.weight })
            }
            ("aim", Some(j), Some(s), _, Some(axis)) if j != s => {
                out.aim.push(Aim { joint: j, source: s, axis, weight: c.weight })
            }
            ("rotation", Some(j), Some(s), _, _) if j != s => out.append.push(Append {
                joint: j,
                source: s,
                ratio: c.weight,
                rotation: true,
                translation: false,
                local: true,
            }),
            _ => skipped.push(format!("{} on node {}", c.kind, c.node)),
        }
    }
    if !skipped.is_empty() {
        let message = format!(
            "node constraint(s) not applied (an unknown kind, or a node, roll axis or aim axis missing): {}",
            skipped.join(", ")
        );
        super::warn(w, "vrm.constraint.unsupported", message);
    }
    out
}

/// What the expressions' binds address besides joints: the scene joint of each node, the scene morph of each
/// node's morph target, and the scene material (after folding) of each glTF material.
pub struct Targets<'a> {
    pub joint_of_node: &'a [Option<usize>],
    pub node_morphs: &'a HashMap<usize, Vec<usize>>,
    pub node_meshes: &'a HashMap<usize, Vec<usize>>,
    pub material_of: &'a [usize],
    pub materials: &'a [Material],
}

/// The VRM facts of a glTF whose JSON is `root` ([`json`]); `first_morph` is the index the first expression
/// morph will have.
pub fn read(
    root: &Value,
    doc: &gltf::Document,
    targets: &Targets,
    first_morph: usize,
    w: &mut Vec<Warning>,
) -> Option<Vrm> {
    let extensions = root.get("extensions")?;
    let mut reader = Reader { doc, targets, first_morph, w, morphs: Vec::new() };
    if let Some(v1) = extensions.get("VRMC_vrm").filter(|v| v.is_object()) {
        let info = reader.vrm1(v1);
        return Some(Vrm { info, morphs: reader.morphs, up: UpAxis::Y });
    }
    let v0 = extensions.get("VRM").filter(|v| v.is_object())?;
    let info = reader.vrm0(v0);
    Some(Vrm { info, morphs: reader.morphs, up: UpAxis::YBack })
}

/// The VRM 1.0 name of a VRM 0.x humanoid bone: the thumbs' three bones are renamed one step toward the hand
/// (0.x Proximal, Intermediate, Distal are 1.0 Metacarpal, Proximal, Distal); the rest keep their names.
pub fn bone_name_1(name_0: &str) -> String {
    for side in ["left", "right"] {
        for (old, new) in [("Proximal", "Metacarpal"), ("Intermediate", "Proximal")] {
            if name_0 == format!("{side}Thumb{old}") {
                return format!("{side}Thumb{new}");
            }
        }
    }
    name_0.to_string()
}

/// The VRM 1.0 preset a VRM 0.x blend shape preset became (`None`: "unknown", a custom expression).
fn preset_1(preset_0: &str) -> Option<&'static str> {
    Some(match preset_0 {
        "joy" => "happy",
        "angry" => "angry",
        "sorrow" => "sad",
        "fun" => "relaxed",
        "a" => "aa",
        "i" => "ih",
        "u" => "ou",
        "e" => "ee",
        "o" => "oh",
        "blink" => "blink",
        "blink_l" => "blinkLeft",
        "blink_r" => "blinkRight",
        "lookup" => "lookUp",
        "lookdown" => "lookDown",
        "lookleft" => "lookLeft",
        "lookright" => "lookRight",
        "neutral" => "neutral",
        _ => return None,
    })
}

/// The morph panel an expression is listed under: blinks and looks with the eyes, visemes with the mouth.
fn panel(name: &str) -> MorphPanel {
    match name {
        "blink" | "blinkLeft" | "blinkRight" | "lookUp" | "lookDown" | "lookLeft" | "lookRight" => MorphPanel::Eye,
        "aa" | "ih" | "ou" | "ee" | "oh" => MorphPanel::Mouth,
        _ => MorphPanel::Other,
    }
}

/// A JSON value as text for the meta list: strings as they are, lists joined, numbers and flags written out.
fn meta_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) => {
            let items: Vec<String> = a.iter().filter_map(meta_text).collect();
            Some(items.join(", "))
        }
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The meta fields with a value to show, sorted by name (serde_json's map order).
fn meta_fields<'a>(fields: impl Iterator<Item = (&'a String, &'a Value)>) -> Vec<(String, String)> {
    fields.filter_map(|(k, v)| Some((k.clone(), meta_text(v)?))).filter(|(_, v)| !v.is_empty()).collect()
}

fn overrides(v: &Value) -> [Override; 3] {
    ["overrideBlink", "overrideLookAt", "overrideMouth"].map(|k| match v.get(k).and_then(Value::as_str) {
        Some("block") => Override::Block,
        Some("blend") => Override::Blend,
        _ => Override::None,
    })
}

/// The numbers of a JSON array (an empty list for anything else; entries that aren't numbers left out).
fn numbers(v: Option<&Value>) -> Vec<f32> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_f64).map(|x| x as f32).collect())
        .unwrap_or_default()
}

/// What one expression binds: morph targets with weights, texture transforms, material colours, and how many
/// material colour binds the file gives (matcap binds and binds on a colour the material lacks aren't drawn).
struct Binds {
    morphs: Vec<(usize, f32)>,
    uv: Vec<TextureTransformOffset>,
    colours: Vec<ColorOffset>,
    material_binds: usize,
}

struct Reader<'a> {
    doc: &'a gltf::Document,
    targets: &'a Targets<'a>,
    first_morph: usize,
    w: &'a mut Vec<Warning>,
    morphs: Vec<Morph>,
}

impl Reader<'_> {
    fn warn(&mut self, rule: &'static str, message: String) {
        super::warn(self.w, rule, message);
    }

    fn human_bone(&mut self, name: String, node: Option<u64>) -> Option<HumanBone> {
        let Some(node) = node.map(|n| n as usize).filter(|&n| n < self.targets.joint_of_node.len()) else {
            self.warn("vrm.humanoid.node", format!("humanoid bone {name}: no node of that index; left out"));
            return None;
        };
        Some(HumanBone { name, node, joint: self.targets.joint_of_node[node] })
    }

    /// An expression's group morph from its morph binds (`(target morphs, weight 0..1)` each), texture transform
    /// binds and material colour binds (each kind a hidden morph of its own in the group), made a scene morph.
    fn expression(&mut self, name: String, preset: bool, binds: Binds, v: &Value, is_binary: bool) -> Expression {
        let Binds { morphs: targets, uv, colours, material_binds } = binds;
        let mut members: Vec<MorphWeight> =
            targets.iter().map(|&(morph, weight)| MorphWeight { morph, weight }).collect();
        let texture_binds = uv.len();
        let hidden = [("texture transform", (!uv.is_empty()).then_some(MorphKind::TextureTransform(uv)))];
        let hidden =
            hidden.into_iter().chain([("material colour", (!colours.is_empty()).then_some(MorphKind::Color(colours)))]);
        for (what, kind) in hidden {
            let Some(kind) = kind else { continue };
            members.push(MorphWeight { morph: self.first_morph + self.morphs.len(), weight: 1.0 });
            self.morphs.push(Morph {
                name: format!("{name} ({what})"),
                name_en: String::new(),
                panel: MorphPanel::System,
                kind,
            });
        }
        let morph = self.first_morph + self.morphs.len();
        self.morphs.push(Morph {
            name: name.clone(),
            name_en: String::new(),
            panel: panel(&name),
            kind: MorphKind::Group(members),
        });
        Expression {
            name,
            preset,
            morph,
            is_binary,
            overrides: overrides(v),
            morph_binds: targets.len(),
            material_binds,
            texture_binds,
        }
    }

    /// A material colour bind of `what` on glTF material `material`: `kind` names the colour (VRM 1.0's bind type
    /// or VRM 0.x's property), `target` its value at full weight (linear RGBA), as what it adds to the material's
    /// own colour at full weight. `None` when it names no material (warned and left out); `Some(None)` for a
    /// colour the material lacks, as three-vrm 3.5.5 leaves it (emission on an unlit material; outline, shade and
    /// rim without MToon) and for the matcap colour (matcaps aren't drawn).
    fn colour_bind(
        &mut self,
        what: &str,
        material: Option<usize>,
        kind: &str,
        target: &[f32],
    ) -> Option<Option<ColorOffset>> {
        let scene_material = material.and_then(|m| Some((m, *self.targets.material_of.get(m)?)));
        let Some((gltf_material, m)) = scene_material.filter(|&(_, m)| m < self.targets.materials.len()) else {
            self.warn("vrm.expression.bind", format!("{what}: a material colour bind names no material; left out"));
            return None;
        };
        Some(self.colour_offset(gltf_material, m, kind, target))
    }

    /// [`Reader::colour_bind`]'s offset on glTF material `gltf_material`, scene material `m`.
    fn colour_offset(&self, gltf_material: usize, m: usize, kind: &str, target: &[f32]) -> Option<ColorOffset> {
        let mat = &self.targets.materials[m];
        let at = |i: usize, d: f32| target.get(i).copied().filter(|x| x.is_finite()).unwrap_or(d);
        let value = glam::Vec4::new(at(0, 0.0), at(1, 0.0), at(2, 0.0), at(3, 1.0));
        let toon = mat.toon_shading;
        let target = ColorTarget::from_name(kind)?;
        let own = match target {
            ColorTarget::Base => mat.color.unwrap_or(glam::Vec4::ONE),
            ColorTarget::Emissive if mat.lit => {
                // The emissive factor's change, drawn times the material's emissive strength.
                let strength = self.doc.materials().nth(gltf_material).and_then(|m| m.emissive_strength());
                let strength = strength.filter(|s| s.is_finite() && *s >= 0.0).unwrap_or(1.0);
                let delta = (value.truncate() * strength - mat.emissive).extend(0.0);
                return Some(ColorOffset { material: m, target, delta });
            }
            ColorTarget::Outline if toon.is_some() => {
                mat.outline.map_or(glam::Vec4::ZERO, |o| o.color.truncate().extend(value.w))
            }
            ColorTarget::Shade => toon?.shade.extend(value.w),
            ColorTarget::Rim => toon?.rim.extend(value.w),
            ColorTarget::Emissive | ColorTarget::Outline => return None,
        };
        Some(ColorOffset { material: m, target, delta: value - own })
    }

    /// A texture transform bind on glTF material `material` that sets its colour texture's offset and scale to
    /// these at full weight, as what it changes from the material's own transform.
    fn texture_bind(
        &mut self,
        what: &str,
        material: Option<usize>,
        offset: [f32; 2],
        scale: [f32; 2],
    ) -> Option<TextureTransformOffset> {
        let scene_material = material.and_then(|m| self.targets.material_of.get(m).copied());
        let Some(m) = scene_material.filter(|&m| m < self.targets.materials.len()) else {
            self.warn("vrm.expression.bind", format!("{what}: a texture transform bind names no material; left out"));
            return None;
        };
        let own = self.targets.materials[m].uv_transform;
        let (base_offset, base_scale) = own.map_or((glam::Vec2::ZERO, glam::Vec2::ONE), |t| (t.offset, t.scale));
        let (offset, scale) = (glam::Vec2::from_array(offset), glam::Vec2::from_array(scale));
        (offset.is_finite() && scale.is_finite()).then(|| TextureTransformOffset {
            material: m,
            offset: offset - base_offset,
            scale: scale - base_scale,
        })
    }

    /// The scene morphs of target `index` on every node that draws mesh `mesh` (VRM 0.x binds address meshes).
    fn mesh_targets(&self, mesh: usize, index: usize) -> Vec<usize> {
        self.doc
            .nodes()
            .filter(|n| n.mesh().is_some_and(|m| m.index() == mesh))
            .filter_map(|n| self.targets.node_morphs.get(&n.index()).and_then(|list| list.get(index)).copied())
            .collect()
    }

    fn vrm1(&mut self, v: &Value) -> VrmInfo {
        let mut info = VrmInfo {
            major: 1,
            spec_version: v.get("specVersion").and_then(Value::as_str).unwrap_or("1.0").to_string(),
            ..VrmInfo::default()
        };
        if let Some(meta) = v.get("meta").and_then(Value::as_object) {
            info.meta = meta_fields(meta.iter());
        }
        let bones = v.pointer("/humanoid/humanBones").and_then(Value::as_object);
        for (name, bone) in bones.into_iter().flatten() {
            let node = bone.get("node").and_then(Value::as_u64);
            if let Some(b) = self.human_bone(name.clone(), node) {
                info.humanoid.push(b);
            }
        }
        info.look_at = look_at_1(v);
        info.first_person = self.first_person(v.pointer("/firstPerson/meshAnnotations"), "node", "type");
        for (group, preset) in [("preset", true), ("custom", false)] {
            let list = v.pointer(&format!("/expressions/{group}")).and_then(Value::as_object);
            for (name, e) in list.into_iter().flatten() {
                let mut binds = Vec::new();
                for b in e.get("morphTargetBinds").and_then(Value::as_array).into_iter().flatten() {
                    let node = b.get("node").and_then(Value::as_u64).map(|n| n as usize);
                    let index = b.get("index").and_then(Value::as_u64).map(|n| n as usize);
                    let weight = b.get("weight").and_then(Value::as_f64).unwrap_or(1.0) as f32;
                    let target = node.zip(index).and_then(|(n, i)| self.targets.node_morphs.get(&n)?.get(i).copied());
                    match target {
                        Some(m) => binds.push((m, weight.clamp(0.0, 1.0))),
                        None => self.warn(
                            "vrm.expression.bind",
                            format!("expression {name}: a morph target bind names no morph target ({b}); left out"),
                        ),
                    }
                }
                let mut uv = Vec::new();
                for b in e.get("textureTransformBinds").and_then(Value::as_array).into_iter().flatten() {
                    let material = b.get("material").and_then(Value::as_u64).map(|m| m as usize);
                    let pair = |key: &str, default: [f32; 2]| {
                        let v = b.get(key).and_then(Value::as_array);
                        let at = |i: usize| v.and_then(|v| v.get(i)).and_then(Value::as_f64).map(|x| x as f32);
                        [at(0).unwrap_or(default[0]), at(1).unwrap_or(default[1])]
                    };
                    let what = format!("expression {name}");
                    uv.extend(self.texture_bind(&what, material, pair("offset", [0.0; 2]), pair("scale", [1.0; 2])));
                }
                let is_binary = e.get("isBinary").and_then(Value::as_bool).unwrap_or(false);
                let (mut colours, mut material_binds) = (Vec::new(), 0);
                for b in e.get("materialColorBinds").and_then(Value::as_array).into_iter().flatten() {
                    let material = b.get("material").and_then(Value::as_u64).map(|m| m as usize);
                    let kind = b.get("type").and_then(Value::as_str).unwrap_or("");
                    let target = numbers(b.get("targetValue"));
                    if let Some(offset) = self.colour_bind(&format!("expression {name}"), material, kind, &target) {
                        colours.extend(offset);
                        material_binds += 1;
                    }
                }
                let binds = Binds { morphs: binds, uv, colours, material_binds };
                let expression = self.expression(name.clone(), preset, binds, e, is_binary);
                info.expressions.push(expression);
            }
        }
        info
    }

    /// First-person mesh annotations with the scene meshes each covers: `key` names a node (VRM 1.0) or a mesh
    /// (VRM 0.x), `kind` is `type` (`auto`, `both`, `thirdPersonOnly`, `firstPersonOnly`) or 0.x's
    /// `firstPersonFlag` (the same, capitalised), given in 1.0's spelling.
    fn first_person(&self, list: Option<&Value>, key: &str, kind: &str) -> Vec<FirstPerson> {
        let name = |index: usize| -> String {
            let named = if key == "node" {
                self.doc.nodes().nth(index).and_then(|n| n.name().map(str::to_string))
            } else {
                self.doc.meshes().nth(index).and_then(|m| m.name().map(str::to_string))
            };
            named.unwrap_or_else(|| format!("{key} {index}"))
        };
        let mut out = Vec::new();
        for a in list.and_then(Value::as_array).into_iter().flatten() {
            let Some(index) = a.get(key).and_then(Value::as_u64).map(|n| n as usize) else { continue };
            let k = a.get(kind).and_then(Value::as_str).unwrap_or("auto");
            let mut k: Vec<char> = k.chars().collect();
            if let Some(c) = k.first_mut() {
                *c = c.to_ascii_lowercase();
            }
            // The scene meshes of the node, or of every node that draws the mesh.
            let nodes: Vec<usize> = if key == "node" {
                vec![index]
            } else {
                self.doc.nodes().filter(|n| n.mesh().is_some_and(|m| m.index() == index)).map(|n| n.index()).collect()
            };
            let meshes = nodes.iter().filter_map(|n| self.targets.node_meshes.get(n)).flatten().copied().collect();
            out.push(FirstPerson { name: name(index), kind: k.into_iter().collect(), meshes });
        }
        out
    }

    fn vrm0(&mut self, v: &Value) -> VrmInfo {
        let version = ["specVersion", "exporterVersion"].iter().find_map(|k| v.get(*k).and_then(Value::as_str));
        let mut info = VrmInfo { major: 0, spec_version: version.unwrap_or("0.0").to_string(), ..VrmInfo::default() };
        if let Some(meta) = v.get("meta").and_then(Value::as_object) {
            // The thumbnail is a texture index, not a fact to read.
            info.meta = meta_fields(meta.iter().filter(|(k, _)| k.as_str() != "texture"));
        }
        for bone in v.pointer("/humanoid/humanBones").and_then(Value::as_array).into_iter().flatten() {
            let Some(name) = bone.get("bone").and_then(Value::as_str) else { continue };
            let node = bone.get("node").and_then(Value::as_u64);
            if let Some(b) = self.human_bone(bone_name_1(name), node) {
                info.humanoid.push(b);
            }
        }
        info.look_at = v.get("firstPerson").and_then(look_at_0);
        info.first_person = self.first_person(v.pointer("/firstPerson/meshAnnotations"), "mesh", "firstPersonFlag");
        let groups = v.pointer("/blendShapeMaster/blendShapeGroups").and_then(Value::as_array);
        for g in groups.into_iter().flatten() {
            let own = g.get("name").and_then(Value::as_str).unwrap_or("");
            let preset = g.get("presetName").and_then(Value::as_str).and_then(preset_1);
            let name = preset.map_or_else(|| own.to_string(), str::to_string);
            let mut binds = Vec::new();
            for b in g.get("binds").and_then(Value::as_array).into_iter().flatten() {
                let mesh = b.get("mesh").and_then(Value::as_u64).map(|n| n as usize);
                let index = b.get("index").and_then(Value::as_u64).map(|n| n as usize);
                // VRM 0.x weights run 0..100.
                let weight = (b.get("weight").and_then(Value::as_f64).unwrap_or(100.0) / 100.0).clamp(0.0, 1.0) as f32;
                let targets = mesh.zip(index).map(|(m, i)| self.mesh_targets(m, i)).unwrap_or_default();
                if targets.is_empty() {
                    self.warn(
                        "vrm.expression.bind",
                        format!("blend shape group {own}: a bind names no morph target ({b}); left out"),
                    );
                }
                binds.extend(targets.into_iter().map(|m| (m, weight)));
            }
            // `_MainTex_ST` material values are Unity's scale and offset (x, y, z, w), its V up: three-vrm turns
            // them into glTF's, offset V = 1 − scale V − offset V. The other material values are colours.
            let (mut uv, mut colours, mut material_binds) = (Vec::new(), Vec::new(), 0);
            for m in g.get("materialValues").and_then(Value::as_array).into_iter().flatten() {
                let name = m.get("materialName").and_then(Value::as_str).unwrap_or("");
                // three-vrm binds every material of that name (none: one bind that names no material, warned).
                let mut named: Vec<Option<usize>> =
                    self.doc.materials().filter(|mat| mat.name() == Some(name)).map(|mat| mat.index()).collect();
                if named.is_empty() {
                    named.push(None);
                }
                let what = format!("blend shape group {own}");
                let property = m.get("propertyName").and_then(Value::as_str).unwrap_or("");
                let value = numbers(m.get("targetValue"));
                if property != "_MainTex_ST" {
                    let read: Vec<_> =
                        named.iter().filter_map(|&m| self.colour_bind(&what, m, property, &value)).collect();
                    material_binds += usize::from(!read.is_empty());
                    colours.extend(read.into_iter().flatten());
                    continue;
                }
                let &[sx, sy, ox, oy, ..] = value.as_slice() else { continue };
                for &material in &named {
                    uv.extend(self.texture_bind(&what, material, [ox, 1.0 - sy - oy], [sx, sy]));
                }
            }
            let is_binary = g.get("isBinary").and_then(Value::as_bool).unwrap_or(false);
            let binds = Binds { morphs: binds, uv, colours, material_binds };
            let expression = self.expression(name, preset.is_some(), binds, g, is_binary);
            info.expressions.push(expression);
        }
        info
    }
}

/// VRM 1.0's `lookAt`: its type, head offset and four range maps (what the file leaves out: 90° → 10° for
/// bones, 90° → 1 for expressions, three-vrm's defaults).
fn look_at_1(v: &Value) -> Option<LookAt> {
    let l = v.get("lookAt")?;
    let kind = l.get("type").and_then(Value::as_str).unwrap_or("bone");
    let offset = l.get("offsetFromHeadBone").and_then(Value::as_array);
    let at = |i: usize| offset.and_then(|o| o.get(i)).and_then(Value::as_f64).map_or(0.0, |x| x as f32);
    let keys = ["rangeMapHorizontalInner", "rangeMapHorizontalOuter", "rangeMapVerticalDown", "rangeMapVerticalUp"];
    Some(look_at(kind, [at(0), at(1), at(2)], l, keys, ("inputMaxValue", "outputScale")))
}

/// VRM 0.x's look-at, from its `firstPerson`: `lookAtTypeName` (`Bone` or `BlendShape`), the first-person bone's
/// offset, and the four `lookAt*` curves' `xRange` (degrees in) and `yRange` (what they map to).
fn look_at_0(fp: &Value) -> Option<LookAt> {
    let kind = match fp.get("lookAtTypeName").and_then(Value::as_str)? {
        "BlendShape" => "expression",
        _ => "bone",
    };
    let offset = fp.get("firstPersonBoneOffset");
    let at = |k: &str, d: f32| offset.and_then(|o| o.get(k)).and_then(Value::as_f64).map_or(d, |x| x as f32);
    // VRM 0.x's z is opposite (three-vrm negates it as it does for collider offsets); 6 cm up by default.
    let offset = [at("x", 0.0), at("y", 0.06), 0.0 - at("z", 0.0)];
    let keys = ["lookAtHorizontalInner", "lookAtHorizontalOuter", "lookAtVerticalDown", "lookAtVerticalUp"];
    Some(look_at(kind, offset, fp, keys, ("xRange", "yRange")))
}

/// A look-at of `kind` (`bone` or `expression`) from `offset`, its range maps the objects `keys` of `v` name
/// (horizontal inner, horizontal outer, vertical down, vertical up), each with its degrees in and what they map
/// to under the names `input` and `output`. What the file leaves out: three-vrm's 90° in, and 10° (bones) or 1
/// (expressions) out.
fn look_at(kind: &str, offset: [f32; 3], v: &Value, keys: [&str; 4], (input, output): (&str, &str)) -> LookAt {
    let scale = if kind == "expression" { 1.0 } else { 10.0 };
    let range = |key: &str| {
        let r = v.get(key);
        let number = |k: &str, d: f32| r.and_then(|r| r.get(k)).and_then(Value::as_f64).map_or(d, |x| x as f32);
        RangeMap { input_max: number(input, 90.0), output_scale: number(output, scale) }
    };
    LookAt { kind: kind.to_string(), offset, ranges: keys.map(range) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vrm0_names_become_vrm1_names() {
        assert_eq!(bone_name_1("leftThumbProximal"), "leftThumbMetacarpal");
        assert_eq!(bone_name_1("rightThumbIntermediate"), "rightThumbProximal");
        assert_eq!(bone_name_1("leftThumbDistal"), "leftThumbDistal");
        assert_eq!(bone_name_1("hips"), "hips");
        assert_eq!(
            (preset_1("joy"), preset_1("blink_l"), preset_1("unknown")),
            (Some("happy"), Some("blinkLeft"), None)
        );
        assert_eq!(
            (panel("blink"), panel("aa"), panel("happy")),
            (MorphPanel::Eye, MorphPanel::Mouth, MorphPanel::Other)
        );
    }
}

//! `rigscope info`: a file described in a technical artist's words, or as JSON.

use std::fmt::Write;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::CliError;
use crate::scene::{DEFAULT_FPS, Scene};

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The files to describe; folders are walked recursively for the files rigscope reads (as `check` does).
    #[arg(value_name = "PATH", required = true)]
    pub files: Vec<PathBuf>,
    /// In folders, describe only files whose path matches one of these globs (`**/*.iqm`).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// In folders, skip files whose path matches one of these globs.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Skin every frame to compare the stored bounds, however large the file (by default only while vertices
    /// × frames stay under 20 million; `rigscope check` always does).
    #[arg(long)]
    pub verify_bounds: bool,
}

/// Vertices × frames up to which `info` skins every frame to verify the stored bounds (about 0.4 s).
const VERIFY_BUDGET: u64 = 20_000_000;

#[derive(Serialize)]
struct Info<'a> {
    file: String,
    format: &'static str,
    version: &'a str,
    up_axis: &'static str,
    #[serde(skip)]
    up: crate::scene::UpAxis,
    counts: Counts,
    meshes: Vec<MeshInfo<'a>>,
    skeleton: SkeletonInfo,
    animations: Vec<AnimInfo<'a>>,
    vertex_arrays: &'a [crate::scene::SourceArray],
    has_bounds: bool,
    has_adjacency: bool,
    comment: Option<&'a str>,
    extensions: &'a [crate::scene::Extension],
    #[serde(skip_serializing_if = "Option::is_none")]
    rsm: Option<RsmSummary<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mvd: Option<&'a crate::scene::MvdInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vmd: Option<&'a crate::scene::VmdInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vpd: Option<&'a crate::scene::VpdInfo>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cameras: Vec<CameraInfo<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mmd: Option<MmdSummary<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vrm: Option<&'a crate::scene::VrmInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    springs: Option<SpringsSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vrm_animation: Option<&'a crate::scene::VrmAnimation>,
    warnings: Vec<WarningInfo>,
    /// What `info` left out and why (the stored bounds of a large file are verified by `check`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
}

/// Spring bones for `info`: each chain with its joints by name, and the colliders by shape.
#[derive(Serialize)]
struct SpringsSummary {
    chains: Vec<SpringChainSummary>,
    spheres: usize,
    capsules: usize,
    planes: usize,
}

#[derive(Serialize)]
struct SpringChainSummary {
    name: String,
    joints: Vec<String>,
    colliders: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    center: Option<String>,
}

fn springs_summary(s: &crate::scene::Scene) -> Option<SpringsSummary> {
    use crate::scene::ColliderShape;
    let springs = s.springs.as_deref()?;
    let name = |j: usize| s.skeleton.display_name(j);
    let chains = springs
        .chains
        .iter()
        .map(|c| SpringChainSummary {
            name: c.name.clone(),
            joints: c.joints.iter().map(|j| name(j.joint)).collect(),
            colliders: c.groups.iter().filter_map(|&g| springs.groups.get(g)).map(|g| g.colliders.len()).sum(),
            center: c.center.map(name),
        })
        .collect();
    let count = |f: fn(&ColliderShape) -> bool| springs.colliders.iter().filter(|c| f(&c.shape)).count();
    Some(SpringsSummary {
        chains,
        spheres: count(|s| matches!(s, ColliderShape::Sphere { .. })),
        capsules: count(|s| matches!(s, ColliderShape::Capsule { .. })),
        planes: count(|s| matches!(s, ColliderShape::Plane { .. })),
    })
}

/// PMX/PMD facts for `info`: the file's own tables (per-vertex data left out), morphs and constraints.
#[derive(Serialize)]
struct MmdSummary<'a> {
    encoding: crate::scene::MmdEncoding,
    name: &'a str,
    name_en: &'a str,
    comment_en: &'a str,
    additional_uvs: u8,
    index_sizes: [u8; 6],
    /// Vertices per weight kind: BDEF1, BDEF2, BDEF4, SDEF, QDEF.
    weight_kinds: [usize; 5],
    textures: &'a [String],
    toon_textures: &'a [String],
    materials: &'a [crate::scene::MmdMaterial],
    bones: &'a [crate::scene::MmdBone],
    morphs: Vec<MorphSummary<'a>>,
    ik: &'a [crate::scene::IkChain],
    append: &'a [crate::scene::Append],
    display_frames: Vec<FrameSummary<'a>>,
    rigid_bodies: &'a [crate::scene::RigidBody],
    joints: &'a [crate::scene::PhysicsJoint],
}

#[derive(Serialize)]
struct MorphSummary<'a> {
    name: &'a str,
    name_en: &'a str,
    panel: crate::scene::MorphPanel,
    kind: &'static str,
    offsets: usize,
}

#[derive(Serialize)]
struct FrameSummary<'a> {
    name: &'a str,
    name_en: &'a str,
    special: bool,
    items: usize,
}

fn mmd_summary<'a>(s: &'a Scene, m: &'a crate::scene::MmdInfo) -> MmdSummary<'a> {
    MmdSummary {
        encoding: m.encoding,
        name: &m.name,
        name_en: &m.name_en,
        comment_en: &m.comment_en,
        additional_uvs: m.additional_uvs,
        index_sizes: m.index_sizes,
        weight_kinds: m.weight_kinds,
        textures: &m.textures,
        toon_textures: &m.toon_textures,
        materials: &m.materials,
        bones: &m.bones,
        morphs: s
            .morphs
            .iter()
            .map(|x| MorphSummary {
                name: &x.name,
                name_en: &x.name_en,
                panel: x.panel,
                kind: x.kind.label(),
                offsets: x.kind.len(),
            })
            .collect(),
        ik: &s.constraints.ik,
        append: &s.constraints.append,
        display_frames: m
            .display_frames
            .iter()
            .map(|f| FrameSummary { name: &f.name, name_en: &f.name_en, special: f.special, items: f.items.len() })
            .collect(),
        rigid_bodies: &m.rigid_bodies,
        joints: &m.joints,
    }
}

fn mmd_text(o: &mut String, m: &MmdSummary) {
    let english = if m.name_en.is_empty() { String::new() } else { format!(" / \"{}\"", m.name_en) };
    let [b1, b2, b4, sdef, qdef] = m.weight_kinds;
    let _ = writeln!(
        o,
        "  mmd: \"{}\"{english}, {:?} text, {} additional UV(s), index sizes {:?} (vertex, texture, material, bone, morph, rigid body)",
        m.name, m.encoding, m.additional_uvs, m.index_sizes
    );
    let _ = writeln!(
        o,
        "    weights: {b1} BDEF1, {b2} BDEF2, {b4} BDEF4, {sdef} SDEF (spherical), {qdef} QDEF (dual quaternion)"
    );
    let _ = writeln!(
        o,
        "    {}, {}, {} IK chain(s), {} append relation(s), {}, {} and {} (simulated: pose --physics)",
        plural(m.bones.len(), "bone", "bones"),
        plural(m.morphs.len(), "morph", "morphs"),
        m.ik.len(),
        m.append.len(),
        plural(m.display_frames.len(), "display frame", "display frames"),
        plural(m.rigid_bodies.len(), "rigid body", "rigid bodies"),
        plural(m.joints.len(), "joint", "joints"),
    );
    for mat in m.materials {
        let tex = |t: &Option<String>| t.as_deref().map_or("none".to_string(), |t| format!("\"{t}\""));
        let _ = writeln!(
            o,
            "    material \"{}\": {} triangle(s), diffuse {:?}, texture {}, sphere {} ({:?}), toon {:?}, flags {:#04x}",
            mat.name,
            mat.triangles,
            mat.diffuse.to_array(),
            tex(&mat.texture),
            tex(&mat.sphere),
            mat.sphere_mode,
            mat.toon,
            mat.flags
        );
    }
    if !m.morphs.is_empty() {
        let list: Vec<String> = m.morphs.iter().map(|x| format!("{} ({}, {})", x.name, x.kind, x.offsets)).collect();
        let _ = writeln!(o, "    morphs: {}", list.join(", "));
    }
}

/// An animated camera: its name, clip and key counts.
#[derive(Serialize)]
struct CameraInfo<'a> {
    name: &'a str,
    clip: Option<&'a str>,
    keys: usize,
    property_keys: usize,
    duration: f32,
}

/// RSM/RSM2 facts: the layout that read the file, shading and the node tree.
#[derive(Serialize)]
struct RsmSummary<'a> {
    layout: crate::scene::RsmLayout,
    layout_name: &'static str,
    anim_len: i32,
    shade_type: i32,
    alpha: Option<u8>,
    fps: Option<f32>,
    roots: &'a [String],
    nodes: &'a [crate::scene::RsmNode],
    two_sided_triangles: usize,
    model_keys: usize,
    volume_boxes: &'a [crate::scene::RsmVolumeBox],
    uv_animations: usize,
}

#[derive(Serialize)]
struct Counts {
    meshes: usize,
    vertices: usize,
    triangles: usize,
    materials: usize,
    joints: usize,
    animations: usize,
}

#[derive(Serialize)]
struct MeshInfo<'a> {
    name: &'a str,
    material: &'a str,
    triangles: u32,
    vertices: u32,
}

#[derive(Serialize)]
struct SkeletonInfo {
    joints: usize,
    roots: usize,
    named: bool,
    has_bind_pose: bool,
    max_influences: usize,
}

#[derive(Serialize)]
struct AnimInfo<'a> {
    name: &'a str,
    frames: u32,
    first_frame: u32,
    frame_rate: f32,
    frame_rate_stored: bool,
    #[serde(rename = "loop")]
    looping: bool,
    duration: f32,
    has_bounds: bool,
}

#[derive(Serialize)]
struct WarningInfo {
    rule: &'static str,
    location: String,
    message: String,
}

fn build<'a>(file: String, s: &'a Scene) -> Info<'a> {
    let max_influences = match (&s.vertices.joints, &s.vertices.weights) {
        (Some(_), Some(ws)) => ws.iter().map(|w| w.iter().filter(|&&x| x > 0.0).count()).max().unwrap_or(0),
        _ => 0,
    };
    Info {
        file,
        format: s.meta.format.name(),
        version: &s.meta.version,
        up_axis: s.up.label(),
        up: s.up,
        counts: Counts {
            meshes: s.meshes.len(),
            vertices: s.vertices.len(),
            triangles: s.triangles.len(),
            materials: s.materials.len(),
            joints: s.skeleton.len(),
            animations: s.clips.len(),
        },
        meshes: s
            .meshes
            .iter()
            .map(|m| MeshInfo {
                name: &m.name,
                material: s.materials.get(m.material).map_or("", |x| &x.name),
                triangles: m.num_triangles,
                vertices: m.num_vertices,
            })
            .collect(),
        skeleton: SkeletonInfo {
            joints: s.skeleton.len(),
            roots: s.skeleton.joints.iter().filter(|j| j.parent.is_none()).count(),
            named: s.skeleton.is_named(),
            has_bind_pose: s.skeleton.has_bind_pose,
            max_influences,
        },
        animations: s
            .clips
            .iter()
            .map(|c| AnimInfo {
                name: &c.name,
                frames: c.frame_count,
                first_frame: c.first_frame,
                frame_rate: c.fps(DEFAULT_FPS),
                frame_rate_stored: c.has_stored_fps(),
                looping: c.looping,
                duration: c.duration(DEFAULT_FPS),
                has_bounds: c.bounds.is_some(),
            })
            .collect(),
        vertex_arrays: &s.meta.source_arrays,
        has_bounds: s.clips.iter().any(|c| c.bounds.is_some()),
        has_adjacency: s.adjacency.is_some(),
        comment: s.meta.comment.as_deref(),
        extensions: &s.meta.extensions,
        rsm: s.rsm.as_deref().map(|r| RsmSummary {
            layout: r.layout,
            layout_name: r.layout.describe(),
            anim_len: r.anim_len,
            shade_type: r.shade_type,
            alpha: r.alpha,
            fps: r.fps,
            roots: &r.roots,
            nodes: &r.nodes,
            two_sided_triangles: r.two_sided.iter().filter(|&&t| t).count(),
            model_keys: r.model_keys,
            volume_boxes: &r.volume_boxes,
            uv_animations: r.uv_animations.len(),
        }),
        mvd: s.mvd.as_deref(),
        vmd: s.vmd.as_deref(),
        vpd: s.vpd.as_deref(),
        mmd: s.mmd.as_deref().map(|m| mmd_summary(s, m)),
        vrm: s.vrm.as_deref(),
        springs: springs_summary(s),
        vrm_animation: s.vrm_animation.as_deref(),
        cameras: s
            .cameras
            .iter()
            .map(|c| CameraInfo {
                name: &c.name,
                clip: c.clip.as_deref(),
                keys: c.keys.len(),
                property_keys: c.properties.len(),
                duration: c.end_time(),
            })
            .collect(),
        warnings: s
            .meta
            .warnings
            .iter()
            .map(|w| WarningInfo { rule: w.rule, location: w.location.to_string(), message: w.message.clone() })
            .collect(),
        notes: Vec::new(),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// The text report. Every line answers a question an artist asks of an export.
fn text(i: &Info) -> String {
    let mut o = String::new();
    let c = &i.counts;
    // IQE has no version field; the others say which one they are.
    let version = if i.version.is_empty() { String::new() } else { format!(" version {}", i.version) };
    let _ = writeln!(o, "{}: {}{version} ({})", i.file, i.format, i.up.described());
    let kind = if c.vertices == 0 && c.animations > 0 {
        "animation only: no geometry; attach it to a model with matching joints (pose/render --attach)"
    } else if c.animations == 0 && c.joints > 0 {
        "mesh with a skeleton and no animations: shown in its bind pose"
    } else if c.joints == 0 && c.vertices > 0 {
        "static mesh: no skeleton"
    } else {
        "animated, skinned model"
    };
    let _ = writeln!(o, "  kind: {kind}");
    if let Some(r) = &i.rsm {
        rsm_text(&mut o, r);
    }
    if let Some(m) = i.mvd {
        mvd_text(&mut o, m);
    }
    if let Some(v) = i.vmd {
        vmd_text(&mut o, v);
    }
    if let Some(v) = i.vpd {
        vpd_text(&mut o, v);
    }
    if let Some(m) = &i.mmd {
        mmd_text(&mut o, m);
    }
    if let Some(v) = i.vrm {
        vrm_text(&mut o, v);
    }
    if let Some(s) = &i.springs {
        springs_text(&mut o, s);
    }
    if let Some(a) = i.vrm_animation {
        let names: Vec<&str> = a.expressions.iter().map(|(n, _)| n.as_str()).collect();
        let expressions =
            if names.is_empty() { "no expressions".to_string() } else { format!("expressions {}", names.join(", ")) };
        let look = if a.look_at.is_some() { ", a look-at" } else { "" };
        let _ = writeln!(
            o,
            "  vrma: spec {}, {} humanoid bones, {expressions}{look}; attaches to a VRM avatar through its humanoid",
            a.spec_version,
            a.humanoid.len()
        );
    }
    for c in &i.cameras {
        let clip = c.clip.map_or(String::new(), |n| format!(" (clip \"{n}\")"));
        let _ = writeln!(
            o,
            "  camera \"{}\"{clip}: {} key(s), {} property key(s), {:.2} s",
            c.name, c.keys, c.property_keys, c.duration
        );
    }
    let _ = writeln!(
        o,
        "  geometry: {}, {}, {}, {}",
        plural(c.meshes, "mesh", "meshes"),
        plural(c.vertices, "vertex", "vertices"),
        plural(c.triangles, "triangle", "triangles"),
        plural(c.materials, "material", "materials")
    );
    for m in &i.meshes {
        let mat =
            if m.material.is_empty() { "(no material)".to_string() } else { format!("material \"{}\"", m.material) };
        let _ = writeln!(o, "    mesh \"{}\": {mat}, {} triangles, {} vertices", m.name, m.triangles, m.vertices);
    }
    let s = &i.skeleton;
    if s.joints > 0 {
        let names = if s.named { "named" } else { "unnamed (matched by index when attached)" };
        let bind = if s.has_bind_pose {
            "bind pose stored"
        } else if i.mvd.is_some() || i.vmd.is_some() || i.vpd.is_some() {
            "no bind pose (bone values are deltas on the bind pose of the model it is attached to)"
        } else {
            "no bind pose (frame 0 stands in)"
        };
        let _ =
            writeln!(o, "  skeleton: {}, {} root(s), {names}, {bind}", plural(s.joints, "joint", "joints"), s.roots);
        if s.max_influences > 0 {
            let _ = writeln!(o, "  skinning: up to {} influence(s) per vertex", s.max_influences);
        }
    } else {
        let _ = writeln!(o, "  skeleton: none");
    }
    animations_text(&mut o, i);
    if !i.vertex_arrays.is_empty() {
        let arrays: Vec<String> = i
            .vertex_arrays
            .iter()
            .map(|a| format!("{} {}×{}{}", a.kind, a.format, a.size, if a.ignored { " (ignored)" } else { "" }))
            .collect();
        let _ = writeln!(o, "  vertex arrays: {}", arrays.join(", "));
    }
    let yn = |b: bool| if b { "stored" } else { "not stored" };
    let _ = writeln!(o, "  per-frame bounds: {}", yn(i.has_bounds));
    let _ = writeln!(o, "  triangle adjacency: {}", yn(i.has_adjacency));
    match i.comment {
        Some(cm) if !cm.trim().is_empty() => {
            let _ = writeln!(o, "  comment: {}", cm.trim().replace('\n', "\n           "));
        }
        _ => {
            let _ = writeln!(o, "  comment: none");
        }
    }
    if i.extensions.is_empty() {
        let _ = writeln!(o, "  extensions: none");
    } else {
        let ex: Vec<String> = i.extensions.iter().map(|e| format!("{} ({} B)", e.name, e.bytes)).collect();
        let _ = writeln!(o, "  extensions: {}", ex.join(", "));
    }
    if i.warnings.is_empty() {
        let _ = writeln!(o, "  warnings: none");
    } else {
        let _ = writeln!(o, "  warnings: {}", i.warnings.len());
        for w in &i.warnings {
            let loc = if w.location.is_empty() { String::new() } else { format!("{}: ", w.location) };
            let _ = writeln!(o, "    {loc}{} [{}]", w.message, w.rule);
        }
    }
    for n in &i.notes {
        let _ = writeln!(o, "  note: {n}");
    }
    o
}

/// RSM facts: the layout read, shade type, animation length, nodes with their textures and keys.
fn rsm_text(o: &mut String, r: &RsmSummary) {
    const SHADE: [&str; 4] = ["none (unlit)", "flat", "smooth", "black (unlit)"];
    let shade = usize::try_from(r.shade_type).ok().and_then(|s| SHADE.get(s)).copied().unwrap_or("unknown");
    let unit = if r.fps.is_some() { "frames" } else { "ms" };
    let mut line = format!(
        "  rsm: read with {}; shadeType {} ({shade}); animLen {} {unit}",
        r.layout_name, r.shade_type, r.anim_len
    );
    if let Some(f) = r.fps {
        line += &format!(" at {f} fps");
    }
    if let Some(a) = r.alpha {
        line += &format!("; alpha {a}");
    }
    let _ = writeln!(o, "{line}");
    let _ = writeln!(
        o,
        "  rsm: {} ({}), {} two-sided triangle(s), {} volume box(es), {} UV animation(s)",
        plural(r.nodes.len(), "node", "nodes"),
        r.roots.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", "),
        r.two_sided_triangles,
        r.volume_boxes.len(),
        r.uv_animations
    );
    for (k, n) in r.nodes.iter().enumerate() {
        let parent = n.parent.map_or("root".to_string(), |p| format!("parent {p}"));
        let _ = writeln!(
            o,
            "    node {k} \"{}\": {parent}, {} vertices, {} faces, textures [{}], keys: {} rotation, {} position, {} scale",
            n.name,
            n.vertices,
            n.faces,
            n.textures.join(", "),
            n.rotation_keys,
            n.position_keys,
            n.scale_keys
        );
    }
}

/// The animation list: frames, rate (and whether the file stores one), length, looping, per-frame bounds.
fn animations_text(o: &mut String, i: &Info) {
    if i.animations.is_empty() {
        let _ = writeln!(o, "  animations: none");
    } else {
        let _ = writeln!(o, "  animations: {}", i.animations.len());
    }
    for (k, a) in i.animations.iter().enumerate() {
        let rate = if a.frame_rate_stored {
            format!("{} fps", a.frame_rate)
        } else {
            format!("{} fps (file stores 0; default used)", a.frame_rate)
        };
        let looping = if a.looping { "loops" } else { "plays once" };
        let bounds = if a.has_bounds { ", bounds per frame" } else { "" };
        let _ = writeln!(
            o,
            "    {k}: \"{}\": {} (file frames {}..{}) at {rate}, {:.2} s, {looping}{bounds}",
            a.name,
            plural(a.frames as usize, "frame", "frames"),
            a.first_frame,
            (a.first_frame + a.frames).saturating_sub(1),
            a.duration
        );
    }
}

/// MVD objects: names, key rates, sections with minor types and counts, and track names with their stages.
fn mvd_text(o: &mut String, m: &crate::scene::MvdInfo) {
    let _ = writeln!(
        o,
        "  mvd: {} strings, {}{}",
        m.encoding.name(),
        plural(m.objects.len(), "object", "objects"),
        if m.additive_stages { "; stages above 0 added on top of stage 0 (assumed additive)" } else { "" }
    );
    for (k, ob) in m.objects.iter().enumerate() {
        let english = if ob.english_name.is_empty() { String::new() } else { format!(" / \"{}\"", ob.english_name) };
        let _ = writeln!(o, "    object {k} \"{}\"{english} @{}: keyFps {}", ob.name, ob.offset, ob.key_fps);
        let sections: Vec<String> = ob
            .sections
            .iter()
            .map(|s| {
                let name = s.name.as_ref().map_or(String::new(), |n| format!(" \"{n}\""));
                let skipped = if s.read { "" } else { ", skipped" };
                format!("{}{name} (tag {} minor {}, {}×{} B{skipped})", s.kind, s.tag, s.minor, s.count, s.item_size)
            })
            .collect();
        let _ =
            writeln!(o, "      sections: {}", if sections.is_empty() { "none".into() } else { sections.join(", ") });
        let tracks = |label: &str, list: &[crate::scene::MvdTrackInfo], o: &mut String| {
            if list.is_empty() {
                return;
            }
            let names: Vec<String> = list
                .iter()
                .map(|t| {
                    let stages: Vec<String> = t
                        .stages
                        .iter()
                        .map(|s| match &s.name {
                            Some(n) => format!("stage {} \"{n}\": {}", s.id, s.keys),
                            None => format!("stage {}: {}", s.id, s.keys),
                        })
                        .collect();
                    format!("\"{}\" ({})", t.name, stages.join(", "))
                })
                .collect();
            let _ = writeln!(o, "      {label}: {}", names.join(", "));
        };
        tracks("bones", &ob.bones, o);
        tracks("morphs", &ob.morphs, o);
        tracks("cameras", &ob.cameras, o);
        if ob.camera_property_keys > 0 {
            let _ = writeln!(o, "      camera property keys: {}", ob.camera_property_keys);
        }
        if ob.model_property_keys > 0 || !ob.ik_bones.is_empty() {
            let _ = writeln!(
                o,
                "      model property keys: {}; IK bones: {}",
                ob.model_property_keys,
                if ob.ik_bones.is_empty() { "none".into() } else { ob.ik_bones.join(", ") }
            );
        }
        if !ob.motion_clips.is_empty() || !ob.motion_blends.is_empty() {
            let _ =
                writeln!(o, "      motion clips: {}, motion blends: {}", ob.motion_clips.len(), ob.motion_blends.len());
        }
        mvd_property_text(o, ob);
    }
}

/// Keys listed per MVD property section in the text report (`--json` lists them all).
const MVD_KEYS_LISTED: usize = 50;

/// An object's light, project, accessory and effect keys, one line each.
fn mvd_property_text(o: &mut String, ob: &crate::scene::MvdObject) {
    // Light, project and accessory keys merge across their sections: listed when there are any.
    let list = |o: &mut String, title: String, keys: Vec<String>| {
        let _ = writeln!(o, "      {title}");
        for k in keys.iter().take(MVD_KEYS_LISTED) {
            let _ = writeln!(o, "        {k}");
        }
        if keys.len() > MVD_KEYS_LISTED {
            let _ = writeln!(o, "        … {} more (--json lists every key)", keys.len() - MVD_KEYS_LISTED);
        }
    };
    if !ob.lights.is_empty() {
        list(o, format!("light keys: {}", ob.lights.len()), ob.lights.iter().map(|k| k.describe()).collect());
    }
    if !ob.project.is_empty() {
        list(o, format!("project keys: {}", ob.project.len()), ob.project.iter().map(|k| k.describe()).collect());
    }
    if !ob.accessory.is_empty() {
        let title = format!("accessory keys: {} (the accessory itself, an .x file, is not loaded)", ob.accessory.len());
        list(o, title, ob.accessory.iter().map(|k| k.describe()).collect());
    }
    for e in &ob.effects {
        let keys = e.keys.iter().map(|k| e.describe_key(k)).collect();
        let title = format!(
            "effect keys: {} (parameters: {}; the effect file itself is not loaded)",
            e.keys.len(),
            e.describe_parameters()
        );
        list(o, title, keys);
    }
}

/// VMD facts: signature, model name, keys per section (or the section missing), names, IK switches.
fn vmd_text(o: &mut String, v: &crate::scene::VmdInfo) {
    let c = &v.counts;
    let n = |x: Option<usize>| x.map_or("absent".to_string(), |n| n.to_string());
    let _ = writeln!(
        o,
        "  vmd: \"{}\" (version {}), model \"{}\"{}",
        v.signature,
        v.version,
        v.model_name.text,
        if v.trailing_bytes > 0 { format!(", {} B after the last section", v.trailing_bytes) } else { String::new() }
    );
    let _ = writeln!(
        o,
        "    keys: {} bone, {} morph, {} camera, {} light, {} self-shadow, {} property",
        n(c.bones),
        n(c.morphs),
        n(c.cameras),
        n(c.lights),
        n(c.shadows),
        n(c.properties)
    );
    let names = |list: &[crate::scene::VmdTrackInfo]| {
        list.iter()
            .map(|t| format!("\"{}\"{} ({})", t.name.text, if t.name.cut { " (cut)" } else { "" }, t.keys))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !v.bones.is_empty() {
        let _ = writeln!(o, "    bones ({}): {}", v.bones.len(), names(&v.bones));
    }
    if !v.morphs.is_empty() {
        let _ = writeln!(o, "    morphs ({}): {}", v.morphs.len(), names(&v.morphs));
    }
    if !v.ik_chains.is_empty() {
        let _ = writeln!(o, "    IK chains switched by property keys: {}", v.ik_chains.join(", "));
    }
}

/// VRM's humanoid, expressions and meta: what an avatar's author checks before sharing it.
fn vrm_text(o: &mut String, v: &crate::scene::VrmInfo) {
    let version = if v.major == 0 { "VRM 0.x" } else { "VRM 1.0" };
    let unjointed = v.humanoid.iter().filter(|b| b.joint.is_none()).count();
    let missing = v.missing_required();
    let required = if missing.is_empty() {
        "every required bone mapped".to_string()
    } else {
        format!("required bones missing: {}", missing.join(", "))
    };
    let _ = writeln!(
        o,
        "  vrm: {version} (spec {}), {} humanoid bones, {required}{}",
        v.spec_version,
        v.humanoid.len(),
        if unjointed > 0 { format!(" ({unjointed} on nodes that aren't joints)") } else { String::new() }
    );
    if !v.expressions.is_empty() {
        let list: Vec<String> = v
            .expressions
            .iter()
            .map(|e| {
                let mut parts = vec![plural(e.morph_binds, "morph bind", "morph binds")];
                if e.material_binds > 0 {
                    parts.push(plural(e.material_binds, "material bind", "material binds"));
                }
                if e.texture_binds > 0 {
                    parts.push(plural(e.texture_binds, "texture transform bind", "texture transform binds"));
                }
                if e.is_binary {
                    parts.push("binary".into());
                }
                format!("{}{} ({})", e.name, if e.preset { "" } else { " [custom]" }, parts.join(", "))
            })
            .collect();
        let _ = writeln!(o, "  expressions: {}", list.join("; "));
    }
    if let Some(l) = &v.look_at {
        let _ = writeln!(o, "  vrm lookAt: {}", l.describe());
    }
    if !v.first_person.is_empty() {
        let list: Vec<String> = v.first_person.iter().map(|f| format!("{} ({})", f.name, f.kind)).collect();
        let _ = writeln!(o, "  vrm firstPerson: {}", list.join(", "));
    }
    for (k, value) in &v.meta {
        let _ = writeln!(o, "  vrm meta {k}: {value}");
    }
}

/// Spring chains (joints, colliders met, centre) and colliders by shape.
fn springs_text(o: &mut String, s: &SpringsSummary) {
    let chains: Vec<String> = s
        .chains
        .iter()
        .map(|c| {
            let centre = c.center.as_ref().map_or(String::new(), |n| format!(", in {n}'s space"));
            format!(
                "{} ({}, {}{centre})",
                c.name,
                plural(c.joints.len(), "joint", "joints"),
                plural(c.colliders, "collider", "colliders")
            )
        })
        .collect();
    let _ = writeln!(
        o,
        "  springs: {}: {}; colliders: {} sphere(s), {} capsule(s), {} plane(s)",
        plural(s.chains.len(), "chain", "chains"),
        chains.join("; "),
        s.spheres,
        s.capsules,
        s.planes
    );
}

/// VPD facts: the model file and the posed bones and morphs.
fn vpd_text(o: &mut String, v: &crate::scene::VpdInfo) {
    let _ = writeln!(
        o,
        "  vpd: model file \"{}\", {} bone(s) declared, {} posed, {} morph(s){}",
        v.model_file,
        v.declared_bones,
        v.bones.len(),
        v.morphs.len(),
        if v.utf8 { "; UTF-8 with a byte-order mark" } else { "" }
    );
}

/// One file, or every file a folder holds: one report each in path order (JSON: one object for a single file
/// named on the command line, else an array). Files that fail to load are reported at the end (exit 1) after
/// the others were described.
pub fn run(args: &InfoArgs) -> Result<(), CliError> {
    let filter = super::check::Filter::new(&args.include, &args.exclude)?;
    let single = args.files.len() == 1 && !args.files[0].is_dir();
    let (paths, mut problems) = super::check::collect(&args.files, &filter);
    let mut objects = Vec::new();
    for path in &paths {
        match describe(path, args.verify_bounds) {
            Ok((json, _)) if args.json => objects.push(json),
            Ok((_, text)) => super::print(&text)?,
            Err(e) if single => return Err(e),
            Err(e) => problems.push(e.message),
        }
    }
    if args.json {
        // Each object printed as its struct orders its fields (a `serde_json::Value` would sort them).
        if single {
            super::print(&format!("{}\n", objects.pop().unwrap_or_default()))?;
        } else {
            super::print(&format!("[{}]\n", objects.join(",\n")))?;
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(CliError::load(problems.join("\n"))) }
}

/// One file's report, as pretty JSON and as text.
fn describe(path: &std::path::Path, verify_bounds: bool) -> Result<(String, String), CliError> {
    let mut scene = crate::load_path(path).map_err(CliError::load)?;
    // `info` describes and `check` verifies: the stored bounds are compared with a skin per frame only while
    // that stays cheap next to loading the file.
    let frames: u64 = scene.clips.iter().filter(|c| c.bounds.is_some()).map(|c| u64::from(c.frame_count)).sum();
    let work = (scene.vertices.len() as u64).saturating_mul(frames);
    let verified = verify_bounds || work <= VERIFY_BUDGET;
    if verified {
        let misses = crate::anim::stored_bounds_warnings(&scene, crate::anim::BOUNDS_TOLERANCE);
        scene.meta.warnings.extend(misses);
    }
    let mut info = build(path.display().to_string(), &scene);
    if !verified {
        info.notes.push(format!(
            "stored bounds not verified: {} vertices × {frames} frames is over info's budget (--verify-bounds, or rigscope check)",
            scene.vertices.len()
        ));
    }
    Ok((serde_json::to_string_pretty(&info).map_err(CliError::load)?, text(&info)))
}

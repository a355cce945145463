//! IQM (Inter-Quake Model) version 2, binary.
//!
//! Reading follows the seed specification and the validation checklist in the project notes: structural
//! violations (sections past the end, indices out of range, parents after children, unterminated text) are
//! errors naming the header field or record offset; violations real files survive (misalignment, weight
//! sums, zero framerate, duplicate meshes) are warnings on the scene.

mod animation;
mod header;
mod layout;
mod lint;
mod vertex;
pub mod write;

use std::collections::HashSet;

use crate::error::{LoadError, Location, Warning};
use crate::formats::binread::{Bytes, Record};
use crate::scene::{Extension, Format, FrontFace, Material, Mesh, Metadata, Scene, SourceArray, UpAxis, VertexStreams};
use header::{HEADER_END, Header};
use layout::{
    ADJACENCY_SIZE, BLENDINDEXES, BLENDWEIGHTS, COLOR, CUSTOM, EXTENSION_SIZE, MAX_FORMAT, MESH_SIZE, NORMAL, POSITION,
    TANGENT, TEXCOORD, TRIANGLE_SIZE, VERTEXARRAY_SIZE, format_size,
};
use vertex::RawArray;

pub use layout::MAGIC;
/// Component format names by number, and array type names, as `info`, IQE `vertexarray` and the converter
/// spell them.
pub use layout::{FORMAT_NAMES, type_name as array_type_name};
pub use lint::{Lint, lint};

/// True when the bytes start like an IQM file.
pub fn sniff(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads an IQM file. `name` is used in error messages.
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    read_inner(data).map_err(|e| e.in_file(name))
}

/// The text table: NUL-terminated strings addressed by byte offset.
struct Text<'a> {
    data: &'a [u8],
}

impl<'a> Text<'a> {
    /// The string at `ofs`, or an error naming the record at `at` that refers to it.
    fn get(&self, ofs: u32, at: u64, what: &str) -> Result<String, LoadError> {
        let start = ofs as usize;
        if self.data.is_empty() && ofs == 0 {
            return Ok(String::new());
        }
        let Some(rest) = self.data.get(start..).filter(|r| !r.is_empty()) else {
            return Err(LoadError::at(at, format!("{what} offset {ofs} outside text ({} B)", self.data.len())));
        };
        // The table ends in NUL (checked when it was read), so a terminator exists.
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
    }
}

fn warn(warnings: &mut Vec<Warning>, rule: &'static str, location: Location, message: String) {
    warnings.push(Warning { rule, location, message });
}

fn read_inner(data: &[u8]) -> Result<Scene, LoadError> {
    let bytes = Bytes::new(data);
    let h = Header::parse(&bytes)?;
    check_version(&h)?;
    let mut meta = Metadata::new(Format::Iqm, "2");
    check_filesize(&h, &bytes, &mut meta.warnings)?;
    let text = read_text(&h, &bytes, &mut meta.warnings)?;
    let counts = Counts { vertexes: h.get("num_vertexes").into(), triangles: h.get("num_triangles").into() };
    let (meshes, materials) = read_meshes(&h, &bytes, &text, counts, &mut meta.warnings)?;
    let arrays = read_vertex_arrays(&h, &bytes, &text, counts.vertexes, &mut meta)?;
    let streams = vertex_streams(&arrays, !meshes.is_empty() && counts.vertexes > 0)?;
    let triangles = read_triangles(&h, &bytes, counts, &mut meta.warnings)?;
    check_mesh_ranges(&meshes, &triangles, &mut meta.warnings);
    let adjacency = read_adjacency(&h, &bytes, counts.triangles, &mut meta.warnings)?;

    // Skeleton and animation.
    let anim = animation::read(&h, &bytes, &text, &mut meta.warnings)?;
    check_influences(&streams, anim.skeleton.len(), &mut meta.warnings)?;

    meta.comment = read_comment(&h, &bytes, &mut meta.warnings)?;
    meta.extensions = read_extensions(&h, &bytes, &text, &mut meta.warnings);
    merge_alignment_warnings(&mut meta.warnings);

    // Every field this format sets; the rest (cameras, format facts of other formats) stay empty.
    Ok(Scene {
        vertices: streams,
        triangles,
        adjacency,
        meshes,
        materials,
        skeleton: anim.skeleton,
        clips: anim.clips,
        up: UpAxis::Z,
        front_face: FrontFace::Cw,
        ..Scene::empty(meta)
    })
}

/// The header's vertex and triangle counts, which the sections after them are checked against.
#[derive(Clone, Copy)]
struct Counts {
    vertexes: u64,
    triangles: u64,
}

fn check_version(h: &Header) -> Result<(), LoadError> {
    let at_version = layout::field::VERSION as u64;
    match h.get("version") {
        layout::VERSION => Ok(()),
        1 => Err(LoadError::at(at_version, "IQM version 1 is not supported (rigscope reads version 2)")),
        v => Err(LoadError::at(at_version, format!("IQM version {v} unsupported (expected {})", layout::VERSION))),
    }
}

/// A file shorter than its header says is refused; a longer one loads with its tail ignored.
fn check_filesize(h: &Header, bytes: &Bytes, w: &mut Vec<Warning>) -> Result<(), LoadError> {
    let filesize = u64::from(h.get("filesize"));
    let at_filesize = layout::field::FILESIZE as u64;
    if filesize > bytes.len() {
        return Err(LoadError::at(at_filesize, format!("header says {filesize} bytes, file has {}", bytes.len())));
    }
    if filesize < bytes.len() {
        warn(
            w,
            "iqm.filesize",
            Location::Offset(at_filesize),
            format!(
                "header says {filesize} bytes, file has {}: {} trailing bytes ignored",
                bytes.len(),
                bytes.len() - filesize
            ),
        );
    }
    Ok(())
}

fn read_text<'a>(h: &Header, bytes: &Bytes<'a>, w: &mut Vec<Warning>) -> Result<Text<'a>, LoadError> {
    let text_data = h.section(bytes, "text", "ofs_text", h.get("num_text").into(), 1, w)?;
    if let Some(&last) = text_data.last()
        && last != 0
    {
        return Err(LoadError::at(
            u64::from(h.get("ofs_text")) + text_data.len() as u64 - 1,
            "text table does not end in NUL",
        ));
    }
    Ok(Text { data: text_data })
}

/// Meshes, with their materials gathered by name; a mesh entry repeated exactly is drawn once.
fn read_meshes(
    h: &Header,
    bytes: &Bytes,
    text: &Text,
    counts: Counts,
    w: &mut Vec<Warning>,
) -> Result<(Vec<Mesh>, Vec<Material>), LoadError> {
    let Counts { vertexes: num_vertexes, triangles: num_triangles } = counts;
    let mesh_data = h.section(bytes, "meshes", "ofs_meshes", h.get("num_meshes").into(), MESH_SIZE, w)?;
    let mut meshes = Vec::new();
    let mut materials: Vec<Material> = Vec::new();
    let mut seen_meshes = HashSet::new();
    for (i, rec) in mesh_data.chunks_exact(MESH_SIZE).enumerate() {
        let at = u64::from(h.get("ofs_meshes")) + (MESH_SIZE * i) as u64;
        let mut r = Record::new(rec);
        let (name_ofs, mat_ofs) = (r.u32(), r.u32());
        let (fv, nv, ft, nt) = (r.u32(), r.u32(), r.u32(), r.u32());
        let name = text.get(name_ofs, at, &format!("mesh {i} name"))?;
        let material = text.get(mat_ofs, at + 4, &format!("mesh {i} material"))?;
        if u64::from(fv) + u64::from(nv) > num_vertexes {
            return Err(LoadError::at(
                at + 8,
                format!("mesh {i} \"{name}\" vertices [{fv},{}) exceed {num_vertexes}", u64::from(fv) + u64::from(nv)),
            ));
        }
        if u64::from(ft) + u64::from(nt) > num_triangles {
            return Err(LoadError::at(
                at + 16,
                format!(
                    "mesh {i} \"{name}\" triangles [{ft},{}) exceed {num_triangles}",
                    u64::from(ft) + u64::from(nt)
                ),
            ));
        }
        if !seen_meshes.insert((name_ofs, mat_ofs, fv, nv, ft, nt)) {
            warn(
                w,
                "iqm.mesh.duplicate",
                Location::Offset(at),
                format!("mesh {i} \"{name}\" repeats an earlier mesh entry; drawn once"),
            );
            continue;
        }
        let material_index = match materials.iter().position(|m| m.name == material) {
            Some(m) => m,
            None => {
                let texture = (!material.is_empty()).then(|| material.clone());
                materials.push(Material::new(material, texture));
                materials.len() - 1
            }
        };
        meshes.push(Mesh {
            name,
            material: material_index,
            first_triangle: ft,
            num_triangles: nt,
            first_vertex: fv,
            num_vertices: nv,
            two_sided: false,
            uv_animation: None,
        });
    }
    Ok((meshes, materials))
}

/// One vertex array the reader keeps: its type, its bytes, and a custom array's name.
struct KeptArray<'a> {
    kind: u32,
    raw: RawArray<'a>,
    custom_name: Option<String>,
}

/// The vertex array records and their data. Every record is listed in `meta.source_arrays`; reserved types,
/// second arrays of a type and custom arrays without a readable name are listed as ignored and not kept.
fn read_vertex_arrays<'a>(
    h: &Header,
    bytes: &Bytes<'a>,
    text: &Text,
    num_vertexes: u64,
    meta: &mut Metadata,
) -> Result<Vec<KeptArray<'a>>, LoadError> {
    let w = &mut meta.warnings;
    let va_data =
        h.section(bytes, "vertex arrays", "ofs_vertexarrays", h.get("num_vertexarrays").into(), VERTEXARRAY_SIZE, w)?;
    let mut arrays: Vec<KeptArray> = Vec::new();
    for (i, rec) in va_data.chunks_exact(VERTEXARRAY_SIZE).enumerate() {
        let at = u64::from(h.get("ofs_vertexarrays")) + (VERTEXARRAY_SIZE * i) as u64;
        let mut r = Record::new(rec);
        let (kind, _flags, format, size, offset) = (r.u32(), r.u32(), r.u32(), r.u32(), r.u32());
        let Some(component_bytes) = format_size(format) else {
            return Err(LoadError::at(
                at + 8,
                format!("vertex array {i}: format {format} unknown (expected 0 to {MAX_FORMAT})"),
            ));
        };
        if !(1..=4).contains(&size) {
            return Err(LoadError::at(at + 12, format!("vertex array {i}: size {size} (expected 1 to 4)")));
        }
        let fmt_name = FORMAT_NAMES[format as usize];
        let stride = u64::from(size) * component_bytes as u64;
        let what = format!("vertex array {i} ({} {fmt_name}×{size})", layout::type_name(kind));
        let data = if num_vertexes == 0 {
            &[][..]
        } else {
            bytes
                .slice(offset.into(), num_vertexes, stride, &what)
                .map_err(|e| LoadError { location: Location::Offset(at + 16), ..e })?
        };
        if offset % 4 != 0 && num_vertexes > 0 {
            warn(w, "iqm.align", Location::Offset(at + 16), format!("{what} data at {offset}"));
        }
        let custom_name = if kind >= CUSTOM {
            match text.get(kind - CUSTOM, at, &format!("vertex array {i} custom name")) {
                Ok(n) => Some(n),
                Err(e) => {
                    warn(
                        w,
                        "iqm.vertexarray.custom_name",
                        Location::Offset(at),
                        format!("{}; array ignored", e.message),
                    );
                    meta.source_arrays.push(SourceArray {
                        kind: "custom".into(),
                        format: fmt_name.into(),
                        size,
                        ignored: true,
                    });
                    continue;
                }
            }
        } else {
            None
        };
        let reserved = layout::is_reserved(kind);
        let duplicate = kind < CUSTOM && arrays.iter().any(|a| a.kind == kind);
        if reserved {
            warn(
                w,
                "iqm.vertexarray.reserved",
                Location::Offset(at),
                format!("vertex array {i}: reserved type {kind} ignored"),
            );
        } else if duplicate {
            warn(
                w,
                "iqm.vertexarray.duplicate",
                Location::Offset(at),
                format!("vertex array {i}: second {} array ignored (the first is used)", layout::type_name(kind)),
            );
        }
        meta.source_arrays.push(SourceArray {
            kind: custom_name.clone().unwrap_or_else(|| layout::type_name(kind).to_string()),
            format: fmt_name.into(),
            size,
            ignored: reserved || duplicate,
        });
        if !reserved && !duplicate {
            arrays.push(KeptArray { kind, raw: RawArray { format, size: size as usize, data }, custom_name });
        }
    }
    Ok(arrays)
}

/// The kept arrays decoded into the scene's streams. `needs_positions`: meshes draw vertices, so a position
/// array must exist.
fn vertex_streams(arrays: &[KeptArray], needs_positions: bool) -> Result<VertexStreams, LoadError> {
    let find = |kind: u32| arrays.iter().find(|a| a.kind == kind).map(|a| a.raw);
    if find(POSITION).is_none() && needs_positions {
        return Err(LoadError::at(Header::offset_of("num_vertexarrays"), "meshes but no position array"));
    }
    match (find(BLENDINDEXES).is_some(), find(BLENDWEIGHTS).is_some()) {
        (true, false) => {
            return Err(LoadError::at(Header::offset_of("ofs_vertexarrays"), "blendindexes without blendweights"));
        }
        (false, true) => {
            return Err(LoadError::at(Header::offset_of("ofs_vertexarrays"), "blendweights without blendindexes"));
        }
        _ => {}
    }
    let mut streams = VertexStreams {
        positions: find(POSITION).map(|a| a.positions()).unwrap_or_default(),
        normals: find(NORMAL).map(|a| a.vec3()),
        tangents: find(TANGENT).map(|a| a.vec4([0.0, 0.0, 0.0, 1.0])),
        texcoords: find(TEXCOORD).map(|a| a.vec2()),
        colors: find(COLOR).map(|a| a.vec4([0.0, 0.0, 0.0, 1.0])),
        joints: find(BLENDINDEXES).map(|a| a.indices()),
        weights: find(BLENDWEIGHTS).map(|a| a.weights()),
        custom: Vec::new(),
        outline: None,
        source: None,
        blend: None,
    };
    for a in arrays.iter().filter(|a| a.kind >= CUSTOM) {
        streams.custom.push(crate::scene::CustomStream {
            name: a.custom_name.clone().unwrap_or_default(),
            components: a.raw.size as u32,
            data: a.raw.custom(),
        });
    }
    if let Some(i) = streams.positions.iter().position(|p| !p.is_finite()) {
        return Err(LoadError::at(Header::offset_of("ofs_vertexarrays"), format!("vertex {i} position is not finite")));
    }
    Ok(streams)
}

fn read_triangles(h: &Header, bytes: &Bytes, counts: Counts, w: &mut Vec<Warning>) -> Result<Vec<[u32; 3]>, LoadError> {
    let Counts { vertexes: num_vertexes, triangles: num_triangles } = counts;
    let tri_data = h.section(bytes, "triangles", "ofs_triangles", num_triangles, TRIANGLE_SIZE, w)?;
    let ofs_tri = u64::from(h.get("ofs_triangles"));
    let mut triangles = Vec::with_capacity(tri_data.len() / TRIANGLE_SIZE);
    for (t, rec) in tri_data.chunks_exact(TRIANGLE_SIZE).enumerate() {
        let mut r = Record::new(rec);
        let tri = [r.u32(), r.u32(), r.u32()];
        if let Some(&v) = tri.iter().find(|&&v| u64::from(v) >= num_vertexes) {
            return Err(LoadError::at(
                ofs_tri + (TRIANGLE_SIZE * t) as u64,
                format!("triangle {t} uses vertex {v} ≥ {num_vertexes}"),
            ));
        }
        triangles.push(tri);
    }
    Ok(triangles)
}

/// A mesh whose triangles use vertices outside its own range still draws; it is worth a warning.
fn check_mesh_ranges(meshes: &[Mesh], triangles: &[[u32; 3]], w: &mut Vec<Warning>) {
    for (i, m) in meshes.iter().enumerate() {
        let (lo, hi) = (m.first_vertex, m.first_vertex.saturating_add(m.num_vertices));
        let range = m.first_triangle as usize..(m.first_triangle as usize + m.num_triangles as usize);
        let outside =
            triangles.get(range).map_or(0, |ts| ts.iter().filter(|t| t.iter().any(|&v| v < lo || v >= hi)).count());
        if outside > 0 {
            warn(
                w,
                "iqm.mesh.range",
                Location::File,
                format!("mesh {i} \"{}\" uses vertices outside [{lo},{hi}) in {outside} triangles", m.name),
            );
        }
    }
}

/// Adjacency: kept only if every entry is a triangle or "none".
fn read_adjacency(
    h: &Header,
    bytes: &Bytes,
    num_triangles: u64,
    w: &mut Vec<Warning>,
) -> Result<Option<Vec<[u32; 3]>>, LoadError> {
    let adj_data = if h.get("ofs_adjacency") != 0 {
        h.section(bytes, "adjacency", "ofs_adjacency", num_triangles, ADJACENCY_SIZE, w)?
    } else {
        &[]
    };
    if adj_data.is_empty() {
        return Ok(None);
    }
    let mut adj = Vec::with_capacity(adj_data.len() / ADJACENCY_SIZE);
    for rec in adj_data.chunks_exact(ADJACENCY_SIZE) {
        let mut r = Record::new(rec);
        adj.push([r.u32(), r.u32(), r.u32()]);
    }
    if let Some(t) = adj.iter().position(|a| a.iter().any(|&n| n != u32::MAX && u64::from(n) >= num_triangles)) {
        warn(
            w,
            "iqm.adjacency.range",
            Location::Offset(u64::from(h.get("ofs_adjacency")) + (ADJACENCY_SIZE * t) as u64),
            format!("adjacency invalid at triangle {t}; ignored"),
        );
        return Ok(None);
    }
    Ok(Some(adj))
}

/// The comment up to its first NUL, if the file has one.
fn read_comment(h: &Header, bytes: &Bytes, w: &mut Vec<Warning>) -> Result<Option<String>, LoadError> {
    let comment = h.section(bytes, "comment", "ofs_comment", h.get("num_comment").into(), 1, w)?;
    if comment.is_empty() {
        return Ok(None);
    }
    let end = comment.iter().position(|&b| b == 0).unwrap_or(comment.len());
    Ok(Some(String::from_utf8_lossy(&comment[..end]).into_owned()))
}

/// Check 5: one warning listing every section that breaks the 4-byte alignment rule, since a file that is
/// misaligned is usually misaligned from one point on.
fn merge_alignment_warnings(warnings: &mut Vec<Warning>) {
    let misaligned: Vec<&Warning> = warnings.iter().filter(|w| w.rule == "iqm.align").collect();
    let Some(first) = misaligned.first() else { return };
    let list: Vec<&str> = misaligned.iter().map(|w| w.message.as_str()).collect();
    let merged = Warning {
        rule: "iqm.align",
        location: first.location,
        message: format!("not 4-byte aligned as the spec requires: {}", list.join(", ")),
    };
    let at = warnings.iter().position(|w| w.rule == "iqm.align").unwrap_or(0);
    warnings.retain(|w| w.rule != "iqm.align");
    warnings.insert(at.min(warnings.len()), merged);
}

/// Check 19: every weighted influence names a joint; weights sum to 1 (255 in bytes).
fn check_influences(v: &VertexStreams, joints: usize, w: &mut Vec<Warning>) -> Result<(), LoadError> {
    let (Some(js), Some(ws)) = (&v.joints, &v.weights) else { return Ok(()) };
    let (mut zero, mut off, mut first_off) = (0usize, 0usize, None);
    for (i, (j, wt)) in js.iter().zip(ws).enumerate() {
        for k in 0..4 {
            if wt[k] != 0.0 && j[k] as usize >= joints {
                return Err(LoadError::at(
                    Header::offset_of("ofs_vertexarrays"),
                    format!("vertex {i} slot {k}: joint {}, only {joints} joints", j[k]),
                ));
            }
        }
        let sum: f32 = wt.iter().sum();
        if sum == 0.0 {
            zero += 1;
        } else if (sum - 1.0).abs() > 0.5 / 255.0 {
            off += 1;
            first_off.get_or_insert((i, sum));
        }
    }
    if zero > 0 {
        warn(
            w,
            "iqm.blendweights.zero",
            Location::File,
            format!("{zero} vertices have no weight; they stay in the bind pose"),
        );
    }
    if let Some((i, sum)) = first_off {
        warn(
            w,
            "iqm.blendweights.sum",
            Location::File,
            format!("{off} vertices' weights don't sum to 255 (first: vertex {i}, sum {:.0})", sum * 255.0),
        );
    }
    Ok(())
}

/// Check 21: the extension list, followed at most `num_extensions` steps, inside the file, without loops.
fn read_extensions(h: &Header, bytes: &Bytes, text: &Text, w: &mut Vec<Warning>) -> Vec<Extension> {
    let mut out = Vec::new();
    let mut ofs = u64::from(h.get("ofs_extensions"));
    let mut seen = HashSet::new();
    for _ in 0..h.get("num_extensions") {
        if ofs == 0 {
            break;
        }
        if ofs < HEADER_END || !seen.insert(ofs) {
            let what = if ofs < HEADER_END { "points into the header" } else { "loops" };
            warn(w, "iqm.extensions", Location::Offset(ofs), format!("extension list {what}; rest ignored"));
            return out;
        }
        let rec = match bytes.slice(ofs, 1, EXTENSION_SIZE as u64, "extension") {
            Ok(r) => r,
            Err(e) => {
                warn(w, "iqm.extensions", Location::Offset(ofs), format!("{}; rest ignored", e.message));
                return out;
            }
        };
        let mut r = Record::new(rec);
        let (name_ofs, num_data, ofs_data, next) = (r.u32(), r.u32(), r.u32(), r.u32());
        let name = text.get(name_ofs, ofs, "extension name").unwrap_or_else(|_| format!("(bad name @{ofs})"));
        if bytes.slice(ofs_data.into(), num_data.into(), 1, "extension data").is_err() {
            warn(
                w,
                "iqm.extensions",
                Location::Offset(ofs + 8),
                format!("extension \"{name}\" data ({num_data} B at {ofs_data}) lies past the end of the file"),
            );
        }
        out.push(Extension { name, bytes: num_data.into() });
        ofs = next.into();
    }
    if ofs != 0 && out.len() == h.get("num_extensions") as usize && !out.is_empty() {
        warn(
            w,
            "iqm.extensions",
            Location::Offset(Header::offset_of("num_extensions")),
            format!("extension list goes on past num_extensions ({})", out.len()),
        );
    }
    out
}

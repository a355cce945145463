//! Spec rules the reader tolerates without a word, for `rigscope check`.
//!
//! Loading stays lenient and fast; these look at the raw records of a file that already loaded (so every
//! section is known to be in bounds) and report what a stricter engine would trip on: offsets left set for
//! empty sections, vertex arrays out of the spec's order or in formats engines aren't required to read, and
//! joint rotations that aren't unit length or break the `w ≤ 0` convention writers follow.

use super::header::Header;
use super::layout::{
    self, BLENDINDEXES, BLENDWEIGHTS, COLOR, CUSTOM, FLOAT, FORMAT_NAMES, JOINT_SIZE, NORMAL, POSITION, TANGENT,
    TEXCOORD, UBYTE, VERTEXARRAY_SIZE,
};
use crate::error::{Location, Warning};
use crate::formats::binread::{Bytes, Record};

/// Sections as (what, count field or product, offset field).
fn sections(h: &Header) -> [(&'static str, u64, &'static str); 11] {
    let n = |f: &str| u64::from(h.get(f));
    [
        ("text", n("num_text"), "ofs_text"),
        ("meshes", n("num_meshes"), "ofs_meshes"),
        ("vertex arrays", n("num_vertexarrays"), "ofs_vertexarrays"),
        ("triangles", n("num_triangles"), "ofs_triangles"),
        ("adjacency", n("num_triangles"), "ofs_adjacency"),
        ("joints", n("num_joints"), "ofs_joints"),
        ("poses", n("num_poses"), "ofs_poses"),
        ("anims", n("num_anims"), "ofs_anims"),
        ("frames", n("num_frames") * n("num_framechannels"), "ofs_frames"),
        ("bounds", n("num_frames"), "ofs_bounds"),
        ("comment", n("num_comment"), "ofs_comment"),
    ]
}

/// The format and size the spec recommends for portable files, per standard array type.
fn portable(kind: u32) -> Option<(u32, u32)> {
    match kind {
        POSITION | NORMAL => Some((FLOAT, 3)),
        TEXCOORD => Some((FLOAT, 2)),
        TANGENT => Some((FLOAT, 4)),
        BLENDINDEXES | BLENDWEIGHTS | COLOR => Some((UBYTE, 4)),
        _ => None,
    }
}

/// A rule the file breaks, and the joint it concerns where there is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Lint {
    pub warning: Warning,
    pub joint: Option<usize>,
}

/// Lints a file the reader accepted. A file it refused gives no findings here (the load error says why).
pub fn lint(data: &[u8]) -> Vec<Lint> {
    let mut out = Vec::new();
    let bytes = Bytes::new(data);
    let Ok(h) = Header::parse(&bytes) else { return out };
    let mut warn = |rule, at: u64, message: String| {
        out.push(Lint { warning: Warning { rule, location: Location::Offset(at), message }, joint: None })
    };

    for (what, count, ofs_field) in sections(&h) {
        let ofs = h.get(ofs_field);
        if count == 0 && ofs != 0 {
            warn(
                "iqm.ofs.empty",
                Header::offset_of(ofs_field),
                format!("{ofs_field} is {ofs} but there are no {what}; the spec asks for 0 when a section is empty"),
            );
        }
    }
    if h.get("num_extensions") == 0 && h.get("ofs_extensions") != 0 {
        warn(
            "iqm.ofs.empty",
            Header::offset_of("ofs_extensions"),
            format!("ofs_extensions is {} but there are no extensions", h.get("ofs_extensions")),
        );
    }

    // Vertex arrays: the spec's order (position, texcoord, …, custom last) and portable formats.
    let ofs_va = u64::from(h.get("ofs_vertexarrays"));
    if let Ok(records) =
        bytes.slice(ofs_va, u64::from(h.get("num_vertexarrays")), VERTEXARRAY_SIZE as u64, "vertex arrays")
    {
        let mut previous: Option<u32> = None;
        for (i, rec) in records.chunks_exact(VERTEXARRAY_SIZE).enumerate() {
            let at = ofs_va + (VERTEXARRAY_SIZE * i) as u64;
            let mut r = Record::new(rec);
            let (kind, _flags, format, size) = (r.u32(), r.u32(), r.u32(), r.u32());
            // Custom arrays (type ≥ 16) all sort after the standard ones, in any order among themselves.
            let order = kind.min(CUSTOM);
            if previous.is_some_and(|p| order < p) {
                warn(
                    "iqm.vertexarray.order",
                    at,
                    format!(
                        "vertex array {i} ({}) comes after a later type; the spec orders position, texcoord, normal, tangent, blendindexes, blendweights, color, then custom",
                        layout::type_name(kind)
                    ),
                );
            }
            previous = Some(previous.map_or(order, |p| p.max(order)));
            if let Some((want_format, want_size)) = portable(kind)
                && (format, size) != (want_format, want_size)
            {
                let name = |f: u32| FORMAT_NAMES.get(f as usize).copied().unwrap_or("unknown");
                warn(
                    "iqm.vertexarray.format",
                    at + 8,
                    format!(
                        "vertex array {i} ({}) is {}×{size}; portable files use {}×{want_size}, and engines need not read anything else",
                        layout::type_name(kind),
                        name(format),
                        name(want_format)
                    ),
                );
            }
        }
    }

    // Joint rotations as stored.
    let ofs_joints = u64::from(h.get("ofs_joints"));
    if let Ok(records) = bytes.slice(ofs_joints, u64::from(h.get("num_joints")), JOINT_SIZE as u64, "joints") {
        for (i, rec) in records.chunks_exact(JOINT_SIZE).enumerate() {
            let at = ofs_joints + (JOINT_SIZE * i) as u64;
            let mut r = Record::new(rec);
            let (_name, _parent, _t) = (r.u32(), r.i32(), r.f32s::<3>());
            let q = r.f32s::<4>();
            let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
            let found = if (len - 1.0).abs() > 1e-3 {
                Some((
                    "iqm.joint.quat.length",
                    at + 20,
                    format!("joint {i}: rotation has length {len:.4}, not 1; readers normalise it"),
                ))
            } else if q[3] > 0.0 {
                Some((
                    "iqm.joint.quat.sign",
                    at + 32,
                    format!(
                        "joint {i}: rotation w is {} > 0; writers store w ≤ 0, and readers that rebuild w assume it",
                        q[3]
                    ),
                ))
            } else {
                None
            };
            if let Some((rule, at, message)) = found {
                let warning = Warning { rule, location: Location::Offset(at), message };
                out.push(Lint { warning, joint: Some(i) });
            }
        }
    }
    out
}

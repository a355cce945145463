//! A record-level IQM version 2 writer.
//!
//! Tests need files that real exporters never produce (odd offsets, half and double arrays, broken counts), the
//! demo model needs a generator, and the IQE converter needs an output stage. All three want to pick formats and
//! layout themselves, so this module describes a file record by record and writes exactly that: it validates
//! nothing, and mismatched lengths are written as given. It never panics; sizes beyond `u32` saturate.

use std::collections::HashMap;

use crate::formats::binwrite::ByteWriter;

/// The vertex array types and component formats under the names the writer's users know them by.
pub use super::layout::{
    ANIM_LOOP as IQM_LOOP, BLENDINDEXES as IQM_BLENDINDEXES, BLENDWEIGHTS as IQM_BLENDWEIGHTS, BYTE as IQM_BYTE,
    COLOR as IQM_COLOR, CUSTOM as IQM_CUSTOM, DOUBLE as IQM_DOUBLE, FLOAT as IQM_FLOAT, HALF as IQM_HALF,
    INT as IQM_INT, NORMAL as IQM_NORMAL, POSITION as IQM_POSITION, SHORT as IQM_SHORT, TANGENT as IQM_TANGENT,
    TEXCOORD as IQM_TEXCOORD, UBYTE as IQM_UBYTE, UINT as IQM_UINT, USHORT as IQM_USHORT,
};
pub use super::layout::{
    ANIM_SIZE, BOUNDS_SIZE, EXTENSION_SIZE, HEADER_SIZE, JOINT_SIZE, MAGIC, MESH_SIZE, POSE_SIZE, TRIANGLE_SIZE,
    VERSION, VERTEXARRAY_SIZE, field, format_size,
};
use super::layout::{HEADER_FIELD_COUNT, POSE_CHANNELS, field_offset};

/// Overwrites a little-endian `u32` in a written file (tests patch a written file into a broken one).
pub use crate::formats::binwrite::patch_u32;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct VertexArray {
    pub kind: u32,
    pub flags: u32,
    pub format: u32,
    pub size: u32,
    /// Already encoded, so tests can write data of any length or format (see [`encode_components`]).
    pub data: Vec<u8>,
    /// When set, the written type is `IQM_CUSTOM + text offset of the name` and `kind` is ignored, because the
    /// text offset is only known once the whole table is built.
    pub custom_name: Option<String>,
}

impl VertexArray {
    pub fn new(kind: u32, format: u32, size: u32, data: Vec<u8>) -> Self {
        VertexArray { kind, flags: 0, format, size, data, custom_name: None }
    }

    /// Encodes `values` with [`encode_components`]; blend indexes want `normalized = false`.
    pub fn from_f32(kind: u32, format: u32, size: u32, values: &[f32], normalized: bool) -> Self {
        Self::new(kind, format, size, encode_components(format, values, normalized))
    }

    pub fn custom(name: impl Into<String>, format: u32, size: u32, data: Vec<u8>) -> Self {
        VertexArray { kind: IQM_CUSTOM, flags: 0, format, size, data, custom_name: Some(name.into()) }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    pub name: String,
    pub material: String,
    pub first_vertex: u32,
    pub num_vertexes: u32,
    pub first_triangle: u32,
    pub num_triangles: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub name: String,
    pub parent: i32,
    pub translate: [f32; 3],
    /// x y z w, as stored.
    pub rotate: [f32; 4],
    pub scale: [f32; 3],
}

impl Default for Joint {
    /// A root at the origin with identity rotation and unit scale: an all-zero joint would collapse its mesh. The
    /// identity is stored as w = -1, as writers store every rotation with w ≤ 0.
    fn default() -> Self {
        Joint { name: String::new(), parent: -1, translate: [0.0; 3], rotate: [0.0, 0.0, 0.0, -1.0], scale: [1.0; 3] }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pose {
    pub parent: i32,
    pub channel_mask: u32,
    pub channel_offset: [f32; POSE_CHANNELS],
    pub channel_scale: [f32; POSE_CHANNELS],
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Anim {
    pub name: String,
    pub first_frame: u32,
    pub num_frames: u32,
    pub framerate: f32,
    /// Bit 0 ([`IQM_LOOP`]) loops.
    pub flags: u32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bounds {
    pub min: [f32; 3],
    pub max: [f32; 3],
    pub xy_radius: f32,
    pub radius: f32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extension {
    pub name: String,
    pub data: Vec<u8>,
}

/// A whole file as records. Counts the header carries on its own (`num_vertexes`, `num_frames`,
/// `num_framechannels`) are taken from here rather than derived, so tests can make them disagree with the data.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IqmDocument {
    pub flags: u32,
    pub num_vertexes: u32,
    pub vertex_arrays: Vec<VertexArray>,
    pub triangles: Vec<[u32; 3]>,
    pub adjacency: Option<Vec<[u32; 3]>>,
    pub meshes: Vec<Mesh>,
    pub joints: Vec<Joint>,
    pub poses: Vec<Pose>,
    pub anims: Vec<Anim>,
    pub num_frames: u32,
    pub num_framechannels: u32,
    /// Frame-major: `num_frames * num_framechannels` values.
    pub frames: Vec<u16>,
    /// One per frame.
    pub bounds: Option<Vec<Bounds>>,
    pub comment: Option<String>,
    /// Written as the linked list the format uses, in this order.
    pub extensions: Vec<Extension>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Alignment of every section start and every vertex array's data, and the multiple `num_text` is padded
    /// to. 4 is the spec and the converter; 1 packs sections with no padding, like Red Eclipse files. 0 acts as 1.
    pub align: u32,
    /// Zero bytes after the (aligned) text table, not counted in `num_text`. Every later section keeps its
    /// alignment relative to this shift, so 2 with `align` 4 leaves every later offset at 2 mod 4.
    pub pad_after_text: u32,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { align: 4, pad_after_text: 0 }
    }
}

/// The shared string table: offset 0 is `""`, and equal strings share one offset.
struct TextTable {
    bytes: Vec<u8>,
    offsets: HashMap<String, u32>,
}

impl TextTable {
    fn new() -> Self {
        let mut offsets = HashMap::new();
        offsets.insert(String::new(), 0);
        TextTable { bytes: vec![0], offsets }
    }

    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&ofs) = self.offsets.get(s) {
            return ofs;
        }
        let ofs = saturate(self.bytes.len());
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        self.offsets.insert(s.to_owned(), ofs);
        ofs
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Where sections go: every start is aligned to `align` relative to `shift`, which is how `pad_after_text`
/// moves every later section off the grid without giving up alignment between them.
struct Placement {
    align: usize,
    shift: usize,
}

impl Placement {
    /// Aligns and returns where a non-empty section starts, or 0 for an empty one without adding padding.
    fn start(&self, out: &mut ByteWriter, non_empty: bool) -> u32 {
        if non_empty {
            out.align_to(self.align, self.shift);
            out.pos_u32()
        } else {
            0
        }
    }
}

impl IqmDocument {
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_with(&Layout::default())
    }

    pub fn to_bytes_with(&self, layout: &Layout) -> Vec<u8> {
        self.write(layout, false)
    }

    /// The layout of lsalzman's `iqm` converter, which also starts the vertex data on 8 bytes (even when there
    /// is none) and each array on its component size, so converted files can be compared byte for byte with
    /// files the converter made.
    pub fn to_bytes_like_converter(&self) -> Vec<u8> {
        self.write(&Layout::default(), true)
    }

    fn write(&self, layout: &Layout, like_converter: bool) -> Vec<u8> {
        let align = usize::try_from(layout.align.max(1)).unwrap_or(1);
        let pad_after_text = usize::try_from(layout.pad_after_text).unwrap_or(0);

        // Names are interned in file order so the table reads like the records that use it.
        let mut text = TextTable::new();
        let mesh_names: Vec<[u32; 2]> =
            self.meshes.iter().map(|m| [text.intern(&m.name), text.intern(&m.material)]).collect();
        let array_types: Vec<u32> = self
            .vertex_arrays
            .iter()
            .map(|va| match &va.custom_name {
                Some(name) => IQM_CUSTOM.saturating_add(text.intern(name)),
                None => va.kind,
            })
            .collect();
        let joint_names: Vec<u32> = self.joints.iter().map(|j| text.intern(&j.name)).collect();
        let anim_names: Vec<u32> = self.anims.iter().map(|a| text.intern(&a.name)).collect();
        let extension_names: Vec<u32> = self.extensions.iter().map(|e| text.intern(&e.name)).collect();
        // A table is only written when some record can point into it; offset 0 then needs its NUL.
        let needs_text = !(self.meshes.is_empty()
            && self.joints.is_empty()
            && self.anims.is_empty()
            && self.extensions.is_empty()
            && self.vertex_arrays.iter().all(|va| va.custom_name.is_none()));

        let mut out = ByteWriter::new();
        out.bytes(MAGIC).zeros(HEADER_SIZE - MAGIC.len());
        let mut place = Placement { align, shift: 0 };
        let mut hdr = [0u32; HEADER_FIELD_COUNT];
        let mut set = |at: usize, v: u32| hdr[(at - field_offset(0)) / 4] = v;
        set(field::VERSION, VERSION);
        set(field::FLAGS, self.flags);

        if needs_text {
            let mut bytes = text.bytes;
            bytes.resize(bytes.len().div_ceil(align) * align, 0);
            set(field::OFS_TEXT, place.start(&mut out, true));
            set(field::NUM_TEXT, saturate(bytes.len()));
            out.bytes(&bytes);
        }
        out.align_to(align, 0);
        out.zeros(pad_after_text);
        place.shift = pad_after_text % align;

        set(field::NUM_MESHES, saturate(self.meshes.len()));
        set(field::OFS_MESHES, place.start(&mut out, !self.meshes.is_empty()));
        for (m, [name, material]) in self.meshes.iter().zip(mesh_names) {
            for v in [name, material, m.first_vertex, m.num_vertexes, m.first_triangle, m.num_triangles] {
                out.u32(v);
            }
        }

        set(field::NUM_VERTEXARRAYS, saturate(self.vertex_arrays.len()));
        set(field::NUM_VERTEXES, self.num_vertexes);
        set(field::OFS_VERTEXARRAYS, place.start(&mut out, !self.vertex_arrays.is_empty()));
        let mut offset_slots = Vec::with_capacity(self.vertex_arrays.len());
        for (va, kind) in self.vertex_arrays.iter().zip(array_types) {
            for v in [kind, va.flags, va.format, va.size] {
                out.u32(v);
            }
            offset_slots.push(out.len());
            out.u32(0);
        }
        if like_converter {
            out.align_to(8, place.shift);
        }
        for (va, slot) in self.vertex_arrays.iter().zip(offset_slots) {
            let at = if va.data.is_empty() {
                0
            } else if like_converter {
                out.align_to(align.max(format_size(va.format).unwrap_or(1)), place.shift);
                out.pos_u32()
            } else {
                place.start(&mut out, true)
            };
            out.patch_u32(slot, at);
            out.bytes(&va.data);
        }

        set(field::NUM_TRIANGLES, saturate(self.triangles.len()));
        set(field::OFS_TRIANGLES, place.start(&mut out, !self.triangles.is_empty()));
        for t in &self.triangles {
            out.u32s(t);
        }
        let adjacency = self.adjacency.as_deref().unwrap_or(&[]);
        set(field::OFS_ADJACENCY, place.start(&mut out, !adjacency.is_empty()));
        for t in adjacency {
            out.u32s(t);
        }

        set(field::NUM_JOINTS, saturate(self.joints.len()));
        set(field::OFS_JOINTS, place.start(&mut out, !self.joints.is_empty()));
        for (j, name) in self.joints.iter().zip(joint_names) {
            out.u32(name).i32(j.parent).f32s(&j.translate).f32s(&j.rotate).f32s(&j.scale);
        }

        set(field::NUM_POSES, saturate(self.poses.len()));
        set(field::OFS_POSES, place.start(&mut out, !self.poses.is_empty()));
        for p in &self.poses {
            out.i32(p.parent).u32(p.channel_mask).f32s(&p.channel_offset).f32s(&p.channel_scale);
        }

        set(field::NUM_ANIMS, saturate(self.anims.len()));
        set(field::OFS_ANIMS, place.start(&mut out, !self.anims.is_empty()));
        for (a, name) in self.anims.iter().zip(anim_names) {
            out.u32(name).u32(a.first_frame).u32(a.num_frames).f32(a.framerate).u32(a.flags);
        }

        set(field::NUM_FRAMES, self.num_frames);
        set(field::NUM_FRAMECHANNELS, self.num_framechannels);
        set(field::OFS_FRAMES, place.start(&mut out, !self.frames.is_empty()));
        for &v in &self.frames {
            out.u16(v);
        }

        let bounds = self.bounds.as_deref().unwrap_or(&[]);
        set(field::OFS_BOUNDS, place.start(&mut out, !bounds.is_empty()));
        for b in bounds {
            out.f32s(&b.min).f32s(&b.max).f32(b.xy_radius).f32(b.radius);
        }

        if let Some(comment) = &self.comment {
            set(field::OFS_COMMENT, place.start(&mut out, true));
            set(field::NUM_COMMENT, saturate(comment.len().saturating_add(1)));
            out.bytes(comment.as_bytes()).u8(0);
        }

        set(field::NUM_EXTENSIONS, saturate(self.extensions.len()));
        let first = place.start(&mut out, !self.extensions.is_empty());
        set(field::OFS_EXTENSIONS, first);
        let mut data_slots = Vec::with_capacity(self.extensions.len());
        for (i, (e, name)) in self.extensions.iter().zip(extension_names).enumerate() {
            out.u32(name).count_u32(e.data.len());
            data_slots.push(out.len());
            out.u32(0);
            // Records are contiguous, so the next one starts right after this one's last field.
            let next = if i + 1 < self.extensions.len() { out.pos_u32().saturating_add(4) } else { 0 };
            out.u32(next);
        }
        for (e, slot) in self.extensions.iter().zip(data_slots) {
            let at = place.start(&mut out, !e.data.is_empty());
            out.patch_u32(slot, at);
            out.bytes(&e.data);
        }

        set(field::FILESIZE, out.pos_u32());
        for (i, v) in hdr.iter().enumerate() {
            out.patch_u32(field_offset(i), *v);
        }
        out.into_bytes()
    }
}

/// Encodes `values` as IQM component `format` (0..=8), little-endian. With `normalized`, integer formats invert
/// the decoding the reader applies (unsigned `c/(2^b-1)`, signed `(2c+1)/(2^b-1)`); without it they hold the
/// rounded value itself, as blend indexes do. Out-of-range and NaN values clamp (NaN to 0) instead of failing,
/// and an unknown format yields no bytes.
pub fn encode_components(format: u32, values: &[f32], normalized: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * format_size(format).unwrap_or(0));
    encode_components_into(format, values, normalized, &mut out);
    out
}

/// [`encode_components`], appending to `out` (the converter encodes millions of vertices into one buffer).
/// Returns false, appending nothing, for an unknown format.
pub fn encode_components_into(format: u32, values: &[f32], normalized: bool, out: &mut Vec<u8>) -> bool {
    if format_size(format).is_none() {
        return false;
    }
    // f64 keeps the 32-bit formats exact: f32 can't represent 2^32-1.
    let int = |v: f32, bits: i32, signed: bool| -> f64 {
        let v = f64::from(v);
        let max = 2f64.powi(bits) - 1.0;
        let c = match (normalized, signed) {
            (true, false) => (v * max).round(),
            (true, true) => ((v * max - 1.0) / 2.0).round(),
            (false, _) => v.round(),
        };
        let (lo, hi) = if signed { (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1) - 1.0) } else { (0.0, max) };
        if c.is_nan() { 0.0 } else { c.clamp(lo, hi) }
    };
    for &v in values {
        match format {
            IQM_BYTE => out.extend_from_slice(&(int(v, 8, true) as i8).to_le_bytes()),
            IQM_UBYTE => out.push(int(v, 8, false) as u8),
            IQM_SHORT => out.extend_from_slice(&(int(v, 16, true) as i16).to_le_bytes()),
            IQM_USHORT => out.extend_from_slice(&(int(v, 16, false) as u16).to_le_bytes()),
            IQM_INT => out.extend_from_slice(&(int(v, 32, true) as i32).to_le_bytes()),
            IQM_UINT => out.extend_from_slice(&(int(v, 32, false) as u32).to_le_bytes()),
            IQM_HALF => out.extend_from_slice(&half::f16::from_f32(v).to_le_bytes()),
            IQM_FLOAT => out.extend_from_slice(&v.to_le_bytes()),
            IQM_DOUBLE => out.extend_from_slice(&f64::from(v).to_le_bytes()),
            _ => return false,
        }
    }
    true
}

/// One pose's quantisation: the header of its pose record without the parent, which the caller knows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PoseChannels {
    pub mask: u32,
    pub offset: [f32; POSE_CHANNELS],
    pub scale: [f32; POSE_CHANNELS],
}

impl PoseChannels {
    pub fn to_pose(&self, parent: i32) -> Pose {
        Pose { parent, channel_mask: self.mask, channel_offset: self.offset, channel_scale: self.scale }
    }
}

/// Quantises animation the way the reference converter does, so converted files match its output bit for bit.
///
/// `samples` is frame-major (`samples[frame * num_poses + pose]`, channels Tx Ty Tz Qx Qy Qz Qw Sx Sy Sz); a
/// trailing partial frame is ignored. A channel whose range over all frames is at least 1e-10 is masked with
/// `offset = min` and `scale = range/65535`; any other is constant (`offset = min`, `scale = 0`, unmasked) and
/// costs no frame data. Returns the per-pose channels, `num_framechannels`, and the frame data.
pub fn quantize_channels(samples: &[[f32; POSE_CHANNELS]], num_poses: usize) -> (Vec<PoseChannels>, u32, Vec<u16>) {
    if num_poses == 0 {
        return (Vec::new(), 0, Vec::new());
    }
    let frames: Vec<&[[f32; POSE_CHANNELS]]> = samples.chunks_exact(num_poses).collect();
    let mut poses = vec![PoseChannels::default(); num_poses];
    let mut channels = 0u32;
    for (p, pose) in poses.iter_mut().enumerate() {
        for k in 0..POSE_CHANNELS {
            let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
            for frame in &frames {
                lo = lo.min(frame[p][k]);
                hi = hi.max(frame[p][k]);
            }
            // No frames, or only NaN (which min/max skip): a constant channel with something to show.
            if lo > hi {
                lo = frames.first().map_or(0.0, |frame| frame[p][k]);
                hi = lo;
            }
            let range = hi - lo;
            pose.offset[k] = lo;
            if range >= 1e-10 {
                pose.mask |= 1 << k;
                pose.scale[k] = range / 65535.0;
                channels += 1;
            }
        }
    }
    let mut data = Vec::with_capacity(frames.len() * channels as usize);
    for frame in &frames {
        for (pose, values) in poses.iter().zip(frame.iter()) {
            for k in (0..POSE_CHANNELS).filter(|k| pose.mask & (1 << k) != 0) {
                // f32 arithmetic and flooring mirror the converter's `ushort(0.5f + (v - base) / scale)`.
                let q = (0.5 + (values[k] - pose.offset[k]) / pose.scale[k]).floor();
                data.push(q.clamp(0.0, 65535.0) as u16);
            }
        }
    }
    (poses, channels, data)
}

/// Turns (already top-4) blend weights into bytes that sum to exactly 255, because readers divide by 255 and a
/// sum off by one scales the skinned vertex. Negative and non-finite weights count as 0; all-zero input gives
/// all-zero output (the bind pose). The rounding error goes to the largest slot, where it matters least.
pub fn quantize_weights(weights: [f32; 4]) -> [u8; 4] {
    let w = weights.map(|w| if w.is_finite() && w > 0.0 { f64::from(w) } else { 0.0 });
    let sum: f64 = w.iter().sum();
    if sum <= 0.0 {
        return [0; 4];
    }
    let mut q = w.map(|w| (w / sum * 255.0).round().clamp(0.0, 255.0) as i32);
    let mut largest = 0;
    for i in 1..4 {
        if q[i] > q[largest] {
            largest = i;
        }
    }
    q[largest] = (q[largest] + 255 - q.iter().sum::<i32>()).clamp(0, 255);
    q.map(|c| c as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    fn i32_at(b: &[u8], at: usize) -> i32 {
        i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    fn f32_at(b: &[u8], at: usize) -> f32 {
        f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    fn text_at(b: &[u8], ofs_text: usize, ofs: u32) -> &str {
        let start = ofs_text + ofs as usize;
        let end = start + b[start..].iter().position(|&c| c == 0).unwrap();
        std::str::from_utf8(&b[start..end]).unwrap()
    }

    /// Deterministic xorshift, so "random-ish" inputs reproduce.
    struct Rng(u32);
    impl Rng {
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            (self.0 >> 8) as f32 / (1 << 24) as f32
        }
    }

    /// Touches every section, with names that repeat across record kinds.
    fn full_doc() -> IqmDocument {
        let positions = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        IqmDocument {
            flags: 0,
            num_vertexes: 3,
            vertex_arrays: vec![
                VertexArray::from_f32(IQM_POSITION, IQM_FLOAT, 3, &positions, false),
                VertexArray::from_f32(IQM_TEXCOORD, IQM_HALF, 2, &[0.0; 6], false),
                VertexArray::from_f32(IQM_BLENDINDEXES, IQM_UBYTE, 1, &[0.0, 1.0, 1.0], false),
                VertexArray::custom("heat", IQM_DOUBLE, 1, encode_components(IQM_DOUBLE, &[1.0, 2.0, 3.0], false)),
            ],
            triangles: vec![[0, 1, 2]],
            adjacency: Some(vec![[u32::MAX; 3]]),
            meshes: vec![Mesh {
                name: "body".into(),
                material: "skin".into(),
                num_vertexes: 3,
                num_triangles: 1,
                ..Default::default()
            }],
            joints: vec![
                Joint { name: "root".into(), ..Default::default() },
                Joint {
                    name: "body".into(),
                    parent: 0,
                    translate: [1.0, 2.0, 3.0],
                    scale: [10.1, 1.0, 0.01],
                    ..Default::default()
                },
            ],
            poses: vec![
                Pose { parent: -1, ..Default::default() },
                Pose { parent: 0, channel_mask: 1, ..Default::default() },
            ],
            anims: vec![Anim {
                name: "idle".into(),
                num_frames: 2,
                framerate: 24.0,
                flags: IQM_LOOP,
                ..Default::default()
            }],
            num_frames: 2,
            num_framechannels: 1,
            frames: vec![0, 65535],
            bounds: Some(vec![Bounds::default(), Bounds { radius: 5.0, ..Default::default() }]),
            comment: Some("made by a test".into()),
            extensions: vec![
                Extension { name: "FTE_MESH".into(), data: vec![1, 2, 3] },
                Extension { name: "EMPTY".into(), data: vec![] },
                Extension { name: "skin".into(), data: vec![9; 8] },
            ],
        }
    }

    /// (name, ofs field, bytes) of every fixed-size section in file order, to check order and alignment.
    fn sections(b: &[u8]) -> Vec<(&'static str, u32, u32)> {
        let f = |at| u32_at(b, at);
        let frames = 2 * f(field::NUM_FRAMES) * f(field::NUM_FRAMECHANNELS);
        vec![
            ("text", f(field::OFS_TEXT), f(field::NUM_TEXT)),
            ("meshes", f(field::OFS_MESHES), MESH_SIZE as u32 * f(field::NUM_MESHES)),
            ("vertexarrays", f(field::OFS_VERTEXARRAYS), VERTEXARRAY_SIZE as u32 * f(field::NUM_VERTEXARRAYS)),
            ("triangles", f(field::OFS_TRIANGLES), TRIANGLE_SIZE as u32 * f(field::NUM_TRIANGLES)),
            (
                "adjacency",
                f(field::OFS_ADJACENCY),
                super::super::layout::ADJACENCY_SIZE as u32 * f(field::NUM_TRIANGLES),
            ),
            ("joints", f(field::OFS_JOINTS), JOINT_SIZE as u32 * f(field::NUM_JOINTS)),
            ("poses", f(field::OFS_POSES), POSE_SIZE as u32 * f(field::NUM_POSES)),
            ("anims", f(field::OFS_ANIMS), ANIM_SIZE as u32 * f(field::NUM_ANIMS)),
            ("frames", f(field::OFS_FRAMES), frames),
            ("bounds", f(field::OFS_BOUNDS), BOUNDS_SIZE as u32 * f(field::NUM_FRAMES)),
            ("comment", f(field::OFS_COMMENT), f(field::NUM_COMMENT)),
            ("extensions", f(field::OFS_EXTENSIONS), EXTENSION_SIZE as u32 * f(field::NUM_EXTENSIONS)),
        ]
    }

    #[test]
    fn empty_document_is_a_bare_header() {
        let b = IqmDocument::default().to_bytes();
        assert_eq!(b.len(), HEADER_SIZE);
        assert_eq!(&b[..16], MAGIC);
        assert_eq!(u32_at(&b, field::VERSION), 2);
        assert_eq!(u32_at(&b, field::FILESIZE), 124);
        assert!((24..124).step_by(4).all(|at| u32_at(&b, at) == 0));
    }

    #[test]
    fn header_counts_and_filesize() {
        let doc = full_doc();
        let b = doc.to_bytes();
        assert_eq!(u32_at(&b, field::FILESIZE) as usize, b.len());
        assert_eq!(u32_at(&b, field::NUM_MESHES), 1);
        assert_eq!(u32_at(&b, field::NUM_VERTEXARRAYS), 4);
        assert_eq!(u32_at(&b, field::NUM_VERTEXES), 3);
        assert_eq!(u32_at(&b, field::NUM_TRIANGLES), 1);
        assert_eq!(u32_at(&b, field::NUM_JOINTS), 2);
        assert_eq!(u32_at(&b, field::NUM_POSES), 2);
        assert_eq!(u32_at(&b, field::NUM_ANIMS), 1);
        assert_eq!(u32_at(&b, field::NUM_FRAMES), 2);
        assert_eq!(u32_at(&b, field::NUM_FRAMECHANNELS), 1);
        assert_eq!(u32_at(&b, field::NUM_EXTENSIONS), 3);
        assert_eq!(u32_at(&b, field::NUM_TEXT) % 4, 0);
    }

    #[test]
    fn sections_are_in_order_aligned_and_inside_the_file() {
        let b = full_doc().to_bytes();
        let mut end = HEADER_SIZE as u32;
        for (name, ofs, len) in sections(&b) {
            assert!(ofs >= end, "{name} at {ofs} overlaps the previous section ending at {end}");
            assert_eq!(ofs % 4, 0, "{name} at {ofs}");
            end = ofs + len;
        }
        assert!(end as usize <= b.len());
        assert_eq!(u32_at(&b, field::OFS_TEXT), 124);
        // Vertex data sits between the array records and the triangles.
        let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
        let mut data_end = va as u32 + 80;
        for i in 0..4 {
            let ofs = u32_at(&b, va + 20 * i + 16);
            assert!(ofs >= data_end && ofs.is_multiple_of(4), "array {i} data at {ofs}");
            data_end = ofs + doc_array_len(i);
        }
        assert!(u32_at(&b, field::OFS_TRIANGLES) >= data_end);
    }

    fn doc_array_len(i: usize) -> u32 {
        full_doc().vertex_arrays[i].data.len() as u32
    }

    #[test]
    fn pad_after_text_shifts_every_later_section_off_alignment() {
        let layout = Layout { align: 4, pad_after_text: 2 };
        let b = full_doc().to_bytes_with(&layout);
        assert_eq!(u32_at(&b, field::FILESIZE) as usize, b.len());
        for (name, ofs, _) in sections(&b).into_iter().skip(1) {
            assert_eq!(ofs % 4, 2, "{name} at {ofs}");
        }
        let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
        for i in 0..4 {
            assert_eq!(u32_at(&b, va + 20 * i + 16) % 4, 2, "array {i}");
        }
        // The records still decode at their unaligned offsets.
        let joints = u32_at(&b, field::OFS_JOINTS) as usize;
        assert_eq!(f32_at(&b, joints + 48 + 8), 1.0);
    }

    #[test]
    fn packed_layout_matches_red_eclipse_offsets() {
        // An animation-only file with a 6-byte text table: poses at 130, anims right after them.
        let doc = IqmDocument {
            poses: vec![Pose { parent: -1, ..Default::default() }; 78],
            anims: vec![Anim { name: "dead".into(), num_frames: 2, ..Default::default() }],
            num_frames: 2,
            ..Default::default()
        };
        let b = doc.to_bytes_with(&Layout { align: 1, pad_after_text: 0 });
        assert_eq!(u32_at(&b, field::NUM_TEXT), 6);
        assert_eq!(u32_at(&b, field::OFS_POSES), 130);
        assert_eq!(u32_at(&b, field::OFS_ANIMS), 130 + 78 * 88);
        assert_eq!(u32_at(&b, field::OFS_FRAMES), 0);
        assert_eq!(b.len(), 130 + 78 * 88 + 20);
        // The spec layout pads the same table to 8.
        let b = doc.to_bytes();
        assert_eq!(u32_at(&b, field::NUM_TEXT), 8);
        assert_eq!(u32_at(&b, field::OFS_POSES), 132);
    }

    #[test]
    fn converter_layout_puts_vertex_data_on_8_bytes() {
        // One 1-byte array first pushes the double array off 8 unless it is aligned on its own size.
        let mut doc = full_doc();
        doc.vertex_arrays.swap(0, 2);
        for layout_is_converter in [false, true] {
            let b = if layout_is_converter { doc.to_bytes_like_converter() } else { doc.to_bytes() };
            assert_eq!(u32_at(&b, field::FILESIZE) as usize, b.len());
            let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
            let first = u32_at(&b, va + 16);
            let double = u32_at(&b, va + 3 * 20 + 16);
            let aligned = first.is_multiple_of(8) && double.is_multiple_of(8);
            assert_eq!(aligned, layout_is_converter, "data at {first} and {double}");
        }
    }

    #[test]
    fn text_table_is_deduplicated_and_starts_empty() {
        let b = full_doc().to_bytes();
        let text = u32_at(&b, field::OFS_TEXT) as usize;
        assert_eq!(b[text], 0);
        let meshes = u32_at(&b, field::OFS_MESHES) as usize;
        let joints = u32_at(&b, field::OFS_JOINTS) as usize;
        let mesh_name = u32_at(&b, meshes);
        assert_eq!(text_at(&b, text, mesh_name), "body");
        assert_eq!(text_at(&b, text, u32_at(&b, meshes + 4)), "skin");
        assert_eq!(text_at(&b, text, u32_at(&b, joints)), "root");
        // The joint "body" reuses the mesh's string; the extension "skin" reuses the material's.
        assert_eq!(u32_at(&b, joints + 48), mesh_name);
        let ext = u32_at(&b, field::OFS_EXTENSIONS) as usize;
        assert_eq!(u32_at(&b, ext + 32), u32_at(&b, meshes + 4));
        // Every string once: "", body, skin, heat, root, idle, FTE_MESH, EMPTY.
        let names = ["", "body", "skin", "heat", "root", "idle", "FTE_MESH", "EMPTY"];
        let raw: usize = names.iter().map(|n| n.len() + 1).sum();
        assert_eq!(u32_at(&b, field::NUM_TEXT) as usize, raw.div_ceil(4) * 4);

        // Empty names share offset 0.
        let doc = IqmDocument { meshes: vec![Mesh::default()], joints: vec![Joint::default()], ..Default::default() };
        let b = doc.to_bytes();
        assert_eq!(u32_at(&b, field::NUM_TEXT), 4);
        assert_eq!(u32_at(&b, u32_at(&b, field::OFS_MESHES) as usize), 0);
        assert_eq!(u32_at(&b, u32_at(&b, field::OFS_JOINTS) as usize), 0);
    }

    #[test]
    fn custom_array_type_points_at_its_name() {
        let b = full_doc().to_bytes();
        let text = u32_at(&b, field::OFS_TEXT) as usize;
        let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
        let custom = va + 3 * 20;
        let kind = u32_at(&b, custom);
        assert!(kind >= IQM_CUSTOM);
        assert_eq!(text_at(&b, text, kind - IQM_CUSTOM), "heat");
        assert_eq!(u32_at(&b, custom + 8), IQM_DOUBLE);
        let data = u32_at(&b, custom + 16) as usize;
        assert_eq!(f64::from_le_bytes(b[data + 8..data + 16].try_into().unwrap()), 2.0);
        // A plain array keeps its kind, format and size.
        assert_eq!([u32_at(&b, va + 20), u32_at(&b, va + 28), u32_at(&b, va + 32)], [IQM_TEXCOORD, IQM_HALF, 2]);
    }

    #[test]
    fn records_decode_field_by_field() {
        let b = full_doc().to_bytes();
        let m = u32_at(&b, field::OFS_MESHES) as usize;
        assert_eq!((2..6).map(|i| u32_at(&b, m + 4 * i)).collect::<Vec<_>>(), [0, 3, 0, 1]);
        let t = u32_at(&b, field::OFS_TRIANGLES) as usize;
        assert_eq!([u32_at(&b, t), u32_at(&b, t + 4), u32_at(&b, t + 8)], [0, 1, 2]);
        assert_eq!(u32_at(&b, u32_at(&b, field::OFS_ADJACENCY) as usize), u32::MAX);
        let j = u32_at(&b, field::OFS_JOINTS) as usize + 48;
        assert_eq!(i32_at(&b, j + 4), 0);
        let floats: Vec<f32> = (0..10).map(|i| f32_at(&b, j + 8 + 4 * i)).collect();
        assert_eq!(floats, [1.0, 2.0, 3.0, 0.0, 0.0, 0.0, -1.0, 10.1, 1.0, 0.01]);
        let p = u32_at(&b, field::OFS_POSES) as usize;
        assert_eq!(i32_at(&b, p), -1);
        assert_eq!((i32_at(&b, p + 88), u32_at(&b, p + 92)), (0, 1));
        let a = u32_at(&b, field::OFS_ANIMS) as usize;
        assert_eq!((u32_at(&b, a + 4), u32_at(&b, a + 8), f32_at(&b, a + 12), u32_at(&b, a + 16)), (0, 2, 24.0, 1));
        let fr = u32_at(&b, field::OFS_FRAMES) as usize;
        assert_eq!(u16::from_le_bytes([b[fr + 2], b[fr + 3]]), 65535);
        let bd = u32_at(&b, field::OFS_BOUNDS) as usize;
        assert_eq!(f32_at(&b, bd + 32 + 28), 5.0);
    }

    #[test]
    fn comment_counts_its_trailing_nul() {
        let b = full_doc().to_bytes();
        let ofs = u32_at(&b, field::OFS_COMMENT) as usize;
        let n = u32_at(&b, field::NUM_COMMENT) as usize;
        assert_eq!(n, "made by a test".len() + 1);
        assert_eq!(&b[ofs..ofs + n], b"made by a test\0");
    }

    #[test]
    fn extensions_form_a_linked_list() {
        let b = full_doc().to_bytes();
        let text = u32_at(&b, field::OFS_TEXT) as usize;
        let mut at = u32_at(&b, field::OFS_EXTENSIONS) as usize;
        let mut seen = Vec::new();
        while at != 0 {
            let (name, num, ofs) = (u32_at(&b, at), u32_at(&b, at + 4) as usize, u32_at(&b, at + 8) as usize);
            let data = if num == 0 { Vec::new() } else { b[ofs..ofs + num].to_vec() };
            if num == 0 {
                assert_eq!(ofs, 0);
            }
            seen.push((text_at(&b, text, name).to_owned(), data));
            at = u32_at(&b, at + 12) as usize;
        }
        let want: Vec<(String, Vec<u8>)> = full_doc().extensions.into_iter().map(|e| (e.name, e.data)).collect();
        assert_eq!(seen, want);
    }

    #[test]
    fn empty_sections_get_offset_zero() {
        let doc = IqmDocument {
            meshes: vec![Mesh::default()],
            adjacency: Some(Vec::new()),
            bounds: Some(Vec::new()),
            num_frames: 2,
            vertex_arrays: vec![VertexArray::new(IQM_POSITION, IQM_FLOAT, 3, Vec::new())],
            ..Default::default()
        };
        let b = doc.to_bytes();
        for at in [field::OFS_TRIANGLES, field::OFS_ADJACENCY, field::OFS_JOINTS, field::OFS_POSES, field::OFS_ANIMS] {
            assert_eq!(u32_at(&b, at), 0, "field at {at}");
        }
        for at in [field::OFS_FRAMES, field::OFS_BOUNDS, field::OFS_COMMENT, field::OFS_EXTENSIONS] {
            assert_eq!(u32_at(&b, at), 0, "field at {at}");
        }
        let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
        assert_eq!(u32_at(&b, va + 16), 0);
        assert_eq!(b.len(), u32_at(&b, field::FILESIZE) as usize);
    }

    #[test]
    fn inconsistent_documents_are_written_as_given() {
        let doc = IqmDocument {
            num_vertexes: 1000,
            vertex_arrays: vec![
                VertexArray::new(IQM_POSITION, 11, 7, vec![1, 2, 3]),
                VertexArray { custom_name: Some("x".repeat(300)), ..Default::default() },
            ],
            triangles: vec![[5000, 6000, 7000]; 2],
            adjacency: Some(vec![[0, 0, 0]]),
            num_frames: 7,
            num_framechannels: 3,
            frames: vec![1],
            bounds: Some(vec![Bounds::default(); 3]),
            comment: Some(String::new()),
            ..Default::default()
        };
        for layout in
            [Layout::default(), Layout { align: 0, pad_after_text: 7 }, Layout { align: 3, pad_after_text: 1 }]
        {
            let b = doc.to_bytes_with(&layout);
            assert_eq!(b.len(), u32_at(&b, field::FILESIZE) as usize);
            assert_eq!(u32_at(&b, field::NUM_VERTEXES), 1000);
            assert_eq!(u32_at(&b, field::NUM_COMMENT), 1);
            let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
            assert_eq!((u32_at(&b, va + 8), u32_at(&b, va + 12)), (11, 7));
        }
    }

    #[test]
    fn patch_u32_refuses_out_of_range() {
        let mut b = IqmDocument::default().to_bytes();
        assert!(patch_u32(&mut b, field::VERSION, 3));
        assert_eq!(u32_at(&b, field::VERSION), 3);
        assert!(!patch_u32(&mut b, 122, 0));
        assert!(!patch_u32(&mut b, usize::MAX, 0));
    }

    /// The reader's normalised decoding, written independently of the encoder.
    fn decode(format: u32, b: &[u8]) -> Vec<f64> {
        let size = format_size(format).unwrap();
        b.chunks_exact(size)
            .map(|c| match format {
                IQM_BYTE => (2.0 * f64::from(c[0] as i8) + 1.0) / 255.0,
                IQM_UBYTE => f64::from(c[0]) / 255.0,
                IQM_SHORT => (2.0 * f64::from(i16::from_le_bytes([c[0], c[1]])) + 1.0) / 65535.0,
                IQM_USHORT => f64::from(u16::from_le_bytes([c[0], c[1]])) / 65535.0,
                IQM_INT => (2.0 * f64::from(i32::from_le_bytes(c.try_into().unwrap())) + 1.0) / 4294967295.0,
                IQM_UINT => f64::from(u32::from_le_bytes(c.try_into().unwrap())) / 4294967295.0,
                IQM_HALF => f64::from(half::f16::from_le_bytes([c[0], c[1]]).to_f32()),
                IQM_FLOAT => f64::from(f32::from_le_bytes(c.try_into().unwrap())),
                _ => f64::from_le_bytes(c.try_into().unwrap()),
            })
            .collect()
    }

    #[test]
    fn encode_components_round_trips_every_format() {
        let unsigned = [0.0f32, 1.0, 0.5, 0.25, 0.999, 1.0 / 255.0, 0.123_456];
        let signed = [-1.0f32, 1.0, 0.0, -0.5, 0.5, 0.75, -0.123_456];
        for format in 0..=8 {
            let values: &[f32] = if format % 2 == 1 && format < 6 { &unsigned } else { &signed };
            let bytes = encode_components(format, values, true);
            assert_eq!(bytes.len(), values.len() * format_size(format).unwrap());
            let tolerance = match format {
                IQM_BYTE | IQM_UBYTE => 1.0 / 255.0,
                IQM_SHORT | IQM_USHORT => 1.0 / 65535.0,
                IQM_INT | IQM_UINT => 1e-7,
                IQM_HALF => 1e-3,
                _ => 0.0,
            };
            for (&v, d) in values.iter().zip(decode(format, &bytes)) {
                assert!((f64::from(v) - d).abs() <= tolerance, "format {format}: {v} decoded as {d}");
            }
        }
        // Extremes hit the integer limits exactly.
        assert_eq!(encode_components(IQM_BYTE, &[-1.0, 1.0], true), [0x80, 0x7F]);
        assert_eq!(encode_components(IQM_USHORT, &[1.0], true), [0xFF, 0xFF]);
        assert_eq!(encode_components(IQM_UINT, &[1.0], true), u32::MAX.to_le_bytes());
        assert_eq!(encode_components(IQM_INT, &[-1.0], true), i32::MIN.to_le_bytes());
    }

    #[test]
    fn encode_components_clamps_and_writes_plain_integers() {
        assert_eq!(
            encode_components(IQM_UBYTE, &[0.0, 3.0, 74.6, 300.0, -2.0, f32::NAN], false),
            [0, 3, 75, 255, 0, 0]
        );
        assert_eq!(encode_components(IQM_SHORT, &[-40000.0, 12.0], false), [0x00, 0x80, 12, 0]);
        assert_eq!(encode_components(IQM_UBYTE, &[2.0, -1.0, f32::INFINITY], true), [255, 0, 255]);
        assert_eq!(encode_components(IQM_UINT, &[70000.0], false), 70000u32.to_le_bytes());
        assert!(encode_components(9, &[1.0], false).is_empty());
        assert!(encode_components(IQM_FLOAT, &[], true).is_empty());
    }

    #[test]
    fn quantize_channels_reproduces_values_within_half_a_step() {
        let (num_poses, num_frames) = (3, 17);
        let mut rng = Rng(0x1234_5678);
        let mut samples = Vec::new();
        for _ in 0..num_frames {
            for p in 0..num_poses {
                let mut s = [0.0f32; 10];
                for (k, v) in s.iter_mut().enumerate() {
                    // Pose 1 keeps Tx and the scale channels constant; pose 2 spans a large range.
                    *v = match (p, k) {
                        (1, 0) => 2.5,
                        (1, 7..) => 1.0,
                        (2, _) => rng.next() * 2000.0 - 1000.0,
                        _ => rng.next() * 2.0 - 1.0,
                    };
                }
                samples.push(s);
            }
        }
        let (poses, channels, frames) = quantize_channels(&samples, num_poses);
        assert_eq!(poses.len(), num_poses);
        assert_eq!(channels, poses.iter().map(|p| p.mask.count_ones()).sum::<u32>());
        assert_eq!(channels, 30 - 4);
        assert_eq!(frames.len(), num_frames * channels as usize);
        assert_eq!(poses[1].mask, 0x3FF & !(1 | (0b111 << 7)));
        assert_eq!((poses[1].offset[0], poses[1].scale[0]), (2.5, 0.0));
        assert_eq!((poses[1].offset[8], poses[1].scale[8]), (1.0, 0.0));
        let mut cursor = frames.iter();
        for (i, sample) in samples.iter().enumerate() {
            let (f, p, pose) = (i / num_poses, i % num_poses, &poses[i % num_poses]);
            for (k, &want) in sample.iter().enumerate() {
                let mut v = pose.offset[k];
                if pose.mask & (1 << k) != 0 {
                    v += f32::from(*cursor.next().unwrap()) * pose.scale[k];
                }
                // A little slack over scale/2 for the f32 rounding of offset + q*scale.
                let slack = pose.scale[k] * 0.5 + want.abs().max(pose.offset[k].abs()) * 4.0 * f32::EPSILON;
                assert!((v - want).abs() <= slack, "frame {f} pose {p} channel {k}: {v} vs {want}");
            }
        }
        let pose = poses[2].to_pose(1);
        assert_eq!((pose.parent, pose.channel_mask), (1, 0x3FF));
    }

    #[test]
    fn quantize_channels_handles_degenerate_input() {
        // Constant frames: no channels, as in Red Eclipse's two-frame death pose.
        let samples = vec![[0.5f32; 10]; 4];
        let (poses, channels, frames) = quantize_channels(&samples, 2);
        assert_eq!(channels, 0);
        assert!(frames.is_empty());
        assert!(poses.iter().all(|p| p.mask == 0 && p.offset == [0.5; 10] && p.scale == [0.0; 10]));
        assert_eq!(quantize_channels(&samples, 0), (Vec::new(), 0, Vec::new()));
        let (poses, channels, _) = quantize_channels(&[], 3);
        assert_eq!((poses.len(), channels), (3, 0));
        // A trailing partial frame is dropped.
        let mut odd = vec![[0.0f32; 10]; 3];
        odd[2][0] = 9.0;
        assert_eq!(quantize_channels(&odd, 2).1, 0);
        // Non-finite values don't panic, and a NaN-only channel stays constant.
        let mut wild = vec![[0.0f32; 10]; 4];
        wild[0][0] = f32::NAN;
        wild[2][0] = f32::NAN;
        wild[1][1] = f32::INFINITY;
        let (poses, channels, frames) = quantize_channels(&wild, 2);
        assert_eq!(poses[0].mask & 1, 0);
        assert!(poses[0].offset[0].is_nan());
        assert_eq!(frames.len(), 2 * channels as usize);
    }

    #[test]
    fn quantize_weights_always_sums_to_255() {
        let mut rng = Rng(0x9E37_79B9);
        for i in 0..10_000 {
            let mut w = [0.0f32; 4];
            for (slot, v) in w.iter_mut().enumerate() {
                // Some slots empty, some tiny, some ties.
                *v = match (i + slot) % 7 {
                    0 => 0.0,
                    1 => rng.next() * 1e-3,
                    2 => 0.5,
                    _ => rng.next(),
                };
            }
            if w.iter().sum::<f32>() <= 0.0 {
                continue;
            }
            let q = quantize_weights(w);
            assert_eq!(q.iter().map(|&c| u32::from(c)).sum::<u32>(), 255, "{w:?} -> {q:?}");
        }
        assert_eq!(quantize_weights([1.0, 0.0, 0.0, 0.0]), [255, 0, 0, 0]);
        assert_eq!(quantize_weights([1.0, 1.0, 1.0, 0.0]), [85, 85, 85, 0]);
        assert_eq!(quantize_weights([0.5, 0.5, 0.0, 0.0]).map(u32::from).iter().sum::<u32>(), 255);
        assert_eq!(quantize_weights([2.0, 2.0, 2.0, 2.0]).map(u32::from).iter().sum::<u32>(), 255);
        assert_eq!(quantize_weights([f32::MAX; 4]).map(u32::from).iter().sum::<u32>(), 255);
    }

    #[test]
    fn quantize_weights_without_weight_is_all_zero() {
        assert_eq!(quantize_weights([0.0; 4]), [0; 4]);
        assert_eq!(quantize_weights([-1.0, f32::NAN, 0.0, f32::NEG_INFINITY]), [0; 4]);
        assert_eq!(quantize_weights([-1.0, 0.0, 3.0, 0.0]), [0, 0, 255, 0]);
    }
}

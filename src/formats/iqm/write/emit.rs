//! The emitter: an [`IqmDocument`] laid out section by section into bytes.
//!
//! The header is written as zeros first and each field is filled in as its section is placed, so every stage
//! below writes one section (or two that belong together) and says where it put it.

use super::text::{TextTable, saturate};
use super::{Anim, Bounds, Extension, IqmDocument, Joint, Layout, Mesh, Pose, VertexArray};
use crate::formats::binwrite::ByteWriter;
use crate::formats::iqm::layout::{CUSTOM, HEADER_SIZE, MAGIC, VERSION, field, format_size};

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
        let names = Names::of(self);
        let mut e = Emitter::new(layout, like_converter, self.size_hint());
        e.set(field::VERSION, VERSION);
        e.set(field::FLAGS, self.flags);
        let pad_after_text = usize::try_from(layout.pad_after_text).unwrap_or(0);
        e.text(self.needs_text().then_some(names.text), pad_after_text);
        e.meshes(&self.meshes, &names.meshes);
        e.vertex_arrays(&self.vertex_arrays, &names.array_types, self.num_vertexes);
        e.triangles(&self.triangles, self.adjacency.as_deref().unwrap_or(&[]));
        e.joints(&self.joints, &names.joints);
        e.poses(&self.poses);
        e.anims(&self.anims, &names.anims);
        e.frames(self.num_frames, self.num_framechannels, &self.frames);
        e.bounds(self.bounds.as_deref().unwrap_or(&[]));
        e.comment(self.comment.as_deref());
        e.extensions(&self.extensions, &names.extensions);
        e.finish()
    }

    /// About the file's size, so that its buffer is allocated once: growing a 28 MB file by doubling copied
    /// it about twice over, on fresh pages each time. Headers, names and padding are left out (the buffer
    /// still grows for what doesn't fit).
    fn size_hint(&self) -> usize {
        let arrays: usize = self.vertex_arrays.iter().map(|va| va.data.len() + 32).sum();
        let triangles = (self.triangles.len() + self.adjacency.as_ref().map_or(0, Vec::len)) * 12;
        let names = self.meshes.len() * 24 + self.joints.len() * 48 + self.anims.len() * 20;
        let extensions: usize = self.extensions.iter().map(|e| e.data.len() + 32).sum();
        HEADER_SIZE
            + arrays
            + triangles
            + names
            + self.poses.len() * 88
            + self.frames.len() * 2
            + self.bounds.as_ref().map_or(0, Vec::len) * 32
            + self.comment.as_ref().map_or(0, String::len)
            + extensions
            + 4096
    }

    /// A table is only written when some record can point into it; offset 0 then needs its NUL.
    fn needs_text(&self) -> bool {
        !(self.meshes.is_empty()
            && self.joints.is_empty()
            && self.anims.is_empty()
            && self.extensions.is_empty()
            && self.vertex_arrays.iter().all(|va| va.custom_name.is_none()))
    }
}

/// Every record's text offsets, and the table they point into.
struct Names {
    text: TextTable,
    meshes: Vec<[u32; 2]>,
    /// The written type of each array: its kind, or `CUSTOM` plus the offset of its name.
    array_types: Vec<u32>,
    joints: Vec<u32>,
    anims: Vec<u32>,
    extensions: Vec<u32>,
}

impl Names {
    /// Names are interned in file order so the table reads like the records that use it.
    fn of(doc: &IqmDocument) -> Names {
        let mut text = TextTable::new();
        let meshes = doc.meshes.iter().map(|m| [text.intern(&m.name), text.intern(&m.material)]).collect();
        let array_types = doc
            .vertex_arrays
            .iter()
            .map(|va| match &va.custom_name {
                Some(name) => CUSTOM.saturating_add(text.intern(name)),
                None => va.kind,
            })
            .collect();
        let joints = doc.joints.iter().map(|j| text.intern(&j.name)).collect();
        let anims = doc.anims.iter().map(|a| text.intern(&a.name)).collect();
        let extensions = doc.extensions.iter().map(|e| text.intern(&e.name)).collect();
        Names { text, meshes, array_types, joints, anims, extensions }
    }
}

/// The file being written, and where its sections go: every start is aligned to `align` relative to `shift`,
/// which is how `pad_after_text` moves every later section off the grid without giving up alignment between
/// them.
struct Emitter {
    out: ByteWriter,
    align: usize,
    shift: usize,
    like_converter: bool,
}

impl Emitter {
    fn new(layout: &Layout, like_converter: bool, capacity: usize) -> Emitter {
        let mut out = ByteWriter::with_capacity(capacity);
        out.bytes(MAGIC).zeros(HEADER_SIZE - MAGIC.len());
        let align = usize::try_from(layout.align.max(1)).unwrap_or(1);
        Emitter { out, align, shift: 0, like_converter }
    }

    /// Sets the header field at byte `at`.
    fn set(&mut self, at: usize, v: u32) {
        self.out.patch_u32(at, v);
    }

    /// Aligns and returns where a non-empty section starts, or 0 for an empty one without adding padding.
    fn start(&mut self, non_empty: bool) -> u32 {
        if non_empty {
            self.out.align_to(self.align, self.shift);
            self.out.pos_u32()
        } else {
            0
        }
    }

    /// Starts a section of `count` records: sets its count field (when it has one) and its offset field.
    fn section(&mut self, num_field: Option<usize>, ofs_field: usize, count: usize) {
        if let Some(num_field) = num_field {
            self.set(num_field, saturate(count));
        }
        let at = self.start(count > 0);
        self.set(ofs_field, at);
    }

    /// The text table padded to the alignment, then `pad_after_text` zeros that shift every later section.
    fn text(&mut self, text: Option<TextTable>, pad_after_text: usize) {
        if let Some(text) = text {
            let mut bytes = text.bytes;
            bytes.resize(bytes.len().div_ceil(self.align) * self.align, 0);
            let at = self.start(true);
            self.set(field::OFS_TEXT, at);
            self.set(field::NUM_TEXT, saturate(bytes.len()));
            self.out.bytes(&bytes);
        }
        self.out.align_to(self.align, 0);
        self.out.zeros(pad_after_text);
        self.shift = pad_after_text % self.align;
    }

    fn meshes(&mut self, meshes: &[Mesh], names: &[[u32; 2]]) {
        self.section(Some(field::NUM_MESHES), field::OFS_MESHES, meshes.len());
        for (m, [name, material]) in meshes.iter().zip(names) {
            self.out.u32s(&[*name, *material, m.first_vertex, m.num_vertexes, m.first_triangle, m.num_triangles]);
        }
    }

    /// The array records, then each array's data, with the records' offsets filled in as the data is placed.
    fn vertex_arrays(&mut self, arrays: &[VertexArray], types: &[u32], num_vertexes: u32) {
        self.set(field::NUM_VERTEXES, num_vertexes);
        self.section(Some(field::NUM_VERTEXARRAYS), field::OFS_VERTEXARRAYS, arrays.len());
        let mut offset_slots = Vec::with_capacity(arrays.len());
        for (va, kind) in arrays.iter().zip(types) {
            self.out.u32s(&[*kind, va.flags, va.format, va.size]);
            offset_slots.push(self.out.len());
            self.out.u32(0);
        }
        if self.like_converter {
            self.out.align_to(8, self.shift);
        }
        for (va, slot) in arrays.iter().zip(offset_slots) {
            let at = if va.data.is_empty() {
                0
            } else if self.like_converter {
                self.out.align_to(self.align.max(format_size(va.format).unwrap_or(1)), self.shift);
                self.out.pos_u32()
            } else {
                self.start(true)
            };
            self.out.patch_u32(slot, at);
            self.out.bytes(&va.data);
        }
    }

    fn triangles(&mut self, triangles: &[[u32; 3]], adjacency: &[[u32; 3]]) {
        self.section(Some(field::NUM_TRIANGLES), field::OFS_TRIANGLES, triangles.len());
        for t in triangles {
            self.out.u32s(t);
        }
        self.section(None, field::OFS_ADJACENCY, adjacency.len());
        for t in adjacency {
            self.out.u32s(t);
        }
    }

    fn joints(&mut self, joints: &[Joint], names: &[u32]) {
        self.section(Some(field::NUM_JOINTS), field::OFS_JOINTS, joints.len());
        for (j, name) in joints.iter().zip(names) {
            self.out.u32(*name).i32(j.parent).f32s(&j.translate).f32s(&j.rotate).f32s(&j.scale);
        }
    }

    fn poses(&mut self, poses: &[Pose]) {
        self.section(Some(field::NUM_POSES), field::OFS_POSES, poses.len());
        for p in poses {
            self.out.i32(p.parent).u32(p.channel_mask).f32s(&p.channel_offset).f32s(&p.channel_scale);
        }
    }

    fn anims(&mut self, anims: &[Anim], names: &[u32]) {
        self.section(Some(field::NUM_ANIMS), field::OFS_ANIMS, anims.len());
        for (a, name) in anims.iter().zip(names) {
            self.out.u32(*name).u32(a.first_frame).u32(a.num_frames).f32(a.framerate).u32(a.flags);
        }
    }

    /// The header's frame counts are written as given, whatever length the data has.
    fn frames(&mut self, num_frames: u32, num_framechannels: u32, frames: &[u16]) {
        self.set(field::NUM_FRAMES, num_frames);
        self.set(field::NUM_FRAMECHANNELS, num_framechannels);
        self.section(None, field::OFS_FRAMES, frames.len());
        for &v in frames {
            self.out.u16(v);
        }
    }

    fn bounds(&mut self, bounds: &[Bounds]) {
        self.section(None, field::OFS_BOUNDS, bounds.len());
        for b in bounds {
            self.out.f32s(&b.min).f32s(&b.max).f32(b.xy_radius).f32(b.radius);
        }
    }

    /// The comment counts its trailing NUL; an empty one is still written (one NUL).
    fn comment(&mut self, comment: Option<&str>) {
        if let Some(comment) = comment {
            let at = self.start(true);
            self.set(field::OFS_COMMENT, at);
            self.set(field::NUM_COMMENT, saturate(comment.len().saturating_add(1)));
            self.out.bytes(comment.as_bytes()).u8(0);
        }
    }

    /// The records as the linked list the format uses, then each one's data.
    fn extensions(&mut self, extensions: &[Extension], names: &[u32]) {
        self.section(Some(field::NUM_EXTENSIONS), field::OFS_EXTENSIONS, extensions.len());
        let mut data_slots = Vec::with_capacity(extensions.len());
        for (i, (e, name)) in extensions.iter().zip(names).enumerate() {
            self.out.u32(*name).count_u32(e.data.len());
            data_slots.push(self.out.len());
            self.out.u32(0);
            // Records are contiguous, so the next one starts right after this one's last field.
            let next = if i + 1 < extensions.len() { self.out.pos_u32().saturating_add(4) } else { 0 };
            self.out.u32(next);
        }
        for (e, slot) in extensions.iter().zip(data_slots) {
            let at = self.start(!e.data.is_empty());
            self.out.patch_u32(slot, at);
            self.out.bytes(&e.data);
        }
    }

    fn finish(mut self) -> Vec<u8> {
        let size = self.out.pos_u32();
        self.set(field::FILESIZE, size);
        self.out.into_bytes()
    }
}

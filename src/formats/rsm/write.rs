//! A record-level RSM/RSM2 writer (test support).
//!
//! Tests need files no exporter wrote: every version from 1.1 to 1.6 and 2.2/2.3, animated multi-node files,
//! the classic (FJS) layout, garbage in names and padding. [`RsmDocument`] describes a file field by field and
//! [`RsmDocument::to_bytes`] writes exactly that for its version and layout: it validates nothing (counts are
//! the lengths of the lists given), and it never panics.

use super::layout;
use crate::formats::binwrite::ByteWriter;
use crate::scene::RsmLayout;

/// One face. RSM1 writes the first smoothing group (none below 1.2); RSM2 writes all of them (1 to 3).
#[derive(Debug, Clone, PartialEq)]
pub struct Face {
    pub vertices: [u16; 3],
    pub tex_vertices: [u16; 3],
    pub texture: u16,
    pub pad: u16,
    pub two_sided: i32,
    pub groups: Vec<i32>,
}

impl Face {
    pub fn new(vertices: [u16; 3], tex_vertices: [u16; 3]) -> Face {
        Face { vertices, tex_vertices, texture: 0, pad: 0, two_sided: 0, groups: vec![1] }
    }
}

/// One node. Fields a version lacks are not written (RSM2: no offset, angle, axis or scale).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Written as given (RSM1: into a 40-byte field, so bytes after a NUL are kept as garbage).
    pub name: Vec<u8>,
    pub parent: Vec<u8>,
    /// RSM1, 2.2: indices into the global list.
    pub texture_indices: Vec<i32>,
    /// 2.3: the node's own names.
    pub texture_names: Vec<Vec<u8>>,
    /// Columns.
    pub m3: [f32; 9],
    pub offset: [f32; 3],
    pub pos: [f32; 3],
    pub rot_angle: f32,
    pub rot_axis: [f32; 3],
    pub scale: [f32; 3],
    pub vertices: Vec<[f32; 3]>,
    /// (colour, u, v); RSM1 below 1.2 writes no colour.
    pub tex_vertices: Vec<(u32, [f32; 2])>,
    pub faces: Vec<Face>,
    /// 1.6 and RSM2: (frame, scale, data).
    pub scale_keys: Vec<(i32, [f32; 3], f32)>,
    /// (frame, x, y, z, w).
    pub rot_keys: Vec<(i32, [f32; 4])>,
    /// RSM2 (20 B, the last 4 written as 0) and FJS 1.5 (16 B).
    pub pos_keys: Vec<(i32, [f32; 3])>,
    /// 2.3: (texture slot, [(kind, [(frame, value)])]).
    pub uv_animations: Vec<UvAnimation>,
}

/// A 2.3 UV animation: texture slot and, per kind, its (frame, value) keys.
pub type UvAnimation = (i32, Vec<(i32, Vec<(i32, f32)>)>);

pub const IDENTITY3: [f32; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

impl Node {
    pub fn new(name: &str, parent: &str) -> Node {
        Node {
            name: name.as_bytes().to_vec(),
            parent: parent.as_bytes().to_vec(),
            texture_indices: vec![0],
            texture_names: Vec::new(),
            m3: IDENTITY3,
            offset: [0.0; 3],
            pos: [0.0; 3],
            rot_angle: 0.0,
            rot_axis: [0.0; 3],
            scale: [1.0; 3],
            vertices: Vec::new(),
            tex_vertices: Vec::new(),
            faces: Vec::new(),
            scale_keys: Vec::new(),
            rot_keys: Vec::new(),
            pos_keys: Vec::new(),
            uv_animations: Vec::new(),
        }
    }
}

/// A collision box: size, position, rotation, flag (1.3 and later).
pub type VolumeBox = ([f32; 3], [f32; 3], [f32; 3], i32);

/// A whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct RsmDocument {
    pub magic: [u8; 4],
    pub major: u8,
    pub minor: u8,
    pub anim_len: i32,
    pub shade_type: i32,
    /// 1.4 and later, RSM2.
    pub alpha: u8,
    /// RSM2 only.
    pub fps: f32,
    /// RSM1 (40-byte names) and 2.2 (length-prefixed).
    pub textures: Vec<Vec<u8>>,
    /// RSM1 only.
    pub main_node: Vec<u8>,
    /// RSM2 only.
    pub roots: Vec<Vec<u8>>,
    pub nodes: Vec<Node>,
    /// Below 1.6 (FJS: below 1.5, 16 B each): (frame, vec3, f32).
    pub model_keys: Vec<(i32, [f32; 3], f32)>,
    pub volume_boxes: Vec<VolumeBox>,
    /// 2.3: false ends the file before the volume-box count.
    pub volume_box_count: bool,
    /// Layout B (1.5's extra bytes at the end or before the model-level block) or FJS.
    pub layout: RsmLayout,
    /// 1.5's 4 extra bytes (layout B only).
    pub extra_1_5: [u8; 4],
    /// Appended after everything.
    pub trailing: Vec<u8>,
}

impl RsmDocument {
    /// An empty file of version `major.minor`: shadeType 2, alpha 255, 30 fps, layout B.
    pub fn new(major: u8, minor: u8) -> RsmDocument {
        RsmDocument {
            magic: *layout::MAGIC,
            major,
            minor,
            anim_len: 0,
            shade_type: 2,
            alpha: 255,
            fps: 30.0,
            textures: Vec::new(),
            main_node: Vec::new(),
            roots: Vec::new(),
            nodes: Vec::new(),
            model_keys: Vec::new(),
            volume_boxes: Vec::new(),
            volume_box_count: true,
            layout: RsmLayout::B,
            extra_1_5: [0; 4],
            trailing: Vec::new(),
        }
    }

    fn version(&self) -> u16 {
        layout::code(self.major, self.minor)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut o = ByteWriter::new();
        let v = self.version();
        o.bytes(&self.magic).u8(self.major).u8(self.minor);
        o.i32(self.anim_len).i32(self.shade_type);
        if layout::is_rsm2(v) {
            self.rsm2_body(&mut o);
        } else {
            self.rsm1_body(&mut o);
        }
        o.bytes(&self.trailing);
        o.into_bytes()
    }

    fn rsm2_body(&self, o: &mut ByteWriter) {
        let v = self.version();
        // Every RSM2 version has both (see `layout::has_alpha`).
        o.u8(self.alpha).f32(self.fps);
        if layout::has_rsm2_texture_list(v) {
            o.count_i32(self.textures.len());
            for t in &self.textures {
                lstr(o, t);
            }
        }
        o.count_i32(self.roots.len());
        for r in &self.roots {
            lstr(o, r);
        }
        o.count_i32(self.nodes.len());
        for n in &self.nodes {
            self.rsm2_node(o, n);
        }
        if !layout::volume_count_optional(v) || self.volume_box_count {
            self.volume_boxes(o);
        }
    }

    fn rsm1_body(&self, o: &mut ByteWriter) {
        let v = self.version();
        if layout::has_alpha(v) {
            o.u8(self.alpha);
        }
        o.zeros(layout::RSM1_RESERVED);
        o.count_i32(self.textures.len());
        for t in &self.textures {
            o.fixed(t, layout::NAME_LEN);
        }
        o.fixed(&self.main_node, layout::NAME_LEN);
        o.count_i32(self.nodes.len());
        for n in &self.nodes {
            self.rsm1_node(o, n);
        }
        if layout::extra_before_block(v, self.layout) {
            o.bytes(&self.extra_1_5);
        }
        if let Some(size) = layout::model_key_size(v, self.layout) {
            o.count_i32(self.model_keys.len());
            for (frame, p, d) in &self.model_keys {
                o.i32(*frame).f32s(p);
                if size == layout::MODEL_KEY_B {
                    o.f32(*d);
                }
            }
        }
        self.volume_boxes(o);
        if layout::extra_at_end(v, self.layout) {
            o.bytes(&self.extra_1_5);
        }
    }

    fn volume_boxes(&self, o: &mut ByteWriter) {
        let flag = layout::volume_box_flag(self.version());
        o.count_i32(self.volume_boxes.len());
        for (size, pos, rot, f) in &self.volume_boxes {
            o.f32s(size).f32s(pos).f32s(rot);
            if flag {
                o.i32(*f);
            }
        }
    }

    fn rsm1_node(&self, o: &mut ByteWriter, n: &Node) {
        let v = self.version();
        o.fixed(&n.name, layout::NAME_LEN).fixed(&n.parent, layout::NAME_LEN);
        o.count_i32(n.texture_indices.len());
        for t in &n.texture_indices {
            o.i32(*t);
        }
        o.f32s(&n.m3).f32s(&n.offset).f32s(&n.pos).f32(n.rot_angle).f32s(&n.rot_axis).f32s(&n.scale);
        vertices(o, &n.vertices);
        let colour = layout::has_colour_and_group(v);
        o.count_i32(n.tex_vertices.len());
        for (c, uv) in &n.tex_vertices {
            if colour {
                o.u32(*c);
            }
            o.f32s(uv);
        }
        o.count_i32(n.faces.len());
        for f in &n.faces {
            face_body(o, f);
            if colour {
                o.i32(f.groups.first().copied().unwrap_or(0));
            }
        }
        if layout::has_scale_keys(v) {
            scale_keys(o, &n.scale_keys);
        }
        rot_keys(o, &n.rot_keys);
        if layout::has_fjs_pos_keys(v, self.layout) {
            o.count_i32(n.pos_keys.len());
            for (frame, p) in &n.pos_keys {
                o.i32(*frame).f32s(p);
            }
        }
    }

    fn rsm2_node(&self, o: &mut ByteWriter, n: &Node) {
        let v = self.version();
        lstr(o, &n.name);
        lstr(o, &n.parent);
        if layout::node_texture_names(v) {
            o.count_i32(n.texture_names.len());
            for t in &n.texture_names {
                lstr(o, t);
            }
        } else {
            o.count_i32(n.texture_indices.len());
            for t in &n.texture_indices {
                o.i32(*t);
            }
        }
        o.f32s(&n.m3).f32s(&n.pos);
        vertices(o, &n.vertices);
        o.count_i32(n.tex_vertices.len());
        for (c, uv) in &n.tex_vertices {
            o.u32(*c).f32s(uv);
        }
        o.count_i32(n.faces.len());
        for f in &n.faces {
            o.count_i32(layout::FACE_BODY + layout::FACE_GROUP * f.groups.len());
            face_body(o, f);
            for g in &f.groups {
                o.i32(*g);
            }
        }
        scale_keys(o, &n.scale_keys);
        rot_keys(o, &n.rot_keys);
        o.count_i32(n.pos_keys.len());
        for (frame, p) in &n.pos_keys {
            o.i32(*frame).f32s(p).i32(0);
        }
        if layout::has_uv_animations(v) {
            o.count_i32(n.uv_animations.len());
            for (slot, kinds) in &n.uv_animations {
                o.i32(*slot).count_i32(kinds.len());
                for (kind, keys) in kinds {
                    o.i32(*kind).count_i32(keys.len());
                    for (frame, value) in keys {
                        o.i32(*frame).f32(*value);
                    }
                }
            }
        }
    }
}

/// A length-prefixed name (RSM2).
fn lstr(o: &mut ByteWriter, s: &[u8]) {
    o.count_i32(s.len()).bytes(s);
}

fn vertices(o: &mut ByteWriter, vertices: &[[f32; 3]]) {
    o.count_i32(vertices.len());
    for p in vertices {
        o.f32s(p);
    }
}

/// Scale keys (RSM 1.6, RSM2): count, then frame, scale and the unused trailing float.
fn scale_keys(o: &mut ByteWriter, keys: &[(i32, [f32; 3], f32)]) {
    o.count_i32(keys.len());
    for (frame, s, d) in keys {
        o.i32(*frame).f32s(s).f32(*d);
    }
}

/// Rotation keys: count, then frame and quaternion x, y, z, w.
fn rot_keys(o: &mut ByteWriter, keys: &[(i32, [f32; 4])]) {
    o.count_i32(keys.len());
    for (frame, q) in keys {
        o.i32(*frame).f32s(q);
    }
}

/// The first 20 bytes of a face: corners, texture vertices, slot, padding and the two-sided flag.
fn face_body(o: &mut ByteWriter, f: &Face) {
    for x in f.vertices.iter().chain(&f.tex_vertices).chain([&f.texture, &f.pad]) {
        o.u16(*x);
    }
    o.i32(f.two_sided);
}

/// A small two-node model of version `major.minor` with every kind of data that version holds (texture list,
/// faces, rotation keys; RSM2 position, scale and UV keys; a volume box), for tests and fuzzing seeds.
pub fn sample_document(major: u8, minor: u8) -> RsmDocument {
    let mut doc = RsmDocument::new(major, minor);
    doc.anim_len = 1000;
    doc.textures = vec![b"model\\seed.bmp".to_vec()];
    doc.main_node = b"root".to_vec();
    doc.roots = vec![b"root".to_vec()];
    let mut root = Node::new("root", "");
    root.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [1.0, -1.0, 1.0]];
    root.tex_vertices = vec![(0, [0.0, 0.0]), (0, [1.0, 0.0]), (0, [0.0, 1.0])];
    root.faces = vec![Face::new([0, 1, 2], [0, 1, 2]), Face::new([1, 3, 2], [1, 2, 0])];
    root.rot_keys = vec![(0, [0.0, 0.0, 0.0, 1.0]), (500, [0.0, 0.6, 0.0, 0.8])];
    let mut child = Node::new("child", "root");
    child.vertices = root.vertices.clone();
    child.tex_vertices = root.tex_vertices.clone();
    child.faces = vec![Face::new([0, 2, 3], [0, 1, 2])];
    child.pos = [2.0, 0.0, 0.0];
    if major >= 2 {
        child.pos_keys = vec![(0, [2.0, 0.0, 0.0]), (10, [2.0, 1.0, 0.0])];
        child.scale_keys = vec![(0, [1.0; 3], 0.0), (10, [2.0; 3], 0.0)];
        child.texture_names = vec![b"seed.tga".to_vec()];
        child.uv_animations = vec![(0, vec![(0, vec![(0, 0.0), (10, 0.5)])])];
    }
    doc.nodes = vec![root, child];
    doc.volume_boxes = vec![([1.0; 3], [0.0; 3], [0.0; 3], 0)];
    doc
}

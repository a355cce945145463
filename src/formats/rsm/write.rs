//! A record-level RSM/RSM2 writer (test support).
//!
//! Tests need files no exporter wrote: every version from 1.1 to 1.6 and 2.2/2.3, animated multi-node files,
//! the classic (FJS) layout, garbage in names and padding. [`RsmDocument`] describes a file field by field and
//! [`RsmDocument::to_bytes`] writes exactly that for its version and layout: it validates nothing (counts are
//! the lengths of the lists given), and it never panics.

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
            magic: *b"GRSM",
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
        u16::from(self.major) << 8 | u16::from(self.minor)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut o = Out(Vec::new());
        let v = self.version();
        o.0.extend(self.magic);
        o.0.extend([self.major, self.minor]);
        o.i32(self.anim_len);
        o.i32(self.shade_type);
        if v >= 0x202 {
            o.0.push(self.alpha);
            o.f32(self.fps);
            if v == 0x202 {
                o.count(self.textures.len());
                for t in &self.textures {
                    o.lstr(t);
                }
            }
            o.count(self.roots.len());
            for r in &self.roots {
                o.lstr(r);
            }
            o.count(self.nodes.len());
            for n in &self.nodes {
                self.rsm2_node(&mut o, n);
            }
            if v < 0x203 || self.volume_box_count {
                self.volume_boxes(&mut o, true);
            }
        } else {
            if v >= 0x104 {
                o.0.push(self.alpha);
            }
            o.0.extend([0u8; 16]);
            o.count(self.textures.len());
            for t in &self.textures {
                o.str40(t);
            }
            o.str40(&self.main_node);
            o.count(self.nodes.len());
            for n in &self.nodes {
                self.rsm1_node(&mut o, n);
            }
            let fjs = self.layout == RsmLayout::Fjs;
            if !fjs && v == 0x105 && self.layout == RsmLayout::BExtraBeforeBlock {
                o.0.extend(self.extra_1_5);
            }
            let block = if fjs { (v < 0x105).then_some(16) } else { (v < 0x106).then_some(20) };
            if let Some(size) = block {
                o.count(self.model_keys.len());
                for (frame, p, d) in &self.model_keys {
                    o.i32(*frame);
                    o.f32s(p);
                    if size == 20 {
                        o.f32(*d);
                    }
                }
            }
            self.volume_boxes(&mut o, v >= 0x103);
            if !fjs && v == 0x105 && self.layout == RsmLayout::B {
                o.0.extend(self.extra_1_5);
            }
        }
        o.0.extend(&self.trailing);
        o.0
    }

    fn volume_boxes(&self, o: &mut Out, flag: bool) {
        o.count(self.volume_boxes.len());
        for (size, pos, rot, f) in &self.volume_boxes {
            o.f32s(size);
            o.f32s(pos);
            o.f32s(rot);
            if flag {
                o.i32(*f);
            }
        }
    }

    fn rsm1_node(&self, o: &mut Out, n: &Node) {
        let v = self.version();
        o.str40(&n.name);
        o.str40(&n.parent);
        o.count(n.texture_indices.len());
        for t in &n.texture_indices {
            o.i32(*t);
        }
        o.f32s(&n.m3);
        o.f32s(&n.offset);
        o.f32s(&n.pos);
        o.f32(n.rot_angle);
        o.f32s(&n.rot_axis);
        o.f32s(&n.scale);
        o.count(n.vertices.len());
        for p in &n.vertices {
            o.f32s(p);
        }
        o.count(n.tex_vertices.len());
        for (c, uv) in &n.tex_vertices {
            if v >= 0x102 {
                o.0.extend(c.to_le_bytes());
            }
            o.f32s(uv);
        }
        o.count(n.faces.len());
        for f in &n.faces {
            o.face_body(f);
            if v >= 0x102 {
                o.i32(f.groups.first().copied().unwrap_or(0));
            }
        }
        if v >= 0x106 {
            o.scale_keys(&n.scale_keys);
        }
        o.rot_keys(&n.rot_keys);
        if self.layout == RsmLayout::Fjs && v >= 0x105 {
            o.count(n.pos_keys.len());
            for (frame, p) in &n.pos_keys {
                o.i32(*frame);
                o.f32s(p);
            }
        }
    }

    fn rsm2_node(&self, o: &mut Out, n: &Node) {
        let v = self.version();
        o.lstr(&n.name);
        o.lstr(&n.parent);
        if v >= 0x203 {
            o.count(n.texture_names.len());
            for t in &n.texture_names {
                o.lstr(t);
            }
        } else {
            o.count(n.texture_indices.len());
            for t in &n.texture_indices {
                o.i32(*t);
            }
        }
        o.f32s(&n.m3);
        o.f32s(&n.pos);
        o.count(n.vertices.len());
        for p in &n.vertices {
            o.f32s(p);
        }
        o.count(n.tex_vertices.len());
        for (c, uv) in &n.tex_vertices {
            o.0.extend(c.to_le_bytes());
            o.f32s(uv);
        }
        o.count(n.faces.len());
        for f in &n.faces {
            o.count(20 + 4 * f.groups.len());
            o.face_body(f);
            for g in &f.groups {
                o.i32(*g);
            }
        }
        o.scale_keys(&n.scale_keys);
        o.rot_keys(&n.rot_keys);
        o.count(n.pos_keys.len());
        for (frame, p) in &n.pos_keys {
            o.i32(*frame);
            o.f32s(p);
            o.i32(0);
        }
        if v >= 0x203 {
            o.count(n.uv_animations.len());
            for (slot, kinds) in &n.uv_animations {
                o.i32(*slot);
                o.count(kinds.len());
                for (kind, keys) in kinds {
                    o.i32(*kind);
                    o.count(keys.len());
                    for (frame, value) in keys {
                        o.i32(*frame);
                        o.f32(*value);
                    }
                }
            }
        }
    }
}

struct Out(Vec<u8>);

impl Out {
    fn i32(&mut self, v: i32) {
        self.0.extend(v.to_le_bytes());
    }

    fn f32(&mut self, v: f32) {
        self.0.extend(v.to_le_bytes());
    }

    fn f32s(&mut self, v: &[f32]) {
        for x in v {
            self.f32(*x);
        }
    }

    /// A length as an i32, saturating.
    fn count(&mut self, n: usize) {
        self.i32(i32::try_from(n).unwrap_or(i32::MAX));
    }

    /// Exactly 40 bytes: the name, cut or padded with NULs.
    fn str40(&mut self, s: &[u8]) {
        let mut b = [0u8; 40];
        for (d, c) in b.iter_mut().zip(s) {
            *d = *c;
        }
        self.0.extend(b);
    }

    fn lstr(&mut self, s: &[u8]) {
        self.count(s.len());
        self.0.extend(s);
    }

    /// The first 20 bytes of a face: corners, texture vertices, slot, padding and the two-sided flag.
    /// Scale keys (RSM 1.6, RSM2): count, then frame, scale and the unused trailing float.
    fn scale_keys(&mut self, keys: &[(i32, [f32; 3], f32)]) {
        self.count(keys.len());
        for (frame, s, d) in keys {
            self.i32(*frame);
            self.f32s(s);
            self.f32(*d);
        }
    }

    /// Rotation keys: count, then frame and quaternion x, y, z, w.
    fn rot_keys(&mut self, keys: &[(i32, [f32; 4])]) {
        self.count(keys.len());
        for (frame, q) in keys {
            self.i32(*frame);
            self.f32s(q);
        }
    }

    fn face_body(&mut self, f: &Face) {
        for x in f.vertices.iter().chain(&f.tex_vertices).chain([&f.texture, &f.pad]) {
            self.0.extend(x.to_le_bytes());
        }
        self.i32(f.two_sided);
    }
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

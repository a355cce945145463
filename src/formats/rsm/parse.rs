//! The byte layouts of RSM 1.1–1.6 and RSM2 2.2/2.3 into raw records, with no interpretation beyond what the
//! layout needs. Every count is checked against the bytes left before anything is allocated.

use glam::{Quat, Vec2, Vec3};

use super::layout;
use crate::error::LoadError;
use crate::formats::binread::{Cursor, le_u32};
use crate::scene::{RsmLayout, RsmVolumeBox};

/// A name as stored: the raw bytes (up to the first NUL) and their CP949 decoding.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    pub raw: Vec<u8>,
    pub text: String,
    /// Bytes other than NUL after the terminator (real files leave garbage in fixed-size name fields).
    pub garbage: bool,
}

impl Name {
    fn from_bytes(bytes: &[u8]) -> Name {
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        let raw = bytes[..end].to_vec();
        let (text, _, _) = encoding_rs::EUC_KR.decode(&raw);
        let garbage = bytes[end..].iter().any(|&b| b != 0);
        Name { text: text.into_owned(), raw, garbage }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawFace {
    pub offset: u64,
    pub vertices: [u16; 3],
    pub tex_vertices: [u16; 3],
    pub texture: u16,
    pub two_sided: bool,
    /// One group for RSM1 (0 below 1.2), one to three for RSM2.
    pub groups: Vec<i32>,
}

/// One 2.3 UV-animation channel: texture slot, kind, (frame, value) keys.
pub type UvChannel = (i32, i32, Vec<(i32, f32)>);

#[derive(Debug, Clone, PartialEq)]
pub struct RawNode {
    pub offset: u64,
    pub name: Name,
    pub parent: Name,
    /// Indices into the global texture list (RSM1, 2.2).
    pub texture_indices: Vec<i32>,
    /// The node's own texture names (2.3).
    pub texture_names: Vec<Name>,
    /// Columns: the images of X, Y, Z.
    pub m3: [f32; 9],
    /// RSM1 pivot.
    pub offset_v: Vec3,
    pub pos: Vec3,
    pub rot_angle: f32,
    pub rot_axis: Vec3,
    pub scale: Vec3,
    pub vertices: Vec<Vec3>,
    pub tex_coords: Vec<Vec2>,
    pub faces: Vec<RawFace>,
    pub scale_keys: Vec<(i32, Vec3)>,
    pub rot_keys: Vec<(i32, Quat)>,
    pub pos_keys: Vec<(i32, Vec3)>,
    /// 2.3: (texture slot, kind, keys).
    pub uv_anims: Vec<UvChannel>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawModel {
    pub major: u8,
    pub minor: u8,
    pub anim_len: i32,
    pub shade_type: i32,
    pub alpha: Option<u8>,
    pub fps: Option<f32>,
    pub textures: Vec<Name>,
    /// RSM1: the main node; RSM2: the roots.
    pub roots: Vec<Name>,
    pub nodes: Vec<RawNode>,
    pub model_keys: usize,
    pub volume_boxes: Vec<RsmVolumeBox>,
    /// 2.3 files that end before the volume-box count.
    pub volume_count_missing: bool,
    pub layout: RsmLayout,
    /// Where parsing stopped; bytes after it are trailing.
    pub end: u64,
}

impl RawModel {
    pub fn version(&self) -> u16 {
        layout::code(self.major, self.minor)
    }
}

/// Reads the header's version: (major, minor), erroring on anything rigscope does not read.
pub fn version(data: &[u8]) -> Result<(u8, u8), LoadError> {
    let mut c = Cursor::new(data);
    let magic = c.bytes(4, "magic")?;
    if magic != layout::MAGIC && magic != layout::MAGIC_ALT {
        return Err(LoadError::at(0, format!("magic {:?}: expected \"GRSM\"", String::from_utf8_lossy(magic))));
    }
    let major = c.u8("major version")?;
    let minor = c.u8("minor version")?;
    if !layout::supported(layout::code(major, minor)) {
        return Err(LoadError::at(4, format!("version {major}.{minor}: expected 1.1 to 1.6, 2.2 or 2.3")));
    }
    Ok((major, minor))
}

/// Parses with layout B (RSM1 1.5 with the extra bytes where `extra` says) or, for RSM1 up to 1.5, FJS.
pub fn parse(data: &[u8], layout: RsmLayout) -> Result<RawModel, LoadError> {
    let (major, minor) = version(data)?;
    let mut c = Cursor::new(data);
    c.bytes(layout::HEADER_LEN, "magic and version")?;
    if layout::is_rsm2(layout::code(major, minor)) {
        parse_rsm2(&mut c, major, minor)
    } else {
        parse_rsm1(&mut c, major, minor, layout)
    }
}

fn str40(c: &mut Cursor, what: &str) -> Result<Name, LoadError> {
    Ok(Name::from_bytes(c.bytes(layout::NAME_LEN as u64, what)?))
}

fn lstr(c: &mut Cursor, what: &str) -> Result<Name, LoadError> {
    let n = c.count(1, &format!("{what} length"))?;
    Ok(Name::from_bytes(c.bytes(n as u64, what)?))
}

fn vec3(c: &mut Cursor, what: &str) -> Result<Vec3, LoadError> {
    Ok(Vec3::from_array(c.f32s::<3>(what)?))
}

/// A counted array of fixed-size records, read in one piece: the count was checked against the bytes left,
/// so field decoding below works on a slice known to be long enough.
fn records<'a>(c: &mut Cursor<'a>, size: usize, what: &str) -> Result<Vec<&'a [u8]>, LoadError> {
    let n = c.count(size as u64, what)?;
    let all = c.bytes((n * size) as u64, what)?;
    Ok(all.chunks_exact(size).collect())
}

fn f32_at(b: &[u8], i: usize) -> f32 {
    f32::from_bits(le_u32(b, i))
}

fn i32_at(b: &[u8], i: usize) -> i32 {
    le_u32(b, i) as i32
}

fn vec3_at(b: &[u8], i: usize) -> Vec3 {
    Vec3::new(f32_at(b, i), f32_at(b, i + 4), f32_at(b, i + 8))
}

fn parse_rsm1(c: &mut Cursor, major: u8, minor: u8, file_layout: RsmLayout) -> Result<RawModel, LoadError> {
    let v = layout::code(major, minor);
    let anim_len = c.i32("animLen")?;
    let shade_type = c.i32("shadeType")?;
    let alpha = if layout::has_alpha(v) { Some(c.u8("alpha")?) } else { None };
    c.bytes(layout::RSM1_RESERVED as u64, "reserved header bytes")?;
    let n = c.count(layout::NAME_LEN as u64, "texture")?;
    let mut textures = Vec::with_capacity(n);
    for i in 0..n {
        textures.push(str40(c, &format!("texture {i} name"))?);
    }
    let main = str40(c, "main node name")?;
    let n = c.count(layout::RSM1_NODE_MIN, "node")?;
    let mut nodes = Vec::with_capacity(n);
    for i in 0..n {
        nodes.push(rsm1_node(c, v, i, file_layout)?);
    }
    if layout::extra_before_block(v, file_layout) {
        c.bytes(layout::EXTRA_1_5 as u64, "1.5 extra bytes (before the model-level block)")?;
    }
    let mut model_keys = 0;
    if let Some(size) = layout::model_key_size(v, file_layout) {
        let size = size as u64;
        model_keys = c.count(size, "model-level key")?;
        c.bytes(model_keys as u64 * size, "model-level keys")?;
    }
    let volume_boxes = volume_boxes(c, v)?;
    if layout::extra_at_end(v, file_layout) {
        c.bytes(layout::EXTRA_1_5 as u64, "1.5 extra bytes (at the end)")?;
    }
    Ok(RawModel {
        major,
        minor,
        anim_len,
        shade_type,
        alpha,
        fps: None,
        textures,
        roots: vec![main],
        nodes,
        model_keys,
        volume_boxes,
        volume_count_missing: false,
        layout: file_layout,
        end: c.pos(),
    })
}

fn volume_boxes(c: &mut Cursor, v: u16) -> Result<Vec<RsmVolumeBox>, LoadError> {
    let with_flag = layout::volume_box_flag(v);
    Ok(records(c, layout::volume_box_size(v), "volume box")?
        .into_iter()
        .map(|b| RsmVolumeBox {
            size: vec3_at(b, 0),
            position: vec3_at(b, 12),
            rotation: vec3_at(b, 24),
            flag: if with_flag { i32_at(b, 36) } else { 0 },
        })
        .collect())
}

fn rsm1_node(c: &mut Cursor, v: u16, i: usize, file_layout: RsmLayout) -> Result<RawNode, LoadError> {
    let offset = c.pos();
    let name = str40(c, &format!("node {i} name"))?;
    let parent = str40(c, &format!("node {i} parent name"))?;
    let what = format!("node {i} \"{}\"", name.text);
    let texture_indices = records(c, 4, &format!("{what} texture index"))?.iter().map(|b| i32_at(b, 0)).collect();
    let m3 = c.f32s::<9>(&format!("{what} matrix"))?;
    let offset_v = vec3(c, &format!("{what} offset"))?;
    let pos = vec3(c, &format!("{what} position"))?;
    let rot_angle = c.f32(&format!("{what} rotation angle"))?;
    let rot_axis = vec3(c, &format!("{what} rotation axis"))?;
    let scale = vec3(c, &format!("{what} scale"))?;
    let vertices = vertices(c, &what)?;
    let tv_size = layout::rsm1_tex_vertex_size(v);
    let skip = tv_size - 8;
    let tex_coords = records(c, tv_size, &format!("{what} texture vertex"))?
        .iter()
        .map(|b| Vec2::new(f32_at(b, skip), f32_at(b, skip + 4)))
        .collect();
    let face_size = layout::rsm1_face_size(v);
    let face_start = c.pos();
    let face_records = records(c, face_size, &format!("{what} face"))?;
    let mut faces = Vec::with_capacity(face_records.len());
    for (f, b) in face_records.into_iter().enumerate() {
        let at = face_start + 4 + (f * face_size) as u64;
        let u = |k: usize| u16::from_le_bytes([b[2 * k], b[2 * k + 1]]);
        let i = |k: usize| i32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
        let groups = if layout::has_colour_and_group(v) { vec![i(layout::FACE_BODY)] } else { vec![0] };
        faces.push(RawFace {
            offset: at,
            vertices: [u(0), u(1), u(2)],
            tex_vertices: [u(3), u(4), u(5)],
            texture: u(6),
            two_sided: i(16) != 0,
            groups,
        });
    }
    let scale_keys = if layout::has_scale_keys(v) { scale_keys(c, &what)? } else { Vec::new() };
    let rot_keys = rot_keys(c, &what)?;
    let pos_keys = if layout::has_fjs_pos_keys(v, file_layout) {
        frame_vec3_keys(c, layout::FJS_POS_KEY, &format!("{what} position key (FJS)"))?
    } else {
        Vec::new()
    };
    Ok(RawNode {
        offset,
        name,
        parent,
        texture_indices,
        texture_names: Vec::new(),
        m3,
        offset_v,
        pos,
        rot_angle,
        rot_axis,
        scale,
        vertices,
        tex_coords,
        faces,
        scale_keys,
        rot_keys,
        pos_keys,
        uv_anims: Vec::new(),
    })
}

fn vertices(c: &mut Cursor, what: &str) -> Result<Vec<Vec3>, LoadError> {
    Ok(records(c, 12, &format!("{what} vertex"))?.iter().map(|b| vec3_at(b, 0)).collect())
}

/// Keys of `size` bytes starting with a frame and a vec3 (the rest ignored).
fn frame_vec3_keys(c: &mut Cursor, size: usize, what: &str) -> Result<Vec<(i32, Vec3)>, LoadError> {
    Ok(records(c, size, what)?.iter().map(|b| (i32_at(b, 0), vec3_at(b, 4))).collect())
}

fn scale_keys(c: &mut Cursor, what: &str) -> Result<Vec<(i32, Vec3)>, LoadError> {
    frame_vec3_keys(c, layout::SCALE_KEY, &format!("{what} scale key"))
}

fn rot_keys(c: &mut Cursor, what: &str) -> Result<Vec<(i32, Quat)>, LoadError> {
    Ok(records(c, layout::ROT_KEY, &format!("{what} rotation key"))?
        .iter()
        .map(|b| (i32_at(b, 0), Quat::from_xyzw(f32_at(b, 4), f32_at(b, 8), f32_at(b, 12), f32_at(b, 16))))
        .collect())
}

fn parse_rsm2(c: &mut Cursor, major: u8, minor: u8) -> Result<RawModel, LoadError> {
    let v = layout::code(major, minor);
    let anim_len = c.i32("animLen")?;
    let shade_type = c.i32("shadeType")?;
    // Every RSM2 version has both (see `layout::has_alpha`).
    let alpha = Some(c.u8("alpha")?);
    let fps = Some(c.f32("fps")?);
    let mut textures = Vec::new();
    if layout::has_rsm2_texture_list(v) {
        let n = c.count(4, "texture")?;
        textures.reserve(n);
        for i in 0..n {
            textures.push(lstr(c, &format!("texture {i} name"))?);
        }
    }
    let n = c.count(4, "root name")?;
    let mut roots = Vec::with_capacity(n);
    for i in 0..n {
        roots.push(lstr(c, &format!("root {i} name"))?);
    }
    let n = c.count(layout::RSM2_NODE_MIN, "node")?;
    let mut nodes = Vec::with_capacity(n);
    for i in 0..n {
        nodes.push(rsm2_node(c, v, i)?);
    }
    let (volume_boxes, volume_count_missing) = if layout::volume_count_optional(v) && c.remaining() < 4 {
        (Vec::new(), true)
    } else {
        (volume_boxes(c, v)?, false)
    };
    Ok(RawModel {
        major,
        minor,
        anim_len,
        shade_type,
        alpha,
        fps,
        textures,
        roots,
        nodes,
        model_keys: 0,
        volume_boxes,
        volume_count_missing,
        layout: RsmLayout::B,
        end: c.pos(),
    })
}

fn rsm2_node(c: &mut Cursor, v: u16, i: usize) -> Result<RawNode, LoadError> {
    let offset = c.pos();
    let name = lstr(c, &format!("node {i} name"))?;
    let parent = lstr(c, &format!("node {i} parent name"))?;
    let what = format!("node {i} \"{}\"", name.text);
    let mut texture_indices = Vec::new();
    let mut texture_names = Vec::new();
    if layout::node_texture_names(v) {
        let n = c.count(4, &format!("{what} texture name"))?;
        texture_names.reserve(n);
        for t in 0..n {
            texture_names.push(lstr(c, &format!("{what} texture {t} name"))?);
        }
    } else {
        texture_indices = records(c, 4, &format!("{what} texture index"))?.iter().map(|b| i32_at(b, 0)).collect();
    }
    let m3 = c.f32s::<9>(&format!("{what} matrix"))?;
    let pos = vec3(c, &format!("{what} position"))?;
    let vertices = vertices(c, &what)?;
    let tex_coords = records(c, 12, &format!("{what} texture vertex"))?
        .iter()
        .map(|b| Vec2::new(f32_at(b, 4), f32_at(b, 8)))
        .collect();
    let n = c.count((layout::FACE_BODY + layout::FACE_GROUP) as u64, &format!("{what} face"))?;
    let mut faces = Vec::with_capacity(n);
    let face_what = format!("{what} face");
    for f in 0..n {
        let at = c.pos();
        let len = c.i32(&face_what)?;
        if !layout::rsm2_face_len_ok(len) {
            return Err(LoadError::at(
                at,
                format!("{what} face {f} length {len}: expected 24, 28 or 32 (20 B + 4 B per smoothing group)"),
            ));
        }
        let b = c.bytes(len as u64, &face_what)?;
        let u = |k: usize| u16::from_le_bytes([b[2 * k], b[2 * k + 1]]);
        let i = |k: usize| i32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
        let body = layout::FACE_BODY;
        let groups =
            (0..(len as usize - body) / layout::FACE_GROUP).map(|g| i(body + layout::FACE_GROUP * g)).collect();
        faces.push(RawFace {
            offset: at,
            vertices: [u(0), u(1), u(2)],
            tex_vertices: [u(3), u(4), u(5)],
            texture: u(6),
            two_sided: i(16) != 0,
            groups,
        });
    }
    let scale_keys = scale_keys(c, &what)?;
    let rot_keys = rot_keys(c, &what)?;
    let pos_keys = frame_vec3_keys(c, layout::RSM2_POS_KEY, &format!("{what} position key"))?;
    let mut uv_anims = Vec::new();
    if layout::has_uv_animations(v) {
        let n = c.count(8, &format!("{what} UV-animated texture"))?;
        for _ in 0..n {
            let slot = c.i32(&format!("{what} UV animation texture slot"))?;
            let kinds = c.count(8, &format!("{what} UV animation type"))?;
            for _ in 0..kinds {
                let kind = c.i32(&format!("{what} UV animation type"))?;
                let keys = records(c, layout::UV_KEY, &format!("{what} UV animation key"))?
                    .iter()
                    .map(|b| (i32_at(b, 0), f32_at(b, 4)))
                    .collect();
                uv_anims.push((slot, kind, keys));
            }
        }
    }
    Ok(RawNode {
        offset,
        name,
        parent,
        texture_indices,
        texture_names,
        m3,
        offset_v: Vec3::ZERO,
        pos,
        rot_angle: 0.0,
        rot_axis: Vec3::ZERO,
        scale: Vec3::ONE,
        vertices,
        tex_coords,
        faces,
        scale_keys,
        rot_keys,
        pos_keys,
        uv_anims,
    })
}

//! The byte layouts of RSM 1.1–1.6 and RSM2 2.2/2.3 into raw records, with no interpretation beyond what the
//! layout needs. Every count is checked against the bytes left before anything is allocated.

use glam::{Quat, Vec2, Vec3};

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
        u16::from(self.major) << 8 | u16::from(self.minor)
    }
}

/// The magic every RSM file starts with.
pub const MAGIC: &[u8; 4] = b"GRSM";

/// Reads the header's version: (major, minor), erroring on anything rigscope does not read.
pub fn version(data: &[u8]) -> Result<(u8, u8), LoadError> {
    let mut c = Cursor::new(data);
    let magic = c.bytes(4, "magic")?;
    if magic != MAGIC && magic != b"GRSX" {
        return Err(LoadError::at(0, format!("magic {:?}: expected \"GRSM\"", String::from_utf8_lossy(magic))));
    }
    let major = c.u8("major version")?;
    let minor = c.u8("minor version")?;
    let v = u16::from(major) << 8 | u16::from(minor);
    if !(0x101..=0x106).contains(&v) && !(0x202..=0x203).contains(&v) {
        return Err(LoadError::at(4, format!("version {major}.{minor}: expected 1.1 to 1.6, 2.2 or 2.3")));
    }
    Ok((major, minor))
}

/// Parses with layout B (RSM1 1.5 with the extra bytes where `extra` says) or, for RSM1 up to 1.5, FJS.
pub fn parse(data: &[u8], layout: RsmLayout) -> Result<RawModel, LoadError> {
    let (major, minor) = version(data)?;
    let v = u16::from(major) << 8 | u16::from(minor);
    let mut c = Cursor::new(data);
    c.bytes(6, "magic and version")?;
    if v >= 0x202 { parse_rsm2(&mut c, major, minor) } else { parse_rsm1(&mut c, major, minor, layout) }
}

fn str40(c: &mut Cursor, what: &str) -> Result<Name, LoadError> {
    Ok(Name::from_bytes(c.bytes(40, what)?))
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

fn parse_rsm1(c: &mut Cursor, major: u8, minor: u8, layout: RsmLayout) -> Result<RawModel, LoadError> {
    let v = u16::from(major) << 8 | u16::from(minor);
    let fjs = layout == RsmLayout::Fjs;
    let anim_len = c.i32("animLen")?;
    let shade_type = c.i32("shadeType")?;
    let alpha = if v >= 0x104 { Some(c.u8("alpha")?) } else { None };
    c.bytes(16, "reserved header bytes")?;
    let n = c.count(40, "texture")?;
    let mut textures = Vec::with_capacity(n);
    for i in 0..n {
        textures.push(str40(c, &format!("texture {i} name"))?);
    }
    let main = str40(c, "main node name")?;
    // A node is at least 80 B of names, 88 B of transform and four counts.
    let n = c.count(184, "node")?;
    let mut nodes = Vec::with_capacity(n);
    for i in 0..n {
        nodes.push(rsm1_node(c, v, i, fjs)?);
    }
    let extra_before = !fjs && v == 0x105 && layout == RsmLayout::BExtraBeforeBlock;
    if extra_before {
        c.bytes(4, "1.5 extra bytes (before the model-level block)")?;
    }
    let mut model_keys = 0;
    // FJS: 16-byte model-level keys below 1.5 and none in 1.5; layout B: 20-byte keys below 1.6.
    let block = if fjs { (v < 0x105).then_some(16) } else { (v < 0x106).then_some(20) };
    if let Some(size) = block {
        model_keys = c.count(size, "model-level key")?;
        c.bytes(model_keys as u64 * size, "model-level keys")?;
    }
    let volume_boxes = volume_boxes(c, v >= 0x103)?;
    if !fjs && v == 0x105 && layout == RsmLayout::B {
        c.bytes(4, "1.5 extra bytes (at the end)")?;
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
        layout,
        end: c.pos(),
    })
}

fn volume_boxes(c: &mut Cursor, with_flag: bool) -> Result<Vec<RsmVolumeBox>, LoadError> {
    let size = if with_flag { 40 } else { 36 };
    Ok(records(c, size, "volume box")?
        .into_iter()
        .map(|b| RsmVolumeBox {
            size: vec3_at(b, 0),
            position: vec3_at(b, 12),
            rotation: vec3_at(b, 24),
            flag: if with_flag { i32_at(b, 36) } else { 0 },
        })
        .collect())
}

fn rsm1_node(c: &mut Cursor, v: u16, i: usize, fjs: bool) -> Result<RawNode, LoadError> {
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
    let tv_size = if v >= 0x102 { 12 } else { 8 };
    let skip = tv_size - 8;
    let tex_coords = records(c, tv_size, &format!("{what} texture vertex"))?
        .iter()
        .map(|b| Vec2::new(f32_at(b, skip), f32_at(b, skip + 4)))
        .collect();
    let face_size = if v >= 0x102 { 24 } else { 20 };
    let face_start = c.pos();
    let face_records = records(c, face_size, &format!("{what} face"))?;
    let mut faces = Vec::with_capacity(face_records.len());
    for (f, b) in face_records.into_iter().enumerate() {
        let at = face_start + 4 + (f * face_size) as u64;
        let u = |k: usize| u16::from_le_bytes([b[2 * k], b[2 * k + 1]]);
        let i = |k: usize| i32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
        let groups = if v >= 0x102 { vec![i(20)] } else { vec![0] };
        faces.push(RawFace {
            offset: at,
            vertices: [u(0), u(1), u(2)],
            tex_vertices: [u(3), u(4), u(5)],
            texture: u(6),
            two_sided: i(16) != 0,
            groups,
        });
    }
    let scale_keys = if v >= 0x106 { frame_vec3_keys(c, 20, &format!("{what} scale key"))? } else { Vec::new() };
    let rot_keys = rot_keys(c, &what)?;
    let pos_keys =
        if fjs && v >= 0x105 { frame_vec3_keys(c, 16, &format!("{what} position key (FJS)"))? } else { Vec::new() };
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

fn rot_keys(c: &mut Cursor, what: &str) -> Result<Vec<(i32, Quat)>, LoadError> {
    Ok(records(c, 20, &format!("{what} rotation key"))?
        .iter()
        .map(|b| (i32_at(b, 0), Quat::from_xyzw(f32_at(b, 4), f32_at(b, 8), f32_at(b, 12), f32_at(b, 16))))
        .collect())
}

fn parse_rsm2(c: &mut Cursor, major: u8, minor: u8) -> Result<RawModel, LoadError> {
    let v = u16::from(major) << 8 | u16::from(minor);
    let anim_len = c.i32("animLen")?;
    let shade_type = c.i32("shadeType")?;
    let alpha = Some(c.u8("alpha")?);
    let fps = Some(c.f32("fps")?);
    let mut textures = Vec::new();
    if v == 0x202 {
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
    // Two name lengths, a texture count, 48 B of matrix and position, six counts.
    let n = c.count(84, "node")?;
    let mut nodes = Vec::with_capacity(n);
    for i in 0..n {
        nodes.push(rsm2_node(c, v, i)?);
    }
    let (volume_boxes, volume_count_missing) =
        if v >= 0x203 && c.remaining() < 4 { (Vec::new(), true) } else { (volume_boxes(c, true)?, false) };
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
    if v >= 0x203 {
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
    let n = c.count(24, &format!("{what} face"))?;
    let mut faces = Vec::with_capacity(n);
    let face_what = format!("{what} face");
    for f in 0..n {
        let at = c.pos();
        let len = c.i32(&face_what)?;
        if !(20..=32).contains(&len) || len % 4 != 0 {
            return Err(LoadError::at(
                at,
                format!("{what} face {f} length {len}: expected 24, 28 or 32 (20 B + 4 B per smoothing group)"),
            ));
        }
        let b = c.bytes(len as u64, &face_what)?;
        let u = |k: usize| u16::from_le_bytes([b[2 * k], b[2 * k + 1]]);
        let i = |k: usize| i32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
        let groups = (0..(len as usize - 20) / 4).map(|g| i(20 + 4 * g)).collect();
        faces.push(RawFace {
            offset: at,
            vertices: [u(0), u(1), u(2)],
            tex_vertices: [u(3), u(4), u(5)],
            texture: u(6),
            two_sided: i(16) != 0,
            groups,
        });
    }
    let scale_keys = frame_vec3_keys(c, 20, &format!("{what} scale key"))?;
    let rot_keys = rot_keys(c, &what)?;
    let pos_keys = frame_vec3_keys(c, 20, &format!("{what} position key"))?;
    let mut uv_anims = Vec::new();
    if v >= 0x203 {
        let n = c.count(8, &format!("{what} UV-animated texture"))?;
        for _ in 0..n {
            let slot = c.i32(&format!("{what} UV animation texture slot"))?;
            let kinds = c.count(8, &format!("{what} UV animation type"))?;
            for _ in 0..kinds {
                let kind = c.i32(&format!("{what} UV animation type"))?;
                let keys = records(c, 8, &format!("{what} UV animation key"))?
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

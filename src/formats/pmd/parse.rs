//! The PMD byte layout: fixed-size records with Shift-JIS (cp932) names, then the optional English, toon and
//! physics extensions, each present only when the file goes on.

use glam::{Vec2, Vec3, Vec4};

use crate::error::LoadError;
use crate::formats::binread::Cursor;
use crate::scene::{PhysicsJoint, RigidBody};

pub const MAGIC: &[u8; 3] = b"Pmd";

/// A fixed-width cp932 string, cut at the first NUL.
pub fn sjis(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    encoding_rs::SHIFT_JIS.decode_without_bom_handling(&b[..end]).0.into_owned()
}

fn text(c: &mut Cursor, n: u64, what: &str) -> Result<String, LoadError> {
    Ok(sjis(c.bytes(n, what)?))
}

fn vec3(c: &mut Cursor, what: &str) -> Result<Vec3, LoadError> {
    Ok(Vec3::from_array(c.f32s::<3>(what)?))
}

/// A u32 (or u16, u8) element count checked against the bytes left.
fn count(c: &mut Cursor, width: u8, size: u64, what: &str) -> Result<usize, LoadError> {
    let at = c.pos();
    let n = match width {
        1 => u64::from(c.u8(&format!("{what} count"))?),
        2 => u64::from(c.u16(&format!("{what} count"))?),
        _ => u64::from(c.u32(&format!("{what} count"))?),
    };
    if n.saturating_mul(size) > c.remaining() {
        return Err(LoadError::at(
            at,
            format!(
                "{what} count {n}: expected at most {} ({size} B each, {} B left)",
                c.remaining() / size.max(1),
                c.remaining()
            ),
        ));
    }
    Ok(n as usize)
}

pub struct RawVertex {
    pub position: Vec3,
    pub normal: Vec3,
    pub uv: Vec2,
    pub bones: [u16; 2],
    /// Weight of the first bone, 0–100.
    pub weight: u8,
    /// 0 draws the edge, 1 does not.
    pub no_edge: u8,
}

pub struct RawMaterial {
    pub offset: u64,
    pub diffuse: Vec4,
    pub specular_power: f32,
    pub specular: Vec3,
    pub ambient: Vec3,
    pub toon: u8,
    pub edge: u8,
    pub indices: u32,
    pub texture: String,
}

pub struct RawBone {
    pub offset: u64,
    pub name: String,
    pub parent: u16,
    pub tail: u16,
    pub kind: u8,
    pub ik: u16,
    pub position: Vec3,
}

pub struct RawIk {
    pub offset: u64,
    pub bone: u16,
    pub target: u16,
    pub iterations: u16,
    pub limit: f32,
    pub links: Vec<u16>,
}

pub struct RawSkin {
    pub offset: u64,
    pub name: String,
    pub kind: u8,
    pub entries: Vec<(u32, Vec3)>,
}

pub struct RawModel {
    pub version: f32,
    pub name: String,
    pub comment: String,
    pub vertices: Vec<RawVertex>,
    pub faces_at: u64,
    pub faces: Vec<u16>,
    pub materials: Vec<RawMaterial>,
    pub bones: Vec<RawBone>,
    pub iks: Vec<RawIk>,
    pub skins: Vec<RawSkin>,
    pub skin_list: Vec<u16>,
    pub frame_names: Vec<String>,
    /// Bone index and 1-based frame.
    pub frame_bones: Vec<(u16, u8)>,
    pub english: Option<English>,
    pub toons: Option<Vec<String>>,
    pub rigid_bodies: Vec<RigidBody>,
    pub joints: Vec<PhysicsJoint>,
}

pub struct English {
    pub name: String,
    pub comment: String,
    pub bones: Vec<String>,
    /// Skins after the base.
    pub skins: Vec<String>,
    pub frames: Vec<String>,
}

/// `n` records read one after the other by `read` (given the cursor and the record's index).
fn records<T>(
    c: &mut Cursor,
    n: usize,
    mut read: impl FnMut(&mut Cursor, usize) -> Result<T, LoadError>,
) -> Result<Vec<T>, LoadError> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(read(c, i)?);
    }
    Ok(out)
}

pub fn parse(data: &[u8]) -> Result<RawModel, LoadError> {
    let mut c = Cursor::new(data);
    if c.bytes(3, "PMD magic")? != MAGIC {
        return Err(LoadError::at(0, "not a PMD file: it does not start with \"Pmd\""));
    }
    let version = c.f32("PMD version")?;
    let name = text(&mut c, 20, "model name")?;
    let comment = text(&mut c, 256, "comment")?;
    let n = count(&mut c, 4, 38, "vertex")?;
    let vertices = records(&mut c, n, vertex)?;
    let (faces_at, faces) = faces(&mut c)?;
    let n = count(&mut c, 4, 70, "material")?;
    let materials = records(&mut c, n, material)?;
    let n = count(&mut c, 2, 39, "bone")?;
    let bones = records(&mut c, n, bone)?;
    let n = count(&mut c, 2, 11, "IK")?;
    let iks = records(&mut c, n, ik)?;
    let n = count(&mut c, 2, 25, "skin")?;
    let skins = records(&mut c, n, skin)?;
    let n = count(&mut c, 1, 2, "skin display")?;
    let skin_list = records(&mut c, n, |c, _| c.u16("skin display index"))?;
    let n = count(&mut c, 1, 50, "bone display name")?;
    let frame_names = records(&mut c, n, |c, i| text(c, 50, &format!("bone display name {i}")))?;
    let n = count(&mut c, 4, 3, "bone display")?;
    let frame_bones = records(&mut c, n, |c, _| Ok((c.u16("bone display bone")?, c.u8("bone display frame")?)))?;

    // Extensions: each present only when the file goes on.
    let english = english(&mut c, bones.len(), skins.len(), frame_names.len())?;
    let mut toons = None;
    if c.remaining() > 0 {
        toons = Some(records(&mut c, 10, |c, i| text(c, 100, &format!("toon texture {i}")))?);
    }
    let (rigid_bodies, joints) = if c.remaining() > 0 { physics(&mut c)? } else { Default::default() };
    if c.remaining() > 0 {
        return Err(LoadError::at(
            c.pos(),
            format!("{} bytes after the joints: expected the end of the file", c.remaining()),
        ));
    }
    Ok(RawModel {
        version,
        name,
        comment,
        vertices,
        faces_at,
        faces,
        materials,
        bones,
        iks,
        skins,
        skin_list,
        frame_names,
        frame_bones,
        english,
        toons,
        rigid_bodies,
        joints,
    })
}

/// One vertex; fields are read with fixed labels and the vertex named only on error (formatting a label per
/// field cost more than the reading itself).
fn vertex(c: &mut Cursor, i: usize) -> Result<RawVertex, LoadError> {
    let read = |c: &mut Cursor| -> Result<RawVertex, LoadError> {
        let f = c.f32s::<8>("position, normal and uv")?;
        let bones = [c.u16("bone")?, c.u16("bone")?];
        Ok(RawVertex {
            position: Vec3::new(f[0], f[1], f[2]),
            normal: Vec3::new(f[3], f[4], f[5]),
            uv: Vec2::new(f[6], f[7]),
            bones,
            weight: c.u8("weight")?,
            no_edge: c.u8("edge flag")?,
        })
    };
    read(c).map_err(|mut e| {
        e.message = format!("vertex {i} {}", e.message);
        e
    })
}

/// The face index list and where it starts.
fn faces(c: &mut Cursor) -> Result<(u64, Vec<u16>), LoadError> {
    let faces_at = c.pos();
    let n = count(c, 4, 2, "face index")?;
    if n % 3 != 0 {
        return Err(LoadError::at(faces_at, format!("face index count {n}: expected a multiple of 3")));
    }
    Ok((faces_at, records(c, n, |c, _| c.u16("face vertex index"))?))
}

fn material(c: &mut Cursor, i: usize) -> Result<RawMaterial, LoadError> {
    let offset = c.pos();
    let f = c.f32s::<11>(&format!("material {i} colours"))?;
    Ok(RawMaterial {
        offset,
        diffuse: Vec4::new(f[0], f[1], f[2], f[3]),
        specular_power: f[4],
        specular: Vec3::new(f[5], f[6], f[7]),
        ambient: Vec3::new(f[8], f[9], f[10]),
        toon: c.u8(&format!("material {i} toon index"))?,
        edge: c.u8(&format!("material {i} edge flag"))?,
        indices: c.u32(&format!("material {i} face index count"))?,
        texture: text(c, 20, &format!("material {i} texture"))?,
    })
}

fn bone(c: &mut Cursor, i: usize) -> Result<RawBone, LoadError> {
    Ok(RawBone {
        offset: c.pos(),
        name: text(c, 20, &format!("bone {i} name"))?,
        parent: c.u16(&format!("bone {i} parent"))?,
        tail: c.u16(&format!("bone {i} tail"))?,
        kind: c.u8(&format!("bone {i} kind"))?,
        ik: c.u16(&format!("bone {i} IK bone"))?,
        position: vec3(c, &format!("bone {i} position"))?,
    })
}

fn ik(c: &mut Cursor, i: usize) -> Result<RawIk, LoadError> {
    let offset = c.pos();
    let bone = c.u16(&format!("IK {i} bone"))?;
    let target = c.u16(&format!("IK {i} target"))?;
    let links = count(c, 1, 2, &format!("IK {i} link"))?;
    let iterations = c.u16(&format!("IK {i} iterations"))?;
    let limit = c.f32(&format!("IK {i} limit"))?;
    let links = records(c, links, |c, k| c.u16(&format!("IK {i} link {k}")))?;
    Ok(RawIk { offset, bone, target, iterations, limit, links })
}

fn skin(c: &mut Cursor, i: usize) -> Result<RawSkin, LoadError> {
    let offset = c.pos();
    let name = text(c, 20, &format!("skin {i} name"))?;
    let m = count(c, 4, 16, &format!("skin {i} vertex"))?;
    let kind = c.u8(&format!("skin {i} kind"))?;
    let entries = records(c, m, |c, _| {
        let v = c.u32(&format!("skin {i} vertex index"))?;
        Ok((v, vec3(c, &format!("skin {i} offset"))?))
    })?;
    Ok(RawSkin { offset, name, kind, entries })
}

/// The English extension, when the file goes on and its flag is set: names for the model, every bone, the skins
/// after the base and the bone display frames.
fn english(c: &mut Cursor, bones: usize, skins: usize, frames: usize) -> Result<Option<English>, LoadError> {
    if c.remaining() == 0 || c.u8("English flag")? == 0 {
        return Ok(None);
    }
    let name = text(c, 20, "English model name")?;
    let comment = text(c, 256, "English comment")?;
    let bones = records(c, bones, |c, i| text(c, 20, &format!("English bone name {i}")))?;
    let skins = records(c, skins.saturating_sub(1), |c, i| text(c, 20, &format!("English skin name {i}")))?;
    let frames = records(c, frames, |c, i| text(c, 50, &format!("English bone display name {i}")))?;
    Ok(Some(English { name, comment, bones, skins, frames }))
}

/// The physics extension: rigid bodies, then joints.
fn physics(c: &mut Cursor) -> Result<(Vec<RigidBody>, Vec<PhysicsJoint>), LoadError> {
    let n = count(c, 4, 83, "rigid body")?;
    let rigid_bodies = records(c, n, rigid_body)?;
    let n = count(c, 4, 124, "joint")?;
    let joints = records(c, n, joint)?;
    Ok((rigid_bodies, joints))
}

fn rigid_body(c: &mut Cursor, i: usize) -> Result<RigidBody, LoadError> {
    let w = |s: &str| format!("rigid body {i} {s}");
    let name = text(c, 20, &w("name"))?;
    let bone = c.u16(&w("bone"))?;
    Ok(RigidBody {
        name,
        name_en: String::new(),
        bone: (bone != 0xFFFF).then_some(usize::from(bone)),
        group: c.u8(&w("group"))?,
        collision_mask: c.u16(&w("collision mask"))?,
        shape: c.u8(&w("shape"))?,
        size: vec3(c, &w("size"))?,
        position: vec3(c, &w("position"))?,
        rotation: vec3(c, &w("rotation"))?,
        mass: c.f32(&w("mass"))?,
        linear_damping: c.f32(&w("linear damping"))?,
        angular_damping: c.f32(&w("angular damping"))?,
        restitution: c.f32(&w("restitution"))?,
        friction: c.f32(&w("friction"))?,
        mode: c.u8(&w("physics mode"))?,
    })
}

fn joint(c: &mut Cursor, i: usize) -> Result<PhysicsJoint, LoadError> {
    let w = |s: &str| format!("joint {i} {s}");
    let name = text(c, 20, &w("name"))?;
    let a = c.u32(&w("rigid body A"))?;
    let b = c.u32(&w("rigid body B"))?;
    Ok(PhysicsJoint {
        name,
        name_en: String::new(),
        kind: 0,
        bodies: [usize::try_from(a).ok(), usize::try_from(b).ok()],
        position: vec3(c, &w("position"))?,
        rotation: vec3(c, &w("rotation"))?,
        translation_min: vec3(c, &w("translation lower limit"))?,
        translation_max: vec3(c, &w("translation upper limit"))?,
        rotation_min: vec3(c, &w("rotation lower limit"))?,
        rotation_max: vec3(c, &w("rotation upper limit"))?,
        spring_translation: vec3(c, &w("translation spring"))?,
        spring_rotation: vec3(c, &w("rotation spring"))?,
    })
}

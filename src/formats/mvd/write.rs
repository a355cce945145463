//! A section-level MVD writer for tests (MVD note §9): every minor type of bone, morph, camera, camera-property,
//! model-property and project sections, light, accessory and effect sections, both encodings, several objects,
//! the sections the reader skips, invented tags and raw bytes for malformed files; any section's item size can
//! be set, smaller or larger than its fields. Not a user feature: it writes what it is told, defects included.

use super::layout::*;
use crate::formats::binwrite::ByteWriter;
use crate::scene::{MvdEffectValue, MvdEncoding};

/// MMD's linear curve (20, 20, 107, 107).
pub const LINEAR: [u8; 4] = [20, 20, 107, 107];

/// A whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct MvdDocument {
    pub version: f32,
    /// The encoding byte: 0 UTF-16LE, 1 UTF-8 (others are written as given and read as UTF-8).
    pub encoding_byte: u8,
    pub objects: Vec<Object>,
    /// Bytes after the last object.
    pub trailing: Vec<u8>,
}

/// One object: a motion, a camera, …
#[derive(Debug, Clone, PartialEq)]
pub struct Object {
    pub name: String,
    pub english_name: String,
    pub key_fps: f32,
    pub sections: Vec<Section>,
    /// False leaves out the EOF marker (a truncated object).
    pub eof: bool,
}

impl Object {
    pub fn new(name: &str, key_fps: f32) -> Object {
        Object { name: name.into(), english_name: String::new(), key_fps, sections: Vec::new(), eof: true }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneFrame {
    pub stage: i32,
    pub time: i64,
    pub position: [f32; 3],
    pub rotation: [f32; 4],
    /// X, Y, Z, rotation curves: x1 y1 x2 y2.
    pub curves: [[u8; 4]; 4],
    pub spline: bool,
}

impl BoneFrame {
    pub fn new(time: i64, position: [f32; 3], rotation: [f32; 4]) -> BoneFrame {
        BoneFrame { stage: 0, time, position, rotation, curves: [LINEAR; 4], spline: false }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MorphFrame {
    pub time: i64,
    pub weight: f32,
    pub curve: [u8; 4],
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraFrame {
    pub stage: i32,
    pub time: i64,
    pub radius: f32,
    pub position: [f32; 3],
    pub angles: [f32; 3],
    pub fov: f32,
    /// Minor 0 and 1.
    pub perspective: bool,
    /// Minor 1.
    pub enabled: bool,
    pub alpha: f32,
    pub effect_enabled: bool,
    /// Minor 3.
    pub spline: bool,
    /// Move, rotation, distance, fov.
    pub curves: [[u8; 4]; 4],
}

impl CameraFrame {
    pub fn new(time: i64, position: [f32; 3], radius: f32, angles: [f32; 3], fov: f32) -> CameraFrame {
        CameraFrame {
            stage: 0,
            time,
            radius,
            position,
            angles,
            fov,
            perspective: true,
            enabled: true,
            alpha: 1.0,
            effect_enabled: true,
            spline: false,
            curves: [LINEAR; 4],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraPropertyFrame {
    pub time: i64,
    pub enabled: bool,
    pub perspective: bool,
    pub alpha: f32,
    pub effect_enabled: bool,
    pub dynamic_fov: bool,
    pub dynamic_fov_rate: f32,
    pub dynamic_fov_coefficient: f32,
    pub related_model: i32,
    pub related_bone: i32,
}

impl CameraPropertyFrame {
    pub fn new(time: i64, perspective: bool) -> CameraPropertyFrame {
        CameraPropertyFrame {
            time,
            enabled: true,
            perspective,
            alpha: 1.0,
            effect_enabled: true,
            dynamic_fov: false,
            dynamic_fov_rate: 0.1,
            dynamic_fov_coefficient: 1.0,
            related_model: -1,
            related_bone: -1,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelPropertyFrame {
    pub time: i64,
    pub visible: bool,
    pub edge_width: f32,
    pub scale: f32,
    pub ik_enabled: Vec<bool>,
    pub relations: Vec<[i32; 3]>,
}

/// A Light frame (24 bytes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightFrame {
    pub time: i64,
    pub position: [f32; 3],
    pub color: [u8; 3],
    pub enabled: bool,
}

impl LightFrame {
    pub fn new(time: i64, position: [f32; 3], color: [u8; 3]) -> LightFrame {
        LightFrame { time, position, color, enabled: true }
    }
}

/// A Project frame: gravity (written at minor ≥ 1) and self-shadow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectFrame {
    pub time: i64,
    pub gravity: f32,
    pub gravity_vector: [f32; 3],
    pub shadow_model: i32,
    pub shadow_distance: f32,
    pub shadow_depth: f32,
}

impl ProjectFrame {
    /// Keystone's defaults: gravity 0.98 along (0, −1, 0), no self-shadow, distance and depth 1.
    pub fn new(time: i64) -> ProjectFrame {
        ProjectFrame {
            time,
            gravity: 0.98,
            gravity_vector: [0.0, -1.0, 0.0],
            shadow_model: 0,
            shadow_distance: 1.0,
            shadow_depth: 1.0,
        }
    }
}

/// An AccessoryProperty frame (28 bytes), also the head of an EffectProperty frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AccessoryFrame {
    pub time: i64,
    pub visible: bool,
    pub shadow: bool,
    pub add_blend: bool,
    pub scale: f32,
    pub alpha: f32,
    pub related_model: i32,
    pub related_bone: i32,
}

impl AccessoryFrame {
    /// Keystone's defaults: visible, scale and alpha 1, following nothing.
    pub fn new(time: i64) -> AccessoryFrame {
        AccessoryFrame {
            time,
            visible: true,
            shadow: false,
            add_blend: false,
            scale: 1.0,
            alpha: 1.0,
            related_model: -1,
            related_bone: -1,
        }
    }
}

/// An EffectProperty frame: the accessory head, then the values, written as given (a bool as one byte, an int
/// as four, floats as four each).
#[derive(Debug, Clone, PartialEq)]
pub struct EffectFrame {
    pub head: AccessoryFrame,
    pub values: Vec<MvdEffectValue>,
}

/// One section. `item_size: None` writes the size the fields take; `Some(n)` writes `n` and pads (or cuts)
/// each item to it.
#[derive(Debug, Clone, PartialEq)]
pub enum Section {
    NameList(Vec<(i32, String)>),
    Bone {
        minor: u8,
        key: i32,
        stage_count: i32,
        parent_clip: i32,
        item_size: Option<i32>,
        frames: Vec<BoneFrame>,
    },
    Morph {
        minor: u8,
        key: i32,
        parent_clip: i32,
        item_size: Option<i32>,
        frames: Vec<MorphFrame>,
    },
    Camera {
        minor: u8,
        key: i32,
        stage_count: i32,
        item_size: Option<i32>,
        frames: Vec<CameraFrame>,
    },
    CameraProperty {
        minor: u8,
        frames: Vec<CameraPropertyFrame>,
    },
    /// `mmm_bug` writes the header itemSize 4 less than the items (minor ≥ 1), as MikuMikuMoving does.
    ModelProperty {
        minor: u8,
        ik_bones: Vec<i32>,
        relations: usize,
        mmm_bug: bool,
        frames: Vec<ModelPropertyFrame>,
    },
    /// Items written field by field under a deliberately wrong header itemSize.
    MotionClip {
        item_size: i32,
        parent_clip: i32,
        time_warp: Vec<Vec<[f32; 2]>>,
    },
    MotionBlend {
        parent_clip: i32,
        clip_a: i32,
        clip_b: i32,
        points: Vec<[f32; 2]>,
    },
    Light {
        minor: u8,
        item_size: Option<i32>,
        frames: Vec<LightFrame>,
    },
    Accessory {
        minor: u8,
        item_size: Option<i32>,
        frames: Vec<AccessoryFrame>,
    },
    /// `parameters` are the ext's (name key, type) pairs.
    Effect {
        minor: u8,
        item_size: Option<i32>,
        parameters: Vec<(i32, i32)>,
        frames: Vec<EffectFrame>,
    },
    /// Gravity is written at minor ≥ 1; at minor 0 the items are 20 bytes (16 without the shadow depth).
    Project {
        minor: u8,
        item_size: Option<i32>,
        frames: Vec<ProjectFrame>,
    },
    /// Filter frames with their tone-curve points, inside a stride large enough for the longest.
    Filter {
        frames: Vec<(i64, Vec<[f32; 2]>)>,
    },
    /// Any header and bytes, as given (invented tags, overflowing counts).
    Raw {
        tag: u8,
        minor: u8,
        key: i32,
        item_size: i32,
        count: i32,
        ext: Vec<u8>,
        items: Vec<u8>,
    },
}

impl MvdDocument {
    pub fn new(encoding: MvdEncoding) -> MvdDocument {
        let encoding_byte = match encoding {
            MvdEncoding::Utf16Le => ENCODING_UTF16LE,
            MvdEncoding::Utf8 => ENCODING_UTF8,
        };
        MvdDocument { version: VERSION, encoding_byte, objects: Vec::new(), trailing: Vec::new() }
    }

    fn utf16(&self) -> bool {
        self.encoding_byte == ENCODING_UTF16LE
    }

    /// The string as the file stores it: byte length, then the bytes.
    pub fn string(&self, s: &str) -> Vec<u8> {
        let mut w = ByteWriter::new();
        self.put_string(&mut w, s);
        w.into_bytes()
    }

    fn put_string(&self, w: &mut ByteWriter, s: &str) {
        if self.utf16() {
            let units: Vec<u16> = s.encode_utf16().collect();
            w.count_i32(2 * units.len());
            for u in units {
                w.u16(u);
            }
        } else {
            w.count_i32(s.len()).bytes(s.as_bytes());
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.fixed(SIGNATURE, SIGNATURE_LEN).f32(self.version).u8(self.encoding_byte);
        for o in &self.objects {
            self.put_string(&mut w, &o.name);
            self.put_string(&mut w, &o.english_name);
            w.f32(o.key_fps);
            // The reserved string, empty.
            w.i32(0);
            for s in &o.sections {
                self.section(s, &mut w);
            }
            if o.eof {
                w.bytes(&EOF_MARKER);
            }
        }
        w.bytes(&self.trailing);
        w.into_bytes()
    }

    fn section(&self, s: &Section, w: &mut ByteWriter) {
        match s {
            Section::NameList(names) => {
                let mut items = ByteWriter::new();
                for (k, n) in names {
                    items.i32(*k);
                    self.put_string(&mut items, n);
                }
                header(w, TAG_NAME_LIST, 0, 0, 0, names.len() as i32, &[], items.as_slice());
            }
            Section::Bone { minor, key, stage_count, parent_clip, item_size, frames } => {
                bone(w, *minor, *key, *stage_count, *parent_clip, *item_size, frames)
            }
            Section::Morph { minor, key, parent_clip, item_size, frames } => {
                let ext = if morph_ext_has_parent_clip(*minor) { i32s(&[*parent_clip]) } else { Vec::new() };
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|f| {
                        item(|b| {
                            b.u64(f.time as u64).f32(f.weight).bytes(&f.curve);
                        })
                    })
                    .collect();
                fixed(w, TAG_MORPH, *minor, *key, item_size.unwrap_or(MORPH_ITEM as i32), &ext, &items);
            }
            Section::Camera { minor, key, stage_count, item_size, frames } => {
                camera(w, *minor, *key, *stage_count, *item_size, frames)
            }
            Section::CameraProperty { minor, frames } => camera_property(w, *minor, frames),
            Section::ModelProperty { minor, ik_bones, relations, mmm_bug, frames } => {
                model_property(w, *minor, ik_bones, *relations, *mmm_bug, frames)
            }
            Section::MotionClip { item_size, parent_clip, time_warp } => {
                let mut items = ByteWriter::new();
                for (i, pts) in time_warp.iter().enumerate() {
                    items.i32(i as i32).f32s(&[0.0, 100.0]).i32(1).f32s(&[1.0, 1.0]).i32(0).i32(pts.len() as i32);
                    points(&mut items, pts);
                }
                let ext = i32s(&[*parent_clip]);
                header(w, TAG_MOTION_CLIP, 0, 0, *item_size, time_warp.len() as i32, &ext, items.as_slice());
            }
            Section::MotionBlend { parent_clip, clip_a, clip_b, points: pts } => {
                let blend = item(|b| {
                    b.bytes(&i32s(&[*clip_a, *clip_b, 0, pts.len() as i32]));
                    points(b, pts);
                });
                let size = blend.len() as i32;
                fixed(w, TAG_MOTION_BLEND, 0, 0, size, &i32s(&[*parent_clip]), &[blend]);
            }
            Section::Light { minor, item_size, frames } => {
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|f| {
                        item(|b| {
                            b.u64(f.time as u64).f32s(&f.position).bytes(&f.color).u8(u8::from(f.enabled));
                        })
                    })
                    .collect();
                fixed(w, TAG_LIGHT, *minor, 0, item_size.unwrap_or(LIGHT_ITEM as i32), &[], &items);
            }
            Section::Accessory { minor, item_size, frames } => {
                let items: Vec<Vec<u8>> = frames.iter().map(|f| item(|b| accessory_head(b, f))).collect();
                let size = item_size.unwrap_or(ACCESSORY_ITEM as i32);
                fixed(w, TAG_ACCESSORY_PROPERTY, *minor, 0, size, &[], &items);
            }
            Section::Effect { minor, item_size, parameters, frames } => {
                effect(w, *minor, *item_size, parameters, frames)
            }
            Section::Project { minor, item_size, frames } => {
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|f| {
                        item(|b| {
                            b.u64(f.time as u64);
                            if project_has_gravity(*minor) {
                                b.f32(f.gravity).f32s(&f.gravity_vector);
                            }
                            b.i32(f.shadow_model).f32(f.shadow_distance).f32(f.shadow_depth);
                        })
                    })
                    .collect();
                let size = item_size.unwrap_or(project_item(*minor) as i32);
                fixed(w, TAG_PROJECT, *minor, 0, size, &[], &items);
            }
            Section::Filter { frames } => {
                let most = frames.iter().map(|f| f.1.len()).max().unwrap_or(0);
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|(t, pts)| {
                        item(|b| {
                            b.u64(*t as u64).i32(0).bytes(&[1, 0, 0, 0]).f32s(&[0.0; 7]).i32(pts.len() as i32);
                            points(b, pts);
                        })
                    })
                    .collect();
                let size = FILTER_ITEM_HEAD as i32 + POINT as i32 * most as i32;
                fixed(w, TAG_FILTER, 0, 0, size, &i32s(&[most as i32]), &items);
            }
            Section::Raw { tag, minor, key, item_size, count, ext, items } => {
                header(w, *tag, *minor, *key, *item_size, *count, ext, items);
            }
        }
    }
}

/// One item's bytes, written by `f`.
fn item(f: impl FnOnce(&mut ByteWriter)) -> Vec<u8> {
    let mut b = ByteWriter::new();
    f(&mut b);
    b.into_bytes()
}

fn i32s(v: &[i32]) -> Vec<u8> {
    item(|b| {
        for x in v {
            b.i32(*x);
        }
    })
}

/// Time-warp, blend or tone-curve points, flattened.
fn points(b: &mut ByteWriter, pts: &[[f32; 2]]) {
    for p in pts {
        b.f32s(p);
    }
}

fn curves(b: &mut ByteWriter, curves: &[[u8; 4]; 4]) {
    for c in curves {
        b.bytes(c);
    }
}

fn bone(
    w: &mut ByteWriter,
    minor: u8,
    key: i32,
    stage_count: i32,
    parent_clip: i32,
    item_size: Option<i32>,
    frames: &[BoneFrame],
) {
    let ext = if bone_ext_has_parent_clip(minor) { i32s(&[stage_count, parent_clip]) } else { i32s(&[stage_count]) };
    let spline = bone_has_spline(minor);
    let items: Vec<Vec<u8>> = frames
        .iter()
        .map(|f| {
            item(|b| {
                b.i32(f.stage).u64(f.time as u64).f32s(&f.position).f32s(&f.rotation);
                curves(b, &f.curves);
                if spline {
                    b.u8(u8::from(f.spline)).zeros(3);
                }
            })
        })
        .collect();
    // The spline flag is written padded to four bytes.
    let natural = BONE_ITEM as i32 + if spline { 4 } else { 0 };
    fixed(w, TAG_BONE, minor, key, item_size.unwrap_or(natural), &ext, &items);
}

fn camera(w: &mut ByteWriter, minor: u8, key: i32, stage_count: i32, item_size: Option<i32>, frames: &[CameraFrame]) {
    let items: Vec<Vec<u8>> = frames
        .iter()
        .map(|f| {
            item(|b| {
                b.i32(f.stage).u64(f.time as u64).f32(f.radius).f32s(&f.position).f32s(&f.angles).f32(f.fov);
                match minor {
                    0 => {
                        b.u8(u8::from(f.perspective));
                    }
                    1 => {
                        b.u8(u8::from(f.enabled)).u8(u8::from(f.perspective)).f32(f.alpha);
                        b.u8(u8::from(f.effect_enabled));
                    }
                    3 => {
                        b.u8(u8::from(f.spline)).zeros(3);
                    }
                    _ => {}
                }
                curves(b, &f.curves);
            })
        })
        .collect();
    // Minors past 3 are written like 2.
    let natural = camera_item(minor).or(camera_item(2)).unwrap_or(0) as i32;
    fixed(w, TAG_CAMERA, minor, key, item_size.unwrap_or(natural), &i32s(&[stage_count]), &items);
}

fn camera_property(w: &mut ByteWriter, minor: u8, frames: &[CameraPropertyFrame]) {
    let items: Vec<Vec<u8>> = frames
        .iter()
        .map(|f| {
            item(|b| {
                b.u64(f.time as u64).u8(u8::from(f.enabled)).u8(u8::from(f.perspective)).f32(f.alpha);
                b.u8(u8::from(f.effect_enabled));
                if camera_property_has_dynamic_fov(minor) {
                    b.u8(u8::from(f.dynamic_fov)).f32(f.dynamic_fov_rate).f32(f.dynamic_fov_coefficient);
                } else {
                    b.u8(0);
                }
                if camera_property_has_related(minor) {
                    b.i32(f.related_model).i32(f.related_bone);
                }
            })
        })
        .collect();
    let size = items.first().map_or(camera_property_item(0) as i32, |i| i.len() as i32);
    // MLTD writes key 1, which names nothing.
    fixed(w, TAG_CAMERA_PROPERTY, minor, 1, size, &[], &items);
}

fn model_property(
    w: &mut ByteWriter,
    minor: u8,
    ik_bones: &[i32],
    relations: usize,
    mmm_bug: bool,
    frames: &[ModelPropertyFrame],
) {
    let mut ext = ByteWriter::new();
    ext.count_i32(ik_bones.len()).bytes(&i32s(ik_bones));
    if model_property_has_relations(minor) {
        ext.count_i32(relations);
    }
    let mut body = ByteWriter::new();
    for f in frames {
        body.u64(f.time as u64).bytes(&[u8::from(f.visible), 1, 0, 1]);
        if model_property_has_still_mode(minor) {
            body.zeros(4);
        }
        body.f32(f.edge_width).bytes(&[255, 0, 0, 0]);
        if model_property_has_scale(minor) {
            body.f32(f.scale);
        }
        for i in 0..ik_bones.len() {
            body.u8(u8::from(f.ik_enabled.get(i).copied().unwrap_or(true)));
        }
        if model_property_has_relations(minor) {
            for i in 0..relations {
                body.bytes(&i32s(&f.relations.get(i).copied().unwrap_or([-1; 3])));
            }
        }
    }
    let real = model_property_item(minor, ik_bones.len() as u64, relations as u64) as i32;
    let declared = if mmm_bug { real - MMM_ITEM_SHORTFALL as i32 } else { real };
    header(w, TAG_MODEL_PROPERTY, minor, 0, declared, frames.len() as i32, ext.as_slice(), body.as_slice());
}

fn accessory_head(b: &mut ByteWriter, f: &AccessoryFrame) {
    b.u64(f.time as u64).bytes(&[u8::from(f.visible), u8::from(f.shadow), u8::from(f.add_blend), 0]);
    b.f32(f.scale).f32(f.alpha).i32(f.related_model).i32(f.related_bone);
}

fn effect(w: &mut ByteWriter, minor: u8, item_size: Option<i32>, parameters: &[(i32, i32)], frames: &[EffectFrame]) {
    let mut ext = ByteWriter::new();
    ext.count_i32(parameters.len());
    for (key, kind) in parameters {
        ext.i32(*key).i32(*kind);
    }
    let items: Vec<Vec<u8>> = frames
        .iter()
        .map(|f| {
            item(|b| {
                accessory_head(b, &f.head);
                for v in &f.values {
                    match v {
                        MvdEffectValue::Bool(x) => b.u8(u8::from(*x)),
                        MvdEffectValue::Int(x) => b.i32(*x),
                        MvdEffectValue::Floats(x) => b.f32s(x),
                    };
                }
            })
        })
        .collect();
    let natural = items.first().map_or(EFFECT_ITEM_HEAD as i32, |i| i.len() as i32);
    fixed(w, TAG_EFFECT_PROPERTY, minor, 0, item_size.unwrap_or(natural), ext.as_slice(), &items);
}

/// Tag, minor, key, itemSize, count, extSize, ext, then the item bytes as given.
#[allow(clippy::too_many_arguments)]
fn header(w: &mut ByteWriter, tag: u8, minor: u8, key: i32, item_size: i32, count: i32, ext: &[u8], items: &[u8]) {
    w.u8(tag).u8(minor).i32(key).i32(item_size).i32(count).i32(ext.len() as i32).bytes(ext).bytes(items);
}

/// A fixed-item section: each item padded with zeros (or cut) to `item_size`.
fn fixed(w: &mut ByteWriter, tag: u8, minor: u8, key: i32, item_size: i32, ext: &[u8], items: &[Vec<u8>]) {
    let size = item_size.max(0) as usize;
    let mut body = ByteWriter::with_capacity(size * items.len());
    for i in items {
        body.fixed(i, size);
    }
    header(w, tag, minor, key, item_size, items.len() as i32, ext, body.as_slice());
}

/// A file with every section kind and minor type the reader knows, in `encoding`, with non-ASCII names:
///
/// - object 0 "ミク motion" at 30 keyFps: a NameList (with stage names under negative keys), bones at minor 0,
///   1 (items padded to 64 B) and 2 (several stages), morphs at minor 0 and 1 (padded), ModelProperty at
///   minor 0–3 (1 and 2 with MikuMikuMoving's short itemSize), a MotionClip with a wrong itemSize, a
///   MotionBlend, accessory keys (unsorted), an effect with float, float3, bool and int parameters, light keys
///   (the second switching it off), project keys (self-shadow on, then gravity doubled and turned to +X), a
///   filter section, and an invented tag 200 with an ext;
/// - object 1 "カメラ00" at 60 keyFps: a minor-3 camera with a cut (keys 1 tick apart) and a second stage, and
///   CameraProperty minor 2;
/// - objects 2–4: cameras at minor 0, 1 and 2 with CameraProperty minor 0 and 1.
pub fn sample_document(encoding: MvdEncoding) -> MvdDocument {
    let mut d = MvdDocument::new(encoding);
    let q90y = [0.0, std::f32::consts::FRAC_1_SQRT_2, 0.0, std::f32::consts::FRAC_1_SQRT_2];
    let id = [0.0, 0.0, 0.0, 1.0];
    let mut m = Object::new("ミク motion", 30.0);
    m.english_name = "Miku motion".into();
    m.sections.push(Section::NameList(vec![
        (0, "センター".into()),
        (1, "右足ＩＫ".into()),
        (2, "頭".into()),
        (3, "まばたき".into()),
        (4, "あ".into()),
        (10, "左足ＩＫ".into()),
        (100, "param".into()),
        (101, "色".into()),
        (102, "on".into()),
        (103, "回数".into()),
        (-1, "レイヤー1".into()),
        (-2002, "layer 2".into()),
    ]));
    let staged = |stage: i32, f: BoneFrame| BoneFrame { stage, ..f };
    m.sections.push(Section::Bone {
        minor: 0,
        key: 0,
        stage_count: 2,
        parent_clip: -1,
        item_size: None,
        frames: vec![
            BoneFrame::new(0, [0.0; 3], id),
            BoneFrame::new(30, [1.0, 2.0, 3.0], q90y),
            staged(1, BoneFrame::new(0, [0.0; 3], id)),
            staged(1, BoneFrame::new(15, [0.0, 1.0, 0.0], id)),
        ],
    });
    m.sections.push(Section::Bone {
        minor: 1,
        key: 1,
        stage_count: 1,
        parent_clip: -1,
        item_size: Some(64),
        frames: vec![
            BoneFrame::new(10, [0.5, 0.0, 0.0], id),
            BoneFrame { spline: true, ..BoneFrame::new(0, [0.0; 3], id) },
        ],
    });
    m.sections.push(Section::Bone {
        minor: 2,
        key: 2,
        stage_count: 3,
        parent_clip: 7,
        item_size: None,
        frames: vec![
            BoneFrame::new(0, [0.0; 3], id),
            staged(2, BoneFrame::new(5, [0.0, 0.0, 1.0], id)),
            BoneFrame::new(20, [0.0; 3], q90y),
        ],
    });
    m.sections.push(Section::Morph {
        minor: 0,
        key: 3,
        parent_clip: 0,
        item_size: None,
        frames: vec![
            MorphFrame { time: 0, weight: 0.0, curve: LINEAR },
            MorphFrame { time: 10, weight: 1.0, curve: LINEAR },
        ],
    });
    m.sections.push(Section::Morph {
        minor: 1,
        key: 4,
        parent_clip: 3,
        item_size: Some(20),
        frames: vec![MorphFrame { time: 5, weight: 0.5, curve: [0, 0, 127, 0] }],
    });
    for (minor, mmm_bug) in [(0, false), (1, true), (2, true), (3, false)] {
        m.sections.push(Section::ModelProperty {
            minor,
            ik_bones: vec![1, 10],
            relations: if minor >= 3 { 1 } else { 0 },
            mmm_bug,
            frames: vec![ModelPropertyFrame {
                time: 0,
                visible: true,
                edge_width: 1.0,
                scale: 1.0,
                ik_enabled: vec![true, false],
                relations: vec![[-1, -1, -1]],
            }],
        });
    }
    m.sections.push(Section::MotionClip {
        item_size: 4,
        parent_clip: 0,
        time_warp: vec![vec![], vec![[0.0, 0.0], [1.0, 1.0]]],
    });
    m.sections.push(Section::MotionBlend { parent_clip: 0, clip_a: 0, clip_b: 1, points: vec![[0.5, 0.5]] });
    sample_properties(&mut m);
    m.sections.push(Section::Filter { frames: vec![(0, vec![]), (10, vec![[0.0, 0.0], [1.0, 1.0]])] });
    m.sections.push(Section::Raw {
        tag: 200,
        minor: 1,
        key: 5,
        item_size: 5,
        count: 2,
        ext: vec![1, 2, 3],
        items: vec![9; 10],
    });
    d.objects.push(m);

    let mut cam = Object::new("カメラ00", 60.0);
    cam.sections.push(Section::NameList(vec![(0, "カメラ".into()), (-1, "カメラ layer".into())]));
    let pi = std::f32::consts::PI;
    let fov = 30f32.to_radians();
    cam.sections.push(Section::Camera {
        minor: 3,
        key: 0,
        stage_count: 2,
        item_size: None,
        frames: vec![
            CameraFrame::new(0, [0.0, 10.0, 0.0], 50.0, [0.0, pi, 0.0], fov),
            CameraFrame::new(60, [0.0, 10.0, 10.0], 50.0, [0.0, pi, 0.0], fov),
            // A cut: one tick after the previous key.
            CameraFrame { spline: true, ..CameraFrame::new(61, [5.0, 0.0, 0.0], 20.0, [0.0, 0.0, 0.0], fov) },
            CameraFrame { stage: 1, ..CameraFrame::new(0, [1.0, 1.0, 1.0], 1.0, [0.0; 3], fov) },
        ],
    });
    cam.sections.push(Section::CameraProperty {
        minor: 2,
        frames: vec![CameraPropertyFrame::new(0, true), CameraPropertyFrame::new(61, false)],
    });
    d.objects.push(cam);

    for minor in 0..3u8 {
        let mut c = Object::new(&format!("cam{minor}"), 30.0);
        c.sections.push(Section::NameList(vec![(7, format!("camera {minor}"))]));
        let frames = vec![
            CameraFrame::new(0, [0.0, 10.0, 0.0], 50.0, [0.0, pi, 0.0], fov),
            CameraFrame { perspective: false, ..CameraFrame::new(30, [0.0, 0.0, 0.0], 40.0, [0.0, pi, 0.0], fov) },
        ];
        c.sections.push(Section::Camera { minor, key: 7, stage_count: 1, item_size: None, frames });
        if minor >= 1 {
            c.sections
                .push(Section::CameraProperty { minor: minor - 1, frames: vec![CameraPropertyFrame::new(15, true)] });
        }
        d.objects.push(c);
    }
    d
}

/// `sample_document`'s accessory keys (unsorted), effect, light and project sections.
fn sample_properties(m: &mut Object) {
    m.sections.push(Section::Accessory {
        minor: 0,
        item_size: None,
        frames: vec![
            AccessoryFrame { shadow: true, scale: 2.0, related_model: 0, related_bone: 2, ..AccessoryFrame::new(10) },
            AccessoryFrame { visible: false, add_blend: true, alpha: 0.25, ..AccessoryFrame::new(0) },
        ],
    });
    m.sections.push(Section::Effect {
        minor: 0,
        item_size: None,
        parameters: vec![(100, EFFECT_FLOAT), (101, EFFECT_FLOAT + 2), (102, EFFECT_BOOL), (103, EFFECT_INT)],
        frames: vec![EffectFrame {
            head: AccessoryFrame { alpha: 0.5, ..AccessoryFrame::new(0) },
            values: vec![
                MvdEffectValue::Floats(vec![0.5]),
                MvdEffectValue::Floats(vec![1.0, 0.5, 0.25]),
                MvdEffectValue::Bool(true),
                MvdEffectValue::Int(-3),
            ],
        }],
    });
    m.sections.push(Section::Light {
        minor: 0,
        item_size: None,
        frames: vec![
            LightFrame::new(0, [-0.5, -1.0, 0.5], [154, 154, 154]),
            LightFrame { enabled: false, ..LightFrame::new(20, [1.0, -1.0, 0.0], [255, 0, 51]) },
        ],
    });
    m.sections.push(Section::Project {
        minor: 1,
        item_size: None,
        frames: vec![
            ProjectFrame { shadow_model: 1, shadow_distance: 8875.0, ..ProjectFrame::new(0) },
            ProjectFrame { gravity: 1.96, gravity_vector: [1.0, 0.0, 0.0], ..ProjectFrame::new(15) },
        ],
    });
}

/// The Light, Project, AccessoryProperty and EffectProperty layouts `sample_document` leaves out, in
/// `encoding`: object "小物" at 30 keyFps with a light at minor 1 with items padded to 32 B, project keys at
/// minor 0 (16-byte items: no shadow depth) and at minor 1 padded to 40 B, accessory keys padded to 30 B, and an
/// effect whose string parameter stops the values read, under a non-ASCII NameList.
pub fn property_document(encoding: MvdEncoding) -> MvdDocument {
    let mut d = MvdDocument::new(encoding);
    let mut o = Object::new("小物", 30.0);
    o.sections.push(Section::NameList(vec![(1, "強さ".into()), (2, "テクスチャ".into())]));
    o.sections.push(Section::Light {
        minor: 1,
        item_size: Some(32),
        frames: vec![
            LightFrame::new(0, [0.0, -1.0, 0.0], [255, 255, 255]),
            LightFrame::new(30, [1.0, 0.0, 0.0], [0; 3]),
        ],
    });
    o.sections.push(Section::Project { minor: 0, item_size: Some(16), frames: vec![ProjectFrame::new(0)] });
    o.sections.push(Section::Project {
        minor: 1,
        item_size: Some(40),
        frames: vec![ProjectFrame::new(0), ProjectFrame { gravity_vector: [0.0, 1.0, 0.0], ..ProjectFrame::new(45) }],
    });
    o.sections.push(Section::Accessory {
        minor: 0,
        item_size: Some(30),
        frames: vec![AccessoryFrame::new(0), AccessoryFrame { visible: false, ..AccessoryFrame::new(60) }],
    });
    o.sections.push(Section::Effect {
        minor: 0,
        item_size: Some(EFFECT_ITEM_HEAD as i32 + 12),
        parameters: vec![(1, EFFECT_FLOAT + 1), (2, EFFECT_STRING)],
        frames: vec![EffectFrame {
            head: AccessoryFrame::new(10),
            values: vec![MvdEffectValue::Floats(vec![0.25, 0.75]), MvdEffectValue::Int(0)],
        }],
    });
    d.objects.push(o);
    d
}

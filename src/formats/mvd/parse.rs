//! The MVD byte layout into raw records (MVD note §1–§3), with no interpretation beyond what the layout needs.
//!
//! Every count is checked against the bytes left before anything is allocated; fixed-item sections are strided
//! by their header's `itemSize` (ModelProperty minor ≥ 1 by `itemSize + 4` when that is what the counts say);
//! NameList and MotionClip are read field by field; Light, Project, AccessoryProperty and EffectProperty items
//! are held to the size their layout takes (smaller is an error, larger is read with a warning); Filter and
//! unknown tags are skipped, an unknown one only when the byte after it starts a known section.

use std::collections::HashMap;

use super::layout::{self, *};
use crate::error::{LoadError, Location, Warning};
use crate::formats::binread::{Cursor, Record};
use crate::scene::{
    MvdAccessoryKey, MvdEffectKey, MvdEffectValue, MvdEncoding, MvdLightKey, MvdMotionBlend, MvdMotionClip,
    MvdProjectKey, MvdSection,
};

/// An interpolation curve as stored: x1, y1, x2, y2 (0–127).
pub type Curve = [u8; 4];

#[derive(Debug, Clone, PartialEq)]
pub struct BoneFrame {
    pub offset: u64,
    pub stage: i32,
    pub time: i64,
    pub position: [f32; 3],
    /// x, y, z, w.
    pub rotation: [f32; 4],
    /// X, Y, Z, rotation.
    pub curves: [Curve; 4],
    /// Minor ≥ 1; shown, not interpreted.
    pub spline: Option<bool>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawBone {
    pub offset: u64,
    pub key: i32,
    pub minor: u8,
    pub stage_count: Option<i32>,
    pub parent_clip: Option<i32>,
    pub frames: Vec<BoneFrame>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MorphFrame {
    pub offset: u64,
    pub time: i64,
    pub weight: f32,
    pub curve: Curve,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawMorph {
    pub offset: u64,
    pub key: i32,
    pub minor: u8,
    pub parent_clip: Option<i32>,
    pub frames: Vec<MorphFrame>,
}

/// Camera properties, from a CameraProperty frame or lifted from a minor 0/1 camera frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraProps {
    pub time: i64,
    pub enabled: bool,
    pub perspective: bool,
    pub alpha: f32,
    pub effect_enabled: bool,
    /// (on, rate, coefficient), minor ≥ 1.
    pub dynamic_fov: Option<(bool, f32, f32)>,
    /// (model, bone), minor 2.
    pub related: Option<(i32, i32)>,
}

impl CameraProps {
    /// Keystone's defaults for what a frame doesn't say.
    fn default_at(time: i64) -> CameraProps {
        CameraProps {
            time,
            enabled: true,
            perspective: true,
            alpha: 1.0,
            effect_enabled: true,
            dynamic_fov: None,
            related: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CameraFrame {
    pub offset: u64,
    pub stage: i32,
    pub time: i64,
    pub radius: f32,
    pub position: [f32; 3],
    pub angles: [f32; 3],
    pub fov: f32,
    /// Minor 0 (perspective only) and minor 1 (enabled, perspective, alpha, effect) carry properties inline.
    pub inline: Option<CameraProps>,
    /// Minor 3.
    pub spline: Option<bool>,
    /// Move, rotation, distance, fov.
    pub curves: [Curve; 4],
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawCamera {
    pub offset: u64,
    pub key: i32,
    pub minor: u8,
    pub stage_count: Option<i32>,
    pub frames: Vec<CameraFrame>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelPropertyFrame {
    pub time: i64,
    pub visible: bool,
    pub shadow: bool,
    pub add_blend: bool,
    pub physics: bool,
    pub physics_still_mode: Option<u8>,
    pub edge_width: f32,
    pub edge_color: [u8; 4],
    pub scale: Option<f32>,
    pub ik_enabled: Vec<bool>,
    /// (external parent key, related model id, related bone id).
    pub relations: Vec<[i32; 3]>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawModelProperty {
    pub offset: u64,
    pub minor: u8,
    pub ik_bones: Vec<i32>,
    /// The stride used: `itemSize` or `itemSize + 4` (the MMM I/O defect).
    pub stride: u64,
    pub frames: Vec<ModelPropertyFrame>,
}

/// An EffectProperty section: its ext's parameters (name key, type) and its keys.
#[derive(Debug, Clone, PartialEq)]
pub struct RawEffect {
    pub offset: u64,
    pub parameters: Vec<(i32, i32)>,
    pub keys: Vec<MvdEffectKey>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawObject {
    pub offset: u64,
    pub name: String,
    pub english_name: String,
    pub key_fps: f32,
    pub sections: Vec<MvdSection>,
    pub names: Vec<(i32, String)>,
    pub bones: Vec<RawBone>,
    pub morphs: Vec<RawMorph>,
    pub cameras: Vec<RawCamera>,
    pub camera_properties: Vec<CameraProps>,
    pub model_properties: Vec<RawModelProperty>,
    pub motion_clips: Vec<MvdMotionClip>,
    pub motion_blends: Vec<MvdMotionBlend>,
    pub lights: Vec<MvdLightKey>,
    pub project: Vec<MvdProjectKey>,
    pub accessory: Vec<MvdAccessoryKey>,
    pub effects: Vec<RawEffect>,
    pub other_keys: usize,
}

impl RawObject {
    /// The NameList map (a later entry with the same key wins).
    pub fn name_map(&self) -> HashMap<i32, String> {
        self.names.iter().cloned().collect()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawFile {
    pub version: f32,
    pub encoding: MvdEncoding,
    pub objects: Vec<RawObject>,
    pub warnings: Vec<Warning>,
}

/// A section item's four curves.
fn curves(f: &mut Record) -> [Curve; 4] {
    std::array::from_fn(|_| f.array::<4>())
}

struct Reader<'a> {
    c: Cursor<'a>,
    encoding: MvdEncoding,
    warnings: Vec<Warning>,
}

/// The section header after tag and minor.
struct Header {
    offset: u64,
    tag: u8,
    minor: u8,
    key: i32,
    item_size: i32,
    count: i32,
}

impl Header {
    fn what(&self) -> String {
        format!(
            "{} section (tag {}, minor {}, key {}) @{}",
            tag_kind(self.tag),
            self.tag,
            self.minor,
            self.key,
            self.offset
        )
    }
}

impl<'a> Reader<'a> {
    fn warn(&mut self, rule: &'static str, offset: u64, message: String) {
        self.warnings.push(Warning { rule, location: Location::Offset(offset), message });
    }

    /// `i32` byte length, then the bytes in the file's encoding. Odd-length UTF-16 is an error; bad sequences
    /// decode lossily with a warning.
    fn string(&mut self, what: &str) -> Result<String, LoadError> {
        let at = self.c.pos();
        let n = self.c.i32(&format!("{what} length"))?;
        if n < 0 {
            return Err(LoadError::at(at, format!("{what}: length {n}: expected 0 or more bytes")));
        }
        let bytes = self.c.bytes(n as u64, what)?;
        match self.encoding {
            MvdEncoding::Utf16Le => {
                if n % 2 != 0 {
                    return Err(LoadError::at(
                        at,
                        format!("{what}: {n} bytes of UTF-16LE: expected an even length (two bytes per unit)"),
                    ));
                }
                let units = bytes.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]]));
                let mut bad = false;
                let s: String = char::decode_utf16(units)
                    .map(|r| {
                        r.unwrap_or_else(|_| {
                            bad = true;
                            char::REPLACEMENT_CHARACTER
                        })
                    })
                    .collect();
                if bad {
                    self.warn("mvd.string.utf16", at, format!("{what}: unpaired UTF-16 surrogate replaced by U+FFFD"));
                }
                Ok(s)
            }
            MvdEncoding::Utf8 => {
                let s = String::from_utf8_lossy(bytes);
                if let std::borrow::Cow::Owned(_) = s {
                    self.warn("mvd.string.utf8", at, format!("{what}: invalid UTF-8 replaced by U+FFFD"));
                }
                Ok(s.into_owned())
            }
        }
    }

    /// Checks that `count` items of `stride` bytes fit in what is left, before anything is allocated.
    fn check_items(&self, h: &Header, stride: u64) -> Result<(), LoadError> {
        let need = (h.count as u64).checked_mul(stride);
        match need {
            Some(n) if n <= self.c.remaining() => Ok(()),
            _ => Err(LoadError::at(
                h.offset,
                format!(
                    "{}: {} items of {stride} B: expected at most {} B of items, only {} B left",
                    h.what(),
                    h.count,
                    need.map_or_else(|| "overflowing".to_string(), |n| n.to_string()),
                    self.c.remaining()
                ),
            )),
        }
    }

    /// The `count` items of a fixed-size section, strided by `stride`, each at least `min` bytes.
    fn items(&mut self, h: &Header, stride: u64, min: u64) -> Result<Vec<(u64, &'a [u8])>, LoadError> {
        if stride < min {
            return Err(LoadError::at(
                h.offset,
                format!("{}: item size {stride} B: expected at least {min} B for minor {}", h.what(), h.minor),
            ));
        }
        self.check_items(h, stride)?;
        let mut out = Vec::with_capacity(h.count as usize);
        for i in 0..h.count {
            let at = self.c.pos();
            out.push((at, self.c.bytes(stride, &format!("{} item {i}", h.what()))?));
        }
        Ok(out)
    }

    /// The items of a section whose layout takes `need` bytes (at least `min`): a smaller itemSize is an error
    /// naming the section; a larger one is read with the extra bytes of each item skipped and, when `exact`, a
    /// warning. A section of no items is not held to a size (writers put 0 there).
    fn sized_items(&mut self, h: &Header, need: u64, min: u64, exact: bool) -> Result<Vec<(u64, &'a [u8])>, LoadError> {
        let size = h.item_size as u64;
        if h.count == 0 {
            return Ok(Vec::new());
        }
        if exact && size > need {
            self.warn(
                "mvd.section.size",
                h.offset,
                format!(
                    "{}: itemSize {size} B: the layout takes {need} B; the other {} B of each item skipped",
                    h.what(),
                    size - need
                ),
            );
        }
        self.items(h, size, min)
    }

    /// Warns when a section's minor is newer than the newest known, which it is read as.
    fn newer_minor(&mut self, h: &Header, newest: u8) {
        if h.minor > newest {
            self.warn(
                "mvd.minor",
                h.offset,
                format!("{}: minor {} is newer than {newest}; read as {newest}", h.what(), h.minor),
            );
        }
    }
}

/// Reads the header and every object.
pub fn parse(data: &[u8]) -> Result<RawFile, LoadError> {
    let mut r = Reader { c: Cursor::new(data), encoding: MvdEncoding::Utf8, warnings: Vec::new() };
    let sig = r.c.bytes(SIGNATURE_LEN as u64, "signature (30 bytes)")?;
    let text = &sig[..sig.iter().position(|&b| b == 0).unwrap_or(sig.len())];
    if text != SIGNATURE {
        return Err(LoadError::at(0, "not an MVD file: expected the signature \"Motion Vector Data file\""));
    }
    let at = r.c.pos();
    let version = r.c.f32("version")?;
    if !VERSIONS.contains(&version) {
        return Err(LoadError::at(at, format!("version {version}: expected 1.0 (at least 1, below 2)")));
    }
    if version != VERSION {
        r.warn("mvd.version", at, format!("version {version}: expected 1.0; read as 1.0"));
    }
    let at = r.c.pos();
    r.encoding = match r.c.u8("encoding")? {
        ENCODING_UTF16LE => MvdEncoding::Utf16Le,
        ENCODING_UTF8 => MvdEncoding::Utf8,
        e => {
            r.warn("mvd.encoding", at, format!("encoding {e}: expected 0 (UTF-16LE) or 1 (UTF-8); read as UTF-8"));
            MvdEncoding::Utf8
        }
    };
    let mut objects = Vec::new();
    loop {
        objects.push(object(&mut r)?);
        match r.c.remaining() {
            0 => break,
            1 => {
                let at = r.c.pos();
                r.warn("mvd.trailing", at, "1 trailing byte after the last object ignored".into());
                break;
            }
            _ => {}
        }
    }
    Ok(RawFile { version, encoding: r.encoding, objects, warnings: r.warnings })
}

fn object(r: &mut Reader) -> Result<RawObject, LoadError> {
    let offset = r.c.pos();
    let mut o = RawObject { offset, ..Default::default() };
    o.name = r.string("object name")?;
    o.english_name = r.string("English object name")?;
    o.key_fps = r.c.f32("keyFps")?;
    let _reserved = r.string("object reserved string")?;
    let oname = o.name.clone();
    let obj = |m: String| format!("object \"{oname}\" @{offset}: {m}");
    loop {
        let at = r.c.pos();
        if r.c.remaining() == 0 {
            return Err(LoadError::at(at, obj("the data ends before the object's EOF marker (tag 255)".into())));
        }
        let tag = r.c.u8("section tag")?;
        let minor = r.c.u8("section minor type").map_err(|e| LoadError::at(e.location_offset(), obj(e.message)))?;
        if tag == TAG_EOF {
            break;
        }
        let mut fields = [0i32; 4];
        for (f, name) in fields.iter_mut().zip(SECTION_FIELDS) {
            let what = format!("{} section (tag {tag}) @{at} header {name}", tag_kind(tag));
            *f = r.c.i32(&what).map_err(|e| LoadError::at(e.location_offset(), obj(e.message)))?;
        }
        let [key, item_size, count, ext_size] = fields;
        let h = Header { offset: at, tag, minor, key, item_size, count };
        // MotionClip's itemSize is known to be wrong (note §2): it is read field by field, whatever it says.
        if count < 0 || ext_size < 0 || (item_size < 0 && tag != TAG_MOTION_CLIP) {
            return Err(LoadError::at(
                at,
                obj(format!(
                    "{}: itemSize {item_size}, count {count}, extSize {ext_size}: expected 0 or more",
                    h.what()
                )),
            ));
        }
        let ext =
            r.c.bytes(ext_size as u64, &format!("{} ext", h.what())).map_err(|e| LoadError::at(at, obj(e.message)))?;
        let read = section(r, &mut o, &h, ext).map_err(|e| LoadError::at(e.location_offset(), obj(e.message)))?;
        if !known_tag(tag) {
            r.warn("mvd.section.unknown", at, obj(format!("unknown section tag {tag} ({count} items) skipped")));
            // A skip is only trusted when it lands on the start of a known section or the EOF marker.
            let next = r.c.pos();
            let mut peek = r.c;
            if let Ok(t) = peek.u8("tag after an unknown section")
                && !known_tag(t)
            {
                return Err(LoadError::at(
                    next,
                    obj(format!(
                        "after skipping unknown section tag {tag} @{at}: expected a known tag or 255 (EOF), found {t}"
                    )),
                ));
            }
        }
        o.sections.push(MvdSection {
            offset: at,
            tag,
            kind: tag_kind(tag),
            minor,
            key,
            name: None,
            item_size,
            count,
            ext_size,
            read,
        });
    }
    let names = o.name_map();
    for s in &mut o.sections {
        if matches!(s.tag, TAG_BONE | TAG_MORPH | TAG_CAMERA) {
            s.name = names.get(&s.key).cloned();
        }
    }
    Ok(o)
}

trait LocationOffset {
    fn location_offset(&self) -> u64;
}

impl LocationOffset for LoadError {
    fn location_offset(&self) -> u64 {
        match self.location {
            Location::Offset(o) => o,
            _ => 0,
        }
    }
}

/// `i32` at `i` of a section's ext, if it has one there.
fn ext_i32(ext: &[u8], i: usize) -> Option<i32> {
    ext.get(4 * i..4 * i + 4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Reads (or skips) one section's items; true when they were read.
fn section(r: &mut Reader, o: &mut RawObject, h: &Header, ext: &[u8]) -> Result<bool, LoadError> {
    match h.tag {
        TAG_NAME_LIST => name_list(r, o, h),
        TAG_BONE => bone_section(r, o, h, ext),
        TAG_MORPH => morph_section(r, o, h, ext),
        TAG_CAMERA => camera_section(r, o, h, ext),
        TAG_CAMERA_PROPERTY => camera_property_section(r, o, h),
        TAG_MODEL_PROPERTY => model_property(r, o, h, ext),
        TAG_MOTION_CLIP => motion_clip_section(r, o, h, ext),
        TAG_MOTION_BLEND => motion_blend_section(r, o, h, ext),
        TAG_LIGHT => light_section(r, o, h),
        TAG_PROJECT => project_section(r, o, h),
        TAG_ACCESSORY_PROPERTY => accessory_section(r, o, h),
        TAG_EFFECT_PROPERTY => effect_section(r, o, h, ext),
        TAG_FILTER => {
            o.other_keys += h.count as usize;
            skip(r, h)
        }
        _ => skip(r, h),
    }
}

/// NameList: keys and names, field by field (items vary in size).
fn name_list(r: &mut Reader, o: &mut RawObject, h: &Header) -> Result<bool, LoadError> {
    // Each item is at least a key and a length.
    r.check_items(h, NAME_LIST_ITEM_MIN)?;
    for i in 0..h.count {
        let key = r.c.i32(&format!("{} name {i} key", h.what()))?;
        let name = r.string(&format!("{} name {i}", h.what()))?;
        o.names.push((key, name));
    }
    Ok(true)
}

/// A bone track: frames strided by itemSize, with the stage count and parent clip from the ext.
fn bone_section(r: &mut Reader, o: &mut RawObject, h: &Header, ext: &[u8]) -> Result<bool, LoadError> {
    let stride = h.item_size as u64;
    let min = bone_item_min(h.minor);
    if h.minor > NEWEST_MINOR {
        r.warn("mvd.minor", h.offset, format!("{}: minor {} is newer than 2; read as 2", h.what(), h.minor));
    }
    let frames = r
        .items(h, stride, min)?
        .into_iter()
        .map(|(offset, b)| {
            let mut f = Record::new(b);
            BoneFrame {
                offset,
                stage: f.i32(),
                time: f.i64(),
                position: f.f32s(),
                rotation: f.f32s(),
                curves: curves(&mut f),
                spline: bone_has_spline(h.minor).then(|| f.bool()),
            }
        })
        .collect();
    o.bones.push(RawBone {
        offset: h.offset,
        key: h.key,
        minor: h.minor,
        stage_count: ext_i32(ext, 0),
        parent_clip: ext_i32(ext, 1),
        frames,
    });
    Ok(true)
}

/// A morph track: weight frames with their curve.
fn morph_section(r: &mut Reader, o: &mut RawObject, h: &Header, ext: &[u8]) -> Result<bool, LoadError> {
    let stride = h.item_size as u64;
    let frames = r
        .items(h, stride, MORPH_ITEM)?
        .into_iter()
        .map(|(offset, b)| {
            let mut f = Record::new(b);
            MorphFrame { offset, time: f.i64(), weight: f.f32(), curve: f.array() }
        })
        .collect();
    o.morphs.push(RawMorph { offset: h.offset, key: h.key, minor: h.minor, parent_clip: ext_i32(ext, 0), frames });
    Ok(true)
}

/// A camera track: frames of the minor's layout (inline properties, spline flag); unknown minors skipped.
fn camera_section(r: &mut Reader, o: &mut RawObject, h: &Header, ext: &[u8]) -> Result<bool, LoadError> {
    let stride = h.item_size as u64;
    let Some(min) = camera_item(h.minor) else {
        r.warn(
            "mvd.minor",
            h.offset,
            format!("{}: camera minor {}: expected 0 to 3; section skipped", h.what(), h.minor),
        );
        return skip(r, h);
    };
    let frames = r
        .items(h, stride, min)?
        .into_iter()
        .map(|(offset, b)| {
            let mut f = Record::new(b);
            let (stage, time, radius) = (f.i32(), f.i64(), f.f32());
            let (position, angles, fov) = (f.f32s(), f.f32s(), f.f32());
            let mut inline = None;
            let mut spline = None;
            match h.minor {
                0 => inline = Some(CameraProps { perspective: f.bool(), ..CameraProps::default_at(time) }),
                1 => {
                    let (enabled, perspective, alpha, effect_enabled) = (f.bool(), f.bool(), f.f32(), f.bool());
                    inline = Some(CameraProps {
                        enabled,
                        perspective,
                        alpha,
                        effect_enabled,
                        ..CameraProps::default_at(time)
                    });
                }
                3 => {
                    spline = Some(f.bool());
                    let _pad: [u8; 3] = f.array();
                }
                _ => {}
            }
            CameraFrame { offset, stage, time, radius, position, angles, fov, inline, spline, curves: curves(&mut f) }
        })
        .collect();
    o.cameras.push(RawCamera { offset: h.offset, key: h.key, minor: h.minor, stage_count: ext_i32(ext, 0), frames });
    Ok(true)
}

/// CameraProperty frames: enabled, perspective, alpha, effect, and the minor's extras.
fn camera_property_section(r: &mut Reader, o: &mut RawObject, h: &Header) -> Result<bool, LoadError> {
    let stride = h.item_size as u64;
    let min = camera_property_item(h.minor);
    if h.minor > NEWEST_MINOR {
        r.warn("mvd.minor", h.offset, format!("{}: minor {} is newer than 2; read as 2", h.what(), h.minor));
    }
    for (_, b) in r.items(h, stride, min)? {
        let mut f = Record::new(b);
        let time = f.i64();
        let (enabled, perspective, alpha, effect_enabled) = (f.bool(), f.bool(), f.f32(), f.bool());
        let mut p = CameraProps { enabled, perspective, alpha, effect_enabled, ..CameraProps::default_at(time) };
        if camera_property_has_dynamic_fov(h.minor) {
            p.dynamic_fov = Some((f.bool(), f.f32(), f.f32()));
        }
        if camera_property_has_related(h.minor) {
            p.related = Some((f.i32(), f.i32()));
        }
        o.camera_properties.push(p);
    }
    Ok(true)
}

/// MotionClip, field by field: MMM writes a wrong itemSize (note §2).
fn motion_clip_section(r: &mut Reader, o: &mut RawObject, h: &Header, ext: &[u8]) -> Result<bool, LoadError> {
    // Field by field: MMM writes a wrong itemSize (note §2). Each item is at least 32 bytes.
    r.check_items(h, MOTION_CLIP_ITEM_MIN)?;
    for i in 0..h.count {
        let what = format!("{} clip {i}", h.what());
        let head = r.c.bytes(MOTION_CLIP_HEAD, &what)?;
        let mut f = Record::new(head);
        let mut clip = MvdMotionClip {
            parent_clip: ext_i32(ext, 0),
            track_index: f.i32(),
            frame_start: f.f32(),
            frame_length: f.f32(),
            repeat_count: f.i32(),
            weight: f.f32(),
            scale: f.f32(),
            time_warp_spline_type: f.i32(),
            time_warp_points: Vec::new(),
        };
        let n = r.c.count(POINT, &format!("{what} time-warp point"))?;
        let pts = r.c.bytes(POINT * n as u64, &what)?;
        clip.time_warp_points = pts
            .chunks_exact(POINT as usize)
            .map(|p| {
                let mut f = Record::new(p);
                [f.f32(), f.f32()]
            })
            .collect();
        o.motion_clips.push(clip);
    }
    Ok(true)
}

/// MotionBlend: the points sit inside itemSize; stride by it, read the fields within.
fn motion_blend_section(r: &mut Reader, o: &mut RawObject, h: &Header, ext: &[u8]) -> Result<bool, LoadError> {
    let stride = h.item_size as u64;
    // The points sit inside itemSize: stride by it, read the fields within.
    for (offset, b) in r.items(h, stride, MOTION_BLEND_HEAD)? {
        let mut f = Record::new(b);
        let (clip_a, clip_b, spline_type, n) = (f.i32(), f.i32(), f.i32(), f.i32());
        let fit = (b.len() - MOTION_BLEND_HEAD as usize) / POINT as usize;
        let take = usize::try_from(n).unwrap_or(0).min(fit);
        if take as i64 != i64::from(n) {
            r.warn(
                "mvd.motion_blend.points",
                offset,
                format!("{}: {n} blend points: the {} B item holds {fit}; {take} read", h.what(), b.len()),
            );
        }
        let blend_points = (0..take).map(|_| [f.f32(), f.f32()]).collect();
        o.motion_blends.push(MvdMotionBlend {
            parent_clip: ext_i32(ext, 0),
            clip_a,
            clip_b,
            spline_type,
            blend_points,
        });
    }
    Ok(true)
}

/// Light (tag 112): `i64 t; f32 position[3]; u8 color[3]; u8 enabled`.
fn light_section(r: &mut Reader, o: &mut RawObject, h: &Header) -> Result<bool, LoadError> {
    r.newer_minor(h, NEWEST_PROPERTY_MINOR);
    for (offset, b) in r.sized_items(h, LIGHT_ITEM, LIGHT_ITEM, true)? {
        let mut f = Record::new(b);
        let time = f.i64();
        o.lights.push(MvdLightKey { offset, time, position: f.f32s(), color: f.array(), enabled: f.bool() });
    }
    Ok(true)
}

/// Project (tag 128): `i64 t`, at minor ≥ 1 `f32 gravity; f32 gravityVector[3]`, then `i32 selfShadowModel;
/// f32 selfShadowDistance; f32 selfShadowDepth` (Keystone reads a minor-0 depth only when its 4 bytes are there).
fn project_section(r: &mut Reader, o: &mut RawObject, h: &Header) -> Result<bool, LoadError> {
    r.newer_minor(h, NEWEST_PROJECT_MINOR);
    let gravity = project_has_gravity(h.minor);
    let need = project_item(h.minor);
    let min = if gravity { need } else { PROJECT_ITEM_MIN_V0 };
    for (offset, b) in r.sized_items(h, need, min, true)? {
        let mut f = Record::new(b);
        let time = f.i64();
        let (gravity, gravity_vector) = if gravity { (Some(f.f32()), Some(f.f32s())) } else { (None, None) };
        let (shadow_model, shadow_distance) = (f.i32(), f.f32());
        let shadow_depth = (b.len() as u64 >= need).then(|| f.f32());
        o.project.push(MvdProjectKey {
            offset,
            time,
            gravity,
            gravity_vector,
            shadow_model,
            shadow_distance,
            shadow_depth,
        });
    }
    Ok(true)
}

/// The 28 bytes an AccessoryProperty frame holds and an EffectProperty frame starts with. Keystone's reader
/// has this flag order for both; its format text swaps shadow and add-blend for effects.
fn accessory_head(offset: u64, f: &mut Record) -> MvdAccessoryKey {
    let time = f.i64();
    let (visible, shadow, add_blend, _reserved) = (f.bool(), f.bool(), f.bool(), f.u8());
    let (scale, alpha, related_model, related_bone) = (f.f32(), f.f32(), f.i32(), f.i32());
    MvdAccessoryKey { offset, time, visible, shadow, add_blend, scale, alpha, related_model, related_bone }
}

/// AccessoryProperty (tag 80): visibility, shadow, add-blend, scale, opacity and the followed model and bone.
fn accessory_section(r: &mut Reader, o: &mut RawObject, h: &Header) -> Result<bool, LoadError> {
    r.newer_minor(h, NEWEST_PROPERTY_MINOR);
    for (offset, b) in r.sized_items(h, ACCESSORY_ITEM, ACCESSORY_ITEM, true)? {
        o.accessory.push(accessory_head(offset, &mut Record::new(b)));
    }
    Ok(true)
}

/// The EffectProperty ext: `i32 parameterCount; {i32 nameKey; i32 type}[parameterCount]` (none when the ext is
/// shorter than 4 bytes, as Keystone reads it).
fn effect_parameters(h: &Header, ext: &[u8]) -> Result<Vec<(i32, i32)>, LoadError> {
    let Some(count) = ext_i32(ext, 0) else { return Ok(Vec::new()) };
    let fit = (ext.len() as u64 - 4) / EFFECT_PARAMETER;
    if count < 0 || count as u64 > fit {
        return Err(LoadError::at(
            h.offset,
            format!("{}: parameterCount {count}: expected 0 to {fit} (the {} B ext)", h.what(), ext.len()),
        ));
    }
    Ok((0..count as usize)
        .map(|i| (ext_i32(ext, 1 + 2 * i).unwrap_or(0), ext_i32(ext, 2 + 2 * i).unwrap_or(0)))
        .collect())
}

/// EffectProperty (tag 88): accessory-like frames, then one value per ext parameter by its type. Values are
/// read up to the first parameter whose size is unknown (none, string or an unknown type), with a warning.
fn effect_section(r: &mut Reader, o: &mut RawObject, h: &Header, ext: &[u8]) -> Result<bool, LoadError> {
    r.newer_minor(h, NEWEST_PROPERTY_MINOR);
    let parameters = effect_parameters(h, ext)?;
    let mut need = EFFECT_ITEM_HEAD;
    let mut sized = 0;
    for (i, &(key, kind)) in parameters.iter().enumerate() {
        match effect_value_size(kind) {
            Some(n) => {
                need += n;
                sized += 1;
            }
            None => {
                let what = if kind == EFFECT_STRING { "string" } else { "unknown" };
                r.warn(
                    "mvd.effect.parameter",
                    h.offset,
                    format!(
                        "{}: parameter {i} (name key {key}) has type {kind} ({what}), whose size in a frame is not \
                         known; its values and those of the {} parameter(s) after it are not read",
                        h.what(),
                        parameters.len() - i - 1
                    ),
                );
                break;
            }
        }
    }
    let exact = sized == parameters.len();
    let kinds: Vec<i32> = parameters[..sized].iter().map(|p| p.1).collect();
    let mut keys = Vec::new();
    for (offset, b) in r.sized_items(h, need, need, exact)? {
        let mut f = Record::new(b);
        let head = accessory_head(offset, &mut f);
        let values = kinds
            .iter()
            .map(|&k| match k {
                EFFECT_BOOL => MvdEffectValue::Bool(f.bool()),
                EFFECT_INT => MvdEffectValue::Int(f.i32()),
                _ => MvdEffectValue::Floats((EFFECT_FLOAT..=k).map(|_| f.f32()).collect()),
            })
            .collect();
        keys.push(MvdEffectKey { head, values });
    }
    o.effects.push(RawEffect { offset: h.offset, parameters, keys });
    Ok(true)
}

/// Skips `count × itemSize` bytes (note §2 rule 4).
fn skip(r: &mut Reader, h: &Header) -> Result<bool, LoadError> {
    let stride = h.item_size as u64;
    r.check_items(h, stride)?;
    r.c.bytes(stride * h.count as u64, &h.what())?;
    Ok(false)
}

/// ModelProperty (note §3.6): ext `ikCount, ikBones[ikCount]` (+ `modelRelationCount` at minor ≥ 3); the item
/// size follows from minor and counts, and MMM writes 4 less than that at minor ≥ 1.
fn model_property(r: &mut Reader, o: &mut RawObject, h: &Header, ext: &[u8]) -> Result<bool, LoadError> {
    let ik_count = ext_i32(ext, 0).unwrap_or(0);
    let ik_fit = (ext.len() / 4).saturating_sub(1);
    if ik_count < 0 || ik_count as usize > ik_fit {
        return Err(LoadError::at(
            h.offset,
            format!("{}: ikCount {ik_count}: expected 0 to {ik_fit} (the {} B ext)", h.what(), ext.len()),
        ));
    }
    let ik = ik_count as usize;
    let ik_bones: Vec<i32> = (0..ik).filter_map(|i| ext_i32(ext, 1 + i)).collect();
    let relations = if model_property_has_relations(h.minor) { ext_i32(ext, 1 + ik).unwrap_or(0) } else { 0 };
    if relations < 0 {
        return Err(LoadError::at(
            h.offset,
            format!("{}: modelRelationCount {relations}: expected 0 or more", h.what()),
        ));
    }
    let relations = relations as u64;
    let m = h.minor;
    let expected = layout::model_property_item(m, ik as u64, relations);
    let size = h.item_size as u64;
    let stride = if m == 0 || size == expected {
        size
    } else if size + MMM_ITEM_SHORTFALL == expected {
        size + MMM_ITEM_SHORTFALL
    } else {
        r.warn(
            "mvd.model_property.size",
            h.offset,
            format!(
                "{}: itemSize {size}: expected {expected} (or {} as MikuMikuMoving writes it); strided by {}",
                h.what(),
                expected - MMM_ITEM_SHORTFALL,
                size + MMM_ITEM_SHORTFALL
            ),
        );
        size + MMM_ITEM_SHORTFALL
    };
    let mut frames = Vec::new();
    for (_, b) in r.items(h, stride, expected)? {
        let mut f = Record::new(b);
        let time = f.i64();
        let (visible, shadow, add_blend, physics) = (f.bool(), f.bool(), f.bool(), f.bool());
        let physics_still_mode = model_property_has_still_mode(m).then(|| {
            let v = f.u8();
            let _pad: [u8; 3] = f.array();
            v
        });
        let (edge_width, edge_color) = (f.f32(), f.array::<4>());
        let scale = model_property_has_scale(m).then(|| f.f32());
        let ik_enabled = (0..ik).map(|_| f.bool()).collect();
        let relations = (0..relations).map(|_| [f.i32(), f.i32(), f.i32()]).collect();
        frames.push(ModelPropertyFrame {
            time,
            visible,
            shadow,
            add_blend,
            physics,
            physics_still_mode,
            edge_width,
            edge_color,
            scale,
            ik_enabled,
            relations,
        });
    }
    o.model_properties.push(RawModelProperty { offset: h.offset, minor: m, ik_bones, stride, frames });
    Ok(true)
}

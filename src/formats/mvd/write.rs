//! A section-level MVD writer for tests (MVD note §9): every minor type of bone, morph, camera, camera-property
//! and model-property sections, both encodings, several objects, the sections the reader skips, invented tags
//! and raw bytes for malformed files. Not a user feature: it writes what it is told, defects included.

use crate::scene::MvdEncoding;

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
    /// Light frames: time, position, colour bytes, enabled (24 bytes).
    Light {
        frames: Vec<(i64, [f32; 3], [u8; 3])>,
    },
    /// Accessory property frames (28 bytes each).
    Accessory {
        frames: Vec<i64>,
    },
    /// Effect property: one float parameter (NameList key `param`), frames of 28 + 4 bytes.
    Effect {
        param: i32,
        frames: Vec<(i64, f32)>,
    },
    /// Project frames, minor 1 (36 bytes each).
    Project {
        frames: Vec<i64>,
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
            MvdEncoding::Utf16Le => 0,
            MvdEncoding::Utf8 => 1,
        };
        MvdDocument { version: 1.0, encoding_byte, objects: Vec::new(), trailing: Vec::new() }
    }

    fn utf16(&self) -> bool {
        self.encoding_byte == 0
    }

    /// The string as the file stores it: byte length, then the bytes.
    pub fn string(&self, s: &str) -> Vec<u8> {
        let bytes: Vec<u8> =
            if self.utf16() { s.encode_utf16().flat_map(u16::to_le_bytes).collect() } else { s.as_bytes().to_vec() };
        let mut out = (bytes.len() as i32).to_le_bytes().to_vec();
        out.extend(bytes);
        out
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut sig = [0u8; 30];
        sig[..23].copy_from_slice(b"Motion Vector Data file");
        out.extend(sig);
        out.extend(self.version.to_le_bytes());
        out.push(self.encoding_byte);
        for o in &self.objects {
            out.extend(self.string(&o.name));
            out.extend(self.string(&o.english_name));
            out.extend(o.key_fps.to_le_bytes());
            out.extend(0i32.to_le_bytes());
            for s in &o.sections {
                self.section(s, &mut out);
            }
            if o.eof {
                out.extend([0xFF, 0]);
            }
        }
        out.extend(&self.trailing);
        out
    }

    fn section(&self, s: &Section, out: &mut Vec<u8>) {
        let i32s = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        match s {
            Section::NameList(names) => {
                let mut items = Vec::new();
                for (k, n) in names {
                    items.extend(k.to_le_bytes());
                    items.extend(self.string(n));
                }
                header(out, 0, 0, 0, 0, names.len() as i32, &[], &items);
            }
            Section::Bone { minor, key, stage_count, parent_clip, item_size, frames } => {
                let ext = if *minor >= 2 { i32s(&[*stage_count, *parent_clip]) } else { i32s(&[*stage_count]) };
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|f| {
                        let mut b = Vec::new();
                        b.extend(f.stage.to_le_bytes());
                        b.extend(f.time.to_le_bytes());
                        f.position.iter().chain(&f.rotation).for_each(|v| b.extend(v.to_le_bytes()));
                        f.curves.iter().for_each(|c| b.extend(c));
                        if *minor >= 1 {
                            b.extend([u8::from(f.spline), 0, 0, 0]);
                        }
                        b
                    })
                    .collect();
                let natural = if *minor >= 1 { 60 } else { 56 };
                fixed(out, 16, *minor, *key, item_size.unwrap_or(natural), &ext, &items);
            }
            Section::Morph { minor, key, parent_clip, item_size, frames } => {
                let ext = if *minor >= 1 { i32s(&[*parent_clip]) } else { Vec::new() };
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|f| {
                        let mut b = f.time.to_le_bytes().to_vec();
                        b.extend(f.weight.to_le_bytes());
                        b.extend(f.curve);
                        b
                    })
                    .collect();
                fixed(out, 32, *minor, *key, item_size.unwrap_or(16), &ext, &items);
            }
            Section::Camera { minor, key, stage_count, item_size, frames } => {
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|f| {
                        let mut b = f.stage.to_le_bytes().to_vec();
                        b.extend(f.time.to_le_bytes());
                        b.extend(f.radius.to_le_bytes());
                        f.position.iter().chain(&f.angles).for_each(|v| b.extend(v.to_le_bytes()));
                        b.extend(f.fov.to_le_bytes());
                        match minor {
                            0 => b.push(u8::from(f.perspective)),
                            1 => {
                                b.extend([u8::from(f.enabled), u8::from(f.perspective)]);
                                b.extend(f.alpha.to_le_bytes());
                                b.push(u8::from(f.effect_enabled));
                            }
                            3 => b.extend([u8::from(f.spline), 0, 0, 0]),
                            _ => {}
                        }
                        f.curves.iter().for_each(|c| b.extend(c));
                        b
                    })
                    .collect();
                let natural = match minor {
                    0 => 61,
                    1 => 67,
                    3 => 64,
                    _ => 60,
                };
                fixed(out, 96, *minor, *key, item_size.unwrap_or(natural), &i32s(&[*stage_count]), &items);
            }
            Section::CameraProperty { minor, frames } => {
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|f| {
                        let mut b = f.time.to_le_bytes().to_vec();
                        b.extend([u8::from(f.enabled), u8::from(f.perspective)]);
                        b.extend(f.alpha.to_le_bytes());
                        b.push(u8::from(f.effect_enabled));
                        if *minor == 0 {
                            b.push(0);
                        } else {
                            b.push(u8::from(f.dynamic_fov));
                            b.extend(f.dynamic_fov_rate.to_le_bytes());
                            b.extend(f.dynamic_fov_coefficient.to_le_bytes());
                        }
                        if *minor >= 2 {
                            b.extend(f.related_model.to_le_bytes());
                            b.extend(f.related_bone.to_le_bytes());
                        }
                        b
                    })
                    .collect();
                let size = items.first().map_or(16, |i| i.len() as i32);
                // MLTD writes key 1, which names nothing.
                fixed(out, 104, *minor, 1, size, &[], &items);
            }
            Section::ModelProperty { minor, ik_bones, relations, mmm_bug, frames } => {
                let mut ext = (ik_bones.len() as i32).to_le_bytes().to_vec();
                ext.extend(i32s(ik_bones));
                if *minor >= 3 {
                    ext.extend((*relations as i32).to_le_bytes());
                }
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|f| {
                        let mut b = f.time.to_le_bytes().to_vec();
                        b.extend([u8::from(f.visible), 1, 0, 1]);
                        if *minor >= 1 {
                            b.extend([0, 0, 0, 0]);
                        }
                        b.extend(f.edge_width.to_le_bytes());
                        b.extend([255, 0, 0, 0]);
                        if *minor >= 2 {
                            b.extend(f.scale.to_le_bytes());
                        }
                        b.extend((0..ik_bones.len()).map(|i| u8::from(f.ik_enabled.get(i).copied().unwrap_or(true))));
                        if *minor >= 3 {
                            for i in 0..*relations {
                                b.extend(i32s(&f.relations.get(i).copied().unwrap_or([-1; 3])));
                            }
                        }
                        b
                    })
                    .collect();
                let real = 12
                    + if *minor >= 1 { 4 } else { 0 }
                    + 8
                    + if *minor >= 2 { 4 } else { 0 }
                    + ik_bones.len()
                    + if *minor >= 3 { 12 * relations } else { 0 };
                let declared = if *mmm_bug { real as i32 - 4 } else { real as i32 };
                let body: Vec<u8> = items.concat();
                header(out, 64, *minor, 0, declared, frames.len() as i32, &ext, &body);
            }
            Section::MotionClip { item_size, parent_clip, time_warp } => {
                let mut items = Vec::new();
                for (i, pts) in time_warp.iter().enumerate() {
                    items.extend((i as i32).to_le_bytes());
                    [0.0f32, 100.0].iter().for_each(|v| items.extend(v.to_le_bytes()));
                    items.extend(1i32.to_le_bytes());
                    [1.0f32, 1.0].iter().for_each(|v| items.extend(v.to_le_bytes()));
                    items.extend(0i32.to_le_bytes());
                    items.extend((pts.len() as i32).to_le_bytes());
                    pts.iter().flatten().for_each(|v| items.extend(v.to_le_bytes()));
                }
                header(out, 40, 0, 0, *item_size, time_warp.len() as i32, &i32s(&[*parent_clip]), &items);
            }
            Section::MotionBlend { parent_clip, clip_a, clip_b, points } => {
                let mut item = i32s(&[*clip_a, *clip_b, 0, points.len() as i32]);
                points.iter().flatten().for_each(|v| item.extend(v.to_le_bytes()));
                fixed(out, 48, 0, 0, item.len() as i32, &i32s(&[*parent_clip]), &[item]);
            }
            Section::Light { frames } => {
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|(t, p, c)| {
                        let mut b = t.to_le_bytes().to_vec();
                        p.iter().for_each(|v| b.extend(v.to_le_bytes()));
                        b.extend(c);
                        b.push(1);
                        b
                    })
                    .collect();
                fixed(out, 112, 0, 0, 24, &[], &items);
            }
            Section::Accessory { frames } => {
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|t| {
                        let mut b = t.to_le_bytes().to_vec();
                        b.extend([1, 1, 0, 0]);
                        b.extend(1.0f32.to_le_bytes());
                        b.extend(1.0f32.to_le_bytes());
                        b.extend(i32s(&[-1, -1]));
                        b
                    })
                    .collect();
                fixed(out, 80, 0, 0, 28, &[], &items);
            }
            Section::Effect { param, frames } => {
                let ext = i32s(&[1, *param, 4]);
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|(t, v)| {
                        let mut b = t.to_le_bytes().to_vec();
                        b.extend([1, 0, 1, 0]);
                        b.extend(1.0f32.to_le_bytes());
                        b.extend(1.0f32.to_le_bytes());
                        b.extend(i32s(&[-1, -1]));
                        b.extend(v.to_le_bytes());
                        b
                    })
                    .collect();
                fixed(out, 88, 0, 0, 32, &ext, &items);
            }
            Section::Project { frames } => {
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|t| {
                        let mut b = t.to_le_bytes().to_vec();
                        [9.8f32, 0.0, -1.0, 0.0].iter().for_each(|v| b.extend(v.to_le_bytes()));
                        b.extend(1i32.to_le_bytes());
                        [8875.0f32, 0.0].iter().for_each(|v| b.extend(v.to_le_bytes()));
                        b
                    })
                    .collect();
                fixed(out, 128, 1, 0, 36, &[], &items);
            }
            Section::Filter { frames } => {
                let most = frames.iter().map(|f| f.1.len()).max().unwrap_or(0);
                let items: Vec<Vec<u8>> = frames
                    .iter()
                    .map(|(t, pts)| {
                        let mut b = t.to_le_bytes().to_vec();
                        b.extend(0i32.to_le_bytes());
                        b.extend([1, 0, 0, 0]);
                        [0.0f32; 7].iter().for_each(|v| b.extend(v.to_le_bytes()));
                        b.extend((pts.len() as i32).to_le_bytes());
                        pts.iter().flatten().for_each(|v| b.extend(v.to_le_bytes()));
                        b
                    })
                    .collect();
                fixed(out, 136, 0, 0, 48 + 8 * most as i32, &i32s(&[most as i32]), &items);
            }
            Section::Raw { tag, minor, key, item_size, count, ext, items } => {
                header(out, *tag, *minor, *key, *item_size, *count, ext, items);
            }
        }
    }
}

/// Tag, minor, key, itemSize, count, extSize, ext, then the item bytes as given.
#[allow(clippy::too_many_arguments)]
fn header(out: &mut Vec<u8>, tag: u8, minor: u8, key: i32, item_size: i32, count: i32, ext: &[u8], items: &[u8]) {
    out.extend([tag, minor]);
    for v in [key, item_size, count, ext.len() as i32] {
        out.extend(v.to_le_bytes());
    }
    out.extend(ext);
    out.extend(items);
}

/// A fixed-item section: each item padded with zeros (or cut) to `item_size`.
fn fixed(out: &mut Vec<u8>, tag: u8, minor: u8, key: i32, item_size: i32, ext: &[u8], items: &[Vec<u8>]) {
    let size = item_size.max(0) as usize;
    let mut body = Vec::with_capacity(size * items.len());
    for i in items {
        let mut i = i.clone();
        i.resize(size, 0);
        body.extend(i);
    }
    header(out, tag, minor, key, item_size, items.len() as i32, ext, &body);
}

/// A file with every section kind and minor type the reader knows, in `encoding`, with non-ASCII names:
///
/// - object 0 "ミク motion" at 30 keyFps: a NameList (with stage names under negative keys), bones at minor 0,
///   1 (items padded to 64 B) and 2 (several stages), morphs at minor 0 and 1 (padded), ModelProperty at
///   minor 0–3 (1 and 2 with MikuMikuMoving's short itemSize), a MotionClip with a wrong itemSize, a
///   MotionBlend, accessory, effect, light, project and filter sections, and an invented tag 200 with an ext;
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
    m.sections.push(Section::Accessory { frames: vec![0, 10] });
    m.sections.push(Section::Effect { param: 100, frames: vec![(0, 0.5)] });
    m.sections.push(Section::Light { frames: vec![(0, [-0.5, -1.0, 0.5], [154, 154, 154])] });
    m.sections.push(Section::Project { frames: vec![0] });
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

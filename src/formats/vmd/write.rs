//! A record-level VMD writer for tests: both header versions, every section, names as raw bytes (so a name
//! cut mid-character or in another encoding can be written), any interpolation block, and files that stop
//! after any section. Not a user feature: it writes what it is told, defects included.

use super::bone::{self, Curve};
use super::camera;
use crate::formats::binwrite::ByteWriter;

pub use super::bone::LINEAR;
pub use super::name::encode;

#[derive(Debug, Clone, PartialEq)]
pub struct BoneKey {
    /// Up to 15 bytes; longer is cut, shorter is NUL-padded.
    pub name: Vec<u8>,
    pub frame: u32,
    pub position: [f32; 3],
    pub rotation: [f32; 4],
    pub interpolation: [u8; 64],
}

impl BoneKey {
    /// A key of bone `name` (cp932) with linear curves.
    pub fn new(name: &str, frame: u32, position: [f32; 3], rotation: [f32; 4]) -> BoneKey {
        BoneKey { name: encode(name), frame, position, rotation, interpolation: bone::linear_block() }
    }

    /// The same key with X, Y, Z and rotation curves (x1, y1, x2, y2), in MikuMikuDance's block layout.
    pub fn with_curves(mut self, curves: [Curve; 4]) -> BoneKey {
        self.interpolation = bone::block_of(curves, None);
        self
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct MorphKey {
    pub name: Vec<u8>,
    pub frame: u32,
    pub weight: f32,
}

impl MorphKey {
    pub fn new(name: &str, frame: u32, weight: f32) -> MorphKey {
        MorphKey { name: encode(name), frame, weight }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CameraKey {
    pub frame: u32,
    pub distance: f32,
    pub target: [f32; 3],
    pub angles: [f32; 3],
    /// Target X, Y, Z, rotation, distance and field-of-view curves as (x1, y1, x2, y2).
    pub curves: [Curve; 6],
    pub fov: u32,
    pub perspective_off: u8,
}

impl CameraKey {
    pub fn new(frame: u32, distance: f32, target: [f32; 3], angles: [f32; 3], fov: u32) -> CameraKey {
        CameraKey { frame, distance, target, angles, curves: [LINEAR; 6], fov, perspective_off: 0 }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PropertyKey {
    pub frame: u32,
    pub visible: bool,
    /// (IK bone name, up to 20 bytes; enabled).
    pub ik: Vec<(Vec<u8>, bool)>,
}

/// A whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct VmdDocument {
    /// The 30-byte signature field (NUL-padded).
    pub signature: Vec<u8>,
    /// Width of the model name field: 20 (version 2) or 10 (version 1).
    pub model_name_width: usize,
    pub model_name: Vec<u8>,
    pub bones: Vec<BoneKey>,
    pub morphs: Vec<MorphKey>,
    pub cameras: Vec<CameraKey>,
    /// (frame, colour, direction).
    pub lights: Vec<(u32, [f32; 3], [f32; 3])>,
    /// (frame, mode, distance).
    pub shadows: Vec<(u32, u8, f32)>,
    pub properties: Vec<PropertyKey>,
    /// How many sections to write, 0–6 (bone, morph, camera, light, self-shadow, property): a file that stops
    /// early, as older writers' do.
    pub sections: usize,
    /// Bytes after the last section.
    pub trailing: Vec<u8>,
}

impl VmdDocument {
    /// An empty version-2 file for `model` with all six sections.
    pub fn new(model: &str) -> VmdDocument {
        VmdDocument {
            signature: super::header::SIGNATURE_V2.to_vec(),
            model_name_width: 20,
            model_name: encode(model),
            bones: Vec::new(),
            morphs: Vec::new(),
            cameras: Vec::new(),
            lights: Vec::new(),
            shadows: Vec::new(),
            properties: Vec::new(),
            sections: 6,
            trailing: Vec::new(),
        }
    }

    /// An empty version-1 file ("Vocaloid Motion Data file", 10-byte model name).
    pub fn v1(model: &str) -> VmdDocument {
        VmdDocument { signature: super::header::SIGNATURE_V1.to_vec(), model_name_width: 10, ..VmdDocument::new(model) }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.fixed(&self.signature, 30).fixed(&self.model_name, self.model_name_width);
        let n = self.sections;
        if n >= 1 {
            w.count_u32(self.bones.len());
            for b in &self.bones {
                w.fixed(&b.name, 15).u32(b.frame).f32s(&b.position).f32s(&b.rotation).bytes(&b.interpolation);
            }
        }
        if n >= 2 {
            w.count_u32(self.morphs.len());
            for m in &self.morphs {
                w.fixed(&m.name, 15).u32(m.frame).f32(m.weight);
            }
        }
        if n >= 3 {
            w.count_u32(self.cameras.len());
            for c in &self.cameras {
                w.u32(c.frame).f32(c.distance).f32s(&c.target).f32s(&c.angles);
                w.bytes(&camera::block_of(c.curves)).u32(c.fov).u8(c.perspective_off);
            }
        }
        if n >= 4 {
            w.count_u32(self.lights.len());
            for (frame, color, direction) in &self.lights {
                w.u32(*frame).f32s(color).f32s(direction);
            }
        }
        if n >= 5 {
            w.count_u32(self.shadows.len());
            for (frame, mode, distance) in &self.shadows {
                w.u32(*frame).u8(*mode).f32(*distance);
            }
        }
        if n >= 6 {
            w.count_u32(self.properties.len());
            for p in &self.properties {
                w.u32(p.frame).u8(u8::from(p.visible)).count_u32(p.ik.len());
                for (name, on) in &p.ik {
                    w.fixed(name, 20).u8(u8::from(*on));
                }
            }
        }
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}

/// A file with every section: two bones (one with curves, one name cut mid-character), a morph, two camera
/// keys, a light, a self-shadow key and two property keys switching two IK chains.
pub fn sample_document() -> VmdDocument {
    let mut d = VmdDocument::new("初音ミク");
    let q = [0.0, std::f32::consts::FRAC_1_SQRT_2, 0.0, std::f32::consts::FRAC_1_SQRT_2];
    d.bones.push(BoneKey::new("センター", 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
    d.bones.push(BoneKey::new("センター", 30, [1.0, 2.0, 3.0], q).with_curves([[0, 0, 127, 0]; 4]));
    let mut long = encode("abcd左手人差指１");
    long.truncate(15);
    d.bones.push(BoneKey { name: long, ..BoneKey::new("", 10, [0.0; 3], [0.0, 0.0, 0.0, 1.0]) });
    d.morphs.push(MorphKey::new("まばたき", 0, 0.0));
    d.morphs.push(MorphKey::new("まばたき", 15, 1.0));
    d.cameras.push(CameraKey::new(0, -45.0, [0.0, 10.0, 0.0], [0.0; 3], 30));
    d.cameras
        .push(CameraKey { perspective_off: 1, ..CameraKey::new(60, -30.0, [0.0, 12.0, 0.0], [0.2, 0.5, 0.0], 40) });
    d.lights.push((0, [0.6, 0.6, 0.6], [-0.5, -1.0, 0.5]));
    d.shadows.push((0, 1, 0.0085));
    d.properties.push(PropertyKey {
        frame: 0,
        visible: true,
        ik: vec![(encode("左足ＩＫ"), true), (encode("右足ＩＫ"), true)],
    });
    d.properties.push(PropertyKey {
        frame: 20,
        visible: true,
        ik: vec![(encode("左足ＩＫ"), false), (encode("右足ＩＫ"), true)],
    });
    d
}

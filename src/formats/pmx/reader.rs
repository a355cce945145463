//! The PMX header and the field readers every section shares: text in the file's encoding and indices of the
//! sizes the header declares.

use glam::{Vec2, Vec3, Vec4};

use crate::error::LoadError;
use crate::formats::binread::Cursor;
use crate::scene::MmdEncoding;

pub const MAGIC: &[u8; 4] = b"PMX ";

/// The header's fields.
#[derive(Debug, Clone)]
pub struct Header {
    pub version: f32,
    pub encoding: MmdEncoding,
    pub additional_uvs: u8,
    /// Vertex, texture, material, bone, morph, rigid body.
    pub sizes: [u8; 6],
    pub name: String,
    pub name_en: String,
    pub comment: String,
    pub comment_en: String,
}

/// A cursor that knows the header's encoding and index sizes.
pub struct Reader<'a> {
    pub c: Cursor<'a>,
    pub encoding: MmdEncoding,
    pub sizes: [u8; 6],
}

/// Which index table an index points into (the order of the header's sizes).
#[derive(Debug, Clone, Copy)]
pub enum Ix {
    Texture = 1,
    Material = 2,
    Bone = 3,
    Morph = 4,
    Rigid = 5,
}

impl<'a> Reader<'a> {
    /// Reads the header; the reader is left at the first vertex count.
    pub fn header(data: &'a [u8]) -> Result<(Reader<'a>, Header), LoadError> {
        let mut c = Cursor::new(data);
        let magic = c.bytes(4, "PMX magic")?;
        if magic != MAGIC {
            return Err(LoadError::at(0, "not a PMX file: it does not start with \"PMX \""));
        }
        let at = c.pos();
        let version = c.f32("PMX version")?;
        if !(version == 2.0 || version == 2.1) {
            return Err(LoadError::at(at, format!("PMX version {version}: expected 2.0 or 2.1")));
        }
        let at = c.pos();
        let n = c.u8("header globals count")?;
        if n < 8 {
            return Err(LoadError::at(at, format!("header globals count {n}: expected at least 8")));
        }
        let globals = c.bytes(u64::from(n), "header globals")?;
        let encoding = match globals[0] {
            0 => MmdEncoding::Utf16Le,
            1 => MmdEncoding::Utf8,
            e => return Err(LoadError::at(at + 1, format!("text encoding {e}: expected 0 (UTF-16LE) or 1 (UTF-8)"))),
        };
        let additional_uvs = globals[1];
        if additional_uvs > 4 {
            return Err(LoadError::at(at + 2, format!("additional UV count {additional_uvs}: expected 0 to 4")));
        }
        let names = ["vertex", "texture", "material", "bone", "morph", "rigid body"];
        let mut sizes = [0u8; 6];
        for (i, s) in sizes.iter_mut().enumerate() {
            *s = globals[2 + i];
            if !matches!(*s, 1 | 2 | 4) {
                return Err(LoadError::at(
                    at + 3 + i as u64,
                    format!("{} index size {}: expected 1, 2 or 4", names[i], *s),
                ));
            }
        }
        let mut r = Reader { c, encoding, sizes };
        let name = r.text("model name")?;
        let name_en = r.text("model English name")?;
        let comment = r.text("comment")?;
        let comment_en = r.text("English comment")?;
        Ok((r, Header { version, encoding, additional_uvs, sizes, name, name_en, comment, comment_en }))
    }

    pub fn pos(&self) -> u64 {
        self.c.pos()
    }

    /// A length-prefixed string in the file's encoding; invalid sequences become U+FFFD.
    pub fn text(&mut self, what: &str) -> Result<String, LoadError> {
        let at = self.c.pos();
        let n = self.c.i32(&format!("{what} length"))?;
        if n < 0 {
            return Err(LoadError::at(at, format!("{what} length {n}: expected 0 or more")));
        }
        let b = self.c.bytes(n as u64, what)?;
        Ok(match self.encoding {
            MmdEncoding::Utf8 => String::from_utf8_lossy(b).into_owned(),
            _ => {
                if b.len() % 2 != 0 {
                    return Err(LoadError::at(at, format!("{what} length {n}: UTF-16 text needs an even length")));
                }
                let units = b.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]]));
                char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
            }
        })
    }

    /// An element count of at least `min_size` bytes each (checked against the bytes left).
    pub fn count(&mut self, min_size: u64, what: &str) -> Result<usize, LoadError> {
        self.c.count(min_size, what)
    }

    /// A signed index of the given table: −1 (or any negative) is none.
    pub fn index(&mut self, table: Ix, what: &str) -> Result<Option<usize>, LoadError> {
        let v: i64 = match self.sizes[table as usize] {
            1 => i64::from(self.c.i8(what)?),
            2 => i64::from(self.c.i16(what)?),
            _ => i64::from(self.c.i32(what)?),
        };
        Ok(usize::try_from(v).ok())
    }

    /// A vertex index: unsigned for sizes 1 and 2, a non-negative i32 for size 4.
    pub fn vertex_index(&mut self, what: &str) -> Result<u32, LoadError> {
        let at = self.c.pos();
        Ok(match self.sizes[0] {
            1 => u32::from(self.c.u8(what)?),
            2 => u32::from(self.c.u16(what)?),
            _ => {
                let v = self.c.i32(what)?;
                u32::try_from(v).map_err(|_| LoadError::at(at, format!("{what} {v}: expected 0 or more")))?
            }
        })
    }

    pub fn index_size(&self, table: Ix) -> u64 {
        u64::from(self.sizes[table as usize])
    }

    pub fn vertex_index_size(&self) -> u64 {
        u64::from(self.sizes[0])
    }

    pub fn u8(&mut self, what: &str) -> Result<u8, LoadError> {
        self.c.u8(what)
    }

    pub fn u16(&mut self, what: &str) -> Result<u16, LoadError> {
        self.c.u16(what)
    }

    pub fn i32(&mut self, what: &str) -> Result<i32, LoadError> {
        self.c.i32(what)
    }

    pub fn f32(&mut self, what: &str) -> Result<f32, LoadError> {
        self.c.f32(what)
    }

    pub fn vec2(&mut self, what: &str) -> Result<Vec2, LoadError> {
        Ok(Vec2::from_array(self.c.f32s::<2>(what)?))
    }

    pub fn vec3(&mut self, what: &str) -> Result<Vec3, LoadError> {
        Ok(Vec3::from_array(self.c.f32s::<3>(what)?))
    }

    pub fn vec4(&mut self, what: &str) -> Result<Vec4, LoadError> {
        Ok(Vec4::from_array(self.c.f32s::<4>(what)?))
    }
}

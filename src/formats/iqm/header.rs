//! The IQM header and its sections: bounds, overlap with the header, and alignment.

use crate::error::{LoadError, Location, Warning};
use crate::formats::binread::Bytes;

pub const MAGIC: &[u8; 16] = b"INTERQUAKEMODEL\0";
pub const HEADER_SIZE: u64 = 124;

/// Header fields after the magic, in file order.
const FIELDS: [&str; 27] = [
    "version",
    "filesize",
    "flags",
    "num_text",
    "ofs_text",
    "num_meshes",
    "ofs_meshes",
    "num_vertexarrays",
    "num_vertexes",
    "ofs_vertexarrays",
    "num_triangles",
    "ofs_triangles",
    "ofs_adjacency",
    "num_joints",
    "ofs_joints",
    "num_poses",
    "ofs_poses",
    "num_anims",
    "ofs_anims",
    "num_frames",
    "num_framechannels",
    "ofs_frames",
    "ofs_bounds",
    "num_comment",
    "ofs_comment",
    "num_extensions",
    "ofs_extensions",
];

/// The 27 header values, addressed by name.
pub struct Header {
    values: [u32; 27],
}

impl Header {
    pub fn parse(bytes: &Bytes) -> Result<Header, LoadError> {
        if bytes.len() < HEADER_SIZE {
            return Err(LoadError::whole(format!("{} bytes, an IQM header needs {HEADER_SIZE}", bytes.len())));
        }
        let all = bytes.all();
        if &all[..16] != MAGIC {
            return Err(LoadError::at(0, "expected \"INTERQUAKEMODEL\\0\" (not an IQM file)"));
        }
        let mut values = [0u32; 27];
        for (i, v) in values.iter_mut().enumerate() {
            *v = bytes.u32_at(16 + 4 * i as u64, FIELDS[i])?;
        }
        Ok(Header { values })
    }

    pub fn get(&self, field: &str) -> u32 {
        FIELDS.iter().position(|f| *f == field).map_or(0, |i| self.values[i])
    }

    /// Byte offset of a header field, for error messages that point at the field.
    pub fn offset_of(field: &str) -> u64 {
        16 + 4 * FIELDS.iter().position(|f| *f == field).unwrap_or(0) as u64
    }

    /// The bytes of a section, after checking it lies after the header and inside the file. A section
    /// with count 0 is empty whatever its offset says.
    pub fn section<'a>(
        &self,
        bytes: &Bytes<'a>,
        what: &str,
        ofs_field: &str,
        count: u64,
        size: u64,
        warnings: &mut Vec<Warning>,
    ) -> Result<&'a [u8], LoadError> {
        let ofs = u64::from(self.get(ofs_field));
        let at = Header::offset_of(ofs_field);
        if count == 0 || size == 0 {
            return Ok(&[]);
        }
        if ofs < HEADER_SIZE {
            return Err(LoadError::at(
                at,
                format!(
                    "{what} ({count}×{size} B) at {ofs} overlap the header (sections start at {HEADER_SIZE} or later)"
                ),
            ));
        }
        let data =
            bytes.slice(ofs, count, size, what).map_err(|e| LoadError { location: Location::Offset(at), ..e })?;
        if ofs % 4 != 0 {
            warnings.push(Warning {
                rule: "iqm.align",
                location: Location::Offset(at),
                message: format!("{what} at {ofs}"),
            });
        }
        Ok(data)
    }
}

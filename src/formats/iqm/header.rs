//! The IQM header and its sections: bounds, overlap with the header, and alignment.

use crate::error::{LoadError, Location, Warning};
use crate::formats::binread::Bytes;

use super::layout::{HEADER_FIELD_COUNT, HEADER_FIELDS, HEADER_SIZE, MAGIC, field_offset};

/// The header size as the reader's offsets count it.
pub const HEADER_END: u64 = HEADER_SIZE as u64;

/// The header values, addressed by name.
pub struct Header {
    values: [u32; HEADER_FIELD_COUNT],
}

impl Header {
    pub fn parse(bytes: &Bytes) -> Result<Header, LoadError> {
        if bytes.len() < HEADER_END {
            return Err(LoadError::whole(format!("{} bytes, an IQM header needs {HEADER_END}", bytes.len())));
        }
        let all = bytes.all();
        if &all[..MAGIC.len()] != MAGIC {
            return Err(LoadError::at(0, "expected \"INTERQUAKEMODEL\\0\" (not an IQM file)"));
        }
        let mut values = [0u32; HEADER_FIELD_COUNT];
        for (i, v) in values.iter_mut().enumerate() {
            *v = bytes.u32_at(field_offset(i) as u64, HEADER_FIELDS[i])?;
        }
        Ok(Header { values })
    }

    pub fn get(&self, field: &str) -> u32 {
        HEADER_FIELDS.iter().position(|f| *f == field).map_or(0, |i| self.values[i])
    }

    /// Byte offset of a header field, for error messages that point at the field.
    pub fn offset_of(field: &str) -> u64 {
        field_offset(HEADER_FIELDS.iter().position(|f| *f == field).unwrap_or(0)) as u64
    }

    /// The bytes of a section, after checking it lies after the header and inside the file. A section
    /// with count 0 is empty whatever its offset says.
    pub fn section<'a>(
        &self,
        bytes: &Bytes<'a>,
        what: &str,
        ofs_field: &str,
        count: u64,
        size: usize,
        warnings: &mut Vec<Warning>,
    ) -> Result<&'a [u8], LoadError> {
        let ofs = u64::from(self.get(ofs_field));
        let at = Header::offset_of(ofs_field);
        let size = size as u64;
        if count == 0 || size == 0 {
            return Ok(&[]);
        }
        if ofs < HEADER_END {
            return Err(LoadError::at(
                at,
                format!(
                    "{what} ({count}×{size} B) at {ofs} overlap the header (sections start at {HEADER_END} or later)"
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

//! The header: a 30-byte signature and the model name (20 bytes in version 2, 10 in the old version 1).

use super::name;
use crate::error::{LoadError, Location, Warning};
use crate::formats::binread::Cursor;
use crate::scene::VmdName;

/// What every VMD signature starts with.
pub const SIGNATURE_PREFIX: &[u8] = b"Vocaloid Motion Data";
/// Version 2: MikuMikuDance 5 and later.
pub const SIGNATURE_V2: &[u8] = b"Vocaloid Motion Data 0002";
/// Version 1: the oldest MikuMikuDance files, with a 10-byte model name.
pub const SIGNATURE_V1: &[u8] = b"Vocaloid Motion Data file";

pub const SIGNATURE_BYTES: u64 = 30;

/// The model name field's width for a version.
pub fn model_name_width(version: u8) -> u64 {
    if version == 1 { 10 } else { 20 }
}

pub struct Header {
    pub signature: String,
    pub version: u8,
    pub model_name: VmdName,
}

/// Reads the signature and model name. A signature that starts like a VMD's but names no known version (some
/// exporters write "Vocaloid Motion Data" alone) is read with version 2's layout, with a warning.
pub fn read(c: &mut Cursor, warnings: &mut Vec<Warning>) -> Result<Header, LoadError> {
    let sig = c.bytes(SIGNATURE_BYTES, "signature (30 bytes, \"Vocaloid Motion Data 0002\")")?;
    if !sig.starts_with(SIGNATURE_PREFIX) {
        return Err(LoadError::at(0, "not a VMD file: expected the signature \"Vocaloid Motion Data 0002\""));
    }
    let text_end = sig.iter().position(|&b| b == 0).unwrap_or(sig.len());
    let text = &sig[..text_end];
    let version = if text == SIGNATURE_V2 {
        2
    } else if text == SIGNATURE_V1 {
        1
    } else {
        warnings.push(Warning {
            rule: "vmd.signature",
            location: Location::Offset(0),
            message: format!(
                "signature \"{}\" names no known version (expected \"Vocaloid Motion Data 0002\" or \"… file\"); \
                 read as version 2 (20-byte model name)",
                String::from_utf8_lossy(text)
            ),
        });
        2
    };
    let field = c.bytes(model_name_width(version), &format!("model name ({} bytes)", model_name_width(version)))?;
    Ok(Header { signature: String::from_utf8_lossy(text).into_owned(), version, model_name: name::decode(field) })
}

//! Vertex components encoded into IQM's component formats.

use crate::formats::iqm::layout::{BYTE, DOUBLE, FLOAT, HALF, INT, SHORT, UBYTE, UINT, USHORT, format_size};

/// Encodes `values` as IQM component `format` (0..=8), little-endian. With `normalized`, integer formats invert
/// the decoding the reader applies (unsigned `c/(2^b-1)`, signed `(2c+1)/(2^b-1)`); without it they hold the
/// rounded value itself, as blend indexes do. Out-of-range and NaN values clamp (NaN to 0) instead of failing,
/// and an unknown format yields no bytes.
pub fn encode_components(format: u32, values: &[f32], normalized: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * format_size(format).unwrap_or(0));
    encode_components_into(format, values, normalized, &mut out);
    out
}

/// [`encode_components`], appending to `out` (the converter encodes millions of vertices into one buffer).
/// Returns false, appending nothing, for an unknown format.
pub fn encode_components_into(format: u32, values: &[f32], normalized: bool, out: &mut Vec<u8>) -> bool {
    if format_size(format).is_none() {
        return false;
    }
    // f64 keeps the 32-bit formats exact: f32 can't represent 2^32-1.
    let int = |v: f32, bits: i32, signed: bool| -> f64 {
        let v = f64::from(v);
        let max = 2f64.powi(bits) - 1.0;
        let c = match (normalized, signed) {
            (true, false) => (v * max).round(),
            (true, true) => ((v * max - 1.0) / 2.0).round(),
            (false, _) => v.round(),
        };
        let (lo, hi) = if signed { (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1) - 1.0) } else { (0.0, max) };
        if c.is_nan() { 0.0 } else { c.clamp(lo, hi) }
    };
    for &v in values {
        match format {
            BYTE => out.extend_from_slice(&(int(v, 8, true) as i8).to_le_bytes()),
            UBYTE => out.push(int(v, 8, false) as u8),
            SHORT => out.extend_from_slice(&(int(v, 16, true) as i16).to_le_bytes()),
            USHORT => out.extend_from_slice(&(int(v, 16, false) as u16).to_le_bytes()),
            INT => out.extend_from_slice(&(int(v, 32, true) as i32).to_le_bytes()),
            UINT => out.extend_from_slice(&(int(v, 32, false) as u32).to_le_bytes()),
            HALF => out.extend_from_slice(&half::f16::from_f32(v).to_le_bytes()),
            FLOAT => out.extend_from_slice(&v.to_le_bytes()),
            DOUBLE => out.extend_from_slice(&f64::from(v).to_le_bytes()),
            _ => return false,
        }
    }
    true
}

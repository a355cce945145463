//! Little-endian byte writing, the mirror of [`super::binread`].
//!
//! Every writer in the project (IQM, RSM, MVD, and the test writers of later formats) appends through
//! [`ByteWriter`], so field widths, padding and fixed-size strings are spelled once. Writers never fail:
//! lengths that don't fit a field saturate (a test file that is deliberately wrong says so where it is made).

/// A growing little-endian buffer.
#[derive(Debug, Clone, Default)]
pub struct ByteWriter {
    buf: Vec<u8>,
}

impl ByteWriter {
    pub fn new() -> Self {
        ByteWriter { buf: Vec::new() }
    }

    pub fn with_capacity(capacity: usize) -> Self {
        ByteWriter { buf: Vec::with_capacity(capacity) }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The current length as a `u32` offset, saturating.
    pub fn pos_u32(&self) -> u32 {
        u32::try_from(self.buf.len()).unwrap_or(u32::MAX)
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    pub fn i8(&mut self, v: i8) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn i16(&mut self, v: i16) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn f64(&mut self, v: f64) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn f32s(&mut self, vs: &[f32]) -> &mut Self {
        for v in vs {
            self.f32(*v);
        }
        self
    }

    pub fn u32s(&mut self, vs: &[u32]) -> &mut Self {
        for v in vs {
            self.u32(*v);
        }
        self
    }

    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    /// A length or count as an `i32`, saturating at `i32::MAX`.
    pub fn count_i32(&mut self, n: usize) -> &mut Self {
        self.i32(i32::try_from(n).unwrap_or(i32::MAX))
    }

    /// A length or count as a `u32`, saturating at `u32::MAX`.
    pub fn count_u32(&mut self, n: usize) -> &mut Self {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Exactly `width` bytes: `s` cut, or padded with NULs.
    pub fn fixed(&mut self, s: &[u8], width: usize) -> &mut Self {
        let n = s.len().min(width);
        self.buf.extend_from_slice(&s[..n]);
        self.zeros(width - n)
    }

    /// `n` zero bytes.
    pub fn zeros(&mut self, n: usize) -> &mut Self {
        self.buf.resize(self.buf.len() + n, 0);
        self
    }

    /// Pads with zeros until `len() - shift` is a multiple of `align` (`shift` lets a writer align relative to
    /// a logical start other than byte 0); `align` 0 or 1 adds nothing.
    pub fn align_to(&mut self, align: usize, shift: usize) -> &mut Self {
        if align > 1 {
            let logical = self.buf.len().wrapping_sub(shift);
            let pad = (align - logical % align) % align;
            self.zeros(pad);
        }
        self
    }

    /// Overwrites four bytes at `offset` with `v` (a header field filled in once the section is placed).
    /// Out of range (a writer's mistake) does nothing.
    pub fn patch_u32(&mut self, offset: usize, v: u32) {
        patch_u32(&mut self.buf, offset, v);
    }

    /// Sets the length, cutting or padding with zeros (tests that truncate or pad a written file).
    pub fn resize(&mut self, len: usize) {
        self.buf.resize(len, 0);
    }
}

/// Overwrites a little-endian `u32` at `offset` in bytes already written; returns false (and changes nothing)
/// when `offset` is out of range, so breaking a written file on purpose can't panic a test.
pub fn patch_u32(bytes: &mut [u8], offset: usize, v: u32) -> bool {
    match offset.checked_add(4).and_then(|end| bytes.get_mut(offset..end)) {
        Some(slot) => {
            slot.copy_from_slice(&v.to_le_bytes());
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::binread::{Cursor, le_u32};

    #[test]
    fn what_is_written_reads_back_through_binread() {
        let mut w = ByteWriter::new();
        w.u8(7).u16(0xBEEF).i32(-5).u32(0xDEAD_BEEF).f32(1.5).fixed(b"abc", 5).count_i32(usize::MAX);
        let bytes = w.into_bytes();
        assert_eq!(bytes.len(), 1 + 2 + 4 + 4 + 4 + 5 + 4);
        let mut c = Cursor::new(&bytes);
        assert_eq!(c.u8("a").unwrap(), 7);
        assert_eq!(c.u16("b").unwrap(), 0xBEEF);
        assert_eq!(c.i32("c").unwrap(), -5);
        assert_eq!(c.u32("d").unwrap(), 0xDEAD_BEEF);
        assert_eq!(c.f32("e").unwrap(), 1.5);
        assert_eq!(c.bytes(5, "f").unwrap(), b"abc\0\0");
        assert_eq!(c.i32("g").unwrap(), i32::MAX);
    }

    #[test]
    fn fixed_cuts_and_align_pads_relative_to_a_shift() {
        let mut w = ByteWriter::new();
        w.fixed(b"abcdefgh", 4);
        assert_eq!(w.as_slice(), b"abcd");
        w.u8(1).align_to(4, 0);
        assert_eq!(w.len(), 8);
        w.u8(1).align_to(4, 1);
        assert_eq!(w.len(), 9, "already aligned relative to the shift");
        w.align_to(4, 2);
        assert_eq!(w.len(), 10);
        w.patch_u32(0, 0x0403_0201);
        assert_eq!(le_u32(w.as_slice(), 0), 0x0403_0201);
        w.patch_u32(usize::MAX - 2, 1);
        assert_eq!(w.len(), 10);
    }
}

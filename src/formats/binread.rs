//! Bounds-checked little-endian reads over a byte slice.
//!
//! Every binary parser reads through this module and never indexes the buffer directly, so no format module
//! can overrun it. Reads are unaligned (real IQM files put sections at odd offsets), arithmetic is checked
//! `u64`, and array reads check `count × size` against the bytes that exist *before* anything is allocated,
//! so a count read from a file can never drive an allocation larger than the file.

use crate::error::LoadError;

/// A view of a file's bytes with checked access at absolute offsets.
#[derive(Clone, Copy)]
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn all(&self) -> &'a [u8] {
        self.data
    }

    /// `count` records of `size` bytes at `offset`, or an error naming `what` and where it would end.
    pub fn slice(&self, offset: u64, count: u64, size: u64, what: &str) -> Result<&'a [u8], LoadError> {
        let len = count
            .checked_mul(size)
            .ok_or_else(|| LoadError::at(offset, format!("{what}: {count} × {size} B overflows")))?;
        let end = offset
            .checked_add(len)
            .ok_or_else(|| LoadError::at(offset, format!("{what}: offset {offset} + {len} B overflows")))?;
        if end > self.len() {
            return Err(LoadError::at(
                offset,
                format!("{what} ({count}×{size} B at {offset}) end at {end}, past end of file ({})", self.len()),
            ));
        }
        // Both bounds were just checked against the slice length, which fits in usize.
        Ok(&self.data[offset as usize..end as usize])
    }

    pub fn u32_at(&self, offset: u64, what: &str) -> Result<u32, LoadError> {
        Ok(le_u32(self.slice(offset, 1, 4, what)?, 0))
    }
}

/// Cursor over one record or section that was already bounds-checked as a whole, so field reads are
/// infallible. Construct it only from a slice returned by [`Bytes::slice`].
#[derive(Clone, Copy)]
pub struct Record<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Record<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Record { data, pos: 0 }
    }

    /// Reads four bytes; past the end (a caller's size mistake) it yields zeros rather than panicking.
    fn take4(&mut self) -> [u8; 4] {
        let mut b = [0u8; 4];
        if let Some(s) = self.data.get(self.pos..self.pos + 4) {
            b.copy_from_slice(s);
        }
        self.pos += 4;
        b
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take4())
    }

    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take4())
    }

    pub fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take4())
    }

    pub fn f32s<const N: usize>(&mut self) -> [f32; N] {
        std::array::from_fn(|_| self.f32())
    }

    /// The next `N` bytes as they are (zeros past the end, like every read here).
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        if let Some(s) = self.pos.checked_add(N).and_then(|end| self.data.get(self.pos..end)) {
            b.copy_from_slice(s);
        }
        self.pos = self.pos.saturating_add(N);
        b
    }

    pub fn u8(&mut self) -> u8 {
        self.array::<1>()[0]
    }

    /// A one-byte flag: anything but 0 is true.
    pub fn bool(&mut self) -> bool {
        self.u8() != 0
    }

    pub fn i64(&mut self) -> i64 {
        i64::from_le_bytes(self.array())
    }
}

/// A forward reader for formats that are a stream of fields and counted arrays (RSM). Every read is checked
/// against the bytes left and names the field it was reading; [`Cursor::count`] checks a count read from the
/// file against the bytes that remain, so no count can drive an allocation larger than the file.
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Cursor { data, pos: 0 }
    }

    /// The offset of the next read.
    pub fn pos(&self) -> u64 {
        self.pos as u64
    }

    pub fn remaining(&self) -> u64 {
        (self.data.len() - self.pos.min(self.data.len())) as u64
    }

    /// The next `n` bytes, or an error naming `what` and how many bytes it needed.
    pub fn bytes(&mut self, n: u64, what: &str) -> Result<&'a [u8], LoadError> {
        if n > self.remaining() {
            return Err(LoadError::at(
                self.pos(),
                format!("{what}: expected {n} B, only {} B left before the end of the file", self.remaining()),
            ));
        }
        let start = self.pos;
        self.pos += n as usize;
        Ok(&self.data[start..self.pos])
    }

    pub fn u8(&mut self, what: &str) -> Result<u8, LoadError> {
        Ok(self.bytes(1, what)?[0])
    }

    pub fn u16(&mut self, what: &str) -> Result<u16, LoadError> {
        let b = self.bytes(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn i8(&mut self, what: &str) -> Result<i8, LoadError> {
        Ok(self.bytes(1, what)?[0] as i8)
    }

    pub fn i16(&mut self, what: &str) -> Result<i16, LoadError> {
        Ok(self.u16(what)? as i16)
    }

    pub fn i32(&mut self, what: &str) -> Result<i32, LoadError> {
        Ok(le_u32(self.bytes(4, what)?, 0) as i32)
    }

    pub fn u32(&mut self, what: &str) -> Result<u32, LoadError> {
        Ok(le_u32(self.bytes(4, what)?, 0))
    }

    pub fn f32(&mut self, what: &str) -> Result<f32, LoadError> {
        Ok(f32::from_bits(le_u32(self.bytes(4, what)?, 0)))
    }

    pub fn f32s<const N: usize>(&mut self, what: &str) -> Result<[f32; N], LoadError> {
        let b = self.bytes(4 * N as u64, what)?;
        Ok(std::array::from_fn(|i| f32::from_bits(le_u32(b, 4 * i))))
    }

    /// An i32 element count whose elements take at least `min_size` bytes each: negative counts and counts
    /// the rest of the file cannot hold are errors naming `what`.
    pub fn count(&mut self, min_size: u64, what: &str) -> Result<usize, LoadError> {
        let at = self.pos();
        let n = self.i32(&format!("{what} count"))?;
        if n < 0 {
            return Err(LoadError::at(at, format!("{what} count {n}: expected 0 or more")));
        }
        let need = (n as u64).saturating_mul(min_size);
        if need > self.remaining() {
            return Err(LoadError::at(
                at,
                format!(
                    "{what} count {n}: expected at most {} ({n} × {min_size} B need {need} B, {} B left)",
                    self.remaining() / min_size.max(1),
                    self.remaining()
                ),
            ));
        }
        Ok(n as usize)
    }
}

/// Little-endian u32 at `i` of a slice known to be long enough (zero when it is not).
pub fn le_u32(s: &[u8], i: usize) -> u32 {
    s.get(i..i + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_rejects_overrun_and_overflow() {
        let data = [0u8; 10];
        let b = Bytes::new(&data);
        assert!(b.slice(8, 1, 2, "x").is_ok());
        let e = b.slice(8, 1, 4, "meshes").unwrap_err();
        assert!(e.to_string().contains("meshes (1×4 B at 8) end at 12, past end of file (10)"), "{e}");
        assert!(b.slice(u64::MAX, 1, 1, "x").is_err());
        assert!(b.slice(0, u64::MAX, 24, "x").is_err());
    }

    #[test]
    fn cursor_checks_counts_against_the_bytes_left() {
        let data = [3u8, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        let mut c = Cursor::new(&data);
        let mut peek = c;
        let e = peek.count(4, "vertex").unwrap_err();
        assert!(e.to_string().contains("vertex count 3: expected at most 2"), "{e}");
        assert_eq!(c.count(2, "x").unwrap(), 3);
        assert_eq!(c.u16("a").unwrap(), 0x0201);
        assert!(c.bytes(7, "tail").is_err());
        let neg = (-1i32).to_le_bytes();
        assert!(Cursor::new(&neg).count(1, "n").is_err());
    }

    #[test]
    fn record_reads_unaligned_and_never_panics() {
        let data = [1u8, 0, 0, 0, 0, 0, 0x80, 0x3f];
        let mut r = Record::new(&data[..]);
        assert_eq!(r.u32(), 1);
        assert_eq!(r.f32(), 1.0);
        assert_eq!(r.u32(), 0);
    }

    #[test]
    fn record_reads_bytes_flags_and_i64_and_zeros_past_the_end() {
        let data = [2u8, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 7, 8];
        let mut r = Record::new(&data[..]);
        assert!(r.bool());
        assert!(!r.bool());
        assert_eq!(r.i64(), -2);
        let mut past = r;
        assert_eq!(past.array::<4>(), [0; 4], "a read that would cross the end yields zeros");
        assert_eq!(r.array::<2>(), [7, 8]);
        assert_eq!(r.u8(), 0);
    }
}

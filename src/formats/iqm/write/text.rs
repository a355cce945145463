//! The text table the writer builds while it names records.

use std::collections::HashMap;

/// The shared string table: offset 0 is `""`, and equal strings share one offset.
pub(super) struct TextTable {
    pub(super) bytes: Vec<u8>,
    offsets: HashMap<String, u32>,
}

impl TextTable {
    pub(super) fn new() -> Self {
        let mut offsets = HashMap::new();
        offsets.insert(String::new(), 0);
        TextTable { bytes: vec![0], offsets }
    }

    pub(super) fn intern(&mut self, s: &str) -> u32 {
        if let Some(&ofs) = self.offsets.get(s) {
            return ofs;
        }
        let ofs = saturate(self.bytes.len());
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        self.offsets.insert(s.to_owned(), ofs);
        ofs
    }
}

pub(super) fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

//! Fixed-width Shift-JIS (cp932) names: bone and morph names (15 bytes), the model name (20 or 10 bytes) and
//! IK bone names in property keys (20 bytes).
//!
//! A field holds the name, a NUL, and padding (MikuMikuDance pads with 0xFD). A name as long as the field has
//! no NUL, and MikuMikuDance cuts it at the byte, even inside a two-byte character: the cut lead byte is left
//! out of the text and flagged, and the raw bytes are kept so the name can be matched by prefix.

use crate::scene::VmdName;

/// A cp932 lead byte: the first of a two-byte character.
fn is_lead_byte(b: u8) -> bool {
    matches!(b, 0x81..=0x9F | 0xE0..=0xFC)
}

/// True when `bytes` ends inside a two-byte character: walking from the start, the last byte is a lead byte
/// with no second byte after it.
fn ends_mid_character(bytes: &[u8]) -> bool {
    let mut i = 0;
    while i < bytes.len() {
        if is_lead_byte(bytes[i]) {
            if i + 1 == bytes.len() {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

/// Decodes a name field. Bytes that are not cp932 become U+FFFD (which cp932 cannot encode, so its presence
/// in the text says the name was undecodable: [`undecodable`]).
pub fn decode(field: &[u8]) -> VmdName {
    let end = field.iter().position(|&b| b == 0);
    let raw = &field[..end.unwrap_or(field.len())];
    let cut = end.is_none() && ends_mid_character(raw);
    let text_bytes = if cut { &raw[..raw.len() - 1] } else { raw };
    let (text, _) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(text_bytes);
    VmdName { text: text.into_owned(), raw: raw.to_vec(), cut }
}

/// True when some of the name's bytes were not cp932.
pub fn undecodable(name: &VmdName) -> bool {
    name.text.contains('\u{FFFD}')
}

/// The cp932 bytes of `text` (characters cp932 lacks become `?`), for writers.
pub fn encode(text: &str) -> Vec<u8> {
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(text);
    bytes.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stop_at_the_nul_and_ignore_the_padding() {
        let mut field = encode("センター");
        field.push(0);
        field.resize(15, 0xFD);
        let n = decode(&field);
        assert!(!undecodable(&n));
        assert_eq!(n.text, "センター");
        assert_eq!(n.raw, encode("センター"));
        assert!(!n.cut);
    }

    #[test]
    fn a_character_cut_by_the_field_is_left_out_and_flagged() {
        // 左手人差指１ is 12 bytes; "abcd" before it makes 16, and 15 bytes end after the lead byte of １.
        let full = encode("abcd左手人差指１");
        assert_eq!(full.len(), 16);
        let field = full[..15].to_vec();
        let n = decode(&field);
        assert!(!undecodable(&n) && n.cut, "{n:?}");
        assert_eq!(n.text, "abcd左手人差指");
        assert_eq!(n.raw.len(), 15);
        // A full field that ends on a whole character is not cut.
        let mut whole = encode("abc左手人差指");
        whole.extend(b"123");
        let n = decode(&whole[..15]);
        assert!(!n.cut);
        assert_eq!(n.text, "abc左手人差指12");
    }

    #[test]
    fn undecodable_bytes_are_replaced_and_reported() {
        let n = decode(&[b'a', 0x85, 0x20, 0]);
        assert!(undecodable(&n));
        assert!(n.text.starts_with('a') && n.text.contains('\u{FFFD}'), "{n:?}");
    }
}

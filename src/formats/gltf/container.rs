//! The GLB container, buffers (the GLB binary chunk, `data:` URIs, files beside a .gltf) and the URI forms
//! glTF uses (base64 data, percent-encoded relative paths).

use std::borrow::Cow;
use std::path::Path;

use crate::error::LoadError;

/// GLB's magic, at byte 0.
pub const GLB_MAGIC: &[u8; 4] = b"glTF";

/// The JSON text and binary chunk of a file, and where the JSON starts in it.
#[derive(Debug)]
pub struct Container<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
    /// True for GLB: JSON positions are in its JSON chunk, which starts at byte 20.
    pub glb: bool,
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// Splits a GLB into its chunks (checked here: the `gltf` crate's own splitter subtracts before it checks), or
/// takes the whole file as JSON.
pub fn split(data: &[u8]) -> Result<Container<'_>, LoadError> {
    if !data.starts_with(GLB_MAGIC) {
        return Ok(Container { json: data, bin: None, glb: false });
    }
    let (Some(version), Some(length)) = (u32_at(data, 4), u32_at(data, 8)) else {
        return Err(LoadError::at(0, format!("GLB header cut short: 12 bytes expected, file has {}", data.len())));
    };
    if version != 2 {
        return Err(LoadError::at(4, format!("GLB version {version} unsupported (expected 2)")));
    }
    let length = length as usize;
    if length > data.len() || length < 20 {
        let m = format!("GLB header says {length} bytes, file has {} (and a JSON chunk needs 20)", data.len());
        return Err(LoadError::at(8, m));
    }
    let data = &data[..length];
    let (mut json, mut bin) = (None, None);
    let mut at = 12;
    while at < length {
        let (Some(len), Some(kind)) = (u32_at(data, at), data.get(at + 4..at + 8)) else {
            return Err(LoadError::at(at as u64, "GLB chunk header cut short (8 bytes expected)"));
        };
        let start = at + 8;
        let Some(chunk) = start.checked_add(len as usize).and_then(|end| data.get(start..end)) else {
            let m = format!("GLB chunk of {len} bytes runs past the end of the file ({length} bytes)");
            return Err(LoadError::at(at as u64, m));
        };
        match kind {
            b"JSON" if json.is_none() && at == 12 => json = Some(chunk),
            b"BIN\0" if bin.is_none() && json.is_some() => bin = Some(chunk),
            b"JSON" | b"BIN\0" => {
                return Err(LoadError::at(at as u64 + 4, "GLB chunk out of place: JSON first, then at most one BIN"));
            }
            // Unknown chunks are skipped, as the spec says.
            _ => {}
        }
        at = start + len as usize;
    }
    let Some(json) = json else {
        return Err(LoadError::at(16, "GLB without a JSON chunk (expected \"JSON\" at byte 16)"));
    };
    Ok(Container { json, bin, glb: true })
}

/// Decodes standard base64 (padding optional, whitespace skipped).
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return Err(format!("invalid base64 character {:?} at {i}", c as char)),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// Decodes `%XX` escapes of a URI (invalid escapes are kept as written).
pub fn percent_decode(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (b.get(i + 1).and_then(|&c| hex(c)), b.get(i + 2).and_then(|&c| hex(c)))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The bytes of a `data:` URI, or `None` when `uri` is not one.
pub fn data_uri(uri: &str) -> Option<Result<Vec<u8>, String>> {
    let rest = uri.strip_prefix("data:")?;
    let Some((head, payload)) = rest.split_once(',') else {
        return Some(Err("data URI without a comma".into()));
    };
    Some(if head.ends_with(";base64") { base64_decode(payload) } else { Ok(percent_decode(payload).into_bytes()) })
}

/// A relative URI as a path inside the model's folder: `None` for absolute paths, other schemes and paths that
/// climb out (`..`), which an untrusted file must not reach.
pub fn relative_path(uri: &str) -> Option<String> {
    let path = percent_decode(uri);
    let scheme = path.split_once(':').is_some_and(|(s, _)| !s.contains('/'));
    let rel = Path::new(&path);
    let inside = rel.components().all(|c| matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir));
    (!path.is_empty() && !scheme && inside).then_some(path)
}

/// Every buffer's bytes: the GLB binary chunk, a `data:` URI's, or a file beside the model (read only with
/// `dir`). A buffer shorter than its `byteLength` is refused.
pub fn resolve_buffers<'a>(
    doc: &gltf::Document,
    bin: Option<&'a [u8]>,
    dir: Option<&Path>,
) -> Result<Vec<Cow<'a, [u8]>>, LoadError> {
    let mut out = Vec::new();
    for buffer in doc.buffers() {
        let i = buffer.index();
        let bytes = match buffer.source() {
            gltf::buffer::Source::Bin => match bin {
                Some(b) if i == 0 => Cow::Borrowed(b),
                _ => return Err(LoadError::whole(format!("buffer {i} refers to a GLB binary chunk the file lacks"))),
            },
            gltf::buffer::Source::Uri(uri) => match data_uri(uri) {
                Some(decoded) => Cow::Owned(decoded.map_err(|e| LoadError::whole(format!("buffer {i}: {e}")))?),
                None => Cow::Owned(read_external(i, uri, dir)?),
            },
        };
        if bytes.len() < buffer.length() {
            let m = format!("buffer {i}: byteLength is {} but only {} bytes are there", buffer.length(), bytes.len());
            return Err(LoadError::whole(m));
        }
        out.push(bytes);
    }
    Ok(out)
}

fn read_external(i: usize, uri: &str, dir: Option<&Path>) -> Result<Vec<u8>, LoadError> {
    let Some(dir) = dir else {
        let m = format!(
            "buffer {i} is the external file \"{uri}\", which can only be read when the model is loaded by path"
        );
        return Err(LoadError::whole(m));
    };
    let Some(rel) = relative_path(uri) else {
        let m = format!("buffer {i}: \"{uri}\" is not a relative path inside the model's folder");
        return Err(LoadError::whole(m));
    };
    let path = dir.join(&rel);
    crate::vfs::read(&path)
        .map_err(|e| LoadError::whole(format!("buffer {i}: cannot read \"{}\": {e}", path.display())))
}

/// A GLB whose JSON chunk `edit` changed, packed again with the rest of the file as it was; `None` when `glb`
/// isn't a GLB with a JSON chunk (the writers' post-processing, and tests that make broken files from good ones).
pub fn edit_glb_json(glb: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Option<Vec<u8>> {
    let len = u32::from_le_bytes(glb.get(12..16)?.try_into().ok()?) as usize;
    let mut json: serde_json::Value = serde_json::from_slice(glb.get(20..20usize.checked_add(len)?)?).ok()?;
    edit(&mut json);
    let mut text = serde_json::to_vec(&json).ok()?;
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let rest = &glb[20 + len..];
    let total = 12 + 8 + text.len() + rest.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&glb[..8]);
    out.extend_from_slice(&u32::try_from(total).ok()?.to_le_bytes());
    out.extend_from_slice(&u32::try_from(text.len()).ok()?.to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_percent_decoding() {
        assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("aGVsbG8").unwrap(), b"hello");
        assert_eq!(base64_decode("AAEC/w==").unwrap(), [0, 1, 2, 255]);
        assert!(base64_decode("a*b").is_err());
        assert_eq!(percent_decode("my%20file.bin"), "my file.bin");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(data_uri("data:application/octet-stream;base64,AAEC").unwrap().unwrap(), [0, 1, 2]);
        assert!(data_uri("buffer.bin").is_none());
        assert_eq!(relative_path("tex/a%20b.png").as_deref(), Some("tex/a b.png"));
        assert_eq!(relative_path("../x.bin"), None);
        assert_eq!(relative_path("/etc/passwd"), None);
        assert_eq!(relative_path("http://example.com/x.bin"), None);
    }

    #[test]
    fn glb_headers_are_checked_before_use() {
        assert!(split(b"glTF").is_err());
        let mut glb = b"glTF".to_vec();
        glb.extend(2u32.to_le_bytes());
        glb.extend(4u32.to_le_bytes());
        assert!(split(&glb).unwrap_err().message.contains("header says 4 bytes"));
        let json = b"{}  ";
        let mut glb = b"glTF".to_vec();
        glb.extend(2u32.to_le_bytes());
        glb.extend((20 + json.len() as u32 + 8 + 4).to_le_bytes());
        glb.extend((json.len() as u32).to_le_bytes());
        glb.extend(b"JSON");
        glb.extend(json);
        glb.extend(4u32.to_le_bytes());
        glb.extend(b"BIN\0");
        glb.extend([1, 2, 3, 4]);
        let c = split(&glb).unwrap();
        assert_eq!((c.json, c.bin), (&json[..], Some(&[1u8, 2, 3, 4][..])));
        glb.truncate(glb.len() - 1);
        assert!(split(&glb).is_err(), "a length past the end");
    }
}

//! VPD lines into raw records. Lines are split on raw bytes (no cp932 byte is a line feed), decoded one by
//! one, cut at `//` and trimmed; blank lines are skipped. Every error names the 1-based line.

use super::{BOM, SIGNATURE};
use crate::error::{LoadError, Location, Warning};

#[derive(Debug, Clone, PartialEq)]
pub struct RawBone {
    pub line: u64,
    pub name: String,
    pub position: [f32; 3],
    /// x, y, z, w.
    pub rotation: [f32; 4],
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawMorph {
    pub line: u64,
    pub name: String,
    pub weight: f32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawVpd {
    pub utf8: bool,
    pub model_file: String,
    pub declared_bones: usize,
    pub declared_line: u64,
    pub bones: Vec<RawBone>,
    pub morphs: Vec<RawMorph>,
    pub warnings: Vec<Warning>,
}

fn err(line: u64, message: impl Into<String>) -> LoadError {
    LoadError { file: String::new(), location: Location::Line(line), message: message.into() }
}

/// The statements of the file: (line, text without comment, trimmed), blank ones left out.
struct Lines<'a> {
    /// What is left of the file after the last line read.
    rest: &'a [u8],
    utf8: bool,
    warnings: Vec<Warning>,
    /// The last line number read (for "the file ends" errors).
    last: u64,
}

impl Lines<'_> {
    fn next(&mut self) -> Option<(u64, String)> {
        while !self.rest.is_empty() {
            let end = self.rest.iter().position(|&b| b == b'\n');
            let raw = &self.rest[..end.unwrap_or(self.rest.len())];
            self.rest = end.map_or(&[][..], |e| &self.rest[e + 1..]);
            self.last += 1;
            let line = self.last;
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let (text, bad) = if self.utf8 {
                let (t, _, bad) = encoding_rs::UTF_8.decode(raw);
                (t, bad)
            } else {
                encoding_rs::SHIFT_JIS.decode_without_bom_handling(raw)
            };
            if bad {
                let enc = if self.utf8 { "UTF-8" } else { "Shift-JIS (cp932)" };
                self.warnings.push(Warning {
                    rule: "vpd.encoding",
                    location: Location::Line(line),
                    message: format!("bytes that are not {enc}; replaced"),
                });
            }
            let text = text.split("//").next().unwrap_or("").trim();
            if !text.is_empty() {
                return Some((line, text.to_string()));
            }
        }
        None
    }

    /// The next statement, or an error saying what the file ends without.
    fn expect(&mut self, what: &str) -> Result<(u64, String), LoadError> {
        let last = self.last;
        self.next().ok_or_else(|| err(last.max(1), format!("the file ends here: expected {what}")))
    }
}

/// `a,b,c;` as N numbers.
fn numbers<const N: usize>(line: u64, text: &str, what: &str) -> Result<[f32; N], LoadError> {
    let body =
        text.strip_suffix(';').ok_or_else(|| err(line, format!("expected {what} ending in ';', found \"{text}\"")))?;
    let parts: Vec<&str> = body.split(',').map(str::trim).collect();
    if parts.len() != N {
        return Err(err(line, format!("expected {what} ({N} numbers separated by ','), found \"{text}\"")));
    }
    let mut out = [0f32; N];
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = p.parse::<f32>().map_err(|_| err(line, format!("{what}: \"{p}\" is not a number")))?;
    }
    Ok(out)
}

/// `BoneN{name` or `MorphN{name` as (kind, index, name).
fn block_start(text: &str) -> Option<(&'static str, &str, String)> {
    let (head, name) = text.split_once('{')?;
    let head = head.trim();
    for kind in ["Bone", "Morph"] {
        if let Some(index) = head.strip_prefix(kind)
            && index.chars().all(|c| c.is_ascii_digit())
        {
            return Some((kind, index, name.trim().to_string()));
        }
    }
    None
}

fn close(lines: &mut Lines, kind: &str, index: &str, opened: u64) -> Result<(), LoadError> {
    let (line, text) = lines.expect(&format!("'}}' closing {kind}{index} (opened on line {opened})"))?;
    if text != "}" {
        return Err(err(
            line,
            format!("expected '}}' closing {kind}{index} (opened on line {opened}), found \"{text}\""),
        ));
    }
    Ok(())
}

pub fn parse(data: &[u8]) -> Result<RawVpd, LoadError> {
    let utf8 = data.starts_with(BOM);
    let body = data.strip_prefix(BOM).unwrap_or(data);
    let mut lines = Lines { rest: body, utf8, warnings: Vec::new(), last: 0 };
    let (line, header) = lines.expect("the header \"Vocaloid Pose Data file\"")?;
    if header.as_bytes() != SIGNATURE {
        return Err(err(line, format!("expected the header \"Vocaloid Pose Data file\", found \"{header}\"")));
    }
    let (line, model) = lines.expect("the model file name (\"name.osm;\")")?;
    let model_file = model
        .strip_suffix(';')
        .ok_or_else(|| err(line, format!("expected the model file name ending in ';', found \"{model}\"")))?;
    let (declared_line, count) = lines.expect("the bone count (\"N;\")")?;
    let declared_bones = count
        .strip_suffix(';')
        .and_then(|n| n.trim().parse::<usize>().ok())
        .ok_or_else(|| err(declared_line, format!("expected the bone count (\"N;\"), found \"{count}\"")))?;
    let mut bones = Vec::new();
    let mut morphs = Vec::new();
    while let Some((line, text)) = lines.next() {
        let Some((kind, index, name)) = block_start(&text) else {
            return Err(err(line, format!("expected a block \"BoneN{{name\" or \"MorphN{{name\", found \"{text}\"")));
        };
        if kind == "Bone" {
            let (l, t) = lines.expect(&format!("Bone{index}'s translation \"x,y,z;\""))?;
            let position = numbers::<3>(l, &t, &format!("Bone{index}'s translation x,y,z"))?;
            let (l, t) = lines.expect(&format!("Bone{index}'s quaternion \"x,y,z,w;\""))?;
            let rotation = numbers::<4>(l, &t, &format!("Bone{index}'s quaternion x,y,z,w"))?;
            close(&mut lines, kind, index, line)?;
            bones.push(RawBone { line, name, position, rotation });
        } else {
            let (l, t) = lines.expect(&format!("Morph{index}'s weight \"w;\""))?;
            let [weight] = numbers::<1>(l, &t, &format!("Morph{index}'s weight"))?;
            close(&mut lines, kind, index, line)?;
            morphs.push(RawMorph { line, name, weight });
        }
    }
    Ok(RawVpd {
        utf8,
        model_file: model_file.trim().to_string(),
        declared_bones,
        declared_line,
        bones,
        morphs,
        warnings: lines.warnings,
    })
}

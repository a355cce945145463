//! Inputs for robustness tests: every corpus file and files made by rigscope's own writers, and seeded
//! structure-aware mutations of them.

use super::{corpus_files, read};
use rigscope::scene::MvdEncoding;
use rigscope::synth::{SynthSpec, iqm_bytes};

/// Deterministic xorshift, so every run tries the same inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Every input file: the corpus and files made by rigscope's own writers.
pub fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = corpus_files("iqm", &["iqm", "iqe"])
        .into_iter()
        .chain(corpus_files("rsm", &["rsm", "rsm2"]))
        .chain(corpus_files("mmd", &["vmd"]))
        .chain(corpus_files("mmd", &["pmx", "pmd"]))
        .chain(corpus_files("vrm", &["vrm"]))
        .map(|p| (p.display().to_string(), read(&p)))
        .collect();
    let synth = iqm_bytes(SynthSpec { vertices: 512, joints: 6, frames: 4 });
    let scene = rigscope::load_bytes("synth.iqm", &synth).unwrap();
    out.push(("synth.iqe".into(), rigscope::convert::to_iqe(&scene).0.into_bytes()));
    out.push(("synth.iqm".into(), synth));
    for (major, minor) in [(1, 1), (1, 2), (1, 5), (1, 6), (2, 2), (2, 3)] {
        let doc = rigscope::formats::rsm::write::sample_document(major, minor);
        out.push((format!("v{major}{minor}.rsm"), doc.to_bytes()));
    }
    for enc in [MvdEncoding::Utf16Le, MvdEncoding::Utf8] {
        out.push((format!("{enc:?}.mvd"), rigscope::formats::mvd::write::sample_document(enc).to_bytes()));
        let props = rigscope::formats::mvd::write::property_document(enc);
        out.push((format!("{enc:?}_properties.mvd"), props.to_bytes()));
    }
    let vmd = rigscope::formats::vmd::write::sample_document();
    let mut v1 = rigscope::formats::vmd::write::VmdDocument::v1("m");
    v1.bones = vmd.bones.clone();
    v1.cameras = vmd.cameras.clone();
    out.push(("sample.vmd".into(), vmd.to_bytes()));
    out.push(("v1.vmd".into(), v1.to_bytes()));
    let vpd = rigscope::formats::vpd::write::sample_document();
    out.push(("sample.vpd".into(), vpd.to_bytes()));
    out.push(("utf8.vpd".into(), rigscope::formats::vpd::write::VpdDocument { utf8: true, ..vpd }.to_bytes()));
    for enc in [rigscope::scene::MmdEncoding::Utf16Le, rigscope::scene::MmdEncoding::Utf8] {
        for size in [1, 2, 4] {
            let doc = rigscope::formats::pmx::write::sample_document(enc, size);
            out.push((format!("{enc:?}_{size}.pmx"), doc.to_bytes()));
        }
    }
    out.push(("sample.pmd".into(), rigscope::formats::pmd::write::sample_document().to_bytes()));
    let gltf = rigscope::formats::gltf::write::sample_document();
    out.push(("sample.glb".into(), gltf.to_glb()));
    out.push(("sample.gltf".into(), gltf.to_gltf_embedded()));
    out.extend(rigscope::synth::exports::gltf_exports());
    out
}

/// Values that break parsers: zero and one, sign and range limits, counts just past the file, NaN and infinity.
fn interesting(len: usize, rng: &mut Rng) -> [u8; 4] {
    let v: u32 = match rng.below(12) {
        0 => 0,
        1 => 1,
        2 => u32::MAX,
        3 => i32::MAX as u32,
        4 => 0x8000_0000,
        5 => len as u32,
        6 => (len as u32).wrapping_add(1),
        7 => f32::NAN.to_bits(),
        8 => f32::INFINITY.to_bits(),
        9 => (-1.0e30f32).to_bits(),
        10 => 0xFFFF,
        _ => rng.next() as u32,
    };
    v.to_le_bytes()
}

/// A binary format's fields are 4-byte little-endian values at mostly aligned offsets: overwrite one to three
/// of them (at aligned or unaligned places) with interesting values, or cut or duplicate a span.
pub fn mutate_binary(data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut d = data.to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(10) {
            0 if d.len() > 8 => {
                let at = rng.below(d.len());
                let n = rng.below((d.len() - at).min(64));
                d.drain(at..at + n);
            }
            1 if d.len() > 8 => {
                let at = rng.below(d.len());
                let n = rng.below((d.len() - at).min(64));
                let span: Vec<u8> = d[at..at + n].to_vec();
                d.splice(at..at, span);
            }
            _ if d.len() >= 4 => {
                let mut at = rng.below(d.len() - 3);
                if rng.below(4) != 0 {
                    at &= !3;
                }
                let v = interesting(d.len(), rng);
                d[at..at + 4].copy_from_slice(&v);
            }
            _ => {}
        }
    }
    d
}

/// IQE is lines of commands: duplicate, drop or swap lines, or replace one number with an extreme.
pub fn mutate_text(data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let text = String::from_utf8_lossy(data);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    if lines.is_empty() {
        return data.to_vec();
    }
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(lines.len());
        match rng.below(5) {
            0 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            1 if lines.len() > 1 && i > 0 => {
                lines.remove(i);
            }
            2 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            _ => {
                let words: Vec<&str> = lines[i].split(' ').collect();
                let k = rng.below(words.len());
                let extreme = ["-1", "4294967296", "-2147483649", "nan", "1e39", "0", "99999999", "\"", "-0"];
                let mut w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
                w[k] = extreme[rng.below(extreme.len())].to_string();
                lines[i] = w.join(" ");
            }
        }
    }
    lines.join("\n").into_bytes()
}

/// Mutates `data` the way that reaches `name`'s parser: lines for the text formats, the JSON tree for glTF,
/// 4-byte fields and spans for the other binary formats.
pub fn mutate(name: &str, data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let name = name.to_ascii_lowercase();
    if name.ends_with(".iqe") || name.ends_with(".vpd") {
        mutate_text(data, rng)
    } else if name.ends_with(".gltf") || name.ends_with(".glb") {
        mutate_gltf(data, rng)
    } else {
        mutate_binary(data, rng)
    }
}

/// glTF: a .gltf's JSON tree is mutated; a GLB has either its JSON chunk mutated as a tree (and the chunk
/// lengths rewritten to fit) or its bytes mutated as any binary file's, so both the references and the binary
/// chunk's bounds are reached.
pub fn mutate_gltf(data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let json_len = data.get(12..16).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize);
    match json_len {
        Some(n) if data.starts_with(b"glTF") && data.len() >= 20 + n => {
            if rng.below(2) == 0 {
                return mutate_binary(data, rng);
            }
            let mut json = mutate_json(&data[20..20 + n], rng);
            while !json.len().is_multiple_of(4) {
                json.push(b' ');
            }
            let rest = &data[20 + n..];
            let mut out = data[..20].to_vec();
            out[8..12].copy_from_slice(&((20 + json.len() + rest.len()) as u32).to_le_bytes());
            out[12..16].copy_from_slice(&(json.len() as u32).to_le_bytes());
            out.extend_from_slice(&json);
            out.extend_from_slice(rest);
            out
        }
        _ if data.starts_with(b"glTF") => mutate_binary(data, rng),
        _ => mutate_json(data, rng),
    }
}

/// One to three edits of a JSON document's tree: a number made extreme, a string swapped for one glTF gives
/// meaning to (types, interpolations, pointers, URIs), an array element dropped or duplicated, an object member
/// dropped, any value made `null`. Text that isn't JSON gets byte mutations instead.
pub fn mutate_json(data: &[u8], rng: &mut Rng) -> Vec<u8> {
    use serde_json::{Value, json};
    let Ok(mut root) = serde_json::from_slice::<Value>(data) else {
        return mutate_binary(data, rng);
    };
    for _ in 0..1 + rng.below(3) {
        let mut paths = Vec::new();
        json_paths(&root, String::new(), &mut paths);
        let path = &paths[rng.below(paths.len())];
        let Some(v) = root.pointer_mut(path) else { continue };
        let numbers = [
            json!(0),
            json!(1),
            json!(-1),
            json!(2),
            json!(65535),
            json!(2147483647u32),
            json!(4294967295u32),
            json!(4294967296u64),
            json!(9007199254740993u64),
            json!(0.5),
            json!(-1.0e39),
            json!(1.0e39),
            json!(5121),
            json!(5125),
            json!(5126),
        ];
        let strings = [
            "",
            "SCALAR",
            "VEC2",
            "VEC4",
            "MAT4",
            "STEP",
            "CUBICSPLINE",
            "weights",
            "translation",
            "pointer",
            "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset",
            "/materials/7/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/rotation",
            "/nodes/0/rotation",
            "data:application/octet-stream;base64,AAEC",
            "data:application/octet-stream;base64,#",
            "../outside.bin",
            "missing.bin",
        ];
        match (rng.below(6), &mut *v) {
            (0, _) => *v = Value::Null,
            (1, Value::Array(a)) if !a.is_empty() => {
                let i = rng.below(a.len());
                a.remove(i);
            }
            (2, Value::Array(a)) if !a.is_empty() => {
                let i = rng.below(a.len());
                let copy = a[i].clone();
                a.insert(i, copy);
            }
            (1 | 2, Value::Object(o)) if !o.is_empty() => {
                let key = o.keys().nth(rng.below(o.len())).unwrap().clone();
                o.remove(&key);
            }
            (_, Value::String(s)) => *s = strings[rng.below(strings.len())].into(),
            _ => *v = numbers[rng.below(numbers.len())].clone(),
        }
    }
    serde_json::to_vec(&root).unwrap()
}

/// The JSON pointer of every value under `v` (itself included).
fn json_paths(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Array(a) => {
            for (i, e) in a.iter().enumerate() {
                json_paths(e, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(o) => {
            for (k, e) in o {
                json_paths(e, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

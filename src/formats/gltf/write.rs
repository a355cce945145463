//! A small glTF writer for tests and robustness inputs: JSON built with `serde_json`, one binary buffer,
//! written as GLB, as .gltf with a `data:` URI buffer, or as .gltf with an external .bin. Not the exporter.

use serde_json::{Value, json};

/// A glTF document being built: the JSON root (without `buffers`) and its one binary buffer.
#[derive(Debug, Clone)]
pub struct GltfDocument {
    pub json: Value,
    pub bin: Vec<u8>,
}

impl Default for GltfDocument {
    fn default() -> Self {
        GltfDocument::new()
    }
}

/// Standard base64 with padding.
pub fn base64_encode(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

impl GltfDocument {
    pub fn new() -> GltfDocument {
        GltfDocument {
            json: json!({ "asset": { "version": "2.0", "generator": "rigscope test writer" } }),
            bin: Vec::new(),
        }
    }

    /// Appends `value` to the root array `key`; returns its index.
    pub fn push(&mut self, key: &str, value: Value) -> usize {
        let list = self.json.as_object_mut().expect("an object root").entry(key).or_insert_with(|| json!([]));
        let list = list.as_array_mut().expect("an array");
        list.push(value);
        list.len() - 1
    }

    /// Appends bytes to the buffer (4-byte aligned) as a buffer view; returns its index.
    pub fn view(&mut self, bytes: &[u8], stride: Option<usize>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut v = json!({ "buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len() });
        if let Some(s) = stride {
            v["byteStride"] = json!(s);
        }
        self.bin.extend_from_slice(bytes);
        self.push("bufferViews", v)
    }

    /// Floats as an accessor of `kind` (`SCALAR`, `VEC3`, `MAT4`…) in a view of their own.
    pub fn floats(&mut self, values: &[f32], kind: &str) -> usize {
        let dims = match kind {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" | "MAT2" => 4,
            "MAT3" => 9,
            _ => 16,
        };
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, None);
        self.push(
            "accessors",
            json!({ "bufferView": view, "componentType": 5126, "count": values.len() / dims, "type": kind }),
        )
    }

    /// Positions (`VEC3`) as an accessor with the bounds the spec asks POSITION accessors to carry.
    pub fn positions(&mut self, values: &[f32]) -> usize {
        let a = self.floats(values, "VEC3");
        let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        for p in values.chunks_exact(3) {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        self.json["accessors"][a]["min"] = json!(lo);
        self.json["accessors"][a]["max"] = json!(hi);
        a
    }

    /// Unsigned shorts as an accessor of `kind`.
    pub fn ushorts(&mut self, values: &[u16], kind: &str) -> usize {
        let dims = if kind == "VEC4" { 4 } else { 1 };
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, None);
        self.push(
            "accessors",
            json!({ "bufferView": view, "componentType": 5123, "count": values.len() / dims, "type": kind }),
        )
    }

    fn with_buffer(&self, uri: Option<String>) -> Vec<u8> {
        let mut root = self.json.clone();
        if !self.bin.is_empty() {
            let mut buffer = json!({ "byteLength": self.bin.len() });
            if let Some(uri) = uri {
                buffer["uri"] = json!(uri);
            }
            root["buffers"] = json!([buffer]);
        }
        serde_json::to_vec(&root).expect("JSON serialises")
    }

    /// The document as GLB: a JSON chunk and a BIN chunk.
    pub fn to_glb(&self) -> Vec<u8> {
        let mut json = self.with_buffer(None);
        while !json.len().is_multiple_of(4) {
            json.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let bin_chunk = if bin.is_empty() { 0 } else { 8 + bin.len() };
        let total = 12 + 8 + json.len() + bin_chunk;
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json);
        if !bin.is_empty() {
            out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
            out.extend_from_slice(b"BIN\0");
            out.extend_from_slice(&bin);
        }
        out
    }

    /// The document as .gltf JSON with the buffer in a base64 `data:` URI.
    pub fn to_gltf_embedded(&self) -> Vec<u8> {
        self.with_buffer(Some(format!("data:application/octet-stream;base64,{}", base64_encode(&self.bin))))
    }

    /// The document as .gltf JSON referring to `bin_uri` for its buffer, and that buffer's bytes.
    pub fn to_gltf_external(&self, bin_uri: &str) -> (Vec<u8>, Vec<u8>) {
        (self.with_buffer(Some(bin_uri.to_string())), self.bin.clone())
    }
}

/// A skinned two-joint strip with a bend animation, a morph target with a weight track, and a textured
/// material with an embedded PNG: a little of everything the reader handles, for robustness sweeps.
pub fn sample_document() -> GltfDocument {
    let mut d = GltfDocument::new();
    let positions = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 2.0, 0.0, 1.0, 2.0, 0.0];
    let pos = d.positions(&positions);
    let normals: Vec<f32> = (0..6).flat_map(|_| [0.0, 0.0, 1.0]).collect();
    let nrm = d.floats(&normals, "VEC3");
    let uv = d.floats(&[0.0, 1.0, 1.0, 1.0, 0.0, 0.5, 1.0, 0.5, 0.0, 0.0, 1.0, 0.0], "VEC2");
    let joints = d.ushorts(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "VEC4");
    let weights: Vec<f32> = [[1.0, 0.0], [1.0, 0.0], [0.5, 0.5], [0.5, 0.5], [1.0, 0.0], [1.0, 0.0]]
        .iter()
        .flat_map(|w| [w[0], w[1], 0.0, 0.0])
        .collect();
    let wts = d.floats(&weights, "VEC4");
    let indices = d.ushorts(&[0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4], "SCALAR");
    let target: Vec<f32> = (0..6).flat_map(|v| if v >= 4 { [0.0, 0.0, 0.5] } else { [0.0; 3] }).collect();
    let tgt = d.floats(&target, "VEC3");
    let ibm: Vec<f32> = [0.0f32, -1.0]
        .iter()
        .flat_map(|y| glam::Mat4::from_translation(glam::Vec3::new(0.0, *y, 0.0)).to_cols_array())
        .collect();
    let ibm = d.floats(&ibm, "MAT4");
    let times = d.floats(&[0.0, 0.5, 1.0], "SCALAR");
    let half = std::f32::consts::FRAC_PI_4.sin();
    let rot = d.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, half, half, 0.0, 0.0, 0.0, 1.0], "VEC4");
    let morph_weights = d.floats(&[0.0, 1.0, 0.0], "SCALAR");
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(2, 2, image::Rgba([255, 128, 0, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("PNG encodes");
    let png_view = d.view(&png, None);
    d.push("images", json!({ "bufferView": png_view, "mimeType": "image/png", "name": "orange" }));
    d.push("textures", json!({ "source": 0 }));
    d.push("materials", json!({ "name": "skin", "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } }));
    d.push(
        "meshes",
        json!({ "name": "strip", "extras": { "targetNames": ["push"] }, "primitives": [{
            "attributes": { "POSITION": pos, "NORMAL": nrm, "TEXCOORD_0": uv, "JOINTS_0": joints, "WEIGHTS_0": wts },
            "indices": indices, "material": 0, "targets": [{ "POSITION": tgt }]
        }] }),
    );
    d.push("nodes", json!({ "name": "root", "children": [1] }));
    d.push("nodes", json!({ "name": "bend", "translation": [0.0, 1.0, 0.0] }));
    d.push("nodes", json!({ "name": "strip", "mesh": 0, "skin": 0 }));
    d.push("skins", json!({ "joints": [0, 1], "inverseBindMatrices": ibm }));
    d.push(
        "animations",
        json!({ "name": "bend", "samplers": [
        { "input": times, "output": rot },
        { "input": times, "output": morph_weights }
    ], "channels": [
        { "sampler": 0, "target": { "node": 1, "path": "rotation" } },
        { "sampler": 1, "target": { "node": 2, "path": "weights" } }
    ] }),
    );
    d.push("scenes", json!({ "nodes": [0, 2] }));
    d.json["scene"] = json!(0);
    d
}

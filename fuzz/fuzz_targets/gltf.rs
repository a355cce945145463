//! Fuzzes the glTF reader, both containers (a GLB when the input starts with "glTF", .gltf JSON otherwise),
//! and what follows a successful parse.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let name = if rigscope::formats::gltf::sniff(data) { "fuzz.glb" } else { "fuzz.gltf" };
    common::exercise(name, data, rigscope::formats::gltf::read(name, data));
});

//! Files rigscope's own glTF exporter writes, as inputs for the robustness sweeps (`tests/common/mutate.rs`) and
//! seeds for the `gltf` fuzz target (`examples/fuzz_seeds.rs`): the paths of the reader that only exported
//! files reach, sparse morph targets and `KHR_animation_pointer` channels.

use glam::Vec3;

use crate::convert::{Container, for_gltf, to_gltf};
use crate::formats::gltf::write::base64_encode;
use crate::formats::pmx::{RawMorph, RawOffsets};
use crate::formats::vmd::write::{BoneKey, MorphKey, VmdDocument};
use crate::scene::{EmbeddedImage, MmdEncoding, MorphPanel, Scene, TextureSearch};

/// Every sample below as `exported_NAME.glb` and `exported_NAME.gltf`.
pub fn gltf_exports() -> Vec<(String, Vec<u8>)> {
    let mut out = exported("morphs", morph_scene());
    out.extend(exported("uv", uv_scene()));
    out
}

/// What the exporter writes for `scene`, as .glb and as .gltf with its buffer in a `data:` URI. (A .gltf the
/// user gets has its buffer in a file beside it, which bytes alone can't reach; inside, the sweeps and the
/// fuzzer read the JSON path with everything it refers to.)
pub fn exported(name: &str, mut scene: Scene) -> Vec<(String, Vec<u8>)> {
    for_gltf(&mut scene, None, false);
    let textures = crate::textures::TextureSet::load(&scene, None);
    let glb = to_gltf(&scene, &textures, Container::Glb).expect("the sample exports as .glb");
    let gltf = to_gltf(&scene, &textures, Container::Gltf { stem: name }).expect("the sample exports as .gltf");
    let mut json: serde_json::Value =
        serde_json::from_slice(&[&gltf.head[..], &gltf.body[..]].concat()).expect("the exporter writes JSON");
    let bin = gltf.side_files.iter().find(|f| f.name == format!("{name}.bin")).expect("a .gltf's buffer file");
    json["buffers"][0]["uri"] = format!("data:application/octet-stream;base64,{}", base64_encode(&bin.bytes)).into();
    vec![
        (format!("exported_{name}.glb"), [glb.head, glb.body].concat()),
        (format!("exported_{name}.gltf"), serde_json::to_vec(&json).expect("JSON serialises")),
    ]
}

/// The PMX sample (every morph kind) with three more vertex morphs, one moving every vertex, one moving none
/// and one moving every vertex toward −X, and a VMD bending a bone and keying the morphs: the exporter writes
/// vertex morphs as sparse accessors (as many sparse values as elements for the first, no sparse part and no
/// buffer view for the second) and their weight channels.
pub fn morph_scene() -> Scene {
    let mut pmx = crate::formats::pmx::write::sample_document(MmdEncoding::Utf16Le, 2);
    let vertices = pmx.vertices.len() as u32;
    let morph = |name: &str, offsets: Vec<(u32, Vec3)>| RawMorph {
        offset: 0,
        name: name.into(),
        name_en: String::new(),
        panel: MorphPanel::Other,
        offsets: RawOffsets::Vertex(offsets),
    };
    pmx.morphs.push(morph("all", (0..vertices).map(|v| (v, Vec3::new(0.1, -0.2, v as f32))).collect()));
    pmx.morphs.push(morph("none", Vec::new()));
    pmx.morphs.push(morph("negative", (0..vertices).map(|v| (v, Vec3::new(-1.0 - v as f32, 0.0, 0.0))).collect()));
    let mut model = crate::load_bytes("morphs.pmx", &pmx.to_bytes()).expect("the PMX sample loads");
    let mut vmd = VmdDocument::new("model");
    let half = std::f32::consts::FRAC_PI_4.sin();
    vmd.bones.push(BoneKey::new("child", 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
    vmd.bones.push(BoneKey::new("child", 10, [0.0, 0.5, 0.0], [half, 0.0, 0.0, half]));
    for (name, frame, weight) in [("vertex", 0, 0.0), ("vertex", 10, 1.0), ("all", 5, 1.0), ("negative", 10, 0.5)] {
        vmd.morphs.push(MorphKey::new(name, frame, weight));
    }
    let motion = crate::load_bytes("morphs.vmd", &vmd.to_bytes()).expect("the VMD loads");
    crate::anim::attach(&mut model, &motion, "morphs.vmd").expect("the VMD attaches");
    model
}

/// The RSM 2.3 sample (keyed nodes with UV animation) with its materials' texture embedded: the exporter gives
/// each UV-animated mesh a texture transform that `KHR_animation_pointer` channels move.
pub fn uv_scene() -> Scene {
    let rsm = crate::formats::rsm::write::sample_document(2, 3).to_bytes();
    let mut scene = crate::load_bytes("uv.rsm2", &rsm).expect("the RSM sample loads");
    assert!(scene.meshes.iter().any(|m| m.uv_animation.is_some()), "the RSM sample has UV animation");
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(4, 4, image::Rgba([200, 90, 40, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("PNG encodes");
    scene.images.push(EmbeddedImage { name: "seed".into(), mime_type: Some("image/png".into()), bytes: png });
    for m in &mut scene.materials {
        m.texture = Some("seed".into());
        m.search = TextureSearch::Embedded;
    }
    scene
}

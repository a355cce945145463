use super::write::{GltfDocument, sample_document};
use super::*;

#[test]
fn the_sample_reads_skinned_with_a_morph_a_clip_and_an_embedded_texture() {
    let scene = read("s.glb", &sample_document().to_glb()).unwrap();
    assert_eq!(scene.meta.format, Format::Gltf);
    assert_eq!((scene.up, scene.front_face), (UpAxis::Y, FrontFace::Ccw));
    assert_eq!(scene.vertices.len(), 6);
    assert_eq!(scene.triangles.len(), 4);
    assert_eq!(scene.skeleton.len(), 2);
    assert_eq!(scene.skeleton.joints[1].parent, Some(0));
    assert_eq!(scene.morphs.len(), 1);
    assert_eq!(scene.morphs[0].name, "push");
    assert_eq!(scene.morphs[0].kind.len(), 2, "only the moved vertices");
    assert_eq!(scene.clips.len(), 1);
    assert_eq!(scene.clips[0].morphs[0].name, "push");
    assert_eq!(scene.images.len(), 1);
    assert_eq!(scene.materials[0].texture.as_deref(), Some("orange"));
    assert!(scene.meta.warnings.is_empty(), "{:?}", scene.meta.warnings);
}

#[test]
fn ibms_that_are_not_the_rest_pose_move_vertices_into_it() {
    // The skin's IBMs say the joints were bound one unit higher than their nodes rest: glTF draws every vertex
    // one unit lower in the rest pose (world · IBM), and so must the scene.
    let mut d = sample_document();
    let shifted: Vec<f32> = [-1.0f32, -2.0]
        .iter()
        .flat_map(|y| glam::Mat4::from_translation(glam::Vec3::new(0.0, *y, 0.0)).to_cols_array())
        .collect();
    let ibm = d.floats(&shifted, "MAT4");
    d.json["skins"][0]["inverseBindMatrices"] = serde_json::json!(ibm);
    let scene = read("s.glb", &d.to_glb()).unwrap();
    assert!((scene.vertices.positions[0] - glam::Vec3::new(0.0, -1.0, 0.0)).length() < 1e-5);
    assert!(scene.meta.warnings.is_empty(), "one shared correction is exact: {:?}", scene.meta.warnings);
}

#[test]
fn json_errors_keep_their_line() {
    let e = read("bad.gltf", b"{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [ }").unwrap_err();
    assert_eq!(e.location, Location::Line(3), "{e}");
    assert!(e.to_string().starts_with("bad.gltf:3: invalid glTF JSON"), "{e}");
    let e = read("x.gltf", b"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"mesh\": 4}]}").unwrap_err();
    assert!(e.message.contains("invalid glTF"), "{e}");
    assert!(read("e.gltf", &GltfDocument::new().to_gltf_embedded()).is_ok(), "an empty document loads");
}

#[test]
fn sniffing() {
    assert!(sniff(b"glTF\x02\0\0\0"));
    assert!(looks_like_json(b"\xEF\xBB\xBF  {\"asset\":{}}"));
    assert!(!looks_like_json(b"# iqe"));
}

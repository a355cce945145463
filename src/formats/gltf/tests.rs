use super::write::{GltfDocument, sample_document};
use super::*;
use glam::Vec3;

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

/// A file with `KHR_animation_pointer` channels is parsed once, from its own text: a syntax error names its line
/// there, and a field of the wrong type is named without a position (the rewritten text's line 1 was named
/// before, which is nowhere in the file).
#[test]
fn json_errors_in_files_with_pointer_channels_point_into_the_file() {
    let pointer = r#""animations": [{"channels": [{"sampler": 0, "target": {"path": "pointer",
  "extensions": {"KHR_animation_pointer": {"pointer": "/materials/0/pbrMetallicRoughness/baseColorFactor"}}}}],
  "samplers": [{"input": 0, "output": 1}]}]"#;
    let syntax = format!("{{\n  \"asset\": {{\"version\": \"2.0\"}},\n  {pointer},\n  \"nodes\": [ }}");
    let e = read("bad.gltf", syntax.as_bytes()).unwrap_err();
    assert_eq!(e.location, Location::Line(6), "{e}");
    let wrong_type =
        format!("{{\n  \"asset\": {{\"version\": \"2.0\"}},\n  {pointer},\n  \"nodes\": [{{\"mesh\": \"x\"}}]}}");
    let e = read("type.gltf", wrong_type.as_bytes()).unwrap_err();
    assert_eq!(e.location, Location::File, "{e}");
    assert!(e.message.contains("invalid type"), "{e}");
}

#[test]
fn sniffing() {
    assert!(sniff(b"glTF\x02\0\0\0"));
    assert!(looks_like_json(b"\xEF\xBB\xBF  {\"asset\":{}}"));
    assert!(!looks_like_json(b"# iqe"));
}

/// A camera moved by a CUBICSPLINE translation and a STEP rotation, and a material whose texture offset a STEP
/// `KHR_animation_pointer` channel moves: cubic keys play through their values (not their tangents, which are
/// 99 here), and stepping channels hold until their next key.
#[test]
fn cubic_and_step_samplers_of_cameras_and_pointers_play_as_the_spec_says() {
    let mut d = sample_document();
    let times = d.floats(&[0.0, 1.0, 2.0], "SCALAR");
    let tangent = [99.0f32; 3];
    let cubic: Vec<f32> = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
        .iter()
        .flat_map(|v| tangent.iter().chain(v).chain(&tangent).copied().collect::<Vec<_>>())
        .collect();
    let eye = d.floats(&cubic, "VEC3");
    let quarter = glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    let turn = d.floats(&[0.0, 0.0, 0.0, 1.0, quarter.x, quarter.y, quarter.z, quarter.w], "VEC4");
    let two = d.floats(&[0.0, 1.0], "SCALAR");
    let offset = d.floats(&[0.0, 0.0, 0.5, 0.0], "VEC2");
    let weights = d.floats(&[0.0, 1.0], "SCALAR");
    let camera =
        d.push("cameras", serde_json::json!({ "type": "perspective", "perspective": { "yfov": 0.8, "znear": 0.1 } }));
    let node = d.push("nodes", serde_json::json!({ "name": "cam", "camera": camera }));
    d.json["scenes"][0]["nodes"].as_array_mut().unwrap().push(serde_json::json!(node));
    let pointer = "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset";
    d.push(
        "animations",
        serde_json::json!({ "name": "shot", "samplers": [
            { "input": times, "output": eye, "interpolation": "CUBICSPLINE" },
            { "input": two, "output": turn, "interpolation": "STEP" },
            { "input": two, "output": offset, "interpolation": "STEP" },
            { "input": two, "output": weights, "interpolation": "STEP" }
        ], "channels": [
            { "sampler": 0, "target": { "node": node, "path": "translation" } },
            { "sampler": 1, "target": { "node": node, "path": "rotation" } },
            { "sampler": 2, "target": { "path": "pointer", "extensions": { "KHR_animation_pointer": { "pointer": pointer } } } },
            { "sampler": 3, "target": { "node": 2, "path": "weights" } }
        ] }),
    );
    d.json["extensionsUsed"] = serde_json::json!(["KHR_animation_pointer", "KHR_texture_transform"]);
    let scene = read("c.glb", &d.to_glb()).unwrap();
    let track = scene.cameras.iter().find(|c| c.clip.as_deref() == Some("shot")).expect("the shot's camera track");
    let world = |t: f32| track.view_at(t).unwrap().in_world();
    let near = |a: Vec3, b: Vec3| (a - b).length() < 1e-3;
    for (t, x) in [(0.0, 0.0), (0.5, 0.5), (1.0, 1.0), (1.5, 1.5), (2.0, 2.0)] {
        assert!(near(world(t).eye, Vec3::new(x, 0.0, 0.0)), "eye at {t}: {:?}", world(t).eye);
    }
    // −Z until the rotation's second key, then the quarter turn's −X.
    let forward = |t: f32| (world(t).target - world(t).eye).normalize();
    for t in [0.0, 0.5, 0.99] {
        assert!(near(forward(t), Vec3::NEG_Z), "held at {t}: {:?}", forward(t));
    }
    for t in [1.0, 1.5] {
        assert!(near(forward(t), Vec3::NEG_X), "turned at {t}: {:?}", forward(t));
    }
    let rules: Vec<&str> = scene.meta.warnings.iter().map(|w| w.rule).collect();
    let cubic = rules.iter().filter(|r| **r == "gltf.animation.cubicspline").count();
    assert_eq!(cubic, 1, "said once, by the camera reader that plays the channel: {rules:?}");
    // The offset steps from 0 to ½ at one second.
    let uv = scene.meshes[0].uv_animation.as_ref().expect("the offset's UV animation");
    let u_at = |t: f32| uv.matrix(t)[0][2];
    assert!(u_at(0.5).abs() < 1e-4 && u_at(0.99).abs() < 1e-4, "{} {}", u_at(0.5), u_at(0.99));
    assert!((u_at(1.0) - 0.5).abs() < 1e-4, "{}", u_at(1.0));
    // The morph weight, played linearly between keys, is keyed to hold 0 until just before one second.
    let clip = scene.clips.iter().find(|c| c.name == "shot").expect("the shot clip");
    let keys: Vec<(f32, f32)> = clip.morphs[0].keys.iter().map(|k| (k.time, k.value)).collect();
    assert_eq!(keys.len(), 3, "{keys:?}");
    assert!(keys[1].0 > 0.999 && keys[1].0 < 1.0 && keys[1].1 == 0.0 && keys[2] == (1.0, 1.0), "{keys:?}");
}

/// A CUBICSPLINE rotation whose second value is stored negated (the same rotation, the other hemisphere): the
/// spec's Hermite blend of components turns the long way there, so the reader says where; the same values with
/// agreeing signs, or a LINEAR sampler (slerp takes the short way), say nothing.
#[test]
fn cubic_rotations_in_opposite_hemispheres_are_named() {
    let q = |deg: f32| glam::Quat::from_rotation_z(deg.to_radians());
    let warned = |signs: [f32; 3], interpolation: &str| {
        let mut d = sample_document();
        let times = d.floats(&[0.0, 0.5, 1.0], "SCALAR");
        let values: Vec<f32> = [(q(0.0), signs[0]), (q(40.0), signs[1]), (q(80.0), signs[2])]
            .iter()
            .flat_map(|&(v, s)| {
                let v = (v * s).to_array();
                if interpolation == "CUBICSPLINE" { [[0.0; 4], v, [0.0; 4]].concat() } else { v.to_vec() }
            })
            .collect();
        let rot = d.floats(&values, "VEC4");
        d.push(
            "animations",
            serde_json::json!({ "name": "turn", "samplers": [{ "input": times, "output": rot, "interpolation": interpolation }],
                "channels": [{ "sampler": 0, "target": { "node": 1, "path": "rotation" } }] }),
        );
        let scene = read("h.glb", &d.to_glb()).unwrap();
        let w: Vec<String> = scene
            .meta
            .warnings
            .iter()
            .filter(|w| w.rule == "gltf.animation.hemisphere")
            .map(|w| w.message.clone())
            .collect();
        w
    };
    let w = warned([1.0, -1.0, -1.0], "CUBICSPLINE");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("node 1") && w[0].contains("1 pair(s)") && w[0].contains("between 0.000 s and 0.500 s"),
        "{}",
        w[0]
    );
    assert_eq!(warned([1.0; 3], "CUBICSPLINE"), Vec::<String>::new());
    assert_eq!(warned([1.0, -1.0, -1.0], "LINEAR"), Vec::<String>::new());
}

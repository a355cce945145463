//! glTF 2.0 reading: files built here with the test writer (`formats::gltf::write`, JSON through serde_json)
//! as GLB, as .gltf with a `data:` URI buffer and as .gltf with an external .bin, checked through the scene:
//! skinned and posed vertices against hand-computed ones, baked node transforms, morph targets and their
//! weight tracks, embedded textures, sparse and interleaved accessors, and malformed files refused cleanly.

mod common;

use glam::{Mat4, Quat, Vec3};
use rigscope::anim::{Pose, apply_morphs, clip_morph_weights, skin_positions};
use rigscope::formats::gltf::write::{GltfDocument, sample_document};
use rigscope::scene::{AlphaMode, Format, FrontFace, Interpolation, Override, Scene, Surface, TextureSearch, UpAxis};
use serde_json::json;

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-4
}

/// The sample's vertices posed at `seconds` into its clip: morphs, then skinning.
fn posed(scene: &Scene, seconds: f32) -> Vec<Vec3> {
    let clip = &scene.clips[0];
    let frame = seconds * clip.frame_rate;
    let pose = Pose::sample(&scene.skeleton, clip, frame, 30.0);
    let weights = clip_morph_weights(&scene.morphs, Some(clip), frame, 30.0);
    let mut vertices = scene.vertices.clone();
    apply_morphs(&scene.morphs, &weights, &mut vertices.positions, None);
    skin_positions(&vertices, &pose.palette)
}

#[test]
fn a_skinned_two_joint_strip_poses_as_hand_computed() {
    let scene = rigscope::load_bytes("strip.glb", &sample_document().to_glb()).unwrap();
    assert_eq!(scene.meta.format, Format::Gltf);
    assert_eq!((scene.up, scene.front_face), (UpAxis::Y, FrontFace::Ccw));
    let names: Vec<&str> = scene.skeleton.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["root", "bend"]);
    assert_eq!(scene.skeleton.joints[1].bind.translation, Vec3::Y);
    let clip = &scene.clips[0];
    assert_eq!((clip.name.as_str(), clip.frame_rate, clip.frame_count), ("bend", 30.0, 31));

    // Rest pose: the file's vertices.
    let rest = posed(&scene, 0.0);
    assert!(close(rest[4], Vec3::new(0.0, 2.0, 0.0)) && close(rest[3], Vec3::new(1.0, 1.0, 0.0)), "{rest:?}");
    // Half way: "bend" turned 90° about Z at (0, 1, 0), and the morph pushes the top row 0.5 along +Z first.
    let mid = posed(&scene, 0.5);
    assert!(close(mid[0], Vec3::ZERO), "{mid:?}");
    assert!(close(mid[4], Vec3::new(-1.0, 1.0, 0.5)), "{:?}", mid[4]);
    assert!(close(mid[5], Vec3::new(-1.0, 2.0, 0.5)), "{:?}", mid[5]);
    assert!(close(mid[3], Vec3::new(0.5, 1.5, 0.0)), "half on each joint: {:?}", mid[3]);
    // A quarter: 45°, morph weight 0.5.
    let quarter = posed(&scene, 0.25);
    let s = std::f32::consts::FRAC_1_SQRT_2;
    assert!(close(quarter[4], Vec3::new(-s, 1.0 + s, 0.25)), "{:?}", quarter[4]);
}

#[test]
fn ibms_off_the_rest_pose_still_pose_like_gltf_for_rigid_vertices() {
    // The file says "bend" was bound at y = 1.5 while its node rests at y = 1: glTF skins the top row with
    // world · IBM, which rigscope reproduces by moving those vertices by rest · IBM.
    let mut d = sample_document();
    let ibm: Vec<f32> = [Mat4::IDENTITY, Mat4::from_translation(Vec3::new(0.0, -1.5, 0.0))]
        .iter()
        .flat_map(|m| m.to_cols_array())
        .collect();
    let a = d.floats(&ibm, "MAT4");
    d.json["skins"][0]["inverseBindMatrices"] = json!(a);
    let scene = rigscope::load_bytes("strip.glb", &d.to_glb()).unwrap();
    assert!(scene.meta.warnings.iter().any(|w| w.rule == "gltf.skin.bind_pose"), "{:?}", scene.meta.warnings);
    let mid = posed(&scene, 0.5);
    // glTF: T(0,1,0)·R90z·T(0,-1.5,0)·(0,2,0.5) = T(0,1,0)·R90z·(0,0.5,0.5) = (-0.5, 1, 0.5).
    assert!(close(mid[4], Vec3::new(-0.5, 1.0, 0.5)), "{:?}", mid[4]);
    assert!(close(mid[0], Vec3::ZERO));
}

/// One triangle with normals under `nodes`, the mesh on the last node.
fn triangle_document(nodes: &[serde_json::Value]) -> GltfDocument {
    let mut d = GltfDocument::new();
    let pos = d.positions(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let nrm = d.floats(&[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0], "VEC3");
    d.push("meshes", json!({ "primitives": [{ "attributes": { "POSITION": pos, "NORMAL": nrm } }] }));
    for n in nodes {
        d.push("nodes", n.clone());
    }
    d.push("scenes", json!({ "nodes": [0] }));
    d
}

#[test]
fn a_static_mesh_is_baked_where_its_nodes_put_it() {
    let r = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    let d = triangle_document(&[
        json!({ "translation": [10.0, 0.0, 0.0], "children": [1] }),
        json!({ "rotation": r.to_array(), "mesh": 0 }),
    ]);
    let scene = rigscope::load_bytes("t.gltf", &d.to_gltf_embedded()).unwrap();
    let p = &scene.vertices.positions;
    assert!(close(p[0], Vec3::new(10.0, 0.0, -1.0)) && close(p[1], Vec3::new(10.0, 1.0, 0.0)), "{p:?}");
    assert!(close(p[2], Vec3::new(11.0, 0.0, 0.0)), "{p:?}");
    assert!(close(scene.vertices.normals.as_ref().unwrap()[0], Vec3::new(0.0, 0.0, -1.0)));
    assert!(scene.skeleton.is_empty() && !scene.vertices.is_skinned());
    assert_eq!(scene.triangles, [[0, 1, 2]]);
    assert_eq!(scene.materials.len(), 1, "the default material");
    assert_eq!(scene.materials[scene.meshes[0].material].color, Some(glam::Vec4::ONE));

    // A mirroring node turns the winding inside out; the reader turns it back.
    let d = triangle_document(&[json!({ "scale": [-1.0, 1.0, 1.0], "mesh": 0 })]);
    let scene = rigscope::load_bytes("m.glb", &d.to_glb()).unwrap();
    assert_eq!(scene.triangles, [[0, 2, 1]]);
    assert!(close(scene.vertices.positions[0], Vec3::new(-1.0, 0.0, 0.0)));
}

#[test]
fn an_animated_node_without_a_skin_moves_its_mesh_rigidly() {
    let mut d = triangle_document(&[json!({ "name": "spinner", "mesh": 0, "translation": [0.0, 5.0, 0.0] })]);
    let times = d.floats(&[0.0, 1.0], "SCALAR");
    let moves = d.floats(&[0.0, 5.0, 0.0, 3.0, 5.0, 0.0], "VEC3");
    d.push(
        "animations",
        json!({ "samplers": [{ "input": times, "output": moves, "interpolation": "STEP" }],
        "channels": [{ "sampler": 0, "target": { "node": 0, "path": "translation" } }] }),
    );
    let scene = rigscope::load_bytes("a.glb", &d.to_glb()).unwrap();
    assert_eq!(scene.skeleton.len(), 1);
    let rigscope::scene::ClipData::Keyed { tracks } = &scene.clips[0].data else { panic!("keyed") };
    assert_eq!(tracks[0].interpolation, Interpolation::Step);
    let clip = &scene.clips[0];
    let at = |s: f32| {
        skin_positions(&scene.vertices, &Pose::sample(&scene.skeleton, clip, s * clip.frame_rate, 30.0).palette)
    };
    assert!(close(at(0.0)[0], Vec3::new(1.0, 5.0, 0.0)));
    assert!(close(at(0.9)[0], Vec3::new(1.0, 5.0, 0.0)), "step holds");
    assert!(close(at(1.0)[0], Vec3::new(4.0, 5.0, 0.0)));
}

#[test]
fn morph_targets_and_their_weight_track() {
    let scene = rigscope::load_bytes("strip.glb", &sample_document().to_glb()).unwrap();
    assert_eq!(scene.morphs.len(), 1);
    assert_eq!(scene.morphs[0].name, "push");
    let rigscope::scene::MorphKind::Vertex(offsets) = &scene.morphs[0].kind else { panic!("vertex morph") };
    assert_eq!(offsets.iter().map(|o| o.vertex).collect::<Vec<_>>(), [4, 5]);
    assert!(close(offsets[0].delta, Vec3::new(0.0, 0.0, 0.5)));
    let track = &scene.clips[0].morphs[0];
    assert_eq!(track.name, "push");
    assert_eq!(track.keys.iter().map(|k| (k.time, k.value)).collect::<Vec<_>>(), [(0.0, 0.0), (0.5, 1.0), (1.0, 0.0)]);
}

#[test]
fn an_embedded_png_is_decoded_by_the_texture_set() {
    let scene = rigscope::load_bytes("strip.glb", &sample_document().to_glb()).unwrap();
    let m = &scene.materials[0];
    assert_eq!(
        (m.texture.as_deref(), m.search, m.alpha, m.lit),
        (Some("orange"), TextureSearch::Embedded, AlphaMode::Opaque, true)
    );
    let set = rigscope::textures::TextureSet::load(&scene, None);
    assert!(set.problems().is_empty(), "{:?}", set.problems());
    assert_eq!(set.image(0).unwrap().image.get_pixel(1, 1).0, [255, 128, 0, 255]);
    assert!(set.files().is_empty());
    // The same file as .gltf with a data URI buffer reads the same.
    let again = rigscope::load_bytes("strip.gltf", &sample_document().to_gltf_embedded()).unwrap();
    assert_eq!(again.vertices, scene.vertices);
    assert_eq!(again.images, scene.images);
}

#[test]
fn materials_carry_alpha_sides_unlit_and_files_beside_the_model() {
    let mut d = triangle_document(&[json!({ "mesh": 0 })]);
    d.push("images", json!({ "uri": "tex/skin%20a.png" }));
    d.push("textures", json!({ "source": 0 }));
    d.push(
        "materials",
        json!({ "alphaMode": "BLEND", "doubleSided": true, "extensions": { "KHR_materials_unlit": {} },
        "pbrMetallicRoughness": { "baseColorFactor": [0.5, 0.25, 1.0, 0.5], "baseColorTexture": { "index": 0 } } }),
    );
    d.json["extensionsUsed"] = json!(["KHR_materials_unlit"]);
    d.json["meshes"][0]["primitives"][0]["material"] = json!(0);
    let scene = rigscope::load_bytes("m.glb", &d.to_glb()).unwrap();
    let m = &scene.materials[0];
    assert_eq!((m.texture.as_deref(), m.search), (Some("tex/skin a.png"), TextureSearch::BesideModel));
    assert_eq!((m.alpha, m.lit, m.color), (AlphaMode::Blend, false, Some(glam::Vec4::new(0.5, 0.25, 1.0, 0.5))));
    assert!(scene.meshes[0].two_sided);
    assert_eq!(m.surface, None, "an unlit material has no BRDF");
}

/// A lit material's metallic-roughness factors, its emissive factor times KHR_materials_emissive_strength, and
/// MASK's cutoff reach the scene; factors outside 0..=1 are brought inside, as glTF bounds them.
#[test]
fn metallic_roughness_emission_and_cutoff_are_read() {
    let mut d = triangle_document(&[json!({ "mesh": 0 })]);
    d.push(
        "materials",
        json!({ "alphaMode": "MASK", "alphaCutoff": 0.3, "emissiveFactor": [1.0, 0.5, 0.0],
        "extensions": { "KHR_materials_emissive_strength": { "emissiveStrength": 4.0 } },
        "pbrMetallicRoughness": { "baseColorFactor": [0.8, 0.1, 0.1, 1.0], "metallicFactor": 0.25, "roughnessFactor": 1.5 } }),
    );
    d.json["extensionsUsed"] = json!(["KHR_materials_emissive_strength"]);
    d.json["meshes"][0]["primitives"][0]["material"] = json!(0);
    let scene = rigscope::load_bytes("m.glb", &d.to_glb()).unwrap();
    let m = &scene.materials[0];
    assert_eq!((m.alpha, m.alpha_cutoff, m.lit, m.texture.as_deref()), (AlphaMode::Cutout, 0.3, true, None));
    assert_eq!(m.surface, Some(Surface { metallic: 0.25, roughness: 1.0 }));
    assert_eq!(m.emissive, Vec3::new(4.0, 2.0, 0.0));
    // rigscope's glTF writer keeps all of it (an emission over 1 as a factor times a strength).
    let textures = rigscope::textures::TextureSet::load(&scene, None);
    let out = rigscope::convert::to_gltf(&scene, &textures, rigscope::convert::Container::Glb).unwrap();
    let again = rigscope::load_bytes("again.glb", &[out.head, out.body].concat()).unwrap();
    let n = &again.materials[0];
    assert_eq!((n.alpha, n.alpha_cutoff, n.surface, n.emissive), (m.alpha, m.alpha_cutoff, m.surface, m.emissive));
    // A primitive without a material gets glTF's default: every property at its default.
    let d = triangle_document(&[json!({ "mesh": 0 })]);
    let scene = rigscope::load_bytes("d.glb", &d.to_glb()).unwrap();
    let m = scene.materials.last().unwrap();
    assert_eq!(
        (m.surface, m.emissive, m.alpha_cutoff),
        (Some(Surface { metallic: 1.0, roughness: 1.0 }), Vec3::ZERO, 0.5)
    );
}

/// glTF's materials drawn as glTF means them, on UniVRM's emission sample (VRM 0.x, in the corpus): six spheres
/// coloured by factors alone. None names a texture, so none is looked for (this file used to warn that
/// "Unlit_SRGB_0.5" wasn't found, taking the material's name for a file); the unlit ones draw their colour
/// exactly, the emissive ones add their emission (clipped to white at strength 4.6). The MToon ones draw the
/// emission of their MToon properties (`_EmissionColor` 0.5 and 2 from gamma, `c^2.2`, as three-vrm's v0
/// compatibility plugin reads them), not the glTF fallback's factor (0.5 and 1): the three spheres of an sRGB
/// 0.5 (unlit, standard emission, MToon emission) look alike, as the sample means them to.
#[test]
fn untextured_unlit_and_emissive_materials_draw_their_colours() {
    use rigscope::render::{Camera, pose_bounds};
    let path = common::corpus("vrm/EmissionMigration_v0.107.0.vrm");
    let scene = rigscope::load_path(&path).unwrap();
    assert!(scene.materials.iter().all(|m| m.texture.is_none()));
    let set = rigscope::textures::TextureSet::load(&scene, path.parent());
    assert!(set.problems().is_empty(), "{:?}", set.problems());
    let size = (480, 320);
    let file = path.to_str().unwrap();
    let (img, stderr) =
        common::render_png("gltf-materials", "emission", &[file, "--yaw", "0", "--pitch", "0", "--size", "480x320"]);
    assert!(!stderr.contains("not found"), "{stderr}");
    // Where render's camera puts each sphere's centre (a still frames the pose drawn: here the bind pose).
    let aspect = size.0 as f32 / size.1 as f32;
    let camera =
        Camera::framing(scene.up, &pose_bounds(&scene, &Pose::bind(&scene.skeleton)).unwrap(), 0.0, 0.0, aspect);
    let to_clip = camera.view_proj(aspect) * camera.model_matrix();
    let srgb = |x: f32| 255.0 * rigscope::scene::color::linear_to_srgb(x);
    let expected: [(&str, f32, f32); 6] = [
        ("Unlit_SRGB_0.5", srgb(0.214_041_14) - 3.0, srgb(0.214_041_14) + 3.0),
        ("Unlit_Linear_0.5", srgb(0.5) - 3.0, srgb(0.5) + 3.0),
        ("MToon_Emission_0.5", srgb(0.5f32.powf(2.2)) - 3.0, srgb(0.5f32.powf(2.2)) + 3.0),
        ("MToon_Emission_2.0", 252.0, 255.0),
        ("Standard_Emission_2.0", 252.0, 255.0),
        // A black dielectric: its emission plus the 4 % reflection of the surroundings and the key light.
        ("Standard_Emission_0.5", srgb(0.214_041_14) - 1.0, srgb(0.214_041_14) + 25.0),
    ];
    for (name, low, high) in expected {
        let material = scene.materials.iter().position(|m| m.name == name).unwrap();
        let mesh = scene.meshes.iter().find(|m| m.material == material).unwrap();
        let tris = &scene.triangles[mesh.first_triangle as usize..(mesh.first_triangle + mesh.num_triangles) as usize];
        let points: Vec<Vec3> = tris.iter().flatten().map(|&v| scene.vertices.positions[v as usize]).collect();
        let (min, max) = points.iter().fold((Vec3::MAX, Vec3::MIN), |(a, b), p| (a.min(*p), b.max(*p)));
        let c = to_clip * ((min + max) * 0.5).extend(1.0);
        let (x, y) = ((c.x / c.w + 1.0) * 0.5 * size.0 as f32, (1.0 - c.y / c.w) * 0.5 * size.1 as f32);
        let px = img.get_pixel(x as u32, y as u32).0;
        for k in 0..3 {
            let v = f32::from(px[k]);
            assert!(v >= low && v <= high, "{name} at ({x:.0}, {y:.0}): {px:?}, expected {low:.0}..={high:.0}");
        }
    }
}

#[test]
fn sparse_accessors_and_interleaved_strides() {
    let mut d = GltfDocument::new();
    // Positions and normals interleaved, 24 bytes a vertex.
    let verts: [[f32; 6]; 3] =
        [[0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0, 0.0, 0.0]];
    let bytes: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let view = d.view(&bytes, Some(24));
    let pos = d.push(
        "accessors",
        json!({ "bufferView": view, "componentType": 5126, "count": 3, "type": "VEC3",
        "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0] }),
    );
    let nrm = d.push(
        "accessors",
        json!({ "bufferView": view, "byteOffset": 12, "componentType": 5126, "count": 3, "type": "VEC3" }),
    );
    // A morph target stored sparsely without a buffer view: vertex 2 moves by (0, 0, 2).
    let idx = d.view(&[2u8], None);
    let val = d.view(&[0.0f32, 0.0, 2.0].iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<_>>(), None);
    let target = d.push("accessors", json!({ "componentType": 5126, "count": 3, "type": "VEC3",
        "sparse": { "count": 1, "indices": { "bufferView": idx, "componentType": 5121 }, "values": { "bufferView": val } } }));
    // Colours: a dense ubyte accessor with one sparse replacement.
    let col = d.view(&[255u8, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255], None);
    let sparse_idx = d.view(&1u16.to_le_bytes(), None);
    let sparse_val = d.view(&[255u8, 255, 255, 0], None);
    let colors = d.push("accessors", json!({ "bufferView": col, "componentType": 5121, "normalized": true, "count": 3, "type": "VEC4",
        "sparse": { "count": 1, "indices": { "bufferView": sparse_idx, "componentType": 5123 }, "values": { "bufferView": sparse_val } } }));
    d.push(
        "meshes",
        json!({ "primitives": [{ "attributes": { "POSITION": pos, "NORMAL": nrm, "COLOR_0": colors },
        "targets": [{ "POSITION": target }] }] }),
    );
    d.push("nodes", json!({ "mesh": 0 }));
    let scene = rigscope::load_bytes("s.glb", &d.to_glb()).unwrap();
    assert_eq!(scene.vertices.positions[1], Vec3::X);
    assert_eq!(scene.vertices.normals.as_ref().unwrap()[1], Vec3::Y);
    let colors = scene.vertices.colors.as_ref().unwrap();
    assert_eq!(colors[0], glam::Vec4::new(1.0, 0.0, 0.0, 1.0));
    assert_eq!(colors[1], glam::Vec4::new(1.0, 1.0, 1.0, 0.0), "the sparse value");
    assert_eq!(scene.morphs[0].name, "target 0");
    assert_eq!(scene.morphs[0].kind.len(), 1);
    let rigscope::scene::MorphKind::Vertex(offsets) = &scene.morphs[0].kind else { panic!("a vertex morph") };
    assert_eq!((offsets[0].vertex, offsets[0].delta), (2, Vec3::new(0.0, 0.0, 2.0)), "the sparse index and value");
}

/// An accessor with neither a buffer view nor sparse values is all zeros (glTF 2.0, 3.6.2.1: "When undefined,
/// the accessor MUST be initialized with zeros"). rigscope's exporter writes a morph that moves no vertex that
/// way; the `gltf` crate's validation asks for a buffer view, and its own exports were refused.
#[test]
fn an_accessor_without_a_buffer_view_or_sparse_values_is_zeros() {
    let mut d = sample_document();
    let still = d.push("accessors", json!({ "componentType": 5126, "count": 6, "type": "VEC3" }));
    let push = d.json["meshes"][0]["primitives"][0]["targets"][0].clone();
    d.json["meshes"][0]["primitives"][0]["targets"] = json!([push, { "POSITION": still }]);
    d.json["meshes"][0]["extras"]["targetNames"] = json!(["push", "still"]);
    for (name, bytes) in [("zeros.glb", d.to_glb()), ("zeros.gltf", d.to_gltf_embedded())] {
        let scene = rigscope::load_bytes(name, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let names: Vec<&str> = scene.morphs.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["push", "still"], "{name}");
        assert_eq!(scene.morphs[1].kind.len(), 0, "{name}: the zero target moves nothing");
    }
    // Zeros no byte backs are still bounded by the file's size.
    d.json["accessors"][still]["count"] = json!(1u64 << 31);
    let e = rigscope::load_bytes("huge.glb", &d.to_glb()).unwrap_err();
    assert!(e.message.contains("more than the file's bytes can back"), "{e}");
}

#[test]
fn an_external_buffer_is_read_beside_a_gltf_loaded_by_path() {
    let dir = std::env::temp_dir().join(format!("rigscope-gltf-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let (json, bin) = sample_document().to_gltf_external("bin/strip%20data.bin");
    std::fs::write(dir.join("strip.gltf"), &json).unwrap();
    std::fs::write(dir.join("bin/strip data.bin"), &bin).unwrap();
    let scene = rigscope::load_path(&dir.join("strip.gltf")).unwrap();
    assert_eq!(scene.vertices.len(), 6);
    let e = rigscope::load_bytes("strip.gltf", &json).unwrap_err();
    assert!(e.message.contains("\"bin/strip%20data.bin\""), "{e}");
    std::fs::remove_file(dir.join("bin/strip data.bin")).unwrap();
    let e = rigscope::load_path(&dir.join("strip.gltf")).unwrap_err();
    assert!(e.message.contains("cannot read"), "{e}");
    let findings = rigscope::check::check_file(&dir.join("strip.gltf"), &json);
    assert!(findings.iter().any(|f| f.rule == "gltf.unreadable"), "{findings:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_written_sample_checks_clean() {
    let findings = rigscope::check::check_bytes("strip.glb", &sample_document().to_glb());
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn malformed_files_are_refused_with_messages() {
    let glb = sample_document().to_glb();
    for cut in [0, 3, 11, 12, 19, 20, 40, glb.len() / 2, glb.len() - 1] {
        let e = rigscope::load_bytes("cut.glb", &glb[..cut]).unwrap_err();
        // The error names the file and says what was expected.
        assert!(e.to_string().starts_with("cut.glb") && e.message.len() > 10, "cut at {cut}: {e}");
    }
    // An accessor that claims more elements than its view holds.
    let mut d = sample_document();
    d.json["accessors"][0]["count"] = json!(1000);
    let e = rigscope::load_bytes("long.glb", &d.to_glb()).unwrap_err();
    assert!(e.message.contains("accessor 0 (POSITION)") && e.message.contains("past the end"), "{e}");
    // A view past its buffer.
    let mut d = sample_document();
    d.json["bufferViews"][0]["byteOffset"] = json!(1 << 30);
    assert!(rigscope::load_bytes("view.glb", &d.to_glb()).unwrap_err().message.contains("past the end of buffer 0"));
    // A huge count with no bytes behind it.
    let mut d = sample_document();
    let sparse =
        json!({ "count": 1, "indices": { "bufferView": 0, "componentType": 5121 }, "values": { "bufferView": 0 } });
    d.json["accessors"][0] =
        json!({ "componentType": 5126, "count": 4_000_000_000u64, "type": "VEC3", "sparse": sparse });
    let e = rigscope::load_bytes("huge.glb", &d.to_glb()).unwrap_err();
    assert!(e.message.contains("more than the file's bytes"), "{e}");
    // Bad JSON, named by line.
    let e = rigscope::load_bytes("bad.gltf", b"{\"asset\": {\"version\": \"2.0\"},\n\"nodes\": [1, }").unwrap_err();
    assert_eq!(e.location, rigscope::error::Location::Line(2), "{e}");
    // Bad indices.
    let mut d = sample_document();
    let idx = d.ushorts(&[0, 1, 60], "SCALAR");
    d.json["meshes"][0]["primitives"][0]["indices"] = json!(idx);
    assert!(rigscope::load_bytes("i.glb", &d.to_glb()).unwrap_err().message.contains("index 60"));
    // Not glTF at all, by extension.
    assert!(rigscope::load_bytes("x.glb", b"hello").unwrap_err().message.contains("not a glTF file"));
}

/// A white square facing +Z with texture coordinates as an image lies on it (u right, v down the image), one
/// material whose JSON `extra` adds to a lit dielectric, drawn front on at 48 × 48: the centre pixel.
fn square_centre(extra: serde_json::Value, texel: [u8; 4]) -> [u8; 4] {
    use rigscope::render::{Background, Camera, FrameInput, GpuModel, Headless, Overlays, ViewState, pose_bounds};
    let mut d = GltfDocument::new();
    let pos = d.positions(&[-1.0, 1.0, 0.0, 1.0, 1.0, 0.0, -1.0, -1.0, 0.0, 1.0, -1.0, 0.0]);
    let nrm = d.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC3");
    let uv = d.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0], "VEC2");
    let indices = d.ushorts(&[0, 2, 1, 1, 2, 3], "SCALAR");
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(4, 4, image::Rgba(texel))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let view = d.view(&png, None);
    d.push("images", json!({ "bufferView": view, "mimeType": "image/png", "name": "map" }));
    d.push("textures", json!({ "source": 0 }));
    let mut material = json!({ "pbrMetallicRoughness": { "metallicFactor": 0.0, "roughnessFactor": 0.6 } });
    for (k, v) in extra.as_object().unwrap() {
        material[k] = v.clone();
    }
    d.push("materials", material);
    d.push(
        "meshes",
        json!({ "primitives": [{ "attributes": { "POSITION": pos, "NORMAL": nrm, "TEXCOORD_0": uv },
        "indices": indices, "material": 0 }] }),
    );
    d.push("nodes", json!({ "mesh": 0 }));
    d.push("scenes", json!({ "nodes": [0] }));
    let scene = rigscope::load_bytes("square.glb", &d.to_glb()).unwrap();
    let h = Headless::new().unwrap_or_else(|e| panic!("{e}"));
    let model = GpuModel::upload_textures(h.renderer(), &scene, &rigscope::textures::TextureSet::load(&scene, None));
    let pose = Pose::bind(&scene.skeleton);
    let camera = Camera::framing(scene.up, &pose_bounds(&scene, &pose).unwrap(), 0.0, 0.0, 1.0);
    let overlays = Overlays { grid: false, ..Overlays::default() };
    let input = FrameInput::still(&camera, &pose, &overlays);
    let img =
        h.render(&model, &mut ViewState::new(h.renderer()), &input, (48, 48), Background::Color([0, 0, 0])).unwrap();
    img.get_pixel(24, 24).0
}

/// glTF's surface maps reach the drawing: a normal map tilted up the image turns the square toward the key light
/// (from the eye and above) and one tilted down away from it; full occlusion takes the surroundings' light
/// away; an emissive map adds its colour; a metalness map makes the white square a metal.
#[test]
fn surface_maps_bend_the_normal_occlude_emit_and_make_metal() {
    let luma = |p: [u8; 4]| u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]);
    let flat = square_centre(json!({}), [255; 4]);
    // Tangent-space normals 50° from the surface's: (0, ±sin 50°, cos 50°), encoded as glTF stores them.
    let up = square_centre(json!({ "normalTexture": { "index": 0 } }), [128, 225, 210, 255]);
    let down = square_centre(json!({ "normalTexture": { "index": 0 } }), [128, 30, 210, 255]);
    assert!(luma(up) > luma(flat) + 15 && luma(down) + 15 < luma(flat), "up {up:?}, flat {flat:?}, down {down:?}");
    // The same tilt at scale 0 is no tilt.
    let unscaled = square_centre(json!({ "normalTexture": { "index": 0, "scale": 0.0 } }), [128, 225, 210, 255]);
    assert!(luma(unscaled).abs_diff(luma(flat)) <= 3, "{unscaled:?} against {flat:?}");
    let occluded = square_centre(json!({ "occlusionTexture": { "index": 0 } }), [0, 0, 0, 255]);
    assert!(luma(occluded) + 30 < luma(flat), "occluded {occluded:?}, flat {flat:?}");
    let emitting = square_centre(
        json!({ "emissiveTexture": { "index": 0 }, "emissiveFactor": [1.0, 1.0, 1.0] }),
        [255, 0, 0, 255],
    );
    assert_eq!(emitting[0], 255, "{emitting:?}");
    assert!(emitting[1].abs_diff(flat[1]) <= 3 && emitting[2].abs_diff(flat[2]) <= 3, "{emitting:?} {flat:?}");
    let metal = square_centre(
        json!({ "pbrMetallicRoughness": { "metallicFactor": 1.0, "roughnessFactor": 0.6,
        "metallicRoughnessTexture": { "index": 0 } } }),
        [0, 255, 255, 255],
    );
    let dielectric = square_centre(
        json!({ "pbrMetallicRoughness": { "metallicFactor": 1.0, "roughnessFactor": 0.6,
        "metallicRoughnessTexture": { "index": 0 } } }),
        [0, 255, 0, 255],
    );
    assert!(luma(metal).abs_diff(luma(dielectric)) > 30, "metal {metal:?}, dielectric {dielectric:?}");
    assert!(luma(dielectric).abs_diff(luma(flat)) <= 3, "blue 0 is metalness 0: {dielectric:?} {flat:?}");
}

/// The corpus avatars read as VRM: every humanoid bone a joint (even where it moves no vertex), VRM 0.x's
/// names and presets in VRM 1.0's, the licence fields, and both versions standing with their left hand on the
/// viewer's right once brought into the view (VRM 0.x faces −Z and is turned about Y).
#[test]
fn vrm_avatars_read_their_humanoid_meta_and_expressions_and_face_the_camera() {
    for (file, major, bones, expressions) in [
        ("vrm/EmissionMigration_v0.107.0.vrm", 0, 52, 17),
        ("vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm", 1, 53, 0),
        ("vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm", 1, 22, 2),
    ] {
        let scene = rigscope::load_path(&common::corpus(file)).unwrap();
        let vrm = scene.vrm.as_deref().unwrap_or_else(|| panic!("{file}: not read as VRM"));
        assert_eq!((vrm.major, vrm.humanoid.len(), vrm.expressions.len()), (major, bones, expressions), "{file}");
        assert!(vrm.humanoid.iter().all(|b| b.joint.is_some()), "{file}: every humanoid bone is a joint");
        assert!(vrm.missing_required().is_empty(), "{file}");
        assert_eq!(scene.up, if major == 0 { UpAxis::YBack } else { UpAxis::Y }, "{file}");
        let pose = Pose::bind(&scene.skeleton);
        let at = |name: &str| scene.up.basis().transform_point3(pose.world[vrm.bone(name).unwrap()].w_axis.truncate());
        assert!(at("leftHand").x > 0.3 && at("rightHand").x < -0.3, "{file}: {} {}", at("leftHand"), at("rightHand"));
        assert!(rigscope::check::check_bytes(file, &common::read(&common::corpus(file))).is_empty(), "{file}");
    }
    let old = rigscope::load_path(&common::corpus("vrm/EmissionMigration_v0.107.0.vrm")).unwrap();
    let vrm = old.vrm.as_deref().unwrap();
    assert_eq!((vrm.meta_value("licenseName"), vrm.meta_value("author")), (Some("CC0"), Some("vrmc")));
    let names: Vec<&str> = vrm.expressions.iter().map(|e| e.name.as_str()).collect();
    assert!(names.contains(&"happy") && names.contains(&"blinkLeft") && names.contains(&"aa"), "{names:?}");
    assert!(vrm.bone("leftThumbMetacarpal").is_some(), "0.x thumbProximal is 1.0 thumbMetacarpal");
    // Its look-at turns the eye bones (lookAtTypeName "Bone"), 90° of target to 10° of eye each way.
    let look = vrm.look_at.as_ref().expect("a 0.x look-at");
    assert_eq!(look.kind, "bone");
    assert!(look.ranges.iter().all(|r| (r.input_max, r.output_scale) == (90.0, 10.0)), "{look:?}");
    // Six meshes annotated by mesh index, each drawn by one node: one scene mesh each.
    assert_eq!(vrm.first_person.len(), 6, "{:?}", vrm.first_person);
    assert!(vrm.first_person.iter().all(|f| f.kind == "auto" && f.meshes.len() == 1), "{:?}", vrm.first_person);
    let new = rigscope::load_path(&common::corpus("vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm")).unwrap();
    let vrm = new.vrm.as_deref().unwrap();
    assert_eq!(vrm.meta_value("licenseUrl"), Some("https://vrm.dev/licenses/1.0/"));
    // Its look-at weights the look expressions from 6 cm above the head; the validation window is hidden from
    // a first-person camera.
    let look = vrm.look_at.as_ref().expect("a 1.0 look-at");
    assert_eq!((look.kind.as_str(), look.offset), ("expression", [0.0, 0.06, 0.0]));
    let fp: Vec<(&str, &str)> = vrm.first_person.iter().map(|f| (f.name.as_str(), f.kind.as_str())).collect();
    assert_eq!(fp, vec![("Validation Window", "thirdPersonOnly")]);
    assert_eq!(vrm.first_person[0].meshes.len(), 1, "the window node draws one scene mesh");
    // The sample's happy is binary and blends blink away; blink is neither.
    let happy = vrm.expressions.iter().find(|e| e.name == "happy").unwrap();
    assert!(happy.is_binary && happy.preset && happy.texture_binds == 2, "{happy:?}");
    assert_eq!(happy.overrides, [Override::Blend, Override::None, Override::None]);
    let blink = vrm.expressions.iter().find(|e| e.name == "blink").unwrap();
    assert!(!blink.is_binary && blink.overrides == [Override::None; 3], "{blink:?}");
    // The validation window shows one cell of its atlas (KHR_texture_transform), and glTF export keeps it.
    let window = new.materials.iter().find(|m| m.name == "Validation Window").unwrap();
    let cell = window.uv_transform.expect("the atlas cell");
    assert_eq!((cell.offset, cell.scale), (glam::Vec2::ZERO, glam::Vec2::splat(0.125)));
    let textures = rigscope::textures::TextureSet::load(&new, None);
    let out = rigscope::convert::to_gltf(&new, &textures, rigscope::convert::Container::Glb).unwrap();
    let again = rigscope::load_bytes("again.glb", &[out.head, out.body].concat()).unwrap();
    let kept = again.materials.iter().find(|m| m.name == "Validation Window").unwrap();
    assert_eq!(kept.uv_transform, window.uv_transform);
    // Each expression is a morph the Morphs tab and --morph drive.
    assert_eq!((new.morphs[blink.morph].name.as_str(), new.morphs[happy.morph].name.as_str()), ("blink", "happy"));
}

/// `check` names a required humanoid bone the file doesn't map and absent licence fields; a humanoid bone on
/// a node that doesn't exist is a warning of the reader, and the avatar still opens.
#[test]
fn check_names_missing_humanoid_bones_and_licence_fields() {
    let path = common::corpus("vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm");
    let bytes = common::read(&path);
    let broken = common::edited_glb(&bytes, |j| {
        let vrm = &mut j["extensions"]["VRMC_vrm"];
        vrm["humanoid"]["humanBones"].as_object_mut().unwrap().remove("leftHand");
        vrm["humanoid"]["humanBones"]["head"]["node"] = json!(9999);
        vrm["meta"].as_object_mut().unwrap().remove("licenseUrl");
        // A colour bind to a material the file doesn't have.
        vrm["expressions"]["preset"]["happy"]["materialColorBinds"] =
            json!([{"material": 999, "type": "color", "targetValue": [1, 0, 0, 1]}]);
    });
    let scene = rigscope::load_bytes("broken.vrm", &broken).unwrap();
    let rules: Vec<&str> = scene.meta.warnings.iter().map(|w| w.rule).collect();
    assert!(rules.contains(&"vrm.humanoid.node"), "{rules:?}");
    let bind = scene.meta.warnings.iter().find(|w| w.rule == "vrm.expression.bind").expect("the colour bind is named");
    assert!(bind.message.contains("expression happy: a material colour bind names no material"), "{}", bind.message);
    let happy = scene.vrm.as_ref().unwrap().expressions.iter().find(|e| e.name == "happy").unwrap();
    assert_eq!(happy.material_binds, 0, "the bind is left out");
    let findings = rigscope::check::check_bytes("broken.vrm", &broken);
    let missing = findings.iter().find(|f| f.rule == "vrm.humanoid.missing").expect("the missing bones are named");
    assert!(missing.message.contains("head") && missing.message.contains("leftHand"), "{}", missing.message);
    assert!(findings.iter().any(|f| f.rule == "vrm.meta.missing" && f.message.contains("licenseUrl")));
}

/// The VRM specification's isBinary samples (in the corpus) show a green window of check marks when the
/// expressions' binary and override rules and their texture transform binds are applied as three-vrm applies
/// them, and a red cross when not; their meters fill with the expressions' weights. Every combination of
/// weights around the 0.5 threshold is checked on both.
#[test]
fn the_vrm_is_binary_samples_show_check_marks_at_every_weight() {
    let pixels = |img: &image::RgbaImage, red: bool| {
        img.pixels()
            .filter(|p| {
                let [r, g, _, _] = p.0;
                if red { r > 150 && g < 80 } else { g > 80 && r < 60 }
            })
            .count()
    };
    for file in ["Overrides", "Overridden"] {
        let path = common::corpus(&format!("vrm/VRMC_vrm_expressions_isBinary_{file}.vrm"));
        let path = path.to_str().unwrap();
        let mut meters = Vec::new();
        for (happy, blink) in [(0.0, 0.0), (1.0, 1.0), (0.4, 0.6), (0.6, 0.4), (0.3, 0.0), (0.0, 0.7), (0.7, 0.7)] {
            let (h, b) = (format!("happy={happy}"), format!("blink={blink}"));
            let args = [path, "--yaw", "0", "--pitch", "0", "--size", "160x160", "--morph", &h, "--morph", &b];
            let (img, _) = common::render_png("vrm-expressions", &format!("{file}-{happy}-{blink}"), &args);
            let (red, green) = (pixels(&img, true), pixels(&img, false));
            assert!(red < 20 && green > 3000, "{file} happy {happy} blink {blink}: {red} red, {green} green pixels");
            meters.push(img);
        }
        let changed = meters[0].pixels().zip(meters[1].pixels()).filter(|(a, b)| a != b).count();
        assert!(changed > 300, "{file}: the meters move with the expressions ({changed} pixels)");
    }
}

/// three-vrm's node constraint sample (in the corpus): once CubeA turns, CubeC takes half of its rotation from
/// its rest (`rotation`, weight 0.5) and CubeB its twist about Y (`roll`, weight 1): the turn's swing-twist
/// decomposition, computed here from the quaternion's Y part.
#[test]
fn a_rotation_constraint_takes_its_weight_of_the_source_turn() {
    let scene = rigscope::load_path(&common::corpus("vrm/constraint/cubes.gltf")).unwrap();
    let joint = |name: &str| scene.skeleton.joints.iter().position(|j| j.name == name).unwrap();
    let (a, b, c) = (joint("CubeA"), joint("CubeB"), joint("CubeC"));
    assert!(scene.meta.warnings.iter().all(|w| w.rule != "vrm.constraint.unsupported"), "{:?}", scene.meta.warnings);
    let mut pose = Pose::bind(&scene.skeleton);
    let turn = Quat::from_rotation_y(1.2) * Quat::from_rotation_x(0.4);
    pose.locals[a].rotation = scene.skeleton.joints[a].bind.rotation * turn;
    pose.evaluate(&scene.skeleton);
    rigscope::anim::apply_constraints(&scene.skeleton, &scene.constraints, &mut pose);
    let expected = scene.skeleton.joints[c].bind.rotation * Quat::IDENTITY.slerp(turn, 0.5);
    assert!(
        pose.locals[c].rotation.angle_between(expected) < 1e-5,
        "{:?} against {expected:?}",
        pose.locals[c].rotation
    );
    let rest = |j: usize| scene.skeleton.joints[j].bind.rotation;
    let in_b = rest(b).inverse() * rest(a) * turn * rest(a).inverse() * rest(b);
    let twist = Quat::from_xyzw(0.0, in_b.y, 0.0, in_b.w).normalize();
    let expected = rest(b) * twist;
    assert!(
        pose.locals[b].rotation.angle_between(expected) < 1e-5,
        "{:?} against {expected:?}",
        pose.locals[b].rotation
    );
    assert!(twist.angle_between(Quat::IDENTITY) > 0.5, "the turn has a twist to take: {twist:?}");
}

/// `check`'s first-person rule on the isBinary sample, whose validation window hangs on the head and is marked
/// `thirdPersonOnly`: as the file is, no finding; marked `both` (a first-person camera would show it, from inside
/// the head), `vrm.first_person.head` names the mesh and its 4 head-weighted vertices.
#[test]
fn check_names_a_head_mesh_shown_in_first_person() {
    let bytes = common::read(&common::corpus("vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm"));
    let rule = |bytes: &[u8]| -> Vec<String> {
        let findings = rigscope::check::check_bytes("avatar.vrm", bytes);
        findings.iter().filter(|f| f.rule == "vrm.first_person.head").map(|f| f.message.clone()).collect()
    };
    assert_eq!(rule(&bytes), Vec::<String>::new(), "thirdPersonOnly: nothing to say");
    let both = common::edited_glb(&bytes, |j| {
        j["extensions"]["VRMC_vrm"]["firstPerson"]["meshAnnotations"][0]["type"] = json!("both");
    });
    let found = rule(&both);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("\"Validation Window\"") && found[0].contains("4 of its vertices"), "{}", found[0]);
}

//! IQM files the project writes itself: every edge case real files have, and every structural violation the
//! reader must refuse with a message naming the field, the offset and what was expected.

use glam::{Quat, Vec3};
use rigscope::anim::{Pose, attach, skin_positions};
use rigscope::formats::iqm::write::{
    Anim, Extension, IQM_BLENDINDEXES, IQM_BLENDWEIGHTS, IQM_COLOR, IQM_DOUBLE, IQM_FLOAT, IQM_HALF, IQM_LOOP,
    IQM_NORMAL, IQM_POSITION, IQM_SHORT, IQM_TEXCOORD, IQM_UBYTE, IQM_USHORT, IqmDocument, Joint, Layout, Mesh,
    VertexArray, field, patch_u32, quantize_channels,
};
use rigscope::{LoadError, Scene};

fn load(bytes: &[u8]) -> Result<Scene, LoadError> {
    rigscope::load_bytes("edge.iqm", bytes)
}

fn rules(s: &Scene) -> Vec<&'static str> {
    s.meta.warnings.iter().map(|w| w.rule).collect()
}

fn err(bytes: &[u8]) -> String {
    load(bytes).expect_err("expected the file to be refused").to_string()
}

/// A quad of two triangles skinned to a two-joint chain, with one looping animation of `frames` frames.
fn base(frames: usize) -> IqmDocument {
    let pos = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0f32];
    let idx = [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0f32];
    // Bytes summing to 255, as readers expect.
    let wgt = vec![255, 0, 0, 0, 128, 127, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0];
    let joints = vec![
        Joint { name: "root".into(), ..Joint::default() },
        Joint { name: "tip".into(), parent: 0, translate: [0.0, 0.0, 1.0], ..Joint::default() },
    ];
    let mut samples = Vec::new();
    for f in 0..frames {
        for (i, j) in joints.iter().enumerate() {
            let q = Quat::from_rotation_x(0.2 * f as f32 * i as f32);
            let t = j.translate;
            samples.push([t[0], t[1], t[2], q.x, q.y, q.z, q.w, 1.0, 1.0, 1.0]);
        }
    }
    let (ch, nch, data) = quantize_channels(&samples, 2);
    IqmDocument {
        num_vertexes: 4,
        vertex_arrays: vec![
            VertexArray::from_f32(IQM_POSITION, IQM_FLOAT, 3, &pos, false),
            VertexArray::from_f32(IQM_BLENDINDEXES, IQM_UBYTE, 4, &idx, false),
            VertexArray::new(IQM_BLENDWEIGHTS, IQM_UBYTE, 4, wgt),
        ],
        triangles: vec![[0, 2, 1], [0, 3, 2]],
        meshes: vec![Mesh {
            name: "quad".into(),
            material: "skin".into(),
            first_vertex: 0,
            num_vertexes: 4,
            first_triangle: 0,
            num_triangles: 2,
        }],
        poses: if frames > 0 { ch.iter().zip(&joints).map(|(c, j)| c.to_pose(j.parent)).collect() } else { vec![] },
        joints,
        anims: if frames > 0 {
            vec![Anim {
                name: "bend".into(),
                first_frame: 0,
                num_frames: frames as u32,
                framerate: 10.0,
                flags: IQM_LOOP,
            }]
        } else {
            vec![]
        },
        num_frames: frames as u32,
        num_framechannels: nch,
        frames: data,
        comment: Some("made by rigscope's tests".into()),
        ..IqmDocument::default()
    }
}

#[test]
fn clean_file_loads_without_warnings() {
    let s = load(&base(4).to_bytes()).unwrap();
    assert!(s.meta.warnings.is_empty(), "{:?}", s.meta.warnings);
    assert_eq!(s.meta.comment.as_deref(), Some("made by rigscope's tests"));
    assert_eq!(s.clips[0].frame_count, 4);
    assert!(s.clips[0].looping);
}

#[test]
fn unaligned_offsets_load_the_same_data_with_a_warning() {
    let doc = base(4);
    let aligned = load(&doc.to_bytes()).unwrap();
    let odd = load(&doc.to_bytes_with(&Layout { align: 1, pad_after_text: 2 })).unwrap();
    assert!(rules(&odd).contains(&"iqm.align"), "{:?}", odd.meta.warnings);
    assert_eq!(aligned.vertices, odd.vertices);
    assert_eq!(aligned.skeleton, odd.skeleton);
    assert_eq!(aligned.clips, odd.clips);
}

#[test]
fn every_component_format_decodes() {
    let mut doc = base(0);
    let pos = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0f32];
    let nrm = [0.0, -1.0, 0.0].repeat(4);
    let uv = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0f32];
    let col = [1.0, 0.5, 0.0, 1.0].repeat(4);
    doc.vertex_arrays = vec![
        VertexArray::from_f32(IQM_POSITION, IQM_DOUBLE, 3, &pos, false),
        VertexArray::from_f32(IQM_NORMAL, IQM_HALF, 3, &nrm, false),
        VertexArray::from_f32(IQM_TEXCOORD, IQM_USHORT, 2, &uv, true),
        VertexArray::from_f32(IQM_COLOR, IQM_UBYTE, 4, &col, true),
        VertexArray::custom(
            "wind",
            IQM_SHORT,
            3,
            rigscope::formats::iqm::write::encode_components(IQM_SHORT, &[0.25, -0.5, 1.0].repeat(4), true),
        ),
        VertexArray::custom(
            "mask",
            IQM_FLOAT,
            1,
            rigscope::formats::iqm::write::encode_components(IQM_FLOAT, &[0.0, 1.0, 2.0, 3.0], false),
        ),
    ];
    let s = load(&doc.to_bytes()).unwrap();
    let v = &s.vertices;
    assert_eq!(v.positions[2], Vec3::new(1.0, 0.0, 1.0));
    assert_eq!(v.normals.as_ref().unwrap()[3], Vec3::new(0.0, -1.0, 0.0));
    assert!((v.texcoords.as_ref().unwrap()[2] - glam::Vec2::ONE).abs().max_element() < 1e-4);
    let c = v.colors.as_ref().unwrap()[0];
    assert!((c.y - 128.0 / 255.0).abs() < 1e-6 && c.w == 1.0, "{c}");
    let names: Vec<_> = v.custom.iter().map(|c| (c.name.as_str(), c.components)).collect();
    assert_eq!(names, [("wind", 3), ("mask", 1)]);
    for (got, want) in v.custom[0].data.iter().zip([0.25, -0.5, 1.0].repeat(4)) {
        assert!((got - want).abs() < 1e-4, "{got} vs {want}");
    }
    assert_eq!(v.custom[1].data, [0.0, 1.0, 2.0, 3.0]);
    let kinds: Vec<_> = s.meta.source_arrays.iter().map(|a| format!("{} {}×{}", a.kind, a.format, a.size)).collect();
    assert_eq!(
        kinds,
        ["position double×3", "normal half×3", "texcoord ushort×2", "color ubyte×4", "wind short×3", "mask float×1"]
    );
}

#[test]
fn sizes_one_to_four_fill_missing_components() {
    let mut doc = base(0);
    doc.vertex_arrays[0] = VertexArray::from_f32(IQM_POSITION, IQM_FLOAT, 2, &[1.0, 2.0].repeat(4), false);
    doc.vertex_arrays.push(VertexArray::from_f32(IQM_COLOR, IQM_FLOAT, 1, &[0.5; 4], false));
    let s = load(&doc.to_bytes()).unwrap();
    assert_eq!(s.vertices.positions[0], Vec3::new(1.0, 2.0, 0.0));
    assert_eq!(s.vertices.colors.as_ref().unwrap()[0], glam::Vec4::new(0.5, 0.0, 0.0, 1.0));
}

#[test]
fn multiple_roots_and_joint_scale() {
    let mut doc = base(0);
    doc.joints = vec![
        Joint { name: "a".into(), scale: [10.1, 10.1, 10.1], ..Joint::default() },
        Joint {
            name: "b".into(),
            parent: 0,
            translate: [0.0, 0.0, 1.0],
            scale: [0.01, 0.01, 0.01],
            ..Joint::default()
        },
        Joint { name: "c".into(), translate: [5.0, 0.0, 0.0], ..Joint::default() },
    ];
    let s = load(&doc.to_bytes()).unwrap();
    assert_eq!(s.skeleton.joints.iter().filter(|j| j.parent.is_none()).count(), 2);
    // The child's translation is scaled by its parent: 1 unit up in a ×10.1 space.
    let b = s.skeleton.bind_world[1];
    assert!(b.w_axis.truncate().abs_diff_eq(Vec3::new(0.0, 0.0, 10.1), 1e-5), "{b}");
    assert!((b.x_axis.length() - 0.101).abs() < 1e-5);
    // In the bind pose every palette entry is identity, so skinning leaves vertices where they are.
    let p = Pose::bind(&s.skeleton);
    for (got, want) in skin_positions(&s.vertices, &p.palette).iter().zip(&s.vertices.positions) {
        assert!(got.abs_diff_eq(*want, 1e-5), "{got} vs {want}");
    }
}

#[test]
fn frames_without_channels_are_constant() {
    let mut doc = base(3);
    for p in &mut doc.poses {
        p.channel_mask = 0;
    }
    doc.num_framechannels = 0;
    doc.frames.clear();
    let s = load(&doc.to_bytes()).unwrap();
    let a = Pose::sample(&s.skeleton, &s.clips[0], 0.0, 24.0);
    let b = Pose::sample(&s.skeleton, &s.clips[0], 2.0, 24.0);
    assert_eq!(a.world, b.world);
    assert_eq!(s.clips[0].frame_count, 3);
}

#[test]
fn animation_only_files_attach_by_name_and_by_index() {
    // Named: joints and poses, no meshes; one of the model's joints is missing from the file.
    let mut anim = base(5);
    anim.vertex_arrays.clear();
    anim.num_vertexes = 0;
    anim.triangles.clear();
    anim.meshes.clear();
    let named = load(&anim.to_bytes()).unwrap();
    assert!(named.is_animation_only());
    let mut model = load(&base(0).to_bytes()).unwrap();
    model.skeleton.joints.push(rigscope::scene::Joint {
        name: "extra".into(),
        parent: Some(1),
        bind: Default::default(),
    });
    model.skeleton = rigscope::scene::Skeleton::new(model.skeleton.joints.clone(), true).unwrap();
    let report = attach(&mut model, &named, "named.iqm").unwrap();
    assert!(!report.by_index);
    assert_eq!(report.matched.len(), 2);
    assert_eq!(report.unmatched_joints, ["extra"]);
    let pose = Pose::sample(&model.skeleton, &model.clips[0], 3.0, 24.0);
    assert_eq!(pose.locals[2], model.skeleton.joints[2].bind, "unmatched joints keep their bind pose");
    let expect = Quat::from_rotation_x(0.6);
    assert!(pose.locals[1].rotation.dot(expect).abs() > 0.9999);

    // Unnamed: poses only.
    anim.joints.clear();
    let unnamed = load(&anim.to_bytes()).unwrap();
    assert!(!unnamed.skeleton.is_named());
    let mut model = load(&base(0).to_bytes()).unwrap();
    let report = attach(&mut model, &unnamed, "unnamed.iqm").unwrap();
    assert!(report.by_index);
}

#[test]
fn warnings_for_violations_files_survive() {
    let mut doc = base(2);
    doc.anims[0].framerate = 0.0;
    doc.vertex_arrays[2] = VertexArray::from_f32(IQM_BLENDWEIGHTS, IQM_UBYTE, 4, &[0.5, 0.0, 0.0, 0.0].repeat(4), true);
    doc.vertex_arrays.push(VertexArray::from_f32(9, IQM_FLOAT, 1, &[0.0; 4], false));
    doc.vertex_arrays.push(VertexArray::from_f32(IQM_POSITION, IQM_FLOAT, 3, &[9.0; 12], false));
    doc.meshes.push(doc.meshes[0].clone());
    doc.meshes.push(Mesh { name: "half".into(), first_vertex: 0, num_vertexes: 2, ..doc.meshes[0].clone() });
    doc.extensions = vec![Extension { name: "FTE_EVENT".into(), data: vec![0; 8] }];
    let mut bytes = doc.to_bytes();
    bytes.extend_from_slice(&[0; 6]);
    let s = load(&bytes).unwrap();
    let r = rules(&s);
    for rule in [
        "iqm.framerate.zero",
        "iqm.blendweights.sum",
        "iqm.vertexarray.reserved",
        "iqm.vertexarray.duplicate",
        "iqm.mesh.duplicate",
        "iqm.mesh.range",
        "iqm.filesize",
    ] {
        assert!(r.contains(&rule), "missing {rule} in {:?}", s.meta.warnings);
    }
    assert_eq!(s.meshes.len(), 2, "the duplicate entry is drawn once");
    assert_eq!(s.vertices.positions[0], Vec3::ZERO, "the first position array is used");
    assert_eq!(s.meta.extensions.len(), 1);
    assert_eq!(s.meta.extensions[0].name, "FTE_EVENT");
    assert_eq!(s.clips[0].fps(24.0), 24.0);
}

#[test]
fn extension_loop_is_a_warning() {
    let mut doc = base(0);
    doc.extensions =
        vec![Extension { name: "A".into(), data: vec![1; 4] }, Extension { name: "B".into(), data: vec![] }];
    let mut bytes = doc.to_bytes();
    let first =
        u32::from_le_bytes(bytes[field::OFS_EXTENSIONS..field::OFS_EXTENSIONS + 4].try_into().unwrap()) as usize;
    let second = u32::from_le_bytes(bytes[first + 12..first + 16].try_into().unwrap());
    // Point the second extension back at the first.
    assert!(patch_u32(&mut bytes, second as usize + 12, first as u32));
    assert!(patch_u32(&mut bytes, field::NUM_EXTENSIONS, 5));
    let s = load(&bytes).unwrap();
    assert!(
        s.meta.warnings.iter().any(|w| w.rule == "iqm.extensions" && w.message.contains("loops")),
        "{:?}",
        s.meta.warnings
    );
    assert_eq!(s.meta.extensions.len(), 2);
}

#[test]
fn structural_violations_are_errors_naming_field_and_offset() {
    let good = base(2).to_bytes();
    let patched = |at: usize, v: u32| {
        let mut b = good.clone();
        assert!(patch_u32(&mut b, at, v));
        b
    };
    assert!(err(&good[..57]).contains("57 bytes, an IQM header needs 124"));
    assert!(err(&patched(field::VERSION, 1)).contains("IQM version 1 is not supported"));
    assert!(err(&patched(field::VERSION, 3)).contains("@16: IQM version 3 unsupported (expected 2)"));
    assert!(
        err(&patched(field::FILESIZE, good.len() as u32 + 10))
            .contains(&format!("@20: header says {} bytes", good.len() + 10))
    );
    // A count no file could back is refused before anything is allocated.
    let e = err(&patched(field::NUM_VERTEXES, u32::MAX));
    assert!(e.contains("past end of file") || e.contains("exceed"), "{e}");
    let e = err(&patched(field::NUM_TRIANGLES, 1 << 30));
    assert!(e.contains("@60: triangles") && e.contains("past end of file"), "{e}");
    let e = err(&patched(field::OFS_MESHES, 100));
    assert!(e.contains("@40: meshes") && e.contains("overlap the header"), "{e}");
    let e = err(&patched(field::NUM_FRAMECHANNELS, 7));
    assert!(e.contains("channels per frame, header says 7"), "{e}");

    let mut doc = base(2);
    doc.joints[1].parent = 1;
    let e = err(&doc.to_bytes());
    assert!(e.contains("joint 1 \"tip\": parent 1 does not precede it") && e.contains('@'), "{e}");

    let mut doc = base(2);
    doc.triangles[1] = [0, 3, 40];
    assert!(err(&doc.to_bytes()).contains("triangle 1 uses vertex 40 ≥ 4"));

    let mut doc = base(2);
    doc.vertex_arrays[0].format = 11;
    assert!(err(&doc.to_bytes()).contains("vertex array 0: format 11 unknown"));

    let mut doc = base(2);
    doc.vertex_arrays.remove(1);
    assert!(err(&doc.to_bytes()).contains("blendweights without blendindexes"));

    let mut doc = base(2);
    doc.vertex_arrays[1] =
        VertexArray::from_f32(IQM_BLENDINDEXES, IQM_UBYTE, 4, &[7.0, 0.0, 0.0, 0.0].repeat(4), false);
    assert!(err(&doc.to_bytes()).contains("vertex 0 slot 0: joint 7, only 2 joints"));

    let mut doc = base(2);
    doc.anims[0].num_frames = 5;
    assert!(err(&doc.to_bytes()).contains("anim \"bend\" frames [0,5) exceed 2"));

    let mut doc = base(2);
    doc.vertex_arrays[0] = VertexArray::from_f32(IQM_POSITION, IQM_FLOAT, 3, &[f32::INFINITY; 12], false);
    assert!(err(&doc.to_bytes()).contains("vertex 0 position is not finite"));

    let mut doc = base(2);
    doc.meshes[0].num_triangles = 9;
    assert!(err(&doc.to_bytes()).contains("mesh 0 \"quad\" triangles [0,9) exceed 2"));

    let mut doc = base(2);
    doc.poses.pop();
    assert!(err(&doc.to_bytes()).contains("1 poses but 2 joints"));

    // A name offset past the text table, and a table that doesn't end in NUL.
    let ofs_text = u32::from_le_bytes(good[field::OFS_TEXT..field::OFS_TEXT + 4].try_into().unwrap()) as usize;
    let num_text = u32::from_le_bytes(good[field::NUM_TEXT..field::NUM_TEXT + 4].try_into().unwrap()) as usize;
    let ofs_meshes = u32::from_le_bytes(good[field::OFS_MESHES..field::OFS_MESHES + 4].try_into().unwrap()) as usize;
    let e = err(&patched(ofs_meshes, 5000));
    assert!(e.contains(&format!("@{ofs_meshes}: mesh 0 name offset 5000 outside text ({num_text} B)")), "{e}");
    let mut b = good.clone();
    b[ofs_text + num_text - 1] = b'x';
    assert!(err(&b).contains("text table does not end in NUL"));
}

#[test]
fn claimed_frames_cannot_outgrow_the_file() {
    let mut doc = base(2);
    for p in &mut doc.poses {
        p.channel_mask = 0;
    }
    doc.num_framechannels = 0;
    doc.frames.clear();
    doc.num_frames = u32::MAX;
    doc.anims[0].num_frames = u32::MAX;
    // No channels: every frame is the same constant pose, decoded once however many frames are claimed.
    let s = load(&doc.to_bytes()).unwrap();
    assert_eq!(s.clips[0].frame_count, u32::MAX);
    match &s.clips[0].data {
        rigscope::scene::ClipData::Sampled { frames, .. } => assert_eq!(frames.len(), 2),
        other => panic!("{other:?}"),
    }
}

/// Anims may share frames, so a small file can claim far more decoded animation than it stores: 500 anims
/// over the same 1000 frames. The reader refuses it instead of allocating gigabytes.
#[test]
fn overlapping_anims_cannot_multiply_memory() {
    let mut doc = base(1000);
    let anim = doc.anims[0].clone();
    doc.anims = (0..500).map(|i| Anim { name: format!("a{i}"), ..anim.clone() }).collect();
    let bytes = doc.to_bytes();
    let e = err(&bytes);
    assert!(e.contains("would decode to") && e.contains(&format!("{}-byte file", bytes.len())), "{e}");
}

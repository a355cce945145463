//! Tests of the writer: header, sections, layouts, records, and the encoders.

use super::*;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn text_at(b: &[u8], ofs_text: usize, ofs: u32) -> &str {
    let start = ofs_text + ofs as usize;
    let end = start + b[start..].iter().position(|&c| c == 0).unwrap();
    std::str::from_utf8(&b[start..end]).unwrap()
}

/// Deterministic xorshift, so "random-ish" inputs reproduce.
struct Rng(u32);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1 << 24) as f32
    }
}

/// Touches every section, with names that repeat across record kinds.
fn full_doc() -> IqmDocument {
    let positions = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    IqmDocument {
        flags: 0,
        num_vertexes: 3,
        vertex_arrays: vec![
            VertexArray::from_f32(IQM_POSITION, IQM_FLOAT, 3, &positions, false),
            VertexArray::from_f32(IQM_TEXCOORD, IQM_HALF, 2, &[0.0; 6], false),
            VertexArray::from_f32(IQM_BLENDINDEXES, IQM_UBYTE, 1, &[0.0, 1.0, 1.0], false),
            VertexArray::custom("heat", IQM_DOUBLE, 1, encode_components(IQM_DOUBLE, &[1.0, 2.0, 3.0], false)),
        ],
        triangles: vec![[0, 1, 2]],
        adjacency: Some(vec![[u32::MAX; 3]]),
        meshes: vec![Mesh {
            name: "body".into(),
            material: "skin".into(),
            num_vertexes: 3,
            num_triangles: 1,
            ..Default::default()
        }],
        joints: vec![
            Joint { name: "root".into(), ..Default::default() },
            Joint {
                name: "body".into(),
                parent: 0,
                translate: [1.0, 2.0, 3.0],
                scale: [10.1, 1.0, 0.01],
                ..Default::default()
            },
        ],
        poses: vec![
            Pose { parent: -1, ..Default::default() },
            Pose { parent: 0, channel_mask: 1, ..Default::default() },
        ],
        anims: vec![Anim {
            name: "idle".into(),
            num_frames: 2,
            framerate: 24.0,
            flags: IQM_LOOP,
            ..Default::default()
        }],
        num_frames: 2,
        num_framechannels: 1,
        frames: vec![0, 65535],
        bounds: Some(vec![Bounds::default(), Bounds { radius: 5.0, ..Default::default() }]),
        comment: Some("made by a test".into()),
        extensions: vec![
            Extension { name: "FTE_MESH".into(), data: vec![1, 2, 3] },
            Extension { name: "EMPTY".into(), data: vec![] },
            Extension { name: "skin".into(), data: vec![9; 8] },
        ],
    }
}

/// (name, ofs field, bytes) of every fixed-size section in file order, to check order and alignment.
fn sections(b: &[u8]) -> Vec<(&'static str, u32, u32)> {
    let f = |at| u32_at(b, at);
    let frames = 2 * f(field::NUM_FRAMES) * f(field::NUM_FRAMECHANNELS);
    vec![
        ("text", f(field::OFS_TEXT), f(field::NUM_TEXT)),
        ("meshes", f(field::OFS_MESHES), MESH_SIZE as u32 * f(field::NUM_MESHES)),
        ("vertexarrays", f(field::OFS_VERTEXARRAYS), VERTEXARRAY_SIZE as u32 * f(field::NUM_VERTEXARRAYS)),
        ("triangles", f(field::OFS_TRIANGLES), TRIANGLE_SIZE as u32 * f(field::NUM_TRIANGLES)),
        ("adjacency", f(field::OFS_ADJACENCY), ADJACENCY_SIZE as u32 * f(field::NUM_TRIANGLES)),
        ("joints", f(field::OFS_JOINTS), JOINT_SIZE as u32 * f(field::NUM_JOINTS)),
        ("poses", f(field::OFS_POSES), POSE_SIZE as u32 * f(field::NUM_POSES)),
        ("anims", f(field::OFS_ANIMS), ANIM_SIZE as u32 * f(field::NUM_ANIMS)),
        ("frames", f(field::OFS_FRAMES), frames),
        ("bounds", f(field::OFS_BOUNDS), BOUNDS_SIZE as u32 * f(field::NUM_FRAMES)),
        ("comment", f(field::OFS_COMMENT), f(field::NUM_COMMENT)),
        ("extensions", f(field::OFS_EXTENSIONS), EXTENSION_SIZE as u32 * f(field::NUM_EXTENSIONS)),
    ]
}

#[test]
fn empty_document_is_a_bare_header() {
    let b = IqmDocument::default().to_bytes();
    assert_eq!(b.len(), HEADER_SIZE);
    assert_eq!(&b[..16], MAGIC);
    assert_eq!(u32_at(&b, field::VERSION), 2);
    assert_eq!(u32_at(&b, field::FILESIZE), 124);
    assert!((24..124).step_by(4).all(|at| u32_at(&b, at) == 0));
}

#[test]
fn header_counts_and_filesize() {
    let doc = full_doc();
    let b = doc.to_bytes();
    assert_eq!(u32_at(&b, field::FILESIZE) as usize, b.len());
    assert_eq!(u32_at(&b, field::NUM_MESHES), 1);
    assert_eq!(u32_at(&b, field::NUM_VERTEXARRAYS), 4);
    assert_eq!(u32_at(&b, field::NUM_VERTEXES), 3);
    assert_eq!(u32_at(&b, field::NUM_TRIANGLES), 1);
    assert_eq!(u32_at(&b, field::NUM_JOINTS), 2);
    assert_eq!(u32_at(&b, field::NUM_POSES), 2);
    assert_eq!(u32_at(&b, field::NUM_ANIMS), 1);
    assert_eq!(u32_at(&b, field::NUM_FRAMES), 2);
    assert_eq!(u32_at(&b, field::NUM_FRAMECHANNELS), 1);
    assert_eq!(u32_at(&b, field::NUM_EXTENSIONS), 3);
    assert_eq!(u32_at(&b, field::NUM_TEXT) % 4, 0);
}

#[test]
fn sections_are_in_order_aligned_and_inside_the_file() {
    let b = full_doc().to_bytes();
    let mut end = HEADER_SIZE as u32;
    for (name, ofs, len) in sections(&b) {
        assert!(ofs >= end, "{name} at {ofs} overlaps the previous section ending at {end}");
        assert_eq!(ofs % 4, 0, "{name} at {ofs}");
        end = ofs + len;
    }
    assert!(end as usize <= b.len());
    assert_eq!(u32_at(&b, field::OFS_TEXT), 124);
    // Vertex data sits between the array records and the triangles.
    let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
    let mut data_end = va as u32 + 80;
    for i in 0..4 {
        let ofs = u32_at(&b, va + 20 * i + 16);
        assert!(ofs >= data_end && ofs.is_multiple_of(4), "array {i} data at {ofs}");
        data_end = ofs + doc_array_len(i);
    }
    assert!(u32_at(&b, field::OFS_TRIANGLES) >= data_end);
}

fn doc_array_len(i: usize) -> u32 {
    full_doc().vertex_arrays[i].data.len() as u32
}

#[test]
fn pad_after_text_shifts_every_later_section_off_alignment() {
    let layout = Layout { align: 4, pad_after_text: 2 };
    let b = full_doc().to_bytes_with(&layout);
    assert_eq!(u32_at(&b, field::FILESIZE) as usize, b.len());
    for (name, ofs, _) in sections(&b).into_iter().skip(1) {
        assert_eq!(ofs % 4, 2, "{name} at {ofs}");
    }
    let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
    for i in 0..4 {
        assert_eq!(u32_at(&b, va + 20 * i + 16) % 4, 2, "array {i}");
    }
    // The records still decode at their unaligned offsets.
    let joints = u32_at(&b, field::OFS_JOINTS) as usize;
    assert_eq!(f32_at(&b, joints + 48 + 8), 1.0);
}

#[test]
fn packed_layout_matches_red_eclipse_offsets() {
    // An animation-only file with a 6-byte text table: poses at 130, anims right after them.
    let doc = IqmDocument {
        poses: vec![Pose { parent: -1, ..Default::default() }; 78],
        anims: vec![Anim { name: "dead".into(), num_frames: 2, ..Default::default() }],
        num_frames: 2,
        ..Default::default()
    };
    let b = doc.to_bytes_with(&Layout { align: 1, pad_after_text: 0 });
    assert_eq!(u32_at(&b, field::NUM_TEXT), 6);
    assert_eq!(u32_at(&b, field::OFS_POSES), 130);
    assert_eq!(u32_at(&b, field::OFS_ANIMS), 130 + 78 * 88);
    assert_eq!(u32_at(&b, field::OFS_FRAMES), 0);
    assert_eq!(b.len(), 130 + 78 * 88 + 20);
    // The spec layout pads the same table to 8.
    let b = doc.to_bytes();
    assert_eq!(u32_at(&b, field::NUM_TEXT), 8);
    assert_eq!(u32_at(&b, field::OFS_POSES), 132);
}

#[test]
fn converter_layout_puts_vertex_data_on_8_bytes() {
    // One 1-byte array first pushes the double array off 8 unless it is aligned on its own size.
    let mut doc = full_doc();
    doc.vertex_arrays.swap(0, 2);
    for layout_is_converter in [false, true] {
        let b = if layout_is_converter { doc.to_bytes_like_converter() } else { doc.to_bytes() };
        assert_eq!(u32_at(&b, field::FILESIZE) as usize, b.len());
        let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
        let first = u32_at(&b, va + 16);
        let double = u32_at(&b, va + 3 * 20 + 16);
        let aligned = first.is_multiple_of(8) && double.is_multiple_of(8);
        assert_eq!(aligned, layout_is_converter, "data at {first} and {double}");
    }
}

#[test]
fn text_table_is_deduplicated_and_starts_empty() {
    let b = full_doc().to_bytes();
    let text = u32_at(&b, field::OFS_TEXT) as usize;
    assert_eq!(b[text], 0);
    let meshes = u32_at(&b, field::OFS_MESHES) as usize;
    let joints = u32_at(&b, field::OFS_JOINTS) as usize;
    let mesh_name = u32_at(&b, meshes);
    assert_eq!(text_at(&b, text, mesh_name), "body");
    assert_eq!(text_at(&b, text, u32_at(&b, meshes + 4)), "skin");
    assert_eq!(text_at(&b, text, u32_at(&b, joints)), "root");
    // The joint "body" reuses the mesh's string; the extension "skin" reuses the material's.
    assert_eq!(u32_at(&b, joints + 48), mesh_name);
    let ext = u32_at(&b, field::OFS_EXTENSIONS) as usize;
    assert_eq!(u32_at(&b, ext + 32), u32_at(&b, meshes + 4));
    // Every string once: "", body, skin, heat, root, idle, FTE_MESH, EMPTY.
    let names = ["", "body", "skin", "heat", "root", "idle", "FTE_MESH", "EMPTY"];
    let raw: usize = names.iter().map(|n| n.len() + 1).sum();
    assert_eq!(u32_at(&b, field::NUM_TEXT) as usize, raw.div_ceil(4) * 4);

    // Empty names share offset 0.
    let doc = IqmDocument { meshes: vec![Mesh::default()], joints: vec![Joint::default()], ..Default::default() };
    let b = doc.to_bytes();
    assert_eq!(u32_at(&b, field::NUM_TEXT), 4);
    assert_eq!(u32_at(&b, u32_at(&b, field::OFS_MESHES) as usize), 0);
    assert_eq!(u32_at(&b, u32_at(&b, field::OFS_JOINTS) as usize), 0);
}

#[test]
fn custom_array_type_points_at_its_name() {
    let b = full_doc().to_bytes();
    let text = u32_at(&b, field::OFS_TEXT) as usize;
    let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
    let custom = va + 3 * 20;
    let kind = u32_at(&b, custom);
    assert!(kind >= IQM_CUSTOM);
    assert_eq!(text_at(&b, text, kind - IQM_CUSTOM), "heat");
    assert_eq!(u32_at(&b, custom + 8), IQM_DOUBLE);
    let data = u32_at(&b, custom + 16) as usize;
    assert_eq!(f64::from_le_bytes(b[data + 8..data + 16].try_into().unwrap()), 2.0);
    // A plain array keeps its kind, format and size.
    assert_eq!([u32_at(&b, va + 20), u32_at(&b, va + 28), u32_at(&b, va + 32)], [IQM_TEXCOORD, IQM_HALF, 2]);
}

#[test]
fn records_decode_field_by_field() {
    let b = full_doc().to_bytes();
    let m = u32_at(&b, field::OFS_MESHES) as usize;
    assert_eq!((2..6).map(|i| u32_at(&b, m + 4 * i)).collect::<Vec<_>>(), [0, 3, 0, 1]);
    let t = u32_at(&b, field::OFS_TRIANGLES) as usize;
    assert_eq!([u32_at(&b, t), u32_at(&b, t + 4), u32_at(&b, t + 8)], [0, 1, 2]);
    assert_eq!(u32_at(&b, u32_at(&b, field::OFS_ADJACENCY) as usize), u32::MAX);
    let j = u32_at(&b, field::OFS_JOINTS) as usize + 48;
    assert_eq!(i32_at(&b, j + 4), 0);
    let floats: Vec<f32> = (0..10).map(|i| f32_at(&b, j + 8 + 4 * i)).collect();
    assert_eq!(floats, [1.0, 2.0, 3.0, 0.0, 0.0, 0.0, -1.0, 10.1, 1.0, 0.01]);
    let p = u32_at(&b, field::OFS_POSES) as usize;
    assert_eq!(i32_at(&b, p), -1);
    assert_eq!((i32_at(&b, p + 88), u32_at(&b, p + 92)), (0, 1));
    let a = u32_at(&b, field::OFS_ANIMS) as usize;
    assert_eq!((u32_at(&b, a + 4), u32_at(&b, a + 8), f32_at(&b, a + 12), u32_at(&b, a + 16)), (0, 2, 24.0, 1));
    let fr = u32_at(&b, field::OFS_FRAMES) as usize;
    assert_eq!(u16::from_le_bytes([b[fr + 2], b[fr + 3]]), 65535);
    let bd = u32_at(&b, field::OFS_BOUNDS) as usize;
    assert_eq!(f32_at(&b, bd + 32 + 28), 5.0);
}

#[test]
fn comment_counts_its_trailing_nul() {
    let b = full_doc().to_bytes();
    let ofs = u32_at(&b, field::OFS_COMMENT) as usize;
    let n = u32_at(&b, field::NUM_COMMENT) as usize;
    assert_eq!(n, "made by a test".len() + 1);
    assert_eq!(&b[ofs..ofs + n], b"made by a test\0");
}

#[test]
fn extensions_form_a_linked_list() {
    let b = full_doc().to_bytes();
    let text = u32_at(&b, field::OFS_TEXT) as usize;
    let mut at = u32_at(&b, field::OFS_EXTENSIONS) as usize;
    let mut seen = Vec::new();
    while at != 0 {
        let (name, num, ofs) = (u32_at(&b, at), u32_at(&b, at + 4) as usize, u32_at(&b, at + 8) as usize);
        let data = if num == 0 { Vec::new() } else { b[ofs..ofs + num].to_vec() };
        if num == 0 {
            assert_eq!(ofs, 0);
        }
        seen.push((text_at(&b, text, name).to_owned(), data));
        at = u32_at(&b, at + 12) as usize;
    }
    let want: Vec<(String, Vec<u8>)> = full_doc().extensions.into_iter().map(|e| (e.name, e.data)).collect();
    assert_eq!(seen, want);
}

#[test]
fn empty_sections_get_offset_zero() {
    let doc = IqmDocument {
        meshes: vec![Mesh::default()],
        adjacency: Some(Vec::new()),
        bounds: Some(Vec::new()),
        num_frames: 2,
        vertex_arrays: vec![VertexArray::new(IQM_POSITION, IQM_FLOAT, 3, Vec::new())],
        ..Default::default()
    };
    let b = doc.to_bytes();
    for at in [field::OFS_TRIANGLES, field::OFS_ADJACENCY, field::OFS_JOINTS, field::OFS_POSES, field::OFS_ANIMS] {
        assert_eq!(u32_at(&b, at), 0, "field at {at}");
    }
    for at in [field::OFS_FRAMES, field::OFS_BOUNDS, field::OFS_COMMENT, field::OFS_EXTENSIONS] {
        assert_eq!(u32_at(&b, at), 0, "field at {at}");
    }
    let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
    assert_eq!(u32_at(&b, va + 16), 0);
    assert_eq!(b.len(), u32_at(&b, field::FILESIZE) as usize);
}

#[test]
fn inconsistent_documents_are_written_as_given() {
    let doc = IqmDocument {
        num_vertexes: 1000,
        vertex_arrays: vec![
            VertexArray::new(IQM_POSITION, 11, 7, vec![1, 2, 3]),
            VertexArray { custom_name: Some("x".repeat(300)), ..Default::default() },
        ],
        triangles: vec![[5000, 6000, 7000]; 2],
        adjacency: Some(vec![[0, 0, 0]]),
        num_frames: 7,
        num_framechannels: 3,
        frames: vec![1],
        bounds: Some(vec![Bounds::default(); 3]),
        comment: Some(String::new()),
        ..Default::default()
    };
    for layout in [Layout::default(), Layout { align: 0, pad_after_text: 7 }, Layout { align: 3, pad_after_text: 1 }] {
        let b = doc.to_bytes_with(&layout);
        assert_eq!(b.len(), u32_at(&b, field::FILESIZE) as usize);
        assert_eq!(u32_at(&b, field::NUM_VERTEXES), 1000);
        assert_eq!(u32_at(&b, field::NUM_COMMENT), 1);
        let va = u32_at(&b, field::OFS_VERTEXARRAYS) as usize;
        assert_eq!((u32_at(&b, va + 8), u32_at(&b, va + 12)), (11, 7));
    }
}

#[test]
fn patch_u32_refuses_out_of_range() {
    let mut b = IqmDocument::default().to_bytes();
    assert!(patch_u32(&mut b, field::VERSION, 3));
    assert_eq!(u32_at(&b, field::VERSION), 3);
    assert!(!patch_u32(&mut b, 122, 0));
    assert!(!patch_u32(&mut b, usize::MAX, 0));
}

/// The reader's normalised decoding, written independently of the encoder.
fn decode(format: u32, b: &[u8]) -> Vec<f64> {
    let size = format_size(format).unwrap();
    b.chunks_exact(size)
        .map(|c| match format {
            IQM_BYTE => (2.0 * f64::from(c[0] as i8) + 1.0) / 255.0,
            IQM_UBYTE => f64::from(c[0]) / 255.0,
            IQM_SHORT => (2.0 * f64::from(i16::from_le_bytes([c[0], c[1]])) + 1.0) / 65535.0,
            IQM_USHORT => f64::from(u16::from_le_bytes([c[0], c[1]])) / 65535.0,
            IQM_INT => (2.0 * f64::from(i32::from_le_bytes(c.try_into().unwrap())) + 1.0) / 4294967295.0,
            IQM_UINT => f64::from(u32::from_le_bytes(c.try_into().unwrap())) / 4294967295.0,
            IQM_HALF => f64::from(half::f16::from_le_bytes([c[0], c[1]]).to_f32()),
            IQM_FLOAT => f64::from(f32::from_le_bytes(c.try_into().unwrap())),
            _ => f64::from_le_bytes(c.try_into().unwrap()),
        })
        .collect()
}

#[test]
fn encode_components_round_trips_every_format() {
    let unsigned = [0.0f32, 1.0, 0.5, 0.25, 0.999, 1.0 / 255.0, 0.123_456];
    let signed = [-1.0f32, 1.0, 0.0, -0.5, 0.5, 0.75, -0.123_456];
    for format in 0..=8 {
        let values: &[f32] = if format % 2 == 1 && format < 6 { &unsigned } else { &signed };
        let bytes = encode_components(format, values, true);
        assert_eq!(bytes.len(), values.len() * format_size(format).unwrap());
        let tolerance = match format {
            IQM_BYTE | IQM_UBYTE => 1.0 / 255.0,
            IQM_SHORT | IQM_USHORT => 1.0 / 65535.0,
            IQM_INT | IQM_UINT => 1e-7,
            IQM_HALF => 1e-3,
            _ => 0.0,
        };
        for (&v, d) in values.iter().zip(decode(format, &bytes)) {
            assert!((f64::from(v) - d).abs() <= tolerance, "format {format}: {v} decoded as {d}");
        }
    }
    // Extremes hit the integer limits exactly.
    assert_eq!(encode_components(IQM_BYTE, &[-1.0, 1.0], true), [0x80, 0x7F]);
    assert_eq!(encode_components(IQM_USHORT, &[1.0], true), [0xFF, 0xFF]);
    assert_eq!(encode_components(IQM_UINT, &[1.0], true), u32::MAX.to_le_bytes());
    assert_eq!(encode_components(IQM_INT, &[-1.0], true), i32::MIN.to_le_bytes());
}

#[test]
fn encode_components_clamps_and_writes_plain_integers() {
    assert_eq!(encode_components(IQM_UBYTE, &[0.0, 3.0, 74.6, 300.0, -2.0, f32::NAN], false), [0, 3, 75, 255, 0, 0]);
    assert_eq!(encode_components(IQM_SHORT, &[-40000.0, 12.0], false), [0x00, 0x80, 12, 0]);
    assert_eq!(encode_components(IQM_UBYTE, &[2.0, -1.0, f32::INFINITY], true), [255, 0, 255]);
    assert_eq!(encode_components(IQM_UINT, &[70000.0], false), 70000u32.to_le_bytes());
    assert!(encode_components(9, &[1.0], false).is_empty());
    assert!(encode_components(IQM_FLOAT, &[], true).is_empty());
}

#[test]
fn quantize_channels_reproduces_values_within_half_a_step() {
    let (num_poses, num_frames) = (3, 17);
    let mut rng = Rng(0x1234_5678);
    let mut samples = Vec::new();
    for _ in 0..num_frames {
        for p in 0..num_poses {
            let mut s = [0.0f32; 10];
            for (k, v) in s.iter_mut().enumerate() {
                // Pose 1 keeps Tx and the scale channels constant; pose 2 spans a large range.
                *v = match (p, k) {
                    (1, 0) => 2.5,
                    (1, 7..) => 1.0,
                    (2, _) => rng.next() * 2000.0 - 1000.0,
                    _ => rng.next() * 2.0 - 1.0,
                };
            }
            samples.push(s);
        }
    }
    let (poses, channels, frames) = quantize_channels(&samples, num_poses);
    assert_eq!(poses.len(), num_poses);
    assert_eq!(channels, poses.iter().map(|p| p.mask.count_ones()).sum::<u32>());
    assert_eq!(channels, 30 - 4);
    assert_eq!(frames.len(), num_frames * channels as usize);
    assert_eq!(poses[1].mask, 0x3FF & !(1 | (0b111 << 7)));
    assert_eq!((poses[1].offset[0], poses[1].scale[0]), (2.5, 0.0));
    assert_eq!((poses[1].offset[8], poses[1].scale[8]), (1.0, 0.0));
    let mut cursor = frames.iter();
    for (i, sample) in samples.iter().enumerate() {
        let (f, p, pose) = (i / num_poses, i % num_poses, &poses[i % num_poses]);
        for (k, &want) in sample.iter().enumerate() {
            let mut v = pose.offset[k];
            if pose.mask & (1 << k) != 0 {
                v += f32::from(*cursor.next().unwrap()) * pose.scale[k];
            }
            // A little slack over scale/2 for the f32 rounding of offset + q*scale.
            let slack = pose.scale[k] * 0.5 + want.abs().max(pose.offset[k].abs()) * 4.0 * f32::EPSILON;
            assert!((v - want).abs() <= slack, "frame {f} pose {p} channel {k}: {v} vs {want}");
        }
    }
    let pose = poses[2].to_pose(1);
    assert_eq!((pose.parent, pose.channel_mask), (1, 0x3FF));
}

#[test]
fn quantize_channels_handles_degenerate_input() {
    // Constant frames: no channels, as in Red Eclipse's two-frame death pose.
    let samples = vec![[0.5f32; 10]; 4];
    let (poses, channels, frames) = quantize_channels(&samples, 2);
    assert_eq!(channels, 0);
    assert!(frames.is_empty());
    assert!(poses.iter().all(|p| p.mask == 0 && p.offset == [0.5; 10] && p.scale == [0.0; 10]));
    assert_eq!(quantize_channels(&samples, 0), (Vec::new(), 0, Vec::new()));
    let (poses, channels, _) = quantize_channels(&[], 3);
    assert_eq!((poses.len(), channels), (3, 0));
    // A trailing partial frame is dropped.
    let mut odd = vec![[0.0f32; 10]; 3];
    odd[2][0] = 9.0;
    assert_eq!(quantize_channels(&odd, 2).1, 0);
    // Non-finite values don't panic, and a NaN-only channel stays constant.
    let mut wild = vec![[0.0f32; 10]; 4];
    wild[0][0] = f32::NAN;
    wild[2][0] = f32::NAN;
    wild[1][1] = f32::INFINITY;
    let (poses, channels, frames) = quantize_channels(&wild, 2);
    assert_eq!(poses[0].mask & 1, 0);
    assert!(poses[0].offset[0].is_nan());
    assert_eq!(frames.len(), 2 * channels as usize);
}

#[test]
fn quantize_weights_always_sums_to_255() {
    let mut rng = Rng(0x9E37_79B9);
    for i in 0..10_000 {
        let mut w = [0.0f32; 4];
        for (slot, v) in w.iter_mut().enumerate() {
            // Some slots empty, some tiny, some ties.
            *v = match (i + slot) % 7 {
                0 => 0.0,
                1 => rng.next() * 1e-3,
                2 => 0.5,
                _ => rng.next(),
            };
        }
        if w.iter().sum::<f32>() <= 0.0 {
            continue;
        }
        let q = quantize_weights(w);
        assert_eq!(q.iter().map(|&c| u32::from(c)).sum::<u32>(), 255, "{w:?} -> {q:?}");
    }
    assert_eq!(quantize_weights([1.0, 0.0, 0.0, 0.0]), [255, 0, 0, 0]);
    assert_eq!(quantize_weights([1.0, 1.0, 1.0, 0.0]), [85, 85, 85, 0]);
    assert_eq!(quantize_weights([0.5, 0.5, 0.0, 0.0]).map(u32::from).iter().sum::<u32>(), 255);
    assert_eq!(quantize_weights([2.0, 2.0, 2.0, 2.0]).map(u32::from).iter().sum::<u32>(), 255);
    assert_eq!(quantize_weights([f32::MAX; 4]).map(u32::from).iter().sum::<u32>(), 255);
}

#[test]
fn quantize_weights_without_weight_is_all_zero() {
    assert_eq!(quantize_weights([0.0; 4]), [0; 4]);
    assert_eq!(quantize_weights([-1.0, f32::NAN, 0.0, f32::NEG_INFINITY]), [0; 4]);
    assert_eq!(quantize_weights([-1.0, 0.0, 3.0, 0.0]), [0, 0, 255, 0]);
}

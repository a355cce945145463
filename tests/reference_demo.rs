//! Cross-checks `rigscope pose` against an independent reimplementation of the CPU skinning path of the IQM
//! reference demo (`lsalzman/iqm` `demo/demo.cpp`).
//!
//! Nothing here comes from the rigscope library: the file is parsed with `from_le_bytes` and the demo's
//! 3x4-matrix math is redone in `f64`. A shared bug (say, a wrong quaternion convention or parent order) can
//! therefore not hide on both sides. The reimplementation itself is validated against the per-frame bounds the
//! converter stored in the file, so a mismatch with rigscope points at rigscope, not at this test.
//!
//! Math (see `shared/notes/iqm-iqe.md`, section 3): the demo bakes each frame into
//! `F = B_parent · P · B⁻¹` (roots `P · B⁻¹`) and chains `out_j = out_parent · lerp(F1, F2, t)`, so at whole
//! frames `out_j` is the skin matrix `G_j · B_j⁻¹` and the joint's model-space transform is `out_j · B_j`.

use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

/// The IQM demo's own model; the demo was written against it, so it is the natural reference case.
const MRFIXIT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/iqm/lsalzman_mrfixit.iqm");

/// Vertex arrays the demo needs; the others (texcoord, normal, tangent, colour) do not move positions.
const IQM_POSITION: u32 = 0;
const IQM_BLENDINDEXES: u32 = 4;
const IQM_BLENDWEIGHTS: u32 = 5;
const IQM_UBYTE: u32 = 1;
const IQM_FLOAT: u32 = 7;

/// An affine transform stored as the demo stores it: three rows, the fourth column is the translation.
#[derive(Clone, Copy, Debug)]
struct Mat34([[f64; 4]; 3]);

impl Mat34 {
    /// `T · R · S` for column vectors: the rotation's columns are scaled, then the translation is appended.
    fn from_trs(t: [f64; 3], q: [f64; 4], s: [f64; 3]) -> Self {
        let [x, y, z, w] = q;
        let rot = [
            [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
            [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
            [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
        ];
        let mut m = [[0.0; 4]; 3];
        for r in 0..3 {
            for c in 0..3 {
                m[r][c] = rot[r][c] * s[c];
            }
            m[r][3] = t[r];
        }
        Mat34(m)
    }

    /// Composition `self · o` with the implicit bottom row `0 0 0 1`.
    fn mul(&self, o: &Mat34) -> Mat34 {
        let (a, b) = (&self.0, &o.0);
        let mut m = [[0.0; 4]; 3];
        for r in 0..3 {
            for c in 0..4 {
                m[r][c] = (0..3).map(|k| a[r][k] * b[k][c]).sum::<f64>();
            }
            m[r][3] += a[r][3];
        }
        Mat34(m)
    }

    /// General affine inverse via the adjugate. The demo's shortcut (transpose, divide rows by their squared
    /// lengths) only holds for `T·R·S`; joint transforms are exactly that, so both agree, but the general
    /// form keeps this reference independent of that assumption.
    fn inverse(&self) -> Mat34 {
        let a = &self.0;
        let cof = |r0: usize, r1: usize, c0: usize, c1: usize| a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0];
        let adj = [
            [cof(1, 2, 1, 2), -cof(0, 2, 1, 2), cof(0, 1, 1, 2)],
            [-cof(1, 2, 0, 2), cof(0, 2, 0, 2), -cof(0, 1, 0, 2)],
            [cof(1, 2, 0, 1), -cof(0, 2, 0, 1), cof(0, 1, 0, 1)],
        ];
        let det = a[0][0] * adj[0][0] + a[0][1] * adj[1][0] + a[0][2] * adj[2][0];
        assert!(det.abs() > 1e-12, "singular joint transform {a:?}");
        let mut m = [[0.0; 4]; 3];
        for r in 0..3 {
            for c in 0..3 {
                m[r][c] = adj[r][c] / det;
            }
            m[r][3] = -(0..3).map(|k| m[r][k] * a[k][3]).sum::<f64>();
        }
        Mat34(m)
    }

    /// Component-wise `self · (1 - t) + o · t`, the demo's inter-frame blend (not a rotation-aware one).
    fn lerp(&self, o: &Mat34, t: f64) -> Mat34 {
        self.scaled(1.0 - t).add(&o.scaled(t))
    }

    fn scaled(&self, k: f64) -> Mat34 {
        Mat34(self.0.map(|row| row.map(|v| v * k)))
    }

    fn add(&self, o: &Mat34) -> Mat34 {
        let mut m = self.0;
        for (row, orow) in m.iter_mut().zip(&o.0) {
            for (v, ov) in row.iter_mut().zip(orow) {
                *v += ov;
            }
        }
        Mat34(m)
    }

    fn transform_point(&self, p: [f64; 3]) -> [f64; 3] {
        self.0.map(|row| row[0] * p[0] + row[1] * p[1] + row[2] * p[2] + row[3])
    }
}

fn normalize_quat(q: [f64; 4]) -> [f64; 4] {
    let len = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / len)
}

/// Bounds-checked little-endian reads at arbitrary (possibly unaligned) offsets.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn array<const N: usize>(&self, ofs: usize) -> [u8; N] {
        let slice = self.0.get(ofs..ofs + N).unwrap_or_else(|| {
            panic!("{MRFIXIT}: read of {N} bytes at {ofs} is past the end ({} bytes)", self.0.len())
        });
        slice.try_into().expect("slice has length N")
    }
    fn u8(&self, ofs: usize) -> u8 {
        self.array::<1>(ofs)[0]
    }
    fn u16(&self, ofs: usize) -> u16 {
        u16::from_le_bytes(self.array(ofs))
    }
    fn u32(&self, ofs: usize) -> u32 {
        u32::from_le_bytes(self.array(ofs))
    }
    /// Counts and offsets, widened for indexing.
    fn usize(&self, ofs: usize) -> usize {
        self.u32(ofs) as usize
    }
    fn i32(&self, ofs: usize) -> i32 {
        i32::from_le_bytes(self.array(ofs))
    }
    fn f32(&self, ofs: usize) -> f64 {
        f64::from(f32::from_le_bytes(self.array(ofs)))
    }
    fn f32s<const N: usize>(&self, ofs: usize) -> [f64; N] {
        std::array::from_fn(|i| self.f32(ofs + 4 * i))
    }
    /// A NUL-terminated name from the text section.
    fn text(&self, ofs_text: usize, num_text: usize, name: usize) -> String {
        assert!(name < num_text, "name offset {name} outside the text section ({num_text} bytes)");
        let text = &self.0[ofs_text + name..ofs_text + num_text];
        let end = text.iter().position(|&b| b == 0).expect("text section ends in NUL");
        String::from_utf8_lossy(&text[..end]).into_owned()
    }
}

/// Header fields, in file order after the 16-byte magic.
#[derive(Debug)]
struct Header {
    num_text: usize,
    ofs_text: usize,
    num_vertexarrays: usize,
    num_vertexes: usize,
    ofs_vertexarrays: usize,
    num_joints: usize,
    ofs_joints: usize,
    num_poses: usize,
    ofs_poses: usize,
    num_anims: usize,
    ofs_anims: usize,
    num_frames: usize,
    num_framechannels: usize,
    ofs_frames: usize,
    ofs_bounds: usize,
}

impl Header {
    fn parse(b: &Bytes) -> Header {
        assert_eq!(&b.array::<16>(0), b"INTERQUAKEMODEL\0", "{MRFIXIT}: not an IQM file");
        let field = |i: usize| b.usize(16 + 4 * i);
        assert_eq!(field(0), 2, "{MRFIXIT}: IQM version");
        Header {
            num_text: field(3),
            ofs_text: field(4),
            num_vertexarrays: field(7),
            num_vertexes: field(8),
            ofs_vertexarrays: field(9),
            num_joints: field(13),
            ofs_joints: field(14),
            num_poses: field(15),
            ofs_poses: field(16),
            num_anims: field(17),
            ofs_anims: field(18),
            num_frames: field(19),
            num_framechannels: field(20),
            ofs_frames: field(21),
            ofs_bounds: field(22),
        }
    }
}

/// One stored `iqmbounds` record.
#[derive(Clone, Copy, Debug)]
struct StoredBounds {
    min: [f64; 3],
    max: [f64; 3],
    xyradius: f64,
    radius: f64,
}

#[derive(Debug)]
struct Anim {
    name: String,
    first_frame: usize,
    framerate: f64,
}

/// Everything the demo keeps after loading: bind matrices, baked frames and the skinning inputs.
struct Model {
    joint_names: Vec<String>,
    joint_parents: Vec<i32>,
    /// `baseframe`: model-space bind transforms `B_j`.
    bind: Vec<Mat34>,
    /// `frames`: per frame and pose, `B_parent · P · B_j⁻¹` (roots `P · B_j⁻¹`).
    frames: Vec<Vec<Mat34>>,
    positions: Vec<[f64; 3]>,
    blend_indexes: Vec<[u8; 4]>,
    blend_weights: Vec<[u8; 4]>,
    stored_bounds: Vec<StoredBounds>,
    anims: Vec<Anim>,
    /// Diagonal of the bind-pose position box; tolerances scale with it.
    size: f64,
}

/// Parsed once and shared: every test needs the same reference data.
fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(load_model)
}

fn load_model() -> Model {
    // A missing corpus file must fail loudly: a skipped reference test would look like a passing one.
    let data = std::fs::read(MRFIXIT).unwrap_or_else(|e| {
        panic!("cannot read the reference model {MRFIXIT}: {e} (the corpus lives in ../shared/corpus/iqm)")
    });
    let b = Bytes(&data);
    let h = Header::parse(&b);
    let name = |ofs: usize| b.text(h.ofs_text, h.num_text, b.usize(ofs));

    let (positions, blend_indexes, blend_weights) = read_vertices(&b, &h);

    let mut joint_names = Vec::with_capacity(h.num_joints);
    let mut joint_parents = Vec::with_capacity(h.num_joints);
    let mut bind: Vec<Mat34> = Vec::with_capacity(h.num_joints);
    let mut inverse_bind: Vec<Mat34> = Vec::with_capacity(h.num_joints);
    for i in 0..h.num_joints {
        let ofs = h.ofs_joints + 48 * i;
        let parent = b.i32(ofs + 4);
        let local = Mat34::from_trs(b.f32s(ofs + 8), normalize_quat(b.f32s(ofs + 20)), b.f32s(ofs + 36));
        let (mut world, mut inverse) = (local, local.inverse());
        if parent >= 0 {
            let p = usize::try_from(parent).expect("non-negative parent");
            assert!(p < i, "joint {i}: parent {p} does not precede it");
            world = bind[p].mul(&local);
            inverse = inverse.mul(&inverse_bind[p]);
        }
        joint_names.push(name(ofs));
        joint_parents.push(parent);
        bind.push(world);
        inverse_bind.push(inverse);
    }

    // The demo refuses animations whose pose count differs from the joint count; so does this reference.
    assert_eq!(h.num_poses, h.num_joints, "poses and joints");
    let frames = read_frames(&b, &h, &bind, &inverse_bind);

    let anims = (0..h.num_anims)
        .map(|i| {
            let ofs = h.ofs_anims + 20 * i;
            Anim { name: name(ofs), first_frame: b.usize(ofs + 4), framerate: b.f32(ofs + 12) }
        })
        .collect();

    assert_ne!(h.ofs_bounds, 0, "{MRFIXIT} has no stored bounds");
    let stored_bounds = (0..h.num_frames)
        .map(|f| {
            let ofs = h.ofs_bounds + 32 * f;
            StoredBounds { min: b.f32s(ofs), max: b.f32s(ofs + 12), xyradius: b.f32(ofs + 24), radius: b.f32(ofs + 28) }
        })
        .collect();

    let (lo, hi) = bounding_box(&positions);
    let size = distance(lo, hi);
    assert!(size > 0.0, "degenerate bind-pose bounds");

    Model {
        joint_names,
        joint_parents,
        bind,
        frames,
        positions,
        blend_indexes,
        blend_weights,
        stored_bounds,
        anims,
        size,
    }
}

type VertexData = (Vec<[f64; 3]>, Vec<[u8; 4]>, Vec<[u8; 4]>);

/// Positions and blend data, with the format checks the demo makes (it refuses anything else).
fn read_vertices(b: &Bytes, h: &Header) -> VertexData {
    let n = h.num_vertexes;
    let (mut positions, mut indexes, mut weights) = (None, None, None);
    for i in 0..h.num_vertexarrays {
        let ofs = h.ofs_vertexarrays + 20 * i;
        let (kind, format, size, data) = (b.u32(ofs), b.u32(ofs + 8), b.u32(ofs + 12), b.usize(ofs + 16));
        let bytes4 = |v: usize| -> [u8; 4] { std::array::from_fn(|k| b.u8(data + 4 * v + k)) };
        match kind {
            IQM_POSITION => {
                assert_eq!((format, size), (IQM_FLOAT, 3), "position array format");
                positions = Some((0..n).map(|v| b.f32s(data + 12 * v)).collect());
            }
            IQM_BLENDINDEXES => {
                assert_eq!((format, size), (IQM_UBYTE, 4), "blend index array format");
                indexes = Some((0..n).map(bytes4).collect());
            }
            IQM_BLENDWEIGHTS => {
                assert_eq!((format, size), (IQM_UBYTE, 4), "blend weight array format");
                weights = Some((0..n).map(bytes4).collect());
            }
            _ => {}
        }
    }
    (
        positions.expect("no position array"),
        indexes.expect("no blend index array"),
        weights.expect("no blend weight array"),
    )
}

/// Decodes every frame's channels and bakes them the way the demo's loader does.
fn read_frames(b: &Bytes, h: &Header, bind: &[Mat34], inverse_bind: &[Mat34]) -> Vec<Vec<Mat34>> {
    struct Pose {
        parent: i32,
        mask: u32,
        offset: [f64; 10],
        scale: [f64; 10],
    }
    let poses: Vec<Pose> = (0..h.num_poses)
        .map(|j| {
            let ofs = h.ofs_poses + 88 * j;
            Pose { parent: b.i32(ofs), mask: b.u32(ofs + 4), offset: b.f32s(ofs + 8), scale: b.f32s(ofs + 48) }
        })
        .collect();
    let channels: u32 = poses.iter().map(|p| p.mask.count_ones()).sum();
    assert_eq!(channels as usize, h.num_framechannels, "masked channels vs header");

    let mut cursor = h.ofs_frames;
    (0..h.num_frames)
        .map(|_| {
            poses
                .iter()
                .enumerate()
                .map(|(j, p)| {
                    // The cursor advances only over channels present in the mask.
                    let v: [f64; 10] = std::array::from_fn(|k| {
                        let mut value = p.offset[k];
                        if p.mask & (1 << k) != 0 {
                            value += f64::from(b.u16(cursor)) * p.scale[k];
                            cursor += 2;
                        }
                        value
                    });
                    let local = Mat34::from_trs(
                        [v[0], v[1], v[2]],
                        normalize_quat([v[3], v[4], v[5], v[6]]),
                        [v[7], v[8], v[9]],
                    );
                    // Pre-multiplying the parent's bind transform lets the chain of baked matrices telescope
                    // to `G_j · B_j⁻¹` at animation time (the parent's `B⁻¹ · B` cancels).
                    let baked = local.mul(&inverse_bind[j]);
                    match usize::try_from(p.parent) {
                        Ok(parent) => bind[parent].mul(&baked),
                        Err(_) => baked,
                    }
                })
                .collect()
        })
        .collect()
}

impl Model {
    /// The demo's `animateiqm` matrix part: `outframe` for a global, possibly fractional frame.
    fn animate(&self, curframe: f64) -> Vec<Mat34> {
        let n = self.frames.len();
        let frame1 = curframe.floor();
        let t = curframe - frame1;
        let frame1 = frame1 as usize;
        let (f1, f2) = (&self.frames[frame1 % n], &self.frames[(frame1 + 1) % n]);
        let mut out: Vec<Mat34> = Vec::with_capacity(self.joint_parents.len());
        for (j, &parent) in self.joint_parents.iter().enumerate() {
            let m = f1[j].lerp(&f2[j], t);
            let m = match usize::try_from(parent) {
                Ok(p) => out[p].mul(&m),
                Err(_) => m,
            };
            out.push(m);
        }
        out
    }

    /// Linear blend skinning of the positions. Every non-zero slot counts: the demo stops at the first zero
    /// weight, which would drop later slots if weights were unsorted. Zero slots are skipped rather than
    /// multiplied by zero because their index need not name a real joint.
    fn skin(&self, outframe: &[Mat34]) -> Vec<[f64; 3]> {
        self.positions
            .iter()
            .zip(&self.blend_indexes)
            .zip(&self.blend_weights)
            .map(|((&p, idx), w)| {
                let blended = (0..4)
                    .filter(|&k| w[k] != 0)
                    .map(|k| outframe[usize::from(idx[k])].scaled(f64::from(w[k]) / 255.0))
                    .fold(Mat34([[0.0; 4]; 3]), |a, m| a.add(&m));
                blended.transform_point(p)
            })
            .collect()
    }

    /// Model-space joint transforms `out_j · B_j`, the quantity rigscope reports as `world`.
    fn joint_worlds(&self, outframe: &[Mat34]) -> Vec<Mat34> {
        outframe.iter().zip(&self.bind).map(|(out, bind)| out.mul(bind)).collect()
    }
}

fn bounding_box(points: &[[f64; 3]]) -> ([f64; 3], [f64; 3]) {
    points.iter().fold(([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]), |(lo, hi), p| {
        (std::array::from_fn(|k| lo[k].min(p[k])), std::array::from_fn(|k| hi[k].max(p[k])))
    })
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt()
}

/// Largest per-component difference; the index of the worst pair makes failures actionable.
fn worst_mismatch(got: &[[f64; 3]], want: &[[f64; 3]]) -> (usize, f64) {
    got.iter()
        .zip(want)
        .map(|(g, w)| (0..3).map(|k| (g[k] - w[k]).abs()).fold(0.0, f64::max))
        .enumerate()
        .fold((0, 0.0), |best, (i, e)| if e > best.1 { (i, e) } else { best })
}

fn assert_vec3_close(what: &str, got: [f64; 3], want: [f64; 3], tol: f64) {
    let err = (0..3).map(|k| (got[k] - want[k]).abs()).fold(0.0, f64::max);
    assert!(err <= tol, "{what}: got {got:?}, reference {want:?} (off by {err:.3e}, tolerance {tol:.3e})");
}

/// Runs `rigscope pose` on the reference model and parses its JSON.
fn rigscope_pose(frame: &str) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["pose", MRFIXIT, "--frame", frame, "--vertices"])
        .output()
        .expect("failed to start the rigscope binary");
    assert!(
        output.status.success(),
        "rigscope pose --frame {frame} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("rigscope pose printed invalid JSON ({e}):\n{}", String::from_utf8_lossy(&output.stdout))
    })
}

fn number(v: &Value, what: &str) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{what}: expected a number, got {v}"))
}

fn numbers<const N: usize>(v: &Value, what: &str) -> [f64; N] {
    let arr = v.as_array().unwrap_or_else(|| panic!("{what}: expected an array, got {v}"));
    assert_eq!(arr.len(), N, "{what}: expected {N} numbers");
    std::array::from_fn(|i| number(&arr[i], what))
}

fn json_vertices(pose: &Value) -> Vec<[f64; 3]> {
    let arr = pose["vertices"].as_array().expect("`vertices` array (was --vertices honoured?)");
    arr.iter().enumerate().map(|(i, v)| numbers(v, &format!("vertices[{i}]"))).collect()
}

fn assert_vertices_close(pose: &Value, reference: &[[f64; 3]], tol: f64, frame: &str) {
    let got = json_vertices(pose);
    assert_eq!(got.len(), reference.len(), "vertex count at frame {frame}");
    let (i, err) = worst_mismatch(&got, reference);
    assert!(
        err <= tol,
        "frame {frame}: vertex {i} is {:?}, reference demo {:?} (off by {err:.3e}, tolerance {tol:.3e})",
        got[i],
        reference[i]
    );
}

/// Full comparison at a whole frame, where rigscope's TRS interpolation and the demo's matrix lerp coincide.
fn assert_whole_frame_matches(frame: usize) {
    let m = model();
    let label = frame.to_string();
    let pose = rigscope_pose(&label);
    let tol = 1e-4 * m.size;
    let outframe = m.animate(frame as f64);

    // The file's only anim ("idle") starts at global frame 0, so the global frame is also the anim frame.
    let anim = &m.anims[0];
    assert_eq!(pose["anim"].as_str(), Some(anim.name.as_str()), "anim name");
    assert_eq!(number(&pose["frame"], "frame"), frame as f64, "frame echoed back");
    let time = (frame - anim.first_frame) as f64 / anim.framerate;
    assert!((number(&pose["time"], "time") - time).abs() < 1e-3, "time should be {time}, got {}", pose["time"]);

    let joints = pose["joints"].as_array().expect("`joints` array");
    assert_eq!(joints.len(), m.joint_names.len(), "joint count");
    for (j, (world, json)) in m.joint_worlds(&outframe).iter().zip(joints).enumerate() {
        let name = &m.joint_names[j];
        assert_eq!(json["name"].as_str(), Some(name.as_str()), "joint {j} name");
        assert_eq!(json["parent"].as_i64(), Some(i64::from(m.joint_parents[j])), "joint {j} ({name}) parent");
        let got: [f64; 16] = numbers(&json["world"], &format!("joint {j} ({name}) world"));
        // Column-major 4x4: element (row r, column c) sits at 4c + r. The 3x3 part is unitless (rotation
        // times a scale of about 1 here), the translation is in model units, hence the two tolerances.
        for c in 0..4 {
            let column_tol = if c == 3 { tol } else { 1e-4 };
            for r in 0..3 {
                let (g, w) = (got[4 * c + r], world.0[r][c]);
                assert!(
                    (g - w).abs() <= column_tol,
                    "frame {frame}, joint {j} ({name}): world[{}] (row {r}, column {c}) is {g}, reference {w}",
                    4 * c + r
                );
            }
        }
        assert_eq!([got[3], got[7], got[11], got[15]], [0.0, 0.0, 0.0, 1.0], "joint {j} ({name}): bottom row");
    }

    let reference = m.skin(&outframe);
    assert_vertices_close(&pose, &reference, tol, &label);

    let (lo, hi) = bounding_box(&reference);
    assert_vec3_close("bounds.min", numbers(&pose["bounds"]["min"], "bounds.min"), lo, tol);
    assert_vec3_close("bounds.max", numbers(&pose["bounds"]["max"], "bounds.max"), hi, tol);
}

#[test]
fn pose_frame_50_matches_reference_demo() {
    assert_whole_frame_matches(50);
}

/// The ends of the clip: frame 0 is the first key, frame 100 the last (where the demo's `frame2` wraps to 0
/// but is weighted by zero).
#[test]
fn pose_first_and_last_frames_match_reference_demo() {
    assert_whole_frame_matches(0);
    assert_whole_frame_matches(100);
}

#[test]
fn pose_fractional_frame_close_to_demo() {
    let m = model();
    let pose = rigscope_pose("12.5");
    let got = json_vertices(&pose);
    // Between keys the two methods differ by design: rigscope lerps T and S and slerps R per joint, the demo
    // lerps the baked skin matrices component-wise, which shortens them when a joint turns between keys.
    // Measured on this file the gap is about 1e-4 of the model size at 12.5 (under 1e-3 at 37.5), far above
    // rounding noise, hence the looser tolerance.
    let reference = m.skin(&m.animate(12.5));
    assert_vertices_close(&pose, &reference, 1e-2 * m.size, "12.5");

    // That tolerance alone would accept an unblended key (frames 12 and 13 are only ~4e-3 of the model size
    // away), so also require the result to sit nearer the demo's blend than to either neighbouring key.
    let (_, to_blend) = worst_mismatch(&got, &reference);
    for key in [12.0, 13.0] {
        let (_, to_key) = worst_mismatch(&got, &m.skin(&m.animate(key)));
        assert!(
            to_blend < to_key,
            "frame 12.5 is {to_blend:.3e} from the demo's blend but only {to_key:.3e} from key {key}: \
             not interpolated"
        );
    }
}

/// Validates the reimplementation itself: the converter stored, per frame, the box and radii of the skinned
/// mesh. Matching them for every frame shows the decoding, baking, chaining and skinning above are right, so
/// the rigscope comparisons are against a sound reference.
///
/// They cannot match exactly: the converter (`iqm.cpp` `makebounds`) skinned with its unquantised float
/// weights and poses, while the file holds weights rounded to 1/255 and 16-bit channels. On this file that
/// leaves up to 6e-4 of the model size (frame 26, max y), hence 1e-3 rather than rounding-level tolerance.
#[test]
fn reference_reimplementation_matches_stored_bounds() {
    let m = model();
    let tol = 1e-3 * m.size;
    for (frame, stored) in m.stored_bounds.iter().enumerate() {
        let skinned = m.skin(&m.animate(frame as f64));
        let (lo, hi) = bounding_box(&skinned);
        assert_vec3_close(&format!("frame {frame} bounds min"), lo, stored.min, tol);
        assert_vec3_close(&format!("frame {frame} bounds max"), hi, stored.max, tol);
        // The radii are measured from the model origin, not the box centre.
        let xyradius = skinned.iter().map(|p| p[0].hypot(p[1])).fold(0.0, f64::max);
        let radius = skinned.iter().map(|p| distance(*p, [0.0; 3])).fold(0.0, f64::max);
        assert!((xyradius - stored.xyradius).abs() <= tol, "frame {frame} xyradius {xyradius} vs {stored:?}");
        assert!((radius - stored.radius).abs() <= tol, "frame {frame} radius {radius} vs {stored:?}");
    }
}

/// The demo assumes what this file must provide for the comparison to be meaningful: weights summing to 255
/// and indexes within the skeleton, and one anim covering the whole frame list.
#[test]
fn reference_model_meets_demo_assumptions() {
    let m = model();
    assert_eq!(m.positions.len(), 1861, "vertex count");
    assert_eq!(m.joint_names.len(), 75, "joint count");
    assert_eq!(m.frames.len(), 101, "frame count");
    for (v, (idx, w)) in m.blend_indexes.iter().zip(&m.blend_weights).enumerate() {
        assert_eq!(w.iter().map(|&x| u32::from(x)).sum::<u32>(), 255, "vertex {v} weights {w:?}");
        for k in 0..4 {
            assert!(w[k] == 0 || usize::from(idx[k]) < m.joint_names.len(), "vertex {v} slot {k}: joint {}", idx[k]);
        }
    }
    let [anim] = m.anims.as_slice() else { panic!("expected exactly one anim, got {:?}", m.anims) };
    assert_eq!((anim.name.as_str(), anim.first_frame), ("idle", 0));
    assert_eq!(anim.framerate, 24.0);
}

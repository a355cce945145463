//! `rigscope convert … OUT.glb|OUT.gltf`: every corpus model (with the motions made for it) written as glTF,
//! passed through the Khronos glTF-Validator (tools/gltf-validator, run by Node; installed from its lock file
//! on first use), and posed from the written file by an evaluator here, independent of rigscope's own code,
//! against rigscope's pose of the source: joint world transforms and skinned, morphed vertices at frames of
//! every clip, after the change to glTF's axes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{corpus, corpus_files};
use glam::{Mat4, Quat, Vec3};

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/gltf-export");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `rigscope convert INPUTS… OUT` and returns what it printed on stderr (its notes).
fn convert(inputs: &[&Path], out: &Path, extra: &[&str]) -> String {
    let result = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .arg("convert")
        .args(inputs)
        .arg(out)
        .args(extra)
        .output()
        .expect("run rigscope");
    let stderr = String::from_utf8_lossy(&result.stderr).into_owned();
    assert!(result.status.success(), "convert {inputs:?} {}: {stderr}", out.display());
    stderr
}

/// The validator's findings for one file.
#[derive(Debug, serde::Deserialize)]
struct Report {
    file: String,
    errors: u32,
    messages: Vec<Message>,
}

#[derive(Debug, serde::Deserialize)]
struct Message {
    code: String,
    severity: u32,
    message: String,
    pointer: Option<String>,
}

/// The Khronos glTF-Validator's reports on `files`. Its npm package is installed from the lock file the first
/// time (`npm ci`); without Node the test fails, it never skips.
fn validate(files: &[PathBuf]) -> Vec<Report> {
    let tool = common::npm_tool("gltf-validator", "gltf-validator/package.json");
    let run = Command::new("node")
        .arg(tool.join("validate.mjs"))
        .args(files)
        .output()
        .expect("node is needed to run the glTF validator (apt-get install nodejs)");
    assert!(run.status.success(), "validator: {}", String::from_utf8_lossy(&run.stderr));
    let reports: Vec<Report> =
        String::from_utf8_lossy(&run.stdout).lines().map(|l| serde_json::from_str(l).expect("report JSON")).collect();
    assert_eq!(reports.len(), files.len(), "one report per file");
    reports
}

/// Warnings the validator may give on rigscope's files, with why. Anything else fails the test.
const ALLOWED_WARNINGS: &[&str] = &[];

/// Every corpus model rigscope reads, alone, and with the motions made for it.
fn cases() -> Vec<(String, Vec<PathBuf>)> {
    let mut out = Vec::new();
    let models = [
        corpus_files("iqm", &["iqm", "iqe"]),
        corpus_files("rsm", &["rsm", "rsm2"]),
        corpus_files("mmd", &["pmx", "pmd"]),
    ];
    for model in models.into_iter().flatten() {
        if rigscope::load_path(&model).is_err() {
            continue; // The corpus's malformed files, kept to test errors.
        }
        let stem = model.file_stem().unwrap().to_string_lossy().replace('.', "_");
        out.push((stem, vec![model]));
    }
    for (name, files) in [
        ("guy_with_anim", &["iqm/raylib_guy.iqm", "iqm/raylib_guyanim.iqm"][..]),
        ("miku_dancing", &["mmd/threejs/miku/miku_v2.pmd", "mmd/threejs/vmds/wavefile_v2.vmd"]),
        ("append_bone_motion", &["mmd/yohawing/test_append_bone.pmx", "mmd/yohawing/test_append_bone.vmd"]),
        ("cube_motion", &["mmd/yohawing/test_1bone_cube.pmx", "mmd/yohawing/test_1bone_cube_motion.vmd"]),
        (
            "miku_with_camera",
            &[
                "mmd/threejs/miku/miku_v2.pmd",
                "mmd/threejs/vmds/wavefile_v2.vmd",
                "mmd/threejs/vmds/wavefile_camera.vmd",
            ],
        ),
    ] {
        out.push((name.to_string(), files.iter().map(|f| corpus(f)).collect()));
    }
    // MikuMikuMoving's and MikuMikuDance's other files, as the project writes them, on the model they name.
    let dir = out_dir().join("motions");
    std::fs::create_dir_all(&dir).unwrap();
    let (mvd, vpd) = (dir.join("sample.mvd"), dir.join("sample.vpd"));
    // Tests run in parallel and each writes these files: written whole under another name and renamed, so no
    // test reads a file another is halfway through rewriting.
    let write = |path: &Path, bytes: &[u8]| {
        let id = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
        let tmp = path.with_extension(format!("{id}.partial"));
        std::fs::write(&tmp, bytes).unwrap();
        std::fs::rename(&tmp, path).unwrap();
    };
    write(&mvd, &rigscope::formats::mvd::write::sample_document(rigscope::scene::MvdEncoding::Utf16Le).to_bytes());
    write(&vpd, &rigscope::formats::vpd::write::sample_document().to_bytes());
    // An RSM 2.3 model with UV animation and its texture beside it.
    let rsm = dir.join("uv_scroll.rsm2");
    write(&rsm, &rigscope::formats::rsm::write::sample_document(2, 3).to_bytes());
    let seed = image::RgbaImage::from_fn(8, 8, |x, y| image::Rgba([(x * 32) as u8, (y * 32) as u8, 90, 255]));
    let mut tga = std::io::Cursor::new(Vec::new());
    seed.write_to(&mut tga, image::ImageFormat::Tga).unwrap();
    write(&dir.join("seed.tga"), tga.get_ref());
    out.push(("uv_scroll".to_string(), vec![rsm]));
    let miku = corpus("mmd/threejs/miku/miku_v2.pmd");
    out.push(("miku_mvd".to_string(), vec![miku.clone(), mvd]));
    out.push(("miku_vpd".to_string(), vec![miku, vpd]));
    out
}

#[test]
fn every_corpus_model_exports_to_gltf_that_the_khronos_validator_passes() {
    let dir = out_dir();
    let mut written = Vec::new();
    for (name, inputs) in cases() {
        let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        let out = dir.join(format!("{name}.glb"));
        convert(&refs, &out, &[]);
        written.push(out);
    }
    // The .gltf form: JSON with the buffer and images beside it (Miku's eye texture is a BMP, written as PNG).
    let gltf = dir.join("miku_text.gltf");
    convert(&[&corpus("mmd/threejs/miku/miku_v2.pmd"), &corpus("mmd/threejs/vmds/wavefile_v2.vmd")], &gltf, &[]);
    assert!(dir.join("miku_text.bin").is_file() && dir.join("miku_text_0.png").is_file());
    written.push(gltf);
    assert!(written.len() >= 20, "{} files", written.len());

    let mut failures = Vec::new();
    for r in validate(&written) {
        for m in r
            .messages
            .iter()
            .filter(|m| m.severity == 0 || (m.severity == 1 && !ALLOWED_WARNINGS.contains(&m.code.as_str())))
        {
            failures.push(format!("{}: {} {} at {:?}", r.file, m.code, m.message, m.pointer));
        }
        assert_eq!(r.errors as usize, r.messages.iter().filter(|m| m.severity == 0).count(), "{}", r.file);
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

/// A .glb with its `KHR_animation_pointer` channels (no target node) left out, which the gltf crate can't read.
fn without_pointer_channels(glb: &[u8]) -> Vec<u8> {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    for a in doc.get_mut("animations").and_then(|a| a.as_array_mut()).into_iter().flatten() {
        a["channels"].as_array_mut().unwrap().retain(|c| c["target"].get("node").is_some());
    }
    let mut json = serde_json::to_vec(&doc).unwrap();
    json.resize(json.len().next_multiple_of(4), b' ');
    let rest = &glb[20 + len..];
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((20 + json.len() + rest.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(rest);
    out
}

/// A glTF file evaluated from its JSON and buffer alone: node transforms at a time, and skinned vertices.
struct Evaluated {
    doc: gltf::Document,
    blob: Vec<u8>,
}

impl Evaluated {
    fn open(path: &Path) -> Evaluated {
        let g = gltf::Gltf::from_slice(&without_pointer_channels(&std::fs::read(path).unwrap())).unwrap();
        Evaluated { doc: g.document, blob: g.blob.unwrap_or_default() }
    }

    /// Each node's local transform in `animation` at `time` (the node's own where no channel animates it),
    /// with the morph weights of each node the animation drives.
    fn locals(&self, animation: Option<usize>, time: f32) -> (Vec<Mat4>, Vec<Vec<f32>>) {
        let mut trs: Vec<(Vec3, Quat, Vec3)> = self
            .doc
            .nodes()
            .map(|n| {
                let (t, r, s) = n.transform().decomposed();
                (Vec3::from(t), Quat::from_array(r), Vec3::from(s))
            })
            .collect();
        let mut weights = vec![Vec::new(); trs.len()];
        if let Some(a) = animation.and_then(|a| self.doc.animations().nth(a)) {
            for ch in a.channels() {
                let reader = ch.reader(|_| Some(&self.blob[..]));
                let times: Vec<f32> = reader.read_inputs().unwrap().collect();
                let i = times.partition_point(|&t| t <= time);
                let (k0, k1) = (i.saturating_sub(1), i.min(times.len() - 1));
                let u = if k1 > k0 { ((time - times[k0]) / (times[k1] - times[k0])).clamp(0.0, 1.0) } else { 0.0 };
                let step = ch.sampler().interpolation() == gltf::animation::Interpolation::Step;
                let u = if step { 0.0 } else { u };
                let node = ch.target().node().index();
                use gltf::animation::util::ReadOutputs;
                match reader.read_outputs().unwrap() {
                    ReadOutputs::Translations(v) => {
                        let v: Vec<Vec3> = v.map(Vec3::from).collect();
                        trs[node].0 = v[k0].lerp(v[k1], u);
                    }
                    ReadOutputs::Rotations(v) => {
                        let v: Vec<Quat> = v.into_f32().map(Quat::from_array).collect();
                        trs[node].1 = v[k0].slerp(v[k1], u);
                    }
                    ReadOutputs::Scales(v) => {
                        let v: Vec<Vec3> = v.map(Vec3::from).collect();
                        trs[node].2 = v[k0].lerp(v[k1], u);
                    }
                    ReadOutputs::MorphTargetWeights(v) => {
                        let v: Vec<f32> = v.into_f32().collect();
                        let n = v.len() / times.len();
                        weights[node] = (0..n).map(|t| v[k0 * n + t] + (v[k1 * n + t] - v[k0 * n + t]) * u).collect();
                    }
                }
            }
        }
        (trs.iter().map(|(t, r, s)| Mat4::from_scale_rotation_translation(*s, *r, *t)).collect(), weights)
    }

    /// Each node's world transform from its local ones.
    fn world(&self, locals: &[Mat4]) -> Vec<Mat4> {
        let mut world = vec![Mat4::IDENTITY; locals.len()];
        let mut stack: Vec<(usize, Mat4)> =
            self.doc.default_scene().unwrap().nodes().map(|n| (n.index(), Mat4::IDENTITY)).collect();
        while let Some((i, parent)) = stack.pop() {
            world[i] = parent * locals[i];
            stack.extend(self.doc.nodes().nth(i).unwrap().children().map(|c| (c.index(), world[i])));
        }
        world
    }

    /// Every mesh's vertices, morphed and skinned (or placed by their node), with the source vertex each one is
    /// (the mesh's `extras.rigscope.firstVertex` plus its index).
    fn vertices(&self, world: &[Mat4], weights: &[Vec<f32>]) -> Vec<(usize, Vec3)> {
        let mut out = Vec::new();
        for node in self.doc.nodes() {
            let Some(mesh) = node.mesh() else { continue };
            let extras: serde_json::Value = serde_json::from_str(mesh.extras().as_ref().unwrap().get()).unwrap();
            let first = extras["rigscope"]["firstVertex"].as_u64().unwrap() as usize;
            let palette: Option<Vec<Mat4>> = node.skin().map(|skin| {
                let ibm: Vec<Mat4> = skin
                    .reader(|_| Some(&self.blob[..]))
                    .read_inverse_bind_matrices()
                    .unwrap()
                    .map(|m| Mat4::from_cols_array_2d(&m))
                    .collect();
                skin.joints().zip(ibm).map(|(j, ibm)| world[j.index()] * ibm).collect()
            });
            // Primitives share the mesh's vertices: the first one's attributes are all of them.
            let prim = mesh.primitives().next().unwrap();
            let reader = prim.reader(|_| Some(&self.blob[..]));
            let mut positions: Vec<Vec3> = reader.read_positions().unwrap().map(Vec3::from).collect();
            let w = &weights[node.index()];
            for (target, &wt) in reader.read_morph_targets().zip(w) {
                if let Some(d) = target.0 {
                    positions.iter_mut().zip(d).for_each(|(p, d)| *p += Vec3::from(d) * wt);
                }
            }
            let skinned: Vec<Vec3> = match &palette {
                Some(palette) => {
                    let js = reader.read_joints(0).unwrap().into_u16();
                    let ws = reader.read_weights(0).unwrap().into_f32();
                    positions
                        .iter()
                        .zip(js.zip(ws))
                        .map(|(p, (j, w))| {
                            let m = (0..4).fold(Mat4::ZERO, |m, k| m + palette[j[k] as usize] * w[k]);
                            m.transform_point3(*p)
                        })
                        .collect()
                }
                None => positions.iter().map(|p| world[node.index()].transform_point3(*p)).collect(),
            };
            out.extend(skinned.into_iter().enumerate().map(|(i, p)| (first + i, p)));
        }
        out
    }
}

/// Loads a model with its motions attached, as `convert` does.
fn source(inputs: &[PathBuf]) -> rigscope::scene::Scene {
    let mut scene = rigscope::load_path(&inputs[0]).unwrap();
    for m in &inputs[1..] {
        let anim = rigscope::load_path(m).unwrap();
        rigscope::anim::attach(&mut scene, &anim, "motion").unwrap();
    }
    scene
}

#[test]
fn written_gltf_poses_like_the_source_at_frames_of_every_clip() {
    let dir = out_dir().join("pose");
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for (name, inputs) in cases() {
        let out = dir.join(format!("{name}.glb"));
        let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        convert(&refs, &out, &[]);
        let src = source(&inputs);
        let g = Evaluated::open(&out);
        // glTF's axes from the source's: the same change of basis the viewer shows the model with.
        let basis = src.up.basis();
        let size = rigscope::anim::skinned_bounds(&src.vertices, &[]).map_or(1.0, |b| b.diagonal()).max(1e-3);
        let tolerance = 1e-4 * size;
        let clips: Vec<Option<usize>> = std::iter::once(None).chain((0..src.clips.len()).map(Some)).collect();
        for c in clips {
            let clip = c.map(|c| &src.clips[c]);
            // MMD models with rigid bodies are exported with physics simulated from the clip's start.
            let mut physics = rigscope::physics::Simulation::new(&src, Default::default()).filter(|_| clip.is_some());
            let frames: Vec<f32> = match clip {
                None => vec![0.0],
                Some(clip) => {
                    let last = (clip.frame_count.max(1) - 1) as f32;
                    vec![0.0, (last / 3.0).floor(), (last * 0.71).floor(), last]
                }
            };
            for frame in frames {
                // Without a clip, glTF shows the skeleton's rest pose (no IK chain pulls it anywhere).
                let fps = rigscope::scene::DEFAULT_FPS;
                let pose = match (clip, physics.as_mut()) {
                    (Some(_), Some(sim)) => sim.play_to(&src, &rigscope::anim::PoseInput::at(clip, frame, fps)),
                    (Some(_), None) => rigscope::anim::Pose::of_scene(&src, clip, frame, fps, &[]),
                    (None, _) => rigscope::anim::Pose::bind(&src.skeleton),
                };
                let time = clip.map_or(0.0, |c| frame / c.fps(rigscope::scene::DEFAULT_FPS));
                // Animations by name (a clip that never leaves the bind pose has none).
                let animation = clip.and_then(|c| g.doc.animations().position(|a| a.name() == Some(c.name.as_str())));
                let (locals, weights) = g.locals(animation, time);
                let world = g.world(&locals);
                for (j, w) in pose.world.iter().enumerate() {
                    let want = basis * *w * basis.transpose();
                    for p in [Vec3::ZERO, Vec3::X * size, Vec3::Y * size, Vec3::Z * size] {
                        let (a, b) = (want.transform_point3(p), world[j].transform_point3(p));
                        assert!(
                            a.distance(b) <= tolerance,
                            "{name} clip {c:?} frame {frame} joint {j}: {a} vs {b} (tolerance {tolerance})"
                        );
                    }
                }
                let morphed = rigscope::anim::morphed_vertices(&src, &pose.morphs);
                let want = rigscope::anim::skin_positions(&morphed, &pose.palette);
                for (i, got) in g.vertices(&world, &weights) {
                    let want = basis.transform_point3(want[i]);
                    assert!(
                        want.distance(got) <= tolerance,
                        "{name} clip {c:?} frame {frame} vertex {i}: {want} vs {got} (tolerance {tolerance})"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "{checked} poses checked");
}

/// Front faces are counter-clockwise in glTF: a triangle's winding normal points the way its vertex normals do.
/// The Inter-Quake formats wind the other way and the MMD and RSM2 axes are mirrored, so each needs the
/// winding handled for this to hold.
#[test]
fn written_triangles_wind_counter_clockwise_toward_their_normals() {
    let dir = out_dir().join("winding");
    std::fs::create_dir_all(&dir).unwrap();
    for rel in
        ["iqm/lsalzman_mrfixit.iqm", "iqm/unv_medistat.iqe", "mmd/threejs/miku/miku_v2.pmd", "rsm/multi_node_a.rsm"]
    {
        let out = dir.join(Path::new(rel).file_stem().unwrap()).with_extension("glb");
        convert(&[&corpus(rel)], &out, &[]);
        let g = Evaluated::open(&out);
        let (mut agree, mut total) = (0usize, 0usize);
        for mesh in g.doc.meshes() {
            for prim in mesh.primitives() {
                let reader = prim.reader(|_| Some(&g.blob[..]));
                let p: Vec<Vec3> = reader.read_positions().unwrap().map(Vec3::from).collect();
                let n: Vec<Vec3> = reader.read_normals().unwrap().map(Vec3::from).collect();
                let idx: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
                for t in idx.chunks_exact(3) {
                    let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
                    let face = (p[b] - p[a]).cross(p[c] - p[a]);
                    if face.length() < 1e-9 {
                        continue;
                    }
                    total += 1;
                    agree += usize::from(face.dot(n[a] + n[b] + n[c]) > 0.0);
                }
            }
        }
        assert!(total > 0 && agree * 10 > total * 9, "{rel}: {agree} of {total} triangles wind toward their normals");
    }
}

/// An MMD camera motion becomes a glTF camera whose node follows the motion: at each sampled time the node
/// sits at the eye and looks down its −Z at the target, with +Y toward the camera's up.
#[test]
fn an_mmd_camera_motion_becomes_an_animated_gltf_camera() {
    let inputs = [corpus("mmd/threejs/miku/miku_v2.pmd"), corpus("mmd/threejs/vmds/wavefile_camera.vmd")];
    let out = out_dir().join("camera.glb");
    convert(&[&inputs[0], &inputs[1]], &out, &[]);
    let src = source(&inputs);
    let track = &src.cameras[0];
    let g = Evaluated::open(&out);
    let node = g.doc.nodes().find(|n| n.camera().is_some()).expect("a camera node");
    let camera = node.camera().unwrap();
    let gltf::camera::Projection::Perspective(p) = camera.projection() else { panic!("perspective") };
    let first = track.view_at(0.0).unwrap();
    assert!((p.yfov() - first.fov_y).abs() < 1e-5, "yfov {} vs {}", p.yfov(), first.fov_y);
    let animation = g.doc.animations().position(|a| a.channels().any(|c| c.target().node().index() == node.index()));
    let mut checked = 0;
    for time in [0.0, 10.0, 33.3, 61.0, track.end_time()] {
        let time = (time * 30.0f32).round() / 30.0;
        let (locals, _) = g.locals(animation, time);
        let world = g.world(&locals)[node.index()];
        let want = track.view_at(time).unwrap().in_world();
        let eye = world.transform_point3(Vec3::ZERO);
        let forward = world.transform_vector3(-Vec3::Z).normalize();
        let up = world.transform_vector3(Vec3::Y).normalize();
        let size = (want.eye - want.target).length().max(1.0);
        assert!(eye.distance(want.eye) < 1e-3 * size, "t {time}: eye {eye} vs {}", want.eye);
        assert!(forward.dot((want.target - want.eye).normalize()) > 0.9999, "t {time}: looks along {forward}");
        assert!(up.dot(want.up.normalize()) > 0.999, "t {time}: up {up} vs {}", want.up);
        checked += 1;
    }
    assert_eq!(checked, 5);

    // Read back, it is an animated camera again, seeing what the motion's camera sees.
    let back = rigscope::load_path(&out).unwrap();
    let again =
        back.cameras.iter().find(|c| c.clip.as_deref() == Some(src.clips[0].name.as_str())).expect("the camera");
    for time in [0.0, 10.0, 33.3, 61.0] {
        let time = (time * 30.0f32).round() / 30.0;
        let (a, b) = (track.view_at(time).unwrap(), again.view_at(time).unwrap());
        let dir = |v: &rigscope::scene::CameraView| (v.target - v.eye).normalize();
        assert!(a.eye.distance(b.eye) < 1e-2, "t {time}: eye {} vs {}", a.eye, b.eye);
        assert!(dir(&a).dot(dir(&b)) > 0.9999 && a.up.normalize().dot(b.up.normalize()) > 0.999, "t {time}");
        assert!((a.fov_y - b.fov_y).abs() < 1e-4 || time > 0.0);
    }
}

/// `--bake-fps`: motion glTF can't carry key for key (MMD's curves) is baked at the asked rate, the clip's
/// length kept; it applies to glTF output only.
#[test]
fn bake_fps_sets_the_rate_mmd_motion_is_baked_at() {
    let inputs = [corpus("mmd/yohawing/test_1bone_cube.pmx"), corpus("mmd/yohawing/test_1bone_cube_motion.vmd")];
    let dir = out_dir().join("bake");
    std::fs::create_dir_all(&dir).unwrap();
    let keys = |fps: Option<&str>| {
        let out = dir.join(format!("cube_{}.glb", fps.unwrap_or("own")));
        let extra: Vec<&str> = fps.map(|f| vec!["--bake-fps", f]).unwrap_or_default();
        convert(&[&inputs[0], &inputs[1]], &out, &extra);
        let g = Evaluated::open(&out);
        let a = g.doc.animations().next().expect("the motion");
        let times: Vec<f32> =
            a.channels().next().unwrap().reader(|_| Some(&g.blob[..])).read_inputs().unwrap().collect();
        (times.len(), *times.last().unwrap())
    };
    let (own, own_end) = keys(None);
    let (doubled, end) = keys(Some("60"));
    assert!((own_end - end).abs() < 1e-4, "the clip keeps its length: {own_end} s vs {end} s");
    assert_eq!(doubled - 1, 2 * (own - 1), "twice the keys at 60 fps as at the motion's 30");

    let refused = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["convert"])
        .args(&inputs)
        .arg(dir.join("cube.iqm"))
        .args(["--bake-fps", "60"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "a usage error for IQM output");
}

/// A written file opens again in rigscope (its own glTF reader) and `diff` finds it equal to its source, posed
/// as the viewer poses both (IK, appends and morphs on the source; the baked frames on the glTF), compared in
/// the source's axes, within 1e-4 of the model's size.
#[test]
fn written_gltf_reads_back_equal_to_its_source() {
    let dir = out_dir().join("round-trip");
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for (name, inputs) in cases() {
        let out = dir.join(format!("{name}.glb"));
        let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        // `diff` poses the source without physics: so is the export compared here.
        convert(&refs, &out, &["--no-physics"]);
        let src = source(&inputs);
        let mut back = rigscope::load_path(&out).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.meta.format, rigscope::scene::Format::Gltf);
        rigscope::convert::to_up(&mut back, src.up);
        let size = rigscope::anim::skinned_bounds(&src.vertices, &[]).map_or(1.0, |b| b.diagonal()).max(1.0);
        let options =
            rigscope::report::diff::DiffOptions { tolerance: 1e-4 * size, angle_tolerance: 0.05, ..Default::default() };
        let mut d = rigscope::report::diff::diff(&src, "source", &back, "glTF", &options);
        // Vertices no triangle uses have no place in glTF (the RSM test files' empty nodes): the only change
        // allowed, and only by that many.
        let mut used = vec![false; src.vertices.len()];
        src.triangles.iter().flatten().for_each(|&v| used[v as usize] = true);
        let drawn = used.iter().filter(|u| **u).count();
        let loose = [
            format!("vertices: {} → {drawn}", src.vertices.len()),
            format!(
                "vertices no triangle uses without a counterpart: {} of OLD's, 0 of NEW's",
                src.vertices.len() - drawn
            ),
        ];
        d.changes.retain(|c| !loose.contains(c));
        if !d.equal() {
            failures.push(format!("{name}:\n{}", rigscope::report::diff::text(&d, 10)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// RSM 2.3 UV animation becomes the texture transform of the mesh's own material, animated through
/// `KHR_animation_pointer`: at each key, glTF's `T(offset)·R(rotation)·S(scale)` moves a UV where rigscope's
/// `UvAnimation::matrix` does.
#[test]
fn rsm_uv_animation_becomes_an_animated_texture_transform() {
    let inputs = cases().into_iter().find(|c| c.0 == "uv_scroll").unwrap().1;
    let out = out_dir().join("uv_scroll.glb");
    convert(&[&inputs[0]], &out, &[]);
    let src = source(&inputs);
    let anim = src.meshes.iter().find_map(|m| m.uv_animation.clone()).expect("the sample's UV animation");
    let bytes = std::fs::read(&out).unwrap();
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let used: Vec<&str> = doc["extensionsUsed"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
    assert!(used.contains(&"KHR_texture_transform") && used.contains(&"KHR_animation_pointer"), "{used:?}");
    let g = Evaluated::open(&out);
    let animation = g.doc.animations().next().expect("the clip");
    // The pointer channels, read from the JSON (the gltf crate doesn't know the pointer path).
    let channels = doc["animations"][animation.index()]["channels"].as_array().unwrap();
    let mut fields = std::collections::HashMap::new();
    for c in channels.iter().filter(|c| c["target"]["path"] == "pointer") {
        let pointer = c["target"]["extensions"]["KHR_animation_pointer"]["pointer"].as_str().unwrap();
        let sampler = animation.samplers().nth(c["sampler"].as_u64().unwrap() as usize).unwrap();
        let read = |a: gltf::Accessor| {
            let view = a.view().unwrap();
            let start = view.offset() + a.offset();
            let n = a.count() * a.dimensions().multiplicity();
            (0..n).map(|i| f32::from_le_bytes(g.blob[start + 4 * i..start + 4 * i + 4].try_into().unwrap())).collect()
        };
        let (times, values): (Vec<f32>, Vec<f32>) = (read(sampler.input()), read(sampler.output()));
        fields.insert(pointer.rsplit('/').next().unwrap().to_string(), (times, values));
    }
    assert_eq!(fields.len(), 3, "offset, rotation and scale: {:?}", fields.keys());
    let (times, offsets) = &fields["offset"];
    assert!(times.len() >= 2);
    for (k, &t) in times.iter().enumerate() {
        let (o, r, s) = (
            glam::Vec2::new(offsets[2 * k], offsets[2 * k + 1]),
            fields["rotation"].1[k],
            glam::Vec2::new(fields["scale"].1[2 * k], fields["scale"].1[2 * k + 1]),
        );
        let khr = glam::Affine2::from_translation(o) * glam::Affine2::from_angle(r) * glam::Affine2::from_scale(s);
        let m = anim.matrix(t);
        for uv in [glam::Vec2::ZERO, glam::Vec2::X, glam::Vec2::new(0.3, 0.8)] {
            let want =
                glam::Vec2::new(m[0][0] * uv.x + m[0][1] * uv.y + m[0][2], m[1][0] * uv.x + m[1][1] * uv.y + m[1][2]);
            assert!(
                khr.transform_point2(uv).distance(want) < 1e-5,
                "t {t}: {uv} → {} vs {want}",
                khr.transform_point2(uv)
            );
        }
    }
    assert!(offsets.windows(2).any(|w| w[0] != w[1]) || offsets.len() > 2, "the offset moves");

    // Read back by rigscope, the mesh scrolls its UVs as the source's did.
    let back = rigscope::load_path(&out).unwrap();
    let again = back.meshes.iter().find_map(|m| m.uv_animation.clone()).expect("UV animation read back");
    for t in [0.0, 0.004, 0.01, 0.5] {
        let (a, b) = (anim.matrix(t), again.matrix(t));
        for r in 0..2 {
            for c in 0..3 {
                assert!((a[r][c] - b[r][c]).abs() < 1e-5, "t {t}: {a:?} vs {b:?}");
            }
        }
    }
}

/// Morph targets are sparse accessors whose implicit elements are zero: their min and max count those zeros only
/// when some vertex is left out. A morph moving every vertex of its primitives with all-negative Y deltas, one
/// moving none, and one moving some export with the bounds the Khronos validator computes (it reported
/// ACCESSOR_MAX_MISMATCH on real PMX characters whose morphs moved every vertex).
#[test]
fn sparse_morph_targets_declare_the_bounds_of_what_they_hold() {
    use rigscope::formats::pmx::write::sample_document;
    use rigscope::formats::pmx::{RawMorph, RawOffsets};
    use rigscope::scene::{MmdEncoding, MorphPanel};
    let mut doc = sample_document(MmdEncoding::Utf16Le, 4);
    let n = doc.vertices.len();
    let morph = |name: &str, offsets: Vec<(u32, Vec3)>| RawMorph {
        offset: 0,
        name: name.into(),
        name_en: name.into(),
        panel: MorphPanel::Other,
        offsets: RawOffsets::Vertex(offsets),
    };
    doc.morphs = vec![
        morph(
            "all down",
            (0..n as u32).map(|i| (i, Vec3::new(0.5 - i as f32 * 0.25, -0.01 - i as f32 * 0.1, 0.2))).collect(),
        ),
        morph("none", Vec::new()),
        morph("some", vec![(1, Vec3::new(-0.3, 0.4, 0.0))]),
    ];
    let dir = out_dir().join("sparse");
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("morphs.pmx");
    std::fs::write(&model, doc.to_bytes()).unwrap();
    let out = dir.join("morphs.glb");
    convert(&[&model], &out, &[]);
    let reports = validate(std::slice::from_ref(&out));
    let errors: Vec<String> =
        reports[0].messages.iter().filter(|m| m.severity == 0).map(|m| format!("{} {}", m.code, m.message)).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The accessor of a target that moves every vertex of its primitive: its Y maximum is below zero.
    // The GLB's JSON chunk (the gltf crate refuses an accessor with neither a buffer view nor sparse values,
    // which glTF allows: the target that moves nothing).
    let glb = std::fs::read(&out).unwrap();
    let length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + length]).unwrap();
    let full: Vec<f64> = json["accessors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["sparse"]["count"].as_u64().is_some_and(|c| Some(c) == a["count"].as_u64()))
        .map(|a| a["max"][1].as_f64().unwrap())
        .collect();
    assert!(!full.is_empty() && full.iter().all(|&y| y < 0.0), "{full:?}");
}

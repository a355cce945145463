//! The command line's contract: output shape, frame selection, attachments and exit codes.

mod common;

use std::process::{Command, Output};

use common::corpus;
use serde_json::Value;

fn rigscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope")).args(args).output().expect("run rigscope")
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn path(rel: &str) -> String {
    corpus(rel).display().to_string()
}

#[test]
fn pose_prints_the_documented_shape() {
    let mrfixit = path("iqm/lsalzman_mrfixit.iqm");
    let v = json(&rigscope(&["pose", &mrfixit, "--frame", "12.5", "--vertices"]));
    assert_eq!(v["file"], mrfixit.as_str());
    assert_eq!(v["anim"], "idle");
    assert_eq!(v["frame"], 12.5);
    assert!((v["time"].as_f64().unwrap() - 12.5 / 24.0).abs() < 1e-6);
    let joints = v["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 75);
    assert_eq!(joints[0]["parent"], -1);
    assert_eq!(joints[0]["world"].as_array().unwrap().len(), 16);
    assert_eq!(v["vertices"].as_array().unwrap().len(), 1861);
    let (min, max) = (v["bounds"]["min"].as_array().unwrap(), v["bounds"]["max"].as_array().unwrap());
    for (i, vert) in v["vertices"].as_array().unwrap().iter().enumerate() {
        for k in 0..3 {
            let x = vert[k].as_f64().unwrap();
            assert!(x >= min[k].as_f64().unwrap() && x <= max[k].as_f64().unwrap(), "vertex {i} outside bounds");
        }
    }
    // Without --vertices the key is absent.
    let v = json(&rigscope(&["pose", &mrfixit]));
    assert!(v.get("vertices").is_none());
    assert_eq!(v["frame"], 0.0);
}

#[test]
fn time_and_frame_agree_and_loops_wrap() {
    let guy = path("iqm/raylib_guy.iqm");
    let by_frame = json(&rigscope(&["pose", &guy, "--anim", "dance", "--frame", "24"]));
    let by_time = json(&rigscope(&["pose", &guy, "--anim", "1", "--time", "1.0"]));
    assert_eq!(by_time["anim"], "dance");
    assert_eq!(by_frame["joints"], by_time["joints"]);
    // "dance" does not loop: a time past its end clamps to the last frame.
    let late = json(&rigscope(&["pose", &guy, "--anim", "dance", "--time", "100"]));
    assert_eq!(late["frame"], 60.0);
}

#[test]
fn bind_pose_without_animation() {
    let rifle = path("iqm/redeclipse_rifle.iqm");
    let v = json(&rigscope(&["pose", &rifle]));
    assert_eq!(v["anim"], Value::Null);
    assert_eq!(v["frame"], 0.0);
    assert_eq!(v["joints"].as_array().unwrap().len(), 6);
    let out = rigscope(&["pose", &rifle, "--frame", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no animation"), "{}", stderr(&out));
}

#[test]
fn attached_animation_is_selectable() {
    let guy = path("iqm/raylib_guy.iqm");
    let anim = path("iqm/raylib_guyanim.iqm");
    let own = json(&rigscope(&["pose", &guy, "--anim", "jump", "--frame", "30", "--vertices"]));
    // The attached clips come after the model's own, so index 2 is guyanim's "jump".
    let attached = json(&rigscope(&["pose", &guy, "--attach", &anim, "--anim", "2", "--frame", "30", "--vertices"]));
    assert_eq!(attached["anim"], "jump");
    let (a, b) = (own["vertices"].as_array().unwrap(), attached["vertices"].as_array().unwrap());
    let worst = a
        .iter()
        .zip(b)
        .flat_map(|(p, q)| (0..3).map(move |k| (p[k].as_f64().unwrap() - q[k].as_f64().unwrap()).abs()))
        .fold(0.0, f64::max);
    assert!(worst < 1e-2, "guyanim drives guy like its own clip (worst {worst})");
}

#[test]
fn bad_requests_exit_2_and_bad_files_exit_1() {
    let mrfixit = path("iqm/lsalzman_mrfixit.iqm");
    let out = rigscope(&["pose", &mrfixit, "--anim", "walk"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown animation \"walk\"") && stderr(&out).contains("\"idle\""),
        "{}",
        stderr(&out)
    );
    // Past the end a frame behaves as a time does (issue 15): this clip does not loop, so it holds its last frame.
    let out = rigscope(&["pose", &mrfixit, "--frame", "101"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, rigscope(&["pose", &mrfixit, "--frame", "100"]).stdout);
    let out = rigscope(&["pose", &mrfixit, "--frame", "-1"]);
    assert_eq!(out.status.code(), Some(2));

    let bad = path("iqm/assimp_InvalidMeshOffset.iqm");
    for cmd in ["pose", "info"] {
        let out = rigscope(&[cmd, &bad]);
        assert_eq!(out.status.code(), Some(1));
        let e = stderr(&out);
        assert!(e.contains("assimp_InvalidMeshOffset.iqm @40: meshes") && !e.contains("panicked"), "{e}");
    }
    let out = rigscope(&["info", "/nonexistent/model.iqm"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}

#[test]
fn info_json_describes_the_file() {
    let v = json(&rigscope(&["info", &path("iqm/raylib_guy.iqm"), "--json"]));
    assert_eq!(v["format"], "IQM");
    assert_eq!(v["version"], "2");
    assert_eq!(v["counts"]["vertices"], 240);
    assert_eq!(v["counts"]["joints"], 14);
    let anims = v["animations"].as_array().unwrap();
    assert_eq!(anims.len(), 2);
    assert_eq!(anims[1]["name"], "dance");
    assert_eq!(anims[1]["frames"], 61);
    assert_eq!(anims[1]["frame_rate"], 24.0);
    assert_eq!(anims[1]["loop"], false);
    assert_eq!(v["has_bounds"], true);
    assert_eq!(v["has_adjacency"], true);
    let arrays: Vec<String> = v["vertex_arrays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| format!("{} {} {}", a["kind"].as_str().unwrap(), a["format"].as_str().unwrap(), a["size"]))
        .collect();
    assert!(arrays.contains(&"blendweights ubyte 4".to_string()), "{arrays:?}");

    let v = json(&rigscope(&["info", &path("iqm/redeclipse_player_dead.iqm"), "--json"]));
    assert_eq!(v["animations"][0]["frame_rate_stored"], false);
    let rules: Vec<&str> = v["warnings"].as_array().unwrap().iter().map(|w| w["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"iqm.framerate.zero") && rules.contains(&"iqm.align"), "{rules:?}");
}

#[test]
fn info_text_explains_the_file() {
    let out = rigscope(&["info", &path("iqm/redeclipse_player_dead.iqm")]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("animation only"), "{text}");
    assert!(text.contains("file stores 0; default used"), "{text}");
    assert!(text.contains("poses at 130"), "{text}");
}

/// `rigscope pose` prints exactly `cli::pose_json` (what the window's "Copy pose as JSON" copies) and a newline.
#[test]
fn pose_prints_the_library_json_byte_for_byte() {
    use rigscope::cli::{PoseOptions, pose_json};
    /// File, extra arguments, the clip and frame they select, --vertices.
    type Case<'a> = (&'a str, &'a [&'a str], Option<(usize, f32)>, bool);
    let cases: [Case; 4] = [
        ("iqm/lsalzman_mrfixit.iqm", &["--frame", "12.5", "--vertices"], Some((0, 12.5)), true),
        ("iqm/raylib_guy.iqm", &["--anim", "dance", "--frame", "7.75"], Some((1, 7.75)), false),
        ("iqm/redeclipse_rifle.iqm", &[], None, false),
        ("rsm/multi_node_a.rsm", &[], Some((0, 0.0)), false),
    ];
    for (rel, args, clip_frame, vertices) in cases {
        let file = path(rel);
        let mut all = vec!["pose", file.as_str()];
        all.extend_from_slice(args);
        let out = rigscope(&all);
        assert!(out.status.success(), "{rel}: {}", stderr(&out));
        let scene = rigscope::load_path(std::path::Path::new(&file)).unwrap();
        let clip_frame = clip_frame.filter(|_| !scene.clips.is_empty());
        let options = PoseOptions { vertices, ..PoseOptions::default() };
        let expected = pose_json(&scene, &file, clip_frame, &options).unwrap() + "\n";
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected, "{rel}");
    }
}

/// `info` describes and `check` verifies: past 20 million vertex-frames `info` leaves the stored bounds
/// unverified and says so; `--verify-bounds` verifies them anyway.
#[test]
fn info_skips_the_bounds_check_of_a_large_file_and_says_so() {
    let spec = rigscope::synth::SynthSpec { vertices: 210_000, joints: 8, frames: 100 };
    let scene = rigscope::load_bytes("big.iqm", &rigscope::synth::iqm_bytes(spec)).unwrap();
    // Written through convert, which stores the skinned bounds of every frame.
    let bytes = rigscope::convert::to_iqm(&scene).unwrap().bytes;
    let dir = std::env::temp_dir().join(format!("rigscope-cli-info-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.iqm");
    std::fs::write(&file, bytes).unwrap();
    let f = file.display().to_string();
    let out = rigscope(&["info", &f]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("note: stored bounds not verified: ") && text.contains(" vertices × 100 frames"), "{text}");
    let out = rigscope(&["info", &f, "--verify-bounds"]);
    assert!(out.status.success() && !String::from_utf8_lossy(&out.stdout).contains("not verified"));
    let v = json(&rigscope(&["info", &f, "--json"]));
    assert!(v["notes"][0].as_str().unwrap().contains("not verified"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `info` on a folder describes every file rigscope reads in it, in path order (JSON: an array), and reports
/// the files that fail to load at the end with exit 1, after describing the others.
#[test]
fn info_describes_a_folder_and_names_the_files_that_fail() {
    let dir = corpus("mmd/yohawing/test_1bone_cube.pmx").parent().unwrap().display().to_string();
    let out = rigscope(&["info", &dir, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is a JSON array");
    let files: Vec<&str> = v.as_array().unwrap().iter().map(|o| o["file"].as_str().unwrap()).collect();
    assert_eq!(files.len(), 9, "{files:?}");
    assert!(files.windows(2).all(|w| w[0] < w[1]), "path order: {files:?}");
    assert!(files.iter().all(|f| !f.ends_with("joint_orient_test.pmx")));
    assert!(stderr(&out).contains("joint_orient_test.pmx @683"), "{}", stderr(&out));
    // --include narrows it; a single file named keeps its one-object output.
    let out = rigscope(&["info", &dir, "--include", "**/*.vmd", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
}

/// `rigscope info big.iqm | head`: a reader that closed the pipe ends each printing command quietly, with the
/// status a shell reports for SIGPIPE, not with a panic and a backtrace on stderr.
#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    let mrfixit = path("iqm/lsalzman_mrfixit.iqm");
    let folder = common::corpus_dir().join("iqm").display().to_string();
    let cases: [&[&str]; 5] = [
        &["info", &folder],
        &["info", &mrfixit, "--json"],
        &["pose", &mrfixit, "--vertices"],
        &["diff", &mrfixit, &mrfixit],
        &["check", &folder, "--format", "json"],
    ];
    for args in cases {
        // The reading end is closed before the process starts, so its first write fails, every run.
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_rigscope"))
            .args(args)
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("run rigscope");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

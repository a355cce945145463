//! `rigscope diff`: an IQM against its IQE conversion is equal; a re-export that moved one joint at one frame
//! names that joint and frame; JSON lists it; exit codes 0 (equal), 1 (different), 2 (a file that can't load).

mod common;

use std::process::{Command, Output};

use common::corpus;
use rigscope::scene::ClipData;

fn rigscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope")).args(args).output().expect("run rigscope")
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rigscope-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn an_iqm_equals_its_iqe_and_a_moved_joint_is_named_with_its_frame() {
    let mrfixit = corpus("iqm/lsalzman_mrfixit.iqm");
    let m = mrfixit.display().to_string();
    let iqe = temp("mrfixit.iqe");
    assert!(rigscope(&["convert", &m, &iqe.display().to_string()]).status.success());
    let out = rigscope(&["diff", &m, &iqe.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("equal within the tolerance"));

    // A "re-export" whose left hand is 2 units off at frame 40 only.
    let mut scene = rigscope::load_path(&mrfixit).unwrap();
    let hand = scene.skeleton.find("Hand.L").expect("mrfixit has a left hand");
    let joints = scene.skeleton.len();
    let ClipData::Sampled { frames, .. } = &mut scene.clips[0].data else { panic!("IQM clips are sampled") };
    frames[40 * joints + hand].translation.x += 2.0;
    let moved = temp("moved.iqm");
    std::fs::write(&moved, rigscope::convert::to_iqm(&scene).unwrap().bytes).unwrap();
    let moved = moved.display().to_string();
    // IQM stores channels quantised: a re-encoded file differs everywhere by a little, so the tolerance is loose.
    let loose = ["--tolerance", "0.01", "--angle-tolerance", "0.1"];
    let out = rigscope(&[&["diff", &m, &moved][..], &loose[..]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let first = text.lines().find(|l| l.contains("joint \"")).unwrap_or_default();
    assert!(first.contains("joint \"Hand.L\" moved up to 2.0") && first.contains("(frame 40)"), "{text}");

    let out = rigscope(&[&["diff", &m, &moved, "--json"][..], &loose[..]].concat());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let j = &v["joints"][0];
    assert_eq!((j["joint"].as_str(), j["position_frame"].as_u64()), (Some("Hand.L"), Some(40)), "{v}");
    // The writer reorders vertices, so they are not compared one by one (and it says so).
    assert!(v["skipped"][0].as_str().unwrap().contains("reordered"), "{v}");

    let out = rigscope(&["diff", &m, "/no/such/file.iqm"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(iqe.parent().unwrap());
}

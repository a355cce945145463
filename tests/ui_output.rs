//! The window's outputs that the app produces without a GPU, through egui_kittest: "Copy pose as JSON" puts on
//! the clipboard exactly what `rigscope pose` prints for the model, clip and frame shown.

mod common;

use std::path::Path;
use std::process::Command;

use common::corpus;
use egui_kittest::Harness;
use rigscope::app::{Action, App, NoticeKind};
use serde_json::Value;

fn harness(app: App) -> Harness<'static, App> {
    Harness::builder().with_size([1400.0, 1600.0]).allow_missing_glyphs().build_ui_state(
        |ui, app: &mut App| {
            app.show(ui);
        },
        app,
    )
}

/// The texts egui was asked to copy in the harness's last frame.
fn copied(h: &Harness<'_, App>) -> Vec<String> {
    h.output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

/// `rigscope pose FILE --anim A --frame F` as JSON.
fn pose_cli(file: &Path, clip: Option<(usize, f32)>) -> Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rigscope"));
    cmd.arg("pose").arg(file);
    if let Some((c, f)) = clip {
        cmd.args(["--anim", &c.to_string(), "--frame", &f.to_string()]);
    }
    let out = cmd.output().expect("run rigscope");
    assert!(out.status.success(), "rigscope pose: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("pose prints JSON")
}

fn copy_pose_matches_the_cli(file: &Path, set_up: impl FnOnce(&mut App)) -> Value {
    let mut app = App::new();
    app.open_path(file);
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    set_up(&mut app);
    let mut h = harness(app);
    h.step();
    assert!(copied(&h).is_empty(), "nothing is copied before CopyPose");
    h.state_mut().apply(Action::CopyPose);
    h.step();
    let texts = copied(&h);
    assert_eq!(texts.len(), 1, "one copy command: {texts:?}");
    let from_window: Value = serde_json::from_str(&texts[0]).expect("the copied text is JSON");
    let shown = h.state().current_clip_frame();
    assert_eq!(from_window, pose_cli(file, shown), "{}: the copied pose differs from `rigscope pose`", file.display());
    // The copy goes out once; the next frame copies nothing.
    h.step();
    assert!(copied(&h).is_empty());
    let joints = from_window["joints"].as_array().unwrap().len();
    let notice = h.state().notices().last().expect("a notice");
    assert_eq!(notice.kind, NoticeKind::Info);
    assert_eq!(notice.message, format!("Pose copied ({joints} joints)"));
    from_window
}

#[test]
fn copy_pose_copies_what_pose_prints_at_the_frame_shown() {
    let mrfixit = corpus("iqm/lsalzman_mrfixit.iqm");
    let v = copy_pose_matches_the_cli(&mrfixit, |app| app.apply(Action::SetFrame(12.5)));
    assert_eq!(v["anim"], "idle");
    assert!((v["frame"].as_f64().unwrap() - 12.5).abs() < 1e-3, "frame {}", v["frame"]);
    assert_eq!(v["joints"].as_array().unwrap().len(), 75);

    // Another clip (fractional frame) of a model with two.
    let guy = corpus("iqm/raylib_guy.iqm");
    let v = copy_pose_matches_the_cli(&guy, |app| {
        app.apply(Action::SelectClip(1));
        app.apply(Action::SetFrame(17.25));
    });
    assert_eq!(v["anim"], "dance");

    // An RSM lists its nodes in file order.
    let rsm = corpus("rsm/multi_node_a.rsm");
    copy_pose_matches_the_cli(&rsm, |_| {});

    // No animation: the bind pose.
    let rifle = corpus("iqm/redeclipse_rifle.iqm");
    let v = copy_pose_matches_the_cli(&rifle, |_| {});
    assert_eq!(v["anim"], Value::Null);
}

#[test]
fn copy_pose_without_a_model_does_nothing() {
    let mut h = harness(App::new());
    h.step();
    h.state_mut().apply(Action::CopyPose);
    assert!(h.state().pending_copy().is_none());
    h.step();
    assert!(copied(&h).is_empty());
    assert!(h.state().notices().is_empty());
}

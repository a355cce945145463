//! `check`'s motion detectors (`src/check/motion.rs`) on files with one planted defect each, written here as
//! IQE text or with rigscope's own VMD and RSM writers: each defect is found at exactly its joint and frame,
//! and a smooth twin of each file gives no motion finding at all. The corpus dances give none either.

mod common;

use std::f32::consts::PI;
use std::fmt::Write as _;

use common::{corpus, read};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::{Quat, Vec3};
use rigscope::app::{App, Settings};
use rigscope::check::{Finding, check_bytes};
use rigscope::formats::rsm::write::{Face, Node, RsmDocument};
use rigscope::formats::vmd::write::{BoneKey, VmdDocument};

/// The motion rules, and only those: the files below have no texture and other findings that aren't at issue.
fn motion(findings: Vec<Finding>) -> Vec<Finding> {
    findings.into_iter().filter(|f| f.rule.starts_with("anim.")).collect()
}

/// Where a finding is: (rule, joint, clip, frame).
type At<'a> = (&'a str, Option<usize>, Option<usize>, Option<u32>);

fn places(findings: &[Finding]) -> Vec<At<'_>> {
    findings.iter().map(|f| (f.rule.as_str(), f.place.joint, f.place.clip, f.place.frame)).collect()
}

/// An IQE of a three-joint chain (root, upper, lower; each one unit above its parent) with a triangle bound
/// to each joint, and one animation of `frames.len()` frames, `frames[f][j]` joint j's local rotation and
/// translation at frame f (scale 1).
fn iqe(frames: &[[(Vec3, Quat); 3]], looping: bool) -> Vec<u8> {
    let mut s = String::from("# Inter-Quake Export\n");
    for (name, parent) in [("root", -1), ("upper", 0), ("lower", 1)] {
        writeln!(s, "joint \"{name}\" {parent}").unwrap();
    }
    let pq = |s: &mut String, t: Vec3, q: Quat| {
        writeln!(s, "pq {} {} {} {} {} {} {}", t.x, t.y, t.z, q.x, q.y, q.z, q.w).unwrap();
    };
    pq(&mut s, Vec3::ZERO, Quat::IDENTITY);
    pq(&mut s, Vec3::Y, Quat::IDENTITY);
    pq(&mut s, Vec3::Y, Quat::IDENTITY);
    s.push_str("mesh \"m\"\nmaterial \"m\"\n");
    for j in 0..3 {
        let y = j as f32;
        for p in [[-0.2, y, 0.0], [0.2, y, 0.0], [0.0, y + 0.8, 0.1]] {
            writeln!(s, "vp {} {} {}\nvb {j} 1", p[0], p[1], p[2]).unwrap();
        }
    }
    s.push_str("fm 0 1 2\nfm 3 4 5\nfm 6 7 8\n");
    s.push_str("animation \"wave\"\nframerate 30\n");
    if looping {
        s.push_str("loop\n");
    }
    for frame in frames {
        s.push_str("frame\n");
        for &(t, q) in frame {
            pq(&mut s, t, q);
        }
    }
    s.into_bytes()
}

const FRAMES: usize = 60;

/// Smooth motion, one full period over the clip's 60 frames (so it loops): the root sways 30° about Y, the
/// upper joint swings fast (80° three times over, up to 25° a frame), the lower one bends 45° about X.
fn smooth() -> Vec<[(Vec3, Quat); 3]> {
    (0..FRAMES)
        .map(|f| {
            let phase = 2.0 * PI * f as f32 / FRAMES as f32;
            [
                (Vec3::ZERO, Quat::from_rotation_y(30f32.to_radians() * phase.sin())),
                (Vec3::Y, Quat::from_rotation_z(80f32.to_radians() * (3.0 * phase).sin())),
                (Vec3::Y, Quat::from_rotation_x(45f32.to_radians() * (0.5 - 0.5 * phase.cos()))),
            ]
        })
        .collect()
}

fn check_iqe(name: &str, frames: &[[(Vec3, Quat); 3]], looping: bool) -> Vec<Finding> {
    motion(check_bytes(name, &iqe(frames, looping)))
}

#[test]
fn the_smooth_twin_has_no_motion_finding() {
    assert_eq!(check_iqe("smooth.iqe", &smooth(), true), vec![]);
    assert_eq!(check_iqe("smooth.iqe", &smooth(), false), vec![]);
}

#[test]
fn a_one_frame_pop_is_found_at_its_joint_and_frame() {
    let mut frames = smooth();
    frames[37][2].1 *= Quat::from_rotation_x(40f32.to_radians());
    let found = check_iqe("pop.iqe", &frames, true);
    assert_eq!(places(&found), [("anim.pop", Some(2), Some(0), Some(37))], "{found:#?}");
    // 40° on top of the smooth bend: 38.5° from the neighbouring frames' mean pose.
    let m = &found[0].message;
    assert!(m.contains("\"lower\"") && m.contains("for 1 frame:") && m.contains("turns 38."), "{m}");
}

/// The window's app (through egui_kittest) showing the smooth clip with a 40° pop of joint 2 at frame 37,
/// paused on frame 0, with `selected` selected.
fn pop_in_the_window(selected: Option<usize>) -> Harness<'static, App> {
    let mut frames = smooth();
    frames[37][2].1 *= Quat::from_rotation_x(40f32.to_radians());
    let mut app = App::new();
    app.apply_settings(&Settings { play_on_open: false, ..Settings::default() });
    app.open_bytes("pop.iqe", &iqe(&frames, true));
    app.apply(rigscope::app::Action::SelectJoint(selected));
    let mut h = Harness::builder().with_size([1400.0, 1200.0]).build_ui_state(
        |ui, app: &mut App| {
            app.show(ui);
        },
        app,
    );
    h.run();
    h
}

#[test]
fn the_timeline_marks_the_pop_and_a_click_on_it_goes_to_its_joint_and_frame() {
    let mut h = pop_in_the_window(None);
    assert_eq!(h.state().current_clip_frame(), Some((0, 0.0)));
    assert_eq!(h.state().selected_joint(), None);
    h.get_by_label("anim.pop at frame 37").click();
    h.run();
    assert_eq!(h.state().current_clip_frame(), Some((0, 37.0)), "the playhead on the pop");
    assert_eq!(h.state().selected_joint(), Some(2), "its joint selected");
    assert!(!h.state().player().playing);
}

/// The Curves tab plots the selected joint with the pop marked on it by name (in the plot's legend), and its
/// checkboxes choose the channel groups.
#[test]
fn the_curves_tab_marks_the_pop_on_the_selected_joints_curves() {
    let mut h = pop_in_the_window(Some(2));
    assert!(h.query_by_label("Curves: \"lower\"").is_none(), "the Keys tab first");
    h.get_by_label("Curves").click();
    h.run();
    h.get_by_label("Curves: \"lower\"");
    // The legend lists each curve and the finding's line.
    for name in ["rotation x (°)", "translation y", "now"] {
        assert!(h.query_by_label(name).is_some(), "{name} in the legend");
    }
    let pop = h.query_all_by_label("anim.pop at frame 37").count();
    assert_eq!(pop, 1, "the curves' line (the Keys tab's problem row is behind its tab)");
    assert!(h.query_by_label("rotation qw").is_none(), "quaternions off by default");
    h.get_by_label("Quaternion").click();
    h.run();
    assert!(h.query_by_label("rotation qw").is_some(), "quaternions on");
    // The curve is the joint as played: the pop's 40° about X on top of the bend, at frame 37 and not around it.
    let doc = h.state().document().unwrap();
    let curve = doc.joint_curve(0, 2);
    assert_eq!(curve.len(), FRAMES + 1, "frames 0 to 60, the wrap included");
    let turn = |a: usize, b: usize| rigscope::check::motion::turn_degrees(curve[a].rotation, curve[b].rotation);
    assert!(turn(36, 37) > 35.0 && turn(37, 38) > 35.0 && turn(36, 38) < 5.0);
    assert!(turn(FRAMES, 0) < 1e-3, "a looping clip's last shown frame is its first again");
}

#[test]
fn a_translation_pop_of_a_few_frames_is_found_where_it_starts() {
    let mut frames = smooth();
    for frame in &mut frames[20..22] {
        frame[0].0 += Vec3::new(0.3, 0.0, 0.0);
    }
    let found = check_iqe("jump.iqe", &frames, true);
    assert_eq!(places(&found), [("anim.pop", Some(0), Some(0), Some(20))], "{found:#?}");
    assert!(found[0].message.contains("for 2 frames"), "{}", found[0].message);
}

#[test]
fn stored_signs_alone_are_no_finding_in_a_per_frame_format() {
    // The IQM demo blends matrices between frames, ioq3 and rigscope slerp the short way: a negated
    // quaternion is the same rotation there.
    let mut frames = smooth();
    for frame in frames.iter_mut().skip(1).step_by(2) {
        frame[1].1 = -frame[1].1;
    }
    assert_eq!(check_iqe("signs.iqe", &frames, true), vec![]);
}

#[test]
fn a_near_half_turn_between_frames_is_a_flip() {
    let mut frames = smooth();
    for frame in &mut frames[30..] {
        frame[2].1 = Quat::from_rotation_x(175f32.to_radians()) * frame[2].1;
    }
    let found = check_iqe("flip.iqe", &frames, false);
    let flips: Vec<_> = found.iter().filter(|f| f.rule == "anim.rotation.flip").collect();
    assert_eq!(flips.len(), 1, "{found:#?}");
    assert_eq!((flips[0].place.joint, flips[0].place.frame), (Some(2), Some(29)), "the turn from frame 29 to 30");
}

#[test]
fn a_loop_seam_is_found_and_a_clip_that_does_not_loop_has_none() {
    // The root walks on: a looping clip that ends a body length from where it starts.
    let mut frames = smooth();
    for (f, frame) in frames.iter_mut().enumerate() {
        frame[0].0 = Vec3::new(f as f32 / FRAMES as f32 * 2.0, 0.0, 0.0);
    }
    let found = check_iqe("seam.iqe", &frames, true);
    assert_eq!(places(&found), [("anim.loop.seam", Some(0), Some(0), Some(FRAMES as u32 - 1))], "{found:#?}");
    assert!(found[0].message.contains("\"root\""), "{}", found[0].message);
    assert_eq!(check_iqe("seam.iqe", &frames, false), vec![], "the same clip, not marked looping");
}

#[test]
fn a_clip_that_holds_one_pose_is_still() {
    let frames = vec![smooth()[10]; FRAMES];
    let found = check_iqe("still.iqe", &frames, true);
    assert_eq!(places(&found), [("anim.clip.still", None, Some(0), None)], "{found:#?}");
}

/// A VMD turning bone "head" about Y by `turns` degrees from frame 0 to 10, then 60° on to frame 20.
fn vmd_turning(turns: f32) -> Vec<u8> {
    let mut doc = VmdDocument::new("model");
    let q = |deg: f32| Quat::from_rotation_y(deg.to_radians()).to_array();
    doc.bones = vec![
        BoneKey::new("head", 0, [0.0; 3], q(0.0)),
        BoneKey::new("head", 10, [0.0; 3], q(turns)),
        BoneKey::new("head", 20, [0.0; 3], q(turns + 60.0)),
    ];
    doc.to_bytes()
}

#[test]
fn a_175_degree_turn_between_two_keys_is_found_at_the_first() {
    let bytes = vmd_turning(175.0);
    let scene = rigscope::formats::load_bytes("turn.vmd", &bytes).unwrap();
    let head = scene.skeleton.find("head").expect("the motion's bone");
    let found = motion(check_bytes("turn.vmd", &bytes));
    assert_eq!(places(&found), [("anim.rotation.flip", Some(head), Some(0), Some(0))], "{found:#?}");
    assert!(found[0].message.contains("175.0°"), "{}", found[0].message);
    assert_eq!(motion(check_bytes("turn.vmd", &vmd_turning(90.0))), vec![], "90° a key");
}

/// RSM2 at 10 fps: root "r" turns about Z to 60° at frame 10 and back at 20, each key stored with `signs`.
fn rsm_turning(signs: [f32; 3]) -> Vec<u8> {
    let mut d = RsmDocument::new(2, 3);
    d.anim_len = 20;
    d.fps = 10.0;
    d.roots = vec![b"r".to_vec()];
    let mut r = Node::new("r", "");
    r.texture_names = vec![b"a.tga".to_vec()];
    r.vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    r.tex_vertices = vec![(0, [0.0, 0.0]), (0, [1.0, 0.0]), (0, [0.0, 1.0])];
    r.faces = vec![Face::new([0, 1, 2], [0, 1, 2])];
    r.rot_keys = [0.0f32, 60.0, 0.0]
        .iter()
        .zip(signs)
        .enumerate()
        .map(|(k, (deg, sign))| ((k * 10) as i32, (Quat::from_rotation_z(deg.to_radians()) * sign).to_array()))
        .collect();
    d.nodes = vec![r];
    d.to_bytes()
}

#[test]
fn opposite_hemispheres_are_found_where_the_formats_players_blend_components() {
    // korangar's nlerp and BrowEdit3's mix turn 300° from the first key to the negated second.
    let found = motion(check_bytes("flip.rsm2", &rsm_turning([1.0, -1.0, -1.0])));
    // Keys 2 and 3 (−60°, −0°) agree with each other.
    assert_eq!(places(&found), [("anim.rotation.hemisphere", Some(0), Some(0), Some(0))], "{found:#?}");
    assert!(found[0].message.contains("300.0°"), "{}", found[0].message);
    assert_eq!(motion(check_bytes("flip.rsm2", &rsm_turning([1.0; 3]))), vec![], "the same turns, signs agreeing");
}

#[test]
fn the_corpus_dances_have_no_motion_finding() {
    for rel in ["mmd/threejs/vmds/wavefile_v2.vmd", "iqm/lsalzman_mrfixit.iqm", "iqm/raylib_guyanim.iqm"] {
        let p = corpus(rel);
        let found = motion(check_bytes(rel, &read(&p)));
        assert_eq!(found, vec![], "{rel}");
    }
}

/// `check MOTION --model MODEL --format json`'s findings of the motion rules.
fn check_on_model(motion: &std::path::Path, model: &std::path::Path) -> Vec<serde_json::Value> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .arg("check")
        .arg(motion)
        .arg("--model")
        .arg(model)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let all: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("check's JSON");
    all.into_iter().filter(|f| f["rule"].as_str().is_some_and(|r| r.starts_with("anim."))).collect()
}

#[test]
fn with_a_model_a_motion_is_checked_on_the_models_joints() {
    let model = corpus("mmd/threejs/miku/miku_v2.pmd");
    let scene = rigscope::load_path(&model).unwrap();
    assert_eq!(check_on_model(&corpus("mmd/threejs/vmds/wavefile_v2.vmd"), &model), Vec::<serde_json::Value>::new());
    // A left arm keyed still but for one frame turned 50°: found at the model's own index of 左腕.
    let mut doc = VmdDocument::new("model");
    let q = |deg: f32| Quat::from_rotation_z(deg.to_radians()).to_array();
    doc.bones = [(0, 0.0), (19, 0.0), (20, 50.0), (21, 0.0), (40, 0.0)]
        .iter()
        .map(|&(frame, deg)| BoneKey::new("左腕", frame, [0.0; 3], q(deg)))
        .collect();
    let dir = std::env::temp_dir().join(format!("rigscope-motion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vmd = dir.join("pop.vmd");
    std::fs::write(&vmd, doc.to_bytes()).unwrap();
    let found = check_on_model(&vmd, &model);
    let arm = scene.skeleton.find("左腕").unwrap();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        (found[0]["rule"].as_str(), found[0]["place"]["joint"].as_u64(), found[0]["place"]["frame"].as_u64()),
        (Some("anim.pop"), Some(arm as u64), Some(20))
    );
    std::fs::remove_dir_all(&dir).ok();
}

//! One way to pose a frame (issue 34): the window's documents, `pose`, `render`, `thumbnail`, contact sheets,
//! recordings and `convert`'s bakes pose through `physics::pose_frame` (or `frame_pose`, the same into a new
//! pose). The corpus character dancing its motion is posed by the entry point in each way those callers use it
//! (playback with overrides, from the clip's start, with and without physics), and every palette must equal, bit
//! for bit, the one the primitive they used to call by hand gives (`Simulation::pose`, `Simulation::play_to`,
//! `Pose::update_scene_with`); the window's document and the `pose` command are then checked end to end against
//! the entry point. The GPU callers (`render`, sheets, recordings, thumbnails) are covered by their own golden
//! and output tests.

use std::path::Path;
use std::process::Command;

use glam::Mat4;
use rigscope::anim::{Pose, PoseInput};
use rigscope::app::{Action, App};
use rigscope::physics::{PhysicsSettings, Seek, Simulation, frame_pose, pose_frame};
use rigscope::scene::Scene;

mod common;
use common::corpus;

const MIKU: &str = "mmd/threejs/miku/miku_v2.pmd";
const DANCE: &str = "mmd/threejs/vmds/wavefile_v2.vmd";
const FPS: f32 = rigscope::scene::DEFAULT_FPS;

/// Frames as a user scrubs them: forward steps, a half frame, a step back inside the snapshot's second, a jump
/// back past it, a jump forward over the reset limit, and frame 0 again (a reset).
const SCRUB: [f32; 12] = [0.0, 1.0, 2.0, 2.5, 3.0, 40.0, 38.0, 10.0, 11.0, 200.0, 201.0, 0.0];

fn dance() -> Scene {
    let mut scene = rigscope::formats::load_path(&corpus(MIKU)).unwrap();
    let motion = corpus(DANCE);
    let anim = rigscope::formats::load_path(&motion).unwrap();
    rigscope::anim::attach(&mut scene, &anim, &motion.display().to_string()).unwrap();
    assert!(scene.mmd.as_ref().is_some_and(|m| !m.rigid_bodies.is_empty()), "the character has rigid bodies");
    scene
}

fn assert_same(got: &[Mat4], want: &[Mat4], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: palette length");
    let differ = got.iter().zip(want).filter(|(a, b)| a.to_cols_array() != b.to_cols_array()).count();
    assert_eq!(differ, 0, "{what}: {differ} of {} matrices differ", want.len());
}

/// The window's playback and `pose --physics` (`Seek::Held`), with morph and IK overrides as the window's
/// sliders and IK section hold them, with and without physics.
#[test]
fn playback_poses_equal_the_simulation_and_the_motion_alone() {
    let scene = dance();
    let clip = &scene.clips[0];
    let overrides: Vec<Option<f32>> = (0..scene.morphs.len()).map(|i| (i % 7 == 0).then_some(0.5)).collect();
    let ik: Vec<Option<bool>> = (0..scene.constraints.ik.len()).map(|c| (c == 0).then_some(false)).collect();
    let settings = PhysicsSettings::default();
    let (mut old, mut new) = (Simulation::new(&scene, settings).unwrap(), Simulation::new(&scene, settings).unwrap());
    let mut shown = Pose::default();
    for f in SCRUB {
        let input = PoseInput::at(Some(clip), f, FPS).with_overrides(&overrides).with_ik(&ik);
        let want = old.pose(&scene, &input);
        let clip_morphs = pose_frame(&scene, Some(&mut new), &input, Seek::Held, &mut shown);
        assert_same(&shown.palette, &want.palette, &format!("physics, frame {f}"));
        assert_eq!(shown.morphs, want.morphs, "frame {f}: morph weights");
        assert_eq!(clip_morphs, rigscope::anim::clip_morph_weights(&scene.morphs, Some(clip), f, FPS));

        let mut alone = Pose::default();
        let want_morphs = alone.update_scene_with(&scene, Some(clip), f, FPS, &overrides, &ik);
        let got_morphs = pose_frame(&scene, None, &input, Seek::Held, &mut shown);
        assert_same(&shown.palette, &alone.palette, &format!("motion alone, frame {f}"));
        assert_eq!(got_morphs, want_morphs, "frame {f}: the clip's morph weights");
    }
}

/// `render`, recordings, contact sheets and glTF bakes (`Seek::FromStart`): each frame as playback from the
/// clip's start shows it, whatever order the frames are asked in.
#[test]
fn poses_from_the_start_equal_play_to() {
    let scene = dance();
    let clip = &scene.clips[0];
    let settings = PhysicsSettings::default();
    let (mut old, mut new) = (Simulation::new(&scene, settings).unwrap(), Simulation::new(&scene, settings).unwrap());
    for f in [0.0, 45.0, 90.0, 30.0, 150.0] {
        let input = PoseInput::at(Some(clip), f, FPS);
        let want = old.play_to(&scene, &input);
        let got = frame_pose(&scene, Some(&mut new), &input, Seek::FromStart);
        assert_same(&got.palette, &want.palette, &format!("from the start, frame {f}"));
        let alone = Pose::of_scene(&scene, Some(clip), f, FPS, &[]);
        assert_same(&frame_pose(&scene, None, &input, Seek::FromStart).palette, &alone.palette, "motion alone");
    }
}

/// The window's document: opened with its motion, scrubbed with Action::SetFrame, physics on (the default), its
/// pose equals the simulation's reached the same way.
#[test]
fn the_window_document_poses_as_the_simulation_does() {
    let scene = dance();
    let clip = &scene.clips[0];
    let mut app = App::new();
    app.open_path(&corpus(MIKU));
    app.open_path(&corpus(DANCE));
    assert_eq!(app.current_clip_frame(), Some((0, 0.0)), "the dance is attached and shown at frame 0");
    let settings = app.physics_settings().expect("physics is on by default");
    let mut sim = Simulation::new(&scene, settings).unwrap();
    for f in SCRUB {
        app.apply(Action::SetFrame(f));
        let want = frame_pose(&scene, Some(&mut sim), &PoseInput::at(Some(clip), f, FPS), Seek::Held);
        assert_same(&app.pose().palette, &want.palette, &format!("the document at frame {f}"));
    }
}

/// `rigscope pose --physics --frames A..B`: each line's joints are the simulation's world matrices, exactly (JSON
/// prints each float's shortest round-trip form).
#[test]
fn the_pose_command_prints_the_simulated_frames() {
    let scene = dance();
    let clip = &scene.clips[0];
    let model = corpus(MIKU);
    let motion = corpus(DANCE);
    let out = run(&[&model, Path::new("--attach"), &motion, Path::new("--physics"), Path::new("--frames=0..4")]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "one line per frame");
    let mut sim = Simulation::new(&scene, PhysicsSettings::default()).unwrap();
    let bones = &scene.mmd.as_ref().unwrap().bones;
    for (f, line) in lines.iter().enumerate() {
        let want = frame_pose(&scene, Some(&mut sim), &PoseInput::at(Some(clip), f as f32, FPS), Seek::Held);
        let json: serde_json::Value = serde_json::from_str(line).unwrap();
        let joints = json["joints"].as_array().unwrap();
        assert_eq!(joints.len(), bones.len());
        for (b, j) in bones.iter().zip(joints) {
            let got: Vec<f32> = j["world"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
            assert_eq!(got, want.world[b.joint].to_cols_array(), "frame {f}, bone {}", b.name);
        }
    }
}

fn run(args: &[&Path]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rigscope")).arg("pose").args(args).output().expect("run rigscope");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// One joint sampled alone (`anim::sample_joint`, the Curves tab's and nothing else's) equals that joint of
/// the whole clip sampled (`anim::sample_clip`), bit for bit, for the keyed dance on the character and for a
/// sampled, looping IQM clip, at whole and half frames and across the loop's wrap.
#[test]
fn a_joint_sampled_alone_equals_the_whole_clip_sampled() {
    let mrfixit = rigscope::formats::load_path(&corpus("iqm/lsalzman_mrfixit.iqm")).unwrap();
    for (scene, clip) in [(dance(), 0usize), (mrfixit, 0)] {
        let c = &scene.clips[clip];
        let span = c.frame_span();
        let mut all = vec![rigscope::scene::Transform::IDENTITY; scene.skeleton.len()];
        for frame in [0.0, 1.0, 2.5, span * 0.5, span - 0.5, span] {
            rigscope::anim::sample_clip(&scene.skeleton, c, frame, FPS, &mut all);
            for (j, joint) in scene.skeleton.joints.iter().enumerate() {
                let alone = rigscope::anim::sample_joint(c, j, frame, FPS, joint.bind);
                assert_eq!(alone, all[j], "joint {j} at frame {frame}");
            }
        }
    }
}

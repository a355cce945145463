//! IK as MikuMikuDance's runtimes solve it (issue 37): the corpus dance posed by rigscope's default IK equals
//! babylon-mmd 1.3.0's pose (tools/physics-ref/run.mjs without physics) joint for joint, within 1e-3 of the
//! model's height, at frames spread over the whole dance. babylon-mmd's PMD reader writes MikuMikuDance's fixed
//! knee limit (−180°…−0.5° about X) in degrees where its solver reads radians, which lets its PMD knees bend
//! without limit; the harness is run with the table in radians (`--pmd-knees-radians`), as MikuMikuDance and
//! three.js have it.
//!
//! Why 1e-3 H: the two runtimes (babylon-mmd and three.js) agree on the knees within 0.01–0.3 % H with each other
//! (issue 37's measurement); a solver that stops a foot where theirs do is within a few 1e-4 H of both, while the
//! closed-form leg finish (`IkFinish::PlantFeet`) moved knees 1.2–3 % H.

mod common;

use std::process::Command;

use glam::Vec3;
use rigscope::anim::{IkFinish, Pose, PoseInput};
use rigscope::scene::Scene;

const MIKU: &str = "mmd/threejs/miku/miku_v2.pmd";
const DANCE: &str = "mmd/threejs/vmds/wavefile_v2.vmd";
/// Every this many frames of the dance's 2 810.
const EVERY: u32 = 5;

/// The reference's joint positions (file order) at frames 0, EVERY, 2·EVERY, … up to `last`.
fn reference(model: &std::path::Path, motion: &std::path::Path, last: u32) -> Vec<(u32, Vec<(String, Vec3)>)> {
    let tool = common::npm_tool("physics-ref", "babylon-mmd/package.json");
    let out = Command::new("node")
        .arg(tool.join("run.mjs"))
        .arg(model)
        .arg(motion)
        .args(["--frames", &format!("0..{last}"), "--every", &EVERY.to_string()])
        .args(["--no-physics", "--pmd-as-mmd"])
        .output()
        .expect("node is needed to run the reference (apt-get install nodejs)");
    assert!(out.status.success(), "reference: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("reference JSON");
            let bones = v["bones"].as_array().unwrap().iter().map(|b| {
                let p: Vec<f32> =
                    b["position"].as_array().unwrap().iter().map(|n| n.as_f64().unwrap() as f32).collect();
                (b["name"].as_str().unwrap().to_string(), Vec3::from_slice(&p))
            });
            (v["frame"].as_u64().unwrap() as u32, bones.collect())
        })
        .collect()
}

fn load() -> (Scene, f32) {
    let mut scene = rigscope::formats::load_path(&common::corpus(MIKU)).unwrap();
    let motion = rigscope::formats::load_path(&common::corpus(DANCE)).unwrap();
    rigscope::anim::attach(&mut scene, &motion, DANCE).unwrap();
    let ys = scene.vertices.positions.iter().map(|p| p.y);
    let height = ys.clone().fold(f32::MIN, f32::max) - ys.fold(f32::MAX, f32::min);
    (scene, height)
}

fn posed(scene: &Scene, frame: u32, finish: IkFinish) -> Pose {
    let mut pose = Pose::default();
    pose.update_input(scene, &PoseInput::at(scene.clips.first(), frame as f32, 30.0).with_finish(finish));
    pose
}

#[test]
fn the_dance_poses_as_babylon_mmd_poses_it_joint_for_joint() {
    let (scene, h) = load();
    let last = scene.clips[0].frame_count - 1;
    let frames = reference(&common::corpus(MIKU), &common::corpus(DANCE), last);
    assert_eq!(frames.len() as u32, last / EVERY + 1, "one reference line per sampled frame");
    let knees = ["左ひざ", "右ひざ"].map(|n| scene.skeleton.find(n).unwrap());
    let (mut worst, mut over_1e4, mut n) = ((0.0f32, 0, String::new()), 0, 0);
    let mut planted_knee_moves = 0.0f32;
    let mut by_bone = std::collections::HashMap::new();
    for (frame, bones) in &frames {
        assert_eq!(bones.len(), scene.skeleton.len(), "the reference prints every bone");
        let pose = posed(&scene, *frame, IkFinish::Ccd);
        for (name, theirs) in bones {
            let j = scene.skeleton.find(name).unwrap_or_else(|| panic!("no bone {name}"));
            let d = pose.world[j].w_axis.truncate().distance(*theirs);
            over_1e4 += usize::from(d > 1e-4 * h);
            if d > 1e-3 * h && std::env::var_os("IK_REFERENCE_BY_BONE").is_some() {
                println!("over: frame {frame} {name} {d}");
            }
            let e = by_bone.entry(name.clone()).or_insert((0.0f32, 0));
            if d > e.0 {
                *e = (d, *frame);
            }
            n += 1;
            if d > worst.0 {
                worst = (d, *frame, name.clone());
            }
        }
        let planted = posed(&scene, *frame, IkFinish::PlantFeet);
        for &k in &knees {
            let d = planted.world[k].w_axis.distance(pose.world[k].w_axis);
            planted_knee_moves = planted_knee_moves.max(d);
        }
    }
    if std::env::var_os("IK_REFERENCE_BY_BONE").is_some() {
        let mut by: Vec<_> = by_bone.iter().collect();
        by.sort_by(|a, b| b.1.0.total_cmp(&a.1.0));
        for (name, (d, f)) in by.iter().take(30) {
            println!("{name}: {d} ({:.4} % H) at {f}", 100.0 * d / h);
        }
    }
    let (d, frame, name) = worst;
    println!(
        "{} frames, {n} joint positions: worst {d} ({:.4} % H) at frame {frame}, {name}; {over_1e4} over 1e-4 H; \
         planting the feet moves a knee up to {planted_knee_moves} ({:.2} % H)",
        frames.len(),
        100.0 * d / h,
        100.0 * planted_knee_moves / h
    );
    assert!(d <= 1e-3 * h, "frame {frame}: {name} is {d} from the reference's (H = {h})");
    // The option is about something: where the CCD stops a leg short, planting it moves the knee visibly.
    assert!(planted_knee_moves > 1e-3 * h, "planting the feet moves a knee at most {planted_knee_moves}");
}

//! Pose evaluation for a 100-joint skeleton: sample a clip between two frames (per-joint TRS interpolation),
//! chain world matrices and build the skinning palette. `cargo bench --bench pose_eval`.
//! Baseline in the same run: the bind pose (chaining and palette without sampling).

use criterion::{Criterion, criterion_group, criterion_main};
use rigscope::anim::Pose;
use rigscope::synth::{SynthSpec, iqm_bytes};

fn pose(c: &mut Criterion) {
    let scene =
        rigscope::load_bytes("bench.iqm", &iqm_bytes(SynthSpec { vertices: 512, joints: 100, frames: 60 })).unwrap();
    let clip = &scene.clips[0];
    let mut pose = Pose::default();
    let mut frame = 0.0f32;
    let mut g = c.benchmark_group("pose_eval_100_joints");
    g.bench_function("sample_interpolated", |b| {
        b.iter(|| {
            frame = (frame + 0.37) % 59.0;
            pose.update(&scene.skeleton, clip, std::hint::black_box(frame), 24.0);
        })
    });
    g.bench_function("baseline_chain_only", |b| b.iter(|| pose.evaluate(std::hint::black_box(&scene.skeleton))));
    g.finish();
}

criterion_group!(benches, pose);
criterion_main!(benches);

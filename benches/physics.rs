//! MMD physics: one fixed 1/60 s step of a character-sized rig, and the cost physics adds to a played frame.
//! `cargo bench --bench physics`.
//!
//! - `step_110_bodies`: `physics::fixtures::many_chains(10, 10)` (110 bodies: 100 simulated capsules in ten
//!   hanging chains, half colliding with the other half, ten kinematic spheres; 100 joints), one step.
//! - `step_miku_45_bodies`: the corpus character (45 bodies, 27 joints), one step, posed by the dance.
//! - `frame_with_physics` / `frame_without_physics`: one 30 fps frame of the corpus dance played forward, the
//!   pose as the window computes it with and without physics (same run: the difference is what physics adds).
//! - `spring_step_300_joints_30_colliders`: VRM spring bones (issue 38's figure, under 0.2 ms on one core):
//!   `physics::fixtures::spring_rig(30, 10, 30)`, 30 hair chains of 10 joints each meeting all 30 colliders of
//!   the head, one 1/60 s step.

use criterion::{Criterion, criterion_group, criterion_main};
use rigscope::anim::Pose;
use rigscope::anim::PoseInput;
use rigscope::physics::{PhysicsSettings, Simulation, fixtures};

fn corpus(rel: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus").join(rel)
}

fn physics(c: &mut Criterion) {
    let mut g = c.benchmark_group("physics");
    let chains = rigscope::load_bytes("chains.pmx", &fixtures::many_chains(10, 10).to_bytes()).unwrap();
    let mut sim = Simulation::new(&chains, PhysicsSettings::default()).unwrap();
    assert_eq!(sim.rig().bodies.len(), 110);
    sim.pose(&chains, &PoseInput::at(None, 0.0, 30.0));
    g.bench_function("step_110_bodies", |b| b.iter(|| sim.step_once()));

    let mut miku = rigscope::formats::load_path(&corpus("mmd/threejs/miku/miku_v2.pmd")).unwrap();
    let dance = rigscope::formats::load_path(&corpus("mmd/threejs/vmds/wavefile_v2.vmd")).unwrap();
    rigscope::anim::attach(&mut miku, &dance, "wavefile_v2.vmd").unwrap();
    let clip = &miku.clips[0];
    let mut sim = Simulation::new(&miku, PhysicsSettings::default()).unwrap();
    sim.pose(&miku, &PoseInput::at(Some(clip), 300.0, 30.0));
    g.bench_function("step_miku_45_bodies", |b| b.iter(|| sim.step_once()));

    // Frames 300 onwards, one after another, wrapping before the clip ends (a wrap resets, which is rare).
    let mut frame = 300.0f32;
    g.bench_function("frame_with_physics", |b| {
        b.iter(|| {
            frame = if frame >= 2700.0 { 300.0 } else { frame + 1.0 };
            std::hint::black_box(sim.pose(&miku, &PoseInput::at(Some(clip), frame, 30.0)));
        })
    });
    let mut pose = Pose::default();
    g.bench_function("frame_without_physics", |b| {
        b.iter(|| {
            frame = if frame >= 2700.0 { 300.0 } else { frame + 1.0 };
            pose.update_scene(&miku, Some(clip), std::hint::black_box(frame), 30.0, &[]);
        })
    });

    let rig = fixtures::spring_rig(30, 10, 30);
    let mut springs = rigscope::physics::SpringSim::new(&rig).unwrap();
    let mut pose = Pose::bind(&rig.skeleton);
    springs.reset(&pose);
    g.bench_function("spring_step_300_joints_30_colliders", |b| {
        b.iter(|| springs.step(&rig, std::hint::black_box(&mut pose), 1.0 / 60.0))
    });
    g.finish();
}

criterion_group!(benches, physics);
criterion_main!(benches);

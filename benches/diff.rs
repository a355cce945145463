//! `rigscope diff` on two 100-joint models with a 1000-frame clip each, one joint moved at one frame (issue 16's
//! goal: under 100 ms). Baseline in the same run: evaluating the 2000 poses alone. `cargo bench --bench diff`.
//!
//! Pairing the vertices of two 100 000-vertex meshes by content, the second the first in another order (issue
//! 27's goal: under 50 ms). Baseline in the same run: the index-by-index comparison of the same positions that
//! `diff` makes first (and made alone before).

use criterion::{Criterion, criterion_group, criterion_main};
use rigscope::anim::Pose;
use rigscope::report::diff::{DiffOptions, diff};
use rigscope::report::vertex_match::match_vertices;
use rigscope::scene::ClipData;
use rigscope::synth::{SynthSpec, iqm_bytes};

fn bench(c: &mut Criterion) {
    let old =
        rigscope::load_bytes("a.iqm", &iqm_bytes(SynthSpec { vertices: 512, joints: 100, frames: 1000 })).unwrap();
    let mut new = old.clone();
    let joints = new.skeleton.len();
    let ClipData::Sampled { frames, .. } = &mut new.clips[0].data else { panic!("sampled") };
    frames[500 * joints + 40].translation.x += 1.0;
    let options = DiffOptions::default();
    let d = diff(&old, "a", &new, "b", &options);
    assert_eq!(d.joints[0].position_frame, 500);
    let mut g = c.benchmark_group("diff_100_joints_1000_frames");
    g.sample_size(20);
    g.bench_function("diff", |b| b.iter(|| diff(&old, "a", &new, "b", std::hint::black_box(&options))));
    g.bench_function("baseline_2000_poses", |b| {
        b.iter(|| {
            let mut p = Pose::default();
            for f in 0..1000 {
                p.update(&old.skeleton, &old.clips[0], f as f32, 24.0);
                p.update(&new.skeleton, &new.clips[0], f as f32, 24.0);
            }
            p
        })
    });
    g.finish();
}

fn bench_match(c: &mut Criterion) {
    let old =
        rigscope::load_bytes("a.iqm", &iqm_bytes(SynthSpec { vertices: 100_000, joints: 100, frames: 1 })).unwrap();
    let new = rigscope::synth::shuffled(&old, 1, 0);
    let tolerance = DiffOptions::default().tolerance;
    assert!(old.vertices.len() >= 100_000 && match_vertices(&old, &new, tolerance).complete());
    let mut g = c.benchmark_group("diff_match_100k_vertices");
    g.sample_size(20);
    g.bench_function("match_by_content", |b| b.iter(|| match_vertices(&old, &new, std::hint::black_box(tolerance))));
    g.bench_function("baseline_index_by_index", |b| {
        b.iter(|| {
            let (p, q) = (&old.vertices.positions, &new.vertices.positions);
            p.iter().zip(q).map(|(p, q)| p.distance(*q)).fold(0.0f32, f32::max) <= std::hint::black_box(tolerance)
        })
    });
    g.finish();
}

criterion_group!(benches, bench, bench_match);
criterion_main!(benches);

//! IQE parse throughput and IQE → IQM conversion time on a generated ~50 MB IQE.
//!
//! `cargo bench --bench iqe_convert`. The input is the synthetic skinned model (`rigscope::synth`: a grid of
//! 345 600 vertices, 100 joints, 60 frames) written as IQE by rigscope's own writer, the way exporters write it
//! (positions, UVs, normals, tangents, blend pairs, faces, one animation). `parse` is `load_bytes` (tokenise,
//! validate, build the scene); `convert` adds encoding the IQM (dedup, meshopt cache order, quantisation,
//! bounds from skinning every frame, adjacency). The reference converter comparison is a separate command
//! (BENCHMARKS.md), since it is another program.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rigscope::synth::{SynthSpec, iqm_bytes};

fn input() -> Vec<u8> {
    let model = iqm_bytes(SynthSpec { vertices: 345_600, joints: 100, frames: 60 });
    let scene = rigscope::load_bytes("synth.iqm", &model).expect("synthetic model loads");
    rigscope::convert::to_iqe(&scene).0.into_bytes()
}

fn bench(c: &mut Criterion) {
    let iqe = input();
    let mut g = c.benchmark_group("iqe");
    g.throughput(Throughput::Bytes(iqe.len() as u64));
    g.sample_size(10);
    g.bench_function(format!("parse_{}MB", iqe.len() / 1_000_000), |b| {
        b.iter(|| rigscope::load_bytes("bench.iqe", std::hint::black_box(&iqe)).unwrap())
    });
    g.bench_function("convert_to_iqm", |b| {
        b.iter(|| {
            let scene = rigscope::load_bytes("bench.iqe", std::hint::black_box(&iqe)).unwrap();
            rigscope::convert::to_iqm(&scene).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

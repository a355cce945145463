//! IQM load throughput: parse, validate and build the scene from a generated ~100 MB file.
//!
//! `cargo bench --bench iqm_load`. The figure to read is the throughput in MB/s. Two baselines run beside it:
//! a copy of the bytes into a new allocation (what any loader that keeps the data pays, page faults on fresh
//! memory included) and a copy into memory already touched (the machine's memory bandwidth, the ceiling).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rigscope::synth::{SynthSpec, iqm_bytes};

fn load(c: &mut Criterion) {
    let bytes = iqm_bytes(SynthSpec { vertices: 1_600_000, joints: 100, frames: 100 });
    let mut g = c.benchmark_group("iqm_load");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function(format!("load_{}MB", bytes.len() / 1_000_000), |b| {
        b.iter(|| rigscope::load_bytes("bench.iqm", std::hint::black_box(&bytes)).unwrap())
    });
    g.bench_function("baseline_copy_new_allocation", |b| b.iter(|| std::hint::black_box(&bytes).to_vec()));
    let mut dst = vec![0u8; bytes.len()];
    g.bench_function("baseline_copy_touched_memory", |b| {
        b.iter(|| dst.copy_from_slice(std::hint::black_box(&bytes)));
    });
    g.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);

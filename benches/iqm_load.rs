//! IQM load throughput: parse, validate and build the scene from a generated ~100 MB file.
//!
//! `cargo bench --bench iqm_load`. The figure to read is the throughput in MB/s; the baseline in the same
//! run is a plain copy of the same bytes (`memcpy`), the ceiling any loader that touches every byte has.

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
    g.bench_function("baseline_memcpy", |b| b.iter(|| std::hint::black_box(&bytes).to_vec()));
    g.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);

//! `check`'s motion detectors (issue 36's figure: at most 10 % more time than `check` without them, same run).
//! `cargo bench --bench check`.
//!
//! Over every corpus file rigscope reads: `check_bytes` of each (reading, the stored-bounds skinning, every
//! rule, the detectors included), and the detectors alone on the same files, already loaded. Check without the
//! detectors is the difference, so the detectors' share is `detectors / (check − detectors)`. The same pair
//! on a synthetic 283-joint, 2 800-frame sampled clip (the size of a current PMX character's dance) shows
//! how the detectors scale where the corpus is small.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use rigscope::check::{check_bytes, motion};
use rigscope::scene::Scene;
use rigscope::synth::{SynthSpec, iqm_bytes};

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if rigscope::formats::is_readable_name(&p.display().to_string()) {
            out.push(p);
        }
    }
}

fn pair(c: &mut Criterion, group: &str, files: &[(String, Vec<u8>)]) {
    let scenes: Vec<(String, Scene)> =
        files.iter().filter_map(|(n, b)| Some((n.clone(), rigscope::load_bytes(n, b).ok()?))).collect();
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    g.bench_function("check", |b| {
        b.iter(|| files.iter().map(|(n, bytes)| check_bytes(n, std::hint::black_box(bytes)).len()).sum::<usize>())
    });
    g.bench_function("detectors_alone", |b| {
        b.iter(|| scenes.iter().map(|(n, s)| motion::check(n, std::hint::black_box(s)).len()).sum::<usize>())
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut paths = Vec::new();
    corpus_files(&root, &mut paths);
    assert!(paths.len() > 20, "the corpus beside the project: {}", root.display());
    let files: Vec<(String, Vec<u8>)> =
        paths.iter().map(|p| (p.display().to_string(), std::fs::read(p).unwrap())).collect();
    pair(c, "check_corpus", &files);
    let big = iqm_bytes(SynthSpec { vertices: 2_000, joints: 283, frames: 2_800 });
    pair(c, "check_283_joints_2800_frames", &[("big.iqm".to_string(), big)]);
}

criterion_group!(benches, bench);
criterion_main!(benches);

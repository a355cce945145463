//! Memory: no input makes a reader allocate more than a small multiple of its size. Counts read from a file
//! are checked against the bytes that back them before anything is allocated, so a 1 KB file that claims four
//! billion vertices is refused at once. The heap's peak during each load is measured with dhat's counting
//! allocator, over every corpus and generated file and hundreds of mutations that claim huge counts.
//!
//! One test per file: dhat allows one profiler at a time in a process.

mod common;

use common::mutate::{Rng, inputs, mutate};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// A decoded scene may be larger than its file (IQM frames with few channels decode to 40 bytes per joint and
/// frame, text numbers to f32), but never by more than this, plus a fixed allowance for small files.
const RATIO: usize = 64;
const ALLOWANCE: usize = 4 << 20;

/// Peak heap bytes while loading `data`.
fn peak_while_loading(name: &str, data: &[u8]) -> usize {
    let profiler = dhat::Profiler::builder().testing().trim_backtraces(Some(1)).build();
    let _ = rigscope::load_bytes(name, data);
    let peak = dhat::HeapStats::get().max_bytes;
    drop(profiler);
    peak
}

#[test]
fn no_input_allocates_more_than_a_small_multiple_of_its_size() {
    let mut worst = (0.0f64, String::new());
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut tried = 0;
    for (name, data) in inputs() {
        let mut variants = vec![data.clone()];
        if data.len() < 300_000 {
            for _ in 0..60 {
                variants.push(mutate(&name, &data, &mut rng));
            }
        }
        for v in variants {
            let peak = peak_while_loading(&name, &v);
            let limit = RATIO * v.len() + ALLOWANCE;
            assert!(peak <= limit, "{name} ({} bytes): peak heap {peak} bytes, over {limit}", v.len());
            let ratio = peak as f64 / v.len().max(1) as f64;
            if v.len() > 4096 && ratio > worst.0 {
                worst = (ratio, name.clone());
            }
            tried += 1;
        }
    }
    eprintln!("{tried} inputs; largest peak heap per input byte (inputs over 4 KiB): {:.1} ({})", worst.0, worst.1);
}

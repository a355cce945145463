//! Fuzzes the PMX reader and what follows a successful parse.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::exercise("fuzz.pmx", data, rigscope::formats::pmx::read("fuzz.pmx", data));
});

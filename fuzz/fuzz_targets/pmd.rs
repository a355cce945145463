//! Fuzzes the PMD reader and what follows a successful parse.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::exercise("fuzz.pmd", data, rigscope::formats::pmd::read("fuzz.pmd", data));
});

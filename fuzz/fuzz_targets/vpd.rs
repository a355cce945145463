//! Fuzzes the VPD reader and what follows a successful parse.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::exercise("fuzz.vpd", data, rigscope::formats::vpd::read("fuzz.vpd", data));
});

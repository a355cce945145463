//! Links the `rigscope` executable as position-dependent on Linux.
//!
//! A PIE of this size (the window's wgpu, egui and naga come with the command line) carries some 38 000
//! relative relocations: the dynamic loader applies them on every start and copies each page of
//! `.data.rel.ro` it writes. That was 40% of a `rigscope --version` (2.1 ms, 376 page faults, against
//! 1.6 ms and 208 faults linked with `-no-pie`) and the larger part of `convert`'s cost on a small file,
//! where a pipeline runs it over thousands (BENCHMARKS.md). Only the binary is affected: the library, tests
//! and examples keep the default, and the objects stay position-independent. The trade: the executable itself
//! loads at a fixed address (its libraries, heap and stacks are still randomised), which suits a viewer and
//! converter of local files.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // A static build (`-C target-feature=+crt-static`) links `-static-pie`, which `-no-pie` would undo.
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    if os == "linux" && env == "gnu" && !features.split(',').any(|f| f == "crt-static") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}

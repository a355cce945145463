fn main() -> std::process::ExitCode {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    tune_glibc_malloc();
    rigscope::cli::main()
}

/// Starts glibc's allocator where its own adaptive thresholds end up after the first large block is freed:
/// blocks under 32 MiB come from the heap, and up to 64 MiB of freed heap is kept for reuse. Left to adapt, it
/// maps (and the kernel zeroes and faults in) every large buffer of a short run afresh: `convert` of a 2.5 MB
/// IQE took 3 150 page faults, 7% of its time (BENCHMARKS.md); a command is over before the thresholds move.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_glibc_malloc() {
    // SAFETY: mallopt only changes the allocator's parameters (it takes the allocator's own lock); it is called
    // before any thread starts, and an unsupported value is refused with a return of 0, which changes nothing.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

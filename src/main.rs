fn main() -> std::process::ExitCode {
    rigscope::cli::main()
}

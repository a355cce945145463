//! README's first two commands are the newcomer's way in, and CI must run the same test command.

fn read(rel: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// The indented command lines of README, in order.
fn commands() -> Vec<String> {
    read("README.md").lines().filter_map(|l| l.strip_prefix("    ")).map(|l| l.trim().to_string()).collect()
}

#[test]
fn readme_starts_with_run_and_test_commands() {
    let cmds = commands();
    assert!(cmds.len() >= 2, "README needs the run and test commands: {cmds:?}");
    assert!(cmds[0].starts_with("cargo run"), "first command runs the app: {}", cmds[0]);
    assert!(cmds[1].starts_with("cargo test"), "second command runs the tests: {}", cmds[1]);
    // Files the run command names must exist in the repository.
    for word in cmds[0].split_whitespace().filter(|w| w.contains('/')) {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(word);
        assert!(p.exists(), "README's run command names {word}, which is missing");
    }
}

#[test]
fn ci_runs_the_readme_test_command() {
    let test = &commands()[1];
    let ci = read(".ci/run");
    assert!(ci.lines().any(|l| l.trim() == test), ".ci/run must run README's test command `{test}`");
}

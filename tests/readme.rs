//! README and `docs/` are the newcomer's way in, so they must not rot:
//! - README's first two commands run the app and the tests, and CI runs the same test command;
//! - every `rigscope` command line the pages show as an example parses with the real command-line parser
//!   (`rigscope::cli::Cli`), and every command has a page and an example;
//! - every relative link in them points to a file that exists (and, with `#heading`, to a heading in it).
//!
//! The pages' convention (docs/cli.md, "How these pages write commands"): synopses, with `[optional]` parts, go
//! in ```` ```text ```` blocks and are not parsed; every other fenced block and every indented block is code,
//! and each of its lines that runs `rigscope ARGS` (or `cargo run --release -- ARGS`) is parsed. In
//! ```` ```console ```` blocks only the lines starting with `$ ` are commands; the rest is their output.

use std::path::{Path, PathBuf};

use clap::{CommandFactory, FromArgMatches};
use rigscope::cli::Cli;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap()
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
        let p = root().join(word);
        assert!(p.exists(), "README's run command names {word}, which is missing");
    }
}

#[test]
fn ci_runs_the_readme_test_command() {
    let test = &commands()[1];
    let ci = read(".ci/run");
    assert!(ci.lines().any(|l| l.trim() == test), ".ci/run must run README's test command `{test}`");
}

/// The pages checked, relative to the repository: README.md, BENCHMARKS.md (links only: its commands are
/// measurements, not examples) and every Markdown file under `docs/`.
fn pages() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut docs = Vec::new();
    walk(&root().join("docs"), &mut docs);
    docs.sort();
    let docs = docs.iter().map(|p| p.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/"));
    ["README.md".to_string()].into_iter().chain(docs).collect()
}

/// A line of a page: its 1-based number and text.
struct Line<'a> {
    number: usize,
    text: &'a str,
}

/// How a page's line is to be read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Prose: headings and links.
    Prose,
    /// A line of a fenced block with this info string, or of an indented block (info string "").
    Code { console: bool },
    /// A fence line, or a line of a ```` ```text ```` block (synopses, output formats): neither prose nor code.
    Other,
}

/// Each line of a Markdown page with what kind of line it is.
fn classify(text: &str) -> Vec<(Line<'_>, Kind)> {
    let mut fence: Option<(String, String)> = None; // (marker, info string)
    let mut out = Vec::new();
    for (i, text) in text.lines().enumerate() {
        let line = Line { number: i + 1, text };
        let trimmed = text.trim_start();
        let marker: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        let kind = match &fence {
            Some((open, _)) if marker.len() >= open.len() && marker.starts_with(&open[..1]) => {
                fence = None;
                Kind::Other
            }
            Some((_, info)) if info == "text" => Kind::Other,
            Some((_, info)) => Kind::Code { console: info == "console" },
            None if marker.len() >= 3 => {
                let info = trimmed[marker.len()..].split_whitespace().next().unwrap_or("").to_string();
                fence = Some((marker, info));
                Kind::Other
            }
            None if text.starts_with("    ") || text.starts_with('\t') => Kind::Code { console: false },
            None => Kind::Prose,
        };
        out.push((line, kind));
    }
    out
}

/// Splits a shell command line into words as `sh` would (quotes, backslashes), up to the first unquoted
/// operator (`|`, `;`, `&`, `<`, `>`, with a file descriptor number before it) or comment.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '|' | ';' | '&' | '<' | '>' => {
                if c == '>' && in_word && word.chars().all(|c| c.is_ascii_digit()) {
                    in_word = false; // `2>`: the descriptor, not an argument
                }
                break;
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The arguments after the program name when `words` run rigscope: `rigscope ARGS`, `target/…/rigscope ARGS`
/// or `cargo run [--release] [--locked] -- ARGS`, after any `NAME=value` environment settings.
fn rigscope_args(words: &[String]) -> Option<&[String]> {
    let is_env = |w: &String| {
        w.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
    };
    let words = &words[words.iter().take_while(|w| is_env(w)).count()..];
    let program = words.first()?;
    if program == "rigscope" || program.ends_with("/rigscope") {
        return Some(&words[1..]);
    }
    if program == "cargo" && words.get(1).is_some_and(|w| w == "run") {
        let flags = words[2..].iter().take_while(|w| ["--release", "--locked", "--quiet", "-q"].contains(&w.as_str()));
        let at = 2 + flags.count();
        if words.get(at).is_some_and(|w| w == "--") {
            return Some(&words[at + 1..]);
        }
    }
    None
}

/// The command lines of a page: (line number, the line with its `\` continuations joined).
fn command_lines(text: &str) -> Vec<(usize, String)> {
    let lines = classify(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (line, kind) = &lines[i];
        i += 1;
        let Kind::Code { console } = *kind else { continue };
        let mut command = line.text.trim().to_string();
        if console {
            let Some(rest) = command.strip_prefix("$ ") else { continue };
            command = rest.to_string();
        }
        while command.ends_with('\\') && i < lines.len() && matches!(lines[i].1, Kind::Code { .. }) {
            command.pop();
            command.push(' ');
            command.push_str(lines[i].0.text.trim());
            i += 1;
        }
        out.push((line.number, command));
    }
    out
}

/// Parses one example's arguments with the real parser: the subcommand it runs ("" for the window), or why it
/// doesn't parse.
fn parse_example(args: &[String]) -> Result<String, String> {
    if let Some(w) = args.iter().find(|w| w.starts_with('[') || w.contains("...") || w.contains('…')) {
        return Err(format!("`{w}` reads as a synopsis: put synopses in a ```text block, examples in ```sh"));
    }
    let argv = std::iter::once("rigscope".to_string()).chain(args.iter().cloned());
    let matches = Cli::command().try_get_matches_from(argv).map_err(|e| e.render().to_string())?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| e.render().to_string())?;
    if cli.command.is_none() {
        // No subcommand: the window, on files. A misspelt command would land here as a file name.
        let looks_like_file =
            |f: &Path| f.to_str().is_none_or(|s| s.contains(['.', '/']) || s.chars().all(|c| c.is_ascii_uppercase()));
        if let Some(f) = cli.files.iter().find(|f| !looks_like_file(f)) {
            return Err(format!("`{}` is neither a command nor a file name", f.display()));
        }
    }
    Ok(matches.subcommand_name().unwrap_or("").to_string())
}

#[test]
fn every_documented_command_line_parses() {
    let mut failures = Vec::new();
    let mut shown = std::collections::BTreeSet::new();
    for page in pages() {
        for (number, command) in command_lines(&read(&page)) {
            let words = shell_words(&command);
            let Some(args) = rigscope_args(&words) else { continue };
            match parse_example(args) {
                Ok(name) => {
                    shown.insert(name);
                }
                Err(why) => failures.push(format!("{page}:{number}: `{command}` does not parse:\n{why}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every command (and the window, "") has an example somewhere, and a page of its own.
    let cli = Cli::command();
    let names = cli.get_subcommands().map(|c| c.get_name().to_string()).filter(|n| n != "help");
    for name in std::iter::once(String::new()).chain(names) {
        let label = if name.is_empty() { "the window" } else { &name };
        assert!(shown.contains(&name), "no example in README.md or docs/ runs {label}: {shown:?}");
        if !name.is_empty() {
            assert!(root().join(format!("docs/{name}.md")).is_file(), "`rigscope {name}` needs a page, docs/{name}.md");
        }
    }
}

/// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown page's headings; a repeated one gets `-1`, `-2`… as on GitHub.
fn anchors(text: &str) -> Vec<String> {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut out = Vec::new();
    for (line, kind) in classify(text) {
        let hashes = line.text.chars().take_while(|&c| c == '#').count();
        if kind != Kind::Prose || !(1..=6).contains(&hashes) || !line.text[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line.text[hashes..].trim_end_matches('#'));
        let repeats = seen.entry(base.clone()).or_insert(0);
        out.push(if *repeats == 0 { base } else { format!("{base}-{repeats}") });
        *repeats += 1;
    }
    out
}

/// The link targets of a line of prose, `[text](target)` and `![alt](target)`, outside inline code.
fn link_targets(line: &str) -> Vec<String> {
    let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    prose
        .match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &prose[at + 2..];
            rest.find(')').map(|end| rest[..end].split_whitespace().next().unwrap_or("").to_string())
        })
        .collect()
}

#[test]
fn every_relative_link_points_to_a_file() {
    let mut failures = Vec::new();
    for page in pages().into_iter().chain(["BENCHMARKS.md".to_string()]) {
        let text = read(&page);
        let dir = Path::new(&page).parent().unwrap_or(Path::new(""));
        for (line, kind) in classify(&text) {
            if kind != Kind::Prose {
                continue;
            }
            for target in link_targets(line.text) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
                let file = if path.is_empty() { PathBuf::from(&page) } else { dir.join(path) };
                let where_ = format!("{page}:{}: link `{target}`", line.number);
                if !root().join(&file).exists() {
                    failures.push(format!("{where_}: {} does not exist", file.display()));
                } else if !fragment.is_empty() && file.extension().is_some_and(|e| e == "md") {
                    let known = anchors(&std::fs::read_to_string(root().join(&file)).unwrap());
                    if !known.iter().any(|a| a == fragment) {
                        failures.push(format!("{where_}: {} has no heading #{fragment}", file.display()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_checks_read_markdown_and_shell_as_intended() {
    let words = shell_words(r#"RAYON_NUM_THREADS=2 rigscope info 'a b.iqm' "c\"d" e\ f --json 2>/dev/null | head # x"#);
    assert_eq!(words, ["RAYON_NUM_THREADS=2", "rigscope", "info", "a b.iqm", "c\"d", "e f", "--json"]);
    assert_eq!(rigscope_args(&words).unwrap(), ["info", "a b.iqm", "c\"d", "e f", "--json"]);
    let cargo = shell_words("cargo run --release -- render demo.iqm -o out.png");
    assert_eq!(rigscope_args(&cargo).unwrap(), ["render", "demo.iqm", "-o", "out.png"]);
    assert!(rigscope_args(&shell_words("cargo run --example fuzz_seeds")).is_none());
    let page = "# T\n\n```text\nrigscope info PATH... [--json]\n```\n\n```console\n$ rigscope diff a.iqm b.iqm\nrigscope: out\n```\n\n    rigscope pose x.iqm \\\n      --frame 2\n";
    let lines = command_lines(page);
    assert_eq!(
        lines,
        [(8, "rigscope diff a.iqm b.iqm".to_string()), (12, "rigscope pose x.iqm  --frame 2".to_string())]
    );
    let args = |s: &str| shell_words(s)[1..].to_vec();
    assert_eq!(parse_example(&args("rigscope render m.iqm --frame 3 -o o.png")).unwrap(), "render");
    assert_eq!(parse_example(&args("rigscope m.iqm MOTION")).unwrap(), "");
    assert!(parse_example(&args("rigscope render m.iqm --no-such-flag -o o.png")).is_err());
    assert!(parse_example(&args("rigscope rendr m.iqm")).is_err(), "a misspelt command is not a file");
    assert!(parse_example(&args("rigscope info FILE [--json]")).is_err(), "a synopsis is not an example");
    assert_eq!(slug("`rigscope diff` (issue 16)"), "rigscope-diff-issue-16");
    assert_eq!(anchors("# A\n## A\n```\n# not a heading\n```\n## A"), ["a", "a-1", "a-2"]);
    assert_eq!(link_targets("see [x](a.md#b) and `[y](c.md)` and ![i](p.png \"t\")"), ["a.md#b", "p.png"]);
}

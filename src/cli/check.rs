//! `rigscope check PATH... [--format text|json|sarif|junit|github] [--strict] [--jobs N] [--include GLOB]...
//! [--exclude GLOB]... [--baseline REPORT] [--model FILE]`: name every problem, with a rule id, a place and the
//! spec's expectation, in files and whole folders, on every core.
//!
//! Folders are walked recursively (symbolic links followed; a loop or an unreadable entry is reported, not
//! fatal); a file in a folder is checked when its extension is one rigscope reads or its first bytes are a
//! known magic. Paths are sorted, checked in parallel in batches, and reported in that order as each batch
//! finishes, so the output is stable and memory stays bounded however many files there are. Exit codes: 0 no
//! finding fails, 1 findings at or above the failing severity (errors; warnings too with `--strict`), 2 a usage
//! error or a file or folder that couldn't be read.

mod report;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use rayon::prelude::*;

use super::CliError;
use crate::check::{Finding, Severity, check_file, unmatched_bones};
use report::Reporter;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files and folders to check (folders recursively).
    #[arg(value_name = "PATH", required = true)]
    pub files: Vec<PathBuf>,
    /// Print the findings as one JSON array (the same as `--format json`).
    #[arg(long)]
    pub json: bool,
    /// How to print the findings: text lines, a JSON array, SARIF 2.1.0 (GitHub code scanning), JUnit XML (one
    /// test case per file), or GitHub workflow commands.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub strict: bool,
    /// A model to check motions (MVD) against: bone tracks naming none of its joints are reported.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Files checked at once (default: every core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// In folders, check only files whose path matches one of these globs (`**/*.iqm`).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// In folders, skip files whose path matches one of these globs.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// An earlier report (`--format json` or `sarif`): only findings that are not in it are reported.
    #[arg(long, value_name = "REPORT")]
    pub baseline: Option<PathBuf>,
}

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
    Junit,
    Github,
}

/// Files checked per batch: enough to keep every core busy, few enough that findings stream out.
const BATCH: usize = 256;

/// One file's outcome.
pub(crate) struct Checked {
    pub file: String,
    pub findings: Vec<Finding>,
    /// The file couldn't be read (the message).
    pub unreadable: Option<String>,
}

pub fn run(args: &CheckArgs) -> Result<(), CliError> {
    let model = match &args.model {
        Some(path) => Some(crate::load_path(path).map_err(|e| CliError { code: 2, message: e.to_string() })?),
        None => None,
    };
    let filter = Filter::new(&args.include, &args.exclude)?;
    let baseline = match &args.baseline {
        Some(path) => Some(report::Baseline::load(path).map_err(CliError::usage)?),
        None => None,
    };
    let (paths, mut walk_problems) = collect(&args.files, &filter);
    let format = if args.json { Format::Json } else { args.format };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| CliError::usage(format!("--jobs: {e}")))?;
    let progress = progress_bar(paths.len());
    let stdout = std::io::stdout();
    let mut out = Reporter::new(format, stdout.lock(), args.strict);
    let mut unreadable = std::mem::take(&mut walk_problems);
    for batch in paths.chunks(BATCH) {
        let checked: Vec<Checked> = pool.install(|| batch.par_iter().map(|p| check_one(p, model.as_ref())).collect());
        for mut c in checked {
            if let Some(b) = &baseline {
                c.findings.retain(|f| !b.contains(f));
            }
            if let Some(e) = &c.unreadable {
                unreadable.push(e.clone());
            }
            out.file(&c).map_err(CliError::output)?;
            if let Some(p) = &progress {
                p.inc(1);
            }
        }
    }
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    let counts = out.finish().map_err(CliError::output)?;
    if !unreadable.is_empty() {
        return Err(CliError { code: 2, message: unreadable.join("\n") });
    }
    match counts.failing {
        0 => Ok(()),
        n => Err(CliError { code: 1, message: format!("{n} finding(s) fail the check") }),
    }
}

/// A progress bar on stderr when it is a terminal (nothing on a pipe or in CI logs).
fn progress_bar(len: usize) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() || len < 2 {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed}") {
        bar.set_style(style);
    }
    Some(bar)
}

/// Reads and checks one file (and, with a model, its bone tracks against the model, and its motion rules on
/// the model's joints).
fn check_one(path: &Path, model: Option<&crate::Scene>) -> Checked {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(data) => {
            let mut findings = check_file(path, &data);
            if let Some(model) = model
                && let Ok(motion) = crate::load_bytes(&name, &data)
                && motion.is_animation_only()
            {
                findings.extend(unmatched_bones(&name, &motion, model));
                // The motion played on the model, as the window plays it: its motion rules on the model's joints.
                let mut played = model.clone();
                let first = played.clips.len();
                if crate::anim::attach(&mut played, &motion, &name).is_ok() {
                    findings.retain(|f| !crate::check::motion::is_motion_rule(&f.rule));
                    findings.extend(crate::check::motion::check_clips(&name, &played, first..played.clips.len()));
                }
            }
            Checked { file: name, findings, unreadable: None }
        }
        Err(e) => Checked { unreadable: Some(format!("{name}: cannot read: {e}")), file: name, findings: Vec::new() },
    }
}

/// Which files in folders are checked.
pub(super) struct Filter {
    include: Option<globset::GlobSet>,
    exclude: Option<globset::GlobSet>,
}

impl Filter {
    pub(super) fn new(include: &[String], exclude: &[String]) -> Result<Filter, CliError> {
        let set = |globs: &[String], flag: &str| -> Result<Option<globset::GlobSet>, CliError> {
            if globs.is_empty() {
                return Ok(None);
            }
            let mut b = globset::GlobSetBuilder::new();
            for g in globs {
                b.add(globset::Glob::new(g).map_err(|e| CliError::usage(format!("{flag} {g}: {e}")))?);
            }
            b.build().map(Some).map_err(|e| CliError::usage(format!("{flag}: {e}")))
        };
        Ok(Filter { include: set(include, "--include")?, exclude: set(exclude, "--exclude")? })
    }

    fn wants(&self, path: &Path) -> bool {
        self.include.as_ref().is_none_or(|s| s.is_match(path))
            && !self.exclude.as_ref().is_some_and(|s| s.is_match(path))
    }
}

/// The files to check, sorted: files named on the command line as they are, and in folders the files rigscope
/// reads that pass the filter. Also what couldn't be walked (a symlink loop, an unreadable folder).
pub(super) fn collect(roots: &[PathBuf], filter: &Filter) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for root in roots {
        if !root.is_dir() {
            files.push(root.clone());
            continue;
        }
        for entry in walkdir::WalkDir::new(root).follow_links(true) {
            match entry {
                Ok(e) if e.file_type().is_file() => {
                    let p = e.into_path();
                    if filter.wants(&p) && readable_kind(&p) {
                        files.push(p);
                    }
                }
                Ok(_) => {}
                Err(e) => problems.push(match e.path() {
                    Some(p) => format!("{}: cannot walk: {e}", p.display()),
                    None => format!("{}: cannot walk: {e}", root.display()),
                }),
            }
        }
    }
    files.sort();
    files.dedup();
    (files, problems)
}

/// A file rigscope reads: by extension, else by its first bytes.
fn readable_kind(path: &Path) -> bool {
    if crate::formats::is_readable_name(&path.to_string_lossy()) {
        return true;
    }
    let mut head = [0u8; 64];
    let n = std::fs::File::open(path).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
    crate::formats::sniff_any(&head[..n])
}

/// Severity as the text and GitHub formats spell it.
fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Writes `s` and a newline, for reporters.
fn line(out: &mut impl Write, s: &str) -> std::io::Result<()> {
    out.write_all(s.as_bytes())?;
    out.write_all(b"\n")
}

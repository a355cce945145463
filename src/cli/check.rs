//! `rigscope check FILE... [--json] [--strict]`: name every problem, with a rule id, a place and the spec's
//! expectation. Exit 0 when clean or only warnings, 1 on errors (or on warnings with `--strict`), 2 when a
//! file can't be read at all.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::check::{Finding, Severity, check_file, unmatched_bones};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files to check.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print the findings as one JSON array.
    #[arg(long)]
    pub json: bool,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub strict: bool,
    /// A model to check motions (MVD) against: bone tracks naming none of its joints are reported.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
}

pub fn run(args: &CheckArgs) -> Result<(), CliError> {
    let model = match &args.model {
        Some(path) => Some(crate::load_path(path).map_err(|e| CliError { code: 2, message: e.to_string() })?),
        None => None,
    };
    let mut findings: Vec<Finding> = Vec::new();
    let mut unreadable = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        match std::fs::read(path) {
            Ok(data) => {
                findings.extend(check_file(path, &data));
                if let Some(model) = &model
                    && let Ok(motion) = crate::load_bytes(&name, &data)
                    && motion.is_animation_only()
                {
                    findings.extend(unmatched_bones(&name, &motion, model));
                }
            }
            Err(e) => unreadable.push(format!("{name}: cannot read: {e}")),
        }
    }
    if args.json {
        let s = serde_json::to_string(&findings).map_err(CliError::load)?;
        println!("{s}");
    } else {
        for f in &findings {
            let severity = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let place = f.place.describe();
            let place = if place.is_empty() { String::new() } else { format!(" {place}:") };
            println!("{}:{place} {severity}[{}]: {}", f.file, f.rule, f.message);
        }
        let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
        let files = args.files.len() - unreadable.len();
        println!("{files} file(s) checked: {errors} error(s), {} warning(s)", findings.len() - errors);
    }
    if !unreadable.is_empty() {
        return Err(CliError { code: 2, message: unreadable.join("\n") });
    }
    let fails = |f: &Finding| f.severity == Severity::Error || args.strict;
    match findings.iter().filter(|f| fails(f)).count() {
        0 => Ok(()),
        n => Err(CliError { code: 1, message: format!("{n} finding(s) fail the check") }),
    }
}

//! The command line. Other tools and tests depend on these commands' output, so their shape is a contract:
//! see docs/cli.md. Errors go to stderr with a non-zero exit code (2 for a bad request such as an unknown
//! animation or an out-of-range frame, 1 for a file that can't be loaded), never a panic.

mod check;
mod convert;
mod diff;
mod info;
mod pose;
mod render;
mod thumbnail;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::anim::{AttachReport, attach};
use crate::scene::Scene;

pub use crate::report::{PoseOptions, pose_json};

#[derive(Parser, Debug)]
#[command(
    name = "rigscope",
    version,
    about = "Viewer and debugger for game-model exports (IQM, IQE, RSM, PMX, PMD, MVD, VMD, VPD)",
    long_about = "Viewer and debugger for game-model exports (IQM, IQE, RSM, PMX, PMD, MVD, VMD, VPD).\n\nWith no command, opens the \
                  window on the FILEs given (the first a model, later animation-only files attached), or on the \
                  built-in demo model when none is given."
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Files to open in the window: the first model, then animation files to attach. None: the demo model.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Open the window comparing the model with another version of it (File > Compare with…): the Compare
    /// section and a ghost of its skeleton.
    #[arg(long, value_name = "FILE")]
    pub compare: Option<PathBuf>,
    /// Test hook: exit cleanly after this many presented frames.
    #[arg(long, value_name = "N", hide = true)]
    pub exit_after_frames: Option<u64>,
    /// Test hook: count --exit-after-frames from the first hot reload (wait for one before exiting).
    #[arg(long, hide = true)]
    pub exit_after_reload: bool,
    /// Test hook: save the window's last frame (see --exit-after-frames) as PNG, then exit.
    #[arg(long, value_name = "PATH", hide = true)]
    pub screenshot: Option<PathBuf>,
    /// Test hook: every frame advances the clock by exactly this many seconds instead of the time that passed,
    /// so the pose shown on the Nth frame doesn't depend on how fast the machine draws.
    #[arg(long, value_name = "SECONDS", hide = true)]
    pub frame_step: Option<f32>,
    /// Benchmark hook: print a `rigscope-timing` line to stderr (time to first frame; with
    /// --exit-after-frames, frame times and CPU time per frame).
    #[arg(long, hide = true)]
    pub report_timing: bool,
    /// Benchmark hook: the window's inner size in physical pixels, WxH.
    #[arg(long, value_name = "WxH", hide = true, value_parser = parse_window_size)]
    pub window_size: Option<(u32, u32)>,
    /// Test hook: save a contact sheet of the clip shown (the window's Contact sheet command) into the current
    /// folder after the first presented frame.
    #[arg(long, hide = true)]
    pub contact_sheet: bool,
    /// Test hook: record the clip shown as a GIF (the window's Record clip command) after the first presented
    /// frame.
    #[arg(long, hide = true)]
    pub record_clip: bool,
    /// Test hook: export the model shown as glTF to this file (the window's Export glTF command, without its
    /// dialog) after the first presented frame.
    #[arg(long, hide = true, value_name = "FILE")]
    pub export_gltf: Option<PathBuf>,
}

/// `WxH`, both at least 1.
fn parse_window_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("expected WxH, got {s:?}"))?;
    let parse = |v: &str| v.trim().parse::<u32>().ok().filter(|&v| v > 0);
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("expected WxH with positive numbers, got {s:?}")),
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Describe a file: format, counts, animations, vertex arrays, bounds, comment, extensions and warnings.
    Info(info::InfoArgs),
    /// Print the posed skeleton (and optionally skinned vertices) at one instant as JSON.
    Pose(pose::PoseArgs),
    /// Render the model at one instant (or a contact sheet of an animation) to a PNG, without a window.
    Render(render::RenderArgs),
    /// Convert any file rigscope reads to IQM, IQE or glTF, by the output's extension (a model, then animation
    /// files to attach, then the output).
    Convert(convert::ConvertArgs),
    /// Name every problem in files: rule id, severity, place and what the spec expects (exit 1 on errors).
    Check(check::CheckArgs),
    /// What changed between two exports of one asset: geometry, skeleton, clips, and the joints and frames a
    /// re-export moved (exit 0 equal within the tolerance, 1 not).
    Diff(diff::DiffArgs),
    /// A small framed picture of a model on a transparent background, for file managers and asset lists.
    Thumbnail(thumbnail::ThumbnailArgs),
}

/// A failure to report: a message for stderr and the process exit code.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    /// A request the file can't satisfy (unknown animation, negative frame): exit code 2.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError { code: 2, message: message.into() }
    }

    /// A file that can't be read or loaded: exit code 1.
    pub fn load(message: impl std::fmt::Display) -> Self {
        CliError { code: 1, message: message.to_string() }
    }

    /// A failed write of the command's output. A reader that closed the pipe (`rigscope info big.iqm | head`)
    /// ends the command quietly with 141, the status a shell reports for a process that SIGPIPE ended (Rust
    /// ignores that signal, so the write fails instead); any other write error is code 2.
    pub fn output(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError { code: BROKEN_PIPE, message: String::new() }
        } else {
            CliError { code: 2, message: format!("cannot write the output: {e}") }
        }
    }
}

/// The exit status of a command whose reader closed the pipe.
pub const BROKEN_PIPE: u8 = 141;

/// Writes `text` to standard output (see [`CliError::output`] for a closed pipe).
pub fn print(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(CliError::output)
}

/// Parses the arguments and runs the command.
pub fn main() -> ExitCode {
    // Taken first, for --report-timing's time to first frame.
    let started = std::time::Instant::now();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Info(args)) => info::run(&args),
        Some(Command::Pose(args)) => pose::run(&args),
        Some(Command::Render(args)) => render::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Diff(args)) => diff::run(&args),
        Some(Command::Thumbnail(args)) => thumbnail::run(&args),
        None => crate::window::run(crate::window::Options {
            files: cli.files,
            compare: cli.compare,
            exit_after_frames: cli.exit_after_frames,
            exit_after_reload: cli.exit_after_reload,
            screenshot: cli.screenshot,
            frame_step: cli.frame_step,
            report_timing: cli.report_timing.then_some(started),
            window_size: cli.window_size,
            contact_sheet: cli.contact_sheet,
            record_clip: cli.record_clip,
            export_gltf: cli.export_gltf.clone(),
        })
        .map_err(CliError::load),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if !e.message.is_empty() {
                eprintln!("rigscope: {}", e.message);
            }
            ExitCode::from(e.code)
        }
    }
}

/// Loads a model and attaches each animation file to it, in order.
pub fn load_with_attachments(file: &Path, attach_files: &[PathBuf]) -> Result<(Scene, Vec<AttachReport>), CliError> {
    let mut scene = crate::load_path(file).map_err(CliError::load)?;
    let mut reports = Vec::new();
    for a in attach_files {
        let anim = crate::load_path(a).map_err(CliError::load)?;
        let report = attach(&mut scene, &anim, &a.display().to_string()).map_err(CliError::load)?;
        for (name, models) in &report.ambiguous {
            eprintln!(
                "rigscope: {}: the cut name \"{name}\" starts several of the model's names ({}); left unmatched",
                a.display(),
                models.join(", ")
            );
        }
        reports.push(report);
    }
    Ok((scene, reports))
}

/// Parses `AxB` (`640x480`, `4x3`), each between `min` and `max` (`--size`, `--sheet` of `render` and `pose`).
pub(crate) fn parse_pair(s: &str, flag: &str, min: u32, max: u32) -> Result<(u32, u32), CliError> {
    let bad = || CliError::usage(format!("{flag} {s}: expected WxH, two whole numbers from {min} to {max}"));
    let (a, b) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if !(min..=max).contains(&a) || !(min..=max).contains(&b) {
        return Err(bad());
    }
    Ok((a, b))
}

//! `rigscope diff OLD NEW`: what changed between two exports of one asset (`report::diff`), as text or JSON.
//! Exit 0 when equal within the tolerance, 1 when not, 2 when a file can't be loaded or the request is bad.

use std::path::PathBuf;

use super::CliError;
use crate::report::diff::{DiffOptions, diff, text};

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The earlier export.
    pub old: PathBuf,
    /// The later export (any format rigscope reads: an IQM against its IQE, a re-export against the last one).
    pub new: PathBuf,
    /// Positions, bind translations and bounds closer than this (model units) are equal.
    #[arg(long, default_value_t = 1e-4, value_name = "UNITS")]
    pub tolerance: f32,
    /// Rotations closer than this (degrees) are equal.
    #[arg(long, default_value_t = 0.01, value_name = "DEGREES")]
    pub angle_tolerance: f32,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Joints listed in the text report, largest change first (JSON lists all).
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    /// Frame rate for animations whose file stores none (IQM framerate 0).
    #[arg(long, default_value_t = crate::scene::DEFAULT_FPS, value_name = "FPS")]
    pub default_fps: f32,
}

pub fn run(args: &DiffArgs) -> Result<(), CliError> {
    for (name, v) in [("--tolerance", args.tolerance), ("--angle-tolerance", args.angle_tolerance)] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(CliError::usage(format!("{name} {v}: expected a number from 0")));
        }
    }
    if !(args.default_fps.is_finite() && args.default_fps > 0.0) {
        return Err(CliError::usage(format!("--default-fps {}: expected a positive number", args.default_fps)));
    }
    let load = |p: &PathBuf| crate::load_path(p).map_err(|e| CliError { code: 2, message: e.to_string() });
    let (old, mut new) = (load(&args.old)?, load(&args.new)?);
    // Two exports in different axes (an IQM and its glTF) are compared in OLD's: NEW is turned as `convert`
    // turns a model, so what matches is what the viewer shows the same.
    if new.up != old.up {
        let from = new.up.label();
        crate::convert::to_up(&mut new, old.up);
        eprintln!(
            "rigscope: note: {} turned from {from} up to {}'s axes to compare",
            args.new.display(),
            args.old.display()
        );
    }
    let options = DiffOptions {
        tolerance: args.tolerance,
        angle_tolerance: args.angle_tolerance,
        default_fps: args.default_fps,
        ..DiffOptions::default()
    };
    let d = diff(&old, &args.old.display().to_string(), &new, &args.new.display().to_string(), &options);
    if args.json {
        super::print(&format!("{}\n", serde_json::to_string(&d).map_err(CliError::load)?))?;
    } else {
        super::print(&text(&d, args.limit))?;
    }
    if d.equal() { Ok(()) } else { Err(CliError { code: 1, message: "the files differ".into() }) }
}

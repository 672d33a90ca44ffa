//! `sudoku-lab export`: a results folder in formats other tools read.
//!
//! - `--format latex` / `--format markdown`: every report table of the folder (each `*.csv`
//!   but `runs.csv` and `trajectories.csv`) as a booktabs `tabular` (`<name>.tex`) or a GitHub
//!   pipe table (`<name>.md`), by default into `exports/<id>/` ([`tables`]).
//! - `--format ioh`: the anytime data (`trajectories.csv`, with `runs.csv` and `meta.json`) in
//!   the IOHprofiler format that IOHexperimenter's Analyzer logger writes and IOHanalyzer and
//!   iohinspector read, by default into `exports/<id>/ioh/` ([`ioh`]).
//!
//! The default folder is relative to the current folder and outside the results folder, so
//! an export never adds untracked files to a committed `results/<id>/` (`--out` chooses any
//! other). Every file written is listed on stdout.
//!
//! The inputs are read whole and checked before anything is written; every output file is
//! written atomically (a temporary file in the same folder, then a rename), and the IOH folder
//! is swapped in as a whole, so a reader never sees half an export. A bad input ends with one
//! line naming the file and the problem (exit code 2 from `main`).

use crate::export::{ioh, tables, Format};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Run `sudoku-lab export --format <format> <dir> [--out <out>]`.
pub fn run(format: Format, dir: &Path, out: Option<&Path>) -> Result<ExitCode> {
    if !dir.is_dir() {
        bail!("{}: no such results folder", dir.display());
    }
    let experiment = experiment_id(dir)?;
    match format {
        Format::Latex | Format::Markdown => {
            let out = out.map_or_else(|| default_out(&experiment), PathBuf::from);
            tables::export(format, dir, &experiment, &out)?;
        }
        Format::Ioh => {
            let out = out.map_or_else(|| default_out(&experiment).join("ioh"), PathBuf::from);
            ioh::export(dir, &experiment, &out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `exports/<id>/` in the current folder (an id that is not a plain name, e.g. one holding a
/// `/` or `..`, as `experiment`).
fn default_out(experiment: &str) -> PathBuf {
    let plain = !experiment.is_empty()
        && !experiment.starts_with('.')
        && experiment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c));
    Path::new("exports").join(if plain { experiment } else { "experiment" })
}

/// The experiment id of a results folder: `settings.experiment` of its meta.json, or the
/// folder's name when it has no meta.json (report tables copied elsewhere).
fn experiment_id(dir: &Path) -> Result<String> {
    let path = dir.join("meta.json");
    if !path.exists() {
        return Ok(dir
            .canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "experiment".into()));
    }
    let meta = crate::protocol::meta::read_json(&path)?;
    meta["settings"]["experiment"]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("{}: no settings.experiment", path.display()))
}

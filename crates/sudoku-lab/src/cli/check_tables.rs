//! `sudoku-lab check-tables`: the published tables' own arithmetic
//! ([`crate::reports::table_checks`]), written as checks.csv and report.md.

use crate::reports::table_checks;
use anyhow::Result;
use std::path::Path;
use std::process::ExitCode;

/// Check every table of `paper` into `out`; one line on stdout with the outcome. Exit 0 also
/// when a table is impossible: that is a finding about the paper, not a failure of the run.
pub fn run(paper: &Path, out: &Path) -> Result<ExitCode> {
    let checked = table_checks::write_record(paper, out)?;
    let line = format!(
        "{}: checks.csv, report.md: {}",
        out.display(),
        table_checks::headline(&checked)
    );
    println!("{}", sudoku_core::error::shown(&line));
    Ok(ExitCode::SUCCESS)
}

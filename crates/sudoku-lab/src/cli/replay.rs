//! `sudoku-lab replay DIR [--every K] [--solved-only]`: re-execute runs of a results folder and
//! check they are reproduced ([`crate::protocol::replay`]). Exit 0 when every replayed row is
//! identical, 1 otherwise.

use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;

pub fn replay(dir: &Path, every: usize, only_solved: bool) -> Result<ExitCode> {
    if every == 0 {
        bail!("--every must be at least 1");
    }
    let out = crate::protocol::replay::replay(dir, every, only_solved)?;
    for m in &out.mismatches {
        println!("{}", sudoku_core::error::shown(m));
    }
    for m in &out.external_mismatches {
        println!(
            "{}",
            sudoku_core::error::shown(&format!("external solver, not reproduced: {m}"))
        );
    }
    println!(
        "{}",
        sudoku_core::error::shown(&format!(
            "replayed {} runs of {}: {} identical, {} different",
            out.replayed,
            dir.display(),
            out.replayed - out.mismatches.len() - out.external_mismatches.len(),
            out.mismatches.len()
        ))
    );
    if !out.external_mismatches.is_empty() {
        println!(
            "{} runs of external solvers were not reproduced: such a solver is nondeterministic (or depends on the machine); this is reported, not a failure",
            out.external_mismatches.len()
        );
    }
    Ok(if out.mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

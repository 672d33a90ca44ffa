//! `sudoku-lab replay DIR [--every K] [--solved-only] [--run-external]`: re-execute runs of a
//! results folder and check they are reproduced ([`crate::protocol::replay`]). Exit 0 when
//! every replayed row is identical, 1 otherwise. The runs of external solvers are replayed
//! only with `--run-external` (their command is shown first); otherwise they are skipped with a
//! notice naming the command.

use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;

pub fn replay(dir: &Path, every: usize, only_solved: bool, run_external: bool) -> Result<ExitCode> {
    if every == 0 {
        bail!("--every must be at least 1");
    }
    // A race folder of `readings` (its command.json and settings.json, no meta.json).
    let race = ["command.json", "settings.json"]
        .iter()
        .all(|f| dir.join(f).exists());
    if race && !dir.join("meta.json").exists() {
        return super::readings::replay_race(dir, every, None);
    }
    let options = crate::protocol::replay::Options {
        every,
        only_solved,
        run_external,
    };
    let out = crate::protocol::replay::replay(dir, &options)?;
    for n in &out.skipped {
        println!("{n}");
    }
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
    if out.skipped_rows > 0 {
        println!(
            "{} rows of external solvers not replayed (their commands run only with --run-external)",
            out.skipped_rows
        );
    }
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

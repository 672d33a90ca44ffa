//! `sudoku-lab list`: the embedded experiments, the algorithms and the bank puzzles.

use crate::{algos, spec};
use anyhow::Result;
use std::process::ExitCode;
use sudoku_core::bank;

pub fn list() -> Result<ExitCode> {
    println!("Experiments (sudoku-lab reproduce <id>):");
    for (id, _) in spec::EMBEDDED {
        let s = spec::embedded(id)?;
        println!("  {id:<20} {}", s.title);
    }
    println!("\nAlgorithms (--algo):");
    for a in algos::REGISTRY {
        println!("  {:<20} {}", a.name(), a.summary());
    }
    println!(
        "  {:<20} a solver of yours in any language, run as a process (spec: command = [...]; solve: --command; docs/external-solvers.md)",
        "external"
    );
    println!("\nBank puzzles (experiments/puzzles/published.tsv, embedded):");
    for p in bank() {
        println!("  {:<24} {:>2} givens  {}", p.id, p.givens(), p.source);
    }
    Ok(ExitCode::SUCCESS)
}

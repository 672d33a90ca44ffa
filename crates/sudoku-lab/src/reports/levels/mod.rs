//! `report = "levels"`: per-puzzle results by difficulty level against published per-puzzle
//! tables (Ret-GA journal Tables 2-4: 25 puzzles per level, 100 runs each).
//!
//! The published puzzles are not ours (the paper's grids were never published; we run
//! substitutes with the same given counts), so puzzle k of ours is not the paper's problem k and
//! nothing is compared puzzle by puzzle. Per algorithm and level, the distributions over the
//! puzzles are compared instead: the per-puzzle success rates (all puzzles), and the per-puzzle
//! average generations of the successful runs (each side's puzzles with at least one success),
//! by the two-sided Mann-Whitney U test, with the Vargha-Delaney A12 = U / (n_a n_b) (the
//! probability that a value of the first sample exceeds one of the second, ties counting one
//! half). The paper's claim that success falls and the average rises from level to level is
//! tested the same way between adjacent levels (in the order the levels first appear among the
//! spec's puzzles), on the paper's values and on ours separately. Every p-value of `levels.csv`
//! is Holm-adjusted together.
//!
//! Outputs: `levels.csv` (one row per test), `per-puzzle.csv`, `levels.png/.svg` (strip plots),
//! and report.md.
//!
//! One module per part: [`values`] (the paper's per-puzzle values and ours), [`stats`] (the
//! tests), [`tables`] (the CSV files), [`chart`] and [`markdown`] (report.md).

pub mod chart;
pub mod markdown;
pub mod stats;
pub mod tables;
pub mod values;

pub use markdown::RunNote;
pub use values::{load, PublishedLevel};

use crate::reports::groups::Group;
use crate::spec::{Loaded, Spec};
use anyhow::Result;
use std::path::Path;

/// levels.csv, per-puzzle.csv, levels.png/.svg; returns report.md.
pub fn report(
    spec: &Spec,
    loaded: &Loaded,
    groups: &[Vec<Group>],
    levels: &[PublishedLevel],
    out: &Path,
    note: &RunNote,
) -> Result<String> {
    let ours = values::ours(spec, loaded, groups, levels);
    let tests = stats::all_tests(spec, levels, &ours);
    tables::write_levels_csv(spec, &tests, out)?;
    tables::write_per_puzzle(spec, levels, &ours, out)?;
    chart::chart(spec, levels, &ours, out)?;
    Ok(markdown::markdown(spec, levels, &ours, &tests, note))
}

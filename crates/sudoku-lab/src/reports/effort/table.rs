//! The effort table: effort.csv and its Markdown form in report.md, one row per (algorithm,
//! puzzle entry).

use super::cells::Cell;
use super::format::{ert_cell, f, Z95};
use crate::protocol::io::write_atomic_with;
use crate::spec::{Loaded, Spec};
use anyhow::Result;
use lab_stats::{summarize, wilson_interval, Summary};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// effort.csv and the Markdown table of report.md.
pub fn write_effort(
    spec: &Spec,
    loaded: &Loaded,
    cells: &[Vec<Cell>],
    out: &Path,
) -> Result<String> {
    write_effort_csv(spec, loaded, cells, out)?;
    Ok(effort_markdown(spec, loaded, cells))
}

/// The five CSV columns min, max, mean, median, SD of a sample (SD from two values on).
fn stats_cols(s: Option<Summary>) -> String {
    format!(
        "{},{},{},{},{}",
        f(s.map(|s| s.min), 0),
        f(s.map(|s| s.max), 0),
        f(s.map(|s| s.mean), 2),
        f(s.map(|s| s.median), 1),
        f(s.filter(|s| s.n >= 2).map(|s| s.sd), 2)
    )
}

/// effort.csv: every statistic of every (algorithm, puzzle entry), at full precision.
fn write_effort_csv(spec: &Spec, loaded: &Loaded, cells: &[Vec<Cell>], out: &Path) -> Result<()> {
    write_atomic_with(&out.join("effort.csv"), |w| {
        writeln!(w, "experiment,algorithm,puzzle,label,puzzles,givens,runs,successes,success_rate,success_ci_low,success_ci_high,gen_min,gen_max,gen_mean,gen_median,gen_sd,eval_min,eval_max,eval_mean,eval_median,eval_sd,ert_evaluations,penalty_mean,penalty_sd,penalty_median,penalty_min,penalty_max,wall_ms_mean")?;
        for (a, alg) in spec.algorithms.iter().enumerate() {
            for (e, entry) in loaded.entries.iter().enumerate() {
                let c = &cells[a][e];
                let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
                let pen = c.penalty();
                writeln!(
                    w,
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                    spec.id,
                    alg.label,
                    entry.id,
                    spec.puzzles[e].label(),
                    entry.puzzles,
                    entry.givens.map_or(String::new(), |g| g.to_string()),
                    c.runs,
                    c.successes,
                    f(Some(c.rate()), 4),
                    f(Some(lo), 4),
                    f(Some(hi), 4),
                    stats_cols(summarize(&c.generations)),
                    stats_cols(summarize(&c.evaluations)),
                    f(Some(c.ert()), 1),
                    f(pen.map(|s| s.mean), 3),
                    f(pen.filter(|s| s.n >= 2).map(|s| s.sd), 3),
                    f(pen.map(|s| s.median), 1),
                    f(pen.map(|s| s.min), 0),
                    f(pen.map(|s| s.max), 0),
                    f(Some(c.total_wall_ms / c.runs.max(1) as f64), 3),
                )?;
            }
        }
        Ok(())
    })
}

/// A Markdown cell "min / max / mean / median / SD" of a sample ("x (one run)" for a single
/// value, "-" for none).
fn five(s: Option<Summary>) -> String {
    match s {
        Some(s) if s.n >= 2 => format!(
            "{:.0} / {:.0} / {:.1} / {:.1} / {:.1}",
            s.min, s.max, s.mean, s.median, s.sd
        ),
        Some(s) => format!("{:.0} (one run)", s.mean),
        None => "-".into(),
    }
}

/// A Markdown cell "mean (SD)" of the final penalties (SD "-" for a single run).
fn penalty_cell(pen: Option<Summary>) -> String {
    pen.map_or("-".into(), |s| {
        format!(
            "{:.2} ({})",
            s.mean,
            if s.n >= 2 {
                format!("{:.2}", s.sd)
            } else {
                "-".into()
            }
        )
    })
}

/// report.md's effort table: the CSV's main columns, rounded for reading.
fn effort_markdown(spec: &Spec, loaded: &Loaded, cells: &[Vec<Cell>]) -> String {
    let mut md = String::from("| Algorithm | Puzzles | Success (95 % CI) | Generations (CSO: cycles) of successes: min / max / mean / median / SD | Evaluations of successes: min / max / mean / median / SD | ERT (evaluations) | Final penalty, mean (SD) | Time per run |\n|---|---|---|---|---|---|---|---|\n");
    for (a, alg) in spec.algorithms.iter().enumerate() {
        for (e, entry) in loaded.entries.iter().enumerate() {
            let c = &cells[a][e];
            let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
            let _ = writeln!(
                md,
                "| {} | {} ({}{}) | {}/{} ({:.0}-{:.0} %) | {} | {} | {} | {} | {:.1} ms |",
                alg.label,
                spec.puzzles[e].label(),
                entry.puzzles,
                entry
                    .givens
                    .map_or(String::new(), |g| format!(", {g} givens")),
                c.successes,
                c.runs,
                100.0 * lo,
                100.0 * hi,
                five(summarize(&c.generations)),
                five(summarize(&c.evaluations)),
                ert_cell(c),
                penalty_cell(c.penalty()),
                c.total_wall_ms / c.runs.max(1) as f64,
            );
        }
    }
    md
}

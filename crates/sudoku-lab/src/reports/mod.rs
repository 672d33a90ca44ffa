//! Reports: everything written from a finished `runs.csv` beside it. [`write`] is the one entry
//! point: summary.csv for every protocol, then the report the spec names (`report = ...`) with
//! the charts it draws. One module per report type:
//!
//! - [`table1`] - Ret-GA Table 1, Fig. 7, the performance index and Fig. 8;
//! - [`ablation`] - variants against a published table's rows (RESEDA Tables 1-5, the Ret-GA and
//!   M&K ablations), with their charts;
//! - [`grades`] - RESEDA Figure 4.2 (per-cell correctness grades);
//! - [`counter`] - an algorithm counter against its published values (Benbassat);
//! - [`effort`] - success and effort without published values (`effort`, `versus`, with the
//!   sensitivity chart);
//! - [`levels`] - per-puzzle results by difficulty level (Ret-GA journal Tables 2-4);
//! - [`compare`] - the benchmark comparison of several solvers over many puzzles.
//!
//! Before any of them: [`table_checks`], the published tables' own arithmetic (can any sample
//! have what a row prints?), written by `sudoku-lab check-tables`.
//!
//! Shared by them: [`groups`] (runs grouped per algorithm and puzzle entry, summary.csv, the
//! published tables), [`verdicts`] (cell-by-cell tests against the paper), [`quick`] (the
//! `--quick` marks), [`warnings`] (failed runs, skipped charts, wall limits and short budgets:
//! report.md's "Warnings" section and stderr).

pub mod ablation;
pub mod compare;
pub mod counter;
pub mod effort;
pub mod format;
pub mod grades;
pub mod groups;
mod inputs;
pub mod levels;
pub mod phase;
mod published_csv;
pub mod quick;
pub mod seeds;
pub mod table1;
pub mod table_checks;
pub mod verdicts;
pub mod warnings;

pub use inputs::{Inputs, Published};

use crate::protocol::io::write_atomic;
use anyhow::{Context, Result};
use groups::{Group, PublishedRow};

/// summary.csv (every protocol, shards too); returns the runs grouped per algorithm and
/// puzzle entry.
pub fn write_summary(inp: &Inputs) -> Result<Vec<Vec<Group>>> {
    let runs_path = inp.out.join("runs.csv");
    let groups = groups::groups(inp.spec, inp.loaded, &runs_path)?;
    groups::write_summary(
        &inp.out.join("summary.csv"),
        inp.spec,
        &inp.loaded.entries,
        &groups,
    )?;
    Ok(groups)
}

/// The report the spec names, with its tables and charts, and report.md. A `--quick` run says
/// so in every chart title and on report.md's first line.
pub fn write(inp: &Inputs, groups: &[Vec<Group>]) -> Result<()> {
    let _ = warnings::take_charts();
    let _quick = inp.quick_cap.map(|g| quick::mark(inp.runs, g));
    let (spec, out) = (inp.spec, inp.out);
    let runs_path = out.join("runs.csv");
    let published = inp.published.rows.as_deref();
    let needs_published =
        || published.with_context(|| format!("report {} needs published values", spec.report));
    let md = match spec.report.as_str() {
        "grades" => {
            let paper = inp
                .published
                .grades
                .as_deref()
                .context("report grades needs published grades")?;
            Some(grades::report(
                spec,
                &inp.loaded.puzzles[0],
                &runs_path,
                paper,
                out,
            )?)
        }
        "counter" => Some(counter_report(inp, needs_published()?)?),
        "effort" | "versus" => Some(effort::report(
            spec,
            inp.loaded,
            &runs_path,
            out,
            inp.wall,
            inp.threads,
        )?),
        "compare" => Some(compare::write(inp)?),
        "phase" => Some(phase::write(inp)?),
        "levels" => {
            let levels = inp
                .published
                .levels
                .as_deref()
                .context("report levels needs published_levels")?;
            let note = levels::RunNote {
                runs: inp.runs,
                quick_cap: inp.quick_cap,
                wall: inp.wall,
                threads: inp.threads,
            };
            Some(levels::report(
                spec, inp.loaded, groups, levels, out, &note,
            )?)
        }
        "ablation" => Some(ablation::write(inp, groups, needs_published()?)?),
        "table1" => {
            table1::report(
                spec,
                &inp.loaded.entries,
                groups,
                needs_published()?,
                out,
                inp.wall,
                inp.threads,
            )?;
            None
        }
        _ => None,
    };
    if let Some(md) = md {
        write_atomic(&out.join("report.md"), md.as_bytes())?;
    }
    if let Some(g) = inp.quick_cap {
        quick::mark_report(&out.join("report.md"), inp.runs, g)?;
    }
    write_warnings(inp)
}

/// The warnings of a finished protocol (budgets below an algorithm's schedule, runs ended by a
/// wall limit, charts skipped) in report.md's "Warnings" section at the end, when the report
/// wrote report.md, and on stderr but for the budgets (said before the runs).
fn write_warnings(inp: &Inputs) -> Result<()> {
    let (spec, out) = (inp.spec, inp.out);
    let failures = warnings::failures(spec, &out.join("runs.csv"))?;
    let mut all = warnings::short_budgets(spec, &inp.loaded.puzzles, inp.quick_cap);
    // The short budgets were said on stderr before the runs (once per protocol): here they
    // go to report.md only.
    let said = all.len();
    all.extend(warnings::wall_limits(spec, &failures));
    let (skipped, charts): (Vec<String>, Vec<String>) = warnings::take_charts().into_iter().unzip();
    all.extend(charts);
    for w in &all[said..] {
        eprintln!("warning: {w}");
    }
    let report = out.join("report.md");
    if all.is_empty() || spec.report == "none" || !report.is_file() {
        return Ok(());
    }
    let md = std::fs::read_to_string(&report)
        .with_context(|| format!("cannot read {}", report.display()))?;
    let mut md = warnings::unlink_charts(&md, &skipped);
    md.push_str(&warnings::section(&all));
    write_atomic(&report, md.as_bytes())
}

/// `report = "counter"`: the counter's table and report.md, and with `trajectory` its chart.
fn counter_report(inp: &Inputs, published: &[PublishedRow]) -> Result<String> {
    let spec = inp.spec;
    let runs_path = inp.out.join("runs.csv");
    let name = spec
        .counter
        .as_deref()
        .context("report counter needs the key `counter`")?;
    let md = counter::report(
        spec, inp.loaded, &runs_path, published, name, inp.out, inp.wall,
    )?;
    if let Some(prefix) = &spec.trajectory {
        counter::trajectory(spec, &runs_path, prefix, inp.out)?;
    }
    Ok(md)
}

//! What a finished protocol must say loudly, from its runs.csv, so that a resumed folder says
//! the same: the failed runs of each algorithm (a failure reason in `termination`, not a stop
//! of the search) and the algorithms without a single valid run; and the warnings of
//! report.md's "Warnings" section, also printed on stderr: charts that could not be drawn
//! (skipped: the runs and the tables are what matter, so a chart never fails a finished
//! protocol), runs ended by an external solver's wall limit, and budgets below an algorithm's
//! own schedule.

use crate::spec::Spec;
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use sudoku_core::Termination;

/// Charts not drawn since the last [`take_charts`]: (file stem, warning).
static CHARTS: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

/// A chart's result, never an error of its report: a chart that cannot be drawn (too many
/// series or panels for the largest figure, a file that cannot be written, ...) is skipped,
/// its files removed (so that no chart of an earlier session stands beside the new tables),
/// and a warning kept for report.md and stderr.
pub fn chart<E: std::fmt::Display>(svg: &Path, png: &Path, result: Result<(), E>) -> Result<()> {
    if let Err(e) = result {
        for p in [svg, png] {
            let _ = std::fs::remove_file(p);
        }
        let name = (svg.file_stem()).map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let line = format!(
            "chart `{name}` (.svg, .png) not drawn, skipped: {}",
            e.to_string().replace('\n', " ")
        );
        if let Ok(mut c) = CHARTS.lock() {
            c.push((name, line));
        }
    }
    Ok(())
}

/// The charts skipped since the last call, (file stem, warning), in the order they were drawn.
pub fn take_charts() -> Vec<(String, String)> {
    CHARTS
        .lock()
        .map(|mut c| std::mem::take(&mut *c))
        .unwrap_or_default()
}

/// `md` with each image of a chart of `skipped` (`![alt](NAME.png)`) replaced by a note that
/// it was not drawn, so that report.md (and the site made of it) shows no broken image.
pub fn unlink_charts(md: &str, skipped: &[String]) -> String {
    let mut md = md.to_string();
    for name in skipped {
        let target = format!("]({name}.png)");
        while let Some(end) = md.find(&target) {
            let Some(start) = md[..end].rfind("![") else {
                break;
            };
            let note = format!("*(chart `{name}` not drawn: see Warnings)*");
            md.replace_range(start..end + target.len(), &note);
        }
    }
    md
}

/// The runs of one algorithm in runs.csv, with its failures by reason.
#[derive(Debug, Default, Clone)]
pub struct Failures {
    pub runs: usize,
    /// Failure reason (`termination`) -> runs.
    pub reasons: BTreeMap<String, usize>,
    /// Runs ended by a wall limit.
    pub wall_limited: usize,
    /// The longest wall time of a run that ended on its own (no failure), milliseconds.
    pub longest_ok_ms: Option<f64>,
}

impl Failures {
    pub fn failed(&self) -> usize {
        self.reasons.values().sum()
    }
    /// Runs, but none valid: every run failed.
    pub fn none_valid(&self) -> bool {
        self.runs > 0 && self.failed() == self.runs
    }
    /// "4 of 4 runs failed (crashed 2, exit_status 2)".
    pub fn describe(&self) -> String {
        let each: Vec<String> = (self.reasons.iter())
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        format!(
            "{} of {} runs failed ({})",
            self.failed(),
            self.runs,
            each.join(", ")
        )
    }
}

/// Whether a `termination` is a failure: anything but the ways a search stops (solved, a
/// limit, converged), so that a reason added to the external protocol counts too.
/// `invalid_claim` is a failure.
pub fn is_failure(termination: &str) -> bool {
    !Termination::ALL.iter().any(|t| t.as_str() == termination)
}

/// Each algorithm's runs and failures (the spec's order), read row by row from `runs_path`.
pub fn failures(spec: &Spec, runs_path: &Path) -> Result<Vec<Failures>> {
    let mut of: Vec<Failures> = vec![Failures::default(); spec.algorithms.len()];
    let index: BTreeMap<&str, usize> = (spec.algorithms.iter().enumerate())
        .map(|(i, a)| (a.label.as_str(), i))
        .collect();
    crate::protocol::io::for_each_row(runs_path, |r| {
        let Some(f) = index.get(r.algorithm.as_str()).map(|&i| &mut of[i]) else {
            return Ok(());
        };
        f.runs += 1;
        if is_failure(&r.termination) {
            *f.reasons.entry(r.termination.clone()).or_default() += 1;
            f.wall_limited += usize::from(r.termination == "wall_limit");
        } else {
            f.longest_ok_ms = Some(f.longest_ok_ms.map_or(r.wall_ms, |m| m.max(r.wall_ms)));
        }
        Ok(())
    })?;
    Ok(of)
}

/// A warning for each algorithm some of whose runs a wall limit ended: how many, the limit,
/// and how to size it from the longest run that ended on its own.
pub fn wall_limits(spec: &Spec, failures: &[Failures]) -> Vec<String> {
    let mut lines = Vec::new();
    for (a, f) in spec.algorithms.iter().zip(failures) {
        if f.wall_limited == 0 {
            continue;
        }
        let limit = a
            .wall_seconds
            .unwrap_or(crate::algos::external::DEFAULT_WALL_SECONDS);
        let hint = match f.longest_ok_ms {
            Some(ms) => format!(
                "raise wall_seconds well above the longest run that ended on its own, {:.1} s (a loaded machine runs slower)",
                ms / 1e3
            ),
            None => "no run ended within it: raise wall_seconds (or check that the solver ends its runs)".to_string(),
        };
        lines.push(format!(
            "algorithm '{}': the wall limit (wall_seconds = {limit}) ended {} of {} runs, counted as failed; {hint}",
            a.label, f.wall_limited, f.runs
        ));
    }
    lines
}

/// A warning for each algorithm whose `max_evaluations` is below its own schedule's length
/// on some puzzles ([`crate::algos::short_budget`]).
pub fn short_budgets(
    spec: &Spec,
    puzzles: &[sudoku_core::Puzzle],
    cap: Option<u64>,
) -> Vec<String> {
    (spec.algorithms.iter())
        .filter_map(|a| {
            let max = a.budget(cap).max_evaluations?;
            let short = crate::algos::short_budget(&a.algorithm, &a.params, max, puzzles)?;
            Some(format!(
                "algorithm '{}' ({}): {short}",
                a.label, a.algorithm
            ))
        })
        .collect()
}

/// report.md's "Warnings" section of `warnings` (empty when there are none).
pub fn section(warnings: &[String]) -> String {
    if warnings.is_empty() {
        return String::new();
    }
    let items: Vec<String> = warnings.iter().map(|w| format!("- {w}\n")).collect();
    format!("\n## Warnings\n\n{}", items.concat())
}

//! Published values against ours, cell by cell: comparison.csv (every published cell with its
//! test and Holm-adjusted verdict) and the report of an ablation (variants against a published
//! table's rows). Used by the Table 1 report (`table1.rs`) and every `report = "ablation"`.

use crate::io::write_atomic_with;
use crate::report::{Group, PublishedRow};
use crate::spec::Entry;
use crate::spec::Spec;
use anyhow::Result;
use lab_stats::{fisher_exact_two_sided, holm_adjust, welch_t_test};
use std::io::Write;
use std::path::Path;

/// Significance level of the verdicts (after Holm adjustment).
pub const ALPHA: f64 = 0.05;

/// One comparison line.
#[derive(Debug, Clone)]
pub struct Cell {
    pub family: &'static str,
    pub level: String,
    pub puzzle: String,
    pub algorithm: String,
    pub statistic: &'static str,
    pub paper: f64,
    pub ours: Option<f64>,
    pub test: &'static str,
    pub p: Option<f64>,
    pub p_holm: Option<f64>,
}

impl Cell {
    fn verdict(&self) -> String {
        match (self.p_holm, self.ours) {
            (Some(p), Some(o)) if p < ALPHA => {
                format!(
                    "differs ({})",
                    if o > self.paper {
                        "ours higher"
                    } else {
                        "ours lower"
                    }
                )
            }
            (Some(_), _) => "consistent".into(),
            (None, _) if self.test == "none" => "descriptive".into(),
            _ => "n/a".into(),
        }
    }
}

/// Build every comparison cell: for each published row (level, algorithm), each spec puzzle
/// with that label and each spec algorithm with that paper label. Success counts: Fisher's
/// exact test on (ours successes / runs) against (paper count / paper runs). Means: Welch's
/// t-test from the published mean, SD and count against ours (needs >= 2 successes on each
/// side). Minimum, maximum, median, SD: shown with their ratio, no test (no sampling
/// distribution can be derived from the published numbers alone). Holm adjustment within each
/// family: "primary" (the puzzles taken as the paper's) and "candidate" (uncertain files).
pub fn comparison(
    spec: &Spec,
    puzzles: &[Entry],
    g: &[Vec<Group>],
    published: &[PublishedRow],
) -> Vec<Cell> {
    let mut cells = Vec::new();
    for row in published {
        for (p, pref) in spec.puzzles.iter().enumerate() {
            if pref.label() != row.level {
                continue;
            }
            for (a, alg) in spec.algorithms.iter().enumerate() {
                if alg.paper_label.as_deref() != Some(row.algorithm.as_str()) {
                    continue;
                }
                let x = &g[a][p];
                let s = x.generations();
                let family = if pref.primary { "primary" } else { "candidate" };
                let puzzle_id = puzzles[p].id.clone();
                let base = |statistic, paper, ours, test, p_value| Cell {
                    family,
                    level: row.level.clone(),
                    puzzle: puzzle_id.clone(),
                    algorithm: alg.label.clone(),
                    statistic,
                    paper,
                    ours,
                    test,
                    p: p_value,
                    p_holm: None,
                };
                if let Some(gv) = row.givens {
                    cells.push(base(
                        "givens",
                        gv as f64,
                        puzzles[p].givens.map(|g| g as f64),
                        "none",
                        None,
                    ));
                }
                if let (Some(count), Some(runs)) = (row.count, row.runs) {
                    let fisher = fisher_exact_two_sided(
                        x.successes,
                        x.runs - x.successes,
                        count,
                        runs.saturating_sub(count),
                    );
                    cells.push(base(
                        "count",
                        count as f64,
                        Some(x.successes as f64),
                        "fisher_exact",
                        Some(fisher),
                    ));
                }
                let published_count = row.count.unwrap_or(0);
                if let Some(avg) = row.average {
                    let (test, p_value) = match row.sd {
                        None => ("none (no published SD)", None),
                        Some(sd) => {
                            let w = s
                                .filter(|s| s.n >= 2 && published_count >= 2)
                                .and_then(|s| {
                                    welch_t_test(s.mean, s.sd, s.n as u64, avg, sd, published_count)
                                        .ok()
                                });
                            match w {
                                Some(w) => ("welch_t", Some(w.p_value)),
                                None => ("welch_t (too few successes)", None),
                            }
                        }
                    };
                    cells.push(base("average", avg, s.map(|s| s.mean), test, p_value));
                }
                for (name, paper, ours) in [
                    ("minimum", row.minimum, s.map(|s| s.min)),
                    ("maximum", row.maximum, s.map(|s| s.max)),
                    ("median", row.median, s.map(|s| s.median)),
                    ("sd", row.sd, s.filter(|s| s.n >= 2).map(|s| s.sd)),
                ] {
                    if let Some(v) = paper {
                        cells.push(base(name, v, ours, "none", None));
                    }
                }
                if let Some(t) = row.ets_s {
                    let ours = lab_stats::ert(x.total_wall_ms / 1e3, x.successes);
                    cells.push(base("ets_s", t, Some(ours), "none (other machine)", None));
                }
                if let Some(t) = row.time_s {
                    // Seconds per run, measured single-threaded inside each run; a ratio to a
                    // different machine, never a test.
                    let ours = x.total_wall_ms / x.runs.max(1) as f64 / 1e3;
                    cells.push(base("time_s", t, Some(ours), "none (other machine)", None));
                }
            }
        }
    }
    for family in ["primary", "candidate"] {
        let idx: Vec<usize> = (0..cells.len())
            .filter(|&i| cells[i].family == family && cells[i].p.is_some())
            .collect();
        let ps: Vec<f64> = idx
            .iter()
            .map(|&i| cells[i].p.unwrap_or(f64::NAN))
            .collect();
        for (&i, q) in idx.iter().zip(holm_adjust(&ps)) {
            cells[i].p_holm = Some(q);
        }
    }
    cells
}

fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            if x.fract() == 0.0 && x.abs() < 1e15 {
                format!("{x:.0}")
            } else {
                format!("{x:.4}")
            }
        }
        _ => String::new(),
    }
}

fn pval(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x:.4e}"),
        _ => String::new(),
    }
}

pub fn write_comparison(path: &Path, spec: &Spec, cells: &[Cell]) -> Result<()> {
    write_atomic_with(path, |w| {
        writeln!(w, "experiment,family,level,puzzle,algorithm,statistic,paper,ours,ratio,test,p_value,p_holm,verdict")?;
        for c in cells {
            let ratio = c.ours.filter(|_| c.paper != 0.0).map(|o| o / c.paper);
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                spec.id,
                c.family,
                c.level,
                c.puzzle,
                c.algorithm,
                c.statistic,
                num(Some(c.paper)),
                num(c.ours),
                ratio.map(|r| format!("{r:.3}")).unwrap_or_default(),
                c.test,
                pval(c.p),
                pval(c.p_holm),
                c.verdict()
            )?;
        }
        Ok(())
    })
}

/// A published "average (SD)" cell, with what the paper prints.
pub fn paper_avg_sd(r: &PublishedRow) -> String {
    match (r.average, r.sd) {
        (Some(a), Some(sd)) => format!("{a:.1} ({sd:.1})"),
        (Some(a), None) => format!("{a:.1}"),
        _ => "-".into(),
    }
}

/// report.md of an ablation: one row per (variant, puzzle), success and average generations
/// with the Holm-adjusted p-values against the paper's row for the variant's paper label.
pub fn ablation_markdown(
    spec: &Spec,
    puzzles: &[Entry],
    g: &[Vec<Group>],
    cells: &[Cell],
    published: &[PublishedRow],
    wall_seconds: f64,
    threads: usize,
) -> String {
    let has_time = published.iter().any(|r| r.time_s.is_some());
    let has_ets = published.iter().any(|r| r.ets_s.is_some());
    let mut s = format!(
        "Generated by `sudoku-lab reproduce {}` ({:.0} s wall on {threads} threads). Successes of the runs and average effort (generations, rounds) of successful runs (SD where published), with the Holm-adjusted p-values (Fisher; Welch where the paper prints an SD) against the paper's row.{}\n\n| Variant | Puzzle | paper successes | ours | p | paper avg (SD) | ours avg (SD) | p |",
        spec.id,
        wall_seconds,
        if has_time || has_ets {
            " Times are seconds per run (attempt), ours measured single-threaded inside each run on this machine, the paper's on an Intel Core 2 Duo 2.66 GHz: compare them as ratios, not values."
        } else {
            ""
        }
    );
    let mut rule = "|---|---|---|---|---|---|---|---|".to_string();
    if has_time {
        s.push_str(" paper time | ours time | ratio |");
        rule.push_str("---|---|---|");
    }
    if has_ets {
        s.push_str(" paper ETS | ours ETS | ratio |");
        rule.push_str("---|---|---|");
    }
    s.push('\n');
    s.push_str(&rule);
    s.push('\n');
    let p = |c: Option<&Cell>| match c.and_then(|c| c.p_holm) {
        Some(q) if q < 0.001 => "<0.001".to_string(),
        Some(q) => format!("{q:.3}"),
        None => "-".into(),
    };
    for (a, alg) in spec.algorithms.iter().enumerate() {
        for (i, pref) in spec.puzzles.iter().enumerate() {
            let x = &g[a][i];
            let row = published.iter().find(|r| {
                r.level == pref.label() && Some(r.algorithm.as_str()) == alg.paper_label.as_deref()
            });
            let cell = |stat: &str| {
                cells.iter().find(|c| {
                    c.puzzle == puzzles[i].id && c.algorithm == alg.label && c.statistic == stat
                })
            };
            let ours_avg = match x.generations() {
                Some(s) if s.n >= 2 => format!("{:.1} ({:.1})", s.mean, s.sd),
                Some(s) => format!("{:.1} (n = 1)", s.mean),
                None => "-".into(),
            };
            s.push_str(&format!(
                "| {} | {} | {} | {}/{} | {} | {} | {} | {} |",
                alg.label,
                pref.label(),
                row.and_then(|r| Some(format!("{}/{}", r.count?, r.runs?)))
                    .unwrap_or_else(|| "-".into()),
                x.successes,
                x.runs,
                p(cell("count")),
                row.map_or("-".into(), paper_avg_sd),
                ours_avg,
                p(cell("average")),
            ));
            let ratio_cols = |c: Option<&Cell>| match c {
                Some(c) => {
                    let ours = c.ours.filter(|v| v.is_finite());
                    format!(
                        " {:.3} | {} | {} |",
                        c.paper,
                        ours.map_or("-".into(), |v| format!("{v:.4}")),
                        ours.map_or("-".into(), |v| format!("{:.3}", v / c.paper)),
                    )
                }
                None => " - | - | - |".into(),
            };
            if has_time {
                s.push_str(&ratio_cols(cell("time_s")));
            }
            if has_ets {
                s.push_str(&ratio_cols(cell("ets_s")));
            }
            s.push('\n');
        }
    }
    s
}

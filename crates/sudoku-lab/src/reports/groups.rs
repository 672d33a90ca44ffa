//! runs.csv -> summary.csv -> comparison.csv, pi.csv and charts. Each step reads files the
//! previous step wrote, so any of them can be regenerated alone (`sudoku-lab report`).

use crate::protocol::io::{for_each_row, write_atomic_with};
use crate::spec::Spec;
use crate::spec::{Entry, Loaded};
use anyhow::{bail, Result};
use lab_stats::{summarize, Summary};
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

/// Per (algorithm, puzzle): counts over all runs, and the effort of the successful ones.
#[derive(Debug, Clone, Default)]
pub struct Group {
    pub runs: u64,
    pub successes: u64,
    /// Generations of successful runs (the papers' statistics are over successful runs).
    pub success_generations: Vec<f64>,
    pub success_evaluations: Vec<f64>,
    pub total_generations: f64,
    pub total_evaluations: f64,
    pub total_wall_ms: f64,
}

impl Group {
    pub fn generations(&self) -> Option<Summary> {
        summarize(&self.success_generations)
    }
}

/// Groups indexed `[algorithm][puzzle]` in spec order, streamed from runs.csv.
pub fn groups(spec: &Spec, loaded: &Loaded, runs_path: &Path) -> Result<Vec<Vec<Group>>> {
    let a_idx: HashMap<&str, usize> = spec
        .algorithms
        .iter()
        .enumerate()
        .map(|(i, a)| (a.label.as_str(), i))
        .collect();
    let p_idx: HashMap<&str, usize> = loaded
        .entry_of
        .iter()
        .map(|(id, &e)| (id.as_str(), e))
        .collect();
    let mut g = vec![vec![Group::default(); loaded.entries.len()]; spec.algorithms.len()];
    for_each_row(runs_path, |r| {
        let (Some(&a), Some(&p)) = (
            a_idx.get(r.algorithm.as_str()),
            p_idx.get(r.puzzle.as_str()),
        ) else {
            bail!(
                "runs.csv has a row for {}/{} which is not in the spec",
                r.algorithm,
                r.puzzle
            );
        };
        let x = &mut g[a][p];
        x.runs += 1;
        x.total_generations += r.generations as f64;
        x.total_evaluations += r.evaluations as f64;
        x.total_wall_ms += r.wall_ms;
        if r.solved == 1 {
            x.successes += 1;
            x.success_generations.push(r.generations as f64);
            x.success_evaluations.push(r.evaluations as f64);
        }
        Ok(())
    })?;
    Ok(g)
}

fn opt(v: Option<f64>, digits: usize) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x:.digits$}"),
        _ => String::new(),
    }
}

/// A CSV field, quoted when it holds a comma, quote or line break (a paper_label such as
/// "both, alpha 0.7").
pub fn csv_field(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\"")).into()
    } else {
        s.into()
    }
}

/// summary.csv: per algorithm x puzzle, success and min/max/mean/median/SD of generations over
/// successful runs (as the papers report), mean evaluations of successful runs, ERT
/// (total effort over all runs / successes) in evaluations and generations, mean wall time,
/// and the expected time to a success (RESEDA's ETS: total time / successes, seconds).
pub fn write_summary(path: &Path, spec: &Spec, puzzles: &[Entry], g: &[Vec<Group>]) -> Result<()> {
    write_atomic_with(path, |w| {
        writeln!(w, "experiment,algorithm,paper_label,puzzle,label,primary,givens,puzzles,runs,successes,success_rate,gen_min,gen_max,gen_mean,gen_median,gen_sd,eval_mean_success,ert_evaluations,ert_generations,wall_ms_mean,ets_seconds")?;
        for (a, alg) in spec.algorithms.iter().enumerate() {
            for (p, puzzle) in puzzles.iter().enumerate() {
                let x = &g[a][p];
                let s = x.generations();
                let ev = summarize(&x.success_evaluations);
                let pref = &spec.puzzles[p];
                writeln!(
                    w,
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                    spec.id,
                    alg.label,
                    csv_field(alg.paper_label.as_deref().unwrap_or("")),
                    puzzle.id,
                    pref.label(),
                    pref.primary,
                    puzzle.givens.map_or(String::new(), |g| g.to_string()),
                    puzzle.puzzles,
                    x.runs,
                    x.successes,
                    opt(Some(x.successes as f64 / x.runs.max(1) as f64), 4),
                    opt(s.map(|s| s.min), 0),
                    opt(s.map(|s| s.max), 0),
                    opt(s.map(|s| s.mean), 2),
                    opt(s.map(|s| s.median), 1),
                    // The SD of a single success is undefined: left blank.
                    opt(s.filter(|s| s.n >= 2).map(|s| s.sd), 2),
                    opt(ev.map(|s| s.mean), 1),
                    opt(Some(lab_stats::ert(x.total_evaluations, x.successes)), 1),
                    opt(Some(lab_stats::ert(x.total_generations, x.successes)), 1),
                    opt(Some(x.total_wall_ms / x.runs.max(1) as f64), 3),
                    opt(Some(lab_stats::ert(x.total_wall_ms / 1e3, x.successes)), 4),
                )?;
            }
        }
        Ok(())
    })
}

/// A row of a published table in the Table 1 layout.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedRow {
    /// The paper's row (a puzzle or a level), matched to a spec puzzle's `label`.
    pub level: String,
    #[serde(default)]
    pub givens: Option<usize>,
    /// The paper's column, matched to a spec algorithm's `paper_label`.
    pub algorithm: String,
    /// Runs and successful runs (empty where the paper gives none).
    #[serde(default)]
    pub runs: Option<u64>,
    #[serde(default)]
    pub count: Option<u64>,
    /// Effort of the successful runs, in the paper's unit (generations, rounds); empty cells
    /// are values the paper does not print.
    #[serde(default)]
    pub minimum: Option<f64>,
    #[serde(default)]
    pub maximum: Option<f64>,
    #[serde(default)]
    pub average: Option<f64>,
    #[serde(default)]
    pub median: Option<f64>,
    #[serde(default)]
    pub sd: Option<f64>,
    /// Mean time per run in seconds, on the paper's machine.
    #[serde(default)]
    pub time_s: Option<f64>,
    /// Expected time to a success in seconds (time per run / success rate).
    #[serde(default)]
    pub ets_s: Option<f64>,
}

/// The columns of a published table in the Table 1 layout, and those it must have.
pub(crate) const PUBLISHED_COLUMNS: [&str; 12] = [
    "level",
    "givens",
    "algorithm",
    "runs",
    "count",
    "minimum",
    "maximum",
    "average",
    "median",
    "sd",
    "time_s",
    "ets_s",
];

/// The most runs (and successful runs) a published row may state. Papers report hundreds or
/// thousands; a count near 2^64 would overflow the margins of Fisher's exact test (a NaN
/// p-value, which rejects every reading), and its log-gamma terms lose their precision long
/// before that. At this bound every test of a race gives a p-value in [0, 1].
pub const MAX_PUBLISHED_RUNS: u64 = 1_000_000_000;

/// A published table in the Table 1 layout; errors name `name` (the spec key and the file)
/// and the line, and never repeat the file's text ([`super::published_csv`]). Refused: a
/// `runs` or `count` above [`MAX_PUBLISHED_RUNS`], and two rows of one cell (the same
/// `level` and `algorithm`: a duplicated row would be tested twice, halving the threshold of
/// every other test; two different rows contradict each other).
pub fn parse_published(text: &str, name: &str) -> Result<Vec<PublishedRow>> {
    let rows: Vec<(u64, PublishedRow)> =
        super::published_csv::read_rows(text, name, &PUBLISHED_COLUMNS, &["level", "algorithm"])?;
    let mut cells: HashMap<(&str, &str), u64> = HashMap::new();
    for (line, r) in &rows {
        for (key, value) in [("runs", r.runs), ("count", r.count)] {
            if let Some(v) = value.filter(|v| *v > MAX_PUBLISHED_RUNS) {
                bail!(
                    "{name}:{line}: column '{key}': {v} runs are over the limit of {MAX_PUBLISHED_RUNS}"
                );
            }
        }
        if let Some(first) = cells.insert((&r.level, &r.algorithm), *line) {
            bail!(
                "{name}:{first} and {name}:{line}: two rows of one cell (the same level and algorithm); a published table has one row per cell"
            );
        }
    }
    Ok(rows.into_iter().map(|(_, r)| r).collect())
}

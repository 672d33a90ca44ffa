//! Synthetic papers: a published table made from a hidden reading, to check that a race keeps
//! the reading a table came from and eliminates others. The hidden reading's protocol (the
//! race's puzzles, the full protocol's runs even under `--max-runs`, full budget) is run under
//! another master seed by the protocol runner itself, into `synthetic/runs.csv` of the race
//! folder, and summarised in the published layout: runs, successes, and the minimum, maximum,
//! mean, median and SD of the generations of the successful runs, keeping only the
//! statistics the paper's own row prints (so the synthetic race tests the cells, and has the
//! caps, that the real race has).

use super::Setup;
use crate::protocol::io::for_each_row;
use crate::protocol::Protocol;
use crate::reports::groups::PublishedRow;
use anyhow::{bail, Result};
use std::path::Path;

/// The master seed of a synthetic table when none is given: the spec's, plus one.
pub fn default_seed(master_seed: u64) -> u64 {
    master_seed.wrapping_add(1)
}

/// The published rows of the hidden reading `hidden` under `seed`, its runs in `dir`
/// (resumed when they are there already).
pub fn table(
    setup: &Setup,
    hidden: usize,
    seed: u64,
    dir: &Path,
    threads: usize,
) -> Result<Vec<PublishedRow>> {
    for (i, l) in setup.labels.iter().enumerate() {
        if setup.labels[..i].contains(l) {
            bail!("--synthetic: two race puzzles share the label '{l}'; a published table could not tell them apart");
        }
    }
    if seed == setup.spec.master_seed {
        bail!("--synthetic-seed must differ from the race's master seed");
    }
    let mut spec = setup.spec.clone();
    spec.master_seed = seed;
    let entries = setup.entries.len();
    spec.algorithms = (0..entries)
        .map(|e| setup.spec.algorithms[setup.solver(hidden, e)].clone())
        .collect();
    std::fs::create_dir_all(dir)?;
    // The full protocol's runs, as a paper's table has them (not the race's `--max-runs`).
    let loaded = super::loaded(&spec, &setup.loaded.puzzles, setup.protocol_runs.clone());
    let protocol = Protocol::new(&spec, &loaded, None, None)?;
    let runs_path = dir.join("runs.csv");
    protocol.run(&runs_path, true, threads)?;
    let puzzles = setup.loaded.puzzles.len();
    let mut generations: Vec<Vec<f64>> = vec![Vec::new(); entries * puzzles];
    let mut counts = vec![(0u64, 0u64); entries * puzzles];
    // Counter races: the counter of every run (the published mean and SD are of it).
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); entries * puzzles];
    let counter = spec.counter.clone();
    for_each_row(&runs_path, |r| {
        let e = spec.algorithms.iter().position(|a| a.label == r.algorithm);
        let p = setup.loaded.puzzles.iter().position(|p| p.id == r.puzzle);
        if let (Some(e), Some(p)) = (e, p) {
            let i = e * puzzles + p;
            counts[i].0 += 1;
            if let Some(c) = &counter {
                let v = crate::protocol::io::counter(&r.counters, c).unwrap_or(0);
                values[i].push(v as f64);
            }
            if r.solved == 1 {
                counts[i].1 += 1;
                generations[i].push(r.generations as f64);
            }
        }
        Ok(())
    })?;
    let mut rows = Vec::new();
    for (e, entry) in setup.entries.iter().enumerate() {
        let column = entry.paper_label.clone().unwrap_or_default();
        for p in 0..puzzles {
            let givens = setup.loaded.puzzles[p].givens();
            let i = e * puzzles + p;
            let level = &setup.labels[p];
            let made = match &counter {
                Some(_) => counter_row(level, &column, counts[i].0, &values[i]),
                None => row(level, &column, givens, counts[i], &generations[i]),
            };
            let real = (setup.rows.iter()).find(|r| &r.level == level && r.algorithm == column);
            rows.push(match real {
                Some(real) => like(made, real),
                None => made,
            });
        }
    }
    Ok(rows)
}

/// `made` with only the statistics the paper's row `real` prints (a synthetic table tests
/// the cells the real race can test, no more: same power, same caps).
fn like(made: PublishedRow, real: &PublishedRow) -> PublishedRow {
    let keep = |v: Option<f64>, r: Option<f64>| r.and(v);
    PublishedRow {
        minimum: keep(made.minimum, real.minimum),
        maximum: keep(made.maximum, real.maximum),
        average: keep(made.average, real.average),
        median: keep(made.median, real.median),
        sd: keep(made.sd, real.sd),
        count: real.count.and(made.count),
        ..made
    }
}

/// One published row of a counter: runs, and the mean and SD of the counter over them.
fn counter_row(level: &str, column: &str, runs: u64, values: &[f64]) -> PublishedRow {
    let s = lab_stats::summarize(values);
    let r2 = |v: Option<f64>| v.map(|x| (x * 100.0).round() / 100.0);
    PublishedRow {
        level: level.to_string(),
        givens: None,
        algorithm: column.to_string(),
        runs: Some(runs),
        count: None,
        minimum: None,
        maximum: None,
        average: r2(s.map(|s| s.mean)),
        median: None,
        sd: r2(s.filter(|s| s.n >= 2).map(|s| s.sd)),
        time_s: None,
        ets_s: None,
    }
}

/// One published row from runs and successes and the generations of the successes, the
/// generation values rounded to two decimals as a published table prints them.
fn row(
    level: &str,
    column: &str,
    givens: usize,
    (runs, count): (u64, u64),
    gens: &[f64],
) -> PublishedRow {
    let s = lab_stats::summarize(gens);
    let r2 = |v: Option<f64>| v.map(|x| (x * 100.0).round() / 100.0);
    PublishedRow {
        level: level.to_string(),
        givens: Some(givens),
        algorithm: column.to_string(),
        runs: Some(runs),
        count: Some(count),
        minimum: r2(s.map(|s| s.min)),
        maximum: r2(s.map(|s| s.max)),
        average: r2(s.map(|s| s.mean)),
        median: r2(s.map(|s| s.median)),
        sd: r2(s.filter(|s| s.n >= 2).map(|s| s.sd)),
        time_s: None,
        ets_s: None,
    }
}

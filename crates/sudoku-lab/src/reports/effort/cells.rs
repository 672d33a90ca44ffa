//! The runs of each (algorithm, puzzle entry), read from runs.csv: what every table and chart
//! of the effort report is computed from.

use crate::protocol::io::for_each_row;
use crate::spec::{Loaded, Spec};
use anyhow::{bail, Context, Result};
use lab_stats::{ert, summarize, Summary};
use std::collections::HashMap;
use std::path::Path;
use sudoku_core::fitness::rows_cols_missing;
use sudoku_core::{Grid, Units};

/// The runs of one (algorithm, puzzle entry).
#[derive(Debug, Clone, Default)]
pub struct Cell {
    pub runs: u64,
    pub successes: u64,
    /// Generations and evaluations of the successful runs.
    pub generations: Vec<f64>,
    pub evaluations: Vec<f64>,
    /// Evaluations of every run, +infinity for a failure.
    pub censored: Vec<f64>,
    /// Run time of every run in milliseconds (its CPU time, else its wall time), +infinity for
    /// a failure: the effort compared across evaluation units.
    pub censored_ms: Vec<f64>,
    /// Whether every run of the cell has a CPU time (else `censored_ms` mixes in wall times).
    pub all_cpu: bool,
    /// Final penalty (rows + columns missing values of the best grid) of every run.
    pub penalties: Vec<f64>,
    pub total_evaluations: f64,
    pub total_wall_ms: f64,
}

impl Cell {
    /// Adds the runs of `other` to these (the sensitivity report pools the puzzle entries).
    pub(super) fn add(&mut self, other: &Cell) {
        // An empty cell takes the other's flag; otherwise both must have CPU times.
        self.all_cpu = (self.all_cpu || self.runs == 0) && other.all_cpu;
        self.runs += other.runs;
        self.successes += other.successes;
        self.generations.extend(&other.generations);
        self.evaluations.extend(&other.evaluations);
        self.censored.extend(&other.censored);
        self.censored_ms.extend(&other.censored_ms);
        self.penalties.extend(&other.penalties);
        self.total_evaluations += other.total_evaluations;
        self.total_wall_ms += other.total_wall_ms;
    }

    /// Successes / runs (0 without a run).
    pub fn rate(&self) -> f64 {
        self.successes as f64 / self.runs.max(1) as f64
    }

    /// The final penalties over all runs.
    pub fn penalty(&self) -> Option<Summary> {
        summarize(&self.penalties)
    }

    /// Expected running time in evaluations: all evaluations / successes.
    pub fn ert(&self) -> f64 {
        ert(self.total_evaluations, self.successes)
    }
}

/// Cells indexed `[algorithm][entry]`, from runs.csv.
pub fn cells(spec: &Spec, loaded: &Loaded, runs_path: &Path) -> Result<Vec<Vec<Cell>>> {
    let geometry: HashMap<&str, sudoku_core::Geometry> = loaded
        .puzzles
        .iter()
        .map(|p| (p.id.as_str(), p.geometry()))
        .collect();
    let mut units: HashMap<usize, Units> = HashMap::new();
    let mut out = vec![vec![Cell::default(); loaded.entries.len()]; spec.algorithms.len()];
    for_each_row(runs_path, |r| {
        let (Some(a), Some(&e), Some(&geom)) = (
            spec.algorithms.iter().position(|x| x.label == r.algorithm),
            loaded.entry_of.get(&r.puzzle),
            geometry.get(r.puzzle.as_str()),
        ) else {
            bail!(
                "runs.csv has a row for {}/{} which is not in the spec",
                r.algorithm,
                r.puzzle
            );
        };
        let grid = Grid::from_line(geom, &r.grid).with_context(|| {
            format!(
                "run {}/{}/{}: the grid is not a {}x{} line",
                r.algorithm,
                r.puzzle,
                r.run,
                geom.n(),
                geom.n()
            )
        })?;
        let u = units.entry(geom.n()).or_insert_with(|| Units::new(geom));
        let c = &mut out[a][e];
        c.all_cpu = (c.all_cpu || c.runs == 0) && r.cpu_ms.is_some();
        c.runs += 1;
        c.total_evaluations += r.evaluations as f64;
        c.total_wall_ms += r.wall_ms;
        c.penalties.push(rows_cols_missing(u, grid.cells()) as f64);
        if r.solved == 1 {
            c.successes += 1;
            c.generations.push(r.generations as f64);
            c.evaluations.push(r.evaluations as f64);
            c.censored.push(r.evaluations as f64);
            c.censored_ms.push(crate::protocol::replay::recorded_ms(&r));
        } else {
            c.censored.push(f64::INFINITY);
            c.censored_ms.push(f64::INFINITY);
        }
        Ok(())
    })?;
    Ok(out)
}

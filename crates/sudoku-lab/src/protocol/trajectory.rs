//! Anytime data: with `anytime = true` in a spec, every run records its best penalty
//! so far against the fitness evaluations spent, in `trajectories.csv` beside `runs.csv`.
//!
//! The quality measure is the same for every algorithm: the values missing from the rows,
//! columns and boxes of the algorithm's current best grid (`missing_symbols_cost`, RESEDA's
//! cost; for the algorithms whose boxes are permutations by construction it equals the rows +
//! columns penalty of CSO and Lewis). Each algorithm hands the runner its current best grid
//! (by its own objective) after every generation (round, cycle, Markov chain; Lewis SA at each
//! improvement), through [`sudoku_core::Observer::best_grid`]; the recorder keeps a point only
//! when the penalty is lower than every point before it, so a trajectory is strictly
//! decreasing in penalty and increasing in evaluations. The run's final grid closes it: a
//! solved run always ends at penalty 0 at the evaluation that solved it.
//!
//! Measured on the grids each algorithm reports, the penalty is a best-so-far *of the reported
//! grids*: an algorithm whose own objective disagrees with the penalty (M&K's eq. (1), CSO's
//! 1/(1+penalty) does not) may have evaluated a lower-penalty grid that it did not keep as its
//! best. That is the honest view of what each algorithm would return if stopped there.
//!
//! File format, one line per improvement, runs in the order of `runs.csv`:
//! `experiment,algorithm,puzzle,run,evaluations,penalty`. Lines of one run are written as one
//! block, flushed before its `runs.csv` row, so a run in `runs.csv` always has its complete
//! block; on `--resume` blocks of unfinished runs are dropped, and the finished file is
//! rewritten in plan order like `runs.csv` (identical for any thread count).

use sudoku_core::fitness::missing_symbols_cost;
use sudoku_core::{Observer, Units};

/// Header of `trajectories.csv`.
pub const HEADER: &str = "experiment,algorithm,puzzle,run,evaluations,penalty";

/// File name beside `runs.csv`.
pub const FILE: &str = "trajectories.csv";

/// Records the improvements of the penalty of the grids an algorithm reports.
pub struct Recorder {
    units: Units,
    best: u32,
    points: Vec<(u64, u32)>,
}

impl Recorder {
    pub fn new(units: Units) -> Self {
        Recorder {
            units,
            best: u32::MAX,
            points: Vec::new(),
        }
    }

    fn offer(&mut self, evaluations: u64, cells: &[u8]) {
        let penalty = missing_symbols_cost(&self.units, cells);
        if penalty < self.best {
            self.best = penalty;
            self.points.push((evaluations, penalty));
        }
    }

    /// The points, closed by the run's final grid at its final evaluation count.
    pub fn finish(mut self, evaluations: u64, final_cells: &[u8]) -> Vec<(u64, u32)> {
        self.offer(evaluations, final_cells);
        self.points
    }
}

impl Observer for Recorder {
    fn wants_grids(&self) -> bool {
        true
    }
    fn best_grid(&mut self, evaluations: u64, cells: &[u8]) {
        self.offer(evaluations, cells);
    }
}

/// The lines of one run's block (each ending in a newline).
pub fn block(prefix: &str, points: &[(u64, u32)]) -> String {
    let mut s = String::with_capacity(points.len() * (prefix.len() + 16));
    for (e, p) in points {
        s.push_str(prefix);
        s.push_str(&format!(",{e},{p}\n"));
    }
    s
}

/// One parsed line of `trajectories.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    pub experiment: String,
    pub algorithm: String,
    pub puzzle: String,
    pub run: u64,
    pub evaluations: u64,
    pub penalty: u32,
}

/// Reads `trajectories.csv`, checking the header and every line.
pub fn read(path: &std::path::Path) -> anyhow::Result<Vec<Point>> {
    use anyhow::{bail, Context};
    use std::io::BufRead;
    let f = crate::spec::open_regular(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if i == 0 {
            if line != HEADER {
                bail!("{}: header is not '{HEADER}'", path.display());
            }
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let parsed = (f.len() == 6)
            .then(|| {
                Some(Point {
                    experiment: f[0].to_string(),
                    algorithm: f[1].to_string(),
                    puzzle: f[2].to_string(),
                    run: f[3].parse().ok()?,
                    evaluations: f[4].parse().ok()?,
                    penalty: f[5].parse().ok()?,
                })
            })
            .flatten();
        match parsed {
            Some(p) => out.push(p),
            None => bail!("{} line {}: not a trajectory point", path.display(), i + 1),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::Geometry;

    #[test]
    fn recorder_keeps_strict_improvements_and_closes_with_the_final_grid() {
        let units = Units::new(Geometry::for_order(4).unwrap());
        let solved: Vec<u8> = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut two = solved.clone();
        two.swap(0, 1); // row 0 and box 0 stay complete; columns 0 and 1 each miss a value
        let mut bad = solved.clone();
        bad[0] = 2; // row 0, column 0 and box 0 each miss a 1
        let mut r = Recorder::new(units);
        assert!(r.wants_grids());
        r.best_grid(10, &bad);
        r.best_grid(20, &bad);
        r.best_grid(30, &two);
        r.best_grid(35, &bad);
        let pts = r.finish(40, &solved);
        assert_eq!(pts, vec![(10, 3), (30, 2), (40, 0)]);
        assert_eq!(pts.last(), Some(&(40, 0)));
    }

    #[test]
    fn block_writes_one_line_per_point() {
        assert_eq!(
            block("x,a,p,3", &[(5, 9), (7, 0)]),
            "x,a,p,3,5,9\nx,a,p,3,7,0\n"
        );
        assert_eq!(block("x,a,p,3", &[]), "");
    }
}

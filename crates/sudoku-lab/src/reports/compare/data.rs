//! The data of `report = "compare"`: every run of a results folder with the quantities the
//! comparison needs (success, evaluations, seconds, final penalty, anytime trajectory), grouped
//! by puzzle set ("scope": the puzzle entries' `label`, and all runs pooled), and the
//! run-time views computed from them (ECDF, ERT, fixed target, fixed budget). Pure functions
//! over [`Data`], tested on hand-made runs; the statistics and charts are in `compare_report`.

use crate::protocol::io::for_each_numbered_row;
use crate::spec::{Loaded, Spec};
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::path::Path;
use sudoku_core::fitness::missing_symbols_cost;
use sudoku_core::{Grid, Units};

/// One run.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub algorithm: usize,
    /// Index into `Loaded::puzzles`.
    pub puzzle: usize,
    /// Index into [`Data::scopes`] (not counting the pooled scope).
    pub scope: usize,
    pub solved: bool,
    pub evaluations: u64,
    /// The run's time in the folder's [`Clock`]: CPU seconds when every run of the folder has
    /// `cpu_ms`, else wall seconds.
    pub seconds: f64,
    /// The run's wall-clock seconds (runs.csv `wall_ms`).
    pub wall_seconds: f64,
    /// Values missing from the rows, columns and boxes of the run's final grid.
    pub penalty: u32,
    /// (evaluations, best penalty so far) at each improvement; empty without anytime data.
    pub trajectory: Vec<(u64, u32)>,
    /// Why the run stopped (runs.csv `termination`: "solved", "generation_limit",
    /// "evaluation_limit", "converged" = the algorithm's own rule).
    pub termination: String,
}

/// Every run of a results folder.
#[derive(Debug, Clone, Default)]
pub struct Data {
    pub algorithms: Vec<String>,
    /// Puzzle-set names: the distinct `label`s of the spec's puzzle entries, in spec order.
    pub scopes: Vec<String>,
    pub puzzles: Vec<String>,
    pub runs: Vec<Run>,
    /// The largest evaluation budget of the algorithms (or the most evaluations any run spent
    /// when no algorithm has one): the right end of the run-time axes.
    pub budget: u64,
    pub anytime: bool,
    /// What the runs' seconds are.
    pub clock: Clock,
    /// Each algorithm's evaluation unit: the name of what one of its evaluations is
    /// ([`unit_of`]); counts of evaluations compare only between algorithms of one unit.
    pub units: Vec<String>,
}

/// What a folder's seconds measure: CPU time when every run has it (runs.csv `cpu_ms`), else
/// wall-clock time (folders written before the column, or a platform without the clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    Cpu,
    #[default]
    Wall,
}

impl Clock {
    /// The unit in prose and table headings: "CPU s" or "wall s".
    pub fn short(self) -> &'static str {
        match self {
            Clock::Cpu => "CPU s",
            Clock::Wall => "wall s",
        }
    }
    /// The unit in words: "CPU seconds" or "wall seconds".
    pub fn words(self) -> &'static str {
        match self {
            Clock::Cpu => "CPU seconds",
            Clock::Wall => "wall seconds",
        }
    }
    /// The unit in CSV columns and values: "cpu_seconds" or "wall_seconds".
    pub fn csv(self) -> &'static str {
        match self {
            Clock::Cpu => "cpu_seconds",
            Clock::Wall => "wall_seconds",
        }
    }
}

/// The evaluation unit of a spec's algorithm: a built-in algorithm's own name (its
/// `Algorithm::evaluation_unit` says what that is; two configurations of one algorithm count
/// the same thing), an external solver's `evaluation_unit` key, else `external:<label>` (each
/// external solver its own unit: the runner cannot see what it counts).
pub fn unit_of(a: &crate::spec::AlgorithmSpec) -> String {
    match (a.is_external(), &a.evaluation_unit) {
        (true, Some(u)) => u.clone(),
        (true, None) => format!("external:{}", a.label),
        (false, _) => a.algorithm.clone(),
    }
}

/// What one evaluation of a unit is, in words (report.md's table): the built-in algorithm's
/// own description, or the external solver's.
pub fn unit_text(a: &crate::spec::AlgorithmSpec) -> String {
    let unit = unit_of(a);
    match crate::algos::find(&unit) {
        Ok(alg) if unit != "external" => alg.evaluation_unit().to_string(),
        _ if a.is_external() && a.evaluation_unit.is_some() => format!(
            "declared by the spec as `{unit}` (the runner checks the count against the budget, not what it counts)"
        ),
        _ => crate::algos::evaluation_unit(&a.algorithm).to_string(),
    }
}

impl Data {
    /// True when algorithms `a` and `b` count evaluations in one unit.
    pub fn same_unit(&self, a: usize, b: usize) -> bool {
        self.units.get(a).is_some() && self.units.get(a) == self.units.get(b)
    }

    /// The groups of algorithms sharing a unit, in the order of their first algorithm.
    pub fn unit_groups(&self) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for a in 0..self.algorithms.len() {
            match groups.iter_mut().find(|g| self.same_unit(g[0], a)) {
                Some(g) => g.push(a),
                None => groups.push(vec![a]),
            }
        }
        groups
    }

    /// True when every algorithm counts in one unit.
    pub fn one_unit(&self) -> bool {
        self.unit_groups().len() <= 1
    }
}

/// The name of the scope of all runs.
pub const POOLED: &str = "all";

impl Data {
    /// Reads runs.csv (and trajectories.csv when the spec records anytime data).
    pub fn load(spec: &Spec, loaded: &Loaded, dir: &Path) -> Result<Data> {
        let (scopes, entry_scope) = scopes_of(spec);
        let mut data = Data {
            algorithms: spec.algorithms.iter().map(|a| a.label.clone()).collect(),
            scopes,
            puzzles: loaded.puzzles.iter().map(|p| p.id.clone()).collect(),
            anytime: spec.anytime,
            units: spec.algorithms.iter().map(unit_of).collect(),
            ..Data::default()
        };
        let mut cpu_everywhere = true;
        let mut index: HashMap<(usize, usize, u64), usize> = HashMap::new();
        let puzzle_of: HashMap<&str, usize> = loaded
            .puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.as_str(), i))
            .collect();
        let mut units: HashMap<usize, Units> = HashMap::new();
        let path = dir.join("runs.csv");
        for_each_numbered_row(&path, |line, r| {
            // Wall times are the seconds of the censored runtimes: a run that took NaN or
            // negative time has no place on them.
            if !(r.wall_ms.is_finite() && r.wall_ms >= 0.0) {
                bail!(
                    "{}:{line}: wall_ms {} is not a time (finite, >= 0)",
                    path.display(),
                    r.wall_ms
                );
            }
            let a = data.algorithms.iter().position(|x| *x == r.algorithm);
            let (Some(a), Some(&p)) = (a, puzzle_of.get(r.puzzle.as_str())) else {
                bail!(
                    "runs.csv has a row for {}/{} which is not in the spec",
                    r.algorithm,
                    r.puzzle
                );
            };
            let geom = loaded.puzzles[p].geometry();
            let grid = Grid::from_line(geom, &r.grid)
                .with_context(|| format!("run {}/{}/{}: bad grid", r.algorithm, r.puzzle, r.run))?;
            let u = units.entry(geom.n()).or_insert_with(|| Units::new(geom));
            index.insert((a, p, r.run), data.runs.len());
            data.runs.push(Run {
                algorithm: a,
                puzzle: p,
                scope: entry_scope[loaded.entry_of[&r.puzzle]],
                solved: r.solved == 1,
                evaluations: r.evaluations,
                seconds: cpu_seconds(r.cpu_ms).unwrap_or_else(|| {
                    cpu_everywhere = false;
                    r.wall_ms / 1e3
                }),
                wall_seconds: r.wall_ms / 1e3,
                penalty: missing_symbols_cost(u, grid.cells()),
                trajectory: Vec::new(),
                termination: r.termination.clone(),
            });
            Ok(())
        })?;
        data.settle_clock(cpu_everywhere);
        if spec.anytime {
            data.attach_trajectories(
                &dir.join(crate::protocol::trajectory::FILE),
                &puzzle_of,
                &index,
            )?;
        }
        let most = data.runs.iter().map(|r| r.evaluations).max().unwrap_or(1);
        data.budget = spec
            .algorithms
            .iter()
            .filter_map(|a| a.max_evaluations)
            .max()
            .unwrap_or(most)
            .max(1);
        Ok(data)
    }

    /// One clock for every run: CPU seconds when every run has them, else wall seconds (as
    /// soon as one run lacks its CPU time, every run's seconds are its wall seconds).
    pub fn settle_clock(&mut self, cpu_everywhere: bool) {
        self.clock = if cpu_everywhere && !self.runs.is_empty() {
            Clock::Cpu
        } else {
            for r in &mut self.runs {
                r.seconds = r.wall_seconds;
            }
            Clock::Wall
        };
    }

    fn attach_trajectories(
        &mut self,
        path: &Path,
        puzzle_of: &HashMap<&str, usize>,
        index: &HashMap<(usize, usize, u64), usize>,
    ) -> Result<()> {
        for pt in crate::protocol::trajectory::read(path)? {
            let a = self.algorithms.iter().position(|x| *x == pt.algorithm);
            let run = a
                .zip(puzzle_of.get(pt.puzzle.as_str()))
                .and_then(|(a, &p)| index.get(&(a, p, pt.run)));
            let Some(&k) = run else {
                bail!(
                    "{}: a point of {}/{}/{}, a run runs.csv does not have",
                    path.display(),
                    pt.algorithm,
                    pt.puzzle,
                    pt.run
                );
            };
            self.runs[k].trajectory.push((pt.evaluations, pt.penalty));
        }
        if let Some(r) = self.runs.iter().find(|r| r.trajectory.is_empty()) {
            bail!(
                "{}: no trajectory for {}/{}",
                path.display(),
                self.algorithms[r.algorithm],
                self.puzzles[r.puzzle]
            );
        }
        Ok(())
    }

    /// Scope names with the pooled scope last.
    pub fn scope_names(&self) -> Vec<String> {
        let mut s = self.scopes.clone();
        s.push(POOLED.to_string());
        s
    }

    /// The runs of algorithm `a` in scope `s` (`s == scopes.len()`: pooled).
    pub fn runs_of(&self, a: usize, s: usize) -> impl Iterator<Item = &Run> + '_ {
        let pooled = s == self.scopes.len();
        self.runs
            .iter()
            .filter(move |r| r.algorithm == a && (pooled || r.scope == s))
    }
}

/// The distinct `label`s of the spec's puzzle entries in spec order, and each entry's index
/// among them.
fn scopes_of(spec: &Spec) -> (Vec<String>, Vec<usize>) {
    let mut scopes: Vec<String> = Vec::new();
    let mut entry_scope = Vec::new();
    for p in &spec.puzzles {
        let l = p.label().to_string();
        let s = scopes.iter().position(|x| *x == l).unwrap_or_else(|| {
            scopes.push(l);
            scopes.len() - 1
        });
        entry_scope.push(s);
    }
    (scopes, entry_scope)
}

/// A run's CPU seconds from runs.csv's `cpu_ms`, None when it has none (or not a time).
fn cpu_seconds(cpu_ms: Option<f64>) -> Option<f64> {
    cpu_ms
        .filter(|c| c.is_finite() && *c >= 0.0)
        .map(|c| c / 1e3)
}

/// Success and run time of one (algorithm, scope).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Success {
    pub runs: u64,
    pub successes: u64,
    pub ci_low: f64,
    pub ci_high: f64,
    /// Expected running time (Auger & Hansen 2005; COCO): all evaluations spent by all runs
    /// over the number of successes; infinite without a success.
    pub ert_evaluations: f64,
    /// The same in the folder's seconds ([`Clock`]).
    pub ert_seconds: f64,
}

pub fn success<'a>(runs: impl Iterator<Item = &'a Run>) -> Success {
    let (mut n, mut k, mut e, mut t) = (0u64, 0u64, 0f64, 0f64);
    for r in runs {
        n += 1;
        k += r.solved as u64;
        e += r.evaluations as f64;
        t += r.seconds;
    }
    let (ci_low, ci_high) = lab_stats::wilson_interval(k, n, 1.959_964);
    Success {
        runs: n,
        successes: k,
        ci_low,
        ci_high,
        ert_evaluations: lab_stats::ert(e, k),
        ert_seconds: lab_stats::ert(t, k),
    }
}

/// Evaluations to solve of each run, `+inf` for a run that did not solve (censored at its
/// budget: it ranks behind every success, failures tie).
pub fn censored<'a>(runs: impl Iterator<Item = &'a Run>) -> Vec<f64> {
    runs.map(|r| {
        if r.solved {
            r.evaluations as f64
        } else {
            f64::INFINITY
        }
    })
    .collect()
}

/// Evaluations at which a run first reached a penalty of at most `target` (from its
/// trajectory), or `+inf`.
pub fn hitting_time(run: &Run, target: u32) -> f64 {
    run.trajectory
        .iter()
        .find(|&&(_, p)| p <= target)
        .map_or(f64::INFINITY, |&(e, _)| e as f64)
}

/// Best penalty so far of a run after `budget` evaluations: the last trajectory point at or
/// before it. A run that stopped before `budget` keeps its last value, a solved run its 0 and
/// an unsolved one (stopped by its own rule or a generation cap) its best penalty: leaving
/// unsolved early stops out while keeping solved ones would show the survivors only (issue
/// 21). `None` only before the run reported its first grid (e.g. a population larger than the
/// budget); [`fixed_budgets`] leaves such budgets out.
pub fn penalty_at(run: &Run, budget: u64) -> Option<u32> {
    run.trajectory
        .iter()
        .take_while(|&&(e, _)| e <= budget)
        .last()
        .map(|&(_, p)| p)
}

/// The fixed-budget view's evaluation counts: [`budgets`] from the first count at which every
/// run has reported a grid (that count itself opens the list when it is not a decade), so
/// that every run has a value at every count.
pub fn fixed_budgets(data: &Data) -> Vec<u64> {
    let first = (data.runs.iter())
        .filter_map(|r| r.trajectory.first().map(|p| p.0))
        .max()
        .unwrap_or(0);
    let mut out: Vec<u64> = budgets(data.budget)
        .into_iter()
        .filter(|&b| b >= first)
        .collect();
    if out.first().is_none_or(|&b| b > first) && first <= data.budget && first > 0 {
        out.insert(0, first);
    }
    out
}

/// One algorithm's effective budget: its unsolved runs that stopped before the spec's budget
/// (by the algorithm's own rule or a generation cap) and their median evaluations at stop.
#[derive(Debug, Clone, PartialEq)]
pub struct EarlyStops {
    pub unsolved: usize,
    pub early: usize,
    /// Median evaluations at stop of the early unsolved runs.
    pub median_evaluations: f64,
    /// The most frequent termination of the early runs ("converged", "generation_limit").
    pub termination: String,
}

/// The early stops of algorithm `a` against its `max_evaluations` (None without one, or when
/// no unsolved run stopped before it).
pub fn early_stops(data: &Data, a: usize, max_evaluations: Option<u64>) -> Option<EarlyStops> {
    let budget = max_evaluations?;
    let unsolved: Vec<&Run> = data
        .runs_of(a, data.scopes.len())
        .filter(|r| !r.solved)
        .collect();
    let early: Vec<&Run> = unsolved
        .iter()
        .copied()
        .filter(|r| r.evaluations < budget)
        .collect();
    let evals: Vec<f64> = early.iter().map(|r| r.evaluations as f64).collect();
    let median = lab_stats::summarize(&evals)?.median;
    let mut reasons: Vec<&str> = early.iter().map(|r| r.termination.as_str()).collect();
    reasons.sort_unstable();
    let termination = (reasons.chunk_by(|x, y| x == y))
        .max_by_key(|c| c.len())
        .map_or(String::new(), |c| c[0].to_string());
    Some(EarlyStops {
        unsolved: unsolved.len(),
        early: early.len(),
        median_evaluations: median,
        termination,
    })
}

/// Decades from 10^2 up to `budget` (and `budget` itself when it is not a power of ten): the
/// fixed-budget view's evaluation counts.
pub fn budgets(budget: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut b = 100u64;
    while b < budget {
        out.push(b);
        b = b.saturating_mul(10);
    }
    out.push(budget);
    out
}

/// The fixed-target view's penalties (values missing from rows, columns and boxes; 0 =
/// solved).
pub const TARGETS: [u32; 5] = [16, 8, 4, 2, 0];

/// The penalties after `budget` evaluations of algorithm `a`'s runs (all puzzles) that have a
/// value there (see [`penalty_at`]: at a count of [`fixed_budgets`], every run).
pub fn penalties_at(data: &Data, a: usize, budget: u64) -> Vec<f64> {
    data.runs_of(a, data.scopes.len())
        .filter_map(|r| penalty_at(r, budget))
        .map(f64::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(solved: bool, evaluations: u64, trajectory: Vec<(u64, u32)>) -> Run {
        Run {
            algorithm: 0,
            puzzle: 0,
            scope: 0,
            solved,
            evaluations,
            seconds: evaluations as f64 / 1e6,
            wall_seconds: evaluations as f64 / 1e6,
            penalty: trajectory.last().map_or(0, |p| p.1),
            trajectory,
            termination: if solved { "solved" } else { "converged" }.into(),
        }
    }

    #[test]
    fn fixed_target_and_fixed_budget_read_the_trajectory() {
        let r = run(true, 900, vec![(100, 20), (300, 7), (500, 3), (900, 0)]);
        let cases = [(20, 100.0), (16, 300.0), (4, 500.0), (3, 500.0), (0, 900.0)];
        for (target, t) in cases {
            assert_eq!(hitting_time(&r, target), t, "target {target}");
        }
        let failed = run(false, 1000, vec![(100, 20), (300, 7)]);
        assert_eq!(hitting_time(&failed, 2), f64::INFINITY);
        let budget_cases = [(&r, 50, None), (&r, 100, Some(20)), (&r, 499, Some(7))];
        for (run, b, p) in budget_cases {
            assert_eq!(penalty_at(run, b), p, "budget {b}");
        }
        // A solved run keeps 0 after it solved; a run that stopped unsolved keeps its last
        // value (before: None, so fixed-budget views kept only the solved survivors).
        assert_eq!(penalty_at(&r, 10_000), Some(0));
        assert_eq!(penalty_at(&failed, 1000), Some(7));
        assert_eq!(penalty_at(&failed, 1001), Some(7));
        assert_eq!(penalty_at(&failed, 200_000), Some(7));
    }

    #[test]
    fn every_run_has_a_value_at_every_fixed_budget() {
        let data = Data {
            algorithms: vec!["a".into()],
            runs: vec![
                run(true, 900, vec![(150, 20), (900, 0)]),
                // Stopped by its own rule long before the budget.
                run(false, 1200, vec![(300, 30), (1200, 9)]),
            ],
            budget: 200_000,
            anytime: true,
            ..Data::default()
        };
        let b = fixed_budgets(&data);
        assert_eq!(b, vec![300, 1000, 10_000, 100_000, 200_000]);
        for &x in &b {
            assert_eq!(penalties_at(&data, 0, x).len(), 2, "budget {x}");
        }
        assert_eq!(penalties_at(&data, 0, 200_000), vec![0.0, 9.0]);
        let e = early_stops(&data, 0, Some(200_000)).unwrap();
        assert_eq!((e.unsolved, e.early, e.median_evaluations), (1, 1, 1200.0));
        assert_eq!(e.termination, "converged");
        assert_eq!(early_stops(&data, 0, None), None);
    }

    #[test]
    fn success_and_ert() {
        let runs = [
            run(true, 100, vec![]),
            run(false, 1000, vec![]),
            run(true, 300, vec![]),
        ];
        let s = success(runs.iter());
        assert_eq!((s.runs, s.successes), (3, 2));
        assert_eq!(s.ert_evaluations, 700.0);
        assert!(s.ci_low < 2.0 / 3.0 && 2.0 / 3.0 < s.ci_high);
        let none = success(runs[1..2].iter());
        assert_eq!(none.ert_evaluations, f64::INFINITY);
        assert_eq!(censored(runs.iter()), vec![100.0, f64::INFINITY, 300.0]);
    }

    /// What counts as one evaluation unit: one built-in algorithm (any configuration), an
    /// external solver alone unless its spec entry names a unit.
    #[test]
    fn evaluation_units_group_the_algorithms_that_count_alike() {
        let entry = |label: &str, algorithm: &str, unit: Option<&str>| {
            let mut t =
                format!("label = \"{label}\"\nalgorithm = \"{algorithm}\"\nmax_generations = 10\n");
            if algorithm == "external" {
                t.push_str("command = [\"./s\"]\n");
            }
            if let Some(u) = unit {
                t.push_str(&format!("evaluation_unit = \"{u}\"\n"));
            }
            toml::from_str::<crate::spec::AlgorithmSpec>(&t).unwrap()
        };
        type Case<'a> = (
            &'a [(&'a str, &'a str, Option<&'a str>)],
            &'a [&'a str],
            &'a [&'a [usize]],
        );
        let cases: &[Case] = &[
            // Two configurations of one algorithm share its unit; another algorithm does not.
            (
                &[
                    ("ga", "ret-ga", None),
                    ("ga2", "ret-ga", None),
                    ("mk", "mk-ga", None),
                ],
                &["ret-ga", "ret-ga", "mk-ga"],
                &[&[0, 1], &[2]],
            ),
            // Each external solver is its own unit, whatever it is called.
            (
                &[("py", "external", None), ("c", "external", None)],
                &["external:py", "external:c"],
                &[&[0], &[1]],
            ),
            // A spec may say that external solvers count alike, or like a built-in algorithm.
            (
                &[
                    ("py", "external", Some("sa-swap")),
                    ("c", "external", Some("sa-swap")),
                    ("sa", "lewis-sa", None),
                    ("port", "external", Some("lewis-sa")),
                ],
                &["sa-swap", "sa-swap", "lewis-sa", "lewis-sa"],
                &[&[0, 1], &[2, 3]],
            ),
        ];
        for (entries, units, groups) in cases {
            let specs: Vec<_> = entries.iter().map(|&(l, a, u)| entry(l, a, u)).collect();
            let data = Data {
                algorithms: specs.iter().map(|a| a.label.clone()).collect(),
                units: specs.iter().map(unit_of).collect(),
                ..Data::default()
            };
            assert_eq!(data.units, *units, "{entries:?}");
            let want: Vec<Vec<usize>> = groups.iter().map(|g| g.to_vec()).collect();
            assert_eq!(data.unit_groups(), want, "{entries:?}");
            assert_eq!(data.one_unit(), groups.len() == 1);
            for (i, g) in groups.iter().enumerate() {
                for (j, h) in groups.iter().enumerate() {
                    assert_eq!(data.same_unit(g[0], h[h.len() - 1]), i == j);
                }
            }
        }
        assert!(unit_text(&entry("sa", "lewis-sa", None)).contains("proposed swap"));
        assert!(unit_text(&entry("c", "external", Some("x"))).contains("declared by the spec"));
    }

    #[test]
    fn budgets_are_decades_up_to_the_budget() {
        assert_eq!(
            budgets(1_000_000),
            vec![100, 1000, 10_000, 100_000, 1_000_000]
        );
        assert_eq!(budgets(250_000), vec![100, 1000, 10_000, 100_000, 250_000]);
        assert_eq!(budgets(50), vec![50]);
    }
}

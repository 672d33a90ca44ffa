//! The plan of a protocol: every (algorithm, puzzle, run) in the spec's order with its seed, and
//! the rule that cuts it into shards.
//!
//! The plan is never materialised (`runs = 10^12` once filled the memory): a job is
//! computed from its index in the plan, and sets of jobs (done, this shard's) are bit sets, so
//! a protocol holds a few bits per run besides the resume index of [`super::run`] (12 bytes per
//! run; the plan's size is checked against the memory available by
//! [`crate::spec::check_plan_memory`]).

use crate::protocol::io::Row;
use crate::spec::Spec;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use sudoku_core::{run_seed, Puzzle};

/// One planned run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    pub algorithm: usize,
    pub puzzle: usize,
    pub run: u64,
    pub seed: u64,
}

/// The plan: for every algorithm of the spec, for every puzzle, its runs, numbered from 0 in
/// that order. All algorithms share the run seeds of a (puzzle, run): common random numbers,
/// as in paired comparisons; an algorithm with its own `runs` has as many runs of every puzzle.
/// Holds two words per puzzle and per algorithm, whatever the number of runs.
pub struct Plan<'a> {
    spec: &'a Spec,
    puzzles: &'a [Puzzle],
    runs: &'a [u64],
    /// Per algorithm: its own runs of every puzzle, else None (`runs` of each puzzle).
    uniform: &'a [Option<u64>],
    /// Index of the first run of each algorithm, and the plan's length last.
    offsets: Vec<u64>,
    /// Index of the first run of each puzzle within the runs of an algorithm without its own.
    starts: Vec<u64>,
    algorithm_index: HashMap<&'a str, usize>,
    puzzle_index: HashMap<&'a str, usize>,
}

impl<'a> Plan<'a> {
    /// The plan of `spec` on its loaded `puzzles`, `runs[p]` runs of puzzle `p` by every
    /// algorithm `a` whose `uniform[a]` is None, else `uniform[a]` runs of every puzzle.
    pub fn new(
        spec: &'a Spec,
        puzzles: &'a [Puzzle],
        runs: &'a [u64],
        uniform: &'a [Option<u64>],
    ) -> Plan<'a> {
        let mut starts = Vec::with_capacity(runs.len());
        let mut shared = 0u64;
        for &r in runs {
            starts.push(shared);
            shared = shared.saturating_add(r);
        }
        let mut offsets = vec![0u64];
        for a in 0..spec.algorithms.len() {
            let n = match uniform.get(a).copied().flatten() {
                Some(n) => n.saturating_mul(runs.len() as u64),
                None => shared,
            };
            offsets.push(offsets[a].saturating_add(n));
        }
        Plan {
            spec,
            puzzles,
            runs,
            uniform,
            offsets,
            starts,
            algorithm_index: (spec.algorithms.iter().enumerate())
                .map(|(i, a)| (a.label.as_str(), i))
                .collect(),
            puzzle_index: (puzzles.iter().enumerate())
                .map(|(i, p)| (p.id.as_str(), i))
                .collect(),
        }
    }

    /// Number of runs in the plan.
    pub fn len(&self) -> u64 {
        self.offsets[self.offsets.len() - 1]
    }

    /// Algorithm `a`'s own runs of every puzzle, if it has them.
    fn uniform_of(&self, a: usize) -> Option<u64> {
        self.uniform.get(a).copied().flatten()
    }

    /// The job at plan index `i` (< [`Plan::len`]).
    pub fn job(&self, i: u64) -> Job {
        let algorithm = self.algorithm_of(i);
        let r = i - self.offsets[algorithm];
        let (puzzle, run) = match self.uniform_of(algorithm) {
            Some(n) => ((r / n) as usize, r % n),
            None => {
                let p = self.starts.partition_point(|&s| s <= r) - 1;
                (p, r - self.starts[p])
            }
        };
        Job {
            algorithm,
            puzzle,
            run,
            seed: run_seed(
                self.spec.master_seed,
                &self.spec.id,
                &self.puzzles[puzzle].id,
                run,
            ),
        }
    }

    /// The plan index of (algorithm, puzzle, run), None when the plan has no such run.
    pub fn index(&self, algorithm: usize, puzzle: usize, run: u64) -> Option<u64> {
        if algorithm >= self.spec.algorithms.len() || puzzle >= self.runs.len() {
            return None;
        }
        let first = self.offsets[algorithm];
        match self.uniform_of(algorithm) {
            Some(n) => (run < n).then(|| first + puzzle as u64 * n + run),
            None => (run < self.runs[puzzle]).then(|| first + self.starts[puzzle] + run),
        }
    }

    /// The plan index of a run named as in runs.csv (algorithm label, puzzle id, run).
    pub fn index_of(&self, algorithm: &str, puzzle: &str, run: u64) -> Option<u64> {
        self.index(
            *self.algorithm_index.get(algorithm)?,
            *self.puzzle_index.get(puzzle)?,
            run,
        )
    }

    /// The plan index and job of the run a runs.csv row names (algorithm label, puzzle id,
    /// run), None when the plan has no such run. The one lookup of a recorded row: `replay`
    /// re-executes this job (its seed from the plan, not from the row), `merge` checks the
    /// row's seed against it.
    pub fn job_of(&self, r: &Row) -> Option<(u64, Job)> {
        let i = self.index_of(&r.algorithm, &r.puzzle, r.run)?;
        Some((i, self.job(i)))
    }

    /// [`Plan::job_of`] for a row read back from a file (`at`: its file and line), checked:
    /// a row of this experiment, a run of the plan, with the plan's seed, and a claimed
    /// solution that is one ([`Plan::check_claim`]). `--resume` and `merge` take no row on
    /// trust (an edited or foreign row would pass as a run).
    pub fn checked_job(&self, at: &str, r: &Row) -> anyhow::Result<(u64, Job)> {
        let run = format!("{}/{}/{}", r.algorithm, r.puzzle, r.run);
        if r.experiment != self.spec.id {
            anyhow::bail!(
                "{at}: row of experiment '{}', not '{}'",
                r.experiment,
                self.spec.id
            );
        }
        let Some((i, job)) = self.job_of(r) else {
            anyhow::bail!("{at}: run {run} is not in the plan");
        };
        if r.seed != job.seed {
            anyhow::bail!(
                "{at}: run {run} has seed {}, the plan's is {} (an edited row)",
                r.seed,
                job.seed
            );
        }
        self.check_claim(at, r, job.puzzle)?;
        Ok((i, job))
    }

    /// A row's `solved` against its grid (`at`: its file and line): 0 or 1, and a row that
    /// claims solved holds a complete, valid grid that keeps every given of its puzzle (plan
    /// puzzle `p`), whatever the algorithm: a forged success is refused before it is counted.
    pub fn check_claim(&self, at: &str, r: &Row, p: usize) -> anyhow::Result<()> {
        let run = format!("{}/{}/{}", r.algorithm, r.puzzle, r.run);
        if r.solved > 1 {
            anyhow::bail!("{at}: run {run} has solved = {}, not 0 or 1", r.solved);
        }
        let givens = &self.puzzles[p].grid;
        let solves = || {
            sudoku_core::Grid::from_line(givens.geometry(), &r.grid)
                .is_some_and(|g| g.is_solved() && g.keeps_givens_of(givens))
        };
        if r.solved == 1 && !solves() {
            anyhow::bail!(
                "{at}: run {run} claims solved = 1 but its grid is not a solution of puzzle '{}' (incomplete, invalid or not keeping the givens: an edited row)",
                r.puzzle
            );
        }
        Ok(())
    }

    /// Every plan index, the runs of the algorithm with the largest expected cost first (ties
    /// in the spec's order), each algorithm's runs in plan order: the order in which the shard
    /// rule deals them out (runs start in [`Plan::interleaved`] order).
    pub fn by_cost<'p>(&'p self, costs: &'p [u64]) -> impl Iterator<Item = u64> + 'p {
        let mut algorithms: Vec<usize> = (0..self.spec.algorithms.len()).collect();
        algorithms.sort_by_key(|&a| Reverse(costs[a]));
        algorithms
            .into_iter()
            .flat_map(move |a| self.offsets[a]..self.offsets[a + 1])
    }

    /// Every plan index interleaved: puzzle by puzzle, run index by run index, and for each
    /// run index every algorithm in the spec's order: the order in which a protocol starts its
    /// runs, so that a change of the machine's load meanwhile falls on every algorithm alike
    /// (run r of every algorithm on a puzzle starts at nearly the same moment) rather than on
    /// whichever algorithm's block happened to run then. Files never show it: runs.csv is
    /// rewritten in plan order at the end.
    pub fn interleaved(&self) -> impl Iterator<Item = u64> + '_ {
        let algorithms = self.spec.algorithms.len();
        (0..self.runs.len()).flat_map(move |p| {
            let most = (0..algorithms)
                .map(|a| self.uniform_of(a).unwrap_or(self.runs[p]))
                .max()
                .unwrap_or(0);
            (0..most).flat_map(move |r| (0..algorithms).filter_map(move |a| self.index(a, p, r)))
        })
    }

    /// The label of algorithm `a`.
    pub fn algorithm_label(&self, a: usize) -> &str {
        &self.spec.algorithms[a].label
    }

    /// The id of puzzle `p`.
    pub fn puzzle_id(&self, p: usize) -> &str {
        &self.puzzles[p].id
    }

    /// The algorithm of plan index `i`.
    pub fn algorithm_of(&self, i: u64) -> usize {
        self.offsets.partition_point(|&o| o <= i) - 1
    }
}

/// A set of plan indices, one bit each.
#[derive(Clone, Debug)]
pub struct IndexSet {
    bits: Vec<u64>,
}

impl IndexSet {
    /// The empty set of indices below `len`.
    pub fn empty(len: u64) -> IndexSet {
        IndexSet {
            bits: vec![0; len.div_ceil(64) as usize],
        }
    }

    /// Every index below `len`.
    pub fn full(len: u64) -> IndexSet {
        let mut s = IndexSet {
            bits: vec![u64::MAX; len.div_ceil(64) as usize],
        };
        if !len.is_multiple_of(64) {
            if let Some(last) = s.bits.last_mut() {
                *last = (1u64 << (len % 64)) - 1;
            }
        }
        s
    }

    /// Add `i`; true when it was not in the set.
    pub fn insert(&mut self, i: u64) -> bool {
        let (w, b) = ((i / 64) as usize, i % 64);
        let was = self.bits[w] >> b & 1 == 1;
        self.bits[w] |= 1 << b;
        !was
    }

    pub fn contains(&self, i: u64) -> bool {
        self.bits
            .get((i / 64) as usize)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Number of indices in the set.
    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// The indices in both sets (of the same length).
    pub fn intersection(&self, other: &IndexSet) -> IndexSet {
        IndexSet {
            bits: (self.bits.iter().zip(&other.bits))
                .map(|(a, b)| a & b)
                .collect(),
        }
    }
}

/// The shard (0-based) of every run of the plan when it is cut into `n` slices balanced by
/// expected cost: the runs, longest expected first (ties in plan order, see [`Plan::by_cost`]),
/// each go to the slice with the least expected cost so far (ties to the lowest slice):
/// Graham's LPT rule. It depends only on the plan and the budgets, so every shard computes the
/// same assignment.
pub fn shard_assignment(plan: &Plan, costs: &[u64], n: usize) -> Vec<u32> {
    let mut out = vec![0u32; plan.len() as usize];
    deal(plan, costs, n, |i, s| out[i as usize] = s as u32);
    out
}

/// The runs of shard `k` (1-based) of `n` by [`shard_assignment`]'s rule, as a set.
pub fn shard_members(plan: &Plan, costs: &[u64], k: usize, n: usize) -> IndexSet {
    let mut set = IndexSet::empty(plan.len());
    deal(plan, costs, n, |i, s| {
        if s + 1 == k {
            set.insert(i);
        }
    });
    set
}

/// The LPT rule: calls `to(index, slice)` for every run of the plan.
fn deal(plan: &Plan, costs: &[u64], n: usize, mut to: impl FnMut(u64, usize)) {
    let mut loads: BinaryHeap<Reverse<(u128, usize)>> =
        (0..n.max(1)).map(|s| Reverse((0, s))).collect();
    for i in plan.by_cost(costs) {
        let Some(Reverse((load, s))) = loads.pop() else {
            return;
        };
        to(i, s);
        let cost = u128::from(costs[plan.algorithm_of(i)].max(1));
        loads.push(Reverse((load + cost, s)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"
id = "plan-test"
title = "t"
master_seed = 7
runs = 3
quick_runs = 1
quick_max_generations = 10

[[puzzles]]
id = "mk_easy"

[[puzzles]]
id = "mk_1star"

[[algorithms]]
label = "a"
algorithm = "mk-ga"
max_generations = 10

[[algorithms]]
label = "b"
algorithm = "ret-ga"
max_generations = 1000

[[algorithms]]
label = "c"
algorithm = "mk-ga"
max_generations = 100
"#;

    /// The plan as it was materialised before it became lazy: every (algorithm, puzzle, run)
    /// in the spec's order.
    fn materialised(
        spec: &Spec,
        puzzles: &[Puzzle],
        runs: &[u64],
        uniform: &[Option<u64>],
    ) -> Vec<Job> {
        let mut jobs = Vec::new();
        for (a, own) in uniform.iter().enumerate().take(spec.algorithms.len()) {
            for (p, puzzle) in puzzles.iter().enumerate() {
                for run in 0..own.unwrap_or(runs[p]) {
                    let seed = run_seed(spec.master_seed, &spec.id, &puzzle.id, run);
                    jobs.push(Job {
                        algorithm: a,
                        puzzle: p,
                        run,
                        seed,
                    });
                }
            }
        }
        jobs
    }

    /// The shard rule as it was written over the materialised plan (a linear scan for the
    /// least-loaded slice).
    fn lpt_by_scan(jobs: &[Job], costs: &[u64], n: usize) -> Vec<u32> {
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by_key(|&j| Reverse(costs[jobs[j].algorithm]));
        let mut load = vec![0u128; n.max(1)];
        let mut out = vec![0; jobs.len()];
        for j in order {
            let s = (0..load.len()).min_by_key(|&s| (load[s], s)).unwrap_or(0);
            load[s] += u128::from(costs[jobs[j].algorithm].max(1));
            out[j] = s as u32;
        }
        out
    }

    fn fixture() -> (Spec, Vec<Puzzle>) {
        let spec = Spec::parse(SPEC, "plan-test").unwrap();
        let puzzles = ["mk_easy", "mk_1star"]
            .iter()
            .map(|id| sudoku_core::bank_puzzle(id).unwrap().clone())
            .collect();
        (spec, puzzles)
    }

    #[test]
    fn the_lazy_plan_is_the_materialised_one() {
        let (spec, puzzles) = fixture();
        let cases = [
            (vec![3u64, 3], [None, None, None]),
            (vec![1, 5], [None, None, None]),
            (vec![4, 1], [None, None, None]),
            (vec![2, 2], [Some(5), None, Some(1)]),
            (vec![1, 5], [None, Some(3), None]),
        ];
        for (runs, uniform) in cases {
            let want = materialised(&spec, &puzzles, &runs, &uniform);
            let plan = Plan::new(&spec, &puzzles, &runs, &uniform);
            assert_eq!(plan.len(), want.len() as u64);
            let jobs: Vec<Job> = (0..plan.len()).map(|i| plan.job(i)).collect();
            assert_eq!(jobs, want);
            for (i, j) in want.iter().enumerate() {
                assert_eq!(plan.index(j.algorithm, j.puzzle, j.run), Some(i as u64));
                let (a, p) = (&spec.algorithms[j.algorithm].label, &puzzles[j.puzzle].id);
                assert_eq!(plan.index_of(a, p, j.run), Some(i as u64));
            }
            assert_eq!(plan.index(0, 0, uniform[0].unwrap_or(runs[0])), None);
            assert_eq!(plan.index(3, 0, 0), None);
            assert_eq!(plan.index_of("a", "nope", 0), None);
        }
    }

    #[test]
    fn the_shard_rule_is_unchanged() {
        let (spec, puzzles) = fixture();
        let runs = [5u64, 3];
        let uniform = [None, Some(2), None];
        let plan = Plan::new(&spec, &puzzles, &runs, &uniform);
        let jobs = materialised(&spec, &puzzles, &runs, &uniform);
        for costs in [[1000u64, 100_000, 10_000], [7, 7, 7], [0, 5, 5]] {
            for n in 1..=7 {
                let want = lpt_by_scan(&jobs, &costs, n);
                assert_eq!(shard_assignment(&plan, &costs, n), want, "{costs:?} n={n}");
                for k in 1..=n {
                    let set = shard_members(&plan, &costs, k, n);
                    let members: Vec<u64> = (0..plan.len()).filter(|&i| set.contains(i)).collect();
                    let expected: Vec<u64> = (0..plan.len())
                        .filter(|&i| want[i as usize] as usize + 1 == k)
                        .collect();
                    assert_eq!(members, expected);
                }
            }
        }
    }

    #[test]
    fn runs_start_with_the_costliest_algorithm() {
        let (spec, puzzles) = fixture();
        let runs = [2u64, 1];
        let plan = Plan::new(&spec, &puzzles, &runs, &[None; 3]);
        let order: Vec<u64> = plan.by_cost(&[10, 1000, 10]).collect();
        assert_eq!(order, vec![3, 4, 5, 0, 1, 2, 6, 7, 8]);
    }

    /// Interleaved: every run once; on each puzzle run r of every algorithm before run r + 1
    /// of any, algorithms in the spec's order; an algorithm with fewer runs drops out.
    #[test]
    fn runs_start_interleaved_by_puzzle_run_and_algorithm() {
        let (spec, puzzles) = fixture();
        let runs = [3u64, 1];
        let uniform = [None, Some(2), None];
        let plan = Plan::new(&spec, &puzzles, &runs, &uniform);
        let order: Vec<(usize, usize, u64)> = plan
            .interleaved()
            .map(|i| plan.job(i))
            .map(|j| (j.puzzle, j.algorithm, j.run))
            .collect();
        let want = vec![
            (0, 0, 0),
            (0, 1, 0),
            (0, 2, 0),
            (0, 0, 1),
            (0, 1, 1),
            (0, 2, 1),
            (0, 0, 2),
            (0, 2, 2),
            (1, 0, 0),
            (1, 1, 0),
            (1, 2, 0),
            (1, 1, 1),
        ];
        assert_eq!(order, want);
        let mut all: Vec<u64> = plan.interleaved().collect();
        all.sort_unstable();
        assert_eq!(all, (0..plan.len()).collect::<Vec<_>>());
    }

    #[test]
    fn index_sets_count_and_hold() {
        for len in [0u64, 1, 63, 64, 65, 130] {
            let full = IndexSet::full(len);
            assert_eq!(full.count(), len);
            assert!(!full.contains(len));
            let mut s = IndexSet::empty(len);
            assert_eq!(s.count(), 0);
            for i in (0..len).step_by(3) {
                assert!(s.insert(i));
                assert!(!s.insert(i));
            }
            assert_eq!(s.count(), len.div_ceil(3));
            assert_eq!(s.intersection(&full).count(), s.count());
            assert_eq!(s.intersection(&IndexSet::empty(len)).count(), 0);
            assert!((0..len).all(|i| s.contains(i) == (i % 3 == 0)));
        }
    }
}

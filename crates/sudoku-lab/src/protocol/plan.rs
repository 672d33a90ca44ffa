//! The plan of a protocol: every (algorithm, puzzle, run) in the spec's order with its seed, and
//! the rule that cuts it into shards.

use crate::spec::Spec;
use sudoku_core::{run_seed, Puzzle};

/// One planned run.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    pub algorithm: usize,
    pub puzzle: usize,
    pub run: u64,
    pub seed: u64,
}

/// The plan: every (algorithm, puzzle, run) in the spec's order. All algorithms share the run
/// seeds of a (puzzle, run): common random numbers, as in paired comparisons.
pub fn plan(spec: &Spec, puzzles: &[Puzzle], runs: &[u64]) -> Vec<Job> {
    let mut jobs = Vec::new();
    for a in 0..spec.algorithms.len() {
        for (p, puzzle) in puzzles.iter().enumerate() {
            for run in 0..runs[p] {
                jobs.push(Job {
                    algorithm: a,
                    puzzle: p,
                    run,
                    seed: run_seed(spec.master_seed, &spec.id, &puzzle.id, run),
                });
            }
        }
    }
    jobs
}

/// The shard (0-based) of every job of `jobs` when the plan is cut into `n` slices balanced by
/// expected cost: the jobs, longest expected first (ties in plan order), each go to the slice
/// with the least expected cost so far (ties to the lowest slice): Graham's LPT rule. It
/// depends only on the plan and the budgets, so every shard computes the same assignment.
pub fn shard_assignment(jobs: &[Job], costs: &[u64], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(costs[jobs[j].algorithm]));
    let mut load = vec![0u128; n.max(1)];
    let mut out = vec![0; jobs.len()];
    for j in order {
        let s = (0..load.len()).min_by_key(|&s| (load[s], s)).unwrap_or(0);
        load[s] += u128::from(costs[jobs[j].algorithm].max(1));
        out[j] = s;
    }
    out
}

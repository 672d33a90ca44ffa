//! The Solver contract shared by every algorithm crate (see docs/architecture.md, "The core
//! contract").
//!
//! Configuration is immutable (`&self`); all run state, the RNG included, lives inside the call,
//! so one solver value serves every thread and no state leaks between runs. Algorithms never
//! touch files, threads or clocks: wall time is measured by the runner.

use crate::grid::{Grid, Puzzle};
use crate::seed::Rng;

/// Limits of one run. Each algorithm counts effort in its paper's unit (generations, rounds,
/// cycles) and, uniformly, in fitness evaluations. Time limits are not fields: the runner
/// installs them on the run's thread ([`crate::halt`]) and [`Budget::reason`] consults them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Stop after this many generations (rounds, cycles), when set.
    pub max_generations: Option<u64>,
    /// Stop once this many fitness evaluations have been spent, when set. mk-ga never exceeds
    /// it after the initial population; the other algorithms check between generations
    /// (rounds, cycles), so a run may exceed it by less than one generation's evaluations.
    pub max_evaluations: Option<u64>,
}

impl Budget {
    pub fn generations(g: u64) -> Self {
        Budget {
            max_generations: Some(g),
            max_evaluations: None,
        }
    }
    /// True when `generations` or `evaluations` has reached a limit.
    #[inline]
    pub fn exhausted(&self, generations: u64, evaluations: u64) -> bool {
        self.reason(generations, evaluations).is_some()
    }

    /// True when `evaluations` has reached the evaluation limit: the check an algorithm makes
    /// within a generation (mk-ga after each child, Lewis SA before each move), where the
    /// generation limit does not apply.
    #[inline]
    pub fn evaluations_spent(&self, evaluations: u64) -> bool {
        self.max_evaluations.is_some_and(|m| evaluations >= m)
    }

    /// The evaluations left before the evaluation limit once `evaluations` are spent (0 when it
    /// is reached; `u64::MAX` without a limit): how far a step of many evaluations, such as a
    /// Markov chain of moves, may go before it must stop.
    #[inline]
    pub fn evaluations_left(&self, evaluations: u64) -> u64 {
        self.max_evaluations
            .map_or(u64::MAX, |m| m.saturating_sub(evaluations))
    }

    /// Which limit `generations` and `evaluations` have reached, if any (the generation limit
    /// first when both have), then whether the run's time limit stops it here: the runner's
    /// [`crate::halt::Stop`] installed on this thread (CPU or wall seconds, or a replay's
    /// recorded stop), which fires only at a check with new counts. Algorithms check their
    /// budget here and nowhere else between steps, so every algorithm gets time limits and
    /// replayable time stops without reading a clock.
    #[inline]
    pub fn reason(&self, generations: u64, evaluations: u64) -> Option<Termination> {
        if self.max_generations.is_some_and(|m| generations >= m) {
            Some(Termination::GenerationLimit)
        } else if self.max_evaluations.is_some_and(|m| evaluations >= m) {
            Some(Termination::EvaluationLimit)
        } else {
            crate::halt::check(generations, evaluations)
        }
    }
}

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    Solved,
    GenerationLimit,
    EvaluationLimit,
    /// The algorithm's own stopping rule (e.g. RESEDA's convergence threshold).
    Converged,
    /// The run's CPU-seconds limit (`max_cpu_seconds`), seen at a budget check.
    CpuLimit,
    /// The run's wall-seconds limit (`max_wall_seconds`), seen at a budget check: a normal
    /// end, unlike an external solver's `wall_limit` (killed at its hard deadline).
    WallClockLimit,
}

impl Termination {
    /// Every way a search stops (none of them a failure).
    pub const ALL: [Termination; 6] = [
        Termination::Solved,
        Termination::GenerationLimit,
        Termination::EvaluationLimit,
        Termination::Converged,
        Termination::CpuLimit,
        Termination::WallClockLimit,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Termination::Solved => "solved",
            Termination::GenerationLimit => "generation_limit",
            Termination::EvaluationLimit => "evaluation_limit",
            Termination::Converged => "converged",
            Termination::CpuLimit => "cpu_limit",
            Termination::WallClockLimit => "wall_clock_limit",
        }
    }

    /// The termination a `runs.csv` field names, for the words of a time limit (what a
    /// replay must reproduce with [`crate::halt::Stop::At`]); None for any other word.
    pub fn time_limit(word: &str) -> Option<Termination> {
        [Termination::CpuLimit, Termination::WallClockLimit]
            .into_iter()
            .find(|t| t.as_str() == word)
    }
}

/// What one run produced.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub solved: bool,
    /// Best value of the algorithm's own objective (fitness or cost: see the crate).
    pub best_fitness: f64,
    /// Effort in the paper's unit (generations, rounds, cycles).
    pub generations: u64,
    /// Fitness evaluations spent.
    pub evaluations: u64,
    /// Restarts (population resets) made.
    pub restarts: u64,
    pub termination: Termination,
    /// The best grid found (the solution when `solved`).
    pub grid: Grid,
    /// Algorithm-specific counters, by name.
    pub counters: Vec<(&'static str, u64)>,
}

/// Progress callbacks. Every method has an empty default.
pub trait Observer {
    /// After each generation (round, cycle).
    fn generation(&mut self, _generation: u64, _evaluations: u64, _best_fitness: f64) {}
    /// When the population is reinitialised.
    fn restart(&mut self, _generation: u64) {}
    /// True when the observer wants [`Observer::best_grid`] calls. Algorithms check it once per
    /// generation, so an observer that records nothing costs one predictable branch.
    fn wants_grids(&self) -> bool {
        false
    }
    /// The algorithm's current best grid (by its own objective), after `evaluations` fitness
    /// evaluations: called after each generation (round, cycle; for simulated annealing, at
    /// each improvement of its best cost) when [`Observer::wants_grids`] is true. The runner
    /// measures every algorithm's grids with one penalty (values missing from rows, columns and
    /// boxes) so that anytime data compare like with like, whatever each algorithm optimises.
    fn best_grid(&mut self, _evaluations: u64, _cells: &[u8]) {}
}

/// An observer that ignores everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;
impl Observer for NoObserver {}

/// A stochastic Sudoku solver.
pub trait Solver: Send + Sync {
    /// Short name used in `runs.csv` (e.g. "ret-ga").
    fn name(&self) -> &'static str;
    /// One run on `puzzle` within `budget`, drawing all randomness from `rng`.
    fn solve(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome;
}

#[cfg(test)]
mod budget_tests {
    use super::Budget;

    /// The evaluation limit, asked within a generation: spent, and what is left of it.
    #[test]
    fn evaluations_spent_and_left() {
        let b = Budget {
            max_generations: None,
            max_evaluations: Some(100),
        };
        assert!(!b.evaluations_spent(99) && b.evaluations_spent(100));
        assert_eq!(b.evaluations_left(30), 70);
        assert_eq!(b.evaluations_left(130), 0);
        let unlimited = Budget::generations(5);
        assert!(!unlimited.evaluations_spent(u64::MAX));
        assert_eq!(unlimited.evaluations_left(1_000), u64::MAX);
    }
}

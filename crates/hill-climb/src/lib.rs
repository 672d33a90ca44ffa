//! # hill-climb: a stochastic hill climber with restarts
//!
//! A textbook local search, not the reproduction of a paper: it is the baseline a new method
//! should beat, and the template `sudoku-lab new-solver NAME` copies (under the new name) to
//! start a new solver crate. Everything an algorithm crate owes the runner is here and small:
//! the [`Solver`] ([`HillClimbSolver`]), its configuration with the source of each default
//! ([`HillClimbConfig`]), the options a spec sets ([`HillClimbAlgorithm::build`]), the table
//! of the options a paper leaves open ([`AMBIGUITIES`]) and the registry entry ([`ALGORITHM`]).
//! docs/adding-a-solver.md walks through each part. Any box shape of sudoku-core.
//!
//! ## The algorithm, as implemented
//!
//! 1. **Encoding.** The free cells of each box hold a permutation of the values the box misses
//!    ([`ops::Layout::random_fill`]), so every box holds 1..=N once for the whole run and the
//!    givens never change.
//! 2. **Cost.** The number of values missing from each row plus each column
//!    ([`ops::Counts::cost`], equal to [`sudoku_core::fitness::rows_cols_missing`]), minimised;
//!    0 exactly for a solution. A swap changes only two rows and two columns, so its cost
//!    change is computed from count tables ([`ops::Counts::swap_delta`]).
//! 3. **Move.** Two distinct free cells of one box swap their values, the box drawn uniformly
//!    among the boxes with at least two free cells ([`ops::Layout::pick_move`]).
//! 4. **Acceptance.** A move is kept when it does not raise the cost ([`Acceptance`]).
//! 5. **Restart.** After `patience` consecutive moves without a cost decrease the grid is
//!    refilled at random (a new start; the best grid of the run is kept).
//! 6. **Stop** at cost 0 (solved), at the budget, or when no box has two free cells (no move
//!    exists: [`Termination::Converged`]).
//!
//! ## Options: paper -> config -> default
//!
//! | option | field | default | the paper's words |
//! |---|---|---|---|
//! | acceptance | [`HillClimbConfig::acceptance`] | [`Acceptance::Sideways`] | placeholder: quote the paper's rule for accepting a move (this crate follows no paper) |
//! | patience | [`HillClimbConfig::patience`] | `1000` moves | placeholder: quote the paper's restart rule (our choice: a few times the number of swaps of a 9x9 puzzle) |
//! | moves per generation | [`HillClimbConfig::moves_per_generation`] | `None`: the number of free cells | placeholder: the paper's unit of effort (a hill climber has no generations; one sweep is as many moves as free cells) |
//!
//! ## Effort: what one evaluation is
//!
//! One **evaluation** is one cost computation: the cost of a fill (the first one and each
//! restart's, 1 each) and each proposed swap, accepted or not (1 each). `max_evaluations` is
//! exact: it is checked before each, so a run never exceeds it (the first fill is always
//! evaluated). One **generation** is `moves_per_generation` evaluations, counted when it
//! starts; the generation limit is checked between generations, so a run under a smaller
//! generation budget is the full run cut short (what `sudoku-lab readings` relies on).
//!
//! ## Counters
//!
//! `accepted_moves` (swaps kept) and `sideways_moves` (swaps kept at an equal cost); the
//! restarts are [`RunOutcome::restarts`].

pub mod ops;

use ops::{Counts, Layout};
use serde::Deserialize;
use sudoku_core::algorithm::{choose, parse_options};
use sudoku_core::{
    Algorithm, Ambiguity, Budget, Grid, Observer, OptionError, Options, Puzzle, Rng, RunOutcome,
    Solver, Termination,
};

/// Which moves are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acceptance {
    /// A move that does not raise the cost (`delta <= 0`): the climber walks plateaus.
    Sideways,
    /// Only a move that lowers the cost (`delta < 0`): the strict reading of "climb".
    Improving,
}

/// The configuration; every field is an option of the spec.
#[derive(Debug, Clone, PartialEq)]
pub struct HillClimbConfig {
    /// Which moves are kept (see [`Acceptance`]).
    pub acceptance: Acceptance,
    /// Consecutive moves without a cost decrease before a restart (at least 1).
    pub patience: u64,
    /// Moves per generation, the unit of `max_generations`; None: the puzzle's number of free
    /// cells.
    pub moves_per_generation: Option<u64>,
}

impl Default for HillClimbConfig {
    fn default() -> Self {
        HillClimbConfig {
            acceptance: Acceptance::Sideways,
            patience: 1000,
            moves_per_generation: None,
        }
    }
}

/// The options a paper leaves open, with its words: the readings `sudoku-lab readings` races.
/// Values are the spellings of the spec.
pub const AMBIGUITIES: &[Ambiguity] = &[Ambiguity {
    key: "acceptance",
    values: &["sideways", "improving"],
    default: "sideways",
    words: "placeholder: quote the paper's rule for accepting a move (this crate follows no paper)",
}];

/// The spellings of [`Acceptance`] in a spec.
const ACCEPTANCE: &[(&str, Acceptance)] = &[
    ("sideways", Acceptance::Sideways),
    ("improving", Acceptance::Improving),
];

/// The options as a spec writes them; unset keys keep the defaults.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct HillClimbParams {
    acceptance: Option<String>,
    patience: Option<u64>,
    moves_per_generation: Option<u64>,
}

impl HillClimbConfig {
    /// The configuration of a spec's options, or an error naming the key.
    pub fn from_options(options: &Options) -> Result<Self, OptionError> {
        let p: HillClimbParams = parse_options(options)?;
        let d = HillClimbConfig::default();
        let at_least_one = |key: &str, v: Option<u64>| match v {
            Some(0) => Err(OptionError::new(format!("{key} = 0: must be at least 1"))),
            _ => Ok(v),
        };
        Ok(HillClimbConfig {
            acceptance: match p.acceptance.as_deref() {
                Some(v) => choose("acceptance", v, ACCEPTANCE)?,
                None => d.acceptance,
            },
            patience: at_least_one("patience", p.patience)?.unwrap_or(d.patience),
            moves_per_generation: at_least_one("moves_per_generation", p.moves_per_generation)?
                .or(d.moves_per_generation),
        })
    }
}

/// The solver: an immutable configuration; a run's state lives in [`Run`].
#[derive(Debug, Clone)]
pub struct HillClimbSolver {
    config: HillClimbConfig,
}

impl HillClimbSolver {
    pub fn new(config: HillClimbConfig) -> Self {
        HillClimbSolver { config }
    }
}

/// The state of one run.
struct Run<'a> {
    config: &'a HillClimbConfig,
    budget: &'a Budget,
    layout: Layout,
    cells: Vec<u8>,
    scratch: Vec<u8>,
    counts: Counts,
    cost: u32,
    best: u32,
    best_cells: Vec<u8>,
    evaluations: u64,
    restarts: u64,
    accepted: u64,
    sideways: u64,
    /// Consecutive moves without a cost decrease.
    stale: u64,
}

impl<'a> Run<'a> {
    fn new(config: &'a HillClimbConfig, budget: &'a Budget, puzzle: &Grid, rng: &mut Rng) -> Self {
        let layout = Layout::new(puzzle);
        let mut cells = vec![0; puzzle.cells().len()];
        let mut scratch = Vec::with_capacity(puzzle.geometry().n());
        layout.random_fill(&mut cells, &mut scratch, rng);
        let counts = Counts::new(&layout, &cells);
        let cost = counts.cost();
        Run {
            config,
            budget,
            best_cells: cells.clone(),
            layout,
            cells,
            scratch,
            counts,
            cost,
            best: cost,
            evaluations: 1,
            restarts: 0,
            accepted: 0,
            sideways: 0,
            stale: 0,
        }
    }

    fn evaluations_left(&self) -> bool {
        !self.budget.evaluations_spent(self.evaluations)
    }

    /// Refill the grid at random (one evaluation).
    fn restart(&mut self, generation: u64, rng: &mut Rng, observer: &mut dyn Observer) {
        self.layout
            .random_fill(&mut self.cells, &mut self.scratch, rng);
        self.counts.recount(&self.layout, &self.cells);
        self.cost = self.counts.cost();
        self.evaluations += 1;
        self.restarts += 1;
        self.stale = 0;
        observer.restart(generation);
    }

    /// One proposed swap (one evaluation), kept by the acceptance rule.
    fn step(&mut self, a: usize, b: usize) {
        let delta = self.counts.swap_delta(&self.layout, &self.cells, a, b);
        self.evaluations += 1;
        let keep = match self.config.acceptance {
            Acceptance::Sideways => delta <= 0,
            Acceptance::Improving => delta < 0,
        };
        if keep {
            self.counts.apply_swap(&self.layout, &mut self.cells, a, b);
            self.cost = (self.cost as i32 + delta) as u32;
            self.accepted += 1;
            self.sideways += u64::from(delta == 0);
        }
        self.stale = if keep && delta < 0 { 0 } else { self.stale + 1 };
    }

    /// One generation: up to `moves` evaluations, stopped early by a solution or the
    /// evaluation limit. False when no move exists.
    fn generation(&mut self, g: u64, moves: u64, rng: &mut Rng, obs: &mut dyn Observer) -> bool {
        let grids = obs.wants_grids();
        for _ in 0..moves {
            if !self.evaluations_left() {
                break;
            }
            if self.stale >= self.config.patience {
                self.restart(g, rng, obs);
            } else {
                let Some((a, b)) = self.layout.pick_move(rng) else {
                    return false;
                };
                self.step(a, b);
            }
            if self.cost < self.best {
                self.best = self.cost;
                self.best_cells.copy_from_slice(&self.cells);
                if grids {
                    obs.best_grid(self.evaluations, &self.cells);
                }
            }
            if self.cost == 0 {
                break;
            }
        }
        true
    }
}

impl Solver for HillClimbSolver {
    fn name(&self) -> &'static str {
        "hill-climb"
    }

    fn solve(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        let mut run = Run::new(&self.config, budget, &puzzle.grid, rng);
        let moves = (self.config.moves_per_generation)
            .unwrap_or(run.layout.free_cells as u64)
            .max(1);
        let mut generations = 0;
        let termination = loop {
            if run.best == 0 {
                break Termination::Solved;
            }
            if let Some(reason) = budget.reason(generations, run.evaluations) {
                break reason;
            }
            generations += 1;
            if !run.generation(generations, moves, rng, observer) {
                break Termination::Converged;
            }
            observer.generation(generations, run.evaluations, f64::from(run.best));
        };
        RunOutcome {
            solved: run.best == 0,
            best_fitness: f64::from(run.best),
            generations,
            evaluations: run.evaluations,
            restarts: run.restarts,
            termination,
            grid: Grid::from_cells(puzzle.geometry(), run.best_cells).expect("same geometry"),
            counters: vec![
                ("accepted_moves", run.accepted),
                ("sideways_moves", run.sideways),
            ],
        }
    }
}

/// The registry entry: what the runner knows of this algorithm.
pub struct HillClimbAlgorithm;

/// The line of the runner's registry (`crates/sudoku-lab/src/algos/registry.rs`).
pub const ALGORITHM: &dyn Algorithm = &HillClimbAlgorithm;

impl Algorithm for HillClimbAlgorithm {
    fn name(&self) -> &'static str {
        "hill-climb"
    }
    fn summary(&self) -> &'static str {
        "Stochastic hill climber with restarts (baseline; the template `new-solver` copies)"
    }
    fn build(&self, options: &Options) -> Result<Box<dyn Solver>, OptionError> {
        Ok(Box::new(HillClimbSolver::new(
            HillClimbConfig::from_options(options)?,
        )))
    }
    fn counters(&self, _options: &Options) -> Vec<&'static str> {
        vec!["accepted_moves", "sideways_moves"]
    }
    fn evaluation_unit(&self) -> &'static str {
        "one proposed swap (its cost delta, from the two rows and two columns it touches), accepted or not, and the cost of each random fill"
    }
    fn sources(&self) -> (&'static str, &'static [&'static str]) {
        (
            "hill-climb",
            &[include_str!("lib.rs"), include_str!("ops.rs")],
        )
    }
    fn ambiguities(&self) -> &'static [Ambiguity] {
        AMBIGUITIES
    }
}

#[cfg(test)]
mod tests;

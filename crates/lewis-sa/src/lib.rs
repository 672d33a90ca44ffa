//! # lewis-sa: simulated annealing for Sudoku after Lewis (2007)
//!
//! R. Lewis, "Metaheuristics can solve Sudoku puzzles", *Journal of Heuristics* 13(4):387-401,
//! 2007 (doi 10.1007/s10732-007-9012-8). Any box shape of sudoku-core (4x4 to 25x25, with
//! non-square boxes such as 2x3 and 3x4).
//!
//! **Read this first.** The full text of the paper was not reachable to us: only its abstract
//! and first page. Every parameter below therefore comes from secondary sources or is our
//! choice, and says which. The sources, with the short names used in the table:
//!
//! - **L** -- the paper's abstract: "this stochastic search-based algorithm, which uses
//!   simulated annealing, is able to complete logic-solvable puzzle-instances that feature
//!   daily in many of the UK's national newspapers".
//! - **T** -- the CSO thesis (docs/bibliography.md, code `003`; related literature), summarising
//!   Lewis: puzzles "were quickly solved for about half a second regardless of their difficulty";
//!   order-4 puzzles take "about 5 - 15 seconds"; the phase-transition study used "time limits 5,
//!   30, and 350 seconds" for orders 3, 4 and 5. No parameter.
//! - **S2** -- a public C++ solver "made on the grounds of the article ... by Rhydian Lewis"
//!   (GitHub FeedSnow/Simulated-Annealing-Sudoku-Solver, `sudoku.cpp`).
//! - **S3** -- a public Python solver, "a quick implementation of a paper ... by Rhyd Lewis"
//!   (GitHub manolo-lolo/sudoku-simulated-annealing, `simulated_annealing.py`).
//! - **S4** -- a public Python solver "inspired by the paper" (GitHub
//!   bergio13/simulated-annealing-sudoku, README and notebook).
//! - **W** -- what the task that commissioned this crate calls "widely reported" about Lewis's
//!   SA; we could not confirm it in any source we could read, and say so where it is the only
//!   source.
//!
//! ## The algorithm, as implemented
//!
//! 1. **Initial solution.** The free cells of each box get a uniformly random permutation of
//!    the values the box misses ([`ops::Layout::random_fill`]), so every box holds 1..=N once
//!    for the whole run; givens never change.
//! 2. **Cost.** The number of values missing from each row plus each column
//!    ([`ops::Counts::cost`], equal to [`sudoku_core::fitness::rows_cols_missing`]); 0 exactly
//!    for a solution. Kept incrementally in per-row and per-column count tables: a swap
//!    touches only the two rows and the two columns of its cells, and neither a row nor a
//!    column they share ([`ops::Counts::swap_delta`]). The annealing's loop runs on
//!    [`ops::Kernel`], the same tables and moves in fixed-size arrays without bounds checks
//!    (tested to draw and decide exactly as [`ops::Layout::pick_move`] and `Counts` do).
//! 3. **Move.** Two distinct free cells of one box swap their values ([`ops::Layout::pick_move`];
//!    the box is drawn among boxes with at least two free cells, see [`BoxChoice`]).
//! 4. **Initial temperature** t0: the standard deviation ([`ops::std_dev`], divisor n) of the
//!    costs of `t0_samples` sampled moves from the initial solution ([`T0Sampling`]).
//! 5. **Markov chains.** At temperature t a chain makes `chain_length` moves (default: the
//!    number of free cells squared). A move of cost change `delta` is accepted when
//!    `delta <= 0`, else with probability `exp(-delta / t)` ([`ops::acceptance_probability`];
//!    no random number is drawn for `delta <= 0`). After each chain `t <- alpha * t`.
//! 6. **Reheat.** After `reheat_after` consecutive chains without improvement ([`ReheatTrigger`])
//!    the temperature goes back to t0 ([`Reheat`]); the counter restarts at 0.
//! 7. **Stop** at cost 0 (solved), at the budget, or when no box has two free cells (no move
//!    exists: [`Termination::Converged`]).
//!
//! ## Parameters: source -> config -> default
//!
//! | parameter | field | default | source |
//! |---|---|---|---|
//! | representation | (fixed) | boxes are permutations, givens fixed | S2: `FillRandomly` shuffles each box's missing values into its non-fixed cells; S4 notebook: "randomly fill the cells that are equal to zero" keeping a "fixed mask"; W |
//! | cost | (fixed) | values missing from rows + columns | S2: `cost.row[i] = 9 - row.size()` and the same for columns, total `row[i] + column[i]`; W. sudoku-core's `rows_cols_missing` already names it "Lewis (2007)" |
//! | neighbourhood | (fixed) | swap two distinct free cells of one box | S2: `while (sudoku.NonFixedInSquare(r, c) < 2)` picks the box, then two distinct non-fixed cells; S4: "Swaps two random cells in the same 3x3 grid"; W |
//! | how the box is drawn | [`LewisConfig::box_choice`] | [`BoxChoice::UniformBox`] | S2 draws the box uniformly among boxes with >= 2 non-fixed cells (rejection sampling); W says the same; [`BoxChoice::UniformPair`] (uniform over all swappable pairs) is the other natural reading |
//! | acceptance | (fixed) | `delta <= 0` always, else `exp(-delta / t)` | S2: `if (delta < 0) ... else if (dis(gen) <= exp(-delta / t))`; S3: `proposed_cost <= cost` accepted, else `exp(-abs(proposed_cost - cost) / temperature)`; W |
//! | initial temperature | (fixed rule) | SD of sampled move costs | S3: `initial_temperature = pstdev(  # according to Lewis`; S2: `CalcT0` returns the SD of the current cost and 10 neighbour costs; W: "a small collection of neighbourhood moves" |
//! | t0 sample size | [`LewisConfig::t0_samples`] | 100 | not stated in any source found (S2 uses 10 neighbours plus the current cost, S3 1000 neighbours); our choice: the SD of 100 costs has a relative standard error of about 7 %, at a cost under 5 % of one 9x9 chain |
//! | what the t0 sample is | [`LewisConfig::t0_sampling`] | [`T0Sampling::Neighbours`] | S2 and S3 sample independent neighbours of the initial solution; "a small collection of neighbourhood moves" (W) can also mean a walk of accepted moves, [`T0Sampling::Walk`] |
//! | cooling | [`LewisConfig::alpha`] | 0.99, geometric, after each chain | W ("alpha = 0.99"); S4's notebook runs `cooling_rate=0.99`; S2 uses 0.5 per move, which we do not follow. Not confirmed in Lewis's text |
//! | Markov chain length | [`LewisConfig::chain_length`] | `None`: (number of free cells)^2 | W only ("(number of free cells)^2"); not found in any source we could read |
//! | reheat period | [`LewisConfig::reheat_after`] | 20 chains | W ("e.g. 20?"), not confirmed; S2 reheats after more than 20 moves without a cost decrease (`if (no_improvement_it > 20)`, then `t = t0;`), S3 after 2000 moves at a constant cost, S4 after `reheat_threshold=500` steps |
//! | what "no improvement" is | [`LewisConfig::reheat_trigger`] | [`ReheatTrigger::CurrentCost`] | not settled by any source: W says "without improvement of the best cost"; S4: "If a better solution isn't found within a set number of steps, a reheating mechanism is applied" ([`ReheatTrigger::BestCost`]); S2 resets its counter on every cost decrease of the current solution, which [`ReheatTrigger::CurrentCost`] follows per chain. Our choice, on L's claim that the SA completes newspaper puzzles: with `BestCost` and 20 chains the temperature goes back to t0 (about 1.5 on 9x9) before it has cooled to where the puzzles get solved (about 0.6); the experiment `lewis-sa-reheat` (`results/lewis-sa-reheat/report.md`) compares the readings on 90 Kennett puzzles (see "What the runs show") |
//! | what a reheat does | [`LewisConfig::reheat`] | [`Reheat::Temperature`]: t <- t0 | S2 and S3 set the temperature back to t0 and keep the grid; [`Reheat::Randomise`] also refills the grid at random (a restart); [`Reheat::Never`] for ablation |
//! | stopping | `Budget` (runner) | cost 0, or the budget | L and T: a run stops when solved or at a time limit; we count chains and evaluations instead of seconds |
//!
//! ## Effort: what one evaluation is
//!
//! One **evaluation** is one cost computation of a candidate solution, full or incremental:
//! the initial solution's cost (1), each t0 sample (1 each), each move of a Markov chain,
//! accepted or not (1 each), and the cost of a grid refilled by [`Reheat::Randomise`] (1).
//! `Budget::max_evaluations` is exact: it is checked before every t0 sample and every refill,
//! and a chain makes at most as many moves as evaluations are left, so a run never exceeds it
//! and stops on it to the evaluation (the initial solution is always evaluated, so a limit of
//! 0 still spends 1).
//! One **generation** is one Markov chain, counted when it starts; a chain cut short by a
//! solution or by the evaluation limit counts. t0 sampling belongs to no chain, so the
//! `max_generations` check does not cover it. `RunOutcome::restarts` counts reheats.
//!
//! Best grid: the best solution ever evaluated, t0 samples included (a sampled neighbour that
//! solves the puzzle ends the run, solved). `best_fitness` is its cost (minimised).
//!
//! Counters: `reheats`, `accepted_moves` and `improving_moves` (accepted with `delta < 0`) of
//! the chains (t0 samples excluded), and `t0_x1000`, the initial temperature times 1000,
//! rounded.
//!
//! ## What the runs show (tests and `sudoku-lab bench`)
//!
//! With the defaults every puzzle of the committed Kennett very-easy and easy sets (1000 each)
//! is solved, one run each (test `solves_every_kennett_very_easy_and_easy_puzzle`: about
//! 170 000 evaluations a puzzle on average), as are 6x6 to 16x16 grids with half the cells
//! given. The readings of the reheat rule (current cost or best cost, 20 or 100 chains, no
//! reheat, t0 from a walk) are compared by the experiment `lewis-sa-reheat` (`sudoku-lab
//! reproduce lewis-sa-reheat`: the first 30 puzzles of Kennett's medium, hard and fiendish
//! levels, 5 runs each, 5 million evaluations per run; results and ranking in
//! `results/lewis-sa-reheat/report.md`): best cost with 20 chains solves the fewest there.
//!
//! t0 is about 1.5 on 9x9 Kennett puzzles (neighbour sampling; about 3.5 from a walk), and a
//! solved run ends at about t = 0.6 after some 100 to 300 chains. `BestCost` with 20 chains
//! resets the temperature long before that, which is why it is not the default.

pub mod ops;
#[cfg(test)]
mod reference;

pub use ops::BoxChoice;
use ops::{acceptance_probability, std_dev, Kernel, Layout};
use sudoku_core::{Budget, Grid, Observer, Puzzle, Rng, RunOutcome, Solver, Termination};
use thiserror::Error;

/// What the initial temperature is the standard deviation of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum T0Sampling {
    /// The costs of `t0_samples` independent neighbours of the initial solution (each move is
    /// evaluated and undone; S2, S3).
    Neighbours,
    /// The costs along a walk of `t0_samples` moves, each accepted, starting from the initial
    /// solution; the annealing then starts where the walk ends.
    Walk,
}

/// What counts as an improvement for the reheat counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReheatTrigger {
    /// The best cost of the run went down during the chain.
    BestCost,
    /// The current cost is lower at the end of the chain than at its start.
    CurrentCost,
}

/// What a reheat does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reheat {
    /// The temperature goes back to t0; the current solution stays.
    Temperature,
    /// The temperature goes back to t0 and the grid is refilled at random (a restart).
    Randomise,
    /// No reheat: plain geometric cooling.
    Never,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LewisConfig {
    /// Cooling rate: `t <- alpha * t` after each Markov chain.
    pub alpha: f64,
    /// Moves per Markov chain; `None` = (number of free cells)^2.
    pub chain_length: Option<u64>,
    /// Number of sampled moves whose costs give t0 (their standard deviation).
    pub t0_samples: usize,
    pub t0_sampling: T0Sampling,
    /// Consecutive chains without improvement before a reheat.
    pub reheat_after: u64,
    pub reheat_trigger: ReheatTrigger,
    pub reheat: Reheat,
    pub box_choice: BoxChoice,
}

impl Default for LewisConfig {
    fn default() -> Self {
        LewisConfig {
            alpha: 0.99,
            chain_length: None,
            t0_samples: 100,
            t0_sampling: T0Sampling::Neighbours,
            reheat_after: 20,
            reheat_trigger: ReheatTrigger::CurrentCost,
            reheat: Reheat::Temperature,
            box_choice: BoxChoice::UniformBox,
        }
    }
}

#[derive(Debug, Error, Clone, PartialEq)]
pub enum LewisError {
    #[error("alpha must be in (0, 1], got {0}")]
    Alpha(f64),
    #[error("chain_length must be at least 1")]
    ChainLength,
    #[error("t0_samples must be at least 2 (a standard deviation), got {0}")]
    T0Samples(usize),
    #[error("reheat_after must be at least 1")]
    ReheatAfter,
}

impl LewisConfig {
    pub fn validate(&self) -> Result<(), LewisError> {
        if !(self.alpha > 0.0 && self.alpha <= 1.0) {
            return Err(LewisError::Alpha(self.alpha));
        }
        if self.chain_length == Some(0) {
            return Err(LewisError::ChainLength);
        }
        if self.t0_samples < 2 {
            return Err(LewisError::T0Samples(self.t0_samples));
        }
        if self.reheat_after == 0 {
            return Err(LewisError::ReheatAfter);
        }
        Ok(())
    }

    /// The chains of one time constant of the geometric cooling, `1 / -ln(alpha)` rounded up:
    /// the chains after which the temperature has fallen to t0 / e (about 0.55 from a t0 of
    /// about 1.5 on 9x9, where solved runs end: see "What the runs show"). None for `alpha = 1`
    /// (no cooling, no schedule).
    pub fn schedule_chains(&self) -> Option<u64> {
        let rate = -self.alpha.ln();
        (rate > 0.0 && rate.is_finite()).then(|| (1.0 / rate).ceil() as u64)
    }

    /// The evaluations the cooling schedule takes to run its course on a puzzle with `free`
    /// empty cells: the initial solution and the t0 sample, then [`Self::schedule_chains`]
    /// chains of `chain_length` moves ((free cells)^2 when unset). A budget below it stops
    /// every run while the temperature is still high (reheats aside), so a run can solve only
    /// an easy puzzle by luck. None without a schedule (`alpha = 1`).
    pub fn schedule_evaluations(&self, free: u64) -> Option<u64> {
        let chain = self.chain_length.unwrap_or(free.saturating_mul(free));
        let chains = self.schedule_chains()?;
        Some(
            chains
                .saturating_mul(chain)
                .saturating_add(1 + self.t0_samples as u64),
        )
    }
}

/// Lewis's simulated annealing with a validated configuration.
#[derive(Debug, Clone)]
pub struct LewisSa {
    config: LewisConfig,
}

impl LewisSa {
    pub fn new(config: LewisConfig) -> Result<Self, LewisError> {
        config.validate()?;
        Ok(LewisSa { config })
    }

    pub fn config(&self) -> &LewisConfig {
        &self.config
    }
}

/// The state of one run: current solution (cells and the hot-loop tables of
/// [`ops::Kernel`]) and its cost, best solution.
struct State {
    cells: Vec<u8>,
    kernel: Box<Kernel>,
    cost: u32,
    best: Vec<u8>,
    best_cost: u32,
    evaluations: u64,
}

impl State {
    /// Keep the current solution as the best when it beats it; tell the observer if it asked.
    #[inline]
    fn note_best(&mut self, grids: bool, observer: &mut dyn Observer) {
        if self.cost < self.best_cost {
            self.best_cost = self.cost;
            self.best.copy_from_slice(&self.cells);
            if grids {
                observer.best_grid(self.evaluations, &self.best);
            }
        }
    }

    #[inline(always)]
    fn apply(&mut self, p: usize, q: usize, delta: i32) {
        self.kernel.apply(p, q, &mut self.cells);
        self.cost = self.cost.wrapping_add_signed(delta);
    }
}

/// One Markov chain of at most `moves` moves at the acceptance probabilities `accept` (indexed
/// by the uphill cost change, 1 to 4; index 0 and 5 to 7 unused): the kernel walks until a new
/// best, which is recorded here. Stops early at a solution.
#[allow(clippy::too_many_arguments)]
fn chain(
    st: &mut State,
    choice: BoxChoice,
    moves: u64,
    accept: &[f64; 8],
    rng: &mut Rng,
    tally: &mut [u64; 2],
    grids: bool,
    observer: &mut dyn Observer,
) {
    let mut left = moves;
    while left > 0 {
        let best = st.best_cost;
        let done = st.kernel.walk(
            &mut st.cells,
            choice,
            left,
            accept,
            rng,
            &mut st.cost,
            best,
            tally,
        );
        st.evaluations += done;
        left -= done;
        if st.cost < st.best_cost {
            st.note_best(grids, observer);
            if st.best_cost == 0 {
                break;
            }
        }
    }
}

impl Solver for LewisSa {
    fn name(&self) -> &'static str {
        "lewis-sa"
    }

    fn solve(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        let cfg = &self.config;
        let layout = Layout::new(&puzzle.grid);
        let geom = layout.geom;
        let mut cells = vec![0u8; geom.cells()];
        layout.random_fill(&mut cells, rng);
        let kernel = Kernel::new(&layout, &cells);
        let cost = kernel.cost();
        let mut st = State {
            best: cells.clone(),
            cells,
            kernel,
            cost,
            best_cost: cost,
            evaluations: 1,
        };
        if observer.wants_grids() {
            observer.best_grid(st.evaluations, &st.best);
        }
        let free = layout.free_cells as u64;
        let chain_length = cfg.chain_length.unwrap_or(free * free);
        let (mut chains, mut reheats) = (0u64, 0u64);
        let mut tally = [0u64; 2];
        let mut t0 = 0.0;
        let mut early = None;
        if st.best_cost == 0 {
            early = Some(Termination::Solved);
        } else if layout.swappable.is_empty() {
            // Every box has at most one free cell: the fill is forced and no move exists.
            early = Some(Termination::Converged);
        } else {
            // Initial temperature from the costs of sampled moves.
            let grids = observer.wants_grids();
            let mut samples = Vec::with_capacity(cfg.t0_samples);
            for _ in 0..cfg.t0_samples {
                if budget.evaluations_spent(st.evaluations) {
                    early = Some(Termination::EvaluationLimit);
                    break;
                }
                let (p, q) = st.kernel.pick(cfg.box_choice, rng);
                let delta = st.kernel.delta(p, q);
                st.evaluations += 1;
                samples.push(st.cost.wrapping_add_signed(delta));
                match cfg.t0_sampling {
                    T0Sampling::Walk => {
                        st.apply(p, q, delta);
                        st.note_best(grids, observer);
                    }
                    T0Sampling::Neighbours => {
                        if st.cost.wrapping_add_signed(delta) < st.best_cost {
                            // An evaluated neighbour better than any solution so far.
                            st.apply(p, q, delta);
                            st.note_best(grids, observer);
                            st.apply(p, q, -delta);
                        }
                    }
                }
                if st.best_cost == 0 {
                    early = Some(Termination::Solved);
                    break;
                }
            }
            t0 = std_dev(&samples);
        }
        let mut t = t0;
        let mut stale = 0u64;
        let termination = match early {
            Some(reason) => reason,
            None => loop {
                if st.best_cost == 0 {
                    break Termination::Solved;
                }
                if let Some(reason) = budget.reason(chains, st.evaluations) {
                    break reason;
                }
                chains += 1;
                let grids = observer.wants_grids();
                let (start_cost, start_best) = (st.cost, st.best_cost);
                // exp(-delta / t) for the possible uphill deltas (a swap changes at most two
                // rows and two columns by one missing value each, so delta <= 4), once a chain.
                let accept: [f64; 8] = std::array::from_fn(|d| {
                    if d <= 4 {
                        acceptance_probability(d as i32, t)
                    } else {
                        0.0
                    }
                });
                // The evaluation limit, checked once for the whole chain: it ends the chain
                // after exactly the moves left.
                let room = budget.evaluations_left(st.evaluations);
                let moves = chain_length.min(room);
                match cfg.box_choice {
                    BoxChoice::UniformBox => chain(
                        &mut st,
                        BoxChoice::UniformBox,
                        moves,
                        &accept,
                        rng,
                        &mut tally,
                        grids,
                        observer,
                    ),
                    BoxChoice::UniformPair => chain(
                        &mut st,
                        BoxChoice::UniformPair,
                        moves,
                        &accept,
                        rng,
                        &mut tally,
                        grids,
                        observer,
                    ),
                }
                observer.generation(chains, st.evaluations, st.best_cost as f64);
                if st.best_cost == 0 {
                    continue;
                }
                t *= cfg.alpha;
                let improved = match cfg.reheat_trigger {
                    ReheatTrigger::BestCost => st.best_cost < start_best,
                    ReheatTrigger::CurrentCost => st.cost < start_cost,
                };
                stale = if improved { 0 } else { stale + 1 };
                if cfg.reheat != Reheat::Never && stale >= cfg.reheat_after {
                    stale = 0;
                    reheats += 1;
                    t = t0;
                    if cfg.reheat == Reheat::Randomise && !budget.evaluations_spent(st.evaluations)
                    {
                        layout.random_fill(&mut st.cells, rng);
                        st.kernel.load(&layout, &st.cells);
                        st.cost = st.kernel.cost();
                        st.evaluations += 1;
                        st.note_best(grids, observer);
                    }
                    observer.restart(chains);
                }
            },
        };
        RunOutcome {
            solved: st.best_cost == 0,
            best_fitness: st.best_cost as f64,
            generations: chains,
            evaluations: st.evaluations,
            restarts: reheats,
            termination,
            grid: Grid::from_cells(geom, st.best).expect("cells in range"),
            counters: vec![
                ("reheats", reheats),
                ("accepted_moves", tally[0]),
                ("improving_moves", tally[1]),
                ("t0_x1000", (t0 * 1000.0).round() as u64),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    //! The hot loop against the loop of revision 1ee7bd4 ([`crate::reference`]): the same
    //! random draws in the same order and the same decisions, checked move by move and over
    //! whole runs (outcome, counters, observer calls, and the generator's state after the run).

    use super::*;
    use crate::ops::{below, Counts};
    use rand::{Rng as _, RngCore};
    use sudoku_core::{bank_puzzle, exact, rng_from_seed, Geometry, NoObserver};

    /// Every observer call, in order.
    #[derive(Default, PartialEq, Debug)]
    struct Log {
        grids: bool,
        events: Vec<String>,
    }

    impl Observer for Log {
        fn generation(&mut self, g: u64, e: u64, best: f64) {
            self.events.push(format!("gen {g} {e} {best}"));
        }
        fn restart(&mut self, g: u64) {
            self.events.push(format!("restart {g}"));
        }
        fn wants_grids(&self) -> bool {
            self.grids
        }
        fn best_grid(&mut self, e: u64, cells: &[u8]) {
            self.events.push(format!("grid {e} {cells:?}"));
        }
    }

    fn blanked(r: usize, c: usize, blank: f64, seed: u64) -> Puzzle {
        let geom = Geometry::new(r, c).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut g = exact::random_solution(geom, &mut rng);
        for v in g.cells_mut() {
            if rng.random_bool(blank) {
                *v = 0;
            }
        }
        Puzzle::new(format!("{r}x{c}"), g)
    }

    fn puzzles() -> Vec<Puzzle> {
        let mut p: Vec<Puzzle> = ["mk_1star", "mk_superdifficult", "reseda_hard"]
            .iter()
            .map(|id| bank_puzzle(id).unwrap().clone())
            .collect();
        for (i, &(r, c)) in [(2, 2), (2, 3), (3, 4), (4, 4), (5, 5)].iter().enumerate() {
            p.push(blanked(r, c, 0.5, 7 + i as u64));
        }
        // A grid with single free cells in some boxes and none in others.
        p.push(blanked(3, 3, 0.08, 3));
        p
    }

    fn configs() -> Vec<LewisConfig> {
        let d = LewisConfig::default;
        vec![
            d(),
            LewisConfig {
                box_choice: BoxChoice::UniformPair,
                ..d()
            },
            LewisConfig {
                t0_sampling: T0Sampling::Walk,
                reheat: Reheat::Randomise,
                reheat_after: 2,
                chain_length: Some(500),
                ..d()
            },
            LewisConfig {
                reheat_trigger: ReheatTrigger::BestCost,
                reheat: Reheat::Never,
                alpha: 0.9,
                chain_length: Some(300),
                ..d()
            },
            LewisConfig {
                t0_samples: 2,
                alpha: 0.5,
                chain_length: Some(50),
                box_choice: BoxChoice::UniformPair,
                reheat: Reheat::Randomise,
                reheat_after: 1,
                ..d()
            },
        ]
    }

    #[test]
    fn below_draws_as_random_range() {
        for seed in 0..50u64 {
            let (mut a, mut b) = (rng_from_seed(seed), rng_from_seed(seed));
            for k in 0..2000u32 {
                // Small ranges as in the loop, and large ones where the second draw happens.
                let range = match k % 4 {
                    0 => 1 + k % 25,
                    1 => 1 + k % 2,
                    2 => u32::MAX - k,
                    _ => (1 << 31) + k * 7919,
                };
                let want = a.random_range(0..range as usize);
                assert_eq!(
                    below(&mut b, range) as usize,
                    want,
                    "seed {seed} range {range}"
                );
            }
            assert_eq!(a.next_u64(), b.next_u64(), "seed {seed}: streams diverged");
        }
    }

    #[test]
    fn kernel_moves_and_deltas_equal_layout_and_counts_step_by_step() {
        for (i, p) in puzzles().iter().enumerate() {
            let layout = Layout::new(&p.grid);
            if layout.swappable.is_empty() {
                continue;
            }
            let mut rng = rng_from_seed(40 + i as u64);
            let mut cells = vec![0u8; p.geometry().cells()];
            layout.random_fill(&mut cells, &mut rng);
            let mut counts = Counts::new(&layout, &cells);
            let mut kernel = Kernel::new(&layout, &cells);
            let mut fast_cells = cells.clone();
            assert_eq!(kernel.cost(), counts.cost());
            for k in 0..4000 {
                let choice = if k % 3 == 0 {
                    BoxChoice::UniformPair
                } else {
                    BoxChoice::UniformBox
                };
                let mut fast_rng = rng.clone();
                let (a, b) = layout.pick_move(choice, &mut rng).unwrap();
                let (p, q) = kernel.pick(choice, &mut fast_rng);
                assert_eq!((kernel.cell(p), kernel.cell(q)), (a, b), "{} move {k}", p);
                assert_eq!(rng, fast_rng, "move {k}: the draws differ");
                let delta = counts.swap_delta(&layout, &cells, a, b);
                assert_eq!(kernel.delta(p, q), delta, "move {k}");
                if rng.random_bool(0.5) {
                    counts.apply_swap(&layout, &mut cells, a, b);
                    kernel.apply(p, q, &mut fast_cells);
                    assert_eq!(fast_cells, cells);
                    assert_eq!(kernel.cost(), counts.cost());
                }
            }
        }
    }

    #[test]
    fn whole_runs_equal_the_reference_loop_over_many_seeds() {
        let budgets = [
            Budget {
                max_generations: None,
                max_evaluations: Some(20_000),
            },
            Budget {
                max_generations: Some(7),
                max_evaluations: None,
            },
            Budget {
                max_generations: None,
                max_evaluations: Some(37),
            },
        ];
        let mut runs = 0;
        for (pi, p) in puzzles().iter().enumerate() {
            for (ci, cfg) in configs().into_iter().enumerate() {
                let sa = LewisSa::new(cfg.clone()).unwrap();
                for (bi, budget) in budgets.iter().enumerate() {
                    for seed in 0..4u64 {
                        let s = seed + 10 * (pi as u64 + 10 * (ci as u64 + 10 * bi as u64));
                        let grids = seed % 2 == 0;
                        let (mut r1, mut r2) = (rng_from_seed(s), rng_from_seed(s));
                        let (mut o1, mut o2) = (
                            Log {
                                grids,
                                ..Log::default()
                            },
                            Log {
                                grids,
                                ..Log::default()
                            },
                        );
                        let want = reference::solve(&cfg, p, budget, &mut r1, &mut o1);
                        let got = sa.solve(p, budget, &mut r2, &mut o2);
                        let at = format!("{} config {ci} budget {bi} seed {s}", p.id);
                        assert_eq!(got, want, "{at}");
                        assert_eq!(o2, o1, "{at}: observer calls");
                        assert_eq!(r2.next_u64(), r1.next_u64(), "{at}: generator state");
                        runs += 1;
                    }
                }
            }
        }
        assert_eq!(runs, 9 * 5 * 3 * 4);
    }

    #[test]
    fn solved_runs_equal_the_reference_loop() {
        // Runs to the end (solved), where the new-best path and its early stop matter.
        let cfg = LewisConfig::default();
        let sa = LewisSa::new(cfg.clone()).unwrap();
        let mut solved = 0;
        for id in ["mk_1star", "mk_easy", "reseda_easy"] {
            let p = bank_puzzle(id).unwrap();
            for seed in 0..3u64 {
                let (mut r1, mut r2) = (rng_from_seed(seed), rng_from_seed(seed));
                let budget = Budget::generations(2000);
                let want = reference::solve(&cfg, p, &budget, &mut r1, &mut NoObserver);
                let got = sa.solve(p, &budget, &mut r2, &mut NoObserver);
                assert_eq!(got, want, "{id} seed {seed}");
                assert_eq!(r2.next_u64(), r1.next_u64(), "{id} seed {seed}");
                solved += usize::from(got.solved);
            }
        }
        assert!(
            solved >= 6,
            "only {solved} of 9 runs solved: the test lost its point"
        );
    }
}

//! # ret-ga: the Retrievable Genetic Algorithm
//!
//! K. N. Das, S. Bhatia, S. Puri, K. Deep, "Solving Sudoku Puzzle by Evolutionary Algorithm"
//! (conference version, `000`, which holds Table 1 and Fig. 7) and "A Retrievable GA for Solving
//! Sudoku Puzzles" (journal version, `002`, which adds the performance index and Fig. 8).
//!
//! ## Parameters: paper -> config -> default
//!
//! | paper | field | default | words |
//! |---|---|---|---|
//! | population 10N | [`RetGaConfig::population_factor`] | 10 (90 for 9x9) | "consists of 10*N individuals" |
//! | crossover probability | [`RetGaConfig::crossover_probability`] | 0.8 | "with a crossover probability 0.8" |
//! | mutation probability | [`RetGaConfig::mutation_probability`] | 0.2 | "replaced by a randomly generated number (from 1 to N) with a probability of 0.2" |
//! | reset points | [`RetGaConfig::reset_point`] | `None` = [`paper_reset_point`] (2000 / 350 / 300 / 200 by givens) | "2000 if there are 27 givens or less, 350 if ... 28 or 29, 300 if ... 30 or 31 and 200 if there are 32 givens or more" |
//! | what a reset point counts | [`RetGaConfig::reset_rule`] | [`ResetRule::Stagnation`] | `000`: "generations needed to wait with a repeated fitness values"; `002`: "generations after which the algorithm attempts to regenerate" |
//! | G_i of Remove Repetition | [`RetGaConfig::repetition_set`] | [`RepetitionSet::PresentInUnit`] | "G_i is the set of numbers present in the i th row or column" |
//! | crossover pairs | [`RetGaConfig::pairing`] | [`Pairing::Consecutive`] | "Select 2 conjugative individuals"; "between two consecutive individuals" |
//! | alternate elitism order | [`RetGaConfig::elite_order`] | [`EliteOrder::BestFirst`] | "Arrange the individuals in the ascending order of their fitness values" |
//! | generation of a mid-generation success | [`RetGaConfig::success_generation`] | [`SuccessGeneration::Current`] | not stated |
//! | maximum generations | `Budget::max_generations` (runner) | 50 000 | "the maximum generation (fixed to 50,000)" |
//! | fitness | `sudoku_core::fitness::RetGaFitness` | max 3N^2(N-1)/2 = 972 | eqs. (2)-(6) |
//!
//! ## One generation, as Fig. 6 draws it
//! 1. The 10N parents are copied; consecutive pairs cross with probability 0.8 (alternate rows
//!    exchanged); crossed children get Remove Repetition and are evaluated, and the run stops
//!    if one is a solution ("check if solution found" after crossover). Children of pairs that
//!    did not cross are identical to their parents, which were already checked, so they are not
//!    re-evaluated.
//! 2. Every child gets bit-wise mutation, Remove Repetition and an evaluation; the run stops on
//!    a solution.
//! 3. Alternate elitism over parents + children (20N) gives the next 10N.
//! 4. The reset rule may reinitialise the population (random cells + Remove Repetition,
//!    evaluated and checked). The generation counter runs on across resets: "only if the
//!    number of generation is not attaining the maximum of 50000".
//!
//! Effort: generations as Table 1 counts them, and fitness evaluations (initial population,
//! crossed children, mutated children, reinitialised populations).

pub mod config;
pub mod ops;

pub use config::{
    paper_reset_point, EliteOrder, Pairing, RepetitionSet, ResetRule, RetGaConfig, RetGaError,
    SuccessGeneration,
};

use ops::{
    alternate_elitism, bitwise_mutation, random_individual, remove_repetition,
    row_uniform_crossover, Blueprint,
};
use rand::seq::SliceRandom;
use rand::Rng as _;
use sudoku_core::fitness::RetGaFitness;
use sudoku_core::{Budget, Grid, Observer, Puzzle, Rng, RunOutcome, Solver, Termination, Units};

/// The Retrievable GA with a validated configuration.
#[derive(Debug, Clone)]
pub struct RetGa {
    config: RetGaConfig,
}

impl RetGa {
    pub fn new(config: RetGaConfig) -> Result<Self, RetGaError> {
        config.validate()?;
        Ok(RetGa { config })
    }
    pub fn config(&self) -> &RetGaConfig {
        &self.config
    }
    /// The reset point used for a puzzle.
    pub fn reset_point(&self, puzzle: &Puzzle) -> u64 {
        self.config
            .reset_point
            .unwrap_or_else(|| paper_reset_point(puzzle.givens()))
    }
}

/// Run state: flat buffers allocated once per run.
struct State<'a> {
    cfg: &'a RetGaConfig,
    bp: Blueprint,
    fit: RetGaFitness,
    cells: usize,
    pop: usize,
    /// Parents (pop x cells) then children (pop x cells): the 20N pool.
    pool: Vec<u8>,
    pool_fit: Vec<u32>,
    next: Vec<u8>,
    next_fit: Vec<u32>,
    order: Vec<u16>,
    selected: Vec<u16>,
    perm: Vec<u16>,
    evaluations: u64,
    crossovers: u64,
    redrawn: u64,
    repetitions_removed: u64,
}

impl State<'_> {
    fn individual(&mut self, k: usize) -> &mut [u8] {
        &mut self.pool[k * self.cells..(k + 1) * self.cells]
    }

    /// Evaluate pool member `k`; true when it is a solution.
    fn evaluate(&mut self, k: usize) -> bool {
        let f = self
            .fit
            .eval(&self.pool[k * self.cells..(k + 1) * self.cells]);
        self.pool_fit[k] = f;
        self.evaluations += 1;
        f == self.fit.max()
    }

    /// Fresh random parents with Remove Repetition; returns a solved index if any.
    fn initialise(&mut self, rng: &mut Rng) -> Option<usize> {
        let mut found = None;
        for k in 0..self.pop {
            let (bp, set) = (&self.bp, self.cfg.repetition_set);
            let cells = self.cells;
            let ind = &mut self.pool[k * cells..(k + 1) * cells];
            random_individual(bp, ind, rng);
            self.repetitions_removed += remove_repetition(bp, set, ind, rng) as u64;
            if self.evaluate(k) && found.is_none() {
                found = Some(k);
            }
        }
        found
    }

    fn best(&self) -> (usize, u32) {
        let (k, &f) = self.pool_fit[..self.pop]
            .iter()
            .enumerate()
            .max_by_key(|&(i, &f)| (f, std::cmp::Reverse(i)))
            .expect("population is not empty");
        (k, f)
    }

    /// Crossover then mutation of the children; returns a solved pool index if any.
    fn breed(&mut self, rng: &mut Rng) -> Option<usize> {
        let (pop, cells) = (self.pop, self.cells);
        self.pool.copy_within(0..pop * cells, pop * cells);
        self.pool_fit.copy_within(0..pop, pop);
        self.perm.clear();
        self.perm.extend(0..pop as u16);
        if self.cfg.pairing == Pairing::Random {
            self.perm.shuffle(rng);
        }
        for pair in 0..pop / 2 {
            if !rng.random_bool(self.cfg.crossover_probability) {
                continue;
            }
            self.crossovers += 1;
            let (a, b) = (
                self.perm[2 * pair] as usize,
                self.perm[2 * pair + 1] as usize,
            );
            let (lo, hi) = (a.min(b), a.max(b));
            let (x, y) = self.pool[pop * cells..].split_at_mut(hi * cells);
            let ca = &mut x[lo * cells..(lo + 1) * cells];
            let cb = &mut y[..cells];
            row_uniform_crossover(self.bp.geom, ca, cb);
            let set = self.cfg.repetition_set;
            self.repetitions_removed += remove_repetition(&self.bp, set, ca, rng) as u64;
            self.repetitions_removed += remove_repetition(&self.bp, set, cb, rng) as u64;
            for k in [pop + lo, pop + hi] {
                if self.evaluate(k) {
                    return Some(k);
                }
            }
        }
        for k in pop..2 * pop {
            let (bp, p, set) = (
                &self.bp,
                self.cfg.mutation_probability,
                self.cfg.repetition_set,
            );
            let ind = &mut self.pool[k * cells..(k + 1) * cells];
            self.redrawn += bitwise_mutation(bp, p, ind, rng) as u64;
            self.repetitions_removed += remove_repetition(bp, set, ind, rng) as u64;
            if self.evaluate(k) {
                return Some(k);
            }
        }
        None
    }

    /// Alternate elitism: the next parents from the 20N pool.
    fn select(&mut self) {
        let best_first = self.cfg.elite_order == EliteOrder::BestFirst;
        alternate_elitism(
            &self.pool_fit,
            best_first,
            &mut self.order,
            &mut self.selected,
        );
        let cells = self.cells;
        for (slot, &k) in self.selected.iter().enumerate() {
            let k = k as usize;
            self.next[slot * cells..(slot + 1) * cells]
                .copy_from_slice(&self.pool[k * cells..(k + 1) * cells]);
            self.next_fit[slot] = self.pool_fit[k];
        }
        self.pool[..self.pop * cells].copy_from_slice(&self.next);
        self.pool_fit[..self.pop].copy_from_slice(&self.next_fit);
    }
}

impl Solver for RetGa {
    fn name(&self) -> &'static str {
        "ret-ga"
    }

    fn solve(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        let geom = puzzle.geometry();
        let units = Units::new(geom);
        let cells = geom.cells();
        let pop = self.config.population_factor * geom.n();
        let mut st = State {
            cfg: &self.config,
            bp: Blueprint::new(puzzle),
            fit: RetGaFitness::new(&units),
            cells,
            pop,
            pool: vec![0; 2 * pop * cells],
            pool_fit: vec![0; 2 * pop],
            next: vec![0; pop * cells],
            next_fit: vec![0; pop],
            order: Vec::with_capacity(2 * pop),
            selected: vec![0; pop],
            perm: Vec::with_capacity(pop),
            evaluations: 0,
            crossovers: 0,
            redrawn: 0,
            repetitions_removed: 0,
        };
        let reset_point = self.reset_point(puzzle);
        let mut restarts = 0u64;
        let mut generation = 0u64;
        let mut solved_at = st.initialise(rng);
        let (_, mut best) = st.best();
        let mut since_improvement = 0u64;
        let mut since_restart = 0u64;
        let mut termination = Termination::GenerationLimit;
        while solved_at.is_none() {
            if let Some(reason) = budget.reason(generation, st.evaluations) {
                termination = reason;
                break;
            }
            generation += 1;
            if let Some(k) = st.breed(rng) {
                solved_at = Some(k);
                break;
            }
            st.select();
            let (_, b) = st.best();
            if b > best {
                best = b;
                since_improvement = 0;
            } else {
                since_improvement += 1;
            }
            since_restart += 1;
            observer.generation(generation, st.evaluations, best as f64);
            let reset = match self.config.reset_rule {
                ResetRule::Stagnation => since_improvement >= reset_point,
                ResetRule::FixedPeriod => since_restart >= reset_point,
                ResetRule::Never => false,
            };
            if reset {
                restarts += 1;
                observer.restart(generation);
                if let Some(k) = st.initialise(rng) {
                    solved_at = Some(k);
                    break;
                }
                best = st.best().1;
                since_improvement = 0;
                since_restart = 0;
            }
        }
        let (k, fitness) = match solved_at {
            Some(k) => {
                termination = Termination::Solved;
                (k, st.fit.max())
            }
            None => {
                let (k, f) = st.best();
                (k, f)
            }
        };
        let generations = match (solved_at, self.config.success_generation) {
            (Some(_), SuccessGeneration::Completed) => generation.saturating_sub(1),
            _ => generation,
        };
        let grid = Grid::from_cells(geom, st.individual(k).to_vec()).expect("cells in range");
        RunOutcome {
            solved: solved_at.is_some(),
            best_fitness: fitness as f64,
            generations,
            evaluations: st.evaluations,
            restarts,
            termination,
            grid,
            counters: vec![
                ("crossovers", st.crossovers),
                ("cells_redrawn", st.redrawn),
                ("repetitions_removed", st.repetitions_removed),
                ("reset_point", reset_point),
            ],
        }
    }
}

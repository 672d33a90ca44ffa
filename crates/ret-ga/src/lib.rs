//! # ret-ga: the Retrievable Genetic Algorithm
//!
//! K. N. Das, S. Bhatia, S. Puri, K. Deep, "Solving Sudoku Puzzle by Evolutionary Algorithm"
//! (the conference version, which holds Table 1 and Fig. 7) and "A Retrievable GA for Solving
//! Sudoku Puzzles" (the journal version, which adds the performance index and Fig. 8): Das et
//! al. in docs/bibliography.md (codes `000` and `002`).
//!
//! ## Parameters: paper -> config -> default
//!
//! | paper | field | default | words |
//! |---|---|---|---|
//! | population 10N | [`RetGaConfig::population_factor`] | 10 (90 for 9x9) | "consists of 10*N individuals" |
//! | crossover probability | [`RetGaConfig::crossover_probability`] | 0.8 | "with a crossover probability 0.8" |
//! | mutation probability | [`RetGaConfig::mutation_probability`] | 0.2 | "replaced by a randomly generated number (from 1 to N) with a probability of 0.2" |
//! | reset points | [`RetGaConfig::reset_point`] | `None` = [`paper_reset_point`] (2000 / 350 / 300 / 200 by givens) | "2000 if there are 27 givens or less, 350 if ... 28 or 29, 300 if ... 30 or 31 and 200 if there are 32 givens or more" |
//! | what a reset point counts | [`RetGaConfig::reset_rule`] | [`ResetRule::Stagnation`] | conference version: "generations needed to wait with a repeated fitness values"; journal version: "generations after which the algorithm attempts to regenerate" |
//! | G_i of Remove Repetition | [`RetGaConfig::repetition_set`] | [`RepetitionSet::PresentInUnit`] | "G_i is the set of numbers present in the i th row or column" |
//! | crossover pairs | [`RetGaConfig::pairing`] | [`Pairing::Consecutive`] | "Select 2 conjugative individuals"; "between two consecutive individuals" |
//! | alternate elitism order (which members of a tie survive, pairing order) | [`RetGaConfig::elite_order`] | [`EliteOrder::Ascending`] | "Arrange the individuals in the ascending order of their fitness values" |
//! | survivors of the 20N pool | [`RetGaConfig::elitism`] | [`Elitism::Alternate`] | "the alternate individuals are then selected"; "neither complete nor partial elitism was found to be efficient" |
//! | rows a crossover exchanges | [`RetGaConfig::crossover_rows`] | [`CrossoverRows::Alternate`] | "Now interchange the rows alternatively throughout" |
//! | repetitions Remove Repetition replaces | [`RetGaConfig::repetition_scope`] | [`RepetitionScope::Givens`] | "any repetition of a given is replaced ... repetition of non-givens is not removed by this process" |
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
//!
//! ## Cost
//! Every individual carries the count of each value in each of its units (a byte per value
//! up to order 15) and its number of not-distinct pairs ([`tracked`]): a changed cell updates
//! the fitness in three steps, Remove Repetition finds the units it has to visit from the
//! counts (eight units tested at once) and stops a unit's scan at its last repeated cell, and
//! crossover touches only the exchanged cells that differ. The mutation's and the
//! crossover's coins are a threshold on one draw, as rand's `Bernoulli` is; the hot loops work
//! on the generator's bare state ([`sudoku_core::RawRng`], the same outputs) in registers,
//! the mutation tossing four cells a loop turn. A generation makes one call per crossed pair
//! (crossover, then Remove Repetition on both children) and one per child (mutation, then
//! Remove Repetition). A member's counts and cells sit in one block, copied at once. Survivors
//! are ranked by a counting sort over the fitness range, and selection reorders the pool's
//! member slots instead of copying members. These change the cost only:
//! the operators draw the same random numbers and leave the same cells as the plain ones in
//! [`ops`] (tested), so every run is the run the plain operators give.

pub mod config;
pub mod ops;
pub mod tracked;

pub use config::{
    paper_reset_point, CrossoverRows, EliteOrder, Elitism, Pairing, RepetitionScope, RepetitionSet,
    ResetRule, RetGaConfig, RetGaError, SuccessGeneration, AMBIGUITIES,
};

use ops::{random_individual, select_survivors, Blueprint};
use rand::seq::SliceRandom;
use sudoku_core::fitness::RetGaFitness;
use sudoku_core::{Budget, Grid, Observer, Puzzle, Rng, RunOutcome, Solver, Termination, Units};
use tracked::{Counts, Layout, Pool};

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

/// Run state: buffers allocated once per run. Every pool member carries its count table
/// ([`tracked`]), so its fitness is known at any time as `max - equal pairs`.
struct State<'a, A: Counts> {
    cfg: &'a RetGaConfig,
    bp: Blueprint,
    lay: Layout<A>,
    coin: tracked::Coin,
    /// The crossover's coin (`Rng::random_bool(crossover_probability)`, built once).
    cross_coin: tracked::Coin,
    /// The plain fitness, to check the counts in debug builds.
    fit: RetGaFitness,
    max: u32,
    pop: usize,
    /// The 20N members; `slot[k]` holds pool index k: parents (0..pop) then children
    /// (pop..2 pop). Survivor selection reorders `slot` and copies no member.
    pool: Pool<A>,
    slot: Vec<u16>,
    /// The fitness of pool index k (not of member `slot[k]`).
    pool_fit: Vec<u32>,
    /// Scratch for the next `slot`: which members survive.
    kept: Vec<bool>,
    next_slot: Vec<u16>,
    order: Vec<u16>,
    histogram: Vec<u32>,
    selected: Vec<u16>,
    perm: Vec<u16>,
    evaluations: u64,
    crossovers: u64,
    redrawn: u64,
    repetitions_removed: u64,
}

impl<A: Counts> State<'_, A> {
    /// Evaluate pool member `k` (its fitness follows from its counts); true when it is a
    /// solution.
    fn evaluate(&mut self, k: usize) -> bool {
        let s = self.slot[k] as usize;
        let f = self.max - self.pool.equal_of(s);
        debug_assert_eq!(f, self.fit.eval(self.pool.cells_of(s)));
        self.pool_fit[k] = f;
        self.evaluations += 1;
        f == self.max
    }

    /// Remove Repetition on pool member `k`.
    fn remove_repetition(&mut self, k: usize, rng: &mut Rng) {
        let mut m = self.pool.member(self.slot[k] as usize);
        let set = self.cfg.repetition_set;
        self.repetitions_removed +=
            tracked::remove_repetition(&self.bp, &self.lay, set, &mut m, rng) as u64;
    }

    /// Fresh random parents with Remove Repetition; returns a solved index if any.
    fn initialise(&mut self, rng: &mut Rng) -> Option<usize> {
        let mut found = None;
        for k in 0..self.pop {
            let mut m = self.pool.member(self.slot[k] as usize);
            random_individual(&self.bp, m.cells, rng);
            self.lay.recount(&mut m);
            self.remove_repetition(k, rng);
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
        let pop = self.pop;
        for k in 0..pop {
            let (from, to) = (self.slot[k] as usize, self.slot[pop + k] as usize);
            self.pool.copy_member(from, to);
        }
        self.pool_fit.copy_within(0..pop, pop);
        self.perm.clear();
        self.perm.extend(0..pop as u16);
        if self.cfg.pairing == Pairing::Random {
            self.perm.shuffle(rng);
        }
        for pair in 0..pop / 2 {
            if !self.cross_coin.toss(rng) {
                continue;
            }
            self.crossovers += 1;
            let (a, b) = (
                self.perm[2 * pair] as usize,
                self.perm[2 * pair + 1] as usize,
            );
            let (lo, hi) = (a.min(b), a.max(b));
            // Crossover is symmetric in its two members, so their order in the pool is free.
            let (sa, sb) = (self.slot[pop + lo] as usize, self.slot[pop + hi] as usize);
            let (mut ca, mut cb) = self.pool.pair(sa.min(sb), sa.max(sb));
            // Remove Repetition on the child at `pop + lo` first.
            let (first, second) = if sa < sb {
                (&mut ca, &mut cb)
            } else {
                (&mut cb, &mut ca)
            };
            let (rows, set) = (self.cfg.crossover_rows, self.cfg.repetition_set);
            let (x, y) = tracked::crossover_then_fix(&self.lay, rows, set, first, second, rng);
            self.repetitions_removed += u64::from(x) + u64::from(y);
            for k in [pop + lo, pop + hi] {
                if self.evaluate(k) {
                    return Some(k);
                }
            }
        }
        let set = self.cfg.repetition_set;
        for k in pop..2 * pop {
            let mut m = self.pool.member(self.slot[k] as usize);
            let (redrawn, changed) =
                tracked::mutate_then_fix(&self.lay, &self.coin, set, &mut m, rng);
            self.redrawn += u64::from(redrawn);
            self.repetitions_removed += u64::from(changed);
            if self.evaluate(k) {
                return Some(k);
            }
        }
        None
    }

    /// Survivor selection ([`select_survivors`]): the next parents from the 20N pool.
    fn select(&mut self) {
        select_survivors(
            &self.pool_fit,
            self.cfg.elite_order,
            self.cfg.elitism,
            &mut self.order,
            &mut self.histogram,
            &mut self.selected,
        );
        // The survivors' members in selection order, then the others' (the next children's
        // places, overwritten by the next breeding).
        self.kept.fill(false);
        self.next_slot.clear();
        for &k in &self.selected {
            self.kept[k as usize] = true;
            self.next_slot.push(self.slot[k as usize]);
        }
        for (k, &s) in self.slot.iter().enumerate() {
            if !self.kept[k] {
                self.next_slot.push(s);
            }
        }
        std::mem::swap(&mut self.slot, &mut self.next_slot);
        for k in 0..self.pop {
            self.pool_fit[k] = self.max - self.pool.equal_of(self.slot[k] as usize);
        }
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
        // Counts: a byte per value up to order 15, 5-bit fields in a u128 above.
        if puzzle.geometry().n() <= 15 {
            self.run::<tracked::Bytes>(puzzle, budget, rng, observer)
        } else {
            self.run::<u128>(puzzle, budget, rng, observer)
        }
    }
}

impl RetGa {
    fn run<A: Counts>(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        let geom = puzzle.geometry();
        let units = Units::new(geom);
        let pop = self.config.population_factor * geom.n();
        let bp = Blueprint::new(puzzle);
        let lay = Layout::<A>::new(&bp, self.config.repetition_scope);
        let fit = RetGaFitness::new(&units);
        let mut st = State {
            cfg: &self.config,
            pool: Pool::new(&lay, 2 * pop),
            slot: (0..2 * pop as u16).collect(),
            kept: vec![false; 2 * pop],
            next_slot: Vec::with_capacity(2 * pop),
            bp,
            lay,
            coin: tracked::Coin::new(self.config.mutation_probability).expect("validated"),
            cross_coin: tracked::Coin::new(self.config.crossover_probability).expect("validated"),
            max: fit.max(),
            fit,
            pop,
            pool_fit: vec![0; 2 * pop],
            order: Vec::with_capacity(2 * pop),
            histogram: Vec::new(),
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
            if observer.wants_grids() {
                let s = st.slot[st.best().0] as usize;
                observer.best_grid(st.evaluations, st.pool.cells_of(s));
            }
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
                (k, st.max)
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
        let cells = st.pool.cells_of(st.slot[k] as usize).to_vec();
        let grid = Grid::from_cells(geom, cells).expect("cells in range");
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

#[cfg(test)]
mod ambiguity_table {
    /// The ambiguity table is consistent (the registry's test checks each value builds).
    #[test]
    fn the_ambiguity_table_is_consistent() {
        sudoku_core::Ambiguity::check_table(super::AMBIGUITIES).unwrap();
    }
}

//! # mk-ga
//!
//! The genetic algorithm of **Mantere & Koljonen** for Sudoku:
//!
//! - T. Mantere, J. Koljonen, "Solving and Rating Sudoku Puzzles with Genetic Algorithms",
//!   in *New Developments in Artificial Intelligence and the Semantic Web*, Proc. 12th Finnish
//!   Artificial Intelligence Conference (STeP 2006), pp. 86-92, 2006;
//! - T. Mantere, J. Koljonen, "Solving, Rating and Generating Sudoku Puzzles with GA",
//!   IEEE Congress on Evolutionary Computation (CEC 2007), pp. 1382-1389, 2007;
//!
//! as described by **Das, Bhatia, Puri & Deep**, "Solving Sudoku Puzzle by Evolutionary Algorithm"
//! (the conference version of Ret-GA; docs/bibliography.md, code `000`; sections 2 and 3), whose
//! Table 1 column "GA" reports M&K's results, and completed from secondary sources where neither
//! says more.
//!
//! **Read this first.** The full text of neither M&K paper was available to us. Only the
//! fitness, the representation, "crossover with probability 1" and the mutation ratio come from
//! Das et al.; population, elitism, the selection loop, ageing and restarts come from one
//! anonymous secondary summary ("S4", Spanish student notes under the heading "Mantere and
//! Koljonen 2007"), and several details are stated nowhere. Each is a named option below, with
//! the words of its source, so an experiment can say which reading it used.
//!
//! ## The algorithm
//!
//! - **Representation and initialisation.** An individual is a full grid in which every box
//!   (sub-square) is a permutation of 1..=N keeping the givens; the initial population fills
//!   the free cells of each box with a uniformly random permutation of the box's missing values
//!   ([`ops::init_individual`]). Any box shape of sudoku-core works (N = box_rows x box_cols).
//! - **Fitness.** Eq. (1) of Das et al. ([`sudoku_core::fitness::mk_fitness`], minimised, 0.0
//!   exactly for a solution), computed by [`sudoku_core::fitness::MkEvaluator`], which equals it
//!   bit for bit.
//! - **Selection and replacement** ([`Selection::SortedSlotReplacement`]). The population is
//!   kept sorted best-first by the ranking fitness. For i = POP-1 down to ELIT, two parents are
//!   drawn uniformly among ranks 0..i-1 and their child replaces rank i; since the loop runs
//!   downwards, parents always come from the previous population. Then the population is
//!   evaluated and sorted again (stable sort, so ties keep the older individual ahead).
//! - **Crossover** ([`ops::crossover_boxes`]) exchanges whole boxes, with probability 1;
//!   without crossover (`crossover_probability < 1`) the child is a copy of the first parent.
//! - **Mutation** ([`ops::mutate`]) acts inside one random box: swap, 3-swap or insertion in the
//!   ratio 0.5 : 0.3 : 0.2, rejected when the "help array" forbids it ([`ops::is_legal`]: no
//!   value may be moved into a cell whose row or column holds that value as a given) and then
//!   retried with a new box and new positions.
//! - **Ageing.** While the same individual stays best (rank 0) across generations, its ranking
//!   fitness grows by `ageing_bonus` per generation kept; solutions are always detected on the
//!   true fitness.
//! - **Restart.** After 2000 generations without improvement of the best true fitness, the
//!   whole population is reinitialised.
//!
//! ## Parameters
//!
//! Sources: **ORIGINAL** = M&K's own text (none of the parameters: only the CEC 2007 abstract was
//! reachable); **Das** = Das et al., conference version, sections 2-3 (quoted); **S4** = the
//! anonymous secondary summary, *unconfirmed*; **not stated** = our choice.
//!
//! | Paper parameter | Config field | Default | Source |
//! |---|---|---|---|
//! | fitness, eq. (1) | (fixed) | weights 10, 1 (square roots), 50 | Das: "f(x) = 10 * (Σ g_i1 + Σ g_j1) + (Σ sqrt(g_i2) + Σ sqrt(g_j2)) + 50 * (Σ g_i3 + Σ g_j3)" |
//! | representation | (fixed) | boxes are permutations, givens fixed | Das: "they take care of non-repetition of the numbers in each sub-square"; "The static numbers (givens) are not changed throughout the entire computation." |
//! | population size | `population` | 21 | S4: "Population -> 21" (unconfirmed) |
//! | elitism | `elitism` | 1 | S4: "Elitism Ratio -> 1 (uno sobrevive, los otros 20 cambian)" (unconfirmed) |
//! | parent selection | `selection` | [`Selection::SortedSlotReplacement`] | S4: "for( i=POP-1; i>=ELIT; i--){ x1 = ( int )(i * Math.random() ); x2 = ( int )(i * Math.random() ); . . . }" (unconfirmed); that the population is sorted and that the child replaces rank i is our reading |
//! | crossover probability | `crossover_probability` | 1.0 | Das: "the crossover operator is being used with probability 1 in the population" |
//! | crossover points | `crossover` | [`CrossoverKind::UniformBoxes`] | not stated (whole sub-squares are exchanged; how the points are chosen is unknown); alternative [`CrossoverKind::OnePointBoxes`] |
//! | mutation operators and ratio | `mutation_ratios` | swap 0.5, 3-swap 0.3, insertion 0.2 | Das: "the swap mutation, 3-swap mutation and insertion mutation with a probability ratio of 0.5:0.3:0.2" |
//! | mutation inside one sub-square | (fixed) | one random box with enough free cells | S4: "swap en zona random" (unconfirmed) |
//! | mutation rate | `mutation_probability` | 1.0 (every child is mutated once) | not stated |
//! | illegal mutation (help array) | (fixed rule) | reject a move of v into a cell whose row or column has the given v | not stated in a source we could read; S4 words a check differently: "no permite swap si quedan repetidos más de 3 veces" |
//! | retries of an illegal mutation | `mutation_retries` | 10 (at most 11 attempts) | not stated |
//! | ageing | `ageing`, `ageing_bonus` | true, +1.0 per generation kept, cumulative | S4: "Si se mantiene el top, aumentan el fitness del top en 1 por cada mantención" (unconfirmed; cumulation, reset and ranking-only use are our reading) |
//! | restart | `restart` | [`RestartRule::Stagnation`]`(2000)` | S4: "Restarts a las 2000 iteraciones" (unconfirmed; "every 2000" is [`RestartRule::FixedPeriod`]) |
//! | generation limit | `Budget::max_generations` (runner) | [`DEFAULT_MAX_GENERATIONS`] = 100 000 | not stated: Table 1's largest M&K value, 94 792 generations (3 Star), implies a limit of at least ~95 000; Das used 50 000 for Ret-GA |
//!
//! ## Readings of the ambiguous points
//!
//! - **Ageing** ("aumentan el fitness del top en 1 por cada mantención", *they increase the
//!   fitness of the top by 1 for each time it is kept*): each individual carries an age, the
//!   number of generations it survived while ranked best; its ranking key is `fitness +
//!   ageing_bonus * age`. A new child starts at age 0, so the bonus is reset whenever a new
//!   individual becomes best. The age changes only the ranking: the true fitness is kept,
//!   reported and used to detect a solution (0.0) and improvement. With the default elitism of 1
//!   an aged best that a worse child overtakes falls to rank >= 1 and is replaced in the next
//!   generation (counter `elite_aged_out`).
//! - **Restart** ("Restarts a las 2000 iteraciones"): [`RestartRule::Stagnation`] counts
//!   generations since the best *true* fitness seen since the last (re)initialisation last
//!   improved; [`RestartRule::FixedPeriod`] restarts every k generations. A restart
//!   reinitialises the *whole* population at random: the best individual is **not** kept (it
//!   stays recorded as the run's best grid). The generation count continues; the new population
//!   costs `population` evaluations.
//! - **Selection** (`x1 = (int)(i * Math.random())`): drawn as a uniform integer in 0..i, the
//!   same distribution without the floating-point detour; x1 == x2 is allowed (the loop shows no
//!   check), and then the child is a mutated copy.
//! - **Mutation kind** is drawn once per mutation; the retries of an illegal attempt redraw the
//!   box and the cells only. A kind that no box can host (3-swap needs three free cells in a
//!   box) leaves the child unmutated.
//! - **Insertion**: the free cells of the box are taken in box (row-major) order; the value at
//!   position p is moved to position q and the values in between shift by one position.
//! - The help array constrains mutation only: the initial population may hold values that are
//!   givens of the same row or column, as the sources describe a plain random permutation.
//!
//! ## Counting
//!
//! One generation is one replacement cycle (POP - ELIT children). A solution in the initial
//! population counts generation 0; one found while producing generation g counts g (the run
//! stops at once). Evaluations: the initial population (and every reinitialised one) plus one
//! per child. The initial population is always evaluated; after that the run never exceeds
//! `Budget::max_evaluations`, stopping inside a generation if needed (`generations` then counts
//! completed generations). A budget without any limit on an unsolvable puzzle never returns.
//!
//! [`RunOutcome`]: `best_fitness` is the best true fitness of the run and `grid` its grid;
//! counters `mutations` (applied), `mutations_illegal` (rejected attempts),
//! `mutations_abandoned` (children left unmutated after every attempt failed or no box could
//! host the kind) and `elite_aged_out`. [`Observer::generation`] receives the best true fitness
//! of the current population after each generation (not called for the initial population;
//! called for the generation in which a solution is found), [`Observer::restart`] the
//! generation after which the population was reinitialised (a solution found in a reinitialised
//! population counts that generation).
//!
//! ## Sensitivity (measured, not published)
//!
//! The unstated `mutation_retries` dominates the behaviour: the help array rejects most random
//! moves once the population has settled, so with the default 10 retries about half of the
//! children stay unmutated on `mk_1star`. Over 200 seeded runs (default budget), mean / median
//! generations on mk_easy and mk_1star were 1809 / 606 and 4356 / 2925 with 10 retries,
//! 631 / 103 and 1923 / 1081 with 20, 158 / 33 and 595 / 107 with 100 (M&K in Das et al.'s Table 1:
//! 768.6 / 417 and 2466.6 / 917). Ageing barely changes these statistics (1742 / 606 and
//! 4419 / 2712 without it), in part because an unmutated copy of the aged best starts at age 0
//! and takes its place. Restarts matter: with `RestartRule::Never`, 15% (mk_easy) and 23%
//! (mk_1star) of the runs failed within 100 000 generations.
//!
//! ## Performance
//!
//! No allocation inside the generation loop: the population, the child and the best grid are
//! flat `Vec<u8>` allocated once per run; the help-array test is one bit test per moved value;
//! box crossover selects whole bands with byte masks. Eq. (1) is evaluated in full for each
//! child (~70 ns for 9x9). About 4 µs per generation (population 21) in a release build, i.e.
//! ~0.4 s for a failed 100 000-generation run. `examples/mk_stats.rs` prints success counts,
//! generation statistics and the time per generation.

pub mod ops;

use ops::{chance, crossover_boxes, init_individual, mutate};
pub use ops::{BoxLayout, CrossoverKind, MutationKind, MutationRatios};
use sudoku_core::fitness::MkEvaluator;
use sudoku_core::{Budget, Grid, Observer, Puzzle, Rng, RunOutcome, Solver, Termination};
use thiserror::Error;

/// Generation limit we use for M&K runs: not stated by any source; Das et al.'s Table 1 reports an
/// M&K run of 94 792 generations (3 Star), so their limit was at least ~95 000. Unconfirmed.
pub const DEFAULT_MAX_GENERATIONS: u64 = 100_000;

/// Parent selection and replacement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Selection {
    /// Our reading of the loop in the secondary summary S4 (unconfirmed): "for( i=POP-1;
    /// i>=ELIT; i--){ x1 = ( int )(i * Math.random() ); x2 = ( int )(i * Math.random() ); . . .
    /// }". The population is sorted best-first; for each rank i from POP-1 down to ELIT, parents
    /// are drawn uniformly among ranks 0..i-1 and their child replaces rank i.
    #[default]
    SortedSlotReplacement,
}

/// When the population is reinitialised. S4 (unconfirmed): "Restarts a las 2000 iteraciones".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RestartRule {
    /// After this many generations without improvement of the best true fitness seen since the
    /// last (re)initialisation.
    Stagnation(u64),
    /// Every this many generations.
    FixedPeriod(u64),
    /// Never.
    Never,
}

impl Default for RestartRule {
    fn default() -> Self {
        RestartRule::Stagnation(2000)
    }
}

/// Every option of the GA; see the crate docs for the source of each default.
#[derive(Debug, Clone, PartialEq)]
pub struct MkGaConfig {
    /// Population size (S4: 21, unconfirmed).
    pub population: usize,
    /// Individuals kept unchanged each generation, the best-ranked (S4: 1, unconfirmed).
    pub elitism: usize,
    /// Parent selection and replacement (S4 reading).
    pub selection: Selection,
    /// How boxes are exchanged (not stated; default uniform).
    pub crossover: CrossoverKind,
    /// Probability that a child is produced by crossover, otherwise a copy of its first parent
    /// (Das: "with probability 1").
    pub crossover_probability: f64,
    /// Probability that a child is mutated (once). Not stated; default 1.0.
    pub mutation_probability: f64,
    /// Relative weights of swap, 3-swap, insertion (Das: 0.5:0.3:0.2).
    pub mutation_ratios: MutationRatios,
    /// Further attempts after an illegal mutation (not stated; default 10).
    pub mutation_retries: u32,
    /// Ageing of the surviving best (S4, unconfirmed).
    pub ageing: bool,
    /// Ranking-fitness penalty per generation the best survives (S4: 1, unconfirmed).
    pub ageing_bonus: f64,
    /// Restart rule (S4: "2000 iteraciones", unconfirmed).
    pub restart: RestartRule,
}

impl Default for MkGaConfig {
    fn default() -> Self {
        MkGaConfig {
            population: 21,
            elitism: 1,
            selection: Selection::default(),
            crossover: CrossoverKind::default(),
            crossover_probability: 1.0,
            mutation_probability: 1.0,
            mutation_ratios: MutationRatios::default(),
            mutation_retries: 10,
            ageing: true,
            ageing_bonus: 1.0,
            restart: RestartRule::default(),
        }
    }
}

/// An invalid configuration.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum MkGaError {
    #[error("population must be at least 2 (got {0})")]
    PopulationTooSmall(usize),
    #[error(
        "elitism must be in 1..population (got {elitism} with population {population}); \
         the selection loop draws the parents of rank i among ranks 0..i-1, none for i = 0"
    )]
    ElitismOutOfRange { elitism: usize, population: usize },
    #[error("{name} must be a probability in [0, 1] (got {value})")]
    ProbabilityOutOfRange { name: &'static str, value: f64 },
    #[error("mutation ratios must be finite, non-negative and not all zero (got {0:?})")]
    BadMutationRatios(MutationRatios),
    #[error("ageing_bonus must be finite and non-negative (got {0})")]
    BadAgeingBonus(f64),
    #[error("restart period must be at least 1 generation")]
    ZeroRestartPeriod,
}

impl MkGaConfig {
    /// Check every field.
    pub fn validate(&self) -> Result<(), MkGaError> {
        if self.population < 2 {
            return Err(MkGaError::PopulationTooSmall(self.population));
        }
        if self.elitism == 0 || self.elitism >= self.population {
            return Err(MkGaError::ElitismOutOfRange {
                elitism: self.elitism,
                population: self.population,
            });
        }
        for (name, value) in [
            ("crossover_probability", self.crossover_probability),
            ("mutation_probability", self.mutation_probability),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(MkGaError::ProbabilityOutOfRange { name, value });
            }
        }
        let r = self.mutation_ratios;
        let parts = [r.swap, r.three_swap, r.insertion];
        if parts.iter().any(|x| !x.is_finite() || *x < 0.0) || r.total() <= 0.0 {
            return Err(MkGaError::BadMutationRatios(r));
        }
        if !self.ageing_bonus.is_finite() || self.ageing_bonus < 0.0 {
            return Err(MkGaError::BadAgeingBonus(self.ageing_bonus));
        }
        if matches!(
            self.restart,
            RestartRule::Stagnation(0) | RestartRule::FixedPeriod(0)
        ) {
            return Err(MkGaError::ZeroRestartPeriod);
        }
        Ok(())
    }
}

/// The Mantere & Koljonen GA. `MkGa::default()` uses [`MkGaConfig::default`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MkGa {
    config: MkGaConfig,
}

impl MkGa {
    /// A solver with a validated configuration.
    pub fn new(config: MkGaConfig) -> Result<Self, MkGaError> {
        config.validate()?;
        Ok(MkGa { config })
    }

    pub fn config(&self) -> &MkGaConfig {
        &self.config
    }
}

impl Solver for MkGa {
    fn name(&self) -> &'static str {
        "mk-ga"
    }

    fn solve(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        Run::new(&self.config, puzzle).execute(budget, rng, observer)
    }
}

/// All the state of one run, allocated once.
struct Run<'a> {
    cfg: &'a MkGaConfig,
    layout: BoxLayout,
    eval: MkEvaluator,
    /// Cells per individual.
    len: usize,
    /// `population` individuals, flat: slot s is `pop[s*len..(s+1)*len]`.
    pop: Vec<u8>,
    /// True fitness of each slot.
    fit: Vec<f64>,
    /// Generations each slot survived as best (ageing).
    age: Vec<u64>,
    /// Ranking key of each slot.
    key: Vec<f64>,
    /// Slots by rank, best first.
    order: Vec<usize>,
    child: Vec<u8>,
    best: Vec<u8>,
    best_fit: f64,
    /// False when the givens repeat a symbol in a box: then eq. (1) = 0 is not enough.
    boxes_valid: bool,
    evaluations: u64,
    restarts: u64,
    mutations: u64,
    mutations_illegal: u64,
    mutations_abandoned: u64,
    elite_aged_out: u64,
}

impl<'a> Run<'a> {
    fn new(cfg: &'a MkGaConfig, puzzle: &Puzzle) -> Self {
        let layout = BoxLayout::new(&puzzle.grid);
        let len = layout.cells();
        let pop_n = cfg.population;
        let boxes_valid = puzzle.grid.conflicts().iter().all(|c| c.unit != "box");
        Run {
            cfg,
            eval: MkEvaluator::new(layout.geometry()),
            len,
            pop: vec![0; pop_n * len],
            fit: vec![f64::INFINITY; pop_n],
            age: vec![0; pop_n],
            key: vec![f64::INFINITY; pop_n],
            order: (0..pop_n).collect(),
            child: vec![0; len],
            best: puzzle.grid.cells().to_vec(),
            best_fit: f64::INFINITY,
            boxes_valid,
            layout,
            evaluations: 0,
            restarts: 0,
            mutations: 0,
            mutations_illegal: 0,
            mutations_abandoned: 0,
            elite_aged_out: 0,
        }
    }

    #[inline]
    fn is_solution(&self, f: f64, cells: &[u8]) -> bool {
        f == 0.0
            && (self.boxes_valid
                || Grid::from_cells(self.layout.geometry(), cells.to_vec())
                    .is_some_and(|g| g.is_solved()))
    }

    /// Evaluate slot `s`; returns true when it is a solution.
    #[inline]
    fn evaluate(&mut self, s: usize) -> bool {
        let cells = &self.pop[s * self.len..(s + 1) * self.len];
        let f = self.eval.eval(cells);
        self.evaluations += 1;
        self.fit[s] = f;
        self.age[s] = 0;
        let solved = self.is_solution(f, cells);
        if f < self.best_fit || solved {
            self.best_fit = f;
            self.best.copy_from_slice(cells);
        }
        solved
    }

    /// Fill every slot with a random individual and sort. `Some` when the run ends (solved, or
    /// the evaluation budget ran out when `budget` is given).
    fn init_population(&mut self, rng: &mut Rng, budget: Option<&Budget>) -> Option<Termination> {
        for s in 0..self.cfg.population {
            if budget.is_some_and(|b| b.evaluations_spent(self.evaluations)) {
                return Some(Termination::EvaluationLimit);
            }
            init_individual(
                &self.layout,
                &mut self.pop[s * self.len..(s + 1) * self.len],
                rng,
            );
            if self.evaluate(s) {
                return Some(Termination::Solved);
            }
        }
        self.sort();
        None
    }

    /// Stable insertion sort of `order` by the ranking key.
    fn sort(&mut self) {
        let bonus = if self.cfg.ageing {
            self.cfg.ageing_bonus
        } else {
            0.0
        };
        for s in 0..self.cfg.population {
            self.key[s] = self.fit[s] + bonus * self.age[s] as f64;
        }
        for i in 1..self.order.len() {
            let x = self.order[i];
            let kx = self.key[x];
            let mut j = i;
            while j > 0 && self.key[self.order[j - 1]] > kx {
                self.order[j] = self.order[j - 1];
                j -= 1;
            }
            self.order[j] = x;
        }
    }

    fn population_best(&self) -> f64 {
        self.fit.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// Produce the child of rank `i`; returns true when it is a solution.
    #[inline]
    fn breed(&mut self, i: usize, rng: &mut Rng) -> bool {
        let len = self.len;
        let x1 = ops::below(rng, i);
        let x2 = ops::below(rng, i);
        let (pa, pb, slot) = (self.order[x1], self.order[x2], self.order[i]);
        let a = &self.pop[pa * len..(pa + 1) * len];
        let b = &self.pop[pb * len..(pb + 1) * len];
        if chance(rng, self.cfg.crossover_probability) {
            crossover_boxes(&self.layout, self.cfg.crossover, a, b, &mut self.child, rng);
        } else {
            self.child.copy_from_slice(a);
        }
        if chance(rng, self.cfg.mutation_probability) {
            let report = mutate(
                &self.layout,
                &self.cfg.mutation_ratios,
                self.cfg.mutation_retries,
                &mut self.child,
                rng,
            );
            self.mutations_illegal += report.illegal as u64;
            if report.applied {
                self.mutations += 1;
            } else {
                self.mutations_abandoned += 1;
            }
        }
        self.pop[slot * len..(slot + 1) * len].copy_from_slice(&self.child);
        self.evaluate(slot)
    }

    fn execute(
        mut self,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        let (pop_n, elit) = (self.cfg.population, self.cfg.elitism);
        let mut generation = 0u64;
        if let Some(t) = self.init_population(rng, None) {
            return self.outcome(t, generation);
        }
        let mut epoch_best = self.population_best();
        let mut epoch_start = 0u64;
        let mut last_improvement = 0u64;
        loop {
            // The generation limit, then the evaluation limit, then a time limit.
            if let Some(t) = budget.reason(generation, self.evaluations) {
                return self.outcome(t, generation);
            }
            let g = generation + 1;
            for i in (elit..pop_n).rev() {
                if budget.evaluations_spent(self.evaluations) {
                    return self.outcome(Termination::EvaluationLimit, generation);
                }
                if self.breed(i, rng) {
                    observer.generation(g, self.evaluations, 0.0);
                    return self.outcome(Termination::Solved, g);
                }
            }
            generation = g;

            let previous_best = self.order[0];
            if self.cfg.ageing {
                self.age[previous_best] += 1;
            }
            self.sort();
            if self.order[0] != previous_best && self.fit[self.order[0]] >= self.fit[previous_best]
            {
                self.elite_aged_out += 1;
            }
            let current = self.population_best();
            observer.generation(generation, self.evaluations, current);
            if observer.wants_grids() {
                observer.best_grid(self.evaluations, &self.best);
            }

            let restart_due = match self.cfg.restart {
                RestartRule::Stagnation(k) => {
                    if current < epoch_best {
                        epoch_best = current;
                        last_improvement = generation;
                        false
                    } else {
                        generation - last_improvement >= k
                    }
                }
                RestartRule::FixedPeriod(k) => generation - epoch_start >= k,
                RestartRule::Never => false,
            };
            if restart_due && !budget.exhausted(generation, self.evaluations) {
                self.restarts += 1;
                observer.restart(generation);
                if let Some(t) = self.init_population(rng, Some(budget)) {
                    return self.outcome(t, generation);
                }
                epoch_best = self.population_best();
                epoch_start = generation;
                last_improvement = generation;
            }
        }
    }

    fn outcome(self, termination: Termination, generations: u64) -> RunOutcome {
        let geom = self.layout.geometry();
        RunOutcome {
            solved: termination == Termination::Solved,
            best_fitness: self.best_fit,
            generations,
            evaluations: self.evaluations,
            restarts: self.restarts,
            termination,
            grid: Grid::from_cells(geom, self.best).expect("cells of the puzzle's geometry"),
            counters: vec![
                ("mutations", self.mutations),
                ("mutations_illegal", self.mutations_illegal),
                ("mutations_abandoned", self.mutations_abandoned),
                ("elite_aged_out", self.elite_aged_out),
            ],
        }
    }
}

/// The options neither Das et al. nor the secondary summary (S4) settle, with their words: the
/// readings `sudoku-lab readings` races (2 x 2 x 2 = 8). Values are the runner's spellings.
pub const AMBIGUITIES: &[sudoku_core::Ambiguity] = &[
    sudoku_core::Ambiguity {
        key: "crossover",
        values: &["uniform-boxes", "one-point-boxes"],
        default: "uniform-boxes",
        words: "not stated (whole sub-squares are exchanged; how the points are chosen is unknown)",
    },
    sudoku_core::Ambiguity {
        key: "restart_rule",
        values: &["stagnation", "fixed-period"],
        default: "stagnation",
        words: "S4: Restarts a las 2000 iteraciones (unconfirmed)",
    },
    sudoku_core::Ambiguity {
        key: "ageing",
        values: &["true", "false"],
        default: "true",
        words: "S4: Si se mantiene el top, aumentan el fitness del top en 1 por cada mantencion (unconfirmed)",
    },
];

#[cfg(test)]
mod ambiguity_table {
    /// The ambiguity table is consistent (the registry's test checks each value builds).
    #[test]
    fn the_ambiguity_table_is_consistent() {
        sudoku_core::Ambiguity::check_table(super::AMBIGUITIES).unwrap();
    }
}

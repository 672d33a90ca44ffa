//! Ret-GA configuration: one field per paper parameter, one enum per ambiguity.

use thiserror::Error;

/// What the reset point counts.
///
/// The conference version (Das et al., the one with Table 1): "The *reset point* for a particular
/// type of problem is defined as the number of generations needed to wait with a repeated fitness
/// values during the simulation." The journal version: "The reset point is defined as the number of
/// generations after which the algorithm attempts to regenerate the initial population if the
/// solution is not found."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResetRule {
    /// Default, after the conference version: reinitialise after `reset point` consecutive
    /// generations in which the best fitness of the population did not improve ("a repeated fitness
    /// value").
    Stagnation,
    /// After the journal version: reinitialise every `reset point` generations since the last
    /// (re)start.
    FixedPeriod,
    /// Never reinitialise (the plain GA, for ablations).
    Never,
}

/// The set G_i of Remove Repetition.
///
/// Both papers: "any repetition of a given is replaced by a randomly selected number from the
/// set ({1,2,...,9} - G_i), where G_i is the set of numbers present in the i th row or column
/// under consideration". The operator's name and Fig. 5 ("Remove repetition of givens") suggest
/// the givens of the unit; the sentence says every number present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepetitionSet {
    /// Default, the literal words: every number present in the unit at that moment (updated
    /// after each replacement), so a replacement never repeats a value already in the unit.
    PresentInUnit,
    /// The givens of the unit only: the replacement may repeat another non-given.
    GivensOfUnit,
}

/// How individuals are paired for crossover.
///
/// Conference version: "Select 2 conjugative individuals from the population with a crossover
/// probability 0.8"; journal version: "The crossover operation swaps the whole rows between two
/// consecutive individuals."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    /// Default: consecutive individuals of the population order, (1,2), (3,4), ...; each pair
    /// crosses with the crossover probability. After the first generation the population is in
    /// the order alternate elitism leaves it (sorted by fitness).
    Consecutive,
    /// A random permutation of the population, then consecutive pairs.
    Random,
}

/// The order of the 20N pool in alternate elitism, and so which individuals of a tie survive
/// and in which order the next population is paired.
///
/// Both papers: "The population before crossover and after mutation were combined together
/// to form a population of size 20*N (Double Size). Arrange the individuals in the ascending
/// order of their fitness values. To maintain the diversity in the population, the alternate
/// individuals are then selected for the next generation". The pool is parents then children;
/// every order here is a *stable* sort of that pool, so among equal fitness the earlier pool
/// index (a parent before a child) comes first in the sorted list. Which end "alternate"
/// counts from, and so which members of a tie survive, is not stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EliteOrder {
    /// The default, the words as a program would read them: the pool sorted in
    /// ascending order of fitness by a stable sort (ties: parents before children, so read
    /// from the best end a child ranks above a parent of equal fitness), keeping positions 2,
    /// 4, ..., 20N, so the best survives. The next population stays in ascending order
    /// (worst first), and consecutive pairs are formed in that order. An independent
    /// implementation written from the papers' text alone made this choice, and it solves
    /// several times more runs than [`EliteOrder::BestFirst`] on 1 Star (`ret-ga-ablation`,
    /// docs/experiments.md): which members of a tie survive is the detail that separated the
    /// two literal implementations.
    Ascending,
    /// The earlier default: sorted best first (ties: parents before children), keep
    /// positions 1, 3, 5, ... (1-based). It keeps the same ranks as [`EliteOrder::Ascending`]
    /// but, among equal fitness, the parent survives rather than the child, and the next
    /// population is in best-first order.
    BestFirst,
    /// The literal "ascending order of fitness", keeping positions 1, 3, 5, ...: since fitness
    /// is maximised, the best of the 20N (last, an even position) is dropped.
    AscendingLiteral,
}

/// Which individuals of the 20N pool survive.
///
/// Both papers name "alternate elitism" and say: "neither complete nor partial elitism was
/// found to be efficient. Hence, we followed an approach in between these two."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elitism {
    /// Default, the papers' words: every second individual of the sorted pool
    /// (see [`EliteOrder`]).
    Alternate,
    /// Not the papers' reading (it is the "complete elitism" they rejected): the best 10N of
    /// the 20N pool, in the sorted pool's order (best-first: positions 1..10N; either
    /// ascending order: positions 10N+1..20N, so among ties at the cut children survive).
    /// Offered because an independent implementation found it, with [`CrossoverRows::UniformRandom`],
    /// close to Table 1 on its easy rows; on the whole table the reading race eliminates that pair
    /// (on Challenging), and keeps `Best` only with other options (docs/readings-summary.md).
    Best,
}

/// Which rows a crossover exchanges.
///
/// Conference version: "Apply Uniform Crossover to them. The mechanism for such Crossover is to
/// choose the crossover sites as much as possible, in between each pair of rows. Now interchange
/// the rows alternatively throughout." (Fig. 3, "Row-wise Uniform Crossover").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrossoverRows {
    /// Default, the papers' words: rows 2, 4, 6, ... (1-based) are exchanged.
    Alternate,
    /// Not the papers' reading: each row is exchanged with probability 0.5, the usual meaning
    /// of "uniform crossover" with rows as genes.
    UniformRandom,
}

/// Which repetitions Remove Repetition replaces.
///
/// Both papers: "any repetition of a given is replaced by a randomly selected number from the
/// set ({1,2,...,9} - G_i) ... It should be noted that repetition of non-givens is not removed
/// by this process."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepetitionScope {
    /// Default, the papers' words: only non-given cells that repeat a given of their unit.
    Givens,
    /// Not the papers' reading (it contradicts "repetition of non-givens is not removed"): in
    /// each row, then each column, a non-given cell is also replaced when its value already
    /// stands in an earlier non-given cell of the unit (unit order), so after the row pass every
    /// row is a permutation.
    All,
}

/// Which generation a success is credited to when the solution appears mid-generation (after
/// crossover or after mutation). Table 1 reports "generations"; the papers do not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuccessGeneration {
    /// Default: the generation in progress (1-based); a solution in the initial population is
    /// generation 0.
    Current,
    /// Only completed generations: a solution found during generation g counts g - 1.
    Completed,
}

/// Reset points by number of givens (both papers): "2000 if there are 27 givens or less, 350
/// if there are exactly 28 or 29 givens, 300 if there are exactly 30 or 31 givens and 200 if
/// there are 32 givens or more".
pub fn paper_reset_point(givens: usize) -> u64 {
    match givens {
        0..=27 => 2000,
        28..=29 => 350,
        30..=31 => 300,
        _ => 200,
    }
}

/// Ret-GA parameters. Defaults are the papers' values (see the crate docs for the table).
#[derive(Debug, Clone, PartialEq)]
pub struct RetGaConfig {
    /// Population = `population_factor` x N ("10*N individuals"; 90 for 9x9).
    pub population_factor: usize,
    /// Crossover probability per pair (0.8).
    pub crossover_probability: f64,
    /// Probability that a non-given cell is replaced by a random 1..N in mutation (0.2).
    pub mutation_probability: f64,
    /// Fixed reset point overriding the paper's table by number of givens.
    pub reset_point: Option<u64>,
    pub reset_rule: ResetRule,
    pub repetition_set: RepetitionSet,
    pub pairing: Pairing,
    pub elite_order: EliteOrder,
    pub elitism: Elitism,
    pub crossover_rows: CrossoverRows,
    pub repetition_scope: RepetitionScope,
    pub success_generation: SuccessGeneration,
}

impl Default for RetGaConfig {
    fn default() -> Self {
        RetGaConfig {
            population_factor: 10,
            crossover_probability: 0.8,
            mutation_probability: 0.2,
            reset_point: None,
            reset_rule: ResetRule::Stagnation,
            repetition_set: RepetitionSet::PresentInUnit,
            pairing: Pairing::Consecutive,
            elite_order: EliteOrder::Ascending,
            elitism: Elitism::Alternate,
            crossover_rows: CrossoverRows::Alternate,
            repetition_scope: RepetitionScope::Givens,
            success_generation: SuccessGeneration::Current,
        }
    }
}

/// Invalid configuration.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum RetGaError {
    #[error("population_factor must be at least 1 (population = factor x N), got {0}")]
    Population(usize),
    #[error("{name} must be a probability in [0, 1], got {value}")]
    Probability { name: &'static str, value: f64 },
    #[error("reset_point must be at least 1")]
    ResetPoint,
}

impl RetGaConfig {
    /// Check every field.
    pub fn validate(&self) -> Result<(), RetGaError> {
        if self.population_factor == 0 {
            return Err(RetGaError::Population(0));
        }
        for (name, value) in [
            ("crossover_probability", self.crossover_probability),
            ("mutation_probability", self.mutation_probability),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(RetGaError::Probability { name, value });
            }
        }
        if self.reset_point == Some(0) {
            return Err(RetGaError::ResetPoint);
        }
        Ok(())
    }
}

/// The options whose value the papers leave open (`000` and `002`), with their words: the
/// readings `sudoku-lab readings` races (2 x 2 x 2 x 2 x 3 x 2 x 2 x 2 = 384). Values are the
/// runner's spellings; the first-listed default is the papers' text as we read it.
/// `reset_rule = never` is not listed: it switches off the retrieval (the reset of the
/// population) that gives the algorithm its name, so it is an ablation (`ret-ga-ablation`),
/// not a reading of the papers; the M&K GA's table leaves out `restart_rule = never` alike.
pub const AMBIGUITIES: &[sudoku_core::Ambiguity] = &[
    sudoku_core::Ambiguity {
        key: "elitism",
        values: &["alternate", "best"],
        default: "alternate",
        words: "the alternate individuals are then selected; neither complete nor partial elitism was found to be efficient",
    },
    sudoku_core::Ambiguity {
        key: "crossover_rows",
        values: &["alternate", "uniform-random"],
        default: "alternate",
        words: "Now interchange the rows alternatively throughout",
    },
    sudoku_core::Ambiguity {
        key: "repetition_scope",
        values: &["givens", "all"],
        default: "givens",
        words: "any repetition of a given is replaced ... repetition of non-givens is not removed by this process",
    },
    sudoku_core::Ambiguity {
        key: "repetition_set",
        values: &["present-in-unit", "givens-of-unit"],
        default: "present-in-unit",
        words: "G_i is the set of numbers present in the i th row or column",
    },
    sudoku_core::Ambiguity {
        key: "elite_order",
        values: &["ascending", "best-first", "ascending-literal"],
        default: "ascending",
        words: "Arrange the individuals in the ascending order of their fitness values",
    },
    sudoku_core::Ambiguity {
        key: "pairing",
        values: &["consecutive", "random"],
        default: "consecutive",
        words: "Select 2 conjugative individuals; between two consecutive individuals",
    },
    sudoku_core::Ambiguity {
        key: "reset_rule",
        values: &["stagnation", "fixed-period"],
        default: "stagnation",
        words: "000: generations needed to wait with a repeated fitness values; 002: generations after which the algorithm attempts to regenerate",
    },
    sudoku_core::Ambiguity {
        key: "success_generation",
        values: &["current", "completed"],
        default: "current",
        words: "not stated (which generation a success found mid-generation is credited to)",
    },
];

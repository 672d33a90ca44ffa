//! # gen-ga: a GA that generates solved Sudoku boards
//!
//! A. Benbassat, "Genetic Algorithms are Very Good Solved Sudoku Generators", GECCO 2019 Companion
//! (Benbassat 2019 in docs/bibliography.md, code `004`). The GA searches 9x9 boards whose first row
//! is fixed as givens ("filling the first row with givens" removes the 9! relabellings of one
//! board) and records every distinct solved board it meets.
//!
//! ## Parameters: paper -> config -> default
//!
//! | paper | field | default | words |
//! |---|---|---|---|
//! | rows are permutations keeping the givens | (fixed) | | "kept all the rows as permutations of {1, 2, ..., 9} that are in line with the givens in the row" |
//! | one operator: swap in a row | (fixed) | two non-given cells of one row | "a swap mutation that replaces the contents of two squares in the same row, neither of which is limited by givens" |
//! | mutation rate | [`GenGaConfig::mutation_rate`], [`GenGaConfig::mutation_unit`] | 0.8 per individual | "I used a 0.8 mutation rate" (per individual or per row is not stated) |
//! | fitness | (fixed) | 100 / (err + 1) | "100/(err + 1) where err is the number of mistakes in a permutation constrains (number of repeated numbers)": repeats in columns and boxes, rows being permutations |
//! | tournament | [`GenGaConfig::tournament`] | 4 | "Tournament selection with tournament size 4" |
//! | elitism | [`GenGaConfig::elitism`] | 4 | "Elitism with elite size 4" |
//! | population | [`GenGaConfig::population`] | 1000 | "a population size of 1000 and a generation count of 2000" |
//! | diversity | [`GenGaConfig::diversity`] | [`Diversity::None`] | bucketing (Benbassat & Shafet 2017) or clearing "every 100 generations" |
//! | first row | the puzzle's givens | `1 2 ... 9` in the runner's spec | not stated which permutation; any one gives the same search up to relabelling |
//!
//! "err": for each column and each box, the number of its cells that repeat a value already in
//! it (9 minus its number of distinct values); the sum over the 18 units. A swap changes only
//! the two cells' columns and boxes, so the fitness is updated incrementally.

use rand::Rng as _;
use std::collections::HashSet;
use sudoku_core::{Budget, Geometry, Grid, Observer, Puzzle, Rng, RunOutcome, Solver};
use thiserror::Error;

/// How the mutation rate is applied (the paper says only "a 0.8 mutation rate").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MutationUnit {
    /// Default: each new individual gets one swap with probability `mutation_rate`.
    PerIndividual,
    /// Each free row of each new individual gets one swap with probability `mutation_rate`.
    PerRow,
}

/// Diversity maintenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diversity {
    /// The standard GA.
    None,
    /// Clearing: "a generation counter that would activate every `period` generations, moving
    /// all found solutions into a special list which ensures their fitness will now be valued
    /// at 0".
    Clearing { period: u64 },
    /// Hash-based bucketing selection ("hash-based bucketing diversity maintenance selection
    /// (also using tournament selection with tournament size 4) [Benbassat & Shafet 2017]").
    /// The 2017 paper was not available to us; this follows the author's public Sudoku code
    /// (GitHub amitbenb/pyEvoSys, commits f2a4506 "Hashed based binning selection runs" and
    /// f1ffc9b, whose settings match the paper), read for facts: every generation each free
    /// cell i draws fresh a_i, b_i in 0..1000 and a board's bucket is
    /// `sum_i ((v_i a_i + b_i) mod 1000) mod buckets` (identical boards share a bucket; the
    /// code hashes `str(v a_i + b_i)` with Python's string hash, which we replace by the value
    /// itself); every non-empty bucket gets the same quota ceil(slots / non-empty buckets) of
    /// tournament winners (tournament of min(size, bucket size) members drawn without
    /// replacement); the pooled winners are cut to the slots at random. `buckets = 0` means
    /// the code's default, floor(sqrt(population)) (31 for 1000).
    Bucketing { buckets: usize },
}

/// Parameters; defaults are the paper's (see the crate docs).
#[derive(Debug, Clone, PartialEq)]
pub struct GenGaConfig {
    pub population: usize,
    pub mutation_rate: f64,
    pub mutation_unit: MutationUnit,
    pub tournament: usize,
    pub elitism: usize,
    pub diversity: Diversity,
}

impl Default for GenGaConfig {
    fn default() -> Self {
        GenGaConfig {
            population: 1000,
            mutation_rate: 0.8,
            mutation_unit: MutationUnit::PerIndividual,
            tournament: 4,
            elitism: 4,
            diversity: Diversity::None,
        }
    }
}

#[derive(Debug, Error, Clone, PartialEq)]
pub enum GenGaError {
    #[error("population must be at least 2 and larger than elitism ({elitism}), got {population}")]
    Population { population: usize, elitism: usize },
    #[error("tournament must be at least 1")]
    Tournament,
    #[error("mutation_rate must be in [0, 1], got {0}")]
    Rate(f64),
    #[error("the clearing period must be at least 1")]
    Diversity,
}

impl GenGaConfig {
    pub fn validate(&self) -> Result<(), GenGaError> {
        if self.population < 2 || self.elitism >= self.population {
            return Err(GenGaError::Population {
                population: self.population,
                elitism: self.elitism,
            });
        }
        if self.tournament == 0 {
            return Err(GenGaError::Tournament);
        }
        if !(0.0..=1.0).contains(&self.mutation_rate) {
            return Err(GenGaError::Rate(self.mutation_rate));
        }
        if self.diversity == (Diversity::Clearing { period: 0 }) {
            return Err(GenGaError::Diversity);
        }
        Ok(())
    }
}

/// The generator GA.
#[derive(Debug, Clone)]
pub struct GenGa {
    config: GenGaConfig,
}

impl GenGa {
    pub fn new(config: GenGaConfig) -> Result<Self, GenGaError> {
        config.validate()?;
        Ok(GenGa { config })
    }
}

/// Names of the trajectory counters: distinct boards found by generation 100, 200, ..., 4000
/// (the paper's longest run), reported for the chart of boards against generations.
pub const CHECKPOINTS: [&str; 40] = [
    "boards_at_100",
    "boards_at_200",
    "boards_at_300",
    "boards_at_400",
    "boards_at_500",
    "boards_at_600",
    "boards_at_700",
    "boards_at_800",
    "boards_at_900",
    "boards_at_1000",
    "boards_at_1100",
    "boards_at_1200",
    "boards_at_1300",
    "boards_at_1400",
    "boards_at_1500",
    "boards_at_1600",
    "boards_at_1700",
    "boards_at_1800",
    "boards_at_1900",
    "boards_at_2000",
    "boards_at_2100",
    "boards_at_2200",
    "boards_at_2300",
    "boards_at_2400",
    "boards_at_2500",
    "boards_at_2600",
    "boards_at_2700",
    "boards_at_2800",
    "boards_at_2900",
    "boards_at_3000",
    "boards_at_3100",
    "boards_at_3200",
    "boards_at_3300",
    "boards_at_3400",
    "boards_at_3500",
    "boards_at_3600",
    "boards_at_3700",
    "boards_at_3800",
    "boards_at_3900",
    "boards_at_4000",
];

/// 9x9 only, as the paper ("In this work I focus only on 9 x 9 boards").
const N: usize = 9;
const CELLS: usize = 81;

/// Repeats in columns and boxes ("err"), from scratch.
pub fn errors(cells: &[u8]) -> u32 {
    let mut err = 0;
    for u in 0..N {
        let (mut col, mut bx) = (0u32, 0u32);
        for k in 0..N {
            col |= 1 << cells[k * N + u];
            let (r, c) = ((u / 3) * 3 + k / 3, (u % 3) * 3 + k % 3);
            bx |= 1 << cells[r * N + c];
        }
        err += (N as u32 - col.count_ones()) + (N as u32 - bx.count_ones());
    }
    err
}

/// Repeats in one column or box given its value counts.
#[inline]
fn unit_err(counts: &[u8; 10]) -> u32 {
    counts[1..]
        .iter()
        .map(|&k| u32::from(k.saturating_sub(1)))
        .sum()
}

/// An individual with its per-column and per-box value counts, so that a swap updates `err`
/// from the (at most four) units it touches.
#[derive(Debug, Clone)]
pub struct Board {
    pub cells: [u8; CELLS],
    cols: [[u8; 10]; N],
    boxes: [[u8; 10]; N],
    pub err: u32,
}

impl Board {
    pub fn new(cells: [u8; CELLS]) -> Self {
        let mut b = Board {
            cells,
            cols: [[0; 10]; N],
            boxes: [[0; 10]; N],
            err: 0,
        };
        for (i, &v) in cells.iter().enumerate() {
            b.cols[i % N][v as usize] += 1;
            b.boxes[(i / 27) * 3 + (i % N) / 3][v as usize] += 1;
        }
        b.err = b.cols.iter().chain(&b.boxes).map(unit_err).sum();
        b
    }

    /// Swap cells `a` and `b` of the same row, updating `err` incrementally.
    pub fn swap(&mut self, a: usize, b: usize) {
        let (va, vb) = (self.cells[a] as usize, self.cells[b] as usize);
        if va == vb {
            return;
        }
        let (ca, cb) = (a % N, b % N);
        let (ba, bb) = ((a / 27) * 3 + ca / 3, (b / 27) * 3 + cb / 3);
        let mut before = unit_err(&self.cols[ca]) + unit_err(&self.cols[cb]);
        if ba != bb {
            before += unit_err(&self.boxes[ba]) + unit_err(&self.boxes[bb]);
        }
        self.cols[ca][va] -= 1;
        self.cols[ca][vb] += 1;
        self.cols[cb][vb] -= 1;
        self.cols[cb][va] += 1;
        self.boxes[ba][va] -= 1;
        self.boxes[ba][vb] += 1;
        self.boxes[bb][vb] -= 1;
        self.boxes[bb][va] += 1;
        let mut after = unit_err(&self.cols[ca]) + unit_err(&self.cols[cb]);
        if ba != bb {
            after += unit_err(&self.boxes[ba]) + unit_err(&self.boxes[bb]);
        }
        self.err = self.err + after - before;
        self.cells.swap(a, b);
    }

    /// 100 / (err + 1).
    pub fn fitness(&self) -> f64 {
        100.0 / (self.err as f64 + 1.0)
    }
}

/// The starting board of the paper's runs: the first row given ("the simulations I ran had the
/// entire first row filled with givens"), here 1..9 in order (the paper does not say which
/// permutation; any one gives the same search up to relabelling the symbols). The same board is
/// `experiments/puzzles/benbassat-first-row.txt`.
pub fn first_row_puzzle() -> Puzzle {
    let mut cells = vec![0u8; CELLS];
    for (c, v) in (1..=N as u8).enumerate() {
        cells[c] = v;
    }
    Puzzle::new(
        "first-row",
        Grid::from_cells(Geometry::NINE, cells).expect("a valid 9x9 grid"),
    )
}

/// Free (non-given) cells of each row.
pub fn free_cells(givens: &[u8]) -> Vec<Vec<usize>> {
    (0..N)
        .map(|r| {
            (0..N)
                .map(|c| r * N + c)
                .filter(|&i| givens[i] == 0)
                .collect()
        })
        .collect()
}

/// A random individual: each row a permutation of 1..9 keeping the row's givens.
pub fn random_board(givens: &[u8], free: &[Vec<usize>], rng: &mut Rng) -> Board {
    use rand::seq::SliceRandom;
    let mut cells = [0u8; CELLS];
    cells.copy_from_slice(givens);
    for (r, f) in free.iter().enumerate() {
        let used: u32 = (0..N)
            .map(|c| givens[r * N + c])
            .filter(|&v| v != 0)
            .fold(0, |m, v| m | 1 << v);
        let mut missing: Vec<u8> = (1..=N as u8).filter(|v| used & (1 << v) == 0).collect();
        missing.shuffle(rng);
        for (&i, v) in f.iter().zip(missing) {
            cells[i] = v;
        }
    }
    Board::new(cells)
}

/// One swap in a random row with at least two free cells (the operator of the paper).
pub fn swap_mutation(board: &mut Board, free: &[Vec<usize>], rows: &[usize], rng: &mut Rng) {
    let r = rows[rng.random_range(0..rows.len())];
    swap_in_row(board, &free[r], rng);
}

fn swap_in_row(board: &mut Board, f: &[usize], rng: &mut Rng) {
    let i = rng.random_range(0..f.len());
    let mut j = rng.random_range(0..f.len() - 1);
    if j >= i {
        j += 1;
    }
    board.swap(f[i], f[j]);
}

impl GenGa {
    /// A run that also returns every distinct solved board met, in the order found.
    pub fn generate(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> (RunOutcome, Vec<Grid>) {
        let mut boards = Vec::new();
        let out = self.run(puzzle, budget, rng, observer, Some(&mut boards));
        (out, boards)
    }
}

impl Solver for GenGa {
    fn name(&self) -> &'static str {
        "gen-ga"
    }

    /// One run: `generations` = generations completed, `evaluations` = individuals evaluated
    /// (the initial population and every new individual), counter `distinct_boards` = distinct
    /// solved boards met (each verified), `boards_at_<g>` the same every 100 generations;
    /// `solved` when at least one was found; `grid` = the first board found (or the best
    /// individual). A generator always spends its whole budget, so `termination` is the
    /// budget's reason even when boards were found.
    fn solve(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        self.run(puzzle, budget, rng, observer, None)
    }
}

impl GenGa {
    fn run(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
        mut boards: Option<&mut Vec<Grid>>,
    ) -> RunOutcome {
        let cfg = &self.config;
        let givens = puzzle.grid.cells().to_vec();
        assert_eq!(givens.len(), CELLS, "gen-ga is for 9x9 boards");
        let free = free_cells(&givens);
        let rows: Vec<usize> = (0..N).filter(|&r| free[r].len() >= 2).collect();
        let mut pop: Vec<Board> = (0..cfg.population)
            .map(|_| random_board(&givens, &free, rng))
            .collect();
        let mut next: Vec<Board> = pop.clone();
        let mut evaluations = cfg.population as u64;
        let mut found: HashSet<[u8; CELLS]> = HashSet::new();
        let mut cleared: HashSet<[u8; CELLS]> = HashSet::new();
        let mut first: Option<[u8; CELLS]> = None;
        let mut fit = vec![0.0f64; cfg.population];
        let mut order: Vec<usize> = (0..cfg.population).collect();
        let mut buckets: Vec<Vec<usize>> = Vec::new();
        let mut parents: Vec<usize> = Vec::with_capacity(cfg.population);
        let mut scratch: Vec<usize> = Vec::new();
        let all_free: Vec<usize> = free.iter().flatten().copied().collect();
        let mut coeffs: Vec<(u32, u32)> = vec![(0, 0); all_free.len()];
        let mut generation = 0u64;
        let mut trajectory: Vec<(&'static str, u64)> = Vec::new();
        let mut record =
            |b: &Board, found: &mut HashSet<[u8; CELLS]>, first: &mut Option<[u8; CELLS]>| {
                if b.err == 0 && !found.contains(&b.cells) {
                    debug_assert!(Grid::from_cells(puzzle.geometry(), b.cells.to_vec())
                        .is_some_and(|g| g.is_solved() && g.keeps_givens_of(&puzzle.grid)));
                    found.insert(b.cells);
                    first.get_or_insert(b.cells);
                    if let Some(list) = boards.as_deref_mut() {
                        list.push(
                            Grid::from_cells(puzzle.geometry(), b.cells.to_vec())
                                .expect("cells in range"),
                        );
                    }
                }
            };
        for b in &pop {
            record(b, &mut found, &mut first);
        }
        let termination = loop {
            if let Some(reason) = budget.reason(generation, evaluations) {
                break reason;
            }
            if let Diversity::Clearing { period } = cfg.diversity {
                if generation > 0 && generation.is_multiple_of(period) {
                    cleared.extend(found.iter().copied());
                }
            }
            for (i, b) in pop.iter().enumerate() {
                fit[i] = if b.err == 0 && cleared.contains(&b.cells) {
                    0.0
                } else {
                    b.fitness()
                };
            }
            // Elites: the best `elitism`, ties by index.
            order.sort_by(|&a, &b| fit[b].total_cmp(&fit[a]).then(a.cmp(&b)));
            let slots = cfg.population - cfg.elitism;
            parents.clear();
            match cfg.diversity {
                Diversity::Bucketing { buckets: k } => {
                    let k = if k == 0 {
                        (cfg.population as f64).sqrt() as usize
                    } else {
                        k
                    }
                    .max(1);
                    for c in coeffs.iter_mut() {
                        *c = (rng.random_range(0..1000u32), rng.random_range(0..1000u32));
                    }
                    buckets.resize(k, Vec::new());
                    buckets.iter_mut().for_each(Vec::clear);
                    for (i, b) in pop.iter().enumerate() {
                        let key: u32 = all_free
                            .iter()
                            .zip(&coeffs)
                            .map(|(&c, &(a, b0))| (b.cells[c] as u32 * a + b0) % 1000)
                            .sum();
                        buckets[key as usize % k].push(i);
                    }
                    let nonempty = buckets.iter().filter(|b| !b.is_empty()).count();
                    let quota = slots.div_ceil(nonempty.max(1));
                    for bucket in buckets.iter().filter(|b| !b.is_empty()) {
                        for _ in 0..quota {
                            let size = cfg.tournament.min(bucket.len());
                            // Members drawn without replacement: a partial shuffle of indices.
                            scratch.clear();
                            scratch.extend(0..bucket.len());
                            let mut best = usize::MAX;
                            for t in 0..size {
                                let j = rng.random_range(t..scratch.len());
                                scratch.swap(t, j);
                                let c = bucket[scratch[t]];
                                if best == usize::MAX || fit[c] > fit[best] {
                                    best = c;
                                }
                            }
                            parents.push(best);
                        }
                    }
                    // Keep `slots` of the pooled winners, chosen at random.
                    for t in 0..slots.min(parents.len()) {
                        let j = rng.random_range(t..parents.len());
                        parents.swap(t, j);
                    }
                    parents.truncate(slots);
                }
                _ => {
                    for _ in 0..slots {
                        let mut best = usize::MAX;
                        for _ in 0..cfg.tournament {
                            let c = rng.random_range(0..cfg.population);
                            if best == usize::MAX || fit[c] > fit[best] {
                                best = c;
                            }
                        }
                        parents.push(best);
                    }
                }
            }
            for (slot, child) in next.iter_mut().enumerate() {
                if slot < cfg.elitism {
                    child.clone_from(&pop[order[slot]]);
                    continue;
                }
                child.clone_from(&pop[parents[slot - cfg.elitism]]);
                if !rows.is_empty() {
                    match cfg.mutation_unit {
                        MutationUnit::PerIndividual => {
                            if rng.random_bool(cfg.mutation_rate) {
                                swap_mutation(child, &free, &rows, rng);
                            }
                        }
                        MutationUnit::PerRow => {
                            for &r in &rows {
                                if rng.random_bool(cfg.mutation_rate) {
                                    swap_in_row(child, &free[r], rng);
                                }
                            }
                        }
                    }
                }
                evaluations += 1;
            }
            std::mem::swap(&mut pop, &mut next);
            generation += 1;
            for b in &pop[cfg.elitism..] {
                record(b, &mut found, &mut first);
            }
            if generation.is_multiple_of(100) {
                if let Some(&name) = CHECKPOINTS.get(generation as usize / 100 - 1) {
                    trajectory.push((name, found.len() as u64));
                }
            }
            let best = pop.iter().map(|b| b.err).min().unwrap_or(0);
            observer.generation(generation, evaluations, 100.0 / (best as f64 + 1.0));
        };
        let best = pop
            .iter()
            .min_by_key(|b| b.err)
            .map(|b| b.cells)
            .unwrap_or([0; CELLS]);
        let cells = first.unwrap_or(best);
        RunOutcome {
            solved: first.is_some(),
            best_fitness: if first.is_some() {
                100.0
            } else {
                Board::new(best).fitness()
            },
            generations: generation,
            evaluations,
            restarts: 0,
            termination,
            grid: Grid::from_cells(puzzle.geometry(), cells.to_vec()).expect("cells in range"),
            counters: [
                ("distinct_boards", found.len() as u64),
                ("cleared", cleared.len() as u64),
            ]
            .into_iter()
            .chain(trajectory)
            .collect(),
        }
    }
}

/// The options Benbassat's text leaves open, with its words: the readings `sudoku-lab
/// readings` races (2). Values are the runner's spellings.
pub const AMBIGUITIES: &[sudoku_core::Ambiguity] = &[sudoku_core::Ambiguity {
    key: "mutation_unit",
    values: &["per-individual", "per-row"],
    default: "per-individual",
    words: "I used a 0.8 mutation rate (per individual or per row is not stated)",
}];

#[cfg(test)]
mod ambiguity_table {
    /// The ambiguity table is consistent (the registry's test checks each value builds).
    #[test]
    fn the_ambiguity_table_is_consistent() {
        sudoku_core::Ambiguity::check_table(super::AMBIGUITIES).unwrap();
    }
}

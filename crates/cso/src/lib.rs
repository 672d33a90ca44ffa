//! # cso: Cat Swarm Optimization for Sudoku
//!
//! The student thesis "Solving Sudoku puzzles using Cat Swarm Optimization" (the CSO thesis of
//! docs/bibliography.md, code `003`; chapter 5), after Chu, Tsai and Pan, "Cat Swarm Optimization"
//! (PRICAI 2006) and Chu & Tsai (IJICIC 2007). Boxes of 2x3 (6x6), 3x3 (9x9) and 3x4 (12x12), or
//! any shape of sudoku-core.
//!
//! ## Parameters: source -> config -> default
//!
//! The thesis states no values except the velocity limit ("the maximum velocity, which is 5").
//! The others are the canonical CSO values, **not from the thesis**: SMP 5, SRD 0.2, CDC 0.8
//! and c1 2.0 agree across secondary sources quoting Chu & Tsai (the primary tables were not
//! reachable to us); MR 0.02 is unconfirmed (the thesis: "MR is allocated a very small value").
//!
//! | parameter | field | default | source |
//! |---|---|---|---|
//! | population | [`CsoConfig::cats`] | 50 | thesis: "defined by the user"; our choice |
//! | SMP | [`CsoConfig::smp`] | 5 | Chu & Tsai (secondary sources) |
//! | SRD | [`CsoConfig::srd`] | 0.2 | Chu & Tsai (secondary sources) |
//! | CDC | [`CsoConfig::cdc`] | 0.8 | Chu & Tsai (secondary sources) |
//! | SPC | [`CsoConfig::spc`] | true | not stated; Chu & Tsai's seeking mode keeps the present position as a candidate when SPC is true |
//! | MR | [`CsoConfig::mr`] | 0.02 | unconfirmed ("a very small value") |
//! | c1 | [`CsoConfig::c1`] | 2.0 | Chu & Tsai (secondary sources) |
//! | maximum velocity | [`CsoConfig::max_velocity`] | 5 | thesis |
//! | rounding of val | [`CsoConfig::rounding`] | [`Rounding::Truncate`] | not stated ("val = current value +/- (current value * SRD)", then "val % size of the list of needed values") |
//! | base of the tracing move | [`CsoConfig::tracing_position`] | [`TracingPosition::Own`]: `x_k + v` | garbled: "Update the position of catk according to the equation: (equation missing) where xbest,d is the current position of the catk and vk,d is the new velocity"; Chu & Tsai move a cat from its own position; [`TracingPosition::Best`] reads the sentence literally, `x_best + v` |
//! | rounding of x + v (tracing) | [`CsoConfig::tracing_rounding`] | [`TracingRounding::Floor`] | not stated ("xk,d % size of list of needed values") |
//! | which cats trace | [`CsoConfig::tracing_selection`] | [`TracingSelection::Count`]: round(MR x cats) cats, re-drawn each cycle | "MR gives the number of cats to enter the tracing mode process", "haphazardly pick the number of cats and set them into tracing mode according to MR"; [`TracingSelection::PerCat`]: each cat traces with probability MR, the other common reading of Chu & Tsai |
//! | velocity range | (fixed) | initial velocities uniform in [-max, max], updates clamped to it | "randomly select values, which are in range of maximum velocity"; Step 1 of tracing also says "within the range of {-100...100}", but Step 2 clamps to 5, so the wider range never survives a cycle |
//!
//! ## The thesis, as implemented
//! - **Cats** are grids whose sub-grids are permutations keeping the start squares ("each
//!   subgrid must contain only one instance of each number"); velocities per cell drawn in
//!   [-max, max]. Fitness `1 / (1 + penalty)`, penalty = missing values over rows plus columns
//!   (`sudoku_core::fitness::rows_cols_missing`); solved at 1.
//! - **Seeking mode**: SMP copies (SMP - 1 mutated and the present position kept when SPC);
//!   in each mutated copy, CDC x (number of cells) cells are drawn, and each drawn non-start
//!   cell gets `val = v +/- v * SRD` (sign at random), mapped to the sub-grid's list of needed
//!   values by `val mod len`, and swapped in the sub-grid with the cell holding that value;
//!   selecting probability `P_i = |FS_i - FS_b| / (FS_max - FS_min)` with FS_b the worst
//!   (fitness is maximised), all 1 when every FS is equal; the candidate of highest
//!   probability becomes the new position, ties at random.
//! - **Tracing mode**: `v_d <- v_d + r c1 (x_best,d - x_d)` for every cell, r uniform in
//!   [0, 1) per cell, clamped to [-max, max]; `x_d + v_d` (or `x_best,d + v_d`, see
//!   [`TracingPosition`]), rounded down by default (the thesis does not say how a real position
//!   becomes an index; [`TracingRounding`]), mapped through the needed-values list
//!   (`mod len`, Euclidean for negatives) and swapped in the sub-grid, non-start cells only.
//! - **MR**: every cycle the number of tracing cats is round(MR x cats), chosen at random
//!   (or, with [`TracingSelection::PerCat`], each cat traces with probability MR).
//! - A cycle evaluates every cat and keeps the best position ever (x_best); effort: cycles and
//!   fitness evaluations (every candidate of seeking mode and every moved cat).
//!
//! ## What the runs show (docs/experiments.md, `results/cso-*`)
//! With these defaults CSO solves 6x6 puzzles and no 9x9 or 12x12 puzzle of the committed sets
//! within 2000 cycles. `cso-sensitivity` traces it to CDC: at 0.8 a seeking copy re-draws most
//! cells, close to a random restart; at CDC 0.05 9x9 easy puzzles are solved. No reading of the
//! ambiguities above changes success significantly (`cso-ablation`).

use rand::seq::SliceRandom;
use rand::Rng as _;
use sudoku_core::fitness::rows_cols_missing;
use sudoku_core::{
    Budget, Geometry, Grid, Observer, Puzzle, Rng, RunOutcome, Solver, Termination, Units,
};
use thiserror::Error;

/// How `v +/- v * SRD` becomes an integer before `mod len` (not stated in the thesis).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    Truncate,
    Round,
}

/// How a real tracing position `base + v` becomes an integer before `mod len` (not stated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TracingRounding {
    Floor,
    Round,
    Truncate,
}

/// The position a tracing move starts from (the thesis's equation is missing from its text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TracingPosition {
    /// `x_k + v`: the cat's own value (Chu & Tsai's CSO).
    Own,
    /// `x_best + v`: the literal words "where xbest,d is the current position of the catk".
    Best,
}

/// Which cats enter tracing mode in a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TracingSelection {
    /// round(MR x cats) cats, drawn at random every cycle.
    Count,
    /// Each cat independently with probability MR.
    PerCat,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CsoConfig {
    pub cats: usize,
    pub smp: usize,
    pub srd: f64,
    pub cdc: f64,
    pub spc: bool,
    pub mr: f64,
    pub c1: f64,
    pub max_velocity: f64,
    pub rounding: Rounding,
    pub tracing_rounding: TracingRounding,
    pub tracing_position: TracingPosition,
    pub tracing_selection: TracingSelection,
}

impl Default for CsoConfig {
    fn default() -> Self {
        CsoConfig {
            cats: 50,
            smp: 5,
            srd: 0.2,
            cdc: 0.8,
            spc: true,
            mr: 0.02,
            c1: 2.0,
            max_velocity: 5.0,
            rounding: Rounding::Truncate,
            tracing_rounding: TracingRounding::Floor,
            tracing_position: TracingPosition::Own,
            tracing_selection: TracingSelection::Count,
        }
    }
}

#[derive(Debug, Error, Clone, PartialEq)]
pub enum CsoError {
    #[error("cats must be at least 1 and SMP at least 2 (got {cats}, {smp})")]
    Sizes { cats: usize, smp: usize },
    #[error("{name} must be in [0, 1], got {value}")]
    Range { name: &'static str, value: f64 },
    #[error("c1 and max_velocity must be finite and non-negative")]
    Velocity,
}

impl CsoConfig {
    pub fn validate(&self) -> Result<(), CsoError> {
        if self.cats == 0 || self.smp < 2 {
            return Err(CsoError::Sizes {
                cats: self.cats,
                smp: self.smp,
            });
        }
        for (name, value) in [("srd", self.srd), ("cdc", self.cdc), ("mr", self.mr)] {
            if !(0.0..=1.0).contains(&value) {
                return Err(CsoError::Range { name, value });
            }
        }
        if !(self.c1.is_finite()
            && self.c1 >= 0.0
            && self.max_velocity.is_finite()
            && self.max_velocity >= 0.0)
        {
            return Err(CsoError::Velocity);
        }
        Ok(())
    }
}

/// Per-puzzle tables: each cell's box, each box's cells and its list of needed values.
#[derive(Debug, Clone)]
pub struct Layout {
    pub geom: Geometry,
    pub givens: Vec<u8>,
    pub box_of: Vec<usize>,
    pub box_cells: Vec<Vec<usize>>,
    /// Each box's non-start cells (where a needed value can be).
    pub free_cells: Vec<Vec<usize>>,
    /// "Needed values are the numbers that are required in that subgrid", ascending.
    pub needed: Vec<Vec<u8>>,
}

impl Layout {
    pub fn new(puzzle: &Grid) -> Self {
        let geom = puzzle.geometry();
        let n = geom.n();
        let givens = puzzle.cells().to_vec();
        let box_cells: Vec<Vec<usize>> = (0..n).map(|b| geom.box_cells(b).collect()).collect();
        let needed = box_cells
            .iter()
            .map(|cells| {
                let used: u32 = cells
                    .iter()
                    .map(|&c| givens[c])
                    .filter(|&v| v != 0)
                    .fold(0, |m, v| m | 1 << v);
                (1..=n as u8).filter(|v| used & (1 << v) == 0).collect()
            })
            .collect();
        let free_cells = box_cells
            .iter()
            .map(|cells| cells.iter().copied().filter(|&c| givens[c] == 0).collect())
            .collect();
        Layout {
            geom,
            givens,
            box_of: (0..geom.cells()).map(|c| geom.box_of(c)).collect(),
            box_cells,
            free_cells,
            needed,
        }
    }

    /// A random cat position: each box's free cells get a random permutation of its needed values.
    pub fn random_position(&self, out: &mut [u8], rng: &mut Rng) {
        out.copy_from_slice(&self.givens);
        for (cells, needed) in self.box_cells.iter().zip(&self.needed) {
            let mut vals = needed.clone();
            vals.shuffle(rng);
            let free = cells.iter().filter(|&&c| self.givens[c] == 0);
            for (&c, v) in free.zip(vals) {
                out[c] = v;
            }
        }
    }

    /// Give cell `c` (non-start) the needed value of index `idx mod len` of its box, swapping
    /// with the cell of the box that holds it, so the box stays a permutation.
    pub fn set_by_index(&self, cells: &mut [u8], c: usize, idx: i64) {
        if self.givens[c] != 0 {
            return;
        }
        let b = self.box_of[c];
        let needed = &self.needed[b];
        if needed.is_empty() {
            return;
        }
        let target = needed[idx.rem_euclid(needed.len() as i64) as usize];
        if cells[c] == target {
            return;
        }
        // Needed values sit in free cells only, so the first free cell holding it is the one.
        if let Some(&other) = self.free_cells[b].iter().find(|&&o| cells[o] == target) {
            cells[other] = cells[c];
            cells[c] = target;
        }
    }
}

/// Fitness `1 / (1 + penalty)`.
pub fn fitness(units: &Units, cells: &[u8]) -> f64 {
    1.0 / (1.0 + rows_cols_missing(units, cells) as f64)
}

/// Selecting probabilities of seeking mode: `|FS_i - FS_b| / (FS_max - FS_min)` with FS_b the
/// worst fitness (maximisation), or all 1 when every FS is equal.
pub fn selecting_probabilities(fs: &[f64], out: &mut Vec<f64>) {
    out.clear();
    let (lo, hi) = fs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
            (l.min(x), h.max(x))
        });
    if hi <= lo {
        out.extend(fs.iter().map(|_| 1.0));
    } else {
        out.extend(fs.iter().map(|&x| (x - lo).abs() / (hi - lo)));
    }
}

/// Tracing mode's velocity update for one dimension: `v + r c1 (best - x)`, clamped to
/// [-max, max] ("If it is greater than the maximum velocity, which is 5, set it equal to
/// maximum velocity. If it is less than the minimum velocity, set it equal to minimum velocity,
/// which is -5").
pub fn update_velocity(v: f64, r: f64, c1: f64, best: u8, x: u8, max: f64) -> f64 {
    (v + r * c1 * (best as f64 - x as f64)).clamp(-max, max)
}

/// Seeking mode's new value of a dimension before `mod len`: "val = current value +/-
/// (current value * SRD)", made an integer by `rounding`.
pub fn seek_value(current: u8, srd: f64, plus: bool, rounding: Rounding) -> i64 {
    let cur = current as f64;
    let val = if plus {
        cur + cur * srd
    } else {
        cur - cur * srd
    };
    match rounding {
        // `as` truncates toward zero, as `trunc` does, without a libm call.
        Rounding::Truncate => val as i64,
        Rounding::Round => val.round() as i64,
    }
}

/// Cat Swarm Optimization with a validated configuration.
#[derive(Debug, Clone)]
pub struct Cso {
    config: CsoConfig,
}

impl Cso {
    pub fn new(config: CsoConfig) -> Result<Self, CsoError> {
        config.validate()?;
        Ok(Cso { config })
    }
}

impl Solver for Cso {
    fn name(&self) -> &'static str {
        "cso"
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
        let units = Units::new(geom);
        let len = geom.cells();
        let k = cfg.cats;
        let mut pos = vec![0u8; k * len];
        let mut vel = vec![0f64; k * len];
        for c in 0..k {
            layout.random_position(&mut pos[c * len..(c + 1) * len], rng);
            for v in &mut vel[c * len..(c + 1) * len] {
                *v = rng.random_range(-cfg.max_velocity..=cfg.max_velocity);
            }
        }
        let mut fit: Vec<f64> = (0..k)
            .map(|c| fitness(&units, &pos[c * len..(c + 1) * len]))
            .collect();
        let mut evaluations = k as u64;
        let (mut best_fit, mut best) = {
            let b = (0..k)
                .max_by(|&a, &b| fit[a].total_cmp(&fit[b]).then(b.cmp(&a)))
                .unwrap_or(0);
            (fit[b], pos[b * len..(b + 1) * len].to_vec())
        };
        let changes = ((cfg.cdc * len as f64).round() as usize).max(1);
        let tracing_count = (cfg.mr * k as f64).round() as usize;
        let mut tracing_moves = 0u64;
        let mut copies = vec![0u8; cfg.smp * len];
        let mut fs = vec![0f64; cfg.smp];
        let mut probs = Vec::with_capacity(cfg.smp);
        let mut order: Vec<usize> = (0..k).collect();
        let mut cell_order: Vec<usize> = (0..len).collect();
        let mut cycles = 0u64;
        let termination = loop {
            if best_fit >= 1.0 {
                break Termination::Solved;
            }
            if let Some(reason) = budget.reason(cycles, evaluations) {
                break reason;
            }
            cycles += 1;
            // Re-pick the tracing cats every cycle, by MR.
            order.shuffle(rng);
            for (rank, &c) in order.iter().enumerate() {
                let cat = &mut pos[c * len..(c + 1) * len];
                let tracing = match cfg.tracing_selection {
                    TracingSelection::Count => rank < tracing_count,
                    TracingSelection::PerCat => rng.random_bool(cfg.mr),
                };
                if tracing {
                    tracing_moves += 1;
                    let v = &mut vel[c * len..(c + 1) * len];
                    for d in 0..len {
                        if layout.givens[d] != 0 {
                            continue;
                        }
                        let r: f64 = rng.random();
                        v[d] = update_velocity(v[d], r, cfg.c1, best[d], cat[d], cfg.max_velocity);
                        let base = match cfg.tracing_position {
                            TracingPosition::Own => cat[d],
                            TracingPosition::Best => best[d],
                        };
                        let x = base as f64 + v[d];
                        let idx = match cfg.tracing_rounding {
                            TracingRounding::Floor => x.floor(),
                            TracingRounding::Round => x.round(),
                            TracingRounding::Truncate => x.trunc(),
                        };
                        layout.set_by_index(cat, d, idx as i64);
                    }
                    fit[c] = fitness(&units, cat);
                    evaluations += 1;
                } else {
                    // Seeking mode.
                    let keep = usize::from(cfg.spc);
                    for j in 0..cfg.smp {
                        let copy = &mut copies[j * len..(j + 1) * len];
                        copy.copy_from_slice(cat);
                        if j < keep {
                            fs[j] = fit[c];
                            continue;
                        }
                        cell_order.shuffle(rng);
                        for &d in &cell_order[..changes.min(len)] {
                            if layout.givens[d] != 0 {
                                continue;
                            }
                            let val =
                                seek_value(copy[d], cfg.srd, rng.random_bool(0.5), cfg.rounding);
                            layout.set_by_index(copy, d, val);
                        }
                        fs[j] = fitness(&units, copy);
                        evaluations += 1;
                    }
                    selecting_probabilities(&fs, &mut probs);
                    let top = probs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    // A uniform pick among the candidates of highest probability, without
                    // collecting them.
                    let ties = probs.iter().filter(|&&p| p == top).count();
                    let nth = rng.random_range(0..ties);
                    let pick = (0..cfg.smp)
                        .filter(|&j| probs[j] == top)
                        .nth(nth)
                        .expect("nth < number of ties");
                    cat.copy_from_slice(&copies[pick * len..(pick + 1) * len]);
                    fit[c] = fs[pick];
                }
                if fit[c] > best_fit {
                    best_fit = fit[c];
                    best.copy_from_slice(&pos[c * len..(c + 1) * len]);
                }
            }
            observer.generation(cycles, evaluations, best_fit);
            if observer.wants_grids() {
                observer.best_grid(evaluations, &best);
            }
        };
        RunOutcome {
            solved: best_fit >= 1.0,
            best_fitness: best_fit,
            generations: cycles,
            evaluations,
            restarts: 0,
            termination,
            grid: Grid::from_cells(geom, best).expect("cells in range"),
            counters: match cfg.tracing_selection {
                TracingSelection::Count => vec![("tracing_cats_per_cycle", tracing_count as u64)],
                TracingSelection::PerCat => vec![("tracing_moves", tracing_moves)],
            },
        }
    }
}

/// The options the CSO thesis leaves open or garbles, with its words: the readings
/// `sudoku-lab readings` races (2 x 3 x 2 x 2 = 24). Values are the runner's spellings.
pub const AMBIGUITIES: &[sudoku_core::Ambiguity] = &[
    sudoku_core::Ambiguity {
        key: "rounding",
        values: &["truncate", "round"],
        default: "truncate",
        words: "not stated: val = current value +/- (current value * SRD), then val % size of the list of needed values",
    },
    sudoku_core::Ambiguity {
        key: "tracing_rounding",
        values: &["floor", "round", "truncate"],
        default: "floor",
        words: "not stated: xk,d % size of list of needed values",
    },
    sudoku_core::Ambiguity {
        key: "tracing_position",
        values: &["own", "best"],
        default: "own",
        words: "garbled: Update the position of catk according to the equation: (equation missing) where xbest,d is the current position of the catk",
    },
    sudoku_core::Ambiguity {
        key: "tracing_selection",
        values: &["count", "per-cat"],
        default: "count",
        words: "MR gives the number of cats to enter the tracing mode process; haphazardly pick the number of cats and set them into tracing mode according to MR",
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

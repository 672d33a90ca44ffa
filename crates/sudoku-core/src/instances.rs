//! The phase-transition instance family of Lewis (2007) and Lloyd & Amos (2020): a random
//! complete grid with a fraction p of its cells kept as givens and the rest blanked.
//!
//! R. Lewis, "Metaheuristics can solve sudoku puzzles", Journal of Heuristics 13(4):387-401,
//! 2007, introduces the family (the preprint's abstract: "We also introduce a new method for producing sudoku
//! problem instances (that are not necessarily logic-solvable) and use this together with the
//! proposed SA algorithm to try and discover what types of instances this algorithm is best
//! suited for. Consequently we notice the presence of an 'easy-hard-easy' style
//! phase-transition"). H. Lloyd and M. Amos, "Solving Sudoku with Ant Colony Optimization",
//! IEEE Transactions on Games, 2020 (arXiv 1805.03545), test their ant colony system on the
//! same kind of instances. Neither paper's full text was reachable to us, so neither paper's
//! words on how the complete grid is made or how the kept cells are drawn could be read. What
//! is known, and where from:
//!
//! - Lloyd & Amos's public repository (GitHub huwlloyd-mmu/sudoku_acs, no licence: read for
//!   facts only, nothing copied) describes its `instances/general` folder as "General (not
//!   guaranteed unique solution) instances of 9x9, 16x16 and 25x25 sudoku", "f is the fixed
//!   cell percentage (0-95) and n is the instance number (100 for each size and fixed cell
//!   fraction)". The folder holds 21 fractions (0 to 100 in steps of 5) x 100 instances per
//!   size.
//! - Measured on those 6300 files (our reading, not their words): every instance has exactly
//!   ceil(p x cells) givens (9x9 at 5 %: 5 givens, not round(4.05) = 4; 25x25 at 5 %: 32; no
//!   spread at all, where independent coins would spread by about 2 to 12 givens), so the
//!   kept cells are a subset of exact size; instance n of every fraction of a size is a subset
//!   of the same complete grid (the 100 % instance n), the subsets of two fractions are not
//!   nested, and the 100 complete grids of each size are distinct.
//! - Uniqueness is not required ("not guaranteed unique solution"): at low fractions the
//!   instances have many solutions, and any completion of the givens is a solution.
//!
//! How the complete grid is made is not stated anywhere we could read, so it is an option,
//! [`GridMethod`]. What is and is not uniform:
//!
//! - No method here samples uniformly from all complete grids. Exact uniform sampling would
//!   need a uniform draw from the 5,472,730,538 equivalence classes of 9x9 grids weighted by
//!   class size (or a Markov chain proved to mix to the uniform law, which we do not know of
//!   for Sudoku); neither is implemented.
//! - [`GridMethod::SolverSymmetries`] (the default) applies a uniformly random element of the
//!   validity-preserving group (relabel the values, permute the rows within each band, the
//!   bands, the columns within each stack, the stacks, and for square boxes transpose with
//!   probability 1/2) to a grid of the exact solver's randomised search. Given the class
//!   (orbit) of the solver's grid, the result is exactly uniform over that class. The class
//!   itself is drawn with the solver's unknown bias (a depth-first search with random
//!   candidate orders reaches grids with probabilities that depend on the search tree), so
//!   the result is uniform within classes and biased between them. The bias is measurable only
//!   where every grid can be counted: the 288 4x4 grids form two classes, of 192 and 96 grids;
//!   this method puts about 0.75 of its grids in the larger class where a uniform sampler puts
//!   2/3 (the test `default_grids_are_uniform_within_classes_not_between`). At 9x9 and above
//!   the bias is unknown. Every cell's value is exactly uniform over 1..=N (by the
//!   relabelling).
//! - [`GridMethod::Solver`]: the exact solver's grid alone ([`crate::exact::random_solution`]),
//!   biased as said, and far from uniform within classes too (same test).
//! - [`GridMethod::PatternSymmetries`]: the classic "shuffle a seed grid": one fixed pattern
//!   grid, then the random symmetry. Uniform over one class only: every instance's solution
//!   is equivalent to the same grid. Kept as the contrast, not for benchmarks.
//!
//! The kept cells, [`GivenRule`]: [`GivenRule::Ceil`] (the default, as Lloyd & Amos's files
//! have them) keeps a uniformly random subset of exactly ceil(p x cells) cells;
//! [`GivenRule::Round`] one of exactly round(p x cells) (halves up); [`GivenRule::Bernoulli`]
//! keeps each cell independently with probability p. The fraction is held exactly, in
//! millionths ([`Fraction`]), so ceil and round never see a floating-point error.

use crate::exact::{count_solutions, random_solution, NODE_LIMIT};
use crate::seed::{rng_from_seed, run_seed};
use crate::{Geometry, Grid, SolutionCount};
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt;

/// Millionths in one: the resolution of a [`Fraction`].
const MILLION: u32 = 1_000_000;

/// A fraction of the cells in [0, 1), held exactly in millionths (`0.45` is 450000), so that
/// the givens count of [`GivenRule::Ceil`] and [`GivenRule::Round`] is integer arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fraction(u32);

/// Why a fraction was refused (its text is never echoed whole: it may be long).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FractionError {
    #[error("a fraction is a decimal number such as 0.45")]
    NotADecimal,
    #[error("a fraction has at most 6 decimals")]
    TooPrecise,
    #[error("the fraction must be below 1 (1 would keep every cell: no free cell to solve)")]
    NotBelowOne,
}

impl Fraction {
    /// The fraction `millionths / 1000000`, if below 1.
    pub fn from_millionths(millionths: u32) -> Option<Fraction> {
        (millionths < MILLION).then_some(Fraction(millionths))
    }

    /// The fraction in millionths.
    pub fn millionths(self) -> u32 {
        self.0
    }

    /// 0.00, 0.05, ..., 0.95: the benchmark's sweep (Lloyd & Amos's 0 to 95 %).
    pub fn sweep() -> Vec<Fraction> {
        (0..20).map(|k| Fraction(k * 50_000)).collect()
    }

    /// The value as a float (for display and statistics only; counts use millionths).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / f64::from(MILLION)
    }
}

impl std::str::FromStr for Fraction {
    type Err = FractionError;
    /// A decimal `D.DDDDDD` (integer part 0 or 1, at most 6 decimals, `.45` allowed), read
    /// exactly; 1 and above are refused.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (int, dec) = s.split_once('.').unwrap_or((s, ""));
        let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if (int.is_empty() && dec.is_empty()) || !digits(int) || !digits(dec) {
            return Err(FractionError::NotADecimal);
        }
        if dec.len() > 6 {
            return Err(FractionError::TooPrecise);
        }
        if int.bytes().any(|b| b != b'0') {
            return Err(FractionError::NotBelowOne);
        }
        let padded = format!("{dec:0<6}");
        let m: u32 = padded.parse().map_err(|_| FractionError::NotADecimal)?;
        Ok(Fraction(m))
    }
}

impl fmt::Display for Fraction {
    /// At least two decimals, trailing zeros beyond them dropped: `0.00`, `0.45`, `0.125`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut dec = format!("{:06}", self.0);
        while dec.len() > 2 && dec.ends_with('0') {
            dec.pop();
        }
        write!(f, "0.{dec}")
    }
}

/// How the complete grid is made (module docs: what is and is not uniform). Neither paper's
/// method could be read; the default is the most uniform we can make honestly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GridMethod {
    /// The exact solver's randomised grid, then a uniformly random validity-preserving
    /// symmetry: uniform within each equivalence class, biased between classes.
    #[default]
    SolverSymmetries,
    /// The exact solver's randomised grid alone ([`crate::exact::random_solution`]).
    Solver,
    /// A fixed pattern grid, then the random symmetry: uniform over one class only.
    PatternSymmetries,
}

impl GridMethod {
    /// Every method, default first.
    pub const ALL: [GridMethod; 3] = [
        GridMethod::SolverSymmetries,
        GridMethod::Solver,
        GridMethod::PatternSymmetries,
    ];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            GridMethod::SolverSymmetries => "solver+symmetries",
            GridMethod::Solver => "solver",
            GridMethod::PatternSymmetries => "pattern+symmetries",
        }
    }
}

/// Which cells of the complete grid are kept as givens. The default follows Lloyd & Amos's
/// files (module docs): an exact count of ceil(p x cells).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GivenRule {
    /// A uniformly random subset of exactly ceil(p x cells) cells.
    #[default]
    Ceil,
    /// A uniformly random subset of exactly round(p x cells) cells (halves up).
    Round,
    /// Each cell kept independently with probability p (the count varies).
    Bernoulli,
}

impl GivenRule {
    /// Every rule, default first.
    pub const ALL: [GivenRule; 3] = [GivenRule::Ceil, GivenRule::Round, GivenRule::Bernoulli];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            GivenRule::Ceil => "ceil",
            GivenRule::Round => "round",
            GivenRule::Bernoulli => "bernoulli",
        }
    }

    /// The number of givens of an exact-count rule on a grid of `cells` cells; None for
    /// [`GivenRule::Bernoulli`], whose count is drawn.
    pub fn exact_count(self, fraction: Fraction, cells: usize) -> Option<usize> {
        let scaled = u64::from(fraction.0) * cells as u64;
        let m = u64::from(MILLION);
        match self {
            GivenRule::Ceil => Some(scaled.div_ceil(m) as usize),
            GivenRule::Round => Some(((scaled + m / 2) / m) as usize),
            GivenRule::Bernoulli => None,
        }
    }
}

/// The options of the family: how the grid is made and which cells are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LewisOptions {
    pub grid: GridMethod,
    pub givens: GivenRule,
}

/// One instance: the puzzle (the kept cells) and the complete grid it was cut from (one of
/// its solutions; not necessarily the only one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LewisInstance {
    pub puzzle: Grid,
    pub solution: Grid,
}

/// A complete grid of `geom` made by `method`. Deterministic for a given RNG state.
pub fn complete_grid<R: Rng + ?Sized>(geom: Geometry, method: GridMethod, rng: &mut R) -> Grid {
    match method {
        GridMethod::Solver => random_solution(geom, rng),
        GridMethod::SolverSymmetries => {
            let g = random_solution(geom, rng);
            random_symmetry(&g, rng)
        }
        GridMethod::PatternSymmetries => random_symmetry(&pattern_grid(geom), rng),
    }
}

/// The pattern grid: row r, column c holds `(box_cols * (r % box_rows) + r / box_rows + c) %
/// N + 1`, a valid grid for every box shape (tested).
pub fn pattern_grid(geom: Geometry) -> Grid {
    let (n, br, bc) = (geom.n(), geom.box_rows(), geom.box_cols());
    let cells = (0..geom.cells())
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((bc * (r % br) + r / br + c) % n + 1) as u8
        })
        .collect();
    Grid::from_cells(geom, cells).expect("values 1..=n")
}

/// A uniformly random permutation of the N rows that keeps every band (box_rows rows) whole:
/// the bands permuted, and the rows within each band. `out[r]` is the source row of row r.
fn band_preserving_permutation<R: Rng + ?Sized>(n: usize, size: usize, rng: &mut R) -> Vec<usize> {
    let mut bands: Vec<usize> = (0..n / size).collect();
    bands.shuffle(rng);
    let mut out = Vec::with_capacity(n);
    for b in bands {
        let mut within: Vec<usize> = (0..size).collect();
        within.shuffle(rng);
        out.extend(within.into_iter().map(|k| b * size + k));
    }
    out
}

/// `grid` under a uniformly random element of the validity-preserving group: a relabelling
/// of the values, a permutation of the rows that keeps bands whole, one of the columns that
/// keeps stacks whole, and (square boxes only) a transposition with probability 1/2. Each
/// factor is drawn uniformly and independently, and every group element has one such
/// decomposition, so the element is uniform over the group.
pub fn random_symmetry<R: Rng + ?Sized>(grid: &Grid, rng: &mut R) -> Grid {
    let geom = grid.geometry();
    let n = geom.n();
    let mut labels: Vec<u8> = (1..=n as u8).collect();
    labels.shuffle(rng);
    let rows = band_preserving_permutation(n, geom.box_rows(), rng);
    let cols = band_preserving_permutation(n, geom.box_cols(), rng);
    let transpose = geom.box_rows() == geom.box_cols() && rng.random_bool(0.5);
    let cells = (0..geom.cells())
        .map(|i| {
            let (r, c) = (rows[i / n], cols[i % n]);
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            labels[usize::from(grid.get(r, c)) - 1]
        })
        .collect();
    Grid::from_cells(geom, cells).expect("a relabelling keeps values in range")
}

/// `solution` with a random subset of its cells kept by `rule` (fraction p of the cells), the
/// others blanked. For the exact rules the cells are the first of a uniform shuffle.
pub fn keep_givens<R: Rng + ?Sized>(
    solution: &Grid,
    fraction: Fraction,
    rule: GivenRule,
    rng: &mut R,
) -> Grid {
    let cells = solution.cells().len();
    let keep: Vec<bool> = match rule.exact_count(fraction, cells) {
        Some(k) => {
            let mut order: Vec<usize> = (0..cells).collect();
            order.shuffle(rng);
            let mut keep = vec![false; cells];
            for &c in &order[..k] {
                keep[c] = true;
            }
            keep
        }
        None => (0..cells)
            .map(|_| rng.random_range(0..MILLION) < fraction.0)
            .collect(),
    };
    let out = (solution.cells().iter().zip(keep))
        .map(|(&v, k)| if k { v } else { 0 })
        .collect();
    Grid::from_cells(solution.geometry(), out).expect("cells of a grid")
}

/// One instance from one RNG: the complete grid, then the kept cells.
pub fn lewis_instance<R: Rng + ?Sized>(
    geom: Geometry,
    fraction: Fraction,
    options: &LewisOptions,
    rng: &mut R,
) -> LewisInstance {
    let solution = complete_grid(geom, options.grid, rng);
    let puzzle = keep_givens(&solution, fraction, options.givens, rng);
    LewisInstance { puzzle, solution }
}

/// Instance `index` of a set made with `seed`, as `sudoku-lab instances` makes it. The
/// complete grid comes from its own stream, a hash of (seed, "lewis-grid", the grid's size,
/// index), so instance `index` of every fraction of a size blanks the same grid (as in Lloyd &
/// Amos's files, and a paired design across fractions); the kept cells from a stream of
/// (seed, "lewis-givens", size and fraction, index).
pub fn lewis_set_instance(
    seed: u64,
    geom: Geometry,
    fraction: Fraction,
    index: u64,
    options: &LewisOptions,
) -> LewisInstance {
    let size = format!("{}x{}", geom.n(), geom.n());
    let mut grid_rng = rng_from_seed(run_seed(seed, "lewis-grid", &size, index));
    let solution = complete_grid(geom, options.grid, &mut grid_rng);
    let stream = format!("{size}/{fraction}");
    let mut rng = rng_from_seed(run_seed(seed, "lewis-givens", &stream, index));
    let puzzle = keep_givens(&solution, fraction, options.givens, &mut rng);
    LewisInstance { puzzle, solution }
}

/// Whether an instance's solution is unique, as the exact solver says within its node limit
/// ([`NODE_LIMIT`] search nodes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Uniqueness {
    Unique,
    /// Two solutions or more were found.
    Multiple,
    /// The search stopped at the node limit first.
    Unknown,
    /// No solution (never for an instance cut from a complete grid).
    Unsolvable,
}

impl Uniqueness {
    /// The word used in files: `unique`, `multiple`, `unknown`, `none`.
    pub fn word(self) -> &'static str {
        match self {
            Uniqueness::Unique => "unique",
            Uniqueness::Multiple => "multiple",
            Uniqueness::Unknown => "unknown",
            Uniqueness::Unsolvable => "none",
        }
    }
}

/// The node limit of [`uniqueness`]: the exact solver's, [`NODE_LIMIT`].
pub const UNIQUENESS_NODE_LIMIT: u64 = NODE_LIMIT;

/// Count the solutions of `puzzle` up to 2 with the exact solver ([`count_solutions`]), which
/// stops after [`UNIQUENESS_NODE_LIMIT`] search nodes.
pub fn uniqueness(puzzle: &Grid) -> Uniqueness {
    match count_solutions(puzzle, 2) {
        SolutionCount::Unique => Uniqueness::Unique,
        SolutionCount::Many(_) => Uniqueness::Multiple,
        SolutionCount::Undetermined(_) => Uniqueness::Unknown,
        SolutionCount::None => Uniqueness::Unsolvable,
    }
}

#[cfg(test)]
mod tests;

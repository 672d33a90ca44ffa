//! The operators of Lewis's simulated annealing as pure functions: the per-puzzle layout (free
//! cells of each box), the random box-permutation fill, the swap neighbourhood, the row and
//! column count tables with the incremental cost of a swap, the acceptance probability and the
//! standard deviation that sets the initial temperature.
//!
//! Nothing here allocates after construction: [`Layout`] and [`Counts`] are built once per run
//! and the hot loop only indexes their flat tables.

use rand::seq::SliceRandom;
use rand::Rng;
use sudoku_core::{Geometry, Grid};

/// How the box of a move is drawn (the sources say only that two cells of one box are swapped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxChoice {
    /// A box uniformly among the boxes with at least two free cells, then two distinct free
    /// cells of it uniformly (the common reading).
    UniformBox,
    /// A pair uniformly among all pairs of free cells sharing a box: a box is drawn with
    /// probability proportional to f(f - 1) / 2, f its number of free cells.
    UniformPair,
}

/// Per-puzzle tables, built once per run.
#[derive(Debug, Clone)]
pub struct Layout {
    pub geom: Geometry,
    /// The puzzle's cells (0 = free).
    pub givens: Vec<u8>,
    /// Each cell's row and column.
    pub row_of: Vec<u8>,
    pub col_of: Vec<u8>,
    /// Each box's free (non-given) cells, row-major inside the box.
    pub free: Vec<Vec<u16>>,
    /// The values each box misses among its givens, ascending (one per free cell).
    pub missing: Vec<Vec<u8>>,
    /// The boxes with at least two free cells, ascending: the only boxes a move can use.
    pub swappable: Vec<usize>,
    /// Running totals of f(f - 1) / 2 over `swappable` (for [`BoxChoice::UniformPair`]).
    pub pair_prefix: Vec<u64>,
    /// The free cells of the swappable boxes, concatenated in `swappable` order, and each
    /// box's (start, length) in it: one flat table for the hot loop.
    move_cells: Vec<u16>,
    move_spans: Vec<(u32, u32)>,
    /// Number of free cells of the puzzle.
    pub free_cells: usize,
}

impl Layout {
    pub fn new(puzzle: &Grid) -> Self {
        let geom = puzzle.geometry();
        let n = geom.n();
        let givens = puzzle.cells().to_vec();
        let free: Vec<Vec<u16>> = (0..n)
            .map(|b| {
                geom.box_cells(b)
                    .filter(|&c| givens[c] == 0)
                    .map(|c| c as u16)
                    .collect()
            })
            .collect();
        let missing = (0..n)
            .map(|b| {
                let used = geom
                    .box_cells(b)
                    .map(|c| givens[c])
                    .filter(|&v| v != 0)
                    .fold(0u32, |m, v| m | 1 << v);
                (1..=n as u8).filter(|v| used & (1 << v) == 0).collect()
            })
            .collect();
        let swappable: Vec<usize> = (0..n).filter(|&b| free[b].len() >= 2).collect();
        let mut total = 0u64;
        let pair_prefix = swappable
            .iter()
            .map(|&b| {
                let f = free[b].len() as u64;
                total += f * (f - 1) / 2;
                total
            })
            .collect();
        let mut move_cells = Vec::new();
        let move_spans = swappable
            .iter()
            .map(|&b| {
                let start = move_cells.len() as u32;
                move_cells.extend_from_slice(&free[b]);
                (start, free[b].len() as u32)
            })
            .collect();
        Layout {
            geom,
            move_cells,
            move_spans,
            row_of: (0..geom.cells()).map(|c| geom.row_of(c) as u8).collect(),
            col_of: (0..geom.cells()).map(|c| geom.col_of(c) as u8).collect(),
            free_cells: free.iter().map(Vec::len).sum(),
            givens,
            free,
            missing,
            swappable,
            pair_prefix,
        }
    }

    /// A random initial solution: the free cells of each box get a uniformly random
    /// permutation of the values the box misses, so every box holds 1..=N once and the givens
    /// stay. Boxes are filled in index order, each with one shuffle.
    pub fn random_fill<R: Rng + ?Sized>(&self, cells: &mut [u8], rng: &mut R) {
        cells.copy_from_slice(&self.givens);
        let mut vals = Vec::with_capacity(self.geom.n());
        for (free, missing) in self.free.iter().zip(&self.missing) {
            vals.clear();
            vals.extend_from_slice(missing);
            vals.shuffle(rng);
            for (&c, &v) in free.iter().zip(&vals) {
                cells[c as usize] = v;
            }
        }
    }

    /// A move: two distinct free cells of one box, drawn by `choice`. `None` when no box has
    /// two free cells (then no move exists).
    #[inline]
    pub fn pick_move<R: Rng + ?Sized>(
        &self,
        choice: BoxChoice,
        rng: &mut R,
    ) -> Option<(usize, usize)> {
        let k = self.swappable.len();
        if k == 0 {
            return None;
        }
        let slot = match choice {
            BoxChoice::UniformBox => rng.random_range(0..k),
            BoxChoice::UniformPair => {
                let total = self.pair_prefix[k - 1];
                let r = rng.random_range(0..total);
                // First box whose running total exceeds r (at most 25 boxes).
                self.pair_prefix.partition_point(|&p| p <= r)
            }
        };
        let (start, m) = self.move_spans[slot];
        let free = &self.move_cells[start as usize..(start + m) as usize];
        let i = rng.random_range(0..m as usize);
        let mut j = rng.random_range(0..m as usize - 1);
        if j >= i {
            j += 1;
        }
        Some((free[i] as usize, free[j] as usize))
    }
}

/// The row and column count tables and their incremental swap cost, shared with the other
/// box-swap solvers (`sudoku_core::counts`): 0 exactly for a solution when every box is a
/// permutation.
pub use sudoku_core::UnitCounts as Counts;

impl sudoku_core::CellUnits for Layout {
    fn order(&self) -> usize {
        self.geom.n()
    }
    fn rows_of(&self) -> &[u8] {
        &self.row_of
    }
    fn cols_of(&self) -> &[u8] {
        &self.col_of
    }
}

/// The probability of accepting a move of cost change `delta` at temperature `t`: 1 when
/// `delta <= 0`, else `exp(-delta / t)` (0 at `t = 0`).
#[inline]
pub fn acceptance_probability(delta: i32, t: f64) -> f64 {
    if delta <= 0 {
        1.0
    } else if t > 0.0 {
        (-(delta as f64) / t).exp()
    } else {
        0.0
    }
}

/// Population standard deviation (divisor n) of `costs`; 0 for fewer than two values.
pub fn std_dev(costs: &[u32]) -> f64 {
    if costs.len() < 2 {
        return 0.0;
    }
    let n = costs.len() as f64;
    let mean = costs.iter().map(|&c| c as f64).sum::<f64>() / n;
    (costs
        .iter()
        .map(|&c| (c as f64 - mean).powi(2))
        .sum::<f64>()
        / n)
        .sqrt()
}

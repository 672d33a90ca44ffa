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

/// A uniform integer in `0..range` (`range >= 1`), drawing from `rng` exactly as rand 0.9's
/// `rng.random_range(0..range)` does for a `usize` range below 2^32 (one `u32`, widened and
/// multiplied by the range; a second `u32` only in the rare biased case): the same random
/// stream and the same value, without the generic range checks. Tested against
/// `random_range` over many ranges and seeds.
#[inline(always)]
pub fn below<R: rand::RngCore + ?Sized>(rng: &mut R, range: u32) -> u32 {
    below_within(rng, range, range.wrapping_neg())
}

/// [`below`] with `range.wrapping_neg()` computed once by the caller (`neg`): the bound of the
/// rare biased case, where a second `u32` is drawn.
#[inline(always)]
fn below_within<R: rand::RngCore + ?Sized>(rng: &mut R, range: u32, neg: u32) -> u32 {
    let m = u64::from(rng.next_u32()) * u64::from(range);
    let (mut hi, lo) = ((m >> 32) as u32, m as u32);
    if lo > neg {
        let new_hi = ((u64::from(rng.next_u32()) * u64::from(range)) >> 32) as u32;
        hi += u32::from(lo.checked_add(new_hi).is_none());
    }
    hi
}

/// Free cells of the swappable boxes at most (25 x 25 grids: 625), a power of two.
const SLOTS: usize = 1024;
/// Entries of the count table: every u16 offset plus every u8 value fits, so an index
/// `offset + value` needs no bounds check (the tables use 2 N units of stride N + 1, at most
/// 1300 entries, for N <= 25; the rest of the 64 KiB stays 0 and is never read).
const TABLE: usize = (1 << 16) + 256;
/// Swappable boxes at most (25).
const SPANS: usize = 32;

/// One free cell of a swappable box in the hot loop: its cell, the offsets of its row and of
/// its column in [`Kernel`]'s count table, and its current value.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    row: u16,
    col: u16,
    cell: u16,
    val: u8,
}

/// A swappable box in the hot loop: its first slot, its free cells `m` and the bounds of the
/// rare biased case of the two cell draws ([`below`] of `m` and of `m - 1`), computed once.
#[derive(Debug, Clone, Copy, Default)]
struct Span {
    start: u32,
    m: u32,
    neg_m: u32,
    neg_m1: u32,
}

/// The annealing's hot-loop state: the free cells of the swappable boxes (in
/// [`Layout::swappable`] order) with their current values, and the row and column count
/// tables in one array (rows first, then columns, stride N + 1). The arrays have fixed sizes
/// that bound every index the types allow (the count table) or are powers of two with the
/// index masked to them (the cells), so the loop has no bounds checks; the masks never change
/// an index (the sizes bound every grid of sudoku-core). It draws its
/// moves exactly as [`Layout::pick_move`] and computes the same cost changes as
/// [`Counts::swap_delta`]; built once per run.
///
/// The fields stay in declaration order (`repr(C)`), the small tables first: with this order
/// the compiled loop measured about one instruction per move fewer under callgrind than with
/// the compiler's own order (the layout changes no value).
#[derive(Debug, Clone)]
#[repr(C)]
pub struct Kernel {
    spans: [Span; SPANS],
    slots: [Slot; SLOTS],
    table: [u8; TABLE],
    boxes: u32,
    /// Slots in use (the free cells of the swappable boxes).
    used: usize,
    pair_prefix: Vec<u64>,
    order: usize,
}

impl Kernel {
    /// The tables of `layout` holding `cells`, in one allocation (the hot loop then needs one
    /// base address).
    pub fn new(layout: &Layout, cells: &[u8]) -> Box<Self> {
        let n = layout.geom.n();
        assert!(2 * n * (n + 1) <= TABLE && layout.move_cells.len() <= SLOTS && n <= SPANS);
        let mut slots = [Slot::default(); SLOTS];
        for (slot, &c) in slots.iter_mut().zip(&layout.move_cells) {
            let c = c as usize;
            *slot = Slot {
                row: (layout.row_of[c] as usize * (n + 1)) as u16,
                col: ((n + layout.col_of[c] as usize) * (n + 1)) as u16,
                cell: c as u16,
                val: 0,
            };
        }
        let mut spans = [Span::default(); SPANS];
        for (span, &(start, m)) in spans.iter_mut().zip(&layout.move_spans) {
            *span = Span {
                start,
                m,
                neg_m: m.wrapping_neg(),
                neg_m1: (m - 1).wrapping_neg(),
            };
        }
        let mut k = Box::new(Kernel {
            slots,
            table: [0; TABLE],
            spans,
            boxes: layout.swappable.len() as u32,
            used: layout.move_cells.len(),
            pair_prefix: layout.pair_prefix.clone(),
            order: n,
        });
        k.load(layout, cells);
        k
    }

    /// Rebuild the values and the count tables from `cells` (after a refill).
    pub fn load(&mut self, layout: &Layout, cells: &[u8]) {
        let s = self.order + 1;
        self.table.fill(0);
        for (cell, &v) in cells.iter().enumerate() {
            let v = v as usize;
            self.table[layout.row_of[cell] as usize * s + v] += 1;
            self.table[(self.order + layout.col_of[cell] as usize) * s + v] += 1;
        }
        for slot in self.slots.iter_mut().take(self.used) {
            slot.val = cells[slot.cell as usize];
        }
    }

    /// The cost of the tables: values 1..=N with count 0, over every row and column (the same
    /// as [`Counts::cost`]).
    pub fn cost(&self) -> u32 {
        let s = self.order + 1;
        self.table[..2 * self.order * s]
            .chunks_exact(s)
            .map(|unit| unit[1..].iter().filter(|&&k| k == 0).count() as u32)
            .sum()
    }

    /// A move as two slot indices, drawn from `rng` exactly as [`Layout::pick_move`] draws its
    /// cells (the same calls in the same order). Needs at least one swappable box.
    #[inline(always)]
    pub fn pick<R: Rng + ?Sized>(&self, choice: BoxChoice, rng: &mut R) -> (usize, usize) {
        let slot = match choice {
            BoxChoice::UniformBox => {
                below_within(rng, self.boxes, self.boxes.wrapping_neg()) as usize
            }
            BoxChoice::UniformPair => {
                let total = self.pair_prefix[self.pair_prefix.len() - 1];
                let r = rng.random_range(0..total);
                self.pair_prefix.partition_point(|&p| p <= r)
            }
        };
        let span = self.spans[slot & (SPANS - 1)];
        let i = below_within(rng, span.m, span.neg_m);
        let mut j = below_within(rng, span.m - 1, span.neg_m1);
        if j >= i {
            j += 1;
        }
        (
            span.start as usize + i as usize,
            span.start as usize + j as usize,
        )
    }

    /// The cell of slot `p`.
    #[inline]
    pub fn cell(&self, p: usize) -> usize {
        self.slots[p & (SLOTS - 1)].cell as usize
    }

    #[inline(always)]
    fn count(&self, offset: u16, v: u8) -> u8 {
        self.table[offset as usize + v as usize]
    }

    #[inline(always)]
    fn bump(&mut self, offset: u16, out: u8, inn: u8) {
        self.table[offset as usize + out as usize] -= 1;
        self.table[offset as usize + inn as usize] += 1;
    }

    /// The cost change of swapping the values of slots `p` and `q` (two free cells of one
    /// box): the same value as [`Counts::swap_delta`] of their cells.
    #[inline(always)]
    pub fn delta(&self, p: usize, q: usize) -> i32 {
        let (a, b) = (self.slots[p & (SLOTS - 1)], self.slots[q & (SLOTS - 1)]);
        let (x, y) = (a.val, b.val);
        let unit = |o: u16, out: u8, inn: u8| -> i32 {
            i32::from(self.count(o, out) == 1) - i32::from(self.count(o, inn) == 0)
        };
        let mut d = 0;
        if a.row != b.row {
            d += unit(a.row, x, y) + unit(b.row, y, x);
        }
        if a.col != b.col {
            d += unit(a.col, x, y) + unit(b.col, y, x);
        }
        d
    }

    /// Moves of a Markov chain from the solution `cells` of cost `*cost`: at most `moves`
    /// moves drawn by `choice`, each accepted when its cost change `delta` is <= 0 or, drawing
    /// one uniform `f64`, when it falls below `accept[delta]` (`accept` holds exp(-delta / t)
    /// for delta 1 to 4). Returns the moves made: all of them, or fewer when a move brings the
    /// cost below `best` (the walk stops right after it, so the caller can record the new best
    /// and go on with the moves left). `tally` counts the accepted and the improving moves.
    /// The generator is copied for the walk and written back, so its state stays in registers;
    /// the moves change the slots and the count tables only, and `cells` gets the slots' values
    /// once, on return (the caller reads the grid only between walks).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub fn walk<R: Rng + Clone>(
        &mut self,
        cells: &mut [u8],
        choice: BoxChoice,
        moves: u64,
        accept: &[f64; 8],
        rng: &mut R,
        cost: &mut u32,
        best: u32,
        tally: &mut [u64; 2],
    ) -> u64 {
        // One copy of the loop per box choice, each with its choice a constant.
        match choice {
            BoxChoice::UniformBox => self.walk_with(
                cells,
                BoxChoice::UniformBox,
                moves,
                accept,
                rng,
                cost,
                best,
                tally,
            ),
            BoxChoice::UniformPair => self.walk_with(
                cells,
                BoxChoice::UniformPair,
                moves,
                accept,
                rng,
                cost,
                best,
                tally,
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn walk_with<R: Rng + Clone>(
        &mut self,
        cells: &mut [u8],
        choice: BoxChoice,
        moves: u64,
        accept: &[f64; 8],
        rng: &mut R,
        cost: &mut u32,
        best: u32,
        tally: &mut [u64; 2],
    ) -> u64 {
        let mut local = rng.clone();
        // The uniform f64 of rand is k / 2^53 with k = next_u64() >> 11, and k / 2^53 < p
        // exactly when k < ceil(p 2^53) (scaling by 2^53 is exact): the same decision as the
        // float comparison, on integers.
        let threshold = accept.map(|p| (p * (1u64 << 53) as f64).ceil() as u64);
        let (mut c, [mut accepted, mut improving]) = (*cost, *tally);
        let mut left = moves;
        while left != 0 {
            left -= 1;
            let (p, q) = self.pick(choice, &mut local);
            let delta = self.delta(p, q);
            if delta <= 0 || (local.next_u64() >> 11) < threshold[delta as usize & 7] {
                self.swap(p, q);
                c = c.wrapping_add_signed(delta);
                accepted += 1;
                if delta < 0 {
                    improving += 1;
                    if c < best {
                        break;
                    }
                }
            }
        }
        self.store(cells);
        *rng = local;
        *cost = c;
        *tally = [accepted, improving];
        moves - left
    }

    /// Swap the values of slots `p` and `q`, in the tables and in `cells`.
    #[inline(always)]
    pub fn apply(&mut self, p: usize, q: usize, cells: &mut [u8]) {
        self.swap(p, q);
        cells.swap(self.cell(p), self.cell(q));
    }

    /// Write the slots' values into `cells` (the walk keeps them in the slots only).
    fn store(&self, cells: &mut [u8]) {
        for slot in &self.slots[..self.used] {
            cells[slot.cell as usize] = slot.val;
        }
    }

    /// Swap the values of slots `p` and `q` in the slots and the tables (not in a grid).
    #[inline(always)]
    fn swap(&mut self, p: usize, q: usize) {
        let (p, q) = (p & (SLOTS - 1), q & (SLOTS - 1));
        let (a, b) = (self.slots[p], self.slots[q]);
        let (x, y) = (a.val, b.val);
        if a.row != b.row {
            self.bump(a.row, x, y);
            self.bump(b.row, y, x);
        }
        if a.col != b.col {
            self.bump(a.col, x, y);
            self.bump(b.col, y, x);
        }
        self.slots[p].val = y;
        self.slots[q].val = x;
    }
}

//! The board an ant fills: a value set per cell and the constraint propagation of the
//! authors' code (`Board::SetCell` and `Board::ConstrainCell` of huwlloyd-mmu/sudoku_acs),
//! with the same rules, applied to the same cells in the same order, but with per-unit tables
//! in place of the code's scans of each unit.
//!
//! **Value sets.** Cell `i` holds a bit set of the values it may still take (bit `k` for value
//! `k + 1`). A cell is *fixed* when its set has one value and *empty* (a "fail cell") when it
//! has none.
//!
//! **Propagation** (the paper's two rules, section III-A, as the code applies them). Fixing a
//! cell ([`Board::set_cell`]) constrains each of its peers in the code's order: for `j` in
//! `0..N`, the `j`-th cell of its box, of its column, then of its row (a peer sharing two
//! units with the cell is constrained twice). Constraining an open cell
//! ([`Board::constrain`]):
//!
//! 1. *elimination*: the values of its fixed peers leave its set; when one value is left the
//!    cell is fixed to it (which constrains its own peers, recursively);
//! 2. *unique possibility* (hidden single): otherwise, when exactly one of its values is held
//!    by no other cell of its row, it is fixed to that value; else the same test on its
//!    column, then on its box.
//!
//! A fixed or empty cell is left as it is, and fixing an already fixed cell changes nothing.
//! The cascade only reaches the peers of cells fixed during it: it is not a fixpoint of the two
//! rules over the whole grid (the code's behaviour, the default). [`Board::settle`] applies the
//! rules to a fixpoint instead (the other reading, [`crate::Propagation::Fixpoint`]).
//!
//! **Tables in place of scans.** The code recomputes, at each constraint, the union of the
//! fixed values and of all value sets of the cell's three units by scanning them (3N cells).
//! Here each unit keeps the union of its fixed values ([`Unit::fixed`]) and, per value, the
//! number of its cells whose set holds it, bit-sliced ([`Planes`]), so that "held by no other
//! cell of the unit" is one mask (count exactly 1). A constraint then costs a few word
//! operations; the tests check every step against a transcription of the code's scans.

use sudoku_core::{Geometry, Units};

/// A set of values: bit `k` for value `k + 1`.
pub type ValueSet = u32;

/// True when `m` holds exactly one value.
#[inline(always)]
pub fn is_single(m: ValueSet) -> bool {
    m != 0 && m & (m - 1) == 0
}

/// Bit planes of a per-value counter: value `k`'s count is the number whose bit `b` is bit `k`
/// of plane `b`. Five planes count to 31, enough for the 25 cells of a unit of 25x25.
pub type Planes = [u32; 5];

/// Add 1 to the count of every value in `m`.
#[inline(always)]
pub fn planes_add(p: &mut Planes, m: ValueSet) {
    let mut carry = m;
    for plane in p.iter_mut() {
        if carry == 0 {
            break;
        }
        let next = *plane & carry;
        *plane ^= carry;
        carry = next;
    }
}

/// Take 1 from the count of every value in `m` (each such count is at least 1).
#[inline(always)]
pub fn planes_sub(p: &mut Planes, m: ValueSet) {
    let mut borrow = m;
    for plane in p.iter_mut() {
        if borrow == 0 {
            break;
        }
        let next = !*plane & borrow;
        *plane ^= borrow;
        borrow = next;
    }
}

/// The values whose count is exactly 1.
#[inline(always)]
pub fn planes_ones(p: &Planes) -> ValueSet {
    p[0] & !(p[1] | p[2] | p[3] | p[4])
}

/// The per-puzzle tables every board of a run shares, built once per run.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Order N (values 1..=N).
    pub n: usize,
    /// Number of cells, N^2.
    pub cells: usize,
    /// All N values.
    pub full: ValueSet,
    /// Each cell's row, column and box unit (rows 0..N, columns N..2N, boxes 2N..3N).
    pub units_of: Vec<[u16; 3]>,
    /// Each cell's peers in the order the code constrains them after fixing it: for `j` in
    /// `0..N` the `j`-th cell of its box, of its column, of its row, the cell itself skipped;
    /// `3 (N - 1)` entries a cell.
    sweep: Vec<u16>,
}

impl Tables {
    pub fn new(geom: Geometry) -> Self {
        let n = geom.n();
        let units = Units::new(geom);
        let units_of: Vec<[u16; 3]> = (0..geom.cells()).map(|c| units.of_cell(c)).collect();
        let mut sweep = Vec::with_capacity(geom.cells() * 3 * (n - 1));
        for (cell, u) in units_of.iter().enumerate() {
            for j in 0..n {
                // Box, column, row: the order of `Board::SetCell`'s loop.
                for unit in [u[2], u[1], u[0]] {
                    let k = units.unit(unit as usize)[j];
                    if k as usize != cell {
                        sweep.push(k);
                    }
                }
            }
        }
        Tables {
            n,
            cells: geom.cells(),
            full: ((1u64 << n) - 1) as u32,
            units_of,
            sweep,
        }
    }

    /// The peers constrained after `cell` is fixed, in order.
    #[inline(always)]
    pub fn sweep(&self, cell: usize) -> &[u16] {
        let len = 3 * (self.n - 1);
        &self.sweep[cell * len..(cell + 1) * len]
    }
}

/// One unit's tables: the union of the values of its fixed cells, per value the number of
/// its cells whose set holds the value, and the values whose number is 1 (kept at each change
/// of a set, read at each constraint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Unit {
    pub fixed: ValueSet,
    pub ones: ValueSet,
    pub counts: Planes,
}

/// One board: the value sets, the unit tables and the code's counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Each cell's value set.
    pub cand: Vec<ValueSet>,
    /// Each unit's tables (rows, columns, boxes).
    pub units: Vec<Unit>,
    /// Cells fixed by [`Board::set_cell`] (the code's `numFixedCells`).
    pub fixed_cells: u32,
    /// Cells found empty by [`Board::constrain`] (the code's `numInfeasible`).
    pub infeasible: u32,
    /// Changes of a value set so far (what tells [`Board::settle`] a pass changed nothing).
    pub changes: u64,
}

impl Board {
    /// Every cell open to every value.
    pub fn open(t: &Tables) -> Self {
        let count_n: Planes = std::array::from_fn(|b| if t.n >> b & 1 == 1 { t.full } else { 0 });
        let unit = Unit {
            fixed: 0,
            ones: planes_ones(&count_n),
            counts: count_n,
        };
        Board {
            cand: vec![t.full; t.cells],
            units: vec![unit; 3 * t.n],
            fixed_cells: 0,
            infeasible: 0,
            changes: 0,
        }
    }

    /// The board of a puzzle (`cells[i]`: 0 or a value 1..=N): from an open board, each given
    /// fixed in cell order with its propagation (the code's `Board(puzzleString)`). A given
    /// whose cell an earlier propagation fixed is skipped, as the code skips it.
    pub fn from_givens(t: &Tables, cells: &[u8]) -> Self {
        let mut b = Board::open(t);
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                b.set_cell(t, i, 1 << (v - 1));
            }
        }
        b
    }

    /// Make `self` a copy of `other` (same tables) without allocating.
    pub fn copy_from(&mut self, other: &Board) {
        self.cand.copy_from_slice(&other.cand);
        self.units.copy_from_slice(&other.units);
        self.fixed_cells = other.fixed_cells;
        self.infeasible = other.infeasible;
        self.changes = other.changes;
    }

    /// Replace cell `i`'s set by `new`, keeping the unit tables.
    #[inline(always)]
    fn change(&mut self, t: &Tables, i: usize, new: ValueSet) {
        let old = self.cand[i];
        let (gone, come) = (old & !new, new & !old);
        for &u in &t.units_of[i] {
            let unit = &mut self.units[u as usize];
            planes_sub(&mut unit.counts, gone);
            if come != 0 {
                // Only a given on a cell an earlier propagation emptied adds values.
                planes_add(&mut unit.counts, come);
            }
            if is_single(new) {
                unit.fixed |= new;
            }
            unit.ones = planes_ones(&unit.counts);
        }
        self.cand[i] = new;
        self.changes += 1;
    }

    /// Fix cell `i` to the single value of `value` and constrain its peers (the code's
    /// `SetCell`); nothing happens when the cell is already fixed.
    pub fn set_cell(&mut self, t: &Tables, i: usize, value: ValueSet) {
        if is_single(self.cand[i]) {
            return;
        }
        self.change(t, i, value);
        self.fixed_cells += 1;
        for &k in t.sweep(i) {
            // `constrain` leaves fixed and empty cells as they are: test that here, before a
            // call.
            let m = self.cand[k as usize];
            if m != 0 && !is_single(m) {
                self.constrain(t, k as usize);
            }
        }
    }

    /// Apply the two rules to cell `i` (the code's `ConstrainCell`). Inlined into
    /// [`Board::set_cell`]'s loop: the recursion goes through `set_cell` alone.
    #[inline(always)]
    pub fn constrain(&mut self, t: &Tables, i: usize) {
        let m = self.cand[i];
        if m == 0 || is_single(m) {
            return;
        }
        let [r, c, b] = t.units_of[i].map(usize::from);
        let (ur, uc, ub) = (&self.units[r], &self.units[c], &self.units[b]);
        let allowed = t.full & !(ur.fixed | uc.fixed | ub.fixed);
        if is_single(allowed) {
            self.set_cell(t, i, allowed);
            return;
        }
        if m & !allowed != 0 {
            self.change(t, i, m & allowed);
        }
        let m = self.cand[i];
        // A value of the cell held by no other cell of the unit has a count of exactly 1.
        let (row, col, bx) = (
            m & self.units[r].ones,
            m & self.units[c].ones,
            m & self.units[b].ones,
        );
        if is_single(row) {
            self.set_cell(t, i, row);
        } else if is_single(col) {
            self.set_cell(t, i, col);
        } else if is_single(bx) {
            self.set_cell(t, i, bx);
        }
        if self.cand[i] == 0 {
            self.infeasible += 1;
        }
    }

    /// The two rules to a fixpoint over the whole grid (the reading
    /// [`crate::Propagation::Fixpoint`]): passes over the cells in index order, constraining
    /// each open cell (with its cascade), until a pass changes no value set.
    pub fn settle(&mut self, t: &Tables) {
        loop {
            let before = self.changes;
            for i in 0..t.cells {
                let m = self.cand[i];
                if m != 0 && !is_single(m) {
                    self.constrain(t, i);
                }
            }
            if self.changes == before {
                return;
            }
        }
    }

    /// Number of empty cells.
    pub fn empty_cells(&self) -> usize {
        self.cand.iter().filter(|&&m| m == 0).count()
    }

    /// The fixed cells as a grid's cells (0 for a cell that is open or empty).
    pub fn write_values(&self, out: &mut [u8]) {
        for (o, &m) in out.iter_mut().zip(&self.cand) {
            *o = if is_single(m) {
                m.trailing_zeros() as u8 + 1
            } else {
                0
            };
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;

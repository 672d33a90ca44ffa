//! Incremental evaluation: the Ret-GA operators on individuals that carry, beside their cells,
//! the count of every value in each of their rows, columns and boxes, the number of
//! not-distinct pairs those counts imply, and per row and column the number of repetitions
//! Remove Repetition has to look at. A changed cell then updates the fitness in a few steps
//! instead of a recount of all 3N units, and Remove Repetition visits only the units that need
//! it instead of scanning every non-given cell.
//!
//! The fitness of eqs. (2)-(6) is `max - (pairs of cells in a common unit holding equal
//! values)` (`sudoku_core::fitness::RetGaFitness`); with a count table, setting a cell from `v`
//! to `w` changes the equal pairs by `count(w) - (count(v) - 1)` in each of its three units.
//!
//! Each operator here draws exactly the random numbers, in the same order, as its plain
//! version in [`crate::ops`], and leaves the same cells: the tests run both on the same inputs
//! and seeds and compare cells, fitness and the generator's next output, and replaying
//! committed runs gives identical rows. So this module changes no run, only its cost.

use crate::config::{CrossoverRows, RepetitionScope, RepetitionSet};
use crate::ops::{random_bit, Blueprint};
use rand::distr::{Bernoulli, Distribution};
use rand::Rng;

/// Packed per-unit value counts: one integer per unit with a fixed-width field per value.
/// 4-bit fields in a `u64` hold the counts of orders up to 15 (a unit has at most 15 cells and
/// values 0..=15 fit in 16 fields); 5-bit fields in a `u128` hold orders 16 to 25 (values
/// 1..=25, stored from bit 0 for value 1).
pub trait Counts: Copy + Default + Eq + std::fmt::Debug + Send + Sync + 'static {
    /// The field of value `v` (1-based) starts at bit `shift(v)`.
    fn shift(v: u8) -> u32;
    /// The count in the field at `shift`.
    fn field(self, shift: u32) -> u32;
    /// Add one to the field at `shift`.
    fn inc(self, shift: u32) -> Self;
    /// Take one from the field at `shift`.
    fn dec(self, shift: u32) -> Self;
    /// `1` in the field of each value of `mask` (a bit per value, bit v = value v).
    fn ones(mask: u32) -> Self;
    /// The fields of the values of `mask`, all bits set.
    fn fields(mask: u32) -> Self;
    /// Every bit above the lowest of each field: non-zero when some count exceeds 1.
    fn high(values: u32) -> Self;
    fn and(self, other: Self) -> Self;
    /// The values whose count is not zero, as a bit mask (bit v = value v).
    fn present(self) -> u32;
}

/// `impl Counts` for an integer type with `bits`-bit fields, value v in field `v - first`;
/// `present` is given, since the fast bit gathering depends on the packing.
macro_rules! packed_counts {
    ($t:ty, bits = $bits:literal, first = $first:literal, present = |$s:ident| $present:block) => {
        impl Counts for $t {
            #[inline(always)]
            fn shift(v: u8) -> u32 {
                $bits * (v as u32 - $first)
            }
            #[inline(always)]
            fn field(self, shift: u32) -> u32 {
                ((self >> shift) & ((1 << $bits) - 1)) as u32
            }
            #[inline(always)]
            fn inc(self, shift: u32) -> Self {
                self + (1 << shift)
            }
            #[inline(always)]
            fn dec(self, shift: u32) -> Self {
                self - (1 << shift)
            }
            fn ones(mask: u32) -> Self {
                ($first..32u8)
                    .filter(|&v| mask & (1 << v) != 0)
                    .fold(0, |a, v| a | 1 << Self::shift(v))
            }
            fn fields(mask: u32) -> Self {
                Self::ones(mask) * ((1 << $bits) - 1)
            }
            fn high(values: u32) -> Self {
                Self::ones(values) * ((1 << $bits) - 2)
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn present(self) -> u32 {
                let $s = self;
                $present
            }
        }
    };
}

// Bit 4v says whether field v is non-zero; the shifts gather bit 4v into bit v.
packed_counts!(
    u64,
    bits = 4,
    first = 0,
    present = |x| {
        let mut x = (x | x >> 1 | x >> 2 | x >> 3) & 0x1111_1111_1111_1111;
        x = (x | x >> 3) & 0x0303_0303_0303_0303;
        x = (x | x >> 6) & 0x000F_000F_000F_000F;
        x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
        ((x | x >> 24) & 0xFFFF) as u32
    }
);
packed_counts!(
    u128,
    bits = 5,
    first = 1,
    present = |x| {
        (1..=25u8)
            .filter(|&v| x.field(Self::shift(v)) != 0)
            .fold(0, |m, v| m | 1 << v)
    }
);

/// Per-puzzle tables for the count representation.
#[derive(Debug, Clone)]
pub struct Layout<A: Counts> {
    n: usize,
    cells: usize,
    scope: RepetitionScope,
    /// For each cell: its row, column and box (units 0..N, N..2N, 2N..3N).
    units: Vec<[u8; 3]>,
    /// For each row then column: the fields of its given values, and a 1 in each of them.
    given_fields: Vec<A>,
    given_ones: Vec<A>,
    /// Bits above the lowest of every value's field.
    high: A,
}

impl<A: Counts> Layout<A> {
    pub fn new(bp: &Blueprint, scope: RepetitionScope) -> Self {
        let g = bp.geom;
        let n = g.n();
        let units = (0..g.cells())
            .map(|c| {
                [
                    g.row_of(c) as u8,
                    (n + g.col_of(c)) as u8,
                    (2 * n + g.box_of(c)) as u8,
                ]
            })
            .collect();
        Layout {
            n,
            cells: g.cells(),
            scope,
            units,
            given_fields: bp.unit_given_mask.iter().map(|&m| A::fields(m)).collect(),
            given_ones: bp.unit_given_mask.iter().map(|&m| A::ones(m)).collect(),
            high: A::high(g.full_mask()),
        }
    }

    /// Count every unit of `m`'s cells and its equal pairs.
    pub fn recount(&self, m: &mut Member<'_, A>) {
        m.counts.fill(A::default());
        let mut equal = 0u32;
        for (&v, units) in m.cells.iter().zip(&self.units) {
            let s = A::shift(v);
            for &u in units {
                let acc = &mut m.counts[u as usize];
                equal += acc.field(s);
                *acc = acc.inc(s);
            }
        }
        *m.equal = equal;
    }

    /// Set cell `c` to `w`, updating the counts and the equal pairs.
    #[inline(always)]
    pub fn set(&self, m: &mut Member<'_, A>, c: usize, w: u8) {
        let v = m.cells[c];
        if v == w {
            return;
        }
        let (sv, sw) = (A::shift(v), A::shift(w));
        let mut equal = *m.equal;
        for &u in &self.units[c] {
            let acc = m.counts[u as usize].dec(sv);
            equal = equal - acc.field(sv) + acc.field(sw);
            m.counts[u as usize] = acc.inc(sw);
        }
        *m.equal = equal;
        m.cells[c] = w;
    }

    /// Does row or column `u` hold a repetition Remove Repetition acts on?
    /// [`RepetitionScope::Givens`]: a given value stands more than once (the fields of the
    /// given values differ from a single 1 each); [`RepetitionScope::All`]: any value stands
    /// more than once. Units that fail this test are units in which the plain operator changes
    /// nothing and draws nothing.
    #[inline(always)]
    fn needs_fix(&self, m: &Member<'_, A>, u: usize) -> bool {
        let acc = m.counts[u];
        match self.scope {
            RepetitionScope::Givens => acc.and(self.given_fields[u]) != self.given_ones[u],
            RepetitionScope::All => acc.and(self.high) != A::default(),
        }
    }
}

/// One individual: its cells, the packed value counts of its 3N units, its equal pairs.
pub struct Member<'a, A: Counts> {
    pub cells: &'a mut [u8],
    pub counts: &'a mut [A],
    pub equal: &'a mut u32,
}

/// A population of tracked individuals in flat buffers.
#[derive(Debug, Clone)]
pub struct Pool<A: Counts> {
    cells: usize,
    units: usize,
    cell: Vec<u8>,
    count: Vec<A>,
    equal: Vec<u32>,
}

impl<A: Counts> Pool<A> {
    pub fn new(lay: &Layout<A>, size: usize) -> Self {
        let (cells, units) = (lay.cells, 3 * lay.n);
        Pool {
            cells,
            units,
            cell: vec![0; size * cells],
            count: vec![A::default(); size * units],
            equal: vec![0; size],
        }
    }

    /// Member `k`.
    pub fn member(&mut self, k: usize) -> Member<'_, A> {
        Member {
            cells: &mut self.cell[k * self.cells..(k + 1) * self.cells],
            counts: &mut self.count[k * self.units..(k + 1) * self.units],
            equal: &mut self.equal[k],
        }
    }

    /// Members `a` and `b` (`a < b`) at once.
    pub fn pair(&mut self, a: usize, b: usize) -> (Member<'_, A>, Member<'_, A>) {
        debug_assert!(a < b);
        let (c1, c2) = self.cell.split_at_mut(b * self.cells);
        let (t1, t2) = self.count.split_at_mut(b * self.units);
        let (e1, e2) = self.equal.split_at_mut(b);
        let (cs, us) = (self.cells, self.units);
        (
            Member {
                cells: &mut c1[a * cs..(a + 1) * cs],
                counts: &mut t1[a * us..(a + 1) * us],
                equal: &mut e1[a],
            },
            Member {
                cells: &mut c2[..cs],
                counts: &mut t2[..us],
                equal: &mut e2[0],
            },
        )
    }

    /// Cells of member `k`.
    pub fn cells_of(&self, k: usize) -> &[u8] {
        &self.cell[k * self.cells..(k + 1) * self.cells]
    }

    /// Equal pairs of member `k`.
    pub fn equal_of(&self, k: usize) -> u32 {
        self.equal[k]
    }

    /// Copy members `from` to `to..` of the same pool.
    pub fn copy_within(&mut self, from: std::ops::Range<usize>, to: usize) {
        let (c, u) = (self.cells, self.units);
        self.cell.copy_within(from.start * c..from.end * c, to * c);
        self.count.copy_within(from.start * u..from.end * u, to * u);
        self.equal.copy_within(from, to);
    }

    /// Copy member `k` of `src` into slot `slot` of this pool.
    pub fn copy_from(&mut self, slot: usize, src: &Pool<A>, k: usize) {
        let (c, u) = (self.cells, self.units);
        self.cell[slot * c..(slot + 1) * c].copy_from_slice(&src.cell[k * c..(k + 1) * c]);
        self.count[slot * u..(slot + 1) * u].copy_from_slice(&src.count[k * u..(k + 1) * u]);
        self.equal[slot] = src.equal[k];
    }
}

/// [`crate::ops::bitwise_mutation`] on a tracked individual, with the Bernoulli distribution
/// built once (`Rng::random_bool(p)` builds the same distribution and samples it, so the draws
/// are identical).
pub fn bitwise_mutation<A: Counts, R: Rng + ?Sized>(
    bp: &Blueprint,
    lay: &Layout<A>,
    coin: &Bernoulli,
    m: &mut Member<'_, A>,
    rng: &mut R,
) -> u32 {
    let n = bp.geom.n() as u8;
    let mut redrawn = 0;
    // The equal pairs in a local for the loop, written back at its end.
    let mut equal = *m.equal;
    let mut local = Member {
        cells: &mut *m.cells,
        counts: &mut *m.counts,
        equal: &mut equal,
    };
    for &c in &bp.free {
        if coin.sample(rng) {
            let w = rng.random_range(1..=n);
            lay.set(&mut local, c as usize, w);
            redrawn += 1;
        }
    }
    *m.equal = equal;
    redrawn
}

/// [`crate::ops::remove_repetition`] on a tracked individual: rows, then columns, visiting
/// only the units whose repetition count is not zero. Fixing one row changes no other row,
/// so a row's count just before its turn is the count the plain operator's first pass sees
/// (likewise for columns); units it skips are units where the plain operator changes nothing
/// and draws nothing.
pub fn remove_repetition<A: Counts, R: Rng + ?Sized>(
    bp: &Blueprint,
    lay: &Layout<A>,
    set: RepetitionSet,
    m: &mut Member<'_, A>,
    rng: &mut R,
) -> u32 {
    // One copy of the loops per reading, each with its reading a constant.
    match (set, lay.scope) {
        (RepetitionSet::PresentInUnit, RepetitionScope::Givens) => {
            fix_units::<A, R, true, false>(bp, lay, m, rng)
        }
        (RepetitionSet::PresentInUnit, RepetitionScope::All) => {
            fix_units::<A, R, true, true>(bp, lay, m, rng)
        }
        (RepetitionSet::GivensOfUnit, RepetitionScope::Givens) => {
            fix_units::<A, R, false, false>(bp, lay, m, rng)
        }
        (RepetitionSet::GivensOfUnit, RepetitionScope::All) => {
            fix_units::<A, R, false, true>(bp, lay, m, rng)
        }
    }
}

/// [`remove_repetition`] for one reading: `PRESENT` for [`RepetitionSet::PresentInUnit`],
/// `ALL` for [`RepetitionScope::All`]. Rows, then columns: the units of a pass that need a fix
/// are found first, in one loop over their counts, since fixing one row changes no other row's
/// count (likewise for columns); the columns are looked at after the rows are fixed.
#[inline(always)]
fn fix_units<A: Counts, R: Rng + ?Sized, const PRESENT: bool, const ALL: bool>(
    bp: &Blueprint,
    lay: &Layout<A>,
    outer: &mut Member<'_, A>,
    rng: &mut R,
) -> u32 {
    let n = bp.geom.n();
    let full = bp.geom.full_mask();
    let mut changed = 0;
    // The equal pairs in a local for the loops, written back at the end.
    let mut equal = *outer.equal;
    let m = &mut Member {
        cells: &mut *outer.cells,
        counts: &mut *outer.counts,
        equal: &mut equal,
    };
    for base in [0, n] {
        let mut which = 0u64;
        for i in 0..n {
            which |= u64::from(lay.needs_fix(m, base + i)) << i;
        }
        while which != 0 {
            let u = base + which.trailing_zeros() as usize;
            which &= which - 1;
            let gmask = bp.unit_given_mask[u];
            let free =
                &bp.unit_free[bp.unit_free_start[u] as usize..bp.unit_free_start[u + 1] as usize];
            let mut present = if PRESENT {
                m.counts[u].present()
            } else {
                gmask
            };
            let mut taken = gmask;
            for &c in free {
                let v = m.cells[c as usize];
                if taken & (1 << v) != 0 {
                    let choices = full & !present;
                    if choices == 0 {
                        continue;
                    }
                    let w = random_bit(choices, rng);
                    lay.set(m, c as usize, w);
                    if PRESENT {
                        present |= 1 << w;
                    }
                    if ALL {
                        taken |= 1 << w;
                    }
                    changed += 1;
                } else if ALL {
                    taken |= 1 << v;
                }
            }
        }
    }
    *outer.equal = equal;
    changed
}

/// [`crate::ops::row_uniform_crossover`] on two tracked individuals: the same rows exchanged
/// (and, for [`CrossoverRows::UniformRandom`], the same draws, one per row in row order), each
/// exchanged non-given cell that differs updating both count tables.
pub fn crossover<A: Counts, R: Rng + ?Sized>(
    bp: &Blueprint,
    lay: &Layout<A>,
    rows: CrossoverRows,
    a: &mut Member<'_, A>,
    b: &mut Member<'_, A>,
    rng: &mut R,
) {
    let n = bp.geom.n();
    for r in 0..n {
        if !crate::ops::exchanges_row(rows, r, rng) {
            continue;
        }
        for &c in &bp.unit_free[bp.unit_free_start[r] as usize..bp.unit_free_start[r + 1] as usize]
        {
            let c = c as usize;
            let (va, vb) = (a.cells[c], b.cells[c]);
            if va != vb {
                lay.set(a, c, vb);
                lay.set(b, c, va);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Counts;

    /// `present` gives the values with a non-zero count, for both packings.
    #[test]
    fn present_table() {
        // (values placed, expected mask)
        let cases: &[(&[u8], u32)] = &[
            (&[], 0),
            (&[1], 0b10),
            (&[9, 9, 9], 1 << 9),
            (&[1, 2, 3, 4, 5, 6, 7, 8, 9], 0b11_1111_1110),
            (&[15, 15, 1], 1 << 15 | 1 << 1),
        ];
        for (values, want) in cases {
            let a = values.iter().fold(0u64, |a, &v| a.inc(u64::shift(v)));
            assert_eq!(a.present(), *want, "u64 {values:?}");
            let b = values.iter().fold(0u128, |a, &v| a.inc(u128::shift(v)));
            assert_eq!(b.present(), *want, "u128 {values:?}");
        }
        let all = (1..=25u8).fold(0u128, |a, v| a.inc(u128::shift(v)).inc(u128::shift(v)));
        assert_eq!(all.present(), ((1u32 << 26) - 1) & !1);
    }
}

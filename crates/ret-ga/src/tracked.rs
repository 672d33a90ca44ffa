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
use crate::ops::Blueprint;
use rand::Rng;
use sudoku_core::RawRng;

/// Packed per-unit value counts: one integer per unit with a fixed-width field per value.
/// [`Bytes`], a byte per value, holds the counts of orders up to 15 (a unit has at most 15
/// cells and values 0..=15 fit in 16 bytes), and so do 4-bit fields in a `u64`; 5-bit fields
/// in a `u128` hold orders 16 to 25 (values 1..=25, stored from bit 0 for value 1).
///
/// # Safety
/// Implementors are plain data: no padding, no pointers, every bit pattern a valid value.
/// [`Pool`] keeps a member's cells in the bytes of count slots, read and written as `u8`.
pub unsafe trait Counts:
    Copy + Default + Eq + std::fmt::Debug + Send + Sync + 'static
{
    /// The largest order whose counts this type holds.
    const MAX_ORDER: usize;
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
    /// The sum of the squares of the counts: a unit of N cells holds
    /// `(squares - N) / 2` pairs of equal values.
    #[inline(always)]
    fn squares(self) -> u32 {
        (1..=Self::MAX_ORDER as u8)
            .map(|v| self.field(Self::shift(v)).pow(2))
            .sum()
    }
    /// The sum of the counts of the values whose fields `mask` covers (a mask of whole
    /// fields, as [`Counts::fields`] builds).
    fn sum_masked(self, mask: Self) -> u32;
    /// Whether `self.and(mask)` is not zero.
    #[inline(always)]
    fn meets(self, mask: Self) -> bool {
        self.and(mask) != Self::default()
    }
    /// Bit i set when `counts[i]` meets `masks[i]` ([`Counts::meets`]), for the first
    /// `min(len, 32)` units.
    #[inline(always)]
    fn meets_each(counts: &[Self], masks: &[Self]) -> u32 {
        counts
            .iter()
            .zip(masks)
            .take(32)
            .rev()
            .fold(0u32, |w, (&acc, &f)| w << 1 | u32::from(acc.meets(f)))
    }
    /// Add one to the count of value `v`; returns the count before.
    #[inline(always)]
    fn add(&mut self, v: u8) -> u32 {
        let s = Self::shift(v);
        let before = self.field(s);
        *self = self.inc(s);
        before
    }
    /// Move one count from value `v` to value `w` (`v != w`); returns the count of `v` after
    /// and the count of `w` before, whose difference is the change of equal pairs.
    #[inline(always)]
    fn moved(&mut self, v: u8, w: u8) -> (u32, u32) {
        let (sv, sw) = (Self::shift(v), Self::shift(w));
        let acc = self.dec(sv);
        let out = (acc.field(sv), acc.field(sw));
        *self = acc.inc(sw);
        out
    }
}

/// A byte per value (value v in byte v, byte 0 unused), for orders up to 15: a count moves
/// with byte loads and stores instead of shifts by a variable amount, and the masks and the
/// comparisons work on the 16 bytes as one `u128`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bytes(pub [u8; 16]);

impl Bytes {
    #[inline(always)]
    fn wide(self) -> u128 {
        u128::from_le_bytes(self.0)
    }
}

// SAFETY: sixteen bytes, no padding; every bit pattern is a valid value.
unsafe impl Counts for Bytes {
    const MAX_ORDER: usize = 15;
    #[inline(always)]
    fn shift(v: u8) -> u32 {
        u32::from(v)
    }
    #[inline(always)]
    fn field(self, shift: u32) -> u32 {
        u32::from(self.0[shift as usize & 15])
    }
    #[inline(always)]
    fn inc(mut self, shift: u32) -> Self {
        self.0[shift as usize & 15] += 1;
        self
    }
    #[inline(always)]
    fn dec(mut self, shift: u32) -> Self {
        self.0[shift as usize & 15] -= 1;
        self
    }
    fn ones(mask: u32) -> Self {
        Bytes(std::array::from_fn(|v| u8::from(mask & (1 << v) != 0)))
    }
    fn fields(mask: u32) -> Self {
        Bytes(Self::ones(mask).0.map(|b| b * 0xFF))
    }
    fn high(values: u32) -> Self {
        Bytes(Self::ones(values).0.map(|b| b * 0xFE))
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Bytes((self.wide() & other.wide()).to_le_bytes())
    }
    /// SSE2 (part of every x86-64): the bytes equal to zero, gathered a bit per byte by
    /// `movemask`, complemented.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn present(self) -> u32 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is enabled on every x86-64 target; the unaligned load reads the 16
        // bytes of `self.0`.
        unsafe {
            let x = _mm_loadu_si128(self.0.as_ptr().cast());
            let zero = _mm_cmpeq_epi8(x, _mm_setzero_si128());
            !(_mm_movemask_epi8(zero) as u32) & 0xFFFF
        }
    }
    /// Per half: a count is at most 15, so adding 0x7F to its byte sets the byte's top bit
    /// exactly when the count is not zero, without a carry into the next byte; the multiply
    /// gathers the eight top bits (bit 8i after the shift) into the top byte, in order.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn present(self) -> u32 {
        let gather = |h: u64| -> u32 {
            let t = (h + 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080;
            ((t >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
        };
        let w = self.wide();
        gather(w as u64) | gather((w >> 64) as u64) << 8
    }
    /// SSE2: the bytes widened to 16-bit lanes, squared and summed in pairs by `pmaddwd`,
    /// the four 32-bit sums added.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn squares(self) -> u32 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is enabled on every x86-64 target; the unaligned load reads the 16
        // bytes of `self.0`.
        unsafe {
            let x = _mm_loadu_si128(self.0.as_ptr().cast());
            let z = _mm_setzero_si128();
            let (lo, hi) = (_mm_unpacklo_epi8(x, z), _mm_unpackhi_epi8(x, z));
            let s = _mm_add_epi32(_mm_madd_epi16(lo, lo), _mm_madd_epi16(hi, hi));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
            _mm_cvtsi128_si32(s) as u32
        }
    }
    /// SSE2, eight units at once, then one at a time: each unit's and summed per 8-byte half
    /// by `psadbw` (non-zero exactly when a byte is), the eight units' sums packed as 16-bit
    /// words (unit j in word j % 4 of the low lane for its low half, of the high lane for its
    /// high half, units 4..8 in a second register), the halves or-ed, the words compared
    /// with zero at once and gathered a bit per unit by `packsswb` and `movemask`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn meets_each(counts: &[Self], masks: &[Self]) -> u32 {
        use std::arch::x86_64::*;
        let len = counts.len().min(masks.len()).min(32);
        let mut bits = 0u32;
        let mut u = 0;
        while u + 8 <= len {
            // SAFETY: SSE2 is enabled on every x86-64 target; the loads read units
            // `u..u + 8` of both slices, all below `len`.
            let zero_units = unsafe {
                let z = _mm_setzero_si128();
                let sad = |j: usize| {
                    let x = _mm_and_si128(
                        _mm_loadu_si128(counts.get_unchecked(u + j).0.as_ptr().cast()),
                        _mm_loadu_si128(masks.get_unchecked(u + j).0.as_ptr().cast()),
                    );
                    _mm_sad_epu8(x, z)
                };
                let quad = |j: usize| {
                    let g = _mm_or_si128(
                        _mm_or_si128(sad(j), _mm_slli_epi64::<16>(sad(j + 1))),
                        _mm_or_si128(
                            _mm_slli_epi64::<32>(sad(j + 2)),
                            _mm_slli_epi64::<48>(sad(j + 3)),
                        ),
                    );
                    // Low lane: each unit's two halves or-ed.
                    _mm_or_si128(g, _mm_shuffle_epi32::<0b01_00_11_10>(g))
                };
                let words = _mm_unpacklo_epi64(quad(0), quad(4));
                let zero = _mm_cmpeq_epi16(words, z);
                _mm_movemask_epi8(_mm_packs_epi16(zero, zero)) as u32 & 0xFF
            };
            bits |= (!zero_units & 0xFF) << u;
            u += 8;
        }
        while u < len {
            bits |= u32::from(counts[u].meets(masks[u])) << u;
            u += 1;
        }
        bits
    }
    /// SSE2: the bytes of the and summed per half by `psadbw` against zero, the halves added.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn sum_masked(self, mask: Self) -> u32 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is enabled on every x86-64 target; the unaligned loads read the 16
        // bytes of `self.0` and of `mask.0`.
        unsafe {
            let x = _mm_and_si128(
                _mm_loadu_si128(self.0.as_ptr().cast()),
                _mm_loadu_si128(mask.0.as_ptr().cast()),
            );
            let s = _mm_sad_epu8(x, _mm_setzero_si128());
            (_mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(s, s))) as u32
        }
    }
    /// The bytes of the and, added.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn sum_masked(self, mask: Self) -> u32 {
        self.and(mask).0.iter().map(|&b| u32::from(b)).sum()
    }
    /// The and of the two as two 8-byte words, or-ed: no vector register round trip (an and
    /// of the two as one `u128` compiles to vector code here, 2 000 instructions a Ret-GA
    /// generation more).
    #[inline(always)]
    fn meets(self, mask: Self) -> bool {
        let half =
            |x: &[u8; 16], h: usize| u64::from_le_bytes(std::array::from_fn(|i| x[8 * h + i]));
        (half(&self.0, 0) & half(&mask.0, 0)) | (half(&self.0, 1) & half(&mask.0, 1)) != 0
    }
    #[inline(always)]
    fn add(&mut self, v: u8) -> u32 {
        let b = &mut self.0[v as usize & 15];
        let before = u32::from(*b);
        *b += 1;
        before
    }
    #[inline(always)]
    fn moved(&mut self, v: u8, w: u8) -> (u32, u32) {
        let bv = &mut self.0[v as usize & 15];
        *bv -= 1;
        let after = u32::from(*bv);
        let bw = &mut self.0[w as usize & 15];
        let before = u32::from(*bw);
        *bw += 1;
        (after, before)
    }
}

/// `impl Counts` for an integer type with `bits`-bit fields, value v in field `v - first`;
/// `present` is given, since the fast bit gathering depends on the packing.
macro_rules! packed_counts {
    ($t:ty, bits = $bits:literal, first = $first:literal, max = $max:literal, present = |$s:ident| $present:block) => {
        // SAFETY: a primitive integer: no padding, every bit pattern is a valid value.
        unsafe impl Counts for $t {
            const MAX_ORDER: usize = $max;
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
            /// Over the non-zero fields of the and only.
            #[inline(always)]
            fn sum_masked(self, mask: Self) -> u32 {
                let mut x = self & mask;
                let mut sum = 0;
                while x != 0 {
                    let t = x.trailing_zeros();
                    let shift = t - t % $bits;
                    sum += x.field(shift);
                    x &= !(((1 << $bits) - 1) << shift);
                }
                sum
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
    max = 15,
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
    max = 25,
    present = |x| {
        (1..=25u8)
            .filter(|&v| x.field(Self::shift(v)) != 0)
            .fold(0, |m, v| m | 1 << v)
    }
);

/// Per-puzzle tables for the count representation, and the puzzle's tables the operators
/// read (copied from the [`Blueprint`], whose fields are public, and checked once here): every
/// cell index below `cells`, every unit index below 3N. The hot loops index with these
/// without bounds checks, after `Layout::check` has checked the member's lengths.
#[derive(Debug, Clone)]
pub struct Layout<A: Counts> {
    n: usize,
    cells: usize,
    full: u32,
    scope: RepetitionScope,
    /// For each cell: its row, column and box (units 0..N, N..2N, 2N..3N).
    units: Vec<[u8; 3]>,
    /// The same as byte offsets into a member's counts (unit times the size of `A`; the
    /// fourth is padding, 8 bytes a cell), so [`Layout::put`] neither scales nor checks them.
    offsets: Vec<[u16; 4]>,
    /// For each row then column: the unit holds a repetition Remove Repetition acts on when
    /// its counts masked by this are not zero ([`Counts::meets_each`]).
    /// [`RepetitionScope::Givens`]: a given value stands more than once (the count of a given
    /// value, at least 1 for the given itself, has a bit above its lowest);
    /// [`RepetitionScope::All`]: any value stands more than once. Units that fail this test
    /// are units in which the plain operator changes nothing and draws nothing.
    fix: Vec<A>,
    /// The non-given cells, row-major.
    free: Vec<u16>,
    /// For each row then column: its non-given cells, flattened (`FixUnit::start..end`).
    unit_free: Vec<u16>,
    /// For each row then column, what Remove Repetition and crossover read of it, in one
    /// record.
    fix_units: Vec<FixUnit<A>>,
}

/// What Remove Repetition reads of one row or column, side by side so a unit's turn loads
/// them from one place.
#[derive(Debug, Clone, Copy)]
struct FixUnit<A> {
    /// The fields of the unit's given values: its non-given cells holding a given value
    /// number `sum_masked(given_fields) - given_count`.
    given_fields: A,
    /// Its non-given cells are `unit_free[start..end]`.
    start: u32,
    end: u32,
    /// The mask of its given values, and how many there are.
    given: u32,
    given_count: u32,
}

impl<A: Counts> Layout<A> {
    /// The tables for `bp`'s puzzle. Panics if `bp`'s tables are inconsistent (a cell index
    /// out of the grid), which [`Blueprint::new`] never builds.
    pub fn new(bp: &Blueprint, scope: RepetitionScope) -> Self {
        let g = bp.geom;
        let (n, cells) = (g.n(), g.cells());
        assert!(n <= A::MAX_ORDER, "order {n} needs wider counts");
        let units = (0..cells)
            .map(|c| {
                [
                    g.row_of(c) as u8,
                    (n + g.col_of(c)) as u8,
                    (2 * n + g.box_of(c)) as u8,
                ]
            })
            .collect();
        let high = A::high(g.full_mask());
        let fix = bp
            .unit_given_mask
            .iter()
            .map(|&m| match scope {
                RepetitionScope::Givens => A::fields(m).and(high),
                RepetitionScope::All => high,
            })
            .collect();
        let size = std::mem::size_of::<A>();
        assert!(3 * n * size <= usize::from(u16::MAX));
        let offsets = (0..cells)
            .map(|c| {
                let unit = |u: usize| (u * size) as u16;
                [
                    unit(g.row_of(c)),
                    unit(n + g.col_of(c)),
                    unit(2 * n + g.box_of(c)),
                    0,
                ]
            })
            .collect();
        let lay = Layout {
            offsets,
            n,
            cells,
            full: g.full_mask(),
            scope,
            units,
            fix,
            free: bp.free.clone(),
            unit_free: bp.unit_free.clone(),
            fix_units: (0..2 * n)
                .map(|u| FixUnit {
                    given_fields: A::fields(bp.unit_given_mask[u]),
                    start: bp.unit_free_start[u],
                    end: bp.unit_free_start[u + 1],
                    given: bp.unit_given_mask[u],
                    given_count: bp.unit_given_mask[u].count_ones(),
                })
                .collect(),
        };
        let in_grid = |c: &u16| (*c as usize) < cells;
        assert!(lay.free.iter().all(in_grid) && lay.unit_free.iter().all(in_grid));
        assert!(bp.unit_free_start.len() == 2 * n + 1 && bp.unit_given_mask.len() == 2 * n);
        assert!(lay.fix.len() == 2 * n && lay.units.len() == cells && 3 * n < 256);
        assert!(lay.fix_units.len() == 2 * n);
        assert!(lay.offsets.len() == cells);
        assert!(lay
            .fix_units
            .iter()
            .all(|f| f.start <= f.end && f.end as usize <= lay.unit_free.len()));
        lay
    }

    /// Member `m` has this layout's shape (its cells and counts), so the hot loops can index
    /// it with the layout's cell and unit indices unchecked.
    #[inline(always)]
    fn check(&self, m: &Member<'_, A>) {
        assert!(m.cells.len() == self.cells && m.counts.len() == 3 * self.n);
    }

    /// The non-given cells of row or column `u` (`u < 2N`).
    #[inline(always)]
    fn unit_free(&self, u: usize) -> &[u16] {
        debug_assert!(u < 2 * self.n);
        // SAFETY: `u < 2N` indexes `fix_units` (2N records, checked in `new`).
        let f = unsafe { self.fix_units.get_unchecked(u) };
        self.free_of(f)
    }

    /// The non-given cells of the unit of record `f` (one of `fix_units`).
    #[inline(always)]
    fn free_of(&self, f: &FixUnit<A>) -> &[u16] {
        // SAFETY: every record's `start <= end <= unit_free.len()` (checked in `new`).
        unsafe {
            self.unit_free
                .get_unchecked(f.start as usize..f.end as usize)
        }
    }

    /// Count every unit of `m`'s cells and its equal pairs.
    pub fn recount(&self, m: &mut Member<'_, A>) {
        m.counts.fill(A::default());
        let mut equal = 0u32;
        for (&v, units) in m.cells.iter().zip(&self.units) {
            for &u in units {
                equal += m.counts[u as usize].add(v);
            }
        }
        *m.equal = equal;
    }

    /// Set cell `c` to `w`, updating the counts and the equal pairs.
    pub fn set(&self, m: &mut Member<'_, A>, c: usize, w: u8) {
        self.check(m);
        assert!(c < self.cells);
        // SAFETY: `c < cells`, and `m` has the layout's shape (checked just above).
        unsafe { self.put(m.cells, m.counts, m.equal, c, w) }
    }

    /// [`Layout::set`] on a member's parts, so the hot loops keep the equal pairs in a local.
    ///
    /// # Safety
    /// `c < self.cells`, `cells.len() == self.cells` and `counts.len() == 3N` (a member that
    /// passed [`Layout::check`], a cell index from the layout's tables).
    #[inline(always)]
    unsafe fn put(&self, cells: &mut [u8], counts: &mut [A], equal: &mut u32, c: usize, w: u8) {
        debug_assert!(c < self.cells && cells.len() == self.cells);
        let v = *cells.get_unchecked(c);
        if v != w {
            self.replace(cells, counts, equal, c, v, w);
        }
    }

    /// [`Layout::put`] of a cell whose value `v` the caller has read: no second read, no
    /// test (for `v == w` the count moves out and back, and the equal pairs stay).
    ///
    /// # Safety
    /// As for [`Layout::put`]; `v` is the value of cell `c`.
    #[inline(always)]
    unsafe fn replace(
        &self,
        cells: &mut [u8],
        counts: &mut [A],
        equal: &mut u32,
        c: usize,
        v: u8,
        w: u8,
    ) {
        debug_assert!(c < self.cells && cells.len() == self.cells);
        debug_assert!(counts.len() == 3 * self.n);
        debug_assert!(*cells.get_unchecked(c) == v);
        let mut e = *equal;
        // `offsets` has one entry per cell, each the offset of a unit below 3N, a multiple of
        // the size of `A` (built in `new`), so each points at an `A` inside `counts`.
        let base = counts.as_mut_ptr().cast::<u8>();
        let [o0, o1, o2, _] = *self.offsets.get_unchecked(c);
        for o in [o0, o1, o2] {
            let acc = &mut *base.add(usize::from(o)).cast::<A>();
            let (after, before) = acc.moved(v, w);
            e = e - after + before;
        }
        *equal = e;
        *cells.get_unchecked_mut(c) = w;
    }

    /// Exchange cell `c` of two members, updating both counts and equal pairs in the cell's
    /// column and box (not its row: [`crossover`] exchanges whole rows and their counts at
    /// once), the cell's unit offsets read once.
    ///
    /// # Safety
    /// As for [`Layout::put`], for both members.
    #[inline(always)]
    unsafe fn exchange(
        &self,
        a: (&mut [u8], &mut [A], &mut u32),
        b: (&mut [u8], &mut [A], &mut u32),
        c: usize,
    ) {
        let (ca, ta, ea) = a;
        let (cb, tb, eb) = b;
        let (va, vb) = (*ca.get_unchecked(c), *cb.get_unchecked(c));
        if va == vb {
            return;
        }
        let (mut xa, mut xb) = (*ea, *eb);
        let (base_a, base_b) = (ta.as_mut_ptr().cast::<u8>(), tb.as_mut_ptr().cast::<u8>());
        let [_, o1, o2, _] = *self.offsets.get_unchecked(c);
        for o in [o1, o2] {
            let (after, before) = (*base_a.add(usize::from(o)).cast::<A>()).moved(va, vb);
            xa = xa - after + before;
            let (after, before) = (*base_b.add(usize::from(o)).cast::<A>()).moved(vb, va);
            xb = xb - after + before;
        }
        (*ea, *eb) = (xa, xb);
        *ca.get_unchecked_mut(c) = vb;
        *cb.get_unchecked_mut(c) = va;
    }
}

/// One individual: its cells, the packed value counts of its 3N units, its equal pairs.
pub struct Member<'a, A: Counts> {
    pub cells: &'a mut [u8],
    pub counts: &'a mut [A],
    pub equal: &'a mut u32,
}

/// A population of tracked individuals in one flat buffer: member k's unit counts, then its
/// cells in the bytes of the next few count slots, so copying a member is one copy.
#[derive(Debug, Clone)]
pub struct Pool<A: Counts> {
    cells: usize,
    units: usize,
    /// Count slots a member takes: its `units` counts and the slots its cells fill.
    stride: usize,
    data: Vec<A>,
    equal: Vec<u32>,
}

/// A member's counts and cells from its block of `stride` count slots.
#[inline(always)]
fn split_block<A: Counts>(block: &mut [A], units: usize, cells: usize) -> (&mut [A], &mut [u8]) {
    let (counts, rest) = block.split_at_mut(units);
    assert!(cells <= std::mem::size_of_val(rest));
    // SAFETY: `Counts` types are plain data (the trait's contract): every byte of `rest` may
    // be read and written as a `u8`, and any bytes written there make valid values of `A`;
    // `cells` bytes fit in `rest` (asserted); the borrow of `rest` is handed on.
    let cells = unsafe { std::slice::from_raw_parts_mut(rest.as_mut_ptr().cast::<u8>(), cells) };
    (counts, cells)
}

impl<A: Counts> Pool<A> {
    pub fn new(lay: &Layout<A>, size: usize) -> Self {
        let (cells, units) = (lay.cells, 3 * lay.n);
        let stride = units + cells.div_ceil(std::mem::size_of::<A>());
        Pool {
            cells,
            units,
            stride,
            data: vec![A::default(); size * stride],
            equal: vec![0; size],
        }
    }

    /// Member `k`.
    pub fn member(&mut self, k: usize) -> Member<'_, A> {
        let block = &mut self.data[k * self.stride..(k + 1) * self.stride];
        let (counts, cells) = split_block(block, self.units, self.cells);
        Member {
            cells,
            counts,
            equal: &mut self.equal[k],
        }
    }

    /// Members `a` and `b` (`a < b`) at once.
    pub fn pair(&mut self, a: usize, b: usize) -> (Member<'_, A>, Member<'_, A>) {
        assert!(a < b);
        let st = self.stride;
        let (d1, d2) = self.data.split_at_mut(b * st);
        let (e1, e2) = self.equal.split_at_mut(b);
        let (ta, ca) = split_block(&mut d1[a * st..(a + 1) * st], self.units, self.cells);
        let (tb, cb) = split_block(&mut d2[..st], self.units, self.cells);
        (
            Member {
                cells: ca,
                counts: ta,
                equal: &mut e1[a],
            },
            Member {
                cells: cb,
                counts: tb,
                equal: &mut e2[0],
            },
        )
    }

    /// Cells of member `k`.
    pub fn cells_of(&self, k: usize) -> &[u8] {
        let rest = &self.data[k * self.stride + self.units..(k + 1) * self.stride];
        assert!(self.cells <= std::mem::size_of_val(rest));
        // SAFETY: as in `split_block`, read only.
        unsafe { std::slice::from_raw_parts(rest.as_ptr().cast::<u8>(), self.cells) }
    }

    /// The unit counts of member `k` (rows, columns, boxes).
    pub fn counts_of(&self, k: usize) -> &[A] {
        &self.data[k * self.stride..k * self.stride + self.units]
    }

    /// Equal pairs of member `k`.
    pub fn equal_of(&self, k: usize) -> u32 {
        self.equal[k]
    }

    /// Copy member `from` over member `to` of the same pool: one copy of its block.
    pub fn copy_member(&mut self, from: usize, to: usize) {
        let st = self.stride;
        self.data.copy_within(from * st..(from + 1) * st, to * st);
        self.equal[to] = self.equal[from];
    }
}

/// The coin of [`crate::ops::bitwise_mutation`]: `Rng::random_bool(p)` with rand's
/// `Bernoulli`, its threshold at hand so the mutation loop tests it once per draw. rand draws
/// one `u64` and answers `draw < p * 2^64` (rounded down), and answers `true` without a draw
/// when `p == 1`; this does the same (tested against rand for a table of `p`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coin {
    threshold: u64,
    always: bool,
}

impl Coin {
    /// The coin of probability `p`; `None` unless `0 <= p <= 1`.
    pub fn new(p: f64) -> Option<Coin> {
        if p == 1.0 {
            return Some(Coin {
                threshold: u64::MAX,
                always: true,
            });
        }
        if !(0.0..1.0).contains(&p) {
            return None;
        }
        // rand's scale, 2^64 as an f64.
        let scale = 2.0 * (1u64 << 63) as f64;
        Some(Coin {
            threshold: (p * scale) as u64,
            always: false,
        })
    }

    /// One toss: the draws and the answer of `rng.random_bool(p)`.
    #[inline(always)]
    pub fn toss<R: Rng + ?Sized>(&self, rng: &mut R) -> bool {
        self.always || rng.next_u64() < self.threshold
    }
}

/// For every 10-bit mask: at 0 its number of set bits, at 1 + k its k-th set bit in
/// ascending order (the bit [`crate::ops::random_bit`] reaches by clearing the k lowest set
/// bits), so a draw finds both by lookups in one row instead of a count and a loop.
static SELECT_10: [[u8; 16]; 1024] = {
    let mut t = [[0u8; 16]; 1024];
    let mut m = 0;
    while m < 1024 {
        let (mut b, mut k) = (0, 0);
        while b < 10 {
            if m & (1 << b) != 0 {
                t[m][1 + k] = b as u8;
                k += 1;
            }
            b += 1;
        }
        t[m][0] = k as u8;
        m += 1;
    }
    t
};

/// [`crate::ops::random_bit`]: the same draw (`random_range(0..ones)`, [`RawRng::u32_below`])
/// and the same bit, the bits counted and the k-th set bit found by lookups for masks of
/// orders up to 9.
#[inline(always)]
pub fn random_bit(mask: u32, rng: &mut RawRng) -> u8 {
    debug_assert!(mask != 0);
    if let Some(row) = SELECT_10.get(mask as usize) {
        let k = rng.u32_below(u32::from(row[0]));
        // `k < row[0] <= 10`; the mask spares the bounds check.
        return row[(k as usize + 1) & 15];
    }
    let mut m = mask;
    for _ in 0..rng.u32_below(mask.count_ones()) {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

/// [`crate::ops::bitwise_mutation`] on a tracked individual, with the coin built once
/// ([`Coin`], the draws of `Rng::random_bool(p)`). The generator's state is taken into a
/// local ([`RawRng`]) for the loops and written back, so it stays in registers; the non-given
/// cells go in chunks, each drawn first (every cell's toss, then its new value if it is
/// redrawn: the plain operator's order) and then applied to the counts, two short loops that
/// each keep their state in registers. `bp` is the blueprint `lay` was built from.
pub fn bitwise_mutation<A: Counts>(
    _bp: &Blueprint,
    lay: &Layout<A>,
    coin: &Coin,
    m: &mut Member<'_, A>,
    rng: &mut sudoku_core::Rng,
) -> u32 {
    lay.check(m);
    let mut r = RawRng::take(rng);
    let redrawn = mutate_with(lay, coin, m, &mut r);
    r.put(rng);
    redrawn
}

/// [`bitwise_mutation`] then [`remove_repetition`] on one member, as a generation applies
/// them to each child: the same draws and cells as the two calls, with the member's shape
/// checked and the generator's state taken once. Returns the cells redrawn and the cells
/// Remove Repetition changed.
pub fn mutate_then_fix<A: Counts>(
    lay: &Layout<A>,
    coin: &Coin,
    set: RepetitionSet,
    m: &mut Member<'_, A>,
    rng: &mut sudoku_core::Rng,
) -> (u32, u32) {
    lay.check(m);
    let mut r = RawRng::take(rng);
    let redrawn = mutate_with(lay, coin, m, &mut r);
    let changed = fix_reading(lay, set, m, &mut r);
    r.put(rng);
    (redrawn, changed)
}

/// [`bitwise_mutation`] on a member that passed [`Layout::check`], with the generator's
/// state in `r`: the loops for a coin that always redraws (no toss drawn) or for any other.
#[inline(always)]
fn mutate_with<A: Counts>(
    lay: &Layout<A>,
    coin: &Coin,
    m: &mut Member<'_, A>,
    r: &mut RawRng,
) -> u32 {
    if coin.always {
        mutate::<A, true>(lay, coin.threshold, m, r)
    } else {
        mutate::<A, false>(lay, coin.threshold, m, r)
    }
}

/// Cells [`bitwise_mutation`] draws before it applies them.
const CHUNK: usize = 64;

/// The draws of [`bitwise_mutation`] for one chunk of non-given cells: each cell's toss (none
/// when `ALWAYS`), then its new value when it is redrawn, in the plain operator's order. Each
/// redrawn cell goes to `out` with its new value in the low byte; returns how many. Not
/// inlined: alone, the loop keeps the generator's state in registers, where inlined into the
/// mutation the compiler spills it at every toss.
#[inline(never)]
fn draw_chunk<const ALWAYS: bool>(
    rng: &mut RawRng,
    threshold: u64,
    n: u8,
    chunk: &[u16],
    out: &mut [std::mem::MaybeUninit<u32>; CHUNK],
) -> usize {
    // The state in a local, written back at the end: it stays in registers.
    let mut r = *rng;
    let mut k = 0;
    // One cell: its toss, and its new value when it is redrawn.
    let mut cell = |r: &mut RawRng, c: u16| {
        if !ALWAYS {
            if r.step() >= threshold {
                return;
            }
            // Opaque to the optimiser: otherwise it derives the value draw's state from the
            // state before the toss (one multiply by the square of the multiplier), which
            // keeps that older state alive, in two more registers, across every toss.
            r.opaque();
        }
        // `k < chunk.len() <= CHUNK`; the mask spares the bounds check.
        out[k & (CHUNK - 1)].write(u32::from(c) << 8 | u32::from(r.u8_inclusive(1, n)));
        k += 1;
    };
    // Four cells a turn (one loop test for four tosses), then the rest.
    let mut quads = chunk.chunks_exact(4);
    for q in &mut quads {
        cell(&mut r, q[0]);
        cell(&mut r, q[1]);
        cell(&mut r, q[2]);
        cell(&mut r, q[3]);
    }
    for &c in quads.remainder() {
        cell(&mut r, c);
    }
    *rng = r;
    k
}

/// [`bitwise_mutation`] with `ALWAYS` for a coin of probability 1 (no toss drawn), on a
/// member that passed [`Layout::check`].
#[inline(always)]
fn mutate<A: Counts, const ALWAYS: bool>(
    lay: &Layout<A>,
    threshold: u64,
    m: &mut Member<'_, A>,
    rng: &mut RawRng,
) -> u32 {
    let n = lay.n as u8;
    let mut equal = *m.equal;
    let (cells, counts) = (&mut *m.cells, &mut *m.counts);
    let mut redrawn = 0;
    // Not zeroed (a quarter kilobyte a call): `draw_chunk` writes the first `k` entries
    // before they are read.
    let mut out = [std::mem::MaybeUninit::<u32>::uninit(); CHUNK];
    for chunk in lay.free.chunks(CHUNK) {
        let k = draw_chunk::<ALWAYS>(rng, threshold, n, chunk, &mut out);
        for x in &out[..k] {
            // SAFETY: `draw_chunk` wrote entries `0..k`.
            let x = unsafe { x.assume_init() };
            // SAFETY: `x >> 8` is a non-given cell of the layout, `m` passed `check`.
            unsafe { lay.put(cells, counts, &mut equal, (x >> 8) as usize, x as u8) };
        }
        redrawn += k as u32;
    }
    *m.equal = equal;
    redrawn
}

/// [`crate::ops::remove_repetition`] on a tracked individual: rows, then columns, visiting
/// only the units whose counts show a repetition to remove. Fixing one row changes no other
/// row, so a row's counts just before its turn are the counts the plain operator's first pass
/// sees (likewise for columns); units it skips are units where the plain operator changes
/// nothing and draws nothing. `bp` is the blueprint `lay` was built from.
pub fn remove_repetition<A: Counts>(
    _bp: &Blueprint,
    lay: &Layout<A>,
    set: RepetitionSet,
    m: &mut Member<'_, A>,
    rng: &mut sudoku_core::Rng,
) -> u32 {
    lay.check(m);
    // The generator's state in a local (registers) for the loops, written back at the end.
    let mut r = RawRng::take(rng);
    let changed = fix_reading(lay, set, m, &mut r);
    r.put(rng);
    changed
}

/// [`remove_repetition`] on a member that passed [`Layout::check`]: one copy of the loops per
/// reading, each with its reading a constant.
#[inline(always)]
fn fix_reading<A: Counts>(
    lay: &Layout<A>,
    set: RepetitionSet,
    m: &mut Member<'_, A>,
    rng: &mut RawRng,
) -> u32 {
    match (set, lay.scope) {
        (RepetitionSet::PresentInUnit, RepetitionScope::Givens) => {
            fix_units::<A, true, false>(lay, m, rng)
        }
        (RepetitionSet::PresentInUnit, RepetitionScope::All) => {
            fix_units::<A, true, true>(lay, m, rng)
        }
        (RepetitionSet::GivensOfUnit, RepetitionScope::Givens) => {
            fix_units::<A, false, false>(lay, m, rng)
        }
        (RepetitionSet::GivensOfUnit, RepetitionScope::All) => {
            fix_units::<A, false, true>(lay, m, rng)
        }
    }
}

/// [`remove_repetition`] for one reading, on a member that passed [`Layout::check`]:
/// `PRESENT` for [`RepetitionSet::PresentInUnit`], `ALL` for [`RepetitionScope::All`]. The 2N
/// rows then columns in order, each tested on its counts just before its turn: fixing a row
/// changes no other row's counts (likewise for columns), so the rows that need a fix are the
/// rows the plain operator's row pass fixes, and the columns are tested after every row is
/// fixed, as the plain column pass sees them.
#[inline(always)]
fn fix_units<A: Counts, const PRESENT: bool, const ALL: bool>(
    lay: &Layout<A>,
    m: &mut Member<'_, A>,
    rng: &mut RawRng,
) -> u32 {
    let n = lay.n;
    let full = lay.full;
    let mut changed = 0;
    // The equal pairs in a local for the loops, written back at the end.
    let mut equal = *m.equal;
    let (cells, counts) = (&mut *m.cells, &mut *m.counts);
    // Rows (units 0..N), then columns (N..2N): the units of a pass that need a fix, found
    // in one branch-free sweep over their counts before the first fix of the pass.
    for first in [0, n] {
        // SAFETY: `first + N <= 2N`, the length of `fix` (checked in `Layout::new`) and at
        // most `counts.len()` (`m` passed `check`).
        let (fix, counts_of) = unsafe {
            (
                lay.fix.get_unchecked(first..first + n),
                counts.get_unchecked(first..first + n),
            )
        };
        // Bit i for unit `first + i`.
        let mut which = A::meets_each(counts_of, fix);
        while which != 0 {
            let u = first + which.trailing_zeros() as usize;
            which &= which - 1;
            // SAFETY: `u < 2N <= counts.len()` (`m` passed `check`), `fix_units` has 2N
            // entries (checked in `Layout::new`).
            let (acc, info) =
                unsafe { (*counts.get_unchecked(u), *lay.fix_units.get_unchecked(u)) };
            let gmask = info.given;
            // The values a redrawn cell may take: those not present in the unit (for the set
            // `GivensOfUnit`, those not given), less the values drawn so far (`PRESENT`).
            let mut absent = full & !if PRESENT { acc.present() } else { gmask };
            let mut taken = gmask;
            // Scope `Givens`: the repeated cells are the non-given cells holding a given
            // value, as many as the given values' counts exceed one each; the scan stops at
            // the last of them (the cells after it change nothing and draw nothing).
            let mut left = if ALL {
                0
            } else {
                acc.sum_masked(info.given_fields) - info.given_count
            };
            debug_assert!(ALL || left > 0);
            for &c in lay.free_of(&info) {
                // SAFETY: `c` is a cell of the layout, `m` passed `check`.
                let v = unsafe { *cells.get_unchecked(c as usize) };
                if taken & (1 << v) != 0 {
                    if absent != 0 {
                        let w = random_bit(absent, rng);
                        // The cell is applied at once: the scan visits each cell once and
                        // reads no count (`acc` was read before), so the count updates change
                        // nothing it reads. (`w` can equal `v` only for the set
                        // `GivensOfUnit` with scope `All`: then nothing changes, as in the
                        // plain operator, and the cell counts as changed, as there.)
                        // SAFETY: `c` is a cell of the layout, `m` passed `check`.
                        unsafe { lay.replace(cells, counts, &mut equal, c as usize, v, w) };
                        changed += 1;
                        if PRESENT {
                            absent &= !(1 << w);
                        }
                        if ALL {
                            taken |= 1 << w;
                        }
                    }
                    if !ALL {
                        left -= 1;
                        if left == 0 {
                            break;
                        }
                    }
                } else if ALL {
                    taken |= 1 << v;
                }
            }
        }
    }
    debug_assert!(n <= 25);
    *m.equal = equal;
    changed
}

/// [`crossover`] of `a` and `b`, then [`remove_repetition`] on `a`, then on `b`, as a
/// generation applies them to a pair of children: the same draws and cells as the three
/// calls, with the members' shapes checked and the generator's state taken once. Returns the
/// cells Remove Repetition changed in `a` and in `b`.
pub fn crossover_then_fix<A: Counts>(
    lay: &Layout<A>,
    rows: CrossoverRows,
    set: RepetitionSet,
    a: &mut Member<'_, A>,
    b: &mut Member<'_, A>,
    rng: &mut sudoku_core::Rng,
) -> (u32, u32) {
    lay.check(a);
    lay.check(b);
    let mut r = RawRng::take(rng);
    cross(lay, rows, a, b, &mut r);
    let fixed_a = fix_reading(lay, set, a, &mut r);
    let fixed_b = fix_reading(lay, set, b, &mut r);
    r.put(rng);
    (fixed_a, fixed_b)
}

/// [`crate::ops::row_uniform_crossover`] on two tracked individuals: the same rows exchanged
/// (and, for [`CrossoverRows::UniformRandom`], the same draws, one per row in row order), each
/// exchanged non-given cell that differs updating both count tables. `bp` is the blueprint
/// `lay` was built from.
pub fn crossover<A: Counts, R: Rng + ?Sized>(
    _bp: &Blueprint,
    lay: &Layout<A>,
    rows: CrossoverRows,
    a: &mut Member<'_, A>,
    b: &mut Member<'_, A>,
    rng: &mut R,
) {
    lay.check(a);
    lay.check(b);
    cross(lay, rows, a, b, rng);
}

/// [`crossover`] on members that passed [`Layout::check`].
#[inline(always)]
fn cross<A: Counts, R: Rng + ?Sized>(
    lay: &Layout<A>,
    rows: CrossoverRows,
    a: &mut Member<'_, A>,
    b: &mut Member<'_, A>,
    rng: &mut R,
) {
    let (mut ea, mut eb) = (*a.equal, *b.equal);
    let (ca, ta) = (&mut *a.cells, &mut *a.counts);
    let (cb, tb) = (&mut *b.cells, &mut *b.counts);
    let n = lay.n as u32;
    for r in 0..lay.n {
        if !crate::ops::exchanges_row(rows, r, rng) {
            continue;
        }
        // The whole row moves (its givens are equal in both), so its counts change places
        // and each member's equal pairs change by the other's row pairs less its own; the
        // cells then update their columns and boxes.
        // SAFETY: `r < N <= counts.len()` for both members (they passed `check`).
        let (sa, sb) = unsafe { (ta.get_unchecked_mut(r), tb.get_unchecked_mut(r)) };
        let (pa, pb) = ((sa.squares() - n) / 2, (sb.squares() - n) / 2);
        std::mem::swap(sa, sb);
        (ea, eb) = (ea - pa + pb, eb - pb + pa);
        for &c in lay.unit_free(r) {
            let c = c as usize;
            // SAFETY: `c` is a cell of the layout, both members passed `check`.
            unsafe { lay.exchange((ca, ta, &mut ea), (cb, tb, &mut eb), c) };
        }
    }
    *a.equal = ea;
    *b.equal = eb;
}

#[cfg(test)]
mod tests {
    use super::{Bytes, Counts};

    /// `meets_each` (eight units at once for bytes) sets the bit of each unit whose counts
    /// meet its mask, for every length up to 20 and random counts and masks.
    #[test]
    fn meets_each_is_meets_per_unit() {
        use rand::Rng;
        let mut rng = sudoku_core::rng_from_seed(3);
        for len in 0..=20 {
            for _ in 0..200 {
                let counts: Vec<Bytes> = (0..len)
                    .map(|_| {
                        Bytes(std::array::from_fn(|_| {
                            rng.random_range(0..4) * rng.random_range(0..2)
                        }))
                    })
                    .collect();
                let masks: Vec<Bytes> = (0..len)
                    .map(|_| {
                        Bytes::fields(rng.random_range(0..1u32 << 16)).and(Bytes::high(0xFFFE))
                    })
                    .collect();
                let want =
                    (0..len).fold(0u32, |w, i| w | u32::from(counts[i].meets(masks[i])) << i);
                assert_eq!(Bytes::meets_each(&counts, &masks), want, "len {len}");
                let packed: Vec<u64> = counts
                    .iter()
                    .map(|c| {
                        (1..16u8).fold(0u64, |a, v| {
                            a + (u64::from(c.0[v as usize] & 15) << u64::shift(v))
                        })
                    })
                    .collect();
                let pmasks: Vec<u64> = masks
                    .iter()
                    .map(|m| {
                        (1..16u8).fold(0u64, |a, v| {
                            a | (u64::from(m.0[v as usize] & 15) << u64::shift(v))
                        })
                    })
                    .collect();
                assert_eq!(u64::meets_each(&packed, &pmasks), want, "u64 len {len}");
            }
        }
    }

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
            for mask in [0u32, 0b10, 1 << 9 | 1 << 15, 0xFFFE] {
                let inside = values.iter().filter(|&&v| mask & (1 << v) != 0).count() as u32;
                assert_eq!(a.sum_masked(u64::fields(mask)), inside, "u64 {values:?}");
                assert_eq!(b.sum_masked(u128::fields(mask)), inside, "u128 {values:?}");
            }
            let mut c = Bytes::default();
            for &v in *values {
                c.add(v);
            }
            assert_eq!(c.present(), *want, "bytes {values:?}");
        }
        let all = (1..=25u8).fold(0u128, |a, v| a.inc(u128::shift(v)).inc(u128::shift(v)));
        assert_eq!(all.present(), ((1u32 << 26) - 1) & !1);
    }

    /// Byte counts and 4-bit counts agree on every `add` and `moved` (their answers and the
    /// counts after), on random values, and on the masks (`ones`, `fields`, `high`, `and`).
    #[test]
    fn byte_counts_match_packed_counts() {
        use rand::Rng;
        let mut rng = sudoku_core::rng_from_seed(9);
        let unpack =
            |x: u64| -> [u8; 16] { std::array::from_fn(|v| x.field(u64::shift(v as u8)) as u8) };
        for _ in 0..200 {
            let (mut a, mut b) = (0u64, Bytes::default());
            let mut values = Vec::new();
            for _ in 0..rng.random_range(1..15) {
                let v = rng.random_range(1..=15u8);
                assert_eq!(a.add(v), b.add(v));
                values.push(v);
            }
            for _ in 0..20 {
                let k = rng.random_range(0..values.len());
                let w = rng.random_range(1..=15u8);
                if w == values[k] {
                    continue;
                }
                assert_eq!(a.moved(values[k], w), b.moved(values[k], w));
                values[k] = w;
                assert_eq!(unpack(a), b.0);
                assert_eq!(a.present(), b.present());
            }
            let mask = rng.random_range(0..1u32 << 16) & !1;
            assert_eq!(unpack(u64::ones(mask)), Bytes::ones(mask).0);
            let high = Bytes::fields(mask).and(Bytes::high(0xFFFE));
            let want = unpack(u64::fields(mask).and(u64::high(0xFFFE)));
            // 4-bit fields keep 3 bits above the lowest, bytes keep 7.
            let got = high.0.map(|x| x & 0xE);
            assert_eq!(got, want);
            let needs = |x: u64| x.and(u64::fields(mask).and(u64::high(0xFFFE))) != 0;
            assert_eq!(b.and(high) != Bytes::default(), needs(a));
            assert_eq!(b.meets(high), needs(a));
            assert_eq!(a.meets(u64::fields(mask).and(u64::high(0xFFFE))), needs(a));
            let squares: u32 = (1..=15u8)
                .map(|v| values.iter().filter(|&&x| x == v).count() as u32)
                .map(|k| k * k)
                .sum();
            assert_eq!(a.squares(), squares);
            let in_mask: u32 = values.iter().filter(|&&x| mask & (1 << x) != 0).count() as u32;
            assert_eq!(a.sum_masked(u64::fields(mask)), in_mask);
            assert_eq!(b.sum_masked(Bytes::fields(mask)), in_mask);
            assert_eq!(b.squares(), squares);
        }
    }
}

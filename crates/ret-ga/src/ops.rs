//! Ret-GA operators as pure functions over one individual's cells (`&mut [u8]`, row-major),
//! given the puzzle's [`Blueprint`]. Generic over the RNG so tests can drive them with any
//! generator.

use crate::config::RepetitionSet;
use rand::Rng;
use sudoku_core::{Geometry, Puzzle};

/// The "Blueprint Matrix" of the paper ("This matrix contains 0 or 1 at the place of non-given
/// and given positions respectively") with the per-unit tables the operators need.
#[derive(Debug, Clone)]
pub struct Blueprint {
    pub geom: Geometry,
    /// The puzzle's cells (0 = non-given).
    pub givens: Vec<u8>,
    /// Non-given cells, row-major.
    pub free: Vec<u16>,
    /// For each row then each column (2N units): its non-given cells, flattened; unit u's are
    /// `unit_free[unit_free_start[u]..unit_free_start[u + 1]]`.
    pub unit_free: Vec<u16>,
    pub unit_free_start: Vec<u32>,
    /// For each row then each column: its N cells, flattened (unit u at `u * N`).
    pub unit_cells: Vec<u16>,
    /// For each row then each column: bit mask of the values given in it.
    pub unit_given_mask: Vec<u32>,
    /// For each non-given cell (in `free` order): its row, its column, and the masks of the
    /// values given in its row and in its column. One pass over these finds the units Remove
    /// Repetition has to touch.
    pub free_row: Vec<u8>,
    pub free_col: Vec<u8>,
    pub free_row_given: Vec<u32>,
    pub free_col_given: Vec<u32>,
}

impl Blueprint {
    pub fn new(puzzle: &Puzzle) -> Self {
        let geom = puzzle.geometry();
        let n = geom.n();
        let givens = puzzle.grid.cells().to_vec();
        let free: Vec<u16> = (0..geom.cells())
            .filter(|&c| givens[c] == 0)
            .map(|c| c as u16)
            .collect();
        let mut unit_cells = Vec::with_capacity(2 * n);
        for r in 0..n {
            unit_cells.push(geom.row_cells(r).map(|c| c as u16).collect::<Vec<_>>());
        }
        for c in 0..n {
            unit_cells.push(geom.col_cells(c).map(|c| c as u16).collect::<Vec<_>>());
        }
        let mut unit_free = Vec::new();
        let mut unit_free_start = vec![0u32];
        for u in &unit_cells {
            unit_free.extend(u.iter().copied().filter(|&c| givens[c as usize] == 0));
            unit_free_start.push(unit_free.len() as u32);
        }
        let unit_given_mask: Vec<u32> = unit_cells
            .iter()
            .map(|u| {
                u.iter()
                    .map(|&c| givens[c as usize])
                    .filter(|&v| v != 0)
                    .fold(0u32, |m, v| m | 1 << v)
            })
            .collect();
        let free_row: Vec<u8> = free
            .iter()
            .map(|&c| geom.row_of(c as usize) as u8)
            .collect();
        let free_col: Vec<u8> = free
            .iter()
            .map(|&c| geom.col_of(c as usize) as u8)
            .collect();
        let free_row_given = free_row
            .iter()
            .map(|&r| unit_given_mask[r as usize])
            .collect();
        let free_col_given = free_col
            .iter()
            .map(|&c| unit_given_mask[n + c as usize])
            .collect();
        Blueprint {
            geom,
            givens,
            free,
            free_row,
            free_col,
            free_row_given,
            free_col_given,
            unit_free,
            unit_free_start,
            unit_cells: unit_cells.concat(),
            unit_given_mask,
        }
    }
}

/// A uniformly random set bit of a non-empty mask.
#[inline]
fn random_bit<R: Rng + ?Sized>(mask: u32, rng: &mut R) -> u8 {
    debug_assert!(mask != 0);
    let mut m = mask;
    for _ in 0..rng.random_range(0..mask.count_ones()) {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

/// Initial individual: the givens, and every non-given cell "assigned randomly generated values
/// from 1 to N".
pub fn random_individual<R: Rng + ?Sized>(bp: &Blueprint, cells: &mut [u8], rng: &mut R) {
    cells.copy_from_slice(&bp.givens);
    let n = bp.geom.n() as u8;
    for &c in &bp.free {
        cells[c as usize] = rng.random_range(1..=n);
    }
}

/// Remove Repetition: "any repetition of a given is replaced by a randomly selected number from
/// the set ({1..9} - G_i) ... The operation is first performed on each row and then on each
/// column." Non-given cells holding a value given in the same unit get a new value; repetitions
/// of non-givens are left alone ("repetition of non-givens is not removed by this process").
/// Returns the number of cells changed.
pub fn remove_repetition<R: Rng + ?Sized>(
    bp: &Blueprint,
    set: RepetitionSet,
    cells: &mut [u8],
    rng: &mut R,
) -> u32 {
    let n = bp.geom.n();
    // Which rows hold a non-given cell repeating one of the row's givens: one pass over the
    // non-given cells with precomputed masks. Most rows of most individuals need nothing.
    let mut rows = 0u64;
    for (k, &c) in bp.free.iter().enumerate() {
        let bit = 1u32 << cells[c as usize];
        rows |= u64::from(bit & bp.free_row_given[k] != 0) << bp.free_row[k];
    }
    let mut changed = fix_units(bp, set, cells, rng, rows, 0);
    let mut cols = 0u64;
    for (k, &c) in bp.free.iter().enumerate() {
        let bit = 1u32 << cells[c as usize];
        cols |= u64::from(bit & bp.free_col_given[k] != 0) << bp.free_col[k];
    }
    changed += fix_units(bp, set, cells, rng, cols, n);
    changed
}

/// Remove Repetition in the units `offset + i` for every bit i of `which`, in unit order.
fn fix_units<R: Rng + ?Sized>(
    bp: &Blueprint,
    set: RepetitionSet,
    cells: &mut [u8],
    rng: &mut R,
    mut which: u64,
    offset: usize,
) -> u32 {
    let full = bp.geom.full_mask();
    let n = bp.geom.n();
    let mut changed = 0;
    while which != 0 {
        let u = offset + which.trailing_zeros() as usize;
        which &= which - 1;
        let gmask = bp.unit_given_mask[u];
        let free =
            &bp.unit_free[bp.unit_free_start[u] as usize..bp.unit_free_start[u + 1] as usize];
        let mut present = match set {
            RepetitionSet::PresentInUnit => bp.unit_cells[u * n..(u + 1) * n]
                .iter()
                .fold(0u32, |m, &c| m | 1 << cells[c as usize]),
            RepetitionSet::GivensOfUnit => gmask,
        };
        for &c in free {
            let v = cells[c as usize];
            if gmask & (1 << v) != 0 {
                let choices = full & !present;
                // With PresentInUnit a repeated value means some value is missing, so
                // `choices` is never empty; with GivensOfUnit it is empty only when every
                // value is given, which a non-given cell in the unit rules out.
                if choices == 0 {
                    continue;
                }
                let nv = random_bit(choices, rng);
                cells[c as usize] = nv;
                if set == RepetitionSet::PresentInUnit {
                    present |= 1 << nv;
                }
                changed += 1;
            }
        }
    }
    changed
}

/// Row-wise uniform crossover: "choose the crossover sites as much as possible, in between each
/// pair of rows. Now interchange the rows alternatively throughout." Rows 2, 4, 6, ... (1-based)
/// are exchanged; exchanging the odd rows instead yields the same two children in the other
/// order. Givens are equal in both parents, so they are not disturbed.
pub fn row_uniform_crossover(geom: Geometry, a: &mut [u8], b: &mut [u8]) {
    let n = geom.n();
    for r in (1..n).step_by(2) {
        a[r * n..(r + 1) * n].swap_with_slice(&mut b[r * n..(r + 1) * n]);
    }
}

/// Bit-wise mutation: "Each of the non-given entry is replaced by a randomly generated number
/// (from 1 to N) with a probability of 0.2". The new number may equal the old one, as the
/// paper's "discard it first and then ... filled by a number randomly generated" allows.
/// Returns the number of cells redrawn.
pub fn bitwise_mutation<R: Rng + ?Sized>(
    bp: &Blueprint,
    p: f64,
    cells: &mut [u8],
    rng: &mut R,
) -> u32 {
    let n = bp.geom.n() as u8;
    let mut redrawn = 0;
    for &c in &bp.free {
        if rng.random_bool(p) {
            cells[c as usize] = rng.random_range(1..=n);
            redrawn += 1;
        }
    }
    redrawn
}

/// Alternate elitism: "The population before crossover and after mutation were combined
/// together to form a population of size 20*N ... Arrange the individuals in the ascending
/// order of their fitness values ... the alternate individuals are then selected".
///
/// `order` receives the pool indices (0..pool) sorted by the elite order; ties are broken by
/// pool index so the result is deterministic. Returns the selected pool indices in `out`
/// (positions 0, 2, 4, ... of the sorted pool), `out.len()` of them.
pub fn alternate_elitism(fitness: &[u32], best_first: bool, order: &mut Vec<u16>, out: &mut [u16]) {
    order.clear();
    order.extend(0..fitness.len() as u16);
    if best_first {
        order.sort_unstable_by_key(|&i| (std::cmp::Reverse(fitness[i as usize]), i));
    } else {
        order.sort_unstable_by_key(|&i| (fitness[i as usize], i));
    }
    for (k, slot) in out.iter_mut().enumerate() {
        *slot = order[2 * k];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternate_elitism_table() {
        // (fitness of the pool, best_first, expected selected indices)
        let cases: &[(&[u32], bool, &[u16])] = &[
            (&[5, 9, 7, 1], true, &[1, 0]),
            (&[5, 9, 7, 1], false, &[3, 2]),
            (&[3, 3, 3, 3], true, &[0, 2]),
            (&[1, 2, 3, 4, 5, 6], true, &[5, 3, 1]),
        ];
        for (fit, bf, want) in cases {
            let mut order = Vec::new();
            let mut out = vec![0u16; want.len()];
            alternate_elitism(fit, *bf, &mut order, &mut out);
            assert_eq!(&out[..], *want, "{fit:?} {bf}");
        }
    }

    #[test]
    fn crossover_exchanges_alternate_rows() {
        let g = Geometry::new(2, 2).unwrap();
        let mut a: Vec<u8> = vec![1; 16];
        let mut b: Vec<u8> = vec![2; 16];
        row_uniform_crossover(g, &mut a, &mut b);
        assert_eq!(a, [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2]);
        assert_eq!(b, [2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1]);
    }

    #[test]
    fn random_bit_picks_only_set_bits() {
        let mut rng = sudoku_core::rng_from_seed(1);
        let mut seen = 0u32;
        for _ in 0..200 {
            let b = random_bit(0b1010_0100, &mut rng);
            seen |= 1 << b;
        }
        assert_eq!(seen, 0b1010_0100);
    }
}

//! Ret-GA operators as pure functions over one individual's cells (`&mut [u8]`, row-major),
//! given the puzzle's [`Blueprint`]. Generic over the RNG so tests can drive them with any
//! generator. The driver runs their incremental twins in [`crate::tracked`]; the functions
//! here (mutation, Remove Repetition, crossover) are the plain reference the twins are tested
//! against, draw for draw.

use crate::config::{CrossoverRows, EliteOrder, Elitism, RepetitionScope, RepetitionSet};
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
pub fn random_bit<R: Rng + ?Sized>(mask: u32, rng: &mut R) -> u8 {
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
/// column." With [`RepetitionScope::Givens`] (the papers' words) non-given cells holding a
/// value given in the same unit get a new value and repetitions of non-givens are left alone
/// ("repetition of non-givens is not removed by this process"); with [`RepetitionScope::All`]
/// a non-given cell repeating an earlier non-given of the unit is replaced too.
/// Returns the number of cells changed.
pub fn remove_repetition<R: Rng + ?Sized>(
    bp: &Blueprint,
    set: RepetitionSet,
    scope: RepetitionScope,
    cells: &mut [u8],
    rng: &mut R,
) -> u32 {
    let n = bp.geom.n();
    let every = (1u64 << n) - 1;
    // Which rows hold a non-given cell repeating one of the row's givens: one pass over the
    // non-given cells with precomputed masks. Most rows of most individuals need nothing.
    let rows = match scope {
        RepetitionScope::Givens => {
            let mut rows = 0u64;
            for (k, &c) in bp.free.iter().enumerate() {
                let bit = 1u32 << cells[c as usize];
                rows |= u64::from(bit & bp.free_row_given[k] != 0) << bp.free_row[k];
            }
            rows
        }
        RepetitionScope::All => every,
    };
    let mut changed = fix_units(bp, set, scope, cells, rng, rows, 0);
    let cols = match scope {
        RepetitionScope::Givens => {
            let mut cols = 0u64;
            for (k, &c) in bp.free.iter().enumerate() {
                let bit = 1u32 << cells[c as usize];
                cols |= u64::from(bit & bp.free_col_given[k] != 0) << bp.free_col[k];
            }
            cols
        }
        RepetitionScope::All => every,
    };
    changed += fix_units(bp, set, scope, cells, rng, cols, n);
    changed
}

/// Remove Repetition in the units `offset + i` for every bit i of `which`, in unit order.
fn fix_units<R: Rng + ?Sized>(
    bp: &Blueprint,
    set: RepetitionSet,
    scope: RepetitionScope,
    cells: &mut [u8],
    rng: &mut R,
    mut which: u64,
    offset: usize,
) -> u32 {
    let full = bp.geom.full_mask();
    let n = bp.geom.n();
    let all = scope == RepetitionScope::All;
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
        // Values that a later non-given may not repeat: the givens, and with
        // `RepetitionScope::All` every value an earlier non-given of the unit holds.
        let mut taken = gmask;
        for &c in free {
            let v = cells[c as usize];
            if taken & (1 << v) != 0 {
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
                if all {
                    taken |= 1 << nv;
                }
                changed += 1;
            } else if all {
                taken |= 1 << v;
            }
        }
    }
    changed
}

/// Row-wise uniform crossover: "choose the crossover sites as much as possible, in between each
/// pair of rows. Now interchange the rows alternatively throughout." With
/// [`CrossoverRows::Alternate`] rows 2, 4, 6, ... (1-based) are exchanged (exchanging the odd
/// rows instead yields the same two children in the other order) and no random number is
/// drawn; with [`CrossoverRows::UniformRandom`] each row is exchanged with probability 0.5.
/// Givens are equal in both parents, so they are not disturbed.
pub fn row_uniform_crossover<R: Rng + ?Sized>(
    geom: Geometry,
    rows: CrossoverRows,
    a: &mut [u8],
    b: &mut [u8],
    rng: &mut R,
) {
    let n = geom.n();
    for r in 0..n {
        if exchanges_row(rows, r, rng) {
            a[r * n..(r + 1) * n].swap_with_slice(&mut b[r * n..(r + 1) * n]);
        }
    }
}

/// Whether crossover exchanges row `r` (0-based): rows 1, 3, 5, ... for
/// [`CrossoverRows::Alternate`] (no draw), one Bernoulli(0.5) draw per row, in row order, for
/// [`CrossoverRows::UniformRandom`].
#[inline]
pub fn exchanges_row<R: Rng + ?Sized>(rows: CrossoverRows, r: usize, rng: &mut R) -> bool {
    match rows {
        CrossoverRows::Alternate => r % 2 == 1,
        CrossoverRows::UniformRandom => rng.random_bool(0.5),
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

/// Survivor selection: "The population before crossover and after mutation were combined
/// together to form a population of size 20*N ... Arrange the individuals in the ascending
/// order of their fitness values ... the alternate individuals are then selected".
///
/// `order` receives the pool indices (0..pool) sorted by `elite_order`, a stable sort of the
/// pool (ties in pool order: parents before children), done as a counting sort over the
/// fitness range (`histogram` is its scratch space). `out` receives the selected pool indices
/// in sorted order, `out.len()` of them: with [`Elitism::Alternate`] positions 0, 2, 4, ...
/// (0-based; 1, 3, 5, ... with [`EliteOrder::Ascending`]); with [`Elitism::Best`] the best
/// `out.len()`.
pub fn select_survivors(
    fitness: &[u32],
    elite_order: EliteOrder,
    elitism: Elitism,
    order: &mut Vec<u16>,
    histogram: &mut Vec<u32>,
    out: &mut [u16],
) {
    stable_sort_by_fitness(
        fitness,
        elite_order == EliteOrder::BestFirst,
        order,
        histogram,
    );
    let k = out.len();
    match (elitism, elite_order) {
        (Elitism::Alternate, EliteOrder::Ascending) => {
            for (j, slot) in out.iter_mut().enumerate() {
                *slot = order[2 * j + 1];
            }
        }
        (Elitism::Alternate, _) => {
            for (j, slot) in out.iter_mut().enumerate() {
                *slot = order[2 * j];
            }
        }
        (Elitism::Best, EliteOrder::BestFirst) => out.copy_from_slice(&order[..k]),
        (Elitism::Best, _) => out.copy_from_slice(&order[order.len() - k..]),
    }
}

/// Pool indices sorted by fitness (descending when `best_first`), ties in index order: a
/// counting sort, linear in the pool size plus the fitness range.
fn stable_sort_by_fitness(
    fitness: &[u32],
    best_first: bool,
    order: &mut Vec<u16>,
    histogram: &mut Vec<u32>,
) {
    order.clear();
    order.resize(fitness.len(), 0);
    let Some(&first) = fitness.first() else {
        return;
    };
    let (lo, hi) = fitness
        .iter()
        .fold((first, first), |(lo, hi), &f| (lo.min(f), hi.max(f)));
    let bucket = |f: u32| (if best_first { hi - f } else { f - lo }) as usize;
    histogram.clear();
    histogram.resize((hi - lo) as usize + 2, 0);
    for &f in fitness {
        histogram[bucket(f) + 1] += 1;
    }
    for b in 1..histogram.len() {
        histogram[b] += histogram[b - 1];
    }
    for (i, &f) in fitness.iter().enumerate() {
        let slot = &mut histogram[bucket(f)];
        order[*slot as usize] = i as u16;
        *slot += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn survivor_selection_table() {
        use EliteOrder::*;
        use Elitism::*;
        // (fitness of the pool, order, scheme, expected selected indices in population order)
        let cases: &[(&[u32], EliteOrder, Elitism, &[u16])] = &[
            (&[5, 9, 7, 1], BestFirst, Alternate, &[1, 0]),
            (&[5, 9, 7, 1], AscendingLiteral, Alternate, &[3, 2]),
            (&[5, 9, 7, 1], Ascending, Alternate, &[0, 1]),
            (&[3, 3, 3, 3], BestFirst, Alternate, &[0, 2]),
            // A stable ascending sort keeps ties in pool order; positions 2 and 4 survive.
            (&[3, 3, 3, 3], Ascending, Alternate, &[1, 3]),
            (&[1, 2, 3, 4, 5, 6], BestFirst, Alternate, &[5, 3, 1]),
            (&[1, 2, 3, 4, 5, 6], Ascending, Alternate, &[1, 3, 5]),
            // Parent 1 (fitness 4) ties with child 2: best-first keeps the parent first.
            (&[2, 4, 4, 1], BestFirst, Alternate, &[1, 0]),
            (&[2, 4, 4, 1], Ascending, Alternate, &[0, 2]),
            (&[5, 9, 7, 1], BestFirst, Best, &[1, 2]),
            (&[5, 9, 7, 1], Ascending, Best, &[2, 1]),
            (&[5, 9, 7, 1], AscendingLiteral, Best, &[2, 1]),
            // Ties at the cut: best-first keeps the parent, ascending the child.
            (&[4, 6, 4, 1], BestFirst, Best, &[1, 0]),
            (&[4, 6, 4, 1], Ascending, Best, &[2, 1]),
        ];
        for (fit, order_kind, scheme, want) in cases {
            let (mut order, mut histogram) = (Vec::new(), Vec::new());
            let mut out = vec![0u16; want.len()];
            select_survivors(
                fit,
                *order_kind,
                *scheme,
                &mut order,
                &mut histogram,
                &mut out,
            );
            assert_eq!(&out[..], *want, "{fit:?} {order_kind:?} {scheme:?}");
        }
    }

    /// The counting sort gives the order of a comparison sort on (fitness, index).
    #[test]
    fn counting_sort_matches_a_comparison_sort() {
        let mut rng = sudoku_core::rng_from_seed(3);
        let (mut order, mut histogram) = (Vec::new(), Vec::new());
        for len in [1usize, 2, 7, 180] {
            for spread in [1u32, 3, 80, 972] {
                let fit: Vec<u32> = (0..len)
                    .map(|_| 900u32.saturating_sub(spread) + rng.random_range(0..spread))
                    .collect();
                for best_first in [true, false] {
                    stable_sort_by_fitness(&fit, best_first, &mut order, &mut histogram);
                    let mut want: Vec<u16> = (0..len as u16).collect();
                    if best_first {
                        want.sort_by_key(|&i| (std::cmp::Reverse(fit[i as usize]), i));
                    } else {
                        want.sort_by_key(|&i| (fit[i as usize], i));
                    }
                    assert_eq!(order, want, "{fit:?} {best_first}");
                }
            }
        }
    }

    #[test]
    fn crossover_exchanges_alternate_rows() {
        let g = Geometry::new(2, 2).unwrap();
        let mut rng = sudoku_core::rng_from_seed(1);
        let mut a: Vec<u8> = vec![1; 16];
        let mut b: Vec<u8> = vec![2; 16];
        row_uniform_crossover(g, CrossoverRows::Alternate, &mut a, &mut b, &mut rng);
        assert_eq!(a, [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2]);
        assert_eq!(b, [2, 2, 2, 2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1]);
    }

    #[test]
    fn uniform_random_crossover_exchanges_whole_rows_half_the_time() {
        let g = Geometry::new(3, 3).unwrap();
        let mut rng = sudoku_core::rng_from_seed(2);
        let mut swapped = 0;
        let trials = 2000;
        for _ in 0..trials {
            let mut a: Vec<u8> = vec![1; 81];
            let mut b: Vec<u8> = vec![2; 81];
            row_uniform_crossover(g, CrossoverRows::UniformRandom, &mut a, &mut b, &mut rng);
            for r in 0..9 {
                let row = &a[r * 9..(r + 1) * 9];
                // Whole rows move: a row is all 1 or all 2, and b holds the complement.
                assert!(row.iter().all(|&v| v == row[0]));
                assert_eq!(b[r * 9], 3 - row[0]);
                swapped += usize::from(row[0] == 2);
            }
        }
        let rate = swapped as f64 / (trials * 9) as f64;
        assert!((rate - 0.5).abs() < 0.02, "{rate}");
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

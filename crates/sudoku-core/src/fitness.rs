//! The papers' evaluation functions, each in a fast form (per-unit count tables or bit masks)
//! and in a plain transcription of the paper's formula (`*_paper`), which the tests compare on
//! random grids. Blank cells (0) never count as equal to anything and never as a present symbol.

use crate::geometry::{Geometry, Units};

/// Maximum of the Ret-GA fitness, `3 N^2 (N - 1) / 2` (972 for 9x9), Das et al. eq. (2)-(6).
pub fn ret_ga_max(geom: Geometry) -> u32 {
    let n = geom.n() as u32;
    3 * n * n * (n - 1) / 2
}

/// Ret-GA pairwise-uniqueness fitness (Das, Bhatia, Puri, Deep, eqs. (2)-(6)): the number of
/// pairs of cells in a common row, column or sub-square holding different values. Maximal
/// (`ret_ga_max`) exactly for a solved grid.
///
/// Computed as `max - (pairs that are not distinct)`, from per-unit counts instead of the
/// paper's `3 N * N(N-1)/2` comparisons: for orders up to 12, packed 4-bit counters (one u64
/// per unit, compiled per order); for 16x16 and 25x25, a byte count table where a cell of value v adds the number
/// of earlier cells of value v in each of its three units (a power-of-two array indexed with a
/// mask, so the loop has no bounds checks).
#[derive(Debug, Clone)]
pub struct RetGaFitness {
    /// For each cell, the offsets of its row, column and box count rows in the table.
    offsets: Vec<[u16; 3]>,
    /// Bytes of the count table in use.
    table: usize,
    max: u32,
    /// (box_rows, box_cols): selects the compiled nibble-counter path for 4x4, 6x6, 9x9 and
    /// 12x12; 16x16 and 25x25 use the count table.
    shape: (usize, usize),
}

/// Not-distinct pairs for a fixed order N <= 15 with boxes BR x BC, with 4-bit counters packed
/// in one u64 per unit (a count never exceeds 15; symbols 0..=15 fit in 16 nibbles). Walking
/// the grid row by row, a cell of value v adds `1 << 4v` to its row, column and box
/// accumulators (compiled for the order, so the loop is unrolled and the accumulators stay in
/// registers); each finished unit costs N/2 + 1 byte-table look-ups.
#[inline(always)]
fn fixed<const N: usize, const BR: usize, const BC: usize>(cells: &[u8]) -> u32 {
    // Not-distinct pairs of a finished unit: sum over its nibbles of C(count, 2) (blanks in
    // nibble 0 included) plus the blank-filled pairs b (N - b). Symbols 0..=N occupy the
    // N / 2 + 1 low bytes.
    let finish = |acc: u64| {
        let mut pairs = 0u32;
        for k in 0..N / 2 + 1 {
            pairs += PAIR_TABLE[((acc >> (8 * k)) & 0xFF) as usize] as u32;
        }
        let b = (acc & 15) as u32;
        pairs + b * (N as u32 - b)
    };
    let mut cols = [0u64; N];
    let mut boxes = [0u64; N];
    let mut total = 0u32;
    for (r, row) in cells.chunks_exact(N).take(N).enumerate() {
        let row: &[u8; N] = row.try_into().expect("chunk of N");
        let mut racc = 0u64;
        for c in 0..N {
            let s = 1u64 << (4 * (row[c] as u32 & 15));
            racc += s;
            cols[c] += s;
            boxes[c / BC] += s;
        }
        total += finish(racc);
        if r % BR == BR - 1 {
            for b in boxes.iter_mut().take(N / BC) {
                total += finish(*b);
                *b = 0;
            }
        }
    }
    for c in cols {
        total += finish(c);
    }
    total
}

/// C(low nibble, 2) + C(high nibble, 2) for every byte.
const PAIR_TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        let (lo, hi) = (x & 15, x >> 4);
        t[x] = (lo * lo.saturating_sub(1) / 2 + hi * hi.saturating_sub(1) / 2) as u8;
        x += 1;
    }
    t
};

/// Count table for orders up to 10 (stride 16, at most 30 units): 4x4, 6x6, 9x9.
const SMALL: usize = 512;
/// Count table for orders 11 to 15 (stride 16, at most 45 units): 12x12.
const MEDIUM: usize = 1024;
/// Count table for orders up to 25 (stride 32, 75 units).
const LARGE: usize = 4096;

impl RetGaFitness {
    pub fn new(units: &Units) -> Self {
        let n = units.geometry().n();
        let stride: u16 = if n < 16 { 16 } else { 32 };
        let offsets = (0..units.geometry().cells())
            .map(|c| {
                let u = units.of_cell(c);
                [u[0] * stride, u[1] * stride, u[2] * stride]
            })
            .collect();
        let g = units.geometry();
        RetGaFitness {
            offsets,
            table: units.count() * stride as usize,
            max: ret_ga_max(g),
            shape: (g.box_rows(), g.box_cols()),
        }
    }

    /// Maximum fitness (the solved value).
    #[inline]
    pub fn max(&self) -> u32 {
        self.max
    }

    /// Fitness of a grid given as its cells.
    #[inline]
    pub fn eval(&self, cells: &[u8]) -> u32 {
        let nibble = match self.shape {
            (3, 3) => Some(fixed::<9, 3, 3>(cells)),
            (2, 3) => Some(fixed::<6, 2, 3>(cells)),
            (3, 4) => Some(fixed::<12, 3, 4>(cells)),
            (2, 2) => Some(fixed::<4, 2, 2>(cells)),
            _ => None,
        };
        if let Some(not_distinct) = nibble {
            return self.max - not_distinct;
        }
        let equal = if self.table <= SMALL {
            let mut counts = [0u8; SMALL];
            equal_pairs::<SMALL>(&mut counts, self.table, cells, &self.offsets)
        } else if self.table <= MEDIUM {
            let mut counts = [0u8; MEDIUM];
            equal_pairs::<MEDIUM>(&mut counts, self.table, cells, &self.offsets)
        } else {
            let mut counts = [0u8; LARGE];
            equal_pairs::<LARGE>(&mut counts, self.table, cells, &self.offsets)
        };
        if cells.contains(&0) {
            self.max - equal - self.blank_pairs(cells)
        } else {
            self.max - equal
        }
    }

    #[cold]
    fn blank_pairs(&self, cells: &[u8]) -> u32 {
        // A pair with at least one blank is not counted as distinct.
        let stride = if self.table <= MEDIUM { 16 } else { 32 };
        let mut counts = vec![[0u32; 2]; self.table / stride];
        let mut lost = 0;
        for (&v, off) in cells.iter().zip(&self.offsets) {
            for &o in off {
                let u = o as usize / stride;
                let [filled, blank] = counts[u];
                if v == 0 {
                    lost += filled + blank;
                    counts[u][1] += 1;
                } else {
                    lost += blank;
                    counts[u][0] += 1;
                }
            }
        }
        lost
    }
}

/// Equal pairs among filled cells, with a count table of `T` bytes (a power of two) of which
/// the first `used` are zeroed by the caller's initialiser.
#[inline(always)]
fn equal_pairs<const T: usize>(
    counts: &mut [u8; T],
    used: usize,
    cells: &[u8],
    offsets: &[[u16; 3]],
) -> u32 {
    debug_assert!(used <= T);
    let mut equal = 0u32;
    for (&v, off) in cells.iter().zip(offsets) {
        if v == 0 {
            continue;
        }
        let v = v as usize;
        let (a, b, c) = (
            (off[0] as usize + v) & (T - 1),
            (off[1] as usize + v) & (T - 1),
            (off[2] as usize + v) & (T - 1),
        );
        equal += counts[a] as u32 + counts[b] as u32 + counts[c] as u32;
        counts[a] += 1;
        counts[b] += 1;
        counts[c] += 1;
    }
    equal
}

/// Plain transcription of eqs. (3)-(6) of Das et al.: f(i,j,k,l) = 0 when the two cells hold the
/// same value, 1 otherwise, summed over every pair in a row (eq. 4: cell (i,j) against the cells
/// to its right), in a column (eq. 5) and in a sub-square (eq. 6, which the text copies garble;
/// it compares every cell of a sub-square with the cells after it in row-major order).
pub fn ret_ga_fitness_paper(geom: Geometry, cells: &[u8]) -> u32 {
    let n = geom.n();
    let f = |a: usize, b: usize| -> u32 {
        let (x, y) = (cells[a], cells[b]);
        u32::from(x != 0 && y != 0 && x != y)
    };
    let mut row = 0;
    for i in 0..n {
        for j in 0..n - 1 {
            for l in j + 1..n {
                row += f(geom.cell(i, j), geom.cell(i, l));
            }
        }
    }
    let mut col = 0;
    for j in 0..n {
        for i in 0..n - 1 {
            for l in i + 1..n {
                col += f(geom.cell(i, j), geom.cell(l, j));
            }
        }
    }
    let mut sub = 0;
    for b in 0..n {
        let cs: Vec<usize> = geom.box_cells(b).collect();
        for x in 0..cs.len() {
            for y in x + 1..cs.len() {
                sub += f(cs[x], cs[y]);
            }
        }
    }
    row + col + sub
}

/// Mantere & Koljonen fitness, eq. (1) of Das et al. (conference version), to be minimised:
///
/// `f = 10 (sum_i g_i1 + sum_j g_j1) + (sum_i sqrt(g_i2) + sum_j sqrt(g_j2)) + 50 (sum_i g_i3 + sum_j g_j3)`
///
/// over rows i and columns j, with `g1 = |N(N+1)/2 - sum|`, `g2 = |N! - product|`, and `g3` the
/// number of symbols of 1..=N missing from the unit. Sub-squares are not in the formula because
/// the M&K representation keeps every sub-square a permutation. 0 exactly for a solved grid.
/// A blank cell contributes 0 to the sum and makes the product 0.
pub fn mk_fitness(geom: Geometry, cells: &[u8]) -> f64 {
    let n = geom.n();
    let target_sum = (n * (n + 1) / 2) as i64;
    let target_prod: u128 = (1..=n as u128).product();
    let mut s1 = 0i64;
    let mut s2 = 0f64;
    let mut s3 = 0u32;
    let full = geom.full_mask();
    let mut unit = |it: &mut dyn Iterator<Item = usize>| {
        let (mut sum, mut prod, mut mask) = (0i64, 1u128, 0u32);
        for c in it {
            let v = cells[c];
            sum += v as i64;
            prod *= v as u128;
            mask |= 1u32 << v;
        }
        s1 += (target_sum - sum).abs();
        s2 += (prod.abs_diff(target_prod) as f64).sqrt();
        s3 += (full & !mask).count_ones();
    };
    for r in 0..n {
        unit(&mut geom.row_cells(r));
    }
    for c in 0..n {
        unit(&mut geom.col_cells(c));
    }
    10.0 * s1 as f64 + s2 + 50.0 * s3 as f64
}

/// Plain transcription of eq. (1) of Das et al. with f64 arithmetic and set differences.
pub fn mk_fitness_paper(geom: Geometry, cells: &[u8]) -> f64 {
    let n = geom.n();
    let rows: Vec<Vec<u8>> = (0..n)
        .map(|r| geom.row_cells(r).map(|c| cells[c]).collect())
        .collect();
    let cols: Vec<Vec<u8>> = (0..n)
        .map(|c| geom.col_cells(c).map(|x| cells[x]).collect())
        .collect();
    let fact: f64 = (1..=n).map(|k| k as f64).product();
    let g1 =
        |x: &Vec<u8>| ((n * (n + 1) / 2) as f64 - x.iter().map(|&v| v as f64).sum::<f64>()).abs();
    let g2 = |x: &Vec<u8>| (fact - x.iter().map(|&v| v as f64).product::<f64>()).abs();
    let g3 = |x: &Vec<u8>| (1..=n as u8).filter(|s| !x.contains(s)).count() as f64;
    let t1: f64 = rows.iter().map(g1).sum::<f64>() + cols.iter().map(g1).sum::<f64>();
    let t2: f64 = rows.iter().map(|x| g2(x).sqrt()).sum::<f64>()
        + cols.iter().map(|x| g2(x).sqrt()).sum::<f64>();
    let t3: f64 = rows.iter().map(g3).sum::<f64>() + cols.iter().map(g3).sum::<f64>();
    10.0 * t1 + t2 + 50.0 * t3
}

/// RESEDA cost (Maire & Prissette, section 2): the number of symbols missing from each row,
/// column and block, summed. 0 exactly for a solved grid.
pub fn missing_symbols_cost(units: &Units, cells: &[u8]) -> u32 {
    missing_over(units, cells, units.count())
}

/// CSO / Lewis (2007) penalty: symbols missing from each row plus each column (boxes are kept
/// permutations by the representation, so they are not counted).
pub fn rows_cols_missing(units: &Units, cells: &[u8]) -> u32 {
    missing_over(units, cells, 2 * units.geometry().n())
}

#[inline]
fn missing_over(units: &Units, cells: &[u8], count: usize) -> u32 {
    let full = units.geometry().full_mask();
    (0..count)
        .map(|u| {
            let mask = units
                .unit(u)
                .iter()
                .fold(0u32, |m, &c| m | (1u32 << cells[c as usize]));
            (full & !mask).count_ones()
        })
        .sum()
}

/// Plain transcription of the missing-symbols cost over the first `count` units:
/// for each unit, the symbols 1..=N it does not contain.
pub fn missing_symbols_paper(units: &Units, cells: &[u8], count: usize) -> u32 {
    let n = units.geometry().n() as u8;
    (0..count)
        .map(|u| {
            let vals: Vec<u8> = units.unit(u).iter().map(|&c| cells[c as usize]).collect();
            (1..=n).filter(|s| !vals.contains(s)).count() as u32
        })
        .sum()
}
/// The fast Mantere-Koljonen evaluator (per-order product types), bit-identical to [`mk_fitness`].
pub use crate::mk_eval::MkEvaluator;

//! The papers' evaluation functions, each in a fast form (per-unit count tables or bit masks)
//! and in a plain transcription of the paper's formula (`*_paper`), which the tests compare on
//! random grids. Blank cells (0) never count as equal to anything and never as a present symbol.

use crate::geometry::{Geometry, Units};

/// Maximum of the Ret-GA fitness, `3 N^2 (N - 1) / 2` (972 for 9x9), Das et al. eq. (2)-(6).
pub fn ret_ga_max(geom: Geometry) -> u32 {
    let n = geom.n() as u32;
    3 * n * n * (n - 1) / 2
}

/// Largest number of units any supported order has (3 x 25).
const MAX_UNITS: usize = 75;
/// Count-table stride: symbols 0..=25.
const STRIDE: usize = 32;

/// Ret-GA pairwise-uniqueness fitness (Das, Bhatia, Puri, Deep, eqs. (2)-(6)): the number of
/// pairs of cells in a common row, column or sub-square holding different values. Maximal
/// (`ret_ga_max`) exactly for a solved grid.
///
/// Computed as `max - (equal pairs)`, where equal pairs are counted from per-unit count tables:
/// a cell of value v adds the number of earlier cells of value v in each of its three units.
/// That is one pass over the cells instead of the paper's `3 N * N(N-1)/2` comparisons.
#[derive(Debug, Clone)]
pub struct RetGaFitness {
    /// For each cell, the offsets of its row, column and box count rows in the table.
    offsets: Vec<[u16; 3]>,
    units: usize,
    max: u32,
}

impl RetGaFitness {
    pub fn new(units: &Units) -> Self {
        let offsets = (0..units.geometry().cells())
            .map(|c| {
                let u = units.of_cell(c);
                [
                    u[0] * STRIDE as u16,
                    u[1] * STRIDE as u16,
                    u[2] * STRIDE as u16,
                ]
            })
            .collect();
        RetGaFitness {
            offsets,
            units: units.count(),
            max: ret_ga_max(units.geometry()),
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
        let mut counts = [0u8; MAX_UNITS * STRIDE];
        let counts = &mut counts[..self.units * STRIDE];
        let mut equal = 0u32;
        for (&v, off) in cells.iter().zip(&self.offsets) {
            let v = v as usize;
            if v == 0 {
                continue;
            }
            let (a, b, c) = (off[0] as usize + v, off[1] as usize + v, off[2] as usize + v);
            equal += counts[a] as u32 + counts[b] as u32 + counts[c] as u32;
            counts[a] += 1;
            counts[b] += 1;
            counts[c] += 1;
        }
        // Blanks: pairs involving a blank are not "different values" either.
        let blanks = cells.iter().filter(|&&v| v == 0).count();
        if blanks == 0 {
            self.max - equal
        } else {
            self.max - equal - self.blank_pairs(cells)
        }
    }

    #[cold]
    fn blank_pairs(&self, cells: &[u8]) -> u32 {
        // A pair with at least one blank is not counted as distinct.
        let mut counts = vec![[0u32; 2]; self.units];
        let mut lost = 0;
        for (&v, off) in cells.iter().zip(&self.offsets) {
            for &o in off {
                let u = o as usize / STRIDE;
                let [filled, blank] = counts[u];
                if v == 0 {
                    // pairs with every earlier cell, minus equal pairs already subtracted (none)
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

/// Mantere & Koljonen fitness, eq. (1) of Das et al. (`000`), to be minimised:
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

/// Plain transcription of eq. (1) of `000` with f64 arithmetic and set differences.
pub fn mk_fitness_paper(geom: Geometry, cells: &[u8]) -> f64 {
    let n = geom.n();
    let rows: Vec<Vec<u8>> = (0..n)
        .map(|r| geom.row_cells(r).map(|c| cells[c]).collect())
        .collect();
    let cols: Vec<Vec<u8>> = (0..n)
        .map(|c| geom.col_cells(c).map(|x| cells[x]).collect())
        .collect();
    let fact: f64 = (1..=n).map(|k| k as f64).product();
    let g1 = |x: &Vec<u8>| ((n * (n + 1) / 2) as f64 - x.iter().map(|&v| v as f64).sum::<f64>()).abs();
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

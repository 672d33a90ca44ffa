//! The probability model p(i,j,k) and the samplers, as pure functions over flat buffers.

use crate::config::{BlockPick, Fallback};
use rand::seq::SliceRandom;
use rand::Rng;
use sudoku_core::Geometry;

/// Probabilities per cell and symbol: `p[cell * n + (k - 1)]`, with the puzzle's givens fixed
/// at probability 1 and, per cell, the mask of symbols its constraints allow.
#[derive(Debug, Clone)]
pub struct Model {
    pub geom: Geometry,
    pub n: usize,
    /// The puzzle's cells (0 = free).
    pub givens: Vec<u8>,
    /// Free cells, row-major.
    pub free: Vec<u16>,
    /// Symbols (bit k) a cell may take: the given for a given cell; for a free cell, with the
    /// pre-computed constraints the symbols not in V_ij, else all symbols.
    pub allowed: Vec<u32>,
    pub p: Vec<f64>,
}

/// Mask of the symbols given in each row, column and box (V_ij is the union of a cell's three).
fn unit_given_masks(geom: Geometry, cells: &[u8]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let n = geom.n();
    let (mut r, mut c, mut b) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            r[geom.row_of(i)] |= 1 << v;
            c[geom.col_of(i)] |= 1 << v;
            b[geom.box_of(i)] |= 1 << v;
        }
    }
    (r, c, b)
}

impl Model {
    /// The initial distribution of section 2.1: probability 1 for the givens; for a free cell,
    /// uniform over the symbols outside V_ij ("the set of all the symbols corresponding to the
    /// points in G that have a column, a row or a block 3 x 3 in common with the cell") when
    /// `precompute`, else uniform over all N symbols.
    pub fn new(geom: Geometry, cells: &[u8], precompute: bool) -> Self {
        let n = geom.n();
        let full = geom.full_mask();
        let (rm, cm, bm) = unit_given_masks(geom, cells);
        let mut allowed = vec![0u32; cells.len()];
        let mut p = vec![0.0; cells.len() * n];
        let mut free = Vec::new();
        for (i, &v) in cells.iter().enumerate() {
            allowed[i] = if v != 0 {
                1 << v
            } else {
                free.push(i as u16);
                if precompute {
                    full & !(rm[geom.row_of(i)] | cm[geom.col_of(i)] | bm[geom.box_of(i)])
                } else {
                    full
                }
            };
            let m = allowed[i];
            let share = 1.0 / m.count_ones().max(1) as f64;
            for k in 1..=n {
                if m & (1 << k) != 0 {
                    p[i * n + k - 1] = share;
                }
            }
        }
        Model {
            geom,
            n,
            givens: cells.to_vec(),
            free,
            allowed,
            p,
        }
    }

    #[inline]
    pub fn probs(&self, cell: usize) -> &[f64] {
        &self.p[cell * self.n..(cell + 1) * self.n]
    }

    /// rho(n) = min over cells of max over symbols of p (section 2.3). Given cells have max 1
    /// and never lower the minimum, so only free cells are visited; 1.0 when none is free.
    pub fn rho(&self) -> f64 {
        self.free
            .iter()
            .map(|&c| self.probs(c as usize).iter().copied().fold(0.0, f64::max))
            .fold(1.0, f64::min)
    }

    /// p <- alpha p + (1 - alpha) r, with r the empirical distribution of the elite samples
    /// (section 2.2). `elite` yields the elite samples' cells.
    pub fn update<'a>(&mut self, alpha: f64, elite: impl Iterator<Item = &'a [u8]> + Clone) {
        let n = self.n;
        let count = elite.clone().count().max(1) as f64;
        let w = (1.0 - alpha) / count;
        for &c in &self.free {
            let c = c as usize;
            for x in &mut self.p[c * n..(c + 1) * n] {
                *x *= alpha;
            }
        }
        for s in elite {
            for &c in &self.free {
                let c = c as usize;
                let v = s[c] as usize;
                self.p[c * n + v - 1] += w;
            }
        }
    }

    /// The most probable symbol of every cell (first on ties).
    pub fn most_probable(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.givens);
        for &c in &self.free {
            let c = c as usize;
            let pr = self.probs(c);
            let mut best = 0;
            for k in 1..self.n {
                if pr[k] > pr[best] {
                    best = k;
                }
            }
            out[c] = best as u8 + 1;
        }
    }
}

/// Draw index k with probability `w[k] / total` (total > 0).
#[inline]
fn draw<R: Rng + ?Sized>(w: &[f64], total: f64, rng: &mut R) -> usize {
    let mut u = rng.random::<f64>() * total;
    let mut last = 0;
    for (k, &x) in w.iter().enumerate() {
        if x > 0.0 {
            last = k;
            if u < x {
                return k;
            }
            u -= x;
        }
    }
    last
}

/// Independent sampling: every free cell draws its symbol from p (strategy "pre-computation":
/// the constraints live in p, whose forbidden symbols are 0 from the start and stay 0).
pub fn sample_independent<R: Rng + ?Sized>(model: &Model, out: &mut [u8], rng: &mut R) {
    out.copy_from_slice(&model.givens);
    for &c in &model.free {
        let c = c as usize;
        let pr = model.probs(c);
        let total: f64 = pr.iter().sum();
        out[c] = if total > 0.0 {
            draw(pr, total, rng) as u8 + 1
        } else {
            random_symbol(model.allowed[c], rng)
        };
    }
}

#[inline]
fn random_symbol<R: Rng + ?Sized>(mask: u32, rng: &mut R) -> u8 {
    let mut m = mask;
    for _ in 0..rng.random_range(0..mask.count_ones().max(1)) {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

/// Scratch space for the block sampler, allocated once per run.
#[derive(Debug, Clone, Default)]
pub struct BlockScratch {
    cells: Vec<usize>,
    weights: Vec<f64>,
    rest: Vec<u8>,
}

/// Block-permutation sampling (section 3.1): in each block, "first pick a symbol in the cell
/// having the highest probability. Once this symbol is picked, it is removed from the possible
/// symbols of the remaining cells of the block and the probabilities in these cells are
/// recomputed ... This method is iterated until the last cell is filled." Given cells have
/// probability 1 and are placed first. When a remaining cell has no remaining symbol of
/// positive probability, `fallback` fills the rest of the block.
pub fn sample_block_permutations<R: Rng + ?Sized>(
    model: &Model,
    pick: BlockPick,
    fallback: Fallback,
    out: &mut [u8],
    scratch: &mut BlockScratch,
    rng: &mut R,
) {
    let geom = model.geom;
    let n = model.n;
    out.copy_from_slice(&model.givens);
    for b in 0..n {
        scratch.cells.clear();
        let mut used = 0u32;
        for c in geom.box_cells(b) {
            if model.givens[c] != 0 {
                used |= 1 << model.givens[c];
            } else {
                scratch.cells.push(c);
            }
        }
        while !scratch.cells.is_empty() {
            // Renormalised distributions of the remaining cells over the unused symbols.
            let mut best_cell = usize::MAX;
            let mut best_key = -1.0f64;
            let mut best_symbol = 0usize;
            let mut stuck = false;
            for (i, &c) in scratch.cells.iter().enumerate() {
                let pr = model.probs(c);
                let mut total = 0.0;
                let mut top = 0.0;
                let mut top_k = 0;
                for (k, &x) in pr.iter().enumerate() {
                    if used & (1 << (k + 1)) == 0 {
                        total += x;
                        if x > top {
                            top = x;
                            top_k = k;
                        }
                    }
                }
                if total <= 0.0 {
                    stuck = true;
                    break;
                }
                let key = top / total;
                if key > best_key {
                    best_key = key;
                    best_cell = i;
                    best_symbol = top_k;
                }
            }
            if stuck {
                fill_fallback(model, fallback, used, out, scratch, rng);
                break;
            }
            let c = scratch.cells[best_cell];
            let k = match pick {
                BlockPick::ArgmaxCellSymbol => best_symbol,
                BlockPick::DrawInMostCertainCell => {
                    let pr = model.probs(c);
                    scratch.weights.clear();
                    scratch.weights.extend((0..n).map(|k| {
                        if used & (1 << (k + 1)) == 0 {
                            pr[k]
                        } else {
                            0.0
                        }
                    }));
                    let total: f64 = scratch.weights.iter().sum();
                    draw(&scratch.weights, total, rng)
                }
            };
            out[c] = k as u8 + 1;
            used |= 1 << (k + 1);
            scratch.cells.swap_remove(best_cell);
        }
    }
}

fn fill_fallback<R: Rng + ?Sized>(
    model: &Model,
    fallback: Fallback,
    used: u32,
    out: &mut [u8],
    scratch: &mut BlockScratch,
    rng: &mut R,
) {
    match fallback {
        Fallback::RemainingSymbols => {
            scratch.rest.clear();
            scratch
                .rest
                .extend((1..=model.n as u8).filter(|&k| used & (1 << k) == 0));
            scratch.rest.shuffle(rng);
            for (&c, &k) in scratch.cells.iter().zip(&scratch.rest) {
                out[c] = k;
            }
        }
        Fallback::AllowedSymbols => {
            for &c in &scratch.cells {
                out[c] = random_symbol(model.allowed[c], rng);
            }
        }
    }
}

//! The probability model p(i,j,k) and the samplers, as pure functions over flat buffers.

use crate::config::{BlockPick, CellOrder, Fallback};
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

/// Over the symbols of `pr` not in `used` (bit k + 1 for symbol index k): their total
/// probability, the largest one and its index (the first on ties).
#[inline]
fn unused_mass(pr: &[f64], used: u32) -> (f64, f64, usize) {
    let (mut total, mut top, mut top_k) = (0.0, 0.0, 0);
    for (k, &x) in pr.iter().enumerate() {
        if used & (1 << (k + 1)) == 0 {
            total += x;
            if x > top {
                top = x;
                top_k = k;
            }
        }
    }
    (total, top, top_k)
}

/// The renormalised order's next cell (see [`CellOrder::Renormalised`]): among `cells`, the
/// index of the cell whose largest probability, renormalised over the symbols not in `used`
/// (bit k = symbol k), is the highest (the first on ties), with that symbol (0-based, the
/// smallest on ties). `None` as soon as a cell has no unused symbol of positive probability.
pub fn most_certain_cell(model: &Model, used: u32, cells: &[usize]) -> Option<(usize, usize)> {
    let mut best_cell = usize::MAX;
    let mut best_key = -1.0f64;
    let mut best_symbol = 0usize;
    for (i, &c) in cells.iter().enumerate() {
        let (total, top, top_k) = unused_mass(model.probs(c), used);
        if total <= 0.0 {
            return None;
        }
        let key = top / total;
        if key > best_key {
            best_key = key;
            best_cell = i;
            best_symbol = top_k;
        }
    }
    Some((best_cell, best_symbol))
}

/// The key of a fixed cell order, larger first: [`CellOrder::Raw`] the cell's largest raw
/// probability, [`CellOrder::Static`] the largest probability of the initial distribution
/// p^(0) (uniform over the cell's allowed symbols, as in [`Model::new`]), [`CellOrder::Box`]
/// none (0 for every cell). [`CellOrder::Renormalised`] is no fixed order: 0 as well.
fn fixed_order_key(model: &Model, order: CellOrder, cell: usize) -> f64 {
    match order {
        CellOrder::Raw => model.probs(cell).iter().copied().fold(0.0, f64::max),
        CellOrder::Static => 1.0 / model.allowed[cell].count_ones().max(1) as f64,
        CellOrder::Box | CellOrder::Renormalised => 0.0,
    }
}

/// Sort a block's free `cells`, given in box order, into the fixed order `order` (see
/// [`CellOrder`]): by decreasing key, a stable sort, so ties stay in box order. Leaves the
/// cells in box order for [`CellOrder::Box`] and [`CellOrder::Renormalised`] (which re-picks
/// with [`most_certain_cell`] instead).
pub fn fixed_cell_order(model: &Model, order: CellOrder, cells: &mut [usize]) {
    if matches!(order, CellOrder::Raw | CellOrder::Static) {
        cells.sort_by(|&a, &b| {
            fixed_order_key(model, order, b).total_cmp(&fixed_order_key(model, order, a))
        });
    }
}

/// Block-permutation sampling (section 3.1): in each block, "first pick a symbol in the cell
/// having the highest probability. Once this symbol is picked, it is removed from the possible
/// symbols of the remaining cells of the block and the probabilities in these cells are
/// recomputed ... This method is iterated until the last cell is filled." Given cells have
/// probability 1 and are placed first. `order` says which cell is filled next (see
/// [`CellOrder`]), `pick` which symbol it gets. When the cell to fill (with
/// [`CellOrder::Renormalised`]: any remaining cell) has no remaining symbol of positive
/// probability, `fallback` fills the rest of the block.
pub fn sample_block_permutations<R: Rng + ?Sized>(
    model: &Model,
    pick: BlockPick,
    order: CellOrder,
    fallback: Fallback,
    out: &mut [u8],
    scratch: &mut BlockScratch,
    rng: &mut R,
) {
    let geom = model.geom;
    out.copy_from_slice(&model.givens);
    for b in 0..model.n {
        scratch.cells.clear();
        let mut used = 0u32;
        for c in geom.box_cells(b) {
            if model.givens[c] != 0 {
                used |= 1 << model.givens[c];
            } else {
                scratch.cells.push(c);
            }
        }
        if order == CellOrder::Renormalised {
            while !scratch.cells.is_empty() {
                let Some((i, best_symbol)) = most_certain_cell(model, used, &scratch.cells) else {
                    fill_fallback(
                        model,
                        fallback,
                        used,
                        &scratch.cells,
                        &mut scratch.rest,
                        out,
                        rng,
                    );
                    break;
                };
                let c = scratch.cells[i];
                let k = pick_symbol(model, pick, c, used, best_symbol, &mut scratch.weights, rng);
                out[c] = k as u8 + 1;
                used |= 1 << (k + 1);
                scratch.cells.swap_remove(i);
            }
        } else {
            fixed_cell_order(model, order, &mut scratch.cells);
            for i in 0..scratch.cells.len() {
                let c = scratch.cells[i];
                let (total, _, top_k) = unused_mass(model.probs(c), used);
                if total <= 0.0 {
                    fill_fallback(
                        model,
                        fallback,
                        used,
                        &scratch.cells[i..],
                        &mut scratch.rest,
                        out,
                        rng,
                    );
                    break;
                }
                let k = pick_symbol(model, pick, c, used, top_k, &mut scratch.weights, rng);
                out[c] = k as u8 + 1;
                used |= 1 << (k + 1);
            }
        }
    }
}

/// The symbol (0-based) for cell `c`: `argmax` (its most probable unused symbol) or a draw from
/// its probabilities over the symbols not in `used`, which have a positive total.
fn pick_symbol<R: Rng + ?Sized>(
    model: &Model,
    pick: BlockPick,
    c: usize,
    used: u32,
    argmax: usize,
    weights: &mut Vec<f64>,
    rng: &mut R,
) -> usize {
    match pick {
        BlockPick::ArgmaxCellSymbol => argmax,
        BlockPick::DrawInMostCertainCell => {
            let pr = model.probs(c);
            weights.clear();
            weights.extend((0..model.n).map(|k| {
                if used & (1 << (k + 1)) == 0 {
                    pr[k]
                } else {
                    0.0
                }
            }));
            let total: f64 = weights.iter().sum();
            draw(weights, total, rng)
        }
    }
}

fn fill_fallback<R: Rng + ?Sized>(
    model: &Model,
    fallback: Fallback,
    used: u32,
    cells: &[usize],
    rest: &mut Vec<u8>,
    out: &mut [u8],
    rng: &mut R,
) {
    match fallback {
        Fallback::RemainingSymbols => {
            rest.clear();
            rest.extend((1..=model.n as u8).filter(|&k| used & (1 << k) == 0));
            rest.shuffle(rng);
            for (&c, &k) in cells.iter().zip(rest.iter()) {
                out[c] = k;
            }
        }
        Fallback::AllowedSymbols => {
            for &c in cells {
                out[c] = random_symbol(model.allowed[c], rng);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 model (2x2 boxes) whose block 0 (cells 0, 1, 4, 5) has these probabilities.
    fn model(cells: &[u8], precompute: bool, block0: [[f64; 4]; 4]) -> Model {
        let geom = Geometry::for_order(4).unwrap();
        let mut m = Model::new(geom, cells, precompute);
        for (&c, pr) in [0usize, 1, 4, 5].iter().zip(block0) {
            m.p[c * 4..c * 4 + 4].copy_from_slice(&pr);
        }
        m
    }

    const P: [[f64; 4]; 4] = [
        [0.3, 0.5, 0.2, 0.0],   // cell 0: max 0.5
        [0.0, 0.9, 0.1, 0.0],   // cell 1: max 0.9
        [0.1, 0.1, 0.2, 0.6],   // cell 4: max 0.6
        [0.45, 0.45, 0.1, 0.0], // cell 5: max 0.45
    ];

    /// Symbols as bits (bit k = symbol k).
    fn used(symbols: &[u8]) -> u32 {
        symbols.iter().fold(0, |m, &k| m | 1 << k)
    }

    #[test]
    fn fixed_cell_orders() {
        // Givens r0c3 = 1, r3c0 = 2, r1c3 = 3: with the pre-computed constraints cells 0 and 4
        // allow 2 symbols ({3, 4}, {1, 4}), cells 1 and 5 allow 3.
        let mut givens = vec![0u8; 16];
        givens[3] = 1;
        givens[12] = 2;
        givens[7] = 3;
        let empty = vec![0u8; 16];
        let cases: [(&[u8], bool, CellOrder, [usize; 4]); 8] = [
            (&givens, true, CellOrder::Raw, [1, 4, 0, 5]),
            (&givens, true, CellOrder::Static, [0, 4, 1, 5]),
            (&givens, true, CellOrder::Box, [0, 1, 4, 5]),
            (&givens, true, CellOrder::Renormalised, [0, 1, 4, 5]),
            (&givens, false, CellOrder::Static, [0, 1, 4, 5]),
            (&empty, true, CellOrder::Static, [0, 1, 4, 5]),
            (&empty, false, CellOrder::Raw, [1, 4, 0, 5]),
            (&empty, false, CellOrder::Box, [0, 1, 4, 5]),
        ];
        for (cells, precompute, order, want) in cases {
            let m = model(cells, precompute, P);
            let mut got = [0usize, 1, 4, 5];
            fixed_cell_order(&m, order, &mut got);
            assert_eq!(got, want, "{order:?}, precompute {precompute}");
        }
        // Raw ties (cells 1 and 5 both at 0.9) stay in box order.
        let mut tie = P;
        tie[3] = [0.05, 0.9, 0.05, 0.0];
        let m = model(&empty, false, tie);
        let mut got = [0usize, 1, 4, 5];
        fixed_cell_order(&m, CellOrder::Raw, &mut got);
        assert_eq!(got, [1, 5, 4, 0]);
    }

    #[test]
    fn renormalised_next_cell() {
        let m = model(&[0u8; 16], false, P);
        // (remaining cells, used symbols, expected (index in the list, 0-based symbol))
        type Case<'a> = (&'a [usize], &'a [u8], Option<(usize, usize)>);
        let cases: [Case; 7] = [
            // Raw maxima 0.5, 0.9, 0.6, 0.45: cell 1, symbol 2.
            (&[0, 1, 4, 5], &[], Some((1, 1))),
            // Without symbol 2: cell 1 renormalises to symbol 3 with 1.0.
            (&[0, 1, 4, 5], &[2], Some((1, 2))),
            // Without symbol 2 and cell 1: 0.6, 0.667, 0.818 (cell 5, symbol 1), though
            // cell 5 has the smallest raw maximum.
            (&[0, 4, 5], &[2], Some((2, 0))),
            (&[0, 5, 4], &[2], Some((1, 0))),
            // Without symbols 1 and 2: cell 0 is certain of symbol 3 (1.0 against 0.75).
            (&[0, 4], &[1, 2], Some((0, 2))),
            // Ties go to the first cell of the list.
            (&[5, 5], &[], Some((0, 0))),
            // Cell 1 has no unused symbol of positive probability.
            (&[0, 1, 4, 5], &[2, 3], None),
        ];
        for (cells, symbols, want) in cases {
            assert_eq!(
                most_certain_cell(&m, used(symbols), cells),
                want,
                "{cells:?} without {symbols:?}"
            );
        }
    }

    /// The block each order builds with the argmax pick (deterministic), from the same model.
    #[test]
    fn sampler_follows_each_order() {
        let m = model(&[0u8; 16], false, P);
        let cases = [
            // Cell 1 -> 2; then cell 5 (0.818) -> 1; cell 0 (1.0) -> 3; cell 4 -> 4.
            (CellOrder::Renormalised, [3, 2, 4, 1]),
            // Cells 1, 4, 0, 5: 2, 4, 1, 3.
            (CellOrder::Raw, [1, 2, 4, 3]),
            // Cells 0, 1, 4, 5 (static is box order without givens): 2, 3, 4, 1.
            (CellOrder::Static, [2, 3, 4, 1]),
            (CellOrder::Box, [2, 3, 4, 1]),
        ];
        let mut rng = sudoku_core::rng_from_seed(1);
        let mut scratch = BlockScratch::default();
        let mut out = vec![0u8; 16];
        for (order, want) in cases {
            sample_block_permutations(
                &m,
                BlockPick::ArgmaxCellSymbol,
                order,
                Fallback::RemainingSymbols,
                &mut out,
                &mut scratch,
                &mut rng,
            );
            assert_eq!([out[0], out[1], out[4], out[5]], want, "{order:?}");
        }
    }
}

//! The operators of the Mantere & Koljonen GA as pure functions over flat row-major grids
//! (`cells[r * N + c]`, the layout of [`sudoku_core::Grid`]).
//!
//! Every operator keeps the invariant of the representation: the givens are never touched
//! and every box holds a permutation of 1..=N (for a puzzle whose givens do not repeat a
//! symbol inside a box). All randomness comes from the `rng` argument; nothing allocates.
//!
//! The puzzle-dependent tables (free cells of each box, missing values of each box, and the
//! "help array" of forbidden values per cell) live in a [`BoxLayout`], built once per run.

use rand::Rng;
use sudoku_core::{Geometry, Grid};

/// Largest order the bit masks support (symbols 1..=25 in a `u32`; boxes 0..25 in a `u32`).
const MAX_N: usize = 25;

/// Puzzle-dependent tables shared by every operator.
#[derive(Debug, Clone)]
pub struct BoxLayout {
    geom: Geometry,
    n: usize,
    /// The puzzle's cells: a given's value, 0 for a free cell.
    givens: Vec<u8>,
    /// Box index of every cell.
    box_of: Vec<u8>,
    /// Free (non-given) cells grouped by box; inside a box in row-major ("box") order.
    free: Vec<u16>,
    /// Box `b` owns `free[free_start[b]..free_start[b + 1]]`.
    free_start: Vec<u32>,
    /// Values absent from the givens of each box, ascending.
    missing: Vec<u8>,
    missing_start: Vec<u32>,
    /// The help array: for every cell, the mask (bit v = symbol v) of the values that are
    /// givens in the cell's row or column.
    forbidden: Vec<u32>,
    /// Boxes with at least 2 free cells (where a swap or an insertion is possible).
    boxes2: Vec<u8>,
    /// Boxes with at least 3 free cells (where a 3-swap is possible).
    boxes3: Vec<u8>,
    /// Boxes side by side in a band (N / box_cols).
    per_band: usize,
    /// For each pattern p of `per_band` bits (bit k = the k-th box of a band comes from the
    /// second parent), the byte mask of one band (box_rows x N cells, row-major): 0xFF in the
    /// cells of the selected boxes, else 0.
    band_masks: Vec<u8>,
}

impl BoxLayout {
    /// The tables of a puzzle grid (0 = free cell).
    ///
    /// # Panics
    /// When the order exceeds 25 (cannot happen for a [`Geometry`] of sudoku-core).
    pub fn new(puzzle: &Grid) -> Self {
        let geom = puzzle.geometry();
        let n = geom.n();
        assert!(n <= MAX_N, "order {n} above {MAX_N}");
        let givens = puzzle.cells().to_vec();
        let box_of = (0..geom.cells()).map(|c| geom.box_of(c) as u8).collect();

        let mut row_mask = vec![0u32; n];
        let mut col_mask = vec![0u32; n];
        for (c, &v) in givens.iter().enumerate() {
            if v != 0 {
                row_mask[geom.row_of(c)] |= 1 << v;
                col_mask[geom.col_of(c)] |= 1 << v;
            }
        }
        let forbidden = (0..geom.cells())
            .map(|c| row_mask[geom.row_of(c)] | col_mask[geom.col_of(c)])
            .collect();

        let (mut free, mut free_start) = (Vec::new(), vec![0u32]);
        let (mut missing, mut missing_start) = (Vec::new(), vec![0u32]);
        let (mut boxes2, mut boxes3) = (Vec::new(), Vec::new());
        for b in 0..n {
            let mut present = 0u32;
            let before = free.len();
            for c in geom.box_cells(b) {
                match givens[c] {
                    0 => free.push(c as u16),
                    v => present |= 1 << v,
                }
            }
            free_start.push(free.len() as u32);
            missing.extend((1..=n as u8).filter(|&v| present & (1 << v) == 0));
            missing_start.push(missing.len() as u32);
            let k = free.len() - before;
            if k >= 2 {
                boxes2.push(b as u8);
            }
            if k >= 3 {
                boxes3.push(b as u8);
            }
        }
        let per_band = geom.boxes_per_band();
        let band_len = geom.box_rows() * n;
        let mut band_masks = vec![0u8; (1 << per_band) * band_len];
        for p in 0..1usize << per_band {
            for i in 0..band_len {
                if p >> ((i % n) / geom.box_cols()) & 1 != 0 {
                    band_masks[p * band_len + i] = 0xFF;
                }
            }
        }
        BoxLayout {
            geom,
            n,
            per_band,
            band_masks,
            givens,
            box_of,
            free,
            free_start,
            missing,
            missing_start,
            forbidden,
            boxes2,
            boxes3,
        }
    }

    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geom
    }
    /// Order N.
    #[inline]
    pub fn n(&self) -> usize {
        self.n
    }
    /// Number of cells, N^2.
    #[inline]
    pub fn cells(&self) -> usize {
        self.givens.len()
    }
    /// The puzzle's cells (0 = free).
    #[inline]
    pub fn givens(&self) -> &[u8] {
        &self.givens
    }
    /// Box index of a cell.
    #[inline]
    pub fn box_of(&self, cell: usize) -> usize {
        self.box_of[cell] as usize
    }
    /// The free cells of box `b`, in box (row-major) order.
    #[inline]
    pub fn free_cells(&self, b: usize) -> &[u16] {
        &self.free[self.free_start[b] as usize..self.free_start[b + 1] as usize]
    }
    /// The values missing from the givens of box `b`, ascending. As many as the free cells,
    /// unless the givens repeat a symbol inside the box (then more).
    #[inline]
    pub fn missing_values(&self, b: usize) -> &[u8] {
        &self.missing[self.missing_start[b] as usize..self.missing_start[b + 1] as usize]
    }
    /// The help-array mask of a cell: bit v set when v is a given in the cell's row or column.
    #[inline]
    pub fn forbidden(&self, cell: usize) -> u32 {
        self.forbidden[cell]
    }
    /// Boxes with at least `k` free cells (`k` = 2 or 3; any other `k` gives every box with
    /// at least 2, resp. 3, free cells by rounding to the nearer table).
    #[inline]
    pub fn boxes_with_free(&self, k: usize) -> &[u8] {
        if k >= 3 {
            &self.boxes3
        } else {
            &self.boxes2
        }
    }
}

/// How the boxes of a child are taken from its two parents. The sources say only that whole
/// sub-blocks are exchanged ("crossover positions are restricted to being between only the
/// sub-blocks", a paraphrase in a tertiary source); how the points are chosen is not stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CrossoverKind {
    /// Each box from either parent with probability 0.5 (one fair coin per box).
    #[default]
    UniformBoxes,
    /// One cut point k uniform in 1..N-1 between boxes in row-major box order: boxes 0..k
    /// from the first parent, boxes k..N from the second.
    OnePointBoxes,
}

/// The three mutation operators of M&K.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MutationKind {
    Swap,
    ThreeSwap,
    Insertion,
}

impl MutationKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            MutationKind::Swap => "swap",
            MutationKind::ThreeSwap => "3-swap",
            MutationKind::Insertion => "insertion",
        }
    }
}

/// Relative weights of swap, 3-swap and insertion. Das et al. (conference version, section 3): "the
/// swap mutation, 3-swap mutation and insertion mutation with a probability ratio of 0.5:0.3:0.2".
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MutationRatios {
    pub swap: f64,
    pub three_swap: f64,
    pub insertion: f64,
}

impl Default for MutationRatios {
    fn default() -> Self {
        MutationRatios {
            swap: 0.5,
            three_swap: 0.3,
            insertion: 0.2,
        }
    }
}

impl MutationRatios {
    /// Sum of the weights.
    pub fn total(&self) -> f64 {
        self.swap + self.three_swap + self.insertion
    }

    /// Draw a kind in proportion to the weights (one uniform draw). Requires valid weights
    /// (non-negative, sum > 0); a kind of weight 0 is never drawn.
    #[inline]
    pub fn pick<R: Rng + ?Sized>(&self, rng: &mut R) -> MutationKind {
        let u = rng.random::<f64>() * self.total();
        if self.swap > 0.0 && u < self.swap {
            MutationKind::Swap
        } else if self.three_swap > 0.0 && u < self.swap + self.three_swap {
            MutationKind::ThreeSwap
        } else if self.insertion > 0.0 {
            MutationKind::Insertion
        } else if self.three_swap > 0.0 {
            // Only reached through rounding of `u * total` up to `total`.
            MutationKind::ThreeSwap
        } else {
            MutationKind::Swap
        }
    }
}

/// Result of one mutation attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Attempt {
    /// The mutation was legal and has been applied.
    Applied,
    /// The drawn mutation would put a value where the help array forbids it; nothing changed.
    Illegal,
    /// No box has enough free cells for this operator; nothing changed and nothing was drawn.
    Impossible,
}

/// What [`mutate`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MutationReport {
    /// The kind drawn (drawn once per mutation; the retries redraw box and positions only).
    pub kind: MutationKind,
    /// True when a legal mutation was applied.
    pub applied: bool,
    /// Illegal attempts rejected on the way.
    pub illegal: u32,
}

/// `true` with probability `p` (no draw for p <= 0 or p >= 1).
#[inline]
pub fn chance<R: Rng + ?Sized>(rng: &mut R, p: f64) -> bool {
    if p >= 1.0 {
        true
    } else if p <= 0.0 {
        false
    } else {
        rng.random::<f64>() < p
    }
}

/// The help-array test: may `value` be placed in `cell`? False when `value` is a given in the
/// cell's row or column.
#[inline]
pub fn is_legal(layout: &BoxLayout, cell: usize, value: u8) -> bool {
    clash(layout, cell, value) == 0
}

/// 1 when the help array forbids `value` in `cell`, else 0 (combined with `|` so that a
/// multi-cell move costs one branch, not one per cell).
#[inline(always)]
fn clash(layout: &BoxLayout, cell: usize, value: u8) -> u32 {
    (layout.forbidden[cell] >> value) & 1
}

/// Fill the free cells of box `b` with a uniformly random permutation of the values missing
/// from its givens (the givens themselves are not written). When the givens repeat a symbol in
/// the box (an invalid puzzle) there are more missing values than free cells, and a uniformly
/// random arrangement of a subset is written.
pub fn init_box_permutation<R: Rng + ?Sized>(
    layout: &BoxLayout,
    b: usize,
    cells: &mut [u8],
    rng: &mut R,
) {
    let free = layout.free_cells(b);
    let missing = layout.missing_values(b);
    let m = missing.len();
    let mut buf = [0u8; MAX_N];
    buf[..m].copy_from_slice(missing);
    // Forward Fisher-Yates, stopped after the free cells are filled.
    for (k, &c) in free.iter().enumerate() {
        if k + 1 < m {
            let j = k + below(rng, m - k);
            buf.swap(k, j);
        }
        cells[c as usize] = buf[k];
    }
}

/// A whole random individual: the givens, and every box a random permutation of its missing values
/// (M&K's initialisation as described by Das et al., conference version, section 3: "they take care
/// of non-repetition of the numbers in each sub-square").
pub fn init_individual<R: Rng + ?Sized>(layout: &BoxLayout, cells: &mut [u8], rng: &mut R) {
    cells.copy_from_slice(&layout.givens);
    for b in 0..layout.n {
        init_box_permutation(layout, b, cells, rng);
    }
}

/// Box-exchange crossover: `child` receives every box whole from `a` or from `b`. Returns the
/// mask of the boxes taken from `b` (bit k = box k).
pub fn crossover_boxes<R: Rng + ?Sized>(
    layout: &BoxLayout,
    kind: CrossoverKind,
    a: &[u8],
    b: &[u8],
    child: &mut [u8],
    rng: &mut R,
) -> u32 {
    let n = layout.n;
    let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    let mask = match kind {
        CrossoverKind::UniformBoxes => rng.random::<u32>() & all,
        CrossoverKind::OnePointBoxes => {
            let k = 1 + below(rng, n - 1);
            all & !((1u32 << k) - 1)
        }
    };
    copy_boxes(layout, mask, a, b, child);
    mask
}

/// `child` = the boxes of `b` whose bit is set in `mask`, the other boxes of `a`.
#[inline]
pub fn copy_boxes(layout: &BoxLayout, mask: u32, a: &[u8], b: &[u8], child: &mut [u8]) {
    let (n, per_band) = (layout.n, layout.per_band);
    let band_len = layout.geom.box_rows() * n;
    let pattern_bits = (1u32 << per_band) - 1;
    for t in 0..n / layout.geom.box_rows() {
        let range = t * band_len..(t + 1) * band_len;
        let (a, b, child) = (&a[range.clone()], &b[range.clone()], &mut child[range]);
        match (mask >> (t * per_band)) & pattern_bits {
            0 => child.copy_from_slice(a),
            p if p == pattern_bits => child.copy_from_slice(b),
            p => {
                let m = &layout.band_masks[p as usize * band_len..(p as usize + 1) * band_len];
                select_bytes(child, a, b, m);
            }
        }
    }
}

/// `out[i] = if m[i] == 0xFF { b[i] } else { a[i] }` for byte masks, 16 bytes at a time.
#[inline(always)]
fn select_bytes(out: &mut [u8], a: &[u8], b: &[u8], m: &[u8]) {
    const W: usize = 16;
    let mut o = out.chunks_exact_mut(W);
    let (mut ac, mut bc, mut mc) = (a.chunks_exact(W), b.chunks_exact(W), m.chunks_exact(W));
    for (((o, a), b), m) in (&mut o).zip(&mut ac).zip(&mut bc).zip(&mut mc) {
        for i in 0..W {
            o[i] = (a[i] & !m[i]) | (b[i] & m[i]);
        }
    }
    for (((o, a), b), m) in o
        .into_remainder()
        .iter_mut()
        .zip(ac.remainder())
        .zip(bc.remainder())
        .zip(mc.remainder())
    {
        *o = (a & !m) | (b & m);
    }
}

/// A uniform integer in 0..n (1 <= n < 2^32): Lemire's multiply-and-reject on 32-bit draws,
/// exactly uniform, one draw except with probability < n / 2^32. Written out here (rather than
/// `random_range`) so it inlines into the operators and its values do not depend on rand's
/// choice of algorithm.
#[inline(always)]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    debug_assert!(n >= 1 && n <= u32::MAX as usize);
    let n = n as u32;
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as usize
}

/// A random box with at least `k` free cells.
#[inline]
fn pick_box<R: Rng + ?Sized>(layout: &BoxLayout, k: usize, rng: &mut R) -> Option<usize> {
    let boxes = layout.boxes_with_free(k);
    match boxes.len() {
        0 => None,
        len => Some(boxes[below(rng, len)] as usize),
    }
}

/// Two distinct indices in 0..len (len >= 2), uniformly among ordered pairs.
#[inline]
fn two_distinct<R: Rng + ?Sized>(len: usize, rng: &mut R) -> (usize, usize) {
    let i = below(rng, len);
    let mut j = below(rng, len - 1);
    if j >= i {
        j += 1;
    }
    (i, j)
}

/// Swap mutation: exchange the values of two distinct free cells of a random box (among the
/// boxes with at least two free cells), unless the help array forbids either new placement.
pub fn swap_mutation<R: Rng + ?Sized>(
    layout: &BoxLayout,
    cells: &mut [u8],
    rng: &mut R,
) -> Attempt {
    let Some(b) = pick_box(layout, 2, rng) else {
        return Attempt::Impossible;
    };
    let free = layout.free_cells(b);
    let (i, j) = two_distinct(free.len(), rng);
    let (ci, cj) = (free[i] as usize, free[j] as usize);
    let (vi, vj) = (cells[ci], cells[cj]);
    if clash(layout, ci, vj) | clash(layout, cj, vi) == 0 {
        cells[ci] = vj;
        cells[cj] = vi;
        Attempt::Applied
    } else {
        Attempt::Illegal
    }
}

/// 3-swap mutation: rotate the values of three distinct free cells c1, c2, c3 of a random box
/// (among the boxes with at least three free cells): the value of c1 moves to c2, that of c2
/// to c3 and that of c3 to c1. The three cells are an ordered draw, so both rotation senses
/// are equally likely. Rejected when the help array forbids any new placement.
pub fn three_swap_mutation<R: Rng + ?Sized>(
    layout: &BoxLayout,
    cells: &mut [u8],
    rng: &mut R,
) -> Attempt {
    let Some(b) = pick_box(layout, 3, rng) else {
        return Attempt::Impossible;
    };
    let free = layout.free_cells(b);
    let (i, j) = two_distinct(free.len(), rng);
    let (lo, hi) = if i < j { (i, j) } else { (j, i) };
    let mut k = below(rng, free.len() - 2);
    if k >= lo {
        k += 1;
    }
    if k >= hi {
        k += 1;
    }
    let (c1, c2, c3) = (free[i] as usize, free[j] as usize, free[k] as usize);
    let (v1, v2, v3) = (cells[c1], cells[c2], cells[c3]);
    if clash(layout, c2, v1) | clash(layout, c3, v2) | clash(layout, c1, v3) == 0 {
        cells[c2] = v1;
        cells[c3] = v2;
        cells[c1] = v3;
        Attempt::Applied
    } else {
        Attempt::Illegal
    }
}

/// Insertion mutation: in a random box (among the boxes with at least two free cells), take
/// the value of the free cell at position p of the box's free cells (box order) and insert it
/// at position q != p, shifting the values in between by one position towards p. Rejected
/// when the help array forbids any new placement (the moved value or a shifted one).
pub fn insertion_mutation<R: Rng + ?Sized>(
    layout: &BoxLayout,
    cells: &mut [u8],
    rng: &mut R,
) -> Attempt {
    let Some(b) = pick_box(layout, 2, rng) else {
        return Attempt::Impossible;
    };
    let free = layout.free_cells(b);
    let (p, q) = two_distinct(free.len(), rng);
    let moved = cells[free[p] as usize];
    let mut clashes = clash(layout, free[q] as usize, moved);
    if p < q {
        // Values at p+1..=q move one position back.
        for k in p..q {
            clashes |= clash(layout, free[k] as usize, cells[free[k + 1] as usize]);
        }
        if clashes != 0 {
            return Attempt::Illegal;
        }
        for k in p..q {
            cells[free[k] as usize] = cells[free[k + 1] as usize];
        }
    } else {
        // Values at q..p move one position forward.
        for k in q + 1..=p {
            clashes |= clash(layout, free[k] as usize, cells[free[k - 1] as usize]);
        }
        if clashes != 0 {
            return Attempt::Illegal;
        }
        for k in (q + 1..=p).rev() {
            cells[free[k] as usize] = cells[free[k - 1] as usize];
        }
    }
    cells[free[q] as usize] = moved;
    Attempt::Applied
}

/// One attempt of a given kind.
#[inline]
pub fn mutation_attempt<R: Rng + ?Sized>(
    kind: MutationKind,
    layout: &BoxLayout,
    cells: &mut [u8],
    rng: &mut R,
) -> Attempt {
    match kind {
        MutationKind::Swap => swap_mutation(layout, cells, rng),
        MutationKind::ThreeSwap => three_swap_mutation(layout, cells, rng),
        MutationKind::Insertion => insertion_mutation(layout, cells, rng),
    }
}

/// One mutation: draw the kind by `ratios`, then try it; an illegal attempt is rejected and a
/// new box and new positions are drawn, up to `retries` more times (so at most `1 + retries`
/// attempts). When the kind is impossible for this puzzle nothing happens.
pub fn mutate<R: Rng + ?Sized>(
    layout: &BoxLayout,
    ratios: &MutationRatios,
    retries: u32,
    cells: &mut [u8],
    rng: &mut R,
) -> MutationReport {
    let kind = ratios.pick(rng);
    let mut illegal = 0;
    for _ in 0..=retries {
        match mutation_attempt(kind, layout, cells, rng) {
            Attempt::Applied => {
                return MutationReport {
                    kind,
                    applied: true,
                    illegal,
                }
            }
            Attempt::Illegal => illegal += 1,
            Attempt::Impossible => break,
        }
    }
    MutationReport {
        kind,
        applied: false,
        illegal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::{rng_from_seed, Geometry, Grid};

    /// A 4x4 puzzle used by the hand-made tables:
    /// ```text
    /// 1 . | . .
    /// . . | 3 .
    /// ----+----
    /// . 4 | . .
    /// . . | . 2
    /// ```
    fn small() -> Grid {
        let g = Geometry::new(2, 2).unwrap();
        #[rustfmt::skip]
        let cells = vec![
            1, 0, 0, 0,
            0, 0, 3, 0,
            0, 4, 0, 0,
            0, 0, 0, 2,
        ];
        Grid::from_cells(g, cells).unwrap()
    }

    fn easy() -> Grid {
        sudoku_core::bank_puzzle("mk_easy").unwrap().grid.clone()
    }

    fn box_is_permutation(layout: &BoxLayout, cells: &[u8], b: usize) -> bool {
        let g = layout.geometry();
        let mask = g.box_cells(b).fold(0u32, |m, c| m | 1 << cells[c]);
        mask == g.full_mask()
    }

    #[test]
    fn layout_tables_of_a_small_puzzle() {
        let l = BoxLayout::new(&small());
        // (box, free cells, missing values)
        let table: [(usize, &[u16], &[u8]); 4] = [
            (0, &[1, 4, 5], &[2, 3, 4]),
            (1, &[2, 3, 7], &[1, 2, 4]),
            (2, &[8, 12, 13], &[1, 2, 3]),
            (3, &[10, 11, 14], &[1, 3, 4]),
        ];
        for (b, free, missing) in table {
            assert_eq!(l.free_cells(b), free, "box {b}");
            assert_eq!(l.missing_values(b), missing, "box {b}");
        }
        // (cell, forbidden values)
        let forb: [(usize, &[u8]); 5] = [
            (1, &[1, 4]),  // row 0 has 1, column 1 has 4
            (5, &[3, 4]),  // row 1 has 3, column 1 has 4
            (10, &[3, 4]), // row 2 has 4, column 2 has 3
            (15, &[2]),    // row 3 and column 3 have 2
            (12, &[1, 2]), // row 3 has 2, column 0 has 1
        ];
        for (c, vals) in forb {
            let mask = vals.iter().fold(0u32, |m, &v| m | 1 << v);
            assert_eq!(l.forbidden(c), mask, "cell {c}");
        }
        assert_eq!(l.boxes_with_free(2), &[0, 1, 2, 3]);
        assert_eq!(l.boxes_with_free(3), &[0, 1, 2, 3]);
    }

    #[test]
    fn is_legal_table() {
        let l = BoxLayout::new(&small());
        // (cell, value, legal)
        let table = [
            (1, 1, false),
            (1, 4, false),
            (1, 2, true),
            (1, 3, true),
            (5, 3, false),
            (5, 2, true),
            (12, 1, false),
            (12, 3, true),
            (15, 2, false),
            (15, 1, true),
        ];
        for (c, v, legal) in table {
            assert_eq!(is_legal(&l, c, v), legal, "cell {c} value {v}");
        }
    }

    #[test]
    fn init_fills_boxes_with_permutations_keeping_givens() {
        for puzzle in [small(), easy()] {
            let l = BoxLayout::new(&puzzle);
            let mut cells = vec![0u8; l.cells()];
            for seed in 0..200 {
                let mut rng = rng_from_seed(seed);
                init_individual(&l, &mut cells, &mut rng);
                let grid = Grid::from_cells(l.geometry(), cells.clone()).unwrap();
                assert!(grid.keeps_givens_of(&puzzle));
                for b in 0..l.n() {
                    assert!(box_is_permutation(&l, &cells, b), "seed {seed} box {b}");
                }
            }
        }
    }

    #[test]
    fn init_is_uniform_enough() {
        // Box 0 of the 4x4 puzzle: 3 free cells, 3! = 6 arrangements, each ~1/6.
        let l = BoxLayout::new(&small());
        let mut cells = vec![0u8; 16];
        let mut counts = std::collections::HashMap::new();
        let mut rng = rng_from_seed(7);
        for _ in 0..6000 {
            init_box_permutation(&l, 0, &mut cells, &mut rng);
            *counts.entry((cells[1], cells[4], cells[5])).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 6);
        assert!(
            counts.values().all(|&k| (850..1150).contains(&k)),
            "{counts:?}"
        );
    }

    #[test]
    fn crossover_table() {
        let l = BoxLayout::new(&small());
        let a: Vec<u8> = (0..16)
            .map(|i| {
                if l.givens()[i] != 0 {
                    l.givens()[i]
                } else {
                    10
                }
            })
            .collect();
        let b: Vec<u8> = (0..16)
            .map(|i| {
                if l.givens()[i] != 0 {
                    l.givens()[i]
                } else {
                    20
                }
            })
            .collect();
        let mut child = vec![0u8; 16];
        // (mask of boxes from b, expected cells): boxes are {0,1,4,5}, {2,3,6,7}, {8,9,12,13}, {10,11,14,15}
        #[rustfmt::skip]
        let table: [(u32, [u8; 16]); 3] = [
            (0b0000, [1,10,10,10, 10,10,3,10, 10,4,10,10, 10,10,10,2]),
            (0b0101, [1,20,10,10, 20,20,3,10, 20,4,10,10, 20,20,10,2]),
            (0b1110, [1,10,20,20, 10,10,3,20, 20,4,20,20, 20,20,20,2]),
        ];
        for (mask, expected) in table {
            copy_boxes(&l, mask, &a, &b, &mut child);
            assert_eq!(child, expected, "mask {mask:04b}");
        }
    }

    #[test]
    fn copy_boxes_matches_reference_on_every_shape() {
        let mut rng = rng_from_seed(12);
        for &(br, bc) in &sudoku_core::geometry::SUPPORTED_SHAPES {
            let g = Geometry::new(br, bc).unwrap();
            let l = BoxLayout::new(&Grid::empty(g));
            let a: Vec<u8> = (0..g.cells()).map(|i| (i % 200) as u8).collect();
            let b: Vec<u8> = (0..g.cells()).map(|i| 255 - (i % 50) as u8).collect();
            let mut child = vec![0u8; g.cells()];
            for _ in 0..50 {
                let mask = rng.random::<u32>() & ((1u32 << g.n()) - 1);
                copy_boxes(&l, mask, &a, &b, &mut child);
                for c in 0..g.cells() {
                    let want = if mask >> g.box_of(c) & 1 == 1 {
                        b[c]
                    } else {
                        a[c]
                    };
                    assert_eq!(child[c], want, "{br}x{bc} mask {mask:b} cell {c}");
                }
            }
        }
    }

    #[test]
    fn crossover_kinds_mask_shapes() {
        let l = BoxLayout::new(&easy());
        let a = vec![0u8; 81];
        let mut child = vec![0u8; 81];
        let mut rng = rng_from_seed(3);
        let mut seen_uniform = 0u32;
        for _ in 0..500 {
            let m = crossover_boxes(
                &l,
                CrossoverKind::UniformBoxes,
                &a,
                &a,
                &mut child,
                &mut rng,
            );
            assert!(m < 1 << 9);
            seen_uniform |= m;
            let m = crossover_boxes(
                &l,
                CrossoverKind::OnePointBoxes,
                &a,
                &a,
                &mut child,
                &mut rng,
            );
            // boxes k..9 from b: a run of ones ending at bit 8, neither empty nor full
            let k = m.trailing_zeros();
            assert!((1..9).contains(&k), "{m:b}");
            assert_eq!(m, ((1u32 << 9) - 1) & !((1u32 << k) - 1));
        }
        assert_eq!(seen_uniform, (1 << 9) - 1);
    }

    #[test]
    fn swap_and_three_swap_on_hand_tables() {
        // An unconstrained 4x4 (no givens): every move is legal, so the operators always apply.
        let g = Geometry::new(2, 2).unwrap();
        let l = BoxLayout::new(&Grid::empty(g));
        let mut rng = rng_from_seed(11);
        #[rustfmt::skip]
        let start: Vec<u8> = vec![1,2,1,2, 3,4,3,4, 1,2,1,2, 3,4,3,4];
        for kind in [
            MutationKind::Swap,
            MutationKind::ThreeSwap,
            MutationKind::Insertion,
        ] {
            for _ in 0..200 {
                let mut cells = start.clone();
                assert_eq!(
                    mutation_attempt(kind, &l, &mut cells, &mut rng),
                    Attempt::Applied
                );
                let changed: Vec<usize> = (0..16).filter(|&i| cells[i] != start[i]).collect();
                let boxes: Vec<usize> = changed.iter().map(|&c| l.box_of(c)).collect();
                // (kind, allowed numbers of changed cells)
                let expected: &[usize] = match kind {
                    MutationKind::Swap => &[2],
                    MutationKind::ThreeSwap => &[3],
                    MutationKind::Insertion => &[2, 3, 4],
                };
                assert!(expected.contains(&changed.len()), "{kind:?} {changed:?}");
                assert!(boxes.windows(2).all(|w| w[0] == w[1]), "one box only");
                for b in 0..4 {
                    assert!(box_is_permutation(&l, &cells, b));
                }
            }
        }
    }

    #[test]
    fn insertion_shifts_in_box_order() {
        // Box 0 of an empty 4x4: free cells [0, 1, 4, 5] holding 1, 2, 3, 4 in box order.
        // Every insertion result is one of the 12 "remove at p, insert at q" arrangements.
        let g = Geometry::new(2, 2).unwrap();
        let l = BoxLayout::new(&Grid::empty(g));
        #[rustfmt::skip]
        let start: Vec<u8> = vec![1,2,1,2, 3,4,3,4, 1,2,1,2, 3,4,3,4];
        let mut expected = std::collections::HashSet::new();
        for p in 0..4 {
            for q in 0..4 {
                if p != q {
                    let mut v = vec![1u8, 2, 3, 4];
                    let x = v.remove(p);
                    v.insert(q, x);
                    expected.insert(v);
                }
            }
        }
        // Adjacent p, q give the same arrangement in both orders: 12 ordered pairs, 9 results.
        assert_eq!(expected.len(), 9);
        let mut seen = std::collections::HashSet::new();
        let mut rng = rng_from_seed(5);
        for _ in 0..2000 {
            let mut cells = start.clone();
            assert_eq!(
                insertion_mutation(&l, &mut cells, &mut rng),
                Attempt::Applied
            );
            if (0..16).any(|i| cells[i] != start[i] && l.box_of(i) == 0) {
                let v = vec![cells[0], cells[1], cells[4], cells[5]];
                assert!(expected.contains(&v), "{v:?}");
                seen.insert(v);
            }
        }
        assert_eq!(seen, expected);
    }

    #[test]
    fn illegal_moves_are_rejected_without_change() {
        // 4x4 with givens forcing: row 0 = [1 . . .]; cell 1 may not take 1 or 4.
        let l = BoxLayout::new(&small());
        let mut rng = rng_from_seed(9);
        let mut cells = vec![0u8; 16];
        let (mut applied, mut illegal) = (0, 0);
        for _ in 0..3000 {
            init_individual(&l, &mut cells, &mut rng);
            let before = cells.clone();
            for kind in [
                MutationKind::Swap,
                MutationKind::ThreeSwap,
                MutationKind::Insertion,
            ] {
                let mut c = before.clone();
                match mutation_attempt(kind, &l, &mut c, &mut rng) {
                    Attempt::Applied => {
                        applied += 1;
                        for i in 0..16 {
                            if c[i] != before[i] {
                                assert!(is_legal(&l, i, c[i]), "{kind:?} put {} in {i}", c[i]);
                            }
                        }
                    }
                    Attempt::Illegal => {
                        illegal += 1;
                        assert_eq!(c, before);
                    }
                    Attempt::Impossible => unreachable!(),
                }
            }
        }
        assert!(applied > 0 && illegal > 0, "{applied} {illegal}");
    }

    #[test]
    fn impossible_when_boxes_are_too_full() {
        // A solved 4x4 minus two cells in box 0: swap/insertion possible only there; no 3-swap.
        let g = Geometry::new(2, 2).unwrap();
        #[rustfmt::skip]
        let mut cells = vec![1,2,3,4, 3,4,1,2, 2,1,4,3, 4,3,2,1];
        cells[0] = 0;
        cells[5] = 0;
        let l = BoxLayout::new(&Grid::from_cells(g, cells).unwrap());
        assert_eq!(l.boxes_with_free(2), &[0]);
        assert!(l.boxes_with_free(3).is_empty());
        let mut rng = rng_from_seed(1);
        let mut x = vec![0u8; 16];
        init_individual(&l, &mut x, &mut rng);
        let before = x.clone();
        assert_eq!(
            three_swap_mutation(&l, &mut x, &mut rng),
            Attempt::Impossible
        );
        assert_eq!(x, before);
    }

    #[test]
    fn ratios_pick_in_proportion() {
        let mut rng = rng_from_seed(2);
        // (ratios, expected shares)
        let table = [
            (MutationRatios::default(), [0.5, 0.3, 0.2]),
            (
                MutationRatios {
                    swap: 1.0,
                    three_swap: 0.0,
                    insertion: 0.0,
                },
                [1.0, 0.0, 0.0],
            ),
            (
                MutationRatios {
                    swap: 0.0,
                    three_swap: 0.0,
                    insertion: 3.0,
                },
                [0.0, 0.0, 1.0],
            ),
            (
                MutationRatios {
                    swap: 1.0,
                    three_swap: 1.0,
                    insertion: 0.0,
                },
                [0.5, 0.5, 0.0],
            ),
        ];
        for (r, shares) in table {
            let mut k = [0u32; 3];
            for _ in 0..20000 {
                k[r.pick(&mut rng) as usize] += 1;
            }
            for i in 0..3 {
                let share = k[i] as f64 / 20000.0;
                assert!((share - shares[i]).abs() < 0.015, "{r:?}: {k:?}");
                if shares[i] == 0.0 {
                    assert_eq!(k[i], 0);
                }
            }
        }
    }

    #[test]
    fn below_is_uniform_and_in_range() {
        let mut rng = rng_from_seed(8);
        // (n, draws)
        for (n, draws) in [
            (1usize, 100usize),
            (2, 20000),
            (3, 30000),
            (7, 70000),
            (25, 250000),
        ] {
            let mut k = vec![0usize; n];
            for _ in 0..draws {
                k[below(&mut rng, n)] += 1;
            }
            let expect = (draws / n) as f64;
            assert!(
                k.iter()
                    .all(|&x| (x as f64 - expect).abs() < 5.0 * expect.sqrt() + 1.0),
                "{n}: {k:?}"
            );
        }
    }

    #[test]
    fn chance_edges() {
        let mut rng = rng_from_seed(4);
        assert!((0..100).all(|_| chance(&mut rng, 1.0)));
        assert!((0..100).all(|_| !chance(&mut rng, 0.0)));
        let k = (0..10000).filter(|_| chance(&mut rng, 0.25)).count();
        assert!((2300..2700).contains(&k));
    }
}

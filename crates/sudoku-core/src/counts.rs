//! Row and column count tables for solvers on the box-permutation encoding (every box holds
//! 1..=N once, so only rows and columns can conflict): how often each value occurs in each row
//! and column, the cost they imply (values missing from the rows plus the columns, Lewis's
//! cost, 0 exactly for a solution), and the incremental cost of swapping two cells of one box.
//! Shared by the solvers that swap within boxes (`lewis-sa`, `hill-climb` and the crates
//! `sudoku-lab new-solver` writes), so that the count arithmetic exists once.
//!
//! Nothing here allocates after [`UnitCounts::new`]: the hot loop only indexes the tables.

/// Where each cell lies: its row and its column, and the order. A solver's per-puzzle layout
/// implements it so the count tables can index their units.
pub trait CellUnits {
    /// The order N.
    fn order(&self) -> usize;
    /// Each cell's row.
    fn rows_of(&self) -> &[u8];
    /// Each cell's column.
    fn cols_of(&self) -> &[u8];
}

/// How often each value occurs in each row and each column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitCounts {
    /// Stride N + 1: `rows[r * (N + 1) + v]` is how often v occurs in row r (index 0 unused).
    rows: Vec<u8>,
    cols: Vec<u8>,
    stride: usize,
    n: usize,
}

impl UnitCounts {
    /// The tables of `cells` (one value per cell of `layout`'s grid).
    pub fn new<L: CellUnits + ?Sized>(layout: &L, cells: &[u8]) -> Self {
        let n = layout.order();
        let stride = n + 1;
        let mut c = UnitCounts {
            rows: vec![0; n * stride],
            cols: vec![0; n * stride],
            stride,
            n,
        };
        c.recount(layout, cells);
        c
    }

    /// Rebuild the tables from `cells` (after a restart or re-randomisation).
    pub fn recount<L: CellUnits + ?Sized>(&mut self, layout: &L, cells: &[u8]) {
        self.rows.fill(0);
        self.cols.fill(0);
        let (rows_of, cols_of) = (layout.rows_of(), layout.cols_of());
        for (cell, &v) in cells.iter().enumerate() {
            let v = v as usize;
            self.rows[rows_of[cell] as usize * self.stride + v] += 1;
            self.cols[cols_of[cell] as usize * self.stride + v] += 1;
        }
    }

    /// The full cost from the tables: values 1..=N with count 0, over every row and column.
    pub fn cost(&self) -> u32 {
        let missing = |t: &[u8]| -> u32 {
            t.chunks_exact(self.stride)
                .map(|unit| unit[1..].iter().filter(|&&k| k == 0).count() as u32)
                .sum()
        };
        missing(&self.rows) + missing(&self.cols)
    }

    /// How often `v` occurs in row `r`.
    #[inline]
    pub fn row_count(&self, r: usize, v: u8) -> u8 {
        self.rows[r * self.stride + v as usize]
    }

    /// How often `v` occurs in column `c`.
    #[inline]
    pub fn col_count(&self, c: usize, v: u8) -> u8 {
        self.cols[c * self.stride + v as usize]
    }

    /// Change of the missing-value count of one unit (table `t`, offset `base`) when it loses
    /// one `out` and gains one `inn` (`out != inn`).
    #[inline]
    fn unit_delta(t: &[u8], base: usize, out: u8, inn: u8) -> i32 {
        i32::from(t[base + out as usize] == 1) - i32::from(t[base + inn as usize] == 0)
    }

    /// The cost change of swapping the values of cells `a` and `b` (two free cells of one box,
    /// so their values differ): only the rows and the columns of `a` and `b` change, and a row
    /// (column) they share does not change at all.
    #[inline]
    pub fn swap_delta<L: CellUnits + ?Sized>(
        &self,
        layout: &L,
        cells: &[u8],
        a: usize,
        b: usize,
    ) -> i32 {
        let (x, y) = (cells[a], cells[b]);
        debug_assert_ne!(x, y, "two cells of a box-permutation hold different values");
        let (rows_of, cols_of) = (layout.rows_of(), layout.cols_of());
        let (ra, rb) = (rows_of[a] as usize, rows_of[b] as usize);
        let (ca, cb) = (cols_of[a] as usize, cols_of[b] as usize);
        let s = self.stride;
        let mut d = 0;
        if ra != rb {
            d += Self::unit_delta(&self.rows, ra * s, x, y)
                + Self::unit_delta(&self.rows, rb * s, y, x);
        }
        if ca != cb {
            d += Self::unit_delta(&self.cols, ca * s, x, y)
                + Self::unit_delta(&self.cols, cb * s, y, x);
        }
        d
    }

    /// Swap the values of `a` and `b` in `cells` and update the tables.
    #[inline]
    pub fn apply_swap<L: CellUnits + ?Sized>(
        &mut self,
        layout: &L,
        cells: &mut [u8],
        a: usize,
        b: usize,
    ) {
        let (x, y) = (cells[a] as usize, cells[b] as usize);
        let (rows_of, cols_of) = (layout.rows_of(), layout.cols_of());
        let (ra, rb) = (rows_of[a] as usize, rows_of[b] as usize);
        let (ca, cb) = (cols_of[a] as usize, cols_of[b] as usize);
        let s = self.stride;
        if ra != rb {
            self.rows[ra * s + x] -= 1;
            self.rows[ra * s + y] += 1;
            self.rows[rb * s + y] -= 1;
            self.rows[rb * s + x] += 1;
        }
        if ca != cb {
            self.cols[ca * s + x] -= 1;
            self.cols[ca * s + y] += 1;
            self.cols[cb * s + y] -= 1;
            self.cols[cb * s + x] += 1;
        }
        cells.swap(a, b);
    }

    /// The order N.
    pub fn n(&self) -> usize {
        self.n
    }
}

#[cfg(test)]
mod tests {
    use super::{CellUnits, UnitCounts};

    /// A 4x4 grid's rows and columns.
    struct Four {
        rows: Vec<u8>,
        cols: Vec<u8>,
    }

    impl CellUnits for Four {
        fn order(&self) -> usize {
            4
        }
        fn rows_of(&self) -> &[u8] {
            &self.rows
        }
        fn cols_of(&self) -> &[u8] {
            &self.cols
        }
    }

    /// Every swap of two cells of one box: the incremental cost equals the cost recounted
    /// after the swap, from a solution and from a grid with conflicts.
    #[test]
    fn a_swap_costs_what_a_recount_says() {
        let layout = Four {
            rows: (0..16).map(|c| (c / 4) as u8).collect(),
            cols: (0..16).map(|c| (c % 4) as u8).collect(),
        };
        // Boxes of a 4x4 grid: cells (r, c) with r / 2, c / 2.
        let box_of = |c: usize| (c / 4 / 2) * 2 + (c % 4) / 2;
        let solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let scrambled = [2, 1, 3, 4, 4, 3, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        for (grid, cost) in [(solution, 0), (scrambled, 4)] {
            let counts = UnitCounts::new(&layout, &grid);
            assert_eq!(counts.cost(), cost, "{grid:?}");
            for a in 0..16 {
                for b in (a + 1)..16 {
                    if box_of(a) != box_of(b) || grid[a] == grid[b] {
                        continue;
                    }
                    let (mut cells, mut after) = (grid, counts.clone());
                    let delta = counts.swap_delta(&layout, &grid, a, b);
                    after.apply_swap(&layout, &mut cells, a, b);
                    let fresh = UnitCounts::new(&layout, &cells);
                    assert_eq!(after, fresh, "swap {a} {b}");
                    assert_eq!(cost as i32 + delta, fresh.cost() as i32, "swap {a} {b}");
                }
            }
        }
        assert_eq!(UnitCounts::new(&layout, &solution).row_count(0, 3), 1);
        assert_eq!(UnitCounts::new(&layout, &solution).col_count(0, 3), 1);
    }
}

//! The operators as pure functions, each tested on a table of cases: the per-puzzle layout
//! (free cells of each box and the values each box misses), the random box-permutation fill,
//! the swap move, and the row and column count tables with the incremental cost of a swap.
//!
//! Nothing here allocates after construction: [`Layout`] and [`Counts`] are built once per run
//! and the hot loop only indexes their tables.

use rand::seq::SliceRandom;
use rand::Rng;
use sudoku_core::{Geometry, Grid};

/// Per-puzzle tables, built once per run.
#[derive(Debug, Clone)]
pub struct Layout {
    pub geom: Geometry,
    /// The puzzle's cells (0 = free).
    pub givens: Vec<u8>,
    /// Each cell's row and column.
    pub row_of: Vec<u8>,
    pub col_of: Vec<u8>,
    /// Each box's free cells, row-major inside the box.
    pub free: Vec<Vec<u16>>,
    /// The values each box misses among its givens, ascending (one per free cell of a valid
    /// puzzle).
    pub missing: Vec<Vec<u8>>,
    /// The boxes with at least two free cells: the only boxes a move can use.
    pub swappable: Vec<usize>,
    /// The number of free cells of the puzzle.
    pub free_cells: usize,
}

impl Layout {
    pub fn new(puzzle: &Grid) -> Self {
        let geom = puzzle.geometry();
        let n = geom.n();
        let givens = puzzle.cells().to_vec();
        let free: Vec<Vec<u16>> = (0..n)
            .map(|b| {
                let cells = geom.box_cells(b).filter(|&c| givens[c] == 0);
                cells.map(|c| c as u16).collect()
            })
            .collect();
        let missing = (0..n)
            .map(|b| {
                let mut present = vec![false; n + 1];
                for c in geom.box_cells(b) {
                    present[givens[c] as usize] = true;
                }
                (1..=n as u8).filter(|&v| !present[v as usize]).collect()
            })
            .collect();
        let swappable = (0..n).filter(|&b| free[b].len() >= 2).collect();
        Layout {
            geom,
            row_of: (0..geom.cells()).map(|c| geom.row_of(c) as u8).collect(),
            col_of: (0..geom.cells()).map(|c| geom.col_of(c) as u8).collect(),
            free_cells: free.iter().map(Vec::len).sum(),
            givens,
            free,
            missing,
            swappable,
        }
    }

    /// A random solution of the encoding: the free cells of each box get a uniformly random
    /// permutation of the values the box misses, so every box holds 1..=N once and the givens
    /// stay. Boxes are filled in index order, one shuffle each.
    pub fn random_fill<R: Rng + ?Sized>(
        &self,
        cells: &mut [u8],
        scratch: &mut Vec<u8>,
        rng: &mut R,
    ) {
        cells.copy_from_slice(&self.givens);
        for (free, missing) in self.free.iter().zip(&self.missing) {
            scratch.clear();
            scratch.extend_from_slice(missing);
            scratch.shuffle(rng);
            for (&c, &v) in free.iter().zip(scratch.iter()) {
                cells[c as usize] = v;
            }
        }
    }

    /// A move: a box drawn uniformly among the boxes with at least two free cells, then two
    /// distinct free cells of it uniformly. None when no box has two free cells.
    #[inline]
    pub fn pick_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<(usize, usize)> {
        if self.swappable.is_empty() {
            return None;
        }
        let free = &self.free[self.swappable[rng.random_range(0..self.swappable.len())]];
        let i = rng.random_range(0..free.len());
        let mut j = rng.random_range(0..free.len() - 1);
        if j >= i {
            j += 1;
        }
        Some((free[i] as usize, free[j] as usize))
    }
}

/// The row and column count tables and their incremental swap cost, shared with the other
/// box-swap solvers (`sudoku_core::counts`): 0 exactly for a solution when every box is a
/// permutation.
pub use sudoku_core::UnitCounts as Counts;

impl sudoku_core::CellUnits for Layout {
    fn order(&self) -> usize {
        self.geom.n()
    }
    fn rows_of(&self) -> &[u8] {
        &self.row_of
    }
    fn cols_of(&self) -> &[u8] {
        &self.col_of
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::fitness::rows_cols_missing;
    use sudoku_core::{bank_puzzle, rng_from_seed, Units};

    /// Puzzles of three orders and box shapes (4x4 with 2x2 boxes, 6x6 with 2x3, 9x9).
    const PUZZLES: &[(&str, &str)] = &[
        ("4x4", "1.3..4.22..3.3.1"),
        ("6x6", "1.3.5..5.1.32..5.4.6..3.3.2..5.4.3.2"),
        ("9x9", "mk_easy"),
    ];

    fn puzzle(text: &str) -> Grid {
        if text.starts_with("mk_") {
            return bank_puzzle(text).unwrap().grid.clone();
        }
        let geom = Geometry::for_cell_count(text.len()).unwrap();
        Grid::from_line(geom, text).unwrap()
    }

    /// The fill keeps every given, makes every box a permutation and touches no other cell.
    #[test]
    fn random_fill_keeps_givens_and_makes_boxes_permutations() {
        for (name, text) in PUZZLES {
            let p = puzzle(text);
            let layout = Layout::new(&p);
            let mut cells = vec![0; p.cells().len()];
            let mut scratch = Vec::new();
            for seed in 0..20 {
                layout.random_fill(&mut cells, &mut scratch, &mut rng_from_seed(seed));
                let g = Grid::from_cells(p.geometry(), cells.clone()).unwrap();
                assert!(g.keeps_givens_of(&p), "{name} seed {seed}");
                for b in 0..p.geometry().n() {
                    let mut v: Vec<u8> = p.geometry().box_cells(b).map(|c| cells[c]).collect();
                    v.sort_unstable();
                    let want: Vec<u8> = (1..=p.geometry().n() as u8).collect();
                    assert_eq!(v, want, "{name} seed {seed} box {b}");
                }
            }
        }
    }

    /// A move is two distinct free cells of one box.
    #[test]
    fn moves_swap_two_free_cells_of_one_box() {
        for (name, text) in PUZZLES {
            let p = puzzle(text);
            let layout = Layout::new(&p);
            let mut rng = rng_from_seed(7);
            for _ in 0..500 {
                let (a, b) = layout.pick_move(&mut rng).unwrap();
                assert_ne!(a, b, "{name}");
                assert_eq!(p.cells()[a], 0, "{name}");
                assert_eq!(p.cells()[b], 0, "{name}");
                let g = p.geometry();
                assert_eq!(g.box_of(a), g.box_of(b), "{name}");
            }
        }
        // A grid with no free cell has no move.
        let full = puzzle("1234341221434321");
        assert_eq!(Layout::new(&full).pick_move(&mut rng_from_seed(1)), None);
    }

    /// The incremental cost of a swap equals the full cost after it, for every case of the
    /// table, and applying the swap keeps the tables equal to a recount.
    #[test]
    fn swap_delta_equals_the_full_cost_change() {
        for (name, text) in PUZZLES {
            let p = puzzle(text);
            let layout = Layout::new(&p);
            let units = Units::new(p.geometry());
            let mut cells = vec![0; p.cells().len()];
            layout.random_fill(&mut cells, &mut Vec::new(), &mut rng_from_seed(3));
            let mut counts = Counts::new(&layout, &cells);
            let mut rng = rng_from_seed(4);
            for step in 0..300 {
                let before = counts.cost();
                assert_eq!(before, rows_cols_missing(&units, &cells), "{name} {step}");
                let (a, b) = layout.pick_move(&mut rng).unwrap();
                let delta = counts.swap_delta(&layout, &cells, a, b);
                counts.apply_swap(&layout, &mut cells, a, b);
                assert_eq!(counts.cost() as i32, before as i32 + delta, "{name} {step}");
                assert_eq!(counts, Counts::new(&layout, &cells), "{name} {step}");
            }
        }
    }

    /// The cost of known grids: a solution costs 0, and each case below its count of values
    /// missing from rows plus columns.
    #[test]
    fn cost_of_known_grids() {
        let cases: &[(&str, u32)] = &[
            // A solved 4x4 grid.
            ("1234341221434321", 0),
            // Its first two cells swapped: row 1 stays complete, columns 1 and 2 each miss
            // one value.
            ("2134341221434321", 2),
            // Its cells r1c1 and r2c2 swapped: rows 1 and 2 and columns 1 and 2 each miss one.
            ("4234311221434321", 4),
        ];
        for (text, want) in cases {
            let g = puzzle(text);
            let layout = Layout::new(&Grid::empty(g.geometry()));
            assert_eq!(Counts::new(&layout, g.cells()).cost(), *want, "{text}");
            let units = Units::new(g.geometry());
            assert_eq!(rows_cols_missing(&units, g.cells()), *want, "{text}");
        }
    }
}

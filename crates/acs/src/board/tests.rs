//! The board against a plain transcription of the authors' `Board` (scans of each unit at each
//! constraint), and the propagation rules on known grids.

use super::*;
use rand::Rng as _;

/// The code's `Board`, transcribed as written: value sets only, every union recomputed by
/// scanning the cell's box, column and row.
#[derive(Clone)]
pub(crate) struct Reference {
    geom: Geometry,
    pub(crate) cand: Vec<u32>,
    fixed_cells: u32,
    infeasible: u32,
}

impl Reference {
    pub(crate) fn from_givens(geom: Geometry, cells: &[u8]) -> Self {
        let full = ((1u64 << geom.n()) - 1) as u32;
        let mut r = Reference {
            geom,
            cand: vec![full; geom.cells()],
            fixed_cells: 0,
            infeasible: 0,
        };
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                r.set_cell(i, 1 << (v - 1));
            }
        }
        r
    }

    fn unit_cells(&self, i: usize) -> [Vec<usize>; 3] {
        let g = self.geom;
        [
            g.box_cells(g.box_of(i)).collect(),
            g.col_cells(g.col_of(i)).collect(),
            g.row_cells(g.row_of(i)).collect(),
        ]
    }

    pub(crate) fn set_cell(&mut self, i: usize, c: u32) {
        if is_single(self.cand[i]) {
            return;
        }
        self.cand[i] = c;
        self.fixed_cells += 1;
        let [bx, col, row] = self.unit_cells(i);
        for j in 0..self.geom.n() {
            for k in [bx[j], col[j], row[j]] {
                if k != i {
                    self.constrain(k);
                }
            }
        }
    }

    fn constrain(&mut self, i: usize) {
        if self.cand[i] == 0 || is_single(self.cand[i]) {
            return;
        }
        let full = ((1u64 << self.geom.n()) - 1) as u32;
        let [bx, col, row] = self.unit_cells(i);
        let (mut fixed, mut all) = (0u32, [0u32; 3]);
        for (u, cells) in [&row, &col, &bx].into_iter().enumerate() {
            for &k in cells.iter().filter(|&&k| k != i) {
                if is_single(self.cand[k]) {
                    fixed |= self.cand[k];
                }
                all[u] |= self.cand[k];
            }
        }
        let allowed = full & !fixed;
        if is_single(allowed) {
            self.set_cell(i, allowed);
        } else {
            self.cand[i] &= allowed;
            let m = self.cand[i];
            if is_single(m & !all[0]) {
                self.set_cell(i, m & !all[0]);
            } else if is_single(m & !all[1]) {
                self.set_cell(i, m & !all[1]);
            } else if is_single(m & !all[2]) {
                self.set_cell(i, m & !all[2]);
            }
        }
        if self.cand[i] == 0 {
            self.infeasible += 1;
        }
    }
}

/// The unit tables of `b` are those of its value sets.
fn tables_hold(t: &Tables, b: &Board) -> bool {
    (0..3 * t.n).all(|u| {
        let cells: Vec<usize> = (0..t.cells)
            .filter(|&c| t.units_of[c].contains(&(u as u16)))
            .collect();
        let fixed = cells
            .iter()
            .filter(|&&c| is_single(b.cand[c]))
            .fold(0, |f, &c| f | b.cand[c]);
        let ones = (0..t.n as u32)
            .filter(|&v| cells.iter().filter(|&&c| b.cand[c] >> v & 1 == 1).count() == 1);
        b.units[u].fixed == fixed
            && b.units[u].ones == ones.fold(0, |m, v| m | 1 << v)
            && b.units[u].ones == planes_ones(&b.units[u].counts)
    })
}

/// A solution of any order: the shifted-rows pattern.
pub(crate) fn pattern_solution(geom: Geometry) -> Vec<u8> {
    let (n, br, bc) = (geom.n(), geom.box_rows(), geom.box_cols());
    (0..geom.cells())
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((bc * (r % br) + r / br + c) % n) as u8 + 1
        })
        .collect()
}

#[test]
fn bit_planes_count() {
    let mut p: Planes = [0; 5];
    let mut want = [0u32; 25];
    let mut rng = sudoku_core::rng_from_seed(5);
    for _ in 0..2000 {
        let add = rng.random_bool(0.5);
        // Only counts that stay in 0..=31 change.
        let ok = (0..25).filter(|&v| if add { want[v] < 31 } else { want[v] > 0 });
        let m: u32 = rng.random::<u32>() & ok.fold(0, |m, v| m | 1 << v);
        for (v, w) in want.iter_mut().enumerate() {
            if m >> v & 1 == 1 {
                *w = if add { *w + 1 } else { *w - 1 };
            }
        }
        if add {
            planes_add(&mut p, m);
        } else {
            planes_sub(&mut p, m);
        }
        let got: Vec<u32> = (0..25)
            .map(|v| (0..5).map(|b| (p[b] >> v & 1) << b).sum())
            .collect();
        assert_eq!(got, want);
        let ones = (0..25).filter(|&v| want[v] == 1).fold(0, |m, v| m | 1 << v);
        assert_eq!(planes_ones(&p), ones);
    }
}

/// Known 4x4 grids: what propagating the givens fixes.
#[test]
fn propagation_on_known_grids() {
    let g4 = Geometry::new(2, 2).unwrap();
    let t4 = Tables::new(g4);
    let mut blanked = pattern_solution(g4);
    for i in [1, 7, 8, 14] {
        blanked[i] = 0; // one cell of each box
    }
    let blanked: String = blanked
        .iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect();
    // (givens, cell, its set after propagation (bits: value k is bit k - 1))
    let cases: &[(&str, usize, u32)] = &[
        // Three givens of row 0: elimination fixes the fourth cell to 4.
        ("123.............", 3, 0b1000),
        // Cell 5 sees 1 (row), 2 (column), 3 (box): naked single 4.
        ("3.....1......2..", 5, 0b1000),
        // Cells 1 and 5 (column 1, box 0) both need 4: the given 2 fixes cell 1 to 4 before
        // its sweep reaches cell 5, which is left with no value: a fail cell.
        ("3...1........2..", 5, 0),
        // Unique possibility: 1 sits in box 1 (cell 6) and column 1 (cell 9), so in row 0
        // only cell 0 can hold it; the last given (cell 12, column 0) constrains cell 0.
        ("......1..1..2...", 0, 0b0001),
        // The same 1s without a given that constrains cell 0 afterwards: the cascade never
        // visits cell 0 (not a peer of cells 6 and 9), so it stays open (no fixpoint).
        ("......1..1......", 0, 0b1111),
        // One cell blanked in each box of a solution: all four refilled.
        (&blanked, 1, 0b0010),
        (&blanked, 14, 0b0010),
    ];
    for (k, &(givens, cell, want)) in cases.iter().enumerate() {
        let grid = sudoku_core::Grid::from_line(g4, givens).unwrap();
        let b = Board::from_givens(&t4, grid.cells());
        let r = Reference::from_givens(g4, grid.cells());
        assert_eq!(b.cand, r.cand, "case {k}");
        assert_eq!(b.cand[cell], want, "case {k}: {:?}", b.cand);
    }
}

/// Random boards of every order: givens of a solution (some replaced by wrong values, so that
/// cells empty), then open cells fixed at random as an ant would; after every step the board
/// equals the transcription and its unit tables hold.
#[test]
fn board_equals_the_codes_scans() {
    let mut rng = sudoku_core::rng_from_seed(11);
    let mut empty = 0;
    for &(br, bc) in &sudoku_core::geometry::SUPPORTED_SHAPES {
        let g = Geometry::new(br, bc).unwrap();
        let t = Tables::new(g);
        let solution = pattern_solution(g);
        for round in 0..6 {
            let keep = [0.0, 0.2, 0.4, 0.5, 0.6, 0.8][round];
            let givens: Vec<u8> = solution
                .iter()
                .map(|&v| match rng.random::<f64>() {
                    x if x < keep => v,
                    x if x < keep + 0.02 => rng.random_range(1..=g.n() as u8),
                    _ => 0,
                })
                .collect();
            let mut b = Board::from_givens(&t, &givens);
            let mut r = Reference::from_givens(g, &givens);
            assert_eq!(b.cand, r.cand, "{br}x{bc} round {round}");
            assert!(tables_hold(&t, &b), "{br}x{bc} round {round}");
            let mut order: Vec<usize> = (0..t.cells).collect();
            order.rotate_left(rng.random_range(0..t.cells));
            for i in order {
                let m = b.cand[i];
                if m == 0 || is_single(m) {
                    continue;
                }
                let values: Vec<u32> = (0..32).filter(|v| m >> v & 1 == 1).collect();
                let v = values[rng.random_range(0..values.len())];
                b.set_cell(&t, i, 1 << v);
                r.set_cell(i, 1 << v);
                assert_eq!(b.cand, r.cand, "{br}x{bc} round {round} cell {i}");
                assert_eq!((b.fixed_cells, b.infeasible), (r.fixed_cells, r.infeasible));
            }
            assert!(tables_hold(&t, &b), "{br}x{bc} round {round}");
            // Every cell is now fixed or empty, and the fixed ones never clash.
            assert!(b.cand.iter().all(|&m| m == 0 || is_single(m)));
            let mut values = vec![0u8; t.cells];
            b.write_values(&mut values);
            let grid = sudoku_core::Grid::from_cells(g, values).unwrap();
            assert!(
                grid.conflicts().is_empty()
                    || givens.iter().zip(&solution).any(|(a, s)| *a != 0 && a != s)
            );
            empty += b.empty_cells();
        }
    }
    // The fail-cell paths ran.
    assert!(empty > 0);
}

/// The order in which peers are constrained: box, column, row for each index.
#[test]
fn sweep_order_is_the_codes() {
    let g = Geometry::NINE;
    let t = Tables::new(g);
    let s = t.sweep(0);
    assert_eq!(s.len(), 24);
    // j = 0 is cell 0 itself in all three units; j = 1: box cell 1, column cell 9, row cell 1.
    assert_eq!(&s[..6], &[1, 9, 1, 2, 18, 2]);
    // j = 3: box cell 9 (row 1, column 0), column cell 27, row cell 3.
    assert_eq!(&s[6..9], &[9, 27, 3]);
    assert!(t.sweep(80).iter().all(|&k| k != 80));
}

/// A copy is equal and allocation-free in shape.
#[test]
fn copy_from_copies() {
    let g = Geometry::NINE;
    let t = Tables::new(g);
    let p = sudoku_core::bank_puzzle("mk_easy").unwrap();
    let a = Board::from_givens(&t, p.grid.cells());
    let mut b = Board::open(&t);
    b.copy_from(&a);
    assert_eq!(a, b);
    // Propagating mk_easy's givens solves it (an easy newspaper puzzle).
    assert_eq!(a.cand.iter().filter(|&&m| is_single(m)).count(), 81);
}

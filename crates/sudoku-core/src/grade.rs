//! A human-style logical grader: solve a puzzle with pencil-and-paper techniques only, always
//! using the easiest technique that makes progress, and rate it by the hardest technique it
//! needed. A difficulty measure that involves no stochastic solver (used to order the
//! substitute puzzle sets of Ret-GA's journal Tables 2-4, `experiments/puzzles/retga-journal/`).
//!
//! The techniques, easiest first (the rating is the number):
//! 1. naked single: a cell with one candidate;
//! 2. hidden single: a symbol with one place in a row, column or box;
//! 3. locked candidates: a symbol whose candidates in a box lie in one row or column
//!    (pointing), or whose candidates in a row or column lie in one box (claiming);
//! 4. pairs: two cells of a unit with the same two candidates (naked), or two symbols with the
//!    same two places in a unit (hidden);
//! 5. triples: the same with three cells / three symbols;
//! 6. beyond: these techniques get stuck before the grid is full (the puzzle needs fish,
//!    chains, colouring, ... or trial and error).
//!
//! 0 means the grid has no empty cell. Every step is sound (it only removes candidates that no
//! solution has), so on a puzzle with a unique solution every placement is that solution's.

use crate::geometry::Units;
use crate::grid::Grid;

/// The hardest technique a puzzle needed, and how often each technique made progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grade {
    /// 0 = nothing to do, 1..=5 = the hardest technique used (see the module docs), 6 = stuck.
    pub rating: u8,
    /// Steps that made progress, per technique 1..=5 (index 0 = naked singles).
    pub steps: [usize; 5],
    /// Empty cells left when the grader stopped (0 unless the rating is 6).
    pub empty_left: usize,
}

/// Names of the ratings 0..=6.
pub const RATING_NAMES: [&str; 7] = [
    "none",
    "naked single",
    "hidden single",
    "locked candidates",
    "pair",
    "triple",
    "beyond",
];

/// The rating of the module docs: 0 = no empty cell, 1..=5 = hardest technique used, 6 = stuck.
pub fn rating(puzzle: &Grid) -> u8 {
    grade(puzzle).rating
}

/// Grade a puzzle (see the module docs). A puzzle whose givens conflict, or that runs into a
/// cell or a unit without candidates, is rated 6.
pub fn grade(puzzle: &Grid) -> Grade {
    let mut g = Grade {
        rating: 0,
        steps: [0; 5],
        empty_left: 0,
    };
    let Some(mut b) = Board::new(puzzle) else {
        g.rating = 6;
        g.empty_left = puzzle.cells().iter().filter(|&&v| v == 0).count();
        return g;
    };
    loop {
        if b.empty() == 0 {
            return g;
        }
        let level = if b.broken() {
            None
        } else if b.naked_single() {
            Some(1)
        } else if b.hidden_single() {
            Some(2)
        } else if b.locked_candidates() {
            Some(3)
        } else if b.subset(2) {
            Some(4)
        } else if b.subset(3) {
            Some(5)
        } else {
            None
        };
        match level {
            Some(l) => {
                g.steps[l as usize - 1] += 1;
                g.rating = g.rating.max(l);
            }
            None => {
                g.rating = 6;
                g.empty_left = b.empty();
                return g;
            }
        }
    }
}

/// Cells and pencil marks: `cand[c]` is the candidate mask of an empty cell (bit v = symbol v),
/// 0 for a filled one.
struct Board {
    units: Units,
    n: usize,
    cells: Vec<u8>,
    cand: Vec<u32>,
}

impl Board {
    /// None when two givens conflict.
    fn new(puzzle: &Grid) -> Option<Board> {
        let geom = puzzle.geometry();
        let units = Units::new(geom);
        let mut b = Board {
            n: geom.n(),
            cells: vec![0; geom.cells()],
            cand: vec![geom.full_mask(); geom.cells()],
            units,
        };
        for (c, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                if b.cand[c] & (1 << v) == 0 {
                    return None;
                }
                b.place(c, v);
            }
        }
        Some(b)
    }

    fn empty(&self) -> usize {
        self.cells.iter().filter(|&&v| v == 0).count()
    }

    /// Place `v` in cell `c` and remove it from the candidates of the cell's peers.
    fn place(&mut self, c: usize, v: u8) {
        self.cells[c] = v;
        self.cand[c] = 0;
        for u in self.units.of_cell(c) {
            for k in 0..self.n {
                let p = self.units.unit(u as usize)[k] as usize;
                self.cand[p] &= !(1 << v);
            }
        }
    }

    /// Positions of symbol `v` among the empty cells of unit `u`, as a bit mask over the
    /// unit's cells.
    fn places(&self, u: usize, v: u8) -> u32 {
        let mut m = 0;
        for (k, &p) in self.units.unit(u).iter().enumerate() {
            if self.cand[p as usize] & (1 << v) != 0 {
                m |= 1 << k;
            }
        }
        m
    }

    /// Symbols already placed in unit `u`.
    fn placed(&self, u: usize) -> u32 {
        self.units
            .unit(u)
            .iter()
            .fold(0, |m, &p| m | ((1u32 << self.cells[p as usize]) & !1))
    }

    /// A contradiction: an empty cell without candidates, or a symbol missing from a unit
    /// with no place left for it.
    fn broken(&self) -> bool {
        if (0..self.cells.len()).any(|c| self.cells[c] == 0 && self.cand[c] == 0) {
            return true;
        }
        (0..self.units.count()).any(|u| {
            let placed = self.placed(u);
            (1..=self.n as u8).any(|v| placed & (1 << v) == 0 && self.places(u, v) == 0)
        })
    }

    fn naked_single(&mut self) -> bool {
        for c in 0..self.cells.len() {
            if self.cells[c] == 0 && self.cand[c].count_ones() == 1 {
                self.place(c, self.cand[c].trailing_zeros() as u8);
                return true;
            }
        }
        false
    }

    fn hidden_single(&mut self) -> bool {
        for u in 0..self.units.count() {
            for v in 1..=self.n as u8 {
                let m = self.places(u, v);
                if m.count_ones() == 1 {
                    let c = self.units.unit(u)[m.trailing_zeros() as usize] as usize;
                    self.place(c, v);
                    return true;
                }
            }
        }
        false
    }

    /// Remove `v` from the candidates of `cells`; true if any was there.
    fn eliminate(&mut self, cells: impl Iterator<Item = usize>, v: u8) -> bool {
        let mut changed = false;
        for c in cells {
            if self.cand[c] & (1 << v) != 0 {
                self.cand[c] &= !(1 << v);
                changed = true;
            }
        }
        changed
    }

    /// Pointing (box -> line) and claiming (line -> box).
    fn locked_candidates(&mut self) -> bool {
        let n = self.n;
        for v in 1..=n as u8 {
            for u in 0..3 * n {
                let cells: Vec<usize> = self
                    .units
                    .unit(u)
                    .iter()
                    .map(|&p| p as usize)
                    .filter(|&p| self.cand[p] & (1 << v) != 0)
                    .collect();
                if cells.is_empty() {
                    continue;
                }
                // The other units (of the other two kinds) that hold every candidate cell.
                let [r0, c0, b0] = self.units.of_cell(cells[0]);
                for target in [r0, c0, b0] {
                    let target = target as usize;
                    if target / n == u / n {
                        continue;
                    }
                    if cells
                        .iter()
                        .all(|&p| self.units.of_cell(p).contains(&(target as u16)))
                    {
                        let others: Vec<usize> = self
                            .units
                            .unit(target)
                            .iter()
                            .map(|&p| p as usize)
                            .filter(|p| !cells.contains(p))
                            .collect();
                        if self.eliminate(others.into_iter(), v) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Naked and hidden subsets of `size` cells / symbols in one unit.
    fn subset(&mut self, size: usize) -> bool {
        let n = self.n;
        for u in 0..self.units.count() {
            let cells: Vec<usize> = self.units.unit(u).iter().map(|&p| p as usize).collect();
            let open: Vec<usize> = (0..n).filter(|&k| self.cells[cells[k]] == 0).collect();
            if open.len() <= size {
                continue;
            }
            // Naked: `size` open cells whose candidates together are `size` symbols.
            for pick in combinations(&open, size) {
                let union = pick.iter().fold(0, |m, &k| m | self.cand[cells[k]]);
                if union.count_ones() as usize != size {
                    continue;
                }
                let mut changed = false;
                for &k in &open {
                    if !pick.contains(&k) && self.cand[cells[k]] & union != 0 {
                        self.cand[cells[k]] &= !union;
                        changed = true;
                    }
                }
                if changed {
                    return true;
                }
            }
            // Hidden: `size` missing symbols whose places together are `size` cells.
            let placed = self.placed(u);
            let missing: Vec<usize> = (1..=n).filter(|&v| placed & (1 << v) == 0).collect();
            for pick in combinations(&missing, size) {
                let where_ = pick.iter().fold(0, |m, &v| m | self.places(u, v as u8));
                if where_.count_ones() as usize != size {
                    continue;
                }
                let keep = pick.iter().fold(0u32, |m, &v| m | (1 << v));
                let mut changed = false;
                for (k, &c) in cells.iter().enumerate() {
                    if where_ & (1 << k) != 0 && self.cand[c] & !keep != 0 {
                        self.cand[c] &= keep;
                        changed = true;
                    }
                }
                if changed {
                    return true;
                }
            }
        }
        false
    }
}

/// Every `k`-element subset of `items`, in lexicographic order of positions.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..k).collect();
    if k == 0 || k > items.len() {
        return out;
    }
    loop {
        out.push(idx.iter().map(|&i| items[i]).collect());
        let mut i = k;
        while i > 0 && idx[i - 1] == items.len() - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        idx[i - 1] += 1;
        for j in i..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::{random_solution, reduce_to_unique, unique_solution};
    use crate::geometry::Geometry;
    use crate::seed::rng_from_seed;

    fn grid(line: &str) -> Grid {
        Grid::from_line(Geometry::NINE, line).unwrap()
    }

    const SOLVED: &str =
        "162857493534129678789643521475312986913586742628794135356478219241935867897261354";

    #[test]
    fn combinations_in_order() {
        assert_eq!(
            combinations(&[1, 2, 3, 4], 2),
            vec![
                vec![1, 2],
                vec![1, 3],
                vec![1, 4],
                vec![2, 3],
                vec![2, 4],
                vec![3, 4]
            ]
        );
        assert_eq!(combinations(&[5, 6, 7], 3), vec![vec![5, 6, 7]]);
        assert!(combinations(&[5], 2).is_empty());
    }

    #[test]
    fn full_grid_and_one_hole() {
        assert_eq!(rating(&grid(SOLVED)), 0);
        let mut g = grid(SOLVED);
        g.cells_mut()[40] = 0;
        let gr = grade(&g);
        assert_eq!((gr.rating, gr.steps), (1, [1, 0, 0, 0, 0]));
    }

    #[test]
    fn conflicting_givens_are_rated_beyond() {
        let mut g = Grid::empty(Geometry::NINE);
        g.cells_mut()[0] = 5;
        g.cells_mut()[1] = 5;
        assert_eq!(rating(&g), 6);
    }

    /// A hidden single that is no naked single: row 0 misses 1, 8 and 9 in cells 0..=2, and
    /// the 1s in columns 1 and 2 leave cell 0 as the only place for 1.
    #[test]
    fn hidden_single_found() {
        let mut g = Grid::empty(Geometry::NINE);
        for (c, v) in [
            (3, 2),
            (4, 3),
            (5, 4),
            (6, 5),
            (7, 6),
            (8, 7),
            (37, 1),
            (65, 1),
        ] {
            g.cells_mut()[c] = v;
        }
        let mut b = Board::new(&g).unwrap();
        assert!(!b.naked_single());
        assert!(b.hidden_single());
        assert_eq!(b.cells[0], 1);
    }

    /// Pointing: candidates of 1 in box 0 confined to row 0 clear 1 from the rest of row 0.
    #[test]
    fn locked_candidates_pointing() {
        let mut b = Board::new(&Grid::empty(Geometry::NINE)).unwrap();
        for c in [9, 10, 11, 18, 19, 20] {
            b.cand[c] &= !(1 << 1);
        }
        assert!(b.locked_candidates());
        assert!((3..9).all(|c| b.cand[c] & 2 == 0));
        assert!((0..3).all(|c| b.cand[c] & 2 != 0));
        assert!(b.cand[27] & 2 != 0);
    }

    /// Claiming: candidates of 1 in row 0 confined to box 0 clear 1 from the rest of box 0.
    #[test]
    fn locked_candidates_claiming() {
        let mut b = Board::new(&Grid::empty(Geometry::NINE)).unwrap();
        for c in 3..9 {
            b.cand[c] &= !(1 << 1);
        }
        assert!(b.locked_candidates());
        assert!([9, 10, 11, 18, 19, 20].iter().all(|&c| b.cand[c] & 2 == 0));
        assert!((0..3).all(|c| b.cand[c] & 2 != 0));
        assert!(b.cand[12] & 2 != 0);
    }

    /// Naked pair: two cells of row 0 with candidates {1, 2} clear 1 and 2 from the row.
    #[test]
    fn naked_pair() {
        let mut b = Board::new(&Grid::empty(Geometry::NINE)).unwrap();
        b.cand[0] = 0b110;
        b.cand[5] = 0b110;
        assert!(b.subset(2));
        assert!([1, 2, 3, 4, 6, 7, 8]
            .iter()
            .all(|&c| b.cand[c] & 0b110 == 0));
        assert_eq!((b.cand[0], b.cand[5]), (0b110, 0b110));
    }

    /// Hidden pair: symbols 1 and 2 fit only cells 0 and 5 of row 0, which keep only them.
    #[test]
    fn hidden_pair() {
        let mut b = Board::new(&Grid::empty(Geometry::NINE)).unwrap();
        for c in [1, 2, 3, 4, 6, 7, 8] {
            b.cand[c] &= !0b110;
        }
        assert!(b.subset(2));
        assert_eq!((b.cand[0], b.cand[5]), (0b110, 0b110));
    }

    /// Naked triple: cells with {1,2}, {2,3}, {1,3} clear 1, 2, 3 from the rest of the row.
    #[test]
    fn naked_triple() {
        let mut b = Board::new(&Grid::empty(Geometry::NINE)).unwrap();
        b.cand[0] = 0b0110;
        b.cand[4] = 0b1100;
        b.cand[8] = 0b1010;
        assert!(!b.subset(2));
        assert!(b.subset(3));
        assert!([1, 2, 3, 5, 6, 7].iter().all(|&c| b.cand[c] & 0b1110 == 0));
    }

    /// AI Escargot needs far more than these techniques.
    #[test]
    fn ai_escargot_is_beyond() {
        let p = grid(
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        );
        let g = grade(&p);
        assert_eq!(g.rating, 6);
        assert!(g.empty_left > 0);
    }

    /// Soundness on generated puzzles: every placement is the unique solution's, every
    /// remaining candidate set holds the solution's symbol, and a rating below 6 means solved.
    #[test]
    fn sound_on_generated_puzzles() {
        let mut seen = [0usize; 7];
        for k in 0..60u64 {
            let mut rng = rng_from_seed(1000 + k);
            let sol = random_solution(Geometry::NINE, &mut rng);
            let p = reduce_to_unique(&sol, 22 + (k as usize % 10), &mut rng);
            assert_eq!(unique_solution(&p).as_ref(), Some(&sol));
            let mut b = Board::new(&p).unwrap();
            // Run the techniques by hand to inspect the final board.
            while b.empty() > 0
                && (b.naked_single()
                    || b.hidden_single()
                    || b.locked_candidates()
                    || b.subset(2)
                    || b.subset(3))
            {}
            for c in 0..81 {
                let s = sol.cells()[c];
                assert!(
                    b.cells[c] == s || (b.cells[c] == 0 && b.cand[c] & (1 << s) != 0),
                    "puzzle {k}, cell {c}"
                );
            }
            let g = grade(&p);
            assert_eq!(g.empty_left, b.empty());
            assert_eq!(g.rating == 6, b.empty() > 0);
            seen[g.rating as usize] += 1;
        }
        // The sample reaches past singles.
        assert!(seen[1] + seen[2] > 0 && seen[3..].iter().sum::<usize>() > 0);
    }

    /// Other orders: a 6x6 and a 12x12 generated puzzle grade without panicking and soundly.
    #[test]
    fn other_orders() {
        for n in [4usize, 6, 12] {
            let geom = Geometry::for_order(n).unwrap();
            let mut rng = rng_from_seed(7);
            let sol = random_solution(geom, &mut rng);
            let p = reduce_to_unique(&sol, geom.cells() / 2, &mut rng);
            let g = grade(&p);
            assert!(g.rating >= 1, "{n}");
        }
    }
}

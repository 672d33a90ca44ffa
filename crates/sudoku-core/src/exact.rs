//! Exact solver: bit-mask backtracking that always branches on the empty cell with the fewest
//! candidates (so naked singles are filled before any guess), counting solutions up to a limit.
//! Used to check the puzzle bank, to verify every run that claims a solution, and to generate
//! puzzles.
//!
//! [`search`], [`count_solutions`], [`unique_solution`] and [`solve`] also place hidden singles
//! (a value with one possible cell in a row, column or box) before guessing, and stop a branch
//! where a value has no possible cell in some unit. [`guesses`], the difficulty measure written
//! into generated puzzle files and used to band the CSO puzzle sets, keeps its definition:
//! branchings of the plain most-constrained-cell search (naked singles only).

use crate::grid::Grid;

/// How many solutions a puzzle has, counted up to a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolutionCount {
    None,
    Unique,
    /// At least this many (the limit was reached).
    Many(usize),
    /// The search stopped at its node limit ([`NODE_LIMIT`]) with fewer solutions than asked
    /// for: not known (e.g. an empty 25x25 grid, whose search space this backtracking cannot
    /// cover in reasonable time). Never confused with `None` or `Unique`.
    Undetermined(usize),
}

/// Search nodes (cells tried) after which a search gives up and reports itself incomplete:
/// about a second on a 25x25 grid, far beyond what any committed 9x9 puzzle needs (the
/// hardest, AI Escargot, is proved unique in a few thousand).
pub const NODE_LIMIT: u64 = 2_000_000;

/// Result of a search: solutions found (up to the limit), the first one, and the guesses made.
#[derive(Debug, Clone)]
pub struct Search {
    pub count: usize,
    pub first: Option<Grid>,
    /// Branching decisions with two or more candidates: a deterministic difficulty measure.
    pub guesses: u64,
    /// False when the search stopped at [`NODE_LIMIT`] before finishing.
    pub complete: bool,
    /// Search nodes visited (the work done, in the unit of [`NODE_LIMIT`]).
    pub nodes: u64,
}

struct State {
    rows: Vec<u32>,
    cols: Vec<u32>,
    boxes: Vec<u32>,
    cell_units: Vec<(usize, usize, usize)>,
    cells: Vec<u8>,
    empty: Vec<usize>,
    limit: usize,
    count: usize,
    first: Option<Vec<u8>>,
    guesses: u64,
    full: u32,
    nodes: u64,
    aborted: bool,
    /// Place hidden singles before guessing (see the module docs).
    hidden: bool,
    /// [`NODE_LIMIT`] except in tests.
    node_limit: u64,
    /// The cells of every row, column and box (3n units).
    units: Vec<Vec<usize>>,
}

impl State {
    fn candidates(&self, cell: usize) -> u32 {
        let (r, c, b) = self.cell_units[cell];
        self.full & !(self.rows[r] | self.cols[c] | self.boxes[b])
    }

    fn place(&mut self, cell: usize, v: u8) {
        let (r, c, b) = self.cell_units[cell];
        let bit = 1u32 << v;
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[b] |= bit;
        self.cells[cell] = v;
    }

    fn unplace(&mut self, cell: usize, v: u8) {
        let (r, c, b) = self.cell_units[cell];
        let bit = !(1u32 << v);
        self.rows[r] &= bit;
        self.cols[c] &= bit;
        self.boxes[b] &= bit;
        self.cells[cell] = 0;
    }

    /// Depth-first search over `self.empty[depth..]`.
    fn search(&mut self, depth: usize) {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.aborted = true;
            return;
        }
        if depth == self.empty.len() {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(self.cells.clone());
            }
            return;
        }
        // Most constrained cell first.
        let mut best = depth;
        let mut best_count = u32::MAX;
        let mut best_mask = 0;
        for k in depth..self.empty.len() {
            let m = self.candidates(self.empty[k]);
            let cnt = m.count_ones();
            if cnt < best_count {
                best = k;
                best_count = cnt;
                best_mask = m;
                if cnt <= 1 {
                    break;
                }
            }
        }
        if best_count == 0 {
            return;
        }
        if best_count > 1 && self.hidden {
            match self.hidden_single() {
                HiddenSingle::DeadEnd => return,
                HiddenSingle::Found(cell, v) => {
                    best = self.empty[depth..].iter().position(|&c| c == cell).unwrap() + depth;
                    best_count = 1;
                    best_mask = 1 << v;
                }
                HiddenSingle::NoneFound => {}
            }
        }
        if best_count > 1 {
            self.guesses += 1;
        }
        self.empty.swap(depth, best);
        let cell = self.empty[depth];
        let mut m = best_mask;
        while m != 0 {
            let v = m.trailing_zeros() as u8;
            m &= m - 1;
            self.place(cell, v);
            self.search(depth + 1);
            self.unplace(cell, v);
            if self.count >= self.limit || self.aborted {
                break;
            }
        }
        self.empty.swap(depth, best);
    }
}

impl State {
    /// A solution by depth-first search that tries the candidates of the most constrained
    /// cell in a random order; false when there is none or `nodes` ran out.
    fn fill_random<R: rand::Rng + ?Sized>(
        &mut self,
        depth: usize,
        nodes: &mut u64,
        rng: &mut R,
    ) -> bool {
        if depth == self.empty.len() {
            return true;
        }
        if *nodes == 0 {
            return false;
        }
        *nodes -= 1;
        let (mut best, mut best_mask) = (depth, 0u32);
        let mut best_count = u32::MAX;
        for k in depth..self.empty.len() {
            let m = self.candidates(self.empty[k]);
            if m.count_ones() < best_count {
                (best, best_mask, best_count) = (k, m, m.count_ones());
            }
        }
        self.empty.swap(depth, best);
        let cell = self.empty[depth];
        let mut vals = [0u8; 32];
        let mut len = 0;
        let mut m = best_mask;
        while m != 0 {
            vals[len] = m.trailing_zeros() as u8;
            len += 1;
            m &= m - 1;
        }
        rand::seq::SliceRandom::shuffle(&mut vals[..len], rng);
        for &v in &vals[..len] {
            self.place(cell, v);
            if self.fill_random(depth + 1, nodes, rng) {
                return true;
            }
            self.unplace(cell, v);
        }
        self.empty.swap(depth, best);
        false
    }
}

/// What a scan of every unit for hidden singles found.
#[derive(Debug, PartialEq, Eq)]
enum HiddenSingle {
    /// A value has exactly one possible cell in some unit: place it there.
    Found(usize, u8),
    /// A value missing from some unit has no possible cell there: no solution below this node.
    DeadEnd,
    NoneFound,
}

impl State {
    /// The first hidden single over rows, then columns, then boxes (a deterministic order).
    fn hidden_single(&self) -> HiddenSingle {
        for unit in &self.units {
            let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
            for &cell in unit {
                let v = self.cells[cell];
                if v != 0 {
                    placed |= 1 << v;
                } else {
                    let m = self.candidates(cell);
                    twice |= once & m;
                    once |= m;
                }
            }
            if (once | placed) != self.full {
                return HiddenSingle::DeadEnd;
            }
            let single = once & !twice;
            if single != 0 {
                let v = single.trailing_zeros() as u8;
                let cell = unit
                    .iter()
                    .copied()
                    .find(|&c| self.cells[c] == 0 && self.candidates(c) & (1 << v) != 0)
                    .expect("a value in `once` has a cell");
                return HiddenSingle::Found(cell, v);
            }
        }
        HiddenSingle::NoneFound
    }
}

fn state_of(grid: &Grid, limit: usize) -> Option<State> {
    let g = grid.geometry();
    let n = g.n();
    let mut st = State {
        rows: vec![0; n],
        cols: vec![0; n],
        boxes: vec![0; n],
        cell_units: (0..g.cells())
            .map(|c| (g.row_of(c), g.col_of(c), g.box_of(c)))
            .collect(),
        cells: vec![0; g.cells()],
        empty: Vec::new(),
        limit: limit.max(1),
        count: 0,
        first: None,
        guesses: 0,
        full: g.full_mask(),
        nodes: 0,
        aborted: false,
        hidden: true,
        node_limit: NODE_LIMIT,
        units: (0..n)
            .map(|r| (0..n).map(|c| g.cell(r, c)).collect())
            .chain((0..n).map(|c| (0..n).map(|r| g.cell(r, c)).collect()))
            .chain((0..n).map(|b| (0..g.cells()).filter(|&x| g.box_of(x) == b).collect()))
            .collect(),
    };
    for (cell, &v) in grid.cells().iter().enumerate() {
        if v == 0 {
            st.empty.push(cell);
        } else {
            if st.candidates(cell) & (1 << v) == 0 {
                return None;
            }
            st.place(cell, v);
        }
    }
    Some(st)
}

/// A random solved grid of the given geometry (random full grids for the puzzle generator:
/// depth-first search, most constrained cell first, its candidates in a random order; a search
/// that visits more than 100 nodes per cell without a solution, which happens on 25x25 grids,
/// starts again from the empty grid with the same RNG). Deterministic for a given RNG state.
pub fn random_solution<R: rand::Rng + ?Sized>(geom: crate::Geometry, rng: &mut R) -> Grid {
    loop {
        let mut st = state_of(&Grid::empty(geom), 1).expect("an empty grid has no conflicts");
        let mut nodes = 100 * geom.cells() as u64;
        if st.fill_random(0, &mut nodes, rng) {
            return Grid::from_cells(geom, st.cells).expect("cells in range");
        }
    }
}

/// Search for up to `limit` solutions of `grid`. Givens that conflict give 0 solutions.
pub fn search(grid: &Grid, limit: usize) -> Search {
    search_with(grid, limit, true, NODE_LIMIT)
}

/// [`search`], with or without hidden singles, stopping after `node_limit` nodes.
fn search_with(grid: &Grid, limit: usize, hidden: bool, node_limit: u64) -> Search {
    let g = grid.geometry();
    let Some(mut st) = state_of(grid, limit) else {
        return Search {
            count: 0,
            first: None,
            guesses: 0,
            complete: true,
            nodes: 0,
        };
    };
    st.hidden = hidden;
    st.node_limit = node_limit;
    st.search(0);
    Search {
        count: st.count,
        first: st.first.and_then(|cells| Grid::from_cells(g, cells)),
        guesses: st.guesses,
        complete: !st.aborted || st.count >= st.limit,
        nodes: st.nodes.min(node_limit),
    }
}

/// Count solutions up to `limit` (2 is enough to tell unique from many).
/// A `limit` below 2 is raised to 2.
pub fn count_solutions(grid: &Grid, limit: usize) -> SolutionCount {
    let s = search(grid, limit.max(2));
    if !s.complete {
        return SolutionCount::Undetermined(s.count);
    }
    match s.count {
        0 => SolutionCount::None,
        1 => SolutionCount::Unique,
        k => SolutionCount::Many(k),
    }
}

/// The unique solution, if the puzzle has exactly one.
pub fn unique_solution(grid: &Grid) -> Option<Grid> {
    let s = search(grid, 2);
    (s.complete && s.count == 1).then_some(s.first).flatten()
}

/// Any solution.
pub fn solve(grid: &Grid) -> Option<Grid> {
    search(grid, 1).first
}

/// Every way to fill the free cells of box `b` so that no symbol repeats a filled cell of its
/// row, column or box (RESEDA's coupling with brute force, Maire & Prissette section 5.2: "the
/// admissible permutations of a given 3x3 block ... that met the basic constraints"; 24 for
/// the upper-left block of AI Escargot).
pub fn admissible_box_fillings(puzzle: &Grid, b: usize) -> Vec<Grid> {
    let geom = puzzle.geometry();
    let cells: Vec<usize> = geom
        .box_cells(b)
        .filter(|&c| puzzle.cells()[c] == 0)
        .collect();
    let mut out = Vec::new();
    let mut g = puzzle.clone();
    fn rec(g: &mut Grid, cells: &[usize], i: usize, out: &mut Vec<Grid>) {
        if i == cells.len() {
            out.push(g.clone());
            return;
        }
        let geom = g.geometry();
        let c = cells[i];
        for v in 1..=geom.n() as u8 {
            g.cells_mut()[c] = v;
            let ok = geom
                .row_cells(geom.row_of(c))
                .chain(geom.col_cells(geom.col_of(c)))
                .chain(geom.box_cells(geom.box_of(c)))
                .all(|o| o == c || g.cells()[o] != v);
            if ok {
                rec(g, cells, i + 1, out);
            }
            g.cells_mut()[c] = 0;
        }
    }
    rec(&mut g, &cells, 0, &mut out);
    out
}

/// A puzzle from a solved grid: visit the cells in a random order and blank each one whose
/// removal keeps the solution unique, until `target_givens` remain or every cell was tried
/// (then the puzzle is minimal for that order: no single given can be removed). Deterministic
/// for a given RNG state; the result always has exactly one solution, `solution`. Without a
/// bound on the work: see [`reduce_to_unique_within`].
pub fn reduce_to_unique<R: rand::Rng + ?Sized>(
    solution: &Grid,
    target_givens: usize,
    rng: &mut R,
) -> Grid {
    let mut unbounded = u64::MAX;
    reduce_to_unique_within(solution, target_givens, rng, &mut unbounded, &mut |_, _| {})
        .expect("an unbounded reduction always ends")
}

/// [`reduce_to_unique`] within a budget of search nodes, `nodes` (decreased by the work done):
/// each uniqueness check gets at most [`NODE_LIMIT`] nodes and what is left of the budget. A
/// check that stops before proving the solution unique keeps its given (so the result is
/// still unique, only less reduced); None once the budget is spent (on a 25x25 grid with few
/// givens, the checks of one removal order once took hours). `progress` is called after each
/// check with the givens left and the nodes spent so far by this call.
pub fn reduce_to_unique_within<R: rand::Rng + ?Sized>(
    solution: &Grid,
    target_givens: usize,
    rng: &mut R,
    nodes: &mut u64,
    progress: &mut dyn FnMut(usize, u64),
) -> Option<Grid> {
    use rand::seq::SliceRandom;
    let mut g = solution.clone();
    let mut order: Vec<usize> = (0..g.cells().len()).collect();
    order.shuffle(rng);
    let mut givens = g.filled();
    let mut spent = 0u64;
    for c in order {
        if givens <= target_givens {
            break;
        }
        if *nodes == 0 {
            return None;
        }
        let v = g.cells()[c];
        g.cells_mut()[c] = 0;
        let s = search_with(&g, 2, true, NODE_LIMIT.min(*nodes));
        *nodes -= s.nodes.min(*nodes);
        spent += s.nodes;
        if s.complete && s.count == 1 {
            givens -= 1;
        } else if !s.complete && *nodes == 0 {
            return None;
        } else {
            g.cells_mut()[c] = v;
        }
        progress(givens, spent);
    }
    Some(g)
}

/// A deterministic difficulty measure: the guesses (branchings on a cell with two or more
/// candidates) that this module's most-constrained-cell backtracking needs to prove the
/// puzzle's solution unique. 0 means naked singles alone solve it.
pub fn guesses(puzzle: &Grid) -> u64 {
    search_with(puzzle, 2, false, NODE_LIMIT).guesses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Geometry;

    /// Hidden singles change how the search gets there, never what it finds: every bank puzzle
    /// has the same count (and, when unique, the same solution) with and without them, in no
    /// more guesses when unique. (On a puzzle with several solutions, which comes first and
    /// the guesses to find two may differ.)
    #[test]
    fn hidden_singles_keep_every_answer_and_save_guesses() {
        let mut saved = 0;
        for p in crate::bank::bank() {
            let plain = search_with(&p.grid, 2, false, NODE_LIMIT);
            let hidden = search_with(&p.grid, 2, true, NODE_LIMIT);
            assert_eq!(plain.count, hidden.count, "{}", p.id);
            assert!(plain.complete && hidden.complete, "{}", p.id);
            if plain.count == 1 {
                assert_eq!(plain.first, hidden.first, "{}", p.id);
                assert!(hidden.guesses <= plain.guesses, "{}", p.id);
                saved += plain.guesses - hidden.guesses;
            }
            // `guesses` keeps the plain definition (generated files and CSO bands use it).
            assert_eq!(guesses(&p.grid), plain.guesses, "{}", p.id);
        }
        assert!(saved > 0, "hidden singles never saved a guess");
    }

    /// Table: a 4x4 position (cells numbered row-major) and what the unit scan finds.
    #[test]
    fn hidden_single_scan() {
        let g4 = Geometry::for_order(4).unwrap();
        let cases = [
            // Row 0 is 1 2 3 _: value 4 has one cell there.
            ("123.............", HiddenSingle::Found(3, 4)),
            // 1s at cells 2 and 12: in row 1, value 1 is barred from cell 4 (column 0), cell 6
            // (column 2) and cell 7 (box 1), so it has one cell, 5; row 0 has no single.
            ("..1.........1...", HiddenSingle::Found(5, 1)),
            // The 4 at cell 5 bars cells 0 and 1: row 0 has no cell for 4, though both of its
            // empty cells still have a candidate (1).
            ("..23.4..........", HiddenSingle::DeadEnd),
            // An empty grid: every value has four cells in every unit.
            ("................", HiddenSingle::NoneFound),
        ];
        for (line, want) in cases {
            let grid = Grid::from_line(g4, line).unwrap();
            let st = state_of(&grid, 2).unwrap();
            assert_eq!(st.hidden_single(), want, "{line}");
        }
    }

    /// The node limit turns a search that would run for long into `complete = false`, which
    /// `count_solutions` reports as `Undetermined` (the limit is lowered here to trigger it).
    #[test]
    fn node_limit_reports_an_incomplete_search() {
        let g16 = Grid::empty(Geometry::for_order(16).unwrap());
        let s = search_with(&g16, 2, false, 50);
        assert!(!s.complete && s.count == 0);
        let s = search_with(&g16, 2, true, NODE_LIMIT);
        assert!(s.complete && s.count == 2);
    }

    /// A reduction within a node budget: the same puzzle as without one when the budget
    /// suffices, None (quickly) when it does not; and every result is unique.
    #[test]
    fn reduction_stops_at_its_node_budget() {
        let g9 = Geometry::NINE;
        let sol = random_solution(g9, &mut crate::rng_from_seed(1));
        let rng = || crate::rng_from_seed(2);
        let free = reduce_to_unique(&sol, 25, &mut rng());
        let mut budget = 10_000_000;
        let mut calls = 0;
        let within =
            reduce_to_unique_within(&sol, 25, &mut rng(), &mut budget, &mut |_, _| calls += 1);
        assert_eq!(within.as_ref(), Some(&free));
        assert!(calls > 0 && budget < 10_000_000);
        assert_eq!(count_solutions(&free, 2), SolutionCount::Unique);
        let mut tiny = 50;
        assert_eq!(
            reduce_to_unique_within(&sol, 25, &mut rng(), &mut tiny, &mut |_, _| {}),
            None
        );
        assert_eq!(tiny, 0);
    }
}

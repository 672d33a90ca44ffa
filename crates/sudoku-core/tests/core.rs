//! Integration tests of sudoku-core: the bank, the exact solver, the fitness functions against
//! plain transcriptions of the papers' formulas, and the parser's error paths.

use rand::Rng as _;
use sudoku_core::exact::{search, unique_solution};
use sudoku_core::fitness::*;
use sudoku_core::geometry::SUPPORTED_SHAPES;
use sudoku_core::parse::{parse_lenient, parse_puzzles};
use sudoku_core::*;

fn random_cells(geom: Geometry, rng: &mut Rng, blank_rate: f64) -> Vec<u8> {
    (0..geom.cells())
        .map(|_| {
            if rng.random_bool(blank_rate) {
                0
            } else {
                rng.random_range(1..=geom.n() as u8)
            }
        })
        .collect()
}

#[test]
fn every_bank_puzzle_has_its_unique_recorded_solution() {
    let bank = bank();
    assert!(bank.len() >= 60);
    for p in bank.iter().filter(|p| p.id != "mk_new") {
        let sol = unique_solution(&p.grid).unwrap_or_else(|| panic!("{} not unique", p.id));
        assert_eq!(Some(&sol), p.solution.as_ref(), "{}", p.id);
        assert!(sol.is_solved());
    }
    // "New" has no givens: many solutions.
    let new = bank_puzzle("mk_new").unwrap();
    assert_eq!(count_solutions(&new.grid, 2), SolutionCount::Many(2));
}

#[test]
fn table1_given_counts_match_the_paper() {
    // Ret-GA Table 1, column "Givens".
    for (id, g) in [
        ("mk_1star", 33),
        ("mk_2star", 30),
        ("mk_3star", 28),
        ("mk_4star", 28),
        ("mk_5star", 30),
        ("mk_easy", 36),
        ("mk_challenging", 25),
        ("mk_difficult", 23),
        ("mk_difficult_alt", 23),
        ("mk_superdifficult", 22),
        ("mk_superdifficult_alt1", 22),
        ("mk_superdifficult_alt2", 22),
        ("mk_superdifficult_alt3", 22),
    ] {
        assert_eq!(bank_puzzle(id).unwrap().givens(), g, "{id}");
    }
}

#[test]
fn solver_counts_zero_one_many() {
    let p = bank_puzzle("das_fig1").unwrap();
    assert_eq!(count_solutions(&p.grid, 2), SolutionCount::Unique);
    // Remove givens until there are several solutions.
    let mut g = p.grid.clone();
    for c in 0..g.cells().len() {
        g.cells_mut()[c] = 0;
        if matches!(count_solutions(&g, 2), SolutionCount::Many(_)) {
            break;
        }
    }
    assert_eq!(count_solutions(&g, 2), SolutionCount::Many(2));
    // A wrong extra given that conflicts with no given: the puzzle is unique, so any solution
    // of the extended grid would be that solution, which it contradicts: none.
    let sol = p.solution.as_ref().unwrap();
    let mut tried = 0;
    for cell in 0..81 {
        if p.grid.cells()[cell] != 0 {
            continue;
        }
        for v in 1..=9u8 {
            let mut g = p.grid.clone();
            g.cells_mut()[cell] = v;
            if v != sol.cells()[cell] && g.conflicts().is_empty() {
                assert_eq!(count_solutions(&g, 2), SolutionCount::None);
                tried += 1;
            }
        }
    }
    assert!(tried > 50);
}

#[test]
fn solver_handles_every_order() {
    for &(r, c) in &SUPPORTED_SHAPES[..5] {
        let g = Geometry::new(r, c).unwrap();
        let s = search(&Grid::empty(g), 1);
        assert_eq!(s.count, 1);
        assert!(s.first.unwrap().is_solved(), "{r}x{c}");
    }
}

#[test]
fn fast_fitness_equals_paper_formulas_on_random_grids() {
    let mut rng = rng_from_seed(7);
    for &(r, c) in &SUPPORTED_SHAPES {
        let geom = Geometry::new(r, c).unwrap();
        let units = Units::new(geom);
        let ret = RetGaFitness::new(&units);
        assert_eq!(ret.max(), ret_ga_max(geom));
        for trial in 0..40 {
            let blanks = if trial % 4 == 0 { 0.2 } else { 0.0 };
            let cells = random_cells(geom, &mut rng, blanks);
            assert_eq!(
                ret.eval(&cells),
                ret_ga_fitness_paper(geom, &cells),
                "{r}x{c}"
            );
            let n = geom.n();
            assert_eq!(
                missing_symbols_cost(&units, &cells),
                missing_symbols_paper(&units, &cells, 3 * n)
            );
            assert_eq!(
                rows_cols_missing(&units, &cells),
                missing_symbols_paper(&units, &cells, 2 * n)
            );
            if n <= 12 {
                // f64 products are exact up to 12^12 < 2^53.
                let (a, b) = (mk_fitness(geom, &cells), mk_fitness_paper(geom, &cells));
                assert!((a - b).abs() <= 1e-9 * b.max(1.0), "{a} {b}");
            }
        }
    }
    assert_eq!(ret_ga_max(Geometry::NINE), 972);
}

#[test]
fn fitness_is_optimal_exactly_when_the_grid_is_solved() {
    let mut rng = rng_from_seed(11);
    let geom = Geometry::NINE;
    let units = Units::new(geom);
    let ret = RetGaFitness::new(&units);
    for p in bank().iter().filter(|p| p.solution.is_some()) {
        let sol = p.solution.as_ref().unwrap();
        assert_eq!(ret.eval(sol.cells()), 972);
        assert_eq!(mk_fitness(geom, sol.cells()), 0.0);
        assert_eq!(missing_symbols_cost(&units, sol.cells()), 0);
        // One changed cell breaks every measure.
        let mut cells = sol.cells().to_vec();
        let i = rng.random_range(0..81);
        cells[i] = cells[i] % 9 + 1;
        let g = Grid::from_cells(geom, cells.clone()).unwrap();
        assert!(!g.is_solved());
        assert!(ret.eval(&cells) < 972);
        assert!(mk_fitness(geom, &cells) > 0.0);
        assert!(missing_symbols_cost(&units, &cells) > 0);
    }
    // Random grids: maximal iff solved.
    for _ in 0..2000 {
        let cells = random_cells(geom, &mut rng, 0.0);
        let solved = Grid::from_cells(geom, cells.clone()).unwrap().is_solved();
        assert_eq!(ret.eval(&cells) == 972, solved);
    }
}

#[test]
fn kennett_compact_format() {
    let text = "% randomly generated - easy\n.7.924.8.\n5.......9\n..6...3..\n92.7.8.54\n....9....\n16.3.5.97\n..5...7..\n2.......5\n.4.563.1.\n% randomly generated - easy\n2.......6\n6..5.4..3\n..56932..\n.1.9.8.3.\n.7.....2.\n.9.1.2.4.\n..38697..\n1..2.5..4\n9.......2\n";
    let ps = parse_puzzles(text, "k.txt").unwrap();
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0].grid.to_line().len(), 81);
    assert_eq!(ps[1].grid.get(0, 0), 2);
    assert_eq!(ps[1].id, "randomly generated - easy#2");
}

#[test]
fn token_format_for_twelve() {
    let geom = Geometry::for_order(12).unwrap();
    let full = search(&Grid::empty(geom), 1).first.unwrap();
    let ps = parse_puzzles(&full.to_tokens(), "t.txt").unwrap();
    assert_eq!(ps[0].grid, full);
    assert_eq!(ps[0].geometry(), geom);
}

#[test]
fn parse_errors_name_the_problem() {
    let cases: &[(&str, &str)] = &[
        ("", "f:1:1: no puzzle found in the input"),
        ("123\n456\n", "f:1:1: unsupported size: a row of 3 cells"),
        (
            "1 2 3 4\n. . . .\n. . . .\n",
            "f:1:1: wrong length: 3 cells, expected 4 rows of 4 cells",
        ),
        (
            "1 2 3 4\n. . . .\n. . 9 .\n. . . .\n",
            "f:3:5: value 9 too large for order 4",
        ),
        ("12.4\n....\n..x.\n....\n", "f:3:3: unknown character 'x'"),
        (
            "1234\n1...\n....\n....\n",
            "f:2:1: givens conflict: 1 at r1c1 and r2c1 share a column",
        ),
        (
            "id\tgivens\tpuzzle\tsolution\nx\t3\t1234............\t\n",
            "f:2:3: malformed bank row: givens column says 3, the grid has 4",
        ),
    ];
    for (text, want) in cases {
        let e = parse_puzzles(text, "f").unwrap_err().to_string();
        assert!(e.starts_with(want), "got {e:?}, want {want:?}");
    }
    // Lenient parsing keeps the conflicting puzzle for `puzzles check`.
    let p = parse_lenient("1234\n1...\n....\n....\n", "f").unwrap();
    assert_eq!(p[0].conflicts.len(), 1);
}

#[test]
fn random_solutions_are_solved_seeded_and_round_trip_through_lines() {
    for &(r, c) in SUPPORTED_SHAPES.iter() {
        let geom = Geometry::new(r, c).unwrap();
        let a = exact::random_solution(geom, &mut rng_from_seed(7));
        let b = exact::random_solution(geom, &mut rng_from_seed(7));
        let other = exact::random_solution(geom, &mut rng_from_seed(8));
        assert!(a.is_solved(), "{r}x{c}");
        assert_eq!(a, b, "same seed, same grid ({r}x{c})");
        assert_ne!(a, other, "another seed, another grid ({r}x{c})");
        assert_eq!(Grid::from_line(geom, &a.to_line()), Some(a.clone()));
        if geom.n() <= 12 {
            let puzzle = exact::reduce_to_unique(&a, geom.cells() / 2, &mut rng_from_seed(1));
            assert_eq!(Grid::from_line(geom, &puzzle.to_line()), Some(puzzle));
        }
    }
    let g9 = Geometry::new(3, 3).unwrap();
    assert_eq!(Grid::from_line(g9, "12"), None, "too short");
    assert_eq!(Grid::from_line(g9, &"x".repeat(81)), None, "bad symbol");
    assert_eq!(
        Grid::from_line(g9, &"A".repeat(81)),
        None,
        "10 in a 9x9 grid"
    );
}

/// An empty 25x25 grid: `puzzles check` ran for minutes on it with naked singles only (issue
/// 11). With hidden singles and the most constrained cell it is settled (two solutions found)
/// in well under a second; the node limit that stops searches that would still run long is
/// tested in `exact::tests::node_limit_reports_an_incomplete_search`.
#[test]
fn the_exact_solver_settles_an_empty_25x25_grid() {
    let t = std::time::Instant::now();
    let g25 = sudoku_core::Grid::empty(sudoku_core::Geometry::for_order(25).unwrap());
    assert_eq!(count_solutions(&g25, 2), SolutionCount::Many(2));
    assert_eq!(sudoku_core::exact::unique_solution(&g25), None);
    assert!(
        t.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        t.elapsed()
    );
    // Smaller empty grids still resolve, and the hardest bank puzzle is still unique.
    let g16 = sudoku_core::Grid::empty(sudoku_core::Geometry::for_order(16).unwrap());
    assert_eq!(count_solutions(&g16, 2), SolutionCount::Many(2));
    let esc = sudoku_core::bank_puzzle("ai_escargot").unwrap();
    let s = search(&esc.grid, 2);
    assert!(s.complete && s.count == 1);
}

/// The evaluation-budget check every algorithm makes inside a generation (mk-ga after each
/// child, Lewis SA before every move): one method of `Budget`, table-driven. A limit is
/// reached at exactly `max_evaluations`; no limit is never reached.
#[test]
fn the_evaluation_limit_is_reached_at_the_budget() {
    for (max, spent, reached) in [
        (None, 0, false),
        (None, u64::MAX, false),
        (Some(0), 0, true),
        (Some(10), 9, false),
        (Some(10), 10, true),
        (Some(10), 11, true),
    ] {
        let budget = Budget {
            max_generations: Some(1),
            max_evaluations: max,
        };
        assert_eq!(budget.evaluations_spent(spent), reached, "{max:?} {spent}");
    }
}

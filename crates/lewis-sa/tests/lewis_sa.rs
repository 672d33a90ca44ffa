//! lewis-sa: the incremental cost against a full recount on every size, the move and the
//! acceptance on small tables, runs keep givens and box permutations, the budget is exact,
//! observer calls, a pinned outcome, and every Kennett very-easy and easy puzzle solved.

use lewis_sa::ops::*;
use lewis_sa::*;
use rand::Rng as _;
use std::time::Instant;
use sudoku_core::fitness::rows_cols_missing;
use sudoku_core::*;

/// A full grid of the shape with about `blank` of its cells emptied at random (not necessarily
/// a unique puzzle: enough for invariants and for the cost tables).
fn blanked(r: usize, c: usize, blank: f64, seed: u64) -> Puzzle {
    let geom = Geometry::new(r, c).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut g = exact::random_solution(geom, &mut rng);
    for v in g.cells_mut() {
        if rng.random_bool(blank) {
            *v = 0;
        }
    }
    Puzzle::new(format!("{r}x{c}"), g)
}

fn boxes_are_permutations(g: &Grid) -> bool {
    let geom = g.geometry();
    (0..geom.n())
        .all(|b| geom.box_cells(b).fold(0u32, |m, c| m | 1 << g.cells()[c]) == geom.full_mask())
}

const SHAPES: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)];

#[test]
fn swap_delta_equals_a_full_recount_on_every_size() {
    for (i, &(r, c)) in SHAPES.iter().enumerate() {
        let p = blanked(r, c, 0.6, i as u64);
        let layout = Layout::new(&p.grid);
        let units = Units::new(p.geometry());
        let mut rng = rng_from_seed(100 + i as u64);
        let mut cells = vec![0u8; p.geometry().cells()];
        layout.random_fill(&mut cells, &mut rng);
        let mut counts = Counts::new(&layout, &cells);
        let mut cost = counts.cost();
        assert_eq!(cost, rows_cols_missing(&units, &cells), "{r}x{c}");
        let (mut shared_row, mut shared_col, mut neither) = (0, 0, 0);
        for k in 0..3000 {
            let choice = if k % 2 == 0 {
                BoxChoice::UniformBox
            } else {
                BoxChoice::UniformPair
            };
            let (a, b) = layout.pick_move(choice, &mut rng).unwrap();
            let g = p.geometry();
            match (g.row_of(a) == g.row_of(b), g.col_of(a) == g.col_of(b)) {
                (true, _) => shared_row += 1,
                (_, true) => shared_col += 1,
                _ => neither += 1,
            }
            let delta = counts.swap_delta(&layout, &cells, a, b);
            let mut swapped = cells.clone();
            swapped.swap(a, b);
            let full = rows_cols_missing(&units, &swapped);
            assert_eq!(
                cost as i64 + delta as i64,
                full as i64,
                "{r}x{c} swap {a} {b}"
            );
            // Walk on (accept about half the moves) so the tables are tested far from the fill.
            if rng.random_bool(0.5) {
                counts.apply_swap(&layout, &mut cells, a, b);
                cost = full;
                assert_eq!(counts, Counts::new(&layout, &cells), "{r}x{c}");
                assert_eq!(counts.cost(), cost);
            }
        }
        // Every case of the delta was exercised (4x4 boxes of 2x2 too).
        assert!(shared_row > 0 && shared_col > 0 && neither > 0, "{r}x{c}");
        assert!(p
            .grid
            .cells()
            .iter()
            .zip(&cells)
            .all(|(&g, &v)| g == 0 || g == v));
    }
}

#[test]
fn swap_delta_table() {
    // 4x4 solved grid, no givens; cells 0, 1, 4, 5 form box 0.
    // 1 2 | 3 4
    // 3 4 | 1 2
    // ----+----
    // 2 1 | 4 3
    // 4 3 | 2 1
    let solved = "1234341221434321";
    // Each row: (grid, a, b, delta). Same row: only the two columns change; same column: only
    // the two rows; neither: two rows and two columns.
    let diag = "4234311221434321"; // solved with cells 0 and 5 swapped
    let cases: &[(&str, usize, usize, i32)] = &[
        (solved, 0, 1, 2),
        (solved, 0, 4, 2),
        (solved, 0, 5, 4),
        (solved, 6, 3, 4),
        (solved, 2, 6, 2),
        (diag, 0, 5, -4),
        (diag, 1, 4, 4),
        (diag, 1, 5, 0),
    ];
    let geom = Geometry::new(2, 2).unwrap();
    let layout = Layout::new(&Grid::empty(geom));
    let units = Units::new(geom);
    for &(line, a, b, want) in cases {
        let cells = Grid::from_line(geom, line).unwrap().cells().to_vec();
        let counts = Counts::new(&layout, &cells);
        assert_eq!(counts.cost(), rows_cols_missing(&units, &cells), "{line}");
        assert_eq!(
            counts.swap_delta(&layout, &cells, a, b),
            want,
            "{line} {a} {b}"
        );
        let mut after = cells.clone();
        after.swap(a, b);
        assert_eq!(
            rows_cols_missing(&units, &after) as i32 - counts.cost() as i32,
            want,
            "{line} {a} {b}: the hand-computed delta"
        );
    }
}

#[test]
fn acceptance_and_standard_deviation_table() {
    let cases: &[(i32, f64, f64)] = &[
        (-3, 0.5, 1.0),
        (0, 0.0, 1.0),
        (1, 1.0, (-1.0f64).exp()),
        (2, 4.0, (-0.5f64).exp()),
        (3, 0.0, 0.0),
    ];
    for &(delta, t, p) in cases {
        assert!(
            (acceptance_probability(delta, t) - p).abs() < 1e-12,
            "{delta} {t}"
        );
    }
    assert_eq!(std_dev(&[]), 0.0);
    assert_eq!(std_dev(&[7]), 0.0);
    assert_eq!(std_dev(&[5, 5, 5]), 0.0);
    assert!((std_dev(&[2, 4, 4, 4, 5, 5, 7, 9]) - 2.0).abs() < 1e-12);
}

#[test]
fn moves_stay_in_one_box_and_follow_the_box_choice() {
    // A 9x9 puzzle whose boxes have different numbers of free cells.
    let p = bank_puzzle("mk_easy").unwrap();
    let layout = Layout::new(&p.grid);
    let geom = p.geometry();
    let pairs = |b: usize| {
        let f = layout.free[b].len() as f64;
        f * (f - 1.0) / 2.0
    };
    let total_pairs: f64 = layout.swappable.iter().map(|&b| pairs(b)).sum();
    let draws = 90_000;
    for choice in [BoxChoice::UniformBox, BoxChoice::UniformPair] {
        let mut rng = rng_from_seed(11);
        let mut per_box = vec![0u32; geom.n()];
        for _ in 0..draws {
            let (a, b) = layout.pick_move(choice, &mut rng).unwrap();
            assert_ne!(a, b);
            assert_eq!(geom.box_of(a), geom.box_of(b));
            assert!(p.grid.cells()[a] == 0 && p.grid.cells()[b] == 0);
            per_box[geom.box_of(a)] += 1;
        }
        for &b in &layout.swappable {
            let want = match choice {
                BoxChoice::UniformBox => 1.0 / layout.swappable.len() as f64,
                BoxChoice::UniformPair => pairs(b) / total_pairs,
            };
            let sd = (draws as f64 * want * (1.0 - want)).sqrt();
            let got = per_box[b] as f64;
            assert!(
                (got - draws as f64 * want).abs() < 5.0 * sd,
                "{choice:?} box {b}: {got} vs {}",
                draws as f64 * want
            );
        }
    }
    // No box with two free cells: no move.
    let full = exact::solve(&Grid::empty(Geometry::NINE)).unwrap();
    assert!(Layout::new(&full)
        .pick_move(BoxChoice::UniformBox, &mut rng_from_seed(1))
        .is_none());
}

#[test]
fn runs_keep_givens_and_boxes_on_every_size() {
    let sa = LewisSa::new(LewisConfig::default()).unwrap();
    for (i, &(r, c)) in SHAPES.iter().enumerate() {
        let p = blanked(r, c, 0.5, 20 + i as u64);
        let budget = Budget {
            max_generations: Some(1_000),
            max_evaluations: Some(3_000_000),
        };
        let out = sa.solve(&p, &budget, &mut rng_from_seed(i as u64), &mut NoObserver);
        assert!(out.grid.keeps_givens_of(&p.grid), "{r}x{c}");
        assert!(boxes_are_permutations(&out.grid), "{r}x{c}");
        let units = Units::new(p.geometry());
        assert_eq!(
            rows_cols_missing(&units, out.grid.cells()) as f64,
            out.best_fitness,
            "{r}x{c}: best_fitness is the cost of the returned grid"
        );
        assert_eq!(out.solved, out.best_fitness == 0.0);
        assert_eq!(out.solved, out.grid.is_solved(), "{r}x{c}");
        assert!(
            out.evaluations <= 3_000_000 && out.generations <= 1_000,
            "{r}x{c}"
        );
        eprintln!(
            "{r}x{c}: solved {} cost {} after {} chains, {} evaluations",
            out.solved, out.best_fitness, out.generations, out.evaluations
        );
        if r * c <= 9 {
            assert!(
                out.solved,
                "{r}x{c} with half the cells given: {}",
                out.best_fitness
            );
        }
    }
}

#[test]
fn every_option_keeps_the_invariants() {
    let p = bank_puzzle("mk_superdifficult").unwrap();
    let configs = [
        LewisConfig {
            t0_sampling: T0Sampling::Walk,
            ..Default::default()
        },
        LewisConfig {
            reheat: Reheat::Randomise,
            reheat_after: 2,
            chain_length: Some(300),
            ..Default::default()
        },
        LewisConfig {
            reheat: Reheat::Never,
            reheat_trigger: ReheatTrigger::CurrentCost,
            box_choice: BoxChoice::UniformPair,
            ..Default::default()
        },
        LewisConfig {
            alpha: 1.0,
            reheat_after: 1,
            chain_length: Some(100),
            ..Default::default()
        },
    ];
    for cfg in configs {
        let sa = LewisSa::new(cfg.clone()).unwrap();
        let budget = Budget {
            max_generations: Some(40),
            max_evaluations: Some(60_000),
        };
        let out = sa.solve(p, &budget, &mut rng_from_seed(3), &mut NoObserver);
        assert!(out.grid.keeps_givens_of(&p.grid), "{cfg:?}");
        assert!(boxes_are_permutations(&out.grid), "{cfg:?}");
        assert!(
            out.evaluations <= 60_000 && out.generations <= 40,
            "{cfg:?}"
        );
        assert_eq!(out.restarts, out.counters[0].1);
        match cfg.reheat {
            Reheat::Never => assert_eq!(out.restarts, 0),
            // reheat_after 1 with no cooling: a reheat after every chain that did not improve.
            _ if cfg.reheat_after <= 2 && !out.solved => assert!(out.restarts > 0, "{cfg:?}"),
            _ => {}
        }
    }
    for bad in [
        LewisConfig {
            alpha: 0.0,
            ..Default::default()
        },
        LewisConfig {
            alpha: 1.5,
            ..Default::default()
        },
        LewisConfig {
            chain_length: Some(0),
            ..Default::default()
        },
        LewisConfig {
            t0_samples: 1,
            ..Default::default()
        },
        LewisConfig {
            reheat_after: 0,
            ..Default::default()
        },
    ] {
        assert!(LewisSa::new(bad).is_err());
    }
}

#[test]
fn the_evaluation_budget_is_exact() {
    let sa = LewisSa::new(LewisConfig::default()).unwrap();
    let p = bank_puzzle("ai_escargot").unwrap();
    // Inside the t0 sample (<= 101), at a chain boundary and inside chains.
    for max in [1u64, 2, 50, 101, 102, 3_000, 12_345, 100_003] {
        let budget = Budget {
            max_generations: None,
            max_evaluations: Some(max),
        };
        let out = sa.solve(p, &budget, &mut rng_from_seed(max), &mut NoObserver);
        assert!(out.evaluations <= max, "{max}: {}", out.evaluations);
        if !out.solved {
            assert_eq!(out.evaluations, max, "{max}");
            assert_eq!(out.termination, Termination::EvaluationLimit);
        }
    }
    // A Randomise reheat's cost counts and is checked too.
    let sa = LewisSa::new(LewisConfig {
        reheat: Reheat::Randomise,
        reheat_after: 1,
        chain_length: Some(7),
        ..Default::default()
    })
    .unwrap();
    for max in [108u64, 109, 115, 116, 117, 1000] {
        let budget = Budget {
            max_generations: None,
            max_evaluations: Some(max),
        };
        let out = sa.solve(p, &budget, &mut rng_from_seed(max), &mut NoObserver);
        assert_eq!(out.evaluations, max, "{max}");
    }
    // Generations are Markov chains: exactly the limit, each of full length when unsolved.
    let sa = LewisSa::new(LewisConfig::default()).unwrap();
    let free = p.grid.cells().iter().filter(|&&v| v == 0).count() as u64;
    let out = sa.solve(
        p,
        &Budget::generations(3),
        &mut rng_from_seed(5),
        &mut NoObserver,
    );
    assert!(!out.solved);
    assert_eq!(out.generations, 3);
    assert_eq!(out.evaluations, 1 + 100 + 3 * free * free);
    assert_eq!(out.termination, Termination::GenerationLimit);
}

#[derive(Default)]
struct Recorder {
    grids: bool,
    generations: Vec<(u64, u64, f64)>,
    restarts: Vec<u64>,
    best: Vec<(u64, Vec<u8>)>,
}

impl Observer for Recorder {
    fn generation(&mut self, g: u64, e: u64, b: f64) {
        self.generations.push((g, e, b));
    }
    fn restart(&mut self, g: u64) {
        self.restarts.push(g);
    }
    fn wants_grids(&self) -> bool {
        self.grids
    }
    fn best_grid(&mut self, e: u64, cells: &[u8]) {
        self.best.push((e, cells.to_vec()));
    }
}

#[test]
fn observer_sees_chains_reheats_and_each_new_best() {
    let p = bank_puzzle("mk_superdifficult").unwrap();
    let units = Units::new(p.geometry());
    let sa = LewisSa::new(LewisConfig {
        chain_length: Some(500),
        reheat_after: 3,
        ..Default::default()
    })
    .unwrap();
    let budget = Budget::generations(200);
    for grids in [false, true] {
        let mut rec = Recorder {
            grids,
            ..Default::default()
        };
        let out = sa.solve(p, &budget, &mut rng_from_seed(8), &mut rec);
        assert_eq!(rec.generations.len() as u64, out.generations);
        for (k, w) in rec.generations.windows(2).enumerate() {
            assert_eq!(w[0].0 + 1, w[1].0);
            assert!(w[0].1 < w[1].1 && w[0].2 >= w[1].2, "chain {k}");
        }
        let last = rec.generations.last().unwrap();
        assert_eq!((last.1, last.2), (out.evaluations, out.best_fitness));
        assert_eq!(rec.restarts.len() as u64, out.restarts);
        assert!(out.restarts > 0);
        if !grids {
            assert!(rec.best.is_empty());
            continue;
        }
        // The initial grid first, then one call per strict improvement, the last one the
        // returned grid.
        assert_eq!(rec.best[0].0, 1);
        let costs: Vec<u32> = rec
            .best
            .iter()
            .map(|(_, g)| rows_cols_missing(&units, g))
            .collect();
        assert!(costs.windows(2).all(|w| w[0] > w[1]), "{costs:?}");
        assert!(rec.best.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(rec.best.last().unwrap().1, out.grid.cells());
    }
}

#[test]
fn runs_are_reproducible_and_pinned() {
    let sa = LewisSa::new(LewisConfig::default()).unwrap();
    let p = bank_puzzle("mk_easy").unwrap();
    let budget = Budget {
        max_generations: Some(1_000),
        max_evaluations: Some(10_000_000),
    };
    let a = sa.solve(p, &budget, &mut rng_from_seed(1), &mut NoObserver);
    assert_eq!(
        a,
        sa.solve(p, &budget, &mut rng_from_seed(1), &mut NoObserver)
    );
    assert_eq!(
        (a.solved, a.generations, a.evaluations, a.restarts),
        PINNED,
        "{:?}",
        a.counters
    );
}

const PINNED: (bool, u64, u64, u64) = (true, 86, 174_115, 0);

fn kennett(text: &str, name: &str) -> Vec<Puzzle> {
    parse::parse_puzzles(text, name).unwrap()
}

/// Lewis: the SA "is able to complete logic-solvable puzzle-instances that feature daily in
/// many of the UK's national newspapers". Every puzzle of the committed Kennett very-easy and
/// easy sets, one run each with the default parameters and a generous budget (20 million
/// evaluations, about 100 times the mean need), the two sets on two threads (each run is
/// seeded by its index, so the outcome does not depend on the threads).
#[test]
fn solves_every_kennett_very_easy_and_easy_puzzle() {
    let sa = LewisSa::new(LewisConfig::default()).unwrap();
    let budget = Budget {
        max_generations: None,
        max_evaluations: Some(20_000_000),
    };
    let t = Instant::now();
    let sets = [
        (
            "very-easy",
            include_str!("../../../experiments/puzzles/kennett/very-easy.txt"),
        ),
        (
            "easy",
            include_str!("../../../experiments/puzzles/kennett/easy.txt"),
        ),
    ];
    let results: Vec<(u64, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = sets
            .iter()
            .map(|&(name, text)| {
                let sa = &sa;
                s.spawn(move || {
                    let puzzles = kennett(text, name);
                    assert_eq!(puzzles.len(), 1000);
                    let mut evaluations = 0u64;
                    let mut unsolved = Vec::new();
                    for (i, p) in puzzles.iter().enumerate() {
                        let out =
                            sa.solve(p, &budget, &mut rng_from_seed(i as u64), &mut NoObserver);
                        evaluations += out.evaluations;
                        if out.solved {
                            assert!(out.grid.keeps_givens_of(&p.grid) && out.grid.is_solved());
                        } else {
                            unsolved.push(format!("{name} #{i}: cost {}", out.best_fitness));
                        }
                    }
                    (evaluations, unsolved)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let evaluations: u64 = results.iter().map(|r| r.0).sum();
    let unsolved: Vec<&String> = results.iter().flat_map(|r| &r.1).collect();
    eprintln!(
        "2000 Kennett puzzles (very-easy, easy): {evaluations} evaluations in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(unsolved.is_empty(), "not solved: {unsolved:?}");
}

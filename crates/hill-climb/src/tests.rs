//! The crate's own tests: options, runs, budgets and determinism. The runner's registry tests
//! add the checks every algorithm passes (declared counters, ambiguity table, capped runs).

use super::*;
use sudoku_core::{bank_puzzle, rng_from_seed, NoObserver};

fn options(text: &str) -> Options {
    toml::from_str(text).unwrap()
}

fn run(config: HillClimbConfig, puzzle: &str, budget: Budget, seed: u64) -> RunOutcome {
    let p = bank_puzzle(puzzle).unwrap();
    HillClimbSolver::new(config).solve(p, &budget, &mut rng_from_seed(seed), &mut NoObserver)
}

/// Each option table gives its configuration, or an error naming the key.
#[test]
fn options_table() {
    let d = HillClimbConfig::default();
    let cases: &[(&str, Result<HillClimbConfig, &str>)] = &[
        ("", Ok(d.clone())),
        (
            "acceptance = \"improving\"",
            Ok(HillClimbConfig {
                acceptance: Acceptance::Improving,
                ..d.clone()
            }),
        ),
        (
            "patience = 5\nmoves_per_generation = 7",
            Ok(HillClimbConfig {
                patience: 5,
                moves_per_generation: Some(7),
                ..d.clone()
            }),
        ),
        (
            "acceptance = \"greedy\"",
            Err("acceptance = 'greedy' is not one of"),
        ),
        ("patience = 0", Err("patience = 0")),
        ("moves_per_generation = 0", Err("moves_per_generation = 0")),
        ("patience = -1", Err("patience")),
        ("patience = \"many\"", Err("patience")),
        ("pateince = 3", Err("pateince")),
    ];
    for (text, want) in cases {
        let got = HillClimbConfig::from_options(&options(text));
        match (got, want) {
            (Ok(c), Ok(w)) => assert_eq!(&c, w, "{text}"),
            (Err(e), Err(w)) => {
                let e = e.to_string();
                assert!(e.contains(w) && !e.contains('\n'), "{text}: {e}");
            }
            (got, _) => panic!("{text}: {got:?}"),
        }
    }
}

/// The ambiguity table is consistent, and each of its values builds a solver.
#[test]
fn ambiguity_table() {
    Ambiguity::check_table(AMBIGUITIES).unwrap();
    for a in AMBIGUITIES {
        for v in a.values {
            let t = options(&format!("{} = \"{v}\"", a.key));
            ALGORITHM
                .build(&t)
                .unwrap_or_else(|e| panic!("{}={v}: {e}", a.key));
        }
    }
}

/// Solves easy puzzles of two orders, keeping the givens, and reports a valid outcome.
#[test]
fn solves_easy_puzzles() {
    for (puzzle, seed) in [("mk_easy", 1), ("mk_easy", 2), ("reseda_easy", 1)] {
        let out = run(
            HillClimbConfig::default(),
            puzzle,
            Budget::generations(20_000),
            seed,
        );
        let p = bank_puzzle(puzzle).unwrap();
        assert!(out.solved, "{puzzle} seed {seed}: {out:?}");
        assert_eq!(out.termination, Termination::Solved);
        assert!(out.grid.is_solved() && out.grid.keeps_givens_of(&p.grid));
        assert_eq!(out.best_fitness, 0.0);
        let accepted = out.counters[0].1;
        assert!(accepted >= out.counters[1].1 && accepted < out.evaluations);
    }
}

/// The same seed gives the same run; another seed another one.
#[test]
fn runs_are_deterministic() {
    let budget = Budget::generations(50);
    let a = run(HillClimbConfig::default(), "mk_superdifficult", budget, 9);
    let b = run(HillClimbConfig::default(), "mk_superdifficult", budget, 9);
    let c = run(HillClimbConfig::default(), "mk_superdifficult", budget, 10);
    assert_eq!(a, b);
    assert_ne!(a.grid, c.grid);
}

/// The evaluation limit is exact and the generation limit counts generations; a short
/// patience restarts.
#[test]
fn budgets_and_restarts() {
    for max in [1u64, 2, 37, 1000, 12_345] {
        let budget = Budget {
            max_generations: None,
            max_evaluations: Some(max),
        };
        let out = run(HillClimbConfig::default(), "mk_superdifficult", budget, 3);
        assert_eq!(out.evaluations, max, "{max}");
        assert_eq!(out.termination, Termination::EvaluationLimit, "{max}");
    }
    let config = HillClimbConfig {
        patience: 10,
        moves_per_generation: Some(100),
        ..HillClimbConfig::default()
    };
    let out = run(config, "mk_superdifficult", Budget::generations(30), 3);
    assert_eq!(out.termination, Termination::GenerationLimit);
    assert_eq!(out.generations, 30);
    assert_eq!(out.evaluations, 1 + 30 * 100);
    assert!(out.restarts > 0, "{out:?}");
}

/// A puzzle whose boxes have at most one free cell has no move: the forced fill is the
/// answer.
#[test]
fn a_forced_fill_solves_without_moves() {
    let p = bank_puzzle("mk_easy").unwrap();
    let solution = sudoku_core::exact::solve(&p.grid).unwrap();
    let mut cells = solution.cells().to_vec();
    cells[0] = 0;
    let forced = Puzzle::new(
        "forced",
        Grid::from_cells(solution.geometry(), cells).unwrap(),
    );
    let out = HillClimbSolver::new(HillClimbConfig::default()).solve(
        &forced,
        &Budget::generations(5),
        &mut rng_from_seed(1),
        &mut NoObserver,
    );
    assert!(out.solved && out.generations == 0, "{out:?}");
}

//! Ret-GA: operators keep the givens, Remove Repetition does what the paper says, the reset
//! table, value stability, budgets.

use ret_ga::ops::*;
use ret_ga::*;
use sudoku_core::*;

fn puzzle(id: &str) -> &'static Puzzle {
    bank_puzzle(id).unwrap()
}

#[test]
fn reset_points_follow_the_paper_table() {
    for (givens, want) in [
        (22, 2000),
        (27, 2000),
        (28, 350),
        (29, 350),
        (30, 300),
        (31, 300),
        (32, 200),
        (36, 200),
    ] {
        assert_eq!(paper_reset_point(givens), want, "{givens}");
    }
    let ga = RetGa::new(RetGaConfig::default()).unwrap();
    assert_eq!(ga.reset_point(puzzle("mk_1star")), 200);
    assert_eq!(ga.reset_point(puzzle("mk_superdifficult")), 2000);
}

#[test]
fn invalid_configs_are_rejected() {
    let bad = [
        RetGaConfig {
            population_factor: 0,
            ..Default::default()
        },
        RetGaConfig {
            crossover_probability: 1.5,
            ..Default::default()
        },
        RetGaConfig {
            mutation_probability: -0.1,
            ..Default::default()
        },
        RetGaConfig {
            reset_point: Some(0),
            ..Default::default()
        },
    ];
    for c in bad {
        assert!(RetGa::new(c).is_err());
    }
}

#[test]
fn operators_keep_every_given() {
    let mut rng = rng_from_seed(3);
    for id in ["mk_1star", "mk_superdifficult", "das_fig1"] {
        let p = puzzle(id);
        let bp = Blueprint::new(p);
        for set in [RepetitionSet::PresentInUnit, RepetitionSet::GivensOfUnit] {
            for _ in 0..200 {
                let mut a = vec![0u8; 81];
                let mut b = vec![0u8; 81];
                random_individual(&bp, &mut a, &mut rng);
                random_individual(&bp, &mut b, &mut rng);
                remove_repetition(&bp, set, &mut a, &mut rng);
                row_uniform_crossover(bp.geom, &mut a, &mut b);
                bitwise_mutation(&bp, 0.2, &mut b, &mut rng);
                remove_repetition(&bp, set, &mut b, &mut rng);
                for g in [&a, &b] {
                    let grid = Grid::from_cells(p.geometry(), g.to_vec()).unwrap();
                    assert!(grid.keeps_givens_of(&p.grid), "{id}");
                    assert!(g.iter().all(|&v| (1..=9).contains(&v)));
                }
            }
        }
    }
}

/// After Remove Repetition (rows, then columns), no non-given cell repeats a given of its
/// column (the last pass); with PresentInUnit the column pass never repeats any value already
/// in the column either.
#[test]
fn remove_repetition_clears_column_repeats_of_givens() {
    let mut rng = rng_from_seed(5);
    let p = puzzle("mk_challenging");
    let bp = Blueprint::new(p);
    let g = p.geometry();
    for _ in 0..500 {
        let mut a = vec![0u8; 81];
        random_individual(&bp, &mut a, &mut rng);
        remove_repetition(&bp, RepetitionSet::PresentInUnit, &mut a, &mut rng);
        for c in 0..9 {
            let givens: Vec<u8> = g
                .col_cells(c)
                .map(|i| p.grid.cells()[i])
                .filter(|&v| v != 0)
                .collect();
            for i in g.col_cells(c).filter(|&i| p.grid.cells()[i] == 0) {
                assert!(!givens.contains(&a[i]), "column {c} repeats a given");
            }
        }
    }
}

/// Table-driven: a row with givens {1, 2} and free cells holding 1, 1, 5, 2 (4x4 grid).
#[test]
fn remove_repetition_table() {
    let geom = Geometry::new(2, 2).unwrap();
    // Row 0: given 1 at c0; row 1 empty; column 0 given 1 only.
    let mut cells = vec![0u8; 16];
    cells[0] = 1;
    let p = Puzzle::new("t", Grid::from_cells(geom, cells).unwrap());
    let bp = Blueprint::new(&p);
    let mut rng = rng_from_seed(9);
    for _ in 0..100 {
        // Row 0 = 1 | 1 1 4 : the two free 1s repeat the given; present = {1,4}, so they
        // become 2 and 3 in some order (PresentInUnit never repeats a value).
        let mut ind = vec![1, 1, 1, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 2, 3, 1];
        let changed = remove_repetition(&bp, RepetitionSet::PresentInUnit, &mut ind, &mut rng);
        let mut row0 = ind[..4].to_vec();
        row0.sort();
        assert_eq!(row0, [1, 2, 3, 4]);
        // Column 0: cells 4, 8, 12 hold 2, 3, 4: no repeat of the given 1.
        assert_eq!(&ind[4..], &[2, 3, 4, 1, 3, 4, 1, 2, 4, 2, 3, 1]);
        assert_eq!(changed, 2);
    }
}

#[test]
fn bitwise_mutation_rate_is_the_papers() {
    let p = puzzle("mk_1star");
    let bp = Blueprint::new(p);
    let mut rng = rng_from_seed(11);
    let mut a = vec![0u8; 81];
    random_individual(&bp, &mut a, &mut rng);
    let trials = 4000;
    let redrawn: u32 = (0..trials)
        .map(|_| bitwise_mutation(&bp, 0.2, &mut a, &mut rng))
        .sum();
    let rate = redrawn as f64 / (trials as f64 * bp.free.len() as f64);
    assert!((rate - 0.2).abs() < 0.005, "{rate}");
}

#[test]
fn runs_are_reproducible_and_pinned() {
    let ga = RetGa::new(RetGaConfig::default()).unwrap();
    let p = puzzle("mk_easy");
    let run = |seed| {
        ga.solve(
            p,
            &Budget::generations(50_000),
            &mut rng_from_seed(seed),
            &mut NoObserver,
        )
    };
    let a = run(1);
    assert_eq!(a, run(1));
    assert!(a.solved && a.grid.is_solved() && a.grid.keeps_givens_of(&p.grid));
    assert_eq!(Some(&a.grid), p.solution.as_ref());
    // Value stability: changing the RNG stream, the operator order or a default changes these.
    assert_eq!(
        (a.generations, a.evaluations, a.restarts),
        PINNED_EASY_SEED1
    );
}

const PINNED_EASY_SEED1: (u64, u64, u64) = (476, 77126, 0);

#[test]
fn budget_is_respected() {
    let ga = RetGa::new(RetGaConfig::default()).unwrap();
    let p = puzzle("mk_superdifficult");
    let out = ga.solve(
        p,
        &Budget::generations(30),
        &mut rng_from_seed(2),
        &mut NoObserver,
    );
    assert!(!out.solved);
    assert_eq!(out.generations, 30);
    assert_eq!(out.termination, Termination::GenerationLimit);
    let out = ga.solve(
        p,
        &Budget {
            max_generations: None,
            max_evaluations: Some(1000),
        },
        &mut rng_from_seed(2),
        &mut NoObserver,
    );
    assert_eq!(out.termination, Termination::EvaluationLimit);
    assert!(out.evaluations >= 1000 && out.evaluations < 1000 + 200);
}

#[test]
fn every_option_runs() {
    let p = puzzle("mk_easy");
    let configs = [
        RetGaConfig {
            reset_rule: ResetRule::FixedPeriod,
            reset_point: Some(50),
            ..Default::default()
        },
        RetGaConfig {
            reset_rule: ResetRule::Never,
            ..Default::default()
        },
        RetGaConfig {
            repetition_set: RepetitionSet::GivensOfUnit,
            ..Default::default()
        },
        RetGaConfig {
            pairing: Pairing::Random,
            ..Default::default()
        },
        RetGaConfig {
            elite_order: EliteOrder::AscendingLiteral,
            ..Default::default()
        },
        RetGaConfig {
            success_generation: SuccessGeneration::Completed,
            ..Default::default()
        },
    ];
    for c in configs {
        let ga = RetGa::new(c.clone()).unwrap();
        let out = ga.solve(
            p,
            &Budget::generations(300),
            &mut rng_from_seed(4),
            &mut NoObserver,
        );
        assert!(out.grid.keeps_givens_of(&p.grid), "{c:?}");
        if out.solved {
            assert!(out.grid.is_solved());
        }
    }
}

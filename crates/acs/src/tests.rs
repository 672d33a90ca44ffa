//! The crate's own tests: options, the colony's updates, runs, budgets and determinism. The
//! runner's registry tests add the checks every algorithm passes (declared counters,
//! ambiguity table, capped runs).

use super::*;
use sudoku_core::{bank_puzzle, rng_from_seed, Geometry, NoObserver};

fn options(text: &str) -> Options {
    toml::from_str(text).unwrap()
}

fn run(config: AcsConfig, puzzle: &Puzzle, budget: Budget, seed: u64) -> RunOutcome {
    AcsSolver::new(config).solve(puzzle, &budget, &mut rng_from_seed(seed), &mut NoObserver)
}

/// A puzzle of order `geom` with about `keep` of its cells given: a solution made from the
/// shifted-rows pattern by relabelling the values and permuting rows inside bands, bands,
/// columns inside stacks and stacks, then cells blanked at random.
pub(crate) fn random_puzzle(geom: Geometry, keep: f64, seed: u64) -> Puzzle {
    use rand::seq::SliceRandom;
    let mut rng = rng_from_seed(seed);
    let pattern = board::tests::pattern_solution(geom);
    let (n, br, bc) = (geom.n(), geom.box_rows(), geom.box_cols());
    let perm = |groups: usize, size: usize, rng: &mut Rng| {
        let mut outer: Vec<usize> = (0..groups).collect();
        outer.shuffle(rng);
        let mut order = Vec::new();
        for g in outer {
            let mut inner: Vec<usize> = (0..size).collect();
            inner.shuffle(rng);
            order.extend(inner.into_iter().map(|k| g * size + k));
        }
        order
    };
    let rows = perm(n / br, br, &mut rng);
    let cols = perm(n / bc, bc, &mut rng);
    let mut label: Vec<u8> = (1..=n as u8).collect();
    label.shuffle(&mut rng);
    let cells = (0..n * n)
        .map(|i| {
            let v = pattern[rows[i / n] * n + cols[i % n]];
            if rng.random::<f64>() < keep {
                label[v as usize - 1]
            } else {
                0
            }
        })
        .collect();
    Puzzle::new(
        format!("random-{n}-{seed}"),
        Grid::from_cells(geom, cells).unwrap(),
    )
}

/// A 4x4 puzzle without a solution (cells 1 and 5 both need 4): runs go to their budget.
fn unsolvable() -> Puzzle {
    let g = Geometry::new(2, 2).unwrap();
    Puzzle::new(
        "unsolvable",
        Grid::from_line(g, "3...1........2..").unwrap(),
    )
}

/// Each option table gives its configuration, or an error naming the key.
#[test]
fn options_table() {
    let d = AcsConfig::default();
    let cases: &[(&str, Result<AcsConfig, &str>)] = &[
        ("", Ok(d.clone())),
        (
            "greedy_rule = \"one-minus-q0\"\ntie_break = \"random\"\nstart_cell = \"independent\"\npropagation = \"fixpoint\"",
            Ok(AcsConfig {
                greedy_rule: GreedyRule::OneMinusQ0,
                tie_break: TieBreak::Random,
                start_cell: StartCell::Independent,
                propagation: Propagation::Fixpoint,
                ..d.clone()
            }),
        ),
        (
            "ants = 3\nq0 = 0.5\nxi = 0.2\nrho = 0.1\nbve = 0.0",
            Ok(AcsConfig {
                ants: 3,
                q0: 0.5,
                xi: 0.2,
                rho: 0.1,
                bve: 0.0,
                ..d.clone()
            }),
        ),
        (
            "q0 = 1.0\nrho = 1.0",
            Ok(AcsConfig {
                q0: 1.0,
                rho: 1.0,
                ..d.clone()
            }),
        ),
        (
            "greedy_rule = \"greedy\"",
            Err("greedy_rule = 'greedy' is not one of: q0, one-minus-q0"),
        ),
        (
            "tie_break = \"first\"",
            Err("tie_break = 'first' is not one of"),
        ),
        (
            "start_cell = \"same\"",
            Err("start_cell = 'same' is not one of"),
        ),
        (
            "propagation = \"full\"",
            Err("propagation = 'full' is not one of: cascade, fixpoint"),
        ),
        ("ants = 0", Err("ants = 0")),
        ("ants = 100001", Err("ants = 100001")),
        ("ants = -1", Err("ants")),
        ("q0 = 1.5", Err("q0 = 1.5: must be in [0, 1]")),
        ("bve = -0.1", Err("bve = -0.1")),
        ("rho = nan", Err("rho = NaN")),
        ("xi = \"small\"", Err("xi")),
        ("evap = 0.005", Err("evap")),
    ];
    for (text, want) in cases {
        let got = AcsConfig::from_options(&options(text));
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

/// The ambiguity table is consistent, and each of its values builds a solver that solves.
#[test]
fn ambiguity_table() {
    Ambiguity::check_table(AMBIGUITIES).unwrap();
    let p = bank_puzzle("mk_1star").unwrap();
    for a in AMBIGUITIES {
        for v in a.values {
            let t = options(&format!("{} = \"{v}\"", a.key));
            let s = ALGORITHM
                .build(&t)
                .unwrap_or_else(|e| panic!("{}={v}: {e}", a.key));
            let out = s.solve(
                p,
                &Budget::generations(500),
                &mut rng_from_seed(1),
                &mut NoObserver,
            );
            assert!(out.solved, "{}={v}: {out:?}", a.key);
        }
    }
    assert_eq!(Ambiguity::combinations(AMBIGUITIES), 16);
}

/// Solves puzzles of 4x4, 9x9 (the bank) and 16x16 (half the cells given), keeping the
/// givens, with a complete grid and the best score.
#[test]
fn solves_easy_puzzles() {
    let g4 = Geometry::new(2, 2).unwrap();
    let g16 = Geometry::new(4, 4).unwrap();
    let mut puzzles: Vec<Puzzle> = vec![random_puzzle(g4, 0.25, 1), random_puzzle(g4, 0.0, 2)];
    for id in [
        "mk_1star",
        "mk_2star",
        "mk_5star",
        "reseda_medium",
        "mk_superdifficult",
    ] {
        puzzles.push(bank_puzzle(id).unwrap().clone());
    }
    puzzles.push(random_puzzle(g16, 0.5, 3));
    for (k, p) in puzzles.iter().enumerate() {
        for (config, seed) in [
            (AcsConfig::default(), 1),
            (
                AcsConfig {
                    greedy_rule: GreedyRule::OneMinusQ0,
                    ..AcsConfig::default()
                },
                2,
            ),
        ] {
            let out = run(config, p, Budget::generations(3000), seed);
            assert!(out.solved, "{} seed {seed}: {out:?}", p.id);
            assert_eq!(out.termination, Termination::Solved);
            assert!(
                out.grid.is_solved() && out.grid.keeps_givens_of(&p.grid),
                "{k}"
            );
            assert_eq!(out.best_fitness, p.geometry().cells() as f64);
            assert_eq!(out.evaluations, 10 * out.generations);
        }
    }
}

/// A puzzle the initial propagation solves takes one iteration, as in the code; none when
/// the budget allows none.
#[test]
fn propagation_alone_solves_easy_puzzles() {
    let p = bank_puzzle("mk_easy").unwrap();
    let out = run(AcsConfig::default(), p, Budget::generations(5), 1);
    assert!(
        out.solved && out.generations == 1 && out.evaluations == 10,
        "{out:?}"
    );
    assert_eq!(out.counters[0], ("initial_fixed", 81));
    assert_eq!(out.counters[1], ("ant_choices", 0));
    assert!(out.grid.is_solved() && out.grid.keeps_givens_of(&p.grid));
    let out = run(AcsConfig::default(), p, Budget::generations(0), 1);
    assert!(
        !out.solved && out.evaluations == 0 && out.best_fitness == 81.0,
        "{out:?}"
    );
}

/// The same seed gives the same run; another seed another one.
#[test]
fn runs_are_deterministic() {
    let p = random_puzzle(Geometry::new(5, 5).unwrap(), 0.42, 8);
    let budget = Budget::generations(3);
    let a = run(AcsConfig::default(), &p, budget, 9);
    let b = run(AcsConfig::default(), &p, budget, 9);
    let c = run(AcsConfig::default(), &p, budget, 10);
    assert!(!a.solved, "{a:?}");
    assert_eq!(a, b);
    assert_ne!((a.grid, a.counters), (c.grid, c.counters));
}

/// The generation limit counts iterations of `ants` evaluations; the evaluation limit is
/// checked between iterations, so a run stops within one iteration over it.
#[test]
fn budgets() {
    let p = unsolvable();
    let out = run(AcsConfig::default(), &p, Budget::generations(7), 3);
    assert_eq!(
        (out.termination, out.generations, out.evaluations),
        (Termination::GenerationLimit, 7, 70)
    );
    for (max, want) in [(0u64, 0u64), (1, 10), (10, 10), (25, 30), (100, 100)] {
        let budget = Budget {
            max_generations: None,
            max_evaluations: Some(max),
        };
        let out = run(
            AcsConfig {
                ants: 10,
                ..AcsConfig::default()
            },
            &p,
            budget,
            3,
        );
        assert_eq!(out.evaluations, want, "{max}");
        assert_eq!(out.termination, Termination::EvaluationLimit, "{max}");
    }
    // No evaluation: the grid is the puzzle board's fixed cells.
    let budget = Budget {
        max_generations: Some(0),
        max_evaluations: None,
    };
    let out = run(AcsConfig::default(), &p, budget, 3);
    assert_eq!(out.best_fitness, out.counters[0].1 as f64);
    assert!(out.grid.keeps_givens_of(&p.grid));
}

/// The counters add up, and the greedy branch is taken with probability q0 under the
/// paper's rule and 1 - q0 under the code's.
#[test]
fn counters_and_the_greedy_share() {
    let p = unsolvable();
    for (rule, low, high) in [
        (GreedyRule::Q0, 0.87, 0.93),
        (GreedyRule::OneMinusQ0, 0.07, 0.13),
    ] {
        let config = AcsConfig {
            greedy_rule: rule,
            ..AcsConfig::default()
        };
        let out = run(config, &p, Budget::generations(300), 4);
        let c: Vec<u64> = out.counters.iter().map(|c| c.1).collect();
        let [initial, choices, greedy, propagated, fails, replaced, worse] = c[..] else {
            panic!("{c:?}")
        };
        let share = greedy as f64 / choices as f64;
        assert!((low..=high).contains(&share), "{rule:?}: {share}");
        // Every cell of every construction is given, chosen, propagated or failed.
        assert_eq!(
            initial * out.evaluations + choices + propagated + fails,
            16 * out.evaluations
        );
        assert!(replaced >= 1 && worse < replaced, "{c:?}");
    }
}

/// The global update touches exactly the best solution's fixed values, with eq. (6); the
/// best deposit then evaporates by eq. (7); a worse iteration best replaces the best solution
/// once the best deposit has evaporated below its own.
#[test]
fn global_update_and_best_value_evaporation() {
    let p = random_puzzle(Geometry::new(2, 2).unwrap(), 0.0, 5);
    let config = AcsConfig {
        ants: 2,
        ..AcsConfig::default()
    };
    let mut colony = Colony::new(&config, &p.grid);
    let mut rng = rng_from_seed(6);
    let (best, score) = colony.iterate(&mut rng);
    let before = colony.pher.clone();
    colony.update(best, score);
    let deposit = ops::deposit(16, score);
    for (i, &m) in colony.ants[best].board.cand.iter().enumerate() {
        for v in 0..4 {
            let want = if is_single(m) && m.trailing_zeros() == v {
                ops::global_update(before[i * 4 + v as usize], 0.9, deposit)
            } else {
                before[i * 4 + v as usize]
            };
            assert_eq!(colony.pher[i * 4 + v as usize], want, "cell {i} value {v}");
        }
    }
    assert_eq!(colony.best_pher, deposit * (1.0 - 0.005f32));
    assert_eq!(colony.counts.best_replacements, 1);
    // An iteration best of 12 cells (deposit 4) against a best deposit evaporated to 3.9:
    // it replaces the best solution, a worse one.
    colony.best_sol_score = 14;
    colony.best_pher = 3.9;
    colony.update(best, 12);
    assert_eq!(
        (colony.best_sol_score, colony.counts.worse_replacements),
        (12, 1)
    );
    assert_eq!(colony.best_pher, 4.0 * (1.0 - 0.005f32));
    // One of 11 cells (deposit 3.2) does not.
    colony.update(best, 11);
    assert_eq!(
        (colony.best_sol_score, colony.counts.best_replacements),
        (12, 2)
    );
}

/// Local updates: the pheromone of a chosen value moves towards tau0 at each choice.
#[test]
fn local_update_in_a_construction() {
    let p = random_puzzle(Geometry::new(2, 2).unwrap(), 0.0, 5);
    let config = AcsConfig {
        ants: 1,
        ..AcsConfig::default()
    };
    let mut colony = Colony::new(&config, &p.grid);
    // Raise every entry, so that each local update visibly lowers the one it touches.
    colony.pher.fill(1.0);
    colony.iterate(&mut rng_from_seed(2));
    let touched = colony.pher.iter().filter(|&&x| x < 1.0).count() as u64;
    assert_eq!(touched, colony.counts.ant_choices);
    let once = ops::local_update(1.0, 0.1, 1.0 / 16.0);
    assert!(colony.pher.iter().all(|&x| x == 1.0 || x == once));
}

/// The fixpoint reading: what it finds that the cascade misses, and runs that solve.
#[test]
fn fixpoint_propagation() {
    // Without a given that constrains cell 0 afterwards, the cascade leaves the unique
    // possibility 1 of row 0 (cell 0) open; the fixpoint finds it.
    let g4 = Geometry::new(2, 2).unwrap();
    let grid = Grid::from_line(g4, "......1..1......").unwrap();
    let t = Tables::new(g4);
    let mut b = Board::from_givens(&t, grid.cells());
    assert_eq!(b.cand[0], 0b1111);
    b.settle(&t);
    assert_eq!(b.cand[0], 0b0001);
    // A settled board is a fixpoint: constraining any cell again changes nothing.
    for seed in 0..4 {
        let p = random_puzzle(Geometry::new(3, 3).unwrap(), 0.3, seed);
        let t = Tables::new(p.geometry());
        let mut b = Board::from_givens(&t, p.grid.cells());
        b.settle(&t);
        for i in 0..81 {
            let mut c = b.clone();
            c.constrain(&t, i);
            assert_eq!(c.cand, b.cand, "seed {seed} cell {i}");
        }
    }
    let config = AcsConfig {
        propagation: Propagation::Fixpoint,
        ..AcsConfig::default()
    };
    for p in [
        random_puzzle(Geometry::new(4, 4).unwrap(), 0.4, 3),
        bank_puzzle("mk_superdifficult").unwrap().clone(),
    ] {
        let out = run(config.clone(), &p, Budget::generations(3000), 1);
        assert!(
            out.solved && out.grid.keeps_givens_of(&p.grid),
            "{}: {out:?}",
            p.id
        );
    }
}

/// The memory check sees the ants' boards, the puzzle's, the best ones and the pheromone.
#[test]
fn individuals_count_the_boards() {
    assert_eq!(ALGORITHM.individuals(&options(""), 9), Some(("ants", 22)));
    assert_eq!(
        ALGORITHM.individuals(&options("ants = 100"), 25),
        Some(("ants", 128))
    );
    assert_eq!(ALGORITHM.counters(&options("")), COUNTERS.to_vec());
}

/// What a transcription of the code's `SudokuAntSystem::Solve` and `SudokuAnt::StepSolution`
/// holds after `iterations` iterations: the pheromone, the best solution's value sets and the
/// best deposit. Written as the code reads, on the transcribed board (unit scans), with the
/// choice operators of `ops` and the same draws in the same order.
fn transcribed_colony(
    p: &Puzzle,
    c: &AcsConfig,
    iterations: usize,
    seed: u64,
) -> (Vec<f32>, Vec<u32>, f32) {
    use board::tests::Reference;
    let geom = p.geometry();
    let (cells, n) = (geom.cells(), geom.n());
    let mut rng = rng_from_seed(seed);
    let puzzle = Reference::from_givens(geom, p.grid.cells());
    let pher0 = 1.0f32 / cells as f32;
    let mut pher = vec![pher0; cells * n];
    let (mut best_sol, mut best_pher) = (puzzle.cand.clone(), 0.0f32);
    let (mut starts, mut taken) = (vec![0; c.ants], vec![false; cells]);
    for _ in 0..iterations {
        ops::start_cells(c.start_cell, cells, &mut starts, &mut taken, &mut rng);
        let mut ants: Vec<(Reference, usize, usize)> =
            starts.iter().map(|&s| (puzzle.clone(), s, 0)).collect();
        for _ in 0..cells {
            for (sol, i_cell, fail_cells) in ants.iter_mut() {
                let m = sol.cand[*i_cell];
                if m == 0 {
                    *fail_cells += 1;
                } else if !is_single(m) {
                    let row = &mut pher[*i_cell * n..(*i_cell + 1) * n];
                    let v = if ops::takes_greedy(c.greedy_rule, rng.random::<f64>(), c.q0) {
                        ops::greedy(row, m, c.tie_break, &mut rng)
                    } else {
                        ops::roulette(row, m, rng.random::<f32>())
                    } as usize;
                    sol.set_cell(*i_cell, 1 << v);
                    row[v] = row[v] * 0.9f32 + pher0 * 0.1f32;
                }
                *i_cell = (*i_cell + 1) % cells;
            }
        }
        let (mut i_best, mut best_val) = (0, 0);
        for (k, ant) in ants.iter().enumerate() {
            if cells - ant.2 > best_val {
                (i_best, best_val) = (k, cells - ant.2);
            }
        }
        let pher_to_add = cells as f32 / (cells - best_val) as f32;
        if pher_to_add > best_pher {
            best_sol = ants[i_best].0.cand.clone();
            best_pher = pher_to_add;
        }
        for (i, &m) in best_sol.iter().enumerate() {
            if is_single(m) {
                let k = i * n + m.trailing_zeros() as usize;
                pher[k] = pher[k] * (1.0f32 - c.rho as f32) + c.rho as f32 * best_pher;
            }
        }
        best_pher *= 1.0f32 - c.bve as f32;
    }
    (pher, best_sol, best_pher)
}

/// The colony (tables in place of scans, fused loops) holds, iteration after iteration, what
/// the transcription of the code holds: the same pheromone to the bit, best solution and best
/// deposit, under each reading of the choice rule, the ties and the start cells.
#[test]
fn colony_equals_the_transcribed_code() {
    let puzzles = [
        bank_puzzle("ai_escargot").unwrap().clone(),
        random_puzzle(Geometry::new(4, 4).unwrap(), 0.35, 12),
        random_puzzle(Geometry::new(2, 3).unwrap(), 0.2, 13),
    ];
    let readings = [
        AcsConfig::default(),
        AcsConfig {
            greedy_rule: GreedyRule::OneMinusQ0,
            start_cell: StartCell::Independent,
            ..AcsConfig::default()
        },
        AcsConfig {
            tie_break: TieBreak::Random,
            ants: 3,
            bve: 0.2,
            ..AcsConfig::default()
        },
    ];
    for p in &puzzles {
        for (r, config) in readings.iter().enumerate() {
            let mut colony = Colony::new(config, &p.grid);
            let mut rng = rng_from_seed(77);
            for iterations in 1..=12 {
                let (best, score) = colony.iterate(&mut rng);
                colony.update(best, score);
                if iterations % 4 == 0 {
                    let (pher, best_sol, best_pher) = transcribed_colony(p, config, iterations, 77);
                    let what = format!("{} reading {r} after {iterations}", p.id);
                    assert!(colony.pher == pher, "{what}: pheromone");
                    assert_eq!(colony.best_sol, best_sol, "{what}");
                    assert_eq!(colony.best_pher, best_pher, "{what}");
                }
            }
        }
    }
}

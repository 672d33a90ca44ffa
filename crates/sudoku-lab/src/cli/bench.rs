//! `sudoku-lab bench`: fitness functions against the plain transcriptions of the papers'
//! formulas, and generations per second of each GA. Wall-clock numbers on this machine; for
//! stable counts run the same under `valgrind --tool=callgrind`.

use anyhow::Result;
use rand::Rng as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;
use sudoku_core::fitness::*;
use sudoku_core::{bank_puzzle, rng_from_seed, Budget, Geometry, NoObserver, Solver, Units};

fn time_per_call(iters: u64, mut f: impl FnMut(u64)) -> f64 {
    // Warm-up, then the best of 3 repetitions.
    for i in 0..iters / 10 {
        f(i);
    }
    (0..3)
        .map(|_| {
            let t = Instant::now();
            for i in 0..iters {
                f(i);
            }
            t.elapsed().as_secs_f64() * 1e9 / iters as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Print every benchmark table; `quick` runs a tenth of the iterations.
pub fn run(quick: bool) -> Result<ExitCode> {
    let scale = if quick { 1 } else { 10 };
    fitness_functions(scale);
    ga_generations(scale)?;
    reseda_rounds(scale)?;
    gen_ga_swaps(scale);
    gen_ga_generation(scale)?;
    reseda_attempts(scale)?;
    cso_cycles(scale)?;
    lewis_moves(scale)?;
    anytime_cost(scale)?;
    Ok(ExitCode::SUCCESS)
}

/// The fast fitness functions against the plain transcriptions of the papers' formulas, on
/// the same random 9x9 grids (not Sudoku solutions: every unit may repeat symbols).
fn fitness_functions(scale: u64) {
    let geom = Geometry::NINE;
    let units = Units::new(geom);
    let mut rng = rng_from_seed(42);
    let grids: Vec<Vec<u8>> = (0..256)
        .map(|_| (0..81).map(|_| rng.random_range(1..=9u8)).collect())
        .collect();
    let g = |i: u64| &grids[(i % 256) as usize];
    let ret = RetGaFitness::new(&units);
    let mk = MkEvaluator::new(geom);
    println!("| function (9x9, random grids) | fast ns/eval | paper formula ns/eval | ratio |");
    println!("|---|---|---|---|");
    let rows: Vec<(&str, f64, f64)> = vec![
        (
            "Ret-GA pairwise uniqueness, eqs. (2)-(6)",
            time_per_call(200_000 * scale, |i| {
                black_box(ret.eval(black_box(g(i))));
            }),
            time_per_call(20_000 * scale, |i| {
                black_box(ret_ga_fitness_paper(geom, black_box(g(i))));
            }),
        ),
        (
            "Mantere-Koljonen eq. (1)",
            time_per_call(200_000 * scale, |i| {
                black_box(mk.eval(black_box(g(i))));
            }),
            time_per_call(20_000 * scale, |i| {
                black_box(mk_fitness_paper(geom, black_box(g(i))));
            }),
        ),
        (
            "missing symbols, rows+columns+boxes (RESEDA)",
            time_per_call(200_000 * scale, |i| {
                black_box(missing_symbols_cost(&units, black_box(g(i))));
            }),
            time_per_call(20_000 * scale, |i| {
                black_box(missing_symbols_paper(&units, black_box(g(i)), 27));
            }),
        ),
        (
            "missing values, rows+columns (CSO, Lewis)",
            time_per_call(200_000 * scale, |i| {
                black_box(rows_cols_missing(&units, black_box(g(i))));
            }),
            time_per_call(20_000 * scale, |i| {
                black_box(missing_symbols_paper(&units, black_box(g(i)), 18));
            }),
        ),
    ];
    for (name, fast, paper) in rows {
        println!("| {name} | {fast:.1} | {paper:.1} | {:.1}x |", paper / fast);
    }
}

/// Generations per second of Ret-GA and MK-GA with their defaults.
fn ga_generations(scale: u64) -> Result<()> {
    println!();
    println!("| algorithm (single thread) | puzzle | generations | seconds | generations/s | us/generation |");
    println!("|---|---|---|---|---|---|");
    let gens = 2_000 * scale;
    let algos: Vec<(&str, Box<dyn Solver>)> = vec![
        (
            "ret-ga",
            crate::algos::solver("ret-ga", &toml::Table::new())?,
        ),
        ("mk-ga", crate::algos::solver("mk-ga", &toml::Table::new())?),
    ];
    for (name, solver) in algos {
        // A puzzle these runs do not solve within the budget, so every generation is counted.
        let p = bank_puzzle("mk_superdifficult")?;
        let mut rng = rng_from_seed(7);
        let t = Instant::now();
        let out = solver.solve(p, &Budget::generations(gens), &mut rng, &mut NoObserver);
        let s = t.elapsed().as_secs_f64();
        println!(
            "| {name} | {} | {} | {s:.2} | {:.0} | {:.1} |",
            p.id,
            out.generations,
            out.generations as f64 / s,
            s * 1e6 / out.generations.max(1) as f64
        );
    }
    Ok(())
}

/// RESEDA: one round is Q = 100 samples (block permutations with the pre-computed
/// constraints), their costs, the selection of Q1 = 10 and the update; single resolutions of
/// the hard puzzle, so every round is a full round.
fn reseda_rounds(scale: u64) -> Result<()> {
    println!();
    println!(
        "| RESEDA (single thread, Q = 100) | puzzle | rounds | seconds | us/round | samples/s |"
    );
    println!("|---|---|---|---|---|---|");
    let mut params = toml::Table::new();
    params.insert("zones".into(), toml::Value::Integer(0));
    let solver = crate::algos::solver("reseda", &params)?;
    let p = bank_puzzle("reseda_hard")?;
    let (mut rounds, mut samples) = (0u64, 0u64);
    let t = Instant::now();
    for seed in 0..20 * scale {
        let out = solver.solve(
            p,
            &Budget::generations(100_000),
            &mut rng_from_seed(seed),
            &mut NoObserver,
        );
        rounds += out.generations;
        samples += out.evaluations;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "| both strategies, no restart | {} | {rounds} | {s:.2} | {:.1} | {:.0} |",
        p.id,
        s * 1e6 / rounds.max(1) as f64,
        samples as f64 / s
    );
    Ok(())
}

/// gen-ga: a swap with the incremental update of err against a swap plus a full recount.
fn gen_ga_swaps(scale: u64) {
    println!();
    println!("| gen-ga (single thread) | ns/swap, incremental | ns/swap, full recount | ratio |");
    println!("|---|---|---|---|");
    let first = gen_ga::first_row_puzzle();
    let free = gen_ga::free_cells(first.grid.cells());
    let mut rng = rng_from_seed(5);
    let mut board = gen_ga::random_board(first.grid.cells(), &free, &mut rng);
    let pairs: Vec<(usize, usize)> = (0..4096)
        .map(|i| {
            let r = 1 + i % 8;
            (
                r * 9 + rng.random_range(0..9),
                r * 9 + rng.random_range(0..9),
            )
        })
        .collect();
    let inc = time_per_call(2_000_000 * scale, |i| {
        let (a, b) = pairs[(i % 4096) as usize];
        board.swap(a, b);
        black_box(board.err);
    });
    let mut cells = board.cells;
    let full = time_per_call(200_000 * scale, |i| {
        let (a, b) = pairs[(i % 4096) as usize];
        cells.swap(a, b);
        black_box(gen_ga::errors(&cells));
    });
    println!(
        "| 9x9, rows as permutations | {inc:.1} | {full:.1} | {:.1}x |",
        full / inc
    );
}

/// gen-ga: one generation at the paper's size (population 1000).
fn gen_ga_generation(scale: u64) -> Result<()> {
    let p = gen_ga::first_row_puzzle();
    let ga = crate::algos::solver("gen-ga", &toml::Table::new())?;
    let gens = 200 * scale;
    let t = Instant::now();
    ga.solve(
        &p,
        &Budget::generations(gens),
        &mut rng_from_seed(1),
        &mut NoObserver,
    );
    let s = t.elapsed().as_secs_f64();
    println!();
    println!("gen-ga generation at the paper's size (population 1000): {:.1} us ({gens} generations in {s:.2} s).", s * 1e6 / gens as f64);
    Ok(())
}

/// RESEDA: one attempt per Kennett level (3 zones, the paper's recommendation), on the first
/// puzzles of each committed set; the paper's Table 4 times are on a 2011 Core 2 Duo.
fn reseda_attempts(scale: u64) -> Result<()> {
    println!();
    println!(
        "| RESEDA attempt, 3 zones | puzzles | mean ms/attempt | paper ms (Table 4) | ratio |"
    );
    println!("|---|---|---|---|---|");
    let mut params = toml::Table::new();
    params.insert("zones".into(), toml::Value::Integer(3));
    let solver = crate::algos::solver("reseda", &params)?;
    let paper_ms = [47.0, 104.0, 502.0, 726.0, 824.0];
    let kennett = crate::spec::EMBEDDED_PUZZLE_FILES
        .iter()
        .filter(|(name, _)| name.starts_with("puzzles/kennett/"));
    for ((name, text), paper) in kennett.zip(paper_ms) {
        let puzzles = sudoku_core::parse::parse_puzzles(text, name)?;
        let k = (10 * scale as usize).min(puzzles.len());
        let t = Instant::now();
        for (i, p) in puzzles.iter().take(k).enumerate() {
            solver.solve(
                p,
                &Budget::generations(100_000),
                &mut rng_from_seed(i as u64),
                &mut NoObserver,
            );
        }
        let ms = t.elapsed().as_secs_f64() * 1e3 / k as f64;
        let level = name
            .trim_start_matches("puzzles/kennett/")
            .trim_end_matches(".txt");
        println!(
            "| {level} | {k} | {ms:.1} | {paper:.0} | {:.3} |",
            ms / paper
        );
    }
    Ok(())
}

/// The cost of anytime recording (`anytime = true`): the same runs with the runner's
/// trajectory recorder and with no observer, alternated, best of 3 each, per algorithm on
/// mk_superdifficult (not solved within these budgets, so every run spends its whole budget).
/// With recording off the algorithms pay one `wants_grids()` call per generation. Every
/// registered algorithm that stops at a solution (gen-ga collects boards instead).
fn anytime_cost(scale: u64) -> Result<()> {
    use crate::protocol::trajectory::Recorder;
    println!();
    println!("| anytime recording (single thread, mk_superdifficult) | evaluations | off: s | on: s | on / off | points recorded |");
    println!("|---|---|---|---|---|---|");
    let p = bank_puzzle("mk_superdifficult")?;
    let budget = Budget {
        max_generations: None,
        max_evaluations: Some(100_000 * scale),
    };
    for name in crate::algos::REGISTRY
        .iter()
        .filter(|a| a.cappable())
        .map(|a| a.name())
    {
        let solver = crate::algos::solver(name, &toml::Table::new())?;
        let (mut off, mut on, mut points) = (f64::INFINITY, f64::INFINITY, 0);
        for _ in 0..3 {
            let t = Instant::now();
            solver.solve(p, &budget, &mut rng_from_seed(1), &mut NoObserver);
            off = off.min(t.elapsed().as_secs_f64());
            let mut r = Recorder::new(Units::new(p.geometry()));
            let t = Instant::now();
            let out = solver.solve(p, &budget, &mut rng_from_seed(1), &mut r);
            on = on.min(t.elapsed().as_secs_f64());
            points = r.finish(out.evaluations, out.grid.cells()).len();
        }
        println!(
            "| {name} | {} | {off:.3} | {on:.3} | {:.3} | {points} |",
            budget.max_evaluations.unwrap_or(0),
            on / off
        );
    }
    Ok(())
}

/// Lewis's SA: moves (evaluations) per second with the defaults, one run per puzzle on the
/// first Kennett hard puzzles (seed = the puzzle's index), each run stopped at a solution or
/// after 2 million moves. A move is a swap drawn, its incremental cost (two rows and two columns
/// of count tables) and the acceptance test.
fn lewis_moves(scale: u64) -> Result<()> {
    println!();
    println!("| lewis-sa (single thread, defaults) | puzzles | solved | moves | seconds | moves/s | ns/move |");
    println!("|---|---|---|---|---|---|---|");
    let solver = crate::algos::solver("lewis-sa", &toml::Table::new())?;
    let name = "puzzles/kennett/hard.txt";
    let Some((_, text)) = crate::spec::EMBEDDED_PUZZLE_FILES
        .iter()
        .find(|(n, _)| *n == name)
    else {
        anyhow::bail!("{name} is not embedded");
    };
    let puzzles = sudoku_core::parse::parse_puzzles(text, name)?;
    let k = (2 * scale as usize).min(puzzles.len());
    let budget = Budget {
        max_generations: None,
        max_evaluations: Some(2_000_000),
    };
    let (mut solved, mut moves) = (0, 0u64);
    let t = Instant::now();
    for (i, p) in puzzles.iter().take(k).enumerate() {
        let out = solver.solve(p, &budget, &mut rng_from_seed(i as u64), &mut NoObserver);
        solved += usize::from(out.solved);
        moves += out.evaluations;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "| 9x9 | Kennett hard, first {k} | {solved} | {moves} | {s:.2} | {:.0} | {:.1} |",
        moves as f64 / s,
        s * 1e9 / moves.max(1) as f64
    );
    Ok(())
}

/// CSO: a cycle with the defaults (50 cats, SMP 5) on the first puzzle of each size's hard band
/// (never solved in these budgets, so every cycle is a full cycle), and the share of the cycle
/// spent in fitness evaluations (a full rows + columns recount per candidate). A seeking copy
/// changes CDC x cells = 65 of 81 cells, so an incremental update (four units per swap) would
/// touch more units than the 18 of a recount: the share bounds what it could save.
fn cso_cycles(scale: u64) -> Result<()> {
    println!();
    println!("| CSO cycle (single thread, defaults) | puzzle | cycles | us/cycle | evaluations/cycle | ns/evaluation (recount) | evaluation share of a cycle |");
    println!("|---|---|---|---|---|---|---|");
    let solver = crate::algos::solver("cso", &toml::Table::new())?;
    for size in [6, 9, 12] {
        let name = format!("puzzles/cso/{size}x{size}-hard.txt");
        let Some((_, text)) = crate::spec::EMBEDDED_PUZZLE_FILES
            .iter()
            .find(|(n, _)| *n == name)
        else {
            anyhow::bail!("{name} is not embedded");
        };
        let p = &sudoku_core::parse::parse_puzzles(text, &name)?[0];
        let cycles = 200 * scale;
        let t = Instant::now();
        let out = solver.solve(
            p,
            &Budget::generations(cycles),
            &mut rng_from_seed(3),
            &mut NoObserver,
        );
        let s = t.elapsed().as_secs_f64();
        let units = Units::new(p.geometry());
        let mut rng = rng_from_seed(9);
        let layout = cso::Layout::new(&p.grid);
        let grids: Vec<Vec<u8>> = (0..64)
            .map(|_| {
                let mut g = vec![0u8; p.geometry().cells()];
                layout.random_position(&mut g, &mut rng);
                g
            })
            .collect();
        let ns = time_per_call(100_000 * scale, |i| {
            black_box(rows_cols_missing(
                &units,
                black_box(&grids[(i % 64) as usize]),
            ));
        });
        let per_cycle = out.evaluations as f64 / out.generations.max(1) as f64;
        let us = s * 1e6 / out.generations.max(1) as f64;
        println!(
            "| {size}x{size} | {size}x{size}-hard, first | {} | {us:.1} | {per_cycle:.1} | {ns:.1} | {:.0} % |",
            out.generations,
            100.0 * per_cycle * ns / 1e3 / us
        );
    }
    Ok(())
}

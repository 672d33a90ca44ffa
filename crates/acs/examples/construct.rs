//! Runs the default colony on the first puzzle of a file for a fixed number of iterations and
//! prints what it spent: the driver of the instruction count of one construction
//! (`valgrind --tool=callgrind` at two iteration counts; the difference of the totals divided
//! by the difference of the evaluations is the cost of one construction, start-up excluded).
//!
//! `cargo run --release -p acs --example construct -- PUZZLE_FILE GENERATIONS [SEED]`

use sudoku_core::{rng_from_seed, Budget, NoObserver, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, generations, rest @ ..] = &args[..] else {
        eprintln!("usage: construct PUZZLE_FILE GENERATIONS [SEED]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let puzzle = sudoku_core::parse::parse_first(&text, file).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let generations: u64 = generations.parse().expect("GENERATIONS is a number");
    let seed: u64 = rest
        .first()
        .map_or(1, |s| s.parse().expect("SEED is a number"));
    let solver = acs::AcsSolver::new(acs::AcsConfig::default());
    let out = solver.solve(
        &puzzle,
        &Budget::generations(generations),
        &mut rng_from_seed(seed),
        &mut NoObserver,
    );
    println!(
        "{}: solved {} after {} generations, {} evaluations, best {}",
        puzzle.id, out.solved, out.generations, out.evaluations, out.best_fitness
    );
}

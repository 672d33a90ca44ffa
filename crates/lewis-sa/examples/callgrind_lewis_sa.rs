//! One seeded run with the default configuration, for instruction counts under callgrind
//! (`scripts/callgrind-kernels.sh` runs it at two budgets and takes the difference, which
//! removes the start-up): `callgrind_lewis_sa <bank puzzle> <generations|evaluations> <limit>
//! <seed>`. Prints the run's generations, evaluations and whether it solved. It uses only the
//! crate's public API of older revisions too, so the script can build it at any revision.
use lewis_sa::{LewisConfig, LewisSa};
use sudoku_core::parse::parse_first;
use sudoku_core::{bank_puzzle, rng_from_seed, Budget, NoObserver, Puzzle, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: callgrind_lewis_sa <bank puzzle> <generations|evaluations> <limit> <seed>";
    if args.len() != 5 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let puzzle: Puzzle = match bank_puzzle(&args[1]) {
        Ok(p) => p.clone(),
        Err(bank) => parse_first(&args[1], "the command line").unwrap_or_else(|e| {
            eprintln!(
                "callgrind_lewis_sa: puzzle {}: {bank}, and not a puzzle: {e}",
                args[1]
            );
            std::process::exit(2)
        }),
    };
    let number = |s: &str, what: &str| -> u64 {
        s.parse().unwrap_or_else(|_| {
            eprintln!("callgrind_lewis_sa: {what} {s:?} is not a whole number; {usage}");
            std::process::exit(2)
        })
    };
    let limit = number(&args[3], "limit");
    let budget = match args[2].as_str() {
        "generations" => Budget {
            max_generations: Some(limit),
            max_evaluations: None,
        },
        "evaluations" => Budget {
            max_generations: None,
            max_evaluations: Some(limit),
        },
        other => {
            eprintln!("callgrind_lewis_sa: budget {other:?}; {usage}");
            std::process::exit(2)
        }
    };
    let solver = LewisSa::new(LewisConfig::default()).expect("the default configuration is valid");
    let mut rng = rng_from_seed(number(&args[4], "seed"));
    let out = solver.solve(&puzzle, &budget, &mut rng, &mut NoObserver);
    println!("{} {} {}", out.generations, out.evaluations, out.solved);
}

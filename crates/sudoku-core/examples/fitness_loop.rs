//! A fixed amount of fitness work for `valgrind --tool=callgrind` instruction counts:
//! `cargo run --release -p sudoku-core --example fitness_loop -- <ret|ret-paper|mk|mk-simple|mk-paper|missing|missing-paper> <evals>`.
use rand::Rng as _;
use std::hint::black_box;
use sudoku_core::fitness::*;
use sudoku_core::{rng_from_seed, Geometry, Units};

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "ret".into());
    let evals: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let geom = Geometry::NINE;
    let units = Units::new(geom);
    let mut rng = rng_from_seed(1);
    let grids: Vec<Vec<u8>> = (0..64)
        .map(|_| (0..81).map(|_| rng.random_range(1..=9u8)).collect())
        .collect();
    let ret = RetGaFitness::new(&units);
    let mk = MkEvaluator::new(geom);
    let mut acc = 0f64;
    for i in 0..evals {
        let g = black_box(&grids[i % 64]);
        acc += match which.as_str() {
            "ret" => ret.eval(g) as f64,
            "ret-paper" => ret_ga_fitness_paper(geom, g) as f64,
            "mk" => mk.eval(g),
            "mk-simple" => mk_fitness(geom, g),
            "mk-paper" => mk_fitness_paper(geom, g),
            "missing" => missing_symbols_cost(&units, g) as f64,
            _ => missing_symbols_paper(&units, g, 27) as f64,
        };
    }
    println!("{acc}");
}

//! Rate every puzzle of a file with the logical grader and the exact solver:
//! `cargo run --release -p sudoku-core --example grade -- <puzzle file>`.
//! One tab-separated line per puzzle, in file order: number (1-based), givens, rating
//! (`sudoku_core::grade`, 0-6), its name, exact-solver guesses (`sudoku_core::exact::guesses`),
//! the puzzle as one line. Used by scripts/retga-journal-sets.sh.
use sudoku_core::exact::guesses;
use sudoku_core::grade::{grade, RATING_NAMES};
use sudoku_core::parse::parse_puzzles;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: grade <puzzle file>");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("error: cannot read {path}: {e}");
        std::process::exit(2);
    });
    let puzzles = parse_puzzles(&text, &path).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    println!("puzzle\tgivens\trating\ttechnique\tguesses\tgrid");
    for (k, p) in puzzles.iter().enumerate() {
        let g = grade(&p.grid);
        println!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            k + 1,
            p.givens(),
            g.rating,
            RATING_NAMES[g.rating as usize],
            guesses(&p.grid),
            p.grid.to_line()
        );
    }
}

//! `sudoku-lab puzzles check`: givens, conflicts and the number of solutions of every puzzle of a
//! file.

use anyhow::Result;
use std::path::Path;
use std::process::ExitCode;
use sudoku_core::exact::search;
use sudoku_core::parse::parse_lenient;

pub fn check(file: &Path) -> Result<ExitCode> {
    let text = crate::spec::read_capped(file)?;
    let parsed = parse_lenient(&text, &file.display().to_string())?;
    let mut all_unique = true;
    println!(
        "{:<32} {:>6} {:>6} {:>9} {:>12}",
        "puzzle", "line", "givens", "conflicts", "solutions"
    );
    for p in &parsed {
        let solutions = if p.conflicts.is_empty() {
            let s = search(&p.puzzle.grid, 2);
            match (s.complete, s.count) {
                (true, 0) => "0",
                (true, 1) => "1",
                (_, c) if c >= 2 => "many",
                // Stopped at the exact solver's node limit: not known.
                _ => "undetermined",
            }
        } else {
            "0"
        };
        all_unique &= solutions == "1";
        println!(
            "{}",
            sudoku_core::error::shown(&format!(
                "{:<32} {:>6} {:>6} {:>9} {:>12}",
                p.puzzle.id,
                p.line,
                p.puzzle.givens(),
                p.conflicts.len(),
                solutions
            ))
        );
        for c in &p.conflicts {
            println!("{}", sudoku_core::error::shown(&format!("  {c}")));
        }
    }
    println!(
        "{} puzzles, {}",
        parsed.len(),
        if all_unique {
            "all with a unique solution"
        } else {
            "NOT all with a unique solution"
        }
    );
    Ok(if all_unique {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

//! The embedded puzzle bank: `experiments/puzzles/published.tsv` compiled into the binary, so a
//! reproduction works from any directory and without the repository.

use crate::error::CoreError;
use crate::grid::Puzzle;
use crate::parse::parse_puzzles;
use std::sync::OnceLock;

/// The bank file, verbatim. Provenance: `experiments/puzzles/PROVENANCE.md`.
pub const PUBLISHED_TSV: &str = include_str!("../../../experiments/puzzles/published.tsv");

/// Every puzzle of the bank, in file order, parsed once.
pub fn bank() -> &'static [Puzzle] {
    static BANK: OnceLock<Vec<Puzzle>> = OnceLock::new();
    BANK.get_or_init(|| {
        // The bank is checked by the test suite; a broken bank is a build defect, not user input.
        parse_puzzles(PUBLISHED_TSV, "published.tsv").expect("embedded bank parses")
    })
}

/// A bank puzzle by id.
pub fn bank_puzzle(id: &str) -> Result<&'static Puzzle, CoreError> {
    bank()
        .iter()
        .find(|p| p.id == id)
        .ok_or_else(|| CoreError::UnknownPuzzle(id.to_string()))
}

//! Typed errors of the core crate.

use thiserror::Error;

/// Everything that can go wrong in `sudoku-core`.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CoreError {
    #[error(
        "unsupported box shape {box_rows}x{box_cols} (supported: 2x2, 2x3, 3x3, 3x4, 4x4, 5x5)"
    )]
    UnsupportedShape { box_rows: usize, box_cols: usize },
    #[error("unsupported grid order {0} (supported: 4, 6, 9, 12, 16, 25)")]
    UnsupportedOrder(usize),
    #[error("{0}")]
    Parse(#[from] ParseError),
    #[error("unknown puzzle id '{0}' (see `sudoku-lab list`)")]
    UnknownPuzzle(String),
}

/// A parse failure with its place: file (or `<string>`), 1-based line and column.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{source_name}:{line}:{column}: {kind}")]
pub struct ParseError {
    pub source_name: String,
    pub line: usize,
    pub column: usize,
    pub kind: ParseErrorKind,
}

/// What is wrong with the input.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    #[error("wrong length: {found} cells, expected {expected}")]
    WrongLength { found: usize, expected: String },
    #[error("unknown character '{0}'")]
    UnknownCharacter(char),
    /// A negative number such as `-1`, which some tools write for a blank.
    #[error("'{0}' is not a cell value: write a blank as '.', '0', '_', '-' or '*'")]
    NegativeValue(String),
    #[error("value {value} out of range 1..={n}")]
    ValueOutOfRange { value: usize, n: usize },
    #[error("givens conflict: {value} at r{r1}c{c1} and r{r2}c{c2} share a {unit}")]
    ConflictingGivens {
        value: u8,
        r1: usize,
        c1: usize,
        r2: usize,
        c2: usize,
        unit: &'static str,
    },
    #[error("unsupported size: {0}")]
    UnsupportedSize(String),
    #[error("malformed bank row: {0}")]
    BadBankRow(String),
    #[error("the solution column does not solve the puzzle: {0}")]
    BadSolution(String),
    #[error("no puzzle found in the input")]
    Empty,
    /// A line longer than any puzzle format writes ([`crate::parse::MAX_LINE`]): refused before
    /// its cells are read, so a huge one-line file does not fill the memory.
    #[error("line of {length} characters, longer than the {max} a puzzle line may have")]
    LineTooLong { length: usize, max: usize },
}

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
    #[error("unknown puzzle id '{}' (see `sudoku-lab list`)", shown(.0))]
    UnknownPuzzle(String),
}

/// A parse failure with its place: file (or `<string>`), 1-based line and column.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{}:{line}:{column}: {kind}", shown(source_name))]
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
    #[error("unknown character '{}'", shown_char(*.0))]
    UnknownCharacter(char),
    /// A negative number such as `-1`, which some tools write for a blank.
    #[error("'{}' is not a cell value: write a blank as '.', '0', '_', '-' or '*'", shown(.0))]
    NegativeValue(String),
    #[error("value {value} too large for order {n} (cell values are 1..={n})")]
    ValueOutOfRange { value: usize, n: usize },
    /// A number token larger than any cell value of the grid (once reported as "unknown
    /// character '9'" when it overflowed): the token, cut to [`MAX_SHOWN`] characters.
    #[error(
        "token '{}' too large for order {n} (cell values are 1..={n})",
        shown(token)
    )]
    TokenTooLarge { token: String, n: usize },
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
    #[error("malformed bank row: {}", shown(.0))]
    BadBankRow(String),
    #[error("the solution column does not solve the puzzle: {}", shown(.0))]
    BadSolution(String),
    #[error("no puzzle found in the input")]
    Empty,
    /// A line longer than any puzzle format writes ([`crate::parse::MAX_LINE`]): refused before
    /// its cells are read, so a huge one-line file does not fill the memory.
    #[error("line of {length} characters, longer than the {max} a puzzle line may have")]
    LineTooLong { length: usize, max: usize },
}

/// The most characters of an input token an error repeats.
pub const MAX_SHOWN: usize = 24;

/// True for a character that must not reach a terminal raw: control characters (NUL, escape
/// sequences), and the invisible and bidirectional formatting characters (U+200B zero width
/// space, U+202E right-to-left override, ...) that hide or reorder what a message shows.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{034f}'
                | '\u{061c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// A character as an error message shows it: itself, or `\u{202e}` when [`is_hidden`].
pub fn shown_char(c: char) -> String {
    if is_hidden(c) {
        format!("\\u{{{:x}}}", c as u32)
    } else {
        c.to_string()
    }
}

/// Input text as an error message shows it: hidden characters escaped ([`shown_char`]).
pub fn shown(s: &str) -> String {
    s.chars().map(shown_char).collect()
}

/// Text of several lines as a terminal shows it: the hidden characters of each line escaped
/// ([`shown`], a carriage return included), the line breaks kept.
pub fn shown_lines(s: &str) -> String {
    s.split('\n').map(shown).collect::<Vec<_>>().join("\n")
}

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

/// `unknown` against the names of `known`: a "did you mean" phrase (leading space) naming the
/// closest one when it is a plausible typo (at most a third of its letters edited, two at
/// least), then the whole list sorted: ` (did you mean 'b'? known: a, b, c)`.
pub fn unknown_name_hint<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let mut names: Vec<&str> = known.into_iter().collect();
    names.sort_unstable();
    names.dedup();
    let closest = (names.iter())
        .map(|k| (edit_distance(unknown, k), *k))
        .min()
        .filter(|(d, k)| *d <= (k.chars().count() / 3).max(2));
    match closest {
        Some((_, k)) => format!(" (did you mean '{k}'? known: {})", names.join(", ")),
        None => format!(" (known: {})", names.join(", ")),
    }
}

/// The Levenshtein distance of `a` and `b` (insertions, deletions and substitutions of
/// characters, each one), with a transposition of two neighbours also one.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod hint_tests {
    use super::*;

    #[test]
    fn a_typo_gets_the_closest_name_and_the_sorted_list() {
        let known = ["reseda-table2", "reseda-table1", "benbassat"];
        assert_eq!(
            unknown_name_hint("reseda-tabel1", known),
            " (did you mean 'reseda-table1'? known: benbassat, reseda-table1, reseda-table2)"
        );
        assert_eq!(
            unknown_name_hint("resda", ["reseda", "mk-ga"]),
            " (did you mean 'reseda'? known: mk-ga, reseda)"
        );
        // Nothing close: only the list.
        assert_eq!(
            unknown_name_hint("tabu", ["reseda", "mk-ga"]),
            " (known: mk-ga, reseda)"
        );
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}

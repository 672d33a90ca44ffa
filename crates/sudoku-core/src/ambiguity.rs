//! A paper's ambiguity: an option of an algorithm whose value the paper leaves open (or states
//! in words that admit several readings). Each algorithm crate lists its own in a table
//! (`AMBIGUITIES`), so the set of readings `sudoku-lab readings` races is written once, beside
//! the options it names, and never typed again in the runner.

/// One ambiguous option: the key of the runner's option table, the values it may take (as the
/// spec writes them: words, or integers and booleans in their TOML spelling), the default, and
/// the paper's words (a short quote, or "not stated").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ambiguity {
    pub key: &'static str,
    pub values: &'static [&'static str],
    pub default: &'static str,
    pub words: &'static str,
}

impl Ambiguity {
    /// The number of readings of a table: the product of the values of each option.
    pub fn combinations(table: &[Ambiguity]) -> u64 {
        table
            .iter()
            .map(|a| a.values.len() as u64)
            .fold(1, u64::saturating_mul)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_multiply() {
        const T: &[Ambiguity] = &[
            Ambiguity {
                key: "a",
                values: &["x", "y"],
                default: "x",
                words: "",
            },
            Ambiguity {
                key: "b",
                values: &["1", "2", "3"],
                default: "1",
                words: "",
            },
        ];
        assert_eq!(Ambiguity::combinations(T), 6);
        assert_eq!(Ambiguity::combinations(&[]), 1);
    }
}

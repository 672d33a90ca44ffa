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

    /// A table's own consistency, for each crate's test: keys unique, at least two values per
    /// option, no value twice, the default among the values, words given. (That each value
    /// builds a solver is checked by the runner's registry, which holds the option parser.)
    pub fn check_table(table: &[Ambiguity]) -> Result<(), String> {
        for (i, a) in table.iter().enumerate() {
            if table[..i].iter().any(|b| b.key == a.key) {
                return Err(format!("{}: listed twice", a.key));
            }
            if a.values.len() < 2 {
                return Err(format!("{}: fewer than two values", a.key));
            }
            if (1..a.values.len()).any(|j| a.values[..j].contains(&a.values[j])) {
                return Err(format!("{}: a value listed twice", a.key));
            }
            if !a.values.contains(&a.default) {
                return Err(format!("{}: default {} is not a value", a.key, a.default));
            }
            if a.words.trim().is_empty() {
                return Err(format!("{}: no words", a.key));
            }
        }
        Ok(())
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

//! What the runner knows about an algorithm, beside the [`Solver`] it builds: its name and
//! summary (`sudoku-lab list`, the help), its option table (a spec's `[[algorithms]]` keys),
//! the options that are a paper's ambiguity (`sudoku-lab readings`), the counters it emits, the
//! orders it handles and a few facts the reports state. Each algorithm crate implements
//! [`Algorithm`] once and the runner's registry holds one line per crate, so adding a solver
//! touches no other file of the runner (docs/adding-a-solver.md).
//!
//! Options arrive as the spec wrote them, a TOML table ([`Options`]): a crate deserialises it
//! into its own struct ([`parse_options`], with `#[serde(deny_unknown_fields)]`), so an unknown
//! key or a wrong type gets the same one-line message whatever the algorithm.

use crate::ambiguity::Ambiguity;
use crate::contract::Solver;
use thiserror::Error;

/// An algorithm's options, as the spec's `[[algorithms]]` table (or `solve --param`) gives
/// them, without the runner's own keys (`label`, `algorithm`, budgets, runs).
pub type Options = toml::Table;

/// A refused option table: the message names the key and what is wrong (one line; the runner
/// joins the lines of a multi-line message).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct OptionError(pub String);

impl OptionError {
    pub fn new(message: impl Into<String>) -> Self {
        OptionError(message.into())
    }
}

/// An algorithm as the runner's registry sees it. Only [`Algorithm::name`],
/// [`Algorithm::summary`], [`Algorithm::build`], [`Algorithm::counters`],
/// [`Algorithm::evaluation_unit`] and [`Algorithm::sources`] must be written; the rest have
/// the defaults of a single-solution method that stops at its first solution.
pub trait Algorithm: Sync {
    /// The name a spec writes (`algorithm = "..."`) and `runs.csv` shows: lowercase words
    /// joined by `-`, unique in the registry.
    fn name(&self) -> &'static str;
    /// One line for `sudoku-lab list` and `solve --help` (method and source).
    fn summary(&self) -> &'static str;
    /// A solver configured by `options`; unknown keys, wrong types and values out of range are
    /// errors naming the key.
    fn build(&self, options: &Options) -> Result<Box<dyn Solver>, OptionError>;
    /// The names of the counters a run of this configuration emits in `RunOutcome::counters`,
    /// in their order (the runner's tests compare them with a run; specs name them in
    /// `counters` charts).
    fn counters(&self, options: &Options) -> Vec<&'static str>;
    /// What one fitness evaluation is (the unit of every budget and ERT of the reports).
    fn evaluation_unit(&self) -> &'static str;
    /// The crate's name and the text of its source files, lib.rs first (`include_str!`): the
    /// site quotes the doc comments of the options a spec sets from them.
    fn sources(&self) -> (&'static str, &'static [&'static str]);
    /// The options that are a paper's ambiguity, the crate's `AMBIGUITIES` table: what
    /// `sudoku-lab readings` varies by default. Each value must build a solver, and a value
    /// outside the table must be refused with `KEY = 'VALUE' is not one of: A, B` ([`choose`]).
    fn ambiguities(&self) -> &'static [Ambiguity] {
        &[]
    }
    /// Whether a run stops at its first solution, so that a run under a smaller generation
    /// budget is the full run cut short (the runner tests it): what lets `readings` cap runs.
    fn cappable(&self) -> bool {
        true
    }
    /// Another option table whose runs are this one's (see [`SameRun`]): `readings` then
    /// makes the run once and reads it for both readings. None where no such table is known
    /// (the default: every reading gets its own runs). The runner tests every claim by running
    /// both tables with the same seeds.
    fn same_run(&self, _options: &Options) -> Option<SameRun> {
        None
    }
    /// The grid orders the algorithm handles (None: any).
    fn orders(&self) -> Option<&'static [usize]> {
        None
    }
    /// The option sizing a population and the number of grids a run holds at once on order
    /// `n`, for the memory check before a protocol; None for single-solution methods.
    fn individuals(&self, _options: &Options, _n: usize) -> Option<(&'static str, u64)> {
        None
    }
    /// A warning when the algorithm's own stopping rule ends runs before `max_evaluations`.
    fn own_stopping_rule(&self, _options: &Options, _max_evaluations: u64) -> Option<String> {
        None
    }
    /// The evaluations the algorithm's own schedule (e.g. a cooling schedule) takes to run its
    /// course on a puzzle with `free` empty cells, computed from `options`, with a phrase
    /// saying what the schedule is (not depending on `free`); None when it has none. The
    /// runner warns when `max_evaluations` is below it: the runs stop before the schedule
    /// has run its course, which reads as a poor algorithm rather than a short budget.
    fn schedule_evaluations(&self, _options: &Options, _free: u64) -> Option<(u64, String)> {
        None
    }
    /// What to change so that runs that ended with `termination` (as `runs.csv` writes it)
    /// use the budget, when the algorithm knows better than the runner's generic hint.
    fn early_stop_hint(&self, _termination: &str) -> Option<&'static str> {
        None
    }
    /// `solve`'s generation cap when `--max-generations` is not given.
    fn default_max_generations(&self) -> u64 {
        50_000
    }
}

/// Options that make the same run as `self`'s: with the same seed and budget, a run of
/// `options` ends as the run of the table asked about, in `solved`, `evaluations` and its
/// counters, and in `generations` but for `solved_shift`: a solved run of the table asked
/// about reports `solved_shift` generations fewer (saturating at 0) than the same run of
/// `options`. Such options change only what a run reports, or choose between code paths that
/// the other options make identical (e.g. two orders of a sort that the selection then reads
/// the same way).
#[derive(Debug, Clone, PartialEq)]
pub struct SameRun {
    pub options: Options,
    pub solved_shift: u64,
}

/// Deserialise an option table into a crate's own struct (use `#[serde(deny_unknown_fields)]`
/// and `Option<T>` fields, so that a spec sets only what it changes).
pub fn parse_options<T: serde::de::DeserializeOwned>(options: &Options) -> Result<T, OptionError> {
    toml::Value::Table(options.clone())
        .try_into()
        .map_err(|e: toml::de::Error| OptionError::new(e.to_string().trim().replace('\n', " ")))
}

/// The value named `value` among `choices`, or an error listing them: the message
/// `readings` and the registry's tests read to know a key's choices.
pub fn choose<T: Copy>(key: &str, value: &str, choices: &[(&str, T)]) -> Result<T, OptionError> {
    choices
        .iter()
        .find(|(k, _)| *k == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|o| o.0).collect();
            OptionError::new(format!(
                "{key} = '{value}' is not one of: {}",
                names.join(", ")
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct P {
        steps: Option<u64>,
    }

    #[test]
    fn options_parse_and_refuse_unknown_keys() {
        let t: Options = toml::from_str("steps = 3").unwrap();
        assert_eq!(parse_options::<P>(&t).unwrap().steps, Some(3));
        let t: Options = toml::from_str("stpes = 3").unwrap();
        let e = parse_options::<P>(&t).unwrap_err().to_string();
        assert!(e.contains("stpes") && !e.contains('\n'), "{e}");
        let t: Options = toml::from_str("steps = 'x'").unwrap();
        assert!(parse_options::<P>(&t).is_err());
    }

    #[test]
    fn choose_names_the_choices() {
        let c = [("a", 1), ("b", 2)];
        assert_eq!(choose("k", "b", &c), Ok(2));
        assert_eq!(
            choose("k", "z", &c).unwrap_err().to_string(),
            "k = 'z' is not one of: a, b"
        );
    }
}

//! Experiment specs: TOML files in `experiments/` (embedded in the binary for `reproduce`), or a
//! user's file for `run`. Unknown keys are errors everywhere.
//!
//! This module holds the spec's types and [`Spec::parse`]; [`validate`] checks a parsed spec
//! (everything that can be checked before the first run without the puzzles), [`puzzles`]
//! loads its puzzles (with the checks that need them), [`embedded`] holds the specs, puzzle
//! files and published tables compiled into the binary, and [`sensitivity`] reads the design
//! of a one-parameter-at-a-time study. [`budgets`] bounds every count and budget key, and
//! [`paths`] checks and reads every file a spec names.

mod budgets;
pub mod embedded;
mod external;
mod paths;
mod puzzles;
pub mod rope;
mod sensitivity;
mod validate;

pub use budgets::{check_bounds, MAX_TOML_INT};
pub use embedded::{embedded, paper_text, published_text, EMBEDDED, EMBEDDED_PUZZLE_FILES};
pub use paths::{check_spec_path, open_regular, read_regular, read_spec_file};
pub use puzzles::{read_capped, read_spec};
pub use sensitivity::sensitivity_panels;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use sudoku_core::Puzzle;

/// One experiment: algorithms x puzzles x runs.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Experiment id, used for the output folder and the run seeds.
    pub id: String,
    pub title: String,
    /// Where the published values come from (paper, table).
    #[serde(default)]
    pub paper: String,
    pub master_seed: u64,
    /// Runs per (algorithm, puzzle).
    pub runs: u64,
    /// `--quick`: runs per (algorithm, puzzle) and a generation cap, so the whole experiment
    /// finishes in well under a minute on 2 cores while exercising the same code.
    pub quick_runs: u64,
    pub quick_max_generations: u64,
    /// `--quick`: puzzle sets (`all = true`) are cut to their first this-many puzzles.
    #[serde(default)]
    pub quick_set_size: Option<usize>,
    /// Published values, a CSV in `experiments/paper/` (embedded for `reproduce`).
    #[serde(default)]
    pub published: Option<String>,
    /// Which report to build beside summary.csv: "table1" (Ret-GA Table 1, Fig. 7, Fig. 8),
    /// "ablation" (variants against a published table's rows), "grades" (RESEDA Figure 4.2:
    /// per-cell correctness grades against a published grid), "counter" (an algorithm counter),
    /// "effort" (success and effort without published values), "versus" ("effort" plus
    /// pairwise Fisher and Mann-Whitney tests between the algorithms), "levels" (per-puzzle
    /// success rate and average generations by difficulty level, against published per-puzzle
    /// tables named in `published_levels`, and the claim that success falls and effort rises
    /// from level to level: Ret-GA journal Tables 2-4) or "none".
    #[serde(default = "default_report")]
    pub report: String,
    /// An extra chart: "alpha" (success and rounds against the algorithms' `alpha` option, one
    /// line per `strategy`: RESEDA Tables 1 and 2); "success-by-variant" or
    /// "success-by-puzzle" (success and time per run, ours and the paper's); "sensitivity"
    /// (one parameter at a time against the first algorithm, the baseline).
    #[serde(default)]
    pub chart: Option<String>,
    /// With `report = "counter"`: the algorithm counter to report (e.g. "distinct_boards").
    #[serde(default)]
    pub counter: Option<String>,
    /// With `counter`: the prefix of the counters that trace it over generations
    /// (`<prefix><generation>`, e.g. "boards_at_"), drawn as `trajectory.png`.
    #[serde(default)]
    pub trajectory: Option<String>,
    /// With `report = "versus"`: "all" pairs of algorithms (default) or "baseline" (each
    /// algorithm against the first only, for ablations).
    #[serde(default)]
    pub versus: Option<String>,
    /// With `report = "levels"`: puzzle `label` -> a published per-puzzle table, a CSV in
    /// `experiments/paper/` (embedded for `reproduce`) with columns
    /// `problem,givens,success,minimum,maximum,average,median,sd` (an optional `runs` column,
    /// else 100 runs per puzzle), e.g. `{ Easy = "paper/ret-ga-table2.csv" }`. Every label of
    /// the spec's puzzles needs a file with as many rows as the label has puzzles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_levels: Option<std::collections::BTreeMap<String, String>>,
    /// Record anytime data: every run's best penalty so far (values missing from rows, columns
    /// and boxes of the algorithm's current best grid) against evaluations, one line per
    /// improvement, in `trajectories.csv` beside `runs.csv` (see the `trajectory` module).
    /// Needed by `report = "compare"`'s fixed-target and fixed-budget views and by
    /// `export --format ioh`. Default false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub anytime: bool,
    /// With `report = "compare"`: the region of practical equivalence (ROPE) of the Bayesian
    /// signed-rank test on per-puzzle ERT, as a ratio: two ERTs within this factor of each other
    /// are practically equivalent (the test works on ln ERT with a ROPE of +-ln(ratio)).
    /// Default [`rope::DEFAULT_ROPE_ERT_RATIO`]; from 1 (no ROPE) to 10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rope_ert_ratio: Option<f64>,
    /// With `report = "compare"`: the ROPE of the Bayesian signed-rank test on per-puzzle
    /// success rates, a difference of rates. Default [`rope::DEFAULT_ROPE_SUCCESS`]; 0 to 0.5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rope_success: Option<f64>,
    pub puzzles: Vec<PuzzleRef>,
    pub algorithms: Vec<AlgorithmSpec>,
}

fn default_report() -> String {
    "none".into()
}

/// A puzzle: a bank id, or a file (path relative to the spec) with an index.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRef {
    /// Bank id (see `sudoku-lab list`), or the id to give the puzzle read from `file`.
    pub id: String,
    /// A puzzle file (any format `puzzles check` reads), relative to the spec file.
    #[serde(default)]
    pub file: Option<String>,
    /// 0-based index of the puzzle in `file`.
    #[serde(default)]
    pub index: usize,
    /// The bank puzzle to use when `id` is a name of the spec's own (default: `id` itself).
    #[serde(default)]
    pub bank: Option<String>,
    /// Runs of this entry's puzzles, overriding the spec's `runs` (not under `--quick` or
    /// `--runs`).
    #[serde(default)]
    pub runs: Option<u64>,
    /// With `file`: every puzzle of the file, as one entry whose runs are reported together
    /// (ids `<id>-0001`, `<id>-0002`, ...; `index` is ignored). For sets such as Kennett's
    /// 1000 puzzles per level.
    #[serde(default)]
    pub all: bool,
    /// With `all`: only the first this-many puzzles of the file (a fixed sample; Kennett's
    /// files are in generation order, so their first puzzles are as random as any). `--quick`
    /// cuts further to `quick_set_size`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take: Option<usize>,
    /// Fix box b (0-based, row-major) to the puzzle's unique solution: RESEDA's coupling when
    /// the right block is guessed.
    #[serde(default)]
    pub fix_box_from_solution: Option<usize>,
    /// Replace the puzzle by every admissible filling of box b (ids `<id>-01`, ...): RESEDA's
    /// coupling over all guesses (24 for the upper-left block of AI Escargot).
    #[serde(default)]
    pub box_fillings: Option<usize>,
    /// The paper's row this puzzle stands for (e.g. "Difficult"); candidates share a label.
    #[serde(default)]
    pub label: Option<String>,
    /// False for candidate files whose identity with the paper's puzzle is uncertain.
    #[serde(default = "yes")]
    pub primary: bool,
}

fn yes() -> bool {
    true
}

/// One algorithm configuration.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AlgorithmSpec {
    /// Label in runs.csv (unique within the spec), e.g. "ret-ga".
    pub label: String,
    /// Which algorithm: "ret-ga" or "mk-ga".
    pub algorithm: String,
    /// The paper's column for this algorithm (e.g. "Ret-GA", "GA").
    #[serde(default)]
    pub paper_label: Option<String>,
    /// The budget in generations (the algorithm's own unit: generations, rounds, cycles,
    /// colony iterations). Optional: a run needs at least one of the four limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_generations: Option<u64>,
    #[serde(default)]
    pub max_evaluations: Option<u64>,
    /// The budget in CPU seconds of one run: a built-in algorithm stops at its next budget
    /// check once its thread has used this much CPU (termination `cpu_limit`); an external
    /// solver is told it in the run message and stops itself (docs/external-solvers.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cpu_seconds: Option<f64>,
    /// The budget in wall-clock seconds of one run, alike (termination `wall_clock_limit`).
    /// For an external solver it is distinct from `wall_seconds`, the hard deadline at which
    /// a silent solver is killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_wall_seconds: Option<f64>,
    /// Runs of this algorithm on every puzzle, overriding the spec's `runs` (not under
    /// `--quick` or `--runs`, which set every algorithm's runs). Run r of a puzzle has the same
    /// seed for every algorithm, so the first runs of an algorithm with more runs are paired
    /// with the runs of one with fewer. A spec sets runs per algorithm or per puzzle, not both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<u64>,
    /// Algorithm options (see `sudoku-lab list` and the crate docs); unknown keys are errors.
    #[serde(default)]
    pub params: toml::Table,
    /// `algorithm = "external"` (docs/external-solvers.md): the program and its arguments, run
    /// in the spec's folder (a program with a `/` is a file of that folder, a bare name is
    /// looked up in PATH; arguments that name files stay in the folder like every spec path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// `algorithm = "external"`: extra environment variables of the solver's processes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<std::collections::BTreeMap<String, String>>,
    /// `algorithm = "external"`: "persistent" (default: one process per thread serving many
    /// runs) or "per-run" (a fresh process for every run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// `algorithm = "external"`: the wall-clock limit of one run in seconds (default 60): a
    /// solver silent past it is killed and the run fails with `wall_limit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_seconds: Option<f64>,
    /// `algorithm = "external"`: the limit of a new solver process's start-up, from its start
    /// to its hello, in seconds (default 120): a process silent past it is killed; the run
    /// fails with `start_failed`, the pre-flight check refuses the spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handshake_seconds: Option<f64>,
    /// `algorithm = "external"`: what one of its evaluations is, as a name shared with the
    /// solvers that count the same thing (e.g. a port of a built-in algorithm may write that
    /// algorithm's name, `"lewis-sa"`). The compare report tests and ranks in evaluations only
    /// among algorithms of one unit; without this key each external solver is its own unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluation_unit: Option<String>,
    /// `sudoku-lab readings`: the options to vary and their values, e.g.
    /// `{ elitism = ["alternate", "best"] }` (default: every option of the algorithm's
    /// ambiguity table, with all its values). Each value must build a solver.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readings: Option<std::collections::BTreeMap<String, Vec<toml::Value>>>,
}

impl AlgorithmSpec {
    /// The run budget, with the `--quick` generation cap when asked. An external solver's
    /// generations are its own count, which it may not keep (the runner cannot see inside
    /// it), so the cap bounds its evaluations too: its quick runs are short whatever it counts.
    pub fn budget(&self, quick_cap: Option<u64>) -> sudoku_core::Budget {
        let cap = |limit: u64| quick_cap.map_or(limit, |q| q.min(limit));
        sudoku_core::Budget {
            max_generations: self.max_generations.map(cap).or(quick_cap),
            max_evaluations: match self.is_external() {
                true => self.max_evaluations.map(cap).or(quick_cap),
                false => self.max_evaluations,
            },
        }
    }

    /// The budget in words: "5000 generations, 10000 evaluations, 1 CPU s" (the limits set).
    pub fn budget_text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(g) = self.max_generations {
            parts.push(format!("{g} generations"));
        }
        if let Some(e) = self.max_evaluations {
            parts.push(format!("{e} evaluations"));
        }
        if let Some(c) = self.max_cpu_seconds {
            parts.push(format!("{c} CPU s"));
        }
        if let Some(w) = self.max_wall_seconds {
            parts.push(format!("{w} wall s"));
        }
        match parts.is_empty() {
            true => "no budget but the solver's hard deadline".to_string(),
            false => parts.join(", "),
        }
    }

    /// The time budget an external solver's run message carries.
    pub fn time_budget(&self) -> crate::algos::external::TimeBudget {
        crate::algos::external::TimeBudget {
            cpu_seconds: self.max_cpu_seconds,
            wall_seconds: self.max_wall_seconds,
        }
    }

    /// The run's time limits as the stop the runner installs (None without any), or as the
    /// run message tells an external solver.
    pub fn time_limits(&self) -> Option<sudoku_core::halt::Stop> {
        let d = |s: Option<f64>| s.map(std::time::Duration::from_secs_f64);
        (self.max_cpu_seconds.is_some() || self.max_wall_seconds.is_some()).then(|| {
            sudoku_core::halt::Stop::Time {
                cpu: d(self.max_cpu_seconds),
                wall: d(self.max_wall_seconds),
            }
        })
    }
}

impl Loaded {
    /// Runs in the whole plan (algorithms x puzzles x runs).
    pub fn total_runs(&self) -> u128 {
        let shared: u128 = self.runs.iter().map(|&r| u128::from(r)).sum();
        (self.algorithm_runs.iter())
            .map(|r| r.map_or(shared, |n| u128::from(n) * self.runs.len() as u128))
            .sum()
    }
}

impl PuzzleRef {
    pub fn label(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.id)
    }
}

impl Spec {
    /// Parse and validate a spec. `base` resolves puzzle files (None for embedded specs).
    pub fn parse(text: &str, name: &str) -> Result<Spec> {
        let spec: Spec = toml::from_str(text).map_err(|e| {
            let msg = e.message().to_string();
            match e.span() {
                Some(span) => {
                    let line = text[..span.start].matches('\n').count() + 1;
                    anyhow::anyhow!("{name}:{line}: {msg}")
                }
                None => anyhow::anyhow!("{name}: {msg}"),
            }
        })?;
        spec.check(name)?;
        Ok(spec)
    }

    /// Every check [`Spec::parse`] makes, for a spec read otherwise (the copy in a results
    /// folder's meta.json, which `replay` takes no more on trust than a spec file); errors
    /// name `name` (the file).
    pub fn check(&self, name: &str) -> Result<()> {
        self.validate()
            .with_context(|| format!("{name}: invalid spec"))
    }
}

/// The most runs one `runs` value (and a plan as a whole) may ask for: a bound on the numbers,
/// far above any protocol's wall time. What a plan may really hold is set by the memory
/// available ([`check_plan_memory`]).
pub const MAX_RUNS: u64 = 1_000_000_000;

/// Memory a protocol needs per planned run at most (the plan is never materialised):
/// the resume index (an offset and a length, 12 bytes), the shard of every run when merging
/// (4 bytes), and bit sets of the runs done and of a shard's runs (1 byte).
pub const BYTES_PER_RUN: u64 = 17;

/// Refuse a plan of `total` runs whose index would need more memory than is available
/// ([`crate::algos::available_memory`]), naming the key to lower.
pub fn check_plan_memory(total: u128) -> Result<()> {
    let Some(available) = crate::algos::available_memory() else {
        return Ok(());
    };
    let need = total.saturating_mul(u128::from(BYTES_PER_RUN));
    if need > u128::from(available) {
        bail!(
            "runs: the plan has {total} runs (algorithms x puzzles x runs), whose index needs about {} MB, more than the {} MB of memory available",
            need >> 20,
            available >> 20
        );
    }
    Ok(())
}

/// Names written into runs.csv and the reports (algorithm labels, puzzle ids and labels) stay in
/// a character set no CSV or Markdown table needs to quote: letters, digits, space and
/// `-_.+()/:*'`. A paper_label may also hold commas (the published tables' columns do, e.g.
/// "both, alpha 0.7"): summary.csv quotes it.
fn check_name(key: &str, value: &str, comma: bool) -> Result<()> {
    if value.is_empty() {
        bail!("{key} is empty");
    }
    if let Some(c) = value
        .chars()
        .find(|&c| !(c.is_alphanumeric() || " -_.+()/:*'".contains(c) || (comma && c == ',')))
    {
        bail!("{key} '{}': character {c:?} is not allowed (letters, digits, space and -_.+()/:*'{} only)", value.escape_default(), if comma { "," } else { "" });
    }
    Ok(())
}

/// The puzzles of a spec: every puzzle to run (sets expanded), and per spec entry what the
/// reports need. Runs are reported per entry.
#[derive(Debug, Default)]
pub struct Loaded {
    pub puzzles: Vec<Puzzle>,
    /// Runs of each puzzle (of an algorithm without its own `runs`).
    pub runs: Vec<u64>,
    /// Per algorithm of the spec: its own runs of every puzzle (None: `runs` above; always
    /// None under `--quick` or `--runs`).
    pub algorithm_runs: Vec<Option<u64>>,
    pub entries: Vec<Entry>,
    /// Puzzle id -> entry index.
    pub entry_of: std::collections::HashMap<String, usize>,
    /// The spec's folder (None for an embedded spec): where external solvers run.
    pub spec_dir: Option<std::path::PathBuf>,
}

/// One spec puzzle entry (a puzzle, or a set of puzzles).
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    /// The number of givens, when all its puzzles have the same.
    pub givens: Option<usize>,
    pub puzzles: usize,
}

//! Experiment specs: TOML files in `experiments/` (embedded in the binary for `reproduce`), or a
//! user's file for `run`. Unknown keys are errors everywhere.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use sudoku_core::parse::parse_puzzles;
use sudoku_core::{bank_puzzle, Puzzle};

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
    pub max_generations: u64,
    #[serde(default)]
    pub max_evaluations: Option<u64>,
    /// Algorithm options (see `sudoku-lab list` and the crate docs); unknown keys are errors.
    #[serde(default)]
    pub params: toml::Table,
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
        spec.validate()
            .with_context(|| format!("{name}: invalid spec"))?;
        Ok(spec)
    }

    fn validate(&self) -> Result<()> {
        if self.id.is_empty()
            || !self
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            bail!(
                "id '{}' must be non-empty letters, digits, '-' or '_'",
                self.id
            );
        }
        if self.runs == 0 || self.quick_runs == 0 {
            bail!("runs and quick_runs must be at least 1");
        }
        for (key, v) in [("runs", self.runs), ("quick_runs", self.quick_runs)]
            .into_iter()
            .chain(self.puzzles.iter().filter_map(|p| Some(("runs", p.runs?))))
        {
            if v > MAX_RUNS {
                bail!("{key} = {v} is over the limit of {MAX_RUNS} runs");
            }
        }
        if self.quick_set_size == Some(0) {
            bail!("quick_set_size must be at least 1");
        }
        for p in &self.puzzles {
            check_name("puzzle id", &p.id, false)?;
            if let Some(l) = &p.label {
                check_name("puzzle label", l, false)?;
            }
        }
        for a in &self.algorithms {
            check_name("algorithm label", &a.label, false)?;
            if let Some(l) = &a.paper_label {
                check_name("paper_label", l, true)?;
            }
        }
        if self.puzzles.is_empty() || self.algorithms.is_empty() {
            bail!("a spec needs at least one puzzle and one algorithm");
        }
        let mut seen = std::collections::HashSet::new();
        for p in &self.puzzles {
            if !seen.insert(&p.id) {
                bail!("puzzle id '{}' appears twice", p.id);
            }
        }
        let mut seen = std::collections::HashSet::new();
        for a in &self.algorithms {
            if !seen.insert(&a.label) {
                bail!("algorithm label '{}' appears twice", a.label);
            }
            if a.max_generations == 0 {
                bail!(
                    "algorithm '{}': max_generations must be at least 1",
                    a.label
                );
            }
            crate::algos::build(a).with_context(|| format!("algorithm '{}'", a.label))?;
        }
        const REPORTS: [&str; 9] = [
            "none", "table1", "ablation", "grades", "counter", "effort", "versus", "levels",
            "compare",
        ];
        for p in &self.puzzles {
            match (p.take, p.all) {
                (Some(0), _) => bail!("puzzle '{}': take must be at least 1", p.id),
                (Some(_), false) => bail!("puzzle '{}': take needs all = true", p.id),
                _ => {}
            }
        }
        if !REPORTS.contains(&self.report.as_str()) {
            bail!(
                "report '{}' is not one of: {}",
                self.report,
                REPORTS.join(", ")
            );
        }
        match (self.report == "levels", &self.published_levels) {
            (true, None) => bail!(
                "report = \"levels\" needs published_levels (puzzle label -> published per-puzzle CSV)"
            ),
            (false, Some(_)) => bail!("published_levels needs report = \"levels\""),
            (true, Some(files)) => {
                let mut labels: Vec<&str> = Vec::new();
                for p in &self.puzzles {
                    if p.all || p.box_fillings.is_some() {
                        bail!(
                            "report \"levels\" needs one puzzle per entry: '{}' is a set",
                            p.id
                        );
                    }
                    if !labels.contains(&p.label()) {
                        labels.push(p.label());
                    }
                }
                if let Some(k) = files.keys().find(|k| !labels.contains(&k.as_str())) {
                    bail!(
                        "published_levels: '{k}' is the label of no puzzle (labels: {})",
                        labels.join(", ")
                    );
                }
                if let Some(l) = labels.iter().find(|l| !files.contains_key(**l)) {
                    bail!("published_levels: puzzle label '{l}' has no file");
                }
            }
            (false, None) => {}
        }
        if (self.report == "counter") != self.counter.is_some() {
            bail!("report = \"counter\" and the key `counter` go together");
        }
        if matches!(self.report.as_str(), "table1" | "ablation" | "counter")
            && self.published.is_none()
        {
            bail!(
                "report \"{}\" needs published (a CSV of the paper's values)",
                self.report
            );
        }
        if let Some(name) = &self.counter {
            for a in &self.algorithms {
                let emitted = crate::algos::counters(a);
                if !emitted.contains(&name.as_str()) {
                    bail!(
                        "counter '{name}': algorithm '{}' ({}) does not emit it (it emits: {})",
                        a.label,
                        a.algorithm,
                        emitted.join(", ")
                    );
                }
            }
        }
        match (&self.trajectory, &self.counter) {
            (Some(_), None) => bail!("trajectory needs report = \"counter\""),
            (Some(prefix), Some(_))
                if !self.algorithms.iter().any(|a| {
                    crate::algos::counters(a)
                        .iter()
                        .any(|c| c.starts_with(prefix.as_str()))
                }) =>
            {
                bail!("trajectory: no algorithm emits counters named {prefix}<generation>")
            }
            _ => {}
        }
        const CHARTS: [&str; 4] = [
            "alpha",
            "success-by-variant",
            "success-by-puzzle",
            "sensitivity",
        ];
        if let Some(c) = self.chart.as_deref().filter(|c| !CHARTS.contains(c)) {
            bail!("chart '{c}' is not one of: {}", CHARTS.join(", "));
        }
        // A chart is drawn by one kind of report only: anything else would be silently ignored.
        match (self.chart.as_deref(), self.report.as_str()) {
            (None, _)
            | (Some("alpha" | "success-by-variant" | "success-by-puzzle"), "ablation")
            | (Some("sensitivity"), "effort" | "versus") => {}
            (Some(c @ ("alpha" | "success-by-variant" | "success-by-puzzle")), r) => {
                bail!("chart \"{c}\" is drawn by report \"ablation\" only, not \"{r}\"")
            }
            (Some(c), r) => bail!(
                "chart \"{c}\" cannot be drawn by report \"{r}\" (report \"compare\" draws its own charts; \"sensitivity\" needs \"effort\" or \"versus\")"
            ),
        }
        if self.report == "compare" && self.algorithms.len() < 2 {
            bail!("report \"compare\" needs at least two algorithms");
        }
        match self.versus.as_deref() {
            None => {}
            Some("all" | "baseline") if self.report == "versus" => {}
            Some(v) => {
                bail!("versus = \"{v}\" needs report \"versus\" and is \"all\" or \"baseline\"")
            }
        }
        if self.chart.as_deref() == Some("sensitivity") {
            if !matches!(self.report.as_str(), "effort" | "versus") {
                bail!("chart \"sensitivity\" needs report \"effort\" or \"versus\"");
            }
            crate::effort::check_sensitivity(self)?;
        }
        if self.report == "grades" && (self.puzzles.len() != 1 || self.algorithms.len() != 1) {
            bail!("report 'grades' needs exactly one puzzle and one algorithm");
        }
        Ok(())
    }

    /// Load every puzzle; `base` is the spec's folder for relative files. Files named by the
    /// embedded specs are embedded too (see [`EMBEDDED_PUZZLE_FILES`]).
    /// `runs`: the runs of every puzzle when forced (`--quick`, `--runs`), else each entry's
    /// own `runs` or the spec's.
    pub fn load_puzzles(
        &self,
        base: Option<&Path>,
        quick: bool,
        runs: Option<u64>,
    ) -> Result<Loaded> {
        let mut loaded = Loaded::default();
        for (e, r) in self.puzzles.iter().enumerate() {
            let ps: Vec<Puzzle> = match &r.file {
                None => {
                    let mut p = bank_puzzle(r.bank.as_deref().unwrap_or(&r.id))?.clone();
                    p.id = r.id.clone();
                    vec![p]
                }
                Some(f) => {
                    let (text, name) = read_puzzle_file(f, base)?;
                    let all = parse_puzzles(&text, &name)?;
                    if r.all {
                        let keep = match (quick, self.quick_set_size) {
                            (true, Some(k)) => k,
                            _ => usize::MAX,
                        }
                        .min(r.take.unwrap_or(usize::MAX));
                        all.into_iter()
                            .take(keep)
                            .enumerate()
                            .map(|(k, mut p)| {
                                p.id = format!("{}-{:04}", r.id, k + 1);
                                p
                            })
                            .collect()
                    } else {
                        let mut p = all.get(r.index).cloned().with_context(|| {
                            format!("{name}: has {} puzzles, index {} asked", all.len(), r.index)
                        })?;
                        p.id = r.id.clone();
                        vec![p]
                    }
                }
            };
            let ps = expand_boxes(r, ps)?;
            if ps.is_empty() {
                bail!(
                    "puzzle '{}': the entry expands to no puzzle{}",
                    r.id,
                    match r.box_fillings {
                        Some(b) => format!(" (box {b} has no admissible filling)"),
                        None => String::new(),
                    }
                );
            }
            for p in &ps {
                for a in &self.algorithms {
                    crate::algos::check_order(&a.algorithm, p.geometry().n())
                        .with_context(|| format!("algorithm '{}', puzzle '{}'", a.label, p.id))?;
                }
            }
            let givens: Vec<usize> = ps.iter().map(Puzzle::givens).collect();
            loaded.entries.push(Entry {
                id: r.id.clone(),
                givens: givens.iter().all(|&g| g == givens[0]).then_some(givens[0]),
                puzzles: ps.len(),
            });
            let entry_runs = runs.unwrap_or(r.runs.unwrap_or(self.runs));
            if entry_runs == 0 {
                bail!("{}: runs must be at least 1", r.id);
            }
            for p in ps {
                loaded.runs.push(entry_runs);
                if loaded.entry_of.insert(p.id.clone(), e).is_some() {
                    bail!("puzzle id '{}' appears twice", p.id);
                }
                loaded.puzzles.push(p);
            }
        }
        let total =
            (self.algorithms.len() as u128) * loaded.runs.iter().map(|&r| r as u128).sum::<u128>();
        if total > MAX_RUNS as u128 {
            bail!(
                "runs: the plan has {total} runs (algorithms x puzzles x runs), over the limit of {MAX_RUNS}"
            );
        }
        Ok(loaded)
    }
}

/// The most runs a protocol may plan (all algorithms, puzzles and runs together): the plan, the
/// resume index and runs.csv grow with it (about 100 bytes of memory per run).
pub const MAX_RUNS: u64 = 10_000_000;

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
    /// Runs of each puzzle.
    pub runs: Vec<u64>,
    pub entries: Vec<Entry>,
    /// Puzzle id -> entry index.
    pub entry_of: std::collections::HashMap<String, usize>,
}

/// One spec puzzle entry (a puzzle, or a set of puzzles).
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    /// The number of givens, when all its puzzles have the same.
    pub givens: Option<usize>,
    pub puzzles: usize,
}

/// Apply an entry's box options (see [`PuzzleRef::fix_box_from_solution`] and
/// [`PuzzleRef::box_fillings`]).
fn expand_boxes(r: &PuzzleRef, ps: Vec<Puzzle>) -> Result<Vec<Puzzle>> {
    use sudoku_core::exact::{admissible_box_fillings, unique_solution};
    let mut out = Vec::new();
    for mut p in ps {
        let n = p.geometry().n();
        if let Some(b) = r.fix_box_from_solution {
            if b >= n {
                bail!(
                    "{}: fix_box_from_solution = {b}, but boxes are 0..{}",
                    r.id,
                    n - 1
                );
            }
            let sol = match &p.solution {
                Some(s) => s.clone(),
                None => unique_solution(&p.grid).with_context(|| {
                    format!("{}: no unique solution to take box {b} from", p.id)
                })?,
            };
            let geom = p.geometry();
            for c in geom.box_cells(b) {
                p.grid.cells_mut()[c] = sol.cells()[c];
            }
            p.solution = Some(sol);
        }
        match r.box_fillings {
            None => out.push(p),
            Some(b) if b >= n => bail!("{}: box_fillings = {b}, but boxes are 0..{}", r.id, n - 1),
            Some(b) => {
                for (k, g) in admissible_box_fillings(&p.grid, b).into_iter().enumerate() {
                    let mut q = Puzzle::new(format!("{}-{:02}", p.id, k + 1), g);
                    q.solution = unique_solution(&q.grid);
                    out.push(q);
                }
            }
        }
    }
    Ok(out)
}

/// Puzzle files used by the embedded specs, embedded as well so `reproduce` works anywhere.
pub const EMBEDDED_PUZZLE_FILES: &[(&str, &str)] = &[
    (
        "puzzles/benbassat-first-row.txt",
        include_str!("../../../experiments/puzzles/benbassat-first-row.txt"),
    ),
    (
        "puzzles/kennett/very-easy.txt",
        include_str!("../../../experiments/puzzles/kennett/very-easy.txt"),
    ),
    (
        "puzzles/kennett/easy.txt",
        include_str!("../../../experiments/puzzles/kennett/easy.txt"),
    ),
    (
        "puzzles/kennett/medium.txt",
        include_str!("../../../experiments/puzzles/kennett/medium.txt"),
    ),
    (
        "puzzles/kennett/hard.txt",
        include_str!("../../../experiments/puzzles/kennett/hard.txt"),
    ),
    (
        "puzzles/kennett/fiendish.txt",
        include_str!("../../../experiments/puzzles/kennett/fiendish.txt"),
    ),
    (
        "puzzles/cso/6x6-easy.txt",
        include_str!("../../../experiments/puzzles/cso/6x6-easy.txt"),
    ),
    (
        "puzzles/cso/6x6-medium.txt",
        include_str!("../../../experiments/puzzles/cso/6x6-medium.txt"),
    ),
    (
        "puzzles/cso/6x6-hard.txt",
        include_str!("../../../experiments/puzzles/cso/6x6-hard.txt"),
    ),
    (
        "puzzles/cso/9x9-easy.txt",
        include_str!("../../../experiments/puzzles/cso/9x9-easy.txt"),
    ),
    (
        "puzzles/cso/9x9-medium.txt",
        include_str!("../../../experiments/puzzles/cso/9x9-medium.txt"),
    ),
    (
        "puzzles/cso/9x9-hard.txt",
        include_str!("../../../experiments/puzzles/cso/9x9-hard.txt"),
    ),
    (
        "puzzles/cso/12x12-easy.txt",
        include_str!("../../../experiments/puzzles/cso/12x12-easy.txt"),
    ),
    (
        "puzzles/cso/12x12-medium.txt",
        include_str!("../../../experiments/puzzles/cso/12x12-medium.txt"),
    ),
    (
        "puzzles/cso/12x12-hard.txt",
        include_str!("../../../experiments/puzzles/cso/12x12-hard.txt"),
    ),
    (
        "puzzles/retga-journal/easy.txt",
        include_str!("../../../experiments/puzzles/retga-journal/easy.txt"),
    ),
    (
        "puzzles/retga-journal/medium.txt",
        include_str!("../../../experiments/puzzles/retga-journal/medium.txt"),
    ),
    (
        "puzzles/retga-journal/hard.txt",
        include_str!("../../../experiments/puzzles/retga-journal/hard.txt"),
    ),
];

/// A puzzle file's text: next to the spec (or relative to the working directory), else one of
/// the embedded files.
/// Largest puzzle file read (a million 25x25 puzzles would be ~1.3 GB; the committed sets are
/// about 1 MB each): parsing holds several times the text, so a larger file is refused
/// before it is read rather than after it has filled the memory.
pub const MAX_PUZZLE_FILE: u64 = 64 << 20;

/// The text of a puzzle file, at most [`MAX_PUZZLE_FILE`] bytes, of a regular file only.
pub fn read_capped(path: &Path) -> Result<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path)
        .with_context(|| format!("cannot read puzzle file {}", path.display()))?;
    if !meta.is_file() {
        bail!("{} is not a regular file", path.display());
    }
    if meta.len() > MAX_PUZZLE_FILE {
        bail!(
            "{}: {} bytes, larger than the {} MB a puzzle file may have",
            path.display(),
            meta.len(),
            MAX_PUZZLE_FILE >> 20
        );
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_PUZZLE_FILE).read_to_string(&mut text))
        .with_context(|| {
            format!(
                "cannot read puzzle file {} (not UTF-8 text?)",
                path.display()
            )
        })?;
    Ok(text)
}

/// Largest spec file read (the committed ones are under 10 kB): `run /dev/zero` stops here
/// instead of filling the memory.
pub const MAX_SPEC_FILE: u64 = 1 << 20;

/// The text of a spec file, at most [`MAX_SPEC_FILE`] bytes.
pub fn read_spec(path: &Path) -> Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SPEC_FILE + 1).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > MAX_SPEC_FILE {
        bail!(
            "{}: larger than the {} MB a spec may have",
            path.display(),
            MAX_SPEC_FILE >> 20
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "cannot read {}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// A user spec (`base` = its folder) reads its own files only; an embedded spec (or a replay
/// without a recorded folder) reads the embedded file of that name, else the path as given.
fn read_puzzle_file(f: &str, base: Option<&Path>) -> Result<(String, String)> {
    if let Some(b) = base {
        let path = b.join(f);
        return Ok((read_capped(&path)?, path.display().to_string()));
    }
    if let Some((_, text)) = EMBEDDED_PUZZLE_FILES.iter().find(|(k, _)| *k == f) {
        return Ok((text.to_string(), format!("experiments/{f}")));
    }
    let path = PathBuf::from(f);
    Ok((read_capped(&path)?, path.display().to_string()))
}

/// The specs shipped with sudoku-lab (`experiments/*.toml`), embedded.
pub const EMBEDDED: &[(&str, &str)] = &[
    (
        "ret-ga-table1",
        include_str!("../../../experiments/ret-ga-table1.toml"),
    ),
    (
        "ret-ga-ablation",
        include_str!("../../../experiments/ret-ga-ablation.toml"),
    ),
    (
        "mk-ga-ablation",
        include_str!("../../../experiments/mk-ga-ablation.toml"),
    ),
    (
        "reseda-table1",
        include_str!("../../../experiments/reseda-table1.toml"),
    ),
    (
        "reseda-table2",
        include_str!("../../../experiments/reseda-table2.toml"),
    ),
    (
        "reseda-table3",
        include_str!("../../../experiments/reseda-table3.toml"),
    ),
    (
        "reseda-table5",
        include_str!("../../../experiments/reseda-table5.toml"),
    ),
    (
        "reseda-ablation",
        include_str!("../../../experiments/reseda-ablation.toml"),
    ),
    (
        "reseda-cell-order-easy",
        include_str!("../../../experiments/reseda-cell-order-easy.toml"),
    ),
    (
        "reseda-cell-order-medium",
        include_str!("../../../experiments/reseda-cell-order-medium.toml"),
    ),
    (
        "reseda-cell-order-hard",
        include_str!("../../../experiments/reseda-cell-order-hard.toml"),
    ),
    (
        "reseda-table4",
        include_str!("../../../experiments/reseda-table4.toml"),
    ),
    (
        "reseda-fig4",
        include_str!("../../../experiments/reseda-fig4.toml"),
    ),
    (
        "reseda-coupling",
        include_str!("../../../experiments/reseda-coupling.toml"),
    ),
    (
        "benbassat",
        include_str!("../../../experiments/benbassat.toml"),
    ),
    (
        "cso-sizes",
        include_str!("../../../experiments/cso-sizes.toml"),
    ),
    (
        "cso-sensitivity",
        include_str!("../../../experiments/cso-sensitivity.toml"),
    ),
    ("cso-vs", include_str!("../../../experiments/cso-vs.toml")),
    (
        "benchmark-9x9",
        include_str!("../../../experiments/benchmark-9x9.toml"),
    ),
    (
        "lewis-sa-reheat",
        include_str!("../../../experiments/lewis-sa-reheat.toml"),
    ),
    (
        "cso-ablation",
        include_str!("../../../experiments/cso-ablation.toml"),
    ),
    (
        "ret-ga-tables234",
        include_str!("../../../experiments/ret-ga-tables234.toml"),
    ),
];

/// Published-value files (`experiments/paper/*.csv`), embedded.
pub const PAPER_FILES: &[(&str, &str)] = &[
    (
        "paper/ret-ga-table1.csv",
        include_str!("../../../experiments/paper/ret-ga-table1.csv"),
    ),
    (
        "paper/reseda-table1.csv",
        include_str!("../../../experiments/paper/reseda-table1.csv"),
    ),
    (
        "paper/reseda-table2.csv",
        include_str!("../../../experiments/paper/reseda-table2.csv"),
    ),
    (
        "paper/reseda-table3.csv",
        include_str!("../../../experiments/paper/reseda-table3.csv"),
    ),
    (
        "paper/reseda-table5.csv",
        include_str!("../../../experiments/paper/reseda-table5.csv"),
    ),
    (
        "paper/reseda-table4.csv",
        include_str!("../../../experiments/paper/reseda-table4.csv"),
    ),
    (
        "paper/reseda-fig4.txt",
        include_str!("../../../experiments/paper/reseda-fig4.txt"),
    ),
    (
        "paper/reseda-coupling.csv",
        include_str!("../../../experiments/paper/reseda-coupling.csv"),
    ),
    (
        "paper/benbassat.csv",
        include_str!("../../../experiments/paper/benbassat.csv"),
    ),
    (
        "paper/ret-ga-table2.csv",
        include_str!("../../../experiments/paper/ret-ga-table2.csv"),
    ),
    (
        "paper/ret-ga-table3.csv",
        include_str!("../../../experiments/paper/ret-ga-table3.csv"),
    ),
    (
        "paper/ret-ga-table4.csv",
        include_str!("../../../experiments/paper/ret-ga-table4.csv"),
    ),
];

pub fn embedded(id: &str) -> Result<Spec> {
    let (_, text) = EMBEDDED.iter().find(|(k, _)| *k == id).with_context(|| {
        let ids: Vec<&str> = EMBEDDED.iter().map(|e| e.0).collect();
        format!("unknown experiment '{id}' (known: {})", ids.join(", "))
    })?;
    Spec::parse(text, &format!("experiments/{id}.toml"))
}

/// Published values for a spec: embedded file, or a file next to a user's spec.
pub fn published_text(spec: &Spec, base: Option<&Path>) -> Result<Option<String>> {
    let Some(name) = &spec.published else {
        return Ok(None);
    };
    paper_text(name, base).map(Some)
}

/// A published-values file: next to a user's spec (`base`), else embedded.
pub fn paper_text(name: &str, base: Option<&Path>) -> Result<String> {
    if let Some(b) = base {
        let p = b.join(name);
        if p.exists() {
            return std::fs::read_to_string(&p)
                .with_context(|| format!("cannot read {}", p.display()));
        }
    }
    PAPER_FILES
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, t)| t.to_string())
        .with_context(|| format!("published values file '{name}' not found"))
}

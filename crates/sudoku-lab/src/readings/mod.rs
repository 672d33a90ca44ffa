//! `sudoku-lab readings`: race every combination of a paper's named ambiguities
//! against its published table and report which readings the table does not contradict.
//!
//! - [`order`] - a race as asked for (the command's flags in the engine's terms), and the
//!   command that makes it (command.json);
//! - [`folder`] - what a race folder's recorded settings settle before the race is validated,
//!   and the folder claimed;
//! - [`engine`] - the race from its order to its outputs: prepared once, run on this
//!   machine, its outputs written; [`cluster`] (the rounds of a cluster), [`replay`] (a race
//!   folder's runs executed again) and [`calibration`] (outcomes in memory) drive the same
//!   race;
//! - [`space`] - the options varied and their combinations (the readings);
//! - [`cells`] - the published cells and the tests (those of comparison.csv, and the
//!   solved-by-maximum and solved-by-median proportions a capped run answers);
//! - [`race`] - rounds, stages, looks and eliminations;
//! - [`store`] - the race's run file: runs executed by the protocol with the protocol's seeds,
//!   appended as they finish, read back on `--resume`;
//! - [`shard`] - a race on a cluster: which shard makes a run, the shard files read back;
//! - [`synthetic`] - a published table made from a hidden reading, to validate the race;
//! - [`confirm`] - the survivors and the last round's eliminations rerun at a second master
//!   seed and tested once ([`confirm_report`]: its report section);
//! - [`outputs`] - readings.csv, race.csv, report.md, the specification-curve chart;
//! - [`closest`] - the race's answer in one sentence, the readings that came closest and the
//!   cells that reject every reading;
//! - [`summary`] - the races of a folder in one table (`readings-summary`);
//! - [`verdicts`] - what survival is worth: detectable departures and verdicts per survivor;
//! - [`md`] - input-derived text as it goes into their Markdown, escaped.
//!
//! It sits above the reports (it reads published tables with their parser) and below the
//! site, which may show its folders.

pub mod calibration;
pub mod calibration_report;
pub mod cells;
pub mod closest;
pub mod cluster;
pub mod confirm;
pub mod confirm_report;
pub mod engine;
pub mod folder;
pub mod md;
pub mod order;
pub mod outputs;
pub mod procedure;
pub mod race;
pub mod replay;
pub mod settings;
pub mod shard;
pub mod space;
pub mod store;
pub mod summary;
pub mod synthetic;
pub mod validation;
pub mod verdicts;

use crate::protocol::Protocol;
use crate::reports::groups::PublishedRow;
use crate::spec::{AlgorithmSpec, Loaded, Spec};
use anyhow::{bail, Context, Result};
use cells::{Caps, Target};
use space::Space;
use std::path::{Path, PathBuf};
use sudoku_core::Puzzle;

/// What a race is asked to do: an [`order::Order`] with what it leaves open settled
/// ([`engine::prepare`]), validated by [`Setup::new`].
#[derive(Debug, Clone)]
pub struct Request {
    pub spec: Spec,
    /// The folder of a user spec (None for an embedded one).
    pub base: Option<PathBuf>,
    /// The spec's algorithm label whose published column is raced, several joined by
    /// commas, or `all` (every entry with a `paper_label`).
    pub algorithm: String,
    /// `--published`: rows replacing the spec's published table.
    pub published: Option<Vec<PublishedRow>>,
    /// `--options KEY=V1,V2`.
    pub options: Vec<String>,
    pub max_runs: Option<u64>,
    /// Cumulative runs per puzzle of the rounds asked for.
    pub rounds: Vec<u64>,
    /// Runs stopped at this multiple of the published maximum (None: no caps).
    pub cap_factor: Option<f64>,
    /// On rows without a maximum, runs stopped at this multiple of the published mean of
    /// successes (None: no mean caps). See [`cells`] for the Markov bound it tests.
    pub mean_cap_factor: Option<f64>,
    /// Stop a reading's capped runs once its elimination is decided (`--no-curtail`: off).
    pub curtail: bool,
    /// Readings that make the same runs share them (`--no-shared-runs`: off); see
    /// [`Setup::shared_runs`].
    pub share: bool,
    pub alpha: f64,
    /// The statistical procedure ([`procedure`]).
    pub procedure: procedure::Procedure,
    /// The margins of the survivors' verdicts ([`verdicts`]).
    pub margins: verdicts::Margins,
    /// The master seed of the confirmation ([`confirm`]); None: no confirmation.
    pub confirm_seed: Option<u64>,
}

/// How [`Setup::store`] opens a run file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Created with its header when new, else read back and checked; runs appended.
    Append,
    /// Read back; nothing written.
    Read,
}

/// A validated race: the readings as the algorithms of a protocol of the spec's id and master
/// seed (so each run has the protocol's seed), the race's puzzles, and the published rows.
///
/// A race may hold several entries of the spec (`--algorithm a,b` or `all`: e.g. the columns
/// of a table that vary a published parameter): a reading is then one combination of the
/// options applied to every raced entry, and must fit the columns of all of them. The
/// protocol's algorithm of reading `r` on entry `e` is `r * entries + e`.
pub struct Setup {
    /// The spec with the readings (times the raced entries) as its algorithms and the race's
    /// puzzles.
    pub spec: Spec,
    /// The labels of the race's puzzles (the paper's rows).
    pub labels: Vec<String>,
    /// Runs per race puzzle in the full protocol (before `--max-runs`): the full factorial
    /// the race's cost is compared with.
    pub protocol_runs: Vec<u64>,
    /// The readings (on the first raced entry's options).
    pub space: Space,
    /// The first raced entry: the algorithm, its budget.
    pub algorithm: AlgorithmSpec,
    /// Every raced entry (the first is `algorithm`); they share the algorithm and budget.
    pub entries: Vec<AlgorithmSpec>,
    /// The published rows of the raced columns (the spec's, or `--published`).
    pub rows: Vec<PublishedRow>,
    pub request: Request,
    /// The race's puzzles and their runs (after `--max-runs`) as the protocol takes them.
    pub loaded: Loaded,
}

/// `puzzles` with `runs` each for every algorithm of `spec` (none has runs of its own): what
/// [`Protocol::new`] takes.
pub fn loaded(spec: &Spec, puzzles: &[Puzzle], runs: Vec<u64>) -> Loaded {
    Loaded {
        puzzles: puzzles.to_vec(),
        runs,
        algorithm_runs: vec![None; spec.algorithms.len()],
        entries: Vec::new(),
        entry_of: Default::default(),
        spec_dir: None,
    }
}

impl Setup {
    /// Validate a request: the algorithm, its published column, the puzzles that column names
    /// (primary entries of one puzzle each), the readings.
    pub fn new(request: Request) -> Result<Setup> {
        let entries = raced_entries(&request.spec, &request.algorithm)?;
        let columns: Vec<String> = entries
            .iter()
            .filter_map(|a| a.paper_label.clone())
            .collect();
        let rows = published_rows(&request, &columns)?;
        let space = Space::of(&entries[0], &request.options)?;
        let mut spaces = vec![space.clone()];
        for e in &entries[1..] {
            let other = Space::of(e, &request.options)?;
            if (&other.keys, &other.values, &other.algorithm)
                != (&space.keys, &space.values, &space.algorithm)
            {
                bail!(
                    "--algorithm: entries '{}' and '{}' do not share their options to vary (keys, values or algorithm); race them separately",
                    entries[0].label,
                    e.label
                );
            }
            spaces.push(other);
        }
        let (puzzles, labels, (runs, protocol_runs)) = race_puzzles(&request, &entries, &rows)?;
        let mut derived = request.spec.clone();
        derived.algorithms = (0..space.len())
            .flat_map(|r| (0..entries.len()).map(move |e| (r, e)))
            .map(|(r, e)| reading_entry(&entries[e], &spaces[e], r, entries.len() > 1))
            .collect();
        let loaded = loaded(&derived, &puzzles, runs);
        Ok(Setup {
            spec: derived,
            loaded,
            labels,
            protocol_runs,
            algorithm: entries[0].clone(),
            entries,
            space,
            rows,
            request,
        })
    }

    /// The protocol's algorithm of reading `r` on raced entry `e`.
    pub fn solver(&self, r: usize, e: usize) -> usize {
        r * self.entries.len() + e
    }

    /// The race's run file at `path` (its own or its confirmation's) under `protocol`, its
    /// readings sharing runs as the race does (unless `--no-shared-runs`): the one place a
    /// store of the race's or the confirmation's runs opens. [`Access::Append`]: a new file
    /// with its header, or the one there read back and checked, to append runs to;
    /// [`Access::Read`]: the file there read back, nothing written.
    pub fn store(&self, path: &Path, protocol: &Protocol, access: Access) -> Result<store::Store> {
        let mut store = match access {
            Access::Append => store::Store::open(path, protocol, self.full(), true)?,
            Access::Read => store::Store::read_only(path, protocol, self.full())?,
        };
        if self.request.share {
            store.share(self.shared_runs());
        }
        Ok(store)
    }

    /// Per solver (reading x entry), the solver whose runs it reads and the generations its
    /// solved runs report fewer: another solver of the race whose options the algorithm
    /// names as making the same runs ([`crate::algos::same_run`]), with the same budgets, and
    /// that has no such other itself; else the solver itself. Every run has the protocol's
    /// seed of its puzzle and run index whatever the solver, so the two make the same runs.
    pub fn shared_runs(&self) -> Vec<(u32, u64)> {
        let algs = &self.spec.algorithms;
        let same_budget = |a: &AlgorithmSpec, b: &AlgorithmSpec| {
            a.algorithm == b.algorithm
                && a.max_generations == b.max_generations
                && a.max_evaluations == b.max_evaluations
        };
        let sames: Vec<Option<sudoku_core::SameRun>> = (algs.iter())
            .map(|a| crate::algos::same_run(&a.algorithm, &a.params))
            .collect();
        (algs.iter().zip(&sames).enumerate())
            .map(|(s, (a, same))| {
                let Some(same) = same else {
                    return (s as u32, 0);
                };
                let own = (0..algs.len()).find(|&o| {
                    sames[o].is_none() && same_budget(a, &algs[o]) && algs[o].params == same.options
                });
                own.map_or((s as u32, 0), |o| (o as u32, same.solved_shift))
            })
            .collect()
    }

    /// The protocol whose algorithms are the readings.
    pub fn protocol(&self) -> Result<Protocol<'_>> {
        Protocol::new(&self.spec, &self.loaded, None, None)
    }

    /// The full generation budget of a run.
    pub fn full(&self) -> u64 {
        // Set: `raced_entries` refuses an entry without it.
        self.algorithm.max_generations.unwrap_or(0)
    }

    /// The most runs of a puzzle.
    pub fn max_runs(&self) -> u64 {
        self.loaded.runs.iter().copied().max().unwrap_or(0)
    }

    /// Whether a published row of the race gets a mean cap (it then depends on `--mean-cap`).
    pub fn uses_mean_cap(&self) -> bool {
        (self.targets(&self.rows).ok().into_iter().flatten()).any(|t| t.by_cap_bound.is_some())
    }

    /// The published cells of `rows` on the race's puzzles, cheapest first (ties in puzzle
    /// order); a puzzle whose label has no row is not tested.
    pub fn targets(&self, rows: &[PublishedRow]) -> Result<Vec<Target>> {
        let cappable = crate::algos::cappable(&self.algorithm.algorithm);
        // A counter race's average is of the counter, not of generations: no mean cap.
        let caps = Caps {
            max_factor: self.request.cap_factor.filter(|_| cappable),
            mean_factor: (self.request.mean_cap_factor)
                .filter(|_| cappable && self.spec.counter.is_none()),
        };
        let many = self.entries.len() > 1;
        let mut targets = Vec::new();
        for (e, entry) in self.entries.iter().enumerate() {
            let column = entry.paper_label.as_deref().unwrap_or("");
            for (p, label) in self.labels.iter().enumerate() {
                let mine = rows
                    .iter()
                    .filter(|r| &r.level == label && r.algorithm == column);
                for row in mine {
                    let mut t = Target::new(p, row, caps, self.full())?;
                    t.entry = e;
                    t.counter = self.spec.counter.is_some();
                    if many {
                        t.level = format!("{column} @ {label}");
                    }
                    targets.push(t);
                }
            }
        }
        order(&mut targets);
        Ok(targets)
    }

    /// The raced entries' names for titles: `label ("column")`, joined.
    pub fn names(&self) -> String {
        (self.entries.iter())
            .map(|a| {
                format!(
                    "{} (\"{}\")",
                    md::code(&a.label),
                    md::text(a.paper_label.as_deref().unwrap_or(""))
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The order of a race's targets: cheapest first (lowest published mean generations, then
/// the lowest cap). Rows of equal cost (e.g. none prints generations: RESEDA's Table 3) come
/// by published success rate, highest first: a run that solves ends early, and a row most
/// runs solve rejects a reading that fails them with the fewest runs.
pub fn order(targets: &mut [Target]) {
    targets.sort_by(|a, b| {
        (a.cost().total_cmp(&b.cost()))
            .then(b.success_rate().total_cmp(&a.success_rate()))
            .then(a.puzzle.cmp(&b.puzzle))
            .then(a.entry.cmp(&b.entry))
    });
}

/// The label a race of `algorithm` (`--algorithm`) on `spec` goes by in its default folder:
/// its entry's label when it races one, else `algorithm` as given.
pub fn raced_label(spec: &Spec, algorithm: &str) -> Result<String> {
    let entries = raced_entries(spec, algorithm)?;
    Ok(match &entries[..] {
        [one] => one.label.clone(),
        _ => algorithm.to_string(),
    })
}

/// The entries `--algorithm` names: one label, labels joined by commas, or `all` (every entry
/// with a `paper_label`); they must share the algorithm and the generation budget.
fn raced_entries(spec: &Spec, algorithm: &str) -> Result<Vec<AlgorithmSpec>> {
    let labels: Vec<&str> = spec.algorithms.iter().map(|a| a.label.as_str()).collect();
    let entries: Vec<AlgorithmSpec> = if algorithm == "all" {
        (spec.algorithms.iter())
            .filter(|a| a.paper_label.is_some())
            .cloned()
            .collect()
    } else {
        let mut out: Vec<AlgorithmSpec> = Vec::new();
        for name in algorithm.split(',').map(str::trim) {
            let a = (spec.algorithms.iter().find(|a| a.label == name)).with_context(|| {
                format!(
                    "--algorithm '{name}' is not a label of {} ({})",
                    spec.id,
                    labels.join(", ")
                )
            })?;
            if out.iter().any(|o| o.label == a.label) {
                bail!("--algorithm names '{name}' twice");
            }
            out.push(a.clone());
        }
        out
    };
    let Some(first) = entries.first() else {
        bail!("--algorithm all: no entry of {} has a paper_label", spec.id);
    };
    for a in &entries {
        if a.max_generations.is_none()
            || a.max_cpu_seconds.is_some()
            || a.max_wall_seconds.is_some()
        {
            bail!(
                "algorithm '{}': a race needs max_generations (its runs are capped at the published generations) and no time limit (a time stop depends on the machine)",
                a.label
            );
        }
        if a.paper_label.is_none() {
            bail!(
                "algorithm '{}' has no paper_label: its published column is unknown",
                a.label
            );
        }
        if a.algorithm != first.algorithm || a.max_generations != first.max_generations {
            bail!(
                "--algorithm: '{}' and '{}' differ in algorithm or max_generations; a race's entries share both",
                first.label,
                a.label
            );
        }
    }
    Ok(entries)
}

/// The spec entry of reading `r` on a raced entry: the entry with the reading's options,
/// labelled by the reading's id (and the entry's label when several are raced).
fn reading_entry(alg: &AlgorithmSpec, space: &Space, r: usize, many: bool) -> AlgorithmSpec {
    AlgorithmSpec {
        label: if many {
            format!("{}/{}", space.id(r), alg.label)
        } else {
            space.id(r)
        },
        params: space.params(r),
        readings: None,
        runs: None,
        ..alg.clone()
    }
}

/// The rows of the raced columns: `--published` or the spec's table, only those of `columns`.
fn published_rows(request: &Request, columns: &[String]) -> Result<Vec<PublishedRow>> {
    let rows = match &request.published {
        Some(rows) => rows.clone(),
        None => {
            let text = crate::spec::published_text(&request.spec, request.base.as_deref())?
                .with_context(|| {
                    format!(
                        "{} has no published table: pass --published",
                        request.spec.id
                    )
                })?;
            crate::reports::groups::parse_published(&text, "published")?
        }
    };
    let rows: Vec<PublishedRow> = (rows.into_iter())
        .filter(|r| columns.contains(&r.algorithm))
        .collect();
    if rows.is_empty() {
        bail!(
            "the published table has no row of column '{}'",
            columns.join("', '")
        );
    }
    Ok(rows)
}

/// The race's puzzles, their labels, and their runs (the race's and the protocol's).
type RacePuzzles = (Vec<Puzzle>, Vec<String>, (Vec<u64>, Vec<u64>));

/// The race's puzzles: the spec's primary entries whose label has a published row, each a
/// single puzzle; their labels and runs (the protocol's at most `--max-runs`, and the
/// protocol's).
fn race_puzzles(
    request: &Request,
    entries: &[AlgorithmSpec],
    rows: &[PublishedRow],
) -> Result<RacePuzzles> {
    let spec = &request.spec;
    let loaded = spec.load_puzzles(request.base.as_deref(), false, None)?;
    // The raced entries' own `runs`, when they set them, are their protocol's runs.
    let own: Vec<Option<u64>> = (spec.algorithms.iter().enumerate())
        .filter(|(_, a)| entries.iter().any(|e| e.label == a.label))
        .map(|(i, _)| loaded.algorithm_runs[i])
        .collect();
    if own.windows(2).any(|w| w[0] != w[1]) {
        bail!(
            "--algorithm: the raced entries set different runs; a race's entries share their runs"
        );
    }
    let own_runs = own.first().copied().flatten();
    let (mut puzzles, mut labels) = (Vec::new(), Vec::new());
    let (mut runs, mut protocol_runs) = (Vec::new(), Vec::new());
    for (e, entry) in spec.puzzles.iter().enumerate() {
        if !entry.primary || !rows.iter().any(|r| r.level == entry.label()) {
            continue;
        }
        let mine: Vec<usize> = (0..loaded.puzzles.len())
            .filter(|&i| loaded.entry_of.get(&loaded.puzzles[i].id) == Some(&e))
            .collect();
        let [i] = mine[..] else {
            bail!(
                "puzzle entry '{}' holds {} puzzles: readings races single puzzles",
                entry.id,
                mine.len()
            );
        };
        puzzles.push(loaded.puzzles[i].clone());
        labels.push(entry.label().to_string());
        let full = own_runs.unwrap_or(loaded.runs[i]);
        runs.push(request.max_runs.map_or(full, |m| m.min(full)));
        protocol_runs.push(full);
    }
    if puzzles.is_empty() {
        bail!(
            "no primary puzzle of {} has a row in the published table",
            spec.id
        );
    }
    Ok((puzzles, labels, (runs, protocol_runs)))
}

/// The default folder of a race: `results/readings-<id>-<label>` (`-synthetic` added for a
/// synthetic one).
pub fn default_out(spec_id: &str, label: &str, synthetic: bool) -> PathBuf {
    let suffix = if synthetic { "-synthetic" } else { "" };
    let name: String = format!("readings-{spec_id}-{label}{suffix}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    Path::new("results").join(name)
}

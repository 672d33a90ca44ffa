//! What survival is worth: for every survivor of a race, per published cell, the smallest
//! departure from the table that the race's own test would have detected with 80 % power at
//! the final look, and a three-way verdict against margins a reader can tell apart.
//!
//! - **Detectable departure.** The cell's test at the level the procedure used for one cell
//!   at the final look (v1: alpha / L over the m cells of the look, the first step of Holm's
//!   adjustment; v2: the last round's alpha_K / C), with the survivor's runs. Proportion
//!   cells (success count, solved by the maximum, by the median, within the mean cap):
//!   the true rates of our runs that Fisher's test detects with 80 % power, an exact sum over
//!   the binomial of our count, the paper's count fixed ([`lab_stats::fisher_detectable`]).
//!   Mean cells: the difference of means the race's mean test (guarded under v2, Welch under
//!   v1) detects with 80 % power, our SD taken as the test's and our mean as normal
//!   ([`lab_stats::mean_detectable`]), as a share of the published mean.
//! - **Verdict.** *Contradicted*: some cell's own p-value is at most 0.05, the level of the
//!   compare reports, although the race's multiplicity-adjusted test kept the reading.
//!   Otherwise *within margins*: every cell with a published value is equivalent to it by two
//!   one-sided tests at the race's alpha (the `1 - 2 alpha` interval inside the margin:
//!   Clopper-Pearson for rates, the guarded t interval for means, see
//!   [`lab_stats::rate_equivalence`]). Otherwise *undecided*, with the runs per row at which
//!   every undecided cell would be declared within its margin with 80 % probability if the
//!   truth were our estimate (none when an estimate lies outside its margin).
//!   A reading both within the margins and different at 0.05 is reported contradicted: the
//!   difference is small but the table shows it.
//! - **Unsolved runs.** They count as failures in every proportion cell; the mean cell is the
//!   mean generations of the successful runs, as the race tests it (the paper's mean is of
//!   its successes), so an unsolved run is censored out of the mean and into the count. The
//!   runs a mean cell needs are its successes over our success rate.
//! - The mean cap's cell compares with a lower bound (Markov), not a published value: it can
//!   contradict a reading but takes no part in the equivalence.

use super::cells::{capped_tests, Tally, Target, Test};
use super::procedure::Procedure;
use super::race::{Fate, Race};
use super::store::Store;
use crate::protocol::io::{check_regular, write_atomic_with};
use anyhow::{bail, Context, Result};
use lab_stats::{
    clopper_pearson, fisher_detectable, mean_detectable, mean_equivalence, mean_equivalence_runs,
    rate_equivalence, rate_equivalence_runs, summarize, MeanTest, Sides,
};
use std::io::Write;
use std::path::Path;

/// The power of the detectable departures and of the runs an undecided verdict needs.
pub const POWER: f64 = 0.8;
/// The level of the compare reports: a cell with a p-value at most this contradicts.
pub const COMPARE_LEVEL: f64 = 0.05;
/// The most runs per row an undecided verdict is said to need (beyond: not decidable).
const MOST_RUNS: u64 = 10_000_000;

/// The equivalence margins: a difference of success rates (0.10: ten points) and a share of
/// the published mean (0.25).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Margins {
    pub success: f64,
    pub mean: f64,
}

impl Margins {
    /// Ten points of success rate, a quarter of the mean (docs/readings.md gives the reasons).
    pub const DEFAULT: Margins = Margins {
        success: 0.10,
        mean: 0.25,
    };

    pub fn is_default(&self) -> bool {
        *self == Margins::DEFAULT
    }
}

impl Default for Margins {
    fn default() -> Margins {
        Margins::DEFAULT
    }
}

/// The verdict on a survivor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Within,
    Contradicted,
    Undecided,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [Verdict::Within, Verdict::Contradicted, Verdict::Undecided];

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Within => "within margins",
            Verdict::Contradicted => "contradicted",
            Verdict::Undecided => "undecided",
        }
    }
}

/// What a cell compares.
#[derive(Debug, Clone, PartialEq)]
pub enum Quantity {
    /// Our `x` of `n` runs against the paper's `paper` of `paper_n`; `bound`: the paper's is
    /// a lower bound (the mean cap's Markov bound), tested one-sided.
    Rate {
        x: u64,
        n: u64,
        paper: u64,
        paper_n: u64,
        bound: bool,
    },
    /// Our (mean, SD, n) against the paper's; `per_run`: our observations per run (the
    /// success rate for a mean of successes, 1 for a counter's mean over every run).
    Mean {
        ours: (f64, f64, u64),
        paper: (f64, f64, u64),
        per_run: f64,
    },
}

impl Quantity {
    /// The published value and ours: rates, or means.
    pub fn values(&self) -> (f64, f64) {
        match *self {
            Quantity::Rate {
                x,
                n,
                paper,
                paper_n,
                ..
            } => (paper as f64 / paper_n as f64, x as f64 / n as f64),
            Quantity::Mean { ours, paper, .. } => (paper.0, ours.0),
        }
    }
}

/// A cell's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Within,
    Differs,
    Undecided,
    /// A lower bound, not contradicted: no part of the equivalence.
    Bound,
}

impl State {
    pub fn name(self) -> &'static str {
        match self {
            State::Within => "within margin",
            State::Differs => "differs",
            State::Undecided => "undecided",
            State::Bound => "bound kept",
        }
    }
}

/// One cell of one survivor.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub cell: String,
    pub quantity: Quantity,
    /// The cell test's p-value with the survivor's runs.
    pub p_raw: f64,
    /// That p-value Holm-adjusted over the reading's cells (what *contradicted* is judged on).
    pub p: f64,
    /// The level of one cell at the final look.
    pub level: f64,
    /// The values of our quantity the test detects with 80 % power, below and above the
    /// published one (None: not even the range's end, or the test does not look that way).
    pub detectable: (Option<f64>, Option<f64>),
    /// The `1 - 2 alpha` interval of our quantity.
    pub interval: Option<(f64, f64)>,
    pub state: State,
    /// Runs per row at which the cell would be declared within its margin with 80 %
    /// probability were the truth our estimate (undecided cells; None: not decidable).
    pub runs_needed: Option<u64>,
}

/// One survivor's verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub reading: usize,
    pub verdict: Verdict,
    pub cells: Vec<Cell>,
    /// Undecided: the runs per row every undecided cell needs (None: some cannot be decided,
    /// its estimate lying outside its margin).
    pub runs_needed: Option<u64>,
}

/// The verdicts of a race's survivors, in reading order, from their runs of the last round.
pub fn judge(race: &Race, store: &Store, fates: &[Fate], margins: Margins) -> Vec<Reading> {
    let Some(&n) = race.rounds.last() else {
        return Vec::new();
    };
    (0..fates.len())
        .filter(|&r| fates[r].eliminated.is_none())
        .map(|r| {
            let quantities: Vec<(Test, Quantity)> = (race.targets.iter())
                .flat_map(|t| quantities(race, t, &race.tally(store, r, t, n, race.full)))
                .collect();
            let level = final_level(race, quantities.len());
            // Contradiction is judged family-wise over the reading's cells, as the compare
            // reports judge theirs: Holm-adjusted p-values at 0.05, so a reading that truly
            // follows the paper is called contradicted with probability at most 0.05.
            let raw: Vec<f64> = quantities.iter().map(|(t, _)| t.p).collect();
            let adjusted = lab_stats::holm_adjust(&raw);
            let cells = (quantities.into_iter().zip(adjusted))
                .map(|((test, q), p)| cell((test, p), q, level, race, margins))
                .collect();
            verdict(r, cells)
        })
        .collect()
}

/// The level of one cell at the final look: v1 rejects when Holm's smallest adjusted p-value
/// (m times the smallest of the look's m p-values) is at most alpha / L; v2 at alpha_K / C.
pub fn final_level(race: &Race, cells: usize) -> f64 {
    match race.procedure {
        Procedure::V1 => race.threshold() / cells.max(1) as f64,
        Procedure::V2 | Procedure::V3 => race
            .levels()
            .cell_level(race.rounds.len().saturating_sub(1)),
    }
}

/// The tests of one row at the final look, each with what it compares.
fn quantities(race: &Race, t: &Target, x: &Tally) -> Vec<(Test, Quantity)> {
    let mut tests = Vec::new();
    capped_tests(race.procedure, t, x, &mut tests);
    race.full_tests(t, x, &mut tests);
    let r = &t.row;
    let (s, m) = (r.count.unwrap_or(0), r.runs.unwrap_or(0));
    let rate = |ours: u64, paper: u64, bound: bool| Quantity::Rate {
        x: ours,
        n: x.runs,
        paper,
        paper_n: m,
        bound,
    };
    let mean = |sample: &[f64], n: Option<u64>, per_run: f64| {
        let o = summarize(sample)?;
        let (avg, sd) = (r.average?, r.sd?);
        Some(Quantity::Mean {
            ours: (o.mean, o.sd, o.n as u64),
            paper: (avg, sd, n?),
            per_run,
        })
    };
    (tests.into_iter())
        .filter_map(|test| {
            let q = match test.cell.rsplit_once('/').map_or("", |c| c.1) {
                "count" => Some(rate(x.solved, s, false)),
                "solved_by_max" => Some(rate(x.by_max, s, false)),
                "solved_by_median" => Some(rate(x.by_median, s.div_ceil(2), false)),
                "solved_by_cap" => Some(rate(x.by_cap, t.by_cap_bound.unwrap_or(0), true)),
                "average" => mean(&x.generations, r.count, x.solved as f64 / x.runs as f64),
                "mean" => mean(&x.values, r.runs, 1.0),
                _ => None,
            };
            q.map(|q| (test, q))
        })
        .collect()
}

/// What a cell's test and equivalence give before its state.
struct Partial {
    detectable: (Option<f64>, Option<f64>),
    interval: Option<(f64, f64)>,
    /// The equivalence test's answer (None: a bound, or it could not be computed).
    within: Option<bool>,
    /// The runs the equivalence would need (computed only when asked).
    runs: Option<u64>,
}

/// One cell's detectable departure, interval and state.
/// `test` with its p-value as computed and `p`, that p-value Holm-adjusted over the
/// reading's cells (what *contradicted* is judged on).
fn cell((test, p): (Test, f64), q: Quantity, level: f64, race: &Race, margins: Margins) -> Cell {
    let p_raw = test.p;
    let test = Test { p, ..test };
    let differs = test.p <= COMPARE_LEVEL;
    let bound = matches!(q, Quantity::Rate { bound: true, .. });
    let undecided = |within: Option<bool>| !differs && within != Some(true);
    let part = match q {
        Quantity::Rate {
            x,
            n,
            paper,
            paper_n,
            bound,
        } => rate_cell(
            (x, n, paper, paper_n, bound),
            (level, race.alpha),
            margins.success,
            &undecided,
        ),
        Quantity::Mean {
            ours,
            paper,
            per_run,
        } => {
            let test = match race.procedure {
                Procedure::V1 => MeanTest::Welch,
                Procedure::V2 | Procedure::V3 => MeanTest::Guarded,
            };
            mean_cell(
                (ours, paper, per_run),
                (test, level, race.alpha),
                margins.mean,
                &undecided,
            )
        }
    };
    let state = match (differs, bound, part.within) {
        (true, _, _) => State::Differs,
        (false, true, _) => State::Bound,
        (false, false, Some(true)) => State::Within,
        (false, false, _) => State::Undecided,
    };
    Cell {
        cell: test.cell,
        quantity: q,
        p_raw,
        p: test.p,
        level,
        detectable: part.detectable,
        interval: part.interval,
        state,
        runs_needed: part.runs.filter(|_| state == State::Undecided),
    }
}

/// A proportion cell: Fisher's detectable rates, the Clopper-Pearson interval, the exact
/// TOST and the runs it needs.
fn rate_cell(
    (x, n, paper, paper_n, bound): (u64, u64, u64, u64, bool),
    (level, alpha): (f64, f64),
    margin: f64,
    undecided: &dyn Fn(Option<bool>) -> bool,
) -> Partial {
    let sides = if bound { Sides::Less } else { Sides::Two };
    let d = fisher_detectable(n, paper, paper_n, level, POWER, sides).ok();
    let p0 = paper as f64 / paper_n as f64;
    let e = match bound {
        true => None,
        false => rate_equivalence(x, n, p0, margin, alpha).ok(),
    };
    let within = e.map(|e| e.within);
    let runs = match !bound && undecided(within) {
        true => rate_equivalence_runs(x as f64 / n as f64, p0, margin, alpha, POWER, MOST_RUNS)
            .ok()
            .flatten(),
        false => None,
    };
    Partial {
        detectable: d.map_or((None, None), |d| (d.lower, d.upper)),
        interval: e
            .map(|e| e.interval)
            .or_else(|| clopper_pearson(x, n, 1.0 - 2.0 * alpha).ok()),
        within,
        runs,
    }
}

type MeanSides = ((f64, f64, u64), (f64, f64, u64), f64);

/// A mean cell: the detectable difference of the race's mean test as means below and above
/// the published one (none below 0), the guarded t interval, the TOST and the runs it needs
/// (its observations over our observations per run).
fn mean_cell(
    (ours, paper, per_run): MeanSides,
    (test, level, alpha): (MeanTest, f64, f64),
    margin: f64,
    undecided: &dyn Fn(Option<bool>) -> bool,
) -> Partial {
    let d = mean_detectable(
        test, ours.1, ours.2, paper.0, paper.1, paper.2, level, POWER,
    )
    .ok();
    let e = mean_equivalence(ours.0, ours.1, ours.2, (paper.0, paper.1), margin, alpha).ok();
    let within = e.map(|e| e.within);
    let runs = match undecided(within) && per_run > 0.0 {
        true => mean_equivalence_runs(
            (ours.0, ours.1.max(paper.1)),
            paper.0,
            margin,
            alpha,
            POWER,
            MOST_RUNS,
        )
        .ok()
        .flatten()
        .map(|k| (k as f64 / per_run).ceil() as u64),
        false => None,
    };
    Partial {
        detectable: match d {
            Some(d) => ((paper.0 >= d).then_some(paper.0 - d), Some(paper.0 + d)),
            None => (None, None),
        },
        interval: e.map(|e| e.interval),
        within,
        runs,
    }
}

/// A survivor's verdict from its cells.
fn verdict(reading: usize, cells: Vec<Cell>) -> Reading {
    let any = |s: State| cells.iter().any(|c| c.state == s);
    let verdict = if any(State::Differs) {
        Verdict::Contradicted
    } else if any(State::Undecided) || !any(State::Within) {
        Verdict::Undecided
    } else {
        Verdict::Within
    };
    let undecided: Vec<&Cell> = cells
        .iter()
        .filter(|c| c.state == State::Undecided)
        .collect();
    let runs_needed = match verdict {
        Verdict::Undecided if !undecided.is_empty() => undecided
            .iter()
            .map(|c| c.runs_needed)
            .try_fold(0u64, |m, r| r.map(|r| m.max(r))),
        _ => None,
    };
    Reading {
        reading,
        verdict,
        cells,
        runs_needed,
    }
}

/// The header of power.csv.
pub const POWER_HEADER: &str = "reading,cell,kind,published,ours,n,p,p_holm,level,detectable_below,detectable_above,detectable_relative,interval_low,interval_high,state,runs_needed";

/// The header of verdicts.csv.
pub const VERDICTS_HEADER: &str =
    "reading,verdict,cells,within,differs,undecided,runs_needed,differing";

/// A field of CSV: quoted when it holds a comma or a quote.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn opt(x: Option<f64>) -> String {
    x.map_or(String::new(), |x| format!("{x:.6}"))
}

/// power.csv: one row per survivor and cell (the reading's id by `id`).
pub fn write_power(path: &Path, verdicts: &[Reading], id: &dyn Fn(usize) -> String) -> Result<()> {
    write_atomic_with(path, |out| {
        writeln!(out, "{POWER_HEADER}")?;
        for v in verdicts {
            for c in &v.cells {
                let (published, ours) = c.quantity.values();
                let (kind, n, relative) = match c.quantity {
                    Quantity::Rate { n, bound, .. } => {
                        (if bound { "bound" } else { "rate" }, n, None)
                    }
                    Quantity::Mean { ours, .. } => {
                        ("mean", ours.2, c.detectable.1.map(|d| d / published - 1.0))
                    }
                };
                writeln!(
                    out,
                    "{},{},{kind},{published:.6},{ours:.6},{n},{:.3e},{:.3e},{:.3e},{},{},{},{},{},{},{}",
                    id(v.reading),
                    field(&c.cell),
                    c.p_raw,
                    c.p,
                    c.level,
                    opt(c.detectable.0),
                    opt(c.detectable.1),
                    opt(relative.filter(|r| r.is_finite())),
                    opt(c.interval.map(|i| i.0)),
                    opt(c.interval.map(|i| i.1)),
                    c.state.name(),
                    c.runs_needed.map_or(String::new(), |r| r.to_string()),
                )?;
            }
        }
        Ok(())
    })
}

/// verdicts.csv: one row per survivor: its verdict, its cells by state, the runs per row an
/// undecided one needs, the cells that differ.
pub fn write_verdicts(
    path: &Path,
    verdicts: &[Reading],
    id: &dyn Fn(usize) -> String,
) -> Result<()> {
    write_atomic_with(path, |out| {
        writeln!(out, "{VERDICTS_HEADER}")?;
        for v in verdicts {
            let count = |s: State| v.cells.iter().filter(|c| c.state == s).count();
            let differing: Vec<&str> = (v.cells.iter())
                .filter(|c| c.state == State::Differs)
                .map(|c| c.cell.as_str())
                .collect();
            writeln!(
                out,
                "{},{},{},{},{},{},{},{}",
                id(v.reading),
                v.verdict.name(),
                v.cells.len(),
                count(State::Within),
                count(State::Differs),
                count(State::Undecided),
                v.runs_needed.map_or(String::new(), |r| r.to_string()),
                field(&differing.join(" ")),
            )?;
        }
        Ok(())
    })
}

/// The survivors by verdict (within margins, contradicted, undecided) from a race folder's
/// verdicts.csv; None when the folder has none (a race written before verdicts). Hostile: a
/// symlink, another header or a row with another verdict or length is refused, naming the
/// file and line.
pub fn counts(dir: &Path) -> Result<Option<[usize; 3]>> {
    let path = dir.join("verdicts.csv");
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    check_regular(&path)?;
    let text = crate::spec::read_spec(&path)?;
    let mut lines = text.lines();
    if lines.next() != Some(VERDICTS_HEADER) {
        bail!("{}:1: not the header of verdicts.csv", path.display());
    }
    let mut out = [0; 3];
    for (i, line) in lines.enumerate() {
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_bytes());
        let rec = (rdr.records().next())
            .and_then(|r| r.ok())
            .filter(|r| r.len() == VERDICTS_HEADER.split(',').count())
            .with_context(|| format!("{}:{}: not a row of verdicts.csv", path.display(), i + 2))?;
        let k = (Verdict::ALL.iter())
            .position(|v| v.name() == &rec[1])
            .with_context(|| {
                format!(
                    "{}:{}: verdict '{}' is not one of within margins, contradicted, undecided",
                    path.display(),
                    i + 2,
                    rec[1].escape_debug()
                )
            })?;
        out[k] += 1;
    }
    Ok(Some(out))
}

/// The counts in words: "2 within margins, 0 contradicted, 4 undecided".
pub fn counts_text(c: [usize; 3]) -> String {
    (Verdict::ALL.iter().zip(c))
        .map(|(v, n)| format!("{n} {}", v.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The survivors detailed in report.md (the others in power.csv and verdicts.csv).
const DETAILED: usize = 10;

/// report.md's section "Survivors: power and verdicts": what the verdicts mean, the count of
/// each, and a table per survivor (at most [`DETAILED`], in `order`, best fit first).
pub fn section(
    verdicts: &[Reading],
    order: &[usize],
    id: &dyn Fn(usize) -> String,
    margins: Margins,
    race: &Race,
) -> String {
    if verdicts.is_empty() {
        return String::new();
    }
    let mut c = [0; 3];
    for v in verdicts {
        c[Verdict::ALL
            .iter()
            .position(|x| *x == v.verdict)
            .unwrap_or(2)] += 1;
    }
    let flags = match margins.is_default() {
        true => " (the defaults; `--margin-success`, `--margin-mean` set others)".to_string(),
        false => " (set by `--margin-success` and `--margin-mean`)".to_string(),
    };
    let mut s = format!(
        "## Survivors: power and verdicts\n\n\
        Survival says no cell rejected a reading at the race's multiplicity-adjusted level; this section says how far a survivor could be from the table and still survive, and whether its runs place it within margins of the table. Survivors: {}.\n\n\
        - *Detectable at 80 %*: the true value of our quantity that the cell's own test, at the level one cell had at the final look ({}), would detect with 80 % power given the survivor's runs. Rates: an exact sum over the binomial of our count, the paper's count fixed (Fisher's test, as raced). Means (of the generations of successful runs, or a counter's mean over every run): the difference of means the race's mean test detects, our SD taken as the test's (the larger of ours and the published one under the guarded test) and our mean as normal, given as a share of the published mean. These are conditional on the table: the published count and mean are taken as fixed (the table is what we compare with); a mean's figure in brackets also counts the published mean's own sampling error, which makes the detectable departure larger.\n\
        - *Verdict*: **contradicted** when some cell's p-value, Holm-adjusted over the reading's cells, is at most {COMPARE_LEVEL} (the level and correction of the compare reports: a reading that truly follows the paper is contradicted with probability at most {COMPARE_LEVEL}), though the race, adjusted over its rounds and readings' cells, kept it; else **within margins** when every cell with a published value lies within its margin by two one-sided tests at alpha = {} (the {:.0} % interval inside the margin: Clopper-Pearson for rates, the t interval with the larger of the two SDs for means, never below 0); else **undecided**, with the runs per row at which every undecided cell would be declared within its margin with 80 % probability if the truth were our estimate (none when an estimate lies outside its margin). Margins: {} points of success rate, {} % of the mean{flags}. A reading within the margins that differs at {COMPARE_LEVEL} is contradicted.\n\
        - Unsolved runs are failures in every rate cell; the mean cell is the mean of the successful runs' generations, as the race tests it, so an unsolved run counts in the success rate, not in the mean. The cell of the mean cap compares with a lower bound (Markov), not a published value: it can contradict, and is otherwise marked *bound kept*.\n\n",
        counts_text(c),
        level_words(race),
        race.alpha,
        100.0 * (1.0 - 2.0 * race.alpha),
        100.0 * margins.success,
        100.0 * margins.mean,
    );
    let shown: Vec<&Reading> = (order.iter())
        .filter_map(|&r| verdicts.iter().find(|v| v.reading == r))
        .take(DETAILED)
        .collect();
    s += &undetected_text(verdicts);
    let guarded = race.procedure.spends_alpha();
    for v in &shown {
        s += &reading_table(v, &id(v.reading), guarded);
    }
    if verdicts.len() > shown.len() {
        s += &format!(
            "({} more survivors in power.csv and verdicts.csv.)\n\n",
            verdicts.len() - shown.len()
        );
    }
    s
}

/// The level of one cell at the final look, in words.
fn level_words(race: &Race) -> String {
    match race.procedure {
        Procedure::V1 => format!(
            "v1: alpha / L = {:.2e}, divided by the look's number of cells, the first step of Holm's adjustment",
            race.threshold()
        ),
        Procedure::V2 | Procedure::V3 => format!(
            "{}: the last round's alpha over the cells, {:.2e}",
            race.procedure.name(),
            final_level(race, 1)
        ),
    }
}

/// In plain words, what the race's last look could not detect in its survivors (80 % power,
/// the published values fixed): the range over the survivors' cells of the largest departure
/// of a mean (as a share of the published one) and of a rate (in points) that the cell's own
/// test misses. Empty without such cells.
pub fn undetected_text(verdicts: &[Reading]) -> String {
    let (mut means, mut rates) = (Vec::new(), Vec::new());
    for c in verdicts.iter().flat_map(|v| &v.cells) {
        let (published, _) = c.quantity.values();
        match c.quantity {
            Quantity::Mean { .. } if published > 0.0 => {
                if let Some(hi) = c.detectable.1 {
                    means.push(100.0 * (hi / published - 1.0));
                }
            }
            Quantity::Rate { bound: false, .. } => {
                let below = c.detectable.0.map(|lo| published - lo);
                let above = c.detectable.1.map(|hi| hi - published);
                if let Some(d) = below.into_iter().chain(above).reduce(f64::max) {
                    rates.push(100.0 * d);
                }
            }
            _ => {}
        }
    }
    let range = |v: &[f64], unit: &str| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        match (lo.round() - hi.round()).abs() < 0.5 {
            true => format!("{lo:.0}{unit}"),
            false => format!("{lo:.0} to {hi:.0}{unit}"),
        }
    };
    let mut parts = Vec::new();
    if !means.is_empty() {
        parts.push(format!(
            "a mean up to {} off the published one",
            range(&means, " %")
        ));
    }
    if !rates.is_empty() {
        parts.push(format!(
            "a success rate up to {} off",
            range(&rates, " points")
        ));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "**What the last look could not see.** At the race's last look the survivors' own cell tests would miss, four times in five, {} (the range over the survivors' cells, the published values taken as fixed): a survivor may lie that far from the table.\n\n",
        parts.join(", or ")
    )
}

/// The detectable difference of means counting the published mean's own sampling error:
/// the conditional one ([`lab_stats::mean_detectable`], whose power term treats the published
/// mean as fixed, `z s / sqrt(n1)`) with that term replaced by `z se`, se the test's standard
/// error of the difference (both sides' errors). `guarded`: the guarded test's SD (the larger
/// of the two), else Welch's.
pub fn unconditional_detectable(
    fixed: f64,
    ours: (f64, f64, u64),
    paper: (f64, f64, u64),
    guarded: bool,
) -> f64 {
    let (n1, n2) = (ours.2.max(1) as f64, paper.2.max(1) as f64);
    let (se, own) = match guarded {
        true => {
            let s = ours.1.max(paper.1);
            (s * (1.0 / n1 + 1.0 / n2).sqrt(), s / n1.sqrt())
        }
        false => (
            (ours.1 * ours.1 / n1 + paper.1 * paper.1 / n2).sqrt(),
            ours.1 / n1.sqrt(),
        ),
    };
    fixed + lab_stats::normal_quantile(POWER) * (se - own)
}

/// One survivor's table: cell, published, ours, detectable at 80 %, interval, verdict.
fn reading_table(v: &Reading, id: &str, guarded: bool) -> String {
    let runs = match (v.verdict, v.runs_needed) {
        (Verdict::Undecided, Some(n)) => format!(" (decidable at about {n} runs per row)"),
        (Verdict::Undecided, None) => " (no run count decides it: some estimate lies outside its margin, or no cell has a published value)".to_string(),
        _ => String::new(),
    };
    let mut s = format!(
        "### {id}: {}{runs}\n\n| cell | published | ours | detectable at 80 % | interval | verdict |\n|---|---|---|---|---|---|\n",
        v.verdict.name()
    );
    for c in &v.cells {
        let (published, ours) = c.quantity.values();
        let (p_text, o_text, d_text, i_text) = match c.quantity {
            Quantity::Rate {
                x,
                n,
                paper,
                paper_n,
                bound,
            } => (
                format!("{}{paper}/{paper_n}", if bound { "at least " } else { "" }),
                format!("{x}/{n}"),
                rate_detectable(c.detectable),
                c.interval.map_or("-".into(), |i| {
                    format!("{:.1} to {:.1} %", 100.0 * i.0, 100.0 * i.1)
                }),
            ),
            Quantity::Mean {
                ours: o, paper: q, ..
            } => (
                format!("{published:.1}"),
                format!("{ours:.1} (n = {})", o.2),
                match c.detectable.1.filter(|_| published > 0.0) {
                    Some(d) => {
                        let u = unconditional_detectable(d - published, o, q, guarded);
                        format!(
                            "{:.0} % off ({:.0} % counting the published mean's error)",
                            100.0 * (d / published - 1.0),
                            100.0 * u / published
                        )
                    }
                    None => "-".into(),
                },
                c.interval
                    .map_or("-".into(), |i| format!("{:.1} to {:.1}", i.0, i.1)),
            ),
        };
        let state = match (c.state, c.runs_needed) {
            (State::Differs, _) => format!("differs (Holm p = {:.3})", c.p),
            (State::Undecided, Some(n)) => format!("undecided (about {n} runs)"),
            (st, _) => st.name().to_string(),
        };
        s += &format!(
            "| {} | {p_text} | {o_text} | {d_text} | {i_text} | {state} |\n",
            super::md::text(&c.cell)
        );
    }
    s + "\n"
}

/// Detectable rates in words: "below 52.3 % or above 84.0 %".
fn rate_detectable((lo, hi): (Option<f64>, Option<f64>)) -> String {
    let below = lo.map(|l| format!("below {:.1} %", 100.0 * l));
    let above = hi.map(|h| format!("above {:.1} %", 100.0 * h));
    match (below, above) {
        (Some(b), Some(a)) => format!("{b} or {a}"),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => "none at 80 %".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::calibration::{draw, Dist};
    use crate::readings::cells::Caps;
    use crate::readings::store::Record;
    use rand::Rng as _;
    use sudoku_core::rng_from_seed;

    const FULL: u64 = 100_000;

    /// A published row of `runs` runs, `count` successes, mean and SD of their generations.
    fn target(runs: u64, count: u64, mean: f64, sd: f64) -> Target {
        let text =
            format!("level,algorithm,runs,count,average,sd\neasy,X,{runs},{count},{mean},{sd}\n");
        let row = crate::reports::groups::parse_published(&text, "p")
            .unwrap()
            .remove(0);
        Target::new(0, &row, Caps::default(), FULL).unwrap()
    }

    /// The verdict of one survivor whose runs are `outcomes` (generations of each run, None:
    /// unsolved), raced under `procedure` in rounds of 5 and all the runs.
    fn judged(t: &Target, outcomes: &[Option<u64>], procedure: Procedure) -> Reading {
        let records = (outcomes.iter().enumerate()).map(|(run, g)| Record {
            reading: 0,
            puzzle: 0,
            run: run as u64,
            cap: FULL,
            seed: 0,
            solved: g.is_some(),
            generations: g.unwrap_or(FULL),
            evaluations: 0,
            counter: None,
        });
        let store = Store::memory(FULL, records);
        let n = outcomes.len() as u64;
        let (runs, rounds) = (vec![n], vec![5.min(n), n]);
        let targets = std::slice::from_ref(t);
        let race = Race {
            protocol: None,
            readings: 1,
            runs: &runs,
            targets,
            rounds: &rounds[usize::from(n <= 5)..],
            full: FULL,
            alpha: 0.05,
            threads: 1,
            entries: 1,
            curtail: false,
            procedure,
            verbose: false,
        };
        judge(&race, &store, &[Fate::default()], Margins::DEFAULT).remove(0)
    }

    /// `solved` of `runs` solved, their generations spread evenly about `mean` (SD about
    /// `mean / 2`).
    fn runs(runs: usize, solved: usize, mean: f64) -> Vec<Option<u64>> {
        (0..runs)
            .map(|i| {
                let spread = (i % 5) as f64 - 2.0;
                (i < solved).then(|| (mean * (1.0 + 0.35 * spread)).round() as u64)
            })
            .collect()
    }

    /// On the table with the protocol's runs: within margins. A success count the table
    /// contradicts at 0.05, Holm over its cells (not at the race's level): contradicted. Few runs: undecided, with
    /// the runs that would decide it. An estimate outside its margin but not different at
    /// 0.05: undecided, and no run count decides it.
    #[test]
    fn the_three_verdicts() {
        let t = target(100, 90, 500.0, 250.0);
        for procedure in [Procedure::V1, Procedure::V2] {
            let v = judged(&t, &runs(100, 90, 500.0), procedure);
            assert_eq!(v.verdict, Verdict::Within, "{v:#?}");
            assert_eq!(v.cells.len(), 2);
            let v = judged(&t, &runs(100, 77, 500.0), procedure);
            assert_eq!(v.verdict, Verdict::Contradicted, "{v:#?}");
            assert_eq!(v.cells[0].state, State::Differs);
            assert!(v.cells[0].p <= COMPARE_LEVEL && v.cells[0].p > v.cells[0].level);
            let v = judged(&t, &runs(10, 9, 500.0), procedure);
            assert_eq!(v.verdict, Verdict::Undecided, "{v:#?}");
            let need = v.runs_needed.expect("decidable");
            assert!(need > 10 && need < 1000, "{need}");
            let v = judged(&t, &runs(10, 7, 500.0), procedure);
            assert_eq!(v.verdict, Verdict::Undecided, "{v:#?}");
            assert!(v.cells[0].p > COMPARE_LEVEL);
            assert_eq!(v.runs_needed, None);
        }
    }

    /// The detectable departures shrink with the runs, and the reported rates are those at
    /// which the race's own test reaches 80 % power at the final look's level.
    #[test]
    fn detectable_departures_follow_the_runs() {
        let t = target(100, 90, 500.0, 250.0);
        let few = judged(&t, &runs(20, 18, 500.0), Procedure::V2);
        let many = judged(&t, &runs(100, 90, 500.0), Procedure::V2);
        let below = |v: &Reading| v.cells[0].detectable.0.unwrap();
        assert!(below(&few) < below(&many), "{few:#?} {many:#?}");
        let mean = |v: &Reading| v.cells[1].detectable.1.unwrap();
        assert!(mean(&few) > mean(&many));
        let c = &many.cells[0];
        let d = lab_stats::fisher_detectable(100, 90, 100, c.level, POWER, Sides::Two).unwrap();
        assert_eq!(c.detectable, (d.lower, d.upper));
        // v2's level at the final look: the last round's alpha over the 2 cells.
        let spent = lab_stats::round_alphas(lab_stats::Spending::Pocock, 0.05, &[5.0, 100.0]);
        assert!(
            (c.level - spent.unwrap()[1] / 2.0).abs() < 1e-15,
            "{}",
            c.level
        );
    }

    /// Unsolved runs count as failures in the success rate and stay out of the mean.
    #[test]
    fn unsolved_runs_are_failures_not_means() {
        let t = target(100, 50, 500.0, 250.0);
        let v = judged(&t, &runs(100, 50, 500.0), Procedure::V2);
        let Quantity::Rate { x, n, .. } = v.cells[0].quantity else {
            panic!("{v:#?}")
        };
        assert_eq!((x, n), (50, 100));
        let Quantity::Mean { ours, per_run, .. } = v.cells[1].quantity else {
            panic!("{v:#?}")
        };
        assert_eq!((ours.0, ours.2, per_run), (500.0, 50, 0.5));
    }

    /// The size of "within margins" (simulation, reduced replicates, fixed seed): when the
    /// truth sits on a margin, a survivor is declared within margins in at most alpha of the
    /// draws, up to three Monte-Carlo standard errors of a rate alpha over the replicates
    /// (0.05 + 3 x 0.0098 with 500). Two cases: the success rate on its margin (0.80 against
    /// a published 0.90) with the mean on the table, and the mean on its margin (1.25 times
    /// the published mean, lognormal generations with the published SD, skewed as the
    /// papers' are) with the rate on the table. The rate's size is also exact (lab-stats).
    #[test]
    fn within_margins_keeps_its_size_on_the_margin() {
        let t = target(100, 90, 500.0, 250.0);
        let reps = 500;
        let bound = 0.05 + 3.0 * (0.05f64 * 0.95 / reps as f64).sqrt();
        for (rate, mean) in [(0.80, 500.0), (0.90, 625.0)] {
            let mut rng = rng_from_seed(20261127);
            let mut within = 0;
            for _ in 0..reps {
                let outcomes: Vec<Option<u64>> = (0..100)
                    .map(|_| {
                        let solved = rng.random::<f64>() < rate;
                        let g = draw(Dist::LogNormal, mean, 250.0 / 500.0, &mut rng);
                        solved.then(|| g.round().max(1.0) as u64)
                    })
                    .collect();
                let v = judged(&t, &outcomes, Procedure::V2);
                within += usize::from(v.verdict == Verdict::Within);
            }
            let share = within as f64 / reps as f64;
            assert!(
                share <= bound,
                "rate {rate}, mean {mean}: {share} > {bound}"
            );
        }
    }

    /// verdicts.csv is read as hostile: counted when well formed, absent gives None, and a
    /// wrong header, an unknown verdict, a short row or a symlink is refused naming the file
    /// (and the line).
    #[test]
    fn verdict_files_are_counted_or_refused() {
        let dir = std::env::temp_dir().join(format!("verdicts-counts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("verdicts.csv");
        assert_eq!(counts(&dir).unwrap(), None);
        let good = format!(
            "{VERDICTS_HEADER}\nr1,undecided,2,1,0,1,40,\nr2,contradicted,2,1,1,0,,\"a/count\"\nr3,within margins,2,2,0,0,,\n"
        );
        std::fs::write(&path, good).unwrap();
        assert_eq!(counts(&dir).unwrap(), Some([1, 1, 1]));
        for (text, want) in [
            ("reading,verdict\n".to_string(), ":1: not the header"),
            (
                format!("{VERDICTS_HEADER}\nr1,rm -rf,2,1,0,1,,\n"),
                ":2: verdict 'rm -rf'",
            ),
            (
                format!("{VERDICTS_HEADER}\nr1,undecided\n"),
                ":2: not a row",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let e = counts(&dir).unwrap_err().to_string();
            assert!(e.contains("verdicts.csv") && e.contains(want), "{e}");
        }
        std::fs::remove_file(&path).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/passwd", &path).unwrap();
            assert!(counts(&dir).is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! `report = "levels"`: per-puzzle results by difficulty level against published per-puzzle
//! tables (Ret-GA journal Tables 2-4: 25 puzzles per level, 100 runs each).
//!
//! The published puzzles are not ours (the paper's grids were never published; we run
//! substitutes with the same given counts), so puzzle k of ours is not the paper's problem k and
//! nothing is compared puzzle by puzzle. Per algorithm and level, the distributions over the
//! puzzles are compared instead: the per-puzzle success rates (all puzzles), and the per-puzzle
//! average generations of the successful runs (each side's puzzles with at least one success),
//! by the two-sided Mann-Whitney U test, with the Vargha-Delaney A12 = U / (n_a n_b) (the
//! probability that a value of the first sample exceeds one of the second, ties counting one
//! half). The paper's claim that success falls and the average rises from level to level is
//! tested the same way between adjacent levels (in the order the levels first appear among the
//! spec's puzzles), on the paper's values and on ours separately. Every p-value of `levels.csv`
//! is Holm-adjusted together.
//!
//! Outputs: `levels.csv` (one row per test), `per-puzzle.csv`, `levels.png/.svg` (strip plots),
//! and report.md.

use crate::protocol::io::write_atomic_with;
use crate::reports::groups::Group;
use crate::spec::{Loaded, Spec};
use anyhow::{bail, Context, Result};
use lab_stats::{holm_adjust, mann_whitney_u, summarize, wilson_interval, StatsError};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// Runs per puzzle of a published table without a `runs` column (Das et al., section 4.2.2:
/// every puzzle was run 100 times).
pub const DEFAULT_PAPER_RUNS: u64 = 100;

/// z of the two-sided 95 % interval.
const Z95: f64 = 1.959_964;

/// Significance level of the verdicts (on Holm-adjusted p-values).
const ALPHA: f64 = 0.05;

/// One row of a published per-puzzle table.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    problem: String,
    #[serde(default)]
    givens: Option<usize>,
    #[serde(default)]
    runs: Option<u64>,
    success: u64,
    #[serde(default)]
    minimum: Option<f64>,
    #[serde(default)]
    maximum: Option<f64>,
    #[serde(default)]
    average: Option<f64>,
    #[serde(default)]
    median: Option<f64>,
    #[serde(default)]
    sd: Option<f64>,
}

/// One puzzle's values, published or ours.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleValue {
    /// The paper's problem number, or our puzzle id.
    pub id: String,
    pub successes: u64,
    pub runs: u64,
    /// Mean and median generations of the successful runs (none without a success).
    pub average: Option<f64>,
    pub median: Option<f64>,
}

impl PuzzleValue {
    pub fn rate(&self) -> f64 {
        self.successes as f64 / self.runs.max(1) as f64
    }

    fn from_group(id: &str, g: &Group) -> PuzzleValue {
        let s = g.generations();
        PuzzleValue {
            id: id.to_string(),
            successes: g.successes,
            runs: g.runs,
            average: s.map(|s| s.mean),
            median: s.map(|s| s.median),
        }
    }
}

/// A level's published table.
#[derive(Debug, Clone)]
pub struct PublishedLevel {
    /// The puzzle label of the level (e.g. "Easy").
    pub label: String,
    /// The file, as named in the spec.
    pub file: String,
    pub puzzles: Vec<PuzzleValue>,
}

/// Parse a published per-puzzle table; errors name `name` and the line.
pub fn parse_table(text: &str, name: &str) -> Result<Vec<PuzzleValue>> {
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let headers = rdr
        .headers()
        .map_err(|e| anyhow::anyhow!("{name}: cannot read the header: {e}"))?
        .clone();
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            anyhow::anyhow!("{name}:{line}: {}", one_line(&e.to_string()))
        })?;
        let line = rec.position().map_or(0, |p| p.line());
        let row: Row = rec.deserialize(Some(&headers)).map_err(|e| {
            let msg = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => match err.field() {
                    Some(f) => format!(
                        "column '{}': {}",
                        headers.get(f as usize).unwrap_or("?"),
                        err.kind()
                    ),
                    None => err.kind().to_string(),
                },
                _ => e.to_string(),
            };
            anyhow::anyhow!("{name}:{line}: {}", one_line(&msg))
        })?;
        let runs = row.runs.unwrap_or(DEFAULT_PAPER_RUNS);
        if runs == 0 || row.success > runs {
            bail!(
                "{name}:{line}: success {} of {runs} runs is impossible",
                row.success
            );
        }
        match (row.success, row.average) {
            (0, Some(_)) => bail!("{name}:{line}: an average without a successful run"),
            (s, None) if s > 0 => bail!("{name}:{line}: {s} successes but no average"),
            (_, Some(a)) if !(a.is_finite() && a >= 0.0) => {
                bail!("{name}:{line}: average {a} is not a generation count")
            }
            _ => {}
        }
        // givens, minimum, maximum and sd are read (the columns are known) but not used.
        let _ = (row.givens, row.minimum, row.maximum, row.sd);
        out.push(PuzzleValue {
            id: row.problem,
            successes: row.success,
            runs,
            average: row.average,
            median: row.median,
        });
    }
    if out.is_empty() {
        bail!("{name}: no rows");
    }
    Ok(out)
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The levels of a spec in the order their labels first appear among its puzzles.
pub fn level_labels(spec: &Spec) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in &spec.puzzles {
        if !out.iter().any(|l| l == p.label()) {
            out.push(p.label().to_string());
        }
    }
    out
}

/// Read and check the published tables of a `report = "levels"` spec (None for other
/// reports): every file parses and has as many rows as its label has puzzles.
pub fn load(
    spec: &Spec,
    base: Option<&Path>,
    loaded: &Loaded,
) -> Result<Option<Vec<PublishedLevel>>> {
    let Some(files) = &spec.published_levels else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for label in level_labels(spec) {
        let file = files
            .get(&label)
            .with_context(|| format!("published_levels: puzzle label '{label}' has no file"))?;
        let text = crate::spec::paper_text(file, base)?;
        let puzzles = parse_table(&text, file)?;
        let ours = spec.puzzles.iter().filter(|p| p.label() == label).count();
        if ours != puzzles.len() {
            bail!(
                "published_levels: {file} has {} rows but label '{label}' has {ours} puzzles",
                puzzles.len()
            );
        }
        out.push(PublishedLevel {
            label,
            file: file.clone(),
            puzzles,
        });
    }
    if let Some(e) = loaded.entries.iter().find(|e| e.puzzles != 1) {
        bail!(
            "report \"levels\" needs one puzzle per entry: '{}' holds {}",
            e.id,
            e.puzzles
        );
    }
    Ok(Some(out))
}

/// What a test compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Per-puzzle success rate (every puzzle).
    SuccessRate,
    /// Per-puzzle average generations of the successful runs (puzzles with a success).
    Average,
}

impl Measure {
    fn name(self) -> &'static str {
        match self {
            Measure::SuccessRate => "success_rate",
            Measure::Average => "average_generations",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Measure::SuccessRate => "success rate",
            Measure::Average => "average generations",
        }
    }

    fn values(self, puzzles: &[PuzzleValue]) -> Vec<f64> {
        match self {
            Measure::SuccessRate => puzzles.iter().map(PuzzleValue::rate).collect(),
            Measure::Average => puzzles.iter().filter_map(|p| p.average).collect(),
        }
    }
}

/// Which question a test answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Ours (a) against the paper (b) on one level.
    OursVsPaper,
    /// The claim: the harder level (a) against the easier one (b), on one side's values.
    Claim,
}

/// A Mann-Whitney test, or why there is none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// U of sample a, A12 = U / (n_a n_b), two-sided p.
    Tested { u: f64, a12: f64, p: f64 },
    /// Every value of both samples is the same: no difference, no test.
    AllTied,
    /// A sample is empty (no puzzle with a success).
    Empty,
}

/// One row of levels.csv.
#[derive(Debug, Clone)]
pub struct Test {
    pub kind: Kind,
    /// "ours" or "paper" for claims, "ours vs paper" otherwise.
    pub values: String,
    /// Our algorithm's label (empty for the paper's claim).
    pub algorithm: String,
    /// The level (ours vs paper) or "" (claims).
    pub level: String,
    pub measure: Measure,
    /// Names of the two samples: "ours"/"paper", or the harder/easier level.
    pub a: String,
    pub b: String,
    pub xa: Vec<f64>,
    pub xb: Vec<f64>,
    /// Pooled successes and runs of each sample's puzzles.
    pub pooled_a: (u64, u64),
    pub pooled_b: (u64, u64),
    pub outcome: Outcome,
    /// Holm-adjusted p (over the whole file), once [`adjust`] ran.
    pub p_holm: Option<f64>,
}

/// Vargha and Delaney's A12 from the Mann-Whitney U of the first sample: the probability that
/// a value of the first sample exceeds one of the second, ties counting one half (A. Vargha,
/// H. D. Delaney, J. Educ. Behav. Stat. 25 (2000) 101-132).
pub fn a12(u: f64, na: usize, nb: usize) -> f64 {
    u / (na as f64 * nb as f64)
}

fn median(xs: &[f64]) -> Option<f64> {
    summarize(xs).map(|s| s.median)
}

fn pooled(puzzles: &[PuzzleValue]) -> (u64, u64) {
    puzzles
        .iter()
        .fold((0, 0), |(s, r), p| (s + p.successes, r + p.runs))
}

impl Test {
    fn new(
        kind: Kind,
        values: &str,
        algorithm: &str,
        level: &str,
        measure: Measure,
        (a, pa): (&str, &[PuzzleValue]),
        (b, pb): (&str, &[PuzzleValue]),
    ) -> Test {
        let (xa, xb) = (measure.values(pa), measure.values(pb));
        let outcome = match mann_whitney_u(&xa, &xb) {
            Ok(r) => Outcome::Tested {
                u: r.u,
                a12: a12(r.u, xa.len(), xb.len()),
                p: r.p_value,
            },
            Err(StatsError::ZeroVariance(_)) => Outcome::AllTied,
            Err(_) => Outcome::Empty,
        };
        Test {
            kind,
            values: values.into(),
            algorithm: algorithm.into(),
            level: level.into(),
            measure,
            a: a.into(),
            b: b.into(),
            xa,
            xb,
            pooled_a: pooled(pa),
            pooled_b: pooled(pb),
            outcome,
            p_holm: None,
        }
    }

    fn a12(&self) -> Option<f64> {
        match self.outcome {
            Outcome::Tested { a12, .. } => Some(a12),
            _ => None,
        }
    }

    /// Significant after Holm, and with a above b (true) or below (false).
    fn direction(&self) -> Option<bool> {
        match (self.outcome, self.p_holm) {
            (Outcome::Tested { a12, .. }, Some(q)) if q < ALPHA && a12 != 0.5 => Some(a12 > 0.5),
            _ => None,
        }
    }

    pub fn verdict(&self) -> String {
        let dir = self.direction();
        match (self.outcome, self.kind) {
            (Outcome::Empty, _) => "n/a (no puzzle with a success on one side)".into(),
            (Outcome::AllTied, _) => "no difference (all values equal)".into(),
            (_, Kind::OursVsPaper) => match dir {
                Some(true) => "differs (ours higher)".into(),
                Some(false) => "differs (ours lower)".into(),
                None => "no significant difference".into(),
            },
            (_, Kind::Claim) => {
                // Claimed: success falls (a below b), the average rises (a above b).
                let claimed = self.measure == Measure::Average;
                let word = if claimed { "rises" } else { "falls" };
                match dir {
                    Some(d) if d == claimed => format!("{word} as claimed"),
                    Some(_) => "opposite".into(),
                    None => "no significant difference".into(),
                }
            }
        }
    }
}

/// Holm over every tested p of `tests`.
pub fn adjust(tests: &mut [Test]) {
    let ps: Vec<f64> = tests
        .iter()
        .map(|t| match t.outcome {
            Outcome::Tested { p, .. } => p,
            _ => f64::NAN,
        })
        .collect();
    for (t, q) in tests.iter_mut().zip(holm_adjust(&ps)) {
        t.p_holm = (!q.is_nan()).then_some(q);
    }
}

/// The claim tests of one side's values: each level against the one before it, on success
/// rates and on averages. `levels`: (label, per-puzzle values) in order.
pub fn claims(values: &str, algorithm: &str, levels: &[(String, Vec<PuzzleValue>)]) -> Vec<Test> {
    let mut out = Vec::new();
    for w in levels.windows(2) {
        let (easier, harder) = (&w[0], &w[1]);
        for m in [Measure::SuccessRate, Measure::Average] {
            out.push(Test::new(
                Kind::Claim,
                values,
                algorithm,
                "",
                m,
                (&harder.0, &harder.1),
                (&easier.0, &easier.1),
            ));
        }
    }
    out
}

/// Our per-puzzle values of every level, `[algorithm][level]`.
fn ours(
    spec: &Spec,
    loaded: &Loaded,
    groups: &[Vec<Group>],
    levels: &[PublishedLevel],
) -> Vec<Vec<Vec<PuzzleValue>>> {
    (0..spec.algorithms.len())
        .map(|a| {
            levels
                .iter()
                .map(|l| {
                    loaded
                        .entries
                        .iter()
                        .enumerate()
                        .filter(|(e, _)| spec.puzzles[*e].label() == l.label)
                        .map(|(e, entry)| PuzzleValue::from_group(&entry.id, &groups[a][e]))
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Every test of the file, Holm-adjusted: ours vs paper per algorithm and level, then the
/// claim on the paper's values, then on each algorithm's.
pub fn all_tests(
    spec: &Spec,
    levels: &[PublishedLevel],
    ours: &[Vec<Vec<PuzzleValue>>],
) -> Vec<Test> {
    let mut tests = Vec::new();
    for (a, alg) in spec.algorithms.iter().enumerate() {
        for (l, level) in levels.iter().enumerate() {
            for m in [Measure::SuccessRate, Measure::Average] {
                tests.push(Test::new(
                    Kind::OursVsPaper,
                    "ours vs paper",
                    &alg.label,
                    &level.label,
                    m,
                    ("ours", &ours[a][l]),
                    ("paper", &level.puzzles),
                ));
            }
        }
    }
    let paper: Vec<(String, Vec<PuzzleValue>)> = levels
        .iter()
        .map(|l| (l.label.clone(), l.puzzles.clone()))
        .collect();
    tests.extend(claims("paper", "", &paper));
    for (a, alg) in spec.algorithms.iter().enumerate() {
        let side: Vec<(String, Vec<PuzzleValue>)> = levels
            .iter()
            .zip(&ours[a])
            .map(|(l, v)| (l.label.clone(), v.clone()))
            .collect();
        tests.extend(claims("ours", &alg.label, &side));
    }
    adjust(&mut tests);
    tests
}

fn num(x: Option<f64>, digits: usize) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.digits$}"),
        _ => String::new(),
    }
}

fn pval(p: Option<f64>) -> String {
    match p {
        Some(q) if q < 0.001 => "<0.001".into(),
        Some(q) => format!("{q:.3}"),
        None => "-".into(),
    }
}

fn write_levels_csv(spec: &Spec, tests: &[Test], out: &Path) -> Result<()> {
    write_atomic_with(&out.join("levels.csv"), |w| {
        writeln!(w, "experiment,test,values,algorithm,level,measure,a,b,n_a,n_b,median_a,median_b,successes_a,runs_a,success_ci_low_a,success_ci_high_a,successes_b,runs_b,success_ci_low_b,success_ci_high_b,u,a12,p,p_holm,verdict")?;
        for t in tests {
            let (u, a12, p) = match t.outcome {
                Outcome::Tested { u, a12, p } => (Some(u), Some(a12), Some(p)),
                _ => (None, None, None),
            };
            let (la, ha) = wilson_interval(t.pooled_a.0, t.pooled_a.1, Z95);
            let (lb, hb) = wilson_interval(t.pooled_b.0, t.pooled_b.1, Z95);
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                spec.id,
                match t.kind {
                    Kind::OursVsPaper => "ours-vs-paper",
                    Kind::Claim => "claim",
                },
                t.values,
                t.algorithm,
                t.level,
                t.measure.name(),
                t.a,
                t.b,
                t.xa.len(),
                t.xb.len(),
                num(median(&t.xa), 4),
                num(median(&t.xb), 4),
                t.pooled_a.0,
                t.pooled_a.1,
                num(Some(la), 4),
                num(Some(ha), 4),
                t.pooled_b.0,
                t.pooled_b.1,
                num(Some(lb), 4),
                num(Some(hb), 4),
                num(u, 1),
                num(a12, 4),
                p.map_or(String::new(), |p| format!("{p:.4e}")),
                t.p_holm.map_or(String::new(), |q| format!("{q:.4e}")),
                t.verdict(),
            )?;
        }
        Ok(())
    })
}

fn write_per_puzzle(
    spec: &Spec,
    levels: &[PublishedLevel],
    ours: &[Vec<Vec<PuzzleValue>>],
    out: &Path,
) -> Result<()> {
    write_atomic_with(&out.join("per-puzzle.csv"), |w| {
        writeln!(w, "experiment,algorithm,level,puzzle,paper_problem,paper_successes,paper_runs,ours_successes,ours_runs,paper_average,ours_average,paper_median,ours_median")?;
        for (a, alg) in spec.algorithms.iter().enumerate() {
            for (l, level) in levels.iter().enumerate() {
                // Side by side in order only: our puzzle k is not the paper's problem k.
                for (o, p) in ours[a][l].iter().zip(&level.puzzles) {
                    writeln!(
                        w,
                        "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                        spec.id,
                        alg.label,
                        level.label,
                        o.id,
                        p.id,
                        p.successes,
                        p.runs,
                        o.successes,
                        o.runs,
                        num(p.average, 2),
                        num(o.average, 2),
                        num(p.median, 1),
                        num(o.median, 1),
                    )?;
                }
            }
        }
        Ok(())
    })
}

/// Pooled success with its Wilson 95 % interval, e.g. "2500/2500 (99.8-100 %)".
fn pooled_cell((s, n): (u64, u64)) -> String {
    let (lo, hi) = wilson_interval(s, n, Z95);
    format!("{s}/{n} ({:.1}-{:.1} %)", 100.0 * lo, 100.0 * hi)
}

/// "median (min-max)" of per-puzzle values.
fn spread(xs: &[f64], scale: f64, digits: usize) -> String {
    match summarize(xs) {
        Some(s) => format!(
            "{:.digits$} ({:.digits$}-{:.digits$})",
            scale * s.median,
            scale * s.min,
            scale * s.max
        ),
        None => "-".into(),
    }
}

fn test_cell(t: &Test) -> String {
    match t.outcome {
        Outcome::Tested { a12, .. } => {
            format!("A12 {a12:.2}, p {} : {}", pval(t.p_holm), t.verdict())
        }
        _ => t.verdict(),
    }
}

/// levels.png/.svg: (a) per-puzzle success rate, (b) per-puzzle average generations, by level;
/// the paper and each algorithm side by side around each level, a bar at each group's median.
fn chart(
    spec: &Spec,
    levels: &[PublishedLevel],
    ours: &[Vec<Vec<PuzzleValue>>],
    out: &Path,
) -> Result<()> {
    use lab_charts::{LineChart, Marker, Series, XAxis};
    let mut sources: Vec<(String, Vec<&[PuzzleValue]>)> = vec![(
        "paper (Das et al.)".into(),
        levels.iter().map(|l| l.puzzles.as_slice()).collect(),
    )];
    for (a, alg) in spec.algorithms.iter().enumerate() {
        sources.push((
            format!("ours: {}", alg.label),
            ours[a].iter().map(Vec::as_slice).collect(),
        ));
    }
    let x_label = format!(
        "level; left to right: {}",
        sources
            .iter()
            .map(|s| s.0.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let k = sources.len() as f64;
    let width = 0.8 / k;
    let centre = |s: usize, l: usize| l as f64 + (s as f64 - (k - 1.0) / 2.0) * width;
    let gap = (f64::NAN, f64::NAN);
    let panel = |measure: Measure, title: &str, y_label: &str| {
        let value = |p: &PuzzleValue| match measure {
            Measure::SuccessRate => 100.0 * p.rate(),
            Measure::Average => p.average.unwrap_or(f64::NAN),
        };
        let mut series = Vec::new();
        let mut medians = Vec::new();
        for (s, (name, by_level)) in sources.iter().enumerate() {
            let mut points = Vec::new();
            // groups with a puzzle that has no value (no run solved it: no mean)
            let mut none = Vec::new();
            for (l, puzzles) in by_level.iter().enumerate() {
                if puzzles.iter().any(|p| !value(p).is_finite()) {
                    none.push(centre(s, l));
                }
                for (i, p) in puzzles.iter().enumerate() {
                    // Spread the points of a group over a strip (golden-ratio sequence).
                    let jitter = ((i as f64 + 0.5) * 0.618_034).fract() - 0.5;
                    points.push((centre(s, l) + 0.6 * width * jitter, value(p)));
                    points.push(gap);
                }
                let ys: Vec<f64> = puzzles
                    .iter()
                    .map(value)
                    .filter(|y| y.is_finite())
                    .collect();
                if let Some(m) = median(&ys) {
                    medians.push((centre(s, l) - 0.45 * width, m));
                    medians.push((centre(s, l) + 0.45 * width, m));
                    medians.push(gap);
                }
            }
            series.push(
                Series::new(name.clone(), points, Marker::nth(s))
                    .color(s)
                    .missing(none, "a puzzle no run solved (no mean)"),
            );
        }
        if medians.is_empty() {
            medians.push(gap);
        }
        series.push(Series {
            name: "median of each group".into(),
            points: medians,
            marker: Marker::Cross,
            ..Default::default()
        });
        let log_y = measure == Measure::Average
            && series
                .iter()
                .flat_map(|s| &s.points)
                .all(|p| !p.1.is_finite() || p.1 > 0.0)
            && series
                .iter()
                .flat_map(|s| &s.points)
                .any(|p| p.1.is_finite());
        LineChart {
            title: crate::reports::quick::title(title),
            x_label: x_label.clone(),
            y_label: y_label.into(),
            x: XAxis::Categories(levels.iter().map(|l| l.label.clone()).collect()),
            // Success rates: a margin below 0 and above 100 so that points there stay visible.
            y_min: match (measure, log_y) {
                (Measure::SuccessRate, _) => Some(-4.0),
                (_, true) => None,
                (_, false) => Some(0.0),
            },
            y_max: (measure == Measure::SuccessRate).then_some(104.0),
            log_y,
            log_x: false,
            series,
        }
    };
    let charts = [
        panel(
            Measure::SuccessRate,
            "(a) success rate per puzzle",
            "success rate (%)",
        ),
        panel(
            Measure::Average,
            "(b) average generations of successful runs per puzzle",
            "average generations (log)",
        ),
    ];
    let charts: Vec<LineChart> = charts
        .into_iter()
        .map(|mut c| {
            if !c.log_y {
                c.y_label = c.y_label.replace(" (log)", "");
            }
            c
        })
        .collect();
    lab_charts::render_panels(
        &charts,
        2,
        1400,
        520,
        &out.join("levels.svg"),
        &out.join("levels.png"),
    )
    .map_err(|e| anyhow::anyhow!("cannot draw levels: {e}"))
}

/// How the protocol was run, for report.md.
pub struct RunNote {
    pub runs: u64,
    /// `--quick`: the generation cap.
    pub quick_cap: Option<u64>,
    pub wall: f64,
    pub threads: usize,
}

/// levels.csv, per-puzzle.csv, levels.png/.svg; returns report.md.
pub fn report(
    spec: &Spec,
    loaded: &Loaded,
    groups: &[Vec<Group>],
    levels: &[PublishedLevel],
    out: &Path,
    note: &RunNote,
) -> Result<String> {
    let ours = ours(spec, loaded, groups, levels);
    let tests = all_tests(spec, levels, &ours);
    write_levels_csv(spec, &tests, out)?;
    write_per_puzzle(spec, levels, &ours, out)?;
    chart(spec, levels, &ours, out)?;
    let mut md = String::new();
    if let Some(cap) = note.quick_cap {
        let mut full: Vec<String> = spec
            .algorithms
            .iter()
            .map(|a| a.max_generations.to_string())
            .collect();
        full.dedup();
        let _ = writeln!(
            md,
            "**Quick run (`--quick`): {} runs per puzzle, at most {cap} generations per run. Not a result: the protocol is {} runs per puzzle and {} generations.**\n",
            note.runs,
            spec.runs,
            full.join(" / ")
        );
    }
    if note.quick_cap.is_none() && note.runs != spec.runs {
        let _ = writeln!(
            md,
            "**Reduced protocol (`--runs {}`): {} runs per puzzle where the protocol (and the paper) has {}; the title below names the full protocol. Per-puzzle success rates of ours are measured on {} runs, so they scatter more than the paper's.**\n",
            note.runs, note.runs, spec.runs, note.runs
        );
    }
    let _ = writeln!(md, "# {}\n", spec.title);
    let _ = writeln!(
        md,
        "Generated by `sudoku-lab reproduce {}` ({:.0} s wall on {} threads): {} runs per puzzle; published values: {}. Nothing is compared puzzle by puzzle, since our puzzles need not be the paper's (for the Ret-GA journal Tables 2-4 the paper's grids were never published and ours are substitutes): per level, the distributions over the puzzles are compared (levels.csv, per-puzzle.csv, levels.png).\n",
        spec.id,
        note.wall,
        note.threads,
        note.runs,
        if spec.paper.is_empty() {
            levels
                .iter()
                .map(|l| l.file.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            spec.paper.clone()
        }
    );
    md.push_str("## Per level: the paper against ours\n\n");
    md.push_str("| Level | Values | Puzzles | Pooled success (95 % CI) | Success rate per puzzle, %: median (min-max) | Puzzles with a success | Average generations per puzzle: median (min-max) | Success rates vs paper | Averages vs paper |\n|---|---|---|---|---|---|---|---|---|\n");
    let find = |alg: &str, level: &str, m: Measure| {
        tests.iter().find(|t| {
            t.kind == Kind::OursVsPaper && t.algorithm == alg && t.level == level && t.measure == m
        })
    };
    for (l, level) in levels.iter().enumerate() {
        let rows = std::iter::once((format!("paper ({})", level.file), &level.puzzles, None))
            .chain(spec.algorithms.iter().enumerate().map(|(a, alg)| {
                (
                    format!("ours: {}", alg.label),
                    &ours[a][l],
                    Some(&alg.label),
                )
            }));
        for (name, puzzles, alg) in rows {
            let rates = Measure::SuccessRate.values(puzzles);
            let avgs = Measure::Average.values(puzzles);
            let cell = |m: Measure| {
                alg.and_then(|a| find(a, &level.label, m))
                    .map_or("".to_string(), test_cell)
            };
            let _ = writeln!(
                md,
                "| {} | {name} | {} | {} | {} | {} | {} | {} | {} |",
                level.label,
                puzzles.len(),
                pooled_cell(pooled(puzzles)),
                spread(&rates, 100.0, 0),
                avgs.len(),
                spread(&avgs, 1.0, 0),
                cell(Measure::SuccessRate),
                cell(Measure::Average),
            );
        }
    }
    md.push_str(
        "\n## The paper's claim: success falls and the average rises from level to level\n\n",
    );
    md.push_str("| Values | From -> to | Measure | Medians (from -> to) | A12 | p (Holm) | Verdict |\n|---|---|---|---|---|---|---|\n");
    for t in tests.iter().filter(|t| t.kind == Kind::Claim) {
        let who = if t.values == "paper" {
            "paper".to_string()
        } else {
            format!("ours: {}", t.algorithm)
        };
        let scale = if t.measure == Measure::SuccessRate {
            100.0
        } else {
            1.0
        };
        let unit = if t.measure == Measure::SuccessRate {
            " %"
        } else {
            ""
        };
        let med = |xs: &[f64]| median(xs).map_or("-".into(), |m| format!("{:.0}{unit}", scale * m));
        let _ = writeln!(
            md,
            "| {who} | {} -> {} | {} | {} -> {} | {} | {} | {} |",
            t.b,
            t.a,
            t.measure.describe(),
            med(&t.xb),
            med(&t.xa),
            t.a12().map_or("-".into(), |x| format!("{x:.2}")),
            pval(t.p_holm),
            t.verdict(),
        );
    }
    md.push_str("\n## How to read\n\n");
    md.push_str("Each level's puzzles are one sample of per-puzzle values: the success rate (successful runs / runs) of every puzzle, and the average generations of the successful runs of every puzzle with at least one success (a puzzle without one has no average and is left out of that sample). Two samples are compared by the two-sided Mann-Whitney U test (normal approximation with tie and continuity corrections); A12 = U / (n_a n_b) is the probability that a puzzle of the first sample (ours; the harder level in the claim table) has a higher value than one of the second, ties counting one half (0.5: no tendency). Every p-value of levels.csv is Holm-adjusted together; a verdict is significant at Holm p < 0.05, its direction by A12. 'No significant difference' is not evidence of agreement. 'No difference (all values equal)': every puzzle of both samples has the same value (e.g. every run of every puzzle solved), where no test applies. Pooled success is the sum of successes over the sum of runs of a level, with Wilson's 95 % interval. The paper's SDs are not used: in most rows of Table 4 they are impossible for the successful runs alone; its claim that the SD increases is therefore not tested. Per-puzzle values side by side: per-puzzle.csv (in order only: our puzzle k is not the paper's problem k).\n");
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(label: &str, rates: &[u64], averages: &[Option<f64>]) -> (String, Vec<PuzzleValue>) {
        (
            label.to_string(),
            rates
                .iter()
                .zip(averages)
                .enumerate()
                .map(|(i, (&s, &a))| PuzzleValue {
                    id: format!("{}", i + 1),
                    successes: s,
                    runs: 100,
                    average: a,
                    median: a,
                })
                .collect(),
        )
    }

    /// 25 puzzles: successes `s0 + i * step` (capped at 100), averages `a0 * (1 + i / 25)`.
    fn ramp(label: &str, s0: u64, step: u64, a0: f64) -> (String, Vec<PuzzleValue>) {
        let rates: Vec<u64> = (0..25).map(|i| (s0 + i * step).min(100)).collect();
        let avgs: Vec<Option<f64>> = rates
            .iter()
            .enumerate()
            .map(|(i, &s)| (s > 0).then_some(a0 * (1.0 + i as f64 / 25.0)))
            .collect();
        level(label, &rates, &avgs)
    }

    #[test]
    fn a12_is_the_textbook_value() {
        // R: effsize::VD.A(c(1,2,3,4,5), c(2,3,4,5,6)) gives A = 0.32. By hand: pairs x > y
        // 0+0+1+2+3 = 6, ties 4 (x = 2, 3, 4, 5), U = 6 + 4/2 = 8, A = 8/25.
        let (x, y) = ([1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 3.0, 4.0, 5.0, 6.0]);
        let r = mann_whitney_u(&x, &y).unwrap();
        assert_eq!(r.u, 8.0);
        assert!((a12(r.u, 5, 5) - 0.32).abs() < 1e-12);
        // And the other way round: 1 - A.
        let r = mann_whitney_u(&y, &x).unwrap();
        assert!((a12(r.u, 5, 5) - 0.68).abs() < 1e-12);
    }

    #[test]
    fn claim_verdicts() {
        let all100 = |l: &str, a0: f64| ramp(l, 100, 0, a0);
        type Case = (
            &'static str,
            Vec<(String, Vec<PuzzleValue>)>,
            [&'static str; 4],
        );
        let cases: Vec<Case> = vec![
            (
                // The paper's pattern: success falls, averages rise, at both steps.
                "falls as claimed",
                vec![
                    all100("Easy", 1000.0),
                    ramp("Medium", 70, 1, 10_000.0),
                    ramp("Hard", 15, 1, 30_000.0),
                ],
                [
                    "falls as claimed",
                    "rises as claimed",
                    "falls as claimed",
                    "rises as claimed",
                ],
            ),
            (
                // Success rises from Medium to Hard and averages fall: not as claimed. Easy to
                // Medium: every run of every puzzle solved at both levels, averages alike.
                "not as claimed",
                vec![
                    all100("Easy", 1000.0),
                    all100("Medium", 1000.0),
                    all100("Hard", 100.0),
                ],
                [
                    "no difference (all values equal)",
                    "no significant difference",
                    "no difference (all values equal)",
                    "opposite",
                ],
            ),
            (
                "opposite success",
                vec![ramp("Easy", 10, 1, 500.0), all100("Medium", 500.0)],
                ["opposite", "no significant difference", "", ""],
            ),
            (
                // No successes at all on the harder level: no averages to compare.
                "nothing solved",
                vec![ramp("Easy", 40, 1, 500.0), ramp("Hard", 0, 0, 1.0)],
                [
                    "falls as claimed",
                    "n/a (no puzzle with a success on one side)",
                    "",
                    "",
                ],
            ),
        ];
        for (name, levels, want) in cases {
            let mut tests = claims("ours", "x", &levels);
            adjust(&mut tests);
            let got: Vec<String> = tests.iter().map(Test::verdict).collect();
            let want: Vec<&str> = want.iter().copied().filter(|w| !w.is_empty()).collect();
            assert_eq!(got, want, "{name}");
            // The harder level is sample a, the easier b.
            for (t, w) in tests.iter().zip(levels.windows(2).flat_map(|w| [w, w])) {
                assert_eq!(
                    (t.a.as_str(), t.b.as_str()),
                    (w[1].0.as_str(), w[0].0.as_str())
                );
            }
        }
    }

    #[test]
    fn ours_vs_paper_verdicts_follow_a12() {
        let paper = ramp("Medium", 70, 1, 10_000.0).1;
        for (ours, success, average) in [
            (
                ramp("Medium", 100, 0, 500.0).1,
                "differs (ours higher)",
                "differs (ours lower)",
            ),
            (
                ramp("Medium", 70, 1, 10_000.0).1,
                "no significant difference",
                "no significant difference",
            ),
            (
                ramp("Medium", 0, 1, 40_000.0).1,
                "differs (ours lower)",
                "differs (ours higher)",
            ),
        ] {
            let mut t = vec![
                Test::new(
                    Kind::OursVsPaper,
                    "ours vs paper",
                    "x",
                    "Medium",
                    Measure::SuccessRate,
                    ("ours", &ours),
                    ("paper", &paper),
                ),
                Test::new(
                    Kind::OursVsPaper,
                    "ours vs paper",
                    "x",
                    "Medium",
                    Measure::Average,
                    ("ours", &ours),
                    ("paper", &paper),
                ),
            ];
            adjust(&mut t);
            assert_eq!(t[0].verdict(), success);
            assert_eq!(t[1].verdict(), average);
        }
    }

    #[test]
    fn the_published_tables_parse() {
        for (name, rows, pooled_successes) in [
            ("paper/ret-ga-table2.csv", 25, 2500),
            ("paper/ret-ga-table3.csv", 25, 2174),
            ("paper/ret-ga-table4.csv", 25, 737),
        ] {
            let text = crate::spec::paper_text(name, None).unwrap();
            let t = parse_table(&text, name).unwrap();
            assert_eq!(t.len(), rows);
            assert_eq!(pooled(&t), (pooled_successes, 100 * rows as u64));
            assert!(t.iter().all(|p| p.average.is_some()));
        }
        let bad = "# c\nproblem,givens,success,minimum,maximum,average,median,sd\n1,29,100,1,2,1.5,1,1\n2,29,101,1,2,1.5,1,1\n";
        let e = parse_table(bad, "t.csv").unwrap_err().to_string();
        assert_eq!(e, "t.csv:4: success 101 of 100 runs is impossible");
        let bad = "problem,success,average\n1,5,x\n";
        let e = parse_table(bad, "t.csv").unwrap_err().to_string();
        assert!(e.starts_with("t.csv:2: "), "{e}");
        assert_eq!(e.lines().count(), 1);
    }
}

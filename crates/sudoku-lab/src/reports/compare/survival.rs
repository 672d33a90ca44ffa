//! Censored run times in the compare report: every run counts, an
//! unsolved run as right-censored where it stopped (its evaluations, or its wall seconds).
//!
//! * Per time unit (evaluations, seconds), puzzle set and algorithm: the Kaplan-Meier estimate
//!   of the time to solve, whose `1 - S(t)` is the runtime ECDF drawn in `compare-ecdf.png`
//!   (`compare-ecdf-seconds.png`); the median time to solve with its 95 % interval as lifelines
//!   0.30 gives it (the first times the estimate and its exponential-Greenwood bounds fall to
//!   0.5; "not reached" when a curve never does).
//! * Bootstrap bands ([`lab_stats::ecdf_band`], [`lab_stats::BAND_RESAMPLES`] resamples, 95 %
//!   pointwise percentile) on those curves and intervals on ERT: a puzzle set's runs are
//!   resampled within each puzzle; the pooled curve ("all") resamples puzzles, then runs
//!   within each drawn puzzle. The seed of each is [`lab_stats::seed_from`] of
//!   `"<unit>/<scope>/<algorithm>/ecdf"` (or `/ert`): identical output for any thread count.
//! * The log-rank test between every pair of algorithms per puzzle set (and pooled),
//!   Holm-adjusted over all pairs and scopes of a time unit (one family per unit, as
//!   compare-pairs.csv adjusts each test over the whole file).

use super::data::{Data, Run};
use super::report::{num, pval};
use super::stats::Unit;
use crate::export::tables::Table;
use anyhow::{Context, Result};
use lab_stats::{
    ecdf_band, ert_interval, holm_adjust, kaplan_meier, logrank_test, seed_from, Band, KaplanMeier,
    LifeTable, LogRank, MedianTime, Reached, Scheme, StatsError,
};
use rayon::prelude::*;

/// The time units of the survival views: the folder's seconds first (they compare across
/// algorithms), then evaluations (only within one evaluation unit).
pub const UNITS: [Unit; 2] = [Unit::Seconds, Unit::Evaluations];

/// The censored runtime distribution of one (unit, scope, algorithm).
#[derive(Debug, Clone)]
pub struct Curve {
    pub unit: Unit,
    pub scope: usize,
    pub algorithm: usize,
    pub solved: usize,
    pub table: LifeTable,
    pub km: KaplanMeier,
    pub median: MedianTime,
    pub scheme: Scheme,
    pub band: Band,
    /// ERT in the unit and its bootstrap interval (same resampling as the band).
    pub ert: f64,
    pub ert_ci: (f64, f64),
}

/// The log-rank test of one pair in one scope and unit.
#[derive(Debug, Clone)]
pub struct PairTest {
    pub unit: Unit,
    pub scope: usize,
    pub a: usize,
    pub b: usize,
    /// None when no run of either solved (nothing to compare).
    pub test: Option<LogRank>,
    pub holm: Option<f64>,
    /// False in evaluations between algorithms of different units: not tested.
    pub comparable: bool,
}

/// Every curve and log-rank test of a report.
#[derive(Debug, Clone)]
pub struct Survival {
    pub curves: Vec<Curve>,
    pub tests: Vec<PairTest>,
}

/// A run's time in `unit`.
pub fn time(r: &Run, unit: Unit) -> f64 {
    match unit {
        Unit::Evaluations => r.evaluations as f64,
        Unit::Seconds => r.seconds,
    }
}

fn curve(data: &Data, unit: Unit, s: usize, a: usize) -> Result<Curve> {
    let runs: Vec<&Run> = data.runs_of(a, s).collect();
    let times: Vec<f64> = runs.iter().map(|r| time(r, unit)).collect();
    let solved: Vec<bool> = runs.iter().map(|r| r.solved).collect();
    let mut puzzles: Vec<usize> = runs.iter().map(|r| r.puzzle).collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    let groups: Vec<Vec<usize>> = (puzzles.iter())
        .map(|&p| (0..runs.len()).filter(|&i| runs[i].puzzle == p).collect())
        .collect();
    let scheme = if s == data.scopes.len() {
        Scheme::PuzzlesThenRuns
    } else {
        Scheme::RunsWithinPuzzles
    };
    let names = data.scope_names();
    let key = format!("{}/{}/{}", unit.as_str(), names[s], data.algorithms[a]);
    let what = || format!("censored runtimes of {key}");
    let table = LifeTable::new(&times, &solved).with_context(what)?;
    let km = kaplan_meier(&table, 0.95).with_context(what)?;
    let band = ecdf_band(
        &times,
        &solved,
        &groups,
        scheme,
        seed_from(&format!("{key}/ecdf")),
    )
    .with_context(what)?;
    let seed = seed_from(&format!("{key}/ert"));
    let ert_ci = ert_interval(&times, &solved, &groups, scheme, seed).with_context(what)?;
    let k = solved.iter().filter(|&&x| x).count();
    Ok(Curve {
        unit,
        scope: s,
        algorithm: a,
        solved: k,
        median: km.median(),
        table,
        km,
        scheme,
        band,
        ert: lab_stats::ert(times.iter().sum(), k as u64),
        ert_ci,
    })
}

impl Survival {
    /// Every curve (in parallel: each has its own seed, so the order of work does not
    /// matter) and every pairwise log-rank test.
    pub fn compute(data: &Data) -> Result<Survival> {
        let mut keys = Vec::new();
        for unit in UNITS {
            for s in 0..=data.scopes.len() {
                for a in 0..data.algorithms.len() {
                    keys.push((unit, s, a));
                }
            }
        }
        let curves = keys
            .par_iter()
            .map(|&(unit, s, a)| curve(data, unit, s, a))
            .collect::<Result<Vec<_>>>()?;
        let mut out = Survival {
            curves,
            tests: Vec::new(),
        };
        out.logrank(data)?;
        Ok(out)
    }

    /// The curve of (unit, scope, algorithm).
    pub fn curve(&self, unit: Unit, s: usize, a: usize) -> Option<&Curve> {
        (self.curves.iter()).find(|c| c.unit == unit && c.scope == s && c.algorithm == a)
    }

    fn logrank(&mut self, data: &Data) -> Result<()> {
        let k = data.algorithms.len();
        for unit in UNITS {
            let first = self.tests.len();
            for s in 0..=data.scopes.len() {
                for a in 0..k {
                    for b in a + 1..k {
                        let comparable = unit == Unit::Seconds || data.same_unit(a, b);
                        let test = match comparable {
                            true => self.pair(unit, s, a, b)?,
                            false => None,
                        };
                        let (scope, holm) = (s, None);
                        self.tests.push(PairTest {
                            unit,
                            scope,
                            a,
                            b,
                            test,
                            holm,
                            comparable,
                        });
                    }
                }
            }
            let family: Vec<usize> = (first..self.tests.len())
                .filter(|&i| self.tests[i].test.is_some())
                .collect();
            let ps: Vec<f64> = (family.iter())
                .map(|&i| self.tests[i].test.map_or(1.0, |t| t.p_value))
                .collect();
            for (&i, h) in family.iter().zip(holm_adjust(&ps)) {
                self.tests[i].holm = Some(h);
            }
        }
        Ok(())
    }

    fn pair(&self, unit: Unit, s: usize, a: usize, b: usize) -> Result<Option<LogRank>> {
        let (Some(ca), Some(cb)) = (self.curve(unit, s, a), self.curve(unit, s, b)) else {
            return Ok(None);
        };
        match logrank_test(&ca.table, &cb.table) {
            Ok(t) => Ok(Some(t)),
            // No solved run in either (or no event time both are at risk at).
            Err(StatsError::ZeroVariance(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

/// A time in `unit`, "not reached" for a median that is not.
pub fn reached(r: Reached, unit: Unit) -> String {
    match r {
        Reached::At(t) => time_str(t, unit),
        Reached::NotReached => "not reached".into(),
    }
}

fn time_str(t: f64, unit: Unit) -> String {
    match unit {
        Unit::Evaluations => num(t, 0),
        Unit::Seconds => num(t, 4),
    }
}

fn table(header: &[&str]) -> Table {
    Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows: Vec::new(),
    }
}

/// compare-survival.csv: per unit, scope and algorithm, the Kaplan-Meier median time to
/// solve with its interval, the fraction solved by the end, and ERT with its bootstrap
/// interval.
pub fn survival_table(data: &Data, surv: &Survival) -> Table {
    let mut t = table(&[
        "time_unit",
        "scope",
        "algorithm",
        "runs",
        "solved",
        "censored",
        "km_solved_fraction",
        "median_to_solve",
        "median_ci_low",
        "median_ci_high",
        "ert",
        "ert_ci_low",
        "ert_ci_high",
        "bootstrap",
    ]);
    let names = data.scope_names();
    for c in &surv.curves {
        let n = c.table.len() as usize;
        let last = c.km.survival.last().copied().unwrap_or(1.0);
        let digits = if c.unit == Unit::Seconds { 4 } else { 0 };
        t.rows.push(vec![
            c.unit.csv(data.clock).into(),
            names[c.scope].clone(),
            data.algorithms[c.algorithm].clone(),
            n.to_string(),
            c.solved.to_string(),
            (n - c.solved).to_string(),
            num(1.0 - last, 3),
            reached(c.median.median, c.unit),
            reached(c.median.low, c.unit),
            reached(c.median.high, c.unit),
            num(c.ert, digits),
            num(c.ert_ci.0, digits),
            num(c.ert_ci.1, digits),
            c.scheme.describe().into(),
        ]);
    }
    t
}

/// compare-logrank.csv: the log-rank test of every pair per unit and scope.
pub fn logrank_table(data: &Data, surv: &Survival) -> Table {
    let mut t = table(&[
        "time_unit",
        "scope",
        "algorithm_a",
        "algorithm_b",
        "solved_a",
        "solved_b",
        "observed_a",
        "expected_a",
        "chi2",
        "p",
        "p_holm",
        "verdict",
    ]);
    let names = data.scope_names();
    for p in &surv.tests {
        let solved = |x: usize| {
            surv.curve(p.unit, p.scope, x)
                .map_or(String::new(), |c| c.solved.to_string())
        };
        let (o, e, chi, pv) = p.test.map_or_else(
            || (String::new(), String::new(), String::new(), String::new()),
            |t| {
                let e = num(t.expected_a, 2);
                (
                    num(t.observed_a, 0),
                    e,
                    num(t.statistic, 3),
                    pval(t.p_value),
                )
            },
        );
        t.rows.push(vec![
            p.unit.csv(data.clock).into(),
            names[p.scope].clone(),
            data.algorithms[p.a].clone(),
            data.algorithms[p.b].clone(),
            solved(p.a),
            solved(p.b),
            o,
            e,
            chi,
            pv,
            p.holm.map_or(String::new(), pval),
            verdict(data, p),
        ]);
    }
    t
}

/// The pair's verdict at 5 % after Holm: which one solves sooner (more solved runs than
/// expected under equal distributions).
fn verdict(data: &Data, p: &PairTest) -> String {
    if !p.comparable {
        return super::report::NOT_COMPARABLE.into();
    }
    match (p.test, p.holm) {
        (Some(t), Some(h)) if h < 0.05 => {
            let (sooner, later) = if t.observed_a > t.expected_a {
                (p.a, p.b)
            } else {
                (p.b, p.a)
            };
            format!(
                "{} solves sooner than {}",
                data.algorithms[sooner], data.algorithms[later]
            )
        }
        (Some(_), _) => "no significant difference".into(),
        (None, _) => {
            let solved = |x| surv_solved(data, p, x);
            if solved(p.a) + solved(p.b) == 0 {
                "neither solves".into()
            } else {
                "not testable (no solve while both are at risk)".into()
            }
        }
    }
}

/// Solved runs of algorithm `x` in the pair's scope.
fn surv_solved(data: &Data, p: &PairTest, x: usize) -> usize {
    data.runs_of(x, p.scope).filter(|r| r.solved).count()
}

/// The report.md section of the censored runtimes: how they are estimated, the ECDF charts,
/// the median evaluations to solve per puzzle set, and the log-rank verdicts.
pub fn markdown(data: &Data, surv: &Survival) -> String {
    let clock = data.clock.words();
    let mut md = format!(
        "\n## Runtime distributions (unsolved runs censored)\n\nEvery run counts: a solved run is an event at its {clock} (its evaluations), an unsolved one is right-censored where it stopped, at its budget or earlier by the algorithm's own rule. Each curve is the Kaplan-Meier estimate `1 - S(t)` of the fraction solved within `t` (with every unsolved run at the budget it equals the plain runtime ECDF; runs stopped early only leave the risk set). Shaded: 95 % pointwise bootstrap bands ({} resamples, percentile; a puzzle set's runs resampled within each puzzle, the pooled curve `all` resampling puzzles and then runs within each drawn puzzle; seeds derived from the curve's name, so identical for any thread count). The median time to solve is the first time the estimate reaches 0.5 (the smallest `t` with `S(t) <= 1/2` in exact arithmetic: on a flat stretch at exactly 1/2, its start; lifelines, whose floating-point estimate there can lie an ulp above 1/2, then gives the stretch's end), its 95 % interval the first times the exponential-Greenwood bounds (lifelines' default `log(-log)` interval) reach it; \"not reached\" when a curve stays above. compare-survival.csv has every median and ERT with its bootstrap interval, in {clock} and in evaluations.\n\n![ECDF in {clock}](compare-ecdf-seconds.png)\n\nIn evaluations (each algorithm in its own unit: read the curves of different units side by side, not against each other):\n\n![ECDF](compare-ecdf.png)\n",
        lab_stats::BAND_RESAMPLES,
    );
    for unit in UNITS {
        md.push_str(&median_table(data, surv, unit));
    }
    md.push_str(&seconds_caveat(data, surv));
    md.push_str(&logrank_summary(data, surv));
    md
}

/// The median time to solve in `unit` [95 % interval] per puzzle set and algorithm.
fn median_table(data: &Data, surv: &Survival, unit: Unit) -> String {
    use std::fmt::Write as _;
    let mut md = format!(
        "\nMedian {} to solve [95 % interval]{}:\n\n| Puzzle set | {} |\n|---|{}\n",
        unit.words(data.clock),
        if unit == Unit::Evaluations {
            " (each algorithm's own unit)"
        } else {
            ""
        },
        data.algorithms.join(" | "),
        "---|".repeat(data.algorithms.len())
    );
    for (s, name) in data.scope_names().iter().enumerate() {
        let _ = write!(md, "| {name} |");
        for a in 0..data.algorithms.len() {
            let cell = surv.curve(unit, s, a).map_or(String::new(), |c| {
                let m = c.median;
                let f = |r: Reached| match r {
                    Reached::At(t) if unit == Unit::Seconds => super::report::seconds(t),
                    Reached::At(t) => super::report::short(t),
                    Reached::NotReached => "not reached".into(),
                };
                if m.low == Reached::NotReached {
                    // The lower end not reached: neither are the median nor the upper end.
                    "not reached".into()
                } else {
                    format!("{} [{}, {}]", f(m.median), f(m.low), f(m.high))
                }
            });
            let _ = write!(md, " {cell} |");
        }
        md.push('\n');
    }
    md
}

/// The caveat of the view in seconds: the budget is in evaluations, so unsolved runs are
/// censored at different wall times, some before solved runs of the same curve end; such
/// censoring is informative (the runs that ran out of budget are the hard ones) and
/// Kaplan-Meier, which assumes they could still solve like the runs left at risk, can end above
/// the observed success rate. Says so with the largest such gap, when there is one.
fn seconds_caveat(data: &Data, surv: &Survival) -> String {
    let names = data.scope_names();
    let gaps: Vec<(f64, &Curve)> = (surv.curves.iter())
        .filter(|c| c.unit == Unit::Seconds)
        .map(|c| {
            let n = c.table.len().max(1) as f64;
            let km = 1.0 - c.km.survival.last().copied().unwrap_or(1.0);
            (km - c.solved as f64 / n, c)
        })
        .filter(|(gap, _)| *gap > 0.005)
        .collect();
    let Some((_, worst)) = gaps.iter().max_by(|x, y| x.0.total_cmp(&y.0)) else {
        return String::new();
    };
    let km = 1.0 - worst.km.survival.last().copied().unwrap_or(1.0);
    format!(
        "\nIn seconds the budget is in evaluations, so unsolved runs are censored at different times, some before solved runs of the same algorithm finish. Kaplan-Meier assumes a censored run could still solve like the runs left at risk, while these runs stopped because they were the hard ones: {} of the {} curves in seconds end above their observed success rate (most: `{}` on {}, {} against {} of {} runs solved). Read the curves in seconds for how fast the early solves come, not for their final level (nor the log-rank tests in seconds for their late part). In evaluations every unsolved run that used the whole budget is censored at the same time, after every solve, and there is no such bias; runs that an algorithm's own rule stopped earlier (see the effective budgets above) are censored where they stopped, with the same caveat.\n",
        gaps.len(),
        surv.curves.iter().filter(|c| c.unit == Unit::Seconds).count(),
        data.algorithms[worst.algorithm],
        names[worst.scope],
        num(km, 3),
        worst.solved,
        worst.table.len()
    )
}

/// One line per unit: how many pairs the log-rank test separates, per scope.
fn logrank_summary(data: &Data, surv: &Survival) -> String {
    let names = data.scope_names();
    let mut md = String::from("\nLog-rank test between every pair of algorithms per puzzle set (Holm-adjusted over all pairs and puzzle sets of a time unit; compare-logrank.csv): ");
    let mut parts = Vec::new();
    for unit in UNITS {
        let per_scope: Vec<String> = (0..names.len())
            .map(|s| {
                let of: Vec<&PairTest> = (surv.tests.iter())
                    .filter(|t| t.unit == unit && t.scope == s && t.test.is_some())
                    .collect();
                if of.is_empty() {
                    return format!("{} none tested", names[s]);
                }
                let differ = of
                    .iter()
                    .filter(|t| t.holm.is_some_and(|h| h < 0.05))
                    .count();
                format!("{} {differ} of {}", names[s], of.len())
            })
            .collect();
        parts.push(format!(
            "in {}, pairs that differ at 5 %: {}",
            unit.words(data.clock),
            per_scope.join(", ")
        ));
    }
    md.push_str(&parts.join("; "));
    md.push_str(" (pairs where neither algorithm solves a run are not tested, nor, in evaluations, pairs of different units).\n");
    md
}

//! Runs needed: for every scope and pair of the compare report, the runs
//! per puzzle that give the report's pairwise tests a stated power (default 80 %) to detect a
//! stated effect (default: a 10-point success difference, a 2x ERT ratio) at level alpha
//! (default 0.05, two-sided, before Holm's adjustment), computed from a pilot's runs.
//!
//! Method, for one pair (A, B) in a scope of P puzzles, with each algorithm in turn as the
//! reference X (the larger answer of the two is reported, so that the effect is detected
//! whichever algorithm it is measured from):
//!
//! * Success (Fisher's exact test on the pooled success counts in the report, Holm-adjusted
//!   over every scope and pair of the file): X's pilot success rate p, taken as the Jeffreys
//!   point estimate (successes + 1/2) / (runs + 1), so that a pilot rate of 0 or 1 (no
//!   variance, where a plug-in estimate makes the sizing most optimistic) is moved half a run
//!   inwards; and p' = p + d when p <= 1/2, p - d above (towards 1/2, where the difference is
//!   hardest to see), clamped to [0, 1]. The runs per algorithm n are the first at which
//!   Fisher's exact test itself reaches the power ([`lab_stats::fisher_exact_runs`], an exact
//!   sum over the two binomials) at level alpha / m, m the number of pairwise tests in the
//!   file: Holm's first step, at which the pair with the smallest p-value is judged, so the
//!   power holds under Holm whatever the other pairs' p-values (Holm never rejects less than
//!   Bonferroni).
//! * ERT (the Mann-Whitney U test on the evaluations to solve, unsolved runs +inf): "B is A
//!   made `ratio` times slower", A being the pair's algorithm with the lower pilot ERT in the
//!   scope (the one a slower rival is measured against; an algorithm that solves almost nothing
//!   has almost no run times to stretch): every run of A's pilot with its evaluations
//!   multiplied by the ratio, and failed when that passes the budget (`Data::budget`: the
//!   spec's largest `max_evaluations`, or the most evaluations of any run), as a slower
//!   algorithm given the same budget would. B's ERT is then at least `ratio` x A's (exactly,
//!   without a budget). The runs per algorithm n from the asymptotic power of the tie-corrected
//!   U statistic between A's runs and their slow copy, ties kept (Zhao, Rahardja & Qu 2008;
//!   [`lab_stats::mann_whitney_runs_ties`], checked by simulating the test in lab-stats'
//!   tests), at the same Holm level as the success answer. Noether's (1987) formula from
//!   their A12 alone ignores that the unsolved runs are all tied at +inf, which the test's tie
//!   correction uses, and overstated the runs many times.
//! * Runs per puzzle: ceil(n / P). The tests pool the runs of a scope as if they were drawn
//!   from the scope's mixture of puzzles; the same number of runs on every puzzle is a
//!   stratified sample of it, whose variance is no larger, so the answer errs on the safe side.
//!
//! Empty cells: when neither algorithm solved anything in the scope, no ERT can be slowed.

use super::data::{self as cd, Data};
use super::report::num;
use crate::export::tables::Table;
use anyhow::{bail, Result};

/// The effect to detect and the test's error rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effect {
    /// ERT ratio to detect (> 1).
    pub ert_ratio: f64,
    /// Success-rate difference to detect (0 < d < 1).
    pub success_difference: f64,
    pub power: f64,
    pub alpha: f64,
}

impl Default for Effect {
    fn default() -> Self {
        Effect {
            ert_ratio: 2.0,
            success_difference: 0.10,
            power: 0.8,
            alpha: 0.05,
        }
    }
}

impl Effect {
    /// Refuses values outside their ranges, naming the option.
    pub fn check(&self) -> Result<()> {
        let e = self;
        if !(e.ert_ratio > 1.0 && e.ert_ratio <= 1000.0) {
            bail!(
                "--ert-ratio must be above 1 and at most 1000 (got {})",
                e.ert_ratio
            );
        }
        if !(e.success_difference > 0.0 && e.success_difference < 1.0) {
            bail!(
                "--success-difference must be between 0 and 1, exclusive (got {})",
                e.success_difference
            );
        }
        if !(e.alpha > 0.0 && e.alpha < 0.5) {
            bail!(
                "--alpha must be between 0 and 0.5, exclusive (got {})",
                e.alpha
            );
        }
        if !(e.power > e.alpha && e.power < 1.0) {
            bail!(
                "--power must be above --alpha and below 1 (got {})",
                e.power
            );
        }
        Ok(())
    }
}

/// One pair's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Needed {
    pub scope: usize,
    pub a: usize,
    pub b: usize,
    pub puzzles: usize,
    /// The pilot's runs per puzzle (both algorithms' runs / puzzles / 2).
    pub pilot_runs: f64,
    pub success: [f64; 2],
    pub runs_success: Option<u64>,
    /// The pair's algorithm with the lower ERT: the reference of the ERT effect.
    pub faster: usize,
    /// A12 of its runs against their slowed copy (0.5: it never solves).
    pub a12_slower: f64,
    pub runs_ert: Option<u64>,
}

/// One algorithm's part in one scope: its success rate, the A12 of its runs against their
/// slowed copy (None when it solved nothing), the puzzles it ran on, and its ERT.
fn reference(data: &Data, a: usize, s: usize, e: &Effect, alpha: f64) -> Result<Reference> {
    let runs: Vec<&cd::Run> = data.runs_of(a, s).collect();
    let x = cd::success(runs.iter().copied());
    let rate = x.successes as f64 / x.runs.max(1) as f64;
    let jeffreys = (x.successes as f64 + 0.5) / (x.runs as f64 + 1.0);
    let mut puzzles: Vec<usize> = runs.iter().map(|r| r.puzzle).collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    let mut r = Reference {
        rate,
        jeffreys,
        a12: None,
        ert_runs: None,
        puzzles: puzzles.len(),
        ert: x.ert_evaluations,
        ert_seconds: x.ert_seconds,
    };
    if x.successes > 0 {
        let times = cd::censored(runs.iter().copied());
        let budget = data.budget as f64;
        let slow: Vec<f64> = (times.iter())
            .map(|t| {
                Some(t * e.ert_ratio)
                    .filter(|&t| t <= budget)
                    .unwrap_or(f64::INFINITY)
            })
            .collect();
        r.a12 = Some(lab_stats::vargha_delaney_a12(&slow, &times)?);
        r.ert_runs = lab_stats::mann_whitney_runs_ties(&times, &slow, alpha, e.power)?;
    }
    Ok(r)
}

/// See [`reference`].
struct Reference {
    rate: f64,
    /// The Jeffreys point estimate of the success rate, from which the sizing starts.
    jeffreys: f64,
    a12: Option<f64>,
    /// The tie-aware runs per algorithm to tell its runs from their slowed copy.
    ert_runs: Option<u64>,
    puzzles: usize,
    ert: f64,
    ert_seconds: f64,
}

/// The runs per algorithm for a success difference from `p`, at the level `alpha` of one test.
fn success_runs(p: f64, e: &Effect, alpha: f64) -> Result<Option<u64>> {
    let q = if p <= 0.5 {
        p + e.success_difference
    } else {
        p - e.success_difference
    };
    Ok(lab_stats::fisher_exact_runs(
        p,
        q.clamp(0.0, 1.0),
        alpha,
        e.power,
    )?)
}

/// The level of one pairwise test: Holm's first step over the file's pairwise tests.
pub fn holm_level(data: &Data, e: &Effect) -> f64 {
    let k = data.algorithms.len();
    let tests = (data.scopes.len() + 1) * k * k.saturating_sub(1) / 2;
    e.alpha / tests.max(1) as f64
}

/// Every scope (pooled last) and pair.
pub fn compute(data: &Data, e: &Effect) -> Result<Vec<Needed>> {
    e.check()?;
    let k = data.algorithms.len();
    let alpha = holm_level(data, e);
    let mut out = Vec::new();
    for s in 0..=data.scopes.len() {
        let refs = (0..k)
            .map(|a| reference(data, a, s, e, alpha))
            .collect::<Result<Vec<_>>>()?;
        let success = (refs.iter())
            .map(|r| success_runs(r.jeffreys, e, alpha))
            .collect::<Result<Vec<_>>>()?;
        for a in 0..k {
            for b in a + 1..k {
                let (ra, rb) = (&refs[a], &refs[b]);
                let puzzles = ra.puzzles.max(rb.puzzles).max(1);
                let per_puzzle = |n: Option<u64>| n.map(|n| n.div_ceil(puzzles as u64));
                let runs_success = success[a].max(success[b]);
                // The faster by ERT in evaluations within one unit, else in seconds (counts
                // of different units do not compare); its runs are slowed in its own unit.
                let faster = match data.same_unit(a, b) {
                    true if rb.ert < ra.ert => b,
                    false if rb.ert_seconds < ra.ert_seconds => b,
                    _ => a,
                };
                let a12 = refs[faster].a12;
                let runs_ert = refs[faster].ert_runs;
                let n_runs = data.runs_of(a, s).count() + data.runs_of(b, s).count();
                out.push(Needed {
                    scope: s,
                    a,
                    b,
                    puzzles,
                    pilot_runs: n_runs as f64 / puzzles as f64 / 2.0,
                    success: [ra.rate, rb.rate],
                    runs_success: per_puzzle(runs_success),
                    faster,
                    a12_slower: a12.unwrap_or(0.5),
                    runs_ert: per_puzzle(runs_ert),
                });
            }
        }
    }
    Ok(out)
}

/// compare-runs-needed.csv (and plan-runs' table).
pub fn table(data: &Data, needed: &[Needed], e: &Effect) -> Table {
    let header = [
        "scope",
        "algorithm_a",
        "algorithm_b",
        "puzzles",
        "pilot_runs_per_puzzle",
        "success_rate_a",
        "success_rate_b",
        "success_difference",
        "runs_per_puzzle_success",
        "ert_ratio",
        "ert_reference",
        "ert_reference_by",
        "a12_slower_copy",
        "runs_per_puzzle_ert",
        "power",
        "alpha",
        "alpha_per_test",
    ];
    let names = data.scope_names();
    let alpha = holm_level(data, e);
    let opt = |n: Option<u64>| n.map_or(String::new(), |n| n.to_string());
    let rows = needed
        .iter()
        .map(|n| {
            vec![
                names[n.scope].clone(),
                data.algorithms[n.a].clone(),
                data.algorithms[n.b].clone(),
                n.puzzles.to_string(),
                num(n.pilot_runs, 1),
                num(n.success[0], 3),
                num(n.success[1], 3),
                num(e.success_difference, 3),
                opt(n.runs_success),
                num(e.ert_ratio, 2),
                data.algorithms[n.faster].clone(),
                if data.same_unit(n.a, n.b) {
                    "evaluations"
                } else {
                    data.clock.csv()
                }
                .to_string(),
                num(n.a12_slower, 3),
                opt(n.runs_ert),
                num(e.power, 2),
                num(e.alpha, 3),
                format!("{:.3e}", alpha),
            ]
        })
        .collect();
    Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
    }
}

/// What the method is, in one paragraph (report.md and plan-runs).
pub fn method(e: &Effect, data: &Data) -> String {
    format!(
        "Runs per puzzle that give the pairwise tests {:.0} % power at a two-sided level of {:.3e} per test ({} divided by the file's {} pairwise tests: Holm's first step, so the power holds after Holm's adjustment) to detect a success difference of {:.0} points (Fisher's exact test, its exact power summed over the two binomials; from each algorithm's pilot rate, taken as the Jeffreys estimate (successes + 1/2) / (runs + 1) so that a pilot rate of 0 or 1 does not make the answer optimistic, towards 1/2; the larger of the two algorithms' answers) or an algorithm {} times slower than the pair's one with the lower ERT (in evaluations between algorithms of one unit, else in seconds; Mann-Whitney U on the evaluations to solve, tie-corrected, at the same level: the asymptotic power of the U statistic with its ties, Zhao, Rahardja & Qu 2008, as most runs that never solve are tied; the alternative is that algorithm's pilot runs with every run's evaluations multiplied by {}, failed past the budget of {} evaluations, so its ERT is at least that many times larger); runs per algorithm divided by the puzzles, rounded up. An empty cell: neither algorithm solved anything, so no ERT can be slowed.",
        100.0 * e.power,
        holm_level(data, e),
        e.alpha,
        (e.alpha / holm_level(data, e)).round(),
        100.0 * e.success_difference,
        e.ert_ratio,
        e.ert_ratio,
        data.budget
    )
}

/// report.md's section: the method and the pooled scope's answers.
pub fn markdown(data: &Data, needed: &[Needed], e: &Effect) -> String {
    use std::fmt::Write as _;
    let pooled = data.scopes.len();
    let mut md = format!(
        "\n## Runs needed\n\n{} Every scope in compare-runs-needed.csv; all puzzles here. `sudoku-lab plan-runs` answers the same from a pilot's runs.csv before a protocol is run.\n\n| A | B | Pilot runs per puzzle | Runs per puzzle, success +-{:.0} points | Lower ERT | Runs per puzzle, {}x slower than it |\n|---|---|---|---|---|---|\n",
        method(e, data),
        100.0 * e.success_difference,
        e.ert_ratio
    );
    let opt = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    for n in needed.iter().filter(|n| n.scope == pooled) {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            data.algorithms[n.a],
            data.algorithms[n.b],
            num(n.pilot_runs, 1),
            opt(n.runs_success),
            data.algorithms[n.faster],
            opt(n.runs_ert)
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(algorithm: usize, puzzle: usize, solved: bool, evaluations: u64) -> cd::Run {
        cd::Run {
            algorithm,
            puzzle,
            scope: 0,
            solved,
            evaluations,
            seconds: 0.0,
            wall_seconds: 0.0,
            penalty: 0,
            trajectory: Vec::new(),
            termination: String::new(),
        }
    }

    #[test]
    fn runs_needed_follow_the_pilot() {
        // A solves half its runs on each of 2 puzzles, B never: the success answer is the
        // larger of Fisher's runs for 0.5 -> 0.4 and for B's Jeffreys estimate 0.5 / 21 ->
        // + 0.1, at 5 % (one test); the arcsine approximation said 194 per puzzle (statsmodels:
        // 387.2 runs per group). The ERT answer is A's alone.
        let mut runs = Vec::new();
        for p in 0..2 {
            for i in 0..10 {
                runs.push(run(0, p, i % 2 == 0, 100 + 10 * i as u64));
                runs.push(run(1, p, false, 1000));
            }
        }
        let data = Data {
            algorithms: vec!["a".into(), "b".into()],
            runs,
            budget: 1000,
            ..Data::default()
        };
        let e = Effect::default();
        let n = compute(&data, &e).unwrap();
        assert_eq!(n.len(), 1);
        let fisher = |p: f64, q: f64| lab_stats::fisher_exact_runs(p, q, 0.05, 0.8).unwrap();
        let b = 0.5 / 21.0;
        let want = fisher(0.5, 0.4).max(fisher(b, b + 0.1)).unwrap();
        assert_eq!(n[0].runs_success, Some(want.div_ceil(2)));
        assert!(want.div_ceil(2) > 194);
        // B never solves: A is the reference.
        assert_eq!(n[0].faster, 0);
        // ERT: A's runs (half of them unsolved, tied at +inf) against their 2x slower copy,
        // ties kept; Noether's formula from their A12 alone asked for more.
        let times: Vec<f64> = (0..2)
            .flat_map(|_| {
                (0..10).map(|i| {
                    if i % 2 == 0 {
                        100.0 + 10.0 * i as f64
                    } else {
                        f64::INFINITY
                    }
                })
            })
            .collect();
        let slow: Vec<f64> = times.iter().map(|t| 2.0 * t).collect();
        let want = lab_stats::mann_whitney_runs_ties(&times, &slow, 0.05, 0.8)
            .unwrap()
            .unwrap();
        assert_eq!(n[0].runs_ert, Some(want.div_ceil(2)));
        let noether = lab_stats::mann_whitney_runs(n[0].a12_slower, 0.05, 0.8)
            .unwrap()
            .unwrap();
        assert!(want < noether, "{want} {noether}");
        assert_eq!(n[0].pilot_runs, 10.0);
        let bad = Effect {
            ert_ratio: 1.0,
            ..e
        };
        assert!(compute(&data, &bad).is_err());
    }

    #[test]
    fn a_pilot_rate_of_zero_or_one_is_not_optimistic() {
        // Three algorithms on one puzzle: one always solves, two never. Three pairwise tests,
        // so each is judged at 0.05 / 3 after Holm's first step. A true rate of 0 against
        // 0.1 (or 1 against 0.9) must get its 80 % from Fisher's test at that level; the
        // arcsine approximation from the plug-in rate answered 38 runs at 5 %, where Fisher's
        // test has about 17 % power.
        let mut runs = Vec::new();
        for i in 0..20 {
            runs.push(run(0, 0, true, 100 + i));
            runs.push(run(1, 0, false, 1000));
            runs.push(run(2, 0, false, 1000));
        }
        let data = Data {
            algorithms: vec!["a".into(), "b".into(), "c".into()],
            runs,
            budget: 1000,
            ..Data::default()
        };
        let e = Effect::default();
        let alpha = holm_level(&data, &e);
        assert!((alpha - 0.05 / 3.0).abs() < 1e-15);
        for n in compute(&data, &e).unwrap() {
            let runs = n.runs_success.unwrap();
            for (p, q) in [(0.0, 0.1), (1.0, 0.9)] {
                let power = lab_stats::fisher_exact_power(p, q, runs, alpha);
                assert!(power >= 0.8, "{}-{}: {runs} runs, power {power}", n.a, n.b);
            }
        }
    }
}

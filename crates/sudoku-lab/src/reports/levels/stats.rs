//! The tests of the levels report: per algorithm and level, ours against the paper (the
//! distributions of per-puzzle values, by the Mann-Whitney U test and Vargha-Delaney's A12), and
//! the paper's claim between adjacent levels, on each side's values; Holm over the whole file.

use super::values::{pooled, PublishedLevel, PuzzleValue};
use crate::reports::verdicts::{normal_power, power_two_fold_mean, LOW_POWER};
use crate::spec::Spec;
use lab_stats::{holm_adjust, mann_whitney_u, summarize, StatsError};

/// z of the two-sided 95 % interval.
pub const Z95: f64 = 1.959_964;

/// Significance level of the verdicts (on Holm-adjusted p-values).
const ALPHA: f64 = 0.05;

/// What a test compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Per-puzzle success rate (every puzzle).
    SuccessRate,
    /// Per-puzzle average generations of the successful runs (puzzles with a success).
    Average,
}

impl Measure {
    pub(super) fn name(self) -> &'static str {
        match self {
            Measure::SuccessRate => "success_rate",
            Measure::Average => "average_generations",
        }
    }

    pub(super) fn describe(self) -> &'static str {
        match self {
            Measure::SuccessRate => "success rate",
            Measure::Average => "average generations",
        }
    }

    pub(super) fn values(self, puzzles: &[PuzzleValue]) -> Vec<f64> {
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

/// The median of `xs` (none when empty).
pub(super) fn median(xs: &[f64]) -> Option<f64> {
    summarize(xs).map(|s| s.median)
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

    /// A12, where there is a test.
    pub(super) fn a12(&self) -> Option<f64> {
        match self.outcome {
            Outcome::Tested { a12, .. } => Some(a12),
            _ => None,
        }
    }

    /// Approximate power (5 % level) of an ours-vs-paper test to detect a two-fold difference
    /// from the paper's per-puzzle values: a two-fold mean average, or a two-fold mean success
    /// rate (half of it above 50 %), by the normal approximation of the t test on the
    /// per-puzzle values (the Mann-Whitney test's efficiency relative to it is at least 0.864,
    /// so this is if anything optimistic). None for claims, where there is no test, or with
    /// fewer than two values on a side (then a "no significant difference" says nothing).
    pub fn power_2x(&self) -> Option<f64> {
        if self.kind != Kind::OursVsPaper || !matches!(self.outcome, Outcome::Tested { .. }) {
            return None;
        }
        let (ours, paper) = (summarize(&self.xa)?, summarize(&self.xb)?);
        if ours.n < 2 || paper.n < 2 {
            return None;
        }
        match self.measure {
            Measure::Average => power_two_fold_mean(
                paper.mean,
                paper.sd,
                paper.n as u64,
                Some(ours.sd),
                ours.n as u64,
            ),
            Measure::SuccessRate => {
                let m = paper.mean;
                let q = if 2.0 * m <= 1.0 { 2.0 * m } else { m / 2.0 };
                let se =
                    (paper.sd.powi(2) / paper.n as f64 + ours.sd.powi(2) / ours.n as f64).sqrt();
                (m > 0.0).then(|| normal_power((q - m).abs(), se)).flatten()
            }
        }
    }

    /// A "no significant difference" of ours against the paper that could easily have missed
    /// a two-fold difference: power below [`LOW_POWER`], or none computable.
    fn low_power(&self) -> bool {
        self.kind == Kind::OursVsPaper && self.power_2x().is_none_or(|w| w < LOW_POWER)
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
                None if self.low_power() => "no significant difference (low power)".into(),
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
}

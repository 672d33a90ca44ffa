//! Bayesian signed-rank tests with a region of practical equivalence:
//! for every scope, pair of algorithms and measure, the posterior probabilities that A is
//! better, that the two are practically equivalent, and that B is better, over the puzzles of
//! the scope (Benavoli, Corani, Demšar & Zaffalon, "Time for a change", JMLR 2017;
//! [`lab_stats::bayesian_signed_rank`], pinned to baycomp 1.0.3).
//!
//! * Per-puzzle ERT in evaluations, on a log scale: the test compares Walsh averages of the
//!   per-puzzle differences with the ROPE, so magnitudes matter (unlike the frequentist post
//!   hoc's ranks); per-puzzle ERTs span 10^2 to 10^7 evaluations, and on a linear scale the
//!   hardest puzzles alone would decide. On ln ERT a difference is a ratio, the same on every
//!   puzzle, and the ROPE is a ratio too (`rope_ert_ratio`, default 1.1). An infinite ERT (no
//!   run solved the puzzle) becomes `L = ln max + (ln max - ln min) + 2 rope + ln 2` (max, min:
//!   the scope's largest and smallest finite ERTs): then every Walsh average with a puzzle
//!   that one algorithm never solves falls beyond the ROPE on that algorithm's losing side,
//!   whatever larger value one took, and two such puzzles in opposite directions cancel to
//!   their finite parts, so the result does not depend on the choice.
//! * A puzzle that neither algorithm of the pair solved in any run says nothing about how the
//!   two compare (a budget too small for both is not evidence that they are equivalent): it is
//!   left out of that pair's test, on both measures, and counted apart (`unsolved_by_both` in
//!   compare-bayes.csv). Kept, it would be a zero difference inside the ROPE and pull the
//!   posterior towards "practically equivalent". A pair with no informative puzzle has no test
//!   (empty probabilities) and the verdict "undecided".
//! * Per-puzzle success rate (successes / runs), ROPE `rope_success` (default 0.05). The rates
//!   lie on a grid (with 20 runs per puzzle, steps of 1/20), and so do the Walsh averages the
//!   test compares with the ROPE (steps of 1/40): a ROPE on that grid, as 0.05 is, would put
//!   whole classes of averages exactly on its edge, where the floating-point rounding of
//!   `k / 20` decides, and a ROPE moved by 1e-9 would flip verdicts. The rule: a difference
//!   is practically equivalent when `|d| <= rope` in exact arithmetic, and the test runs with
//!   the edge moved half a grid step outwards, to `rope + 1 / (4 R)` (R: the least common
//!   multiple of the runs per puzzle of the scope, every difference a multiple of 1 / R), so
//!   that no achievable average lies near the edge ([`success_rope`]). Run counts whose least
//!   common multiple exceeds 10^6 keep the stated ROPE.
//! * Decisions as Benavoli et al.: a probability of at least 0.95 decides; below, undecided.
//! * Seeds: each test's sampler is seeded from the spec's master seed and the test's place
//!   (measure, scope, pair), so the output is the same for any thread count.

use super::data::{Clock, Data};
use super::report::num;
use super::stats::{ert_blocks, Unit};
use crate::export::tables::Table;
use anyhow::Result;
use rayon::prelude::*;

/// What a test compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Per-puzzle ERT in evaluations: only between algorithms of one evaluation unit.
    Ert,
    Success,
    /// Per-puzzle ERT in the folder's seconds ([`Clock`]): between every pair.
    ErtSeconds,
}

impl Measure {
    /// The measure in compare-bayes.csv: "ert_cpu_seconds" (or "ert_wall_seconds"),
    /// "ert_evaluations", "success_rate".
    pub fn name(self, clock: Clock) -> &'static str {
        match (self, clock) {
            (Measure::Ert, _) => "ert_evaluations",
            (Measure::Success, _) => "success_rate",
            (Measure::ErtSeconds, Clock::Cpu) => "ert_cpu_seconds",
            (Measure::ErtSeconds, Clock::Wall) => "ert_wall_seconds",
        }
    }
    /// The measure in report.md's table.
    fn short(self, clock: Clock) -> String {
        match self {
            Measure::Ert => "ERT (evaluations)".into(),
            Measure::Success => "success".into(),
            Measure::ErtSeconds => format!("ERT ({})", clock.short()),
        }
    }
}

/// The measures in the order of the report: time first, then success, then evaluations.
pub const MEASURES: [Measure; 3] = [Measure::ErtSeconds, Measure::Success, Measure::Ert];

/// The fewest informative puzzles from which the rule may say "better" or "practically
/// equivalent": below it the verdict is "too few puzzles" (the probabilities are still given).
/// The rule's error rates, simulated with symmetric per-puzzle differences at 1 to 59 puzzles,
/// fall with the count to the level they keep with many puzzles, and reach it at 5 (never
/// fewer, whatever a simulation says): with 2 puzzles, differences that spread to 8 ROPE
/// widths around 0 made it say "better" about three times as often as with 59. Measured by `cargo run --release -p lab-stats --example bayes_decision_threshold`
/// (results-bench/bayes-decision-threshold.csv; a test reads the threshold back from the file).
pub const MIN_PUZZLES: usize = 5;

/// The verdict below [`MIN_PUZZLES`].
pub const TOO_FEW: &str = "too few puzzles";

/// Posterior samples kept for a simplex panel (the first ones of the 50 000).
pub const PLOT_SAMPLES: usize = 20_000;

/// The probability at which a region decides (Benavoli et al. 2017, §4).
pub const DECIDES: f64 = 0.95;

/// One Bayesian comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct BayesPair {
    pub measure: Measure,
    pub scope: usize,
    pub a: usize,
    pub b: usize,
    pub puzzles: usize,
    /// Puzzles of the scope that neither algorithm solved: left out of the test.
    pub unsolved_by_both: usize,
    /// False for ERT in evaluations between algorithms of different units: no test.
    pub comparable: bool,
    /// The ROPE's half-width on the test's scale (ln ERT or success rate).
    pub rope: f64,
    /// P(A better), P(equivalent), P(B better); None without an informative puzzle.
    pub probs: Option<[f64; 3]>,
    /// Posterior samples for the pooled scope's simplex plots (empty for the other scopes).
    pub samples: Vec<[f64; 3]>,
}

/// Every test: both measures, every scope with at least two puzzles (pooled last), every pair.
pub fn compute(data: &Data, ropes: (f64, f64), master_seed: u64) -> Result<Vec<BayesPair>> {
    let k = data.algorithms.len();
    let mut jobs = Vec::new();
    for measure in MEASURES {
        for s in 0..=data.scopes.len() {
            let rope = if measure == Measure::Success {
                ropes.1
            } else {
                ropes.0
            };
            let scores = scores(data, s, measure, rope);
            let test_rope = if measure == Measure::Success {
                success_rope(rope, runs_lcm(data, s))
            } else {
                rope
            };
            if scores.len() < 2 {
                continue;
            }
            let solved = success_blocks(data, s);
            for a in 0..k {
                for b in a + 1..k {
                    // Only the puzzles that one of the two solved at least once.
                    let informative: Vec<Vec<f64>> = (scores.iter().zip(&solved))
                        .filter(|(_, r)| r[a] > 0.0 || r[b] > 0.0)
                        .map(|(x, _)| x.clone())
                        .collect();
                    let left_out = scores.len() - informative.len();
                    jobs.push((measure, s, a, b, [rope, test_rope], informative, left_out));
                }
            }
        }
    }
    jobs.into_par_iter()
        .map(|(measure, s, a, b, [rope, test_rope], scores, left_out)| {
            let x: Vec<f64> = scores.iter().map(|r| r[a]).collect();
            let y: Vec<f64> = scores.iter().map(|r| r[b]).collect();
            let comparable = measure != Measure::Ert || data.same_unit(a, b);
            let mut pair = BayesPair {
                measure,
                scope: s,
                a,
                b,
                puzzles: x.len(),
                unsolved_by_both: left_out,
                comparable,
                rope,
                probs: None,
                samples: Vec::new(),
            };
            if x.is_empty() || !comparable {
                return Ok(pair);
            }
            let seed = seed_of(master_seed, [measure as u64, s as u64, a as u64, b as u64]);
            let p = lab_stats::bayesian_signed_rank(
                &x,
                &y,
                test_rope,
                lab_stats::BAYES_PRIOR,
                lab_stats::BAYES_SAMPLES,
                seed,
            )?;
            let mut samples = p.samples;
            samples.truncate(if s == data.scopes.len() {
                PLOT_SAMPLES
            } else {
                0
            });
            // Release the rest: 50 000 samples of every test would stay allocated otherwise.
            samples.shrink_to_fit();
            pair.probs = Some([p.p_left, p.p_rope, p.p_right]);
            pair.samples = samples;
            Ok(pair)
        })
        .collect()
}

/// The least common multiple of the runs per (puzzle, algorithm) of scope `s`, None above
/// 10^6 (or without runs): every difference of two success rates is a multiple of its
/// inverse.
fn runs_lcm(data: &Data, s: usize) -> Option<u64> {
    let pooled = s == data.scopes.len();
    let mut counts: std::collections::BTreeMap<(usize, usize), u64> = Default::default();
    for r in data.runs.iter().filter(|r| pooled || r.scope == s) {
        *counts.entry((r.puzzle, r.algorithm)).or_default() += 1;
    }
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let mut l = 1u64;
    for &n in counts.values() {
        l = l / gcd(l, n) * n;
        if l > 1_000_000 {
            return None;
        }
    }
    (!counts.is_empty()).then_some(l)
}

/// The ROPE the success test runs with: `rope` rounded to the grid of `1 / (2 R)` on which the
/// Walsh averages lie (a value within 1e-6 of a grid point counts as on it), plus half a
/// step, so that averages with `|d| <= rope` are inside and no average is near the edge.
/// Without a grid (`None`), `rope` itself.
pub fn success_rope(rope: f64, runs_lcm: Option<u64>) -> f64 {
    let Some(r) = runs_lcm else {
        return rope;
    };
    let step = 1.0 / (2.0 * r as f64);
    ((rope / step + 1e-6).floor() + 0.5) * step
}

/// A test's seed: the master seed and its place, mixed by SplitMix64's finaliser.
fn seed_of(master: u64, place: [u64; 4]) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    place.iter().fold(mix(master ^ 0xba7e_5000), |h, &p| {
        mix(h.wrapping_add(0x9e37_79b9_7f4a_7c15).wrapping_add(p))
    })
}

/// Per puzzle (rows) and algorithm: the scores the test compares, higher is better: -ln ERT
/// (an infinite ERT as `-L`, see the module docs) or the success rate.
pub fn scores(data: &Data, s: usize, measure: Measure, rope: f64) -> Vec<Vec<f64>> {
    match measure {
        Measure::Ert | Measure::ErtSeconds => {
            let unit = match measure {
                Measure::Ert => Unit::Evaluations,
                _ => Unit::Seconds,
            };
            // runs.csv keeps times to the microsecond: an ERT below it (every run of a puzzle
            // timed 0) counts as 1 microsecond, so that its logarithm is finite.
            let floor = if unit == Unit::Seconds { 1e-6 } else { 0.0 };
            let blocks: Vec<Vec<f64>> = (ert_blocks(data, s, unit).iter())
                .map(|r| r.iter().map(|&e| e.max(floor)).collect())
                .collect();
            let finite = || blocks.iter().flatten().copied().filter(|x| x.is_finite());
            let max = finite().fold(f64::NEG_INFINITY, f64::max).ln();
            let min = finite().fold(f64::INFINITY, f64::min).ln();
            let cap = if max.is_finite() {
                max + (max - min) + 2.0 * rope + std::f64::consts::LN_2
            } else {
                0.0
            };
            let score = |e: f64| if e.is_finite() { -e.ln() } else { -cap };
            blocks
                .iter()
                .map(|r| r.iter().map(|&e| score(e)).collect())
                .collect()
        }
        Measure::Success => success_blocks(data, s),
    }
}

/// Success rate of every (puzzle of scope `s`, algorithm), puzzles in index order.
pub(super) fn success_blocks(data: &Data, s: usize) -> Vec<Vec<f64>> {
    let pooled = s == data.scopes.len();
    let k = data.algorithms.len();
    let mut counts: std::collections::BTreeMap<usize, Vec<(u64, u64)>> = Default::default();
    for r in data.runs.iter().filter(|r| pooled || r.scope == s) {
        let c = counts.entry(r.puzzle).or_insert_with(|| vec![(0, 0); k]);
        c[r.algorithm].0 += u64::from(r.solved);
        c[r.algorithm].1 += 1;
    }
    counts
        .into_values()
        .map(|c| c.iter().map(|&(k, n)| k as f64 / n.max(1) as f64).collect())
        .collect()
}

/// The decision of a test: the region with probability >= [`DECIDES`], else "undecided" (and
/// always without an informative puzzle).
pub fn verdict(data: &Data, p: &BayesPair) -> String {
    if !p.comparable {
        return super::report::NOT_COMPARABLE.into();
    }
    let Some([pa, pe, pb]) = p.probs else {
        return "undecided".into();
    };
    if p.puzzles < MIN_PUZZLES && pa.max(pe).max(pb) >= DECIDES {
        TOO_FEW.into()
    } else if pa >= DECIDES {
        format!("{} better", data.algorithms[p.a])
    } else if pb >= DECIDES {
        format!("{} better", data.algorithms[p.b])
    } else if pe >= DECIDES {
        "practically equivalent".into()
    } else {
        "undecided".into()
    }
}

/// One of a test's probabilities to 3 decimals; empty without a test.
fn prob(p: &BayesPair, i: usize) -> String {
    p.probs.map_or(String::new(), |q| num(q[i], 3))
}

/// compare-bayes.csv: every test.
pub fn table(data: &Data, tests: &[BayesPair]) -> Table {
    let header = [
        "measure",
        "scope",
        "algorithm_a",
        "algorithm_b",
        "puzzles",
        "rope",
        "p_a_better",
        "p_equivalent",
        "p_b_better",
        "verdict",
        "unsolved_by_both",
    ];
    let names = data.scope_names();
    let rows = tests
        .iter()
        .map(|p| {
            vec![
                p.measure.name(data.clock).to_string(),
                names[p.scope].clone(),
                data.algorithms[p.a].clone(),
                data.algorithms[p.b].clone(),
                p.puzzles.to_string(),
                num(p.rope, 4),
                prob(p, 0),
                prob(p, 1),
                prob(p, 2),
                verdict(data, p),
                p.unsolved_by_both.to_string(),
            ]
        })
        .collect();
    Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
    }
}

/// The simplex charts of the pooled scope, one figure per measure.
pub fn draw(data: &Data, tests: &[BayesPair], dir: &std::path::Path) -> Result<()> {
    let seconds = format!("ERT in {} (log scale)", data.clock.words());
    for (measure, file, what) in [
        (
            Measure::Ert,
            "compare-bayes-ert",
            "ERT in evaluations (log scale)",
        ),
        (Measure::Success, "compare-bayes-success", "success rate"),
        (
            Measure::ErtSeconds,
            "compare-bayes-ert-seconds",
            seconds.as_str(),
        ),
    ] {
        let panels: Vec<lab_charts::SimplexPanel> = tests
            .iter()
            .filter(|p| p.measure == measure && p.scope == data.scopes.len())
            .filter_map(|p| {
                Some(lab_charts::SimplexPanel {
                    title: format!("{} vs {}", data.algorithms[p.a], data.algorithms[p.b]),
                    left: data.algorithms[p.a].clone(),
                    right: data.algorithms[p.b].clone(),
                    probs: p.probs?,
                    samples: p.samples.clone(),
                })
            })
            .collect();
        if panels.is_empty() {
            continue;
        }
        let fig = lab_charts::SimplexFigure {
            // One line: a quick run puts its mark in front.
            title: crate::reports::quick::title_line(format!(
                "Bayesian signed-rank test on per-puzzle {what}, all puzzles"
            )),
            panels,
            columns: 3,
        };
        let (svg, png) = (
            dir.join(format!("{file}.svg")),
            dir.join(format!("{file}.png")),
        );
        crate::reports::warnings::chart(&svg, &png, lab_charts::render_simplex(&fig, &svg, &png))?;
    }
    Ok(())
}

/// The report's section: method, the pooled tests as a table, the charts.
pub fn markdown(data: &Data, tests: &[BayesPair], ropes: (f64, f64)) -> String {
    use std::fmt::Write as _;
    let pooled = data.scopes.len();
    if !tests.iter().any(|p| p.scope == pooled) {
        return String::new();
    }
    let mut md = format!(
        "\n## Bayesian comparison with a region of practical equivalence\n\nBayesian signed-rank test (Benavoli, Corani, Demšar & Zaffalon, JMLR 2017; as baycomp 1.0.3's `SignedRankTest`: prior strength 0.5 at 0, {} posterior samples, seeded) between every pair, over the puzzles: on per-puzzle ERT in {clock} on a log scale (a puzzle no run of an algorithm solved counts as beyond every finite ERT; ROPE: ERTs within a factor of {:.3}, spec key `rope_ert_ratio`), on per-puzzle success rate (ROPE: {:.3}, `rope_success`), and on per-puzzle ERT in evaluations between algorithms of one evaluation unit only (compare-bayes.csv says \"{}\" for the others). P(A) is the probability that A is better by more than the ROPE, P(=) that the two are practically equivalent, P(B) that B is; a probability of at least {DECIDES} decides, but only over at least {MIN_PUZZLES} informative puzzles: below, the verdict is \"{TOO_FEW}\" (the probabilities are shown), since the rule's error rates, measured by simulating it with symmetric per-puzzle differences (results-bench/bayes-decision-threshold.csv), exceed 0.10 with fewer. Every scope in compare-bayes.csv; all puzzles here. Unlike a p-value, P(=) can say that two algorithms do not differ in practice. A puzzle neither algorithm of a pair solved is left out of that pair's test (it says nothing about how the two compare) and counted in the last column; a pair with no other puzzle is undecided.\n\n| Measure | A | B | Puzzles | P(A) | P(=) | P(B) | Verdict | Puzzles neither solved |\n|---|---|---|---|---|---|---|---|---|\n",
        lab_stats::BAYES_SAMPLES,
        ropes.0.exp(),
        ropes.1,
        super::report::NOT_COMPARABLE,
        clock = data.clock.words(),
    );
    for p in tests.iter().filter(|p| p.scope == pooled && p.comparable) {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            p.measure.short(data.clock),
            data.algorithms[p.a],
            data.algorithms[p.b],
            p.puzzles,
            prob(p, 0),
            prob(p, 1),
            prob(p, 2),
            verdict(data, p),
            p.unsolved_by_both
        );
    }
    md.push_str(&format!("\nEach triangle shows one pair's posterior: a point per sample of (P(A better), P(equivalent), P(B better)), nearer a corner the more mass that region has; the lines split the triangle where each region is the most probable, and the numbers are the fractions of samples in each part.\n\n![Bayesian ERT in seconds](compare-bayes-ert-seconds.png)\n\n![Bayesian success](compare-bayes-success.png)\n{}", if tests.iter().any(|p| p.measure == Measure::Ert && p.scope == pooled && p.probs.is_some()) { "\n![Bayesian ERT](compare-bayes-ert.png)\n" } else { "" }));
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reports::compare::data::Run;

    fn run(algorithm: usize, puzzle: usize, solved: bool, evaluations: u64) -> Run {
        Run {
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

    /// The value standing for an infinite ERT does not change the test: any larger one gives
    /// the same posterior, sample for sample.
    #[test]
    fn an_infinite_ert_counts_the_same_whatever_larger_value_stands_for_it() {
        // Puzzle 0: both solve; 1: only A; 2: only B; 3: neither; 4, 5: both, B slower.
        let solved = [(true, true), (true, false), (false, true), (false, false)];
        let mut runs = Vec::new();
        for (p, &(a, b)) in solved
            .iter()
            .chain(&[(true, true), (true, true)])
            .enumerate()
        {
            let e = 1000 * (p as u64 + 1);
            runs.push(run(0, p, a, e));
            runs.push(run(1, p, b, if p >= 4 { 3 * e } else { e + 100 }));
        }
        let data = Data {
            algorithms: vec!["a".into(), "b".into()],
            units: vec!["u".into(); 2],
            runs,
            budget: 10_000,
            ..Data::default()
        };
        let rope = 1.1f64.ln();
        let s = scores(&data, 0, Measure::Ert, rope);
        assert_eq!(s.len(), 6);
        // Puzzle 3 (neither solves) is a zero difference, the others finite.
        assert_eq!(s[3][0], s[3][1]);
        let cap = -s[1][1];
        let test = |scores: &[Vec<f64>]| {
            let x: Vec<f64> = scores.iter().map(|r| r[0]).collect();
            let y: Vec<f64> = scores.iter().map(|r| r[1]).collect();
            lab_stats::bayesian_signed_rank(&x, &y, rope, 0.5, 2000, 9).unwrap()
        };
        let larger: Vec<Vec<f64>> = s
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&v| if v == -cap { -10.0 * cap } else { v })
                    .collect()
            })
            .collect();
        let (p, q) = (test(&s), test(&larger));
        assert_eq!(
            [p.p_left, p.p_rope, p.p_right],
            [q.p_left, q.p_rope, q.p_right]
        );
        let pairs = p.samples.iter().flatten().zip(q.samples.iter().flatten());
        assert!(pairs.into_iter().all(|(a, b)| (a - b).abs() < 1e-12));
        // Success rates: per puzzle, in puzzle order.
        let r = scores(&data, 0, Measure::Success, 0.05);
        assert_eq!(r[1], vec![1.0, 0.0]);
    }

    /// Puzzles neither algorithm of a pair solved are no evidence of equivalence: they are
    /// left out of the pair's test and counted apart; with none left the verdict is undecided.
    #[test]
    fn puzzles_neither_solved_are_left_out_of_the_test() {
        // a and b never solve any of 10 puzzles; c solves every run; on two more puzzles a
        // solves a bit faster than b (ERT within the ROPE, same success rate).
        let mut runs = Vec::new();
        for p in 0..10 {
            for i in 0..4 {
                runs.push(run(0, p, false, 10_000));
                runs.push(run(1, p, false, 10_000));
                runs.push(run(2, p, true, 500 + i));
            }
        }
        for p in 10..12 {
            for i in 0..4 {
                runs.push(run(0, p, true, 1000 + i));
                runs.push(run(1, p, true, 1010 + i));
                runs.push(run(2, p, true, 500 + i));
            }
        }
        let data = Data {
            algorithms: vec!["a".into(), "b".into(), "c".into()],
            units: vec!["u".into(); 3],
            runs,
            budget: 10_000,
            ..Data::default()
        };
        let tests = compute(&data, (1.1f64.ln(), 0.05), 7).unwrap();
        let t = table(&data, &tests);
        let col = |name: &str| t.header.iter().position(|h| h == name).unwrap();
        for measure in ["ert_evaluations", "success_rate"] {
            let ab = (t.rows.iter())
                .find(|r| r[0] == measure && r[2] == "a" && r[3] == "b")
                .unwrap();
            // Two informative puzzles only: the ten unsolved ones would have made it
            // "practically equivalent" from zero differences.
            assert_eq!(ab[col("puzzles")], "2", "{ab:?}");
            assert_eq!(ab[col("unsolved_by_both")], "10", "{ab:?}");
            let ac = (t.rows.iter())
                .find(|r| r[0] == measure && r[2] == "a" && r[3] == "c")
                .unwrap();
            assert_eq!(ac[col("puzzles")], "12", "{ac:?}");
            assert_eq!(ac[col("unsolved_by_both")], "0", "{ac:?}");
            assert_eq!(ac[col("verdict")], "c better", "{ac:?}");
        }
        // Only the puzzles neither solves: no test, undecided.
        let only: Data = Data {
            runs: (data.runs.iter())
                .filter(|r| r.puzzle < 10)
                .cloned()
                .collect(),
            ..data.clone()
        };
        for p in compute(&only, (1.1f64.ln(), 0.05), 7).unwrap() {
            if (p.a, p.b) == (0, 1) {
                assert_eq!(p.probs, None);
                assert_eq!((p.puzzles, p.unsolved_by_both), (0, 10));
                assert_eq!(verdict(&only, &p), "undecided");
            }
        }
    }

    /// [`MIN_PUZZLES`] is the threshold the committed simulation of the rule measures: the
    /// smallest count of puzzles (at least 5) from which no count's largest error rate is
    /// significantly above the rule's error with many puzzles (the largest over 20 puzzles and
    /// more), as the example that wrote the file computes it.
    #[test]
    fn the_puzzle_threshold_is_the_measured_one() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../results-bench/bayes-decision-threshold.csv");
        let mut rd = csv::Reader::from_path(&path).unwrap();
        let h = rd.headers().unwrap().clone();
        let col = |n: &str| h.iter().position(|x| x == n).unwrap();
        let (cp, ce, cr) = (col("puzzles"), col("error"), col("replications"));
        let mut worst: std::collections::BTreeMap<usize, f64> = Default::default();
        let mut reps = 0.0;
        for row in rd.records() {
            let row = row.unwrap();
            let n: usize = row[cp].parse().unwrap();
            let e: f64 = row[ce].parse().unwrap();
            reps = row[cr].parse().unwrap();
            let w = worst.entry(n).or_default();
            *w = w.max(e);
        }
        let plateau = (worst.iter())
            .filter(|(&n, _)| n >= 20)
            .fold(0.0f64, |m, (_, &e)| m.max(e));
        let tolerance = 1.645 * (2.0 * plateau * (1.0 - plateau) / reps).sqrt();
        let mut threshold = *worst.keys().last().unwrap();
        for (&n, &e) in worst.iter().rev() {
            if e > plateau + tolerance {
                break;
            }
            threshold = n;
        }
        assert_eq!(threshold.max(5), MIN_PUZZLES, "{worst:?}");
        // Below it the rule errs far more often: with 2 puzzles, over twice the plateau.
        assert!(worst[&2] > 2.0 * plateau, "{worst:?}");
    }

    /// A success ROPE on the grid of the rates (0.05 with 20 runs per puzzle) moved by 1e-9
    /// either way changes no probability: the edge is half a grid step from every Walsh
    /// average. B solves one run more than A on every puzzle (differences of exactly 0.05):
    /// with the ROPE applied as stated, 0.05 + 1e-9 made them "practically equivalent" and
    /// 0.05 - 1e-9 "b better".
    #[test]
    fn a_success_rope_on_the_grid_is_stable_under_a_tiny_shift() {
        let mut runs = Vec::new();
        for p in 0..MIN_PUZZLES.max(9) {
            for i in 0..20 {
                runs.push(run(0, p, i < 10 + p % 3, 1000));
                runs.push(run(1, p, i < 11 + p % 3, 1000));
            }
        }
        let data = Data {
            algorithms: vec!["a".into(), "b".into()],
            units: vec!["u".into(); 2],
            runs,
            budget: 10_000,
            ..Data::default()
        };
        assert_eq!(runs_lcm(&data, 0), Some(20));
        assert_eq!(success_rope(0.05, Some(20)), 0.0625);
        let verdicts = |rope: f64| {
            let tests = compute(&data, (1.1f64.ln(), rope), 3).unwrap();
            (tests.iter())
                .filter(|p| p.measure == Measure::Success)
                .map(|p| (verdict(&data, p), p.probs))
                .collect::<Vec<_>>()
        };
        let at = verdicts(0.05);
        assert_eq!(at[0].0, "practically equivalent");
        assert_eq!(verdicts(0.05 + 1e-9), at);
        assert_eq!(verdicts(0.05 - 1e-9), at);
    }
}

//! One answer per pair: for every pair of algorithms (per puzzle set and pooled), the facts a
//! reader asks for (success with Wilson intervals, the time to solve in the folder's seconds:
//! Kaplan-Meier median with its interval and ERT with its bootstrap interval) and one verdict
//! sentence that puts the report's tests side by side and says why they may seem to disagree:
//!
//! * overall success: Fisher's exact test on the pooled runs (compare-pairs.csv, Holm);
//! * time to solve in seconds: the log-rank test (compare-logrank.csv, Holm);
//! * per puzzle: the Bayesian signed-rank tests on success rate and on ERT in seconds
//!   (compare-bayes.csv), which weigh every puzzle alike where the pooled tests weigh runs;
//! * in evaluations only between algorithms of one unit, else "not comparable in evaluations".
//!
//! A pooled test can see a difference that lives on a few puzzles while the per-puzzle test
//! calls the pair practically equivalent because most puzzles do not differ: the sentence says
//! so with the count of puzzles on which the two are within the ROPE. Where a test finds no
//! difference, the sentence gives its power: the smallest success difference Fisher's test
//! detects with 80 % power against B's rate ([`lab_stats::fisher_detectable`]), and the hazard
//! ratio the log-rank test detects with 80 % power (Schoenfeld 1981: `ln HR = (z_{1-a/2} +
//! z_{0.8}) / sqrt(D p (1 - p))`, D the solves of both, p the share of A's runs), both at
//! Holm's strictest level (0.05 over the family's tests), at which the power holds whatever
//! the other pairs' p-values.
//!
//! `compare-answers.csv` holds every scope; report.md the pooled one; `sudoku-lab compare DIR
//! A B` prints one pair's paragraph from the CSV.

use super::bayes::{self, BayesPair, Measure, DECIDES, MIN_PUZZLES};
use super::data::{Data, Success};
use super::report::{num, pval, seconds, NOT_COMPARABLE};
use super::stats::{Pair, Unit};
use super::survival::{Curve, Survival};
use crate::export::tables::Table;
use lab_stats::Reached;

/// The power at which a test's detectable difference is stated.
pub const POWER: f64 = 0.8;

/// What the per-puzzle Bayesian test of a pair said.
#[derive(Debug, Clone, PartialEq)]
pub enum PerPuzzle {
    /// No test: no informative puzzle (neither solved anything) or not comparable.
    None,
    /// Fewer than [`MIN_PUZZLES`] informative puzzles (the rule would have decided).
    TooFew(usize),
    Undecided([f64; 3]),
    /// 0 = A, 1 = B better, with its probability.
    Better(usize, f64),
    Equivalent(f64),
}

/// The facts the verdict sentence is made of (a pure input: the sentence logic is tested on
/// hand-made facts).
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    pub names: [String; 2],
    /// Solved runs and runs of A and B.
    pub solved: [(u64, u64); 2],
    pub fisher_holm: f64,
    /// With no significant difference: the success-rate differences (points, below and above
    /// B's rate) Fisher's test detects with 80 % power.
    pub detectable_points: (Option<f64>, Option<f64>),
    /// The log-rank test in seconds: Holm-adjusted p and which one solves sooner (0, 1);
    /// None when untestable (no solve while both are at risk, or no solve at all).
    pub logrank: Option<(f64, usize)>,
    /// The hazard ratio the log-rank test detects with 80 % power.
    pub detectable_hazard_ratio: Option<f64>,
    pub clock: &'static str,
    pub success_per_puzzle: PerPuzzle,
    /// Of the informative puzzles: how many, how many with success rates within the ROPE,
    /// and how many both solve in every run.
    pub puzzles: (usize, usize, usize),
    pub time_per_puzzle: PerPuzzle,
    /// In evaluations: None across units (with the two units), else the Mann-Whitney verdict.
    pub evaluations: Result<String, (String, String)>,
}

/// The verdict sentence: overall success first, in plain words, then the time to solve, the
/// per-puzzle view reconciled with the pooled one, and evaluations.
pub fn sentence(f: &Facts) -> String {
    let [a, b] = &f.names;
    let [(ka, na), (kb, nb)] = f.solved;
    let mut parts = Vec::new();
    let differs = f.fisher_holm < 0.05;
    let winner = if ka as f64 / na.max(1) as f64 >= kb as f64 / nb.max(1) as f64 {
        0
    } else {
        1
    };
    parts.push(if ka + kb == 0 {
        format!("Neither solves a run ({ka}/{na} and {kb}/{nb})")
    } else if ka == na && kb == nb {
        format!("Both solve every run ({ka}/{na} and {kb}/{nb})")
    } else if differs {
        let (w, (kw, nw), (kl, nl)) = match winner {
            0 => (a, f.solved[0], f.solved[1]),
            _ => (b, f.solved[1], f.solved[0]),
        };
        format!(
            "{w} solves more runs overall ({kw}/{nw} against {kl}/{nl}, Holm p {})",
            p_text(f.fisher_holm)
        )
    } else {
        format!(
            "Neither solves detectably more runs overall ({a} {ka}/{na}, {b} {kb}/{nb}, Holm p {}{})",
            p_text(f.fisher_holm),
            detectable_text(f.detectable_points, b)
        )
    });
    match f.logrank {
        Some((p, sooner)) if p < 0.05 => parts.push(format!(
            "{} solves sooner in {} (log-rank, Holm p {})",
            f.names[sooner],
            f.clock,
            p_text(p)
        )),
        Some((p, _)) => parts.push(format!(
            "no difference in time to solve detected (log-rank in {}, Holm p {}{})",
            f.clock,
            p_text(p),
            f.detectable_hazard_ratio
                .map_or(String::new(), |hr| format!(
                "; it detects with 80 % power one solving {hr:.2} times as fast at every moment"
            ))
        )),
        None => {}
    }
    if let Some(s) = per_puzzle_success(f, differs, winner) {
        parts.push(s);
    }
    match &f.time_per_puzzle {
        PerPuzzle::None => {}
        other => parts.push(format!(
            "per puzzle in {}: {}",
            f.clock,
            per_puzzle_words(other, &f.names)
        )),
    }
    parts.push(match &f.evaluations {
        Ok(v) => format!("in evaluations (one unit): {v}"),
        Err((ua, ub)) => format!("{NOT_COMPARABLE} (units `{ua}` and `{ub}`)"),
    });
    parts.join("; ") + "."
}

/// The per-puzzle success clause, reconciled with the pooled test's answer.
fn per_puzzle_success(f: &Facts, differs: bool, winner: usize) -> Option<String> {
    let (n, within, both_always) = f.puzzles;
    Some(match &f.success_per_puzzle {
        PerPuzzle::None => return None,
        PerPuzzle::Equivalent(p) if differs => {
            let why = if 2 * both_always >= n {
                format!("both solve {both_always} of the {n} puzzles every time")
            } else {
                format!(
                    "their success rates are within the ROPE on {within} of the {n} puzzles"
                )
            };
            format!(
                "per puzzle practically equivalent in success (P = {p:.3}), because {why}: the overall difference comes from a few puzzles"
            )
        }
        PerPuzzle::Better(w, p) if differs && *w != winner => format!(
            "yet per puzzle {} is better in success (P = {p:.3}): the overall count is led by the puzzles where {} wins",
            f.names[*w], f.names[winner]
        ),
        PerPuzzle::Better(w, p) if differs => {
            format!("per puzzle too ({} better, P = {p:.3})", f.names[*w])
        }
        PerPuzzle::Better(w, p) => format!(
            "per puzzle {} is better in success (P = {p:.3}), which the pooled count does not detect",
            f.names[*w]
        ),
        other => format!("per puzzle in success: {}", per_puzzle_words(other, &f.names)),
    })
}

fn per_puzzle_words(p: &PerPuzzle, names: &[String; 2]) -> String {
    match p {
        PerPuzzle::None => String::new(),
        PerPuzzle::TooFew(n) => {
            format!("too few puzzles to decide ({n} informative, at least {MIN_PUZZLES} needed)")
        }
        PerPuzzle::Undecided([pa, pe, pb]) => {
            format!("undecided (P(A) {pa:.3}, P(=) {pe:.3}, P(B) {pb:.3})")
        }
        PerPuzzle::Better(w, p) => format!("{} better (P = {p:.3})", names[*w]),
        PerPuzzle::Equivalent(p) => format!("practically equivalent (P = {p:.3})"),
    }
}

/// "< 1e-4" or "= 0.0123".
fn p_text(p: f64) -> String {
    if p < 1e-4 {
        "< 1e-4".into()
    } else {
        format!("= {}", pval(p))
    }
}

fn detectable_text(d: (Option<f64>, Option<f64>), b: &str) -> String {
    let side = |x: Option<f64>, dir: &str| x.map(|x| format!("{x:.1} points {dir}"));
    let sides: Vec<String> = [side(d.0, "below"), side(d.1, "above")]
        .into_iter()
        .flatten()
        .collect();
    if sides.is_empty() {
        return "; with these runs no difference is detected with 80 % power".into();
    }
    format!(
        "; it detects with 80 % power a success rate {} {b}'s",
        sides.join(" or ")
    )
}

/// The per-puzzle reading of a Bayesian test.
pub fn per_puzzle(t: Option<&BayesPair>) -> PerPuzzle {
    let Some(t) = t.filter(|t| t.comparable) else {
        return PerPuzzle::None;
    };
    let Some([pa, pe, pb]) = t.probs else {
        return PerPuzzle::None;
    };
    if t.puzzles < MIN_PUZZLES && pa.max(pe).max(pb) >= DECIDES {
        PerPuzzle::TooFew(t.puzzles)
    } else if pa >= DECIDES {
        PerPuzzle::Better(0, pa)
    } else if pb >= DECIDES {
        PerPuzzle::Better(1, pb)
    } else if pe >= DECIDES {
        PerPuzzle::Equivalent(pe)
    } else {
        PerPuzzle::Undecided([pa, pe, pb])
    }
}

/// One pair's answer.
#[derive(Debug, Clone)]
pub struct Answer {
    pub scope: usize,
    pub success: [Success; 2],
    pub curves: [Option<Curve>; 2],
    pub facts: Facts,
    pub sentence: String,
}

/// The inputs an answer is read from.
pub struct Tests<'a> {
    pub pairs: &'a [Pair],
    pub survival: &'a Survival,
    pub bayes: &'a [BayesPair],
    pub rope_success: f64,
    /// compare-pairs.csv's verdict in evaluations of a pair (index into `pairs`).
    pub evaluations_verdict: &'a dyn Fn(&Pair) -> String,
}

/// Every pair's answer, every scope (pooled last).
pub fn compute(data: &Data, t: &Tests) -> Vec<Answer> {
    let fisher_level = 0.05 / t.pairs.len().max(1) as f64;
    let logrank_tests = (t.survival.tests.iter())
        .filter(|x| x.unit == Unit::Seconds && x.test.is_some())
        .count();
    let logrank_level = 0.05 / logrank_tests.max(1) as f64;
    t.pairs
        .iter()
        .map(|p| {
            let (s, a, b) = (p.scope, p.a, p.b);
            let find = |m: Measure| {
                (t.bayes.iter()).find(|x| x.measure == m && x.scope == s && x.a == a && x.b == b)
            };
            let lr = (t.survival.tests.iter())
                .find(|x| x.unit == Unit::Seconds && x.scope == s && x.a == a && x.b == b);
            let logrank = lr.and_then(|x| {
                let test = x.test?;
                let sooner = if test.observed_a > test.expected_a {
                    0
                } else {
                    1
                };
                Some((x.holm?, sooner))
            });
            let (sa, sb) = (p.success_a, p.success_b);
            let detectable_points = if p.fisher_holm < 0.05 {
                (None, None)
            } else {
                detectable(sa, sb, fisher_level)
            };
            let share = sa.runs as f64 / (sa.runs + sb.runs).max(1) as f64;
            let events = (sa.successes + sb.successes) as f64;
            let detectable_hazard_ratio = (events > 0.0 && share > 0.0 && share < 1.0).then(|| {
                let z = lab_stats::normal_quantile(1.0 - logrank_level / 2.0)
                    + lab_stats::normal_quantile(POWER);
                (z / (events * share * (1.0 - share)).sqrt()).exp()
            });
            let facts = Facts {
                names: [data.algorithms[a].clone(), data.algorithms[b].clone()],
                solved: [(sa.successes, sa.runs), (sb.successes, sb.runs)],
                fisher_holm: p.fisher_holm,
                detectable_points,
                logrank,
                detectable_hazard_ratio,
                clock: data.clock.short(),
                success_per_puzzle: per_puzzle(find(Measure::Success)),
                puzzles: puzzle_counts(data, s, a, b, t.rope_success),
                time_per_puzzle: per_puzzle(find(Measure::ErtSeconds)),
                evaluations: if p.comparable {
                    Ok((t.evaluations_verdict)(p))
                } else {
                    Err((data.units[a].clone(), data.units[b].clone()))
                },
            };
            let curve = |x: usize| t.survival.curve(Unit::Seconds, s, x).cloned();
            Answer {
                scope: s,
                success: [sa, sb],
                curves: [curve(a), curve(b)],
                sentence: sentence(&facts),
                facts,
            }
        })
        .collect()
}

/// The success-rate differences from B's rate (points below, above) that Fisher's test of A's
/// runs against B's detects with 80 % power at `level`.
fn detectable(a: Success, b: Success, level: f64) -> (Option<f64>, Option<f64>) {
    let Ok(d) = lab_stats::fisher_detectable(
        a.runs,
        b.successes,
        b.runs,
        level,
        POWER,
        lab_stats::Sides::Two,
    ) else {
        return (None, None);
    };
    let rate = b.successes as f64 / b.runs.max(1) as f64;
    (
        d.lower.map(|l| 100.0 * (rate - l)),
        d.upper.map(|u| 100.0 * (u - rate)),
    )
}

/// Of the puzzles of scope `s` that A or B solved at least once: how many, on how many their
/// success rates differ by at most `rope`, and how many both solve in every run.
fn puzzle_counts(data: &Data, s: usize, a: usize, b: usize, rope: f64) -> (usize, usize, usize) {
    let rates = bayes::success_blocks(data, s);
    let informative: Vec<&Vec<f64>> = (rates.iter())
        .filter(|r| r[a] > 0.0 || r[b] > 0.0)
        .collect();
    let within = (informative.iter())
        .filter(|r| (r[a] - r[b]).abs() <= rope + 1e-9)
        .count();
    let always = (informative.iter())
        .filter(|r| r[a] == 1.0 && r[b] == 1.0)
        .count();
    (informative.len(), within, always)
}

/// Median [interval] and ERT [interval] of a curve in seconds.
fn time_text(c: Option<&Curve>) -> (String, String) {
    let Some(c) = c else {
        return (String::new(), String::new());
    };
    let r = |x: Reached| match x {
        Reached::At(t) => seconds(t),
        Reached::NotReached => "not reached".into(),
    };
    let m = c.median;
    let median = if m.low == Reached::NotReached {
        "not reached".into()
    } else {
        format!("{} [{}, {}]", r(m.median), r(m.low), r(m.high))
    };
    let ert = if c.ert.is_finite() {
        format!(
            "{} [{}, {}]",
            seconds(c.ert),
            seconds(c.ert_ci.0),
            seconds(c.ert_ci.1)
        )
    } else {
        "inf (no run solved)".into()
    };
    (median, ert)
}

/// The paragraph of one answer (report.md, `sudoku-lab pair`).
pub fn paragraph(data: &Data, x: &Answer) -> String {
    let names = data.scope_names();
    let [a, b] = &x.facts.names;
    let rate = |s: &Success| {
        format!(
            "{}/{} ({:.0}-{:.0} %)",
            s.successes,
            s.runs,
            100.0 * s.ci_low,
            100.0 * s.ci_high
        )
    };
    let (ma, ea) = time_text(x.curves[0].as_ref());
    let (mb, eb) = time_text(x.curves[1].as_ref());
    let clock = data.clock.short();
    format!(
        "**{a} against {b}** ({}). Runs solved (Wilson 95 %): {a} {}, {b} {}. Time to solve in {clock}, median [95 %] (Kaplan-Meier, unsolved runs censored): {a} {ma}, {b} {mb}; ERT [95 % bootstrap]: {a} {ea}, {b} {eb}. {}",
        if x.scope == data.scopes.len() {
            "all puzzles".to_string()
        } else {
            format!("puzzle set {}", names[x.scope])
        },
        rate(&x.success[0]),
        rate(&x.success[1]),
        x.sentence
    )
}

/// compare-answers.csv's columns, with the folder's seconds (`clock`) in their names.
fn header(c: &str) -> Vec<String> {
    let mut header: Vec<String> = [
        "scope",
        "algorithm_a",
        "algorithm_b",
        "successes_a",
        "runs_a",
        "success_ci_low_a",
        "success_ci_high_a",
        "successes_b",
        "runs_b",
        "success_ci_low_b",
        "success_ci_high_b",
        "fisher_p_holm",
        "detectable_points_below_b",
        "detectable_points_above_b",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for side in ["a", "b"] {
        for col in [
            "median",
            "median_ci_low",
            "median_ci_high",
            "ert",
            "ert_ci_low",
            "ert_ci_high",
        ] {
            header.push(format!("{col}_{c}_{side}"));
        }
    }
    header.extend([
        format!("logrank_{c}_p_holm"),
        "detectable_hazard_ratio".into(),
        "per_puzzle_success".into(),
        format!("per_puzzle_ert_{c}"),
        "same_evaluation_unit".into(),
        "evaluations".into(),
        "verdict".into(),
        "paragraph".into(),
    ]);
    header
}

/// compare-answers.csv: every scope and pair.
pub fn table(data: &Data, answers: &[Answer]) -> Table {
    let header = header(data.clock.csv());
    let names = data.scope_names();
    let opt = |x: Option<f64>, d: usize| x.map_or(String::new(), |v| num(v, d));
    let rows = answers
        .iter()
        .map(|x| {
            let f = &x.facts;
            let mut row = vec![
                names[x.scope].clone(),
                f.names[0].clone(),
                f.names[1].clone(),
            ];
            for s in &x.success {
                row.extend([
                    s.successes.to_string(),
                    s.runs.to_string(),
                    num(s.ci_low, 3),
                    num(s.ci_high, 3),
                ]);
            }
            row.extend([
                pval(f.fisher_holm),
                opt(f.detectable_points.0, 1),
                opt(f.detectable_points.1, 1),
            ]);
            for c in &x.curves {
                row.extend(curve_cells(c.as_ref()));
            }
            row.extend([
                f.logrank.map_or(String::new(), |l| pval(l.0)),
                opt(f.detectable_hazard_ratio, 2),
                per_puzzle_words(&f.success_per_puzzle, &f.names),
                per_puzzle_words(&f.time_per_puzzle, &f.names),
                f.evaluations.is_ok().to_string(),
                match &f.evaluations {
                    Ok(v) => v.clone(),
                    Err(_) => NOT_COMPARABLE.into(),
                },
                x.sentence.clone(),
                paragraph(data, x),
            ]);
            row
        })
        .collect();
    Table { header, rows }
}

fn curve_cells(c: Option<&Curve>) -> [String; 6] {
    let Some(c) = c else {
        return Default::default();
    };
    let r = |x: Reached| match x {
        Reached::At(t) => num(t, 4),
        Reached::NotReached => "not reached".into(),
    };
    [
        r(c.median.median),
        r(c.median.low),
        r(c.median.high),
        num(c.ert, 4),
        num(c.ert_ci.0, 4),
        num(c.ert_ci.1, 4),
    ]
}

/// report.md's section: one paragraph per pair over all puzzles.
pub fn markdown(data: &Data, answers: &[Answer]) -> String {
    let pooled = data.scopes.len();
    let mut md = format!(
        "\n## One answer per pair\n\nFor each pair over all puzzles (every puzzle set in compare-answers.csv; `sudoku-lab compare DIR A B` prints one): success, time to solve in {}, and one verdict that puts the tests side by side. \"Overall\" pools the runs (Fisher's exact test, Holm over compare-pairs.csv); \"per puzzle\" weighs every puzzle alike (the Bayesian signed-rank test, compare-bayes.csv), so the two can differ: a difference on a few puzzles shows overall while most puzzles are practically equivalent. Where a test finds no difference, the verdict gives what it would have detected with 80 % power at Holm's strictest level.\n\n",
        data.clock.words()
    );
    for x in answers.iter().filter(|x| x.scope == pooled) {
        md.push_str(&paragraph(data, x));
        md.push_str("\n\n");
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts {
        Facts {
            names: ["lewis-sa".into(), "reseda".into()],
            solved: [(1177, 1180), (1100, 1180)],
            fisher_holm: 1e-6,
            detectable_points: (None, None),
            logrank: Some((1e-5, 0)),
            detectable_hazard_ratio: Some(1.2),
            clock: "CPU s",
            success_per_puzzle: PerPuzzle::Equivalent(0.97),
            puzzles: (59, 50, 45),
            time_per_puzzle: PerPuzzle::Better(0, 0.99),
            evaluations: Err(("lewis-sa".into(), "reseda".into())),
        }
    }

    /// A case: the facts, what the sentence must say and what it must not.
    type Case = (Facts, &'static [&'static str], &'static [&'static str]);

    /// The pooled test against the per-puzzle one.
    fn reconciling_cases() -> Vec<Case> {
        let base = facts();
        vec![
            (
                base.clone(),
                &[
                    "lewis-sa solves more runs overall (1177/1180 against 1100/1180, Holm p < 1e-4)",
                    "lewis-sa solves sooner in CPU s",
                    "per puzzle practically equivalent in success (P = 0.970), because both solve 45 of the 59 puzzles every time",
                    "per puzzle in CPU s: lewis-sa better (P = 0.990)",
                    "not comparable in evaluations (units `lewis-sa` and `reseda`).",
                ],
                &["neither"],
            ),
            (
                Facts {
                    puzzles: (59, 50, 10),
                    ..base.clone()
                },
                &["because their success rates are within the ROPE on 50 of the 59 puzzles"],
                &["every time"],
            ),
            (
                Facts {
                    fisher_holm: 0.4,
                    detectable_points: (Some(3.2), Some(1.5)),
                    success_per_puzzle: PerPuzzle::Better(1, 0.96),
                    ..base.clone()
                },
                &[
                    "Neither solves detectably more runs overall (lewis-sa 1177/1180, reseda 1100/1180, Holm p = 0.4000; it detects with 80 % power a success rate 3.2 points below or 1.5 points above reseda's)",
                    "per puzzle reseda is better in success (P = 0.960), which the pooled count does not detect",
                ],
                &["solves more runs"],
            ),
            (
                Facts {
                    success_per_puzzle: PerPuzzle::Better(1, 0.96),
                    ..base.clone()
                },
                &["yet per puzzle reseda is better in success (P = 0.960): the overall count is led by the puzzles where lewis-sa wins"],
                &[],
            ),
            (
                Facts {
                    success_per_puzzle: PerPuzzle::Better(0, 0.99),
                    ..base.clone()
                },
                &["per puzzle too (lewis-sa better, P = 0.990)"],
                &[],
            ),
        ]
    }

    /// Too few puzzles, untestable pairs, and pairs of one unit.
    fn other_cases() -> Vec<Case> {
        let base = facts();
        vec![
            (
                Facts {
                    success_per_puzzle: PerPuzzle::TooFew(3),
                    time_per_puzzle: PerPuzzle::Undecided([0.5, 0.2, 0.3]),
                    logrank: Some((0.3, 1)),
                    ..base.clone()
                },
                &[
                    "per puzzle in success: too few puzzles to decide (3 informative, at least",
                    "per puzzle in CPU s: undecided (P(A) 0.500, P(=) 0.200, P(B) 0.300)",
                    "no difference in time to solve detected (log-rank in CPU s, Holm p = 0.3000; it detects with 80 % power one solving 1.20 times as fast",
                ],
                &["solves sooner"],
            ),
            (
                Facts {
                    solved: [(0, 20), (0, 20)],
                    fisher_holm: 1.0,
                    logrank: None,
                    success_per_puzzle: PerPuzzle::None,
                    time_per_puzzle: PerPuzzle::None,
                    evaluations: Ok("neither solves".into()),
                    ..base.clone()
                },
                &["Neither solves a run (0/20 and 0/20); in evaluations (one unit): neither solves."],
                &["per puzzle", "log-rank"],
            ),
            (
                Facts {
                    solved: [(20, 20), (20, 20)],
                    fisher_holm: 1.0,
                    evaluations: Ok("ret-ga faster than mk-ga in evaluations".into()),
                    ..base.clone()
                },
                &["Both solve every run (20/20 and 20/20)", "in evaluations (one unit): ret-ga faster than mk-ga in evaluations."],
                &["not comparable"],
            ),
        ]
    }

    /// The verdict sentence, case by case: what each combination of the tests makes it say.
    #[test]
    fn the_verdict_sentence_reconciles_the_tests() {
        for (f, has, lacks) in reconciling_cases().into_iter().chain(other_cases()) {
            let s = sentence(&f);
            for h in has {
                assert!(s.contains(h), "missing {h:?} in {s:?}");
            }
            for l in lacks {
                assert!(!s.contains(l), "unexpected {l:?} in {s:?}");
            }
        }
    }

    #[test]
    fn a_per_puzzle_test_below_the_threshold_does_not_decide() {
        let t = |puzzles: usize, probs: [f64; 3]| BayesPair {
            measure: Measure::Success,
            scope: 0,
            a: 0,
            b: 1,
            puzzles,
            unsolved_by_both: 0,
            comparable: true,
            rope: 0.05,
            probs: Some(probs),
            samples: Vec::new(),
        };
        let cases = [
            (2, [0.963, 0.0, 0.037], PerPuzzle::TooFew(2)),
            (
                MIN_PUZZLES - 1,
                [0.0, 0.99, 0.01],
                PerPuzzle::TooFew(MIN_PUZZLES - 1),
            ),
            (
                MIN_PUZZLES,
                [0.963, 0.0, 0.037],
                PerPuzzle::Better(0, 0.963),
            ),
            (MIN_PUZZLES, [0.0, 0.99, 0.01], PerPuzzle::Equivalent(0.99)),
            (3, [0.5, 0.2, 0.3], PerPuzzle::Undecided([0.5, 0.2, 0.3])),
        ];
        for (n, p, want) in cases {
            assert_eq!(per_puzzle(Some(&t(n, p))), want, "{n} {p:?}");
        }
        let mut across = t(20, [0.99, 0.0, 0.01]);
        across.comparable = false;
        assert_eq!(per_puzzle(Some(&across)), PerPuzzle::None);
    }
}

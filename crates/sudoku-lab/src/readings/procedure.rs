//! The race's statistical procedure, versioned so that a committed race replays as it was
//! made (a folder whose settings name no procedure is procedure 1).
//!
//! - **v1** (races made before the versions): every look tested at alpha / L (L = rounds x
//!   stages x rows, Bonferroni across looks) on the smallest Holm-adjusted p-value; the mean
//!   generations of successes (and a counter's mean) tested with Welch's t-test.
//! - **v2** (the default of new races): alpha spent over the *rounds* with a Pocock-type
//!   Lan-DeMets spending function of the rounds' run counts ([`lab_stats::round_alphas`]),
//!   and within a round a Bonferroni-Holm bound over the round's *cells*. A cell's p-value is
//!   the same at every look of a round (the looks of a round add cells; a capped run and its
//!   full-budget run agree on every quantile cell, by the prefix property), so the reading is
//!   eliminated in round k exactly when some cell of the round has p <= alpha_k / C, C the
//!   number of cells a reading can have: probability at most alpha_k per round and alpha over
//!   the race, whatever the dependence between rounds and cells. The mean cells use
//!   [`lab_stats::guarded_mean_test`], whose size at these levels is measured by simulation
//!   (tests below and `readings-calibration`).
//!
//! The p-value a v2 look reports is Holm-adjusted over the round's C cells (cells without
//! data count as p = 1) and scaled by alpha / alpha_k, so that every round eliminates at the
//! same threshold, alpha.

use super::cells::{holm_min, Tally, Target, Test};
use lab_stats::{fisher_exact_two_sided, guarded_mean_test, round_alphas, summarize, Spending};

/// The statistical procedure of a race.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Procedure {
    /// Bonferroni over every look, Welch's t-test on means (races made before v2).
    V1,
    /// Alpha spent over rounds, Holm over a round's cells, the guarded mean test.
    #[default]
    V2,
}

impl Procedure {
    pub fn name(self) -> &'static str {
        match self {
            Procedure::V1 => "v1",
            Procedure::V2 => "v2",
        }
    }

    /// `v1` or `v2`; None otherwise.
    pub fn parse(s: &str) -> Option<Procedure> {
        match s {
            "v1" => Some(Procedure::V1),
            "v2" => Some(Procedure::V2),
            _ => None,
        }
    }
}

/// The levels of a v2 race: alpha, each round's spent alpha and the cells per round.
#[derive(Debug, Clone, PartialEq)]
pub struct Levels {
    pub alpha: f64,
    pub rounds: Vec<f64>,
    pub cells: usize,
}

impl Levels {
    /// The levels of a race of `alpha` over cumulative `rounds` on `targets`.
    pub fn new(alpha: f64, rounds: &[u64], targets: &[Target]) -> Levels {
        let sizes: Vec<f64> = rounds.iter().map(|&n| n as f64).collect();
        let spent = round_alphas(Spending::Pocock, alpha, &sizes)
            .unwrap_or_else(|_| vec![alpha / rounds.len().max(1) as f64; rounds.len()]);
        Levels {
            alpha,
            rounds: spent,
            cells: targets.iter().map(cells_of).sum::<usize>().max(1),
        }
    }

    /// The level of one cell's p-value in round `k`: alpha_k / C.
    pub fn cell_level(&self, k: usize) -> f64 {
        self.rounds.get(k).copied().unwrap_or(0.0) / self.cells as f64
    }

    /// The smallest p-value of `tests`, Holm-adjusted over the round's cells and scaled by
    /// alpha / alpha_k (at most 1), with its test: at most alpha exactly when some cell's
    /// p-value is at most alpha_k / C.
    pub fn adjusted(&self, k: usize, tests: &[Test]) -> Option<(usize, f64)> {
        let mut padded = tests.to_vec();
        while padded.len() < self.cells {
            padded.push(Test {
                cell: String::new(),
                p: 1.0,
            });
        }
        let (i, q) = holm_min(&padded)?;
        let spent = self.rounds.get(k).copied().unwrap_or(0.0);
        let scaled = if spent > 0.0 {
            (q * self.alpha / spent).min(1.0)
        } else {
            1.0
        };
        Some((i, scaled))
    }
}

/// The cells a reading can have on one row: solved within the mean cap, by the maximum, by
/// the median, the count, the mean (of successes, or the counter's).
pub fn cells_of(t: &Target) -> usize {
    let r = &t.row;
    let counted = r.count.is_some() && r.runs.is_some();
    let mean = if t.counter {
        r.average.is_some() && r.sd.is_some() && r.runs.is_some()
    } else {
        r.average.is_some() && r.sd.is_some() && r.count.is_some()
    };
    [
        counted && t.by_cap_bound.is_some(),
        counted && r.maximum.is_some(),
        counted && r.median.is_some(),
        counted && !t.counter,
        mean,
    ]
    .iter()
    .filter(|&&b| b)
    .count()
}

/// The full-budget tests of v2: the count (Fisher, as v1) and the mean generations of
/// successes, or a counter's mean over every run, with the guarded mean test (at least two
/// observations on each side).
pub fn full_tests(t: &Target, x: &Tally, out: &mut Vec<Test>) {
    if x.runs == 0 {
        return;
    }
    let r = &t.row;
    if !t.counter {
        if let (Some(s), Some(n)) = (r.count, r.runs) {
            let p = fisher_exact_two_sided(x.solved, x.runs - x.solved, s, n.saturating_sub(s));
            out.push(Test {
                cell: format!("{}/count", t.level),
                p,
            });
        }
    }
    let (sample, published_n, name) = match t.counter {
        true => (&x.values, r.runs, "mean"),
        false => (&x.generations, r.count, "average"),
    };
    let (Some(avg), Some(sd), Some(m)) = (r.average, r.sd, published_n) else {
        return;
    };
    let Some(ours) = summarize(sample).filter(|o| o.n >= 2 && m >= 2) else {
        return;
    };
    if let Ok(p) = guarded_mean_test(ours.mean, ours.sd, ours.n as u64, avg, sd, m) {
        out.push(Test {
            cell: format!("{}/{name}", t.level),
            p,
        });
    }
}

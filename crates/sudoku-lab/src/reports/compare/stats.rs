//! The tests of the compare report: pairwise Fisher and Mann-Whitney U with A12 per scope,
//! Friedman and Iman-Davenport over puzzles with the Wilcoxon-Holm post hoc (see the module
//! docs of [`super`]).

use super::data::{self as cd, Clock, Data, Run, Success};
use anyhow::Result;
use lab_stats::{fisher_exact_two_sided, holm_adjust, mann_whitney_u};

/// One pairwise comparison in one scope.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub scope: usize,
    pub a: usize,
    pub b: usize,
    pub success_a: Success,
    pub success_b: Success,
    pub fisher_p: f64,
    pub fisher_holm: f64,
    /// Mann-Whitney U on the censored time to solve in the folder's seconds; `None` when
    /// every run of both failed.
    pub time_p: Option<f64>,
    pub time_holm: Option<f64>,
    /// P(a run of A solves in less time than a run of B) + P(tie) / 2.
    pub a12_time: f64,
    /// Whether A and B count evaluations in one unit: only then are the evaluation fields set.
    pub comparable: bool,
    /// Mann-Whitney U on the censored evaluations; `None` when every run of both failed or
    /// the units differ.
    pub mwu_p: Option<f64>,
    pub mwu_holm: Option<f64>,
    /// P(a run of A needs fewer evaluations than a run of B) + P(tie) / 2; `None` across units.
    pub a12: Option<f64>,
}

/// Friedman's test over the puzzles of one scope.
#[derive(Debug, Clone, PartialEq)]
pub struct Friedman {
    pub scope: usize,
    /// What ERT counts: evaluations (deterministic) or seconds (the folder's clock).
    pub unit: Unit,
    /// The algorithms ranked: every one in seconds; in evaluations, the algorithms of one
    /// evaluation unit.
    pub algorithms: Vec<usize>,
    pub puzzles: usize,
    /// The average rank of each of `algorithms`, in their order.
    pub avg_ranks: Vec<f64>,
    pub chi2: f64,
    pub df: f64,
    pub p: f64,
    pub f_id: f64,
    pub p_id: f64,
    /// Nemenyi's critical difference of the average ranks at alpha = 0.05 (when tabulated).
    pub nemenyi_cd: Option<f64>,
    pub posthoc: Vec<PostHoc>,
}

/// The Wilcoxon signed-rank post hoc of one pair.
#[derive(Debug, Clone, PartialEq)]
pub struct PostHoc {
    pub a: usize,
    pub b: usize,
    /// Puzzles with a non-zero difference.
    pub n: usize,
    /// R's `V`: the sum of the ranks of the puzzles on which `a`'s ERT is larger than `b`'s.
    pub v: f64,
    pub p: f64,
    pub holm: f64,
    pub exact: bool,
}

impl PostHoc {
    /// The algorithm the pair's own test favours: `a` when the rank sum of the puzzles on
    /// which `a` is slower (`v`) is below half of all ranks, `n (n + 1) / 4`; `b` when it is
    /// above; `None` when they balance (the test's p is then 1).
    ///
    /// Why not the Friedman average ranks: those rank every algorithm of the report on each
    /// puzzle, so a third algorithm that beats `a` on the puzzles `b` wins moves `a` behind `b`
    /// in the average ranks while the pair's signed-rank test, which the verdict reports,
    /// favours `a` (Benavoli, Corani and Mangili 2016: mean ranks depend on the other
    /// algorithms of the study). Directions read off the average ranks printed "hill-climb
    /// ranks better" of a pair whose signed-rank sums favour ACS (phase-9x9, over all
    /// fractions), which is why the direction comes from `v`.
    pub fn favoured(&self) -> Option<usize> {
        let half = self.n as f64 * (self.n as f64 + 1.0) / 4.0;
        if self.v < half {
            Some(self.a)
        } else if self.v > half {
            Some(self.b)
        } else {
            None
        }
    }
}

/// Every pair of algorithms in every scope (pooled last).
pub fn pairs(data: &Data) -> Result<Vec<Pair>> {
    let k = data.algorithms.len();
    let mut out = Vec::new();
    for s in 0..=data.scopes.len() {
        for a in 0..k {
            for b in a + 1..k {
                out.push(pair(data, s, a, b)?);
            }
        }
    }
    let fisher = holm_adjust(&out.iter().map(|p| p.fisher_p).collect::<Vec<_>>());
    for (p, h) in out.iter_mut().zip(fisher) {
        p.fisher_holm = h;
    }
    // Each Mann-Whitney family over the pairs it tests (in evaluations: the pairs of one unit).
    let adjust = |out: &mut Vec<Pair>, get: fn(&Pair) -> Option<f64>, set: fn(&mut Pair, f64)| {
        let with: Vec<usize> = (0..out.len()).filter(|&i| get(&out[i]).is_some()).collect();
        let ps: Vec<f64> = with.iter().map(|&i| get(&out[i]).unwrap_or(1.0)).collect();
        for (&i, h) in with.iter().zip(holm_adjust(&ps)) {
            set(&mut out[i], h);
        }
    };
    adjust(&mut out, |p| p.time_p, |p, h| p.time_holm = Some(h));
    adjust(&mut out, |p| p.mwu_p, |p, h| p.mwu_holm = Some(h));
    Ok(out)
}

/// The Mann-Whitney U p-value of two censored samples (`+inf`: unsolved); `None` when no run
/// of either solved, 1 when every run of both ties.
fn mwu(x: &[f64], y: &[f64]) -> Result<Option<f64>> {
    if x.iter().chain(y).all(|v| v.is_infinite()) {
        return Ok(None);
    }
    match mann_whitney_u(x, y) {
        Err(lab_stats::StatsError::ZeroVariance(_)) => Ok(Some(1.0)),
        r => Ok(Some(r?.p_value)),
    }
}

/// The time to solve of each run in the folder's seconds, `+inf` for a run that did not solve.
pub fn censored_seconds<'a>(runs: impl Iterator<Item = &'a Run>) -> Vec<f64> {
    runs.map(|r| if r.solved { r.seconds } else { f64::INFINITY })
        .collect()
}

fn pair(data: &Data, s: usize, a: usize, b: usize) -> Result<Pair> {
    let (ra, rb): (Vec<&Run>, Vec<&Run>) =
        (data.runs_of(a, s).collect(), data.runs_of(b, s).collect());
    let (sa, sb) = (
        cd::success(ra.iter().copied()),
        cd::success(rb.iter().copied()),
    );
    let (ca, cb) = (
        cd::censored(ra.iter().copied()),
        cd::censored(rb.iter().copied()),
    );
    let fisher_p = fisher_exact_two_sided(
        sa.successes,
        sa.runs - sa.successes,
        sb.successes,
        sb.runs - sb.successes,
    );
    let comparable = data.same_unit(a, b);
    let (ta, tb) = (
        censored_seconds(ra.iter().copied()),
        censored_seconds(rb.iter().copied()),
    );
    // Less is better: A12 of "A below B" is the A12 of B over A.
    let (mwu_p, a12) = if comparable {
        (
            mwu(&ca, &cb)?,
            Some(lab_stats::vargha_delaney_a12(&cb, &ca)?),
        )
    } else {
        (None, None)
    };
    Ok(Pair {
        scope: s,
        a,
        b,
        success_a: sa,
        success_b: sb,
        fisher_p,
        fisher_holm: fisher_p,
        time_p: mwu(&ta, &tb)?,
        time_holm: None,
        a12_time: lab_stats::vargha_delaney_a12(&tb, &ta)?,
        comparable,
        mwu_p,
        mwu_holm: None,
        a12,
    })
}

/// The unit of the ERTs a Friedman test ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Evaluations,
    Seconds,
}

impl Unit {
    /// The unit's key in seeds ("evaluations", "seconds"), the same whatever the clock.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Evaluations => "evaluations",
            Unit::Seconds => "seconds",
        }
    }
    /// The unit in CSV values: "evaluations", "cpu_seconds" or "wall_seconds".
    pub fn csv(self, clock: Clock) -> &'static str {
        match self {
            Unit::Evaluations => "evaluations",
            Unit::Seconds => clock.csv(),
        }
    }
    /// The unit in prose: "evaluations", "CPU seconds" or "wall seconds".
    pub fn words(self, clock: Clock) -> &'static str {
        match self {
            Unit::Evaluations => "evaluations",
            Unit::Seconds => clock.words(),
        }
    }
}

/// Every Friedman test of a report: in seconds between all algorithms, then in evaluations
/// within each group of algorithms of one unit (of at least two), each scope, pooled last.
pub fn friedman_all(data: &Data) -> Result<Vec<Friedman>> {
    let all: Vec<usize> = (0..data.algorithms.len()).collect();
    let mut tests = Vec::new();
    for s in 0..=data.scopes.len() {
        if let Some(f) = friedman(data, s, Unit::Seconds, &all)? {
            tests.push(f);
        }
    }
    for group in data.unit_groups().iter().filter(|g| g.len() >= 2) {
        for s in 0..=data.scopes.len() {
            if let Some(f) = friedman(data, s, Unit::Evaluations, group)? {
                tests.push(f);
            }
        }
    }
    Ok(tests)
}

/// ERT in `unit` of every (puzzle of scope `s`, algorithm): rows are puzzles (blocks).
pub fn ert_blocks(data: &Data, s: usize, unit: Unit) -> Vec<Vec<f64>> {
    let pooled = s == data.scopes.len();
    let k = data.algorithms.len();
    let mut puzzles: Vec<usize> = data
        .runs
        .iter()
        .filter(|r| pooled || r.scope == s)
        .map(|r| r.puzzle)
        .collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    puzzles
        .iter()
        .map(|&p| {
            (0..k)
                .map(|a| {
                    let runs = data
                        .runs
                        .iter()
                        .filter(|r| r.algorithm == a && r.puzzle == p);
                    let x = cd::success(runs);
                    match unit {
                        Unit::Evaluations => x.ert_evaluations,
                        Unit::Seconds => x.ert_seconds,
                    }
                })
                .collect()
        })
        .collect()
}

/// `blocks` with every infinite value replaced by 10 x the largest finite value (1 when none is
/// finite): the signed-rank test's input (see the module docs).
pub fn capped(blocks: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let largest = blocks
        .iter()
        .flatten()
        .copied()
        .filter(|x| x.is_finite())
        .fold(0.0f64, f64::max);
    let cap = 10.0 * largest.max(1.0);
    blocks
        .iter()
        .map(|row| {
            row.iter()
                .map(|&x| if x.is_finite() { x } else { cap })
                .collect()
        })
        .collect()
}

/// Friedman's test and the Wilcoxon-Holm post hoc over the puzzles of scope `s`, between
/// `algorithms` (at least two); `None` with fewer than two puzzles.
pub fn friedman(
    data: &Data,
    s: usize,
    unit: Unit,
    algorithms: &[usize],
) -> Result<Option<Friedman>> {
    let blocks: Vec<Vec<f64>> = (ert_blocks(data, s, unit).iter())
        .map(|row| algorithms.iter().map(|&a| row[a]).collect())
        .collect();
    if blocks.len() < 2 || algorithms.len() < 2 {
        return Ok(None);
    }
    // Ranks: lower ERT is better; infinite ERTs tie behind every finite one.
    // Every puzzle ties every algorithm (e.g. nothing solved anything): no ranking to test.
    let f = match lab_stats::friedman_test(&blocks) {
        Err(lab_stats::StatsError::ZeroVariance(_)) => return Ok(None),
        r => r?,
    };
    let k = algorithms.len();
    let nemenyi_cd = lab_stats::nemenyi_critical_difference(k, blocks.len(), 0.05).ok();
    let cap = capped(&blocks);
    let mut posthoc = Vec::new();
    for i in 0..k {
        for j in i + 1..k {
            let (a, b) = (algorithms[i], algorithms[j]);
            let x: Vec<f64> = cap.iter().map(|r| r[i]).collect();
            let y: Vec<f64> = cap.iter().map(|r| r[j]).collect();
            let w = lab_stats::wilcoxon_signed_rank(&x, &y);
            let (n, v, p, exact) = match w {
                Ok(w) => (w.n, w.v, w.p_value, w.exact),
                // Every difference is zero: nothing separates the two.
                Err(_) => (0, 0.0, 1.0, true),
            };
            posthoc.push(PostHoc {
                a,
                b,
                n,
                v,
                p,
                holm: p,
                exact,
            });
        }
    }
    let holm = holm_adjust(&posthoc.iter().map(|p| p.p).collect::<Vec<_>>());
    for (p, h) in posthoc.iter_mut().zip(holm) {
        p.holm = h;
    }
    Ok(Some(Friedman {
        scope: s,
        unit,
        algorithms: algorithms.to_vec(),
        puzzles: blocks.len(),
        avg_ranks: f.avg_ranks,
        chi2: f.chi_square,
        df: f.df,
        p: f.p_value,
        f_id: f.iman_davenport.f,
        p_id: f.iman_davenport.p_value,
        nemenyi_cd,
        posthoc,
    }))
}

/// Vargha & Delaney's magnitude label of an A12 value.
pub fn magnitude(a12: f64) -> &'static str {
    lab_stats::A12Magnitude::effsize(a12).map_or("", |m| m.as_str())
}

#[cfg(test)]
mod tests {
    use super::PostHoc;

    fn post(n: usize, v: f64) -> PostHoc {
        PostHoc {
            a: 0,
            b: 1,
            n,
            v,
            p: 0.01,
            holm: 0.01,
            exact: true,
        }
    }

    /// `v` is the rank sum of the puzzles on which `a` is slower: below `n (n + 1) / 4` the
    /// test favours `a`, above it `b`, at it neither.
    #[test]
    fn the_favoured_algorithm_follows_the_signed_rank_sums() {
        let table: [(usize, f64, Option<usize>); 6] = [
            (49, 296.0, Some(0)),
            (49, 929.0, Some(1)),
            (49, 612.5, None),
            (1, 0.0, Some(0)),
            (1, 1.0, Some(1)),
            (4, 5.0, None),
        ];
        for (n, v, want) in table {
            assert_eq!(post(n, v).favoured(), want, "n {n}, v {v}");
        }
    }
}

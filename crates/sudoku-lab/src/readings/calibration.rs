//! The race engine's error rates, measured by simulation (`sudoku-lab readings-calibration`).
//!
//! A replicate draws a *paper*: for every row of a scenario, the paper's runs from a known
//! distribution (success with probability p; generations of a success from a lognormal, gamma
//! or heavy-tailed Lomax law of a given mean and coefficient of variation, or a geometric law
//! of whole generations whose median is tied), summarised in the
//! layout the scenario's paper prints (count, minimum, maximum, mean, median and SD as Ret-GA's
//! Table 1; count and mean as RESEDA's Tables 1 and 2; count only as RESEDA's Table 3). It then
//! draws the runs of three readings: one from the paper's own distribution (a *true* reading),
//! one whose successes take 1.5 times the generations, one whose success rate is 0.15 lower.
//! The real race ([`super::race::Race`], its targets, caps, rounds, tests and eliminations)
//! runs on those outcomes from a store in memory instead of a solver, under procedures v1, v2
//! and v3 alike on the same draws (v2 and v3 differ only where runs tie at a published
//! median: the geometric scenarios). The true reading's elimination rate is the race's false
//! elimination rate (the guarantee: at most alpha); the others' are its power against those
//! departures. Curtailment is off: it changes which runs are made, not the eliminations (a
//! test of the race compares both).

use super::cells::{Caps, Target};
use super::procedure::Procedure;
use super::race::{rounds, Race};
use super::store::{Record, Store};
use crate::reports::groups::PublishedRow;
use anyhow::{bail, Result};
use rand::Rng as _;
use rayon::prelude::*;
use sudoku_core::{rng_from_seed, Rng};

/// The law of the generations of a successful run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dist {
    /// Lognormal of the row's mean and coefficient of variation.
    LogNormal,
    /// Gamma of the row's mean and coefficient of variation.
    Gamma,
    /// Lomax (Pareto II) of the row's mean with tail index 3.5 (coefficient of variation
    /// 1.53, infinite fourth moment): heavy-tailed.
    Lomax,
    /// Geometric of the row's mean (whole generations 1, 2, ...; success in each generation
    /// with probability 1 / mean, whatever the coefficient of variation): many runs share a
    /// generation count, so the published median is tied.
    Geometric,
}

/// What the scenario's paper prints of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Count, minimum, maximum, mean, median and SD of the successes (Ret-GA's Table 1).
    Quantiles,
    /// Count and mean of the successes (RESEDA's Tables 1 and 2).
    CountMean,
    /// Count only (RESEDA's Table 3).
    Count,
}

/// One row's true distribution: success rate, mean generations of a success and their
/// coefficient of variation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowModel {
    pub p: f64,
    pub mean: f64,
    pub cv: f64,
}

/// A simulated table.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub name: &'static str,
    pub about: &'static str,
    pub layout: Layout,
    pub dist: Dist,
    /// Runs per row, the paper's and ours.
    pub runs: u64,
    /// The full generation budget: a success beyond it is a failure.
    pub full: u64,
    pub rows: Vec<RowModel>,
}

/// Ret-GA's Table 1, Ret-GA column: (success rate, mean, SD) of the nine rows.
const RET_GA: [(f64, f64, f64); 9] = [
    (1.00, 159.24, 159.95),
    (1.00, 1864.94, 1728.25),
    (1.00, 4338.30, 3906.40),
    (1.00, 10716.73, 11285.80),
    (1.00, 13569.76, 12832.50),
    (1.00, 70.34, 55.70),
    (0.94, 25932.87, 19153.54),
    (0.16, 40466.13, 11940.66),
    (0.09, 42354.86, 11198.42),
];

/// Ret-GA's Table 1, GA column (the M&K GA): few successes on most rows.
const MK_GA: [(f64, f64, f64); 9] = [
    (1.00, 2466.60, 3500.98),
    (0.69, 11226.80, 11834.68),
    (0.46, 22346.40, 24846.46),
    (0.26, 22611.30, 22429.12),
    (0.23, 23288.00, 22732.25),
    (1.00, 768.60, 942.23),
    (0.30, 25333.30, 23058.94),
    (0.04, 20534.30, 12506.72),
    (0.06, 14392.00, 17053.33),
];

/// RESEDA's Table 1 (easy puzzle): (success rate, mean iterations) of its twelve columns.
const RESEDA_1: [(f64, f64); 12] = [
    (0.98, 574.0),
    (1.00, 522.0),
    (1.00, 188.0),
    (0.82, 67.0),
    (0.96, 60.0),
    (1.00, 25.0),
    (0.42, 25.0),
    (0.71, 22.0),
    (1.00, 9.0),
    (0.11, 17.0),
    (0.35, 14.0),
    (1.00, 6.0),
];

/// RESEDA's Table 3 (hard puzzle, 1000 runs): success rates of its four columns.
const RESEDA_3: [f64; 4] = [0.089, 0.474, 0.619, 0.906];

fn table(rows: &[(f64, f64, f64)]) -> Vec<RowModel> {
    (rows.iter())
        .map(|&(p, mean, sd)| RowModel {
            p,
            mean,
            cv: sd / mean,
        })
        .collect()
}

/// The scenarios of the study.
pub fn scenarios() -> Vec<Scenario> {
    let reseda = |cv: f64| -> Vec<RowModel> {
        (RESEDA_1.iter())
            .map(|&(p, mean)| RowModel { p, mean, cv })
            .collect()
    };
    let quantiles = |name, about, dist, rows: &[(f64, f64, f64)], full| Scenario {
        name,
        about,
        layout: Layout::Quantiles,
        dist,
        runs: 100,
        full,
        rows: table(rows),
    };
    // Whole generations with heavy ties at the median: Ret-GA's success rates, one
    // geometric law on every row.
    let geometric = |name, about, mean: f64| Scenario {
        name,
        about,
        layout: Layout::Quantiles,
        dist: Dist::Geometric,
        runs: 100,
        full: 50_000,
        rows: (RET_GA.iter())
            .map(|&(p, _, _)| RowModel {
                p,
                mean,
                cv: (1.0 - 1.0 / mean).sqrt(),
            })
            .collect(),
    };
    vec![
        quantiles("ret-ga-lognormal", "Ret-GA Table 1's nine Ret-GA rows (success rates, means and SDs), lognormal generations", Dist::LogNormal, &RET_GA, 50_000),
        quantiles("ret-ga-gamma", "the same rows, gamma generations", Dist::Gamma, &RET_GA, 50_000),
        quantiles("ret-ga-heavy", "the same rows' success rates and means, heavy-tailed Lomax generations (tail index 3.5)", Dist::Lomax, &RET_GA, 50_000),
        quantiles("mk-ga-few-successes", "Ret-GA Table 1's GA column: 4 to 100 successes per row, lognormal generations", Dist::LogNormal, &MK_GA, 100_000),
        Scenario {
            name: "reseda-count-mean",
            about: "RESEDA Table 1's twelve columns (count and mean printed, mean caps at 20 x the mean), lognormal iterations of coefficient of variation 1",
            layout: Layout::CountMean,
            dist: Dist::LogNormal,
            runs: 100,
            full: 100_000,
            rows: reseda(1.0),
        },
        Scenario {
            name: "reseda-count-mean-heavy",
            about: "the same columns, heavy-tailed Lomax iterations",
            layout: Layout::CountMean,
            dist: Dist::Lomax,
            runs: 100,
            full: 100_000,
            rows: reseda(1.53),
        },
        Scenario {
            name: "reseda-count-only",
            about: "RESEDA Table 3's four columns (success counts of 1000 runs only)",
            layout: Layout::Count,
            dist: Dist::LogNormal,
            runs: 1000,
            full: 100_000,
            rows: (RESEDA_3.iter())
                .map(|&p| RowModel { p, mean: 100.0, cv: 1.0 })
                .collect(),
        },
        geometric("geometric-mean-4", "Ret-GA Table 1's nine success rates, geometric generations of mean 4 (a quarter of the runs solve in each generation: the median is tied)", 4.0),
        geometric("geometric-60-in-1", "the same success rates, geometric generations with 60 % of the runs solved in generation 1 (median 1, tied)", 1.0 / 0.6),
        geometric("geometric-70-in-1", "the same, 70 % solved in generation 1", 1.0 / 0.7),
        geometric("geometric-80-in-1", "the same, 80 % solved in generation 1", 1.0 / 0.8),
    ]
}

/// A uniform draw in (0, 1).
fn uniform(rng: &mut Rng) -> f64 {
    ((rng.random::<u64>() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A standard normal draw (Box-Muller).
pub fn normal(rng: &mut Rng) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A gamma draw of shape `k` and scale 1 (Marsaglia and Tsang, 2000; shape below 1 by
/// the boost G(k + 1) U^(1/k)).
fn gamma(k: f64, rng: &mut Rng) -> f64 {
    if k < 1.0 {
        return gamma(k + 1.0, rng) * uniform(rng).powf(1.0 / k);
    }
    let d = k - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v > 0.0 && uniform(rng).ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A draw of `dist` with mean `mean` and coefficient of variation `cv` (Lomax: tail index
/// 3.5 whatever `cv`).
pub fn draw(dist: Dist, mean: f64, cv: f64, rng: &mut Rng) -> f64 {
    match dist {
        Dist::LogNormal => {
            let s2 = (1.0 + cv * cv).ln();
            (mean.ln() - s2 / 2.0 + s2.sqrt() * normal(rng)).exp()
        }
        Dist::Gamma => {
            let k = 1.0 / (cv * cv);
            gamma(k, rng) * mean / k
        }
        Dist::Lomax => {
            let a = 3.5;
            mean * (a - 1.0) * (uniform(rng).powf(-1.0 / a) - 1.0)
        }
        Dist::Geometric => {
            let q = (1.0 / mean).clamp(0.0, 1.0);
            match q >= 1.0 {
                true => 1.0,
                false => (uniform(rng).ln() / (1.0 - q).ln()).ceil().max(1.0),
            }
        }
    }
}

/// One run of a row: its generations when it solves within the budget, else None.
/// `slow` multiplies the generations, `drop` lowers the success rate.
fn outcome(s: &Scenario, row: &RowModel, (slow, drop): (f64, f64), rng: &mut Rng) -> Option<u64> {
    let solves = uniform(rng) < (row.p - drop).max(0.0);
    let g = draw(s.dist, row.mean * slow, row.cv, rng).ceil().max(1.0) as u64;
    (solves && g <= s.full).then_some(g)
}

/// The paper's row made from its runs, in the scenario's layout (values to two decimals).
fn published(s: &Scenario, i: usize, runs: &[Option<u64>]) -> PublishedRow {
    let g: Vec<f64> = runs.iter().flatten().map(|&g| g as f64).collect();
    let sum = lab_stats::summarize(&g);
    let r2 = |v: f64| (v * 100.0).round() / 100.0;
    let q = s.layout == Layout::Quantiles;
    PublishedRow {
        level: format!("row {}", i + 1),
        givens: None,
        algorithm: "simulated".into(),
        runs: Some(runs.len() as u64),
        count: Some(g.len() as u64),
        minimum: sum.as_ref().filter(|_| q).map(|x| x.min),
        maximum: sum.as_ref().filter(|_| q).map(|x| x.max),
        average: (sum.as_ref())
            .filter(|_| s.layout != Layout::Count)
            .map(|x| r2(x.mean)),
        median: sum.as_ref().filter(|_| q).map(|x| x.median),
        sd: (sum.as_ref()).filter(|x| q && x.n >= 2).map(|x| r2(x.sd)),
        time_s: None,
        ets_s: None,
    }
}

/// The departures of the readings raced beside the true one: (generations factor, success
/// rate lowered by).
pub const READINGS: [(f64, f64); 3] = [(1.0, 0.0), (1.5, 0.0), (1.0, 0.15)];

/// The procedures compared.
pub const PROCEDURES: [Procedure; 3] = [Procedure::V1, Procedure::V2, Procedure::V3];

/// One replicate of a scenario: per procedure, whether each reading of [`READINGS`] was
/// eliminated.
pub fn replicate(s: &Scenario, seed: u64, alpha: f64) -> Result<Vec<[bool; 3]>> {
    let mut rng = rng_from_seed(seed);
    let caps = Caps {
        max_factor: Some(2.0),
        mean_factor: Some(20.0),
    };
    let mut targets = Vec::with_capacity(s.rows.len());
    let mut records = Vec::new();
    for (i, row) in s.rows.iter().enumerate() {
        let paper: Vec<Option<u64>> = (0..s.runs)
            .map(|_| outcome(s, row, (1.0, 0.0), &mut rng))
            .collect();
        targets.push(Target::new(i, &published(s, i, &paper), caps, s.full)?);
        for (r, &departure) in READINGS.iter().enumerate() {
            for run in 0..s.runs {
                let g = outcome(s, row, departure, &mut rng);
                records.push(Record {
                    reading: r as u32,
                    puzzle: i as u32,
                    run,
                    cap: s.full,
                    seed: 0,
                    solved: g.is_some(),
                    generations: g.unwrap_or(s.full),
                    evaluations: 0,
                    counter: None,
                });
            }
        }
    }
    super::order(&mut targets);
    let runs = vec![s.runs; s.rows.len()];
    let rounds = rounds(&[5, 10, 20, 50, 100], s.runs);
    let mut out = Vec::with_capacity(PROCEDURES.len());
    for procedure in PROCEDURES {
        let race = Race {
            protocol: None,
            readings: READINGS.len(),
            runs: &runs,
            targets: &targets,
            rounds: &rounds,
            full: s.full,
            alpha,
            threads: 1,
            entries: 1,
            curtail: false,
            procedure,
            verbose: false,
        };
        let mut store = Store::memory(s.full, records.iter().copied());
        let fates = race.decide(&mut store)?;
        out.push(std::array::from_fn(|r| fates[r].eliminated.is_some()));
    }
    Ok(out)
}

/// The seed of replicate `k` of scenario `i` under the study's `seed` (SplitMix64 steps).
pub fn replicate_seed(seed: u64, i: usize, k: u64) -> u64 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    mix(mix(mix(seed) ^ i as u64) ^ k)
}

/// The measured rates of one scenario under one procedure: eliminations of each reading of
/// [`READINGS`] out of `replicates`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rates {
    pub scenario: &'static str,
    pub procedure: Procedure,
    pub replicates: u64,
    pub alpha: f64,
    pub eliminated: [u64; 3],
}

/// Run `replicates` replicates of every scenario on `threads` threads (the results do not
/// depend on it).
pub fn study(
    scenarios: &[Scenario],
    replicates: u64,
    seed: u64,
    alpha: f64,
    threads: usize,
) -> Result<Vec<Rates>> {
    if replicates == 0 {
        bail!("--replicates must be at least 1");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut out = Vec::new();
    for (i, s) in scenarios.iter().enumerate() {
        let all: Vec<Vec<[bool; 3]>> = pool.install(|| {
            (0..replicates)
                .into_par_iter()
                .map(|k| replicate(s, replicate_seed(seed, i, k), alpha))
                .collect::<Result<_>>()
        })?;
        for (p, &procedure) in PROCEDURES.iter().enumerate() {
            let eliminated = std::array::from_fn(|r| all.iter().filter(|x| x[p][r]).count() as u64);
            out.push(Rates {
                scenario: s.name,
                procedure,
                replicates,
                alpha,
                eliminated,
            });
        }
        eprintln!("{}: {replicates} replicates", s.name);
    }
    Ok(out)
}

/// The Clopper-Pearson interval of `k` events in `n` trials at `level` (e.g. 0.95), within
/// [0, 1].
pub fn clopper_pearson(k: u64, n: u64, level: f64) -> (f64, f64) {
    use statrs::distribution::{Beta, ContinuousCDF};
    let a = (1.0 - level) / 2.0;
    let (kf, nf) = (k as f64, n as f64);
    let lo = match k {
        0 => 0.0,
        _ => Beta::new(kf, nf - kf + 1.0).map_or(0.0, |b| b.inverse_cdf(a)),
    };
    let hi = match k >= n {
        true => 1.0,
        false => Beta::new(kf + 1.0, nf - kf).map_or(1.0, |b| b.inverse_cdf(1.0 - a)),
    };
    (lo.clamp(0.0, 1.0), hi.clamp(0.0, 1.0))
}

/// The size of a two-sample mean test at `level`: of `reps` draws of `k` successes of ours
/// and the paper's `s` from the same law, how many reject.
pub fn mean_test_rejections(
    test: fn(f64, f64, u64, f64, f64, u64) -> Option<f64>,
    (dist, cv): (Dist, f64),
    (k, s): (u64, u64),
    level: f64,
    (reps, seed): (u64, u64),
) -> u64 {
    let mut rng = rng_from_seed(seed);
    let mut rejected = 0;
    let sample = |n: u64, rng: &mut Rng| -> Option<lab_stats::Summary> {
        let x: Vec<f64> = (0..n).map(|_| draw(dist, 100.0, cv, rng)).collect();
        lab_stats::summarize(&x)
    };
    for _ in 0..reps {
        let (Some(a), Some(b)) = (sample(k, &mut rng), sample(s, &mut rng)) else {
            continue;
        };
        let p = test(a.mean, a.sd, k, b.mean, b.sd, s);
        rejected += u64::from(p.is_some_and(|p| p <= level));
    }
    rejected
}

/// Welch's t-test (procedure v1's mean cell) as a p-value.
pub fn welch(m1: f64, s1: f64, n1: u64, m2: f64, s2: f64, n2: u64) -> Option<f64> {
    lab_stats::welch_t_test(m1, s1, n1, m2, s2, n2)
        .ok()
        .map(|w| w.p_value)
}

/// The guarded mean test (procedure v2's mean cell) as a p-value.
pub fn guarded(m1: f64, s1: f64, n1: u64, m2: f64, s2: f64, n2: u64) -> Option<f64> {
    lab_stats::guarded_mean_test(m1, s1, n1, m2, s2, n2).ok()
}

#[cfg(test)]
/// Whether `rejected` of `reps` exceeds `level` beyond Monte-Carlo error: the lower end of
/// the 99 % Clopper-Pearson interval is above it.
pub fn exceeds(rejected: u64, reps: u64, level: f64) -> bool {
    clopper_pearson(rejected, reps, 0.98).0 > level
}

/// The level of one cell in a v2 race on Ret-GA's Table 1 in its first round (the
/// smallest of the race), and v1's (every look).
pub fn levels() -> (f64, f64) {
    let s = &scenarios()[0];
    let mut rng = rng_from_seed(1);
    let targets: Vec<Target> = (s.rows.iter().enumerate())
        .map(|(i, row)| {
            let paper: Vec<Option<u64>> = (0..s.runs)
                .map(|_| outcome(s, row, (1.0, 0.0), &mut rng))
                .collect();
            let caps = Caps {
                max_factor: Some(2.0),
                mean_factor: Some(20.0),
            };
            Target::new(i, &published(s, i, &paper), caps, s.full)
                .expect("a simulated row is valid")
        })
        .collect();
    let r = rounds(&[5, 10, 20, 50, 100], 100);
    let v2 = super::cells::Levels::new(0.05, &r, &targets);
    let looks = r.len() * 2 * targets.len();
    (v2.cell_level(0), 0.05 / looks as f64 / v2.cells as f64)
}

/// The (law, coefficient of variation, our successes, the paper's) of the size checks:
/// few of ours against many of the paper's and the other way round, skewed and heavy.
pub const CASES: [(Dist, f64, u64, u64); 8] = [
    (Dist::LogNormal, 1.0, 5, 100),
    (Dist::LogNormal, 1.5, 3, 100),
    (Dist::Gamma, 1.0, 10, 100),
    (Dist::Lomax, 1.5, 5, 100),
    (Dist::LogNormal, 1.0, 100, 9),
    (Dist::LogNormal, 1.0, 100, 16),
    (Dist::Lomax, 1.5, 100, 4),
    (Dist::Gamma, 1.0, 100, 100),
];

/// The mean cell's size study: per case of [`CASES`] and level ([`levels`]: v2's smallest,
/// v1's), the rejections of Welch's test and of the guarded test out of `reps`.
pub fn mean_cell_sizes(reps: u64, seed: u64) -> Vec<(usize, f64, u64, u64)> {
    let (v2, v1) = levels();
    let mut out = Vec::new();
    for (i, &(d, cv, k, s)) in CASES.iter().enumerate() {
        for level in [v2, v1] {
            let seed = replicate_seed(seed, i, 0);
            let w = mean_test_rejections(welch, (d, cv), (k, s), level, (reps, seed));
            let g = mean_test_rejections(guarded, (d, cv), (k, s), level, (reps, seed));
            out.push((i, level, w, g));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::cells::{capped_tests, Tally};
    use std::collections::BTreeMap;

    /// The cases whose size at `level` exceeds it beyond Monte-Carlo error.
    fn violations(
        test: fn(f64, f64, u64, f64, f64, u64) -> Option<f64>,
        level: f64,
        reps: u64,
    ) -> Vec<(Dist, f64, u64, u64, u64)> {
        (CASES.iter().enumerate())
            .map(|(i, &(d, cv, k, s))| {
                let seed = replicate_seed(11, i, 0);
                (
                    d,
                    cv,
                    k,
                    s,
                    mean_test_rejections(test, (d, cv), (k, s), level, (reps, seed)),
                )
            })
            .filter(|&(.., rejected)| exceeds(rejected, reps, level))
            .collect()
    }

    /// The mean cell's size at the levels the race uses (v2: a cell in the first round of a
    /// race on Ret-GA's Table 1, its smallest level; v1: alpha / (looks x cells)): the
    /// guarded test holds it in every case; Welch's test, procedure v1's, exceeds it with
    /// few successes of ours (the check fails for it).
    #[test]
    fn the_mean_cell_holds_its_level_and_welch_does_not() {
        let (v2, v1) = levels();
        assert!(v2 > 1e-4 && v1 < 2e-5, "{v2} {v1}");
        for level in [v2, v1] {
            assert_eq!(violations(guarded, level, 3000), vec![], "{level}");
            let bad = violations(welch, level, 3000);
            assert!(
                bad.iter().any(|v| (v.2, v.3) == (5, 100)),
                "{level}: {bad:?}"
            );
        }
    }

    /// Fisher's count cell and the mean cap's one-sided Fisher test against the Markov bound
    /// hold their level (exact and conservative): checked at 0.01, where Monte-Carlo error
    /// can see a violation, and at the race's level.
    #[test]
    fn the_count_and_mean_cap_cells_hold_their_level() {
        let (v2, _) = levels();
        let reps = 3000;
        for (i, &p) in [0.09, 0.5, 0.94].iter().enumerate() {
            let mut rng = rng_from_seed(replicate_seed(12, i, 0));
            let count = |n: u64, rng: &mut Rng| (0..n).filter(|_| uniform(rng) < p).count() as u64;
            let (mut at_1, mut at_race, mut cap) = (0, 0, 0);
            for _ in 0..reps {
                let (a, b) = (count(20, &mut rng), count(100, &mut rng));
                let f = lab_stats::fisher_exact_two_sided(a, 20 - a, b, 100 - b);
                at_1 += u64::from(f <= 0.01);
                at_race += u64::from(f <= v2);
                // The mean cap: successes within 20 x the paper's mean, against Markov's
                // bound of the paper's successes within it.
                let row = RowModel {
                    p,
                    mean: 50.0,
                    cv: 1.0,
                };
                let s = scenarios().remove(4);
                let paper: Vec<Option<u64>> = (0..100)
                    .map(|_| outcome(&s, &row, (1.0, 0.0), &mut rng))
                    .collect();
                let caps = Caps {
                    max_factor: None,
                    mean_factor: Some(20.0),
                };
                let t = Target::new(0, &published(&s, 0, &paper), caps, s.full).unwrap();
                let (Some(c), Some(bound)) = (t.cap, t.by_cap_bound) else {
                    continue;
                };
                let ours = (0..20)
                    .filter(|_| outcome(&s, &row, (1.0, 0.0), &mut rng).is_some_and(|g| g <= c))
                    .count() as u64;
                cap += u64::from(
                    lab_stats::fisher_exact_less(ours, 20 - ours, bound, 100 - bound) <= 0.01,
                );
            }
            assert!(!exceeds(at_1, reps, 0.01), "{p}: {at_1}");
            assert!(!exceeds(at_race, reps, v2), "{p}: {at_race}");
            assert!(!exceeds(cap, reps, 0.01), "{p}: {cap}");
        }
    }

    /// The quantile cells of the capped stage (solved by the published maximum, by the
    /// published median, Fisher's two-sided test against `s` and `ceil(s/2)` of the paper's
    /// runs) hold their level when our runs follow the paper's law: the paper's row made from
    /// 100 simulated runs (integer generations, so a median can be tied), ours 20 runs capped
    /// at twice its maximum. Small means (many ties) and Ret-GA's means, rare and certain
    /// success; checked at 0.01, where Monte-Carlo error can see a violation, and at the
    /// race's smallest v2 level. The same check fails on runs slower than the paper's.
    #[test]
    fn the_quantile_cells_hold_their_level() {
        let (v2, _) = levels();
        let reps = 3000;
        let rows = [
            (0.16, 8.0),
            (0.5, 12.0),
            (0.94, 70.0),
            (1.0, 30.0),
            (0.94, 25932.0),
        ];
        for (i, &(p, mean)) in rows.iter().enumerate() {
            let rejected = quantile_rejections((p, mean), 1.0, (reps, i), v2);
            assert!(rejected.contains_key("solved_by_median"), "{rejected:?}");
            for (cell, &(at_1, at_race)) in rejected.iter().filter(|c| c.0 != "old_median") {
                assert!(!exceeds(at_1, reps, 0.01), "{p} {mean} {cell}: {at_1}");
                assert!(!exceeds(at_race, reps, v2), "{p} {mean} {cell}: {at_race}");
            }
        }
        // The check sees a departure: runs 1.3 times slower than the paper's exceed 0.01.
        let slow = quantile_rejections((0.94, 70.0), 1.3, (reps, 2), v2);
        assert!(
            slow.values().any(|&(at_1, _)| exceeds(at_1, reps, 0.01)),
            "{slow:?}"
        );
    }

    /// The median cell holds its level under ties: whole generations of a geometric law
    /// (mean 4; 60, 70 and 80 % of the runs in generation 1), so the published median is
    /// tied and the paper's count by it is above ceil(s/2). Procedures v1 and v2's median cell
    /// (`old_median`: Fisher's test against ceil(s/2)) exceeds 0.01 there (the check sees
    /// it); v3's tie-aware cell does not, at 0.01 nor at the race's smallest level.
    #[test]
    fn the_median_cell_holds_its_level_under_ties() {
        let (v2, _) = levels();
        let reps = 3000;
        let mut old_fails = 0;
        for (i, &mean) in [4.0, 1.0 / 0.6, 1.0 / 0.7, 1.0 / 0.8].iter().enumerate() {
            for (j, &p) in [1.0, 0.94].iter().enumerate() {
                let r = quantile_rejections_of(
                    Dist::Geometric,
                    (p, mean),
                    1.0,
                    (reps, 20 + 2 * i + j),
                    v2,
                );
                for (cell, &(at_1, at_race)) in r.iter().filter(|c| c.0 != "old_median") {
                    assert!(!exceeds(at_1, reps, 0.01), "{p} {mean} {cell}: {at_1}");
                    assert!(!exceeds(at_race, reps, v2), "{p} {mean} {cell}: {at_race}");
                }
                old_fails += u64::from(exceeds(r["old_median"].0, reps, 0.01));
            }
        }
        assert!(old_fails >= 4, "{old_fails}");
    }

    /// Rejections at 0.01 and at `level`, per quantile cell, of `reps` draws (seeded by
    /// `i`): the paper's row from 100 runs of (rate, mean), ours 20 runs whose generations
    /// take `slow` times as long, capped at twice the published maximum.
    fn quantile_rejections(
        (p, mean): (f64, f64),
        slow: f64,
        (reps, i): (u64, usize),
        level: f64,
    ) -> BTreeMap<String, (u64, u64)> {
        quantile_rejections_of(Dist::LogNormal, (p, mean), slow, (reps, i), level)
    }

    /// [`quantile_rejections`] under the law `dist` (procedure v3's cells), with the
    /// rejections of v1 and v2's median cell (Fisher's test of our count by the median against
    /// ceil(s/2)) as the cell `old_median`.
    fn quantile_rejections_of(
        dist: Dist,
        (p, mean): (f64, f64),
        slow: f64,
        (reps, i): (u64, usize),
        level: f64,
    ) -> BTreeMap<String, (u64, u64)> {
        let mut s = scenarios().remove(0);
        s.dist = dist;
        let row = RowModel { p, mean, cv: 0.8 };
        let mut rng = rng_from_seed(replicate_seed(13, i, 0));
        let caps = Caps {
            max_factor: Some(2.0),
            mean_factor: None,
        };
        let mut rejected: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for _ in 0..reps {
            let paper: Vec<Option<u64>> = (0..100)
                .map(|_| outcome(&s, &row, (1.0, 0.0), &mut rng))
                .collect();
            let t = Target::new(0, &published(&s, 0, &paper), caps, s.full).unwrap();
            let cap = t.cap.unwrap_or(s.full);
            let mut x = Tally::default();
            for _ in 0..20 {
                let g = outcome(&s, &row, (slow, 0.0), &mut rng);
                let within = g.filter(|&g| g <= cap);
                x.add(&t, within.is_some(), within.unwrap_or(cap), None);
            }
            let mut tests = Vec::new();
            capped_tests(Procedure::V3, &t, &x, &mut tests);
            if let (Some(s), Some(n)) = (t.row.count, t.row.runs) {
                let half = s.div_ceil(2);
                tests.push(crate::readings::cells::Test {
                    cell: "old/old_median".into(),
                    p: lab_stats::fisher_exact_two_sided(
                        x.by_median,
                        x.runs - x.by_median,
                        half,
                        n - half,
                    ),
                });
            }
            for test in tests {
                let cell = test.cell.rsplit_once('/').map_or("", |c| c.1).to_string();
                let e = rejected.entry(cell).or_default();
                e.0 += u64::from(test.p <= 0.01);
                e.1 += u64::from(test.p <= level);
            }
        }
        rejected
    }

    /// The whole race on Ret-GA-shaped tables, few replicates: under v2 and v3 a true reading is
    /// eliminated at most at alpha (beyond Monte-Carlo error), and the departures are found
    /// more often than that. Deterministic, and independent of the thread count.
    #[test]
    fn a_true_reading_is_eliminated_at_most_at_alpha_under_v2_and_v3() {
        let mut s = scenarios();
        s.retain(|s| s.name == "ret-ga-lognormal" || s.name == "reseda-count-mean");
        for s in &mut s {
            s.rows.truncate(3);
        }
        let rates = study(&s, 40, 5, 0.05, 2).unwrap();
        assert_eq!(rates, study(&s, 40, 5, 0.05, 1).unwrap());
        for r in rates.iter().filter(|r| r.procedure.spends_alpha()) {
            assert!(!exceeds(r.eliminated[0], r.replicates, 0.05), "{r:?}");
            assert!(r.eliminated[2] > r.eliminated[0], "{r:?}");
        }
    }

    /// The committed study (results/readings-calibration/error-rates.csv) holds what the
    /// docs claim of it: at least 1000 replicates per scenario; under v3, the default of new
    /// races, the true reading eliminated at most at alpha in every scenario, at least three
    /// of them with tied generations (geometric laws); and v2 above alpha on some tied one
    /// (the defect v3 removes).
    #[test]
    fn the_committed_study_holds_v3_at_alpha_under_ties() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../results/readings-calibration/error-rates.csv"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        let (mut tied_v3, mut tied_v2_over) = (0, 0);
        for r in &rows {
            let reps: u64 = r[col("replicates")].parse().unwrap();
            let alpha: f64 = r[col("alpha")].parse().unwrap();
            let rate: f64 = r[col("false_elimination")].parse().unwrap();
            assert!(reps >= 1000, "{r:?}");
            let tied = r[col("scenario")].starts_with("geometric");
            match r[col("procedure")] {
                "v3" => {
                    assert!(rate <= alpha, "{r:?}");
                    tied_v3 += u32::from(tied);
                }
                "v2" => tied_v2_over += u32::from(tied && rate > alpha),
                _ => {}
            }
        }
        assert!(tied_v3 >= 3, "{tied_v3}");
        assert!(tied_v2_over >= 1, "{tied_v2_over}");
    }

    #[test]
    fn clopper_pearson_stays_in_the_unit_interval() {
        assert_eq!(clopper_pearson(0, 10, 0.95).0, 0.0);
        assert_eq!(clopper_pearson(10, 10, 0.95).1, 1.0);
        let (lo, hi) = clopper_pearson(5, 100, 0.95);
        // R: binom.test(5, 100)$conf.int = 0.01643187 0.11283491
        assert!(
            (lo - 0.01643187).abs() < 1e-6 && (hi - 0.11283491).abs() < 1e-6,
            "{lo} {hi}"
        );
    }
}

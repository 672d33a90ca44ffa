//! Censored run times: the Kaplan-Meier estimate of a runtime distribution, its pointwise
//! confidence interval, the median time with its interval, and the log-rank test, as the
//! Python library `lifelines` 0.30 computes them (`KaplanMeierFitter`, `median_survival_times`,
//! `logrank_test`).
//!
//! Why censoring: a run that stopped unsolved after `t` evaluations says "its time to solve is
//! more than `t`", not "infinite" nor "`t` plus a penalty". The Kaplan-Meier estimator uses
//! exactly that: the run counts as at risk up to `t`, then leaves the risk set. With every
//! unsolved run stopped at the common budget, `1 - S(t)` equals the plain runtime ECDF below
//! the budget; with runs stopped early (an algorithm's own stopping rule) the two differ and
//! only the censored estimate is unbiased for the runtime distribution.
//!
//! Ties follow the usual convention (and lifelines'): at a time `t`, the runs censored at `t`
//! are still at risk at `t`, events are counted before censorings.

use crate::StatsError;
use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// Distinct observed times, ascending, with the runs that ended there by an event (solved) and
/// by censoring (stopped unsolved).
#[derive(Debug, Clone, PartialEq)]
pub struct LifeTable {
    pub times: Vec<f64>,
    pub events: Vec<u64>,
    pub censored: Vec<u64>,
}

impl LifeTable {
    /// The table of `times` (finite, >= 0) with `events[i]` true when run `i` ended by the
    /// event (solved) and false when it was censored.
    pub fn new(times: &[f64], events: &[bool]) -> Result<LifeTable, StatsError> {
        if times.len() != events.len() {
            return Err(StatsError::LengthMismatch {
                what: "event indicators for the times",
                expected: times.len(),
                got: events.len(),
            });
        }
        if let Some(&t) = times.iter().find(|t| !(t.is_finite() && **t >= 0.0)) {
            return Err(StatsError::InvalidValue {
                what: "a run time (finite, >= 0)",
                value: t,
            });
        }
        let mut order: Vec<usize> = (0..times.len()).collect();
        order.sort_by(|&a, &b| times[a].total_cmp(&times[b]));
        let mut table = LifeTable {
            times: Vec::new(),
            events: Vec::new(),
            censored: Vec::new(),
        };
        for i in order {
            if table.times.last() != Some(&times[i]) {
                table.times.push(times[i]);
                table.events.push(0);
                table.censored.push(0);
            }
            let k = table.times.len() - 1;
            if events[i] {
                table.events[k] += 1;
            } else {
                table.censored[k] += 1;
            }
        }
        Ok(table)
    }

    /// Runs in the table.
    pub fn len(&self) -> u64 {
        self.events.iter().sum::<u64>() + self.censored.iter().sum::<u64>()
    }

    /// True without runs.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }
}

/// The Kaplan-Meier estimate at each distinct time of a [`LifeTable`]: `survival[k]` is
/// `S(t)` for `times[k] <= t < times[k + 1]` (1 before the first time), with its pointwise
/// confidence interval `(low[k], high[k])`.
#[derive(Debug, Clone, PartialEq)]
pub struct KaplanMeier {
    pub times: Vec<f64>,
    pub at_risk: Vec<u64>,
    pub events: Vec<u64>,
    pub survival: Vec<f64>,
    pub low: Vec<f64>,
    pub high: Vec<f64>,
}

/// A time read off a survival curve: reached at a time, or not reached within the data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reached {
    At(f64),
    /// The curve never falls to the level: "not reached" (lifelines returns `inf`).
    NotReached,
}

impl Reached {
    /// The time, or None when not reached.
    pub fn time(self) -> Option<f64> {
        match self {
            Reached::At(t) => Some(t),
            Reached::NotReached => None,
        }
    }
}

/// The median time with its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MedianTime {
    pub median: Reached,
    pub low: Reached,
    pub high: Reached,
}

/// The Kaplan-Meier estimate of `table` with the exponential Greenwood ("log(-log)")
/// interval of level `level` (0.95 for 95 %), lifelines' default: with
/// `V(t) = sum d / (n (n - d))` over the event times up to `t` (a term with `n = d` counts 0,
/// as lifelines does) and `z` the `(1 + level) / 2` normal quantile, the bounds are
/// `exp(-exp(log(-log S) -+ z sqrt(V) / log S))`. They always lie in [0, 1]; where `S = 1`
/// the interval is [1, 1] and where `S = 0` it is [0, 0].
pub fn kaplan_meier(table: &LifeTable, level: f64) -> Result<KaplanMeier, StatsError> {
    let z = normal_z(level)?;
    let k = table.times.len();
    let mut km = KaplanMeier {
        times: table.times.clone(),
        at_risk: Vec::with_capacity(k),
        events: table.events.clone(),
        survival: Vec::with_capacity(k),
        low: Vec::with_capacity(k),
        high: Vec::with_capacity(k),
    };
    let mut n = table.len();
    let (mut s, mut var) = (1.0f64, 0.0f64);
    for i in 0..k {
        let d = table.events[i];
        km.at_risk.push(n);
        if d > 0 {
            s *= (n - d) as f64 / n as f64;
            if n > d {
                var += d as f64 / (n as f64 * (n - d) as f64);
            }
        }
        let (lo, hi) = greenwood_bounds(s, var, z);
        km.survival.push(s);
        km.low.push(lo);
        km.high.push(hi);
        n -= d + table.censored[i];
    }
    Ok(km)
}

/// The exponential Greenwood bounds of `s` with cumulative variance term `var`.
fn greenwood_bounds(s: f64, var: f64, z: f64) -> (f64, f64) {
    if s >= 1.0 {
        return (1.0, 1.0);
    }
    if s <= 0.0 {
        return (0.0, 0.0);
    }
    let v = s.ln();
    let half = z * var.sqrt() / v;
    let lo = (-((-v).ln() - half).exp()).exp();
    let hi = (-((-v).ln() + half).exp()).exp();
    (lo.clamp(0.0, 1.0), hi.clamp(0.0, 1.0))
}

/// The `(1 + level) / 2` quantile of the standard normal distribution.
fn normal_z(level: f64) -> Result<f64, StatsError> {
    if !(level > 0.0 && level < 1.0) {
        return Err(StatsError::InvalidValue {
            what: "confidence level (0 < level < 1)",
            value: level,
        });
    }
    let normal = Normal::new(0.0, 1.0).map_err(|_| StatsError::InvalidValue {
        what: "normal distribution",
        value: 1.0,
    })?;
    Ok(normal.inverse_cdf((1.0 + level) / 2.0))
}

/// How far above `q` a curve may lie and still count as reaching it: the product of the
/// factors `(n - d) / n` is `q` only up to rounding (180 runs of which 90 solved give
/// 0.5000000000000002 or 0.4999999999999998 depending on the order of the factors, and
/// lifelines' `exp(sum(log))` rounds differently again); a curve that is `q` in exact
/// arithmetic reaches `q`.
const REACH_TOLERANCE: f64 = 1e-12;

/// The first time at which `curve` (aligned with `times`) is at most `q`: lifelines'
/// `qth_survival_time`, no interpolation (R's `survfit` takes the midpoint where the curve
/// equals `q` over an interval; lifelines, and we, take the first time).
fn first_at_most(times: &[f64], curve: &[f64], q: f64) -> Reached {
    curve
        .iter()
        .position(|&s| s <= q + REACH_TOLERANCE)
        .map_or(Reached::NotReached, |i| Reached::At(times[i]))
}

impl KaplanMeier {
    /// `S(t)`: the estimate at the last time at or before `t` (1 before the first).
    pub fn survival_at(&self, t: f64) -> f64 {
        let i = self.times.partition_point(|&x| x <= t);
        if i == 0 {
            1.0
        } else {
            self.survival[i - 1]
        }
    }

    /// The median time and its interval as lifelines gives them
    /// (`median_survival_time_` and `median_survival_times(confidence_interval_)`): the
    /// first time the estimate falls to 0.5 or below, and the first times the lower and the
    /// upper confidence curves do (the lower curve gives the lower end). Any of the three
    /// can be "not reached" (lifelines: `inf`).
    pub fn median(&self) -> MedianTime {
        MedianTime {
            median: first_at_most(&self.times, &self.survival, 0.5),
            low: first_at_most(&self.times, &self.low, 0.5),
            high: first_at_most(&self.times, &self.high, 0.5),
        }
    }
}

/// The log-rank test of two samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogRank {
    /// `(O_a - E_a)^2 / V`, chi-square with 1 degree of freedom under equal distributions.
    pub statistic: f64,
    pub p_value: f64,
    /// Events observed in sample a and expected there under the null hypothesis.
    pub observed_a: f64,
    pub expected_a: f64,
}

/// The log-rank (Mantel-Cox) test of `a` against `b`, as lifelines' `logrank_test`: at each
/// distinct event time of the pooled sample, with `n` at risk (`n_a` of them in a) and `d`
/// events, `E_a += d n_a / n` and `V += d (n - d) n_a (n - n_a) / (n^2 (n - 1))` (`n = 1`
/// contributes 0); the statistic `(O_a - E_a)^2 / V` against chi-square(1). `ZeroVariance`
/// when `V = 0` (no event, or the samples never overlap at an event time).
pub fn logrank_test(a: &LifeTable, b: &LifeTable) -> Result<LogRank, StatsError> {
    let (mut na, mut nb) = (a.len() as f64, b.len() as f64);
    let (mut i, mut j) = (0, 0);
    let (mut observed, mut expected, mut var) = (0.0, 0.0, 0.0);
    while i < a.times.len() || j < b.times.len() {
        let t = match (a.times.get(i), b.times.get(j)) {
            (Some(&x), Some(&y)) => x.min(y),
            (Some(&x), None) => x,
            (None, Some(&y)) => y,
            (None, None) => break,
        };
        let (mut da, mut ca, mut db, mut cb) = (0.0, 0.0, 0.0, 0.0);
        if a.times.get(i) == Some(&t) {
            (da, ca) = (a.events[i] as f64, a.censored[i] as f64);
            i += 1;
        }
        if b.times.get(j) == Some(&t) {
            (db, cb) = (b.events[j] as f64, b.censored[j] as f64);
            j += 1;
        }
        let (n, d) = (na + nb, da + db);
        if d > 0.0 {
            observed += da;
            expected += d * na / n;
            if n > 1.0 {
                var += d * (n - d) * na * nb / (n * n * (n - 1.0));
            }
        }
        na -= da + ca;
        nb -= db + cb;
    }
    if var <= 0.0 {
        return Err(StatsError::ZeroVariance(
            "log-rank test: no event time at which both samples are at risk",
        ));
    }
    let statistic = (observed - expected).powi(2) / var;
    let chi = ChiSquared::new(1.0).map_err(|_| StatsError::InvalidValue {
        what: "chi-square degrees of freedom",
        value: 1.0,
    })?;
    Ok(LogRank {
        statistic,
        p_value: chi.sf(statistic).clamp(0.0, 1.0),
        observed_a: observed,
        expected_a: expected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn life_table_groups_ties_and_rejects_bad_times() {
        let t = LifeTable::new(&[3.0, 1.0, 3.0, 3.0], &[true, false, false, true]).unwrap();
        assert_eq!(t.times, vec![1.0, 3.0]);
        assert_eq!(t.events, vec![0, 2]);
        assert_eq!(t.censored, vec![1, 1]);
        assert!(LifeTable::new(&[1.0, f64::NAN], &[true, true]).is_err());
        assert!(LifeTable::new(&[-1.0], &[true]).is_err());
        assert!(LifeTable::new(&[1.0], &[]).is_err());
    }

    #[test]
    fn no_event_means_survival_one_and_median_not_reached() {
        let t = LifeTable::new(&[5.0, 5.0], &[false, false]).unwrap();
        let km = kaplan_meier(&t, 0.95).unwrap();
        assert_eq!((km.survival[0], km.low[0], km.high[0]), (1.0, 1.0, 1.0));
        let m = km.median();
        assert_eq!(m.median, Reached::NotReached);
        assert_eq!(m.low.time(), None);
        assert!(kaplan_meier(&t, 1.0).is_err());
    }

    #[test]
    fn a_curve_that_is_one_half_up_to_rounding_reaches_its_median() {
        // 180 runs, the 90 solved ones at distinct times, the rest censored after them: S is
        // 90/180 in exact arithmetic, a few ulps off in floating point. lifelines 0.30.3:
        // KaplanMeierFitter().fit(range(1, 181), [1] * 90 + [0] * 90) gives
        // S = 0.49999999999999994 there and median_survival_time_ = 90.0.
        let times: Vec<f64> = (1..=180).map(f64::from).collect();
        let events: Vec<bool> = (0..180).map(|i| i < 90).collect();
        let km = kaplan_meier(&LifeTable::new(&times, &events).unwrap(), 0.95).unwrap();
        assert!((km.survival[89] - 0.5).abs() < 1e-14);
        assert_eq!(km.median().median, Reached::At(90.0));
    }

    #[test]
    fn a_flat_stretch_at_one_half_gives_its_start() {
        // 4 runs: solved at 1 and 2, one censored at 3, one solved at 4. S = 3/4, then 1/2
        // from t = 2 (flat over the censoring at 3), then 0. The median is the smallest t with
        // S(t) <= 1/2 in exact arithmetic: 2, the start of the stretch (R's survfit would
        // take the midpoint of 2 and 4; lifelines can give 4 when its exp(sum(log)) rounds the
        // 1/2 an ulp up).
        let t = LifeTable::new(&[1.0, 2.0, 3.0, 4.0], &[true, true, false, true]).unwrap();
        let km = kaplan_meier(&t, 0.95).unwrap();
        assert_eq!(km.survival_at(2.0), 0.5);
        assert_eq!(km.survival_at(3.5), 0.5);
        assert_eq!(km.median().median, Reached::At(2.0));
    }
}

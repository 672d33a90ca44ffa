//! Equivalence to a published value within a margin: two one-sided tests (TOST; D. J.
//! Schuirmann, "A comparison of the two one-sided tests procedure and the power approach for
//! assessing the equivalence of average bioavailability", J. Pharmacokinet. Biopharm. 15
//! (1987) 657-680), each at `alpha`, which is the `1 - 2 alpha` interval lying inside the
//! margin around the published value. The published value is taken as given: the question
//! is whether our quantity lies within the margin of the number the table prints.
//!
//! - Success rates: the exact (Clopper-Pearson) interval, so that a rate sitting on the
//!   margin is declared within it with probability at most `alpha` for every run count
//!   (each one-sided test is an exact binomial test). The interval never leaves [0, 1].
//! - Means (of generations, which are never negative): the t interval with the *guarded* SD,
//!   the larger of ours and the published one (as [`crate::guarded_mean_test`]: a handful of
//!   right-skewed values with a low mean come with a low SD, which must not make the
//!   interval narrow), cut at 0.
//!
//! With each, the runs that would make the equivalence decidable: the fewest at which it is
//! declared with a stated probability when the truth is a given value (exact for rates, the
//! normal approximation with the t critical value for means).

use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, StudentsT};

use crate::StatsError;

/// The verdict of an equivalence test and the interval it rests on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Equivalence {
    /// The `1 - 2 alpha` interval of our quantity.
    pub interval: (f64, f64),
    /// Both one-sided tests reject: the quantity lies within the margin.
    pub within: bool,
}

fn check_open(what: &'static str, value: f64) -> Result<(), StatsError> {
    if value > 0.0 && value < 1.0 {
        Ok(())
    } else {
        Err(StatsError::InvalidValue { what, value })
    }
}

fn binomial(p: f64, n: u64) -> Result<Binomial, StatsError> {
    Binomial::new(p, n).map_err(|_| StatsError::InvalidValue {
        what: "rate",
        value: p,
    })
}

/// `P(X >= x)` for `X ~ Bin(n, p)`.
fn at_least(x: u64, n: u64, p: f64) -> Result<f64, StatsError> {
    Ok(if x == 0 {
        1.0
    } else {
        binomial(p, n)?.sf(x - 1)
    })
}

/// The Clopper-Pearson interval of `x` successes of `n` at confidence `level` (C. J. Clopper
/// and E. S. Pearson, Biometrika 26 (1934) 404-413): the rates whose one-sided binomial tests
/// of `x` both exceed `(1 - level) / 2`, found by bisection on the binomial tails (as R's
/// `binom.test(x, n, conf.level = level)$conf.int`, to 1e-10).
///
/// # Errors
///
/// [`StatsError::TooFewObservations`] at `n = 0`; [`StatsError::InvalidValue`] when `x > n` or
/// `level` is not in (0, 1).
pub fn clopper_pearson(x: u64, n: u64, level: f64) -> Result<(f64, f64), StatsError> {
    if n == 0 {
        return Err(StatsError::TooFewObservations {
            sample: "runs",
            n: 0,
            min: 1,
        });
    }
    if x > n {
        return Err(StatsError::InvalidValue {
            what: "successes (above the runs)",
            value: x as f64,
        });
    }
    check_open("confidence level", level)?;
    let tail = (1.0 - level) / 2.0;
    // P(X >= x | p) grows with p; P(X <= x | p) falls with it.
    let solve = |f: &dyn Fn(f64) -> f64, rising: bool| {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if (f(mid) < tail) == rising {
                lo = mid;
            } else {
                hi = mid;
            }
            if hi - lo < 1e-12 {
                break;
            }
        }
        0.5 * (lo + hi)
    };
    let lower = match x {
        0 => 0.0,
        _ => solve(&|p| at_least(x, n, p).unwrap_or(f64::NAN), true),
    };
    let upper = match x == n {
        true => 1.0,
        false => solve(&|p| binomial(p, n).map_or(f64::NAN, |b| b.cdf(x)), false),
    };
    Ok((lower, upper))
}

/// Whether `x` of `n` passes both exact one-sided tests at `alpha` against the margin
/// `[p0 - margin, p0 + margin]` (a side beyond 0 or 1 always passes).
fn rate_within(x: u64, n: u64, (low, high): (f64, f64), alpha: f64) -> Result<bool, StatsError> {
    let above = low <= 0.0 || (x > 0 && at_least(x, n, low)? <= alpha);
    let below = high >= 1.0 || (x < n && binomial(high, n)?.cdf(x) <= alpha);
    Ok(above && below)
}

fn check_rate_margin(p0: f64, margin: f64, alpha: f64) -> Result<(f64, f64), StatsError> {
    if !(0.0..=1.0).contains(&p0) {
        return Err(StatsError::InvalidValue {
            what: "published rate",
            value: p0,
        });
    }
    check_open("margin", margin)?;
    check_open("alpha", alpha)?;
    if alpha >= 0.5 {
        return Err(StatsError::InvalidValue {
            what: "alpha (below 0.5 for two one-sided tests)",
            value: alpha,
        });
    }
    Ok((p0 - margin, p0 + margin))
}

/// TOST of our `x` successes of `n` against the published rate `p0` within `margin` (a
/// difference of rates, e.g. 0.10), each one-sided exact binomial test at `alpha`; the
/// interval is the `1 - 2 alpha` Clopper-Pearson interval (inside the margin exactly when
/// both tests reject).
///
/// # Errors
///
/// As [`clopper_pearson`], and [`StatsError::InvalidValue`] for `p0` outside [0, 1], or
/// `margin` or `alpha` outside (0, 1) (`alpha` below 0.5).
pub fn rate_equivalence(
    x: u64,
    n: u64,
    p0: f64,
    margin: f64,
    alpha: f64,
) -> Result<Equivalence, StatsError> {
    let bounds = check_rate_margin(p0, margin, alpha)?;
    let interval = clopper_pearson(x, n, 1.0 - 2.0 * alpha)?;
    Ok(Equivalence {
        interval,
        within: rate_within(x, n, bounds, alpha)?,
    })
}

/// The probability that [`rate_equivalence`] declares `n` runs at true rate `p` within the
/// margin: the exact binomial sum over the counts it accepts (an interval of counts).
///
/// # Errors
///
/// As [`rate_equivalence`], and for `p` outside [0, 1].
pub fn rate_equivalence_power(
    n: u64,
    p: f64,
    p0: f64,
    margin: f64,
    alpha: f64,
) -> Result<f64, StatsError> {
    let bounds = check_rate_margin(p0, margin, alpha)?;
    let b = binomial(p, n)?;
    // The lower test passes from some count upwards, the upper one up to some count.
    let first = |pass: &dyn Fn(u64) -> Result<bool, StatsError>| -> Result<u64, StatsError> {
        let (mut lo, mut hi) = (0u64, n + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pass(mid)? {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Ok(lo)
    };
    let (low, high) = bounds;
    let from = first(&|x| Ok(low <= 0.0 || (x > 0 && at_least(x, n, low)? <= alpha)))?;
    let past = first(&|x| Ok(!(high >= 1.0 || (x < n && binomial(high, n)?.cdf(x) <= alpha))))?;
    if from >= past {
        return Ok(0.0);
    }
    let below = if from == 0 { 0.0 } else { b.cdf(from - 1) };
    Ok((b.cdf(past - 1) - below).clamp(0.0, 1.0))
}

/// The fewest runs, up to `max_n`, at which a monotone-ish `power(n)` first reaches `target`:
/// doubling, then bisection between the last miss and the first hit (an exact test's power
/// is a saw-tooth in `n`, so this is the first crossing the doubling brackets).
fn fewest(
    start: u64,
    max_n: u64,
    target: f64,
    power: impl Fn(u64) -> Result<f64, StatsError>,
) -> Result<Option<u64>, StatsError> {
    let mut hi = start;
    let mut lo = start - 1;
    while power(hi)? < target {
        if hi >= max_n {
            return Ok(None);
        }
        lo = hi;
        hi = (hi * 2).min(max_n);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if power(mid)? >= target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi))
}

/// The fewest runs (up to `max_n`) at which [`rate_equivalence`] is declared with
/// probability `power` when the true rate is `p`; None when `p` is not inside the margin
/// (no run count suffices) or `max_n` does not suffice.
///
/// # Errors
///
/// As [`rate_equivalence_power`], and for `power` outside (0, 1).
pub fn rate_equivalence_runs(
    p: f64,
    p0: f64,
    margin: f64,
    alpha: f64,
    power: f64,
    max_n: u64,
) -> Result<Option<u64>, StatsError> {
    check_open("power", power)?;
    let (low, high) = check_rate_margin(p0, margin, alpha)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(StatsError::InvalidValue {
            what: "rate",
            value: p,
        });
    }
    let inside = (low <= 0.0 || p > low) && (high >= 1.0 || p < high);
    if !inside || max_n == 0 {
        return Ok(None);
    }
    fewest(1, max_n, power, |n| {
        rate_equivalence_power(n, p, p0, margin, alpha)
    })
}

/// TOST of our mean (`mean1`, `sd1` of `n1`) against the published `mean0` (SD `sd0`) within
/// a relative `margin` (`mean0 (1 - margin)` to `mean0 (1 + margin)`): the `1 - 2 alpha` t
/// interval `mean1 +- t(1 - alpha, n1 - 1) s / sqrt(n1)` with the guarded SD
/// `s = max(sd1, sd0)`, cut at 0 (a mean of generations is never negative).
///
/// # Errors
///
/// [`StatsError::TooFewObservations`] below 2 observations; [`StatsError::InvalidValue`] for
/// a non-finite or negative mean or SD, `margin` or `alpha` outside (0, 1) (`alpha` below
/// 0.5).
pub fn mean_equivalence(
    mean1: f64,
    sd1: f64,
    n1: u64,
    (mean0, sd0): (f64, f64),
    margin: f64,
    alpha: f64,
) -> Result<Equivalence, StatsError> {
    let (low, high) = check_mean(mean0, margin, alpha)?;
    if n1 < 2 {
        return Err(StatsError::TooFewObservations {
            sample: "ours",
            n: n1,
            min: 2,
        });
    }
    for (what, value) in [("mean1", mean1), ("sd1", sd1), ("sd0", sd0)] {
        if !value.is_finite() || value < 0.0 {
            return Err(StatsError::InvalidValue { what, value });
        }
    }
    let half = t_quantile(1.0 - alpha, n1)? * sd1.max(sd0) / (n1 as f64).sqrt();
    let interval = ((mean1 - half).max(0.0), mean1 + half);
    Ok(Equivalence {
        interval,
        within: interval.0 >= low && interval.1 <= high,
    })
}

fn check_mean(mean0: f64, margin: f64, alpha: f64) -> Result<(f64, f64), StatsError> {
    if !mean0.is_finite() || mean0 < 0.0 {
        return Err(StatsError::InvalidValue {
            what: "published mean",
            value: mean0,
        });
    }
    check_rate_margin(0.5, margin, alpha)?;
    Ok((mean0 * (1.0 - margin), mean0 * (1.0 + margin)))
}

/// Student's t quantile at `q` with `n - 1` degrees of freedom.
fn t_quantile(q: f64, n: u64) -> Result<f64, StatsError> {
    let df = (n - 1) as f64;
    let t = StudentsT::new(0.0, 1.0, df).map_err(|_| StatsError::InvalidValue {
        what: "degrees of freedom",
        value: df,
    })?;
    Ok(t.inverse_cdf(q))
}

/// The fewest observations (at least 2, up to `max_n`) at which [`mean_equivalence`] is
/// declared with probability `power` when the true mean is `mean` and the guarded SD is `sd`:
/// the normal approximation `Phi((high - mean) / se - t) - Phi((low - mean) / se + t)`,
/// `se = sd / sqrt(n)`, `t = t(1 - alpha, n - 1)`. None when `mean` is not inside the margin
/// or `max_n` does not suffice.
///
/// # Errors
///
/// [`StatsError::InvalidValue`] for a non-finite or negative mean or SD, `margin`, `alpha` or
/// `power` outside (0, 1) (`alpha` below 0.5).
pub fn mean_equivalence_runs(
    (mean, sd): (f64, f64),
    mean0: f64,
    margin: f64,
    alpha: f64,
    power: f64,
    max_n: u64,
) -> Result<Option<u64>, StatsError> {
    let (low, high) = check_mean(mean0, margin, alpha)?;
    check_open("power", power)?;
    for (what, value) in [("mean", mean), ("sd", sd)] {
        if !value.is_finite() || value < 0.0 {
            return Err(StatsError::InvalidValue { what, value });
        }
    }
    if !(mean > low && mean < high) || max_n < 2 {
        return Ok(None);
    }
    let phi = |z: f64| 0.5 * libm::erfc(-z / std::f64::consts::SQRT_2);
    fewest(2, max_n, power, |n| {
        let t = t_quantile(1.0 - alpha, n)?;
        if sd == 0.0 {
            return Ok(1.0);
        }
        let se = sd / (n as f64).sqrt();
        Ok((phi((high - mean) / se - t) - phi((low - mean) / se + t)).max(0.0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R: binom.test(7, 20)$conf.int = 0.1539092 0.5921885; binom.test(0, 10) upper
    /// 0.3084971; binom.test(10, 10) lower 0.6915029.
    #[test]
    fn clopper_pearson_matches_r() {
        let (lo, hi) = clopper_pearson(7, 20, 0.95).unwrap();
        assert!((lo - 0.153_909_2).abs() < 1e-6 && (hi - 0.592_188_5).abs() < 1e-6);
        assert_eq!(clopper_pearson(0, 10, 0.95).unwrap().0, 0.0);
        assert!((clopper_pearson(0, 10, 0.95).unwrap().1 - 0.308_497_1).abs() < 1e-6);
        assert!((clopper_pearson(10, 10, 0.95).unwrap().0 - 0.691_502_9).abs() < 1e-6);
        assert!(clopper_pearson(11, 10, 0.95).is_err());
        assert!(clopper_pearson(0, 0, 0.95).is_err());
    }

    /// The verdict is the `1 - 2 alpha` interval inside the margin (both one-sided tests
    /// reject); 50 of 100 against 0.5 within 0.1 is declared, 5 of 10 is not (too few runs).
    #[test]
    fn rate_equivalence_is_the_interval_inside_the_margin() {
        for (x, n, p0) in [(95, 100, 0.9), (50, 100, 0.5), (5, 10, 0.5), (80, 100, 0.9)] {
            let e = rate_equivalence(x, n, p0, 0.1, 0.05).unwrap();
            let (lo, hi) = e.interval;
            let inside = (lo >= p0 - 0.1 || p0 - 0.1 <= 0.0) && (hi <= p0 + 0.1 || p0 + 0.1 >= 1.0);
            // Away from the margin's ends (by 1e-6), the interval and the tests agree.
            let clear = (lo - (p0 - 0.1)).abs() > 1e-6 && (hi - (p0 + 0.1)).abs() > 1e-6;
            assert!(!clear || inside == e.within, "{x} {n} {p0}: {e:?}");
        }
        assert!(rate_equivalence(50, 100, 0.5, 0.1, 0.05).unwrap().within);
        assert!(!rate_equivalence(5, 10, 0.5, 0.1, 0.05).unwrap().within);
        assert!(rate_equivalence(50, 100, 0.5, 0.0, 0.05).is_err());
        assert!(rate_equivalence(50, 100, 1.5, 0.1, 0.05).is_err());
    }

    /// The size, exactly: at a true rate on the margin (inside (0, 1)), the probability of declaring
    /// equivalence is at most alpha, for every run count and published rate tried.
    #[test]
    fn the_rate_verdict_keeps_its_size_on_the_margin() {
        for p0 in [0.05, 0.3, 0.5, 0.69, 0.9, 0.95] {
            for n in [5, 10, 50, 100, 333, 1000] {
                for edge in [p0 - 0.1, p0 + 0.1] {
                    // A margin reaching 0 or 1 has no test on that side: nothing lies beyond.
                    if !(edge > 1e-9 && edge < 1.0 - 1e-9) {
                        continue;
                    }
                    let size = rate_equivalence_power(n, edge, p0, 0.1, 0.05).unwrap();
                    assert!(size <= 0.05 + 1e-12, "{p0} {n} {edge}: {size}");
                }
            }
        }
    }

    /// The power sums the accepted counts: checked against a count-by-count sum; the runs
    /// asked for reach the power and one run fewer in the doubling's bracket does not.
    #[test]
    fn rate_runs_reach_the_power() {
        let (p0, m, a) = (0.5, 0.1, 0.05);
        for n in [10u64, 100, 250] {
            let b = Binomial::new(0.52, n).unwrap();
            let direct: f64 = (0..=n)
                .filter(|&x| rate_within(x, n, (p0 - m, p0 + m), a).unwrap())
                .map(|x| statrs::distribution::Discrete::pmf(&b, x))
                .sum();
            let fast = rate_equivalence_power(n, 0.52, p0, m, a).unwrap();
            assert!((direct - fast).abs() < 1e-12, "{n}: {direct} {fast}");
        }
        let n = rate_equivalence_runs(0.5, p0, m, a, 0.8, 1_000_000)
            .unwrap()
            .unwrap();
        assert!(rate_equivalence_power(n, 0.5, p0, m, a).unwrap() >= 0.8);
        // The normal approximation: (z(0.95) + z(0.9))^2 0.25 / 0.01 = 214.
        assert!((180..=260).contains(&n), "{n}");
        assert_eq!(
            rate_equivalence_runs(0.6, p0, m, a, 0.8, 1_000_000).unwrap(),
            None
        );
        assert_eq!(rate_equivalence_runs(0.5, p0, m, a, 0.8, 10).unwrap(), None);
    }

    /// Hand computation: mean 100, SD 40 of 16 against 100 (SD 30): the guarded SD is 40,
    /// t(0.95, 15) = 1.7531, half width 1.7531 x 40 / 4 = 17.53: 82.47 to 117.53, inside
    /// 75 to 125. The interval never goes below 0.
    #[test]
    fn mean_equivalence_by_hand() {
        let e = mean_equivalence(100.0, 40.0, 16, (100.0, 30.0), 0.25, 0.05).unwrap();
        assert!((e.interval.0 - 82.47).abs() < 0.01 && (e.interval.1 - 117.53).abs() < 0.01);
        assert!(e.within);
        let e = mean_equivalence(100.0, 10.0, 16, (100.0, 30.0), 0.1, 0.05).unwrap();
        assert!(!e.within, "{e:?}");
        let e = mean_equivalence(5.0, 1.0, 3, (5.0, 50.0), 0.25, 0.05).unwrap();
        assert_eq!(e.interval.0, 0.0);
        assert!(mean_equivalence(5.0, 1.0, 1, (5.0, 1.0), 0.25, 0.05).is_err());
        assert!(mean_equivalence(5.0, -1.0, 5, (5.0, 1.0), 0.25, 0.05).is_err());
    }

    /// The runs for the mean: (z(0.95) + z(0.9))^2 (sd / (margin mean))^2 at the published
    /// mean = 8.56 x (100 / 25)^2 = 137 by the normal approximation; the t quantile adds a
    /// little. A mean outside the margin never gets there.
    #[test]
    fn mean_runs_by_hand() {
        let n = mean_equivalence_runs((100.0, 100.0), 100.0, 0.25, 0.05, 0.8, 1 << 20)
            .unwrap()
            .unwrap();
        assert!((137..=145).contains(&n), "{n}");
        let none = mean_equivalence_runs((130.0, 100.0), 100.0, 0.25, 0.05, 0.8, 1 << 20);
        assert_eq!(none.unwrap(), None);
    }

    /// Simulation of the mean verdict's size on the margin: normal observations whose true
    /// mean is the margin's upper end (SD equal to the published one), 2000 draws of 30: the
    /// share declared within is at most alpha plus four Monte-Carlo standard errors (0.019).
    #[test]
    fn the_mean_verdict_keeps_its_size_on_the_margin() {
        let mut u = crate::detectable::tests::stream(3);
        let mut normal = move || {
            let (a, b) = (u().max(1e-300), u());
            (-2.0 * a.ln()).sqrt() * (2.0 * std::f64::consts::PI * b).cos()
        };
        let (mean0, sd, n, reps) = (200.0, 60.0, 30u64, 2000);
        let within = (0..reps)
            .filter(|_| {
                let xs: Vec<f64> = (0..n).map(|_| 250.0 + sd * normal()).collect();
                let s = crate::summarize(&xs).unwrap();
                mean_equivalence(s.mean, s.sd, n, (mean0, sd), 0.25, 0.05)
                    .unwrap()
                    .within
            })
            .count();
        let rate = within as f64 / reps as f64;
        let se = (0.05f64 * 0.95 / reps as f64).sqrt();
        assert!(rate <= 0.05 + 4.0 * se, "{rate}");
    }
}

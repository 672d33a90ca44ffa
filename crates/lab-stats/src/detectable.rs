//! The smallest departure from a published value that a test detects with a stated power:
//! how far a result could sit from a paper's table and still pass the test that compared
//! them.
//!
//! Both functions take the published numbers as given (the table is what a result is
//! compared with) and ask about the result's own sampling: our `n` runs at a true success
//! rate `p`, or our successes at a true mean.
//!
//! - [`fisher_detectable`]: the exact power of Fisher's test of our `x` of `n` against the
//!   paper's `s` of `m` (two-sided, or one-sided "ours lower") is the sum of `Bin(x; n, p)`
//!   over the `x` the test rejects at `level`, an exact sum; the detectable rates are found
//!   by bisection on each side of `s / m`.
//! - [`mean_detectable`]: the difference of means the guarded mean test (or Welch's test)
//!   rejects with the stated power, from the test's own critical value and the spread of our
//!   mean (normal approximation to our sample mean, our SD taken as the test's: see there).

use statrs::distribution::{Binomial, ContinuousCDF, Discrete, StudentsT};

use crate::{fisher_exact_less, fisher_exact_two_sided, normal_quantile, StatsError};

/// The direction(s) of a proportion test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sides {
    /// Two-sided ([`fisher_exact_two_sided`]).
    Two,
    /// One-sided, ours lower than the paper's ([`fisher_exact_less`]).
    Less,
}

/// The true success rates of our runs at which a proportion test rejects with the stated
/// power: `lower`, the largest rate below the published one (every lower rate is detected
/// at least as often), and `upper`, the smallest rate above it. None on a side where even a
/// rate of 0 (or 1) is not detected that often, or where the test does not look (one-sided).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detectable {
    pub lower: Option<f64>,
    pub upper: Option<f64>,
}

fn check_level(what: &'static str, value: f64) -> Result<(), StatsError> {
    if value > 0.0 && value < 1.0 {
        Ok(())
    } else {
        Err(StatsError::InvalidValue { what, value })
    }
}

/// The exact power of the proportion test of our `n` runs at true rate `p`: the binomial
/// probability of the rejected counts.
fn power_at(rejected: &[bool], n: u64, p: f64) -> f64 {
    let Ok(b) = Binomial::new(p, n) else {
        return f64::NAN;
    };
    (rejected.iter().enumerate())
        .filter(|(_, &r)| r)
        .map(|(x, _)| b.pmf(x as u64))
        .sum()
}

/// Bisection between a rate `good` whose power reaches `target` and a rate `bad` whose power
/// does not (power monotone between them), to 1e-9.
fn bisect(power: impl Fn(f64) -> f64, mut good: f64, mut bad: f64, target: f64) -> f64 {
    for _ in 0..60 {
        let mid = 0.5 * (good + bad);
        if power(mid) >= target {
            good = mid;
        } else {
            bad = mid;
        }
        if (good - bad).abs() < 1e-9 {
            break;
        }
    }
    good
}

/// The success rates that Fisher's exact test of our `n` runs against the paper's `paper` of
/// `paper_n` detects with probability `power` at `level` (see [`Detectable`]).
///
/// # Errors
///
/// [`StatsError::TooFewObservations`] when `n` or `paper_n` is 0;
/// [`StatsError::InvalidValue`] when `paper > paper_n`, or `level` or `power` is not in (0, 1).
pub fn fisher_detectable(
    n: u64,
    paper: u64,
    paper_n: u64,
    level: f64,
    power: f64,
    sides: Sides,
) -> Result<Detectable, StatsError> {
    for (sample, k) in [("our runs", n), ("published runs", paper_n)] {
        if k == 0 {
            return Err(StatsError::TooFewObservations {
                sample,
                n: 0,
                min: 1,
            });
        }
    }
    if paper > paper_n {
        return Err(StatsError::InvalidValue {
            what: "published count (above its runs)",
            value: paper as f64,
        });
    }
    check_level("level", level)?;
    check_level("power", power)?;
    let other = paper_n - paper;
    let rejected: Vec<bool> = (0..=n)
        .map(|x| {
            let p = match sides {
                Sides::Two => fisher_exact_two_sided(x, n - x, paper, other),
                Sides::Less => fisher_exact_less(x, n - x, paper, other),
            };
            p <= level
        })
        .collect();
    let p0 = paper as f64 / paper_n as f64;
    let at = |p: f64| power_at(&rejected, n, p);
    let side = |end: f64| {
        if at(end) < power {
            return None;
        }
        if at(p0) >= power {
            return Some(p0);
        }
        Some(bisect(at, end, p0, power))
    };
    Ok(Detectable {
        lower: side(0.0),
        upper: match sides {
            Sides::Two => side(1.0),
            Sides::Less => None,
        },
    })
}

/// The mean test whose detectable difference is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeanTest {
    /// [`crate::guarded_mean_test`]: the larger variance on both sides, `min(n) - 1` degrees
    /// of freedom.
    Guarded,
    /// [`crate::welch_t_test`].
    Welch,
}

/// The difference between our true mean and the published `mean2` (SD `sd2` of `n2`) that
/// `test` rejects at `level` with probability `power`, given `n1` observations of ours with
/// SD `sd1`: `c se + z_power s / sqrt(n1)`, where `se` and the critical value `c` (Student's t
/// at `1 - level / 2`) are the test's, and `s` is the SD our mean varies with: the larger of
/// the two SDs for the guarded test (the SD it assumes), `sd1` for Welch's. The published
/// numbers are fixed; our mean is taken as normal and our SD as known, and the test's other
/// tail is ignored (below `level / 2`). Absolute, in the mean's unit.
///
/// # Errors
///
/// As the test itself (fewer than 2 observations a side, a non-finite mean, a negative SD,
/// both SDs zero), and [`StatsError::InvalidValue`] for `level` or `power` outside (0, 1).
#[allow(clippy::too_many_arguments)]
pub fn mean_detectable(
    test: MeanTest,
    sd1: f64,
    n1: u64,
    mean2: f64,
    sd2: f64,
    n2: u64,
    level: f64,
    power: f64,
) -> Result<f64, StatsError> {
    crate::hypothesis::check_two_samples(mean2, sd1, n1, mean2, sd2, n2)?;
    check_level("level", level)?;
    check_level("power", power)?;
    let (a, b) = (n1 as f64, n2 as f64);
    let (se, df, s) = match test {
        MeanTest::Guarded => {
            let s = sd1.max(sd2);
            (s * (1.0 / a + 1.0 / b).sqrt(), a.min(b) - 1.0, s)
        }
        MeanTest::Welch => {
            let (v1, v2) = (sd1 * sd1 / a, sd2 * sd2 / b);
            let df = (v1 + v2).powi(2) / (v1 * v1 / (a - 1.0) + v2 * v2 / (b - 1.0));
            ((v1 + v2).sqrt(), df, sd1)
        }
    };
    let t = StudentsT::new(0.0, 1.0, df).map_err(|_| StatsError::InvalidValue {
        what: "degrees of freedom",
        value: df,
    })?;
    let c = t.inverse_cdf(1.0 - level / 2.0);
    Ok(c * se + normal_quantile(power) * s / a.sqrt())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use statrs::distribution::DiscreteCDF;

    /// A small SplitMix64 stream for the simulation checks.
    pub(crate) fn stream(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Hand computation: 100 runs against a paper's 50 of 100, two-sided Fisher at 0.05. The
    /// rejected counts are x <= 35 and x >= 65 (fisher.test(matrix(c(35, 50, 65, 50), 2))
    /// gives 0.0437, at 36 0.0621), so the power at rate p is P(X <= 35) + P(X >= 65); at the
    /// detectable lower rate it is 0.8, and the rates are symmetric about 0.5.
    #[test]
    fn fisher_detectable_matches_the_rejected_counts() {
        assert!(fisher_exact_two_sided(35, 65, 50, 50) <= 0.05);
        assert!(fisher_exact_two_sided(36, 64, 50, 50) > 0.05);
        let d = fisher_detectable(100, 50, 100, 0.05, 0.8, Sides::Two).unwrap();
        let (lo, hi) = (d.lower.unwrap(), d.upper.unwrap());
        assert!((lo + hi - 1.0).abs() < 1e-6, "{d:?}");
        let b = Binomial::new(lo, 100).unwrap();
        let power = b.cdf(35) + b.sf(64);
        assert!((power - 0.8).abs() < 1e-6, "{power}");
        // The normal approximation, the paper's count fixed: 0.5 - (1.96 x 0.0707 + 0.84 x 0.05).
        assert!(lo > 0.25 && lo < 0.35, "{lo}");
        // More runs detect a smaller departure; a stricter level needs a larger one.
        let more = fisher_detectable(1000, 50, 100, 0.05, 0.8, Sides::Two).unwrap();
        assert!(more.lower.unwrap() > lo);
        let strict = fisher_detectable(100, 50, 100, 1e-4, 0.8, Sides::Two).unwrap();
        assert!(strict.lower.unwrap() < lo);
    }

    /// At a rate of 100 %, only lower rates can be detected, and a one-sided test has no
    /// upper side; with 2 runs nothing is detectable at 80 %.
    #[test]
    fn fisher_detectable_edges() {
        let d = fisher_detectable(100, 100, 100, 0.05, 0.8, Sides::Two).unwrap();
        assert!(d.lower.is_some_and(|l| l > 0.85 && l < 1.0), "{d:?}");
        assert!(d.upper.is_none_or(|u| u == 1.0), "{d:?}");
        let d = fisher_detectable(50, 90, 100, 0.05, 0.8, Sides::Less).unwrap();
        assert!(d.lower.is_some() && d.upper.is_none(), "{d:?}");
        let d = fisher_detectable(2, 50, 100, 0.05, 0.8, Sides::Two).unwrap();
        assert_eq!(
            d,
            Detectable {
                lower: None,
                upper: None
            }
        );
        assert!(fisher_detectable(0, 5, 10, 0.05, 0.8, Sides::Two).is_err());
        assert!(fisher_detectable(10, 11, 10, 0.05, 0.8, Sides::Two).is_err());
        assert!(fisher_detectable(10, 5, 10, 0.0, 0.8, Sides::Two).is_err());
        assert!(fisher_detectable(10, 5, 10, 0.05, 1.0, Sides::Two).is_err());
    }

    /// Brute force: draw our count at the detectable rate and run the test itself; it rejects
    /// in 80 % of the draws, within four Monte-Carlo standard errors (2000 draws: 0.036).
    #[test]
    fn fisher_detectable_by_simulation() {
        let d = fisher_detectable(60, 70, 100, 0.01, 0.8, Sides::Two).unwrap();
        let mut u = stream(7);
        for p in [d.lower.unwrap(), d.upper.unwrap()] {
            let reps = 2000;
            let hits = (0..reps)
                .filter(|_| {
                    let x = (0..60).filter(|_| u() < p).count() as u64;
                    fisher_exact_two_sided(x, 60 - x, 70, 30) <= 0.01
                })
                .count();
            let rate = hits as f64 / reps as f64;
            let se = (0.8f64 * 0.2 / reps as f64).sqrt();
            assert!((rate - 0.8).abs() < 4.0 * se, "{p}: {rate}");
        }
    }

    /// Hand computation: the guarded test with SDs 100 and 100 of 50 and 100 at 0.05:
    /// se = 100 sqrt(1/50 + 1/100) = 17.32, t(0.975, 49) = 2.0096, z(0.8) = 0.8416,
    /// so 2.0096 x 17.32 + 0.8416 x 100 / sqrt(50) = 34.81 + 11.90 = 46.71.
    #[test]
    fn mean_detectable_by_hand() {
        let d =
            mean_detectable(MeanTest::Guarded, 100.0, 50, 500.0, 100.0, 100, 0.05, 0.8).unwrap();
        assert!((d - 46.71).abs() < 0.01, "{d}");
        // The guard: a tight sample of ours does not shrink the detectable difference.
        let tight = mean_detectable(MeanTest::Guarded, 10.0, 50, 500.0, 100.0, 100, 0.05, 0.8);
        assert_eq!(tight.unwrap(), d);
        let welch = mean_detectable(MeanTest::Welch, 10.0, 50, 500.0, 100.0, 100, 0.05, 0.8);
        assert!(welch.unwrap() < d);
        assert!(mean_detectable(MeanTest::Guarded, 1.0, 1, 5.0, 1.0, 9, 0.05, 0.8).is_err());
        assert!(mean_detectable(MeanTest::Guarded, 1.0, 5, 5.0, 1.0, 9, 2.0, 0.8).is_err());
    }

    /// Brute force: normal observations of ours at the published mean plus the detectable
    /// difference, tested by the guarded test against the fixed published numbers: it rejects
    /// in about 80 % of 2000 draws. Our SD is estimated, and the guard keeps the larger of it
    /// and the published one, so the rate sits a little below 80 %: within 0.05 plus four
    /// Monte-Carlo standard errors.
    #[test]
    fn mean_detectable_by_simulation() {
        let (n1, sd, mean2, n2, level) = (40u64, 100.0, 500.0, 100u64, 0.01);
        let d = mean_detectable(MeanTest::Guarded, sd, n1, mean2, sd, n2, level, 0.8).unwrap();
        let mut u = stream(11);
        let mut normal = move || {
            let (a, b) = (u().max(1e-300), u());
            (-2.0 * a.ln()).sqrt() * (2.0 * std::f64::consts::PI * b).cos()
        };
        let reps = 2000;
        let hits = (0..reps)
            .filter(|_| {
                let xs: Vec<f64> = (0..n1).map(|_| mean2 + d + sd * normal()).collect();
                let s = crate::summarize(&xs).unwrap();
                crate::guarded_mean_test(s.mean, s.sd, n1, mean2, sd, n2).unwrap() <= level
            })
            .count();
        let rate = hits as f64 / reps as f64;
        let se = (0.8f64 * 0.2 / reps as f64).sqrt();
        assert!(
            rate > 0.8 - 0.05 - 4.0 * se && rate < 0.8 + 4.0 * se,
            "{rate}"
        );
    }
}

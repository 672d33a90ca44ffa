//! Descriptive statistics and the expected running time (ERT).

/// Five-number-style summary of a sample.
///
/// Produced by [`summarize`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Number of observations (always `>= 1`).
    pub n: usize,
    /// Smallest observation.
    pub min: f64,
    /// Largest observation.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median: the middle value for odd `n`, the mean of the two middle
    /// values for even `n` (the definition of R's `median()`).
    pub median: f64,
    /// Sample standard deviation with the `n - 1` (Bessel) denominator, as
    /// R's `sd()`. By convention it is `0.0` when `n == 1` (R returns `NA`).
    pub sd: f64,
}

/// Summarises a sample: `n`, min, max, mean, median and sample SD.
///
/// Formulas (NIST/SEMATECH *e-Handbook of Statistical Methods*, §1.3.5.1
/// "Measures of Location" and §1.3.5.6 "Measures of Scale"):
///
/// * mean `x̄ = (1/n) Σ xᵢ`;
/// * sample SD `s = sqrt( Σ (xᵢ - x̄)² / (n - 1) )`, computed with the
///   numerically stable two-pass algorithm; **`s = 0.0` when `n == 1`**;
/// * median: the middle order statistic for odd `n`, the mean of the two
///   middle order statistics for even `n`.
///
/// Returns `None` when `xs` is empty, when any element is NaN or infinite,
/// or when the values are so large that the mean or SD overflow `f64`; a
/// returned `Summary` therefore never contains NaN or infinity.
pub fn summarize(xs: &[f64]) -> Option<Summary> {
    if xs.is_empty() || xs.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let n = xs.len();
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let min = sorted[0];
    let max = sorted[n - 1];
    let nf = n as f64;
    let mean = xs.iter().sum::<f64>() / nf;
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        // Halve before adding so that the sum cannot overflow.
        sorted[n / 2 - 1] / 2.0 + sorted[n / 2] / 2.0
    };
    let sd = if n == 1 {
        0.0
    } else {
        let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
        (ss / (nf - 1.0)).sqrt()
    };
    if !mean.is_finite() || !sd.is_finite() {
        return None;
    }
    // Clamp against rounding so that min <= mean <= max always holds.
    let mean = mean.clamp(min, max);
    Some(Summary {
        n,
        min,
        max,
        mean,
        median,
        sd,
    })
}

/// Expected running time (ERT) of a solver on one problem.
///
/// `ERT = (total effort of all runs, successful and unsuccessful) / #successes`,
/// the definition used by the COCO/BBOB benchmarking platform: N. Hansen,
/// A. Auger, S. Finck, R. Ros, *Real-Parameter Black-Box Optimization
/// Benchmarking 2009: Experimental Setup*, INRIA Research Report RR-6828
/// (2009), §"Expected Running Time"; N. Hansen, A. Auger, R. Ros, O. Mersmann,
/// T. Tušar, D. Brockhoff, *COCO: a platform for comparing continuous
/// optimizers in a black-box setting*, Optimization Methods and Software
/// 36(1):114–144 (2021). (It equals the "success performance" SP1 of
/// Auger & Hansen, CEC 2005, when unsuccessful runs use the full budget.)
///
/// `total_evaluations_all_runs` is the summed effort (evaluations,
/// generations, seconds, … — the unit is the caller's) over **all** runs,
/// including the full budget spent by unsuccessful runs.
///
/// Returns `f64::INFINITY` when `successes == 0` (the problem was never
/// solved), and `NaN` when `total_evaluations_all_runs` is NaN, infinite or
/// negative.
pub fn ert(total_evaluations_all_runs: f64, successes: u64) -> f64 {
    if !total_evaluations_all_runs.is_finite() || total_evaluations_all_runs < 0.0 {
        return f64::NAN;
    }
    if successes == 0 {
        return f64::INFINITY;
    }
    total_evaluations_all_runs / successes as f64
}

/// Wilson score interval for a binomial proportion (E. B. Wilson, "Probable inference, the law
/// of succession, and statistical inference", JASA 22 (1927) 209-212): the 95 % interval with
/// `z = 1.959964`. Unlike the Wald interval it stays inside [0, 1] and is informative at 0 or
/// n successes. Returns `(NaN, NaN)` when `n == 0` or `successes > n`.
pub fn wilson_interval(successes: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 || successes > n || !z.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    let (k, nf) = (successes as f64, n as f64);
    let p = k / nf;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
    let half = z / (1.0 + z2 / nf) * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Fewest values for which [`bootstrap_mean_interval`] gives an interval: with fewer, the
/// percentile bootstrap of a mean is known to be much too narrow (it can only resample the few
/// values seen; B. Efron and R. Tibshirani, *An Introduction to the Bootstrap*, Chapman & Hall
/// 1993, section 13.3), so no interval is better than a misleading one.
pub const BOOTSTRAP_MIN_N: usize = 10;

/// Resamples drawn by [`bootstrap_mean_interval`].
pub const BOOTSTRAP_RESAMPLES: usize = 10_000;

/// Percentile bootstrap interval of the mean (Efron & Tibshirani 1993, section 13.3):
/// [`BOOTSTRAP_RESAMPLES`] resamples with replacement of `xs`, the `(1 - level) / 2` and
/// `(1 + level) / 2` quantiles of their means (order statistics, nearest rank). Every bound is
/// a mean of observed values, so an interval of a non-negative quantity never has a negative
/// bound (the t interval of 2-4 skewed values does). The resampling is driven by a fixed
/// SplitMix64 stream seeded from `seed`: the same data and seed give the same interval on
/// every machine. None with fewer than [`BOOTSTRAP_MIN_N`] values, a non-finite value, or a
/// `level` outside (0, 1).
pub fn bootstrap_mean_interval(xs: &[f64], level: f64, seed: u64) -> Option<(f64, f64)> {
    if xs.len() < BOOTSTRAP_MIN_N
        || xs.iter().any(|x| !x.is_finite())
        || !(level > 0.0 && level < 1.0)
    {
        return None;
    }
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let n = xs.len() as u64;
    let mut means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            // Multiply-shift maps a 64-bit draw onto 0..n without modulo bias worth noting.
            let sum: f64 = (0..n)
                .map(|_| xs[((u128::from(next()) * u128::from(n)) >> 64) as usize])
                .sum();
            sum / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let b = means.len();
    let rank = |q: f64| ((q * b as f64).ceil() as usize).clamp(1, b) - 1;
    let (lo, hi) = (
        means[rank((1.0 - level) / 2.0)],
        means[rank((1.0 + level) / 2.0)],
    );
    // A mean of observed values lies within their range; clamp away summation rounding.
    let (min, max) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    Some((lo.clamp(min, max), hi.clamp(min, max)))
}

#[cfg(test)]
mod bootstrap_tests {
    use super::*;

    #[test]
    fn bootstrap_interval_stays_within_the_data_and_covers_the_mean() {
        // Skewed generations like those of a few successful runs.
        let xs = [
            120.0, 150.0, 90.0, 30000.0, 200.0, 180.0, 160.0, 140.0, 110.0, 95.0,
        ];
        let (lo, hi) = bootstrap_mean_interval(&xs, 0.95, 1).unwrap();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!(lo >= 90.0 && hi <= 30000.0, "{lo} {hi}");
        assert!(lo < mean && mean < hi, "{lo} {mean} {hi}");
        assert_eq!(bootstrap_mean_interval(&xs, 0.95, 1), Some((lo, hi)));
    }

    #[test]
    fn bootstrap_interval_needs_enough_values() {
        assert_eq!(bootstrap_mean_interval(&[1.0; 9], 0.95, 1), None);
        assert_eq!(
            bootstrap_mean_interval(&[5.0; 10], 0.95, 1),
            Some((5.0, 5.0))
        );
        assert_eq!(bootstrap_mean_interval(&[1.0; 20], 1.0, 1), None);
        let mut xs = [1.0; 12];
        xs[3] = f64::NAN;
        assert_eq!(bootstrap_mean_interval(&xs, 0.95, 1), None);
    }

    #[test]
    fn bootstrap_interval_of_a_normal_sample_is_near_the_t_interval() {
        // 40 values 1..=40: mean 20.5, SD 11.69, t interval 20.5 +- 3.74.
        let xs: Vec<f64> = (1..=40).map(f64::from).collect();
        let (lo, hi) = bootstrap_mean_interval(&xs, 0.95, 7).unwrap();
        assert!(
            (lo - 16.76).abs() < 0.6 && (hi - 24.24).abs() < 0.6,
            "{lo} {hi}"
        );
    }
}

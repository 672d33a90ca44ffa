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

//! A two-sample test of means from summary statistics that stays at its level with few,
//! right-skewed observations on one side (generations of successful runs: a handful of ours
//! against the paper's hundred, SD close to the mean), where Welch's t-test does not.
//!
//! Welch's statistic divides the difference of means by the sample's own SD. With few
//! right-skewed observations, a low sample mean comes with a low sample SD, so the
//! statistic's lower tail is far heavier than Student's t: at nominal 1e-5, 5 lognormal
//! observations (coefficient of variation 1) against 100 reject about a thousand times too
//! often; the same happens the other way round with few reference observations against many
//! of ours. This test uses the larger of the two sample variances on both sides,
//!
//! `T = (mean1 - mean2) / sqrt(max(sd1^2, sd2^2) (1 / n1 + 1 / n2))`,
//!
//! and refers `|T|` to Student's t with `min(n1, n2) - 1` degrees of freedom. A low mean of
//! the small sample no longer shrinks the denominator below the other sample's spread; a
//! high one comes with a high SD, which only lowers `|T|`. It is not exact for any family: its size at the levels a race uses is
//! measured by simulation (lognormal, gamma and heavy-tailed generations, few and many
//! observations) in the crate that races readings, and those simulations are tests.

use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::StatsError;

/// Two-sided p-value of the guarded mean test of sample 1 (`mean1`, `sd1`, `n1`) against the
/// reference sample 2 (`mean2`, `sd2`, `n2`): see the module documentation.
///
/// # Errors
///
/// [`StatsError::TooFewObservations`] below 2 observations on a side;
/// [`StatsError::InvalidValue`] for a non-finite mean or a negative or non-finite SD;
/// [`StatsError::ZeroVariance`] when both SDs are zero.
pub fn guarded_mean_test(
    mean1: f64,
    sd1: f64,
    n1: u64,
    mean2: f64,
    sd2: f64,
    n2: u64,
) -> Result<f64, StatsError> {
    crate::hypothesis::check_two_samples(mean1, sd1, n1, mean2, sd2, n2)?;
    let var = (sd1 * sd1).max(sd2 * sd2);
    let se = (var * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    let t = (mean1 - mean2) / se;
    let df = (n1.min(n2) - 1) as f64;
    let dist = StudentsT::new(0.0, 1.0, df).map_err(|_| StatsError::InvalidValue {
        what: "degrees of freedom",
        value: df,
    })?;
    Ok((2.0 * dist.sf(t.abs())).clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_denominator_keeps_the_reference_spread() {
        // Five tight, fast observations against a wide reference: Welch rejects hard, the
        // guarded test does not.
        let welch = crate::welch_t_test(60.0, 5.0, 5, 159.0, 160.0, 100).unwrap();
        let guarded = guarded_mean_test(60.0, 5.0, 5, 159.0, 160.0, 100).unwrap();
        assert!(welch.p_value < 1e-6, "{welch:?}");
        assert!(guarded > 0.05, "{guarded}");
        // A real shift with many observations is found.
        let p = guarded_mean_test(240.0, 240.0, 100, 159.0, 160.0, 100).unwrap();
        assert!(p < 0.05, "{p}");
        // Symmetric in the sign of the difference when the SDs are equal.
        let a = guarded_mean_test(10.0, 2.0, 20, 12.0, 2.0, 30).unwrap();
        let b = guarded_mean_test(14.0, 2.0, 20, 12.0, 2.0, 30).unwrap();
        assert!((a - b).abs() < 1e-12);
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(guarded_mean_test(1.0, 1.0, 1, 1.0, 1.0, 5).is_err());
        assert!(guarded_mean_test(f64::NAN, 1.0, 3, 1.0, 1.0, 5).is_err());
        assert!(guarded_mean_test(1.0, -1.0, 3, 1.0, 1.0, 5).is_err());
        assert!(guarded_mean_test(1.0, 0.0, 3, 2.0, 0.0, 5).is_err());
    }
}

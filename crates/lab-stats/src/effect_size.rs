//! The Vargha–Delaney A effect size and its verbal magnitude.

use std::fmt;

use crate::ranking::{mid_ranks, reject_nan};
use crate::StatsError;

/// Vargha and Delaney's `Â₁₂`: the probability that a value drawn at random
/// from `x` is larger than one drawn from `y`, plus half the probability that
/// they tie,
///
/// `A₁₂ = P(X > Y) + 0.5 · P(X = Y)`,
///
/// estimated over all `m · n` pairs. A. Vargha, H. D. Delaney, *A critique
/// and improvement of the CL common language effect size statistics of
/// McGraw and Wong*, Journal of Educational and Behavioral Statistics
/// 25(2):101–132 (2000), eq. (14). It is computed from the mid-ranks `r` of
/// the pooled sample as
///
/// `A₁₂ = (2 · Σ_{i ∈ x} rᵢ - m (m + 1)) / (2 m n)`,  `m = |x|`, `n = |y|`,
///
/// the rearrangement of eq. (14) used by R's `effsize::VD.A(x, y)` (effsize
/// 0.8, `R/VD_A.R`), whose estimate this reproduces. `0.5` means no effect;
/// `A₁₂(x, y) = 1 - A₁₂(y, x)`.
///
/// **Direction is the caller's business**: A₁₂ measures how often `x` is
/// *larger*. For a lower-is-better measure (generations, evaluations,
/// seconds), `A₁₂ < 0.5` means `x` is the better algorithm; pass the samples
/// the other way round (or negate them) to read it as "probability that x
/// is better".
///
/// Infinite values are ranked like any other value, so `+∞` can stand for an
/// unsolved run (two unsolved runs tie). `-0.0` and `0.0` tie.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if `x` or `y` is empty;
/// * [`StatsError::InvalidValue`] if any value is NaN.
pub fn vargha_delaney_a12(x: &[f64], y: &[f64]) -> Result<f64, StatsError> {
    for (sample, s) in [("x", x), ("y", y)] {
        if s.is_empty() {
            return Err(StatsError::TooFewObservations {
                sample,
                n: 0,
                min: 1,
            });
        }
    }
    reject_nan(x, "an element of x")?;
    reject_nan(y, "an element of y")?;
    let pooled: Vec<f64> = x.iter().chain(y).copied().collect();
    let (ranks, _) = mid_ranks(&pooled);
    // Ranks are multiples of 1/2, so this sum is exact below 2^52.
    let r1: f64 = ranks[..x.len()].iter().sum();
    let (m, n) = (x.len() as f64, y.len() as f64);
    let a = (2.0 * r1 - m * (m + 1.0)) / (2.0 * n * m);
    Ok(a.clamp(0.0, 1.0))
}

/// Verbal magnitude of an `A₁₂` effect size; see
/// [`A12Magnitude::effsize`] and [`A12Magnitude::vargha_delaney`] for the
/// two threshold conventions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum A12Magnitude {
    /// No practically relevant effect.
    Negligible,
    /// Small effect.
    Small,
    /// Medium effect.
    Medium,
    /// Large effect.
    Large,
}

impl A12Magnitude {
    /// The magnitude exactly as R's `effsize::VD.A` labels it (effsize 0.8,
    /// `R/VD_A.R`): with `d = |2 (A₁₂ - 0.5)|` (the Cliff's-δ scale),
    ///
    /// | `d`               | magnitude  |
    /// |-------------------|------------|
    /// | `< 0.147`         | negligible |
    /// | `[0.147, 0.33)`   | small      |
    /// | `[0.33, 0.474)`   | medium     |
    /// | `>= 0.474`        | large      |
    ///
    /// i.e. negligible for `A₁₂` in `(0.4265, 0.5735)`, at most small in
    /// `(0.335, 0.665)`, at most medium in `(0.263, 0.737)`.
    ///
    /// These thresholds are **not** Vargha and Delaney's own: effsize uses
    /// the cut-offs of its `cliff.delta` (source comment: "effect sizes from
    /// Hess and Kromrey, 2004"; its `cliff.delta` manual attributes them to
    /// Romano et al. 2006), applied as R's `findInterval(abs(scaled.A),
    /// c(0.147, 0.33, 0.474))`, so a value on a threshold belongs to the
    /// larger class.
    /// For the thresholds of Vargha and Delaney (2000) use
    /// [`A12Magnitude::vargha_delaney`].
    ///
    /// # Errors
    ///
    /// [`StatsError::InvalidValue`] if `a12` is NaN or outside `[0, 1]`.
    pub fn effsize(a12: f64) -> Result<Self, StatsError> {
        check_a12(a12)?;
        // Same arithmetic as effsize: scaled.A = (A - 0.5) * 2.
        let d = ((a12 - 0.5) * 2.0).abs();
        Ok(if d < 0.147 {
            Self::Negligible
        } else if d < 0.33 {
            Self::Small
        } else if d < 0.474 {
            Self::Medium
        } else {
            Self::Large
        })
    }

    /// The magnitude with the thresholds of Vargha and Delaney (2000),
    /// p. 106, which map Cohen's `d` = 0.2, 0.5, 0.8 to `A` = 0.56, 0.64,
    /// 0.71:
    ///
    /// | `A₁₂`                              | magnitude  |
    /// |------------------------------------|------------|
    /// | in `(0.44, 0.56)`                  | negligible |
    /// | in `(0.36, 0.64)`, not negligible  | small      |
    /// | in `(0.29, 0.71)`, not small       | medium     |
    /// | otherwise                          | large      |
    ///
    /// i.e. `|A - 0.5|` < 0.06, < 0.14, < 0.21, >= 0.21; a value on a
    /// threshold (e.g. exactly 0.56) belongs to the larger class. The
    /// comparisons are made on `A₁₂` itself so that the decimal thresholds
    /// are not blurred by the rounding of `A - 0.5`. R's `effsize::VD.A` uses
    /// other, wider thresholds: see [`A12Magnitude::effsize`].
    ///
    /// # Errors
    ///
    /// [`StatsError::InvalidValue`] if `a12` is NaN or outside `[0, 1]`.
    pub fn vargha_delaney(a12: f64) -> Result<Self, StatsError> {
        check_a12(a12)?;
        let within = |lo: f64, hi: f64| lo < a12 && a12 < hi;
        Ok(if within(0.44, 0.56) {
            Self::Negligible
        } else if within(0.36, 0.64) {
            Self::Small
        } else if within(0.29, 0.71) {
            Self::Medium
        } else {
            Self::Large
        })
    }

    /// The lower-case name used by effsize: `"negligible"`, `"small"`,
    /// `"medium"` or `"large"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Negligible => "negligible",
            Self::Small => "small",
            Self::Medium => "medium",
            Self::Large => "large",
        }
    }
}

impl fmt::Display for A12Magnitude {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn check_a12(a12: f64) -> Result<(), StatsError> {
    if (0.0..=1.0).contains(&a12) {
        Ok(())
    } else {
        Err(StatsError::InvalidValue {
            what: "A12 (must be in [0, 1])",
            value: a12,
        })
    }
}

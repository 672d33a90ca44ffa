//! The Wilcoxon signed-rank test for paired samples.

use crate::ranking::{mid_ranks, reject_nan};
use crate::StatsError;

/// Below this many non-zero differences (and without ties) the p-value is
/// exact, as in R's `wilcox.test` (`exact <- (n < 50)`).
const EXACT_BELOW: usize = 50;

/// Result of [`wilcoxon_signed_rank`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WilcoxonSignedRankResult {
    /// Number of non-zero differences actually ranked.
    pub n: usize,
    /// Number of zero differences dropped.
    pub zeros: usize,
    /// R's `V`: the sum of the ranks of `|xᵢ - yᵢ|` over the pairs with
    /// `xᵢ > yᵢ` (a multiple of 1/2 when there are ties).
    pub v: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// `true` if the p-value comes from the exact null distribution of `V`,
    /// `false` if from the normal approximation.
    pub exact: bool,
}

/// Two-sided Wilcoxon signed-rank test of `H0: the differences xᵢ - yᵢ are
/// symmetric about 0`, for paired samples.
///
/// F. Wilcoxon, *Individual comparisons by ranking methods*, Biometrics
/// Bulletin 1(6):80–83 (1945); M. Hollander, D. A. Wolfe, *Nonparametric
/// Statistical Methods*, 2nd ed. (1999), §3.1. Reproduces R's
/// `wilcox.test(x, y, paired = TRUE)` with its defaults (R 4.2,
/// `src/library/stats/R/wilcox.test.R`):
///
/// 1. `dᵢ = xᵢ - yᵢ`; zero differences are dropped (R's default, Wilcoxon's
///    original proposal) and `n` counts the rest;
/// 2. the `|dᵢ|` are ranked with average ranks for ties, and
///    `V = Σ_{dᵢ > 0} rank(|dᵢ|)`;
/// 3. if `n < 50` and there are neither ties among the `|dᵢ|` nor zero
///    differences, the p-value is exact: with the null distribution of `V`
///    (each rank positive or negative with probability 1/2; its `2ⁿ`
///    equally likely sign patterns counted by dynamic programming, as R's
///    `psignrank`), `p = min(1, 2 · P(V' >= V))` if `V > n(n+1)/4`, else
///    `min(1, 2 · P(V' <= V))`;
/// 4. otherwise the normal approximation with tie and continuity
///    corrections: `σ² = n(n+1)(2n+1)/24 - Σ(t³ - t)/48` over tie groups of
///    size `t`, `z = (V - n(n+1)/4 - sign(·)·0.5) / σ`, `p = 2 Φ(-|z|)`
///    (`Φ` through `libm::erfc`).
///
/// Why this test: it is the paired test Demšar (2006, §3.1.3) recommends for
/// comparing two algorithms over the same problems, and the post hoc test of
/// Benavoli, Corani and Mangili (2016) (see
/// [`pairwise_wilcoxon_holm`](crate::pairwise_wilcoxon_holm)). Note that
/// Demšar's worked example splits the ranks of zero differences evenly
/// between the two sides instead of dropping them; this function follows
/// R and drops them.
///
/// Infinite values are allowed (`+∞` for an unsolved run): a pair in which
/// **both** values are the same infinity has the undefined difference
/// `∞ - ∞`; R computes it as `NaN` and silently drops the pair as missing,
/// and so does this function (it is not counted in `n` nor in `zeros`, so
/// it does not prevent the exact p-value). Any other pair with an infinite
/// value has an infinite difference, ranked largest.
///
/// # Errors
///
/// * [`StatsError::LengthMismatch`] if `x` and `y` differ in length;
/// * [`StatsError::InvalidValue`] if any value is NaN;
/// * [`StatsError::TooFewObservations`] if no non-zero difference remains
///   (also for empty input); R returns a NaN p-value there.
pub fn wilcoxon_signed_rank(x: &[f64], y: &[f64]) -> Result<WilcoxonSignedRankResult, StatsError> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            what: "paired samples x and y",
            expected: x.len(),
            got: y.len(),
        });
    }
    reject_nan(x, "an element of x")?;
    reject_nan(y, "an element of y")?;
    let mut zeros = 0;
    let mut d = Vec::with_capacity(x.len());
    for (&a, &b) in x.iter().zip(y) {
        let diff = a - b;
        if diff.is_nan() {
            // Both infinite with the same sign: R's NaN, dropped as missing.
            continue;
        }
        if diff == 0.0 {
            zeros += 1;
        } else {
            d.push(diff);
        }
    }
    let n = d.len();
    if n == 0 {
        return Err(StatsError::TooFewObservations {
            sample: "non-zero differences x - y",
            n: 0,
            min: 1,
        });
    }
    let abs: Vec<f64> = d.iter().map(|v| v.abs()).collect();
    let (ranks, tie_term) = mid_ranks(&abs);
    let v: f64 = d
        .iter()
        .zip(&ranks)
        .filter(|(diff, _)| **diff > 0.0)
        .map(|(_, r)| r)
        .sum();
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let exact = n < EXACT_BELOW && tie_term == 0.0 && zeros == 0;
    let p_value = if exact {
        // Without ties every rank is an integer, so V is an integer.
        let v_int = v as usize;
        let p = if v > mean {
            signed_rank_upper_tail(n, v_int)
        } else {
            signed_rank_lower_tail(n, v_int)
        };
        (2.0 * p).min(1.0)
    } else {
        let sigma = (nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term / 48.0).sqrt();
        let centred = v - mean;
        let correction = 0.5 * sign(centred);
        let z = (centred - correction) / sigma;
        // libm's erfc (musl's, accurate to about an ulp) rather than
        // statrs 0.18's, whose erf/erfc carry a relative error of about
        // 1e-10 (truncated interval constants, fixed upstream in statrs PR
        // #412 after 0.18); with it the p-value matches R's pnorm to ~1e-15.
        libm::erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
    };
    Ok(WilcoxonSignedRankResult {
        n,
        zeros,
        v,
        p_value,
        exact,
    })
}

/// R's `sign()`: -1, 0 or 1.
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Number of subsets of `{1, …, n}` with each sum `0..=n(n+1)/2`: the
/// frequencies of `V` under H0 (R's `csignrank`). For `n < 50` every count
/// is below `2⁴⁹`, so `u64` holds them exactly.
fn signed_rank_counts(n: usize) -> Vec<u64> {
    let max = n * (n + 1) / 2;
    let mut c = vec![0u64; max + 1];
    c[0] = 1;
    for k in 1..=n {
        // Add rank k: c'(s) = c(s) + c(s - k), updated downwards in place.
        let top = k * (k + 1) / 2;
        for s in (k..=top).rev() {
            c[s] += c[s - k];
        }
    }
    c
}

/// `P(V <= v)` under H0 for `n` untied non-zero differences.
fn signed_rank_lower_tail(n: usize, v: usize) -> f64 {
    let c = signed_rank_counts(n);
    let below: u64 = c.iter().take(v + 1).sum();
    below as f64 / 2f64.powi(n as i32)
}

/// `P(V >= v)` under H0 for `n` untied non-zero differences.
fn signed_rank_upper_tail(n: usize, v: usize) -> f64 {
    let c = signed_rank_counts(n);
    let above: u64 = c.iter().skip(v).sum();
    above as f64 / 2f64.powi(n as i32)
}

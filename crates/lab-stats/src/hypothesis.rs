//! Hypothesis tests: Fisher's exact test, the exact binomial test, Welch's
//! t-test from summary statistics and the Mann–Whitney U test.

use statrs::distribution::{ContinuousCDF, StudentsT};
use statrs::function::erf::erfc;
use statrs::function::factorial::ln_binomial;

use crate::StatsError;

/// Relative tolerance used by R (`relErr <- 1 + 10^(-7)`) when deciding
/// whether an outcome is "at most as probable" as the observed one.
const R_REL_ERR: f64 = 1.0 + 1e-7;

/// Two-sided p-value of Fisher's exact test for the 2×2 table
/// `[[a, b], [c, d]]` (rows = groups, columns = success / failure).
///
/// Conditioning on all margins, the count in the top-left cell is
/// hypergeometric (R. A. Fisher, *The Design of Experiments*, 1935, §2;
/// A. Agresti, *Categorical Data Analysis*, 2nd ed., 2002, §3.5.1):
///
/// `P(X = x) = C(a+c, x) · C(b+d, a+b-x) / C(n, a+b)`, `n = a+b+c+d`.
///
/// The two-sided p-value is the total probability of all tables whose
/// probability is at most that of the observed table, with the relative
/// tolerance `1 + 1e-7` of R's `fisher.test` (source:
/// `src/library/stats/R/fisher.test.R`, `alternative = "two.sided"`, the
/// "minimum-likelihood" method of Agresti 2002, §3.5.1). This is exactly
/// `fisher.test(matrix(c(a, c, b, d), 2))$p.value` in R.
///
/// All probabilities are computed in log space with `ln_binomial`
/// (log-gamma), so tables with counts of many thousands are fine; the cost
/// is linear in the size of the support of `X` (at most `min(a+b, a+c) + 1`
/// terms).
///
/// Returns `1.0` when a margin is zero (only one table is possible) and
/// `NaN` only if the grand total overflows `u64`.
pub fn fisher_exact_two_sided(a: u64, b: u64, c: u64, d: u64) -> f64 {
    let h = match Hypergeometric::of(a, b, c, d) {
        Ok(h) => h,
        Err(p) => return p,
    };
    let (lo, hi) = (h.lo, h.hi);
    let log_d = |x: u64| h.log_d(x);
    let observed = log_d(a);
    let threshold = observed + R_REL_ERR.ln();
    let max_log = h.max_log().max(observed);
    let mut total = 0.0;
    let mut tail = 0.0;
    for x in lo..=hi {
        let ld = log_d(x);
        let w = (ld - max_log).exp();
        total += w;
        if ld <= threshold {
            tail += w;
        }
    }
    if total > 0.0 {
        (tail / total).clamp(0.0, 1.0)
    } else {
        f64::NAN
    }
}

/// The null distribution of Fisher's exact test for `[[a, b], [c, d]]`: `X` (the top-left
/// cell) hypergeometric with the table's margins, over its support `lo..=hi`. In R's terms
/// m = column-1 total, n = column-2 total, k = row-1 total.
struct Hypergeometric {
    m: u64,
    n: u64,
    k: u64,
    lo: u64,
    hi: u64,
}

impl Hypergeometric {
    /// The distribution, or the p-value to return at once: `1.0` when a margin is zero (one
    /// table only), `NaN` when the grand total overflows `u64`.
    fn of(a: u64, b: u64, c: u64, d: u64) -> Result<Hypergeometric, f64> {
        let (Some(m), Some(n), Some(k)) = (a.checked_add(c), b.checked_add(d), a.checked_add(b))
        else {
            return Err(f64::NAN);
        };
        if m.checked_add(n).is_none() {
            return Err(f64::NAN);
        }
        let (lo, hi) = (k.saturating_sub(n), k.min(m));
        if lo == hi {
            return Err(1.0);
        }
        Ok(Hypergeometric { m, n, k, lo, hi })
    }

    /// Unnormalised log-density at `x`; the common denominator C(m+n, k) cancels.
    fn log_d(&self, x: u64) -> f64 {
        ln_binomial(self.m, x) + ln_binomial(self.n, self.k - x)
    }

    /// The log-density at the mode, `floor((k+1)(m+1)/(m+n+2))` (the distribution is
    /// unimodal): the normalising maximum.
    fn max_log(&self) -> f64 {
        let (m, n, k) = (self.m as f64, self.n as f64, self.k as f64);
        let mode = ((k + 1.0) * (m + 1.0) / (m + n + 2.0)).floor() as u64;
        self.log_d(mode.clamp(self.lo, self.hi))
    }
}

/// One-sided p-value of Fisher's exact test for the 2x2 table `[[a, b], [c, d]]` against the
/// alternative that the first row's proportion `a / (a + b)` is *lower* than the second's:
/// `P(X <= a)` for `X` hypergeometric with the table's margins (R's
/// `fisher.test(..., alternative = "less")$p.value`, SciPy's `alternative="less"`).
///
/// Used where the second row is only a lower bound on a published count (the reading race's
/// mean caps): a smaller second row makes the observed `a` less extreme, so the test stays
/// valid (conservative). Log space, as [`fisher_exact_two_sided`]. Returns `1.0` when a
/// margin is zero and `NaN` if the grand total overflows `u64`.
pub fn fisher_exact_less(a: u64, b: u64, c: u64, d: u64) -> f64 {
    let h = match Hypergeometric::of(a, b, c, d) {
        Ok(h) => h,
        Err(p) => return p,
    };
    let (lo, hi, max_log) = (h.lo, h.hi, h.max_log());
    let log_d = |x: u64| h.log_d(x);
    let (mut total, mut tail) = (0.0, 0.0);
    for x in lo..=hi {
        let w = (log_d(x) - max_log).exp();
        total += w;
        if x <= a {
            tail += w;
        }
    }
    if total > 0.0 {
        (tail / total).clamp(0.0, 1.0)
    } else {
        f64::NAN
    }
}

/// Two-sided p-value of the exact binomial test of `H0: P(success) = p`.
///
/// Reproduces R's `binom.test(successes, trials, p)$p.value` (source:
/// `src/library/stats/R/binom.test.R`): the p-value is the sum of the
/// binomial probabilities `C(n, i) pⁱ (1-p)ⁿ⁻ⁱ` of all outcomes `i` whose
/// probability does not exceed that of the observed outcome times the
/// relative tolerance `1 + 1e-7` (the "minimum-likelihood" two-sided method;
/// see M. P. Fay, *Two-sided exact tests and matching confidence intervals
/// for discrete data*, The R Journal 2(1):53–58, 2010), capped at 1. As in
/// R, the p-value is exactly `1.0` when `successes == trials · p`.
///
/// Probabilities are computed in log space (`ln_binomial`), so `trials` of
/// many thousands are fine; the cost is linear in `trials`.
///
/// Returns `NaN` for invalid input: `successes > trials`, or `p` NaN or
/// outside `[0, 1]`.
pub fn binomial_test_two_sided(successes: u64, trials: u64, p: f64) -> f64 {
    if successes > trials || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    let (x, n) = (successes, trials);
    if x as f64 == n as f64 * p {
        return 1.0;
    }
    // Degenerate p: all mass on a single outcome, which is not x here.
    if p == 0.0 || p == 1.0 {
        return 0.0;
    }
    let (lp, lq) = (p.ln(), (-p).ln_1p());
    let log_pmf = |i: u64| ln_binomial(n, i) + i as f64 * lp + (n - i) as f64 * lq;
    let threshold = log_pmf(x) + R_REL_ERR.ln();
    let sum: f64 = (0..=n)
        .map(log_pmf)
        .filter(|&l| l <= threshold)
        .map(f64::exp)
        .sum();
    sum.min(1.0)
}

/// Result of [`welch_t_test`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WelchResult {
    /// Welch's t statistic, `(mean1 - mean2) / sqrt(sd1²/n1 + sd2²/n2)`.
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// Two-sided p-value, `2 · P(T_df >= |t|)`.
    pub p_value: f64,
}

/// Two-sided Welch (unequal-variance) t-test computed from summary
/// statistics (`sd` = sample SD with `n - 1` denominator).
///
/// B. L. Welch, *The generalization of "Student's" problem when several
/// different population variances are involved*, Biometrika 34:28–35 (1947);
/// F. E. Satterthwaite, *An approximate distribution of estimates of
/// variance components*, Biometrics Bulletin 2(6):110–114 (1946). With
/// `vᵢ = sdᵢ² / nᵢ`:
///
/// * `t = (mean1 - mean2) / sqrt(v1 + v2)`,
/// * `df = (v1 + v2)² / (v1² / (n1 - 1) + v2² / (n2 - 1))`,
/// * `p = 2 · (1 - F_t(|t|; df))` with the Student t CDF of `statrs`.
///
/// This matches R's `t.test(x, y)` (default `var.equal = FALSE`).
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if `n1 < 2` or `n2 < 2`;
/// * [`StatsError::InvalidValue`] if a mean is not finite or an SD is
///   negative, NaN or infinite;
/// * [`StatsError::ZeroVariance`] if both SDs are zero — **whether or not
///   the means differ** — because `t` is then undefined (`±∞` or `0/0`);
///   this mirrors R's error "data are essentially constant". Callers that
///   want a convention can use `p = 0` for different means and `p = 1` for
///   equal means themselves.
pub fn welch_t_test(
    mean1: f64,
    sd1: f64,
    n1: u64,
    mean2: f64,
    sd2: f64,
    n2: u64,
) -> Result<WelchResult, StatsError> {
    check_two_samples(mean1, sd1, n1, mean2, sd2, n2)?;
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let v1 = sd1 * sd1 / n1f;
    let v2 = sd2 * sd2 / n2f;
    let se2 = v1 + v2;
    let t = (mean1 - mean2) / se2.sqrt();
    let df = se2 * se2 / (v1 * v1 / (n1f - 1.0) + v2 * v2 / (n2f - 1.0));
    if !t.is_finite() {
        return Err(StatsError::InvalidValue {
            what: "t statistic (overflow)",
            value: t,
        });
    }
    if !df.is_finite() || df <= 0.0 {
        return Err(StatsError::InvalidValue {
            what: "Welch-Satterthwaite degrees of freedom (underflow/overflow)",
            value: df,
        });
    }
    let dist = StudentsT::new(0.0, 1.0, df).map_err(|_| StatsError::InvalidValue {
        what: "Welch-Satterthwaite degrees of freedom",
        value: df,
    })?;
    let p_value = (2.0 * dist.sf(t.abs())).clamp(0.0, 1.0);
    Ok(WelchResult { t, df, p_value })
}

/// Result of [`mann_whitney_u`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MannWhitneyResult {
    /// Mann–Whitney U of the first sample (R's `W`): the number of pairs
    /// `(xᵢ, yⱼ)` with `xᵢ > yⱼ`, ties counting one half.
    pub u: f64,
    /// Standardised statistic after the continuity correction.
    pub z: f64,
    /// Two-sided p-value from the normal approximation.
    pub p_value: f64,
}

/// Two-sided Mann–Whitney U (Wilcoxon rank-sum) test with the normal
/// approximation, tie correction and continuity correction.
///
/// H. B. Mann, D. R. Whitney, *On a test of whether one of two random
/// variables is stochastically larger than the other*, Ann. Math. Statist.
/// 18:50–60 (1947); tie-corrected variance from M. Hollander, D. A. Wolfe,
/// *Nonparametric Statistical Methods*, 2nd ed. (1999), §4.1. Reproduces R's
/// `wilcox.test(x, y, exact = FALSE, correct = TRUE)` (source:
/// `src/library/stats/R/wilcox.test.R`). With `N = n_x + n_y`, mid-ranks `r`
/// of the pooled sample and tie-group sizes `t_j`:
///
/// * `U = Σ_{i ∈ x} rᵢ - n_x (n_x + 1) / 2`,
/// * `σ² = (n_x n_y / 12) · ((N + 1) - Σ (t_j³ - t_j) / (N (N - 1)))`,
/// * `z = (U - n_x n_y / 2 - sign(U - n_x n_y / 2) · 0.5) / σ`,
/// * `p = 2 · min(Φ(z), 1 - Φ(z)) = erfc(|z| / √2)`.
///
/// Infinite values are ranked like any other value (R would drop them);
/// `-0.0` and `0.0` are tied.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if `x` or `y` is empty;
/// * [`StatsError::InvalidValue`] if any value is NaN;
/// * [`StatsError::ZeroVariance`] if all pooled observations are tied
///   (σ = 0; R returns `NA` there).
pub fn mann_whitney_u(x: &[f64], y: &[f64]) -> Result<MannWhitneyResult, StatsError> {
    for (sample, s) in [("x", x), ("y", y)] {
        if s.is_empty() {
            return Err(StatsError::TooFewObservations {
                sample,
                n: 0,
                min: 1,
            });
        }
        if let Some(&value) = s.iter().find(|v| v.is_nan()) {
            return Err(StatsError::InvalidValue {
                what: if sample == "x" {
                    "an element of x"
                } else {
                    "an element of y"
                },
                value,
            });
        }
    }
    let nx = x.len();
    let ny = y.len();
    let big_n = nx + ny;
    // (value, belongs to x)
    let mut pooled: Vec<(f64, bool)> = x
        .iter()
        .map(|&v| (v, true))
        .chain(y.iter().map(|&v| (v, false)))
        .collect();
    // No NaN here, so partial_cmp never fails; -0.0 == 0.0 as required.
    pooled.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    let mut rank_sum_x = 0.0;
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < big_n {
        let mut j = i + 1;
        while j < big_n && pooled[j].0 == pooled[i].0 {
            j += 1;
        }
        // Positions i..j (0-based) share the mid-rank of ranks i+1..=j.
        let t = (j - i) as f64;
        let mid_rank = (i + 1 + j) as f64 / 2.0;
        let in_x = pooled[i..j].iter().filter(|p| p.1).count() as f64;
        rank_sum_x += in_x * mid_rank;
        tie_term += t * t * t - t;
        i = j;
    }
    let (nxf, nyf, nf) = (nx as f64, ny as f64, big_n as f64);
    let u = rank_sum_x - nxf * (nxf + 1.0) / 2.0;
    let centred = u - nxf * nyf / 2.0;
    let var = (nxf * nyf / 12.0) * ((nf + 1.0) - tie_term / (nf * (nf - 1.0)));
    if var.is_nan() || var <= 0.0 {
        return Err(StatsError::ZeroVariance("all observations are tied"));
    }
    let correction = if centred > 0.0 {
        0.5
    } else if centred < 0.0 {
        -0.5
    } else {
        0.0
    };
    let z = (centred - correction) / var.sqrt();
    let p_value = erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0);
    Ok(MannWhitneyResult { u, z, p_value })
}

/// The summaries of two samples a two-sample test of means can use: at least 2 observations
/// a side, finite means, finite non-negative SDs not both zero (the errors of
/// [`welch_t_test`]).
pub(crate) fn check_two_samples(
    mean1: f64,
    sd1: f64,
    n1: u64,
    mean2: f64,
    sd2: f64,
    n2: u64,
) -> Result<(), StatsError> {
    for (sample, n) in [("group 1", n1), ("group 2", n2)] {
        if n < 2 {
            return Err(StatsError::TooFewObservations { sample, n, min: 2 });
        }
    }
    for (what, value) in [("mean1", mean1), ("mean2", mean2)] {
        if !value.is_finite() {
            return Err(StatsError::InvalidValue { what, value });
        }
    }
    for (what, value) in [("sd1", sd1), ("sd2", sd2)] {
        if !value.is_finite() || value < 0.0 {
            return Err(StatsError::InvalidValue { what, value });
        }
    }
    if sd1 == 0.0 && sd2 == 0.0 {
        return Err(StatsError::ZeroVariance(
            "both standard deviations are zero",
        ));
    }
    Ok(())
}

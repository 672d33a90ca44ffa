//! The Friedman test over blocks and the Iman–Davenport F statistic.

use statrs::distribution::{ChiSquared, ContinuousCDF, FisherSnedecor};

use crate::ranking::{mid_ranks, reject_nan};
use crate::StatsError;

/// Result of [`friedman_test`].
#[derive(Debug, Clone, PartialEq)]
pub struct FriedmanResult {
    /// Number of blocks `N` (rows: puzzles, problems, data sets).
    pub n_blocks: usize,
    /// Number of treatments `k` (columns: algorithms).
    pub k: usize,
    /// Average rank of each treatment over the blocks, in column order
    /// (rank 1 = smallest value in the block; ties get average ranks). They
    /// sum to `k (k + 1) / 2`.
    pub avg_ranks: Vec<f64>,
    /// Friedman's chi-square **with the tie correction**, exactly R's
    /// `friedman.test` statistic.
    pub chi_square: f64,
    /// The statistic without the tie correction, Demšar (2006) eq. for
    /// `χ²_F`: `12N / (k(k+1)) · (Σ R̄ⱼ² - k(k+1)²/4)`. Equal to
    /// `chi_square` when no block has ties; provided to compare with
    /// published values computed that way.
    pub chi_square_uncorrected: f64,
    /// Degrees of freedom of the chi-square, `k - 1`.
    pub df: f64,
    /// `P(χ²_{k-1} >= chi_square)`, R's p-value.
    pub p_value: f64,
    /// The Iman–Davenport F statistic computed from the tie-corrected
    /// `chi_square`; see [`iman_davenport`].
    pub iman_davenport: ImanDavenportResult,
}

/// Result of [`iman_davenport`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImanDavenportResult {
    /// `F_F = (N - 1) χ² / (N (k - 1) - χ²)`; `+∞` when `χ² = N (k - 1)`
    /// (every block ranks the treatments identically).
    pub f: f64,
    /// Numerator degrees of freedom, `k - 1`.
    pub df1: f64,
    /// Denominator degrees of freedom, `(k - 1)(N - 1)`.
    pub df2: f64,
    /// `P(F_{df1, df2} >= f)`; `0` when `f` is infinite.
    pub p_value: f64,
}

/// Friedman's rank test for `k` treatments measured on the same `N` blocks
/// (an unreplicated complete block design), with average ranks, the
/// chi-square statistic and the Iman–Davenport F statistic.
///
/// `blocks[b][j]` is the value of treatment `j` on block `b` (e.g. the
/// generations algorithm `j` needed on puzzle `b`). Within each block the
/// values are ranked **ascending** (rank 1 = smallest) with average ranks
/// for ties, as R's `rank()`; if larger is better, negate the values first.
/// Infinite values are ranked like any other (`+∞`, an unsolved run, ranks
/// last; two of them tie).
///
/// M. Friedman, *The use of ranks to avoid the assumption of normality
/// implicit in the analysis of variance*, JASA 32(200):675–701 (1937). With
/// rank sums `Rⱼ` and `Σ(t³ - t)` over the tie groups of every block, the
/// statistic is that of R's `friedman.test` (source:
/// `src/library/stats/R/friedman.test.R`):
///
/// `χ² = 12 Σⱼ (Rⱼ - N(k+1)/2)² / (N k (k+1) - Σ(t³ - t) / (k - 1))`,
///
/// referred to `χ²_{k-1}`. The tie correction is the exact variance of the
/// rank sums under H0 given the ties (Hollander & Wolfe 1999, §7.1).
///
/// Demšar (J. Demšar, *Statistical comparisons of classifiers over multiple
/// data sets*, JMLR 7:1–30 (2006), §3.2.2) recommends the F statistic of
/// R. L. Iman, J. M. Davenport, *Approximations of the critical region of
/// the Friedman statistic*, Comm. Statist. A 9(6):571–595 (1980), because
/// the chi-square approximation is conservative; see [`iman_davenport`]. It
/// is computed here from the tie-corrected `χ²`, which makes `F_F` exactly
/// the two-way ANOVA F of treatments on the within-block ranks (Iman and
/// Davenport's derivation); without ties it is Demšar's formula.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if there are fewer than 2 blocks or
///   fewer than 2 treatments (R accepts one block; the Iman–Davenport
///   statistic needs two);
/// * [`StatsError::RaggedBlocks`] if the blocks differ in length;
/// * [`StatsError::InvalidValue`] if any value is NaN (R would drop the
///   block);
/// * [`StatsError::ZeroVariance`] if every block is entirely tied (the
///   statistic is `0/0`; R returns NaN).
pub fn friedman_test(blocks: &[Vec<f64>]) -> Result<FriedmanResult, StatsError> {
    let k = check_blocks(blocks, 2)?;
    let n = blocks.len();
    let mut rank_sums = vec![0.0; k];
    let mut tie_term = 0.0;
    for block in blocks {
        let (ranks, ties) = mid_ranks(block);
        for (sum, r) in rank_sums.iter_mut().zip(&ranks) {
            *sum += r;
        }
        tie_term += ties;
    }
    let (nf, kf) = (n as f64, k as f64);
    let centre = nf * (kf + 1.0) / 2.0;
    let ss: f64 = rank_sums.iter().map(|r| (r - centre) * (r - centre)).sum();
    let denominator = nf * kf * (kf + 1.0) - tie_term / (kf - 1.0);
    // All blocks entirely tied: Σ(t³ - t)/(k - 1) = N k (k + 1) exactly (the
    // operands are integers well below 2^53), so the denominator is 0.
    if denominator <= 0.0 {
        return Err(StatsError::ZeroVariance("every block is entirely tied"));
    }
    let chi_square = 12.0 * ss / denominator;
    let chi_square_uncorrected = 12.0 * ss / (nf * kf * (kf + 1.0));
    let df = kf - 1.0;
    let p_value = chi_square_sf(chi_square, df)?;
    let iman_davenport = iman_davenport(chi_square, n, k)?;
    Ok(FriedmanResult {
        n_blocks: n,
        k,
        avg_ranks: rank_sums.iter().map(|r| r / nf).collect(),
        chi_square,
        chi_square_uncorrected,
        df,
        p_value,
        iman_davenport,
    })
}

/// The Iman–Davenport F statistic from a Friedman chi-square over
/// `n_blocks` blocks and `k` treatments (Demšar 2006, §3.2.2, eq. for
/// `F_F`; Iman & Davenport 1980):
///
/// `F_F = (N - 1) χ²_F / (N (k - 1) - χ²_F)`,
///
/// distributed as F with `k - 1` and `(k - 1)(N - 1)` degrees of freedom
/// under H0. `χ²_F` ranges over `[0, N (k - 1)]`; at (or, by rounding, above)
/// the upper end every block ranks the treatments identically and `F_F` is
/// reported as `+∞` with p-value 0.
///
/// [`friedman_test`] calls this with its tie-corrected chi-square; call it
/// with [`FriedmanResult::chi_square_uncorrected`] to reproduce published
/// values computed without the tie correction (e.g. Demšar's worked
/// example).
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if `n_blocks < 2` or `k < 2`;
/// * [`StatsError::InvalidValue`] if `chi_square` is NaN, infinite or
///   negative.
pub fn iman_davenport(
    chi_square: f64,
    n_blocks: usize,
    k: usize,
) -> Result<ImanDavenportResult, StatsError> {
    if n_blocks < 2 {
        return Err(StatsError::TooFewObservations {
            sample: "blocks",
            n: n_blocks as u64,
            min: 2,
        });
    }
    if k < 2 {
        return Err(StatsError::TooFewObservations {
            sample: "treatments",
            n: k as u64,
            min: 2,
        });
    }
    if !chi_square.is_finite() || chi_square < 0.0 {
        return Err(StatsError::InvalidValue {
            what: "Friedman chi-square",
            value: chi_square,
        });
    }
    let (nf, kf) = (n_blocks as f64, k as f64);
    let df1 = kf - 1.0;
    let df2 = (kf - 1.0) * (nf - 1.0);
    let denominator = nf * (kf - 1.0) - chi_square;
    if denominator <= 0.0 {
        return Ok(ImanDavenportResult {
            f: f64::INFINITY,
            df1,
            df2,
            p_value: 0.0,
        });
    }
    let f = (nf - 1.0) * chi_square / denominator;
    let dist = FisherSnedecor::new(df1, df2).map_err(|_| StatsError::InvalidValue {
        what: "F degrees of freedom",
        value: df2,
    })?;
    Ok(ImanDavenportResult {
        f,
        df1,
        df2,
        p_value: dist.sf(f).clamp(0.0, 1.0),
    })
}

/// Upper tail of the chi-square distribution with `df` degrees of freedom.
fn chi_square_sf(x: f64, df: f64) -> Result<f64, StatsError> {
    let dist = ChiSquared::new(df).map_err(|_| StatsError::InvalidValue {
        what: "chi-square degrees of freedom",
        value: df,
    })?;
    Ok(dist.sf(x).clamp(0.0, 1.0))
}

/// Validates a blocks × treatments table: at least `min_blocks` blocks, at
/// least 2 treatments, equal lengths, no NaN. Returns `k`.
pub(crate) fn check_blocks(blocks: &[Vec<f64>], min_blocks: usize) -> Result<usize, StatsError> {
    if blocks.len() < min_blocks {
        return Err(StatsError::TooFewObservations {
            sample: "blocks",
            n: blocks.len() as u64,
            min: min_blocks as u64,
        });
    }
    let k = blocks.first().map_or(0, Vec::len);
    if k < 2 {
        return Err(StatsError::TooFewObservations {
            sample: "treatments",
            n: k as u64,
            min: 2,
        });
    }
    for (b, block) in blocks.iter().enumerate() {
        if block.len() != k {
            return Err(StatsError::RaggedBlocks {
                block: b,
                expected: k,
                got: block.len(),
            });
        }
        reject_nan(block, "a value of the blocks table")?;
    }
    Ok(k)
}

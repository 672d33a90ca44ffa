//! Post hoc procedures after a Friedman test: the Nemenyi critical
//! difference, pairwise Wilcoxon signed-rank tests with Holm's correction,
//! and the groups of not-significantly-different treatments drawn as bars
//! in a critical-difference diagram.

use crate::friedman::check_blocks;
use crate::studentized_range::studentized_range_quantile;
use crate::{holm_adjust, wilcoxon_signed_rank, StatsError};

/// Demšar's `q_α` for the Nemenyi test: the studentized range quantile with
/// infinite degrees of freedom divided by `√2`,
///
/// `q_α = qtukey(1 - α, k, ∞) / √2`
///
/// (J. Demšar, *Statistical comparisons of classifiers over multiple data
/// sets*, JMLR 7:1–30 (2006), §3.2.2 and Table 5(a), which tabulates it for
/// `α` = 0.05, 0.10 and `k` = 2…10). Computed with
/// [`studentized_range_quantile`](crate::studentized_range_quantile) for any
/// `k >= 2` and `α` in `(0, 1)`; the tests check Demšar's table
/// (`k` <= 10), and for `k` up to 20 at `α` = 0.01, 0.05, 0.10 a 30-digit
/// mpmath computation (to `1e-13`) and R's `qtukey` (to its accuracy of
/// about `1e-7`).
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if `k < 2`;
/// * [`StatsError::InvalidValue`] if `alpha` is not in `(0, 1)`.
pub fn nemenyi_q_alpha(k: usize, alpha: f64) -> Result<f64, StatsError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(StatsError::InvalidValue {
            what: "significance level alpha (must be in (0, 1))",
            value: alpha,
        });
    }
    Ok(studentized_range_quantile(1.0 - alpha, k)? / std::f64::consts::SQRT_2)
}

/// The Nemenyi critical difference for `k` treatments ranked on `n_blocks`
/// blocks (Demšar 2006, §3.2.2):
///
/// `CD = q_α · sqrt(k (k + 1) / (6 N))`,
///
/// with `q_α` from [`nemenyi_q_alpha`]. Two treatments whose average ranks
/// (e.g. [`FriedmanResult::avg_ranks`](crate::FriedmanResult::avg_ranks))
/// differ by at least `CD` are significantly different at level `α`
/// (family-wise over all `k(k-1)/2` pairs). P. B. Nemenyi, *Distribution-free
/// multiple comparisons*, PhD thesis, Princeton University (1963).
///
/// A caution on its use: A. Benavoli, G. Corani, F. Mangili, *Should we
/// really use post-hoc tests based on mean-ranks?*, JMLR 17(5):1–10 (2016)
/// show that the outcome of a mean-ranks comparison of two treatments
/// depends on which other treatments are in the study, and recommend
/// pairwise Wilcoxon signed-rank tests with a multiple-testing correction
/// instead ([`pairwise_wilcoxon_holm`]). The CD remains the scale of the
/// classical critical-difference diagram.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if `k < 2` or `n_blocks == 0`;
/// * [`StatsError::InvalidValue`] if `alpha` is not in `(0, 1)`.
pub fn nemenyi_critical_difference(
    k: usize,
    n_blocks: usize,
    alpha: f64,
) -> Result<f64, StatsError> {
    if n_blocks == 0 {
        return Err(StatsError::TooFewObservations {
            sample: "blocks",
            n: 0,
            min: 1,
        });
    }
    let q = nemenyi_q_alpha(k, alpha)?;
    let (kf, nf) = (k as f64, n_blocks as f64);
    Ok(q * (kf * (kf + 1.0) / (6.0 * nf)).sqrt())
}

/// One pair of treatments compared by [`pairwise_wilcoxon_holm`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairwiseWilcoxon {
    /// Index of the first treatment (column), `i < j`.
    pub i: usize,
    /// Index of the second treatment (column).
    pub j: usize,
    /// Number of blocks with a non-zero difference `x_i - x_j`.
    pub n: usize,
    /// The signed-rank statistic `V` of `x_i - x_j` (sum of the ranks of the
    /// blocks where treatment `i` has the larger value).
    pub v: f64,
    /// Whether the raw p-value is exact (see
    /// [`wilcoxon_signed_rank`](crate::wilcoxon_signed_rank)).
    pub exact: bool,
    /// Unadjusted two-sided p-value.
    pub p_value: f64,
    /// Holm-adjusted p-value over all `k(k-1)/2` pairs.
    pub p_holm: f64,
}

/// All-pairs post hoc comparison of the `k` treatments of a blocks ×
/// treatments table: a two-sided Wilcoxon signed-rank test for every pair of
/// columns over the blocks (exactly
/// [`wilcoxon_signed_rank`](crate::wilcoxon_signed_rank), i.e. R's
/// `wilcox.test(x_i, x_j, paired = TRUE)`), then Holm's correction over the
/// `k(k-1)/2` raw p-values ([`holm_adjust`], R's `p.adjust(p, "holm")`).
///
/// This is the post hoc analysis recommended by Benavoli, Corani and
/// Mangili (JMLR 17(5), 2016) in place of mean-ranks tests such as
/// Nemenyi's, and the one behind the critical-difference diagrams of
/// H. Ismail Fawaz et al., *Deep learning for time series classification: a
/// review*, Data Min. Knowl. Disc. 33:917–963 (2019). Rejecting the pairs
/// with `p_holm <= α` controls the family-wise error rate at `α` (Holm
/// 1979); [`holm_not_different`] turns the result into the matrix that
/// [`cd_cliques_from_matrix`] groups.
///
/// Pairs come in lexicographic order `(0,1), (0,2), …, (k-2,k-1)`. A pair of
/// treatments with identical values on every block (no non-zero difference,
/// where the test is undefined and R returns NaN) gets `n = 0`, `v = 0`,
/// `exact = true` and raw p-value `1` — no evidence of a difference — and
/// still counts in Holm's `m`.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if there is no block or fewer than
///   2 treatments;
/// * [`StatsError::RaggedBlocks`] if the blocks differ in length;
/// * [`StatsError::InvalidValue`] if any value is NaN.
pub fn pairwise_wilcoxon_holm(blocks: &[Vec<f64>]) -> Result<Vec<PairwiseWilcoxon>, StatsError> {
    let k = check_blocks(blocks, 1)?;
    let column = |j: usize| -> Vec<f64> { blocks.iter().map(|b| b[j]).collect() };
    let columns: Vec<Vec<f64>> = (0..k).map(column).collect();
    let mut pairs = Vec::with_capacity(k * (k - 1) / 2);
    for i in 0..k {
        for j in i + 1..k {
            let pair = match wilcoxon_signed_rank(&columns[i], &columns[j]) {
                Ok(w) => PairwiseWilcoxon {
                    i,
                    j,
                    n: w.n,
                    v: w.v,
                    exact: w.exact,
                    p_value: w.p_value,
                    p_holm: f64::NAN,
                },
                Err(StatsError::TooFewObservations { .. }) => PairwiseWilcoxon {
                    i,
                    j,
                    n: 0,
                    v: 0.0,
                    exact: true,
                    p_value: 1.0,
                    p_holm: f64::NAN,
                },
                Err(e) => return Err(e),
            };
            pairs.push(pair);
        }
    }
    let raw: Vec<f64> = pairs.iter().map(|p| p.p_value).collect();
    for (pair, adj) in pairs.iter_mut().zip(holm_adjust(&raw)) {
        pair.p_holm = adj;
    }
    Ok(pairs)
}

/// The `k × k` "not significantly different" matrix of a
/// [`pairwise_wilcoxon_holm`] result at level `alpha`: entry `[i][j]` is
/// `true` when the pair's Holm-adjusted p-value exceeds `alpha` (H0 not
/// rejected), and the diagonal is `true`. Pairs missing from `pairs` count
/// as not different.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if `k < 2`;
/// * [`StatsError::InvalidValue`] if `alpha` is not in `(0, 1)` or a pair
///   index is `>= k`.
pub fn holm_not_different(
    k: usize,
    pairs: &[PairwiseWilcoxon],
    alpha: f64,
) -> Result<Vec<Vec<bool>>, StatsError> {
    if k < 2 {
        return Err(StatsError::TooFewObservations {
            sample: "treatments",
            n: k as u64,
            min: 2,
        });
    }
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(StatsError::InvalidValue {
            what: "significance level alpha (must be in (0, 1))",
            value: alpha,
        });
    }
    let mut m = vec![vec![true; k]; k];
    for p in pairs {
        if p.i >= k || p.j >= k {
            return Err(StatsError::InvalidValue {
                what: "treatment index of a pair (must be < k)",
                value: p.i.max(p.j) as f64,
            });
        }
        let different = p.p_holm <= alpha;
        m[p.i][p.j] = !different;
        m[p.j][p.i] = !different;
    }
    Ok(m)
}

/// The groups of treatments joined by a bar in a critical-difference
/// diagram with the Nemenyi CD (Demšar 2006, §3.2.4, Fig. 1): the maximal
/// runs of treatments, consecutive in average-rank order, whose average
/// ranks all differ by **less than** `cd` (a difference of at least `cd` is
/// significant).
///
/// Returns each group as the treatment indices sorted by increasing average
/// rank (ties by index), the groups ordered by their best treatment. Only
/// groups of two or more treatments are returned — a treatment that differs
/// significantly from all others gets no bar. A group is maximal: it is not
/// contained in another returned group; groups may overlap.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if fewer than 2 treatments;
/// * [`StatsError::InvalidValue`] if an average rank is not finite, or `cd`
///   is NaN or negative.
pub fn cd_cliques(avg_ranks: &[f64], cd: f64) -> Result<Vec<Vec<usize>>, StatsError> {
    let order = rank_order(avg_ranks)?;
    if cd.is_nan() || cd < 0.0 {
        return Err(StatsError::InvalidValue {
            what: "critical difference",
            value: cd,
        });
    }
    Ok(maximal_runs(&order, |a, b| {
        avg_ranks[b] - avg_ranks[a] < cd
    }))
}

/// The groups for a critical-difference diagram drawn from a pairwise
/// "not significantly different" matrix (e.g. [`holm_not_different`] of a
/// [`pairwise_wilcoxon_holm`] result): the maximal runs of treatments,
/// consecutive in average-rank order, in which **every** pair is marked
/// not different.
///
/// H. Ismail Fawaz's `cd-diagram` code (companion of Ismail Fawaz et al.
/// 2019) takes all maximal cliques of the "not different" graph and draws
/// each as a bar from its best- to its worst-ranked member. Here the groups
/// are restricted to runs consecutive in rank order, so that a bar never
/// spans a treatment that is significantly different from one of the
/// treatments it joins; when every maximal clique is such a run (the usual
/// case) the two coincide.
///
/// Output format as [`cd_cliques`]. `not_different` must be a symmetric
/// `k × k` matrix with `k = avg_ranks.len()`; its diagonal is ignored.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if fewer than 2 treatments;
/// * [`StatsError::InvalidValue`] if an average rank is not finite;
/// * [`StatsError::LengthMismatch`] if the matrix is not `k × k`;
/// * [`StatsError::AsymmetricMatrix`] if it is not symmetric.
pub fn cd_cliques_from_matrix(
    avg_ranks: &[f64],
    not_different: &[Vec<bool>],
) -> Result<Vec<Vec<usize>>, StatsError> {
    let order = rank_order(avg_ranks)?;
    let k = avg_ranks.len();
    if not_different.len() != k {
        return Err(StatsError::LengthMismatch {
            what: "rows of the not-different matrix vs. treatments",
            expected: k,
            got: not_different.len(),
        });
    }
    for row in not_different {
        if row.len() != k {
            return Err(StatsError::LengthMismatch {
                what: "columns of the not-different matrix vs. treatments",
                expected: k,
                got: row.len(),
            });
        }
    }
    for (i, row) in not_different.iter().enumerate() {
        for (j, &entry) in row.iter().enumerate().skip(i + 1) {
            if entry != not_different[j][i] {
                return Err(StatsError::AsymmetricMatrix { i, j });
            }
        }
    }
    // A run order[s..=e] extends to e + 1 when the new member is not
    // different from every member already in it.
    let runs = maximal_runs_by(&order, |run, next| {
        run.iter().all(|&a| not_different[a][next])
    });
    Ok(runs)
}

/// Treatment indices sorted by average rank (stable: ties by index).
fn rank_order(avg_ranks: &[f64]) -> Result<Vec<usize>, StatsError> {
    if avg_ranks.len() < 2 {
        return Err(StatsError::TooFewObservations {
            sample: "treatments",
            n: avg_ranks.len() as u64,
            min: 2,
        });
    }
    if let Some(&value) = avg_ranks.iter().find(|r| !r.is_finite()) {
        return Err(StatsError::InvalidValue {
            what: "an average rank",
            value,
        });
    }
    let mut order: Vec<usize> = (0..avg_ranks.len()).collect();
    order.sort_by(|&a, &b| avg_ranks[a].total_cmp(&avg_ranks[b]));
    Ok(order)
}

/// Maximal runs when membership is decided by the first (best) and the new
/// (worst) member alone — true for rank differences, which grow along the
/// order.
fn maximal_runs(order: &[usize], joins: impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    maximal_runs_by(order, |run, next| joins(run[0], next))
}

/// For each start `s`, the longest run `order[s..=e]` that `extends` accepts
/// member by member; keeps the runs of length >= 2 not contained in an
/// earlier one. Because every sub-run of an accepted run is accepted (the
/// relations used are "all pairs" properties), the end `e(s)` never
/// decreases with `s`, so a run is maximal exactly when its end is beyond
/// the previous start's end.
fn maximal_runs_by(order: &[usize], extends: impl Fn(&[usize], usize) -> bool) -> Vec<Vec<usize>> {
    let k = order.len();
    let mut groups = Vec::new();
    // End of the run of the previous start (none before the first).
    let mut previous_end: Option<usize> = None;
    for s in 0..k {
        let mut e = s;
        while e + 1 < k && extends(&order[s..=e], order[e + 1]) {
            e += 1;
        }
        let maximal = match previous_end {
            None => true,
            Some(p) => e > p,
        };
        if maximal && e > s {
            groups.push(order[s..=e].to_vec());
        }
        previous_end = Some(e);
    }
    groups
}

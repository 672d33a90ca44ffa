//! Mid-ranks (average ranks for ties), shared by the rank-based procedures.

use std::cmp::Ordering;

/// Ranks of `values` in input order, ascending (rank 1 = smallest), tied
/// values sharing the mean of the ranks they occupy — R's
/// `rank(x, ties.method = "average")`, the default of `rank()`. Also returns
/// the tie term `Σ (t³ - t)` over the tie groups of sizes `t`, which is zero
/// exactly when there are no ties.
///
/// The caller guarantees that `values` has no NaN. Infinities are ranked
/// like any other value (two equal infinities tie), and `-0.0 == 0.0`.
pub(crate) fn mid_ranks(values: &[f64]) -> (Vec<f64>, f64) {
    let n = values.len();
    let mut order: Vec<usize> = (0..n).collect();
    // No NaN, so partial_cmp never fails; a stable sort keeps it deterministic.
    order.sort_by(|&a, &b| values[a].partial_cmp(&values[b]).unwrap_or(Ordering::Equal));
    let mut ranks = vec![0.0; n];
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && values[order[j]] == values[order[i]] {
            j += 1;
        }
        // Sorted positions i..j (0-based) share the ranks i+1..=j.
        let mid = (i + 1 + j) as f64 / 2.0;
        for &idx in &order[i..j] {
            ranks[idx] = mid;
        }
        let t = (j - i) as f64;
        tie_term += t * t * t - t;
        i = j;
    }
    (ranks, tie_term)
}

/// The first NaN of `values`, as the error of the calling procedure.
pub(crate) fn reject_nan(values: &[f64], what: &'static str) -> Result<(), crate::StatsError> {
    match values.iter().find(|v| v.is_nan()) {
        Some(&value) => Err(crate::StatsError::InvalidValue { what, value }),
        None => Ok(()),
    }
}

//! Holm's step-down multiple-testing adjustment.

/// Holm-adjusted p-values, in the same order as the input.
///
/// S. Holm, *A simple sequentially rejective multiple test procedure*,
/// Scandinavian Journal of Statistics 6(2):65–70 (1979). With the `m`
/// non-NaN p-values sorted increasingly, `p₍₁₎ <= … <= p₍ₘ₎`, the adjusted
/// values are
///
/// `p̃₍ᵢ₎ = min(1, max_{j <= i} (m - j + 1) · p₍ⱼ₎)`,
///
/// exactly as R's `p.adjust(p, method = "holm")` (source:
/// `src/library/stats/R/p.adjust.R`). Rejecting `H₍ᵢ₎` when `p̃₍ᵢ₎ <= α`
/// controls the family-wise error rate at level `α`.
///
/// NaN entries (R's `NA`) stay NaN in the output and are **excluded from the
/// count `m`**, which is also what R does with its default `n = length(p)`
/// after removing `NA`s. Inputs are not otherwise validated: values outside
/// `[0, 1]` go through the same formula (negative products stay negative,
/// large ones are capped at 1). Ties receive equal adjusted values.
pub fn holm_adjust(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| !p[i].is_nan()).collect();
    let m = order.len();
    // Stable sort, like R's order(); no NaN remains, so total_cmp orders as <.
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut out = vec![f64::NAN; p.len()];
    let mut running_max = f64::NEG_INFINITY;
    for (rank, &idx) in order.iter().enumerate() {
        let factor = (m - rank) as f64;
        running_max = running_max.max(factor * p[idx]);
        out[idx] = running_max.min(1.0);
    }
    out
}

//! Empirical cumulative distribution of run lengths with unsolved runs.

use crate::StatsError;

/// Empirical CDF of `samples` evaluated at each of `points`: the fraction of
/// **all** samples that are `<= point`, where `+∞` marks an unsolved run
/// that never counts — not even at `point = +∞`.
///
/// This is the "proportion of runs solved within a budget" curve
/// (the run-length distribution of H. H. Hoos, T. Stützle, *Stochastic Local
/// Search: Foundations and Applications*, Morgan Kaufmann (2004), ch. 4,
/// and the runtime ECDFs of the COCO platform): the denominator includes
/// the unsolved runs, so the curve levels off at the success rate instead
/// of reaching 1. Without `+∞` values it is R's
/// `ecdf(samples)(points)`.
///
/// Cost: one sort, then a binary search per point.
///
/// # Errors
///
/// * [`StatsError::TooFewObservations`] if `samples` is empty;
/// * [`StatsError::InvalidValue`] if a sample is NaN or `-∞`, or a point is
///   NaN (points may be `±∞`).
pub fn ecdf(samples: &[f64], points: &[f64]) -> Result<Vec<f64>, StatsError> {
    if samples.is_empty() {
        return Err(StatsError::TooFewObservations {
            sample: "samples",
            n: 0,
            min: 1,
        });
    }
    if let Some(&value) = samples
        .iter()
        .find(|s| s.is_nan() || **s == f64::NEG_INFINITY)
    {
        return Err(StatsError::InvalidValue {
            what: "a sample (NaN and -inf are not allowed)",
            value,
        });
    }
    if let Some(&value) = points.iter().find(|p| p.is_nan()) {
        return Err(StatsError::InvalidValue {
            what: "an evaluation point",
            value,
        });
    }
    let mut solved: Vec<f64> = samples.iter().copied().filter(|s| s.is_finite()).collect();
    solved.sort_by(f64::total_cmp);
    let total = samples.len() as f64;
    Ok(points
        .iter()
        .map(|&p| solved.partition_point(|&s| s <= p) as f64 / total)
        .collect())
}

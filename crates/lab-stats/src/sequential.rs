//! Alpha spending over the rounds of a group-sequential procedure (Lan and DeMets, "Discrete
//! sequential boundaries for clinical trials", Biometrika 70:659-663, 1983).
//!
//! A spending function `f` gives the share of the type I error spent by information
//! fraction `t` (0 < t <= 1, `f(1) = alpha`): round k of a procedure with cumulative
//! fractions `t_1 < ... < t_K = 1` may reject with probability at most
//! `f(t_k) - f(t_{k-1})`. Testing each round at its increment with a Bonferroni bound over
//! the round's tests keeps the probability of any rejection over all rounds at most `alpha`
//! whatever the correlation between rounds (a union bound), so the increments are valid
//! for any test, discrete or not; they do not exploit the correlation of cumulative data, as
//! an exact group-sequential boundary would, and are conservative by that much.

use statrs::distribution::{ContinuousCDF, Normal};

use crate::StatsError;

/// The shape of the spending function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spending {
    /// Pocock-type: `f(t) = alpha ln(1 + (e - 1) t)`: spends early, so early rounds can
    /// reject clear misfits.
    Pocock,
    /// O'Brien-Fleming-type: `f(t) = 2 - 2 Phi(z_{1 - alpha/2} / sqrt(t))`: almost nothing
    /// early, nearly all of alpha at the end.
    OBrienFleming,
}

/// The alpha spent by information fraction `t` (clamped to [0, 1]).
pub fn spent(kind: Spending, alpha: f64, t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    if t == 0.0 {
        return 0.0;
    }
    match kind {
        Spending::Pocock => alpha * (1.0 + (std::f64::consts::E - 1.0) * t).ln(),
        Spending::OBrienFleming => {
            let n = Normal::new(0.0, 1.0).expect("standard normal");
            let z = n.inverse_cdf(1.0 - alpha / 2.0);
            (2.0 - 2.0 * n.cdf(z / t.sqrt())).min(alpha)
        }
    }
}

/// The alpha of each round: the increments of the spending function over the cumulative
/// `sizes` of the rounds (information fraction `size / last size`). They sum to `alpha`.
///
/// # Errors
///
/// [`StatsError::InvalidValue`] when `alpha` is not in (0, 1) or the sizes are empty, not
/// positive or not increasing.
pub fn round_alphas(kind: Spending, alpha: f64, sizes: &[f64]) -> Result<Vec<f64>, StatsError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(StatsError::InvalidValue {
            what: "alpha",
            value: alpha,
        });
    }
    let last = *sizes.last().ok_or(StatsError::InvalidValue {
        what: "number of rounds",
        value: 0.0,
    })?;
    let mut before = 0.0;
    let mut out = Vec::with_capacity(sizes.len());
    for (i, &s) in sizes.iter().enumerate() {
        if !(s > 0.0 && s.is_finite()) || (i > 0 && s <= sizes[i - 1]) {
            return Err(StatsError::InvalidValue {
                what: "round size (positive and increasing)",
                value: s,
            });
        }
        let now = if i + 1 == sizes.len() {
            alpha
        } else {
            spent(kind, alpha, s / last)
        };
        out.push((now - before).max(0.0));
        before = now;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increments_sum_to_alpha_and_follow_the_shape() {
        let sizes = [5.0, 10.0, 20.0, 50.0, 100.0];
        for kind in [Spending::Pocock, Spending::OBrienFleming] {
            let a = round_alphas(kind, 0.05, &sizes).unwrap();
            assert!((a.iter().sum::<f64>() - 0.05).abs() < 1e-15, "{a:?}");
            assert!(a.iter().all(|&x| x >= 0.0));
        }
        let p = round_alphas(Spending::Pocock, 0.05, &sizes).unwrap();
        // alpha ln(1 + (e - 1) / 20) for the first round.
        assert!((p[0] - 0.05 * (1.0 + (std::f64::consts::E - 1.0) / 20.0).ln()).abs() < 1e-15);
        let o = round_alphas(Spending::OBrienFleming, 0.05, &sizes).unwrap();
        assert!(o[0] < 1e-12 && o[4] > 0.04, "{o:?}");
        // One round spends everything.
        assert_eq!(
            round_alphas(Spending::Pocock, 0.05, &[7.0]).unwrap(),
            vec![0.05]
        );
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(round_alphas(Spending::Pocock, 0.0, &[1.0]).is_err());
        assert!(round_alphas(Spending::Pocock, 0.05, &[]).is_err());
        assert!(round_alphas(Spending::Pocock, 0.05, &[5.0, 5.0]).is_err());
        assert!(round_alphas(Spending::Pocock, 0.05, &[-1.0, 5.0]).is_err());
    }
}

//! Power and sample sizes: how many runs a comparison needs to see a stated effect.

use crate::StatsError;

/// `Φ(z)`, through libm's erfc (accurate to about an ulp).
fn phi(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

/// `Φ⁻¹(p)` for `0 < p < 1`: P. J. Acklam's rational approximation (relative error below
/// 1.2e-9) refined by one Halley step on libm's erfc, which brings it to machine precision.
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    if !(p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let x = if p < 0.024_25 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.024_25 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    let e = phi(x) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

/// Cohen's h, the effect size of two proportions: `2 asin √p1 - 2 asin √p2`
/// (`statsmodels.stats.proportion.proportion_effectsize`).
pub fn cohens_h(p1: f64, p2: f64) -> f64 {
    2.0 * p1.sqrt().asin() - 2.0 * p2.sqrt().asin()
}

/// Power of the two-sided test of two proportions with `n` observations per group at level
/// `alpha`, for the effect size `h` ([`cohens_h`]): the normal approximation on the arcsine
/// scale (J. Cohen, *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed. 1988,
/// ch. 6), `Φ(|h| √(n/2) - z) + Φ(-|h| √(n/2) - z)` with `z = Φ⁻¹(1 - alpha/2)`, as
/// `statsmodels.stats.power.NormalIndPower().power(h, n, alpha, ratio=1)`.
pub fn two_proportion_power(h: f64, n: f64, alpha: f64) -> f64 {
    let z = normal_quantile(1.0 - alpha / 2.0);
    let d = h.abs() * (n / 2.0).sqrt();
    phi(d - z) + phi(-d - z)
}

fn check_levels(alpha: f64, power: f64) -> Result<(), StatsError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(StatsError::InvalidValue {
            what: "alpha (must be in (0, 1))",
            value: alpha,
        });
    }
    if !(power > alpha && power < 1.0) {
        return Err(StatsError::InvalidValue {
            what: "power (must be in (alpha, 1))",
            value: power,
        });
    }
    Ok(())
}

/// The smallest whole number of observations per group whose [`two_proportion_power`] for
/// the proportions `p1`, `p2` reaches `power` (statsmodels' `solve_power`, rounded up).
/// `None` when `p1 == p2` (no number suffices).
pub fn two_proportion_runs(
    p1: f64,
    p2: f64,
    alpha: f64,
    power: f64,
) -> Result<Option<u64>, StatsError> {
    check_levels(alpha, power)?;
    for (what, p) in [("p1 (a proportion)", p1), ("p2 (a proportion)", p2)] {
        if !(0.0..=1.0).contains(&p) {
            return Err(StatsError::InvalidValue { what, value: p });
        }
    }
    let h = cohens_h(p1, p2);
    if h == 0.0 {
        return Ok(None);
    }
    // The one-tail solution is a lower bound; the other tail only adds power.
    let z = normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power);
    let mut n = ((2.0 * (z / h).powi(2)).floor() as u64).max(1);
    while n > 1 && two_proportion_power(h, (n - 1) as f64, alpha) >= power {
        n -= 1;
    }
    while two_proportion_power(h, n as f64, alpha) < power {
        n += 1;
    }
    Ok(Some(n))
}

/// Observations per group that give the two-sided Mann-Whitney U test `power` at level
/// `alpha` when `P(X < Y) + P(X = Y) / 2 = a12`: G. E. Noether, *Sample size determination
/// for some common nonparametric tests*, JASA 82(398) 1987, with equal groups,
/// `n = (z_{1-α/2} + z_{power})² / (6 (a12 - 1/2)²)`, rounded up. `None` at `a12 = 1/2`.
pub fn mann_whitney_runs(a12: f64, alpha: f64, power: f64) -> Result<Option<u64>, StatsError> {
    check_levels(alpha, power)?;
    if !(0.0..=1.0).contains(&a12) {
        return Err(StatsError::InvalidValue {
            what: "a12 (a probability)",
            value: a12,
        });
    }
    if a12 == 0.5 {
        return Ok(None);
    }
    let z = normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power);
    Ok(Some(
        ((z * z / (6.0 * (a12 - 0.5).powi(2))).ceil() as u64).max(1),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantile_inverts_phi() {
        for p in [1e-10, 0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999_999] {
            let x = normal_quantile(p);
            assert!((phi(x) - p).abs() <= 1e-15_f64.max(p * 1e-13), "{p}");
        }
        assert!((normal_quantile(0.975) - 1.959_963_984_540_054).abs() < 1e-14);
        assert!(normal_quantile(0.0).is_nan() && normal_quantile(1.0).is_nan());
    }

    #[test]
    fn bad_levels_are_errors() {
        assert!(two_proportion_runs(0.5, 0.6, 0.0, 0.8).is_err());
        assert!(two_proportion_runs(0.5, 0.6, 0.05, 1.0).is_err());
        assert!(two_proportion_runs(1.5, 0.6, 0.05, 0.8).is_err());
        assert!(mann_whitney_runs(0.7, 0.05, 0.01).is_err());
        assert_eq!(two_proportion_runs(0.5, 0.5, 0.05, 0.8), Ok(None));
        assert_eq!(mann_whitney_runs(0.5, 0.05, 0.8), Ok(None));
    }
}

//! The Bayesian signed-rank test pinned to `baycomp` 1.0.3, and the power calculations pinned
//! to `statsmodels` 0.15.0 / `scipy` 1.17.1 (all from PyPI, Python 3, in a fresh venv).
//!
//! baycomp's probabilities are Monte Carlo estimates from numpy's stream, which this crate does
//! not reproduce: the reference values were computed once with 10^6 posterior samples
//! (`random_state=1`), ours with 2 * 10^5 from our own seed. Each probability is a binomial
//! proportion over the samples, so the two estimates differ by a normal error of standard
//! deviation `sqrt(p (1 - p) (1/10^6 + 1/(2 10^5)))` (at most 0.0012); the tolerance is 5 such
//! standard deviations (with `p (1 - p)` floored at 10^-4 for probabilities near 0 or 1), so
//! a correct implementation fails one comparison with probability below 10^-6 while an error
//! in the model (a missing pseudo-observation, a ROPE of width `r` instead of half-width, the
//! Walsh averages without `i = j`) moves these values by far more.

use lab_stats::*;

/// `SignedRankTest.probs(np.array(x, dtype=float), np.array(y, dtype=float), rope=r,
/// nsamples=1000000, random_state=1)`, i.e. (p_left, p_rope, p_right); with `rope = 0` baycomp
/// returns (p_left, p_right) and p_rope is 0.
type Case = (&'static [f64], &'static [f64], f64, [f64; 3]);
const CASES: &[Case] = &[
    (
        &[0.81, 0.74, 0.92, 0.66, 0.70, 0.88, 0.59, 0.77, 0.83, 0.71],
        &[0.79, 0.78, 0.90, 0.70, 0.69, 0.91, 0.64, 0.80, 0.82, 0.75],
        0.01,
        [0.046725, 0.000953, 0.952322],
    ),
    (
        &[1.2, 0.4, -0.3, 2.2, 0.9, 1.1, 0.0, 0.7, 1.5, 0.3, 0.8, 1.9],
        &[0.9, 0.6, -0.2, 1.1, 0.9, 0.2, -0.4, 0.7, 0.6, 0.1, 0.2, 1.0],
        0.1,
        [0.981418, 0.018486, 9.6e-05],
    ),
    // Differences exactly at the ROPE's edges (0.05 + 0.05 == 2 * 0.05): the half weights.
    (
        &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        &[0.05, 0.05, -0.02, 0.08, 0.12, -0.05, 0.0, 0.06, 0.03],
        0.05,
        [0.0, 0.825904, 0.174096],
    ),
    (
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
        &[1.5, 1.6, 3.2, 4.9, 4.6, 6.8, 6.9],
        0.0,
        [0.147772, 0.0, 0.852228],
    ),
    (
        &[
            3.1, 2.7, 4.0, 3.3, 2.9, 3.6, 3.0, 2.8, 3.4, 3.2, 3.8, 2.6, 3.5, 3.9, 3.1,
        ],
        &[
            3.0, 2.9, 3.7, 3.5, 2.8, 3.4, 3.3, 2.7, 3.3, 3.0, 3.9, 2.9, 3.2, 3.7, 3.2,
        ],
        0.1,
        [0.206135, 0.772749, 0.021116],
    ),
];

#[test]
fn bayesian_signed_rank_matches_baycomp() {
    const OURS: usize = 200_000;
    for (k, (x, y, rope, want)) in CASES.iter().enumerate() {
        let p = bayesian_signed_rank(x, y, *rope, BAYES_PRIOR, OURS, 20_261_125).unwrap();
        let got = [p.p_left, p.p_rope, p.p_right];
        for (g, w) in got.iter().zip(want) {
            let var = (w * (1.0 - w)).max(1e-4) * (1.0 / 1e6 + 1.0 / OURS as f64);
            assert!(
                (g - w).abs() <= 5.0 * var.sqrt(),
                "case {k}: got {got:?}, baycomp {want:?}"
            );
        }
    }
}

/// `from statsmodels.stats.power import NormalIndPower;
/// from statsmodels.stats.proportion import proportion_effectsize`:
/// `h = proportion_effectsize(p1, p2)`,
/// `NormalIndPower().solve_power(h, nobs1=None, alpha=0.05, power=0.8, ratio=1.0)`,
/// `NormalIndPower().power(h, nobs1=100, alpha=0.05, ratio=1.0)`.
#[test]
fn two_proportion_power_matches_statsmodels() {
    let cases: &[(f64, f64, f64, f64, f64)] = &[
        (
            0.5,
            0.6,
            -0.20135792079033066,
            387.1677468578107,
            0.296285448079648,
        ),
        (
            0.9,
            1.0,
            -0.6435011087932843,
            37.90862113453755,
            0.9952050494211959,
        ),
        (
            0.05,
            0.15,
            -0.3443720183878812,
            132.36735652583937,
            0.6826526453432302,
        ),
        (
            0.3,
            0.2,
            0.2319842627257963,
            291.6886683175625,
            0.3747994141384614,
        ),
        (
            0.99,
            0.89,
            0.4757956672375423,
            69.34188457304228,
            0.9199030584297493,
        ),
    ];
    for &(p1, p2, h, n, power100) in cases {
        assert!((cohens_h(p1, p2) - h).abs() < 1e-14, "h({p1}, {p2})");
        assert!((two_proportion_power(h, 100.0, 0.05) - power100).abs() < 1e-12);
        // solve_power stops at its root finder's tolerance.
        assert!((two_proportion_power(h, n, 0.05) - 0.8).abs() < 1e-6);
        let runs = two_proportion_runs(p1, p2, 0.05, 0.8).unwrap();
        assert_eq!(runs, Some(n.ceil() as u64), "n({p1}, {p2})");
    }
}

/// `from scipy.stats import norm; z = norm.ppf(0.975) + norm.ppf(0.8);
/// z * z / (6 * (a12 - 0.5) ** 2)`: 130.81466223915155, 58.1398498840673, 523.2586489566049,
/// 14.534962471016826.
#[test]
fn mann_whitney_runs_is_noethers_formula() {
    for (a12, n) in [(0.6, 131), (0.35, 59), (0.55, 524), (0.8, 15)] {
        assert_eq!(mann_whitney_runs(a12, 0.05, 0.8), Ok(Some(n)), "{a12}");
    }
}

/// Noether's approximation checked by simulation, with the test the compare report uses:
/// runs of a pilot-like run-length distribution (a third unsolved, `+inf`) against the same
/// runs twice as long; at the computed size the simulated power is 80 % up to the Monte Carlo
/// error of 2000 trials (sd 0.009) and the approximation's own (a few points).
#[test]
fn mann_whitney_runs_give_the_power_in_simulation() {
    let pilot: Vec<f64> = (0..30)
        .map(|i| {
            if i % 3 == 2 {
                f64::INFINITY
            } else {
                1000.0 * (1.0 + (i * 7 % 30) as f64)
            }
        })
        .collect();
    let doubled: Vec<f64> = pilot.iter().map(|x| 2.0 * x).collect();
    let a12 = vargha_delaney_a12(&doubled, &pilot).unwrap();
    let n = mann_whitney_runs(a12, 0.05, 0.8).unwrap().unwrap() as usize;
    let mut state = 42u64;
    let mut draw = |v: &[f64]| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        v[((state >> 33) as usize) % v.len()]
    };
    let trials = 2000;
    let mut rejected = 0;
    for _ in 0..trials {
        let x: Vec<f64> = (0..n).map(|_| draw(&pilot)).collect();
        let y: Vec<f64> = (0..n).map(|_| draw(&doubled)).collect();
        if mann_whitney_u(&x, &y).is_ok_and(|r| r.p_value < 0.05) {
            rejected += 1;
        }
    }
    let power = rejected as f64 / trials as f64;
    assert!(
        (0.74..=0.88).contains(&power),
        "n = {n}, a12 = {a12}, power {power}"
    );
}

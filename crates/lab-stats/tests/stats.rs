//! Integration tests for `lab-stats`.
//!
//! Reference values come from R (quoted with the call that produced them),
//! from exact rational arithmetic (Python `fractions`, re-implementing R's
//! algorithms; the script is summarised next to each table), from closed
//! forms, or from independent brute-force computations inside the test.

use lab_stats::*;

fn assert_close(got: f64, want: f64, rel: f64, what: &str) {
    let tol = rel * want.abs().max(f64::MIN_POSITIVE);
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got:e}, want {want:e} (rel tol {rel:e})"
    );
}

fn assert_abs(got: f64, want: f64, abs: f64, what: &str) {
    assert!(
        (got - want).abs() <= abs,
        "{what}: got {got}, want {want} (abs tol {abs})"
    );
}

/// Standard normal upper tail, for the closed-form checks.
fn normal_two_sided(z: f64) -> f64 {
    statrs::function::erf::erfc(z.abs() / std::f64::consts::SQRT_2)
}

// ---------------------------------------------------------------- summarize

#[test]
fn summarize_table() {
    /// (data, n, min, max, mean, median, sd)
    type Case = (&'static [f64], usize, f64, f64, f64, f64, f64);
    let cases: &[Case] = &[
        // R: sd(1:4) = 1.290994
        (
            &[1.0, 2.0, 3.0, 4.0],
            4,
            1.0,
            4.0,
            2.5,
            2.5,
            1.290_994_448_735_805_6,
        ),
        (
            &[4.0, 1.0, 3.0, 2.0],
            4,
            1.0,
            4.0,
            2.5,
            2.5,
            1.290_994_448_735_805_6,
        ),
        // odd n, unsorted: mean 4.8, sd = sqrt((0.04 + 14.44 + 17.64 + 3.24 + 1.44) / 4) = sqrt(9.2)
        (
            &[5.0, 1.0, 9.0, 3.0, 6.0],
            5,
            1.0,
            9.0,
            4.8,
            5.0,
            3.033_150_177_620_620_5,
        ),
        // n == 1: SD is 0 by convention
        (&[7.5], 1, 7.5, 7.5, 7.5, 7.5, 0.0),
        // constant sample
        (&[2.0, 2.0, 2.0], 3, 2.0, 2.0, 2.0, 2.0, 0.0),
        // negative values, even n: median = (-1 + 0)/2
        // sd = sqrt((4.5^2 + 1.5^2 + 2.5^2 + 8.5^2) / 3) = sqrt(101/3)
        (
            &[-3.0, 0.0, -1.0, 10.0],
            4,
            -3.0,
            10.0,
            1.5,
            -0.5,
            5.802_298_395_176_403,
        ),
    ];
    for &(xs, n, min, max, mean, median, sd) in cases {
        let s = summarize(xs).expect("non-empty finite sample");
        assert_eq!(s.n, n, "{xs:?}");
        assert_eq!(s.min, min, "{xs:?} min");
        assert_eq!(s.max, max, "{xs:?} max");
        assert_close(s.mean, mean, 1e-14, "mean");
        assert_close(s.median, median, 1e-14, "median");
        assert_abs(s.sd, sd, 1e-12, "sd");
    }
}

#[test]
fn summarize_rejects_empty_and_non_finite() {
    assert_eq!(summarize(&[]), None);
    assert_eq!(summarize(&[1.0, f64::NAN]), None);
    assert_eq!(summarize(&[1.0, f64::INFINITY]), None);
    assert_eq!(summarize(&[f64::NEG_INFINITY]), None);
    // Overflowing sum -> None rather than an infinite mean.
    assert_eq!(summarize(&[f64::MAX, f64::MAX]), None);
}

// ---------------------------------------------------------------- ERT

#[test]
fn ert_table() {
    // (total effort over all runs, successes, expected)
    let cases = [
        (1000.0, 4, 250.0),
        (1000.0, 1, 1000.0),
        (0.0, 3, 0.0),
        (1000.0, 0, f64::INFINITY),
        (0.0, 0, f64::INFINITY),
    ];
    for (total, succ, want) in cases {
        assert_eq!(ert(total, succ), want, "ert({total}, {succ})");
    }
    // Example: 10 runs, budget 500; 3 successes after 100, 200, 300.
    // ERT = (100 + 200 + 300 + 7 * 500) / 3 = 4100 / 3.
    assert_close(ert(4100.0, 3), 4100.0 / 3.0, 1e-15, "ert example");
    assert!(ert(-1.0, 2).is_nan());
    assert!(ert(f64::NAN, 2).is_nan());
    assert!(ert(f64::INFINITY, 2).is_nan());
}

// ---------------------------------------------------------------- Fisher

#[test]
fn fisher_reference_values() {
    // (a, b, c, d, p) for the table [[a, b], [c, d]].
    let cases: &[(u64, u64, u64, u64, f64)] = &[
        // R: fisher.test(matrix(c(3,1,1,3),2))$p.value = 0.4857 (= 34/70 exactly)
        (3, 1, 1, 3, 34.0 / 70.0),
        // R: fisher.test(matrix(c(7,2,3,8),2))$p.value = 0.06978
        (7, 3, 2, 8, 0.069_778_518_694_927_36),
        // R: fisher.test(Convictions) with Convictions = matrix(c(2,10,15,3),2):
        // p-value = 0.0005367
        (2, 15, 10, 3, 0.000_536_724_119_143_435_8),
        // fisher.test(matrix(c(69,31,100,0),2,byrow=TRUE)); exact rational value
        (69, 31, 100, 0, 5.904_336_327_183_028e-11),
        // Perfect separation: 2 / C(20,10) = 1.0825e-5
        (10, 0, 0, 10, 2.0 / 184_756.0),
        (1, 9, 11, 3, 0.002_759_456_185_220_083_6),
        // A zero margin: only one table possible
        (0, 0, 5, 5, 1.0),
        (0, 0, 0, 0, 1.0),
        // Large counts (exact rational arithmetic with Python big integers):
        (5000, 5000, 4900, 5100, 0.161_469_291_508_458_07),
        (100, 9900, 130, 9870, 0.054_211_885_822_313_705),
    ];
    for &(a, b, c, d, want) in cases {
        let got = fisher_exact_two_sided(a, b, c, d);
        assert_close(got, want, 1e-9, &format!("fisher({a},{b},{c},{d})"));
        // Invariance under transposition and row/column swaps.
        for (w, x, y, z) in [(a, c, b, d), (c, d, a, b), (b, a, d, c), (d, c, b, a)] {
            assert_close(
                fisher_exact_two_sided(w, x, y, z),
                want,
                1e-9,
                &format!("fisher symmetry ({w},{x},{y},{z})"),
            );
        }
    }
}

/// Brute force: enumerate every table with the observed margins, with the
/// hypergeometric probabilities built by the ratio recurrence
/// `P(x+1)/P(x) = (m-x)(k-x) / ((x+1)(n-k+x+1))` (no log-gamma), normalised
/// by their sum.
fn fisher_brute(a: u64, b: u64, c: u64, d: u64) -> f64 {
    let (m, n, k) = (a + c, b + d, a + b);
    let lo = k.saturating_sub(n);
    let hi = k.min(m);
    let mut probs = vec![1.0_f64];
    for x in lo..hi {
        let last = *probs.last().unwrap();
        let r = ((m - x) * (k - x)) as f64 / ((x + 1) * (n + x + 1 - k)) as f64;
        probs.push(last * r);
    }
    let total: f64 = probs.iter().sum();
    let obs = probs[(a - lo) as usize];
    probs
        .iter()
        .filter(|&&p| p <= obs * (1.0 + 1e-7))
        .sum::<f64>()
        / total
}

#[test]
fn fisher_matches_brute_force_on_all_small_tables() {
    let mut checked = 0;
    for a in 0..=7 {
        for b in 0..=7 {
            for c in 0..=7 {
                for d in 0..=7 {
                    let got = fisher_exact_two_sided(a, b, c, d);
                    let want = fisher_brute(a, b, c, d);
                    assert_close(
                        got.min(1.0),
                        want.min(1.0),
                        1e-9,
                        &format!("({a},{b},{c},{d})"),
                    );
                    assert!((0.0..=1.0).contains(&got));
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 4096);
    // A larger table checked the same way.
    assert_close(
        fisher_exact_two_sided(40, 60, 25, 75),
        fisher_brute(40, 60, 25, 75),
        1e-9,
        "(40,60,25,75)",
    );
}

// ---------------------------------------------------------------- binomial

#[test]
fn binomial_reference_values() {
    // (x, n, p, p-value)
    let cases: &[(u64, u64, f64, f64)] = &[
        // R: binom.test(7, 20, 0.5)$p.value = 0.2632 (= 2 * pbinom(7, 20, .5))
        (7, 20, 0.5, 0.263_175_964_355_468_75),
        // R: binom.test(c(682, 243), p = 3/4)$p.value = 0.3825
        (682, 925, 0.75, 0.382_491_559_574_851_7),
        // Asymmetric cases, exact rational re-implementation of binom.test:
        (3, 10, 0.2, 0.429_574_656),
        (0, 10, 0.3, 0.038_839_603_3),
        (10, 10, 0.5, 0.001_953_125),
        // x == n p  ->  exactly 1
        (5, 10, 0.5, 1.0),
        (1, 3, 1.0 / 3.0, 1.0),
        // Large n (exact rational):
        (4900, 10000, 0.5, 0.046_585_527_704_947_39),
        (2950, 10000, 0.3, 0.280_060_070_636_586_44),
        // Degenerate p
        (0, 10, 0.0, 1.0),
        (3, 10, 0.0, 0.0),
        (10, 10, 1.0, 1.0),
        (9, 10, 1.0, 0.0),
    ];
    for &(x, n, p, want) in cases {
        let got = binomial_test_two_sided(x, n, p);
        let what = format!("binom({x},{n},{p})");
        if want == 0.0 {
            assert_eq!(got, 0.0, "{what}");
        } else {
            assert_close(got, want, 1e-9, &what);
        }
    }
}

#[test]
fn binomial_matches_brute_force() {
    // Direct f64 pmf by repeated multiplication, no log-gamma.
    fn pmf(i: u64, n: u64, p: f64) -> f64 {
        let mut c = 1.0;
        for j in 0..i {
            c = c * (n - j) as f64 / (j + 1) as f64;
        }
        c * p.powi(i as i32) * (1.0 - p).powi((n - i) as i32)
    }
    for n in 1..=30u64 {
        for &p in &[0.05, 0.2, 0.37, 0.5, 0.75] {
            for x in 0..=n {
                let want = if x as f64 == n as f64 * p {
                    1.0
                } else {
                    let d = pmf(x, n, p);
                    (0..=n)
                        .map(|i| pmf(i, n, p))
                        .filter(|&q| q <= d * (1.0 + 1e-7))
                        .sum::<f64>()
                        .min(1.0)
                };
                let got = binomial_test_two_sided(x, n, p);
                assert_close(got, want, 1e-9, &format!("binom({x},{n},{p})"));
            }
        }
    }
}

#[test]
fn binomial_invalid_input_is_nan() {
    assert!(binomial_test_two_sided(11, 10, 0.5).is_nan());
    assert!(binomial_test_two_sided(1, 10, -0.1).is_nan());
    assert!(binomial_test_two_sided(1, 10, 1.1).is_nan());
    assert!(binomial_test_two_sided(1, 10, f64::NAN).is_nan());
}

// ---------------------------------------------------------------- Welch

#[test]
fn welch_closed_forms() {
    // n1 = n2 = 2, sd1 = sd2 = 1: se = 1, df = 2 exactly; t_2 two-sided
    // p = 1 - |t| / sqrt(2 + t^2).
    // n1 = 2, sd2 = 0: df = n1 - 1 = 1 (Cauchy); p = 1 - (2/pi) atan|t|.
    /// (mean1, sd1, n1, mean2, sd2, n2, t, df, p); df NaN = not checked.
    type Case = (f64, f64, u64, f64, f64, u64, f64, f64, f64);
    let s2 = std::f64::consts::SQRT_2;
    let cases: &[Case] = &[
        (3.0, 1.0, 2, 1.0, 1.0, 2, 2.0, 2.0, 1.0 - 2.0 / 6f64.sqrt()),
        (
            1.0,
            1.0,
            2,
            1.5,
            1.0,
            2,
            -0.5,
            2.0,
            1.0 - 0.5 / 2.25f64.sqrt(),
        ),
        (1.0, s2, 2, 0.0, 0.0, 5, 1.0, 1.0, 0.5),
        (
            0.0,
            0.0,
            7,
            3.0,
            s2,
            2,
            -3.0,
            1.0,
            1.0 - 2.0 / std::f64::consts::PI * 3f64.atan(),
        ),
        // Equal means: t = 0, p = 1
        (5.0, 2.0, 10, 5.0, 3.0, 20, 0.0, f64::NAN, 1.0),
    ];
    for &(m1, sd1, n1, m2, sd2, n2, t, df, p) in cases {
        let r = welch_t_test(m1, sd1, n1, m2, sd2, n2).unwrap();
        assert_abs(r.t, t, 1e-12, "t");
        if !df.is_nan() {
            assert_close(r.df, df, 1e-12, "df");
        }
        assert_close(r.p_value, p, 1e-9, "p");
    }
}

#[test]
fn welch_hand_computed_df() {
    // v1 = 4/10 = 0.4, v2 = 9/15 = 0.6, se = 1, t = -2,
    // df = 1 / (0.16/9 + 0.36/14) = 22.9927...
    let r = welch_t_test(10.0, 2.0, 10, 12.0, 3.0, 15).unwrap();
    assert_close(r.t, -2.0, 1e-12, "t");
    assert_close(r.df, 1.0 / (0.16 / 9.0 + 0.36 / 14.0), 1e-12, "df");
    // p lies above the normal value (df = inf) ...
    assert!(r.p_value > normal_two_sided(2.0), "{}", r.p_value);
    // ... and equals 1 - 2 * integral_0^2 of the t density (independent
    // numerical integration).
    assert_close(r.p_value, t_two_sided_by_quadrature(2.0, r.df), 1e-9, "p");
}

/// Two-sided Student-t p-value by composite Simpson integration of the
/// density `Γ((ν+1)/2) / (√(νπ) Γ(ν/2)) · (1 + x²/ν)^(-(ν+1)/2)` on `[0, |t|]`.
fn t_two_sided_by_quadrature(t: f64, df: f64) -> f64 {
    use statrs::function::gamma::ln_gamma;
    let ln_c =
        ln_gamma((df + 1.0) / 2.0) - ln_gamma(df / 2.0) - 0.5 * (df * std::f64::consts::PI).ln();
    let f = |x: f64| (ln_c - (df + 1.0) / 2.0 * (x * x / df).ln_1p()).exp();
    let steps = 20_000;
    let h = t.abs() / steps as f64;
    let mut s = f(0.0) + f(t.abs());
    for i in 1..steps {
        s += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
    }
    1.0 - 2.0 * s * h / 3.0
}

#[test]
fn welch_sleep_data_matches_r() {
    // R: t.test(extra ~ group, data = sleep)
    //   t = -1.8608, df = 17.776, p-value = 0.07939
    let g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    let g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
    let (a, b) = (summarize(&g1).unwrap(), summarize(&g2).unwrap());
    assert_close(a.mean, 0.75, 1e-12, "mean g1");
    assert_close(b.mean, 2.33, 1e-12, "mean g2");
    let r = welch_t_test(a.mean, a.sd, a.n as u64, b.mean, b.sd, b.n as u64).unwrap();
    assert_abs(r.t, -1.8608, 5e-5, "t");
    assert_abs(r.df, 17.776, 5e-4, "df");
    assert_abs(r.p_value, 0.07939, 5e-6, "p");
    assert_close(
        r.p_value,
        t_two_sided_by_quadrature(r.t, r.df),
        1e-9,
        "p quadrature",
    );
}

#[test]
fn welch_huge_df_matches_normal() {
    // n = 1e7 per group, sd chosen so that se = 1 and t = 2; df ~ 2e7.
    let n = 10_000_000u64;
    let sd = (n as f64 / 2.0).sqrt();
    let r = welch_t_test(2.0, sd, n, 0.0, sd, n).unwrap();
    assert_close(r.t, 2.0, 1e-12, "t");
    assert_close(r.df, 2.0 * (n as f64 - 1.0), 1e-9, "df");
    // R: 2 * pnorm(-2) = 0.04550026
    assert_close(r.p_value, 0.045_500_263_896_358_42, 1e-6, "p vs normal");
}

#[test]
fn welch_errors() {
    assert!(matches!(
        welch_t_test(1.0, 1.0, 1, 0.0, 1.0, 5),
        Err(StatsError::TooFewObservations { n: 1, min: 2, .. })
    ));
    assert!(matches!(
        welch_t_test(1.0, 1.0, 5, 0.0, 1.0, 0),
        Err(StatsError::TooFewObservations { n: 0, .. })
    ));
    // Both variances zero: an error whether or not the means differ.
    assert!(matches!(
        welch_t_test(1.0, 0.0, 5, 0.0, 0.0, 5),
        Err(StatsError::ZeroVariance(_))
    ));
    assert!(matches!(
        welch_t_test(1.0, 0.0, 5, 1.0, 0.0, 5),
        Err(StatsError::ZeroVariance(_))
    ));
    for bad in [
        welch_t_test(f64::NAN, 1.0, 5, 0.0, 1.0, 5),
        welch_t_test(0.0, -1.0, 5, 0.0, 1.0, 5),
        welch_t_test(0.0, 1.0, 5, 0.0, f64::INFINITY, 5),
    ] {
        assert!(
            matches!(bad, Err(StatsError::InvalidValue { .. })),
            "{bad:?}"
        );
    }
}

// ---------------------------------------------------------------- Mann-Whitney

/// U by direct pair counting (ties count 1/2), independent of ranking.
fn u_by_pairs(x: &[f64], y: &[f64]) -> f64 {
    let mut u = 0.0;
    for &a in x {
        for &b in y {
            if a > b {
                u += 1.0;
            } else if a == b {
                u += 0.5;
            }
        }
    }
    u
}

#[test]
fn mann_whitney_hand_cases() {
    /// (x, y, U, z, p)
    type Case = (&'static [f64], &'static [f64], f64, f64, f64);
    let cases: &[Case] = &[
        // No ties: U = 0, mu = 3, sigma = sqrt(6/12 * 6) = sqrt(3),
        // z = (0 - 3 + 0.5) / sqrt(3); p = 2 Phi(z) = 0.148914673...
        (
            &[1.0, 2.0, 3.0],
            &[4.0, 5.0],
            0.0,
            -2.5 / 1.732_050_807_568_877_2,
            0.148_914_673_178_765_67,
        ),
        // Swapped samples: U = 6, z = +1.443, same p.
        (
            &[4.0, 5.0],
            &[1.0, 2.0, 3.0],
            6.0,
            2.5 / 1.732_050_807_568_877_2,
            0.148_914_673_178_765_67,
        ),
        // Ties: pooled 1,2,2,2,3 -> ranks 1,3,3,3,5; U = 7 - 6 = 1;
        // sigma^2 = 6/12 * (6 - 24/20) = 2.4; z = (1 - 3 + 0.5)/sqrt(2.4)
        (
            &[1.0, 2.0, 2.0],
            &[2.0, 3.0],
            1.0,
            -1.5 / 1.549_193_338_482_966_8,
            0.332_921_608_065_566,
        ),
        // U exactly at its mean: no continuity correction, z = 0, p = 1.
        (&[1.0, 4.0], &[2.0, 3.0], 2.0, 0.0, 1.0),
    ];
    for &(x, y, u, z, p) in cases {
        let r = mann_whitney_u(x, y).unwrap();
        assert_eq!(r.u, u, "U for {x:?} vs {y:?}");
        assert_eq!(r.u, u_by_pairs(x, y));
        assert_abs(r.z, z, 1e-12, "z");
        assert_close(r.p_value, p, 1e-9, "p");
    }
}

#[test]
fn mann_whitney_u_matches_pair_count_and_symmetry() {
    let x = [3.1, 0.0, -0.0, 2.2, 2.2, 7.0, 1.5, 9.9, 2.2, 4.0];
    let y = [2.2, 0.0, 5.5, 1.5, 8.0, 3.1, 6.0];
    let r = mann_whitney_u(&x, &y).unwrap();
    let s = mann_whitney_u(&y, &x).unwrap();
    assert_eq!(r.u, u_by_pairs(&x, &y));
    assert_eq!(r.u + s.u, (x.len() * y.len()) as f64);
    assert_abs(r.z, -s.z, 1e-12, "z antisymmetric");
    assert_close(r.p_value, s.p_value, 1e-12, "p symmetric");
    assert_close(r.p_value, normal_two_sided(r.z), 1e-12, "p from z");
}

#[test]
fn mann_whitney_errors() {
    assert!(matches!(
        mann_whitney_u(&[], &[1.0]),
        Err(StatsError::TooFewObservations { n: 0, .. })
    ));
    assert!(matches!(
        mann_whitney_u(&[1.0], &[]),
        Err(StatsError::TooFewObservations { n: 0, .. })
    ));
    assert!(matches!(
        mann_whitney_u(&[1.0, f64::NAN], &[1.0]),
        Err(StatsError::InvalidValue { .. })
    ));
    assert!(matches!(
        mann_whitney_u(&[2.0, 2.0], &[2.0]),
        Err(StatsError::ZeroVariance(_))
    ));
}

// ---------------------------------------------------------------- Holm

#[test]
fn holm_table() {
    let nan = f64::NAN;
    let cases: &[(&[f64], &[f64])] = &[
        // R: p.adjust(c(0.01,0.04,0.03,0.005), "holm") = 0.03 0.06 0.06 0.02
        (&[0.01, 0.04, 0.03, 0.005], &[0.03, 0.06, 0.06, 0.02]),
        // R: p.adjust(c(.01,.02,.03,.04,.05), "holm") = .05 .08 .09 .09 .09
        (
            &[0.01, 0.02, 0.03, 0.04, 0.05],
            &[0.05, 0.08, 0.09, 0.09, 0.09],
        ),
        // Capped at 1
        // sorted: 3*0.2 = 0.6, 2*0.5 = 1.0, cummax(1*0.9) = 1.0
        (&[0.5, 0.2, 0.9], &[1.0, 0.6, 1.0]),
        (&[0.1, 0.2, 0.3], &[0.3, 0.4, 0.4]),
        (&[0.6, 0.7], &[1.0, 1.0]),
        // NaN stays NaN and is not counted: m = 2
        (&[0.01, nan, 0.04], &[0.02, nan, 0.04]),
        // Ties get equal values
        (&[0.02, 0.02, 0.01], &[0.04, 0.04, 0.03]),
        (&[0.3], &[0.3]),
        (&[], &[]),
        (&[nan], &[nan]),
    ];
    for &(p, want) in cases {
        let got = holm_adjust(p);
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            if w.is_nan() {
                assert!(g.is_nan(), "{p:?} -> {got:?}");
            } else {
                assert_abs(*g, *w, 1e-12, &format!("holm {p:?}"));
            }
        }
    }
}

// ---------------------------------------------------------------- PI

fn ps(successes: u64, runs: u64, mean: f64, sd: f64) -> PuzzleStats {
    PuzzleStats {
        successes,
        runs,
        mean_generations: mean,
        sd_generations: sd,
    }
}

/// Two algorithms, two puzzles.
///
/// Puzzle 1: A 10/10, Ag 100, Asd 20; B 5/10, Ag 50, Asd 40.
///   Mg = 50, Msd = 20 -> A: (1, 0.5, 1), B: (0.5, 1, 0.5).
/// Puzzle 2: A 0/10 (stats ignored); B 1/4, Ag 300, Asd 0.
///   Mg = 300, Msd = 0 -> A: (0, 0, 0), B: (0.25, 1, 1) (0/0 -> 1).
fn two_by_two() -> Vec<Vec<PuzzleStats>> {
    vec![
        vec![ps(10, 10, 100.0, 20.0), ps(0, 10, f64::NAN, f64::NAN)],
        vec![ps(5, 10, 50.0, 40.0), ps(1, 4, 300.0, 0.0)],
    ]
}

#[test]
fn pi_hand_computed() {
    let algs = two_by_two();
    // (k, PI_A, PI_B)
    let cases = [
        // A: (0.5*1 + 0.25*0.5 + 0.25*1 + 0)/2 = 0.4375
        // B: ((0.25 + 0.25 + 0.125) + (0.125 + 0.25 + 0.25))/2 = 0.625
        ((0.5, 0.25, 0.25), 0.4375, 0.625),
        // Pure success rate: mean of Sr/Tr
        ((1.0, 0.0, 0.0), 0.5, 0.375),
        ((0.0, 1.0, 0.0), 0.25, 1.0),
        ((0.0, 0.0, 1.0), 0.5, 0.75),
        (
            (0.2, 0.3, 0.5),
            (0.2 + 0.15 + 0.5) / 2.0,
            (0.1 + 0.3 + 0.25 + 0.05 + 0.3 + 0.5) / 2.0,
        ),
    ];
    for (k, a, b) in cases {
        let pi = performance_index(&algs, k).unwrap();
        assert_eq!(pi.len(), 2);
        assert_close(pi[0], a, 1e-12, &format!("PI_A {k:?}"));
        assert_close(pi[1], b, 1e-12, &format!("PI_B {k:?}"));
    }
}

#[test]
fn pi_case_weights() {
    let cases = [
        (PiCase::K1, 0.4, (0.4, 0.3, 0.3)),
        (PiCase::K2, 0.4, (0.3, 0.4, 0.3)),
        (PiCase::K3, 0.4, (0.3, 0.3, 0.4)),
        (PiCase::K1, 1.0, (1.0, 0.0, 0.0)),
        (PiCase::K2, 0.0, (0.5, 0.0, 0.5)),
        (PiCase::K3, 1.0, (0.0, 0.0, 1.0)),
    ];
    for (case, w, (k1, k2, k3)) in cases {
        let (g1, g2, g3) = case.weights(w);
        assert_abs(g1, k1, 1e-15, "k1");
        assert_abs(g2, k2, 1e-15, "k2");
        assert_abs(g3, k3, 1e-15, "k3");
        assert_abs(g1 + g2 + g3, 1.0, 1e-15, "sum");
    }
}

#[test]
fn pi_curve_hand_computed() {
    let algs = two_by_two();
    let ws = [0.0, 0.5, 1.0];
    // K1: w = 0 -> k = (0, .5, .5): A (0.75 + 0)/2, B (0.75 + 1)/2.
    let c = pi_curve(&algs, PiCase::K1, &ws).unwrap();
    let want = [[0.375, 0.4375, 0.5], [0.875, 0.625, 0.375]];
    for (alg, row) in want.iter().enumerate() {
        assert_eq!(c[alg].len(), 3);
        for (j, &v) in row.iter().enumerate() {
            assert_close(c[alg][j], v, 1e-12, &format!("K1 alg {alg} w {}", ws[j]));
        }
    }
    // w = 1 in case K1 is the mean success rate of each algorithm.
    let mean_rates = [0.5, (0.5 + 0.25) / 2.0];
    for (alg, r) in mean_rates.iter().enumerate() {
        assert_close(c[alg][2], *r, 1e-12, "mean success rate");
    }
    // w = 1 in cases K2 / K3 reproduces the pure alpha2 / alpha3 means.
    let c2 = pi_curve(&algs, PiCase::K2, &[1.0]).unwrap();
    let c3 = pi_curve(&algs, PiCase::K3, &[1.0]).unwrap();
    assert_eq!(c2, vec![vec![0.25], vec![1.0]]);
    assert_eq!(c3, vec![vec![0.5], vec![0.75]]);
    // Empty weight list: empty curves.
    assert_eq!(
        pi_curve(&algs, PiCase::K3, &[]).unwrap(),
        vec![Vec::<f64>::new(); 2]
    );
}

#[test]
fn pi_zero_sd_conventions() {
    // Puzzle solved once by A (SD 0) and five times by B (SD 10, mean 0):
    // Msd = 0 -> A alpha3 = 1 (0/0), B alpha3 = 0/10 = 0.
    // Mg = 0 (B solved at generation 0 on average) -> A alpha2 = 0/40 = 0,
    // B alpha2 = 0/0 = 1.
    let algs = vec![vec![ps(1, 5, 40.0, 0.0)], vec![ps(5, 5, 0.0, 10.0)]];
    let pi = performance_index(&algs, (0.0, 0.0, 1.0)).unwrap();
    assert_eq!(pi, vec![1.0, 0.0]);
    let pi = performance_index(&algs, (0.0, 1.0, 0.0)).unwrap();
    assert_eq!(pi, vec![0.0, 1.0]);
    let pi = performance_index(&algs, (1.0, 0.0, 0.0)).unwrap();
    assert_eq!(pi, vec![0.2, 1.0]);
    // Single algorithm, all solved: alpha2 = alpha3 = 1, PI = weighted rate.
    let one = vec![vec![ps(3, 4, 10.0, 2.0), ps(2, 2, 5.0, 1.0)]];
    let pi = performance_index(&one, (0.5, 0.25, 0.25)).unwrap();
    assert_close(
        pi[0],
        (0.5 * 0.75 + 0.5 + 0.5 * 1.0 + 0.5) / 2.0,
        1e-12,
        "single alg",
    );
}

#[test]
fn pi_errors() {
    let algs = two_by_two();
    for k in [
        (0.5, 0.5, 0.5),
        (1.2, -0.1, -0.1),
        (f64::NAN, 0.5, 0.5),
        (0.3, 0.3, 0.3),
    ] {
        assert!(
            matches!(
                performance_index(&algs, k),
                Err(StatsError::InvalidWeights { .. })
            ),
            "{k:?}"
        );
    }
    assert!(matches!(
        pi_curve(&algs, PiCase::K1, &[0.5, 1.5]),
        Err(StatsError::InvalidWeights { .. })
    ));
    assert_eq!(
        performance_index(&[], (1.0, 0.0, 0.0)).unwrap(),
        Vec::<f64>::new()
    );
    assert!(matches!(
        performance_index(&[vec![], vec![]], (1.0, 0.0, 0.0)),
        Err(StatsError::NoPuzzles)
    ));
    let ragged = vec![vec![ps(1, 1, 1.0, 0.0)], vec![]];
    assert!(matches!(
        performance_index(&ragged, (1.0, 0.0, 0.0)),
        Err(StatsError::RaggedPuzzleTable {
            alg: 1,
            expected: 1,
            got: 0
        })
    ));
    for bad in [
        ps(1, 0, 1.0, 0.0),
        ps(3, 2, 1.0, 0.0),
        ps(1, 2, f64::NAN, 0.0),
        ps(1, 2, 1.0, -1.0),
        ps(1, 2, -5.0, 1.0),
    ] {
        let t = vec![vec![ps(1, 1, 1.0, 0.0)], vec![bad]];
        assert!(
            matches!(
                performance_index(&t, (1.0, 0.0, 0.0)),
                Err(StatsError::InvalidPuzzleStats {
                    alg: 1,
                    puzzle: 0,
                    ..
                })
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn wilson_interval_table() {
    // Reference values: R `prop.test(x, n, correct = FALSE)$conf.int` (the Wilson interval),
    // and for 0 of n the closed form (0, z^2 / (n + z^2)).
    let z = 1.959964;
    let cases: &[(u64, u64, f64, f64)] = &[
        (50, 100, 0.4038315, 0.5961685),
        (0, 100, 0.0, 3.841459 / 103.841459),
        (100, 100, 1.0 - 3.841459 / 103.841459, 1.0),
    ];
    for &(k, n, lo, hi) in cases {
        let (l, h) = lab_stats::wilson_interval(k, n, z);
        assert_abs(l, lo, 1e-6, &format!("{k}/{n} low"));
        assert_abs(h, hi, 1e-6, &format!("{k}/{n} high"));
    }
    assert!(lab_stats::wilson_interval(0, 0, z).0.is_nan());
    assert!(lab_stats::wilson_interval(5, 4, z).1.is_nan());
}

/// The one-sided ("less") Fisher test against exact values: the hypergeometric lower tail
/// summed in rational arithmetic (Python `fractions` over `math.comb`), to 1e-12 relative.
#[test]
fn fisher_less_matches_exact_rational_tails() {
    type Table = (u64, u64, u64, u64);
    let cases: &[(Table, f64)] = &[
        ((0, 5, 95, 5), 2.609758845233906e-06),
        ((3, 2, 95, 5), 0.0348363659456048),
        ((5, 0, 95, 5), 1.0),
        ((1, 9, 12, 88), 0.6643265568198118),
        ((10, 10, 50, 50), 0.5964668987250176),
        ((40, 60, 95, 5), 3.0139813237759538e-18),
        ((0, 0, 3, 4), 1.0),
        ((2, 3, 0, 7), 1.0),
        ((20, 0, 100, 0), 1.0),
    ];
    for &((a, b, c, d), want) in cases {
        let got = lab_stats::fisher_exact_less(a, b, c, d);
        assert!(
            (got - want).abs() <= 1e-12 * want.max(1e-300),
            "({a}, {b}, {c}, {d}): {got} against {want}"
        );
    }
    // A lower bound on the second row can only raise the p-value (the test stays valid).
    assert!(
        lab_stats::fisher_exact_less(3, 2, 90, 10) >= lab_stats::fisher_exact_less(3, 2, 95, 5)
    );
}

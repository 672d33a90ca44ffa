//! Tests of the algorithm-comparison statistics: Vargha–Delaney A, the
//! Wilcoxon signed-rank test, Friedman / Iman–Davenport, the studentized
//! range and Nemenyi CD, the Wilcoxon–Holm post hoc, CD-diagram groups and
//! the ECDF.
//!
//! Reference values come from R 4.2.2 (Debian `r-base-core`
//! 4.2.2.20221110-2), printed with `options(digits = 17)`; the R call is
//! quoted next to each table. `effsize` is not packaged for Debian, so the
//! `VD.A` outputs were produced by `source()`-ing `R/VD_A.R` of effsize
//! 0.8.0 (github.com/mtorchiano/effsize, identical thresholds and formula
//! to CRAN's effsize 0.8.1) into that R. Published values (Demšar 2006,
//! R's `?friedman.test` and `?wilcox.test` examples) are quoted as printed.
//! Literals in the code are the shortest decimal form of the same `f64` as
//! the 17 (or, for mpmath, 20) digits quoted in the comments.

use lab_stats::*;

/// An unsolved run.
const INF: f64 = f64::INFINITY;

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

// ------------------------------------------------------------ Vargha–Delaney

/// A12 by brute force over all pairs: P(X > Y) + 0.5 P(X = Y).
fn a12_by_pairs(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for a in x {
        for b in y {
            if a > b {
                s += 1.0;
            } else if a == b {
                s += 0.5;
            }
        }
    }
    s / (x.len() * y.len()) as f64
}

#[test]
fn a12_matches_effsize_vd_a() {
    use A12Magnitude::*;
    // R: source("effsize/R/VD_A.R"); options(digits = 17)
    //    r <- VD.A(x, y); r$estimate; r$magnitude
    type Case = (&'static [f64], &'static [f64], f64, A12Magnitude);
    let cases: &[Case] = &[
        // VD.A(c(1,2,3,4,5), c(3,4,5,6,7))  -> A = 0.17999999999999999, large
        (
            &[1.0, 2.0, 3.0, 4.0, 5.0],
            &[3.0, 4.0, 5.0, 6.0, 7.0],
            0.18,
            Large,
        ),
        // VD.A(c(10,20,Inf,30,20), c(15,20,25,Inf,Inf,5)) -> A = 0.5, negligible
        (
            &[10.0, 20.0, INF, 30.0, 20.0],
            &[15.0, 20.0, 25.0, INF, INF, 5.0],
            0.5,
            Negligible,
        ),
        // VD.A(c(120,340,95,410,220,180,260,300), c(150,90,200,130,170,110))
        //   -> A = 0.79166666666666663, large
        (
            &[120.0, 340.0, 95.0, 410.0, 220.0, 180.0, 260.0, 300.0],
            &[150.0, 90.0, 200.0, 130.0, 170.0, 110.0],
            0.791_666_666_666_666_6,
            Large,
        ),
        // VD.A(c(5,5,5), c(5,5)) -> A = 0.5, negligible
        (&[5.0, 5.0, 5.0], &[5.0, 5.0], 0.5, Negligible),
        // VD.A(c(1,2,3), c(4,5,6)) -> A = 0, large
        (&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0], 0.0, Large),
        // VD.A(c(4,5,6), c(1,2,3)) -> A = 1, large
        (&[4.0, 5.0, 6.0], &[1.0, 2.0, 3.0], 1.0, Large),
        // VD.A(c(0.8,0.9,...,1.7), c(1.0,1.1,...,1.9)) -> A = 0.32000000000000001, medium
        (
            &[0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7],
            &[1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9],
            0.32,
            Medium,
        ),
    ];
    for (i, &(x, y, want, mag)) in cases.iter().enumerate() {
        let a = vargha_delaney_a12(x, y).unwrap();
        assert_close(a, want, 1e-15, &format!("case {i}: A12"));
        assert_close(a, a12_by_pairs(x, y), 1e-15, &format!("case {i}: pairs"));
        assert_close(
            vargha_delaney_a12(y, x).unwrap(),
            1.0 - want,
            1e-14,
            &format!("case {i}: A12(y, x) = 1 - A12(x, y)"),
        );
        assert_eq!(
            A12Magnitude::effsize(a).unwrap(),
            mag,
            "case {i}: magnitude"
        );
    }
}

#[test]
fn a12_magnitude_thresholds() {
    use A12Magnitude::*;
    // effsize: magnitude[findInterval(abs((A - 0.5) * 2), c(0.147, 0.33, 0.474)) + 1]
    // R: for (a in A) cat(a, mag[findInterval(abs((a-0.5)*2), c(0.147,0.33,0.474))+1])
    //   0.5 negligible   0.57 negligible   0.5735 small   0.574 small
    //   0.4265 small     0.426 small       0.664 small    0.665 medium
    //   0.666 medium     0.335 small (rounding: |(0.335-0.5)*2| = 0.32999999999999996)
    //   0.736 medium     0.737 large       0.738 large    0.263 large
    //   0 large          1 large
    // Vargha & Delaney (2000, p. 106): |A - 0.5| < 0.06 negligible, < 0.14
    // small, < 0.21 medium, else large (A = 0.56 / 0.64 / 0.71 start a class).
    let table: &[(f64, A12Magnitude, A12Magnitude)] = &[
        // (A, effsize, Vargha & Delaney 2000)
        (0.5, Negligible, Negligible),
        (0.57, Negligible, Small),
        (0.5735, Small, Small),
        (0.574, Small, Small),
        (0.4265, Small, Small),
        (0.426, Small, Small),
        (0.664, Small, Medium),
        (0.665, Medium, Medium),
        (0.666, Medium, Medium),
        (0.335, Small, Medium),
        (0.736, Medium, Large),
        (0.737, Large, Large),
        (0.738, Large, Large),
        (0.263, Large, Large),
        (0.0, Large, Large),
        (1.0, Large, Large),
        // Vargha–Delaney boundaries: a value on a threshold is in the larger class.
        (0.56, Negligible, Small),
        (0.44, Negligible, Small),
        (0.559, Negligible, Negligible),
        (0.441, Negligible, Negligible),
        (0.64, Small, Medium),
        (0.36, Small, Medium),
        (0.639, Small, Small),
        (0.71, Medium, Large),
        (0.29, Medium, Large),
        (0.709, Medium, Medium),
    ];
    for &(a, effsize, vd) in table {
        assert_eq!(A12Magnitude::effsize(a).unwrap(), effsize, "effsize({a})");
        assert_eq!(A12Magnitude::vargha_delaney(a).unwrap(), vd, "VD({a})");
    }
    assert_eq!(Large.to_string(), "large");
    assert_eq!(Negligible.as_str(), "negligible");
    assert!(Negligible < Small && Small < Medium && Medium < Large);
}

#[test]
fn a12_errors() {
    assert!(matches!(
        vargha_delaney_a12(&[], &[1.0]),
        Err(StatsError::TooFewObservations { sample: "x", .. })
    ));
    assert!(matches!(
        vargha_delaney_a12(&[1.0], &[]),
        Err(StatsError::TooFewObservations { sample: "y", .. })
    ));
    assert!(matches!(
        vargha_delaney_a12(&[1.0, f64::NAN], &[1.0]),
        Err(StatsError::InvalidValue { .. })
    ));
    for bad in [f64::NAN, -0.1, 1.1, f64::INFINITY] {
        assert!(A12Magnitude::effsize(bad).is_err(), "effsize({bad})");
        assert!(A12Magnitude::vargha_delaney(bad).is_err(), "VD({bad})");
    }
}

// ------------------------------------------------------- Wilcoxon signed-rank

/// x = 1..=n, y = ((17 i) mod 61) + i/100 (no ties among |x - y|), shifted.
fn mod_sequence(n: usize, shift: f64) -> (Vec<f64>, Vec<f64>) {
    let x = (1..=n).map(|i| i as f64 + shift).collect();
    let y = (1..=n)
        .map(|i| ((i * 17) % 61) as f64 + i as f64 / 100.0)
        .collect();
    (x, y)
}

#[test]
#[allow(clippy::approx_constant)] // 3.14 is a data value of R's example, not π
fn wilcoxon_signed_rank_matches_r() {
    // R: r <- wilcox.test(x, y, paired = TRUE); r$statistic; r$p.value; r$method
    type Case = (Vec<f64>, Vec<f64>, usize, usize, f64, f64, bool);
    let doc_x = vec![1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    let doc_y = vec![0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    let (x60, y60) = mod_sequence(60, 0.0);
    let (x60s, y60s) = mod_sequence(60, 10.0);
    let (x49, y49) = mod_sequence(49, 0.0);
    let cases: Vec<Case> = vec![
        // ?wilcox.test example (Hollander & Wolfe 1973, p. 29, depression
        // scale before/after): "V = 40, p-value = 0.03906", exact test;
        // 17 digits: p = 0.0390625.
        (doc_x.clone(), doc_y.clone(), 9, 0, 40.0, 0.039_062_5, true),
        // wilcox.test(y, x, paired = TRUE): V = 5, p = 0.0390625 (exact)
        (doc_y, doc_x, 9, 0, 5.0, 0.039_062_5, true),
        // wilcox.test(1, 0, paired = TRUE): V = 1, p = 1 (exact)
        (vec![1.0], vec![0.0], 1, 0, 1.0, 1.0, true),
        // wilcox.test(c(1,2,3,4,5,6), c(2,2,5,1,9,4), paired = TRUE)
        //   V = 6.5, p = 0.89225048690365205, with continuity correction (zero + ties)
        (
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            vec![2.0, 2.0, 5.0, 1.0, 9.0, 4.0],
            5,
            1,
            6.5,
            0.892_250_486_903_652,
            false,
        ),
        // i <- 1:60; wilcox.test(i, ((i*17) %% 61) + i/100, paired = TRUE)
        //   V = 900, p = 0.91499267519753147, normal approximation (n >= 50, no ties)
        (x60, y60, 60, 0, 900.0, 0.914_992_675_197_531_5, false),
        // same with x = i + 10: V = 1295, p = 0.0052104229467285811 (normal)
        (x60s, y60s, 60, 0, 1295.0, 0.005_210_422_946_728_581, false),
        // i <- 1:49: V = 445, p = 0.096928444163875596 (exact, n = 49 < 50)
        (x49, y49, 49, 0, 445.0, 0.096_928_444_163_875_6, true),
        // wilcox.test(c(3,3,3,3), c(1,2,5,4), paired = TRUE): V = 5, p = 1 (ties)
        (
            vec![3.0, 3.0, 3.0, 3.0],
            vec![1.0, 2.0, 5.0, 4.0],
            4,
            0,
            5.0,
            1.0,
            false,
        ),
        // wilcox.test(c(Inf,3,5,9,2,7), c(Inf,1,8,4,0.5,7.25), paired = TRUE)
        //   Inf - Inf = NaN is dropped as missing: V = 10, p = 0.625 (exact)
        (
            vec![INF, 3.0, 5.0, 9.0, 2.0, 7.0],
            vec![INF, 1.0, 8.0, 4.0, 0.5, 7.25],
            5,
            0,
            10.0,
            0.625,
            true,
        ),
        // wilcox.test(c(Inf,30,50,90,20,70), c(100,10,80,40,5,72.5), paired = TRUE)
        //   V = 16, p = 0.31250000000000011 (exact; Inf - 100 ranks largest)
        (
            vec![INF, 30.0, 50.0, 90.0, 20.0, 70.0],
            vec![100.0, 10.0, 80.0, 40.0, 5.0, 72.5],
            6,
            0,
            16.0,
            0.312_500_000_000_000_1,
            true,
        ),
        // wilcox.test(c(12,15,9,20,31,8,14,25), c(10,15,11,16,30,8,10,19), paired = TRUE)
        //   V = 18.5, p = 0.11384629800665808, with continuity correction
        (
            vec![12.0, 15.0, 9.0, 20.0, 31.0, 8.0, 14.0, 25.0],
            vec![10.0, 15.0, 11.0, 16.0, 30.0, 8.0, 10.0, 19.0],
            6,
            2,
            18.5,
            0.113_846_298_006_658_08,
            false,
        ),
    ];
    for (i, (x, y, n, zeros, v, p, exact)) in cases.iter().enumerate() {
        let r = wilcoxon_signed_rank(x, y).unwrap();
        assert_eq!(r.n, *n, "case {i}: n");
        assert_eq!(r.zeros, *zeros, "case {i}: zeros");
        assert_eq!(r.v, *v, "case {i}: V");
        assert_eq!(r.exact, *exact, "case {i}: exact");
        assert_close(r.p_value, *p, 1e-12, &format!("case {i}: p"));
    }
}

#[test]
fn wilcoxon_exact_tails_match_psignrank() {
    // The exact p-value is 2 * P(V <= v) (lower half) or 2 * P(V >= v).
    // R: psignrank(5, 9) = 0.01953125; psignrank(0:3, 10) = 0.0009765625
    //    0.0019531250 0.0029296875 0.0048828125;
    //    psignrank(300, 49) = 0.00075176423512957069
    // n = 10, d = -1..-10 except a few signs flipped so that V = 0..3:
    // V = 0: all negative.
    let neg: Vec<f64> = (1..=10).map(|i| -(i as f64)).collect();
    let zeros = vec![0.0; 10];
    let expected = [
        0.000_976_562_5,
        0.001_953_125,
        0.002_929_687_5,
        0.004_882_812_5,
    ];
    for (v, &cdf) in expected.iter().enumerate() {
        let mut d = neg.clone();
        if v > 0 {
            d[v - 1] = v as f64; // rank v becomes positive: V = v
        }
        let r = wilcoxon_signed_rank(&d, &zeros).unwrap();
        assert_eq!(r.v, v as f64);
        assert!(r.exact);
        assert_close(r.p_value, 2.0 * cdf, 1e-14, &format!("V = {v}"));
    }
    // n = 49, V = 300: ranks 1..=24 (sum 300) positive, the rest negative.
    let d: Vec<f64> = (1..=49)
        .map(|i| if i <= 24 { i as f64 } else { -(i as f64) })
        .collect();
    let r = wilcoxon_signed_rank(&d, &vec![0.0; 49]).unwrap();
    assert_eq!(r.v, 300.0);
    assert!(r.exact);
    assert_close(
        r.p_value,
        2.0 * 0.000_751_764_235_129_570_7,
        1e-12,
        "n = 49",
    );
}

#[test]
fn wilcoxon_signed_rank_errors() {
    assert!(matches!(
        wilcoxon_signed_rank(&[1.0, 2.0], &[1.0]),
        Err(StatsError::LengthMismatch {
            expected: 2,
            got: 1,
            ..
        })
    ));
    assert!(matches!(
        wilcoxon_signed_rank(&[], &[]),
        Err(StatsError::TooFewObservations { n: 0, .. })
    ));
    assert!(matches!(
        wilcoxon_signed_rank(&[1.0, 2.0], &[1.0, 2.0]),
        Err(StatsError::TooFewObservations { n: 0, .. })
    ));
    assert!(matches!(
        wilcoxon_signed_rank(&[1.0, f64::NAN], &[0.0, 0.0]),
        Err(StatsError::InvalidValue { .. })
    ));
    assert!(matches!(
        wilcoxon_signed_rank(&[1.0, 2.0], &[0.0, f64::NAN]),
        Err(StatsError::InvalidValue { .. })
    ));
}

// ------------------------------------------------------------------ Friedman

/// `RoundingTimes` of R's `?friedman.test` (Hollander & Wolfe 1973, p. 140):
/// 22 players (blocks) × 3 methods of rounding first base.
fn rounding_times() -> Vec<Vec<f64>> {
    let flat = [
        5.4, 5.5, 5.55, 5.85, 5.7, 5.75, 5.2, 5.6, 5.5, 5.55, 5.5, 5.4, 5.9, 5.85, 5.7, 5.45, 5.55,
        5.6, 5.4, 5.4, 5.35, 5.45, 5.5, 5.35, 5.25, 5.15, 5.0, 5.85, 5.8, 5.7, 5.25, 5.2, 5.1,
        5.65, 5.55, 5.45, 5.6, 5.35, 5.45, 5.05, 5.0, 4.95, 5.5, 5.5, 5.4, 5.45, 5.55, 5.5, 5.55,
        5.55, 5.35, 5.45, 5.5, 5.55, 5.5, 5.45, 5.25, 5.65, 5.6, 5.4, 5.7, 5.65, 5.55, 6.3, 6.3,
        6.25,
    ];
    flat.chunks(3).map(<[f64]>::to_vec).collect()
}

/// Demšar (2006), Table 6: AUC of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14
/// UCI data sets. The printed AUCs are rounded to three decimals; on
/// "voting" C4.5+cf and C4.5+m+cf both print 0.975, yet the published
/// average ranks (2.893 and 1.964) need C4.5+cf ahead there (ranks 2 and 3,
/// not 2.5 each), so that entry is 0.97501 — the same adjustment as
/// E. S. Flores' public Python port of the example. `tie_voting = true`
/// keeps the printed 0.975.
fn demsar_auc(tie_voting: bool) -> Vec<Vec<f64>> {
    let voting_cf = if tie_voting { 0.975 } else { 0.97501 };
    vec![
        vec![0.763, 0.768, 0.771, 0.798],     // adult (sample)
        vec![0.599, 0.591, 0.59, 0.569],      // breast cancer
        vec![0.954, 0.971, 0.968, 0.967],     // breast cancer wisconsin
        vec![0.628, 0.661, 0.654, 0.657],     // cmc
        vec![0.882, 0.888, 0.886, 0.898],     // ionosphere
        vec![0.936, 0.931, 0.916, 0.931],     // iris
        vec![0.661, 0.668, 0.609, 0.685],     // liver disorders
        vec![0.583, 0.583, 0.563, 0.625],     // lung cancer
        vec![0.775, 0.838, 0.866, 0.875],     // lymphography
        vec![1.0, 1.0, 1.0, 1.0],             // mushroom
        vec![0.94, 0.962, 0.965, 0.962],      // primary tumor
        vec![0.619, 0.666, 0.614, 0.669],     // rheum
        vec![0.972, 0.981, voting_cf, 0.975], // voting
        vec![0.957, 0.978, 0.946, 0.97],      // wine
    ]
}

/// Higher AUC is better: negate so that rank 1 = best.
fn negated(t: &[Vec<f64>]) -> Vec<Vec<f64>> {
    t.iter().map(|r| r.iter().map(|v| -v).collect()).collect()
}

#[test]
fn friedman_matches_r() {
    // R: f <- friedman.test(m); f$statistic; f$p.value
    //    colMeans(t(apply(m, 1, rank)))                      # average ranks
    //    N <- nrow(m); k <- ncol(m); chi <- unname(f$statistic)
    //    FF <- (N-1)*chi/(N*(k-1)-chi); pf(FF, k-1, (k-1)*(N-1), lower.tail = FALSE)
    struct Case {
        name: &'static str,
        blocks: Vec<Vec<f64>>,
        avg_ranks: Vec<f64>,
        chi: f64,
        p: f64,
        chi_uncorrected: f64,
        ff: f64,
        ff_p: f64,
    }
    let cases = vec![
        // ?friedman.test: "Friedman chi-squared = 11.143, df = 2, p-value = 0.003805"
        // 17 digits: chi2 = 11.142857142857142 (= 78/7), p = 0.003805040775511363
        // average ranks 2.4090909090909092 2.1363636363636362 1.4545454545454546
        // uncorrected 10.636363636363647; F_F = 7.1217391304347819, p = 0.0021712983876075193
        Case {
            name: "RoundingTimes",
            blocks: rounding_times(),
            avg_ranks: vec![
                2.409_090_909_090_909,
                2.136_363_636_363_636_2,
                1.454_545_454_545_454_6,
            ],
            chi: 11.142_857_142_857_142,
            p: 0.003_805_040_775_511_363,
            chi_uncorrected: 10.636_363_636_363_647,
            ff: 7.121_739_130_434_782,
            ff_p: 0.002_171_298_387_607_519_3,
        },
        // friedman.test(-auc), Demšar's Table 6 with 0.97501 on voting:
        //   chi2 = 10.228346456692913, p = 0.016721580328441409
        //   average ranks 3.1428571428571428 2 2.8928571428571428 1.9642857142857142
        //   uncorrected 9.2785714285714089; F_F (corrected chi2) = 4.1851301115241633,
        //   p = 0.01162065951531106
        Case {
            name: "Demsar Table 6",
            blocks: negated(&demsar_auc(false)),
            avg_ranks: vec![
                3.142_857_142_857_143,
                2.0,
                2.892_857_142_857_143,
                1.964_285_714_285_714_2,
            ],
            chi: 10.228_346_456_692_913,
            p: 0.016_721_580_328_441_41,
            chi_uncorrected: 9.278_571_428_571_409,
            ff: 4.185_130_111_524_163,
            ff_p: 0.011_620_659_515_311_06,
        },
        // friedman.test(-auc) with the printed 0.975 tie on voting:
        //   chi2 = 10.952380952380953, p = 0.011986176325417815
        //   average ranks 3.1428571428571428 2 2.9285714285714284 1.9285714285714286
        //   uncorrected 9.8571428571428541; F_F = 4.5858895705521476, p = 0.0076288387307257618
        //   (= summary(aov(rank ~ treatment + block)): F = 4.58589, Pr(>F) = 0.0076288)
        Case {
            name: "Demsar Table 6, printed tie",
            blocks: negated(&demsar_auc(true)),
            avg_ranks: vec![
                3.142_857_142_857_143,
                2.0,
                2.928_571_428_571_428_4,
                1.928_571_428_571_428_6,
            ],
            chi: 10.952_380_952_380_953,
            p: 0.011_986_176_325_417_815,
            chi_uncorrected: 9.857_142_857_142_854,
            ff: 4.585_889_570_552_148,
            ff_p: 0.007_628_838_730_725_762,
        },
        // m <- matrix(c(1,2,3, 2,2,1, 3,1,2, 1,1,1, 4,2,2), ncol = 3, byrow = TRUE)
        //   chi2 = 1, p = 0.60653065971263342; average ranks 2.3 1.8 1.9
        //   F_F = 0.44444444444444442, p = 0.65610000000000013
        //   uncorrected by hand: 12 * (1.5² + 1² + 0.5²) / (5*3*4) = 0.7
        Case {
            name: "small, with ties",
            blocks: vec![
                vec![1.0, 2.0, 3.0],
                vec![2.0, 2.0, 1.0],
                vec![3.0, 1.0, 2.0],
                vec![1.0, 1.0, 1.0],
                vec![4.0, 2.0, 2.0],
            ],
            avg_ranks: vec![2.3, 1.8, 1.9],
            chi: 1.0,
            p: 0.606_530_659_712_633_4,
            chi_uncorrected: 0.7,
            ff: 0.444_444_444_444_444_4,
            ff_p: 0.656_100_000_000_000_1,
        },
    ];
    for c in &cases {
        let r = friedman_test(&c.blocks).unwrap();
        assert_eq!(r.n_blocks, c.blocks.len(), "{}: N", c.name);
        assert_eq!(r.k, c.avg_ranks.len(), "{}: k", c.name);
        assert_eq!(r.df, (r.k - 1) as f64, "{}: df", c.name);
        for (j, (&got, &want)) in r.avg_ranks.iter().zip(&c.avg_ranks).enumerate() {
            assert_close(got, want, 1e-15, &format!("{}: rank {j}", c.name));
        }
        assert_close(r.chi_square, c.chi, 1e-13, &format!("{}: chi2", c.name));
        assert_close(r.p_value, c.p, 1e-10, &format!("{}: p", c.name));
        assert_close(
            r.chi_square_uncorrected,
            c.chi_uncorrected,
            1e-13,
            &format!("{}: chi2 uncorrected", c.name),
        );
        let id = r.iman_davenport;
        assert_close(id.f, c.ff, 1e-13, &format!("{}: F_F", c.name));
        assert_close(id.p_value, c.ff_p, 1e-10, &format!("{}: F_F p", c.name));
        assert_eq!(id.df1, (r.k - 1) as f64);
        assert_eq!(id.df2, ((r.k - 1) * (r.n_blocks - 1)) as f64);
    }
}

#[test]
fn friedman_demsar_worked_example() {
    // Demšar (2006), §3.2.4 / Table 6: average ranks 3.143, 2.000, 2.893,
    // 1.964; χ²_F = 9.28; F_F = 3.69; the critical value of F(3, 39) at
    // α = 0.05 is 2.85; Nemenyi CD at α = 0.05: 2.569 · sqrt(4·5/(6·14)) = 1.25.
    // R (uncorrected χ² as in the paper): 9.2785714285714089, p = 0.025807496707063504;
    //   F_F = 3.6863130320890534, p = 0.019823006192249356; qf(0.95, 3, 39) = 2.8450678052793492;
    //   qtukey(0.95, 4, Inf)/sqrt(2) * sqrt(4*5/(6*14)) = 1.2535591494959941
    //   (mpmath, see the studentized-range tests: 1.2535591471176062949)
    let r = friedman_test(&negated(&demsar_auc(false))).unwrap();
    for (got, want) in r.avg_ranks.iter().zip([3.143, 2.0, 2.893, 1.964]) {
        assert_abs(*got, want, 5e-4, "published average rank");
    }
    assert_abs(r.chi_square_uncorrected, 9.28, 5e-3, "published chi2_F");
    let id = iman_davenport(r.chi_square_uncorrected, 14, 4).unwrap();
    assert_abs(id.f, 3.69, 5e-3, "published F_F");
    assert_close(id.f, 3.686_313_032_089_053_4, 1e-12, "F_F (R)");
    assert_close(id.p_value, 0.019_823_006_192_249_356, 1e-10, "F_F p (R)");
    assert!(id.f > 2.85, "Demšar rejects H0 at 0.05");
    let cd = nemenyi_critical_difference(4, 14, 0.05).unwrap();
    assert_abs(cd, 1.25, 5e-3, "published CD");
    assert_close(cd, 1.253_559_149_495_994_1, R_TUKEY_TOL, "CD (R qtukey)");
    assert_close(cd, 1.253_559_147_117_606_3, 1e-12, "CD (mpmath)");
}

#[test]
fn iman_davenport_edges() {
    // Perfect agreement: chi2 = N (k - 1) -> F = inf, p = 0.
    let blocks: Vec<Vec<f64>> = (0..5).map(|_| vec![1.0, 2.0, 3.0]).collect();
    let r = friedman_test(&blocks).unwrap();
    assert_close(r.chi_square, 10.0, 1e-15, "chi2 = N(k-1)");
    assert_eq!(r.iman_davenport.f, f64::INFINITY);
    assert_eq!(r.iman_davenport.p_value, 0.0);
    // chi2 = 0 -> F = 0, p = 1.
    let id = iman_davenport(0.0, 10, 3).unwrap();
    assert_eq!(id.f, 0.0);
    assert_close(id.p_value, 1.0, 1e-15, "p at F = 0");
    assert!(matches!(
        iman_davenport(1.0, 1, 3),
        Err(StatsError::TooFewObservations {
            sample: "blocks",
            ..
        })
    ));
    assert!(matches!(
        iman_davenport(1.0, 5, 1),
        Err(StatsError::TooFewObservations {
            sample: "treatments",
            ..
        })
    ));
    for bad in [f64::NAN, -1.0, f64::INFINITY] {
        assert!(matches!(
            iman_davenport(bad, 5, 3),
            Err(StatsError::InvalidValue { .. })
        ));
    }
}

#[test]
fn friedman_errors() {
    assert!(matches!(
        friedman_test(&[]),
        Err(StatsError::TooFewObservations {
            sample: "blocks",
            ..
        })
    ));
    assert!(matches!(
        friedman_test(&[vec![1.0, 2.0]]),
        Err(StatsError::TooFewObservations {
            sample: "blocks",
            ..
        })
    ));
    assert!(matches!(
        friedman_test(&[vec![1.0], vec![2.0]]),
        Err(StatsError::TooFewObservations {
            sample: "treatments",
            ..
        })
    ));
    assert!(matches!(
        friedman_test(&[vec![1.0, 2.0], vec![2.0, 1.0, 3.0]]),
        Err(StatsError::RaggedBlocks {
            block: 1,
            expected: 2,
            got: 3
        })
    ));
    assert!(matches!(
        friedman_test(&[vec![1.0, 2.0], vec![f64::NAN, 1.0]]),
        Err(StatsError::InvalidValue { .. })
    ));
    assert!(matches!(
        friedman_test(&[vec![1.0, 1.0, 1.0], vec![2.0, 2.0, 2.0]]),
        Err(StatsError::ZeroVariance(_))
    ));
}

#[test]
fn friedman_ranks_infinity_last() {
    // +inf (unsolved) ranks last; two unsolved runs tie.
    let blocks = vec![
        vec![10.0, f64::INFINITY, 30.0],
        vec![f64::INFINITY, f64::INFINITY, 5.0],
    ];
    let r = friedman_test(&blocks).unwrap();
    // Block 1 ranks 1, 3, 2; block 2 ranks 2.5, 2.5, 1.
    assert_eq!(r.avg_ranks, vec![1.75, 2.75, 1.5]);
}

// ------------------------------------------------ studentized range, Nemenyi

/// Reference values of the studentized range with infinite df from two
/// sources: R 4.2.2's `ptukey(q, k, Inf)` / `qtukey(p, k, Inf)`, whose
/// algorithm (Copenhaver & Holland 1988) is accurate to only about 1e-7
/// (e.g. `qtukey(0.99, 10, Inf)` is off by 6e-8 relative, `ptukey(3.5, 50,
/// Inf)` by 2.6e-7 absolute), and a 30-digit
/// evaluation of the defining integral with Python's mpmath 1.3:
///
/// ```text
/// from mpmath import mp, mpf, quad, npdf, ncdf, sqrt, inf, findroot
/// mp.dps = 30
/// cdf = lambda q, k: k * quad(lambda z: npdf(z) * (ncdf(z) - ncdf(z - q))**(k-1),
///                             [-inf, -5, -2, 0, 2, 4, 6, inf])
/// q_alpha = findroot(lambda q: cdf(q, k) - (1 - alpha), start) / sqrt(2)
/// ```
///
/// The implementation must match mpmath closely and R within R's accuracy
/// (absolute for probabilities, relative for quantiles).
const R_TUKEY_TOL: f64 = 5e-7;

#[test]
fn studentized_range_cdf_matches_ptukey_and_mpmath() {
    // (k, q, R ptukey(q, k, Inf), mpmath 30 digits)
    let table: &[(usize, f64, f64, f64)] = &[
        (2, 1.0, 0.520_499_877_813_051_6, 0.520_499_877_813_046_5),
        (2, 2.5, 0.9229001282564584, 0.922_900_128_256_458_3),
        (2, 3.5, 0.986_671_671_219_146_6, 0.986_671_671_219_182_4),
        (2, 5.0, 0.999_593_047_982_554_9, 0.999_593_047_982_555),
        (3, 1.0, 0.24071264122928304, 0.240_712_641_229_338_78),
        (3, 2.5, 0.819_491_062_793_308_2, 0.819_491_062_793_306_4),
        (3, 3.5, 0.964_442_958_136_556_1, 0.964_442_958_136_839_7),
        (3, 5.0, 0.998_816_008_769_013_2, 0.998_816_008_769_013),
        (5, 1.0, 0.045045144807077886, 0.045_045_144_811_355_79),
        (5, 2.5, 0.607_457_236_758_733_9, 0.607_457_236_758_736),
        (5, 3.5, 0.903_661_536_020_717_2, 0.903_661_536_034_573_2),
        (5, 5.0, 0.996_269_726_194_805_6, 0.996_269_726_194_805_6),
        (
            10,
            1.0,
            0.000_519_869_467_083_692_7,
            0.000_519_869_455_464_124_5,
        ),
        (10, 2.5, 0.24430255792427957, 0.244_302_557_921_378_7),
        (10, 3.5, 0.717_983_562_367_197_8, 0.717_983_561_710_863_7),
        (10, 5.0, 0.985_142_562_112_350_4, 0.985_142_562_112_216_3),
        (20, 1.0, 4.961_342_728_215_192e-8, 4.961_337_569_971_281e-8),
        (20, 2.5, 0.030920638709215152, 0.030_920_639_284_019_565),
        (20, 3.5, 0.396_395_001_209_003_3, 0.396_395_054_796_526_3),
        (20, 5.0, 0.9486353365457455, 0.948_635_336_420_866_4),
        (50, 1.0, 0.0, 2.436_690_247_691_148_2e-20),
        (50, 2.5, 3.849_508_913_366_753e-5, 3.849_448_307_058_113e-5),
        (50, 3.5, 0.047_363_544_401_862_31, 0.047_363_283_238_963_036),
        (50, 5.0, 0.789_854_617_649_014_2, 0.789_854_621_282_378_8),
    ];
    for &(k, q, r, mp) in table {
        let got = studentized_range_cdf(q, k).unwrap();
        assert_close(got, mp, 1e-13, &format!("P(Q <= {q}), k = {k} (mpmath)"));
        assert_abs(got, r, R_TUKEY_TOL, &format!("ptukey({q}, {k}, Inf)"));
    }
    // k = 2: the range of two standard normals is sqrt(2) |Z|, so
    // P(Q <= q) = 2 Phi(q / sqrt 2) - 1 = erf(q / 2).
    for q in [0.1, 0.5, 1.0, 2.0, 3.0, 4.5] {
        assert_close(
            studentized_range_cdf(q, 2).unwrap(),
            libm::erf(q / 2.0),
            1e-13,
            "k = 2 closed form",
        );
    }
    assert_eq!(studentized_range_cdf(0.0, 5).unwrap(), 0.0);
    assert_eq!(studentized_range_cdf(-1.0, 5).unwrap(), 0.0);
    assert_eq!(studentized_range_cdf(f64::INFINITY, 5).unwrap(), 1.0);
}

#[test]
fn nemenyi_q_alpha_matches_qtukey_mpmath_and_demsar() {
    // (k, R qtukey(1 - alpha, k, Inf) / sqrt(2), mpmath 30 digits)
    type Row = (usize, f64, f64);
    let q05: &[Row] = &[
        (2, 1.959_963_984_766_210_3, 1.959_963_984_540_054_3),
        (3, 2.343_700_587_902_141_8, 2.343_700_586_378_408_6),
        (4, 2.569_031_777_420_727_6, 2.569_031_772_546_483_5),
        (5, 2.727_774_382_518_554_3, 2.727_774_370_870_376_3),
        (6, 2.849_705_443_271_294, 2.849_705_419_610_001_6),
        (7, 2.948_320_060_722_175_6, 2.948_320_017_529_675),
        (8, 3.030_878_522_595_204, 3.030_878_449_614_414_5),
        (9, 3.101_730_457_508_564_7, 3.101_730_341_303_38),
        (10, 3.163_683_753_502_79, 3.163_683_577_053_372),
        (11, 3.218_653_607_216_817, 3.218_653_607_329_151),
        (12, 3.268_003_924_327_542_3, 3.268_003_924_466_141),
        (13, 3.312_738_593_191_081, 3.312_738_593_350_818_7),
        (14, 3.353_617_751_681_299_7, 3.353_617_751_852_304_3),
        (15, 3.391_230_283_598_831, 3.391_230_283_765_255),
        (16, 3.426_041_379_231_897, 3.426_041_379_370_608),
        (17, 3.458_424_707_268_246, 3.458_424_707_347_323_3),
        (18, 3.488_684_799_401_940_3, 3.488_684_799_379_197),
        (19, 3.517_073_008_870_394_5, 3.517_073_008_691_811),
        (20, 3.543_799_131_919_646_2, 3.543_799_131_517_780_6),
    ];
    let q10: &[Row] = &[
        (2, 1.644_853_626_982_051_3, 1.644_853_626_951_472_6),
        (3, 2.052_292_730_549_199_4, 2.052_292_730_496_776),
        (4, 2.291_341_496_996_303_7, 2.291_341_496_888_057),
        (5, 2.459_515_764_429_517, 2.459_515_764_271_418),
        (6, 2.588_520_602_141_443_7, 2.588_520_601_922_348),
        (7, 2.692_732_101_259_68, 2.692_732_100_967_759_4),
        (8, 2.779_883_608_529_911_7, 2.779_883_608_152_977_6),
        (9, 2.854_606_431_672_605, 2.854_606_431_198_025_3),
        (10, 2.919_888_840_647_095, 2.919_888_840_061_538_4),
        (11, 2.977_768_251_975_741_4, 2.977_768_251_264_873),
        (12, 3.029_694_184_030_417_7, 3.029_694_183_178_584),
        (13, 3.076_733_469_279_236_3, 3.076_733_468_269_144_7),
        (14, 3.119_693_334_324_866_3, 3.119_693_333_137_295),
        (15, 3.159_198_820_295_362_7, 3.159_198_818_908_836_7),
        (16, 3.195_743_434_629_098_7, 3.195_743_433_019_598),
        (17, 3.229_723_402_767_545, 3.229_723_400_908_193_7),
        (18, 3.261_461_491_786_515, 3.261_461_489_647_276),
        (19, 3.291_223_989_052_445_3, 3.291_223_986_599_797),
        (20, 3.319_233_062_351_796_3, 3.319_233_059_548_414_3),
    ];
    let q01: &[Row] = &[
        (2, 2.575_829_304_226_651_6, 2.575_829_303_548_901),
        (3, 2.913_494_392_146_643_6, 2.913_494_337_832_624),
        (4, 3.113_250_345_412_563_3, 3.113_250_345_344_344),
        (5, 3.254_685_972_214_484_7, 3.254_685_971_528_865_6),
        (6, 3.363_740_372_186_189, 3.363_740_368_481_367_6),
        (7, 3.452_212_837_197_751_4, 3.452_212_823_361_088_5),
        (8, 3.526_470_738_749_826_4, 3.526_470_698_470_755_2),
        (9, 3.590_338_796_482_569, 3.590_338_698_614_762),
        (10, 3.646_291_755_599_256_7, 3.646_291_548_382_993_4),
        (11, 3.696_020_899_825_935, 3.696_020_899_877_946_2),
        (12, 3.740_733_167_671_019, 3.740_733_167_808_626),
        (13, 3.781_318_240_784_437_5, 3.781_318_241_096_783_6),
        (14, 3.818_450_855_675_409, 3.818_450_856_306_56),
        (15, 3.852_654_475_385_951, 3.852_654_476_547_013),
        (16, 3.884_343_152_574_875, 3.884_343_154_549_110_7),
        (17, 3.913_849_883_976_565_6, 3.913_849_887_114_714),
        (18, 3.941_446_362_777_803_4, 3.941_446_367_480_922_6),
        (19, 3.967_357_076_605_973, 3.967_357_083_296_888_7),
        (20, 3.991_769_585_114_273, 3.991_769_594_199_767_3),
    ];
    for (alpha, table) in [(0.05, q05), (0.1, q10), (0.01, q01)] {
        for &(k, r, mp) in table {
            let got = nemenyi_q_alpha(k, alpha).unwrap();
            assert_close(got, mp, 1e-13, &format!("q_{alpha}, k = {k} (mpmath)"));
            assert_close(got, r, R_TUKEY_TOL, &format!("q_{alpha}, k = {k} (R)"));
        }
    }
    // Demšar (2006) Table 5(a), k = 2..10, as printed. Three entries differ
    // from the correctly rounded quantile in the last digit (k = 3 and 7 at
    // 0.05: 2.3437, 2.9483; k = 5 at 0.10: 2.4595), hence the 8e-4 tolerance.
    let demsar05 = [1.96, 2.343, 2.569, 2.728, 2.85, 2.949, 3.031, 3.102, 3.164];
    let demsar10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.78, 2.855, 2.92];
    for (alpha, table) in [(0.05, demsar05), (0.1, demsar10)] {
        for (i, want) in table.into_iter().enumerate() {
            let got = nemenyi_q_alpha(i + 2, alpha).unwrap();
            assert_abs(got, want, 8e-4, &format!("Demšar q_{alpha}, k = {}", i + 2));
        }
    }
    // k = 2 closed form: qtukey(1 - a, 2, Inf) / sqrt(2) = z_{1 - a/2};
    // R: qnorm(0.975) = 1.959963984540054.
    assert_close(
        nemenyi_q_alpha(2, 0.05).unwrap(),
        1.959_963_984_540_054,
        1e-13,
        "z_0.975",
    );
}

#[test]
fn nemenyi_cd_and_errors() {
    // CD = q_a sqrt(k(k+1)/(6N)); k = 5, N = 30, alpha = 0.05:
    // mpmath: 2.7277743708703764646 * sqrt(30/180) = 1.113609223678970651
    let cd = nemenyi_critical_difference(5, 30, 0.05).unwrap();
    assert_close(cd, 1.113_609_223_678_970_7, 1e-12, "CD k=5 N=30");
    assert!(matches!(
        nemenyi_critical_difference(1, 10, 0.05),
        Err(StatsError::TooFewObservations { .. })
    ));
    assert!(matches!(
        nemenyi_critical_difference(3, 0, 0.05),
        Err(StatsError::TooFewObservations { .. })
    ));
    for bad in [0.0, 1.0, -0.1, f64::NAN] {
        assert!(matches!(
            nemenyi_critical_difference(3, 10, bad),
            Err(StatsError::InvalidValue { .. })
        ));
    }
    assert!(studentized_range_quantile(0.0, 3).is_err());
    assert!(studentized_range_quantile(1.0, 3).is_err());
    assert!(studentized_range_quantile(0.5, 1).is_err());
    assert!(studentized_range_cdf(f64::NAN, 3).is_err());
    assert!(studentized_range_cdf(1.0, 0).is_err());
}

// ------------------------------------------------ Wilcoxon–Holm post hoc

#[test]
fn pairwise_wilcoxon_holm_matches_r() {
    // R (auc = Demšar's Table 6 with the printed 0.975 tie, higher = better):
    //   for (a in 1:3) for (b in (a+1):4) wilcox.test(auc[,a], auc[,b], paired = TRUE)
    //   p.adjust(ps, "holm")
    // All six use the normal approximation (zeros and ties).
    //   (0,1) V = 6.5   p = 0.012030358470209069   holm 0.072182150821254412
    //   (0,2) V = 43    p = 0.88880695443724689    holm 0.888806954437246888
    //   (0,3) V = 11    p = 0.01746175812790228    holm 0.087308790639511399
    //   (1,2) V = 73    p = 0.058862241108627866   holm 0.176586723325883599
    //   (1,3) V = 22    p = 0.35029075975557744    holm 0.700581519511154882
    //   (2,3) V = 10.5  p = 0.027995744078059871   holm 0.111982976312239482
    let want: &[(usize, usize, f64, f64, f64)] = &[
        (
            0,
            1,
            6.5,
            0.012_030_358_470_209_07,
            0.072_182_150_821_254_41,
        ),
        (0, 2, 43.0, 0.888_806_954_437_246_9, 0.888_806_954_437_246_9),
        (
            0,
            3,
            11.0,
            0.017_461_758_127_902_28,
            0.087_308_790_639_511_4,
        ),
        (
            1,
            2,
            73.0,
            0.058_862_241_108_627_866,
            0.176_586_723_325_883_6,
        ),
        (
            1,
            3,
            22.0,
            0.350_290_759_755_577_44,
            0.700_581_519_511_154_9,
        ),
        (
            2,
            3,
            10.5,
            0.027_995_744_078_059_87,
            0.111_982_976_312_239_48,
        ),
    ];
    let pairs = pairwise_wilcoxon_holm(&demsar_auc(true)).unwrap();
    assert_eq!(pairs.len(), want.len());
    for (got, &(i, j, v, p, holm)) in pairs.iter().zip(want) {
        assert_eq!((got.i, got.j), (i, j));
        assert_eq!(got.v, v, "({i},{j}) V");
        assert!(!got.exact, "({i},{j}) exact");
        assert_close(got.p_value, p, 1e-12, &format!("({i},{j}) p"));
        assert_close(got.p_holm, holm, 1e-12, &format!("({i},{j}) holm"));
    }
    // At alpha = 0.05 nothing survives Holm; at 0.10 (0,1) and (0,3) do.
    let m = holm_not_different(4, &pairs, 0.05).unwrap();
    assert!(m.iter().flatten().all(|&b| b));
    let m = holm_not_different(4, &pairs, 0.1).unwrap();
    assert!(!m[0][1] && !m[1][0] && !m[0][3] && !m[3][0]);
    assert!(m[0][2] && m[1][2] && m[1][3] && m[2][3] && m[0][0]);
}

#[test]
fn pairwise_identical_columns_and_errors() {
    // Columns 0 and 1 identical: p = 1 by convention, still counted by Holm.
    let blocks = vec![
        vec![1.0, 1.0, 5.0],
        vec![2.0, 2.0, 7.0],
        vec![3.0, 3.0, 4.0],
    ];
    let pairs = pairwise_wilcoxon_holm(&blocks).unwrap();
    assert_eq!((pairs[0].n, pairs[0].v, pairs[0].p_value), (0, 0.0, 1.0));
    assert!(pairs[0].exact);
    // (0,2) and (1,2): d = -4, -5, -1: V = 0, exact p = 2 * 1/8 = 0.25;
    // Holm over (1, 0.25, 0.25): 0.75, 0.75, 1.
    assert_close(pairs[1].p_value, 0.25, 1e-15, "(0,2) p");
    assert_close(pairs[1].p_holm, 0.75, 1e-15, "(0,2) holm");
    assert_close(pairs[2].p_holm, 0.75, 1e-15, "(1,2) holm");
    assert_eq!(pairs[0].p_holm, 1.0);
    assert!(matches!(
        pairwise_wilcoxon_holm(&[]),
        Err(StatsError::TooFewObservations { .. })
    ));
    assert!(matches!(
        pairwise_wilcoxon_holm(&[vec![1.0]]),
        Err(StatsError::TooFewObservations { .. })
    ));
    assert!(matches!(
        pairwise_wilcoxon_holm(&[vec![1.0, 2.0], vec![1.0]]),
        Err(StatsError::RaggedBlocks { .. })
    ));
    assert!(matches!(
        pairwise_wilcoxon_holm(&[vec![1.0, f64::NAN]]),
        Err(StatsError::InvalidValue { .. })
    ));
    assert!(holm_not_different(1, &pairs, 0.05).is_err());
    assert!(holm_not_different(3, &pairs, 1.5).is_err());
    assert!(holm_not_different(2, &pairs, 0.05).is_err(), "index 2 >= k");
}

// ------------------------------------------------------------- CD cliques

#[test]
fn cd_cliques_table() {
    type Case = (&'static [f64], f64, &'static [&'static [usize]]);
    let cases: &[Case] = &[
        // Demšar's example with CD = 1.25: "even the difference between the
        // best and the worst performing algorithm is already smaller than
        // that" (3.143 - 1.964 = 1.179), so one bar over all four.
        (&[3.143, 2.0, 2.893, 1.964], 1.25, &[&[3, 1, 2, 0]]),
        // Ranks 1, 1.5, 2.4, 3.0, 4.1 with CD = 1.0:
        // from 1: {1, 1.5}; from 1.5: {1.5, 2.4}; from 2.4: {2.4, 3.0};
        // from 3.0: {3.0} alone (4.1 - 3.0 = 1.1) -> no bar; 4.1 alone.
        (
            &[1.0, 1.5, 2.4, 3.0, 4.1],
            1.0,
            &[&[0, 1], &[1, 2], &[2, 3]],
        ),
        // Unsorted input, a difference exactly equal to CD is significant.
        (&[3.0, 1.0, 2.0], 1.0, &[]),
        (&[3.0, 1.0, 2.0], 1.0000001, &[&[1, 2], &[2, 0]]),
        // Everything within CD: one group in rank order.
        (&[2.0, 2.5, 1.5], 10.0, &[&[2, 0, 1]]),
        // CD = 0: even equal ranks are not joined (difference 0 < 0 is false).
        (&[2.0, 2.0], 0.0, &[]),
        // Ties in rank ordered by index.
        (&[2.0, 2.0, 5.0], 0.5, &[&[0, 1]]),
    ];
    for (i, &(ranks, cd, want)) in cases.iter().enumerate() {
        let got = cd_cliques(ranks, cd).unwrap();
        let want: Vec<Vec<usize>> = want.iter().map(|g| g.to_vec()).collect();
        assert_eq!(got, want, "case {i}");
    }
    assert!(matches!(
        cd_cliques(&[1.0], 1.0),
        Err(StatsError::TooFewObservations { .. })
    ));
    assert!(cd_cliques(&[1.0, f64::NAN], 1.0).is_err());
    assert!(cd_cliques(&[1.0, f64::INFINITY], 1.0).is_err());
    assert!(cd_cliques(&[1.0, 2.0], -1.0).is_err());
    assert!(cd_cliques(&[1.0, 2.0], f64::NAN).is_err());
}

#[test]
fn cd_cliques_from_matrix_table() {
    fn matrix(k: usize, different: &[(usize, usize)]) -> Vec<Vec<bool>> {
        let mut m = vec![vec![true; k]; k];
        for &(i, j) in different {
            m[i][j] = false;
            m[j][i] = false;
        }
        m
    }
    type Case = (
        &'static [f64],
        usize,
        &'static [(usize, usize)],
        &'static [&'static [usize]],
    );
    let cases: &[Case] = &[
        // Nothing different: one group.
        (&[1.0, 2.0, 3.0, 4.0], 4, &[], &[&[0, 1, 2, 3]]),
        // Everything different: no bar.
        (&[1.0, 2.0, 3.0], 3, &[(0, 1), (0, 2), (1, 2)], &[]),
        // Chain: 0~1, 1~2, 0 differs from 2 -> {0,1}, {1,2}.
        (&[1.0, 2.0, 3.0], 3, &[(0, 2)], &[&[0, 1], &[1, 2]]),
        // Rank order is 2, 0, 3, 1; only (2, 1) differ: {2,0,3}, {0,3,1}.
        (
            &[2.0, 4.0, 1.0, 3.0],
            4,
            &[(2, 1)],
            &[&[2, 0, 3], &[0, 3, 1]],
        ),
        // A non-consecutive clique {0, 2} (1 in between differs from 0) is not
        // a run: groups {1, 2} only.
        (&[1.0, 2.0, 3.0], 3, &[(0, 1)], &[&[1, 2]]),
        // Demšar Table 6 Wilcoxon-Holm at alpha = 0.10 (see above): rank order
        // 3 (1.929), 1 (2.0), 2 (2.929), 0 (3.143); different: (0,1), (0,3).
        (
            &[3.143, 2.0, 2.929, 1.929],
            4,
            &[(0, 1), (0, 3)],
            &[&[3, 1, 2], &[2, 0]],
        ),
    ];
    for (i, &(ranks, k, diff, want)) in cases.iter().enumerate() {
        let got = cd_cliques_from_matrix(ranks, &matrix(k, diff)).unwrap();
        let want: Vec<Vec<usize>> = want.iter().map(|g| g.to_vec()).collect();
        assert_eq!(got, want, "case {i}");
    }
    let ranks = [1.0, 2.0, 3.0];
    assert!(matches!(
        cd_cliques_from_matrix(&ranks, &matrix(2, &[])),
        Err(StatsError::LengthMismatch { .. })
    ));
    let mut ragged = matrix(3, &[]);
    ragged[1].pop();
    assert!(matches!(
        cd_cliques_from_matrix(&ranks, &ragged),
        Err(StatsError::LengthMismatch { .. })
    ));
    let mut asym = matrix(3, &[]);
    asym[0][2] = false;
    assert!(matches!(
        cd_cliques_from_matrix(&ranks, &asym),
        Err(StatsError::AsymmetricMatrix { i: 0, j: 2 })
    ));
    assert!(cd_cliques_from_matrix(&[1.0], &matrix(1, &[])).is_err());
}

// --------------------------------------------------------------------- ECDF

#[test]
fn ecdf_table() {
    type Case = (&'static [f64], &'static [f64], &'static [f64]);
    let cases: &[Case] = &[
        // No unsolved runs: R's ecdf(c(3, 1, 2, 2))(c(0, 1, 1.5, 2, 3, 10))
        //   = 0 0.25 0.25 0.75 1 1
        (
            &[3.0, 1.0, 2.0, 2.0],
            &[0.0, 1.0, 1.5, 2.0, 3.0, 10.0],
            &[0.0, 0.25, 0.25, 0.75, 1.0, 1.0],
        ),
        // Two of five runs unsolved: the curve stops at 3/5, even at +inf.
        (
            &[10.0, INF, 30.0, INF, 20.0],
            &[5.0, 10.0, 25.0, 30.0, 1e300, INF],
            &[0.0, 0.2, 0.4, 0.6, 0.6, 0.6],
        ),
        // All unsolved.
        (&[INF, INF], &[0.0, INF], &[0.0, 0.0]),
        // -inf as a point, no points.
        (&[1.0], &[f64::NEG_INFINITY], &[0.0]),
        (&[1.0], &[], &[]),
    ];
    for (i, &(samples, points, want)) in cases.iter().enumerate() {
        assert_eq!(ecdf(samples, points).unwrap(), want.to_vec(), "case {i}");
    }
    assert!(matches!(
        ecdf(&[], &[1.0]),
        Err(StatsError::TooFewObservations { .. })
    ));
    assert!(ecdf(&[f64::NAN], &[1.0]).is_err());
    assert!(ecdf(&[f64::NEG_INFINITY], &[1.0]).is_err());
    assert!(ecdf(&[1.0], &[f64::NAN]).is_err());
}

use super::*;
use std::collections::HashMap;

/// Every non-decreasing sequence of `n` whole numbers from 0 to `top`.
fn samples(n: usize, top: i64) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    let mut cur = vec![0i64; n];
    fn rec(i: usize, from: i64, top: i64, cur: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        if i == cur.len() {
            out.push(cur.clone());
            return;
        }
        for v in from..=top {
            cur[i] = v;
            rec(i + 1, v, top, cur, out);
        }
    }
    rec(0, 0, top, &mut cur, &mut out);
    out
}

/// Twice the median of a sorted sequence (a whole number for any count).
fn median2(x: &[i64]) -> i64 {
    let n = x.len();
    if n % 2 == 1 {
        2 * x[n / 2]
    } else {
        x[n / 2 - 1] + x[n / 2]
    }
}

/// The sorted values of a sample of (count, value) pairs.
fn expand(s: &Sample) -> Vec<f64> {
    let mut v: Vec<f64> = s
        .iter()
        .flat_map(|&(k, x)| std::iter::repeat_n(x, k as usize))
        .collect();
    v.sort_by(f64::total_cmp);
    v
}

fn sd_of(x: &[f64], kind: SdKind) -> f64 {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let ss: f64 = x.iter().map(|v| (v - mean) * (v - mean)).sum();
    let df = if kind == SdKind::Sample { n - 1.0 } else { n };
    (ss / df).sqrt()
}

/// The sum bounds given n, minimum, median and maximum are exactly those of every whole-number
/// sample of up to 7 values from 0 to 6, and exist for exactly the combinations some sample has;
/// the extreme samples named have the three values and the sum.
#[test]
fn mean_bounds_match_every_small_integer_sample() {
    for n in 1..=7usize {
        let mut seen: HashMap<(i64, i64, i64), (i64, i64)> = HashMap::new();
        for x in samples(n, 6) {
            let key = (x[0], median2(&x), x[n - 1]);
            let s: i64 = x.iter().sum();
            let e = seen.entry(key).or_insert((s, s));
            e.0 = e.0.min(s);
            e.1 = e.1.max(s);
        }
        for lo in 0..=6i64 {
            for hi in lo..=6 {
                for m2 in 2 * lo..=2 * hi {
                    let med = m2 as f64 / 2.0;
                    let got = extreme_samples(n as u64, lo as f64, med, hi as f64, Scale::Integer);
                    let want = seen.get(&(lo, m2, hi));
                    let what = format!("n {n}, {lo} {med} {hi}");
                    match (got, want) {
                        (None, None) => {}
                        (Some((a, b)), Some(&(smin, smax))) => {
                            assert_eq!(sample_sum(&a), smin as f64, "{what}: {a:?}");
                            assert_eq!(sample_sum(&b), smax as f64, "{what}: {b:?}");
                            for s in [a, b] {
                                let v = expand(&s);
                                assert_eq!(v.len(), n, "{what}: {s:?}");
                                assert_eq!((v[0], v[n - 1]), (lo as f64, hi as f64), "{what}");
                                let m = if n % 2 == 1 {
                                    v[n / 2]
                                } else {
                                    (v[n / 2 - 1] + v[n / 2]) / 2.0
                                };
                                assert_eq!(m, med, "{what}: {s:?}");
                                assert!(v.iter().all(|x| x.fract() == 0.0), "{what}");
                            }
                        }
                        (g, w) => panic!("{what}: bounds {g:?}, samples {w:?}"),
                    }
                }
            }
        }
    }
}

/// The SD bounds given n, minimum, maximum and the sum are exactly those of every whole-number
/// sample of 2 to 7 values from 0 to 6, for both kinds of SD; over a range of sums they are the
/// extremes over its sums; the reals' bounds enclose the whole numbers'.
#[test]
fn sd_bounds_match_every_small_integer_sample() {
    for n in 2..=7usize {
        let mut seen: HashMap<(i64, i64, i64), (f64, f64)> = HashMap::new();
        for x in samples(n, 6) {
            let s: i64 = x.iter().sum();
            let ss: f64 = x.iter().map(|v| (v * v) as f64).sum();
            let e = seen
                .entry((x[0], x[n - 1], s))
                .or_insert((f64::INFINITY, 0.0));
            e.0 = e.0.min(ss);
            e.1 = e.1.max(ss);
        }
        for kind in [SdKind::Sample, SdKind::Population] {
            for (&(lo, hi, s), &(ss_min, ss_max)) in &seen {
                let (sum, nn) = (s as f64, n as u64);
                let want = (
                    variance(nn, sum, ss_min, kind).sqrt(),
                    variance(nn, sum, ss_max, kind).sqrt(),
                );
                let what = format!("n {n}, {lo}..{hi}, sum {s}, {kind:?}");
                let ((a, a_s), (b, b_s)) =
                    sd_bounds(nn, lo as f64, hi as f64, (sum, sum), kind, Scale::Integer)
                        .unwrap_or_else(|| panic!("{what}: none"));
                assert!((a - want.0).abs() < 1e-9, "{what}: {a} {want:?} {a_s:?}");
                assert!((b - want.1).abs() < 1e-9, "{what}: {b} {want:?} {b_s:?}");
                for (v, smp) in [(a, a_s), (b, b_s)] {
                    let x = expand(&smp);
                    assert_eq!(x.len(), n, "{what}");
                    assert_eq!((x[0], x[n - 1]), (lo as f64, hi as f64), "{what}");
                    assert_eq!(x.iter().sum::<f64>(), sum, "{what}");
                    assert!((sd_of(&x, kind) - v).abs() < 1e-9, "{what}: {smp:?}");
                }
                let real =
                    sd_bounds(nn, lo as f64, hi as f64, (sum, sum), kind, Scale::Real).unwrap();
                assert!(real.0 .0 <= a + 1e-9 && real.1 .0 >= b - 1e-9, "{what}");
                // A range of sums: the extremes over the sums in it.
                let (s1, s2) = (sum - 1.5, sum + 2.5);
                let mut range = (f64::INFINITY, 0.0f64);
                for (&(l2, h2, t), &(m1, m2)) in &seen {
                    if (l2, h2) == (lo, hi) && (t as f64) >= s1 && (t as f64) <= s2 {
                        range.0 = range.0.min(variance(nn, t as f64, m1, kind).sqrt());
                        range.1 = range.1.max(variance(nn, t as f64, m2, kind).sqrt());
                    }
                }
                let got =
                    sd_bounds(nn, lo as f64, hi as f64, (s1, s2), kind, Scale::Integer).unwrap();
                assert!(
                    (got.0 .0 - range.0).abs() < 1e-9,
                    "{what}: {got:?} {range:?}"
                );
                assert!(
                    (got.1 .0 - range.1).abs() < 1e-9,
                    "{what}: {got:?} {range:?}"
                );
            }
        }
        // A sum no sample has: none.
        let nn = n as u64;
        assert!(sd_bounds(
            nn,
            1.0,
            4.0,
            (0.0, nn as f64 - 0.5),
            SdKind::Sample,
            Scale::Integer
        )
        .is_none());
    }
}

/// GRIM finds every mean of whole numbers, printed with 0 to 3 decimals, possible; and
/// refuses the classic impossible means.
#[test]
fn grim_accepts_every_real_mean_and_refuses_others() {
    for n in 1..=40u64 {
        for k in 0..=(n * 12) {
            for d in 0..=3u32 {
                let shown = format!("{:.*}", d as usize, k as f64 / n as f64);
                let p = Printed::parse(&shown, false).unwrap();
                let c = check_grim(n, p).unwrap();
                assert_eq!(
                    c.verdict,
                    Verdict::Ok,
                    "{k}/{n} as {shown}: {}",
                    c.arithmetic
                );
            }
        }
    }
    type Case = (u64, &'static str, Verdict);
    let cases: &[Case] = &[
        // Brown and Heathers's example: 28 values cannot have mean 5.19 (5.18 or 5.21).
        (28, "5.19", Verdict::Impossible),
        (28, "5.18", Verdict::Ok),
        // Das et al.'s Table 1, Ret-GA: Super Difficult (9 successes) and Difficult (16).
        (9, "42354.86", Verdict::Impossible),
        (16, "40466.13", Verdict::Ok),
        (94, "25932.87", Verdict::Ok),
        // 1/100 is as fine as the printed digits: every mean is possible.
        (100, "159.24", Verdict::Ok),
    ];
    for &(n, text, want) in cases {
        let c = check_grim(n, Printed::parse(text, false).unwrap()).unwrap();
        assert_eq!(c.verdict, want, "{n} {text}: {}", c.arithmetic);
    }
    assert!(check_grim(0, Printed::new(1.0, 0)).is_err());
}

/// GRIMMER finds the mean and SD (both kinds, 2 decimals) of every whole-number sample of 2 to
/// 6 values from 0 to 5 possible, and refuses an SD no sum of squares gives.
#[test]
fn grimmer_accepts_every_real_sample_and_refuses_others() {
    for n in 2..=6usize {
        for x in samples(n, 5) {
            let v: Vec<f64> = x.iter().map(|&a| a as f64).collect();
            let mean = v.iter().sum::<f64>() / n as f64;
            for kind in [SdKind::Sample, SdKind::Population] {
                let m = Printed::parse(&format!("{mean:.2}"), false).unwrap();
                let s = Printed::parse(&format!("{:.2}", sd_of(&v, kind)), false).unwrap();
                let c = check_grimmer(n as u64, m, s).unwrap();
                assert_eq!(c.verdict, Verdict::Ok, "{x:?} {kind:?}: {}", c.arithmetic);
            }
        }
    }
    // Two whole numbers with mean 1.5 are (0, 3) or (1, 2), ...: sum 3, sum of squares odd;
    // SD 1.00 needs a sum of squares of 5.5 (sample) or 6.5 (population).
    let c = check_grimmer(2, Printed::new(1.5, 2), Printed::new(1.0, 2)).unwrap();
    assert_eq!(c.verdict, Verdict::Impossible, "{}", c.arithmetic);
    // Benbassat's 20 runs: 25.9 (3.19) and 17.1 (2.05) are possible.
    for (m, s) in [("25.9", "3.19"), ("17.1", "2.05")] {
        let (m, s) = (
            Printed::parse(m, false).unwrap(),
            Printed::parse(s, false).unwrap(),
        );
        assert_eq!(check_grimmer(20, m, s).unwrap().verdict, Verdict::Ok);
    }
}

/// The rows the checks were written for: Das et al.'s Table 1 as printed (the conference
/// version; successes, minimum, median, maximum, mean of generations).
#[test]
fn das_table1_means() {
    type Case = (u64, f64, &'static str, f64, &'static str, Verdict, f64, f64);
    let p = |t: &str| Printed::parse(t, true).unwrap();
    let cases: &[Case] = &[
        // Ret-GA Difficult: at most (3699 + 7 x 33760 + 33761 + 7 x 45676) / 16 = 37094.5
        // (the median 33760 may be 33760.5: the middle values 33760 and 33761), at least
        // (7 x 3699 + 33759 + 7 x 33760 + 45676) / 16 = 21353 (median 33759.5).
        (
            16,
            3699.0,
            "33760",
            45676.0,
            "40466.13",
            Verdict::Impossible,
            21353.0,
            37094.5,
        ),
        // Ret-GA Super Difficult: from (4 x 21424 + 4 x 36318 + 49832) / 9 = 31200 to (21424 +
        // 4 x 36318 + 4 x 49832) / 9 = 40669.33.
        (
            9,
            21424.0,
            "36318",
            49832.0,
            "42354.86",
            Verdict::Impossible,
            31200.0,
            40669.3333,
        ),
        // GA Difficult: 4 values, the sum is min + max + 2 x median: 29534.25 (median exact)
        // from 29534 to 29534.5 (median 26161.5 to 26162.5); printed 20534.3 (padded .30).
        (
            4,
            18999.0,
            "26162",
            46814.0,
            "20534.30",
            Verdict::Impossible,
            29534.0,
            29534.5,
        ),
        // Ret-GA 1 Star: possible.
        (100, 39.0, "98", 1100.0, "159.24", Verdict::Ok, 0.0, 0.0),
    ];
    for &(n, min, med, max, mean, want, lo, hi) in cases {
        let c = check_mean(n, min, Some(p(med)), max, p(mean), Scale::Integer).unwrap();
        assert_eq!(c.verdict, want, "{n} {mean}: {}", c.arithmetic);
        if want == Verdict::Impossible {
            assert!((c.bound.0 - lo).abs() < 1e-3, "{c:?}");
            assert!((c.bound.1 - hi).abs() < 1e-3, "{c:?}");
        }
    }
    // Without the median only the extremes bound the mean.
    let c = check_mean(16, 3699.0, None, 45676.0, p("40466.13"), Scale::Integer).unwrap();
    assert_eq!(c.verdict, Verdict::Ok);
    // No sample of 2 values from 1 to 5 has median 4.
    let c = check_mean(2, 1.0, Some(p("4")), 5.0, p("3"), Scale::Integer).unwrap();
    assert_eq!(c.verdict, Verdict::Impossible, "{}", c.arithmetic);
    assert!(check_mean(0, 1.0, None, 2.0, p("1"), Scale::Real).is_err());
    assert!(check_mean(3, f64::NAN, None, 2.0, p("1"), Scale::Real).is_err());
}

/// SDs: Das et al.'s journal Table 4, problem 1 (32 successes from 6547 to 48758, mean
/// 28274.34, SD 26643.57): at most 21 097.15 even as a sample SD (15 at the minimum, one at
/// 26446, 16 at the maximum); Popoviciu's coarser bound, half the range times sqrt(n / (n - 1)),
/// is 21 434; Table 1's rows are
/// possible.
#[test]
fn sd_checks() {
    let p = |t: &str| Printed::parse(t, true).unwrap();
    type Case = (u64, f64, f64, &'static str, &'static str, Verdict);
    let cases: &[Case] = &[
        (
            32,
            6547.0,
            48758.0,
            "28274.34",
            "26643.57",
            Verdict::Impossible,
        ),
        (16, 3699.0, 45676.0, "40466.13", "11940.66", Verdict::Ok),
        (100, 39.0, 1100.0, "159.24", "159.95", Verdict::Ok),
        // 10 values from 0 to 10 with mean 5: the SD is at least sqrt(50 / 9) = 2.357 (sample,
        // 8 values at 5) or sqrt(50 / 10) = 2.236 (population); at most sqrt(250 / 9) = 5.27.
        (10, 0.0, 10.0, "5", "2.21", Verdict::Impossible),
        (10, 0.0, 10.0, "5", "2.24", Verdict::Ok),
        (10, 0.0, 10.0, "5", "5.27", Verdict::Ok),
        (10, 0.0, 10.0, "5", "5.28", Verdict::Impossible),
        // One value: only a population SD of 0.
        (1, 3.0, 3.0, "3", "0", Verdict::Ok),
        (1, 3.0, 3.0, "3", "1", Verdict::Impossible),
        // The mean is impossible (above the maximum): every mean the extremes allow is tried.
        (3, 0.0, 2.0, "5", "1", Verdict::Ok),
    ];
    for &(n, min, max, mean, sd, want) in cases {
        let c = check_sd(n, min, max, p(mean), p(sd), Scale::Integer).unwrap();
        assert_eq!(c.verdict, want, "{n} {mean} {sd}: {}", c.arithmetic);
    }
    let c = check_sd(
        32,
        6547.0,
        48758.0,
        p("28274.34"),
        p("26643.57"),
        Scale::Integer,
    )
    .unwrap();
    assert!((c.bound.1 - 21097.154).abs() < 1e-3, "{c:?}");
    assert!(c.arithmetic.contains("above both"), "{}", c.arithmetic);
}

#[test]
fn printed_values_and_their_intervals() {
    type Case = (&'static str, bool, Option<(f64, u32)>);
    let cases: &[Case] = &[
        ("40466.13", false, Some((40466.13, 2))),
        ("20534.30", false, Some((20534.3, 2))),
        ("20534.30", true, Some((20534.3, 1))),
        ("23288.00", true, Some((23288.0, 0))),
        ("917", true, Some((917.0, 0))),
        (" -3.5 ", false, Some((-3.5, 1))),
        ("1e5", false, None),
        (".5", false, None),
        ("", false, None),
        ("NaN", false, None),
        ("1.2.3", false, None),
    ];
    for &(text, padded, want) in cases {
        let got = Printed::parse(text, padded).map(|p| (p.value, p.decimals));
        assert_eq!(got, want, "{text:?}");
    }
    let (lo, hi) = Printed::new(2.225, 3).interval();
    assert!((lo - 2.2245).abs() < 1e-12 && (hi - 2.2255).abs() < 1e-12);
}

#[test]
fn order_counts_and_ets() {
    let p = |t: &str| Printed::parse(t, false).unwrap();
    let exact = Printed::exact;
    let c = check_order(&[
        ("minimum", exact(3.0)),
        ("median", p("2")),
        ("maximum", exact(9.0)),
    ]);
    assert_eq!(c.verdict, Verdict::Impossible);
    assert!(
        c.arithmetic.contains("minimum must be at most median"),
        "{}",
        c.arithmetic
    );
    let c = check_order(&[
        ("minimum", exact(3.0)),
        ("mean", p("2.9")),
        ("maximum", exact(9.0)),
    ]);
    assert_eq!(c.verdict, Verdict::Impossible, "{}", c.arithmetic);
    // A printed 3.0 may stand for 2.95: possible; so is a median of 2 (1.5 to 2.5) printed
    // against a minimum that may be 2.5.
    let c = check_order(&[
        ("minimum", exact(3.0)),
        ("mean", p("3.0")),
        ("maximum", exact(9.0)),
    ]);
    assert_eq!(c.verdict, Verdict::Ok, "{}", c.arithmetic);
    let c = check_order(&[("minimum", p("3")), ("median", p("2")), ("maximum", p("9"))]);
    assert_eq!(c.verdict, Verdict::Ok, "{}", c.arithmetic);
    assert_eq!(check_count(16, 100).verdict, Verdict::Ok);
    assert_eq!(check_count(101, 100).verdict, Verdict::Impossible);
    assert_eq!(check_count(0, 0).verdict, Verdict::Impossible);
    // RESEDA Table 3: 0.198 s x 1000 / 89 = 2.2247 (2.225), 1.694 x 1000 / 906 = 1.8698 (1.869
    // is within the rounding of 1.694: 1.6935 x 1000 / 906 = 1.8692).
    for (ets, time, count, want) in [
        ("2.225", "0.198", 89, Verdict::Ok),
        ("1.869", "1.694", 906, Verdict::Ok),
        ("1.295", "0.614", 474, Verdict::Ok),
        ("1.200", "0.614", 474, Verdict::Impossible),
    ] {
        let c = check_ets(p(ets), p(time), count, 1000).unwrap();
        assert_eq!(c.verdict, want, "{ets}: {}", c.arithmetic);
    }
    assert!(check_ets(p("1"), p("1"), 0, 10).is_err());
}

/// Over a wide range of sums, the smallest SD of whole numbers (found near the reals' best
/// sum only) is the smallest over every whole sum of the range.
#[test]
fn smallest_sd_over_wide_ranges_is_found_near_the_centre() {
    for (n, min, max) in [
        (5u64, 0.0, 40.0),
        (9, 3.0, 17.0),
        (31, 10.0, 500.0),
        (12, 0.0, 7.0),
    ] {
        let nf = n as f64;
        let (flo, fhi) = ((nf - 1.0) * min + max, min + (nf - 1.0) * max);
        for (lo, hi) in [
            (flo, fhi),
            (flo, flo + 7.0),
            (fhi - 30.0, fhi),
            (flo + 3.0, fhi - 11.0),
        ] {
            for kind in [SdKind::Sample, SdKind::Population] {
                let mut want = f64::INFINITY;
                let mut s = lo;
                while s <= hi {
                    let (ss, _) = min_squares(n, min, max, s, Scale::Integer);
                    want = want.min(variance(n, s, ss, kind).sqrt());
                    s += 1.0;
                }
                let got = sd_bounds(n, min, max, (lo, hi), kind, Scale::Integer).unwrap();
                assert!(
                    (got.0 .0 - want).abs() < 1e-9,
                    "{n} {min} {max} {lo} {hi}: {got:?} {want}"
                );
            }
        }
    }
}

//! Tests of the censored run-time statistics and their bootstrap bands.
//!
//! Reference values come from Python's `lifelines` 0.30.3 (`pip install lifelines==0.30.*`,
//! with numpy and pandas as pip resolved them), printed with `repr(float(...))` (17
//! significant digits); the Python call is quoted next to each table:
//!
//! ```text
//! from lifelines import KaplanMeierFitter
//! from lifelines.statistics import logrank_test
//! from lifelines.utils import median_survival_times
//! k = KaplanMeierFitter().fit(T, E)          # alpha = 0.05: exponential Greenwood
//! k.survival_function_, k.confidence_interval_
//! k.median_survival_time_, median_survival_times(k.confidence_interval_)
//! r = logrank_test(T_a, T_b, E_a, E_b); r.test_statistic, r.p_value
//! ```
//!
//! lifelines prints a median that is not reached as `inf`; we report "not reached". lifelines
//! computes `S` as `exp(sum log((n - d) / n))`, we as the product: they agree to a few ulps,
//! hence the relative tolerance 1e-12.

use lab_stats::*;

fn close(got: f64, want: f64, what: &str) {
    let tol = 1e-12 * want.abs().max(1e-300);
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got:e}, want {want:e}"
    );
}

struct Case {
    name: &'static str,
    t: &'static [f64],
    e: &'static [u8],
    /// (t, S, lower, upper) at each distinct time (lifelines' t = 0 row left out).
    rows: &'static [(f64, f64, f64, f64)],
    /// median, lower, upper; None = lifelines' inf.
    median: [Option<f64>; 3],
}

const CASES: &[Case] = &[
    Case {
        // Ties among events (3, 3 at t = 3) and censorings at event times (t = 2, 3, 6).
        name: "ties",
        t: &[1., 2., 2., 3., 3., 3., 5., 6., 6., 8., 9., 10.],
        e: &[1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0],
        rows: &[
            (
                1.0,
                0.9166666666666667,
                0.5389771805707405,
                0.9878255654004581,
            ),
            (
                2.0,
                0.8333333333333335,
                0.48171494219537864,
                0.955509365728065,
            ),
            (
                3.0,
                0.6481481481481481,
                0.3096622270171607,
                0.8517975123354391,
            ),
            (
                5.0,
                0.5401234567901234,
                0.21656117316733675,
                0.78036356294766,
            ),
            (
                6.0,
                0.43209876543209874,
                0.14101049207969352,
                0.6980756554901631,
            ),
            (
                8.0,
                0.2880658436213991,
                0.052763943369029565,
                0.590664610280341,
            ),
            (
                9.0,
                0.2880658436213991,
                0.052763943369029565,
                0.590664610280341,
            ),
            (
                10.0,
                0.2880658436213991,
                0.052763943369029565,
                0.590664610280341,
            ),
        ],
        median: [Some(6.0), Some(2.0), None],
    },
    Case {
        name: "b",
        t: &[2., 3., 4., 4., 5., 7., 7., 9., 10., 10.],
        e: &[1, 0, 1, 1, 1, 0, 1, 1, 0, 0],
        rows: &[
            (
                2.0,
                0.8999999999999999,
                0.47300927136205084,
                0.985281393367343,
            ),
            (
                3.0,
                0.8999999999999999,
                0.47300927136205084,
                0.985281393367343,
            ),
            (4.0, 0.675, 0.29058535740313257, 0.8824967337087402),
            (5.0, 0.5625, 0.20942124371047172, 0.8091709215309918),
            (
                7.0,
                0.45000000000000007,
                0.13876737117745042,
                0.7240824997733051,
            ),
            (
                9.0,
                0.30000000000000004,
                0.05240377901328893,
                0.6116610908718342,
            ),
            (
                10.0,
                0.30000000000000004,
                0.05240377901328893,
                0.6116610908718342,
            ),
        ],
        median: [Some(7.0), Some(2.0), None],
    },
    Case {
        // The estimate stays above 0.5: the median is not reached.
        name: "not_reached",
        t: &[5., 5., 5., 5., 5., 10., 10., 10., 10., 10.],
        e: &[1, 0, 0, 0, 0, 1, 0, 0, 0, 0],
        rows: &[
            (
                5.0,
                0.8999999999999999,
                0.47300927136205084,
                0.985281393367343,
            ),
            (10.0, 0.72, 0.23792896474067798, 0.9275941141199429),
        ],
        median: [None, Some(5.0), None],
    },
    Case {
        // S = 0.5 exactly at t = 2 (lifelines: 2, R's survfit: 2.5), S = 0 at the end.
        name: "all_events",
        t: &[1., 2., 3., 4.],
        e: &[1, 1, 1, 1],
        rows: &[
            (
                1.0,
                0.7500000000000001,
                0.12794691759514565,
                0.9605486422850785,
            ),
            (2.0, 0.5, 0.05784708299514455, 0.844861281190374),
            (3.0, 0.25, 0.008947824416603157, 0.6653253427888655),
            (4.0, 0.0, 0.0, 0.0),
        ],
        median: [Some(2.0), Some(1.0), Some(4.0)],
    },
    Case {
        // Runs of a budget of 1000 evaluations: unsolved ones censored there.
        name: "budget",
        t: &[300., 1000., 1000., 1000., 450., 1000., 700., 1000.],
        e: &[1, 0, 0, 0, 1, 0, 1, 0],
        rows: &[
            (
                300.0,
                0.8750000000000001,
                0.38700001403202483,
                0.9813929658789661,
            ),
            (
                450.0,
                0.7500000000000001,
                0.314807113705519,
                0.9308983170906276,
            ),
            (700.0, 0.625, 0.22933332242913165, 0.8606982769135387),
            (1000.0, 0.625, 0.22933332242913165, 0.8606982769135387),
        ],
        median: [None, Some(300.0), None],
    },
];

fn table(c: &Case) -> LifeTable {
    let e: Vec<bool> = c.e.iter().map(|&x| x == 1).collect();
    LifeTable::new(c.t, &e).unwrap()
}

fn case(name: &str) -> &'static Case {
    CASES.iter().find(|c| c.name == name).unwrap()
}

#[test]
fn kaplan_meier_matches_lifelines() {
    for c in CASES {
        let km = kaplan_meier(&table(c), 0.95).unwrap();
        assert_eq!(km.times.len(), c.rows.len(), "{}", c.name);
        for (k, &(t, s, lo, hi)) in c.rows.iter().enumerate() {
            let what = format!("{} at t = {t}", c.name);
            assert_eq!(km.times[k], t, "{what}");
            close(km.survival[k], s, &format!("{what}: S"));
            close(km.low[k], lo, &format!("{what}: lower"));
            close(km.high[k], hi, &format!("{what}: upper"));
            assert!(0.0 <= km.low[k] && km.low[k] <= km.survival[k]);
            assert!(km.survival[k] <= km.high[k] && km.high[k] <= 1.0);
        }
        let m = km.median();
        let got = [m.median.time(), m.low.time(), m.high.time()];
        assert_eq!(got, c.median, "{}: median and its interval", c.name);
    }
}

#[test]
fn logrank_matches_lifelines() {
    // r = logrank_test(T_a, T_b, E_a, E_b)
    let cases = [
        ("ties", "b", 0.19531235416240034, 0.6585314858980623),
        (
            "ties",
            "not_reached",
            5.020565948628203,
            0.025047980943531313,
        ),
        ("b", "budget", 8.094461019769906, 0.0044400740250141),
        (
            "all_events",
            "ties",
            4.980458827859625,
            0.025635183435500645,
        ),
    ];
    for (a, b, stat, p) in cases {
        let r = logrank_test(&table(case(a)), &table(case(b))).unwrap();
        close(r.statistic, stat, &format!("{a} vs {b}: statistic"));
        close(r.p_value, p, &format!("{a} vs {b}: p"));
        // Symmetric in its samples.
        let s = logrank_test(&table(case(b)), &table(case(a))).unwrap();
        close(s.statistic, stat, &format!("{b} vs {a}: statistic"));
    }
    let none = LifeTable::new(&[1.0, 2.0], &[false, false]).unwrap();
    assert!(logrank_test(&none, &none).is_err());
}

#[test]
fn bands_are_deterministic_inside_unit_interval_and_cover_the_estimate() {
    // 3 puzzles x 6 runs, some censored at the budget 100.
    let t: Vec<f64> = (0..18)
        .map(|i| [5., 20., 40., 70., 100., 100.][i % 6] + (i / 6) as f64)
        .collect();
    let e: Vec<bool> = (0..18).map(|i| i % 6 < 4).collect();
    let groups: Vec<Vec<usize>> = (0..3).map(|p| (6 * p..6 * p + 6).collect()).collect();
    let km = kaplan_meier(&LifeTable::new(&t, &e).unwrap(), 0.95).unwrap();
    for scheme in [Scheme::RunsWithinPuzzles, Scheme::PuzzlesThenRuns] {
        let band = ecdf_band(&t, &e, &groups, scheme, seed_from("x")).unwrap();
        assert_eq!(
            band,
            ecdf_band(&t, &e, &groups, scheme, seed_from("x")).unwrap()
        );
        assert_eq!(band.times, km.times);
        for k in 0..band.times.len() {
            let f = 1.0 - km.survival[k];
            assert!(
                0.0 <= band.low[k] && band.low[k] <= f + 1e-12,
                "{scheme:?} {k}"
            );
            assert!(
                f - 1e-12 <= band.high[k] && band.high[k] <= 1.0,
                "{scheme:?} {k}"
            );
        }
        let costs: Vec<f64> = t.clone();
        let (lo, hi) = ert_interval(&costs, &e, &groups, scheme, 7).unwrap();
        let ert = costs.iter().sum::<f64>() / 12.0;
        assert!(lo < ert && ert < hi, "{scheme:?}: {lo} {ert} {hi}");
    }
    // A curve that never solves: ERT interval infinite, band flat at 0.
    let never = vec![false; 18];
    let (lo, hi) = ert_interval(&t, &never, &groups, Scheme::PuzzlesThenRuns, 1).unwrap();
    assert_eq!((lo, hi), (f64::INFINITY, f64::INFINITY));
    let flat = ecdf_band(&t, &never, &groups, Scheme::RunsWithinPuzzles, 1).unwrap();
    assert!(flat.high.iter().all(|&h| h == 0.0));
}

#[test]
fn with_every_unsolved_run_at_the_budget_kaplan_meier_is_the_runtime_ecdf() {
    // Solved runs at (tied) times below the budget 1000, unsolved ones censored at 1000: the
    // risk set only loses solved runs before 1000, so 1 - S(t) is the fraction of all runs
    // solved within t (lab_stats::ecdf with +inf for the unsolved runs).
    let solved = [3.0, 7.0, 7.0, 12.0, 40.0, 40.0, 40.0, 300.0, 999.0];
    for unsolved in [0usize, 1, 5, 30] {
        let mut t = solved.to_vec();
        let mut e = vec![true; solved.len()];
        t.extend(std::iter::repeat_n(1000.0, unsolved));
        e.extend(std::iter::repeat_n(false, unsolved));
        let km = kaplan_meier(&LifeTable::new(&t, &e).unwrap(), 0.95).unwrap();
        let plain: Vec<f64> = (t.iter().zip(&e))
            .map(|(&x, &s)| if s { x } else { f64::INFINITY })
            .collect();
        let points = [0.0, 3.0, 6.9, 7.0, 39.0, 40.0, 500.0, 999.0, 1000.0];
        let want = ecdf(&plain, &points).unwrap();
        for (p, w) in points.iter().zip(want) {
            let got = 1.0 - km.survival_at(*p);
            assert!(
                (got - w).abs() < 1e-12,
                "{unsolved} unsolved, t = {p}: {got} vs {w}"
            );
        }
    }
}

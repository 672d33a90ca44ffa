//! `report = "compare"` end to end: the quick benchmark-9x9 (every 9x9 solver, anytime data),
//! its tables (CSV, Markdown, LaTeX), charts and report; a two-algorithm user spec; and the
//! exports of its results.

mod common;
#[allow(unused_imports)]
use common::{bin, ok, run, stderr, tmpdir};

use std::path::Path;

fn csv_rows(p: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(p).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut rows = vec![header];
    for rec in r.records() {
        rows.push(rec.unwrap().iter().map(String::from).collect());
    }
    rows
}

const TABLES: [&str; 7] = [
    "compare-success",
    "compare-pairs",
    "compare-friedman",
    "compare-ranks",
    "compare-posthoc",
    "compare-targets",
    "compare-budget",
];

/// The censored-runtime tables, with or without anytime data.
const SURVIVAL_TABLES: [&str; 2] = ["compare-survival", "compare-logrank"];

const CHARTS: [&str; 8] = [
    "compare-cd-seconds",
    "compare-ecdf-seconds",
    "compare-success",
    "compare-ert",
    "compare-ecdf",
    "compare-targets",
    "compare-budget",
    "compare-cd-ret-ga",
];

#[test]
fn quick_benchmark_end_to_end() {
    let d = tmpdir("bench");
    ok(bin()
        .current_dir(&d)
        .args(["reproduce", "benchmark-9x9", "--quick"]));
    let out = d.join("results/quick/benchmark-9x9");
    for t in TABLES.iter().chain(&SURVIVAL_TABLES) {
        for ext in ["csv", "md", "tex"] {
            assert!(
                out.join(format!("{t}.{ext}")).is_file(),
                "{t}.{ext} missing"
            );
        }
    }
    for c in CHARTS {
        for ext in ["svg", "png"] {
            assert!(
                out.join(format!("{c}.{ext}")).is_file(),
                "{c}.{ext} missing"
            );
        }
    }
    // 7 algorithms x (9 Table 1 puzzles + 5 Kennett levels cut to 1 puzzle) x 2 runs.
    let runs = csv_rows(&out.join("runs.csv"));
    assert_eq!(runs.len() - 1, 7 * 14 * 2);
    // Success: 7 scopes (Table 1, five Kennett levels, all) x 7 algorithms; the pooled rows
    // add up the scopes.
    let success = csv_rows(&out.join("compare-success.csv"));
    assert_eq!(success.len() - 1, 7 * 7);
    for alg in 1..=7 {
        let rows: Vec<&Vec<String>> = success[1..]
            .iter()
            .filter(|r| r[1] == success[alg][1])
            .collect();
        let sum = |col: usize, rows: &[&Vec<String>]| -> u64 {
            rows.iter().map(|r| r[col].parse::<u64>().unwrap()).sum()
        };
        let (sets, pooled) = rows.split_at(6);
        assert_eq!(pooled[0][0], "all");
        assert_eq!(sum(2, sets), sum(2, pooled));
        assert_eq!(sum(3, sets), sum(3, pooled));
    }
    // Pairs: 21 pairs in each of the 7 scopes; Holm never lowers a p-value.
    let pairs = csv_rows(&out.join("compare-pairs.csv"));
    assert_eq!(pairs.len() - 1, 21 * 7);
    for r in &pairs[1..] {
        let p = |s: &str| s.trim_start_matches('<').parse::<f64>().ok();
        if let (Some(raw), Some(adj)) = (p(&r[5]), p(&r[6])) {
            assert!(adj + 1e-12 >= raw, "{r:?}");
        }
        let a12: f64 = r[9].parse().unwrap();
        assert!((0.0..=1.0).contains(&a12));
    }
    // Average ranks of the pooled Friedman test in CPU seconds (every run has its CPU time)
    // sum to k(k+1)/2 over all 7 algorithms; in evaluations, 3 over each pair of one unit.
    let ranks = csv_rows(&out.join("compare-ranks.csv"));
    let pooled = |unit: &str| -> f64 {
        (ranks[1..].iter())
            .filter(|r| r[0] == unit && r[1] == "all")
            .map(|r| r[3].parse::<f64>().unwrap())
            .sum()
    };
    assert!((pooled("cpu_seconds") - 28.0).abs() < 0.01, "{ranks:?}");
    assert!(
        (pooled("evaluations (ret-ga)") - 3.0).abs() < 0.01,
        "{ranks:?}"
    );
    // (The two CSO settings rank only where one of them solves a puzzle.)
    let cso = pooled("evaluations (cso)");
    assert!(cso == 0.0 || (cso - 3.0).abs() < 0.01, "{ranks:?}");
    assert_eq!(
        pooled("evaluations"),
        0.0,
        "no ranking in evaluations across units"
    );
    assert!(assert_no_evaluations_verdict_across_units(&out) > 0);
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("QUICK RUN"), "a quick report says so");
    for s in [
        "## Time and units",
        "Seconds in this report are CPU seconds",
        "## One answer per pair",
        "Ranking over all 14 puzzles, ERT in CPU seconds",
        "(the algorithms of unit `ret-ga` only)",
        "lewis-sa",
    ] {
        assert!(report.contains(s), "{s}");
    }
    assert!(!report.contains("wall s"), "one word for one thing");
    // CPU seconds lead: their ranking before any in evaluations.
    assert!(report.find("ERT in CPU seconds") < report.find("ERT in evaluations"));
    // One answer per pair and scope: 21 pairs x 7 scopes.
    assert_eq!(csv_rows(&out.join("compare-answers.csv")).len() - 1, 21 * 7);
    let tex = std::fs::read_to_string(out.join("compare-pairs.tex")).unwrap();
    assert!(tex.contains("\\toprule") && tex.contains("ret-ga-best+uniform"));
    // Censored runtimes: 2 units x 7 scopes x 7 algorithms; 2 units x 7 scopes x 21 pairs.
    assert_eq!(
        csv_rows(&out.join("compare-survival.csv")).len() - 1,
        2 * 7 * 7
    );
    assert_eq!(
        csv_rows(&out.join("compare-logrank.csv")).len() - 1,
        2 * 7 * 21
    );
    // The anytime data export to IOHprofiler's format.
    ok(bin()
        .args(["export", "--format", "ioh"])
        .arg(&out)
        .arg("--out")
        .arg(out.join("ioh")));
    assert!(out.join("ioh/lewis-sa").is_dir());
}

#[test]
fn a_user_spec_with_two_algorithms() {
    let d = tmpdir("user");
    let spec = d.join("spec.toml");
    std::fs::write(
        &spec,
        r#"
id = "two"
title = "two algorithms"
master_seed = 3
runs = 4
quick_runs = 1
quick_max_generations = 10
report = "compare"
puzzles = [{ id = "mk_easy" }, { id = "mk_1star" }, { id = "das_fig1" }]

[[algorithms]]
label = "sa"
algorithm = "lewis-sa"
max_generations = 100000
max_evaluations = 200000

[[algorithms]]
label = "mk"
algorithm = "mk-ga"
max_generations = 100000
max_evaluations = 200000
"#,
    )
    .unwrap();
    let out = d.join("out");
    ok(bin().arg("run").arg(&spec).arg("--out").arg(&out));
    // Without anytime data: no fixed-target or fixed-budget views, everything else.
    for t in &TABLES[..5] {
        assert!(out.join(format!("{t}.csv")).is_file(), "{t}");
    }
    assert!(!out.join("compare-targets.csv").exists());
    // Two units: a ranking in CPU seconds, none in evaluations.
    assert!(out.join("compare-cd-seconds.png").is_file());
    assert!(!out.join("compare-cd.png").exists());
    let pairs = csv_rows(&out.join("compare-pairs.csv"));
    // One pair in each of 4 scopes (three single puzzles and all).
    assert_eq!(pairs.len() - 1, 4);
    // A chart the report cannot draw is refused when the spec loads.
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(
        &spec,
        text.replace(
            "report = \"compare\"",
            "report = \"compare\"\nchart = \"alpha\"",
        ),
    )
    .unwrap();
    let o = bin()
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(d.join("x"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("chart \"alpha\"") && err.lines().count() == 1,
        "{err}"
    );
    assert!(!d.join("x").exists());
}

/// A number of compare-survival.csv, None for "not reached".
fn time_or_not_reached(s: &str) -> Option<f64> {
    if s == "not reached" {
        None
    } else {
        Some(s.parse().unwrap_or_else(|_| panic!("{s:?}")))
    }
}

/// Issue 20, items 2-3: every run counts in the Kaplan-Meier view (unsolved ones censored),
/// medians and their intervals are ordered numbers or "not reached", fractions stay in [0, 1],
/// and the bootstrap bands and intervals are the same for any thread count.
#[test]
fn censored_runtimes_count_every_run_and_do_not_depend_on_threads() {
    let d = tmpdir("surv");
    let spec = d.join("spec.toml");
    std::fs::write(
        &spec,
        r#"
id = "surv"
title = "censored runtimes"
master_seed = 5
runs = 6
quick_runs = 1
quick_max_generations = 10
report = "compare"
puzzles = [{ id = "mk_easy", label = "easy" }, { id = "mk_1star", label = "easy" }, { id = "das_fig1", label = "other" }]

[[algorithms]]
label = "sa"
algorithm = "lewis-sa"
max_generations = 100000
max_evaluations = 30000

[[algorithms]]
label = "mk"
algorithm = "mk-ga"
max_generations = 100000
max_evaluations = 30000
"#,
    )
    .unwrap();
    for t in ["1", "2"] {
        ok(bin()
            .arg("run")
            .arg(&spec)
            .args(["--threads", t, "--out"])
            .arg(d.join(t)));
    }
    let evaluations = |f: &str, t: &str| -> Vec<String> {
        let text = std::fs::read_to_string(d.join(t).join(f)).unwrap();
        text.lines()
            .filter(|l| !l.starts_with("cpu_seconds,"))
            .map(String::from)
            .collect()
    };
    // (CPU seconds are measured times; the ERT chart is in them.)
    for f in [
        "compare-survival.csv",
        "compare-logrank.csv",
        "compare-ecdf.svg",
    ] {
        assert_eq!(evaluations(f, "1"), evaluations(f, "2"), "{f}");
    }
    let rows = csv_rows(&d.join("1/compare-survival.csv"));
    let h = &rows[0];
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    // 2 units x 3 scopes (easy, other, all) x 2 algorithms.
    assert_eq!(rows.len() - 1, 12);
    for r in &rows[1..] {
        let n: usize = r[col("runs")].parse().unwrap();
        let solved: usize = r[col("solved")].parse().unwrap();
        let censored: usize = r[col("censored")].parse().unwrap();
        assert_eq!(solved + censored, n, "every run counts: {r:?}");
        let runs_of_scope = if r[col("scope")] == "easy" {
            12
        } else if r[col("scope")] == "other" {
            6
        } else {
            18
        };
        assert_eq!(n, runs_of_scope, "{r:?}");
        let f: f64 = r[col("km_solved_fraction")].parse().unwrap();
        assert!((0.0..=1.0).contains(&f), "{r:?}");
        let m = time_or_not_reached(&r[col("median_to_solve")]);
        let lo = time_or_not_reached(&r[col("median_ci_low")]);
        let hi = time_or_not_reached(&r[col("median_ci_high")]);
        // Not reached = beyond every time: low <= median <= high with None as +infinity.
        let key = |x: Option<f64>| x.unwrap_or(f64::INFINITY);
        assert!(key(lo) <= key(m) && key(m) <= key(hi), "{r:?}");
        assert_eq!(m.is_none(), f < 0.5 - 1e-9, "{r:?}");
    }
    let report = std::fs::read_to_string(d.join("1/report.md")).unwrap();
    assert!(report.contains("## Runtime distributions (unsolved runs censored)"));
    assert!(report.contains("![ECDF in CPU seconds](compare-ecdf-seconds.png)"));
    // A wall time that is not a time is named with its line, exit 2, no panic.
    let runs = d.join("1/runs.csv");
    let text = std::fs::read_to_string(&runs).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let wall = lines[0].split(',').position(|h| h == "wall_ms").unwrap();
    let mut f: Vec<String> = lines[3].split(',').map(String::from).collect();
    f[wall] = "NaN".into();
    lines[3] = f.join(",");
    std::fs::write(&runs, lines.join("\n") + "\n").unwrap();
    let o = bin()
        .arg("run")
        .arg(&spec)
        .args(["--resume", "--out"])
        .arg(d.join("1"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.contains("runs.csv:4: wall_ms NaN is not a time"),
        "{err}"
    );
}

/// Issue 21, items 11-12: RESEDA with one attempt stops by its own rule long before the
/// budget. Its unsolved runs keep their last penalty in the fixed-budget view (before: they
/// were dropped while solved runs were carried forward, so it seemed to reach penalty 0), the
/// spec's load warns, and the report states the evaluations it actually used.
#[test]
fn early_stopping_runs_keep_their_value_up_to_the_budget() {
    let d = tmpdir("early");
    let spec = d.join("spec.toml");
    std::fs::write(
        &spec,
        r#"
id = "early"
title = "an algorithm that stops early"
master_seed = 21
runs = 4
quick_runs = 1
quick_max_generations = 10
report = "compare"
anytime = true
puzzles = [{ id = "ai_escargot" }, { id = "das_fig1" }]

[[algorithms]]
label = "reseda-1"
algorithm = "reseda"
max_generations = 100000
max_evaluations = 200000
params = { attempts = 1 }

[[algorithms]]
label = "sa"
algorithm = "lewis-sa"
max_generations = 100000
max_evaluations = 200000
"#,
    )
    .unwrap();
    let out = d.join("out");
    let o = ok(bin().arg("run").arg(&spec).arg("--out").arg(&out));
    let err = stderr(&o);
    assert!(
        err.lines().any(|l| l.starts_with(
            "warning: algorithm 'reseda-1' (reseda) stops by its own rule after 1 attempt"
        )),
        "{err}"
    );
    let runs = csv_rows(&out.join("runs.csv"));
    let h = &runs[0];
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let early = runs[1..]
        .iter()
        .filter(|r| r[col("algorithm")] == "reseda-1" && r[col("solved")] == "0")
        .filter(|r| r[col("evaluations")].parse::<u64>().unwrap() < 200_000)
        .count();
    assert!(early > 0, "the test needs an unsolved early stop");
    let budget = csv_rows(&out.join("compare-budget.csv"));
    let bh = &budget[0];
    let bcol = |n: &str| bh.iter().position(|x| x == n).unwrap();
    for r in &budget[1..] {
        assert_eq!(r[bcol("runs_with_a_value")], "8", "{r:?}");
    }
    // At the full budget RESEDA's unsolved runs still count, with a penalty above 0.
    let last = budget[1..].iter().rfind(|r| r[0] == "reseda-1").unwrap();
    assert_eq!(last[bcol("evaluations")], "200000");
    assert!(last[bcol("max")].parse::<f64>().unwrap() > 0.0, "{last:?}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("Effective budgets")
            && report.contains(&format!("`reseda-1`: {early} of its"))
            && report.contains("(converged)")
            && report.contains("set `attempts` to use the budget"),
        "{report}"
    );
}

/// Each algorithm label's evaluation unit, from a results folder's meta.json: a built-in
/// algorithm's name, an external solver's `evaluation_unit`, else `external:LABEL`.
fn units_of(dir: &Path) -> std::collections::HashMap<String, String> {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    let algorithms = meta["spec"]["algorithms"].as_array().unwrap();
    algorithms
        .iter()
        .map(|a| {
            let label = a["label"].as_str().unwrap().to_string();
            let unit = match (
                a["algorithm"].as_str().unwrap(),
                a["evaluation_unit"].as_str(),
            ) {
                ("external", Some(u)) => u.to_string(),
                ("external", None) => format!("external:{label}"),
                (name, _) => name.to_string(),
            };
            (label, unit)
        })
        .collect()
}

const NOT_COMPARABLE: &str = "not comparable in evaluations";

/// No compare CSV of `dir` holds a number or a verdict in evaluations between algorithms of
/// different units: every such cell is empty or says "not comparable in evaluations", and the
/// rankings in evaluations rank algorithms of one unit only. Returns how many cross-unit
/// rows were checked.
fn assert_no_evaluations_verdict_across_units(dir: &Path) -> usize {
    let units = units_of(dir);
    let mut checked = 0;
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            n.starts_with("compare-") && n.ends_with(".csv")
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}", dir.display());
    for f in &files {
        let rows = csv_rows(f);
        let h = &rows[0];
        let col = |n: &str| h.iter().position(|x| x == n);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if let (Some(ca), Some(cb)) = (col("algorithm_a"), col("algorithm_b")) {
            for r in &rows[1..] {
                if units[&r[ca]] == units[&r[cb]] {
                    continue;
                }
                checked += 1;
                // A row about evaluations (its measure or time unit) carries no result.
                let about_evaluations = r
                    .iter()
                    .any(|c| c == "evaluations" || c == "ert_evaluations")
                    || r.iter().any(|c| c.starts_with("evaluations ("));
                for (i, cell) in r.iter().enumerate() {
                    let header = &h[i];
                    let evaluation_column =
                        header.contains("evaluations") && !header.starts_with("ert_reference");
                    let result_column = about_evaluations
                        && ![
                            "scope",
                            "algorithm_a",
                            "algorithm_b",
                            "measure",
                            "time_unit",
                            "ert_unit",
                            "puzzles",
                            "rope",
                            "unsolved_by_both",
                            "solved_a",
                            "solved_b",
                        ]
                        .contains(&header.as_str());
                    if evaluation_column || result_column {
                        assert!(
                            cell.is_empty() || cell == NOT_COMPARABLE,
                            "{name}: {header} = {cell:?} between {} and {}: {r:?}",
                            r[ca],
                            r[cb]
                        );
                    }
                }
            }
        }
        // Rankings in evaluations: one unit per (ert_unit, scope).
        if let (Some(cu), Some(cs), Some(calg)) = (col("ert_unit"), col("scope"), col("algorithm"))
        {
            let mut seen: std::collections::HashMap<(String, String), String> = Default::default();
            for r in &rows[1..] {
                if !r[cu].starts_with("evaluations") {
                    continue;
                }
                let unit = &units[&r[calg]];
                let first = seen
                    .entry((r[cu].clone(), r[cs].clone()))
                    .or_insert(unit.clone());
                assert_eq!(first, unit, "{name}: {r:?}");
            }
        }
    }
    checked
}

/// The committed folders of report = "compare" decide nothing in evaluations across units.
#[test]
fn committed_compare_folders_decide_nothing_in_evaluations_across_units() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    for id in ["benchmark-9x9", "external-demo", "lewis-sa-reheat"] {
        let checked = assert_no_evaluations_verdict_across_units(&results.join(id));
        let mixed = id != "lewis-sa-reheat";
        assert_eq!(checked > 0, mixed, "{id}: {checked} cross-unit rows");
    }
}

/// `sudoku-lab compare DIR A B` prints the pair's paragraph (either order); bad input is one
/// line and exit 2.
#[test]
fn compare_prints_one_pair() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/benchmark-9x9");
    let o = ok(bin()
        .arg("compare")
        .arg(&dir)
        .args(["lewis-sa", "reseda-27"]));
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        text.starts_with("**reseda-27 against lewis-sa** (all puzzles)"),
        "{text}"
    );
    assert!(text.contains("CPU s") && !text.contains("wall s"), "{text}");
    assert!(text.contains(NOT_COMPARABLE), "{text}");
    // A folder written before runs.csv had CPU times speaks of wall seconds.
    let o = ok(bin()
        .arg("compare")
        .arg(dir.join("../external-demo"))
        .args(["lewis-sa", "ret-ga"]));
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(text.contains("wall s") && !text.contains("CPU s"), "{text}");
    let o =
        ok(bin()
            .arg("pair")
            .arg(&dir)
            .args(["reseda-27", "lewis-sa", "--scope", "Kennett hard"]));
    assert!(String::from_utf8_lossy(&o.stdout).contains("(puzzle set Kennett hard)"));
    for (args, says) in [
        (vec!["lewis-sa", "nope"], "nope: no such algorithm"),
        (vec!["lewis-sa", "lewis-sa"], "the same algorithm twice"),
        (
            vec!["lewis-sa", "mk-ga", "--scope", "x"],
            "--scope x: no such puzzle set",
        ),
    ] {
        let o = bin().arg("compare").arg(&dir).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says) && err.lines().count() == 1, "{err}");
    }
    let o = bin()
        .arg("compare")
        .arg(dir.join("../reseda-table1"))
        .args(["a", "b"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no compare-answers.csv"));
}

//! The compare report's post hoc verdicts ("A ranks better") name the algorithm its own
//! Wilcoxon signed-rank test favours, in every committed folder: the direction agrees with the
//! row's own rank sum, and over all puzzles in CPU seconds the rank sum is recomputed here
//! from runs.csv, independently of the report's code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results")
}

/// Every committed folder with a compare-posthoc.csv.
fn folders() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(results())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("compare-posthoc.csv").is_file())
        .collect();
    out.sort();
    out
}

type Row = BTreeMap<String, String>;

fn rows(p: &Path) -> Vec<Row> {
    let mut r = csv::Reader::from_path(p).unwrap();
    let h: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            h.iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The algorithm a signed-rank sum favours: `a` when the ranks of the puzzles on which `a` is
/// slower (`v`) sum to less than half of all ranks.
fn favoured(row: &Row) -> Option<&str> {
    let n: f64 = row["puzzles_nonzero"].parse().unwrap();
    let v: f64 = row["wilcoxon_v"].parse().unwrap();
    let half = n * (n + 1.0) / 4.0;
    if v < half {
        Some(&row["algorithm_a"])
    } else if v > half {
        Some(&row["algorithm_b"])
    } else {
        None
    }
}

#[test]
fn committed_posthoc_verdicts_name_the_algorithm_their_test_favours() {
    let mut named = 0;
    for dir in folders() {
        for row in rows(&dir.join("compare-posthoc.csv")) {
            let verdict = &row["verdict"];
            let Some(who) = verdict.strip_suffix(" ranks better") else {
                assert_eq!(verdict, "no significant difference", "{}", dir.display());
                continue;
            };
            named += 1;
            assert_eq!(
                Some(who),
                favoured(&row),
                "{}: {row:?}",
                dir.join("compare-posthoc.csv").display()
            );
        }
    }
    assert!(named > 50, "only {named} verdicts name an algorithm");
}

/// Per puzzle and algorithm: the seconds (`clock`: runs.csv's `cpu_ms` or `wall_ms`) of every
/// run over the runs solved (infinite when none), from runs.csv.
fn ert_seconds(dir: &Path, clock: &str) -> BTreeMap<(String, String), f64> {
    let mut sums: BTreeMap<(String, String), (f64, u32)> = BTreeMap::new();
    for r in rows(&dir.join("runs.csv")) {
        let e = sums
            .entry((r["algorithm"].clone(), r["puzzle"].clone()))
            .or_default();
        e.0 += r[clock].parse::<f64>().unwrap() / 1000.0;
        e.1 += u32::from(r["solved"] == "1");
    }
    (sums.into_iter())
        .map(|(k, (s, n))| (k, if n == 0 { f64::INFINITY } else { s / n as f64 }))
        .collect()
}

/// R's `V` of the pair over every puzzle: ranks of |ERT a - ERT b| (ties averaged, zeros
/// dropped, an unsolved puzzle at ten times the largest finite ERT, at least 10 s), summed
/// over the puzzles on which `a` is slower. Returns (n, V).
fn signed_rank(ert: &BTreeMap<(String, String), f64>, a: &str, b: &str) -> (usize, f64) {
    let largest = (ert.values().copied().filter(|x| x.is_finite())).fold(0.0f64, f64::max);
    let cap = |x: f64| {
        if x.is_finite() {
            x
        } else {
            10.0 * largest.max(1.0)
        }
    };
    let mut d: Vec<f64> = (ert.iter())
        .filter(|((alg, _), _)| alg == a)
        .map(|((_, p), &x)| cap(x) - cap(ert[&(b.to_string(), p.clone())]))
        .filter(|d| *d != 0.0)
        .collect();
    d.sort_by(|x, y| x.abs().total_cmp(&y.abs()));
    let mut v = 0.0;
    let mut i = 0;
    while i < d.len() {
        let j = (i..d.len())
            .take_while(|&j| d[j].abs() == d[i].abs())
            .count()
            + i;
        let rank = (i + 1 + j) as f64 / 2.0;
        v += rank * d[i..j].iter().filter(|x| **x > 0.0).count() as f64;
        i = j;
    }
    (d.len(), v)
}

/// Over all puzzles in seconds (CPU, or wall in folders made before CPU time was recorded),
/// the row's n and V are those recomputed from runs.csv, so the direction above is checked
/// against the runs, not only against the file's own column.
#[test]
fn committed_pooled_rank_sums_are_recomputed_from_the_runs() {
    let mut checked = 0;
    for dir in folders() {
        for row in rows(&dir.join("compare-posthoc.csv")) {
            let clock = match row["ert_unit"].as_str() {
                "cpu_seconds" => "cpu_ms",
                "wall_seconds" => "wall_ms",
                _ => continue,
            };
            if row["scope"] != "all" {
                continue;
            }
            let ert = ert_seconds(&dir, clock);
            let (n, v) = signed_rank(&ert, &row["algorithm_a"], &row["algorithm_b"]);
            assert_eq!(
                n.to_string(),
                row["puzzles_nonzero"],
                "{}: {row:?}",
                dir.display()
            );
            assert_eq!(
                format!("{v:.1}"),
                row["wilcoxon_v"],
                "{}: {row:?}",
                dir.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 21 * 4 + 6, "only {checked} pooled rows checked");
}

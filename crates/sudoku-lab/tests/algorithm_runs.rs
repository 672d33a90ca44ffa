//! `runs` per algorithm: an algorithm's own runs override the spec's, run r
//! of a puzzle keeps its seed across algorithms, and resume, shards, merge, replay and the
//! reports all follow each algorithm's own count.

mod common;
#[allow(unused_imports)]
use common::{bin, ok, run, stderr, tmpdir};

use std::collections::HashMap;
use std::path::Path;

const SPEC: &str = r#"
id = "per-algorithm"
title = "test"
master_seed = 11
runs = 2
quick_runs = 1
quick_max_generations = 50
puzzles = [{ id = "mk_easy" }, { id = "das_fig1" }]

[[algorithms]]
label = "more"
algorithm = "mk-ga"
max_generations = 60
runs = 5

[[algorithms]]
label = "spec-runs"
algorithm = "ret-ga"
max_generations = 60
"#;

/// runs.csv's rows as (algorithm, puzzle, run) -> seed, and the text without wall times.
fn rows(dir: &Path) -> (HashMap<(String, String, u64), String>, String) {
    let text = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let (a, p, r, s, w) = (
        col("algorithm"),
        col("puzzle"),
        col("run"),
        col("seed"),
        col("wall_ms"),
    );
    let mut map = HashMap::new();
    let mut plain = Vec::new();
    for l in text.lines() {
        let f: Vec<&str> = l.split(',').collect();
        if l != text.lines().next().unwrap() {
            map.insert(
                (f[a].to_string(), f[p].to_string(), f[r].parse().unwrap()),
                f[s].to_string(),
            );
        }
        let kept: Vec<&str> = (f.iter().enumerate())
            .filter(|(i, _)| *i != w && *i != col("cpu_ms"))
            .map(|(_, x)| *x)
            .collect();
        plain.push(kept.join(","));
    }
    (map, plain.join("\n"))
}

#[test]
fn an_algorithm_with_its_own_runs_keeps_the_shared_seeds() {
    let d = tmpdir("algorithm-runs");
    let spec = d.join("spec.toml");
    std::fs::write(&spec, SPEC).unwrap();
    let full = d.join("full");
    let o = ok(bin().arg("run").arg(&spec).arg("--out").arg(&full));
    // The first line names each algorithm's runs, not the spec's alone.
    assert!(
        stderr(&o).contains("x (more 5, spec-runs 2) runs on"),
        "{}",
        stderr(&o)
    );
    let (seeds, text) = rows(&full);
    // 2 puzzles x (5 + 2) runs.
    assert_eq!(seeds.len(), 14, "{text}");
    for p in ["mk_easy", "das_fig1"] {
        for r in 0..2u64 {
            let key = |a: &str| (a.to_string(), p.to_string(), r);
            assert_eq!(seeds[&key("more")], seeds[&key("spec-runs")], "{p} run {r}");
        }
        assert!(seeds.contains_key(&("more".to_string(), p.to_string(), 4)));
        assert!(!seeds.contains_key(&("spec-runs".to_string(), p.to_string(), 2)));
    }
    // summary.csv counts each algorithm's own runs.
    let summary = std::fs::read_to_string(full.join("summary.csv")).unwrap();
    let header: Vec<&str> = summary.lines().next().unwrap().split(',').collect();
    let runs_col = header.iter().position(|h| *h == "runs").unwrap();
    for l in summary.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let want = if f.contains(&"more") { "5" } else { "2" };
        assert_eq!(f[runs_col], want, "{l}");
    }

    // Resume after a crash (header and 6 rows kept) gives the same file.
    let part = d.join("part");
    std::fs::create_dir_all(&part).unwrap();
    let all = std::fs::read_to_string(full.join("runs.csv")).unwrap();
    let kept: Vec<&str> = all.lines().take(7).collect();
    std::fs::write(part.join("runs.csv"), kept.join("\n") + "\n").unwrap();
    std::fs::copy(full.join("meta.json"), part.join("meta.json")).unwrap();
    ok(bin()
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(&part)
        .arg("--resume"));
    assert_eq!(rows(&part).1, text);

    // Two shards merged give the same file.
    let shards: Vec<_> = (1..=2).map(|k| d.join(format!("s{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        ok(bin()
            .arg("run")
            .arg(&spec)
            .args(["--shard", &format!("{}/2", k + 1), "--out"])
            .arg(s));
    }
    let merged = d.join("merged");
    ok(bin().arg("merge").arg(&merged).args(&shards));
    assert_eq!(rows(&merged).1, text);

    // Every run replays from its row.
    let o = ok(bin().arg("replay").arg(&full));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("replayed 14 runs"), "{out}");

    // --runs sets every algorithm's runs.
    let forced = d.join("forced");
    ok(bin()
        .arg("run")
        .arg(&spec)
        .args(["--runs", "1", "--out"])
        .arg(&forced));
    assert_eq!(rows(&forced).0.len(), 4);
}

#[test]
fn runs_per_puzzle_and_per_algorithm_together_are_refused() {
    let d = tmpdir("algorithm-runs-both");
    let spec = d.join("spec.toml");
    let text = SPEC.replace(r#"{ id = "das_fig1" }"#, r#"{ id = "das_fig1", runs = 3 }"#);
    std::fs::write(&spec, text).unwrap();
    let o = run(bin().arg("run").arg(&spec).arg("--out").arg(d.join("o")));
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("runs is set on puzzle 'das_fig1' and on algorithm 'more'")
            && err.lines().count() == 1,
        "{err}"
    );
    assert!(!d.join("o").exists());
    let zero = SPEC.replace("runs = 5", "runs = 0");
    std::fs::write(&spec, zero).unwrap();
    let o = run(bin().arg("run").arg(&spec).arg("--out").arg(d.join("o")));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("algorithm 'more': runs must be at least 1"));
}

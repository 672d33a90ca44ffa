//! `--shard k/n` and `merge`: 4 shards merged give the files of one machine (wall times
//! aside); missing, overlapping, mismatched or tampered shards are refused in one line.

mod common;
#[allow(unused_imports)]
use common::{bin, ok, run, stderr, tmpdir};

use std::path::{Path, PathBuf};
use std::process::Command;

fn refused(cmd: &mut Command, wanted: &str) {
    let o = cmd.output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(wanted) && err.lines().count() == 1, "{err}");
}

/// A CSV file without what depends on wall times: columns named after them, and the rows of a
/// comparison made on seconds.
fn without_wall(p: &Path) -> String {
    let text = std::fs::read_to_string(p).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let drop: Vec<usize> = (0..header.len())
        .filter(|&i| {
            ["wall_ms", "ets_seconds", "ert_seconds"]
                .iter()
                .any(|w| header[i].contains(w))
        })
        .collect();
    // Rows ranked by ERT in seconds (compare-posthoc.csv's `seconds` rows) are wall times too.
    text.lines()
        .filter(|l| !l.starts_with("seconds,"))
        .map(|l| {
            l.split(',')
                .enumerate()
                .filter(|(i, _)| !drop.contains(i))
                .map(|(_, f)| f)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn shard(d: &Path, k: usize, extra: &[&str]) -> PathBuf {
    let out = d.join(format!("s{k}"));
    ok(bin()
        .args([
            "reproduce",
            "benchmark-9x9",
            "--quick",
            "--shard",
            &format!("{k}/4"),
            "--out",
        ])
        .arg(&out)
        .args(extra));
    out
}

#[test]
fn four_shards_merge_into_the_single_machine_folder() {
    let d = tmpdir("merge");
    let s: Vec<PathBuf> = (1..=4).map(|k| shard(&d, k, &[])).collect();
    // Disjoint slices of the plan: 7 algorithms x 14 puzzles x 2 runs in all.
    let rows: usize = s
        .iter()
        .map(|p| {
            std::fs::read_to_string(p.join("runs.csv"))
                .unwrap()
                .lines()
                .count()
                - 1
        })
        .sum();
    assert_eq!(rows, 196);
    let merged = d.join("merged");
    ok(bin().arg("merge").arg(&merged).args(&s));
    let single = d.join("single");
    ok(bin()
        .args(["reproduce", "benchmark-9x9", "--quick", "--out"])
        .arg(&single));
    for f in [
        "runs.csv",
        "trajectories.csv",
        "summary.csv",
        "compare-success.csv",
        "compare-pairs.csv",
        "compare-posthoc.csv",
        "compare-targets.csv",
        "compare-budget.csv",
        "compare-survival.csv",
        "compare-logrank.csv",
    ] {
        assert_eq!(
            without_wall(&merged.join(f)),
            without_wall(&single.join(f)),
            "{f}"
        );
    }
    assert!(merged.join("compare-cd.png").is_file());
    let meta = std::fs::read_to_string(merged.join("meta.json")).unwrap();
    assert!(
        meta.contains("\"status\": \"complete\"") && !meta.contains("\"shard\""),
        "{meta}"
    );

    // Refusals, each before anything is written.
    refused(
        bin().arg("merge").arg(d.join("m1")).args(&s[..3]),
        "shard 4/4 is missing",
    );
    refused(
        bin().arg("merge").arg(d.join("m2")).args(&s).arg(&s[0]),
        "given twice",
    );
    let other = d.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let o = shard(&other, 4, &["--seed", "7"]);
    refused(
        bin().arg("merge").arg(d.join("m3")).args(&s[..3]).arg(&o),
        "other settings",
    );
    refused(
        bin()
            .arg("merge")
            .arg(d.join("m4"))
            .args(&s[1..])
            .arg(&single),
        "not a shard",
    );
    // A row moved from shard 1 into shard 2.
    let r1 = std::fs::read_to_string(s[0].join("runs.csv")).unwrap();
    let moved = r1.lines().nth(1).unwrap();
    let mut r2 = std::fs::read_to_string(s[1].join("runs.csv")).unwrap();
    r2.push_str(moved);
    r2.push('\n');
    std::fs::write(s[1].join("runs.csv"), r2).unwrap();
    refused(
        bin().arg("merge").arg(d.join("m5")).args(&s),
        "belongs to shard 1",
    );
    for m in ["m1", "m2", "m3", "m4", "m5"] {
        assert!(!d.join(m).exists(), "{m} written");
    }
    refused(
        bin().args(["reproduce", "benchmark-9x9", "--quick", "--shard", "5/4"]),
        "--shard 5/4",
    );
}

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
            [
                "wall_ms",
                "cpu_ms",
                "ets_seconds",
                "ert_seconds",
                "cpu_seconds",
            ]
            .iter()
            .any(|w| header[i].contains(w))
        })
        .collect();
    // Rows of a comparison made on times (compare-posthoc.csv's, compare-survival.csv's and
    // compare-logrank.csv's seconds rows) differ from one execution to the next too.
    let timed = |l: &&str| {
        l.split(',')
            .any(|f| ["seconds", "cpu_seconds", "wall_seconds"].contains(&f))
    };
    text.lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || !timed(l))
        .map(|(_, l)| l)
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
    assert!(merged.join("compare-cd-seconds.png").is_file());
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

/// A copy of shard folder `from` (flat) at `to`, its runs.csv passed through `edit` (the
/// rows, header excluded, as lines).
fn edited_copy(from: &Path, to: &Path, edit: impl Fn(&mut Vec<String>)) -> PathBuf {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let text = std::fs::read_to_string(from.join("runs.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    edit(&mut lines);
    std::fs::write(to.join("runs.csv"), lines.join("\n") + "\n").unwrap();
    to.to_path_buf()
}

/// Sets field `i` of the first row (after the header) whose termination is `termination`.
fn edit_field(lines: &mut [String], termination: &str, i: usize, f: impl Fn(&str) -> String) {
    let row = lines
        .iter_mut()
        .skip(1)
        .find(|l| l.split(',').nth(10) == Some(termination))
        .unwrap();
    let mut fields: Vec<String> = row.split(',').map(String::from).collect();
    fields[i] = f(&fields[i]);
    *row = fields.join(",");
}

/// An edited value that contradicts the row's budget (generations 30 -> 29 at the generation
/// limit of 30) is refused by the checks; one they cannot see (best_fitness) is refused by
/// `--verify K`, which re-runs every K-th row; `--check` writes nothing.
#[test]
fn merge_refuses_edited_values_and_verify_reruns_rows() {
    let d = tmpdir("merge-edited");
    let s: Vec<PathBuf> = (1..=4).map(|k| shard(&d, k, &[])).collect();
    let o = run(bin().arg("merge").arg(d.join("c")).args(&s).arg("--check"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the 4 shards can be merged"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("c").exists());

    // The shards with one edited row, the others as they are.
    let with_edit = |name: &str, termination: &str, i: usize, f: fn(&str) -> String| {
        let j = (s.iter())
            .position(|p| {
                let t = std::fs::read_to_string(p.join("runs.csv")).unwrap();
                t.lines().any(|l| l.split(',').nth(10) == Some(termination))
            })
            .unwrap();
        let e = edited_copy(&s[j], &d.join(name), |l| edit_field(l, termination, i, f));
        let mut all = s.clone();
        all[j] = e;
        all
    };
    // generations (field 6) one below the limit, the run still said to stop at the limit.
    let e1 = with_edit("e1", "generation_limit", 6, |g| {
        (g.parse::<u64>().unwrap() - 1).to_string()
    });
    for check in [false, true] {
        let mut cmd = bin();
        cmd.arg("merge").arg(d.join("m1")).args(&e1);
        if check {
            cmd.arg("--check");
        }
        refused(
            &mut cmd,
            "not consistent (an edited row): termination generation_limit",
        );
    }
    // solved (field 5) taken away from a run that stopped because it solved its puzzle.
    let e2 = with_edit("e2", "solved", 5, |_| "0".into());
    refused(
        bin().arg("merge").arg(d.join("m2")).args(&e2),
        "termination solved, but solved 0",
    );
    // best_fitness (field 9) of the first row: consistent, so only a re-run finds it.
    let e3 = edited_copy(&s[0], &d.join("e3"), |l| {
        let mut f: Vec<String> = l[1].split(',').map(String::from).collect();
        f[9] = (f[9].parse::<f64>().unwrap() + 1.0).to_string();
        l[1] = f.join(",");
    });
    let mut with_e3 = vec![e3.clone()];
    with_e3.extend(s[1..].iter().cloned());
    ok(bin()
        .arg("merge")
        .arg(d.join("m3"))
        .args(&with_e3)
        .arg("--check"));
    // (No progress line in the one-line error, however slow the machine.)
    refused(
        bin()
            .arg("merge")
            .arg(d.join("m3"))
            .args(&with_e3)
            .args(["--verify", "1000"])
            .env("SUDOKU_LAB_PROGRESS_SECONDS", "100000"),
        "re-run rows not reproduced",
    );
    for m in ["m1", "m2", "m3"] {
        assert!(!d.join(m).exists(), "{m} written");
    }
    let o = ok(bin()
        .arg("merge")
        .arg(d.join("m4"))
        .args(&s)
        .args(["--verify", "1000"])
        .env("SUDOKU_LAB_PROGRESS_SECONDS", "100000"));
    assert!(stderr(&o).contains("re-ran 4 rows"), "{}", stderr(&o));
    assert!(d.join("m4/report.md").is_file());
}

//! Anytime data (`anytime = true` -> trajectories.csv): identical for any thread count, one
//! block per run that matches runs.csv, resumable after a crash, replayable.

mod common;
#[allow(unused_imports)]
use common::{bin, ok, run, stderr, tmpdir};

use std::path::{Path, PathBuf};

const SPEC: &str = r#"
id = "anytime"
title = "test"
master_seed = 11
runs = 3
quick_runs = 1
quick_max_generations = 10
anytime = true
puzzles = [{ id = "mk_easy" }, { id = "das_fig1" }]

[[algorithms]]
label = "ret-ga"
algorithm = "ret-ga"
max_generations = 1000000
max_evaluations = 20000

[[algorithms]]
label = "mk-ga"
algorithm = "mk-ga"
max_generations = 1000000
max_evaluations = 20000

[[algorithms]]
label = "reseda"
algorithm = "reseda"
max_generations = 1000000
max_evaluations = 20000

[[algorithms]]
label = "cso"
algorithm = "cso"
max_generations = 1000000
max_evaluations = 20000
"#;

fn spec(d: &Path) -> PathBuf {
    let p = d.join("spec.toml");
    std::fs::write(&p, SPEC).unwrap();
    p
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn trajectories_are_deterministic_and_match_the_runs() {
    let d = tmpdir("det");
    let s = spec(&d);
    for t in ["1", "2"] {
        ok(bin()
            .arg("run")
            .arg(&s)
            .args(["--threads", t, "--out"])
            .arg(d.join(t)));
    }
    let traj = read(&d.join("1/trajectories.csv"));
    assert_eq!(traj, read(&d.join("2/trajectories.csv")));
    // Every run has a block; penalties strictly fall, evaluations never fall; the last point
    // is at the run's final evaluation count when it improved there, and 0 exactly when solved.
    let runs = read(&d.join("1/runs.csv"));
    let mut blocks: std::collections::BTreeMap<(String, String, u64), Vec<(u64, u32)>> =
        Default::default();
    let mut lines = traj.lines();
    assert_eq!(
        lines.next(),
        Some("experiment,algorithm,puzzle,run,evaluations,penalty")
    );
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 6, "{l}");
        blocks
            .entry((f[1].into(), f[2].into(), f[3].parse().unwrap()))
            .or_default()
            .push((f[4].parse().unwrap(), f[5].parse().unwrap()));
    }
    let mut n = 0;
    for l in runs.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let key = (f[1].to_string(), f[2].to_string(), f[3].parse().unwrap());
        let pts = &blocks[&key];
        assert!(
            pts.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1 > w[1].1),
            "{key:?} {pts:?}"
        );
        let evaluations: u64 = f[7].parse().unwrap();
        let last = pts.last().unwrap();
        assert!(last.0 <= evaluations);
        assert_eq!(last.1 == 0, f[5] == "1", "{key:?}: {pts:?} vs {l}");
        if f[5] == "1" {
            assert_eq!(
                last.0, evaluations,
                "a solved run ends at its solving evaluation"
            );
        }
        n += 1;
    }
    assert_eq!(n, blocks.len());
    assert_eq!(n, 4 * 2 * 3);
    let o = ok(bin().arg("replay").arg(d.join("1")));
    assert!(String::from_utf8_lossy(&o.stdout).contains("24 identical, 0 different"));
}

#[test]
fn a_crash_mid_block_resumes_to_the_same_trajectories() {
    let d = tmpdir("resume");
    let s = spec(&d);
    let full = d.join("full");
    ok(bin().arg("run").arg(&s).arg("--out").arg(&full));
    // Crash after 7 runs: runs.csv has 7 rows, trajectories.csv their blocks plus half of the
    // 8th run's block (its row was never written) and a torn line.
    let part = d.join("part");
    std::fs::create_dir_all(&part).unwrap();
    let runs = read(&full.join("runs.csv"));
    let kept: Vec<&str> = runs.lines().take(8).collect();
    std::fs::write(part.join("runs.csv"), kept.join("\n") + "\n").unwrap();
    let traj = read(&full.join("trajectories.csv"));
    let keys: Vec<String> = kept[1..]
        .iter()
        .map(|l| l.split(',').take(4).collect::<Vec<_>>().join(","))
        .collect();
    let eighth: String = runs
        .lines()
        .nth(8)
        .unwrap()
        .split(',')
        .take(4)
        .collect::<Vec<_>>()
        .join(",");
    let mut cut = String::from("experiment,algorithm,puzzle,run,evaluations,penalty\n");
    for l in traj.lines().skip(1) {
        let k = l.split(',').take(4).collect::<Vec<_>>().join(",");
        if keys.contains(&k) {
            cut.push_str(l);
            cut.push('\n');
        }
    }
    let first_of_eighth = traj
        .lines()
        .find(|l| l.starts_with(&format!("{eighth},")))
        .unwrap();
    cut.push_str(first_of_eighth);
    cut.push('\n');
    cut.push_str(&first_of_eighth[..first_of_eighth.len() - 2]);
    std::fs::write(part.join("trajectories.csv"), cut).unwrap();
    std::fs::copy(full.join("meta.json"), part.join("meta.json")).unwrap();
    ok(bin()
        .arg("run")
        .arg(&s)
        .arg("--out")
        .arg(&part)
        .arg("--resume"));
    assert_eq!(read(&part.join("trajectories.csv")), traj);
    // A missing trajectories.csv beside finished runs is refused, not silently rebuilt.
    std::fs::remove_file(part.join("trajectories.csv")).unwrap();
    let o = bin()
        .arg("run")
        .arg(&s)
        .arg("--out")
        .arg(&part)
        .arg("--resume")
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("trajectories.csv") && err.lines().count() == 1,
        "{err}"
    );
}

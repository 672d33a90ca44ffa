//! Fault tests: a protocol killed with SIGKILL at many points (while runs execute, while
//! runs.csv and trajectories.csv are rewritten, while reports and charts are written) and then
//! resumed ends with the files of an uninterrupted run (wall times aside).

mod common;
#[allow(unused_imports)]
use common::{bin, ok, run, stderr, tmpdir};

use std::path::Path;

use std::time::Instant;

const SPEC: &str = r#"
id = "faults"
title = "kill -9 test"
master_seed = 9
runs = 3
quick_runs = 1
quick_max_generations = 10
anytime = true
report = "compare"
puzzles = [
  { id = "easy", file = "PUZZLES/kennett/easy.txt", all = true, take = 4, label = "easy" },
  { id = "mk_1star", label = "table1" },
]

[[algorithms]]
label = "sa"
algorithm = "lewis-sa"
max_generations = 100000000
max_evaluations = 300000

[[algorithms]]
label = "mk"
algorithm = "mk-ga"
max_generations = 100000000
max_evaluations = 100000

[[algorithms]]
label = "reseda"
algorithm = "reseda"
max_generations = 100000000
max_evaluations = 100000
params = { attempts = 1000 }
"#;

/// The file without the columns whose header contains one of `drop` (wall times).
fn without(path: &Path, drop: &[&str]) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep: Vec<bool> = header
        .iter()
        .map(|h| !drop.iter().any(|d| h.contains(d)))
        .collect();
    let strip = |l: &str| {
        l.split(',')
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(f, _)| f)
            .collect::<Vec<_>>()
            .join(",")
    };
    std::iter::once(strip(&header.join(",")))
        .chain(lines.map(strip))
        .collect::<Vec<_>>()
        .join("\n")
}

fn compare_folders(a: &Path, b: &Path) {
    for (f, drop) in [
        ("runs.csv", &["wall_ms", "cpu_ms"][..]),
        ("trajectories.csv", &[][..]),
        ("summary.csv", &["wall_ms", "ets_seconds"][..]),
        (
            "compare-success.csv",
            &["ert_seconds", "ert_cpu_seconds"][..],
        ),
        ("compare-pairs.csv", &["cpu_seconds"][..]),
        ("compare-targets.csv", &[][..]),
        ("compare-budget.csv", &[][..]),
    ] {
        assert_eq!(without(&a.join(f), drop), without(&b.join(f), drop), "{f}");
    }
    for f in [
        "compare-ecdf.svg",
        "compare-budget.png",
        "report.md",
        "meta.json",
    ] {
        assert!(b.join(f).is_file(), "{f} missing");
    }
    let meta = std::fs::read_to_string(b.join("meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"complete\""), "{meta}");
    // No temporary file survives.
    for e in std::fs::read_dir(b).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains(".tmp"), "leftover {name}");
    }
}

#[test]
fn sigkill_anywhere_then_resume_gives_the_uninterrupted_files() {
    let d = tmpdir("kill");
    common::copy_puzzles(&d, "puzzles/kennett/easy.txt");
    let spec = d.join("spec.toml");
    std::fs::write(&spec, SPEC.replace("PUZZLES", "puzzles")).unwrap();
    let full = d.join("full");
    let t = Instant::now();
    let o = bin()
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(&full)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let total = t.elapsed();
    // Kill points spread over the whole protocol, the last ones in its final second (the
    // rewrite of runs.csv and trajectories.csv, the reports and the charts). Where a kill
    // lands depends on the machine's load; what is checked holds wherever it lands (a kill
    // after the end leaves a complete folder, which the resume keeps), and no duration is
    // asserted.
    let fractions = [0.1, 0.4, 0.7, 0.9, 0.97, 0.995];
    for (i, f) in fractions.iter().enumerate() {
        let out = d.join(format!("k{i}"));
        let mut child = bin()
            .arg("run")
            .arg(&spec)
            .arg("--out")
            .arg(&out)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(total.mul_f64(*f));
        let _ = child.kill(); // SIGKILL on Unix
        let _ = child.wait();
        // Resume until complete (a kill before meta.json exists leaves nothing to resume).
        let mut args = vec![
            "run".to_string(),
            spec.display().to_string(),
            "--out".into(),
            out.display().to_string(),
        ];
        if out.join("runs.csv").exists() {
            args.push("--resume".into());
        } else if out.exists() {
            args.push("--fresh".into());
        }
        let o = bin().args(&args).output().unwrap();
        assert!(
            o.status.success(),
            "kill at {f} of {total:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        compare_folders(&full, &out);
    }
    let _ = std::fs::remove_dir_all(&d);
}

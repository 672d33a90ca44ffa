//! `sudoku-lab instances`: the phase-transition family of Lewis (2007) and Lloyd & Amos
//! (2020). The committed sets (experiments/puzzles/lewis/) are remade byte for byte (all of
//! 9x9 and a few files of the larger orders, to stay fast), every committed file has the
//! family's givens and its uniqueness counts are those of uniqueness.csv, the spec loader
//! reads the files, and every bad flag is one line, exit 2, nothing written.

mod common;
use common::{bin, ok, run, stderr, tmpdir};

use std::path::{Path, PathBuf};
use sudoku_core::instances::{Fraction, GivenRule};
use sudoku_core::parse::parse_puzzles;

fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments/puzzles/lewis")
}

fn sweep() -> Vec<String> {
    Fraction::sweep().iter().map(|f| f.to_string()).collect()
}

/// Make `--size size --fraction f` of the committed set into `d`, return its bytes.
fn remake(d: &Path, size: usize, f: &str) -> Vec<u8> {
    let out = d.join(format!("{size}x{size}-{f}.txt"));
    ok(bin()
        .args(["instances", "--size", &size.to_string(), "--fraction", f])
        .args(["--count", "10", "--seed", "1", "--out"])
        .arg(&out));
    std::fs::read(out).unwrap()
}

#[test]
fn committed_sets_are_remade_byte_for_byte() {
    let d = tmpdir("lewis-remake");
    let mut files: Vec<(usize, String)> = sweep().into_iter().map(|f| (9, f)).collect();
    files.extend(
        [(16, "0.20"), (16, "0.60"), (25, "0.05"), (25, "0.95")].map(|(s, f)| (s, f.into())),
    );
    for (size, f) in files {
        let name = format!("{size}x{size}-{f}.txt");
        let want = std::fs::read(committed().join(&name)).unwrap();
        assert!(
            remake(&d, size, &f) == want,
            "{name} differs from the committed file"
        );
    }
}

/// Every committed file: the command that makes it on its first line, 10 instances of the
/// file's order, each with exactly ceil(fraction x cells) givens; and the counts of its
/// comment lines' verdicts are uniqueness.csv's row.
#[test]
fn committed_sets_have_the_family_givens_and_counts() {
    let csv = std::fs::read_to_string(committed().join("uniqueness.csv")).unwrap();
    let mut rows = csv.lines();
    assert_eq!(
        rows.next(),
        Some("size,fraction,instances,unique,multiple,unknown")
    );
    let mut seen = 0;
    for size in [9usize, 16, 25] {
        for f in sweep() {
            let name = format!("{size}x{size}-{f}.txt");
            let text = std::fs::read_to_string(committed().join(&name)).unwrap();
            let head = format!("# sudoku-lab instances --size {size} --fraction {f} --count 10 --seed 1 --grid solver+symmetries --keep ceil");
            assert_eq!(text.lines().next(), Some(head.as_str()), "{name}");
            let fraction: Fraction = f.parse().unwrap();
            let want = GivenRule::Ceil.exact_count(fraction, size * size).unwrap();
            let ps = parse_puzzles(&text, &name).unwrap();
            assert_eq!(ps.len(), 10, "{name}");
            for p in &ps {
                assert_eq!((p.geometry().n(), p.givens()), (size, want), "{name}");
            }
            let count = |w: &str| {
                let tail = format!("solution {w}");
                text.lines()
                    .filter(|l| l.starts_with("# instance ") && l.ends_with(&tail))
                    .count()
            };
            let row = format!(
                "{size},{f},10,{},{},{}",
                count("unique"),
                count("multiple"),
                count("unknown")
            );
            assert_eq!(rows.next(), Some(row.as_str()), "{name}");
            seen += 1;
        }
    }
    assert_eq!((seen, rows.next()), (60, None));
}

/// A spec reads a set with `all = true` (its own copy, as user specs do) and runs it.
#[test]
fn a_spec_runs_a_set() {
    let d = tmpdir("lewis-spec");
    common::copy_puzzles(&d, "puzzles/lewis/9x9-0.40.txt");
    let spec = d.join("spec.toml");
    std::fs::write(
        &spec,
        r#"
id = "lewis-set"
title = "a Lewis family set"
master_seed = 1
runs = 1
quick_runs = 1
quick_max_generations = 1
puzzles = [{ id = "p40", file = "puzzles/lewis/9x9-0.40.txt", all = true }]

[[algorithms]]
label = "sa"
algorithm = "lewis-sa"
max_generations = 2
"#,
    )
    .unwrap();
    let out = d.join("out");
    ok(bin().arg("run").arg(&spec).arg("--out").arg(&out));
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert_eq!(runs.lines().count(), 1 + 10, "{runs}");
    assert!(runs.contains("p40-0010"));
}

/// The flags: what they write (the options' givens, determinism by seed, the table on stdout
/// with --out and on stderr without), and every bad value refused in one line, exit 2.
#[test]
fn instances_flags() {
    let d = tmpdir("lewis-flags");
    let make = |args: &[&str]| {
        let o = ok(bin()
            .args(["instances", "--size", "9", "--count", "4"])
            .args(args));
        (String::from_utf8_lossy(&o.stdout).into_owned(), stderr(&o))
    };
    let (a, table) = make(&["--fraction", "0.45", "--seed", "3"]);
    assert_eq!(a, make(&["--fraction", "0.45", "--seed", "3"]).0);
    assert_ne!(a, make(&["--fraction", "0.45", "--seed", "4"]).0);
    assert!(table.contains("4 instances: "), "{table}");
    let givens = |text: &str| -> Vec<usize> {
        parse_puzzles(text, "x")
            .unwrap()
            .iter()
            .map(|p| p.givens())
            .collect()
    };
    assert_eq!(givens(&a), [37; 4]);
    assert_eq!(
        givens(&make(&["--fraction", "0.45", "--keep", "round"]).0),
        [36; 4]
    );
    let coins = givens(&make(&["--fraction", "0.5", "--keep", "bernoulli"]).0);
    assert!(coins.iter().any(|&g| g != coins[0]), "{coins:?}");
    for grid in ["solver", "pattern+symmetries"] {
        let (t, _) = make(&["--fraction", "0.3", "--grid", grid]);
        assert!(t.starts_with("# sudoku-lab instances --size 9 --fraction 0.30 --count 4"));
        assert!(t
            .lines()
            .next()
            .unwrap()
            .contains(&format!("--grid {grid} ")));
    }
    let out = d.join("set.txt");
    let o = ok(bin()
        .args([
            "instances",
            "--size",
            "16",
            "--fraction",
            "0.7",
            "--count",
            "2",
            "--out",
        ])
        .arg(&out));
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 instances: "));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(
        "# instance 2: order 4 (16x16), fraction 0.70, seed 1, index 2, 180 givens, solution "
    ));
    let bad: [&[&str]; 7] = [
        &["--size", "9", "--fraction", "1"],
        &["--size", "9", "--fraction", "0.95x"],
        &["--size", "9", "--fraction", "0.1234567"],
        &["--size", "7", "--fraction", "0.5"],
        &["--size", "9", "--fraction", "0.5", "--count", "0"],
        &["--size", "9", "--fraction", "0.5", "--keep", "coins"],
        &["--size", "9"],
    ];
    for args in bad {
        let target = d.join("bad.txt");
        let o = run(bin().arg("instances").args(args).arg("--out").arg(&target));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!target.exists(), "{args:?}");
    }
    // A file that cannot be written: one line, exit 2.
    let o = run(bin()
        .args([
            "instances",
            "--size",
            "9",
            "--fraction",
            "0.5",
            "--count",
            "1",
        ])
        .args(["--out", "/dev/full"]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

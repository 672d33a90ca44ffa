//! `sudoku-lab confirm-seed FIRST SECOND`: a compare report's answers checked at a second
//! master seed, and every pair of folders that is not one protocol at two seeds refused.

mod common;
use common::{bin, ok, run, stderr, tmpdir};
use std::path::Path;

const SPEC: &str = r#"
id = "seeds"
title = "two seeds"
master_seed = 5
runs = 6
quick_runs = 1
quick_max_generations = 10
report = "compare"
puzzles = [{ id = "mk_easy", label = "easy" }, { id = "mk_1star", label = "easy" }, { id = "das_fig1", label = "other" }]

[[algorithms]]
label = "sa"
algorithm = "lewis-sa"
max_generations = 1000000
max_evaluations = 3000000

[[algorithms]]
label = "cso"
algorithm = "cso"
max_generations = 100000
max_evaluations = 3000
"#;

fn rows(p: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(p).unwrap();
    let mut out = vec![r.headers().unwrap().iter().map(String::from).collect()];
    for rec in r.records() {
        out.push(rec.unwrap().iter().map(String::from).collect());
    }
    out
}

/// The count in `sentence` just before `words`.
fn count_before(sentence: &str, words: &str) -> usize {
    let head = &sentence[..sentence.find(words).unwrap()];
    let n = head.split_whitespace().last().unwrap();
    n.parse().unwrap_or_else(|_| panic!("{n:?} in {sentence}"))
}

#[test]
fn the_answers_of_one_seed_are_checked_at_another() {
    let d = tmpdir("seeds");
    let spec = d.join("spec.toml");
    std::fs::write(&spec, SPEC).unwrap();
    let (first, second) = (d.join("first"), d.join("second"));
    ok(bin().arg("run").arg(&spec).arg("--out").arg(&first));
    ok(bin()
        .arg("run")
        .arg(&spec)
        .args(["--seed", "6", "--out"])
        .arg(&second));
    let o = ok(bin().arg("confirm-seed").arg(&first).arg(&second));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let sentence = out.lines().next().unwrap();
    assert!(
        sentence.starts_with("At master seed 6, ") && sentence.contains("at master seed 5"),
        "{out}"
    );
    let table = rows(&second.join("confirmation.csv"));
    let col = |n: &str| table[0].iter().position(|h| h == n).unwrap();
    let verdicts = ["held", "not found again", "reversed", "new"];
    let count = |v: &str| table[1..].iter().filter(|r| r[col("verdict")] == v).count();
    for r in &table[1..] {
        assert!(verdicts.contains(&r[col("verdict")].as_str()), "{r:?}");
        // A row is an answer of one seed at least.
        let none = |s: &str| s == "no difference found" || s.starts_with("no verdict");
        assert!(
            !(none(&r[col("first_seed")]) && none(&r[col("second_seed")])),
            "{r:?}"
        );
    }
    // The sentence is the table's count.
    let given = count("held") + count("not found again") + count("reversed");
    assert!(sentence.contains(&format!("{} of the {given} answers", count("held"))));
    assert_eq!(
        count_before(sentence, "are not found again"),
        count("not found again")
    );
    assert_eq!(count_before(sentence, "are reversed"), count("reversed"));
    assert_eq!(
        count_before(sentence, "answers the first does not"),
        count("new")
    );
    // The pooled scope and both puzzle sets are there; the report opens with the sentence.
    for scope in ["all", "easy"] {
        assert!(
            table[1..].iter().any(|r| r[col("scope")] == scope),
            "{scope}"
        );
    }
    let md = std::fs::read_to_string(second.join("confirmation.md")).unwrap();
    assert!(md.lines().nth(2) == Some(sentence), "{md}");
    // A compare report has no leaders, and its confirmation does not speak of them.
    assert!(!md.contains("leader"), "{md}");
    // Checked at itself, or against the same seed: refused, nothing written.
    let _ = std::fs::remove_file(first.join("confirmation.csv"));
    for (a, b, says) in [
        (&first, &first, "the same master seed 5"),
        (&first, &d.join("none"), "cannot read"),
    ] {
        let o = run(bin().arg("confirm-seed").arg(a).arg(b));
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert_eq!(stderr(&o).trim().lines().count(), 1, "{}", stderr(&o));
        assert!(!b.join("confirmation.csv").exists());
    }
}

#[test]
fn folders_of_other_protocols_or_unfinished_ones_are_refused() {
    let d = tmpdir("seeds-refused");
    let spec = d.join("spec.toml");
    std::fs::write(&spec, SPEC).unwrap();
    let other = d.join("other.toml");
    std::fs::write(&other, SPEC.replace("runs = 6", "runs = 5")).unwrap();
    let first = d.join("first");
    ok(bin().arg("run").arg(&spec).arg("--out").arg(&first));
    let fewer = d.join("fewer");
    ok(bin()
        .arg("run")
        .arg(&other)
        .args(["--seed", "6", "--out"])
        .arg(&fewer));
    let running = d.join("running");
    ok(bin()
        .arg("run")
        .arg(&spec)
        .args(["--seed", "7", "--out"])
        .arg(&running));
    let meta = running.join("meta.json");
    let text = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(
        &meta,
        text.replace("\"status\": \"complete\"", "\"status\": \"running\""),
    )
    .unwrap();
    // A folder without CPU times (written before runs.csv had them): its times are wall
    // seconds, which are not the second folder's CPU seconds.
    let wall = d.join("wall");
    ok(bin()
        .arg("run")
        .arg(&spec)
        .args(["--seed", "8", "--out"])
        .arg(&wall));
    let runs = wall.join("runs.csv");
    let mut reader = csv::Reader::from_path(&runs).unwrap();
    let header = reader.headers().unwrap().clone();
    let cpu = header.iter().position(|h| h == "cpu_ms").unwrap();
    let mut w = csv::Writer::from_path(d.join("runs.csv")).unwrap();
    w.write_record(&header).unwrap();
    for r in reader.records() {
        let r = r.unwrap();
        let blanked = r
            .iter()
            .enumerate()
            .map(|(i, c)| if i == cpu { "" } else { c });
        w.write_record(blanked).unwrap();
    }
    w.flush().unwrap();
    std::fs::rename(d.join("runs.csv"), &runs).unwrap();
    for (b, says) in [
        (&fewer, "not one protocol at two seeds: other specs"),
        (&running, "status is not \"complete\""),
        (&wall, "in CPU seconds and"),
    ] {
        let o = run(bin().arg("confirm-seed").arg(&first).arg(b));
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert_eq!(stderr(&o).trim().lines().count(), 1, "{}", stderr(&o));
        assert!(!b.join("confirmation.csv").exists());
    }
}

/// Every committed `results/NAME-seed2/confirmation.*` is what `confirm-seed results/NAME
/// results/NAME-seed2` writes today (run over a copy of the second folder's meta.json,
/// runs.csv and, with anytime data, trajectories.csv, so the repository is not touched).
#[test]
fn committed_confirmations_are_current() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let mut checked = 0;
    for e in std::fs::read_dir(&results).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(first) = name.strip_suffix("-seed2") else {
            continue;
        };
        if !e.path().join("confirmation.md").is_file() {
            continue;
        }
        let copy = tmpdir(&format!("confirm-{name}"));
        for f in ["meta.json", "runs.csv", "trajectories.csv"] {
            if e.path().join(f).is_file() {
                std::fs::copy(e.path().join(f), copy.join(f)).unwrap();
            }
        }
        ok(bin()
            .arg("confirm-seed")
            .arg(results.join(first))
            .arg(&copy));
        for f in ["confirmation.csv", "confirmation.md"] {
            let want = std::fs::read_to_string(e.path().join(f)).unwrap();
            let got = std::fs::read_to_string(copy.join(f)).unwrap();
            assert!(want == got, "results/{name}/{f} is stale: run `sudoku-lab confirm-seed results/{first} results/{name}`");
        }
        checked += 1;
    }
    assert!(checked >= 4, "{checked} confirmations checked");
}

//! Integrity of the files a protocol keeps: a duplicated
//! runs.csv row, an empty or header-less runs.csv, a tampered or broken shard, a link or FIFO
//! in a results folder. Each is refused in one line naming the file (and line) before anything
//! is run or written, or repaired when nothing is lost (an empty runs.csv gets its header).

mod common;
#[allow(unused_imports)]
use common::{bin, ok, run, stderr, tmpdir};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SPEC: &str = r#"
id = "integrity"
title = "integrity test"
master_seed = 5
runs = 3
quick_runs = 1
quick_max_generations = 10
anytime = true

[[puzzles]]
id = "mk_easy"

[[puzzles]]
id = "mk_1star"

[[algorithms]]
label = "mk"
algorithm = "mk-ga"
max_generations = 30

[[algorithms]]
label = "sa"
algorithm = "lewis-sa"
max_generations = 100000000
max_evaluations = 20000
"#;

/// The spec in a fresh folder.
fn spec(name: &str) -> (PathBuf, PathBuf) {
    let d = tmpdir(name);
    let spec = d.join("spec.toml");
    std::fs::write(&spec, SPEC).unwrap();
    (d, spec)
}

/// `run SPEC --out OUT` with `extra` flags.
fn protocol(spec: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut c = bin();
    c.arg("run").arg(spec).arg("--out").arg(out).args(extra);
    c
}

/// Exit 2 and an `error:` line (the only one) holding every `needle`.
fn refused(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(errors[0].contains(n), "{n:?} not in {err}");
    }
}

/// runs.csv without its wall_ms and cpu_ms columns.
fn rows(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.drain(12..14); // wall_ms, cpu_ms
            f.join(",")
        })
        .collect()
}

/// Item 1: a run recorded twice is refused by `--resume`, `replay` and `export` (one reader,
/// one check), naming the file, the line of the second row and the line of the first.
#[test]
fn a_duplicated_row_is_refused_by_every_reader() {
    let (d, spec) = spec("dup");
    let out = d.join("out");
    ok(&mut protocol(&spec, &out, &[]));
    let runs = out.join("runs.csv");
    let mut text = std::fs::read_to_string(&runs).unwrap();
    let n = text.lines().count();
    let third = text.lines().nth(2).unwrap().to_string();
    text.push_str(&third);
    text.push('\n');
    std::fs::write(&runs, &text).unwrap();
    let where_ = format!("runs.csv:{}: duplicate row", n + 1);
    let o = run(&mut protocol(&spec, &out, &["--resume"]));
    refused(&o, &[&where_, "mk/mk_easy/1", "already recorded at line 3"]);
    assert_eq!(std::fs::read_to_string(&runs).unwrap(), text, "nothing run");
    let o = run(bin().arg("replay").arg(&out));
    refused(&o, &[&where_, "line 3"]);
    let o = run(bin()
        .args(["export", "--format", "ioh"])
        .arg(&out)
        .arg("--out")
        .arg(d.join("ioh")));
    refused(&o, &[&where_]);
    assert!(!d.join("ioh").exists());
}

/// Item 2: an empty runs.csv (created, never written) gets its header before the first run,
/// and the protocol ends with the rows of an uninterrupted one; a file of rows without the
/// header is refused before any run.
#[test]
fn an_empty_runs_csv_gets_its_header_and_a_headerless_one_is_refused() {
    let (d, spec) = spec("empty");
    let whole = d.join("whole");
    ok(&mut protocol(&spec, &whole, &[]));
    let out = d.join("out");
    ok(&mut protocol(&spec, &out, &[]));
    std::fs::write(out.join("runs.csv"), "").unwrap();
    std::fs::write(
        out.join("trajectories.csv"),
        "experiment,algorithm,puzzle,run,evaluations,penalty\n",
    )
    .unwrap();
    let o = ok(&mut protocol(&spec, &out, &["--resume"]));
    assert!(
        stderr(&o).contains("empty file: header written"),
        "{}",
        stderr(&o)
    );
    assert_eq!(rows(&out.join("runs.csv")), rows(&whole.join("runs.csv")));
    // And a later --resume is accepted (before: "unexpected header" for ever).
    ok(&mut protocol(&spec, &out, &["--resume"]));

    let text = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let headless: String = text.split_inclusive('\n').skip(1).take(3).collect();
    std::fs::write(out.join("runs.csv"), &headless).unwrap();
    let o = run(&mut protocol(&spec, &out, &["--resume"]));
    refused(&o, &["runs.csv", "unexpected header"]);
    assert_eq!(
        std::fs::read_to_string(out.join("runs.csv")).unwrap(),
        headless,
        "no run appended"
    );
    // A reader (replay) of an empty runs.csv says so instead of finding nothing.
    std::fs::write(out.join("runs.csv"), "").unwrap();
    refused(
        &run(bin().arg("replay").arg(&out)),
        &["runs.csv", "no header line"],
    );
}

/// Two shards of the spec.
fn shards(d: &Path, spec: &Path) -> Vec<PathBuf> {
    (1..=2)
        .map(|k| {
            let s = d.join(format!("s{k}"));
            ok(&mut protocol(spec, &s, &["--shard", &format!("{k}/2")]));
            s
        })
        .collect()
}

fn merge(out: &Path, shards: &[PathBuf]) -> Output {
    run(bin().arg("merge").arg(out).args(shards))
}

/// The data line of a shard's runs.csv at `line` (1 = header) with field `field` replaced.
fn edit_field(path: &Path, line: usize, field: usize, value: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let edited: String = text
        .split_inclusive('\n')
        .enumerate()
        .map(|(i, l)| {
            if i + 1 != line {
                return l.to_string();
            }
            let mut f: Vec<&str> = l.trim_end().split(',').collect();
            f[field] = value;
            format!("{}\n", f.join(","))
        })
        .collect();
    std::fs::write(path, &edited).unwrap();
    text
}

/// Folders in `d` whose name starts with `.` (a merge's staging folder left behind).
fn hidden(d: &Path) -> Vec<String> {
    std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// Item 3 (and 1 for merge inputs): a shard row whose seed was edited, and a duplicated shard
/// row, are refused naming the shard's file and line; nothing is written.
#[test]
fn a_tampered_shard_is_refused_naming_its_file_and_line() {
    let (d, spec) = spec("tampered");
    let s = shards(&d, &spec);
    let out = d.join("merged");
    let runs1 = s[0].join("runs.csv");

    let original = edit_field(&runs1, 2, 4, "12345");
    refused(
        &merge(&out, &s),
        &["s1/runs.csv:2", "has seed 12345, the plan's is"],
    );
    assert!(!out.exists(), "nothing written to OUT");
    std::fs::write(&runs1, &original).unwrap();

    let second = original.lines().nth(1).unwrap();
    std::fs::write(&runs1, format!("{original}{second}\n")).unwrap();
    let last = original.lines().count() + 1;
    refused(
        &merge(&out, &s),
        &[&format!("s1/runs.csv:{last}: duplicate row"), "line 2"],
    );
    assert!(!out.exists() && hidden(&d).is_empty(), "nothing written");
}

/// Item 4: a shard whose trajectories lack a run is refused naming the shard's file, before
/// anything is written (before: OUT was left with runs.csv and a failed meta.json, and the
/// retry was refused); the same command works once the shard is repaired, and a merge into
/// an existing OUT is refused and leaves it alone.
#[test]
fn a_failed_merge_writes_nothing_and_the_retry_works() {
    let (d, spec) = spec("retry");
    let s = shards(&d, &spec);
    let out = d.join("merged");
    let traj = s[1].join("trajectories.csv");
    let t = std::fs::read_to_string(&traj).unwrap();
    let victim: Vec<&str> = t.lines().nth(1).unwrap().split(',').take(4).collect();
    let prefix = format!("{},", victim.join(","));
    let cut: String = t
        .split_inclusive('\n')
        .filter(|l| !l.starts_with(&prefix))
        .collect();
    std::fs::write(&traj, cut).unwrap();
    let run = format!(
        "run {}/{}/{} has no trajectory",
        victim[1], victim[2], victim[3]
    );
    refused(&merge(&out, &s), &["s2/trajectories.csv", &run]);
    assert!(!out.exists(), "nothing written to OUT");
    assert!(hidden(&d).is_empty(), "staging left: {:?}", hidden(&d));
    std::fs::write(&traj, t).unwrap();

    let o = merge(&out, &s);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("results in {}", out.display())));
    assert!(out.join("summary.csv").is_file() && hidden(&d).is_empty());
    let whole = d.join("whole");
    ok(&mut protocol(&spec, &whole, &[]));
    assert_eq!(rows(&out.join("runs.csv")), rows(&whole.join("runs.csv")));
    // OUT now exists: refused, and left as it is.
    refused(&merge(&out, &s), &["merged", "not an empty folder"]);
    assert!(out.join("summary.csv").is_file());
}

/// An OUT that is a link to an empty folder (say, on a larger disk) is merged into the folder
/// it points to, as `run --out` writes through such a link; the link stays a link. A link to
/// a folder that is not empty, or to nothing, is refused naming the link and its target.
#[cfg(unix)]
#[test]
fn a_merge_into_a_link_to_an_empty_folder_fills_that_folder() {
    let (d, spec) = spec("linked-out");
    let s = shards(&d, &spec);
    let disk = d.join("disk");
    std::fs::create_dir_all(disk.join("merged")).unwrap();
    let out = d.join("merged");
    std::os::unix::fs::symlink(disk.join("merged"), &out).unwrap();

    let dangling = d.join("dangling");
    std::os::unix::fs::symlink(disk.join("nothing"), &dangling).unwrap();
    refused(&merge(&dangling, &s), &["dangling", "a link to", "nothing"]);

    let check = run(bin().arg("merge").arg(&out).args(&s).arg("--check"));
    assert!(check.status.success(), "{}", stderr(&check));
    let o = merge(&out, &s);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&out).unwrap().is_symlink());
    assert!(disk.join("merged/summary.csv").is_file());
    assert!(hidden(&d).is_empty() && hidden(&disk).is_empty());
    let whole = d.join("whole");
    ok(&mut protocol(&spec, &whole, &[]));
    assert_eq!(rows(&out.join("runs.csv")), rows(&whole.join("runs.csv")));
    // Now the folder it points to is not empty: refused, naming both.
    refused(
        &merge(&out, &s),
        &["merged", "a link to", "disk/merged", "not an empty folder"],
    );
}

/// Item 8: a link (or FIFO) under the name of any file the protocol appends to or replaces is
/// refused, naming it, before any run; the file it points to is left alone.
#[cfg(unix)]
#[test]
fn links_and_special_files_in_a_results_folder_are_refused() {
    let (d, spec) = spec("links");
    let out = d.join("out");
    ok(&mut protocol(&spec, &out, &[]));
    let outside = d.join("outside.csv");
    for name in [
        "runs.csv",
        "trajectories.csv",
        "meta.json",
        "summary.csv",
        ".sudoku-lab.lock",
    ] {
        let path = out.join(name);
        // The link points to a copy of the file (or a line), as in the probe: an append
        // through it would pass every other check.
        let kept = std::fs::read(&path).ok();
        let copy = kept.clone().unwrap_or(b"outside\n".to_vec());
        std::fs::write(&outside, &copy).unwrap();
        let _ = std::fs::remove_file(&path);
        std::os::unix::fs::symlink(&outside, &path).unwrap();
        let o = run(&mut protocol(&spec, &out, &["--resume"]));
        refused(&o, &[name, "a symbolic link, not a regular file"]);
        assert_eq!(
            std::fs::read(&outside).unwrap(),
            copy,
            "{name}: written through"
        );
        std::fs::remove_file(&path).unwrap();
        if let Some(k) = kept {
            std::fs::write(&path, k).unwrap();
        }
    }
    let fifo = out.join("summary.csv");
    std::fs::remove_file(&fifo).unwrap();
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let o = run(&mut protocol(&spec, &out, &["--resume"]));
    refused(&o, &["summary.csv", "a FIFO, socket or device"]);
    std::fs::remove_file(&fifo).unwrap();
    ok(&mut protocol(&spec, &out, &["--resume"]));
}

/// Item 14: `reproduce` lists the files it wrote and counts the published cells the
/// comparison it wrote agrees with; a folder with runs already is refused with the `--out`
/// form of the command.
#[test]
fn reproduce_lists_its_files_and_the_agreement_and_hints_at_out() {
    let d = tmpdir("agreement");
    let out = d.join("r");
    let o = ok(bin()
        .args(["reproduce", "reseda-table2", "--quick", "--out"])
        .arg(&out));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let wrote = stdout
        .lines()
        .find(|l| l.starts_with("wrote "))
        .unwrap_or_else(|| panic!("{stdout}"));
    for f in [
        "comparison.csv",
        "meta.json",
        "report.md",
        "runs.csv",
        "summary.csv",
    ] {
        assert!(wrote.contains(f), "{wrote}");
    }
    let mut r = csv::Reader::from_path(out.join("comparison.csv")).unwrap();
    let col = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "verdict")
        .unwrap();
    let verdicts: Vec<String> = r.records().map(|x| x.unwrap()[col].to_string()).collect();
    let same = verdicts
        .iter()
        .filter(|v| v.starts_with("no significant difference"))
        .count();
    let differ = verdicts.iter().filter(|v| v.starts_with("differs")).count();
    let line = format!(
        "{same} of {} tested published cells: no significant difference",
        same + differ
    );
    assert!(stdout.contains(&line), "{line:?} not in {stdout}");
    assert!(stdout.contains(&format!("{differ} differ")), "{stdout}");

    let o = run(bin()
        .args(["reproduce", "reseda-table2", "--quick", "--out"])
        .arg(&out));
    refused(
        &o,
        &[
            "runs.csv exists",
            "sudoku-lab reproduce reseda-table2 --quick --out DIR",
        ],
    );
}

/// `--resume` takes no row on trust either: a row whose seed was edited, or a run the plan
/// does not have, is refused naming the file and line before any run (before: the edited row
/// was kept as the run, and a foreign row was silently carried along).
#[test]
fn resume_refuses_an_edited_or_foreign_row() {
    let (d, spec) = spec("resume-rows");
    let out = d.join("out");
    ok(&mut protocol(&spec, &out, &[]));
    let runs = out.join("runs.csv");
    let before = std::fs::read_to_string(&runs).unwrap();

    let original = edit_field(&runs, 3, 4, "12345");
    refused(
        &run(&mut protocol(&spec, &out, &["--resume"])),
        &["runs.csv:3", "has seed 12345, the plan's is"],
    );
    std::fs::write(&runs, &original).unwrap();

    edit_field(&runs, 3, 3, "99");
    refused(
        &run(&mut protocol(&spec, &out, &["--resume"])),
        &["runs.csv:3", "is not in the plan"],
    );
    std::fs::write(&runs, &original).unwrap();
    ok(&mut protocol(&spec, &out, &["--resume"]));
    assert_eq!(std::fs::read_to_string(&runs).unwrap(), before);
}

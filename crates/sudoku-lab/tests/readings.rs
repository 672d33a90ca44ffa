//! End-to-end tests of `sudoku-lab readings` on a tiny instance: Ret-GA on two easy
//! puzzles, two options varied (four readings), a few runs, small budgets.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// A spec of two easy puzzles and one Ret-GA entry whose `readings` vary two options, with
/// the Ret-GA rows of Table 1 for those puzzles as its published table.
fn fixture() -> PathBuf {
    let dir = tmpdir("readings");
    std::fs::write(
        dir.join("pub.csv"),
        "level,givens,algorithm,runs,count,minimum,maximum,average,median,sd\n\
         1 Star,33,Ret-GA,100,100,39,1100,159.24,98,159.95\n\
         Easy,36,Ret-GA,100,100,27,305,70.34,52,55.70\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("spec.toml"),
        r#"id = "readings-test"
title = "t"
master_seed = 5
runs = 8
quick_runs = 2
quick_max_generations = 100
published = "pub.csv"
puzzles = [{ id = "mk_easy", label = "Easy" }, { id = "mk_1star", label = "1 Star" }]

[[algorithms]]
label = "ret"
algorithm = "ret-ga"
paper_label = "Ret-GA"
max_generations = 3000
readings = { elitism = ["alternate", "best"], crossover_rows = ["alternate", "uniform-random"] }
"#,
    )
    .unwrap();
    dir
}

fn race(dir: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let mut cmd = bin();
    cmd.args(["readings"])
        .arg(dir.join("spec.toml"))
        .args(["--algorithm", "ret", "--rounds", "4,8", "--out"])
        .arg(dir.join(out))
        .args(extra);
    ok(&mut cmd)
}

fn read(dir: &Path, out: &str, file: &str) -> String {
    std::fs::read_to_string(dir.join(out).join(file)).unwrap()
}

const FILES: [&str; 7] = [
    "runs.csv",
    "readings.csv",
    "report.md",
    "published.csv",
    "spec-curve.svg",
    "confirm-runs.csv",
    "confirm.csv",
];

#[test]
fn a_tiny_race_writes_every_output_and_is_the_same_on_1_and_2_threads() {
    let dir = fixture();
    race(&dir, "one", &["--threads", "1"]);
    race(&dir, "two", &["--threads", "2"]);
    for f in FILES {
        assert_eq!(read(&dir, "one", f), read(&dir, "two", f), "{f}");
    }
    let readings = read(&dir, "one", "readings.csv");
    let lines: Vec<&str> = readings.lines().collect();
    assert_eq!(lines.len(), 5, "{readings}");
    assert!(lines[0].starts_with("reading,elitism,crossover_rows,status,"));
    assert!(lines[1].starts_with("r1,alternate,alternate,"));
    assert!(dir.join("one/spec-curve.png").exists());
    let report = read(&dir, "one", "report.md");
    assert!(
        report.contains("consistent with the published table"),
        "{report}"
    );
    // A second race in the same folder needs --resume or --fresh.
    let mut again = bin();
    again.args(["readings"]).arg(dir.join("spec.toml"));
    again
        .args(["--algorithm", "ret", "--rounds", "4,8", "--out"])
        .arg(dir.join("one"));
    let o = run(&mut again);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
}

#[test]
fn a_killed_race_resumes_to_the_same_files() {
    let dir = fixture();
    race(&dir, "whole", &["--threads", "2"]);
    race(&dir, "cut", &["--threads", "2"]);
    // A kill: the run files (the race's and the confirmation's) lose their last rows and end
    // in a torn line; the outputs are gone.
    for file in ["runs.csv", "confirm-runs.csv"] {
        let runs = read(&dir, "cut", file);
        let keep: Vec<&str> = runs.lines().take(runs.lines().count() / 2).collect();
        let torn = format!("{}\nr3,mk_ea", keep.join("\n"));
        std::fs::write(dir.join("cut").join(file), torn).unwrap();
    }
    let kept = read(&dir, "cut", "confirm-runs.csv");
    for f in ["readings.csv", "report.md", "confirm.csv"] {
        std::fs::remove_file(dir.join("cut").join(f)).unwrap();
    }
    race(&dir, "cut", &["--threads", "1", "--resume"]);
    for f in FILES {
        assert_eq!(read(&dir, "whole", f), read(&dir, "cut", f), "{f}");
    }
    // No confirmation run was lost: every complete row kept is in the file resumed.
    let resumed = read(&dir, "cut", "confirm-runs.csv");
    let complete: Vec<&str> = kept.lines().filter(|l| !l.ends_with("mk_ea")).collect();
    assert!(complete.len() > 1);
    assert!(complete.iter().all(|l| resumed.lines().any(|r| r == *l)));
    // Other settings are refused on resume.
    let mut other = bin();
    other.args(["readings"]).arg(dir.join("spec.toml"));
    other.args([
        "--algorithm",
        "ret",
        "--rounds",
        "4,8",
        "--cap",
        "3",
        "--resume",
        "--out",
    ]);
    let o = run(other.arg(dir.join("cut")));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("other settings"), "{}", stderr(&o));
}

/// A reading's full-budget runs are the protocol's runs of that reading: same seeds, same
/// outcomes (`sudoku-lab run` on the spec with the reading's options).
#[test]
fn a_readings_runs_are_the_protocols_runs() {
    let dir = fixture();
    race(
        &dir,
        "race",
        &["--options", "elitism=best", "--cap", "0", "--mean-cap", "0"],
    );
    let spec = std::fs::read_to_string(dir.join("spec.toml"))
        .unwrap()
        .replace("readings = {", "params = { elitism = \"best\" }\n#");
    std::fs::write(dir.join("protocol.toml"), spec).unwrap();
    let mut cmd = bin();
    cmd.args(["run"]).arg(dir.join("protocol.toml"));
    ok(cmd
        .args(["--threads", "2", "--out"])
        .arg(dir.join("protocol")));
    let protocol = std::fs::read_to_string(dir.join("protocol/runs.csv")).unwrap();
    let mut want: Vec<String> = Vec::new();
    for l in protocol.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        // puzzle, run, seed, solved, generations, evaluations
        want.push([f[2], f[3], f[4], f[5], f[6], f[7]].join(","));
    }
    let race = read(&dir, "race", "runs.csv");
    let mut got: Vec<String> = Vec::new();
    for l in race.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f[4], "3000", "{l}");
        got.push([f[1], f[2], f[3], f[5], f[6], f[7]].join(","));
    }
    want.sort();
    got.sort();
    assert_eq!(got.len(), 16);
    assert_eq!(got, want);
}

#[test]
fn a_synthetic_table_keeps_its_hidden_reading() {
    let dir = fixture();
    let hidden = "elitism=best,crossover_rows=uniform-random";
    race(&dir, "syn", &["--synthetic", hidden, "--rounds", "4,8"]);
    let report = read(&dir, "syn", "report.md");
    assert!(report.contains("The hidden reading survived"), "{report}");
    let readings = read(&dir, "syn", "readings.csv");
    let r4 = readings.lines().find(|l| l.starts_with("r4,")).unwrap();
    assert!(r4.contains(",survived,"), "{readings}");
    let published = read(&dir, "syn", "published.csv");
    assert_eq!(published.lines().count(), 3, "{published}");
    assert!(dir.join("syn/synthetic/runs.csv").exists());
}

/// `--seed S` races at master seed S: the race of the spec with `master_seed = S`, whose
/// synthetic table is made at S + 1 by default; recorded in command.json, it replays.
#[test]
fn a_race_at_another_seed_is_the_race_of_its_spec_at_that_seed() {
    let dir = fixture();
    let hidden = [
        "--synthetic",
        "elitism=best",
        "--options",
        "elitism=alternate,best",
    ];
    race(&dir, "seeded", &[&hidden[..], &["--seed", "9"]].concat());
    race(&dir, "default", &hidden);
    let spec = std::fs::read_to_string(dir.join("spec.toml")).unwrap();
    assert!(spec.contains("master_seed = 5\n"));
    std::fs::write(
        dir.join("spec9.toml"),
        spec.replace("master_seed = 5\n", "master_seed = 9\n"),
    )
    .unwrap();
    let mut cmd = bin();
    cmd.arg("readings").arg(dir.join("spec9.toml"));
    cmd.args([
        "--algorithm",
        "ret",
        "--rounds",
        "4,8",
        "--synthetic-seed",
        "10",
        "--out",
    ]);
    ok(cmd.arg(dir.join("spec9")).args(hidden));
    // (synthetic/runs.csv records wall times: its table, published.csv, is compared.)
    for f in ["runs.csv", "published.csv", "readings.csv"] {
        assert_eq!(read(&dir, "seeded", f), read(&dir, "spec9", f), "{f}");
    }
    assert_ne!(
        read(&dir, "seeded", "runs.csv"),
        read(&dir, "default", "runs.csv")
    );
    let command = read(&dir, "seeded", "command.json");
    assert!(command.contains("\"--seed\",\"9\""), "{command}");
    let args: Vec<String> = serde_json::from_str(&command).unwrap();
    let before = read(&dir, "seeded", "runs.csv");
    let mut replay = bin();
    replay.args(&args).arg("--out").arg(dir.join("seeded"));
    ok(replay.arg("--resume"));
    assert_eq!(read(&dir, "seeded", "runs.csv"), before);
}

/// readings-summary of synthetic races: validation.csv and a section of summary.md give each
/// race's hidden reading, its table's successes per row and the survivors, and the false
/// elimination rate with its Clopper-Pearson interval; a hostile settings.json of a race is
/// refused, naming it, and nothing is written.
#[test]
fn a_summary_of_synthetic_races_gives_the_hidden_readings_fate() {
    let dir = fixture();
    race(
        &dir,
        "set/a",
        &["--synthetic", "elitism=best", "--seed", "11"],
    );
    copy_dir(&dir.join("set/a"), &dir.join("set/b"));
    ok(bin().arg("readings-summary").arg(dir.join("set")));
    let md = std::fs::read_to_string(dir.join("set/summary.md")).unwrap();
    assert!(md.contains("eliminated in 0 of 2 races"), "{md}");
    assert!(
        md.contains("95 % Clopper-Pearson interval 0.000 to 0.842"),
        "{md}"
    );
    assert!(
        md.contains("2 of the 2 races ran under procedure v3"),
        "{md}"
    );
    let csv = std::fs::read_to_string(dir.join("set/validation.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[0].starts_with("folder,hidden,hidden_options,procedure,alpha,rows,"));
    let published = read(&dir, "set/a", "published.csv");
    let easy = published.lines().find(|l| l.starts_with("Easy,")).unwrap();
    let f: Vec<&str> = easy.split(',').collect();
    let cell = format!("Ret-GA @ Easy: {}/{}", f[4], f[3]);
    assert!(lines[1].starts_with("a,r3,elitism=best,v3,0.05,"), "{csv}");
    assert!(
        lines[1].contains(&cell) && lines[1].contains(",survived,"),
        "{csv}"
    );
    let readings = read(&dir, "set/a", "readings.csv");
    let survivors: Vec<&str> = (readings.lines())
        .filter(|l| l.contains(",survived,"))
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert!(lines[1].ends_with(&survivors.join(" ")), "{csv}");
    // A settings.json that is not a race's, and a race's with an alpha out of range.
    let path = dir.join("set/b/settings.json");
    let mut settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    settings["alpha"] = serde_json::json!(2);
    for (text, says) in [
        (
            "{\"alpha\": 2}\n".to_string(),
            "settings.json:1: not the settings of a race",
        ),
        (settings.to_string(), "settings.json: no alpha"),
    ] {
        std::fs::write(&path, text).unwrap();
        let _ = std::fs::remove_file(dir.join("set/validation.csv"));
        let o = run(bin().arg("readings-summary").arg(dir.join("set")));
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert_eq!(stderr(&o).trim().lines().count(), 1, "{}", stderr(&o));
        assert!(!dir.join("set/validation.csv").exists());
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

#[test]
fn bad_requests_are_one_line_errors() {
    let dir = fixture();
    let spec = dir.join("spec.toml");
    for (args, want) in [
        (vec!["--algorithm", "nope"], "--algorithm 'nope'"),
        (
            vec!["--algorithm", "ret", "--options", "elitism=bogus"],
            "elitism",
        ),
        (vec!["--algorithm", "ret", "--cap", "0.5"], "--cap"),
        (vec!["--algorithm", "ret", "--alpha", "2"], "--alpha"),
        (
            vec!["--algorithm", "ret", "--synthetic", "pairing=random"],
            "--synthetic",
        ),
        (vec!["--algorithm", "ret", "--max-runs", "0"], "--max-runs"),
        (
            vec!["--algorithm", "ret", "--procedure", "v4"],
            "--procedure",
        ),
        (
            vec!["--algorithm", "ret", "--margin-success", "0"],
            "--margin-success",
        ),
        (
            vec!["--algorithm", "ret", "--margin-mean", "1.5"],
            "--margin-mean",
        ),
        (
            vec!["--algorithm", "ret", "--margin-mean", "NaN"],
            "--margin-mean",
        ),
        (
            vec!["--algorithm", "ret", "--seed", "9223372036854775808"],
            "--seed",
        ),
    ] {
        let mut cmd = bin();
        cmd.arg("readings")
            .arg(&spec)
            .args(&args)
            .arg("--out")
            .arg(dir.join("x"));
        let o = run(&mut cmd);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(e.contains(want) && e.lines().count() == 1, "{args:?}: {e}");
    }
}

/// A spec of two RESEDA entries (two alphas, two published columns) on the easy puzzle: a
/// reading is raced against both columns at once.
fn two_columns() -> PathBuf {
    let dir = tmpdir("readings-cols");
    std::fs::write(
        dir.join("pub.csv"),
        "level,algorithm,runs,count,average\n\
         easy,\"both, alpha 0.9\",100,90,40\n\
         easy,\"both, alpha 0.5\",100,60,10\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("spec.toml"),
        r#"id = "readings-cols"
title = "t"
master_seed = 9
runs = 6
quick_runs = 2
quick_max_generations = 100
published = "pub.csv"
puzzles = [{ id = "reseda_easy", label = "easy" }]

[[algorithms]]
label = "a9"
algorithm = "reseda"
paper_label = "both, alpha 0.9"
max_generations = 2000
params = { strategy = "both", alpha = 0.9, zones = 0 }
readings = { failed_result = ["best-sample", "most-probable"] }

[[algorithms]]
label = "a5"
algorithm = "reseda"
paper_label = "both, alpha 0.5"
max_generations = 2000
params = { strategy = "both", alpha = 0.5, zones = 0 }
readings = { failed_result = ["best-sample", "most-probable"] }
"#,
    )
    .unwrap();
    dir
}

/// `--algorithm all` races one set of readings against every column: each reading runs on
/// each entry with that entry's own parameters and the protocol's seeds; race.csv sums it up,
/// and `readings-summary` tabulates a folder of races.
#[test]
fn several_columns_are_raced_together_with_the_protocols_seeds() {
    let dir = two_columns();
    let out = dir.join("races/both");
    let mut cmd = bin();
    cmd.arg("readings").arg(dir.join("spec.toml"));
    ok(cmd
        .args([
            "--algorithm",
            "all",
            "--rounds",
            "3,6",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&out));
    let readings = std::fs::read_to_string(out.join("readings.csv")).unwrap();
    assert_eq!(readings.lines().count(), 3, "{readings}");
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert!(runs.contains("\nr1/a9,reseda_easy,0,"), "{runs}");
    assert!(runs.contains("\nr1/a5,reseda_easy,0,"), "{runs}");
    // The protocol of the spec with reading r1 (failed_result = best-sample) on both entries.
    let spec = std::fs::read_to_string(dir.join("spec.toml"))
        .unwrap()
        .replace("readings = {", "#")
        .replace(
            "zones = 0 }",
            "zones = 0, failed_result = \"best-sample\" }",
        );
    std::fs::write(dir.join("protocol.toml"), spec).unwrap();
    let mut run_cmd = bin();
    run_cmd.arg("run").arg(dir.join("protocol.toml"));
    ok(run_cmd.args(["--out"]).arg(dir.join("protocol")));
    let protocol = std::fs::read_to_string(dir.join("protocol/runs.csv")).unwrap();
    for l in protocol.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        // Runs 0..3 are every reading's first round (later ones only a survivor's).
        if f[3].parse::<u64>().unwrap() >= 3 {
            continue;
        }
        // algorithm, puzzle, run, seed, solved, generations, evaluations; the race's row is
        // at the full budget (2000), or at a mean cap when it solved within it (the same run).
        let want = format!(
            "r1/{},{},{},{},{},{},{}",
            f[1], f[2], f[3], f[4], f[5], f[6], f[7]
        );
        let same = runs.lines().any(|x| {
            let g: Vec<&str> = x.split(',').collect();
            let cap = g.get(4).and_then(|c| c.parse::<u64>().ok());
            let without_cap = [&g[..4.min(g.len())], g.get(5..).unwrap_or(&[])].concat();
            without_cap.join(",") == want
                && (cap == Some(2000) || (f[5] == "1" && cap < Some(2000)))
        });
        assert!(same, "{want} not in the race's runs:\n{runs}");
    }
    let race = std::fs::read_to_string(out.join("race.csv")).unwrap();
    assert!(
        race.starts_with("experiment,entries,readings,survived,"),
        "{race}"
    );
    assert!(race.contains("\nreadings-cols,a9 a5,2,"), "{race}");
    // The full factorial's generations: the estimate is at most its upper bound, so the share
    // against the bound is the smaller.
    let (head, row) = race.split_once('\n').unwrap();
    let field = |k: &str| -> f64 {
        let i = head.split(',').position(|h| h == k).unwrap();
        row.trim_end().split(',').nth(i).unwrap().parse().unwrap()
    };
    assert!(
        field("factorial_generations") <= field("factorial_generations_max"),
        "{race}"
    );
    assert!(
        field("share_of_factorial_min") <= field("share_of_factorial"),
        "{race}"
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("both, alpha 0.5 @ easy"), "{report}");
    // A second race of the same readings (one column alone), then the summary of the folder
    // of races, with the readings that survived both.
    let mut alone = bin();
    alone.arg("readings").arg(dir.join("spec.toml"));
    ok(alone
        .args(["--algorithm", "a9", "--rounds", "3,6", "--out"])
        .arg(dir.join("races/only-a9")));
    let mut sum = bin();
    ok(sum.arg("readings-summary").arg(dir.join("races")));
    let csv = std::fs::read_to_string(dir.join("races/summary.csv")).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("both,readings-cols,"),
        "{csv}"
    );
    let joint = std::fs::read_to_string(dir.join("races/joint.csv")).unwrap();
    assert!(
        joint.starts_with("reading,failed_result,both,only-a9,all\n"),
        "{joint}"
    );
    assert_eq!(joint.lines().count(), 3, "{joint}");
    let md = std::fs::read_to_string(dir.join("races/summary.md")).unwrap();
    assert!(md.contains("survived all 2 races"), "{md}");
    // The site gives the race a page, listed on the index.
    let mut site = bin();
    site.args(["report", "--results"]).arg(dir.join("races"));
    ok(site.arg("--out").arg(dir.join("site")));
    let page = std::fs::read_to_string(dir.join("site/both.html")).unwrap();
    assert!(
        page.contains("readings of <code>readings-cols</code>"),
        "{page}"
    );
    assert!(page.contains("spec-curve.svg"), "{page}");
    let index = std::fs::read_to_string(dir.join("site/index.html")).unwrap();
    assert!(
        index.contains("Reading searches") && index.contains("both.html"),
        "{index}"
    );
    // The README block of the reading searches: every race with its figures, and the
    // survivors of each from readings.csv (the first reading survives both races here).
    let block = std::fs::read_to_string(dir.join("site/readings-summary.md")).unwrap();
    assert!(block.contains("| [both]("), "{block}");
    assert!(block.contains("- both: the first reading"), "{block}");
    // A hostile readings.csv (a row out of place) fails the site, naming the file and line.
    let readings = std::fs::read_to_string(out.join("readings.csv")).unwrap();
    std::fs::write(
        out.join("readings.csv"),
        readings.replacen("\nr2,", "\nr7,", 1),
    )
    .unwrap();
    let mut hostile = bin();
    hostile.args(["report", "--results"]).arg(dir.join("races"));
    let o = run(hostile.arg("--out").arg(dir.join("site")));
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("both/readings.csv:3"), "{}", stderr(&o));
    let after = std::fs::read_to_string(dir.join("site/index.html")).unwrap();
    assert_eq!(after, index, "the refused report wrote a page");
    std::fs::write(out.join("readings.csv"), readings).unwrap();
    // A hostile race.csv is refused, naming it, and the summary is left as it was.
    std::fs::create_dir_all(dir.join("races/bad")).unwrap();
    std::fs::write(dir.join("races/bad/race.csv"), "experiment\n<b>x</b>\n").unwrap();
    let mut bad = bin();
    let o = run(bad.arg("readings-summary").arg(dir.join("races")));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad/race.csv:1"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("races/summary.csv")).unwrap(),
        csv
    );
    // Within a results folder, the folder of races is a set, and the README block gives its
    // joint answer from the races' readings.csv.
    std::fs::remove_dir_all(dir.join("races/bad")).unwrap();
    std::fs::create_dir_all(dir.join("results")).unwrap();
    std::fs::rename(dir.join("races"), dir.join("results/races")).unwrap();
    let mut site = bin();
    site.args(["report", "--results"]).arg(dir.join("results"));
    ok(site.arg("--out").arg(dir.join("site2")));
    let block = std::fs::read_to_string(dir.join("site2/readings-summary.md")).unwrap();
    let joint = "- races (jointly: a reading must survive both, only-a9): ";
    assert!(block.contains(joint), "{block}");
}

/// Entries that cannot share readings are refused in one line.
#[test]
fn entries_of_different_budgets_are_refused() {
    let dir = two_columns();
    let spec = std::fs::read_to_string(dir.join("spec.toml")).unwrap();
    let spec = spec.replacen("max_generations = 2000", "max_generations = 3000", 1);
    std::fs::write(dir.join("spec.toml"), spec).unwrap();
    let mut cmd = bin();
    cmd.arg("readings").arg(dir.join("spec.toml"));
    let o = run(cmd
        .args(["--algorithm", "a9,a5", "--out"])
        .arg(dir.join("x")));
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("max_generations") && e.lines().count() == 1,
        "{e}"
    );
}

/// A race on an algorithm counter (the spec's `counter`, as Benbassat's distinct boards): the
/// published mean and SD are of the counter over every run, each run's counter is in the run
/// file's ninth column, and a synthetic table is made of the counter too.
#[test]
fn a_counter_is_raced_on_its_mean() {
    let dir = tmpdir("readings-counter");
    std::fs::write(
        dir.join("first-row.txt"),
        "123456789........................................................................\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("pub.csv"),
        "level,algorithm,runs,average,sd\nfirst row,standard GA,20,25.9,3.19\nfirst row,bucketing GA,20,17.1,2.05\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("spec.toml"),
        r#"id = "readings-counter"
title = "t"
master_seed = 4
runs = 4
quick_runs = 2
quick_max_generations = 10
published = "pub.csv"
report = "counter"
counter = "distinct_boards"
puzzles = [{ id = "first-row", file = "first-row.txt", label = "first row" }]

[[algorithms]]
label = "standard"
algorithm = "gen-ga"
paper_label = "standard GA"
max_generations = 300
params = { population = 200 }

[[algorithms]]
label = "bucketing"
algorithm = "gen-ga"
paper_label = "bucketing GA"
max_generations = 300
params = { population = 200, diversity = "bucketing" }
"#,
    )
    .unwrap();
    for (out, extra) in [
        ("race", vec![]),
        ("syn", vec!["--synthetic", "mutation_unit=per-row"]),
    ] {
        let mut cmd = bin();
        cmd.arg("readings").arg(dir.join("spec.toml"));
        ok(cmd
            .args(["--algorithm", "all", "--rounds", "2,4", "--out"])
            .arg(dir.join(out))
            .args(&extra));
    }
    let runs = read(&dir, "race", "runs.csv");
    assert!(
        runs.starts_with("reading,puzzle,run,seed,cap,solved,generations,evaluations,counter\n"),
        "{runs}"
    );
    assert!(
        runs.lines().skip(1).all(|l| l.split(',').count() == 9),
        "{runs}"
    );
    let readings = read(&dir, "race", "readings.csv");
    assert!(
        readings.starts_with("reading,mutation_unit,status,"),
        "{readings}"
    );
    assert_eq!(readings.lines().count(), 3, "{readings}");
    let published = read(&dir, "syn", "published.csv");
    let row = published.lines().nth(1).unwrap();
    assert!(
        row.starts_with("first row,,standard GA,4,,,,"),
        "{published}"
    );
    let report = read(&dir, "syn", "report.md");
    assert!(report.contains("The hidden reading survived"), "{report}");
}

/// Curtailment is exact: a race that stops a reading's capped runs once its elimination is
/// decided eliminates the same readings, in the same round and stage, as one that makes every
/// run (`--no-curtail`), with no more runs; and it is the same on 1 and 2 threads.
#[test]
fn curtailed_races_eliminate_as_complete_ones() {
    for p in ["v1", "v2", "v3"] {
        curtailed_race_eliminates_as_complete_one(p);
    }
}

fn curtailed_race_eliminates_as_complete_one(procedure: &str) {
    let dir = fixture();
    let with = |extra: &[&'static str]| [&["--procedure", procedure][..], extra].concat();
    race(&dir, "cut", &with(&["--threads", "2"]));
    race(&dir, "cut1", &with(&["--threads", "1"]));
    race(&dir, "all", &with(&["--no-curtail", "--threads", "2"]));
    for f in ["runs.csv", "readings.csv"] {
        assert_eq!(read(&dir, "cut", f), read(&dir, "cut1", f), "{f}");
    }
    // reading, options, status, round, runs, stage (the p-value of a curtailed elimination is
    // the largest over the outcomes its remaining runs could have had).
    let fates = |out: &str| -> Vec<String> {
        (read(&dir, out, "readings.csv").lines())
            .map(|l| l.split(',').take(7).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(fates("cut"), fates("all"));
    let runs = |out: &str| read(&dir, out, "runs.csv").lines().count();
    // On this instance two readings are decided after 2 of their 4 first-round runs on Easy.
    assert!(
        runs("cut") < runs("all"),
        "{procedure}: {} >= {}",
        runs("cut"),
        runs("all")
    );
}

/// A new race is procedure v3, recorded in settings.json and command.json; `--resume`
/// without the flag keeps a folder's procedure (v1 where its settings name none, as the
/// committed races' do: `committed_races_are_current` replays them so), and a hostile
/// procedure in a folder's settings is refused naming the file.
#[test]
fn the_procedure_is_versioned() {
    let dir = fixture();
    race(&dir, "new", &[]);
    assert!(read(&dir, "new", "settings.json").contains("\"procedure\": \"v3\""));
    assert!(read(&dir, "new", "command.json").contains("\"--procedure\",\"v3\""));
    assert!(read(&dir, "new", "report.md").contains("Procedure v3"));
    race(&dir, "old", &["--procedure", "v1"]);
    assert!(!read(&dir, "old", "settings.json").contains("procedure"));
    assert!(!read(&dir, "old", "command.json").contains("procedure"));
    let report = read(&dir, "old", "report.md");
    race(&dir, "old", &["--resume"]);
    assert_eq!(read(&dir, "old", "report.md"), report);
    let meta = dir.join("old/settings.json");
    let text = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(&meta, text.replacen('{', "{\"procedure\": \"rm -rf\",", 1)).unwrap();
    let mut cmd = bin();
    cmd.arg("readings")
        .arg(dir.join("spec.toml"))
        .args(["--algorithm", "ret", "--rounds", "4,8", "--resume", "--out"])
        .arg(dir.join("old"));
    let o = run(&mut cmd);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("settings.json"), "{}", stderr(&o));
}

/// A folder raced under v1 is raced again under v2 from the runs it holds (`--resume
/// --procedure v2`): it keeps every run and ends with the fates, eliminations and survivors
/// of a fresh v2 race; a change of any other setting is still refused.
#[test]
fn a_race_changes_procedure_keeping_its_runs() {
    let dir = fixture();
    race(&dir, "fresh", &["--procedure", "v2"]);
    race(&dir, "moved", &["--procedure", "v1"]);
    let before = read(&dir, "moved", "runs.csv");
    let o = race(&dir, "moved", &["--procedure", "v2", "--resume"]);
    assert!(
        stderr(&o).contains("continues under the procedure"),
        "{}",
        stderr(&o)
    );
    let after = read(&dir, "moved", "runs.csv");
    for line in before.lines() {
        assert!(after.lines().any(|l| l == line), "run lost: {line}");
    }
    for f in ["race.csv", "readings.csv", "settings.json", "command.json"] {
        assert_eq!(read(&dir, "moved", f), read(&dir, "fresh", f), "{f}");
    }
    let mut cmd = bin();
    cmd.arg("readings")
        .arg(dir.join("spec.toml"))
        .args(["--algorithm", "ret", "--rounds", "4,8", "--alpha", "0.1"])
        .args(["--procedure", "v1", "--resume", "--out"])
        .arg(dir.join("moved"));
    let o = run(&mut cmd);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("other settings"), "{}", stderr(&o));
}

/// The survivors' verdicts: power.csv and verdicts.csv hold one row per survivor (and cell),
/// the report a section on them; the margins are recorded in settings.json and command.json
/// only when not the defaults (a race made before them resumes with its settings), and a
/// resumed race keeps the margins it was made with (others are refused as other settings).
#[test]
fn survivors_get_verdicts_and_margins_are_settings_only_when_set() {
    let dir = fixture();
    race(&dir, "plain", &[]);
    let survivors = read(&dir, "plain", "readings.csv")
        .matches(",survived,")
        .count();
    let verdicts = read(&dir, "plain", "verdicts.csv");
    assert!(verdicts.starts_with("reading,verdict,cells,"), "{verdicts}");
    assert_eq!(verdicts.lines().count(), survivors + 1, "{verdicts}");
    let kinds = ["within margins", "contradicted", "undecided"];
    for line in verdicts.lines().skip(1) {
        assert!(
            kinds.iter().any(|k| line.split(',').nth(1) == Some(*k)),
            "{line}"
        );
    }
    let power = read(&dir, "plain", "power.csv");
    assert!(
        power.starts_with("reading,cell,kind,published,ours,n,p,p_holm,level,"),
        "{power}"
    );
    let report = read(&dir, "plain", "report.md");
    if survivors > 0 {
        assert!(
            report.contains("## Survivors: power and verdicts"),
            "{report}"
        );
        assert!(power.lines().count() > survivors);
    }
    for f in ["settings.json", "command.json"] {
        assert!(!read(&dir, "plain", f).contains("margin"), "{f}");
    }
    let set = ["--margin-success", "0.2", "--margin-mean", "0.5"];
    race(&dir, "set", &set);
    assert!(read(&dir, "set", "settings.json").contains("\"margins\""));
    assert!(read(&dir, "set", "command.json").contains("\"--margin-success\",\"0.2\""));
    if survivors > 0 {
        assert!(read(&dir, "set", "report.md").contains("20 points of success rate, 50 %"));
    }
    race(&dir, "set", &[&set[..], &["--resume"]].concat());
    let mut cmd = bin();
    cmd.arg("readings")
        .arg(dir.join("spec.toml"))
        .args(["--algorithm", "ret", "--rounds", "4,8", "--resume", "--out"])
        .arg(dir.join("set"));
    let o = run(&mut cmd);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// The same on rows that print only a count and a mean (RESEDA's), where full-budget runs are
/// curtailed too (their tests are proportions): the same fates as every run.
#[test]
fn curtailed_full_stage_races_eliminate_as_complete_ones() {
    let dir = two_columns();
    let go = |out: &str, extra: &[&str]| {
        let mut cmd = bin();
        cmd.arg("readings").arg(dir.join("spec.toml"));
        cmd.args(["--algorithm", "all", "--rounds", "3,6", "--threads", "2"]);
        ok(cmd.args(extra).arg("--out").arg(dir.join(out)));
        std::fs::read_to_string(dir.join(out).join("readings.csv")).unwrap()
    };
    let fates = |csv: &str| -> Vec<String> {
        (csv.lines())
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                let status = f
                    .iter()
                    .position(|x| *x == "status" || *x == "survived" || *x == "eliminated");
                f[..status.map_or(f.len(), |s| (s + 4).min(f.len()))].join(",")
            })
            .collect()
    };
    assert_eq!(fates(&go("cut", &[])), fates(&go("all", &["--no-curtail"])));
}

/// Readings the algorithm names as making the same runs share them: with `elitism = best`,
/// `elite_order` ascending and ascending-literal, and `success_generation` current and
/// completed (a solved run one generation less), six readings make the runs of two. The race
/// eliminates the same readings with the same p-values as one where every reading has its own
/// runs (`--no-shared-runs`), and its run file holds only the two readings' runs.
#[test]
fn readings_that_make_the_same_runs_share_them() {
    let dir = fixture();
    let options = [
        "--options",
        "elitism=best",
        "--options",
        "elite_order=ascending,ascending-literal,best-first",
        "--options",
        "success_generation=current,completed",
    ];
    race(&dir, "shared", &options);
    race(&dir, "own", &[&options[..], &["--no-shared-runs"]].concat());
    // reading, options, status, round, runs, stage, cell, p_holm, min_p_holm.
    let fates = |out: &str| -> Vec<String> {
        (read(&dir, out, "readings.csv").lines())
            .map(|l| l.split(',').take(11).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(fates("shared"), fates("own"));
    let made = |out: &str| -> std::collections::BTreeSet<String> {
        (read(&dir, out, "runs.csv").lines().skip(1))
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(made("own").len(), 6);
    // Readings r1 (ascending, current) and r5 (best-first, current) make every run.
    assert_eq!(made("shared"), ["r1", "r5"].map(String::from).into());
    // So in the confirmation: the same verdicts, the runs made once.
    assert_eq!(
        read(&dir, "shared", "confirm.csv"),
        read(&dir, "own", "confirm.csv")
    );
    let confirmed = |out: &str| -> std::collections::BTreeSet<String> {
        (read(&dir, out, "confirm-runs.csv").lines().skip(1))
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    assert!(confirmed("shared").is_subset(&made("shared")));
    assert!(confirmed("own").len() > confirmed("shared").len());
    let report = read(&dir, "shared", "report.md");
    assert!(report.contains("share the runs of another"), "{report}");
}

/// Every committed race's outputs are what the code makes of its runs: each race folder of
/// `results/` (one with `race.csv`) holds command.json, and replaying it with `--resume` over a
/// copy of the folder, which runs nothing, rewrites readings.csv, race.csv, report.md,
/// published.csv, runs.csv and the chart byte for byte; and readings-summary over copies of
/// its races rewrites each folder of races' summary.csv, summary.md and joint.csv.
#[test]
fn committed_races_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let results = root.join("results");
    let races = committed_races(&results);
    assert!(races.len() >= 10, "{races:?}");
    let tmp = tmpdir("committed-races");
    // The folders of races: summary.csv, summary.md and joint.csv from their races' files.
    let sets: Vec<PathBuf> = (std::fs::read_dir(&results).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("readings-")
        })
        .filter(|p| p.join("summary.csv").is_file())
        .collect();
    assert!(sets.len() >= 3, "{sets:?}");
    for (k, set) in sets.iter().enumerate() {
        let copy = tmp.join(format!("set{k}"));
        for e in std::fs::read_dir(set).unwrap() {
            let member = e.unwrap().path();
            for f in ["race.csv", "readings.csv", "published.csv", "settings.json"] {
                if member.join(f).is_file() {
                    let to = copy.join(member.file_name().unwrap());
                    std::fs::create_dir_all(&to).unwrap();
                    std::fs::copy(member.join(f), to.join(f)).unwrap();
                }
            }
        }
        ok(bin().arg("readings-summary").arg(&copy));
        for f in ["summary.csv", "summary.md", "joint.csv", "validation.csv"] {
            let want = std::fs::read_to_string(set.join(f)).ok();
            let got = std::fs::read_to_string(copy.join(f)).ok();
            assert!(
                got == want,
                "{}: {f} is not what the code makes",
                set.display()
            );
        }
    }
    for (k, race) in races.iter().enumerate() {
        let command = std::fs::read_to_string(race.join("command.json"))
            .unwrap_or_else(|_| panic!("{}: no command.json", race.display()));
        let args: Vec<String> = serde_json::from_str(&command).unwrap();
        let copy = tmp.join(k.to_string());
        copy_tree(race, &copy);
        let mut cmd = bin();
        cmd.current_dir(&root).args(&args).arg("--out").arg(&copy);
        ok(cmd.args(["--resume", "--threads", "2"]));
        for f in [
            "readings.csv",
            "race.csv",
            "report.md",
            "published.csv",
            "runs.csv",
            "spec-curve.svg",
            "power.csv",
            "verdicts.csv",
            "confirm.csv",
            "confirm-runs.csv",
        ] {
            let want = std::fs::read_to_string(race.join(f)).unwrap();
            let got = std::fs::read_to_string(copy.join(f)).unwrap();
            assert!(
                got == want,
                "{}: {f} is not what the code makes of its runs",
                race.display()
            );
        }
    }
}

/// Every committed race ran under procedure v2 or v3 (whose error rates the calibration study
/// measured) and was confirmed at a second master seed: its settings name v2 or v3 and a
/// confirmation seed, and it holds the confirmation's runs and verdicts.
#[test]
fn every_committed_race_is_v2_or_v3_and_confirmed() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let races = committed_races(&results);
    assert!(races.len() >= 40, "{races:?}");
    for race in races {
        let settings: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(race.join("settings.json")).unwrap())
                .unwrap();
        let procedure = settings["procedure"].as_str();
        assert!(matches!(procedure, Some("v2" | "v3")), "{}", race.display());
        assert!(settings["confirm_seed"].is_u64(), "{}", race.display());
        for f in [
            "confirm.csv",
            "confirm-runs.csv",
            "power.csv",
            "verdicts.csv",
        ] {
            assert!(race.join(f).is_file(), "{}: no {f}", race.display());
        }
    }
}

/// The race folders (those with a race.csv) of `results`: each `readings-*` folder and its
/// subfolders, sorted.
fn committed_races(results: &Path) -> Vec<PathBuf> {
    let mut races = Vec::new();
    for e in std::fs::read_dir(results).unwrap() {
        let dir = e.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("readings-") || !dir.is_dir() {
            continue;
        }
        races.push(dir.clone());
        races.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()));
    }
    let mut races: Vec<PathBuf> = (races.into_iter())
        .filter(|d| d.join("race.csv").is_file())
        .collect();
    races.sort();
    races
}

/// A copy of a race folder: its files and its `synthetic/` folder.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap();
        if p.is_dir() {
            if name == "synthetic" {
                copy_tree(&p, &to.join(name));
            }
        } else {
            std::fs::copy(&p, to.join(name)).unwrap();
        }
    }
}

/// A float option is raced as floats (it was refused: "invalid type: string"), and a raced
/// population is checked against the memory as a spec's own value is.
#[test]
fn float_options_are_raced_and_raced_sizes_checked_against_memory() {
    let dir = two_columns();
    let out = dir.join("alphas");
    let mut cmd = bin();
    cmd.arg("readings").arg(dir.join("spec.toml"));
    let args = ["--algorithm", "a9", "--options", "alpha=0.5,0.9"];
    ok(cmd
        .args(args)
        .args([
            "--rounds",
            "2",
            "--max-runs",
            "2",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&out));
    let readings = std::fs::read_to_string(out.join("readings.csv")).unwrap();
    let lines: Vec<&str> = readings.lines().collect();
    assert!(lines[0].starts_with("reading,alpha,status,"), "{readings}");
    assert!(lines[1].starts_with("r1,0.5,") && lines[2].starts_with("r2,0.9,"));
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert!(runs.contains("\nr1,reseda_easy,0,") && runs.contains("\nr2,reseda_easy,0,"));
    // 10^6 samples of 9x9 grids need about 300 MB a thread: over the 10 MB allowed here. The
    // --synthetic value (not among the raced ones) would stop the command next, so a check
    // that misses the raced value fails at once instead of starting the runs.
    let mut cmd = bin();
    cmd.env("SUDOKU_LAB_MEMORY_MB", "10")
        .arg("readings")
        .arg(dir.join("spec.toml"))
        .args(["--algorithm", "a9", "--options", "samples=100,1000000"])
        .args(["--synthetic", "samples=7", "--threads", "1", "--out"])
        .arg(dir.join("big"));
    let o = run(&mut cmd);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("reading r2: samples: 1000000 grids") && e.lines().count() == 1,
        "{e}"
    );
    assert!(!dir.join("big").exists());
}

/// A `--published` table with two rows of one cell (a duplicate would be tested twice) or a
/// run count beyond the limit is refused, naming the file and the lines, before anything is
/// written.
#[test]
fn published_tables_with_two_rows_of_a_cell_or_huge_counts_are_refused() {
    let dir = fixture();
    let head = "level,givens,algorithm,runs,count,minimum,maximum,average,median,sd\n";
    let easy = "Easy,36,Ret-GA,100,100,27,305,70.34,52,55.70\n";
    let cases = [
        (format!("{head}{easy}{easy}"), "t.csv:2 and --published "),
        (
            format!("{head}{easy}# note\nEasy,36,Ret-GA,100,90,27,305,70.34,52,55.70\n"),
            "t.csv:4: two rows of one cell",
        ),
        (
            format!("{head}Easy,36,Ret-GA,18446744073709551615,100,27,305,70.34,52,55.70\n"),
            "t.csv:2: column 'runs'",
        ),
    ];
    for (text, want) in cases {
        std::fs::write(dir.join("t.csv"), &text).unwrap();
        let mut cmd = bin();
        cmd.arg("readings").arg(dir.join("spec.toml"));
        cmd.args(["--algorithm", "ret", "--published"])
            .arg(dir.join("t.csv"))
            .arg("--out")
            .arg(dir.join("x"));
        let o = run(&mut cmd);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(e.contains(want) && e.lines().count() == 1, "{e}");
        assert!(!dir.join("x").exists());
    }
}

/// Markdown as a renderer shows it (tables on, as the site renders report.md).
fn html_of(md: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    html
}

/// No raw control byte (an escape sequence, a bell) but the line break reaches the terminal.
fn assert_no_control(o: &std::process::Output) {
    for bytes in [&o.stderr, &o.stdout] {
        let text = String::from_utf8_lossy(bytes);
        let raw = text.chars().find(|c| c.is_control() && *c != '\n');
        assert!(raw.is_none(), "{raw:?} in {text:?}");
    }
}

/// A file name, an option key and a race.csv field holding escape codes reach the terminal
/// escaped (`\u{1b}`), never raw.
#[test]
fn escape_codes_in_names_keys_and_fields_are_shown_escaped() {
    let dir = fixture();
    let head = "level,givens,algorithm,runs,count\n";
    let name = dir.join("t\u{1b}[31mred\u{7}.csv");
    std::fs::write(
        &name,
        format!("{head}Easy,36,Ret-GA,10,5\nEasy,36,Ret-GA,10,5\n"),
    )
    .unwrap();
    let readings = |extra: &[&std::ffi::OsStr]| {
        let mut c = bin();
        c.arg("readings").arg(dir.join("spec.toml"));
        c.args(["--algorithm", "ret"]).args(extra);
        c.arg("--out").arg(dir.join("x"));
        c
    };
    let published = readings(&["--published".as_ref(), name.as_os_str()]);
    let key = readings(&[
        "--options".as_ref(),
        "eli\u{1b}[2Jtism\r=best,\u{1b}[31m".as_ref(),
    ]);
    // A race.csv whose numeric field holds a control sequence.
    let races = dir.join("races");
    std::fs::create_dir_all(races.join("a")).unwrap();
    let header = "experiment,entries,readings,survived,eliminated,hidden,hidden_status,others_eliminated,others_eliminated_share,runs,generations,factorial_runs,factorial_generations,share_of_factorial,factorial_generations_max,share_of_factorial_min";
    let row = "x,ret,1\u{1b}[2J,1,0,,,0,,4,100,8,200,0.5,300,0.3";
    std::fs::write(races.join("a/race.csv"), format!("{header}\n{row}\n")).unwrap();
    for (mut cmd, want) in [
        (published, "t\\u{1b}[31mred\\u{7}.csv:2 and"),
        (key, "\\u{1b}[2J"),
        (bin_summary(&races), "'1\\u{1b}[2J' is not a number"),
    ] {
        let o = run(&mut cmd);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(e.contains(want) && e.lines().count() == 1, "{e}");
        assert_no_control(&o);
    }
    assert!(!dir.join("x").exists() && !races.join("summary.md").exists());
}

fn bin_summary(races: &Path) -> std::process::Command {
    let mut c = bin();
    c.arg("readings-summary").arg(races);
    c
}

/// A `--published` file name and race.csv fields (or a race folder's name) that read as
/// Markdown or HTML (a link, a script, a table row, a backtick that ends a code span) are
/// written into report.md and summary.md as text: rendered, they make no link, no HTML and
/// no extra cell.
#[test]
fn names_and_fields_cannot_inject_markdown() {
    let dir = fixture();
    let hostile = "q` <script>alert(1) [x](javascript:alert(1)) | a | b | `q.csv";
    std::fs::copy(dir.join("pub.csv"), dir.join(hostile)).unwrap();
    let races = dir.join("races");
    let mut cmd = bin();
    cmd.arg("readings").arg(dir.join("spec.toml"));
    cmd.args(["--algorithm", "ret", "--published"])
        .arg(dir.join(hostile))
        .args([
            "--options",
            "elitism=best",
            "--rounds",
            "2",
            "--max-runs",
            "2",
        ])
        .arg("--out")
        .arg(races.join("plain"));
    ok(&mut cmd);
    let report = std::fs::read_to_string(races.join("plain/report.md")).unwrap();
    let html = html_of(&report);
    assert!(
        !html.contains("<script>") && !html.contains("href=\"javascript"),
        "{html}"
    );
    assert!(
        html.contains("<code>/tmp/") && html.contains("q` &lt;script&gt;alert(1) [x](javascript:alert(1)) | a | b | `q.csv</code> (published.csv in this folder)"),
        "{html}"
    );
    // A second race folder, named like a link, whose race.csv fields are a link, a script
    // and a table row.
    let folder = races.join("x](javascript:alert(1)) <b>");
    std::fs::create_dir_all(&folder).unwrap();
    for f in ["readings.csv", "race.csv"] {
        std::fs::copy(races.join("plain").join(f), folder.join(f)).unwrap();
    }
    let race = std::fs::read_to_string(folder.join("race.csv")).unwrap();
    let (head, row) = race.split_once('\n').unwrap();
    let mut fields: Vec<String> = row.trim_end().split(',').map(String::from).collect();
    fields[0] = "[x](javascript:alert(1)) <script>alert(1)</script>".into();
    fields[1] = "| a | b |".into();
    std::fs::write(
        folder.join("race.csv"),
        format!("{head}\n{}\n", fields.join(",")),
    )
    .unwrap();
    ok(&mut bin_summary(&races));
    let md = std::fs::read_to_string(races.join("summary.md")).unwrap();
    let html = html_of(&md);
    assert!(
        !html.contains("<script>") && !html.contains("<b>"),
        "{html}"
    );
    assert!(
        !html.contains("href=\"javascript") && !html.contains("href=\"x]"),
        "{html}"
    );
    // The races table: a header of 11 cells and two rows of 11 cells each.
    let table = &html[..html.find("</table>").unwrap()];
    assert_eq!(table.matches("<th>").count(), 11, "{html}");
    assert_eq!(table.matches("<td>").count(), 22, "{html}");
}

/// The rows of a CSV file of a race folder, split into fields (header first).
fn rows(dir: &Path, out: &str, file: &str) -> Vec<Vec<String>> {
    (read(dir, out, file).lines())
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

/// A new (v2) race confirms its answer at a second master seed derived from its own
/// (recorded in settings.json and command.json): it reruns exactly its survivors and the
/// readings it eliminated in its last round (here, with one round, every elimination), at
/// the full protocol and the full budget, with the protocol's seeds of the second master seed,
/// and a reading is consistent only when it survived both. Every confirmation row is
/// replayed by `replay DIR`.
#[test]
fn a_confirmation_reruns_the_survivors_and_the_last_rounds_eliminations() {
    let dir = fixture();
    // Easy's row only (the cheaper puzzle), one round.
    let table = std::fs::read_to_string(dir.join("pub.csv")).unwrap();
    let easy: Vec<&str> = table.lines().filter(|l| !l.starts_with("1 Star")).collect();
    std::fs::write(dir.join("easy.csv"), easy.join("\n") + "\n").unwrap();
    let mut cmd = bin();
    cmd.arg("readings")
        .arg(dir.join("spec.toml"))
        .arg("--published");
    cmd.arg(dir.join("easy.csv"))
        .args(["--algorithm", "ret", "--rounds", "8"]);
    cmd.args(["--threads", "2", "--out"]);
    ok(cmd.arg(dir.join("one")));
    let settings = read(&dir, "one", "settings.json");
    let seed = settings
        .lines()
        .find_map(|l| l.trim().strip_prefix("\"confirm_seed\": "))
        .map(|s| s.trim_end_matches(',').to_string())
        .expect("settings.json records the confirmation seed");
    assert_ne!(seed, "5");
    let command = read(&dir, "one", "command.json");
    assert!(
        command.contains(&format!("\"--confirm-seed\",\"{seed}\"")),
        "{command}"
    );
    let readings = rows(&dir, "one", "readings.csv");
    let status = readings[0].iter().position(|h| h == "status").unwrap();
    let want: Vec<String> = (readings[1..].iter())
        .filter(|r| r[status] == "survived" || r[status + 1] == "1")
        .map(|r| r[0].clone())
        .collect();
    assert_eq!(want.len(), 4, "{readings:?}");
    let made = rows(&dir, "one", "confirm-runs.csv");
    assert_eq!(
        made[0].join(","),
        "reading,puzzle,run,seed,cap,solved,generations,evaluations"
    );
    let mut got: Vec<String> = made[1..].iter().map(|r| r[0].clone()).collect();
    got.dedup();
    assert_eq!(got, want);
    // 8 runs of Easy per reading, at the full budget, with other seeds than the race's.
    assert_eq!(made.len() - 1, want.len() * 8);
    assert!(made[1..].iter().all(|r| r[1] == "mk_easy"));
    assert!(made[1..].iter().all(|r| r[4] == "3000"));
    let race_seeds: Vec<String> = rows(&dir, "one", "runs.csv")[1..]
        .iter()
        .map(|r| r[3].clone())
        .collect();
    assert!(made[1..].iter().all(|r| !race_seeds.contains(&r[3])));
    // consistent = survived the race and confirmed.
    let confirm = rows(&dir, "one", "confirm.csv");
    let col = |k: &str| confirm[0].iter().position(|h| h == k).unwrap();
    assert_eq!(confirm.len() - 1, want.len());
    for r in &confirm[1..] {
        assert_eq!(r[col("confirm_seed")], seed);
        let both = r[col("race")] == "survived" && r[col("confirmation")] == "confirmed";
        assert_eq!(
            r[col("consistent")],
            if both { "yes" } else { "no" },
            "{r:?}"
        );
    }
    let report = read(&dir, "one", "report.md");
    assert!(
        report.contains("## Confirmation") && report.contains(&seed),
        "{report}"
    );
    // The site's list of survivors (and the README's block) says which are consistent.
    let results = dir.join("results");
    copy_tree(&dir.join("one"), &results.join("readings-one"));
    ok(bin()
        .arg("report")
        .arg("--results")
        .arg(&results)
        .arg("--out")
        .arg(dir.join("site")));
    let summary = std::fs::read_to_string(dir.join("site/readings-summary.md")).unwrap();
    let count = |race: &str, yes: &str| {
        (confirm[1..].iter())
            .filter(|r| r[col("race")] == race && r[col("consistent")] == yes)
            .count()
    };
    for (text, n) in [
        ("consistent (both seeds)", count("survived", "yes")),
        ("survived the race, not confirmed", count("survived", "no")),
    ] {
        // The survivors' list (the answers above it quote the same words).
        let survivors = summary
            .split("Survivors of the races against published tables, by the options")
            .nth(1)
            .unwrap_or_default();
        let shown = survivors.matches(&format!(": {text}")).count();
        assert_eq!(shown, n, "{text}: {summary}");
    }
    let kept = usize::from(count("survived", "yes") > 0);
    let line = format!("Confirmed at a second master seed: {kept} of 1 races");
    assert!(summary.contains(&line), "{summary}");
    // replay DIR replays the race's rows and the confirmation's.
    let o = ok(bin().args(["replay", "--every", "1"]).arg(dir.join("one")));
    let runs = read(&dir, "one", "runs.csv").lines().count() - 1;
    let line = String::from_utf8_lossy(&o.stdout).to_string();
    let all = runs + made.len() - 1;
    assert!(line.contains(&format!("replayed {all} runs")), "{line}");
    assert!(
        line.contains(&format!("{all} identical, 0 different")),
        "{line}"
    );
}

/// The confirmation's run file is hostile input like runs.csv: an edited row (a seed that
/// is not the protocol's at the confirmation seed) is refused naming the file and line,
/// a duplicated row naming both lines, and nothing is written; an edited outcome is found
/// by `replay DIR` (exit 1).
#[test]
fn an_edited_confirmation_row_is_refused_naming_file_and_line() {
    let dir = fixture();
    race(&dir, "one", &["--threads", "2"]);
    let path = dir.join("one/confirm-runs.csv");
    let good = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let resume = |want: &str| {
        let report = read(&dir, "one", "report.md");
        let mut cmd = bin();
        cmd.arg("readings").arg(dir.join("spec.toml"));
        cmd.args(["--algorithm", "ret", "--rounds", "4,8", "--resume", "--out"]);
        let o = run(cmd.arg(dir.join("one")));
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(want) && e.lines().count() == 1, "{e}");
        assert_eq!(read(&dir, "one", "report.md"), report);
    };
    // Line 3 with another seed.
    let mut f: Vec<String> = lines[2].split(',').map(String::from).collect();
    f[3] = "12345".into();
    let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    edited[2] = f.join(",");
    std::fs::write(&path, edited.join("\n") + "\n").unwrap();
    resume("confirm-runs.csv:3: seed 12345");
    // Line 2 again at the end.
    std::fs::write(&path, format!("{good}{}\n", lines[1])).unwrap();
    resume(&format!(
        "confirm-runs.csv:{}: duplicate row",
        lines.len() + 1
    ));
    resume("already recorded at line 2");
    // A solved run's generations edited: a valid row, found by replay.
    let k = (1..lines.len())
        .find(|&i| lines[i].split(',').nth(5) == Some("1"))
        .unwrap();
    let mut f: Vec<String> = lines[k].split(',').map(String::from).collect();
    f[6] = (f[6].parse::<u64>().unwrap() + 1).to_string();
    let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    edited[k] = f.join(",");
    std::fs::write(&path, edited.join("\n") + "\n").unwrap();
    let o = run(bin().args(["replay", "--every", "1"]).arg(dir.join("one")));
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(out.contains(&format!("recorded {}", edited[k])), "{out}");
}

/// A race of procedure v1 (the committed races') has no confirmation unless asked for: its
/// settings and command keep no trace of it. Asked for with `--resume --confirm-seed S`, it
/// is recorded in settings.json and command.json, the race's own outputs stay as they were,
/// and a later `--resume` keeps it; another seed is then refused. `--no-confirm` skips a v2
/// race's confirmation, and the race's master seed cannot be the confirmation's.
#[test]
fn a_v1_race_is_confirmed_only_when_asked() {
    let dir = fixture();
    race(&dir, "old", &["--procedure", "v1", "--threads", "2"]);
    assert!(!dir.join("old/confirm-runs.csv").exists());
    assert!(!read(&dir, "old", "settings.json").contains("confirm"));
    assert!(!read(&dir, "old", "command.json").contains("confirm"));
    let readings = read(&dir, "old", "readings.csv");
    race(
        &dir,
        "old",
        &["--resume", "--confirm-seed", "77", "--threads", "2"],
    );
    assert_eq!(read(&dir, "old", "readings.csv"), readings);
    assert!(read(&dir, "old", "settings.json").contains("\"confirm_seed\": 77"));
    assert!(read(&dir, "old", "command.json").contains("\"--confirm-seed\",\"77\""));
    let report = read(&dir, "old", "report.md");
    assert!(report.contains("## Confirmation") && report.contains("procedure v1"));
    race(&dir, "old", &["--resume"]);
    assert_eq!(read(&dir, "old", "report.md"), report);
    for (out, args, want) in [
        (
            "old",
            vec!["--resume", "--confirm-seed", "78"],
            "other settings",
        ),
        ("new", vec!["--confirm-seed", "5"], "--confirm-seed 5"),
        (
            "new",
            vec!["--confirm-seed", "7", "--no-confirm"],
            "--no-confirm",
        ),
    ] {
        let mut cmd = bin();
        cmd.arg("readings").arg(dir.join("spec.toml"));
        cmd.args(["--algorithm", "ret", "--rounds", "4,8"])
            .args(&args);
        let o = run(cmd.arg("--out").arg(dir.join(out)));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(e.contains(want) && e.lines().count() == 1, "{args:?}: {e}");
    }
    race(&dir, "off", &["--no-confirm", "--threads", "2"]);
    assert!(!dir.join("off/confirm-runs.csv").exists());
    assert!(read(&dir, "off", "command.json").contains("--no-confirm"));
    assert!(!read(&dir, "off", "report.md").contains("## Confirmation"));
}

/// A race made from a spec file named relative to the folder it was started in (and a
/// `--published` table likewise) replays from any folder: its command.json records where the
/// spec and the table are, not the names as typed, so `replay` neither fails to find them nor
/// reads another folder's file of the same name. A spec that is gone is named with the race's
/// command.json.
#[test]
fn a_race_from_a_spec_file_replays_from_any_folder() {
    let dir = fixture();
    let table = std::fs::read_to_string(dir.join("pub.csv")).unwrap();
    let easy: Vec<&str> = table.lines().filter(|l| !l.starts_with("1 Star")).collect();
    std::fs::write(dir.join("easy.csv"), easy.join("\n") + "\n").unwrap();
    let mut cmd = bin();
    cmd.current_dir(&dir)
        .args(["readings", "spec.toml", "--published", "easy.csv"])
        .args(["--algorithm", "ret", "--rounds", "8", "--no-confirm"]);
    ok(cmd.args(["--out", "race"]));
    let command = read(&dir, "race", "command.json");
    let args: Vec<String> = serde_json::from_str(&command).unwrap();
    assert!(Path::new(&args[1]).is_absolute(), "{command}");
    let at = args.iter().position(|a| a == "--published").unwrap();
    assert!(Path::new(&args[at + 1]).is_absolute(), "{command}");
    let runs = read(&dir, "race", "runs.csv").lines().count() - 1;
    let replayed = format!("replayed {runs} runs of the race");

    // From a folder without the files, and from one whose files of the same names differ.
    let elsewhere = tmpdir("elsewhere");
    let other = tmpdir("other");
    let spec = std::fs::read_to_string(dir.join("spec.toml")).unwrap();
    std::fs::write(
        other.join("spec.toml"),
        spec.replace("master_seed = 5", "master_seed = 6"),
    )
    .unwrap();
    std::fs::write(other.join("easy.csv"), table).unwrap();
    for cwd in [&elsewhere, &other] {
        let mut replay = bin();
        replay.current_dir(cwd).args(["replay", "--every", "1"]);
        let o = ok(replay.arg(dir.join("race")));
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(out.contains(&replayed), "{out}");
        assert!(
            out.contains(&format!("{runs} identical, 0 different")),
            "{out}"
        );
    }

    // The spec gone: one line naming the race's command.json and the spec.
    std::fs::rename(dir.join("spec.toml"), dir.join("moved.toml")).unwrap();
    let o = run(bin().args(["replay"]).arg(dir.join("race")));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("race/command.json"), "{err}");
    assert!(err.contains("spec.toml"), "{err}");
}

/// Every committed race report opens with its answer in one sentence (before its title): no
/// reading fits, naming the last to fall and the cell each fell on, or how many survive and
/// what the second seed says of them. The Ret-GA column's names its last four and the cells.
#[test]
fn a_race_report_opens_with_its_answer() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    for race in committed_races(&results) {
        let report = std::fs::read_to_string(race.join("report.md")).unwrap();
        let mut lines = report.lines();
        let first = lines.next().unwrap();
        let at = race.display();
        assert!(
            !first.starts_with('#') && first.ends_with('.'),
            "{at}: {first}"
        );
        assert!(
            first.starts_with("No reading fits: all ")
                || first.contains(" readings survive the race"),
            "{at}: {first}"
        );
        assert_eq!(lines.next(), Some(""), "{at}");
        assert!(lines.next().unwrap().starts_with("# Readings of "), "{at}");
        assert!(report.contains("\n## Last to fall\n"), "{at}");
    }
    let report =
        std::fs::read_to_string(results.join("readings-ret-ga-table1-ret-ga/report.md")).unwrap();
    let first = report.lines().next().unwrap();
    for want in [
        "2 of 384 readings survive the race, r293 and r309",
        "elitism = best",
        "the second seed rejects every one",
        "the per-cell tests at 0.05 contradict both",
        "Challenging, solved by the published median",
        "71/100 before 27786 against at most 47/100",
    ] {
        assert!(first.contains(want), "{want}: {first}");
    }
}

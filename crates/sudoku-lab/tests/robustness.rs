//! Regression tests of a robustness review's defects: panics, unbounded sizes, unsafe names, late errors,
//! leftovers of killed processes, the folder lock and the run scheduling. Every refusal is one
//! line on stderr, exit code 2, and writes nothing.

mod common;
#[allow(unused_imports)]
use common::{bin, ok, run, stderr, tmpdir};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SPEC: &str = r#"
id = "robust"
title = "test"
master_seed = 5
runs = 3
quick_runs = 2
quick_max_generations = 50
puzzles = [{ id = "mk_easy" }, { id = "das_fig1" }]

[[algorithms]]
label = "ret-ga"
algorithm = "ret-ga"
max_generations = 200

[[algorithms]]
label = "mk-ga"
algorithm = "mk-ga"
max_generations = 200
"#;

fn experiments() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments")
}

/// Run the binary in `d` and require a clean refusal: exit 2, one line containing `want`, and
/// no `out` folder.
fn refused(d: &Path, args: &[&str], want: &str) {
    let out = d.join("out");
    let o = run(bin().current_dir(d).args(args));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: got {err:?}, want {want:?}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!out.exists(), "{args:?} wrote {}", out.display());
}

/// Write `text` as `d/<name>` and refuse `run` on it.
fn spec_refused(d: &Path, name: &str, text: &str, extra: &[&str], want: &str) {
    std::fs::write(d.join(name), text).unwrap();
    let mut args = vec!["run", name, "--out", "out"];
    args.extend_from_slice(extra);
    refused(d, &args, want);
}

#[test]
fn gen_ga_on_a_grid_that_is_not_9x9_is_refused() {
    let d = tmpdir("gen-ga");
    let six = experiments().join("puzzles/cso/6x6-easy.txt");
    refused(
        &d,
        &["solve", "--algo", "gen-ga", six.to_str().unwrap()],
        "gen-ga solves 9x9 grids only, not 6x6",
    );
    let spec = SPEC
        .replace(
            "{ id = \"das_fig1\" }",
            "{ id = \"six\", file = \"puzzles/cso/6x6-easy.txt\" }",
        )
        .replace("algorithm = \"mk-ga\"", "algorithm = \"gen-ga\"");
    common::copy_puzzles(&d, "puzzles/cso/6x6-easy.txt");
    spec_refused(&d, "s.toml", &spec, &[], "not 6x6");
}

#[test]
fn entries_that_expand_to_no_puzzle_are_refused() {
    let d = tmpdir("empty");
    // Box 0's free cell (row 0, column 0) can hold only 9, which column 0 already has.
    let grid = format!(".78123456{}9{}", ".".repeat(36), ".".repeat(35));
    std::fs::write(d.join("nobox.txt"), format!("{grid}\n")).unwrap();
    let spec = SPEC.replace(
        "{ id = \"das_fig1\" }",
        "{ id = \"nb\", file = \"nobox.txt\", box_fillings = 0 }",
    );
    spec_refused(
        &d,
        "box.toml",
        &spec,
        &[],
        "'nb': the entry expands to no puzzle (box 0 has no admissible filling)",
    );
    common::copy_puzzles(&d, "puzzles/kennett/easy.txt");
    let spec = SPEC
        .replace(
            "{ id = \"das_fig1\" }",
            "{ id = \"set\", file = \"puzzles/kennett/easy.txt\", all = true }",
        )
        .replace("quick_runs = 2", "quick_runs = 2\nquick_set_size = 0");
    spec_refused(
        &d,
        "set.toml",
        &spec,
        &["--quick"],
        "quick_set_size must be at least 1",
    );
}

#[test]
fn oversized_settings_are_refused_naming_the_key() {
    let d = tmpdir("sizes");
    spec_refused(
        &d,
        "runs.toml",
        &SPEC.replace("runs = 3", "runs = 1000000000000"),
        &[],
        "runs = 1000000000000 is over the limit",
    );
    spec_refused(
        &d,
        "entry.toml",
        &SPEC.replace(
            "{ id = \"mk_easy\" }",
            "{ id = \"mk_easy\", runs = 1000000000000 }",
        ),
        &[],
        "runs = 1000000000000 is over the limit",
    );
    // Each entry under the bound, the plan over it.
    spec_refused(
        &d,
        "plan.toml",
        &SPEC.replace("runs = 3", "runs = 900000000"),
        &[],
        "the plan has 3600000000 runs (algorithms x puzzles x runs), over the limit of 1000000000",
    );
    std::fs::write(d.join("ok.toml"), SPEC).unwrap();
    refused(
        &d,
        &["run", "ok.toml", "--out", "out", "--runs", "1000000000000"],
        "the plan has 4000000000000 runs",
    );
    // Under the bound, but the plan's index would not fit in the memory available (set low
    // here by SUDOKU_LAB_MEMORY_MB; by default MemAvailable and the cgroup's limit).
    let o = run(bin()
        .current_dir(&d)
        .env("SUDOKU_LAB_MEMORY_MB", "10")
        .args(["run", "ok.toml", "--out", "out", "--runs", "200000"]));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("runs: the plan has 800000 runs (algorithms x puzzles x runs), whose index needs about 12 MB, more than the 10 MB of memory available"),
        "{err}"
    );
    assert!(!d.join("out").exists());
    for (algo, param) in [
        ("ret-ga", "population_factor = 100000000"),
        ("mk-ga", "population = 1000000000"),
        ("gen-ga", "population = 1000000000"),
        ("reseda", "samples = 1000000000"),
        ("cso", "cats = 1000000000"),
        ("lewis-sa", "t0_samples = 1000000000"),
    ] {
        let key = param.split(' ').next().unwrap();
        // The second algorithm's table is the last of the spec.
        let spec = format!(
            "{}params = {{ {param} }}\n",
            SPEC.replace("algorithm = \"mk-ga\"", &format!("algorithm = \"{algo}\""))
        );
        spec_refused(
            &d,
            &format!("{algo}.toml"),
            &spec,
            &[],
            &format!("{param} is over the limit"),
        );
        refused(
            &d,
            &[
                "solve",
                "--algo",
                algo,
                "--param",
                &param.replace(' ', ""),
                "mk_easy",
            ],
            &format!("{key} = "),
        );
    }
}

/// Populations whose grids would not fit in the machine's memory on the threads asked for.
#[test]
fn populations_larger_than_the_memory_are_refused() {
    let d = tmpdir("memory");
    std::fs::write(d.join("big.txt"), format!("{}\n", ".".repeat(625))).unwrap();
    let spec = format!(
        "{}params = {{ population = 1000000 }}\n",
        SPEC.replace(
            "{ id = \"das_fig1\" }",
            "{ id = \"big\", file = \"big.txt\" }"
        )
    );
    // 10^6 grids of 625 cells on each of 1024 threads: terabytes.
    spec_refused(
        &d,
        "s.toml",
        &spec,
        &["--threads", "1024"],
        "algorithm 'mk-ga': population: 1000000 grids of 25x25 per run on 1024 threads need about",
    );
    std::fs::write(d.join("ok.toml"), SPEC).unwrap();
    refused(
        &d,
        &["run", "ok.toml", "--out", "out", "--threads", "100000"],
        "--threads 100000 is over the limit of 1024",
    );
}

/// A size written as a float (`1e9`) is a type error, in one line naming the key.
#[test]
fn a_float_size_is_refused_in_one_line() {
    let d = tmpdir("float");
    let spec = format!("{SPEC}params = {{ population = 1e9 }}\n");
    spec_refused(&d, "s.toml", &spec, &[], "expected usize in `population`");
    refused(
        &d,
        &["solve", "--algo", "cso", "--param", "cats=1e9", "mk_easy"],
        "expected usize in `cats`",
    );
}

#[test]
fn names_outside_the_safe_characters_are_refused() {
    let d = tmpdir("names");
    for (from, to, want) in [
        (
            "label = \"ret-ga\"",
            "label = \"ret,ga\"",
            "algorithm label 'ret,ga': character ','",
        ),
        (
            "label = \"ret-ga\"",
            "label = \"ret\\nga\"",
            "algorithm label 'ret\\nga': character '\\n'",
        ),
        (
            "{ id = \"mk_easy\" }",
            "{ id = \"mk,easy\", bank = \"mk_easy\" }",
            "puzzle id 'mk,easy'",
        ),
        (
            "{ id = \"mk_easy\" }",
            "{ id = \"mk_easy\", label = \"a,b\" }",
            "puzzle label 'a,b'",
        ),
        (
            "label = \"ret-ga\"",
            "label = \"ret-ga\"\npaper_label = \"say \\\"GA\\\"\"",
            "paper_label 'say \\\"GA\\\"': character '\"'",
        ),
    ] {
        spec_refused(&d, "s.toml", &SPEC.replace(from, to), &[], want);
    }
}

/// Every spec shipped in experiments/ still loads with the name rules and limits, its puzzles
/// and published values too, in full and under `--quick`.
#[test]
fn every_committed_spec_still_loads() {
    let o = run(bin().arg("list"));
    assert!(o.status.success(), "{}", stderr(&o));
    let d = tmpdir("committed");
    for e in std::fs::read_dir(experiments()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        // --threads 0 is refused after the spec, its puzzles and published values are
        // checked, before anything is written.
        for quick in [&[][..], &["--quick"]] {
            let o = run(bin()
                .arg("run")
                .arg(&p)
                .args(["--threads", "0", "--out"])
                .arg(d.join("out"))
                .args(quick));
            let err = stderr(&o);
            assert!(
                err.contains("--threads must be at least 1"),
                "{} {quick:?}: {err}",
                p.display()
            );
        }
    }
}

/// A paper_label with a comma (as the published tables have) is quoted in summary.csv, which
/// reads back with as many fields per row as its header.
#[test]
fn a_comma_in_a_paper_label_is_quoted_in_summary_csv() {
    let d = tmpdir("quote");
    let spec = SPEC.replace(
        "label = \"ret-ga\"",
        "label = \"ret-ga\"\npaper_label = \"GA, alpha 0.5\"",
    );
    std::fs::write(d.join("s.toml"), spec).unwrap();
    let o = run(bin()
        .current_dir(&d)
        .args(["run", "s.toml", "--out", "out", "--threads", "2"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(d.join("out/summary.csv")).unwrap();
    assert!(text.contains(",\"GA, alpha 0.5\","), "{text}");
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let n = r.headers().unwrap().len();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    for row in rows {
        assert_eq!(row.len(), n, "{row:?}");
    }
}

#[test]
fn report_errors_are_caught_before_the_first_run() {
    let d = tmpdir("late");
    for report in ["table1", "ablation"] {
        spec_refused(
            &d,
            "s.toml",
            &SPEC.replace(
                "quick_max_generations = 50",
                &format!("quick_max_generations = 50\nreport = \"{report}\""),
            ),
            &[],
            &format!("report \"{report}\" needs published"),
        );
    }
    spec_refused(
        &d,
        "c.toml",
        &SPEC.replace(
            "quick_max_generations = 50",
            "quick_max_generations = 50\nreport = \"counter\"\ncounter = \"distinct_boards\"\npublished = \"paper/benbassat.csv\"",
        ),
        &[],
        "counter 'distinct_boards': algorithm 'ret-ga' (ret-ga) does not emit it",
    );
    spec_refused(
        &d,
        "t.toml",
        &SPEC.replace(
            "quick_max_generations = 50",
            "quick_max_generations = 50\ntrajectory = \"boards_at_\"",
        ),
        &[],
        "trajectory needs report = \"counter\"",
    );
}

fn run_ok(d: &Path, extra: &[&str]) -> Output {
    let o = run(bin()
        .current_dir(d)
        .args(["run", "s.toml", "--out", "out"])
        .args(extra));
    assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
    o
}

/// The pid of a process that has ended.
fn dead_pid() -> u32 {
    let mut c = Command::new("true").spawn().unwrap();
    let pid = c.id();
    c.wait().unwrap();
    pid
}

#[cfg(unix)]
#[test]
fn temporary_files_of_dead_processes_are_removed() {
    let d = tmpdir("temps");
    std::fs::write(d.join("s.toml"), SPEC).unwrap();
    run_ok(&d, &[]);
    let out = d.join("out");
    let dead = dead_pid();
    let stale = [
        out.join(format!(".runs.csv.tmp-{dead}")),
        out.join(format!(".chart.png.{dead}-3.tmp.png")),
    ];
    // A temporary file of a live process (this one) is left alone.
    let live = out.join(format!(".summary.csv.tmp-{}", std::process::id()));
    for f in stale.iter().chain([&live]) {
        std::fs::write(f, "partial").unwrap();
    }
    run_ok(&d, &["--resume"]);
    for f in &stale {
        assert!(!f.exists(), "{} survived", f.display());
    }
    assert!(live.exists());
}

#[test]
fn meta_json_says_failed_with_the_error() {
    let d = tmpdir("failed");
    std::fs::write(d.join("s.toml"), SPEC).unwrap();
    run_ok(&d, &[]);
    let runs = d.join("out/runs.csv");
    let mut text = std::fs::read_to_string(&runs).unwrap();
    text.push_str("robust,ret-ga,mk_easy,not-a-number\n");
    std::fs::write(&runs, text).unwrap();
    let o = run(bin()
        .current_dir(&d)
        .args(["run", "s.toml", "--out", "out", "--resume"]));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("out/meta.json")).unwrap()).unwrap();
    assert_eq!(meta["status"], "failed");
    assert!(
        meta["error"].as_str().unwrap().contains("malformed row"),
        "{meta}"
    );
}

/// A session killed after its runs (while writing the reports) recorded no wall time; the
/// resume that then runs nothing must not report 0 s of protocol wall time.
#[test]
fn wall_time_survives_a_session_killed_after_its_runs() {
    let d = tmpdir("wall");
    std::fs::write(d.join("s.toml"), SPEC).unwrap();
    run_ok(&d, &[]);
    let meta_path = d.join("out/meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    assert!(meta["wall_seconds"].as_f64().unwrap() > 0.0);
    meta["wall_seconds"] = serde_json::Value::Null;
    meta["status"] = "running".into();
    std::fs::write(&meta_path, meta.to_string()).unwrap();
    let o = run_ok(&d, &["--resume"]);
    assert!(stderr(&o).contains("0 runs,"), "{}", stderr(&o));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    assert!(meta["wall_seconds"].as_f64().unwrap() > 0.0, "{meta}");
    assert_eq!(meta["status"], "complete");
}

#[cfg(unix)]
#[test]
fn a_second_process_on_a_locked_folder_is_refused_naming_the_pid() {
    use std::io::Write;
    use std::os::unix::io::AsRawFd;
    let d = tmpdir("lock");
    std::fs::write(d.join("s.toml"), SPEC).unwrap();
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    // This test process plays the holder: the same lock a running protocol takes.
    let mut f = std::fs::File::create(out.join(".sudoku-lab.lock")).unwrap();
    // SAFETY: flock on a descriptor owned by this test.
    assert_eq!(
        unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    writeln!(f, "{}", std::process::id()).unwrap();
    for extra in [&[][..], &["--fresh"], &["--resume"]] {
        let o = run(bin()
            .current_dir(&d)
            .args(["run", "s.toml", "--out", "out"])
            .args(extra));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("(pid {})", std::process::id())),
            "{err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!out.join("runs.csv").exists());
    }
    drop(f);
    run_ok(&d, &[]);
    // Released and removed with the protocol.
    assert!(!out.join(".sudoku-lab.lock").exists());
}

/// Runs are scheduled one per task, longest expected first, so the order of execution differs
/// from the plan's; runs.csv and trajectories.csv do not show it.
#[test]
fn scheduling_changes_no_output_byte() {
    let d = tmpdir("schedule");
    let spec = SPEC
        .replace(
            "quick_max_generations = 50",
            "quick_max_generations = 50\nanytime = true",
        )
        .replace(
            "label = \"mk-ga\"\nalgorithm = \"mk-ga\"\nmax_generations = 200",
            "label = \"mk-ga\"\nalgorithm = \"mk-ga\"\nmax_generations = 2000",
        );
    std::fs::write(d.join("s.toml"), spec).unwrap();
    for t in ["1", "2", "3"] {
        let o = run(bin()
            .current_dir(&d)
            .args(["run", "s.toml", "--threads", t, "--out", t]));
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let without_wall = |p: PathBuf| {
        let text = std::fs::read_to_string(p).unwrap();
        text.lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.drain(12..14); // wall_ms, cpu_ms
                f.join(",")
            })
            .collect::<Vec<_>>()
    };
    let one = without_wall(d.join("1/runs.csv"));
    assert_eq!(one.len(), 1 + 2 * 2 * 3);
    for t in ["2", "3"] {
        assert_eq!(one, without_wall(d.join(t).join("runs.csv")), "{t} threads");
        assert_eq!(
            std::fs::read(d.join("1/trajectories.csv")).unwrap(),
            std::fs::read(d.join(t).join("trajectories.csv")).unwrap(),
            "{t} threads"
        );
    }
}

/// The plan is computed run by run, not materialised: a protocol of 20 million runs
/// starts, and writes its first rows, within a small resident memory (a materialised plan held
/// 32 bytes per run, 640 MB here, and the resume set about 100 bytes per run more).
#[cfg(target_os = "linux")]
#[test]
fn a_plan_of_millions_of_runs_starts_in_little_memory() {
    let d = tmpdir("lazy-plan");
    std::fs::write(
        d.join("ok.toml"),
        SPEC.replace("max_generations = 200", "max_generations = 2"),
    )
    .unwrap();
    let mut child = bin()
        .current_dir(&d)
        .args([
            "run",
            "ok.toml",
            "--out",
            "out",
            "--runs",
            "5000000",
            "--threads",
            "2",
        ])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let runs = d.join("out/runs.csv");
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&runs).map_or(0, |t| t.lines().count()) < 100 {
        assert!(start.elapsed().as_secs() < 60, "no rows after 60 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    assert!(
        kb < 64 * 1024,
        "resident memory {kb} kB with 20 million runs planned"
    );
}

/// Issue 21, item 5: `max_evaluations = 0` is refused like `max_generations = 0`, and so is a
/// value beyond what TOML holds (`--seed` too), naming the key.
#[test]
fn zero_and_oversized_budgets_are_refused_naming_the_key() {
    let d = tmpdir("budgets");
    let with = |extra: &str| SPEC.replacen("max_generations = 200", extra, 1);
    for (name, text, want) in [
        (
            "ev.toml",
            with("max_generations = 200\nmax_evaluations = 0"),
            "algorithm 'ret-ga': max_evaluations must be at least 1 (got 0)",
        ),
        (
            "gen.toml",
            with("max_generations = 0"),
            "algorithm 'ret-ga': max_generations must be at least 1 (got 0)",
        ),
        (
            "qmg.toml",
            SPEC.replace("quick_max_generations = 50", "quick_max_generations = 0"),
            "quick_max_generations must be at least 1 (got 0)",
        ),
        (
            "entry.toml",
            SPEC.replace("{ id = \"mk_easy\" }", "{ id = \"mk_easy\", runs = 0 }"),
            "puzzle 'mk_easy': runs must be at least 1 (got 0)",
        ),
    ] {
        spec_refused(&d, name, &text, &[], want);
    }
    spec_refused(
        &d,
        "seed.toml",
        SPEC,
        &["--seed", "18446744073709551615"],
        "--seed = 18446744073709551615 is over the limit of 9223372036854775807",
    );
}

/// Issue 21, item 6: a spec's file names stay in its folder, and a file that is not a
/// published table is described, never quoted.
#[test]
fn spec_paths_leave_no_folder_and_echo_no_file() {
    let d = tmpdir("paths");
    let ablation = |published: &str| {
        SPEC.replace(
            "puzzles = [",
            &format!("report = \"ablation\"\n{published}\npuzzles = ["),
        )
    };
    let leaves = "the path leaves the spec's folder";
    spec_refused(
        &d,
        "up.toml",
        &ablation("published = \"../../../../etc/passwd\""),
        &[],
        &format!("published = \"../../../../etc/passwd\": {leaves}"),
    );
    spec_refused(
        &d,
        "abs.toml",
        &ablation("published = \"/etc/passwd\""),
        &[],
        leaves,
    );
    spec_refused(
        &d,
        "file.toml",
        &SPEC.replace(
            "{ id = \"das_fig1\" }",
            "{ id = \"x\", file = \"../x/../../etc/passwd\" }",
        ),
        &[],
        &format!("puzzle 'x': file = \"../x/../../etc/passwd\": {leaves}"),
    );
    spec_refused(
        &d,
        "levels.toml",
        &SPEC
            .replace(
                "{ id = \"mk_easy\" }",
                "{ id = \"mk_easy\", label = \"Easy\" }",
            )
            .replace(
                "{ id = \"das_fig1\" }",
                "{ id = \"das_fig1\", label = \"Easy\" }",
            )
            .replace(
                "puzzles = [",
                "report = \"levels\"\npublished_levels = { Easy = \"/etc/passwd\" }\npuzzles = [",
            ),
        &[],
        &format!("published_levels 'Easy' = \"/etc/passwd\": {leaves}"),
    );
    // Foreign content in the spec's own folder: named, described, not quoted.
    let secret = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n";
    std::fs::write(d.join("pw.csv"), secret).unwrap();
    spec_refused(
        &d,
        "pw.toml",
        &ablation("published = \"pw.csv\""),
        &[],
        "published = \"pw.csv\": not a published table: expected a header line of the columns level,",
    );
    let err = stderr(&run(bin()
        .current_dir(&d)
        .args(["run", "pw.toml", "--out", "o"])));
    assert!(!err.contains("root") && !err.contains("daemon"), "{err}");
    // A table with a wrong value names the line and the column, not the value.
    std::fs::write(
        d.join("bad.csv"),
        "level,algorithm,count\nEasy,ret-ga,secret\n",
    )
    .unwrap();
    spec_refused(
        &d,
        "bad.toml",
        &ablation("published = \"bad.csv\""),
        &[],
        "published = \"bad.csv\":2: column 'count': not a whole number",
    );
}

/// Issue 21, item 5, the command line: every count, budget and limit flag refuses zero and
/// values out of its range in one line naming the flag, before anything is written (merge's
/// `--threads 0` was found only after the merged runs.csv was written).
#[test]
fn every_budget_flag_is_bounded() {
    let d = tmpdir("flags");
    std::fs::write(d.join("s.toml"), SPEC).unwrap();
    let huge = "18446744073709551615";
    let cases: [(&[&str], &str); 12] = [
        (
            &["run", "s.toml", "--runs", "0"],
            "--runs must be at least 1",
        ),
        (
            &["run", "s.toml", "--threads", "0"],
            "--threads must be at least 1",
        ),
        (
            &["run", "s.toml", "--threads", "5000"],
            "--threads 5000 is over the limit",
        ),
        (
            &["run", "s.toml", "--seed", huge],
            "--seed = 18446744073709551615 is over the limit",
        ),
        (
            &["run", "s.toml", "--runs", "-1"],
            "invalid value '-1' for '--runs <RUNS>'",
        ),
        (
            &[
                "solve",
                "--algo",
                "mk-ga",
                "--max-generations",
                "0",
                "mk_easy",
            ],
            "--max-generations must be at least 1",
        ),
        (
            &["replay", "x", "--every", "0"],
            "--every must be at least 1",
        ),
        (&["generate", "--count", "0"], "--count must be at least 1"),
        (
            &["generate", "--count", "1000001"],
            "--count 1000001 is over the limit",
        ),
        (
            &["generate", "--node-limit", "0"],
            "--node-limit must be at least 1",
        ),
        (
            &["merge", "out", "a", "--threads", "0"],
            "--threads must be at least 1",
        ),
        (
            &["merge", "out", "a", "--threads", "5000"],
            "--threads 5000 is over the limit",
        ),
    ];
    for (args, want) in cases {
        refused(&d, args, want);
    }
}

//! External solvers (docs/external-solvers.md): the committed examples of
//! examples/external run through protocol v2 beside a built-in solver. A lying solver's runs are
//! counted invalid, crashing, hanging and misbehaving ones fail their runs with reasons and the
//! protocol completes; the files are the same on 1 and 2 threads and after a resume, shards
//! merge, replay reproduces; bad commands are refused in one line before anything is written.
//! The tests skip (saying so) where python3 or cc is missing; CI has both.

mod common;
use common::{bin, ok, run, stderr, tmpdir};

use std::path::{Path, PathBuf};

/// A wall limit that a loaded machine does not reach for the examples' real work (the tests of
/// the limit itself use a solver that never answers).
const UNHURRIED: [&str; 2] = ["--wall-seconds", "3600"];
const UNHURRIED_KEY: &str = "wall_seconds = 3600.0";

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/external")
}

/// True when `program` runs (`--version`); else the test says it is skipped.
fn have(program: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: {program} is not installed");
    }
    found
}

/// A folder with the examples and a spec of `algorithms` (TOML `[[algorithms]]` blocks).
fn spec_dir(name: &str, algorithms: &str, runs: u64) -> PathBuf {
    let d = tmpdir(name);
    for e in std::fs::read_dir(examples()).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, d.join(p.file_name().unwrap())).unwrap();
        }
    }
    let spec = format!(
        "id = \"ext\"\ntitle = \"t\"\nmaster_seed = 7\nruns = {runs}\nquick_runs = 1\nquick_max_generations = 5\nreport = \"compare\"\nanytime = true\npuzzles = [ {{ id = \"mk_easy\" }}, {{ id = \"mk_1star\" }} ]\n{algorithms}"
    );
    std::fs::write(d.join("s.toml"), spec).unwrap();
    d
}

fn algorithm(label: &str, command: &str, extra: &str) -> String {
    let algo = if command.is_empty() {
        label
    } else {
        "external"
    };
    format!("\n[[algorithms]]\nlabel = \"{label}\"\nalgorithm = \"{algo}\"\n{command}\nmax_generations = 1000000\nmax_evaluations = 20000\n{extra}\n")
}

fn protocol(d: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    run(bin()
        .arg("run")
        .arg(d.join("s.toml"))
        .arg("--out")
        .arg(d.join(out))
        .args(extra))
}

/// runs.csv's rows as (algorithm, termination) and without wall_ms and cpu_ms.
fn rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let mut f: Vec<String> = l.split(',').map(str::to_string).collect();
            f[12] = String::new();
            f[13] = String::new();
            f
        })
        .collect()
}

#[test]
fn lying_crashing_and_hanging_solvers_fail_their_runs_and_the_protocol_completes() {
    if !have("python3") {
        return;
    }
    let algos = [
        algorithm("py-sa", "command = [\"python3\", \"sa.py\"]", UNHURRIED_KEY),
        algorithm("liar", "command = [\"python3\", \"liar.py\"]", ""),
        algorithm("crash", "command = [\"python3\", \"crash.py\"]", ""),
        algorithm(
            "hang",
            "command = [\"python3\", \"hang.py\"]",
            "wall_seconds = 5",
        ),
        // A start-up longer than the wall limit: the handshake has a limit of its own.
        algorithm(
            "slow-start",
            "command = [\"sh\", \"-c\", \"sleep 2; exec python3 liar.py\"]",
            "wall_seconds = 1\nmode = \"per-run\"",
        ),
        algorithm("lewis-sa", "", ""),
    ]
    .concat();
    let d = spec_dir("faults", &algos, 2);
    let o = protocol(&d, "out", &["--threads", "2"]);
    // Complete, but liar, crash, hang and slow-start (a liar too) have no valid run: exit 3,
    // each named with its reasons.
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("error: no valid run of algorithms 'liar', 'crash', 'hang', 'slow-start': "),
        "{err}"
    );
    for label in ["liar", "crash", "hang", "slow-start"] {
        let line = format!("failed runs of '{label}': 4 of 4 runs failed (");
        assert!(err.contains(&line), "{err}");
    }
    assert!(!err.contains("failed runs of 'py-sa'"), "{err}");
    assert!(!err.contains("failed runs of 'lewis-sa'"), "{err}");
    let out = d.join("out");
    let rows = rows(&out.join("runs.csv"));
    assert_eq!(rows.len(), 6 * 2 * 2);
    let of = |label: &str| -> Vec<&str> {
        (rows.iter().filter(|r| r[1] == label))
            .map(|r| r[10].as_str())
            .collect()
    };
    assert!(
        of("liar").iter().all(|t| *t == "invalid_claim"),
        "{:?}",
        of("liar")
    );
    assert!(of("crash")
        .iter()
        .all(|t| ["crashed", "exit_status"].contains(t)));
    assert!(of("crash").contains(&"crashed") && of("crash").contains(&"exit_status"));
    assert!(
        of("hang").iter().all(|t| *t == "wall_limit"),
        "{:?}",
        of("hang")
    );
    // Its one-second wall limit counts from the run message (a loaded machine may still
    // exceed it), not from the process's start.
    assert!(
        (of("slow-start").iter()).all(|t| ["invalid_claim", "wall_limit"].contains(t)),
        "{:?}",
        of("slow-start")
    );
    assert!(of("py-sa")
        .iter()
        .all(|t| ["solved", "evaluation_limit"].contains(t)));
    // No failed run is counted as solved; the report counts them per algorithm and reason.
    assert!(rows
        .iter()
        .filter(|r| r[1] != "py-sa" && r[1] != "lewis-sa")
        .all(|r| r[5] == "0"));
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("`liar`: 4 invalid solution (`invalid_claim`) of 4 runs"),
        "{report}"
    );
    assert!(
        report.contains("`hang`: 4 `wall_limit` of 4 runs"),
        "{report}"
    );
    // The logs keep the reason and the solver's stderr.
    let log = std::fs::read_to_string(out.join("external-logs/crash/mk_easy-0.log")).unwrap();
    assert!(
        log.contains("giving up on purpose") && log.contains("failed: "),
        "{log}"
    );
}

#[test]
fn every_protocol_fault_is_a_failed_run_with_its_reason() {
    if !have("python3") {
        return;
    }
    let faulty = "command = [\"python3\", \"faulty.py\"]";
    let mut algos = String::new();
    for fault in [
        "garbage",
        "oversized",
        "over_budget",
        "backwards",
        "given",
        "flood",
        "lie_twice",
        "stale",
        "none",
    ] {
        algos += &algorithm(
            fault,
            faulty,
            &format!("params = {{ fault = \"{fault}\" }}"),
        );
    }
    algos += &algorithm(
        "exit",
        faulty,
        "mode = \"per-run\"\nparams = { fault = \"exit\" }",
    );
    let d = spec_dir("protocol-faults", &algos, 1);
    let o = protocol(&d, "out", &["--threads", "2"]);
    // Every algorithm but flood (its runs end, unsolved) has no valid run.
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let want = [
        ("garbage", "bad_output"),
        ("oversized", "oversized_output"),
        ("over_budget", "over_budget"),
        ("backwards", "bad_output"),
        ("given", "bad_output"),
        ("flood", "converged"),
        ("exit", "exit_status"),
        ("lie_twice", "invalid_claim"),
        ("stale", "bad_output"),
        ("none", "converged"),
    ];
    let rows = rows(&d.join("out/runs.csv"));
    for (label, reason) in want {
        for r in rows.iter().filter(|r| r[1] == label) {
            assert_eq!(r[10], reason, "{r:?}");
        }
    }
    // stderr is capped per run.
    let log = d.join("out/external-logs/flood/mk_easy-0.log");
    let len = std::fs::metadata(&log).unwrap().len();
    assert!(len < 70_000, "{len}");
    assert!(std::fs::read_to_string(&log)
        .unwrap()
        .contains("more bytes of stderr dropped"));
    // Each run's log holds the stderr of that run: one "run <id>" line.
    for label in ["none", "lie_twice", "stale"] {
        for puzzle in ["mk_easy", "mk_1star"] {
            let log = d.join(format!("out/external-logs/{label}/{puzzle}-0.log"));
            let text = std::fs::read_to_string(&log).unwrap();
            assert_eq!(text.matches("faulty.py: run ").count(), 1, "{text}");
        }
    }
}

/// A solver that answers the handshake and quits without reading its input: a write of the
/// runner's to it fails (EPIPE, never SIGPIPE, which would kill the runner: the binary restores
/// SIGPIPE's default; the external crate's tests check the write itself), or the runner finds
/// the process gone; each run fails as `crashed`, and the protocol completes.
#[test]
fn a_solver_that_quits_without_reading_fails_runs_and_the_runner_survives() {
    if !have("python3") {
        return;
    }
    let quit = "command = [\"python3\", \"-c\", \"print('{\\\"type\\\": \\\"hello\\\", \\\"protocol\\\": 2}', flush=True)\"]";
    let algos = algorithm("quit", quit, "") + &algorithm("lewis-sa", "", "");
    let d = spec_dir("quit", &algos, 3);
    let o = protocol(&d, "out", &["--threads", "2"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("failed runs of 'quit': 6 of 6 runs failed (crashed 6)"));
    let rows = rows(&d.join("out/runs.csv"));
    let quit: Vec<&Vec<String>> = rows.iter().filter(|r| r[1] == "quit").collect();
    assert_eq!(quit.len(), 6);
    assert!(quit.iter().all(|r| r[10] == "crashed"), "{quit:?}");
}

/// The C example compiled into the spec's folder (None, saying why, without cc).
fn compile_c(d: &Path) -> Option<()> {
    if !have("cc") {
        return None;
    }
    let o = std::process::Command::new("cc")
        .args(["-O2", "-o"])
        .arg(d.join("sa-c"))
        .arg(d.join("sa.c"))
        .arg("-lm")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(())
}

#[test]
fn files_are_the_same_on_any_thread_count_after_resume_and_merge_and_replay_agrees() {
    if !have("python3") {
        return;
    }
    let algos = [
        algorithm("c-sa", "command = [\"./sa-c\"]", UNHURRIED_KEY),
        algorithm(
            "py-sa",
            "command = [\"python3\", \"sa.py\"]",
            &format!("mode = \"per-run\"\n{UNHURRIED_KEY}"),
        ),
        algorithm("lewis-sa", "", ""),
    ]
    .concat();
    let d = spec_dir("determinism", &algos, 3);
    if compile_c(&d).is_none() {
        return;
    }
    ok(bin()
        .arg("run")
        .arg(d.join("s.toml"))
        .arg("--out")
        .arg(d.join("one"))
        .args(["--threads", "1"]));
    ok(bin()
        .arg("run")
        .arg(d.join("s.toml"))
        .arg("--out")
        .arg(d.join("two"))
        .args(["--threads", "2"]));
    let (one, two) = (d.join("one"), d.join("two"));
    assert_eq!(rows(&one.join("runs.csv")), rows(&two.join("runs.csv")));
    let traj = |p: &Path| std::fs::read_to_string(p.join("trajectories.csv")).unwrap();
    assert_eq!(traj(&one), traj(&two));
    assert!(traj(&one).lines().filter(|l| l.contains(",c-sa,")).count() > 10);
    // A resume of a cut file gives the same rows.
    let text = std::fs::read_to_string(two.join("runs.csv")).unwrap();
    let half: Vec<&str> = text.lines().take(8).collect();
    std::fs::write(two.join("runs.csv"), half.join("\n") + "\n").unwrap();
    ok(bin()
        .arg("run")
        .arg(d.join("s.toml"))
        .arg("--out")
        .arg(&two)
        .args(["--resume"]));
    assert_eq!(rows(&one.join("runs.csv")), rows(&two.join("runs.csv")));
    // Shards merged give the same rows.
    for k in ["1/2", "2/2"] {
        let out = d.join(format!("shard{}", &k[..1]));
        ok(bin()
            .arg("run")
            .arg(d.join("s.toml"))
            .arg("--out")
            .arg(out)
            .args(["--shard", k]));
    }
    ok(bin()
        .arg("merge")
        .arg(d.join("merged"))
        .arg(d.join("shard1"))
        .arg(d.join("shard2")));
    assert_eq!(
        rows(&one.join("runs.csv")),
        rows(&d.join("merged/runs.csv"))
    );
    let o = ok(bin().args(["replay", "--run-external"]).arg(&one));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("0 different"), "{said}");
}

#[test]
fn a_nondeterministic_external_solver_is_reported_by_replay_not_failed() {
    if !have("python3") {
        return;
    }
    let algos = algorithm(
        "py-sa",
        "command = [\"python3\", \"sa.py\"]",
        "env = { SA_SALT = \"1\" }",
    ) + &algorithm("lewis-sa", "", "");
    let d = spec_dir("nondeterministic", &algos, 1);
    // A solver that draws its seed from the clock: sa.py with the seed line replaced.
    let sa = std::fs::read_to_string(d.join("sa.py")).unwrap();
    let clocked = sa.replace("random.Random(run[\"seed\"])", "random.Random()");
    assert_ne!(sa, clocked);
    std::fs::write(d.join("sa.py"), clocked).unwrap();
    ok(bin()
        .arg("run")
        .arg(d.join("s.toml"))
        .arg("--out")
        .arg(d.join("out")));
    let o = ok(bin().args(["replay", "--run-external"]).arg(d.join("out")));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("external solver, not reproduced"), "{said}");
    assert!(said.contains("nondeterministic"), "{said}");
}

#[test]
fn bad_external_keys_and_commands_are_refused_in_one_line_before_anything_is_written() {
    if !have("python3") {
        return;
    }
    for (keys, want) in [
        ("", "command: missing"),
        ("command = []", "command: empty"),
        (
            "command = [\"./no-such-solver\"]",
            "no-such-solver is not an executable file",
        ),
        (
            "command = [\"no-such-program-xyz\"]",
            "no-such-program-xyz is not found in PATH",
        ),
        (
            "command = [\"python3\", \"../sa.py\"]",
            "leaves the spec's folder",
        ),
        (
            "command = [\"/usr/bin/python3\"]",
            "leaves the spec's folder",
        ),
        (
            "command = [\"python3\", \"sa.py\"]\nmode = \"sometimes\"",
            "mode = 'sometimes' is not one of",
        ),
        (
            "command = [\"python3\", \"sa.py\"]\nwall_seconds = 0.0",
            "wall_seconds = 0",
        ),
        (
            "command = [\"python3\", \"sa.py\"]\nhandshake_seconds = -1.0",
            "handshake_seconds = -1",
        ),
        (
            "command = [\"python3\", \"sa.py\"]\nhandshake_seconds = 1e9",
            "handshake_seconds = 1000000000",
        ),
        ("command = [\"python3\", \"solvr.py\"]", "its stderr ends: "),
        (
            "command = [\"python3\", \"faulty.py\", \"hello\"]",
            "protocol 99",
        ),
        (
            "command = [\"python3\", \"-c\", \"pass\"]",
            "ended before its hello",
        ),
    ] {
        let algos = format!("\n[[algorithms]]\nlabel = \"x\"\nalgorithm = \"external\"\n{keys}\nmax_generations = 10\n")
            + &algorithm("lewis-sa", "", "");
        let d = spec_dir("refused", &algos, 1);
        let o = protocol(&d, "out", &[]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{keys}: {err}");
        assert!(err.contains(want) && err.contains("'x'"), "{keys}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{keys}: {err}");
        assert!(!d.join("out").exists(), "{keys}: a folder was written");
    }
    let algos = algorithm("lewis-sa", "", "command = [\"python3\"]")
        + "\n[[algorithms]]\nlabel = \"b\"\nalgorithm = \"ret-ga\"\nmax_generations = 10\n";
    let d = spec_dir("refused-builtin", &algos, 1);
    let err = stderr(&protocol(&d, "out", &[]));
    assert!(
        err.contains("command: a key of algorithm = \"external\" only"),
        "{err}"
    );
}

#[test]
fn solve_runs_an_external_solver_and_takes_an_evaluation_budget() {
    if !have("python3") {
        return;
    }
    let ex = examples();
    let o = ok(bin()
        .current_dir(&ex)
        .args(["solve", "--algo", "external", "--command", "python3 sa.py"])
        .args(["--max-evaluations", "300000", "--seed", "1", "mk_easy"])
        .args(UNHURRIED));
    assert!(String::from_utf8_lossy(&o.stdout).contains("external: solved"));
    let o = run(bin().current_dir(&ex).args([
        "solve",
        "--algo",
        "external",
        "--command",
        "python3 liar.py",
        "mk_easy",
    ]));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("invalid_claim"), "{}", stderr(&o));
    let o = run(bin().args([
        "solve",
        "--algo",
        "lewis-sa",
        "--max-evaluations",
        "1000",
        "mk_easy",
    ]));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("1000 fitness evaluations"), "{out}");
    // The documented minimal client solves a 4x4 puzzle.
    let o = ok(bin()
        .current_dir(&ex)
        .args([
            "solve",
            "--algo",
            "external",
            "--command",
            "python3 minimal.py",
        ])
        .args(["--max-evaluations", "100000", "12..3...2...4..1"])
        .args(UNHURRIED));
    assert!(String::from_utf8_lossy(&o.stdout).contains("external: solved"));
    let o = run(bin().args(["solve", "--algo", "external", "mk_easy"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--algo external needs --command"));
}

/// `--quick` caps an external solver's evaluations as well as its generations (a solver need
/// not count generations): at `quick_max_generations`, 5 here.
#[test]
fn quick_caps_an_external_solvers_evaluations() {
    if !have("python3") {
        return;
    }
    let algos = algorithm("mini", "command = [\"python3\", \"minimal.py\"]", "")
        + &algorithm("lewis-sa", "", "");
    let d = spec_dir("quick", &algos, 2);
    ok(bin()
        .arg("run")
        .arg(d.join("s.toml"))
        .arg("--out")
        .arg(d.join("out"))
        .arg("--quick"));
    let rows = rows(&d.join("out/runs.csv"));
    let mini: Vec<u64> = (rows.iter().filter(|r| r[1] == "mini"))
        .map(|r| r[7].parse().unwrap())
        .collect();
    assert_eq!(mini.len(), 2);
    assert!(mini.iter().all(|&e| e <= 5), "{mini:?}");
}

/// A solver for the interruption test: each run starts a child (`sleep`), notes both pids in
/// `pids/`, and waits while the file `block` exists; then an unsolved result.
const BLOCKING: &str = r#"import json, os, subprocess, sys, time
for text in sys.stdin:
    msg = json.loads(text)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2}), flush=True)
    elif msg["type"] == "run":
        child = subprocess.Popen(["sleep", "1000"])
        open(f"pids/{os.getpid()}-{child.pid}", "w").close()
        while os.path.exists("block"):
            time.sleep(0.05)
        child.kill()
        grid = msg["puzzle"]["givens"]
        print(json.dumps({"type": "result", "run_id": msg["run_id"], "evaluations": 1, "grid": grid}), flush=True)
"#;

/// Whether process `pid` has ended (gone or a zombie), waiting up to two minutes (a loaded
/// machine delays the kill and the reaping; an ended process passes at once).
fn ends(pid: &str) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
        let state = stat.as_deref().ok().and_then(|s| s.rsplit(')').next());
        if state.is_none_or(|s| s.trim_start().starts_with('Z')) {
            return true;
        }
        if std::time::Instant::now() > until {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A protocol whose two threads are each in a run of a solver that blocks (with a child) until
/// the file `block` is removed; `signals` are sent to the runner once both runs have started.
/// With `hup_ignored`, the runner starts with SIGHUP ignored, as under `nohup`. Returns the
/// runner's exit status, the spec's folder and the output folder.
fn signalled_protocol(
    name: &str,
    signals: &[libc::c_int],
    hup_ignored: bool,
) -> (std::process::ExitStatus, PathBuf, PathBuf, String) {
    let algos = algorithm("lewis-sa", "", "")
        + &algorithm("block", "command = [\"python3\", \"blocking.py\"]", "");
    let d = spec_dir(name, &algos, 3);
    std::fs::write(d.join("blocking.py"), BLOCKING).unwrap();
    std::fs::create_dir_all(d.join("pids")).unwrap();
    std::fs::write(d.join("block"), "").unwrap();
    let out = d.join("out");
    let mut command = bin();
    command
        .arg("run")
        .arg(d.join("s.toml"))
        .arg("--out")
        .arg(&out)
        .args(["--threads", "2"])
        .stderr(std::process::Stdio::piped());
    {
        use std::os::unix::process::CommandExt;
        // The runner starts with the signals' default dispositions, whatever this test
        // inherited (run from a shell script's background job, SIGINT is ignored, and the
        // runner rightly leaves an ignored signal ignored); with `hup_ignored`, SIGHUP
        // ignored, as under `nohup`.
        // SAFETY: signal(2) in the child between fork and exec; it allocates nothing and
        // touches no memory of the parent.
        unsafe {
            command.pre_exec(move || {
                for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                    libc::signal(signal, libc::SIG_DFL);
                }
                if hup_ignored {
                    libc::signal(libc::SIGHUP, libc::SIG_IGN);
                }
                Ok(())
            });
        }
    }
    let mut runner = command.spawn().unwrap();
    // Until both threads are in a blocked run (no fixed time: a loaded machine is slow).
    while pids(&d).len() < 2 {
        assert!(runner.try_wait().unwrap().is_none(), "the runner ended");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // The runner blocks the signals it waits for; its solvers and their children must not
    // inherit that mask (a solver's own SIGTERM handler would never run).
    for pair in pids(&d) {
        for pid in pair.split('-') {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
            let blocked = status.lines().find(|l| l.starts_with("SigBlk:")).unwrap();
            assert!(
                blocked.trim_end().ends_with(&"0".repeat(16)),
                "process {pid} starts with signals blocked: {blocked}"
            );
        }
    }
    for &signal in signals {
        // SAFETY: kill(2) on the pid of a child of this test that is not reaped yet.
        unsafe {
            libc::kill(runner.id() as libc::pid_t, signal);
        }
    }
    let done = runner.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&done.stderr).into_owned();
    (done.status, d, out, said)
}

/// The "SOLVER-CHILD" pid pairs the blocking solver recorded in `d/pids`.
fn pids(d: &Path) -> Vec<String> {
    (std::fs::read_dir(d.join("pids")).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// SIGTERM, SIGINT and SIGHUP (a closed terminal, a dropped ssh session) of the runner while
/// solvers are busy: every solver and its children end, the runner exits 143, 130 or 129,
/// runs.csv holds whole rows and no row of a run the signal cut, and a resume completes the
/// protocol.
#[test]
fn sigterm_sigint_and_sighup_end_every_solver_and_leave_a_resumable_folder() {
    if !have("python3") || !std::path::Path::new("/proc/self/stat").exists() {
        return;
    }
    for (signal, code) in [
        (libc::SIGTERM, 143),
        (libc::SIGINT, 130),
        (libc::SIGHUP, 129),
    ] {
        let (status, d, out, said) = signalled_protocol(&format!("signal{code}"), &[signal], false);
        assert_eq!(status.code(), Some(code), "{status:?}");
        for pair in pids(&d) {
            for pid in pair.split('-') {
                assert!(ends(pid), "process {pid} ({pair}) outlived the runner");
            }
        }
        let text = std::fs::read_to_string(out.join("runs.csv")).unwrap();
        let width = text.lines().next().unwrap().split(',').count();
        assert!(text.ends_with('\n'), "a torn row: {text}");
        for l in text.lines() {
            assert_eq!(l.split(',').count(), width, "{l}");
            assert!(
                !l.contains(",block,"),
                "a run cut by the signal was recorded: {l}"
            );
        }
        // It says what it kept and how to continue.
        let last = said.lines().last().unwrap_or_default();
        let kept = text.lines().count() - 1;
        let want = format!(
            "interrupted: {kept} of 12 runs kept in {}; continue with: ",
            out.join("runs.csv").display()
        );
        assert!(last.starts_with(&want), "{last}");
        assert!(last.ends_with(" --resume"), "{last}");
        std::fs::remove_file(d.join("block")).unwrap();
        ok(bin()
            .arg("run")
            .arg(d.join("s.toml"))
            .arg("--out")
            .arg(&out)
            .arg("--resume"));
        let rows = rows(&out.join("runs.csv"));
        assert_eq!(rows.len(), 2 * 2 * 3);
        assert!((rows.iter().filter(|r| r[1] == "block")).all(|r| r[10] == "converged"));
    }
}

/// A runner started with SIGHUP ignored (`nohup`) keeps it ignored: a SIGHUP and then a
/// SIGTERM end it by the SIGTERM (143; the pending SIGHUP, the lower number, would be taken
/// first if it were watched), and its solvers still end.
#[test]
fn a_runner_under_nohup_ignores_sighup() {
    if !have("python3") || !std::path::Path::new("/proc/self/stat").exists() {
        return;
    }
    let (status, d, _, _) = signalled_protocol("nohup", &[libc::SIGHUP, libc::SIGTERM], true);
    assert_eq!(status.code(), Some(143), "{status:?}");
    for pair in pids(&d) {
        for pid in pair.split('-') {
            assert!(ends(pid), "process {pid} ({pair}) outlived the runner");
        }
    }
}

/// A solver whose every start but the second answers at once; the second never does.
const SLOW_SECOND_START: &str = r#"import json, os, sys, time
n = int(open("starts").read()) + 1 if os.path.exists("starts") else 1
open("starts", "w").write(str(n))
if n == 2:
    time.sleep(1000)
for text in sys.stdin:
    msg = json.loads(text)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2}), flush=True)
    else:
        grid = msg["puzzle"]["givens"]
        print(json.dumps({"type": "result", "run_id": msg["run_id"], "evaluations": 1, "grid": grid}), flush=True)
"#;

/// The handshake is checked once before a fresh protocol writes anything, not again once the
/// folder is written: a start after the check that is slower than `handshake_seconds` fails
/// the run it was for with `start_failed` (docs/external-solvers.md), and the protocol goes on
/// and completes. (Before, the check ran a second time after the folder was written, and a
/// slow second start failed the whole protocol, leaving a header-only runs.csv.)
#[test]
fn a_slow_start_after_the_check_fails_its_run_not_the_protocol() {
    if !have("python3") {
        return;
    }
    let algos = algorithm("lewis-sa", "", "")
        + &algorithm(
            "slow",
            "command = [\"python3\", \"slow.py\"]",
            "handshake_seconds = 10.0",
        );
    let d = spec_dir("slow-start", &algos, 1);
    std::fs::write(d.join("slow.py"), SLOW_SECOND_START).unwrap();
    let o = protocol(&d, "out", &["--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let meta = std::fs::read_to_string(d.join("out/meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"complete\""), "{meta}");
    let slow: Vec<Vec<String>> = (rows(&d.join("out/runs.csv")).into_iter())
        .filter(|r| r[1] == "slow")
        .collect();
    assert_eq!(slow.len(), 2, "{slow:?}");
    let terminations: Vec<&str> = slow.iter().map(|r| r[10].as_str()).collect();
    assert_eq!(
        (terminations.iter())
            .filter(|t| **t == "start_failed")
            .count(),
        1,
        "{terminations:?}"
    );
    // Three starts: the check's, the second (which never answered), the one that ran.
    assert_eq!(std::fs::read_to_string(d.join("starts")).unwrap(), "3");
}

/// `merge --verify` re-runs no external solver's row (their command runs only with `replay
/// --run-external`): it says so, with how many rows it left, instead of counting only the rows
/// it re-ran as "every one reproduced"; `replay` without `--run-external` likewise counts them.
#[test]
fn verify_and_replay_say_how_many_external_rows_they_skipped() {
    if !have("python3") {
        return;
    }
    let algos = algorithm("givens", "command = [\"python3\", \"givens.py\"]", "")
        + &algorithm("lewis-sa", "", "");
    let d = spec_dir("verify-external", &algos, 2);
    // SLOW_SECOND_START without a slow start: every start answers at once.
    std::fs::write(d.join("starts"), "2").unwrap();
    std::fs::write(d.join("givens.py"), SLOW_SECOND_START).unwrap();
    let shards: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let out = d.join(format!("s{k}"));
            ok(bin()
                .arg("run")
                .arg(d.join("s.toml"))
                .arg("--out")
                .arg(&out)
                .args(["--shard", &format!("{k}/2")]));
            out
        })
        .collect();
    // An external row edited within the bounds merge checks (its evaluations).
    let path = shards[0].join("runs.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited: Vec<String> = (text.lines())
        .map(|l| match l.contains(",givens,") {
            true => l.replacen(",1,0,", ",7,0,", 1),
            false => l.to_string(),
        })
        .collect();
    assert_ne!(edited.join("\n") + "\n", text);
    std::fs::write(&path, edited.join("\n") + "\n").unwrap();
    let external = 2 * 2;
    let skipped = format!("{external} rows of external solvers not re-run");
    for check in [true, false] {
        let mut merge = bin();
        merge.arg("merge").arg(d.join("merged")).args(&shards);
        merge
            .args(["--verify", "1"])
            .args(check.then_some("--check"));
        let o = ok(&mut merge);
        let said = stderr(&o);
        assert!(said.contains("re-ran 4 rows"), "{said}");
        assert!(said.contains(&skipped), "{said}");
        assert!(said.contains("replay --run-external"), "{said}");
    }
    let o = ok(bin().arg("replay").arg(&shards[0]));
    let said = String::from_utf8_lossy(&o.stdout);
    let mine = (text.lines()).filter(|l| l.contains(",givens,")).count();
    let line = format!("{mine} rows of external solvers not replayed");
    assert!(said.contains(&line), "{said}");
}

/// A shard's meta.json whose spec no longer matches the settings it records (the external
/// solver's command edited, in every shard alike) is refused by `merge --check` and by
/// `merge` alike, in one line naming the shard's meta.json, and nothing is written; a command
/// that breaks a rule of spec files (outside the spec's folder) likewise. Before, `--check`
/// said the shards could be merged, then `merge` failed naming its hidden staging folder and
/// suggesting `--fresh` and `--out`, flags merge does not have.
#[test]
fn merge_and_its_check_refuse_an_edited_command_naming_the_shards_meta_json() {
    if !have("python3") {
        return;
    }
    let algos = algorithm("givens", "command = [\"python3\", \"givens.py\"]", "")
        + &algorithm("lewis-sa", "", "");
    let d = spec_dir("edited-command", &algos, 1);
    std::fs::write(d.join("starts"), "2").unwrap();
    std::fs::write(d.join("givens.py"), SLOW_SECOND_START).unwrap();
    let shards: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let out = d.join(format!("s{k}"));
            ok(bin()
                .arg("run")
                .arg(d.join("s.toml"))
                .arg("--out")
                .arg(&out)
                .args(["--shard", &format!("{k}/2")]));
            out
        })
        .collect();
    let metas: Vec<String> = (shards.iter())
        .map(|s| std::fs::read_to_string(s.join("meta.json")).unwrap())
        .collect();
    let typed = "\"command\": [\n          \"python3\",\n          \"givens.py\"\n        ]";
    for (command, needles) in [
        (
            "[\"python3\", \"other.py\"]",
            &["s1/meta.json", "not the spec its settings record"][..],
        ),
        (
            "[\"/bin/sh\", \"-c\", \"true\"]",
            &["s1/meta.json", "leaves the spec's folder"][..],
        ),
    ] {
        for (s, meta) in shards.iter().zip(&metas) {
            assert!(meta.contains(typed), "{meta}");
            let edited = meta.replace(typed, &format!("\"command\": {command}"));
            std::fs::write(s.join("meta.json"), edited).unwrap();
        }
        for check in [true, false] {
            let mut merge = bin();
            merge.arg("merge").arg(d.join("merged")).args(&shards);
            let o = run(merge.args(check.then_some("--check")));
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            for n in needles {
                assert!(err.contains(n), "{n:?} not in {err}");
            }
            assert!(
                !err.contains("--fresh") && !err.contains(".merge.tmp"),
                "{err}"
            );
            assert!(!d.join("merged").exists(), "{err}");
        }
    }
}

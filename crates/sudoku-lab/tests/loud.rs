//! Protocols that fail loudly: an algorithm none of whose runs is valid ends the protocol with
//! its failed runs counted by reason and exit code 3 (the folder complete, a resume says the
//! same); a chart that cannot be drawn is skipped with a warning instead of failing a finished
//! protocol; runs ended by a wall limit and budgets below an algorithm's own schedule are
//! warned about on stderr and in report.md. The external solvers are tiny Python scripts
//! written by the tests (skipped, saying so, where python3 is missing).

mod common;
use common::{bin, run, stderr, tmpdir};

use std::path::Path;

/// True when python3 runs; else the test says it is skipped.
fn have_python() -> bool {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: python3 is not installed");
    }
    found
}

/// A spec folder `d` with `s.toml`: compare report, `puzzles`, `runs` runs, `algorithms`
/// (each with a `max_evaluations`, and a generation cap that does not bind).
fn spec(name: &str, puzzles: &str, runs: u64, algorithms: &str) -> std::path::PathBuf {
    let d = tmpdir(name);
    let algorithms = algorithms.replace(
        "max_evaluations =",
        "max_generations = 1000000\nmax_evaluations =",
    );
    let spec = format!(
        "id = \"loud\"\ntitle = \"t\"\nmaster_seed = 3\nruns = {runs}\nquick_runs = 1\nquick_max_generations = 5\nreport = \"compare\"\npuzzles = [ {puzzles} ]\n{algorithms}"
    );
    std::fs::write(d.join("s.toml"), spec).unwrap();
    d
}

fn protocol(d: &Path, extra: &[&str]) -> std::process::Output {
    run(bin()
        .arg("run")
        .arg(d.join("s.toml"))
        .arg("--out")
        .arg(d.join("out"))
        .args(extra))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A solver that answers the handshake and quits: every run fails (`crashed`). The protocol
/// completes, says how many runs of which algorithm failed and why, and exits with 3; meta.json
/// says why; a `--resume` of the complete folder says the same.
#[test]
fn an_algorithm_without_a_valid_run_fails_the_protocol_loudly_with_exit_3() {
    if !have_python() {
        return;
    }
    let quit = "command = [\"python3\", \"-c\", \"print('{\\\"type\\\": \\\"hello\\\", \\\"protocol\\\": 2}', flush=True)\"]";
    let algos = format!(
        "\n[[algorithms]]\nlabel = \"quit\"\nalgorithm = \"external\"\n{quit}\nmax_evaluations = 2000\n\n[[algorithms]]\nlabel = \"hc\"\nalgorithm = \"hill-climb\"\nmax_evaluations = 2000\n"
    );
    let d = spec("no-valid", "{ id = \"mk_easy\" }", 3, &algos);
    for extra in [&["--threads", "2"][..], &["--resume"][..]] {
        let o = protocol(&d, extra);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "{extra:?}: {err}");
        assert!(
            err.contains("failed runs of 'quit': 3 of 3 runs failed (crashed 3)"),
            "{extra:?}: {err}"
        );
        assert!(!err.contains("failed runs of 'hc'"), "{err}");
        assert!(
            err.contains("error: no valid run of algorithm 'quit': every run failed"),
            "{extra:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        let meta = read(&d.join("out/meta.json"));
        assert!(
            meta.contains("\"complete-without-valid-runs\""),
            "{extra:?}: {meta}"
        );
        assert!(
            meta.contains("no valid run of algorithm 'quit' (3 of 3 runs failed (crashed 3))"),
            "{meta}"
        );
        // The folder is complete: every run recorded, the reports written.
        assert_eq!(read(&d.join("out/runs.csv")).lines().count(), 1 + 2 * 3);
        assert!(d.join("out/report.md").is_file());
        assert!(d.join("out/compare-success.csv").is_file());
    }
}

/// A solver that hangs on one puzzle and gives up at once on the other: the wall limit ends
/// the hanging runs, which the protocol counts as failed, and warns (stderr and report.md)
/// with how many and how to size the limit; the algorithm has valid runs, so exit 0.
#[test]
fn runs_ended_by_the_wall_limit_are_warned_about_with_how_to_size_it() {
    if !have_python() {
        return;
    }
    let d = spec(
        "wall",
        "{ id = \"mk_easy\" }, { id = \"mk_1star\" }",
        1,
        "\n[[algorithms]]\nlabel = \"slow\"\nalgorithm = \"external\"\ncommand = [\"python3\", \"slow.py\"]\nwall_seconds = 10\nmax_evaluations = 2000\n\n[[algorithms]]\nlabel = \"hc\"\nalgorithm = \"hill-climb\"\nmax_evaluations = 2000\n",
    );
    let script = r#"import json, sys, time
for text in sys.stdin:
    msg = json.loads(text)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2}), flush=True)
    elif msg["puzzle"]["id"] == "mk_1star":
        time.sleep(1e6)
    else:
        grid = msg["puzzle"]["givens"]
        print(json.dumps({"type": "result", "run_id": msg["run_id"], "solved": False, "evaluations": 1, "grid": grid}), flush=True)
"#;
    std::fs::write(d.join("slow.py"), script).unwrap();
    let o = protocol(&d, &[]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let want = "algorithm 'slow': the wall limit (wall_seconds = 10) ended 1 of 2 runs, counted as failed; raise wall_seconds well above the longest run that ended on its own, ";
    assert!(err.contains(&format!("warning: {want}")), "{err}");
    assert!(
        err.contains("failed runs of 'slow': 1 of 2 runs failed (wall_limit 1)"),
        "{err}"
    );
    let report = read(&d.join("out/report.md"));
    assert!(report.contains("\n## Warnings\n\n- "), "{report}");
    assert!(report.contains(want), "{report}");
}

/// 24 algorithms: the Bayesian simplex chart has a panel per pair (276), more than the
/// largest figure holds. The chart is skipped with a warning in report.md and on stderr; the
/// tables are written and the protocol ends with exit 0 and meta.json "complete".
#[test]
fn a_chart_too_large_is_skipped_with_a_warning_and_never_fails_the_protocol() {
    let mut algos = String::new();
    for i in 0..24 {
        algos += &format!(
            "\n[[algorithms]]\nlabel = \"hc{i}\"\nalgorithm = \"hill-climb\"\nmax_evaluations = {}\n",
            500 + 100 * i
        );
    }
    let d = spec(
        "many",
        "{ id = \"mk_easy\" }, { id = \"mk_1star\" }",
        2,
        &algos,
    );
    let o = protocol(&d, &[]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("warning: chart `"), "{err}");
    assert!(err.contains("not drawn, skipped"), "{err}");
    let out = d.join("out");
    let report = read(&out.join("report.md"));
    let warnings = report.split("\n## Warnings\n").nth(1).unwrap_or_default();
    assert!(warnings.contains("not drawn, skipped"), "{report}");
    for table in [
        "compare-success.csv",
        "compare-pairs.csv",
        "compare-bayes.csv",
    ] {
        assert!(out.join(table).is_file(), "{table}");
    }
    assert!(read(&out.join("meta.json")).contains("\"status\": \"complete\""));
    // A skipped chart leaves no file behind, and report.md no broken image.
    for line in warnings.lines().filter(|l| l.contains("not drawn")) {
        let name = line.split('`').nth(1).unwrap();
        assert!(!out.join(format!("{name}.png")).exists(), "{name}");
        assert!(!out.join(format!("{name}.svg")).exists(), "{name}");
        assert!(
            !report.contains(&format!("]({name}.png)")),
            "{name}: {report}"
        );
        assert!(report.contains(&format!("*(chart `{name}` not drawn: see Warnings)*")));
    }
}

/// Lewis SA's cooling takes 1 / -ln(alpha) chains of (free cells)^2 moves to bring the
/// temperature down by a factor e: a budget below that is warned about before the runs
/// (stderr) and in report.md; a chain length that fits the budget is not.
#[test]
fn a_budget_below_the_cooling_schedule_of_lewis_sa_is_warned_about() {
    let algos = "\n[[algorithms]]\nlabel = \"sa\"\nalgorithm = \"lewis-sa\"\nmax_evaluations = 20000\n\n[[algorithms]]\nlabel = \"sa-short-chains\"\nalgorithm = \"lewis-sa\"\nparams = { chain_length = 10 }\nmax_evaluations = 20000\n";
    let d = spec("schedule", "{ id = \"mk_easy\" }", 2, algos);
    let o = protocol(&d, &[]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let want = "algorithm 'sa' (lewis-sa): max_evaluations = 20000 is below the length of its own schedule on 1 of 1 puzzles (";
    let at = err
        .find(&format!("warning: {want}"))
        .unwrap_or_else(|| panic!("{err}"));
    // Once for the protocol, not once per run (the spec makes two runs of it).
    assert_eq!(err.matches(want).count(), 1, "{err}");
    // Before the runs: ahead of the end-of-protocol line.
    let end = err.find("runs, ").unwrap_or_else(|| panic!("{err}"));
    assert!(at < end, "{err}");
    assert!(
        err.contains("its cooling (alpha = 0.99) takes 100 chains"),
        "{err}"
    );
    assert!(
        !err.contains("'sa-short-chains' (lewis-sa): max_evaluations"),
        "{err}"
    );
    let report = read(&d.join("out/report.md"));
    let warnings = report.split("\n## Warnings\n").nth(1).unwrap_or_default();
    assert!(warnings.contains(want), "{report}");
    assert!(!warnings.contains("sa-short-chains"), "{report}");
}

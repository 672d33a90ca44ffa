//! Results folders that cannot be forged or made to block: a row that claims a solution its
//! grid is not, a spec run by its bare name, FIFOs where an input file is expected, the logs
//! of a discarded protocol and labels that are not plain file names. Each is refused in one
//! line naming the file (and line or key), exit 2, or handled as a fresh run would.

mod common;
#[allow(unused_imports)]
use common::{bin, ok, run, stderr, tmpdir};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SPEC: &str = r#"
id = "folders"
title = "folders test"
master_seed = 5
runs = 3
quick_runs = 1
quick_max_generations = 10

[[puzzles]]
id = "mk_easy"

[[puzzles]]
id = "mk_1star"

[[algorithms]]
label = "mk"
algorithm = "mk-ga"
max_generations = 5

[[algorithms]]
label = "sa"
algorithm = "lewis-sa"
max_generations = 100000000
max_evaluations = 400000
"#;

/// The spec in a fresh folder.
fn spec(name: &str) -> (PathBuf, PathBuf) {
    let d = tmpdir(name);
    let spec = d.join("spec.toml");
    std::fs::write(&spec, SPEC).unwrap();
    (d, spec)
}

fn protocol(spec: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut c = bin();
    c.arg("run").arg(spec).arg("--out").arg(out).args(extra);
    c
}

/// Exit 2 and one `error:` line holding every `needle`.
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

/// Replace field `field` of line `line` (1-based, the header is line 1) of a CSV file; the old
/// text is returned.
fn edit_field(path: &Path, line: usize, field: usize, value: &str) -> String {
    let old = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = old.lines().map(str::to_string).collect();
    let mut f: Vec<String> = lines[line - 1].split(',').map(str::to_string).collect();
    f[field] = value.to_string();
    lines[line - 1] = f.join(",");
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
    old
}

/// The line (1-based) of the first row of runs.csv whose `solved` is `solved`.
fn line_with(path: &Path, solved: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let i = text
        .lines()
        .skip(1)
        .position(|l| l.split(',').nth(5) == Some(solved))
        .unwrap_or_else(|| panic!("no row with solved = {solved}:\n{text}"));
    i + 2
}

/// A row that claims solved = 1 must hold a solution of its puzzle: `--resume`, `replay` and
/// `merge` refuse a forged success (an unsolved row turned into a success, or a solved grid
/// with two cells swapped, or a different solution grid) naming the file and line, before any
/// run. Before, the forged row was counted as a success (resume, merge) or replayed.
#[test]
fn a_forged_success_is_refused_by_resume_replay_and_merge() {
    let (d, spec) = spec("forged");
    let out = d.join("out");
    ok(&mut protocol(&spec, &out, &[]));
    let runs = out.join("runs.csv");
    let before = std::fs::read_to_string(&runs).unwrap();

    // An unsolved row claims solved.
    let n = line_with(&runs, "0");
    let original = edit_field(&runs, n, 5, "1");
    let forged = std::fs::read_to_string(&runs).unwrap();
    let at = format!("runs.csv:{n}");
    refused(
        &run(&mut protocol(&spec, &out, &["--resume"])),
        &[&at, "claims solved = 1", "not a solution"],
    );
    assert_eq!(
        std::fs::read_to_string(&runs).unwrap(),
        forged,
        "nothing run"
    );
    refused(&run(bin().arg("replay").arg(&out)), &[&at, "claims solved"]);
    std::fs::write(&runs, &original).unwrap();

    // A solved row whose grid no longer is a solution (two cells swapped), and one whose grid
    // is a valid grid that ignores the givens (another puzzle's solution).
    let s = line_with(&runs, "1");
    let row: Vec<String> = before
        .lines()
        .nth(s - 1)
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let mut grid: Vec<char> = row[14].chars().collect();
    let j = (1..grid.len()).find(|&j| grid[j] != grid[0]).unwrap();
    grid.swap(0, j);
    let swapped: String = grid.into_iter().collect();
    let other = before
        .lines()
        .skip(1)
        .find(|l| {
            let f: Vec<&str> = l.split(',').collect();
            f[5] == "1" && f[2] != row[2]
        })
        .map(|l| l.split(',').nth(14).unwrap().to_string());
    for bad in [Some(swapped), other].into_iter().flatten() {
        edit_field(&runs, s, 14, &bad);
        let at = format!("runs.csv:{s}");
        refused(
            &run(&mut protocol(&spec, &out, &["--resume"])),
            &[&at, "claims solved = 1"],
        );
        refused(&run(bin().arg("replay").arg(&out)), &[&at, "claims solved"]);
        std::fs::write(&runs, &original).unwrap();
    }
    ok(&mut protocol(&spec, &out, &["--resume"]));
    assert_eq!(std::fs::read_to_string(&runs).unwrap(), before);

    // Merge: a shard with a forged success is refused naming the shard's file and line.
    let shards: Vec<PathBuf> = (1..=2).map(|k| d.join(format!("shard{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        ok(&mut protocol(
            &spec,
            s,
            &["--shard", &format!("{}/2", k + 1)],
        ));
    }
    let shard_runs = shards[0].join("runs.csv");
    let n = line_with(&shard_runs, "0");
    edit_field(&shard_runs, n, 5, "1");
    let o = run(bin().arg("merge").arg(d.join("merged")).args(&shards));
    refused(&o, &[&format!("shard1/runs.csv:{n}"), "claims solved = 1"]);
    assert!(!d.join("merged").exists());
}

/// `run s.toml` from the spec's own folder records that folder in meta.json (before: an
/// empty `spec_dir`, so `replay` and `merge` looked for the puzzle file in the results folder
/// and failed with "cannot read puzzle file"). Replay from another folder and a merge of
/// shards run the same way work; a meta.json whose spec_dir is empty is refused naming it.
#[test]
fn a_spec_run_by_its_bare_name_can_be_replayed_and_merged() {
    let d = tmpdir("bare");
    std::fs::create_dir_all(d.join("res")).unwrap();
    std::fs::write(
        d.join("res/p.txt"),
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n",
    )
    .unwrap();
    let text = SPEC.replace(
        "[[puzzles]]\nid = \"mk_easy\"\n",
        "[[puzzles]]\nid = \"p\"\nfile = \"res/p.txt\"\n",
    );
    assert_ne!(text, SPEC);
    std::fs::write(d.join("s.toml"), text).unwrap();
    ok(bin()
        .current_dir(&d)
        .args(["run", "s.toml", "--out", "out"]));
    let meta = std::fs::read_to_string(d.join("out/meta.json")).unwrap();
    assert!(meta.contains("\"spec_dir\": \"..\""), "{meta}");
    // From the spec's folder and from elsewhere.
    let o = ok(bin().current_dir(&d).args(["replay", "out"]));
    assert!(String::from_utf8_lossy(&o.stdout).contains("0 different"));
    ok(bin()
        .current_dir(std::env::temp_dir())
        .arg("replay")
        .arg(d.join("out")));
    for k in 1..=2 {
        ok(bin().current_dir(&d).args([
            "run",
            "s.toml",
            "--out",
            &format!("s{k}"),
            "--shard",
            &format!("{k}/2"),
        ]));
    }
    ok(bin().current_dir(&d).args(["merge", "merged", "s1", "s2"]));
    let rows = |p: &str| -> Vec<String> {
        std::fs::read_to_string(d.join(p).join("runs.csv"))
            .unwrap()
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.drain(12..14); // wall_ms, cpu_ms
                f.join(",")
            })
            .collect()
    };
    assert_eq!(rows("out"), rows("merged"));
    ok(bin().current_dir(&d).args(["replay", "merged"]));
    // A folder recorded with an empty spec_dir (as before) is refused naming the key.
    let emptied = meta.replace("\"spec_dir\": \"..\"", "\"spec_dir\": \"\"");
    std::fs::write(d.join("out/meta.json"), emptied).unwrap();
    refused(
        &run(bin().current_dir(&d).args(["replay", "out"])),
        &["out/meta.json: spec_dir"],
    );
}

/// Run `cmd` with a generous limit: a command that blocks (opening a FIFO nobody writes) is
/// killed and reported instead of hanging the test suite.
fn bounded(cmd: &mut Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("blocked (killed after 120 s): {}", stderr(&o));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

fn mkfifo(p: &Path) -> bool {
    let _ = std::fs::remove_file(p);
    Command::new("mkfifo")
        .arg(p)
        .status()
        .is_ok_and(|s| s.success())
}

/// A FIFO where the CLI expects an input file (the spec, `--published`, a puzzle file,
/// meta.json, runs.csv, settings.json of a race) is refused as "not a regular file" naming
/// it, instead of blocking for ever on the open.
#[cfg(unix)]
#[test]
fn a_fifo_as_an_input_file_is_refused_not_waited_on() {
    let (d, spec) = spec("fifo");
    let fifo = d.join("fifo.toml");
    if !mkfifo(&fifo) {
        return;
    }
    let o = bounded(bin().arg("run").arg(&fifo));
    refused(&o, &["fifo.toml", "not a regular file"]);

    // --published of readings.
    let pubfifo = d.join("pub.csv");
    assert!(mkfifo(&pubfifo));
    let o = bounded(
        bin()
            .args([
                "readings",
                "ret-ga-table1",
                "--algorithm",
                "literal",
                "--published",
            ])
            .arg(&pubfifo)
            .arg("--out")
            .arg(d.join("race")),
    );
    refused(&o, &["pub.csv", "not a regular file"]);

    // A puzzle file.
    std::fs::create_dir_all(d.join("res")).unwrap();
    assert!(mkfifo(&d.join("res/p.txt")));
    let text = SPEC.replace(
        "[[puzzles]]\nid = \"mk_easy\"\n",
        "[[puzzles]]\nid = \"p\"\nfile = \"res/p.txt\"\n",
    );
    std::fs::write(d.join("p.toml"), text).unwrap();
    let o = bounded(&mut protocol(&d.join("p.toml"), &d.join("pout"), &[]));
    refused(&o, &["res/p.txt", "not a regular file"]);
    assert!(!d.join("pout").exists());

    // meta.json and runs.csv of a results folder handed to replay.
    let out = d.join("out");
    ok(&mut protocol(&spec, &out, &[]));
    for name in ["meta.json", "runs.csv"] {
        let keep = std::fs::read(out.join(name)).unwrap();
        assert!(mkfifo(&out.join(name)));
        let o = bounded(bin().arg("replay").arg(&out));
        refused(&o, &[name, "not a regular file"]);
        std::fs::remove_file(out.join(name)).unwrap();
        std::fs::write(out.join(name), keep).unwrap();
    }
}

/// `--fresh` discards the earlier protocol's external solver logs with its runs (before:
/// `external-logs/` stayed, beside runs that did not write it).
#[test]
fn fresh_removes_the_external_logs_of_the_discarded_protocol() {
    let (d, spec) = spec("fresh-logs");
    let out = d.join("out");
    ok(&mut protocol(&spec, &out, &[]));
    std::fs::create_dir_all(out.join("external-logs/py")).unwrap();
    std::fs::write(out.join("external-logs/py/p-0.log"), "old\n").unwrap();
    ok(&mut protocol(&spec, &out, &["--fresh"]));
    assert!(!out.join("external-logs").exists());
}

/// An algorithm label that is not a plain file name (`.`, `..`, one with `/`) is a spec
/// error, before anything is written: it names the folder of an external solver's logs, and
/// `..` put them in the results folder itself.
#[test]
fn a_label_that_is_not_a_plain_file_name_is_refused() {
    let (d, _) = spec("labels");
    for bad in ["..", ".", "a/b", "../x"] {
        let text = SPEC.replace("label = \"mk\"", &format!("label = \"{bad}\""));
        let s = d.join("bad.toml");
        std::fs::write(&s, text).unwrap();
        let o = run(&mut protocol(&s, &d.join("out"), &[]));
        refused(
            &o,
            &[
                "bad.toml",
                &format!("algorithm label '{bad}'"),
                "plain file name",
            ],
        );
        assert!(!d.join("out").exists());
    }
}

/// The folder of the committed examples of external solvers.
fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/external")
}

/// meta.json with the external entry's `"command": [...]` replaced by `command` (JSON) and,
/// when given, `spec_dir` replaced.
fn edit_meta(meta: &str, command: &str, spec_dir: Option<&str>) -> String {
    let start = meta.find("\"command\": [").unwrap();
    let end = start + meta[start..].find(']').unwrap() + 1;
    let mut out = format!("{}\"command\": {command}{}", &meta[..start], &meta[end..]);
    if let Some(d) = spec_dir {
        let s = out.find("\"spec_dir\": \"").unwrap();
        let e = s + 13 + out[s + 13..].find('"').unwrap() + 1;
        out = format!("{}\"spec_dir\": \"{d}\"{}", &out[..s], &out[e..]);
    }
    out
}

/// `replay` never runs the command a results folder records unless asked (`--run-external`):
/// without it, the external solver's rows are skipped with a notice naming the command and
/// the built-in rows are replayed. A meta.json whose spec breaks a rule of spec files (a
/// command outside the spec's folder) is refused naming the file and key, before anything
/// runs. Before, replay ran whatever meta.json said (`sh -c ...`) while verifying a folder.
#[test]
fn replay_runs_no_recorded_command_unless_asked() {
    let have = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let d = tmpdir("replay-external");
    std::fs::copy(examples().join("minimal.py"), d.join("minimal.py")).unwrap();
    let text = SPEC.replace(
        "[[algorithms]]\nlabel = \"mk\"\nalgorithm = \"mk-ga\"\n",
        "[[algorithms]]\nlabel = \"py\"\nalgorithm = \"external\"\ncommand = [\"python3\", \"minimal.py\"]\nmax_evaluations = 2000\n",
    );
    assert_ne!(text, SPEC);
    std::fs::write(d.join("s.toml"), text).unwrap();
    let out = d.join("out");
    ok(&mut protocol(&d.join("s.toml"), &out, &[]));
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let builtin = runs.lines().filter(|l| l.contains(",sa,")).count();

    // Asked: everything replayed, the command shown first.
    let o = ok(bin().args(["replay", "--run-external"]).arg(&out));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("running [\"python3\", \"minimal.py\"]"),
        "{said}"
    );
    assert!(said.contains("0 different"), "{said}");
    // Not asked: the external rows are skipped, naming the command; the others replayed.
    let o = ok(bin().arg("replay").arg(&out));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("external solver 'py': runs not replayed")
            && said.contains("[\"python3\", \"minimal.py\"]")
            && said.contains("--run-external"),
        "{said}"
    );
    assert!(said.contains(&format!("replayed {builtin} runs")), "{said}");

    // A meta.json edited to run a shell: nothing runs without the flag, the notice shows it.
    let meta = std::fs::read_to_string(out.join("meta.json")).unwrap();
    let pwned = d.join("pwned");
    let edited = edit_meta(&meta, "[\"sh\", \"-c\", \"touch pwned\"]", None);
    std::fs::write(out.join("meta.json"), &edited).unwrap();
    let o = ok(bin().current_dir(&d).arg("replay").arg(&out));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("[\"sh\", \"-c\", \"touch pwned\"]"), "{said}");
    assert!(
        !pwned.exists() && !out.join("pwned").exists(),
        "the command ran"
    );
    // The same with spec_dir set to / and a program named from there.
    let edited = edit_meta(&meta, "[\"bin/sh\", \"-c\", \"touch pwned\"]", Some("/"));
    std::fs::write(out.join("meta.json"), &edited).unwrap();
    let o = ok(bin().current_dir(&d).arg("replay").arg(&out));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("in \"/\""), "{said}");
    assert!(!pwned.exists(), "the command ran");
    // A command outside the spec's folder breaks a rule of spec files: refused, flag or not.
    let target = d.join("pwned").display().to_string();
    let edited = edit_meta(
        &meta,
        &format!("[\"/bin/sh\", \"-c\", \"touch {target}\"]"),
        None,
    );
    std::fs::write(out.join("meta.json"), &edited).unwrap();
    for extra in [&[][..], &["--run-external"][..]] {
        let o = run(bin().arg("replay").args(extra).arg(&out));
        refused(&o, &["out/meta.json", "invalid spec", "command"]);
        assert!(!pwned.exists(), "the command ran");
    }
}

/// A tiny race folder: Ret-GA on two easy puzzles, two readings, a few runs (as in
/// tests/readings.rs).
fn race_fixture(name: &str) -> (PathBuf, PathBuf) {
    let dir = tmpdir(name);
    std::fs::write(
        dir.join("pub.csv"),
        "level,givens,algorithm,runs,count,minimum,maximum,average,median,sd\n\
         1 Star,33,Ret-GA,100,100,39,1100,159.24,98,159.95\n\
         Easy,36,Ret-GA,100,100,27,305,70.34,52,55.70\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("spec.toml"),
        r#"id = "race-test"
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
readings = { elitism = ["alternate", "best"] }
"#,
    )
    .unwrap();
    let out = dir.join("race");
    ok(bin()
        .current_dir(&dir)
        .args([
            "readings",
            "spec.toml",
            "--algorithm",
            "ret",
            "--rounds",
            "4,8",
        ])
        .arg("--out")
        .arg(&out));
    (dir, out)
}

/// `replay DIR` of a race folder re-runs the runs of its run file and finds an edited one
/// (which `--resume` cannot tell from a real one). Before, `replay` knew no race folder.
#[test]
fn replay_of_a_race_folder_finds_an_edited_run() {
    let (dir, out) = race_fixture("race-replay");
    let runs = out.join("runs.csv");
    let text = std::fs::read_to_string(&runs).unwrap();

    // Replay: identical, then an edited row is found.
    let o = ok(bin().current_dir(&dir).args(["replay", "race"]));
    let said = String::from_utf8_lossy(&o.stdout);
    // The runs of the race and those of its confirmation at the second seed.
    let confirm = std::fs::read_to_string(out.join("confirm-runs.csv")).unwrap_or_default();
    let n = text.lines().count() - 1 + confirm.lines().count().saturating_sub(1);
    assert!(
        said.contains(&format!("replayed {n} runs of the race")) && said.contains("0 different"),
        "{said}"
    );
    let solved = text
        .lines()
        .position(|l| l.split(',').nth(5) == Some("1"))
        .expect("a solved run");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut f: Vec<String> = lines[solved].split(',').map(str::to_string).collect();
    f[6] = (f[6].parse::<u64>().unwrap() + 1).to_string();
    lines[solved] = f.join(",");
    std::fs::write(&runs, lines.join("\n") + "\n").unwrap();
    let o = run(bin().current_dir(&dir).args(["replay", "race"]));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("1 different"));
    std::fs::write(&runs, &text).unwrap();
}

/// The race's run file on `--resume`: a run recorded twice (same reading, puzzle, run and
/// cap) is refused naming both lines; a link in its place is refused before anything is
/// written or appended through it. Before, the duplicate was kept and the link followed.
#[test]
fn a_race_run_file_refuses_duplicates_and_links() {
    let (dir, out) = race_fixture("race-links");
    let resume = || {
        run(bin()
            .current_dir(&dir)
            .args([
                "readings",
                "spec.toml",
                "--algorithm",
                "ret",
                "--rounds",
                "4,8",
            ])
            .arg("--out")
            .arg(&out)
            .arg("--resume"))
    };
    let runs = out.join("runs.csv");
    let text = std::fs::read_to_string(&runs).unwrap();
    let settings = std::fs::read_to_string(out.join("settings.json")).unwrap();
    let n = text.lines().count() - 1;

    // A duplicated row: refused naming both lines, nothing written.
    let dup = format!("{text}{}\n", text.lines().nth(2).unwrap());
    std::fs::write(&runs, &dup).unwrap();
    let o = resume();
    refused(
        &o,
        &[&format!("runs.csv:{}: duplicate row", n + 2), "line 3"],
    );
    assert_eq!(std::fs::read_to_string(&runs).unwrap(), dup);
    std::fs::write(&runs, &text).unwrap();

    // A link in place of the run file: refused, its target untouched, nothing written.
    let target = dir.join("elsewhere.csv");
    std::fs::write(&target, &text).unwrap();
    std::fs::remove_file(&runs).unwrap();
    std::os::unix::fs::symlink(&target, &runs).unwrap();
    let o = resume();
    refused(&o, &["runs.csv"]);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
    assert_eq!(
        std::fs::read_to_string(out.join("settings.json")).unwrap(),
        settings
    );
}

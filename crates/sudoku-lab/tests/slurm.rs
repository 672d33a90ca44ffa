//! The Slurm array job of `scripts/slurm/` on a real Slurm: a `--quick`
//! reproduction in two shards plus the dependent merge job, compared with the single-machine
//! folder by `scripts/slurm/compare.py`; a requeued task that resumes and appends to its log;
//! a cancelled task that makes `submit.sh --wait` fail, and its recovery. Runs when `sbatch` is
//! on the PATH and a controller answers (`scripts/slurm/setup-local-cluster.sh` makes a
//! one-node cluster); says skipped otherwise.

mod common;

use common::{bin, ok, tmpdir};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

fn cluster_up() -> bool {
    let answers = |cmd: &str| {
        Command::new("sh")
            .args(["-c", cmd])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    answers("command -v sbatch") && answers("sinfo -h >/dev/null 2>&1")
}

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/slurm")
}

/// `submit.sh ARGS...` with the test's binary, polling the queue every second.
fn submit(args: &[&str], out: &Path) -> Command {
    let mut c = Command::new("bash");
    c.arg(scripts().join("submit.sh"));
    for a in args {
        if *a == "OUT" {
            c.arg(out);
        } else {
            c.arg(a);
        }
    }
    c.env("LAB_BIN", env!("CARGO_BIN_EXE_sudoku-lab"))
        .env("LAB_POLL_SECONDS", "1");
    c
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Runs a Slurm client command and requires success.
fn slurm(cmd: &str, args: &[&str]) {
    let o = Command::new(cmd).args(args).output().unwrap();
    assert!(o.status.success(), "{cmd} {args:?}: {}", text(&o));
}

/// Waits until nothing of job `id` is queued or running (at most two minutes).
fn wait_gone(id: &str) {
    let start = Instant::now();
    loop {
        let o = Command::new("squeue")
            .args(["-h", "-r", "-j", id])
            .output()
            .unwrap();
        if o.status.success() && o.stdout.is_empty() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "job {id} still queued"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// compare.py REFERENCE OUT must find them identical but wall times.
fn assert_same_as_one_machine(dir: &Path, out: &Path) {
    let reference = dir.join("single");
    ok(bin()
        .args(["reproduce", "reseda-table2", "--quick", "--out"])
        .arg(&reference));
    let o = Command::new("python3")
        .arg(scripts().join("compare.py"))
        .arg(&reference)
        .arg(out)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{report}");
    assert!(
        report.contains("RESULT: identical but wall times"),
        "{report}"
    );
}

fn logs(out: &Path) -> Vec<String> {
    let mut v: Vec<_> = std::fs::read_dir(out.with_extension("shards").join("logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The id in a line "submitted ... job ID ..." of submit.sh's output.
fn job_id(text: &str, what: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("submitted {what} job ")))
        .unwrap_or_else(|| panic!("no '{what}' line in {text}"));
    line.split_whitespace().nth(3).unwrap().to_string()
}

/// Runs a submit.sh whose jobs are held: once it has printed both job ids, calls `before`
/// with the array job's id, then releases both jobs. Returns its status, stdout and stderr.
fn run_held(mut cmd: Command, before: impl Fn(&str)) -> (ExitStatus, String, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut said = String::new();
    while !said.contains("submitted merge job") {
        let line = lines.next().expect("submit.sh ended early").unwrap();
        said += &line;
        said.push('\n');
    }
    let array = job_id(&said, "array");
    before(&array);
    slurm("scontrol", &["release", &array]);
    slurm("scontrol", &["release", &job_id(&said, "merge")]);
    for line in lines {
        said += &line.unwrap();
        said.push('\n');
    }
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, said, err)
}

#[test]
fn an_array_job_and_its_merge_give_the_single_machine_folder() {
    if !cluster_up() {
        println!("skipped: no Slurm here (sbatch not on the PATH or no controller answering)");
        return;
    }
    let dir = tmpdir("slurm");
    let out = dir.join("cluster");
    let args = ["reseda-table2", "2", "OUT", "--quick", "--wait"];
    let sbatch = ["--throttle", "1", "--time", "10", "--mem", "100M"];
    let o = submit(&args, &out).args(sbatch).output().unwrap();
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("submitted array job") && t.contains("done: "),
        "{t}"
    );
    let array = job_id(&t, "array");
    // The sbatch options reached Slurm.
    let o = Command::new("scontrol")
        .args(["-o", "show", "job", &format!("{array}_1")])
        .output()
        .unwrap();
    let job = text(&o);
    for want in [
        "ArrayTaskThrottle=1",
        "TimeLimit=00:10:00",
        "MinMemoryNode=100M",
    ] {
        assert!(job.contains(want), "{want} not in {job}");
    }
    assert_eq!(logs(&out).len(), 3, "two shard logs and a merge log");
    assert_same_as_one_machine(&dir, &out);

    // The tasks ran the submission's own copy of the binary, not the build they came from.
    let copy = dir.join("cluster.shards/bin/sudoku-lab");
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(env!("CARGO_BIN_EXE_sudoku-lab")).unwrap()
    );
    let log1 = dir.join(format!("cluster.shards/logs/shard-{array}_1.out"));
    let first = std::fs::read_to_string(&log1).unwrap();
    assert!(
        first.contains(&format!("binary {}", copy.display())),
        "{first}"
    );
    // The merge wrote its reports with the tasks' thread count (--cpus, 1), not all cores.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["threads"], 1, "{meta}");

    // A requeued task resumes its shard (nothing left to run) and appends to its log.
    let task = format!("{array}_1");
    slurm("scontrol", &["requeue", &task]);
    slurm(
        "scontrol",
        &["update", &format!("jobid={task}"), "StartTime=now"],
    );
    wait_gone(&task);
    let again = std::fs::read_to_string(&log1).unwrap();
    assert!(
        again.starts_with(&first),
        "the log was overwritten: {again}"
    );
    assert!(
        again.contains("restart 1") && again.contains("(9 runs resumed)"),
        "{again}"
    );

    // The same command again finds nothing to do; another shard count is refused, naming
    // what to remove; a folder that no submission made is refused.
    let o = submit(&["reseda-table2", "2", "OUT", "--quick"], &out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("complete: nothing to recover"),
        "{}",
        text(&o)
    );
    let o = submit(&["reseda-table2", "3", "OUT", "--quick"], &out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("2 shards, not 3") && e.contains("rm -r"), "{e}");
    let o = submit(
        &["reseda-table2", "2", "OUT", "--quick"],
        &dir.join("single"),
    )
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("exists"));
    assert_eq!(logs(&out).len(), 3, "nothing was submitted");
}

#[test]
fn a_cancelled_task_fails_the_wait_and_recover_runs_only_it() {
    if !cluster_up() {
        println!("skipped: no Slurm here (sbatch not on the PATH or no controller answering)");
        return;
    }
    let dir = tmpdir("slurm-cancel");
    let out = dir.join("cluster");
    // Held jobs (--hold is kept for the recovery too), so that task 2 is surely cancelled
    // before it starts.
    let args = [
        "reseda-table2",
        "2",
        "OUT",
        "--quick",
        "--wait",
        "--sbatch",
        "--hold",
    ];
    let (status, said, err) = run_held(submit(&args, &out), |array| {
        slurm("scancel", &[&format!("{array}_2")]);
    });
    let array = job_id(&said, "array");
    let merge = job_id(&said, "merge");
    assert_eq!(status.code(), Some(1), "{said}{err}");
    assert!(!said.contains("done: "), "{said}");
    assert!(err.contains("shard 1: complete"), "{err}");
    assert!(
        err.contains(&format!("shard 2: not started; task {array}_2")),
        "{err}"
    );
    assert!(
        err.contains(&format!("merge: job {merge} is CANCELLED")),
        "{err}"
    );
    assert!(err.contains("submit.sh --recover"), "{err}");
    assert!(!out.exists());
    let o = submit(&["--status", "OUT"], &out).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));

    // Recovery runs shard 2 alone, then the merge; shard 1 ran once.
    let (status, said, err) = run_held(submit(&["--recover", "OUT", "--wait"], &out), |_| {});
    let t = said + &err;
    assert!(status.success(), "{t}");
    assert!(
        t.contains("1 of 2 shards to run (2)") && t.contains("done: "),
        "{t}"
    );
    let again = job_id(&t, "array");
    let shard_logs: Vec<_> = logs(&out)
        .into_iter()
        .filter(|l| l.starts_with("shard-"))
        .collect();
    let mut expected = [
        format!("shard-{array}_1.out"),
        format!("shard-{again}_2.out"),
    ];
    expected.sort();
    assert_eq!(shard_logs, expected);
    assert_same_as_one_machine(&dir, &out);
}

/// The options submit.sh documents in its usage text are exactly the ones it parses (no Slurm
/// needed).
#[test]
fn submit_usage_lists_exactly_the_options_it_parses() {
    let script = std::fs::read_to_string(scripts().join("submit.sh")).unwrap();
    let mut documented: Vec<&str> = script
        .lines()
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| l.trim_start_matches('#').trim_start().split(' ').next())
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .collect();
    documented.extend(["--recover", "--status", "--help"]);
    documented.sort();
    documented.dedup();
    let mut parsed: Vec<&str> = script
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .filter_map(|l| l.trim_start().split(')').next())
        .filter(|p| p.starts_with('-'))
        .filter(|p| {
            p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '|')
        })
        .flat_map(|p| p.split('|'))
        .filter(|w| w.starts_with("--"))
        .collect();
    parsed.sort();
    parsed.dedup();
    assert_eq!(documented, parsed);
    let usage_lines = script.lines().take_while(|l| l.starts_with('#')).count();
    assert!(
        script.contains(&format!("sed -n '4,{usage_lines}p'")),
        "usage() prints the whole header"
    );
}

/// A copy of the flat folder `from` at `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// compare.py REFERENCE OTHER: its success and its report.
fn compare(reference: &Path, other: &Path) -> (bool, String) {
    let o = Command::new("python3")
        .arg(scripts().join("compare.py"))
        .arg(reference)
        .arg(other)
        .output()
        .unwrap();
    (o.status.success(), text(&o))
}

/// Replaces column `column` of every row of the CSV file `path` by `f(old value)`.
fn edit_column(path: &Path, column: &str, f: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let i = header.split(',').position(|h| h == column).unwrap();
    let mut out = format!("{header}\n");
    for l in lines {
        let mut fields: Vec<String> = l.split(',').map(String::from).collect();
        fields[i] = f(&fields[i]);
        out += &(fields.join(",") + "\n");
    }
    std::fs::write(path, out).unwrap();
}

/// compare.py (no Slurm needed) finds a folder whose runs took other wall times identical to
/// the reference: every wall-time-derived value is left out (runs.csv's wall_ms, summary.csv's
/// and effort.csv's wall_ms_mean and ets_seconds, comparison.csv's time_s and ets_s rows), and
/// every other CSV table is compared (an edited effort.csv is a difference).
#[test]
fn compare_leaves_out_exactly_the_wall_time_values() {
    let dir = tmpdir("compare");
    for id in ["reseda-table3", "cso-vs"] {
        let reference = dir.join(id);
        ok(bin()
            .args(["reproduce", id, "--quick", "--threads", "1", "--out"])
            .arg(&reference));
        // Another machine: every run 3 times slower plus 1 ms, the reports written from that.
        let slower = dir.join(format!("{id}-slower"));
        copy_folder(&reference, &slower);
        edit_column(&slower.join("runs.csv"), "wall_ms", |v| {
            format!("{:.3}", v.parse::<f64>().unwrap() * 3.0 + 1.0)
        });
        ok(bin()
            .args(["reproduce", id, "--quick", "--threads", "1", "--resume"])
            .arg("--out")
            .arg(&slower));
        let (same, report) = compare(&reference, &slower);
        assert!(same, "{id}: {report}");
        assert!(
            report.contains("RESULT: identical but wall times"),
            "{report}"
        );
        if id == "cso-vs" {
            // effort.csv is compared, but for its wall time: an edited value is found.
            assert!(report.contains("effort.csv: 12 rows compared"), "{report}");
            let edited = dir.join("cso-vs-edited");
            copy_folder(&slower, &edited);
            edit_column(&edited.join("effort.csv"), "penalty_max", |v| {
                format!("{v}0")
            });
            let (same, report) = compare(&reference, &edited);
            assert!(!same, "{report}");
            assert!(
                report.contains("effort.csv line 2: penalty_max differ"),
                "{report}"
            );
        } else {
            assert!(report.contains("8 wall-time rows"), "{report}");
        }
    }
}

/// Writes an executable shell script `name` into `dir`.
fn stub(dir: &Path, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// setup-local-cluster.sh updates the package lists before it installs (a fresh machine has
/// none), and stops with a one-line error when either fails. Run with stubs (no root, no
/// network, nothing installed): `id` says root, `ps` shows no daemon, `apt-get` records its
/// arguments; the PATH leaves out the sbin folders, so slurmctld and munged are not found.
#[test]
fn setup_updates_the_package_lists_before_installing() {
    let dir = tmpdir("setup-apt");
    let calls = dir.join("apt-calls");
    stub(&dir, "id", "echo 0");
    stub(&dir, "ps", "exit 0");
    for (fail, expected, says) in [
        (
            "install",
            "update -qq\ninstall -y -qq slurm-wlm munge\n",
            "apt-get install",
        ),
        ("update", "update -qq\n", "apt-get update"),
    ] {
        let _ = std::fs::remove_file(&calls);
        stub(
            &dir,
            "apt-get",
            &format!(
                "echo \"$*\" >>'{}'\ncase $1 in {fail}) exit 100 ;; esac",
                calls.display()
            ),
        );
        let o = Command::new("bash")
            .arg(scripts().join("setup-local-cluster.sh"))
            .env("PATH", format!("{}:/usr/bin:/bin", dir.display()))
            .output()
            .unwrap();
        let t = text(&o);
        assert_eq!(o.status.code(), Some(1), "{t}");
        assert_eq!(std::fs::read_to_string(&calls).unwrap(), expected, "{t}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says) && err.contains("failed"), "{err}");
    }
}

/// The build script of sudoku-lab, for its `revision` (its `main` is never called here).
#[allow(dead_code)]
mod build_script {
    include!("../build.rs");
}

/// Runs git with ARGS in `dir` and requires success.
fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", text(&o));
}

/// The build script asks git for the revision without rewriting the index of a fresh clone:
/// the index is among the files whose change reruns the script (and relinks sudoku-lab), so a
/// rewrite made the first build after a clone and build (submit.sh's) rebuild sudoku-lab. A
/// plain `git status` there rewrites it.
#[test]
fn the_build_script_leaves_a_fresh_clones_index_alone() {
    if Command::new("git").arg("--version").output().is_err() {
        println!("skipped: no git here");
        return;
    }
    let d = tmpdir("fresh-clone");
    let origin = d.join("origin");
    std::fs::create_dir_all(origin.join("crates")).unwrap();
    for f in ["a", "crates/b", "crates/c"] {
        std::fs::write(origin.join(f), f).unwrap();
    }
    git(&origin, &["init", "-q"]);
    git(&origin, &["add", "."]);
    git(&origin, &["commit", "-qm", "x"]);
    git(&d, &["clone", "-q", "origin", "clone"]);
    let clone = d.join("clone");
    let index = clone.join(".git/index");
    let stamp = |p: &Path| {
        let m = std::fs::metadata(p).unwrap();
        (m.modified().unwrap(), std::fs::read(p).unwrap())
    };
    let before = stamp(&index);
    let rev = build_script::revision(&clone);
    assert_eq!(rev.len(), 12, "{rev}");
    assert!(stamp(&index) == before, "the index was rewritten");
    // The mark still follows edits.
    std::fs::write(clone.join("crates/b"), "edited").unwrap();
    assert!(build_script::revision(&clone).ends_with("-dirty"));
}

/// The files the build script of this build watches (its `cargo:rerun-if-changed` lines, in
/// the `output` file beside this package's OUT_DIR), each as written.
fn watched_by_this_build() -> Vec<String> {
    let output = Path::new(env!("OUT_DIR")).with_file_name("output");
    let text = std::fs::read_to_string(&output).unwrap();
    (text.lines())
        .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
        .map(String::from)
        .collect()
}

/// What identifies the revision reruns the build script, not git's index: a plain `git
/// status` rewrites the index, and the build after it relinked sudoku-lab (about a minute)
/// although nothing changed. This build's script watches HEAD and the branch's ref (or
/// where it would appear), and no index.
#[test]
fn the_build_script_watches_the_revision_not_the_index() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let git_path = |name: &str| {
        let o = Command::new("git")
            .args(["rev-parse", "--git-path", name])
            .current_dir(manifest.join("../.."))
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        let p = String::from_utf8_lossy(&o.stdout).trim().to_string();
        Some(manifest.join("../..").join(p))
    };
    let Some(head) = git_path("HEAD") else {
        println!("skipped: not a git checkout");
        return;
    };
    let watched = watched_by_this_build();
    let same = |w: &str, p: &Path| {
        let a = std::fs::canonicalize(w).ok();
        a.is_some() && a == std::fs::canonicalize(p).ok()
    };
    let index = git_path("index").unwrap();
    assert!(
        !watched
            .iter()
            .any(|w| same(w, &index) || w.ends_with("/index")),
        "{watched:?}"
    );
    assert!(watched.iter().any(|w| same(w, &head)), "{watched:?}");
}

/// In a fresh clone: the files the build script watches are untouched by a plain `git status`
/// (which rewrites the index), and a commit changes one of them.
#[test]
fn a_git_status_changes_no_file_the_build_script_watches() {
    if Command::new("git").arg("--version").output().is_err() {
        println!("skipped: no git here");
        return;
    }
    let d = tmpdir("status-clone");
    let origin = d.join("origin");
    std::fs::create_dir_all(origin.join("crates")).unwrap();
    std::fs::write(origin.join("crates/b"), "b").unwrap();
    git(&origin, &["init", "-q"]);
    git(&origin, &["add", "."]);
    git(&origin, &["commit", "-qm", "x"]);
    git(&d, &["clone", "-q", "origin", "clone"]);
    let clone = d.join("clone");
    let watched = build_script::watched(&clone);
    assert!(watched.iter().any(|w| w.ends_with("HEAD")), "{watched:?}");
    let stamp = || -> Vec<_> {
        (watched.iter())
            .map(|p| {
                let m = std::fs::metadata(p).unwrap();
                (m.modified().unwrap(), std::fs::read(p).ok())
            })
            .collect()
    };
    let before = stamp();
    git(&clone, &["status"]);
    git(&clone, &["status", "--porcelain"]);
    assert!(
        stamp() == before,
        "git status changed a watched file: {watched:?}"
    );
    std::fs::write(clone.join("crates/b"), "edited").unwrap();
    git(&clone, &["commit", "-qam", "y"]);
    assert!(
        stamp() != before,
        "a commit changed no watched file: {watched:?}"
    );
}

/// `submit.sh ARGS...` on the fake Slurm of tests/fixtures/fake-slurm (every job runs at once,
/// inside sbatch; its state is in `slurm`), with the test's binary.
fn fake_submit(args: &[&str], out: &Path, slurm: &Path) -> Command {
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake-slurm");
    let path = format!("{}:{}", fake.display(), std::env::var("PATH").unwrap());
    std::fs::create_dir_all(slurm).unwrap();
    let mut c = submit(args, out);
    c.env("PATH", path)
        .env("FAKE_SLURM", slurm)
        .env("LAB_POLL_SECONDS", "0");
    c
}

/// The sbatch calls the fake Slurm received, one a line.
fn sbatch_calls(slurm: &Path) -> Vec<String> {
    let calls = std::fs::read_to_string(slurm.join("calls")).unwrap_or_default();
    calls.lines().map(String::from).collect()
}

/// The fenced block of docs/cluster.md that holds `needle`.
fn cluster_page_block(needle: &str) -> String {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cluster.md");
    let md = std::fs::read_to_string(page).unwrap();
    let blocks: Vec<&str> = md.split("```").skip(1).step_by(2).collect();
    let found = blocks.iter().find(|b| b.contains(needle));
    found
        .unwrap_or_else(|| panic!("no block with {needle}"))
        .to_string()
}

/// The command of docs/cluster.md that verifies the shards by hand works on a finished
/// folder: `--check` writes nothing, so an OUT that exists is no reason to refuse (it was:
/// "exists and is not an empty folder"). No Slurm needed (a fake one makes the folder).
#[test]
fn the_verify_command_of_the_cluster_page_runs_on_a_finished_folder() {
    let dir = tmpdir("fake-verify-by-hand");
    let (out, slurm) = (dir.join("cluster"), dir.join("slurm"));
    let args = ["reseda-table2", "2", "OUT", "--quick", "--wait"];
    let o = fake_submit(&args, &out, &slurm).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(out.join("summary.csv").is_file());
    let block = cluster_page_block("--check --verify");
    let command = block.trim().replace("OUT", &out.display().to_string());
    let o = Command::new("sh").args(["-c", &command]).output().unwrap();
    assert!(o.status.success(), "{command}: {}", text(&o));
    let said = text(&o);
    let rows = std::fs::read_to_string(out.join("runs.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    let rerun = format!("re-ran {rows} rows of the shards: every one reproduced");
    assert!(said.contains(&rerun), "{said}");
    assert!(said.contains("pass every check of a merge"), "{said}");
    assert!(said.contains("not an empty folder"), "{said}");
}

/// A submission whose first `sbatch` is refused (a wrong partition) says so after Slurm's
/// error, with the command that recovers, and that command submits it.
#[test]
fn a_refused_sbatch_names_the_recovery() {
    let dir = tmpdir("fake-refused");
    let (out, slurm) = (dir.join("cluster"), dir.join("slurm"));
    let args = [
        "reseda-table2",
        "2",
        "OUT",
        "--quick",
        "--partition",
        "nosuch",
    ];
    let o = fake_submit(&args, &out, &slurm)
        .env("FAKE_SLURM_REFUSE", "--partition=nosuch")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(err.contains("Invalid partition name"), "{err}");
    let recover = format!("--recover {}", out.display());
    assert!(err.contains(&recover), "{err}");
    let again = ["--recover", "OUT", "--partition", "lab", "--wait"];
    let o = fake_submit(&again, &out, &slurm).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("done: "), "{}", text(&o));
}

/// A task killed by `kill -9` is reported with the signal that ended it (Slurm's exit code
/// `0:9`), not only as "FAILED (JobLaunchFailure)". No Slurm needed (a fake one).
#[test]
fn a_task_killed_by_a_signal_is_reported_with_it() {
    let dir = tmpdir("fake-killed");
    let (out, slurm) = (dir.join("cluster"), dir.join("slurm"));
    let args = ["reseda-table2", "2", "OUT", "--quick", "--wait"];
    let o = fake_submit(&args, &out, &slurm)
        .env("FAKE_SLURM_KILL", "2")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let killed = "task 100_2 is FAILED (JobLaunchFailure), killed by signal 9 (SIGKILL)";
    assert!(err.contains(killed), "{err}");
    let o = fake_submit(&["--status", "OUT"], &out, &slurm)
        .output()
        .unwrap();
    assert!(text(&o).contains(killed), "{}", text(&o));
}

/// A merge job that fails on the shards' content (a seed edited in shard 2 after its task
/// ended) is reported with its own error, not as unfinished shards; `--recover` does not
/// submit the same failing merge again but says which shard to rerun; `--recover --rerun 2`
/// reruns that shard alone (its folder kept aside) and the merge, and `--no-sbatch` drops the
/// recorded `--hold` while the recorded `--time` stays. No Slurm needed (a fake one).
#[test]
fn a_failed_merge_is_reported_with_its_error_and_recover_reruns_the_shard_it_names() {
    let dir = tmpdir("fake-merge-fails");
    let (out, slurm) = (dir.join("cluster"), dir.join("slurm"));
    let shard2 = dir.join("cluster.shards/shard-2/runs.csv");
    let tamper = format!(
        "sed -i -E '2s/^(([^,]*,){{4}})[0-9]+/\\11/' '{}'",
        shard2.display()
    );
    let args = ["reseda-table2", "2", "OUT", "--quick", "--wait"];
    let o = fake_submit(&args, &out, &slurm)
        .args(["--sbatch", "--hold", "--time", "5"])
        .env("FAKE_SLURM_AFTER_ARRAY", &tamper)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        err.contains("every shard finished, but the merge failed"),
        "{err}"
    );
    assert!(!err.contains("not every shard finished"), "{err}");
    assert!(err.contains("has seed 1, the plan's is"), "{err}");
    let rerun = format!("--recover {} --rerun 2", out.display());
    assert!(err.contains(&rerun), "{err}");
    assert_eq!(sbatch_calls(&slurm).len(), 2);

    // The same merge again would fail: refused before anything is submitted.
    let o = fake_submit(&["--recover", "OUT", "--wait"], &out, &slurm)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        err.contains("complete, but the merge refuses them"),
        "{err}"
    );
    assert!(
        err.contains("has seed 1") && err.contains("--rerun 2"),
        "{err}"
    );
    assert_eq!(sbatch_calls(&slurm).len(), 2, "nothing submitted");

    let o = fake_submit(
        &["--recover", "OUT", "--wait", "--rerun", "2", "--no-sbatch"],
        &out,
        &slurm,
    )
    .output()
    .unwrap();
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("1 of 2 shards to run (2)") && t.contains("done: "),
        "{t}"
    );
    let calls = sbatch_calls(&slurm);
    assert_eq!(calls.len(), 4, "{calls:?}");
    for c in &calls[2..] {
        assert!(c.contains("--time=5") && !c.contains("--hold"), "{c}");
    }
    assert!(calls[2].contains("--array=2 "), "{}", calls[2]);
    let kept = std::fs::read_dir(dir.join("cluster.shards"))
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("shard-2.refused-")
        })
        .count();
    assert_eq!(kept, 1, "the refused shard is kept aside");
    let recorded = std::fs::read_to_string(dir.join("cluster.shards/sbatch-options")).unwrap();
    assert_eq!(recorded, "--time=5\n");
    assert_same_as_one_machine(&dir, &out);
}

/// Why a task ended (here TIMEOUT) is recorded while Slurm knows it, and still reported by
/// `--status` once Slurm has forgotten the job (no accounting, past MinJobAge). No Slurm needed
/// (a fake one).
#[test]
fn why_a_task_ended_is_kept_after_slurm_forgets_it() {
    let dir = tmpdir("fake-timeout");
    let (out, slurm) = (dir.join("cluster"), dir.join("slurm"));
    let args = ["reseda-table2", "2", "OUT", "--quick", "--wait"];
    let o = fake_submit(&args, &out, &slurm)
        .env("FAKE_SLURM_TIMEOUT", "2")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(err.contains("not every shard finished"), "{err}");
    assert!(err.contains("task 100_2 is TIMEOUT"), "{err}");
    assert!(err.contains("--time LONGER"), "{err}");
    std::fs::write(slurm.join("forgotten"), "").unwrap();
    let o = fake_submit(&["--status", "OUT"], &out, &slurm)
        .output()
        .unwrap();
    let said = text(&o);
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(
        said.contains("task 100_2 was TIMEOUT when submit.sh last asked Slurm"),
        "{said}"
    );
    assert!(
        said.contains("merge: job 101 was CANCELLED (DependencyNeverSatisfied)"),
        "{said}"
    );
    // The record is data: a line that is not a job's state is refused, naming it; nothing is
    // rewritten.
    let states = out.with_extension("shards").join("slurm-states");
    let mut bad = std::fs::read_to_string(&states).unwrap();
    assert_eq!(bad.lines().count(), 3, "{bad}");
    bad.push_str("$(touch x)\n");
    std::fs::write(&states, &bad).unwrap();
    let o = fake_submit(&["--status", "OUT"], &out, &slurm)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("slurm-states line 4: not a job's state"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&states).unwrap(), bad);
}

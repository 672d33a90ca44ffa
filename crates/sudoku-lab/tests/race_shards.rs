//! A reading race whose runs are made in shards, one round at a time (`readings --shard K/N`
//! and `--merge-shards N`), and the same through `scripts/slurm/submit.sh --race` on the fake
//! Slurm of tests/fixtures/fake-slurm: the race folder equals the one-machine race byte for
//! byte, for any number of shards; hostile shard files are refused naming file and line, and
//! nothing is taken from them. No Slurm needed (tests/slurm.rs runs a race on a real one).

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The tiny race of tests/readings.rs: Ret-GA, four readings, two puzzles with published
/// maxima (capped and full stages), rounds of 4 and 8 runs.
fn fixture(name: &str) -> PathBuf {
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

/// The race's arguments (after `readings`), without --out.
fn args(dir: &Path) -> Vec<String> {
    let spec = dir.join("spec.toml").display().to_string();
    ["readings", &spec, "--algorithm", "ret", "--rounds", "4,8"]
        .map(String::from)
        .to_vec()
}

fn race(dir: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut c = bin();
    c.args(args(dir)).arg("--out").arg(out).args(extra);
    run(&mut c)
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

const FILES: [&str; 10] = [
    "runs.csv",
    "confirm-runs.csv",
    "confirm.csv",
    "race.csv",
    "readings.csv",
    "report.md",
    "published.csv",
    "command.json",
    "settings.json",
    "spec-curve.svg",
];

fn assert_same(a: &Path, b: &Path) {
    for f in FILES {
        let (x, y) = (std::fs::read(a.join(f)), std::fs::read(b.join(f)));
        assert!(x.is_ok() && x.ok() == y.ok(), "{f} differs: {a:?} {b:?}");
    }
}

/// The race in rounds of `n` shards, as submit.sh runs it: a first decision (a new race
/// needs a round: exit 3), then every shard of round R into `OUT.shards/round-R` and the
/// round's decision, until one ends the race (exit 0). The number of rounds run.
fn race_in_shards(dir: &Path, out: &Path, n: usize) -> usize {
    let n_text = n.to_string();
    let rdir = |r: usize| format!("{}.shards/round-{r}", out.display());
    let first = race(
        dir,
        out,
        &["--merge-shards", &n_text, "--shard-dir", &rdir(1)],
    );
    assert_eq!(first.status.code(), Some(3), "{}", text(&first));
    for round in 1..100 {
        for k in 1..=n {
            let shard = format!("{k}/{n}");
            let o = race(
                dir,
                out,
                &[
                    "--shard",
                    &shard,
                    "--shard-dir",
                    &rdir(round),
                    "--threads",
                    "1",
                ],
            );
            assert!(o.status.success(), "{}", text(&o));
        }
        let decide = race(
            dir,
            out,
            &["--merge-shards", &n_text, "--shard-dir", &rdir(round)],
        );
        match decide.status.code() {
            Some(0) => return round,
            Some(3) => {}
            _ => panic!("round {round}: {}", text(&decide)),
        }
    }
    panic!("the race did not end");
}

/// The race made in 1 and in 3 shards equals the one-machine race byte for byte (runs.csv,
/// race.csv, readings.csv, report.md, ...), over several rounds; a shard of a race that has
/// ended has nothing to make.
#[test]
fn a_race_in_shards_equals_the_one_machine_race() {
    let dir = fixture("race-shards");
    let one = dir.join("one");
    let o = race(&dir, &one, &["--threads", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    for n in [1, 3] {
        let out = dir.join(format!("in-{n}"));
        let rounds = race_in_shards(&dir, &out, n);
        assert!(rounds >= 2, "{rounds} rounds");
        assert_same(&one, &out);
        // The confirmation's runs were made by a round of shards of their own, the last.
        let confirmed = std::fs::read_to_string(out.join("confirm-runs.csv")).unwrap();
        assert!(confirmed.lines().count() > 1, "{confirmed}");
        let last = format!("{}.shards/round-{rounds}", out.display());
        let note = std::fs::read_to_string(Path::new(&last).join("shard-1.done")).unwrap();
        assert!(note.contains("the confirmation at master seed"), "{note}");
        let before = format!("{}.shards/round-{}", out.display(), rounds - 1);
        let note = std::fs::read_to_string(Path::new(&before).join("shard-1.done")).unwrap();
        assert!(!note.contains("the confirmation"), "{note}");
        let late = race(
            &dir,
            &out,
            &[
                "--shard",
                "1/3",
                "--shard-dir",
                &dir.join("late").display().to_string(),
            ],
        );
        assert!(text(&late).contains("has ended"), "{}", text(&late));
        assert!(!dir.join("late").exists());
    }
}

/// A shard whose file another process is making (its lock held: a task Slurm started twice)
/// is refused with one line naming the holder's pid, writes no run, and runs once the lock is
/// released; the other shards are not held up by it.
#[cfg(unix)]
#[test]
fn a_shard_another_process_is_making_is_refused() {
    use std::io::Write;
    use std::os::unix::io::AsRawFd;
    let dir = fixture("race-shard-lock");
    let out = dir.join("race");
    let rdir = dir.join("round-1");
    let rdir_text = rdir.display().to_string();
    let first = race(
        &dir,
        &out,
        &["--merge-shards", "2", "--shard-dir", &rdir_text],
    );
    assert_eq!(first.status.code(), Some(3), "{}", text(&first));
    std::fs::create_dir_all(&rdir).unwrap();
    // This test process plays the first task, still making shard 1.
    let mut f = std::fs::File::create(rdir.join(".shard-1.lock")).unwrap();
    // SAFETY: flock on a descriptor owned by this test.
    assert_eq!(
        unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    writeln!(f, "{}", std::process::id()).unwrap();
    let shard = |k: &str| race(&dir, &out, &["--shard", k, "--shard-dir", &rdir_text]);
    let o = shard("1/2");
    let err = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("(pid {})", std::process::id())),
        "{err}"
    );
    assert!(err.contains("shard 1"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!rdir.join("shard-1.csv").exists() && !rdir.join("shard-1.done").exists());
    assert!(shard("2/2").status.success());
    drop(f);
    let o = shard("1/2");
    assert!(o.status.success(), "{}", text(&o));
    assert!(rdir.join("shard-1.done").exists() && !rdir.join(".shard-1.lock").exists());
}

/// The confirmation's round of shards is checked as the race's: a confirmation shard row
/// whose seed was edited (here to the race's own seed of that run: a race run passed off as
/// a confirmation run) is refused naming file and line, exit 2, and confirm-runs.csv is not
/// written; the shard made again, the race ends with its confirmation judged.
#[test]
fn a_hostile_confirmation_shard_is_refused() {
    let dir = fixture("race-shards-confirm");
    let out = dir.join("race");
    let rdir = |r: usize| format!("{}.shards/round-{r}", out.display());
    let decide = |r: usize| {
        race(
            &dir,
            &out,
            &["--merge-shards", "2", "--shard-dir", &rdir(r)],
        )
    };
    let first = decide(1);
    assert_eq!(first.status.code(), Some(3), "{}", text(&first));
    let mut round = 1;
    loop {
        for k in ["1/2", "2/2"] {
            let o = race(&dir, &out, &["--shard", k, "--shard-dir", &rdir(round)]);
            assert!(o.status.success(), "{}", text(&o));
        }
        let note = std::fs::read_to_string(Path::new(&rdir(round)).join("shard-1.done")).unwrap();
        if note.contains("the confirmation") {
            break;
        }
        let o = decide(round);
        assert_eq!(o.status.code(), Some(3), "{}", text(&o));
        round += 1;
        assert!(round < 50, "no confirmation round");
    }
    let f = Path::new(&rdir(round)).join("shard-1.csv");
    let good = std::fs::read_to_string(&f).unwrap();
    let row = good.lines().nth(1).unwrap().to_string();
    let fields: Vec<&str> = row.split(',').collect();
    // The race's runs.csv holds the same (reading, puzzle, run) at the race's seed, if made.
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let race_seed = (runs.lines().skip(1))
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|r| r[..3] == fields[..3])
        .map_or("1".to_string(), |r| r[3].to_string());
    let mut edited = fields.clone();
    edited[3] = &race_seed;
    std::fs::write(&f, good.replacen(&row, &edited.join(","), 1)).unwrap();
    let o = decide(round);
    let err = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{}:2", f.display())), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        !out.join("confirm-runs.csv").exists() || {
            let c = std::fs::read_to_string(out.join("confirm-runs.csv")).unwrap();
            c.lines().count() == 1
        }
    );
    std::fs::write(&f, &good).unwrap();
    let o = decide(round);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(out.join("confirm.csv").exists());
}

/// After the first round's shards: a row moved to another shard's file, a row twice, an
/// edited seed, and a shard that did not finish are each refused with one line naming the
/// file (and line), exit 2, and runs.csv is left as it was.
#[test]
fn hostile_shard_files_are_refused_naming_file_and_line() {
    let dir = fixture("race-shards-hostile");
    let out = dir.join("race");
    let r1 = dir.join("race.shards/round-1");
    let r1s = r1.display().to_string();
    let first = race(&dir, &out, &["--merge-shards", "2", "--shard-dir", &r1s]);
    assert_eq!(first.status.code(), Some(3), "{}", text(&first));
    for k in ["1/2", "2/2"] {
        let o = race(&dir, &out, &["--shard", k, "--shard-dir", &r1s]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let runs_before = std::fs::read(out.join("runs.csv")).unwrap();
    let (f1, f2) = (r1.join("shard-1.csv"), r1.join("shard-2.csv"));
    let (good1, good2) = (
        std::fs::read_to_string(&f1).unwrap(),
        std::fs::read_to_string(&f2).unwrap(),
    );
    let row2 = good2.lines().nth(1).unwrap().to_string();
    let row1 = good1.lines().nth(1).unwrap().to_string();
    let edited_seed = {
        let mut f: Vec<&str> = row1.split(',').collect();
        f[3] = "1";
        f.join(",")
    };
    let torn = good1
        .lines()
        .take(good1.lines().count() - 1)
        .collect::<Vec<_>>();
    let cases: Vec<(String, String, String)> = vec![
        (
            format!("{good1}{row2}\n"),
            good2.clone(),
            format!("{}:{}: ", f1.display(), good1.lines().count() + 1),
        ),
        (
            format!("{good1}{row1}\n"),
            good2.clone(),
            "duplicate row".into(),
        ),
        (
            good1.replacen(&row1, &edited_seed, 1),
            good2.clone(),
            format!("{}:2: ", f1.display()),
        ),
        (
            torn.join("\n") + "\n",
            good2.clone(),
            format!("{} lacks 1", f1.display()),
        ),
    ];
    for (one, two, want) in cases {
        std::fs::write(&f1, &one).unwrap();
        std::fs::write(&f2, &two).unwrap();
        let o = race(&dir, &out, &["--merge-shards", "2", "--shard-dir", &r1s]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(&want), "want {want}: {err}");
        assert_eq!(std::fs::read(out.join("runs.csv")).unwrap(), runs_before);
    }
    // Restored, the round is taken and the race goes on.
    std::fs::write(&f1, &good1).unwrap();
    std::fs::write(&f2, &good2).unwrap();
    let o = race(&dir, &out, &["--merge-shards", "2", "--shard-dir", &r1s]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert_ne!(std::fs::read(out.join("runs.csv")).unwrap(), runs_before);
}

/// `submit.sh --race ARGS` on the fake Slurm (every job runs at once, inside sbatch).
fn fake_submit(args: &[&str], slurm: &Path) -> Command {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fake = root.join("tests/fixtures/fake-slurm");
    let path = format!("{}:{}", fake.display(), std::env::var("PATH").unwrap());
    std::fs::create_dir_all(slurm).unwrap();
    let mut c = Command::new("bash");
    c.arg(root.join("../../scripts/slurm/submit.sh"))
        .args(args)
        .env("LAB_BIN", env!("CARGO_BIN_EXE_sudoku-lab"))
        .env("PATH", path)
        .env("FAKE_SLURM", slurm)
        .env("LAB_POLL_SECONDS", "0");
    c
}

/// submit.sh --race: each round an array job and a decision after it, which submits the
/// next round itself; the race folder equals the one-machine race. A task that reaches its
/// time limit stops the race (`--wait` says so, exit 1, and gives the recovery); `--recover`
/// runs the round's unfinished shards and its decision, and the race goes on to its end.
#[test]
fn submit_race_runs_rounds_of_array_jobs_and_recovers_a_failed_task() {
    let dir = fixture("race-fake-slurm");
    let one = dir.join("one");
    let o = race(&dir, &one, &["--threads", "2"]);
    assert!(o.status.success(), "{}", text(&o));

    let out = dir.join("cluster");
    let outs = out.display().to_string();
    let mut a = vec!["--race", "2", &outs, "--wait", "--time", "5", "--"];
    let race_args = args(&dir);
    a.extend(race_args.iter().map(String::as_str));
    let slurm = dir.join("slurm");
    let o = fake_submit(&a, &slurm).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("done: "), "{}", text(&o));
    assert_same(&one, &out);
    let jobs = std::fs::read_to_string(dir.join("cluster.shards/jobs")).unwrap();
    let decisions = jobs.lines().filter(|l| l.starts_with("decision ")).count();
    assert!(decisions >= 3, "{jobs}");
    let calls = std::fs::read_to_string(slurm.join("calls")).unwrap();
    assert!(calls.lines().all(|c| c.contains("--time=5")), "{calls}");

    // Task 2 of the first array times out: the race stops in round 1.
    let out = dir.join("again");
    let outs = out.display().to_string();
    a[2] = &outs;
    let slurm = dir.join("slurm2");
    let o = fake_submit(&a, &slurm)
        .env("FAKE_SLURM_TIMEOUT", "2")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(err.contains("has not ended"), "{err}");
    assert!(err.contains("is TIMEOUT"), "{err}");
    let recover = format!("--race --recover {outs} --time LONGER");
    assert!(err.contains(&recover), "{err}");
    let st = fake_submit(&["--status", &outs], &slurm).output().unwrap();
    assert_eq!(st.status.code(), Some(1), "{}", text(&st));
    assert!(text(&st).contains("shard 2: not started"), "{}", text(&st));
    assert!(text(&st).contains("shard 1: complete"), "{}", text(&st));

    let o = fake_submit(&["--race", "--recover", &outs, "--wait"], &slurm)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("1 of 2 shards to run (2)"),
        "{}",
        text(&o)
    );
    assert_same(&one, &out);
    let st = fake_submit(&["--status", &outs], &slurm).output().unwrap();
    assert!(st.status.success(), "{}", text(&st));
    let o = fake_submit(&["--recover", &outs], &slurm).output().unwrap();
    assert!(text(&o).contains("nothing to recover"), "{}", text(&o));
}

/// The small race of docs/cluster.md, as written there, runs to its end on the fake Slurm
/// and makes the folder that `sudoku-lab readings` makes of the same arguments on one machine.
#[test]
fn the_small_race_of_the_cluster_page_runs() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cluster.md");
    let md = std::fs::read_to_string(page).unwrap();
    let blocks: Vec<&str> = md.split("```").skip(1).step_by(2).collect();
    let block = (blocks.iter())
        .find(|b| b.contains("/shared/me/race-try"))
        .expect("a small race on the cluster page");
    let joined = block.replace("\\\n", " ");
    let line = (joined.lines())
        .find(|l| l.contains("/shared/me/race-try"))
        .unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "scripts/slurm/submit.sh", "{line}");
    let dir = tmpdir("race-docs");
    let out = dir.join("try");
    let outs = out.display().to_string();
    let a: Vec<&str> = (words[1..].iter())
        .map(|w| {
            if *w == "/shared/me/race-try" {
                &outs
            } else {
                *w
            }
        })
        .collect();
    let o = fake_submit(&a, &dir.join("slurm")).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("done: "), "{}", text(&o));
    let dash = a.iter().position(|w| *w == "--").unwrap();
    let one = dir.join("one");
    let mut alone = bin();
    alone.args(&a[dash + 1..]).arg("--out").arg(&one);
    ok(&mut alone);
    for f in [
        "runs.csv",
        "race.csv",
        "readings.csv",
        "report.md",
        "command.json",
    ] {
        let (x, y) = (std::fs::read(one.join(f)), std::fs::read(out.join(f)));
        assert!(x.is_ok() && x.ok() == y.ok(), "{f} differs");
    }
}

/// A race whose first `sbatch` is refused (a wrong partition): submit.sh says so after
/// Slurm's error, with the command that recovers; then either `--race --recover OUT` with the
/// right option or the first command again (same shards and arguments) submits the race, which
/// runs to the one-machine race's files. (Before, the recovery exited 2 without a word, having
/// no jobs file, and the first command again was refused because OUT.shards existed.)
#[test]
fn a_race_whose_first_sbatch_is_refused_is_recovered_either_way() {
    let dir = fixture("race-refused");
    let one = dir.join("one");
    let o = race(&dir, &one, &["--threads", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    let race_args = args(&dir);
    for again in [false, true] {
        let out = dir.join(format!("cluster-{again}"));
        let outs = out.display().to_string();
        let slurm = dir.join(format!("slurm-{again}"));
        let mut a = vec!["--race", "2", &outs, "--partition", "nosuch", "--"];
        a.extend(race_args.iter().map(String::as_str));
        let o = fake_submit(&a, &slurm)
            .env("FAKE_SLURM_REFUSE", "--partition=nosuch")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        assert!(err.contains("Invalid partition name"), "{err}");
        let recover = format!("--race --recover {outs}");
        assert!(err.contains(&recover), "{err}");
        // --status before any round says so (it printed "round  of the race").
        let st = fake_submit(&["--status", &outs], &slurm).output().unwrap();
        assert_eq!(st.status.code(), Some(1), "{}", text(&st));
        assert!(
            text(&st).contains("no round submitted yet"),
            "{}",
            text(&st)
        );
        assert!(!text(&st).contains("round  of"), "{}", text(&st));
        let o = if again {
            a[4] = "lab";
            a.insert(5, "--wait");
            fake_submit(&a, &slurm).output().unwrap()
        } else {
            let r = ["--race", "--recover", &outs, "--partition", "lab", "--wait"];
            fake_submit(&r, &slurm).output().unwrap()
        };
        assert!(o.status.success(), "{}", text(&o));
        assert!(text(&o).contains("done: "), "{}", text(&o));
        assert_same(&one, &out);
        let calls = std::fs::read_to_string(slurm.join("calls")).unwrap();
        let last = calls.lines().last().unwrap();
        assert!(last.contains("--partition=lab"), "{calls}");
    }
}

/// A shard task's log (its stderr) shows its progress as a protocol's shard does: the runs it
/// makes, lines of the planned effort done (the last when it ends), and, when a requeued task
/// resumes its file, how many runs it kept.
#[test]
fn a_shard_task_logs_its_progress_and_the_runs_it_kept() {
    let dir = fixture("race-progress");
    let out = dir.join("race");
    let rdir = format!("{}.shards/round-1", out.display());
    let first = race(&dir, &out, &["--merge-shards", "2", "--shard-dir", &rdir]);
    assert_eq!(first.status.code(), Some(3), "{}", text(&first));
    let shard = || {
        let extra = ["--shard", "1/2", "--shard-dir", &rdir, "--threads", "1"];
        race(&dir, &out, &extra)
    };
    let o = shard();
    assert!(o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let file = format!("{rdir}/shard-1.csv");
    let made = std::fs::read_to_string(&file).unwrap().lines().count() - 1;
    assert!(made > 3, "{made}");
    assert!(
        err.contains(&format!("shard 1/2: {made} runs to make")),
        "{err}"
    );
    let done = format!("% of the planned effort, {made}/{made} runs");
    assert!(
        err.contains("shard 1/2: 100.0 % of the planned effort"),
        "{err}"
    );
    assert!(err.contains(&done), "{err}");
    // A requeued task: its file cut to three runs, no .done.
    let text_of = std::fs::read_to_string(&file).unwrap();
    let kept: Vec<&str> = text_of.lines().take(4).collect();
    std::fs::write(&file, kept.join("\n") + "\n").unwrap();
    std::fs::remove_file(format!("{rdir}/shard-1.done")).unwrap();
    let o = shard();
    assert!(o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let resumed = format!("shard 1/2: {} runs to make, 3 kept from {file}", made - 3);
    assert!(err.contains(&resumed), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text_of);
}

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

/// On a real Slurm (`scripts/slurm/setup-local-cluster.sh` makes a one-node cluster; skipped
/// without one): the tiny race through `submit.sh --race 2 OUT --wait`, its rounds array jobs
/// and decision jobs that submit the next round from the compute node, equals the one-machine
/// race byte for byte.
#[test]
fn a_race_through_slurm_equals_the_one_machine_race() {
    if !cluster_up() {
        eprintln!("skipped: no Slurm cluster (sbatch and a controller that answers sinfo)");
        return;
    }
    let dir = fixture("race-slurm");
    let one = dir.join("one");
    let o = race(&dir, &one, &["--threads", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = dir.join("cluster");
    let outs = out.display().to_string();
    let mut a = vec!["--race", "2", &outs, "--wait", "--"];
    let race_args = args(&dir);
    a.extend(race_args.iter().map(String::as_str));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new("bash")
        .arg(root.join("../../scripts/slurm/submit.sh"))
        .args(&a)
        .env("LAB_BIN", env!("CARGO_BIN_EXE_sudoku-lab"))
        .env("LAB_POLL_SECONDS", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("done: "), "{}", text(&o));
    assert_same(&one, &out);
    let jobs = std::fs::read_to_string(dir.join("cluster.shards/jobs")).unwrap();
    assert!(
        jobs.lines().filter(|l| l.starts_with("decision ")).count() >= 3,
        "{jobs}"
    );
}

/// A race the binary refuses (an unknown algorithm label) is one line from `readings`, exit
/// 2, nothing submitted, and neither OUT nor OUT.shards left behind; arguments submit.sh sets
/// itself are refused before anything is written.
#[test]
fn submit_race_refuses_a_bad_race_before_anything_is_submitted() {
    let dir = fixture("race-fake-bad");
    let out = dir.join("cluster");
    let outs = out.display().to_string();
    let slurm = dir.join("slurm");
    let spec = dir.join("spec.toml").display().to_string();
    for (extra, want) in [
        ("nope", "nope"),
        ("--out=/tmp/x", "--out is set by submit.sh"),
    ] {
        let mut a = vec!["--race", "2", &outs, "--", "readings", &spec, "--algorithm"];
        let label = if extra == "nope" { "nope" } else { "ret" };
        a.push(label);
        if extra != "nope" {
            a.push(extra);
        }
        let o = fake_submit(&a, &slurm).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(want), "{err}");
        assert!(!out.exists() && !dir.join("cluster.shards").exists());
        assert!(!slurm.join("calls").exists(), "nothing submitted");
    }
}

/// A shard file edited after its task (its last row written twice) makes the round's
/// decision fail: `--wait` prints the decision's error and suggests `--rerun` of the shard it
/// names; `--recover --rerun 1` sets the file aside, makes that share again and the race goes
/// on to the one-machine race's files.
#[test]
fn a_refused_shard_file_is_named_and_recover_rerun_makes_it_again() {
    let dir = fixture("race-fake-rerun");
    let one = dir.join("one");
    let o = race(&dir, &one, &["--threads", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = dir.join("cluster");
    let outs = out.display().to_string();
    let f = dir.join("cluster.shards/round-1/shard-1.csv");
    let mark = dir.join("tampered");
    let tamper = format!(
        "[ -e '{m}' ] || {{ tail -n 1 '{f}' >> '{f}'; touch '{m}'; }}",
        m = mark.display(),
        f = f.display()
    );
    let mut a = vec!["--race", "2", &outs, "--wait", "--"];
    let race_args = args(&dir);
    a.extend(race_args.iter().map(String::as_str));
    let slurm = dir.join("slurm");
    let o = fake_submit(&a, &slurm)
        .env("FAKE_SLURM_AFTER_ARRAY", &tamper)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(err.contains("round-1/shard-1.csv:"), "{err}");
    assert!(err.contains("--rerun 1"), "{err}");
    let o = fake_submit(&["--recover", &outs, "--rerun", "1", "--wait"], &slurm)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("1 of 2 shards to run (1)"),
        "{}",
        text(&o)
    );
    assert_same(&one, &out);
    let aside = std::fs::read_dir(dir.join("cluster.shards/round-1"))
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("shard-1.csv.refused-")
        })
        .count();
    assert_eq!(aside, 1, "the refused file is kept aside");
}

//! A configured external solver: its processes, the pre-flight check, and one run.

use crate::message::{self, Reply, Request};
use crate::process::{Launch, Line, Process};
use crate::Error;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use sudoku_core::{Budget, Grid, Observer, Puzzle};

/// How processes serve runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One process per thread, serving run after run (start-up is paid once).
    Persistent,
    /// A fresh process for every run, ended after it.
    PerRun,
}

/// Everything needed to run the solver.
#[derive(Debug, Clone)]
pub struct Config {
    /// The command as the spec wrote it (for messages).
    pub shown: String,
    pub launch: Launch,
    pub mode: Mode,
    /// Wall-clock limit of one run, from its run message to its result.
    pub wall: Duration,
    /// Limit of a new process's start-up, from its start to its hello.
    pub handshake: Duration,
    /// The spec's `params`, handed to the solver verbatim.
    pub params: serde_json::Value,
}

/// Why a run failed; [`Failure::code`] is what runs.csv's `termination` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// It claimed a solution that breaks a rule or changes a given.
    InvalidClaim,
    /// The process ended (signal, or closed its output) without a result.
    Crashed,
    /// The process exited with a non-zero status.
    ExitStatus,
    /// A line that is not a valid message of the protocol.
    BadOutput,
    /// A line longer than the cap.
    Oversized,
    /// It reported more evaluations or generations than the budget allows.
    OverBudget,
    /// No result within the wall limit.
    WallLimit,
    /// The process could not be started or did not answer the handshake.
    StartFailed,
}

impl Failure {
    /// Every failure's code, as runs.csv's `termination` records it.
    pub const CODES: &'static [&'static str] = &[
        "invalid_claim",
        "crashed",
        "exit_status",
        "bad_output",
        "oversized_output",
        "over_budget",
        "wall_limit",
        "start_failed",
    ];

    pub fn code(&self) -> &'static str {
        match self {
            Failure::InvalidClaim => "invalid_claim",
            Failure::Crashed => "crashed",
            Failure::ExitStatus => "exit_status",
            Failure::BadOutput => "bad_output",
            Failure::Oversized => "oversized_output",
            Failure::OverBudget => "over_budget",
            Failure::WallLimit => "wall_limit",
            Failure::StartFailed => "start_failed",
        }
    }
}

/// What one run produced, after every check.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The final grid is a solution of the puzzle (checked).
    pub solved: bool,
    /// The final grid (the puzzle itself when the run failed before a result).
    pub grid: Grid,
    pub evaluations: u64,
    pub generations: u64,
    pub restarts: u64,
    pub failure: Option<Failure>,
    /// What went wrong, in a line (empty when nothing did).
    pub detail: String,
    /// The process's stderr during the run (capped).
    pub stderr: Vec<u8>,
    /// The CPU time its process group used from the run message to the result (see
    /// [`crate::process::Process::group_cpu`]); None when it could not be read or the run
    /// failed before a result.
    pub cpu: Option<Duration>,
    /// The time limit the solver says ended the run (the result's `stopped`).
    pub stopped: Option<&'static str>,
    /// The solver's own numbers, `name=value;...` (the result's `counters`).
    pub counters: String,
}

/// An external solver: its configuration and its idle processes.
pub struct External {
    config: Config,
    idle: Mutex<Vec<Process>>,
    /// The `run_id` of the next run message (unique among this solver's runs).
    next_id: AtomicU64,
}

/// The effort reported so far in a run.
#[derive(Debug, Default, Clone, Copy)]
struct Effort {
    evaluations: u64,
    generations: u64,
}

/// How a run ended before its checks: a result, or a failure with its detail.
type Ended = Result<(Reply, Effort), (Failure, String, Effort)>;

impl External {
    pub fn new(config: Config) -> External {
        External {
            config,
            idle: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Check before the first run that the program exists and is executable and that a
    /// process answers the handshake; in `persistent` mode the process is kept for the first
    /// run. A protocol must not die on its solver after hours.
    pub fn preflight(&self) -> Result<(), Error> {
        let l = &self.config.launch;
        let program = l.program.display().to_string();
        let command = self.config.shown.clone();
        if l.program.components().count() > 1 {
            if !crate::process::is_executable(&l.program) {
                return Err(Error::NotExecutable { command, program });
            }
        } else if !in_path(&l.program) {
            return Err(Error::NotInPath { command, program });
        }
        let p = self.start().map_err(|e| match e {
            (Failure::StartFailed, why) if why.starts_with("cannot start") => Error::Start {
                command: command.clone(),
                source: std::io::Error::other(why),
            },
            (_, why) => Error::Handshake { command, why },
        })?;
        self.put_back(p);
        Ok(())
    }

    /// A process that has answered the handshake: an idle one still alive, or a new one.
    fn start(&self) -> Result<Process, (Failure, String)> {
        if self.config.mode == Mode::Persistent {
            let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
            // One found dead (ended meanwhile) is dropped, which reaps it and ends its group.
            if let Some(p) = idle.and_then(|mut p| p.is_alive().then_some(p)) {
                return Ok(p);
            }
        }
        let mut p = Process::start(&self.config.launch)
            .map_err(|e| (Failure::StartFailed, format!("cannot start: {e}")))?;
        let deadline = Instant::now() + self.config.handshake;
        let limit = self.config.handshake.as_secs_f64();
        // A process that ended at once fails the send; its output says more than EPIPE.
        let sent = p.send(&message::hello());
        let answer = handshake(&mut p, deadline, limit).and_then(|()| {
            sent.map_err(|e| (Failure::StartFailed, format!("cannot send hello: {e}")))
        });
        if let Err((f, why)) = answer {
            p.kill();
            // Its last words say why, e.g. a misspelt script's name.
            let tail = p.stderr_tail(STDERR_TAIL_LINES);
            let why = match tail.is_empty() {
                true => why,
                false => format!("{why}; its stderr ends: {tail}"),
            };
            return Err((f, why));
        }
        Ok(p)
    }

    /// Keep a healthy process for the next run (persistent mode), else end it.
    fn put_back(&self, p: Process) {
        if self.config.mode == Mode::Persistent {
            self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(p);
        }
    }

    /// One run: the request sent, progress passed on to `observer` (grids measured by the
    /// caller's observer, effort checked against the budget), the result checked. Never
    /// panics and never waits beyond the handshake and wall limits (plus the time to kill the
    /// process). After any failure the process is ended with its group; the next run starts a
    /// new one.
    ///
    /// Once the runner is interrupted ([`crate::process::interrupt`]) a run does not return:
    /// its solver was killed by the runner, so its outcome is not the solver's and must not
    /// be recorded; the runner exits meanwhile.
    pub fn run(&self, req: &Request, observer: &mut dyn Observer) -> Outcome {
        let outcome = self.run_once(req, observer);
        while crate::process::interrupted() {
            std::thread::park();
        }
        outcome
    }

    fn run_once(&self, req: &Request, observer: &mut dyn Observer) -> Outcome {
        let mut p = match self.start() {
            Ok(p) => p,
            Err((f, why)) => return failed(req.puzzle, f, why, Effort::default(), Vec::new()),
        };
        let run_id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let deadline = Instant::now() + self.config.wall;
        let cpu_before = p.group_cpu();
        let mut cpu = None;
        let ended = match p.send(&message::run(req, run_id)) {
            Ok(()) => exchange(&mut p, req, run_id, deadline, observer).inspect(|_| {
                // At the result, before a per-run process exits (and is reaped).
                cpu = cpu_before
                    .zip(p.group_cpu())
                    .map(|(a, b)| b.saturating_sub(a));
            }),
            Err(e) => Err((
                Failure::Crashed,
                format!("cannot send the run: {e}"),
                Effort::default(),
            )),
        };
        let ended = match (ended, self.config.mode) {
            (Ok(r), Mode::PerRun) => finish_per_run(&mut p, r, deadline),
            (other, _) => other,
        };
        match ended {
            Ok((reply, effort)) => {
                let stderr = p.take_stderr();
                let mut outcome = checked(req, reply, effort, stderr);
                outcome.cpu = cpu;
                match outcome.failure {
                    None => self.put_back(p),
                    Some(_) => p.kill(),
                }
                outcome
            }
            Err((f, why, effort)) => {
                p.kill();
                failed(req.puzzle, f, why, effort, p.take_stderr())
            }
        }
    }
}

/// Whether a bare program name is found in PATH.
fn in_path(program: &std::path::Path) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|d| crate::process::is_executable(&d.join(program)))
}

/// Lines of a failed handshake's stderr shown in its error.
const STDERR_TAIL_LINES: usize = 5;

/// Wait for the solver's hello and check its version.
fn handshake(p: &mut Process, deadline: Instant, limit: f64) -> Result<(), (Failure, String)> {
    let fail = |why: String| Err((Failure::StartFailed, why));
    let line = match p.next_line(deadline) {
        Err(_) => return fail(format!("no hello within the handshake limit of {limit} s")),
        Ok(Line::Text(t)) => t,
        Ok(Line::Eof) => return fail("the process ended before its hello".into()),
        Ok(_) => return fail("an oversized or non-UTF-8 line instead of hello".into()),
    };
    let g = sudoku_core::Geometry::for_order(9).expect("9x9 exists");
    match message::parse(&line, g) {
        Ok(Reply::Hello { protocol, .. }) if protocol == message::VERSION => Ok(()),
        Ok(Reply::Hello { protocol, .. }) => fail(format!(
            "the solver speaks protocol {protocol}, this runner {} (which adds run_id: echo the run message's run_id in every progress and result line)",
            message::VERSION
        )),
        Ok(_) => fail("the first message is not a hello".into()),
        Err(e) => fail(format!("hello line: {e}")),
    }
}

/// Read the run's messages until its result, passing progress on.
fn exchange(
    p: &mut Process,
    req: &Request,
    run_id: u64,
    deadline: Instant,
    observer: &mut dyn Observer,
) -> Ended {
    let g = req.puzzle.geometry();
    let mut effort = Effort::default();
    loop {
        let line = match p.next_line(deadline) {
            Err(_) => {
                let why = format!("no result within the wall limit of {} s", req.wall_seconds);
                return Err((Failure::WallLimit, why, effort));
            }
            Ok(Line::Text(t)) => t,
            Ok(Line::Eof) => return Err(ended_early(p, effort, deadline)),
            Ok(Line::Oversized(cap)) => {
                let why = format!("a line over the cap of {cap} bytes");
                return Err((Failure::Oversized, why, effort));
            }
            Ok(Line::NotUtf8) => {
                return Err((
                    Failure::BadOutput,
                    "a line that is not UTF-8".into(),
                    effort,
                ))
            }
        };
        let reply = message::parse(&line, g).map_err(|e| (Failure::BadOutput, e, effort))?;
        if let Reply::Progress { run_id: id, .. } | Reply::Result { run_id: id, .. } = reply {
            if id != run_id {
                let why = format!(
                    "a line of run_id {id} during run_id {run_id} (left over from another run)"
                );
                return Err((Failure::BadOutput, why, effort));
            }
        }
        let (evaluations, generations) = match &reply {
            Reply::Progress {
                evaluations,
                generations,
                ..
            } => (*evaluations, generations.unwrap_or(effort.generations)),
            Reply::Result {
                evaluations,
                generations,
                ..
            } => (*evaluations, *generations),
            Reply::Hello { .. } => {
                return Err((Failure::BadOutput, "a hello during a run".into(), effort))
            }
        };
        check_effort(&req.budget, &mut effort, evaluations, generations)?;
        match reply {
            Reply::Progress { grid, .. } => {
                observer.generation(effort.generations, effort.evaluations, f64::NAN);
                if let Some(cells) = grid.filter(|_| observer.wants_grids()) {
                    observer.best_grid(effort.evaluations, &cells);
                }
            }
            result => return Ok((result, effort)),
        }
    }
}

/// Effort must not go backwards nor above the budget.
fn check_effort(
    budget: &Budget,
    effort: &mut Effort,
    evaluations: u64,
    generations: u64,
) -> Result<(), (Failure, String, Effort)> {
    if evaluations < effort.evaluations || generations < effort.generations {
        let why = format!(
            "effort went backwards ({} -> {evaluations} evaluations, {} -> {generations} generations)",
            effort.evaluations, effort.generations
        );
        return Err((Failure::BadOutput, why, *effort));
    }
    let over = |limit: Option<u64>, used: u64| limit.is_some_and(|m| used > m);
    if over(budget.max_evaluations, evaluations) || over(budget.max_generations, generations) {
        let why = format!(
            "reported {evaluations} evaluations and {generations} generations, over the budget of {:?} and {:?}",
            budget.max_evaluations, budget.max_generations
        );
        return Err((Failure::OverBudget, why, *effort));
    }
    *effort = Effort {
        evaluations,
        generations,
    };
    Ok(())
}

/// Why stdout ended before a result: a signal, an exit status, or a clean exit. The process
/// may close stdout a little before it exits: its status is awaited until the run's deadline
/// (at least a second), not a short time that a loaded machine would exceed.
fn ended_early(p: &mut Process, effort: Effort, deadline: Instant) -> (Failure, String, Effort) {
    let status = p.wait_until(deadline.max(Instant::now() + Duration::from_secs(1)));
    match status {
        Some(s) if s.code().is_some_and(|c| c != 0) => (
            Failure::ExitStatus,
            format!("exited with {s} before a result"),
            effort,
        ),
        Some(s) if s.success() => (Failure::Crashed, "exited before a result".into(), effort),
        Some(s) => (
            Failure::Crashed,
            format!("ended by {s} before a result"),
            effort,
        ),
        None => (
            Failure::Crashed,
            "closed its output before a result".into(),
            effort,
        ),
    }
}

/// `per-run` mode: after the result, end the input and require a clean exit in time.
fn finish_per_run(p: &mut Process, r: (Reply, Effort), deadline: Instant) -> Ended {
    p.close_input();
    match p.wait_until(deadline.max(Instant::now() + Duration::from_secs(1))) {
        Some(s) if s.success() => Ok(r),
        Some(s) => Err((
            Failure::ExitStatus,
            format!("exited with {s} after its result"),
            r.1,
        )),
        None => Err((
            Failure::WallLimit,
            "did not exit after its result".into(),
            r.1,
        )),
    }
}

/// A run ended by a failure: the puzzle as the grid, the effort reported so far.
fn failed(puzzle: &Puzzle, f: Failure, detail: String, e: Effort, stderr: Vec<u8>) -> Outcome {
    Outcome {
        solved: false,
        grid: puzzle.grid.clone(),
        evaluations: e.evaluations,
        generations: e.generations,
        restarts: 0,
        failure: Some(f),
        detail,
        stderr,
        cpu: None,
        stopped: None,
        counters: String::new(),
    }
}

/// A result, checked: a changed given or an invalid claimed solution fails the run.
fn checked(req: &Request, reply: Reply, effort: Effort, stderr: Vec<u8>) -> Outcome {
    let Reply::Result {
        restarts,
        solved: claimed,
        grid,
        stopped,
        counters,
        ..
    } = reply
    else {
        unreachable!("exchange ends with a result")
    };
    let puzzle = req.puzzle;
    let grid = Grid::from_cells(puzzle.geometry(), grid).expect("cells checked by parse");
    let keeps = grid.keeps_givens_of(&puzzle.grid);
    let solved = keeps && grid.is_solved();
    let failure = match (claimed, solved, keeps) {
        (true, false, _) => Some(Failure::InvalidClaim),
        (false, _, false) => Some(Failure::BadOutput),
        _ => None,
    };
    let detail = match failure {
        Some(Failure::InvalidClaim) if !keeps => {
            "claimed solved, but the grid changes a given".into()
        }
        Some(Failure::InvalidClaim) => {
            "claimed solved, but a row, column or box is not complete".into()
        }
        Some(_) => "the result's grid changes a given".into(),
        None => String::new(),
    };
    Outcome {
        solved: solved && failure.is_none(),
        grid: if keeps { grid } else { puzzle.grid.clone() },
        evaluations: effort.evaluations,
        generations: effort.generations,
        restarts,
        failure,
        detail,
        stderr,
        cpu: None,
        stopped,
        counters,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::process::Launch;
    use std::path::{Path, PathBuf};

    /// A protocol-v2 solver in `sh`: `body` runs for each run message with `$id` (its run_id)
    /// and `$givens` (its grid) set; `res ID SOLVED` writes a result with the givens as grid.
    fn sh_solver(body: &str, mode: Mode, wall: u64) -> External {
        let script = format!(
            r#"res() {{ echo "{{\"type\":\"result\",\"run_id\":$1,\"solved\":$2,\"evaluations\":1,\"grid\":$givens}}"; }}
while IFS= read -r line; do
  case "$line" in
  *'"type":"hello"'*) echo '{{"type":"hello","protocol":2}}' ;;
  *'"type":"run"'*)
    id=$(printf '%s\n' "$line" | sed 's/.*"run_id":\([0-9]*\).*/\1/')
    givens=$(printf '%s\n' "$line" | sed 's/.*"givens":\(\[\[[][0-9,]*\]\]\).*/\1/')
    {body} ;;
  esac
done"#
        );
        External::new(Config {
            shown: "sh".into(),
            launch: Launch {
                program: "sh".into(),
                args: vec!["-c".into(), script],
                env: Vec::new(),
                dir: ".".into(),
                max_line: 1 << 20,
                max_stderr: 1 << 16,
            },
            mode,
            wall: Duration::from_secs(wall),
            handshake: Duration::from_secs(120),
            params: serde_json::json!({}),
        })
    }

    fn run(e: &External) -> Outcome {
        let p = sudoku_core::bank_puzzle("mk_easy").unwrap();
        let params = serde_json::json!({});
        let req = Request {
            puzzle: p,
            seed: 1,
            budget: Budget {
                max_generations: None,
                max_evaluations: Some(100),
            },
            wall_seconds: 60.0,
            max_cpu_seconds: None,
            max_wall_seconds: None,
            params: &params,
        };
        e.run(&req, &mut sudoku_core::NoObserver)
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("external-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Whether process `pid` has ended (gone, or a zombie awaiting its reaper), waiting for
    /// it up to a minute (a generous bound: on a loaded machine the kill and the reaping by
    /// init are not instant; an ended process passes at once).
    fn ends(pid: &str) -> bool {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
            // The state follows the command's closing parenthesis.
            let state = stat.as_deref().ok().and_then(|s| s.rsplit(')').next());
            if state.is_none_or(|s| s.trim_start().starts_with('Z')) {
                return true;
            }
            if Instant::now() > until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn pid_in(file: &Path) -> String {
        std::fs::read_to_string(file).unwrap().trim().to_string()
    }

    /// A solver that writes a second result after a false claim: the claim fails its run and
    /// the process is ended, so that the second result cannot be credited to the next run.
    #[test]
    fn after_an_invalid_claim_the_process_is_restarted() {
        let e = sh_solver("res $id true; res $id false", Mode::Persistent, 60);
        for _ in 0..4 {
            let o = run(&e);
            assert_eq!(o.failure, Some(Failure::InvalidClaim), "{}", o.detail);
        }
    }

    /// A result left over from another run (a solver that writes its result twice) fails the
    /// run that reads it, which restarts the process: runs alternate.
    #[test]
    fn a_result_of_another_run_fails_the_run_that_reads_it() {
        let e = sh_solver("res $id false; res $id false", Mode::Persistent, 60);
        for k in 0..4 {
            let o = run(&e);
            if k % 2 == 0 {
                assert_eq!(o.failure, None, "{}", o.detail);
            } else {
                assert_eq!(o.failure, Some(Failure::BadOutput));
                assert!(o.detail.contains("left over"), "{}", o.detail);
            }
        }
    }

    /// A solver that exits with status 3 while its child keeps stdout open fails with
    /// `exit_status` when it exits, not with `wall_limit` when the limit passes.
    #[test]
    fn a_solver_that_exits_while_a_child_holds_stdout_fails_with_its_status() {
        for mode in [Mode::Persistent, Mode::PerRun] {
            let e = sh_solver("sleep 1000 & exit 3", mode, 30);
            let o = run(&e);
            assert_eq!(o.failure, Some(Failure::ExitStatus), "{}", o.detail);
        }
    }

    /// The children of a solver end with it: after a per-run run, after a failure (a false
    /// claim), and when a persistent solver is dropped at the end.
    #[test]
    fn a_solvers_children_end_at_every_end_of_the_solver() {
        let d = scratch("children");
        let spawn = |f: &str| format!("sleep 1000 & echo $! > {}/{f}", d.display());
        let e = sh_solver(&format!("{}; res $id false", spawn("a")), Mode::PerRun, 60);
        assert_eq!(run(&e).failure, None);
        assert!(
            ends(&pid_in(&d.join("a"))),
            "the child of a per-run solver survived"
        );
        let e = sh_solver(
            &format!("{}; res $id true", spawn("b")),
            Mode::Persistent,
            60,
        );
        assert_eq!(run(&e).failure, Some(Failure::InvalidClaim));
        assert!(ends(&pid_in(&d.join("b"))), "a child survived a failed run");
        let e = sh_solver(
            &format!("{}; res $id false", spawn("c")),
            Mode::Persistent,
            60,
        );
        assert_eq!(run(&e).failure, None);
        drop(e);
        assert!(
            ends(&pid_in(&d.join("c"))),
            "a child survived its persistent solver"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    /// In persistent mode, each run's stderr holds exactly the lines written during the run,
    /// the ones written just before its result included.
    #[test]
    fn each_runs_stderr_holds_its_own_lines() {
        let body = "for k in 1 2 3 4 5; do echo \"run $id line $k\" >&2; done; res $id false";
        let e = sh_solver(body, Mode::Persistent, 60);
        for id in 1..=30 {
            let o = run(&e);
            assert_eq!(o.failure, None, "{}", o.detail);
            let want: String = (1..=5).map(|k| format!("run {id} line {k}\n")).collect();
            assert_eq!(String::from_utf8_lossy(&o.stderr), want);
        }
    }

    /// A failed handshake names the solver's last words (here: what a misspelt script name
    /// makes an interpreter say), escaped into one line.
    #[test]
    fn a_failed_handshake_shows_the_tail_of_stderr() {
        let mut e = sh_solver("", Mode::Persistent, 60);
        e.config.launch.args = vec![
            "-c".into(),
            "echo first >&2; echo \"can't open file 'solvr.py'\" >&2; exit 2".into(),
        ];
        let err = e.preflight().unwrap_err().to_string();
        assert!(err.contains("can't open file 'solvr.py'"), "{err}");
        assert!(err.contains("first\\n"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

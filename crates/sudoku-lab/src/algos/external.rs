//! `algorithm = "external"`: a solver of the user's, in any language, run as a process through
//! the `external` crate's protocol v2 (docs/external-solvers.md). This module turns a spec's
//! keys into an [`external::Config`] and a run's checked [`external::Outcome`] into the row
//! fields every algorithm has, with the failure reason that runs.csv's `termination` records.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use sudoku_core::{Budget, Observer, Puzzle, Rng, RunOutcome, Solver, Termination, Units};

/// The default wall-clock limit of one run, seconds.
pub const DEFAULT_WALL_SECONDS: f64 = 60.0;
/// The longest line a solver may write (a 64x64 grid with its JSON fits many times).
pub const MAX_LINE: usize = 1 << 20;
/// The stderr kept per run.
pub const MAX_STDERR: usize = 64 << 10;
/// The longest wall limit accepted (a week); the handshake's too.
pub const MAX_WALL_SECONDS: f64 = 7.0 * 86_400.0;
/// The default limit of a new process's start-up (to its hello), seconds: generous, since a
/// loaded machine or a language's start-up (a JIT, a large import) can take many seconds, and
/// a wrong command fails at once anyway (the process ends, or says nothing it should).
pub const DEFAULT_HANDSHAKE_SECONDS: f64 = 120.0;

/// The spec keys of an external solver.
#[derive(Debug, Clone, Copy)]
pub struct Keys<'a> {
    pub command: &'a [String],
    pub env: Option<&'a std::collections::BTreeMap<String, String>>,
    pub mode: Option<&'a str>,
    pub wall_seconds: Option<f64>,
    pub handshake_seconds: Option<f64>,
    pub params: &'a toml::Table,
}

/// The time budget a run message tells an external solver (the spec's `max_cpu_seconds` and
/// `max_wall_seconds`): the solver keeps it itself; the runner's only hard limit is
/// `wall_seconds`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TimeBudget {
    pub cpu_seconds: Option<f64>,
    pub wall_seconds: Option<f64>,
}

/// An external solver, shared by the threads of a protocol (its processes are pooled).
#[derive(Clone)]
pub struct ExternalSolver {
    inner: Arc<external::External>,
    /// False for a spec without a folder (embedded): its runs cannot start.
    located: bool,
}

/// One run's outcome with what the runner records beside the row.
pub struct Job {
    pub outcome: RunOutcome,
    /// runs.csv's `termination` for a failed run (None: the outcome's own).
    pub failure: Option<&'static str>,
    /// What went wrong, in a line.
    pub detail: String,
    pub stderr: Vec<u8>,
    /// The solver's own numbers (its result's `counters`), as runs.csv writes them.
    pub counters: String,
    /// The CPU its process group used during the run, milliseconds (None: not measured).
    pub cpu_ms: Option<f64>,
}

/// Check the keys (values only; the folder is not looked at).
pub fn check(k: &Keys) -> Result<()> {
    let Some(program) = k.command.first() else {
        bail!("command: empty (the program and its arguments, e.g. [\"python3\", \"solver.py\"])");
    };
    if program.trim().is_empty() || k.command.iter().any(|a| a.contains('\0')) {
        bail!("command: an empty program or a NUL character");
    }
    mode(k.mode)?;
    let wall = k.wall_seconds.unwrap_or(DEFAULT_WALL_SECONDS);
    if !(wall > 0.0 && wall <= MAX_WALL_SECONDS) {
        bail!("wall_seconds = {wall}: must be above 0 and at most {MAX_WALL_SECONDS} (a week)");
    }
    let hello = k.handshake_seconds.unwrap_or(DEFAULT_HANDSHAKE_SECONDS);
    if !(hello > 0.0 && hello <= MAX_WALL_SECONDS) {
        bail!(
            "handshake_seconds = {hello}: must be above 0 and at most {MAX_WALL_SECONDS} (a week)"
        );
    }
    for (key, value) in k.env.into_iter().flatten() {
        if key.is_empty() || key.contains(['=', '\0']) || value.contains('\0') {
            bail!(
                "env: '{}' is not a variable name (or its value holds NUL)",
                key.escape_debug()
            );
        }
    }
    serde_json::to_value(k.params).context("params: not representable as JSON")?;
    Ok(())
}

fn mode(m: Option<&str>) -> Result<external::Mode> {
    super::options::choose_or(
        "mode",
        m,
        &[
            ("persistent", external::Mode::Persistent),
            ("per-run", external::Mode::PerRun),
        ],
        external::Mode::Persistent,
    )
}

/// The solver of checked keys, run in `dir` (the spec's folder; None for an embedded spec,
/// whose runs then fail at the pre-flight check with a message that says why).
pub fn external(k: &Keys, dir: Option<&Path>) -> Result<ExternalSolver> {
    check(k)?;
    let folder = dir.map_or_else(PathBuf::new, Path::to_path_buf);
    let folder = if folder.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        folder
    };
    let program = &k.command[0];
    // A program with a '/' is a file of the spec's folder; a bare name is looked up in PATH.
    let resolved = if program.contains('/') {
        folder.join(program)
    } else {
        PathBuf::from(program)
    };
    let launch = external::process::Launch {
        program: resolved,
        args: k.command[1..].to_vec(),
        env: (k.env.into_iter().flatten())
            .map(|(a, b)| (a.clone(), b.clone()))
            .collect(),
        dir: folder,
        max_line: MAX_LINE,
        max_stderr: MAX_STDERR,
    };
    let config = external::Config {
        shown: format!("{:?}", k.command),
        launch,
        mode: mode(k.mode)?,
        wall: Duration::from_secs_f64(k.wall_seconds.unwrap_or(DEFAULT_WALL_SECONDS)),
        handshake: Duration::from_secs_f64(
            k.handshake_seconds.unwrap_or(DEFAULT_HANDSHAKE_SECONDS),
        ),
        params: serde_json::to_value(k.params)?,
    };
    Ok(ExternalSolver {
        inner: Arc::new(external::External::new(config)),
        located: dir.is_some(),
    })
}

impl ExternalSolver {
    /// Before the first run: the program exists and answers the handshake.
    pub fn preflight(&self) -> Result<()> {
        if !self.located {
            bail!("an external solver runs in its spec's folder: run the spec file with `sudoku-lab run SPEC.toml`");
        }
        Ok(self.inner.preflight()?)
    }

    /// The hard deadline of one run, seconds (`wall_seconds`).
    pub fn wall_seconds(&self) -> f64 {
        self.inner.config().wall.as_secs_f64()
    }

    /// One run with the run's own seed.
    pub fn run_job(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        time: TimeBudget,
        seed: u64,
        observer: &mut dyn Observer,
    ) -> Job {
        let c = self.inner.config();
        let req = external::Request {
            puzzle,
            seed,
            budget: *budget,
            wall_seconds: c.wall.as_secs_f64(),
            max_cpu_seconds: time.cpu_seconds,
            max_wall_seconds: time.wall_seconds,
            params: &c.params,
        };
        let o = self.inner.run(&req, observer);
        // Solved; else the limit its effort reached; else the time limit it names; else its
        // own rule.
        let termination = match o.solved {
            true => Termination::Solved,
            false => budget
                .reason(o.generations, o.evaluations)
                .or(o.stopped.and_then(Termination::time_limit))
                .unwrap_or(Termination::Converged),
        };
        let units = Units::new(puzzle.geometry());
        let penalty = sudoku_core::fitness::missing_symbols_cost(&units, o.grid.cells());
        Job {
            outcome: RunOutcome {
                solved: o.solved,
                best_fitness: f64::from(penalty),
                generations: o.generations,
                evaluations: o.evaluations,
                restarts: o.restarts,
                termination,
                grid: o.grid,
                counters: Vec::new(),
            },
            failure: o.failure.map(|f| f.code()),
            detail: o.detail,
            stderr: o.stderr,
            cpu_ms: o.cpu.map(|d| d.as_secs_f64() * 1e3),
            counters: o.counters,
        }
    }
}

impl Solver for ExternalSolver {
    fn name(&self) -> &'static str {
        "external"
    }

    /// A run whose seed is the first number of `rng` (the protocol calls
    /// [`ExternalSolver::run_job`] with the run's own seed instead). A failed run is an
    /// unsolved one here; the protocol records its reason.
    fn solve(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        use rand::RngCore;
        let time = TimeBudget::default();
        self.run_job(puzzle, budget, time, rng.next_u64(), observer)
            .outcome
    }
}

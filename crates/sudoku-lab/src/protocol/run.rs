//! Protocol execution: spec -> plan (jobs with seeds) -> runs in parallel (rayon) -> runs.csv.
//!
//! Rows are appended as runs finish (one flushed line each), so an interrupted protocol loses
//! at most the runs in flight; `--resume` skips the runs already in the file. When the protocol
//! completes, the file is rewritten in a fixed order (algorithm, puzzle, run: the spec's order)
//! and atomically renamed over the old one, so a finished runs.csv is identical for any thread
//! count apart from `wall_ms`. Run seeds come from (master seed, experiment, puzzle, run), never
//! from thread or order.

use super::plan::{shard_members, IndexSet, Job, Plan};
use crate::algos::external::ExternalSolver;
use crate::protocol::io::{
    check_regular, for_each_numbered_row, open_append, write_atomic, write_atomic_with, Row, HEADER,
};
use crate::protocol::progress::Progress;
use crate::protocol::trajectory::Recorder;
use crate::spec::{Loaded, Spec};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;
use std::sync::{mpsc, Mutex};
use std::time::Instant;
use sudoku_core::halt::{thread_cpu_time, with_stop, Stop};
use sudoku_core::{rng_from_seed, Budget, NoObserver, Observer, Puzzle, RunOutcome, Solver, Units};

/// The folder of external solvers' per-run logs, beside runs.csv.
pub const LOGS: &str = "external-logs";

/// Everything a protocol needs, validated.
pub struct Protocol<'a> {
    pub spec: &'a Spec,
    pub puzzles: &'a [Puzzle],
    pub solvers: Vec<Box<dyn Solver>>,
    pub budgets: Vec<Budget>,
    /// Per algorithm: its time limits (`max_cpu_seconds`, `max_wall_seconds`), installed on the
    /// run's thread around a built-in solver's run ([`sudoku_core::halt`]).
    pub stops: Vec<Option<Stop>>,
    /// Runs of each puzzle (same order as `puzzles`).
    pub runs: Vec<u64>,
    /// Per algorithm: its own runs of every puzzle, else None (see [`crate::spec::Loaded`]).
    pub algorithm_runs: Vec<Option<u64>>,
    /// Record anytime data in `trajectories.csv` (spec key `anytime`).
    pub anytime: bool,
    /// `--shard k/n` (k from 1): only the k-th of n disjoint slices of the plan.
    pub shard: Option<(usize, usize)>,
    /// Per algorithm: the external solver (`algorithm = "external"`), else None. Its runs get
    /// the run's own seed and record a failure's reason and stderr.
    pub externals: Vec<Option<ExternalSolver>>,
    /// Where external solvers' per-run logs go (set by [`Protocol::run`]; unset: not kept).
    pub logs: std::sync::OnceLock<std::path::PathBuf>,
}

/// A run's outcome, the failure of an external solver's run, its CPU milliseconds, and an
/// external solver's own counters (`name=value;...`).
type Solved = (RunOutcome, Option<&'static str>, Option<f64>, String);

/// What one job produced: its `runs.csv` row and, with `anytime`, its trajectory block.
pub struct Done {
    pub row: Row,
    pub trajectory: Option<String>,
}

impl<'a> Protocol<'a> {
    /// The protocol of `spec` on its `loaded` puzzles (with their runs): a solver and a budget
    /// per algorithm (with the `--quick` generation cap when given), anytime data as the spec
    /// asks, and with `shard` only that slice of the plan.
    pub fn new(
        spec: &'a Spec,
        loaded: &'a Loaded,
        quick_cap: Option<u64>,
        shard: Option<(usize, usize)>,
    ) -> Result<Self> {
        let mut solvers: Vec<Box<dyn Solver>> = Vec::new();
        let mut externals = Vec::new();
        for a in &spec.algorithms {
            if a.is_external() {
                let e = a.external_solver(loaded.spec_dir.as_deref())?;
                solvers.push(Box::new(e.clone()));
                externals.push(Some(e));
            } else {
                solvers.push(crate::algos::solver(&a.algorithm, &a.params)?);
                externals.push(None);
            }
        }
        Ok(Protocol {
            spec,
            puzzles: &loaded.puzzles,
            solvers,
            budgets: spec
                .algorithms
                .iter()
                .map(|a| a.budget(quick_cap))
                .collect(),
            stops: spec.algorithms.iter().map(|a| a.time_limits()).collect(),
            runs: loaded.runs.clone(),
            algorithm_runs: loaded.algorithm_runs.clone(),
            anytime: spec.anytime,
            shard,
            externals,
            logs: std::sync::OnceLock::new(),
        })
    }

    /// Check every external solver before the first run (program found, handshake answered),
    /// naming the algorithm: a protocol must not die on its solver after hours.
    pub fn preflight(&self) -> Result<()> {
        for (a, e) in self.spec.algorithms.iter().zip(&self.externals) {
            if let Some(e) = e {
                e.preflight()
                    .with_context(|| format!("algorithm '{}'", a.label))?;
            }
        }
        Ok(())
    }

    /// One run of job's algorithm: a built-in solver's outcome, or an external solver's with
    /// the reason of a failure (stderr and the failure's detail kept in its log).
    ///
    /// A built-in solver runs with `stop` installed on this thread; its CPU time is this
    /// thread's CPU clock around the call (the thread does nothing else meanwhile). An
    /// external solver's is its process group's, measured by the `external` crate.
    fn solve_job(
        &self,
        job: &Job,
        budget: &Budget,
        stop: Option<Stop>,
        rng: &mut sudoku_core::Rng,
        observer: &mut dyn Observer,
    ) -> Solved {
        let puzzle = &self.puzzles[job.puzzle];
        let Some(e) = &self.externals[job.algorithm] else {
            let solver = &self.solvers[job.algorithm];
            let before = thread_cpu_time();
            let out = match stop {
                Some(stop) => with_stop(stop, || solver.solve(puzzle, budget, rng, observer)).0,
                None => solver.solve(puzzle, budget, rng, observer),
            };
            let cpu = before
                .zip(thread_cpu_time())
                .map(|(a, b)| b.saturating_sub(a).as_secs_f64() * 1e3);
            return (out, None, cpu, String::new());
        };
        let time = self.spec.algorithms[job.algorithm].time_budget();
        let done = e.run_job(puzzle, budget, time, job.seed, observer);
        if let Some(dir) = self.logs.get() {
            let label = &self.spec.algorithms[job.algorithm].label;
            crate::protocol::logs::write_run_log(dir, label, puzzle, job, &done);
        }
        let mut outcome = done.outcome;
        outcome.counters.clear();
        (outcome, done.failure, done.cpu_ms, done.counters)
    }

    /// Execute one job: the row it produces, crediting the run's effort to `progress` as it
    /// goes. The exact checker verifies every claimed solution.
    pub fn execute_observed(&self, job: &Job, progress: Option<&Progress>) -> Done {
        let a = job.algorithm;
        self.execute_within(job, &self.budgets[a], self.stops[a], progress)
    }

    /// Execute the job of a recorded row again ([`crate::protocol::replay`], `merge
    /// --verify`): with the budget of the plan, and, where a time limit ended the recorded run,
    /// stopped where it stopped ([`Stop::At`] its generations and evaluations), never by a
    /// clock: a replay on another machine, or a loaded one, makes the same run.
    pub fn execute_again(&self, job: &Job, recorded: &Row, progress: Option<&Progress>) -> Done {
        let stop = sudoku_core::Termination::time_limit(&recorded.termination).map(|t| Stop::At {
            generations: recorded.generations,
            evaluations: recorded.evaluations,
            termination: t,
        });
        self.execute_within(job, &self.budgets[job.algorithm], stop, progress)
    }

    /// [`Protocol::execute_observed`] under another budget and stop (`readings` stops runs at
    /// a cap tied to the published generations; the row records the budget in
    /// `max_generations`).
    pub fn execute_within(
        &self,
        job: &Job,
        budget: &Budget,
        stop: Option<Stop>,
        progress: Option<&Progress>,
    ) -> Done {
        let puzzle = &self.puzzles[job.puzzle];
        let mut rng = rng_from_seed(job.seed);
        let mut recorder = self
            .anytime
            .then(|| Recorder::new(Units::new(puzzle.grid.geometry())));
        let start = Instant::now();
        let mut none = NoObserver;
        let inner: &mut dyn Observer = match recorder.as_mut() {
            Some(r) => r,
            None => &mut none,
        };
        let (out, failure, cpu_ms, external_counters) = match progress {
            Some(p) => self.solve_job(job, budget, stop, &mut rng, &mut p.observer(budget, inner)),
            None => self.solve_job(job, budget, stop, &mut rng, inner),
        };
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        let label = &self.spec.algorithms[job.algorithm].label;
        let trajectory = recorder.map(|r| {
            let points = r.finish(out.evaluations, out.grid.cells());
            let prefix = format!("{},{label},{},{}", self.spec.id, puzzle.id, job.run);
            crate::protocol::trajectory::block(&prefix, &points)
        });
        let verified = out.solved && out.grid.is_solved() && out.grid.keeps_givens_of(&puzzle.grid);
        let termination = match failure {
            Some(reason) => reason.to_string(),
            None if out.solved && !verified => "invalid_claim".to_string(),
            None => out.termination.as_str().to_string(),
        };
        let row = Row {
            experiment: self.spec.id.clone(),
            algorithm: label.clone(),
            puzzle: puzzle.id.clone(),
            run: job.run,
            seed: job.seed,
            solved: verified as u8,
            generations: out.generations,
            evaluations: out.evaluations,
            restarts: out.restarts,
            best_fitness: out.best_fitness,
            termination,
            max_generations: budget.max_generations.unwrap_or(0),
            wall_ms,
            cpu_ms,
            grid: out.grid.to_line(),
            counters: match external_counters.is_empty() {
                true => crate::protocol::io::format_counters(&out.counters),
                false => external_counters,
            },
        };
        Done { row, trajectory }
    }

    /// The plan of this protocol.
    pub fn plan(&self) -> Plan<'_> {
        Plan::new(self.spec, self.puzzles, &self.runs, &self.algorithm_runs)
    }

    /// The expected cost of a run of each algorithm (see [`crate::algos::expected_cost`]).
    fn costs(&self) -> Vec<u64> {
        self.budgets
            .iter()
            .map(crate::algos::expected_cost)
            .collect()
    }

    /// The longest a run of algorithm `a` can take, in milliseconds, when a time limit ends
    /// it: a built-in algorithm's CPU or wall limit (the smaller), an external solver's hard
    /// deadline `wall_seconds`; None for a built-in algorithm without one.
    fn time_limit_ms(&self, a: usize) -> Option<u64> {
        let alg = &self.spec.algorithms[a];
        let seconds = match &self.externals[a] {
            Some(e) => Some(e.wall_seconds()),
            None => [alg.max_cpu_seconds, alg.max_wall_seconds]
                .into_iter()
                .flatten()
                .reduce(f64::min),
        };
        seconds.map(|s| (s * 1e3).ceil() as u64)
    }

    /// The runs this protocol executes: the whole plan, or with `--shard k/n` its k-th slice.
    fn members(&self, plan: &Plan) -> IndexSet {
        match self.shard {
            None => IndexSet::full(plan.len()),
            Some((k, n)) => shard_members(plan, &self.costs(), k, n),
        }
    }

    /// Run every job not yet in `runs_path`, appending rows as they finish, then put the file in
    /// canonical order. Returns (runs executed now, runs found done).
    pub fn run(&self, runs_path: &Path, resume: bool, threads: usize) -> Result<(usize, usize)> {
        let plan = self.plan();
        let mine = self.members(&plan);
        let done = self.runs_done(&plan, runs_path, resume)?;
        let found = mine.intersection(&done).count();
        let pending = mine.count() - found;
        let traj_path = runs_path.with_file_name(crate::protocol::trajectory::FILE);
        let traj_file = if self.anytime {
            Some(self.open_trajectories(&plan, &traj_path, &mine, &done)?)
        } else {
            None
        };
        let file = open_append(runs_path)?;
        *kept() = Some((runs_path.to_path_buf(), found, mine.count()));
        if found > 0 {
            eprintln!("resuming: {found} runs already done");
        }
        if pending > 0 {
            // A fresh protocol's caller checked its solvers before writing anything; a
            // second check here would start each solver again, and fail the whole protocol
            // where a slow start should fail one run (`start_failed`).
            if resume {
                self.preflight()?;
            }
            self.warn_own_stops();
        }
        let _ = self.logs.set(runs_path.with_file_name(LOGS));
        let costs = self.costs();
        // One run per task, interleaved by puzzle, run index and algorithm
        // ([`Plan::interleaved`]): the threads take the next run from a shared list as they
        // finish, so a change of load falls on every algorithm alike (the order of execution
        // never shows in the files: see `canonicalise`).
        let order = || {
            plan.interleaved()
                .filter(|&i| mine.contains(i) && !done.contains(i))
        };
        let effort = order()
            .map(|i| costs[plan.algorithm_of(i)])
            .fold(0u64, u64::saturating_add);
        let mut progress = Progress::new(&self.spec.id, effort, pending);
        let limits: Option<Vec<u64>> = (0..self.spec.algorithms.len())
            .map(|a| self.time_limit_ms(a))
            .collect();
        if let Some(limits) = limits {
            let total = order()
                .map(|i| limits[plan.algorithm_of(i)])
                .fold(0u64, u64::saturating_add);
            progress = progress.with_time_bound(total, threads);
        }
        let writer = Writer::start(file, runs_path, traj_file, &traj_path);
        self.execute_all(&plan, Mutex::new(order()), threads, &progress, &writer.tx)?;
        writer.finish()?;
        self.canonicalise(&plan, runs_path, &mine)?;
        if self.anytime {
            self.rewrite_blocks(
                &plan,
                &traj_path,
                crate::protocol::trajectory::HEADER,
                &mine,
            )?;
        }
        Ok((pending as usize, found as usize))
    }

    /// A warning line on stderr for each algorithm with a `max_evaluations` that its runs stop
    /// before by the algorithm's own rule ([`crate::algos::own_stopping_rule`]), so that no one
    /// reads the budget as spent; the compare report states the evaluations actually used. And
    /// one for each algorithm whose `max_evaluations` is below its own schedule's length
    /// ([`crate::algos::short_budget`]; report.md repeats it). Given once every input is
    /// checked, when runs are about to start: an input error stays a single line, and
    /// rewriting the reports of a finished folder says nothing.
    fn warn_own_stops(&self) {
        for (a, budget) in self.spec.algorithms.iter().zip(&self.budgets) {
            let rule = (budget.max_evaluations)
                .and_then(|max| crate::algos::own_stopping_rule(&a.algorithm, &a.params, max));
            if let Some(rule) = rule {
                let text = format!("warning: algorithm '{}' ({}) {rule}", a.label, a.algorithm);
                eprintln!("{}", sudoku_core::error::shown(&text));
            }
            let short = (budget.max_evaluations).and_then(|max| {
                crate::algos::short_budget(&a.algorithm, &a.params, max, self.puzzles)
            });
            if let Some(short) = short {
                eprintln!(
                    "warning: algorithm '{}' ({}): {short}",
                    a.label, a.algorithm
                );
            }
        }
    }

    /// Execute the runs `order` yields on `threads` threads, sending each result to the writer
    /// as it finishes; progress is reported meanwhile.
    fn execute_all(
        &self,
        plan: &Plan,
        order: Mutex<impl Iterator<Item = u64> + Send>,
        threads: usize,
        progress: &Progress,
        tx: &mpsc::Sender<Done>,
    ) -> Result<()> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("cannot start the thread pool")?;
        let stop = std::sync::atomic::AtomicBool::new(false);
        let next = || order.lock().ok().and_then(|mut o| o.next());
        std::thread::scope(|scope| {
            scope.spawn(|| progress.report(&stop));
            pool.broadcast(|_| {
                let tx = tx.clone();
                while let Some(i) = next() {
                    let job = plan.job(i);
                    let _ = tx.send(self.execute_observed(&job, Some(progress)));
                    if let Some(ms) = self.time_limit_ms(job.algorithm) {
                        progress.finished_limit(ms);
                    }
                }
            });
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        Ok(())
    }

    /// The runs already in `runs_path` (with `resume`; a torn last line is cut off so that new
    /// rows append cleanly), or a new runs.csv with its header. An empty file (created, never
    /// written) gets its header before the first run; a file without it is refused (by the
    /// reader) before any run starts.
    fn runs_done(&self, plan: &Plan, runs_path: &Path, resume: bool) -> Result<IndexSet> {
        let mut done = IndexSet::empty(plan.len());
        check_regular(runs_path)?;
        let empty = std::fs::metadata(runs_path).ok().map(|m| m.len() == 0);
        if empty.is_none() || (resume && empty == Some(true)) {
            if empty.is_some() {
                let path = runs_path.display().to_string();
                eprintln!(
                    "{}: empty file: header written",
                    sudoku_core::error::shown(&path)
                );
            }
            write_atomic(runs_path, format!("{HEADER}\n").as_bytes())?;
            return Ok(done);
        }
        if !resume {
            bail!(
                "{} exists: pass --resume to continue it, or --fresh to start over",
                runs_path.display()
            );
        }
        crate::protocol::io::upgrade_runs(runs_path)?;
        // Every kept row is a run of the plan with the plan's seed, as merge checks shards.
        let valid = for_each_numbered_row(runs_path, |line, r| {
            let at = format!("{}:{line}", runs_path.display());
            done.insert(plan.checked_job(&at, &r)?.0);
            Ok(())
        })?;
        // Drop a torn last line before appending (an append-mode descriptor may truncate).
        let f = open_append(runs_path)?;
        f.metadata()
            .and_then(|m| match m.len() == valid {
                true => Ok(()),
                false => f.set_len(valid),
            })
            .with_context(|| format!("cannot write {}", runs_path.display()))?;
        Ok(done)
    }

    /// The trajectories file, ready to append: created with its header, or (on resume) rewritten
    /// with the blocks of the finished runs only, so that blocks of runs in flight at an
    /// interruption (and a torn last line) are dropped before those runs are redone.
    fn open_trajectories(
        &self,
        plan: &Plan,
        path: &Path,
        mine: &IndexSet,
        done: &IndexSet,
    ) -> Result<std::fs::File> {
        if path.exists() {
            let finished = mine.intersection(done);
            self.rewrite_blocks(plan, path, crate::protocol::trajectory::HEADER, &finished)?;
        } else if done.count() > 0 {
            bail!(
                "{} is missing but runs.csv has finished runs: their anytime data is lost; use --fresh",
                path.display()
            );
        } else {
            let header = format!("{}\n", crate::protocol::trajectory::HEADER);
            write_atomic(path, header.as_bytes())?;
        }
        open_append(path)
    }

    /// Rewrite runs.csv in plan order, atomically.
    fn canonicalise(&self, plan: &Plan, runs_path: &Path, mine: &IndexSet) -> Result<()> {
        self.rewrite_blocks(plan, runs_path, HEADER, mine)
    }

    /// Rewrite a file of per-run blocks of lines (one line per run for runs.csv, one line per
    /// improvement for trajectories.csv) keyed by (algorithm, puzzle, run) in its 2nd to 4th
    /// fields, in plan order, atomically: the runs of `keep` must all be present. The last
    /// block of a key wins; a torn last line is ignored. Only an index (plan index -> byte
    /// range) is held, not the lines.
    fn rewrite_blocks(
        &self,
        plan: &Plan,
        path: &Path,
        header: &str,
        keep: &IndexSet,
    ) -> Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        let index = BlockIndex::read(plan, path)?;
        let mut raw = crate::spec::open_regular(path)?;
        let mut buf = Vec::new();
        write_atomic_with(path, |out| {
            writeln!(out, "{header}")?;
            for i in (0..plan.len()).filter(|&i| keep.contains(i)) {
                let Some((off, len)) = index.get(i) else {
                    let j = plan.job(i);
                    bail!(
                        "run {}/{}/{} is missing from {}",
                        j.algorithm,
                        j.puzzle,
                        j.run,
                        path.display()
                    );
                };
                raw.seek(SeekFrom::Start(off))?;
                buf.resize(len, 0);
                raw.read_exact(&mut buf)?;
                out.write_all(&buf)?;
            }
            Ok(())
        })
    }
}

/// Where each run's block of lines starts in a file and how long it is, by plan index.
struct BlockIndex {
    offsets: Vec<u64>,
    lengths: Vec<u32>,
}

impl BlockIndex {
    /// Index the blocks of `path` (header skipped; a torn last line ignored; lines naming no
    /// run of the plan skipped; consecutive lines of the same run form one block, and a later
    /// block of a run replaces an earlier one).
    fn read(plan: &Plan, path: &Path) -> Result<BlockIndex> {
        use std::io::BufRead;
        let len = plan.len() as usize;
        let mut index = BlockIndex {
            offsets: vec![u64::MAX; len],
            lengths: vec![0; len],
        };
        let mut f = std::io::BufReader::new(crate::spec::open_regular(path)?);
        let mut offset = 0u64;
        let mut line = String::new();
        let mut first = true;
        let mut previous: Option<u64> = None;
        loop {
            line.clear();
            let k = f.read_line(&mut line)?;
            if k == 0 || !line.ends_with('\n') {
                break;
            }
            if !first {
                let key = run_key(plan, &line);
                if let Some(i) = key {
                    let i = i as usize;
                    if previous == key {
                        index.lengths[i] += k as u32;
                    } else {
                        (index.offsets[i], index.lengths[i]) = (offset, k as u32);
                    }
                }
                previous = key;
            }
            first = false;
            offset += k as u64;
        }
        Ok(index)
    }

    /// The byte range of run `i`'s block, if the file has one.
    fn get(&self, i: u64) -> Option<(u64, usize)> {
        let i = i as usize;
        (self.offsets[i] != u64::MAX).then(|| (self.offsets[i], self.lengths[i] as usize))
    }
}

/// The plan index of the run a runs.csv or trajectories.csv line belongs to (its 2nd to 4th
/// fields: algorithm, puzzle, run).
fn run_key(plan: &Plan, line: &str) -> Option<u64> {
    let mut it = line.splitn(5, ',');
    let (_, alg, puz, run) = (it.next(), it.next()?, it.next()?, it.next()?);
    plan.index_of(alg, puz, run.parse().ok()?)
}

/// Held while a run is appended to trajectories.csv and runs.csv (see [`hold_appends`]).
static APPENDING: Mutex<()> = Mutex::new(());

/// The runs.csv a protocol of this process is writing, the runs it holds and the runs of the
/// plan (or shard): what an interruption reports ([`interruption_note`]).
static KEPT: Mutex<Option<(std::path::PathBuf, u64, u64)>> = Mutex::new(None);

fn kept() -> std::sync::MutexGuard<'static, Option<(std::path::PathBuf, u64, u64)>> {
    KEPT.lock().unwrap_or_else(|e| e.into_inner())
}

/// What Ctrl-C (or SIGTERM) leaves, in one line for stderr: the runs kept in the runs.csv being
/// written and the command that continues it (this process's own arguments with `--resume`).
/// Call with the appends held ([`hold_appends`]), so the count is what the file holds.
pub fn interruption_note() -> String {
    let Some((path, done, planned)) = kept().clone() else {
        return "interrupted".to_string();
    };
    let mut args: Vec<String> = std::env::args().collect();
    args.retain(|a| a != "--fresh");
    if !args.iter().any(|a| a == "--resume") {
        args.push("--resume".to_string());
    }
    let shown: Vec<String> = args.iter().map(|a| shell_word(a)).collect();
    let text = format!(
        "interrupted: {done} of {planned} runs kept in {}; continue with: {}",
        path.display(),
        shown.join(" ")
    );
    sudoku_core::error::shown(&text)
}

/// A word as a POSIX shell reads it back: as is when it holds only safe characters, else in
/// single quotes.
fn shell_word(w: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    match !w.is_empty() && w.chars().all(safe) {
        true => w.to_string(),
        false => format!("'{}'", w.replace('\'', "'\\''")),
    }
}

/// After a signal the signal's thread ends the process with 128 + its number, once no row is
/// being appended (see `main.rs`). A protocol whose runs the signal cut must not end first in
/// the meantime: its cut runs would read as failures, its meta.json as complete and its exit
/// as 3. Called where a protocol ends and where the command returns; returns at once when no
/// signal came.
pub fn wait_if_interrupted() {
    if external::process::interrupted() {
        loop {
            std::thread::park();
        }
    }
}

/// Wait until no run is being appended and keep it so: for an exit on a signal, so that the
/// files end with whole rows. Never released (the process exits).
pub fn hold_appends() -> std::sync::MutexGuard<'static, ()> {
    APPENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// The thread that appends finished runs to runs.csv (and their trajectory blocks first), one
/// flushed line at a time, so an interruption loses only the runs in flight.
struct Writer {
    tx: mpsc::Sender<Done>,
    handle: std::thread::JoinHandle<Result<()>>,
}

impl Writer {
    fn start(
        file: std::fs::File,
        runs_path: &Path,
        traj_file: Option<std::fs::File>,
        traj_path: &Path,
    ) -> Writer {
        let (tx, rx) = mpsc::channel::<Done>();
        let (runs_name, traj_name) = (runs_path.to_path_buf(), traj_path.to_path_buf());
        let handle = std::thread::spawn(move || -> Result<()> {
            let mut w = std::io::BufWriter::new(file);
            let mut t = traj_file.map(std::io::BufWriter::new);
            for Done { row, trajectory } in rx {
                let _appending = hold_appends();
                // The trajectory block first: a run in runs.csv always has its whole block.
                if let (Some(t), Some(block)) = (t.as_mut(), trajectory) {
                    t.write_all(block.as_bytes())
                        .and_then(|_| t.flush())
                        .with_context(|| format!("cannot append to {}", traj_name.display()))?;
                }
                writeln!(w, "{}", row.to_line())
                    .and_then(|_| w.flush())
                    .with_context(|| format!("cannot append to {}", runs_name.display()))?;
                if let Some(k) = kept().as_mut() {
                    k.1 += 1;
                }
            }
            Ok(())
        });
        Writer { tx, handle }
    }

    /// Wait until every sent run is written.
    fn finish(self) -> Result<()> {
        drop(self.tx);
        self.handle
            .join()
            .map_err(|_| anyhow::anyhow!("the runs.csv writer panicked"))?
    }
}

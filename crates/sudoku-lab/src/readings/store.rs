//! The race's run file (`runs.csv` in the race folder): one row per executed run, appended
//! and flushed as runs finish, so a killed race loses only the runs in flight and `--resume`
//! reads back what it has. The race's decisions depend only on the outcomes in this file,
//! never on the order runs finished in, and the file is rewritten sorted (reading, puzzle,
//! run, cap) at the end: identical files for any thread count. No wall times are recorded.
//!
//! Runs are executed by the protocol's own [`Protocol::execute_within`], with the seed the
//! protocol's plan gives (reading = algorithm of the plan), so a reading's run r on puzzle p
//! has the seed the protocol would give it.

use crate::protocol::io::write_atomic_with;
use crate::protocol::plan::Plan;
use crate::protocol::progress::Progress;
use crate::protocol::Protocol;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};
use sudoku_core::Budget;

/// The header of the race's run file.
pub const HEADER: &str = "reading,puzzle,run,seed,cap,solved,generations,evaluations";

/// The header when the race compares an algorithm counter (the spec's `counter`, e.g.
/// Benbassat's distinct boards): the counter's value of each run in a ninth column.
pub const HEADER_COUNTER: &str =
    "reading,puzzle,run,seed,cap,solved,generations,evaluations,counter";

/// One executed run: which (reading, puzzle, run), the generation budget it had, and how it
/// ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Record {
    pub reading: u32,
    pub puzzle: u32,
    pub run: u64,
    pub cap: u64,
    pub seed: u64,
    pub solved: bool,
    pub generations: u64,
    pub evaluations: u64,
    /// The spec's counter at the end of the run (races on a counter only).
    pub counter: Option<u64>,
}

/// What a run shows under some budget: solved or not, its generations, and its counter (a
/// run that ended; None under a smaller budget).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    pub solved: bool,
    pub generations: u64,
    pub counter: Option<u64>,
}

/// A job of the race: (reading, puzzle, run) under a generation budget.
pub type Job = (u32, u32, u64, u64);

/// The runs of a race: every executed record, and per (reading, puzzle, run) the most
/// informative one.
pub struct Store {
    path: PathBuf,
    records: Vec<Record>,
    best: HashMap<(u32, u32, u64), Record>,
    /// The full generation budget: a run that had it is final.
    full: u64,
    /// The counter the race compares (the spec's `counter`), if any.
    counter: Option<String>,
    /// The runs the race's requests needed, as they would have been made in an empty folder
    /// (see [`Store::spend`]), and per (reading, puzzle, run) the most informative of them.
    spent: Vec<Record>,
    spent_best: HashMap<(u32, u32, u64), Record>,
    /// Every record by (reading, puzzle, run, cap): the run a job of that budget made.
    by_cap: HashMap<(u32, u32, u64, u64), Record>,
    /// Per reading, the reading whose runs it reads and the generations a solved run of
    /// that reading reports fewer (see [`Store::share`]); empty: every reading its own.
    alias: Vec<(u32, u64)>,
    /// Runs made elsewhere (the shard files of a race on a cluster, [`super::shard`]): with a
    /// pool, [`Store::execute`] executes nothing; it takes a request's runs from the pool when
    /// the pool holds every one of them, else answers [`Served::Lacking`].
    pool: Option<HashMap<Job, Record>>,
}

/// The runs a request of the race needs that neither the store nor its pool holds: where a
/// race on a cluster stops until a round of shards has made them.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// The jobs, as the readings whose runs they read (each once), in the race's order.
    pub jobs: Vec<Job>,
    /// Where the race stopped: round, runs per puzzle, stage and the puzzle raced.
    pub at: String,
}

impl std::fmt::Display for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the race needs {} runs no shard made yet ({})",
            self.jobs.len(),
            self.at
        )
    }
}

/// What [`Store::execute`] did with a request of runs.
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum Served {
    /// Every run of the request is in the store (made, taken from the pool, or there before).
    Done,
    /// The store takes runs from a pool (a race on a cluster), and the pool lacks these runs
    /// of the request: nothing was taken; a round of shards has to make them.
    Lacking(Vec<Job>),
}

impl Served {
    /// Ok when every run was served; else an error naming how many the pool lacks (for a
    /// caller that has checked the pool holds them all, or whose store has none).
    pub fn done(self) -> Result<()> {
        match self {
            Served::Done => Ok(()),
            Served::Lacking(j) => bail!("{} runs the request needs are in no shard file", j.len()),
        }
    }
}

impl Store {
    /// A new run file (with its header), or with `resume` the one at `path` read back (a torn
    /// last line cut off; any other line that is not a run of this race is an error naming it).
    pub fn open(path: &Path, protocol: &Protocol, full: u64, resume: bool) -> Result<Store> {
        let mut store = Store::empty(path, protocol, full);
        let header = store.header();
        // A link, FIFO or device in place of the run file is refused before anything is
        // read, written or appended through it.
        crate::protocol::io::check_regular(path)?;
        if !path.exists() {
            crate::protocol::io::write_atomic(path, format!("{header}\n").as_bytes())?;
            return Ok(store);
        }
        if !resume {
            bail!(
                "{} exists: pass --resume to continue the race, or --fresh to start over",
                path.display()
            );
        }
        let valid = store.read(protocol)?;
        let f = crate::protocol::io::open_append(path)?;
        if f.metadata().is_ok_and(|m| m.len() != valid as u64) {
            f.set_len(valid as u64)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(store)
    }

    /// The run file of a finished race at `path`, read back without writing anything (for
    /// `replay` of a race folder).
    pub fn read_only(path: &Path, protocol: &Protocol, full: u64) -> Result<Store> {
        crate::protocol::io::check_regular(path)?;
        let mut store = Store::empty(path, protocol, full);
        store.read(protocol)?;
        Ok(store)
    }

    /// Read the run file's records into the store, each checked against the race's plan (a
    /// known reading and puzzle, the plan's seed recomputed from the run's identity, a cap
    /// within the full budget); a job recorded twice is refused naming both lines. Returns the
    /// byte length of the complete lines (a torn last line is left out: its run is redone).
    fn read(&mut self, protocol: &Protocol) -> Result<usize> {
        let path = self.path.clone();
        let text = crate::spec::read_regular(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let plan = protocol.plan();
        let header = self.header();
        let mut lines: HashMap<Job, usize> = HashMap::new();
        let mut valid = 0usize;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if !line.ends_with('\n') {
                break;
            }
            let at = || format!("{}:{}", path.display(), i + 1);
            if i == 0 {
                if line.trim_end() != header {
                    bail!("{}: not the header of a race's run file", at());
                }
            } else {
                let r = parse(line.trim_end(), &plan, self.full, self.counter.is_some())
                    .with_context(at)?;
                if let Some(first) = lines.insert((r.reading, r.puzzle, r.run, r.cap), i + 1) {
                    bail!(
                        "{}: duplicate row: run {} of puzzle {} under cap {} is already recorded at line {first}; every run has one row per cap (remove one of them)",
                        at(),
                        r.run,
                        plan.puzzle_id(r.puzzle as usize),
                        r.cap
                    );
                }
                self.insert(r);
            }
            valid += line.len();
        }
        Ok(valid)
    }

    /// An empty store of the run file at `path`.
    fn empty(path: &Path, protocol: &Protocol, full: u64) -> Store {
        Store {
            path: path.to_path_buf(),
            records: Vec::new(),
            best: HashMap::new(),
            full,
            counter: protocol.spec.counter.clone(),
            spent: Vec::new(),
            spent_best: HashMap::new(),
            by_cap: HashMap::new(),
            alias: Vec::new(),
            pool: None,
        }
    }

    /// The run file's header.
    fn header(&self) -> &'static str {
        match self.counter {
            Some(_) => HEADER_COUNTER,
            None => HEADER,
        }
    }

    /// A store in memory holding `records` (runs at the `full` budget or capped), with no
    /// file: what a simulation of the race reads instead of a solver's runs.
    pub fn memory(full: u64, records: impl IntoIterator<Item = Record>) -> Store {
        let mut store = Store {
            path: PathBuf::new(),
            records: Vec::new(),
            best: HashMap::new(),
            full,
            counter: None,
            spent: Vec::new(),
            spent_best: HashMap::new(),
            by_cap: HashMap::new(),
            alias: Vec::new(),
            pool: None,
        };
        for r in records {
            store.insert(r);
        }
        store
    }

    fn insert(&mut self, r: Record) {
        self.records.push(r);
        self.by_cap.insert((r.reading, r.puzzle, r.run, r.cap), r);
        let key = (r.reading, r.puzzle, r.run);
        let better = self.best.get(&key).is_none_or(|o| r.cap > o.cap);
        if better {
            self.best.insert(key, r);
        }
    }

    /// What run `run` of `reading` on `puzzle` shows under a budget of `cap` generations, if
    /// the file tells: a run ended (solved, or stopped by itself, or at the full budget) by
    /// generation g is the same run under any budget of at least g; a run stopped at its cap
    /// is known under any budget up to that cap, unsolved beyond what it ran.
    pub fn seen(&self, reading: u32, puzzle: u32, run: u64, cap: u64) -> Option<Seen> {
        let (own, shift) = self.own(reading);
        let mut seen = answer(self.best.get(&(own, puzzle, run))?, self.full, cap)?;
        if seen.solved {
            seen.generations = seen.generations.saturating_sub(shift);
        }
        Some(seen)
    }

    /// Let readings share runs: `alias[r]` is (the reading whose runs reading r reads, the
    /// generations a solved run of r reports fewer), from the algorithm's
    /// [`sudoku_core::Algorithm::same_run`]. Jobs of r are then made (and counted) as jobs of
    /// the other reading. A folder's earlier runs of r stay in the run file, unread.
    pub fn share(&mut self, alias: Vec<(u32, u64)>) {
        self.alias = alias;
    }

    /// Take runs from `pool` instead of executing them (see [`Store::execute`]); an empty
    /// pool makes the store only say which runs the race needs next.
    pub fn set_pool(&mut self, pool: HashMap<Job, Record>) {
        self.pool = Some(pool);
    }

    /// The jobs of a request that the store does not answer, as the readings whose runs they
    /// read (each once): the runs executing the request would make.
    pub fn missing(&self, jobs: &[Job]) -> Vec<Job> {
        (self.owned(jobs).into_iter())
            .filter(|&(r, p, run, cap)| self.seen(r, p, run, cap).is_none())
            .collect()
    }

    /// Whether the file holds a record made for exactly this job, and which.
    pub fn made(&self, job: Job) -> Option<Record> {
        self.by_cap.get(&job).copied()
    }

    /// The reading whose runs `reading` reads, and the shift of its solved runs.
    fn own(&self, reading: u32) -> (u32, u64) {
        self.alias
            .get(reading as usize)
            .copied()
            .unwrap_or((reading, 0))
    }

    /// The jobs as the readings whose runs they read (each once).
    fn owned(&self, jobs: &[Job]) -> Vec<Job> {
        let mut out: Vec<Job> = Vec::with_capacity(jobs.len());
        let mut seen = std::collections::HashSet::new();
        for &(r, p, run, cap) in jobs {
            let job = (self.own(r).0, p, run, cap);
            if seen.insert(job) {
                out.push(job);
            }
        }
        out
    }

    /// Count the jobs of a request that the runs counted so far do not answer, each as the
    /// run the race would have made for it in an empty folder: its record cut at the job's
    /// budget. A folder may hold runs an earlier binary made that the race no longer asks
    /// for, or made at a larger budget than it now asks; the cost counts neither, so it does
    /// not depend on the folder's history. Evaluations of a run cut short are pro rata of its
    /// generations (only for such runs of an earlier binary).
    fn spend(&mut self, jobs: &[Job]) {
        for &(r, p, run, cap) in jobs {
            let key = (r, p, run);
            let answered =
                (self.spent_best.get(&key)).is_some_and(|o| answer(o, self.full, cap).is_some());
            // The record made for a job of this budget, else the most informative one.
            let made = self.by_cap.get(&(r, p, run, cap));
            let Some(real) = made.or_else(|| self.best.get(&key)).copied() else {
                continue;
            };
            let Some(seen) = answer(&real, self.full, cap).filter(|_| !answered) else {
                continue;
            };
            let evaluations = if real.generations <= cap {
                real.evaluations
            } else {
                ((real.evaluations as f64) * cap as f64 / real.generations.max(1) as f64).round()
                    as u64
            };
            let v = Record {
                cap,
                solved: seen.solved,
                generations: seen.generations,
                evaluations,
                counter: seen.counter,
                ..real
            };
            self.spent.push(v);
            if self.spent_best.get(&key).is_none_or(|o| cap > o.cap) {
                self.spent_best.insert(key, v);
            }
        }
    }

    /// The runs the race needed so far, as it would have made them in an empty folder.
    pub fn spent(&self) -> &[Record] {
        &self.spent
    }

    /// Execute the jobs not yet known on `threads` threads, appending each record as it
    /// finishes.
    /// Without a protocol (a simulation whose runs are all in the store), a job not in the
    /// store is an error. With a pool ([`Store::set_pool`]) nothing is executed: the runs are
    /// taken from the pool, or [`Served::Lacking`] names those it lacks.
    pub fn execute(
        &mut self,
        protocol: Option<&Protocol>,
        jobs: &[Job],
        threads: usize,
    ) -> Result<Served> {
        self.execute_with(protocol, jobs, threads, None)
    }

    /// [`Store::execute`] with its progress on stderr, as a protocol's (a shard task's log on
    /// a cluster): first how many runs it makes and how many the file already holds (a
    /// requeued task resumes it), then a line of the planned effort done every period (see
    /// [`Progress`]), and one when it ends. `what` names it ("shard 2/8").
    pub fn execute_logged(
        &mut self,
        protocol: &Protocol,
        jobs: &[Job],
        threads: usize,
        what: &str,
    ) -> Result<()> {
        use std::sync::atomic::{AtomicBool, Ordering};
        let todo = self.missing(jobs);
        let kept = self.owned(jobs).len() - todo.len();
        let shown = |s: String| eprintln!("{}", sudoku_core::error::shown(&s));
        shown(format!(
            "{what}: {} runs to make, {kept} kept from {}",
            todo.len(),
            self.path.display()
        ));
        let effort = (todo.iter())
            .map(|&(r, _, _, cap)| {
                crate::algos::expected_cost(&Budget {
                    max_generations: Some(cap),
                    max_evaluations: protocol.budgets[r as usize].max_evaluations,
                })
            })
            .fold(0u64, u64::saturating_add);
        let progress = Progress::new(what, effort, todo.len() as u64);
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| progress.report(&stop));
            let done = self.execute_with(Some(protocol), jobs, threads, Some(&progress));
            stop.store(true, Ordering::Relaxed);
            done
        })
        .and_then(Served::done)?;
        shown(progress.line());
        Ok(())
    }

    fn execute_with(
        &mut self,
        protocol: Option<&Protocol>,
        jobs: &[Job],
        threads: usize,
        progress: Option<&Progress>,
    ) -> Result<Served> {
        let todo = self.missing(jobs);
        let jobs = self.owned(jobs);
        if todo.is_empty() {
            self.spend(&jobs);
            return Ok(Served::Done);
        }
        if let Some(pool) = &self.pool {
            let Some(made) = todo.iter().map(|j| pool.get(j).copied()).collect() else {
                let lacking = todo.into_iter().filter(|j| !pool.contains_key(j));
                return Ok(Served::Lacking(lacking.collect()));
            };
            self.take(made, &jobs)?;
            return Ok(Served::Done);
        }
        let Some(protocol) = protocol else {
            bail!(
                "{} runs are not in the store and no protocol makes them",
                todo.len()
            );
        };
        let plan = protocol.plan();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("cannot start the thread pool")?;
        let file = crate::protocol::io::open_append(&self.path)?;
        let next = Mutex::new(todo.into_iter());
        let counter = self.counter.as_deref();
        let (tx, rx) = mpsc::channel::<Record>();
        let path = self.path.clone();
        let done = std::thread::scope(|scope| {
            let writer = scope.spawn(move || append_all(file, &path, rx));
            pool.broadcast(|_| {
                let tx = tx.clone();
                while let Some(job) = next.lock().ok().and_then(|mut n| n.next()) {
                    let _ = tx.send(run_one(protocol, &plan, job, counter, progress));
                }
            });
            drop(tx);
            writer.join()
        });
        let done = done.map_err(|_| anyhow::anyhow!("the run file writer panicked"))??;
        for r in done {
            self.insert(r);
        }
        self.spend(&jobs);
        Ok(Served::Done)
    }

    /// Append runs made elsewhere (from the pool) to the run file, in the order asked, and
    /// count the request `jobs` they answer.
    fn take(&mut self, made: Vec<Record>, jobs: &[Job]) -> Result<()> {
        let mut file = crate::protocol::io::open_append(&self.path)?;
        let mut text = String::new();
        for r in &made {
            text.push_str(&raw_line(r));
            text.push('\n');
        }
        file.write_all(text.as_bytes())
            .and_then(|_| file.flush())
            .with_context(|| format!("cannot append to {}", self.path.display()))?;
        for r in made {
            self.insert(r);
        }
        self.spend(jobs);
        Ok(())
    }

    /// Rewrite the run file sorted by (reading, puzzle, run, cap), atomically.
    pub fn finish(&self, protocol: &Protocol) -> Result<()> {
        let mut records = self.records.clone();
        records.sort();
        write_atomic_with(&self.path, |out| {
            writeln!(out, "{}", self.header())?;
            for r in &records {
                writeln!(out, "{}", line(protocol, r))?;
            }
            Ok(())
        })
    }

    /// The most informative record of a run (the one with the largest cap), if any, as the
    /// reading would report it (a shared run's solved generations shifted).
    pub fn best(&self, reading: u32, puzzle: u32, run: u64) -> Option<Record> {
        let (own, shift) = self.own(reading);
        let mut r = *self.best.get(&(own, puzzle, run))?;
        if r.solved {
            r.generations = r.generations.saturating_sub(shift);
        }
        Some(r)
    }

    /// Every executed record.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Execute every `every`-th record again (in file order), on `threads` threads, through
    /// the protocol with the plan's seed: (records replayed, one line per record that
    /// differs, naming it with both lines).
    pub fn replay(
        &self,
        protocol: &Protocol,
        every: usize,
        threads: usize,
    ) -> Result<(usize, Vec<String>)> {
        use rayon::prelude::*;
        let plan = protocol.plan();
        let picked: Vec<Record> = self.records.iter().step_by(every.max(1)).copied().collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("cannot start the thread pool")?;
        let counter = self.counter.as_deref();
        let differ = pool.install(|| {
            picked
                .par_iter()
                .filter_map(|r| {
                    let again = run_one(
                        protocol,
                        &plan,
                        (r.reading, r.puzzle, r.run, r.cap),
                        counter,
                        None,
                    );
                    (again != *r).then(|| {
                        format!(
                            "recorded {} -> replayed {}",
                            line(protocol, r),
                            line(protocol, &again)
                        )
                    })
                })
                .collect()
        });
        Ok((picked.len(), differ))
    }
}

/// Execute one job through the protocol.
/// What a run with record `o` shows under a budget of `cap` generations, if the record
/// tells (see [`Store::seen`]).
fn answer(o: &Record, full: u64, cap: u64) -> Option<Seen> {
    let ended = o.solved || o.generations < o.cap || o.cap >= full;
    if o.generations <= cap && (ended || cap <= o.cap) {
        return Some(Seen {
            solved: o.solved,
            generations: o.generations,
            counter: o.counter,
        });
    }
    (o.generations > cap).then_some(Seen {
        solved: false,
        generations: cap,
        counter: None,
    })
}

fn run_one(
    protocol: &Protocol,
    plan: &Plan,
    (reading, puzzle, run, cap): Job,
    counter: Option<&str>,
    progress: Option<&Progress>,
) -> Record {
    let index = plan.index(reading as usize, puzzle as usize, run);
    let job = plan.job(index.unwrap_or(0));
    let budget = Budget {
        max_generations: Some(cap),
        max_evaluations: protocol.budgets[reading as usize].max_evaluations,
    };
    let done = protocol.execute_within(&job, &budget, None, progress);
    Record {
        reading,
        puzzle,
        run,
        cap,
        seed: job.seed,
        solved: done.row.solved == 1,
        generations: done.row.generations,
        evaluations: done.row.evaluations,
        counter: counter.map(|c| crate::protocol::io::counter(&done.row.counters, c).unwrap_or(0)),
    }
}

/// The writer thread: every record appended and flushed as it arrives.
fn append_all(file: std::fs::File, path: &Path, rx: mpsc::Receiver<Record>) -> Result<Vec<Record>> {
    let mut w = std::io::BufWriter::new(file);
    let mut out = Vec::new();
    for r in rx {
        writeln!(w, "{}", raw_line(&r))
            .and_then(|_| w.flush())
            .with_context(|| format!("cannot append to {}", path.display()))?;
        out.push(r);
    }
    Ok(out)
}

/// A record as appended during a race: reading and puzzle by number (`#12`), since the
/// writer thread holds no names; [`Store::finish`] writes the names.
fn raw_line(r: &Record) -> String {
    format!(
        "#{},#{},{},{},{},{},{},{}{}",
        r.reading,
        r.puzzle,
        r.run,
        r.seed,
        r.cap,
        r.solved as u8,
        r.generations,
        r.evaluations,
        counter_field(r)
    )
}

/// `,value` of a counter race's ninth column (nothing in other races).
fn counter_field(r: &Record) -> String {
    r.counter.map(|c| format!(",{c}")).unwrap_or_default()
}

/// A record as the finished file holds it: reading and puzzle by name.
fn line(protocol: &Protocol, r: &Record) -> String {
    format!(
        "{},{},{},{},{},{},{},{}{}",
        protocol.spec.algorithms[r.reading as usize].label,
        protocol.puzzles[r.puzzle as usize].id,
        r.run,
        r.seed,
        r.cap,
        r.solved as u8,
        r.generations,
        r.evaluations,
        counter_field(r)
    )
}

/// A line of the run file, checked against the race: a known reading and puzzle (by name, or
/// by `#number` as appended), a run of the plan with the plan's seed, a cap within the full
/// budget, generations within the cap.
fn parse(line: &str, plan: &Plan, full: u64, counter: bool) -> Result<Record> {
    let f: Vec<&str> = line.split(',').collect();
    let want = if counter { 9 } else { 8 };
    if f.len() != want {
        bail!("expected {want} fields, found {}", f.len());
    }
    let num = |i: usize, what: &str| -> Result<u64> {
        f[i].parse::<u64>()
            .with_context(|| format!("{what} '{}' is not a number", f[i]))
    };
    let run = num(2, "run")?;
    let index = match (f[0].strip_prefix('#'), f[1].strip_prefix('#')) {
        (Some(a), Some(p)) => match (a.parse::<usize>(), p.parse::<usize>()) {
            (Ok(a), Ok(p)) => plan.index(a, p, run),
            _ => None,
        },
        (None, None) => plan.index_of(f[0], f[1], run),
        _ => None,
    };
    let Some(index) = index else {
        bail!(
            "reading '{}', puzzle '{}', run {run} is not a run of this race",
            f[0],
            f[1]
        );
    };
    let job = plan.job(index);
    let r = Record {
        reading: job.algorithm as u32,
        puzzle: job.puzzle as u32,
        run,
        seed: num(3, "seed")?,
        cap: num(4, "cap")?,
        solved: match f[5] {
            "0" => false,
            "1" => true,
            o => bail!("solved '{o}' is not 0 or 1"),
        },
        generations: num(6, "generations")?,
        evaluations: num(7, "evaluations")?,
        counter: if counter {
            Some(num(8, "counter")?)
        } else {
            None
        },
    };
    if job.seed != r.seed {
        bail!("seed {} is not the protocol's seed of this run", r.seed);
    }
    if r.cap == 0 || r.cap > full || r.generations > r.cap {
        bail!(
            "cap {} or generations {} out of range",
            r.cap,
            r.generations
        );
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(records: &[(u64, bool, u64)]) -> Store {
        let mut s = Store {
            path: PathBuf::new(),
            records: Vec::new(),
            best: HashMap::new(),
            full: 1000,
            counter: None,
            spent: Vec::new(),
            spent_best: HashMap::new(),
            by_cap: HashMap::new(),
            alias: Vec::new(),
            pool: None,
        };
        for (run, &(cap, solved, generations)) in records.iter().enumerate() {
            s.insert(Record {
                reading: 0,
                puzzle: 0,
                run: run as u64,
                cap,
                seed: 0,
                solved,
                generations,
                evaluations: 0,
                counter: None,
            });
        }
        s
    }

    /// What a recorded run tells under other budgets: a run that ended is the same run
    /// under any budget it fits in and censored below; a run stopped at its cap is known up
    /// to that cap only.
    #[test]
    fn a_record_answers_the_budgets_it_covers() {
        let s = store(&[
            (100, true, 40),
            (100, false, 100),
            (100, false, 70),
            (1000, false, 1000),
        ]);
        let seen = |run, cap| s.seen(0, 0, run, cap).map(|x| (x.solved, x.generations));
        // Solved at 40 under a cap of 100: the same under the full budget, censored below 40.
        assert_eq!(seen(0, 1000), Some((true, 40)));
        assert_eq!(seen(0, 40), Some((true, 40)));
        assert_eq!(seen(0, 39), Some((false, 39)));
        // Stopped at its cap of 100: unknown beyond it.
        assert_eq!(seen(1, 100), Some((false, 100)));
        assert_eq!(seen(1, 50), Some((false, 50)));
        assert_eq!(seen(1, 101), None);
        // Ended by itself at 70 (unsolved) under a cap of 100: final.
        assert_eq!(seen(2, 1000), Some((false, 70)));
        // Ran the full budget.
        assert_eq!(seen(3, 1000), Some((false, 1000)));
        assert_eq!(s.seen(0, 0, 9, 10), None);
    }

    /// The cost counts each job as the race would have made it in an empty folder: a run
    /// of an earlier binary at the full budget counts only up to the cap asked for first, then
    /// in full when the full budget is asked for; a job a counted run answers counts nothing,
    /// and runs never asked for count nothing. A record made at the budget asked counts as it
    /// is, even where a larger one supersedes it.
    #[test]
    fn the_cost_counts_what_the_race_asked_for() {
        // Run 0 ran the full budget unsolved, run 1 solved at 40, run 2 was never asked for.
        let mut s = store(&[]);
        for (run, solved, generations) in [(0, false, 1000), (1, true, 40), (2, false, 1000)] {
            s.insert(Record {
                reading: 0,
                puzzle: 0,
                run,
                cap: 1000,
                seed: 0,
                solved,
                generations,
                evaluations: generations * 10,
                counter: None,
            });
        }
        let costs = |s: &Store| {
            (s.spent().iter())
                .map(|r| (r.run, r.cap, r.solved, r.generations, r.evaluations))
                .collect::<Vec<_>>()
        };
        // A round of capped jobs (cap 100), asked twice: counted once.
        s.spend(&[(0, 0, 0, 100), (0, 0, 1, 100), (0, 0, 0, 100)]);
        assert_eq!(
            costs(&s),
            vec![(0, 100, false, 100, 1000), (1, 100, true, 40, 400)]
        );
        // The full budget: run 0 counts again in full; run 1's solved capped run answers it.
        s.spend(&[(0, 0, 0, 1000), (0, 0, 1, 1000), (0, 0, 0, 50)]);
        assert_eq!(
            costs(&s),
            vec![
                (0, 100, false, 100, 1000),
                (1, 100, true, 40, 400),
                (0, 1000, false, 1000, 10000)
            ]
        );
        assert_eq!(s.records().len(), 3);
        // Run 2 has a capped record (exact evaluations) beside its full one.
        let capped = Record {
            cap: 100,
            generations: 100,
            evaluations: 7,
            ..s.records[2]
        };
        s.insert(capped);
        s.spend(&[(0, 0, 2, 100)]);
        assert_eq!(costs(&s)[3], (2, 100, false, 100, 7));
    }

    /// A rerun under a larger cap supersedes the capped record; both stay in the file.
    #[test]
    fn the_largest_cap_wins() {
        let mut s = store(&[(100, false, 100)]);
        s.insert(Record {
            reading: 0,
            puzzle: 0,
            run: 0,
            cap: 1000,
            seed: 0,
            solved: true,
            generations: 500,
            evaluations: 0,
            counter: None,
        });
        assert_eq!(s.records().len(), 2);
        assert_eq!(s.seen(0, 0, 0, 1000).map(|x| x.generations), Some(500));
        assert_eq!(s.best(0, 0, 0).map(|r| r.cap), Some(1000));
    }
}

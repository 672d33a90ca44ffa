//! Protocol execution: spec -> plan (jobs with seeds) -> runs in parallel (rayon) -> runs.csv.
//!
//! Rows are appended as runs finish (one flushed line each), so an interrupted protocol loses
//! at most the runs in flight; `--resume` skips the runs already in the file. When the protocol
//! completes, the file is rewritten in a fixed order (algorithm, puzzle, run: the spec's order)
//! and atomically renamed over the old one, so a finished runs.csv is identical for any thread
//! count apart from `wall_ms`. Run seeds come from (master seed, experiment, puzzle, run), never
//! from thread or order.

use super::plan::{plan, shard_assignment, Job};
use crate::protocol::io::{for_each_row, write_atomic, write_atomic_with, Row, HEADER};
use crate::protocol::progress::Progress;
use crate::protocol::trajectory::Recorder;
use crate::spec::Spec;
use anyhow::{bail, Context, Result};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;
use sudoku_core::{rng_from_seed, Budget, NoObserver, Observer, Puzzle, Solver, Units};

/// Everything a protocol needs, validated.
pub struct Protocol<'a> {
    pub spec: &'a Spec,
    pub puzzles: &'a [Puzzle],
    pub solvers: Vec<Box<dyn Solver>>,
    pub budgets: Vec<Budget>,
    /// Runs of each puzzle (same order as `puzzles`).
    pub runs: Vec<u64>,
    /// Record anytime data in `trajectories.csv` (spec key `anytime`).
    pub anytime: bool,
    /// `--shard k/n` (k from 1): only the k-th of n disjoint slices of the plan.
    pub shard: Option<(usize, usize)>,
}

/// What one job produced: its `runs.csv` row and, with `anytime`, its trajectory block.
pub struct Done {
    pub row: Row,
    pub trajectory: Option<String>,
}

impl<'a> Protocol<'a> {
    /// The protocol of `spec` on its loaded `puzzles` (`runs` of each): a solver and a budget
    /// per algorithm (with the `--quick` generation cap when given), anytime data as the spec
    /// asks, and with `shard` only that slice of the plan.
    pub fn new(
        spec: &'a Spec,
        puzzles: &'a [Puzzle],
        runs: Vec<u64>,
        quick_cap: Option<u64>,
        shard: Option<(usize, usize)>,
    ) -> Result<Self> {
        Ok(Protocol {
            spec,
            puzzles,
            solvers: spec
                .algorithms
                .iter()
                .map(|a| crate::algos::solver(&a.algorithm, &a.params))
                .collect::<Result<_>>()?,
            budgets: spec
                .algorithms
                .iter()
                .map(|a| a.budget(quick_cap))
                .collect(),
            runs,
            anytime: spec.anytime,
            shard,
        })
    }

    /// Execute one job: the row it produces, crediting the run's effort to `progress` as it
    /// goes. The exact checker verifies every claimed solution.
    pub fn execute_observed(&self, job: &Job, progress: Option<&Progress>) -> Done {
        let puzzle = &self.puzzles[job.puzzle];
        let solver = &self.solvers[job.algorithm];
        let budget = &self.budgets[job.algorithm];
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
        let out = match progress {
            Some(p) => solver.solve(puzzle, budget, &mut rng, &mut p.observer(budget, inner)),
            None => solver.solve(puzzle, budget, &mut rng, inner),
        };
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        let label = &self.spec.algorithms[job.algorithm].label;
        let trajectory = recorder.map(|r| {
            let points = r.finish(out.evaluations, out.grid.cells());
            let prefix = format!("{},{label},{},{}", self.spec.id, puzzle.id, job.run);
            crate::protocol::trajectory::block(&prefix, &points)
        });
        let verified = out.solved && out.grid.is_solved() && out.grid.keeps_givens_of(&puzzle.grid);
        let termination = if out.solved && !verified {
            "invalid_claim".to_string()
        } else {
            out.termination.as_str().to_string()
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
            grid: out.grid.to_line(),
            counters: crate::protocol::io::format_counters(&out.counters),
        };
        Done { row, trajectory }
    }

    /// Run every job not yet in `runs_path`, appending rows as they finish, then put the file in
    /// canonical order. Returns (runs executed now, runs found done).
    pub fn run(&self, runs_path: &Path, resume: bool, threads: usize) -> Result<(usize, usize)> {
        let jobs = self.jobs();
        let mut done: HashSet<(String, String, u64)> = HashSet::new();
        if runs_path.exists() {
            if !resume {
                bail!(
                    "{} exists: pass --resume to continue it, or --fresh to start over",
                    runs_path.display()
                );
            }
            crate::protocol::io::upgrade_runs(runs_path)?;
            let valid = for_each_row(runs_path, |r| {
                if r.experiment != self.spec.id {
                    bail!(
                        "{}: rows of experiment '{}', not '{}'",
                        runs_path.display(),
                        r.experiment,
                        self.spec.id
                    );
                }
                done.insert((r.algorithm, r.puzzle, r.run));
                Ok(())
            })?;
            // Drop a torn last line before appending.
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(runs_path)
                .and_then(|f| {
                    if f.metadata()?.len() != valid {
                        f.set_len(valid)?;
                    }
                    Ok(f)
                })
                .with_context(|| format!("cannot write {}", runs_path.display()))?;
            drop(f);
        } else {
            write_atomic(runs_path, format!("{HEADER}\n").as_bytes())?;
        }
        let pending: Vec<Job> = jobs
            .iter()
            .filter(|j| {
                let key = (
                    self.spec.algorithms[j.algorithm].label.clone(),
                    self.puzzles[j.puzzle].id.clone(),
                    j.run,
                );
                !done.contains(&key)
            })
            .copied()
            .collect();
        let found = jobs.len() - pending.len();
        let traj_path = runs_path.with_file_name(crate::protocol::trajectory::FILE);
        let traj_file = if self.anytime {
            Some(self.open_trajectories(&traj_path, &jobs, &done)?)
        } else {
            None
        };
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(runs_path)
            .with_context(|| format!("cannot append to {}", runs_path.display()))?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("cannot start the thread pool")?;
        if found > 0 {
            eprintln!("resuming: {found} runs already done");
        }
        let effort: u64 = pending
            .iter()
            .map(|j| crate::algos::expected_cost(&self.budgets[j.algorithm]))
            .fold(0u64, u64::saturating_add);
        let progress = Progress::new(&self.spec.id, effort, pending.len() as u64);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<Done>();
        let (runs_name, traj_name) = (runs_path.to_path_buf(), traj_path.clone());
        let writer = std::thread::spawn(move || -> Result<()> {
            let mut w = std::io::BufWriter::new(file);
            let mut t = traj_file.map(std::io::BufWriter::new);
            for Done { row, trajectory } in rx {
                // The trajectory block first: a run in runs.csv always has its whole block.
                if let (Some(t), Some(block)) = (t.as_mut(), trajectory) {
                    t.write_all(block.as_bytes())
                        .and_then(|_| t.flush())
                        .with_context(|| format!("cannot append to {}", traj_name.display()))?;
                }
                writeln!(w, "{}", row.to_line())
                    .and_then(|_| w.flush())
                    .with_context(|| format!("cannot append to {}", runs_name.display()))?;
            }
            Ok(())
        });
        // One run per task, the longest expected first: the threads take the next run from a
        // shared list as they finish, so no thread is left with a long contiguous chunk of
        // expensive runs (the order of execution never shows in the files: see `canonicalise`).
        let order = self.schedule(&pending);
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            scope.spawn(|| progress.report(&stop));
            pool.broadcast(|_| {
                let tx = tx.clone();
                while let Some(&j) =
                    order.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    let _ = tx.send(self.execute_observed(&pending[j], Some(&progress)));
                }
            });
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        drop(tx);
        writer
            .join()
            .map_err(|_| anyhow::anyhow!("the runs.csv writer panicked"))??;
        self.canonicalise(runs_path, &jobs)?;
        if self.anytime {
            self.rewrite_blocks(
                &traj_path,
                crate::protocol::trajectory::HEADER,
                &jobs,
                |_| true,
            )?;
        }
        Ok((pending.len(), found))
    }

    /// The jobs of this protocol: the plan, or this shard's slice of it (in plan order).
    pub fn jobs(&self) -> Vec<Job> {
        let jobs = plan(self.spec, self.puzzles, &self.runs);
        match self.shard {
            None => jobs,
            Some((k, n)) => {
                let costs: Vec<u64> = self
                    .budgets
                    .iter()
                    .map(crate::algos::expected_cost)
                    .collect();
                let slice = shard_assignment(&jobs, &costs, n);
                jobs.into_iter()
                    .zip(slice)
                    .filter(|&(_, s)| s + 1 == k)
                    .map(|(j, _)| j)
                    .collect()
            }
        }
    }

    /// Indices of `pending` in the order to start them: by expected cost (see
    /// [`crate::algos::expected_cost`]), longest first; ties keep plan order.
    fn schedule(&self, pending: &[Job]) -> Vec<usize> {
        let cost: Vec<u64> = self
            .budgets
            .iter()
            .map(crate::algos::expected_cost)
            .collect();
        let mut order: Vec<usize> = (0..pending.len()).collect();
        order.sort_by_key(|&j| std::cmp::Reverse(cost[pending[j].algorithm]));
        order
    }

    /// The trajectories file, ready to append: created with its header, or (on resume) rewritten
    /// with the blocks of the finished runs only, so that blocks of runs in flight at an
    /// interruption (and a torn last line) are dropped before those runs are redone.
    fn open_trajectories(
        &self,
        path: &Path,
        jobs: &[Job],
        done: &HashSet<(String, String, u64)>,
    ) -> Result<std::fs::File> {
        if path.exists() {
            let key = |j: &Job| {
                (
                    self.spec.algorithms[j.algorithm].label.clone(),
                    self.puzzles[j.puzzle].id.clone(),
                    j.run,
                )
            };
            self.rewrite_blocks(path, crate::protocol::trajectory::HEADER, jobs, |j| {
                done.contains(&key(j))
            })?;
        } else if !done.is_empty() {
            bail!(
                "{} is missing but runs.csv has finished runs: their anytime data is lost; use --fresh",
                path.display()
            );
        } else {
            write_atomic(
                path,
                format!("{}\n", crate::protocol::trajectory::HEADER).as_bytes(),
            )?;
        }
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot append to {}", path.display()))
    }

    /// Rewrite runs.csv in plan order, atomically.
    fn canonicalise(&self, runs_path: &Path, jobs: &[Job]) -> Result<()> {
        self.rewrite_blocks(runs_path, HEADER, jobs, |_| true)
    }

    /// Rewrite a file of per-run blocks of lines (one line per run for runs.csv, one line per
    /// improvement for trajectories.csv) keyed by (algorithm, puzzle, run) in its 2nd to 4th
    /// fields, in plan order, atomically: the jobs `keep` selects must all be present. The last
    /// block of a key wins; a torn last line is ignored. Only an index (key -> byte range) is
    /// held, not the lines.
    fn rewrite_blocks(
        &self,
        path: &Path,
        header: &str,
        jobs: &[Job],
        keep: impl Fn(&Job) -> bool,
    ) -> Result<()> {
        let runs_path = path;
        use std::collections::HashMap;
        use std::io::{BufRead, Read, Seek, SeekFrom};
        let mut index: HashMap<(usize, usize, u64), (u64, usize)> = HashMap::new();
        let alg_index: HashMap<&str, usize> = self
            .spec
            .algorithms
            .iter()
            .enumerate()
            .map(|(i, a)| (a.label.as_str(), i))
            .collect();
        let puz_index: HashMap<&str, usize> = self
            .puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.as_str(), i))
            .collect();
        let mut f = std::io::BufReader::new(std::fs::File::open(runs_path)?);
        let mut offset = 0u64;
        let mut line = String::new();
        let mut first = true;
        let mut previous: Option<(usize, usize, u64)> = None;
        loop {
            line.clear();
            let k = f.read_line(&mut line)?;
            if k == 0 || !line.ends_with('\n') {
                break;
            }
            if !first {
                let mut it = line.splitn(5, ',');
                let (_, alg, puz, run) = (it.next(), it.next(), it.next(), it.next());
                let key = match (
                    alg.and_then(|a| alg_index.get(a)),
                    puz.and_then(|p| puz_index.get(p)),
                    run.and_then(|r| r.parse::<u64>().ok()),
                ) {
                    (Some(a), Some(p), Some(r)) => Some((*a, *p, r)),
                    _ => None,
                };
                if let Some(key) = key {
                    if previous == Some(key) {
                        if let Some(e) = index.get_mut(&key) {
                            e.1 += k;
                        }
                    } else {
                        index.insert(key, (offset, k));
                    }
                }
                previous = key;
            }
            first = false;
            offset += k as u64;
        }
        let mut raw = f.into_inner();
        let mut buf = Vec::new();
        write_atomic_with(runs_path, |out| {
            writeln!(out, "{header}")?;
            for j in jobs.iter().filter(|j| keep(j)) {
                let Some(&(off, len)) = index.get(&(j.algorithm, j.puzzle, j.run)) else {
                    bail!(
                        "run {}/{}/{} is missing from {}",
                        j.algorithm,
                        j.puzzle,
                        j.run,
                        runs_path.display()
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

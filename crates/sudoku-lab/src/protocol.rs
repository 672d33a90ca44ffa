//! Protocol execution: spec -> plan (jobs with seeds) -> runs in parallel (rayon) -> runs.csv.
//!
//! Rows are appended as runs finish (one flushed line each), so an interrupted protocol loses
//! at most the runs in flight; `--resume` skips the runs already in the file. When the protocol
//! completes, the file is rewritten in a fixed order (algorithm, puzzle, run: the spec's order)
//! and atomically renamed over the old one, so a finished runs.csv is identical for any thread
//! count apart from `wall_ms`. Run seeds come from (master seed, experiment, puzzle, run), never
//! from thread or order.

use crate::io::{for_each_row, write_atomic, write_atomic_with, Row, HEADER};
use crate::spec::Spec;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;
use sudoku_core::{rng_from_seed, run_seed, Budget, NoObserver, Puzzle, Solver};

/// One planned run.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    pub algorithm: usize,
    pub puzzle: usize,
    pub run: u64,
    pub seed: u64,
}

/// Everything a protocol needs, validated.
pub struct Protocol<'a> {
    pub spec: &'a Spec,
    pub puzzles: &'a [Puzzle],
    pub solvers: Vec<Box<dyn Solver>>,
    pub budgets: Vec<Budget>,
    /// Runs of each puzzle (same order as `puzzles`).
    pub runs: Vec<u64>,
}

/// The plan: every (algorithm, puzzle, run) in the spec's order. All algorithms share the run
/// seeds of a (puzzle, run): common random numbers, as in paired comparisons.
pub fn plan(spec: &Spec, puzzles: &[Puzzle], runs: &[u64]) -> Vec<Job> {
    let mut jobs = Vec::new();
    for a in 0..spec.algorithms.len() {
        for (p, puzzle) in puzzles.iter().enumerate() {
            for run in 0..runs[p] {
                jobs.push(Job {
                    algorithm: a,
                    puzzle: p,
                    run,
                    seed: run_seed(spec.master_seed, &spec.id, &puzzle.id, run),
                });
            }
        }
    }
    jobs
}

impl Protocol<'_> {
    /// Execute one job: the row it produces. The exact checker verifies every claimed solution.
    pub fn execute(&self, job: &Job) -> Row {
        let puzzle = &self.puzzles[job.puzzle];
        let solver = &self.solvers[job.algorithm];
        let budget = &self.budgets[job.algorithm];
        let mut rng = rng_from_seed(job.seed);
        let start = Instant::now();
        let out = solver.solve(puzzle, budget, &mut rng, &mut NoObserver);
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        let verified = out.solved && out.grid.is_solved() && out.grid.keeps_givens_of(&puzzle.grid);
        let termination = if out.solved && !verified {
            "invalid_claim".to_string()
        } else {
            out.termination.as_str().to_string()
        };
        Row {
            experiment: self.spec.id.clone(),
            algorithm: self.spec.algorithms[job.algorithm].label.clone(),
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
            counters: crate::io::format_counters(&out.counters),
        }
    }

    /// Run every job not yet in `runs_path`, appending rows as they finish, then put the file in
    /// canonical order. Returns (runs executed now, runs found done).
    pub fn run(&self, runs_path: &Path, resume: bool, threads: usize) -> Result<(usize, usize)> {
        let jobs = plan(self.spec, self.puzzles, &self.runs);
        let mut done: HashSet<(String, String, u64)> = HashSet::new();
        if runs_path.exists() {
            if !resume {
                bail!(
                    "{} exists: pass --resume to continue it, or --fresh to start over",
                    runs_path.display()
                );
            }
            crate::io::upgrade_runs(runs_path)?;
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
            let f = std::fs::OpenOptions::new().write(true).open(runs_path)?;
            if f.metadata()?.len() != valid {
                f.set_len(valid)?;
            }
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
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(runs_path)
            .with_context(|| format!("cannot append to {}", runs_path.display()))?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("cannot start the thread pool")?;
        let bar = progress_bar(pending.len() as u64, found as u64);
        let (tx, rx) = mpsc::channel::<Row>();
        let writer = std::thread::spawn(move || -> Result<()> {
            let mut w = std::io::BufWriter::new(file);
            for row in rx {
                writeln!(w, "{}", row.to_line())?;
                w.flush()?;
                if let Some(b) = &bar {
                    b.inc(1);
                }
            }
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            Ok(())
        });
        pool.install(|| {
            pending.par_iter().for_each_with(tx, |tx, job| {
                let _ = tx.send(self.execute(job));
            })
        });
        writer
            .join()
            .map_err(|_| anyhow::anyhow!("the runs.csv writer panicked"))??;
        self.canonicalise(runs_path, &jobs)?;
        Ok((pending.len(), found))
    }

    /// Rewrite runs.csv in plan order, atomically. Only an index (key -> byte range) is held,
    /// not the rows.
    fn canonicalise(&self, runs_path: &Path, jobs: &[Job]) -> Result<()> {
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
        loop {
            line.clear();
            let k = f.read_line(&mut line)?;
            if k == 0 {
                break;
            }
            if !first {
                let mut it = line.splitn(5, ',');
                let (_, alg, puz, run) = (it.next(), it.next(), it.next(), it.next());
                if let (Some(a), Some(p), Some(r)) = (
                    alg.and_then(|a| alg_index.get(a)),
                    puz.and_then(|p| puz_index.get(p)),
                    run.and_then(|r| r.parse::<u64>().ok()),
                ) {
                    index.entry((*a, *p, r)).or_insert((offset, k));
                }
            }
            first = false;
            offset += k as u64;
        }
        let mut raw = f.into_inner();
        let mut buf = Vec::new();
        write_atomic_with(runs_path, |out| {
            writeln!(out, "{HEADER}")?;
            for j in jobs {
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

fn progress_bar(len: u64, done: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} runs  {elapsed} elapsed, ETA {eta}",
        )
        .ok()?,
    );
    if done > 0 {
        bar.println(format!("resuming: {done} runs already done"));
    }
    Some(bar)
}

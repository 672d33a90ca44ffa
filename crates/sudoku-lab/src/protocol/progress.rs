//! Progress of a protocol by effort: runs differ in cost by orders of magnitude (a
//! failed run spends its whole budget, a solved one stops early), so counting runs makes the
//! ETA swing. Progress here is the effort done against the planned maximum: each run's budget
//! in its unit (evaluations when the run has an evaluation budget, else 100 evaluations per
//! generation, as [`crate::algos::expected_cost`] plans them), credited as the run reports its
//! generations (through the [`Observer`] it already calls) and in full when the run ends. A
//! terminal gets a live bar; a log (stderr not a terminal) gets a steady line every 30 s
//! (`SUDOKU_LAB_PROGRESS_SECONDS` overrides the period). Observing never changes a run: the
//! algorithms only read `wants_grids`, which is forwarded unchanged.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use sudoku_core::{Budget, Observer};

/// Shared counters of one protocol.
pub struct Progress {
    what: String,
    total_effort: u64,
    total_runs: u64,
    effort: AtomicU64,
    runs: AtomicU64,
    start: Instant,
    /// When every run has a time limit: the sum of the runs' limits in milliseconds and the
    /// threads sharing them, for a bound on the time left ([`Progress::with_time_bound`]).
    time_bound: Option<(u64, u64)>,
    /// The limits of the runs finished so far, milliseconds.
    bound_done: AtomicU64,
}

impl Progress {
    pub fn new(what: &str, total_effort: u64, total_runs: u64) -> Progress {
        Progress {
            what: what.to_string(),
            total_effort: total_effort.max(1),
            total_runs,
            effort: AtomicU64::new(0),
            runs: AtomicU64::new(0),
            start: Instant::now(),
            time_bound: None,
            bound_done: AtomicU64::new(0),
        }
    }

    /// A protocol whose every run has a time limit: `limits_ms` is the sum of the runs'
    /// limits, run on `threads` threads. The line then gives a bound on the time left, the
    /// limits of the runs not finished divided by the threads (a run ends at its limit, plus
    /// its overshoot), instead of a bound by effort, which a time-limited run does not keep.
    pub fn with_time_bound(mut self, limits_ms: u64, threads: usize) -> Progress {
        self.time_bound = Some((limits_ms, threads.max(1) as u64));
        self
    }

    /// A finished run's time limit, in milliseconds, for the bound.
    pub fn finished_limit(&self, ms: u64) {
        self.bound_done.fetch_add(ms, Ordering::Relaxed);
    }

    /// The observer of one run with budget `budget`, forwarding to `inner`.
    pub fn observer<'a>(&'a self, budget: &Budget, inner: &'a mut dyn Observer) -> RunProgress<'a> {
        RunProgress {
            progress: self,
            by_evaluations: budget.max_evaluations.is_some(),
            cost: crate::algos::expected_cost(budget),
            credited: 0,
            inner,
        }
    }

    /// One line: percent of the planned effort, runs, elapsed, ETA.
    pub fn line(&self) -> String {
        let done = self.effort.load(Ordering::Relaxed).min(self.total_effort);
        let frac = done as f64 / self.total_effort as f64;
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = if frac > 0.0 {
            format_secs(elapsed * (1.0 - frac) / frac)
        } else {
            "?".into()
        };
        let runs = self.runs.load(Ordering::Relaxed);
        let (progress, eta) = match self.time_bound {
            // Runs with their ends set by clocks: the runs finished, and the limits left.
            Some((total, threads)) => {
                let left = total.saturating_sub(self.bound_done.load(Ordering::Relaxed));
                let bound = format_secs(left as f64 / 1e3 / threads as f64);
                let done = 100.0 * runs as f64 / self.total_runs.max(1) as f64;
                (
                    format!("{done:.1} % of the runs"),
                    format!("at most {bound} left while the threads have whole cores (every run stops at its time limit; a loaded machine stretches a CPU limit in wall time)"),
                )
            }
            None => (
                format!("{:.1} % of the planned effort", 100.0 * frac),
                format!("ETA {eta} (at most: failed runs spend their whole budget)"),
            ),
        };
        format!(
            "{}: {progress}, {runs}/{} runs, {} elapsed, {eta}",
            self.what,
            self.total_runs,
            format_secs(elapsed)
        )
    }

    /// Reports until `stop` is set: a bar on a terminal, a line every period otherwise.
    pub fn report(&self, stop: &AtomicBool) {
        let terminal = std::io::stderr().is_terminal();
        let period = std::env::var("SUDOKU_LAB_PROGRESS_SECONDS")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| *s > 0.0)
            .map_or(Duration::from_secs(30), Duration::from_secs_f64);
        let bar = terminal.then(|| indicatif::ProgressBar::new(self.total_effort));
        let mut last = Instant::now();
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(100));
            match &bar {
                Some(b) => {
                    b.set_position(self.effort.load(Ordering::Relaxed).min(self.total_effort));
                    b.set_message(sudoku_core::error::shown(&self.line()));
                }
                None if last.elapsed() >= period => {
                    eprintln!("{}", sudoku_core::error::shown(&self.line()));
                    last = Instant::now();
                }
                None => {}
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    }
}

fn format_secs(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// The observer of one run: credits its effort to the protocol's [`Progress`].
pub struct RunProgress<'a> {
    progress: &'a Progress,
    by_evaluations: bool,
    cost: u64,
    credited: u64,
    inner: &'a mut dyn Observer,
}

impl RunProgress<'_> {
    /// Credits are sent to the shared counter in steps of at least 1/256 of the run's planned
    /// effort (and in full when the run ends): a `fetch_add` every generation made the two
    /// threads fight over one cache line (RESEDA's generations take microseconds).
    fn credit(&mut self, effort: u64) {
        let e = effort.min(self.cost);
        let step = (self.cost / 256).max(1);
        if e >= self.credited + step || (e == self.cost && e > self.credited) {
            self.progress
                .effort
                .fetch_add(e - self.credited, Ordering::Relaxed);
            self.credited = e;
        }
    }
}

impl Drop for RunProgress<'_> {
    /// A finished run counts its whole planned effort.
    fn drop(&mut self) {
        self.credit(self.cost);
        self.progress.runs.fetch_add(1, Ordering::Relaxed);
    }
}

impl Observer for RunProgress<'_> {
    fn generation(&mut self, generation: u64, evaluations: u64, best_fitness: f64) {
        self.credit(if self.by_evaluations {
            evaluations
        } else {
            generation.saturating_mul(100)
        });
        self.inner.generation(generation, evaluations, best_fitness);
    }
    fn restart(&mut self, generation: u64) {
        self.inner.restart(generation);
    }
    fn wants_grids(&self) -> bool {
        self.inner.wants_grids()
    }
    fn best_grid(&mut self, evaluations: u64, cells: &[u8]) {
        self.inner.best_grid(evaluations, cells);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effort_is_credited_by_generation_and_in_full_at_the_end() {
        let budget = Budget {
            max_generations: None,
            max_evaluations: Some(1000),
        };
        let p = Progress::new("t", 2000, 2);
        {
            let mut inner = sudoku_core::NoObserver;
            let mut o = p.observer(&budget, &mut inner);
            o.generation(1, 300, 0.0);
            o.generation(2, 250, 0.0); // never goes back
            assert_eq!(p.effort.load(Ordering::Relaxed), 300);
            o.generation(3, 5000, 0.0); // capped at the budget
            assert_eq!(p.effort.load(Ordering::Relaxed), 1000);
        }
        {
            let mut inner = sudoku_core::NoObserver;
            let mut o = p.observer(&budget, &mut inner);
            o.generation(1, 100, 0.0);
        } // solved early: the rest of its budget is credited
        assert_eq!(p.effort.load(Ordering::Relaxed), 2000);
        assert_eq!(p.runs.load(Ordering::Relaxed), 2);
        assert!(p.line().contains("100.0 %") && p.line().contains("2/2 runs"));
        assert_eq!(format_secs(3725.0), "1h02m");
        assert_eq!(format_secs(75.0), "1m15s");
        let p = Progress::new("t", 256_000, 1);
        {
            // A long run credits the shared counter in steps of 1/256 of its budget.
            let long = Budget {
                max_generations: None,
                max_evaluations: Some(256_000),
            };
            let mut inner = sudoku_core::NoObserver;
            let mut o = p.observer(&long, &mut inner);
            o.generation(1, 999, 0.0);
            assert_eq!(p.effort.load(Ordering::Relaxed), 0);
            o.generation(2, 1000, 0.0);
            assert_eq!(p.effort.load(Ordering::Relaxed), 1000);
        }
        assert_eq!(p.effort.load(Ordering::Relaxed), 256_000);
        assert_eq!(p.runs.load(Ordering::Relaxed), 1);
    }
}

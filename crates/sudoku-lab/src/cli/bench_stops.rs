//! `sudoku-lab bench --time-limits`: what a time limit costs a run and how far past the limit
//! a run goes (docs/performance.md, "Time limits").
//!
//! For every algorithm of the registry, a few runs under a CPU-seconds limit and no other
//! budget ([`sudoku_core::halt::Stop::Time`]), each on the run thread as the protocol runs it:
//! - overshoot: the run's CPU time (the thread's clock around the call) minus the limit, for
//!   the runs the limit stopped;
//! - overhead: the budget checks and clock reads the run made (the stop's own count), priced at
//!   the cost of one check and one read measured on this machine: (checks x check + reads x
//!   read) / the run's CPU time. A check's cost is the difference between `Budget::reason` with
//!   a stop installed and without.
//!
//! Each algorithm on a hard 9x9 puzzle (mk_5star) at 0.2 CPU s, and at 1 CPU s on a 25x25
//! grid of Lewis's family (45 % of the cells kept) and on the first puzzle of the phase
//! benchmark's 25x25 set at 40 %, and on that puzzle at 0.02 CPU s (which every algorithm
//! reaches, ACS included). Costs and times are measured on the
//! thread's CPU clock, so a loaded machine stretches wall time, not these; the record keeps
//! the load average beside them.

use crate::site::performance::TIME_LIMITS_HEADER as HEADER;
use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;
use sudoku_core::halt::{thread_cpu_time, with_stop, Stop, StopReport};
use sudoku_core::{rng_from_seed, Budget, Geometry, NoObserver, Puzzle, Termination};

/// Runs per algorithm at the short limit.
const RUNS: u64 = 5;
/// The short limit (every algorithm, 9x9).
const SHORT: Duration = Duration::from_millis(200);

/// Measure, print the table and write it to `out` (CSV, replaced atomically) when given.
pub fn run(out: Option<&Path>) -> Result<ExitCode> {
    let (check_ns, read_ns) = (check_cost(), read_cost());
    let mut rows = Vec::new();
    let hard = sudoku_core::bank_puzzle("mk_5star").context("mk_5star is in the bank")?;
    // Instance 0 of seed 7 of the phase-transition family at 45 % (`sudoku-lab instances`).
    let geom = Geometry::for_order(25).context("25x25 is an order")?;
    let fraction = "0.45".parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let options = sudoku_core::instances::LewisOptions::default();
    let made = sudoku_core::instances::lewis_set_instance(7, geom, fraction, 0, &options);
    let big = Puzzle::new("lewis-25x25-0.45-seed7", made.puzzle);
    // The benchmark's hardest 25x25 set (ACS solves most 25x25 grids above within the limit).
    let name = "puzzles/lewis/25x25-0.40.txt";
    let text = (crate::spec::EMBEDDED_PUZZLE_FILES.iter())
        .find(|(n, _)| *n == name)
        .with_context(|| format!("{name} is embedded"))?
        .1;
    let mut hardest = sudoku_core::parse::parse_puzzles(text, name)?.swap_remove(0);
    hardest.id = "lewis-25x25-0.40-first".into();
    // A limit shorter than ACS needs even on easy grids, so that its stops are measured too.
    let tiny = Duration::from_millis(20);
    let one = Duration::from_secs(1);
    for a in crate::algos::REGISTRY {
        // RESEDA's own rule ends its attempts: restart until the limit, as a time-limited
        // comparison runs it.
        let options: toml::Table = match a.name() {
            "reseda" => toml::from_str("attempts = 1000000000")?,
            _ => toml::Table::new(),
        };
        let solver = a.build(&options).map_err(|e| anyhow::anyhow!("{e}"))?;
        let cases = [
            (hard, SHORT, RUNS),
            (&big, one, 3),
            (&hardest, one, 3),
            (&hardest, tiny, RUNS),
        ];
        for (puzzle, limit, runs) in cases {
            let n = puzzle.geometry().n();
            if a.orders().is_some_and(|o| !o.contains(&n)) {
                continue;
            }
            rows.push(measure(
                a.name(),
                &*solver,
                puzzle,
                limit,
                runs,
                check_ns,
                read_ns,
            ));
        }
    }
    let load = load_average().unwrap_or(f64::NAN);
    let revision = env!("SUDOKU_LAB_GIT");
    let mut csv = format!("{HEADER}\n");
    for r in &rows {
        let _ = writeln!(csv, "{revision},{r},{load:.2}");
    }
    print!("{csv}");
    if let Some(out) = out {
        crate::protocol::io::write_output(out, csv.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs of `solver` on `puzzle` under a CPU limit: the record's fields from `algorithm` to
/// `overhead_percent`.
fn measure(
    name: &str,
    solver: &dyn sudoku_core::Solver,
    puzzle: &Puzzle,
    limit: Duration,
    runs: u64,
    check_ns: f64,
    read_ns: f64,
) -> String {
    let unlimited = Budget {
        max_generations: None,
        max_evaluations: None,
    };
    let stop = Stop::Time {
        cpu: Some(limit),
        wall: None,
    };
    let (mut over, mut checks, mut reads, mut cpu_total) = (Vec::new(), 0u64, 0u64, 0.0);
    for seed in 0..runs {
        let mut rng = rng_from_seed(seed);
        let before = thread_cpu_time().unwrap_or_default();
        let (out, report): (_, StopReport) = with_stop(stop, || {
            solver.solve(puzzle, &unlimited, &mut rng, &mut NoObserver)
        });
        let used = thread_cpu_time().unwrap_or_default().saturating_sub(before);
        cpu_total += used.as_secs_f64();
        checks += report.checks;
        reads += report.clock_reads;
        if out.termination == Termination::CpuLimit {
            over.push((used.as_secs_f64() - limit.as_secs_f64()) * 1e3);
        }
    }
    over.sort_by(f64::total_cmp);
    // Empty when no run reached the limit (each solved or ended by its own rule first).
    let median = lab_stats::summarize(&over).map_or(String::new(), |s| format!("{:.3}", s.median));
    let max = over.last().map_or(String::new(), |m| format!("{m:.3}"));
    let overhead = (checks as f64 * check_ns + reads as f64 * read_ns) / (cpu_total * 1e9) * 100.0;
    format!(
        "{name},{},{},{runs},{},{median},{max},{:.0},{:.0},{check_ns:.2},{read_ns:.1},{overhead:.4}",
        puzzle.id,
        limit.as_secs_f64(),
        over.len(),
        checks as f64 / runs as f64,
        reads as f64 / runs as f64,
    )
}

/// Nanoseconds (of CPU) a budget check costs with a stop installed, over one without (the stop's own
/// reads amortised at the largest stride, as in a run of cheap steps).
fn check_cost() -> f64 {
    let b = Budget {
        max_generations: Some(u64::MAX),
        max_evaluations: None,
    };
    let n = 20_000_000u64;
    let time = |b: &Budget| {
        let t = cpu_now();
        for i in 0..n {
            black_box(b.reason(black_box(i), i));
        }
        (cpu_now() - t) * 1e9 / n as f64
    };
    let stop = Stop::Time {
        cpu: Some(Duration::from_secs(3600)),
        wall: None,
    };
    let best = |f: &dyn Fn() -> f64| (0..3).map(|_| f()).fold(f64::INFINITY, f64::min);
    let with = best(&|| with_stop(stop, || time(&b)).0);
    let without = best(&|| time(&b));
    (with - without).max(0.0)
}

/// This thread's CPU time in seconds: costs are measured on the CPU clock, so that time the
/// thread spends descheduled on a loaded machine does not count.
fn cpu_now() -> f64 {
    thread_cpu_time().map_or(0.0, |d| d.as_secs_f64())
}

/// Nanoseconds (of CPU) one read of the thread's CPU clock costs.
fn read_cost() -> f64 {
    let n = 200_000u32;
    (0..3)
        .map(|_| {
            let t = cpu_now();
            for _ in 0..n {
                black_box(thread_cpu_time());
            }
            (cpu_now() - t) * 1e9 / f64::from(n)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The one-minute load average (Linux `/proc/loadavg`), None elsewhere.
pub(super) fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

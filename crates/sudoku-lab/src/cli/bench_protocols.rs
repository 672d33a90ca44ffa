//! `sudoku-lab bench --protocols`: what a full reproduction of every shipped experiment costs
//! at today's kernels (docs/performance.md, "Every protocol").
//!
//! For each experiment whose committed folder `results/<id>/` has a meta.json, runs.csv and a
//! complete status, a systematic sample of its runs (every k-th row of runs.csv, k chosen so
//! that the sample costs about `--sample-cpu-seconds` at the recorded speed, and at least
//! [`MIN_SAMPLE`] rows) is re-executed by `replay` on 2 threads. A replay repeats the recorded
//! run exactly (same seed, same moves, same stop), so a row's replayed CPU time over its recorded
//! time is the speed-up of today's kernels on that run; the protocol's CPU seconds today are
//! estimated by the ratio estimator (sum replayed / sum recorded of the sample, times the
//! recorded sum of every row), with its standard error from the sample's residuals (finite
//! population corrected). When k = 1 every run was re-executed: the sum is measured, not
//! estimated. Folders recorded before the `cpu_ms` column give their rows' wall times, which a
//! load at the time inflated: the ratio then also removes that load.
//!
//! The protocol's wall time on 2 cores is that CPU time halved: the protocols run 1.5 to 2.1
//! times faster on 2 threads than on 1 (docs/performance.md, "Two threads, twice the speed"),
//! so the halving is the ideal, and the record says so. `--full ID` instead runs the whole
//! protocol of ID on 2 threads into a temporary folder and records its measured wall and CPU
//! time (and that its runs.csv equals the committed one but for times). Rows of external
//! solvers are not re-executed (that would run a command a folder names): their recorded time
//! is added unchanged and the method says so.
//!
//! Every row records the revision, the date and the load average before and after, beside the
//! committed folder's own revision and wall time.

use crate::protocol::io::{for_each_numbered_row, write_atomic};
use crate::protocol::replay::{recorded_ms, replay, Cost, Options};
use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The header of results-bench/protocols.csv (read back by the performance page).
pub use crate::site::performance::PROTOCOLS_HEADER as HEADER;

/// The fewest rows a sample has (all of them when the protocol has fewer).
pub const MIN_SAMPLE: usize = 40;

/// Threads of every measurement: the machine the project's records describe has 2 cores.
const THREADS: usize = 2;

/// What to measure.
pub struct Request<'a> {
    /// The results folder holding one committed folder per experiment.
    pub results: &'a Path,
    /// Only these experiments (all shipped ones when empty).
    pub only: &'a [String],
    /// Experiments to run in full instead of sampling.
    pub full: &'a [String],
    /// The CPU seconds (at the recorded speed) a sample should cost.
    pub sample_cpu_seconds: f64,
    /// Where to write the CSV (replaced atomically); stdout always gets it.
    pub out: Option<&'a Path>,
}

/// One measured or estimated protocol.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// The protocol's CPU seconds at today's kernels.
    pub cpu_seconds: f64,
    /// Its standard error (0 when every run was re-executed).
    pub standard_error: f64,
}

/// The ratio estimator of a population total: `pairs` = (recorded, replayed) of the sampled
/// rows, `rows` and `recorded_total` the population's count and recorded sum (milliseconds in,
/// seconds out). Every row re-executed: the replayed sum itself. None without a sampled row or
/// with a zero recorded sum in the sample.
pub fn ratio_estimate(pairs: &[(f64, f64)], rows: usize, recorded_total: f64) -> Option<Estimate> {
    let n = pairs.len();
    let (sx, sy) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    if n == 0 {
        return None;
    }
    if n >= rows {
        return Some(Estimate {
            cpu_seconds: sy / 1000.0,
            standard_error: 0.0,
        });
    }
    if sx <= 0.0 {
        return None;
    }
    let r = sy / sx;
    let residual_ss: f64 = pairs.iter().map(|(x, y)| (y - r * x).powi(2)).sum();
    let s2 = if n > 1 {
        residual_ss / (n - 1) as f64
    } else {
        0.0
    };
    let big_n = rows as f64;
    let fpc = 1.0 - n as f64 / big_n;
    let se = big_n * (fpc * s2 / n as f64).sqrt();
    Some(Estimate {
        cpu_seconds: r * recorded_total / 1000.0,
        standard_error: se / 1000.0,
    })
}

/// The sampling step: every k-th row so that the sample costs about `budget_ms` at the
/// recorded speed, with at least [`MIN_SAMPLE`] rows (every row when there are fewer).
pub fn step(rows: usize, recorded_ms: f64, budget_ms: f64) -> usize {
    if rows == 0 {
        return 1;
    }
    let by_cost = (recorded_ms / budget_ms.max(1.0)).ceil().max(1.0) as usize;
    let by_count = (rows / MIN_SAMPLE).max(1);
    by_cost.min(by_count)
}

/// Measure, print the CSV and write it to `out`.
pub fn run(r: &Request) -> Result<ExitCode> {
    if !(r.sample_cpu_seconds > 0.0 && r.sample_cpu_seconds.is_finite()) {
        bail!("--sample-cpu-seconds must be a positive number of seconds");
    }
    let known = known_ids(r)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(THREADS)
        .build()
        .context("cannot start 2 worker threads")?;
    let mut csv = format!("{HEADER}\n");
    let (mut total, mut total_var, mut committed_total) = (0.0f64, 0.0f64, 0.0f64);
    let mut total_cpu = 0.0f64;
    let mut all_reproduced = true;
    for id in known {
        if !r.only.is_empty() && !r.only.iter().any(|o| o == id) {
            continue;
        }
        let dir = r.results.join(id);
        let Some(committed) = Committed::read(&dir)? else {
            eprintln!(
                "{id}: no complete committed folder in {}: left out",
                dir.display()
            );
            continue;
        };
        let load_before = super::bench_stops::load_average();
        let started = Instant::now();
        let (method, timed, estimate, reproduced, extra_ms) = if r.full.iter().any(|f| f == id) {
            measure_full(id, &dir, &committed)?
        } else {
            measure_sample(id, &dir, &committed, r, &pool)?
        };
        all_reproduced &= reproduced;
        let cpu = estimate.cpu_seconds + extra_ms / 1000.0;
        let wall2 = cpu / THREADS as f64;
        total += wall2;
        total_cpu += cpu;
        total_var += (estimate.standard_error / THREADS as f64).powi(2);
        committed_total += committed.wall_seconds;
        eprintln!(
            "{id}: {cpu:.1} CPU s (+- {:.1}), {wall2:.1} s on {THREADS} cores ({:.0} s to measure)",
            estimate.standard_error,
            started.elapsed().as_secs_f64()
        );
        let _ = writeln!(
            csv,
            "{id},{},{:.1},{},{},{},{timed},{cpu:.1},{:.1},{wall2:.1},{},{},{},{},{}",
            committed.rows,
            committed.wall_seconds,
            committed.threads,
            committed.revision,
            method,
            estimate.standard_error,
            reproduced,
            env!("SUDOKU_LAB_GIT"),
            today(),
            load_before.map_or(String::new(), |l| format!("{l:.2}")),
            super::bench_stops::load_average().map_or(String::new(), |l| format!("{l:.2}")),
        );
    }
    let _ = writeln!(
        csv,
        "total,,{committed_total:.1},,,sum of the rows above,,{total_cpu:.1},{:.1},{total:.1},{all_reproduced},{},{},,",
        total_var.sqrt(),
        env!("SUDOKU_LAB_GIT"),
        today()
    );
    print!("{csv}");
    if let Some(out) = r.out {
        write_atomic(out, csv.as_bytes())?;
    }
    Ok(if all_reproduced {
        ExitCode::SUCCESS
    } else {
        eprintln!("some re-executed runs differ from their rows: see `sudoku-lab replay`");
        ExitCode::from(1)
    })
}

/// What one experiment's measurement gives: (method, runs timed, estimate, every re-executed
/// run reproduced, recorded milliseconds of runs not re-executed).
type Measured = (String, usize, Estimate, bool, f64);

/// The whole protocol of `id` on 2 threads.
fn measure_full(id: &str, dir: &Path, committed: &Committed) -> Result<Measured> {
    let (cpu, wall, same) = full(id, dir)?;
    let e = Estimate {
        cpu_seconds: cpu,
        standard_error: 0.0,
    };
    eprintln!("{id}: full protocol, {wall:.1} s wall on {THREADS} threads");
    Ok((
        format!("full protocol on {THREADS} threads (wall {wall:.1} s)"),
        committed.rows,
        e,
        same,
        0.0,
    ))
}

/// Every k-th committed run of `dir` re-executed, and the ratio estimate.
fn measure_sample(
    id: &str,
    dir: &Path,
    committed: &Committed,
    r: &Request,
    pool: &rayon::ThreadPool,
) -> Result<Measured> {
    let k = step(
        committed.rows,
        committed.recorded_ms,
        r.sample_cpu_seconds * 1000.0,
    );
    let options = Options {
        every: k,
        only_solved: false,
        run_external: false,
    };
    let out = pool.install(|| replay(dir, &options))?;
    let Cost {
        rows,
        recorded_ms: builtin_ms,
        pairs,
    } = &out.cost;
    let e = ratio_estimate(pairs, *rows, *builtin_ms)
        .with_context(|| format!("{id}: no run to time"))?;
    let external_ms = committed.recorded_ms - builtin_ms;
    let mut method = match k {
        1 => "every run re-executed".to_string(),
        k => format!("1 run in {k} re-executed (ratio estimate)"),
    };
    if out.skipped_rows > 0 {
        let _ = write!(
            method,
            "; {} runs of external solvers at their recorded time",
            out.skipped_rows
        );
    }
    Ok((
        method,
        pairs.len(),
        e,
        out.mismatches.is_empty(),
        external_ms.max(0.0),
    ))
}

/// The shipped experiments, after checking that every one `r` names is among them.
fn known_ids(r: &Request) -> Result<Vec<&'static str>> {
    let known: Vec<&str> = crate::spec::EMBEDDED.iter().map(|(id, _)| *id).collect();
    for id in r.only.iter().chain(r.full) {
        if !known.contains(&id.as_str()) {
            bail!("bench --protocols: unknown experiment '{id}' (known: `sudoku-lab list`)");
        }
    }
    Ok(known)
}

/// The committed folder's facts the record keeps.
struct Committed {
    rows: usize,
    recorded_ms: f64,
    wall_seconds: f64,
    threads: u64,
    revision: String,
}

impl Committed {
    /// None when the folder has no meta.json or runs.csv, or is not complete.
    fn read(dir: &Path) -> Result<Option<Committed>> {
        let (meta, runs) = (dir.join("meta.json"), dir.join("runs.csv"));
        if !meta.is_file() || !runs.is_file() {
            return Ok(None);
        }
        let m = crate::protocol::meta::read_json(&meta)?;
        if m["status"].as_str() != Some("complete") {
            return Ok(None);
        }
        let (mut rows, mut recorded) = (0usize, 0.0f64);
        for_each_numbered_row(&runs, |_, row| {
            rows += 1;
            recorded += recorded_ms(&row);
            Ok(())
        })?;
        let revision: String = (m["git_revision"].as_str().unwrap_or(""))
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .take(40)
            .collect();
        Ok(Some(Committed {
            rows,
            recorded_ms: recorded,
            wall_seconds: m["wall_seconds"].as_f64().unwrap_or(0.0),
            threads: m["threads"].as_u64().unwrap_or(0),
            revision,
        }))
    }
}

/// Run experiment `id` in full on 2 threads into a temporary folder: (CPU seconds of the
/// process, wall seconds, runs.csv equal to `committed`'s but for times). The folder is removed.
fn full(id: &str, committed: &Path) -> Result<(f64, f64, bool)> {
    let tmp = std::env::temp_dir().join(format!("sudoku-lab-bench-{id}-{}", std::process::id()));
    let _cleanup = Remove(tmp.clone());
    let flags = crate::cli::args::ProtocolFlags {
        quick: false,
        runs: None,
        threads: Some(THREADS),
        out: Some(tmp.clone()),
        resume: false,
        fresh: false,
        seed: None,
        shard: None,
    };
    let cpu0 = sudoku_core::halt::process_cpu_time().unwrap_or_default();
    let t0 = Instant::now();
    super::reproduce::reproduce(id, &flags)?;
    let wall = t0.elapsed().as_secs_f64();
    let cpu = (sudoku_core::halt::process_cpu_time().unwrap_or_default() - cpu0).as_secs_f64();
    let same = without_times(&tmp.join("runs.csv"))? == without_times(&committed.join("runs.csv"))?;
    Ok((cpu, wall, same))
}

/// A runs.csv's rows with their times blanked, for comparison.
fn without_times(path: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for_each_numbered_row(path, |_, mut row| {
        row.wall_ms = 0.0;
        row.cpu_ms = None;
        out.push(row.to_line());
        Ok(())
    })?;
    Ok(out)
}

/// Removes a folder when dropped (also on an error or a panic).
struct Remove(PathBuf);

impl Drop for Remove {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Today's date (UTC), from the system clock: the date of [`crate::protocol::meta::utc_now`].
fn today() -> String {
    crate::protocol::meta::utc_now().chars().take(10).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_replayed_is_a_measurement() {
        let e = ratio_estimate(&[(100.0, 50.0), (300.0, 140.0)], 2, 400.0).unwrap();
        assert_eq!(e.cpu_seconds, 0.19);
        assert_eq!(e.standard_error, 0.0);
    }

    #[test]
    fn the_ratio_estimate_scales_the_recorded_total() {
        // Today's runs take half their recorded time, exactly: the estimate is half the total
        // and has no error.
        let pairs = [(10.0, 5.0), (30.0, 15.0), (20.0, 10.0)];
        let e = ratio_estimate(&pairs, 30, 6000.0).unwrap();
        assert!((e.cpu_seconds - 3.0).abs() < 1e-12);
        assert!(e.standard_error.abs() < 1e-12);
        // Noise around the ratio gives a positive error, smaller with the finite population.
        let noisy = [(10.0, 6.0), (30.0, 14.0), (20.0, 10.0)];
        let a = ratio_estimate(&noisy, 30, 6000.0).unwrap();
        let b = ratio_estimate(&noisy, 4, 6000.0).unwrap();
        assert!(a.standard_error > 0.0 && b.standard_error < a.standard_error);
    }

    #[test]
    fn no_sample_no_estimate() {
        assert_eq!(ratio_estimate(&[], 10, 100.0), None);
        assert_eq!(ratio_estimate(&[(0.0, 1.0)], 10, 100.0), None);
    }

    #[test]
    fn the_step_meets_the_budget_and_the_minimum_sample() {
        for (rows, recorded, budget, k) in [
            (0, 0.0, 1000.0, 1),
            (10, 1e9, 1000.0, 1),
            (4000, 1e6, 1e6, 1),
            (4000, 1e7, 1e6, 10),
            (4000, 1e9, 1e6, 100),
            (3900, 12.5e6, 20e3, 97),
        ] {
            assert_eq!(
                step(rows, recorded, budget),
                k,
                "{rows} {recorded} {budget}"
            );
        }
    }
}

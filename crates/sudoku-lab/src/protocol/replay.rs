//! Replay: re-execute recorded runs of a results folder from their `runs.csv` rows (the spec
//! and settings come from its `meta.json`) and check that every field but `wall_ms` and `cpu_ms`, and with
//! anytime data the run's trajectory block, is reproduced.

use crate::algos;
use crate::protocol::io::{for_each_numbered_row, Row};
use crate::protocol::meta::Settings;
use crate::protocol::plan::Plan;
use crate::protocol::progress::Progress;
use crate::protocol::Protocol;
use crate::spec::Spec;
use anyhow::{Context, Result};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// (algorithm label, what differs) of a row not reproduced.
type Difference = (String, String);

/// Trajectory blocks by (algorithm, puzzle, run).
type Blocks = HashMap<(String, String, u64), String>;

/// What a replay found.
pub struct Outcome {
    /// Rows replayed.
    pub replayed: usize,
    /// One line per row that was not reproduced (or could not be re-run), naming it and why.
    pub mismatches: Vec<String>,
    /// The same for the rows of external solvers: reported, not a failure of the replay (a
    /// solver of the user's may be nondeterministic; the runner cannot make it otherwise).
    pub external_mismatches: Vec<String>,
    /// One line per external solver whose rows were not replayed (no `--run-external`),
    /// naming the command it would have run; or, with it, the command about to run.
    pub skipped: Vec<String>,
    /// The rows of external solvers not replayed (all of them, without `--run-external`).
    pub skipped_rows: usize,
    /// The cost of the runs, for `bench --protocols`: over every row the replay could have
    /// chosen (external rows without `--run-external` left out), their count and the sum of their
    /// recorded CPU milliseconds (wall milliseconds in folders without `cpu_ms`); and for each
    /// replayed row, (recorded, replayed CPU milliseconds).
    pub cost: Cost,
}

/// Recorded and replayed run times (milliseconds) of a replay.
#[derive(Debug, Default, Clone)]
pub struct Cost {
    /// Rows the sample was drawn from.
    pub rows: usize,
    /// The sum of their recorded times.
    pub recorded_ms: f64,
    /// (recorded, replayed) time of every replayed row.
    pub pairs: Vec<(f64, f64)>,
}

/// What to replay.
pub struct Options {
    /// Every `every`-th row (of the rows kept by `only_solved`).
    pub every: usize,
    /// Solved rows only.
    pub only_solved: bool,
    /// Run the external solvers' commands recorded in meta.json (else their rows are skipped).
    pub run_external: bool,
}

/// Replay every `every`-th row of `dir/runs.csv` (only solved rows with `only_solved`). The
/// spec recorded in meta.json is checked by the rules `run` applies to a spec file (names,
/// keys, the files and command of an external solver staying in the spec's folder) before
/// anything runs; an external solver's command runs only with `run_external`.
pub fn replay(dir: &Path, o: &Options) -> Result<Outcome> {
    let (spec, settings, spec_dir) = read_meta(&dir.join("meta.json"))?;
    let forced = settings
        .quick
        .then_some(settings.runs)
        .or(settings.forced_runs);
    let loaded = spec.load_puzzles(spec_dir.as_deref(), settings.quick, forced)?;
    let cap = settings.quick.then_some(spec.quick_max_generations);
    let protocol = Protocol::new(&spec, &loaded, cap, None)?;
    let external: HashSet<&str> = (spec.algorithms.iter())
        .filter(|a| a.is_external())
        .map(|a| a.label.as_str())
        .collect();
    let skipped = external_notices(&spec, &loaded, o.run_external);
    if o.run_external {
        protocol.preflight()?;
    }
    let plan = protocol.plan();
    let blocks = if spec.anytime {
        recorded_blocks(&dir.join(crate::protocol::trajectory::FILE))?
    } else {
        Blocks::new()
    };
    let (rows, skipped_rows, mut cost) = sampled_rows(&dir.join("runs.csv"), &plan, o, |r| {
        o.run_external || !external.contains(r.algorithm.as_str())
    })?;
    let (found, pairs) = replay_rows(&protocol, &plan, &rows, &blocks);
    cost.pairs = pairs;
    let (external_found, builtin): (Vec<_>, Vec<_>) = found
        .into_iter()
        .partition(|(r, _)| external.contains(r.as_str()));
    Ok(Outcome {
        replayed: rows.len(),
        mismatches: builtin.into_iter().map(|f| f.1).collect(),
        external_mismatches: external_found.into_iter().map(|f| f.1).collect(),
        skipped,
        skipped_rows,
        cost,
    })
}

/// One line per external solver of `spec`: the command it runs and where (escaped), as
/// skipped without `run`, else as about to run.
fn external_notices(spec: &Spec, loaded: &crate::spec::Loaded, run: bool) -> Vec<String> {
    let folder = loaded.spec_dir.as_deref().unwrap_or(Path::new("."));
    let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    (spec.algorithms.iter())
        .filter(|a| a.is_external())
        .map(|a| {
            let command = a.command.as_deref().unwrap_or_default();
            let at = folder.display().to_string();
            match run {
                true => format!(
                    "external solver '{}': running {command:?} in \"{}\" (--run-external)",
                    a.label,
                    at.escape_debug()
                ),
                false => format!(
                    "external solver '{}': runs not replayed: they would run {command:?} in \"{}\" (a command recorded in meta.json runs only with --run-external)",
                    a.label,
                    at.escape_debug()
                ),
            }
        })
        .collect()
}

/// A row's recorded run time in milliseconds: its CPU time, else (older folders) its wall time.
pub fn recorded_ms(r: &Row) -> f64 {
    r.cpu_ms.unwrap_or(r.wall_ms)
}

/// The rows of `path` to replay: every `every`-th (of the solved ones with `only_solved`) among
/// those `keep` accepts, how many rows `keep` left out, and the count and recorded time of the
/// rows the sample was drawn from. Every row's claim is checked at
/// read time ([`Plan::check_claim`]), as `--resume` and `merge` check it; an edited seed or a
/// foreign run shows as a difference.
fn sampled_rows(
    path: &Path,
    plan: &Plan,
    o: &Options,
    keep: impl Fn(&Row) -> bool,
) -> Result<(Vec<Row>, usize, Cost)> {
    let mut rows = Vec::new();
    let mut cost = Cost::default();
    let (mut k, mut left) = (0usize, 0usize);
    for_each_numbered_row(path, |line, r| {
        if let Some((_, job)) = plan.job_of(&r) {
            plan.check_claim(&format!("{}:{line}", path.display()), &r, job.puzzle)?;
        }
        if !keep(&r) {
            left += 1;
            return Ok(());
        }
        if !o.only_solved || r.solved == 1 {
            cost.rows += 1;
            cost.recorded_ms += recorded_ms(&r);
            if k.is_multiple_of(o.every) {
                rows.push(r);
            }
            k += 1;
        }
        Ok(())
    })?;
    Ok((rows, left, cost))
}

/// Re-run `rows` in parallel with progress on stderr: (algorithm label, difference) of every
/// row not reproduced, and (recorded, replayed) milliseconds of every row that ran.
fn replay_rows(
    protocol: &Protocol,
    plan: &Plan,
    rows: &[Row],
    blocks: &Blocks,
) -> (Vec<Difference>, Vec<(f64, f64)>) {
    let effort: u64 = rows
        .iter()
        .filter_map(|r| plan.job_of(r))
        .map(|(i, _)| algos::expected_cost(&protocol.budgets[plan.algorithm_of(i)]))
        .fold(0u64, u64::saturating_add);
    let progress = Progress::new("replay", effort, rows.len() as u64);
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        use rayon::prelude::*;
        scope.spawn(|| progress.report(&stop));
        let checked: Vec<_> = rows
            .par_iter()
            .map(|r| (r, check_row(protocol, plan, r, blocks, &progress)))
            .collect();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut found = Vec::new();
        let mut pairs = Vec::new();
        for (r, (difference, ms)) in checked {
            if let Some(ms) = ms {
                pairs.push((recorded_ms(r), ms));
            }
            if let Some(m) = difference {
                found.push((r.algorithm.clone(), m));
            }
        }
        (found, pairs)
    })
}

/// The spec, the settings and the spec's folder recorded in a meta.json. The spec is checked
/// as `run` checks a spec file: a meta.json is as hostile as any file handed over.
fn read_meta(path: &Path) -> Result<(Spec, Settings, Option<PathBuf>)> {
    let v = crate::protocol::meta::read_json(path)?;
    let spec: Spec = serde_json::from_value(v["spec"].clone())
        .map_err(|e| anyhow::anyhow!("{}: spec: {e}", path.display()))?;
    spec.check(&path.display().to_string())?;
    let settings: Settings = serde_json::from_value(v["settings"].clone())
        .with_context(|| format!("{}: no settings", path.display()))?;
    let spec_dir = crate::protocol::meta::recorded_spec_dir(path, &v)?;
    Ok((spec, settings, spec_dir))
}

/// Re-run one recorded row: None when it is reproduced, else what differs, and the replayed
/// run's CPU milliseconds (wall for an external solver without a CPU measure) when it ran.
/// The run is the plan's (its seed from the plan, not from the row), so an edited seed shows
/// as a difference.
fn check_row(
    protocol: &Protocol,
    plan: &Plan,
    r: &Row,
    blocks: &Blocks,
    progress: &Progress,
) -> (Option<String>, Option<f64>) {
    let key = format!("{}/{}/{}", r.algorithm, r.puzzle, r.run);
    let Some((_, job)) = plan.job_of(r) else {
        return (
            Some(format!(
                "{key}: not in the spec of meta.json, cannot replay"
            )),
            None,
        );
    };
    let done = protocol.execute_again(&job, r, Some(progress));
    let ms = Some(recorded_ms(&done.row));
    (compare_row(r, done, blocks, &key), ms)
}

/// What differs between a recorded row (and its trajectory block) and its replay, if anything.
fn compare_row(
    r: &Row,
    done: crate::protocol::run::Done,
    blocks: &Blocks,
    key: &str,
) -> Option<String> {
    let mut again = done.row;
    again.wall_ms = r.wall_ms;
    again.cpu_ms = r.cpu_ms;
    if r.counters.is_empty() {
        // Rows of the first runs.csv format carry no counters.
        again.counters.clear();
    }
    if again != *r {
        return Some(format!(
            "{key}: recorded {} -> replayed {}",
            r.to_line(),
            again.to_line()
        ));
    }
    let recorded = blocks.get(&(r.algorithm.clone(), r.puzzle.clone(), r.run));
    match (done.trajectory, recorded) {
        (Some(t), Some(b)) if t != *b => Some(format!(
            "{key}: trajectory differs: recorded {} points -> replayed {}",
            b.lines().count(),
            t.lines().count()
        )),
        (Some(_), None) => Some(format!("{key}: no recorded trajectory")),
        _ => None,
    }
}

/// The recorded trajectory block of every run of a `trajectories.csv`, by (algorithm, puzzle,
/// run).
fn recorded_blocks(path: &Path) -> Result<Blocks> {
    let mut blocks = Blocks::new();
    for p in crate::protocol::trajectory::read(path)? {
        let line = format!(
            "{},{},{},{},{},{}\n",
            p.experiment, p.algorithm, p.puzzle, p.run, p.evaluations, p.penalty
        );
        blocks
            .entry((p.algorithm, p.puzzle, p.run))
            .or_default()
            .push_str(&line);
    }
    Ok(blocks)
}

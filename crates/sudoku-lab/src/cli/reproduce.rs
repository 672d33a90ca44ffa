//! The commands. Each validates all of its input before it writes anything.

use super::args::ProtocolFlags;
use crate::algos;
use crate::protocol::lock::Lock;
use crate::protocol::meta::{Meta, Settings};
use crate::protocol::Protocol;
use crate::reports::{self, groups::Group};
use crate::spec::{self, Spec};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The most threads a protocol may start.
const MAX_THREADS: usize = 1024;

/// The exit code of a protocol that ended with an algorithm without a single valid run (every
/// run failed: an external solver that crashed, hung, or answered wrongly), distinct from the
/// `2` of a bad input: the folder is complete (and resumable), but its comparison is empty.
pub const NO_VALID_RUN: u8 = 3;

/// [`NO_VALID_RUN`] when `all_valid` is false, else success.
fn exit_code(all_valid: bool) -> ExitCode {
    match all_valid {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(NO_VALID_RUN),
    }
}

/// Everything validated for one protocol.
struct Prepared {
    spec: Spec,
    forced_runs: Option<u64>,
    loaded: crate::spec::Loaded,
    published: reports::Published,
    out: PathBuf,
    runs: u64,
    threads: usize,
    quick: bool,
    /// `--shard k/n`: k from 1.
    shard: Option<(usize, usize)>,
    /// The folder of a user spec (None for an embedded one).
    base: Option<PathBuf>,
    /// The folder as messages name it (`out`, but for a merge built elsewhere).
    shown: PathBuf,
    /// The command that runs this protocol again, without `--out` (`reproduce <id> --quick`,
    /// `run <spec>`): shown in the refusal of a folder that has runs already.
    command: String,
    /// The default folder of a `--quick` run (`results/quick/<id>`): scratch, replaced by the
    /// next quick run unless `--resume` is given.
    scratch: bool,
}

/// `--threads` checked (1 to [`MAX_THREADS`]), else all cores.
pub fn threads_flag(threads: Option<usize>) -> Result<usize> {
    Ok(match threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) if t > MAX_THREADS => bail!("--threads {t} is over the limit of {MAX_THREADS}"),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    })
}

fn prepare(spec: Spec, base: Option<&Path>, flags: &ProtocolFlags) -> Result<Prepared> {
    let mut spec = spec;
    if let Some(s) = flags.seed {
        // Written back into meta.json's spec like the spec's own master_seed.
        spec::check_bounds("", "--seed", s, 0, spec::MAX_TOML_INT)?;
        spec.master_seed = s;
    }
    if flags.runs == Some(0) {
        bail!("--runs must be at least 1");
    }
    let forced = flags.runs.or(flags.quick.then_some(spec.quick_runs));
    let loaded = spec.load_puzzles(base, flags.quick, forced)?;
    let published = reports::Published::load(&spec, base, &loaded)?;
    if !flags.resume {
        preflight_externals(&spec, &loaded)?;
    }
    let runs = flags.runs.unwrap_or(if flags.quick {
        spec.quick_runs
    } else {
        spec.runs
    });
    if runs == 0 {
        bail!("--runs must be at least 1");
    }
    let threads = threads_flag(flags.threads)?;
    if let Some(available) = algos::available_memory() {
        let n = loaded
            .puzzles
            .iter()
            .map(|p| p.geometry().n())
            .max()
            .unwrap_or(9);
        for a in &spec.algorithms {
            algos::check_memory(&a.algorithm, &a.params, n, threads, available)
                .with_context(|| format!("algorithm '{}'", a.label))?;
        }
    }
    let shard_name = flags
        .shard
        .as_deref()
        .map(|s| format!("-shard-{}", s.replace('/', "-of-")))
        .unwrap_or_default();
    let out = flags.out.clone().unwrap_or_else(|| {
        if !shard_name.is_empty() {
            PathBuf::from("results").join(format!("{}{shard_name}", spec.id))
        } else if flags.quick {
            PathBuf::from("results/quick").join(&spec.id)
        } else {
            PathBuf::from("results").join(&spec.id)
        }
    });
    if out.exists() && !out.is_dir() {
        bail!("--out {} exists and is not a folder", out.display());
    }
    let command = command_of(format!("reproduce {}", spec.id), flags);
    Ok(Prepared {
        command,
        shown: out.clone(),
        spec,
        forced_runs: forced,
        loaded,
        published,
        out,
        runs,
        threads,
        quick: flags.quick,
        scratch: flags.quick && flags.out.is_none() && !flags.resume && flags.shard.is_none(),
        shard: flags.shard.as_deref().map(parse_shard).transpose()?,
        base: base.map(Path::to_path_buf),
    })
}

/// The command line `head` (`reproduce <id>`, `run <spec>`) with the flags of `flags` that
/// shape the runs, without `--out`, `--resume` or `--fresh`.
fn command_of(head: String, flags: &ProtocolFlags) -> String {
    let mut c = head;
    if flags.quick {
        c.push_str(" --quick");
    }
    if let Some(n) = flags.runs {
        c.push_str(&format!(" --runs {n}"));
    }
    if let Some(s) = flags.seed {
        c.push_str(&format!(" --seed {s}"));
    }
    if let Some(s) = &flags.shard {
        c.push_str(&format!(" --shard {s}"));
    }
    c
}

/// Runs the protocol of `spec` (from a shard's `meta.json`, with its spec folder `base`) on
/// the folder `merge` prepared (`flags.out`, moved to `shown` afterwards, which the messages
/// name), as `--resume`: nothing to run, runs.csv in plan order, every report and chart.
/// Returns whether every algorithm has a valid run.
/// Every check [`finish_merged`] makes before it writes, nothing written (`merge --check`).
pub fn check_merged(spec: Spec, base: Option<&Path>, flags: &ProtocolFlags) -> Result<()> {
    prepare(spec, base, flags).map(drop)
}

pub fn finish_merged(
    spec: Spec,
    base: Option<&Path>,
    flags: &ProtocolFlags,
    shown: &Path,
) -> Result<bool> {
    let mut p = prepare(spec, base, flags)?;
    p.shown = shown.to_path_buf();
    execute(&p, flags)
}

pub fn reproduce(id: &str, flags: &ProtocolFlags) -> Result<ExitCode> {
    let specs: Vec<Spec> = if id == "all" {
        spec::EMBEDDED
            .iter()
            .map(|(k, _)| spec::embedded(k))
            .collect::<Result<_>>()?
    } else {
        vec![spec::embedded(id)?]
    };
    if id == "all" && flags.out.is_some() && specs.len() > 1 {
        bail!("--out cannot be used with `reproduce all` (one folder per experiment)");
    }
    let prepared: Vec<Prepared> = specs
        .into_iter()
        .map(|s| prepare(s, None, flags))
        .collect::<Result<_>>()?;
    let mut all_valid = true;
    for p in &prepared {
        all_valid &= execute(p, flags)?;
    }
    Ok(exit_code(all_valid))
}

/// A fresh protocol checks its external solvers (program found, handshake answered) before
/// it writes anything, so that a wrong command leaves no folder behind; a resumed one checks
/// them when runs remain ([`crate::protocol::Protocol::run`]).
fn preflight_externals(spec: &Spec, loaded: &spec::Loaded) -> Result<()> {
    for a in spec.algorithms.iter().filter(|a| a.is_external()) {
        (a.external_solver(loaded.spec_dir.as_deref())?.preflight())
            .with_context(|| format!("algorithm '{}'", a.label))?;
    }
    Ok(())
}

pub fn run_spec(path: &Path, flags: &ProtocolFlags) -> Result<ExitCode> {
    let text = spec::read_spec(path)?;
    let spec = Spec::parse(&text, &path.display().to_string())?;
    // A bare name (`run s.toml`) has the empty parent: its folder is the current one, which
    // meta.json must record as a real folder (an empty one resolved to the results folder).
    let base = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut p = prepare(spec, Some(&base), flags)?;
    p.command = command_of(format!("run {}", path.display()), flags);
    Ok(exit_code(execute(&p, flags)?))
}

/// meta.json says the protocol failed and why (instead of "running"); the error, unchanged.
fn failed(meta: &mut crate::protocol::meta::Meta, path: &Path, e: anyhow::Error) -> anyhow::Error {
    meta.status = "failed".into();
    let chain: Vec<String> = e.chain().map(|c| c.to_string()).collect();
    meta.error = Some(chain.join(": "));
    let _ = meta.write(path);
    e
}

/// Run the protocol `p` into its folder; returns whether every algorithm has a valid run (a
/// run that did not fail: see [`reports::warnings::is_failure`]).
fn execute(p: &Prepared, flags: &ProtocolFlags) -> Result<bool> {
    let spec = &p.spec;
    let settings = settings(p)?;
    let runs_path = p.out.join("runs.csv");
    let meta_path = p.out.join("meta.json");
    let before = super::outcome::Snapshot::of(&p.out);
    // One process per folder, from before the first look at its files to the last write.
    let _lock = claim_folder(p, flags, &settings)?;
    let prior_wall = if flags.resume {
        prior_wall(p, &runs_path, &meta_path)
    } else {
        0.0
    };
    let mut meta = start_meta(p, flags, settings, prior_wall)?;
    // Whatever fails from here on, meta.json says so (and why) instead of "running".
    let done = run_and_report(p, flags, prior_wall, &mut meta);
    crate::protocol::run::wait_if_interrupted();
    let done = done.map_err(|e| failed(&mut meta, &meta_path, e))?;
    meta.finished_utc = Some(crate::protocol::meta::utc_now());
    meta.wall_seconds = Some(done.wall);
    meta.runs_executed_this_session = Some(done.executed);
    meta.runs_resumed = Some(done.resumed);
    if let Some(last) = meta.sessions.last_mut() {
        last.finished_utc = meta.finished_utc.clone();
        last.runs_executed = Some(done.executed);
    }
    let no_valid = no_valid_runs(spec, &done.failures);
    meta.status = match (done.invalid, no_valid.is_empty()) {
        (0, true) => "complete",
        (0, false) => "complete-without-valid-runs",
        _ => "complete-with-invalid-claims",
    }
    .into();
    if !no_valid.is_empty() {
        let each: Vec<String> = (no_valid.iter())
            .map(|(label, why)| format!("algorithm '{label}' ({why})"))
            .collect();
        meta.error = Some(format!("no valid run of {}", each.join("; ")));
    }
    meta.write(&meta_path)?;
    print_summary(spec, &p.loaded.entries, &done.groups);
    print_failures(spec, &done.failures);
    eprintln!(
        "{}",
        sudoku_core::error::shown(&format!(
            "{}: {} runs, {:.1} s of protocol wall time ({} runs resumed); results in {}",
            spec.id,
            done.executed,
            done.wall,
            done.resumed,
            p.shown.display()
        ))
    );
    super::outcome::print(&p.out, &p.shown, &before);
    if done.invalid > 0 {
        bail!("{} runs claimed a solution the exact checker rejects (rows marked invalid_claim): this is a bug", done.invalid);
    }
    if !no_valid.is_empty() {
        let labels: Vec<String> = no_valid.iter().map(|(l, _)| format!("'{l}'")).collect();
        eprintln!(
            "error: no valid run of algorithm{} {}: every run failed (the reasons above; each run's in runs.csv's termination, an external solver's stderr in {}/); the folder is complete: fix the solver and run again with --fresh",
            if labels.len() == 1 { "" } else { "s" },
            labels.join(", "),
            crate::protocol::run::LOGS
        );
    }
    Ok(no_valid.is_empty())
}

/// The algorithms without a valid run, each with its failed runs by reason.
fn no_valid_runs<'a>(
    spec: &'a Spec,
    failures: &[reports::warnings::Failures],
) -> Vec<(&'a str, String)> {
    (spec.algorithms.iter().zip(failures))
        .filter(|(_, f)| f.none_valid())
        .map(|(a, f)| (a.label.as_str(), f.describe()))
        .collect()
}

/// One line on stderr per algorithm with failed runs: how many of its runs, and why (from
/// runs.csv, so that a `--resume` says the same).
fn print_failures(spec: &Spec, failures: &[reports::warnings::Failures]) {
    for (a, f) in spec.algorithms.iter().zip(failures) {
        if f.failed() > 0 {
            eprintln!("failed runs of '{}': {}", a.label, f.describe());
        }
    }
}

/// What must be equal for `--resume` to continue the folder (recorded in meta.json).
fn settings(p: &Prepared) -> Result<Settings> {
    Settings::of(&p.spec, p.quick, p.forced_runs, p.shard)
}

/// Create and lock the output folder, and check that its files may be used: a `--resume`
/// continues runs made with the same settings; otherwise an existing runs.csv is kept unless
/// `--fresh` (or a scratch `--quick` folder) asks to start over, which removes it. Temporary
/// files of killed processes are removed. Returns the lock, held until the protocol ends.
fn claim_folder(p: &Prepared, flags: &ProtocolFlags, settings: &Settings) -> Result<Lock> {
    let runs_path = p.out.join("runs.csv");
    let meta_path = p.out.join("meta.json");
    let trajectories = p.out.join(crate::protocol::trajectory::FILE);
    std::fs::create_dir_all(&p.out)
        .with_context(|| format!("cannot create {}", p.out.display()))?;
    let lock = Lock::take(&p.out)?;
    // Every file of the folder is one the protocol may replace: no link or device among them.
    crate::protocol::io::check_folder_files(&p.out)?;
    if flags.resume && runs_path.exists() {
        match Meta::read_settings(&meta_path)? {
            Some(_) if p.spec.anytime && !trajectories.exists() => bail!(
                "{}: trajectories.csv is missing beside runs.csv (anytime = true): the anytime data of the finished runs is lost; use --fresh",
                p.out.display()
            ),
            Some(old) if old.same_as(settings) => {}
            Some(_) => bail!(
                "{}: the runs in this folder were made with other settings (spec, seed, runs or --quick); use --fresh or another --out",
                p.out.display()
            ),
            None => bail!("{}: no readable meta.json beside runs.csv; cannot check it belongs to this spec", p.out.display()),
        }
    } else if runs_path.exists() && !(flags.fresh || p.scratch) {
        bail!(
            "{} exists: pass --resume to continue it (reports only, when it is complete), --fresh to start over, or write elsewhere: sudoku-lab {} --out DIR",
            runs_path.display(),
            p.command
        );
    }
    crate::protocol::lock::remove_stale_temps(&p.out);
    if flags.fresh || p.scratch {
        for stale in [&runs_path, &trajectories] {
            if stale.exists() {
                std::fs::remove_file(stale)
                    .with_context(|| format!("cannot remove {}", stale.display()))?;
            }
        }
        // The discarded protocol's external solver logs go with its runs (the folder was
        // checked to be no link by `check_folder_files`).
        let logs = p.out.join(crate::protocol::run::LOGS);
        if std::fs::symlink_metadata(&logs).is_ok_and(|m| m.is_dir()) {
            std::fs::remove_dir_all(&logs)
                .with_context(|| format!("cannot remove {}", logs.display()))?;
        }
    }
    Ok(lock)
}

/// The protocol wall time of the earlier sessions of a resumed folder. When none recorded its
/// time (the ones that ran were killed), theirs is estimated from the runs they left, run time
/// over threads, rather than counted as nothing.
fn prior_wall(p: &Prepared, runs_path: &Path, meta_path: &Path) -> f64 {
    match Meta::read_wall(meta_path) {
        w if w == 0.0 && runs_path.exists() => {
            let mut ms = 0.0;
            let _ = crate::protocol::io::for_each_row(runs_path, |r| {
                ms += r.wall_ms;
                Ok(())
            });
            let threads = Meta::read_sessions(meta_path)
                .last()
                .map_or(p.threads, |s| s.threads)
                .max(1);
            ms / 1e3 / threads as f64
        }
        w => w,
    }
}

/// meta.json as the protocol starts: the settings, this session (with the earlier ones of a
/// resumed folder) and status "running", written at once.
fn start_meta(
    p: &Prepared,
    flags: &ProtocolFlags,
    settings: Settings,
    prior_wall: f64,
) -> Result<Meta> {
    let meta_path = p.out.join("meta.json");
    let mut meta = Meta::new(settings, &p.spec, p.threads);
    meta.spec_dir = (p.base.as_ref()).map(|b| crate::protocol::meta::spec_dir_for(&p.out, b));
    if flags.resume {
        meta.sessions = Meta::read_sessions(&meta_path);
        // Carried over at once, so that a session killed before its end keeps the earlier ones.
        meta.wall_seconds = (prior_wall > 0.0).then_some(prior_wall);
    }
    meta.sessions.push(crate::protocol::meta::Session {
        git_revision: meta.git_revision.clone(),
        started_utc: meta.started_utc.clone(),
        finished_utc: None,
        threads: p.threads,
        runs_executed: None,
        machine: Some(meta.machine.clone()),
    });
    meta.write(&meta_path)?;
    Ok(meta)
}

/// What a session did.
struct Outcome {
    executed: usize,
    resumed: usize,
    /// Protocol wall time over all sessions, seconds.
    wall: f64,
    groups: Vec<Vec<Group>>,
    /// Rows whose claimed solution the exact checker rejected.
    invalid: usize,
    /// Each algorithm's runs and failures, from runs.csv.
    failures: Vec<reports::warnings::Failures>,
}

/// Run the pending runs, record the wall time in meta.json, and write summary.csv and (but in
/// a shard, whose reports `merge` writes) the spec's report.
fn run_and_report(
    p: &Prepared,
    flags: &ProtocolFlags,
    prior_wall: f64,
    meta: &mut Meta,
) -> Result<Outcome> {
    let spec = &p.spec;
    let cap = p.quick.then_some(spec.quick_max_generations);
    let runs_path = p.out.join("runs.csv");
    let protocol = Protocol::new(spec, &p.loaded, cap, p.shard)?;
    let start = Instant::now();
    // Runs set per algorithm are named with their labels ("best+uniform 100, literal 10").
    let own = &p.loaded.algorithm_runs;
    let runs = if own.iter().any(Option::is_some) {
        let each: Vec<String> = (spec.algorithms.iter().zip(own))
            .map(|(a, r)| format!("{} {}", a.label, r.unwrap_or(p.runs)))
            .collect();
        format!("({})", each.join(", "))
    } else {
        p.runs.to_string()
    };
    eprintln!(
        "{}",
        sudoku_core::error::shown(&format!(
            "{}: {} algorithms x {} puzzles x {runs} runs on {} threads -> {}",
            spec.id,
            spec.algorithms.len(),
            p.loaded.puzzles.len(),
            p.threads,
            p.shown.display()
        ))
    );
    let (executed, resumed) = protocol.run(&runs_path, flags.resume, p.threads)?;
    // Protocol wall time: sessions that ran no run (a resume that only rebuilds the reports)
    // add nothing.
    let wall = prior_wall
        + if executed > 0 {
            start.elapsed().as_secs_f64()
        } else {
            0.0
        };
    // Recorded at once: a kill while the reports are written keeps this session's time.
    meta.wall_seconds = Some(wall);
    meta.write(&p.out.join("meta.json"))?;
    let inputs = reports::Inputs {
        spec,
        loaded: &p.loaded,
        published: &p.published,
        out: &p.out,
        runs: p.runs,
        quick_cap: cap,
        wall,
        threads: p.threads,
    };
    let groups = reports::write_summary(&inputs)?;
    if p.shard.is_none() {
        reports::write(&inputs, &groups)?;
    }
    Ok(Outcome {
        executed,
        resumed,
        wall,
        groups,
        invalid: count_invalid(spec, &runs_path)?,
        failures: reports::warnings::failures(spec, &runs_path)?,
    })
}

/// Rows of runs.csv of built-in algorithms marked `invalid_claim` (read row by row): a bug of
/// ours. An external solver's invalid claims are its own failures, counted in the report.
fn count_invalid(spec: &Spec, runs_path: &Path) -> Result<usize> {
    let external: std::collections::HashSet<&str> = (spec.algorithms.iter())
        .filter(|a| a.is_external())
        .map(|a| a.label.as_str())
        .collect();
    let mut n = 0;
    crate::protocol::io::for_each_row(runs_path, |r| {
        n += usize::from(
            r.termination == "invalid_claim" && !external.contains(r.algorithm.as_str()),
        );
        Ok(())
    })?;
    Ok(n)
}

/// `k/n` with 1 <= k <= n <= 100 000.
fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let parsed = s.split_once('/').and_then(|(k, n)| {
        Some((
            k.trim().parse::<usize>().ok()?,
            n.trim().parse::<usize>().ok()?,
        ))
    });
    match parsed {
        Some((k, n)) if k >= 1 && k <= n && n <= 100_000 => Ok((k, n)),
        _ => bail!("--shard {s}: expected k/n with 1 <= k <= n (e.g. 2/4)"),
    }
}

fn print_summary(spec: &Spec, puzzles: &[crate::spec::Entry], g: &[Vec<Group>]) {
    println!(
        "{:<12} {:<24} {:>9} {:>10} {:>10}",
        "algorithm", "puzzle", "success", "mean gen", "sd gen"
    );
    for (a, alg) in spec.algorithms.iter().enumerate() {
        // A solver that reports no generations (every run 0: an external solver that counts
        // none) has no mean to show, not a mean of 0.
        let counts = g[a].iter().any(|x| x.total_generations > 0.0);
        for (i, p) in puzzles.iter().enumerate() {
            let x = &g[a][i];
            let (mean, sd) = generation_cells(x, counts);
            println!(
                "{}",
                sudoku_core::error::shown(&format!(
                    "{:<12} {:<24} {:>4}/{:<4} {:>10} {:>10}",
                    alg.label, p.id, x.successes, x.runs, mean, sd,
                ))
            );
        }
    }
}

/// The mean and SD cells of the summary for group `x`: `-` without the successes they need,
/// `n/a` when the algorithm counts no generations (`counts` false).
fn generation_cells(x: &Group, counts: bool) -> (String, String) {
    if !counts {
        return ("n/a".into(), "n/a".into());
    }
    let s = x.generations();
    (
        s.map_or("-".into(), |s| format!("{:.1}", s.mean)),
        s.filter(|s| s.n >= 2)
            .map_or("-".into(), |s| format!("{:.1}", s.sd)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solver that counts no generations shows n/a, not "mean gen 0.0"; one that counts
    /// them shows its mean, and `-` where no run succeeded.
    #[test]
    fn a_solver_without_generations_shows_no_mean() {
        let solved = Group {
            runs: 2,
            successes: 2,
            success_generations: vec![0.0, 0.0],
            ..Group::default()
        };
        assert_eq!(
            generation_cells(&solved, false),
            ("n/a".into(), "n/a".into())
        );
        let counted = Group {
            success_generations: vec![10.0, 20.0],
            total_generations: 30.0,
            ..solved.clone()
        };
        assert_eq!(
            generation_cells(&counted, true),
            ("15.0".into(), "7.1".into())
        );
        let failed = Group {
            runs: 2,
            total_generations: 40.0,
            ..Group::default()
        };
        assert_eq!(generation_cells(&failed, true), ("-".into(), "-".into()));
    }
}

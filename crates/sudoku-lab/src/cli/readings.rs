//! `sudoku-lab readings`: validate everything, claim the folder, run the race (or first the
//! synthetic table), write the outputs.

use super::args::ReadingsArgs;
use crate::protocol::lock::Lock;
use crate::readings::procedure::Procedure;
use crate::readings::settings::Settings;
use crate::readings::store::Store;
use crate::readings::verdicts::Margins;
use crate::readings::{confirm, default_out, engine, synthetic, Request, Setup};
use crate::reports::groups::PublishedRow;
use crate::spec::{self, Spec};
use anyhow::{bail, Context, Result};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The most threads a race may start.
const MAX_THREADS: usize = 1024;

pub fn readings(a: &ReadingsArgs) -> Result<ExitCode> {
    let (mut setup, hidden, seed) = prepare(a)?;
    let threads = threads(a.threads)?;
    let out = a.out.clone().unwrap_or_else(|| {
        let label = match setup.entries.len() {
            1 => &setup.algorithm.label,
            _ => &a.algorithm,
        };
        default_out(&setup.request.spec.id, label, hidden.is_some())
    });
    setup.request.procedure = procedure(a, &out)?;
    setup.request.confirm_seed = confirm_seed(a, &out, &setup, hidden.map(|_| seed))?;
    let _lock = claim(&out, a, &settings(&setup, hidden.map(|h| (h, seed))))?;
    let command = command(a, &setup.request);
    crate::protocol::io::write_atomic(&out.join("command.json"), command.as_bytes())?;
    let rows = match hidden {
        Some(h) => synthetic::table(&setup, h, seed, &out.join("synthetic"), threads)?,
        None => setup.rows.clone(),
    };
    let source = engine::source(a.published.as_deref(), &setup, hidden.is_some());
    engine::run_local(
        &setup,
        &rows,
        &out,
        threads,
        hidden.map(|h| (h, seed)),
        source,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The race `a` asks for, validated: its setup, the hidden reading of a synthetic race and
/// the synthetic table's seed.
pub(super) fn prepare(a: &ReadingsArgs) -> Result<(Setup, Option<usize>, u64)> {
    let (mut spec, base) = load_spec(&a.experiment)?;
    check_numbers(a)?;
    if let Some(s) = a.seed {
        spec.master_seed = s;
    }
    let published = a.published.as_deref().map(read_published).transpose()?;
    let setup = Setup::new(Request {
        spec,
        base,
        algorithm: a.algorithm.clone(),
        published,
        options: a.options.clone(),
        max_runs: a.max_runs,
        rounds: a.rounds.clone(),
        cap_factor: (a.cap > 0.0).then_some(a.cap),
        mean_cap_factor: (a.mean_cap > 0.0).then_some(a.mean_cap),
        curtail: !a.no_curtail,
        share: !a.no_shared_runs,
        alpha: a.alpha,
        // Settled once the folder is known (a resumed race keeps its own).
        procedure: Procedure::V3,
        margins: Margins {
            success: a.margin_success,
            mean: a.margin_mean,
        },
        confirm_seed: None,
    })?;
    check_memory(&setup, threads(a.threads)?)?;
    let hidden = a
        .synthetic
        .as_deref()
        .map(|s| setup.space.find(s))
        .transpose()?;
    let seed = a
        .synthetic_seed
        .unwrap_or(synthetic::default_seed(setup.spec.master_seed));
    Ok((setup, hidden, seed))
}

/// Every reading's options fit in the memory available, the raced ones included (a raced
/// population is checked as a spec's own value is), before any value names a reading.
fn check_memory(setup: &Setup, threads: usize) -> Result<()> {
    let Some(available) = crate::algos::available_memory() else {
        return Ok(());
    };
    let n = (setup.loaded.puzzles.iter())
        .map(|p| p.geometry().n())
        .max()
        .unwrap_or(9);
    for alg in &setup.spec.algorithms {
        crate::algos::check_memory(&alg.algorithm, &alg.params, n, threads, available)
            .with_context(|| format!("reading {}", alg.label))?;
    }
    Ok(())
}

/// `sudoku-lab replay DIR` of a race folder (command.json and settings.json, no meta.json):
/// the race of its command.json, which must make its settings.json; its run file read and
/// checked against the race's plan, and every `every`-th run executed again and compared.
/// Nothing is written. Exit 0 when every replayed run is identical, 1 otherwise.
pub fn replay_race(dir: &Path, every: usize, threads_flag: Option<usize>) -> Result<ExitCode> {
    let a = race_args(&dir.join("command.json"))?;
    let (mut setup, hidden, seed) = prepare(&a).with_context(|| recorded_race(dir, &a))?;
    setup.request.procedure = match &a.procedure {
        Some(_) => procedure(&a, dir)?,
        None => recorded_procedure(&dir.join("settings.json"))?,
    };
    // A command.json names the confirmation (`--confirm-seed` or `--no-confirm`) unless the
    // race has none by default (v1) or was made before it: then the folder's own.
    setup.request.confirm_seed = match a.no_confirm || a.confirm_seed.is_some() {
        true => confirm_seed(&a, dir, &setup, hidden.map(|_| seed))?,
        false => recorded_confirm_seed(&dir.join("settings.json"))?,
    };
    if setup.spec.algorithms.iter().any(|x| x.is_external()) {
        bail!(
            "{}: a race of an external solver is not replayed",
            dir.join("command.json").display()
        );
    }
    let recorded = Settings::read(&dir.join("settings.json"))?;
    if !recorded.same(&settings(&setup, hidden.map(|h| (h, seed)))) {
        bail!(
            "{}: settings.json is not the settings of that race: the spec or table it names, or one of the two files, changed since the race",
            recorded_race(dir, &a)
        );
    }
    let protocol = setup.protocol()?;
    let threads = threads(threads_flag)?;
    let store = Store::read_only(&dir.join("runs.csv"), &protocol, setup.full())?;
    let (mut replayed, mut differ) = store.replay(&protocol, every, threads)?;
    // The confirmation's runs, under its own master seed.
    let confirm_runs = dir.join(confirm::RUNS);
    if let (Some(seed), true) = (setup.request.confirm_seed, confirm_runs.exists()) {
        let (spec, loaded) = confirm::confirm_spec(&setup, seed);
        let protocol = crate::protocol::Protocol::new(&spec, &loaded, None, None)?;
        let store = Store::read_only(&confirm_runs, &protocol, setup.full())?;
        let (n, d) = store.replay(&protocol, every, threads)?;
        replayed += n;
        differ.extend(d);
    }
    for d in &differ {
        println!("{d}");
    }
    println!(
        "replayed {replayed} runs of the race {}: {} identical, {} different",
        dir.display(),
        replayed - differ.len(),
        differ.len()
    );
    Ok(if differ.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The race in `dir` as its errors name it: the folder, its command.json and what that
/// makes (`readings SPEC`), with a note when it names a spec file or a `--published` table
/// by a relative name (races recorded before the names were made absolute), which is read
/// from the current folder.
fn recorded_race(dir: &Path, a: &ReadingsArgs) -> String {
    let files = std::iter::once(&a.experiment)
        .filter(|e| is_spec_file(e))
        .map(PathBuf::from)
        .chain(a.published.clone());
    let relative: Vec<String> = (files.filter(|f| f.is_relative()))
        .map(|f| f.display().to_string())
        .collect();
    let note = match relative.is_empty() {
        true => String::new(),
        false => format!(
            "; {} relative to the folder the race was started in, which is not recorded: replay it from there",
            relative.join(" and ")
        ),
    };
    format!(
        "race {} ({}: readings {}{note})",
        dir.display(),
        dir.join("command.json").display(),
        a.experiment
    )
}

/// The arguments of the race a command.json records (checked as the command line would be).
fn race_args(path: &Path) -> Result<ReadingsArgs> {
    let text = spec::read_spec(path)?;
    let args: Vec<String> = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: not a JSON array of arguments ({e})", path.display()))?;
    let parsed = super::args::Cli::try_parse_from(std::iter::once("sudoku-lab".into()).chain(args));
    match parsed.map(|c| c.command) {
        Ok(super::args::Command::Readings(a)) => Ok(*a),
        Ok(_) => bail!("{}: not the arguments of `readings`", path.display()),
        Err(e) => bail!(
            "{}: not the arguments of a race: {}",
            path.display(),
            e.to_string().lines().next().unwrap_or("").escape_debug()
        ),
    }
}

/// command.json: the arguments of `sudoku-lab` that make this race (without `--out`,
/// `--threads`, `--resume` and `--fresh`), as a JSON array: replaying them with `--resume` and
/// another `--out` over a copy of the folder rewrites its outputs from its runs (a test does
/// so for every committed race, so the committed outputs are the code's).
pub(super) fn command(a: &ReadingsArgs, request: &Request) -> String {
    let procedure = request.procedure;
    // A spec file and a table by where they are, so that the race replays from any folder.
    let experiment = match is_spec_file(&a.experiment) {
        true => absolute(Path::new(&a.experiment)),
        false => a.experiment.clone(),
    };
    let mut v: Vec<String> = vec!["readings".into(), experiment];
    let mut arg = |k: &str, x: String| v.extend([k.to_string(), x]);
    arg("--algorithm", a.algorithm.clone());
    if let Some(p) = &a.published {
        arg("--published", absolute(p));
    }
    for o in &a.options {
        arg("--options", o.clone());
    }
    if let Some(m) = a.max_runs {
        arg("--max-runs", m.to_string());
    }
    let rounds = a.rounds.iter().map(u64::to_string).collect::<Vec<_>>();
    arg("--rounds", rounds.join(","));
    arg("--cap", a.cap.to_string());
    arg("--mean-cap", a.mean_cap.to_string());
    arg("--alpha", a.alpha.to_string());
    // Only when not the defaults, so the command of a race made before them is unchanged.
    if a.margin_success != Margins::DEFAULT.success {
        arg("--margin-success", a.margin_success.to_string());
    }
    if a.margin_mean != Margins::DEFAULT.mean {
        arg("--margin-mean", a.margin_mean.to_string());
    }
    // v1 is what a folder without the flag replays as (races made before the versions).
    if procedure != Procedure::V1 {
        arg("--procedure", procedure.name().to_string());
    }
    if let Some(h) = &a.synthetic {
        arg("--synthetic", h.clone());
    }
    if let Some(s) = a.synthetic_seed {
        arg("--synthetic-seed", s.to_string());
    }
    if let Some(s) = a.seed {
        arg("--seed", s.to_string());
    }
    if a.no_curtail {
        v.push("--no-curtail".into());
    }
    if a.no_shared_runs {
        v.push("--no-shared-runs".into());
    }
    // The confirmation, named whenever it differs from a v1 race's default (none).
    match request.confirm_seed {
        Some(s) => v.extend(["--confirm-seed".to_string(), s.to_string()]),
        None if procedure != Procedure::V1 => v.push("--no-confirm".into()),
        None => {}
    }
    serde_json::to_string(&v).unwrap_or_default() + "\n"
}

/// `sudoku-lab readings-calibration`: the simulation study of the race engine.
pub fn calibration(a: &super::args::ReadingsCalibrationArgs) -> Result<ExitCode> {
    use crate::readings::{calibration, calibration_report};
    if a.replicates == 0 || a.replicates > 1_000_000 {
        bail!("--replicates {} must be between 1 and 10^6", a.replicates);
    }
    if !(a.alpha > 0.0 && a.alpha < 1.0) {
        bail!("--alpha {} is not between 0 and 1", a.alpha);
    }
    let mut scenarios = calibration::scenarios();
    for name in &a.scenarios {
        if !scenarios.iter().any(|s| s.name == name) {
            let all: Vec<&str> = scenarios.iter().map(|s| s.name).collect();
            bail!(
                "--scenarios: '{name}' is not a scenario ({})",
                all.join(", ")
            );
        }
    }
    if !a.scenarios.is_empty() {
        scenarios.retain(|s| a.scenarios.iter().any(|n| n == s.name));
    }
    let threads = threads(a.threads)?;
    let rates = calibration::study(&scenarios, a.replicates, a.seed, a.alpha, threads)?;
    calibration_report::write(&a.out, &scenarios, &rates, a.seed)?;
    println!(
        "{}: error-rates.csv, error-rates.png, report.md",
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `sudoku-lab readings-summary DIR`.
pub fn summary(dir: &Path) -> Result<ExitCode> {
    let n = crate::readings::summary::write(dir)?;
    println!(
        "{}",
        sudoku_core::error::shown(&format!(
            "{}: summary.csv and summary.md of {n} races",
            dir.display()
        ))
    );
    Ok(ExitCode::SUCCESS)
}

/// An embedded experiment id, or a spec file (with its folder, for its puzzle files).
/// Whether `readings EXPERIMENT` names a spec file (else an embedded experiment).
fn is_spec_file(experiment: &str) -> bool {
    experiment.ends_with(".toml") || Path::new(experiment).is_file()
}

/// `path` made absolute against the current folder, without resolving links (a path every
/// node of a cluster sees stays that path).
fn absolute(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    abs.display().to_string()
}

fn load_spec(experiment: &str) -> Result<(Spec, Option<PathBuf>)> {
    let path = Path::new(experiment);
    if is_spec_file(experiment) {
        let text = spec::read_spec(path)?;
        let spec = Spec::parse(&text, &path.display().to_string())?;
        // A bare name (`readings s.toml`): its folder is the current one.
        let base = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Ok((spec, Some(base)))
    } else {
        Ok((spec::embedded(experiment)?, None))
    }
}

/// The numeric flags in range.
fn check_numbers(a: &ReadingsArgs) -> Result<()> {
    if !(a.alpha > 0.0 && a.alpha < 1.0) {
        bail!("--alpha {} is not between 0 and 1", a.alpha);
    }
    if !(a.cap == 0.0 || (a.cap >= 1.0 && a.cap <= 1e6)) {
        bail!("--cap {} must be 0 (no caps) or between 1 and 10^6 (a cap below the published maximum would censor successes the paper counts)", a.cap);
    }
    if !(a.mean_cap == 0.0 || (a.mean_cap >= 2.0 && a.mean_cap <= 1e6)) {
        bail!("--mean-cap {} must be 0 (no mean caps) or between 2 and 10^6 (the Markov bound of a cap k x mean is 1 - 1/k of the successes)", a.mean_cap);
    }
    for (flag, m) in [
        ("--margin-success", a.margin_success),
        ("--margin-mean", a.margin_mean),
    ] {
        if !(m > 0.0 && m < 1.0) {
            bail!("{flag} {m} must be between 0 and 1 (a share)");
        }
    }
    if a.max_runs == Some(0) {
        bail!("--max-runs must be at least 1");
    }
    if a.rounds.is_empty() || a.rounds.contains(&0) {
        bail!("--rounds needs run counts of at least 1");
    }
    // The race's master seed replaces the spec's, whose bound a spec file's seed meets.
    if let Some(s) = a.seed.filter(|&s| s > spec::MAX_TOML_INT) {
        bail!(
            "--seed {s} is above the largest master seed, {}",
            spec::MAX_TOML_INT
        );
    }
    Ok(())
}

pub(super) fn threads(t: Option<usize>) -> Result<usize> {
    Ok(match t {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) if t > MAX_THREADS => bail!("--threads {t} is over the limit of {MAX_THREADS}"),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    })
}

/// A published table given with `--published`, read with a size limit and parsed.
fn read_published(path: &Path) -> Result<Vec<PublishedRow>> {
    let text = spec::read_spec(path)?;
    crate::reports::groups::parse_published(&text, &format!("--published {}", path.display()))
}

/// Everything the race's runs depend on ([`Settings`], settings.json): `--resume` continues a
/// folder only when this is unchanged.
pub(super) fn settings(setup: &Setup, hidden: Option<(usize, u64)>) -> Settings {
    Settings::of(setup, hidden)
}

/// The procedure of the race: `--procedure`, else with `--resume` the folder's own (its
/// settings.json's `procedure`, v1 where it names none: races made before the versions),
/// else v3.
pub(super) fn procedure(a: &ReadingsArgs, out: &Path) -> Result<Procedure> {
    if let Some(p) = &a.procedure {
        return Procedure::parse(p)
            .with_context(|| format!("--procedure {p}: not a procedure (v1, v2 or v3)"));
    }
    let meta = out.join("settings.json");
    if !a.resume || !meta.is_file() {
        return Ok(Procedure::V3);
    }
    recorded_procedure(&meta)
}

/// The procedure a race folder's settings.json `meta` records (v1 where it names none: races
/// made before the versions).
fn recorded_procedure(meta: &Path) -> Result<Procedure> {
    Ok(Settings::read(meta)?.procedure())
}

/// The confirmation seed a race folder's settings.json `meta` records (None where it names
/// none: races made before the confirmation, or with `--no-confirm`).
fn recorded_confirm_seed(meta: &Path) -> Result<Option<u64>> {
    Ok(Settings::read(meta)?.confirm_seed)
}

/// The confirmation's master seed: none with `--no-confirm`; `--confirm-seed`; else with
/// `--resume` the folder's own (its settings.json's `confirm_seed`); else, for a v2 or v3
/// race, [`confirm::default_seed`] of the master seed, also for a v2 folder made before the
/// confirmation (its runs are unchanged; the confirmation's are its own file's); a v1 race:
/// none unless asked, so the v1 races made before it keep their settings. It must
/// differ from the race's master seed and the synthetic table's (`synthetic`).
pub(super) fn confirm_seed(
    a: &ReadingsArgs,
    out: &Path,
    setup: &Setup,
    synthetic: Option<u64>,
) -> Result<Option<u64>> {
    let master = setup.spec.master_seed;
    let meta = out.join("settings.json");
    let seed = if a.no_confirm {
        None
    } else if let Some(s) = a.confirm_seed {
        Some(s)
    } else if let Some(s) = (a.resume && meta.is_file())
        .then(|| recorded_confirm_seed(&meta))
        .transpose()?
        .flatten()
    {
        Some(s)
    } else if setup.request.procedure.spends_alpha() {
        let avoid: Vec<u64> = std::iter::once(master).chain(synthetic).collect();
        Some(confirm::default_seed(master, &avoid))
    } else {
        None
    };
    if let Some(s) = seed {
        if s == master || Some(s) == synthetic {
            bail!("--confirm-seed {s} is the seed of the race's or the synthetic table's runs: the confirmation needs runs of its own");
        }
    }
    Ok(seed)
}

/// Create and lock the folder; refuse earlier race files unless `--resume` (with the same
/// settings) or `--fresh` (which removes them); write settings.json.
pub(super) fn claim(out: &Path, a: &ReadingsArgs, settings: &Settings) -> Result<Lock> {
    if out.exists() && !out.is_dir() {
        bail!("--out {} exists and is not a folder", out.display());
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let lock = Lock::take(out)?;
    // Every file of the folder is one the race may read or replace: no link or device among
    // them, refused before anything is written.
    crate::protocol::io::check_folder_files(out)?;
    let (runs, meta) = (out.join("runs.csv"), out.join("settings.json"));
    if a.fresh {
        let (confirm_runs, confirm_csv) = (out.join(confirm::RUNS), out.join(confirm::CSV));
        for f in [&runs, &meta, &confirm_runs, &confirm_csv] {
            if f.exists() {
                std::fs::remove_file(f)
                    .with_context(|| format!("cannot remove {}", f.display()))?;
            }
        }
        let synthetic = out.join("synthetic");
        if synthetic.exists() {
            std::fs::remove_dir_all(&synthetic)
                .with_context(|| format!("cannot remove {}", synthetic.display()))?;
        }
    } else if runs.exists() || meta.exists() {
        if !a.resume {
            bail!(
                "{} holds a race: pass --resume to continue it, or --fresh to start over",
                out.display()
            );
        }
        // A folder with runs but no settings, or settings of another race, is refused.
        let old = match meta.exists() {
            true => Some(Settings::read(&meta)?),
            false => None,
        };
        let other = || {
            anyhow::anyhow!("{}: the race in this folder was made with other settings (spec, options, table, runs, rounds, cap, alpha or --synthetic); use --fresh or another --out", out.display())
        };
        let old = old.ok_or_else(other)?;
        if old.same(settings) {
            // The same race: its file is kept as it is (a folder of an earlier version too).
            crate::protocol::lock::remove_stale_temps(out);
            return Ok(lock);
        }
        if !old.same_runs(settings, a.procedure.is_some()) {
            return Err(other());
        }
        if !old.same_runs(settings, false) {
            eprintln!(
                "{}: the race continues under the procedure of --procedure with the runs it holds (a run depends on its reading, puzzle, index and budget, not on the procedure that asked for it)",
                meta.display()
            );
        }
    }
    crate::protocol::lock::remove_stale_temps(out);
    crate::protocol::io::write_atomic(&meta, settings.text().as_bytes())?;
    Ok(lock)
}

//! `sudoku-lab readings`: validate everything, claim the folder, run the race (or first the
//! synthetic table), write the outputs.

use super::args::ReadingsArgs;
use crate::protocol::lock::Lock;
use crate::readings::outputs::{self, Findings};
use crate::readings::procedure::Procedure;
use crate::readings::race::{rounds, Fate, Race};
use crate::readings::store::Store;
use crate::readings::verdicts::{self, Margins};
use crate::readings::{confirm, confirm_report, default_out, md, synthetic, Request, Setup};
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
    let _lock = claim(&out, a, &settings(&setup, a, hidden.map(|h| (h, seed))))?;
    let command = command(a, &setup.request);
    crate::protocol::io::write_atomic(&out.join("command.json"), command.as_bytes())?;
    let rows = match hidden {
        Some(h) => synthetic::table(&setup, h, seed, &out.join("synthetic"), threads)?,
        None => setup.rows.clone(),
    };
    let source = source(a, &setup, hidden.is_some());
    run_race(
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
        procedure: Procedure::V2,
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
    let path = dir.join("settings.json");
    let recorded =
        spec::read_regular(&path).with_context(|| format!("cannot read {}", path.display()))?;
    if recorded != settings(&setup, &a, hidden.map(|h| (h, seed))) {
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

/// Where the race's table comes from, as report.md says it.
pub(super) fn source(a: &ReadingsArgs, setup: &Setup, synthetic: bool) -> String {
    match (synthetic, &a.published) {
        (true, _) => "a synthetic table (published.csv in this folder)".to_string(),
        (false, Some(f)) => format!(
            "{} (published.csv in this folder)",
            md::code(&f.display().to_string())
        ),
        (false, None) => format!(
            "the spec's table {}",
            md::code(setup.request.spec.published.as_deref().unwrap_or(""))
        ),
    }
}

/// Race `setup` against `rows` into `out`, then write every output.
fn run_race(
    setup: &Setup,
    rows: &[PublishedRow],
    out: &Path,
    threads: usize,
    hidden: Option<(usize, u64)>,
    source: String,
) -> Result<()> {
    let targets = setup.targets(rows)?;
    if targets.is_empty() {
        bail!("no published row names a puzzle of the race");
    }
    let rounds = rounds(&setup.request.rounds, setup.max_runs());
    let protocol = setup.protocol()?;
    let mut store = Store::open(&out.join("runs.csv"), &protocol, setup.full(), true)?;
    if setup.request.share {
        store.share(setup.shared_runs());
    }
    let race = Race {
        protocol: Some(&protocol),
        readings: protocol.solvers.len() / setup.entries.len().max(1),
        runs: &protocol.runs,
        targets: &targets,
        rounds: &rounds,
        full: setup.full(),
        alpha: setup.request.alpha,
        threads,
        entries: setup.entries.len(),
        curtail: setup.request.curtail,
        procedure: setup.request.procedure,
        verbose: true,
    };
    if let Some(seed) = setup.request.confirm_seed {
        confirm::check(setup, seed, out)?;
    }
    let fates = race.run(&mut store)?;
    write_outputs(
        setup,
        (rows, &targets),
        out,
        (&race, &fates, &store),
        hidden,
        source,
        threads,
    )
}

/// The race's files once it has ended: runs.csv sorted, published.csv, readings.csv,
/// power.csv and verdicts.csv, the confirmation (its runs made with `threads`, confirm.csv),
/// report.md, race.csv and the chart.
pub(super) fn write_outputs(
    setup: &Setup,
    (rows, targets): (&[PublishedRow], &[crate::readings::cells::Target]),
    out: &Path,
    (race, fates, store): (&Race, &[Fate], &Store),
    hidden: Option<(usize, u64)>,
    source: String,
    threads: usize,
) -> Result<()> {
    let protocol = setup.protocol()?;
    store.finish(&protocol)?;
    let confirmation = confirmation(setup, (targets, fates, race.rounds.len()), out, threads)?;
    outputs::write_published(&out.join("published.csv"), rows)?;
    outputs::write_readings(&out.join("readings.csv"), setup, fates, store)?;
    let cost = outputs::cost(setup, targets, store, fates);
    let verdicts = verdicts::judge(race, store, fates, setup.request.margins);
    let id = |r: usize| setup.space.id(r);
    verdicts::write_power(&out.join("power.csv"), &verdicts, &id)?;
    verdicts::write_verdicts(&out.join("verdicts.csv"), &verdicts, &id)?;
    let findings = Findings {
        setup,
        race,
        fates,
        cost,
        hidden,
        source,
        verdicts,
        standings: crate::readings::closest::standings(setup, race, fates, store),
        confirmed: (confirmation.iter().flat_map(|c| &c.verdicts))
            .map(|v| (v.reading, v.confirmed))
            .collect(),
    };
    let tail = (confirmation.as_ref()).map(|c| confirm_report::section(setup, c));
    outputs::write_report(&out.join("report.md"), &findings, &tail.unwrap_or_default())?;
    if let Some(c) = &confirmation {
        confirm::write_csv(&out.join(confirm::CSV), setup, c)?;
    }
    outputs::write_race(&out.join("race.csv"), &findings)?;
    outputs::write_chart(out, &findings)?;
    let alive = fates.iter().filter(|f| f.eliminated.is_none()).count();
    eprintln!("{}", sudoku_core::error::shown(&format!(
        "{alive} of {} readings survive; {} generations spent ({:.2} % of the full factorial's estimated generations at the full protocol); {}",
        fates.len(),
        findings.cost.generations,
        100.0 * findings.cost.generations as f64 / findings.cost.factorial_generations.max(1.0),
        out.join("report.md").display()
    )));
    Ok(())
}

/// The race's confirmation at its second master seed (None without one): its runs made or
/// resumed in `out`, its verdicts.
fn confirmation(
    setup: &Setup,
    (targets, fates, rounds): (&[crate::readings::cells::Target], &[Fate], usize),
    out: &Path,
    threads: usize,
) -> Result<Option<confirm::Confirmation>> {
    let Some(seed) = setup.request.confirm_seed else {
        return Ok(None);
    };
    let plan = confirm::Plan {
        setup,
        targets,
        fates,
        rounds,
        seed,
    };
    let c = confirm::run(&plan, out, threads)?;
    let consistent = c.verdicts.iter().filter(|v| v.consistent()).count();
    eprintln!("confirmation at master seed {seed}: {consistent} readings consistent (both seeds)");
    Ok(Some(c))
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

/// Everything the race's runs depend on, as JSON: `--resume` continues a folder only when
/// this is unchanged.
pub(super) fn settings(setup: &Setup, a: &ReadingsArgs, hidden: Option<(usize, u64)>) -> String {
    let rows: Vec<String> = (setup.rows.iter()).map(|r| format!("{r:?}")).collect();
    let mut value = serde_json::json!({
        "spec": setup.request.spec,
        "algorithm": a.algorithm,
        "keys": setup.space.keys,
        "values": setup.space.values.iter().map(|v| v.iter().map(crate::readings::space::value_text).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "published": rows,
        "runs": setup.loaded.runs,
        "rounds": a.rounds,
        "cap": a.cap,
        "alpha": a.alpha,
        "synthetic": hidden.map(|(h, s)| (setup.space.id(h), s)),
    });
    // Only where a row gets a mean cap (races without one keep their settings, and resume).
    if setup.uses_mean_cap() {
        value["mean_cap"] = serde_json::json!(a.mean_cap);
    }
    // Races of procedure v1 (made before the versions) keep their settings and resume.
    if setup.request.procedure != Procedure::V1 {
        value["procedure"] = serde_json::json!(setup.request.procedure.name());
    }
    // Curtailment changes which runs are made, not the eliminations: recorded when off.
    if a.no_curtail {
        value["curtail"] = serde_json::json!(false);
    }
    // So does sharing runs between readings that make the same runs.
    if a.no_shared_runs {
        value["shared_runs"] = serde_json::json!(false);
    }
    // The verdicts' margins, only when not the defaults (races made before them resume).
    if !setup.request.margins.is_default() {
        value["margins"] = serde_json::json!([a.margin_success, a.margin_mean]);
    }
    // Races without a confirmation (the v1 races made before it) keep their settings.
    if let Some(s) = setup.request.confirm_seed {
        value["confirm_seed"] = serde_json::json!(s);
    }
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}

/// The procedure of the race: `--procedure`, else with `--resume` the folder's own (its
/// settings.json's `procedure`, v1 where it names none: races made before the versions),
/// else v2.
pub(super) fn procedure(a: &ReadingsArgs, out: &Path) -> Result<Procedure> {
    if let Some(p) = &a.procedure {
        return Procedure::parse(p)
            .with_context(|| format!("--procedure {p}: not a procedure (v1 or v2)"));
    }
    let meta = out.join("settings.json");
    if !a.resume || !meta.is_file() {
        return Ok(Procedure::V2);
    }
    recorded_procedure(&meta)
}

/// The procedure a race folder's settings.json `meta` records (v1 where it names none: races
/// made before the versions).
fn recorded_procedure(meta: &Path) -> Result<Procedure> {
    let value = recorded(meta)?;
    match value.get("procedure") {
        None => Ok(Procedure::V1),
        Some(v) => (v.as_str().and_then(Procedure::parse))
            .with_context(|| format!("{}: procedure {v} is not v1 or v2", meta.display())),
    }
}

/// A race folder's settings.json `meta` as JSON.
fn recorded(meta: &Path) -> Result<serde_json::Value> {
    let text = spec::read_spec(meta)?;
    serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}:{}: not JSON: {e}", meta.display(), e.line()))
}

/// The confirmation seed a race folder's settings.json `meta` records (None where it names
/// none: races made before the confirmation, or with `--no-confirm`).
fn recorded_confirm_seed(meta: &Path) -> Result<Option<u64>> {
    match recorded(meta)?.get("confirm_seed") {
        None => Ok(None),
        Some(v) => (v.as_u64().map(Some))
            .with_context(|| format!("{}: confirm_seed {v} is not a seed", meta.display())),
    }
}

/// The confirmation's master seed: none with `--no-confirm`; `--confirm-seed`; else with
/// `--resume` the folder's own (its settings.json's `confirm_seed`); else, for a v2 race,
/// [`confirm::default_seed`] of the master seed, also for a v2 folder made before the
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
    } else if setup.request.procedure == Procedure::V2 {
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
pub(super) fn claim(out: &Path, a: &ReadingsArgs, settings: &str) -> Result<Lock> {
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
        let old = crate::spec::read_regular(&meta).unwrap_or_default();
        if old != settings {
            if !same_runs(&old, settings, a.procedure.is_some()) {
                bail!("{}: the race in this folder was made with other settings (spec, options, table, runs, rounds, cap, alpha or --synthetic); use --fresh or another --out", out.display());
            }
            if !same_runs(&old, settings, false) {
                eprintln!(
                    "{}: the race continues under the procedure of --procedure with the runs it holds (a run depends on its reading, puzzle, index and budget, not on the procedure that asked for it)",
                    meta.display()
                );
            }
        }
    }
    crate::protocol::lock::remove_stale_temps(out);
    crate::protocol::io::write_atomic(&meta, settings.as_bytes())?;
    Ok(lock)
}

/// Whether a folder's settings.json `old` and the race's `new` ask for the same runs: equal
/// but for a `confirm_seed` that `new` adds (a confirmation asked for on a race made without
/// one: its runs are its own file's) and, when `procedure` (`--procedure` given), the
/// race's procedure: a run's seed and budget do not depend on the procedure, so a folder
/// raced under one procedure may be raced again under another from the runs it holds
/// (`--resume --procedure P`), making only the runs the new procedure asks for beyond them.
fn same_runs(old: &str, new: &str, procedure: bool) -> bool {
    let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).ok();
    let (Some(mut old), Some(mut new)) = (parse(old), parse(new)) else {
        return false;
    };
    let (Some(o), Some(n)) = (old.as_object_mut(), new.as_object_mut()) else {
        return false;
    };
    if !o.contains_key("confirm_seed") {
        n.remove("confirm_seed");
    }
    if procedure {
        o.remove("procedure");
        n.remove("procedure");
    }
    old == new
}

//! The race from its order to its outputs, whatever drives it: the one place where an
//! [`Order`] is settled and validated into a [`Setup`] ([`prepare`]), a race's run file is
//! opened and shared, its [`Race`] built, run and confirmed, and every output written. Four
//! drivers run the same race: [`run`] makes every run on this machine; a cluster's rounds
//! ([`super::cluster`]) replay it with runs made by shards ([`Race::run`] stops at
//! [`super::race::Step::NeedsRuns`] until they are there) and end in [`write_outputs`];
//! `replay` of a race folder ([`super::replay`]) re-executes its runs; the calibration study
//! runs it on outcomes in memory ([`super::calibration`]).

use super::cells::Target;
use super::folder::{self, Driver};
use super::order::Order;
use super::outputs::{self, Findings};
use super::race::{rounds, Fate, Race};
use super::settings::Settings;
use super::store::Store;
use super::{confirm, confirm_report, default_out, md, synthetic, verdicts};
use super::{Access, Request, Setup};
use crate::protocol::Protocol;
use crate::reports::groups::PublishedRow;
use crate::spec::{self, Spec};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// A race ready to run: validated once, with its procedure and confirmation settled.
pub struct Prepared {
    pub setup: Setup,
    /// The race's folder.
    pub out: PathBuf,
    /// A synthetic race's hidden reading and its table's master seed.
    pub hidden: Option<(usize, u64)>,
}

impl Prepared {
    /// Everything the race's runs depend on ([`Settings`], settings.json).
    pub fn settings(&self) -> Settings {
        Settings::of(&self.setup, self.hidden)
    }
}

/// The race `order` asks for, as `driver` runs it: its folder (`--out`, else the default),
/// what the order leaves open settled from the folder's recorded settings ([`folder`]), then
/// validated into its [`Setup`], which is not changed after.
pub fn prepare(order: &Order, driver: Driver) -> Result<Prepared> {
    order.check()?;
    let (mut spec, base) = load_spec(&order.experiment)?;
    if let Some(s) = order.seed {
        spec.master_seed = s;
    }
    let published = order.published.as_deref().map(read_published).transpose()?;
    let master = spec.master_seed;
    let synthetic_seed = (order.synthetic.as_ref()).map(|_| {
        order
            .synthetic_seed
            .unwrap_or(synthetic::default_seed(master))
    });
    let out = match &order.out {
        Some(o) => o.clone(),
        None => default_out(
            &spec.id,
            &super::raced_label(&spec, &order.algorithm)?,
            order.synthetic.is_some(),
        ),
    };
    let recorded = folder::recorded(&out, order, driver)?;
    let procedure = folder::procedure(order, recorded.as_ref());
    let confirm_seed = folder::confirm_seed(
        order,
        (recorded.as_ref(), driver),
        procedure,
        (master, synthetic_seed),
    )?;
    let setup = Setup::new(Request {
        spec,
        base,
        algorithm: order.algorithm.clone(),
        published,
        options: order.options.clone(),
        max_runs: order.max_runs,
        rounds: order.rounds.clone(),
        cap_factor: (order.cap > 0.0).then_some(order.cap),
        mean_cap_factor: (order.mean_cap > 0.0).then_some(order.mean_cap),
        curtail: order.curtail,
        share: order.share,
        alpha: order.alpha,
        procedure,
        margins: order.margins,
        confirm_seed,
    })?;
    check_memory(&setup, order.threads)?;
    let hidden = (order.synthetic.as_deref())
        .map(|s| setup.space.find(s))
        .transpose()?;
    Ok(Prepared {
        setup,
        out,
        hidden: hidden.zip(synthetic_seed),
    })
}

/// The local driver: the race `order` asks for, every run made on this machine: its folder
/// claimed, command.json written, the synthetic table made (a synthetic race), the race run,
/// every output written.
pub fn run(order: &Order) -> Result<()> {
    let p = prepare(order, Driver::Local)?;
    let _lock = folder::claim(&p.out, order, &p.settings())?;
    write_command(order, &p)?;
    let rows = match p.hidden {
        Some((h, seed)) => {
            synthetic::table(&p.setup, h, seed, &p.out.join("synthetic"), order.threads)?
        }
        None => p.setup.rows.clone(),
    };
    let source = source(order.published.as_deref(), &p.setup, p.hidden.is_some());
    run_local(&p, &rows, order.threads, source)
}

/// command.json of the race `p` (the command that makes it: [`Order::command`]).
pub fn write_command(order: &Order, p: &Prepared) -> Result<()> {
    let command = order.command(&p.setup.request);
    crate::protocol::io::write_atomic(&p.out.join("command.json"), command.as_bytes())?;
    Ok(())
}

/// An embedded experiment id, or a spec file (with its folder, for its puzzle files).
fn load_spec(experiment: &str) -> Result<(Spec, Option<PathBuf>)> {
    let path = Path::new(experiment);
    if super::order::is_spec_file(experiment) {
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

/// A published table given with `--published`, read with a size limit and parsed.
fn read_published(path: &Path) -> Result<Vec<PublishedRow>> {
    let text = spec::read_spec(path)?;
    crate::reports::groups::parse_published(&text, &format!("--published {}", path.display()))
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

/// The race of `setup` on `protocol` (its readings times the raced entries as solvers),
/// its `targets` and cumulative `rounds`: the one place a race of a request is built (the
/// calibration study builds its own on simulated tables).
pub fn race<'a>(
    setup: &Setup,
    protocol: &'a Protocol<'a>,
    (targets, rounds): (&'a [Target], &'a [u64]),
    threads: usize,
    verbose: bool,
) -> Race<'a> {
    Race {
        protocol: Some(protocol),
        readings: protocol.solvers.len() / setup.entries.len().max(1),
        runs: &protocol.runs,
        targets,
        rounds,
        full: setup.full(),
        alpha: setup.request.alpha,
        threads,
        entries: setup.entries.len(),
        curtail: setup.request.curtail,
        procedure: setup.request.procedure,
        verbose,
    }
}

/// The race's run file in `out` (a new one with its header, or the one there read back and
/// checked), its readings sharing runs as the race does.
pub fn open_store(setup: &Setup, protocol: &Protocol, out: &Path) -> Result<Store> {
    setup.store(&out.join("runs.csv"), protocol, Access::Append)
}

/// Where the race's table comes from, as report.md says it.
pub fn source(published: Option<&Path>, setup: &Setup, synthetic: bool) -> String {
    match (synthetic, published) {
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

/// The race `p` against `rows` on this machine (every run the race asks for made here, on
/// `threads` threads), then every output.
fn run_local(p: &Prepared, rows: &[PublishedRow], threads: usize, source: String) -> Result<()> {
    let (setup, out) = (&p.setup, p.out.as_path());
    let targets = setup.targets(rows)?;
    if targets.is_empty() {
        bail!("no published row names a puzzle of the race");
    }
    let rounds = rounds(&setup.request.rounds, setup.max_runs());
    let protocol = setup.protocol()?;
    let mut store = open_store(setup, &protocol, out)?;
    let race = race(setup, &protocol, (&targets, &rounds), threads, true);
    if let Some(seed) = setup.request.confirm_seed {
        confirm::check(setup, seed, out)?;
    }
    let fates = race.decide(&mut store)?;
    write_outputs(
        setup,
        (rows, &targets),
        out,
        (&race, &fates, &store),
        p.hidden,
        source,
        threads,
    )
}

/// The race's files once it has ended: runs.csv sorted, published.csv, readings.csv,
/// power.csv and verdicts.csv, the confirmation (its runs made with `threads`, confirm.csv),
/// report.md, race.csv and the chart.
pub fn write_outputs(
    setup: &Setup,
    (rows, targets): (&[PublishedRow], &[Target]),
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
        standings: super::closest::standings(setup, race, fates, store),
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
    (targets, fates, rounds): (&[Target], &[Fate], usize),
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

//! The race from its setup to its outputs, whatever drives it: the one place where a
//! race's run file is opened and shared, its [`Race`] built, run and confirmed, and every
//! output written. Three drivers run the same race: [`run_local`] makes every run on this
//! machine; a cluster's rounds (`readings --shard` and `--merge-shards`) replay it with runs
//! made by shards ([`Race::run`] stops at [`super::race::Step::NeedsRuns`] until they are
//! there) and end in [`write_outputs`]; the calibration study runs it on outcomes in memory
//! ([`super::calibration`]).

use super::cells::Target;
use super::outputs::{self, Findings};
use super::race::{rounds, Fate, Race};
use super::store::Store;
use super::{confirm, confirm_report, md, verdicts, Setup};
use crate::protocol::Protocol;
use crate::reports::groups::PublishedRow;
use anyhow::{bail, Result};
use std::path::Path;

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
/// checked), its readings sharing runs as the race does: the one place a race's store opens.
pub fn open_store(setup: &Setup, protocol: &Protocol, out: &Path) -> Result<Store> {
    let store = Store::open(&out.join("runs.csv"), protocol, setup.full(), true)?;
    Ok(setup.sharing(store))
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

/// The local driver: race `setup` against `rows` into `out` on this machine (every run the
/// race asks for made here, on `threads` threads), then write every output.
pub fn run_local(
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
        hidden,
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

//! `sudoku-lab readings ... --shard K/N` and `--merge-shards N`: a race whose runs are made
//! by the array jobs of a cluster, one round of shards at a time (docs/cluster.md).
//!
//! The race folder (`--out`) is the one a single machine writes. Between rounds, the race is
//! replayed from its runs.csv: where it stops for runs it has not got, the runs that look
//! needs (every run of the surviving readings on that row and stage) are the next round.
//! `--shard K/N` makes the K-th share of them into `SHARD-DIR/shard-K.csv`; `--merge-shards
//! N` checks the N shard files, takes into runs.csv exactly the runs the race asks for, and
//! goes on until the race ends (its outputs written, exit 0) or needs another round (exit 3).
//! A race with a confirmation gets one more round after it has ended: the shards make the
//! confirmation's runs (at its master seed), the decision takes them into confirm-runs.csv,
//! then writes the outputs.

use super::engine::{self, Prepared};
use super::folder::{self, Driver};
use super::order::Order;
use super::race::{rounds, Fate, Race, Step};
use super::shard;
use super::store::{Job, Pending, Store};
use super::{confirm, Setup};
use anyhow::{bail, Context, Result};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Where a cluster's race stands after a command of its rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Done: a shard's share made, or the race ended with its outputs written.
    Done,
    /// The race needs another round of shards (`--merge-shards` exits with 3).
    AnotherRound,
}

/// The race `order` asks for on a cluster (its folder `--out`): what the order leaves open
/// settled from the folder's own settings whenever it has them, as every round resumes it.
fn prepare(order: &Order) -> Result<Prepared> {
    if order.out.is_none() {
        bail!("--shard and --merge-shards need --out (the race's folder)");
    }
    if order.synthetic.is_some() {
        bail!("--synthetic: a race against a synthetic table is not run in shards");
    }
    engine::prepare(order, Driver::Cluster)
}

/// `--shard K/N`: the K-th share of the runs the race needs next, into SHARD-DIR/shard-K.csv
/// (resumed when it exists: its runs are not made again), then SHARD-DIR/shard-K.done.
pub fn share(order: &Order, dir: &Path, (k, n): (usize, usize)) -> Result<Next> {
    let p = prepare(order)?;
    make_share(order, &p, dir, (k, n))
}

/// `--merge-shards N`: the N shard files of SHARD-DIR checked and taken into the race (its
/// folder created when new), which goes on until it ends or needs another round.
pub fn merge_shards(order: &Order, dir: &Path, n: usize) -> Result<Next> {
    let p = prepare(order)?;
    // Every round resumes the folder.
    let order = Order {
        folder: super::order::Folder::Resume,
        ..order.clone()
    };
    merge(&order, &p, dir, n)
}

/// The race of `setup` replayed on `store`: decided, or the runs it needs that the store and
/// its pool do not hold.
fn replay(setup: &Setup, store: &mut Store) -> Result<Step> {
    let targets = setup.targets(&setup.rows)?;
    if targets.is_empty() {
        bail!("no published row names a puzzle of the race");
    }
    let rounds = rounds(&setup.request.rounds, setup.max_runs());
    let protocol = setup.protocol()?;
    race(setup, &protocol, &targets, &rounds, 1).run(store)
}

/// The race (as `readings` runs it on one machine).
fn race<'a>(
    setup: &Setup,
    protocol: &'a crate::protocol::Protocol<'a>,
    targets: &'a [super::cells::Target],
    rounds: &'a [u64],
    threads: usize,
) -> Race<'a> {
    engine::race(setup, protocol, (targets, rounds), threads, false)
}

/// The race's runs.csv read back (nothing written), its readings sharing runs as the race
/// does.
fn stored(setup: &Setup, out: &Path) -> Result<Store> {
    let protocol = setup.protocol()?;
    setup.store(&out.join("runs.csv"), &protocol, super::Access::Read)
}

/// The race in `out` replayed from its runs.csv alone: decided, or what it needs next.
fn replay_stored(setup: &Setup, out: &Path) -> Result<Step> {
    let mut store = stored(setup, out)?;
    store.set_pool(HashMap::new());
    replay(setup, &mut store)
}

/// What the race in `out` needs next (None: it has ended), from its runs.csv alone.
fn next_round(setup: &Setup, out: &Path) -> Result<Option<Pending>> {
    Ok(match replay_stored(setup, out)? {
        Step::Decided(_) => None,
        Step::NeedsRuns(p) => Some(p),
    })
}

/// Shard K's share of the runs the race `p` needs next (or of its confirmation's).
fn make_share(order: &Order, p: &Prepared, dir: &Path, (k, n): (usize, usize)) -> Result<Next> {
    let (setup, out) = (&p.setup, p.out.as_path());
    let meta = out.join("settings.json");
    if !meta.exists() {
        bail!(
            "cannot read {} (the race's folder is made by --merge-shards first)",
            meta.display()
        );
    }
    let recorded = super::settings::Settings::read(&meta)?;
    if !recorded.same(&p.settings()) {
        bail!(
            "{}: the race in this folder was made with other settings than these arguments",
            meta.display()
        );
    }
    let next = match replay_stored(setup, out)? {
        Step::Decided(fates) => return confirm_share(order, setup, out, dir, (k, n), &fates),
        Step::NeedsRuns(next) => next,
    };
    let protocol = setup.protocol()?;
    let round = Round {
        jobs: &next.jobs,
        at: &next.at,
        protocol: &protocol,
    };
    write_share(order, setup, dir, (k, n), round)
}

/// The runs a round of shards makes: all of them (each shard makes its share), where the
/// race stands, and the protocol that seeds them (the race's, or its confirmation's).
struct Round<'a> {
    jobs: &'a [Job],
    at: &'a str,
    protocol: &'a crate::protocol::Protocol<'a>,
}

/// Make shard K's share of `round` into SHARD-DIR/shard-K.csv (resumed when it exists), then
/// SHARD-DIR/shard-K.done.
fn write_share(
    order: &Order,
    setup: &Setup,
    dir: &Path,
    (k, n): (usize, usize),
    round: Round,
) -> Result<Next> {
    let mine: Vec<_> = (round.jobs.iter().copied())
        .filter(|&j| shard::owner(j, n) == k)
        .collect();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // One process per shard file: a task Slurm started twice (a requeue while the first still
    // runs) is refused instead of appending to the same file.
    let what = format!("shard {k} of this round; a second task of one shard is refused");
    let _lock = crate::protocol::lock::Lock::take_file(dir, &format!(".shard-{k}.lock"), &what)?;
    let protocol = round.protocol;
    // A shard's own file: its runs are made as asked, not shared.
    let mut file = Store::open(&shard::file(dir, k), protocol, setup.full(), true)?;
    file.execute_logged(protocol, &mine, order.threads, &format!("shard {k}/{n}"))?;
    let done = dir.join(format!("shard-{k}.done"));
    let total = round.jobs.len();
    let note = format!("{} runs of {total} ({})\n", mine.len(), round.at);
    crate::protocol::io::write_atomic(&done, note.as_bytes())?;
    println!(
        "shard {k}/{n}: {} of the {total} runs of the next round ({}) in {}",
        mine.len(),
        round.at,
        shard::file(dir, k).display()
    );
    Ok(Next::Done)
}

/// The race has ended with `fates`: shard K's share of its confirmation's runs still missing (at the
/// confirmation's master seed), or nothing when the race has no confirmation or the
/// confirmation has every run.
fn confirm_share(
    order: &Order,
    setup: &Setup,
    out: &Path,
    dir: &Path,
    (k, n): (usize, usize),
    fates: &[Fate],
) -> Result<Next> {
    let ended = || {
        println!(
            "the race in {} has ended: shard {k}/{n} has nothing to make",
            out.display()
        );
        Ok(Next::Done)
    };
    let Some(seed) = setup.request.confirm_seed else {
        return ended();
    };
    with_confirmation(setup, out, (fates, seed), |_, protocol, needed| {
        if needed.is_empty() {
            return ended();
        }
        let at = format!("the confirmation at master seed {seed}");
        let round = Round {
            jobs: &needed,
            at: &at,
            protocol,
        };
        write_share(order, setup, dir, (k, n), round)
    })
}

/// The confirmation at master seed `seed` of the race in `out` that ended with `fates`:
/// `f` gets its plan, its protocol (the confirmation's seeds) and the runs its
/// confirm-runs.csv lacks.
fn with_confirmation<T>(
    setup: &Setup,
    out: &Path,
    (fates, seed): (&[Fate], u64),
    f: impl FnOnce(&confirm::Plan, &crate::protocol::Protocol, Vec<Job>) -> Result<T>,
) -> Result<T> {
    let targets = setup.targets(&setup.rows)?;
    let rounds = rounds(&setup.request.rounds, setup.max_runs());
    let plan = confirm::Plan {
        setup,
        targets: &targets,
        fates,
        rounds: rounds.len(),
        seed,
    };
    let (spec, loaded) = confirm::confirm_spec(setup, seed);
    let protocol = crate::protocol::Protocol::new(&spec, &loaded, None, None)?;
    let needed = confirm::missing(&plan, out, &protocol)?;
    f(&plan, &protocol, needed)
}

/// The race has ended in this decision: its confirmation's runs, made by a round of shards
/// of their own. When `race_round` (this decision took the race's last runs from `dir`), or
/// when no shard file of `dir` holds a confirmation run yet, another round (exit 3). Else the
/// runs are taken from the shard files of `dir` (checked as the race's are: every one there,
/// or the shards lacking some named) into confirm-runs.csv, and None: the race's outputs can
/// be written, the confirmation judged without a run made here.
fn confirm_round(
    setup: &Setup,
    out: &Path,
    (dir, n): (&Path, usize),
    fates: &[Fate],
    race_round: bool,
) -> Result<Option<Next>> {
    let Some(seed) = setup.request.confirm_seed else {
        return Ok(None);
    };
    with_confirmation(setup, out, (fates, seed), |plan, protocol, needed| {
        if needed.is_empty() {
            return Ok(None);
        }
        let another = || {
            println!(
                "another round: {} runs (the confirmation at master seed {seed})",
                needed.len()
            );
            Ok(Some(Next::AnotherRound))
        };
        if race_round {
            return another();
        }
        let asked: HashSet<Job> = needed.iter().copied().collect();
        let made = confirm::stored(setup, out, protocol)?;
        let pool = shard::read(dir, n, protocol, setup.full(), &made, &asked)?;
        if !pool.keys().any(|j| asked.contains(j)) {
            return another();
        }
        let lacking: Vec<Job> = (needed.iter().copied())
            .filter(|j| !pool.contains_key(j))
            .collect();
        if !lacking.is_empty() {
            bail!(
                "the shards of {} have not made every run the confirmation asked for: {}; run those shards again",
                dir.display(),
                lacking_shards(dir, &lacking, n)
            );
        }
        confirm::take(plan, out, protocol, pool)?;
        Ok(None)
    })
}

/// Each shard of `dir` whose share of `lacking` is not empty, with how many it lacks.
fn lacking_shards(dir: &Path, lacking: &[Job], n: usize) -> String {
    let shards: Vec<String> = (shard::lacking(lacking, n).iter())
        .map(|(k, c)| format!("{} lacks {c}", shard::file(dir, *k).display()))
        .collect();
    shards.join(", ")
}

/// The shard files of SHARD-DIR checked and taken into the race `p` (its folder claimed and
/// its command.json written), which goes on until it ends or needs another round.
fn merge(order: &Order, p: &Prepared, dir: &Path, n: usize) -> Result<Next> {
    let (setup, out) = (&p.setup, p.out.as_path());
    let _lock = folder::claim(out, order, &p.settings())?;
    engine::write_command(order, p)?;
    let protocol = setup.protocol()?;
    // The runs.csv of a new folder (its header), or the one there, checked.
    drop(engine::open_store(setup, &protocol, out)?);
    let asked = next_round(setup, out)?;
    let mut store = engine::open_store(setup, &protocol, out)?;
    if let Some(asked) = &asked {
        let jobs: HashSet<_> = asked.jobs.iter().copied().collect();
        let pool = shard::read(dir, n, &protocol, setup.full(), &store, &jobs)?;
        // None of the runs asked: the round has not run (a new race, or a decision run
        // again after it took them).
        if !pool.keys().any(|j| jobs.contains(j)) {
            println!("another round: {} runs ({})", asked.jobs.len(), asked.at);
            return Ok(Next::AnotherRound);
        }
        let lacking: Vec<_> = (asked.jobs.iter().copied())
            .filter(|j| !pool.contains_key(j))
            .collect();
        if !lacking.is_empty() {
            bail!(
                "the shards of {} have not made every run the race asked for ({}): {}; run those shards again",
                dir.display(),
                asked.at,
                lacking_shards(dir, &lacking, n)
            );
        }
        store.set_pool(pool);
    }
    // The confirmation's runs, checked before the race goes on (they are made, on this
    // node, once the race has ended).
    if let Some(seed) = setup.request.confirm_seed {
        confirm::check(setup, seed, out)?;
    }
    match replay(setup, &mut store)? {
        Step::Decided(fates) => match confirm_round(setup, out, (dir, n), &fates, asked.is_some())?
        {
            Some(code) => Ok(code),
            None => finish(order, setup, out, &store, &fates),
        },
        Step::NeedsRuns(p) => {
            println!("another round: {} runs ({})", p.jobs.len(), p.at);
            Ok(Next::AnotherRound)
        }
    }
}

/// The race has ended: its outputs, as `readings` writes them on one machine.
fn finish(order: &Order, setup: &Setup, out: &Path, store: &Store, fates: &[Fate]) -> Result<Next> {
    let targets = setup.targets(&setup.rows)?;
    let rounds = rounds(&setup.request.rounds, setup.max_runs());
    let protocol = setup.protocol()?;
    let threads = order.threads;
    let race = race(setup, &protocol, &targets, &rounds, threads);
    let source = engine::source(order.published.as_deref(), setup, false);
    let rows = (setup.rows.as_slice(), targets.as_slice());
    engine::write_outputs(
        setup,
        rows,
        out,
        (&race, fates, store),
        None,
        source,
        threads,
    )?;
    println!("the race has ended: {}", out.join("report.md").display());
    Ok(Next::Done)
}

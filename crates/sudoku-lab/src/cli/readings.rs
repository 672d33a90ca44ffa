//! `sudoku-lab readings`: the command's flags parsed into an [`Order`] and handed to the race
//! engine ([`crate::readings::engine`]: on this machine; [`crate::readings::cluster`]: the
//! rounds of a cluster), `replay` of a race folder, the calibration study, the summary.

use super::args::ReadingsArgs;
use crate::readings::cluster::{self, Next};
use crate::readings::order::{Confirm, Folder, Order};
use crate::readings::procedure::Procedure;
use crate::readings::verdicts::Margins;
use crate::readings::{engine, replay};
use crate::spec;
use anyhow::{bail, Context, Result};
use clap::Parser;
use std::path::Path;
use std::process::ExitCode;

/// The most threads a race may start.
const MAX_THREADS: usize = 1024;

/// The exit code of `--merge-shards` when the race needs another round of shards.
pub const ANOTHER_ROUND: u8 = 3;

pub fn readings(a: &ReadingsArgs) -> Result<ExitCode> {
    let order = order(a)?;
    let dir = a.shard_dir.clone().unwrap_or_default();
    let next = match (&a.shard, a.merge_shards) {
        (Some(s), _) => cluster::share(&order, &dir, parse_shard(s)?)?,
        (None, Some(n)) => cluster::merge_shards(&order, &dir, checked(n)?)?,
        (None, None) => {
            engine::run(&order)?;
            Next::Done
        }
    };
    Ok(match next {
        Next::Done => ExitCode::SUCCESS,
        Next::AnotherRound => ExitCode::from(ANOTHER_ROUND),
    })
}

/// The race `a` asks for, in the engine's terms.
fn order(a: &ReadingsArgs) -> Result<Order> {
    let procedure = (a.procedure.as_deref())
        .map(|p| {
            Procedure::parse(p)
                .with_context(|| format!("--procedure {p}: not a procedure (v1, v2 or v3)"))
        })
        .transpose()?;
    Ok(Order {
        experiment: a.experiment.clone(),
        algorithm: a.algorithm.clone(),
        published: a.published.clone(),
        options: a.options.clone(),
        max_runs: a.max_runs,
        rounds: a.rounds.clone(),
        cap: a.cap,
        mean_cap: a.mean_cap,
        alpha: a.alpha,
        margins: Margins {
            success: a.margin_success,
            mean: a.margin_mean,
        },
        procedure,
        out: a.out.clone(),
        threads: threads(a.threads)?,
        folder: match (a.resume, a.fresh) {
            (true, _) => Folder::Resume,
            (_, true) => Folder::Fresh,
            _ => Folder::New,
        },
        curtail: !a.no_curtail,
        share: !a.no_shared_runs,
        synthetic: a.synthetic.clone(),
        synthetic_seed: a.synthetic_seed,
        seed: a.seed,
        confirm: match (a.no_confirm, a.confirm_seed) {
            (true, _) => Confirm::Off,
            (_, Some(s)) => Confirm::Seed(s),
            _ => Confirm::Default,
        },
    })
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
        _ => bail!("--shard {s}: expected k/n with 1 <= k <= n <= 100000 (e.g. 2/4)"),
    }
}

fn checked(n: usize) -> Result<usize> {
    if n == 0 || n > 100_000 {
        bail!("--merge-shards {n}: expected a number of shards from 1 to 100000");
    }
    Ok(n)
}

/// `sudoku-lab replay DIR` of a race folder (command.json and settings.json, no meta.json):
/// the race its command.json orders, replayed ([`replay::race`]). Nothing is written. Exit 0
/// when every replayed run is identical, 1 otherwise.
pub fn replay_race(dir: &Path, every: usize, threads_flag: Option<usize>) -> Result<ExitCode> {
    let a = race_args(&dir.join("command.json"))?;
    let order = Order {
        threads: threads(threads_flag)?,
        ..order(&a)?
    };
    Ok(match replay::race(&order, dir, every)? {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
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

pub(super) fn threads(t: Option<usize>) -> Result<usize> {
    Ok(match t {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) if t > MAX_THREADS => bail!("--threads {t} is over the limit of {MAX_THREADS}"),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    })
}

//! `sudoku-lab replay DIR` of a race folder (command.json and settings.json, no meta.json):
//! the race its command.json orders, which must make its settings.json; its run file read and
//! checked against the race's plan, and every `every`-th run executed again and compared.
//! Nothing is written.

use super::engine;
use super::folder::Driver;
use super::order::Order;
use super::settings::Settings;
use super::{confirm, store::Store};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// Replay the race in `dir` that `order` (its command.json) makes: whether every replayed
/// run is identical. Each different run is printed, then the count.
pub fn race(order: &Order, dir: &Path, every: usize) -> Result<bool> {
    let order = Order {
        out: Some(dir.to_path_buf()),
        ..order.clone()
    };
    let p = engine::prepare(&order, Driver::Replay).with_context(|| recorded_race(dir, &order))?;
    let setup = &p.setup;
    if setup.spec.algorithms.iter().any(|x| x.is_external()) {
        bail!(
            "{}: a race of an external solver is not replayed",
            dir.join("command.json").display()
        );
    }
    let recorded = Settings::read(&dir.join("settings.json"))?;
    if !recorded.same(&p.settings()) {
        bail!(
            "{}: settings.json is not the settings of that race: the spec or table it names, or one of the two files, changed since the race",
            recorded_race(dir, &order)
        );
    }
    let protocol = setup.protocol()?;
    let threads = order.threads;
    let store = Store::read_only(&dir.join("runs.csv"), &protocol, setup.full())?;
    let (mut replayed, mut differ) = store.replay(&protocol, every, threads)?;
    // The confirmation's runs, under its own master seed.
    let confirm_runs = dir.join(confirm::RUNS);
    if let (Some(seed), true) = (setup.request.confirm_seed, confirm_runs.exists()) {
        let (spec, loaded) = confirm::confirm_spec(setup, seed);
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
    Ok(differ.is_empty())
}

/// The race in `dir` as its errors name it: the folder, its command.json and what that
/// makes (`readings SPEC`), with a note when it names a spec file or a `--published` table
/// by a relative name (races recorded before the names were made absolute), which is read
/// from the current folder.
fn recorded_race(dir: &Path, order: &Order) -> String {
    let files = std::iter::once(&order.experiment)
        .filter(|_| order.is_spec_file())
        .map(PathBuf::from)
        .chain(order.published.clone());
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
        order.experiment
    )
}

//! A race's folder: the settings it records settle what an [`Order`] leaves open (the
//! procedure, the confirmation) before the race is validated, and a race claims it (created,
//! locked, checked, settings.json written) before it writes anything else there.

use super::confirm;
use super::order::{Confirm, Folder, Order};
use super::procedure::Procedure;
use super::settings::Settings;
use crate::protocol::lock::Lock;
use anyhow::{bail, Context, Result};
use std::path::Path;

/// Who reads a folder's recorded settings, and so how they settle an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Driver {
    /// `readings` on this machine: a resumed folder's own (with `--resume`), else the
    /// defaults.
    Local,
    /// A cluster's rounds: the folder's own whenever it has one (every round resumes it).
    Cluster,
    /// `replay` of a race folder: the folder's own, which must be there.
    Replay,
}

/// The settings a race in `out` goes on from, as `driver` reads them (None: a new race).
pub fn recorded(out: &Path, order: &Order, driver: Driver) -> Result<Option<Settings>> {
    let meta = out.join("settings.json");
    let read = match driver {
        Driver::Local => order.folder == Folder::Resume && meta.is_file(),
        Driver::Cluster => meta.is_file(),
        Driver::Replay => true,
    };
    Ok(match read {
        true => Some(Settings::read(&meta)?),
        false => None,
    })
}

/// The procedure of the race: `--procedure`, else the recorded folder's own (v1 where its
/// settings.json names none: races made before the versions), else v3.
pub fn procedure(order: &Order, recorded: Option<&Settings>) -> Procedure {
    (order.procedure)
        .or(recorded.map(Settings::procedure))
        .unwrap_or(Procedure::V3)
}

/// The confirmation's master seed: none with `--no-confirm`; `--confirm-seed`; else the
/// recorded folder's own; else, for a v2 or v3 race, [`confirm::default_seed`] of the master
/// seed, also for a v2 folder made before the confirmation (its runs are unchanged; the
/// confirmation's are its own file's) unless it is replayed as recorded; a v1 race: none
/// unless asked, so the v1 races made before it keep their settings. It must differ from the
/// race's master seed and the synthetic table's (`seeds`: those two).
pub fn confirm_seed(
    order: &Order,
    (recorded, driver): (Option<&Settings>, Driver),
    procedure: Procedure,
    (master, synthetic): (u64, Option<u64>),
) -> Result<Option<u64>> {
    let seed = match (order.confirm, recorded) {
        (Confirm::Off, _) => None,
        (Confirm::Seed(s), _) => Some(s),
        (Confirm::Default, Some(r)) if r.confirm_seed.is_some() || driver == Driver::Replay => {
            r.confirm_seed
        }
        (Confirm::Default, _) if procedure.spends_alpha() => {
            let avoid: Vec<u64> = std::iter::once(master).chain(synthetic).collect();
            Some(confirm::default_seed(master, &avoid))
        }
        (Confirm::Default, _) => None,
    };
    if let Some(s) = seed {
        if s == master || Some(s) == synthetic {
            bail!("--confirm-seed {s} is the seed of the race's or the synthetic table's runs: the confirmation needs runs of its own");
        }
    }
    Ok(seed)
}

/// Create and lock the folder; refuse earlier race files unless the order resumes (with the
/// same settings) or starts fresh (which removes them); write settings.json.
pub fn claim(out: &Path, order: &Order, settings: &Settings) -> Result<Lock> {
    if out.exists() && !out.is_dir() {
        bail!("--out {} exists and is not a folder", out.display());
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let lock = Lock::take(out)?;
    // Every file of the folder is one the race may read or replace: no link or device among
    // them, refused before anything is written.
    crate::protocol::io::check_folder_files(out)?;
    let (runs, meta) = (out.join("runs.csv"), out.join("settings.json"));
    if order.folder == Folder::Fresh {
        remove_race_files(out)?;
    } else if runs.exists() || meta.exists() {
        if order.folder != Folder::Resume {
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
        if !old.same_runs(settings, order.procedure.is_some()) {
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

/// `--fresh`: the race's files in `out` removed (its runs, settings, confirmation and
/// synthetic table).
fn remove_race_files(out: &Path) -> Result<()> {
    let files = [
        out.join("runs.csv"),
        out.join("settings.json"),
        out.join(confirm::RUNS),
        out.join(confirm::CSV),
    ];
    for f in files.iter().filter(|f| f.exists()) {
        std::fs::remove_file(f).with_context(|| format!("cannot remove {}", f.display()))?;
    }
    let synthetic = out.join("synthetic");
    if synthetic.exists() {
        std::fs::remove_dir_all(&synthetic)
            .with_context(|| format!("cannot remove {}", synthetic.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::verdicts::Margins;

    fn order(procedure: Option<Procedure>, confirm: Confirm) -> Order {
        Order {
            experiment: "ret-ga-table1".into(),
            algorithm: "ret-ga".into(),
            published: None,
            options: Vec::new(),
            max_runs: None,
            rounds: vec![5],
            cap: 2.0,
            mean_cap: 20.0,
            alpha: 0.05,
            margins: Margins::DEFAULT,
            procedure,
            out: None,
            threads: 1,
            folder: Folder::Resume,
            curtail: true,
            share: true,
            synthetic: None,
            synthetic_seed: None,
            seed: None,
            confirm,
        }
    }

    fn recorded(procedure: Option<Procedure>, confirm_seed: Option<u64>) -> Settings {
        Settings {
            version: 2,
            algorithm: "ret-ga".into(),
            alpha: 0.05,
            cap: 2.0,
            confirm_seed,
            curtail: None,
            keys: Vec::new(),
            margins: None,
            mean_cap: None,
            procedure,
            published: Vec::new(),
            rounds: vec![5],
            runs: vec![5],
            shared_runs: None,
            spec: serde_json::Value::Null,
            synthetic: None,
            values: Vec::new(),
        }
    }

    #[test]
    fn the_procedure_is_the_flag_else_the_folders_else_v3() {
        use Procedure::*;
        let cases = [
            (Some(V2), Some(recorded(Some(V1), None)), V2),
            (None, Some(recorded(Some(V2), None)), V2),
            // A folder made before the versions names none: v1.
            (None, Some(recorded(None, None)), V1),
            (None, None, V3),
            (Some(V1), None, V1),
        ];
        for (flag, folder, want) in cases {
            let o = order(flag, Confirm::Default);
            assert_eq!(procedure(&o, folder.as_ref()), want, "{flag:?} {folder:?}");
        }
    }

    #[test]
    fn the_confirmation_is_settled_before_the_race_is_validated() {
        use Confirm::*;
        use Driver::*;
        use Procedure::*;
        let master = 20;
        let default = confirm::default_seed(master, &[master]);
        let (with, without) = (recorded(Some(V2), Some(7)), recorded(Some(V2), None));
        type Case<'a> = (
            Confirm,
            Option<&'a Settings>,
            Driver,
            Procedure,
            Option<u64>,
        );
        let cases: [Case; 10] = [
            (Off, Some(&with), Local, V3, None),
            (Seed(9), Some(&with), Local, V3, Some(9)),
            (Default, Some(&with), Local, V2, Some(7)),
            (Default, Some(&with), Replay, V2, Some(7)),
            // A v2 folder made before the confirmation gets the default when resumed, and
            // is replayed as it was made.
            (Default, Some(&without), Local, V2, Some(default)),
            (Default, Some(&without), Cluster, V2, Some(default)),
            (Default, Some(&without), Replay, V2, None),
            (Default, None, Local, V3, Some(default)),
            (Default, None, Local, V1, None),
            (Seed(5), None, Local, V1, Some(5)),
        ];
        for (c, folder, driver, p, want) in cases {
            let o = order(None, c);
            let got = confirm_seed(&o, (folder, driver), p, (master, None)).unwrap();
            assert_eq!(got, want, "{c:?} {driver:?} {p:?}");
        }
        // The race's or the synthetic table's own seed is refused.
        for (seed, synthetic) in [(master, None), (21, Some(21))] {
            let o = order(None, Seed(seed));
            let e = confirm_seed(&o, (None, Local), V3, (master, synthetic)).unwrap_err();
            assert!(e.to_string().starts_with("--confirm-seed"), "{e}");
        }
    }
}

//! `sudoku-lab merge OUT SHARD...`: the folders of `--shard 1/n` ... `--shard n/n` joined into
//! the folder a single machine would have written (issue 11).
//!
//! Checked before anything is written: every shard's `meta.json` is complete and names a shard
//! `k/n` with the same n; the shards are exactly 1..=n (none missing, none twice); they share
//! the spec, master seed, runs, `--quick` setting and git revision; every row of a shard's
//! `runs.csv` is a run of the plan that the shard rule ([`crate::protocol::shard_assignment`])
//! gives to that shard, no run appears twice, and together they cover the plan. Then OUT gets
//! the rows (and trajectory blocks), a `meta.json` with every shard's sessions and the sum of
//! their wall times, and is finished as a `--resume` of the whole protocol: runs.csv and
//! trajectories.csv rewritten in plan order, every table and chart written. The puzzles are
//! loaded as `replay` loads them (embedded files for relative paths).

use crate::protocol::io::{for_each_row, HEADER};
use crate::protocol::meta::Settings;
use crate::protocol::plan::{shard_assignment, IndexSet, Plan};
use crate::spec::Spec;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// One shard folder, read and checked.
struct Shard {
    dir: PathBuf,
    k: usize,
    n: usize,
    meta: serde_json::Value,
    settings: Settings,
    revision: String,
}

fn read_shard(dir: &Path) -> Result<Shard> {
    let path = dir.join("meta.json");
    let meta = crate::protocol::meta::read_json(&path)?;
    let settings: Settings = serde_json::from_value(meta["settings"].clone())
        .with_context(|| format!("{}: no settings", path.display()))?;
    let status = meta["status"].as_str().unwrap_or("");
    if !status.starts_with("complete") {
        bail!(
            "{}: status '{status}', not complete: finish the shard first (--resume)",
            dir.display()
        );
    }
    let Some((k, n)) = settings
        .shard
        .as_deref()
        .and_then(|s| s.split_once('/'))
        .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)))
    else {
        bail!(
            "{}: not a shard folder (no --shard in its meta.json)",
            dir.display()
        );
    };
    let revision = meta["git_revision"].as_str().unwrap_or("").to_string();
    Ok(Shard {
        dir: dir.to_path_buf(),
        k,
        n,
        meta,
        settings,
        revision,
    })
}

/// The shards agree on everything but their index and form exactly 1..=n.
fn check_set(shards: &[Shard]) -> Result<()> {
    let first = &shards[0];
    let mut seen = vec![false; first.n];
    for s in shards {
        let mut a = s.settings.clone();
        let mut b = first.settings.clone();
        a.shard = None;
        b.shard = None;
        if s.n != first.n {
            bail!(
                "{}: shard of {} folders, {} of {}",
                s.dir.display(),
                s.n,
                first.dir.display(),
                first.n
            );
        }
        if serde_json::to_value(&a)? != serde_json::to_value(&b)? {
            bail!(
                "{} and {}: made with other settings (spec, seed, runs or --quick)",
                s.dir.display(),
                first.dir.display()
            );
        }
        if s.revision != first.revision {
            bail!(
                "{} (revision {}) and {} (revision {}): made by other versions of sudoku-lab",
                s.dir.display(),
                s.revision,
                first.dir.display(),
                first.revision
            );
        }
        if std::mem::replace(&mut seen[s.k - 1], true) {
            bail!(
                "{}: shard {}/{} is given twice (overlapping shards)",
                s.dir.display(),
                s.k,
                s.n
            );
        }
    }
    if let Some(k) = seen.iter().position(|x| !x) {
        bail!("shard {}/{} is missing", k + 1, first.n);
    }
    Ok(())
}

/// What `merge` joined: the spec and settings of the whole protocol (the shards' without the
/// shard), for the caller to finish OUT as a `--resume` of it.
pub struct Merged {
    pub spec: Spec,
    pub settings: Settings,
    pub shards: usize,
}

/// Check the shard folders `dirs` and join them into `out`: runs.csv (and trajectories.csv)
/// with every run of the plan once, and meta.json. The reports are not written here.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> Result<Merged> {
    let shards: Vec<Shard> = dirs.iter().map(|d| read_shard(d)).collect::<Result<_>>()?;
    check_set(&shards)?;
    let first = &shards[0];
    let spec: Spec = serde_json::from_value(first.meta["spec"].clone())
        .with_context(|| format!("{}: no spec in meta.json", first.dir.display()))?;
    let s = &first.settings;
    let forced = s.quick.then_some(s.runs).or(s.forced_runs);
    let spec_dir = first.meta["spec_dir"].as_str().map(PathBuf::from);
    let loaded = spec.load_puzzles(spec_dir.as_deref(), s.quick, forced)?;
    let cap = s.quick.then_some(spec.quick_max_generations);
    let costs: Vec<u64> = (spec.algorithms.iter())
        .map(|a| crate::algos::expected_cost(&a.budget(cap)))
        .collect();
    let plan = Plan::new(&spec, &loaded.puzzles, &loaded.runs, &loaded.algorithm_runs);
    if out.join("runs.csv").exists() {
        bail!(
            "{}: runs.csv exists; merge into a new folder",
            out.display()
        );
    }
    // Every row checked before anything is written.
    check_rows(&plan, &shard_assignment(&plan, &costs, first.n), &shards)?;
    write_merged(out, &shards, spec.anytime)?;
    Ok(Merged {
        spec,
        settings: first.settings.clone(),
        shards: shards.len(),
    })
}

/// Every row of every shard is a run of the plan that the shard rule gives to that shard, no
/// run appears twice, and together they cover the plan.
fn check_rows(plan: &Plan, owner: &[u32], shards: &[Shard]) -> Result<()> {
    let mut seen = IndexSet::empty(plan.len());
    for sh in shards {
        let path = sh.dir.join("runs.csv");
        for_each_row(&path, |r| {
            let run = format!("{}/{}/{}", r.algorithm, r.puzzle, r.run);
            let Some(i) = plan.index_of(&r.algorithm, &r.puzzle, r.run) else {
                bail!("{}: run {run} is not in the plan", path.display());
            };
            let k = owner[i as usize] as usize + 1;
            if k != sh.k {
                bail!(
                    "{}: run {run} belongs to shard {k}, not {}",
                    path.display(),
                    sh.k
                );
            }
            if !seen.insert(i) {
                bail!("{}: run {run} appears twice", path.display());
            }
            Ok(())
        })?;
    }
    if let Some(i) = (0..plan.len()).find(|&i| !seen.contains(i)) {
        let j = plan.job(i);
        bail!(
            "run {}/{}/{} of shard {} is missing: finish that shard (--resume)",
            plan.algorithm_label(j.algorithm),
            plan.puzzle_id(j.puzzle),
            j.run,
            owner[i as usize] + 1
        );
    }
    Ok(())
}

/// runs.csv (the shards' rows), trajectories.csv (the shards' blocks; both put in plan order by
/// the resume that follows) and a meta.json whose settings are the shards' without the shard,
/// with every shard's sessions and the sum of their wall times. The files are streamed, not
/// held.
fn write_merged(out: &Path, shards: &[Shard], anytime: bool) -> Result<()> {
    use crate::protocol::io::{write_atomic, write_atomic_with};
    use crate::protocol::trajectory::{FILE, HEADER as TRAJ_HEADER};
    use std::io::{BufRead, Write};
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    if anytime {
        write_atomic_with(&out.join(FILE), |w| {
            writeln!(w, "{TRAJ_HEADER}")?;
            for sh in shards {
                let path = sh.dir.join(FILE);
                let f = std::fs::File::open(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                for line in std::io::BufReader::new(f).lines().skip(1) {
                    let line = line.with_context(|| format!("cannot read {}", path.display()))?;
                    writeln!(w, "{line}")?;
                }
            }
            Ok(())
        })?;
    }
    let mut meta = shards[0].meta.clone();
    meta["settings"]
        .as_object_mut()
        .context("meta.json settings")?
        .remove("shard");
    let wall: f64 = shards
        .iter()
        .filter_map(|s| s.meta["wall_seconds"].as_f64())
        .sum();
    meta["wall_seconds"] = serde_json::json!(wall);
    let sessions: Vec<serde_json::Value> = shards
        .iter()
        .flat_map(|s| s.meta["sessions"].as_array().cloned().unwrap_or_default())
        .collect();
    meta["sessions"] = serde_json::Value::Array(sessions);
    write_atomic(
        &out.join("meta.json"),
        serde_json::to_string_pretty(&meta)?.as_bytes(),
    )?;
    write_atomic_with(&out.join("runs.csv"), |w| {
        writeln!(w, "{HEADER}")?;
        for sh in shards {
            for_each_row(&sh.dir.join("runs.csv"), |r| {
                Ok(writeln!(w, "{}", r.to_line())?)
            })?;
        }
        Ok(())
    })
}

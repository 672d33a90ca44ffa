//! `sudoku-lab merge OUT SHARD...`: the folders of `--shard 1/n` ... `--shard n/n` joined into
//! the folder a single machine would have written.
//!
//! Checked before anything is written: every shard's `meta.json` is complete and
//! names a shard `k/n` with the same n; the shards are exactly 1..=n (none missing, none
//! twice); they share the spec, master seed, runs, `--quick` setting and git revision; every
//! row of a shard's `runs.csv` is a run of the plan, of this experiment and with the plan's
//! seed ([`Plan::job_of`], the lookup `replay` uses), that the shard rule
//! ([`shard_assignment`]) gives to that shard, no run appears twice, and together they cover
//! the plan; with anytime data, every line of every shard's `trajectories.csv` belongs to a
//! run of that shard, one block per run, a block for every run. Errors name the shard's file
//! and line. OUT must be absent or an empty folder (or a link to one, written through).
//!
//! The merged folder is built in a staging folder beside OUT: the rows (and trajectory
//! blocks), a `meta.json` with every shard's sessions and the sum of their wall times, then
//! finished as a `--resume` of the whole protocol (runs.csv and trajectories.csv rewritten in
//! plan order, every table and chart written), and only then renamed to OUT ([`publish`]). A
//! failure at any point leaves OUT as it was, so the same command can be retried. The puzzles
//! are loaded as `replay` loads them (embedded files for relative paths).

use crate::protocol::io::{for_each_numbered_row, for_each_row, HEADER};
use crate::protocol::meta::Settings;
use crate::protocol::plan::{shard_assignment, IndexSet, Plan};
use crate::spec::Spec;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use sudoku_core::Budget;

/// One shard folder, read and checked.
struct Shard {
    dir: PathBuf,
    k: usize,
    n: usize,
    meta: serde_json::Value,
    settings: Settings,
    /// Its meta.json's spec, checked as a spec file is and against `settings`.
    spec: Spec,
    revision: String,
}

/// A shard folder's meta.json read and checked: complete, a shard `k/n`, and a spec that
/// keeps the rules of a spec file (as `replay` checks it) and is the spec its settings record
/// (as the resume that finishes the merge compares them), so that `merge --check` refuses
/// whatever `merge` would.
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
    let spec: Spec = serde_json::from_value(meta["spec"].clone())
        .map_err(|e| anyhow::anyhow!("{}: spec: {e}", path.display()))?;
    spec.check(&path.display().to_string())?;
    check_spec_is_settings(&path, &spec, &settings)?;
    Ok(Shard {
        dir: dir.to_path_buf(),
        k,
        n,
        meta,
        settings,
        spec,
        revision,
    })
}

/// The spec of a shard's meta.json (at `path`) is the one its settings record: the settings
/// of the merged protocol, made from that spec at the recorded seed and runs as the merge's
/// finishing resume makes them, equal the recorded ones but for the shard.
fn check_spec_is_settings(path: &Path, spec: &Spec, settings: &Settings) -> Result<()> {
    let mut spec = spec.clone();
    spec.master_seed = settings.master_seed;
    let forced = (settings.forced_runs).or(settings.quick.then_some(spec.quick_runs));
    let made = Settings::of(&spec, settings.quick, forced, None)?;
    let recorded = Settings {
        shard: None,
        ..settings.clone()
    };
    if !recorded.same_as(&made) {
        bail!(
            "{}: its spec is not the spec its settings record (settings.spec_toml, runs or --quick): an edited meta.json; make the shard again",
            path.display()
        );
    }
    Ok(())
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

/// What `merge` joined: the spec of the whole protocol, and the staging folder that holds the
/// joined files, for the caller to finish as a `--resume` of it and then move to OUT with
/// [`publish`] (or remove with [`abandon`]).
pub struct Merged {
    pub spec: Spec,
    pub shards: usize,
    pub staging: PathBuf,
    /// The spec's folder (a user spec's, resolved from the shards' meta.json; None for an
    /// embedded spec): its puzzle files are read from there, as `run` reads them.
    pub spec_dir: Option<PathBuf>,
}

/// Shard folders that passed every check of a merge ([`check`]): what [`merge`] joins.
pub struct Checked {
    /// The spec of the whole protocol (the shards' meta.json's).
    pub spec: Spec,
    /// The spec's folder (a user spec's, resolved from the shards' meta.json; None for an
    /// embedded spec): its puzzle files are read from there, as `run` reads them.
    pub spec_dir: Option<PathBuf>,
    shards: Vec<Shard>,
}

impl Checked {
    /// The shards' settings (all alike but for the shard).
    pub fn settings(&self) -> &Settings {
        &self.shards[0].settings
    }

    /// How many shards.
    pub fn count(&self) -> usize {
        self.shards.len()
    }
}

/// Join checked shards ([`check`]) into a staging folder beside `out`: runs.csv (and
/// trajectories.csv) with every run of the plan once, and meta.json. OUT itself is only
/// written by [`publish`], so a failed merge leaves no half-made OUT and can be retried as is.
pub fn merge(out: &Path, checked: Checked) -> Result<Merged> {
    let staging = staging_of(&check_out(out)?);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot remove {}", staging.display()))?;
    }
    if let Err(e) = write_merged(&staging, &checked.shards, checked.spec.anytime) {
        abandon(&staging);
        return Err(e);
    }
    Ok(Merged {
        shards: checked.count(),
        spec: checked.spec,
        staging,
        spec_dir: checked.spec_dir,
    })
}

/// Check the shard folders `dirs` completely (every meta.json, row and trajectory line) and,
/// when `writing` (a merge, not `--check`, which writes nothing and so may look at the shards
/// of a finished OUT), that OUT may be written: `merge --check` is this, and `merge` joins what
/// it returns.
pub fn check(out: &Path, dirs: &[PathBuf], writing: bool) -> Result<Checked> {
    let shards: Vec<Shard> = dirs.iter().map(|d| read_shard(d)).collect::<Result<_>>()?;
    check_set(&shards)?;
    let first = &shards[0];
    let spec = first.spec.clone();
    let s = &first.settings;
    let forced = s.quick.then_some(s.runs).or(s.forced_runs);
    let spec_dir =
        crate::protocol::meta::recorded_spec_dir(&first.dir.join("meta.json"), &first.meta)?;
    let loaded = spec.load_puzzles(spec_dir.as_deref(), s.quick, forced)?;
    let cap = s.quick.then_some(spec.quick_max_generations);
    let budgets: Vec<Budget> = spec.algorithms.iter().map(|a| a.budget(cap)).collect();
    let costs: Vec<u64> = budgets.iter().map(crate::algos::expected_cost).collect();
    let plan = Plan::new(&spec, &loaded.puzzles, &loaded.runs, &loaded.algorithm_runs);
    if writing {
        check_out(out)?;
    }
    // Every row and trajectory line checked before anything is written.
    let owner = shard_assignment(&plan, &costs, first.n);
    check_rows(&plan, &owner, &budgets, &shards)?;
    if spec.anytime {
        check_trajectories(&plan, &owner, &shards)?;
    }
    Ok(Checked {
        spec,
        spec_dir,
        shards,
    })
}

/// Where the merged folder goes: OUT itself, or, when OUT is a link, the folder it points to
/// (a link to an empty folder on a larger disk is written through, as `run --out` writes
/// through it; the link stays). A link to nothing is refused, naming its target.
fn destination(out: &Path) -> Result<PathBuf> {
    let linked = std::fs::symlink_metadata(out).is_ok_and(|m| m.is_symlink());
    if !linked {
        return Ok(out.to_path_buf());
    }
    std::fs::canonicalize(out).map_err(|_| {
        let target = std::fs::read_link(out).unwrap_or_default();
        anyhow::anyhow!(
            "{}: a link to {}, which is nothing: create that folder or merge into a new folder",
            out.display(),
            target.display()
        )
    })
}

/// OUT may be merged into: absent, or an empty folder, or a link to one. Returns where the
/// merged folder goes ([`destination`]).
pub fn check_out(out: &Path) -> Result<PathBuf> {
    let to = destination(out)?;
    let Ok(m) = std::fs::symlink_metadata(&to) else {
        return Ok(to);
    };
    let empty = m.is_dir()
        && std::fs::read_dir(&to)
            .with_context(|| format!("cannot list {}", to.display()))?
            .next()
            .is_none();
    if !empty {
        let what = match to.as_path() == out {
            true => out.display().to_string(),
            false => format!("{} (a link to {})", out.display(), to.display()),
        };
        bail!("{what}: exists and is not an empty folder; merge into a new folder");
    }
    Ok(to)
}

/// The folder the merge is built in: beside where it goes (same file system, so [`publish`]
/// is a rename), hidden, named after this process.
fn staging_of(to: &Path) -> PathBuf {
    let name = to.file_name().and_then(|n| n.to_str()).unwrap_or("merged");
    let parent = match to.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    parent.join(format!(".{name}.merge.tmp-{}", std::process::id()))
}

/// Move the finished staging folder to OUT (or the folder OUT links to) in one rename.
pub fn publish(m: &Merged, out: &Path) -> Result<()> {
    let to = check_out(out)?;
    std::fs::rename(&m.staging, &to)
        .with_context(|| format!("cannot move {} to {}", m.staging.display(), to.display()))
}

/// Remove a staging folder after a failure (best effort: the error that caused it matters).
pub fn abandon(staging: &Path) {
    let _ = std::fs::remove_dir_all(staging);
}

/// Every row of every shard is a run of the plan (of this experiment, with the plan's seed,
/// looked up as `replay` does: [`Plan::job_of`]) that the shard rule gives to that shard, whose
/// values are consistent with its budget ([`check_consistent`]), no run appears twice, and
/// together they cover the plan. Errors name the shard's file and line.
fn check_rows(plan: &Plan, owner: &[u32], budgets: &[Budget], shards: &[Shard]) -> Result<()> {
    let mut seen = IndexSet::empty(plan.len());
    for sh in shards {
        let path = sh.dir.join("runs.csv");
        for_each_numbered_row(&path, |line, r| {
            let at = format!("{}:{line}", path.display());
            let run = format!("{}/{}/{}", r.algorithm, r.puzzle, r.run);
            let (i, job) = plan.checked_job(&at, &r)?;
            check_consistent(&r, &budgets[job.algorithm])
                .with_context(|| format!("{at}: run {run} is not consistent (an edited row)"))?;
            let k = owner[i as usize] as usize + 1;
            if k != sh.k {
                bail!("{at}: run {run} belongs to shard {k}, not {}", sh.k);
            }
            if !seen.insert(i) {
                bail!("{at}: run {run} appears twice (also in another shard)");
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

/// What a row says agrees with its budget and with itself, as every run writes it: the budget
/// it records is the plan's (`max_generations`), it ran at most that many generations, and
/// exactly that many when it says it stopped at the generation limit; a run that says it
/// stopped because it solved the puzzle is counted as solved, and one whose claimed solution
/// the exact checker refused is not. Errors (one line each) name the field.
fn check_consistent(r: &crate::protocol::io::Row, budget: &Budget) -> Result<()> {
    let limit = budget.max_generations.unwrap_or(0);
    if r.max_generations != limit {
        bail!(
            "max_generations {} is not the plan's budget {limit}",
            r.max_generations
        );
    }
    if let Some(g) = budget.max_generations {
        if r.generations > g {
            bail!("{} generations, above the budget {g}", r.generations);
        }
        if r.termination == "generation_limit" && r.generations != g {
            bail!(
                "termination generation_limit after {} generations, not the budget {g}",
                r.generations
            );
        }
    }
    if r.termination == "solved" && r.solved != 1 {
        bail!("termination solved, but solved {}", r.solved);
    }
    if r.termination == "invalid_claim" && r.solved != 0 {
        bail!("termination invalid_claim, but solved {}", r.solved);
    }
    Ok(())
}

/// What `merge --verify` did: the rows it re-ran (all reproduced) and the rows of external
/// solvers it left (all of them).
pub struct Verified {
    pub rerun: usize,
    pub external: usize,
}

impl Verified {
    /// The line that says it: never "every one reproduced" alone when rows were left.
    pub fn said(&self) -> String {
        let mut line = format!(
            "re-ran {} rows of the shards: every one reproduced",
            self.rerun
        );
        if self.external > 0 {
            line += &format!(
                "; {} rows of external solvers not re-run (a shard's meta.json names their command, which runs only with `replay --run-external`)",
                self.external
            );
        }
        line
    }
}

/// `merge --verify K`: every K-th row of every shard (in its runs.csv order) re-run with its
/// plan's seed, as `replay` does, refusing the first shard with a row that is not reproduced
/// (every field but wall_ms, and the trajectory with anytime data). Rows of external solvers
/// are not re-run: a shard's meta.json names their command, and a folder's command never runs
/// without `replay --run-external`; they are counted.
pub fn verify(dirs: &[PathBuf], every: usize) -> Result<Verified> {
    let mut verified = Verified {
        rerun: 0,
        external: 0,
    };
    for dir in dirs {
        let options = crate::protocol::replay::Options {
            every,
            only_solved: false,
            run_external: false,
        };
        let found = crate::protocol::replay::replay(dir, &options)?;
        verified.rerun += found.replayed;
        verified.external += found.skipped_rows;
        for m in &found.external_mismatches {
            let note = format!(
                "note: {}: external solver not reproduced: {m}",
                dir.join("runs.csv").display()
            );
            eprintln!("{}", sudoku_core::error::shown(&note));
        }
        if let Some(m) = found.mismatches.first() {
            bail!(
                "{}: {} of {} re-run rows not reproduced (an edited or corrupted shard), first {m}",
                dir.join("runs.csv").display(),
                found.mismatches.len(),
                found.replayed
            );
        }
    }
    Ok(verified)
}

/// Every shard's trajectories.csv: its header, then complete lines of 6 fields, each of a run
/// of that shard, one block of consecutive lines per run, and a block for every run of the
/// shard (`check_rows` has shown that its runs.csv holds exactly those). Streamed.
fn check_trajectories(plan: &Plan, owner: &[u32], shards: &[Shard]) -> Result<()> {
    use crate::protocol::trajectory::{FILE, HEADER as TRAJ_HEADER};
    use std::io::BufRead;
    let mut blocks = IndexSet::empty(plan.len());
    for sh in shards {
        let path = sh.dir.join(FILE);
        let f = crate::spec::open_regular(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let mut reader = std::io::BufReader::new(f);
        let (mut line, mut lineno) = (String::new(), 0usize);
        let mut previous = None;
        loop {
            line.clear();
            lineno += 1;
            let at = || format!("{}:{lineno}", path.display());
            let k = reader
                .read_line(&mut line)
                .with_context(|| format!("{}: cannot read (not UTF-8 text?)", at()))?;
            if k == 0 {
                break;
            }
            if !line.ends_with('\n') {
                bail!("{}: cut line (no line break)", at());
            }
            let l = line.trim_end();
            if lineno == 1 {
                if l != TRAJ_HEADER {
                    bail!("{}: header is not '{TRAJ_HEADER}'", at());
                }
                continue;
            }
            let i = trajectory_run(plan, l).with_context(|| {
                format!("{}: not a trajectory point of a run of the plan", at())
            })?;
            if owner[i as usize] as usize + 1 != sh.k {
                bail!("{}: a point of a run of another shard", at());
            }
            if previous != Some(i) && !blocks.insert(i) {
                bail!("{}: a second block of the same run", at());
            }
            previous = Some(i);
        }
        if lineno <= 1 {
            bail!("{}: empty file (no header line)", path.display());
        }
    }
    if let Some(i) = (0..plan.len()).find(|&i| !blocks.contains(i)) {
        let j = plan.job(i);
        let k = owner[i as usize] as usize + 1;
        let dir = shards
            .iter()
            .find(|s| s.k == k)
            .map_or(Path::new("?"), |s| &s.dir);
        bail!(
            "{}: run {}/{}/{} has no trajectory",
            dir.join(FILE).display(),
            plan.algorithm_label(j.algorithm),
            plan.puzzle_id(j.puzzle),
            j.run
        );
    }
    Ok(())
}

/// The plan index of a trajectories.csv line (`experiment,algorithm,puzzle,run,evaluations,
/// penalty`, every number valid), None when it is malformed or names no run of the plan.
fn trajectory_run(plan: &Plan, l: &str) -> Option<u64> {
    let mut f = l.split(',');
    let (_, algorithm, puzzle, run) = (f.next()?, f.next()?, f.next()?, f.next()?);
    f.next()?.parse::<u64>().ok()?;
    f.next()?.parse::<u32>().ok()?;
    if f.next().is_some() {
        return None;
    }
    plan.index_of(algorithm, puzzle, run.parse().ok()?)
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
                let f = crate::spec::open_regular(&path)
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
    // The spec's folder relative to the merged folder (a sibling of OUT: the same path as
    // from OUT), as the shards recorded it relative to themselves.
    if let Some(d) = shards[0].meta["spec_dir"].as_str() {
        let abs = crate::protocol::meta::resolve_spec_dir(&shards[0].dir, d);
        meta["spec_dir"] = serde_json::json!(crate::protocol::meta::spec_dir_for(out, &abs));
    }
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

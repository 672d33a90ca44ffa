//! meta.json: the experiment's full configuration, written beside its results before it runs
//! and completed when it ends.

use crate::protocol::io::write_atomic;
use crate::spec::Spec;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What must be equal for `--resume` to continue a runs.csv.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Settings {
    pub experiment: String,
    pub master_seed: u64,
    pub runs: u64,
    /// Runs forced on every puzzle by `--runs` or `--quick` (else each entry's own).
    #[serde(default)]
    pub forced_runs: Option<u64>,
    pub quick: bool,
    /// The spec as TOML, so a changed option cannot silently mix with old rows.
    pub spec_toml: String,
    /// `--shard k/n`: the folder holds only that slice of the plan (see `merge`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

impl Settings {
    /// The settings of a protocol of `spec` (its `master_seed` already the one it runs at),
    /// with `forced` runs on every puzzle (`--runs`, or `--quick`'s `quick_runs`) or each
    /// entry's own, as `--shard k/n` when given: what `run`, `reproduce` and the finishing of
    /// a merge record and compare.
    pub fn of(
        spec: &Spec,
        quick: bool,
        forced: Option<u64>,
        shard: Option<(usize, usize)>,
    ) -> Result<Settings> {
        Ok(Settings {
            experiment: spec.id.clone(),
            master_seed: spec.master_seed,
            runs: forced.unwrap_or(spec.runs),
            forced_runs: forced,
            quick,
            spec_toml: toml::to_string(spec)?,
            shard: shard.map(|(k, n)| format!("{k}/{n}")),
        })
    }

    /// Settings equal for `--resume` (`self` recorded, `new` asked for): the spec is compared
    /// as the current version of sudoku-lab reads it (options added since with their
    /// defaults), not as text, and without the keys that only shape the reports (title, paper,
    /// published values, report, chart), and, for a full protocol, without the `--quick`
    /// settings it does not use, and, when the runs are forced (`--quick`, `--runs`), without
    /// the algorithms' own `runs`, which the forced runs replace.
    pub fn same_as(&self, new: &Settings) -> bool {
        let normal = |t: &str| {
            toml::from_str::<Spec>(t).ok().and_then(|mut s| {
                if !new.quick {
                    s.quick_runs = 1;
                    s.quick_max_generations = 1;
                    s.quick_set_size = None;
                }
                if new.forced_runs.is_some() {
                    s.algorithms.iter_mut().for_each(|a| a.runs = None);
                }
                s.title.clear();
                s.paper.clear();
                s.published = None;
                s.published_levels = None;
                s.report = "none".into();
                s.chart = None;
                s.versus = None;
                toml::to_string(&s).ok()
            })
        };
        let old = self;
        let spec_same = old.spec_toml == new.spec_toml
            || matches!((normal(&old.spec_toml), normal(&new.spec_toml)), (Some(a), Some(b)) if a == b);
        spec_same
            && old.experiment == new.experiment
            && old.master_seed == new.master_seed
            && old.runs == new.runs
            && old.quick == new.quick
            && old.forced_runs == new.forced_runs
            && old.shard == new.shard
    }
}

/// One invocation that worked on the protocol (a fresh start or a resume).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    pub git_revision: String,
    pub started_utc: String,
    pub finished_utc: Option<String>,
    pub threads: usize,
    pub runs_executed: Option<usize>,
    /// The machine this session ran on (absent from sessions recorded before it was kept): the
    /// top-level `machine` is the last session's, which after a resume that only rewrites the
    /// tables is not the machine that made the runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Meta {
    pub settings: Settings,
    pub spec: Spec,
    pub git_revision: String,
    pub sudoku_lab_version: String,
    pub dependencies: String,
    pub threads: usize,
    pub machine: String,
    pub started_utc: String,
    pub finished_utc: Option<String>,
    /// Wall time of the protocol, summed over the sessions that ran it (resumes included).
    pub wall_seconds: Option<f64>,
    pub runs_executed_this_session: Option<usize>,
    pub runs_resumed: Option<usize>,
    pub status: String,
    /// With status "failed": the error that ended the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Every session that ran part of this protocol, oldest first (carried over by --resume),
    /// so the revision that made each run stays on record when a later one regenerates reports.
    #[serde(default)]
    pub sessions: Vec<Session>,
    /// The folder of a user spec (absolute), against which its puzzle `file`s are resolved by
    /// `replay` and `merge`; absent for embedded specs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_dir: Option<String>,
}

impl Meta {
    pub fn new(settings: Settings, spec: &Spec, threads: usize) -> Self {
        Meta {
            settings,
            spec: spec.clone(),
            git_revision: env!("SUDOKU_LAB_GIT").to_string(),
            sudoku_lab_version: env!("CARGO_PKG_VERSION").to_string(),
            dependencies: env!("SUDOKU_LAB_DEPS").to_string(),
            threads,
            machine: machine(),
            started_utc: utc_now(),
            finished_utc: None,
            wall_seconds: None,
            runs_executed_this_session: None,
            runs_resumed: None,
            status: "running".into(),
            error: None,
            sessions: Vec::new(),
            spec_dir: None,
        }
    }

    /// Sessions recorded by an earlier meta.json (none when absent or unreadable).
    pub fn read_sessions(path: &Path) -> Vec<Session> {
        crate::spec::read_regular(path)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| serde_json::from_value(v["sessions"].clone()).ok())
            .unwrap_or_default()
    }

    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        write_atomic(path, format!("{text}\n").as_bytes())
    }

    /// Wall seconds recorded by earlier sessions of the same protocol (0 when none).
    pub fn read_wall(path: &Path) -> f64 {
        crate::spec::read_regular(path)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["wall_seconds"].as_f64())
            .unwrap_or(0.0)
    }

    pub fn read_settings(path: &Path) -> Result<Option<Settings>> {
        if !path.exists() {
            return Ok(None);
        }
        let text = crate::spec::read_regular(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
        Ok(serde_json::from_value(v["settings"].clone()).ok())
    }
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown cpu".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{} {}, {cpu}, {cores} logical cores",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// Current UTC time as RFC 3339 (seconds), without a date crate.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem / 60) % 60,
        rem % 60
    )
}

/// A meta.json (or any JSON file) as a JSON value; errors name the file.
pub fn read_json(path: &Path) -> Result<serde_json::Value> {
    let text = crate::spec::read_regular(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: not JSON ({e})", path.display()))
}

/// The spec's folder as meta.json records it: relative to the results folder `out` (both made
/// absolute) when they share a root, so that a committed folder finds its spec's files (puzzle
/// files, an external solver's program) in any clone; absolute otherwise.
pub fn spec_dir_for(out: &Path, base: &Path) -> String {
    let abs = |p: &Path| {
        std::fs::canonicalize(p)
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    let (from, to) = (abs(out), abs(base));
    let common = (from.components().zip(to.components()))
        .take_while(|(a, b)| a == b)
        .count();
    if common <= 1 {
        return to.display().to_string();
    }
    let mut rel = std::path::PathBuf::new();
    for _ in from.components().skip(common) {
        rel.push("..");
    }
    for c in to.components().skip(common) {
        rel.push(c);
    }
    if rel.as_os_str().is_empty() {
        rel.push(".");
    }
    rel.display().to_string()
}

/// The spec folder recorded in the meta.json at `path` (key `spec_dir`, resolved by
/// [`resolve_spec_dir`] against the folder of `path`), None when absent (an embedded spec).
/// An empty or non-string value is refused naming the file and the key: an empty one (written
/// by older versions for `run s.toml`) would resolve to the results folder itself.
pub fn recorded_spec_dir(
    path: &Path,
    meta: &serde_json::Value,
) -> Result<Option<std::path::PathBuf>> {
    let folder = path.parent().unwrap_or(Path::new("."));
    match &meta["spec_dir"] {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(d) if !d.trim().is_empty() => {
            Ok(Some(resolve_spec_dir(folder, d)))
        }
        _ => anyhow::bail!(
            "{}: spec_dir: not the spec's folder (empty or not a string); write the folder of the spec file there",
            path.display()
        ),
    }
}

/// A recorded spec folder: a relative one is relative to the results folder `folder` that
/// recorded it (absolute ones, as older folders have, are taken as they are).
pub fn resolve_spec_dir(folder: &Path, recorded: &str) -> std::path::PathBuf {
    let p = Path::new(recorded);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        folder.join(p)
    }
}

#[cfg(test)]
mod spec_dir_tests {
    use super::{resolve_spec_dir, spec_dir_for};
    use std::path::Path;

    /// A committed folder records its spec's folder relative to itself, so that a clone
    /// elsewhere finds it; resolving gives back the same folder.
    #[test]
    fn the_spec_folder_is_recorded_relative_to_the_results_folder() {
        let root = std::env::temp_dir().join(format!("spec-dir-{}", std::process::id()));
        let (out, base) = (root.join("results/demo"), root.join("examples/external"));
        for d in [&out, &base] {
            std::fs::create_dir_all(d).unwrap();
        }
        let rel = spec_dir_for(&out, &base);
        assert_eq!(rel, "../../examples/external");
        let back = resolve_spec_dir(&out, &rel);
        assert_eq!(
            std::fs::canonicalize(back).unwrap(),
            std::fs::canonicalize(&base).unwrap()
        );
        assert_eq!(spec_dir_for(&out, &out), ".");
        assert_eq!(
            resolve_spec_dir(&out, "/abs/olute"),
            Path::new("/abs/olute")
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}

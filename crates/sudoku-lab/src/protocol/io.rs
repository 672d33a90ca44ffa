//! File helpers: atomic replacement, the regular-file check of every file a protocol writes
//! ([`check_regular`]), and the runs.csv row with its one reader ([`for_each_row`]).

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// Write a file atomically: a temporary file in the same folder, synced, then renamed over the
/// target, so readers see the old file or the new one, never half of one. The target must be
/// absent or a regular file ([`check_regular`]): every file of a results folder is written
/// through here or [`write_atomic_with`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |w| Ok(w.write_all(bytes)?))
}

/// [`write_atomic`] for content produced piece by piece through a buffered writer. Errors
/// (disk full, read-only folder, ...) name `path` and the OS reason, in one line; no temporary
/// file is left. A symbolic link, FIFO, device or folder at `path` is refused, never written
/// through or replaced.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> Result<()>,
) -> Result<()> {
    check_regular(path)?;
    replace_file(path, fill).with_context(|| format!("cannot write {}", path.display()))
}

/// A file the user named on the command line (`generate --out`): written atomically like
/// [`write_atomic`], but a path that exists and is neither a file nor a folder (`/dev/stdout`,
/// a FIFO, `/dev/full`) is written in place: renaming over it would replace the device.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<()> {
    let fill = |w: &mut std::io::BufWriter<std::fs::File>| Ok(w.write_all(bytes)?);
    (|| -> Result<()> {
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let f = std::fs::OpenOptions::new().write(true).open(path)?;
            let mut w = std::io::BufWriter::new(f);
            fill(&mut w)?;
            w.into_inner().map_err(|e| e.into_error())?;
            return Ok(());
        }
        replace_file(path, fill)
    })()
    .with_context(|| format!("cannot write {}", path.display()))
}

/// The workspace's one atomic replacement ([`sudoku_core::atomic::replace_with`]: a temporary
/// file beside `path`, synced, renamed over it, removed on failure), its temporary file
/// created anew (never through a link left under its name) and filled through a buffer.
fn replace_file(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> Result<()>,
) -> Result<()> {
    sudoku_core::atomic::replace_with(path, |tmp: &Path| -> Result<()> {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(tmp)
            .with_context(|| format!("cannot create {}", tmp.display()))?;
        let mut w = std::io::BufWriter::new(f);
        fill(&mut w)?;
        w.into_inner().map_err(|e| e.into_error())?;
        Ok(())
    })
}

/// Refuse `path` as a file to append to or replace unless it is absent or a regular file: a
/// symbolic link (followed, an append would land outside the results folder), a FIFO, a
/// device or a folder is named and refused in one line. The link itself is looked at
/// (`symlink_metadata`), not what it points to. The one check of every file the protocol
/// writes: runs.csv, trajectories.csv, meta.json, reports, the lock file.
pub fn check_regular(path: &Path) -> Result<()> {
    let what = sudoku_core::atomic::not_regular(path)
        .with_context(|| format!("cannot inspect {}", path.display()))?;
    if let Some(what) = what {
        bail!(
            "{}: {what}, not a regular file: sudoku-lab writes only regular files in a results folder (remove it or use another --out)",
            path.display()
        )
    }
    Ok(())
}

/// [`check_regular`] on every entry of folder `dir` but its subfolders: run before a protocol
/// writes anything there, so a link planted under any report's name is refused before the
/// first run, not after the last.
pub fn check_folder_files(dir: &Path) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for e in entries {
        let e = e.with_context(|| format!("cannot list {}", dir.display()))?;
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            check_regular(&e.path())?;
        }
    }
    Ok(())
}

/// Open `path` (an existing regular file) to append to it: refused by [`check_regular`] when
/// it is anything else, and opened with `O_NOFOLLOW`, so a link put in its place meanwhile
/// fails rather than being followed.
pub fn open_append(path: &Path) -> Result<std::fs::File> {
    check_regular(path)?;
    let mut o = std::fs::OpenOptions::new();
    o.append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, libc::O_NOFOLLOW);
    o.open(path)
        .with_context(|| format!("cannot append to {}", path.display()))
}

/// One run: the source of truth. Every run is replayable from its row: the seed, the algorithm
/// label (its options are in the spec, copied into meta.json), the puzzle and the budget.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Row {
    pub experiment: String,
    pub algorithm: String,
    pub puzzle: String,
    pub run: u64,
    pub seed: u64,
    /// 1 when the run ended with a grid the exact checker accepts (and that keeps the givens).
    pub solved: u8,
    pub generations: u64,
    pub evaluations: u64,
    pub restarts: u64,
    pub best_fitness: f64,
    pub termination: String,
    pub max_generations: u64,
    pub wall_ms: f64,
    /// CPU time of the run in milliseconds: the run thread's CPU clock for a built-in
    /// algorithm; for an external solver, the CPU its process group used during the run (see
    /// docs/external-solvers.md). Empty in files written before this column existed, and
    /// where the platform has no such clock.
    pub cpu_ms: Option<f64>,
    pub grid: String,
    /// The algorithm's named counters, `name=value;name=value` (e.g. gen-ga's
    /// `distinct_boards`); empty in files written before this column existed.
    pub counters: String,
}

pub const HEADER: &str = "experiment,algorithm,puzzle,run,seed,solved,generations,evaluations,restarts,best_fitness,termination,max_generations,wall_ms,cpu_ms,grid,counters";

/// The header of runs.csv files written before the `cpu_ms` column: still read (with an
/// empty `cpu_ms`), and upgraded in place by `--resume`.
pub const HEADER_V2: &str = "experiment,algorithm,puzzle,run,seed,solved,generations,evaluations,restarts,best_fitness,termination,max_generations,wall_ms,grid,counters";

/// The header of runs.csv files written before the `counters` column: still read (with empty
/// counters and `cpu_ms`), and upgraded in place by `--resume`.
pub const HEADER_V1: &str = "experiment,algorithm,puzzle,run,seed,solved,generations,evaluations,restarts,best_fitness,termination,max_generations,wall_ms,grid";

/// The fields before `cpu_ms`, which the older formats lack.
const FIELDS_BEFORE_CPU: usize = 13;

/// Which format a runs.csv header line names: 3 (current), 2, 1, or None.
fn format_of(header: &str) -> Option<u8> {
    match header {
        HEADER => Some(3),
        HEADER_V2 => Some(2),
        HEADER_V1 => Some(1),
        _ => None,
    }
}

/// A data record of format `version` in the current format: an empty `cpu_ms` inserted (and,
/// for format 1, empty counters appended). A record too short to hold the fields before
/// `cpu_ms` is left as it is, for the row parser to name.
fn in_current_format(record: csv::StringRecord, version: u8) -> csv::StringRecord {
    if version == 3 || record.len() < FIELDS_BEFORE_CPU {
        return record;
    }
    let mut out = csv::StringRecord::with_capacity(record.as_slice().len() + 2, 16);
    for (i, f) in record.iter().enumerate() {
        if i == FIELDS_BEFORE_CPU {
            out.push_field("");
        }
        out.push_field(f);
    }
    if record.len() == FIELDS_BEFORE_CPU {
        out.push_field("");
    }
    if version == 1 {
        out.push_field("");
    }
    out
}

/// Format counters for the `counters` column.
pub fn format_counters(counters: &[(&str, u64)]) -> String {
    counters
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// The value of one counter in a `counters` field.
pub fn counter(field: &str, name: &str) -> Option<u64> {
    field
        .split(';')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .and_then(|(_, v)| v.parse().ok())
}

impl Row {
    /// The CSV line of this row (no newline). Fields never contain commas or quotes.
    pub fn to_line(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{:.3},{},{},{}",
            self.experiment,
            self.algorithm,
            self.puzzle,
            self.run,
            self.seed,
            self.solved,
            self.generations,
            self.evaluations,
            self.restarts,
            self.best_fitness,
            self.termination,
            self.max_generations,
            self.wall_ms,
            self.cpu_ms.map(|c| format!("{c:.3}")).unwrap_or_default(),
            self.grid,
            self.counters
        )
    }
}

/// Read the rows of a runs.csv, streaming, calling `f` on each. A trailing line without a
/// newline (a write cut by a crash) is ignored; `Ok(valid_len)` is the byte length of the
/// complete lines, so the caller can truncate the torn tail before appending. Every reader of
/// runs.csv goes through here, so every one refuses the same things: a missing or unknown
/// header (an empty file included), a malformed row, and a run that appears twice.
pub fn for_each_row(path: &Path, mut f: impl FnMut(Row) -> Result<()>) -> Result<u64> {
    for_each_numbered_row(path, |_, r| f(r))
}

/// [`for_each_row`] with each row's line number (the header is line 1), for callers whose own
/// checks name the line.
pub fn for_each_numbered_row(path: &Path, f: impl FnMut(usize, Row) -> Result<()>) -> Result<u64> {
    let file = crate::spec::open_regular(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    for_each_row_in(std::io::BufReader::new(file), path, f)
}

/// [`for_each_numbered_row`] on any reader; `path` names the source in errors (one line each,
/// with the line number). The reader is read again from its start only to name the first of
/// two rows of the same run.
pub fn for_each_row_in(
    mut reader: impl std::io::BufRead + std::io::Seek,
    path: &Path,
    mut f: impl FnMut(usize, Row) -> Result<()>,
) -> Result<u64> {
    let mut line = String::new();
    let mut valid = 0u64;
    let mut lineno = 0usize;
    let mut version = 3u8;
    let mut seen = SeenRuns::default();
    loop {
        line.clear();
        let k = reader.read_line(&mut line).with_context(|| {
            format!(
                "{}:{}: cannot read (not UTF-8 text?)",
                path.display(),
                lineno + 1
            )
        })?;
        if k == 0 || !line.ends_with('\n') {
            break;
        }
        lineno += 1;
        valid += k as u64;
        let l = line.trim_end();
        if lineno == 1 {
            let Some(v) = format_of(l) else {
                bail!(
                    "{}: unexpected header (not a sudoku-lab runs.csv of this version)",
                    path.display()
                );
            };
            version = v;
            continue;
        }
        let row = parse_row(l, version, lineno, path)?;
        if !seen.insert(&row) {
            return Err(duplicate(&mut reader, path, lineno, &row));
        }
        f(lineno, row)?;
    }
    if lineno == 0 {
        bail!(
            "{}: no header line (an empty or cut file, not a sudoku-lab runs.csv)",
            path.display()
        );
    }
    Ok(valid)
}

/// The error for the row at line `lineno`, a run already recorded above it: the first line of
/// that run is found by reading the file again (only on this error path).
fn duplicate(
    reader: &mut (impl std::io::BufRead + std::io::Seek),
    path: &Path,
    lineno: usize,
    row: &Row,
) -> anyhow::Error {
    let first = reader
        .rewind()
        .ok()
        .and_then(|_| {
            std::io::BufRead::lines(&mut *reader)
                .enumerate()
                .skip(1)
                .find_map(|(i, l)| {
                    let l = l.ok()?;
                    let mut it = l.splitn(5, ',');
                    let key = (it.next()?, it.next()?, it.next()?, it.next()?);
                    let run = row.run.to_string();
                    (key == (&row.experiment, &row.algorithm, &row.puzzle, &run)).then_some(i + 1)
                })
        })
        .filter(|&i| i < lineno);
    let at = first.map_or("an earlier line".to_string(), |i| format!("line {i}"));
    anyhow::anyhow!(
        "{}:{lineno}: duplicate row: run {}/{}/{} is already recorded at {at}; every run has one row (remove one of them)",
        path.display(),
        row.algorithm,
        row.puzzle,
        row.run
    )
}

/// (experiment, algorithm, puzzle) of a row.
type RunGroup = (String, String, String);

/// The runs a runs.csv has recorded so far, keyed by (experiment, algorithm, puzzle, run), to
/// refuse a second row of the same run. Runs are numbered from 0, so each (experiment,
/// algorithm, puzzle) keeps a bit per run (a few bits a row, like the plan's sets); a run
/// number far beyond the rows read of its group (a hostile file) goes to a hash set instead,
/// so memory stays proportional to the rows. No allocation per row but when the group
/// changes.
#[derive(Default)]
struct SeenRuns {
    slots: std::collections::HashMap<RunGroup, usize>,
    /// The last key looked up and its slot (rows of one key come together).
    last: Option<(RunGroup, usize)>,
    bits: Vec<Vec<u64>>,
    sparse: std::collections::HashSet<(usize, u64)>,
    /// Rows read of each group.
    rows: Vec<u64>,
}

impl SeenRuns {
    /// Record `r`'s run; false when it was recorded already.
    fn insert(&mut self, r: &Row) -> bool {
        let slot = self.slot(r);
        self.rows[slot] += 1;
        let (w, b) = ((r.run / 64) as usize, r.run % 64);
        let bits = &mut self.bits[slot];
        // Dense while the run numbers stay near the rows of their group (bits for at most
        // twice its rows, plus a few words): a bounded bit set per group, whatever the file.
        let dense = w < bits.len() || r.run <= 2 * self.rows[slot] + 256;
        if dense && w >= bits.len() {
            bits.resize(w + 1, 0);
        }
        let before =
            (bits.get(w).is_some_and(|x| x >> b & 1 == 1)) || self.sparse.contains(&(slot, r.run));
        if dense {
            bits[w] |= 1 << b;
        } else {
            self.sparse.insert((slot, r.run));
        }
        !before
    }

    fn slot(&mut self, r: &Row) -> usize {
        if let Some(((e, a, p), s)) = &self.last {
            if (e, a, p) == (&r.experiment, &r.algorithm, &r.puzzle) {
                return *s;
            }
        }
        let key = (r.experiment.clone(), r.algorithm.clone(), r.puzzle.clone());
        let n = self.slots.len();
        let s = *self.slots.entry(key.clone()).or_insert(n);
        if s == self.bits.len() {
            self.bits.push(Vec::new());
            self.rows.push(0);
        }
        self.last = Some((key, s));
        s
    }
}

/// One data line of a runs.csv of format `version` (without its line break) as a [`Row`];
/// errors name the file, the line and the column.
fn parse_row(l: &str, version: u8, lineno: usize, path: &Path) -> Result<Row> {
    let record = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(l.as_bytes())
        .records()
        .next()
        .with_context(|| format!("{}:{lineno}: empty row", path.display()))?
        .map_err(|e| anyhow::anyhow!("{}:{lineno}: malformed row: {e}", path.display()))?;
    let row: Row = in_current_format(record, version)
        .deserialize(None)
        .map_err(|e| {
            // The csv crate counts records and lines of this one line: name the column.
            let what = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => match err.field() {
                    Some(k) => format!(
                        "{}: {}",
                        HEADER.split(',').nth(k as usize).unwrap_or("field"),
                        err.kind()
                    ),
                    None => err.kind().to_string(),
                },
                _ => e.to_string(),
            };
            anyhow::anyhow!("{}:{lineno}: malformed row: {what}", path.display())
        })?;
    // Rows are written back as they are read (`--resume`, `merge`) without quoting: a
    // field holding a separator or a quote would come back as another row.
    for (name, v) in [
        ("experiment", &row.experiment),
        ("algorithm", &row.algorithm),
        ("puzzle", &row.puzzle),
        ("termination", &row.termination),
        ("grid", &row.grid),
        ("counters", &row.counters),
    ] {
        if v.contains([',', '"', '\r', '\n']) {
            bail!(
                "{}:{lineno}: malformed row: {name} holds a comma, quote or line break",
                path.display()
            );
        }
    }
    Ok(row)
}

/// Rewrite a runs.csv of an older format (no `counters` or no `cpu_ms` column) in the
/// current one, atomically; `Ok(true)` when it did.
pub fn upgrade_runs(path: &Path) -> Result<bool> {
    use std::io::BufRead;
    let first = std::io::BufReader::new(
        crate::spec::open_regular(path)
            .with_context(|| format!("cannot open {}", path.display()))?,
    )
    .lines()
    .next()
    .transpose()?
    .unwrap_or_default();
    if !matches!(format_of(&first), Some(1 | 2)) {
        return Ok(false);
    }
    write_atomic_with(path, |w| {
        writeln!(w, "{HEADER}")?;
        for_each_row(path, |r| Ok(writeln!(w, "{}", r.to_line())?))?;
        Ok(())
    })?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("sudoku-lab-io-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A write that fails half way (as on a full disk) names the path, leaves the old file
    /// as it was and no temporary file.
    #[test]
    fn a_write_failing_half_way_names_the_path_and_leaves_the_old_file() {
        let d = tmp("half");
        let path = d.join("runs.csv");
        std::fs::write(&path, "old\n").unwrap();
        let e = write_atomic_with(&path, |w| {
            w.write_all(&[b'x'; 100_000])?;
            Err(std::io::Error::from_raw_os_error(28).into())
        })
        .unwrap_err();
        let msg = format!("{e:#}");
        assert!(
            msg.starts_with(&format!("cannot write {}: ", path.display())),
            "{msg}"
        );
        assert!(msg.contains("No space left on device"), "{msg}");
        assert!(!msg.contains('\n'), "{msg}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        let names: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
        assert_eq!(names.len(), 1, "temporary file left: {names:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A run recorded twice is found whatever the order and the run numbers (dense bits,
    /// the sparse set, and a number that moves from one to the other as rows are read), and
    /// the error names both lines.
    #[test]
    fn a_run_recorded_twice_is_found_and_both_lines_named() {
        let row = |alg: &str, run: u64| Row {
            experiment: "x".into(),
            algorithm: alg.into(),
            puzzle: "p".into(),
            run,
            seed: 1,
            solved: 0,
            generations: 0,
            evaluations: 0,
            restarts: 0,
            best_fitness: 0.0,
            termination: "t".into(),
            max_generations: 0,
            wall_ms: 0.0,
            cpu_ms: None,
            grid: String::new(),
            counters: String::new(),
        };
        let mut seen = SeenRuns::default();
        assert!(seen.insert(&row("a", 5000)), "sparse at first");
        for run in (0..6000).rev() {
            assert_eq!(seen.insert(&row("a", run)), run != 5000, "{run}");
            assert!(seen.insert(&row("b", run)));
        }
        assert!(!seen.insert(&row("a", 5000)) && !seen.insert(&row("b", 0)));
        assert!(seen.insert(&row("c", u64::MAX)) && !seen.insert(&row("c", u64::MAX)));

        let mut text = format!("{HEADER}\n");
        for (alg, run) in [("a", 0), ("a", 1), ("b", 1), ("a", 1)] {
            text.push_str(&row(alg, run).to_line());
            text.push('\n');
        }
        let e = for_each_row_in(
            std::io::Cursor::new(text.as_bytes()),
            Path::new("r.csv"),
            |_, _| Ok(()),
        )
        .unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "r.csv:5: duplicate row: run a/p/1 is already recorded at line 3; every run has one row (remove one of them)"
        );
    }

    /// A device (here /dev/full, every write ENOSPC) is written in place, never replaced.
    #[cfg(unix)]
    #[test]
    fn a_device_is_written_in_place_and_a_full_one_named() {
        use std::os::unix::fs::FileTypeExt;
        let full = Path::new("/dev/full");
        if !full.exists() {
            return;
        }
        let e = write_output(full, &[b'x'; 100_000]).unwrap_err();
        let msg = format!("{e:#}");
        assert!(msg.starts_with("cannot write /dev/full: "), "{msg}");
        assert!(msg.contains("No space left on device"), "{msg}");
        let t = std::fs::metadata(full).unwrap().file_type();
        assert!(t.is_char_device());
        write_output(Path::new("/dev/null"), b"nothing\n").unwrap();
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }
}

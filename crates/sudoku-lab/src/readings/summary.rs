//! `sudoku-lab readings-summary DIR`: the races of a folder in one table. Each race folder
//! (a subfolder holding `race.csv`, as `sudoku-lab readings` writes it) gives one row; the
//! synthetic races are summarised: how often the hidden reading survived, and the share of
//! the other readings eliminated (smallest, mean), with the runs and generations spent.
//! Writes `summary.csv` and `summary.md` in DIR, atomically. Every race.csv is treated as
//! hostile: a symlink, a wrong header, a second row or a malformed field is refused, naming
//! the file and line, and nothing is written.

use super::md;
use super::outputs::RACE_HEADER;
use crate::protocol::io::{check_regular, write_atomic_with};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;

/// One race.csv row, with the folder it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct RaceRow {
    pub folder: String,
    pub fields: Vec<String>,
}

impl RaceRow {
    /// The field named `key` of race.csv's header (empty when absent).
    pub fn get(&self, key: &str) -> &str {
        let i = RACE_HEADER
            .split(',')
            .position(|k| k == key)
            .unwrap_or(usize::MAX);
        self.fields.get(i).map_or("", String::as_str)
    }
    /// The field named `key` as a number (0 when it is not one).
    pub fn num(&self, key: &str) -> f64 {
        self.get(key).parse().unwrap_or(0.0)
    }
}

/// The race.csv of every subfolder of `dir`, sorted by folder name.
pub fn load(dir: &Path) -> Result<Vec<RaceRow>> {
    let mut out = Vec::new();
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for e in entries {
        let e = e?;
        if !e.file_type()?.is_dir() {
            continue;
        }
        let path = e.path().join("race.csv");
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        check_regular(&path)?;
        out.push(read_race(&path, &e.file_name().to_string_lossy())?);
    }
    out.sort_by(|a, b| a.folder.cmp(&b.folder));
    Ok(out)
}

/// The surviving readings of a race folder's readings.csv, each as the options where it
/// differs from the race's first reading (`r1`: every option at its first-listed value, the
/// paper as we read it), in the file's order. Hostile like race.csv: a symlink, a header
/// without `reading` first and `status` after the options, a row of another length, or a
/// reading id out of place is refused, naming the file and line.
pub fn survivors(dir: &Path) -> Result<Vec<Vec<(String, String)>>> {
    let path = dir.join("readings.csv");
    check_regular(&path)?;
    let text = crate::spec::read_spec(&path)?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let rec = rec.with_context(|| format!("{}:{}: not CSV", path.display(), i + 1))?;
        rows.push(rec.iter().map(str::to_string).collect::<Vec<_>>());
    }
    let Some((head, body)) = rows.split_first() else {
        bail!("{}: empty", path.display());
    };
    let status = head.iter().position(|h| h == "status");
    let Some(status) = status.filter(|&k| head[0] == "reading" && k >= 2) else {
        bail!("{}:1: not the header of a readings.csv", path.display());
    };
    let mut out = Vec::new();
    for (i, row) in body.iter().enumerate() {
        let line = i + 2;
        let id = row[0]
            .strip_prefix('r')
            .and_then(|n| n.parse::<usize>().ok());
        if row.len() != head.len() || id != Some(i + 1) {
            bail!("{}:{line}: not a reading row", path.display());
        }
        match row[status].as_str() {
            "survived" => {}
            "eliminated" => continue,
            other => bail!("{}:{line}: status '{other}'", path.display()),
        }
        let first = &body[0];
        let differs = (1..status)
            .filter(|&k| row[k] != first[k])
            .map(|k| (head[k].clone(), row[k].clone()))
            .collect();
        out.push(differs);
    }
    Ok(out)
}

/// One race.csv: the header and one row of its fields, numbers where numbers belong.
fn read_race(path: &Path, folder: &str) -> Result<RaceRow> {
    let text = crate::spec::read_spec(path)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let rec = rec.with_context(|| format!("{}:{}: not CSV", path.display(), i + 1))?;
        rows.push(rec.iter().map(str::to_string).collect::<Vec<_>>());
    }
    let header: Vec<&str> = RACE_HEADER.split(',').collect();
    match rows.as_slice() {
        [h, row] if h.iter().map(String::as_str).eq(header.iter().copied()) => {
            if row.len() != header.len() {
                bail!(
                    "{}:2: {} fields, expected {}",
                    path.display(),
                    row.len(),
                    header.len()
                );
            }
            let numeric = [2, 3, 4, 9, 10, 11, 12, 13];
            for &k in &numeric {
                if row[k]
                    .parse::<f64>()
                    .map_or(true, |v| !v.is_finite() || v < 0.0)
                {
                    bail!(
                        "{}:2: {} '{}' is not a number",
                        path.display(),
                        header[k],
                        row[k]
                    );
                }
            }
            Ok(RaceRow {
                folder: folder.to_string(),
                fields: row.clone(),
            })
        }
        [h, ..] if !h.iter().map(String::as_str).eq(header.iter().copied()) => {
            bail!("{}:1: not the header of a race.csv", path.display())
        }
        _ => bail!("{}: expected a header and one row", path.display()),
    }
}

/// What the synthetic races of a summary show.
#[derive(Debug, Clone, PartialEq)]
pub struct Validation {
    pub races: usize,
    pub hidden_survived: usize,
    pub min_share: f64,
    pub mean_share: f64,
}

/// The synthetic races' validation figures (None without synthetic races).
pub fn validation(rows: &[RaceRow]) -> Option<Validation> {
    let synthetic: Vec<&RaceRow> = rows
        .iter()
        .filter(|r| !r.get("hidden").is_empty())
        .collect();
    if synthetic.is_empty() {
        return None;
    }
    let shares: Vec<f64> = synthetic
        .iter()
        .map(|r| r.num("others_eliminated_share"))
        .collect();
    Some(Validation {
        races: synthetic.len(),
        hidden_survived: (synthetic.iter())
            .filter(|r| r.get("hidden_status") == "survived")
            .count(),
        min_share: shares.iter().copied().fold(f64::INFINITY, f64::min),
        mean_share: shares.iter().sum::<f64>() / shares.len() as f64,
    })
}

/// Write summary.csv and summary.md of `dir`'s races.
pub fn write(dir: &Path) -> Result<usize> {
    let rows = load(dir)?;
    if rows.is_empty() {
        bail!(
            "{}: no race folder (a subfolder with race.csv) in it",
            dir.display()
        );
    }
    // Everything is read and checked before the first file is written.
    let joint = joint(dir, &rows)?;
    let synthetic = (rows.iter())
        .filter(|r| !r.get("hidden").is_empty())
        .map(|r| (r.folder.as_str(), r.get("hidden"), r.get("hidden_status")));
    let hidden = super::validation::load(dir, synthetic)?;
    write_atomic_with(&dir.join("summary.csv"), |out| {
        writeln!(out, "folder,{RACE_HEADER}")?;
        for r in &rows {
            let fields: Vec<String> = r.fields.iter().map(|f| quote(f)).collect();
            writeln!(out, "{},{}", quote(&r.folder), fields.join(","))?;
        }
        Ok(())
    })?;
    let mut md = markdown(&rows);
    if let Some(joint) = joint {
        md += &joint_markdown(&joint, rows.len());
        write_atomic_with(&dir.join("joint.csv"), |out| {
            let header: Vec<String> = joint.header.iter().map(|f| quote(f)).collect();
            writeln!(out, "{}", header.join(","))?;
            for r in &joint.rows {
                let fields: Vec<String> = r.iter().map(|f| quote(f)).collect();
                writeln!(out, "{}", fields.join(","))?;
            }
            Ok(())
        })?;
    }
    if !hidden.is_empty() {
        md += &super::validation::markdown(&hidden);
        write_atomic_with(&dir.join("validation.csv"), |out| {
            for r in super::validation::csv_rows(&hidden) {
                let fields: Vec<String> = r.iter().map(|f| quote(f)).collect();
                writeln!(out, "{}", fields.join(","))?;
            }
            Ok(())
        })?;
    }
    write_atomic_with(&dir.join("summary.md"), |out| {
        Ok(out.write_all(md.as_bytes())?)
    })?;
    Ok(rows.len())
}

/// The readings of races over one space, side by side: the reading, its option values, its
/// status in each race, and `all` = survived in every race.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Readings that survived every race.
    pub survivors: usize,
}

/// The joint table of the races of `dir` when they race the same readings (same option
/// columns and readings in their readings.csv), else None. A reading survives jointly when it
/// survived every race; with races run at alpha / k each (k races), a reading consistent with
/// every table is eliminated by one of them with probability at most alpha. Synthetic races
/// (each against the table of its own hidden reading) have no joint table: no reading is
/// meant to fit them all.
pub fn joint(dir: &Path, rows: &[RaceRow]) -> Result<Option<Joint>> {
    if rows.len() < 2 || rows.iter().any(|r| !r.get("hidden").is_empty()) {
        return Ok(None);
    }
    let mut tables = Vec::new();
    for r in rows {
        let path = dir.join(&r.folder).join("readings.csv");
        check_regular(&path)?;
        tables.push(read_readings(&path)?);
    }
    let (keys, first) = &tables[0];
    if tables
        .iter()
        .any(|(k, t)| k != keys || t.len() != first.len())
    {
        return Ok(None);
    }
    let mut header: Vec<String> = keys.clone();
    header.extend(rows.iter().map(|r| r.folder.clone()));
    header.push("all".into());
    let mut out = Vec::new();
    let mut survivors = 0;
    for (i, reading) in first.iter().enumerate() {
        let mut row = reading.0.clone();
        let mut all = true;
        for (_, t) in &tables {
            if t[i].0 != reading.0 {
                return Ok(None);
            }
            all &= t[i].1 == "survived";
            row.push(t[i].1.clone());
        }
        survivors += usize::from(all);
        row.push(if all { "survived" } else { "eliminated" }.into());
        out.push(row);
    }
    Ok(Some(Joint {
        header,
        rows: out,
        survivors,
    }))
}

/// A readings.csv: its key columns (`reading` and the options) and per reading (those
/// values, status).
type Readings = (Vec<String>, Vec<(Vec<String>, String)>);

fn read_readings(path: &Path) -> Result<Readings> {
    let text = crate::spec::read_spec(path)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut lines = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let rec = rec.with_context(|| format!("{}:{}: not CSV", path.display(), i + 1))?;
        lines.push(rec.iter().map(str::to_string).collect::<Vec<_>>());
    }
    let Some(head) = lines.first() else {
        bail!("{}: empty", path.display());
    };
    let Some(status) = head.iter().position(|h| h == "status") else {
        bail!("{}:1: no status column", path.display());
    };
    if head.first().map(String::as_str) != Some("reading") {
        bail!("{}:1: not the header of a readings.csv", path.display());
    }
    let keys = head[..status].to_vec();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate().skip(1) {
        if l.len() != head.len() || !["survived", "eliminated"].contains(&l[status].as_str()) {
            bail!("{}:{}: not a reading's row", path.display(), i + 1);
        }
        out.push((l[..status].to_vec(), l[status].clone()));
    }
    Ok((keys, out))
}

/// The joint section of summary.md.
fn joint_markdown(j: &Joint, races: usize) -> String {
    let mut s = format!(
        "\n## Readings that survived every race\n\n{} of {} readings survived all {races} races (joint.csv lists every reading with its status in each race).\n\n",
        j.survivors,
        j.rows.len()
    );
    if j.survivors == 0 {
        return s + "No reading survived every race.\n";
    }
    let keys = j.header.len() - races - 1;
    let cells = |r: &[String]| {
        r.iter()
            .map(|c| md::text(c))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    s += &format!(
        "| {} |\n|{}\n",
        cells(&j.header[..keys]),
        "---|".repeat(keys)
    );
    for r in j
        .rows
        .iter()
        .filter(|r| r.last().map(String::as_str) == Some("survived"))
        .take(50)
    {
        s += &format!("| {} |\n", cells(&r[..keys]));
    }
    s
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// summary.md: the races, and for synthetic ones the validation figures.
fn markdown(rows: &[RaceRow]) -> String {
    let mut s = String::from("# Races\n\n");
    if let Some(v) = validation(rows) {
        s += &format!(
            "Synthetic validation: the hidden reading survived in {} of {} races; the share of the other readings eliminated was {:.1} % on average and {:.1} % at least.\n\n",
            v.hidden_survived,
            v.races,
            100.0 * v.mean_share,
            100.0 * v.min_share
        );
    }
    s += "| race | experiment | entries | readings | survived | hidden | hidden reading | others eliminated | runs | generations | share of the full factorial (estimate; against its upper bound) |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
    for r in rows {
        // Every field as Markdown text: race.csv is hostile (it may hold a link, HTML or a `|`).
        let get = |key: &str| md::text(r.get(key));
        let share = r.get("others_eliminated_share");
        let others = match share.parse::<f64>() {
            Ok(x) => format!("{} ({:.1} %)", get("others_eliminated"), 100.0 * x),
            Err(_) => "-".into(),
        };
        s += &format!(
            "| [{f}]({h}/report.md) | {} | {} | {} | {} | {} | {} | {others} | {} | {} | {:.2} %; {:.2} % |\n",
            get("experiment"),
            get("entries"),
            get("readings"),
            get("survived"),
            or_dash(&get("hidden")),
            or_dash(&get("hidden_status")),
            get("runs"),
            get("generations"),
            100.0 * r.num("share_of_factorial"),
            100.0 * r.num("share_of_factorial_min"),
            f = md::text(&r.folder),
            h = md::href(&r.folder),
        );
    }
    s
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

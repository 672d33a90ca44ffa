//! Per-puzzle values of each level: the paper's, read and checked from the published tables,
//! and ours, from the runs grouped per algorithm and puzzle entry.

use crate::reports::groups::Group;
use crate::spec::{Loaded, Spec};
use anyhow::{bail, Context, Result};
use std::path::Path;

/// Runs per puzzle of a published table without a `runs` column (Das et al., section 4.2.2:
/// every puzzle was run 100 times).
pub const DEFAULT_PAPER_RUNS: u64 = 100;

/// One row of a published per-puzzle table.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    problem: String,
    #[serde(default)]
    givens: Option<usize>,
    #[serde(default)]
    runs: Option<u64>,
    success: u64,
    #[serde(default)]
    minimum: Option<f64>,
    #[serde(default)]
    maximum: Option<f64>,
    #[serde(default)]
    average: Option<f64>,
    #[serde(default)]
    median: Option<f64>,
    #[serde(default)]
    sd: Option<f64>,
}

/// One puzzle's values, published or ours.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleValue {
    /// The paper's problem number, or our puzzle id.
    pub id: String,
    pub successes: u64,
    pub runs: u64,
    /// Mean and median generations of the successful runs (none without a success).
    pub average: Option<f64>,
    pub median: Option<f64>,
}

impl PuzzleValue {
    pub fn rate(&self) -> f64 {
        self.successes as f64 / self.runs.max(1) as f64
    }

    fn from_group(id: &str, g: &Group) -> PuzzleValue {
        let s = g.generations();
        PuzzleValue {
            id: id.to_string(),
            successes: g.successes,
            runs: g.runs,
            average: s.map(|s| s.mean),
            median: s.map(|s| s.median),
        }
    }
}

/// A level's published table.
#[derive(Debug, Clone)]
pub struct PublishedLevel {
    /// The puzzle label of the level (e.g. "Easy").
    pub label: String,
    /// The file, as named in the spec.
    pub file: String,
    pub puzzles: Vec<PuzzleValue>,
}

/// The columns of a published per-puzzle table.
const COLUMNS: [&str; 9] = [
    "problem", "givens", "runs", "success", "minimum", "maximum", "average", "median", "sd",
];

/// Parse a published per-puzzle table; errors name `name` and the line, never the file's text.
pub fn parse_table(text: &str, name: &str) -> Result<Vec<PuzzleValue>> {
    let rows: Vec<(u64, Row)> =
        crate::reports::published_csv::read_rows(text, name, &COLUMNS, &["problem", "success"])?;
    let mut out = Vec::new();
    for (line, row) in rows {
        let runs = row.runs.unwrap_or(DEFAULT_PAPER_RUNS);
        if runs == 0 || row.success > runs {
            bail!(
                "{name}:{line}: success {} of {runs} runs is impossible",
                row.success
            );
        }
        match (row.success, row.average) {
            (0, Some(_)) => bail!("{name}:{line}: an average without a successful run"),
            (s, None) if s > 0 => bail!("{name}:{line}: {s} successes but no average"),
            (_, Some(a)) if !(a.is_finite() && a >= 0.0) => {
                bail!("{name}:{line}: average {a} is not a generation count")
            }
            _ => {}
        }
        // givens, minimum, maximum and sd are read (the columns are known) but not used.
        let _ = (row.givens, row.minimum, row.maximum, row.sd);
        out.push(PuzzleValue {
            id: row.problem,
            successes: row.success,
            runs,
            average: row.average,
            median: row.median,
        });
    }
    if out.is_empty() {
        bail!("{name}: no rows");
    }
    Ok(out)
}

/// The levels of a spec in the order their labels first appear among its puzzles.
pub fn level_labels(spec: &Spec) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in &spec.puzzles {
        if !out.iter().any(|l| l == p.label()) {
            out.push(p.label().to_string());
        }
    }
    out
}

/// Read and check the published tables of a `report = "levels"` spec (None for other
/// reports): every file parses and has as many rows as its label has puzzles.
pub fn load(
    spec: &Spec,
    base: Option<&Path>,
    loaded: &Loaded,
) -> Result<Option<Vec<PublishedLevel>>> {
    let Some(files) = &spec.published_levels else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for label in level_labels(spec) {
        let file = files
            .get(&label)
            .with_context(|| format!("published_levels: puzzle label '{label}' has no file"))?;
        let key = format!("published_levels '{label}'");
        let text = crate::spec::paper_text(&key, file, base)?;
        let puzzles = parse_table(&text, &format!("{key}: {file}"))?;
        let ours = spec.puzzles.iter().filter(|p| p.label() == label).count();
        if ours != puzzles.len() {
            bail!(
                "published_levels: {file} has {} rows but label '{label}' has {ours} puzzles",
                puzzles.len()
            );
        }
        out.push(PublishedLevel {
            label,
            file: file.clone(),
            puzzles,
        });
    }
    if let Some(e) = loaded.entries.iter().find(|e| e.puzzles != 1) {
        bail!(
            "report \"levels\" needs one puzzle per entry: '{}' holds {}",
            e.id,
            e.puzzles
        );
    }
    Ok(Some(out))
}

/// Our per-puzzle values of every level, `[algorithm][level]`.
pub fn ours(
    spec: &Spec,
    loaded: &Loaded,
    groups: &[Vec<Group>],
    levels: &[PublishedLevel],
) -> Vec<Vec<Vec<PuzzleValue>>> {
    (0..spec.algorithms.len())
        .map(|a| {
            levels
                .iter()
                .map(|l| {
                    loaded
                        .entries
                        .iter()
                        .enumerate()
                        .filter(|(e, _)| spec.puzzles[*e].label() == l.label)
                        .map(|(e, entry)| PuzzleValue::from_group(&entry.id, &groups[a][e]))
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Pooled successes and runs of `puzzles`.
pub fn pooled(puzzles: &[PuzzleValue]) -> (u64, u64) {
    puzzles
        .iter()
        .fold((0, 0), |(s, r), p| (s + p.successes, r + p.runs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_tables_parse() {
        for (name, rows, pooled_successes) in [
            ("paper/ret-ga-table2.csv", 25, 2500),
            ("paper/ret-ga-table3.csv", 25, 2174),
            ("paper/ret-ga-table4.csv", 25, 737),
        ] {
            let text = crate::spec::paper_text("published", name, None).unwrap();
            let t = parse_table(&text, name).unwrap();
            assert_eq!(t.len(), rows);
            assert_eq!(pooled(&t), (pooled_successes, 100 * rows as u64));
            assert!(t.iter().all(|p| p.average.is_some()));
        }
        let bad = "# c\nproblem,givens,success,minimum,maximum,average,median,sd\n1,29,100,1,2,1.5,1,1\n2,29,101,1,2,1.5,1,1\n";
        let e = parse_table(bad, "t.csv").unwrap_err().to_string();
        assert_eq!(e, "t.csv:4: success 101 of 100 runs is impossible");
        let bad = "problem,success,average\n1,5,x\n";
        let e = parse_table(bad, "t.csv").unwrap_err().to_string();
        assert!(e.starts_with("t.csv:2: "), "{e}");
        assert_eq!(e.lines().count(), 1);
    }
}

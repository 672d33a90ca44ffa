//! The published values against ours, as the committed results files state them: every row of
//! comparison.csv (both its layouts), the ours-vs-paper rows and trend claims of levels.csv,
//! and the per-cell grades of grades.csv. Nothing here computes a statistic: it reads the
//! verdict columns the reports wrote, so the findings, the index and the coloured tables can
//! never say something the files do not.

use std::collections::HashMap;
use std::path::Path;

/// What a verdict says, read from its text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// No significant difference, with power to see a two-fold difference.
    Same,
    /// No significant difference, but the test could easily have missed a two-fold one.
    LowPower,
    Higher,
    Lower,
    /// Differs, the file naming no direction.
    Differs,
    /// A published value shown beside ours without a test ("descriptive", "n/a ...").
    Descriptive,
}

impl Kind {
    /// The kind of a verdict cell; None for a text that is not a verdict of ours against the
    /// paper (e.g. a trend claim's "rises as claimed").
    pub fn of(verdict: &str) -> Option<Kind> {
        let t = verdict.trim().to_lowercase();
        Some(if t.starts_with("differs (ours higher)") {
            Kind::Higher
        } else if t.starts_with("differs (ours lower)") {
            Kind::Lower
        } else if t == "differs" || t.starts_with("differs ") {
            Kind::Differs
        } else if t.starts_with("no significant difference") {
            if t.contains("low power") {
                Kind::LowPower
            } else {
                Kind::Same
            }
        } else if t.starts_with("no difference") {
            // Every value equal on both sides: no test applies, and nothing differs.
            Kind::Same
        } else if t.starts_with("descriptive") || t.starts_with("n/a") {
            Kind::Descriptive
        } else {
            return None;
        })
    }

    /// The CSS class of the site (see `markdown::VERDICTS`).
    pub fn class(self) -> &'static str {
        match self {
            Kind::Same => "v-same",
            Kind::LowPower => "v-lowpower",
            Kind::Higher => "v-higher",
            Kind::Lower => "v-lower",
            Kind::Differs => "v-differs",
            Kind::Descriptive => "v-descriptive",
        }
    }
}

/// One published value against ours (one row of comparison.csv or levels.csv).
#[derive(Clone, Debug, Default)]
pub struct Cell {
    /// "primary" for the published table's own cells; other families (e.g. "candidate"
    /// puzzle files of an uncertain level) test extra rows against the same published value.
    pub family: String,
    /// The algorithm label of the spec: the reading (or variant) run.
    pub reading: String,
    pub level: String,
    pub puzzle: String,
    pub statistic: String,
    /// The values as the file writes them, with run counts where a count is a rate.
    pub paper: String,
    pub ours: String,
    pub test: String,
    pub p: String,
    pub p_holm: String,
    pub power: String,
    pub verdict: String,
    pub kind: Option<Kind>,
}

impl Cell {
    pub fn primary(&self) -> bool {
        self.family.is_empty() || self.family == "primary"
    }

    /// What the cell's hover says: the verdict, the test, both p-values and the power.
    pub fn hover(&self) -> String {
        let mut t = self.verdict.clone();
        if !self.test.is_empty() && self.test != "none" {
            t.push_str(&format!(" · test {}", self.test));
        }
        if !self.p_holm.is_empty() {
            t.push_str(&format!(
                " · p (Holm) = {} · raw p = {}",
                self.p_holm, self.p
            ));
        }
        if !self.power.is_empty() {
            t.push_str(&format!(
                " · power to detect a two-fold difference {}",
                self.power
            ));
        }
        t
    }
}

/// One cell of a graded grid (grades.csv): our grade and the paper's.
#[derive(Clone, Debug)]
pub struct Grade {
    pub row: usize,
    pub col: usize,
    pub given: bool,
    pub correct: String,
    pub runs: String,
    pub ours: String,
    pub paper: String,
    pub agree: bool,
}

/// A trend claim of the paper tested on one side (levels.csv, test "claim").
#[derive(Clone, Debug)]
pub struct Claim {
    /// "paper" or "ours: <reading>".
    pub values: String,
    pub verdict: String,
}

/// Everything an experiment's files say about the paper against ours.
#[derive(Clone, Debug, Default)]
pub struct Findings {
    /// The file the cells come from (comparison.csv or levels.csv), if any.
    pub source: Option<String>,
    pub cells: Vec<Cell>,
    pub grades: Vec<Grade>,
    pub claims: Vec<Claim>,
}

/// Counts of verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub same: usize,
    pub low_power: usize,
    pub higher: usize,
    pub lower: usize,
    pub differs: usize,
    pub descriptive: usize,
}

impl Counts {
    pub fn add(&mut self, k: Kind) {
        match k {
            Kind::Same => self.same += 1,
            Kind::LowPower => self.low_power += 1,
            Kind::Higher => self.higher += 1,
            Kind::Lower => self.lower += 1,
            Kind::Differs => self.differs += 1,
            Kind::Descriptive => self.descriptive += 1,
        }
    }
    /// Cells with a test.
    pub fn tested(&self) -> usize {
        self.no_difference() + self.differ()
    }
    /// No significant difference, low power included.
    pub fn no_difference(&self) -> usize {
        self.same + self.low_power
    }
    pub fn differ(&self) -> usize {
        self.higher + self.lower + self.differs
    }
}

impl Findings {
    /// Whether the experiment's files hold any published value.
    pub fn has_published(&self) -> bool {
        !self.cells.is_empty() || !self.grades.is_empty()
    }

    /// The readings in the order the file first names them.
    pub fn readings(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for c in &self.cells {
            if !v.contains(&c.reading) {
                v.push(c.reading.clone());
            }
        }
        v
    }

    /// Counts of the cells of `family` ("primary" or other) and `reading` (None: all).
    pub fn counts(&self, primary: bool, reading: Option<&str>) -> Counts {
        let mut n = Counts::default();
        for c in &self.cells {
            if c.primary() == primary && reading.is_none_or(|r| r == c.reading) {
                if let Some(k) = c.kind {
                    n.add(k);
                }
            }
        }
        n
    }

    /// The published-table cell of `reading` at `level` for `statistic`.
    pub fn cell(&self, reading: &str, level: &str, statistic: &str) -> Option<&Cell> {
        self.cells.iter().find(|c| {
            c.primary() && c.reading == reading && c.level == level && c.statistic == statistic
        })
    }

    /// Grades that agree, and all graded cells.
    pub fn grade_agreement(&self) -> (usize, usize) {
        let same = self.grades.iter().filter(|g| g.agree).count();
        (same, self.grades.len())
    }
}

/// A CSV file of a results folder as header-indexed rows.
struct Table {
    cols: HashMap<String, usize>,
    rows: Vec<csv::StringRecord>,
}

impl Table {
    fn read(path: &Path, name: &str) -> Result<Table, String> {
        let mut r = csv::ReaderBuilder::new().from_reader(
            crate::spec::open_regular(path).map_err(|e| format!("{}: {e}", path.display()))?,
        );
        let head = r
            .headers()
            .map_err(|e| format!("{}: line 1: {e}", path.display()))?
            .clone();
        let cols = head
            .iter()
            .enumerate()
            .map(|(i, h)| (h.trim().to_string(), i))
            .collect();
        let mut rows = Vec::new();
        for (i, row) in r.records().enumerate() {
            rows.push(row.map_err(|e| format!("{}: line {}: {e}", path.display(), i + 2))?);
        }
        let t = Table { cols, rows };
        if t.col(&["verdict", "agree"]).is_none() {
            return Err(format!("{}: {name} has no verdict column", path.display()));
        }
        Ok(t)
    }

    /// The index of the first of `names` that is a column.
    fn col(&self, names: &[&str]) -> Option<usize> {
        names.iter().find_map(|n| self.cols.get(*n).copied())
    }

    /// The value of the first of `names` in `row`, trimmed ("" when none is a column).
    fn get<'a>(&self, row: &'a csv::StringRecord, names: &[&str]) -> &'a str {
        self.col(names)
            .and_then(|i| row.get(i))
            .map(str::trim)
            .unwrap_or("")
    }
}

/// A value with its run count when the statistic is a count of successes: `44/100`.
fn with_runs(value: &str, runs: &str, statistic: &str) -> String {
    if statistic == "count" && !runs.is_empty() && !value.is_empty() {
        format!("{value}/{runs}")
    } else {
        value.to_string()
    }
}

/// The cells of a comparison.csv (the ablation/Table 1 layout, or the counter layout with
/// `paper_mean`, `mean`, `runs`).
fn comparison_cells(t: &Table) -> Vec<Cell> {
    t.rows
        .iter()
        .map(|r| {
            let g = |names: &[&str]| t.get(r, names).to_string();
            let statistic = g(&["statistic"]);
            let verdict = g(&["verdict"]);
            Cell {
                family: g(&["family"]),
                reading: g(&["algorithm"]),
                level: g(&["level"]),
                puzzle: g(&["puzzle"]),
                paper: with_runs(
                    &g(&["paper", "paper_mean"]),
                    &g(&["paper_runs"]),
                    &statistic,
                ),
                ours: with_runs(&g(&["ours", "mean"]), &g(&["our_runs", "runs"]), &statistic),
                test: g(&["test"]),
                p: g(&["p_value", "p"]),
                p_holm: g(&["p_holm"]),
                power: g(&["power_2x"]),
                kind: Kind::of(&verdict),
                verdict,
                statistic,
            }
        })
        .collect()
}

/// The ours-vs-paper cells and the trend claims of a levels.csv.
fn levels_cells(t: &Table, f: &mut Findings) {
    for r in &t.rows {
        let g = |names: &[&str]| t.get(r, names).to_string();
        let verdict = g(&["verdict"]);
        match t.get(r, &["test"]) {
            "ours-vs-paper" => f.cells.push(Cell {
                family: "primary".into(),
                reading: g(&["algorithm"]),
                level: g(&["level"]),
                statistic: g(&["measure"]),
                paper: format!("median {}", g(&["median_b"])),
                ours: format!("median {}", g(&["median_a"])),
                test: "mann_whitney_u".into(),
                p: g(&["p"]),
                p_holm: g(&["p_holm"]),
                power: g(&["power_2x", "power"]),
                kind: Kind::of(&verdict),
                verdict,
                ..Cell::default()
            }),
            "claim" => {
                let values = match (t.get(r, &["values"]), t.get(r, &["algorithm"])) {
                    (v, "") => v.to_string(),
                    (v, a) => format!("{v}: {a}"),
                };
                f.claims.push(Claim { values, verdict });
            }
            _ => {}
        }
    }
}

/// The grades of a grades.csv.
fn grades(t: &Table) -> Result<Vec<Grade>, String> {
    let mut v = Vec::new();
    for (i, r) in t.rows.iter().enumerate() {
        let num = |k: &str| -> Result<usize, String> {
            t.get(r, &[k])
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=64).contains(n))
                .ok_or_else(|| format!("grades.csv: line {}: {k} is not a cell index", i + 2))
        };
        v.push(Grade {
            row: num("row")?,
            col: num("col")?,
            given: t.get(r, &["given"]) == "true",
            correct: t.get(r, &["correct_runs"]).to_string(),
            runs: t.get(r, &["runs"]).to_string(),
            ours: t.get(r, &["ours"]).to_string(),
            paper: t.get(r, &["paper"]).to_string(),
            agree: t.get(r, &["agree"]) == "true",
        });
    }
    Ok(v)
}

/// The findings of the results folder `dir`, whose regular files are `files`. A file that is
/// present but unreadable or malformed is an error naming it and its line.
pub fn load(dir: &Path, files: &[String]) -> Result<Findings, String> {
    let has = |n: &str| files.iter().any(|f| f == n);
    let mut f = Findings::default();
    if has("comparison.csv") {
        let t = Table::read(&dir.join("comparison.csv"), "comparison.csv")?;
        f.cells = comparison_cells(&t);
        f.source = Some("comparison.csv".into());
    } else if has("levels.csv") {
        let t = Table::read(&dir.join("levels.csv"), "levels.csv")?;
        levels_cells(&t, &mut f);
        f.source = Some("levels.csv".into());
    }
    if has("grades.csv") {
        let path = dir.join("grades.csv");
        let t = Table::read(&path, "grades.csv")?;
        f.grades = grades(&t).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_texts_map_to_kinds() {
        assert_eq!(Kind::of("differs (ours higher)"), Some(Kind::Higher));
        assert_eq!(Kind::of("differs (ours lower)"), Some(Kind::Lower));
        assert_eq!(Kind::of("differs"), Some(Kind::Differs));
        assert_eq!(
            Kind::of("no significant difference (low power)"),
            Some(Kind::LowPower)
        );
        assert_eq!(Kind::of("no significant difference"), Some(Kind::Same));
        assert_eq!(Kind::of("descriptive"), Some(Kind::Descriptive));
        assert_eq!(
            Kind::of("n/a (no puzzle with a success on one side)"),
            Some(Kind::Descriptive)
        );
        assert_eq!(Kind::of("rises as claimed"), None);
        let mut c = Counts::default();
        for k in [Kind::Same, Kind::LowPower, Kind::Lower, Kind::Descriptive] {
            c.add(k);
        }
        assert_eq!((c.tested(), c.no_difference(), c.differ()), (3, 2, 1));
    }
}

//! The published tables' own arithmetic, checked before anything is tested against them
//! (`sudoku-lab check-tables`; `sudoku-lab report` runs the same checks for the site and the
//! findings). Every row of every transcribed table in `experiments/paper/` is checked with
//! [`lab_stats::consistency`]: can any sample have what the row prints?
//!
//! What each layout gives the checks:
//! - the Table 1 layout (`level,algorithm,...`, [`super::groups::parse_published`]): `n` is the
//!   row's `count` of successes where it prints one (the minimum .. SD are of the successful
//!   runs), else its `runs` (Benbassat's averages are over every run);
//! - the per-puzzle layout (`problem,success,...`, Das et al.'s journal Tables 2-4,
//!   [`super::levels::values::parse_table`]): `n` is `success`, of `runs` (default
//!   [`super::levels::values::DEFAULT_PAPER_RUNS`]).
//!
//! The values behind `minimum`, `maximum`, `average`, `median` and `sd` are whole numbers in
//! every table (generations, rounds, distinct boards): [`Scale::Integer`]; `time_s` and `ets_s`
//! are reals. A printed value stands for the interval of its rounding, and its trailing zeros
//! are not taken as digits (Table 1's GA column is printed with two decimals ending in 0, as if
//! copied from a one-decimal source): the coarser reading never makes a value impossible.
//! Which SD a paper prints (n - 1 or n) none of them says, so both are tried.
//!
//! The checks of a row: `count` (successes at most the runs; no statistics of zero successes),
//! `order` (minimum <= median <= maximum and minimum <= mean <= maximum), `mean_bounds` (the
//! mean that n values with the printed minimum, median and maximum can have), `grim` (a mean
//! of n whole numbers is k/n), `sd_bounds` (the SD that n values with the printed extremes and
//! mean can have), `grimmer` (the SD of whole numbers with that mean) and `ets` (expected time
//! to success = time per run x runs / successes).

use super::published_csv::read_rows;
use crate::protocol::io::write_atomic_with;
use anyhow::{bail, Context, Result};
use lab_stats::consistency::{
    check_count, check_ets, check_grim, check_grimmer, check_mean, check_order, check_sd, num,
    Check, Printed, Scale, Verdict,
};
use std::io::Write;
use std::path::Path;

/// The folder of the committed record, under the results folder.
pub const FOLDER: &str = "table-checks";

/// The folder of the transcribed tables, beside the results folder.
pub const PAPER: &str = "experiments/paper";

/// One check of one printed cell.
#[derive(Debug, Clone)]
pub struct CheckedCell {
    /// The table: its file name without `.csv` (e.g. `ret-ga-table1`).
    pub table: String,
    /// The row's level (or problem number) and its algorithm (None in the per-puzzle layout).
    pub level: String,
    pub algorithm: Option<String>,
    /// The line of the row in its file.
    pub line: u64,
    /// The printed column the check is about.
    pub column: &'static str,
    pub check: &'static str,
    /// The value as printed.
    pub printed: String,
    pub result: Check,
}

impl CheckedCell {
    /// The row as the record names it: "Difficult / Ret-GA" or "problem 3".
    pub fn row(&self) -> String {
        match &self.algorithm {
            Some(a) => format!("{} / {a}", self.level),
            None => format!("problem {}", self.level),
        }
    }

    pub fn impossible(&self) -> bool {
        self.result.verdict == Verdict::Impossible
    }
}

/// A row of either layout, every field as printed.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    level: Option<String>,
    problem: Option<String>,
    algorithm: Option<String>,
    /// Read so that the column is known; a property of the puzzle, nothing to check.
    #[allow(dead_code)]
    givens: Option<String>,
    runs: Option<String>,
    count: Option<String>,
    success: Option<String>,
    minimum: Option<String>,
    maximum: Option<String>,
    average: Option<String>,
    median: Option<String>,
    sd: Option<String>,
    time_s: Option<String>,
    ets_s: Option<String>,
}

/// The columns of the per-puzzle layout.
const LEVEL_COLUMNS: [&str; 9] = [
    "problem", "givens", "runs", "success", "minimum", "maximum", "average", "median", "sd",
];

/// Whether the header of `text` (its first line that is not a comment or blank) names a
/// `problem` column: the per-puzzle layout.
fn per_puzzle(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|h| h.split(',').any(|c| c.trim() == "problem"))
}

/// Every check of the published table `text` (a CSV of either layout) named `table`; errors
/// name `name` (the file) and the line, never the file's text. The table is first read by the
/// reader the reports use, so a file the reports refuse is refused here with the same message.
pub fn check_table(text: &str, name: &str, table: &str) -> Result<Vec<CheckedCell>> {
    let rows: Vec<(u64, Raw)> = if per_puzzle(text) {
        super::levels::values::parse_table(text, name)?;
        read_rows(text, name, &LEVEL_COLUMNS, &["problem", "success"])?
    } else {
        super::groups::parse_published(text, name)?;
        read_rows(
            text,
            name,
            &super::groups::PUBLISHED_COLUMNS,
            &["level", "algorithm"],
        )?
    };
    let mut out = Vec::new();
    for (line, raw) in rows {
        out.extend(check_row(&raw, name, table, line)?);
    }
    Ok(out)
}

/// The printed numbers of a row.
struct Values {
    runs: Option<u64>,
    /// Successes (or runs where the table prints no count): the values behind the statistics.
    n: Option<u64>,
    count: Option<u64>,
    minimum: Option<Printed>,
    maximum: Option<Printed>,
    average: Option<Printed>,
    median: Option<Printed>,
    sd: Option<Printed>,
    time_s: Option<Printed>,
    ets_s: Option<Printed>,
}

fn whole(v: &Option<String>, column: &str, at: &str) -> Result<Option<u64>> {
    v.as_deref()
        .map(|t| {
            t.trim()
                .parse::<u64>()
                .with_context(|| format!("{at}: column '{column}': not a whole number"))
        })
        .transpose()
}

fn printed(v: &Option<String>, column: &str, at: &str) -> Result<Option<Printed>> {
    v.as_deref()
        .map(|t| match Printed::parse(t, true) {
            Some(p) if p.value >= 0.0 => Ok(p),
            _ => bail!("{at}: column '{column}': not a plain decimal number of at least 0"),
        })
        .transpose()
}

impl Values {
    fn read(raw: &Raw, at: &str, per_puzzle: bool) -> Result<Values> {
        let runs = whole(&raw.runs, "runs", at)?;
        let count = match per_puzzle {
            true => whole(&raw.success, "success", at)?,
            false => whole(&raw.count, "count", at)?,
        };
        let runs = match per_puzzle {
            true => Some(runs.unwrap_or(super::levels::values::DEFAULT_PAPER_RUNS)),
            false => runs,
        };
        Ok(Values {
            runs,
            n: count.or(runs),
            count,
            minimum: printed(&raw.minimum, "minimum", at)?,
            maximum: printed(&raw.maximum, "maximum", at)?,
            average: printed(&raw.average, "average", at)?,
            median: printed(&raw.median, "median", at)?,
            sd: printed(&raw.sd, "sd", at)?,
            time_s: printed(&raw.time_s, "time_s", at)?,
            ets_s: printed(&raw.ets_s, "ets_s", at)?,
        })
    }
}

/// A whole-number extreme (minimum, maximum) as the checks take it: exact when printed
/// without decimals.
fn extreme(p: Printed) -> Printed {
    if p.decimals == 0 {
        Printed::exact(p.value)
    } else {
        p
    }
}

/// Every check of one row.
fn check_row(raw: &Raw, name: &str, table: &str, line: u64) -> Result<Vec<CheckedCell>> {
    let at = format!("{name}:{line}");
    let per_puzzle = raw.problem.is_some();
    let v = Values::read(raw, &at, per_puzzle)?;
    let mut out = Vec::new();
    let mut push = |column: &'static str, check: &'static str, p: String, result: Check| {
        out.push(CheckedCell {
            table: table.to_string(),
            level: raw
                .level
                .clone()
                .or(raw.problem.clone())
                .unwrap_or_default(),
            algorithm: raw.algorithm.clone(),
            line,
            column,
            check,
            printed: p,
            result,
        })
    };
    if let (Some(c), Some(r)) = (v.count, v.runs) {
        push(
            if per_puzzle { "success" } else { "count" },
            "count",
            c.to_string(),
            check_count(c, r),
        );
    }
    let stats = [v.minimum, v.maximum, v.average, v.median, v.sd];
    let n = v.n.unwrap_or(0);
    if v.n == Some(0) && stats.iter().any(Option::is_some) {
        let words = "statistics printed for zero successes".to_string();
        let bad = Check {
            verdict: Verdict::Impossible,
            bound: (0.0, 0.0),
            arithmetic: words,
        };
        push("count", "count", "0".into(), bad);
        return Ok(out);
    }
    let (min, max) = (v.minimum.map(extreme), v.maximum.map(extreme));
    for (column, middle) in [("median", v.median), ("average", v.average)] {
        let Some(m) = middle else { continue };
        let mut seq = Vec::new();
        seq.extend(min.map(|p| ("minimum", p)));
        seq.push((column, m));
        seq.extend(max.map(|p| ("maximum", p)));
        if seq.len() > 1 {
            push(column, "order", m.text(), check_order(&seq));
        }
    }
    if let (Some(avg), true) = (v.average, n > 0) {
        if let (Some(lo), Some(hi)) = (v.minimum, v.maximum) {
            let c = check_mean(n, lo.value, v.median, hi.value, avg, Scale::Integer)?;
            push("average", "mean_bounds", avg.text(), c);
        }
        push("average", "grim", avg.text(), check_grim(n, avg)?);
        if let Some(sd) = v.sd {
            if let (Some(lo), Some(hi)) = (v.minimum, v.maximum) {
                let c = check_sd(n, lo.value, hi.value, avg, sd, Scale::Integer)?;
                push("sd", "sd_bounds", sd.text(), c);
            }
            push("sd", "grimmer", sd.text(), check_grimmer(n, avg, sd)?);
        }
    }
    if let (Some(ets), Some(time), Some(c), Some(r)) = (v.ets_s, v.time_s, v.count, v.runs) {
        if c > 0 && c <= r {
            push("ets_s", "ets", ets.text(), check_ets(ets, time, c, r)?);
        }
    }
    Ok(out)
}

/// What a folder of published tables gives: every check, and the files that are not tables
/// of numbers (with why).
#[derive(Debug, Clone, Default)]
pub struct Checked {
    pub cells: Vec<CheckedCell>,
    pub tables: Vec<String>,
    pub skipped: Vec<(String, &'static str)>,
}

impl Checked {
    pub fn impossible(&self) -> impl Iterator<Item = &CheckedCell> {
        self.cells.iter().filter(|c| c.impossible())
    }

    /// The impossible cells of `table` (a file name without `.csv`).
    pub fn impossible_in<'a>(&'a self, table: &'a str) -> impl Iterator<Item = &'a CheckedCell> {
        self.impossible().filter(move |c| c.table == table)
    }
}

/// Check every `*.csv` of `dir` (in name order); other files are listed as skipped.
pub fn check_folder(dir: &Path) -> Result<Checked> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: not a folder of published tables", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut out = Checked::default();
    for name in names {
        let Some(table) = name.strip_suffix(".csv") else {
            out.skipped.push((name, "not a CSV table of numbers"));
            continue;
        };
        let path = dir.join(&name);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("{}: not readable as UTF-8 text", path.display()))?;
        let shown = path.display().to_string();
        out.cells.extend(check_table(&text, &shown, table)?);
        out.tables.push(table.to_string());
    }
    if out.tables.is_empty() {
        bail!("{}: no published table (*.csv) in it", dir.display());
    }
    Ok(out)
}

/// The bound as the record prints it.
fn bound(c: &Check) -> (String, String) {
    let f = |x: f64| if x.is_finite() { num(x) } else { String::new() };
    (f(c.bound.0), f(c.bound.1))
}

/// checks.csv: one line per check.
pub fn write_csv(path: &Path, checked: &Checked) -> Result<()> {
    write_atomic_with(path, |w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record([
            "table",
            "line",
            "row",
            "column",
            "check",
            "printed",
            "bound_low",
            "bound_high",
            "verdict",
            "arithmetic",
        ])?;
        for c in &checked.cells {
            let (lo, hi) = bound(&c.result);
            csv.write_record([
                c.table.as_str(),
                &c.line.to_string(),
                &c.row(),
                c.column,
                c.check,
                &c.printed,
                &lo,
                &hi,
                c.result.verdict.name(),
                &c.result.arithmetic,
            ])?;
        }
        csv.flush()?;
        Ok(())
    })
}

/// The opening sentence of report.md (and of the findings' section).
pub fn headline(checked: &Checked) -> String {
    let bad: Vec<&CheckedCell> = checked.impossible().collect();
    let mut tables: Vec<&str> = bad.iter().map(|c| c.table.as_str()).collect();
    tables.dedup();
    let mut cells: Vec<(&str, u64, &str)> = bad
        .iter()
        .map(|c| (c.table.as_str(), c.line, c.column))
        .collect();
    cells.dedup();
    if bad.is_empty() {
        return format!(
            "Every one of the {} checks of the {} published tables finds the printed values possible.",
            checked.cells.len(),
            checked.tables.len()
        );
    }
    format!(
        "{} of the {} published tables print values that no sample can have: {} printed cells fail {} of the {} checks, in {}.",
        tables.len(),
        checked.tables.len(),
        cells.len(),
        bad.len(),
        checked.cells.len(),
        tables.join(", ")
    )
}

/// The Markdown table of the impossible cells, `link` making each table's name; with the
/// arithmetic in words, or without (the findings, which link to the record).
pub fn impossible_table(
    checked: &Checked,
    link: impl Fn(&str) -> String,
    arithmetic: bool,
) -> String {
    let mut s = String::from("| table | row (line) | column | check | printed | possible |");
    s.push_str(if arithmetic {
        " arithmetic |\n|---|---|---|---|---|---|---|\n"
    } else {
        "\n|---|---|---|---|---|---|\n"
    });
    for c in checked.impossible() {
        let (lo, hi) = bound(&c.result);
        s.push_str(&format!(
            "| {} | {} ({}) | {} | {} | {} | {} |",
            link(&c.table),
            md_cell(&c.row()),
            c.line,
            c.column,
            c.check,
            c.printed,
            possible(c, &lo, &hi),
        ));
        if arithmetic {
            s.push_str(&format!(" {} |", md_cell(&c.result.arithmetic)));
        }
        s.push('\n');
    }
    s
}

/// The range a cell could have had, in words.
fn possible(c: &CheckedCell, lo: &str, hi: &str) -> String {
    match (c.check, lo.is_empty()) {
        (_, true) => "none".into(),
        ("grim", _) => format!("{lo} or {hi}"),
        _ if lo == hi => lo.to_string(),
        _ => format!("{lo} to {hi}"),
    }
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// report.md of the record.
pub fn report_md(checked: &Checked, paper: &str) -> String {
    let mut s = format!(
        "# The published tables' own arithmetic\n\n{}\n\n",
        headline(checked)
    );
    s.push_str(&format!(
        "Generated by `sudoku-lab check-tables` from the transcribed tables in `{paper}` (every check, with its arithmetic: checks.csv). A value impossible as printed is a property of the table, not of any implementation: no reading of a paper can reproduce it, and a test against it (see each experiment's comparison and each race) tests the printed number as it is.\n\n"
    ));
    if checked.impossible().next().is_some() {
        s.push_str("## Impossible cells\n\n");
        s.push_str(&impossible_table(checked, |t| format!("`{t}`"), true));
        s.push('\n');
    }
    s.push_str("## Checks per table\n\n| table | checks | impossible |\n|---|---|---|\n");
    for t in &checked.tables {
        let all = checked.cells.iter().filter(|c| &c.table == t).count();
        let bad = checked.impossible_in(t).count();
        s.push_str(&format!("| `{t}` | {all} | {bad} |\n"));
    }
    if !checked.skipped.is_empty() {
        s.push_str("\nNot checked: ");
        let names: Vec<String> = (checked.skipped.iter())
            .map(|(n, why)| format!("`{n}` ({why})"))
            .collect();
        s.push_str(&names.join(", "));
        s.push_str(".\n");
    }
    s.push_str(METHOD);
    s
}

/// How the checks read a table, as report.md states it.
const METHOD: &str = "
## How the checks read a table

- n is the row's count of successes (the statistics are of the successful runs), or its runs where it prints no count (Benbassat: averages over every run); the per-puzzle tables' `success` is of 100 runs.
- The values behind minimum, maximum, mean, median and SD are whole numbers (generations, rounds, distinct boards): their sum is whole, the median of an even count is a multiple of one half. A printed value stands for the interval of its rounding (closed: either rule for ties), and trailing zeros are not taken as digits (Table 1's GA column ends every mean in 0). Every check gives the printed values the benefit of these doubts.
- `mean_bounds`: with the minimum, the median and the maximum, the smallest sum puts the values below the median's position at the minimum and those above it at the median, the largest the values below at the median and those above at the maximum (the two middle values of an even count at the median, or half a unit either side of it); each bound is attained by the sample the arithmetic names.
- `grim`: the mean of n whole numbers is k/n. `grimmer`: their sum of squares is a whole number of the sum's parity.
- `sd_bounds`: the largest SD of n values from the minimum to the maximum with the mean puts the others at the extremes but one; the smallest puts them as equal as whole numbers can be. None of the papers says whether its SD divides by n - 1 or by n: an SD is impossible only when it is impossible as both.
- The bounds are tested against every whole-number sample of up to 7 values (lab-stats, `consistency`).
";

/// The race cells (`level/statistic`, as `readings` names them) that test a printed value of
/// `c`: the mean cell (the guarded mean test from the printed mean, SD and count; `mean` for a
/// counter) for an impossible mean or SD, the count cell for a count.
pub fn race_cells(c: &CheckedCell) -> Vec<String> {
    match c.column {
        "average" | "sd" => vec![format!("{}/average", c.level), format!("{}/mean", c.level)],
        "count" => vec![format!("{}/count", c.level)],
        _ => Vec::new(),
    }
}

/// The impossible cells of a table, without their row's algorithm column (a race's table, an
/// experiment's): row (line), column, check, printed, possible range, arithmetic.
fn cells_table(cells: &[&CheckedCell]) -> String {
    let mut s = String::from(
        "| row (line) | column | check | printed | possible | arithmetic |\n|---|---|---|---|---|---|\n",
    );
    for c in cells {
        let (lo, hi) = bound(&c.result);
        s.push_str(&format!(
            "| {} ({}) | {} | {} | {} | {} | {} |\n",
            md_cell(&c.row()),
            c.line,
            c.column,
            c.check,
            c.printed,
            possible(c, &lo, &hi),
            md_cell(&c.result.arithmetic)
        ));
    }
    s
}

/// The number of distinct printed cells (table, line, column) among `cells`.
pub fn distinct_cells(cells: &[CheckedCell]) -> usize {
    distinct(&cells.iter().collect::<Vec<_>>())
}

/// The number of distinct printed cells (table, line, column) among `cells`.
fn distinct(cells: &[&CheckedCell]) -> usize {
    let mut keys: Vec<(&str, u64, &str)> = (cells.iter())
        .map(|c| (c.table.as_str(), c.line, c.column))
        .collect();
    keys.sort();
    keys.dedup();
    keys.len()
}

/// The heading of a race's section (report.md and the race's page).
pub const RACE_HEADING: &str = "## The published table's own arithmetic";

/// What a record of the checks is called in the reports and pages.
const RECORD: &str = "`results/table-checks/report.md` (`sudoku-lab check-tables`)";

/// A race's section on its table's own arithmetic (Markdown; empty when every check of the
/// table is ok): the impossible cells, the race's cells that test them, as printed, and how
/// many of its `readings` were eliminated at one of those (`eliminated_at`: the cell of every
/// eliminated reading).
/// `confirmed_at`: the deciding cell of every reading the confirmation rejected, where the
/// race has a confirmation.
pub fn race_section(
    impossible: &[&CheckedCell],
    eliminated_at: &[String],
    readings: usize,
    confirmed_at: Option<&[String]>,
) -> String {
    if impossible.is_empty() {
        return String::new();
    }
    let mut cells: Vec<String> = impossible.iter().flat_map(|c| race_cells(c)).collect();
    cells.sort();
    cells.dedup();
    let at = eliminated_at.iter().filter(|c| cells.contains(c)).count();
    let confirmed = match confirmed_at {
        Some(c) => format!(
            "; of the readings its confirmation rejected, {} were rejected at one of them",
            c.iter().filter(|c| cells.contains(c)).count()
        ),
        None => String::new(),
    };
    let shown: Vec<String> = (cells.iter())
        .filter(|c| !c.ends_with("/mean"))
        .map(|c| format!("`{c}`"))
        .collect();
    format!(
        "{RACE_HEADING}\n\nThe table as printed is inconsistent: no sample can have the values of {} of its cells, whatever algorithm made it (every check: {RECORD}):\n\n{}\nThe race tested these cells as printed; nothing was changed or dropped. They enter its cells {} (the mean of the successful runs, tested from the printed mean, SD and count): no reading can match a mean or SD that no sample has, so a reading eliminated there may be eliminated by the table rather than by its runs; {at} of the {readings} readings were eliminated at one of them{confirmed}. When no reading survives, this says that no reading fits the table as printed, not that the table could be fitted.\n\n",
        distinct(impossible),
        cells_table(impossible),
        if shown.is_empty() { "none".to_string() } else { shown.join(", ") },
    )
}

/// An experiment's section on the own arithmetic of the published tables it uses (Markdown;
/// empty when they are possible). `levels`: the per-puzzle tables of a `levels` report.
pub fn experiment_section(checked: &Checked, tables: &[String], levels: bool) -> String {
    let bad: Vec<&CheckedCell> = (checked.impossible())
        .filter(|c| tables.contains(&c.table))
        .collect();
    if bad.is_empty() {
        return String::new();
    }
    let mut s = String::from("## The published table's own arithmetic\n\n");
    for t in tables {
        let mine: Vec<&CheckedCell> = bad.iter().copied().filter(|c| &c.table == t).collect();
        if mine.is_empty() {
            continue;
        }
        s.push_str(&format!(
            "`{t}` as printed is inconsistent: no sample can have the values of {} of its cells (every check: {RECORD}):\n\n{}\n",
            distinct(&mine),
            cells_table(&mine)
        ));
    }
    s.push_str(if levels {
        "This experiment uses the printed values as they are; nothing was changed or dropped: the per-puzzle means, medians and success rates enter levels.csv (our distribution over a level's puzzles against the paper's), the printed SDs are not used.\n\n"
    } else {
        "This experiment tests the printed values as they are; nothing was changed or dropped: comparison.csv tests a printed mean with Welch's t-test from the printed mean, SD and count, and shows a printed SD beside ours without a test. A mean no sample can have is one no implementation can reproduce: its verdict says as much about the table as about ours.\n\n"
    });
    s
}

/// The findings' section (Markdown): the headline, the impossible cells and where the record
/// is (`record`: its URL from the findings' folder).
pub fn findings_section(checked: &Checked, record: &str) -> String {
    let mut s = format!(
        "## The published tables' own arithmetic\n\n{} Every check, with its arithmetic: [the record]({record}) (`sudoku-lab check-tables`). A value impossible as printed is a property of the table: the experiments and races that use it test it as printed (their pages say so), and none of them can reproduce it.\n\n",
        headline(checked)
    );
    if checked.impossible().next().is_some() {
        s.push_str(&impossible_table(checked, |t| format!("`{t}`"), false));
        s.push('\n');
    }
    s
}

/// Check `paper` (a folder of published tables) and write checks.csv and report.md into
/// `out`; the checks.
pub fn write_record(paper: &Path, out: &Path) -> Result<Checked> {
    let checked = check_folder(paper)?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    write_csv(&out.join("checks.csv"), &checked)?;
    let shown = paper.display().to_string();
    let md = report_md(&checked, &shown);
    write_atomic_with(&out.join("report.md"), |w| Ok(w.write_all(md.as_bytes())?))?;
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE1: &str = "# a comment
level,givens,algorithm,runs,count,minimum,maximum,average,median,sd
Difficult,23,GA,100,4,18999,46814,20534.30,26162,12506.72
Difficult,23,Ret-GA,100,16,3699,45676,40466.13,33760,11940.66
Easy,36,Ret-GA,100,100,27,305,70.34,52,55.70
";

    /// Das et al.'s rows: the three impossible means and an ok row, named by row and line.
    #[test]
    fn table1_rows() {
        let cells = check_table(TABLE1, "t.csv", "t").unwrap();
        let bad: Vec<(String, u64, &str, &str)> = cells
            .iter()
            .filter(|c| c.impossible())
            .map(|c| (c.row(), c.line, c.column, c.check))
            .collect();
        assert_eq!(
            bad,
            [
                ("Difficult / GA".to_string(), 3, "average", "mean_bounds"),
                (
                    "Difficult / Ret-GA".to_string(),
                    4,
                    "average",
                    "mean_bounds"
                ),
            ]
        );
        let checks: Vec<&str> = cells
            .iter()
            .filter(|c| c.line == 5)
            .map(|c| c.check)
            .collect();
        assert_eq!(
            checks,
            [
                "count",
                "order",
                "order",
                "mean_bounds",
                "grim",
                "sd_bounds",
                "grimmer"
            ]
        );
    }

    /// The per-puzzle layout: `success` of 100 runs; zero successes with statistics refused
    /// by the reports' reader first.
    #[test]
    fn per_puzzle_rows() {
        let text = "problem,givens,success,minimum,maximum,average,median,sd\n1,25,32,6547,48758,28274.34,28743,26643.57\n";
        let cells = check_table(text, "t4.csv", "t4").unwrap();
        let bad: Vec<&str> = cells
            .iter()
            .filter(|c| c.impossible())
            .map(|c| c.check)
            .collect();
        assert_eq!(bad, ["sd_bounds"]);
        assert_eq!(cells[0].row(), "problem 1");
        let e = check_table("problem,success,average\n1,0,5\n", "t.csv", "t").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.csv:2: an average without a successful run"
        );
    }

    /// The sections of a race, an experiment and the headline: the impossible cells counted
    /// once each, the race cells that test them, the readings eliminated or rejected there.
    #[test]
    fn sections_name_the_cells_and_what_was_done() {
        let cells = check_table(TABLE1, "t.csv", "t").unwrap();
        let bad: Vec<&CheckedCell> = cells.iter().filter(|c| c.impossible()).collect();
        let eliminated = ["Difficult/average".to_string(), "Easy/count".to_string()];
        let rejected = ["Difficult/average".to_string()];
        let s = race_section(&bad, &eliminated, 5, Some(&rejected));
        assert!(
            s.contains("no sample can have the values of 2 of its cells"),
            "{s}"
        );
        assert!(
            s.contains("They enter its cells `Difficult/average` ("),
            "{s}"
        );
        assert!(
            s.contains("1 of the 5 readings were eliminated at one of them; of the readings its confirmation rejected, 1 were rejected at one of them."),
            "{s}"
        );
        assert!(s.contains("tested these cells as printed; nothing was changed or dropped"));
        assert!(race_section(&[], &eliminated, 5, None).is_empty());
        let checked = Checked {
            cells: cells.clone(),
            tables: vec!["t".into()],
            skipped: Vec::new(),
        };
        let e = experiment_section(&checked, &["t".into()], false);
        assert!(
            e.contains(
                "`t` as printed is inconsistent: no sample can have the values of 2 of its cells"
            ),
            "{e}"
        );
        assert!(experiment_section(&checked, &["other".into()], false).is_empty());
        let h = headline(&checked);
        assert!(h.starts_with("1 of the 1 published tables print values that no sample can have: 2 printed cells fail 2 of the"), "{h}");
        let f = findings_section(&checked, "../results/table-checks/report.md");
        assert!(f.contains("| `t` | Difficult / GA (3) | average | mean_bounds | 20534.3 | 29534 to 29534.5 |\n"), "{f}");
    }

    /// A hostile or broken table: one line naming the file and the line, never its text.
    #[test]
    fn bad_tables_are_one_line_errors() {
        let head = "level,algorithm,runs,count,minimum,maximum,average,median,sd";
        let cases = [
            (
                format!("{head}\nx,A,100,5,1,9,3.5e0,4,1\n"),
                "t.csv:2: column 'average'",
            ),
            (
                format!("{head}\nx,A,100,5,1,9,-3,4,1\n"),
                "t.csv:2: column 'average'",
            ),
            (
                format!("{head}\nx,A,100,5,1,9,3,4,1\nx,A,100,5,1,9,3,4,1\n"),
                "t.csv:2 and t.csv:3",
            ),
            (
                "root:x:0:0:root\n".to_string(),
                "t.csv: not a published table",
            ),
            (
                format!("{head}\n# c\nx,A,100,1.5,1,9,3,4,1\n"),
                "t.csv:3: column 'count'",
            ),
        ];
        for (text, want) in cases {
            let e = check_table(&text, "t.csv", "t").unwrap_err();
            let shown = format!("{e:#}");
            assert!(shown.starts_with(want), "{text:?}: {shown}");
            assert!(
                !shown.contains('\n') && !shown.contains("root:x"),
                "{shown}"
            );
        }
    }
}

//! Report tables as LaTeX (booktabs) and Markdown.
//!
//! Every `*.csv` of a results folder except `runs.csv` (one row a run: the data, not a report)
//! and `trajectories.csv` (anytime data, exported by `--format ioh`) is read with the `csv`
//! crate, so quoted fields keep their commas, quotes and line breaks, and written as
//! `<name>.tex` or `<name>.md`. A column whose non-empty cells all parse as numbers (`inf` and
//! `nan` included) is right-aligned, any other left-aligned. Each file starts with a comment
//! naming the experiment and the source file.

use super::Format;
use crate::protocol::io::write_atomic;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// Files of a results folder that are data, not report tables.
const NOT_TABLES: [&str; 2] = ["runs.csv", "trajectories.csv"];

/// A CSV table: its header and rows, all of the header's width (the `csv` crate refuses
/// ragged rows).
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Read a report CSV; errors name the file and the record.
pub fn read_table(path: &Path) -> Result<Table> {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(
        crate::spec::open_regular(path)
            .with_context(|| format!("cannot open {}", path.display()))?,
    );
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| anyhow::anyhow!("{}: malformed CSV: {e}", path.display()))?
        .iter()
        .map(str::to_string)
        .collect();
    if header.is_empty() || header.iter().all(String::is_empty) {
        bail!("{}: empty file (no header line)", path.display());
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record =
            record.map_err(|e| anyhow::anyhow!("{}: malformed CSV: {e}", path.display()))?;
        rows.push(record.iter().map(str::to_string).collect());
    }
    Ok(Table { header, rows })
}

/// True for the columns whose non-empty cells are all numbers (at least one of them).
fn numeric_columns(t: &Table) -> Vec<bool> {
    (0..t.header.len())
        .map(|c| {
            let mut cells = t.rows.iter().map(|r| r[c].trim()).filter(|s| !s.is_empty());
            let mut any = false;
            let all = cells.all(|s| {
                any = true;
                s.parse::<f64>().is_ok()
            });
            any && all
        })
        .collect()
}

/// One line: CR LF, CR and LF as spaces (a LaTeX cell or comment ends at a blank line).
fn one_line(s: &str) -> String {
    s.replace("\r\n", " ").replace(['\r', '\n'], " ")
}

/// Escape LaTeX's special characters (`& % $ # _ { } ~ ^ \`, and `< > |`, which the default
/// OT1 font encoding prints as other glyphs) for text mode.
pub fn tex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in one_line(s).chars() {
        match ch {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            _ => out.push(ch),
        }
    }
    out
}

/// A column name of a report CSV (`success_ci_low`, `mw_p_holm`) as a table heading a reader
/// takes in at once (`Success CI low`, `MW p (Holm)`): words split at `_`, abbreviations in
/// capitals, the first letter capitalised unless it is a statistic's symbol (`p`, `n`, `df`).
pub fn readable_header(column: &str) -> String {
    let words: Vec<String> = column
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let known = match w {
                "sd" | "ci" | "ert" | "ets" | "mw" | "mwu" | "ga" | "cd" | "rope" | "km" => {
                    return w.to_uppercase()
                }
                // `a`, `b`: the two sides of a pairwise test (`median_a`, `algorithm_b`).
                "a12" | "q1" | "q3" | "u" | "w" | "v" | "f" | "a" | "b" => return w.to_uppercase(),
                "holm" => "(Holm)",
                "ms" => "(ms)",
                "2x" => "(2x)",
                "gen" => "generations",
                "eval" => "evaluations",
                "chi2" => "chi-squared",
                "nemenyi" | "friedman" | "iman" | "davenport" | "wilcoxon" | "fisher" | "ret" => {
                    let mut c = w.chars();
                    return c
                        .next()
                        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect());
                }
                _ => w,
            };
            known.to_string()
        })
        .collect();
    let text = words.join(" ");
    let symbol = matches!(column.split('_').next(), Some("p" | "n" | "df"));
    let mut c = text.chars();
    match c.next() {
        Some(f) if !symbol => f.to_uppercase().chain(c).collect(),
        _ => text,
    }
}

/// A booktabs tabular: `l` and `r` columns by type, readable headings ([`readable_header`];
/// the CSV column names stay in a comment), `\midrule`, rows.
pub fn latex(t: &Table, experiment: &str, source: &str) -> String {
    let numeric = numeric_columns(t);
    let spec: String = numeric.iter().map(|&n| if n { 'r' } else { 'l' }).collect();
    let line = |cells: &[String]| -> String {
        let cells: Vec<String> = cells.iter().map(|c| tex_escape(c.trim())).collect();
        format!("{} \\\\\n", cells.join(" & "))
    };
    let mut s = format!(
        "% Experiment {}, table {} (sudoku-lab export). Needs \\usepackage{{booktabs}}.\n",
        one_line(experiment),
        one_line(source)
    );
    let columns: Vec<String> = t.header.iter().map(|h| one_line(h)).collect();
    s.push_str(&format!("% Columns: {}\n", columns.join(",")));
    s.push_str(&format!("\\begin{{tabular}}{{{spec}}}\n\\toprule\n"));
    let headings: Vec<String> = t.header.iter().map(|h| readable_header(h)).collect();
    s.push_str(&line(&headings));
    s.push_str("\\midrule\n");
    for r in &t.rows {
        s.push_str(&line(r));
    }
    s.push_str("\\bottomrule\n\\end{tabular}\n");
    s
}

/// A Markdown table cell: `|` escaped, `<` and `>` as entities (else a `<word>` is taken for
/// an HTML tag and vanishes), line breaks as `<br>`.
pub fn md_escape(s: &str) -> String {
    s.trim()
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace(['\r', '\n'], "<br>")
}

/// A GitHub pipe table, with an HTML comment naming the experiment and the source.
pub fn markdown(t: &Table, experiment: &str, source: &str) -> String {
    let numeric = numeric_columns(t);
    let line = |cells: &[String]| -> String {
        let cells: Vec<String> = cells.iter().map(|c| md_escape(c)).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    // "--" would end the comment early.
    let comment = |s: &str| one_line(s).replace("--", "- -");
    let mut s = format!(
        "<!-- Experiment {}, table {} (sudoku-lab export) -->\n\n",
        comment(experiment),
        comment(source)
    );
    s.push_str(&line(&t.header));
    let rule: Vec<&str> = numeric
        .iter()
        .map(|&n| if n { "---:" } else { ":---" })
        .collect();
    s.push_str(&format!("| {} |\n", rule.join(" | ")));
    for r in &t.rows {
        s.push_str(&line(r));
    }
    s
}

/// The report tables of a results folder, sorted by name.
fn report_tables(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = entry
            .with_context(|| format!("cannot list {}", dir.display()))?
            .path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_file()
            && name.ends_with(".csv")
            && !name.starts_with('.')
            && !NOT_TABLES.contains(&name)
        {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}

/// Write `<name>.tex` or `<name>.md` for every report table of `dir` into `out`. All tables
/// are read (and so checked) before the first file is written.
pub fn export(format: Format, dir: &Path, experiment: &str, out: &Path) -> Result<()> {
    let paths = report_tables(dir)?;
    if paths.is_empty() {
        bail!(
            "{}: no report tables (*.csv other than runs.csv and trajectories.csv)",
            dir.display()
        );
    }
    let tables = paths
        .iter()
        .map(|p| read_table(p).map(|t| (p, t)))
        .collect::<Result<Vec<_>>>()?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let ext = if format == Format::Latex { "tex" } else { "md" };
    let mut written = Vec::new();
    for (path, table) in &tables {
        let source = path.display().to_string();
        let text = match format {
            Format::Latex => latex(table, experiment, &source),
            _ => markdown(table, experiment, &source),
        };
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("table");
        let name = PathBuf::from(format!("{stem}.{ext}"));
        write_atomic(&out.join(&name), text.as_bytes())?;
        written.push(name);
    }
    let text = format!(
        "{} tables of {} as {ext} in {}",
        tables.len(),
        dir.display(),
        out.display()
    );
    println!("{}", sudoku_core::error::shown(&text));
    super::print_written(out, &written);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::readable_header;

    #[test]
    fn column_names_read_as_headings() {
        for (column, heading) in [
            ("success_ci_low", "Success CI low"),
            ("mw_p_holm", "MW p (Holm)"),
            ("ert_evaluations", "ERT evaluations"),
            ("km_solved_fraction", "KM solved fraction"),
            ("p_value", "p value"),
            ("algorithm_a", "Algorithm A"),
            ("a12_magnitude", "A12 magnitude"),
            ("gen_sd", "Generations SD"),
            ("wall_ms_mean", "Wall (ms) mean"),
            ("friedman_chi2", "Friedman chi-squared"),
            ("power_2x", "Power (2x)"),
            ("rope", "ROPE"),
            ("p_a_better", "p A better"),
            ("verdict", "Verdict"),
            ("", ""),
        ] {
            assert_eq!(readable_header(column), heading, "{column}");
        }
    }
}

//! The findings as Markdown: `findings.md` (paper by paper, experiment by experiment, per
//! reading: cells tested, no significant difference, of which low power, differs, descriptive
//! only) and `findings-summary.md` (one row per experiment with published values), which a
//! README includes between the markers [`START`] and [`END`]. Every number is a count of the
//! verdicts the results files state (see `findings.rs`); nothing is typed.

use super::findings::{Counts, Findings};
use super::html::{escape, url_path};
use std::fmt::Write as _;

/// The markers of the README block that must equal `findings-summary.md`.
pub const START: &str = "<!-- findings-summary -->";
pub const END: &str = "<!-- /findings-summary -->";

/// One experiment as the findings show it.
pub struct Entry<'a> {
    pub folder: &'a str,
    pub title: String,
    /// The spec's `paper` text ("Maire & Prissette (001), Table 1").
    pub paper: String,
    /// "full", "reduced (--runs 10)" or "quick".
    pub protocol: String,
    pub findings: &'a Findings,
}

/// Text safe in Markdown and HTML: `<`, `>`, `&` as entities, Markdown punctuation escaped.
pub fn md_text(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        match c {
            '&' if starts_entity(&s[i + 1..]) => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '!' | '~' => {
                o.push('\\');
                o.push(c);
            }
            '\n' | '\r' => o.push(' '),
            c if c.is_control() => {}
            c => o.push(c),
        }
    }
    o
}

/// Whether the text after a `&` would make it an entity (`lt;`, `#60;`): only then is the
/// `&` escaped, so "Maire & Prissette" stays readable in the Markdown source.
fn starts_entity(rest: &str) -> bool {
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '#')
        .collect();
    !name.is_empty() && rest[name.len()..].starts_with(';')
}

/// The paper an experiment belongs to: the spec's `paper` text up to its first `,`, `;` or
/// `(`, with the first parenthesised code after the name (`Das et al. (002)`).
pub fn paper_group(paper: &str) -> String {
    let end = paper.find([',', ';', '(']).unwrap_or(paper.len());
    let name = paper[..end].trim();
    let code = paper
        .split('(')
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .find(|c| !c.is_empty() && c.chars().all(|x| x.is_ascii_digit()));
    let name = if name.is_empty() {
        "no paper named"
    } else {
        name
    };
    match code {
        Some(c) => format!("{name} ({c})"),
        None => name.to_string(),
    }
}

/// Cells that differ: "5 (2 / 3)" (ours higher / lower), with those whose file states no
/// direction named apart.
fn differs_text(c: &Counts) -> String {
    match (c.differ(), c.differs) {
        (0, _) => "0".into(),
        (n, 0) => format!("{n} ({} / {})", c.higher, c.lower),
        (n, u) if u == n => format!("{n} (direction not stated)"),
        (n, u) => format!("{n} ({} / {}; {u} direction not stated)", c.higher, c.lower),
    }
}

/// One line of a counts table.
fn counts_row(label: &str, c: &Counts) -> String {
    format!(
        "| {label} | {} | {} | {} | {} | {} |\n",
        c.tested(),
        c.no_difference(),
        c.low_power,
        differs_text(c),
        c.descriptive
    )
}

const COUNTS_HEAD: &str = "| Reading | Cells tested | No significant difference | of which low power | Differs (ours higher / lower) | Descriptive only |\n|---|---|---|---|---|---|\n";

/// The counts table of one experiment and family (primary, or the other families).
fn counts_table(f: &Findings, primary: bool) -> String {
    let mut s = String::from(COUNTS_HEAD);
    let readings: Vec<String> = f
        .readings()
        .into_iter()
        .filter(|r| {
            f.cells
                .iter()
                .any(|c| c.reading == *r && c.primary() == primary)
        })
        .collect();
    for r in &readings {
        s.push_str(&counts_row(&md_text(r), &f.counts(primary, Some(r))));
    }
    if readings.len() > 1 {
        s.push_str(&counts_row("**all**", &f.counts(primary, None)));
    }
    s
}

/// The grades line of an experiment with grades.csv.
fn grades_text(f: &Findings) -> String {
    let (same, all) = f.grade_agreement();
    let differ: Vec<String> = f
        .grades
        .iter()
        .filter(|g| !g.agree)
        .map(|g| {
            format!(
                "r{}c{} (ours {}, {}/{} runs right; paper {})",
                g.row,
                g.col,
                md_text(&g.ours),
                md_text(&g.correct),
                md_text(&g.runs),
                md_text(&g.paper)
            )
        })
        .collect();
    let mut s = format!(
        "Grades of {all} cells (grades.csv; A = right in every run, B = right in at least 90 % \
         of the runs, `.` otherwise; no test): {same} the same as the paper's, {} other",
        all - same
    );
    if !differ.is_empty() {
        let _ = write!(s, ": {}", differ.join("; "));
    }
    s.push_str(".\n");
    s
}

/// The trend-claims line of an experiment with levels.csv.
fn claims_text(f: &Findings) -> String {
    let mut groups: Vec<(String, Vec<(String, usize)>)> = Vec::new();
    for c in &f.claims {
        let i = match groups.iter().position(|(v, _)| *v == c.values) {
            Some(i) => i,
            None => {
                groups.push((c.values.clone(), Vec::new()));
                groups.len() - 1
            }
        };
        let counts = &mut groups[i].1;
        match counts.iter_mut().find(|(v, _)| *v == c.verdict) {
            Some((_, n)) => *n += 1,
            None => counts.push((c.verdict.clone(), 1)),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(values, counts)| {
            let c: Vec<String> = counts
                .iter()
                .map(|(v, n)| format!("{n} {}", md_text(v)))
                .collect();
            format!("{}: {}", md_text(values), c.join(", "))
        })
        .collect();
    format!(
        "The paper's trend claims from level to level (levels.csv, tests `claim`), tested on \
         each side: {}.\n",
        parts.join("; ")
    )
}

/// The section of one experiment; `results` is the results folder's URL from the file.
fn experiment_section(e: &Entry, results: &str) -> String {
    let f = e.findings;
    let mut s = format!(
        "<a id=\"{}\"></a>\n\n### {}: {}\n\n",
        escape(e.folder),
        md_text(e.folder),
        md_text(&e.title)
    );
    let page = format!("[page]({}.html)", url_path(e.folder));
    if !f.has_published() {
        let _ = writeln!(
            s,
            "No published values: the variants are compared with one another ({page}).\n"
        );
        return s;
    }
    let _ = write!(
        s,
        "Published: {} · protocol: {} · {page}",
        md_text(&e.paper),
        e.protocol
    );
    for file in f
        .source
        .iter()
        .map(String::as_str)
        .chain((!f.grades.is_empty()).then_some("grades.csv"))
    {
        let _ = write!(s, " · [{file}]({results}/{}/{file})", url_path(e.folder));
    }
    s.push_str("\n\n");
    if !f.cells.is_empty() {
        s.push_str(&counts_table(f, true));
        s.push('\n');
    }
    if f.cells.iter().any(|c| !c.primary()) {
        s.push_str(
            "Puzzle-identity candidates (other puzzle files for a level whose puzzle is \
             uncertain, each tested against the same published value; not counted above):\n\n",
        );
        s.push_str(&counts_table(f, false));
        s.push('\n');
    }
    if !f.grades.is_empty() {
        s.push_str(&grades_text(f));
        s.push('\n');
    }
    if !f.claims.is_empty() {
        s.push_str(&claims_text(f));
        s.push('\n');
    }
    s
}

/// One row of the summary table.
fn summary_row(e: &Entry, link: &str) -> String {
    let f = e.findings;
    let id = format!("[{}]({link}{})", md_text(e.folder), url_path(e.folder));
    let tail = format!("{} | {} |", e.protocol, md_text(&e.paper));
    if f.cells.is_empty() {
        let (same, all) = f.grade_agreement();
        return format!(
            "| {id} | {all} cells graded, no test | {same} same grade | - | {} other grade | {tail}\n",
            all - same
        );
    }
    let c = f.counts(true, None);
    format!(
        "| {id} | {} | {} | {} | {} | {tail}\n",
        c.tested(),
        c.no_difference(),
        c.low_power,
        differs_text(&c)
    )
}

/// The summary table: one row per experiment with published values, each linked to its
/// section of findings.md through `link` (e.g. `docs/findings.md#` from the README).
pub fn summary_table(entries: &[Entry], link: &str) -> String {
    let mut s = String::from(
        "| Experiment | Cells tested | No significant difference | of which low power | Differs (ours higher / lower) | Protocol | Published values |\n|---|---|---|---|---|---|---|\n",
    );
    for e in entries.iter().filter(|e| e.findings.has_published()) {
        s.push_str(&summary_row(e, link));
    }
    s
}

/// `findings-summary.md`: the summary table as the README includes it (links from the
/// README's folder, `readme_link` = e.g. `docs/findings.md#`).
pub fn summary_file(entries: &[Entry], readme_link: &str) -> String {
    format!(
        "<!-- Generated by `sudoku-lab report` from the results folders: do not edit. -->\n\n{}",
        summary_table(entries, readme_link)
    )
}

const INTRO: &str = "Generated by `sudoku-lab report` from the committed results files (the \
verdict columns of each experiment's comparison.csv or levels.csv, and grades.csv): do not \
edit, run the command. Each published value of a paper is one cell, counted per experiment and \
per reading (the spec's algorithm label):\n\n\
- **Cells tested**: published values with a test against ours (Fisher's exact test for \
success counts, Welch's t-test where the paper prints an SD, Mann-Whitney U over the puzzles \
of a level), Holm-adjusted within the experiment, significant at p < 0.05.\n\
- **No significant difference**: the test found none, which is not evidence of agreement; \
**of which low power**: the test had less than 80 % power to detect a two-fold difference.\n\
- **Differs**: significant; ours higher / lower than the paper's value.\n\
- **Descriptive only**: published values shown beside ours without a test (minimum, median, \
maximum and SD of the effort, givens, times measured on another machine, averages without a \
published SD or without successes on one side).\n\n\
An ablation runs several variants against the same published row: each variant's cells are \
counted under its own reading.\n";

/// `findings.md`: paper by paper, experiment by experiment. `results` is the results
/// folder's URL from the file's folder.
pub fn findings_file(entries: &[Entry], results: &str) -> String {
    let mut s = format!("# Findings: the published values against ours\n\n{INTRO}\n## Summary\n\n");
    s.push_str(&summary_table(entries, "#"));
    let mut papers: Vec<(bool, String)> = entries
        .iter()
        .map(|e| (!e.findings.has_published(), paper_group(&e.paper)))
        .collect();
    papers.sort();
    papers.dedup_by(|a, b| a.1 == b.1);
    for (_, paper) in &papers {
        let _ = write!(s, "\n## {}\n\n", md_text(paper));
        let mut mine: Vec<&Entry> = entries
            .iter()
            .filter(|e| paper_group(&e.paper) == *paper)
            .collect();
        mine.sort_by_key(|e| !e.findings.has_published());
        for e in mine {
            s.push_str(&experiment_section(e, results));
        }
    }
    s
}

/// The text between the README's markers, if it has both (in order).
pub fn marked_block(readme: &str) -> Option<&str> {
    let a = readme.find(START)? + START.len();
    let b = a + readme[a..].find(END)?;
    Some(&readme[a..b])
}

/// `readme` with its marked block replaced by `summary` (None without both markers).
pub fn with_block(readme: &str, summary: &str) -> Option<String> {
    let block = marked_block(readme)?;
    let a = block.as_ptr() as usize - readme.as_ptr() as usize;
    Some(format!(
        "{}\n{}{}",
        &readme[..a],
        summary,
        &readme[a + block.len()..]
    ))
}

/// Whether the README's block is `summary` (true when the README has no markers).
pub fn block_is_current(readme: &str, summary: &str) -> bool {
    marked_block(readme).is_none_or(|b| b.trim() == summary.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn papers_are_grouped_by_name_and_code() {
        assert_eq!(
            paper_group("Das et al., Table 1 (000): GA rows"),
            "Das et al. (000)"
        );
        assert_eq!(
            paper_group("Das et al. (002), Tables 2-4"),
            "Das et al. (002)"
        );
        assert_eq!(
            paper_group("Maire & Prissette (001), Table 3, first row"),
            "Maire & Prissette (001)"
        );
        assert_eq!(
            paper_group("issue 9: no paper; x (000)"),
            "issue 9: no paper (000)"
        );
        assert_eq!(paper_group(""), "no paper named");
        assert_eq!(
            md_text("a|b <i>*x*</i>"),
            "a\\|b &lt;i&gt;\\*x\\*&lt;/i&gt;"
        );
        assert_eq!(md_text("M&K &lt; &#60;"), "M&K &amp;lt; &amp;\\#60;");
    }

    #[test]
    fn the_readme_block_is_compared_and_replaced_between_the_markers() {
        let summary = "| a |\n|---|\n| 1 |\n";
        let readme = format!("# R\n\n{START}\n{summary}{END}\n\nrest\n");
        assert!(block_is_current(&readme, summary));
        assert!(!block_is_current(&readme, "| a |\n|---|\n| 2 |\n"));
        assert!(block_is_current("# no markers\n", summary));
        let stale = format!("# R\n\n{START}\nold\n{END}\n\nrest\n");
        let fresh = with_block(&stale, summary).unwrap();
        assert_eq!(fresh, readme);
        assert!(with_block("# none", summary).is_none());
        assert!(marked_block(&format!("{END} {START}")).is_none());
    }

    /// The README's findings block (when it has the markers) is the committed
    /// docs/findings-summary.md, which `committed_site_is_current` checks is what `report`
    /// writes for the committed results: a README whose summary drifted fails here.
    #[test]
    fn the_readme_summary_block_is_current() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
        let summary = std::fs::read_to_string(repo.join("docs/findings-summary.md")).unwrap();
        assert!(
            block_is_current(&readme, &summary),
            "README.md: the block between {START} and {END} is not docs/findings-summary.md: \
             run `sudoku-lab report` (it rewrites the block)"
        );
    }
}

//! The findings at a glance, per paper and column: which published column reproduces, which
//! does not, and how sure the tests are, each with its "why" (a section of
//! docs/experiments.md) and its paper resolved to a short citation of docs/bibliography.md.
//! Every count is read from the verdicts of the results files (see `findings.rs`); the words
//! are chosen by fixed thresholds on those counts, never typed per experiment.

use super::findings::Findings;
use super::html::{escape, url_path};
use super::summary::{md_text, source_text};
use std::fmt::Write as _;

/// The columns of an experiment as the glance shows them: one per reading when the experiment
/// runs a few readings (two to four), each tested on several cells, as the columns of a
/// published table (Ret-GA's Table 1: the M&K GA, Ret-GA as written, a reading of it); else
/// the experiment pooled (one configuration per published cell, or an ablation of many
/// variants against one published row).
pub fn columns(f: &Findings) -> Vec<Option<String>> {
    let readings: Vec<String> = (f.readings().into_iter())
        .filter(|r| f.counts(true, Some(r)).tested() > 0)
        .collect();
    let split = (2..=4).contains(&readings.len())
        && readings
            .iter()
            .all(|r| f.counts(true, Some(r)).tested() >= 2);
    if split {
        readings.into_iter().map(Some).collect()
    } else {
        vec![None]
    }
}

/// The outcome of a column in a few words, from its counts: no cell differs; mostly (fewer
/// than half of the tested cells differ); or does not reproduce (half or more differ); with
/// how many of the cells without a difference had low power (a weak test).
pub fn outcome(f: &Findings, reading: Option<&str>) -> String {
    if f.cells.is_empty() {
        if f.grades.is_empty() {
            return "no published values".into();
        }
        let (same, all) = f.grade_agreement();
        let other = all - same;
        return match () {
            _ if other == 0 => format!("every one of {all} cells graded as the paper (no test)"),
            _ if 2 * other < all => {
                format!("mostly: {other} of {all} cells graded otherwise (no test)")
            }
            _ => format!("does not reproduce: {other} of {all} cells graded otherwise (no test)"),
        };
    }
    let c = f.counts(true, reading);
    let (t, d) = (c.tested(), c.differ());
    let weak = match (c.low_power, d) {
        (0, _) => String::new(),
        (n, 0) => format!(", {n} of them with low power"),
        (n, _) => format!(", {n} of the others with low power"),
    };
    if t == 0 {
        "no published value tested".into()
    } else if d == 0 {
        format!("no cell differs of {t} tested{weak}")
    } else if 2 * d < t {
        format!("mostly: {d} of {t} cells differ{weak}")
    } else {
        format!("does not reproduce: {d} of {t} cells differ{weak}")
    }
}

/// The papers of docs/bibliography.md: code (`000`), short citation, anchor.
#[derive(Default, Debug, Clone)]
pub struct Bib {
    entries: Vec<(String, String, String)>,
}

impl Bib {
    /// Reads the table rows ``| `000` | [Das et al., conference version](#das-conference) |``.
    pub fn parse(md: &str) -> Bib {
        let mut entries = Vec::new();
        for line in md.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if cells.len() < 3 {
                continue;
            }
            let code = cells[1].trim_matches('`');
            let link = cells[2];
            if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let Some((name, rest)) = link.strip_prefix('[').and_then(|l| l.split_once("](#"))
            else {
                continue;
            };
            let anchor = rest.trim_end_matches(')');
            if anchor
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            {
                entries.push((code.to_string(), name.to_string(), anchor.to_string()));
            }
        }
        Bib { entries }
    }

    fn find(&self, code: &str) -> Option<(&str, &str)> {
        (self.entries.iter())
            .find(|(c, _, _)| c == code)
            .map(|(_, n, a)| (n.as_str(), a.as_str()))
    }
}

/// The parts of `paper`: text, and paper codes `(000)` (the code alone).
fn parts(paper: &str) -> Vec<(bool, &str)> {
    let mut v = Vec::new();
    let mut rest = paper;
    while let Some(i) = rest.find('(') {
        let code = rest[i + 1..].split(')').next().unwrap_or("");
        let is_code =
            code.len() == 3 && code.bytes().all(|b| b.is_ascii_digit()) && rest[i + 1..].len() > 3;
        if is_code {
            v.push((false, &rest[..i + 1]));
            v.push((true, code));
            rest = &rest[i + 4..];
        } else {
            v.push((false, &rest[..i + 1]));
            rest = &rest[i + 1..];
        }
    }
    v.push((false, rest));
    v
}

/// The paper text as HTML, each known code replaced by its short citation linked to
/// `bib_page` (e.g. `bibliography.html`); codes the bibliography lacks stay as they are.
pub fn cite_html(paper: &str, bib: &Bib, bib_page: &str) -> String {
    let mut s = String::new();
    for (code, text) in parts(&source_text(paper)) {
        match (code, bib.find(text)) {
            (true, Some((name, anchor))) => {
                let _ = write!(
                    s,
                    "<a href=\"{}#{anchor}\" title=\"paper {}\">{}</a>",
                    url_path(bib_page),
                    escape(text),
                    escape(name)
                );
            }
            _ => s.push_str(&escape(text)),
        }
    }
    s
}

/// The paper of a spec's paper text as a short citation: its first code's entry of the
/// bibliography, linked to `bib_file`; else the text up to its first `,` or `;`.
pub fn paper_md(paper: &str, bib: &Bib, bib_file: &str) -> String {
    let text = source_text(paper);
    let first = parts(&text)
        .into_iter()
        .find_map(|(code, t)| code.then(|| bib.find(t)).flatten());
    match first {
        Some((name, anchor)) => format!("[{}]({bib_file}#{anchor})", md_text(name)),
        None => md_text(text.split([',', ';']).next().unwrap_or("").trim()),
    }
}

/// The anchor of an experiment's "why" in docs/experiments.md.
pub fn why_anchor(folder: &str) -> String {
    format!("why-{folder}")
}

/// Whether docs/experiments.md (its text) has the experiment's "why" anchor.
pub fn has_why(experiments_md: &str, folder: &str) -> bool {
    experiments_md.contains(&format!("<a id=\"{}\"></a>", why_anchor(folder)))
}

/// One experiment as the glance shows it.
pub struct Row<'a> {
    pub folder: &'a str,
    pub paper: String,
    pub findings: &'a Findings,
}

/// The glance table in Markdown, with links relative to the folder of the file it is written
/// in: `docs` is that folder's URL of docs/ ("" when it is docs/), `experiments_md` the text
/// of docs/experiments.md (for the "why" anchors; empty: no "why" links).
pub fn table_md(rows: &[Row], bib: &Bib, docs: &str, experiments_md: &str) -> String {
    let mut s = String::from(
        "| Paper | Experiment: column | Outcome (Holm-adjusted tests of the published cells) | Why |\n|---|---|---|---|\n",
    );
    let bib_file = format!("{docs}bibliography.md");
    let mut rows: Vec<(String, &Row)> = (rows.iter())
        .filter(|r| r.findings.has_published())
        .map(|r| (paper_md(&r.paper, bib, &bib_file), r))
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    for (paper, r) in rows {
        for col in columns(r.findings) {
            let name = match &col {
                Some(c) => format!(": {}", md_text(c)),
                None => String::new(),
            };
            let why = match has_why(experiments_md, r.folder) {
                true => format!(
                    "[why]({docs}experiments.md#{})",
                    url_path(&why_anchor(r.folder))
                ),
                false => "-".into(),
            };
            let _ = writeln!(
                s,
                "| {paper} | [{}](findings.md#{}){name} | {} | {why} |",
                md_text(r.folder),
                url_path(r.folder),
                md_text(&outcome(r.findings, col.as_deref())),
            );
        }
    }
    s
}

/// `md` with every relative link target `](x)` written as seen from a folder `prefix` above
/// it (`docs`: `findings.md` becomes `docs/findings.md`, `../results/a` becomes `results/a`).
pub fn rebase_links(md: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(md.len() + 64);
    let mut rest = md;
    while let Some(i) = rest.find("](") {
        out.push_str(&rest[..i + 2]);
        rest = &rest[i + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = &rest[..end];
        let relative = !(target.is_empty()
            || target.starts_with('#')
            || target.starts_with('/')
            || target.contains(':'));
        if relative && !prefix.is_empty() && prefix != "." {
            out.push_str(&join_url(prefix, target));
        } else {
            out.push_str(target);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// `prefix/target` with `x/..` pairs removed.
fn join_url(prefix: &str, target: &str) -> String {
    let mut parts: Vec<&str> = prefix.split('/').filter(|p| !p.is_empty()).collect();
    for p in target.split('/') {
        match p {
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            "." => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_rebased_from_a_subfolder() {
        let md = "[a](findings.md#x) [b](../results/r/report.md) [c](#top) [d](https://e.org/x)";
        assert_eq!(
            rebase_links(md, "docs"),
            "[a](docs/findings.md#x) [b](results/r/report.md) [c](#top) [d](https://e.org/x)"
        );
        assert_eq!(rebase_links(md, ""), md);
        assert_eq!(join_url("../docs", "../results/a"), "../results/a");
    }

    #[test]
    fn paper_codes_become_citations_and_issue_references_go() {
        let bib = Bib::parse(
            "| code | paper |\n|---|---|\n| `000` | [Das et al., conference version](#das-conference) | x |\n",
        );
        assert_eq!(
            paper_md(
                "Das et al., Table 1 (000): GA rows",
                &bib,
                "bibliography.md"
            ),
            "[Das et al., conference version](bibliography.md#das-conference)"
        );
        assert_eq!(
            paper_md(concat!("issue 9", ": no paper; x"), &bib, "b.md"),
            "no paper"
        );
        assert_eq!(
            cite_html("Table (000) (999)", &bib, "bibliography.html"),
            "Table (<a href=\"bibliography.html#das-conference\" title=\"paper 000\">Das et al., \
             conference version</a>) (999)"
        );
        assert_eq!(
            source_text(concat!("issue 9", ": no paper; Ret-GA Table 1's puzzles")),
            "no paper; Ret-GA Table 1's puzzles"
        );
        assert_eq!(source_text("an issue of taste"), "an issue of taste");
    }
}

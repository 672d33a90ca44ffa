//! Number provenance and links of the prose: every number in README.md and
//! docs/*.md must come from a committed results file, so that words cannot drift from the data.
//!
//! The rule, as the prose is written (docs/architecture.md, "Numbers in the prose"):
//! - a number of README.md or docs/*.md (the generated docs/findings*.md aside) must be found in
//!   a committed results file (results/, results-bench/, results-cluster/: every CSV, Markdown,
//!   JSON and text file but the per-run files runs.csv and trajectories.csv) or in a generated
//!   findings file (docs/findings*.md), equal once the file's value is rounded to the digits
//!   the prose shows (a number followed by `%` may also be a file's fraction times 100);
//!   where a section (between two headings) names experiments (`reseda-table4`), results-bench
//!   or results-cluster, only those files (and the findings) count, so that a number comes from
//!   the experiment the text is about;
//! - docs/bibliography.md is not checked (volumes, pages and years of citations), nor
//!   docs/performance.md, which `sudoku-lab report` writes from results-bench/ (its ratios are
//!   computed from the records; `committed_site_is_current` checks it is what they give);
//! - not checked: code (fenced blocks and `code spans`: commands, settings, limits, names),
//!   quotations ("..."), spans `(paper: ...)` quoted from a paper, HTML comments, link targets
//!   and URLs, numbers that are part of a name (9x9, r2c5, mk_1star, a revision, a version
//!   1.0.5), years, and numbers naming a part of a text or the project (Table 4, section 4.1,
//!   eq. (7)).
//!
//! And every relative link of those files (README.md and docs/*.md, generated ones included)
//! must lead to a file of the repository, and an anchor to a heading (or `<a id>`) of its
//! Markdown file; and README.md must link to every hand-written docs/*.md.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A number as the prose writes it: its value and half a unit of its last digit.
#[derive(Debug, Clone, PartialEq)]
struct Num {
    text: String,
    value: f64,
    half_ulp: f64,
    percent: bool,
}

/// The committed values: sorted, for range look-ups.
struct Sources {
    values: Vec<f64>,
}

impl Sources {
    fn from_texts<'a>(texts: impl Iterator<Item = &'a str>) -> Sources {
        let mut values = Vec::new();
        for t in texts {
            for tok in raw_numbers(t) {
                if let Ok(v) = tok.replace(' ', "").parse::<f64>() {
                    if v.is_finite() {
                        values.push(v);
                    }
                }
            }
        }
        values.sort_by(f64::total_cmp);
        values.dedup();
        Sources { values }
    }

    fn any_in(&self, lo: f64, hi: f64) -> bool {
        let i = self.values.partition_point(|v| *v < lo);
        i < self.values.len() && self.values[i] <= hi
    }

    /// True when a committed value, rounded to the prose's digits, is the prose's number.
    fn has(&self, n: &Num) -> bool {
        let tol = n.half_ulp * (1.0 + 1e-9) + 1e-12 * n.value;
        if self.any_in(n.value - tol, n.value + tol) {
            return true;
        }
        n.percent && self.any_in((n.value - tol) / 100.0, (n.value + tol) / 100.0)
    }
}

/// Every digit run of a committed file, with its decimals and exponent (lenient: names too),
/// and the same run joined with the thousands groups that follow it ("728 123").
fn raw_numbers(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let end = number_end(b, i);
            out.push(&text[i..end]);
            let (grouped, _) = grouped_end(b, i);
            if grouped > end {
                out.push(&text[i..grouped]);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The end of the number starting at `i`: digits, then `.digits`, then `e[-+]digits`.
fn number_end(b: &[u8], i: usize) -> usize {
    let digits = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut j = digits(i);
    if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
        j = digits(j + 1);
    }
    if j + 1 < b.len() && (b[j] == b'e' || b[j] == b'E') {
        let k = if b[j + 1] == b'-' || b[j + 1] == b'+' {
            j + 2
        } else {
            j + 1
        };
        if k < b.len() && b[k].is_ascii_digit() {
            j = digits(k);
        }
    }
    j
}

/// The prose of a Markdown file with everything the rule does not check blanked out (same
/// length and line breaks, so positions still name the line).
fn prose(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut fenced = false;
    for line in md.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push_str(&blank(line));
        } else if fenced {
            out.push_str(&blank(line));
        } else {
            out.push_str(line);
        }
    }
    for (open, close) in [
        ("<!--", "-->"),
        ("`", "`"),
        ("](", ")"),
        ("\"", "\""),
        ("\u{201c}", "\u{201d}"),
        ("(paper:", ")"),
    ] {
        out = blank_spans(&out, open, close);
    }
    blank_urls(&out)
}

/// Blanks every URL, up to the next space, `)` or `>`.
fn blank_urls(text: &str) -> String {
    let mut out = text.to_string();
    for scheme in ["http://", "https://"] {
        while let Some(i) = out.find(scheme) {
            let len = out[i..]
                .find(|c: char| c.is_whitespace() || c == ')' || c == '>')
                .unwrap_or(out.len() - i);
            let b = blank(&out[i..i + len]);
            out.replace_range(i..i + len, &b);
        }
    }
    out
}

fn blank(s: &str) -> String {
    s.chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect()
}

/// Blanks every span from `open` to the next `close` (within the paragraph for one-character
/// delimiters, so a stray quote or backtick cannot hide a page).
fn blank_spans(text: &str, open: &str, close: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(open) {
        let after = &rest[i + open.len()..];
        let limit = if open.chars().count() == 1 {
            after.find("\n\n").unwrap_or(after.len())
        } else {
            after.len()
        };
        let Some(j) = after[..limit].find(close) else {
            out.push_str(&rest[..i + open.len()]);
            rest = after;
            continue;
        };
        out.push_str(&rest[..i]);
        out.push_str(&blank(&rest[i..i + open.len() + j + close.len()]));
        rest = &after[j + close.len()..];
    }
    out.push_str(rest);
    out
}

/// Words after which a number names a part of a text or of the project, not a measurement.
const REFERENCE_WORDS: [&str; 16] = [
    "table", "tables", "fig.", "figs.", "figure", "figures", "section", "sections", "chapter",
    "eq.", "eqs.", "issue", "issues", "item", "items", "pp.",
];

/// The numbers of the prose that the rule checks, with their line numbers.
fn prose_numbers(md: &str) -> Vec<(usize, Num)> {
    let text = prose(md);
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let (end, grouped) = grouped_end(b, i);
        let name_like = (i > 0 && is_name_char(b[i - 1]))
            || (end < b.len() && is_name_char(b[end]) && !is_multiplier(b, end))
            || (end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit())
            || (i > 1 && b[i - 1] == b'.' && b[i - 2].is_ascii_digit());
        let tok = &text[i..end];
        if end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
            // A version (1.0.5-2.1) or a section number (4.2.2): skip it whole.
            i = text[end..]
                .find(char::is_whitespace)
                .map_or(b.len(), |k| end + k);
            continue;
        }
        if !name_like && !is_year(tok) && !after_reference_word(&text[..i]) {
            let line = text[..i].matches('\n').count() + 1;
            let percent = is_percent(&text[end..]);
            out.push((line, parse_num(&grouped, percent)));
        }
        i = end;
    }
    out
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// True when a number is a percentage: followed by `%`, or by a range ending in `%` (`1.6-2.7 %`).
fn is_percent(after: &str) -> bool {
    let mut rest = after.trim_start();
    if let Some(r) = rest.strip_prefix('-') {
        let digits = r.find(|c: char| !(c.is_ascii_digit() || c == '.'));
        if digits.is_some_and(|k| k > 0) {
            rest = r[digits.unwrap()..].trim_start();
        }
    }
    rest.starts_with('%')
}

/// `2.10x`: a factor, not a name (unlike `9x9`).
fn is_multiplier(b: &[u8], end: usize) -> bool {
    b[end] == b'x' && (end + 1 == b.len() || !is_name_char(b[end + 1]))
}

fn is_year(tok: &str) -> bool {
    tok.len() == 4 && tok.parse::<u32>().is_ok_and(|y| (1900..=2099).contains(&y))
}

fn after_reference_word(before: &str) -> bool {
    let word = before
        .trim_end_matches([' ', '('])
        .rsplit([' ', '\n', '('])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    REFERENCE_WORDS.contains(&word.as_str())
}

/// The end of a prose number, joining thousands groups written with a space ("14 660"), and
/// its text without them.
fn grouped_end(b: &[u8], i: usize) -> (usize, String) {
    let mut end = number_end(b, i);
    let mut text: String = String::from_utf8_lossy(&b[i..end]).into_owned();
    if text.len() > 3 || text.contains(['.', 'e', 'E']) {
        return (end, text);
    }
    while end + 4 <= b.len()
        && b[end] == b' '
        && b[end + 1..end + 4].iter().all(u8::is_ascii_digit)
        && (end + 4 == b.len() || !b[end + 4].is_ascii_alphanumeric())
    {
        text.push_str(&String::from_utf8_lossy(&b[end + 1..end + 4]));
        end += 4;
    }
    (end, text)
}

fn parse_num(text: &str, percent: bool) -> Num {
    let value: f64 = text.parse().unwrap_or(f64::NAN);
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(k) => (&text[..k], text[k + 1..].parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let decimals = mantissa.find('.').map_or(0, |d| mantissa.len() - d - 1) as i32;
    Num {
        text: text.to_string(),
        value,
        half_ulp: 0.5 * 10f64.powi(exp - decimals),
        percent,
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The committed results files the prose may cite.
fn source_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["results", "results-bench", "results-cluster"] {
        walk(&repo().join(dir), &mut files);
    }
    // results/quick/ is the scratch folder of `--quick` runs, never committed.
    let quick = repo().join("results").join("quick");
    files.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
        !p.starts_with(&quick)
            && name != "runs.csv"
            && name != "trajectories.csv"
            && ["csv", "md", "json", "txt", "out", "log"].contains(&ext)
    });
    files.extend(docs().into_iter().filter(|p| is_generated(p)));
    files
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// README.md and every docs/*.md.
fn docs() -> Vec<PathBuf> {
    let mut v = vec![repo().join("README.md")];
    let mut d: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    d.sort();
    v.extend(d);
    v
}

/// docs/bibliography.md: its numbers are volumes, pages and years of citations.
fn is_bibliography(p: &Path) -> bool {
    p.file_name().is_some_and(|n| n == "bibliography.md")
}

/// docs/performance.md: generated by `sudoku-lab report` from results-bench/ with ratios
/// computed from the records; `committed_site_is_current` checks it is what they give.
fn is_performance(p: &Path) -> bool {
    p.file_name().is_some_and(|n| n == "performance.md")
}

fn is_generated(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("findings") || n == "readings-summary.md")
}

/// The committed values by group: `results/<id>` for each experiment, `results-bench`,
/// `results-cluster` and `findings` (docs/findings*.md), and all of them together.
struct Corpus {
    groups: BTreeMap<String, Sources>,
    all: Sources,
}

/// The group of a committed file, and the word that names it in the prose.
fn group_of(p: &Path) -> String {
    let rel = p.strip_prefix(repo()).unwrap_or(p);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.first().map(String::as_str) {
        Some("results") if parts.len() > 2 => parts[1].clone(),
        Some("docs") => "findings".to_string(),
        Some(top) => top.to_string(),
        None => String::new(),
    }
}

fn committed_corpus() -> Corpus {
    let mut texts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for p in source_files() {
        texts.entry(group_of(&p)).or_default().push(read(&p));
    }
    let groups = texts
        .iter()
        .map(|(g, t)| (g.clone(), Sources::from_texts(t.iter().map(String::as_str))))
        .collect();
    let all = Sources::from_texts(texts.values().flatten().map(String::as_str));
    Corpus { groups, all }
}

/// True when `text` names `word` as a whole (not inside a longer id such as `reseda-table10`).
fn names(text: &str, word: &str) -> bool {
    let edge =
        |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    text.match_indices(word).any(|(i, _)| {
        edge(text[..i].chars().next_back()) && edge(text[i + word.len()..].chars().next())
    })
}

/// The sources a section may cite: the groups it names (the experiments whose ids it
/// mentions, results-bench, results-cluster) with the findings; every group when it names
/// none.
fn scope<'a>(section: &str, corpus: &'a Corpus) -> Vec<&'a Sources> {
    let named: Vec<&Sources> = corpus
        .groups
        .iter()
        .filter(|(g, _)| *g != "findings" && names(section, g))
        .map(|(_, s)| s)
        .collect();
    if named.is_empty() {
        return vec![&corpus.all];
    }
    named
        .into_iter()
        .chain(corpus.groups.get("findings"))
        .collect()
}

/// The sections of a Markdown text (split at headings outside code), with their first line.
fn sections(md: &str) -> Vec<(usize, String)> {
    let mut out = vec![(0, String::new())];
    let mut fenced = false;
    for (k, line) in md.split_inclusive('\n').enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            out.push((k, String::new()));
        }
        out.last_mut().unwrap().1.push_str(line);
    }
    out
}

/// The numbers of `md` found in none of the sources its sections may cite, as `line: number`.
fn unsourced_in(md: &str, corpus: &Corpus) -> Vec<String> {
    let mut bad = Vec::new();
    for (first, text) in sections(md) {
        let sources = scope(&text, corpus);
        for (line, n) in prose_numbers(&text) {
            if !sources.iter().any(|s| s.has(&n)) {
                bad.push(format!("{}: {}", first + line, n.text));
            }
        }
    }
    bad
}

/// The numbers of `md` found in no source, as `line: number`.
fn unsourced(md: &str, sources: &Sources) -> Vec<String> {
    prose_numbers(md)
        .into_iter()
        .filter(|(_, n)| !sources.has(n))
        .map(|(line, n)| format!("{line}: {}", n.text))
        .collect()
}

#[test]
fn every_number_of_the_prose_is_in_a_committed_file() {
    let corpus = committed_corpus();
    let mut bad = Vec::new();
    for doc in docs()
        .iter()
        .filter(|p| !is_generated(p) && !is_bibliography(p) && !is_performance(p))
    {
        let name = doc
            .strip_prefix(repo())
            .unwrap_or(doc)
            .display()
            .to_string();
        for u in unsourced_in(&read(doc), &corpus) {
            bad.push(format!("{name}:{u}"));
        }
    }
    assert!(
        bad.is_empty(),
        "numbers found in no committed results file (cite one, or mark them as the rule in \
         tests/provenance.rs says):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_rule_fails_on_a_made_up_number_and_skips_what_it_should() {
    let sources = Sources::from_texts(
        ["ours,0.3372,56.19,8.7102e-6,14660,1.2\nrevision 6e52f9f"].into_iter(),
    );
    // Found: rounded to the digits shown, a fraction as a percentage, thousands grouped.
    let found = "Ours 56.2 and 33.7 % (p = 8.7e-6), 14 660 generations, 1.20 s, 1.2x.";
    assert_eq!(unsourced(found, &sources), Vec::<String>::new());
    // Made up: in no file.
    let made_up = "Ours solved 423 of them in 98.75 s, 56.3 times faster,\nat p = 3.1e-9, 2.5x.";
    assert_eq!(
        unsourced(made_up, &sources),
        vec!["1: 423", "1: 98.75", "1: 56.3", "2: 3.1e-9", "2: 2.5"]
    );
    // Not checked: code, quotations, paper spans, names, years, references, comments, links.
    let skipped = "Run `--runs 777` (\"solved 3 times out of 555\"; paper: no) (paper: 8.9 %)\n\
        ```\nsudoku-lab 9999\n```\n9x9 r2c5 mk_1star 1.0.5-2.1 in 2011, Table 44, issue 18, \
        section 4.2.2 <!-- 31337 --> [x](results/9876.md) https://e.org/4242 6e52f9f";
    assert_eq!(unsourced(skipped, &sources), Vec::<String>::new());
}

#[test]
fn a_section_naming_experiments_cites_their_files() {
    let files = [
        ("results/exp-a", "count,4242"),
        ("results/exp-b", "count,5151"),
        ("results-bench", "wall 84 s"),
    ];
    let groups: BTreeMap<String, Sources> = files
        .iter()
        .map(|(g, t)| {
            (
                group_of(&repo().join(g).join("x.csv")),
                Sources::from_texts([*t].into_iter()),
            )
        })
        .collect();
    let all = Sources::from_texts(files.iter().map(|(_, t)| *t));
    let corpus = Corpus { groups, all };
    let md = "# A\n`exp-a`: 4242, and 5151.\n# B\nNo experiment: 4242, 5151.\n\
              # C\n[record](results-bench/x.md) 84 s, `exp-b` 5151 and 4242.\n";
    assert_eq!(unsourced_in(md, &corpus), vec!["2: 5151", "6: 4242"]);
}

/// Every Markdown link target `[text](target)` outside code.
fn link_targets(md: &str) -> Vec<(usize, String)> {
    let mut text = String::new();
    let mut fenced = false;
    for line in md.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        text.push_str(&if fenced {
            blank(line)
        } else {
            line.to_string()
        });
    }
    let text = blank_spans(&blank_spans(&text, "<!--", "-->"), "`", "`");
    let mut out = Vec::new();
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            let line = text[..i].matches('\n').count() + 1;
            out.push((line, target.to_string()));
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(md: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut set = BTreeSet::new();
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            set.insert(slug(line.trim_start_matches('#')));
        } else if !fenced {
            for (i, _) in line.match_indices("<a id=\"") {
                let rest = &line[i + 7..];
                set.insert(rest[..rest.find('"').unwrap_or(0)].to_string());
            }
        }
    }
    set
}

/// The broken relative links of the Markdown file `doc`, as `line: target`.
fn broken_links(doc: &Path, md: &str) -> Vec<String> {
    let own = anchors(md);
    let dir = doc.parent().unwrap();
    let mut bad = Vec::new();
    for (line, target) in link_targets(md) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let file = if path.is_empty() {
            doc.to_path_buf()
        } else {
            dir.join(path)
        };
        let ok = if path.is_empty() {
            anchor.is_none_or(|a| own.contains(a))
        } else {
            file.exists()
                && match anchor {
                    Some(a) if file.extension().is_some_and(|e| e == "md") => {
                        anchors(&read(&file)).contains(a)
                    }
                    _ => true,
                }
        };
        if !ok {
            bad.push(format!("{line}: {target}"));
        }
    }
    bad
}

#[test]
fn no_relative_link_of_the_prose_is_broken() {
    let mut bad = Vec::new();
    for doc in docs() {
        let name = doc
            .strip_prefix(repo())
            .unwrap_or(&doc)
            .display()
            .to_string();
        // Every file from its own folder, the generated ones included: the README includes
        // docs/findings-summary.md and the short summary of docs/readings-summary.md with their
        // links rebased to its folder, and each file is read where it lives.
        for b in broken_links(&doc, &read(&doc)) {
            bad.push(format!("{name}:{b}"));
        }
    }
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

/// The link check reads every Markdown file of README.md and docs/, generated or not.
#[test]
fn the_link_check_covers_every_markdown_file() {
    let checked: BTreeSet<PathBuf> = docs().into_iter().collect();
    for e in std::fs::read_dir(repo().join("docs")).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "md") {
            assert!(checked.contains(&p), "{} is not link-checked", p.display());
        }
    }
    for generated in ["docs/findings-summary.md", "docs/readings-summary.md"] {
        assert!(checked.contains(&repo().join(generated)), "{generated}");
    }
}

#[test]
fn the_link_check_sees_a_broken_link() {
    let doc = repo().join("README.md");
    let md = "[ok](docs/guide.md) [top](#sudoku-lab) [id](#here)\n[gone](docs/nope.md) \
              [bad](#no-such-heading)\n`[code](nope)` [web](https://example.org/x)\n\
              # sudoku-lab\n<a id=\"here\"></a>\n";
    assert_eq!(
        broken_links(&doc, md),
        vec!["2: docs/nope.md", "2: #no-such-heading"]
    );
}

#[test]
fn every_moved_section_is_reachable_from_the_readme() {
    let readme = read(&repo().join("README.md"));
    let linked: BTreeSet<String> = link_targets(&readme)
        .into_iter()
        .map(|(_, t)| t.split('#').next().unwrap_or("").to_string())
        .collect();
    for doc in docs().iter().skip(1).filter(|p| !is_generated(p)) {
        let rel = doc.strip_prefix(repo()).unwrap().display().to_string();
        assert!(linked.contains(&rel), "README.md does not link to {rel}");
    }
}

/// docs/architecture.md names every crate of the workspace (in its crates table, as `name`)
/// and every folder and file of the binary's sources (`cli/`, `fuzz.rs`).
#[test]
fn the_architecture_covers_every_crate_and_module() {
    let doc = read(&repo().join("docs/architecture.md"));
    let names = |dir: &Path| -> Vec<(String, bool)> {
        let mut v: Vec<(String, bool)> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    e.path().is_dir(),
                )
            })
            .collect();
        v.sort();
        v
    };
    for (name, dir) in names(&repo().join("crates")) {
        if dir {
            assert!(
                doc.contains(&format!("| `{name}` |")),
                "architecture.md: no crate {name}"
            );
        }
    }
    for (name, dir) in names(&repo().join("crates/sudoku-lab/src")) {
        let shown = if dir {
            format!("`{name}/`")
        } else {
            format!("`{name}`")
        };
        assert!(doc.contains(&shown), "architecture.md: no {shown}");
    }
}

/// No document holds a section twice: a `## ` heading repeated in one file is an edit that
/// pasted text instead of replacing it (it happened once, and left two copies of a section
/// that disagreed). Also a paragraph of 200 characters or more may stand only once per file.
#[test]
fn no_document_repeats_a_section_or_a_paragraph() {
    let mut found = Vec::new();
    for p in docs() {
        let text = read(&p);
        let mut seen = std::collections::BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.starts_with("## ") {
                if let Some(first) = seen.insert(line.to_string(), i + 1) {
                    found.push(format!(
                        "{}:{}: {line} (also line {first})",
                        p.display(),
                        i + 1
                    ));
                }
            }
        }
        let mut paragraphs = std::collections::BTreeSet::new();
        for para in text.split("\n\n").map(str::trim) {
            if para.len() >= 200 && !para.starts_with('|') && !paragraphs.insert(para) {
                let head: String = para.chars().take(60).collect();
                found.push(format!(
                    "{}: a paragraph stands twice: {head}...",
                    p.display()
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

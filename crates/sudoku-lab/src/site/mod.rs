//! `sudoku-lab report`: a static HTML site of every results folder, and the findings generated
//! from them. `index.html` lists the experiments (id, title, paper, the published cells that
//! show no significant difference / low power / differ, status, runs, wall time, protocol);
//! `<id>.html` shows one: the paper against ours with every cell coloured by its verdict, its
//! report.md rendered (verdicts coloured, raw HTML shown as text), the statistics files with a
//! verdict column as tables with filters, every chart as an image with a caption, the files
//! linked, the facts of meta.json, the algorithm options used with the algorithm crates' own
//! doc comments, and the command that regenerates it. `findings.md` and `findings.html` count
//! the verdicts paper by paper; `findings-summary.md` is the README's summary table (see
//! `summary.rs`). The hand-written docs of docs/ (the "why" page experiments.html, the guide,
//! the bibliography, ...) are pages too, their links led to the site's pages (a doc's, an
//! experiment's for its report.md) or else to the file where it is, so that a site written
//! anywhere (`--out`) has no broken link. Pages are plain HTML and CSS with relative links (they open from the file
//! system, nothing from the network); the only script is the few inline lines of the verdict
//! filters, without which every row stays shown. The results' files are linked where they are
//! (not copied), so the site stays valid while it sits at the same place relative to the
//! results folder (by default `docs/` beside it). Every file of a results folder is treated
//! as hostile: symlinks are skipped, text is escaped, charts are shown as `<img>`.

mod captions;
mod docs;
pub mod findings;
mod glance;
mod html;
mod markdown;
mod meta;
pub mod performance;
mod races;
pub mod summary;
mod tables;

use crate::reports::table_checks;
// Every page and Markdown file of the site goes through the protocol's one atomic write
// (synced, renamed; a link or special file in its place refused).
use crate::protocol::io::write_atomic;
use anyhow::{bail, Context, Result};
use html::{escape, page, relative_url, url_path};
use meta::{shown, AlgorithmView, MetaView};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One results folder.
struct Experiment {
    /// Folder name (the page is `<folder>.html`).
    folder: String,
    dir: PathBuf,
    /// meta.json, read leniently ([`meta::MetaView`]: a field it lacks is absent).
    meta: MetaView,
    /// Why meta.json could not be read, if it could not.
    meta_error: Option<String>,
    /// Data rows of runs.csv.
    runs: Option<u64>,
    /// File names of the folder's regular files (no symlink), sorted.
    files: Vec<String>,
    /// The published values against ours, as the folder's files state them.
    findings: findings::Findings,
}

impl Experiment {
    /// The spec's paper, id and published file (as meta.json has them).
    fn paper(&self) -> Option<&str> {
        self.meta.spec()?.paper.as_deref()
    }
    fn spec_id(&self) -> Option<&str> {
        self.meta.spec()?.id.as_deref()
    }
    fn title(&self) -> String {
        (self.meta.spec().and_then(|s| s.title.clone())).unwrap_or_else(|| self.folder.clone())
    }
    fn quick(&self) -> Option<bool> {
        self.meta.settings()?.quick
    }
    /// `--runs N` of a reduced protocol (not `--quick`): every puzzle run N times.
    fn reduced_runs(&self) -> Option<u64> {
        match self.quick() {
            Some(false) => self.meta.settings()?.forced_runs,
            _ => None,
        }
    }
    /// The protocol's badge: quick, reduced (`--runs N`) or full.
    fn mode_badge(&self) -> String {
        match (self.quick(), self.reduced_runs()) {
            (Some(true), _) => "<span class=\"badge quick\">quick</span>".into(),
            (Some(false), Some(n)) => {
                format!("<span class=\"badge quick\">reduced: --runs {n}</span>")
            }
            (Some(false), None) => "<span class=\"badge full\">full</span>".into(),
            (None, _) => "<span class=\"badge other\">?</span>".into(),
        }
    }
    fn status(&self) -> String {
        match (&self.meta_error, &self.meta.status) {
            (Some(_), _) => "meta.json unreadable".into(),
            (None, Some(s)) => s.clone(),
            (None, None) => "unknown".into(),
        }
    }
    fn wall(&self) -> Option<f64> {
        self.meta.wall_seconds
    }
    /// The protocol in words: "full", "reduced (--runs N)", "quick".
    fn protocol(&self) -> String {
        match (self.quick(), self.reduced_runs()) {
            (Some(true), _) => "quick".into(),
            (Some(false), Some(n)) => format!("reduced (--runs {n})"),
            (Some(false), None) => "full".into(),
            (None, _) => "unknown".into(),
        }
    }
    fn has(&self, file: &str) -> bool {
        self.files.iter().any(|f| f == file)
    }
}

/// The default output folder: `docs/` beside the results folder.
pub fn default_out(results: &Path) -> Result<PathBuf> {
    let abs = std::fs::canonicalize(results)
        .with_context(|| format!("cannot read {}", results.display()))?;
    Ok(abs.parent().unwrap_or(&abs).join("docs"))
}

/// `sudoku-lab report [--results DIR] [--out DIR]`.
pub fn run(results: Option<&Path>, out: Option<&Path>) -> Result<ExitCode> {
    let results = results.unwrap_or(Path::new("results"));
    if !results.is_dir() {
        bail!("{}: not a folder of results", results.display());
    }
    let out = match out {
        Some(o) => o.to_path_buf(),
        None => default_out(results)?,
    };
    let experiments = load_all(results)?;
    let searches = races::load_all(results)?;
    if experiments.is_empty() && searches.is_empty() {
        bail!(
            "{}: no results folder (a folder with meta.json) in it",
            results.display()
        );
    }
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let out_abs = std::fs::canonicalize(&out)?;
    let results_abs = std::fs::canonicalize(results)?;
    if out_abs == results_abs {
        bail!("--out must not be the results folder itself");
    }
    let base = relative_url(&out_abs, &results_abs);
    // Every race's readings.csv read (and checked) before anything is written.
    let readings_block = readings_block(&searches, &out_abs, &results_abs)?;
    let root = results_abs.parent().unwrap_or(&results_abs).to_path_buf();
    // docs/performance.md from the benchmark records, every record read (and checked) first.
    let performance = performance_page(&root, &out_abs)?;
    let sources = Sources::load(&root, &results_abs, &out_abs);
    let checks = own_arithmetic(&root)?;
    let checks = checks.as_ref();
    let mut written = vec!["index.html".to_string(), "findings.html".to_string()];
    write_atomic(&out.join(html::STYLESHEET), html::CSS.as_bytes())?;
    // Every page of the site by name, so that the docs' links can lead to them.
    let docs = sources.doc_sources(performance.as_deref());
    let race_pages: Vec<(String, String)> = searches
        .iter()
        .flat_map(|r| races::pages(r, &base))
        .collect();
    let pages: std::collections::BTreeSet<String> = (written.iter().cloned())
        .chain(experiments.iter().map(|e| format!("{}.html", e.folder)))
        .chain(race_pages.iter().map(|(n, _)| n.clone()))
        .chain(docs.iter().map(|(n, _, _)| n.clone()))
        .chain(["findings.md", "findings-summary.md", html::STYLESHEET].map(String::from))
        .chain((!searches.is_empty()).then(|| "readings-summary.md".to_string()))
        .chain(performance.is_some().then(|| performance::PAGE.to_string()))
        .collect();
    written.extend(sources.write_pages(&out, &docs, &pages)?);
    let found = (base.as_str(), &sources, checks);
    let missing = write_experiment_pages(&experiments, &out, results, found, &mut written)?;
    for (name, body) in race_pages {
        write_atomic(&out.join(&name), body.as_bytes())?;
        written.push(name);
    }
    let index = index_page(&experiments, &sources).replace(
        "</main>",
        &format!("{}</main>", races::index_section(&searches)),
    );
    write_atomic(&out.join("index.html"), index.as_bytes())?;
    let readme = (out_abs == default_out(results)?)
        .then(|| root.join("README.md"))
        .filter(|r| r.is_file());
    write_findings(&experiments, &out, found, readme.as_deref())?;
    if let Some(block) = &readings_block {
        write_readings_block(&out, block, &sources.readme_prefix, readme.as_deref())?;
    }
    if let Some(md) = &performance {
        write_atomic(&out.join(performance::PAGE), md.as_bytes())?;
    }
    let removed = remove_stale(&out, &written)?;
    let done = done_line(&out, experiments.len(), removed, missing);
    println!("{}", sudoku_core::error::shown(&done));
    Ok(if missing > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Every experiment's page into `out` (their names added to `written`); the number of
/// images their reports name that are missing (each warned on stderr).
fn write_experiment_pages(
    experiments: &[Experiment],
    out: &Path,
    results: &Path,
    (base, sources, checks): Found,
    written: &mut Vec<String>,
) -> Result<usize> {
    let mut missing = 0;
    for e in experiments {
        let (body, miss) = experiment_page(e, base, results, sources, checks);
        for m in &miss {
            let text = format!("warning: {}: image {m} not found", e.dir.display());
            eprintln!("{}", sudoku_core::error::shown(&text));
        }
        missing += miss.len();
        let name = format!("{}.html", e.folder);
        write_atomic(&out.join(&name), body.as_bytes())?;
        written.push(name);
    }
    Ok(missing)
}

/// The published tables' own arithmetic, from the transcriptions beside the results folder
/// (None where there are none): a bad table is an error, as in `check-tables`.
fn own_arithmetic(root: &Path) -> Result<Option<table_checks::Checked>> {
    let paper = root.join(table_checks::PAPER);
    paper
        .is_dir()
        .then(|| table_checks::check_folder(&paper))
        .transpose()
}

/// What `report` wrote, in one line (the folder may hold any character: escaped by the caller).
fn done_line(out: &Path, pages: usize, removed: usize, missing: usize) -> String {
    format!(
        "{}: index.html, findings.html, findings.md, findings-summary.md and {pages} experiment pages{}{}",
        out.display(),
        if removed > 0 {
            format!(", {removed} stale page(s) removed")
        } else {
            String::new()
        },
        if missing > 0 {
            format!(", {missing} missing image(s)")
        } else {
            String::new()
        }
    )
}

/// The findings entries of the experiments.
fn entries(exps: &[Experiment]) -> Vec<summary::Entry<'_>> {
    exps.iter()
        .map(|e| summary::Entry {
            folder: &e.folder,
            title: e.title(),
            paper: e.paper().unwrap_or("").to_string(),
            protocol: e.protocol(),
            findings: &e.findings,
        })
        .collect()
}

/// The hand-written docs the site links to (read from `docs/` beside the results folder):
/// docs/experiments.md (the "why" of each experiment) and docs/bibliography.md (the papers
/// behind the codes `000`...), each rendered as a page of the site when it is there.
struct Sources {
    /// docs/experiments.md ("" without it).
    experiments_md: String,
    bibliography_md: String,
    bib: glance::Bib,
    /// docs/ as seen from the output folder, with a trailing `/` ("" when they are one).
    docs_url: String,
    /// The output folder as seen from the README's folder (e.g. `docs`).
    readme_prefix: String,
    /// docs/ (canonical), when it is there.
    docs_abs: Option<PathBuf>,
    /// The repository (the results folder's parent), the results and output folders
    /// (canonical).
    root: PathBuf,
    results_abs: PathBuf,
    out_abs: PathBuf,
}

/// The hand-written docs of docs/ shown as pages of the site (`<name>.html`), so that the
/// links between them stay on the site wherever it is written.
const DOC_PAGES: [&str; 10] = [
    "experiments",
    "bibliography",
    "guide",
    "readings",
    "reliability",
    "performance",
    "architecture",
    "adding-a-solver",
    "external-solvers",
    "cluster",
];

impl Sources {
    fn load(root: &Path, results_abs: &Path, out_abs: &Path) -> Sources {
        let docs = root.join("docs");
        let read = |name: &str| -> String {
            match markdown::regular_file(&docs, name) {
                true => std::fs::read_to_string(docs.join(name)).unwrap_or_default(),
                false => String::new(),
            }
        };
        let bibliography_md = read("bibliography.md");
        let docs_url = match std::fs::canonicalize(&docs) {
            Ok(d) if d == out_abs => String::new(),
            Ok(d) => format!("{}/", relative_url(out_abs, &d)),
            Err(_) => String::new(),
        };
        Sources {
            experiments_md: read("experiments.md"),
            bib: glance::Bib::parse(&bibliography_md),
            bibliography_md,
            docs_url,
            readme_prefix: relative_url(root, out_abs),
            docs_abs: std::fs::canonicalize(&docs).ok(),
            root: root.to_path_buf(),
            results_abs: results_abs.to_path_buf(),
            out_abs: out_abs.to_path_buf(),
        }
    }

    /// The docs of [`DOC_PAGES`] that are there, as (page name, Markdown, title); the
    /// performance page from `performance` (as `report` writes it into the output folder) when
    /// given.
    fn doc_sources(&self, performance: Option<&str>) -> Vec<(String, String, String)> {
        let mut v = Vec::new();
        for name in DOC_PAGES {
            let md = match (name, performance) {
                ("performance", Some(p)) => p.to_string(),
                _ => match &self.docs_abs {
                    Some(d) if markdown::regular_file(d, &format!("{name}.md")) => {
                        std::fs::read_to_string(d.join(format!("{name}.md"))).unwrap_or_default()
                    }
                    _ => String::new(),
                },
            };
            if md.is_empty() {
                continue;
            }
            let title = match name {
                "experiments" => "Why: experiment by experiment".to_string(),
                _ => md
                    .lines()
                    .next()
                    .unwrap_or(name)
                    .trim_start_matches("# ")
                    .to_string(),
            };
            v.push((format!("{name}.html"), md, title));
        }
        v
    }

    /// The doc pages ([`Self::doc_sources`]) into `out`, their links resolved against
    /// `pages`, every page the site has (these among them); their names.
    fn write_pages(
        &self,
        out: &Path,
        docs: &[(String, String, String)],
        pages: &std::collections::BTreeSet<String>,
    ) -> Result<Vec<String>> {
        let mut names = Vec::new();
        for (name, md, title) in docs {
            // The performance page is generated into the output folder: its links start there.
            let from = match name.as_str() {
                "performance.html" => Some(self.out_abs.clone()),
                _ => self.docs_abs.clone(),
            };
            let resolve = |dest: &str| self.resolve(from.as_deref()?, dest, pages);
            write_atomic(&out.join(name), doc_page(md, title, &resolve).as_bytes())?;
            names.push(name.clone());
        }
        Ok(names)
    }

    /// Where link `dest` of a doc in folder `from` leads from the site: a page of the site
    /// (a doc rendered as a page, an experiment's or race's page for its report.md) or else
    /// the file itself, relative to the output folder; None when there is nothing there.
    fn resolve(
        &self,
        from: &Path,
        dest: &str,
        pages: &std::collections::BTreeSet<String>,
    ) -> Option<String> {
        let (path, frag) = match dest.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (dest, None),
        };
        let frag = frag.map(|f| format!("#{f}")).unwrap_or_default();
        if path.is_empty() {
            return Some(frag);
        }
        let target = normalise(&from.join(path));
        let page = |name: String| pages.contains(&name).then_some(name);
        let name = target.file_name()?.to_str()?;
        let parent = target.parent()?;
        let on_site = if Some(parent) == self.docs_abs.as_deref() || parent == self.out_abs {
            (name.strip_suffix(".md"))
                .and_then(|stem| page(format!("{stem}.html")))
                .or_else(|| page(name.to_string()))
                .map(|p| format!("{p}{frag}"))
        } else if name == "report.md" && parent.parent() == Some(self.results_abs.as_path()) {
            // An experiment's or race's report: its page (whose sections differ from the
            // report's, so the fragment is not kept).
            page(format!("{}.html", parent.file_name()?.to_str()?))
        } else if target == self.root.join("README.md") && frag == "#findings" {
            page("findings.html".to_string())
        } else {
            None
        };
        if on_site.is_some() {
            return on_site;
        }
        let m = std::fs::symlink_metadata(&target).ok()?;
        (m.is_file() || m.is_dir()).then(|| {
            // Through the repository's root, so that a file beside the pages (docs/) is
            // linked as every other file of the repository, wherever the site is written.
            let url = match target.starts_with(&self.root) {
                true => format!(
                    "{}/{}",
                    relative_url(&self.out_abs, &self.root),
                    relative_url(&self.root, &target)
                ),
                false => relative_url(&self.out_abs, &target),
            };
            let slash = if m.is_dir() && path.ends_with('/') {
                "/"
            } else {
                ""
            };
            format!("{url}{slash}{frag}")
        })
    }

    /// The paper text of a spec with its codes as linked citations (HTML).
    fn cite(&self, paper: &str) -> String {
        match self.bibliography_md.is_empty() {
            true => escape(&summary::source_text(paper)),
            false => glance::cite_html(paper, &self.bib, "bibliography.html"),
        }
    }

    /// The link to an experiment's "why" in experiments.html, if it has one.
    fn why(&self, folder: &str) -> Option<String> {
        glance::has_why(&self.experiments_md, folder)
            .then(|| format!("experiments.html#{}", url_path(&glance::why_anchor(folder))))
    }
}

/// `p` with its `.` and `..` components resolved by name (no file system access).
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// A hand-written doc of the repository as a page: rendered as a report is (raw HTML shown
/// as text, unsafe links dropped), its relative links and images where `resolve` says (a
/// link to nothing dropped, its text kept), its `<a id="...">` anchors kept so that links
/// reach them.
fn doc_page(md: &str, title: &str, resolve: markdown::Resolve<'_>) -> String {
    let body = md.split_once('\n').map(|(_, b)| b).unwrap_or(md);
    let r = markdown::render_doc(body, resolve);
    let html = heading_ids(&restore_anchors(&r.html));
    page(
        title,
        "<a href=\"index.html\">&larr; all experiments</a>",
        &format!("<div class=\"report doc\">{html}</div>"),
    )
}

/// Every `<hN>` heading given the id its Markdown source is linked by (GitHub's rule: the text
/// lower-cased, spaces made `-`, other punctuation dropped; a repeated id numbered `-1`, `-2`).
fn heading_ids(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 256);
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut rest = html;
    while let Some(i) = rest.find("<h") {
        let tag = rest.as_bytes().get(i + 2..i + 4);
        let level = match tag {
            Some([d @ b'1'..=b'6', b'>']) => *d as char,
            _ => {
                out.push_str(&rest[..i + 2]);
                rest = &rest[i + 2..];
                continue;
            }
        };
        let close = format!("</h{level}>");
        let body = &rest[i + 4..];
        let Some(end) = body.find(&close) else {
            break;
        };
        let base = slug(&body[..end]);
        let n = seen.entry(base.clone()).or_insert(0);
        let id = match *n {
            0 => base,
            k => format!("{base}-{k}"),
        };
        *n += 1;
        let _ = write!(out, "{}<h{level} id=\"{id}\">", &rest[..i]);
        rest = body;
    }
    out.push_str(rest);
    out
}

/// The GitHub anchor of a heading's HTML: its text without tags or entities, lower-cased,
/// letters, digits, `-` and `_` kept, spaces made `-`.
fn slug(inner: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in inner.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = (text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\""))
    .replace("&#39;", "'")
    .replace("&amp;", "&");
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// `<a id="x"></a>` anchors (shown as text by the renderer) made anchors again, for ids of
/// letters, digits and `-` only.
fn restore_anchors(html: &str) -> String {
    const OPEN: &str = "&lt;a id=\"";
    const CLOSE: &str = "\"&gt;&lt;/a&gt;";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + OPEN.len()..];
        match after.find(CLOSE) {
            Some(j)
                if after[..j]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-') =>
            {
                let _ = write!(out, "<a id=\"{}\"></a>", &after[..j]);
                rest = &after[j + CLOSE.len()..];
            }
            _ => {
                out.push_str(OPEN);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// What the findings are written from besides the experiments: the results folder's URL
/// from the output folder, the sources, and the published tables' own arithmetic.
type Found<'a> = (&'a str, &'a Sources, Option<&'a table_checks::Checked>);

/// findings.md, findings.html and findings-summary.md (the glance, per paper and column) into
/// `out`, each with the published tables' own arithmetic where they were checked, and the
/// glance into the README block of `readme` (the default output folder only), its links
/// rebased to the README's folder.
fn write_findings(
    exps: &[Experiment],
    out: &Path,
    (base, sources, checks): Found,
    readme: Option<&Path>,
) -> Result<()> {
    let entries = entries(exps);
    let record = format!("{base}/{}/report.md", table_checks::FOLDER);
    let mut md = summary::findings_file(&entries, base);
    if let Some(c) = checks {
        // After the summary table: the section before the first paper's.
        let section = table_checks::findings_section(c, &record);
        let at = (md.find("## Summary"))
            .and_then(|s| md[s..].find("\n## ").map(|i| s + i + 1))
            .unwrap_or(md.len());
        md.insert_str(at, &section);
    }
    write_atomic(&out.join("findings.md"), md.as_bytes())?;
    write_atomic(&out.join("findings.html"), findings_page(&md).as_bytes())?;
    let rows: Vec<glance::Row> = (entries.iter())
        .map(|e| glance::Row {
            folder: e.folder,
            paper: e.paper.clone(),
            findings: e.findings,
        })
        .collect();
    let table = glance::table_md(
        &rows,
        &sources.bib,
        &sources.docs_url,
        &sources.experiments_md,
    );
    let mut doc = summary::summary_file(&table);
    if let Some(c) = checks {
        let _ = write!(
            doc,
            "\nThe published tables' own arithmetic, checked before any test: {} [Every check]({record}).\n",
            table_checks::headline(c)
        );
    }
    write_atomic(&out.join("findings-summary.md"), doc.as_bytes())?;
    match readme {
        Some(readme) => update_block(
            readme,
            summary::START,
            summary::END,
            &glance::rebase_links(&doc, &sources.readme_prefix),
        ),
        None => Ok(()),
    }
}

/// performance.md from the records in `results-bench/` beside the results folder (None
/// when that folder is not there, or is a symlink), its links from the output folder.
fn performance_page(root: &Path, out_abs: &Path) -> Result<Option<String>> {
    let bench = root.join(performance::BENCH);
    match std::fs::symlink_metadata(&bench) {
        Ok(m) if m.is_dir() => {
            let url = relative_url(out_abs, &std::fs::canonicalize(&bench)?);
            performance::render(&bench, &url).map(Some)
        }
        _ => Ok(None),
    }
}

/// readings-summary.md (None without any race), its links from the output folder.
fn readings_block(
    searches: &[races::Races],
    out_abs: &Path,
    results_abs: &Path,
) -> Result<Option<String>> {
    if searches.is_empty() {
        return Ok(None);
    }
    races::readme_block(searches, &relative_url(out_abs, results_abs)).map(Some)
}

/// readings-summary.md into `out`, and its short summary into the README block of `readme`
/// when that file exists and has the markers (links rebased by `prefix`).
fn write_readings_block(out: &Path, doc: &str, prefix: &str, readme: Option<&Path>) -> Result<()> {
    write_atomic(&out.join("readings-summary.md"), doc.as_bytes())?;
    match readme {
        Some(readme) => update_block(
            readme,
            races::START,
            races::END,
            &races::readme_short(doc, prefix),
        ),
        None => Ok(()),
    }
}

/// Write `block` between `start` and `end` in `readme` when it differs and the block there is
/// one `report` wrote (text written by hand is left, with a warning).
fn update_block(readme: &Path, start: &str, end: &str, block: &str) -> Result<()> {
    let text = crate::spec::read_regular(readme)
        .with_context(|| format!("cannot read {}", readme.display()))?;
    if summary::current_between(&text, start, end, block) {
        return Ok(());
    }
    if !summary::generated_between(&text, start, end) {
        eprintln!(
            "{}",
            sudoku_core::error::shown(&format!(
                "warning: {}: the block between {start} and {end} holds text not written by \
             `sudoku-lab report`; left as it is (move that text outside the markers, then rerun)",
                readme.display(),
            ))
        );
    } else if let Some(new) = summary::with_block_between(&text, start, end, block) {
        write_atomic(readme, new.as_bytes())?;
        println!(
            "{}",
            sudoku_core::error::shown(&format!("{}: block {start} updated", readme.display()))
        );
    }
    Ok(())
}

/// findings.html: findings.md as a page (its text is ours, every value from a file escaped
/// by `summary::md_text`).
fn findings_page(md: &str) -> String {
    let body = md.split_once('\n').map(|(_, b)| b).unwrap_or(md);
    let mut h = String::new();
    let opts = pulldown_cmark::Options::ENABLE_TABLES;
    pulldown_cmark::html::push_html(&mut h, pulldown_cmark::Parser::new_ext(body, opts));
    page(
        "Findings: the published values against ours",
        "<a href=\"index.html\">&larr; all experiments</a>",
        &format!(
            "<div class=\"findings\">{}</div>",
            h.replace("<td>0</td>", "<td class=\"zero\">0</td>")
        ),
    )
}

/// Removes the pages of an earlier run (marked by the generator tag) not written now.
fn remove_stale(out: &Path, written: &[String]) -> Result<usize> {
    let mut n = 0;
    for entry in std::fs::read_dir(out)? {
        let p = entry?.path();
        let name = p.file_name().and_then(|s| s.to_str()).unwrap_or_default();
        if !name.ends_with(".html") || written.iter().any(|w| w == name) {
            continue;
        }
        let text = crate::spec::read_regular(&p).unwrap_or_default();
        if text.contains(&format!(
            "<meta name=\"generator\" content=\"{}\">",
            html::GENERATOR
        )) {
            std::fs::remove_file(&p)?;
            n += 1;
        }
    }
    Ok(n)
}

/// Every sub-folder of `results` with a meta.json, by name. Symlinked folders and files are
/// skipped (a results folder shows only what is in it); a malformed comparison.csv,
/// levels.csv or grades.csv is an error naming the file and line.
fn load_all(results: &Path) -> Result<Vec<Experiment>> {
    let mut v = Vec::new();
    for entry in
        std::fs::read_dir(results).with_context(|| format!("cannot read {}", results.display()))?
    {
        let entry = entry?;
        let dir = entry.path();
        if !entry.file_type()?.is_dir() {
            if entry.file_type()?.is_symlink() {
                eprintln!(
                    "{}",
                    sudoku_core::error::shown(&format!(
                        "warning: {}: a symlink, skipped",
                        dir.display()
                    ))
                );
            }
            continue;
        }
        let files = regular_files(&dir)?;
        if !files.iter().any(|f| f == "meta.json") {
            continue;
        }
        v.push(load_one(dir, files)?);
    }
    v.sort_by(|a, b| a.folder.cmp(&b.folder));
    Ok(v)
}

/// The regular files of `dir` (not symlinks, not hidden), sorted; a symlink is named on
/// standard error.
fn regular_files(dir: &Path) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        let t = e.file_type()?;
        if t.is_symlink() {
            eprintln!(
                "{}",
                sudoku_core::error::shown(&format!(
                    "warning: {}: a symlink, skipped",
                    e.path().display()
                ))
            );
        } else if t.is_file() && !name.starts_with('.') {
            files.push(name);
        }
    }
    files.sort();
    Ok(files)
}

/// One results folder whose regular files are `files` (meta.json among them).
fn load_one(dir: PathBuf, files: Vec<String>) -> Result<Experiment> {
    let folder = dir.file_name().unwrap().to_string_lossy().into_owned();
    let (meta, meta_error) = match crate::spec::read_regular(dir.join("meta.json"))
        .map_err(|e| e.to_string())
        .and_then(|t| MetaView::parse(&t))
    {
        Ok(m) => (m, None),
        Err(e) => (MetaView::default(), Some(e)),
    };
    let runs = files.iter().any(|f| f == "runs.csv").then(|| {
        let mut b = Vec::new();
        if let Ok(mut f) = crate::spec::open_regular(dir.join("runs.csv")) {
            let _ = std::io::Read::read_to_end(&mut f, &mut b);
        }
        let lines = b.split(|c| *c == b'\n').filter(|l| !l.is_empty()).count();
        lines.saturating_sub(1) as u64
    });
    let findings = findings::load(&dir, &files).map_err(anyhow::Error::msg)?;
    Ok(Experiment {
        folder,
        dir,
        meta,
        meta_error,
        runs,
        files,
        findings,
    })
}

pub fn fmt_seconds(s: f64) -> String {
    if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{} min {:02} s", (s / 60.0) as u64, (s % 60.0) as u64)
    } else {
        format!(
            "{} h {:02} min",
            (s / 3600.0) as u64,
            ((s % 3600.0) / 60.0) as u64
        )
    }
}

fn status_badge(status: &str) -> String {
    let class = if status == "complete" {
        "complete"
    } else {
        "other"
    };
    format!("<span class=\"badge {class}\">{}</span>", escape(status))
}

fn index_page(exps: &[Experiment], sources: &Sources) -> String {
    let mut b = String::new();
    b.push_str(
        "<p>Every results folder, with its reproduced tables, charts, statistics and the \
        settings that produced it. Regenerate this site with \
        <code>cargo run --release -p sudoku-lab -- report</code>.</p>\n\
        <p><strong><a href=\"findings.html\">Findings</a></strong>: paper by paper, the \
        published cells tested against ours. <em>Published cells</em> below counts the \
        verdicts of each experiment's published cells (Holm-adjusted p &lt; 0.05): \
        <span class=\"verdict v-same\">no significant difference</span> \
        <span class=\"verdict v-lowpower\">no significant difference, low power</span> \
        <span class=\"verdict v-differs\">differ</span>. No significant difference is not \
        evidence of agreement; low power: under 80 % power to detect a two-fold \
        difference.</p>\n",
    );
    b.push_str(
        "<div class=\"table-wrap\"><table class=\"index\">\n<thead><tr><th>Experiment</th>\
        <th>Title</th><th>Paper</th><th>Published cells</th><th>Status</th><th>Runs</th>\
        <th>Wall time</th><th>Protocol</th></tr></thead>\n<tbody>\n",
    );
    let mut total_runs = 0;
    let mut total_wall = 0.0;
    for e in exps {
        total_runs += e.runs.unwrap_or(0);
        total_wall += e.wall().unwrap_or(0.0);
        let _ = writeln!(
            b,
            "<tr><td><a href=\"{href}\">{id}</a></td><td class=\"title\">{title}</td>\
             <td data-label=\"Paper\">{paper}</td><td class=\"glance\">{cells}</td>\
             <td class=\"fact\" data-label=\"Status\">{status}</td>\
             <td class=\"num fact\" data-label=\"Runs\">{runs}</td>\
             <td class=\"num fact\" data-label=\"Wall time\">{wall}</td>\
             <td class=\"fact\" data-label=\"Protocol\">{mode}</td></tr>",
            cells = tables::column_badges(&e.findings),
            href = url_path(&format!("{}.html", e.folder)),
            id = escape(&e.folder),
            title = escape(&e.title()),
            paper = sources.cite(e.paper().unwrap_or("")),
            status = status_badge(&e.status()),
            runs = e.runs.map(|r| r.to_string()).unwrap_or_else(|| "-".into()),
            wall = e.wall().map(fmt_seconds).unwrap_or_else(|| "-".into()),
            mode = e.mode_badge(),
        );
    }
    let _ = writeln!(
        b,
        "</tbody>\n<tfoot><tr><th colspan=\"5\">{} experiments</th><th class=\"num fact\" data-label=\"Runs\">{total_runs}</th>\
         <th class=\"num fact\" data-label=\"Wall time\">{}</th><th></th></tr></tfoot>\n</table></div>",
        exps.len(),
        fmt_seconds(total_wall)
    );
    page(
        "sudoku-lab results",
        "<div class=\"sub\">Reproductions of stochastic Sudoku solver papers</div>",
        &b,
    )
}

fn experiment_page(
    e: &Experiment,
    base: &str,
    results: &Path,
    sources: &Sources,
    checks: Option<&table_checks::Checked>,
) -> (String, Vec<String>) {
    let files_url = format!("{base}/{}", url_path(&e.folder));
    let mut b = String::new();
    if e.quick() == Some(true) {
        b.push_str(
            "<div class=\"quick-banner\"><strong>Quick run</strong>: fewer runs and a \
            generation cap, to check the code path; not a result.</div>\n",
        );
    }
    if let Some(err) = &e.meta_error {
        let _ = writeln!(b, "<p class=\"missing\">meta.json: {}</p>", escape(err));
    }
    b.push_str(&outcome_line(e, sources));
    b.push_str(&ranking_headline(e));
    b.push_str(&seed_line(e, &files_url));
    let _ = writeln!(
        b,
        "<p>Paper: {} · status {} · {} · folder <a href=\"{files_url}/\"><code>{}</code></a></p>",
        sources.cite(e.paper().unwrap_or("-")),
        status_badge(&e.status()),
        e.mode_badge(),
        escape(&results.join(&e.folder).to_string_lossy()),
    );
    b.push_str(&tables::agreement_section(&e.findings, &e.folder));
    b.push_str(&arithmetic_section(e, checks, &files_url));
    b.push_str(&contents_list(e));
    b.push_str(&regenerate_section(e, results));
    b.push_str(&legend());
    b.push_str(&tables::paper_vs_ours(&e.findings));
    b.push_str(&tables::grades_grid(&e.findings));
    b.push_str("<h2 id=\"report\">Report</h2>\n");
    let mut missing = Vec::new();
    let mut inlined = Vec::new();
    match e
        .has("report.md")
        .then(|| std::fs::read_to_string(e.dir.join("report.md")))
    {
        Some(Ok(md)) => {
            let r = markdown::render(&md, &e.dir, &files_url, Some(&e.findings));
            let (html, toc) = report_contents(&r.html);
            let _ = writeln!(b, "{toc}<div class=\"report table-wrap\">{html}</div>");
            missing = r.missing;
            inlined = r.inlined;
        }
        _ => b.push_str("<p class=\"missing\">no report.md in this folder</p>\n"),
    }
    b.push_str(&verdict_tables(e, &files_url));
    b.push_str(&charts_section(e, &inlined, &files_url));
    b.push_str(&files_section(e, &files_url));
    b.push_str(&facts_section(e));
    b.push_str(&algorithms_section(e));
    let sub = format!(
        "<a href=\"index.html\">&larr; all experiments</a> · <code>{}</code>",
        escape(&e.folder)
    );
    (page(&e.title(), &sub, &b), missing)
}

/// The own arithmetic of the published tables the experiment uses (its spec's `published`
/// and `published_levels`), where some cell is impossible as printed; empty otherwise.
fn arithmetic_section(
    e: &Experiment,
    checks: Option<&table_checks::Checked>,
    files_url: &str,
) -> String {
    let Some(checks) = checks else {
        return String::new();
    };
    let stem = |f: &str| {
        let name = f.rsplit('/').next().unwrap_or(f);
        name.strip_suffix(".csv").unwrap_or(name).to_string()
    };
    let spec = e.meta.spec();
    let levels = spec.and_then(|s| s.published_levels.as_ref());
    let mut tables: Vec<String> = (levels.into_iter())
        .flat_map(|m| m.values().map(|f| stem(f)))
        .collect();
    tables.sort();
    tables.extend(spec.and_then(|s| s.published.as_deref()).map(stem));
    let md = table_checks::experiment_section(checks, &tables, levels.is_some());
    if md.is_empty() {
        return md;
    }
    let r = markdown::render(&md, &e.dir, files_url, None);
    format!("<div class=\"report table-wrap\">{}</div>\n", r.html)
}

/// The ranking of a comparison in one sentence, from its compare-ranks.csv (the rows over
/// all puzzles, per unit of ERT, by average rank); empty without that file.
/// The answer of a folder's confirmation.md (it checks another folder's answers at its own
/// master seed: `confirm-seed`) in one line, linking the file; nothing without one.
fn seed_line(e: &Experiment, files_url: &str) -> String {
    if !e.has("confirmation.md") {
        return String::new();
    }
    let Ok(text) = crate::spec::read_regular(e.dir.join("confirmation.md")) else {
        return String::new();
    };
    let answer = (text.lines().nth(2))
        .filter(|l| l.starts_with("At master seed ") || l.starts_with("Neither master seed "));
    let Some(answer) = answer else {
        return String::new();
    };
    format!(
        "<p class=\"headline\">Checked against another master seed: {} (<a href=\"{files_url}/confirmation.md\">confirmation.md</a>)</p>\n",
        escape(answer)
    )
}

fn ranking_headline(e: &Experiment) -> String {
    if !e.has("compare-ranks.csv") {
        return String::new();
    }
    let Ok(mut rd) = csv::Reader::from_path(e.dir.join("compare-ranks.csv")) else {
        return String::new();
    };
    let mut units: Vec<(String, Vec<(f64, String)>)> = Vec::new();
    for row in rd.records().flatten() {
        let (Some(unit), Some("all"), Some(algo), Some(rank)) =
            (row.get(0), row.get(1), row.get(2), row.get(3))
        else {
            continue;
        };
        let Ok(r) = rank.parse::<f64>() else { continue };
        match units.iter_mut().find(|(u, _)| u == unit) {
            Some((_, v)) => v.push((r, algo.to_string())),
            None => units.push((unit.to_string(), vec![(r, algo.to_string())])),
        }
    }
    let parts: Vec<String> = (units.iter_mut())
        .map(|(unit, v)| {
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            let list: Vec<String> = (v.iter())
                .map(|(r, a)| format!("{} ({r:.2})", escape(a)))
                .collect();
            format!("by ERT in {}: {}", escape(unit), list.join(", "))
        })
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "<p class=\"headline\"><strong>Ranking</strong> over every puzzle, best first (average \
         rank per puzzle), {}. <a href=\"#report\">Details</a>.</p>\n",
        parts.join("; ")
    )
}

/// The rendered report with an id on each `<h2>`, and a contents list of them (empty with
/// fewer than four sections).
fn report_contents(html: &str) -> (String, String) {
    let mut out = String::with_capacity(html.len() + 256);
    let mut toc = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find("<h2>") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 4..];
        let end = after.find("</h2>").unwrap_or(after.len());
        let id = format!("report-{}", toc.len() + 1);
        let _ = write!(out, "<h2 id=\"{id}\">");
        toc.push(format!("<li><a href=\"#{id}\">{}</a></li>", &after[..end]));
        rest = after;
    }
    out.push_str(rest);
    if toc.len() < 4 {
        return (html.to_string(), String::new());
    }
    let toc = format!(
        "<nav class=\"toc\"><strong>Contents of the report</strong><ol>{}</ol></nav>\n",
        toc.concat()
    );
    (out, toc)
}

/// The page's first sentence: the outcome per column (see `glance::outcome`) and the link to
/// its "why" in docs/experiments.md.
fn outcome_line(e: &Experiment, sources: &Sources) -> String {
    let f = &e.findings;
    let outcome = match f.has_published() {
        false => "no published values: the variants are compared with one another".to_string(),
        true => glance::columns(f)
            .iter()
            .map(|c| match c {
                Some(c) => format!("{}: {}", escape(c), escape(&glance::outcome(f, Some(c)))),
                None => escape(&glance::outcome(f, None)),
            })
            .collect::<Vec<_>>()
            .join("; "),
    };
    let why = match sources.why(&e.folder) {
        Some(url) => format!(" <a href=\"{url}\">Why</a>."),
        None => String::new(),
    };
    format!("<p class=\"outcome\"><strong>Outcome:</strong> {outcome}.{why}</p>\n")
}

fn contents_list(e: &Experiment) -> String {
    let mut s =
        String::from("<p class=\"muted\">On this page: <a href=\"#regenerate\">command</a> · ");
    if e.findings
        .cells
        .iter()
        .any(|c| c.kind.is_some_and(|k| k != findings::Kind::Descriptive))
    {
        s.push_str("<a href=\"#paper-vs-ours\">paper against ours</a> · ");
    }
    if !e.findings.grades.is_empty() {
        s.push_str("<a href=\"#grid\">grades cell by cell</a> · ");
    }
    s.push_str(
        "<a href=\"#report\">report</a> · <a href=\"#charts\">charts</a> · \
         <a href=\"#files\">files</a> · <a href=\"#facts\">run facts</a> · \
         <a href=\"#algorithms\">algorithms and options</a></p>\n",
    );
    s
}

fn legend() -> String {
    let mut s = String::from("<p class=\"legend muted\">Verdicts: ");
    for (class, label) in markdown::VERDICTS {
        let _ = write!(
            s,
            "<span class=\"verdict {class}\">{}</span>",
            escape(label)
        );
    }
    s.push_str("</p>\n");
    s
}

fn regenerate_section(e: &Experiment, results: &Path) -> String {
    let id = e.spec_id().unwrap_or(&e.folder).to_string();
    let embedded = crate::spec::EMBEDDED.iter().any(|(i, _)| *i == id);
    let dir = results.join(&e.folder).to_string_lossy().into_owned();
    let quick = e.quick() == Some(true);
    let mut flags = String::new();
    if quick {
        flags.push_str(" --quick");
    }
    // The flags that made this folder's runs: `--resume` refuses other settings.
    if let Some(n) = e.reduced_runs() {
        let _ = write!(flags, " --runs {n}");
    }
    let seed = e.meta.settings().and_then(|s| s.master_seed);
    let spec_seed = crate::spec::embedded(&id).ok().map(|s| s.master_seed);
    if let (Some(seed), Some(spec_seed)) = (seed, spec_seed) {
        if seed != spec_seed {
            let _ = write!(flags, " --seed {seed}");
        }
    }
    if let Some(shard) = e.meta.settings().and_then(|s| s.shard.as_deref()) {
        let _ = write!(flags, " --shard {shard}");
    }
    let default_dir = !quick && e.folder == id;
    if !default_dir || !embedded {
        let _ = write!(flags, " --out {dir}");
    }
    let cmd = if embedded {
        format!("cargo run --release -p sudoku-lab -- reproduce {id}{flags}")
    } else {
        format!("cargo run --release -p sudoku-lab -- run SPEC.toml{flags}")
    };
    // A committed folder is never overwritten by a run from scratch (reproduce refuses it):
    // the from-scratch command writes a new folder, as the README's does.
    let scratch = if default_dir && embedded {
        format!("{cmd} --out my-results/{id}")
    } else {
        cmd.clone()
    };
    let mut s = String::from("<h2 id=\"regenerate\">Regenerate</h2>\n");
    if !embedded {
        s.push_str("<p>A spec of your own: its text is in meta.json (<code>settings.spec_toml</code>); save it as SPEC.toml.</p>\n");
    }
    let _ = writeln!(
        s,
        "<p>Every run from scratch (same seeds, same rows; a folder that already holds runs is \
         refused unless <code>--fresh</code> replaces them):</p><code class=\"cmd\">{}</code>\n<p>Reports and charts only, \
         from the runs already in runs.csv:</p><code class=\"cmd\">{} --resume</code>",
        escape(&scratch),
        escape(&cmd)
    );
    s
}

/// Rows shown of one statistics file (the file itself is linked).
const MAX_ROWS: usize = 400;

/// Every statistics file with a `verdict` column as a table, verdict first and coloured,
/// with filters by verdict (and their script, once).
fn verdict_tables(e: &Experiment, files_url: &str) -> String {
    let mut s = String::new();
    for f in e.files.iter().filter(|f| f.ends_with(".csv")) {
        let Ok(file) = crate::spec::open_regular(e.dir.join(f)) else {
            continue;
        };
        let mut r = csv::ReaderBuilder::new().flexible(true).from_reader(file);
        let Ok(head) = r.headers().cloned() else {
            continue;
        };
        if !head.iter().any(|h| h.eq_ignore_ascii_case("verdict")) {
            continue;
        }
        if s.is_empty() {
            s.push_str(
                "<h2 id=\"verdicts\">Verdicts of the statistics files</h2>\n<p class=\"muted\">\
                 Every row of each file, its verdict first; untick a verdict to hide its rows \
                 (with JavaScript off, every row is shown). Column names as in the file.</p>\n",
            );
        }
        let rows: Vec<csv::StringRecord> = r.records().map_while(|x| x.ok()).collect();
        s.push_str(&tables::verdict_csv_table(
            f, &head, &rows, files_url, MAX_ROWS,
        ));
    }
    if !s.is_empty() {
        s.push_str(tables::FILTER_SCRIPT);
    }
    s
}

fn charts_section(e: &Experiment, inlined: &[String], files_url: &str) -> String {
    let mut s = String::from("<h2 id=\"charts\">Charts</h2>\n");
    let rest: Vec<&String> = e
        .files
        .iter()
        .filter(|f| f.ends_with(".svg") && !inlined.contains(f))
        .collect();
    if rest.is_empty() {
        s.push_str(if inlined.is_empty() {
            "<p class=\"muted\">No chart in this folder.</p>\n"
        } else {
            "<p class=\"muted\">Every chart of this folder is shown in the report above.</p>\n"
        });
    }
    for f in rest {
        if let Some(fig) = markdown::chart_figure(&e.dir, f, f, files_url) {
            s.push_str(&fig);
        }
    }
    let orphans: Vec<&String> = e
        .files
        .iter()
        .filter(|f| f.ends_with(".png") && !e.files.contains(&f.replace(".png", ".svg")))
        .collect();
    for f in orphans {
        let _ = writeln!(
            s,
            "<figure class=\"chart\"><img src=\"{files_url}/{}\" alt=\"{n}\" style=\"max-width:100%\"><figcaption>{n}</figcaption></figure>",
            url_path(f),
            n = escape(f)
        );
    }
    s
}

fn files_section(e: &Experiment, files_url: &str) -> String {
    let mut s = String::from("<h2 id=\"files\">Files</h2>\n<table><thead><tr><th>File</th><th>Size</th><th>What</th></tr></thead><tbody>\n");
    let mut sorted: Vec<&String> = e.files.iter().collect();
    // Statistics (CSV) first.
    sorted.sort_by_key(|f| (!f.ends_with(".csv"), f.to_string()));
    for f in sorted {
        let size = std::fs::metadata(e.dir.join(f))
            .map(|m| m.len())
            .unwrap_or(0);
        let what = match f.rsplit_once('.').map(|(_, x)| x).unwrap_or("") {
            "csv" if f == "runs.csv" => "one row per run (the source of every table)",
            "csv" if f == "trajectories.csv" => "anytime data of the runs",
            "csv" => "statistics",
            "md" => "Markdown table or report",
            "tex" => "LaTeX table",
            "svg" | "png" => "chart",
            "json" => "settings, spec and provenance",
            _ => "",
        };
        let _ = writeln!(
            s,
            "<tr><td><a href=\"{files_url}/{}\">{}</a></td><td class=\"num\">{}</td><td>{what}</td></tr>",
            url_path(f),
            escape(f),
            human_size(size)
        );
    }
    s.push_str("</tbody></table>\n");
    s
}

fn human_size(n: u64) -> String {
    if n < 1024 {
        format!("{n} B")
    } else if n < 1024 * 1024 {
        format!("{:.1} KiB", n as f64 / 1024.0)
    } else {
        format!("{:.1} MiB", n as f64 / 1048576.0)
    }
}

fn json_text(v: Option<&serde_json::Value>) -> String {
    use serde_json::Value;
    match v {
        None | Some(Value::Null) => "-".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

fn facts_section(e: &Experiment) -> String {
    let m = &e.meta;
    let settings = m.settings();
    let spec = m.spec();
    let mut s = String::from("<h2 id=\"facts\">Run facts (meta.json)</h2>\n<dl class=\"facts\">\n");
    let mode = match (e.quick(), e.reduced_runs()) {
        (Some(true), _) => "quick (--quick: fewer runs, generation cap)".to_string(),
        (Some(false), Some(n)) => format!("reduced (--runs {n}: {n} runs per puzzle)"),
        (Some(false), None) => "full".into(),
        (None, _) => "-".into(),
    };
    let facts: Vec<(&str, String)> = vec![
        ("Status", e.status()),
        ("Protocol", mode),
        (
            "Git revision (last session)",
            shown(m.git_revision.as_ref()),
        ),
        ("Master seed", shown(settings.and_then(|s| s.master_seed))),
        (
            "Runs per (algorithm, puzzle)",
            shown(settings.and_then(|s| s.runs)),
        ),
        (
            "Forced runs (--runs / --quick)",
            shown(settings.and_then(|s| s.forced_runs)),
        ),
        (
            "Rows in runs.csv",
            e.runs.map(|r| r.to_string()).unwrap_or("-".into()),
        ),
        ("Threads (last session)", shown(m.threads)),
        ("Wall time", e.wall().map(fmt_seconds).unwrap_or("-".into())),
        ("Started (UTC, last session)", shown(m.started_utc.as_ref())),
        (
            "Finished (UTC, last session)",
            shown(m.finished_utc.as_ref()),
        ),
        (
            "Runs executed / resumed",
            format!(
                "{} / {}",
                shown(m.runs_executed_this_session),
                shown(m.runs_resumed)
            ),
        ),
        ("Machine (last session)", shown(m.machine.as_ref())),
        ("sudoku-lab version", shown(m.sudoku_lab_version.as_ref())),
        ("Dependencies", shown(m.dependencies.as_ref())),
        (
            "Published values",
            shown(spec.and_then(|s| s.published.as_ref())),
        ),
    ];
    for (k, v) in facts {
        let _ = writeln!(s, "<dt>{k}</dt><dd>{}</dd>", escape(&v));
    }
    s.push_str("</dl>\n");
    if let Some(sessions) = &m.sessions {
        let _ = writeln!(s, "<h3>Sessions ({})</h3>\n<p>Each session that worked on the protocol, oldest first: a run was made by the session that executed it, and a session that executed no run only rewrote the tables from runs.csv. The facts above are the last session's.</p>\n<table><thead><tr><th>#</th><th>Git revision</th><th>Started (UTC)</th><th>Finished (UTC)</th><th>Threads</th><th>Runs executed</th><th>Machine</th></tr></thead><tbody>", sessions.len());
        for (i, x) in sessions.iter().enumerate() {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                i + 1,
                escape(&shown(x.git_revision.as_ref())),
                escape(&shown(x.started_utc.as_ref())),
                escape(&shown(x.finished_utc.as_ref())),
                shown(x.threads),
                shown(x.runs_executed),
                escape(&shown(x.machine.as_ref()))
            );
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str(&puzzles_table(m));
    s
}

fn puzzles_table(m: &MetaView) -> String {
    let Some(puzzles) = m.spec().and_then(|s| s.puzzles.as_ref()) else {
        return String::new();
    };
    let mut s = String::from("<h3>Puzzles</h3>\n<table><thead><tr><th>Id</th><th>Label</th><th>Source</th><th>Which</th></tr></thead><tbody>\n");
    for p in puzzles {
        let id = shown(p.id.as_ref());
        let source = match (&p.bank, &p.file) {
            (Some(b), _) => format!("bank {b}"),
            (None, Some(f)) => f.clone(),
            _ => format!("bank puzzle {id}"),
        };
        let which = if p.all == Some(true) {
            "every puzzle of the file".to_string()
        } else {
            format!("index {}", shown(p.index))
        };
        let _ = writeln!(
            s,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&id),
            escape(&shown(p.label.as_ref())),
            escape(&source),
            escape(&which)
        );
    }
    s.push_str("</tbody></table>\n");
    s
}

/// Crate doc text (Markdown) as HTML: intra-doc links [`X`] shown as code.
fn doc_html(doc: &str) -> String {
    let md = doc.replace("[`", "`").replace("`]", "`");
    let mut out = String::new();
    let opts = pulldown_cmark::Options::ENABLE_TABLES;
    pulldown_cmark::html::push_html(&mut out, pulldown_cmark::Parser::new_ext(&md, opts));
    out
}

fn algorithms_section(e: &Experiment) -> String {
    let Some(algos) = e.meta.spec().and_then(|s| s.algorithms.as_ref()) else {
        return "<h2 id=\"algorithms\">Algorithms and options</h2>\n<p>-</p>\n".into();
    };
    let mut s = String::from("<h2 id=\"algorithms\">Algorithms and options</h2>\n<p>As run (the spec in meta.json); options not listed take the algorithm's defaults. Under each option, the paper's words and our reading as the algorithm crate documents them (its doc comments, read from the crate's source when sudoku-lab was built).</p>\n");
    s.push_str("<table><thead><tr><th>Label</th><th>Paper label</th><th>Algorithm</th><th>Budget</th><th>Options</th></tr></thead><tbody>\n");
    for a in algos {
        let algorithm = shown(a.algorithm.as_ref());
        let mut budget = Vec::new();
        if let Some(g) = a.max_generations {
            budget.push(format!("{g} generations"));
        }
        if let Some(g) = a.max_evaluations {
            budget.push(format!("{g} evaluations"));
        }
        let params = params_of(a)
            .iter()
            .map(|(k, v)| format!("<code>{} = {}</code>", escape(k), escape(v)))
            .collect::<Vec<_>>()
            .join("<br>");
        let _ = writeln!(
            s,
            "<tr><td><code>{}</code></td><td>{}</td><td><a href=\"#algo-{a}\">{a}</a></td><td>{}</td><td>{}</td></tr>",
            escape(&shown(a.label.as_ref())),
            escape(&shown(a.paper_label.as_ref())),
            escape(&budget.join(", ")),
            if params.is_empty() { "defaults".into() } else { params },
            a = escape(&algorithm),
        );
    }
    s.push_str("</tbody></table>\n");
    let mut names: Vec<String> = algos.iter().map(|a| shown(a.algorithm.as_ref())).collect();
    names.sort();
    names.dedup();
    for name in names {
        s.push_str(&algorithm_docs(&name, algos));
    }
    s
}

/// The params of one algorithm entry as (key, value text), strings unquoted.
fn params_of(a: &AlgorithmView) -> Vec<(String, String)> {
    (a.params.iter().flatten())
        .map(|(k, v)| (k.clone(), json_text(Some(v))))
        .collect()
}

/// One option: its values, the config field's and the choice's comments, each value's
/// variant comment, and the crate doc's table rows for it.
fn option_docs(d: &docs::CrateDocs, key: &str, values: &[String]) -> String {
    let mut s = format!(
        "<details open><summary><code>{} = {}</code></summary><div class=\"doc\">",
        escape(key),
        escape(&values.join(" | "))
    );
    let first = d.option(key, &values[0]);
    let rows = d.table_rows(key);
    if first.is_empty() && rows.is_none() {
        s.push_str("<p class=\"muted\">No doc comment for this option in the crate source.</p>");
    }
    if let Some(r) = &rows {
        s.push_str(&doc_html(r));
    }
    if let Some(f) = &first.field {
        let _ = write!(s, "<p><strong>Option</strong></p>{}", doc_html(f));
    }
    if let Some((en, doc)) = &first.choice {
        let _ = write!(
            s,
            "<p><strong>Choice <code>{}</code></strong></p>{}",
            escape(en),
            doc_html(doc)
        );
    }
    for v in values {
        if let Some((vn, doc)) = d.option(key, v).value {
            let _ = write!(
                s,
                "<p><strong>{} = {v}: <code>{}</code></strong></p>{}",
                escape(key),
                escape(&vn),
                doc_html(&doc),
                v = escape(v)
            );
        }
    }
    s.push_str("</div></details>\n");
    s
}

fn algorithm_docs(name: &str, algos: &[AlgorithmView]) -> String {
    let mut s = format!("<h3 id=\"algo-{n}\">{n}</h3>\n", n = escape(name));
    let Some(d) = docs::for_algorithm(name) else {
        s.push_str("<p class=\"muted\">Not an algorithm of the registry: no crate docs.</p>\n");
        return s;
    };
    let _ = writeln!(
        s,
        "<details><summary>Crate <code>{}</code>: its documentation (the crate's <code>//!</code> comment)</summary><div class=\"doc\">{}</div></details>",
        escape(&d.name),
        doc_html(&d.top)
    );
    // Each option once, with every value the spec gives it.
    let mut keys: Vec<(String, Vec<String>)> = Vec::new();
    for a in algos
        .iter()
        .filter(|a| a.algorithm.as_deref() == Some(name))
    {
        for (k, v) in params_of(a) {
            match keys.iter_mut().find(|(key, _)| *key == k) {
                Some((_, vs)) if !vs.contains(&v) => vs.push(v),
                Some(_) => {}
                None => keys.push((k, vec![v])),
            }
        }
    }
    keys.sort();
    for (k, values) in keys {
        s.push_str(&option_docs(&d, &k, &values));
    }
    s
}

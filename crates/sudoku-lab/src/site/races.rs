//! Pages of the reading searches (`sudoku-lab readings`, issue 22): a results folder holding
//! `race.csv` is a race, one holding `summary.csv` and race subfolders a set of races (such
//! as the synthetic validation). A race's page shows its figures (readings, survivors, runs,
//! cost), its report.md rendered, the specification curve and its files; a set's page its
//! summary.md and a page per race. Every file is hostile, as on the experiment pages:
//! symlinks skipped, text escaped, charts shown as `<img>`.

use super::html::{escape, page, url_path};
use super::markdown;
use crate::readings::summary::{load, RaceRow};
use anyhow::Result;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A race folder, or a set of races (with its races).
pub struct Races {
    /// Folder name under the results folder (`set/race` for a race of a set).
    pub folder: String,
    pub dir: PathBuf,
    /// The race's row (None for a set).
    pub race: Option<RaceRow>,
    /// The races of a set.
    pub members: Vec<Races>,
}

impl Races {
    /// The page's file name.
    pub fn page_name(&self) -> String {
        format!("{}.html", self.folder.replace('/', "--"))
    }
}

/// The race folders and sets of races of `results` (folders without meta.json), sorted.
pub fn load_all(results: &Path) -> Result<Vec<Races>> {
    let mut out = Vec::new();
    let top = load(results)?;
    for e in std::fs::read_dir(results)? {
        let e = e?;
        let dir = e.path();
        if !e.file_type()?.is_dir() || markdown::regular_file(&dir, "meta.json") {
            continue;
        }
        let folder = e.file_name().to_string_lossy().into_owned();
        if markdown::regular_file(&dir, "race.csv") {
            let race = top.iter().find(|r| r.folder == folder).cloned();
            out.push(Races {
                folder,
                dir,
                race,
                members: Vec::new(),
            });
        } else if markdown::regular_file(&dir, "summary.csv") {
            let members = (load(&dir)?.into_iter())
                .map(|r| Races {
                    folder: format!("{folder}/{}", r.folder),
                    dir: dir.join(&r.folder),
                    race: Some(r),
                    members: Vec::new(),
                })
                .collect();
            out.push(Races {
                folder,
                dir,
                race: None,
                members,
            });
        }
    }
    out.sort_by(|a, b| a.folder.cmp(&b.folder));
    Ok(out)
}

/// The index's section: every race and set with its figures.
pub fn index_section(all: &[Races]) -> String {
    if all.is_empty() {
        return String::new();
    }
    let mut b = String::from(
        "<h2 id=\"readings\">Reading searches</h2>\n<p>Races of every combination of a \
         paper's named ambiguities against its published table (<code>sudoku-lab \
         readings</code>). A surviving reading is consistent with the table, not what the \
         authors did.</p>\n<div class=\"table-wrap\"><table class=\"index\">\n<thead><tr>\
         <th>Folder</th><th>Experiment</th><th>Entries</th><th>Readings</th><th>Survived</th>\
         <th>Runs</th><th>Share of the full factorial</th></tr></thead>\n<tbody>\n",
    );
    for r in all {
        let row = |x: &RaceRow| {
            format!(
                "<td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
                escape(x.get("experiment")),
                escape(x.get("entries")),
                escape(x.get("readings")),
                escape(x.get("survived")),
                escape(x.get("runs")),
                share(x),
            )
        };
        let cells = match &r.race {
            Some(x) => row(x),
            None => format!("<td colspan=\"6\">a set of {} races</td>", r.members.len()),
        };
        let _ = writeln!(
            b,
            "<tr><td><a href=\"{}\">{}</a></td>{cells}</tr>",
            url_path(&r.page_name()),
            escape(&r.folder)
        );
    }
    b + "</tbody></table></div>\n"
}

fn share(x: &RaceRow) -> String {
    format!(
        "{:.2} % ({:.2} % of its upper bound)",
        100.0 * x.num("share_of_factorial"),
        100.0 * x.num("share_of_factorial_min")
    )
}

/// Every page of `r` (a race's, or a set's and its races'): (file name, HTML).
pub fn pages(r: &Races, base: &str) -> Vec<(String, String)> {
    let files_url = format!("{base}/{}", url_path(&r.folder));
    let mut out = Vec::new();
    let mut b = String::new();
    let back = "<a href=\"index.html\">&larr; all experiments</a>";
    match &r.race {
        Some(x) => {
            b += &facts(x);
            b += &report(&r.dir, &files_url, "report.md");
            if let Some(fig) =
                markdown::chart_figure(&r.dir, "spec-curve.svg", "specification curve", &files_url)
            {
                b += "<h2 id=\"chart\">Specification curve</h2>\n";
                b += &fig;
            }
        }
        None => {
            b += &report(&r.dir, &files_url, "summary.md");
            b += "<h2 id=\"races\">Races</h2>\n<ul>\n";
            for m in &r.members {
                let _ = writeln!(
                    b,
                    "<li><a href=\"{}\">{}</a></li>",
                    url_path(&m.page_name()),
                    escape(&m.folder)
                );
                out.extend(pages(m, base));
            }
            b += "</ul>\n";
        }
    }
    b += &files(&r.dir, &files_url);
    let title = format!("Reading search: {}", r.folder);
    let sub = format!("{back} · <code>{}</code>", escape(&r.folder));
    out.insert(0, (r.page_name(), page(&title, &sub, &b)));
    out
}

/// A race's figures.
fn facts(x: &RaceRow) -> String {
    let mut s = format!(
        "<p>{} readings of <code>{}</code> ({}) raced; <strong>{} survived</strong>, {} eliminated; {} runs and {} generations spent, {} of the full factorial's estimated generations.",
        escape(x.get("readings")),
        escape(x.get("experiment")),
        escape(x.get("entries")),
        escape(x.get("survived")),
        escape(x.get("eliminated")),
        escape(x.get("runs")),
        escape(x.get("generations")),
        share(x),
    );
    if !x.get("hidden").is_empty() {
        let _ = write!(
            s,
            " Synthetic table from hidden reading <code>{}</code>: it <strong>{}</strong>; {} other readings eliminated.",
            escape(x.get("hidden")),
            escape(x.get("hidden_status")),
            escape(x.get("others_eliminated")),
        );
    }
    s + "</p>\n"
}

/// A Markdown file of the folder rendered (raw HTML shown as text), or a note that it is
/// missing.
fn report(dir: &Path, files_url: &str, name: &str) -> String {
    if !markdown::regular_file(dir, name) {
        return format!(
            "<p class=\"missing\">no {} in this folder</p>\n",
            escape(name)
        );
    }
    match std::fs::read_to_string(dir.join(name)) {
        Ok(md) => {
            let r = markdown::render(&md, dir, files_url, None);
            format!("<div class=\"report table-wrap\">{}</div>\n", r.html)
        }
        Err(e) => format!(
            "<p class=\"missing\">{}: {}</p>\n",
            escape(name),
            escape(&e.to_string())
        ),
    }
}

/// The folder's regular files, linked.
fn files(dir: &Path, files_url: &str) -> String {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut s = String::from("<h2 id=\"files\">Files</h2>\n<ul>\n");
    for n in names {
        let _ = writeln!(
            s,
            "<li><a href=\"{files_url}/{}\">{}</a></li>",
            url_path(&n),
            escape(&n)
        );
    }
    s + "</ul>\n"
}

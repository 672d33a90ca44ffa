//! Pages of the reading searches (`sudoku-lab readings`): a results folder holding
//! `race.csv` is a race, one holding `summary.csv` and race subfolders a set of races (such
//! as the synthetic validation). A race's page shows its figures (readings, survivors, runs,
//! cost), its report.md rendered, the specification curve and its files; a set's page its
//! summary.md and a page per race. Every file is hostile, as on the experiment pages:
//! symlinks skipped, text escaped, charts shown as `<img>`.

use super::html::{escape, page, url_path};
use super::markdown;
use super::summary::md_text;
use crate::readings::procedure::Procedure;
use crate::readings::summary::{load, RaceRow};
use crate::reports::table_checks;
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
    /// The race's survivors within margins, contradicted, undecided (its verdicts.csv; None
    /// for a set or a race written before verdicts).
    pub verdicts: Option<[usize; 3]>,
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
                verdicts: crate::readings::verdicts::counts(&dir)?,
                folder,
                dir,
                race,
                members: Vec::new(),
            });
        } else if markdown::regular_file(&dir, "summary.csv") {
            let members = (load(&dir)?.into_iter())
                .map(|r| {
                    Ok(Races {
                        verdicts: crate::readings::verdicts::counts(&dir.join(&r.folder))?,
                        folder: format!("{folder}/{}", r.folder),
                        dir: dir.join(&r.folder),
                        race: Some(r),
                        members: Vec::new(),
                    })
                })
                .collect::<Result<Vec<Races>>>()?;
            out.push(Races {
                folder,
                dir,
                race: None,
                members,
                verdicts: None,
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
         <th>Survivors within margins / contradicted / undecided</th>\
         <th>Runs</th><th>Share of the full factorial</th></tr></thead>\n<tbody>\n",
    );
    for r in all {
        let row = |x: &RaceRow| {
            format!(
                "<td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
                escape(x.get("experiment")),
                escape(x.get("entries")),
                escape(x.get("readings")),
                escape(x.get("survived")),
                escape(&verdict_counts(r)),
                escape(x.get("runs")),
                share(x),
            )
        };
        let cells = match &r.race {
            Some(x) => row(x),
            None => format!("<td colspan=\"7\">a set of {} races</td>", r.members.len()),
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

/// The markers of the README block of the reading searches (`readings-summary.md`).
pub const START: &str = "<!-- readings-summary -->";
pub const END: &str = "<!-- /readings-summary -->";

/// The most survivors listed per race in the README block.
const LISTED: usize = 6;

/// `readings-summary.md`: every race (the races of a set by their own folder) in one table
/// with its figures from race.csv, then the survivors of each race from readings.csv, as the
/// options where each differs from the race's first reading. `results` is the results
/// folder's URL from the README's folder. Every number and value is read from the files.
pub fn readme_block(all: &[Races], results: &str) -> Result<String> {
    let mut s = format!(
        "{} from the race folders: do not edit. -->\n\n{}\n\n| race | experiment | raced column | readings | survive | survivors within margins / contradicted / undecided | hidden reading (synthetic) | share of the full factorial (estimated) |\n|---|---|---|---|---|---|---|---|\n",
        super::summary::GENERATED,
        short_summary(all)?
    );
    let races: Vec<&Races> = (all.iter())
        .flat_map(|r| {
            if r.race.is_some() {
                vec![r]
            } else {
                r.members.iter().collect()
            }
        })
        .collect();
    let mut lists = String::new();
    for set in all.iter().filter(|r| r.race.is_none()) {
        lists += &joint_line(set)?;
    }
    for r in races {
        let Some(x) = &r.race else { continue };
        let link = format!("{results}/{}/report.md", url_path(&r.folder));
        let hidden = match x.get("hidden") {
            "" => "-".to_string(),
            h => format!("{h}: {}", x.get("hidden_status")),
        };
        let _ = writeln!(
            s,
            "| [{}]({link}) | {} | {} | {} | {} | {} | {} | {:.2} % |",
            md_text(&r.folder),
            md_text(x.get("experiment")),
            md_text(x.get("entries")),
            md_text(x.get("readings")),
            md_text(x.get("survived")),
            md_text(&verdict_counts(r)),
            md_text(&hidden),
            100.0 * x.num("share_of_factorial"),
        );
        // The survivors of a synthetic race say nothing about the paper: listed only in
        // their reports.
        if x.get("hidden").is_empty() {
            lists += &survivors_line(r)?;
        } else {
            crate::readings::summary::survivors(&r.dir)?;
        }
    }
    s += &answers(all)?;
    if !lists.is_empty() {
        s += "\nSurvivors of the races against published tables, by the options where each differs from the race's first reading (every option at its first-listed value):\n\n";
        s += &lists;
    }
    Ok(s)
}

/// Each race against a published table in one sentence: the first line of its report.md
/// (its answer), as a list; empty without such races.
fn answers(all: &[Races]) -> Result<String> {
    let mut s = String::new();
    let races = all.iter().flat_map(|r| match r.race {
        Some(_) => vec![r],
        None => r.members.iter().collect(),
    });
    for r in races {
        let Some(x) = &r.race else { continue };
        if !x.get("hidden").is_empty() || !markdown::regular_file(&r.dir, "report.md") {
            continue;
        }
        let report = crate::spec::read_regular(r.dir.join("report.md"))?;
        let first = report.lines().next().unwrap_or("");
        if first.starts_with('#') || first.is_empty() {
            continue;
        }
        let _ = writeln!(s, "- {}: {}", md_text(&r.folder), md_text(first));
    }
    Ok(match s.is_empty() {
        true => s,
        false => format!("\nThe answer of each race against a published table (the first line of its report):\n\n{s}"),
    })
}

/// The races in three lines: how many races against published tables keep a reading, which
/// keep none, what the joint races say, and how often a validation race kept its hidden
/// reading. The README shows it (see [`readme_short`]); every count is read from the files.
fn short_summary(all: &[Races]) -> Result<String> {
    let races: Vec<&Races> = (all.iter())
        .flat_map(|r| match r.race {
            Some(_) => vec![r],
            None => r.members.iter().collect(),
        })
        .collect();
    let rows: Vec<(&Races, &RaceRow)> = (races.iter())
        .filter_map(|r| r.race.as_ref().map(|x| (*r, x)))
        .collect();
    let (paper, hidden): (Vec<_>, Vec<_>) =
        rows.iter().partition(|(_, x)| x.get("hidden").is_empty());
    let none: Vec<String> = (paper.iter())
        .filter(|(_, x)| x.num("survived") == 0.0)
        .map(|(r, _)| format!("[{}]({})", md_text(&r.folder), url_path(&r.page_name())))
        .collect();
    let kept = paper.len() - none.len();
    let verdicts: Vec<String> = (paper.iter())
        .filter(|(_, x)| x.num("survived") > 0.0)
        .map(|(r, _)| {
            format!(
                "[{}]({}) {}",
                md_text(&r.folder),
                url_path(&r.page_name()),
                verdict_counts(r)
            )
        })
        .collect();
    let mut s = format!(
        "Races against published tables: {kept} of {} keep at least one reading of the paper",
        paper.len()
    );
    if !none.is_empty() {
        let _ = write!(s, "; none survives in {}", none.join(", "));
    }
    s.push_str(".\n");
    s += &impossible_line(&paper)?;
    if !verdicts.is_empty() {
        let _ = writeln!(
            s,
            "Their survivors within margins / contradicted / undecided: {}.",
            verdicts.join(", ")
        );
    }
    s += &confirmed_line(&paper)?;
    s += &disagreement_line(&paper)?;
    s += &procedure_line(&rows)?;
    for set in all.iter().filter(|r| r.race.is_none()) {
        let rows: Vec<RaceRow> = set.members.iter().filter_map(|m| m.race.clone()).collect();
        if let Some(j) = crate::readings::summary::joint(&set.dir, &rows)? {
            let _ = writeln!(
                s,
                "Jointly over the tables of {}: {} of {} readings survive every table.",
                md_text(&set.folder),
                j.survivors,
                j.rows.len()
            );
        }
    }
    if !hidden.is_empty() {
        let found = (hidden.iter())
            .filter(|(_, x)| x.get("hidden_status") == "survived")
            .count();
        let _ = writeln!(
            s,
            "Validation (a hidden reading made the table): the hidden reading survived in {found} of {} races.",
            hidden.len()
        );
    }
    s.push_str("[Every race, its readings and survivors](readings-summary.md).");
    Ok(s)
}

/// The races against published tables whose tables hold impossible values as printed, in
/// one line; empty when there is none.
fn impossible_line(paper: &[(&Races, &RaceRow)]) -> Result<String> {
    let mut impossible = Vec::new();
    for (r, _) in paper {
        if !impossible_cells(&r.dir)?.is_empty() {
            impossible.push(format!(
                "[{}]({})",
                md_text(&r.folder),
                url_path(&r.page_name())
            ));
        }
    }
    Ok(match impossible.is_empty() {
        true => String::new(),
        false => format!(
            "As printed, the tables of {} hold values that no sample can have (each page names them): no reading can fit those cells, which the races test as printed.\n",
            impossible.join(", ")
        ),
    })
}

/// The races against published tables confirmed at a second seed (with confirm.csv): how
/// many keep a reading consistent at both seeds; empty when none was confirmed.
/// Which races ran under which statistical procedure (a race folder's settings.json names
/// its procedure; none: v1, the races made before the versions). The v1 ones are named (their
/// error rates are not those the calibration study measured), and so are v2 races whose
/// table prints a median: v2's promise needs the paper's runs not to tie there, which v3's
/// median cell does not.
fn procedure_line(rows: &[(&Races, &RaceRow)]) -> Result<String> {
    let (mut v1, mut v2_median) = (Vec::new(), Vec::new());
    let mut count = [0usize; 2];
    for (r, _) in rows {
        let settings = crate::readings::settings::Settings::read(&r.dir.join("settings.json"))?;
        let link = || format!("[{}]({})", md_text(&r.folder), url_path(&r.page_name()));
        match settings.procedure() {
            Procedure::V1 => v1.push(link()),
            Procedure::V2 => {
                count[0] += 1;
                if prints_a_median(&r.dir)? {
                    v2_median.push(link());
                }
            }
            Procedure::V3 => count[1] += 1,
        }
    }
    let mut s = format!(
        "Procedure: {} of {} races ran under v3 and {} under v2, whose error rates the calibration study measured",
        count[1],
        rows.len(),
        count[0]
    );
    s += &match v2_median.is_empty() {
        true if count[0] > 0 => " (v2's promise also needs the paper's runs not to tie at a published median, and no v2 race's table prints a median)".to_string(),
        true => String::new(),
        false => format!(
            "; these v2 races test a published median, where v2 eliminates a true reading more often than alpha if the paper's runs tie there (not yet re-raced under v3): {}",
            v2_median.join(", ")
        ),
    };
    if !v1.is_empty() {
        s += &format!(
            "; {} under v1, which eliminates a true reading more often than alpha on tables with means (not yet re-raced): {}",
            v1.len(),
            v1.join(", ")
        );
    }
    Ok(s + ".\n")
}

/// Whether the published.csv of the race in `dir` prints a median in some row.
fn prints_a_median(dir: &Path) -> Result<bool> {
    let path = dir.join("published.csv");
    let text = crate::spec::read_regular(&path)?;
    let rows = crate::reports::groups::parse_published(&text, &path.display().to_string())?;
    Ok(rows.iter().any(|r| r.median.is_some()))
}

fn confirmed_line(paper: &[(&Races, &RaceRow)]) -> Result<String> {
    let (mut confirmed, mut kept) = (0, 0);
    for (r, _) in paper {
        if let Some(v) = crate::readings::confirm::read_verdicts(&r.dir)? {
            confirmed += 1;
            kept += usize::from(v.iter().any(|x| x.2));
        }
    }
    Ok(match confirmed {
        0 => String::new(),
        n => format!("Confirmed at a second master seed: {kept} of {n} races keep a reading consistent (both seeds).\n"),
    })
}

/// Races of one experiment and raced entries (so the same readings, whose runs have the same
/// seeds) at different levels alpha that disagree on a reading: one sentence each, saying
/// that only the level differs. Empty when none disagree.
fn disagreement_line(paper: &[(&Races, &RaceRow)]) -> Result<String> {
    let mut out = String::new();
    for (i, (a, x)) in paper.iter().enumerate() {
        for (b, y) in &paper[i + 1..] {
            let same =
                x.get("experiment") == y.get("experiment") && x.get("entries") == y.get("entries");
            if !same {
                continue;
            }
            let (Some(alpha_a), Some(alpha_b)) = (alpha_of(&a.dir)?, alpha_of(&b.dir)?) else {
                continue;
            };
            if alpha_a == alpha_b {
                continue;
            }
            let (sa, sb) = (statuses(&a.dir)?, statuses(&b.dir)?);
            for ((keep, k_alpha), (drop, d_alpha), ids) in [
                ((a, alpha_a), (b, alpha_b), differ(&sa, &sb)),
                ((b, alpha_b), (a, alpha_a), differ(&sb, &sa)),
            ] {
                if ids.is_empty() {
                    continue;
                }
                let _ = writeln!(
                    out,
                    "{} survive [{}]({}) at alpha {k_alpha} but are eliminated by [{}]({}) at alpha {d_alpha}: the same readings on runs of the same seeds, so only the level differs, and the table does not clearly keep or reject them (each race's answer says what the second seed and the per-cell tests at 0.05 say).",
                    crate::readings::closest::id_list(&ids),
                    md_text(&keep.folder),
                    url_path(&keep.page_name()),
                    md_text(&drop.folder),
                    url_path(&drop.page_name()),
                );
            }
        }
    }
    Ok(out)
}

/// The race's alpha from its settings.json (None without one).
fn alpha_of(dir: &Path) -> Result<Option<f64>> {
    if !markdown::regular_file(dir, "settings.json") {
        return Ok(None);
    }
    let path = dir.join("settings.json");
    let text = crate::spec::read_regular(&path)?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}:{}: not JSON: {e}", path.display(), e.line()))?;
    Ok(value.get("alpha").and_then(|v| v.as_f64()))
}

/// Each reading's status in a race's readings.csv.
fn statuses(dir: &Path) -> Result<Vec<(String, String)>> {
    let path = dir.join("readings.csv");
    let text = crate::spec::read_regular(&path)?;
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let head = rdr.headers()?.clone();
    let Some(status) = head.iter().position(|h| h == "status") else {
        anyhow::bail!("{}: no status column", path.display());
    };
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec?;
        out.push((
            rec.get(0).unwrap_or_default().to_string(),
            rec.get(status).unwrap_or_default().to_string(),
        ));
    }
    Ok(out)
}

/// The readings that survived in `a` and were eliminated in `b`.
fn differ(a: &[(String, String)], b: &[(String, String)]) -> Vec<String> {
    (a.iter())
        .filter(|(r, s)| s == "survived" && b.iter().any(|(q, t)| q == r && t == "eliminated"))
        .map(|(r, _)| r.clone())
        .collect()
}

/// The README's block of the races: the first line of `readings-summary.md` (the generated
/// mark) and its short summary (the paragraph after it), the links rebased by `prefix` (the
/// folder of `readings-summary.md` from the README's folder, e.g. `docs`).
pub fn readme_short(doc: &str, prefix: &str) -> String {
    let mut paras = doc.split("\n\n");
    let head = paras.next().unwrap_or("");
    let short = paras.next().unwrap_or("");
    format!(
        "{head}\n\n{}\n",
        super::glance::rebase_links(short.trim_end(), prefix)
    )
}

/// One bullet for a folder of races against published tables that race the same readings:
/// the readings that survived every race of it (its joint table), or none; empty for other
/// folders.
fn joint_line(set: &Races) -> Result<String> {
    let rows: Vec<crate::readings::summary::RaceRow> =
        set.members.iter().filter_map(|m| m.race.clone()).collect();
    let Some(j) = crate::readings::summary::joint(&set.dir, &rows)? else {
        return Ok(String::new());
    };
    let names: Vec<String> = rows.iter().map(|r| md_text(&r.folder)).collect();
    let status = j.header.len().saturating_sub(rows.len() + 1);
    let kept: Vec<String> = (j.rows.iter())
        .filter(|r| r.last().map(String::as_str) == Some("survived"))
        .take(LISTED)
        .map(|r| {
            (j.header[1..status].iter().zip(&r[1..status]))
                .map(|(k, v)| format!("{} = {}", code(k), md_text(v)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let list = match (j.survivors, kept.is_empty()) {
        (_, true) => format!(
            "none of the {} readings survives every race (no reading fits them all)",
            j.rows.len()
        ),
        (n, false) if n > LISTED => format!("{}; and {} more", kept.join("; "), n - LISTED),
        _ => kept.join("; "),
    };
    Ok(format!(
        "- {} (jointly: a reading must survive {}): {list}\n",
        md_text(&set.folder),
        names.join(", ")
    ))
}

/// One bullet: a race's survivors (at most [`LISTED`]), or "none".
fn survivors_line(r: &Races) -> Result<String> {
    let all = crate::readings::summary::survivors(&r.dir)?;
    let text = |d: &Vec<(String, String)>| match d.is_empty() {
        true => "the first reading".to_string(),
        false => (d.iter())
            .map(|(k, v)| format!("{} = {}", code(k), md_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let marks = crate::readings::confirm::survivor_marks(&r.dir, all.len())?;
    let mark = |(d, m): (&Vec<(String, String)>, &&str)| match m.is_empty() {
        true => text(d),
        false => format!("{}: {m}", text(d)),
    };
    let mut shown: Vec<String> = all.iter().zip(&marks).take(LISTED).map(mark).collect();
    if all.len() > LISTED {
        shown.push(format!("and {} more", all.len() - LISTED));
    }
    let impossible = table_checks::distinct_cells(&impossible_cells(&r.dir)?);
    let list = match (shown.is_empty(), impossible) {
        (true, 0) => "none (no reading fits)".to_string(),
        (true, n) => format!(
            "none (no reading fits the table as printed, and no sample can: {n} of its cells hold impossible values)"
        ),
        (false, _) => shown.join("; "),
    };
    let mut keys: Vec<&str> = all.iter().flatten().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    let words = paper_words(r, &keys);
    Ok(format!("- {}: {list}{words}\n", md_text(&r.folder)))
}

/// `s` as a Markdown code span in a table cell ([`crate::readings::md::code_in_cell`]).
fn code(s: &str) -> String {
    crate::readings::md::code_in_cell(s)
}

/// The paper's words behind the options `keys` (from the raced algorithm's ambiguity table,
/// for a race of an embedded experiment), as a sentence; empty when unknown.
fn paper_words(r: &Races, keys: &[&str]) -> String {
    let Some(x) = &r.race else {
        return String::new();
    };
    let Ok(spec) = crate::spec::embedded(x.get("experiment")) else {
        return String::new();
    };
    let first = x.get("entries").split(' ').next().unwrap_or("");
    let Some(entry) = spec.algorithms.iter().find(|a| a.label == first) else {
        return String::new();
    };
    let table = crate::algos::ambiguities(&entry.algorithm);
    let quoted: Vec<String> = (keys.iter())
        .filter_map(|k| table.iter().find(|a| a.key == *k))
        .map(|a| format!("{} (paper: \"{}\")", code(a.key), md_text(a.words)))
        .collect();
    match quoted.is_empty() {
        true => String::new(),
        false => format!(". Where they depart from the text as we read it (first-listed values), the paper's words: {}", quoted.join("; ")),
    }
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
            b += &arithmetic(&r.dir, &files_url);
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
    if r.race.is_some() {
        b += &regenerate(&r.dir, &r.folder);
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

/// The race table's own arithmetic (its published.csv checked as `sudoku-lab check-tables`
/// checks the transcriptions), with the readings eliminated at an impossible cell (its
/// readings.csv) and rejected there by the confirmation (confirm.csv), for a race whose
/// report.md predates the section: empty when every check is ok, the race has no
/// published.csv or its report.md has the section; a note when a file cannot be read.
fn arithmetic(dir: &Path, files_url: &str) -> String {
    use crate::reports::table_checks::race_section;
    let read = |name: &str| -> Result<String> { Ok(crate::spec::read_regular(dir.join(name))?) };
    // A race written since the checks existed has the section in its report.md already.
    let report = read("report.md").unwrap_or_default();
    if report.contains(table_checks::RACE_HEADING) {
        return String::new();
    }
    let section = impossible_cells(dir).and_then(|cells| {
        let bad: Vec<_> = cells.iter().collect();
        if bad.is_empty() {
            return Ok(String::new());
        }
        let (readings, eliminated) = cells_where(&read("readings.csv")?, "status", "eliminated")?;
        let confirmed = match markdown::regular_file(dir, "confirm.csv") {
            true => Some(cells_where(&read("confirm.csv")?, "confirmation", "rejected")?.1),
            false => None,
        };
        Ok(race_section(
            &bad,
            &eliminated,
            readings,
            confirmed.as_deref(),
        ))
    });
    match section {
        Ok(md) if md.is_empty() => md,
        Ok(md) => {
            let r = markdown::render(&md, dir, files_url, None);
            format!("<div class=\"report table-wrap\">{}</div>\n", r.html)
        }
        Err(e) => format!(
            "<p class=\"missing\">the published table's own arithmetic: {}</p>\n",
            escape(&format!("{e:#}"))
        ),
    }
}

/// The impossible cells of a race's published.csv (none without that file).
fn impossible_cells(dir: &Path) -> Result<Vec<table_checks::CheckedCell>> {
    if !markdown::regular_file(dir, "published.csv") {
        return Ok(Vec::new());
    }
    let text = crate::spec::read_regular(dir.join("published.csv"))?;
    let cells = table_checks::check_table(&text, "published.csv", "published")?;
    Ok(cells.into_iter().filter(|c| c.impossible()).collect())
}

/// The rows of a race's CSV (readings.csv, confirm.csv) and the `cell` of each whose
/// `column` is `value`.
fn cells_where(text: &str, column: &str, value: &str) -> Result<(usize, Vec<String>)> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let head = rdr.headers()?.clone();
    let col = |name: &str| head.iter().position(|h| h == name);
    let (Some(status), Some(cell)) = (col(column), col("cell")) else {
        anyhow::bail!("no {column} or cell column");
    };
    let (mut n, mut out) = (0, Vec::new());
    for rec in rdr.records() {
        let rec = rec?;
        n += 1;
        if rec.get(status) == Some(value) {
            out.push(rec.get(cell).unwrap_or_default().to_string());
        }
    }
    Ok((n, out))
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
    match crate::spec::read_regular(dir.join(name)) {
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

/// The commands that regenerate a race from its command.json: its outputs from the runs it
/// holds (`--resume`, nothing run), and every run from scratch into a new folder; a note
/// when the folder has no readable command.json.
fn regenerate(dir: &Path, folder: &str) -> String {
    let args: Result<Vec<String>> = crate::spec::read_regular(dir.join("command.json"))
        .map_err(anyhow::Error::from)
        .and_then(|t| Ok(serde_json::from_str(&t)?));
    let mut s = String::from("<h2 id=\"regenerate\">Regenerate</h2>\n");
    let args = match args {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(
                s,
                "<p class=\"missing\">command.json: {}</p>",
                escape(&format!("{e:#}"))
            );
            return s;
        }
    };
    let quoted: Vec<String> = args.iter().map(|a| shell_word(a)).collect();
    let cmd = format!("cargo run --release -p sudoku-lab -- {}", quoted.join(" "));
    let _ = writeln!(
        s,
        "<p>Report, verdicts and chart from the runs this folder holds (nothing is run; runs.csv stays as it is):</p><code class=\"cmd\">{}</code>\n<p>Every run from scratch, into a new folder (same seeds, same runs):</p><code class=\"cmd\">{}</code>",
        escape(&format!("{cmd} --out results/{folder} --resume")),
        escape(&format!("{cmd} --out my-results/{folder}")),
    );
    s
}

/// A word for a POSIX shell: as it is when it holds only safe characters, else single-quoted.
fn shell_word(w: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=,:@+".contains(c);
    if !w.is_empty() && w.chars().all(safe) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
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

/// A race's survivors by verdict, "within / contradicted / undecided"; "-" for a race
/// written before verdicts.
fn verdict_counts(r: &Races) -> String {
    r.verdicts
        .map_or("-".to_string(), |[w, c, u]| format!("{w} / {c} / {u}"))
}

#[cfg(test)]
mod tests {
    /// The README's block of the reading searches (when it has the markers) is the committed
    /// docs/readings-summary.md, which the site test checks is what `report` writes for the
    /// committed races: a README whose survivors or shares drifted fails here.
    #[test]
    fn the_readme_readings_block_is_current() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
        let doc = std::fs::read_to_string(repo.join("docs/readings-summary.md")).unwrap();
        let block = super::readme_short(&doc, "docs");
        assert!(
            super::super::summary::current_between(&readme, super::START, super::END, &block),
            "README.md: the block between {} and {} is not the short summary of \
             docs/readings-summary.md: run `sudoku-lab report`",
            super::START,
            super::END
        );
    }

    /// A code span in a race's table cell is the one code span of the site and the race
    /// reports (`readings::md::code_in_cell`): a backtick or a pipe is kept and escaped,
    /// not dropped, and a hidden character shown as messages show it.
    #[test]
    fn code_spans_keep_backticks_and_pipes() {
        use super::code;
        assert_eq!(code("elitism"), "`elitism`");
        assert_eq!(code("a`b|c"), "``a`b\\|c``");
        assert_eq!(code("x\ny"), "`x\\u{a}y`");
    }
}

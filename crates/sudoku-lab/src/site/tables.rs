//! The agreement tables of an experiment page, all from the results files' verdicts (see
//! `findings.rs`): the counts at a glance, the paper against ours with every cell coloured by
//! its verdict and its p-value beside it (and the test's details on hover), a statistics file
//! with a verdict column as a readable table (verdict first) with filters by verdict, and a
//! graded grid (Figure 4.2) with the cells that differ marked.

use super::findings::{Cell, Counts, Findings, Kind};
use super::html::{escape, url_path};
use std::fmt::Write as _;

/// A count as a coloured badge (nothing for zero).
fn badge(n: usize, class: &str, label: &str) -> String {
    if n == 0 {
        return String::new();
    }
    format!("<span class=\"verdict {class} count\">{n} {label}</span> ")
}

/// The published cells of one experiment at a glance, per column when the experiment runs
/// the columns of a published table (see `glance::columns`), else pooled.
pub fn column_badges(f: &Findings) -> String {
    let cols = super::glance::columns(f);
    if cols.len() < 2 {
        return agreement_badges(f);
    }
    let mut s = String::new();
    for c in cols.iter().flatten() {
        let _ = write!(
            s,
            "<div class=\"column\"><strong>{}</strong>: {}</div>",
            escape(c),
            reading_badges(f, Some(c))
        );
    }
    s
}

/// The published cells of one experiment at a glance: disjoint counts, coloured.
pub fn agreement_badges(f: &Findings) -> String {
    reading_badges(f, None)
}

/// [`agreement_badges`] of one reading (None: all).
fn reading_badges(f: &Findings, reading: Option<&str>) -> String {
    if !f.cells.is_empty() {
        let c = f.counts(true, reading);
        let mut s = badge(c.same, "v-same", "no sig. difference");
        s.push_str(&badge(c.low_power, "v-lowpower", "low power"));
        s.push_str(&badge(c.differ(), "v-differs", "differ"));
        let _ = write!(s, "<span class=\"muted\">of {} tested", c.tested());
        if c.descriptive > 0 {
            let _ = write!(s, ", {} descriptive", c.descriptive);
        }
        s.push_str("</span>");
        return s;
    }
    if !f.grades.is_empty() {
        let (same, all) = f.grade_agreement();
        let mut s = badge(same, "v-same", "same grade");
        s.push_str(&badge(all - same, "v-differs", "other grade"));
        let _ = write!(s, "<span class=\"muted\">of {all} cells, no test</span>");
        return s;
    }
    "<span class=\"muted\">no published values</span>".into()
}

/// The sentence under an experiment page's title: the counts, per reading when several.
pub fn agreement_section(f: &Findings, folder: &str) -> String {
    if !f.has_published() {
        return String::new();
    }
    let mut s = format!(
        "<p class=\"glance\"><strong>Published cells:</strong> {} · <a href=\"findings.html#{}\">findings</a></p>\n",
        agreement_badges(f),
        url_path(folder)
    );
    let readings = f.readings();
    if readings.len() > 1 {
        s.push_str("<p class=\"glance muted\">");
        for r in &readings {
            let c = f.counts(true, Some(r));
            if c == Counts::default() {
                continue;
            }
            let _ = write!(
                s,
                "<span class=\"reading\"><code>{}</code>: {}{}{}</span> ",
                escape(r),
                badge(c.same, "v-same", "n.s."),
                badge(c.low_power, "v-lowpower", "low power"),
                badge(c.differ(), "v-differs", "differ"),
            );
        }
        s.push_str("</p>\n");
    }
    s
}

/// A p-value as shown beside a cell: `p 0.046`, `p <0.001`.
fn p_text(p: &str) -> Option<String> {
    let x: f64 = p.parse().ok()?;
    Some(if x < 0.001 {
        "p <0.001".into()
    } else {
        format!("p {x:.3}")
    })
}

/// A value of a file as shown in a cell: a decimal number rounded for reading (1 decimal
/// from 100 on, 2 from 1 on, 3 significant digits below); anything else as written.
fn readable(v: &str) -> String {
    if v.is_empty() {
        return "-".into();
    }
    if let Some((a, b)) = v.split_once('/') {
        return format!("{}/{}", readable(a), readable(b));
    }
    match v.parse::<f64>() {
        Ok(x) if v.contains('.') && x.is_finite() => {
            let a = x.abs();
            if a >= 100.0 {
                format!("{x:.1}")
            } else if a >= 1.0 {
                format!("{x:.2}")
            } else if a == 0.0 {
                "0".into()
            } else {
                let digits = (2 - a.log10().floor() as i32).max(0) as usize;
                format!("{x:.digits$}")
            }
        }
        _ => v.to_string(),
    }
}

/// [`readable`] applied to each word of `v` ("median 1782.5600" -> "median 1782.6").
fn readable_words(v: &str) -> String {
    if v.is_empty() {
        return "-".into();
    }
    v.split(' ').map(readable).collect::<Vec<_>>().join(" ")
}

/// One coloured cell of the paper against ours.
fn verdict_td(c: &Cell) -> String {
    let class = c.kind.map(Kind::class).unwrap_or("v-other");
    let p = p_text(&c.p_holm).unwrap_or_else(|| "no test".into());
    format!(
        "<td class=\"verdict {class}\" title=\"{}\"><span class=\"ours\">{}</span> \
         <span class=\"paper\">paper {}</span> <span class=\"p\">{}</span></td>",
        escape(&c.hover()),
        escape(&readable_words(&c.ours)),
        escape(&readable_words(&c.paper)),
        escape(&p)
    )
}

/// Readable names of the statistics of comparison.csv and levels.csv.
fn statistic_name(s: &str) -> String {
    match s {
        "count" => "successes".into(),
        "average" => "average effort of successful runs".into(),
        "time_s" => "time per run (s)".into(),
        "ets_s" => "expected time to solve (s)".into(),
        "success_rate" => "success rate per puzzle".into(),
        "average_generations" => "average generations per puzzle".into(),
        other => other.replace('_', " "),
    }
}

/// The paper against ours: one row per (family, reading, level, puzzle), one column per
/// statistic with a test somewhere in the file; every cell coloured by its verdict.
pub fn paper_vs_ours(f: &Findings) -> String {
    let tested = |c: &Cell| c.kind.is_some_and(|k| k != Kind::Descriptive);
    let mut stats: Vec<&str> = Vec::new();
    for c in f.cells.iter().filter(|c| tested(c)) {
        if !stats.contains(&c.statistic.as_str()) {
            stats.push(&c.statistic);
        }
    }
    if stats.is_empty() {
        return String::new();
    }
    type Key<'a> = (&'a str, &'a str, &'a str, &'a str);
    let mut rows: Vec<(Key, Vec<&Cell>)> = Vec::new();
    for c in &f.cells {
        let key = (
            c.family.as_str(),
            c.reading.as_str(),
            c.level.as_str(),
            c.puzzle.as_str(),
        );
        match rows.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(c),
            None => rows.push((key, vec![c])),
        }
    }
    let families = rows
        .iter()
        .any(|((fam, ..), _)| !fam.is_empty() && *fam != "primary");
    let puzzles = rows.iter().any(|((.., p), _)| !p.is_empty());
    let mut s = String::from(
        "<h2 id=\"paper-vs-ours\">The paper against ours</h2>\n<p class=\"muted\">Each cell: \
         ours, the paper's value and the Holm-adjusted p-value, coloured by the verdict of the \
         results file (hover for the test, the raw p-value and the power). Descriptive \
         statistics (no test) are in the file's table below.</p>\n<div class=\"table-wrap\">\
         <table class=\"pvo\"><thead><tr>",
    );
    if families {
        s.push_str("<th>Family</th>");
    }
    s.push_str("<th>Reading</th><th>Level</th>");
    if puzzles {
        s.push_str("<th>Puzzle</th>");
    }
    for st in &stats {
        let _ = write!(s, "<th>{}</th>", escape(&statistic_name(st)));
    }
    s.push_str("</tr></thead><tbody>\n");
    for ((fam, reading, level, puzzle), cells) in &rows {
        if !cells.iter().any(|c| stats.contains(&c.statistic.as_str())) {
            continue;
        }
        s.push_str("<tr>");
        if families {
            let _ = write!(s, "<td>{}</td>", escape(fam));
        }
        let _ = write!(
            s,
            "<td><code>{}</code></td><td>{}</td>",
            escape(reading),
            escape(level)
        );
        if puzzles {
            let _ = write!(s, "<td>{}</td>", escape(puzzle));
        }
        for st in &stats {
            match cells.iter().find(|c| c.statistic == *st) {
                Some(c) => s.push_str(&verdict_td(c)),
                None => s.push_str("<td></td>"),
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
    s
}

/// The inline script of the verdict filters: shows the filter boxes (hidden without
/// JavaScript, when every row stays visible) and hides the rows of unticked verdicts.
pub const FILTER_SCRIPT: &str = "<script id=\"verdict-filter\">\
document.querySelectorAll('form.vfilter').forEach(function(f){f.hidden=false;\
var t=document.getElementById(f.dataset.table);\
f.addEventListener('change',function(){var on={};\
f.querySelectorAll('input').forEach(function(i){on[i.value]=i.checked;});\
t.querySelectorAll('tbody tr').forEach(function(r){r.hidden=!on[r.dataset.v];});});});\
</script>\n";

/// The verdict class of a row of a statistics file (its verdict text).
fn row_class(verdict: &str) -> &'static str {
    Kind::of(verdict).map(Kind::class).unwrap_or("v-other")
}

/// The filter boxes of a table (one per verdict class present, with its count).
fn filter_form(id: &str, classes: &[(&'static str, String, usize)]) -> String {
    let mut s = format!(
        "<form class=\"vfilter\" data-table=\"{id}\" hidden><span class=\"muted\">Show:</span> "
    );
    for (class, label, n) in classes {
        let _ = write!(
            s,
            "<label class=\"verdict {class}\"><input type=\"checkbox\" value=\"{class}\" checked> {} ({n})</label> ",
            escape(label)
        );
    }
    s.push_str("</form>\n");
    s
}

/// A statistics file with a `verdict` column as a table: verdict first, a constant
/// `experiment` column left out, at most `max_rows` rows, filters by verdict.
pub fn verdict_csv_table(
    name: &str,
    head: &csv::StringRecord,
    rows: &[csv::StringRecord],
    files_url: &str,
    max_rows: usize,
) -> String {
    let vcol = head
        .iter()
        .position(|h| h.eq_ignore_ascii_case("verdict"))
        .unwrap_or(0);
    let skip = head.iter().position(|h| h == "experiment");
    let order: Vec<usize> = std::iter::once(vcol)
        .chain((0..head.len()).filter(|&i| i != vcol && Some(i) != skip))
        .collect();
    let id = format!("t-{}", url_path(name).replace(['.', '%'], "-"));
    let mut classes: Vec<(&'static str, String, usize)> = Vec::new();
    for r in rows {
        let v = r.get(vcol).unwrap_or("").trim();
        let class = row_class(v);
        match classes.iter_mut().find(|(c, ..)| *c == class) {
            Some((.., n)) => *n += 1,
            None => classes.push((class, v.split(" (").next().unwrap_or(v).to_string(), 1)),
        }
    }
    for (class, label, _) in classes.iter_mut() {
        if let Some((_, l)) = super::markdown::VERDICTS.iter().find(|(c, _)| c == class) {
            *label = l.to_string();
        }
    }
    let mut s = format!(
        "<details open id=\"file-{id}\"><summary><a href=\"{files_url}/{}\">{}</a>: {} rows</summary>\n",
        url_path(name),
        escape(name),
        rows.len()
    );
    s.push_str(&filter_form(&id, &classes));
    let _ = write!(
        s,
        "<div class=\"table-wrap scroll\"><table class=\"csv\" id=\"{id}\"><thead><tr>"
    );
    for &i in &order {
        let h = head.get(i).unwrap_or("");
        let _ = write!(
            s,
            "<th title=\"{}\">{}</th>",
            escape(h),
            escape(&h.replace('_', " "))
        );
    }
    s.push_str("</tr></thead><tbody>\n");
    for r in rows.iter().take(max_rows) {
        let v = r.get(vcol).unwrap_or("").trim();
        let class = row_class(v);
        let _ = write!(
            s,
            "<tr data-v=\"{class}\"><td class=\"verdict {class}\">{}</td>",
            escape(v)
        );
        for &i in order.iter().skip(1) {
            let _ = write!(s, "<td>{}</td>", escape(r.get(i).unwrap_or("")));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>");
    if rows.len() > max_rows {
        let _ = write!(
            s,
            "<p class=\"muted\">First {max_rows} of {} rows; all in the file.</p>",
            rows.len()
        );
    }
    s.push_str("</details>\n");
    s
}

/// The graded grid (grades.csv): every cell with our grade and the paper's, given cells
/// shaded, the cells whose grades differ marked.
pub fn grades_grid(f: &Findings) -> String {
    let n = f.grades.iter().map(|g| g.row.max(g.col)).max().unwrap_or(0);
    if n == 0 {
        return String::new();
    }
    let box_side = (1..=n).find(|b| b * b == n).unwrap_or(0);
    let (same, all) = f.grade_agreement();
    let mut s = format!(
        "<h2 id=\"grid\">Grades cell by cell</h2>\n<p>Each cell: our grade / the paper's (A = \
         right in every run, B = right in at least 90 % of the runs, · otherwise), runs right \
         on hover. <span class=\"verdict v-same\">{same} of {all} the same</span> \
         <span class=\"verdict v-differs\">{} differ (outlined)</span>; given cells shaded.</p>\n\
         <table class=\"grades\"><tbody>\n",
        all - same
    );
    for r in 1..=n {
        s.push_str("<tr>");
        for c in 1..=n {
            let Some(g) = f.grades.iter().find(|g| g.row == r && g.col == c) else {
                s.push_str("<td></td>");
                continue;
            };
            let mut class = vec![if g.agree { "same" } else { "differs" }];
            if g.given {
                class.push("given");
            }
            if box_side > 0 && c % box_side == 0 && c < n {
                class.push("box-right");
            }
            if box_side > 0 && r % box_side == 0 && r < n {
                class.push("box-bottom");
            }
            let show = |x: &str| {
                if x == "." {
                    "·".to_string()
                } else {
                    escape(x)
                }
            };
            let _ = write!(
                s,
                "<td class=\"{}\" title=\"r{r}c{c}: ours {} ({}/{} runs right), paper {}\">{} / {}</td>",
                class.join(" "),
                escape(&g.ours),
                escape(&g.correct),
                escape(&g.runs),
                escape(&g.paper),
                show(&g.ours),
                show(&g.paper)
            );
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_rounded_for_reading() {
        assert_eq!(readable("5084.1700"), "5084.2");
        assert_eq!(readable("8.9293"), "8.93");
        assert_eq!(readable("0.0135"), "0.0135");
        assert_eq!(readable("0.1523"), "0.152");
        assert_eq!(readable("44/100"), "44/100");
        assert_eq!(readable("12099"), "12099");
        assert_eq!(readable(""), "-");
        assert_eq!(readable_words("median 1782.5600"), "median 1782.6");
        assert_eq!(p_text("4.4325e-12").unwrap(), "p <0.001");
        assert_eq!(p_text("4.6e-2").unwrap(), "p 0.046");
    }
}

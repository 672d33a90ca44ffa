//! HTML helpers of the site: escaping, relative URLs, the page frame and its style sheet
//! (inline: every page opens alone from the file system, no server, no network).

use std::path::{Component, Path};

/// Marks the pages this command writes (stale ones are removed only if they carry it).
pub const GENERATOR: &str = "sudoku-lab report";

pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

/// A relative path (with `/`) as a URL path: bytes outside the unreserved set and `/` are
/// percent-encoded.
pub fn url_path(p: &str) -> String {
    let mut o = String::new();
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            o.push(b as char);
        } else {
            o.push_str(&format!("%{b:02X}"));
        }
    }
    o
}

/// The URL of folder `to` seen from a page in folder `from` (both absolute, canonical), e.g.
/// `../results`. Falls back to a `file://` URL when they share no root.
pub fn relative_url(from: &Path, to: &Path) -> String {
    let f: Vec<Component> = from.components().collect();
    let t: Vec<Component> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return format!("file://{}", url_path(&to.to_string_lossy()));
    }
    let mut parts: Vec<String> = vec!["..".into(); f.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| url_path(&c.as_os_str().to_string_lossy())),
    );
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// The site's stylesheet, written once beside the pages as [`STYLESHEET`] (every page links
/// it, so the pages do not repeat it).
pub const CSS: &str = r#"
:root { --fg:#1d232b; --muted:#5b6573; --line:#d8dde3; --bg:#ffffff; --head:#f3f5f8; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--fg); background: var(--bg); margin: 0; }
header.top { background: #22313f; color: #fff; padding: 14px 28px; }
header.top a { color: #cfe3ff; }
header.top h1 { margin: 4px 0 2px; font-size: 1.45em; }
header.top .sub { color: #c9d3dd; }
main { padding: 8px 28px 40px; max-width: 1500px; }
h2 { border-bottom: 2px solid var(--line); padding-bottom: 3px; margin-top: 1.8em; }
a { color: #0b5cad; }
code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.92em; }
pre { background: var(--head); padding: 8px 12px; overflow-x: auto; border-radius: 4px; }
.cmd { background: #10202f; color: #e8f1fa; padding: 8px 12px; border-radius: 4px; display: block;
  white-space: pre-wrap; }
table { border-collapse: collapse; margin: 10px 0 18px; font-size: 0.92em; }
th, td { border: 1px solid var(--line); padding: 3px 8px; vertical-align: top; }
th { background: var(--head); text-align: left; }
tbody tr:nth-child(even) td:not(.verdict) { background: #fafbfc; }
.table-wrap { overflow-x: auto; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 0.85em;
  font-weight: 600; }
.badge.full { background: #d9f0dd; color: #185c27; }
.badge.quick { background: #ffe4b3; color: #7a4600; }
.badge.complete { background: #d9f0dd; color: #185c27; }
.badge.other { background: #f8d4d4; color: #7d1515; }
.quick-banner { background: #fff0d1; border: 1px solid #e6b55c; padding: 8px 12px;
  border-radius: 4px; margin: 12px 0; }
.verdict { font-weight: 600; }
td.verdict, span.verdict { border-radius: 3px; }
td.verdict { white-space: nowrap; }
span.verdict { padding: 0 4px; }
.v-same { background: #dcf2e0; color: #145c25; }
.v-lowpower { background: #f4f0d0; color: #5e5300; }
.v-higher { background: #fde0c2; color: #8a3b00; }
.v-lower { background: #f9d2dc; color: #8a1030; }
.v-differs { background: #fbd9c4; color: #7a2e00; }
.v-descriptive { background: #e8eaee; color: #3d4650; }
.v-better { background: #d6e6fb; color: #0d3f80; }
.v-neither { background: #eeeeee; color: #666666; }
.legend span.verdict { margin-right: 8px; display: inline-block; margin-bottom: 3px; }
figure.chart { margin: 14px 0 22px; }
figure.chart svg, figure.chart img { max-width: 100%; height: auto; border: 1px solid var(--line); }
.v-other { background: #eeeeee; color: #333333; }
.glance .verdict.count, p.glance .verdict.count { display: inline-block; padding: 0 6px;
  margin: 1px 3px 1px 0; white-space: nowrap; }
td.glance { min-width: 230px; }
p.glance { margin: 8px 0; }
p.glance .reading { display: inline-block; margin-right: 14px; white-space: nowrap; }
table.pvo td.verdict { font-weight: normal; white-space: nowrap; }
table.pvo .ours { font-weight: 700; }
table.pvo .paper, table.pvo .p { font-size: 0.85em; opacity: 0.85; }
table.pvo .p { font-variant-numeric: tabular-nums; }
.table-wrap.scroll { max-height: 70vh; overflow: auto; }
table.csv thead th { position: sticky; top: 0; z-index: 1; }
table.csv td { font-variant-numeric: tabular-nums; white-space: nowrap; }
form.vfilter { margin: 6px 0; }
form.vfilter label { display: inline-block; margin: 2px 4px 2px 0; padding: 1px 6px;
  border-radius: 3px; cursor: pointer; }
table.grades { border-collapse: collapse; }
table.grades td { width: 64px; height: 34px; white-space: nowrap; text-align: center; vertical-align: middle;
  border: 1px solid #c4cad2; font: 600 14px/1 "DejaVu Sans Mono", monospace; }
table.grades td.given { background: #e6e9ee; }
table.grades td.differs { background: #f9d2dc; color: #8a1030; outline: 3px solid #c0284f;
  outline-offset: -3px; }
table.grades td.box-right { border-right: 3px solid #333; }
table.grades td.box-bottom { border-bottom: 3px solid #333; }
.findings table td:nth-child(n+2):nth-child(-n+5) { text-align: right;
  font-variant-numeric: tabular-nums; }
.findings table td:nth-child(3) { color: #145c25; font-weight: 600; }
.findings table td:nth-child(4) { color: #5e5300; }
.findings table td:nth-child(5) { color: #8a1030; font-weight: 600; }
.findings table td:nth-child(6) { color: var(--muted); }
.findings table td.zero { color: var(--muted); font-weight: normal; }
.findings h3 { margin-bottom: 4px; }
figcaption { color: var(--muted); font-size: 0.9em; }
.missing { background: #f9d2dc; color: #8a1030; padding: 2px 6px; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 18px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
details { margin: 6px 0 10px; }
details > summary { cursor: pointer; color: #0b5cad; }
.doc { border-left: 3px solid var(--line); padding: 0 12px; margin: 4px 0 8px; color: #2c3440; }
.doc p { margin: 4px 0; }
.muted { color: var(--muted); }
.report h1 { font-size: 1.3em; }
p.outcome { font-size: 1.1em; margin: 10px 0; padding: 8px 12px; background: #f4f6fa;
  border-left: 4px solid #3b6fb6; }
p.headline { font-size: 1.05em; margin: 10px 0; }
nav.toc { margin: 10px 0; padding: 6px 12px; border: 1px solid #ddd; display: inline-block; }
nav.toc ol { margin: 4px 0; padding-left: 22px; columns: 2; }
td.glance .column { margin: 2px 0; white-space: nowrap; }
table.index { width: 100%; }
table.index td.glance { min-width: 0; }
table.index td.glance .column { white-space: normal; }
table.index td.title { min-width: 11em; }
@media (max-width: 1000px) {
  main { padding: 8px 14px 30px; }
  table.index, table.index tbody, table.index tfoot, table.index tr { display: block; }
  table.index thead { display: none; }
  table.index tr { border: 1px solid var(--line); margin: 0 0 10px; padding: 4px 8px; }
  table.index td, table.index tfoot th { display: block; border: none; padding: 2px 0; }
  table.index .num { text-align: left; }
  table.index .fact { display: inline-block; margin-right: 16px; }
  table.index [data-label]::before { content: attr(data-label) ": "; color: var(--muted);
    font-weight: normal; }
}
"#;

/// The stylesheet's file name beside the pages.
pub const STYLESHEET: &str = "site.css";

/// A whole page: `title` in the head and the top bar, `sub` (HTML) under it, `body` (HTML).
pub fn page(title: &str, sub: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"{GENERATOR}\">\n<title>{t}</title>\n\
         <link rel=\"stylesheet\" href=\"{STYLESHEET}\">\n</head>\n<body>\n<header class=\"top\">{sub}<h1>{t}</h1></header>\n\
         <main>\n{body}\n</main>\n</body>\n</html>\n",
        t = escape(title),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_urls() {
        assert_eq!(
            relative_url(Path::new("/a/docs"), Path::new("/a/results")),
            "../results"
        );
        assert_eq!(
            relative_url(Path::new("/a/results/site"), Path::new("/a/results")),
            ".."
        );
        assert_eq!(
            relative_url(Path::new("/a"), Path::new("/a/my results")),
            "my%20results"
        );
        assert_eq!(
            escape("<a href=\"x\">&"),
            "&lt;a href=&quot;x&quot;&gt;&amp;"
        );
    }
}

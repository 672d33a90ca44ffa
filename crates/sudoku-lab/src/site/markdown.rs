//! report.md -> HTML (pulldown-cmark, tables on) with these changes: table cells and phrases
//! that state a verdict get a CSS class, images become the chart's SVG as an `<img>` with the
//! site's caption (an SVG in `<img>` runs no script), and relative links point into the results
//! folder. A report.md is treated as hostile: its raw HTML is shown as text, never as markup,
//! links other than relative, http(s) and mailto are dropped (their text kept), remote images
//! become links (nothing is fetched), and only regular files of the folder itself (no symlink,
//! no `..`) are shown as images.

use super::findings::{Cell, Findings, Kind};
use super::html::{escape, url_path};
use pulldown_cmark::{html, Alignment, CowStr, Event, Options, Parser, Tag, TagEnd};
use std::path::Path;

/// The verdict classes: (CSS class, label in the legend).
pub const VERDICTS: &[(&str, &str)] = &[
    ("v-same", "no significant difference"),
    ("v-lowpower", "no significant difference (low power)"),
    ("v-higher", "differs (ours higher)"),
    ("v-lower", "differs (ours lower)"),
    ("v-differs", "differs"),
    ("v-descriptive", "descriptive (no test)"),
    ("v-better", "A faster than B / A ranks better"),
    ("v-neither", "neither solves"),
];

/// The words of the reading races (`sudoku-lab readings`) for a fit: the race's, the second
/// seed's and the per-cell tests' (docs/readings.md, *Words*).
const RACE_FITS: &[&str] = &[
    "survived",
    "fits",
    "confirmed",
    "consistent (both seeds)",
    "within margin",
    "within margins",
];

/// Their words for a misfit.
const RACE_FAILS: &[&str] = &[
    "rejects",
    "rejected",
    "contradicted",
    "eliminated",
    "eliminated (last round)",
    "survived the race, not confirmed",
];

/// The verdict class of a whole table cell, if the cell states one (also at the end, after
/// ` : `, as in "A12 0.36, p 0.041 : differs (ours lower)").
pub fn cell_class(text: &str) -> Option<&'static str> {
    let t = text.trim().to_lowercase();
    if let Some((_, tail)) = t.rsplit_once(" : ") {
        if let Some(c) = cell_class(tail) {
            return Some(c);
        }
    }
    if t.starts_with("differs (ours higher)") {
        Some("v-higher")
    } else if t.starts_with("differs (ours lower)") {
        Some("v-lower")
    } else if t.starts_with("no significant difference") {
        Some(if t.contains("low power") {
            "v-lowpower"
        } else {
            "v-same"
        })
    } else if t == "differs" || t.starts_with("differs ") {
        Some("v-differs")
    } else if t == "consistent" || RACE_FITS.contains(&t.as_str()) {
        Some("v-same")
    } else if RACE_FAILS.contains(&t.as_str()) || t.starts_with("eliminated in round ") {
        Some("v-differs")
    } else if t.starts_with("undecided") {
        Some("v-lowpower")
    } else if t.starts_with("descriptive") {
        Some("v-descriptive")
    } else if t.contains(" faster than ") || t.ends_with(" ranks better") {
        Some("v-better")
    } else if t == "neither solves" {
        Some("v-neither")
    } else if let Some(c) = seed_class(&t) {
        Some(c)
    } else {
        None
    }
}

/// The verdict class of an answer checked at a second master seed (`confirm-seed`): held,
/// not found again, reversed, new.
fn seed_class(t: &str) -> Option<&'static str> {
    match t {
        "held" => Some("v-same"),
        "not found again" => Some("v-lowpower"),
        "reversed" => Some("v-differs"),
        "new" => Some("v-descriptive"),
        _ => None,
    }
}

/// Phrases marked inside running text (longest first).
const PHRASES: &[(&str, &str)] = &[
    ("no significant difference (low power)", "v-lowpower"),
    ("differs (ours higher)", "v-higher"),
    ("differs (ours lower)", "v-lower"),
    ("no significant difference", "v-same"),
];

/// `text` as escaped HTML with each verdict phrase in a `<span class="verdict ...">`, or None
/// when it has none.
fn mark_phrases(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    let mut found = false;
    loop {
        let hit = PHRASES
            .iter()
            .filter_map(|(p, c)| rest.find(p).map(|i| (i, *p, *c)))
            .min_by_key(|(i, p, _)| (*i, usize::MAX - p.len()));
        match hit {
            Some((i, p, c)) => {
                found = true;
                out.push_str(&escape(&rest[..i]));
                out.push_str(&format!("<span class=\"verdict {c}\">{}</span>", escape(p)));
                rest = &rest[i + p.len()..];
            }
            None => {
                out.push_str(&escape(rest));
                break;
            }
        }
    }
    found.then_some(out)
}

/// What a link of a report may point to.
#[derive(Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// A path relative to the report's folder.
    Relative,
    /// `#fragment`, an absolute path, http(s) or mailto: kept as it is.
    Kept,
    /// Any other scheme (`javascript:`, `data:`, `vbscript:`, `file:`...) or `//host`:
    /// dropped.
    Unsafe,
}

/// The kind of link `url` is. The scheme is read the way a browser does: ASCII whitespace
/// and control characters removed, case ignored.
pub fn link_kind(url: &str) -> LinkKind {
    let t: String = url
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    if t.starts_with("//") || t.starts_with("\\\\") || t.starts_with("/\\") {
        return LinkKind::Unsafe;
    }
    let scheme_end = t.find(':');
    let path_start = t.find(['/', '?', '#']);
    match scheme_end {
        Some(i) if path_start.is_none_or(|p| i < p) => match &t[..i] {
            "http" | "https" | "mailto" => LinkKind::Kept,
            _ => LinkKind::Unsafe,
        },
        _ if t.starts_with('#') || t.starts_with('/') => LinkKind::Kept,
        _ if t.is_empty() => LinkKind::Kept,
        _ => LinkKind::Relative,
    }
}

/// What rendering found: the images it showed (file names) and the ones it could not find.
#[derive(Default, Debug)]
pub struct Rendered {
    pub html: String,
    pub inlined: Vec<String>,
    pub missing: Vec<String>,
}

/// Whether `name` is a regular file of folder `dir` itself: a plain name (no `/`, `\`, `..`)
/// whose entry is a file, not a symlink (a results folder cannot show a file from elsewhere).
pub fn regular_file(dir: &Path, name: &str) -> bool {
    !(name.is_empty() || name.contains(['/', '\\']) || name == "." || name == "..")
        && std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.file_type().is_file())
}

/// A chart as a `<figure>`: its SVG as an `<img>` (an image runs no script), the site's
/// caption for the chart (see `captions.rs`; else `alt`), and links to the SVG and the PNG.
/// None when the SVG is not a regular file of `dir`.
pub fn chart_figure(dir: &Path, svg_name: &str, alt: &str, files_url: &str) -> Option<String> {
    if !regular_file(dir, svg_name) {
        return None;
    }
    let stem = svg_name.trim_end_matches(".svg");
    let png = format!("{stem}.png");
    let mut links = format!("<a href=\"{files_url}/{}\">SVG</a>", url_path(svg_name));
    if regular_file(dir, &png) {
        links.push_str(&format!(
            " · <a href=\"{files_url}/{}\">PNG</a>",
            url_path(&png)
        ));
    }
    let caption = match super::captions::caption(svg_name) {
        Some(c) => format!("<strong>{}</strong>: {}", escape(svg_name), escape(c)),
        None => format!("<strong>{}</strong>", escape(svg_name)),
    };
    Some(format!(
        "<figure class=\"chart\" id=\"chart-{id}\"><img class=\"chart\" src=\"{files_url}/{src}\" alt=\"{alt}\"><figcaption>{caption} <span class=\"files\">({links})</span></figcaption></figure>\n",
        id = escape(stem),
        src = url_path(svg_name),
        alt = escape(alt),
    ))
}

/// Renders `md` (the report of results folder `dir`, reached from the page as `files_url`);
/// the cells of its paper-against-ours tables are coloured by the verdicts of `findings`.
pub fn render(md: &str, dir: &Path, files_url: &str, findings: Option<&Findings>) -> Rendered {
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut state = RenderState::new(dir, files_url);
    state.findings = findings;
    for ev in Parser::new_ext(md, opts) {
        state.event(ev);
    }
    state.finish()
}

/// Where a relative link or image of a hand-written doc leads on the site: its URL from the
/// page, or None when the target does not exist (the link is then dropped, its text kept).
pub type Resolve<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Renders `md`, a hand-written doc, as [`render`] does a report, its relative links and
/// images taken where `resolve` says.
pub fn render_doc(md: &str, resolve: Resolve<'_>) -> Rendered {
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut state = RenderState::new(Path::new("."), ".");
    state.resolve = Some(resolve);
    for ev in Parser::new_ext(md, opts) {
        state.event(ev);
    }
    state.finish()
}

/// What [`render`] carries from one Markdown event to the next.
struct RenderState<'a> {
    dir: &'a Path,
    files_url: &'a str,
    /// A doc's link resolver ([`render_doc`]); None for a report.
    resolve: Option<Resolve<'a>>,
    /// Inside a link dropped because its target does not exist.
    dead_link: bool,
    r: Rendered,
    /// The events to write, as rewritten.
    events: Vec<Event<'a>>,
    /// The column alignments of the current table.
    aligns: Vec<Alignment>,
    /// Inside the head row of a table (whose cells become `<th>` and get no verdict class).
    in_head: bool,
    /// The column of the next table cell.
    col: usize,
    /// The events inside the table cell being read: a cell is written whole at its end.
    cell: Option<Vec<Event<'a>>>,
    /// The image being read: (dest, alt text).
    image: Option<(String, String)>,
    /// Inside a code block (whose text is left as it is).
    in_code: bool,
    /// Inside a link whose URL was dropped (its text is kept).
    dropped_link: bool,
    /// The verdicts that colour a paper-against-ours table (see [`Self::column_verdict`]).
    findings: Option<&'a Findings>,
    /// The head cells of the current table, and the cells of its current row so far.
    head: Vec<String>,
    row: Vec<String>,
    /// The statistic of the row's last "ours" column (its `p` column follows it).
    stat: Option<String>,
}

impl<'a> RenderState<'a> {
    fn new(dir: &'a Path, files_url: &'a str) -> Self {
        RenderState {
            dir,
            files_url,
            resolve: None,
            dead_link: false,
            r: Rendered::default(),
            events: Vec::new(),
            aligns: Vec::new(),
            in_head: false,
            col: 0,
            cell: None,
            image: None,
            in_code: false,
            dropped_link: false,
            findings: None,
            head: Vec::new(),
            row: Vec::new(),
            stat: None,
        }
    }

    /// Take one event: inside an image it goes to the image, else it is rewritten and kept.
    fn event(&mut self, ev: Event<'a>) {
        if self.image.is_some() {
            self.image_event(ev);
        } else if let Some(ev) = self.rewrite(ev) {
            self.push(ev);
        }
    }

    /// An event inside an image: its alt text is collected, then the whole image is replaced
    /// (see [`image_html`]).
    fn image_event(&mut self, ev: Event<'a>) {
        let Some((_, alt)) = self.image.as_mut() else {
            return;
        };
        match ev {
            Event::End(TagEnd::Image) => {
                let (dest, alt) = self.image.take().unwrap_or_default();
                let html = match self.resolve {
                    Some(resolve) if link_kind(&dest) == LinkKind::Relative => {
                        match resolve(&dest) {
                            Some(url) => {
                                format!("<img src=\"{}\" alt=\"{}\">", escape(&url), escape(&alt))
                            }
                            None => {
                                self.r.missing.push(dest.clone());
                                format!(
                                    "<span class=\"missing\">missing image: {}</span>",
                                    escape(&dest)
                                )
                            }
                        }
                    }
                    _ => image_html(&dest, &alt, self.dir, self.files_url, &mut self.r),
                };
                self.push(Event::InlineHtml(html.into()));
            }
            Event::Text(t) | Event::Code(t) => alt.push_str(&t),
            _ => {}
        }
    }

    /// The event to keep for `ev`, noting where it is (table, cell, code block); None for the
    /// start of an image or of a table cell, which are written at their end.
    fn rewrite(&mut self, ev: Event<'a>) -> Option<Event<'a>> {
        Some(match ev {
            Event::Start(Tag::Image { dest_url, .. }) => {
                self.image = Some((dest_url.to_string(), String::new()));
                return None;
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest_url = self.link_target(dest_url)?;
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            }
            Event::End(TagEnd::Link) if self.dead_link => {
                self.dead_link = false;
                return None;
            }
            Event::End(TagEnd::Link) if self.dropped_link => {
                self.dropped_link = false;
                Event::InlineHtml(" <span class=\"muted\">(unsafe link removed)</span>".into())
            }
            // Raw HTML of the report is shown as text: never markup of the page.
            Event::Html(t) | Event::InlineHtml(t) => return self.rewrite(Event::Text(t)),
            Event::Start(Tag::Table(a)) => {
                self.aligns = a.clone();
                self.head.clear();
                Event::Start(Tag::Table(a))
            }
            Event::Start(Tag::TableHead) => {
                self.in_head = true;
                self.col = 0;
                Event::Start(Tag::TableHead)
            }
            Event::End(TagEnd::TableHead) => {
                self.in_head = false;
                Event::End(TagEnd::TableHead)
            }
            Event::Start(Tag::TableRow) => {
                self.col = 0;
                self.row.clear();
                self.stat = None;
                Event::Start(Tag::TableRow)
            }
            Event::Start(Tag::TableCell) => {
                self.cell = Some(Vec::new());
                return None;
            }
            Event::End(TagEnd::TableCell) => self.table_cell(),
            Event::Start(Tag::CodeBlock(k)) => {
                self.in_code = true;
                Event::Start(Tag::CodeBlock(k))
            }
            Event::End(TagEnd::CodeBlock) => {
                self.in_code = false;
                Event::End(TagEnd::CodeBlock)
            }
            Event::Text(t) if !self.in_code && self.cell.is_none() => match mark_phrases(&t) {
                Some(h) => Event::InlineHtml(h.into()),
                None => Event::Text(t),
            },
            other => other,
        })
    }

    /// Where a link of the page leads: a relative link resolved to a site page (None, and the
    /// link dropped with its text kept, when it leads nowhere), else to the file where it is;
    /// an unsafe link is removed (None).
    fn link_target(&mut self, dest_url: CowStr<'a>) -> Option<CowStr<'a>> {
        Some(match link_kind(&dest_url) {
            LinkKind::Relative if self.resolve.is_some() => {
                match self.resolve.and_then(|r| r(&dest_url)) {
                    Some(url) => CowStr::from(url),
                    None => {
                        self.dead_link = true;
                        return None;
                    }
                }
            }
            LinkKind::Relative => CowStr::from(format!("{}/{dest_url}", self.files_url)),
            LinkKind::Kept => dest_url,
            LinkKind::Unsafe => {
                self.dropped_link = true;
                return None;
            }
        })
    }

    /// The table cell just ended as one HTML event: `<th>` in the head, else `<td>` with the
    /// verdict class its text states (see [`cell_class`]), and the column's alignment.
    fn table_cell(&mut self) -> Event<'a> {
        let inner = self.cell.take().unwrap_or_default();
        let text: String = inner
            .iter()
            .filter_map(|e| match e {
                Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                _ => None,
            })
            .collect();
        let mut body = String::new();
        html::push_html(&mut body, inner.into_iter());
        let tag = if self.in_head { "th" } else { "td" };
        let mut attrs = String::new();
        if self.in_head {
            self.head.push(text.trim().to_string());
        } else {
            self.row.push(text.trim().to_string());
            if let Some(c) = cell_class(&text) {
                attrs.push_str(&format!(" class=\"verdict {c}\""));
            } else if let Some(c) = self.column_verdict() {
                attrs.push_str(&format!(
                    " class=\"verdict {}\" title=\"{}\"",
                    c.kind.map(Kind::class).unwrap_or("v-other"),
                    escape(&c.hover())
                ));
            }
        }
        match self.aligns.get(self.col) {
            Some(Alignment::Left) => attrs.push_str(" style=\"text-align: left\""),
            Some(Alignment::Center) => attrs.push_str(" style=\"text-align: center\""),
            Some(Alignment::Right) => attrs.push_str(" style=\"text-align: right\""),
            _ => {}
        }
        self.col += 1;
        Event::Html(format!("<{tag}{attrs}>{body}</{tag}>").into())
    }

    /// The verdict of the body cell at `self.col` in a table of the ablation reports' layout
    /// (`Variant | Puzzle | ... | ours | p | ... | ours avg (SD) | p`): the comparison cell of
    /// the row's variant and puzzle for the statistic of the column ("ours": the success count,
    /// or the one statistic of a counter report; "ours avg": the average; "p": the column
    /// before it). None elsewhere.
    fn column_verdict(&mut self) -> Option<&'a Cell> {
        let f = self.findings?;
        if self.head.first()? != "Variant" || self.head.get(1)? != "Puzzle" {
            return None;
        }
        let (reading, level) = (self.row.first()?.clone(), self.row.get(1)?.clone());
        let h = self.head.get(self.col)?.to_lowercase();
        let cell = if h == "p" {
            f.cell(&reading, &level, self.stat.as_deref()?)
        } else if h == "ours" {
            f.cell(&reading, &level, "count").or_else(|| {
                let mut tested = f.cells.iter().filter(|c| {
                    c.primary()
                        && c.reading == reading
                        && c.level == level
                        && c.kind.is_some_and(|k| k != Kind::Descriptive)
                });
                tested.next().filter(|_| tested.next().is_none())
            })
        } else if h.starts_with("ours avg") {
            f.cell(&reading, &level, "average")
        } else {
            self.stat = None;
            return None;
        };
        if h != "p" {
            self.stat = cell.map(|c| c.statistic.clone());
        }
        cell
    }

    /// Keep `ev`: in the table cell being read if any, else in the page.
    fn push(&mut self, ev: Event<'a>) {
        match &mut self.cell {
            Some(c) => c.push(ev),
            None => self.events.push(ev),
        }
    }

    /// The page's HTML and what rendering found.
    fn finish(mut self) -> Rendered {
        html::push_html(&mut self.r.html, self.events.into_iter());
        self.r
    }
}

/// An image of the report: the SVG of the same name as a chart figure, else the file itself
/// (a regular file of the folder), else a visible "missing" note (recorded in `r.missing`). A
/// remote image becomes a link (nothing is fetched); another scheme is dropped.
fn image_html(dest: &str, alt: &str, dir: &Path, files_url: &str, r: &mut Rendered) -> String {
    match link_kind(dest) {
        LinkKind::Relative => {}
        LinkKind::Kept if dest.starts_with("http") => {
            return format!(
                "<a href=\"{}\">image: {}</a>",
                escape(dest),
                escape(if alt.is_empty() { dest } else { alt })
            );
        }
        _ => {
            return format!(
                "<span class=\"muted\">[image removed: {}]</span>",
                escape(alt)
            )
        }
    }
    let stem = dest.rsplit_once('.').map(|(s, _)| s).unwrap_or(dest);
    let svg = format!("{stem}.svg");
    if let Some(f) = chart_figure(dir, &svg, alt, files_url) {
        r.inlined.push(svg);
        return f;
    }
    let image = [".png", ".jpg", ".jpeg", ".gif", ".webp"]
        .iter()
        .any(|x| dest.to_ascii_lowercase().ends_with(x));
    if image && regular_file(dir, dest) {
        return format!(
            "<img src=\"{files_url}/{}\" alt=\"{}\">",
            url_path(dest),
            escape(alt)
        );
    }
    r.missing.push(dest.to_string());
    format!(
        "<span class=\"missing\">missing image: {}</span>",
        escape(dest)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_at_a_second_seed_get_classes() {
        let cases = [
            ("held", Some("v-same")),
            ("not found again", Some("v-lowpower")),
            ("reversed", Some("v-differs")),
            ("new", Some("v-descriptive")),
            ("acs ranks better", Some("v-better")),
            ("held up", None),
        ];
        for (text, class) in cases {
            assert_eq!(cell_class(text), class, "{text}");
        }
    }

    #[test]
    fn verdict_cells_and_phrases_get_classes() {
        let md = "Note: no significant difference here.\n\n| a | verdict |\n|---|---|\n| x | differs (ours lower) |\n| y | no significant difference (low power) |\n| z | A faster than B |\n| w | descriptive |\n";
        let r = render(md, Path::new("/nonexistent"), "../results/x", None);
        assert!(
            r.html
                .contains("<span class=\"verdict v-same\">no significant difference</span>"),
            "{}",
            r.html
        );
        assert!(
            r.html
                .contains("<td class=\"verdict v-lower\">differs (ours lower)</td>"),
            "{}",
            r.html
        );
        assert!(r.html.contains("class=\"verdict v-lowpower\""));
        assert!(r.html.contains("class=\"verdict v-better\""));
        assert!(r.html.contains("class=\"verdict v-descriptive\""));
        assert!(r.html.contains("<th>verdict</th>"));
    }

    #[test]
    fn ours_and_p_cells_of_a_paper_against_ours_table_take_the_verdict() {
        let f = Findings {
            cells: vec![Cell {
                family: "primary".into(),
                reading: "v1".into(),
                level: "easy".into(),
                statistic: "count".into(),
                verdict: "differs (ours lower)".into(),
                kind: Some(Kind::Lower),
                p_holm: "1.0e-2".into(),
                ..Cell::default()
            }],
            ..Findings::default()
        };
        let md = "| Variant | Puzzle | paper successes | ours | p | ours avg (SD) | p |\n|---|---|---|---|---|---|---|\n| v1 | easy | 9/10 | 2/10 | 0.010 | 5.0 | - |\n| v2 | easy | 9/10 | 9/10 | 1.000 | 5.0 | - |\n";
        let r = render(md, Path::new("/nonexistent"), "x", Some(&f));
        let lower =
            "<td class=\"verdict v-lower\" title=\"differs (ours lower) · p (Holm) = 1.0e-2";
        assert_eq!(r.html.matches(lower).count(), 2, "{}", r.html);
        assert_eq!(r.html.matches("class=\"verdict").count(), 2, "{}", r.html);
    }

    #[test]
    fn links_point_into_the_results_folder_and_missing_images_are_reported() {
        let md = "[pairs](compare-pairs.md) [web](https://example.org) ![chart](nope.png)";
        let r = render(md, Path::new("/nonexistent"), "../results/x", None);
        assert!(
            r.html.contains("href=\"../results/x/compare-pairs.md\""),
            "{}",
            r.html
        );
        assert!(r.html.contains("href=\"https://example.org\""));
        assert_eq!(r.missing, vec!["nope.png".to_string()]);
    }
}

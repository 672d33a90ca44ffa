//! report.md -> HTML (pulldown-cmark, tables on) with three changes: table cells and phrases
//! that state a verdict get a CSS class, images become the chart's SVG inline (or an `<img>` of
//! the file when there is no SVG), and relative links point into the results folder.

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

/// The verdict class of a whole table cell, if the cell states one.
pub fn cell_class(text: &str) -> Option<&'static str> {
    let t = text.trim().to_lowercase();
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
    } else if t == "consistent" {
        Some("v-same")
    } else if t.starts_with("descriptive") {
        Some("v-descriptive")
    } else if t.contains(" faster than ") || t.ends_with(" ranks better") {
        Some("v-better")
    } else if t == "neither solves" {
        Some("v-neither")
    } else {
        None
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

/// Whether `url` is relative to the folder of the page it appears in.
pub fn is_relative(url: &str) -> bool {
    !(url.is_empty()
        || url.starts_with('#')
        || url.starts_with('/')
        || url.contains("://")
        || url.starts_with("mailto:")
        || url.starts_with("data:"))
}

/// What rendering found: the images it inlined (file names) and the ones it could not find.
#[derive(Default, Debug)]
pub struct Rendered {
    pub html: String,
    pub inlined: Vec<String>,
    pub missing: Vec<String>,
}

/// A chart as an inline `<figure>`: its SVG (XML prolog dropped) with a link to the PNG when
/// there is one. `dir` is the results folder, `files_url` its URL relative to the page.
pub fn chart_figure(dir: &Path, svg_name: &str, caption: &str, files_url: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(svg_name)).ok()?;
    let start = text.find("<svg")?;
    let svg = &text[start..];
    let svg = svg.replacen(
        "<svg",
        &format!(
            "<svg class=\"chart\" role=\"img\" aria-label=\"{}\"",
            escape(caption)
        ),
        1,
    );
    let stem = svg_name.trim_end_matches(".svg");
    let png = format!("{stem}.png");
    let mut links = format!("<a href=\"{files_url}/{}\">SVG</a>", url_path(svg_name));
    if dir.join(&png).is_file() {
        links.push_str(&format!(
            " · <a href=\"{files_url}/{}\">PNG</a>",
            url_path(&png)
        ));
    }
    Some(format!(
        "<figure class=\"chart\" id=\"chart-{id}\">{svg}<figcaption>{cap} <span class=\"files\">({links})</span></figcaption></figure>\n",
        id = escape(stem),
        cap = escape(caption),
    ))
}

/// Renders `md` (the report of results folder `dir`, reached from the page as `files_url`).
pub fn render(md: &str, dir: &Path, files_url: &str) -> Rendered {
    let mut r = Rendered::default();
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut events: Vec<Event> = Vec::new();
    let mut aligns: Vec<Alignment> = Vec::new();
    let mut in_head = false;
    let mut col = 0usize;
    let mut cell: Option<Vec<Event>> = None;
    let mut image: Option<(String, String)> = None; // (dest, alt text)
    let mut in_code = false;
    for ev in Parser::new_ext(md, opts) {
        // An image: its alt text is collected, then the whole is replaced.
        if let Some((_, alt)) = image.as_mut() {
            match ev {
                Event::End(TagEnd::Image) => {
                    let (dest, alt) = image.take().unwrap_or_default();
                    let html = image_html(&dest, &alt, dir, files_url, &mut r);
                    push(&mut events, &mut cell, Event::InlineHtml(html.into()));
                }
                Event::Text(t) | Event::Code(t) => alt.push_str(&t),
                _ => {}
            }
            continue;
        }
        let ev = match ev {
            Event::Start(Tag::Image { dest_url, .. }) => {
                image = Some((dest_url.to_string(), String::new()));
                continue;
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest_url = if is_relative(&dest_url) {
                    CowStr::from(format!("{files_url}/{dest_url}"))
                } else {
                    dest_url
                };
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            }
            Event::Start(Tag::Table(a)) => {
                aligns = a.clone();
                Event::Start(Tag::Table(a))
            }
            Event::Start(Tag::TableHead) => {
                in_head = true;
                col = 0;
                Event::Start(Tag::TableHead)
            }
            Event::End(TagEnd::TableHead) => {
                in_head = false;
                Event::End(TagEnd::TableHead)
            }
            Event::Start(Tag::TableRow) => {
                col = 0;
                Event::Start(Tag::TableRow)
            }
            Event::Start(Tag::TableCell) => {
                cell = Some(Vec::new());
                continue;
            }
            Event::End(TagEnd::TableCell) => {
                let inner = cell.take().unwrap_or_default();
                let text: String = inner
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                let mut body = String::new();
                html::push_html(&mut body, inner.into_iter());
                let tag = if in_head { "th" } else { "td" };
                let mut attrs = String::new();
                if !in_head {
                    if let Some(c) = cell_class(&text) {
                        attrs.push_str(&format!(" class=\"verdict {c}\""));
                    }
                }
                match aligns.get(col) {
                    Some(Alignment::Left) => attrs.push_str(" style=\"text-align: left\""),
                    Some(Alignment::Center) => attrs.push_str(" style=\"text-align: center\""),
                    Some(Alignment::Right) => attrs.push_str(" style=\"text-align: right\""),
                    _ => {}
                }
                col += 1;
                Event::Html(format!("<{tag}{attrs}>{body}</{tag}>").into())
            }
            Event::Start(Tag::CodeBlock(k)) => {
                in_code = true;
                Event::Start(Tag::CodeBlock(k))
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code = false;
                Event::End(TagEnd::CodeBlock)
            }
            Event::Text(t) if !in_code && cell.is_none() => match mark_phrases(&t) {
                Some(h) => Event::InlineHtml(h.into()),
                None => Event::Text(t),
            },
            other => other,
        };
        push(&mut events, &mut cell, ev);
    }
    html::push_html(&mut r.html, events.into_iter());
    r
}

fn push<'a>(events: &mut Vec<Event<'a>>, cell: &mut Option<Vec<Event<'a>>>, ev: Event<'a>) {
    match cell {
        Some(c) => c.push(ev),
        None => events.push(ev),
    }
}

/// An image of the report: the SVG of the same name inline, else the file itself, else a
/// visible "missing" note (recorded in `r.missing`).
fn image_html(dest: &str, alt: &str, dir: &Path, files_url: &str, r: &mut Rendered) -> String {
    if !is_relative(dest) {
        return format!("<img src=\"{}\" alt=\"{}\">", escape(dest), escape(alt));
    }
    let stem = dest.rsplit_once('.').map(|(s, _)| s).unwrap_or(dest);
    let svg = format!("{stem}.svg");
    if !svg.contains('/') {
        if let Some(f) = chart_figure(dir, &svg, alt, files_url) {
            r.inlined.push(svg);
            return f;
        }
    }
    if dir.join(dest).is_file() {
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
    fn verdict_cells_and_phrases_get_classes() {
        let md = "Note: no significant difference here.\n\n| a | verdict |\n|---|---|\n| x | differs (ours lower) |\n| y | no significant difference (low power) |\n| z | A faster than B |\n| w | descriptive |\n";
        let r = render(md, Path::new("/nonexistent"), "../results/x");
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
    fn links_point_into_the_results_folder_and_missing_images_are_reported() {
        let md = "[pairs](compare-pairs.md) [web](https://example.org) ![chart](nope.png)";
        let r = render(md, Path::new("/nonexistent"), "../results/x");
        assert!(
            r.html.contains("href=\"../results/x/compare-pairs.md\""),
            "{}",
            r.html
        );
        assert!(r.html.contains("href=\"https://example.org\""));
        assert_eq!(r.missing, vec!["nope.png".to_string()]);
    }
}

//! `sudoku-lab report`: the HTML site built from a small results folder (a `--quick` run of an
//! embedded experiment), its pages and links checked here, then in headless Chromium by
//! `scripts/check-report.sh` when `chromium` is on the PATH.

mod common;

use common::{bin, ok, run, stderr, tmpdir};
use std::path::{Path, PathBuf};

/// A results folder holding one quick experiment.
fn quick_results(name: &str) -> PathBuf {
    let root = tmpdir(name);
    let res = root.join("results");
    ok(bin()
        .args([
            "reproduce",
            "reseda-table2",
            "--quick",
            "--threads",
            "2",
            "--out",
        ])
        .arg(res.join("reseda-table2")));
    res
}

/// Every `href="..."` and `src="..."` value of a page.
fn refs(html: &str) -> Vec<String> {
    let mut v = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for (i, _) in html.match_indices(attr) {
            let rest = &html[i + attr.len()..];
            if let Some(end) = rest.find('"') {
                v.push(rest[..end].to_string());
            }
        }
    }
    v
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(x) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(x);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

/// Every local link and source of every page resolves on disk, every `#id` exists.
fn check_links(site: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(site).unwrap() {
        let page = entry.unwrap().path();
        if page.extension().and_then(|e| e.to_str()) != Some("html") {
            continue;
        }
        let html = std::fs::read_to_string(&page).unwrap();
        for r in refs(&html) {
            assert!(
                !r.starts_with("//") && !r.starts_with("http:"),
                "{}: network reference {r}",
                page.display()
            );
            if r.starts_with("https:") {
                continue;
            }
            let (path, frag) = r.split_once('#').unwrap_or((&r, ""));
            let target = if path.is_empty() {
                page.clone()
            } else {
                site.join(percent_decode(path))
            };
            assert!(
                target.exists(),
                "{}: broken link {r} -> {}",
                page.display(),
                target.display()
            );
            // Fragments of pages (those of Markdown files are checked by tests/provenance.rs).
            if !frag.is_empty() && target.extension().is_some_and(|e| e == "html") {
                let t = std::fs::read_to_string(&target).unwrap();
                assert!(
                    t.contains(&format!("id=\"{frag}\"")),
                    "{}: no #{frag} in {}",
                    page.display(),
                    target.display()
                );
            }
            n += 1;
        }
    }
    n
}

#[test]
fn report_builds_a_site_whose_links_resolve_and_that_chromium_opens() {
    let res = quick_results("site");
    let site = res.parent().unwrap().join("site");
    let o = ok(bin()
        .args(["report", "--results"])
        .arg(&res)
        .arg("--out")
        .arg(&site));
    assert!(String::from_utf8_lossy(&o.stdout).contains("1 experiment pages"));

    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("href=\"reseda-table2.html\""), "{index}");
    assert!(index.contains("RESEDA Table 2"));
    assert!(index.contains("badge quick"));

    let page = std::fs::read_to_string(site.join("reseda-table2.html")).unwrap();
    // The report's table, the chart inline, the files linked where they are.
    assert!(page.contains("<table>") && page.contains("paper successes"));
    assert!(
        page.contains("<img class=\"chart\" src=\"../results/reseda-table2/"),
        "no chart"
    );
    assert!(page.contains("href=\"../results/reseda-table2/summary.csv\""));
    assert!(page.contains("href=\"../results/reseda-table2/runs.csv\""));
    // meta.json facts, the options with the crate's words, the command.
    assert!(page.contains("Master seed") && page.contains("Git revision"));
    assert!(page.contains("Quick run"));
    assert!(page.contains("id=\"algo-reseda\"") && page.contains("<code>alpha = "));
    assert!(page.contains("ResedaConfig::alpha"), "crate doc table row");
    assert!(page.contains("cargo run --release -p sudoku-lab -- reproduce reseda-table2 --quick"));
    assert!(!page.contains("class=\"missing\""));
    assert!(live_markup(&page).is_empty(), "{:?}", live_markup(&page));
    // Agreement at a glance: the counts, the paper against ours coloured with p-values, the
    // comparison table with the verdict first and its filters, the findings pages.
    assert!(page.contains("Published cells:") && page.contains("id=\"paper-vs-ours\""));
    assert!(page.contains("<td class=\"verdict v-") && page.contains("title=\"no significant"));
    assert!(
        page.contains("<th title=\"verdict\">verdict</th>"),
        "verdict column first"
    );
    assert!(page.contains("<form class=\"vfilter\"") && page.contains("id=\"verdict-filter\""));
    assert!(index.contains("href=\"findings.html\"") && index.contains("verdict v-"));
    let findings = std::fs::read_to_string(site.join("findings.md")).unwrap();
    assert!(
        findings.contains("### reseda-table2: RESEDA Table 2"),
        "{findings}"
    );
    assert!(findings
        .contains("| Reading | Cells tested | No significant difference | of which low power |"));
    let summary = std::fs::read_to_string(site.join("findings-summary.md")).unwrap();
    assert!(summary.contains("[reseda-table2]("), "{summary}");
    assert!(site.join("findings.html").is_file());
    assert!(check_links(&site) > 10);

    // Default --out: docs/ beside the results folder.
    ok(bin().args(["report", "--results"]).arg(&res));
    assert!(res
        .parent()
        .unwrap()
        .join("docs/reseda-table2.html")
        .is_file());

    // In a real browser.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/check-report.sh");
    let has_chromium = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .any(|c| {
            std::process::Command::new("sh")
                .args(["-c", &format!("command -v {c}")])
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false)
        });
    if !has_chromium {
        println!("skipped: chromium not installed");
        return;
    }
    let shots = res.parent().unwrap().join("shots");
    let o = std::process::Command::new("bash")
        .arg(&script)
        .arg(&site)
        .env("SCREENSHOT_DIR", &shots)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    assert!(out.contains("all pages passed"), "{out}");
    assert!(std::fs::metadata(shots.join("index.png")).unwrap().len() > 1000);
}

#[test]
fn a_missing_image_or_broken_page_fails() {
    let res = quick_results("site-missing");
    let dir = res.join("reseda-table2");
    let mut md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    md.push_str("\n![gone](gone.png)\n");
    std::fs::write(dir.join("report.md"), md).unwrap();
    let site = res.parent().unwrap().join("site");
    let o = run(bin()
        .args(["report", "--results"])
        .arg(&res)
        .arg("--out")
        .arg(&site));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("gone.png"), "{}", stderr(&o));

    // The browser check catches a broken link too.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/check-report.sh");
    let chromium = std::process::Command::new("sh")
        .args(["-c", "command -v chromium"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !chromium {
        println!("skipped: chromium not installed");
        return;
    }
    std::fs::write(
        site.join("extra.html"),
        "<!DOCTYPE html><html><body><p>x</p><a href=\"nowhere.html\">x</a><img src=\"no.png\"><a href=\"#nope\">y</a><script>undefinedFn()</script></body></html>",
    )
    .unwrap();
    let o = std::process::Command::new("bash")
        .arg(&script)
        .arg(&site)
        .env("SCREENSHOT_DIR", res.parent().unwrap().join("shots"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    for what in ["nowhere.html", "no.png", "#nope", "undefinedFn", "missing"] {
        assert!(out.contains(what), "{what} not reported:\n{out}");
    }
}

/// The committed site (`docs/`) is what `report` writes for the committed `results/`: a result
/// regenerated without `sudoku-lab report` afterwards fails here. The pages are compared after
/// the relative path to the results folder (which depends on where the site is written) is
/// replaced by a placeholder.
#[test]
fn committed_site_is_current() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let docs = repo.join("docs");
    let out = tmpdir("site-current").join("docs");
    ok(bin()
        .current_dir(&repo)
        .args(["report", "--results", "results", "--out"])
        .arg(&out));
    // The prefix each site uses for results/: taken from the folder link of one page.
    let prefix = |page: &str| -> String {
        let marker = "results/reseda-table1/\"><code>";
        let at = page.find(marker).expect("folder link");
        let start = page[..at].rfind("href=\"").unwrap() + 6;
        page[start..at].to_string() + "results/"
    };
    // The files `report` writes: the pages and the findings (docs/ holds other Markdown too).
    let written = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| {
                n.ends_with(".html")
                    || n.starts_with("findings")
                    || n == "readings-summary.md"
                    || n == "performance.md"
            })
            .collect();
        v.sort();
        v
    };
    let names = written(&docs);
    let fresh = written(&out);
    assert_eq!(names, fresh, "docs/ has other pages than `report` writes");
    assert!(names.contains(&"findings.md".to_string()));
    // docs/performance.md is written from the benchmark records beside results/.
    assert!(names.contains(&"performance.md".to_string()));
    let committed_prefix =
        prefix(&std::fs::read_to_string(docs.join("reseda-table1.html")).unwrap());
    let fresh_prefix = prefix(&std::fs::read_to_string(out.join("reseda-table1.html")).unwrap());
    // The summary's links to docs/experiments.md and docs/bibliography.md go from the output
    // folder to docs/ (none in the committed site, which is docs/).
    let fresh_docs = fresh_prefix.replace("results/", "docs/");
    for name in &names {
        let a = std::fs::read_to_string(docs.join(name)).unwrap();
        let mut b = std::fs::read_to_string(out.join(name)).unwrap();
        if name == "findings-summary.md" {
            b = b.replace(&fresh_docs, "");
        }
        // performance.md links to results-bench/, beside results/.
        if name == "performance.md" {
            let bench = |p: &str| p.trim_end_matches("results/").to_string() + "results-bench/";
            let fresh = b.replace(&bench(&fresh_prefix), "BENCH/");
            assert!(
                a.replace(&bench(&committed_prefix), "BENCH/") == fresh,
                "docs/performance.md is stale: run `sudoku-lab report` and commit docs/"
            );
            continue;
        }
        // The rendered docs/*.md: their links to the repository's files go from the output
        // folder (`../` from docs/), those to the site's pages stay on the site.
        let stem = name.trim_end_matches(".html");
        if name.ends_with(".html") && docs.join(format!("{stem}.md")).is_file() {
            let root = |p: &str| p.trim_end_matches("results/").to_string();
            let rebase = |t: &str, r: &str| {
                t.replace(&format!("href=\"{r}"), "href=\"ROOT/")
                    .replace(&format!("src=\"{r}"), "src=\"ROOT/")
            };
            assert!(
                rebase(&a, &root(&committed_prefix)) == rebase(&b, &root(&fresh_prefix)),
                "docs/{name} is stale: run `sudoku-lab report`"
            );
            continue;
        }
        assert!(
            a.replace(&committed_prefix, "RESULTS/") == b.replace(&fresh_prefix, "RESULTS/"),
            "docs/{name} is stale: run `sudoku-lab report` and commit docs/"
        );
    }
}

/// The site written away from docs/ (`report --out` elsewhere) has no broken link: every
/// `href` and `src` of every page leads to a file or folder that exists, every `#id` of a page
/// to an element of it; the hand-written docs are pages of the site, and the "why" page leads
/// to the site's pages (the experiments' and the docs'), not to Markdown files.
#[test]
fn a_site_written_elsewhere_has_no_broken_link() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let out = tmpdir("site-elsewhere").join("somewhere/else");
    ok(bin()
        .current_dir(&repo)
        .args(["report", "--results", "results", "--out"])
        .arg(&out));
    assert!(check_links(&out) > 1000);
    for doc in [
        "experiments",
        "guide",
        "readings",
        "reliability",
        "performance",
    ] {
        assert!(out.join(format!("{doc}.html")).is_file(), "{doc}.html");
    }
    let why = std::fs::read_to_string(out.join("experiments.html")).unwrap();
    let md_links: Vec<String> = refs(&why)
        .into_iter()
        .filter(|r| r.split('#').next().unwrap().ends_with(".md"))
        .collect();
    // Only the published tables' own checks, which have no page of their own, stay a file.
    assert!(
        md_links.iter().all(|r| r.contains("results/table-checks/")),
        "{md_links:?}"
    );
    assert!(why.contains("href=\"guide.html#generating-puzzles\""));
    assert!(why.contains("href=\"reseda-table1.html\""));
    assert!(why.contains("<img src=\"") && !why.contains("missing image"));
    // The index fits a wide window (the table as wide as the page, its cells wrapped) and
    // reads in a narrow one: each experiment a card whose facts are labelled with units.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    for label in ["Status", "Runs", "Wall time", "Protocol"] {
        assert!(
            index.contains(&format!("data-label=\"{label}\"")),
            "{label}"
        );
    }
    assert!(
        index.contains("data-label=\"Wall time\">11.8 s</td>"),
        "wall time in s"
    );
    let css = std::fs::read_to_string(out.join("site.css")).unwrap();
    assert!(css.contains("table.index { width: 100%; }"));
    assert!(css.contains("@media (max-width: 1000px)") && css.contains("attr(data-label)"));
}

/// The committed site answers per paper and column: every relative link of it resolves
/// (pages, results files, anchors of pages), the index counts Ret-GA Table 1 per column and
/// names its papers without internal references, every experiment page opens with its outcome
/// and links to its "why" (a section of the rendered docs/experiments.md) and its paper to
/// the rendered bibliography, and the benchmark page opens with its ranking and a contents.
#[test]
fn the_committed_site_answers_per_paper_and_column() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    assert!(check_links(&docs) > 100);
    let read = |n: &str| std::fs::read_to_string(docs.join(n)).unwrap();
    let index = read("index.html");
    assert!(index.contains("<strong>literal</strong>") && index.contains("<strong>mk-ga</strong>"));
    assert!(
        !index.contains("issue "),
        "an internal reference on the index"
    );
    assert!(index.contains("href=\"bibliography.html#das-conference\""));
    for e in std::fs::read_dir(docs.join("../results"))
        .unwrap()
        .flatten()
    {
        let folder = e.file_name().to_string_lossy().into_owned();
        if !e.path().join("meta.json").is_file() {
            continue;
        }
        let page = read(&format!("{folder}.html"));
        let main = &page[page.find("<main>").unwrap()..];
        assert!(
            main.trim_start_matches("<main>")
                .trim_start()
                .starts_with("<p class=\"outcome\">"),
            "{folder}.html does not open with its outcome"
        );
        if folder != "external-demo" {
            assert!(
                page.contains(&format!("href=\"experiments.html#why-{folder}\"")),
                "{folder}.html: no link to its why"
            );
        }
    }
    let bench = read("benchmark-9x9.html");
    assert!(bench.contains("class=\"headline\"") && bench.contains("class=\"toc\""));
    assert!(read("experiments.html").contains("<a id=\"why-ret-ga-table1\"></a>"));
}

/// The tags of a page that would be live: a script other than the verdict filters, an
/// embedded document or inline SVG, an `on...` event attribute, a `javascript:`, `data:` or
/// `vbscript:` URL. Text the page shows (escaped) is not markup and is not looked at.
fn live_markup(html: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        let Some(end) = tag_end(after) else { break };
        let tag = &after[..end];
        rest = &after[end..];
        let lower = tag.to_ascii_lowercase();
        let name: String = lower
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
            .collect();
        let attrs = attributes(&tag[name.len().min(tag.len())..]);
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        // Ours: the verdict filter, and the site's stylesheet (written from a constant).
        let ours = (name == "script" && attrs == [pair("id", "verdict-filter")])
            || (name == "link" && attrs == [pair("rel", "stylesheet"), pair("href", "site.css")]);
        if [
            "script", "iframe", "object", "embed", "svg", "base", "frame", "link",
        ]
        .contains(&name.as_str())
            && !ours
        {
            bad.push(tag.to_string());
        }
        for (k, v) in attrs {
            let v: String = v
                .chars()
                .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
                .collect::<String>()
                .to_ascii_lowercase();
            let url_attr = [
                "href",
                "src",
                "action",
                "formaction",
                "xlink:href",
                "srcset",
            ];
            let bad_url = ["javascript:", "data:", "vbscript:"]
                .iter()
                .any(|x| v.starts_with(x));
            if k.starts_with("on") || (url_attr.contains(&k.as_str()) && bad_url) {
                bad.push(tag.to_string());
            }
        }
    }
    bad
}

/// The end of a tag that starts at `s` (after its `<`): its `>` outside quotes.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The attributes of a tag's text after its name: (lower-case name, value).
fn attributes(s: &str) -> Vec<(String, String)> {
    let mut v = Vec::new();
    let mut chars = s.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == '/') {
            chars.next();
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' || c == '/' {
                break;
            }
            name.push(c.to_ascii_lowercase());
            chars.next();
        }
        if name.is_empty() {
            return v;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'=') {
            chars.next();
            match chars.peek().copied() {
                Some(q @ ('"' | '\'')) => {
                    chars.next();
                    for c in chars.by_ref() {
                        if c == q {
                            break;
                        }
                        value.push(c);
                    }
                }
                _ => {
                    while let Some(&c) = chars.peek() {
                        if c.is_whitespace() {
                            break;
                        }
                        value.push(c);
                        chars.next();
                    }
                }
            }
        }
        v.push((name, value));
    }
}

/// A results folder written by an attacker: markup, event handlers and `javascript:` links in
/// report.md, meta.json and comparison.csv, a scripted SVG chart, symlinks to files outside.
fn hostile_results(root: &Path) -> PathBuf {
    let res = root.join("results");
    let dir = res.join("evil");
    std::fs::create_dir_all(&dir).unwrap();
    let x = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    let meta = format!(
        "{{\"status\":\"complete\",\"spec\":{{\"id\":\"evil\",\"title\":{t},\"paper\":{t},\
         \"algorithms\":[{{\"label\":{t},\"algorithm\":{t},\"params\":{{\"k\":{t}}}}}]}},\
         \"settings\":{{\"quick\":false}},\"machine\":{t}}}",
        t = json_str(x)
    );
    std::fs::write(dir.join("meta.json"), meta).unwrap();
    let md = format!(
        "# Evil {x}\n\n<div onload=\"alert(3)\">block</div>\n\n<svg onload=alert(4)></svg>\n\n\
         [a](javascript:alert(5)) [b]( JaVaScRiPt:alert(6)) [c](java\tscript:alert(7)) \
         [d](data:text/html,<script>alert(8)</script>) [e](vbscript:x) [f](//evil.example/x) \
         <javascript:alert(9)> [ok](summary.csv)\n\n![chart](chart.png) ![s](stolen.svg) \
         ![r](https://evil.example/x.png) ![j](javascript:alert(10)) ![p](../../etc/passwd)\n\n\
         | a | verdict |\n|---|---|\n| <b onmouseover=alert(11)>x</b> | differs (ours higher) |\n"
    );
    std::fs::write(dir.join("report.md"), md).unwrap();
    std::fs::write(
        dir.join("chart.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(12)\"><script>alert(13)</script></svg>",
    )
    .unwrap();
    std::fs::write(
        dir.join("comparison.csv"),
        format!(
            "experiment,family,level,puzzle,algorithm,statistic,paper,paper_runs,ours,our_runs,test,p_value,p_holm,power_2x,verdict\n\
             evil,primary,\"{x}\",p,\"{x}\",count,5,10,9,10,fisher_exact,0.01,0.02,0.9,differs (ours higher)\n\
             evil,primary,l,p,a,\"{x}\",5,10,9,10,\"{x}\",0.5,0.5,0.2,\"{x}\"\n"
        ),
    )
    .unwrap();
    let secret = root.join("secret.txt");
    std::fs::write(&secret, "SECRET-CONTENT root:x:0:0").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, dir.join("stolen.svg")).unwrap();
        std::os::unix::fs::symlink(&secret, dir.join("linked.csv")).unwrap();
        std::os::unix::fs::symlink(&dir, res.join("linked-folder")).unwrap();
    }
    res
}

/// `s` as a JSON string literal.
fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Issue 21, item 7: nothing of a hostile results folder comes out live in the site, no
/// symlinked file is shown or linked, and the findings escape its text.
#[test]
fn a_hostile_results_folder_comes_out_inert() {
    let root = tmpdir("site-hostile");
    let res = hostile_results(&root);
    let site = root.join("site");
    let o = run(bin()
        .args(["report", "--results"])
        .arg(&res)
        .arg("--out")
        .arg(&site));
    // Exit 1: the report's images that are not regular files of the folder are missing.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("a symlink, skipped"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("image stolen.svg not found"),
        "{}",
        stderr(&o)
    );
    let mut pages = 0;
    for e in std::fs::read_dir(&site).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(!text.contains("SECRET-CONTENT"), "{}", p.display());
        assert!(
            !text.contains("stolen.svg\""),
            "{}: symlink linked",
            p.display()
        );
        assert!(
            !text.contains("linked.csv\""),
            "{}: symlink linked",
            p.display()
        );
        if p.extension().is_some_and(|x| x == "html") {
            let live = live_markup(&text);
            assert!(live.is_empty(), "{}: live markup {live:?}", p.display());
            pages += 1;
        } else {
            assert!(
                !text.contains("<script") && !text.contains("<img"),
                "{}",
                p.display()
            );
        }
    }
    assert_eq!(pages, 3, "index, findings and one experiment page");
    let page = std::fs::read_to_string(site.join("evil.html")).unwrap();
    // Shown as text, not dropped: a reader sees what the folder holds.
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{page}"
    );
    assert!(page.contains("(unsafe link removed)"));
    assert!(
        page.contains("href=\"../results/evil/summary.csv\""),
        "relative link kept"
    );
    // The chart is an image (its script cannot run), with the site's caption.
    assert!(page.contains("<img class=\"chart\" src=\"../results/evil/chart.svg\""));
    assert!(page.contains("class=\"missing\">missing image: ../../etc/passwd"));
    assert!(!page.contains("src=\"https://evil.example"));
    // The checker of the layout test sees the markup it must catch.
    assert_eq!(live_markup("<p title=\"onclick=x\">a</p>").len(), 0);
    assert_eq!(live_markup("<a href=\" javascript:x\">a</a>").len(), 1);
    assert_eq!(live_markup("<img src=x onerror=y>").len(), 1);
    assert_eq!(live_markup("<script>x</script>").len(), 1);
}

/// A malformed comparison.csv is refused with its file and line, before anything is written.
#[test]
fn a_malformed_comparison_file_is_named_with_its_line() {
    let root = tmpdir("site-malformed");
    let res = hostile_results(&root);
    std::fs::write(
        res.join("evil/comparison.csv"),
        "experiment,algorithm,verdict\nevil,a,differs\nevil,b\n",
    )
    .unwrap();
    let site = root.join("site");
    let o = run(bin()
        .args(["report", "--results"])
        .arg(&res)
        .arg("--out")
        .arg(&site));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("comparison.csv: line 3"),
        "{}",
        stderr(&o)
    );
    assert!(!site.join("index.html").exists(), "nothing written");
}

/// A folder made with `--runs N` (a reduced protocol) says so, and its commands repeat the flag:
/// `--resume` refuses a folder whose settings differ, so a command without it would fail.
#[test]
fn a_reduced_protocol_is_labelled_and_its_commands_repeat_runs() {
    let root = tmpdir("site-reduced");
    let results = root.join("results");
    ok(bin()
        .args(["reproduce", "reseda-table2", "--runs", "2", "--out"])
        .arg(results.join("reseda-table2")));
    let site = root.join("site");
    ok(bin()
        .args(["report", "--results"])
        .arg(&results)
        .arg("--out")
        .arg(&site));
    let page = std::fs::read_to_string(site.join("reseda-table2.html")).unwrap();
    assert!(page.contains("reduced: --runs 2"), "badge");
    assert!(
        page.contains("reproduce reseda-table2 --runs 2 --resume"),
        "command"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("reduced: --runs 2"));
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let full = std::fs::read_to_string(docs.join("reseda-table1.html")).unwrap();
    assert!(full.contains("reproduce reseda-table1 --resume"));
    // From scratch, a committed folder is not the target (reproduce would refuse it).
    assert!(full.contains("reproduce reseda-table1 --out my-results/reseda-table1<"));
}

/// `report` writes the findings summary into the README's marked block when the block is
/// empty or one it wrote, and never over text written by hand between the markers.
#[test]
fn the_readme_block_is_written_only_when_it_is_generated() {
    let root = tmpdir("site-readme");
    let res = hostile_results(&root);
    let readme = root.join("README.md");
    let by_hand = "# R\n\n<!-- findings-summary -->\nprose by hand\n<!-- /findings-summary -->\n";
    std::fs::write(&readme, by_hand).unwrap();
    let o = run(bin().args(["report", "--results"]).arg(&res));
    assert!(stderr(&o).contains("left as it is"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&readme).unwrap(), by_hand);

    std::fs::write(
        &readme,
        "# R\n\n<!-- findings-summary -->\n<!-- /findings-summary -->\nafter\n",
    )
    .unwrap();
    run(bin().args(["report", "--results"]).arg(&res));
    let text = std::fs::read_to_string(&readme).unwrap();
    let summary = std::fs::read_to_string(root.join("docs/findings-summary.md")).unwrap();
    // The README's block is the summary with its links from the README's folder.
    let rebased = summary.replace("](findings.md", "](docs/findings.md");
    assert!(text.contains(&rebased), "{text}");
    assert!(text.contains("(docs/findings.md#evil)") && text.ends_with("-->\nafter\n"));
    // Regenerating again changes nothing.
    run(bin().args(["report", "--results"]).arg(&res));
    assert_eq!(std::fs::read_to_string(&readme).unwrap(), text);
}

/// `report` writes performance.md from the benchmark records beside the results folder (the
/// committed ones, copied), and refuses a malformed record with one line naming its file and
/// line, exit 2, the committed page left as it was.
#[test]
fn report_writes_performance_md_from_the_bench_records_and_refuses_a_bad_one() {
    let res = quick_results("perf");
    let root = res.parent().unwrap().to_path_buf();
    let bench = root.join("results-bench");
    std::fs::create_dir_all(&bench).unwrap();
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results-bench");
    for e in std::fs::read_dir(&committed).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), bench.join(e.file_name())).unwrap();
        }
    }
    ok(bin()
        .current_dir(&root)
        .args(["report", "--results", "results"]));
    let page = root.join("docs/performance.md");
    let md = std::fs::read_to_string(&page).unwrap();
    assert!(md.starts_with("# Performance\n"), "{md}");
    assert!(md.contains("[suite.md](../results-bench/suite.md)"), "{md}");

    let csv = bench.join("callgrind-kernels.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[1] = lines[1].replacen(",false", ",maybe,extra", 1);
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    let o = run(bin()
        .current_dir(&root)
        .args(["report", "--results", "results"]));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("callgrind-kernels.csv:2: 12 fields"), "{err}");
    assert_eq!(std::fs::read_to_string(&page).unwrap(), md);
}

/// The site is written through the protocol's one atomic write (`protocol::io`): a page name
/// that is a symbolic link is refused, naming it, and the file it points to is left as it was
/// (before, the site's own copy replaced the link without a word).
#[cfg(unix)]
#[test]
fn a_page_that_is_a_link_is_refused_and_its_target_left_alone() {
    let res = quick_results("site-link");
    let site = res.parent().unwrap().join("site");
    std::fs::create_dir_all(&site).unwrap();
    let elsewhere = res.parent().unwrap().join("elsewhere.html");
    std::fs::write(&elsewhere, "mine").unwrap();
    std::os::unix::fs::symlink(&elsewhere, site.join("index.html")).unwrap();
    let o = run(bin()
        .args(["report", "--results"])
        .arg(&res)
        .arg("--out")
        .arg(&site));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("index.html") && err.contains("symbolic link"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "mine");
    assert!(std::fs::symlink_metadata(site.join("index.html"))
        .unwrap()
        .is_symlink());
}

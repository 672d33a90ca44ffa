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
            if !frag.is_empty() {
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
    assert!(page.contains("<svg class=\"chart\""), "no inline chart");
    assert!(page.contains("href=\"../results/reseda-table2/summary.csv\""));
    assert!(page.contains("href=\"../results/reseda-table2/runs.csv\""));
    // meta.json facts, the options with the crate's words, the command.
    assert!(page.contains("Master seed") && page.contains("Git revision"));
    assert!(page.contains("Quick run"));
    assert!(page.contains("id=\"algo-reseda\"") && page.contains("<code>alpha = "));
    assert!(page.contains("ResedaConfig::alpha"), "crate doc table row");
    assert!(page.contains("cargo run --release -p sudoku-lab -- reproduce reseda-table2 --quick"));
    assert!(!page.contains("class=\"missing\""));
    assert!(!page.contains("<script"));
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
    // docs/ also holds the hand-written documentation (*.md): only the pages are the site's.
    let mut names: Vec<String> = std::fs::read_dir(&docs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".md"))
        .collect();
    names.sort();
    let mut fresh: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    fresh.sort();
    assert_eq!(names, fresh, "docs/ has other pages than `report` writes");
    let committed_prefix =
        prefix(&std::fs::read_to_string(docs.join("reseda-table1.html")).unwrap());
    let fresh_prefix = prefix(&std::fs::read_to_string(out.join("reseda-table1.html")).unwrap());
    for name in &names {
        let a = std::fs::read_to_string(docs.join(name)).unwrap();
        let b = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(
            a.replace(&committed_prefix, "RESULTS/") == b.replace(&fresh_prefix, "RESULTS/"),
            "docs/{name} is stale: run `sudoku-lab report` and commit docs/"
        );
    }
}

/// A folder made with `--runs N` (a reduced protocol) says so, and its commands repeat the flag:
/// `--resume` refuses a folder whose settings differ, so a command without it would fail.
#[test]
fn a_reduced_protocol_is_labelled_and_its_commands_repeat_runs() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let page = std::fs::read_to_string(docs.join("ret-ga-tables234.html")).unwrap();
    assert!(page.contains("reduced: --runs 10"), "badge");
    assert!(
        page.contains("reproduce ret-ga-tables234 --runs 10 --resume"),
        "command"
    );
    let index = std::fs::read_to_string(docs.join("index.html")).unwrap();
    assert!(index.contains("reduced: --runs 10"));
    let full = std::fs::read_to_string(docs.join("reseda-table1.html")).unwrap();
    assert!(full.contains("reproduce reseda-table1 --resume"));
}

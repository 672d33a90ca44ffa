//! The committed charts read at a glance: every configuration of an ablation's success chart
//! keeps its label on the x axis (none thinned out), and RESEDA's Figure 4.2 has its key and
//! marks the cells whose grade differs from the paper's (as many as grades.csv says).

use std::path::{Path, PathBuf};

fn results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results")
}

/// The text of every `<text>` element of an SVG, entities decoded.
fn texts(svg: &str) -> Vec<String> {
    let mut v = Vec::new();
    for part in svg.split("<text").skip(1) {
        let Some(start) = part.find('>') else {
            continue;
        };
        let Some(end) = part.find("</text>") else {
            continue;
        };
        let t = part[start + 1..end].trim();
        v.push(
            t.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&"),
        );
    }
    v
}

#[test]
fn every_configuration_of_an_ablation_chart_is_labelled() {
    let mut checked = 0;
    for e in std::fs::read_dir(results()).unwrap().flatten() {
        let meta = e.path().join("meta.json");
        let svg = e.path().join("success.svg");
        if !meta.is_file() || !svg.is_file() {
            continue;
        }
        let m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&meta).unwrap()).unwrap();
        if m["spec"]["chart"].as_str() != Some("success-by-variant") {
            continue;
        }
        let shown = texts(&std::fs::read_to_string(&svg).unwrap());
        for a in m["spec"]["algorithms"].as_array().unwrap() {
            let label = a["label"].as_str().unwrap();
            assert!(
                shown.iter().any(|t| t == label),
                "{}: configuration {label} has no label",
                svg.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 5, "{checked} charts checked");
}

#[test]
fn figure_4_2_has_a_key_and_marks_the_cells_that_differ() {
    let dir = results().join("reseda-fig4");
    let svg = std::fs::read_to_string(dir.join("fig4.svg")).unwrap();
    let shown = texts(&svg);
    for key in ["A: right in every run", "B: right in at least 90 %"] {
        assert!(shown.iter().any(|t| t == key), "no key {key}");
    }
    let grades = std::fs::read_to_string(dir.join("grades.csv")).unwrap();
    let differ = grades.lines().filter(|l| l.ends_with(",false")).count();
    assert!(differ > 0);
    assert!(
        shown
            .iter()
            .any(|t| t == &format!("grade differs from the paper ({differ} cells)")),
        "{shown:?}"
    );
    // Each differing cell is outlined in red on both grids, and so is the key's swatch.
    let red = svg.matches("stroke=\"#FF0000\"").count();
    assert_eq!(red, 2 * differ + 1, "red outlines");
}

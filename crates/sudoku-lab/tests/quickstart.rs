//! The quick start of docs/external-solvers.md works as written: its spec and its Python solver
//! (the first ```toml and ```python blocks of the page) are copied into a folder and run through
//! `sudoku-lab run`; every run of the external solver must solve its puzzle. Skipped (saying so)
//! where python3 is missing; CI has it.

mod common;
use common::{bin, ok, tmpdir};
use std::path::Path;

/// The first fenced block of `lang` in `md`.
fn block<'a>(md: &'a str, lang: &str) -> &'a str {
    let open = format!("```{lang}\n");
    let start = md.find(&open).expect("a block") + open.len();
    let end = start + md[start..].find("```").expect("a closed block");
    &md[start..end]
}

fn have_python() -> bool {
    std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_quick_start_of_the_external_solvers_page_runs_and_solves() {
    if !have_python() {
        eprintln!("skipped: no python3");
        return;
    }
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/external-solvers.md");
    let md = std::fs::read_to_string(page).unwrap();
    let quick = &md[..md
        .find("## In a spec")
        .expect("the quick start comes first")];
    let d = tmpdir("quickstart");
    std::fs::write(d.join("spec.toml"), block(quick, "toml")).unwrap();
    std::fs::write(d.join("solver.py"), block(quick, "python")).unwrap();
    ok(bin()
        .current_dir(&d)
        .args(["run", "spec.toml", "--out", "my-results"]));
    let runs = std::fs::read_to_string(d.join("my-results/runs.csv")).unwrap();
    let head: Vec<&str> = runs.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let (algo, solved) = (col("algorithm"), col("solved"));
    let ours: Vec<Vec<&str>> = (runs.lines().skip(1))
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[algo] == "backtrack")
        .collect();
    assert!(ours.len() >= 10, "{runs}");
    assert!(ours.iter().all(|f| f[solved] == "1"), "{runs}");
}

//! `sudoku-lab new-solver` and the template crate it copies (crates/hill-climb): a crate
//! written for another name differs from the committed one in the names alone, bad names are
//! refused with one line and nothing written, and the template's solver runs in a spec.

mod common;
use common::{bin, ok, run, stderr, tmpdir};

use std::path::Path;

fn committed() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../hill-climb")
}

const FILES: [&str; 4] = ["Cargo.toml", "src/lib.rs", "src/ops.rs", "src/tests.rs"];

#[test]
fn a_crate_for_another_name_differs_only_in_the_names() {
    let d = tmpdir("new-solver");
    let out = ok(bin().args(["new-solver", "tabu-demo", "--dir"]).arg(&d));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("    tabu_demo::ALGORITHM,\n"), "{stdout}");
    let dep = format!(
        "    tabu-demo = {{ path = \"{}\" }}\n",
        d.canonicalize().unwrap().join("tabu-demo").display()
    );
    assert!(stdout.contains(&dep), "{stdout}");
    // The checklist of what to change in the copy, the solver named as it is now.
    assert!(stdout.contains("Then change, in the new crate"), "{stdout}");
    assert!(
        stdout.contains("[ ] src/ops.rs and TabuDemoSolver::solve"),
        "{stdout}"
    );
    assert!(stdout.contains("solve --algo tabu-demo"), "{stdout}");
    let mut entries: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert_eq!(entries, ["tabu-demo"], "no staging folder left");
    for f in FILES {
        let want = std::fs::read_to_string(committed().join(f)).unwrap();
        let got = std::fs::read_to_string(d.join("tabu-demo").join(f)).unwrap();
        for old in ["hill-climb", "hill_climb", "HillClimb"] {
            assert!(!got.contains(old), "{f}: {old} left");
        }
        let back = got
            .replace("tabu-demo", "hill-climb")
            .replace("tabu_demo", "hill_climb")
            .replace("TabuDemo", "HillClimb");
        assert_eq!(back, want, "{f}: differs in more than the names");
    }
    let cargo = std::fs::read_to_string(d.join("tabu-demo/Cargo.toml")).unwrap();
    assert!(cargo.contains("name = \"tabu-demo\""), "{cargo}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_or_taken_names_are_refused_with_nothing_written() {
    let d = tmpdir("new-solver-bad");
    std::fs::create_dir(d.join("taken")).unwrap();
    let cases: &[(&str, &str)] = &[
        ("Tabu", "is not a valid name"),
        ("tabu_demo", "is not a valid name"),
        ("../escape", "is not a valid name"),
        ("", "is not a valid name"),
        ("lewis-sa", "already a registered algorithm"),
        ("hill-climb", "already a registered algorithm"),
        ("rand", "is reserved"),
        ("taken", "already exists"),
    ];
    for (name, want) in cases {
        let o = run(bin().args(["new-solver", name, "--dir"]).arg(&d));
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {e}");
        assert_eq!(e.lines().count(), 1, "{name}: {e}");
        assert!(e.contains(want), "{name}: {e}");
    }
    let o = run(bin()
        .args(["new-solver", "fine", "--dir"])
        .arg(d.join("missing")));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a folder"), "{}", stderr(&o));
    let entries: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
    assert_eq!(entries.len(), 1, "only the folder made by the test");
    assert_eq!(std::fs::read_dir(d.join("taken")).unwrap().count(), 0);
    std::fs::remove_dir_all(&d).unwrap();
}

/// The template's solver is registered: a spec runs it beside a built-in solver, its runs
/// solve with valid grids, and its counters reach runs.csv.
#[test]
fn the_template_solver_runs_in_a_spec() {
    let d = tmpdir("hill-climb-spec");
    let spec = r#"
id = "hill-try"
title = "hill-climb beside Lewis's SA"
master_seed = 3
runs = 3
quick_runs = 2
quick_max_generations = 30
puzzles = [{ id = "mk_easy" }, { id = "reseda_easy" }]

[[algorithms]]
label = "hill-climb"
algorithm = "hill-climb"
max_generations = 100000
max_evaluations = 200000

[[algorithms]]
label = "hill-strict"
algorithm = "hill-climb"
max_generations = 100000
max_evaluations = 200000
params = { acceptance = "improving", patience = 300 }
"#;
    std::fs::write(d.join("spec.toml"), spec).unwrap();
    ok(bin()
        .args(["run"])
        .arg(d.join("spec.toml"))
        .args(["--threads", "2", "--out"])
        .arg(d.join("out")));
    let runs = std::fs::read_to_string(d.join("out/runs.csv")).unwrap();
    let rows: Vec<&str> = runs.lines().skip(1).collect();
    assert_eq!(rows.len(), 2 * 2 * 3, "{runs}");
    let fields = |r: &&str| r.split(',').map(str::to_string).collect::<Vec<_>>();
    let solved = rows
        .iter()
        .map(fields)
        .filter(|f| f[1] == "hill-climb" && f[5] == "1")
        .count();
    assert!(solved >= 4, "{runs}");
    assert!(runs.contains("accepted_moves"), "{runs}");
    std::fs::remove_dir_all(&d).unwrap();
}

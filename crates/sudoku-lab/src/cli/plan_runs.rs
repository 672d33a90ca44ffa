//! `sudoku-lab plan-runs`: the runs per puzzle a comparison needs, from a pilot's runs.csv,
//! with the method of the compare report's "Runs needed"
//! ([`crate::reports::compare::runs_needed`]) over all the pilot's puzzles as one scope.

use super::args::PlanRunsArgs;
use crate::protocol::io::for_each_row;
use crate::reports::compare::data::{Data, Run};
use crate::reports::compare::runs_needed::{self, Effect};
use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;

pub fn plan_runs(a: &PlanRunsArgs) -> Result<ExitCode> {
    let effect = Effect {
        ert_ratio: a.ert_ratio,
        success_difference: a.success_difference,
        power: a.power,
        alpha: a.alpha,
    };
    effect.check()?;
    if a.budget == Some(0) {
        bail!("--budget must be at least 1");
    }
    let path = if a.pilot.is_dir() {
        a.pilot.join("runs.csv")
    } else {
        a.pilot.to_path_buf()
    };
    let data = load(&path, a.budget, a.by_puzzle)?;
    if data.algorithms.len() < 2 {
        bail!(
            "{}: runs of {} algorithm(s); a comparison needs at least two",
            path.display(),
            data.algorithms.len()
        );
    }
    let needed = runs_needed::compute(&data, &effect)?;
    let table = runs_needed::table(&data, &needed, &effect);
    if let Some(out) = &a.csv {
        let bytes = crate::reports::compare::report::table_csv(&table)?;
        crate::protocol::io::write_atomic(out, &bytes)?;
    }
    println!(
        "{}",
        sudoku_core::error::shown_lines(&format!(
            "Pilot: {} ({} algorithms, {} puzzles, {} runs). {}\n",
            path.display(),
            data.algorithms.len(),
            data.puzzles.len(),
            data.runs.len(),
            runs_needed::method(&effect, &data)
        ))
    );
    let md = runs_needed::markdown(&data, &needed, &effect);
    // The report's section without its heading and method paragraph.
    let body = md.find("\n| A |").map_or(md.as_str(), |i| &md[i + 1..]);
    print!("{}", sudoku_core::error::shown_lines(body));
    if a.by_puzzle {
        print!(
            "{}",
            sudoku_core::error::shown_lines(&by_puzzle(&data, &needed))
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Per pair, the median and the largest answer over the puzzles (each puzzle a scope).
fn by_puzzle(data: &Data, needed: &[runs_needed::Needed]) -> String {
    use std::fmt::Write as _;
    let mut md = String::from(
        "\nEach puzzle on its own (runs per puzzle: median / largest over the puzzles; '-': no answer on any puzzle, n of m: answers on n of the m puzzles):\n\n| A | B | Success | ERT |\n|---|---|---|---|\n",
    );
    let k = data.algorithms.len();
    let cell = |values: Vec<Option<u64>>| -> String {
        let m = values.len();
        let mut v: Vec<u64> = values.into_iter().flatten().collect();
        v.sort_unstable();
        match v.len() {
            0 => "-".into(),
            n => {
                let median = if n % 2 == 1 {
                    v[n / 2] as f64
                } else {
                    (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0
                };
                let of = if n < m {
                    format!(" ({n} of {m})")
                } else {
                    String::new()
                };
                format!("{median} / {}{of}", v[n - 1])
            }
        }
    };
    for a in 0..k {
        for b in a + 1..k {
            let rows = needed
                .iter()
                .filter(|n| n.a == a && n.b == b && n.scope < data.scopes.len());
            let success = cell(rows.clone().map(|n| n.runs_success).collect());
            let ert = cell(rows.map(|n| n.runs_ert).collect());
            let _ = writeln!(
                md,
                "| {} | {} | {success} | {ert} |",
                data.algorithms[a], data.algorithms[b]
            );
        }
    }
    md
}

/// The pilot's runs, every puzzle in one scope (and each in a scope of its own with
/// `by_puzzle`); the budget is `budget` or the most evaluations any run spent.
fn load(path: &Path, budget: Option<u64>, by_puzzle: bool) -> Result<Data> {
    let mut data = Data::default();
    let mut cpu_everywhere = true;
    for_each_row(path, |r| {
        let index = |names: &mut Vec<String>, name: &str| {
            names.iter().position(|x| x == name).unwrap_or_else(|| {
                names.push(name.to_string());
                names.len() - 1
            })
        };
        let algorithm = index(&mut data.algorithms, &r.algorithm);
        let puzzle = index(&mut data.puzzles, &r.puzzle);
        data.runs.push(Run {
            algorithm,
            puzzle,
            scope: if by_puzzle { puzzle } else { 0 },
            solved: r.solved == 1,
            evaluations: r.evaluations,
            seconds: match r.cpu_ms {
                Some(c) if c.is_finite() && c >= 0.0 => c / 1e3,
                _ => {
                    cpu_everywhere = false;
                    r.wall_ms / 1e3
                }
            },
            wall_seconds: r.wall_ms / 1e3,
            penalty: 0,
            trajectory: Vec::new(),
            termination: r.termination,
        });
        Ok(())
    })?;
    if data.runs.is_empty() {
        bail!("{}: no runs", path.display());
    }
    if by_puzzle {
        data.scopes = data.puzzles.clone();
    }
    data.settle_clock(cpu_everywhere);
    data.units = units(path, &data.algorithms);
    let most = data.runs.iter().map(|r| r.evaluations).max().unwrap_or(1);
    data.budget = budget.unwrap_or(most).max(1);
    Ok(data)
}

/// Each algorithm's evaluation unit, from the spec in the meta.json beside the pilot's
/// runs.csv (as the compare report has them); without it, each algorithm its own unit, so
/// that no ERT in evaluations is compared across algorithms whose units are not known.
fn units(path: &Path, algorithms: &[String]) -> Vec<String> {
    let meta = path.parent().map(|d| d.join("meta.json"));
    let specs: Vec<crate::spec::AlgorithmSpec> = meta
        .and_then(|m| std::fs::read_to_string(m).ok())
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| serde_json::from_value(v["spec"]["algorithms"].clone()).ok())
        .unwrap_or_default();
    (algorithms.iter())
        .map(|label| match specs.iter().find(|a| &a.label == label) {
            Some(a) => crate::reports::compare::data::unit_of(a),
            None => format!("unknown:{label}"),
        })
        .collect()
}

//! `sudoku-lab compare DIR A B [--scope SET]` (alias `pair`): one pair of algorithms of a
//! compare report's results folder in one paragraph, read from its compare-answers.csv
//! ([`crate::reports::compare::answers`]): success with Wilson intervals, time to solve in the
//! folder's seconds, and the verdict that reconciles the report's tests. The pair may be named
//! in either order.

use super::args::CompareArgs;
use anyhow::{bail, Context, Result};
use std::process::ExitCode;

/// The file the paragraphs are read from.
const FILE: &str = "compare-answers.csv";

pub fn compare(a: &CompareArgs) -> Result<ExitCode> {
    if !a.dir.is_dir() {
        bail!("{}: not a folder", a.dir.display());
    }
    let path = a.dir.join(FILE);
    if !path.is_file() {
        bail!(
            "{}: no {FILE} (not a report = \"compare\" folder, or its reports predate it: rewrite them with `sudoku-lab reproduce ID --out DIR --resume`)",
            a.dir.display()
        );
    }
    if a.a == a.b {
        bail!("{}: the same algorithm twice; name two", a.a);
    }
    let mut rd = csv::Reader::from_path(&path).with_context(|| path.display().to_string())?;
    let header = rd.headers()?.clone();
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(scope), Some(ca), Some(cb), Some(text)) = (
        col("scope"),
        col("algorithm_a"),
        col("algorithm_b"),
        col("paragraph"),
    ) else {
        bail!(
            "{}: not a {FILE} (no scope, algorithm_a, algorithm_b or paragraph column)",
            path.display()
        );
    };
    let (mut algorithms, mut scopes) = (Vec::<String>::new(), Vec::<String>::new());
    for row in rd.records() {
        let row = row.with_context(|| path.display().to_string())?;
        let get = |i: usize| row.get(i).unwrap_or_default().to_string();
        let (s, x, y) = (get(scope), get(ca), get(cb));
        let pair = (x == a.a && y == a.b) || (x == a.b && y == a.a);
        if s == a.scope && pair {
            println!("{}", sudoku_core::error::shown(&get(text)));
            return Ok(ExitCode::SUCCESS);
        }
        let add = |list: &mut Vec<String>, v: String| {
            if !list.contains(&v) {
                list.push(v);
            }
        };
        add(&mut algorithms, x);
        add(&mut algorithms, y);
        add(&mut scopes, s);
    }
    for name in [&a.a, &a.b] {
        if !algorithms.contains(name) {
            bail!(
                "{name}: no such algorithm in {} (algorithms: {})",
                a.dir.display(),
                algorithms.join(", ")
            );
        }
    }
    bail!(
        "--scope {}: no such puzzle set in {} (puzzle sets: {})",
        a.scope,
        a.dir.display(),
        scopes.join(", ")
    )
}

//! RESEDA Figure 4.2: per-cell correctness grades over single resolutions of one puzzle. For
//! each cell, how many runs ended with the right symbol there (the final grid of a run is the
//! solution, or the result of its failed resolution); grade A = every run, B = at least 90 % of
//! the runs ("at least ninety times out of an hundred"), blank otherwise. Compared cell by
//! cell with the paper's grid and drawn like the figure.

use crate::protocol::io::{for_each_row, write_atomic_with};
use crate::spec::Spec;
use anyhow::{bail, Context, Result};
use lab_charts::{render_grids, GridFigure, GridPanel};
use std::io::Write;
use std::path::Path;
use sudoku_core::{Grid, Puzzle};

/// The paper's grades: N lines of N characters 'A', 'B' or '.', '#' comment lines.
pub fn parse_grades(text: &str, n: usize) -> Result<Vec<char>> {
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if rows.len() != n || rows.iter().any(|r| r.chars().count() != n) {
        bail!("published grades: expected {n} lines of {n} characters");
    }
    let cells: Vec<char> = rows.iter().flat_map(|r| r.chars()).collect();
    if let Some(c) = cells.iter().find(|c| !matches!(c, 'A' | 'B' | '.')) {
        bail!(
            "published grades: unknown grade '{}' (A, B or .)",
            sudoku_core::error::shown_char(*c)
        );
    }
    Ok(cells)
}

/// The grade of a cell right in `correct` of `runs` runs.
fn grade(correct: u64, runs: u64) -> char {
    if runs > 0 && correct == runs {
        'A'
    } else if correct * 10 >= runs * 9 && runs > 0 {
        'B'
    } else {
        '.'
    }
}

/// Count, per cell, the runs (of the spec's one algorithm) whose final grid is right there; write
/// grades.csv, fig4.svg/png and return report.md's text.
pub fn report(
    spec: &Spec,
    puzzle: &Puzzle,
    runs_path: &Path,
    paper: &[char],
    out: &Path,
) -> Result<String> {
    let solution = puzzle.solution.as_ref().with_context(|| {
        format!(
            "puzzle {} has no recorded solution to grade against",
            puzzle.id
        )
    })?;
    let tally = Tally::read(&spec.algorithms[0].label, puzzle, solution, runs_path)?;
    let ours: Vec<char> = tally
        .correct
        .iter()
        .map(|&k| grade(k, tally.runs))
        .collect();
    write_grades_csv(puzzle, &tally, &ours, paper, out)?;
    draw_figure(puzzle, tally.runs, &ours, paper, out)?;
    Ok(markdown(spec, puzzle, &tally, &ours, paper))
}

/// The runs of one algorithm on the puzzle: per cell, how many ended with the right symbol.
struct Tally {
    /// Per cell (row by row), the runs whose final grid has the solution's symbol there.
    correct: Vec<u64>,
    runs: u64,
    solved: u64,
}

impl Tally {
    /// Counts the runs of `alg` on `puzzle` in runs.csv against `solution`.
    fn read(alg: &str, puzzle: &Puzzle, solution: &Grid, runs_path: &Path) -> Result<Tally> {
        let n2 = solution.cells().len();
        let mut correct = vec![0u64; n2];
        let (mut runs, mut solved) = (0u64, 0u64);
        for_each_row(runs_path, |r| {
            if r.algorithm != alg || r.puzzle != puzzle.id {
                return Ok(());
            }
            let grid: Vec<u8> = r
                .grid
                .bytes()
                .map(|b| if b == b'.' { 0 } else { b - b'0' })
                .collect();
            if grid.len() != n2 {
                bail!("run {}: final grid of {} cells", r.run, grid.len());
            }
            runs += 1;
            solved += r.solved as u64;
            for (c, (&v, &s)) in grid.iter().zip(solution.cells()).enumerate() {
                correct[c] += u64::from(v == s);
            }
            Ok(())
        })?;
        Ok(Tally {
            correct,
            runs,
            solved,
        })
    }
}

/// grades.csv: per cell, whether it is given, the runs right there, our grade and the paper's.
fn write_grades_csv(
    puzzle: &Puzzle,
    tally: &Tally,
    ours: &[char],
    paper: &[char],
    out: &Path,
) -> Result<()> {
    let n = puzzle.geometry().n();
    let (correct, runs) = (&tally.correct, tally.runs);
    write_atomic_with(&out.join("grades.csv"), |w| {
        writeln!(w, "row,col,given,correct_runs,runs,ours,paper,agree")?;
        for c in 0..correct.len() {
            writeln!(
                w,
                "{},{},{},{},{runs},{},{},{}",
                c / n + 1,
                c % n + 1,
                puzzle.grid.cells()[c] != 0,
                correct[c],
                ours[c],
                paper[c],
                ours[c] == paper[c]
            )?;
        }
        Ok(())
    })
}

/// A grade's shade in the figure: A dark, B half, blank white.
fn shade(g: char) -> f64 {
    match g {
        'A' => 1.0,
        'B' => 0.5,
        _ => 0.0,
    }
}

/// A grade's label in the figure (none for a blank grade).
fn label(g: char) -> String {
    if g == '.' {
        String::new()
    } else {
        g.to_string()
    }
}

/// fig4.svg/png: our grades and the paper's, side by side on the puzzle's grid.
fn draw_figure(
    puzzle: &Puzzle,
    runs: u64,
    ours: &[char],
    paper: &[char],
    out: &Path,
) -> Result<()> {
    let differ: Vec<usize> = (0..ours.len().min(paper.len()))
        .filter(|&i| ours[i] != paper[i])
        .collect();
    let fig = GridFigure {
        box_rows: puzzle.geometry().box_rows(),
        box_cols: puzzle.geometry().box_cols(),
        panels: vec![
            GridPanel {
                title: crate::reports::quick::title_line(format!("sudoku-lab ({runs} runs)")),
                labels: ours.iter().map(|&g| label(g)).collect(),
                shades: ours.iter().map(|&g| shade(g)).collect(),
                marked: differ.clone(),
            },
            GridPanel {
                title: crate::reports::quick::title_line("paper, Figure 4.2"),
                labels: paper.iter().map(|&g| label(g)).collect(),
                shades: paper.iter().map(|&g| shade(g)).collect(),
                marked: differ.clone(),
            },
        ],
        key: vec![
            (shade('A'), "A: right in every run".into()),
            (shade('B'), "B: right in at least 90 %".into()),
            (shade('.'), "blank: under 90 %".into()),
        ],
        marked_means: format!("grade differs from the paper ({} cells)", differ.len()),
    };
    let (svg, png) = (out.join("fig4.svg"), out.join("fig4.png"));
    crate::reports::warnings::chart(&svg, &png, render_grids(&fig, 900, 540, &svg, &png))
}

/// report.md: the grade counts of both sides, how many cells agree, and the cells that differ.
fn markdown(spec: &Spec, puzzle: &Puzzle, tally: &Tally, ours: &[char], paper: &[char]) -> String {
    let n = puzzle.geometry().n();
    let (correct, runs, solved) = (&tally.correct, tally.runs, tally.solved);
    let n2 = correct.len();
    let count = |v: &[char], g: char| v.iter().filter(|&&x| x == g).count();
    let agree = (0..n2).filter(|&c| ours[c] == paper[c]).count();
    let mut md = format!(
        "Generated by `sudoku-lab reproduce {}`: {runs} single resolutions of `{}` ({solved} solved). Grades per cell: A = right in every run, B = right in at least 90 % of the runs, blank otherwise.\n\n| | A | B | blank |\n|---|---|---|---|\n| sudoku-lab | {} | {} | {} |\n| paper, Figure 4.2 | {} | {} | {} |\n\nThe grades agree on {agree} of {n2} cells.",
        spec.id,
        puzzle.id,
        count(ours, 'A'),
        count(ours, 'B'),
        count(ours, '.'),
        count(paper, 'A'),
        count(paper, 'B'),
        count(paper, '.'),
    );
    let differ: Vec<String> = (0..n2)
        .filter(|&c| ours[c] != paper[c])
        .map(|c| {
            format!(
                "r{}c{} ours {} ({}/{runs}), paper {}",
                c / n + 1,
                c % n + 1,
                ours[c],
                correct[c],
                paper[c]
            )
        })
        .collect();
    if !differ.is_empty() {
        md.push_str(&format!(" Cells that differ: {}.", differ.join("; ")));
    }
    md.push('\n');
    md
}

//! `report = "phase"`: the phase-transition benchmark's view, success and CPU time to solve
//! against the fraction of givens, one curve per algorithm and grid size: the figure that
//! Lewis (2007) and Lloyd & Amos (2020) both draw for their instance family (a random complete
//! grid with a fraction of its cells kept).
//!
//! The whole compare report is written first (every pair per puzzle set, and a puzzle set here
//! is one size and fraction: the entries' `label`), then:
//! - `phase.csv`: per size, puzzle set and algorithm, the runs, successes with the Wilson 95 %
//!   interval, and the Kaplan-Meier median CPU time to solve with its 95 % interval (unsolved
//!   runs right-censored where they stopped, so none is dropped);
//! - `phase-leaders.csv`: per size and puzzle set, the algorithm that solves the most runs
//!   (ties broken by the smaller median time) and whether it beats the next one: Fisher's exact
//!   test on success, else the log-rank test on CPU time, Holm-adjusted over the sets of a size;
//! - `phase-NxN.png` (and `.svg`): success (a) and median CPU seconds to solve (b, log scale)
//!   against the fraction of givens.
//!
//! The x of a puzzle set is the mean fraction of givens of its puzzles, computed from the grids
//! (never read from a label). Times are `cpu_ms` where every run has it, else `wall_ms`, and the
//! report says which.

use super::inputs::Inputs;
use crate::protocol::io::for_each_numbered_row;
use anyhow::{bail, Result};
use lab_charts::{LineChart, Marker, Series, XAxis};
use lab_stats::{kaplan_meier, LifeTable, Reached};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The runs of one algorithm on one puzzle set.
#[derive(Debug, Clone, Default)]
struct Cell {
    times: Vec<f64>,
    solved: Vec<bool>,
}

/// One puzzle set of one size.
#[derive(Debug, Clone)]
struct Set {
    order: usize,
    label: String,
    fraction: f64,
    /// Per algorithm (spec order).
    cells: Vec<Cell>,
}

/// A row of phase.csv.
#[derive(Debug, Clone)]
struct Row {
    runs: usize,
    solved: usize,
    low: f64,
    high: f64,
    median: Option<f64>,
    median_low: Option<f64>,
    median_high: Option<f64>,
}

/// Write the compare report, phase.csv, phase-leaders.csv and the charts; report.md's text.
pub fn write(inp: &Inputs) -> Result<String> {
    let md = super::compare::write(inp)?;
    let (sets, cpu) = load(inp)?;
    let algorithms: Vec<&str> = inp
        .spec
        .algorithms
        .iter()
        .map(|a| a.label.as_str())
        .collect();
    let unit = if cpu { "CPU s" } else { "wall s" };
    let mut csv = String::from("size,puzzle_set,fraction_of_givens,algorithm,runs,solved,success_rate,success_low,success_high,median_seconds,median_low,median_high,time\n");
    for s in &sets {
        for (a, c) in s.cells.iter().enumerate() {
            let r = row(c)?;
            let _ = writeln!(
                csv,
                "{0}x{0},{1},{2:.4},{3},{4},{5},{6:.4},{7:.4},{8:.4},{9},{10},{11},{12}",
                s.order,
                s.label,
                s.fraction,
                algorithms[a],
                r.runs,
                r.solved,
                r.solved as f64 / r.runs.max(1) as f64,
                r.low,
                r.high,
                opt(r.median),
                opt(r.median_low),
                opt(r.median_high),
                if cpu { "cpu" } else { "wall" }
            );
        }
    }
    crate::protocol::io::write_atomic(&inp.out.join("phase.csv"), csv.as_bytes())?;
    let leaders = leaders_csv(&leaders(&sets, &algorithms)?);
    crate::protocol::io::write_atomic(&inp.out.join("phase-leaders.csv"), leaders.as_bytes())?;
    let mut section = format!(
        "\n## Against the fraction of givens\n\nSuccess and the median {unit} to solve (Kaplan-Meier: unsolved runs censored where they stopped; a median not reached is not drawn) against the mean fraction of givens of each puzzle set, per size: `phase.csv`; per set, the algorithm that solves the most runs and whether it beats the next one (`phase-leaders.csv`: Fisher's exact test on success, else the log-rank test on {unit}, Holm over the sets of a size).\n\n"
    );
    let orders: Vec<usize> = sets
        .iter()
        .map(|s| s.order)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    for n in orders {
        chart(inp, &sets, &algorithms, n, unit)?;
        let _ = writeln!(section, "![phase {n}x{n}](phase-{n}x{n}.png)\n");
    }
    let at = md.find("\n## Files").unwrap_or(md.len());
    let mut md = md;
    md.insert_str(at, &section);
    Ok(md)
}

fn opt(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| format!("{v:.6}"))
}

/// The puzzle sets (by size and entry label, in spec order) with every run, and whether every
/// run has its CPU time.
fn load(inp: &Inputs) -> Result<(Vec<Set>, bool)> {
    let (spec, loaded) = (inp.spec, inp.loaded);
    let mut sets: Vec<Set> = Vec::new();
    let mut set_of_puzzle: BTreeMap<&str, usize> = BTreeMap::new();
    let mut givens: Vec<(f64, usize)> = Vec::new();
    for p in &loaded.puzzles {
        let entry = &spec.puzzles[loaded.entry_of[&p.id]];
        let (order, label) = (p.geometry().n(), entry.label().to_string());
        let k = match sets
            .iter()
            .position(|s| s.order == order && s.label == label)
        {
            Some(k) => k,
            None => {
                sets.push(Set {
                    order,
                    label,
                    fraction: 0.0,
                    cells: vec![Cell::default(); spec.algorithms.len()],
                });
                givens.push((0.0, 0));
                sets.len() - 1
            }
        };
        let cells = p.geometry().cells();
        let given = p.grid.cells().iter().filter(|&&v| v != 0).count();
        givens[k].0 += given as f64 / cells as f64;
        givens[k].1 += 1;
        set_of_puzzle.insert(p.id.as_str(), k);
    }
    for (s, (sum, n)) in sets.iter_mut().zip(&givens) {
        s.fraction = sum / (*n).max(1) as f64;
    }
    let path = inp.out.join("runs.csv");
    let mut rows = Vec::new();
    let mut cpu = true;
    for_each_numbered_row(&path, |line, r| {
        let a = spec.algorithms.iter().position(|a| a.label == r.algorithm);
        let (Some(a), Some(&k)) = (a, set_of_puzzle.get(r.puzzle.as_str())) else {
            bail!(
                "{}:{line}: a run of {}/{} which is not in the spec",
                path.display(),
                r.algorithm,
                r.puzzle
            );
        };
        cpu &= r.cpu_ms.is_some();
        rows.push((a, k, r.solved == 1, r.cpu_ms, r.wall_ms));
        Ok(())
    })?;
    for (a, k, solved, cpu_ms, wall_ms) in rows {
        let ms = if cpu {
            cpu_ms.unwrap_or(wall_ms)
        } else {
            wall_ms
        };
        if !(ms.is_finite() && ms >= 0.0) {
            bail!(
                "{}: a run time {ms} ms is not a time (finite, >= 0)",
                path.display()
            );
        }
        let c = &mut sets[k].cells[a];
        c.times.push(ms / 1e3);
        c.solved.push(solved);
    }
    Ok((sets, cpu))
}

/// Success with its Wilson interval and the Kaplan-Meier median time to solve.
fn row(c: &Cell) -> Result<Row> {
    let runs = c.times.len();
    let solved = c.solved.iter().filter(|&&s| s).count();
    let (low, high) = lab_stats::wilson_interval(solved as u64, runs as u64, 1.959_963_984_540_054);
    let (mut median, mut median_low, mut median_high) = (None, None, None);
    if runs > 0 {
        let km = kaplan_meier(&LifeTable::new(&c.times, &c.solved)?, 0.95)?;
        // The median time to solve: where the fraction still unsolved falls to 1/2.
        let m = km.median();
        median = m.median.time();
        median_low = m.low.time();
        median_high = match m.high {
            Reached::At(t) => Some(t),
            Reached::NotReached => None,
        };
    }
    Ok(Row {
        runs,
        solved,
        low,
        high,
        median,
        median_low,
        median_high,
    })
}

/// One row of phase-leaders.csv: the algorithm of a puzzle set that solves the most runs
/// (ties broken by the smaller median time) and whether it beats the next one.
#[derive(Debug, Clone, PartialEq)]
pub struct Leader {
    /// The grid's order (9 for 9x9).
    pub order: usize,
    pub set: String,
    pub fraction: f64,
    /// The leader and the next one: algorithm, solved runs, runs.
    pub leader: (String, usize, usize),
    pub next: Option<(String, usize, usize)>,
    /// `fisher-success`, `logrank-time` or `none`.
    pub test: &'static str,
    /// None without a next one.
    pub p: Option<f64>,
    /// Holm over the sets of a size.
    pub p_holm: f64,
}

impl Leader {
    /// `better` (the leader beats the next one at 5 % after Holm), `not shown better`, or
    /// `alone`.
    pub fn verdict(&self) -> &'static str {
        match (&self.next, self.p_holm < 0.05) {
            (None, _) => "alone",
            (Some(_), true) => "better",
            (Some(_), false) => "not shown better",
        }
    }
}

/// The leaders of the phase report of `inp`'s runs (what phase-leaders.csv holds).
pub fn leaders_of(inp: &Inputs) -> Result<Vec<Leader>> {
    let (sets, _) = load(inp)?;
    let algorithms: Vec<&str> = (inp.spec.algorithms.iter())
        .map(|a| a.label.as_str())
        .collect();
    leaders(&sets, &algorithms)
}

/// Per set the leader, its next one and the test between them, Holm within each size.
fn leaders(sets: &[Set], algorithms: &[&str]) -> Result<Vec<Leader>> {
    let mut lines = Vec::new();
    for s in sets {
        let rows: Vec<Row> = s.cells.iter().map(row).collect::<Result<_>>()?;
        let key = |a: usize| (rows[a].solved, std::cmp::Reverse(ordered(rows[a].median)));
        let mut order: Vec<usize> = (0..rows.len()).filter(|&a| rows[a].runs > 0).collect();
        order.sort_by_key(|&a| std::cmp::Reverse(key(a)));
        let (Some(&first), second) = (order.first(), order.get(1).copied()) else {
            continue;
        };
        let (test, p) = match second {
            None => ("none", None),
            Some(b) if rows[first].solved * rows[b].runs != rows[b].solved * rows[first].runs => {
                let (x, y) = (&rows[first], &rows[b]);
                let p = lab_stats::fisher_exact_two_sided(
                    x.solved as u64,
                    (x.runs - x.solved) as u64,
                    y.solved as u64,
                    (y.runs - y.solved) as u64,
                );
                ("fisher-success", Some(p))
            }
            Some(b) => {
                let t = |a: usize| LifeTable::new(&s.cells[a].times, &s.cells[a].solved);
                let p = lab_stats::logrank_test(&t(first)?, &t(b)?).map_or(1.0, |l| l.p_value);
                ("logrank-time", Some(p))
            }
        };
        let of = |a: usize| (algorithms[a].to_string(), rows[a].solved, rows[a].runs);
        lines.push(Leader {
            order: s.order,
            set: s.label.clone(),
            fraction: s.fraction,
            leader: of(first),
            next: second.map(of),
            test,
            p,
            p_holm: 1.0,
        });
    }
    // Holm within each size, the sets in order of size.
    let mut out = Vec::new();
    let orders: std::collections::BTreeSet<usize> = lines.iter().map(|l| l.order).collect();
    for n in orders {
        let mut of: Vec<Leader> = (lines.iter()).filter(|l| l.order == n).cloned().collect();
        let ps: Vec<f64> = of.iter().map(|l| l.p.unwrap_or(1.0)).collect();
        for (l, adj) in of.iter_mut().zip(lab_stats::holm_adjust(&ps)) {
            l.p_holm = adj;
        }
        out.extend(of);
    }
    Ok(out)
}

/// phase-leaders.csv.
fn leaders_csv(leaders: &[Leader]) -> String {
    let mut out = String::from("size,puzzle_set,fraction_of_givens,leader,leader_solved,leader_runs,next,next_solved,next_runs,test,p_value,p_holm,verdict\n");
    for l in leaders {
        let (ln, ls, lr) = &l.leader;
        let (nx, ns, nr) = match &l.next {
            Some((a, s, r)) => (a.as_str(), s.to_string(), r.to_string()),
            None => ("", String::new(), String::new()),
        };
        let _ = writeln!(
            out,
            "{0}x{0},{1},{2:.4},{ln},{ls},{lr},{nx},{ns},{nr},{3},{4},{5:.6},{6}",
            l.order,
            l.set,
            l.fraction,
            l.test,
            l.p.map_or(String::new(), |p| format!("{p:.6}")),
            l.p_holm,
            l.verdict()
        );
    }
    out
}

/// A median as a sortable number (not reached: +inf).
fn ordered(m: Option<f64>) -> u64 {
    m.map_or(u64::MAX, |t| (t * 1e9) as u64)
}

/// phase-NxN.png: success (a) and median time to solve (b) against the fraction of givens.
fn chart(inp: &Inputs, sets: &[Set], algorithms: &[&str], n: usize, unit: &str) -> Result<()> {
    let mine: Vec<&Set> = sets.iter().filter(|s| s.order == n).collect();
    let mut success = Vec::new();
    let mut time = Vec::new();
    for (a, name) in algorithms.iter().enumerate() {
        let mut pts = Vec::new();
        let mut bars = Vec::new();
        let mut tpts = Vec::new();
        let mut missing = Vec::new();
        let mut by_x: Vec<(f64, Row)> = Vec::new();
        for s in &mine {
            let r = row(&s.cells[a])?;
            if r.runs > 0 {
                by_x.push((s.fraction, r));
            }
        }
        by_x.sort_by(|x, y| x.0.total_cmp(&y.0));
        for (x, r) in &by_x {
            pts.push((100.0 * x, 100.0 * r.solved as f64 / r.runs.max(1) as f64));
            bars.push((100.0 * r.low, 100.0 * r.high));
            match r.median {
                Some(m) if m > 0.0 => tpts.push((100.0 * x, m)),
                _ => {
                    tpts.push((100.0 * x, f64::NAN));
                    missing.push(100.0 * x);
                }
            }
        }
        if by_x.is_empty() {
            continue;
        }
        let marker = Marker::nth(a);
        success.push(Series::new(*name, pts, marker).color(a).error_bars(bars));
        time.push(
            Series::new(*name, tpts, marker)
                .color(a)
                .missing(missing, "median not reached"),
        );
    }
    let x = XAxis::Numeric {
        min: 0.0,
        max: 100.0,
    };
    let panels = [
        LineChart {
            title: super::quick::title(format!("(a) {n}x{n}: runs solved")),
            x_label: "givens (% of cells)".into(),
            y_label: "solved (%, Wilson 95 %)".into(),
            x: x.clone(),
            y_min: Some(0.0),
            y_max: Some(100.0),
            log_y: false,
            log_x: false,
            series: success,
        },
        LineChart {
            title: super::quick::title(format!("(b) {n}x{n}: median time to solve")),
            x_label: "givens (% of cells)".into(),
            y_label: format!("median {unit} to solve (log)"),
            x,
            y_min: None,
            y_max: None,
            log_y: true,
            log_x: false,
            series: time,
        },
    ];
    let (svg, png) = (
        inp.out.join(format!("phase-{n}x{n}.svg")),
        inp.out.join(format!("phase-{n}x{n}.png")),
    );
    let drawn = lab_charts::render_panels(&panels, 2, 1400, 520, &svg, &png);
    super::warnings::chart(&svg, &png, drawn)
}

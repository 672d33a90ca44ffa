//! Effort reports for experiments without published numbers: the CSO experiments (the thesis
//! states an algorithm and objectives, no results).
//!
//! `report = "effort"`: per (algorithm, puzzle entry), `effort.csv` and report.md with the
//! success count and its Wilson 95 % interval; min/max/mean/median/SD of generations (CSO:
//! cycles) and of fitness evaluations over the successful runs; ERT in evaluations; the final
//! penalty over all runs, measured on each run's best grid as missing values over rows plus
//! columns (the CSO penalty; a measure common to every algorithm, whatever the scale of its own
//! fitness); mean wall time.
//!
//! `report = "versus"` adds `tests.csv`: for every puzzle entry and pair of algorithms (or, with
//! `versus = "baseline"`, every algorithm against the first),
//! Fisher's exact test on the success counts and the Mann-Whitney U test on the evaluations
//! spent, failed runs counted as +infinity (censored at the common budget: every failure ranks
//! behind every success and failures tie), and the Mann-Whitney U test on the final penalty (which
//! still separates algorithms when none solves), all p-values Holm-adjusted together.
//!
//! `chart = "sensitivity"`: one parameter at a time. The first algorithm is the baseline and
//! lists the varied options with their values; every other algorithm sets exactly one of them.
//! `sensitivity.csv` and three figures (success, ERT, final penalty) with one panel per
//! parameter, the baseline point in every panel.

use crate::protocol::io::{for_each_row, write_atomic_with};
use crate::spec::{Loaded, Spec};
use anyhow::{bail, Context, Result};
use lab_stats::{
    ert, fisher_exact_two_sided, holm_adjust, mann_whitney_u, summarize, wilson_interval, Summary,
};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use sudoku_core::fitness::rows_cols_missing;
use sudoku_core::{Grid, Units};

/// z of the two-sided 95 % interval.
const Z95: f64 = 1.959_964;

/// The runs of one (algorithm, puzzle entry).
#[derive(Debug, Clone, Default)]
pub struct Cell {
    pub runs: u64,
    pub successes: u64,
    /// Generations and evaluations of the successful runs.
    pub generations: Vec<f64>,
    pub evaluations: Vec<f64>,
    /// Evaluations of every run, +infinity for a failure.
    pub censored: Vec<f64>,
    /// Final penalty (rows + columns missing values of the best grid) of every run.
    pub penalties: Vec<f64>,
    pub total_evaluations: f64,
    pub total_wall_ms: f64,
}

impl Cell {
    fn add(&mut self, other: &Cell) {
        self.runs += other.runs;
        self.successes += other.successes;
        self.generations.extend(&other.generations);
        self.evaluations.extend(&other.evaluations);
        self.censored.extend(&other.censored);
        self.penalties.extend(&other.penalties);
        self.total_evaluations += other.total_evaluations;
        self.total_wall_ms += other.total_wall_ms;
    }

    pub fn rate(&self) -> f64 {
        self.successes as f64 / self.runs.max(1) as f64
    }

    pub fn penalty(&self) -> Option<Summary> {
        summarize(&self.penalties)
    }

    pub fn ert(&self) -> f64 {
        ert(self.total_evaluations, self.successes)
    }
}

/// Cells indexed `[algorithm][entry]`, from runs.csv.
pub fn cells(spec: &Spec, loaded: &Loaded, runs_path: &Path) -> Result<Vec<Vec<Cell>>> {
    let geometry: HashMap<&str, sudoku_core::Geometry> = loaded
        .puzzles
        .iter()
        .map(|p| (p.id.as_str(), p.geometry()))
        .collect();
    let mut units: HashMap<usize, Units> = HashMap::new();
    let mut out = vec![vec![Cell::default(); loaded.entries.len()]; spec.algorithms.len()];
    for_each_row(runs_path, |r| {
        let (Some(a), Some(&e), Some(&geom)) = (
            spec.algorithms.iter().position(|x| x.label == r.algorithm),
            loaded.entry_of.get(&r.puzzle),
            geometry.get(r.puzzle.as_str()),
        ) else {
            bail!(
                "runs.csv has a row for {}/{} which is not in the spec",
                r.algorithm,
                r.puzzle
            );
        };
        let grid = Grid::from_line(geom, &r.grid).with_context(|| {
            format!(
                "run {}/{}/{}: the grid is not a {}x{} line",
                r.algorithm,
                r.puzzle,
                r.run,
                geom.n(),
                geom.n()
            )
        })?;
        let u = units.entry(geom.n()).or_insert_with(|| Units::new(geom));
        let c = &mut out[a][e];
        c.runs += 1;
        c.total_evaluations += r.evaluations as f64;
        c.total_wall_ms += r.wall_ms;
        c.penalties.push(rows_cols_missing(u, grid.cells()) as f64);
        if r.solved == 1 {
            c.successes += 1;
            c.generations.push(r.generations as f64);
            c.evaluations.push(r.evaluations as f64);
            c.censored.push(r.evaluations as f64);
        } else {
            c.censored.push(f64::INFINITY);
        }
        Ok(())
    })?;
    Ok(out)
}

fn f(x: Option<f64>, digits: usize) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.digits$}"),
        Some(v) if v == f64::INFINITY => "inf".into(),
        _ => String::new(),
    }
}

fn stats_cols(s: Option<Summary>) -> String {
    format!(
        "{},{},{},{},{}",
        f(s.map(|s| s.min), 0),
        f(s.map(|s| s.max), 0),
        f(s.map(|s| s.mean), 2),
        f(s.map(|s| s.median), 1),
        f(s.filter(|s| s.n >= 2).map(|s| s.sd), 2)
    )
}

fn pval(p: Option<f64>) -> String {
    match p {
        Some(q) if q < 0.001 => "<0.001".into(),
        Some(q) => format!("{q:.3}"),
        None => "-".into(),
    }
}

/// effort.csv and the Markdown table of report.md.
pub fn write_effort(
    spec: &Spec,
    loaded: &Loaded,
    cells: &[Vec<Cell>],
    out: &Path,
) -> Result<String> {
    write_atomic_with(&out.join("effort.csv"), |w| {
        writeln!(w, "experiment,algorithm,puzzle,label,puzzles,givens,runs,successes,success_rate,success_ci_low,success_ci_high,gen_min,gen_max,gen_mean,gen_median,gen_sd,eval_min,eval_max,eval_mean,eval_median,eval_sd,ert_evaluations,penalty_mean,penalty_sd,penalty_median,penalty_min,penalty_max,wall_ms_mean")?;
        for (a, alg) in spec.algorithms.iter().enumerate() {
            for (e, entry) in loaded.entries.iter().enumerate() {
                let c = &cells[a][e];
                let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
                let pen = c.penalty();
                writeln!(
                    w,
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                    spec.id,
                    alg.label,
                    entry.id,
                    spec.puzzles[e].label(),
                    entry.puzzles,
                    entry.givens.map_or(String::new(), |g| g.to_string()),
                    c.runs,
                    c.successes,
                    f(Some(c.rate()), 4),
                    f(Some(lo), 4),
                    f(Some(hi), 4),
                    stats_cols(summarize(&c.generations)),
                    stats_cols(summarize(&c.evaluations)),
                    f(Some(c.ert()), 1),
                    f(pen.map(|s| s.mean), 3),
                    f(pen.filter(|s| s.n >= 2).map(|s| s.sd), 3),
                    f(pen.map(|s| s.median), 1),
                    f(pen.map(|s| s.min), 0),
                    f(pen.map(|s| s.max), 0),
                    f(Some(c.total_wall_ms / c.runs.max(1) as f64), 3),
                )?;
            }
        }
        Ok(())
    })?;
    let mut md = String::from("| Algorithm | Puzzles | Success (95 % CI) | Generations (CSO: cycles) of successes: min / max / mean / median / SD | Evaluations of successes: min / max / mean / median / SD | ERT (evaluations) | Final penalty, mean (SD) | Time per run |\n|---|---|---|---|---|---|---|---|\n");
    let five = |s: Option<Summary>| match s {
        Some(s) if s.n >= 2 => format!(
            "{:.0} / {:.0} / {:.1} / {:.1} / {:.1}",
            s.min, s.max, s.mean, s.median, s.sd
        ),
        Some(s) => format!("{:.0} (one run)", s.mean),
        None => "-".into(),
    };
    for (a, alg) in spec.algorithms.iter().enumerate() {
        for (e, entry) in loaded.entries.iter().enumerate() {
            let c = &cells[a][e];
            let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
            let pen = c.penalty();
            let _ = writeln!(
                md,
                "| {} | {} ({}{}) | {}/{} ({:.0}-{:.0} %) | {} | {} | {} | {} | {:.1} ms |",
                alg.label,
                spec.puzzles[e].label(),
                entry.puzzles,
                entry
                    .givens
                    .map_or(String::new(), |g| format!(", {g} givens")),
                c.successes,
                c.runs,
                100.0 * lo,
                100.0 * hi,
                five(summarize(&c.generations)),
                five(summarize(&c.evaluations)),
                if c.successes == 0 {
                    "-".to_string()
                } else {
                    format!("{:.0}", c.ert())
                },
                pen.map_or("-".into(), |s| format!(
                    "{:.2} ({})",
                    s.mean,
                    if s.n >= 2 {
                        format!("{:.2}", s.sd)
                    } else {
                        "-".into()
                    }
                )),
                c.total_wall_ms / c.runs.max(1) as f64,
            );
        }
    }
    Ok(md)
}

/// One pairwise comparison of `report = "versus"`.
struct Test {
    entry: usize,
    a: usize,
    b: usize,
    fisher: f64,
    mw: Option<(f64, f64)>,
    pen: Option<(f64, f64)>,
    fisher_holm: f64,
    mw_holm: Option<f64>,
    pen_holm: Option<f64>,
}

/// tests.csv and report.md's section on it.
pub fn write_tests(
    spec: &Spec,
    loaded: &Loaded,
    cells: &[Vec<Cell>],
    out: &Path,
) -> Result<String> {
    let k = spec.algorithms.len();
    let mut tests = Vec::new();
    let pairs: Vec<(usize, usize)> = if spec.versus.as_deref() == Some("baseline") {
        (1..k).map(|b| (0, b)).collect()
    } else {
        (0..k)
            .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
            .collect()
    };
    for (e, _) in loaded.entries.iter().enumerate() {
        for &(a, b) in &pairs {
            let (x, y) = (&cells[a][e], &cells[b][e]);
            let fisher = fisher_exact_two_sided(
                x.successes,
                x.runs - x.successes,
                y.successes,
                y.runs - y.successes,
            );
            let mw = mann_whitney_u(&x.censored, &y.censored)
                .ok()
                .map(|r| (r.u, r.p_value));
            let pen = mann_whitney_u(&x.penalties, &y.penalties)
                .ok()
                .map(|r| (r.u, r.p_value));
            tests.push(Test {
                entry: e,
                a,
                b,
                fisher,
                mw,
                pen,
                fisher_holm: f64::NAN,
                mw_holm: None,
                pen_holm: None,
            });
        }
    }
    // Holm over every p-value of the file, the three tests together.
    let mut ps: Vec<f64> = tests.iter().map(|t| t.fisher).collect();
    ps.extend(tests.iter().filter_map(|t| t.mw.map(|m| m.1)));
    ps.extend(tests.iter().filter_map(|t| t.pen.map(|m| m.1)));
    let adj = holm_adjust(&ps);
    let mut rest = adj[tests.len()..].iter();
    for (t, &q) in tests.iter_mut().zip(&adj) {
        t.fisher_holm = q;
    }
    for t in tests.iter_mut().filter(|t| t.mw.is_some()) {
        t.mw_holm = rest.next().copied();
    }
    for t in tests.iter_mut().filter(|t| t.pen.is_some()) {
        t.pen_holm = rest.next().copied();
    }
    let label = |i: usize| spec.algorithms[i].label.as_str();
    let success_verdict = |t: &Test| {
        let (x, y) = (&cells[t.a][t.entry], &cells[t.b][t.entry]);
        if t.fisher_holm >= 0.05 {
            "no difference".to_string()
        } else if x.rate() > y.rate() {
            format!("{} succeeds more", label(t.a))
        } else {
            format!("{} succeeds more", label(t.b))
        }
    };
    // U counts pairs with x > y: above nx ny / 2, the first has the larger values.
    let lower = |t: &Test, m: Option<(f64, f64)>, q: Option<f64>, what: &str| match (m, q) {
        (Some((u, _)), Some(q)) if q < 0.05 => {
            let (nx, ny) = (
                cells[t.a][t.entry].runs as f64,
                cells[t.b][t.entry].runs as f64,
            );
            if u > nx * ny / 2.0 {
                format!("{} {what}", label(t.b))
            } else {
                format!("{} {what}", label(t.a))
            }
        }
        (Some(_), _) => "no difference".into(),
        _ => "no test (all runs tied)".into(),
    };
    let effort_verdict = |t: &Test| lower(t, t.mw, t.mw_holm, "needs fewer");
    let penalty_verdict = |t: &Test| lower(t, t.pen, t.pen_holm, "ends lower");
    write_atomic_with(&out.join("tests.csv"), |w| {
        writeln!(w, "experiment,puzzle,label,algorithm_a,algorithm_b,successes_a,runs_a,successes_b,runs_b,fisher_p,fisher_p_holm,success_verdict,mw_u,mw_p,mw_p_holm,effort_verdict,penalty_mean_a,penalty_mean_b,penalty_u,penalty_p,penalty_p_holm,penalty_verdict")?;
        for t in &tests {
            let (x, y) = (&cells[t.a][t.entry], &cells[t.b][t.entry]);
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{},{:.4e},{:.4e},{},{},{},{},{},{},{},{},{},{},{}",
                spec.id,
                loaded.entries[t.entry].id,
                spec.puzzles[t.entry].label(),
                label(t.a),
                label(t.b),
                x.successes,
                x.runs,
                y.successes,
                y.runs,
                t.fisher,
                t.fisher_holm,
                success_verdict(t),
                t.mw.map_or(String::new(), |m| format!("{:.1}", m.0)),
                t.mw.map_or(String::new(), |m| format!("{:.4e}", m.1)),
                t.mw_holm.map_or(String::new(), |q| format!("{q:.4e}")),
                effort_verdict(t),
                f(x.penalty().map(|s| s.mean), 3),
                f(y.penalty().map(|s| s.mean), 3),
                t.pen.map_or(String::new(), |m| format!("{:.1}", m.0)),
                t.pen.map_or(String::new(), |m| format!("{:.4e}", m.1)),
                t.pen_holm.map_or(String::new(), |q| format!("{q:.4e}")),
                penalty_verdict(t),
            )?;
        }
        Ok(())
    })?;
    let mut md = String::from("| Puzzles | A | B | Success A / B | Fisher p (Holm) | Success | Evaluations, failures last: Mann-Whitney p (Holm) | Effort | Final penalty A / B | Mann-Whitney p (Holm) | Penalty |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for t in &tests {
        let (x, y) = (&cells[t.a][t.entry], &cells[t.b][t.entry]);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {}/{} vs {}/{} | {} | {} | {} | {} | {} / {} | {} | {} |",
            spec.puzzles[t.entry].label(),
            label(t.a),
            label(t.b),
            x.successes,
            x.runs,
            y.successes,
            y.runs,
            pval(Some(t.fisher_holm)),
            success_verdict(t),
            pval(t.mw_holm),
            effort_verdict(t),
            f(x.penalty().map(|s| s.mean), 2),
            f(y.penalty().map(|s| s.mean), 2),
            pval(t.pen_holm),
            penalty_verdict(t),
        );
    }
    Ok(md)
}

/// A panel title: the CSO names of Chu & Tsai for the CSO options, the key otherwise.
fn describe(key: &str) -> String {
    match key {
        "srd" => "SRD, seeking range of the selected dimension".into(),
        "cdc" => "CDC, counts of dimension to change".into(),
        "mr" => "MR, mixture ratio (share of tracing cats)".into(),
        "smp" => "SMP, seeking memory pool".into(),
        "c1" => "c1, tracing-mode constant".into(),
        "cats" => "population (cats)".into(),
        other => other.to_string(),
    }
}

/// sensitivity.csv, the three figures, and report.md's section.
pub fn sensitivity(spec: &Spec, cells: &[Vec<Cell>], out: &Path) -> Result<String> {
    use lab_charts::{LineChart, Marker, Series, XAxis};
    let panels = crate::spec::sensitivity_panels(spec)?;
    // All puzzle entries together.
    let pooled: Vec<Cell> = cells
        .iter()
        .map(|row| {
            let mut c = Cell::default();
            for x in row {
                c.add(x);
            }
            c
        })
        .collect();
    write_atomic_with(&out.join("sensitivity.csv"), |w| {
        writeln!(w, "experiment,parameter,value,algorithm,runs,successes,success_rate,success_ci_low,success_ci_high,eval_mean_success,ert_evaluations,penalty_mean,penalty_sd")?;
        for (key, pts) in &panels {
            for &(i, x) in pts {
                let c = &pooled[i];
                let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
                let pen = c.penalty();
                writeln!(
                    w,
                    "{},{key},{x},{},{},{},{},{},{},{},{},{},{}",
                    spec.id,
                    spec.algorithms[i].label,
                    c.runs,
                    c.successes,
                    f(Some(c.rate()), 4),
                    f(Some(lo), 4),
                    f(Some(hi), 4),
                    f(summarize(&c.evaluations).map(|s| s.mean), 1),
                    f(Some(c.ert()), 1),
                    f(pen.map(|s| s.mean), 3),
                    f(pen.filter(|s| s.n >= 2).map(|s| s.sd), 3),
                )?;
            }
        }
        Ok(())
    })?;
    type Measure<'a> = (&'a str, &'a str, bool, &'a dyn Fn(&Cell) -> f64);
    let measures: [Measure; 3] = [
        ("success", "success rate (%)", false, &|c: &Cell| {
            100.0 * c.rate()
        }),
        (
            "ert",
            "ERT (fitness evaluations, log)",
            true,
            &|c: &Cell| {
                if c.successes == 0 {
                    f64::NAN
                } else {
                    c.ert()
                }
            },
        ),
        ("penalty", "mean final penalty", false, &|c: &Cell| {
            c.penalty().map_or(f64::NAN, |s| s.mean)
        }),
    ];
    let columns = 3;
    let rows = panels.len().div_ceil(columns) as u32;
    for (name, y_label, log_y, measure) in measures {
        let charts: Vec<LineChart> = panels
            .iter()
            .map(|(key, pts)| {
                let (lo, hi) = (pts[0].1, pts[pts.len() - 1].1);
                let pad = if hi > lo { 0.05 * (hi - lo) } else { 0.5 };
                // success: Wilson 95 % bars; ERT: a mark where no run succeeded
                let decorate = |s: Series, cells: &[(usize, f64)]| match name {
                    "success" => s.error_bars(
                        cells
                            .iter()
                            .map(|&(i, _)| {
                                let c = &pooled[i];
                                let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
                                (100.0 * lo, 100.0 * hi)
                            })
                            .collect(),
                    ),
                    "ert" => s.missing(
                        cells
                            .iter()
                            .filter(|&&(i, _)| pooled[i].successes == 0)
                            .map(|&(_, x)| x)
                            .collect(),
                        "no run solved (no ERT)",
                    ),
                    _ => s,
                };
                let mut series = vec![decorate(
                    Series::new(
                        "one parameter varied",
                        pts.iter().map(|&(i, x)| (x, measure(&pooled[i]))).collect(),
                        Marker::Circle,
                    ),
                    pts,
                )];
                let base_x = pts.iter().find(|p| p.0 == 0).map_or(f64::NAN, |p| p.1);
                let base = [(0, base_x)];
                series.push(decorate(
                    Series::new(
                        format!("{} (all defaults)", spec.algorithms[0].label),
                        vec![(base_x, measure(&pooled[0]))],
                        Marker::Square,
                    ),
                    if base_x.is_finite() { &base } else { &[] },
                ));
                LineChart {
                    title: crate::reports::quick::title(describe(key)),
                    x_label: key.clone(),
                    y_label: y_label.into(),
                    x: XAxis::Numeric {
                        min: lo - pad,
                        max: hi + pad,
                    },
                    y_min: if log_y { None } else { Some(0.0) },
                    y_max: (name == "success").then_some(100.0),
                    log_y,
                    log_x: false,
                    series,
                }
            })
            .filter(|c| {
                // A log axis needs a finite value somewhere.
                !log_y
                    || c.series[0].points.iter().any(|p| p.1.is_finite())
                    || !c.series[0].missing.is_empty()
            })
            .collect();
        if charts.is_empty() {
            continue;
        }
        lab_charts::render_panels(
            &charts,
            columns,
            1200,
            360 * rows,
            &out.join(format!("sensitivity-{name}.svg")),
            &out.join(format!("sensitivity-{name}.png")),
        )
        .map_err(|e| anyhow::anyhow!("cannot draw sensitivity-{name}: {e}"))?;
    }
    let mut md = String::from(
        "| Parameter | Value | Variant | Success (95 % CI) | ERT (evaluations) | Final penalty, mean (SD) |\n|---|---|---|---|---|---|\n",
    );
    for (key, pts) in &panels {
        for &(i, x) in pts {
            let c = &pooled[i];
            let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
            let pen = c.penalty();
            let _ = writeln!(
                md,
                "| {key} | {x} | {} | {}/{} ({:.0}-{:.0} %) | {} | {} |",
                spec.algorithms[i].label,
                c.successes,
                c.runs,
                100.0 * lo,
                100.0 * hi,
                if c.successes == 0 {
                    "-".to_string()
                } else {
                    format!("{:.0}", c.ert())
                },
                pen.map_or("-".into(), |s| format!("{:.2} ({:.2})", s.mean, s.sd)),
            );
        }
    }
    Ok(md)
}

/// effort.png/.svg: (a) success (%) with Wilson 95 % intervals, (b) median generations of the
/// successful runs with their quartiles (log scale when all are positive), per algorithm and
/// puzzle entry; where no run succeeded, (b) marks the spot at its bottom edge. The larger of
/// the two (algorithms, entries) runs along the x axis, the other gives the series; the points
/// are not joined (the categories are not a scale), the series side by side around each.
fn effort_chart(spec: &Spec, cells: &[Vec<Cell>], out: &Path) -> Result<()> {
    use lab_charts::{quantile_type7, LineChart, Marker, Series, XAxis};
    let (n_alg, n_ent) = (spec.algorithms.len(), spec.puzzles.len());
    if n_alg == 0 || n_ent == 0 {
        return Ok(());
    }
    let by_algorithm = n_alg > n_ent;
    let alg_label = |a: usize| spec.algorithms[a].label.clone();
    let ent_label = |e: usize| spec.puzzles[e].label().to_string();
    let (cats, names): (Vec<String>, Vec<String>) = if by_algorithm {
        (
            (0..n_alg).map(alg_label).collect(),
            (0..n_ent).map(ent_label).collect(),
        )
    } else {
        (
            (0..n_ent).map(ent_label).collect(),
            (0..n_alg).map(alg_label).collect(),
        )
    };
    let k = names.len() as f64;
    let slot = (0.7 / k).min(0.2);
    let gap = (f64::NAN, f64::NAN);
    let mut success = Vec::new();
    let mut gens = Vec::new();
    for (s, name) in names.iter().enumerate() {
        let (mut sp, mut sb, mut gp, mut gb, mut missing) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (x, _) in cats.iter().enumerate() {
            let c = if by_algorithm {
                &cells[x][s]
            } else {
                &cells[s][x]
            };
            let xf = x as f64 + (s as f64 - 0.5 * (k - 1.0)) * slot;
            let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
            sp.extend([(xf, 100.0 * c.rate()), gap]);
            sb.extend([(100.0 * lo, 100.0 * hi), gap]);
            let q = |p: f64| quantile_type7(&c.generations, p).unwrap_or(f64::NAN);
            gp.extend([(xf, q(0.5)), gap]);
            gb.extend([(q(0.25), q(0.75)), gap]);
            if c.successes == 0 {
                missing.push(xf);
            }
        }
        let marker = Marker::nth(s);
        success.push(
            Series::new(name.clone(), sp, marker)
                .color(s)
                .error_bars(sb),
        );
        gens.push(
            Series::new(name.clone(), gp, marker)
                .color(s)
                .error_bars(gb)
                .missing(missing, "no run solved"),
        );
    }
    let log_y = gens
        .iter()
        .flat_map(|s| s.points.iter().chain(s.error_bars.iter().flatten()))
        .all(|p| !(p.0.is_finite() && p.1.is_finite()) || (p.0 > 0.0 && p.1 > 0.0))
        && gens.iter().flat_map(|s| &s.points).any(|p| p.1.is_finite());
    let x_label = if by_algorithm {
        "algorithm"
    } else {
        "puzzle set"
    };
    let panels = [
        LineChart {
            title: crate::reports::quick::title("(a) success (% of runs, Wilson 95 % interval)"),
            x_label: x_label.into(),
            y_label: "% successful".into(),
            x: XAxis::Categories(cats.clone()),
            y_min: Some(0.0),
            y_max: Some(105.0),
            log_y: false,
            log_x: false,
            series: success,
        },
        LineChart {
            title: crate::reports::quick::title(
                "(b) generations (CSO: cycles) of successful runs: median, quartiles",
            ),
            x_label: x_label.into(),
            y_label: if log_y {
                "generations (log)"
            } else {
                "generations"
            }
            .into(),
            x: XAxis::Categories(cats),
            y_min: if log_y { None } else { Some(0.0) },
            y_max: None,
            log_y,
            log_x: false,
            series: gens,
        },
    ];
    lab_charts::render_panels(
        &panels,
        2,
        1500,
        560,
        &out.join("effort.svg"),
        &out.join("effort.png"),
    )
    .context("cannot draw the effort chart")
}

/// report.md for `report = "effort"` or `"versus"`.
pub fn report(
    spec: &Spec,
    loaded: &Loaded,
    runs_path: &Path,
    out: &Path,
    wall: f64,
    threads: usize,
) -> Result<String> {
    let cells = cells(spec, loaded, runs_path)?;
    let budget_of = |a: &crate::spec::AlgorithmSpec| match a.max_evaluations {
        Some(m) => format!("{} generations, {m} evaluations", a.max_generations),
        None => format!("{} generations", a.max_generations),
    };
    let budgets: Vec<String> = spec.algorithms.iter().map(budget_of).collect();
    let budget = if budgets.iter().all(|b| *b == budgets[0]) {
        format!("every algorithm: {}", budgets[0])
    } else {
        spec.algorithms
            .iter()
            .zip(&budgets)
            .map(|(a, b)| format!("{}: {b}", a.label))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut md = format!(
        "Generated by `sudoku-lab reproduce {}` ({wall:.0} s wall on {threads} threads). Budgets: {budget}. Success with its Wilson 95 % interval; effort over the successful runs; ERT = evaluations over all runs / successes; final penalty = missing values over rows and columns of each run's best grid, over all runs.\n\n",
        spec.id
    );
    let table = write_effort(spec, loaded, &cells, out)?;
    if spec.chart.as_deref() == Some("sensitivity") {
        // The sensitivity table below holds the same runs by parameter; effort.csv has the rest.
        md.push_str("Effort statistics per variant and time per run: effort.csv.\n");
    } else {
        md.push_str(&table);
    }
    if spec.chart.as_deref() != Some("sensitivity") {
        effort_chart(spec, &cells, out)?;
        md.push_str("\nChart effort.png: success with its Wilson 95 % interval, and the median generations (CSO: cycles) of the successful runs with their quartiles; an open triangle on the bottom edge marks an algorithm and puzzle set where no run succeeded.\n");
    }
    if spec.report == "versus" {
        md.push_str("\nPairwise tests (tests.csv), Holm-adjusted over the whole file:\n\n");
        md.push_str(&write_tests(spec, loaded, &cells, out)?);
    }
    if spec.chart.as_deref() == Some("sensitivity") {
        md.push_str("\nOne parameter at a time, all puzzles pooled (sensitivity.csv; charts sensitivity-success.png, sensitivity-ert.png, sensitivity-penalty.png):\n\n");
        md.push_str(&sensitivity(spec, &cells, out)?);
    }
    Ok(md)
}

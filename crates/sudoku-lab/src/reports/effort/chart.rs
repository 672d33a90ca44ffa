//! effort.png/.svg: (a) success (%) with Wilson 95 % intervals, (b) median generations of the
//! successful runs with their quartiles (log scale when all are positive), per algorithm and
//! puzzle entry; where no run succeeded, (b) marks the spot at its bottom edge. The larger of
//! the two (algorithms, entries) runs along the x axis, the other gives the series; the points
//! are not joined (the categories are not a scale), the series side by side around each.

use super::cells::Cell;
use super::format::Z95;
use crate::spec::Spec;
use anyhow::Result;
use lab_charts::{quantile_type7, LineChart, Marker, Series, XAxis};
use lab_stats::wilson_interval;
use std::path::Path;

/// The effort chart (nothing without an algorithm or a puzzle entry).
pub fn effort_chart(spec: &Spec, cells: &[Vec<Cell>], out: &Path) -> Result<()> {
    let (n_alg, n_ent) = (spec.algorithms.len(), spec.puzzles.len());
    if n_alg == 0 || n_ent == 0 {
        return Ok(());
    }
    let layout = Layout::new(spec);
    let mut success = Vec::new();
    let mut gens = Vec::new();
    for (s, name) in layout.names.iter().enumerate() {
        let (sp, gp) = layout.series(cells, s, name);
        success.push(sp);
        gens.push(gp);
    }
    let log_y = log_scale(&gens);
    let x_label = layout.x_label();
    let panels = [
        success_panel(x_label, layout.cats.clone(), success),
        generations_panel(x_label, layout.cats, log_y, gens),
    ];
    let (svg, png) = (out.join("effort.svg"), out.join("effort.png"));
    let drawn = lab_charts::render_panels(&panels, 2, 1500, 560, &svg, &png);
    crate::reports::warnings::chart(&svg, &png, drawn)
}

/// Which of algorithms and puzzle entries runs along the x axis (the more numerous), and which
/// gives the series.
struct Layout {
    /// Algorithms along x, one series per puzzle entry (else the other way round).
    by_algorithm: bool,
    /// The labels along x.
    cats: Vec<String>,
    /// The series' names.
    names: Vec<String>,
}

impl Layout {
    fn new(spec: &Spec) -> Layout {
        let (n_alg, n_ent) = (spec.algorithms.len(), spec.puzzles.len());
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
        Layout {
            by_algorithm,
            cats,
            names,
        }
    }

    fn x_label(&self) -> &'static str {
        if self.by_algorithm {
            "algorithm"
        } else {
            "puzzle set"
        }
    }

    /// The cell of series `s` at category `x`.
    fn cell<'a>(&self, cells: &'a [Vec<Cell>], s: usize, x: usize) -> &'a Cell {
        if self.by_algorithm {
            &cells[x][s]
        } else {
            &cells[s][x]
        }
    }

    /// The x of series `s` at category `x`: the series side by side around the category.
    fn x(&self, s: usize, x: usize) -> f64 {
        let k = self.names.len() as f64;
        let slot = (0.7 / k).min(0.2);
        x as f64 + (s as f64 - 0.5 * (k - 1.0)) * slot
    }

    /// Series `s` of both panels: its success rates with their Wilson bars, and its median
    /// generations with their quartiles and the categories where no run succeeded. A gap after
    /// every point keeps the points apart.
    fn series(&self, cells: &[Vec<Cell>], s: usize, name: &str) -> (Series, Series) {
        let gap = (f64::NAN, f64::NAN);
        let (mut sp, mut sb, mut gp, mut gb, mut missing) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (x, _) in self.cats.iter().enumerate() {
            let c = self.cell(cells, s, x);
            let xf = self.x(s, x);
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
        let success = Series::new(name, sp, marker).color(s).error_bars(sb);
        let gens = Series::new(name, gp, marker)
            .color(s)
            .error_bars(gb)
            .missing(missing, "no run solved");
        (success, gens)
    }
}

/// Generations on a log axis: every drawn value (medians and quartiles) positive, and some
/// median there at all.
fn log_scale(gens: &[Series]) -> bool {
    gens.iter()
        .flat_map(|s| s.points.iter().chain(s.error_bars.iter().flatten()))
        .all(|p| !(p.0.is_finite() && p.1.is_finite()) || (p.0 > 0.0 && p.1 > 0.0))
        && gens.iter().flat_map(|s| &s.points).any(|p| p.1.is_finite())
}

/// Panel (a): success in % of the runs, with the Wilson bars.
fn success_panel(x_label: &str, cats: Vec<String>, series: Vec<Series>) -> LineChart {
    LineChart {
        title: crate::reports::quick::title("(a) success (% of runs, Wilson 95 % interval)"),
        x_label: x_label.into(),
        y_label: "% successful".into(),
        x: XAxis::Categories(cats),
        y_min: Some(0.0),
        y_max: Some(105.0),
        log_y: false,
        log_x: false,
        series,
    }
}

/// Panel (b): generations of the successful runs, median and quartiles.
fn generations_panel(
    x_label: &str,
    cats: Vec<String>,
    log_y: bool,
    series: Vec<Series>,
) -> LineChart {
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
        series,
    }
}

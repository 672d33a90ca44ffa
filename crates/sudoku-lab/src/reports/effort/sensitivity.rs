//! `chart = "sensitivity"`: one parameter at a time, all puzzle entries pooled.
//! sensitivity.csv, three figures (success, ERT, final penalty) with one panel per parameter,
//! and report.md's table.

use super::cells::Cell;
use super::format::{ert_cell, f, Z95};
use crate::protocol::io::write_atomic_with;
use crate::spec::Spec;
use anyhow::Result;
use lab_charts::{LineChart, Marker, Series, XAxis};
use lab_stats::{summarize, wilson_interval};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// One panel of the figures: the varied option, and its points (algorithm index, value) in
/// increasing value, the baseline (index 0) among them (as `crate::spec::sensitivity_panels`
/// returns them).
type Panel = (String, Vec<(usize, f64)>);

/// sensitivity.csv, the three figures, and report.md's section.
pub fn sensitivity(spec: &Spec, cells: &[Vec<Cell>], out: &Path) -> Result<String> {
    let panels = crate::spec::sensitivity_panels(spec)?;
    let pooled = pooled(cells);
    write_sensitivity_csv(spec, &panels, &pooled, out)?;
    for measure in [Measure::Success, Measure::Ert, Measure::Penalty] {
        draw_figure(spec, &panels, &pooled, measure, out)?;
    }
    Ok(sensitivity_markdown(spec, &panels, &pooled))
}

/// Each algorithm's runs over all puzzle entries together.
fn pooled(cells: &[Vec<Cell>]) -> Vec<Cell> {
    cells
        .iter()
        .map(|row| {
            let mut c = Cell::default();
            for x in row {
                c.add(x);
            }
            c
        })
        .collect()
}

/// sensitivity.csv: one row per panel and point (parameter value), the baseline in every
/// panel.
fn write_sensitivity_csv(spec: &Spec, panels: &[Panel], pooled: &[Cell], out: &Path) -> Result<()> {
    write_atomic_with(&out.join("sensitivity.csv"), |w| {
        writeln!(w, "experiment,parameter,value,algorithm,runs,successes,success_rate,success_ci_low,success_ci_high,eval_mean_success,ert_evaluations,penalty_mean,penalty_sd")?;
        for (key, pts) in panels {
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
    })
}

/// What one sensitivity figure shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Measure {
    /// Success rate (%), with Wilson 95 % bars.
    Success,
    /// ERT in evaluations on a log axis, a mark where no run succeeded.
    Ert,
    /// Mean final penalty.
    Penalty,
}

impl Measure {
    /// The figure's file name: `sensitivity-<name>.png/.svg`.
    fn name(self) -> &'static str {
        match self {
            Measure::Success => "success",
            Measure::Ert => "ert",
            Measure::Penalty => "penalty",
        }
    }

    fn y_label(self) -> &'static str {
        match self {
            Measure::Success => "success rate (%)",
            Measure::Ert => "ERT (fitness evaluations, log)",
            Measure::Penalty => "mean final penalty",
        }
    }

    fn log_y(self) -> bool {
        self == Measure::Ert
    }

    /// The value of an algorithm's pooled runs (NaN where there is none).
    fn value(self, c: &Cell) -> f64 {
        match self {
            Measure::Success => 100.0 * c.rate(),
            Measure::Ert => {
                if c.successes == 0 {
                    f64::NAN
                } else {
                    c.ert()
                }
            }
            Measure::Penalty => c.penalty().map_or(f64::NAN, |s| s.mean),
        }
    }

    /// Success: Wilson 95 % bars; ERT: a mark where no run succeeded. `points`: (algorithm,
    /// parameter value) of the series' points.
    fn decorate(self, s: Series, pooled: &[Cell], points: &[(usize, f64)]) -> Series {
        match self {
            Measure::Success => s.error_bars(
                points
                    .iter()
                    .map(|&(i, _)| {
                        let c = &pooled[i];
                        let (lo, hi) = wilson_interval(c.successes, c.runs, Z95);
                        (100.0 * lo, 100.0 * hi)
                    })
                    .collect(),
            ),
            Measure::Ert => s.missing(
                points
                    .iter()
                    .filter(|&&(i, _)| pooled[i].successes == 0)
                    .map(|&(_, x)| x)
                    .collect(),
                "no run solved (no ERT)",
            ),
            Measure::Penalty => s,
        }
    }
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

/// One panel of a figure: the measure against the parameter's values, and the baseline (all
/// defaults) as its own point.
fn panel(spec: &Spec, pooled: &[Cell], measure: Measure, (key, pts): &Panel) -> LineChart {
    let (lo, hi) = (pts[0].1, pts[pts.len() - 1].1);
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 0.5 };
    let mut series = vec![measure.decorate(
        Series::new(
            "one parameter varied",
            pts.iter()
                .map(|&(i, x)| (x, measure.value(&pooled[i])))
                .collect(),
            Marker::Circle,
        ),
        pooled,
        pts,
    )];
    let base_x = pts.iter().find(|p| p.0 == 0).map_or(f64::NAN, |p| p.1);
    let base = [(0, base_x)];
    series.push(measure.decorate(
        Series::new(
            format!("{} (all defaults)", spec.algorithms[0].label),
            vec![(base_x, measure.value(&pooled[0]))],
            Marker::Square,
        ),
        pooled,
        if base_x.is_finite() { &base } else { &[] },
    ));
    let log_y = measure.log_y();
    LineChart {
        title: crate::reports::quick::title(describe(key)),
        x_label: key.clone(),
        y_label: measure.y_label().into(),
        x: XAxis::Numeric {
            min: lo - pad,
            max: hi + pad,
        },
        y_min: if log_y { None } else { Some(0.0) },
        y_max: (measure == Measure::Success).then_some(100.0),
        log_y,
        log_x: false,
        series,
    }
}

/// `sensitivity-<measure>.png/.svg`: one panel per parameter, three to a row; none when no
/// panel can be drawn (a log axis needs a finite value somewhere).
fn draw_figure(
    spec: &Spec,
    panels: &[Panel],
    pooled: &[Cell],
    measure: Measure,
    out: &Path,
) -> Result<()> {
    let columns = 3;
    let rows = panels.len().div_ceil(columns) as u32;
    let log_y = measure.log_y();
    let charts: Vec<LineChart> = panels
        .iter()
        .map(|p| panel(spec, pooled, measure, p))
        .filter(|c| {
            !log_y
                || c.series[0].points.iter().any(|p| p.1.is_finite())
                || !c.series[0].missing.is_empty()
        })
        .collect();
    if charts.is_empty() {
        return Ok(());
    }
    let name = measure.name();
    let svg = out.join(format!("sensitivity-{name}.svg"));
    let png = out.join(format!("sensitivity-{name}.png"));
    let drawn = lab_charts::render_panels(&charts, columns, 1200, 360 * rows, &svg, &png);
    crate::reports::warnings::chart(&svg, &png, drawn)
}

/// report.md's table: one row per panel and point, as in sensitivity.csv.
fn sensitivity_markdown(spec: &Spec, panels: &[Panel], pooled: &[Cell]) -> String {
    let mut md = String::from(
        "| Parameter | Value | Variant | Success (95 % CI) | ERT (evaluations) | Final penalty, mean (SD) |\n|---|---|---|---|---|---|\n",
    );
    for (key, pts) in panels {
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
                ert_cell(c),
                pen.map_or("-".into(), |s| format!("{:.2} ({:.2})", s.mean, s.sd)),
            );
        }
    }
    md
}

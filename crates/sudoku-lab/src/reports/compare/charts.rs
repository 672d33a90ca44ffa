//! The charts of `report = "compare"` (see `compare_report`): success with Wilson 95 % bars and
//! ERT (with its bootstrap band) per puzzle set, the runtime ECDFs (Kaplan-Meier, drawn by
//! [`super::survival_charts`]), fixed-target ECDFs and fixed-budget box plots from the
//! anytime data, and the critical-difference diagram of the pooled Friedman ranks (Demsar 2006)
//! with the Wilcoxon-Holm cliques. Each chart as SVG and PNG.

use super::data::penalties_at;
use super::data::{self as cd, Data};
use super::stats::{Friedman, Unit};
use super::survival::Survival;
use anyhow::Result;
use lab_charts::{
    render, render_boxes, render_cd, BoxChart, BoxSeries, CdDiagram, LineChart, Marker, Series,
    XAxis,
};
use std::path::Path;

fn paths(dir: &Path, name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    (
        dir.join(format!("{name}.svg")),
        dir.join(format!("{name}.png")),
    )
}

/// Draws every chart of the report into `dir`.
pub fn draw(data: &Data, tests: &[Friedman], surv: &Survival, dir: &Path) -> Result<()> {
    success_and_ert(data, surv, dir)?;
    super::survival_charts::draw(data, surv, dir)?;
    if data.anytime {
        super::survival_charts::targets(data, dir)?;
        budget(data, dir)?;
    }
    for t in tests.iter().filter(|t| t.scope == data.scopes.len()) {
        cd_diagram(data, t, dir)?;
    }
    Ok(())
}

fn success_and_ert(data: &Data, surv: &Survival, dir: &Path) -> Result<()> {
    let names = data.scope_names();
    let mut rate = Vec::new();
    let mut ert = Vec::new();
    for (a, label) in data.algorithms.iter().enumerate() {
        let xs: Vec<cd::Success> = (0..names.len())
            .map(|s| cd::success(data.runs_of(a, s)))
            .collect();
        let pts = xs
            .iter()
            .enumerate()
            .map(|(i, x)| (i as f64, x.successes as f64 / x.runs.max(1) as f64))
            .collect();
        let bars = xs.iter().map(|x| (x.ci_low, x.ci_high)).collect();
        rate.push(
            Series::new(label.clone(), pts, Marker::nth(a))
                .color(a)
                .error_bars(bars),
        );
        let e = xs
            .iter()
            .enumerate()
            .map(|(i, x)| (i as f64, x.ert_seconds))
            .collect();
        let none: Vec<f64> = xs
            .iter()
            .enumerate()
            .filter(|(_, x)| x.successes == 0)
            .map(|(i, _)| i as f64)
            .collect();
        ert.push(
            Series::new(label.clone(), e, Marker::nth(a))
                .color(a)
                .band(super::survival_charts::ert_band(
                    data,
                    surv,
                    a,
                    Unit::Seconds,
                ))
                .missing(none, "no run solved (no ERT)"),
        );
    }
    let chart = |title: &str, y: &str, series, log_y, y_max| LineChart {
        title: crate::reports::quick::title(title),
        x_label: "puzzle set".into(),
        y_label: y.into(),
        x: XAxis::Categories(names.clone()),
        y_min: if log_y { None } else { Some(0.0) },
        y_max,
        log_y,
        log_x: false,
        series,
    };
    let (svg, png) = paths(dir, "compare-success");
    let c = chart(
        "Success rate with Wilson 95 % intervals",
        "success rate",
        rate,
        false,
        Some(1.0),
    );
    crate::reports::warnings::chart(&svg, &png, render(&c, 1100, 560, &svg, &png))?;
    let (svg, png) = paths(dir, "compare-ert");
    let c = chart(
        &format!(
            "ERT ({} of all runs / successes), 95 % bootstrap band",
            data.clock.words()
        ),
        &format!("ERT ({})", data.clock.short()),
        ert,
        true,
        None,
    );
    crate::reports::warnings::chart(&svg, &png, render(&c, 1100, 560, &svg, &png))
}

fn budget(data: &Data, dir: &Path) -> Result<()> {
    let budgets = cd::fixed_budgets(data);
    let series = (0..data.algorithms.len())
        .map(|a| BoxSeries {
            name: data.algorithms[a].clone(),
            values: budgets.iter().map(|&b| penalties_at(data, a, b)).collect(),
            color: Some(a),
        })
        .collect();
    let chart = BoxChart {
        title: crate::reports::quick::title(
            "Best penalty so far after a fixed budget (all puzzles)",
        ),
        x_label: "evaluations".into(),
        y_label: "values missing from rows, columns, boxes".into(),
        categories: budgets.iter().map(|&b| format!("{b}")).collect(),
        y_min: Some(0.0),
        y_max: None,
        log_y: false,
        series,
    };
    let (svg, png) = paths(dir, "compare-budget");
    crate::reports::warnings::chart(&svg, &png, render_boxes(&chart, 1200, 560, &svg, &png))
}

fn cd_diagram(data: &Data, t: &Friedman, dir: &Path) -> Result<()> {
    let k = t.algorithms.len();
    let at = |a: usize| t.algorithms.iter().position(|&x| x == a).unwrap_or(0);
    // Not different: Holm-adjusted Wilcoxon p >= 0.05.
    let mut same = vec![vec![true; k]; k];
    for p in &t.posthoc {
        let s = p.holm >= 0.05;
        same[at(p.a)][at(p.b)] = s;
        same[at(p.b)][at(p.a)] = s;
    }
    let cliques = lab_stats::cd_cliques_from_matrix(&t.avg_ranks, &same)?;
    let d = CdDiagram {
        title: crate::reports::quick::title_line(format!(
            "Average ranks by ERT in {} over {} puzzles",
            t.unit.words(data.clock),
            t.puzzles
        )),
        names: t.algorithms.iter().map(|&a| data.algorithms[a].clone()).collect(),
        avg_ranks: t.avg_ranks.clone(),
        cd: t.nemenyi_cd,
        cliques,
        caption: format!(
            "Friedman {}; bars: no significant difference (Wilcoxon signed-rank, Holm, 5 %); CD: Nemenyi at 5 %",
            super::report::p_is(t.p)
        ),
    };
    let width = 1000;
    let name = super::report::cd_chart_name(data, t);
    let (svg, png) = paths(dir, &name);
    let drawn = (d.fitting_height(width)).and_then(|h| render_cd(&d, width, h, &svg, &png));
    crate::reports::warnings::chart(&svg, &png, drawn)
}

//! RESEDA Tables 1 and 2 as charts: success and mean rounds of successful runs against alpha,
//! one line per strategy, ours and the paper's.

use crate::report::{Group, PublishedRow};
use crate::spec::Spec;
use anyhow::{Context, Result};
use lab_charts::{render_panels, LineChart, Marker, Series, XAxis};
use std::path::Path;

fn param_f64(t: &toml::Table, key: &str) -> Option<f64> {
    t.get(key)
        .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
}

/// Draw `alpha.svg/png` for a spec whose algorithms differ by `alpha` and `strategy`.
pub fn draw(spec: &Spec, g: &[Vec<Group>], published: &[PublishedRow], dir: &Path) -> Result<()> {
    // (strategy, alpha, algorithm index)
    let mut points: Vec<(String, f64, usize)> = Vec::new();
    for (a, alg) in spec.algorithms.iter().enumerate() {
        let alpha = param_f64(&alg.params, "alpha").unwrap_or(0.7);
        let strategy = alg
            .params
            .get("strategy")
            .and_then(|v| v.as_str())
            .unwrap_or("both")
            .to_string();
        points.push((strategy, alpha, a));
    }
    let mut strategies: Vec<String> = points.iter().map(|p| p.0.clone()).collect();
    strategies.dedup();
    strategies.sort();
    strategies.dedup();
    let markers = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Diamond,
        Marker::Cross,
    ];
    let mut success = Vec::new();
    let mut rounds = Vec::new();
    for (k, s) in strategies.iter().enumerate() {
        let mut ours: Vec<(f64, f64, f64, f64, f64)> = Vec::new(); // alpha, ours rate, ours rounds, paper rate, paper rounds
        for (_, alpha, a) in points.iter().filter(|p| &p.0 == s) {
            let x = &g[*a][0];
            let rate = x.successes as f64 / x.runs.max(1) as f64 * 100.0;
            let r = x.generations().map_or(f64::NAN, |s| s.mean);
            let paper = published.iter().find(|row| {
                Some(row.algorithm.as_str()) == spec.algorithms[*a].paper_label.as_deref()
            });
            let prate = paper
                .and_then(|p| Some(p.count? as f64 / p.runs? as f64 * 100.0))
                .unwrap_or(f64::NAN);
            let prounds = paper.and_then(|p| p.average).unwrap_or(f64::NAN);
            ours.push((*alpha, rate, r, prate, prounds));
        }
        ours.sort_by(|a, b| a.0.total_cmp(&b.0));
        let m = markers[k % markers.len()];
        let pm = markers[(k + 3) % markers.len()];
        success.push(Series {
            name: format!("{s} (sudoku-lab)"),
            points: ours.iter().map(|p| (p.0, p.1)).collect(),
            marker: m,
            ..Default::default()
        });
        success.push(Series {
            name: format!("{s} (paper)"),
            points: ours.iter().map(|p| (p.0, p.3)).collect(),
            marker: pm,
            ..Default::default()
        });
        rounds.push(Series {
            name: format!("{s} (sudoku-lab)"),
            points: ours.iter().map(|p| (p.0, p.2)).collect(),
            marker: m,
            ..Default::default()
        });
        rounds.push(Series {
            name: format!("{s} (paper)"),
            points: ours.iter().map(|p| (p.0, p.4)).collect(),
            marker: pm,
            ..Default::default()
        });
    }
    let (lo, hi) = points
        .iter()
        .fold((1.0f64, 0.0f64), |(l, h), p| (l.min(p.1), h.max(p.1)));
    let x = XAxis::Numeric {
        min: (lo - 0.05).max(0.0),
        max: (hi + 0.05).min(1.0),
    };
    let panels = [
        LineChart {
            title: "success (% of runs)".into(),
            x_label: "alpha".into(),
            y_label: "% successful".into(),
            x: x.clone(),
            y_min: Some(0.0),
            y_max: Some(105.0),
            log_y: false,
            log_x: false,
            series: success,
        },
        LineChart {
            title: "rounds of successful runs (mean)".into(),
            x_label: "alpha".into(),
            y_label: "rounds".into(),
            x,
            y_min: None,
            y_max: None,
            log_y: true,
            log_x: false,
            series: rounds,
        },
    ];
    render_panels(
        &panels,
        2,
        1400,
        560,
        &dir.join("alpha.svg"),
        &dir.join("alpha.png"),
    )
    .context("cannot draw alpha chart")
}

/// Success (% of runs) and time per run, ours against the paper's, for reports of variants
/// ("ablation"): `by = "variant"` puts the algorithms on the x axis (one line per puzzle
/// label), `by = "puzzle"` the puzzle labels (one line per algorithm). Times are drawn on a
/// log scale, since ours and the paper's differ by a machine factor.
pub fn draw_success(
    spec: &Spec,
    g: &[Vec<Group>],
    published: &[PublishedRow],
    by_variant: bool,
    dir: &Path,
) -> Result<()> {
    let labels: Vec<String> = if by_variant {
        spec.algorithms.iter().map(|a| a.label.clone()).collect()
    } else {
        spec.puzzles.iter().map(|p| p.label().to_string()).collect()
    };
    let lines: Vec<usize> = if by_variant {
        (0..spec.puzzles.len()).collect()
    } else {
        (0..spec.algorithms.len()).collect()
    };
    let markers = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Diamond,
        Marker::Cross,
    ];
    let mut success = Vec::new();
    let mut time = Vec::new();
    for (k, &line) in lines.iter().enumerate() {
        let mut ours_s = Vec::new();
        let mut paper_s = Vec::new();
        let mut ours_t = Vec::new();
        let mut paper_t = Vec::new();
        for x in 0..labels.len() {
            let (a, p) = if by_variant { (x, line) } else { (line, x) };
            let grp = &g[a][p];
            let row = published.iter().find(|r| {
                r.level == spec.puzzles[p].label()
                    && Some(r.algorithm.as_str()) == spec.algorithms[a].paper_label.as_deref()
            });
            let xf = x as f64;
            ours_s.push((xf, grp.successes as f64 / grp.runs.max(1) as f64 * 100.0));
            paper_s.push((
                xf,
                row.and_then(|r| Some(r.count? as f64 / r.runs? as f64 * 100.0))
                    .unwrap_or(f64::NAN),
            ));
            let t = grp.total_wall_ms / grp.runs.max(1) as f64 / 1e3;
            ours_t.push((xf, if t > 0.0 { t } else { f64::NAN }));
            paper_t.push((xf, row.and_then(|r| r.time_s).unwrap_or(f64::NAN)));
        }
        let name = if by_variant {
            spec.puzzles[line].label().to_string()
        } else {
            spec.algorithms[line].label.clone()
        };
        let (m, pm) = (markers[k % markers.len()], markers[(k + 2) % markers.len()]);
        success.push(Series {
            name: format!("{name} (sudoku-lab)"),
            points: ours_s,
            marker: m,
            ..Default::default()
        });
        success.push(Series {
            name: format!("{name} (paper)"),
            points: paper_s,
            marker: pm,
            ..Default::default()
        });
        time.push(Series {
            name: format!("{name} (sudoku-lab)"),
            points: ours_t,
            marker: m,
            ..Default::default()
        });
        time.push(Series {
            name: format!("{name} (paper)"),
            points: paper_t,
            marker: pm,
            ..Default::default()
        });
    }
    let mut panels = vec![LineChart {
        title: "success (% of runs)".into(),
        x_label: if by_variant {
            "configuration"
        } else {
            "puzzle"
        }
        .into(),
        y_label: "% successful".into(),
        x: XAxis::Categories(labels.clone()),
        y_min: Some(0.0),
        y_max: Some(105.0),
        log_y: false,
        log_x: false,
        series: success,
    }];
    if time
        .iter()
        .any(|s| s.name.ends_with("(paper)") && s.points.iter().any(|p| p.1.is_finite()))
    {
        panels.push(LineChart {
            title: "time per run, seconds (paper: Core 2 Duo 2.66 GHz)".into(),
            x_label: if by_variant {
                "configuration"
            } else {
                "puzzle"
            }
            .into(),
            y_label: "seconds".into(),
            x: XAxis::Categories(labels),
            y_min: None,
            y_max: None,
            log_y: true,
            log_x: false,
            series: time,
        });
    }
    let columns = panels.len();
    render_panels(
        &panels,
        columns,
        700 * columns as u32,
        560,
        &dir.join("success.svg"),
        &dir.join("success.png"),
    )
    .context("cannot draw the success chart")
}

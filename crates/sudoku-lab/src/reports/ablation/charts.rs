//! The charts of the ablation report: RESEDA Tables 1 and 2 as success and mean rounds of
//! successful runs against alpha, one line per strategy ([`draw`]); success and time per run by
//! variant or by puzzle ([`draw_success`]); ours and the paper's.

use crate::reports::groups::{Group, PublishedRow};
use crate::spec::Spec;
use anyhow::{Context, Result};
use lab_charts::{render_panels, LineChart, Marker, Series, XAxis};
use std::path::Path;

/// The legend entry of a mark drawn where a series has no value because no run solved.
pub const NO_RUN_SOLVED: &str = "no run solved (no mean)";

/// Successes, runs and mean rounds of successful runs.
type Ours = (u64, u64, f64);
/// The paper's count and runs (where published) and mean rounds.
type Paper = (Option<u64>, Option<u64>, f64);

/// Success in % of runs, NaN when unknown.
fn rate(successes: Option<u64>, runs: Option<u64>) -> f64 {
    match (successes, runs) {
        (Some(s), Some(n)) if n > 0 => s as f64 / n as f64 * 100.0,
        _ => f64::NAN,
    }
}

/// The Wilson 95 % score interval in %, NaN when unknown.
fn wilson(successes: Option<u64>, runs: Option<u64>) -> (f64, f64) {
    match (successes, runs) {
        (Some(s), Some(n)) if n > 0 && s <= n => {
            let (lo, hi) = lab_stats::wilson_interval(s, n, 1.959_964);
            (100.0 * lo, 100.0 * hi)
        }
        _ => (f64::NAN, f64::NAN),
    }
}

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
    // Ours and the paper's of a strategy share a colour; the paper's line is dashed.
    for (k, s) in strategies.iter().enumerate() {
        // alpha, ours (successes, runs, mean rounds), the paper's (count, runs, mean rounds)
        let mut rows: Vec<(f64, Ours, Paper)> = Vec::new();
        for (_, alpha, a) in points.iter().filter(|p| &p.0 == s) {
            let x = &g[*a][0];
            let r = x.generations().map_or(f64::NAN, |s| s.mean);
            let paper = published.iter().find(|row| {
                Some(row.algorithm.as_str()) == spec.algorithms[*a].paper_label.as_deref()
            });
            let prounds = paper.and_then(|p| p.average).unwrap_or(f64::NAN);
            rows.push((
                *alpha,
                (x.successes, x.runs, r),
                (
                    paper.and_then(|p| p.count),
                    paper.and_then(|p| p.runs),
                    prounds,
                ),
            ));
        }
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        let m = markers[k % markers.len()];
        let pm = markers[(k + 3) % markers.len()];
        let ours_rate: Vec<(f64, f64)> = rows
            .iter()
            .map(|r| (r.0, rate(Some(r.1 .0), Some(r.1 .1))))
            .collect();
        let paper_rate: Vec<(f64, f64)> =
            rows.iter().map(|r| (r.0, rate(r.2 .0, r.2 .1))).collect();
        success.push(
            Series::new(format!("{s} (sudoku-lab)"), ours_rate, m)
                .color(k)
                .error_bars(
                    rows.iter()
                        .map(|r| wilson(Some(r.1 .0), Some(r.1 .1)))
                        .collect(),
                ),
        );
        success.push(
            Series::new(format!("{s} (paper)"), paper_rate, pm)
                .color(k)
                .dashed()
                .error_bars(rows.iter().map(|r| wilson(r.2 .0, r.2 .1)).collect()),
        );
        rounds.push(
            Series::new(
                format!("{s} (sudoku-lab)"),
                rows.iter().map(|r| (r.0, r.1 .2)).collect(),
                m,
            )
            .color(k)
            .missing(
                rows.iter().filter(|r| r.1 .0 == 0).map(|r| r.0).collect(),
                NO_RUN_SOLVED,
            ),
        );
        rounds.push(
            Series::new(
                format!("{s} (paper)"),
                rows.iter().map(|r| (r.0, r.2 .2)).collect(),
                pm,
            )
            .color(k)
            .dashed()
            .missing(
                rows.iter()
                    .filter(|r| r.2 .0 == Some(0))
                    .map(|r| r.0)
                    .collect(),
                NO_RUN_SOLVED,
            ),
        );
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
            title: crate::reports::quick::title("success (% of runs, Wilson 95 % interval)"),
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
            title: crate::reports::quick::title("rounds of successful runs (mean)"),
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
    // Ours and the paper's of a line share a colour; the paper's line is dashed.
    for (k, &line) in lines.iter().enumerate() {
        let mut ours_s = Vec::new();
        let mut paper_s = Vec::new();
        let mut ours_b = Vec::new();
        let mut paper_b = Vec::new();
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
            ours_s.push((xf, rate(Some(grp.successes), Some(grp.runs))));
            ours_b.push(wilson(Some(grp.successes), Some(grp.runs)));
            let (count, runs) = (row.and_then(|r| r.count), row.and_then(|r| r.runs));
            paper_s.push((xf, rate(count, runs)));
            paper_b.push(wilson(count, runs));
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
        success.push(
            Series::new(format!("{name} (sudoku-lab)"), ours_s, m)
                .color(k)
                .error_bars(ours_b),
        );
        success.push(
            Series::new(format!("{name} (paper)"), paper_s, pm)
                .color(k)
                .dashed()
                .error_bars(paper_b),
        );
        time.push(Series::new(format!("{name} (sudoku-lab)"), ours_t, m).color(k));
        time.push(
            Series::new(format!("{name} (paper)"), paper_t, pm)
                .color(k)
                .dashed(),
        );
    }
    let mut panels = vec![LineChart {
        title: crate::reports::quick::title("success (% of runs, Wilson 95 % interval)"),
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
            title: crate::reports::quick::title(
                "time per run, seconds (paper: Core 2 Duo 2.66 GHz)",
            ),
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

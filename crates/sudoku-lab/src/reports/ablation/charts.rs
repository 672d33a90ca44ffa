//! The charts of the ablation report: RESEDA Tables 1 and 2 as success and mean rounds of
//! successful runs against alpha, one line per strategy ([`draw`]); success and time per run by
//! variant or by puzzle ([`draw_success`]); ours and the paper's.

use crate::reports::groups::{Group, PublishedRow};
use crate::spec::Spec;
use anyhow::Result;
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

/// The markers of the lines, taken in turn; a line's paper series takes another one.
const MARKERS: [Marker; 7] = Marker::ALL;

/// How the `k`-th line of a chart is drawn: ours and the paper's share a colour; the paper's
/// is dashed, with the marker `paper_shift` places further in [`MARKERS`].
struct LineStyle {
    colour: usize,
    ours: Marker,
    paper: Marker,
}

impl LineStyle {
    /// The style of the `k`-th line.
    fn new(k: usize, paper_shift: usize) -> LineStyle {
        LineStyle {
            colour: k,
            ours: MARKERS[k % MARKERS.len()],
            paper: MARKERS[(k + paper_shift) % MARKERS.len()],
        }
    }

    /// The series "`name` (sudoku-lab)" of `ours` and "`name` (paper)" of `paper`, in this
    /// style (callers add error bars or missing marks).
    fn pair(&self, name: &str, ours: Vec<(f64, f64)>, paper: Vec<(f64, f64)>) -> [Series; 2] {
        [
            Series::new(format!("{name} (sudoku-lab)"), ours, self.ours).color(self.colour),
            Series::new(format!("{name} (paper)"), paper, self.paper)
                .color(self.colour)
                .dashed(),
        ]
    }
}

/// The success panel of both charts: % of runs with Wilson bars, from 0 to 105 %.
fn success_panel(x_label: &str, x: XAxis, series: Vec<Series>) -> LineChart {
    LineChart {
        title: crate::reports::quick::title("success (% of runs, Wilson 95 % interval)"),
        x_label: x_label.into(),
        y_label: "% successful".into(),
        x,
        y_min: Some(0.0),
        y_max: Some(105.0),
        log_y: false,
        log_x: false,
        series,
    }
}

/// One algorithm of an alpha chart: its strategy, its alpha and its index in the spec.
struct AlphaPoint {
    strategy: String,
    alpha: f64,
    alg: usize,
}

/// One alpha of a strategy: ours and the paper's at it.
struct AlphaRow {
    alpha: f64,
    ours: Ours,
    paper: Paper,
}

/// Draw `alpha.svg/png` for a spec whose algorithms differ by `alpha` and `strategy`.
pub fn draw(spec: &Spec, g: &[Vec<Group>], published: &[PublishedRow], dir: &Path) -> Result<()> {
    let points = alpha_points(spec);
    let mut success = Vec::new();
    let mut rounds = Vec::new();
    for (k, s) in strategies(&points).iter().enumerate() {
        let rows = alpha_rows(spec, g, published, &points, s);
        let style = LineStyle::new(k, 3);
        success.extend(alpha_success_series(s, &style, &rows));
        rounds.extend(alpha_rounds_series(s, &style, &rows));
    }
    render_alpha(success, rounds, alpha_axis(&points), dir)
}

/// The strategy and alpha of every algorithm (`both` and 0.7 where the spec sets none).
fn alpha_points(spec: &Spec) -> Vec<AlphaPoint> {
    spec.algorithms
        .iter()
        .enumerate()
        .map(|(a, alg)| AlphaPoint {
            strategy: alg
                .params
                .get("strategy")
                .and_then(|v| v.as_str())
                .unwrap_or("both")
                .to_string(),
            alpha: param_f64(&alg.params, "alpha").unwrap_or(0.7),
            alg: a,
        })
        .collect()
}

/// The strategies, sorted, each once: one line each.
fn strategies(points: &[AlphaPoint]) -> Vec<String> {
    let mut strategies: Vec<String> = points.iter().map(|p| p.strategy.clone()).collect();
    strategies.dedup();
    strategies.sort();
    strategies.dedup();
    strategies
}

/// Ours and the paper's at every alpha of `strategy` (our first puzzle; the paper's row of the
/// algorithm's paper label), by increasing alpha.
fn alpha_rows(
    spec: &Spec,
    g: &[Vec<Group>],
    published: &[PublishedRow],
    points: &[AlphaPoint],
    strategy: &str,
) -> Vec<AlphaRow> {
    let mut rows: Vec<AlphaRow> = Vec::new();
    for p in points.iter().filter(|p| p.strategy == strategy) {
        let x = &g[p.alg][0];
        let r = x.generations().map_or(f64::NAN, |s| s.mean);
        let paper = published.iter().find(|row| {
            Some(row.algorithm.as_str()) == spec.algorithms[p.alg].paper_label.as_deref()
        });
        let prounds = paper.and_then(|p| p.average).unwrap_or(f64::NAN);
        rows.push(AlphaRow {
            alpha: p.alpha,
            ours: (x.successes, x.runs, r),
            paper: (
                paper.and_then(|p| p.count),
                paper.and_then(|p| p.runs),
                prounds,
            ),
        });
    }
    rows.sort_by(|a, b| a.alpha.total_cmp(&b.alpha));
    rows
}

/// Success against alpha of one strategy, ours and the paper's, with Wilson bars.
fn alpha_success_series(name: &str, style: &LineStyle, rows: &[AlphaRow]) -> [Series; 2] {
    let ours_rate: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| (r.alpha, rate(Some(r.ours.0), Some(r.ours.1))))
        .collect();
    let paper_rate: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| (r.alpha, rate(r.paper.0, r.paper.1)))
        .collect();
    let [ours, paper] = style.pair(name, ours_rate, paper_rate);
    [
        ours.error_bars(
            rows.iter()
                .map(|r| wilson(Some(r.ours.0), Some(r.ours.1)))
                .collect(),
        ),
        paper.error_bars(rows.iter().map(|r| wilson(r.paper.0, r.paper.1)).collect()),
    ]
}

/// Mean rounds of successful runs against alpha of one strategy, ours and the paper's, with a
/// mark where no run solved.
fn alpha_rounds_series(name: &str, style: &LineStyle, rows: &[AlphaRow]) -> [Series; 2] {
    let [ours, paper] = style.pair(
        name,
        rows.iter().map(|r| (r.alpha, r.ours.2)).collect(),
        rows.iter().map(|r| (r.alpha, r.paper.2)).collect(),
    );
    [
        ours.missing(
            rows.iter()
                .filter(|r| r.ours.0 == 0)
                .map(|r| r.alpha)
                .collect(),
            NO_RUN_SOLVED,
        ),
        paper.missing(
            rows.iter()
                .filter(|r| r.paper.0 == Some(0))
                .map(|r| r.alpha)
                .collect(),
            NO_RUN_SOLVED,
        ),
    ]
}

/// The alpha axis: the alphas run, 0.05 more on each side, within 0 and 1.
fn alpha_axis(points: &[AlphaPoint]) -> XAxis {
    let (lo, hi) = points.iter().fold((1.0f64, 0.0f64), |(l, h), p| {
        (l.min(p.alpha), h.max(p.alpha))
    });
    XAxis::Numeric {
        min: (lo - 0.05).max(0.0),
        max: (hi + 0.05).min(1.0),
    }
}

/// The alpha chart's two panels, success and rounds (log scale), into `alpha.svg/png`.
fn render_alpha(success: Vec<Series>, rounds: Vec<Series>, x: XAxis, dir: &Path) -> Result<()> {
    let panels = [
        success_panel("alpha", x.clone(), success),
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
    let (svg, png) = (dir.join("alpha.svg"), dir.join("alpha.png"));
    crate::reports::warnings::chart(&svg, &png, render_panels(&panels, 2, 1400, 560, &svg, &png))
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
    let lines = if by_variant {
        spec.puzzles.len()
    } else {
        spec.algorithms.len()
    };
    let mut success = Vec::new();
    let mut time = Vec::new();
    for line in 0..lines {
        let v = LineValues::new(spec, g, published, by_variant, line, labels.len());
        let name = if by_variant {
            spec.puzzles[line].label().to_string()
        } else {
            spec.algorithms[line].label.clone()
        };
        let style = LineStyle::new(line, 2);
        let [ours, paper] = style.pair(&name, v.ours_rate, v.paper_rate);
        success.push(ours.error_bars(v.ours_bars));
        success.push(paper.error_bars(v.paper_bars));
        time.extend(style.pair(&name, v.ours_time, v.paper_time));
    }
    let x_label = if by_variant {
        "configuration"
    } else {
        "puzzle"
    };
    let labels_len = labels.len();
    let mut panels = vec![success_panel(
        x_label,
        XAxis::Categories(labels.clone()),
        success,
    )];
    if paper_times_known(&time) {
        panels.push(time_panel(x_label, labels, time));
    }
    let columns = panels.len();
    let (svg, png) = (dir.join("success.svg"), dir.join("success.png"));
    let width = panel_width(labels_len) * columns as u32;
    let drawn = render_panels(&panels, columns, width, 560, &svg, &png);
    crate::reports::warnings::chart(&svg, &png, drawn)
}

/// The width of one panel of the success chart: 700 px, wider with more than ten categories,
/// so that every category keeps its label (the axis thins out labels that would touch).
fn panel_width(categories: usize) -> u32 {
    match categories {
        0..=10 => 700,
        n => 440 + 50 * n as u32,
    }
}

/// The values of one line of the success chart at every x position: success rates with their
/// Wilson bars and times per run, ours and the paper's.
struct LineValues {
    ours_rate: Vec<(f64, f64)>,
    paper_rate: Vec<(f64, f64)>,
    ours_bars: Vec<(f64, f64)>,
    paper_bars: Vec<(f64, f64)>,
    ours_time: Vec<(f64, f64)>,
    paper_time: Vec<(f64, f64)>,
}

impl LineValues {
    /// Line `line` (a puzzle when `by_variant`, else an algorithm) at the `positions` x
    /// positions (the algorithms when `by_variant`, else the puzzles).
    fn new(
        spec: &Spec,
        g: &[Vec<Group>],
        published: &[PublishedRow],
        by_variant: bool,
        line: usize,
        positions: usize,
    ) -> LineValues {
        let mut v = LineValues {
            ours_rate: Vec::new(),
            paper_rate: Vec::new(),
            ours_bars: Vec::new(),
            paper_bars: Vec::new(),
            ours_time: Vec::new(),
            paper_time: Vec::new(),
        };
        for x in 0..positions {
            let (a, p) = if by_variant { (x, line) } else { (line, x) };
            let grp = &g[a][p];
            let row = published.iter().find(|r| {
                r.level == spec.puzzles[p].label()
                    && Some(r.algorithm.as_str()) == spec.algorithms[a].paper_label.as_deref()
            });
            let xf = x as f64;
            v.ours_rate
                .push((xf, rate(Some(grp.successes), Some(grp.runs))));
            v.ours_bars
                .push(wilson(Some(grp.successes), Some(grp.runs)));
            let (count, runs) = (row.and_then(|r| r.count), row.and_then(|r| r.runs));
            v.paper_rate.push((xf, rate(count, runs)));
            v.paper_bars.push(wilson(count, runs));
            let t = grp.total_wall_ms / grp.runs.max(1) as f64 / 1e3;
            v.ours_time.push((xf, if t > 0.0 { t } else { f64::NAN }));
            v.paper_time
                .push((xf, row.and_then(|r| r.time_s).unwrap_or(f64::NAN)));
        }
        v
    }
}

/// Whether the paper prints a time for any point: the time panel is drawn only then.
fn paper_times_known(time: &[Series]) -> bool {
    time.iter()
        .any(|s| s.name.ends_with("(paper)") && s.points.iter().any(|p| p.1.is_finite()))
}

/// The time panel of the success chart: seconds per run on a log scale.
fn time_panel(x_label: &str, labels: Vec<String>, series: Vec<Series>) -> LineChart {
    LineChart {
        title: crate::reports::quick::title("time per run, seconds (paper: Core 2 Duo 2.66 GHz)"),
        x_label: x_label.into(),
        y_label: "seconds".into(),
        x: XAxis::Categories(labels),
        y_min: None,
        y_max: None,
        log_y: true,
        log_x: false,
        series,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The alpha chart's three strategies (ours and the paper's: six series, paper shifted by
    /// three) each get their own marker.
    #[test]
    fn the_alpha_charts_six_series_have_six_markers() {
        let mut seen: Vec<Marker> = (0..3)
            .flat_map(|k| {
                let s = LineStyle::new(k, 3);
                [s.ours, s.paper]
            })
            .collect();
        seen.sort_by_key(|m| format!("{m:?}"));
        seen.dedup();
        assert_eq!(seen.len(), 6, "{seen:?}");
    }
}

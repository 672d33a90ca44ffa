//! The charts of the Table 1 report: Fig. 7 (minimum, maximum and average generations per
//! level, GA against Ret-GA, ours and the paper's) and Fig. 8 (the performance index against
//! w, three weightings).

use super::data::{w_grid, CASES};
use crate::reports::ablation::charts::NO_RUN_SOLVED;
use crate::reports::groups::{Group, PublishedRow};
use crate::spec::Spec;
use anyhow::Result;
use lab_charts::{LineChart, Marker, Series, XAxis};
use lab_stats::Summary;
use std::path::Path;

/// One source of Fig. 8: its PI curves `[case][GA, Ret-GA][w]`, the names of its two series,
/// their markers, and whether it is the paper's (drawn dashed).
pub struct Fig8Source<'a> {
    pub curves: &'a [Vec<Vec<f64>>],
    pub names: [String; 2],
    pub markers: [Marker; 2],
    pub paper: bool,
}

/// Fig. 8: PI against w, three panels, the paper's curves and ours overlaid: each algorithm
/// keeps its colour (as in Fig. 7), the paper's dashed, ours solid, one marker per
/// source. The PI of each source is normalised within that source (eq. (7) of `002`), so each
/// pair of curves is read against its own pair, not across sources.
pub fn fig8(dir: &Path, stem: &str, sources: &[Fig8Source]) -> Result<()> {
    let grid = w_grid();
    let ws = &grid;
    let panels: Vec<LineChart> = CASES
        .iter()
        .enumerate()
        .map(|(ci, (_, title))| LineChart {
            title: crate::reports::quick::title(format!("{title}: paper dashed, ours solid")),
            x_label: "w".into(),
            y_label: "PI".into(),
            x: XAxis::Numeric { min: 0.0, max: 1.0 },
            y_min: Some(0.0),
            y_max: Some(1.0),
            log_y: false,
            log_x: false,
            series: sources
                .iter()
                .flat_map(|src| {
                    (0..2).map(move |a| {
                        let points = ws.iter().zip(&src.curves[ci][a]).map(|(&x, &y)| (x, y));
                        let s = Series::new(src.names[a].clone(), points.collect(), src.markers[a])
                            .color(2 * a);
                        if src.paper {
                            s.dashed()
                        } else {
                            s
                        }
                    })
                })
                .collect(),
        })
        .collect();
    let (svg, png) = (
        dir.join(format!("{stem}.svg")),
        dir.join(format!("{stem}.png")),
    );
    crate::reports::warnings::chart(
        &svg,
        &png,
        lab_charts::render_panels(&panels, 3, 1800, 560, &svg, &png),
    )
}

/// One panel of Fig. 7: its title and the statistic it shows, read from a row of the paper's
/// table and from the summary of our successful runs.
struct Fig7Panel {
    title: &'static str,
    paper: fn(&PublishedRow) -> f64,
    ours: fn(&Summary) -> f64,
}

/// The panels of Fig. 7, left to right.
const FIG7_PANELS: [Fig7Panel; 3] = [
    Fig7Panel {
        title: "(a) minimum generations",
        paper: |r| r.minimum.unwrap_or(f64::NAN),
        ours: |s| s.min,
    },
    Fig7Panel {
        title: "(b) maximum generations",
        paper: |r| r.maximum.unwrap_or(f64::NAN),
        ours: |s| s.max,
    },
    Fig7Panel {
        title: "(c) average generations",
        paper: |r| r.average.unwrap_or(f64::NAN),
        ours: |s| s.mean,
    },
];

/// Fig. 7: (a) minimum, (b) maximum, (c) average generations per puzzle, GA against Ret-GA,
/// ours and the paper's.
pub fn fig7(
    dir: &Path,
    spec: &Spec,
    g: &[Vec<Group>],
    published: &[PublishedRow],
    levels: &[String],
) -> Result<()> {
    let fig = Fig7 {
        spec,
        g,
        published,
        levels,
    };
    let panels: Vec<LineChart> = FIG7_PANELS.iter().map(|p| fig.panel(p)).collect();
    let (svg, png) = (dir.join("fig7.svg"), dir.join("fig7.png"));
    crate::reports::warnings::chart(
        &svg,
        &png,
        lab_charts::render_panels(&panels, 3, 1800, 560, &svg, &png),
    )
}

/// What the series of Fig. 7 are drawn from: the spec, our runs, the paper's table and its
/// levels (the x axis).
struct Fig7<'a> {
    spec: &'a Spec,
    g: &'a [Vec<Group>],
    published: &'a [PublishedRow],
    levels: &'a [String],
}

impl Fig7<'_> {
    /// One panel: for GA, then Ret-GA, the paper's series, then ours. Ours and the paper's of
    /// an algorithm share a colour; the paper's is dashed.
    fn panel(&self, panel: &Fig7Panel) -> LineChart {
        let mut series = Vec::new();
        for (k, label) in ["GA", "Ret-GA"].iter().enumerate() {
            series.push(self.paper_series(panel, k, label));
            series.extend(self.our_series(panel, k, label));
        }
        LineChart {
            title: crate::reports::quick::title(panel.title),
            x_label: "puzzle".into(),
            y_label: "generations".into(),
            x: XAxis::Categories(self.levels.to_vec()),
            y_min: Some(0.0),
            y_max: None,
            log_y: false,
            log_x: false,
            series,
        }
    }

    /// The paper's column `label` (the `k`-th algorithm), with a mark at the levels where
    /// none of its runs solved.
    fn paper_series(&self, panel: &Fig7Panel, k: usize, label: &str) -> Series {
        let paper: Vec<(f64, f64)> = self
            .levels
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                self.published
                    .iter()
                    .find(|r| &r.level == l && r.algorithm == label)
                    .map(|r| (i as f64, (panel.paper)(r)))
            })
            .collect();
        let paper_none: Vec<f64> = self
            .levels
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                self.published
                    .iter()
                    .any(|r| &r.level == *l && r.algorithm == label && r.count == Some(0))
            })
            .map(|(i, _)| i as f64)
            .collect();
        Series::new(
            format!("{label} (paper)"),
            paper,
            if k == 0 {
                Marker::Diamond
            } else {
                Marker::Triangle
            },
        )
        .color(2 * k)
        .dashed()
        .missing(paper_none, NO_RUN_SOLVED)
    }

    /// Ours of the paper's column `label` (the `k`-th algorithm): one series per spec
    /// algorithm with that paper label, named by its own label when there are several.
    fn our_series(&self, panel: &Fig7Panel, k: usize, label: &str) -> Vec<Series> {
        let spec = self.spec;
        let ours_of: Vec<usize> = (0..spec.algorithms.len())
            .filter(|&a| spec.algorithms[a].paper_label.as_deref() == Some(label))
            .collect();
        let several = ours_of.len() > 1;
        ours_of
            .iter()
            .enumerate()
            .map(|(j, &a)| {
                Series::new(
                    if several {
                        format!("{label} {} (sudoku-lab)", spec.algorithms[a].label)
                    } else {
                        format!("{label} (sudoku-lab)")
                    },
                    self.our_points(panel, a),
                    match (k, j) {
                        (0, _) => Marker::Square,
                        (_, 0) => Marker::Circle,
                        _ => Marker::Cross,
                    },
                )
                .color(2 * k)
                .missing(self.none_solved(a), NO_RUN_SOLVED)
            })
            .collect()
    }

    /// The panel's statistic of algorithm `a` on the primary puzzle of every level (NaN where
    /// there is none or no run solved).
    fn our_points(&self, panel: &Fig7Panel, a: usize) -> Vec<(f64, f64)> {
        self.levels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let y = self
                    .primary_puzzle(l)
                    .and_then(|p| self.g[a][p].generations())
                    .map_or(f64::NAN, |s| (panel.ours)(&s));
                (i as f64, y)
            })
            .collect()
    }

    /// The x positions of the levels on whose primary puzzle no run of algorithm `a` solved.
    fn none_solved(&self, a: usize) -> Vec<f64> {
        self.levels
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                self.primary_puzzle(l)
                    .is_some_and(|p| self.g[a][p].successes == 0)
            })
            .map(|(i, _)| i as f64)
            .collect()
    }

    /// The spec puzzle taken as the paper's for level `l`.
    fn primary_puzzle(&self, l: &str) -> Option<usize> {
        self.spec
            .puzzles
            .iter()
            .position(|p| p.primary && p.label() == l)
    }
}

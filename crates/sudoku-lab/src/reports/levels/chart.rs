//! levels.png/.svg: (a) per-puzzle success rate, (b) per-puzzle average generations, by level;
//! the paper and each algorithm side by side around each level, a bar at each group's median.

use super::stats::{median, Measure};
use super::values::{PublishedLevel, PuzzleValue};
use crate::spec::Spec;
use anyhow::Result;
use lab_charts::{LineChart, Marker, Series, XAxis};
use std::path::Path;

/// The strip chart of both measures.
pub fn chart(
    spec: &Spec,
    levels: &[PublishedLevel],
    ours: &[Vec<Vec<PuzzleValue>>],
    out: &Path,
) -> Result<()> {
    let strips = Strips::new(spec, levels, ours);
    let x_label = strips.x_label();
    let charts = [
        strips.panel(
            levels,
            &x_label,
            Measure::SuccessRate,
            "(a) success rate per puzzle",
            "success rate (%)",
        ),
        strips.panel(
            levels,
            &x_label,
            Measure::Average,
            "(b) average generations of successful runs per puzzle",
            "average generations (log)",
        ),
    ];
    let charts: Vec<LineChart> = charts
        .into_iter()
        .map(|mut c| {
            if !c.log_y {
                c.y_label = c.y_label.replace(" (log)", "");
            }
            c
        })
        .collect();
    let (svg, png) = (out.join("levels.svg"), out.join("levels.png"));
    let drawn = lab_charts::render_panels(&charts, 2, 1400, 520, &svg, &png);
    crate::reports::warnings::chart(&svg, &png, drawn)
}

/// The value drawn for a puzzle: its success rate in %, or its average generations (NaN
/// without a success).
fn value(measure: Measure, p: &PuzzleValue) -> f64 {
    match measure {
        Measure::SuccessRate => 100.0 * p.rate(),
        Measure::Average => p.average.unwrap_or(f64::NAN),
    }
}

/// The sources of the strips (the paper, then each algorithm) and where each source's strip
/// of a level lies.
struct Strips<'a> {
    /// (name, per-level puzzle values) of each source.
    sources: Vec<(String, Vec<&'a [PuzzleValue]>)>,
    /// The width of one strip, in levels.
    width: f64,
}

impl<'a> Strips<'a> {
    fn new(spec: &Spec, levels: &'a [PublishedLevel], ours: &'a [Vec<Vec<PuzzleValue>>]) -> Self {
        let mut sources: Vec<(String, Vec<&[PuzzleValue]>)> = vec![(
            "paper (Das et al.)".into(),
            levels.iter().map(|l| l.puzzles.as_slice()).collect(),
        )];
        for (a, alg) in spec.algorithms.iter().enumerate() {
            sources.push((
                format!("ours: {}", alg.label),
                ours[a].iter().map(Vec::as_slice).collect(),
            ));
        }
        let k = sources.len() as f64;
        let width = 0.8 / k;
        Strips { sources, width }
    }

    /// The x axis names the sources in their order from left to right.
    fn x_label(&self) -> String {
        format!(
            "level; left to right: {}",
            self.sources
                .iter()
                .map(|s| s.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    /// The centre of source `s`'s strip at level `l`.
    fn centre(&self, s: usize, l: usize) -> f64 {
        let k = self.sources.len() as f64;
        l as f64 + (s as f64 - (k - 1.0) / 2.0) * self.width
    }

    /// Source `s`'s points at every level, and the median bars of its levels (each two points
    /// and a gap). Where a puzzle of a level has no value, the series marks the level.
    fn strip(&self, s: usize, measure: Measure) -> (Series, Vec<(f64, f64)>) {
        let gap = (f64::NAN, f64::NAN);
        let (name, by_level) = &self.sources[s];
        let mut points = Vec::new();
        let mut medians = Vec::new();
        // groups with a puzzle that has no value (no run solved it: no mean)
        let mut none = Vec::new();
        for (l, puzzles) in by_level.iter().enumerate() {
            if puzzles.iter().any(|p| !value(measure, p).is_finite()) {
                none.push(self.centre(s, l));
            }
            for (i, p) in puzzles.iter().enumerate() {
                // Spread the points of a group over a strip (golden-ratio sequence).
                let jitter = ((i as f64 + 0.5) * 0.618_034).fract() - 0.5;
                points.push((
                    self.centre(s, l) + 0.6 * self.width * jitter,
                    value(measure, p),
                ));
                points.push(gap);
            }
            let ys: Vec<f64> = puzzles
                .iter()
                .map(|p| value(measure, p))
                .filter(|y| y.is_finite())
                .collect();
            if let Some(m) = median(&ys) {
                medians.push((self.centre(s, l) - 0.45 * self.width, m));
                medians.push((self.centre(s, l) + 0.45 * self.width, m));
                medians.push(gap);
            }
        }
        let series = Series::new(name.clone(), points, Marker::nth(s))
            .color(s)
            .missing(none, "a puzzle no run solved (no mean)");
        (series, medians)
    }

    /// One panel: every source's strip, then the medians of all groups as one series.
    fn panel(
        &self,
        levels: &[PublishedLevel],
        x_label: &str,
        measure: Measure,
        title: &str,
        y_label: &str,
    ) -> LineChart {
        let mut series = Vec::new();
        let mut medians = Vec::new();
        for s in 0..self.sources.len() {
            let (strip, m) = self.strip(s, measure);
            series.push(strip);
            medians.extend(m);
        }
        if medians.is_empty() {
            medians.push((f64::NAN, f64::NAN));
        }
        series.push(Series {
            name: "median of each group".into(),
            points: medians,
            marker: Marker::Cross,
            ..Default::default()
        });
        let log_y = log_scale(measure, &series);
        LineChart {
            title: crate::reports::quick::title(title),
            x_label: x_label.to_string(),
            y_label: y_label.into(),
            x: XAxis::Categories(levels.iter().map(|l| l.label.clone()).collect()),
            // Success rates: a margin below 0 and above 100 so that points there stay visible.
            y_min: match (measure, log_y) {
                (Measure::SuccessRate, _) => Some(-4.0),
                (_, true) => None,
                (_, false) => Some(0.0),
            },
            y_max: (measure == Measure::SuccessRate).then_some(104.0),
            log_y,
            log_x: false,
            series,
        }
    }
}

/// Averages on a log axis when every drawn value is positive and some value is there at all;
/// success rates never.
fn log_scale(measure: Measure, series: &[Series]) -> bool {
    measure == Measure::Average
        && series
            .iter()
            .flat_map(|s| &s.points)
            .all(|p| !p.1.is_finite() || p.1 > 0.0)
        && series
            .iter()
            .flat_map(|s| &s.points)
            .any(|p| p.1.is_finite())
}

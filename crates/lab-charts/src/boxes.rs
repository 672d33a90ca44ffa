//! Box plots: categories on the x axis, one box per series and category,
//! the boxes of a category side by side.

use std::path::Path;

use crate::draw::{self, Prepared, PreparedBox};
use crate::scale::{self, Span};
use crate::{check_size, render_figure, ChartError, Panels};

/// One series of a [`BoxChart`]: `values[c]` are the observations of
/// category `c` (one entry per category; an empty one draws no box).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoxSeries {
    pub name: String,
    pub values: Vec<Vec<f64>>,
    /// Palette index instead of the series' position (see
    /// [`crate::Series::color`]).
    pub color: Option<usize>,
}

/// Box plots of several series over named categories (e.g. puzzle sets or
/// budgets).
///
/// Each box spans the first to the third quartile with a line at the
/// median ([type-7 quantiles](quantile_type7), R's default and what
/// ggplot2's `geom_boxplot` draws; R's `boxplot` uses Tukey's hinges
/// instead, which can differ slightly); the whiskers reach the most extreme
/// values within 1.5 times the interquartile range of the box, values beyond
/// are drawn as small circles. The statistics are those of the values
/// themselves, also with `log_y` (which only changes the axis; every value
/// must then be positive). The series of a category are drawn side by side
/// in series order; the legend lists the series with a non-empty name.
/// `y_min`/`y_max` fix ends of the y axis as in [`crate::LineChart`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoxChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub y_min: Option<f64>,
    pub y_max: Option<f64>,
    pub log_y: bool,
    pub series: Vec<BoxSeries>,
}

/// The five numbers and outliers of one box.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxStats {
    pub n: usize,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    /// The smallest value at or above `q1 - 1.5 * (q3 - q1)`.
    pub whisker_lo: f64,
    /// The largest value at or below `q3 + 1.5 * (q3 - q1)`.
    pub whisker_hi: f64,
    /// The values outside the whiskers, ascending.
    pub outliers: Vec<f64>,
}

impl BoxStats {
    /// The statistics of `values`; `None` if there are none or one is not
    /// finite.
    pub fn from_values(values: &[f64]) -> Option<BoxStats> {
        if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let q = |p: f64| quantile_sorted(&sorted, p);
        let (q1, median, q3) = (q(0.25), q(0.5), q(0.75));
        let iqr = q3 - q1;
        let (lo_fence, hi_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
        let inside = |v: &&f64| **v >= lo_fence && **v <= hi_fence;
        // q1 and q3 lie between values inside the fences, so both exist
        let whisker_lo = sorted.iter().find(inside).copied().unwrap_or(q1);
        let whisker_hi = sorted.iter().rev().find(inside).copied().unwrap_or(q3);
        let outliers = sorted.iter().filter(|v| !inside(v)).copied().collect();
        Some(BoxStats {
            n: sorted.len(),
            q1,
            median,
            q3,
            whisker_lo,
            whisker_hi,
            outliers,
        })
    }
}

/// The `p`-quantile of `values` as R's `quantile(x, p, type = 7)`: with the
/// values sorted, `h = (n - 1) p` and `x[floor h] + (h - floor h) (x[floor
/// h + 1] - x[floor h])` (0-based). `None` if `values` is empty, a value is
/// not finite or `p` is outside `[0, 1]`.
pub fn quantile_type7(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| !v.is_finite()) || !(0.0..=1.0).contains(&p) {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some(quantile_sorted(&sorted, p))
}

/// Type-7 quantile of non-empty ascending `sorted`, `p` in `[0, 1]`.
fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = (h.floor() as usize).min(sorted.len() - 1);
    let hi = (lo + 1).min(sorted.len() - 1);
    let g = h - lo as f64;
    if g == 0.0 {
        sorted[lo]
    } else {
        sorted[lo] + g * (sorted[hi] - sorted[lo])
    }
}

/// Share of a category's width taken by its group of boxes.
const GROUP_WIDTH: f64 = 0.8;
/// Share of a box's slot taken by the box itself.
const BOX_WIDTH: f64 = 0.75;

/// Draws `chart` as a `width` x `height` pixel SVG at `svg_path` and PNG at
/// `png_path`, both written atomically.
pub fn render_boxes(
    chart: &BoxChart,
    width: u32,
    height: u32,
    svg_path: &Path,
    png_path: &Path,
) -> Result<(), ChartError> {
    check_size(width, height, 1, 1)?;
    let prepared = prepare(chart)?;
    let figure = Panels {
        panels: vec![prepared],
        columns: 1,
    };
    render_figure(&figure, width, height, svg_path, png_path)
}

fn prepare(chart: &BoxChart) -> Result<Prepared<'_>, ChartError> {
    let invalid = |msg: String| ChartError::Invalid(format!("box chart {:?}: {msg}", chart.title));
    if chart.categories.is_empty() {
        return Err(invalid("it has no categories".to_string()));
    }
    if chart.series.is_empty() {
        return Err(invalid("it has no series".to_string()));
    }
    let n_cat = chart.categories.len();
    for s in &chart.series {
        if s.values.len() != n_cat {
            return Err(invalid(format!(
                "series {:?} has values for {} categories, the chart has {n_cat}",
                s.name,
                s.values.len()
            )));
        }
        for (c, vs) in s.values.iter().enumerate() {
            if let Some(v) = vs.iter().find(|v| !v.is_finite()) {
                return Err(invalid(format!(
                    "series {:?} has the value {v} in category {:?}",
                    s.name, chart.categories[c]
                )));
            }
            if chart.log_y {
                if let Some(v) = vs.iter().find(|&&v| v <= 0.0) {
                    return Err(invalid(format!(
                        "series {:?} has the value {v} in category {:?} but a log scale needs values > 0",
                        s.name, chart.categories[c]
                    )));
                }
            }
        }
    }
    for (name, v) in [("y_min", chart.y_min), ("y_max", chart.y_max)] {
        if let Some(v) = v {
            if !v.is_finite() {
                return Err(invalid(format!("{name} = {v} is not finite")));
            }
            if chart.log_y && v <= 0.0 {
                return Err(invalid(format!(
                    "{name} = {v} is not positive on a log scale"
                )));
            }
        }
    }
    let to_axis = |v: f64| if chart.log_y { v.log10() } else { v };
    let k = chart.series.len() as f64;
    let slot = GROUP_WIDTH / k;
    let mut boxes = Vec::new();
    let mut data: Option<(f64, f64)> = None;
    for (j, s) in chart.series.iter().enumerate() {
        let color = draw::palette(s.color.unwrap_or(j));
        for (c, vs) in s.values.iter().enumerate() {
            let Some(st) = BoxStats::from_values(vs) else {
                continue;
            };
            let (lo, hi) = (
                to_axis(
                    st.outliers
                        .first()
                        .map_or(st.whisker_lo, |&o| o.min(st.whisker_lo)),
                ),
                to_axis(
                    st.outliers
                        .last()
                        .map_or(st.whisker_hi, |&o| o.max(st.whisker_hi)),
                ),
            );
            data = Some(match data {
                None => (lo, hi),
                Some((a, b)) => (a.min(lo), b.max(hi)),
            });
            boxes.push(PreparedBox {
                x: c as f64 - 0.5 * GROUP_WIDTH + (j as f64 + 0.5) * slot,
                half: 0.5 * BOX_WIDTH * slot,
                whisker_lo: to_axis(st.whisker_lo),
                q1: to_axis(st.q1),
                median: to_axis(st.median),
                q3: to_axis(st.q3),
                whisker_hi: to_axis(st.whisker_hi),
                outliers: st.outliers.iter().map(|&v| to_axis(v)).collect(),
                color,
            });
        }
    }
    let y = scale::auto_range(
        data,
        chart.y_min.map(to_axis),
        chart.y_max.map(to_axis),
        chart.log_y,
    )
    .map_err(invalid)?;
    Ok(Prepared {
        title: &chart.title,
        x_label: &chart.x_label,
        y_label: &chart.y_label,
        x: Span {
            lo: -0.5,
            hi: n_cat as f64 - 0.5,
        },
        categories: Some(chart.categories.as_slice()),
        y,
        log_x: false,
        log_y: chart.log_y,
        series: Vec::new(),
        boxes,
        box_legend: chart
            .series
            .iter()
            .enumerate()
            .map(|(j, s)| (s.name.as_str(), draw::palette(s.color.unwrap_or(j))))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    /// `mtcars$mpg` from R's datasets package.
    const MTCARS_MPG: [f64; 32] = [
        21.0, 21.0, 22.8, 21.4, 18.7, 18.1, 14.3, 24.4, 22.8, 19.2, 17.8, 16.4, 17.3, 15.2, 10.4,
        10.4, 14.7, 32.4, 30.4, 33.9, 21.5, 15.5, 15.2, 13.3, 19.2, 27.3, 26.0, 30.4, 15.8, 19.7,
        15.0, 21.4,
    ];

    /// Values printed by R for `quantile(x, probs)` (type 7, the default):
    /// * `quantile(mtcars$mpg)`: 10.400 15.425 19.200 22.800 33.900
    ///   (as printed in "How to Check Quantiles in R", Andrie de Vries and
    ///   Joris Meys, R For Dummies);
    /// * `quantile(1:9)`: 1 3 5 7 9 and `quantile(1:9, probs = seq(0, 1,
    ///   .1))`: 1.0 1.8 2.6 3.4 4.2 5.0 5.8 6.6 7.4 8.2 9.0 (the examples of
    ///   `quantile` in the TIBCO Enterprise Runtime for R reference, which
    ///   follows R's definition);
    /// * `quantile(1:10)`: 1.00 3.25 5.50 7.75 10.00 (R's interpolation
    ///   rule `r = 1 + (n - 1) p` from `?quantile`).
    #[test]
    fn quantiles_match_r_type_7() {
        let one_to_nine: Vec<f64> = (1..=9).map(f64::from).collect();
        let one_to_ten: Vec<f64> = (1..=10).map(f64::from).collect();
        let quartiles = [0.0, 0.25, 0.5, 0.75, 1.0];
        let deciles: Vec<f64> = (0..=10).map(|i| f64::from(i) / 10.0).collect();
        type Case<'a> = (&'a str, &'a [f64], Vec<f64>, Vec<f64>);
        let table: Vec<Case<'_>> = vec![
            (
                "mtcars$mpg",
                &MTCARS_MPG,
                quartiles.to_vec(),
                vec![10.4, 15.425, 19.2, 22.8, 33.9],
            ),
            (
                "1:9",
                &one_to_nine,
                quartiles.to_vec(),
                vec![1.0, 3.0, 5.0, 7.0, 9.0],
            ),
            (
                "1:9 deciles",
                &one_to_nine,
                deciles,
                vec![1.0, 1.8, 2.6, 3.4, 4.2, 5.0, 5.8, 6.6, 7.4, 8.2, 9.0],
            ),
            (
                "1:10",
                &one_to_ten,
                quartiles.to_vec(),
                vec![1.0, 3.25, 5.5, 7.75, 10.0],
            ),
        ];
        for (name, x, probs, want) in table {
            // order must not matter
            let mut shuffled = x.to_vec();
            shuffled.reverse();
            shuffled.rotate_left(x.len() / 3);
            for (&p, &w) in probs.iter().zip(&want) {
                let got = quantile_type7(&shuffled, p).unwrap();
                assert!(close(got, w), "quantile({name}, {p}) = {got}, R says {w}");
            }
        }
        assert_eq!(quantile_type7(&[4.0], 0.3), Some(4.0));
        assert_eq!(quantile_type7(&[], 0.5), None);
        assert_eq!(quantile_type7(&[1.0, f64::NAN], 0.5), None);
        assert_eq!(quantile_type7(&[1.0, 2.0], 1.5), None);
    }

    #[test]
    fn box_stats_use_tukey_fences() {
        let st = BoxStats::from_values(&MTCARS_MPG).unwrap();
        assert!(close(st.q1, 15.425) && close(st.median, 19.2) && close(st.q3, 22.8));
        // IQR 7.375: fences 4.3625 and 33.8625, so 33.9 is an outlier
        assert_eq!(st.whisker_lo, 10.4);
        assert_eq!(st.whisker_hi, 32.4);
        assert_eq!(st.outliers, vec![33.9]);
        assert_eq!(st.n, 32);

        let st = BoxStats::from_values(&[1.0, 2.0, 3.0, 4.0, 100.0, -50.0]).unwrap();
        assert_eq!(st.outliers, vec![-50.0, 100.0]);
        assert_eq!((st.whisker_lo, st.whisker_hi), (1.0, 4.0));
        let st = BoxStats::from_values(&[7.0]).unwrap();
        assert_eq!((st.q1, st.median, st.q3), (7.0, 7.0, 7.0));
        assert!(st.outliers.is_empty());
        assert!(BoxStats::from_values(&[]).is_none());
        assert!(BoxStats::from_values(&[1.0, f64::INFINITY]).is_none());
    }
}

//! Shaded confidence bands of a series ([`crate::Series::band`]): a translucent area in the
//! series' colour between a lower and an upper curve, drawn beneath every line so that the
//! lines stay readable where bands of several series overlap.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::draw::{draw_err, ipt, PreparedSeries, Rect};
use crate::{ChartError, Prepared};

/// Opacity of a band's fill.
const ALPHA: f64 = 0.16;

/// A band in axis space: connected pieces of `(x, low, high)`; `low = -inf` / `high = +inf`
/// (an interval without a lower or upper end, or outside a log axis) reach the plot's edge.
pub(crate) type PreparedBand = Vec<Vec<(f64, f64, f64)>>;

/// Converts a band to axis space with `to_x` and `to_y`; a non-finite or NaN x, or a NaN
/// end, breaks it into pieces. With `step`, each level holds until the next x (as the
/// series' step line).
pub(crate) fn prepare(
    band: &[(f64, f64, f64)],
    step: bool,
    to_x: impl Fn(f64) -> f64,
    to_y: impl Fn(f64) -> f64,
) -> PreparedBand {
    let mut pieces: PreparedBand = Vec::new();
    let mut cur: Vec<(f64, f64, f64)> = Vec::new();
    for &(x, lo, hi) in band {
        let (ax, alo, ahi) = (to_x(x), to_y(lo), to_y(hi));
        if !ax.is_finite() || alo.is_nan() || ahi.is_nan() || alo > ahi {
            if cur.len() > 1 {
                pieces.push(std::mem::take(&mut cur));
            }
            cur.clear();
            continue;
        }
        if step {
            if let Some(&(_, plo, phi)) = cur.last() {
                cur.push((ax, plo, phi));
            }
        }
        cur.push((ax, alo, ahi));
    }
    if cur.len() > 1 {
        pieces.push(cur);
    }
    pieces
}

/// The finite band ends, for the y range.
pub(crate) fn y_values(band: &PreparedBand) -> impl Iterator<Item = f64> + '_ {
    band.iter()
        .flatten()
        .flat_map(|&(_, lo, hi)| [lo, hi])
        .filter(|v| v.is_finite())
}

/// Draws the bands of every series of `p` into `plot`.
pub(crate) fn draw_bands<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &Prepared<'_>,
    plot: &Rect,
) -> Result<(), ChartError> {
    for s in &p.series {
        draw_band(root, p, plot, s)?;
    }
    Ok(())
}

fn draw_band<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &Prepared<'_>,
    plot: &Rect,
    s: &PreparedSeries<'_>,
) -> Result<(), ChartError> {
    let fx = |x: f64| plot.x0 + p.x.frac(x).clamp(0.0, 1.0) * (plot.x1 - plot.x0);
    let fy = |y: f64| {
        let f = if y == f64::INFINITY {
            1.0
        } else if y == f64::NEG_INFINITY {
            0.0
        } else {
            p.y.frac(y).clamp(0.0, 1.0)
        };
        plot.y1 - f * (plot.y1 - plot.y0)
    };
    let style = s.color.mix(ALPHA).filled();
    for piece in &s.band {
        let upper = piece.iter().map(|&(x, _, hi)| (fx(x), fy(hi)));
        let lower = piece.iter().rev().map(|&(x, lo, _)| (fx(x), fy(lo)));
        let outline: Vec<(i32, i32)> = upper.chain(lower).map(ipt).collect();
        root.draw(&Polygon::new(outline, style)).map_err(draw_err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_band_holds_each_level_and_breaks_at_nan() {
        let id = |v: f64| v;
        let band = [
            (1.0, 0.0, 0.2),
            (2.0, 0.1, 0.4),
            (f64::NAN, 0.0, 0.0),
            (3.0, 0.5, 0.9),
            (4.0, 0.6, f64::INFINITY),
        ];
        let p = prepare(&band, true, id, id);
        assert_eq!(
            p,
            vec![
                vec![(1.0, 0.0, 0.2), (2.0, 0.0, 0.2), (2.0, 0.1, 0.4)],
                vec![(3.0, 0.5, 0.9), (4.0, 0.5, 0.9), (4.0, 0.6, f64::INFINITY)],
            ]
        );
        assert_eq!(prepare(&band[..2], false, id, id).len(), 1);
        assert_eq!(y_values(&p).fold(0.0, f64::max), 0.9);
    }
}

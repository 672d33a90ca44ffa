//! A specification curve (Simonsohn, Simmons & Nelson 2020; multiverse analyses draw it so):
//! one column per analysis path, here a reading of a paper, ordered by fit. The upper panel
//! shows each reading's fit (a score, e.g. -log10 of its smallest adjusted p-value) with a
//! threshold line, survivors and eliminated readings in two colours; beneath, a dot matrix
//! with one row per option value marks the values of each reading.

use crate::font::{ensure_font, font};
use crate::{write_atomic, ChartError};
use plotters::prelude::*;
use std::io::Write;
use std::path::Path;

/// A specification curve: per column (reading), its score and whether it survived; per row of
/// the matrix, a label (`option = value`) and the columns having that value.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecCurve {
    pub title: String,
    pub y_label: String,
    /// Score of each column, in drawing order (finite).
    pub scores: Vec<f64>,
    pub survived: Vec<bool>,
    /// A horizontal line at this score (e.g. the elimination threshold), with its label.
    pub threshold: Option<(f64, String)>,
    /// Matrix rows: label, and per column whether the column has it.
    pub rows: Vec<(String, Vec<bool>)>,
    /// Columns drawn in a third colour (e.g. the readings that came closest); may be empty.
    pub highlight: Vec<bool>,
    /// Lines of text under the title (e.g. what the highlighted columns fail on).
    pub notes: Vec<String>,
}

/// Ticks of an axis from 0 to at least `max`: a step of 1, 2, 2.5 or 5 times a power of ten,
/// about four steps; the ticks and the axis's top.
pub fn nice_ticks(max: f64) -> (Vec<f64>, f64) {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 4.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let n = (max / step - 1e-9).ceil().max(1.0) as usize;
    let ticks = (0..=n).map(|k| k as f64 * step).collect();
    (ticks, n as f64 * step)
}

/// A tick's label: no more decimals than its step needs.
fn tick_text(v: f64, step: f64) -> String {
    let decimals = (0..6)
        .find(|&d| {
            let x = step * 10f64.powi(d);
            (x - x.round()).abs() < 1e-9
        })
        .unwrap_or(6) as usize;
    format!("{v:.decimals$}")
}

const SURVIVED: RGBColor = RGBColor(0, 114, 178);
const ELIMINATED: RGBColor = RGBColor(213, 94, 0);
const HIGHLIGHT: RGBColor = RGBColor(0, 158, 115);

fn draw<DB: DrawingBackend>(
    c: &SpecCurve,
    root: DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), ChartError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| ChartError::Draw(e.to_string());
    root.fill(&WHITE).map_err(err)?;
    let (w, h) = root.dim_in_pixel();
    let (left, right) = (230i32, 20i32);
    let top = 64i32 + 16 * c.notes.len() as i32;
    let row_h = 16i32;
    let matrix_h = row_h * c.rows.len() as i32;
    let plot_bottom = h as i32 - matrix_h - 30;
    let n = c.scores.len().max(1) as f64;
    let x_of = |i: usize| left + ((i as f64 + 0.5) / n * (w as i32 - left - right) as f64) as i32;
    let most = (c.scores.iter().copied())
        .chain(c.threshold.as_ref().map(|t| t.0))
        .fold(1e-9f64, f64::max);
    let (ticks, hi) = nice_ticks(most);
    let y_of = |v: f64| plot_bottom - ((v.max(0.0) / hi) * (plot_bottom - top) as f64) as i32;
    root.draw(&Text::new(
        c.title.clone(),
        (10, 10),
        font(16.0).color(&BLACK),
    ))
    .map_err(err)?;
    for (k, note) in c.notes.iter().enumerate() {
        root.draw(&Text::new(
            note.clone(),
            (10, 34 + 16 * k as i32),
            font(12.0).color(&HIGHLIGHT),
        ))
        .map_err(err)?;
    }
    root.draw(&Text::new(
        c.y_label.clone(),
        (10, top - 30),
        font(12.0).color(&BLACK),
    ))
    .map_err(err)?;
    let axis = vec![
        (left, top),
        (left, plot_bottom),
        (w as i32 - right, plot_bottom),
    ];
    root.draw(&PathElement::new(axis, BLACK.stroke_width(1)))
        .map_err(err)?;
    let step = ticks.get(1).copied().unwrap_or(1.0);
    for &v in &ticks {
        let y = y_of(v);
        root.draw(&Text::new(
            tick_text(v, step),
            (left - 40, y - 6),
            font(11.0).color(&BLACK),
        ))
        .map_err(err)?;
    }
    if let Some((t, label)) = &c.threshold {
        let y = y_of(*t);
        root.draw(&PathElement::new(
            vec![(left, y), (w as i32 - right, y)],
            BLACK.stroke_width(1),
        ))
        .map_err(err)?;
        // In the left margin, beside the axis labels: over the plot it would hide readings.
        root.draw(&Text::new(
            label.clone(),
            (left - 110, y - 6),
            font(11.0).color(&BLACK),
        ))
        .map_err(err)?;
    }
    let r = ((w as i32 - left - right) as f64 / n / 2.5).clamp(1.0, 4.0) as i32;
    for (i, &s) in c.scores.iter().enumerate() {
        let colour = if c.highlight.get(i).copied().unwrap_or(false) {
            HIGHLIGHT
        } else if c.survived.get(i).copied().unwrap_or(false) {
            SURVIVED
        } else {
            ELIMINATED
        };
        root.draw(&Circle::new((x_of(i), y_of(s)), r, colour.filled()))
            .map_err(err)?;
    }
    for (k, (label, marks)) in c.rows.iter().enumerate() {
        let y = plot_bottom + 20 + k as i32 * row_h;
        root.draw(&Text::new(
            label.clone(),
            (10, y - 6),
            font(11.0).color(&BLACK),
        ))
        .map_err(err)?;
        for (i, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
            root.draw(&Rectangle::new(
                [(x_of(i) - r.max(1), y - 3), (x_of(i) + r.max(1), y + 3)],
                BLACK.filled(),
            ))
            .map_err(err)?;
        }
    }
    root.present().map_err(err)
}

/// The height a curve needs at a plot of `plot` pixels: the plot, the matrix and margins.
pub fn spec_curve_height(c: &SpecCurve, plot: u32) -> u32 {
    plot + 80 + 16 * (c.rows.len() + c.notes.len()) as u32
}

/// Draw the curve to an SVG and a PNG, each written atomically.
pub fn render_spec_curve(
    c: &SpecCurve,
    width: u32,
    height: u32,
    svg_path: &Path,
    png_path: &Path,
) -> Result<(), ChartError> {
    if c.scores.is_empty()
        || c.scores.len() != c.survived.len()
        || c.scores.iter().any(|s| !s.is_finite())
    {
        return Err(ChartError::Invalid(
            "a specification curve needs a finite score and a status per column".into(),
        ));
    }
    if c.rows.iter().any(|r| r.1.len() != c.scores.len()) {
        return Err(ChartError::Invalid(
            "every matrix row needs a mark per column".into(),
        ));
    }
    if !(400..=8192).contains(&width)
        || height > 8192
        || (height as i64) < spec_curve_height(c, 100) as i64
    {
        return Err(ChartError::Invalid(format!(
            "size {width}x{height} does not fit the curve"
        )));
    }
    ensure_font()?;
    let mut svg = String::new();
    draw(
        c,
        SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area(),
    )?;
    let mut png = vec![255u8; width as usize * height as usize * 3];
    let backend = BitMapBackend::<plotters::backend::RGBPixel>::with_buffer_and_format(
        &mut png,
        (width, height),
    )
    .map_err(|e| ChartError::Draw(e.to_string()))?;
    draw(c, backend.into_drawing_area())?;
    write_atomic(svg_path, |tmp| {
        let mut f = std::fs::File::create(tmp)?;
        f.write_all(svg.as_bytes())?;
        f.sync_all()
    })?;
    write_atomic(png_path, |tmp| crate::encode_png(tmp, &png, width, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_renders_and_bad_input_is_refused() {
        let dir = std::env::temp_dir().join(format!("speccurve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let c = SpecCurve {
            title: "t".into(),
            y_label: "fit".into(),
            scores: vec![3.0, 2.0, 0.5],
            survived: vec![true, true, false],
            threshold: Some((1.0, "threshold".into())),
            rows: vec![
                ("a = x".into(), vec![true, false, true]),
                ("a = y".into(), vec![false, true, false]),
            ],
            highlight: vec![true, false, false],
            notes: vec!["a note".into()],
        };
        let h = spec_curve_height(&c, 200);
        render_spec_curve(&c, 600, h, &dir.join("c.svg"), &dir.join("c.png")).unwrap();
        let svg = std::fs::read_to_string(dir.join("c.svg")).unwrap();
        assert!(svg.contains("a = y") && svg.contains("a note"));
        let bad = SpecCurve {
            scores: vec![f64::NAN, 1.0, 1.0],
            ..c.clone()
        };
        assert!(render_spec_curve(&bad, 600, h, &dir.join("d.svg"), &dir.join("d.png")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Ticks are round numbers from 0 to the first tick at or above the largest value.
    #[test]
    fn ticks_are_round() {
        for (max, want, top) in [
            (2.7, vec![0.0, 1.0, 2.0, 3.0], 3.0),
            (5.0, vec![0.0, 2.0, 4.0, 6.0], 6.0),
            (20.0, vec![0.0, 5.0, 10.0, 15.0, 20.0], 20.0),
            (0.9, vec![0.0, 0.25, 0.5, 0.75, 1.0], 1.0),
            (0.0, vec![0.0, 0.25, 0.5, 0.75, 1.0], 1.0),
        ] {
            assert_eq!(nice_ticks(max), (want, top), "{max}");
        }
        assert_eq!(tick_text(0.25, 0.25), "0.25");
        assert_eq!(tick_text(0.5, 0.5), "0.5");
        assert_eq!(tick_text(4.0, 2.0), "4");
    }
}

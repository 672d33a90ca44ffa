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
    /// A horizontal line at this score (e.g. the elimination threshold).
    pub threshold: Option<f64>,
    /// Matrix rows: label, and per column whether the column has it.
    pub rows: Vec<(String, Vec<bool>)>,
}

const SURVIVED: RGBColor = RGBColor(0, 114, 178);
const ELIMINATED: RGBColor = RGBColor(213, 94, 0);

fn draw<DB: DrawingBackend>(
    c: &SpecCurve,
    root: DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), ChartError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| ChartError::Draw(e.to_string());
    root.fill(&WHITE).map_err(err)?;
    let (w, h) = root.dim_in_pixel();
    let (left, right, top) = (230i32, 20i32, 64i32);
    let row_h = 16i32;
    let matrix_h = row_h * c.rows.len() as i32;
    let plot_bottom = h as i32 - matrix_h - 30;
    let n = c.scores.len().max(1) as f64;
    let x_of = |i: usize| left + ((i as f64 + 0.5) / n * (w as i32 - left - right) as f64) as i32;
    let hi = c
        .scores
        .iter()
        .copied()
        .chain(c.threshold)
        .fold(1e-9f64, f64::max)
        * 1.05;
    let y_of = |v: f64| plot_bottom - ((v.max(0.0) / hi) * (plot_bottom - top) as f64) as i32;
    root.draw(&Text::new(
        c.title.clone(),
        (10, 10),
        font(16.0).color(&BLACK),
    ))
    .map_err(err)?;
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
    for k in 0..=4 {
        let v = hi * k as f64 / 4.0;
        let y = y_of(v);
        root.draw(&Text::new(
            format!("{v:.1}"),
            (left - 40, y - 6),
            font(11.0).color(&BLACK),
        ))
        .map_err(err)?;
    }
    if let Some(t) = c.threshold {
        let y = y_of(t);
        root.draw(&PathElement::new(
            vec![(left, y), (w as i32 - right, y)],
            BLACK.stroke_width(1),
        ))
        .map_err(err)?;
        // In the left margin, beside the axis labels: over the plot it would hide readings.
        root.draw(&Text::new(
            "threshold",
            (left - 110, y - 6),
            font(11.0).color(&BLACK),
        ))
        .map_err(err)?;
    }
    let r = ((w as i32 - left - right) as f64 / n / 2.5).clamp(1.0, 4.0) as i32;
    for (i, &s) in c.scores.iter().enumerate() {
        let colour = if c.survived.get(i).copied().unwrap_or(false) {
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
    plot + 80 + 16 * c.rows.len() as u32
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
            threshold: Some(1.0),
            rows: vec![
                ("a = x".into(), vec![true, false, true]),
                ("a = y".into(), vec![false, true, false]),
            ],
        };
        let h = spec_curve_height(&c, 200);
        render_spec_curve(&c, 600, h, &dir.join("c.svg"), &dir.join("c.png")).unwrap();
        let svg = std::fs::read_to_string(dir.join("c.svg")).unwrap();
        assert!(svg.contains("a = y"));
        let bad = SpecCurve {
            scores: vec![f64::NAN, 1.0, 1.0],
            ..c.clone()
        };
        assert!(render_spec_curve(&bad, 600, h, &dir.join("d.svg"), &dir.join("d.png")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

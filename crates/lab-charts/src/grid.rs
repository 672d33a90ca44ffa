//! Sudoku-shaped figures: one or more N x N grids of short cell labels with shading, drawn
//! side by side (e.g. RESEDA's Figure 4.2 of per-cell correctness grades, ours next to the
//! paper's).

use crate::font::{ensure_font, font};
use crate::{write_atomic, ChartError};
use plotters::prelude::*;
use std::io::Write;
use std::path::Path;

/// One grid panel: a title and, row-major, a label and a shade (0.0 white ... 1.0 darkest) per
/// cell.
#[derive(Debug, Clone, PartialEq)]
pub struct GridPanel {
    pub title: String,
    pub labels: Vec<String>,
    pub shades: Vec<f64>,
    /// Cells outlined in red (row-major indices), e.g. those that differ from another panel.
    pub marked: Vec<usize>,
}

/// Grids of order `box_rows * box_cols`, thick lines between boxes.
#[derive(Debug, Clone, PartialEq)]
pub struct GridFigure {
    pub box_rows: usize,
    pub box_cols: usize,
    pub panels: Vec<GridPanel>,
    /// The key under the grids: a shade and what it means, then the meaning of the red outline
    /// (empty: no key).
    pub key: Vec<(f64, String)>,
    pub marked_means: String,
}

/// The blue of a shade (0.0 white ... 1.0 darkest).
fn blue(shade: f64) -> RGBColor {
    let g = (255.0 - 150.0 * shade.clamp(0.0, 1.0)) as u8;
    RGBColor(g, g, 255)
}

/// The key: a swatch per shade with its meaning, and the red outline's meaning, in one row at
/// `y`.
fn draw_key<DB: DrawingBackend>(
    fig: &GridFigure,
    root: &DrawingArea<DB, plotters::coord::Shift>,
    x0: i32,
    y: i32,
    scale: u32,
) -> Result<(), ChartError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| ChartError::Draw(e.to_string());
    let s = (16 * scale) as i32;
    let f = 14.0 * scale as f64;
    let mut x = x0;
    let mut items: Vec<(Option<f64>, &str)> = fig
        .key
        .iter()
        .map(|(sh, t)| (Some(*sh), t.as_str()))
        .collect();
    if !fig.marked_means.is_empty() {
        items.push((None, fig.marked_means.as_str()));
    }
    for (shade, text) in items {
        let rect = [(x, y), (x + s, y + s)];
        match shade {
            Some(sh) => {
                root.draw(&Rectangle::new(rect, blue(sh).filled()))
                    .map_err(err)?;
                root.draw(&Rectangle::new(rect, BLACK.stroke_width(1)))
                    .map_err(err)?;
            }
            None => root
                .draw(&Rectangle::new(rect, RED.stroke_width(3 * scale)))
                .map_err(err)?,
        }
        root.draw(&Text::new(
            text.to_string(),
            (x + s + 6, y),
            font(f).color(&BLACK),
        ))
        .map_err(err)?;
        x += s + 18 + crate::font::text_width(text, f) as i32;
    }
    Ok(())
}

fn draw<DB: DrawingBackend>(
    fig: &GridFigure,
    root: DrawingArea<DB, plotters::coord::Shift>,
    scale: u32,
) -> Result<(), ChartError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| ChartError::Draw(e.to_string());
    root.fill(&WHITE).map_err(err)?;
    let n = fig.box_rows * fig.box_cols;
    let (w, h) = root.dim_in_pixel();
    let k = fig.panels.len() as u32;
    let title_h = 40 * scale;
    let margin = 20 * scale;
    let key_h = if fig.key.is_empty() { 0 } else { 36 * scale };
    let side = ((w - margin * (k + 1)) / k).min(h - title_h - 2 * margin - key_h);
    let cell = side / n as u32;
    let side = cell * n as u32;
    for (i, panel) in fig.panels.iter().enumerate() {
        let x0 = (margin + i as u32 * (side + margin)) as i32;
        let y0 = (title_h + margin / 2) as i32;
        root.draw(&Text::new(
            panel.title.clone(),
            (x0, (10 * scale) as i32),
            font(18.0 * scale as f64).color(&BLACK),
        ))
        .map_err(err)?;
        for r in 0..n {
            for c in 0..n {
                let idx = r * n + c;
                let shade = panel
                    .shades
                    .get(idx)
                    .copied()
                    .unwrap_or(0.0)
                    .clamp(0.0, 1.0);
                let (cx, cy) = (x0 + (c as u32 * cell) as i32, y0 + (r as u32 * cell) as i32);
                root.draw(&Rectangle::new(
                    [(cx, cy), (cx + cell as i32, cy + cell as i32)],
                    blue(shade).filled(),
                ))
                .map_err(err)?;
                if let Some(label) = panel.labels.get(idx).filter(|l| !l.is_empty()) {
                    let size = cell as f64 * 0.5;
                    let style =
                        font(size)
                            .color(&BLACK)
                            .pos(plotters::style::text_anchor::Pos::new(
                                plotters::style::text_anchor::HPos::Center,
                                plotters::style::text_anchor::VPos::Center,
                            ));
                    root.draw(&Text::new(
                        label.clone(),
                        (cx + cell as i32 / 2, cy + cell as i32 / 2),
                        style,
                    ))
                    .map_err(err)?;
                }
            }
        }
        for t in 0..=n {
            let thick = if t % fig.box_cols == 0 { 3 } else { 1 } * scale;
            let x = x0 + (t as u32 * cell) as i32;
            root.draw(&PathElement::new(
                vec![(x, y0), (x, y0 + side as i32)],
                BLACK.stroke_width(thick),
            ))
            .map_err(err)?;
            let thick = if t % fig.box_rows == 0 { 3 } else { 1 } * scale;
            let y = y0 + (t as u32 * cell) as i32;
            root.draw(&PathElement::new(
                vec![(x0, y), (x0 + side as i32, y)],
                BLACK.stroke_width(thick),
            ))
            .map_err(err)?;
        }
        for &idx in panel.marked.iter().filter(|&&i| i < n * n) {
            let (r, c) = ((idx / n) as u32, (idx % n) as u32);
            let (cx, cy) = (x0 + (c * cell) as i32, y0 + (r * cell) as i32);
            let inset = (3 * scale) as i32;
            root.draw(&Rectangle::new(
                [
                    (cx + inset, cy + inset),
                    (cx + cell as i32 - inset, cy + cell as i32 - inset),
                ],
                RED.stroke_width(3 * scale),
            ))
            .map_err(err)?;
        }
    }
    if !fig.key.is_empty() {
        let y = (title_h + margin / 2 + side + 14 * scale) as i32;
        draw_key(fig, &root, margin as i32, y, scale)?;
    }
    root.present().map_err(err)
}

/// Draw the figure to an SVG and a PNG, each written atomically.
pub fn render_grids(
    fig: &GridFigure,
    width: u32,
    height: u32,
    svg_path: &Path,
    png_path: &Path,
) -> Result<(), ChartError> {
    let n = fig.box_rows * fig.box_cols;
    if fig.panels.is_empty() || n == 0 {
        return Err(ChartError::Invalid(
            "a grid figure needs panels and a box shape".into(),
        ));
    }
    if fig
        .panels
        .iter()
        .any(|p| p.labels.len() != n * n || p.shades.len() != n * n)
    {
        return Err(ChartError::Invalid(format!(
            "every panel needs {} labels and shades",
            n * n
        )));
    }
    if width < 100 * fig.panels.len() as u32 || height < 120 || width > 8192 || height > 8192 {
        return Err(ChartError::Invalid(format!(
            "size {width}x{height} does not fit the figure"
        )));
    }
    ensure_font()?;
    let mut svg = String::new();
    draw(
        fig,
        SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area(),
        1,
    )?;
    let mut png = vec![255u8; width as usize * height as usize * 3];
    draw(
        fig,
        BitMapBackend::<plotters::backend::RGBPixel>::with_buffer_and_format(
            &mut png,
            (width, height),
        )
        .map_err(|e| ChartError::Draw(e.to_string()))?
        .into_drawing_area(),
        1,
    )?;
    write_atomic(svg_path, |tmp| {
        let mut f = std::fs::File::create(tmp)?;
        f.write_all(svg.as_bytes())?;
        f.sync_all()
    })?;
    write_atomic(png_path, |tmp| crate::encode_png(tmp, &png, width, height))
}

//! Simplex (triangle) plots of the posterior of a Bayesian comparison with a ROPE, as
//! `baycomp`'s `plot_simplex` draws them (Benavoli et al., "Time for a change", JMLR 2017,
//! Fig. 5): one panel per pair of algorithms.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::draw::{self, px_width, Flavor};
use crate::font::{self, RotatedLabel, LINE};
use crate::{check_max_size, render_figure, ChartError, Figure};

/// One comparison: the posterior samples `(left, rope, right)` (each summing to 1) and the
/// probabilities that each region is the most probable.
///
/// The triangle's bottom-left corner is "`left` better" (mass 1 left of the ROPE), its
/// bottom-right corner "`right` better", its top "practically equivalent". A sample is drawn at
/// `left * (0, 0) + right * (1, 0) + rope * (1/2, √3/2)`; the three segments from the centre to
/// the middles of the sides separate the regions where each mass is the largest. Samples are
/// binned on a square grid and each occupied bin is shaded by the logarithm of its count, as
/// baycomp's hexbin with `mincnt = 1`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimplexPanel {
    pub title: String,
    pub left: String,
    pub right: String,
    /// P(left better), P(equivalent), P(right better).
    pub probs: [f64; 3],
    pub samples: Vec<[f64; 3]>,
}

/// A figure of simplex panels, `columns` per row, with a title above.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimplexFigure {
    pub title: String,
    pub panels: Vec<SimplexPanel>,
    pub columns: usize,
}

/// Width and height in pixels of one panel.
pub const SIMPLEX_PANEL: (u32, u32) = (330, 320);
/// Bins along the triangle's base.
const BINS: usize = 44;
const EDGE: RGBColor = RGBColor(0xE6, 0x8A, 0x00);

/// Title font size and the least figure width (nominal pixels).
const TITLE: f64 = 16.0;
const MIN_WIDTH: u32 = 660;

impl SimplexFigure {
    fn columns(&self) -> usize {
        self.columns.clamp(1, self.panels.len().max(1))
    }

    /// The title in lines that fit the figure's width.
    fn title_lines(&self) -> Vec<String> {
        let width = f64::from(self.width()) - 20.0;
        let mut lines: Vec<String> = Vec::new();
        for word in self.title.split_whitespace() {
            match lines.last_mut() {
                Some(l) if font::text_width(&format!("{l} {word}"), TITLE) <= width => {
                    l.push(' ');
                    l.push_str(word);
                }
                _ => lines.push(word.to_string()),
            }
        }
        lines
    }

    fn width(&self) -> u32 {
        (SIMPLEX_PANEL.0 * self.columns() as u32).max(MIN_WIDTH)
    }

    /// Height of the title band (nominal pixels).
    fn title_height(&self) -> f64 {
        self.title_lines().len() as f64 * LINE * TITLE + 16.0
    }

    /// The figure's size: [`SIMPLEX_PANEL`] per panel (at least [`MIN_WIDTH`] wide), plus the
    /// title.
    pub fn size(&self) -> (u32, u32) {
        let rows = self.panels.len().div_ceil(self.columns()).max(1);
        (
            self.width(),
            SIMPLEX_PANEL.1 * rows as u32 + self.title_height().ceil() as u32,
        )
    }
}

/// Draws `figure` at its [`SimplexFigure::size`] as SVG and PNG (atomically).
pub fn render_simplex(
    figure: &SimplexFigure,
    svg_path: &Path,
    png_path: &Path,
) -> Result<(), ChartError> {
    if figure.panels.is_empty() {
        return Err(ChartError::Invalid(format!(
            "simplex figure {:?} has no panels",
            figure.title
        )));
    }
    for p in &figure.panels {
        let bad = p.samples.iter().flatten().chain(&p.probs);
        if let Some(v) = bad.copied().find(|v| !(-1e-9..=1.0 + 1e-9).contains(v)) {
            return Err(ChartError::Invalid(format!(
                "simplex panel {:?}: the value {v} is not a probability",
                p.title
            )));
        }
    }
    font::ensure_font()?;
    let (w, h) = figure.size();
    check_max_size(w, h)?;
    render_figure(figure, w, h, svg_path, png_path)
}

impl Figure for SimplexFigure {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        fl: Flavor,
    ) -> Result<Vec<RotatedLabel>, ChartError> {
        let (w, _) = root.dim_in_pixel();
        let u = fl.unit;
        for (i, line) in self.title_lines().iter().enumerate() {
            let baseline = (8.0 + (i as f64 + 0.8) * LINE * TITLE) * u;
            draw::text(
                root,
                line,
                TITLE * u,
                fl,
                0.5 * f64::from(w),
                baseline,
                HPos::Center,
            )?;
        }
        let title_h = self.title_height().ceil() * u;
        let cols = self.columns();
        let (pw, ph) = (
            f64::from(SIMPLEX_PANEL.0) * u,
            f64::from(SIMPLEX_PANEL.1) * u,
        );
        // Panels centred when the figure is wider than they are.
        let left = 0.5 * (f64::from(w) - cols as f64 * pw);
        for (i, p) in self.panels.iter().enumerate() {
            let (c, r) = ((i % cols) as f64, (i / cols) as f64);
            draw_panel(root, p, fl, (left + c * pw, title_h + r * ph), (pw, ph))?;
        }
        Ok(Vec::new())
    }
}

/// One panel in the cell at `origin` of size `size` (device pixels).
fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &SimplexPanel,
    fl: Flavor,
    origin: (f64, f64),
    size: (f64, f64),
) -> Result<(), ChartError> {
    let u = fl.unit;
    let f = 12.0 * u;
    let pad = 14.0 * u;
    // Room: the title above, a probability line over the apex, two lines under the base.
    let top = origin.1 + pad + 3.0 * LINE * f;
    let bottom = origin.1 + size.1 - pad - 2.0 * LINE * f;
    let side = ((bottom - top) / (3f64.sqrt() / 2.0)).min(size.0 - 2.0 * pad);
    let x0 = origin.0 + 0.5 * (size.0 - side);
    let at = |x: f64, y: f64| (x0 + x * side, bottom - y * side);
    let edge = ShapeStyle::from(&EDGE).stroke_width(px_width(1.5 * u));
    let s3 = 3f64.sqrt() / 2.0;
    let corners = [at(0.0, 0.0), at(1.0, 0.0), at(0.5, s3)];
    for k in 0..3 {
        draw::line(root, corners[k], corners[(k + 1) % 3], edge)?;
    }
    let centre = at(0.5, s3 / 3.0);
    for (x, y) in [(0.5, 0.0), (0.25, s3 / 2.0), (0.75, s3 / 2.0)] {
        draw::line(root, centre, at(x, y), edge)?;
    }
    // The samples over the lines, as baycomp: the edges are where most of the mass lies.
    draw_density(root, p, side, &at)?;
    let mid = origin.0 + 0.5 * size.0;
    let t = |s: &str, x, y, h| draw::text(root, s, f, fl, x, y, h);
    draw::text(
        root,
        &fit(&p.title, 1.05 * f, size.0 - pad),
        1.05 * f,
        fl,
        mid,
        origin.1 + pad + 1.0 * f,
        HPos::Center,
    )?;
    t(
        &format!("p(equivalent) = {:.3}", p.probs[1]),
        mid,
        top - 0.9 * f,
        HPos::Center,
    )?;
    let half = 0.5 * size.0 - pad;
    let (lx, rx) = (origin.0 + pad, origin.0 + size.0 - pad);
    let below = bottom + 1.2 * f;
    t(
        &fit(&format!("{} better", p.left), f, half),
        lx,
        below,
        HPos::Left,
    )?;
    t(
        &format!("p = {:.3}", p.probs[0]),
        lx,
        below + LINE * f,
        HPos::Left,
    )?;
    t(
        &fit(&format!("{} better", p.right), f, half),
        rx,
        below,
        HPos::Right,
    )?;
    t(
        &format!("p = {:.3}", p.probs[2]),
        rx,
        below + LINE * f,
        HPos::Right,
    )
}

/// The samples binned and shaded: light blue for one sample, dark blue for the fullest bin.
fn draw_density<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &SimplexPanel,
    side: f64,
    at: &dyn Fn(f64, f64) -> (f64, f64),
) -> Result<(), ChartError> {
    let rows = BINS;
    let mut count = vec![0u32; BINS * rows];
    let cell = 1.0 / BINS as f64;
    for s in &p.samples {
        let (x, y) = (s[2] + 0.5 * s[1], s[1] * 3f64.sqrt() / 2.0);
        let i = ((x / cell) as usize).min(BINS - 1);
        let j = ((y / cell) as usize).min(rows - 1);
        count[j * BINS + i] += 1;
    }
    let most = f64::from(count.iter().copied().max().unwrap_or(0).max(2));
    for (k, &c) in count.iter().enumerate().filter(|(_, &c)| c > 0) {
        let (i, j) = ((k % BINS) as f64, (k / BINS) as f64);
        // 0 for one sample, 1 for the fullest bin.
        let t = f64::from(c).ln() / most.ln();
        let shade = |light: f64, dark: f64| (light + t * (dark - light)).round() as u8;
        let color = RGBColor(shade(198.0, 8.0), shade(219.0, 48.0), shade(239.0, 107.0));
        let (a, b) = (
            at(i * cell, (j + 1.0) * cell),
            at((i + 1.0) * cell, j * cell),
        );
        let grow = 0.5 * side / 1000.0;
        root.draw(&Rectangle::new(
            [
                draw::ipt((a.0 - grow, a.1 - grow)),
                draw::ipt((b.0 + grow, b.1 + grow)),
            ],
            color.filled(),
        ))
        .map_err(draw::draw_err)?;
    }
    Ok(())
}

/// `s` cut with an ellipsis to fit `width` pixels at size `f`.
fn fit(s: &str, f: f64, width: f64) -> String {
    if font::text_width(s, f) <= width {
        return s.to_string();
    }
    let mut out: Vec<char> = s.chars().collect();
    while !out.is_empty()
        && font::text_width(&format!("{}…", out.iter().collect::<String>()), f) > width
    {
        out.pop();
    }
    format!("{}…", out.iter().collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_renders_and_bad_values_are_refused() {
        let dir = std::env::temp_dir().join(format!("simplex-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let samples: Vec<[f64; 3]> = (0..500)
            .map(|i| {
                let a = (i % 50) as f64 / 100.0;
                let b = (i / 50) as f64 / 30.0;
                [a, 1.0 - a - b, b]
            })
            .collect();
        let mut fig = SimplexFigure {
            title: "t".into(),
            panels: vec![SimplexPanel {
                title: "a vs b".into(),
                left: "a".into(),
                right: "b".into(),
                probs: [0.2, 0.7, 0.1],
                samples,
            }],
            columns: 3,
        };
        let (svg, png) = (dir.join("s.svg"), dir.join("s.png"));
        render_simplex(&fig, &svg, &png).unwrap();
        // One panel: the figure keeps room for its title, wrapped to fit.
        fig.title = "a long title ".repeat(12);
        let (w, h) = fig.size();
        assert_eq!(w, MIN_WIDTH);
        assert!(
            fig.title_lines().len() >= 2 && h > SIMPLEX_PANEL.1 + 40,
            "{h}"
        );
        render_simplex(&fig, &svg, &png).unwrap();
        assert!(std::fs::metadata(&png).unwrap().len() > 1000);
        fig.panels[0].probs[0] = 1.5;
        assert!(render_simplex(&fig, &svg, &png).is_err());
        fig.panels.clear();
        assert!(render_simplex(&fig, &svg, &png).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! Line charts written as SVG and PNG, in the style of the figures of the
//! papers this project reproduces.
//!
//! * [`render`] draws one [`LineChart`]; [`render_panels`] draws several side
//!   by side, like a figure with panels (a), (b), (c).
//! * [`render_boxes`] draws a [`BoxChart`] (box plots, one box per series
//!   and category, side by side).
//! * [`render_spec_curve`] draws a [`SpecCurve`]: readings ordered by fit, their
//!   option values as a dot matrix beneath, as multiverse analyses draw it.
//! * [`render_cd`] draws a [`CdDiagram`], the critical-difference diagram of
//!   average ranks of Demšar (2006).
//! * [`render_simplex`] draws a [`SimplexFigure`]: the posterior of Bayesian
//!   comparisons with a ROPE in triangles, as `baycomp` draws them.
//! * Every series is a line with markers in its own colour from a fixed,
//!   colour-blind friendly palette. The legend never covers data: it is
//!   drawn outside the plot, right of it when it takes at most 40% of the
//!   panel's width (in several columns if it is taller than the plot), else
//!   in a strip below the x axis title; the plot shrinks to make room, the
//!   figure keeps the size asked for.
//!   A series can also be drawn as a step function, dashed, without markers,
//!   in another series' colour, with error bars, or with marks where it has
//!   no value (see [`Series`]).
//! * A chart whose x axis has a single category is drawn as a dot chart:
//!   the series' points side by side, without lines. A series none of whose
//!   consecutive points can be joined (every other point NaN) is shown with
//!   its marker only in the legend, too.
//! * A title may have several lines (separated by `\n`), e.g. a warning
//!   line above the title proper.
//! * Text uses DejaVu Sans, embedded in the library and registered with
//!   plotters under the family name `sans-serif`: no system font is read, so
//!   PNGs render identically on machines without fonts. SVG text elements use
//!   `font-family="sans-serif"`.
//! * Both files are written atomically (temporary file in the target
//!   directory, synced, then renamed; a symbolic link in a target's place is
//!   refused: `sudoku_core::atomic`), and only after both charts rendered.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use plotters::prelude::*;

mod band;
mod boxes;
mod cd;
mod draw;
mod font;
mod grid;
pub use boxes::{quantile_type7, render_boxes, BoxChart, BoxSeries, BoxStats};
pub use cd::{render_cd, CdDiagram};
pub use grid::{render_grids, GridFigure, GridPanel};
mod scale;
mod simplex;
pub use simplex::{render_simplex, SimplexFigure, SimplexPanel, SIMPLEX_PANEL};
mod speccurve;
pub use speccurve::{render_spec_curve, spec_curve_height, SpecCurve};

use draw::{Flavor, Prepared, PreparedSeries};
use font::RotatedLabel;
use plotters::coord::Shift;
use scale::Span;

/// The horizontal axis of a [`LineChart`].
#[derive(Debug, Clone, PartialEq)]
pub enum XAxis {
    /// A numeric axis showing `min..=max` (finite, `min < max`; both
    /// positive when the chart has [`LineChart::log_x`]).
    Numeric { min: f64, max: f64 },
    /// Named categories, evenly spaced; a point's x is the index of its
    /// category (0 to n-1). Labels that do not fit side by side are drawn
    /// at 45 degrees.
    Categories(Vec<String>),
}

/// The marker drawn at every point of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Marker {
    #[default]
    Circle,
    Square,
    Triangle,
    Cross,
    Diamond,
    /// A triangle pointing down.
    TriangleDown,
    /// An upright cross (+).
    Plus,
    /// No marker: a plain line (e.g. an ECDF with hundreds of points). Not
    /// part of [`Marker::ALL`].
    None,
}

impl Marker {
    /// All visible markers, in a fixed order.
    pub const ALL: [Marker; 7] = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Diamond,
        Marker::Cross,
        Marker::TriangleDown,
        Marker::Plus,
    ];

    /// The `i`-th marker of [`Marker::ALL`], cycling; handy to give series
    /// distinct markers.
    pub fn nth(i: usize) -> Marker {
        Marker::ALL[i % Marker::ALL.len()]
    }
}

/// One line of a chart. Points with a non-finite coordinate (NaN, ±inf) are
/// not drawn and break the line (a gap).
///
/// Besides `name`, `points` and `marker` a series has style fields whose
/// defaults (`false`/`None`) draw the plain line with markers in the
/// series' own palette colour; build one with [`Series::new`] and the
/// setters, or with `..Default::default()`:
///
/// ```
/// use lab_charts::{Marker, Series};
/// let ecdf = Series::new("ours", vec![(1.0, 0.1), (3.0, 0.4)], Marker::None)
///     .step()
///     .color(2);
/// let paper = Series {
///     name: "paper".to_string(),
///     points: vec![(1.0, 0.2), (3.0, 0.5)],
///     marker: Marker::None,
///     step: true,
///     dashed: true,
///     color: Some(2),
///     ..Default::default()
/// };
/// assert_eq!(ecdf.color, paper.color);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// The marker at every point; [`Marker::None`] for none.
    pub marker: Marker,
    /// Draw the line as a post-step function, like an ECDF: from each point
    /// horizontally to the next point's x, then vertically to its y. The
    /// line ends at the last point (add a point at the axis end to carry the
    /// last level on).
    pub step: bool,
    /// Draw the line dashed.
    pub dashed: bool,
    /// Palette index (taken modulo the palette's 8 colours) instead of the
    /// series' position in the chart, so that two series can share a colour
    /// and differ by marker or dashing.
    pub color: Option<usize>,
    /// Per point `(low, high)` vertical whiskers with caps, e.g. 95% Wilson
    /// intervals: one entry for each point (same length as `points`), with
    /// `low <= high`. A pair with a non-finite end, or a point with a
    /// non-finite x, gets no bar. The y axis range includes the bars.
    pub error_bars: Option<Vec<(f64, f64)>>,
    /// x positions where the series has no value to draw (e.g. a mean over
    /// successful runs where no run succeeded): each is marked by an open
    /// triangle in the series' colour at the bottom edge of the plot, and
    /// the legend explains the mark with `missing_label`.
    pub missing: Vec<f64>,
    /// The legend text of the marks of `missing` (one legend entry per
    /// distinct text in the chart).
    pub missing_label: String,
    /// A confidence band drawn as a translucent area in the series' colour
    /// beneath every line: `(x, low, high)` points, as a step function when
    /// the series is one. A NaN breaks the band; an infinite end reaches the
    /// plot's edge (an interval open at that end). The y axis range includes
    /// the finite ends.
    pub band: Option<Vec<(f64, f64, f64)>>,
}

impl Series {
    /// A plain line with markers (all style fields at their defaults).
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>, marker: Marker) -> Series {
        Series {
            name: name.into(),
            points,
            marker,
            ..Default::default()
        }
    }

    /// Draws the series as a post-step function (see [`Series::step`]).
    #[must_use]
    pub fn step(mut self) -> Series {
        self.step = true;
        self
    }

    /// Draws the line dashed.
    #[must_use]
    pub fn dashed(mut self) -> Series {
        self.dashed = true;
        self
    }

    /// Uses palette colour `index` (modulo 8).
    #[must_use]
    pub fn color(mut self, index: usize) -> Series {
        self.color = Some(index);
        self
    }

    /// Adds `(low, high)` error bars, one per point.
    #[must_use]
    pub fn error_bars(mut self, bars: Vec<(f64, f64)>) -> Series {
        self.error_bars = Some(bars);
        self
    }

    /// Adds a shaded confidence band of `(x, low, high)` points (see
    /// [`Series::band`]).
    #[must_use]
    pub fn band(mut self, band: Vec<(f64, f64, f64)>) -> Series {
        self.band = Some(band);
        self
    }

    /// Marks the x positions `xs` as having no value, explained in the
    /// legend by `label` (see [`Series::missing`]).
    #[must_use]
    pub fn missing(mut self, xs: Vec<f64>, label: impl Into<String>) -> Series {
        self.missing = xs;
        self.missing_label = label.into();
        self
    }
}

/// A line chart. `y_min`/`y_max` fix ends of the y axis; a free end is
/// chosen from the data with 5% headroom (a free lower end of non-negative
/// data on a linear axis stops at 0). With `log_y` the y axis is
/// logarithmic and every finite y value (and error bar end) must be
/// positive. With `log_x` the numeric x axis is logarithmic (log10, ticks at
/// powers of ten with unlabelled minor ticks at 2..9 times them, or at 1, 2
/// and 5 times them on ranges shorter than about two decades): its range and
/// every finite x must be positive, and a category axis is an error.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x: XAxis,
    pub y_min: Option<f64>,
    pub y_max: Option<f64>,
    pub log_y: bool,
    pub log_x: bool,
    pub series: Vec<Series>,
}

/// Why a chart could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// Writing one of the output files failed.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The drawing library failed.
    #[error("drawing failed: {0}")]
    Draw(String),
    /// The input cannot be drawn (no series, bad range, non-positive values
    /// on a log axis, size too small or too large, ...).
    #[error("invalid chart: {0}")]
    Invalid(String),
}

/// Largest accepted figure, in pixels (the PNG is drawn at twice the size).
const MAX_SIDE: u32 = 8192;
const MAX_PIXELS: u64 = 4096 * 4096;
/// Smallest accepted panel.
const MIN_PANEL: (u32, u32) = (160, 120);
/// The PNG is drawn this many times larger and then scaled down.
const SUPERSAMPLE: u32 = 2;

/// Draws `chart` as a `width` x `height` pixel SVG at `svg_path` and PNG at
/// `png_path`.
pub fn render(
    chart: &LineChart,
    width: u32,
    height: u32,
    svg_path: &Path,
    png_path: &Path,
) -> Result<(), ChartError> {
    render_panels(
        std::slice::from_ref(chart),
        1,
        width,
        height,
        svg_path,
        png_path,
    )
}

/// Draws `panels` side by side, `columns` per row (rows as needed), into one
/// `width` x `height` figure, each panel with its own title, axes and legend.
pub fn render_panels(
    panels: &[LineChart],
    columns: usize,
    width: u32,
    height: u32,
    svg_path: &Path,
    png_path: &Path,
) -> Result<(), ChartError> {
    if panels.is_empty() {
        return Err(ChartError::Invalid("no panels to draw".to_string()));
    }
    if columns == 0 {
        return Err(ChartError::Invalid(
            "columns must be at least 1".to_string(),
        ));
    }
    let columns = columns.min(panels.len());
    let rows = panels.len().div_ceil(columns);
    check_size(width, height, columns, rows)?;
    let prepared = panels.iter().map(prepare).collect::<Result<Vec<_>, _>>()?;
    let figure = Panels {
        panels: prepared,
        columns,
    };
    render_figure(&figure, width, height, svg_path, png_path)
}

/// Something drawn the same way onto the SVG and the (supersampled) PNG
/// backend. Labels at 45 degrees are returned for the caller to draw.
pub(crate) trait Figure {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        flavor: Flavor,
    ) -> Result<Vec<RotatedLabel>, ChartError>;
}

/// Chart panels laid out in a grid, `columns` per row.
pub(crate) struct Panels<'a> {
    pub panels: Vec<Prepared<'a>>,
    pub columns: usize,
}

impl Figure for Panels<'_> {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        flavor: Flavor,
    ) -> Result<Vec<RotatedLabel>, ChartError> {
        draw::draw_figure(root, &self.panels, self.columns, flavor)
    }
}

/// Renders `figure` as SVG and PNG and writes both atomically, the files
/// only after both images were drawn.
pub(crate) fn render_figure(
    figure: &impl Figure,
    width: u32,
    height: u32,
    svg_path: &Path,
    png_path: &Path,
) -> Result<(), ChartError> {
    font::ensure_font()?;
    let svg = render_svg(figure, width, height)?;
    let png = render_png_pixels(figure, width, height)?;
    write_atomic(svg_path, |tmp| {
        let mut f = File::create(tmp)?;
        f.write_all(svg.as_bytes())?;
        f.sync_all()
    })?;
    write_atomic(png_path, |tmp| encode_png(tmp, &png, width, height))
}

fn check_size(width: u32, height: u32, columns: usize, rows: usize) -> Result<(), ChartError> {
    check_max_size(width, height)?;
    let (cw, ch) = (width as usize / columns, height as usize / rows);
    if cw < MIN_PANEL.0 as usize || ch < MIN_PANEL.1 as usize {
        return Err(ChartError::Invalid(format!(
            "figure size {width}x{height} leaves {cw}x{ch} pixels per panel, at least {}x{} are needed",
            MIN_PANEL.0, MIN_PANEL.1
        )));
    }
    Ok(())
}

/// Rejects figures larger than [`MAX_SIDE`] or [`MAX_PIXELS`].
fn check_max_size(width: u32, height: u32) -> Result<(), ChartError> {
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(ChartError::Invalid(format!(
            "figure size {width}x{height} is too large (at most {MAX_SIDE} per side and {MAX_PIXELS} pixels)"
        )));
    }
    Ok(())
}

/// Checks a chart and converts it into axis space.
fn prepare(chart: &LineChart) -> Result<Prepared<'_>, ChartError> {
    let invalid = |msg: String| ChartError::Invalid(format!("chart {:?}: {msg}", chart.title));
    if chart.series.is_empty() {
        return Err(invalid("it has no series".to_string()));
    }
    if let Some(s) = chart
        .series
        .iter()
        .find(|s| s.points.is_empty() && s.missing.is_empty())
    {
        return Err(invalid(format!("series {:?} has no points", s.name)));
    }
    let (x, categories) = match &chart.x {
        XAxis::Numeric { min, max } => {
            if !(min.is_finite() && max.is_finite() && min < max) {
                return Err(invalid(format!(
                    "numeric x range {min}..{max} must be finite with min < max"
                )));
            }
            if chart.log_x {
                let (lo, hi) = (min.log10(), max.log10());
                if !(*min > 0.0 && lo.is_finite() && hi.is_finite() && lo < hi) {
                    return Err(invalid(format!(
                        "x range {min}..{max} must be positive (and not empty) on a log scale"
                    )));
                }
                (Span { lo, hi }, None)
            } else {
                (Span { lo: *min, hi: *max }, None)
            }
        }
        XAxis::Categories(c) => {
            if chart.log_x {
                return Err(invalid(
                    "a log x axis needs a numeric x axis, not categories".to_string(),
                ));
            }
            if c.is_empty() {
                return Err(invalid("the x axis has no categories".to_string()));
            }
            let n = c.len() as f64;
            (
                Span {
                    lo: -0.5,
                    hi: n - 0.5,
                },
                Some(c.as_slice()),
            )
        }
    };
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
    if chart.log_y {
        for s in &chart.series {
            if let Some(&(px, py)) = s.points.iter().find(|p| p.1.is_finite() && p.1 <= 0.0) {
                return Err(invalid(format!(
                    "series {:?} has y = {py} (at x = {px}) but a log scale needs y > 0",
                    s.name
                )));
            }
        }
    }
    if chart.log_x {
        for s in &chart.series {
            if let Some(&(px, py)) = s.points.iter().find(|p| p.0.is_finite() && p.0 <= 0.0) {
                return Err(invalid(format!(
                    "series {:?} has x = {px} (y = {py}) but a log x axis needs x > 0",
                    s.name
                )));
            }
        }
    }
    for s in &chart.series {
        let Some(bars) = &s.error_bars else { continue };
        if bars.len() != s.points.len() {
            return Err(invalid(format!(
                "series {:?} has {} error bars for {} points",
                s.name,
                bars.len(),
                s.points.len()
            )));
        }
        for (&(lo, hi), &(px, _)) in bars.iter().zip(&s.points) {
            if !(lo.is_finite() && hi.is_finite()) {
                continue;
            }
            if lo > hi {
                return Err(invalid(format!(
                    "series {:?} has an error bar from {lo} down to {hi} (at x = {px})",
                    s.name
                )));
            }
            if chart.log_y && lo <= 0.0 {
                return Err(invalid(format!(
                    "series {:?} has an error bar reaching {lo} (at x = {px}) but a log scale needs y > 0",
                    s.name
                )));
            }
        }
    }
    for s in &chart.series {
        if let Some(&x) = s
            .missing
            .iter()
            .find(|x| !x.is_finite() || (chart.log_x && **x <= 0.0))
        {
            return Err(invalid(format!(
                "series {:?} marks x = {x} as missing, which is not on the x axis",
                s.name
            )));
        }
    }
    // A single category is a dot chart: the series side by side, no lines.
    let dots = categories.is_some_and(|c| c.len() == 1);
    let n_series = chart.series.len() as f64;
    let dodge = |i: usize| {
        if dots {
            (i as f64 - 0.5 * (n_series - 1.0)) * (0.6 / n_series)
        } else {
            0.0
        }
    };
    let to_axis = |v: f64| if chart.log_y { v.log10() } else { v };
    let series: Vec<PreparedSeries<'_>> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let to_x = |v: f64| (if chart.log_x { v.log10() } else { v }) + dodge(i);
            let points: Vec<Option<(f64, f64)>> = s
                .points
                .iter()
                .map(|&(px, py)| {
                    let (ax, ay) = (to_x(px), to_axis(py));
                    (ax.is_finite() && ay.is_finite()).then_some((ax, ay))
                })
                .collect();
            let line = if dots {
                Vec::new()
            } else if s.step {
                draw::step_line(&points)
            } else {
                points.clone()
            };
            let bars = s.error_bars.as_ref().map_or_else(Vec::new, |bars| {
                bars.iter()
                    .zip(&s.points)
                    .filter_map(|(&(lo, hi), &(px, _))| {
                        let (ax, alo, ahi) = (to_x(px), to_axis(lo), to_axis(hi));
                        (ax.is_finite() && alo.is_finite() && ahi.is_finite())
                            .then_some((ax, alo, ahi))
                    })
                    .collect()
            });
            let dots = dots || !line.windows(2).any(|w| w[0].is_some() && w[1].is_some());
            let band = s.band.as_deref().map_or_else(Vec::new, |b| {
                band::prepare(b, s.step, to_x, |v| {
                    if chart.log_y && v <= 0.0 {
                        f64::NEG_INFINITY
                    } else {
                        to_axis(v)
                    }
                })
            });
            PreparedSeries {
                name: &s.name,
                marker: s.marker,
                color: draw::palette(s.color.unwrap_or(i)),
                dashed: s.dashed,
                points,
                line,
                bars,
                missing: s.missing.iter().map(|&x| to_x(x)).collect(),
                missing_label: &s.missing_label,
                dots,
                band,
            }
        })
        .collect();
    let data = series
        .iter()
        .flat_map(|s| {
            s.points
                .iter()
                .flatten()
                .map(|&(_, y)| y)
                .chain(s.bars.iter().flat_map(|&(_, lo, hi)| [lo, hi]))
                .chain(band::y_values(&s.band))
        })
        .fold(None, |acc: Option<(f64, f64)>, y| match acc {
            None => Some((y, y)),
            Some((lo, hi)) => Some((lo.min(y), hi.max(y))),
        });
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
        x,
        categories,
        y,
        log_x: chart.log_x,
        log_y: chart.log_y,
        series,
        boxes: Vec::new(),
        box_legend: Vec::new(),
    })
}

fn render_svg(figure: &impl Figure, width: u32, height: u32) -> Result<String, ChartError> {
    let flavor = Flavor {
        unit: 1.0,
        svg: true,
    };
    let mut svg = String::new();
    let rotated = {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| ChartError::Draw(e.to_string()))?;
        let rotated = figure.draw(&root, flavor)?;
        root.present()
            .map_err(|e| ChartError::Draw(e.to_string()))?;
        rotated
    };
    if !rotated.is_empty() {
        let at = svg
            .rfind("</svg>")
            .ok_or_else(|| ChartError::Draw("SVG output lacks </svg>".to_string()))?;
        let extra: String = rotated
            .iter()
            .map(|l| font::rotated_svg_element(l, 1.0 / 1.24))
            .collect();
        svg.insert_str(at, &extra);
    }
    Ok(svg)
}

/// Renders at [`SUPERSAMPLE`] times the size and averages down; returns
/// `width * height` RGB pixels.
fn render_png_pixels(figure: &impl Figure, width: u32, height: u32) -> Result<Vec<u8>, ChartError> {
    let ss = SUPERSAMPLE;
    let (bw, bh) = (width * ss, height * ss);
    let mut big = vec![255u8; bw as usize * bh as usize * 3];
    {
        let backend = BitMapBackend::<plotters::backend::RGBPixel>::with_buffer_and_format(
            &mut big,
            (bw, bh),
        )
        .map_err(|e| ChartError::Draw(e.to_string()))?;
        let root = backend.into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| ChartError::Draw(e.to_string()))?;
        let flavor = Flavor {
            unit: f64::from(ss),
            svg: false,
        };
        let rotated = figure.draw(&root, flavor)?;
        for label in &rotated {
            font::draw_rotated_pixels(&root, label)?;
        }
        root.present()
            .map_err(|e| ChartError::Draw(e.to_string()))?;
    }
    let (w, h, ss) = (width as usize, height as usize, ss as usize);
    let bw = bw as usize;
    let mut out = vec![0u8; w * h * 3];
    let n = (ss * ss) as u32;
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let mut sum = 0u32;
                for dy in 0..ss {
                    let row = (y * ss + dy) * bw;
                    for dx in 0..ss {
                        sum += u32::from(big[(row + x * ss + dx) * 3 + c]);
                    }
                }
                out[(y * w + x) * 3 + c] = ((sum + n / 2) / n) as u8;
            }
        }
    }
    Ok(out)
}

/// Writes RGB `pixels` as a PNG file at `path` (which must end in `.png`).
fn encode_png(path: &Path, pixels: &[u8], width: u32, height: u32) -> std::io::Result<()> {
    let other = |e: String| std::io::Error::other(e);
    {
        let mut backend = BitMapBackend::new(path, (width, height));
        backend
            .blit_bitmap((0, 0), (width, height), pixels)
            .map_err(|e| other(e.to_string()))?;
        backend.present().map_err(|e| other(e.to_string()))?;
    }
    File::open(path)?.sync_all()
}

/// Writes `path` by letting `write` fill a temporary file next to it, synced and renamed
/// over `path`: the workspace's one atomic replacement ([`sudoku_core::atomic::replace_with`]),
/// which refuses a symbolic link, FIFO, device or folder in `path`'s place. The temporary
/// file ends in `path`'s extension, so that the PNG encoder picks the format.
fn write_atomic(
    path: &Path,
    write: impl FnOnce(&Path) -> std::io::Result<()>,
) -> Result<(), ChartError> {
    sudoku_core::atomic::replace_with(path, write).map_err(|source| ChartError::Io {
        path: path.to_path_buf(),
        source,
    })
}

//! Layout and drawing of chart panels onto any plotters backend.
//!
//! Everything is placed in device pixels. The PNG is drawn at twice its
//! size and scaled down (anti-aliasing), so all lengths are given in nominal
//! pixels and multiplied by [`Flavor::unit`].

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

use crate::font::{self, RotatedLabel, CAP, DESCENT, LINE};
use crate::scale::{self, Span, Tick};
use crate::{ChartError, Marker};

/// Palette entry `i % 8`.
pub(crate) fn palette(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Colour-blind friendly palette (Okabe & Ito), series `i` takes entry `i % 8`
/// unless it asks for another one.
pub(crate) const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0x8C, 0x56, 0x4B), // brown
];

pub(crate) const TEXT: RGBColor = RGBColor(0x11, 0x11, 0x11);
const GRID: RGBColor = RGBColor(0xE3, 0xE3, 0xE3);
pub(crate) const FRAME: RGBColor = RGBColor(0x33, 0x33, 0x33);
const LEGEND_EDGE: RGBColor = RGBColor(0xAA, 0xAA, 0xAA);
const DEG45: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// How the target backend renders text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flavor {
    /// Device pixels per nominal pixel.
    pub unit: f64,
    pub svg: bool,
}

impl Flavor {
    /// Factor applied to font sizes when drawing so that an SVG viewer
    /// showing DejaVu Sans matches the PNG: plotters writes
    /// `font-size = size / 1.24`, while ab_glyph renders 1 em = 0.859 size.
    pub fn draw_scale(&self) -> f64 {
        if self.svg {
            0.859 * 1.24
        } else {
            1.0
        }
    }

    /// Distance from the top anchor to the baseline, per unit of (measuring)
    /// font size: plotters' SVG backend uses `dy="0.76em"`, its ab_glyph
    /// rasteriser puts the baseline at half the size.
    fn top_to_baseline(&self) -> f64 {
        if self.svg {
            0.76 / 1.24 * self.draw_scale()
        } else {
            0.5
        }
    }
}

/// A chart checked and converted into axis space, ready to lay out.
pub(crate) struct Prepared<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub x: Span,
    pub categories: Option<&'a [String]>,
    pub y: Span,
    pub log_x: bool,
    pub log_y: bool,
    pub series: Vec<PreparedSeries<'a>>,
    /// Box plots (box charts only), drawn below any lines.
    pub boxes: Vec<PreparedBox>,
    /// Legend entries of a box chart: name and colour.
    pub box_legend: Vec<(&'a str, RGBColor)>,
}

pub(crate) struct PreparedSeries<'a> {
    pub name: &'a str,
    pub marker: Marker,
    pub color: RGBColor,
    pub dashed: bool,
    /// Axis-space (x, y) of the points; `None` breaks the line.
    pub points: Vec<Option<(f64, f64)>>,
    /// The vertices of the line: `points`, or with the corners of a step
    /// function between them.
    pub line: Vec<Option<(f64, f64)>>,
    /// Error bars as axis-space (x, low, high).
    pub bars: Vec<(f64, f64, f64)>,
    /// Axis-space x of the points that have no value, marked at the bottom
    /// edge, and the legend text of that mark.
    pub missing: Vec<f64>,
    pub missing_label: &'a str,
    /// Markers only, no line (a dot chart).
    pub dots: bool,
    /// The shaded confidence band (see [`crate::band`]).
    pub band: crate::band::PreparedBand,
}

/// One box of a box plot, in axis space.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PreparedBox {
    /// Centre and half width on the x axis.
    pub x: f64,
    pub half: f64,
    pub whisker_lo: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub whisker_hi: f64,
    pub outliers: Vec<f64>,
    pub color: RGBColor,
}

/// The vertices of a post-step line through `points`: between two
/// consecutive points a corner at (next x, previous y) is added.
pub(crate) fn step_line(points: &[Option<(f64, f64)>]) -> Vec<Option<(f64, f64)>> {
    let mut out = Vec::with_capacity(2 * points.len());
    let mut prev: Option<(f64, f64)> = None;
    for &p in points {
        if let (Some(a), Some(b)) = (prev, p) {
            out.push(Some((b.0, a.1)));
        }
        out.push(p);
        prev = p;
    }
    out
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Rect {
    pub(crate) x0: f64,
    pub(crate) y0: f64,
    pub(crate) x1: f64,
    pub(crate) y1: f64,
}

#[cfg(test)]
impl Rect {
    fn intersects(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
    fn inside(&self, o: &Rect) -> bool {
        self.x0 >= o.x0 - 1e-6
            && self.x1 <= o.x1 + 1e-6
            && self.y0 >= o.y0 - 1e-6
            && self.y1 <= o.y1 + 1e-6
    }
}

/// Font sizes (plotters sizes, device pixels) and derived lengths.
#[derive(Debug, Clone, Copy)]
struct Metrics {
    tick: f64,
    label: f64,
    title: f64,
    legend: f64,
    pad: f64,
    tick_len: f64,
    gap: f64,
    line_width: f64,
    marker: f64,
}

impl Metrics {
    fn new(cell_w: f64, cell_h: f64, unit: f64) -> Metrics {
        // Nominal sizes from the nominal cell size. The site shows a figure scaled to its
        // column (about 1340 px in a 1400 px window): at 1/34 of a panel's width, tick labels
        // of a three-panel figure still show at about 13 px (at 1/40 they came out near 11).
        let base = (cell_w / unit / 34.0)
            .min(cell_h / unit / 26.0)
            .clamp(12.0, 22.0);
        let f = base * unit;
        Metrics {
            tick: f,
            label: 1.1 * f,
            title: 1.25 * f,
            legend: f,
            pad: 0.7 * f,
            tick_len: 0.35 * f,
            gap: 0.3 * f,
            line_width: (base / 8.0).max(1.25) * unit,
            marker: 0.3 * f,
        }
    }
}

struct XTick {
    pos: f64,
    label: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum XLabels {
    Horizontal,
    Rotated,
}

struct Layout {
    plot: Rect,
    x_ticks: Vec<XTick>,
    x_labels: XLabels,
    x_minor: Vec<f64>,
    y_ticks: Vec<Tick>,
    y_minor: Vec<f64>,
    /// right edge of the y tick labels
    y_label_right: f64,
}

/// Draws all panels into `root`, row by row. Labels at 45 degrees are
/// returned for the caller to draw, since that is backend specific.
pub(crate) fn draw_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    panels: &[Prepared<'_>],
    columns: usize,
    flavor: Flavor,
) -> Result<Vec<RotatedLabel>, ChartError> {
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (f64::from(w), f64::from(h));
    let rows = panels.len().div_ceil(columns);
    let m = Metrics::new(w / columns as f64, h / rows as f64, flavor.unit);
    let figure = Rect {
        x0: 0.0,
        y0: 0.0,
        x1: w,
        y1: h,
    };
    let (area, shared) = shared_legend(panels, figure, &m);
    let (cw, ch) = (
        (area.x1 - area.x0) / columns as f64,
        (area.y1 - area.y0) / rows as f64,
    );
    let cell = |i: usize| {
        let (r, c) = (i / columns, i % columns);
        Rect {
            x0: (area.x0 + c as f64 * cw).round(),
            y0: (area.y0 + r as f64 * ch).round(),
            x1: (area.x0 + (c + 1) as f64 * cw).round(),
            y1: (area.y0 + (r + 1) as f64 * ch).round(),
        }
    };
    // First pass: each panel on its own. A row whose legends do not all fit
    // right of their plots puts them all below. Then the plots of a row get
    // the largest top and bottom margins of that row, so their frames line up.
    let mut placement = vec![
        if shared.is_some() {
            Placement::Hidden
        } else {
            Placement::Auto
        };
        rows
    ];
    for (i, panel) in panels.iter().enumerate() {
        let plan = plan_panel(
            panel,
            cell(i),
            &m,
            Reserve::default(),
            placement[i / columns],
        )?;
        if plan.below {
            placement[i / columns] = Placement::Below;
        }
    }
    let mut reserve = vec![Reserve::default(); rows];
    for (i, panel) in panels.iter().enumerate() {
        let c = cell(i);
        let plan = plan_panel(panel, c, &m, Reserve::default(), placement[i / columns])?;
        let row = &mut reserve[i / columns];
        row.top = row.top.max(plan.layout.plot.y0 - c.y0);
        row.bottom = row.bottom.max(c.y1 - plan.layout.plot.y1);
    }
    let mut rotated = Vec::new();
    let mut first_plot = None;
    for (i, panel) in panels.iter().enumerate() {
        let c = cell(i);
        let plan = plan_panel(panel, c, &m, reserve[i / columns], placement[i / columns])?;
        first_plot.get_or_insert(plan.layout.plot);
        draw_panel(root, panel, &plan, &m, flavor, &mut rotated)?;
    }
    if let Some((legend, at)) = shared {
        // right of the figure: level with the top of the first row's plots
        let y = match (at.1, first_plot) {
            (y, Some(plot)) if y < 0.0 => plot.y0,
            (y, _) => y,
        };
        legend.draw(root, (at.0, y), &m, flavor)?;
    }
    Ok(rotated)
}

/// A legend and its top left corner.
type PlacedLegend = (LegendBox, (f64, f64));

/// Where the legend of a panel goes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Placement {
    /// right of the plot if it fits there, else below
    Auto,
    Below,
    /// not drawn (the figure draws one legend for all panels)
    Hidden,
}

/// With several panels whose legends are the same, one legend for the
/// figure: right of the panels (in columns if tall) if it takes at most
/// [`RIGHT_SHARE`] / 2 of the width, else below them. Returns the area left
/// for the panels and the legend with its corner (y < 0: level with the top
/// of the first plot).
fn shared_legend(
    panels: &[Prepared<'_>],
    figure: Rect,
    m: &Metrics,
) -> (Rect, Option<PlacedLegend>) {
    if panels.len() < 2 {
        return (figure, None);
    }
    let mut legends = panels.iter().map(|p| LegendBox::measure(p, m));
    let Some(mut legend) = legends.next() else {
        return (figure, None);
    };
    if legend.entries.is_empty() || !legends.all(|l| l.same_entries(&legend)) {
        return (figure, None);
    }
    let (w, h) = (figure.x1 - figure.x0, figure.y1 - figure.y0);
    let n = legend.entries.len();
    let rows_fit = (((h - 6.0 * m.pad) / (LINE * m.legend)).floor() as usize).max(1);
    legend.arrange(n.div_ceil(rows_fit), m);
    if legend.w + 2.0 * m.pad <= 0.5 * RIGHT_SHARE * w {
        let x1 = figure.x1 - legend.w - 2.0 * m.pad;
        let area = Rect { x1, ..figure };
        return (area, Some((legend, (x1 + m.pad, -1.0))));
    }
    let mut cols = n;
    legend.arrange(cols, m);
    while cols > 1 && legend.w > w - 2.0 * m.pad {
        cols -= 1;
        legend.arrange(cols, m);
    }
    let y1 = figure.y1 - legend.h - m.pad;
    let area = Rect { y1, ..figure };
    let x = (figure.x0 + 0.5 * (w - legend.w)).max(figure.x0 + m.pad);
    (area, Some((legend, (x, y1))))
}

/// Least distances from the cell's top and bottom to the plot's frame.
#[derive(Debug, Clone, Copy, Default)]
struct Reserve {
    top: f64,
    bottom: f64,
}

struct Plan {
    /// The panel's whole cell.
    outer: Rect,
    /// The part of the panel's cell left for the plot and its labels (the
    /// cell less the legend's strip).
    cell: Rect,
    layout: Layout,
    legend: LegendBox,
    legend_at: (f64, f64),
    /// the legend is below the plot
    below: bool,
}

/// Lays a panel out and places its legend outside the plot, so that it never
/// covers data: right of the plot (in as many columns as its height needs)
/// if that takes at most [`RIGHT_SHARE`] of the cell's width, else in a strip
/// below the x axis title, its entries in as many columns as fit.
fn plan_panel(
    p: &Prepared<'_>,
    cell: Rect,
    m: &Metrics,
    reserve: Reserve,
    placement: Placement,
) -> Result<Plan, ChartError> {
    let mut legend = LegendBox::measure(p, m);
    if placement == Placement::Hidden {
        legend.entries.clear();
    }
    if legend.entries.is_empty() {
        let layout = lay_out(p, cell, m, reserve)?;
        return Ok(Plan {
            outer: cell,
            cell,
            layout,
            legend,
            legend_at: (0.0, 0.0),
            below: false,
        });
    }
    let cell_w = cell.x1 - cell.x0;
    // Right of the plot: as tall as the plot at most, else in more columns.
    let plot_h = lay_out(p, cell, m, reserve)
        .map(|l| l.plot.y1 - l.plot.y0)
        .unwrap_or(cell.y1 - cell.y0);
    let n = legend.entries.len();
    let rows_fit = (((plot_h - 0.7 * m.legend) / (LINE * m.legend)).floor() as usize).max(1);
    legend.arrange(n.div_ceil(rows_fit), m);
    if placement == Placement::Auto && legend.w + 2.0 * m.pad <= RIGHT_SHARE * cell_w {
        let inner = Rect {
            x1: cell.x1 - legend.w - m.pad,
            ..cell
        };
        let layout = lay_out(p, inner, m, reserve)?;
        let legend_at = (inner.x1, layout.plot.y0);
        return Ok(Plan {
            outer: cell,
            cell: inner,
            layout,
            legend,
            legend_at,
            below: false,
        });
    }
    // Below: as many columns as fit across the cell.
    let mut cols = n;
    legend.arrange(cols, m);
    while cols > 1 && legend.w > cell_w - 2.0 * m.pad {
        cols -= 1;
        legend.arrange(cols, m);
    }
    let strip = legend.h + m.pad;
    let inner = Rect {
        y1: cell.y1 - strip,
        ..cell
    };
    let reserve = Reserve {
        top: reserve.top,
        bottom: (reserve.bottom - strip).max(0.0),
    };
    let layout = lay_out(p, inner, m, reserve)?;
    let mid = 0.5 * (cell.x0 + cell.x1);
    let legend_at = ((mid - 0.5 * legend.w).max(cell.x0 + m.pad), inner.y1);
    Ok(Plan {
        outer: cell,
        cell: inner,
        layout,
        legend,
        legend_at,
        below: true,
    })
}

/// Largest share of a panel's width a legend right of the plot may take.
const RIGHT_SHARE: f64 = 0.4;

pub(crate) fn draw_err<E: std::error::Error + Send + Sync>(
    e: plotters::drawing::DrawingAreaErrorKind<E>,
) -> ChartError {
    ChartError::Draw(e.to_string())
}

fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &Prepared<'_>,
    plan: &Plan,
    m: &Metrics,
    fl: Flavor,
    rotated: &mut Vec<RotatedLabel>,
) -> Result<(), ChartError> {
    let cell = plan.cell;
    let layout = &plan.layout;
    // Points without a value get a band of their own below the data (see [`missing_band`]):
    // the data are mapped above it, the x axis sits under it.
    let full = layout.plot;
    let band = missing_band(p, &full, m);
    let plot = Rect {
        y1: full.y1 - band,
        ..full
    };
    let unit = fl.unit;

    // grid
    let grid_style = ShapeStyle::from(&GRID).stroke_width(px_width(unit));
    for t in &layout.y_ticks {
        let y = map_y(&plot, p.y.frac(t.pos));
        line(root, (plot.x0, y), (plot.x1, y), grid_style)?;
    }
    for t in &layout.x_ticks {
        let x = map_x(&plot, p.x.frac(t.pos));
        line(root, (x, plot.y0), (x, plot.y1), grid_style)?;
    }

    // data
    for b in &p.boxes {
        draw_box(root, p, &plot, b, m)?;
    }
    crate::band::draw_bands(root, p, &plot)?;
    for s in &p.series {
        let style = ShapeStyle::from(&s.color).stroke_width(px_width(m.line_width));
        for run in line_runs(p, &plot, &s.line) {
            if s.dashed {
                for dash in dashes(&run, m) {
                    stroke(root, &dash, style, fl)?;
                }
            } else {
                let pts: Vec<(i32, i32)> = run.iter().map(|&q| ipt(q)).collect();
                root.draw(&PathElement::new(pts, style)).map_err(draw_err)?;
            }
        }
    }
    for s in &p.series {
        let style = ShapeStyle::from(&s.color).stroke_width(px_width(bar_width(m)));
        for bar in bar_segments(p, &plot, &s.bars, m) {
            stroke(root, &[bar.0, bar.1], style, fl)?;
        }
    }
    for s in &p.series {
        for q in marker_points(p, &plot, &s.points) {
            draw_marker(root, s.marker, q, m, s.color)?;
        }
    }
    let frame = ShapeStyle::from(&FRAME).stroke_width(px_width(unit));
    if band > 0.0 {
        let corners = [ipt((full.x0, plot.y1)), ipt((full.x1, full.y1))];
        root.draw(&Rectangle::new(corners, BAND.filled()))
            .map_err(draw_err)?;
        line(root, (full.x0, plot.y1), (full.x1, plot.y1), frame)?;
    }
    for (i, q) in missing_points(p, &full, m) {
        draw_missing(root, q, m, p.series[i].color)?;
    }

    // frame and ticks
    root.draw(&Rectangle::new(
        [ipt((full.x0, full.y0)), ipt((full.x1, full.y1))],
        frame,
    ))
    .map_err(draw_err)?;
    for t in &layout.y_ticks {
        let y = map_y(&plot, p.y.frac(t.pos));
        line(root, (plot.x0 - m.tick_len, y), (plot.x0, y), frame)?;
        if let Some(label) = &t.label {
            text(
                root,
                label,
                m.tick,
                fl,
                layout.y_label_right,
                y + 0.5 * CAP * m.tick,
                HPos::Right,
            )?;
        }
    }
    for &pos in &layout.y_minor {
        let y = map_y(&plot, p.y.frac(pos));
        line(root, (plot.x0 - 0.55 * m.tick_len, y), (plot.x0, y), frame)?;
    }
    for &pos in &layout.x_minor {
        let x = map_x(&plot, p.x.frac(pos));
        line(root, (x, full.y1), (x, full.y1 + 0.55 * m.tick_len), frame)?;
    }
    let label_top = full.y1 + m.tick_len + m.gap;
    for t in &layout.x_ticks {
        let x = map_x(&plot, p.x.frac(t.pos));
        line(root, (x, full.y1), (x, full.y1 + m.tick_len), frame)?;
        let Some(label) = &t.label else { continue };
        match layout.x_labels {
            XLabels::Horizontal => {
                text(
                    root,
                    label,
                    m.tick,
                    fl,
                    x,
                    label_top + CAP * m.tick,
                    HPos::Center,
                )?;
            }
            XLabels::Rotated => rotated.push(RotatedLabel {
                text: font::clean(label),
                x: x + 0.25 * m.tick,
                y: label_top + 0.25 * m.tick,
                size: m.tick * fl.draw_scale(),
                color: TEXT,
            }),
        }
    }

    // axis titles and panel title
    let mid_x = 0.5 * (plot.x0 + plot.x1);
    if !p.x_label.is_empty() {
        let baseline = cell.y1 - m.pad - DESCENT * m.label;
        let half = 0.5 * font::text_width(p.x_label, m.label);
        let x = mid_x
            .min(plan.outer.x1 - m.pad - half)
            .max(plan.outer.x0 + m.pad + half);
        text(root, p.x_label, m.label, fl, x, baseline, HPos::Center)?;
    }
    if !p.y_label.is_empty() {
        let left = cell.x0 + m.pad;
        let top_anchor = left + (CAP + 0.1) * m.label - fl.top_to_baseline() * m.label;
        let style = text_style(m.label, fl, HPos::Center).transform(FontTransform::Rotate270);
        let pos = ipt((top_anchor, 0.5 * (plot.y0 + plot.y1)));
        root.draw_text(&font::clean(p.y_label), &style, pos)
            .map_err(draw_err)?;
    }
    // the title, line by line, centred over the plot as far as the panel allows
    for (i, title) in p.title.lines().enumerate() {
        let baseline = cell.y0 + m.pad + CAP * m.title + i as f64 * LINE * m.title;
        let size = title_size(title, m.title, plan.outer.x1 - plan.outer.x0 - 2.0 * m.pad);
        let half = 0.5 * font::text_width(title, size);
        let x = mid_x
            .min(plan.outer.x1 - m.pad - half)
            .max(plan.outer.x0 + m.pad + half);
        text(root, title, size, fl, x, baseline, HPos::Center)?;
    }

    plan.legend.draw(root, plan.legend_at, m, fl)
}

/// The font size of a title line: `size`, or smaller so that the line fits in `width`. A
/// line wider than its panel (a `--quick` note above each panel of a grid) ran into the
/// titles of the panels beside it.
fn title_size(line: &str, size: f64, width: f64) -> f64 {
    let w = font::text_width(line, size);
    if w > width && w > 0.0 {
        size * width / w
    } else {
        size
    }
}

pub(crate) fn px_width(w: f64) -> u32 {
    w.round().max(1.0) as u32
}

pub(crate) fn ipt((x, y): (f64, f64)) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

fn map_x(plot: &Rect, f: f64) -> f64 {
    plot.x0 + f * (plot.x1 - plot.x0)
}

fn map_y(plot: &Rect, f: f64) -> f64 {
    plot.y1 - f * (plot.y1 - plot.y0)
}

pub(crate) fn line<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: (f64, f64),
    b: (f64, f64),
    style: ShapeStyle,
) -> Result<(), ChartError> {
    root.draw(&PathElement::new(vec![ipt(a), ipt(b)], style))
        .map_err(draw_err)
}

fn text_style(size: f64, fl: Flavor, h: HPos) -> TextStyle<'static> {
    TextStyle::from(font::font(size * fl.draw_scale()))
        .color(&TEXT)
        .pos(Pos::new(h, VPos::Top))
}

/// Horizontal text with its baseline at `baseline`.
pub(crate) fn text<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    s: &str,
    size: f64,
    fl: Flavor,
    x: f64,
    baseline: f64,
    h: HPos,
) -> Result<(), ChartError> {
    let style = text_style(size, fl, h);
    let y = baseline - fl.top_to_baseline() * size;
    root.draw_text(&font::clean(s), &style, ipt((x, y)))
        .map_err(draw_err)
}

/// Places the plot rectangle inside `cell`, leaving room for titles, tick
/// labels.
fn lay_out(
    p: &Prepared<'_>,
    cell: Rect,
    m: &Metrics,
    reserve: Reserve,
) -> Result<Layout, ChartError> {
    let title_h = match p.title.lines().count() {
        0 => 0.0,
        n => (n as f64 * LINE + 0.2) * m.title,
    };
    let x_title_h = if p.x_label.is_empty() {
        0.0
    } else {
        LINE * m.label
    };
    let y_title_w = if p.y_label.is_empty() {
        0.0
    } else {
        (CAP + DESCENT + 0.3) * m.label
    };
    let top = (cell.y0 + m.pad + title_h).max(cell.y0 + reserve.top);
    let lowest = cell.y1 - reserve.bottom;
    let mut left = cell.x0 + m.pad + y_title_w + 3.0 * m.tick;
    let mut right = cell.x1 - m.pad;
    let mut bottom = (cell.y1 - m.pad - x_title_h - m.tick_len - m.gap - LINE * m.tick).min(lowest);
    let mut result = None;
    for _ in 0..4 {
        let plot = Rect {
            x0: left,
            y0: top,
            x1: right,
            y1: bottom,
        };
        let (pw, ph) = (plot.x1 - plot.x0, plot.y1 - plot.y0);
        if pw < 4.0 * m.tick || ph < 3.0 * m.tick {
            return Err(ChartError::Invalid(format!(
                "the figure is too small for the labels of chart {:?}",
                p.title
            )));
        }
        // y ticks
        let target = ((ph / (3.2 * m.tick)) as usize).clamp(2, 10);
        let (y_ticks, y_minor) = if p.log_y {
            scale::log_ticks(p.y.lo, p.y.hi, target)
        } else {
            (scale::linear_ticks(p.y.lo, p.y.hi, target), Vec::new())
        };
        let y_tick_w = y_ticks
            .iter()
            .filter_map(|t| t.label.as_deref())
            .map(|l| font::text_width(l, m.tick))
            .fold(0.0, f64::max);
        // x ticks
        let XAxisPlan {
            ticks: x_ticks,
            labels: x_labels,
            minor: x_minor,
            below,
            need_left,
            need_right,
        } = x_axis(p, &plot, m);
        let new_left = (cell.x0 + m.pad + y_title_w + y_tick_w + m.gap + m.tick_len)
            .max(cell.x0 + m.pad + need_left);
        let new_right = cell.x1 - m.pad - need_right;
        let new_bottom = (cell.y1 - m.pad - x_title_h - below - m.gap - m.tick_len).min(lowest);
        let stable = (new_left - left).abs() < 0.5
            && (new_right - right).abs() < 0.5
            && (new_bottom - bottom).abs() < 0.5;
        result = Some(Layout {
            plot,
            x_ticks,
            x_labels,
            x_minor,
            y_ticks,
            y_minor,
            y_label_right: plot.x0 - m.tick_len - m.gap,
        });
        if stable {
            break;
        }
        left = new_left;
        right = new_right;
        bottom = new_bottom;
    }
    result.ok_or_else(|| ChartError::Draw("layout failed".to_string()))
}

/// Ticks and labels of the x axis for a plot rectangle.
struct XAxisPlan {
    ticks: Vec<XTick>,
    /// How labels are drawn.
    labels: XLabels,
    /// Unlabelled minor tick positions (log axes).
    minor: Vec<f64>,
    /// How far the labels reach below the tick marks.
    below: f64,
    /// How far labels stick out left of the plot's left edge and right of
    /// its right edge.
    need_left: f64,
    need_right: f64,
}

fn x_axis(p: &Prepared<'_>, plot: &Rect, m: &Metrics) -> XAxisPlan {
    let pw = plot.x1 - plot.x0;
    let f = m.tick;
    let offset_of = |pos: f64| p.x.frac(pos) * pw;
    match p.categories {
        Some(cats) => {
            let n = cats.len();
            let widths: Vec<f64> = cats.iter().map(|c| font::text_width(c, f)).collect();
            let spacing = pw / n as f64;
            let fits = widths
                .windows(2)
                .all(|w| 0.5 * (w[0] + w[1]) + 0.8 * f <= spacing)
                && widths.iter().all(|&w| w <= spacing * 2.0);
            if fits {
                let ticks = cats
                    .iter()
                    .enumerate()
                    .map(|(i, c)| XTick {
                        pos: i as f64,
                        label: Some(c.clone()),
                    })
                    .collect();
                let need_left = widths.first().map_or(0.0, |w| 0.5 * w - 0.5 * spacing);
                let need_right = widths.last().map_or(0.0, |w| 0.5 * w - 0.5 * spacing);
                return XAxisPlan {
                    ticks,
                    labels: XLabels::Horizontal,
                    minor: Vec::new(),
                    below: LINE * f,
                    need_left: need_left.max(0.0),
                    need_right: need_right.max(0.0),
                };
            }
            // 45 degrees; thin out labels whose lines would touch
            let every = ((LINE * f) / (spacing * DEG45)).ceil().max(1.0) as usize;
            let mut ticks = Vec::with_capacity(n);
            let mut below: f64 = 0.0;
            let mut need_left: f64 = 0.0;
            for (i, c) in cats.iter().enumerate().step_by(every) {
                let w = widths[i];
                below = below.max((w + 0.5 * CAP * f) * DEG45 + 0.25 * f);
                need_left = need_left.max((w + CAP * f) * DEG45 - 0.25 * f - offset_of(i as f64));
                ticks.push(XTick {
                    pos: i as f64,
                    label: Some(c.clone()),
                });
            }
            XAxisPlan {
                ticks,
                labels: XLabels::Rotated,
                minor: Vec::new(),
                below: below + DESCENT * f,
                need_left: need_left.max(0.0),
                need_right: 0.0,
            }
        }
        None => {
            let mut target = ((pw / (4.5 * f)) as usize).clamp(2, 12);
            loop {
                let (ticks, minor) = if p.log_x {
                    scale::log_ticks(p.x.lo, p.x.hi, target)
                } else {
                    (scale::linear_ticks(p.x.lo, p.x.hi, target), Vec::new())
                };
                let ticks: Vec<XTick> = ticks
                    .into_iter()
                    .map(|t| XTick {
                        pos: t.pos,
                        label: t.label,
                    })
                    .collect();
                let widths: Vec<f64> = ticks
                    .iter()
                    .map(|t| t.label.as_deref().map_or(0.0, |l| font::text_width(l, f)))
                    .collect();
                let fits = ticks.windows(2).zip(widths.windows(2)).all(|(t, w)| {
                    0.5 * (w[0] + w[1]) + 1.2 * f <= offset_of(t[1].pos) - offset_of(t[0].pos)
                });
                if fits || target <= 2 {
                    let need_left = ticks
                        .first()
                        .zip(widths.first())
                        .map_or(0.0, |(t, w)| 0.5 * w - offset_of(t.pos));
                    let need_right = ticks
                        .last()
                        .zip(widths.last())
                        .map_or(0.0, |(t, w)| 0.5 * w - (pw - offset_of(t.pos)));
                    return XAxisPlan {
                        ticks,
                        labels: XLabels::Horizontal,
                        minor,
                        below: LINE * f,
                        need_left: need_left.max(0.0),
                        need_right: need_right.max(0.0),
                    };
                }
                target -= 1;
            }
        }
    }
}

/// Clips `a`-`b` to the unit square (Liang-Barsky).
fn clip_unit(a: (f64, f64), b: (f64, f64)) -> Option<Clipped> {
    let eps = 1e-9;
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let mut t0: f64 = 0.0;
    let mut t1: f64 = 1.0;
    for (pk, qk) in [
        (-dx, a.0 + eps),
        (dx, 1.0 + eps - a.0),
        (-dy, a.1 + eps),
        (dy, 1.0 + eps - a.1),
    ] {
        if pk == 0.0 {
            if qk < 0.0 {
                return None;
            }
        } else {
            let r = qk / pk;
            if pk < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| (a.0 + t * dx, a.1 + t * dy);
    Some(Clipped {
        a: at(t0),
        b: at(t1),
        moved_a: t0 > 0.0,
        moved_b: t1 < 1.0,
    })
}

/// A segment clipped by [`clip_unit`].
struct Clipped {
    a: (f64, f64),
    b: (f64, f64),
    moved_a: bool,
    moved_b: bool,
}

/// Connected pieces of a series' line in device pixels, clipped to the plot.
fn line_runs(p: &Prepared<'_>, plot: &Rect, points: &[Option<(f64, f64)>]) -> Vec<Vec<(f64, f64)>> {
    let to_px = |q: (f64, f64)| (map_x(plot, q.0), map_y(plot, q.1));
    let unit = |(x, y): (f64, f64)| (p.x.frac(x), p.y.frac(y));
    let mut runs = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for w in points.windows(2) {
        match (w[0], w[1]) {
            (Some(a), Some(b)) => match clip_unit(unit(a), unit(b)) {
                Some(Clipped {
                    a: ca,
                    b: cb,
                    moved_a,
                    moved_b,
                }) => {
                    if moved_a || cur.is_empty() {
                        if cur.len() > 1 {
                            runs.push(std::mem::take(&mut cur));
                        }
                        cur.clear();
                        cur.push(to_px(ca));
                    }
                    cur.push(to_px(cb));
                    if moved_b {
                        runs.push(std::mem::take(&mut cur));
                    }
                }
                None => {
                    if cur.len() > 1 {
                        runs.push(std::mem::take(&mut cur));
                    }
                    cur.clear();
                }
            },
            _ => {
                if cur.len() > 1 {
                    runs.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
        }
    }
    if cur.len() > 1 {
        runs.push(cur);
    }
    runs
}

/// Device positions of the points that lie inside the plot.
fn marker_points(p: &Prepared<'_>, plot: &Rect, points: &[Option<(f64, f64)>]) -> Vec<(f64, f64)> {
    let eps = 1e-9;
    points
        .iter()
        .flatten()
        .map(|&(x, y)| (p.x.frac(x), p.y.frac(y)))
        .filter(|&(fx, fy)| (-eps..=1.0 + eps).contains(&fx) && (-eps..=1.0 + eps).contains(&fy))
        .map(|(fx, fy)| (map_x(plot, fx), map_y(plot, fy)))
        .collect()
}

fn draw_marker<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    marker: Marker,
    (x, y): (f64, f64),
    m: &Metrics,
    color: RGBColor,
) -> Result<(), ChartError> {
    let r = m.marker;
    let fill = color.filled();
    let poly = |pts: &[(f64, f64)]| {
        Polygon::new(
            pts.iter()
                .map(|&(dx, dy)| ipt((x + dx, y + dy)))
                .collect::<Vec<_>>(),
            fill,
        )
    };
    let res = match marker {
        Marker::Circle => root.draw(&Circle::new(ipt((x, y)), r.round().max(1.0) as i32, fill)),
        Marker::Square => {
            let a = 0.88 * r;
            root.draw(&Rectangle::new(
                [ipt((x - a, y - a)), ipt((x + a, y + a))],
                fill,
            ))
        }
        Marker::Triangle => {
            let a = 1.25 * r;
            root.draw(&poly(&[
                (0.0, -a),
                (0.866 * a, 0.5 * a),
                (-0.866 * a, 0.5 * a),
            ]))
        }
        Marker::Diamond => {
            let a = 1.3 * r;
            root.draw(&poly(&[
                (0.0, -a),
                (0.8 * a, 0.0),
                (0.0, a),
                (-0.8 * a, 0.0),
            ]))
        }
        Marker::Cross => {
            let a = 1.05 * r;
            let style = ShapeStyle::from(&color).stroke_width(px_width(0.45 * r));
            root.draw(&PathElement::new(
                vec![ipt((x - a, y - a)), ipt((x + a, y + a))],
                style,
            ))
            .and_then(|_| {
                root.draw(&PathElement::new(
                    vec![ipt((x - a, y + a)), ipt((x + a, y - a))],
                    style,
                ))
            })
        }
        Marker::TriangleDown => {
            let a = 1.25 * r;
            root.draw(&poly(&[
                (0.0, a),
                (0.866 * a, -0.5 * a),
                (-0.866 * a, -0.5 * a),
            ]))
        }
        Marker::Plus => {
            let a = 1.2 * r;
            let style = ShapeStyle::from(&color).stroke_width(px_width(0.45 * r));
            root.draw(&PathElement::new(
                vec![ipt((x - a, y)), ipt((x + a, y))],
                style,
            ))
            .and_then(|_| {
                root.draw(&PathElement::new(
                    vec![ipt((x, y - a)), ipt((x, y + a))],
                    style,
                ))
            })
        }
        Marker::None => Ok(()),
    };
    res.map_err(draw_err)
}

/// Stroke width of error bars and box outlines.
fn bar_width(m: &Metrics) -> f64 {
    0.8 * m.line_width
}

/// Splits a polyline (device pixels) into dashes; the pattern runs on
/// across vertices.
fn dashes(run: &[(f64, f64)], m: &Metrics) -> Vec<Vec<(f64, f64)>> {
    let (on, off) = (0.6 * m.tick, 0.4 * m.tick);
    let mut out = Vec::new();
    let mut cur: Vec<(f64, f64)> = run.first().copied().into_iter().collect();
    let mut drawing = true;
    let mut left = on;
    for w in run.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = (b.0 - a.0).hypot(b.1 - a.1);
        let mut t = 0.0;
        while len - t > left {
            t += left;
            let q = (a.0 + (b.0 - a.0) * t / len, a.1 + (b.1 - a.1) * t / len);
            if drawing {
                cur.push(q);
                out.push(std::mem::take(&mut cur));
            } else {
                cur = vec![q];
            }
            drawing = !drawing;
            left = if drawing { on } else { off };
        }
        left -= len - t;
        if drawing {
            cur.push(b);
        }
    }
    if drawing && cur.len() > 1 {
        out.push(cur);
    }
    out
}

/// Draws a short polyline (a dash, an error bar). The bitmap backend turns a
/// wide path into a polygon whose end corners are truncated to whole pixels,
/// which makes short slanted dashes visibly thinner than the line they
/// belong to and bars of odd width a pixel thinner; there each piece is
/// drawn as a polygon of its own, corners rounded.
fn stroke<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    dash: &[(f64, f64)],
    style: ShapeStyle,
    fl: Flavor,
) -> Result<(), ChartError> {
    if fl.svg {
        let pts: Vec<(i32, i32)> = dash.iter().map(|&q| ipt(q)).collect();
        return root.draw(&PathElement::new(pts, style)).map_err(draw_err);
    }
    let half = 0.5 * f64::from(style.stroke_width);
    for w in dash.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = (b.0 - a.0).hypot(b.1 - a.1);
        if len < 1e-9 {
            continue;
        }
        let (nx, ny) = (-(b.1 - a.1) / len * half, (b.0 - a.0) / len * half);
        let quad = vec![
            ipt((a.0 + nx, a.1 + ny)),
            ipt((b.0 + nx, b.1 + ny)),
            ipt((b.0 - nx, b.1 - ny)),
            ipt((a.0 - nx, a.1 - ny)),
        ];
        root.draw(&Polygon::new(quad, style.color.filled()))
            .map_err(draw_err)?;
    }
    Ok(())
}

/// Device-pixel line segments of error bars (axis-space `(x, low, high)`):
/// the whisker clipped to the plot and a cap at each end inside it.
fn bar_segments(
    p: &Prepared<'_>,
    plot: &Rect,
    bars: &[(f64, f64, f64)],
    m: &Metrics,
) -> Vec<((f64, f64), (f64, f64))> {
    let eps = 1e-9;
    let inside = |f: f64| (-eps..=1.0 + eps).contains(&f);
    let cap = 1.1 * m.marker;
    let mut out = Vec::new();
    for &(x, lo, hi) in bars {
        let fx = p.x.frac(x);
        let (flo, fhi) = (p.y.frac(lo), p.y.frac(hi));
        if !inside(fx) || fhi < -eps || flo > 1.0 + eps {
            continue;
        }
        let px = map_x(plot, fx);
        let (ylo, yhi) = (map_y(plot, flo.max(0.0)), map_y(plot, fhi.min(1.0)));
        out.push(((px, ylo), (px, yhi)));
        let (c0, c1) = ((px - cap).max(plot.x0), (px + cap).min(plot.x1));
        for (f, y) in [(flo, ylo), (fhi, yhi)] {
            if inside(f) {
                out.push(((c0, y), (c1, y)));
            }
        }
    }
    out
}

/// `color` mixed with white, for box fills.
fn light(color: RGBColor) -> RGBColor {
    let mix = |c: u8| (0.3 * f64::from(c) + 0.7 * 255.0).round() as u8;
    RGBColor(mix(color.0), mix(color.1), mix(color.2))
}

/// Device-pixel geometry of a box plot, clipped to the plot.
struct BoxGeometry {
    x0: f64,
    x1: f64,
    /// q3 and q1 edges, clamped to the plot, if any part of the box shows
    box_y: Option<(f64, f64)>,
    median: Option<f64>,
    /// whisker segments and their caps
    segments: Vec<((f64, f64), (f64, f64))>,
    outliers: Vec<(f64, f64)>,
}

fn box_geometry(p: &Prepared<'_>, plot: &Rect, b: &PreparedBox) -> BoxGeometry {
    let eps = 1e-9;
    let inside = |f: f64| (-eps..=1.0 + eps).contains(&f);
    let fx = |x: f64| map_x(plot, p.x.frac(x).clamp(0.0, 1.0));
    let fy = |v: f64| map_y(plot, p.y.frac(v).clamp(0.0, 1.0));
    let (x, x0, x1) = (fx(b.x), fx(b.x - b.half), fx(b.x + b.half));
    let cap = 0.25 * (x1 - x0);
    let mut segments = Vec::new();
    for (from, to) in [(b.q1, b.whisker_lo), (b.q3, b.whisker_hi)] {
        let (f0, f1) = (p.y.frac(from), p.y.frac(to));
        if (f0 < -eps && f1 < -eps) || (f0 > 1.0 + eps && f1 > 1.0 + eps) || from == to {
            continue;
        }
        segments.push(((x, fy(from)), (x, fy(to))));
        if inside(f1) {
            segments.push(((x - cap, fy(to)), (x + cap, fy(to))));
        }
    }
    let (f1, f3) = (p.y.frac(b.q1), p.y.frac(b.q3));
    let box_y = (f3 >= -eps && f1 <= 1.0 + eps).then(|| (fy(b.q3), fy(b.q1)));
    let median = inside(p.y.frac(b.median)).then(|| fy(b.median));
    let outliers = b
        .outliers
        .iter()
        .filter(|&&v| inside(p.y.frac(v)))
        .map(|&v| (x, fy(v)))
        .collect();
    BoxGeometry {
        x0,
        x1,
        box_y,
        median,
        segments,
        outliers,
    }
}

fn draw_box<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &Prepared<'_>,
    plot: &Rect,
    b: &PreparedBox,
    m: &Metrics,
) -> Result<(), ChartError> {
    let g = box_geometry(p, plot, b);
    let edge = ShapeStyle::from(&b.color).stroke_width(px_width(bar_width(m)));
    for &(a, c) in &g.segments {
        line(root, a, c, edge)?;
    }
    if let Some((top, bottom)) = g.box_y {
        let corners = [ipt((g.x0, top)), ipt((g.x1, bottom))];
        root.draw(&Rectangle::new(corners, light(b.color).filled()))
            .map_err(draw_err)?;
        root.draw(&Rectangle::new(corners, edge))
            .map_err(draw_err)?;
    }
    if let Some(y) = g.median {
        let style = ShapeStyle::from(&b.color).stroke_width(px_width(2.0 * m.line_width));
        line(root, (g.x0, y), (g.x1, y), style)?;
    }
    let r = (0.6 * m.marker).round().max(1.0) as i32;
    for &q in &g.outliers {
        root.draw(&Circle::new(ipt(q), r, edge)).map_err(draw_err)?;
    }
    Ok(())
}

/// What a legend row shows left of its name.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Sample {
    Line {
        marker: Marker,
        dashed: bool,
        /// false for a series drawn as dots only
        line: bool,
    },
    Box,
    /// the mark of a point without a value
    Missing,
}

struct LegendEntry {
    name: String,
    color: RGBColor,
    sample: Sample,
}

/// The legend: one entry per series with a line-and-marker sample (or a
/// small box of a box chart), then one per distinct label of points without
/// a value. Box series without a name get no entry. The entries run down
/// `cols` columns.
struct LegendBox {
    w: f64,
    h: f64,
    entries: Vec<LegendEntry>,
    cols: usize,
    /// width of one column
    col_w: f64,
}

impl LegendBox {
    fn sample_len(m: &Metrics) -> f64 {
        2.2 * m.legend
    }

    fn measure(p: &Prepared<'_>, m: &Metrics) -> LegendBox {
        let shorten = |name: &str| {
            if name.chars().count() > 60 {
                name.chars().take(59).chain(std::iter::once('…')).collect()
            } else {
                name.to_string()
            }
        };
        let mut entries: Vec<LegendEntry> = if p.boxes.is_empty() && p.box_legend.is_empty() {
            p.series
                .iter()
                .map(|s| LegendEntry {
                    name: shorten(s.name),
                    color: s.color,
                    sample: Sample::Line {
                        marker: s.marker,
                        dashed: s.dashed,
                        line: !s.dots,
                    },
                })
                .collect()
        } else {
            p.box_legend
                .iter()
                .filter(|(name, _)| !name.is_empty())
                .map(|&(name, color)| LegendEntry {
                    name: shorten(name),
                    color,
                    sample: Sample::Box,
                })
                .collect()
        };
        for s in p.series.iter().filter(|s| !s.missing.is_empty()) {
            let name = shorten(s.missing_label);
            if !entries
                .iter()
                .any(|e| e.sample == Sample::Missing && e.name == name)
            {
                entries.push(LegendEntry {
                    name,
                    color: FRAME,
                    sample: Sample::Missing,
                });
            }
        }
        let mut legend = LegendBox {
            w: 0.0,
            h: 0.0,
            entries,
            cols: 1,
            col_w: 0.0,
        };
        legend.arrange(1, m);
        legend
    }

    /// Whether `other` lists the same entries (names, colours, samples).
    fn same_entries(&self, other: &LegendBox) -> bool {
        self.entries.len() == other.entries.len()
            && self
                .entries
                .iter()
                .zip(&other.entries)
                .all(|(a, b)| a.name == b.name && a.color == b.color && a.sample == b.sample)
    }

    /// Lays the entries out in `cols` columns (at least 1, at most one per
    /// entry) and sets the size.
    fn arrange(&mut self, cols: usize, m: &Metrics) {
        let f = m.legend;
        let text_w = self
            .entries
            .iter()
            .map(|e| font::text_width(&e.name, f))
            .fold(0.0, f64::max);
        self.cols = cols.clamp(1, self.entries.len().max(1));
        self.col_w = 0.5 * f + Self::sample_len(m) + 0.5 * f + text_w + 0.6 * f;
        let rows = self.entries.len().div_ceil(self.cols);
        self.w = self.cols as f64 * self.col_w;
        self.h = 0.35 * f + rows as f64 * LINE * f + 0.35 * f;
    }

    /// Top left corner of entry `i` when the legend's corner is at `(x, y)`:
    /// the entries run down the first column, then the next.
    fn entry_at(&self, i: usize, (x, y): (f64, f64), m: &Metrics) -> (f64, f64) {
        let rows = self.entries.len().div_ceil(self.cols).max(1);
        let (col, row) = (i / rows, i % rows);
        (
            x + col as f64 * self.col_w,
            y + 0.35 * m.legend + row as f64 * LINE * m.legend,
        )
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        (x, y): (f64, f64),
        m: &Metrics,
        fl: Flavor,
    ) -> Result<(), ChartError> {
        if self.entries.is_empty() {
            return Ok(());
        }
        let f = m.legend;
        root.draw(&Rectangle::new(
            [ipt((x, y)), ipt((x + self.w, y + self.h))],
            ShapeStyle::from(&LEGEND_EDGE).stroke_width(px_width(fl.unit)),
        ))
        .map_err(draw_err)?;
        let sample = Self::sample_len(m);
        for (i, e) in self.entries.iter().enumerate() {
            let (ex, ey) = self.entry_at(i, (x, y), m);
            let yc = ey + 0.5 * LINE * f;
            let x0 = ex + 0.5 * f;
            match e.sample {
                Sample::Line {
                    marker,
                    dashed,
                    line: with_line,
                } => {
                    let style = ShapeStyle::from(&e.color).stroke_width(px_width(m.line_width));
                    if with_line && dashed {
                        for d in dashes(&[(x0, yc), (x0 + sample, yc)], m) {
                            stroke(root, &d, style, fl)?;
                        }
                    } else if with_line {
                        line(root, (x0, yc), (x0 + sample, yc), style)?;
                    }
                    draw_marker(root, marker, (x0 + 0.5 * sample, yc), m, e.color)?;
                }
                Sample::Box => {
                    let (bx0, bx1) = (x0 + 0.2 * sample, x0 + 0.8 * sample);
                    let (by0, by1) = (yc - 0.4 * f, yc + 0.4 * f);
                    let corners = [ipt((bx0, by0)), ipt((bx1, by1))];
                    root.draw(&Rectangle::new(corners, light(e.color).filled()))
                        .map_err(draw_err)?;
                    let edge = ShapeStyle::from(&e.color).stroke_width(px_width(bar_width(m)));
                    root.draw(&Rectangle::new(corners, edge))
                        .map_err(draw_err)?;
                    let style =
                        ShapeStyle::from(&e.color).stroke_width(px_width(2.0 * m.line_width));
                    line(root, (bx0, yc), (bx1, yc), style)?;
                }
                Sample::Missing => {
                    draw_missing(root, (x0 + 0.5 * sample, yc), m, e.color)?;
                }
            }
            text(
                root,
                &e.name,
                f,
                fl,
                x0 + sample + 0.5 * f,
                yc + 0.5 * CAP * f,
                HPos::Left,
            )?;
        }
        Ok(())
    }
}

/// The mark of a point without a value: an open triangle pointing down,
/// centred on `(x, y)`.
fn draw_missing<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (f64, f64),
    m: &Metrics,
    color: RGBColor,
) -> Result<(), ChartError> {
    let a = 1.5 * m.marker;
    let pts = [
        (x - 0.866 * a, y - 0.5 * a),
        (x + 0.866 * a, y - 0.5 * a),
        (x, y + a),
        (x - 0.866 * a, y - 0.5 * a),
    ];
    let style = ShapeStyle::from(&color).stroke_width(px_width(0.8 * m.line_width));
    root.draw(&Polygon::new(
        pts.iter().map(|&q| ipt(q)).collect::<Vec<_>>(),
        WHITE.filled(),
    ))
    .map_err(draw_err)?;
    root.draw(&PathElement::new(
        pts.iter().map(|&q| ipt(q)).collect::<Vec<_>>(),
        style,
    ))
    .map_err(draw_err)
}

/// Fill of the band of points without a value.
const BAND: RGBColor = RGBColor(238, 238, 238);

/// Largest share of the plot's height the band of points without a value may take: past it,
/// stacked marks overlap (each still shows its colour).
const BAND_SHARE: f64 = 0.25;

/// Height of the band below the data where points without a value are marked
/// (0 when there are none): tall enough for the most marks stacked at one x,
/// at most [`BAND_SHARE`] of the plot. Marks drawn on the data's bottom edge,
/// as before, sat where the smallest value (the best, for generations or
/// evaluations) would be, on log axes too; in a band of their own, separated
/// by a line, they cannot be read as a value.
fn missing_band(p: &Prepared<'_>, plot: &Rect, m: &Metrics) -> f64 {
    missing_layout(p, plot, m).0
}

/// Device positions of the marks of points without a value: in the band at
/// the bottom of the plot (see [`missing_band`]), stacked upwards where several
/// series miss the same x.
fn missing_points(p: &Prepared<'_>, plot: &Rect, m: &Metrics) -> MissingMarks {
    missing_layout(p, plot, m).1
}

/// The marks of points without a value: (series, device position).
type MissingMarks = Vec<(usize, (f64, f64))>;

/// The band's height and the marks' positions in it (see [`missing_band`]).
fn missing_layout(p: &Prepared<'_>, plot: &Rect, m: &Metrics) -> (f64, MissingMarks) {
    let eps = 1e-9;
    // (series, x, place in its stack)
    let mut raw: Vec<(usize, f64, usize)> = Vec::new();
    for (i, s) in p.series.iter().enumerate() {
        for &x in &s.missing {
            let fx = p.x.frac(x);
            if !(-eps..=1.0 + eps).contains(&fx) {
                continue;
            }
            let px = map_x(plot, fx);
            let below = raw
                .iter()
                .filter(|(_, q, _)| (q - px).abs() < 1.5 * m.marker)
                .count();
            raw.push((i, px, below));
        }
    }
    let Some(stacked) = raw.iter().map(|r| r.2 + 1).max() else {
        return (0.0, Vec::new());
    };
    let room = BAND_SHARE * (plot.y1 - plot.y0);
    let band = ((3.2 * stacked as f64 + 0.6) * m.marker).min(room.max(3.6 * m.marker));
    // A mark spans 0.75 marker above its centre and 1.5 below.
    let step = if stacked > 1 {
        (3.2 * m.marker).min((band - 3.35 * m.marker) / (stacked - 1) as f64)
    } else {
        0.0
    };
    let marks = raw
        .into_iter()
        .map(|(i, px, below)| (i, (px, plot.y1 - 2.0 * m.marker - below as f64 * step)))
        .collect();
    (band, marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_x_panel(lo: f64, hi: f64) -> Prepared<'static> {
        Prepared {
            title: "",
            x_label: "",
            y_label: "",
            x: Span {
                lo: lo.log10(),
                hi: hi.log10(),
            },
            categories: None,
            y: Span { lo: 0.0, hi: 1.0 },
            log_x: true,
            log_y: false,
            series: Vec::new(),
            boxes: Vec::new(),
            box_legend: Vec::new(),
        }
    }

    fn plan(p: &Prepared<'_>, width: f64) -> XAxisPlan {
        let m = Metrics::new(width + 100.0, 600.0, 1.0);
        let plot = Rect {
            x0: 50.0,
            y0: 20.0,
            x1: 50.0 + width,
            y1: 500.0,
        };
        x_axis(p, &plot, &m)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn log_x_ticks_sit_at_powers_of_ten() {
        // 10 .. 1e6: a labelled tick at every power, minor ticks at 2..9 times
        let x = plan(&log_x_panel(10.0, 1e6), 700.0);
        let pos: Vec<f64> = x.ticks.iter().map(|t| t.pos).collect();
        assert_eq!(pos, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let labels: Vec<&str> = x.ticks.iter().filter_map(|t| t.label.as_deref()).collect();
        assert_eq!(labels, ["1e1", "1e2", "1e3", "1e4", "1e5", "1e6"]);
        assert_eq!(x.minor.len(), 5 * 8);
        for (i, &m) in x.minor.iter().enumerate() {
            let (decade, k) = (1 + i / 8, 2 + i % 8);
            assert!(
                close(m, (k as f64 * 10f64.powi(decade as i32)).log10()),
                "{i}: {m}"
            );
        }
        assert_eq!(x.labels, XLabels::Horizontal);

        // 1 .. 10000 is written out; the minor ticks stay inside the range
        let x = plan(&log_x_panel(3.0, 10_000.0), 700.0);
        let labels: Vec<&str> = x.ticks.iter().filter_map(|t| t.label.as_deref()).collect();
        assert_eq!(labels, ["10", "100", "1000", "10000"]);
        assert!(close(x.minor[0], 3f64.log10()));
        assert!(x
            .minor
            .iter()
            .all(|&m| m >= 3f64.log10() - 1e-9 && m <= 4.0 + 1e-9));

        // a narrow plot thins the labels out to every other power
        let x = plan(&log_x_panel(1e-3, 1e9), 250.0);
        let pos: Vec<f64> = x.ticks.iter().map(|t| t.pos).collect();
        assert!(pos.len() >= 2 && pos.len() < 13, "{pos:?}");
        assert!(pos.iter().all(|p| p.fract() == 0.0), "{pos:?}");
        let step = pos[1] - pos[0];
        assert!(step >= 2.0 && pos.windows(2).all(|w| w[1] - w[0] == step));
        assert!(x.minor.is_empty());

        // less than a decade: 1-2-5 steps
        let x = plan(&log_x_panel(1.0, 12.0), 700.0);
        let labels: Vec<&str> = x.ticks.iter().filter_map(|t| t.label.as_deref()).collect();
        assert_eq!(labels, ["1", "2", "5", "10"]);
    }

    fn line_panel(title: &'static str, names: &'static [String], cats: usize) -> Prepared<'static> {
        let series = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let points: Vec<Option<(f64, f64)>> = (0..cats)
                    .map(|c| Some((c as f64, ((i + c) % 7) as f64 / 7.0)))
                    .collect();
                PreparedSeries {
                    name,
                    marker: Marker::nth(i),
                    color: palette(i),
                    dashed: i % 2 == 1,
                    line: points.clone(),
                    points,
                    bars: Vec::new(),
                    missing: if i == 0 { vec![0.0] } else { Vec::new() },
                    missing_label: "no run solved",
                    dots: false,
                    band: Vec::new(),
                }
            })
            .collect();
        Prepared {
            title,
            x_label: "puzzle",
            y_label: "% solved",
            x: Span {
                lo: -0.5,
                hi: cats as f64 - 0.5,
            },
            categories: None,
            y: Span { lo: 0.0, hi: 1.0 },
            log_x: false,
            log_y: false,
            series,
            boxes: Vec::new(),
            box_legend: Vec::new(),
        }
    }

    #[test]
    fn legend_is_outside_the_plot_and_inside_the_cell() {
        fn names(n: usize, len: usize) -> &'static [String] {
            let v: Vec<String> = (0..n).map(|i| format!("{i}{}", "w".repeat(len))).collect();
            Box::leak(v.into_boxed_slice())
        }
        // (cell width, cell height, series, name length, title, legend right of the plot)
        let cases: [(f64, f64, usize, usize, &'static str, bool); 7] = [
            (700.0, 560.0, 4, 12, "success (% of runs)", true),
            (600.0, 560.0, 5, 10, "(a) minimum generations", true),
            (320.0, 240.0, 1, 1, "Small", false),
            (400.0, 400.0, 3, 45, "long names go below", false),
            (1100.0, 560.0, 8, 12, "", true),
            // too many entries for one column: two columns, still right
            (
                1400.0,
                300.0,
                16,
                8,
                "QUICK RUN (2 runs, cap 10)\ntitle",
                true,
            ),
            (500.0, 300.0, 16, 8, "many entries, narrow: below", false),
        ];
        for (i, &(w, h, n, len, title, right)) in cases.iter().enumerate() {
            let p = line_panel(title, names(n, len), 4);
            let m = Metrics::new(w, h, 1.0);
            let cell = Rect {
                x0: 0.0,
                y0: 0.0,
                x1: w,
                y1: h,
            };
            let plan = plan_panel(&p, cell, &m, Reserve::default(), Placement::Auto).unwrap();
            let l = &plan.legend;
            // the series and the "no value" entry
            assert_eq!(l.entries.len(), n + 1, "case {i}");
            let legend = Rect {
                x0: plan.legend_at.0,
                y0: plan.legend_at.1,
                x1: plan.legend_at.0 + l.w,
                y1: plan.legend_at.1 + l.h,
            };
            let plot = plan.layout.plot;
            assert!(!legend.intersects(&plot), "case {i}: {legend:?} {plot:?}");
            assert!(legend.inside(&cell), "case {i}: {legend:?} {cell:?}");
            // nothing else of the panel reaches into the legend's strip
            assert!(!legend.intersects(&plan.cell), "case {i}");
            assert_eq!(legend.x0 >= plot.x1, right, "case {i}: {legend:?} {plot:?}");
            assert_eq!(legend.y0 >= plot.y1, !right, "case {i}");
            // every entry lies inside the legend box
            for k in 0..l.entries.len() {
                let (ex, ey) = l.entry_at(k, plan.legend_at, &m);
                let e = Rect {
                    x0: ex,
                    y0: ey,
                    x1: ex + l.col_w,
                    y1: ey + LINE * m.legend,
                };
                assert!(e.inside(&legend), "case {i} entry {k}");
            }
        }
    }

    #[test]
    fn missing_values_are_marked_in_a_band_below_the_data() {
        let names: &'static [String] =
            Box::leak(vec!["a".to_string(), "b".to_string()].into_boxed_slice());
        let mut p = line_panel("t", names, 3);
        p.series[1].missing = vec![0.0, 2.0];
        let m = Metrics::new(600.0, 400.0, 1.0);
        let plot = Rect {
            x0: 50.0,
            y0: 20.0,
            x1: 550.0,
            y1: 350.0,
        };
        let marks = missing_points(&p, &plot, &m);
        // series 0 misses x = 0, series 1 misses x = 0 and 2
        assert_eq!(marks.iter().map(|&(i, _)| i).collect::<Vec<_>>(), [0, 1, 1]);
        // Every mark lies whole inside the band below the data (two marks stacked at x = 0).
        let band = missing_band(&p, &plot, &m);
        assert!((band - 7.0 * m.marker).abs() < 1e-9, "{band}");
        for &(_, (x, y)) in &marks {
            assert!(x > plot.x0 && x < plot.x1);
            assert!(y - 0.75 * m.marker > plot.y1 - band && y + 1.5 * m.marker < plot.y1);
        }
        let mut none = line_panel("t", names, 3);
        none.series[0].missing.clear();
        assert_eq!(missing_band(&none, &plot, &m), 0.0);
        // two marks at the same x are stacked, not drawn on top of each other
        assert!((marks[0].1 .0 - marks[1].1 .0).abs() < 1e-9);
        assert!(marks[1].1 .1 < marks[0].1 .1 - 2.0 * m.marker);
        // one legend entry for the label, however many series use it
        let legend = LegendBox::measure(&p, &m);
        let missing: Vec<_> = legend
            .entries
            .iter()
            .filter(|e| e.sample == Sample::Missing)
            .collect();
        assert_eq!(missing.len(), 1);
        assert_eq!(missing[0].name, "no run solved");
    }

    #[test]
    fn a_title_line_never_runs_out_of_its_panel() {
        let long = "QUICK RUN (3 runs per puzzle, at most 2000 generations): not a result";
        let size = title_size(long, 16.0, 300.0);
        assert!(size < 16.0 && font::text_width(long, size) <= 300.0 + 1e-9);
        assert_eq!(title_size("(a) short", 16.0, 300.0), 16.0);
    }

    #[test]
    fn step_line_adds_corners() {
        let pts = [
            Some((1.0, 0.1)),
            Some((2.0, 0.5)),
            None,
            Some((4.0, 0.7)),
            Some((5.0, 0.9)),
        ];
        assert_eq!(
            step_line(&pts),
            [
                Some((1.0, 0.1)),
                Some((2.0, 0.1)),
                Some((2.0, 0.5)),
                None,
                Some((4.0, 0.7)),
                Some((5.0, 0.7)),
                Some((5.0, 0.9)),
            ]
        );
        assert!(step_line(&[]).is_empty());
    }

    #[test]
    fn dashes_alternate_along_the_line() {
        let m = Metrics::new(680.0, 520.0, 1.0);
        let (on, off) = (0.6 * m.tick, 0.4 * m.tick);
        let period = on + off;
        // an L-shaped run: dashes carry on around the corner
        let run = [
            (0.0, 0.0),
            (10.5 * period, 0.0),
            (10.5 * period, 10.5 * period),
        ];
        let d = dashes(&run, &m);
        assert_eq!(d.len(), 21);
        let len = |dash: &Vec<(f64, f64)>| {
            dash.windows(2)
                .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
                .sum::<f64>()
        };
        assert!(d.iter().all(|dash| (len(dash) - on).abs() < 1e-6));
        assert_eq!(d[0][0], (0.0, 0.0));
        // the eleventh dash turns the corner
        assert_eq!(d[10].len(), 3);
        assert!(d
            .iter()
            .enumerate()
            .all(|(i, dash)| i == 10 || dash.len() == 2));
    }
}

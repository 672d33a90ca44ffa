//! Critical-difference diagrams of average ranks (Demšar 2006, Fig. 1).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::HPos;

use crate::draw::{self, px_width, Flavor, FRAME, TEXT};
use crate::font::{self, RotatedLabel, CAP, DESCENT, LINE};
use crate::{check_max_size, render_figure, ChartError, Figure};

/// A critical-difference diagram: treatments (algorithms) by their average
/// rank over the data sets (puzzles), after Demšar, "Statistical
/// Comparisons of Classifiers over Multiple Data Sets", JMLR 7 (2006),
/// Fig. 1.
///
/// * The rank axis runs along the top from 1 to k (the number of
///   treatments), **best rank 1 on the left** (Demšar's figure has it on
///   the right). If `cd` is larger than `k - 1` the axis is extended to the
///   integer past `1 + cd`.
/// * Each treatment gets a line from its average rank down to its name,
///   written `name (rank)`: the better half (the first `ceil(k / 2)` by
///   rank) on the left, the others on the right.
/// * `cliques` are groups of treatment indices (into `names`) that are not
///   significantly different; each is drawn as a thick bar below the axis
///   from its lowest to its highest average rank.
/// * `cd`, the critical difference (e.g. of the Nemenyi test), is drawn as a
///   bracket of that length above the axis, starting at rank 1.
/// * `title` above and `caption` (e.g. the test and its p-value) below are
///   optional (empty strings are left out).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CdDiagram {
    pub title: String,
    pub names: Vec<String>,
    pub avg_ranks: Vec<f64>,
    pub cd: Option<f64>,
    pub cliques: Vec<Vec<usize>>,
    pub caption: String,
}

impl CdDiagram {
    /// The least height at which the diagram fits into `width` pixels (the
    /// layout depends on the width through the font size).
    pub fn fitting_height(&self, width: u32) -> Result<u32, ChartError> {
        check_max_size(width, 1)?;
        let d = check(self)?;
        let layout = lay_out(&d, f64::from(width), 1.0)?;
        Ok(layout.needed.ceil() as u32)
    }
}

/// Draws `diagram` as a `width` x `height` pixel SVG at `svg_path` and PNG at
/// `png_path`, both written atomically. See [`CdDiagram::fitting_height`]
/// for a height that fits.
pub fn render_cd(
    diagram: &CdDiagram,
    width: u32,
    height: u32,
    svg_path: &Path,
    png_path: &Path,
) -> Result<(), ChartError> {
    check_max_size(width, height)?;
    let d = check(diagram)?;
    let needed = lay_out(&d, f64::from(width), 1.0)?.needed;
    if needed > f64::from(height) {
        return Err(ChartError::Invalid(format!(
            "critical-difference diagram {:?} needs a height of at least {} pixels at width {width}, not {height}",
            diagram.title,
            needed.ceil()
        )));
    }
    render_figure(&d, width, height, svg_path, png_path)
}

/// A checked diagram: treatments sorted by rank.
struct Checked<'a> {
    title: &'a str,
    caption: &'a str,
    /// (label, average rank), ascending by rank
    treatments: Vec<(String, f64)>,
    cd: Option<f64>,
    /// (lowest rank, highest rank) of each clique
    cliques: Vec<(f64, f64)>,
    /// largest rank on the axis
    axis_max: f64,
}

fn check(d: &CdDiagram) -> Result<Checked<'_>, ChartError> {
    let invalid = |msg: String| {
        ChartError::Invalid(format!("critical-difference diagram {:?}: {msg}", d.title))
    };
    let k = d.names.len();
    if k < 2 {
        return Err(invalid(format!("it needs at least 2 treatments, not {k}")));
    }
    if d.avg_ranks.len() != k {
        return Err(invalid(format!(
            "{} average ranks for {k} names",
            d.avg_ranks.len()
        )));
    }
    let kf = k as f64;
    for (name, &r) in d.names.iter().zip(&d.avg_ranks) {
        if !(r.is_finite() && (1.0 - 1e-9..=kf + 1e-9).contains(&r)) {
            return Err(invalid(format!(
                "{name:?} has the average rank {r}, outside 1..={k}"
            )));
        }
    }
    if let Some(cd) = d.cd {
        if !(cd.is_finite() && cd > 0.0 && cd < 1e6) {
            return Err(invalid(format!(
                "the critical difference {cd} is not positive"
            )));
        }
    }
    let mut cliques = Vec::new();
    for c in &d.cliques {
        if let Some(&i) = c.iter().find(|&&i| i >= k) {
            return Err(invalid(format!(
                "a clique names treatment {i}, there are {k}"
            )));
        }
        let mut members = c.clone();
        members.sort_unstable();
        members.dedup();
        if members.len() < 2 {
            return Err(invalid(format!(
                "the clique {c:?} has fewer than 2 treatments"
            )));
        }
        let ranks = members.iter().map(|&i| d.avg_ranks[i]);
        let lo = ranks.clone().fold(f64::INFINITY, f64::min);
        let hi = ranks.fold(f64::NEG_INFINITY, f64::max);
        cliques.push((lo, hi));
    }
    let mut treatments: Vec<(String, f64)> = d
        .names
        .iter()
        .zip(&d.avg_ranks)
        .map(|(n, &r)| (format!("{} ({r:.2})", shorten(n)), r))
        .collect();
    treatments.sort_by(|a, b| a.1.total_cmp(&b.1));
    let axis_max = match d.cd {
        Some(cd) if 1.0 + cd > kf => (1.0 + cd).ceil(),
        _ => kf,
    };
    Ok(Checked {
        title: &d.title,
        caption: &d.caption,
        treatments,
        cd: d.cd,
        cliques,
        axis_max,
    })
}

fn shorten(name: &str) -> String {
    if name.chars().count() > 40 {
        name.chars().take(39).chain(std::iter::once('…')).collect()
    } else {
        name.to_string()
    }
}

/// Positions in device pixels; `y` values are relative to the top of the
/// content (the drawing centres it vertically).
struct Layout {
    f: f64,
    title_size: f64,
    pad: f64,
    line_width: f64,
    axis_x0: f64,
    axis_x1: f64,
    title_baseline: Option<f64>,
    /// baseline of the CD label and the bracket's y
    cd_at: Option<(f64, f64)>,
    tick_label_baseline: f64,
    axis_y: f64,
    tick_len: f64,
    /// every how many ranks a tick gets a label
    label_every: usize,
    /// y and (lo, hi) rank of each clique bar
    clique_bars: Vec<(f64, f64, f64)>,
    /// y of name row 0
    first_row: f64,
    row: f64,
    /// x where the left labels end and the right labels start
    left_text: f64,
    right_text: f64,
    caption_baseline: Option<f64>,
    /// height of the content
    needed: f64,
}

impl Layout {
    fn rank_x(&self, axis_max: f64, r: f64) -> f64 {
        self.axis_x0 + (r - 1.0) / (axis_max - 1.0) * (self.axis_x1 - self.axis_x0)
    }
}

/// How far a clique bar reaches past its lowest and highest rank, in units
/// of the font size.
const BAR_OVERHANG: f64 = 0.25;

fn lay_out(d: &Checked<'_>, width: f64, unit: f64) -> Result<Layout, ChartError> {
    let base = (width / unit / 55.0).clamp(11.0, 16.0);
    let f = base * unit;
    let title_size = 1.25 * f;
    let pad = 0.7 * f;
    let gap = 0.3 * f;
    let tick_len = 0.4 * f;
    let line_width = (base / 8.0).max(1.25) * unit;
    let k = d.treatments.len();
    let left_n = k.div_ceil(2);
    let text_w = |s: &str| font::text_width(s, f);
    let left_w = d.treatments[..left_n]
        .iter()
        .map(|t| text_w(&t.0))
        .fold(0.0, f64::max);
    let right_w = d.treatments[left_n..]
        .iter()
        .map(|t| text_w(&t.0))
        .fold(0.0, f64::max);
    let left_text = pad + left_w;
    let right_text = width - pad - right_w;
    let axis_x0 = left_text + 1.5 * f;
    let axis_x1 = right_text - 1.5 * f;
    let ranks = d.axis_max - 1.0;
    if axis_x1 - axis_x0 < 1.2 * f * ranks.min(6.0) {
        return Err(ChartError::Invalid(format!(
            "critical-difference diagram {:?}: a width of {} pixels leaves no room for the rank axis next to the names",
            d.title,
            (width / unit).round()
        )));
    }
    // tick labels every `label_every` ranks so that they do not touch
    let per_rank = (axis_x1 - axis_x0) / ranks;
    let widest = text_w(&format!("{}", d.axis_max as usize));
    let label_every = ((widest + 0.8 * f) / per_rank).ceil().max(1.0) as usize;

    let mut y = pad;
    let title_baseline = (!d.title.is_empty()).then(|| {
        let b = y + CAP * title_size;
        y += (LINE + 0.3) * title_size;
        b
    });
    let cd_at = d.cd.map(|_| {
        let b = y + CAP * f;
        y += LINE * f;
        let bracket = y + 0.15 * f;
        y = bracket + 0.5 * f;
        (b, bracket)
    });
    let tick_label_baseline = y + CAP * f;
    y += (CAP + DESCENT) * f + gap;
    let axis_y = y + tick_len;
    y = axis_y + 0.8 * f;

    // one row per clique, from the best ranks down (as in Demšar's figure;
    // packing bars into fewer rows makes chains of overlapping cliques look
    // like one)
    let mut sorted = d.cliques.clone();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    sorted.dedup();
    let bar_gap = 0.55 * f;
    let clique_bars: Vec<(f64, f64, f64)> = sorted
        .iter()
        .enumerate()
        .map(|(i, &(lo, hi))| (y + i as f64 * bar_gap, lo, hi))
        .collect();
    if !clique_bars.is_empty() {
        y += (clique_bars.len() - 1) as f64 * bar_gap + 0.6 * f;
    }
    let row = 1.1 * LINE * f;
    let first_row = y + 0.4 * f;
    y = first_row + (left_n - 1) as f64 * row + DESCENT * f;
    let caption_size = 0.9 * f;
    let caption_baseline = (!d.caption.is_empty()).then(|| {
        y += 0.8 * f;
        let b = y + CAP * caption_size;
        y = b + DESCENT * caption_size;
        b
    });
    y += pad;
    if let Some(c) = (!d.caption.is_empty()).then_some(d.caption) {
        if font::text_width(c, caption_size) > width - 2.0 * pad {
            return Err(ChartError::Invalid(format!(
                "critical-difference diagram {:?}: the caption is wider than the figure",
                d.title
            )));
        }
    }
    Ok(Layout {
        f,
        title_size,
        pad,
        line_width,
        axis_x0,
        axis_x1,
        title_baseline,
        cd_at,
        tick_label_baseline,
        axis_y,
        tick_len,
        label_every,
        clique_bars,
        first_row,
        row,
        left_text,
        right_text,
        caption_baseline,
        needed: y,
    })
}

impl Figure for Checked<'_> {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        fl: Flavor,
    ) -> Result<Vec<RotatedLabel>, ChartError> {
        let (w, h) = root.dim_in_pixel();
        let (w, h) = (f64::from(w), f64::from(h));
        let l = lay_out(self, w, fl.unit)?;
        let top = (0.5 * (h - l.needed)).max(0.0);
        let f = l.f;
        let rx = |r: f64| l.rank_x(self.axis_max, r);
        let thin = ShapeStyle::from(&FRAME).stroke_width(px_width(fl.unit));
        let lines = ShapeStyle::from(&TEXT).stroke_width(px_width(0.8 * l.line_width));

        if let Some(b) = l.title_baseline {
            draw::text(
                root,
                self.title,
                l.title_size,
                fl,
                0.5 * w,
                top + b,
                HPos::Center,
            )?;
        }
        if let (Some(cd), Some((b, by))) = (self.cd, l.cd_at) {
            let (x0, x1) = (rx(1.0), rx(1.0 + cd));
            let by = top + by;
            let style = ShapeStyle::from(&TEXT).stroke_width(px_width(l.line_width));
            draw::line(root, (x0, by), (x1, by), style)?;
            for x in [x0, x1] {
                draw::line(root, (x, by - 0.3 * f), (x, by + 0.3 * f), style)?;
            }
            let label = format!("CD = {cd:.2}");
            let lw = font::text_width(&label, f);
            // centred over the bracket, but inside the figure
            let cx = (0.5 * (x0 + x1)).clamp(l.pad + 0.5 * lw, w - l.pad - 0.5 * lw);
            draw::text(root, &label, f, fl, cx, top + b, HPos::Center)?;
        }

        // the rank axis, ticks up, labels above
        let ay = top + l.axis_y;
        draw::line(root, (rx(1.0), ay), (rx(self.axis_max), ay), thin)?;
        let n = self.axis_max.round() as usize;
        for r in 1..=n {
            let x = rx(r as f64);
            draw::line(root, (x, ay - l.tick_len), (x, ay), thin)?;
            if (r - 1) % l.label_every == 0 {
                draw::text(
                    root,
                    &r.to_string(),
                    f,
                    fl,
                    x,
                    top + l.tick_label_baseline,
                    HPos::Center,
                )?;
            }
            if r < n {
                let xm = rx(r as f64 + 0.5);
                draw::line(root, (xm, ay - 0.5 * l.tick_len), (xm, ay), thin)?;
            }
        }

        // treatments: down from the axis, then out to the names
        let left_n = self.treatments.len().div_ceil(2);
        let k = self.treatments.len();
        for (i, (label, r)) in self.treatments.iter().enumerate() {
            let x = rx(*r);
            let (row, left) = if i < left_n {
                (i, true)
            } else {
                (k - 1 - i, false)
            };
            let y = top + l.first_row + row as f64 * l.row;
            let end = if left {
                l.left_text + 0.3 * f
            } else {
                l.right_text - 0.3 * f
            };
            root.draw(&PathElement::new(
                vec![draw::ipt((x, ay)), draw::ipt((x, y)), draw::ipt((end, y))],
                lines,
            ))
            .map_err(draw::draw_err)?;
            let baseline = y + 0.5 * CAP * f;
            if left {
                draw::text(root, label, f, fl, l.left_text, baseline, HPos::Right)?;
            } else {
                draw::text(root, label, f, fl, l.right_text, baseline, HPos::Left)?;
            }
        }

        // cliques on top of the treatment lines
        let bar = ShapeStyle::from(&BLACK).stroke_width(px_width(3.0 * l.line_width));
        for &(y, lo, hi) in &l.clique_bars {
            let y = top + y;
            let overhang = BAR_OVERHANG * f;
            draw::line(root, (rx(lo) - overhang, y), (rx(hi) + overhang, y), bar)?;
        }

        if let Some(b) = l.caption_baseline {
            draw::text(
                root,
                self.caption,
                0.9 * f,
                fl,
                0.5 * w,
                top + b,
                HPos::Center,
            )?;
        }
        Ok(Vec::new())
    }
}

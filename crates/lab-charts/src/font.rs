//! The bundled font: registration with plotters, text measurement and text
//! drawn at 45 degrees (which plotters' backends cannot do themselves).

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontDesc, FontFamily, FontStyle};

use crate::ChartError;

/// DejaVu Sans, see `fonts/LICENSE-DejaVu.txt`.
static DEJAVU_SANS: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// The family every text element uses; the SVG names it in `font-family`.
pub(crate) const FAMILY: FontFamily<'static> = FontFamily::SansSerif;

/// Font-relative metrics of DejaVu Sans in units of the plotters font size
/// (with ab_glyph the size is ascent minus descent, i.e. 0.859 em).
pub(crate) const CAP: f64 = 0.63;
pub(crate) const DESCENT: f64 = 0.21;
/// Distance between two lines of text.
pub(crate) const LINE: f64 = 1.2;

/// Registers the embedded font under "sans-serif" exactly once per process.
/// Nothing reads fonts from the system: plotters is built with `ab_glyph`
/// only, which knows no font but the registered ones.
pub(crate) fn ensure_font() -> Result<(), ChartError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        let name = FAMILY.as_str();
        register_font(name, FontStyle::Normal, DEJAVU_SANS).is_ok()
            && register_font(name, FontStyle::Bold, DEJAVU_SANS).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(ChartError::Draw(
            "the embedded DejaVu Sans font could not be loaded".to_string(),
        ))
    }
}

pub(crate) fn font(size: f64) -> FontDesc<'static> {
    FontDesc::new(FAMILY, size, FontStyle::Normal)
}

/// Advance width of `text` at plotters font size `size`, in pixels.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    match font(size).layout_box(text) {
        Ok(((x0, _), (x1, _))) => f64::from(x1 - x0),
        Err(_) => 0.6 * size * text.chars().count() as f64,
    }
}

/// A label rotated 45 degrees counter-clockwise whose end sits at
/// `(x, y)`; the line through `(x, y)` along the text halves its capitals.
#[derive(Debug, Clone)]
pub(crate) struct RotatedLabel {
    pub text: String,
    pub x: f64,
    pub y: f64,
    /// plotters font size, as used for measuring
    pub size: f64,
    pub color: RGBColor,
}

/// Rasterises `label` into a bitmap-like drawing area: the glyphs are drawn
/// upright into a coverage buffer, which is then resampled (bilinear) at 45
/// degrees and blended in pixel by pixel.
pub(crate) fn draw_rotated_pixels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    label: &RotatedLabel,
) -> Result<(), ChartError> {
    let desc = font(label.size);
    let mut pixels: Vec<(i32, i32, f32)> = Vec::new();
    desc.draw(&label.text, (0, 0), |x, y, a| {
        pixels.push((x, y, a));
        Ok::<(), std::convert::Infallible>(())
    })
    .map_err(|e| ChartError::Draw(format!("text {:?}: {e}", label.text)))?
    .map_err(|e| match e {})?;
    if pixels.is_empty() {
        return Ok(());
    }
    let min_x = pixels.iter().map(|p| p.0).min().unwrap_or(0);
    let max_x = pixels.iter().map(|p| p.0).max().unwrap_or(0);
    let min_y = pixels.iter().map(|p| p.1).min().unwrap_or(0);
    let max_y = pixels.iter().map(|p| p.1).max().unwrap_or(0);
    let gw = (max_x - min_x + 1) as usize;
    let gh = (max_y - min_y + 1) as usize;
    let mut cov = vec![0f32; gw * gh];
    for (x, y, a) in pixels {
        let i = (y - min_y) as usize * gw + (x - min_x) as usize;
        cov[i] = (cov[i] + a.clamp(0.0, 1.0)).min(1.0);
    }
    let sample = |gx: isize, gy: isize| -> f64 {
        if gx < 0 || gy < 0 || gx >= gw as isize || gy >= gh as isize {
            0.0
        } else {
            f64::from(cov[gy as usize * gw + gx as usize])
        }
    };

    // In plotters' ab_glyph renderer the baseline lies at size / 2.
    let ax = text_width(&label.text, label.size);
    let ay = 0.5 * label.size - 0.5 * CAP * label.size;
    let h = std::f64::consts::FRAC_1_SQRT_2;
    // Text x runs along u (up and right), text y (down) along v.
    let (ux, uy) = (h, -h);
    let (vx, vy) = (h, h);
    let to_screen = |tx: f64, ty: f64| {
        let (dx, dy) = (tx - ax, ty - ay);
        (label.x + dx * ux + dy * vx, label.y + dx * uy + dy * vy)
    };
    let corners = [
        to_screen(f64::from(min_x), f64::from(min_y)),
        to_screen(f64::from(max_x + 1), f64::from(min_y)),
        to_screen(f64::from(min_x), f64::from(max_y + 1)),
        to_screen(f64::from(max_x + 1), f64::from(max_y + 1)),
    ];
    let sx0 = corners
        .iter()
        .map(|c| c.0)
        .fold(f64::INFINITY, f64::min)
        .floor() as i32;
    let sx1 = corners
        .iter()
        .map(|c| c.0)
        .fold(f64::NEG_INFINITY, f64::max)
        .ceil() as i32;
    let sy0 = corners
        .iter()
        .map(|c| c.1)
        .fold(f64::INFINITY, f64::min)
        .floor() as i32;
    let sy1 = corners
        .iter()
        .map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max)
        .ceil() as i32;
    let (dw, dh) = root.dim_in_pixel();
    for py in sy0.max(0)..sy1.min(dh as i32) {
        for px in sx0.max(0)..sx1.min(dw as i32) {
            let (dx, dy) = (f64::from(px) + 0.5 - label.x, f64::from(py) + 0.5 - label.y);
            let tx = ax + dx * ux + dy * uy;
            let ty = ay + dx * vx + dy * vy;
            let gx = tx - 0.5 - f64::from(min_x);
            let gy = ty - 0.5 - f64::from(min_y);
            let (fx, fy) = (gx.floor(), gy.floor());
            let (wx, wy) = (gx - fx, gy - fy);
            let (ix, iy) = (fx as isize, fy as isize);
            let a = sample(ix, iy) * (1.0 - wx) * (1.0 - wy)
                + sample(ix + 1, iy) * wx * (1.0 - wy)
                + sample(ix, iy + 1) * (1.0 - wx) * wy
                + sample(ix + 1, iy + 1) * wx * wy;
            if a > 0.004 {
                root.draw_pixel((px, py), &label.color.mix(a.min(1.0)))
                    .map_err(|e| ChartError::Draw(e.to_string()))?;
            }
        }
    }
    Ok(())
}

/// The same label as an SVG `<text>` element (the font is the viewer's
/// sans-serif; `size_scale` converts plotters sizes to SVG font sizes).
pub(crate) fn rotated_svg_element(label: &RotatedLabel, size_scale: f64) -> String {
    let RGBColor(r, g, b) = label.color;
    format!(
        "<text x=\"{x:.1}\" y=\"{y:.1}\" dy=\"0.365em\" text-anchor=\"end\" \
         font-family=\"{family}\" font-size=\"{size:.2}\" fill=\"#{r:02X}{g:02X}{b:02X}\" \
         transform=\"rotate(-45, {x:.1}, {y:.1})\">{text}</text>\n",
        x = label.x,
        y = label.y,
        family = FAMILY.as_str(),
        size = label.size * size_scale,
        text = xml_escape(&label.text),
    )
}

/// `s` with control characters (invalid in SVG, invisible anyway) replaced
/// by spaces.
pub(crate) fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

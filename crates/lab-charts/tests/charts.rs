use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use lab_charts::{render, render_panels, ChartError, LineChart, Marker, Series, XAxis};

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "lab-charts-test-{}-{}-{tag}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn paths(&self, stem: &str) -> (PathBuf, PathBuf) {
        (
            self.0.join(format!("{stem}.svg")),
            self.0.join(format!("{stem}.png")),
        )
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

const LEVELS: [&str; 9] = [
    "1 Star",
    "2 Star",
    "3 Star",
    "4 Star",
    "5 Star",
    "Easy",
    "Challenging",
    "Difficult",
    "Super Difficult",
];

fn series(name: &str, points: Vec<(f64, f64)>, marker: Marker) -> Series {
    Series {
        name: name.to_string(),
        points,
        marker,
        ..Default::default()
    }
}

fn category_chart() -> LineChart {
    let ga = [100.0, 100.0, 96.0, 90.0, 72.0, 100.0, 64.0, 38.0, 12.0];
    let ret = [100.0, 100.0, 100.0, 100.0, 98.0, 100.0, 96.0, 88.0, 70.0];
    let pts = |ys: &[f64]| ys.iter().enumerate().map(|(i, &y)| (i as f64, y)).collect();
    LineChart {
        title: "Success rate by difficulty".to_string(),
        x_label: "Difficulty".to_string(),
        y_label: "Solved (%)".to_string(),
        x: XAxis::Categories(LEVELS.iter().map(|s| s.to_string()).collect()),
        y_min: Some(0.0),
        y_max: None,
        log_y: false,
        log_x: false,
        series: vec![
            series("GA", pts(&ga), Marker::Circle),
            series("Ret-GA", pts(&ret), Marker::Square),
        ],
    }
}

fn numeric_chart() -> LineChart {
    let curve = |rate: f64| {
        (0..=40)
            .map(|i| {
                let g = f64::from(i) * 250.0;
                (g, 1.0 - (-g / rate).exp())
            })
            .collect()
    };
    LineChart {
        title: "Fitness over generations".to_string(),
        x_label: "Generation".to_string(),
        y_label: "Best fitness".to_string(),
        x: XAxis::Numeric {
            min: 0.0,
            max: 10_000.0,
        },
        y_min: None,
        y_max: None,
        log_y: false,
        log_x: false,
        series: vec![
            series("MK-GA", curve(1500.0), Marker::Triangle),
            series("Ret-GA", curve(3000.0), Marker::Diamond),
            series("Plain GA <baseline> & co", curve(6000.0), Marker::Cross),
        ],
    }
}

/// Width and height from the IHDR chunk, after checking the PNG signature.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = fs::read(path).unwrap();
    assert!(bytes.len() > 24, "PNG too short");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}

fn assert_rendered(svg: &Path, png: &Path, chart: &LineChart, w: u32, h: u32) -> String {
    assert!(svg.is_file(), "{} missing", svg.display());
    assert!(png.is_file(), "{} missing", png.display());
    assert_eq!(png_size(png), (w, h));
    // a blank image compresses to a couple of kilobytes
    let png_len = fs::metadata(png).unwrap().len();
    assert!(png_len > 10_000, "PNG suspiciously small ({png_len} bytes)");
    let text = fs::read_to_string(svg).unwrap();
    assert!(text.starts_with("<svg"), "not an SVG");
    assert!(text.trim_end().ends_with("</svg>"), "SVG not closed");
    assert!(text.contains(&xml(&chart.title)), "title missing from SVG");
    for s in &chart.series {
        assert!(text.contains(&xml(&s.name)), "series {:?} missing", s.name);
    }
    assert!(text.contains("font-family=\"sans-serif\""));
    for font in text
        .match_indices("font-family=\"")
        .map(|(i, _)| &text[i..])
    {
        assert!(font.starts_with("font-family=\"sans-serif\""), "{font:.40}");
    }
    text
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// No temporary files may be left behind.
fn assert_only(dir: &Path, names: &[&str]) {
    let mut found: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let mut want: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(found, want);
}

#[test]
fn category_chart_renders_svg_and_png() {
    let dir = TempDir::new("categories");
    let (svg, png) = dir.paths("success");
    let chart = category_chart();
    render(&chart, 800, 560, &svg, &png).unwrap();
    let text = assert_rendered(&svg, &png, &chart, 800, 560);
    for level in LEVELS {
        assert!(text.contains(level), "category {level:?} missing");
    }
    // the nine labels do not fit side by side at this size
    assert!(text.contains("rotate(-45"));
    assert_only(&dir.0, &["success.svg", "success.png"]);
}

#[test]
fn numeric_chart_renders_svg_and_png() {
    let dir = TempDir::new("numeric");
    let (svg, png) = dir.paths("fitness");
    let chart = numeric_chart();
    render(&chart, 640, 480, &svg, &png).unwrap();
    let text = assert_rendered(&svg, &png, &chart, 640, 480);
    assert!(text.contains(">\n10000\n<"), "x tick label 10000 missing");
    // overwriting an existing chart works as well
    render(&chart, 700, 500, &svg, &png).unwrap();
    assert_eq!(png_size(&png), (700, 500));
    assert_only(&dir.0, &["fitness.svg", "fitness.png"]);
}

#[test]
fn panels_render_side_by_side() {
    let dir = TempDir::new("panels");
    let (svg, png) = dir.paths("figure");
    let mut a = category_chart();
    a.title = "(a) Success".to_string();
    let mut b = numeric_chart();
    b.title = "(b) Fitness".to_string();
    let mut c = category_chart();
    c.title = "(c) Log scale".to_string();
    c.log_y = true;
    c.y_min = None;
    render_panels(&[a.clone(), b.clone(), c.clone()], 3, 1500, 500, &svg, &png).unwrap();
    for chart in [&a, &b, &c] {
        assert_rendered(&svg, &png, chart, 1500, 500);
    }
    // two rows
    render_panels(&[a, b, c], 2, 1000, 800, &svg, &png).unwrap();
    assert_eq!(png_size(&png), (1000, 800));
}

#[test]
fn log_scale_rejects_non_positive_values() {
    let dir = TempDir::new("log");
    let (svg, png) = dir.paths("log");
    let mut chart = numeric_chart();
    chart.log_y = true;
    // the curves start at exactly 0
    match render(&chart, 640, 480, &svg, &png) {
        Err(ChartError::Invalid(msg)) => assert!(msg.contains("log"), "{msg}"),
        other => panic!("expected Invalid, got {other:?}"),
    }
    chart.series[0].points[0].1 = -1.0;
    assert!(matches!(
        render(&chart, 640, 480, &svg, &png),
        Err(ChartError::Invalid(_))
    ));
    // nothing was written
    assert_only(&dir.0, &[]);

    // positive values are fine, and so is a NaN (skipped before the check)
    for s in &mut chart.series {
        s.points.retain(|p| p.1 > 0.0);
    }
    chart.series[1].points.push((9000.0, f64::NAN));
    chart.y_min = Some(1e-3);
    render(&chart, 640, 480, &svg, &png).unwrap();
    assert_rendered(&svg, &png, &chart, 640, 480);
}

#[test]
fn nan_points_leave_gaps() {
    let dir = TempDir::new("nan");
    let (svg, png) = dir.paths("gaps");
    let mut chart = category_chart();
    chart.series[0].points[3].1 = f64::NAN;
    chart.series[0].points[4].1 = f64::INFINITY;
    chart.series[1].points[8].1 = f64::NAN;
    chart.series[1].points[0].0 = f64::NAN;
    render(&chart, 800, 560, &svg, &png).unwrap();
    let text = assert_rendered(&svg, &png, &chart, 800, 560);
    assert!(!text.contains("NaN") && !text.contains("inf"));

    // a series with nothing but NaN still renders (an empty line)
    chart.series[0].points = vec![(0.0, f64::NAN), (1.0, f64::NAN)];
    chart.series[1].points = vec![(f64::NAN, 1.0)];
    chart.y_min = None;
    render(&chart, 800, 560, &svg, &png).unwrap();
    assert_rendered(&svg, &png, &chart, 800, 560);
}

#[test]
fn invalid_input_is_an_error_not_a_panic() {
    let dir = TempDir::new("invalid");
    let (svg, png) = dir.paths("bad");
    let ok = numeric_chart();
    let invalid = |chart: &LineChart| {
        matches!(
            render(chart, 640, 480, &svg, &png),
            Err(ChartError::Invalid(_))
        )
    };

    let mut c = ok.clone();
    c.series.clear();
    assert!(invalid(&c), "no series");
    let mut c = ok.clone();
    c.series[1].points.clear();
    assert!(invalid(&c), "empty series");
    let mut c = ok.clone();
    c.x = XAxis::Numeric { min: 5.0, max: 5.0 };
    assert!(invalid(&c), "empty x range");
    let mut c = ok.clone();
    c.x = XAxis::Numeric {
        min: 0.0,
        max: f64::NAN,
    };
    assert!(invalid(&c), "NaN x range");
    let mut c = ok.clone();
    c.x = XAxis::Categories(Vec::new());
    assert!(invalid(&c), "no categories");
    let mut c = ok.clone();
    c.y_min = Some(2.0);
    c.y_max = Some(1.0);
    assert!(invalid(&c), "inverted y range");
    let mut c = ok.clone();
    c.y_max = Some(f64::INFINITY);
    assert!(invalid(&c), "infinite y_max");
    let mut c = ok.clone();
    c.series[0].points = vec![(1.0, -1e308), (2.0, 1e308)];
    assert!(invalid(&c), "range overflows");

    assert!(matches!(
        render(&ok, 0, 0, &svg, &png),
        Err(ChartError::Invalid(_))
    ));
    assert!(matches!(
        render(&ok, 100_000, 100_000, &svg, &png),
        Err(ChartError::Invalid(_))
    ));
    assert!(matches!(
        render_panels(&[], 1, 640, 480, &svg, &png),
        Err(ChartError::Invalid(_))
    ));
    assert!(matches!(
        render_panels(std::slice::from_ref(&ok), 0, 640, 480, &svg, &png),
        Err(ChartError::Invalid(_))
    ));
    assert_only(&dir.0, &[]);
}

#[test]
fn unwritable_target_is_an_io_error() {
    let dir = TempDir::new("io");
    let svg = dir.0.join("missing-dir").join("a.svg");
    let png = dir.0.join("a.png");
    match render(&numeric_chart(), 640, 480, &svg, &png) {
        Err(ChartError::Io { path, .. }) => assert_eq!(path, svg),
        other => panic!("expected Io, got {other:?}"),
    }
    assert_only(&dir.0, &[]);
}

#[test]
fn odd_but_valid_input_renders() {
    let dir = TempDir::new("odd");
    let (svg, png) = dir.paths("odd");
    let base = numeric_chart();
    let mut cases = Vec::new();

    // one point, constant values, points outside a fixed range
    let mut c = base.clone();
    c.series = vec![series("single", vec![(5000.0, 3.0)], Marker::Circle)];
    cases.push(c);
    let mut c = base.clone();
    c.series[0].points = vec![(0.0, 7.0), (10_000.0, 7.0)];
    c.series.truncate(1);
    cases.push(c);
    let mut c = base.clone();
    c.y_min = Some(0.2);
    c.y_max = Some(0.6);
    c.series[0].points.push((20_000.0, 5.0));
    c.series[0].points.push((-3.0, -5.0));
    cases.push(c);
    // huge and tiny magnitudes, empty titles, many series, long names
    let mut c = base.clone();
    c.title.clear();
    c.x_label.clear();
    c.y_label.clear();
    c.series = (0..12)
        .map(|i| {
            series(
                &format!("series {i} with a rather long name ...................................."),
                vec![(0.0, 1e12 * f64::from(i)), (10_000.0, 3e12)],
                Marker::nth(i as usize),
            )
        })
        .collect();
    cases.push(c);
    let mut c = base.clone();
    c.log_y = true;
    c.series = vec![series(
        "tiny",
        vec![(0.0, 1e-300), (1.0, 1e300)],
        Marker::Cross,
    )];
    cases.push(c);
    let mut c = base.clone();
    c.x = XAxis::Numeric {
        min: 1e17,
        max: 1e17 + 64.0,
    };
    cases.push(c);
    // many categories, odd characters
    let mut c = category_chart();
    c.x = XAxis::Categories((0..300).map(|i| format!("<c&{i}>\n\"'")).collect());
    c.title = "Ünïcödé ✓ & <tags> \u{7}".to_string();
    cases.push(c);

    for (i, chart) in cases.iter().enumerate() {
        render(chart, 640, 480, &svg, &png).unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_eq!(png_size(&png), (640, 480));
        let text = fs::read_to_string(&svg).unwrap();
        assert!(
            !text.contains(|c: char| c.is_control() && c != '\n'),
            "case {i}"
        );
        render(chart, 160, 120, &svg, &png).ok(); // tiny: Ok or Invalid, no panic
    }
    assert_only(&dir.0, &["odd.svg", "odd.png"]);
}

#[test]
fn single_category_is_a_dot_chart_with_marked_missing_values() {
    let dir = TempDir::new("dots");
    let (svg, png) = dir.paths("coupling");
    let chart = LineChart {
        title: "QUICK RUN (2 runs, cap 10 generations)\nsuccess (% of runs)".to_string(),
        x_label: "configuration".to_string(),
        y_label: "% successful".to_string(),
        x: XAxis::Categories(vec!["zones-27".to_string()]),
        y_min: Some(0.0),
        y_max: Some(105.0),
        log_y: false,
        log_x: false,
        series: vec![
            Series::new("right block (ours)", vec![(0.0, 67.0)], Marker::Circle).color(0),
            Series::new("right block (paper)", vec![(0.0, 58.0)], Marker::Triangle)
                .color(0)
                .dashed(),
            Series::new(
                "all 24 guesses (ours)",
                vec![(0.0, f64::NAN)],
                Marker::Square,
            )
            .color(1)
            .missing(vec![0.0], "no run solved"),
        ],
    };
    render(&chart, 700, 560, &svg, &png).unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    assert_eq!(png_size(&png), (700, 560));
    for want in [
        "QUICK RUN (2 runs, cap 10 generations)",
        "success (% of runs)",
        "right block (paper)",
        "no run solved",
    ] {
        assert!(text.contains(want), "{want:?} missing");
    }
    // no line is drawn in the series' colours: neither in the plot nor in the legend
    for colour in ["#0072B2", "#D55E00"] {
        let lines = text
            .lines()
            .filter(|l| l.starts_with("<polyline") && l.contains(colour))
            .count();
        // the open triangle marking the missing value is the only path in vermillion
        let allowed = usize::from(colour == "#D55E00");
        assert_eq!(lines, allowed, "{colour}: {lines} polylines");
    }
    // the three markers sit side by side, not on top of each other
    let circles = text.matches("<circle").count();
    assert_eq!(circles, 2, "one circle in the plot, one in the legend");
}

#[test]
fn bands_are_shaded_beneath_the_lines_and_open_ends_reach_the_edge() {
    let dir = TempDir::new("band");
    let (svg, png) = dir.paths("band");
    let mut chart = numeric_chart();
    chart.log_y = false;
    chart.y_min = Some(0.0);
    chart.y_max = Some(1.0);
    let pts = vec![(1.0, 0.1), (30.0, 0.4), (3000.0, 0.7)];
    let band = vec![
        (1.0, 0.0, 0.3),
        (30.0, 0.2, 0.6),
        (3000.0, 0.5, f64::INFINITY),
    ];
    chart.series = vec![series("with band", pts.clone(), Marker::None)
        .step()
        .band(band.clone())];
    render(&chart, 800, 560, &svg, &png).unwrap();
    let text = assert_rendered(&svg, &png, &chart, 800, 560);
    let polygon = text.find("<polygon").expect("a band polygon");
    assert!(
        text[polygon..].contains("opacity=\"0.16"),
        "translucent fill"
    );
    // The band comes before (beneath) the series' line.
    let line = text.find("stroke=\"#0072B2\"").expect("the line");
    assert!(polygon < line, "{}", &text[polygon..polygon + 300]);
    // Without a band: no polygon at all.
    chart.series = vec![series("plain", pts, Marker::None).step()];
    render(&chart, 800, 560, &svg, &png).unwrap();
    assert!(!fs::read_to_string(&svg).unwrap().contains("<polygon"));
}

//! Log x axes, series styles, box charts and critical-difference diagrams.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use lab_charts::{
    render, render_boxes, render_cd, BoxChart, BoxSeries, CdDiagram, ChartError, LineChart, Marker,
    Series, XAxis,
};

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "lab-charts-cmp-{}-{}-{tag}",
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

    /// The names in the directory: no temporary files may be left behind.
    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Checks a rendered pair and returns the SVG text.
fn assert_rendered(svg: &Path, png: &Path, w: u32, h: u32) -> String {
    let bytes = fs::read(png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let pw = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let ph = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((pw, ph), (w, h));
    assert!(
        bytes.len() > 5_000,
        "PNG suspiciously small ({} bytes)",
        bytes.len()
    );
    let text = fs::read_to_string(svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    assert!(!text.contains("NaN") && !text.contains("inf"));
    text
}

fn is_invalid<T: std::fmt::Debug>(r: Result<T, ChartError>) -> bool {
    matches!(r, Err(ChartError::Invalid(_)))
}

/// ECDF-like step series on a log x axis, ours solid and the paper's dashed
/// in the same colour.
fn ecdf_chart() -> LineChart {
    let ecdf = |scale: f64| -> Vec<(f64, f64)> {
        let mut pts: Vec<(f64, f64)> = (1..=300)
            .map(|i| {
                let u = f64::from(i) / 301.0;
                (scale * (u * 8.0).exp(), 100.0 * f64::from(i) / 400.0)
            })
            .collect();
        pts.push((1e5, 75.0));
        pts
    };
    LineChart {
        title: "Solved within budget".to_string(),
        x_label: "Generations".to_string(),
        y_label: "Solved (%)".to_string(),
        x: XAxis::Numeric { min: 1.0, max: 1e5 },
        y_min: Some(0.0),
        y_max: Some(100.0),
        log_y: false,
        log_x: true,
        series: vec![
            Series::new("Ret-GA (ours)", ecdf(2.0), Marker::None)
                .step()
                .color(0),
            Series::new("Ret-GA (paper)", ecdf(3.0), Marker::None)
                .step()
                .dashed()
                .color(0),
            Series::new("MK-GA (ours)", ecdf(9.0), Marker::None)
                .step()
                .color(1),
        ],
    }
}

fn success_chart() -> LineChart {
    let cats: Vec<String> = ["Easy", "Medium", "Hard"].map(String::from).to_vec();
    LineChart {
        title: "Success".to_string(),
        x_label: "Set".to_string(),
        y_label: "Solved (%)".to_string(),
        x: XAxis::Categories(cats),
        y_min: Some(0.0),
        y_max: None,
        log_y: false,
        log_x: false,
        series: vec![
            Series::new(
                "ours",
                vec![(0.0, 98.0), (1.0, 80.0), (2.0, 40.0)],
                Marker::Circle,
            )
            .error_bars(vec![(92.0, 99.6), (67.0, 89.0), (27.6, 53.7)]),
            Series::new(
                "paper",
                vec![(0.0, 100.0), (1.0, 84.0), (2.0, 52.0)],
                Marker::Square,
            )
            .dashed()
            .color(0)
            .error_bars(vec![(92.9, 100.0), (71.5, 91.7), (38.5, 65.2)]),
        ],
    }
}

#[test]
fn styled_line_charts_render() {
    let dir = TempDir::new("styled");
    let (svg, png) = dir.paths("ecdf");
    render(&ecdf_chart(), 800, 500, &svg, &png).unwrap();
    let text = assert_rendered(&svg, &png, 800, 500);
    for label in [
        "1",
        "10",
        "100",
        "1000",
        "10000",
        "100000",
        "Ret-GA (paper)",
    ] {
        assert!(text.contains(&format!(">\n{label}\n<")), "{label} missing");
    }
    // two series share the first palette colour, none takes the second's
    // place by position
    assert!(text.contains("#0072B2") && text.contains("#D55E00"));
    assert!(!text.contains("#009E73"), "third palette colour used");

    let (svg, png) = dir.paths("success");
    render(&success_chart(), 640, 480, &svg, &png).unwrap();
    assert_rendered(&svg, &png, 640, 480);
    assert_eq!(
        dir.names(),
        ["ecdf.png", "ecdf.svg", "success.png", "success.svg"]
    );
}

#[test]
fn log_x_ticks_are_labelled_powers_of_ten() {
    let dir = TempDir::new("logx");
    let (svg, png) = dir.paths("logx");
    let mut c = ecdf_chart();
    c.x = XAxis::Numeric {
        min: 10.0,
        max: 1e4,
    };
    render(&c, 800, 500, &svg, &png).unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    let labels: Vec<&str> = ["10", "100", "1000", "10000"]
        .into_iter()
        .filter(|l| text.contains(&format!(">\n{l}\n<")))
        .collect();
    assert_eq!(labels, ["10", "100", "1000", "10000"]);
    // no linear tick labels such as 2000 or 5000
    assert!(!text.contains(">\n2000\n<") && !text.contains(">\n5000\n<"));
}

#[test]
fn invalid_line_charts_are_errors() {
    let dir = TempDir::new("invalid-lines");
    let (svg, png) = dir.paths("bad");
    let bad = |c: &LineChart| is_invalid(render(c, 640, 480, &svg, &png));

    let mut c = ecdf_chart();
    c.series[0].points[0].0 = 0.0;
    assert!(bad(&c), "x = 0 on a log x axis");
    let mut c = ecdf_chart();
    c.series[1].points[3].0 = -2.0;
    assert!(bad(&c), "negative x on a log x axis");
    let mut c = ecdf_chart();
    c.x = XAxis::Numeric {
        min: 0.0,
        max: 10.0,
    };
    assert!(bad(&c), "log x range from 0");
    let mut c = success_chart();
    c.log_x = true;
    assert!(bad(&c), "log x with categories");
    // non-finite x are gaps, also on a log axis
    let mut c = ecdf_chart();
    c.series[0].points[5].0 = f64::NAN;
    assert!(render(&c, 640, 480, &svg, &png).is_ok());
    fs::remove_file(&svg).unwrap();
    fs::remove_file(&png).unwrap();

    let mut c = success_chart();
    c.series[0].error_bars.as_mut().unwrap().pop();
    assert!(bad(&c), "fewer error bars than points");
    let mut c = success_chart();
    c.series[1].error_bars.as_mut().unwrap()[1] = (90.0, 80.0);
    assert!(bad(&c), "error bar upside down");
    let mut c = success_chart();
    c.log_y = true;
    c.y_min = None;
    c.series[0].error_bars.as_mut().unwrap()[2] = (0.0, 50.0);
    assert!(bad(&c), "error bar to 0 on a log y axis");
    assert!(dir.names().is_empty());

    // non-finite bar ends draw no bar
    let mut c = success_chart();
    c.series[0].error_bars.as_mut().unwrap()[1] = (f64::NAN, 50.0);
    c.series[1].error_bars.as_mut().unwrap()[2] = (40.0, f64::INFINITY);
    render(&c, 640, 480, &svg, &png).unwrap();
    assert_rendered(&svg, &png, 640, 480);
}

#[test]
fn error_bars_widen_the_y_range() {
    let dir = TempDir::new("bars-range");
    let (svg, png) = dir.paths("bars");
    let mut c = success_chart();
    c.y_min = None;
    c.series = vec![
        Series::new("a", vec![(0.0, 10.0), (1.0, 12.0)], Marker::Circle)
            .error_bars(vec![(2.0, 30.0), (11.0, 13.0)]),
    ];
    render(&c, 640, 480, &svg, &png).unwrap();
    let text = fs::read_to_string(&svg).unwrap();
    // the bar reaching 30 gets an axis that shows it
    assert!(text.contains(">\n30\n<"), "no tick at 30");
}

fn box_chart() -> BoxChart {
    let values = |shift: f64| -> Vec<Vec<f64>> {
        (0..3)
            .map(|c| {
                (1..=25)
                    .map(|i| shift + f64::from(c) * 10.0 + f64::from(i * i % 17))
                    .chain([shift + 90.0])
                    .collect()
            })
            .collect()
    };
    BoxChart {
        title: "Generations".to_string(),
        x_label: "Budget".to_string(),
        y_label: "Best penalty".to_string(),
        categories: vec!["1e4".into(), "1e5".into(), "1e6".into()],
        y_min: None,
        y_max: None,
        log_y: false,
        series: vec![
            BoxSeries {
                name: "Ret-GA".into(),
                values: values(1.0),
                color: None,
            },
            BoxSeries {
                name: "MK-GA".into(),
                values: values(5.0),
                color: Some(3),
            },
        ],
    }
}

#[test]
fn box_charts_render() {
    let dir = TempDir::new("boxes");
    let (svg, png) = dir.paths("boxes");
    let chart = box_chart();
    render_boxes(&chart, 800, 500, &svg, &png).unwrap();
    let text = assert_rendered(&svg, &png, 800, 500);
    for s in ["Generations", "Ret-GA", "MK-GA", "1e4", "1e6", "Budget"] {
        assert!(text.contains(s), "{s} missing");
    }
    // the second series asked for palette colour 3
    assert!(text.contains("#CC79A7"));

    // log y, an empty category, one unnamed series (no legend)
    let mut c = chart.clone();
    c.log_y = true;
    c.series.truncate(1);
    c.series[0].name.clear();
    c.series[0].values[1].clear();
    render_boxes(&c, 500, 360, &svg, &png).unwrap();
    assert_rendered(&svg, &png, 500, 360);
    // a single value per box, and fixed y ends cutting boxes
    let mut c = chart;
    c.series[0].values = vec![vec![3.0], vec![4.0, 4.0], vec![]];
    c.y_min = Some(10.0);
    c.y_max = Some(40.0);
    render_boxes(&c, 500, 360, &svg, &png).unwrap();
    assert_rendered(&svg, &png, 500, 360);
    assert_eq!(dir.names(), ["boxes.png", "boxes.svg"]);
}

#[test]
fn invalid_box_charts_are_errors() {
    let dir = TempDir::new("invalid-boxes");
    let (svg, png) = dir.paths("bad");
    let bad = |c: &BoxChart| is_invalid(render_boxes(c, 640, 480, &svg, &png));
    let mut c = box_chart();
    c.categories.clear();
    assert!(bad(&c), "no categories");
    let mut c = box_chart();
    c.series.clear();
    assert!(bad(&c), "no series");
    let mut c = box_chart();
    c.series[1].values.pop();
    assert!(bad(&c), "values for too few categories");
    let mut c = box_chart();
    c.series[0].values[2].push(f64::NAN);
    assert!(bad(&c), "NaN value");
    let mut c = box_chart();
    c.log_y = true;
    c.series[0].values[0].push(0.0);
    assert!(bad(&c), "0 on a log axis");
    let mut c = box_chart();
    c.y_min = Some(5.0);
    c.y_max = Some(5.0);
    assert!(bad(&c), "empty y range");
    assert!(is_invalid(render_boxes(&box_chart(), 10, 10, &svg, &png)));
    assert!(dir.names().is_empty());
}

fn diagram() -> CdDiagram {
    CdDiagram {
        title: "Average ranks".to_string(),
        names: ["Ret-GA", "MK-GA", "RESEDA", "CSO", "Plain GA"]
            .map(String::from)
            .to_vec(),
        avg_ranks: vec![1.3, 2.5, 2.7, 3.9, 4.6],
        cd: Some(1.36),
        cliques: vec![vec![0, 1, 2], vec![1, 2, 3], vec![3, 4]],
        caption: "Nemenyi, alpha = 0.05, N = 30".to_string(),
    }
}

#[test]
fn cd_diagrams_render() {
    let dir = TempDir::new("cd");
    let (svg, png) = dir.paths("cd");
    let d = diagram();
    let h = d.fitting_height(800).unwrap();
    assert!((120..400).contains(&h), "{h}");
    render_cd(&d, 800, h, &svg, &png).unwrap();
    let text = assert_rendered(&svg, &png, 800, h);
    for s in [
        "Average ranks",
        "Ret-GA (1.30)",
        "Plain GA (4.60)",
        "CD = 1.36",
        "Nemenyi",
    ] {
        assert!(text.contains(s), "{s} missing");
    }
    // taller than needed is fine too; so are no CD, no cliques, no texts
    render_cd(&d, 800, h + 200, &svg, &png).unwrap();
    let bare = CdDiagram {
        title: String::new(),
        caption: String::new(),
        cd: None,
        cliques: Vec::new(),
        ..diagram()
    };
    let hb = bare.fitting_height(600).unwrap();
    assert!(hb < h);
    render_cd(&bare, 600, hb, &svg, &png).unwrap();
    assert_rendered(&svg, &png, 600, hb);
    // two treatments, a CD longer than the axis (the axis grows to 4)
    let two = CdDiagram {
        names: vec!["a".into(), "b".into()],
        avg_ranks: vec![1.0, 2.0],
        cd: Some(2.2),
        cliques: vec![vec![0, 1]],
        ..diagram()
    };
    let h2 = two.fitting_height(500).unwrap();
    render_cd(&two, 500, h2, &svg, &png).unwrap();
    let text = assert_rendered(&svg, &png, 500, h2);
    assert!(text.contains(">\n4\n<"), "axis not extended to 4");
    assert_eq!(dir.names(), ["cd.png", "cd.svg"]);
}

#[test]
fn invalid_cd_diagrams_are_errors() {
    let dir = TempDir::new("invalid-cd");
    let (svg, png) = dir.paths("bad");
    let bad = |d: &CdDiagram| is_invalid(render_cd(d, 800, 400, &svg, &png));
    let mut d = diagram();
    d.names.truncate(1);
    d.avg_ranks.truncate(1);
    d.cliques.clear();
    assert!(bad(&d), "one treatment");
    let mut d = diagram();
    d.avg_ranks.pop();
    assert!(bad(&d), "ranks and names differ in number");
    let mut d = diagram();
    d.avg_ranks[4] = 5.5;
    assert!(bad(&d), "rank above k");
    let mut d = diagram();
    d.avg_ranks[0] = f64::NAN;
    assert!(bad(&d), "NaN rank");
    let mut d = diagram();
    d.cliques.push(vec![1, 7]);
    assert!(bad(&d), "clique index out of range");
    let mut d = diagram();
    d.cliques.push(vec![2, 2]);
    assert!(bad(&d), "clique of one");
    let mut d = diagram();
    d.cd = Some(0.0);
    assert!(bad(&d), "zero CD");
    let mut d = diagram();
    d.cd = Some(f64::INFINITY);
    assert!(bad(&d), "infinite CD");
    let d = diagram();
    assert!(is_invalid(render_cd(&d, 800, 60, &svg, &png)), "too low");
    assert!(
        is_invalid(render_cd(&d, 170, 400, &svg, &png)),
        "too narrow"
    );
    let mut d = diagram();
    d.names[0] = "a very long treatment name indeed, ".repeat(3);
    assert!(
        is_invalid(render_cd(&d, 400, 400, &svg, &png)),
        "names fill the width"
    );
    let mut d = diagram();
    d.caption = "a caption far too long for the figure ".repeat(6);
    assert!(bad(&d), "caption too wide");
    assert!(dir.names().is_empty());
}

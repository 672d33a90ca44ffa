//! Charts that use none of the newer options must render exactly as before
//! they existed: the fixtures were written by the code of commit 14db9ff
//! (before `log_x`, the series styles, box charts and CD diagrams) from the
//! charts below. If the look of line charts is changed on purpose, render
//! these charts again and replace the fixtures: run the tests with
//! `LAB_CHARTS_BLESS=1` (they then write the fixtures instead of comparing).
//! Re-blessed when legends moved outside the plot, and when the text grew to stay
//! readable at the size the site shows charts and "no run solved" marks got a band.

use std::fs;
use std::path::{Path, PathBuf};

use lab_charts::{render, LineChart, Marker, Series, XAxis};

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

/// Compares `got` with fixture `name`, or writes it with `LAB_CHARTS_BLESS=1`.
fn check(name: &str, got: &[u8]) -> bool {
    if std::env::var_os("LAB_CHARTS_BLESS").is_some() {
        fs::write(fixture(name), got).unwrap();
        return true;
    }
    got == fs::read(fixture(name)).unwrap()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    x: XAxis,
    y_min: Option<f64>,
    log_y: bool,
    series: Vec<Series>,
) -> LineChart {
    LineChart {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        x,
        y_min,
        y_max: None,
        log_y,
        log_x: false,
        series,
    }
}

fn by_index(ys: &[f64]) -> Vec<(f64, f64)> {
    ys.iter().enumerate().map(|(i, &y)| (i as f64, y)).collect()
}

/// Renders `chart` into a scratch directory and returns the SVG and PNG.
fn rendered(tag: &str, chart: &LineChart, w: u32, h: u32) -> (Vec<u8>, Vec<u8>) {
    let dir =
        std::env::temp_dir().join(format!("lab-charts-reference-{}-{tag}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let (svg, png) = (dir.join("a.svg"), dir.join("a.png"));
    render(chart, w, h, &svg, &png).unwrap();
    let out = (fs::read(&svg).unwrap(), fs::read(&png).unwrap());
    let _ = fs::remove_dir_all(&dir);
    out
}

#[test]
fn small_numeric_chart_is_unchanged() {
    let c = chart(
        "Small",
        "x",
        "y",
        XAxis::Numeric { min: 0.0, max: 1.0 },
        None,
        false,
        vec![Series {
            name: "a".to_string(),
            points: vec![(0.0, 0.1), (0.5, 0.7), (1.0, 0.4)],
            marker: Marker::Circle,
            ..Default::default()
        }],
    );
    let (svg, png) = rendered("small", &c, 320, 240);
    assert!(check("reference-small.svg", &svg), "SVG differs");
    assert!(check("reference-small.png", &png), "PNG differs");
}

#[test]
fn category_charts_are_unchanged() {
    let ga = [100.0, 100.0, 96.0, 90.0, 72.0, 100.0, 64.0, 38.0, 12.0];
    let ret = [100.0, 100.0, 100.0, 100.0, 98.0, 100.0, 96.0, 88.0, 70.0];
    let cats = XAxis::Categories(LEVELS.iter().map(|s| s.to_string()).collect());
    let c = chart(
        "Success rate by difficulty",
        "Difficulty",
        "Solved (%)",
        cats.clone(),
        Some(0.0),
        false,
        vec![
            Series::new("GA", by_index(&ga), Marker::Circle),
            Series::new("Ret-GA", by_index(&ret), Marker::Square),
        ],
    );
    let (svg, _) = rendered("categories", &c, 800, 560);
    assert!(check("reference-categories.svg", &svg), "SVG differs");

    let gens_ga = [
        310.0,
        820.0,
        2400.0,
        5100.0,
        16000.0,
        450.0,
        26000.0,
        61000.0,
        f64::NAN,
    ];
    let gens_ret = [
        120.0, 300.0, 700.0, 1500.0, 4200.0, 180.0, 6800.0, 15000.0, 48000.0,
    ];
    let c = chart(
        "(b) Generations",
        "Difficulty",
        "Generations (log)",
        cats,
        None,
        true,
        vec![
            Series::new("GA", by_index(&gens_ga), Marker::Circle),
            Series::new("Ret-GA", by_index(&gens_ret), Marker::Square),
        ],
    );
    let (svg, _) = rendered("log", &c, 640, 480);
    assert!(check("reference-log.svg", &svg), "SVG differs");
}

//! Renders example figures for eyeballing the layout:
//! `cargo run -p lab-charts --example demo -- [OUT_DIR]` (default: the
//! system temp directory) writes `lab-charts-example.{svg,png}` (one chart
//! with nine category labels) and `lab-charts-panels.{svg,png}` (three
//! panels).

use std::path::PathBuf;

use lab_charts::{render, render_panels, LineChart, Marker, Series, XAxis};

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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    std::fs::create_dir_all(&out)?;

    let categories = XAxis::Categories(LEVELS.iter().map(|s| s.to_string()).collect());
    let ga = [100.0, 100.0, 96.0, 90.0, 72.0, 100.0, 64.0, 38.0, 12.0];
    let ret = [100.0, 100.0, 100.0, 100.0, 98.0, 100.0, 96.0, 88.0, 70.0];
    let series = |name: &str, ys: &[f64], marker| Series {
        name: name.to_string(),
        points: ys.iter().enumerate().map(|(i, &y)| (i as f64, y)).collect(),
        marker,
        ..Default::default()
    };
    let chart = LineChart {
        title: "Success rate by puzzle difficulty".to_string(),
        x_label: "Difficulty".to_string(),
        y_label: "Solved runs (%)".to_string(),
        x: categories.clone(),
        y_min: Some(0.0),
        y_max: None,
        log_y: false,
        log_x: false,
        series: vec![
            series("GA", &ga, Marker::Circle),
            series("Ret-GA", &ret, Marker::Square),
        ],
    };
    let svg = out.join("lab-charts-example.svg");
    let png = out.join("lab-charts-example.png");
    render(&chart, 800, 560, &svg, &png)?;
    println!("{}\n{}", svg.display(), png.display());

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
    let success = LineChart {
        title: "(a) Success rate".to_string(),
        y_min: Some(0.0),
        y_max: Some(100.0),
        ..chart.clone()
    };
    let generations = LineChart {
        title: "(b) Generations to solve".to_string(),
        x_label: "Difficulty".to_string(),
        y_label: "Generations (log)".to_string(),
        x: categories,
        y_min: None,
        y_max: None,
        log_y: true,
        log_x: false,
        series: vec![
            series("GA", &gens_ga, Marker::Circle),
            series("Ret-GA", &gens_ret, Marker::Square),
        ],
    };
    let curve = |name: &str, rate: f64, marker| Series {
        name: name.to_string(),
        points: (0..=20)
            .map(|i| {
                let g = f64::from(i) * 500.0;
                (g, 100.0 * (1.0 - (-g / rate).exp()))
            })
            .collect(),
        marker,
        ..Default::default()
    };
    let convergence = LineChart {
        title: "(c) Solved over time".to_string(),
        x_label: "Generation".to_string(),
        y_label: "Solved runs (%)".to_string(),
        x: XAxis::Numeric {
            min: 0.0,
            max: 10000.0,
        },
        y_min: None,
        y_max: None,
        log_y: false,
        log_x: false,
        series: vec![
            curve("GA", 4000.0, Marker::Circle),
            curve("Ret-GA", 1500.0, Marker::Square),
            curve("MK-GA", 800.0, Marker::Triangle),
            curve("Random restart", 9000.0, Marker::Diamond),
            curve("Hill climbing", 20000.0, Marker::Cross),
        ],
    };
    let svg = out.join("lab-charts-panels.svg");
    let png = out.join("lab-charts-panels.png");
    render_panels(
        &[success, generations, convergence],
        3,
        1500,
        500,
        &svg,
        &png,
    )?;
    println!("{}\n{}", svg.display(), png.display());
    Ok(())
}

//! Renders one of each chart type added for algorithm comparisons into a
//! directory: `cargo run -p lab-charts --example gallery -- OUT_DIR`.
//!
//! * `ecdf.{svg,png}`: ECDFs of runtimes on a log x axis, step lines
//!   without markers, ours solid and the paper's dashed in the same colour;
//! * `success.{svg,png}`: success rates with 95% Wilson intervals;
//! * `boxes.{svg,png}`: box plots by puzzle set (log y);
//! * `cd.{svg,png}`: a critical-difference diagram.
//!
//! The data are made up (a fixed pseudo-random sequence).

use std::path::PathBuf;

use lab_charts::{
    render, render_boxes, render_cd, BoxChart, BoxSeries, CdDiagram, LineChart, Marker, Series,
    XAxis,
};

/// A small deterministic generator (xorshift64*), uniform in (0, 1).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let v = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        ((v >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Log-normal: `exp(mu + sigma * z)`.
    fn lognormal(&mut self, mu: f64, sigma: f64) -> f64 {
        let (u, v) = (self.next(), self.next());
        let z = (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos();
        (mu + sigma * z).exp()
    }
}

/// Empirical CDF points of `values` (percent solved), with a last point at
/// `end` to carry the final level on.
fn ecdf(values: &[f64], runs: usize, end: f64) -> Vec<(f64, f64)> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let mut pts: Vec<(f64, f64)> = v
        .iter()
        .enumerate()
        .map(|(i, &x)| (x, 100.0 * (i + 1) as f64 / runs as f64))
        .collect();
    let last = pts.last().map_or(0.0, |p| p.1);
    pts.push((end, last));
    pts
}

/// The 95% Wilson score interval of `k` successes in `n` runs, in percent.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (100.0 * (centre - half), 100.0 * (centre + half))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .ok_or("usage: gallery OUT_DIR")?;
    std::fs::create_dir_all(&out)?;
    let paths = |stem: &str| {
        (
            out.join(format!("{stem}.svg")),
            out.join(format!("{stem}.png")),
        )
    };
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    // 1. ECDF of generations to solve, log x
    let budget = 1e6;
    let mut series = Vec::new();
    for (i, (name, mu, solved)) in [
        ("Ret-GA", 7.0, 0.92),
        ("MK-GA", 8.5, 0.7),
        ("RESEDA", 10.0, 0.55),
    ]
    .into_iter()
    .enumerate()
    {
        let runs = 200;
        for (who, shift, dashed) in [("ours", 0.0, false), ("paper", 0.4, true)] {
            let times: Vec<f64> = (0..runs)
                .map(|_| rng.lognormal(mu + shift, 1.3))
                .filter(|&t| t < budget)
                .take((solved * runs as f64) as usize)
                .collect();
            let mut s = Series::new(
                format!("{name} ({who})"),
                ecdf(&times, runs, budget),
                Marker::None,
            )
            .step()
            .color(i);
            if dashed {
                s = s.dashed();
            }
            series.push(s);
        }
    }
    let chart = LineChart {
        title: "Runs solved within a budget".to_string(),
        x_label: "Generations".to_string(),
        y_label: "Solved runs (%)".to_string(),
        x: XAxis::Numeric {
            min: 10.0,
            max: budget,
        },
        y_min: Some(0.0),
        y_max: Some(100.0),
        log_y: false,
        log_x: true,
        series,
    };
    let (svg, png) = paths("ecdf");
    render(&chart, 900, 560, &svg, &png)?;
    println!("{}", png.display());

    // 2. success rates with Wilson intervals, ours and the paper's
    let sets = ["Easy", "Medium", "Hard", "Expert", "17 clues"];
    let n = 50.0;
    let mut series = Vec::new();
    for (i, (name, solved, paper)) in [
        (
            "Ret-GA",
            [50.0, 49.0, 41.0, 30.0, 12.0],
            [50.0, 50.0, 45.0, 36.0, 15.0],
        ),
        (
            "MK-GA",
            [50.0, 44.0, 26.0, 13.0, 3.0],
            [50.0, 46.0, 30.0, 12.0, 2.0],
        ),
    ]
    .into_iter()
    .enumerate()
    {
        for (who, counts, marker, dodge) in [
            ("ours", solved, Marker::Circle, -0.06),
            ("paper", paper, Marker::Square, 0.06),
        ] {
            let pts = counts
                .iter()
                .enumerate()
                .map(|(c, &k)| (c as f64 + dodge + 0.03 * i as f64, 100.0 * k / n))
                .collect();
            let bars = counts.iter().map(|&k| wilson(k, n)).collect();
            let mut s = Series::new(format!("{name} ({who})"), pts, marker)
                .color(i)
                .error_bars(bars);
            if who == "paper" {
                s = s.dashed();
            }
            series.push(s);
        }
    }
    let chart = LineChart {
        title: "Success rate with 95% Wilson intervals".to_string(),
        x_label: "Puzzle set".to_string(),
        y_label: "Solved runs (%)".to_string(),
        x: XAxis::Categories(sets.iter().map(|s| s.to_string()).collect()),
        y_min: Some(0.0),
        y_max: None,
        log_y: false,
        log_x: false,
        series,
    };
    let (svg, png) = paths("success");
    render(&chart, 800, 520, &svg, &png)?;
    println!("{}", png.display());

    // 3. box plots of generations to solve by puzzle set, log y
    let mut series = Vec::new();
    for (name, mu) in [("Ret-GA", 6.0), ("MK-GA", 7.0), ("RESEDA", 7.6)] {
        let values = (0..sets.len())
            .map(|c| {
                (0..40)
                    .map(|_| rng.lognormal(mu + 0.6 * c as f64, 0.7))
                    .collect()
            })
            .collect();
        series.push(BoxSeries {
            name: name.to_string(),
            values,
            color: None,
        });
    }
    let chart = BoxChart {
        title: "Generations to solve (solved runs)".to_string(),
        x_label: "Puzzle set".to_string(),
        y_label: "Generations".to_string(),
        categories: sets.iter().map(|s| s.to_string()).collect(),
        y_min: None,
        y_max: None,
        log_y: true,
        series,
    };
    let (svg, png) = paths("boxes");
    render_boxes(&chart, 900, 520, &svg, &png)?;
    println!("{}", png.display());

    // 4. critical-difference diagram
    let names = [
        "Ret-GA",
        "MK-GA",
        "RESEDA",
        "CSO",
        "Plain GA",
        "Random restart hill climbing",
        "Simulated annealing",
    ];
    let avg_ranks = vec![1.45, 2.6, 2.9, 3.4, 5.1, 6.3, 6.25];
    let diagram = CdDiagram {
        title: "Average ranks over 30 puzzles".to_string(),
        names: names.iter().map(|s| s.to_string()).collect(),
        avg_ranks,
        cd: Some(1.64),
        cliques: vec![vec![0, 1, 2], vec![1, 2, 3], vec![4, 5, 6], vec![3, 4]],
        caption: "Friedman chi² = 142.3, p < 0.001; Nemenyi CD at α = 0.05, k = 7, N = 30"
            .to_string(),
    };
    let height = diagram.fitting_height(900)?;
    let (svg, png) = paths("cd");
    render_cd(&diagram, 900, height, &svg, &png)?;
    println!("{} ({height} px high)", png.display());
    Ok(())
}

//! The files of the calibration study (`sudoku-lab readings-calibration`): error-rates.csv,
//! error-rates.svg/.png and report.md, each replaced atomically.

use super::calibration::{clopper_pearson, Rates, Scenario, CASES, READINGS};
use crate::protocol::io::write_atomic;
use anyhow::{Context, Result};
use lab_charts::{LineChart, Marker, Series, XAxis};
use std::fmt::Write as _;
use std::path::Path;

/// The header of error-rates.csv.
pub const HEADER: &str = "scenario,procedure,replicates,alpha,false_elimination,false_low,false_high,power,power_low,power_high,power_rate,power_rate_low,power_rate_high";

/// A rate and its 95 % Clopper-Pearson interval, as CSV fields.
fn rate(k: u64, n: u64) -> String {
    let (lo, hi) = clopper_pearson(k, n, 0.95);
    format!("{:.4},{lo:.4},{hi:.4}", k as f64 / n as f64)
}

/// error-rates.csv: one row per scenario and procedure.
pub fn csv(rates: &[Rates]) -> String {
    let mut out = format!("{HEADER}\n");
    for r in rates {
        let n = r.replicates;
        let _ = writeln!(
            out,
            "{},{},{n},{},{},{},{}",
            r.scenario,
            r.procedure.name(),
            r.alpha,
            rate(r.eliminated[0], n),
            rate(r.eliminated[1], n),
            rate(r.eliminated[2], n),
        );
    }
    out
}

/// The chart: false elimination rate per scenario under each procedure, with their 95 %
/// intervals, and alpha as a dashed line.
fn chart(scenarios: &[Scenario], rates: &[Rates]) -> LineChart {
    let names: Vec<String> = scenarios.iter().map(|s| s.name.to_string()).collect();
    let alpha = rates.first().map_or(0.05, |r| r.alpha);
    let mut series = Vec::new();
    for (i, procedure) in super::calibration::PROCEDURES.iter().enumerate() {
        let mine: Vec<&Rates> = rates.iter().filter(|r| r.procedure == *procedure).collect();
        let points = (mine.iter().enumerate())
            .map(|(x, r)| (x as f64, r.eliminated[0] as f64 / r.replicates as f64))
            .collect();
        let bars = (mine.iter())
            .map(|r| clopper_pearson(r.eliminated[0], r.replicates, 0.95))
            .collect();
        let marker = [Marker::Circle, Marker::Square, Marker::Triangle][i % 3];
        let name = format!("procedure {}", procedure.name());
        series.push(Series::new(name, points, marker).error_bars(bars));
    }
    let flat = vec![(0.0, alpha), ((names.len().max(2) - 1) as f64, alpha)];
    series.push(Series::new(format!("alpha = {alpha}"), flat, Marker::None).dashed());
    LineChart {
        title: "True reading eliminated (95 % Clopper-Pearson intervals)".into(),
        x_label: "scenario".into(),
        y_label: "share of replicates".into(),
        x: XAxis::Categories(names),
        y_min: Some(0.0),
        y_max: None,
        log_y: false,
        log_x: false,
        series,
    }
}

/// report.md: the scenarios, the departures, the table of rates.
fn report(scenarios: &[Scenario], rates: &[Rates], seed: u64) -> String {
    let n = rates.first().map_or(0, |r| r.replicates);
    let mut out = format!(
        "# Calibration of the reading race\n\n\
        Made by `sudoku-lab readings-calibration --replicates {n} --seed {seed}`: a simulation of the race engine (the real targets, caps, rounds, tests and eliminations of `sudoku-lab readings`, reading simulated run outcomes from a store in memory instead of a solver's). Each replicate draws a paper's table from known distributions (success with the row's probability; the generations of a success from the scenario's law with the row's mean and coefficient of variation; summarised in the layout the paper prints), then the runs of three readings: one from the paper's own distribution (the *true* reading), one whose successes take {} times the generations (`power`), one whose success rate is {} lower (`power_rate`). Procedures v1, v2 and v3 race the same draws (v3 is v2 with the median cell that allows runs tied at the published median; the two differ only where our runs land on a whole-number median). `false_elimination` is the share of replicates in which the true reading was eliminated: the race promises at most alpha. Intervals are 95 % Clopper-Pearson.\n\n## Scenarios\n\n",
        READINGS[1].0, READINGS[2].1
    );
    for s in scenarios {
        let _ = writeln!(
            out,
            "- `{}`: {} ({} runs per row, {} rows, budget {}).",
            s.name,
            s.about,
            s.runs,
            s.rows.len(),
            s.full
        );
    }
    out.push_str("\n## Rates\n\n| scenario | procedure | false elimination | power (generations x1.5) | power (success rate -0.15) |\n|---|---|---|---|---|\n");
    for r in rates {
        let cell = |k: u64| {
            let (lo, hi) = clopper_pearson(k, r.replicates, 0.95);
            format!("{:.4} [{lo:.4}, {hi:.4}]", k as f64 / r.replicates as f64)
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            r.scenario,
            r.procedure.name(),
            cell(r.eliminated[0]),
            cell(r.eliminated[1]),
            cell(r.eliminated[2])
        );
    }
    out.push_str(
        "\nThe chart `error-rates.png` shows the false elimination rates against alpha.\n\n## The mean cell alone\n\n`mean-cell-size.csv`: the size of the test of the mean generations of successes (ours against the paper's, both from the same law) at the smallest level a cell has in a v2 or v3 race on Ret-GA's Table 1 (its first round) and at v1's level (alpha / (looks x cells)), with Welch's t-test (v1) and the guarded mean test (v2 and v3), 20 times the replicates of a scenario per case.\n",
    );
    out
}

/// mean-cell-size.csv: the mean cell's size at the race's levels, Welch against guarded.
pub fn mean_csv(sizes: &[(usize, f64, u64, u64)], reps: u64) -> String {
    let mut out = "law,cv,ours,paper,level,replicates,welch,welch_low,welch_high,guarded,guarded_low,guarded_high\n".to_string();
    for &(i, level, w, g) in sizes {
        let (d, cv, k, s) = CASES[i];
        let _ = writeln!(
            out,
            "{d:?},{cv},{k},{s},{level:.3e},{reps},{},{}",
            rate(w, reps),
            rate(g, reps)
        );
    }
    out
}

/// Write error-rates.csv, mean-cell-size.csv, the chart and report.md into `out` (created if
/// needed).
pub fn write(out: &Path, scenarios: &[Scenario], rates: &[Rates], seed: u64) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let reps = rates.first().map_or(0, |r| r.replicates) * 20;
    let sizes = super::calibration::mean_cell_sizes(reps, seed);
    write_atomic(
        &out.join("mean-cell-size.csv"),
        mean_csv(&sizes, reps).as_bytes(),
    )?;
    write_atomic(&out.join("error-rates.csv"), csv(rates).as_bytes())?;
    lab_charts::render(
        &chart(scenarios, rates),
        900,
        520,
        &out.join("error-rates.svg"),
        &out.join("error-rates.png"),
    )?;
    write_atomic(
        &out.join("report.md"),
        report(scenarios, rates, seed).as_bytes(),
    )?;
    Ok(())
}

//! Reports on an algorithm counter instead of success and effort: Benbassat's distinct solved
//! boards per run. Per (algorithm, puzzle entry): mean, SD, min, max of the counter over the
//! runs, compared with the paper's mean (Welch's t-test where the paper prints an SD and at
//! least two runs; otherwise the ratio only), Holm-adjusted over the file.

use crate::protocol::io::{counter, for_each_row, write_atomic_with};
use crate::reports::format::p_value;
use crate::reports::groups::PublishedRow;
use crate::spec::{Loaded, Spec};
use anyhow::{bail, Result};
use lab_stats::{holm_adjust, summarize, welch_t_test, Summary};
use std::io::Write;
use std::path::Path;

/// The counter's values per `[algorithm][entry]`, from runs.csv.
pub fn values(
    spec: &Spec,
    loaded: &Loaded,
    runs_path: &Path,
    name: &str,
) -> Result<Vec<Vec<Vec<f64>>>> {
    let mut v = vec![vec![Vec::new(); loaded.entries.len()]; spec.algorithms.len()];
    for_each_row(runs_path, |r| {
        let (Some(a), Some(&e)) = (
            spec.algorithms.iter().position(|x| x.label == r.algorithm),
            loaded.entry_of.get(&r.puzzle),
        ) else {
            bail!(
                "runs.csv has a row for {}/{} which is not in the spec",
                r.algorithm,
                r.puzzle
            );
        };
        let Some(x) = counter(&r.counters, name) else {
            bail!(
                "run {}/{}/{} has no counter '{name}'",
                r.algorithm,
                r.puzzle,
                r.run
            );
        };
        v[a][e].push(x as f64);
        Ok(())
    })?;
    Ok(v)
}

/// One row of comparison.csv and of report.md's table: our counter on one (algorithm, puzzle
/// entry) against the paper's value.
struct Line {
    algorithm: String,
    level: String,
    ours: Option<Summary>,
    /// The paper's mean, SD and runs.
    paper: Option<(f64, Option<f64>, Option<u64>)>,
    /// Welch's test, where the paper prints an SD and both sides have two runs or more.
    p: Option<f64>,
    p_holm: Option<f64>,
}

/// comparison.csv (the counter against its published values) and report.md's text.
pub fn report(
    spec: &Spec,
    loaded: &Loaded,
    runs_path: &Path,
    published: &[PublishedRow],
    name: &str,
    out: &Path,
    wall: f64,
) -> Result<String> {
    let v = values(spec, loaded, runs_path, name)?;
    let mut lines = compare(spec, published, &v);
    adjust(&mut lines);
    write_comparison_csv(spec, name, &lines, out)?;
    Ok(markdown(spec, name, wall, &lines))
}

/// Every (algorithm, puzzle entry) against its published row (matched by puzzle label and the
/// algorithm's `paper_label`), tested where the paper allows; not yet adjusted.
fn compare(spec: &Spec, published: &[PublishedRow], v: &[Vec<Vec<f64>>]) -> Vec<Line> {
    let mut lines = Vec::new();
    for (a, alg) in spec.algorithms.iter().enumerate() {
        for (e, pref) in spec.puzzles.iter().enumerate() {
            let ours = summarize(&v[a][e]);
            let row = published.iter().find(|r| {
                r.level == pref.label() && Some(r.algorithm.as_str()) == alg.paper_label.as_deref()
            });
            let paper = row.and_then(|r| Some((r.average?, r.sd, r.runs)));
            let p = match (ours, paper) {
                (Some(o), Some((m, Some(sd), Some(n)))) if o.n >= 2 && n >= 2 => {
                    welch_t_test(o.mean, o.sd, o.n as u64, m, sd, n)
                        .ok()
                        .map(|w| w.p_value)
                }
                _ => None,
            };
            lines.push(Line {
                algorithm: alg.label.clone(),
                level: pref.label().to_string(),
                ours,
                paper,
                p,
                p_holm: None,
            });
        }
    }
    lines
}

impl Line {
    /// The verdict at Holm p < 0.05, a difference with its direction (our mean above or below
    /// the paper's), as in every other comparison.csv.
    fn verdict(&self) -> &'static str {
        let higher = match (self.ours, self.paper) {
            (Some(o), Some((m, _, _))) => o.mean > m,
            _ => false,
        };
        match self.p_holm {
            Some(q) if q < 0.05 && higher => "differs (ours higher)",
            Some(q) if q < 0.05 => "differs (ours lower)",
            Some(_) => "no significant difference",
            None => "descriptive",
        }
    }
}

/// Holm over the lines that have a test.
fn adjust(lines: &mut [Line]) {
    let idx: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].p.is_some()).collect();
    let ps: Vec<f64> = idx
        .iter()
        .map(|&i| lines[i].p.unwrap_or(f64::NAN))
        .collect();
    for (&i, q) in idx.iter().zip(holm_adjust(&ps)) {
        lines[i].p_holm = Some(q);
    }
}

/// A CSV number with `d` decimals, empty when missing.
fn fixed(x: Option<f64>, d: usize) -> String {
    x.map_or(String::new(), |v| format!("{v:.d$}"))
}

/// comparison.csv: one row per line, with the ratio of the means and the verdict.
fn write_comparison_csv(spec: &Spec, name: &str, lines: &[Line], out: &Path) -> Result<()> {
    write_atomic_with(&out.join("comparison.csv"), |w| {
        writeln!(w, "experiment,algorithm,level,statistic,paper_mean,paper_sd,paper_runs,runs,mean,sd,min,max,ratio,test,p_value,p_holm,verdict")?;
        for l in lines {
            let o = l.ours;
            let (pm, psd, pn) = l
                .paper
                .map_or((None, None, None), |(m, sd, n)| (Some(m), sd, n));
            let test = if l.p.is_some() { "welch_t" } else { "none" };
            let verdict = l.verdict();
            writeln!(
                w,
                "{},{},{},{name},{},{},{},{},{},{},{},{},{},{test},{},{},{verdict}",
                spec.id,
                l.algorithm,
                l.level,
                fixed(pm, 2),
                fixed(psd, 2),
                pn.map_or(String::new(), |n| n.to_string()),
                o.map_or(0, |o| o.n),
                fixed(o.map(|o| o.mean), 2),
                fixed(o.filter(|o| o.n >= 2).map(|o| o.sd), 2),
                fixed(o.map(|o| o.min), 0),
                fixed(o.map(|o| o.max), 0),
                fixed(o.zip(pm).map(|(o, m)| o.mean / m), 3),
                l.p.map_or(String::new(), |p| format!("{p:.4e}")),
                l.p_holm.map_or(String::new(), |p| format!("{p:.4e}")),
            )?;
        }
        Ok(())
    })
}

/// report.md: the table of ours against the paper.
fn markdown(spec: &Spec, name: &str, wall: f64, lines: &[Line]) -> String {
    let mut md = format!(
        "Generated by `sudoku-lab reproduce {}` ({wall:.0} s wall). `{name}` per run: mean (SD) [min-max] over the runs, against the paper's mean (SD, runs), with the Holm-adjusted p-value of Welch's t-test where the paper prints an SD, and the verdict at Holm p < 0.05 (as in comparison.csv).\n\n| Variant | Puzzle | paper | ours | p | Verdict |\n|---|---|---|---|---|---|\n",
        spec.id
    );
    for l in lines {
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            l.algorithm,
            l.level,
            paper_cell(l.paper),
            ours_cell(l.ours),
            p_value(l.p_holm),
            l.verdict()
        ));
    }
    md
}

/// The paper's value: "mean (SD, n runs)", as much of it as the paper prints.
fn paper_cell(paper: Option<(f64, Option<f64>, Option<u64>)>) -> String {
    match paper {
        Some((m, Some(sd), Some(n))) => format!("{m:.1} ({sd:.2}, {n} runs)"),
        Some((m, _, Some(n))) => format!("{m:.1} ({n} run{})", if n == 1 { "" } else { "s" }),
        Some((m, _, None)) => format!("{m:.1}"),
        None => "-".into(),
    }
}

/// Our value: "mean (SD) [min-max], n runs" (SD "-" for a single run).
fn ours_cell(ours: Option<Summary>) -> String {
    ours.map_or("-".into(), |o| {
        format!(
            "{:.1} ({}) [{:.0}-{:.0}], {} runs",
            o.mean,
            if o.n >= 2 {
                format!("{:.2}", o.sd)
            } else {
                "-".into()
            },
            o.min,
            o.max,
            o.n
        )
    })
}

/// The mean of the trajectory counters (`<prefix><generation>`) per algorithm, drawn against
/// generations, one line per algorithm (the paper has no such curve: ours only).
pub fn trajectory(spec: &Spec, runs_path: &Path, prefix: &str, out: &Path) -> Result<()> {
    use std::collections::BTreeMap;
    let mut sums: Vec<BTreeMap<u64, (f64, u64)>> = vec![BTreeMap::new(); spec.algorithms.len()];
    for_each_row(runs_path, |r| {
        let Some(a) = spec.algorithms.iter().position(|x| x.label == r.algorithm) else {
            return Ok(());
        };
        for kv in r.counters.split(';') {
            if let Some((k, v)) = kv.split_once('=') {
                if let (Some(g), Ok(v)) = (
                    k.strip_prefix(prefix).and_then(|g| g.parse::<u64>().ok()),
                    v.parse::<f64>(),
                ) {
                    let e = sums[a].entry(g).or_insert((0.0, 0));
                    e.0 += v;
                    e.1 += 1;
                }
            }
        }
        Ok(())
    })?;
    let max_g = sums
        .iter()
        .flat_map(|m| m.keys())
        .copied()
        .max()
        .unwrap_or(1) as f64;
    let series: Vec<lab_charts::Series> = spec
        .algorithms
        .iter()
        .zip(&sums)
        .enumerate()
        .filter(|(_, (_, m))| !m.is_empty())
        .map(|(i, (alg, m))| lab_charts::Series {
            name: alg.label.clone(),
            points: m
                .iter()
                .map(|(&g, &(s, n))| (g as f64, s / n as f64))
                .collect(),
            marker: [
                lab_charts::Marker::Circle,
                lab_charts::Marker::Square,
                lab_charts::Marker::Triangle,
                lab_charts::Marker::Diamond,
                lab_charts::Marker::Cross,
            ][i % 5],
            ..Default::default()
        })
        .collect();
    if series.is_empty() {
        bail!("no counters named {prefix}<generation> in runs.csv");
    }
    let chart = lab_charts::LineChart {
        title: crate::reports::quick::title(format!(
            "mean of {prefix}<generation> over the runs (sudoku-lab)"
        )),
        x_label: "generation".into(),
        y_label: "distinct solved boards".into(),
        x: lab_charts::XAxis::Numeric {
            min: 0.0,
            max: max_g,
        },
        y_min: Some(0.0),
        y_max: None,
        log_y: false,
        log_x: false,
        series,
    };
    let (svg, png) = (out.join("trajectory.svg"), out.join("trajectory.png"));
    crate::reports::warnings::chart(&svg, &png, lab_charts::render(&chart, 900, 560, &svg, &png))
}

//! The Ret-GA Table 1 report: comparison.csv (by `verdicts.rs`: every published cell against ours,
//! with its test and Holm-adjusted verdict), pi.csv (the performance index, eq. (7) of Das et al.'s
//! journal version, for the three weightings of Fig. 8, from the paper's Table 1 and from our
//! runs), the charts of Fig. 7 and Fig. 8 ([`charts`]) and report.md ([`markdown`]); [`data`] holds
//! what they share.

pub mod charts;
pub mod data;
pub mod markdown;
#[cfg(test)]
mod tests;

use crate::protocol::io::write_atomic_with;
use crate::reports::groups::{Group, PublishedRow};
use crate::spec::Entry;
use crate::spec::Spec;
use anyhow::Result;
use std::io::Write;
use std::path::Path;

use charts::{fig7, fig8, Fig8Source};
use data::{our_pi_inputs, paper_pi_inputs, pi_curves, ret_ga_readings, w_grid, CASES};
use lab_charts::Marker;
use markdown::Markdown;

/// pi.csv: the PI of GA and Ret-GA at every w of the grid, for each case, from each source
/// (the paper's table, then our runs).
pub fn write_pi(path: &Path, sources: &[(&str, &Vec<Vec<Vec<f64>>>)]) -> Result<()> {
    let ws = w_grid();
    write_atomic_with(path, |w| {
        writeln!(w, "source,case,w,pi_ga,pi_ret_ga")?;
        for (name, curves) in sources {
            for (ci, (case, _)) in CASES.iter().enumerate() {
                for (wi, wv) in ws.iter().enumerate() {
                    writeln!(
                        w,
                        "{name},{case:?},{wv:.2},{:.6},{:.6}",
                        curves[ci][0][wi], curves[ci][1][wi]
                    )?;
                }
            }
        }
        Ok(())
    })
}

/// The whole Table 1 report: comparison.csv, pi.csv, Fig. 7, Fig. 8 (`fig8`: the paper's
/// curves and ours of every Ret-GA reading in one figure), and report.md.
pub fn report(
    spec: &Spec,
    entries: &[Entry],
    groups: &[Vec<Group>],
    published: &[PublishedRow],
    out: &Path,
    wall: f64,
    threads: usize,
) -> Result<()> {
    let cells = crate::reports::verdicts::comparison(spec, entries, groups, published);
    crate::reports::verdicts::write_comparison(&out.join("comparison.csv"), spec, &cells)?;
    let (levels, paper_stats) = paper_pi_inputs(published);
    let paper_curves = pi_curves(&paper_stats)?;
    let mut ours: Vec<(String, Vec<Vec<Vec<f64>>>)> = Vec::new();
    let mut series_names = Vec::new();
    for (k, &r) in ret_ga_readings(spec).iter().enumerate() {
        let Some(inputs) = our_pi_inputs(spec, groups, &levels, r) else {
            continue;
        };
        let curves = pi_curves(&inputs)?;
        let (name, names) = reading_names(k, &spec.algorithms[r].label);
        ours.push((name, curves));
        series_names.push(names);
    }
    let mut fig8_sources = vec![Fig8Source {
        curves: &paper_curves,
        names: ["GA (paper)".into(), "Ret-GA (paper)".into()],
        markers: [Marker::Diamond, Marker::Triangle],
        paper: true,
    }];
    for (k, ((_, curves), names)) in ours.iter().zip(series_names).enumerate() {
        fig8_sources.push(Fig8Source {
            curves,
            names,
            markers: if k == 0 {
                [Marker::Square, Marker::Circle]
            } else {
                [Marker::Cross, Marker::Cross]
            },
            paper: false,
        });
    }
    fig8(out, "fig8", &fig8_sources)?;
    let mut sources = vec![("paper", &paper_curves)];
    sources.extend(ours.iter().map(|(n, c)| (n.as_str(), c)));
    write_pi(&out.join("pi.csv"), &sources)?;
    fig7(out, spec, groups, published, &levels)?;
    let md = Markdown {
        spec,
        puzzles: entries,
        groups,
        published,
        cells: &cells,
        paper_pi: &paper_curves,
        our_pi: &ours,
    };
    crate::protocol::io::write_atomic(&out.join("report.md"), md.render(wall, threads).as_bytes())
}

/// The pi.csv source name and the Fig. 8 series names (GA, Ret-GA) of the `k`-th Ret-GA
/// reading, labelled `label`: plain "sudoku-lab" for the first (the literal reading), named by
/// the label for the others (their GA curve differs too: the PI is normalised per pair).
fn reading_names(k: usize, label: &str) -> (String, [String; 2]) {
    if k == 0 {
        (
            "sudoku-lab".to_string(),
            [
                "GA (sudoku-lab)".to_string(),
                "Ret-GA (sudoku-lab)".to_string(),
            ],
        )
    } else {
        (
            format!("sudoku-lab {label}"),
            [
                format!("GA, paired with Ret-GA {label} (sudoku-lab)"),
                format!("Ret-GA {label} (sudoku-lab)"),
            ],
        )
    }
}

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

use charts::{fig7, fig8};
use data::{our_pi_inputs, paper_pi_inputs, pi_curves, ret_ga_readings, w_grid, CASES};
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

/// The whole Table 1 report: comparison.csv, pi.csv, Fig. 7, Fig. 8 from the paper's table
/// and from our runs (one `fig8-ours*` per Ret-GA reading: `fig8-ours` for the first, the
/// literal one, `fig8-ours-<label>` for the others), and report.md.
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
    fig8(out, "fig8-paper", &paper_curves, "(paper's Table 1)")?;
    let mut ours: Vec<(String, Vec<Vec<Vec<f64>>>)> = Vec::new();
    for (k, &r) in ret_ga_readings(spec).iter().enumerate() {
        let Some(inputs) = our_pi_inputs(spec, groups, &levels, r) else {
            continue;
        };
        let curves = pi_curves(&inputs)?;
        let (stem, name, note) = reading_names(k, &spec.algorithms[r].label);
        fig8(out, &stem, &curves, &note)?;
        ours.push((name, curves));
    }
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

/// The chart stem, pi.csv source name and chart note of the `k`-th Ret-GA reading, labelled
/// `label`: plain "sudoku-lab" for the first (the literal reading), named by the label (made
/// safe for a file name in the stem) for the others.
fn reading_names(k: usize, label: &str) -> (String, String, String) {
    if k == 0 {
        (
            "fig8-ours".to_string(),
            "sudoku-lab".to_string(),
            "(sudoku-lab runs)".to_string(),
        )
    } else {
        let safe: String = label
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        (
            format!("fig8-ours-{safe}"),
            format!("sudoku-lab {label}"),
            format!("(sudoku-lab, Ret-GA {label})"),
        )
    }
}

//! The levels report's CSV files: levels.csv (one row per test) and per-puzzle.csv (the
//! paper's and our per-puzzle values side by side).

use super::stats::{median, Kind, Outcome, Test, Z95};
use super::values::{PublishedLevel, PuzzleValue};
use crate::protocol::io::write_atomic_with;
use crate::spec::Spec;
use anyhow::Result;
use lab_stats::wilson_interval;
use std::io::Write;
use std::path::Path;

/// A CSV number with `digits` decimals, empty when missing or not finite.
fn num(x: Option<f64>, digits: usize) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.digits$}"),
        _ => String::new(),
    }
}

/// levels.csv: every test with its samples' sizes, medians and pooled success, U, A12, the raw
/// and the Holm-adjusted p, and the verdict.
pub fn write_levels_csv(spec: &Spec, tests: &[Test], out: &Path) -> Result<()> {
    write_atomic_with(&out.join("levels.csv"), |w| {
        writeln!(w, "experiment,test,values,algorithm,level,measure,a,b,n_a,n_b,median_a,median_b,successes_a,runs_a,success_ci_low_a,success_ci_high_a,successes_b,runs_b,success_ci_low_b,success_ci_high_b,u,a12,p,p_holm,power_2x,verdict")?;
        for t in tests {
            let (u, a12, p) = match t.outcome {
                Outcome::Tested { u, a12, p } => (Some(u), Some(a12), Some(p)),
                _ => (None, None, None),
            };
            let (la, ha) = wilson_interval(t.pooled_a.0, t.pooled_a.1, Z95);
            let (lb, hb) = wilson_interval(t.pooled_b.0, t.pooled_b.1, Z95);
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                spec.id,
                match t.kind {
                    Kind::OursVsPaper => "ours-vs-paper",
                    Kind::Claim => "claim",
                },
                t.values,
                t.algorithm,
                t.level,
                t.measure.name(),
                t.a,
                t.b,
                t.xa.len(),
                t.xb.len(),
                num(median(&t.xa), 4),
                num(median(&t.xb), 4),
                t.pooled_a.0,
                t.pooled_a.1,
                num(Some(la), 4),
                num(Some(ha), 4),
                t.pooled_b.0,
                t.pooled_b.1,
                num(Some(lb), 4),
                num(Some(hb), 4),
                num(u, 1),
                num(a12, 4),
                p.map_or(String::new(), |p| format!("{p:.4e}")),
                t.p_holm.map_or(String::new(), |q| format!("{q:.4e}")),
                num(t.power_2x(), 3),
                t.verdict(),
            )?;
        }
        Ok(())
    })
}

/// per-puzzle.csv: per algorithm and level, our puzzles and the paper's problems side by side.
pub fn write_per_puzzle(
    spec: &Spec,
    levels: &[PublishedLevel],
    ours: &[Vec<Vec<PuzzleValue>>],
    out: &Path,
) -> Result<()> {
    write_atomic_with(&out.join("per-puzzle.csv"), |w| {
        writeln!(w, "experiment,algorithm,level,puzzle,paper_problem,paper_successes,paper_runs,ours_successes,ours_runs,paper_average,ours_average,paper_median,ours_median")?;
        for (a, alg) in spec.algorithms.iter().enumerate() {
            for (l, level) in levels.iter().enumerate() {
                // Side by side in order only: our puzzle k is not the paper's problem k.
                for (o, p) in ours[a][l].iter().zip(&level.puzzles) {
                    writeln!(
                        w,
                        "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                        spec.id,
                        alg.label,
                        level.label,
                        o.id,
                        p.id,
                        p.successes,
                        p.runs,
                        o.successes,
                        o.runs,
                        num(p.average, 2),
                        num(o.average, 2),
                        num(p.median, 1),
                        num(o.median, 1),
                    )?;
                }
            }
        }
        Ok(())
    })
}

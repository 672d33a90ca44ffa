//! What the parts of the Table 1 report share: the levels of the paper's table, the spec's Ret-GA
//! readings, and the performance index (eq. (7) of Das et al.'s journal version): its inputs, from
//! the paper's Table 1 and from our runs, and its curves for the three weightings of Fig. 8.

use crate::reports::groups::{Group, PublishedRow};
use crate::spec::Spec;
use anyhow::Result;
use lab_stats::{pi_curve, PiCase, PuzzleStats};

/// The grid of w values for the PI curves (0, 0.05, ..., 1).
pub fn w_grid() -> Vec<f64> {
    (0..=20).map(|i| i as f64 / 20.0).collect()
}

/// The levels (rows) of the paper's table, each once, in table order.
pub fn table_levels(published: &[PublishedRow]) -> Vec<String> {
    let mut levels: Vec<String> = Vec::new();
    for r in published {
        if !levels.contains(&r.level) {
            levels.push(r.level.clone());
        }
    }
    levels
}

/// The paper's Table 1 as PI inputs, [algorithm GA, Ret-GA][level in table order].
pub fn paper_pi_inputs(published: &[PublishedRow]) -> (Vec<String>, Vec<Vec<PuzzleStats>>) {
    let levels = table_levels(published);
    let algs = ["GA", "Ret-GA"];
    let stats = algs
        .iter()
        .map(|a| {
            levels
                .iter()
                .map(|l| {
                    let r = published
                        .iter()
                        .find(|r| &r.level == l && r.algorithm == *a);
                    r.map(|r| PuzzleStats {
                        successes: r.count.unwrap_or(0),
                        runs: r.runs.unwrap_or(0),
                        mean_generations: r.average.unwrap_or(f64::NAN),
                        sd_generations: r.sd.unwrap_or(f64::NAN),
                    })
                    .unwrap_or_default()
                })
                .collect()
        })
        .collect();
    (levels, stats)
}

/// The spec's algorithms compared with the paper's Ret-GA column, in spec order: the first
/// is the literal reading, the others are labelled readings (ret-ga-table1 runs several).
pub fn ret_ga_readings(spec: &Spec) -> Vec<usize> {
    (0..spec.algorithms.len())
        .filter(|&a| spec.algorithms[a].paper_label.as_deref() == Some("Ret-GA"))
        .collect()
}

/// Our runs as PI inputs, on the primary puzzle of each level: the first algorithm whose paper
/// label is GA, and the Ret-GA reading `ret` (an algorithm index).
pub fn our_pi_inputs(
    spec: &Spec,
    g: &[Vec<Group>],
    levels: &[String],
    ret: usize,
) -> Option<Vec<Vec<PuzzleStats>>> {
    let ga = spec
        .algorithms
        .iter()
        .position(|x| x.paper_label.as_deref() == Some("GA"))?;
    [ga, ret]
        .iter()
        .map(|&a| {
            levels
                .iter()
                .map(|l| {
                    let p = spec
                        .puzzles
                        .iter()
                        .position(|p| p.primary && p.label() == l)?;
                    let x = &g[a][p];
                    let s = x.generations();
                    Some(PuzzleStats {
                        successes: x.successes,
                        runs: x.runs,
                        mean_generations: s.map_or(0.0, |s| s.mean),
                        sd_generations: s.map_or(0.0, |s| s.sd),
                    })
                })
                .collect()
        })
        .collect()
}

/// The three weightings of Fig. 8, with their panel titles.
pub const CASES: [(PiCase, &str); 3] = [
    (PiCase::K1, "(a) k1 = w varies"),
    (PiCase::K2, "(b) k2 = w varies"),
    (PiCase::K3, "(c) k3 = w varies"),
];

/// PI curves for the three cases: `[case][algorithm][w]`.
pub fn pi_curves(stats: &[Vec<PuzzleStats>]) -> Result<Vec<Vec<Vec<f64>>>> {
    let ws = w_grid();
    CASES
        .iter()
        .map(|(c, _)| {
            pi_curve(stats, *c, &ws).map_err(|e| anyhow::anyhow!("performance index: {e}"))
        })
        .collect()
}

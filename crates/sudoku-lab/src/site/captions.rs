//! The caption of each chart on the site, keyed by the chart's file name: what it shows and
//! what to look for. Written here (the site's words), not read from the results folder, so a
//! results folder cannot put text on a page; a chart without an entry is captioned with its
//! file name only.

/// (file name, or a prefix ending in `-` / `*`, caption).
const CAPTIONS: &[(&str, &str)] = &[
    (
        "error-rates.svg",
        "Calibration of the reading race: the share of simulated replicates in which a reading \
         whose runs follow the paper's distribution was eliminated, per scenario, under \
         procedures v1 and v2 (95 % Clopper-Pearson intervals), against alpha (dashed). Look \
         for points above the line: there the race's promise fails.",
    ),
    (
        "spec-curve.svg",
        "Specification curve of a reading search: every reading raced, best fit first \
         (survivors, in blue, first), its -log10 smallest Holm-adjusted p-value at its last \
         look (higher: worse fit) with the elimination threshold as a line, and its option \
         values as a dot matrix beneath. Look for the option values the survivors share: \
         those are what the table constrains.",
    ),
    (
        "success.svg",
        "Success (% of runs, Wilson 95 % interval) and time per run of each variant or puzzle, \
         ours (solid) against the paper's value (dashed, where published). Look for paper \
         points outside our interval: those are the cells that differ in the table above.",
    ),
    (
        "alpha.svg",
        "Success (% of runs, Wilson 95 % interval) and mean rounds of successful runs against \
         alpha, one line per strategy, ours (solid) against the paper's (dashed). Look at \
         whether the lines fall with alpha as the paper's do, and where the paper's points \
         leave our intervals.",
    ),
    (
        "fig4.svg",
        "Figure 4.2: per-cell grades over the runs (A = right in every run, B = right in at \
         least 90 %, blank otherwise), ours beside the paper's. Look for cells graded \
         differently: the grid Grades cell by cell above marks them.",
    ),
    (
        "fig7.svg",
        "Fig. 7: minimum, maximum and average generations of the successful runs per puzzle, \
         GA and Ret-GA, ours (solid) against the paper's (dashed); a triangle on the axis marks \
         a puzzle that no run solved (no value, not a zero). Look for the readings whose line \
         follows the paper's.",
    ),
    (
        "fig8-paper.svg",
        "Fig. 8 from the paper's Table 1: the performance index PI against the weight w, for \
         three weightings, GA against Ret-GA. The reference for the two charts of ours.",
    ),
    (
        "fig8-ours.svg",
        "Fig. 8 from our runs, Ret-GA as written: PI against w for three weightings. Compare \
         with the paper's Fig. 8: which algorithm lies above, and where the curves cross.",
    ),
    (
        "fig8-ours-*",
        "Fig. 8 from our runs with this reading of Ret-GA: PI against w for three weightings. \
         Compare with the paper's Fig. 8: which algorithm lies above, and where the curves \
         cross.",
    ),
    (
        "fig8*",
        "Fig. 8: the performance index PI against the weight w for three weightings, GA \
         against Ret-GA. Compare which algorithm lies above, and where the curves cross, in \
         the paper's values and in ours.",
    ),
    (
        "levels.svg",
        "Per level, one point per puzzle: (a) success rate, (b) average generations of the \
         successful runs (log), the paper's puzzles beside ours for each reading, with each \
         group's median; a triangle on the axis marks a puzzle no run solved. Look at whether \
         our groups sit where the paper's do, and whether success falls and effort rises from \
         level to level as the paper claims.",
    ),
    (
        "trajectory.svg",
        "The counter (distinct solved boards) averaged over the runs against generations, one \
         line per variant (ours only: the paper prints no curve). Look at which variant keeps \
         finding new boards and which levels off.",
    ),
    (
        "effort.svg",
        "(a) Success (% of runs, Wilson 95 % interval) and (b) median generations of the \
         successful runs with quartiles, per algorithm and puzzle; a mark at the bottom edge \
         means no run succeeded. Look for intervals that do not overlap.",
    ),
    (
        "sensitivity-success.svg",
        "Success (% of runs) against each parameter's value, one panel per parameter, all \
         puzzles pooled; the baseline (all defaults) is its own point. Look for the parameters \
         that move success at all.",
    ),
    (
        "sensitivity-ert.svg",
        "Expected running time (evaluations per success) against each parameter's value, one \
         panel per parameter; no point where no run succeeded. Look for the values that make \
         a success cheaper than the baseline.",
    ),
    (
        "sensitivity-penalty.svg",
        "Mean final penalty (0 = solved) against each parameter's value, one panel per \
         parameter. Look for the values that end closer to a solution even without solving.",
    ),
    (
        "compare-success.svg",
        "Success (% of runs, Wilson 95 % interval) per algorithm and puzzle set. Look for \
         intervals that do not overlap; compare-pairs.md has the tests.",
    ),
    (
        "compare-ert.svg",
        "Expected running time (evaluations per success, log) per algorithm and puzzle set, \
         shaded: its 95 % bootstrap interval (runs resampled within each puzzle; for all, \
         puzzles then runs); no point where no run succeeded, a band open at the top where \
         some resamples have no success. Lower is better; look at the gaps between algorithms \
         of similar success and whether their bands overlap.",
    ),
    (
        "compare-ecdf.svg",
        "Runtime ECDF with unsolved runs censored where they stopped: the Kaplan-Meier \
         fraction of runs solved within each number of evaluations (log), one curve per \
         algorithm, shaded: 95 % pointwise bootstrap band; a curve that ends below 1 has \
         unsolved runs. A curve to the left and higher is better; where bands overlap the \
         runs do not separate the algorithms.",
    ),
    (
        "compare-ecdf-seconds.svg",
        "The runtime ECDF as above against wall-clock seconds of this machine: an evaluation \
         costs each algorithm a different time, so the order can differ from the one by \
         evaluations. The budget is in evaluations, so unsolved runs are censored at different \
         wall times and a curve can end above its success rate (the report says where): read \
         it for how fast the early solves come.",
    ),
    (
        "compare-targets.svg",
        "Fixed-target ECDFs: the fraction of runs that reached each penalty target within the \
         evaluations (Kaplan-Meier: a run that stopped before reaching it is censored there), \
         one curve per algorithm, shaded: 95 % bootstrap band (puzzles, then runs). Look at \
         which algorithm reaches the easy targets first and which reaches the hard ones at all.",
    ),
    (
        "compare-budget.svg",
        "Fixed-budget box plots: the penalty each algorithm's runs have at each budget (0 = \
         solved). Lower is better; look at how the boxes move as the budget grows.",
    ),
    (
        "compare-cd.svg",
        "Critical-difference diagram of the mean Friedman ranks over the puzzles (by \
         evaluations); algorithms joined by a bar are not significantly different (Wilcoxon, \
         Holm). Further left: a lower (better) average rank; a pair's own test (compare-posthoc.csv) \
         can favour the one further right, since the average ranks count every algorithm.",
    ),
    (
        "compare-cd-seconds.svg",
        "Critical-difference diagram as above, the ranks by time to solve (CPU seconds, or wall \
         seconds in folders without CPU times) instead of evaluations: the one ranking that \
         compares algorithms whose evaluations are different units.",
    ),
    (
        "compare-bayes-ert.svg",
        "Bayesian signed-rank test on per-puzzle ERT (log scale), one triangle per pair: each \
         shade is posterior samples of (A better, practically equivalent, B better), the \
         corners being certainty of each; the lines split where each is the most probable, \
         with its probability. Look for mass near the top corner: a difference too small to \
         matter (the ROPE), which a p-value cannot show.",
    ),
    (
        "compare-bayes-success.svg",
        "Bayesian signed-rank test on per-puzzle success rates, one triangle per pair, read as \
         the one above: bottom corners for A or B better by more than the ROPE, the top for \
         practically equivalent. Look for pairs whose mass straddles a line: undecided with \
         these runs.",
    ),
    (
        "compare-bayes-ert-seconds.svg",
        "Bayesian signed-rank test on per-puzzle ERT in seconds (log scale), read as the \
         triangles above: the comparison of speed that holds across algorithms whose \
         evaluations are different units.",
    ),
    (
        "compare-cd-*",
        "Critical-difference diagram of the mean Friedman ranks by evaluations, among the \
         algorithms of one evaluation unit only (the file name names the unit): evaluations \
         of different units are not comparable.",
    ),
    (
        "phase-*",
        "Against the fraction of givens of each puzzle set: (a) the runs solved, with Wilson \
         95 % bars; (b) the median CPU time to solve (Kaplan-Meier, unsolved runs censored at \
         the limit; a median not reached is marked at the bottom). Look for the dip of the \
         phase transition and which solver stays up through it.",
    ),
];

/// The caption of chart `file` (an SVG file name), if the site has one.
pub fn caption(file: &str) -> Option<&'static str> {
    CAPTIONS.iter().find_map(|(name, text)| {
        let hit = match name.strip_suffix('*') {
            Some(prefix) => file.starts_with(prefix) && file.ends_with(".svg"),
            None => file == *name,
        };
        hit.then_some(*text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_committed_chart_has_a_caption() {
        let results = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
        let mut missing = Vec::new();
        for dir in std::fs::read_dir(&results).unwrap() {
            for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
                let name = f.unwrap().file_name().to_string_lossy().into_owned();
                if name.ends_with(".svg") && caption(&name).is_none() {
                    missing.push(name);
                }
            }
        }
        assert!(missing.is_empty(), "charts without a caption: {missing:?}");
        assert!(caption("fig8-ours-best-uniform.svg").is_some());
        assert!(caption("other.svg").is_none());
    }
}

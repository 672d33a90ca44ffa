//! Statistics for the `sudoku-lab` experiments.
//!
//! * [`summarize`] — descriptive statistics (n, min, max, mean, median, SD);
//! * [`fisher_exact_two_sided`], [`fisher_exact_less`], [`binomial_test_two_sided`] — exact tests
//!   for success counts, matching R's `fisher.test` / `binom.test`;
//! * [`welch_t_test`] — Welch's t-test from summary statistics;
//! * [`mann_whitney_u`] — Mann–Whitney U with normal approximation, matching
//!   R's `wilcox.test(exact = FALSE, correct = TRUE)`;
//! * [`holm_adjust`] — Holm's multiple-testing correction (R's `p.adjust`);
//! * [`performance_index`], [`pi_curve`] — the PI of Das, Bhatia, Puri and
//!   Deep's Retrievable-GA paper, eq. (7) and Fig. 8;
//! * [`ert`] — expected running time as defined by COCO/BBOB;
//! * [`wilson_interval`] — the Wilson score interval of a success rate;
//! * [`bootstrap_mean_interval`] — the percentile bootstrap interval of a mean;
//! * [`vargha_delaney_a12`], [`A12Magnitude`] — the Vargha–Delaney A effect
//!   size, matching R's `effsize::VD.A`;
//! * [`wilcoxon_signed_rank`] — the paired Wilcoxon signed-rank test,
//!   matching R's `wilcox.test(x, y, paired = TRUE)` (exact or normal);
//! * [`friedman_test`], [`iman_davenport`] — Friedman's test over blocks
//!   (R's `friedman.test`) with average ranks and the Iman–Davenport F;
//! * [`nemenyi_critical_difference`], [`pairwise_wilcoxon_holm`],
//!   [`cd_cliques`], [`cd_cliques_from_matrix`] — post hoc comparisons and
//!   the bars of a critical-difference diagram (Demšar 2006; Benavoli et
//!   al. 2016);
//! * [`studentized_range_cdf`], [`studentized_range_quantile`] — the
//!   studentized range with infinite degrees of freedom (R's `ptukey` /
//!   `qtukey` with `df = Inf`);
//! * [`bayesian_signed_rank`] — the Bayesian signed-rank test with a region
//!   of practical equivalence (Benavoli et al. 2014, 2017; `baycomp`);
//! * [`two_proportion_runs`], [`two_proportion_power`], [`mann_whitney_runs`]
//!   — power and sample sizes of the two-proportion test (Cohen's h, as
//!   `statsmodels`) and of the Mann–Whitney U test (Noether 1987);
//! * [`fisher_detectable`], [`mean_detectable`] — the smallest departure from a published
//!   value that Fisher's test or a mean test detects with a stated power;
//! * [`rate_equivalence`], [`mean_equivalence`], [`clopper_pearson`] — equivalence to a
//!   published value within a margin (two one-sided tests) and the runs it needs;
//! * [`ecdf`] — the empirical CDF of run lengths, unsolved runs (`+∞`)
//!   counting in the denominator only;
//! * [`kaplan_meier`], [`logrank_test`], [`LifeTable`] — censored run times
//!   (unsolved runs censored where they stopped), matching Python's
//!   `lifelines` 0.30;
//! * [`consistency`] — is a published row possible at all: the bounds of its mean from its
//!   count, minimum, median and maximum, of its SD from its count, extremes and mean, GRIM
//!   and GRIMMER for means and SDs of whole numbers, rounding as intervals;
//! * [`ecdf_band`], [`ert_interval`] — bootstrap bands on those curves and
//!   intervals on ERT, with a documented resampling scheme and seed.
//!
//! Every function documents the source of its formula. Nothing panics on bad
//! input: fallible functions return [`StatsError`], the few plain-`f64`
//! functions document when they return NaN.

mod bayes;
mod bootstrap_bands;
pub mod consistency;
mod descriptive;
mod detectable;
mod ecdf;
mod effect_size;
mod equivalence;
mod error;
mod friedman;
mod holm;
mod hypothesis;
mod mean_test;
mod pi;
mod posthoc;
mod power;
mod ranking;
mod sequential;
mod signed_rank;
mod studentized_range;
mod survival;

pub use bayes::{bayesian_signed_rank, SignedRankPosterior, BAYES_PRIOR, BAYES_SAMPLES};
pub use bootstrap_bands::{
    ecdf_band, ert_interval, seed_from, Band, Scheme, BAND_LEVEL, BAND_RESAMPLES,
};
pub use descriptive::{
    bootstrap_mean_interval, ert, summarize, wilson_interval, Summary, BOOTSTRAP_MIN_N,
    BOOTSTRAP_RESAMPLES,
};
pub use detectable::{fisher_detectable, mean_detectable, Detectable, MeanTest, Sides};
pub use ecdf::ecdf;
pub use effect_size::{vargha_delaney_a12, A12Magnitude};
pub use equivalence::{
    clopper_pearson, mean_equivalence, mean_equivalence_runs, rate_equivalence,
    rate_equivalence_power, rate_equivalence_runs, Equivalence,
};
pub use error::StatsError;
pub use friedman::{friedman_test, iman_davenport, FriedmanResult, ImanDavenportResult};
pub use holm::holm_adjust;
pub use hypothesis::{
    binomial_test_two_sided, fisher_exact_less, fisher_exact_two_sided, mann_whitney_u,
    welch_t_test, MannWhitneyResult, WelchResult,
};
pub use mean_test::guarded_mean_test;
pub use pi::{performance_index, pi_curve, PiCase, PuzzleStats};
pub use posthoc::{
    cd_cliques, cd_cliques_from_matrix, holm_not_different, nemenyi_critical_difference,
    nemenyi_q_alpha, pairwise_wilcoxon_holm, PairwiseWilcoxon,
};
pub use power::{
    cohens_h, fisher_exact_power, fisher_exact_runs, mann_whitney_runs, mann_whitney_runs_ties,
    normal_quantile, two_proportion_power, two_proportion_runs,
};
pub use sequential::{round_alphas, spent as alpha_spent, Spending};
pub use signed_rank::{wilcoxon_signed_rank, WilcoxonSignedRankResult};
pub use studentized_range::{studentized_range_cdf, studentized_range_quantile};
pub use survival::{
    kaplan_meier, logrank_test, KaplanMeier, LifeTable, LogRank, MedianTime, Reached,
};

//! Statistics for the `sudoku-lab` experiments.
//!
//! * [`summarize`] — descriptive statistics (n, min, max, mean, median, SD);
//! * [`fisher_exact_two_sided`], [`binomial_test_two_sided`] — exact tests
//!   for success counts, matching R's `fisher.test` / `binom.test`;
//! * [`welch_t_test`] — Welch's t-test from summary statistics;
//! * [`mann_whitney_u`] — Mann–Whitney U with normal approximation, matching
//!   R's `wilcox.test(exact = FALSE, correct = TRUE)`;
//! * [`holm_adjust`] — Holm's multiple-testing correction (R's `p.adjust`);
//! * [`performance_index`], [`pi_curve`] — the PI of Das, Bhatia, Puri and
//!   Deep's Retrievable-GA paper, eq. (7) and Fig. 8;
//! * [`ert`] — expected running time as defined by COCO/BBOB;
//! * [`wilson_interval`] — the Wilson score interval of a success rate.
//!
//! Every function documents the source of its formula. Nothing panics on bad
//! input: fallible functions return [`StatsError`], the few plain-`f64`
//! functions document when they return NaN.

mod descriptive;
mod error;
mod holm;
mod hypothesis;
mod pi;

pub use descriptive::{ert, summarize, wilson_interval, Summary};
pub use error::StatsError;
pub use holm::holm_adjust;
pub use hypothesis::{
    binomial_test_two_sided, fisher_exact_two_sided, mann_whitney_u, welch_t_test,
    MannWhitneyResult, WelchResult,
};
pub use pi::{performance_index, pi_curve, PiCase, PuzzleStats};

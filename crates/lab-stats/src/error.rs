//! The error type shared by every fallible function of the crate.

use thiserror::Error;

/// Errors returned by the fallible functions of `lab-stats`.
///
/// No function of this crate panics on bad input: invalid arguments are
/// reported through this type (or, for the few functions whose signature is
/// a plain `f64`, through a documented `NaN`).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum StatsError {
    /// A sample is too small for the requested procedure.
    #[error("sample `{sample}` has {n} observation(s), at least {min} required")]
    TooFewObservations {
        /// Which sample (e.g. `"x"`, `"group 1"`).
        sample: &'static str,
        /// Number of observations supplied.
        n: u64,
        /// Minimum number of observations required.
        min: u64,
    },
    /// The test statistic is undefined because the data have no spread
    /// (both variances zero in the Welch test, all observations tied in the
    /// Mann–Whitney test).
    #[error("the data are constant: {0}")]
    ZeroVariance(&'static str),
    /// An input value is NaN, infinite, negative or otherwise out of range.
    #[error("invalid value {value} for {what}")]
    InvalidValue {
        /// Which argument was invalid.
        what: &'static str,
        /// The offending value.
        value: f64,
    },
    /// Performance-index weights must satisfy `0 <= k <= 1` and
    /// `k1 + k2 + k3 = 1`.
    #[error("invalid performance-index weights ({k1}, {k2}, {k3}): need 0 <= k <= 1 and k1 + k2 + k3 = 1")]
    InvalidWeights {
        /// Weight of the success rate.
        k1: f64,
        /// Weight of the mean-generations ratio.
        k2: f64,
        /// Weight of the SD-of-generations ratio.
        k3: f64,
    },
    /// The performance index needs at least one puzzle.
    #[error("no puzzles: the performance index needs at least one puzzle")]
    NoPuzzles,
    /// The per-algorithm puzzle vectors have different lengths.
    #[error("algorithm {alg} has {got} puzzle entries, expected {expected}")]
    RaggedPuzzleTable {
        /// Index of the offending algorithm.
        alg: usize,
        /// Length of `algs[0]`.
        expected: usize,
        /// Length of `algs[alg]`.
        got: usize,
    },
    /// Two inputs that must have the same length do not (the two samples of
    /// a paired test, the rows of a square matrix, ...).
    #[error("{what}: expected length {expected}, got {got}")]
    LengthMismatch {
        /// What was compared.
        what: &'static str,
        /// The length required.
        expected: usize,
        /// The length supplied.
        got: usize,
    },
    /// A block (row) of a blocks × treatments table has a different number
    /// of treatments than the first block.
    #[error("block {block} has {got} treatment value(s), expected {expected}")]
    RaggedBlocks {
        /// Index of the offending block.
        block: usize,
        /// Length of `blocks[0]`.
        expected: usize,
        /// Length of `blocks[block]`.
        got: usize,
    },
    /// A matrix that must be symmetric is not.
    #[error("matrix is not symmetric: entry ({i}, {j}) differs from ({j}, {i})")]
    AsymmetricMatrix {
        /// Row of the first offending entry.
        i: usize,
        /// Column of the first offending entry.
        j: usize,
    },
    /// One entry of the performance-index table is inconsistent.
    #[error("invalid statistics for algorithm {alg}, puzzle {puzzle}: {reason}")]
    InvalidPuzzleStats {
        /// Index of the algorithm.
        alg: usize,
        /// Index of the puzzle.
        puzzle: usize,
        /// What is wrong.
        reason: &'static str,
    },
}

//! The performance index (PI) of Das, Bhatia, Puri and Deep.

use crate::StatsError;

/// Results of one algorithm on one puzzle, the input of
/// [`performance_index`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PuzzleStats {
    /// Number of successful runs `Sr` (puzzle solved).
    pub successes: u64,
    /// Total number of runs `Tr` (must be `> 0` and `>= successes`).
    pub runs: u64,
    /// Average number of generations of the **successful** runs, `Ag`.
    /// Ignored (may be NaN) when `successes == 0`.
    pub mean_generations: f64,
    /// Standard deviation of the generations of the **successful** runs,
    /// `Asd`. Ignored (may be NaN) when `successes == 0`; use `0.0` for a
    /// single success.
    pub sd_generations: f64,
}

/// The three weighting schemes of the PI plots (Das et al., Fig. 8).
///
/// In each case one weight is the free parameter `w ∈ [0, 1]` and the other
/// two share the remainder equally, so that `k1 + k2 + k3 = 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PiCase {
    /// Case (a): `k1 = w`, `k2 = k3 = (1 - w) / 2` (emphasis on success rate).
    K1,
    /// Case (b): `k2 = w`, `k1 = k3 = (1 - w) / 2` (emphasis on mean generations).
    K2,
    /// Case (c): `k3 = w`, `k1 = k2 = (1 - w) / 2` (emphasis on SD of generations).
    K3,
}

impl PiCase {
    /// The weights `(k1, k2, k3)` of this case for the free weight `w`.
    ///
    /// No validation happens here; a `w` outside `[0, 1]` yields weights that
    /// [`performance_index`] rejects with [`StatsError::InvalidWeights`].
    pub fn weights(self, w: f64) -> (f64, f64, f64) {
        let rest = (1.0 - w) / 2.0;
        match self {
            PiCase::K1 => (w, rest, rest),
            PiCase::K2 => (rest, w, rest),
            PiCase::K3 => (rest, rest, w),
        }
    }
}

/// Tolerance on `k1 + k2 + k3 = 1`.
const WEIGHT_SUM_TOL: f64 = 1e-9;

/// Ratio `best / own` with the documented `0/0 = 1` convention.
fn ratio(best: f64, own: f64) -> f64 {
    if own == 0.0 {
        // best <= own == 0 and best >= 0, so best == 0: as good as the best.
        1.0
    } else {
        best / own
    }
}

/// Performance index of every algorithm, eq. (7) of K. N. Das, S. Bhatia,
/// S. Puri, K. Deep, *A Retrievable GA for Solving Sudoku Puzzles*:
///
/// `PI_alg = (1 / Np) Σ_{i=1}^{Np} (k1 α1ᵢ + k2 α2ᵢ + k3 α3ᵢ)`
///
/// where, for puzzle `i` (`algs[a][i]`):
///
/// * `α1ᵢ = Srᵢ / Trᵢ` — successful runs over total runs;
/// * `α2ᵢ = Mgᵢ / Agᵢ` if `Srᵢ > 0`, else `0` — `Agᵢ` is this algorithm's
///   mean generations over its successful runs and `Mgᵢ` the minimum `Agᵢ`
///   over the compared algorithms **that solved puzzle `i` at least once**;
/// * `α3ᵢ = Msdᵢ / Asdᵢ` if `Srᵢ > 0`, else `0` — the same with the SD of
///   generations of the successful runs.
///
/// Hence every `α ∈ [0, 1]` and `PI ∈ [0, 1]`, larger is better.
///
/// Edge case (documented convention, not in the paper): when `Asdᵢ == 0`
/// (e.g. a single success) then `Msdᵢ == 0` too and `α3ᵢ = 1` (0/0 is
/// treated as "equal to the best"); likewise `α2ᵢ = 1` when `Agᵢ == 0`.
///
/// `k = (k1, k2, k3)` must satisfy `0 <= kⱼ <= 1` and `k1 + k2 + k3 = 1`
/// (within `1e-9`); see [`PiCase::weights`] for the paper's three schemes.
/// Returns one PI per algorithm, in the order of `algs`; an empty `algs`
/// gives an empty vector.
///
/// # Errors
///
/// * [`StatsError::InvalidWeights`] for weights violating the constraints;
/// * [`StatsError::NoPuzzles`] if the algorithms have zero puzzles;
/// * [`StatsError::RaggedPuzzleTable`] if the inner vectors differ in length;
/// * [`StatsError::InvalidPuzzleStats`] if `runs == 0`, `successes > runs`,
///   or (when `successes > 0`) a mean/SD of generations is negative or not
///   finite.
pub fn performance_index(
    algs: &[Vec<PuzzleStats>],
    k: (f64, f64, f64),
) -> Result<Vec<f64>, StatsError> {
    let (k1, k2, k3) = k;
    let in_unit = |x: f64| (0.0..=1.0).contains(&x);
    if !(in_unit(k1) && in_unit(k2) && in_unit(k3)) || (k1 + k2 + k3 - 1.0).abs() > WEIGHT_SUM_TOL {
        return Err(StatsError::InvalidWeights { k1, k2, k3 });
    }
    let Some(first) = algs.first() else {
        return Ok(Vec::new());
    };
    let np = first.len();
    if np == 0 {
        return Err(StatsError::NoPuzzles);
    }
    for (alg, row) in algs.iter().enumerate() {
        if row.len() != np {
            return Err(StatsError::RaggedPuzzleTable {
                alg,
                expected: np,
                got: row.len(),
            });
        }
        for (puzzle, s) in row.iter().enumerate() {
            let bad = |reason| {
                Err(StatsError::InvalidPuzzleStats {
                    alg,
                    puzzle,
                    reason,
                })
            };
            if s.runs == 0 {
                return bad("runs must be > 0");
            }
            if s.successes > s.runs {
                return bad("successes exceed runs");
            }
            if s.successes > 0 {
                if !s.mean_generations.is_finite() || s.mean_generations < 0.0 {
                    return bad("mean_generations must be finite and >= 0 when successes > 0");
                }
                if !s.sd_generations.is_finite() || s.sd_generations < 0.0 {
                    return bad("sd_generations must be finite and >= 0 when successes > 0");
                }
            }
        }
    }
    // Per-puzzle minima over the algorithms that solved the puzzle.
    let mut min_mean = vec![f64::INFINITY; np];
    let mut min_sd = vec![f64::INFINITY; np];
    for row in algs {
        for (i, s) in row.iter().enumerate() {
            if s.successes > 0 {
                min_mean[i] = min_mean[i].min(s.mean_generations);
                min_sd[i] = min_sd[i].min(s.sd_generations);
            }
        }
    }
    let pis = algs
        .iter()
        .map(|row| {
            let sum: f64 = row
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let a1 = s.successes as f64 / s.runs as f64;
                    let (a2, a3) = if s.successes > 0 {
                        (
                            ratio(min_mean[i], s.mean_generations),
                            ratio(min_sd[i], s.sd_generations),
                        )
                    } else {
                        (0.0, 0.0)
                    };
                    k1 * a1 + k2 * a2 + k3 * a3
                })
                .sum();
            sum / np as f64
        })
        .collect();
    Ok(pis)
}

/// PI curves for one of the paper's weighting cases (Das et al., Fig. 8):
/// `result[a][j] = performance_index(algs, case.weights(ws[j]))[a]`.
///
/// # Errors
///
/// The errors of [`performance_index`]; a `w` outside `[0, 1]` (or NaN)
/// gives [`StatsError::InvalidWeights`].
pub fn pi_curve(
    algs: &[Vec<PuzzleStats>],
    case: PiCase,
    ws: &[f64],
) -> Result<Vec<Vec<f64>>, StatsError> {
    let mut out = vec![Vec::with_capacity(ws.len()); algs.len()];
    for &w in ws {
        let pis = performance_index(algs, case.weights(w))?;
        for (curve, pi) in out.iter_mut().zip(pis) {
            curve.push(pi);
        }
    }
    // With no weights, still validate the table so errors are not hidden.
    if ws.is_empty() {
        performance_index(algs, case.weights(1.0))?;
    }
    Ok(out)
}

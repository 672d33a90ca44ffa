//! Bootstrap confidence bands on runtime curves (the Kaplan-Meier ECDF `1 - S(t)`) and
//! intervals on ERT, resampling the runs a curve is made of.
//!
//! Two schemes (Efron & Tibshirani 1993, ch. 6 and 8; Davison & Hinkley 1997, section 3.8 for
//! the two-stage one):
//! * [`Scheme::RunsWithinPuzzles`]: each puzzle keeps its number of runs, which are drawn with
//!   replacement from its own runs. The puzzles are fixed: the band says how much the curve of
//!   these puzzles moves with other runs of the same algorithm.
//! * [`Scheme::PuzzlesThenRuns`]: puzzles are drawn with replacement, then the runs of each drawn
//!   puzzle as above. The band also covers the choice of puzzles, as for a curve meant to
//!   speak for puzzles like these (wider when the puzzles differ).
//!
//! Each band is the pointwise percentile interval (nearest rank, as
//! [`crate::bootstrap_mean_interval`]) of [`BAND_RESAMPLES`] resamples, at each distinct time
//! of the data (a resample has no other times, so the band is exact between them). The draws
//! come from a SplitMix64 stream whose seed [`seed_from`] derives from a name of the curve:
//! the same data and name give the same band on any machine and thread count. A percentile
//! of proportions stays in [0, 1].

use crate::survival::LifeTable;
use crate::StatsError;

/// Resamples of every band and ERT interval.
pub const BAND_RESAMPLES: usize = 1000;

/// Level of the bands.
pub const BAND_LEVEL: f64 = 0.95;

/// How a curve's runs are resampled (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    RunsWithinPuzzles,
    PuzzlesThenRuns,
}

impl Scheme {
    /// A short description for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Scheme::RunsWithinPuzzles => "runs resampled within each puzzle",
            Scheme::PuzzlesThenRuns => "puzzles resampled, then runs within each drawn puzzle",
        }
    }
}

/// A seed from a name (64-bit FNV-1a): the bands of a curve do not depend on which other
/// curves are drawn or in which order.
pub fn seed_from(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64 (Steele, Lea & Flood 2014).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform on 0..n (multiply-shift).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// Calls `f` once per resample with the multiplicity of each run (indices into the data;
/// `groups` = the runs of each puzzle, every run in exactly one group, non-empty groups).
fn resample(
    groups: &[Vec<usize>],
    runs: usize,
    scheme: Scheme,
    seed: u64,
    mut f: impl FnMut(&[u32]),
) {
    let mut rng = SplitMix(seed);
    let mut counts = vec![0u32; runs];
    for _ in 0..BAND_RESAMPLES {
        counts.fill(0);
        for g in 0..groups.len() {
            let group = match scheme {
                Scheme::RunsWithinPuzzles => &groups[g],
                Scheme::PuzzlesThenRuns => &groups[rng.below(groups.len())],
            };
            for _ in 0..group.len() {
                counts[group[rng.below(group.len())]] += 1;
            }
        }
        f(&counts);
    }
}

/// Checks `groups` against `runs` values: every run in exactly one non-empty group.
fn check_groups(groups: &[Vec<usize>], runs: usize) -> Result<(), StatsError> {
    let mut seen = vec![false; runs];
    for g in groups {
        if g.is_empty() {
            return Err(StatsError::TooFewObservations {
                sample: "a puzzle's runs",
                n: 0,
                min: 1,
            });
        }
        for &i in g {
            if i >= runs || seen[i] {
                return Err(StatsError::InvalidValue {
                    what: "a run index of a group (out of range or repeated)",
                    value: i as f64,
                });
            }
            seen[i] = true;
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(StatsError::InvalidValue {
            what: "a run in no group",
            value: i as f64,
        });
    }
    Ok(())
}

/// The nearest-rank percentile positions of a level among `b` sorted values.
fn ranks(b: usize, level: f64) -> (usize, usize) {
    let rank = |q: f64| ((q * b as f64).ceil() as usize).clamp(1, b) - 1;
    (rank((1.0 - level) / 2.0), rank((1.0 + level) / 2.0))
}

/// A pointwise band on the Kaplan-Meier ECDF `1 - S(t)`: `(times[k], low[k], high[k])` holds
/// from `times[k]` to the next time.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub times: Vec<f64>,
    pub low: Vec<f64>,
    pub high: Vec<f64>,
}

/// The [`BAND_LEVEL`] band of the Kaplan-Meier ECDF of runs with `times` and `events`
/// (true = solved), resampled by `scheme` over `groups` from `seed`.
pub fn ecdf_band(
    times: &[f64],
    events: &[bool],
    groups: &[Vec<usize>],
    scheme: Scheme,
    seed: u64,
) -> Result<Band, StatsError> {
    let table = LifeTable::new(times, events)?;
    check_groups(groups, times.len())?;
    let k = table.times.len();
    // The distinct-time index of each run.
    let at: Vec<usize> = (times.iter())
        .map(|t| table.times.partition_point(|x| x < t))
        .collect();
    let b = BAND_RESAMPLES;
    let mut values = vec![0.0f64; k * b];
    let (mut ev, mut ce) = (vec![0u64; k], vec![0u64; k]);
    let mut r = 0;
    resample(groups, times.len(), scheme, seed, |counts| {
        ev.fill(0);
        ce.fill(0);
        let mut n: u64 = 0;
        for (i, &c) in counts.iter().enumerate() {
            let c = u64::from(c);
            if events[i] {
                ev[at[i]] += c;
            } else {
                ce[at[i]] += c;
            }
            n += c;
        }
        let mut s = 1.0;
        for j in 0..k {
            if ev[j] > 0 {
                s *= (n - ev[j]) as f64 / n as f64;
            }
            values[j * b + r] = 1.0 - s;
            n -= ev[j] + ce[j];
        }
        r += 1;
    });
    let (lo, hi) = ranks(b, BAND_LEVEL);
    let mut band = Band {
        times: table.times,
        low: Vec::with_capacity(k),
        high: Vec::with_capacity(k),
    };
    for col in values.chunks_mut(b) {
        // Two selections instead of a sort: the same order statistics, O(B) per time.
        let low = *col.select_nth_unstable_by(lo, f64::total_cmp).1;
        let high = *col.select_nth_unstable_by(hi, f64::total_cmp).1;
        band.low.push(low.clamp(0.0, 1.0));
        band.high.push(high.clamp(0.0, 1.0));
    }
    Ok(band)
}

/// The [`BAND_LEVEL`] percentile interval of ERT (all `costs` / solved runs) over resamples
/// of runs by `scheme`; a resample without a solved run has an infinite ERT, so the upper
/// end (and with few successes the lower one) can be `inf`.
pub fn ert_interval(
    costs: &[f64],
    solved: &[bool],
    groups: &[Vec<usize>],
    scheme: Scheme,
    seed: u64,
) -> Result<(f64, f64), StatsError> {
    if costs.len() != solved.len() {
        return Err(StatsError::LengthMismatch {
            what: "solved flags for the costs",
            expected: costs.len(),
            got: solved.len(),
        });
    }
    if let Some(&c) = costs.iter().find(|c| !(c.is_finite() && **c >= 0.0)) {
        return Err(StatsError::InvalidValue {
            what: "a run's cost (finite, >= 0)",
            value: c,
        });
    }
    check_groups(groups, costs.len())?;
    let mut erts = Vec::with_capacity(BAND_RESAMPLES);
    resample(groups, costs.len(), scheme, seed, |counts| {
        let (mut spent, mut k) = (0.0, 0u64);
        for (i, &c) in counts.iter().enumerate() {
            spent += f64::from(c) * costs[i];
            k += u64::from(c) * u64::from(solved[i]);
        }
        erts.push(crate::ert(spent, k));
    });
    erts.sort_unstable_by(f64::total_cmp);
    let (lo, hi) = ranks(erts.len(), BAND_LEVEL);
    Ok((erts[lo], erts[hi]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_must_partition_the_runs() {
        assert!(check_groups(&[vec![0, 1], vec![2]], 3).is_ok());
        assert!(check_groups(&[vec![0, 1]], 3).is_err());
        assert!(check_groups(&[vec![0, 1], vec![1, 2]], 3).is_err());
        assert!(check_groups(&[vec![0, 1, 2], vec![]], 3).is_err());
        assert!(check_groups(&[vec![0, 3]], 2).is_err());
    }

    #[test]
    fn runs_within_puzzles_keeps_each_puzzle_size() {
        let groups = vec![vec![0, 1, 2], vec![3, 4]];
        resample(&groups, 5, Scheme::RunsWithinPuzzles, 9, |c| {
            assert_eq!(c[..3].iter().sum::<u32>(), 3);
            assert_eq!(c[3..].iter().sum::<u32>(), 2);
        });
    }
}

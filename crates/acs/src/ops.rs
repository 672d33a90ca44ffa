//! The colony's operators as pure functions, each tested on a table of cases: the choice of
//! a value (the pseudo-random proportional rule of ACS: greedy or roulette), the local and
//! the global pheromone updates, the pheromone a solution deposits, and the start cells.
//!
//! Pheromone values are `f32`, as the authors' code keeps them (`float **pher`), and every
//! update is the code's expression in that precision, so that ties in the greedy choice fall
//! as the code's fall (the local update of an entry at tau0 does not always give tau0 back
//! exactly).

use crate::board::ValueSet;
use rand::Rng;

/// Which draw takes the greedy branch of the choice rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GreedyRule {
    /// Greedy when a uniform draw in [0, 1) is below q0, so with probability q0: the paper's
    /// eq. (1), the rule of ACS (Dorigo & Gambardella), "with probability q0 choose the value
    /// of highest pheromone".
    Q0,
    /// Greedy when the draw is above q0, so with probability 1 - q0: what the authors' public
    /// code does (`if (parent->random() > parent->Getq0())` leads to "greedy selection"), and
    /// so what made the paper's published results.
    OneMinusQ0,
}

/// How the greedy choice breaks a tie between values of equal pheromone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// The lowest tied value: the code scans values upwards and keeps a value only when its
    /// pheromone is strictly higher (`if (parent->Pher(iCell, i) > maxPher)`).
    Lowest,
    /// A value drawn uniformly among the tied ones (the paper's argmax names no tie rule).
    Random,
}

/// How the ants' start cells are drawn at each iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartCell {
    /// Distinct cells, each drawn uniformly among the cells no earlier ant of the iteration
    /// starts on (uniform without replacement): the paper's "assign each ant to a different
    /// cell". With more ants than cells, each block of as many ants as cells is distinct.
    Distinct,
    /// Each ant's cell drawn uniformly and independently, so two ants may share one: the
    /// code's `dist(randGen)` for each ant.
    Independent,
}

/// Whether a draw `u` in [0, 1) takes the greedy branch under `rule`.
#[inline(always)]
pub fn takes_greedy(rule: GreedyRule, u: f64, q0: f64) -> bool {
    match rule {
        GreedyRule::Q0 => u < q0,
        GreedyRule::OneMinusQ0 => u > q0,
    }
}

/// The values of `cand` (0-based) whose pheromone is the highest, as a set, and how many.
#[inline(always)]
pub fn best_values(pher: &[f32], cand: ValueSet) -> (ValueSet, u32) {
    let (mut best, mut max) = (0u32, -1.0f32);
    let mut m = cand;
    while m != 0 {
        let v = m.trailing_zeros();
        m &= m - 1;
        let p = pher[v as usize];
        if p > max {
            (best, max) = (1 << v, p);
        } else if p == max {
            best |= 1 << v;
        }
    }
    (best, best.count_ones())
}

/// The greedy choice (0-based value): the highest pheromone among `cand`, a tie broken by
/// `tie` (a draw only when there is a tie and `tie` is [`TieBreak::Random`]).
#[inline(always)]
pub fn greedy<R: Rng + ?Sized>(pher: &[f32], cand: ValueSet, tie: TieBreak, rng: &mut R) -> u32 {
    let (best, count) = best_values(pher, cand);
    if count == 1 || tie == TieBreak::Lowest {
        return best.trailing_zeros();
    }
    let mut m = best;
    for _ in 0..rng.random_range(0..count) {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// The roulette choice (0-based value) for a uniform `fraction` in [0, 1): the first value of
/// `cand`, upwards, whose running sum of pheromone exceeds `fraction` times the total (the
/// code's cumulative array, summed in the same order in `f32`). When rounding leaves no sum
/// above the target (the code would then fix nothing) the last value is taken.
#[inline(always)]
pub fn roulette(pher: &[f32], cand: ValueSet, fraction: f32) -> u32 {
    let mut total = 0.0f32;
    let mut m = cand;
    while m != 0 {
        total += pher[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    let target = total * fraction;
    let (mut sum, mut m) = (0.0f32, cand);
    while m != 0 {
        let v = m.trailing_zeros();
        sum += pher[v as usize];
        if sum > target {
            return v;
        }
        m &= m - 1;
    }
    31 - cand.leading_zeros()
}

/// The local pheromone update of the value an ant just chose (the paper's eq. (3), the code's
/// `LocalPheromoneUpdate`): `tau <- (1 - xi) tau + xi tau0`.
#[inline(always)]
pub fn local_update(tau: f32, xi: f32, tau0: f32) -> f32 {
    tau * (1.0 - xi) + tau0 * xi
}

/// The global update of a value of the best solution (the paper's eq. (6), the code's
/// `UpdatePheromone`): `tau <- (1 - rho) tau + rho delta_best`.
#[inline(always)]
pub fn global_update(tau: f32, rho: f32, delta_best: f32) -> f32 {
    tau * (1.0 - rho) + rho * delta_best
}

/// The pheromone a solution with `filled` of `cells` cells filled deposits (the paper's eq.
/// (5), the code's `PherAdd`): `cells / (cells - filled)`, infinite for a solution.
#[inline(always)]
pub fn deposit(cells: usize, filled: usize) -> f32 {
    cells as f32 / (cells - filled) as f32
}

/// The start cells of one iteration, one per ant, into `out` (`taken` is scratch of `cells`
/// flags).
pub fn start_cells<R: Rng + ?Sized>(
    how: StartCell,
    cells: usize,
    out: &mut [usize],
    taken: &mut [bool],
    rng: &mut R,
) {
    for (a, slot) in out.iter_mut().enumerate() {
        if a % cells == 0 {
            taken.fill(false);
        }
        *slot = loop {
            let c = rng.random_range(0..cells);
            if how == StartCell::Independent || !taken[c] {
                break c;
            }
        };
        taken[*slot] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_core::rng_from_seed;

    #[test]
    fn greedy_branch_under_both_rules() {
        // (rule, draw, q0, greedy?)
        let cases = [
            (GreedyRule::Q0, 0.0, 0.9, true),
            (GreedyRule::Q0, 0.89, 0.9, true),
            (GreedyRule::Q0, 0.9, 0.9, false),
            (GreedyRule::Q0, 0.95, 0.9, false),
            (GreedyRule::OneMinusQ0, 0.0, 0.9, false),
            (GreedyRule::OneMinusQ0, 0.9, 0.9, false),
            (GreedyRule::OneMinusQ0, 0.95, 0.9, true),
            (GreedyRule::Q0, 0.5, 1.0, true),
            (GreedyRule::OneMinusQ0, 0.5, 0.0, true),
        ];
        for (k, &(rule, u, q0, want)) in cases.iter().enumerate() {
            assert_eq!(takes_greedy(rule, u, q0), want, "case {k}");
        }
        // The frequencies: q0 and 1 - q0 of 100 000 draws (5 standard deviations).
        let mut rng = rng_from_seed(3);
        let (mut a, mut b) = (0u32, 0u32);
        for _ in 0..100_000 {
            let u: f64 = rng.random();
            a += u32::from(takes_greedy(GreedyRule::Q0, u, 0.9));
            b += u32::from(takes_greedy(GreedyRule::OneMinusQ0, u, 0.9));
        }
        assert!((89_525..=90_475).contains(&a), "{a}");
        assert!((9_525..=10_475).contains(&b), "{b}");
    }

    #[test]
    fn greedy_choice_and_ties() {
        let pher = [0.5f32, 0.7, 0.7, 0.1, 0.9];
        // (candidates, lowest-tie choice, tied set)
        let cases = [
            (0b11111, 4, 0b10000),
            (0b01111, 1, 0b00110),
            (0b01101, 2, 0b00100),
            (0b01001, 0, 0b00001),
            (0b01000, 3, 0b01000),
        ];
        let mut rng = rng_from_seed(1);
        for (k, &(cand, want, tied)) in cases.iter().enumerate() {
            assert_eq!(best_values(&pher, cand).0, tied, "case {k}");
            assert_eq!(
                greedy(&pher, cand, TieBreak::Lowest, &mut rng),
                want,
                "case {k}"
            );
        }
        // Random ties: both tied values, about equally often; never an untied one.
        let mut seen = [0u32; 5];
        for _ in 0..4000 {
            seen[greedy(&pher, 0b01111, TieBreak::Random, &mut rng) as usize] += 1;
        }
        assert_eq!(seen[0] + seen[3] + seen[4], 0);
        assert!((1800..=2200).contains(&seen[1]), "{seen:?}");
        // No draw is spent without a tie.
        let (mut a, b) = (rng_from_seed(9), rng_from_seed(9));
        greedy(&pher, 0b11111, TieBreak::Random, &mut a);
        assert_eq!(a, b);
    }

    #[test]
    fn roulette_choice() {
        let pher = [1.0f32, 2.0, 3.0, 4.0];
        // (candidates, fraction, choice): running sums over {0,1,2,3} are 1, 3, 6, 10.
        let cases = [
            (0b1111, 0.0, 0),
            (0b1111, 0.099, 0),
            (0b1111, 0.1, 1),
            (0b1111, 0.5, 2),
            (0b1111, 0.6, 3),
            (0b1111, 0.999, 3),
            // Over {1, 3}: sums 2, 6.
            (0b1010, 0.3, 1),
            (0b1010, 0.34, 3),
            (0b0100, 0.7, 2),
        ];
        for (k, &(cand, f, want)) in cases.iter().enumerate() {
            assert_eq!(roulette(&pher, cand, f), want, "case {k}");
        }
        // A fraction whose target rounds to the total falls back to the last value.
        assert_eq!(roulette(&pher, 0b0111, 1.0), 2);
        // Frequencies follow the pheromone: 1:2:3:4.
        let mut rng = rng_from_seed(4);
        let mut seen = [0u32; 4];
        for _ in 0..100_000 {
            seen[roulette(&pher, 0b1111, rng.random()) as usize] += 1;
        }
        for (v, &s) in seen.iter().enumerate() {
            let want = 10_000.0 * (v + 1) as f64;
            assert!((s as f64 - want).abs() < 5.0 * want.sqrt(), "{seen:?}");
        }
    }

    #[test]
    fn pheromone_arithmetic() {
        let tau0 = 1.0f32 / 81.0;
        // Local: tau <- 0.9 tau + 0.1 tau0, in f32.
        let cases = [
            (1.0f32, 0.9 + 0.1 * tau0),
            (tau0, tau0 * 0.9 + tau0 * 0.1),
            (0.5, 0.45 + 0.1 * tau0),
        ];
        for (k, &(tau, want)) in cases.iter().enumerate() {
            assert!(
                (local_update(tau, 0.1, tau0) - want).abs() <= f32::EPSILON * want,
                "case {k}"
            );
        }
        // The code's constants: (1 - 0.1f32) is 0.9f32.
        assert_eq!(1.0f32 - 0.1f32, 0.9f32);
        // Global: tau <- 0.1 tau + 0.9 delta.
        assert_eq!(
            global_update(tau0, 0.9, 2.0),
            tau0 * (1.0 - 0.9f32) + 0.9 * 2.0
        );
        assert!((global_update(1.0, 0.9, 2.0) - 1.9).abs() < 1e-6);
        assert_eq!(global_update(5.0, 1.0, 2.0), 2.0);
        // Deposit: c / (c - f).
        let cases = [
            (81, 0, 1.0f32),
            (81, 54, 3.0),
            (81, 80, 81.0),
            (256, 192, 4.0),
            (625, 600, 25.0),
        ];
        for (k, &(c, f, want)) in cases.iter().enumerate() {
            assert_eq!(deposit(c, f), want, "case {k}");
        }
        assert!(deposit(81, 81).is_infinite());
        // Best-value evaporation: 100 iterations at 0.005 leave 0.995^100 of the value.
        let mut best = 3.0f32;
        for _ in 0..100 {
            best *= 1.0 - 0.005f32;
        }
        assert!((best - 3.0 * 0.995f32.powi(100)).abs() < 1e-4, "{best}");
    }

    #[test]
    fn start_cells_distinct_or_independent() {
        let mut rng = rng_from_seed(2);
        let mut taken = vec![false; 16];
        let mut out = vec![0; 16];
        start_cells(StartCell::Distinct, 16, &mut out, &mut taken, &mut rng);
        let mut sorted = out.clone();
        sorted.sort();
        assert_eq!(sorted, (0..16).collect::<Vec<_>>());
        // More ants than cells: each block of 16 is a permutation.
        let mut out = vec![0; 40];
        start_cells(StartCell::Distinct, 16, &mut out, &mut taken, &mut rng);
        for block in out.chunks(16) {
            let mut b = block.to_vec();
            b.sort();
            b.dedup();
            assert_eq!(b.len(), block.len());
        }
        // Independent draws repeat cells: 16 draws over 16 cells are distinct with chance
        // 16!/16^16 (about 1e-6).
        let mut out = vec![0; 16];
        start_cells(StartCell::Independent, 16, &mut out, &mut taken, &mut rng);
        out.sort();
        out.dedup();
        assert!(out.len() < 16);
    }
}
